//! Killer techniques, on the killer scale (see the README): what a cage's sum allows
//! (cage combination), the 45 rule (innies and outies of rows, columns, boxes and unions
//! of neighbouring ones), a digit a cage must hold locked in a unit, and the cages of a
//! unit clashing (their combinations must be disjoint). Each finder returns `None` on
//! boards without cages.

use super::Technique;
use crate::grid::{cell_name, cell_names, Cages, Combinations, Geometry};
use crate::rate::board::{digits, Board};
use crate::rate::techniques::step::Step;
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;

/// Score of the 45 rule over one unit; each further unit in the region adds
/// [`UNION_STEP`].
const INNIES_BASE: f64 = 2.5;
const UNION_STEP: f64 = 0.5;

/// Most open innies or outies the 45 rule reasons about at once.
const MOST_CELLS: usize = 4;

/// What a cage may still hold.
struct CageState {
    /// Its open cells.
    open: Vec<usize>,
    /// The sum its open cells must make.
    rest: u32,
    /// The combinations of distinct digits (not placed in the cage) that make `rest` in
    /// the open cells and can go one to a cell among their candidates.
    combos: Vec<u16>,
}

impl CageState {
    fn of(b: &Board, cages: &Cages, k: usize) -> CageState {
        let (mut open, mut placed, mut placed_sum, mut held) = (Vec::new(), 0u16, 0u32, 0u16);
        for &c in cages.cells(k) {
            let c = c as usize;
            match b.value(c) {
                0 => {
                    open.push(c);
                    held |= b.cand(c);
                }
                v => {
                    placed |= 1 << (v - 1);
                    placed_sum += u32::from(v);
                }
            }
        }
        let rest = cages.sum(k).saturating_sub(placed_sum);
        let available = held & !placed;
        let combos = fitting(b, &open, rest, available).collect();
        CageState { open, rest, combos }
    }

    /// The digits some combination holds.
    fn some(&self) -> u16 {
        self.combos.iter().fold(0, |m, &s| m | s)
    }

    /// The digits every combination holds.
    fn every(&self) -> u16 {
        self.combos.iter().fold(u16::MAX, |m, &s| m & s)
    }
}

/// What the killer finders derive from the puzzle alone, built once per puzzle and shared
/// by the board's copies.
struct PuzzleDerived {
    /// The 45 rule's regions and their sides.
    rule45: Rule45,
    /// Per cage: its cells' candidates (placed cells flagged) when its state was last
    /// built, and that state. A state depends on nothing else, so a cage whose cells are
    /// as they were keeps it.
    kept: RefCell<Vec<Option<KeptState>>>,
    /// Per 45-rule side: its cells' candidates when it last found nothing (what it finds
    /// depends on nothing else).
    quiet: RefCell<Vec<Option<Vec<u16>>>>,
}

/// A cage's candidates (a [`snapshot`]) and the state built from them.
type KeptState = (Vec<u16>, Rc<CageState>);

/// The puzzle's [`PuzzleDerived`].
fn puzzle_derived(b: &Board, cages: &Cages) -> Rc<PuzzleDerived> {
    b.puzzle_derived(|| {
        let rule45 = rule45(b, cages);
        let sides = rule45.sides.len();
        PuzzleDerived {
            rule45,
            kept: RefCell::new(vec![None; cages.count()]),
            quiet: RefCell::new(vec![None; sides]),
        }
    })
}

/// The candidates of `cells` into `out`, placed cells flagged: what the killer finders'
/// results on those cells depend on.
fn snapshot(b: &Board, cells: impl Iterator<Item = usize>, out: &mut Vec<u16>) {
    out.clear();
    out.extend(cells.map(|c| b.cand(c) | if b.is_open(c) { 0 } else { PLACED }));
}

/// Every cage's state on the board as it stands: built once per board version and shared
/// by the killer finders, which all start from it; a cage whose cells have not changed
/// keeps the state built before (most cages, from one step to the next).
fn states(b: &Board, cages: &Cages) -> Rc<Vec<Rc<CageState>>> {
    b.derived(|| {
        let derived = puzzle_derived(b, cages);
        let mut kept = derived.kept.borrow_mut();
        // A cage has at most a unit's cells: one allocation for every snapshot.
        let mut now = Vec::with_capacity(b.n());
        (0..cages.count())
            .map(|k| {
                snapshot(b, cages.cells(k).iter().map(|&c| c as usize), &mut now);
                match &kept[k] {
                    Some((then, state)) if *then == now => Rc::clone(state),
                    _ => {
                        let state = Rc::new(CageState::of(b, cages, k));
                        kept[k] = Some((now.clone(), Rc::clone(&state)));
                        state
                    }
                }
            })
            .collect()
    })
}

/// Flags a placed cell's digit in a [`snapshot`] (killer grids have at most 9 digits).
const PLACED: u16 = 1 << 15;

/// The combinations of distinct digits within `available` that make `sum` in the open
/// cells `open` and can go one to a cell among their candidates.
fn fitting<'a>(
    b: &'a Board,
    open: &'a [usize],
    sum: u32,
    available: u16,
) -> impl Iterator<Item = u16> + 'a {
    within(b, open.len(), sum, available).filter(move |&set| fits(b, open, set))
}

/// The combinations of `size` distinct digits within `available` that make `sum`.
fn within(b: &Board, size: usize, sum: u32, available: u16) -> impl Iterator<Item = u16> {
    Combinations::of(b.n())
        .of_size_and_sum(size, sum)
        .iter()
        .copied()
        .filter(move |&set| set & !available == 0)
}

