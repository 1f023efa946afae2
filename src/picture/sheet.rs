//! Print sheets: where each grid, digit, caption and page number goes on the paper.
//!
//! Puzzles come first, `per_page` to a page in reading order; solutions (when asked
//! for) follow on their own pages, smaller and several to a page, in the same order.

use super::cage_outline::{self, CageOutline};
use super::canvas::{Anchor, Canvas, Pen};
use crate::grid::{digit_char, Cages, Cell, Geometry, Grid};
use std::ops::Range;

/// Paper sizes, in points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Paper {
    /// ISO A4, 210 × 297 mm.
    A4,
    /// US Letter, 8.5 × 11 in.
    Letter,
}

impl Paper {
    /// Width and height in points.
    pub fn size(self) -> (f32, f32) {
        match self {
            Paper::A4 => (595.28, 841.89),
            Paper::Letter => (612.0, 792.0),
        }
    }
}

/// How many puzzles a page holds: 1, 2, 4 or 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerPage(u8);

impl PerPage {
    /// The allowed counts.
    pub const ALLOWED: [u8; 4] = [1, 2, 4, 6];

    /// The count if it is one of [`PerPage::ALLOWED`].
    pub fn new(count: u8) -> Option<PerPage> {
        PerPage::ALLOWED.contains(&count).then_some(PerPage(count))
    }

    /// Columns and rows of grids on a page.
    fn arrangement(self) -> (usize, usize) {
        match self.0 {
            1 => (1, 1),
            2 => (1, 2),
            4 => (2, 2),
            _ => (2, 3),
        }
    }

    fn count(self) -> usize {
        usize::from(self.0)
    }
}

/// One puzzle to print.
pub struct Entry {
    /// What names it on the sheet and in the solutions: `12` for bank puzzle 12.
    pub label: String,
    /// The rest of its caption: variant and size, givens, tier, score.
    pub details: String,
    /// The givens.
    pub puzzle: Grid,
    /// The solution (printed only with solutions).
    pub solution: Grid,
}

/// The choices that shape a book.
#[derive(Clone, Copy, Debug)]
pub struct Book {
    /// Paper size.
    pub paper: Paper,
    /// Puzzles a page.
    pub per_page: PerPage,
    /// Whether solution pages follow the puzzles.
    pub solutions: bool,
}

/// Page margin, points.
const MARGIN: f32 = 40.0;
/// The narrowest a puzzle's cell is printed, points (6 mm: room to write a digit in). A
/// page holds fewer puzzles than asked when theirs would be narrower: at 4 to an A4
/// page a 16x16 cell is 14.5 points, at 2 it is 19.5.
const MIN_CELL: f32 = 17.0;
/// Height kept for the page number at the bottom.
const FOOTER: f32 = 24.0;
/// Pens of the grid's outline (the widest: tests find grids by it), its box lines, and
/// the lines between cells.
const OUTLINE: Pen = Pen::solid(2.0);
const BOX_LINE: Pen = Pen::solid(1.4);
const CELL_LINE: Pen = Pen {
    width: 0.5,
    grey: 0.35,
    dash: 0.0,
};
/// The grey of the cells of an extra unit (the diagonals): light enough for the givens.
const EXTRA_UNIT_SHADE: f32 = 0.86;
/// The size of a sheet's rules lines, points.
const RULES_SIZE: f32 = 7.5;
/// Killer cages: dashed, a shade lighter than the givens, the dash scaled to the cell.
fn cage_pen(cell: f32) -> Pen {
    Pen {
        width: (cell / 40.0).clamp(0.4, 0.8),
        grey: 0.2,
        dash: (cell / 12.0).clamp(1.0, 3.0),
    }
}

/// A grid's slot on a page: where it goes and how big.
struct Slot {
    x: f32,
    y: f32,
    width: f32,
    height: f32,
}

impl Book {
    /// Pages the book will have for `entries`.
    pub fn page_count(&self, entries: &[Entry]) -> usize {
        let puzzles = self.puzzle_pages(entries).len();
        let solutions = if self.solutions {
            entries.len().div_ceil(solutions_per_page(self.per_page))
        } else {
            0
        };
        puzzles + solutions
    }

