//! sudoku-bank: generate, rate, deduplicate and store Sudoku puzzles with one solution.
//!
//! Layers, each depending only on those above it in this list:
//! [`grid`], [`solver`], [`generate`], [`canon`], then storage and the pipeline.

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
