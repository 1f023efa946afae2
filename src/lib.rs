//! sudoku-bank: generate, rate, deduplicate and store Sudoku puzzles with one solution.
//!
//! The layers, what each module owns and what it may use are the module map that opens
//! `docs/design-notes.md` (a test holds the map to the tree and its imports).

pub mod bank;
pub mod canon;
pub mod cli;
pub mod config;
pub mod date;
pub mod formats;
pub mod fuzz;
pub mod generate;
pub mod grid;
pub mod picture;
pub mod pipeline;
pub mod rate;
pub mod rng;
pub mod solver;
