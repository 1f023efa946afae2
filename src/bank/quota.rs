//! One quota shared by every writer: a quota run (`nightly`, `fill --quota`) passes its
//! quotas with each batch, and the backend stores a puzzle only while the stock of its
//! size and tier is below the quota, counted inside the batch's transaction under a lock
//! per size and tier. Several workers on one bank therefore add exactly what the quotas
//! lack between them, whatever each thought it lacked when it started; the puzzles a
//! worker made past that point are surplus, dropped, and its tier closes.

use super::{Batch, PuzzleRecord};
use crate::grid::Variant;
use anyhow::Result;
use std::collections::{BTreeMap, HashMap};

/// A size and tier.
pub type StockKey = (usize, Variant, String);

/// Unserved puzzles wanted per size and tier (empty: no quota, store everything).
/// The stock a puzzle counts in: its size, variant and tier.
pub fn stock_key(p: &PuzzleRecord) -> StockKey {
    (p.geometry.n(), p.geometry.variant(), p.tier.clone())
}

pub type StockCaps = HashMap<StockKey, u64>;

/// What became of one puzzle of a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stored {
    /// Stored.
    New,
    /// Its fingerprint was stored (or retired) already, by this or another process.
    Duplicate,
    /// Its size and tier already held the quota's stock (other workers filled it).
    Surplus,
}

/// What a batch did: per puzzle, and the quota stocks it found full.
#[derive(Clone, Debug, Default)]
pub struct Inserted {
    /// Per puzzle of the batch, in order.
    pub outcomes: Vec<Stored>,
    /// Sizes and tiers whose stock reached its quota in this transaction.
    pub full: Vec<StockKey>,
}

/// The room left under each quota a batch touches, counted once per transaction.
pub struct Room {
    left: BTreeMap<StockKey, u64>,
}

impl Room {
    /// Counts the room for every capped size and tier in `batch`, in sorted key order (the
    /// order backends take their per-stock locks in, so two writers never deadlock).
    /// `unserved` locks a stock for the rest of the transaction and counts it.
    pub fn count(
        caps: &StockCaps,
        batch: &Batch,
        mut unserved: impl FnMut(usize, Variant, &str) -> Result<u64>,
    ) -> Result<Room> {
        let mut keys: Vec<StockKey> = batch
            .puzzles
            .iter()
            .map(stock_key)
            .filter(|k| caps.contains_key(k))
            .collect();
        keys.sort();
        keys.dedup();
        let mut left = BTreeMap::new();
        for key in keys {
            let have = unserved(key.0, key.1, &key.2)?;
            left.insert(key.clone(), caps[&key].saturating_sub(have));
        }
        Ok(Room { left })
    }

    /// Whether a puzzle of `key` still fits (uncapped stocks always do).
    pub fn fits(&self, key: &StockKey) -> bool {
        self.left.get(key).is_none_or(|&n| n > 0)
    }

    /// Counts a puzzle of `key` about to be stored.
    pub fn take(&mut self, key: &StockKey) {
        if let Some(n) = self.left.get_mut(key) {
            *n = n.saturating_sub(1);
        }
    }

    /// Gives back the place of a puzzle that turned out a duplicate.
    pub fn give_back(&mut self, key: &StockKey) {
        if let Some(n) = self.left.get_mut(key) {
            *n += 1;
        }
    }

    /// The stocks now at their quota.
    pub fn full(&self) -> Vec<StockKey> {
        self.left
            .iter()
            .filter(|(_, &n)| n == 0)
            .map(|(k, _)| k.clone())
            .collect()
    }
}

/// Stores a batch's puzzles under `room`: `store` inserts some at once and says, per
/// puzzle, whether it was new. Each pass hands it every undecided puzzle that fits; a
/// duplicate gives its place back to the next pass, so the result is the one a puzzle-
/// by-puzzle insert in batch order would give. Shared by the backends so the quota rule
/// is one piece of code.
pub fn insert_within(
    batch: &Batch,
    mut room: Room,
    mut store: impl FnMut(&[&PuzzleRecord]) -> Result<Vec<bool>>,
) -> Result<Inserted> {
    let mut outcomes: Vec<Option<Stored>> = vec![None; batch.puzzles.len()];
    loop {
        let mut picked = Vec::new();
        for (i, p) in batch.puzzles.iter().enumerate() {
            let k = stock_key(p);
            if outcomes[i].is_none() && room.fits(&k) {
                room.take(&k);
                picked.push(i);
            }
        }
        if picked.is_empty() {
            break;
        }
        let records: Vec<&PuzzleRecord> = picked.iter().map(|&i| &batch.puzzles[i]).collect();
        let new = store(&records)?;
        for (&i, &was_new) in picked.iter().zip(&new) {
            outcomes[i] = Some(if was_new {
                Stored::New
            } else {
                room.give_back(&stock_key(&batch.puzzles[i]));
                Stored::Duplicate
            });
        }
    }
    Ok(Inserted {
        outcomes: outcomes
            .into_iter()
            .map(|o| o.unwrap_or(Stored::Surplus))
            .collect(),
        full: room.full(),
    })
}
