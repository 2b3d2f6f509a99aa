//! The session's protocol on stand-in engines: options, positions, held and cut
//! searches, and the planted panics of every command's path.

use std::num::NonZeroUsize;

use super::*;
use crate::reply::{Reply, Status};
use crate::uci::EngineError;
use crate::uci::guard::{self, Point};

/// The engine of a build without the chess rules: every question is an error.
struct Missing;

impl Engine for Missing {
    fn prepare(&self) -> Result<(), EngineError> {
        Err(EngineError("the rules are not registered".to_string()))
    }
    fn apply(&self, _: &Fen, _: UciMove) -> Result<Option<Fen>, EngineError> {
        self.prepare().map(|()| None)
    }
    fn think_with(&self, _: &Fen, _: Search) -> Result<Thought, EngineError> {
        Err(self.prepare().unwrap_err())
    }
}

fn session() -> Session {
    Session::new(|_| Box::new(Missing))
}

/// An engine whose searches and move generation panic (what a helper core's panic,
/// raised again on the session's thread, looks like).
struct Panics;

impl Engine for Panics {
    fn apply(&self, _: &Fen, _: UciMove) -> Result<Option<Fen>, EngineError> {
        Ok(None)
    }
    fn think_with(&self, _: &Fen, _: Search) -> Result<Thought, EngineError> {
        panic!("planted in the search");
    }
    fn children(&self, _: &Fen) -> Result<Vec<(UciMove, Fen)>, EngineError> {
        panic!("planted in perft");
    }
}

#[test]
fn a_panic_in_the_engine_is_an_error_line_and_the_session_goes_on() {
    let mut session = Session::new(|_| Box::new(Panics));
    session.handle("position startpos");
    let out = session.handle("go depth 1");
    assert!(
        out.contains(&"info string error: the engine panicked: planted in the search".into()),
        "{out:?}"
    );
    assert_eq!(out.last().map(String::as_str), Some("bestmove (none)"));
    // A held search answers when stopped.
    assert!(
        !session
            .handle("go infinite")
            .contains(&"bestmove (none)".into())
    );
    assert_eq!(session.handle("stop"), ["bestmove (none)"]);
    let out = session.handle("go perft 1");
    assert_eq!(
        out,
        ["info string perft: error: the engine panicked: planted in perft"]
    );
    let out = session.handle("bench");
    assert!(
        out.contains(
            &"info string bench: error: the engine panicked: planted in the search".into()
        ),
        "{out:?}"
    );
    assert_eq!(session.handle("isready"), ["readyok"]);
}

/// The `Search` option's values after `auto`, as the `uci` answer lists them.
fn vars() -> String {
    Search::names()
        .iter()
        .map(|n| format!(" var {n}"))
        .collect()
}

#[test]
fn identifies_itself_with_its_options() {
    let out = session().handle("uci");
    assert_eq!(
        out,
        [
            "id name regex-chess",
            "id author the regex-chess developers",
            "option name Executor type combo default fast var fast var reference",
            "option name Move Overhead type spin default 30 min 0 max 5000",
            "option name Threads type spin default 1 min 1 max 1024",
            "option name Hash type spin default 16 min 1 max 33554432",
            "option name MultiPV type spin default 1 min 1 max 5",
            "option name Ponder type check default false",
            &format!(
                "option name Search type combo default auto var auto{}",
                vars()
            ),
            "uciok"
        ]
    );
}

#[test]
fn the_search_option_fixes_the_variant_or_lets_the_limits_choose() {
    let mut s = session();
    assert_eq!(s.fixed_search(), None);
    assert!(s.handle("setoption name Search value 2ply-q").is_empty());
    assert_eq!(s.fixed_search().map(|v| v.name()), Some("2ply-q"));
    let out = s.handle("go depth 1");
    assert_eq!(out[0], "info string option Search: variant 2ply-q");
    for bad in ["setoption name Search value 9ply", "setoption name Search"] {
        let out = s.handle(bad);
        assert_eq!(
            out,
            [format!(
                "info string option Search unchanged: expected auto or one of {}",
                Search::names().join(", ")
            )]
        );
        assert_eq!(s.fixed_search().map(|v| v.name()), Some("2ply-q"));
    }
    assert!(s.handle("setoption name search value AUTO").is_empty());
    assert_eq!(s.fixed_search(), None);
    let out = s.handle("go depth 1");
    assert!(
        out[0].starts_with("info string depth 1: variant "),
        "{out:?}"
    );
    // Set at start (`uci --search`): the option's default says so.
    let out = session()
        .with_search("2ply".parse::<Search>().ok())
        .handle("uci");
    assert!(
        out.contains(&format!(
            "option name Search type combo default 2ply var auto{}",
            vars()
        )),
        "{out:?}"
    );
}

