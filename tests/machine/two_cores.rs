//! Every search variant on two cores, as `--cores 2`, `play --cores 2` and UCI's
//! `Threads 2` run it, judged: each answer is the reference executor's output byte for
//! byte and the oracle's answer (`crates/testkit/src/oracle/answer.rs`: the move, the FEN
//! after it, the status, the report and the principal variation).
//!
//! Two executors run each position on two cores: the one the command line builds
//! (`Choice::new(Fast, 2)`: the pieces shared from [`DEFAULT_SPLIT_MIN`], the rope by
//! default from its own threshold), and one with every path forced on every state: the
//! rope cut into small pieces shared by the cores, every rule that is not local cut into
//! stretches whose pieces are each searched from their start (`speculate`), so that the
//! join mends every match that crosses a cut.
//!
//! The variants come from [`Search::ALL`], so a new variant is judged here by itself.
//! `cargo test` runs a 2-ply variant of each family (of [`volume::searches_per_family`])
//! with its move program on the bench suite's reply positions (the positions after
//! white's move, where the widest states are), the strongest one's ranking and `play`
//! programs on one bench reply, and a variant of each family on a share of playout
//! positions (four for a 2-ply variant, one for a 3-ply one); an `#[ignore]`d volume
//! runs the other variants on the same share. The volume (`cargo test --release --test machine
//! -- two_cores:: --ignored`), part of `scripts/verify-full.sh`, runs every variant on
//! the bench replies (the three-ply search on kiwipete's reaches states of about 25 MB), on more
//! playout positions, and with its ranking and `play` programs on two bench replies.
//!
//! That the two-core paths ran is asserted through the executors' counters
//! (`Executor::counters`, `exec::fast::Counters`): on the bench, each variant's largest
//! states reach the size from which the crew cuts the state, and the command line's
//! executor must have handed pieces off to the helper core there; the forced executor
//! cuts every state, so it must have run rope runs, stretches and hand-offs on every
//! share. A change that quietly leaves the multi-core path (a threshold, a fallback to
//! one core) gives the right answers and fails here. The pieces a helper ran are not
//! asserted: on a busy machine the caller may take every piece before the helper wakes.

use regex_chess_testkit::oracle;
use regex_chess_testkit::volume;

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering};

use oracle::answer::{check_reply, engine_fen};
use oracle::{judge, parallel, perft, playouts};
use regex_chess_engine as engine;
use regex_chess_engine::reply::parse_move_output;
use regex_chess_engine::runner::{self, RunError};
use regex_chess_engine::variants::{Output, Search};
use regex_chess_machine::exec::fast::{Counters, DEFAULT_SPLIT_MIN, Fast};
use regex_chess_machine::exec::reference::Reference;
use regex_chess_machine::exec::{Choice, Executor, ExecutorKind};
use regex_chess_machine::program::ValidProgram;

/// The pieces of the forced rope: small enough that a state of a few kilobytes is cut
/// into several.
const FORCED_PIECE: usize = 512;

/// A program on the reference executor and on the two two-core executors.
struct Runs {
    program: &'static str,
    reference: Reference,
    users: Box<dyn Executor>,
    forced: Box<dyn Executor>,
}

impl Runs {
    fn new(program: &'static str) -> Runs {
        let valid: ValidProgram =
            engine::program(program).unwrap_or_else(|e| panic!("{program}: {e}"));
        let two = NonZeroUsize::new(2).expect("two");
        Runs {
            program,
            reference: Reference::new(valid.clone()),
            users: Choice::new(ExecutorKind::Fast, two).build(valid.clone()),
            forced: Box::new(
                Fast::new(valid)
                    .rope(1, FORCED_PIECE)
                    .parallel(2, 1)
                    .speculate(true),
            ),
        }
    }

