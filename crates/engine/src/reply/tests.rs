//! The unit tests of `reply`.

use super::*;

fn texts(moves: &[UciMove]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

#[test]
fn reads_legal_moves() {
    assert_eq!(parse_legal_output(""), Ok(vec![]));
    let moves = parse_legal_output("e2e4\na7a8q\nb1c3\n").unwrap();
    assert_eq!(texts(&moves), ["a7a8q", "b1c3", "e2e4"]);
}

#[test]
fn refuses_malformed_legal_moves() {
    for (state, problem) in [
        ("e2e4", "newline"),
        ("e2e4\n\n", "``"),
        ("e2e4\ne2e5x\n", "e2e5x"),
        ("e2e4\nb1c3\ne2e4\n", "e2e4 is listed twice"),
        ("\n", "``"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1\n", "not a move"),
    ] {
        let error = parse_legal_output(state).unwrap_err().0;
        assert!(error.contains(problem), "{state:?}: {error}");
    }
}

#[test]
fn reads_a_move() {
    let reply = parse_move_output(
        "move e2e4\nfen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\nstatus ongoing\n",
    )
    .unwrap();
    let Reply::Move(reply) = reply else {
        panic!("expected a move, got {reply:?}")
    };
    assert_eq!(reply.mv.to_string(), "e2e4");
    assert_eq!(
        reply.fen_after.to_string(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
    assert_eq!(reply.status, Status::Ongoing);
    assert_eq!(
        parse_move_output("status checkmate\n"),
        Ok(Reply::NoMove(Status::Checkmate))
    );
    assert_eq!(
        parse_move_output("status stalemate\n"),
        Ok(Reply::NoMove(Status::Stalemate))
    );
    for status in [
        "checkmate",
        "stalemate",
        "fifty-move",
        "insufficient-material",
    ] {
        let state = format!("move a1a2\nfen 4k3/8/8/8/8/8/K7/8 b - - 1 1\nstatus {status}\n");
        let Ok(Reply::Move(reply)) = parse_move_output(&state) else {
            panic!("{state:?}")
        };
        assert_eq!(reply.status.as_str(), status);
    }
}

#[test]
fn reads_a_search_report() {
    let head = "move e2e4\nfen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\nstatus ongoing\n";
    let state = format!("{head}score cp -35\ndepth 2\nnodes 420\npv e2e4 e7e5\n");
    let Ok(Reply::Move(reply)) = parse_move_output(&state) else {
        panic!("{state:?}")
    };
    assert_eq!(reply.score, Some(Score::Cp(-35)));
    assert_eq!(reply.depth, Some(2));
    assert_eq!(reply.nodes, Some(420));
    assert_eq!(texts(&reply.pv), ["e2e4", "e7e5"]);
    for (lines, score) in [
        ("score mate 1\n", Score::Mate(1)),
        ("score mate -2\n", Score::Mate(-2)),
    ] {
        let Ok(Reply::Move(reply)) = parse_move_output(&format!("{head}{lines}")) else {
            panic!("{lines:?}")
        };
        assert_eq!(
            (reply.score, reply.depth, reply.pv.len()),
            (Some(score), None, 0)
        );
        assert_eq!(score.to_string(), lines["score ".len()..].trim_end());
    }
    let Ok(Reply::Move(reply)) = parse_move_output(&format!("{head}pv e2e4\n")) else {
        panic!("a lone pv")
    };
    assert_eq!(
        (reply.score, texts(&reply.pv)),
        (None, vec!["e2e4".to_string()])
    );
}

#[test]
fn refuses_malformed_reports() {
    let head = "move e2e4\nfen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\nstatus ongoing\n";
    for (report, problem) in [
        ("score 12\n", "not `cp <int>`"),
        ("score cp x\n", "no integer"),
        ("score mate 0\n", "not `cp <int>`"),
        ("depth -1\n", "not a non-negative integer"),
        ("nodes many\n", "node count"),
        ("pv e7e5 e2e4\n", "does not start with the move"),
        ("pv e2e4 e7e9\n", "e7e9"),
        ("depth 2\nscore cp 1\n", "unexpected line"),
        ("depth 2\ndepth 2\n", "unexpected line"),
        ("eval 3\n", "unexpected line"),
        ("nodes\n", "<key> <value>"),
    ] {
        let error = parse_move_output(&format!("{head}{report}")).unwrap_err().0;
        assert!(error.contains(problem), "{report:?}: {error}");
    }
    let long = format!("{head}score cp 1\ndepth 2\nnodes 3\npv e2e4\npv e2e4\n");
    assert!(
        parse_move_output(&long)
            .unwrap_err()
            .0
            .contains("unexpected line")
    );
    for (ranking, problem) in [
        ("multipv 2 score cp 1 pv e2e4\n", "expected `multipv 1"),
        ("multipv 1 score cp 1\n", "expected `multipv 1"),
        ("multipv 1 score cp x pv e2e4\n", "no integer"),
        ("multipv 1 score cp 1 pv e2e9\n", "e2e9"),
        ("multipv 1 score cp 1 pv e2e4\nscore cp 1\n", "`multipv 2"),
    ] {
        let error = parse_move_output(&format!("{head}pv e2e4\n{ranking}"))
            .unwrap_err()
            .0;
        assert!(error.contains(problem), "{ranking:?}: {error}");
    }
}

#[test]
fn reads_the_ranking_lines() {
    let head = "move e2e4\nfen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\nstatus ongoing\n";
    let state = format!(
        "{head}score cp 5\npv e2e4 e7e5\nmultipv 1 score cp 5 pv e2e4 e7e5\nmultipv 2 score mate -1 pv g2g4\n"
    );
    let Ok(Reply::Move(reply)) = parse_move_output(&state) else {
        panic!("a ranking")
    };
    assert_eq!(reply.score, Some(Score::Cp(5)));
    let ranked: Vec<(Score, Vec<String>)> = reply
        .multipv
        .iter()
        .map(|r| (r.score, texts(&r.pv)))
        .collect();
    assert_eq!(
        ranked,
        [
            (Score::Cp(5), vec!["e2e4".to_string(), "e7e5".to_string()]),
            (Score::Mate(-1), vec!["g2g4".to_string()])
        ]
    );
}

#[test]
fn refuses_malformed_moves() {
    let fen = "fen 4k3/8/8/8/8/8/K7/8 b - - 1 1";
    for (state, problem) in [
        (String::new(), "newline"),
        (
            "status ongoing\n".to_string(),
            "no move, but the status is `ongoing`",
        ),
        ("status draw\n".to_string(), "unknown status `draw`"),
        ("move a1a2\n".to_string(), "expected a line `status ...`"),
        (
            format!("move a1a2\n{fen}\n"),
            "expected 1 or at least 3 lines, found 2",
        ),
        (format!("move a1a2\n{fen}\nstatus ongoing"), "newline"),
        (format!("move a1a9\n{fen}\nstatus ongoing\n"), "a1a9"),
        (format!("mv a1a2\n{fen}\nstatus ongoing\n"), "`move ...`"),
        (
            format!("move a1a2\n{fen}\nstatus  ongoing\n"),
            "unknown status ` ongoing`",
        ),
        (
            "move a1a2\nfen 4k3/8/8/8/8/8/K7/8 b - -\nstatus ongoing\n".to_string(),
            "normalised",
        ),
        (
            "move a1a2\nfen 4k3/8/8/8/8/8/8/8 b - - 1 1\nstatus ongoing\n".to_string(),
            "white has 0 kings",
        ),
        (format!("status ongoing\n{fen}\nmove a1a2\n"), "`move ...`"),
    ] {
        let error = parse_move_output(&state).unwrap_err().0;
        assert!(error.contains(problem), "{state:?}: {error}");
    }
}