#[test]
fn spin_options_are_stored_and_checked() {
    let mut s = session();
    assert!(s.handle("setoption name Threads value 2").is_empty());
    assert!(s.handle("setoption name hash value 256").is_empty());
    assert!(
        s.handle("setoption name Move Overhead value 100")
            .is_empty()
    );
    assert!(s.handle("setoption name Ponder value true").is_empty());
    assert_eq!(
        (s.spin("threads"), s.spin("Hash"), s.spin("Move Overhead")),
        (Some(2), Some(256), Some(100))
    );
    for line in [
        "setoption name Threads value 0",
        "setoption name Hash value lots",
        "setoption name Move Overhead",
        "setoption name Ponder value maybe",
    ] {
        let out = s.handle(line);
        assert_eq!(out.len(), 1, "{line}: {out:?}");
        assert!(out[0].starts_with("info string option "), "{out:?}");
    }
    assert_eq!(s.spin("Threads"), Some(2));
}

#[test]
fn errors_of_a_missing_engine_are_info_strings() {
    let mut s = session();
    assert_eq!(
        s.handle("isready"),
        ["info string error: the rules are not registered", "readyok"]
    );
    let out = s.handle("go wtime 1000 btime 1000");
    assert_eq!(out.last().unwrap(), "bestmove (none)");
    assert!(out.iter().any(|l| l.contains("not registered")));
    // The start position needs no rules; a move does, and fails: the prefix (no
    // move) is kept.
    assert!(s.handle("position startpos").is_empty());
    let out = s.handle("position startpos moves e2e4");
    assert_eq!(out.len(), 1);
    assert!(
        out[0].starts_with("info string position: kept the first 0 of 1 moves"),
        "{out:?}"
    );
    assert!(out[0].contains("error applying e2e4"), "{out:?}");
    assert_eq!(s.position(), Some(&Fen::start()));
}

#[test]
fn malformed_lines_are_ignored_with_a_note() {
    let mut s = session();
    for line in [
        "hello",
        "position",
        "position sideways",
        "position fen",
        "position fen 8/8/8/8 w - - 0 1",
        "position startpos moves e2e9",
        "position startpos extra moves e2e4",
        "setoption",
        "setoption name Colour value 16",
        "setoption name Executor value quick",
        "setoption name Executor",
        "\u{0}\u{7f}é",
    ] {
        let out = s.handle(line);
        assert_eq!(out.len(), 1, "{line:?}: {out:?}");
        assert!(out[0].starts_with("info string "), "{line:?}: {out:?}");
    }
    assert_eq!(s.executor(), ExecutorKind::Fast);
    assert!(s.handle("").is_empty());
    assert!(s.handle("   ").is_empty());
    assert!(s.handle("debug on").is_empty());
    assert!(!s.is_done());
    let long = "x".repeat(10_000);
    assert!(s.handle(&long)[0].len() < 300);
}

#[test]
fn a_refused_position_leaves_none_until_the_next() {
    let mut s = session();
    let out = s.handle("position fen 8/8/8/8 w - - 0 1");
    assert!(out[0].contains("no position is set"), "{out:?}");
    assert_eq!(s.position(), None);
    let out = s.handle("go movetime 10");
    assert!(
        out[0].starts_with("info string no position to search"),
        "{out:?}"
    );
    assert_eq!(out.last().unwrap(), "bestmove (none)");
    assert!(s.handle("position startpos").is_empty());
    assert_eq!(s.position(), Some(&Fen::start()));
    s.handle("position sideways");
    s.handle("ucinewgame");
    assert_eq!(s.position(), Some(&Fen::start()));
}

#[test]
fn the_executor_option_rebuilds_the_engine() {
    use std::sync::{Arc, Mutex};
    let built = Arc::new(Mutex::new(Vec::new()));
    let log = built.clone();
    let mut s = Session::new(move |choice| {
        log.lock().unwrap().push(choice);
        Box::new(Missing)
    });
    assert!(
        s.handle("setoption name Executor value reference")
            .is_empty()
    );
    assert_eq!(s.executor(), ExecutorKind::Reference);
    assert!(
        s.handle("setoption name executor value reference")
            .is_empty()
    );
    assert!(s.handle("setoption name Executor value fast").is_empty());
    // `Threads` rebuilds it on that many cores; the same value again does not.
    assert!(s.handle("setoption name Threads value 2").is_empty());
    assert!(s.handle("setoption name threads value 2").is_empty());
    assert_eq!(
        s.choice(),
        Choice::new(ExecutorKind::Fast, NonZeroUsize::new(2).unwrap())
    );
    assert!(s.handle("setoption name Threads value 0").len() == 1);
    assert_eq!(
        *built.lock().unwrap(),
        [
            Choice::from(ExecutorKind::Fast),
            Choice::from(ExecutorKind::Reference),
            Choice::from(ExecutorKind::Fast),
            Choice::new(ExecutorKind::Fast, NonZeroUsize::new(2).unwrap()),
        ]
    );
}

