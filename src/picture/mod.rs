//! Pictures of puzzles and runs: print sheets (PDF or SVG), the step-through solving page
//! and the run report (self-contained HTML).
//!
//! Drawing is split from layout: [`sheet`] decides where every grid, digit and caption
//! goes on a page, and draws through the [`Canvas`] trait, which [`pdf`] and [`svg`]
//! implement. So both formats show the same page, and a new format is one small file.

pub mod cage_outline;
mod canvas;
pub mod chart;
pub mod html;
mod pdf;
pub mod sheet;
mod svg;

pub use canvas::{Anchor, Canvas, Pen};
pub use pdf::PdfCanvas;
pub use svg::{escape as svg_escape, SvgCanvas};
