//! The human-style rater against the public SE calibration set.

use rayon::prelude::*;
use std::collections::BTreeSet;
use sudoku_bank::generate::random_digs;
use sudoku_bank::grid::{parse_line, parse_line_with, Geometry, Grid, Variant};
use sudoku_bank::rate::calibrate::spearman;
use sudoku_bank::rate::{rate, rate_on, Path, Rating, Technique};
use sudoku_bank::solver::count_solutions;

fn calibration() -> Vec<(Grid, f64)> {
    let text = std::fs::read_to_string(crate::common::data("rating/se_calibration.txt")).unwrap();
    text.lines()
        .map(|l| {
            let (cells, se) = l.split_once(' ').unwrap();
            (parse_line(cells).unwrap(), se.trim().parse().unwrap())
        })
        .collect()
}

/// Asserts that every step of `rating` of puzzle `p` uses a technique of `variant`'s rule
/// set and places or removes only what the true `solution` allows.
fn assert_steps_true(p: &Grid, solution: &Grid, rating: &Rating, variant: Variant) {
    for s in &rating.steps {
        assert!(
            s.technique.applies_under(variant.rules()),
            "{p}: {:?}",
            s.technique
        );
        for &(c, d) in &s.placements {
            assert_eq!(
                solution.get(c),
                d,
                "{p}: {:?} placed a wrong digit",
                s.technique
            );
        }
        for &(c, d) in &s.eliminations {
            assert_ne!(
                solution.get(c),
                d,
                "{p}: {:?} removed the solution",
                s.technique
            );
        }
    }
}

/// One calibration puzzle's rating beside its SE rating.
struct Rated {
    /// Whether the easiest path scores it otherwise.
    apart: bool,
    ours: f64,
    se: f64,
    completed: bool,
    used: BTreeSet<Technique>,
}

