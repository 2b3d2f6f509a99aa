//! Reading and writing programs as JSON.
//!
//! # Schema
//!
//! The native form is an object:
//!
//! ```json
//! {
//!   "format": "regex-chess-program",
//!   "version": 1,
//!   "name": "legal-moves",
//!   "description": "FEN in, legal moves out",
//!   "replacement_syntax": "rust",
//!   "rules": [
//!     {"pattern": "(%%\n#stack:\n)", "replacement": "${1}True\n",
//!      "origin": {"instruction": "push", "file": "crates/chess/src/movegen/mod.rs", "line": 12, "column": 5}},
//!     {"pattern": "%%\n", "replacement": "%p\n", "origin": "hand-written pause"}
//!   ]
//! }
//! ```
//!
//! `name`, `description`, `replacement_syntax` and each rule's `origin` may be left out.
//! An origin is `null`, a string (free text), or an object with `instruction`, `file`,
//! `line` and `column`. `replacement_syntax` is `"rust"` (the default: `$1`, `${name}`,
//! `$$`) or `"python"` (`\1`, `\g<name>`, converted on load).
//!
//! The form other tools write is accepted too: a plain array of `[pattern, replacement]`
//! pairs. Its replacements are read as Python syntax when any of them holds `\` followed by
//! a digit or by `g<`, and as `regex` syntax otherwise, unless the caller says which.
//!
//! Loading only parses; call [`Program::validate`](super::Program::validate) to check the
//! rules. [`load`] does both.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{Program, ProgramError, Rule, ValidProgram, replacement};

/// The value of the `format` field of the native form.
pub const FORMAT: &str = "regex-chess-program";
/// The version of the native form that this build writes and reads.
pub const VERSION: u32 = 1;

/// How replacements in a file are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Syntax {
    /// Decide per file (see the module docs).
    #[default]
    Auto,
    /// The `regex` crate's `$1` / `${name}` syntax.
    Rust,
    /// Python's `\1` / `\g<name>` syntax.
    Python,
}

/// A syntax name that names no [`Syntax`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown syntax `{0}` (expected auto, rust or python)")]
pub struct UnknownSyntax(pub String);

impl std::str::FromStr for Syntax {
    type Err = UnknownSyntax;
    fn from_str(s: &str) -> Result<Syntax, UnknownSyntax> {
        match s {
            "auto" => Ok(Syntax::Auto),
            "rust" => Ok(Syntax::Rust),
            "python" => Ok(Syntax::Python),
            other => Err(UnknownSyntax(other.to_string())),
        }
    }
}

