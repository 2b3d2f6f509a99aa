//! Game ends on the material FIDE names, judged by shakmaty: the dead positions of
//! insufficient material (king against king, king and bishop or king and knight against
//! king, bishops all on one colour) and their neighbours that are not dead (bishops on
//! both colours, two knights, knight against knight, bishop against knight, a pawn).
//!
//! For random legal placements of each class, either colour holding the material and
//! either side to move:
//! - the `board` program's first board ends the game exactly when shakmaty's verdict
//!   does, with its message (`oracle::judge::verdict`);
//! - the `play` program, after a random legal move typed by the player, announces
//!   shakmaty's verdict on the position after it, or after the engine's reply;
//! - every search variant's `move` program reports a status shakmaty allows for the
//!   position after its move (`insufficient-material` exactly when shakmaty says so).
//!
//! Each class also states FIDE's verdict, and shakmaty must agree with it, so the judge
//! is checked too. Plain `cargo test` runs three placements a class and colour with a
//! search variant of each family ([`volume::searches_per_family`]); an `#[ignore]`d
//! volume the same placements with the other variants' `move` programs (CI runs it in
//! release, `scripts/ci-volumes.sh`); the full volume (`cargo test --release --test chess
//! -- game_end:: --ignored`) forty with every variant.

use regex_chess_testkit::oracle;
use regex_chess_testkit::play_text;
use regex_chess_testkit::volume;

use oracle::playouts::SplitMix64;
use oracle::{judge, parallel};
use play_text::message;
use regex_chess_engine::runner::MovePicker;
use regex_chess_engine::variants::{Output, Search};
use regex_chess_engine::{self as engine, reply::Reply};
use regex_chess_machine::exec::{Executor, ExecutorKind};
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Color, File, FromSetup, Piece, Position, Rank, Setup, Square};

/// Where a class's bishops stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bishops {
    /// Anywhere (one bishop, or none).
    Anywhere,
    /// All on squares of one colour.
    OneColour,
    /// On both colours.
    BothColours,
}

/// A class of material besides the two kings: the strong side's men and the other
/// side's (FEN letters of white's), where the bishops stand, and whether FIDE calls the
/// position dead (no sequence of legal moves mates).
struct Class {
    name: &'static str,
    strong: &'static str,
    weak: &'static str,
    bishops: Bishops,
    dead: bool,
}

const CLASSES: [Class; 13] = [
    Class {
        name: "K v K",
        strong: "",
        weak: "",
        bishops: Bishops::Anywhere,
        dead: true,
    },
    Class {
        name: "KB v K",
        strong: "B",
        weak: "",
        bishops: Bishops::Anywhere,
        dead: true,
    },
    Class {
        name: "KN v K",
        strong: "N",
        weak: "",
        bishops: Bishops::Anywhere,
        dead: true,
    },
    Class {
        name: "KB v KB, bishops on one colour",
        strong: "B",
        weak: "B",
        bishops: Bishops::OneColour,
        dead: true,
    },
    Class {
        name: "KB v KB, bishops on both colours",
        strong: "B",
        weak: "B",
        bishops: Bishops::BothColours,
        dead: false,
    },
    Class {
        name: "KBB v K, bishops on one colour",
        strong: "BB",
        weak: "",
        bishops: Bishops::OneColour,
        dead: true,
    },
    Class {
        name: "KBB v KB, bishops on one colour",
        strong: "BB",
        weak: "B",
        bishops: Bishops::OneColour,
        dead: true,
    },
    Class {
        name: "KBB v K, bishops on both colours",
        strong: "BB",
        weak: "",
        bishops: Bishops::BothColours,
        dead: false,
    },
    Class {
        name: "KNN v K",
        strong: "NN",
        weak: "",
        bishops: Bishops::Anywhere,
        dead: false,
    },
    Class {
        name: "KN v KN",
        strong: "N",
        weak: "N",
        bishops: Bishops::Anywhere,
        dead: false,
    },
    Class {
        name: "KB v KN",
        strong: "B",
        weak: "N",
        bishops: Bishops::Anywhere,
        dead: false,
    },
    Class {
        name: "KBN v K",
        strong: "BN",
        weak: "",
        bishops: Bishops::Anywhere,
        dead: false,
    },
    Class {
        name: "KP v K",
        strong: "P",
        weak: "",
        bishops: Bishops::Anywhere,
        dead: false,
    },
];

/// Whether square `index` (0 = a8, row by row as a FEN writes them) is light.
fn light(index: usize) -> bool {
    let (file, rank) = (index % 8, 7 - index / 8);
    (file + rank) % 2 == 1
}

