//! Forcing chains: Sudoku Explainer's chaining levels, built on [`implications`].
//!
//! - Forcing chain (6.6 when every link is on one digit, 7.0 otherwise): an assumption
//!   that implies its own opposite along static links, which is an alternating inference
//!   chain: assuming a candidate leads back to it being false (eliminated), or assuming it
//!   false leads back to it being true (placed).
//! - Nishio (7.5): a digit assumed in a cell leads, along that digit's links with the
//!   board updated as it goes, to a contradiction.
//! - Multiple forcing chains (8.0, static links) and dynamic forcing chains (8.5, dynamic
//!   links): every candidate of a cell (cell forcing), or every place of a digit in a unit
//!   (region forcing), implies the same thing; a candidate assumed on and assumed off both
//!   imply it (double forcing); a candidate assumed on implies a contradiction.
//!
//! Each level takes its conclusion with the lowest score: the base plus Sudoku Explainer's
//! length bonus over the nodes of all the chains involved. These techniques work on every
//! grid size.
//!
//! [`implications`]: super::implications

use super::chaining::{
    Closures, Links, Potential, PotentialSet, PotentialSlice, Run, RunStop, Trace,
};
use super::common::{holding_each_digit, UnitVec};
use super::{Technique, Wanted};
use crate::grid::CellSet;
use crate::rate::board::{digits, Board};
use crate::rate::memo::DigitSearch;
use crate::rate::techniques::step::{length_bonus, most_nodes_below, Link, Step};
use std::rc::Rc;

/// Score of a forcing chain with links on more than one digit (on one digit it scores
/// the technique's base, 6.6).
const MIXED_CHAIN: f64 = 7.0;

/// Every candidate assumed on, in cell order.
fn every_on(imp: &Run) -> impl Iterator<Item = Potential> {
    (0..imp.candidates() as Potential).map(|k| 2 * k + 1)
}

/// The step concluding `target`: a placement when it is on, an elimination when off.
fn concluding(
    technique: Technique,
    score: f64,
    chains: Vec<Vec<Link>>,
    imp: &Run,
    target: Potential,
) -> Step {
    let (cell, digit, on) = imp.split(target);
    // The cells along the chains, each chain's repeats in a row shown once.
    let mut cells: Vec<usize> = Vec::new();
    for chain in &chains {
        let mut along: Vec<usize> = chain.iter().map(|l| l.cell).collect();
        along.dedup();
        cells.extend(along);
    }
    cells.dedup();
    let mut step = Step::new(technique, cells);
    step.score = score;
    step.chains = chains;
    if on {
        step.placements.push((cell, digit));
    } else {
        step.eliminations.push((cell, digit));
    }
    step
}

/// The shortest forcing chain (alternating inference chain) on static links: a candidate
/// whose being on implies it off (eliminated), or whose being off implies it on (placed).
/// The first chain scoring at most `wanted.enough` ends the search.
pub fn forcing_chain(b: &Board, wanted: Wanted) -> Option<Step> {
    let below = wanted.below;
    let links = Links::shared_static(b);
    let mut imp = Run::new(&links);
    // Assumptions that imply their opposite. Below 7.0 only chains on one digit can score
    // less, so only those are looked for.
    let only_one_digit = below <= MIXED_CHAIN + 1e-9;
    let (mixed, one_digit) = if only_one_digit {
        (None, Some(imp.one_digit().closures()))
    } else {
        (Some(links.shared_closures()), None)
    };
    let closures = mixed
        .as_deref()
        .or(one_digit.as_ref())
        .expect("one is built");
    let starts: Vec<Potential> = every_on(&imp)
        .flat_map(|on| [on, on ^ 1])
        .filter(|&p| closures.of(p).contains(p ^ 1))
        .collect();
    // With the closures of the links the runs follow, a run need only go through what
    // leads back to the start's opposite.
    let limit = |imp: &mut Run, start: Potential| {
        if let Some(m) = &mixed {
            imp.only_through(Some(m.of(start)));
        }
    };
    // Whether a start reaches its opposite on its own digit: read from the one-digit
    // closures when they are built, else found by a run on the one-digit links (only the
    // starts after a first chain ask, and a run over one digit's candidates costs far
    // less than the closures of every candidate).
    let one_digit_links = std::cell::OnceCell::new();
    let mut one_digit_run: Option<Run> = None;
    let mut on_one_digit = |start: Potential| match &one_digit {
        Some(closures) => closures.of(start).contains(start ^ 1),
        None => {
            let run = one_digit_run
                .get_or_insert_with(|| Run::new(one_digit_links.get_or_init(|| links.one_digit())));
            run.run(start, RunStop::AtReaching(start ^ 1, usize::MAX));
            run.reached(start ^ 1)
        }
    };
    let one_digit_base = Technique::ForcingChain.base_score();
    let mut best: Option<Found> = None;
    for &start in &starts {
        // Once there is a chain to beat, one without a one-digit path must be shorter.
        let base = if best.is_some() && !on_one_digit(start) {
            MIXED_CHAIN
        } else {
            one_digit_base
        };
        limit(&mut imp, start);
        shortest_chain(&mut imp, start, base, below, &mut best);
        if best
            .as_ref()
            .is_some_and(|f| f.step.score <= wanted.enough + 1e-9)
        {
            break;
        }
    }
    best.map(|f| f.step)
}