/// Every step on every calibration puzzle agrees with the true solution, every technique
/// is used somewhere, the agreement with SE stays at its measured level (Spearman 0.99 or
/// more, 86.8 % exact,
/// 96.7 % within 0.2, band agreement 98.9 %, every puzzle completed), and
/// the easiest path (what `explain` shows) gives every puzzle the bank's hardest
/// technique and score, except a few set by dynamic forcing chains (12 measured) whose
/// scores may differ by 0.2 at most.
#[test]
#[ignore = "slow (40 s): .ci/run runs it with --include-ignored"]
fn steps_are_sound_and_scores_track_sudoku_explainer() {
    let set = calibration();
    assert_eq!(set.len(), 11_791);
    let band = |s: f64| {
        [2.3, 3.4, 5.9, f64::MAX]
            .iter()
            .position(|&t| s <= t + 1e-9)
            .unwrap()
    };
    // Rated on the rayon pool: the whole file takes a minute on one thread.
    let rated: Vec<_> = set
        .par_iter()
        .map(|(p, se)| {
            let solution = count_solutions(p, 2)
                .unique()
                .cloned()
                .expect("reference puzzles are unique");
            let r = rate(p);
            assert_steps_true(p, &solution, &r, Variant::Classic);
            if r.completed {
                assert!(r.steps.iter().all(|s| s.score <= r.score));
            } else {
                assert!(r.score >= sudoku_bank::rate::BEYOND_SCORE);
            }
            let easiest = rate_on(p, Path::Easiest);
            assert_eq!(
                (easiest.hardest, easiest.completed),
                (r.hardest, r.completed),
                "{p}: the easiest path ends otherwise"
            );
            let apart = (easiest.score - r.score).abs();
            let dynamic = r.hardest == Some(Technique::DynamicForcingChains);
            assert!(
                apart < 1e-9 || (dynamic && apart <= 0.2 + 1e-9),
                "{p}: the easiest path scores {}, the bank's {}",
                easiest.score,
                r.score
            );
            let used: BTreeSet<Technique> = r.steps.iter().map(|s| s.technique).collect();
            Rated {
                apart: apart > 1e-9,
                ours: r.score,
                se: *se,
                completed: r.completed,
                used,
            }
        })
        .collect();
    let used: BTreeSet<Technique> = rated.iter().flat_map(|r| r.used.iter().copied()).collect();
    // Direct claiming never wins on 9x9 (a hidden single or a direct pointing always
    // comes with it), nor a unique loop of type 3 here (a type 4 or a lower step comes
    // first); their finders are checked beside the code. The killer techniques are
    // checked on killer puzzles (tests/killer.rs).
    let missing: Vec<_> = Technique::all()
        .filter(|t| {
            !used.contains(t)
                && *t != Technique::DirectClaiming
                && *t != Technique::UniqueLoop3
                && !t.needs_cages()
                && t.applies_under(Variant::Classic.rules())
        })
        .collect();
    assert!(missing.is_empty(), "never used: {missing:?}");
    let share = |f: &dyn Fn(&Rated) -> bool| {
        rated.iter().filter(|r| f(r)).count() as f64 / rated.len() as f64
    };
    let ours: Vec<f64> = rated.iter().map(|r| r.ours).collect();
    let theirs: Vec<f64> = rated.iter().map(|r| r.se).collect();
    let rho = spearman(&ours, &theirs);
    assert!(rho >= 0.99, "spearman {rho}");
    let agreement = share(&|r| band(r.ours) == band(r.se));
    assert!(agreement >= 0.995, "band agreement {agreement}");
    let exact = share(&|r| (r.ours - r.se).abs() < 1e-9);
    // The file's ratings come from a Sukaku Explainer without the UVWXYZ-wing (6.6),
    // which today's reference uses: 1.5 % of the puzzles went from 6.7-7.1 to 6.6 when the
    // rater took it up (88.3 % exact before), and on 58 of 60 of them the built reference
    // gives our rating, not the file's (docs/design-notes.md, "UVWXYZ-wings").
    // Taking the reference's order of techniques rather than the lowest score took it
    // from 86.8 % to 89.0 %, unique rectangles of types 2 and 4 at 4.5 to 89.6 %, long
    // X-chains scored by shape to 89.8 %, BUG types 2 to 4 to 90.6 %, unique loops to
    // 91.1 %, dynamic runs in the reference's order to 94.7 %, keeping what a dynamic run
    // reached before its contradiction to 96.4 %, the reference's sources of multiple
    // forcing chains to 97.7 %, a box's places on a cross as a grouped strong link to
    // 97.8 %, hidden sets in unique rectangles and loops of type 3 and a cross's heart
    // on both sides of its link to 97.9 %, grouped chains whose ends share no cell and
    // cycles walked in the reference's order of units to 98.0 % (98.8 % within 0.2,
    // 100.0 % in the same band).
    assert!(exact >= 0.975, "exact: {exact}");
    let close = share(&|r| (r.ours - r.se).abs() <= 0.2 + 1e-9);
    assert!(close >= 0.985, "within 0.2: {close}");
    let completed = share(&|r| r.completed);
    assert!(completed >= 0.99, "completed {completed}");
    let apart = rated.iter().filter(|r| r.apart).count();
    assert!(apart <= 30, "{apart} scored otherwise on the easiest path");
}

/// Agreement with the reference on puzzles of the bank's own fills, rated by Sukaku
/// Explainer (`serate --format="%g %r %R"`, `--isX=1` for the diagonal file) and kept in
/// `tests/data/`: each line the puzzle, the reference's rating and its hardest technique.
struct FillAgreement {
    exact: f64,
    within: f64,
    tiers: f64,
    used: BTreeSet<Technique>,
}

/// Rates a reference-rated file of `variant` puzzles, checking every step against the
/// solution, and measures the agreement (tiers: the default bands).
fn fill_agreement(file: &str, variant: Variant) -> FillAgreement {
    let geometry = Geometry::CLASSIC.with_variant(variant);
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let set: Vec<(Grid, f64)> = text
        .lines()
        .map(|l| {
            let mut f = l.split_whitespace();
            let p = parse_line_with(f.next().unwrap(), geometry).unwrap();
            (p, f.next().unwrap().parse().unwrap())
        })
        .collect();
    assert!(set.len() >= 200, "{file}: {} puzzles", set.len());
    let band = |s: f64| {
        [2.3, 3.4, 5.9, f64::MAX]
            .iter()
            .position(|&t| s <= t + 1e-9)
    };
    let rated: Vec<(f64, f64, BTreeSet<Technique>)> = set
        .par_iter()
        .map(|(p, se)| {
            let solution = count_solutions(p, 2).unique().cloned().expect("unique");
            let r = rate(p);
            assert_steps_true(p, &solution, &r, variant);
            (r.score, *se, r.steps.iter().map(|s| s.technique).collect())
        })
        .collect();
    let share = |f: &dyn Fn(f64, f64) -> bool| {
        rated.iter().filter(|r| f(r.0, r.1)).count() as f64 / rated.len() as f64
    };
    FillAgreement {
        exact: share(&|a, b| (a - b).abs() < 1e-9),
        within: share(&|a, b| (a - b).abs() <= 0.2 + 1e-9),
        tiers: share(&|a, b| band(a) == band(b)),
        used: rated.iter().flat_map(|r| r.2.iter().copied()).collect(),
    }
}

