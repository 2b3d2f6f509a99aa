//! The `play` program reads and writes standard algebraic notation, judged by shakmaty's
//! `san` module: for every legal move of a set of positions, the move typed as shakmaty
//! writes it (and in the other forms a player types: no suffix, `0-0`, upper-case
//! coordinates) must be played, and the `Moves:` line must name it exactly as shakmaty
//! does (disambiguation, captures, promotions, `+`/`#`). The moves are typed with a
//! trailing `&` (played alone, without the engine's search); the engine's own moves are
//! checked on each position with the engine to move. An ambiguous move must name
//! shakmaty's candidates. CI runs a share of the moves on both
//! executors; `cargo test --release --test chess -- san:: --ignored` runs every move of
//! every position of `data/positions/` on both.

use play_text::{field, message};
use regex_chess_testkit::play_text;

use regex_chess_engine as engine;
use regex_chess_machine::exec::{Executor, ExecutorKind};
use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position};

/// Positions with every kind of SAN: disambiguation by file, rank and both, castling on
/// both sides, en passant, promotions with and without capture, checks and mates.
const TRICKY: &[&str] = &[
    // Knights on b3 and f3 (Nbd2/Nfd2), rooks on a1 and a5 (R1a3/R5a3), castling.
    "4k3/8/8/R7/8/1N3N2/8/R3K2R w KQ - 0 1",
    // Three queens: disambiguation by file, rank and both (Qh4e1).
    "8/8/k7/8/4Q2Q/8/8/1K5Q w - - 0 1",
    // En passant and promotions with capture and check.
    "r3k3/1P6/8/3pP3/8/8/8/4K3 w q d6 0 1",
    // Black to move: castling long, a mate in one (Qh4#: fool's mate).
    "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2",
    // Kiwipete: 48 moves of every kind.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
];

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Always).to_string()
}

struct Rules {
    board: Box<dyn Executor>,
    play: Box<dyn Executor>,
}

impl Rules {
    fn new(kind: ExecutorKind) -> Rules {
        Rules {
            board: kind.build(engine::program("board").expect("the board program")),
            play: kind.build(engine::program("play").expect("the play program")),
        }
    }

    /// The first board of `pos` with the player to move.
    fn first(&self, pos: &Chess) -> String {
        let engine = if pos.turn() == Color::White {
            "black"
        } else {
            "white"
        };
        self.board
            .run(&format!("engine: {engine}\n{}\n", fen_of(pos)))
            .unwrap()
    }
}

/// The moves of the `Moves:` line, without the move numbers.
fn moves(text: &str) -> Vec<String> {
    field(text, "Moves:")
        .split(' ')
        .filter(|w| !w.is_empty() && !w.ends_with('.'))
        .map(str::to_string)
        .collect()
}

/// The forms a player may type for `m` in `pos`.
fn typings(pos: &Chess, m: Move) -> Vec<String> {
    let san = SanPlus::from_move(pos.clone(), m).to_string();
    let plain = San::from_move(pos, m).to_string();
    let uci = m.to_uci(CastlingMode::Standard).to_string();
    let mut forms = vec![san, plain.clone(), uci.to_uppercase()];
    if plain.starts_with("O-O") {
        forms.push(plain.replace('O', "0"));
    }
    forms
}

/// Plays `m` in `pos` through the rules, typed as `typed` with a trailing `&` (the move
/// alone, no search), and checks that the player's SAN is shakmaty's.
fn check_move(rules: &Rules, pos: &Chess, m: Move, typed: &str) {
    let text = rules.first(pos);
    let next = rules.play.run(&format!("{text}{typed}&\n")).unwrap();
    let want = SanPlus::from_move(pos.clone(), m).to_string();
    let after = pos.clone().play(m).unwrap();
    assert_eq!(
        moves(&next),
        [want],
        "{} typed {typed:?}:\n{next}",
        fen_of(pos)
    );
    let over = after.legal_moves().is_empty() || after.is_insufficient_material();
    assert_eq!(next.ends_with("Game over.\n"), over, "{next}");
}

