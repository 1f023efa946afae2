//! What the rater remembers between searches, in one place: where a search found
//! nothing (per unit, digit or pair of cells, until that part of the board changes),
//! values derived from the board as it stands (the unique-rectangle finders' rectangles),
//! and each thread's spare search trail. The board owns the memo and hands it to every
//! finder.

use std::any::Any;
use std::cell::{Cell, OnceCell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

/// A search of one unit at a time whose result depends on that unit's candidates alone
/// (its cells' candidates and its digits' places), so it finds nothing in a unit again
/// until the unit changes.
#[derive(Clone, Copy, Debug)]
pub enum UnitSearch {
    /// Naked subsets of this size (2 to 4).
    Naked(usize),
    /// Generalized naked subsets of this size (2 to 4): they remove outside the unit too,
    /// so a unit where naked ones found nothing may still have one.
    GeneralizedNaked(usize),
    /// Hidden subsets of this size (2 to 4).
    Hidden(usize),
    /// Direct hidden pairs and triples (2 or 3).
    DirectHidden(usize),
    /// ALS wings (3 to 5 cells) whose almost locked set lies in the unit. They read the
    /// board's bivalue cells too, so the board stamps them with the bivalue cells it
    /// gained as well (other cells only lose candidates they could remove).
    AlsWing(usize),
}

/// A search whose result for a key (a digit, or a unit and a digit) depends on one
/// digit's candidates alone, so it finds nothing for that key again until some cell loses
/// that digit.
#[derive(Clone, Copy, Debug)]
pub enum DigitSearch {
    /// Fish of this size (2 to 4); key: digit and base side.
    Fish(usize),
    /// Pointing, over every box; key: digit.
    Pointing,
    /// Claiming, over every line; key: digit.
    Claiming,
    /// X-chains; key: digit.
    XChain,
    /// Direct pointing, over every box; key: digit.
    DirectPointing,
    /// Direct claiming, over every line; key: digit.
    DirectClaiming,
    /// Grouped X-chains; key: digit.
    GroupedXChain,
    /// Nishio (its runs follow one digit's links, and the board's singles of that digit
    /// only); key: digit.
    Nishio,
    /// Empty rectangles; key: digit.
    EmptyRectangle,
    /// Generalized intersections, over every unit; key: digit.
    Intersection,
    /// Locked NC, over every unit; key: digit. It reads the barred digits' candidates
    /// too, but they only ever go, which can take a step away and never bring one.
    LockedNc,
}

impl DigitSearch {
    /// Every search, one slot each.
    const ALL: [DigitSearch; 13] = [
        DigitSearch::Fish(2),
        DigitSearch::Fish(3),
        DigitSearch::Fish(4),
        DigitSearch::Pointing,
        DigitSearch::Claiming,
        DigitSearch::XChain,
        DigitSearch::DirectPointing,
        DigitSearch::DirectClaiming,
        DigitSearch::GroupedXChain,
        DigitSearch::Nishio,
        DigitSearch::EmptyRectangle,
        DigitSearch::Intersection,
        DigitSearch::LockedNc,
    ];
    const COUNT: usize = Self::ALL.len();

    fn slot(self) -> usize {
        match self {
            DigitSearch::Fish(k) => k - 2,
            DigitSearch::Pointing => 3,
            DigitSearch::Claiming => 4,
            DigitSearch::XChain => 5,
            DigitSearch::DirectPointing => 6,
            DigitSearch::DirectClaiming => 7,
            DigitSearch::GroupedXChain => 8,
            DigitSearch::Nishio => 9,
            DigitSearch::EmptyRectangle => 10,
            DigitSearch::Intersection => 11,
            DigitSearch::LockedNc => 12,
        }
    }
}

impl UnitSearch {
    /// Every search, one slot each.
    const ALL: [UnitSearch; 14] = [
        UnitSearch::Naked(2),
        UnitSearch::Naked(3),
        UnitSearch::Naked(4),
        UnitSearch::Hidden(2),
        UnitSearch::Hidden(3),
        UnitSearch::Hidden(4),
        UnitSearch::DirectHidden(2),
        UnitSearch::DirectHidden(3),
        UnitSearch::AlsWing(3),
        UnitSearch::AlsWing(4),
        UnitSearch::AlsWing(5),
        UnitSearch::GeneralizedNaked(2),
        UnitSearch::GeneralizedNaked(3),
        UnitSearch::GeneralizedNaked(4),
    ];
    const COUNT: usize = Self::ALL.len();

    fn slot(self) -> usize {
        match self {
            UnitSearch::Naked(k) => k - 2,
            UnitSearch::Hidden(k) => 3 + k - 2,
            UnitSearch::DirectHidden(k) => 6 + k - 2,
            UnitSearch::AlsWing(k) => 8 + k - 3,
            UnitSearch::GeneralizedNaked(k) => 11 + k - 2,
        }
    }
}

/// A search over pairs of cells whose result for a pair depends on the two cells'
/// candidates and those of their other peers (the cells of their units, and those a
/// rule set's move keeps apart from them) with at most
/// [`FEW_CANDIDATES`](super::board::FEW_CANDIDATES) (while no open cell is down to one
/// candidate), so it finds nothing for the pair again until one of those changes.
#[derive(Clone, Copy, Debug)]
pub enum PairSearch {
    /// Aligned pair exclusion over the pair.
    AlignedPair,
    /// Aligned triple exclusion over the pair and each third cell.
    AlignedTriple,
}

impl PairSearch {
    const COUNT: usize = 2;

    fn slot(self) -> usize {
        self as usize
    }
}

/// A value derived from one unit's candidates alone, kept until the unit changes.
#[derive(Clone, Copy, Debug)]
pub enum UnitDerived {
    /// The almost locked sets of this many cells (3 to 5) of the unit.
    AlmostLockedSets(usize),
}

/// Almost locked sets are kept per size, 3 to 5 cells: one slot a size.
const ALS_SIZES: usize = 3;

/// The slot of almost locked sets of `k` cells.
fn als_slot(k: usize) -> usize {
    k - 3
}

impl UnitDerived {
    const COUNT: usize = ALS_SIZES;

    fn slot(self) -> usize {
        let UnitDerived::AlmostLockedSets(k) = self;
        als_slot(k)
    }
}

/// A value a search carries from one board to the next and brings up to date itself
/// (rather than building it again when anything changed).
#[derive(Clone, Copy, Debug)]
pub enum Carried {
    /// The almost locked sets of this many cells (3 to 5) that leave every unit.
    SpanningSets(usize),
}

impl Carried {
    const COUNT: usize = ALS_SIZES;

    fn slot(self) -> usize {
        let Carried::SpanningSets(k) = self;
        als_slot(k)
    }
}

/// A digit search's record: the digit's change count plus one, and how far it looked.
type DigitStamp = (u32, u32);

/// A derived value and the count of changes it was built at.
type Kept = Option<(u32, Rc<dyn Any>)>;

/// The "found nothing" stamps of every search, and the value derived from the current
/// board. The stamps hold the change count of what a search read, plus one (0: unknown).
#[derive(Clone)]
pub struct SearchMemo {
    units: usize,
    n: usize,
    /// Per unit search and unit: its stamp, and the board's count of bivalue births then
    /// (read by the ALS wings, see `Board::als_found_nothing_since`).
    unit_quiet: Vec<Cell<(u32, u32)>>,
    /// Per digit search and key: the digit's change count plus one, and how far the search
    /// looked (chain nodes, for chain searches; 0 for the others).
    /// Allocated at the first record: most boards of easy puzzles never get there, and
    /// zeroing the stamps of every board was 3.6 % of an easy fill's instructions.
    digit_quiet: OnceCell<Box<[Cell<DigitStamp>]>>,
    /// A value built from the board at a version (its count of changes).
    derived: RefCell<Kept>,
    /// Per unit-derived kind and unit: the value and the unit's change count plus one.
    unit_derived: RefCell<Vec<Kept>>,
    /// Per carried kind: its last value.
    carried: RefCell<[Option<Rc<dyn Any>>; Carried::COUNT]>,
    /// A value derived from the puzzle alone (a killer puzzle's 45-rule regions, with the
    /// results its finders keep by the candidates they read), built once and shared by
    /// the board's copies.
    puzzle: RefCell<Option<Rc<dyn Any>>>,
    /// Per pair search and ordered cell pair: its stamp when it found nothing, plus one
    /// (allocated at the first record).
    pair_quiet: RefCell<Vec<u32>>,
}

impl SearchMemo {
    /// An empty memo for `units` units of `n` cells.
    pub fn new(units: usize, n: usize) -> SearchMemo {
        SearchMemo {
            units,
            n,
            unit_quiet: vec![Cell::new((0, 0)); UnitSearch::COUNT * units],
            digit_quiet: OnceCell::new(),
            derived: RefCell::new(None),
            unit_derived: RefCell::new(vec![None; UnitDerived::COUNT * units]),
            carried: RefCell::new(Default::default()),
            puzzle: RefCell::new(None),
            pair_quiet: RefCell::new(Vec::new()),
        }
    }

    /// Forgets everything (for tests that compare with a board that remembers nothing).
    #[cfg(test)]
    pub fn forget(&self) {
        self.unit_quiet.iter().for_each(|q| q.set((0, 0)));
        if let Some(quiet) = self.digit_quiet.get() {
            quiet.iter().for_each(|q| q.set((0, 0)));
        }
        *self.derived.borrow_mut() = None;
        *self.carried.borrow_mut() = Default::default();
        self.unit_derived
            .borrow_mut()
            .iter_mut()
            .for_each(|d| *d = None);
        self.pair_quiet.borrow_mut().clear();
    }

    /// The value `build` derives from the puzzle itself, built once.
    pub fn puzzle_derived<T: 'static>(&self, build: impl FnOnce() -> T) -> Rc<T> {
        if let Some(kept) = self.puzzle.borrow().as_ref() {
            if let Ok(value) = Rc::clone(kept).downcast::<T>() {
                return value;
            }
        }
        let value = Rc::new(build());
        *self.puzzle.borrow_mut() = Some(value.clone());
        value
    }

    /// Whether `search` found nothing for the pair `key` (of `cells` × `cells`) at the
    /// stamp `changes`.
    #[inline]
    pub fn pair_found_nothing(
        &self,
        search: PairSearch,
        key: usize,
        cells: usize,
        changes: u32,
    ) -> bool {
        let slot = search.slot() * cells * cells + key;
        self.pair_quiet.borrow().get(slot) == Some(&changes.wrapping_add(1))
    }

    /// Records that `search` found nothing for the pair `key` at `changes`.
    #[inline]
    pub fn set_pair_found_nothing(
        &self,
        search: PairSearch,
        key: usize,
        cells: usize,
        changes: u32,
    ) {
        let mut quiet = self.pair_quiet.borrow_mut();
        if quiet.is_empty() {
            quiet.resize(PairSearch::COUNT * cells * cells, 0);
        }
        quiet[search.slot() * cells * cells + key] = changes.wrapping_add(1);
    }

    /// The value `build` derives from the board at `version` (its count of changes so
    /// far), built once per version.
    pub fn derived<T: 'static>(&self, version: u32, build: impl FnOnce() -> T) -> Rc<T> {
        if let Some((at, kept)) = self.derived.borrow().as_ref() {
            if *at == version {
                if let Ok(value) = Rc::clone(kept).downcast::<T>() {
                    return value;
                }
            }
        }
        let value = Rc::new(build());
        *self.derived.borrow_mut() = Some((version, value.clone()));
        value
    }

    /// The value of `what`: `update` brings its last value (if any, and if of type `T`)
    /// up to date with the board, and the result is kept for the next call.
    pub fn carried<T: 'static>(
        &self,
        what: Carried,
        update: impl FnOnce(Option<Rc<T>>) -> Rc<T>,
    ) -> Rc<T> {
        let last = self.carried.borrow()[what.slot()]
            .clone()
            .and_then(|kept| kept.downcast::<T>().ok());
        let value = update(last);
        self.carried.borrow_mut()[what.slot()] = Some(value.clone());
        value
    }

    /// The value `build` derives from unit `u` when it has had `changes` changes, built
    /// once per change count.
    pub fn unit_derived<T: 'static>(
        &self,
        what: UnitDerived,
        u: usize,
        changes: u32,
        build: impl FnOnce() -> T,
    ) -> Rc<T> {
        let slot = what.slot() * self.units + u;
        if let Some((at, kept)) = &self.unit_derived.borrow()[slot] {
            if *at == changes + 1 {
                if let Ok(value) = Rc::clone(kept).downcast::<T>() {
                    return value;
                }
            }
        }
        let value = Rc::new(build());
        self.unit_derived.borrow_mut()[slot] = Some((changes + 1, value.clone()));
        value
    }

    /// Whether `search` found nothing in unit `u` when it had `changes` changes: the
    /// count of bivalue births recorded with it, if so.
    #[inline]
    pub fn unit_found_nothing(&self, search: UnitSearch, u: usize, changes: u32) -> Option<u32> {
        let (stamp, births) = self.unit_quiet[search.slot() * self.units + u].get();
        (stamp == changes + 1).then_some(births)
    }

    /// Records that `search` found nothing in unit `u` with `changes` changes, when the
    /// board had seen `births` bivalue births.
    #[inline]
    pub fn set_unit_found_nothing(&self, search: UnitSearch, u: usize, changes: u32, births: u32) {
        self.unit_quiet[search.slot() * self.units + u].set((changes + 1, births));
    }

    /// Whether `search` looked at least `within` far for `key` and found nothing, when the
    /// digit had `changes` changes.
    #[inline]
    pub fn digit_found_nothing(
        &self,
        search: DigitSearch,
        key: usize,
        changes: u32,
        within: usize,
    ) -> bool {
        let Some(quiet) = self.digit_quiet.get() else {
            return false;
        };
        let (stamp, reach) = quiet[self.digit_slot(search, key)].get();
        stamp == changes + 1 && within <= reach as usize
    }

    /// Records that `search` looked `within` far for `key` and found nothing.
    #[inline]
    pub fn set_digit_found_nothing(
        &self,
        search: DigitSearch,
        key: usize,
        changes: u32,
        within: usize,
    ) {
        let reach = within.min(u32::MAX as usize) as u32;
        let quiet = self.digit_quiet.get_or_init(|| {
            vec![Cell::new((0, 0)); DigitSearch::COUNT * self.units * self.n].into()
        });
        quiet[self.digit_slot(search, key)].set((changes + 1, reach));
    }

    #[inline]
    fn digit_slot(&self, search: DigitSearch, key: usize) -> usize {
        search.slot() * self.units * self.n + key
    }
}