#[test]
fn a_held_bestmove_is_printed_exactly_once() {
    let mut s = session();
    let out = s.handle("go infinite");
    assert!(out.iter().all(|l| !l.starts_with("bestmove")), "{out:?}");
    assert!(s.handle("isready").ends_with(&["readyok".to_string()]));
    assert!(s.handle("position startpos").is_empty());
    assert_eq!(s.handle("stop"), ["bestmove (none)"]);
    assert!(s.handle("stop").is_empty());
    s.handle("go ponder wtime 5");
    assert_eq!(s.handle("ponderhit"), ["bestmove (none)"]);
    for ender in ["ucinewgame", "quit"] {
        s.handle("go infinite");
        assert_eq!(s.handle(ender), ["bestmove (none)"], "{ender}");
        assert!(s.handle("stop").is_empty());
    }
    // Another `go`: the held answer comes first, then the new one's.
    s.handle("go infinite");
    let out = s.handle("go movetime 5");
    let best: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 2, "{out:?}");
    assert_eq!(out[0], "bestmove (none)");
    // The end of the input.
    s.handle("go infinite");
    assert_eq!(s.finish(), ["bestmove (none)"]);
    assert!(s.finish().is_empty());
}

#[test]
fn go_reads_every_parameter_and_notes_the_bad_ones() {
    let mut s = session();
    let out = s.handle(
        "go wtime 300000 btime 300000 winc 0 binc 0 movestogo 40 depth 5 nodes 9 mate 2 movetime 100 searchmoves e2e4 d2d4 e2e9",
    );
    assert_eq!(
        out[0],
        "info string not supported, ignored (the search is chosen by depth or time only): nodes 9 mate 2"
    );
    assert!(out[1].starts_with("info string searchmoves: "), "{out:?}");
    assert!(out[1].ends_with("; ignored"), "{out:?}");
    assert!(
        out[2].starts_with("info string depth 5: variant "),
        "{out:?}"
    );
    assert_eq!(out.last().unwrap(), "bestmove (none)");
    let out = s.handle("go depth x bogus");
    assert!(out[0].contains("`depth` needs a number"), "{out:?}");
    assert!(out[1].contains("unknown parameter `bogus`"), "{out:?}");
    assert_eq!(out.last().unwrap(), "bestmove (none)");
    let out = s.handle("go wtime -50 btime 100");
    assert!(out[0].starts_with("info string budget 0 ms"), "{out:?}");
}

/// An engine whose search is cut whenever asked: `a2a3` from the cheapest variant,
/// `g2g4` from the variants the clock does not choose by itself (it runs them after
/// another), `h2h3` from the others.
struct Cuttable;

impl Engine for Cuttable {
    fn apply(&self, _: &Fen, _: UciMove) -> Result<Option<Fen>, EngineError> {
        Ok(None)
    }
    fn think_with(&self, _: &Fen, variant: Search) -> Result<Thought, EngineError> {
        let order = clock::strength_order();
        let mv = if variant == order[0] {
            "a2a3"
        } else if !variant.by_clock() {
            "g2g4"
        } else {
            "h2h3"
        };
        let reply =
            crate::reply::MoveReply::new(mv.parse().unwrap(), Fen::start(), Status::Ongoing);
        Ok(Thought {
            reply: Reply::Move(reply),
            report: Default::default(),
        })
    }
    fn think_until(
        &self,
        fen: &Fen,
        _: &RulesInput,
        variant: Search,
        _: bool,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<Thought>, EngineError> {
        match stop() {
            true => Ok(None),
            false => self.think_with(fen, variant).map(Some),
        }
    }
}

#[test]
fn a_cut_held_search_answers_with_the_cheapest_variant() {
    let mut s = Session::new(|_| Box::new(Cuttable));
    let cut = || true;
    let out = s.handle_until("go infinite", &cut);
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string search stopped: variant 2ply answers")),
        "{out:?}"
    );
    assert!(out.iter().all(|l| !l.starts_with("bestmove")), "{out:?}");
    assert_eq!(s.handle("stop"), ["bestmove a2a3"]);
    // Not cut: the chosen variant answers.
    let out = s.handle_until("go infinite", &|| false);
    assert!(out.iter().all(|l| !l.contains("stopped")), "{out:?}");
    assert_eq!(s.handle("stop"), ["bestmove h2h3"]);
    // A search that is not held is never cut.
    let out = s.handle_until("go depth 2", &cut);
    assert_eq!(out.last().unwrap(), "bestmove h2h3", "{out:?}");
    assert!(out.iter().all(|l| !l.contains("stopped")), "{out:?}");
}

