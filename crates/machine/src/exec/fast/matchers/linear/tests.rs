//! Tests of the linear matcher against `regex`: group spans of known matches
//! (`Linear::resolve`), anchored matches (`Linear::find_end`), and the budget.

use super::*;

fn groups(pattern: &str, hay: &str) -> Option<Vec<Option<(usize, usize)>>> {
    let re = regex::Regex::new(pattern).unwrap();
    let caps = re.captures(hay).unwrap();
    let m = caps.get(0).unwrap();
    let hir = regex_syntax::parse(pattern).unwrap();
    let linear = Linear::new(&hir)?;
    let mut slots = vec![None; 2 * re.captures_len()];
    assert!(linear.resolve(hay, m.start(), m.end(), &mut slots));
    let ours: Vec<_> = (0..re.captures_len())
        .map(|g| slots[2 * g].zip(slots[2 * g + 1]))
        .collect();
    let theirs: Vec<_> = (0..re.captures_len())
        .map(|g| caps.get(g).map(|m| (m.start(), m.end())))
        .collect();
    assert_eq!(ours, theirs, "{pattern:?} on {hay:?}");
    Some(ours)
}

#[test]
fn lookup_groups() {
    let p = "(%%\n#stack:\n)([^%]*\n#x: )([^\n]*)\n";
    groups(p, "%%\n#stack:\nA\n#x: 1\n#y: 2\n#x: 3\n%%\n").unwrap();
    groups(p, "q%%\n#stack:\n\n#x: \n").unwrap();
}

#[test]
fn greedy_lazy_and_counted() {
    groups("(a*)(a*?)(a+)", "aaaa").unwrap();
    groups("(a*?)(a+?)(b)", "xaaab").unwrap();
    groups("(é{1,2})(é*)", "ééé").unwrap();
    groups("([a-c]{2})(.*)(c)", "abcabc").unwrap();
    groups("(?i)(ab)(c*)", "xABcC").unwrap();
    groups("(x?)(x)", "x").unwrap();
}

#[test]
fn classes_with_some_non_ascii_chars() {
    // Neither none nor all of the non-ASCII chars: the ranges decide.
    groups("([a-cé-ë]*)(ë)(.)", "abéëëç").unwrap();
    groups("([^a-zé]+)(é)", "ÀÉ1ç\u{10FFFF}é").unwrap();
    groups("(?i)(é+)(x)", "éÉx").unwrap();
    groups("([\u{80}-\u{D7FF}]*)(.)", "é\u{D7FF}\u{E000}").unwrap();
    groups("([^\u{E000}]*)(\u{E000})", "a\u{D7FF}\u{E000}").unwrap();
    // A byte class with non-ASCII bytes is not a set of chars.
    let hir = regex_syntax::ParserBuilder::new()
        .unicode(false)
        .utf8(false)
        .build()
        .parse("[\\x80-\\xFF]")
        .unwrap();
    assert!(Linear::new(&hir).is_none());
}

#[test]
fn not_linear() {
    let hir = regex_syntax::parse(r"\ba").unwrap();
    assert!(Linear::new(&hir).is_none());
    let hir = regex_syntax::parse("(ab)*").unwrap();
    assert!(Linear::new(&hir).is_none());
    let hir = regex_syntax::parse("(?:(a)b){2}").unwrap();
    assert!(Linear::new(&hir).is_none());
    let hir = regex_syntax::parse("(?:[^%\n]*\n)*?").unwrap();
    assert!(Linear::new(&hir).is_none());
}

#[test]
fn optional_parts() {
    let p = "(%%\n#stack:\n)([^#%\n][^\n]*|)\n([^%]*)";
    assert!(Linear::new(&regex_syntax::parse(p).unwrap()).is_some());
    groups(p, "%%\n#stack:\nab\n#x: 1\n%%\n").unwrap();
    groups(p, "%%\n#stack:\n\n#x: 1\n").unwrap();
    groups("(a(b)|)(ab|)(b*)", "abab").unwrap();
    groups("(|a(b))(a?)(b)", "abab").unwrap();
    groups("(?:x(y)z)?(x)", "xyx").unwrap();
    groups("(?:x(y)z)??(x)", "xyzx").unwrap();
}

