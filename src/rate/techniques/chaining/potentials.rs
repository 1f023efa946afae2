//! Potentials (a candidate assumed on or off) and sets of them.

/// A candidate assumed on (`2 * candidate + 1`) or off (`2 * candidate`). Candidates are
/// the open cells' candidates of the board, numbered from 0 in cell and digit order (see
/// [`super::Links::potential`]), so bit sets are as small as the board's candidates.
pub type Potential = u32;

/// A set of potentials: the off half, then the on half, one bit per candidate each.
/// Owned (`Vec`) or borrowed from a larger store (a slice).
#[derive(Clone, Debug, PartialEq)]
pub struct PotentialSet<W = Vec<u64>>(pub(super) W);

/// A set of potentials borrowed from a larger store.
pub type PotentialSlice<'a> = PotentialSet<&'a [u64]>;

impl<W: AsRef<[u64]>> PotentialSet<W> {
    fn words(&self) -> &[u64] {
        self.0.as_ref()
    }

    /// Whether the set holds `p`.
    pub fn contains(&self, p: Potential) -> bool {
        let i = self.index(p);
        self.words()[i / 64] & (1 << (i % 64)) != 0
    }

    /// The candidates in the set both on and off, as candidate bit set words.
    pub(super) fn both_ways(&self) -> impl Iterator<Item = u64> + '_ {
        let (off, on) = self.words().split_at(self.words().len() / 2);
        off.iter().zip(on).map(|(a, b)| a & b)
    }

    /// Whether some candidate is in the set both on and off: the assumptions behind it
    /// contradict each other.
    pub fn contradicts(&self) -> bool {
        self.both_ways().any(|w| w != 0)
    }

    /// Bit position of `p`: its candidate, in the on half when on.
    fn index(&self, p: Potential) -> usize {
        (p as usize / 2) + (p as usize % 2) * (self.words().len() / 2) * 64
    }

    /// Whether `other` holds every potential of this set.
    #[cfg(test)]
    pub fn is_subset<V: AsRef<[u64]>>(&self, other: &PotentialSet<V>) -> bool {
        self.words()
            .iter()
            .zip(other.words())
            .all(|(a, b)| a & !b == 0)
    }

    /// The potentials in the set, in order of candidate, offs first.
    pub fn iter(&self) -> impl Iterator<Item = Potential> + '_ {
        let half = self.words().len() / 2;
        self.words().iter().enumerate().flat_map(move |(w, &word)| {
            let on = u32::from(w >= half);
            let base = ((w % half) * 64) as u32;
            ones(word).map(move |b| 2 * (base + b) + on)
        })
    }

    /// An owned copy.
    #[cfg(test)]
    pub fn to_owned_set(&self) -> PotentialSet {
        PotentialSet(self.words().to_vec())
    }
}

impl<'a> PotentialSlice<'a> {
    /// A set borrowed from a store of sets.
    pub fn borrowed(words: &'a [u64]) -> PotentialSlice<'a> {
        PotentialSet(words)
    }
}

impl<W: AsMut<[u64]> + AsRef<[u64]>> PotentialSet<W> {
    /// Makes this set equal to `other` (of the same width).
    pub fn assign<V: AsRef<[u64]>>(&mut self, other: &PotentialSet<V>) {
        self.0.as_mut().copy_from_slice(other.words());
    }

    /// Keeps only the potentials also in `other`.
    pub fn retain_common<V: AsRef<[u64]>>(&mut self, other: &PotentialSet<V>) {
        for (a, b) in self.0.as_mut().iter_mut().zip(other.words()) {
            *a &= b;
        }
    }

    /// Adds the potentials of `other`.
    pub fn add_all<V: AsRef<[u64]>>(&mut self, other: &PotentialSet<V>) {
        for (a, b) in self.0.as_mut().iter_mut().zip(other.words()) {
            *a |= b;
        }
    }

    /// Adds the off potentials of the candidates `cands` (a candidate bit set).
    pub(super) fn add_offs(&mut self, cands: &[u64]) {
        for (a, b) in self.0.as_mut().iter_mut().zip(cands) {
            *a |= b;
        }
    }

    /// Adds one potential.
    pub fn insert(&mut self, p: Potential) {
        let i = self.index(p);
        self.0.as_mut()[i / 64] |= 1 << (i % 64);
    }
}

/// The set bits of a word, lowest first.
pub fn ones(mut word: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (word != 0).then(|| {
            let b = word.trailing_zeros();
            word &= word - 1;
            b
        })
    })
}