/// The FEN of a random legal placement of `class` (white the strong side when
/// `strong_white`), `white_to_move` or not, from `rng`; `None` when the draw is illegal
/// (a king in check on the side not to move, kings touching: shakmaty refuses it).
fn placement(
    class: &Class,
    strong_white: bool,
    white_to_move: bool,
    rng: &mut SplitMix64,
) -> Option<String> {
    let mut board = ['.'; 64];
    let colour = rng.below(2) == 1;
    let mut bishops = 0;
    let mut men = vec![('K', true), ('K', false)];
    men.extend(class.strong.chars().map(|c| (c, true)));
    men.extend(class.weak.chars().map(|c| (c, false)));
    for (man, strong) in men {
        let letter = if strong == strong_white {
            man
        } else {
            man.to_ascii_lowercase()
        };
        let wanted = match (man, class.bishops) {
            ('B', Bishops::OneColour) => Some(colour),
            ('B', Bishops::BothColours) => {
                bishops += 1;
                Some(colour == (bishops % 2 == 1))
            }
            _ => None,
        };
        let square = (0..200).map(|_| rng.below(64)).find(|&s| {
            let pawn_rank = man != 'P' || (8..56).contains(&s);
            board[s] == '.' && pawn_rank && wanted.is_none_or(|w| light(s) == w)
        })?;
        board[square] = letter;
    }
    let mut setup = Setup::empty();
    for (index, letter) in board.iter().enumerate() {
        if let Some(piece) = Piece::from_char(*letter) {
            let square = Square::from_coords(
                File::new((index % 8) as u32),
                Rank::new(7 - (index / 8) as u32),
            );
            setup.board.set_piece_at(square, piece);
        }
    }
    setup.turn = if white_to_move {
        Color::White
    } else {
        Color::Black
    };
    let pos = Chess::from_setup(setup, CastlingMode::Standard).ok();
    pos.map(|pos| judge::fen(&pos))
}

/// `count` placements of `class` for each colour holding the material and each side to
/// move, from a seed of the class's own.
fn placements(class: &Class, count: usize, seed: u64) -> Vec<String> {
    let mut rng =
        SplitMix64::new(seed ^ class.name.len() as u64 ^ (class.strong.len() as u64) << 8);
    let mut fens = Vec::new();
    for strong_white in [true, false] {
        for white_to_move in [true, false] {
            let mut made = 0;
            let mut tries = 0;
            while made < count {
                tries += 1;
                assert!(tries < 10_000, "{}: no legal placement", class.name);
                if let Some(fen) = placement(class, strong_white, white_to_move, &mut rng) {
                    fens.push(fen);
                    made += 1;
                }
            }
        }
    }
    fens
}

/// The programs judged: `board` and `play` (the 2-ply search's), and some variants' move
/// programs.
struct Programs {
    board: Box<dyn Executor>,
    play: Box<dyn Executor>,
    moves: Vec<(Search, MovePicker)>,
}

impl Programs {
    fn new(searches: Vec<Search>) -> Programs {
        let build = |name: &str| {
            ExecutorKind::Fast
                .build(engine::program(name).unwrap_or_else(|e| panic!("{name}: {e}")))
        };
        Programs {
            board: build("board"),
            play: build(Search::TwoPly.program(Output::Play)),
            moves: searches
                .into_iter()
                .map(|v| {
                    let picker = MovePicker::of(v, Output::Move, ExecutorKind::Fast)
                        .unwrap_or_else(|e| panic!("{}: {e}", v.name()));
                    (v, picker)
                })
                .collect(),
        }
    }
}

/// Whether the text ends the game.
fn over(text: &str) -> bool {
    text.ends_with("Game over.\n")
}