#[test]
fn alternations() {
    groups("(a|bc)(c*)", "bcc").unwrap();
    groups("(a||b)(b*)", "bb").unwrap();
    groups("x(?:(a)|(a)b|(c))(b?)", "xab").unwrap();
    groups("(?:a|ab)(?:bc|c)(.)", "abcd").unwrap();
    groups("(%%\n)(?:(a1)\n.{3}(.)|(b1)\n.{4}(.))", "%%\nb1\nxyzé.q").unwrap();
    groups("([^\n]*(?:n..[.P]|[.P]..n))", "..n..P...n").unwrap();
    groups("(?:(x)|y)+?", "xy").unwrap_or_default();
}

#[test]
fn lines_loops_and_counted_bodies() {
    let p = "(%%\n#stack:\n)((?:[^%\n]*\n)*#b: )([^\n]*)(x)((?:[^\n]{2}\\.){2}[^\n]{2})(y)([^%]*)";
    let hay = "%%\n#stack:\nq\n#b: ..x12.ab.cdy..\n#c: 1\n#b: x\n%%\n";
    assert!(Linear::new(&regex_syntax::parse(p).unwrap()).is_some());
    groups(p, hay).unwrap();
    let p = "(%%\n)((?:[^%\n]*\n)*)(#v: )([^\n]*)\n";
    groups(p, "%%\n#a: 1\n#v: 2\n#v: 3\n%%\n#v: 4\n").unwrap();
    groups(p, "%%\n#v: é\nü\n#v: \n").unwrap();
    groups("((?:[^x\n]*\n)*)(b)", "a\nb\nxb").unwrap();
    groups("((?:.*\n)*)(b)", "a\nb\nxb\n").unwrap();
}

/// A pattern that backtracks a lot either resolves exactly or gives up (never a wrong
/// answer).
#[test]
fn heavy_backtracking_is_exact_or_refused() {
    let pattern = "(a*)(a*)(a*)(a*)(b)";
    let hay = "a".repeat(300) + "b";
    let re = regex::Regex::new(pattern).unwrap();
    let caps = re.captures(&hay).unwrap();
    let linear = Linear::new(&regex_syntax::parse(pattern).unwrap()).unwrap();
    let mut slots = vec![None; 12];
    if linear.resolve(&hay, 0, hay.len(), &mut slots) {
        for g in 0..6 {
            let m = caps.get(g).map(|m| (m.start(), m.end()));
            assert_eq!(slots[2 * g].zip(slots[2 * g + 1]), m);
        }
    }
}

/// Checks every anchored search (`find_end` at each char boundary) and the groups of every
/// match of `pattern` on `hay` against `regex`, and that a search that did not touch the
/// end gives the same answer when the text goes on with a `%`. Returns how many searches
/// decided (did not run out of budget), or `None` when the pattern is not linear.
fn check(pattern: &str, hay: &str) -> Option<usize> {
    let linear = Linear::new(&regex_syntax::parse(pattern).unwrap())?;
    let re = regex::Regex::new(pattern).unwrap();
    let anchored = regex::Regex::new(&format!("^(?:{pattern})")).unwrap();
    let slot_len = 2 * re.captures_len();
    let spans = |caps: Option<regex::Captures>, base: usize| {
        caps.map(|caps| {
            (0..re.captures_len())
                .map(|g| caps.get(g).map(|m| (base + m.start(), base + m.end())))
                .collect::<Vec<_>>()
        })
    };
    let ours = |slots: &[Option<usize>]| {
        (0..slot_len / 2)
            .map(|g| slots[2 * g].zip(slots[2 * g + 1]))
            .collect::<Vec<_>>()
    };
    let mut decided = 0;
    for start in (0..=hay.len()).filter(|&s| hay.is_char_boundary(s)) {
        let mut slots = vec![None; slot_len];
        let (mut work, mut touched) = (0, false);
        let Ok(found) = linear.find_end(hay, start, &mut slots, &mut work, &mut touched) else {
            continue;
        };
        decided += 1;
        let theirs = spans(anchored.captures(&hay[start..]), start);
        let context = format!("{pattern:?} on {hay:?} at {start}");
        match found {
            Some(end) => {
                assert_eq!(Some(ours(&slots)), theirs, "{context}");
                assert_eq!(slots[1], Some(end), "{context}");
            }
            None => assert_eq!(theirs, None, "{context}"),
        }
        if !touched {
            let longer = format!("{hay}%%\n#x: %a\n");
            let again = spans(anchored.captures(&longer[start..]), start);
            assert_eq!(
                again, theirs,
                "{context}: untouched end, yet `%...` changes it"
            );
        }
    }
    for caps in re.captures_iter(hay) {
        let m = caps.get(0).unwrap();
        let mut slots = vec![None; slot_len];
        if linear.resolve(hay, m.start(), m.end(), &mut slots) {
            decided += 1;
            let context = format!("{pattern:?} on {hay:?}, match {:?}", m.range());
            assert_eq!(Some(ours(&slots)), spans(Some(caps), 0), "{context}");
        }
    }
    Some(decided)
}