#[test]
fn an_ample_clock_tries_a_deeper_variant_and_cuts_it_at_need() {
    let mut s = Session::new(|_| Box::new(Cuttable));
    let cut = || true;
    // Nothing measured yet: the cheapest variant alone, never cut.
    let out = s.handle_until("go movetime 60000", &cut);
    assert!(out.iter().all(|l| !l.contains("then")), "{out:?}");
    assert_eq!(out.last().unwrap(), "bestmove a2a3", "{out:?}");
    // Measured (the fake engine takes no time), the strongest variant too dear: the
    // strongest that fits, then a stronger one the clock does not choose by itself,
    // cut here by the GUI.
    let strongest = *clock::strength_order().last().unwrap();
    s.costs.record(strongest, 1e9);
    let chosen = s.costs.choose(60_000 - DEFAULT_OVERHEAD);
    let deeper = s.costs.deeper(chosen, 60_000 - DEFAULT_OVERHEAD).unwrap();
    let out = s.handle_until("go movetime 60000", &cut);
    let said = format!(", then {} until the budget ends", deeper.name());
    assert!(out[0].ends_with(&said), "{out:?}");
    let stopped = format!(
        "info string search stopped: variant {} answers, {} was cut",
        chosen.name(),
        deeper.name()
    );
    assert!(out.contains(&stopped), "{out:?}");
    assert_eq!(out.last().unwrap(), "bestmove h2h3", "{out:?}");
    // Not cut: the deeper variant answers.
    let out = s.handle_until("go wtime 60000 btime 60000", &|| false);
    assert!(out[0].ends_with(&said), "{out:?}");
    assert_eq!(out.last().unwrap(), "bestmove g2g4", "{out:?}");
    // A budget of nothing: no deeper variant.
    let out = s.handle_until("go movetime 0", &cut);
    assert!(out.iter().all(|l| !l.contains("then")), "{out:?}");
}

#[test]
fn the_lines_that_cut_a_search() {
    for line in ["stop", "go infinite", "ucinewgame", "quit\n", "bench"] {
        assert!(cuts_a_search(line), "{line}");
    }
    for line in ["ponderhit", "isready", "position startpos", "", "stopp"] {
        assert!(!cuts_a_search(line), "{line}");
    }
}

#[test]
fn quit_ends_the_session() {
    let mut s = session();
    assert!(s.handle("quit").is_empty());
    assert!(s.is_done());
}

/// Runs `lines` on a session of the [`Cuttable`] engine with a panic planted at `point`,
/// then clears it; the lines each `handle` printed.
fn with_planted(point: Point, lines: &[&str]) -> (Session, Vec<Vec<String>>) {
    let mut s = Session::new(|_| Box::new(Cuttable));
    let mut outs = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        // The panic is planted for the last line only.
        guard::set_planted((i + 1 == lines.len()).then_some(point));
        outs.push(s.handle_until(line, &|| true));
    }
    guard::set_planted(None);
    (s, outs)
}

/// True when `out` says the command panicked at `point`.
fn says_panicked(out: &[String], point: Point) -> bool {
    out.iter().any(|l| {
        l.starts_with("info string error: ") && l.contains(&format!("planted at {point:?}"))
    })
}