/// Diagonal puzzles of a default fill are rated as the reference rates them with its
/// diagonal rules (generalized intersections and naked sets, strong links in a diagonal
/// 0.3 dearer, grouped links in a diagonal, X-loops, UVWXYZ-wings): measured 98.5 %
/// exact, 99.8 % within 0.2, 99.8 % same tier.
#[test]
fn diagonal_fill_ratings_follow_the_reference() {
    let a = fill_agreement("diagonal_se.txt", Variant::Diagonal);
    assert!(a.exact >= 0.975, "exact {}", a.exact);
    assert!(a.within >= 0.99, "within 0.2 {}", a.within);
    assert!(a.tiers >= 0.99, "tiers {}", a.tiers);
    for t in [
        Technique::GeneralizedIntersection,
        Technique::GeneralizedNakedPair,
        Technique::XChain,
        Technique::GroupedXChain,
        Technique::UvwxyzWing,
    ] {
        assert!(a.used.contains(&t), "{t:?} never used");
    }
}

/// The variants with extra units beyond diagonals or cells kept a move apart: 200 puzzles
/// of each (50 per tier, a `fill --tier T --count 50` of each, seed 41; 11 for the
/// anti-knight, anti-king and non-consecutive, `fill --count 200` for the last; a second
/// anti-knight file, `fill --count 200 --seed 21`, was never calibrated on), rated by the
/// reference with its flag (`--isWindows=1`, `--isDG=1`, `--isAsterisk=1`,
/// `--isGirandola=1`, `--isCD=1`, `--isAntiKnight=1`, `--isAntiKing=1`, `--isNC=1`).
/// Measured (exact, within 0.2, tier): windoku 98.0/99.5/99.5 %, disjoint groups
/// 97.5/98.5/98.5 %, asterisk 96.0/98.0/99.5 %, girandola 98.0/98.5/99.0 %, center dot
/// 97.0/99.0/99.5 %, anti-knight 100/100/100 % (the second file 97.5/98.5/100 %),
/// anti-king 100/100/100 %, non-consecutive 99.0/99.5/100 %; the targets are 85, 95 and
/// 95 %.
#[test]
fn variant_fills_rate_like_the_reference() {
    for (file, name, exact, within) in [
        ("windoku_se.txt", "windoku", 0.97, 0.99),
        ("disjoint_groups_se.txt", "disjoint-groups", 0.965, 0.975),
        ("asterisk_se.txt", "asterisk", 0.955, 0.975),
        ("girandola_se.txt", "girandola", 0.97, 0.98),
        ("center_dot_se.txt", "center-dot", 0.955, 0.98),
        ("anti_knight_se.txt", "anti-knight", 0.995, 0.995),
        ("anti_knight_fill_se.txt", "anti-knight", 0.96, 0.975),
        ("anti_king_se.txt", "anti-king", 0.995, 0.995),
        ("non_consecutive_se.txt", "non-consecutive", 0.985, 0.99),
    ] {
        let variant: Variant = name.parse().unwrap();
        let a = fill_agreement(file, variant);
        assert!(a.exact >= exact, "{name}: exact {}", a.exact);
        assert!(a.within >= within, "{name}: within 0.2 {}", a.within);
        assert!(a.tiers >= 0.98, "{name}: tiers {}", a.tiers);
        // The reference rates non-consecutive with the classic techniques and its own.
        let (own, other) = if variant.rules().generalized_rating {
            (Technique::GeneralizedIntersection, Technique::Pointing)
        } else {
            (Technique::LockedNc, Technique::GeneralizedIntersection)
        };
        assert!(a.used.contains(&own), "{name}: no {own:?}");
        assert!(!a.used.contains(&other), "{name}: {other:?}");
        // BUG+1 counts rows, columns and boxes: no extra unit may hold.
        if variant.rules().units.any() {
            assert!(!a.used.contains(&Technique::BugPlusOne), "{name}: BUG+1");
        }
    }
}

