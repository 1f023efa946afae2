//! Killer techniques, on the killer scale (see the README): what a cage's sum allows
//! (cage combination), the 45 rule (innies and outies of rows, columns, boxes and unions
//! of neighbouring ones), and a digit a cage must hold locked in a unit. Each finder
//! returns `None` on boards without cages.

use super::Technique;
use crate::grid::{cell_name, Cages, Combinations};
use crate::rate::board::{digits, Board};
use crate::rate::step::Step;

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
        let combos = Combinations::of(b.n())
            .of_size_and_sum(open.len(), rest)
            .iter()
            .copied()
            .filter(|&set| set & !available == 0 && fits(b, &open, set))
            .collect();
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

/// Whether the digits of `set` can go one to each cell of `cells` among their candidates.
fn fits(b: &Board, cells: &[usize], set: u16) -> bool {
    let Some((&first, rest)) = cells.split_first() else {
        return set == 0;
    };
    digits(b.cand(first) & set).any(|d| fits(b, rest, set & !(1 << (d - 1))))
}

/// `{1,2}` or `{1,5}|{2,4}`.
fn combo_list(combos: &[u16]) -> String {
    let one = |set: u16| {
        let ds: Vec<String> = digits(set).map(|d| d.to_string()).collect();
        format!("{{{}}}", ds.join(","))
    };
    combos.iter().map(|&s| one(s)).collect::<Vec<_>>().join("|")
}

/// `cage r1c1+r1c2 = 3`, or with placed cells `cage r1c1+r1c2+r1c3 = 12 (r1c2 open: 5)`.
fn cage_name(cages: &Cages, k: usize, st: &CageState, n: usize) -> String {
    let mut s = format!("cage {} = {}", cages.cell_list(k), cages.sum(k));
    if st.rest != cages.sum(k) {
        let open: Vec<String> = st.open.iter().map(|&c| cell_name(n, c)).collect();
        s.push_str(&format!(" ({} left: {})", open.join("+"), st.rest));
    }
    s
}

/// A cage's open cells keep only the digits of the combinations that make its sum; then
/// a digit every combination holds, with one place left in the cage, goes there.
pub fn cage_combination(b: &Board) -> Option<Step> {
    let cages = b.cages()?;
    let n = b.n();
    let states: Vec<CageState> = (0..cages.count())
        .map(|k| CageState::of(b, cages, k))
        .collect();
    for (k, st) in states.iter().enumerate() {
        let some = st.some();
        let eliminations: Vec<(usize, u8)> = st
            .open
            .iter()
            .flat_map(|&c| digits(b.cand(c) & !some).map(move |d| (c, d)))
            .collect();
        if !eliminations.is_empty() {
            let mut step =
                Step::new(Technique::CageCombination, st.open.clone()).eliminating(eliminations);
            let name = cage_name(cages, k, st, n);
            step.note = Some(format!("{name} → {}", combo_list(&st.combos)));
            return Some(step);
        }
    }
    for (k, st) in states.iter().enumerate() {
        for d in digits(st.every()) {
            let mut places = st.open.iter().filter(|&&c| b.cand(c) & 1 << (d - 1) != 0);
            if let (Some(&c), None) = (places.next(), places.next()) {
                let mut step = Step::new(Technique::CageCombination, st.open.clone());
                step.placements = vec![(c, d)];
                let name = cage_name(cages, k, st, n);
                step.note = Some(format!(
                    "{name} → {} needs {d}, which only {} can hold",
                    combo_list(&st.combos),
                    cell_name(n, c)
                ));
                return Some(step);
            }
        }
    }
    None
}