/// Breadth-first search bookkeeping over `states` states, reused from search to search:
/// a state is seen in the current search when its stamp is the current one.
#[derive(Default)]
pub struct Trail {
    stamp: Vec<u32>,
    parent: Vec<usize>,
    /// States on the way to each state, itself included.
    length: Vec<usize>,
    current: u32,
    /// States reached and not yet expanded.
    pub queue: VecDeque<usize>,
}

thread_local! {
    /// The last dropped trail of this thread, for the next chain search (allocating and
    /// clearing one per search showed in profiles).
    static SPARE: Cell<Option<Trail>> = const { Cell::new(None) };
}

impl Trail {
    /// A trail for `states` states: this thread's spare one when there is one.
    #[inline]
    pub fn new(states: usize) -> Trail {
        let mut trail = SPARE.take().unwrap_or_default();
        if trail.stamp.len() < states {
            trail.stamp.resize(states, 0);
            trail.parent.resize(states, usize::MAX);
            trail.length.resize(states, 1);
        }
        trail
    }

    /// Starts a new search from `first`.
    #[inline]
    pub fn start(&mut self, first: usize) {
        if self.current == u32::MAX {
            self.stamp.fill(0);
            self.current = 0;
        }
        self.current += 1;
        self.queue.clear();
        self.stamp[first] = self.current;
        self.parent[first] = usize::MAX;
        self.length[first] = 1;
        self.queue.push_back(first);
    }

