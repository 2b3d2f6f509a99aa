//! What the machine's own tests read from the chess programs, kept current: the machine
//! knows no game, so its unit tests walk the chess programs' patterns from a fixture
//! (`crates/machine/src/exec/fast/testdata/chess_patterns.json`), and the fast executor's
//! stored forms of a whole chess program are checked here, where the programs are.

use std::collections::BTreeMap;

use regex_chess_compiler::CompileOptions;
use regex_chess_engine::registry;
use regex_chess_machine::exec::Executor;
use regex_chess_machine::exec::fast::{Fast, parse_table, remember_parses};
use regex_chess_machine::exec::reference::Reference;
use regex_chess_machine::program::ValidProgram;

/// The fixture's path from the root package.
const FIXTURE: &str = "crates/machine/src/exec/fast/testdata/chess_patterns.json";

/// The programs whose patterns the machine's tests walk.
const PROGRAMS: [&str; 3] = ["move", "move-qe", "play"];

fn compiled(name: &str) -> ValidProgram {
    let entry = registry::find(name).expect("registered");
    regex_chess_compiler::compile(entry.build(), &CompileOptions::default())
        .program
        .validate()
        .expect("a registered program validates")
}

/// The fixture as the programs compile today: each program's distinct patterns in rule
/// order.
fn current() -> String {
    let mut table = BTreeMap::new();
    for name in PROGRAMS {
        let mut seen = std::collections::HashSet::new();
        let patterns: Vec<String> = compiled(name)
            .rules()
            .iter()
            .filter(|rule| seen.insert(rule.pattern.clone()))
            .map(|rule| rule.pattern.clone())
            .collect();
        table.insert(name, patterns);
    }
    serde_json::to_string_pretty(&table).expect("strings serialize") + "\n"
}

#[test]
fn chess_patterns_fixture_is_current() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE);
    let now = current();
    if std::env::var_os("REGEX_CHESS_BLESS").is_some() {
        std::fs::write(&path, &now).expect("the fixture is writable");
    }
    let kept = std::fs::read_to_string(&path).expect("the fixture exists");
    assert!(
        kept == now,
        "{FIXTURE} differs from the chess programs' patterns; rewrite it with \
         REGEX_CHESS_BLESS=1 cargo test --test machine fixtures::"
    );
}

/// The `move` program with its patterns compiled from their stored forms (the table a
/// fresh process reads back from the program cache): the reply on an endgame and an
/// opening is the reference's, byte for byte.
#[test]
fn patterns_compiled_from_stored_forms_agree_with_the_reference() {
    let program = compiled("move");
    let table = parse_table(program.rules().iter().map(|r| r.pattern.as_str()));
    assert!(remember_parses(&table).is_ok_and(|n| n > 0));
    let reference = Reference::new(program.clone());
    let fast = Fast::new(program);
    for fen in [
        "8/8/4k3/8/2KP4/8/8/8 b - - 0 1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    ] {
        let state = format!("{fen}\n");
        assert_eq!(fast.run(&state), reference.run(&state), "{fen}");
    }
}
