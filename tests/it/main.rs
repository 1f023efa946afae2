//! The integration tests, one binary (the crate is linked once, not once per file): each
//! module is a subject, and most run the real `bank` binary against a real bank in a temp
//! directory. `cargo test --release -- rater::` runs one subject.

mod common;

mod backends;
mod bank;
mod canon_props;
mod cli_solve;
mod config;
mod faults;
mod fuzz_corpus;
mod generate;
mod house;
mod jigsaw;
mod killer;
mod nightly;
mod pictures;
mod rater;
mod readme;
mod solver_props;
mod solver_reference;
mod stock;
mod tiers;
mod variants;
mod variety;
mod workers;