/// Whether the digits of `set` (as many as `cells`) can go one to each cell of `cells`
/// among their candidates.
fn fits(b: &Board, cells: &[usize], set: u16) -> bool {
    debug_assert_eq!(set.count_ones() as usize, cells.len());
    // Most often, early on: every cell can take every digit of the set.
    if cells.iter().all(|&c| b.cand(c) & set == set) {
        return true;
    }
    let (options, k) = options_within(b, cells, set);
    matching(&options[..k]).is_some()
}

/// Each cell's candidates within `set` (a digit per cell at most: `set` has at most 16).
fn options_within(b: &Board, cells: &[usize], set: u16) -> ([u16; 16], usize) {
    let mut options = [0u16; 16];
    for (o, &c) in options.iter_mut().zip(cells) {
        *o = b.cand(c) & set;
    }
    (options, cells.len())
}

/// A digit of its `options` for each cell, all different, as each digit's cell (`owner`,
/// [`NO_CELL`] for digits no cell takes): a matching of cells to digits, grown one cell
/// at a time by augmenting paths (Kuhn's algorithm). Trying each digit of each cell in
/// turn took time exponential in the cells, and the 45 rule asks this of up to a unit's.
fn matching(options: &[u16]) -> Option<[u8; 16]> {
    let mut padded = [0u16; 16];
    padded[..options.len()].copy_from_slice(options);
    let mut owner = [NO_CELL; 16];
    (0..options.len())
        .all(|i| augment(i, &padded, &mut owner, &mut 0))
        .then_some(owner)
}

/// For each of `cells`, the digits it takes in some way of giving the cells, one digit
/// each among their candidates, all the digits of one of `sets` (each as many digits as
/// cells; sets that cannot go to the cells so add nothing). Exact per cell, as the 45
/// rule's trial of every assignment is: a union over the sets alone would keep less the
/// more cells are placed, and a rule that can lose an elimination as the grid fills in
/// could leave a rating stuck where it once was not.
///
/// Per set, from one matching: cell `i` can take another digit `d` when `d`'s cell can
/// move on along the matching's alternating paths to the digit `i` gives up.
fn taken_in(b: &Board, cells: &[usize], sets: impl Iterator<Item = u16>) -> Vec<u16> {
    let mut taken = vec![0u16; cells.len()];
    for set in sets {
        let (options, k) = options_within(b, cells, set);
        if options[..k].iter().all(|&o| o == set) {
            taken.iter_mut().for_each(|t| *t |= set);
            continue;
        }
        // A set can add only each cell's options: none new, no matching needed.
        if options[..k].iter().zip(&taken).all(|(&o, &t)| o & !t == 0) {
            continue;
        }
        let Some(owner) = matching(&options[..k]) else {
            continue;
        };
        // `reach[d]`: the digits the cell holding `d` can pass on to, directly or along
        // other cells in turn.
        let mut reach = [0u16; 16];
        for d in digits(set) {
            let d = usize::from(d - 1);
            reach[d] = options[usize::from(owner[d])];
        }
        loop {
            let mut grew = false;
            for d in digits(set) {
                let d = usize::from(d - 1);
                let wider = digits(reach[d]).fold(reach[d], |m, e| m | reach[usize::from(e - 1)]);
                grew |= wider != reach[d];
                reach[d] = wider;
            }
            if !grew {
                break;
            }
        }
        let mut held = [0u16; 16];
        for d in digits(set) {
            held[usize::from(owner[usize::from(d - 1)])] = 1 << (d - 1);
        }
        for i in 0..k {
            taken[i] |= held[i];
            for d in digits(options[i] & !held[i]) {
                if reach[usize::from(d - 1)] & held[i] != 0 {
                    taken[i] |= 1 << (d - 1);
                }
            }
        }
    }
    taken
}

/// No cell holds the digit yet (in [`augment`]'s `owner`).
const NO_CELL: u8 = u8::MAX;

/// Gives cell `i` one of its `options` (digit bits): a free digit, or one whose owner
/// can move to another digit in turn; `tried` marks the digits this search has visited.
fn augment(i: usize, options: &[u16; 16], owner: &mut [u8; 16], tried: &mut u16) -> bool {
    loop {
        let free = options[i] & !*tried;
        if free == 0 {
            return false;
        }
        let bit = free & free.wrapping_neg();
        *tried |= bit;
        let d = bit.trailing_zeros() as usize;
        if owner[d] == NO_CELL || augment(owner[d] as usize, options, owner, tried) {
            owner[d] = i as u8;
            return true;
        }
    }
}

/// `{1,2}` or `{1,5}|{2,4}`.
fn combo_list(combos: &[u16]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(8 * combos.len());
    for (i, &set) in combos.iter().enumerate() {
        out.push_str(if i == 0 { "{" } else { "|{" });
        for (j, d) in digits(set).enumerate() {
            let sep = if j == 0 { "" } else { "," };
            write!(out, "{sep}{d}").expect("a string takes any text");
        }
        out.push('}');
    }
    out
}

/// A cage and its combinations: `cage r1c1+r1c2 = 3 → {1,2}`, or with placed cells
/// `cage r1c1+r1c2+r1c3 = 12 (r1c2 left: 5) → {5}`.
fn cage_combos(cages: &Cages, k: usize, st: &CageState, n: usize) -> String {
    let mut s = format!("cage {} = {}", cages.cell_list(k), cages.sum(k));
    if st.rest != cages.sum(k) {
        let open = cell_names(n, st.open.iter().copied());
        s.push_str(&format!(" ({open} left: {})", st.rest));
    }
    format!("{s} → {}", combo_list(&st.combos))
}

/// A cage's open cells keep only the digits of the combinations that make its sum; then
/// a digit every combination holds, with one place left in the cage, goes there.
pub fn cage_combination(b: &Board) -> Option<Step> {
    combination_steps(b)?.next()
}