/// The most nodes of a chain without a length bonus.
const SHORT_CHAIN: usize = 6;

/// The best forcing chain so far, and whether it is short (no length bonus).
///
/// The reference takes the chains without a length bonus first, in start order, then
/// the longer ones, each only when it scores less. So of equal scores a short chain wins
/// over a longer one found before it. One pass over the starts with that rule finds the
/// same chain. Two passes ran every start twice where no short chain exists, as at every
/// step of 150 generated experts where the rater reached forcing chains (the cheaper
/// techniques took the short ones).
struct Found {
    step: Step,
    short: bool,
}

impl Found {
    /// Whether a chain scoring `score`, short or not, replaces this one.
    fn beaten_by(&self, score: f64, short: bool) -> bool {
        let bound = self.step.score;
        score < bound - 1e-9 || (short && !self.short && score < bound + 1e-9)
    }
}

/// Follows `start` to its opposite along its shortest chain, if one can beat `best` (or
/// score below `below` while there is none), and keeps the chain when it does.
fn shortest_chain(
    imp: &mut Run,
    start: Potential,
    lowest_base: f64,
    below: f64,
    best: &mut Option<Found>,
) {
    let opposite = start ^ 1;
    let (bound, short_ties_win) = best
        .as_ref()
        .map_or((below, false), |f| (f.step.score, !f.short));
    let mut within = most_nodes_below(bound, lowest_base, 1);
    if short_ties_win && lowest_base <= bound + 1e-9 {
        within = within.max(SHORT_CHAIN);
    }
    if (2..usize::MAX).contains(&within) {
        // Most runs find no chain short enough, and a run half as deep tells
        // (`Run::round_trip`): only a start that has one is followed to its opposite.
        let half = (within - 1).div_ceil(2);
        imp.run(start, RunStop::AtReaching(opposite, half + 1));
        if !imp.reached(opposite) && imp.round_trip().is_none_or(|links| links >= within) {
            return;
        }
    }
    imp.run(start, RunStop::AtReaching(opposite, within));
    if !imp.reached(opposite) {
        return;
    }
    let (nodes, one_digit) = imp.ancestors(opposite);
    let base = if one_digit {
        Technique::ForcingChain.base_score()
    } else {
        MIXED_CHAIN
    };
    let score = base + length_bonus(nodes);
    let short = nodes <= SHORT_CHAIN;
    let wins = match best {
        Some(found) => found.beaten_by(score, short),
        None => score < below - 1e-9,
    };
    if wins {
        let chain = vec![imp.chain(opposite)];
        *best = Some(Found {
            step: concluding(Technique::ForcingChain, score, chain, imp, opposite),
            short,
        });
    }
}

/// Nishio: a digit assumed in a cell contradicts itself along that digit's links.
///
/// What the runs from a digit's places find depends on that digit's candidates alone, so
/// a digit none of whose places contradicted itself is passed over until it changes.
/// Most places contradict nothing, and [`may_contradict`] (or [`BesideTest`] under a
/// rule barring digits beside a digit) says so for most of those without a run (nor the
/// links, when no place of any digit needs one). The first step scoring at most `enough`
/// ends the search.
pub fn nishio(b: &Board, enough: f64) -> Option<Step> {
    // Under a rule barring digits beside a digit, a run turns other digits off too, which
    // neither the memo nor the one-digit test follows: every place is tested over every
    // digit ([`BesideTest`]).
    let barred_beside = b.geometry().variant().rules().neighbours.any();
    // Digit masks (bit d - 1): the digits to run, and those a run contradicted.
    let quiet = |d: u8| {
        !barred_beside && b.digit_found_nothing_since(DigitSearch::Nishio, d as usize - 1, d)
    };
    let all = ((1u32 << b.n()) - 1) as u16;
    let open = digits(all)
        .filter(|&d| !quiet(d))
        .fold(0u16, |m, d| m | 1 << (d - 1));
    if open == 0 {
        return None;
    }
    let holding = holding_each_digit(b);
    // Per open digit: its places in each unit.
    let unit_places: Vec<Vec<CellSet>> = (0..=b.n() as u8)
        .map(|d| match d {
            d if d > 0 && open & 1 << (d - 1) != 0 => by_unit(b, holding[d as usize]),
            _ => Vec::new(),
        })
        .collect();
    let mut beside = barred_beside.then(|| BesideTest::new(b, &holding, &unit_places));
    let links = std::cell::OnceCell::new();
    let mut runs: Option<Run> = None;
    let mut best: Option<Step> = None;
    let mut contradicted = 0u16;
    // Places in the order of the links' candidates: by cell, then digit.
    for cell in (0..b.cells()).filter(|&c| b.is_open(c)) {
        for digit in digits(b.cand(cell) & open) {
            let may = match &mut beside {
                Some(test) => test.may_contradict(cell, digit),
                None => may_contradict(
                    b,
                    cell,
                    holding[digit as usize],
                    &unit_places[digit as usize],
                ),
            };
            if !may {
                continue;
            }
            let imp =
                runs.get_or_insert_with(|| Run::new(links.get_or_init(|| Links::dynamic(b, true))));
            let start = imp.potential(cell, digit, true);
            imp.run(start, RunStop::AtConflict);
            let Some(x) = imp.conflict() else { continue };
            contradicted |= 1 << (digit - 1);
            let nodes = imp.ancestors(x).0 + imp.ancestors(x ^ 1).0;
            let score = Technique::Nishio.base_score() + length_bonus(nodes);
            if best.as_ref().is_none_or(|s| score < s.score - 1e-9) {
                let chains = vec![imp.chain(x), imp.chain(x ^ 1)];
                let step = concluding(Technique::Nishio, score, chains, imp, start ^ 1);
                if score <= enough + 1e-9 {
                    // The digits after it were not run: none is marked as finding nothing.
                    return Some(step);
                }
                best = Some(step);
            }
        }
    }
    for d in digits(open & !contradicted) {
        b.digit_found_nothing(DigitSearch::Nishio, d as usize - 1, d);
    }
    best
}

