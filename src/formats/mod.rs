//! Text formats read and written at the edge, below the command line so that the fuzz
//! entry points and the commands share them: puzzle lines ([`lines`]) and the export row
//! that `bank import` reads back ([`exchange`]).

pub mod exchange;
pub mod lines;