/// Every step [`cage_combination`] could take on the board as it stands, in its order:
/// each cage's eliminations, then each cage's placement.
pub fn every_cage_combination(b: &Board) -> Vec<Step> {
    combination_steps(b).map_or_else(Vec::new, Iterator::collect)
}

/// [`cage_combination`]'s steps, found as they are asked for.
fn combination_steps(b: &Board) -> Option<impl Iterator<Item = Step> + '_> {
    let cages = b.cages()?;
    let n = b.n();
    let states = states(b, cages);
    let count = states.len();
    let placing = Rc::clone(&states);
    let eliminations = (0..count).filter_map(move |k| {
        let st = &states[k];
        let some = st.some();
        let eliminations: Vec<(usize, u8)> = st
            .open
            .iter()
            .flat_map(|&c| digits(b.cand(c) & !some).map(move |d| (c, d)))
            .collect();
        (!eliminations.is_empty()).then(|| {
            let mut step =
                Step::new(Technique::CageCombination, st.open.clone()).eliminating(eliminations);
            step.describe(b, || cage_combos(cages, k, st, n));
            step
        })
    });
    let placements = (0..count).filter_map(move |k| {
        let st = &placing[k];
        digits(st.every()).find_map(|d| {
            let mut places = st.open.iter().filter(|&&c| b.cand(c) & 1 << (d - 1) != 0);
            let (Some(&c), None) = (places.next(), places.next()) else {
                return None;
            };
            let mut step = Step::new(Technique::CageCombination, st.open.clone());
            step.placements = vec![(c, d)];
            step.describe(b, || {
                format!(
                    "{} needs {d}, which only {} can hold",
                    cage_combos(cages, k, st, n),
                    cell_name(n, c)
                )
            });
            Some(step)
        })
    });
    Some(eliminations.chain(placements))
}

/// A digit every combination of a cage holds, whose places in the cage all lie in one
/// row, column or box, leaves the rest of that unit.
pub fn cage_locked(b: &Board) -> Option<Step> {
    let cages = b.cages()?;
    let n = b.n();
    for (k, st) in states(b, cages).iter().enumerate() {
        for d in digits(st.every()) {
            let bit = 1u16 << (d - 1);
            let places: Vec<usize> = st
                .open
                .iter()
                .copied()
                .filter(|&c| b.cand(c) & bit != 0)
                .collect();
            let Some(&first) = places.first() else {
                continue;
            };
            for u in b.units_of(first) {
                let unit = b.unit(u);
                if !places.iter().all(|&c| unit.contains(&(c as u16))) {
                    continue;
                }
                let eliminations: Vec<(usize, u8)> = unit
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| cages.cage_of(c) != k && b.is_open(c) && b.cand(c) & bit != 0)
                    .map(|c| (c, d))
                    .collect();
                if !eliminations.is_empty() {
                    let mut step =
                        Step::new(Technique::CageLocked, places.clone()).eliminating(eliminations);
                    step.describe(b, || {
                        format!(
                            "{} must hold {d}, within {}",
                            cage_combos(cages, k, st, n),
                            unit_name(b, u)
                        )
                    });
                    return Some(step);
                }
            }
        }
    }
    None
}

/// `row 3`, `column 4`, `box 5`.
fn unit_name(b: &Board, u: usize) -> String {
    let n = b.n();
    match u / n {
        0 => format!("row {}", u % n + 1),
        1 => format!("column {}", u % n + 1),
        2 => format!("box {}", u % n + 1),
        _ => "a diagonal".into(),
    }
}

/// The 45 rule over a puzzle's regions, built once per puzzle: every side in one list and
/// their cells in another (a few allocations instead of several per region).
struct Rule45 {
    regions: Vec<Region>,
    /// Every region's sides, region after region; a side's place here is its place in
    /// [`PuzzleDerived::quiet`].
    sides: Vec<Side>,
    /// The cells of every side.
    cells: Vec<usize>,
}

impl Rule45 {
    /// Adds a side: its `plus` cells are the last ones from that place on, its `minus`
    /// cells are moved after them.
    fn push_side(&mut self, name: &'static str, plus: usize, minus: &mut Vec<usize>, sum: i64) {
        let at = self.cells.len();
        self.cells.append(minus);
        self.sides.push(Side {
            name,
            plus: plus..at,
            minus: at..self.cells.len(),
            sum,
            plus_differ: false,
        });
    }

    /// The cells of `side` whose digits count, and those whose digits are taken away.
    fn plus_minus(&self, side: &Side) -> (&[usize], &[usize]) {
        (
            &self.cells[side.plus.clone()],
            &self.cells[side.minus.clone()],
        )
    }
}

/// A region of whole units (each holding every digit once), for the 45 rule, with its
/// sides: what the cages fix of it.
struct Region {
    name: Rc<str>,
    units: usize,
    /// Its sides in [`Rule45::sides`].
    sides: Range<usize>,
}

/// One side of the 45 rule over a region: the digits of `plus` less those of `minus`
/// (ranges of [`Rule45::cells`]) make `sum`.
struct Side {
    /// `innies`, `outies` or `innies − outies`.
    name: &'static str,
    plus: Range<usize>,
    minus: Range<usize>,
    sum: i64,
    /// Whether every two cells of `plus` see each other or share a cage (so their
    /// digits differ, as those of one unit's innies do).
    plus_differ: bool,
}

