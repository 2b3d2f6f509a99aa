//! The program as the fast executor's layers read it ([`Rules`]): each rule's pattern
//! slot, its template, and how the template uses the pattern's groups ([`GroupNeed`]),
//! handed out as one value, a rule's parts ([`RuleParts`]).
//!
//! Contract: [`Rules::parts`] is the one way to a rule's compiled parts: it compiles the
//! rule's pattern on first use (once for all the rules that share it) and decides its
//! group need on first use, so every caller (the run loop, the rope's pieces, the
//! stretches, the helper that compiles ahead) sees the same parts. [`Rules`] is what the
//! rope, the stretches and the cores are given of the executor: the program and its
//! compiled parts, none of the executor's options or pools.
//!
//! Trade-offs: nothing is compiled when the table is made, only the distinct patterns
//! found and the runs of identical rules marked; a rule's parts cost two `OnceLock`
//! reads once compiled.
//!
//! Layer 4 (the shared base): uses `slot` and `pattern`.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::exec::fast::pattern::Compiled;
use crate::exec::fast::slot::{LiteralId, Literals, PatternSlot};
use crate::program::{Piece, Template, ValidProgram};

/// What a rule's template needs from each match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupNeed {
    /// Only the whole match (or nothing).
    WholeMatch,
    /// Groups that are fixed literals at known offsets from the match start.
    Fixed,
    /// Groups that need a capture engine.
    Engine,
}

/// Decides how `template` can be expanded for `pattern`.
pub fn group_need(template: &Template, pattern: &Compiled) -> GroupNeed {
    if !template.needs_subgroups() {
        return GroupNeed::WholeMatch;
    }
    let fixed = pattern.fixed_groups();
    let all_fixed = template.pieces().iter().all(|p| match p {
        Piece::Group(0) | Piece::Literal(_) => true,
        Piece::Group(i) => fixed.get(*i).copied().flatten().is_some(),
    });
    if all_fixed {
        GroupNeed::Fixed
    } else {
        GroupNeed::Engine
    }
}

/// One rule's compiled parts: what a rewrite applies.
#[derive(Clone, Copy, Debug)]
pub struct RuleParts<'a> {
    /// The rule's pattern slot: the index of its pattern's cache in a thread's scratch
    /// space (rules with the same pattern share it).
    pub slot: usize,
    /// The compiled pattern.
    pub pattern: &'a Compiled,
    /// The replacement.
    pub template: &'a Template,
    /// How the template uses the pattern's groups.
    pub need: GroupNeed,
}

/// A program's rules with their pattern slots, compiled on first use.
#[derive(Debug)]
pub struct Rules {
    program: ValidProgram,
    patterns: Vec<PatternSlot>,
    /// The pattern slot of each rule.
    rule_pattern: Vec<usize>,
    /// Whether rule `i` has the same pattern and replacement as rule `i - 1`.
    same_as_previous: Vec<bool>,
    /// How each rule's template uses groups, decided when its pattern is first compiled.
    needs: Vec<OnceLock<GroupNeed>>,
    /// Ids of the needed literals met so far.
    literals: Literals,
}

impl Rules {
    /// Finds `program`'s distinct patterns and its runs of identical rules. No pattern
    /// is compiled yet.
    pub fn new(program: ValidProgram) -> Rules {
        let mut ids: HashMap<&str, usize> = HashMap::new();
        let mut sources = Vec::new();
        let mut rule_pattern = Vec::with_capacity(program.rules().len());
        for rule in program.rules() {
            let id = *ids.entry(rule.pattern.as_str()).or_insert_with(|| {
                sources.push(rule.pattern.clone());
                sources.len() - 1
            });
            rule_pattern.push(id);
        }
        let patterns = PatternSlot::all(sources);
        let rules = program.rules();
        let same_as_previous = (0..rules.len())
            .map(|i| {
                i > 0
                    && rule_pattern[i] == rule_pattern[i - 1]
                    && rules[i].replacement == rules[i - 1].replacement
            })
            .collect();
        let needs = (0..rules.len()).map(|_| OnceLock::new()).collect();
        Rules {
            program,
            patterns,
            rule_pattern,
            same_as_previous,
            needs,
            literals: Literals::default(),
        }
    }

    /// The program.
    pub fn program(&self) -> &ValidProgram {
        &self.program
    }

    /// The number of rules.
    pub fn count(&self) -> usize {
        self.rule_pattern.len()
    }

    /// The number of distinct patterns.
    pub fn distinct_patterns(&self) -> usize {
        self.patterns.len()
    }

    /// Rule `index`'s compiled parts, compiling its pattern if needed.
    #[inline]
    pub fn parts(&self, index: usize) -> RuleParts<'_> {
        self.parts_with(index, PatternSlot::get)
    }

    /// [`Rules::parts`] for the helper that compiles ahead of a run: the pattern, when
    /// not compiled yet, is compiled outside its lock ([`PatternSlot::get_ahead`]).
    pub fn parts_ahead(&self, index: usize) -> RuleParts<'_> {
        self.parts_with(index, PatternSlot::get_ahead)
    }

    /// Rule `index`'s parts, its pattern compiled by `compile`.
    #[inline]
    fn parts_with(
        &self,
        index: usize,
        compile: impl FnOnce(&PatternSlot) -> &Compiled,
    ) -> RuleParts<'_> {
        let slot = self.rule_pattern[index];
        let pattern = compile(&self.patterns[slot]);
        let template = self.program.template(index);
        let need = *self.needs[index].get_or_init(|| group_need(template, pattern));
        RuleParts {
            slot,
            pattern,
            template,
            need,
        }
    }

    /// Rule `index`'s pattern slot (its pattern compiled or not).
    pub fn slot(&self, index: usize) -> &PatternSlot {
        &self.patterns[self.rule_pattern[index]]
    }

    /// The ids of the literals every match of rule `index` needs, compiling its pattern
    /// only when they were not remembered.
    pub fn literal_ids(&self, index: usize) -> &[LiteralId] {
        self.slot(index).ids(&self.literals)
    }

    /// Whether rule `index` has the same pattern and replacement as the rule before it.
    pub fn same_as_previous(&self, index: usize) -> bool {
        self.same_as_previous[index]
    }

    /// Whether rule `index` is local (see `local.rs`), compiling its pattern if needed.
    pub fn is_local(&self, index: usize) -> bool {
        self.slot(index).get().is_local()
    }

    /// Whether rule `index`'s group need is decided (tests of the helper that compiles
    /// ahead).
    #[cfg(test)]
    pub fn need_decided(&self, index: usize) -> bool {
        self.needs[index].get().is_some()
    }
}