/// Classic puzzles of a default fill keep their agreement with the reference: measured
/// 100 % exact.
#[test]
fn classic_fill_ratings_follow_the_reference() {
    let a = fill_agreement("classic_fill_se.txt", Variant::Classic);
    assert!(a.exact >= 0.995, "exact {}", a.exact);
    assert!(a.within >= 0.995, "within 0.2 {}", a.within);
    assert!(a.tiers >= 0.99, "tiers {}", a.tiers);
    assert!(!a.used.contains(&Technique::GeneralizedIntersection));
}

#[test]
fn cli_rate_prints_score_tier_and_technique() {
    let o = crate::common::bank(
        &["rate"],
        Some("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n"),
    );
    let out = crate::common::stdout(&o);
    let fields: Vec<&str> = out.trim().split('\t').collect();
    assert_eq!(fields.len(), 3, "{out}");
    assert!(fields[0].parse::<f64>().unwrap() <= 2.3);
    assert_eq!(fields[1], "easy");
    let o = crate::common::bank(&["rate", "--json"], Some(&format!("{}\n", ".".repeat(81))));
    assert_eq!(crate::common::stdout(&o).trim(), "multiple");
}

/// Reference puzzles whose SE rating pins one technique: the rater must reach the same
/// score with that technique as its hardest step, every step sound.
#[test]
fn reference_puzzles_pin_each_technique() {
    let cases = [
        (
            "000020400000185003300090600006000090100804006050000100002070005900641000008030000",
            2.5,
            Technique::DirectHiddenTriple,
        ),
        (
            "906701803007000600000635000090000080000208000138000725000050000400000008680000034",
            2.6,
            Technique::Pointing,
        ),
        (
            "020570030100800907040000000000204019400000003950107000000000090501008006090063020",
            2.8,
            Technique::Claiming,
        ),
        (
            "010050002000900070004000030500027008020040090800590007080000600060002000700010040",
            3.0,
            Technique::NakedPair,
        ),
        (
            "407009803002000000300004015209708000000040000000506708720100009000000500904800201",
            3.2,
            Technique::XWing,
        ),
        (
            "005280000000000900032070608000060009706108304300040000904050860007000000000024100",
            3.4,
            Technique::HiddenPair,
        ),
        (
            "003204100800903007000000000002000700040070010006102400000608000200000006039000240",
            3.6,
            Technique::NakedTriple,
        ),
        (
            "001407300006090400500000006080000040600253008000000000097000160000906000400010002",
            3.8,
            Technique::Swordfish,
        ),
        (
            "006000200000269000020801030300050004000608000670000051001000300900030005000104000",
            4.0,
            Technique::HiddenTriple,
        ),
        (
            "018209000200000807050000000320800700000753000007006091000000060409000003000607950",
            4.2,
            Technique::XyWing,
        ),
        (
            "021040730300709006000201000810000072000000000070803040034000210007000400002090500",
            4.3,
            Technique::EmptyRectangle,
        ),
        (
            "000100200200300501000024030490070000570203064000040072060590000903007005005002000",
            4.3,
            Technique::GroupedXChain,
        ),
        (
            "007020500200000008031000290006159800040070010000000000800507009000204000750010026",
            4.4,
            Technique::XyzWing,
        ),
        (
            "906020051000005306300000400000007510000080000012400000009000002407900000250040709",
            4.5,
            Technique::UniqueRectangle1,
        ),
        (
            // Two three-link chains end on r5c6 (a box link, 5.5) and r3c4 (three column
            // links, 5.4), the latter reached again at the same length: the plainer wins.
            "600000007030201040040060010380010092002000700070040030920000073000000000010678020",
            5.4,
            Technique::XChain,
        ),
        (
            // A Y-cycle of eight cells that a walk reaching each node first by the box,
            // then the row, then the column closes (as the reference's does).
            "003807500400109002000000000002000600107000304800000007300010008094050120000206000",
            6.9,
            Technique::Cycle,
        ),
        (
            // A hidden pair of the rectangle's digits with one roof corner.
            "000009500700006041801030000000001205509000603208300000000020109940500006006700000",
            4.5,
            Technique::UniqueRectangle3,
        ),
        (
            "608407905000000000403000706000801000009060100000090000050010040107903608030070090",
            5.0,
            Technique::NakedQuad,
        ),
        (
            "000100000080045120012083700039000007071090430800000910005970340047310050000004000",
            5.2,
            Technique::Jellyfish,
        ),
        (
            "000650009100004000007800340000000790040207010081000000053009800000500007900021000",
            5.4,
            Technique::XChain,
        ),
        (
            "000703000002090300100802006500070009240000013670000085000651000006000800010000060",
            5.5,
            Technique::WxyzWing,
        ),
        (
            "500080904000250008000190000701002090003000600020900507000079000100026000604010005",
            5.6,
            Technique::WxyzWing,
        ),
        (
            "003200010800030204020000080500060100780904065006020007060000070308070001010008400",
            5.7,
            Technique::GroupedXChain,
        ),
        (
            // The chain's first strong link is a box's places on a cross (r4c2 r4c3
            // against r5c1 r6c1), which the splits by row or by column miss.
            "078020360000507000200080005800000002009000500010000090000000000052609470000874000",
            5.7,
            Technique::GroupedXChain,
        ),
        (
            // No grouped chain here may end on a cell its start holds (r9c4 r9c6 to
            // r7c4 r8c4 r9c4 would remove 8 from r7c6 at 5.7): nishio, as the reference.
            "300085104007100000100004030905000020700000009020000501060400002000008700804210005",
            7.8,
            Technique::Nishio,
        ),
        (
            // A cross whose heart holds the digit: r4c7 r5c7 r6c7 against r5c7 r5c8 r5c9.
            "340000092020090080000352000100000009000509000590000024070000040602000508408030901",
            5.7,
            Technique::GroupedXChain,
        ),
        (
            "001375400605040108000000000000000000300000002100834006004090600800701003060000020",
            5.6,
            Technique::BugPlusOne,
        ),
        (
            "000000000070401050064000930800507003650000092000040000400123009900060001000000000",
            5.7,
            Technique::BugType2,
        ),
        (
            "000076138000900460000008002007061000004203600000790500800100000046009000125630000",
            5.7,
            Technique::BugType4,
        ),
        (
            "003060009020071500060309080290000800000000000006000092040602050009780040500010300",
            5.8,
            Technique::BugType3,
        ),
        (
            "010080000040006300700093000600000047021000560480000002000940008008200010000060070",
            6.2,
            Technique::AlignedPairExclusion,
        ),
        (
            "083000470010000030600000009040000050000806000207090608000000000900502004700103005",
            6.3,
            Technique::VwxyzWing,
        ),
        (
            "400300600079020080050007000000400102010205040902008000000800010060010250004002008",
            6.4,
            Technique::VwxyzWing,
        ),
        (
            "050870040020004600060290000097050200000000000002060370000089020005300080010045090",
            6.8,
            Technique::Cycle,
        ),
        (
            "000900003000700060007050090030608012002000300960201050050080400080005000200009000",
            7.1,
            Technique::ForcingChain,
        ),
        (
            "450010006030240000010009300900000700100408009005000008001500080000086010800030075",
            7.5,
            Technique::AlignedTripleExclusion,
        ),
        (
            "000000870000067300000308109600000980070000030039000006403701000001520000056000000",
            7.8,
            Technique::Nishio,
        ),
        (
            "000000000027090830153000296340000079000941000200000005910703058000000000000584000",
            8.2,
            Technique::MultipleForcingChains,
        ),
        (
            "200000005051000890004000700000050000000479000010000020040807010800060004036040980",
            9.0,
            Technique::DynamicForcingChains,
        ),
    ];
    for (line, se, technique) in cases {
        let p = parse_line(line).unwrap();
        let r = rate(&p);
        assert!(r.completed, "{line}");
        assert_eq!(r.hardest, Some(technique), "{line}");
        assert!(
            (r.score - se).abs() < 1e-9,
            "{line}: {} vs SE {se}",
            r.score
        );
    }
}