/// `places` (a digit's) in each unit, by unit number.
fn by_unit(b: &Board, places: CellSet) -> Vec<CellSet> {
    (0..b.unit_count())
        .map(|u| b.layout().unit_set(u).and(places))
        .collect()
}

/// Whether `digit` assumed in `start` may contradict itself along that digit's links, as
/// Nishio's run follows them (`places`: the digit's places; `units`: its places in each
/// unit). `false` means the run finds no contradiction.
///
/// The test takes the run's rules to their end without an order: a place is on when it is
/// the start or the last place not off of a unit with a place off; the places an on sees
/// are off. Every place the run reaches, on or off, this reaches too, or it finds a unit
/// with no place left: a run's place goes on when the other places of its unit are off,
/// which they are here too, so here it is on as well, or off and its unit empty. So a run
/// that reaches a place both on and off (its contradiction) leaves this with such a place
/// or an empty unit, and says yes. Only the units where a place went off are looked at
/// again.
fn may_contradict(b: &Board, start: usize, places: CellSet, units: &[CellSet]) -> bool {
    let cell_units = &b.layout().cell_units;
    let mut on = CellSet::default();
    let (mut off, mut pending) = (CellSet::default(), 0u64);
    let mut last = start;
    loop {
        on.insert(last);
        let seen = b.peer_set(last).and(places);
        if !seen.and(on).is_empty() {
            return true;
        }
        let fresh = seen.minus(off);
        off = off.or(fresh);
        pending |= fresh.iter().fold(0, |m, c| m | cell_units[c]);
        // The next unit left with one place, not on, if any.
        loop {
            if pending == 0 {
                return false;
            }
            let u = pending.trailing_zeros() as usize;
            pending &= pending - 1;
            let left = units[u].minus(off);
            match left.len() {
                0 => return true,
                1 if left.and(on).is_empty() => {
                    last = left.iter().next().expect("one place is left");
                    break;
                }
                _ => {}
            }
        }
    }
}

/// [`may_contradict`] under a rule barring digits beside a digit (non-consecutive), where
/// a run also turns off the barred digits of the cells touching an on, and those offs
/// leave other digits' units with one place: the same test over every digit at once
/// (`holding` and `unit_places` by digit). A place is on when it is the start or the last
/// place not off of a unit of its digit where a place went off; an on turns off its
/// digit's places among its peers and the barred digits' places among its neighbours.
/// The argument is [`may_contradict`]'s: every potential the run reaches, this reaches
/// too, or it finds a unit with no place left, so a run's contradiction leaves this with
/// a place both on and off or an empty unit. `false` means the run finds none.
struct BesideTest<'a> {
    b: &'a Board,
    holding: &'a [CellSet],
    unit_places: &'a [Vec<CellSet>],
    /// By digit (16 at most): the places on and off, and the units where a place went off
    /// since they were last looked at; kept between tests, and only the digits a test
    /// touched (`touched`, bit d) cleared for the next (clearing them all showed in the
    /// profile, as did allocating them).
    on: [CellSet; 17],
    off: [CellSet; 17],
    pending: [u64; 17],
    touched: u32,
}

impl<'a> BesideTest<'a> {
    /// Tests on `b`, whose places of each digit are `holding` (by digit) and, by unit,
    /// `unit_places`.
    fn new(b: &'a Board, holding: &'a [CellSet], unit_places: &'a [Vec<CellSet>]) -> Self {
        BesideTest {
            b,
            holding,
            unit_places,
            on: [CellSet::default(); 17],
            off: [CellSet::default(); 17],
            pending: [0; 17],
            touched: 0,
        }
    }