/// The side name of shakmaty's colour, as the board program reads it.
fn side(colour: Color) -> &'static str {
    match colour {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The first board's end of the game against shakmaty's verdict on `fen`.
fn check_board(board: &dyn Executor, fen: &str, pos: &Chess) -> Option<String> {
    let text = board
        .run(&format!("engine: {}\n{fen}\n", side(pos.turn())))
        .unwrap();
    let want = judge::verdict(pos, false);
    let got = if over(&text) { message(&text) } else { "" };
    (got != want).then(|| format!("board {fen}: announces {got:?}, shakmaty {want:?}"))
}

/// A random legal move typed at the `play` prompt (the engine on the other side): the
/// verdict after it, or after the engine's reply, against shakmaty's.
fn check_play(programs: &Programs, fen: &str, pos: &Chess, rng: &mut SplitMix64) -> Option<String> {
    let moves = judge::legal_uci(pos);
    if !judge::verdict(pos, false).is_empty() {
        // The first board ended the game (checked already): the prompt takes no move.
        return None;
    }
    let typed = &moves[rng.below(moves.len())];
    let first = programs
        .board
        .run(&format!("engine: {}\n{fen}\n", side(!pos.turn())))
        .unwrap();
    let text = programs.play.run(&format!("{first}{typed}\n")).unwrap();
    let said = message(&text);
    let after = judge::play(pos, typed);
    let ended = judge::verdict(&after, false);
    if !ended.is_empty() {
        return (said != ended || !over(&text))
            .then(|| format!("play {fen} {typed}: announces {said:?}, shakmaty {ended:?}"));
    }
    // The engine replied: `White plays Nf3`, or `White plays Nf3. <verdict>`.
    let Some(rest) = said.split(" plays ").nth(1) else {
        return Some(format!("play {fen} {typed}: no engine move in {said:?}"));
    };
    let (san, got) = rest.split_once(". ").unwrap_or((rest, ""));
    let reply = san
        .trim_end_matches('.')
        .parse::<SanPlus>()
        .map_err(|e| e.to_string())
        .and_then(|s| s.san.to_move(&after).map_err(|e| e.to_string()));
    let reply = match reply {
        Ok(reply) => reply,
        Err(e) => return Some(format!("play {fen} {typed}: the reply {san:?}: {e}")),
    };
    let want = judge::verdict(&judge::play_move(&after, &reply), false);
    (got != want || over(&text) == want.is_empty())
        .then(|| format!("play {fen} {typed} {san}: announces {got:?}, shakmaty {want:?}"))
}

/// Each judged variant's status after its move on `fen`, against the statuses shakmaty
/// allows.
fn check_moves(programs: &Programs, fen: &str, pos: &Chess) -> Option<String> {
    let parsed = match oracle::answer::engine_fen(fen) {
        Ok(parsed) => parsed,
        Err(e) => return Some(e),
    };
    for (variant, picker) in &programs.moves {
        let name = variant.name();
        match picker.run(&parsed) {
            Err(e) => return Some(format!("{name} {fen}: {e}")),
            Ok(Reply::NoMove(status)) => {
                let allowed = judge::allowed_statuses(pos);
                if !allowed.contains(&status.as_str()) {
                    return Some(format!(
                        "{name} {fen}: no move, {status}; shakmaty {allowed:?}"
                    ));
                }
            }
            Ok(Reply::Move(reply)) => {
                let text = reply.mv.to_string();
                if !judge::legal_uci(pos).contains(&text) {
                    return Some(format!("{name} {fen}: plays {text}, not legal"));
                }
                let allowed = judge::allowed_statuses(&judge::play(pos, &text));
                if !allowed.contains(&reply.status.as_str()) {
                    return Some(format!(
                        "{name} {fen}: after {text} the status is {}, shakmaty allows {allowed:?}",
                        reply.status
                    ));
                }
            }
        }
    }
    None
}

/// Checks `count` placements of every class and colour with `searches`' move programs,
/// and with the `board` and `play` programs when `boards` is set.
fn check_classes(count: usize, seed: u64, searches: Vec<Search>, boards: bool) {
    let programs = Programs::new(searches);
    for class in &CLASSES {
        let fens = placements(class, count, seed);
        for fen in &fens {
            let pos = judge::position(fen);
            assert_eq!(
                pos.is_insufficient_material(),
                class.dead,
                "{}: shakmaty disagrees with FIDE on {fen}",
                class.name
            );
        }
        let failures = parallel::failures(&fens, |fen| {
            let pos = judge::position(fen);
            let mut rng = SplitMix64::new(seed ^ fen.len() as u64);
            let shown = match boards {
                true => check_board(programs.board.as_ref(), fen, &pos)
                    .or_else(|| check_play(&programs, fen, &pos, &mut rng)),
                false => None,
            };
            shown.or_else(|| check_moves(&programs, fen, &pos))
        });
        parallel::assert_none(class.name, fens.len(), &failures);
    }
}

#[test]
fn the_material_fide_names_ends_the_game_as_shakmaty_says() {
    check_classes(3, 0x6a3e_0001, volume::searches_per_family(), true);
}

/// The share's placements with the other variants' `move` programs: with the share,
/// every variant on them (CI's release volumes).
#[test]
#[ignore = "volume: cargo test --release --test chess -- game_end:: --ignored"]
fn the_other_searches_end_the_game_as_shakmaty_says() {
    check_classes(3, 0x6a3e_0001, volume::other_searches(), false);
}

#[test]
#[ignore = "volume: cargo test --release --test chess -- game_end:: --ignored"]
fn the_material_fide_names_ends_the_game_as_shakmaty_says_full() {
    check_classes(40, 0x6a3e_0002, Search::ALL.to_vec(), true);
}

/// The judge is not idle: a stand-in `board` program that announces the wrong end (a
/// dead position going on, two knights drawn) is caught.
#[test]
fn a_wrong_verdict_is_caught() {
    let board = ExecutorKind::Fast.build(engine::program("board").expect("board"));
    let standing = |text: &str| {
        let rule = regex_chess_machine::program::Rule::new("(?s).+", text);
        let program = regex_chess_machine::program::Program::from_rules(vec![rule]);
        ExecutorKind::Fast.build(program.validate().expect("valid"))
    };
    for (fen, shown) in [
        ("8/8/4k3/8/8/2B5/4K3/8 w - - 0 1", "board\nYour move.\n> "),
        (
            "8/8/4k3/8/8/2NN4/4K3/8 w - - 0 1",
            "board\nDraw by insufficient material\nGame over.\n",
        ),
    ] {
        let pos = judge::position(fen);
        assert_eq!(check_board(board.as_ref(), fen, &pos), None, "{fen}");
        let error = check_board(standing(shown).as_ref(), fen, &pos).unwrap_or_default();
        assert!(error.contains("shakmaty"), "{fen}: {error:?}");
    }
}