    /// The puzzle pages, in reading order: how many each holds and which entries. A page
    /// holds `per_page` unless a puzzle on it would be printed with cells narrower than
    /// [`MIN_CELL`]: then the most of the allowed counts at which each fits (one at least).
    fn puzzle_pages(&self, entries: &[Entry]) -> Vec<(PerPage, Range<usize>)> {
        let mut pages = Vec::new();
        let mut start = 0;
        while start < entries.len() {
            let mut per = self.per_page;
            let mut end = start;
            while end < entries.len() && end - start < per.count() {
                let fitting = self.fitting(entries[end].puzzle.geometry().n(), per);
                if fitting.count() <= end - start {
                    break; // it fits only on a page with fewer puzzles than this one holds
                }
                per = fitting;
                end += 1;
            }
            pages.push((per, start..end));
            start = end;
        }
        pages
    }

    /// The most puzzles, at most `per`, a page may hold with an `n`-sided grid's cells at
    /// least [`MIN_CELL`] wide (one, however narrow).
    fn fitting(&self, n: usize, per: PerPage) -> PerPage {
        let fits = |p: PerPage| {
            let (cols, rows) = p.arrangement();
            let slot = &self.slots(cols, rows, 0.0)[0];
            GridBox::of(slot, 1.0).side / n as f32 >= MIN_CELL
        };
        PerPage::ALLOWED
            .iter()
            .rev()
            .filter_map(|&k| PerPage::new(k))
            .filter(|p| p.count() <= per.count())
            .find(|&p| fits(p))
            .unwrap_or(PerPage(1))
    }

    /// Draws the whole book.
    pub fn draw(&self, canvas: &mut dyn Canvas, entries: &[Entry]) {
        let pages = self.page_count(entries);
        let mut page = 0;
        for (per, range) in self.puzzle_pages(entries) {
            let chunk = &entries[range];
            page += 1;
            self.begin(canvas, page, pages, None);
            let (cols, rows) = per.arrangement();
            for (entry, slot) in chunk.iter().zip(self.slots(cols, rows, 0.0)) {
                let caption = format!("Puzzle {} - {}", entry.label, entry.details);
                draw_grid(canvas, &slot, &caption, &entry.puzzle, 1.0);
            }
            self.rules(canvas, chunk);
        }
        if !self.solutions {
            return;
        }
        let per = solutions_per_page(self.per_page);
        let (cols, rows) = solution_arrangement(per);
        for chunk in entries.chunks(per) {
            page += 1;
            self.begin(canvas, page, pages, Some("Solutions"));
            for (entry, slot) in chunk.iter().zip(self.slots(cols, rows, 28.0)) {
                let caption = format!("Solution {}", entry.label);
                draw_grid(canvas, &slot, &caption, &entry.solution, 0.8);
            }
        }
    }

    fn begin(&self, canvas: &mut dyn Canvas, page: usize, pages: usize, heading: Option<&str>) {
        let (width, height) = self.paper.size();
        canvas.begin_page(width, height);
        if let Some(heading) = heading {
            canvas.text((MARGIN, MARGIN + 14.0), 16.0, heading, Anchor::Start);
        }
        canvas.text(
            (width / 2.0, height - MARGIN + 8.0),
            9.0,
            &format!("page {page} of {pages}"),
            Anchor::Middle,
        );
    }

    /// The rules of the page's puzzles, a line for each kind (variant and size) among
    /// them, in the footer above the page number.
    fn rules(&self, canvas: &mut dyn Canvas, entries: &[Entry]) {
        let (_, height) = self.paper.size();
        let mut kinds: Vec<Geometry> = Vec::new();
        for e in entries {
            if !kinds.contains(&e.puzzle.geometry()) {
                kinds.push(e.puzzle.geometry());
            }
        }
        for (i, g) in kinds.iter().enumerate() {
            let y = height - MARGIN - FOOTER + (i as f32 + 1.0) * (RULES_SIZE + 1.5);
            canvas.text((MARGIN, y), RULES_SIZE, &g.rules_line(), Anchor::Start);
        }
    }