    /// Marks `t` reached from `s`; `false` when it was seen already.
    #[inline]
    pub fn reach(&mut self, t: usize, s: usize) -> bool {
        if self.stamp[t] == self.current {
            return false;
        }
        self.stamp[t] = self.current;
        self.parent[t] = s;
        self.length[t] = self.length[s] + 1;
        true
    }

    /// States on the way to `end`, start included.
    #[inline]
    pub fn length(&self, end: usize) -> usize {
        self.length[end]
    }

    /// The cells on the way to `end` (state / `width`), start first.
    pub fn path(&self, end: usize, width: usize) -> Vec<usize> {
        let mut out = vec![end / width];
        let mut at = end;
        while self.parent[at] != usize::MAX {
            at = self.parent[at];
            out.push(at / width);
        }
        out.reverse();
        out
    }
}

impl Drop for Trail {
    /// Keeps the buffers as this thread's spare trail, unless it has one already (or the
    /// thread is ending).
    fn drop(&mut self) {
        let _ = SPARE.try_with(|spare| {
            let kept = spare.take();
            spare.set(match kept {
                None => Some(std::mem::take(self)),
                kept => kept,
            });
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_search_has_its_own_slot() {
        let slots: Vec<usize> = UnitSearch::ALL.iter().map(|s| s.slot()).collect();
        assert_eq!(slots, (0..UnitSearch::COUNT).collect::<Vec<_>>());
        let slots: Vec<usize> = DigitSearch::ALL.iter().map(|s| s.slot()).collect();
        assert_eq!(slots, (0..DigitSearch::COUNT).collect::<Vec<_>>());
    }

    #[test]
    fn derived_values_last_until_the_board_changes() {
        let memo = SearchMemo::new(27, 9);
        let mut builds = 0;
        let a = memo.derived(0, || {
            builds += 1;
            7u32
        });
        let b = memo.derived(0, || {
            builds += 1;
            8u32
        });
        assert_eq!((*a, *b), (7, 7));
        assert_eq!(*memo.derived(1, || 9u32), 9);
        assert_eq!(builds, 1);
    }
}