#[test]
fn singles_check_agrees_with_the_rater() {
    use sudoku_bank::generate::Route;
    use sudoku_bank::grid::Geometry;
    use sudoku_bank::solver::solves_by_singles;
    let (mut by_singles, mut direct, mut total) = (0, 0, 0);
    for (size, clue_levels) in [(9, &[24usize, 28, 32, 36][..]), (6, &[12, 16][..])] {
        for &clues in clue_levels {
            let geometry = Geometry::for_size(size).unwrap();
            for puzzle in random_digs(geometry, Route::Transform, clues, 60) {
                let rating = rate(&puzzle);
                let easy = rating.completed && rating.score <= 2.3;
                // Singles alone solve it only if it rates easy (the fill's shortcut); an
                // easy puzzle may also need a direct technique.
                let singles = solves_by_singles(&puzzle);
                assert!(!singles || easy, "{}", puzzle);
                by_singles += singles as u32;
                direct += (easy && !singles) as u32;
                total += 1;
            }
        }
    }
    // Both answers occur, so the comparison means something, and the direct techniques
    // make some puzzles easy that singles alone do not solve.
    assert!(
        by_singles > 20 && by_singles + 20 < total && direct > 0,
        "{by_singles} by singles, {direct} direct, of {total}"
    );
    // Calibration puzzles (SE 2.5 and up) never fall to singles alone.
    assert!(calibration()
        .iter()
        .take(500)
        .all(|(p, _)| !solves_by_singles(p)));
}

