//! What a fill keeps between attempts: the most recent entries of a kind (base grids,
//! solution classes), the oldest dropped first.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;

/// At most `capacity` entries by key; inserting past it drops the oldest.
pub(super) struct Kept<K, V> {
    capacity: usize,
    entries: HashMap<K, V>,
    /// Keys from oldest to newest.
    order: VecDeque<K>,
}

impl<K: Copy + Eq + Hash, V> Kept<K, V> {
    pub(super) fn new(capacity: usize) -> Kept<K, V> {
        Kept {
            capacity,
            entries: HashMap::new(),
            order: VecDeque::new(),
        }
    }

    pub(super) fn get(&self, key: &K) -> Option<&V> {
        self.entries.get(key)
    }

    /// Keeps `value` under `key` (a key already kept keeps its first value).
    pub(super) fn insert(&mut self, key: K, value: V) {
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
            (kept.get(&1), kept.get(&2), kept.get(&3)),
            (None, Some(&"b"), Some(&"c"))
        );
    }
}