    /// Whether `digit` assumed in `start` may contradict itself.
    fn may_contradict(&mut self, start: usize, digit: u8) -> bool {
        while self.touched != 0 {
            let d = self.touched.trailing_zeros() as usize;
            self.touched &= self.touched - 1;
            (self.on[d], self.off[d], self.pending[d]) =
                (CellSet::default(), CellSet::default(), 0);
        }
        let (b, n) = (self.b, self.b.n());
        let mut ons = arrayvec::ArrayVec::<(usize, u8), 64>::new();
        ons.push((start, digit));
        loop {
            while let Some((cell, d)) = ons.pop() {
                self.on[d as usize].insert(cell);
                self.touched |= 1 << d;
                if self.kill(d, b.peer_set(cell)) {
                    return true;
                }
                for e in digits(b.barred_beside(d)) {
                    if self.kill(e, b.neighbour_set(cell)) {
                        return true;
                    }
                }
            }
            // Every unit with a place off: an empty one contradicts, one with a place left
            // not on puts it on.
            for d in 1..=n {
                while self.pending[d] != 0 {
                    let u = self.pending[d].trailing_zeros() as usize;
                    self.pending[d] &= self.pending[d] - 1;
                    let left = self.unit_places[d][u].minus(self.off[d]);
                    match left.len() {
                        0 => return true,
                        1 if left.and(self.on[d]).is_empty() => {
                            let cell = left.iter().next().expect("one place is left");
                            self.on[d].insert(cell);
                            if ons.try_push((cell, d as u8)).is_err() {
                                return true; // more than the room: say it may, and run it
                            }
                        }
                        _ => {}
                    }
                }
            }
            if ons.is_empty() {
                return false;
            }
        }
    }

    /// An on turns off `digit`'s places among `cells`: whether one of them is on.
    #[inline]
    fn kill(&mut self, digit: u8, cells: CellSet) -> bool {
        let e = digit as usize;
        let seen = cells.and(self.holding[e]);
        if !seen.and(self.on[e]).is_empty() {
            return true;
        }
        let fresh = seen.minus(self.off[e]);
        if !fresh.is_empty() {
            self.touched |= 1 << e;
            self.off[e] = self.off[e].or(fresh);
            let cell_units = &self.b.layout().cell_units;
            self.pending[e] |= fresh.iter().fold(0, |m, c| m | cell_units[c]);
        }
        false
    }
}

/// Multiple forcing chains on static links; the first conclusion scoring at most `enough`
/// ends the search.
pub fn multiple_forcing_chains(b: &Board, enough: f64) -> Option<Step> {
    multiple(b, false, Technique::MultipleForcingChains, enough)
}

/// Multiple forcing chains on dynamic links; the first conclusion scoring at most `enough`
/// ends the search.
pub fn dynamic_forcing_chains(b: &Board, enough: f64) -> Option<Step> {
    multiple(b, true, Technique::DynamicForcingChains, enough)
}

/// Something that holds because every source of its group implies it (or, for a
/// contradiction, because the group's one source implies a potential both on and off).
struct Conclusion {
    target: Potential,
    group: usize,
    contradiction: bool,
}

/// The conclusions of one level, with the source groups they rest on.
#[derive(Default)]
struct Conclusions {
    list: Vec<Conclusion>,
    groups: Vec<Vec<Potential>>,
}

impl Conclusions {
    /// The conclusions from `at` on (with their groups, the groups from `group_at` on),
    /// taken off these.
    fn split_off(&mut self, at: usize, group_at: usize) -> Conclusions {
        let groups = self.groups.split_off(group_at);
        let list = self
            .list
            .split_off(at)
            .into_iter()
            .map(|c| Conclusion {
                group: c.group - group_at,
                ..c
            })
            .collect();
        Conclusions { list, groups }
    }

    /// Adds `other`'s conclusions after these.
    fn append(&mut self, other: Conclusions) {
        let offset = self.groups.len();
        self.groups.extend(other.groups);
        self.list.extend(other.list.into_iter().map(|c| Conclusion {
            group: c.group + offset,
            ..c
        }));
    }

    /// `target` holds because `source` implies a contradiction.
    fn contradiction(&mut self, source: Potential) {
        self.groups.push(vec![source]);
        self.list.push(Conclusion {
            target: source ^ 1,
            group: self.groups.len() - 1,
            contradiction: true,
        });
    }

    /// Everything in `common` holds because each of `sources` implies it.
    fn common<W: AsRef<[u64]>>(&mut self, common: &PotentialSet<W>, sources: &[Potential]) {
        let group = self.groups.len();
        let before = self.list.len();
        self.list.extend(common.iter().map(|target| Conclusion {
            target,
            group,
            contradiction: false,
        }));
        if self.list.len() > before {
            self.groups.push(sources.to_vec());
        }
    }

    /// Adds what candidate `on` implies both ways: its opposite when one way contradicts
    /// itself, and, with `double`, what both ways imply (see [`Sets::reached`]).
    fn both_ways(&mut self, sets: &Sets, on: Potential, double: bool, common: &mut PotentialSet) {
        for p in [on, on ^ 1] {
            if sets.of(p).is_none() {
                self.contradiction(p);
            }
        }
        if !double {
            return;
        }
        if let (Some(on_set), Some(off_set)) = (sets.reached(on), sets.reached(on ^ 1)) {
            common.assign(&off_set);
            common.retain_common(&on_set);
            self.common(common, &[on, on ^ 1]);
        }
    }

    /// Adds what every source implies (see [`Sets::reached`]), using `common` as scratch
    /// space.
    fn common_to(&mut self, sets: &Sets, sources: &[Potential], common: &mut PotentialSet) {
        let mut implied = sources.iter().map(|&s| sets.reached(s));
        let Some(Some(first)) = implied.next() else {
            return;
        };
        common.assign(&first);
        for set in implied {
            let Some(set) = set else { return };
            common.retain_common(&set);
        }
        self.common(common, sources);
    }
}

