//! Rule programs: the ordered list of `(pattern, replacement)` rules that is the machine's
//! whole behaviour.
//!
//! A [`Program`] is plain data: rules in order, each with its origin, plus a name and a
//! description. Building one does not check it; [`Program::validate`] compiles every
//! pattern with the `regex` crate (so a pattern with a backreference or a look-around is
//! refused) and resolves every replacement's groups, returning a [`ValidProgram`] that the
//! executors accept. Keeping the two types apart means an executor never meets a rule it
//! cannot run.
//!
//! Programs are stored as JSON; see [`json`] for the schema.

pub mod json;
pub mod replacement;
pub mod wire;

use std::fmt;

use serde::{Deserialize, Serialize};

pub use replacement::{Piece, Template, TemplateError};

/// Where a rule came from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Origin {
    /// Nothing is known (a plain list of pairs imported from another tool).
    #[default]
    Unknown,
    /// Free text, for hand-written rules.
    Text(String),
    /// Emitted by the compiler: the instruction and the source location of the DSL call.
    Emitted {
        /// The instruction that was lowered, such as `push` or `fork_list`.
        instruction: String,
        /// Source file of the DSL call.
        file: String,
        /// Line of the DSL call (1-based).
        line: u32,
        /// Column of the DSL call (1-based).
        column: u32,
    },
}

impl Origin {
    /// True when nothing is known about the origin.
    pub fn is_unknown(&self) -> bool {
        matches!(self, Origin::Unknown)
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Unknown => f.write_str("unknown origin"),
            Origin::Text(text) => f.write_str(text),
            Origin::Emitted {
                instruction,
                file,
                line,
                column,
            } => write!(f, "{instruction} at {file}:{line}:{column}"),
        }
    }
}

/// One substitution: every match of `pattern` is replaced by `replacement`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rule {
    /// A pattern in the `regex` crate's syntax.
    pub pattern: String,
    /// A replacement in the `regex` crate's syntax (`$1`, `${name}`, `$$`).
    pub replacement: String,
    /// Who emitted the rule.
    #[serde(default, skip_serializing_if = "Origin::is_unknown")]
    pub origin: Origin,
}

impl Rule {
    /// A rule with an unknown origin.
    pub fn new(pattern: impl Into<String>, replacement: impl Into<String>) -> Rule {
        Rule {
            pattern: pattern.into(),
            replacement: replacement.into(),
            origin: Origin::Unknown,
        }
    }

    /// The same rule with `origin`.
    pub fn with_origin(mut self, origin: Origin) -> Rule {
        self.origin = origin;
        self
    }
}

/// An ordered list of rules with its metadata.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    /// A short name, such as `play` or `legal-moves`.
    pub name: String,
    /// What the program does and what state it expects.
    pub description: String,
    /// The rules, applied in this order.
    pub rules: Vec<Rule>,
}

impl Program {
    /// A program made of `rules`, with no name.
    pub fn from_rules(rules: Vec<Rule>) -> Program {
        Program {
            rules,
            ..Program::default()
        }
    }

    /// Checks every rule, compiling each distinct pattern once. Patterns are compiled one
    /// at a time and dropped once their rules' templates are parsed, so memory stays at one
    /// compiled pattern (a program of a few thousand Unicode patterns would otherwise hold
    /// hundreds of megabytes). The error reported is that of the first bad rule.
    pub fn validate(self) -> Result<ValidProgram, ProgramError> {
        self.validate_with(&mut |pattern| regex::Regex::new(pattern))
    }

    /// [`Program::validate`] with the patterns compiled by `compile`, which must answer as
    /// `regex::Regex::new` does (a cache of its answers, keyed by the pattern's text): what
    /// a fuzz target that meets the same patterns input after input uses, so that each is
    /// compiled once per process, not once per input.
    pub fn validate_with(
        self,
        compile: &mut dyn FnMut(&str) -> Result<regex::Regex, regex::Error>,
    ) -> Result<ValidProgram, ProgramError> {
        let mut by_pattern: std::collections::HashMap<&str, Vec<usize>> = Default::default();
        let mut order = Vec::new();
        for (index, rule) in self.rules.iter().enumerate() {
            let rules = by_pattern.entry(rule.pattern.as_str()).or_default();
            if rules.is_empty() {
                order.push(rule.pattern.as_str());
            }
            rules.push(index);
        }
        let mut templates: Vec<Option<Template>> = vec![None; self.rules.len()];
        let mut first_error: Option<(usize, ProgramError)> = None;
        let mut note = |index: usize, error: ProgramError| {
            if first_error.as_ref().is_none_or(|(i, _)| index < *i) {
                first_error = Some((index, error));
            }
        };
        for pattern in order {
            let rules = &by_pattern[pattern];
            let regex = match compile(pattern) {
                Ok(regex) => regex,
                Err(e) => {
                    let index = rules[0];
                    let rule = &self.rules[index];
                    note(
                        index,
                        ProgramError::rule(index, rule, RuleProblem::Pattern(e.to_string())),
                    );
                    continue;
                }
            };
            for &index in rules {
                let rule = &self.rules[index];
                match Template::parse(&rule.replacement, &regex) {
                    Ok(template) => templates[index] = Some(template),
                    Err(e) => note(
                        index,
                        ProgramError::rule(index, rule, RuleProblem::Replacement(e)),
                    ),
                }
            }
        }
        if let Some((_, error)) = first_error {
            return Err(error);
        }
        let templates = templates
            .into_iter()
            .map(|t| t.expect("every rule has a template when no rule failed"))
            .collect();
        Ok(ValidProgram {
            program: self,
            templates,
        })
    }
}