#[test]
fn lines_loops_pick_the_last_line_that_goes_on() {
    let lookup = "(%%\n#stack:\n)((?:[^%\n]*\n)*#_97: )([^\n]*)\n";
    let taken = "(%%\n#stack:\n)((?:[^%\n]*\n)*)#_107: ([^\n]*)\n";
    let hays = [
        // Several candidate lines: the last one before the thread's end wins.
        "%%\n#stack:\n#_97: a\n#b: 1\n#_97: b\n#c: 2\n%%\n#stack:\n#_97: c\n",
        // The name as a value, mid-line, or as a longer name: not a candidate.
        "%%\n#stack:\n#a: #_97: x\n#_977: y\n#_97: z\n",
        // No line with the name in this thread: the next thread's must not be taken.
        "%%\n#stack:\n#a: 1\n#b: 2\n%%\n#stack:\n#_97: n\n%%\n#stack:\n#_107: m\n",
        // `%` inside a line stops the loop; a value holding `%` is fine.
        "%%\n#stack:\n#x: a%b\n#_97: 1\n%%\n#stack:\n#_97: a%b\n#_107: %\n",
        // The name on the first line, on the last line without its `\n`, twice in a row.
        "%%\n#stack:\n#_107: 1\n#_107: 2\n#_97: \n#_97: 3",
        "%%\n#stack:\n\n\n#_107: é\n\n",
    ];
    for hay in hays {
        for pattern in [lookup, taken] {
            assert!(check(pattern, hay).unwrap() > 0);
        }
    }
    // Two loops, and a loop whose literal is followed by more than one line.
    let two = "(%%\n#stack:\n(?:[^%\n]*\n)*#b: ([^\n]*)\n(?:[^%\n]*\n)*#t: ([wb])\n)";
    let hay = "%%\n#stack:\n#b: 1\n#t: w\n#b: 2\n#x: \n#t: q\n#t: b\n%%\n#stack:\n#t: w\n#b: 3\n";
    assert!(check(two, hay).unwrap() > 0);
    let p = "(%%\n)((?:[^%\n]*\n)*)(#v: )((?:[^\n]*\n){2})x";
    assert!(check(p, "%%\n#v: 1\n#v: 2\nx\n#v: 3\n\nx%%\n#v: \n\nx").unwrap() > 0);
}

#[test]
fn alternations_sharing_prefixes() {
    let compare = "(%%\n#stack:\n![01]*)(?:(0)0:0|(0)0:(1)|(0)(1):0|(0)(1):1|(1)(0):0|(1)(0):1|(1)1:(0)|(1)1:1)";
    for hay in [
        "%%\n#stack:\n!0110:10\n%%\n#stack:\n!:\n%%\n#stack:\n!11:1%%\n#stack:\n!1",
        "%%\n#stack:\n!00:0\n%%\n#stack:\n!0101:01:1\n%%\n#stack:\n!10:\n",
    ] {
        assert!(check(compare, hay).unwrap() > 0);
    }
    for (pattern, hay) in [
        ("(ab|a)(b*)(c?)", "abbc ac abc b"),
        ("(?:(a)|(a)(b)|(a)(b)(c))(c*)", "abcc ac abc"),
        ("x(?:ab(c)|ab|a)(bc|b)?", "xabcbc xabbc xab xa"),
        (
            "(?:a(?:1(.)|2(..))|b(?:1|2(.)))(.)",
            "a1xy a2xyz b1x b2xy a3",
        ),
        ("(?:|a|ab)(b)", "abb ab b"),
        ("(?:a|)+?", "aa"),
        ("(?:[ab]|b[ab])(?:a|b)", "bba ab"),
        ("(%%\n)(?:(a)|(a)\n|(b))([^%]*)", "%%\na\n%%\nb%%\n"),
    ] {
        check(pattern, hay);
    }
}

