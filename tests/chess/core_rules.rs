//! The chess core's rules against shakmaty: legal moves, the FEN after every move
//! (clocks, rights and en passant included), check and "has a legal move", on the perft
//! positions, their children and hand-picked special positions.

use std::sync::OnceLock;

use regex_chess_compiler::{self as compiler, CompileOptions};
use regex_chess_machine::exec::{Executor, fast::Fast, reference::Reference};
use regex_chess_machine::program::ValidProgram;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

fn program(name: &str) -> ValidProgram {
    let entry = regex_chess_engine::registry::find(name).expect("registered");
    compiled(entry.build())
}

/// A recorded program compiled with the default passes and validated.
fn compiled(ir: regex_chess_compiler::ir::IrProgram) -> ValidProgram {
    compiler::compile(ir, &CompileOptions::default())
        .program
        .validate()
        .expect("valid rules")
}

fn fast(name: &'static str) -> &'static Fast {
    static LEGAL: OnceLock<Fast> = OnceLock::new();
    static CHILDREN: OnceLock<Fast> = OnceLock::new();
    static PROBE: OnceLock<Fast> = OnceLock::new();
    let cell = match name {
        "legal-moves" => &LEGAL,
        "chess-children" => &CHILDREN,
        _ => &PROBE,
    };
    cell.get_or_init(|| Fast::new(program(name)))
}

fn position(fen: &str) -> Chess {
    let parsed: Fen = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
    parsed
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Always).to_string()
}

fn uci(m: &shakmaty::Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

fn sorted_lines(state: &str) -> Vec<String> {
    let mut lines: Vec<String> = state.lines().map(str::to_string).collect();
    lines.sort();
    lines
}

/// The moves with the FEN after each, as shakmaty sees them.
fn expected_children(pos: &Chess) -> Vec<String> {
    let mut out: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play_unchecked(*m);
            format!("{} {}", uci(m), fen_of(&next))
        })
        .collect();
    out.sort();
    out
}

fn expected_moves(pos: &Chess) -> Vec<String> {
    let mut out: Vec<String> = pos.legal_moves().iter().map(uci).collect();
    out.sort();
    out
}

fn perft_positions() -> Vec<(String, Chess)> {
    let text = include_str!("../../data/positions/perft.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let fields: Vec<&str> = l.split(';').collect();
            (fields[0].to_string(), position(fields[1]))
        })
        .collect()
}

/// Positions chosen for their rules: castling through or out of check, en passant that
/// uncovers the king along the rank, promotions with capture, double check, mate and
/// stalemate, rights lost by rook captures, clocks that carry.
const SPECIAL: &[&str] = &[
    // Castling: f1 attacked (no O-O), b1 attacked (O-O-O still legal).
    "4k3/8/8/8/8/8/1r3r2/R3K2R w KQ - 0 1",
    // Castling out of check is illegal; black to move with both rights.
    "r3k2r/8/8/8/8/8/8/4R1K1 b kq - 3 20",
    // Castling into check (g8 attacked) and a knight on b8 blocking O-O-O.
    "rn2k2r/8/8/8/8/8/8/4K1R1 b kq - 0 1",
    // En passant would expose the king along the fifth rank.
    "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2",
    // En passant that is legal, for black, and one that removes a checking pawn.
    "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    // En passant onto the b-file (its square must not be read as a board digit).
    "rnbqkb1r/p2p1ppp/2p1pn2/1pP5/3P4/5N2/PP2PPPP/RNBQKB1R w KQkq b6 0 5",
    "2b2br1/2pqkp2/2Qp3p/4p1p1/pP1NP1PP/P2n4/2PP1P2/R1BR2K1 b - b3 0 19",
    // Promotions, with captures, both colours.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    // Double check: only king moves.
    "4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1",
    // Checkmate and stalemate: no moves.
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    // Rook captures on the corners take the opponent's rights away.
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/1B6/8/8/8/8/6b1/R3K2R b KQkq - 5 9",
    // Clocks: 99 -> 100, 9 -> 10 and a full-move number that carries.
    "4k3/8/8/8/8/8/8/R3K3 w Q - 99 60",
    "4k3/8/8/8/8/8/8/4K3 b - - 9 99",
    // A pinned piece, a check to block, a king next to the enemy king.
    "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1",
    "4k3/8/8/8/1b6/8/8/4K1N1 w - - 0 1",
    "8/8/8/3k4/8/3K4/8/8 w - - 0 1",
];