    /// The slots of a `cols` × `rows` page, in reading order, below `top` extra points.
    fn slots(&self, cols: usize, rows: usize, top: f32) -> Vec<Slot> {
        let (width, height) = self.paper.size();
        let slot_w = (width - 2.0 * MARGIN) / cols as f32;
        let slot_h = (height - 2.0 * MARGIN - FOOTER - top) / rows as f32;
        (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .map(|(r, c)| Slot {
                x: MARGIN + c as f32 * slot_w,
                y: MARGIN + top + r as f32 * slot_h,
                width: slot_w,
                height: slot_h,
            })
            .collect()
    }
}

/// Solutions a page: twice the puzzles' count, at least six and at most twelve.
fn solutions_per_page(per_page: PerPage) -> usize {
    (per_page.count() * 2).clamp(6, 12)
}

fn solution_arrangement(per: usize) -> (usize, usize) {
    match per {
        6 => (2, 3),
        8 => (2, 4),
        _ => (3, 4),
    }
}

/// How a slot is shared between a grid's caption and the grid.
struct GridBox {
    /// The caption's font size.
    caption_size: f32,
    /// The height kept for the caption.
    caption_h: f32,
    /// The grid's side.
    side: f32,
}

impl GridBox {
    /// The caption and grid of `slot`; `scale` shrinks solution grids.
    fn of(slot: &Slot, scale: f32) -> GridBox {
        let caption_size = (9.0 + slot.width / 60.0).min(12.0) * scale.max(0.85);
        let caption_h = caption_size * 1.8;
        let side = (slot.width.min(slot.height - caption_h) * 0.9 * scale.max(0.9)).max(10.0);
        GridBox {
            caption_size,
            caption_h,
            side,
        }
    }
}

/// One grid, centred in its slot under its caption: thick outline and box (region)
/// lines, thin cell lines (the diagonals' cells shaded for the diagonal variant, the
/// cages with their sums for killer), digits centred in their cells. `scale` shrinks
/// solution grids.
fn draw_grid(canvas: &mut dyn Canvas, slot: &Slot, caption: &str, grid: &Grid, scale: f32) {
    let geometry = grid.geometry();
    let n = geometry.n();
    let GridBox {
        caption_size,
        caption_h,
        side,
    } = GridBox::of(slot, scale);
    let x0 = slot.x + (slot.width - side) / 2.0;
    let y0 = slot.y + caption_h + (slot.height - caption_h - side) / 2.0;
    canvas.text(
        (x0, y0 - caption_size * 0.6),
        caption_size,
        caption,
        Anchor::Start,
    );
    let cell = side / n as f32;
    // Extra units shaded as printed X-sudoku and windoku mark them (a line through the
    // cells would strike the givens).
    for c in geometry.shaded_cells() {
        let Cell { row, col } = Cell::at(c, n);
        let (x, y) = (x0 + col as f32 * cell, y0 + row as f32 * cell);
        canvas.shade(x, y, cell, cell, EXTRA_UNIT_SHADE);
    }
    // Box lines follow the grid's layout: a jigsaw's region borders are drawn thick too.
    let layout = grid.layout();
    let pen = |thick: bool| if thick { BOX_LINE } else { CELL_LINE };
    for k in 1..n {
        let at = k as f32 * cell;
        for (from, to, thick) in layout.border_runs(k, true) {
            let (from, to) = (from as f32 * cell, to as f32 * cell);
            canvas.line((x0 + from, y0 + at), (x0 + to, y0 + at), pen(thick));
        }
        for (from, to, thick) in layout.border_runs(k, false) {
            let (from, to) = (from as f32 * cell, to as f32 * cell);
            canvas.line((x0 + at, y0 + from), (x0 + at, y0 + to), pen(thick));
        }
    }
    canvas.rect(x0, y0, side, side, OUTLINE);
    if let Some(cages) = grid.cages() {
        draw_cages(canvas, (x0, y0), cell, cages);
    }
    let size = cell * 0.6;
    for (i, &value) in grid.cells().iter().enumerate() {
        if value == 0 {
            continue;
        }
        let Cell { row, col } = Cell::at(i, n);
        let centre = (
            x0 + (col as f32 + 0.5) * cell,
            y0 + (row as f32 + 0.5) * cell,
        );
        canvas.text(
            (centre.0, centre.1 + size * 0.36),
            size,
            &digit_char(value).to_string(),
            Anchor::Middle,
        );
    }
}

/// The cages of a killer grid whose top-left corner is at `origin`: dashed outlines just
/// inside the cell lines, each sum small in its cage's first cell, clear of the dashes.
fn draw_cages(canvas: &mut dyn Canvas, origin: (f32, f32), cell: f32, cages: &Cages) {
    let n = cages.n();
    let outline = CageOutline::new(cages);
    let at = |(x, y): (f32, f32)| (origin.0 + x * cell, origin.1 + y * cell);
    let pen = cage_pen(cell);
    for s in &outline.segments {
        canvas.line(at(s.from), at(s.to), pen);
    }
    for label in &outline.sums {
        let Cell { row, col } = Cell::at(label.cell, n);
        let (x, y) = cage_outline::LABEL_AT;
        canvas.text(
            at((col as f32 + x, row as f32 + y)),
            cell * cage_outline::SUM_SIZE,
            &label.sum.to_string(),
            Anchor::Start,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_hold_puzzles_then_solutions() {
        let book = Book {
            paper: Paper::A4,
            per_page: PerPage::new(4).unwrap(),
            solutions: true,
        };
        let entries = |sizes: &[usize]| -> Vec<Entry> {
            sizes
                .iter()
                .map(|&n| {
                    let g = Geometry::for_size(n).unwrap();
                    Entry {
                        label: n.to_string(),
                        details: String::new(),
                        puzzle: Grid::empty(g),
                        solution: Grid::empty(g),
                    }
                })
                .collect()
        };
        // 10 puzzles: 3 pages of puzzles, 8 solutions a page: 2 pages.
        assert_eq!(book.page_count(&entries(&[9; 10])), 5);
        let without = Book {
            solutions: false,
            ..book
        };
        assert_eq!(without.page_count(&entries(&[9; 10])), 3);
        assert!(PerPage::new(3).is_none());
        assert_eq!(PerPage::new(6).unwrap().arrangement(), (2, 3));
    }

    /// A 16x16 grid goes two to an A4 page where 9x9 and 12x12 go four (its cells would be
    /// 14.5 points wide), in reading order; at 6 a page, 12x12 goes four.
    #[test]
    fn large_grids_get_pages_with_room_for_their_cells() {
        let book = |per: u8| Book {
            paper: Paper::A4,
            per_page: PerPage::new(per).unwrap(),
            solutions: false,
        };
        let sizes = |pages: Vec<(PerPage, Range<usize>)>, all: &[usize]| -> Vec<(u8, Vec<usize>)> {
            pages
                .into_iter()
                .map(|(per, r)| (per.0, all[r].to_vec()))
                .collect()
        };
        let all = [9, 9, 9, 16, 9, 9, 12, 12, 12, 12, 16, 16, 16];
        let entries: Vec<Entry> = all
            .iter()
            .map(|&n| Entry {
                label: String::new(),
                details: String::new(),
                puzzle: Grid::empty(Geometry::for_size(n).unwrap()),
                solution: Grid::empty(Geometry::for_size(n).unwrap()),
            })
            .collect();
        assert_eq!(
            sizes(book(4).puzzle_pages(&entries), &all),
            [
                (4, vec![9, 9, 9]),
                (2, vec![16, 9]),
                (4, vec![9, 12, 12, 12]),
                (2, vec![12, 16]),
                (2, vec![16, 16]),
            ]
        );
        assert_eq!(book(4).page_count(&entries), 5);
        let six = sizes(book(6).puzzle_pages(&entries[6..10]), &all[6..10]);
        assert_eq!(six, [(4, vec![12, 12, 12, 12])]);
        assert_eq!(book(1).page_count(&entries), 13);
        for (per, range) in book(6).puzzle_pages(&entries) {
            let (cols, rows) = per.arrangement();
            let slot = &book(6).slots(cols, rows, 0.0)[0];
            for e in &entries[range] {
                let n = e.puzzle.geometry().n() as f32;
                assert!(GridBox::of(slot, 1.0).side / n >= MIN_CELL);
            }
        }
    }
}