#[test]
fn runs_of_single_byte_classes() {
    let bits = "([01])".repeat(5);
    let p = format!("(%%\n#s:\n){bits}(\n[^%]*%%\n#s:\n){bits}\n");
    let hay = "%%\n#s:\n01101\n#x: 1\n%%\n#s:\n11100\n%%\n#s:\n0110\n%%\n#s:\n10101\n";
    assert!(check(&p, hay).unwrap() > 0);
    assert!(check("([01])([01]*)([01])(1)", "0110 01 1 011").unwrap() > 0);
}

mod generated {
    use proptest::prelude::*;

    /// A piece of a linear pattern, as regex syntax.
    fn piece() -> impl Strategy<Value = String> {
        let classes = prop::sample::select(vec![
            "a", "b", "%", "\\n", "#", ":", "é", "[ab]", "[01]", "[^%\\n]", "[^\\n]", ".", "[^a]",
            "[#:]",
        ]);
        let atom = prop_oneof![
            classes.clone().prop_map(String::from),
            prop::sample::select(vec!["ab", "#x: ", "%%\\n", "a\\n", "é:"]).prop_map(String::from),
            (
                classes,
                prop::sample::select(vec![
                    "*", "+", "*?", "+?", "?", "??", "{2}", "{1,3}", "{0,2}?"
                ])
            )
                .prop_map(|(c, r)| format!("{c}{r}")),
            prop::sample::select(vec![
                "(?:[^%\\n]*\\n)*",
                "(?:[^\\n]*\\n)*",
                "(?:.*\\n)*",
                "(?:[^#%\\n]*\\n)*",
            ])
            .prop_map(String::from),
        ];
        atom.prop_recursive(2, 12, 4, |inner| {
            let seq = prop::collection::vec(inner, 0..4).prop_map(|v| v.concat());
            prop_oneof![
                seq.clone().prop_map(|s| format!("({s})")),
                prop::collection::vec(seq.clone(), 2..4)
                    .prop_map(|v| format!("(?:{})", v.join("|"))),
                (seq, any::<bool>())
                    .prop_map(|(s, lazy)| format!("(?:{s})?{}", if lazy { "?" } else { "" })),
            ]
        })
    }

    fn hay() -> impl Strategy<Value = String> {
        let unit = prop::sample::select(vec![
            "a",
            "b",
            "%",
            "\n",
            "#",
            ":",
            "é",
            "0",
            "1",
            "#x: ",
            "%%\n",
            "ab",
            "\n#x: a\n",
        ]);
        prop::collection::vec(unit, 0..14).prop_map(|v| v.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig {
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed00031),
        ..ProptestConfig::with_cases(600)
    })]
        #[test]
        fn generated_patterns_agree_with_regex(
            pieces in prop::collection::vec(piece(), 1..5),
            hays in prop::collection::vec(hay(), 1..4),
        ) {
            let pattern = pieces.concat();
            for hay in &hays {
                super::check(&pattern, hay);
            }
        }
    }
}

#[test]
fn lines_loops_with_many_candidate_lines() {
    // More candidate lines than one scan keeps: the one that goes on is early, late, or
    // absent, and the loop must not cross the `%`.
    let p = "(%%\n)((?:[^%\n]*\n)*)#v: (1[^\n]*)\n";
    for ones in [vec![], vec![0], vec![3], vec![11], vec![19], vec![2, 17]] {
        let mut hay = String::from("x%%\n#a: \n");
        for k in 0..20 {
            let value = if ones.contains(&k) { "1" } else { "0" };
            hay.push_str(&format!("#v: {value}{k}\n"));
        }
        hay.push_str("%%\n#v: 1\n");
        assert!(check(p, &hay).unwrap() > 0, "{hay:?}");
    }
}