#[test]
fn a_panic_planted_in_each_command_s_path_is_an_error_line_and_the_session_goes_on() {
    let cases: [(Point, &[&str], bool); 9] = [
        (Point::Parse, &["go depth 2"], false),
        (Point::Uci, &["uci"], false),
        (Point::IsReady, &["isready"], false),
        (Point::NewGame, &["ucinewgame"], false),
        (Point::SetOption, &["setoption name Hash value 32"], false),
        (Point::Position, &["position startpos moves e2e4"], false),
        (Point::Go, &["go movetime 100"], true),
        (Point::Bench, &["bench"], false),
        (Point::Stop, &["go infinite", "stop"], true),
    ];
    for (point, lines, owes_a_move) in cases {
        let (mut s, outs) = with_planted(point, lines);
        let out = outs.last().unwrap();
        assert!(says_panicked(out, point), "{point:?}: {out:?}");
        let bestmoves = out.iter().filter(|l| l.starts_with("bestmove")).count();
        assert_eq!(bestmoves, usize::from(owes_a_move), "{point:?}: {out:?}");
        // The session goes on: it answers, and searches.
        assert_eq!(s.handle("isready"), ["readyok"], "{point:?}");
        assert!(s.handle("position startpos").is_empty(), "{point:?}");
        let out = s.handle("go depth 2");
        assert!(
            out.last().unwrap().starts_with("bestmove "),
            "{point:?}: {out:?}"
        );
        assert!(!s.is_done());
    }
}

#[test]
fn a_panic_mid_search_answers_the_pending_go_once() {
    // A held search asking whether to stop panics: its `go` holds `bestmove (none)`,
    // which the `stop` prints, once.
    let (mut s, outs) = with_planted(Point::Cut, &["go infinite"]);
    let out = &outs[0];
    assert!(says_panicked(out, Point::Cut), "{out:?}");
    assert!(out.iter().all(|l| !l.starts_with("bestmove")), "{out:?}");
    assert_eq!(s.handle("stop"), ["bestmove (none)"]);
    assert!(s.handle("stop").is_empty());
    // A panic in `quit` while a search is held: the held answer, the error, the end.
    let (s, outs) = with_planted(Point::Quit, &["go infinite", "quit"]);
    let out = &outs[1];
    assert_eq!(out[0], "bestmove a2a3", "{out:?}");
    assert!(says_panicked(out, Point::Quit), "{out:?}");
    assert!(s.is_done());
}

/// An engine whose searches, but the cheapest variant's, run until asked to stop (at
/// most two seconds): `a2a3` from the cheapest, `h2h3` from the others.
struct Slow;

impl Engine for Slow {
    fn apply(&self, _: &Fen, _: UciMove) -> Result<Option<Fen>, EngineError> {
        Ok(None)
    }
    fn think_with(&self, fen: &Fen, variant: Search) -> Result<Thought, EngineError> {
        Cuttable.think_with(fen, variant)
    }
    fn think_until(
        &self,
        fen: &Fen,
        _: &RulesInput,
        variant: Search,
        _: bool,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<Thought>, EngineError> {
        if variant != clock::cheapest() {
            let started = Instant::now();
            while started.elapsed() < std::time::Duration::from_secs(2) {
                if stop() {
                    return Ok(None);
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
        self.think_with(fen, variant).map(Some)
    }
}

#[test]
fn a_search_past_the_hard_limit_is_cut_and_the_cheapest_variant_answers() {
    let mut s = Session::new(|_| Box::new(Slow));
    // Measured cheap (as on an idle machine): the strongest variant the clock chooses.
    for v in Search::ALL {
        s.costs.record(v, 1.0);
    }
    let before = s.costs.choose(30);
    let started = Instant::now();
    let out = s.handle("go movetime 80");
    let took = started.elapsed();
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string clock: variant ")
                && l.contains("cut at the hard limit")),
        "{out:?}"
    );
    assert_eq!(out.last().unwrap(), "bestmove a2a3", "{out:?}");
    // Not the two seconds the search would have taken.
    assert!(took < std::time::Duration::from_millis(1_500), "{took:?}");
    // The time it ran is now its cost: the next budget of that size chooses cheaper.
    assert_ne!(s.costs.choose(30), before);
    // The cheapest variant itself is never cut, and `go depth` has no limit.
    let out = s.handle("go depth 2");
    assert!(out.iter().all(|l| !l.contains("hard limit")), "{out:?}");
}

#[test]
fn a_new_game_builds_a_new_engine_and_other_commands_keep_it() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let built = Arc::new(AtomicUsize::new(0));
    let counter = built.clone();
    let mut s = Session::new(move |_| {
        counter.fetch_add(1, Ordering::SeqCst);
        Box::new(Missing)
    });
    assert_eq!(built.load(Ordering::SeqCst), 1);
    for line in ["uci", "isready", "position startpos", "go depth 1"] {
        s.handle(line);
    }
    assert_eq!(
        built.load(Ordering::SeqCst),
        1,
        "only ucinewgame drops the engine"
    );
    s.handle("ucinewgame");
    assert_eq!(built.load(Ordering::SeqCst), 2);
    // The session's options survive: the executor chosen before is the new engine's.
    assert_eq!(
        s.handle("isready").last().map(String::as_str),
        Some("readyok")
    );
}
