//! The literals every match of a pattern must contain: what tells a rule's reader which
//! threads it may pass over.
//!
//! Contract: [`required`] returns byte strings such that every match of the pattern
//! contains each of them (possibly none: then nothing is known). It walks the pattern's
//! high-level syntax tree: a literal requires itself; a concatenation requires the maximal
//! runs of its adjacent literal pieces and whatever each of its pieces requires; a group
//! and a repetition of at least one requires what its body requires; anything else
//! (alternations, classes, optional parts) requires nothing. So the answer is sound but not
//! complete: an alternation of two strings sharing a word gives up that word. Trade-off: a
//! smaller bound (fewer threads judged unreadable) where the walk gives up, never a bound
//! above the truth.

use regex_syntax::hir::{Hir, HirKind};

/// The literals every match of `pattern` contains, longest first, without duplicates or
/// empty strings; `None` when the pattern does not parse.
pub fn required(pattern: &str) -> Option<Vec<Vec<u8>>> {
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(pattern)
        .ok()?;
    let mut out = Vec::new();
    collect(&hir, &mut out);
    out.retain(|l: &Vec<u8>| !l.is_empty());
    out.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    out.dedup();
    // A literal inside a longer required one says nothing more.
    let mut kept: Vec<Vec<u8>> = Vec::new();
    for literal in out {
        if !kept
            .iter()
            .any(|k| memchr::memmem::find(k, &literal).is_some())
        {
            kept.push(literal);
        }
    }
    Some(kept)
}

/// The literal `hir` matches exactly, if it is one.
fn exact(hir: &Hir) -> Option<Vec<u8>> {
    match hir.kind() {
        HirKind::Literal(literal) => Some(literal.0.to_vec()),
        HirKind::Capture(capture) => exact(&capture.sub),
        HirKind::Concat(parts) => {
            let mut bytes = Vec::new();
            for part in parts {
                bytes.extend(exact(part)?);
            }
            Some(bytes)
        }
        _ => None,
    }
}

fn collect(hir: &Hir, out: &mut Vec<Vec<u8>>) {
    if let Some(bytes) = exact(hir) {
        out.push(bytes);
        return;
    }
    match hir.kind() {
        HirKind::Capture(capture) => collect(&capture.sub, out),
        HirKind::Repetition(repetition) if repetition.min >= 1 => collect(&repetition.sub, out),
        HirKind::Concat(parts) => {
            let mut run: Vec<u8> = Vec::new();
            for part in parts {
                match exact(part) {
                    Some(bytes) => run.extend(bytes),
                    None => {
                        out.push(std::mem::take(&mut run));
                        collect(part, out);
                    }
                }
            }
            out.push(run);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::required;

    fn strings(pattern: &str) -> Vec<String> {
        required(pattern)
            .unwrap()
            .into_iter()
            .map(|l| String::from_utf8(l).unwrap())
            .collect()
    }

    #[test]
    fn runs_of_literals_are_required_and_alternations_are_not() {
        assert_eq!(
            strings("(%%\n#stack:\n)((?:[^%\n]*\n)*#_97: )([^\n]*)\n"),
            ["%%\n#stack:\n", "#_97: "]
        );
        assert_eq!(strings("ab(c|d)ef"), ["ab", "ef"]);
        assert_eq!(strings("(?:xy)+z?"), ["xy"]);
        assert!(strings("a*|b").is_empty());
        // A literal inside a longer one is dropped.
        assert_eq!(strings("abc(?:x|y)b"), ["abc"]);
        assert!(required("(").is_none());
    }
}
