//! The writer thread: owns the bank's connection and stores batches in transactions.
//! Workers never touch the database.

use crate::bank::{Bank, Batch};
use anyhow::Result;
use std::collections::HashMap;
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long finished puzzles may wait in memory before they are committed.
const FLUSH_INTERVAL: Duration = Duration::from_millis(500);

/// What the writer did.
#[derive(Debug, Default)]
pub struct WriterReport {
    /// Puzzles stored.
    pub inserted: u64,
    /// Puzzles stored per (grid side, tier).
    pub stored: HashMap<(usize, String), u64>,
    /// Puzzles another process stored first (same fingerprint).
    pub ignored: u64,
    /// Transactions committed.
    pub transactions: u64,
    /// Time spent inside transactions (the writer's share of the machine).
    pub busy: Duration,
    /// Why the writer stopped early: the bank refused a transaction (a full disk, an I/O
    /// error). What it stored before stays stored and counted above.
    pub failure: Option<anyhow::Error>,
}

/// Handle to the writer thread.
pub struct Writer {
    sender: SyncSender<Batch>,
    handle: JoinHandle<(Bank, WriterReport)>,
}

impl Writer {
    /// Starts the writer on `bank` for run `run_id`, committing every `batch_size` puzzles.
    pub fn start(bank: Bank, run_id: i64, batch_size: usize) -> Writer {
        let (sender, receiver) = sync_channel::<Batch>(64);
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
    pub fn send(&self, chunk: Batch) -> Result<()> {
        self.sender
            .send(chunk)
            .map_err(|_| anyhow::anyhow!("the bank writer stopped"))
    }

    /// Flushes, stops the writer and returns the bank and its report.
    pub fn finish(self) -> (Bank, WriterReport) {
        drop(self.sender);
        self.handle.join().expect("writer thread panicked")
    }
}

/// Stores what arrives until the senders are gone or a transaction fails.
fn write_loop(
    bank: &mut Bank,
    run_id: i64,
    batch_size: usize,
    rx: Receiver<Batch>,
) -> WriterReport {
    let mut report = WriterReport::default();
    if let Err(e) = store_all(bank, run_id, batch_size, &rx, &mut report) {
        report.failure = Some(e);
    }
    report
}

fn store_all(
    bank: &mut Bank,
    run_id: i64,
    batch_size: usize,
    rx: &Receiver<Batch>,
    report: &mut WriterReport,
) -> Result<()> {
    let mut pending = Batch {
        puzzles: Vec::with_capacity(batch_size),
        ..Batch::default()
    };
    // When the oldest chunk not yet stored arrived (`None`: nothing pending).
    let mut oldest: Option<Instant> = None;
    loop {
        let done = match rx.recv_timeout(FLUSH_INTERVAL) {
            Ok(chunk) => {
                pending.absorb(chunk);
                oldest.get_or_insert_with(Instant::now);
                false
            }
            Err(RecvTimeoutError::Timeout) => false,
            Err(RecvTimeoutError::Disconnected) => true,
        };
        if let Some(since) = oldest {
            let due = since.elapsed() >= FLUSH_INTERVAL;
            if done || due || pending.puzzles.len() >= batch_size || !pending.alarms.is_empty() {
                // The run's counters as stored: puzzles another process stored first are
                // duplicates, not accepted.
                if let Some(counts) = &mut pending.counts {
                    counts.accepted -= report.ignored;
                    counts.duplicates += report.ignored;
                }
                let started = Instant::now();
                let new = bank.insert_batch(run_id, &pending)?;
                report.busy += started.elapsed();
                for (p, _) in pending.puzzles.iter().zip(&new).filter(|(_, &n)| n) {
                    *report
                        .stored
                        .entry((p.geometry.n(), p.tier.clone()))
                        .or_default() += 1;
                    report.inserted += 1;
                }
                report.ignored += new.iter().filter(|&&n| !n).count() as u64;
                report.transactions += 1;
                pending.clear();
                oldest = None;
            }
        }
        if done {
            return Ok(());
        }
    }
}