#[derive(Serialize, Deserialize)]
struct NativeFile {
    format: String,
    version: u32,
    #[serde(default)]
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    replacement_syntax: Option<Syntax>,
    rules: Vec<Rule>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum AnyFile {
    Native(NativeFile),
    Pairs(Vec<(String, String)>),
}

/// Parses a program from JSON text of either form. `syntax` overrides what the file says
/// about its replacements, unless it is [`Syntax::Auto`].
pub fn from_str(text: &str, syntax: Syntax) -> Result<Program, ProgramError> {
    let file: AnyFile = serde_json::from_str(text).map_err(|_| {
        let shape = match serde_json::from_str::<serde_json::Value>(text) {
            Ok(_) => format!(
                "expected an object with \"format\": \"{FORMAT}\" or an array of \
                 [pattern, replacement] pairs"
            ),
            Err(e) => e.to_string(),
        };
        ProgramError::Json(shape)
    })?;
    let (mut program, declared) = match file {
        AnyFile::Native(native) => {
            if native.format != FORMAT {
                return Err(ProgramError::Json(format!(
                    "the \"format\" field is {:?}, expected {FORMAT:?}",
                    native.format
                )));
            }
            if native.version != VERSION {
                return Err(ProgramError::Version(native.version, VERSION));
            }
            let program = Program {
                name: native.name,
                description: native.description,
                rules: native.rules,
            };
            (program, native.replacement_syntax.unwrap_or(Syntax::Rust))
        }
        AnyFile::Pairs(pairs) => {
            let rules = pairs.into_iter().map(|(p, r)| Rule::new(p, r)).collect();
            (Program::from_rules(rules), Syntax::Auto)
        }
    };
    let syntax = match (syntax, declared) {
        (Syntax::Auto, Syntax::Auto) => {
            if program
                .rules
                .iter()
                .any(|r| replacement::looks_like_python(&r.replacement))
            {
                Syntax::Python
            } else {
                Syntax::Rust
            }
        }
        (Syntax::Auto, declared) => declared,
        (chosen, _) => chosen,
    };
    if syntax == Syntax::Python {
        for (index, rule) in program.rules.iter_mut().enumerate() {
            rule.replacement =
                replacement::python_to_rust(&rule.replacement).map_err(|e| ProgramError::Rule {
                    index,
                    origin: rule.origin.clone(),
                    problem: super::RuleProblem::Replacement(e),
                })?;
        }
    }
    Ok(program)
}

/// Writes `program` in the native form, with `regex`-syntax replacements.
pub fn to_string(program: &Program) -> String {
    let file = NativeFile {
        format: FORMAT.to_string(),
        version: VERSION,
        name: program.name.clone(),
        description: program.description.clone(),
        replacement_syntax: Some(Syntax::Rust),
        rules: program.rules.clone(),
    };
    serde_json::to_string_pretty(&file).expect("a program always serializes")
}

/// An error reading a program file.
#[derive(Debug, thiserror::Error)]
pub enum ProgramFileError {
    /// The file could not be read.
    #[error("cannot read program {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file was read but is not an acceptable program.
    #[error("program {path}: {source}")]
    Program {
        /// The file.
        path: String,
        /// Why.
        source: ProgramError,
    },
}

/// Reads, parses and validates the program at `path`.
pub fn load(path: &Path, syntax: Syntax) -> Result<ValidProgram, ProgramFileError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| ProgramFileError::Io {
        path: shown.clone(),
        source,
    })?;
    from_str(&text, syntax)
        .and_then(Program::validate)
        .map_err(|source| ProgramFileError::Program {
            path: shown,
            source,
        })
}

/// Writes `program` to `path` in the native form.
pub fn save(program: &Program, path: &Path) -> std::io::Result<()> {
    std::fs::write(path, to_string(program))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::Origin;

    #[test]
    fn native_round_trip() {
        let program = Program {
            name: "demo".into(),
            description: "two rules".into(),
            rules: vec![
                Rule::new("(%%\n#stack:\n)", "${1}True\n").with_origin(Origin::Emitted {
                    instruction: "push".into(),
                    file: "src/x.rs".into(),
                    line: 3,
                    column: 9,
                }),
                Rule::new("a", "b").with_origin(Origin::Text("by hand".into())),
                Rule::new("c", "$$"),
            ],
        };
        let text = to_string(&program);
        assert_eq!(from_str(&text, Syntax::Auto).unwrap(), program);
    }

    #[test]
    fn pairs_with_python_replacements() {
        let program = from_str(r#"[["(a)(b)", "\\2\\g<1>$"], ["x", "y"]]"#, Syntax::Auto).unwrap();
        assert_eq!(program.rules[0].replacement, "${2}${1}$$");
        assert_eq!(program.rules[1].origin, Origin::Unknown);
    }

    #[test]
    fn pairs_with_rust_replacements() {
        let program = from_str(r#"[["(a)", "$1\\"]]"#, Syntax::Auto).unwrap();
        assert_eq!(program.rules[0].replacement, "$1\\");
    }

    #[test]
    fn bad_shapes_are_named() {
        let err = from_str(r#"{"rules": 3}"#, Syntax::Auto)
            .unwrap_err()
            .to_string();
        assert!(err.contains("expected an object"), "{err}");
        let err = from_str("[1,", Syntax::Auto).unwrap_err().to_string();
        assert!(err.contains("not valid JSON"), "{err}");
        let err = from_str(
            r#"{"format": "regex-chess-program", "version": 9, "rules": []}"#,
            Syntax::Auto,
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("version 9"), "{err}");
    }
}
