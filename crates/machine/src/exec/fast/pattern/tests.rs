use super::plain::{group_len, trie_for_dfa};
use super::*;

/// Whether `pattern` is a trie the DFA searches (see [`trie_for_dfa`]).
fn trie(pattern: &str) -> bool {
    let hir = syntax::parse(pattern);
    let literals = literal::analyze(&hir, group_len(&hir));
    trie_for_dfa(&hir, Linear::new(&hir).as_ref(), &literals)
}

fn keys(after: &str) -> String {
    let files: Vec<String> = "abcdefgh"
        .chars()
        .map(|f| format!("{f}[1-8]:[PNp]{after}"))
        .collect();
    format!(
        "(?:B[a-h][1-8](?:{})|N[a-h][1-8](?:{}))",
        files.join("|"),
        files.join("|")
    )
}

/// The stored form of `hir` and the binary form of its parse.
fn stored(hir: &Hir) -> Option<(Vec<u8>, Vec<u8>)> {
    let mut bytes = Vec::new();
    if !Compiled::store(hir, &mut bytes) {
        return None;
    }
    let mut parsed = Vec::new();
    syntax::encode(hir, &mut parsed);
    Some((parsed, bytes))
}

/// Every pattern of the chess programs: its stored form reads back to the same facts
/// (and writes the same bytes again), so the pattern compiled from it is the one
/// compiled from its parse.
#[test]
fn the_chess_programs_patterns_are_stored_whole() {
    let (mut kept, mut lines, mut nfas) = (0, 0, 0);
    for pattern in crate::exec::fast::generated::program_patterns(&["move", "move-qe"]) {
        let hir = syntax::parse(&pattern);
        let Some((_, bytes)) = stored(&hir) else {
            continue;
        };
        let fresh = Plain::stored(&hir);
        let read = Plain::decode(&bytes).expect("a stored form reads back");
        assert_eq!(format!("{read:?}"), format!("{fresh:?}"), "{:?}", pattern);
        let mut again = Vec::new();
        assert!(read.encode(&mut again));
        assert_eq!(again, bytes, "{:?}", pattern);
        kept += 1;
        lines += usize::from(read.lines.is_some());
        nfas += usize::from(read.forward.is_some());
    }
    // Nearly all are kept (a prefix of several literals is not), `lines` forms and
    // the NFAs of the patterns the DFA searches too.
    assert!(
        kept > 1000 && lines > 100 && nfas > 100,
        "{kept} kept, {lines} with lines, {nfas} with an NFA"
    );
}

