//! Killer techniques, on the killer scale (see the README): what a cage's sum allows
//! (cage combination), the 45 rule (innies and outies of rows, columns, boxes and unions
//! of neighbouring ones), a digit a cage must hold locked in a unit, and the cages of a
//! unit clashing (their combinations must be disjoint). Each finder returns `None` on
//! boards without cages.

use crate::grid::{cell_names, Cages, Unit};
use crate::rate::board::{digits, Board};
use std::cell::RefCell;
use std::rc::Rc;

mod clash;
mod combination;
mod locked;
mod matching;
mod rule45;
mod state;

pub use clash::cage_clash;
pub use combination::{cage_combination, every_cage_combination};
pub use locked::cage_locked;
pub use rule45::{every_innies_outies, innies_outies};
use rule45::{rule45, Rule45};
use state::CageState;

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

/// `row 3`, `column 4`, `box 5`.
fn unit_name(b: &Board, u: usize) -> String {
    Unit::of(b.geometry(), u).to_string()
}