/// What each potential implies (`None` when it leads to a contradiction), and for
/// dynamic links the run behind it (static runs are cheap to follow again).
enum Sets {
    /// Static links: the closures of the link graph.
    Closures(Rc<Closures>),
    /// Dynamic links: each potential's run, its reached set (`width` words in `store`)
    /// and its trace.
    Runs {
        store: Vec<u64>,
        width: usize,
        contradicts: Vec<bool>,
        traces: Vec<Trace>,
    },
}

impl Sets {
    /// What `p` implies, `None` when it leads to a contradiction.
    fn of(&self, p: Potential) -> Option<PotentialSlice<'_>> {
        match self {
            Sets::Closures(closures) => {
                let set = closures.of(p);
                (!set.contradicts()).then_some(set)
            }
            Sets::Runs {
                store,
                width,
                contradicts,
                ..
            } => {
                let at = p as usize * width;
                (!contradicts[p as usize]).then(|| PotentialSlice::borrowed(&store[at..at + width]))
            }
        }
    }

    /// What `p` implies as far as a conclusion may rest on it. Under dynamic links, a
    /// run that meets a contradiction keeps what it reached before (as the reference's
    /// runs stop there): a source that is false cannot make its group's conclusions
    /// false, so they still hold where the other sources imply them. Static closures
    /// reach everything, so a source that contradicts itself gives its group nothing.
    fn reached(&self, p: Potential) -> Option<PotentialSlice<'_>> {
        match self {
            Sets::Closures(_) => self.of(p),
            Sets::Runs { store, width, .. } => {
                let at = p as usize * width;
                Some(PotentialSlice::borrowed(&store[at..at + width]))
            }
        }
    }

    /// Room for every potential's run under dynamic links, none made yet ([`Sets::run`]).
    fn unrun(imp: &Run) -> Sets {
        let potentials = 2 * imp.candidates();
        let width = imp.set_width();
        Sets::Runs {
            store: vec![0u64; potentials * width],
            width,
            contradicts: vec![true; potentials],
            traces: (0..potentials).map(|_| Trace::default()).collect(),
        }
    }

    /// Makes the runs of candidate `on`, both ways (the closures need none).
    fn run(&mut self, imp: &mut Run, on: Potential) {
        let Sets::Runs {
            store,
            width,
            contradicts,
            traces,
        } = self
        else {
            return;
        };
        for p in [on, on ^ 1] {
            imp.run(p, RunStop::AtConflict);
            let at = p as usize * *width;
            imp.write_reached(&mut store[at..at + *width]);
            contradicts[p as usize] = imp.conflict().is_some();
            traces[p as usize] = imp.trace();
        }
    }

    /// Makes `source`'s run the last run of `imp`.
    fn follow(&self, imp: &mut Run, source: Potential) {
        match self {
            Sets::Runs { traces, .. } => imp.restore(&traces[source as usize]),
            Sets::Closures(_) => imp.run(source, RunStop::AtConflict),
        }
    }
}

/// Cell, region, double and contradiction forcing chains under static or dynamic links.
///
/// When a conclusion scoring at most `enough` will do, the cells are taken in order and
/// each one's conclusions (its candidates' contradictions and double forcings, and its
/// cell forcing) are scored as soon as its candidates' runs are made: the first cell with
/// one low enough gives the step, and the runs of the cells after it are never made (on
/// the steps that cannot raise a diagonal expert's score, dynamic forcing chains were a
/// fifth of its rating time).
fn multiple(b: &Board, dynamic: bool, technique: Technique, enough: f64) -> Option<Step> {
    let n = b.n();
    let links = if dynamic {
        Links::dynamic(b, false)
    } else {
        Links::shared_static(b)
    };
    let mut imp = Run::new(&links);
    // The sources the reference takes: under static links, the cells of three candidates
    // or more, and the places of a digit in a unit whose first place is such a cell (its
    // region chains start from the cells it takes); under dynamic links, every cell and
    // the places of a digit in any unit.
    let fewest: u32 = if dynamic { 2 } else { 3 };
    let takes = |cell: usize| b.cand(cell).count_ones() >= fewest;
    let mut sets = if dynamic {
        Sets::unrun(&imp)
    } else {
        Sets::Closures(links.shared_closures())
    };
    // Scratch for the potentials common to a group's sources.
    let mut common = imp.empty_set();
    let cell_sources = |imp: &Run, cell: usize| -> UnitVec<Potential> {
        digits(b.cand(cell))
            .map(|d| imp.potential(cell, d, true))
            .collect()
    };
    // Under dynamic links only, as the reference: a candidate's contradictions either
    // way, and what both ways imply when its cell holds three candidates or more.
    let both_ways =
        |found: &mut Conclusions, sets: &Sets, sources: &[Potential], common: &mut PotentialSet| {
            if dynamic {
                let double = sources.len() >= 3;
                for &on in sources {
                    found.both_ways(sets, on, double, common);
                }
            }
        };
    let first_enough = enough >= technique.base_score() - 1e-9;
    // What the cells concluded, measured as they went (first_enough): each cell's
    // conclusions both ways, then each cell's forcing, the order the last pass takes them.
    let (mut both, mut forced) = (Counted::default(), Counted::default());
    for cell in (0..b.cells()).filter(|&c| b.is_open(c)) {
        let sources = cell_sources(&imp, cell);
        for &on in &sources {
            sets.run(&mut imp, on);
        }
        if first_enough {
            let mut found = Conclusions::default();
            both_ways(&mut found, &sets, &sources, &mut common);
            let split = (found.list.len(), found.groups.len());
            if takes(cell) {
                found.common_to(&sets, &sources, &mut common);
            }
            let mut nodes = node_counts(&mut imp, &sets, &found);
            if let Some(i) = first_fewest(&nodes) {
                if technique.base_score() + length_bonus(nodes[i]) <= enough + 1e-9 {
                    return Some(step_of(&mut imp, &sets, &found, i, nodes[i], technique));
                }
            }
            let forcing = found.split_off(split.0, split.1);
            forced.add(forcing, nodes.split_off(split.0));
            both.add(found, nodes);
        }
    }
    let mut found = Conclusions::default();
    if !first_enough {
        for cell in (0..b.cells()).filter(|&c| b.is_open(c)) {
            both_ways(&mut found, &sets, &cell_sources(&imp, cell), &mut common);
        }
        for cell in (0..b.cells()).filter(|&c| b.is_open(c)) {
            if takes(cell) {
                found.common_to(&sets, &cell_sources(&imp, cell), &mut common);
            }
        }
    }
    for u in 0..b.unit_count() {
        let unit = b.unit(u);
        for digit in 1..=n as u8 {
            let places = b.positions(u, digit);
            if places.count_ones() >= 2 && takes(unit[places.trailing_zeros() as usize] as usize) {
                let sources: UnitVec<Potential> = digits(places)
                    .map(|i| imp.potential(unit[i as usize - 1] as usize, digit, true))
                    .collect();
                found.common_to(&sets, &sources, &mut common);
            }
        }
    }
    if !first_enough {
        return lowest(&mut imp, &sets, &found, technique);
    }
    let units = Counted {
        nodes: node_counts(&mut imp, &sets, &found),
        found,
    };
    both.add(forced.found, forced.nodes);
    both.add(units.found, units.nodes);
    let i = first_fewest(&both.nodes)?;
    Some(step_of(
        &mut imp,
        &sets,
        &both.found,
        i,
        both.nodes[i],
        technique,
    ))
}

