//! What the fill has seen: the fingerprints stored or accepted (a puzzle is stored once)
//! and, under `generation.max_per_solution_class`, how many puzzles each solution class
//! holds. Decided on the main thread, in job order, like everything that shapes a run.

use crate::bank::{fingerprint_prefix, PuzzleRecord};
use std::collections::{HashMap, HashSet};

/// Whether an accepted puzzle may be stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    /// New: stored.
    New,
    /// Its fingerprint is stored (or retired) already.
    Duplicate,
    /// Its solution class holds as many puzzles as the cap allows.
    ClassFull,
}

/// Fingerprints and class counts, as 16-byte prefixes of their hex hashes.
pub struct Seen {
    fingerprints: HashSet<[u8; 16]>,
    /// Full fingerprints, kept only under `dedup = "full"`.
    full: Option<HashSet<[u8; 16]>>,
    /// Puzzles per class, kept only under a cap.
    classes: Option<(u32, HashMap<[u8; 16], u32>)>,
}

impl Seen {
    /// From the bank's fingerprints, its full fingerprints under `dedup = "full"`, and,
    /// with a cap, its class counts.
    pub fn new(
        fingerprints: HashSet<[u8; 16]>,
        full: Option<HashSet<[u8; 16]>>,
        cap: Option<(u32, HashMap<[u8; 16], u32>)>,
    ) -> Seen {
        Seen {
            fingerprints,
            full,
            classes: cap,
        }
    }

    /// Admits a puzzle (recording it) or says why not.
    pub fn admit(&mut self, p: &PuzzleRecord) -> Admission {
        let fingerprint = fingerprint_prefix(&p.fingerprint);
        if self.fingerprints.contains(&fingerprint) {
            return Admission::Duplicate;
        }
        let full = match (&self.full, &p.full_fingerprint) {
            (Some(seen), Some(full)) => {
                let full = fingerprint_prefix(full);
                if seen.contains(&full) {
                    return Admission::Duplicate;
                }
                Some(full)
            }
            _ => None,
        };
        if let (Some((cap, counts)), Some(class)) = (&mut self.classes, &p.solution_class) {
            let n = counts.entry(fingerprint_prefix(class)).or_default();
            if *n >= *cap {
                return Admission::ClassFull;
            }
            *n += 1;
        }
        self.fingerprints.insert(fingerprint);
        if let (Some(seen), Some(full)) = (&mut self.full, full) {
            seen.insert(full);
        }
        Admission::New
    }
}
