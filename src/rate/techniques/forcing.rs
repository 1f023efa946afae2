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

use super::implications::{potential, split, Implications, Potential, PotentialSet, Rules};
use crate::rate::board::{digits, Board};
use crate::rate::step::{length_bonus, Step, Technique};

/// Score of a forcing chain with links on more than one digit (on one digit it scores
/// the technique's base, 6.6).
const MIXED_CHAIN: f64 = 7.0;

/// Every open cell's candidates, in cell order.
fn candidates(b: &Board) -> impl Iterator<Item = (usize, u8)> + '_ {
    (0..b.cells())
        .filter(|&c| b.is_open(c))
        .flat_map(move |c| digits(b.cand(c)).map(move |d| (c, d)))
}

/// Keeps `step` when it scores lower than the best so far.
fn keep_lowest(best: &mut Option<Step>, step: Step) {
    if best.as_ref().is_none_or(|s| step.score < s.score - 1e-9) {
        *best = Some(step);
    }
}

/// The step concluding `target`: a placement when it is on, an elimination when off.
fn concluding(technique: Technique, score: f64, cells: Vec<usize>, n: usize, target: Potential) -> Step {
    let (cell, digit, on) = split(n, target);
    let mut step = Step::new(technique, cells);
    step.score = score;
    if on {
        step.placements.push((cell, digit));
    } else {
        step.eliminations.push((cell, digit));
    }
    step
}

/// The shortest forcing chain (alternating inference chain) on static links: a candidate
/// whose being on implies it off (eliminated), or whose being off implies it on (placed).
pub fn forcing_chain(b: &Board) -> Option<Step> {
    let n = b.n();
    let mut imp = Implications::new(
        b,
        Rules {
            dynamic: false,
            digit: None,
        },
    );
    let closures = imp.closures();
    let mut best = None;
    for (cell, digit) in candidates(b) {
        let on = potential(n, cell, digit, true);
        for start in [on, on ^ 1] {
            if !closures.of(start).contains(start ^ 1) {
                continue;
            }
            imp.run(start, false);
            let opposite = start ^ 1;
            let (nodes, one_digit) = imp.ancestors(opposite);
            let base = if one_digit {
                Technique::ForcingChain.base_score()
            } else {
                MIXED_CHAIN
            };
            let score = base + length_bonus(nodes);
            if best.as_ref().is_none_or(|s: &Step| score < s.score - 1e-9) {
                let cells = imp.chain_cells(opposite);
                keep_lowest(
                    &mut best,
                    concluding(Technique::ForcingChain, score, cells, n, opposite),
                );
            }
        }
    }
    best
}

/// Nishio: a digit assumed in a cell contradicts itself along that digit's links.
pub fn nishio(b: &Board) -> Option<Step> {
    let n = b.n();
    let mut best = None;
    for digit in 1..=n as u8 {
        let mut imp = Implications::new(
            b,
            Rules {
                dynamic: true,
                digit: Some(digit),
            },
        );
        let bit = 1u16 << (digit - 1);
        for cell in (0..b.cells()).filter(|&c| b.is_open(c) && b.cand(c) & bit != 0) {
            let start = potential(n, cell, digit, true);
            imp.run(start, true);
            let Some(x) = imp.conflict() else { continue };
            let nodes = imp.ancestors(x).0 + imp.ancestors(x ^ 1).0;
            let score = Technique::Nishio.base_score() + length_bonus(nodes);
            let mut cells = imp.chain_cells(x);
            cells.extend(imp.chain_cells(x ^ 1));
            keep_lowest(
                &mut best,
                concluding(Technique::Nishio, score, cells, n, start ^ 1),
            );
        }
    }
    best
}

/// Multiple forcing chains on static links.
pub fn multiple_forcing_chains(b: &Board) -> Option<Step> {
    multiple(b, false, Technique::MultipleForcingChains)
}

/// Multiple forcing chains on dynamic links.
pub fn dynamic_forcing_chains(b: &Board) -> Option<Step> {
    multiple(b, true, Technique::DynamicForcingChains)
}

/// Something that holds because every one of `sources` implies it (or, for a
/// contradiction, because the one source implies a potential both on and off).
struct Conclusion {
    target: Potential,
    sources: Vec<Potential>,
    contradiction: bool,
}