/// Conclusions with the nodes of each one's chains.
#[derive(Default)]
struct Counted {
    found: Conclusions,
    nodes: Vec<usize>,
}

impl Counted {
    /// Adds `found`, whose chains have `nodes` nodes, after these.
    fn add(&mut self, found: Conclusions, nodes: Vec<usize>) {
        self.found.append(found);
        self.nodes.extend(nodes);
    }
}

/// The potentials a conclusion's chains end on, in its source's run.
fn ends(imp: &Run, c: &Conclusion) -> arrayvec::ArrayVec<Potential, 2> {
    let mut ends = arrayvec::ArrayVec::new();
    if c.contradiction {
        let x = imp.conflict().expect("a contradiction comes back");
        ends.extend([x, x ^ 1]);
    } else {
        ends.push(c.target);
    }
    ends
}

/// The conclusion whose chains have the fewest nodes, as a step.
fn lowest(imp: &mut Run, sets: &Sets, found: &Conclusions, technique: Technique) -> Option<Step> {
    let nodes = node_counts(imp, sets, found);
    let i = first_fewest(&nodes)?;
    Some(step_of(imp, sets, found, i, nodes[i], technique))
}

/// The nodes of each conclusion's chains. Each source's run is made current once, to
/// measure the chains of every conclusion resting on it.
fn node_counts(imp: &mut Run, sets: &Sets, found: &Conclusions) -> Vec<usize> {
    let mut by_source: Vec<(Potential, usize)> = found
        .list
        .iter()
        .enumerate()
        .flat_map(|(i, c)| found.groups[c.group].iter().map(move |&s| (s, i)))
        .collect();
    by_source.sort_unstable();
    let mut nodes = vec![0usize; found.list.len()];
    let mut last = None;
    for &(source, i) in &by_source {
        if last != Some(source) {
            sets.follow(imp, source);
            last = Some(source);
        }
        for end in ends(imp, &found.list[i]) {
            nodes[i] += imp.ancestors(end).0;
        }
    }
    nodes
}

/// The first of the fewest nodes, so the choice does not depend on sorting.
fn first_fewest(nodes: &[usize]) -> Option<usize> {
    nodes
        .iter()
        .enumerate()
        .min_by_key(|&(i, &k)| (k, i))
        .map(|(i, _)| i)
}

