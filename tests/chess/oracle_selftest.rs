//! Self-tests of the independent oracle in `crates/testkit/src/oracle/`: it must be right before it
//! may judge the engine. Nothing here runs the rules.

use regex_chess_testkit::oracle;

use oracle::judge::{self, Features};
use oracle::tables::{self, MATE};
use oracle::{perft, playouts, search};
use regex_chess_chess::eval;
use regex_chess_chess::notation::fen::Fen;
use shakmaty::{Chess, Color, Position};

#[test]
fn shakmaty_perft_matches_the_published_counts() {
    for case in perft::cases() {
        let pos = judge::position(&case.fen);
        for depth in 1..=3 {
            assert_eq!(
                perft::perft(&pos, depth as u32),
                case.counts[depth - 1],
                "{} perft({depth})",
                case.name
            );
        }
        assert_eq!(judge::legal_uci(&pos).len() as u64, case.counts[0]);
    }
}

#[test]
fn legal_moves_are_written_the_engines_way() {
    let start = judge::legal_uci(&Chess::default());
    assert_eq!(start.len(), 20);
    assert_eq!(start.first().map(String::as_str), Some("a2a3"));
    assert!(start.contains(&"g1f3".to_string()) && start.contains(&"e2e4".to_string()));

    // Castling is the king's two-square move, both ways.
    let kiwipete = judge::legal_uci(&judge::position(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ));
    assert!(kiwipete.contains(&"e1g1".to_string()) && kiwipete.contains(&"e1c1".to_string()));
    assert!(!kiwipete.iter().any(|m| m == "e1h1" || m == "e1a1"));

    // Promotions name the piece, all four of them, captures included.
    let promo = judge::legal_uci(&judge::position(
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ));
    for m in ["d7c8q", "d7c8r", "d7c8b", "d7c8n"] {
        assert!(promo.contains(&m.to_string()), "{m} missing from {promo:?}");
    }
    assert!(!promo.contains(&"d7c8".to_string()));

    // En passant is a diagonal pawn move onto the en passant square.
    let ep = judge::legal_uci(&judge::position(
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ));
    assert!(ep.contains(&"e5f6".to_string()) && !ep.contains(&"e5d6".to_string()));
}

