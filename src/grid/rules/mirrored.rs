//! The line permutations of [`super::Symmetries::Mirrored`]: those that keep both main
//! diagonals.

use crate::grid::{Geometry, SUPPORTED_SIZES};
use std::sync::OnceLock;

impl Geometry {
    /// The line permutations `π` that keep both diagonals when applied to rows and columns
    /// alike: `π` keeps bands and stacks (so boxes stay boxes) and commutes with the
    /// reflection `i ↦ N−1−i` (so the anti-diagonal stays too). Found once per geometry by a
    /// search that fixes `π(i)` and `π(N−1−i)` together: 4 on 4×4 and 6×6, 24 on 9×9 and
    /// 12×12, 4,608 on 16×16.
    pub fn mirrored_permutations(self) -> &'static [Vec<u8>] {
        // They depend on the box shape alone: one list per size.
        static PERMUTATIONS: [OnceLock<Vec<Vec<u8>>>; SUPPORTED_SIZES.len()] =
            [const { OnceLock::new() }; SUPPORTED_SIZES.len()];
        let size = SUPPORTED_SIZES
            .iter()
            .position(|&n| n == self.n())
            .expect("supported geometry");
        PERMUTATIONS[size].get_or_init(|| {
            let mut out = Vec::new();
            extend_mirrored_permutation(self, 0, &mut vec![u8::MAX; self.n()], &mut out);
            out
        })
    }
}

/// Extends `pi`, fixed on lines `0..i` and their mirrors, in every way that keeps bands,
/// stacks and the mirror; pushes each complete one.
fn extend_mirrored_permutation(g: Geometry, i: usize, pi: &mut [u8], out: &mut Vec<Vec<u8>>) {
    let n = g.n();
    if 2 * i >= n {
        out.push(pi.to_vec());
        return;
    }
    let mirror = n - 1 - i;
    let keeps = |pi: &[u8], a: usize| {
        (0..n).filter(|&b| pi[b] != u8::MAX).all(|b| {
            let (x, y) = (pi[a] as usize, pi[b] as usize);
            (a / g.box_rows() == b / g.box_rows()) == (x / g.box_rows() == y / g.box_rows())
                && (a / g.box_cols() == b / g.box_cols()) == (x / g.box_cols() == y / g.box_cols())
        })
    };
    for v in 0..n {
        let w = n - 1 - v;
        if pi.contains(&(v as u8)) || (i == mirror) != (v == w) {
            continue;
        }
        pi[i] = v as u8;
        pi[mirror] = w as u8;
        if keeps(pi, i) && keeps(pi, mirror) {
            extend_mirrored_permutation(g, i + 1, pi, out);
        }
        pi[i] = u8::MAX;
        pi[mirror] = u8::MAX;
    }
}