    /// Runs `state` on the three executors: the reference's output and largest state,
    /// or what differs.
    fn run(&self, state: &str) -> Result<(String, usize), String> {
        let (want, stats) = self.reference.run_with_stats(state).unwrap();
        for (what, exec) in [
            ("two cores", self.users.as_ref()),
            ("two cores, every path forced", self.forced.as_ref()),
        ] {
            let got = exec.run(state).unwrap();
            if got != want {
                return Err(format!(
                    "{} on {what}: the output differs from the reference's {}",
                    self.program,
                    first_difference(&got, &want)
                ));
            }
        }
        Ok((want, stats.max_state_len))
    }
}

/// Where two texts first differ, for a message.
fn first_difference(got: &str, want: &str) -> String {
    let at = got
        .bytes()
        .zip(want.bytes())
        .position(|(a, b)| a != b)
        .unwrap_or(got.len().min(want.len()));
    let around = |text: &str| {
        let from = (at.saturating_sub(40)..=at)
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0);
        let to = (at + 40..=text.len())
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(text.len())
            .min(text.len());
        format!("{:?}", &text[from.min(to)..to])
    };
    format!(
        "at byte {at} (lengths {} and {}): {} against {}",
        got.len(),
        want.len(),
        around(got),
        around(want)
    )
}

/// The positions of the bench suite after white's move: the positions `bench` and the
/// README's figures answer.
fn bench_replies() -> Vec<String> {
    perft::suite("bench.txt")
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split(';').collect();
            let pos = judge::position(fields[0]);
            // A promotion written without its piece (`d7c8`) makes a queen.
            let text = fields[1].trim();
            let legal = judge::legal_uci(&pos);
            let mv = if legal.iter().any(|m| m == text) {
                text.to_string()
            } else {
                format!("{text}q")
            };
            judge::fen(&judge::play(&pos, &mv))
        })
        .collect()
}

/// `count` playout positions for `variant`'s share (its own stride, so the variants see
/// different positions).
fn playout_share(variant: Search, count: usize) -> Vec<String> {
    let samples = playouts::positions(playouts::SEED + 40 + variant as u64, 400);
    playouts::share(&samples, count)
        .into_iter()
        .map(|s| s.fen)
        .collect()
}

/// The counters of an executor that must count (the fast one).
fn counters(exec: &dyn Executor) -> Counters {
    exec.counters()
        .expect("the fast executor counts its pieces")
}

/// Judges `variant`'s move program on two cores on `fens`: equal to the reference, and
/// the reference's answer equal to the oracle's; the forced executor took every path
/// that cuts the state. Returns how many positions reached a state the command line's
/// two cores cut, and the command line's executor's counters.
fn judge_moves(variant: Search, what: &str, fens: &[String]) -> (usize, Counters) {
    let runs = Runs::new(variant.program(Output::Move));
    let cut = AtomicUsize::new(0);
    let failures = parallel::failures(fens, |fen_text| {
        let fen = match engine_fen(fen_text) {
            Ok(fen) => fen,
            Err(e) => return Some(e),
        };
        let (output, largest) = match runs.run(&runner::input_state(&fen)) {
            Ok(done) => done,
            Err(e) => return Some(format!("{fen_text}: {e}")),
        };
        if largest >= DEFAULT_SPLIT_MIN {
            cut.fetch_add(1, Ordering::Relaxed);
        }
        let reply =
            parse_move_output(&output).map_err(|e| RunError::output(runs.program, output, e));
        check_reply(variant, fen_text, reply)
    });
    let what = format!("{} on two cores, {what}", variant.name());
    parallel::assert_none(&what, fens.len(), &failures);
    let forced = counters(runs.forced.as_ref());
    assert!(
        forced.hand_offs > 0
            && forced.rope_runs > 0
            && forced.stretches > 0
            && forced.pieces >= 2 * forced.hand_offs,
        "{what}: the executor with every path forced did not take them all: {forced:?}"
    );
    (cut.into_inner(), counters(runs.users.as_ref()))
}