/// Runs `exec` on `fen` and compares its output lines, sorted, with `want` (sorted).
fn check_lines(exec: &dyn Executor, fen: &str, want: Vec<String>) -> Result<(), String> {
    let out = exec.run(&format!("{fen}\n")).unwrap();
    let got = sorted_lines(&out);
    if got == want {
        Ok(())
    } else {
        let missing: Vec<&String> = want.iter().filter(|m| !got.contains(m)).collect();
        let extra: Vec<&String> = got.iter().filter(|m| !want.contains(m)).collect();
        Err(format!("{fen}: missing {missing:?}, extra {extra:?}"))
    }
}

fn check_moves(exec: &dyn Executor, fen: &str, pos: &Chess) -> Result<(), String> {
    check_lines(exec, fen, expected_moves(pos))
}

fn check_children(exec: &dyn Executor, fen: &str, pos: &Chess) -> Result<(), String> {
    check_lines(exec, fen, expected_children(pos))
}

fn all_ok(results: Vec<Result<(), String>>) {
    let failures: Vec<String> = results.into_iter().filter_map(Result::err).collect();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn legal_moves_match_shakmaty_on_perft_positions_and_their_children() {
    let exec = fast("legal-moves");
    let mut results = Vec::new();
    for (_, pos) in perft_positions() {
        results.push(check_moves(exec, &fen_of(&pos), &pos));
        for m in pos.legal_moves() {
            let mut next = pos.clone();
            next.play_unchecked(m);
            results.push(check_moves(exec, &fen_of(&next), &next));
        }
    }
    all_ok(results);
}

#[test]
fn legal_moves_match_shakmaty_on_special_positions() {
    let exec = fast("legal-moves");
    all_ok(
        SPECIAL
            .iter()
            .map(|fen| check_moves(exec, fen, &position(fen)))
            .collect(),
    );
}

#[test]
fn fen_after_every_move_matches_shakmaty() {
    let exec = fast("chess-children");
    let mut results = Vec::new();
    for (_, pos) in perft_positions() {
        results.push(check_children(exec, &fen_of(&pos), &pos));
    }
    for fen in SPECIAL {
        results.push(check_children(exec, fen, &position(fen)));
    }
    all_ok(results);
}

#[test]
fn check_and_mobility_and_fen_round_trip() {
    let exec = fast("chess-probe");
    let mut fens: Vec<String> = SPECIAL.iter().map(|s| s.to_string()).collect();
    for (_, pos) in perft_positions() {
        fens.push(fen_of(&pos));
        for m in pos.legal_moves() {
            let mut next = pos.clone();
            next.play_unchecked(m);
            fens.push(fen_of(&next));
        }
    }
    // Pins everywhere: only a pinned piece or the king could move, or nothing can.
    fens.extend(
        [
            "4k3/8/8/8/8/8/4r3/r3K3 w - - 0 1",
            "k7/8/8/8/q7/8/2P5/r2RK3 w - - 0 1",
            "4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1",
            "K7/1P6/2b5/8/8/8/8/k7 w - - 0 1",
            "K7/1P6/2q5/8/8/8/8/k7 w - - 0 1",
            "8/8/8/8/8/8/1q6/K6k w - - 0 1",
            // Stalemate only because the knight is pinned.
            "7k/8/8/8/8/8/7r/KN5r w - - 0 1",
            "kn5R/7R/8/8/8/8/8/7K b - - 0 1",
            // Stalemate only because both knights are pinned (two pins on one board).
            "r6k/8/8/8/8/2p5/N7/KN5r w - - 0 1",
            // Three pins; the bishop can still move along its pin.
            "r6k/8/8/8/3b4/8/NB6/KN5r w - - 0 1",
            // Mates whose king steps are covered by a knight, a pawn, a king, or the
            // checking rook through the king's own square.
            "R6k/7p/4N3/8/8/8/8/7K b - - 0 1",
            "R6k/7p/5P2/8/8/8/8/7K b - - 0 1",
            "R6k/5K1p/8/8/8/8/8/8 b - - 0 1",
            "R5k1/5ppp/8/8/8/8/8/7K b - - 0 1",
            // In check with a king step, a capture of the checker, or only a block.
            "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/2n5/3RK2r w - - 0 1",
        ]
        .map(str::to_string),
    );
    let mut results = Vec::new();
    for fen in fens {
        let pos = position(&fen);
        let out = exec.run(&format!("{fen}\n")).unwrap();
        let b = |x: bool| if x { "T" } else { "F" };
        let want = format!(
            "{} {} {}\n",
            b(pos.is_check()),
            b(!pos.legal_moves().is_empty()),
            fen
        );
        if out != want {
            results.push(Err(format!("got {out:?}, want {want:?}")));
        }
    }
    all_ok(results);
}

#[test]
fn several_fens_in_one_state_give_every_list() {
    let exec = fast("legal-moves");
    let a = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    let b = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
    let out = exec.run(&format!("{a}\n{b}\n{a}\n")).unwrap();
    let mut want = expected_moves(&position(a));
    want.extend(expected_moves(&position(a)));
    want.sort();
    assert_eq!(sorted_lines(&out), want);
}

#[test]
fn reference_executor_agrees_on_a_few_positions() {
    let reference = Reference::new(program("legal-moves"));
    let children = Reference::new(program("chess-children"));
    let mut results = Vec::new();
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    ] {
        let pos = position(fen);
        results.push(check_moves(&reference, fen, &pos));
        results.push(check_children(&children, fen, &pos));
    }
    all_ok(results);
}

