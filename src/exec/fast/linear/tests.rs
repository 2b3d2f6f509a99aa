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
