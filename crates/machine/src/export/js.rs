//! The ES module: `RULES` as `[RegExp, replacement]` pairs, `ORIGINS`, `EXACT`,
//! `applyRule(i, state)` and `run(state, onProgress)`.
//!
//! Every `RegExp` literal has the `g` flag and no other: patterns are written for UTF-16
//! code units, with surrogate pairs spelled out and a guard against matching inside a
//! pair (see [`super::syntax`] for why not `u`). Replacements use `$NN`, `$&` and `$$`;
//! one that uses a group above 99, which a string cannot reach, is a function of the match
//! (`(...m) => (m[1] ?? "") + "text" + (m[100] ?? "")`), which `replace` accepts too.
//! `EXACT` holds the indices of the rules that can match both the empty string and longer
//! text (see [`super`]); `run` applies those with a loop over `exec` that skips an empty
//! match where the previous match ended, and the others with `String.prototype.replace`.
//! `onProgress(i, n, state)` is called after rule `i` of `n`; the module never yields, so
//! a page runs it in a worker.

use super::{TargetRule, string_literal};
use crate::program::ValidProgram;

const RUNNER: &str = r#"
function expand(replacement, m) {
  if (typeof replacement === "function") return replacement(...m);
  return replacement.replace(/\$(\$|&|\d\d)/g, (_, x) =>
    x === "$" ? "$" : x === "&" ? m[0] : (m[Number(x)] ?? ""));
}

// Replace like the regex crate: no empty match where the previous match ended.
function subExact(rx, replacement, state) {
  let out = "";
  let copied = 0;
  let start = 0;
  let lastEnd = -1;
  while (start <= state.length) {
    rx.lastIndex = start;
    const m = rx.exec(state);
    if (m === null) break;
    const a = m.index;
    const b = a + m[0].length;
    if (a === b && b === lastEnd) {
      start = b + (state.codePointAt(b) > 0xffff ? 2 : 1);
      continue;
    }
    out += state.slice(copied, a) + expand(replacement, m);
    copied = lastEnd = start = b;
  }
  return out + state.slice(copied);
}

/** Applies rule `i` alone to `state` (every match, like the regex crate's replace_all). */
export function applyRule(i, state) {
  const [rx, replacement] = RULES[i];
  return EXACT.has(i) ? subExact(rx, replacement, state) : state.replace(rx, replacement);
}

/** Applies every rule in order to `state` and returns the final state. */
export function run(state, onProgress) {
  const n = RULES.length;
  for (let i = 0; i < n; i++) {
    state = applyRule(i, state);
    if (onProgress) onProgress(i, n, state);
  }
  return state;
}
"#;

/// Writes the module.
pub fn write(program: &ValidProgram, rules: &[TargetRule]) -> String {
    let meta = program.program();
    let mut out = String::new();
    out.push_str("// The rules of a regex-chess program, for JavaScript's RegExp.\n");
    out.push_str("// Written by `regex-chess export --format js`.\n\n");
    out.push_str(&format!(
        "export const NAME = {};\n",
        string_literal(&meta.name)
    ));
    out.push_str(&format!(
        "export const DESCRIPTION = {};\n\n",
        string_literal(&meta.description)
    ));
    out.push_str("export const RULES = [\n");
    for rule in rules {
        out.push_str(&format!(
            "  [/{}/g, {}],\n",
            rule.pattern.source, rule.replacement
        ));
    }
    out.push_str("];\n\n");
    let exact: Vec<String> = rules
        .iter()
        .enumerate()
        .filter(|(_, r)| r.exact)
        .map(|(i, _)| i.to_string())
        .collect();
    out.push_str(&format!(
        "export const EXACT = new Set([{}]);\n\n",
        exact.join(", ")
    ));
    out.push_str("export const ORIGINS = [\n");
    for rule in program.rules() {
        out.push_str(&format!(
            "  {},\n",
            string_literal(&rule.origin.to_string())
        ));
    }
    out.push_str("];\n");
    out.push_str(RUNNER);
    out
}
