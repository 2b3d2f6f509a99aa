//! The Python module: `RULES`, `run(state, on_progress=None)`, `apply_rule(i, state)` and
//! a command-line entry point that runs the rules on standard input.
//!
//! `RULES` holds `(pattern, replacement, exact)` triples in `re` syntax. Exact rules (see
//! [`super`]) are run by a loop over `Pattern.search` that skips an empty match where the
//! previous match ended, as `regex` does; the others by `Pattern.sub`. Patterns are
//! compiled once, on the first run (`re`'s own cache holds only 512).

use super::{TargetRule, string_literal};
use crate::program::ValidProgram;

const RUNNER: &str = r#"
_compiled = None


def _rules():
    global _compiled
    if _compiled is None:
        _compiled = [(re.compile(p), r, e) for p, r, e in RULES]
    return _compiled


def _sub_exact(pattern, replacement, state):
    """Replace like the regex crate: no empty match where the previous match ended."""
    out = []
    copied = 0
    start = 0
    last_end = -1
    while start <= len(state):
        m = pattern.search(state, start)
        if m is None:
            break
        a, b = m.span()
        if a == b and b == last_end:
            start = b + 1
            continue
        out.append(state[copied:a])
        out.append(m.expand(replacement))
        copied = last_end = start = b
    out.append(state[copied:])
    return "".join(out)


def apply_rule(i, state):
    """Apply rule i alone to `state` (every match, like the regex crate's replace_all)."""
    pattern, replacement, exact = _rules()[i]
    if exact:
        return _sub_exact(pattern, replacement, state)
    return pattern.sub(replacement, state)


def run(state, on_progress=None):
    """Apply every rule in order to `state` and return the final state.

    `on_progress(i, n)` is called after rule i of n, if given.
    """
    n = len(_rules())
    for i in range(n):
        state = apply_rule(i, state)
        if on_progress is not None:
            on_progress(i, n)
    return state


if __name__ == "__main__":
    import sys

    sys.stdout.buffer.write(run(sys.stdin.buffer.read().decode("utf-8")).encode("utf-8"))
"#;

/// Writes the module.
pub fn write(program: &ValidProgram, rules: &[TargetRule]) -> String {
    let meta = program.program();
    let mut out = String::new();
    out.push_str("\"\"\"The rules of a regex-chess program, for Python's re module.\n\n");
    out.push_str("Written by `regex-chess export --format python`. run(state) applies them\n");
    out.push_str("in order, each as a global replace, and returns the final state;\n");
    out.push_str("apply_rule(i, state) applies rule i alone.\n\"\"\"\n\n");
    out.push_str("import re\n\n");
    out.push_str(&format!("NAME = {}\n", string_literal(&meta.name)));
    out.push_str(&format!(
        "DESCRIPTION = {}\n\n",
        string_literal(&meta.description)
    ));
    out.push_str("# (pattern, replacement, exact): exact rules can match both the empty\n");
    out.push_str("# string and longer text and are run by _sub_exact.\n");
    out.push_str("RULES = [\n");
    for rule in rules {
        out.push_str(&format!(
            "    ({}, {}, {}),\n",
            string_literal(&rule.pattern.source),
            string_literal(&rule.replacement),
            if rule.exact { "True" } else { "False" }
        ));
    }
    out.push_str("]\n");
    out.push_str(RUNNER);
    out
}
