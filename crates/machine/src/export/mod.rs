//! Exports: a program's rules written for other regex engines.
//!
//! The rule list is the whole engine, so any language with a regex library can run it.
//! Three formats are written, one module each:
//!
//! - [`json`]: `[[pattern, replacement], ...]` in Python's `re` syntax, for a ten-line
//!   `re.sub` loop;
//! - [`python`]: a Python module with `RULES` and `run(state)`;
//! - [`js`]: an ES module with the rules as `RegExp` literals and `run(state, onProgress)`.
//!
//! # Keeping the meaning
//!
//! Every pattern is parsed with `regex-syntax` and written again for the target by
//! [`syntax::translate`] (classes expanded, anchors and word boundaries spelled out; see
//! there). Replacements are resolved against their pattern first, so every group
//! reference is a number: `\g<1>` in Python, `$01` in JavaScript (two digits, so that a
//! digit after it is never read as part of the number; `$&` for the whole match, `$$` for
//! a dollar). JavaScript cannot refer to a group above 99 in a replacement string, so such a
//! rule's replacement is written as a function of the match instead.
//!
//! Empty matches need care. `regex` and Python advance one code point after an empty
//! match; JavaScript (without `u`) one UTF-16 unit, possibly into a surrogate pair, where
//! the guard that [`syntax`] puts before such patterns stops it from matching. And `regex`
//! never reports an empty match that starts where the previous match ended, while Python's `re.sub` (3.7 and later) and JavaScript's `replace` do: `a*` turns
//! `baac` into `-b-c-` with `regex` and into `-b--c-` with the other two. So:
//!
//! - a rule that cannot match the empty string, or can match only the empty string, means
//!   the same under `re.sub` and `String.prototype.replace`;
//! - a rule that can match both is run by the exported `run` functions with a small loop
//!   that skips such an empty match (the rule is marked *exact*); the plain pair list
//!   ([`json`]) cannot carry that, so it refuses such a rule.
//!
//! Whatever cannot be written with the same meaning is refused with an [`ExportError`]
//! naming the rule. The cross-engine tests (`tests/machine/exports.rs`) run the exports with
//! CPython and Node.js and compare every final state with the executors byte for byte.

pub mod js;
pub mod json;
pub mod python;
pub mod syntax;

use std::fmt;

use crate::program::{Origin, Piece, Template, ValidProgram};

pub use syntax::{Refusal, Target, Translated};

/// An export format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A JSON array of `[pattern, replacement]` pairs in Python syntax.
    Json,
    /// A Python module.
    Python,
    /// An ES module.
    Js,
}

impl Format {
    /// The format's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Python => "python",
            Format::Js => "js",
        }
    }
}

/// A format name that names no format.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown export format `{0}` (expected json, python or js)")]
pub struct UnknownFormat(pub String);

impl std::str::FromStr for Format {
    type Err = UnknownFormat;
    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        match s {
            "json" => Ok(Format::Json),
            "python" | "py" => Ok(Format::Python),
            "js" | "javascript" => Ok(Format::Js),
            other => Err(UnknownFormat(other.to_string())),
        }
    }
}

/// A rule that cannot be exported with the same meaning.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ExportError {
    /// The format being written.
    pub format: Format,
    /// Index of the rule (0-based).
    pub index: usize,
    /// The rule's origin.
    pub origin: Origin,
    /// The rule's pattern.
    pub pattern: String,
    /// Why.
    pub problem: String,
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut shown: String = self.pattern.chars().take(80).collect();
        if shown.len() < self.pattern.len() {
            shown.push('…');
        }
        write!(
            f,
            "rule {} ({}), pattern {:?}: cannot export to {}: {}",
            self.index,
            self.origin,
            shown,
            self.format.name(),
            self.problem
        )
    }
}

/// One rule written for a target.
#[derive(Clone, Debug)]
pub struct TargetRule {
    /// The pattern.
    pub pattern: Translated,
    /// The replacement in the target's syntax: for Python a template string; for
    /// JavaScript a string literal or a function expression (see [`js`]), as source text.
    pub replacement: String,
    /// The rule can match both the empty string and longer text, so it must be run with
    /// the exact loop rather than the engine's own global replace.
    pub exact: bool,
}

/// Writes every rule of `program` for `target`, or names the first rule that cannot be.
pub fn translate_rules(
    program: &ValidProgram,
    format: Format,
) -> Result<Vec<TargetRule>, ExportError> {
    let target = match format {
        Format::Json | Format::Python => Target::Python,
        Format::Js => Target::Js,
    };
    let mut out = Vec::with_capacity(program.rules().len());
    for (index, rule) in program.rules().iter().enumerate() {
        let error = |problem: String| ExportError {
            format,
            index,
            origin: rule.origin.clone(),
            pattern: rule.pattern.clone(),
            problem,
        };
        let pattern = syntax::translate(&rule.pattern, target).map_err(|e| error(e.0))?;
        let template = program.template(index);
        let replacement = match target {
            Target::Python => crate::program::replacement::rust_to_python(template),
            Target::Js => js_replacement(template),
        };
        let exact = pattern.can_be_empty && !pattern.only_empty;
        if exact && format == Format::Json {
            return Err(error(
                "the pattern can match both the empty string and longer text; a plain \
                 re.sub would also replace an empty match where the previous match ended \
                 (use --format python, whose run() handles it)"
                    .to_string(),
            ));
        }
        out.push(TargetRule {
            pattern,
            replacement,
            exact,
        });
    }
    Ok(out)
}

/// A replacement in JavaScript's syntax: `$$`, `$&` and two-digit `$NN`. A string can
/// only reach groups 1 to 99, so a replacement that uses a higher group is written as a
/// function of the match instead: `(...m) => (m[1] ?? "") + "text" + (m[100] ?? "")`.
fn js_replacement(template: &Template) -> String {
    if template.max_group().is_some_and(|g| g > 99) {
        let mut parts = Vec::new();
        for piece in template.pieces() {
            match piece {
                Piece::Literal(text) => parts.push(string_literal(text)),
                Piece::Group(i) => parts.push(format!("(m[{i}] ?? \"\")")),
            }
        }
        if parts.is_empty() {
            parts.push("\"\"".to_string());
        }
        return format!("(...m) => {}", parts.join(" + "));
    }
    let mut out = String::new();
    for piece in template.pieces() {
        match piece {
            Piece::Literal(text) => out.push_str(&text.replace('$', "$$")),
            Piece::Group(0) => out.push_str("$&"),
            Piece::Group(i) => out.push_str(&format!("${i:02}")),
        }
    }
    string_literal(&out)
}

/// Writes `program` in `format`.
pub fn export(program: &ValidProgram, format: Format) -> Result<String, ExportError> {
    let rules = translate_rules(program, format)?;
    Ok(match format {
        Format::Json => json::write(&rules),
        Format::Python => python::write(program, &rules),
        Format::Js => js::write(program, &rules),
    })
}

/// A JSON string literal, which is also a valid Python and JavaScript string literal.
pub(crate) fn string_literal(s: &str) -> String {
    serde_json::to_string(s).expect("a string always serializes")
}