/// The engine's move in `fen` (the engine to move): named as shakmaty names it.
fn check_engine(rules: &Rules, fen: &str) {
    let pos = position(fen);
    let engine = if pos.turn() == Color::White {
        "white"
    } else {
        "black"
    };
    let text = rules
        .board
        .run(&format!("engine: {engine}\n{}\n", fen_of(&pos)))
        .unwrap();
    let next = rules.play.run(&format!("{text}\n")).unwrap();
    let said = moves(&next);
    assert_eq!(said.len(), 1, "{next}");
    let reply = &said[0];
    assert!(
        message(&next).contains(&format!(" plays {reply}")),
        "{next}"
    );
    let san: San = reply
        .trim_end_matches(['+', '#'])
        .parse()
        .unwrap_or_else(|e| panic!("the engine's {reply:?} is not SAN: {e}"));
    let played = san
        .to_move(&pos)
        .unwrap_or_else(|e| panic!("the engine's {reply} is not legal in {fen}: {e}"));
    assert_eq!(SanPlus::from_move(pos, played).to_string(), *reply, "{fen}");
}

/// Every `step`-th legal move of `fen`, in every typed form.
fn check_position(rules: &Rules, fen: &str, step: usize) {
    let pos = position(fen);
    for (i, m) in pos.legal_moves().into_iter().enumerate() {
        if i % step != 0 {
            continue;
        }
        let forms = typings(&pos, m);
        // Every form on every `step`-th move would be slow: one form each, in turn.
        let typed = &forms[i / step % forms.len()];
        check_move(rules, &pos, m, typed);
    }
}

#[test]
fn san_of_every_tricky_move_fast() {
    let rules = Rules::new(ExecutorKind::Fast);
    for fen in TRICKY {
        check_position(&rules, fen, 1);
    }
}

#[test]
fn san_share_on_the_reference() {
    let rules = Rules::new(ExecutorKind::Reference);
    for fen in TRICKY {
        check_position(&rules, fen, 5);
    }
}

#[test]
fn the_engine_names_its_moves_on_both_executors() {
    let rules = Rules::new(ExecutorKind::Fast);
    for fen in TRICKY {
        check_engine(&rules, fen);
    }
    // The reference on the positions with few pieces (its search is slower).
    let rules = Rules::new(ExecutorKind::Reference);
    for fen in &TRICKY[1..3] {
        check_engine(&rules, fen);
    }
}

#[test]
fn help_and_mistakes_keep_the_position() {
    let rules = Rules::new(ExecutorKind::Fast);
    let pos = Chess::default();
    let text = rules.first(&pos);
    assert!(
        message(&text).starts_with("New game. Type a move in SAN"),
        "{text}"
    );
    for (typed, want) in [
        (
            "help",
            "Type a move in SAN (e4, Nf3, exd5, O-O, e8=Q) or as squares (e2e4, e7e8q)",
        ),
        ("Nf4", "Illegal move Nf4, try again"),
        ("e5", "Illegal move e5, try again"),
        ("O-O", "Illegal move O-O, try again"),
        (
            "hello",
            "Malformed move 'hello'. Type a move in SAN (e4, Nf3, exd5, O-O, e8=Q) or as squares (e2e4, e7e8q)",
        ),
    ] {
        let next = rules.play.run(&format!("{text}{typed}\n")).unwrap();
        assert_eq!(message(&next), want, "{typed}");
        let board = |t: &str| t.lines().take(8).collect::<Vec<_>>().join("\n");
        assert_eq!(board(&next), board(&text), "{typed}");
        assert_eq!(
            field(&next, "History: "),
            field(&text, "History: "),
            "{typed}"
        );
        assert!(next.ends_with("Your move: "), "{typed}: {next}");
    }
}

#[test]
fn every_form_of_a_move_is_read() {
    let rules = Rules::new(ExecutorKind::Fast);
    let pos = position(TRICKY[0]);
    for uci in ["e1g1", "e1c1", "b3d2"] {
        let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        let mut forms = typings(&pos, m);
        forms.push(uci.to_string());
        for typed in forms {
            check_move(&rules, &pos, m, &typed);
        }
    }
    // A promotion typed without its piece is a queen's, in SAN as in coordinates.
    let pos = position(TRICKY[2]);
    for typed in ["b8", "b7b8", "B7B8Q", "b8=Q+", "bxa8=N", "exd6"] {
        let text = rules.first(&pos);
        let next = rules.play.run(&format!("{text}{typed}&\n")).unwrap();
        let want = match typed {
            "bxa8=N" => "bxa8=N",
            "exd6" => "exd6",
            _ => "b8=Q+",
        };
        assert_eq!(moves(&next)[0], want, "{typed}: {next}");
    }
}