#[test]
fn fen_after_a_move_keeps_the_en_passant_square_and_clocks() {
    let after = judge::play(&Chess::default(), "e2e4");
    assert_eq!(
        judge::fen(&after),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
    let after = judge::play(&after, "g8f6");
    assert_eq!(
        judge::fen(&after),
        "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"
    );
}

#[test]
fn verdicts() {
    let mated = judge::position("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert_eq!(judge::allowed_statuses(&mated), ["checkmate"]);
    let stalemated = judge::position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(judge::allowed_statuses(&stalemated), ["stalemate"]);
    let bare = judge::position("8/8/4k3/8/8/3K4/8/8 w - - 0 40");
    assert_eq!(judge::allowed_statuses(&bare), ["insufficient-material"]);
    let fifty = judge::position("8/8/4k3/8/8/3K4/8/R7 w - - 100 90");
    assert_eq!(judge::allowed_statuses(&fifty), ["fifty-move"]);
    let both = judge::position("8/8/4k3/8/8/3K4/8/8 w - - 120 90");
    assert_eq!(
        judge::allowed_statuses(&both),
        ["fifty-move", "insufficient-material"]
    );
    assert_eq!(judge::allowed_statuses(&Chess::default()), ["ongoing"]);
}

#[test]
fn the_start_position_scores_zero() {
    let start = Chess::default();
    assert_eq!(search::score(&start, Color::White), 0);
    assert_eq!(search::score(&start, Color::Black), 0);
}

#[test]
fn scores_by_hand() {
    // White: king e1 (0 + 0), queen d1 (900 - 5). Black: king e8 (mirrors e1: 0), pawn e7
    // (mirrors e2: 100 - 20).
    let pos = judge::position("4k3/4p3/8/8/8/8/8/3QK3 w - - 0 1");
    assert_eq!(search::score(&pos, Color::White), 895 - 80);
    assert_eq!(search::score(&pos, Color::Black), 80 - 895);
    // A knight on a8 for white is a knight on a1 for black: same entry.
    let white = judge::position("N3k3/8/8/8/8/8/8/4K3 w - - 0 1");
    let black = judge::position("4k3/8/8/8/8/8/8/n3K3 w - - 0 1");
    assert_eq!(search::score(&white, Color::White), 320 - 50);
    assert_eq!(search::score(&black, Color::Black), 320 - 50);
}

/// The oracle's tables are written out independently; they must say what the engine's
/// say, for every square, role and colour (a wrong entry on either side fails here).
#[test]
fn oracle_tables_agree_with_the_engine_tables_everywhere() {
    assert_eq!(MATE, eval::MATE, "the mate score");
    let mut checked = 0;
    for square in shakmaty::Square::ALL {
        for role in shakmaty::Role::ALL {
            for color in [Color::White, Color::Black] {
                let piece = shakmaty::Piece { color, role };
                let engine = eval::piece_square(piece.char(), u32::from(square) as usize);
                assert_eq!(
                    Some(tables::worth(role, color, square)),
                    engine,
                    "{color:?} {role:?} on {square}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 64 * 6 * 2);
}

#[test]
fn colour_flipped_positions_score_the_same_for_the_other_side() {
    for sample in playouts::positions(playouts::SEED, 300) {
        let pos = judge::position(&sample.fen);
        let flipped: Chess = pos
            .clone()
            .to_setup(shakmaty::EnPassantMode::Legal)
            .into_mirrored()
            .position(shakmaty::CastlingMode::Standard)
            .unwrap();
        assert_eq!(
            search::score(&pos, Color::White),
            search::score(&flipped, Color::Black),
            "{}",
            sample.fen
        );
    }
}

#[test]
fn the_search_takes_a_mate_in_one() {
    for (fen, mate) in [
        // Back rank.
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"),
        // Scholar's mate.
        (
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            "h5f7",
        ),
        // Fool's mate, black to move.
        (
            "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2",
            "d8h4",
        ),
        // Promoting to a queen or a rook both mate: the tie goes to the smaller text.
        ("k7/7P/1K6/8/8/8/8/8 w - - 0 1", "h7h8q"),
    ] {
        let pos = judge::position(fen);
        let (best, value) = search::best_move(&pos).unwrap();
        assert_eq!((best.as_str(), value), (mate, MATE), "{fen}");
        assert!(judge::play(&pos, &best).is_checkmate(), "{fen}");
    }
}

#[test]
fn the_search_scores_no_move_and_stalemating_moves() {
    let mated = judge::position("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert_eq!(search::best_move(&mated), None);
    // Qf7 stalemates (0); Qa8 and Qd8 mate, and the tie goes to the smaller text.
    let pos = judge::position("7k/8/6K1/3Q4/8/8/8/8 w - - 0 1");
    let scored = search::scored_moves(&pos);
    let value_of = |m: &str| scored.iter().find(|(n, _)| n == m).unwrap().1;
    assert_eq!(value_of("d5f7"), 0);
    assert!(judge::play(&pos, "d5f7").is_stalemate());
    assert_eq!(value_of("d5d8"), MATE);
    assert_eq!(search::best_move(&pos), Some(("d5a8".to_string(), MATE)));
}

#[test]
fn the_search_sees_the_recapture() {
    // 1.Qxd7+ wins a pawn but the only reply, 1...Kxd7, leaves bare kings: white king e1
    // (table entry 0) against the black king on d7 (read as d2: 0), so the move scores 0
    // while any safe queen move keeps about 900 centipawns.
    let pos = judge::position("3k4/3p4/8/8/8/8/8/3QK3 w - - 0 1");
    let scored = search::scored_moves(&pos);
    let value_of = |m: &str| scored.iter().find(|(n, _)| n == m).unwrap().1;
    assert_eq!(value_of("d1d7"), 0);
    let (best, value) = search::best_move(&pos).unwrap();
    assert_ne!(best, "d1d7");
    assert!(value > 700, "{best} {value}");
    // A greedy one-ply choice takes the pawn.
    assert_eq!(greedy(&pos), "d1d7");
}

/// The 1-ply choice: the best static score after the engine's own move (a mate counts
/// `MATE`), ties to the smallest text.
fn greedy(pos: &Chess) -> String {
    let me = pos.turn();
    let mut best: Option<(String, i32)> = None;
    for m in judge::legal_uci(pos) {
        let after = judge::play(pos, &m);
        let value = if after.is_checkmate() {
            MATE
        } else {
            search::score(&after, me)
        };
        if best.as_ref().is_none_or(|(_, b)| value > *b) {
            best = Some((m, value));
        }
    }
    best.unwrap().0
}

fn allows_mate_in_one(after: &Chess) -> bool {
    judge::legal_uci(after)
        .iter()
        .any(|r| judge::play(after, r).is_checkmate())
}

#[test]
fn the_search_avoids_a_mate_in_one_where_greed_walks_into_it() {
    // And over the playouts: wherever greed allows a mate in one but some move does not,
    // the search's move does not.
    let mut traps = 0;
    for sample in playouts::positions(playouts::SEED, 1000) {
        let pos = judge::position(&sample.fen);
        if sample.features.terminal {
            continue;
        }
        let g = greedy(&pos);
        if !allows_mate_in_one(&judge::play(&pos, &g)) {
            continue;
        }
        let safe_exists = judge::legal_uci(&pos)
            .iter()
            .any(|m| !allows_mate_in_one(&judge::play(&pos, m)));
        if !safe_exists {
            continue;
        }
        traps += 1;
        let (best, _) = search::best_move(&pos).unwrap();
        assert!(
            !allows_mate_in_one(&judge::play(&pos, &best)),
            "{}: the search plays {best} into a mate in one",
            sample.fen
        );
    }
    assert!(traps >= 3, "only {traps} positions test the property");
    // A position the playouts found: black's greedy 1...Nxf4 takes a pawn, opens the
    // h-file and walks into 2.Rh8#; the 2-ply search does not.
    let fen = "3k4/Q7/nr2p3/3p1pPn/pP3P2/P3p2R/8/R6K b - - 7 42";
    let pos = judge::position(fen);
    let g = greedy(&pos);
    assert!(
        allows_mate_in_one(&judge::play(&pos, &g)),
        "{fen}: greedy {g}"
    );
    let (best, _) = search::best_move(&pos).unwrap();
    assert!(
        !allows_mate_in_one(&judge::play(&pos, &best)),
        "{fen}: {best}"
    );
    assert_eq!(g, "h5f4");
    assert!(judge::play(&judge::play(&pos, &g), "h3h8").is_checkmate());
}

#[test]
fn playouts_are_deterministic_distinct_and_varied() {
    let samples = playouts::positions(playouts::SEED, 1000);
    assert!(samples.len() >= 1000);
    let again = playouts::positions(playouts::SEED, 1000);
    let fens: Vec<&str> = samples.iter().map(|s| s.fen.as_str()).collect();
    let fens_again: Vec<&str> = again.iter().map(|s| s.fen.as_str()).collect();
    assert_eq!(
        fens, fens_again,
        "the same seed must give the same positions"
    );
    let other = playouts::positions(playouts::SEED + 1, 1000);
    assert_ne!(
        fens[..100],
        other
            .iter()
            .map(|s| s.fen.as_str())
            .take(100)
            .collect::<Vec<_>>()[..]
    );
    let distinct: std::collections::HashSet<&str> = fens.iter().copied().collect();
    assert_eq!(distinct.len(), fens.len());

    let count = |has: fn(&Features) -> bool| samples.iter().filter(|s| has(&s.features)).count();
    let counts = [
        ("in check", count(|f| f.in_check)),
        ("a checking move", count(|f| f.can_check)),
        ("a promotion", count(|f| f.can_promote)),
        ("en passant", count(|f| f.can_en_passant)),
        ("castling", count(|f| f.can_castle)),
        ("no move", count(|f| f.terminal)),
    ];
    eprintln!("playout positions: {} with {counts:?}", samples.len());
    for (what, n) in counts {
        assert!(n >= 10, "only {n} positions with {what}");
    }
    // Every stored features value is what the oracle says of the FEN.
    for s in samples.iter().step_by(37) {
        assert_eq!(
            Features::of(&judge::position(&s.fen)),
            s.features,
            "{}",
            s.fen
        );
    }
}

#[test]
fn the_ci_share_covers_every_rare_feature() {
    let samples = playouts::positions(playouts::SEED, 1000);
    for n in [60, 150] {
        let share = playouts::share(&samples, n);
        assert_eq!(share.len(), n);
        let distinct: std::collections::HashSet<&str> =
            share.iter().map(|s| s.fen.as_str()).collect();
        assert_eq!(distinct.len(), n);
        for (what, has) in [
            (
                "promotion",
                (|f: &Features| f.can_promote) as fn(&Features) -> bool,
            ),
            ("en passant", |f| f.can_en_passant),
            ("castling", |f| f.can_castle),
            ("check", |f| f.in_check),
            ("no move", |f| f.terminal),
        ] {
            let n_have = share.iter().filter(|s| has(&s.features)).count();
            assert!(n_have >= 3, "share of {n}: only {n_have} with {what}");
        }
    }
}

#[test]
fn the_native_fen_parser_agrees_with_shakmaty_on_every_playout_position() {
    // The engine's input is the native parser's normalised FEN; it must be the FEN.
    for sample in playouts::positions(playouts::SEED, 1000) {
        let fen: Fen = sample
            .fen
            .parse()
            .unwrap_or_else(|e| panic!("{}: {e}", sample.fen));
        assert_eq!(fen.to_string(), sample.fen);
    }
}

#[test]
fn the_native_fen_parser_refuses_what_shakmaty_refuses() {
    for bad in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
        "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w Q - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1",
    ] {
        assert!(bad.parse::<Fen>().is_err(), "native parser accepts {bad}");
        let refused = bad
            .parse::<shakmaty::fen::Fen>()
            .ok()
            .and_then(|f| {
                f.into_position::<Chess>(shakmaty::CastlingMode::Standard)
                    .ok()
            })
            .is_none();
        assert!(refused, "shakmaty accepts {bad}");
    }
}

/// No judge turns an error into agreement: `.ok()` then `?` in a check returns "no
/// difference" when the engine refuses its input or fails, so no test file may use it
/// (decoders that skip what they cannot read live in `fuzz/`, not here).
#[test]
fn no_judge_turns_an_error_into_agreement() {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files = Vec::new();
    walk(&root, &mut files);
    assert!(files.len() > 20, "{files:?}");
    // Spelled in two pieces so that this file does not match itself.
    let silent = [".ok(", ")?"].concat();
    let found: Vec<String> = files
        .iter()
        .flat_map(|path| {
            let text = std::fs::read_to_string(path).unwrap();
            text.lines()
                .enumerate()
                .filter(|(_, line)| line.contains(&silent))
                .map(|(i, line)| format!("{}:{}: {}", path.display(), i + 1, line.trim()))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(found.is_empty(), "silent agreement:\n{}", found.join("\n"));
}