/// The fill passes over a puzzle that propagation solves by steps scoring below its tier:
/// every such puzzle must rate below, classic, diagonal and killer, on every size the
/// pointing and claiming check serves.
#[test]
fn propagation_check_agrees_with_the_rater() {
    use sudoku_bank::generate::Route;
    use sudoku_bank::solver::{solves_below, solves_by_singles};
    let (mut locked, mut beyond_singles, mut total) = (0, 0, 0);
    let (mut killer_below, mut killer_total) = (0, 0);
    for variant in [Variant::Classic, Variant::Diagonal, Variant::Killer] {
        let levels: [(usize, &[usize]); 3] = match variant {
            // Killers mostly come without givens; their cages do the work.
            Variant::Killer => [(9, &[0, 4, 10]), (6, &[0, 3]), (4, &[0])],
            _ => [(9, &[24, 28, 32]), (6, &[10, 13]), (4, &[5])],
        };
        for (size, clue_levels) in levels {
            for &clues in clue_levels {
                let geometry = Geometry::for_size(size).unwrap().with_variant(variant);
                for puzzle in random_digs(geometry, Route::Backtrack, clues, 40) {
                    let rating = rate(&puzzle);
                    // Locked candidates score 2.8 at most, or 2.9 as the generalized
                    // intersections of a grid rated the generalized way.
                    let top = if variant.rules().generalized_rating {
                        2.9
                    } else {
                        2.8
                    };
                    let below = solves_below(&puzzle, top + 0.1);
                    assert!(
                        !below || (rating.completed && rating.score <= top + 1e-9),
                        "{variant} {}: {}",
                        rating.score,
                        puzzle
                    );
                    assert!(
                        !solves_below(&puzzle, 2.6) || rating.score <= 2.5,
                        "{variant} {}: {}",
                        rating.score,
                        puzzle
                    );
                    assert!(
                        !solves_below(&puzzle, 2.3),
                        "nothing scores below 2.3 by this"
                    );
                    if variant == Variant::Killer {
                        killer_below += below as u32;
                        killer_total += 1;
                        continue;
                    }
                    locked += below as u32;
                    beyond_singles += (below && !solves_by_singles(&puzzle)) as u32;
                    total += 1;
                }
            }
        }
    }
    assert!(
        beyond_singles > 5 && locked + 20 < total,
        "{locked} by propagation ({beyond_singles} needing pointing or claiming) of {total}"
    );
    assert!(
        killer_below > 20 && killer_below + 20 < killer_total,
        "{killer_below} killers by propagation of {killer_total}"
    );
    // Calibration puzzles (SE 2.5 and up; those of 2.9 and up beyond it) never pass.
    for (p, se) in calibration().iter().take(1500) {
        assert!(*se <= 2.8 || !solves_below(p, 2.9), "{se} {p}");
    }
}