/// The regions of the 45 rule, fewest units first: single rows, columns and boxes; then
/// two neighbouring rows, columns or boxes; then three rows or columns (9×9).
fn regions(b: &Board) -> Rc<Vec<RegionShape>> {
    thread_local! {
        /// The regions of each grid shape met so far (killer grids come in three).
        static BUILT: RefCell<Vec<(Geometry, Rc<Vec<RegionShape>>)>> =
            const { RefCell::new(Vec::new()) };
    }
    let shape = b.geometry();
    BUILT.with_borrow_mut(|built| {
        if let Some((_, regions)) = built.iter().find(|(s, _)| *s == shape) {
            return Rc::clone(regions);
        }
        let regions = Rc::new(build_regions(b));
        built.push((shape, Rc::clone(&regions)));
        regions
    })
}

/// A region of the 45 rule as the grid's shape alone makes it: its name, its number of
/// units and its cells.
type RegionShape = (Rc<str>, usize, Vec<usize>);

/// [`regions`], built.
fn build_regions(b: &Board) -> Vec<RegionShape> {
    let n = b.n();
    let g = b.geometry();
    let most = (n / 3).max(2);
    let mut out = Vec::new();
    for k in 1..=most {
        for first in 0..=n - k {
            let lines = first..first + k;
            let span = if k == 1 {
                format!("{}", first + 1)
            } else {
                format!("{}–{}", first + 1, first + k)
            };
            let plural = if k == 1 { "" } else { "s" };
            out.push((
                format!("row{plural} {span}").into(),
                k,
                lines
                    .clone()
                    .flat_map(|r| (0..n).map(move |c| r * n + c))
                    .collect(),
            ));
            out.push((
                format!("column{plural} {span}").into(),
                k,
                lines.flat_map(|c| (0..n).map(move |r| r * n + c)).collect(),
            ));
        }
        let stacks = n / g.box_cols();
        for bx in 0..n {
            let box_cells = |bx: usize| b.unit(2 * n + bx).iter().map(|&c| c as usize);
            match k {
                1 => out.push((format!("box {}", bx + 1).into(), 1, box_cells(bx).collect())),
                2 => {
                    let right = (bx % stacks + 1 < stacks).then_some(bx + 1);
                    let below = (bx + stacks < n).then_some(bx + stacks);
                    for other in [right, below].into_iter().flatten() {
                        out.push((
                            format!("boxes {}+{}", bx + 1, other + 1).into(),
                            2,
                            box_cells(bx).chain(box_cells(other)).collect(),
                        ));
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// Every region's sides, from the cages alone.
fn rule45(b: &Board, cages: &Cages) -> Rule45 {
    let n = b.n();
    let unit_sum = (n * (n + 1) / 2) as i64;
    let shapes = regions(b);
    let mut out = Rule45 {
        regions: Vec::with_capacity(shapes.len()),
        sides: Vec::with_capacity(3 * shapes.len()),
        cells: Vec::new(),
    };
    let mut inside = vec![false; b.cells()];
    // Per cage: whether the region met it yet, and how many of its cells lie inside.
    let (mut seen, mut inside_count) = (vec![false; cages.count()], vec![0; cages.count()]);
    // Cells of a side's second list while its first goes in.
    let mut later = Vec::new();
    for (name, units, cells) in shapes.iter() {
        let units = *units;
        inside.fill(false);
        seen.fill(false);
        inside_count.fill(0);
        for &c in cells {
            inside[c] = true;
            inside_count[cages.cage_of(c)] += 1;
        }
        let crossing = |k: usize| (1..cages.cells(k).len()).contains(&inside_count[k]);
        let first_side = out.sides.len();
        // Innies and outies: the cells in and out of the cages that cross the region's
        // edge, cage by cage as the region's cells meet them.
        let (mut whole, mut partial) = (0i64, 0i64);
        let innies = out.cells.len();
        for &c in cells {
            let k = cages.cage_of(c);
            if std::mem::replace(&mut seen[k], true) {
                continue;
            }
            if !crossing(k) {
                whole += i64::from(cages.sum(k));
                continue;
            }
            partial += i64::from(cages.sum(k));
            for &m in cages.cells(k) {
                let m = m as usize;
                if inside[m] {
                    &mut out.cells
                } else {
                    &mut later
                }
                .push(m);
            }
        }
        let innie_sum = unit_sum * units as i64 - whole;
        out.push_side("innies", innies, &mut Vec::new(), innie_sum);
        let outies = out.cells.len();
        out.cells.append(&mut later);
        out.push_side("outies", outies, &mut Vec::new(), partial - innie_sum);
        // Innies minus outies: the crossing cages mostly inside count whole, so their
        // cells outside are subtracted and the other crossing cages' cells inside added.
        let mut mixed_sum = innie_sum;
        let plus = out.cells.len();
        for k in (0..cages.count()).filter(|&k| crossing(k)) {
            let members = cages.cells(k).iter().map(|&m| m as usize);
            if 2 * inside_count[k] > cages.cells(k).len() {
                mixed_sum -= i64::from(cages.sum(k));
                later.extend(members.filter(|&m| !inside[m]));
            } else {
                out.cells.extend(members.filter(|&m| inside[m]));
            }
        }
        if out.cells.len() > plus && !later.is_empty() {
            out.push_side("innies − outies", plus, &mut later, mixed_sum);
        } else {
            out.cells.truncate(plus);
            later.clear();
        }
        for side in &mut out.sides[first_side..] {
            let plus = &out.cells[side.plus.clone()];
            side.plus_differ = plus
                .iter()
                .enumerate()
                .all(|(i, &a)| plus[..i].iter().all(|&c| differ(b, cages, a, c)));
        }
        out.regions.push(Region {
            name: Rc::clone(name),
            units,
            sides: first_side..out.sides.len(),
        });
    }
    out
}

/// The 45 rule: the cells of a region's cages that stick in (innies) or out (outies) make
/// a known sum; when they are few, their candidates keep only what makes it. Scores
/// [`INNIES_BASE`] for one unit, [`UNION_STEP`] more per further unit; regions are tried
/// fewest units first, so the first step found scores least.
pub fn innies_outies(b: &Board, below: f64) -> Option<Step> {
    rule45_steps(b, below)?.next()
}

/// Every step [`innies_outies`] could take below `below` on the board as it stands, in
/// its order.
pub fn every_innies_outies(b: &Board, below: f64) -> Vec<Step> {
    rule45_steps(b, below).map_or_else(Vec::new, Iterator::collect)
}

/// [`innies_outies`]' steps, found as they are asked for.
fn rule45_steps(b: &Board, below: f64) -> Option<impl Iterator<Item = Step> + '_> {
    let cages = b.cages()?;
    let n = b.n();
    let derived = puzzle_derived(b, cages);
    // A side's innies and outies are distinct cells: one allocation for every snapshot,
    // and one for every side's open cells.
    let mut now = Vec::with_capacity(b.cells());
    let mut open = Vec::with_capacity(b.cells());
    // Every region scoring below `below` (fewest units first), then each of its sides.
    let (scored, counted) = (Rc::clone(&derived), Rc::clone(&derived));
    let sides = (0..derived.rule45.regions.len())
        .take_while(move |&r| region_score(&scored.rule45.regions[r]) < below - 1e-9)
        .flat_map(move |r| counted.rule45.regions[r].sides.clone().map(move |i| (r, i)));
    Some(sides.filter_map(move |(r, i)| {
        let rule45 = &derived.rule45;
        let (region, side) = (&rule45.regions[r], &rule45.sides[i]);
        let (plus, minus) = rule45.plus_minus(side);
        let mut quiet = derived.quiet.borrow_mut();
        snapshot(b, plus.iter().chain(minus).copied(), &mut now);
        if quiet[i].as_ref() == Some(&now) {
            return None;
        }
        let Some((mut step, rest)) =
            restrict(b, plus, minus, side.sum, side.plus_differ, &mut open)
        else {
            // The side's last snapshot's room, reused.
            let kept = quiet[i].get_or_insert_with(Vec::new);
            kept.clear();
            kept.extend_from_slice(&now);
            return None;
        };
        step.score = region_score(region);
        step.describe(b, || {
            let names =
                |list: &[usize]| cell_names(n, list.iter().copied().filter(|&c| b.is_open(c)));
            let expr = if minus.iter().any(|&c| b.is_open(c)) {
                format!("{} − ({})", names(plus), names(minus))
            } else {
                names(plus)
            };
            format!("{} of {}: {expr} = {rest}", side.name, region.name)
        });
        Some(step)
    }))
}

/// The 45 rule's score over `region`.
fn region_score(region: &Region) -> f64 {
    INNIES_BASE + UNION_STEP * (region.units - 1) as f64
}

/// Keeps, in the open cells of `plus` and `minus`, only the candidates of some assignment
/// with `sum(plus) - sum(minus) = sum` (cells that see each other, or share a cage,
/// differ); a lone open cell is placed. Returns the step and what the open cells make;
/// `None` when nothing changes, or no cell is open, or the cells are too many: any number
/// of cells with distinct digits (the innies of one unit) goes by digit combinations,
/// others up to [`MOST_CELLS`] by trying every assignment.
///
/// `plus_differ`: whether every two cells of `plus` differ (see [`Side::plus_differ`]);
/// `open`: room for the open cells.
fn restrict(
    b: &Board,
    plus: &[usize],
    minus: &[usize],
    sum: i64,
    plus_differ: bool,
    open: &mut Vec<usize>,
) -> Option<(Step, i64)> {
    let placed = |list: &[usize]| list.iter().map(|&c| i64::from(b.value(c))).sum::<i64>();
    let target = sum - placed(plus) + placed(minus);
    // The open cells of `plus`, then those of `minus`, in the caller's room (this runs for
    // every side that changed, at most steps of a killer rating).
    open.clear();
    open.extend(plus.iter().copied().filter(|&c| b.is_open(c)));
    let open_plus = open.len();
    open.extend(minus.iter().copied().filter(|&c| b.is_open(c)));
    let open_minus = &open[open_plus..];
    let cages = b.cages()?;
    let must_differ = |a: usize, c: usize| differ(b, cages, a, c);
    if open.is_empty() {
        return None;
    }
    let distinct = open_minus.is_empty()
        && (plus_differ
            || open
                .iter()
                .enumerate()
                .all(|(i, &a)| open[..i].iter().all(|&c| must_differ(a, c))));
    let allowed: Vec<u16> = if distinct {
        let held = open.iter().fold(0u16, |m, &c| m | b.cand(c));
        let target = u32::try_from(target).ok()?;
        // `taken_in` passes over the sets that do not fit: no need to test them first.
        taken_in(b, open, within(b, open.len(), target, held))
    } else if open.len() <= MOST_CELLS {
        Assignments::new(b, open, open_minus, &must_differ).allowed(target)
    } else {
        return None;
    };
    if open.len() == 1 {
        let m = allowed[0] & b.cand(open[0]);
        if m.count_ones() != 1 || b.cand(open[0]).count_ones() == 1 {
            return None;
        }
        let mut step = Step::new(Technique::Innies45, open.clone());
        step.placements = vec![(open[0], m.trailing_zeros() as u8 + 1)];
        return Some((step, target));
    }
    let eliminations: Vec<(usize, u8)> = open
        .iter()
        .zip(&allowed)
        .flat_map(|(&c, &keep)| digits(b.cand(c) & !keep).map(move |d| (c, d)))
        .collect();
    (!eliminations.is_empty()).then(|| {
        let step = Step::new(Technique::Innies45, open.clone()).eliminating(eliminations);
        (step, target)
    })
}

/// Whether cells `a` and `c` must hold different digits: they see each other or share a
/// cage.
fn differ(b: &Board, cages: &Cages, a: usize, c: usize) -> bool {
    b.sees(a, c) || cages.cage_of(a) == cages.cage_of(c)
}

/// The assignments of digits to at most [`MOST_CELLS`] open cells, each weighed +1 or
/// −1, whose weighed sum is a target; cells that see each other or share a cage differ.
struct Assignments {
    cand: [u16; MOST_CELLS],
    sign: [i64; MOST_CELLS],
    /// Per cell, the earlier cells it must differ from (bit j: cell j).
    differs: [u8; MOST_CELLS],
    /// `low[i]..=high[i]`: what cells `i..` can add up to, distinctness aside.
    low: [i64; MOST_CELLS + 1],
    high: [i64; MOST_CELLS + 1],
    count: usize,
}

impl Assignments {
    fn new(
        b: &Board,
        open: &[usize],
        minus: &[usize],
        differ: &dyn Fn(usize, usize) -> bool,
    ) -> Assignments {
        let (mut cand, mut sign, mut differs) = ([0; MOST_CELLS], [1; MOST_CELLS], [0; MOST_CELLS]);
        for (i, &c) in open.iter().enumerate() {
            cand[i] = b.cand(c);
            sign[i] = if minus.contains(&c) { -1 } else { 1 };
            for (j, &e) in open[..i].iter().enumerate() {
                differs[i] |= u8::from(differ(c, e)) << j;
            }
        }
        Assignments::of(&cand[..open.len()], &sign, &differs)
    }

    /// The assignments to cells of candidates `cand`, weighed by `sign`, each differing
    /// from the earlier cells `differs` marks.
    fn of(cand: &[u16], sign: &[i64; MOST_CELLS], differs: &[u8; MOST_CELLS]) -> Assignments {
        let mut a = Assignments {
            cand: [0; MOST_CELLS],
            sign: *sign,
            differs: *differs,
            low: [0; MOST_CELLS + 1],
            high: [0; MOST_CELLS + 1],
            count: cand.len(),
        };
        a.cand[..cand.len()].copy_from_slice(cand);
        for i in (0..a.count).rev() {
            let least = i64::from(a.cand[i].trailing_zeros() as u8 + 1);
            let most = i64::from(16 - a.cand[i].leading_zeros() as u8);
            let (lo, hi) = if a.sign[i] > 0 {
                (least, most)
            } else {
                (-most, -least)
            };
            a.low[i] = a.low[i + 1] + lo;
            a.high[i] = a.high[i + 1] + hi;
        }
        a
    }

    /// Each cell's digits in some assignment making `target` (all candidates once every
    /// candidate is known to take part, which is all the caller needs).
    fn allowed(&self, target: i64) -> Vec<u16> {
        let mut allowed = [0u16; MOST_CELLS];
        let mut chosen = [0u8; MOST_CELLS];
        self.extend(0, target, &mut chosen, &mut allowed);
        allowed[..self.count].to_vec()
    }

    /// Tries every digit of cell `i` (and on) that can still make `left`, marking the
    /// digits of each full assignment; `true` once every candidate is marked.
    fn extend(
        &self,
        i: usize,
        left: i64,
        chosen: &mut [u8; MOST_CELLS],
        allowed: &mut [u16; MOST_CELLS],
    ) -> bool {
        if i == self.count {
            if left != 0 {
                return false;
            }
            for (a, &d) in allowed.iter_mut().zip(&chosen[..self.count]) {
                *a |= 1 << (d - 1);
            }
            return allowed[..self.count] == self.cand[..self.count];
        }
        if left < self.low[i] || left > self.high[i] {
            return false;
        }
        // Nothing new below: every digit chosen so far is marked already, and so is every
        // candidate of the cells still to choose. (Most branches, once a few assignments
        // have marked most candidates: the search then looks for the rest alone.)
        let chosen_marked = (0..i).all(|j| allowed[j] & 1 << (chosen[j] - 1) != 0);
        if chosen_marked && (i..self.count).all(|j| allowed[j] == self.cand[j]) {
            return false;
        }
        let tries = if i + 1 < self.count {
            self.cand[i]
        } else {
            // The last cell can only take the digit that makes `left`.
            match left * self.sign[i] {
                d @ 1..=16 => self.cand[i] & 1 << (d - 1),
                _ => 0,
            }
        };
        for d in digits(tries) {
            if (0..i).any(|j| self.differs[i] >> j & 1 == 1 && chosen[j] == d) {
                continue;
            }
            chosen[i] = d;
            if self.extend(i + 1, left - self.sign[i] * i64::from(d), chosen, allowed) {
                return true;
            }
        }
        false
    }
}

/// One part of a unit for [`cage_clash`]: a cage wholly inside it, or the unit's other
/// cells (the 45 rule's innies), with the combinations its open cells may hold.
struct Part {
    open: Vec<usize>,
    combos: Vec<u16>,
    /// The cage, or `None` for the unit's other cells.
    cage: Option<usize>,
}

/// Cage clash: the cages wholly inside a row, column or box and the unit's other cells
/// (which make the rest of its sum) hold every digit once between them, so their
/// combinations must be disjoint. A combination of one part that no disjoint choice of the
/// others' completes goes, and with it the digits no remaining combination holds.
pub fn cage_clash(b: &Board) -> Option<Step> {
    let cages = b.cages()?;
    let n = b.n();
    let unit_sum = (n * (n + 1) / 2) as u32;
    let states = states(b, cages);
    for u in 0..b.unit_count() {
        let unit = b.unit(u);
        let (mut parts, mut whole, mut rest) = (Vec::new(), 0u32, Vec::new());
        for &c in unit {
            let c = c as usize;
            let k = cages.cage_of(c);
            if !cages.lies_within(k, unit) {
                rest.push(c);
            } else if cages.cells(k)[0] as usize == c {
                whole += cages.sum(k);
                let st = &states[k];
                if !st.open.is_empty() {
                    parts.push(Part {
                        open: st.open.clone(),
                        combos: st.combos.clone(),
                        cage: Some(k),
                    });
                }
            }
        }
        let open_rest: Vec<usize> = rest.iter().copied().filter(|&c| b.is_open(c)).collect();
        if !open_rest.is_empty() {
            let placed: u32 = rest.iter().map(|&c| u32::from(b.value(c))).sum();
            let held = open_rest.iter().fold(0u16, |m, &c| m | b.cand(c));
            let sum = unit_sum.saturating_sub(whole + placed);
            let combos = fitting(b, &open_rest, sum, held).collect();
            parts.push(Part {
                open: open_rest,
                combos,
                cage: None,
            });
        }
        if parts.len() < 2 {
            continue;
        }
        parts.sort_by_key(|p| p.combos.len());
        let mut kept = vec![0u16; parts.len()];
        let mut chosen = vec![0u16; parts.len()];
        keep_disjoint(&parts, 0, 0, &mut chosen, &mut kept);
        for (i, part) in parts.iter().enumerate() {
            let eliminations: Vec<(usize, u8)> = part
                .open
                .iter()
                .flat_map(|&c| digits(b.cand(c) & !kept[i]).map(move |d| (c, d)))
                .collect();
            if eliminations.is_empty() {
                continue;
            }
            let cells: Vec<usize> = parts.iter().flat_map(|p| p.open.clone()).collect();
            let mut step = Step::new(Technique::CageClash, cells).eliminating(eliminations);
            step.describe(b, || {
                let left: Vec<u16> = part
                    .combos
                    .iter()
                    .copied()
                    .filter(|&s| s & !kept[i] == 0)
                    .collect();
                let what = match part.cage {
                    Some(k) => format!("cage {}", cages.cell_list(k)),
                    None => format!("the rest {}", cell_names(n, part.open.iter().copied())),
                };
                format!(
                    "{} holds {} parts with disjoint digits: {what} → {}",
                    unit_name(b, u),
                    parts.len(),
                    combo_list(&left)
                )
            });
            return Some(step);
        }
    }
    None
}

/// Marks in `kept` the digits of each part's combinations that some choice of pairwise
/// disjoint combinations of every part holds (`chosen[..i]` taken so far, `used` their
/// digits); whether some choice completes from part `i`.
fn keep_disjoint(
    parts: &[Part],
    i: usize,
    used: u16,
    chosen: &mut [u16],
    kept: &mut [u16],
) -> bool {
    if i == parts.len() {
        for (k, &set) in kept.iter_mut().zip(chosen.iter()) {
            *k |= set;
        }
        return true;
    }
    let mut any = false;
    for &set in &parts[i].combos {
        if set & used == 0 {
            chosen[i] = set;
            any |= keep_disjoint(parts, i + 1, used | set, chosen, kept);
        }
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rand;

    /// Every choice of one combination per part tried: the digits of each part's
    /// combinations that some pairwise disjoint choice holds.
    fn brute_kept(parts: &[Part]) -> Vec<u16> {
        let mut kept = vec![0u16; parts.len()];
        let mut pick = vec![0usize; parts.len()];
        loop {
            let sets: Vec<u16> = pick.iter().zip(parts).map(|(&i, p)| p.combos[i]).collect();
            let disjoint = sets
                .iter()
                .enumerate()
                .all(|(i, &a)| sets[..i].iter().all(|&b| a & b == 0));
            if disjoint {
                for (k, &s) in kept.iter_mut().zip(&sets) {
                    *k |= s;
                }
            }
            // The next choice, as an odometer.
            let Some(i) = (0..parts.len()).find(|&i| pick[i] + 1 < parts[i].combos.len()) else {
                return kept;
            };
            pick[i] += 1;
            pick[..i].iter_mut().for_each(|p| *p = 0);
        }
    }

    /// Whether some order of `set`'s digits goes one to a cell among `cand`: every order
    /// tried.
    fn brute_fits(cand: &[u16], set: u16) -> bool {
        let Some((&first, rest)) = cand.split_first() else {
            return set == 0;
        };
        digits(first & set).any(|d| brute_fits(rest, set & !(1 << (d - 1))))
    }

    /// An empty 9x9 board with 1 to 9 cells, one per row, left random candidates.
    fn random_cells(rng: &mut Rand) -> (Board, Vec<usize>) {
        let mut b = Board::new(&crate::grid::Grid::empty(crate::grid::Geometry::CLASSIC));
        let count = 1 + rng.below(9) as usize;
        let cells: Vec<usize> = (0..count).map(|i| i * 9 + rng.below(9) as usize).collect();
        for &c in &cells {
            let keep = 1 + rng.below(511) as u16;
            for d in digits(0x1ff & !keep) {
                b.eliminate(c, d);
            }
        }
        (b, cells)
    }

    /// A random set of `count` digits.
    fn random_set(rng: &mut Rand, count: usize) -> u16 {
        let mut set = 0u16;
        while (set.count_ones() as usize) < count {
            set |= 1 << rng.below(9);
        }
        set
    }

    #[test]
    fn fits_matches_trying_every_order() {
        let mut rng = Rand::new(8);
        let (mut yes, mut no) = (0, 0);
        for _ in 0..5000 {
            let (b, cells) = random_cells(&mut rng);
            let count = cells.len();
            let set = random_set(&mut rng, count);
            let cand: Vec<u16> = cells.iter().map(|&c| b.cand(c)).collect();
            let expected = brute_fits(&cand, set);
            assert_eq!(fits(&b, &cells, set), expected, "{cand:?} {set:#b}");
            if expected {
                yes += 1;
            } else {
                no += 1;
            }
        }
        assert!(yes > 500 && no > 500, "{yes} fit, {no} do not");
    }

    /// Each cell's digits in some order of `set`'s digits, one to a cell among `cand`:
    /// every order tried.
    fn brute_taken(cand: &[u16], set: u16, chosen: &mut Vec<u8>, taken: &mut [u16]) {
        let Some(&here) = cand.get(chosen.len()) else {
            for (t, &d) in taken.iter_mut().zip(chosen.iter()) {
                *t |= 1 << (d - 1);
            }
            return;
        };
        let used = chosen.iter().fold(0u16, |m, &d| m | 1 << (d - 1));
        for d in digits(here & set & !used) {
            chosen.push(d);
            brute_taken(cand, set, chosen, taken);
            chosen.pop();
        }
    }

    /// The 45 rule's per-cell digits for distinct cells match trying every order, on
    /// random candidates and sets (one set and two at a time).
    #[test]
    fn taken_in_matches_trying_every_order() {
        let mut rng = Rand::new(13);
        let (mut narrowed, mut cases) = (0, 0);
        for _ in 0..4000 {
            let (b, cells) = random_cells(&mut rng);
            let count = cells.len();
            let sets = [random_set(&mut rng, count), random_set(&mut rng, count)];
            let cand: Vec<u16> = cells.iter().map(|&c| b.cand(c)).collect();
            for many in [1, 2] {
                let mut expected = vec![0u16; count];
                for &set in &sets[..many] {
                    brute_taken(&cand, set, &mut Vec::new(), &mut expected);
                }
                let found = taken_in(&b, &cells, sets[..many].iter().copied());
                assert_eq!(found, expected, "{cand:?} {:?}", &sets[..many]);
                cases += 1;
                // Cells that keep less than a union over the fitting sets would.
                let union = sets[..many]
                    .iter()
                    .filter(|&&s| brute_fits(&cand, s))
                    .fold(0, |m, &s| m | s);
                narrowed += usize::from(cand.iter().zip(&expected).any(|(&c, &t)| c & union != t));
            }
        }
        assert!(
            narrowed > 500,
            "only {narrowed} of {cases} cases kept less than the union"
        );
    }

    #[test]
    fn assignments_match_trying_every_one() {
        let mut rng = Rand::new(5);
        for _ in 0..5000 {
            let count = 1 + rng.below(MOST_CELLS as u32) as usize;
            let cand: Vec<u16> = (0..count).map(|_| 1 + rng.below(511) as u16).collect();
            let mut sign = [1i64; MOST_CELLS];
            let mut differs = [0u8; MOST_CELLS];
            for i in 0..count {
                sign[i] = if rng.below(3) == 0 { -1 } else { 1 };
                differs[i] = (rng.below(16) as u8) & ((1 << i) - 1);
            }
            let target = rng.below(30) as i64 - 8;
            let mut expected = vec![0u16; count];
            for code in 0..9usize.pow(count as u32) {
                let ds: Vec<u8> = (0..count)
                    .map(|i| (code / 9usize.pow(i as u32) % 9) as u8 + 1)
                    .collect();
                let ok = (0..count).all(|i| {
                    cand[i] >> (ds[i] - 1) & 1 == 1
                        && (0..i).all(|j| differs[i] >> j & 1 == 0 || ds[i] != ds[j])
                }) && (0..count).map(|i| sign[i] * i64::from(ds[i])).sum::<i64>()
                    == target;
                if ok {
                    for i in 0..count {
                        expected[i] |= 1 << (ds[i] - 1);
                    }
                }
            }
            let allowed = Assignments::of(&cand, &sign, &differs).allowed(target);
            // Once every candidate takes part the search stops early: the same either way
            // for what the 45 rule removes (the candidates outside `allowed`).
            let removed: Vec<u16> = allowed.iter().zip(&cand).map(|(&a, &c)| c & !a).collect();
            let truly: Vec<u16> = expected.iter().zip(&cand).map(|(&a, &c)| c & !a).collect();
            assert_eq!(removed, truly, "{cand:?} {sign:?} {differs:?} = {target}");
        }
    }

    #[test]
    fn disjoint_combinations_match_trying_every_choice() {
        let mut rng = Rand::new(3);
        let mut narrowed = 0;
        for _ in 0..3000 {
            let count = 2 + rng.below(3) as usize;
            let parts: Vec<Part> = (0..count)
                .map(|_| Part {
                    open: Vec::new(),
                    combos: (0..1 + rng.below(4))
                        .map(|_| {
                            let mut set = 0u16;
                            while set.count_ones() < 1 + rng.below(3) {
                                set |= 1 << rng.below(9);
                            }
                            set
                        })
                        .collect(),
                    cage: None,
                })
                .collect();
            let mut kept = vec![0u16; count];
            let mut chosen = vec![0u16; count];
            let any = keep_disjoint(&parts, 0, 0, &mut chosen, &mut kept);
            let expected = brute_kept(&parts);
            assert_eq!(kept, expected);
            assert_eq!(any, expected.iter().any(|&k| k != 0));
            let all: Vec<u16> = parts
                .iter()
                .map(|p| p.combos.iter().fold(0, |m, &s| m | s))
                .collect();
            narrowed += usize::from(any && kept != all);
        }
        assert!(narrowed > 100, "only {narrowed} cases narrowed anything");
    }
}
