use sudoku_bank::grid::parse_line;
use sudoku_bank::solver::count_solutions;
use std::time::Instant;
fn main() {
    for f in ["17_clue.txt","magictour_top1465.txt","forum_hardest_1905_11plus.txt","hardest_1106.txt","serg_multi_solution.txt"] {
        let text = std::fs::read_to_string(format!("../shared/data/solver/{f}")).unwrap();
        let ps: Vec<_> = text.lines().map(|l| parse_line(l).unwrap()).collect();
        let t = Instant::now();
        let mut ones = 0;
        for p in &ps { if count_solutions(p, 2).count == 1 { ones += 1; } }
        let dt = t.elapsed().as_secs_f64();
        println!("{f}: {} puzzles, {} unique, {:.0}/s", ps.len(), ones, ps.len() as f64 / dt);
    }
}
