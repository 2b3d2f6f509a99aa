//! Reports: what each pass did, and where a program's rules come from.
//!
//! [`PassReport`] lists, for the program as recorded and after each pass, the number of
//! instructions, the number of rules and the peak number of variables a thread holds.
//! [`RuleStats`] counts a compiled program's rules by instruction and by source origin
//! (the DSL call site), and its distinct patterns (what an executor compiles).

use std::collections::{BTreeMap, HashSet};
use std::fmt;

use super::ir::IrProgram;
use super::lower;
use super::passes::peak_vars;
use regex_chess_machine::program::{Origin, Program};

/// The program's size at one stage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stage {
    /// `recorded`, or the name of the pass just run.
    pub name: &'static str,
    /// Instructions.
    pub instructions: usize,
    /// Rules after lowering.
    pub rules: usize,
    /// The most variables a thread holds at once.
    pub peak_vars: usize,
}

impl Stage {
    /// Measures `ir`.
    pub fn measure(name: &'static str, ir: &IrProgram) -> Stage {
        Stage {
            name,
            instructions: ir.body.len(),
            rules: ir.body.iter().map(lower::rule_count).sum(),
            peak_vars: peak_vars(ir),
        }
    }
}

/// The stages of one compilation, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassReport {
    /// First `recorded`, then one per pass that ran.
    pub stages: Vec<Stage>,
}

impl fmt::Display for PassReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<16} {:>12} {:>8} {:>10}",
            "stage", "instructions", "rules", "peak vars"
        )?;
        for s in &self.stages {
            writeln!(
                f,
                "{:<16} {:>12} {:>8} {:>10}",
                s.name, s.instructions, s.rules, s.peak_vars
            )?;
        }
        Ok(())
    }
}

/// Rule counts of a compiled program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleStats {
    /// Total rules.
    pub rules: usize,
    /// Distinct patterns.
    pub distinct_patterns: usize,
    /// Rules per instruction name.
    pub by_instruction: BTreeMap<String, usize>,
    /// Rules per origin (`file:line:column`, or the origin text).
    pub by_origin: BTreeMap<String, usize>,
}

impl RuleStats {
    /// Counts the rules of `program`.
    pub fn of(program: &Program) -> RuleStats {
        let mut stats = RuleStats {
            rules: program.rules.len(),
            ..RuleStats::default()
        };
        let patterns: HashSet<&str> = program.rules.iter().map(|r| r.pattern.as_str()).collect();
        stats.distinct_patterns = patterns.len();
        for rule in &program.rules {
            let (instruction, origin) = match &rule.origin {
                Origin::Emitted {
                    instruction,
                    file,
                    line,
                    column,
                } => (instruction.clone(), format!("{file}:{line}:{column}")),
                other => ("(none)".to_string(), other.to_string()),
            };
            *stats.by_instruction.entry(instruction).or_default() += 1;
            *stats.by_origin.entry(origin).or_default() += 1;
        }
        stats
    }
}

impl fmt::Display for RuleStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} rules, {} distinct patterns",
            self.rules, self.distinct_patterns
        )?;
        writeln!(f, "by instruction:")?;
        let mut by_count: Vec<_> = self.by_instruction.iter().collect();
        by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (name, count) in by_count {
            writeln!(f, "  {count:>8}  {name}")?;
        }
        writeln!(f, "by origin:")?;
        let mut by_count: Vec<_> = self.by_origin.iter().collect();
        by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (origin, count) in by_count {
            writeln!(f, "  {count:>8}  {origin}")?;
        }
        Ok(())
    }
}
