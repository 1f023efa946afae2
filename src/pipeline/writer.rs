//! The writer thread: owns the bank's connection and stores batches in transactions.
//! Workers never touch the database.

use crate::bank::quota::{StockCaps, StockKey, Stored};
use crate::bank::{Bank, Batch};
use anyhow::Result;
use std::collections::HashMap;
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long finished puzzles may wait in memory before they are committed.
const FLUSH_INTERVAL: Duration = Duration::from_millis(250);

/// How often a run with nothing to store still refreshes its heartbeat (a quarter of
/// the lease other hosts wait before they take it for dead).
const HEARTBEAT: Duration = Duration::from_secs(15);

/// What the writer did.
#[derive(Debug, Default)]
pub struct WriterReport {
    /// Puzzles stored.
    pub inserted: u64,
    /// Puzzles stored per (grid side, tier).
    pub stored: HashMap<StockKey, u64>,
    /// Puzzles another process stored first (same fingerprint).
    pub ignored: u64,
    /// Puzzles dropped because their stock had reached its quota (other workers filled
    /// it), per (grid side, tier).
    pub surplus: HashMap<StockKey, u64>,
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
    full: Arc<Mutex<Vec<StockKey>>>,
}

impl Writer {
    /// Starts the writer on `bank` for run `run_id`, committing every `batch_size` puzzles
    /// and storing none past the quotas in `caps` (empty: no quota).
    pub fn start(bank: Bank, run_id: i64, batch_size: usize, caps: StockCaps) -> Writer {
        let (sender, receiver) = sync_channel::<Batch>(64);
        let full = Arc::new(Mutex::new(Vec::new()));
        let target = Target {
            run_id,
            batch_size,
            caps,
            full: Arc::clone(&full),
        };
        let handle = std::thread::Builder::new()
            .name("bank-writer".into())
            .spawn(move || {
                let mut bank = bank;
                let report = write_loop(&mut bank, &target, receiver);
                (bank, report)
            })
            .expect("spawn writer thread");
        Writer {
            sender,
            handle,
            full,
        }
    }

    /// The stocks the bank reported at their quota since the last call.
    pub fn take_full(&self) -> Vec<StockKey> {
        std::mem::take(&mut *self.full.lock().unwrap_or_else(|e| e.into_inner()))
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

/// Where and how the writer stores.
struct Target {
    run_id: i64,
    batch_size: usize,
    caps: StockCaps,
    /// Stocks found at their quota, for the fill to close.
    full: Arc<Mutex<Vec<StockKey>>>,
}

/// Stores what arrives until the senders are gone or a transaction fails.
fn write_loop(bank: &mut Bank, target: &Target, rx: Receiver<Batch>) -> WriterReport {
    let mut report = WriterReport::default();
    if let Err(e) = store_all(bank, target, &rx, &mut report) {
        report.failure = Some(e);
    }
    report
}

fn store_all(
    bank: &mut Bank,
    target: &Target,
    rx: &Receiver<Batch>,
    report: &mut WriterReport,
) -> Result<()> {
    let batch_size = target.batch_size;
    let mut pending = Batch {
        puzzles: Vec::with_capacity(batch_size),
        ..Batch::default()
    };
    // When the oldest chunk not yet stored arrived (`None`: nothing pending).
    let mut oldest: Option<Instant> = None;
    // When this run last wrote its row: a worker in a long round (nothing to store) still
    // tells other hosts it is alive, well inside the lease.
    let mut last_write = Instant::now();
    loop {
        let done = match rx.recv_timeout(FLUSH_INTERVAL) {
            Ok(chunk) => {
                pending.absorb(chunk);
                oldest.get_or_insert_with(Instant::now);
                false
            }
            Err(RecvTimeoutError::Timeout) => {
                if oldest.is_none() && last_write.elapsed() >= HEARTBEAT {
                    bank.heartbeat(target.run_id)?;
                    last_write = Instant::now();
                }
                false
            }
            Err(RecvTimeoutError::Disconnected) => true,
        };
        if let Some(since) = oldest {
            let due = since.elapsed() >= FLUSH_INTERVAL;
            if done || due || pending.puzzles.len() >= batch_size || !pending.alarms.is_empty() {
                // The run's counters as stored: puzzles another process stored first are
                // duplicates, not accepted, and surplus ones are not stored at all.
                if let Some(counts) = &mut pending.counts {
                    let surplus: u64 = report.surplus.values().sum();
                    counts.accepted -= report.ignored + surplus;
                    counts.duplicates += report.ignored;
                }
                let started = Instant::now();
                let done_now = bank.insert_batch(target.run_id, &pending, &target.caps)?;
                report.busy += started.elapsed();
                for (p, outcome) in pending.puzzles.iter().zip(&done_now.outcomes) {
                    let key = crate::bank::quota::stock_key(p);
                    match outcome {
                        Stored::New => {
                            *report.stored.entry(key).or_default() += 1;
                            report.inserted += 1;
                        }
                        Stored::Duplicate => report.ignored += 1,
                        Stored::Surplus => *report.surplus.entry(key).or_default() += 1,
                    }
                }
                if !done_now.full.is_empty() {
                    let mut full = target.full.lock().unwrap_or_else(|e| e.into_inner());
                    full.extend(done_now.full);
                }
                report.transactions += 1;
                last_write = Instant::now();
                pending.clear();
                oldest = None;
            }
        }
        if done {
            return Ok(());
        }
    }
}