#[test]
fn spans_of_fixed_width_atoms() {
    // Runs of literals, classes, exact repetitions and group marks become spans.
    let bits = "([01])".repeat(40);
    let long = format!("(%%\n#s:\n){bits}(\n)");
    let linear = Linear::new(&regex_syntax::parse(&long).unwrap()).unwrap();
    let spans = linear
        .steps
        .iter()
        .filter(|a| matches!(a, Atom::Span(_)))
        .count();
    // 84 marks, at most `UNDO` (32) a span.
    assert_eq!(spans, 3);
    let hay = "%%\n#s:\n".to_owned() + &"01".repeat(20) + "\n%%\n#s:\n" + &"1".repeat(39) + "%";
    assert!(check(&long, &hay).unwrap() > 0);
    for (pattern, hay) in [
        // Cut by the end inside a literal, a class, an exact repetition.
        ("(a%)([01]{3})(%b)", "a%010%b a%01 a%010%"),
        ("(x)([%a]{2})(y)", "x%ay x% xa"),
        ("(?:(a)|b)([01]{2}c)(d)", "a01cd b10c b1 a"),
        // Jumps into the middle of a run: after an optional part, between branches.
        ("a(?:(b)c)?(cd)([.A-Z]{2})", "abccdX. acdQQ abcd"),
        ("(?:x|xy)(z[0-9]{2})", "xyz12 xz1"),
        ("(é)(:[ab]{2})", "é:ab é:a"),
        ("([01]{0})(a)", "a"),
    ] {
        assert!(check(pattern, hay).unwrap() > 0, "{pattern:?}");
    }
}

#[test]
fn runs_followed_by_a_literal_that_starts_with_a_stop() {
    // The literal can start only where the run stops.
    for (pattern, hay) in [
        ("(a)([^\n]*)(\nb)", "a12\nb a\n\nb a\nc\nb a12"),
        ("([^%]+)(%%\n)", "x%%\n %\n%%\n y%%"),
        ("(#)(.*)(\n#)", "#a\nb\n# #\n#"),
        // Stepped in the search's loop: a failure after it undoes its marks and takes
        // back an earlier choice.
        ("(?:([^\n]*)(\nx))?([^\n]+)(\n)", "ab\nxy\nab\ny\n\nx\n"),
        ("(?:(a)([^\n]*)\n(b)|(a)([^\n]*)(\nc))", "a1\nc a\nb a\nd"),
    ] {
        assert!(check(pattern, hay).unwrap() > 0, "{pattern:?}");
    }
    // More marks than one call's undo log holds.
    let many = "([^\n]*)(\n)".repeat(12);
    assert!(check(&many, &"ab\n\nc\n".repeat(5)).unwrap() > 0);
}

#[test]
fn runs_of_ascii_classes_by_table() {
    for (pattern, hay) in [
        ("([a-h]*)([1-8]+)([a-h]?)", "ab12c h8é a1%b9 e"),
        ("(![01]*)([01]:)", "!0110:1 !: !01é:0 !1"),
        ("([%a]{1,3})(a)", "%%aa a%a%"),
        ("([a-c]*?)(c)", "abcc"),
    ] {
        assert!(check(pattern, hay).unwrap() > 0, "{pattern:?}");
    }
}

#[test]
fn char_sets_hold_exactly_their_class() {
    for pattern in [
        "[^\\n]",
        ".",
        "[a-c]",
        "[^%]",
        "(?i)k",
        "[\\x00-\\x7F]",
        "[^a]",
        "\\w",
        "[é-ü]",
        "[^é]",
        "[\\x7F-\\x{10FFFF}]",
        "[\\x00-\\x{D7FF}]",
        "(?s:.)",
        "(?-u:[\\x00-\\x7F])",
        "[\\x{80}-\\x{10FFFF}a]",
        "[\\x00a]",
        "[\\x7Fa]",
    ] {
        let hir = regex_syntax::parse(pattern).unwrap();
        let HirKind::Class(class) = hir.kind() else {
            panic!("{pattern:?} is not a class");
        };
        let Some(set) = CharSet::new(class) else {
            assert!(matches!(class, Class::Bytes(_)), "{pattern:?}");
            continue;
        };
        let re = regex::Regex::new(&format!("^(?:{pattern})$")).unwrap();
        for b in 0u8..128 {
            let text = char::from(b).to_string();
            assert_eq!(
                set.ascii >> b & 1 == 1,
                re.is_match(&text),
                "{pattern:?} {b}"
            );
        }
        for c in ['\u{80}', 'é', 'ü', '\u{D7FF}', '\u{E000}', '\u{10FFFF}'] {
            let text = c.to_string();
            assert_eq!(
                set.step(&text, 0).is_some(),
                re.is_match(&text),
                "{pattern:?} {c:?}"
            );
        }
        let every = ['\u{80}', 'é', '\u{D7FF}', '\u{E000}', '\u{10FFFF}']
            .iter()
            .all(|c| re.is_match(&c.to_string()));
        if matches!(set.beyond, Beyond::All) {
            assert!(every, "{pattern:?}");
        }
    }
}
