//! The unit tests of `fen`.

use super::*;

fn err(text: &str) -> String {
    text.parse::<Fen>().unwrap_err().to_string()
}

#[test]
fn round_trips_standard_positions() {
    for text in [
        START,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ] {
        assert_eq!(text.parse::<Fen>().unwrap().to_string(), text);
    }
}

#[test]
fn normalises() {
    let fen: Fen = "  rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR   w  qkQK - "
        .parse()
        .unwrap();
    assert_eq!(fen.to_string(), START);
    assert_eq!(fen.halfmoves(), 0);
    assert_eq!(fen.fullmoves(), 1);
}

#[test]
fn reads_fields() {
    let fen: Fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b Kq e3 7 12"
        .parse()
        .unwrap();
    assert_eq!(fen.turn(), Color::Black);
    assert_eq!(fen.ep_square(), Some("e3".parse().unwrap()));
    assert!(fen.castling().white_king && fen.castling().black_queen);
    assert!(!fen.castling().white_queen && !fen.castling().black_king);
    assert_eq!((fen.halfmoves(), fen.fullmoves()), (7, 12));
    let e4: Square = "e4".parse().unwrap();
    assert_eq!((e4.file(), e4.rank(), e4.index()), (4, 3, 28));
    assert_eq!(
        fen.piece_at(e4),
        Some(Piece {
            color: Color::White,
            role: Role::Pawn
        })
    );
    assert_eq!(fen.piece_at("e2".parse().unwrap()), None);
    assert_eq!(
        fen.piece_at(Square::from_index(63).unwrap())
            .unwrap()
            .char(),
        'r'
    );
}

#[test]
fn names_the_bad_field() {
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1"),
        "bad FEN: expected 6 fields (board, side to move, castling, en passant, halfmove clock, fullmove number; the last 5 may be left out), found 7"
    );
    assert_eq!(err(""), FenError::FieldCount(0).to_string());
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        "bad FEN: the board has 7 ranks, expected 8"
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/p8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        "bad FEN: rank 3 has 9 squares"
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/7/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        "bad FEN: rank 3 has 7 squares"
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/3x4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        "bad FEN: rank 4 has `x`, which is neither a piece letter (PNBRQKpnbrqk) nor a digit 1-8"
    );
    assert!(err("rnbqkbnr/pppppppp/8/8/9/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").contains("`9`"));
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1"),
        "bad FEN: white has 0 kings, expected exactly one"
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/3k4/PPPPPPPP/RNBQKBNR w KQ - 0 1"),
        "bad FEN: black has 2 kings, expected exactly one"
    );
    assert_eq!(
        err("rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1"),
        "bad FEN: white pawn on h8: no pawn can stand on rank 1 or 8"
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"),
        "bad FEN: side to move is `x`, expected `w` or `b`"
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1"),
        "bad FEN: castling field `KQkx`: `x` is not one of K, Q, k, q, or the files H, A, h, a (or `-` alone)"
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1"),
        "bad FEN: castling field `KK`: `K` appears twice"
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w K - 0 1"),
        "bad FEN: castling field `K`: right `K` needs the white king on e1 and a white rook on h1"
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1"),
        "bad FEN: en passant field `e4`: white is to move, so the square must be on rank 6"
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1"),
        "bad FEN: en passant field `z9`: not a square (a1-h8) or `-`"
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1"),
        "bad FEN: en passant field `e6`: no black pawn on e5 that could have just moved two squares"
    );
    assert_eq!(
        err("rnbqkb1r/pppp1ppp/4n3/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1"),
        "bad FEN: en passant field `e6`: e6 and e7 must be empty after a two-square pawn move"
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1"),
        "bad FEN: halfmove clock `x` is not a number from 0 to 20000"
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0"),
        "bad FEN: fullmove number `0` is not a number from 1 to 10000"
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1"),
        "bad FEN: halfmove clock `-1` is not a number from 0 to 20000"
    );
}