/// Conclusion `i` of `found`, whose chains have `nodes` nodes, as a step.
fn step_of(
    imp: &mut Run,
    sets: &Sets,
    found: &Conclusions,
    i: usize,
    nodes: usize,
    technique: Technique,
) -> Step {
    let chosen = &found.list[i];
    let mut chains = Vec::new();
    for &source in &found.groups[chosen.group] {
        sets.follow(imp, source);
        chains.extend(ends(imp, chosen).into_iter().map(|end| imp.chain(end)));
    }
    let score = technique.base_score() + length_bonus(nodes);
    concluding(technique, score, chains, imp, chosen.target)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{parse_line, Variant};
    use crate::rate::techniques::chaining::{Rules, STATIC};
    use crate::rate::techniques::Finder;
    use crate::rate::{apply, rate};
    use crate::solver::count_solutions;

    /// The reference's order, as two passes: the chains without a length bonus of every
    /// start first, then the longer ones, each kept only when it scores less.
    fn two_passes(b: &Board, below: f64) -> Option<Step> {
        let links = Links::new(b, STATIC);
        let mut imp = Run::new(&links);
        let closures = links.closures();
        let starts: Vec<Potential> = every_on(&imp)
            .flat_map(|on| [on, on ^ 1])
            .filter(|&p| closures.of(p).contains(p ^ 1))
            .collect();
        let mut best: Option<Step> = None;
        for most in [SHORT_CHAIN, usize::MAX] {
            for &start in &starts {
                let bound = best.as_ref().map_or(below, |s| s.score);
                imp.run(start, RunStop::AtReaching(start ^ 1, most));
                if !imp.reached(start ^ 1) {
                    continue;
                }
                let (nodes, one_digit) = imp.ancestors(start ^ 1);
                let base = if one_digit {
                    Technique::ForcingChain.base_score()
                } else {
                    MIXED_CHAIN
                };
                let score = base + length_bonus(nodes);
                if score < bound - 1e-9 {
                    let chain = vec![imp.chain(start ^ 1)];
                    let step = concluding(Technique::ForcingChain, score, chain, &imp, start ^ 1);
                    best = Some(step);
                }
            }
        }
        best
    }

    /// Of equal scores a short chain replaces a longer one, as in the reference's two
    /// passes, and nothing else of equal score replaces anything. (No such tie comes up
    /// in `one_pass_finds_the_chain_of_two`: it needs a one-digit chain with a 0.4 bonus
    /// beside a short mixed one.)
    #[test]
    fn of_equal_scores_only_a_short_chain_replaces_a_long_one() {
        let found = |score: f64, short: bool| Found {
            step: Step {
                score,
                ..Step::new(Technique::ForcingChain, vec![0])
            },
            short,
        };
        let long = found(7.0, false);
        assert!(long.beaten_by(7.0, true));
        assert!(!long.beaten_by(7.0, false));
        assert!(long.beaten_by(6.9, false));
        assert!(!long.beaten_by(7.1, true));
        let short = found(7.0, true);
        assert!(!short.beaten_by(7.0, true));
        assert!(!short.beaten_by(7.0, false));
        assert!(short.beaten_by(6.7, false));
    }

    /// One pass over the starts finds the chain two passes find, at every step of rating
    /// chain-level calibration puzzles, whatever the bound.
    #[test]
    fn one_pass_finds_the_chain_of_two() {
        let mut found = 0;
        for p in crate::rate::calibration_puzzles(6.6, 30) {
            let mut b = Board::new(&p);
            while let Some(step) = crate::rate::next_step(&b, f64::INFINITY) {
                for below in [f64::INFINITY, 7.3, 7.0, 6.8] {
                    let one = forcing_chain(&b, Wanted::below(below)).map(|s| format!("{s:?}"));
                    assert_eq!(one, two_passes(&b, below).map(|s| format!("{s:?}")), "{p}");
                    found += usize::from(one.is_some());
                }
                apply(&mut b, &step);
            }
        }
        assert!(found > 200, "{found} chains");
    }

    /// At every step of rating `puzzles`, every place of every digit: Nishio's run in full
    /// beside what `may` says of the place (`holding` and places by unit, by digit).
    /// Asserts that `may` says yes wherever the run finds a contradiction; returns how
    /// many places it passed over and how many runs found one.
    fn nishio_filter(
        puzzles: Vec<crate::grid::Grid>,
        may: impl Fn(&Board, usize, u8, &[CellSet], &[Vec<CellSet>]) -> bool,
    ) -> (usize, usize) {
        let (mut passed_over, mut contradictions) = (0, 0);
        let rules = Rules {
            dynamic: true,
            one_digit: true,
        };
        for p in puzzles {
            let mut b = Board::new(&p);
            while let Some(step) = crate::rate::next_step(&b, f64::INFINITY) {
                let holding = holding_each_digit(&b);
                let by_digit: Vec<Vec<CellSet>> = holding.iter().map(|&h| by_unit(&b, h)).collect();
                let links = Links::new(&b, rules);
                let mut imp = Run::new(&links);
                for on in every_on(&imp) {
                    let (cell, digit, _) = imp.split(on);
                    imp.run(on, RunStop::AtConflict);
                    let may = may(&b, cell, digit, &holding, &by_digit);
                    if imp.conflict().is_some() {
                        contradictions += 1;
                        assert!(may, "{p}: {} = {digit}", crate::grid::cell_name(9, cell));
                    }
                    passed_over += usize::from(!may);
                }
                apply(&mut b, &step);
            }
        }
        (passed_over, contradictions)
    }

    /// Wherever Nishio's run from a place finds a contradiction, [`may_contradict`] says
    /// it may: at every step of rating chain-level calibration puzzles. And it passes
    /// over most places (the point of it).
    #[test]
    fn nishio_runs_only_pass_over_places_without_a_contradiction() {
        let puzzles = crate::rate::calibration_puzzles(7.5, 20);
        let (passed_over, contradictions) =
            nishio_filter(puzzles, |b, cell, digit, holding, by_digit| {
                may_contradict(b, cell, holding[digit as usize], &by_digit[digit as usize])
            });
        assert!(contradictions > 100, "{contradictions} contradictions");
        assert!(
            passed_over > 10 * contradictions,
            "{passed_over} passed over"
        );
    }

    /// The same for [`BesideTest`] on non-consecutive puzzles the reference
    /// rated 7.5 and up (Nishio's level), every step of their rating.
    #[test]
    fn nishio_runs_beside_barred_digits_pass_over_only_places_without_one() {
        let puzzles: Vec<_> = crate::rate::reference_rated(Variant::NonConsecutive)
            .into_iter()
            .filter(|(se, _)| *se >= 7.5)
            .take(12)
            .map(|(_, p)| p)
            .collect();
        let (passed_over, contradictions) =
            nishio_filter(puzzles, |b, cell, digit, holding, by_digit| {
                BesideTest::new(b, holding, by_digit).may_contradict(cell, digit)
            });
        assert!(contradictions > 100, "{contradictions} contradictions");
        assert!(passed_over > contradictions, "{passed_over} passed over");
    }

    /// One [`BesideTest`] kept over every place of a board answers as a fresh one for
    /// each: what a test leaves is cleared for the next.
    #[test]
    fn a_kept_beside_test_answers_as_a_fresh_one() {
        let (mut places, mut yes) = (0, 0);
        for (_, p) in crate::rate::reference_rated(Variant::NonConsecutive)
            .into_iter()
            .filter(|(se, _)| *se >= 7.5)
            .take(6)
        {
            let mut b = Board::new(&p);
            while let Some(step) = crate::rate::next_step(&b, f64::INFINITY) {
                let holding = holding_each_digit(&b);
                let by_digit: Vec<Vec<CellSet>> = holding.iter().map(|&h| by_unit(&b, h)).collect();
                let mut kept = BesideTest::new(&b, &holding, &by_digit);
                for cell in (0..b.cells()).filter(|&c| b.is_open(c)) {
                    for digit in digits(b.cand(cell)) {
                        let fresh =
                            BesideTest::new(&b, &holding, &by_digit).may_contradict(cell, digit);
                        assert_eq!(kept.may_contradict(cell, digit), fresh, "{p}");
                        places += 1;
                        yes += usize::from(fresh);
                    }
                }
                apply(&mut b, &step);
            }
        }
        assert!(places > 1000 && yes > 100, "{yes} of {places}");
    }

    /// The board of `line` just before its first step at or above `score`, with its
    /// solution.
    fn board_before(line: &str, score: f64) -> (Board, crate::grid::Grid) {
        let puzzle = parse_line(line).unwrap();
        let solution = count_solutions(&puzzle, 2).unique().cloned().unwrap();
        let mut board = Board::new(&puzzle);
        for step in rate(&puzzle).steps {
            if step.score >= score {
                break;
            }
            apply(&mut board, &step);
        }
        (board, solution)
    }

    fn assert_sound(step: &Step, solution: &crate::grid::Grid) {
        assert_eq!(step.placements.len() + step.eliminations.len(), 1);
        for &(c, d) in &step.placements {
            assert_eq!(solution.get(c), d, "{step:?}");
        }
        for &(c, d) in &step.eliminations {
            assert_ne!(solution.get(c), d, "{step:?}");
        }
        assert!(!step.cells.is_empty());
    }

    /// Each level finds a sound step, scored from its base, on the board where a
    /// reference puzzle rated at that level first needs it.
    #[test]
    fn each_level_finds_a_sound_step_where_the_reference_needs_it() {
        let cases: [(&str, f64, Finder); 4] = [
            (
                "000900003000700060007050090030608012002000300960201050050080400080005000200009000",
                7.1,
                forcing_chain,
            ),
            (
                "000000870000067300000308109600000980070000030039000006403701000001520000056000000",
                7.8,
                |b, w| nishio(b, w.enough),
            ),
            (
                "000000000027090830153000296340000079000941000200000005910703058000000000000584000",
                8.2,
                |b, w| multiple_forcing_chains(b, w.enough),
            ),
            (
                "200000005051000890004000700000050000000479000010000020040807010800060004036040980",
                9.0,
                |b, w| dynamic_forcing_chains(b, w.enough),
            ),
        ];
        for (line, score, find) in cases {
            let (board, solution) = board_before(line, score);
            let step =
                find(&board, Wanted::LOWEST).unwrap_or_else(|| panic!("{line}: nothing found"));
            assert_sound(&step, &solution);
            assert!(step.score >= step.technique.base_score(), "{step:?}");
        }
    }

    /// A board with nothing to find: the solved grid with one cell open.
    #[test]
    fn nothing_to_find_on_a_board_without_choices() {
        let line =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        let mut cells: Vec<char> = line.chars().collect();
        cells[0] = '.';
        let board = Board::new(&parse_line(&cells.iter().collect::<String>()).unwrap());
        assert!(forcing_chain(&board, Wanted::LOWEST).is_none());
        for find in [nishio, multiple_forcing_chains, dynamic_forcing_chains] {
            assert!(find(&board, 0.0).is_none());
        }
    }
}
