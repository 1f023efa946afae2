//! Deductions that rely on the puzzle having one solution: unique rectangles and BUG+1.

use crate::rate::board::{digits, Board};
use crate::rate::step::{Step, Technique};

/// Four open cells on two rows, two columns and exactly two boxes, all holding `pair`.
struct Rectangle {
    corners: [usize; 4],
    pair: u16,
}

fn rectangles(b: &Board) -> Vec<Rectangle> {
    let n = b.n();
    let g = b.geometry();
    let mut out = Vec::new();
    for r1 in 0..n {
        for r2 in r1 + 1..n {
            for c1 in 0..n {
                for c2 in c1 + 1..n {
                    let corners = [r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2];
                    if !corners.iter().all(|&c| b.is_open(c)) {
                        continue;
                    }
                    let mut boxes: Vec<usize> =
                        corners.iter().map(|&c| g.box_of(c / n, c % n)).collect();
                    boxes.sort_unstable();
                    boxes.dedup();
                    if boxes.len() != 2 {
                        continue;
                    }
                    let common = corners.iter().fold(u16::MAX, |m, &c| m & b.cand(c));
                    let common: Vec<u8> = digits(common).collect();
                    for (i, &a) in common.iter().enumerate() {
                        for &d in &common[i + 1..] {
                            out.push(Rectangle {
                                corners,
                                pair: (1 << (a - 1)) | (1 << (d - 1)),
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

fn step(technique: Technique, corners: &[usize; 4], elims: Vec<(usize, u8)>) -> Option<Step> {
    (!elims.is_empty()).then(|| {
        let mut s = Step::new(technique, corners.to_vec());
        s.eliminations = elims;
        s
    })
}

/// The corners holding more than the pair.
fn with_extras(b: &Board, r: &Rectangle) -> Vec<usize> {
    r.corners
        .iter()
        .copied()
        .filter(|&c| b.cand(c) != r.pair)
        .collect()
}

/// The units holding both cells.
fn shared_units(b: &Board, x: usize, y: usize) -> impl Iterator<Item = usize> + '_ {
    (0..b.unit_count()).filter(move |&u| {
        let cells = b.unit(u);
        cells.contains(&(x as u16)) && cells.contains(&(y as u16))
    })
}

/// Type 1: three corners hold just the pair; the pair leaves the fourth.
pub fn unique_rectangle_1(b: &Board) -> Option<Step> {
    rectangles(b).into_iter().find_map(|r| {
        let extra = with_extras(b, &r);
        if extra.len() != 1 {
            return None;
        }
        let elims = digits(r.pair).map(|d| (extra[0], d)).collect();
        step(Technique::UniqueRectangle1, &r.corners, elims)
    })
}

/// The two corners with extra candidates (the roof), when the other two hold just the pair
/// and the roof corners share a row or column.
fn roof(b: &Board, r: &Rectangle) -> Option<(usize, usize)> {
    let n = b.n();
    match with_extras(b, r)[..] {
        [x, y] if x / n == y / n || x % n == y % n => Some((x, y)),
        _ => None,
    }
}

/// Type 2: both roof corners hold the pair plus the same one digit: it leaves cells seeing both.
pub fn unique_rectangle_2(b: &Board) -> Option<Step> {
    rectangles(b).into_iter().find_map(|r| {
        let (x, y) = roof(b, &r)?;
        let extra = b.cand(x) & !r.pair;
        if extra.count_ones() != 1 || b.cand(y) & !r.pair != extra {
            return None;
        }
        let elims = (0..b.cells())
            .filter(|&c| {
                b.is_open(c)
                    && b.cand(c) & extra != 0
                    && c != x
                    && c != y
                    && b.sees(c, x)
                    && b.sees(c, y)
            })
            .map(|c| (c, extra.trailing_zeros() as u8 + 1))
            .collect();
        step(Technique::UniqueRectangle2, &r.corners, elims)
    })
}

/// Type 3: the roof's extra candidates are two digits that another cell of a unit the
/// roof shares holds exactly: roof and cell form a naked pair, and those digits leave the
/// rest of the unit.
pub fn unique_rectangle_3(b: &Board) -> Option<Step> {
    rectangles(b).into_iter().find_map(|r| {
        let (x, y) = roof(b, &r)?;
        let extra = (b.cand(x) | b.cand(y)) & !r.pair;
        if extra.count_ones() != 2 {
            return None;
        }
        for u in shared_units(b, x, y) {
            let cells = b.unit(u);
            let open = || {
                cells
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| b.is_open(c) && c != x && c != y)
            };
            for z in open().filter(|&z| b.cand(z) == extra) {
                let elims: Vec<(usize, u8)> = open()
                    .filter(|&c| c != z)
                    .flat_map(|c| digits(b.cand(c) & extra).map(move |d| (c, d)))
                    .collect();
                if !elims.is_empty() {
                    let mut s = Step::new(Technique::UniqueRectangle3, r.corners.to_vec());
                    s.cells.push(z);
                    s.eliminations = elims;
                    return Some(s);
                }
            }
        }
        None
    })
}

/// Type 4: one pair digit is confined to the roof within a unit they share: the other
/// pair digit leaves the roof.
pub fn unique_rectangle_4(b: &Board) -> Option<Step> {
    rectangles(b).into_iter().find_map(|r| {
        let (x, y) = roof(b, &r)?;
        let pair: Vec<u8> = digits(r.pair).collect();
        for u in shared_units(b, x, y) {
            for (i, &locked) in pair.iter().enumerate() {
                if b.positions(u, locked).count_ones() == 2 {
                    let other = pair[1 - i];
                    let elims = vec![(x, other), (y, other)];
                    return step(Technique::UniqueRectangle4, &r.corners, elims);
                }
            }
        }
        None
    })
}

/// BUG+1: every open cell bivalue but one with three candidates; that cell takes the digit
/// that would otherwise appear three times in its row.
pub fn bug_plus_one(b: &Board) -> Option<Step> {
    let open: Vec<usize> = (0..b.cells()).filter(|&c| b.is_open(c)).collect();
    let mut triple = None;
    for &c in &open {
        match b.cand(c).count_ones() {
            2 => {}
            3 if triple.is_none() => triple = Some(c),
            _ => return None,
        }
    }
    let cell = triple?;
    let n = b.n();
    let row = cell / n;
    let digit = digits(b.cand(cell)).find(|&d| b.positions(row, d).count_ones() == 3)?;
    let mut s = Step::new(Technique::BugPlusOne, vec![cell]);
    s.placements = vec![(cell, digit)];
    Some(s)
}