#[test]
fn fills_in_left_out_fields_as_python_chess_does() {
    for (text, full) in [
        ("4k3/8/8/8/8/8/8/4K2R", "4k3/8/8/8/8/8/8/4K2R w - - 0 1"),
        ("4k3/8/8/8/8/8/8/4K2R b", "4k3/8/8/8/8/8/8/4K2R b - - 0 1"),
        ("4k3/8/8/8/8/8/8/4K2R w K", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"),
        (
            "4k3/8/8/8/8/8/8/4K2R w K -",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w K - 7",
            "4k3/8/8/8/8/8/8/4K2R w K - 7 1",
        ),
    ] {
        assert_eq!(text.parse::<Fen>().unwrap().to_string(), full, "{text}");
    }
}

#[test]
fn reads_x_fen_castling_letters_of_a_standard_position() {
    let fen: Fen = "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1".parse().unwrap();
    assert_eq!(fen.to_string(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let fen: Fen = "r3k2r/8/8/8/8/8/8/R3K2R b Hq - 0 1".parse().unwrap();
    assert_eq!(fen.castling().to_string(), "Kq");
    assert_eq!(
        err("r3k2r/8/8/8/8/8/8/R3K2R w KH - 0 1"),
        "bad FEN: castling field `KH`: `K` appears twice"
    );
    assert_eq!(
        err("r3k2r/8/8/8/8/8/8/RR2K2R w B - 0 1"),
        "bad FEN: castling field `B`: `B` names a rook on the b file: Chess960 castling is not supported"
    );
    assert!(
        err("r3k2r/8/8/8/8/8/8/R3K1R1 w H - 0 1")
            .contains("needs the white king on e1 and a white rook on h1")
    );
}

#[test]
fn refuses_positions_no_game_reaches() {
    assert_eq!(
        err("QQQQkQQQ/QQQQQQQQ/8/8/8/8/8/Q3K3 w - - 0 1"),
        "bad FEN: white has 17 pieces, at most 16 are possible"
    );
    assert_eq!(
        err("4k3/8/8/8/P7/PPPPPPPP/8/4K3 w - - 0 1"),
        "bad FEN: white has 9 pawns, at most 8 are possible"
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4Q1K1 w - - 0 1"),
        "bad FEN: black is in check but it is not black's move"
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/PPPPPPPP/QQ2K3 w - - 0 1"),
        "bad FEN: white has 1 promoted pieces (beyond 2 knights, 2 bishops, 2 rooks and 1 queen), at most 0 are possible"
    );
    // Seven pawns and a second queen: one pawn promoted, fine.
    assert!(
        "4k3/8/8/8/8/8/PPPPPPP1/QQ2K3 w - - 0 1"
            .parse::<Fen>()
            .is_ok()
    );
    // The side not to move in check, by each kind of piece.
    for text in [
        "4k2R/8/8/8/8/8/8/4K3 w - - 0 1",
        "R3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/1B6/8/8/8/4K3 w - - 0 1",
        "4k3/8/3N4/8/8/8/8/4K3 w - - 0 1",
        "4k3/3P4/8/8/8/8/8/4K3 w - - 0 1",
        "8/8/8/8/8/8/5p2/4K2k b - - 0 1",
        "8/8/8/8/8/8/8/3kK3 w - - 0 1",
        "8/8/8/8/8/8/4q3/4K2k b - - 0 1",
    ] {
        let error = err(text);
        assert!(
            error.contains("is in check but it is not"),
            "{text}: {error}"
        );
    }
    // In check with the move, or with the attack blocked: fine.
    for text in [
        "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
        "8/8/8/8/8/8/4p3/4K2k w - - 0 1",
        "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1",
        "4k3/4n3/8/8/8/8/8/4R2K w - - 0 1",
        "4k3/8/8/8/8/8/3P4/4K3 b - - 0 1",
    ] {
        assert!(text.parse::<Fen>().is_ok(), "{text}");
    }
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 w - - 0 4294967295"),
        "bad FEN: fullmove number `4294967295` is not a number from 1 to 10000"
    );
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - - 20001 80").contains("halfmove clock `20001`"));
    for past_the_75_move_rule in ["151 80", "20000 10000"] {
        let text = format!("4k3/8/8/8/8/8/8/4K3 w - - {past_the_75_move_rule}");
        assert!(text.parse::<Fen>().is_ok(), "{text}");
    }
}

proptest::proptest! {
    /// The check test agrees with shakmaty's attack maps on random boards.
    #[test]
    fn the_check_test_agrees_with_shakmaty(
        squares in proptest::collection::vec((0usize..64, 0usize..12), 2..12),
    ) {
        let mut board = [None; 64];
        for (square, letter) in squares {
            board[square] = Piece::from_char(b"PNBRQKpnbrqk"[letter] as char);
        }
        let fen = Fen {
            board,
            turn: Color::White,
            castling: Castling::default(),
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        };
        let text = fen.board_text();
        let theirs: shakmaty::Board = text.parse().unwrap();
        for color in [Color::White, Color::Black] {
            let (ours, enemy) = match color {
                Color::White => (shakmaty::Color::White, shakmaty::Color::Black),
                Color::Black => (shakmaty::Color::Black, shakmaty::Color::White),
            };
            let attacked = theirs
                .king_of(ours)
                .is_some_and(|k| theirs.attacks_to(k, enemy, theirs.occupied()).any());
            // With two kings of a side, ours looks at the first only; skip those.
            let kings = board.iter().flatten().filter(|p| p.role == Role::King && p.color == color).count();
            if kings == 1 {
                proptest::prop_assert_eq!(in_check(&board, color), attacked, "{} {:?}", text, color);
            }
        }
    }
}

/// Valid FENs to mutate.
const BASES: [&str; 4] = [
    START,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

/// The characters FENs are made of, and a few others.
const ALPHABET: &str = "pnbrqkPNBRQK0123456789/ wb-acdefghx";

/// Parsing never panics, and what parses prints a FEN that parses to the same value
/// and prints the same again.
fn check_normalisation(text: &str) -> Result<(), proptest::test_runner::TestCaseError> {
    if let Ok(fen) = text.parse::<Fen>() {
        let printed = fen.to_string();
        let again: Fen = printed
            .parse()
            .map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{printed}: {e}")))?;
        proptest::prop_assert_eq!(&again, &fen);
        proptest::prop_assert_eq!(again.to_string(), printed);
    }
    Ok(())
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config {
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed_fe11),
        ..proptest::test_runner::Config::default()
    })]
    #[test]
    fn random_texts_never_panic(text in "[pnbrqkPNBRQK0-9/ wb\\-KQkqa-h]{0,90}") {
        check_normalisation(&text)?;
    }

    #[test]
    fn mutated_fens_never_panic_and_normalise(
        base in 0..BASES.len(),
        edits in proptest::collection::vec((0usize..100, 0usize..ALPHABET.len(), 0u8..3), 1..4),
    ) {
        let mut chars: Vec<char> = BASES[base].chars().collect();
        let letters: Vec<char> = ALPHABET.chars().collect();
        for (at, letter, kind) in edits {
            let at = at % (chars.len() + 1);
            match kind {
                0 if at < chars.len() => chars[at] = letters[letter],
                1 => chars.insert(at, letters[letter]),
                _ if at < chars.len() => {
                    chars.remove(at);
                }
                _ => {}
            }
        }
        check_normalisation(&chars.into_iter().collect::<String>())?;
    }
}

#[test]
fn squares_parse_and_print() {
    for index in 0..64 {
        let square = Square::from_index(index).unwrap();
        assert_eq!(square.to_string().parse::<Square>(), Ok(square));
    }
    assert_eq!("a1".parse::<Square>().unwrap().index(), 0);
    assert_eq!("h8".parse::<Square>().unwrap().index(), 63);
    assert!("i1".parse::<Square>().is_err());
    assert!("a0".parse::<Square>().is_err());
    assert!("a".parse::<Square>().is_err());
    assert_eq!(Square::from_index(64), None);
    assert_eq!("e2".parse::<Square>().unwrap().up(2), "e4".parse().ok());
    assert_eq!("e8".parse::<Square>().unwrap().up(1), None);
}