/// A program recorded here: the API as the search uses it, `plies` deep; each leaf
/// becomes one line, the UCI texts of the moves that led to it separated by spaces.
fn perft_program(plies: usize) -> ValidProgram {
    use regex_chess_chess::board::MoveGen;
    use regex_chess_chess::fen_rules::parse_fen;
    use regex_chess_chess::movegen::fork_legal_moves;
    use regex_chess_compiler::dsl::Builder;
    let mut b = Builder::new("perft2", "one line per leaf: the moves that reach it");
    let pos = parse_fen(&mut b);
    let path = b.grouped(|b| {
        let mut path = b.str("");
        for ply in 0..plies {
            let options = MoveGen {
                uci: true,
                ..MoveGen::default()
            };
            let uci = fork_legal_moves(b, &pos, 218, options)
                .uci
                .expect("asked for uci");
            let sep = b.str(if ply == 0 { "" } else { " " });
            let tail = b.concat(&sep, &uci);
            path = b.concat(&path, &tail);
        }
        path
    });
    let name = path.var().name().to_string();
    b.rules(
        "leaf_lines",
        vec![(
            format!("%%\n#stack:\n(?:[^%\n]*\n)*?#{name}: ([^\n]*)\n[^%]*"),
            "${1}\n".to_string(),
        )],
        &[path.var()],
        &[],
    );
    compiled(b.finish())
}

/// The move sequences of `depth` plies from `pos`, by shakmaty, sorted.
fn shakmaty_paths(pos: &Chess, depth: usize) -> Vec<String> {
    if depth == 0 {
        return vec![String::new()];
    }
    let mut out = Vec::new();
    for m in pos.legal_moves() {
        let mut next = pos.clone();
        next.play_unchecked(m);
        let text = m.to_uci(CastlingMode::Standard).to_string();
        for rest in shakmaty_paths(&next, depth - 1) {
            out.push(if rest.is_empty() {
                text.clone()
            } else {
                format!("{text} {rest}")
            });
        }
    }
    out.sort();
    out
}