/// A program whose every pattern compiles and whose every replacement names only groups
/// its pattern has. Only [`Program::validate`] makes one.
#[derive(Clone, Debug)]
pub struct ValidProgram {
    program: Program,
    templates: Vec<Template>,
}

impl ValidProgram {
    /// The program's rules, in order.
    pub fn rules(&self) -> &[Rule] {
        &self.program.rules
    }

    /// The parsed replacement of rule `index`.
    pub fn template(&self, index: usize) -> &Template {
        &self.templates[index]
    }

    /// The program itself.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// Gives back the program.
    pub fn into_program(self) -> Program {
        self.program
    }

    /// Every rule's parsed replacement, in rule order.
    pub(crate) fn templates(&self) -> &[Template] {
        &self.templates
    }

    /// Puts back together a program that [`Program::validate`] accepted earlier, from
    /// its rules and the templates validation gave them (the program cache stores both;
    /// its key and checksum are what vouch for them). `None` when the counts differ.
    pub(crate) fn from_validated_parts(
        program: Program,
        templates: Vec<Template>,
    ) -> Option<ValidProgram> {
        (program.rules.len() == templates.len()).then_some(ValidProgram { program, templates })
    }

    /// The program of this one's first `rules` rules (all of them when it has fewer),
    /// without validating again: a prefix of a valid program is valid.
    pub fn prefix(&self, rules: usize) -> ValidProgram {
        let keep = rules.min(self.program.rules.len());
        let mut program = self.program.clone();
        program.rules.truncate(keep);
        ValidProgram {
            program,
            templates: self.templates[..keep].to_vec(),
        }
    }

    /// The number of distinct patterns.
    pub fn distinct_patterns(&self) -> usize {
        let set: std::collections::HashSet<&str> =
            self.rules().iter().map(|r| r.pattern.as_str()).collect();
        set.len()
    }
}

/// What is wrong with one rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleProblem {
    /// The pattern does not compile with the `regex` crate; the compiler's message.
    Pattern(String),
    /// The replacement is not usable with this pattern.
    Replacement(TemplateError),
}

/// A program that could not be read or accepted.
#[derive(Debug, thiserror::Error)]
pub enum ProgramError {
    /// The file is not JSON of either accepted shape.
    #[error("the program is not valid JSON of a known shape: {0}")]
    Json(String),
    /// The file declares a format version this build does not know.
    #[error("the program has format version {0}; this build reads version {1}")]
    Version(u32, u32),
    /// A rule is wrong.
    #[error("rule {index} ({origin}): {}", describe(problem))]
    Rule {
        /// Index of the rule in the program (0-based).
        index: usize,
        /// The rule's origin.
        origin: Origin,
        /// What is wrong.
        problem: RuleProblem,
    },
}

fn describe(problem: &RuleProblem) -> String {
    match problem {
        RuleProblem::Pattern(message) => {
            let first = message.lines().collect::<Vec<_>>().join(" ");
            format!("the pattern does not compile: {first}")
        }
        RuleProblem::Replacement(e) => e.to_string(),
    }
}

impl ProgramError {
    fn rule(index: usize, rule: &Rule, problem: RuleProblem) -> ProgramError {
        ProgramError::Rule {
            index,
            origin: rule.origin.clone(),
            problem,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_reports_the_first_bad_rule() {
        // Rule 1's replacement names a missing group; rule 2 reuses rule 0's pattern with
        // a bad replacement too, and rule 3's pattern does not compile. Rule 1 is first.
        let program = Program::from_rules(vec![
            Rule::new("a", "b"),
            Rule::new("(c)", "${2}"),
            Rule::new("a", "${1}"),
            Rule::new("(", "x"),
        ]);
        let err = program.validate().unwrap_err().to_string();
        assert!(err.starts_with("rule 1 "), "{err}");
        let program = Program::from_rules(vec![
            Rule::new("a", "b"),
            Rule::new("(", "x"),
            Rule::new("a", "${1}"),
        ]);
        let err = program.validate().unwrap_err().to_string();
        assert!(err.starts_with("rule 1 "), "{err}");
    }

    #[test]
    fn validation_names_the_rule() {
        let program = Program::from_rules(vec![
            Rule::new("a", "b"),
            Rule::new(r"(a)\1", "x").with_origin(Origin::Text("hand-written".into())),
        ]);
        let err = program.validate().unwrap_err().to_string();
        assert!(
            err.starts_with("rule 1 (hand-written): the pattern does not compile"),
            "{err}"
        );
        assert!(err.contains("backreferences are not supported"), "{err}");
        assert!(!err.contains('\n'));
    }

    #[test]
    fn validation_checks_replacements() {
        let program = Program::from_rules(vec![Rule::new("(a)", "$2")]);
        let err = program.validate().unwrap_err().to_string();
        assert!(err.contains("group `2`"), "{err}");
    }

    #[test]
    fn look_around_is_refused() {
        let program = Program::from_rules(vec![Rule::new("a(?=b)", "")]);
        assert!(program.validate().is_err());
    }
}
