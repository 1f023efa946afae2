//! What a fill keeps between attempts: the most recent entries of a kind (base grids,
//! solution classes), the oldest dropped first.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// Bumped by [`forget_kept`]: a [`Kept`] last used before starts empty again.
static ERA: AtomicU64 = AtomicU64::new(0);

/// Empties what every worker keeps between attempts, as a new process starts empty:
/// `bench fill` calls it before each fill, so that a fill is timed from the cold start a
/// `bank fill` has, not from the grids an earlier round of the same seed left.
pub fn forget_kept() {
    ERA.fetch_add(1, Ordering::Relaxed);
}

/// At most `capacity` entries by key; inserting past it drops the oldest.
pub(super) struct Kept<K, V> {
    capacity: usize,
    entries: HashMap<K, V>,
    /// Keys from oldest to newest.
    order: VecDeque<K>,
    /// The [`ERA`] of its entries.
    era: u64,
}

impl<K: Copy + Eq + Hash, V> Kept<K, V> {
    pub(super) fn new(capacity: usize) -> Kept<K, V> {
        Kept {
            capacity,
            entries: HashMap::new(),
            order: VecDeque::new(),
            era: ERA.load(Ordering::Relaxed),
        }
    }

    /// Drops every entry kept before the last [`forget_kept`].
    fn in_this_era(&mut self) -> &mut Self {
        self.in_era(ERA.load(Ordering::Relaxed))
    }

    /// Drops every entry kept in another era than `era`.
    fn in_era(&mut self, era: u64) -> &mut Self {
        if self.era != era {
            self.entries.clear();
            self.order.clear();
            self.era = era;
        }
        self
    }

    pub(super) fn get(&mut self, key: &K) -> Option<&V> {
        self.in_this_era().entries.get(key)
    }

    /// Keeps `value` under `key` (a key already kept keeps its first value).
    pub(super) fn insert(&mut self, key: K, value: V) {
        self.in_this_era();
        if self.entries.contains_key(&key) {
            return;
        }
        if self.order.len() == self.capacity {
            if let Some(oldest) = self.order.pop_front() {
                self.entries.remove(&oldest);
            }
        }
        self.order.push_back(key);
        self.entries.insert(key, value);
    }
}

/// A [`Kept`] that all workers share, behind a lock: a job goes to whichever worker is
/// free, so what one worker built serves the others.
pub(super) struct SharedKept<K, V> {
    capacity: usize,
    kept: OnceLock<Mutex<Kept<K, V>>>,
}

impl<K: Copy + Eq + Hash, V: Clone> SharedKept<K, V> {
    pub(super) const fn new(capacity: usize) -> SharedKept<K, V> {
        SharedKept {
            capacity,
            kept: OnceLock::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Kept<K, V>> {
        let kept = self
            .kept
            .get_or_init(|| Mutex::new(Kept::new(self.capacity)));
        // Nothing panics while holding the lock, and a poisoned one still holds whole
        // values.
        kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The value kept under `key`, else `build`'s, kept for the others. `build` runs
    /// outside the lock: two workers may build one key at once, and both get the value
    /// kept first.
    pub(super) fn get_or_build<E>(
        &self,
        key: K,
        build: impl FnOnce() -> Result<V, E>,
    ) -> Result<V, E> {
        if let Some(value) = self.lock().get(&key) {
            return Ok(value.clone());
        }
        let value = build()?;
        let mut kept = self.lock();
        kept.insert(key, value.clone());
        Ok(kept.get(&key).cloned().unwrap_or(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_and_drops_the_oldest() {
        let mut kept = Kept::new(2);
        kept.insert(1, "a");
        kept.insert(2, "b");
        kept.insert(1, "again");
        assert_eq!(kept.get(&1), Some(&"a"));
        kept.insert(3, "c");
        assert_eq!(
            (
                kept.get(&1).copied(),
                kept.get(&2).copied(),
                kept.get(&3).copied()
            ),
            (None, Some("b"), Some("c"))
        );
    }

    /// What was kept before [`forget_kept`] is gone after it. (Tried on another era than
    /// the global one: bumping that would empty the other tests' kept values.)
    #[test]
    fn a_new_era_starts_empty() {
        let mut kept = Kept::new(2);
        kept.insert(1, "a");
        let era = kept.era;
        assert_eq!(kept.in_era(era).entries.len(), 1);
        assert!(kept.in_era(era + 1).entries.is_empty());
        assert!(kept.in_era(era + 1).order.is_empty());
    }

    /// A shared value is built once, the first value stays, and a failed build keeps
    /// nothing.
    #[test]
    fn shared_values_are_built_once() {
        let shared = SharedKept::new(4);
        let mut builds = 0;
        let mut build = |v: &'static str| {
            builds += 1;
            Ok::<_, ()>(v)
        };
        assert_eq!(shared.get_or_build(1, || build("a")), Ok("a"));
        assert_eq!(shared.get_or_build(1, || build("again")), Ok("a"));
        assert_eq!(builds, 1);
        assert_eq!(shared.get_or_build(2, || Err(())), Err(()));
        assert_eq!(shared.get_or_build(2, || Ok::<_, ()>("b")), Ok("b"));
    }
}