/// The variants `cargo test` judges on the bench replies: the 2-ply ones of a family's
/// share (the deeper ones take tens of seconds on kiwipete's reference run; the volume
/// runs every variant).
fn quick() -> impl Iterator<Item = Search> {
    volume::searches_per_family()
        .into_iter()
        .filter(|v| v.depth() <= 2)
}

/// Judges `variants` on the bench replies, each reaching the states two cores cut on
/// kiwipete's reply at least.
fn judge_the_bench(variants: impl Iterator<Item = Search>) {
    let fens = bench_replies();
    assert_eq!(fens.len(), 8, "{fens:?}");
    for variant in variants {
        let (cut, users) = judge_moves(variant, "bench replies", &fens);
        assert!(
            cut >= 1,
            "{}: no bench reply reached the {DEFAULT_SPLIT_MIN}-byte states two cores cut",
            variant.name()
        );
        // Those states went through the crew: pieces handed off, at least two each.
        assert!(
            users.hand_offs > 0 && users.pieces >= 2 * users.hand_offs,
            "{}: states of {DEFAULT_SPLIT_MIN} bytes and more, but the command line's two \
             cores handed nothing off: {users:?}",
            variant.name()
        );
    }
}

#[test]
fn the_two_ply_searches_on_two_cores_answer_the_bench_as_the_oracle_and_the_reference() {
    judge_the_bench(quick());
}

/// The 2-ply variants [`quick`] leaves out, on the bench replies and with their ranking
/// and `play` programs on the reply of the test below: with the shares, every 2-ply
/// variant (CI's release volumes).
#[test]
#[ignore = "volume: cargo test --release --test machine -- two_cores:: --ignored"]
fn the_other_searches_of_two_plies_on_two_cores_answer_the_bench_rank_and_play() {
    let two_plies = || {
        volume::other_searches()
            .into_iter()
            .filter(|v| v.depth() <= 2)
    };
    judge_the_bench(two_plies());
    let fens: Vec<String> = bench_replies().into_iter().skip(2).take(1).collect();
    for variant in two_plies() {
        ranking_and_play_equal_the_reference(variant, &fens);
    }
}

#[test]
#[ignore = "volume: cargo test --release --test machine -- two_cores:: --ignored"]
fn every_search_on_two_cores_answers_the_bench_as_the_oracle_and_the_reference() {
    // The three-ply search on kiwipete's reply among them: states of about 25 MB.
    judge_the_bench(Search::ALL.into_iter());
}

/// `count` playout positions per variant of `variants` (a quarter of it for the deeper
/// ones).
fn judge_playouts(variants: Vec<Search>, what: &str, count: usize) {
    for variant in variants {
        let count = if variant.depth() >= 3 {
            count / 4
        } else {
            count
        };
        judge_moves(variant, what, &playout_share(variant, count));
    }
}

#[test]
fn a_search_of_each_family_on_two_cores_with_every_path_forced_answers_a_playout_share() {
    judge_playouts(volume::searches_per_family(), "playout share", 4);
}

/// The share's count with the other variants: with the share, every variant (CI's
/// release volumes).
#[test]
#[ignore = "volume: cargo test --release --test machine -- two_cores:: --ignored"]
fn the_other_searches_on_two_cores_with_every_path_forced_answer_a_playout_share() {
    judge_playouts(volume::other_searches(), "playout share", 4);
}

#[test]
#[ignore = "volume: cargo test --release --test machine -- two_cores:: --ignored"]
fn every_search_on_two_cores_answers_a_playout_volume() {
    judge_playouts(Search::ALL.to_vec(), "playout volume", 40);
}

