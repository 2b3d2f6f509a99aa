//! The page's machine, natively: loaded from the two files `regex-chess site` writes, it
//! must give the reference executor's states (hand-written rules and the chess programs
//! `board` and `legal-moves`), report every rule to the progress function, replay to the
//! same state, and refuse files of another program or damaged ones.

use regex_chess_chess::notation::fen::Fen;
use regex_chess_compiler::CompileOptions;
use regex_chess_engine as engine;
use regex_chess_engine::cache::{ProgramCache, SOURCE_FINGERPRINT};
use regex_chess_machine::exec::Executor;
use regex_chess_machine::exec::reference::Reference;
use regex_chess_machine::program::{Program, Rule, ValidProgram};
use regex_chess_wasm::Machine;

/// The two files of `program`, as the site writes them.
fn files(program: &ValidProgram) -> (Vec<u8>, Vec<u8>) {
    ProgramCache::new("", SOURCE_FINGERPRINT).files(
        &program.program().name,
        &CompileOptions::default(),
        program,
    )
}

/// The machine of `program`, through its files.
fn machine(program: &ValidProgram) -> Machine {
    let (bytes, parses) = files(program);
    Machine::from_files(&program.program().name, &bytes, &parses).expect("the files load")
}

/// Rules the executors treat with care: anchors, empty matches, groups, Unicode.
fn hand_written() -> ValidProgram {
    let rules = vec![
        Rule::new("(?m)^", "> "),
        Rule::new("a*", "-"),
        Rule::new(r"(?P<w>\w+)@(\d)", "${2}:$w"),
        Rule::new("é|ü", "[$0]"),
        Rule::new(r"\b(\w)(\w*)\b", "$2$1"),
        Rule::new("$", "$$end"),
    ];
    let mut program = Program::from_rules(rules);
    program.name = "hand-written".to_string();
    program.validate().expect("the rules are valid")
}

/// Runs `program` on `states` through the machine and the reference: the same states, and
/// every rule reported in order.
fn agrees(program: &ValidProgram, states: &[String]) {
    let machine = machine(program);
    let reference = Reference::new(program.clone());
    let n = program.rules().len();
    assert_eq!(machine.rules(), n);
    for state in states {
        let mut seen = Vec::new();
        let out = machine.run(state, &mut |i| seen.push(i));
        assert_eq!(
            out,
            reference.run(state),
            "{} on {state:?}",
            program.program().name
        );
        assert_eq!(seen, (0..n).collect::<Vec<_>>(), "progress");
    }
}

#[test]
fn hand_written_rules_give_the_reference_states() {
    let states = ["", "baac\nxy@3 zz@1\n", "é ü aa ü\n\n", "a\u{1F600}a b"];
    agrees(&hand_written(), &states.map(String::from));
}

fn fens() -> Vec<Fen> {
    [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ]
    .iter()
    .map(|f| f.parse().expect("a valid FEN"))
    .collect()
}

#[test]
fn the_board_and_legal_moves_programs_give_the_reference_states() {
    let board = engine::program("board").expect("the board program");
    let drawn: Vec<String> = fens()
        .iter()
        .flat_map(|fen| {
            [
                format!("engine: black\n{fen}\n"),
                format!("engine: white\n{fen}\n"),
            ]
        })
        .collect();
    agrees(&board, &drawn);
    let legal = engine::program("legal-moves").expect("the legal-moves program");
    let inputs: Vec<String> = fens().iter().map(engine::runner::input_state).collect();
    agrees(&legal, &inputs);
}

#[test]
fn a_replay_steps_through_every_rule_to_the_run_state() {
    let program = hand_written();
    let n = program.rules().len();
    let mut machine = machine(&program);
    let state = "baac\nxy@3 zz@1\n";
    let end = machine.run(state, &mut |_| {}).unwrap();
    assert_eq!(machine.step(false), Ok(None), "no replay yet");
    // One rule a step: every index in order.
    machine.replay(state.to_string());
    let steps: Vec<usize> = std::iter::from_fn(|| machine.step(false).unwrap()).collect();
    assert_eq!(steps, (0..n).collect::<Vec<_>>());
    assert_eq!(machine.replay_state(), Some(end.as_str()));
    // Skipping: each step changes the state, except possibly the last.
    machine.replay(state.to_string());
    let mut before = state.to_string();
    let mut last = None;
    while let Some(index) = machine.step(true).unwrap() {
        let now = machine.replay_state().unwrap().to_string();
        assert!(
            now != before || index == n - 1,
            "step to rule {index} changed nothing"
        );
        assert!(last.is_none_or(|l| index > l));
        last = Some(index);
        before = now;
    }
    assert_eq!(last, Some(n - 1));
    assert_eq!(machine.replay_state(), Some(end.as_str()));
}

/// `program` under another name, so its files carry another key.
fn play_like(program: &ValidProgram) -> ValidProgram {
    let mut inner = program.program().clone();
    inner.name = "another".into();
    inner.validate().expect("the same rules validate")
}

#[test]
fn files_of_another_program_or_damaged_are_refused() {
    let program = hand_written();
    let (bytes, parses) = files(&program);
    let other = Machine::from_files("play", &bytes, &parses)
        .unwrap_err()
        .to_string();
    // The pair carries its own key, so a file of another program is told by its name.
    assert!(
        other.contains("holds the program `hand-written`"),
        "{other}"
    );
    let (_, foreign_parses) = files(&play_like(&program));
    let error = Machine::from_files("hand-written", &bytes, &foreign_parses)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("the parses: written for another build"),
        "{error}"
    );
    let mut damaged = bytes.clone();
    let last = damaged.len() - 1;
    damaged[last] ^= 1;
    let error = Machine::from_files("hand-written", &damaged, &parses)
        .unwrap_err()
        .to_string();
    assert!(error.contains("the program: corrupt"), "{error}");
    let error = Machine::from_files("hand-written", &bytes, &parses[..parses.len() / 2])
        .unwrap_err()
        .to_string();
    assert!(error.contains("the parses: truncated"), "{error}");
}

#[test]
fn a_program_that_grows_past_the_state_limit_ends_with_the_error_run_and_replay() {
    let mut program = Program::from_rules(vec![Rule::new("(.+)", "$1$1"); 40]);
    program.name = "doubling".to_string();
    let program = program.validate().unwrap();
    // Rule i leaves 2^(i + 2) bytes: with a 1 MiB limit rule 19 would write 2 MiB.
    let limit = 1 << 20;
    let reference = Reference::new(program.clone()).with_max_state(limit);
    let want = reference.run("ab").unwrap_err();
    assert_eq!((want.rule, want.size, want.limit), (19, 1 << 21, limit));
    let mut machine = machine(&program).with_max_state(limit);
    let mut seen = Vec::new();
    let error = machine.run("ab", &mut |i| seen.push(i)).unwrap_err();
    assert_eq!(error, want);
    // The page shows the message the command line shows.
    assert_eq!(
        error.to_string(),
        "rule 19 (unknown origin) would grow the state to 2097152 bytes, past the state \
         limit of 1048576 bytes"
    );
    assert_eq!(seen, (0..19).collect::<Vec<_>>(), "progress up to the rule");
    // A replay stops at the same rule, and stays before it.
    machine.replay("ab".to_string());
    let steps: Vec<usize> = std::iter::from_fn(|| machine.step(false).unwrap())
        .take(19)
        .collect();
    assert_eq!(steps, (0..19).collect::<Vec<_>>());
    assert_eq!(machine.step(false), Err(want));
    assert_eq!(machine.replay_state().map(str::len), Some(1 << 20));
}
