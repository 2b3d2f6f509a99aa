//! The pair list: a JSON array of `[pattern, replacement]` in Python's `re` syntax.
//!
//! One pair a line, so that diffs of two exports are readable. A pair list holds no
//! metadata, and the plain `re.sub` loop it is made for cannot run a rule that can match
//! both the empty string and longer text exactly, so [`super::translate_rules`] refuses
//! such rules for this format. The loop:
//!
//! ```python
//! import json, re, sys
//! rules = [(re.compile(p), r) for p, r in json.load(open("rules.json", encoding="utf-8"))]
//! state = sys.stdin.buffer.read().decode("utf-8")
//! for pattern, replacement in rules:
//!     state = pattern.sub(replacement, state)
//! sys.stdout.buffer.write(state.encode("utf-8"))
//! ```

use super::{TargetRule, string_literal};

/// Writes the pair list.
pub fn write(rules: &[TargetRule]) -> String {
    let mut out = String::from("[\n");
    for (i, rule) in rules.iter().enumerate() {
        out.push_str("  [");
        out.push_str(&string_literal(&rule.pattern.source));
        out.push_str(", ");
        out.push_str(&string_literal(&rule.replacement));
        out.push(']');
        if i + 1 < rules.len() {
            out.push(',');
        }
        out.push('\n');
    }
    out.push_str("]\n");
    out
}
