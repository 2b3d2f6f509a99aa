//! The unit tests of `nfa_form`.

use super::*;
use regex_automata::hybrid::dfa::DFA;
use regex_automata::nfa::thompson;
use regex_automata::{Anchored, Input};

/// The stored form of `nfa` reads back to an NFA no larger, with the same groups and
/// settings, whose own stored form is the same bytes (nothing more merges); every
/// cut of the form is an error. Returns the NFA read back.
fn round_trip(nfa: &NFA) -> NFA {
    let mut form = Vec::new();
    assert!(encode(nfa, &mut form));
    let back = decode(&form).expect("reads back");
    assert!(back.states().len() <= nfa.states().len());
    let mut again = Vec::new();
    assert!(encode(&back, &mut again));
    assert_eq!(again, form, "a merged NFA merges no further");
    assert_eq!(back.group_info().slot_len(), nfa.group_info().slot_len());
    assert_eq!(back.has_empty(), nfa.has_empty());
    assert_eq!(back.look_set_any(), nfa.look_set_any());
    assert_eq!(
        back.start_anchored() == back.start_unanchored(),
        nfa.start_anchored() == nfa.start_unanchored()
    );
    for cut in 0..form.len() {
        assert!(decode(&form[..cut]).is_err(), "cut at {cut}");
    }
    back
}

/// The leftmost-first match ends that lazy DFAs of `a` and `b` find in `hay` from
/// every start, anchored and not, agree.
fn same_searches(a: &NFA, b: &NFA, hay: &str) {
    let build = |nfa: &NFA| {
        DFA::builder()
            .configure(DFA::config().unicode_word_boundary(true))
            .build_from_nfa(nfa.clone())
            .expect("builds")
    };
    let (da, db) = (build(a), build(b));
    let (mut ca, mut cb) = (da.create_cache(), db.create_cache());
    for at in 0..=hay.len() {
        for anchored in [Anchored::No, Anchored::Yes] {
            let input = Input::new(hay).range(at..).anchored(anchored);
            let x = da
                .try_search_fwd(&mut ca, &input)
                .map_err(|e| e.to_string());
            let y = db
                .try_search_fwd(&mut cb, &input)
                .map_err(|e| e.to_string());
            assert_eq!(x, y, "{hay:?} from {at}, {anchored:?}");
        }
    }
}

fn compile(pattern: &str) -> NFA {
    let hir = crate::exec::fast::syntax::ascii_hir(&crate::exec::fast::syntax::parse(pattern));
    thompson::Compiler::new().build_from_hir(&hir).unwrap()
}

#[test]
fn compiled_nfas_read_back_merged() {
    for pattern in [
        "",
        "a",
        "(%%\\n#stack:\\n)((?:[^%\\n]*\\n)*#b: )([^\\n]*)\\n",
        "(?:Ba1:|Bb2:|Nc3:|Nd4:|Qe5:)[01]{3}(x)?",
        "(a)(?P<name>b|c)(?:d|e)*?\\b$",
        "x(){0}(y)",
        "(?m)^%tag\\n|[^\\n]{2,5}",
    ] {
        let hir = crate::exec::fast::syntax::parse(pattern);
        let ascii = crate::exec::fast::syntax::ascii_hir(&hir);
        round_trip(&thompson::Compiler::new().build_from_hir(&ascii).unwrap());
        round_trip(&thompson::Compiler::new().build_from_hir(&hir).unwrap());
        let reverse = thompson::Config::new()
            .reverse(true)
            .which_captures(thompson::WhichCaptures::None);
        let nfa = thompson::Compiler::new()
            .configure(reverse)
            .build_from_hir(&ascii)
            .unwrap();
        round_trip(&nfa);
    }
}

/// Tails repeated in many branches (as in the programs' tries and attack tables) are
/// kept once, and the merged NFA searches as the compiled one.
#[test]
fn repeated_tails_are_kept_once() {
    let branches: Vec<String> = (0..8)
        .map(|i| format!("{}(?:0[01]{{6}}|10[01]{{5}})x", (b'a' + i) as char))
        .collect();
    let nfa = compile(&format!("%%\\n(?:{})", branches.join("|")));
    let back = round_trip(&nfa);
    assert!(
        back.states().len() * 3 < nfa.states().len(),
        "{} states from {}",
        back.states().len(),
        nfa.states().len()
    );
    for hay in [
        "%%\na0101010x",
        "%%\nh1011111x%%\nc0000000x",
        "%%\nb0111111",
        "x%%\ng10000",
    ] {
        same_searches(&nfa, &back, hay);
    }
}

/// A long chain whose states differ only by their distance to its end (a fuzzer's find:
/// Moore's refinement would take a round per link) is kept whole once the refinement
/// passes its budget, and searches as the compiled one.
#[test]
fn a_chain_past_the_refinement_budget_keeps_every_state() {
    let nul = "\\x00".repeat(90);
    let nfa = compile(&format!("(?:\\b\\w+\\b{nul}\\s*){{33}}"));
    let (new_id, kept) = quotient(&nfa);
    assert_eq!(kept.len(), nfa.states().len(), "every state kept");
    assert!(new_id.iter().enumerate().all(|(s, &i)| s == i));
    let mut form = Vec::new();
    assert!(encode(&nfa, &mut form));
    let back = decode(&form).expect("reads back");
    assert_eq!(back.states().len(), nfa.states().len());
    same_searches(&nfa, &back, &format!("ab{} cd", "\0".repeat(90)));
}

#[test]
fn damaged_forms_are_errors_not_panics() {
    let hir = crate::exec::fast::syntax::parse("(%%\\n)(?P<x>[^\\n]{2,7})|b*");
    let nfa = thompson::Compiler::new().build_from_hir(&hir).unwrap();
    let mut form = Vec::new();
    assert!(encode(&nfa, &mut form));
    for i in 0..form.len() {
        for bit in 0..8 {
            let mut flipped = form.clone();
            flipped[i] ^= 1 << bit;
            let _ = decode(&flipped);
        }
    }
}

mod generated {
    use super::*;
    use proptest::prelude::*;

    fn pattern() -> BoxedStrategy<String> {
        crate::exec::fast::generated::patterns(
            "[ab%\\n0]",
            &[
                "[^\\n]",
                "[^%]",
                "[01]",
                "(?:[^%\\n]*\\n)*",
                "[^\\n]*",
                "\\b",
                "(?m:^)",
            ],
            &[
                "({})",
                "(?:{})*",
                "(?:{}){2}",
                "(?:{})?",
                "(?:{})??",
                "(?:{}){3}[01]",
            ],
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]
        /// The merged NFA's lazy DFA finds the same match ends as the compiled one's,
        /// from every start, anchored and not.
        #[test]
        fn merged_nfas_search_as_compiled_ones(
            p in pattern(),
            hay in "[ab%\n01]{0,24}",
        ) {
            let Ok(hir) = regex_automata::util::syntax::parse(&p) else {
                return Ok(());
            };
            let ascii = crate::exec::fast::syntax::ascii_hir(&hir);
            let Ok(nfa) = thompson::Compiler::new().build_from_hir(&ascii) else {
                return Ok(());
            };
            let back = round_trip(&nfa);
            same_searches(&nfa, &back, &hay);
        }
    }
}