/// A stored form cut short is an error, and damaged bytes never panic.
#[test]
fn damaged_stored_forms_are_errors_not_panics() {
    for pattern in [
        "(%%\n#stack:\n)((?:[^%\n]*\n)*#b: )([^\n]*)([45])([^%]*)",
        "(%%\n#stack:\n)(?:(a1)\n.{70}(.)|(b1)\n.{71}(.)|(c1)x)",
        "%%\n(?:[^%\n]*\n)*#b: [0-9]\n(?:[^%\n]*\n)*#c: [a-z]{2,5}?x?",
    ] {
        let hir = syntax::parse(pattern);
        let (parsed, bytes) = stored(&hir).expect("kept");
        for cut in 0..bytes.len() {
            assert!(
                Plain::decode(&bytes[..cut]).is_err(),
                "{pattern:?} cut at {cut}"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Plain::decode(&longer).is_err());
        for i in 0..bytes.len() {
            for bit in 0..8 {
                let mut flipped = bytes.clone();
                flipped[i] ^= 1 << bit;
                // Bytes that read back are trusted only after the program cache's
                // checksum; here they must just not panic while being read.
                if let Ok(plain) = Plain::decode(&flipped) {
                    drop(Compiled::from_plain(plain, parsed.clone().into()));
                }
            }
        }
    }
}

mod generated {
    use super::*;
    use proptest::prelude::*;

    fn pattern() -> BoxedStrategy<String> {
        crate::exec::fast::generated::patterns(
            "[a-c%\\n#]",
            &[
                "[^\\n]",
                "[^%]",
                ".",
                "[0-9é]",
                "(?:[^%\\n]*\\n)*",
                "[^\\n]*",
                "[^%]*",
                "%%\\n",
                "\\b",
            ],
            &[
                "({})",
                "(?:{})*",
                "(?:{}){2}",
                "(?:{})?",
                "(?:{})??",
                "({})[^%]*",
            ],
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        /// A pattern compiled from its stored form finds the same matches, the same
        /// groups and the same first candidates as one compiled from its parse, and
        /// both find what `regex` finds.
        #[test]
        fn stored_patterns_search_as_compiled_ones(
            p in pattern(),
            hay in "[a-c%\n#é0-9]{0,40}",
        ) {
            let Ok(re) = regex::Regex::new(&p) else {
                return Ok(());
            };
            let hir = syntax::parse(&p);
            let Some((parsed, bytes)) = stored(&hir) else {
                return Ok(());
            };
            let fresh = Compiled::from_hir(&hir);
            let read = Compiled::from_stored(parsed.clone().into(), &bytes).expect("reads back");
            prop_assert_eq!(fresh.first_possible(&hay, None), read.first_possible(&hay, None));
            let (mut a, mut b) = (Cache::default(), Cache::default());
            for at in (0..=hay.len()).filter(|&i| hay.is_char_boundary(i)) {
                fresh.begin_rule(&mut a, hay.len());
                read.begin_rule(&mut b, hay.len());
                let found = fresh.find_at(&mut a, &hay, at, None);
                prop_assert_eq!(found, read.find_at(&mut b, &hay, at, None));
                let want = re.find_at(&hay, at).map(|m| (m.start(), m.end()));
                prop_assert_eq!(found, want, "{:?} at {}", p, at);
                if let Some((start, end)) = found {
                    fresh.resolve_groups(&mut a, &hay, start, end);
                    read.resolve_groups(&mut b, &hay, start, end);
                    prop_assert_eq!(&a.groups, &b.groups);
                }
            }
        }
    }
}

#[test]
fn tries_with_fixed_groups_go_to_the_dfa() {
    let k = keys("");
    assert!(trie(&format!("(%%\n#stack:\n{k}\n[01]{{7}})0")));
    assert!(trie(&format!("%%\n#stack:\n{k}")));
    assert!(trie(&format!("(%%\n#stack:\n)({k})(.)")));
}

#[test]
fn other_shapes_stay_linear() {
    let k = keys("");
    // A group that is not at a fixed offset: the linear search finds it in its pass.
    assert!(!trie(&format!("(%%\n#stack:\n{k}[^\n]*)\n([01]*)")));
    // A long counted run after the trie.
    let long = keys("\n[./A-Za-z]{56}");
    assert!(!trie(&format!("(%%\n#stack:\n)({long})(.)")));
    // Few branches.
    assert!(!trie("(%%\n#stack:\n(?:a|b|c)[01]{3})0"));
    // Not linear at all.
    assert!(!trie("%%\n#stack:\n(?:ab)*c"));
}

/// Patterns whose form for groups ([`for_groups`]) is linear, where their own is
/// not: those that start with `\A` and go on linearly (the `play` program's parsing
/// of its input), and those with merged loops (the SAN's list forks). Their groups
/// come out of that form's linear search (no engine behind it) exactly as `regex`
/// gives them, at every start, on texts where the greedy runs must give back
/// (several `%%` and history lines, unfinished last lines, lists ending in `;`,
/// non-ASCII chars); other patterns keep the engines.
#[test]
fn group_forms_resolve_groups_linearly() {
    let patterns = [
        "\\A([^%]*)(%%\n#stack:\n)([^\n]*)\n",
        "\\A[^%]*%%\n#stack:\n([^\n]*)\n(?s:.*)",
        "\\A([^%]*\nHistory: ([^\n]*)\n[^%]*)(%%\n#stack:\n)",
        "\\A([^%]*\nMoves:)[^\n]*(\n[^%]*%%\n#stack:\n)([^\n]*)\n",
        "\\A([^%]*)#number: ([^\n]*)\n([^%]*%%\n#stack:\n)",
        "\\A(8 ([a-z.]) ([a-z.])\n7 ([a-z.]))",
        "\\A((?:[^%\n]*\n)*)(#x: )([^\n]*)\n",
        "\\A(x|xy)(y?)z?",
        "\\A((?:;[^;\n]*)+)(;?)",
        "(%%\n#stack:\n)((?:;[^;\n]*){1})((?:;[^;\n]*)+)\n([^%]*)",
        "(%%\n#stack:\n)((?:;[^;\n]*){2})((?:;[^;\n]*)+)\n([^%]*)",
        "(#stack:\n)((?:;[^;\n]*)*)(;?[^\n]*)",
        "((?:;[^;\n]*)+)(;[^\n]*)",
        "((?:;[^;\n]*)*)(;?)",
        "((?:é[^é%]*)+)(é?)([^%]*)",
        "(x(?:;[^;]*)+)(;?)",
    ];
    let hays = [
        "game\nHistory: e2e4 e7e5\nMoves: 3\n#number: 7\n%%\n#stack:\nabc\nd\n%%\n#stack:\n\n",
        "History: \nHistory: x\n\n%%\n#stack:\n",
        "\nMoves:\n%%\n#stack:\n♟é\n%x",
        "8 r .\n7 k\n%%\n#stack:\n",
        "#y: 1\n#x: 2\n#x: 3\n%%\n",
        "xyz",
        "xy",
        "%%\n#stack:\n",
        "%%\n#stack:\n;e4;d4;;Nf3\nrest\n%%\n#stack:\n;a\n%%\n#stack:\n;a;b;\n",
        ";;x;\n;y",
        "x;a;b;;\n;éé;é",
        "é;éaé\né%é",
        ";",
        "",
    ];
    for pattern in patterns {
        let re = regex::Regex::new(pattern).unwrap();
        let compiled = Compiled::new(pattern);
        assert!(compiled.linear.is_none(), "{pattern:?} is linear itself");
        let (linear, _) = compiled.group_linear().expect(pattern);
        for hay in hays {
            let mut cache = Cache::default();
            for at in (0..=hay.len()).filter(|&i| hay.is_char_boundary(i)) {
                compiled.begin_rule(&mut cache, hay.len());
                let found = compiled.find_at(&mut cache, hay, at, None);
                let want = re.captures_at(hay, at);
                let span = want
                    .as_ref()
                    .and_then(|c| c.get(0))
                    .map(|m| (m.start(), m.end()));
                assert_eq!(found, span, "{pattern:?} on {hay:?} at {at}");
                let (Some((start, end)), Some(want)) = (found, want) else {
                    continue;
                };
                let want: Vec<Option<usize>> = (0..want.len())
                    .flat_map(|g| {
                        let m = want.get(g);
                        [m.map(|m| m.start()), m.map(|m| m.end())]
                    })
                    .collect();
                compiled.resolve_groups(&mut cache, hay, start, end);
                assert_eq!(cache.groups, want, "{pattern:?} on {hay:?} at {at}");
                // The linear form itself decides, at 0 for the `\A` patterns.
                if start == 0 || !pattern.starts_with("\\A") {
                    let mut slots = vec![None; want.len()];
                    assert!(linear.resolve(hay, start, end, &mut slots));
                    assert_eq!(slots, want, "{pattern:?} on {hay:?} at {at}");
                }
            }
        }
    }
    // `\A` elsewhere than first, a look-around after it, a lazy loop or run, a loop
    // whose run takes its first char, must be one char long or turns at least
    // twice: no linear form.
    for pattern in [
        "(\\A)x",
        "x|\\A",
        "\\A(x)\\z",
        "\\Ax\\b",
        "(?:;[^;\n]*)+?x",
        "(?:;[^;\n]*?)+x",
        "(?:;[^\n]*)+x",
        "(?:;[^;\n]+)+x",
        "(?:;[^;\n]*){2,}x",
    ] {
        assert!(
            Compiled::new(pattern).group_linear().is_none(),
            "{pattern:?}"
        );
    }
}