/// A digit every combination of a cage holds, whose places in the cage all lie in one
/// row, column or box, leaves the rest of that unit.
pub fn cage_locked(b: &Board) -> Option<Step> {
    let cages = b.cages()?;
    let n = b.n();
    for k in 0..cages.count() {
        let st = CageState::of(b, cages, k);
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
                    step.note = Some(format!(
                        "{} → {} must hold {d}, within {}",
                        cage_name(cages, k, &st, n),
                        combo_list(&st.combos),
                        unit_name(b, u)
                    ));
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

/// A region of whole units (each holding every digit once), for the 45 rule.
struct Region {
    name: String,
    units: usize,
    cells: Vec<usize>,
}

/// The regions of the 45 rule, fewest units first: single rows, columns and boxes; then
/// two neighbouring rows, columns or boxes; then three rows or columns (9×9).
fn regions(b: &Board) -> Vec<Region> {
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
            out.push(Region {
                name: format!("row{plural} {span}"),
                units: k,
                cells: lines
                    .clone()
                    .flat_map(|r| (0..n).map(move |c| r * n + c))
                    .collect(),
            });
            out.push(Region {
                name: format!("column{plural} {span}"),
                units: k,
                cells: lines.flat_map(|c| (0..n).map(move |r| r * n + c)).collect(),
            });
        }
        let stacks = n / g.box_cols();
        for bx in 0..n {
            let box_cells = |bx: usize| b.unit(2 * n + bx).iter().map(|&c| c as usize);
            match k {
                1 => out.push(Region {
                    name: format!("box {}", bx + 1),
                    units: 1,
                    cells: box_cells(bx).collect(),
                }),
                2 => {
                    let right = (bx % stacks + 1 < stacks).then_some(bx + 1);
                    let below = (bx + stacks < n).then_some(bx + stacks);
                    for other in [right, below].into_iter().flatten() {
                        out.push(Region {
                            name: format!("boxes {}+{}", bx + 1, other + 1),
                            units: 2,
                            cells: box_cells(bx).chain(box_cells(other)).collect(),
                        });
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// The 45 rule: the cells of a region's cages that stick in (innies) or out (outies) make
/// a known sum; when they are few, their candidates keep only what makes it. Scores
/// [`INNIES_BASE`] for one unit, [`UNION_STEP`] more per further unit; regions are tried
/// fewest units first, so the first step found scores least.
pub fn innies_outies(b: &Board, below: f64) -> Option<Step> {
    let cages = b.cages()?;
    let n = b.n();
    let unit_sum = (n * (n + 1) / 2) as i64;
    let cells = b.cells();
    let mut inside = vec![false; cells];
    for region in regions(b) {
        let score = INNIES_BASE + UNION_STEP * (region.units - 1) as f64;
        if score >= below - 1e-9 {
            break;
        }
        inside.fill(false);
        for &c in &region.cells {
            inside[c] = true;
        }
        let (mut whole, mut partial) = (0i64, 0i64);
        let (mut innies, mut outies) = (Vec::new(), Vec::new());
        let mut seen = vec![false; cages.count()];
        for &c in &region.cells {
            let k = cages.cage_of(c);
            if std::mem::replace(&mut seen[k], true) {
                continue;
            }
            let members = cages.cells(k);
            if members.iter().all(|&m| inside[m as usize]) {
                whole += i64::from(cages.sum(k));
            } else {
                partial += i64::from(cages.sum(k));
                for &m in members {
                    let m = m as usize;
                    if inside[m] { &mut innies } else { &mut outies }.push(m);
                }
            }
        }
        let innie_sum = unit_sum * region.units as i64 - whole;
        let outie_sum = partial - innie_sum;
        // Innies minus outies: the partial cages mostly inside count whole, so their
        // cells outside are subtracted and the other partial cages' cells inside added.
        let (mut plus, mut minus, mut mixed_sum) = (Vec::new(), Vec::new(), innie_sum);
        for k in 0..cages.count() {
            let members = cages.cells(k);
            let ins = members.iter().filter(|&&m| inside[m as usize]).count();
            if ins == 0 || ins == members.len() {
                continue;
            }
            if 2 * ins > members.len() {
                mixed_sum -= i64::from(cages.sum(k));
                minus.extend(members.iter().map(|&m| m as usize).filter(|&m| !inside[m]));
            } else {
                plus.extend(members.iter().map(|&m| m as usize).filter(|&m| inside[m]));
            }
        }
        let sides = [
            ("innies", innies, Vec::new(), innie_sum),
            ("outies", outies, Vec::new(), outie_sum),
            ("innies − outies", plus, minus, mixed_sum),
        ];
        for (side, plus, minus, sum) in sides {
            if side.contains('−') && (plus.is_empty() || minus.is_empty()) {
                continue;
            }
            let Some((mut step, rest)) = restrict(b, &plus, &minus, sum) else {
                continue;
            };
            step.score = score;
            let names = |list: &[usize]| {
                let open: Vec<String> = list
                    .iter()
                    .filter(|&&c| b.is_open(c))
                    .map(|&c| cell_name(n, c))
                    .collect();
                open.join("+")
            };
            let expr = if minus.iter().any(|&c| b.is_open(c)) {
                format!("{} − ({})", names(&plus), names(&minus))
            } else {
                names(&plus)
            };
            step.note = Some(format!("{side} of {}: {expr} = {rest}", region.name));
            return Some(step);
        }
    }
    None
}

/// Keeps, in the open cells of `plus` and `minus`, only the candidates of some assignment
/// with `sum(plus) - sum(minus) = sum` (cells that see each other, or share a cage,
/// differ); a lone open cell is placed. Returns the step and what the open cells make;
/// `None` when nothing changes, or no cell is open, or the cells are too many: any number
/// of cells with distinct digits (the innies of one unit) goes by digit combinations,
/// others up to [`MOST_CELLS`] by trying every assignment.
fn restrict(b: &Board, plus: &[usize], minus: &[usize], sum: i64) -> Option<(Step, i64)> {
    let placed = |list: &[usize]| list.iter().map(|&c| i64::from(b.value(c))).sum::<i64>();
    let target = sum - placed(plus) + placed(minus);
    let open_plus: Vec<usize> = plus.iter().copied().filter(|&c| b.is_open(c)).collect();
    let open_minus: Vec<usize> = minus.iter().copied().filter(|&c| b.is_open(c)).collect();
    let cages = b.cages()?;
    let differ = |a: usize, c: usize| b.sees(a, c) || cages.cage_of(a) == cages.cage_of(c);
    let open: Vec<usize> = open_plus.iter().chain(&open_minus).copied().collect();
    if open.is_empty() {
        return None;
    }
    let distinct = open_minus.is_empty()
        && open
            .iter()
            .enumerate()
            .all(|(i, &a)| open[..i].iter().all(|&c| differ(a, c)));
    let allowed: Vec<u16> = if distinct {
        let held = open.iter().fold(0u16, |m, &c| m | b.cand(c));
        let target = u32::try_from(target).ok()?;
        let some = Combinations::of(b.n())
            .of_size_and_sum(open.len(), target)
            .iter()
            .filter(|&&set| set & !held == 0 && fits(b, &open, set))
            .fold(0u16, |m, &set| m | set);
        open.iter().map(|_| some).collect()
    } else if open.len() <= MOST_CELLS {
        let signs: Vec<i64> = open
            .iter()
            .map(|c| if open_minus.contains(c) { -1 } else { 1 })
            .collect();
        let mut allowed = vec![0u16; open.len()];
        let mut chosen = vec![0u8; open.len()];
        assign(b, &open, &signs, &differ, target, &mut chosen, &mut allowed);
        allowed
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

/// Tries every digit of `open[i..]` (weighed by `signs`) that makes `left` with the
/// choices so far, marking in `allowed` the digits of each full assignment.
fn assign(
    b: &Board,
    open: &[usize],
    signs: &[i64],
    differ: &dyn Fn(usize, usize) -> bool,
    left: i64,
    chosen: &mut [u8],
    allowed: &mut [u16],
) {
    let i = chosen.iter().take_while(|&&d| d != 0).count();
    if i == open.len() {
        if left == 0 {
            for (a, &d) in allowed.iter_mut().zip(chosen.iter()) {
                *a |= 1 << (d - 1);
            }
        }
        return;
    }
    for d in digits(b.cand(open[i])) {
        if (0..i).any(|j| chosen[j] == d && differ(open[i], open[j])) {
            continue;
        }
        chosen[i] = d;
        assign(
            b,
            open,
            signs,
            differ,
            left - signs[i] * i64::from(d),
            chosen,
            allowed,
        );
        chosen[i] = 0;
    }
}