#[test]
fn an_ambiguous_move_names_the_candidates() {
    let rules = Rules::new(ExecutorKind::Fast);
    for (fen, typed) in [
        (TRICKY[0], "Nd2"),
        (TRICKY[0], "Ra3"),
        (TRICKY[1], "Qe1"),
        (TRICKY[1], "Qhe1"),
    ] {
        let pos = position(fen);
        let text = rules.first(&pos);
        let next = rules.play.run(&format!("{text}{typed}\n")).unwrap();
        // shakmaty's candidates: the moves the typed SAN could mean.
        let typed_san: San = typed.parse().unwrap();
        let mut want: Vec<String> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| typed_san.matches(*m))
            .map(|m| San::from_move(&pos, m).to_string())
            .collect();
        assert!(want.len() > 1, "{typed} is ambiguous in {fen}");
        want.sort();
        let line = message(&next);
        let prefix = format!("Ambiguous move {typed}: it could be ");
        let got = line
            .strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("{typed}: {line}"));
        let mut got: Vec<String> = got.split(", ").map(str::to_string).collect();
        got.sort();
        assert_eq!(got, want, "{fen} {typed}");
        assert_eq!(field(&next, "Moves:"), "", "nothing was played");
    }
}

#[test]
fn the_move_list_numbers_the_moves() {
    let rules = Rules::new(ExecutorKind::Fast);
    // Black to move first: `2... Qh4#`, and the game is over.
    let pos = position(TRICKY[3]);
    let next = rules
        .play
        .run(&format!("{}Qh4#\n", rules.first(&pos)))
        .unwrap();
    assert_eq!(field(&next, "Moves:"), " 2... Qh4#", "{next}");
    assert!(next.ends_with("Game over.\n"));
    // White first: `1. e4 <reply>`, then `2. d4 <reply>`.
    let pos = Chess::default();
    let one = rules
        .play
        .run(&format!("{}e4\n", rules.first(&pos)))
        .unwrap();
    let two = rules.play.run(&format!("{one}d4\n")).unwrap();
    let words: Vec<&str> = field(&two, "Moves:").split(' ').collect();
    assert_eq!(words[..3], ["", "1.", "e4"], "{two}");
    assert_eq!(words[4..6], ["2.", "d4"], "{two}");
    assert_eq!(words.len(), 7, "{two}");
    // `&` after a move plays it alone; the engine answers the next (empty) line.
    let mine = rules
        .play
        .run(&format!("{}e4&\n", rules.first(&pos)))
        .unwrap();
    assert_eq!(field(&mine, "Moves:"), " 1. e4", "{mine}");
    assert!(mine.ends_with("Engine to move, press Enter: "), "{mine}");
    let theirs = rules.play.run(&format!("{mine}\n")).unwrap();
    assert_eq!(field(&theirs, "Moves:"), field(&one, "Moves:"), "{theirs}");
}

#[test]
#[ignore = "full volume: cargo test --release --test chess -- san:: --ignored"]
fn san_of_every_move_of_the_suites() {
    let suites = [
        include_str!("../../data/positions/perft.txt"),
        include_str!("../../data/positions/bench.txt"),
        include_str!("../../data/positions/openings.txt"),
    ];
    let fens: Vec<String> = suites
        .iter()
        .flat_map(|s| s.lines())
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            l.split(';')
                .find(|field| field.parse::<Fen>().is_ok() && field.contains('/'))
                .map(str::to_string)
        })
        .collect();
    for kind in [ExecutorKind::Fast, ExecutorKind::Reference] {
        let rules = Rules::new(kind);
        for fen in fens
            .iter()
            .map(String::as_str)
            .chain(TRICKY.iter().copied())
        {
            check_position(&rules, fen, 1);
        }
    }
}
