//! Hand-written rules: the escape hatch for patterns no other instruction expresses
//! (the chess board's stride patterns, see `crates/chess/`).
//!
//! [`Builder::rules`] records an [`Instruction::Rules`] with the variables it reads and
//! writes declared, so the passes stay correct; [`Builder::named`] and
//! [`Builder::fresh`] give handles on the variables such rules create.

use std::marker::PhantomData;

use super::{Builder, Kind, Value};
use crate::ir::{Instruction, Type, Var};

impl Builder {
    /// A handle on the variable `name`, which hand-written rules ([`Builder::rules`])
    /// create or read. Unlike [`Builder::input`] the variable is not part of the initial
    /// state.
    ///
    /// # Panics
    /// When `ty` is not of kind `K`, or the name is invalid or starts with `_`.
    pub fn named<K: Kind>(&self, name: &str, ty: Type) -> Value<K> {
        assert!(K::accepts(ty), "`{name}`: type {ty:?} has another kind");
        assert!(
            !name.starts_with('_'),
            "names starting with `_` are reserved"
        );
        Value {
            var: Var::new(name),
            ty,
            kind: PhantomData,
        }
    }

    /// A handle on a fresh temporary that hand-written rules will write.
    pub fn fresh<K: Kind>(&mut self, ty: Type) -> Value<K> {
        assert!(K::accepts(ty), "fresh: type {ty:?} has another kind");
        self.temp(ty)
    }

    /// Records hand-written rules as one [`Instruction::Rules`]: emitted as written, with
    /// `reads` and `writes` declaring the variables they touch (see the instruction's
    /// documentation for the conventions the rules must keep).
    #[track_caller]
    pub fn rules(
        &mut self,
        name: &str,
        rules: Vec<(String, String)>,
        reads: &[&Var],
        writes: &[&Var],
    ) {
        self.emit(Instruction::Rules {
            name: name.to_string(),
            rules,
            reads: reads.iter().map(|v| (*v).clone()).collect(),
            writes: writes.iter().map(|v| (*v).clone()).collect(),
        });
    }

    /// Like [`Builder::rules`] for rules that leave exactly one new value of type `ty` on
    /// top of every active thread's stack; the value is defined as a fresh temporary.
    #[track_caller]
    pub fn rules_value<K: Kind>(
        &mut self,
        name: &str,
        rules: Vec<(String, String)>,
        reads: &[&Var],
        ty: Type,
    ) -> Value<K> {
        assert!(K::accepts(ty), "rules_value: type {ty:?} has another kind");
        self.rules(name, rules, reads, &[]);
        let value = self.temp(ty);
        self.emit(Instruction::Define(value.var.clone()));
        value
    }
}