/// Cell, region, double and contradiction forcing chains under static or dynamic links.
fn multiple(b: &Board, dynamic: bool, technique: Technique) -> Option<Step> {
    let n = b.n();
    let mut imp = Implications::new(
        b,
        Rules {
            dynamic,
            digit: None,
        },
    );
    // A bivalue cell or a digit with two places gives nothing a forcing chain did not
    // find already, unless the links are dynamic.
    let fewest = if dynamic { 2 } else { 3 };
    let mut conclusions = Vec::new();
    // What each candidate implies when on and when off (`None` after a contradiction).
    let (on_sets, off_sets) = if dynamic {
        dynamic_sets(b, &mut imp)
    } else {
        static_sets(b, &mut imp)
    };
    for (cell, digit) in candidates(b) {
        let on = potential(n, cell, digit, true);
        let k = on as usize / 2;
        match (&on_sets[k], &off_sets[k]) {
            (None, _) => conclusions.push(Conclusion {
                target: on ^ 1,
                sources: vec![on],
                contradiction: true,
            }),
            (_, None) => conclusions.push(Conclusion {
                target: on,
                sources: vec![on ^ 1],
                contradiction: true,
            }),
            (Some(on_set), Some(off_set)) => {
                let mut both = off_set.clone();
                both.retain_common(on_set);
                push_common(&mut conclusions, &both, vec![on, on ^ 1]);
            }
        }
    }
    for cell in (0..b.cells()).filter(|&c| b.is_open(c)) {
        if b.cand(cell).count_ones() >= fewest {
            let sources = digits(b.cand(cell)).map(|d| potential(n, cell, d, true));
            common_to(&mut conclusions, &on_sets, sources.collect());
        }
    }
    for u in 0..b.unit_count() {
        for digit in 1..=n as u8 {
            let places = b.positions(u, digit);
            if places.count_ones() >= fewest {
                let sources = digits(places)
                    .map(|i| potential(n, b.unit(u)[i as usize - 1] as usize, digit, true));
                common_to(&mut conclusions, &on_sets, sources.collect());
            }
        }
    }
    lowest(&mut imp, &conclusions, technique)
}

/// What each candidate implies when on and when off under dynamic links, `None` when it
/// leads to a contradiction; indexed by candidate.
type Sets = Vec<Option<PotentialSet>>;

/// Both sets of every candidate, one run each.
fn dynamic_sets(b: &Board, imp: &mut Implications) -> (Sets, Sets) {
    let n = b.n();
    let mut sets = [vec![None; b.cells() * n], vec![None; b.cells() * n]];
    for (cell, digit) in candidates(b) {
        for on in [true, false] {
            imp.run(potential(n, cell, digit, on), true);
            if imp.conflict().is_none() {
                sets[usize::from(on)][cell * n + digit as usize - 1] = Some(imp.reached_set());
            }
        }
    }
    let [off, on] = sets;
    (on, off)
}

/// Both sets of every candidate under static links, from the closures of the link graph.
fn static_sets(b: &Board, imp: &mut Implications) -> (Sets, Sets) {
    let n = b.n();
    let closures = imp.closures();
    let mut sets = [vec![None; b.cells() * n], vec![None; b.cells() * n]];
    for (cell, digit) in candidates(b) {
        for on in [true, false] {
            let set = closures.of(potential(n, cell, digit, on));
            if !set.contradicts() {
                sets[usize::from(on)][cell * n + digit as usize - 1] = Some(set.clone());
            }
        }
    }
    let [off, on] = sets;
    (on, off)
}

/// Adds what every source implies (all must be free of contradictions).
fn common_to(
    conclusions: &mut Vec<Conclusion>,
    on_sets: &[Option<PotentialSet>],
    sources: Vec<Potential>,
) {
    let mut sets = sources.iter().map(|&s| on_sets[s as usize / 2].as_ref());
    let Some(Some(first)) = sets.next() else {
        return;
    };
    let mut common = first.clone();
    for set in sets {
        let Some(set) = set else { return };
        common.retain_common(set);
    }
    push_common(conclusions, &common, sources);
}

/// One conclusion per potential in `common`, resting on `sources`.
fn push_common(conclusions: &mut Vec<Conclusion>, common: &PotentialSet, sources: Vec<Potential>) {
    for target in common.iter() {
        conclusions.push(Conclusion {
            target,
            sources: sources.clone(),
            contradiction: false,
        });
    }
}

/// The potentials a conclusion's chains end on, in the source's last run.
fn ends(imp: &Implications, c: &Conclusion) -> Vec<Potential> {
    if c.contradiction {
        let x = imp.conflict().expect("a contradiction comes back on a rerun");
        vec![x, x ^ 1]
    } else {
        vec![c.target]
    }
}

/// The conclusion whose chains have the fewest nodes, as a step. Each source is followed
/// again once, to measure the chains of every conclusion resting on it.
fn lowest(
    imp: &mut Implications,
    conclusions: &[Conclusion],
    technique: Technique,
) -> Option<Step> {
    let mut by_source: Vec<(Potential, usize)> = conclusions
        .iter()
        .enumerate()
        .flat_map(|(i, c)| c.sources.iter().map(move |&s| (s, i)))
        .collect();
    by_source.sort_unstable();
    let mut nodes = vec![0usize; conclusions.len()];
    let mut last = None;
    for &(source, i) in &by_source {
        if last != Some(source) {
            imp.run(source, true);
            last = Some(source);
        }
        for end in ends(imp, &conclusions[i]) {
            nodes[i] += imp.ancestors(end).0;
        }
    }
    // The first of the fewest nodes, so the choice does not depend on sorting.
    let (i, &fewest) = nodes
        .iter()
        .enumerate()
        .min_by_key(|&(i, &k)| (k, i))?;
    let chosen = &conclusions[i];
    let mut cells = Vec::new();
    for &source in &chosen.sources {
        imp.run(source, true);
        for end in ends(imp, chosen) {
            cells.extend(imp.chain_cells(end));
        }
    }
    cells.dedup();
    let score = technique.base_score() + length_bonus(fewest);
    Some(concluding(technique, score, cells, imp.n(), chosen.target))
}