/// The fill passes over a tier's puzzle when the rater's easier techniques, taken in
/// batches and in any order, solve it below the tier: every such puzzle must rate below,
/// on calibration puzzles (classic, SE 2.5 to 9+) and on random digs of diagonal (9x9
/// and 16x16) and killer puzzles, at several scores. It also settles most of what rates
/// below (65 % here: it stops at techniques of 4.2), or it would save nothing.
#[test]
fn quick_settle_agrees_with_the_rater() {
    use sudoku_bank::generate::Route;
    use sudoku_bank::rate::settle::solved_below;
    let mut puzzles: Vec<_> = calibration()
        .into_iter()
        .step_by(4)
        .map(|(p, _)| p)
        .collect();
    for (size, variant, clues, seeds) in [
        (9, Variant::Diagonal, 24, 60),
        (9, Variant::Killer, 0, 60),
        (16, Variant::Diagonal, 120, 6),
    ] {
        let geometry = Geometry::for_size(size).unwrap().with_variant(variant);
        puzzles.extend(random_digs(geometry, Route::Backtrack, clues, seeds));
    }
    let checks: Vec<(usize, usize)> = puzzles
        .par_iter()
        .map(|puzzle| {
            let rating = rate(puzzle);
            let (mut settled, mut below) = (0, 0);
            for score in [3.5, 4.5, 6.0, 9.0] {
                let rated_below = rating.completed && rating.score < score;
                let quick = solved_below(puzzle, score);
                assert!(
                    !quick || rated_below,
                    "{score}: rated {} {}",
                    rating.score,
                    puzzle
                );
                settled += usize::from(quick);
                below += usize::from(rated_below);
            }
            (settled, below)
        })
        .collect();
    let (settled, below) = checks
        .iter()
        .fold((0, 0), |(s, b), &(ps, pb)| (s + ps, b + pb));
    assert!(
        below > 500 && settled * 5 > below * 3,
        "settled {settled} of {below} rating below"
    );
}

/// `bank explain` shows each forcing chain link by link, from the assumption to the
/// candidate it removes, and ends with the score; a puzzle without one solution is refused.
#[test]
fn explain_shows_forcing_chains_link_by_link() {
    let puzzle =
        "000900003000700060007050090030608012002000300960201050050080400080005000200009000";
    let o = crate::common::bank(&["explain", puzzle], None);
    assert!(o.status.success(), "{}", crate::common::stderr(&o));
    let out = crate::common::stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains(": forcing chain (7.1)"))
        .expect("a forcing chain step");
    let removed = lines[at].rsplit("remove ").next().unwrap().trim();
    let chain = lines[at + 1].trim();
    let (cell, digit) = removed.split_once("<>").unwrap();
    assert!(chain.starts_with(&format!("{cell}={digit} -> ")), "{chain}");
    assert!(chain.ends_with(&format!("-> {removed}")), "{chain}");
    assert!(out
        .trim_end()
        .ends_with("score 7.1, hardest technique: forcing chain"));
    let o = crate::common::bank(&["explain", &".".repeat(81)], None);
    assert!(!o.status.success());
    assert!(
        crate::common::stderr(&o).contains("exactly one solution"),
        "{}",
        crate::common::stderr(&o)
    );
}

/// Diagonal puzzles of every size: each step is true against the solution, the
/// uniqueness techniques (unsound once the diagonals are units) are never used, and the
/// diagonals give hidden singles of their own.
#[test]
fn diagonal_steps_are_true_and_skip_uniqueness() {
    use sudoku_bank::generate::{generate, DigStop, Route, Spec, Strategy};
    let (mut rated, mut techniques) = (0, BTreeSet::new());
    for (size, levels) in [
        (9, &[17usize, 20, 24, 28][..]),
        (6, &[8, 12][..]),
        (4, &[4, 6][..]),
        (12, &[60][..]),
    ] {
        let geometry = Geometry::for_size(size)
            .unwrap()
            .with_variant(Variant::Diagonal);
        for &clues in levels {
            let spec = Spec {
                geometry,
                route: Route::Enumerate,
                strategy: Strategy::Random,
                stop: DigStop::Clues(clues),
                failure_budget: None,
                cage_sizes: sudoku_bank::generate::CageSizes::DEFAULT,
            };
            let seeds = if size == 9 { 0..40 } else { 0..10 };
            for seed in seeds {
                let Ok(g) = generate(&spec, seed, None) else {
                    continue;
                };
                assert!(g.solution.find_conflict().is_none());
                let r = rate(&g.puzzle);
                assert_steps_true(&g.puzzle, &g.solution, &r, Variant::Diagonal);
                techniques.extend(r.steps.iter().map(|s| s.technique));
                rated += 1;
            }
        }
    }
    assert!(rated > 150, "{rated} rated");
    assert!(
        techniques.len() > 10,
        "the puzzles used too few techniques to test much: {techniques:?}"
    );
}