/// Runs the rules' perft of `depth` plies on every perft.txt position and checks the
/// leaves themselves (the move sequences that reach them, against shakmaty's) and their
/// number against the published count.
fn check_perft(depth: usize) {
    let exec = Fast::new(perft_program(depth));
    let text = include_str!("../../data/positions/perft.txt");
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let fields: Vec<&str> = line.split(';').collect();
        let want: usize = fields[depth + 1].parse().unwrap();
        let out = exec.run(&format!("{}\n", fields[1])).unwrap();
        let mut leaves: Vec<String> = out.lines().map(str::to_string).collect();
        leaves.sort();
        assert_eq!(leaves.len(), want, "perft({depth}) of {}", fields[0]);
        let expected = shakmaty_paths(&position(fields[1]), depth);
        if leaves != expected {
            let missing: Vec<&String> = expected.iter().filter(|p| !leaves.contains(p)).collect();
            let extra: Vec<&String> = leaves.iter().filter(|p| !expected.contains(p)).collect();
            panic!(
                "perft({depth}) of {}: leaves differ; missing {missing:?}, extra {extra:?}",
                fields[0]
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 7, "perft.txt has seven positions");
}

#[test]
fn two_plies_of_children_are_the_perft_2_leaves() {
    check_perft(2);
}

/// `keep_stuck`: a thread without moves stays (moved = F, empty UCI), the others become
/// their moves (moved = T), parents' blocks in input order.
#[test]
fn stuck_threads_stay_with_moved_false() {
    use regex_chess_chess::board::MoveGen;
    use regex_chess_chess::fen_rules::parse_fen;
    use regex_chess_chess::fragments::print_threads;
    use regex_chess_chess::movegen::fork_legal_moves;
    use regex_chess_compiler::dsl::Builder;
    let mut b = Builder::new("stuck", "moved flag and UCI per thread");
    let pos = parse_fen(&mut b);
    let children = fork_legal_moves(
        &mut b,
        &pos,
        218,
        MoveGen {
            uci: true,
            keep_stuck: true,
            taken: false,
        },
    );
    let (uci, moved) = (children.uci.unwrap(), children.moved.unwrap());
    print_threads(&mut b, "print", &[uci.var(), moved.var()], "${2} ${1}\n");
    let program = compiled(b.finish());
    let fens = [
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        "8/8/8/3k4/8/3K4/8/8 b - - 0 1",
    ];
    let state: String = fens.iter().map(|f| format!("{f}\n")).collect();
    let out = Fast::new(program).run(&state).unwrap();
    let mut lines = out.lines();
    for fen in fens {
        let mut want: Vec<String> = expected_moves(&position(fen))
            .into_iter()
            .map(|m| format!("T {m}"))
            .collect();
        if want.is_empty() {
            want.push("F ".to_string());
        }
        let mut got: Vec<String> = lines
            .by_ref()
            .take(want.len())
            .map(str::to_string)
            .collect();
        got.sort();
        assert_eq!(got, want, "{fen}");
    }
    assert_eq!(lines.next(), None);
}

/// perft(3) with every ply made by the rules (the children's castling rights, en-passant
/// squares and side to move feed the next generation). Full volume:
/// `cargo test --release --test chess -- core_rules:: --ignored`.
#[test]
#[ignore = "full volume: cargo test --release -- --ignored"]
fn three_plies_of_children_are_the_perft_3_leaves() {
    check_perft(3);
}

/// The capture search's generation (`fork_legal_captures`: captures, en passant
/// included, and promotions, quiet ones included) lists exactly shakmaty's legal moves
/// of that kind, with what each took in its `taken` letters, on the perft positions and
/// on playout positions rich in promotions, en passant and checks (both sides to move).
#[test]
fn capture_generation_lists_shakmatys_captures_and_promotions() {
    use regex_chess_chess::board::MoveGen;
    use regex_chess_chess::fen_rules::parse_fen;
    use regex_chess_chess::fragments::print_threads;
    use regex_chess_chess::movegen::fork_legal_captures;
    use regex_chess_compiler::dsl::Builder;
    use regex_chess_testkit::oracle::playouts;
    let mut b = Builder::new(
        "captures",
        "a line per capture: its UCI text and its letters",
    );
    let pos = parse_fen(&mut b);
    let options = MoveGen {
        uci: true,
        taken: true,
        ..MoveGen::default()
    };
    let children = fork_legal_captures(&mut b, &pos, options);
    let (uci, taken) = (children.uci.unwrap(), children.taken.unwrap());
    // The letters' line stands where `#_x` stood, before the board; the UCI line after it.
    print_threads(&mut b, "print", &[taken.var(), uci.var()], "${2} ${1}\n");
    let program = compiled(b.finish());
    let exec = Fast::new(program);
    let mut fens: Vec<String> = include_str!("../../data/positions/perft.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l.split(';').nth(1).unwrap().to_string())
        .collect();
    fens.extend(playouts::positions(43, 150).into_iter().map(|s| s.fen));
    let mut captures = 0;
    for fen in &fens {
        let chess = position(fen);
        let board = chess.board();
        let mut want: Vec<String> = chess
            .legal_moves()
            .iter()
            .filter(|m| m.is_capture() || m.is_promotion())
            .map(|m| {
                let to = m.to();
                // What stood on the target (en passant's is empty), then the mover.
                let on_target = board.piece_at(to).map_or('.', |p| p.char());
                let mover = board.piece_at(m.from().unwrap()).unwrap().char();
                let text = m.to_uci(CastlingMode::Standard).to_string();
                format!("{text} {on_target}{mover}")
            })
            .collect();
        want.sort();
        let out = exec.run(&format!("{fen}\n")).unwrap();
        let mut got: Vec<String> = out.lines().map(str::to_string).collect();
        got.sort();
        assert_eq!(got, want, "{fen}");
        captures += got.len();
    }
    assert!(captures > 500, "only {captures} captures checked");
}
