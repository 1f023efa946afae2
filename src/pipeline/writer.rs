//! The writer thread: owns the bank's connection and stores batches in transactions.
//! Workers never touch the database.

use crate::bank::{AlarmRecord, Bank, PuzzleRecord, RunCounts};
use anyhow::Result;
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long finished puzzles may wait in memory before they are committed.
const FLUSH_INTERVAL: Duration = Duration::from_millis(500);

/// A chunk's results for the writer.
#[derive(Default)]
pub struct Chunk {
    /// Accepted puzzles, in job order.
    pub puzzles: Vec<PuzzleRecord>,
    /// Alarms raised.
    pub alarms: Vec<AlarmRecord>,
    /// The run's counters after this chunk.
    pub counts: RunCounts,
}

/// What the writer did.
#[derive(Clone, Copy, Debug, Default)]
pub struct WriterReport {
    /// Puzzles stored.
    pub inserted: u64,
    /// Puzzles another process stored first (same fingerprint).
    pub ignored: u64,
    /// Transactions committed.
    pub transactions: u64,
    /// Time spent inside transactions (the writer's share of the machine).
    pub busy: Duration,
}

/// Handle to the writer thread.
pub struct Writer {
    sender: SyncSender<Chunk>,
    handle: JoinHandle<(Bank, Result<WriterReport>)>,
}

impl Writer {
    /// Starts the writer on `bank` for run `run_id`, committing every `batch_size` puzzles.
    pub fn start(bank: Bank, run_id: i64, batch_size: usize) -> Writer {
        let (sender, receiver) = sync_channel::<Chunk>(64);
        let handle = std::thread::Builder::new()
            .name("bank-writer".into())
            .spawn(move || {
                let mut bank = bank;
                let report = write_loop(&mut bank, run_id, batch_size, receiver);
                (bank, report)
            })
            .expect("spawn writer thread");
        Writer { sender, handle }
    }

    /// Queues a chunk; fails when the writer has stopped on an error.
    pub fn send(&self, chunk: Chunk) -> Result<()> {
        self.sender
            .send(chunk)
            .map_err(|_| anyhow::anyhow!("the bank writer stopped"))
    }

    /// Flushes, stops the writer and returns the bank and its report.
    pub fn finish(self) -> (Bank, Result<WriterReport>) {
        drop(self.sender);
        self.handle.join().expect("writer thread panicked")
    }
}

fn write_loop(
    bank: &mut Bank,
    run_id: i64,
    batch_size: usize,
    rx: Receiver<Chunk>,
) -> Result<WriterReport> {
    let mut report = WriterReport::default();
    let mut puzzles = Vec::with_capacity(batch_size);
    let mut alarms = Vec::new();
    let mut counts = None;
    let mut oldest: Option<Instant> = None;
    loop {
        let done = match rx.recv_timeout(FLUSH_INTERVAL) {
            Ok(chunk) => {
                puzzles.extend(chunk.puzzles);
                alarms.extend(chunk.alarms);
                counts = Some(chunk.counts);
                oldest.get_or_insert_with(Instant::now);
                false
            }
            Err(RecvTimeoutError::Timeout) => false,
            Err(RecvTimeoutError::Disconnected) => true,
        };
        let due = oldest.is_some_and(|t| t.elapsed() >= FLUSH_INTERVAL);
        if let Some(c) = counts {
            if done || due || puzzles.len() >= batch_size || !alarms.is_empty() {
                let started = Instant::now();
                let n = bank.insert_batch(run_id, &puzzles, &alarms, &c)?;
                report.busy += started.elapsed();
                report.inserted += n as u64;
                report.ignored += (puzzles.len() - n) as u64;
                report.transactions += 1;
                puzzles.clear();
                alarms.clear();
                counts = None;
                oldest = None;
            }
        }
        if done {
            return Ok(report);
        }
    }
}
