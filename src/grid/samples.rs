//! Puzzles the unit tests share, so that each is typed once.

/// A hard classic puzzle with one solution, [`HARD_SOLUTION`].
pub const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// The solution of [`HARD`].
pub const HARD_SOLUTION: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

/// Draws below `k` from a small generator of the tests' own, seeded by `seed` (the grid
/// layer uses no streams): what `Regions::random` and the reshaping take.
pub fn draws(seed: u64) -> impl FnMut(u32) -> u32 {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    move |k| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % u64::from(k)) as u32
    }
}