/// `variant`'s ranking and `play` programs on two cores against the reference, on `fens`
/// (the `play` program from the first board the `board` program draws, the engine to
/// move).
fn ranking_and_play_equal_the_reference(variant: Search, fens: &[String]) {
    let ranked = Runs::new(variant.program(Output::Ranked));
    let play = Runs::new(variant.program(Output::Play));
    let board = Reference::new(engine::program("board").expect("board"));
    let failures = parallel::failures(fens, |fen_text| {
        let fen = match engine_fen(fen_text) {
            Ok(fen) => fen,
            Err(e) => return Some(e),
        };
        if let Err(e) = ranked.run(&runner::input_state(&fen)) {
            return Some(format!("{fen_text}: {e}"));
        }
        let side = if fen_text.split(' ').nth(1) == Some("w") {
            "white"
        } else {
            "black"
        };
        let first = board.run(&format!("engine: {side}\n{fen}\n")).unwrap();
        if !first.starts_with("8 ") {
            return Some(format!("{fen_text}: the board program drew {first:?}"));
        }
        // An empty line: the engine, to move, answers.
        play.run(&format!("{first}\n"))
            .err()
            .map(|e| format!("{fen_text}: {e}"))
    });
    let what = format!("{} ranking and play on two cores", variant.name());
    parallel::assert_none(&what, fens.len(), &failures);
}

/// The strongest 2-ply variant's ranking and `play` programs (the widest of [`quick`]'s;
/// the plain `2ply`'s move program is judged on the bench above, its ranking and `play`
/// programs in the volume below, with every variant's).
#[test]
fn ranking_and_play_programs_on_two_cores_equal_the_reference() {
    // The queen's gambit reply: a middlegame wide enough to be cut.
    let fens: Vec<String> = bench_replies().into_iter().skip(2).take(1).collect();
    let widest = quick().last().expect("a 2-ply variant");
    ranking_and_play_equal_the_reference(widest, &fens);
}

#[test]
#[ignore = "volume: cargo test --release --test machine -- two_cores:: --ignored"]
fn ranking_and_play_programs_of_every_search_on_two_cores_equal_the_reference() {
    // The queen's gambit and kiwipete replies.
    let fens: Vec<String> = bench_replies().into_iter().skip(2).take(2).collect();
    for variant in Search::ALL {
        ranking_and_play_equal_the_reference(variant, &fens);
    }
}

/// An executor that runs another and then writes one byte wrong (the first of the second
/// line): what a wrong join of two pieces gives.
struct WrongJoin(Box<dyn Executor>);

impl Executor for WrongJoin {
    fn name(&self) -> &'static str {
        "wrong join"
    }

    fn program(&self) -> &ValidProgram {
        self.0.program()
    }

    fn run_range(
        &self,
        state: &str,
        range: std::ops::Range<usize>,
        observer: &mut dyn regex_chess_machine::exec::Observer,
    ) -> Result<String, regex_chess_machine::exec::StateTooLarge> {
        let out = self.0.run_range(state, range, observer)?;
        // The first byte of the second line.
        let at = out.find('\n').map_or(0, |i| i + 1);
        let rest: String = out[at..].chars().skip(1).collect();
        Ok(format!("{}&{rest}", &out[..at]))
    }

    fn max_state(&self) -> usize {
        self.0.max_state()
    }

    fn set_max_state(&mut self, bytes: usize) {
        self.0.set_max_state(bytes);
    }
}

/// The check is not idle: a two-core executor that writes one byte wrong where two
/// pieces meet is caught, and the message says where.
#[test]
fn a_wrong_join_on_two_cores_is_caught() {
    let program = Search::ALL[0].program(Output::Move);
    let mut runs = Runs::new(program);
    let state = runner::input_state(&engine_fen(&bench_replies()[0]).unwrap());
    assert!(runs.run(&state).is_ok());
    let valid = engine::program(program).unwrap();
    runs.forced = Box::new(WrongJoin(Box::new(Fast::new(valid).parallel(2, 1))));
    let error = runs.run(&state).unwrap_err();
    assert!(
        error.contains("every path forced: the output differs from the reference's at byte"),
        "{error}"
    );
}
