//! Conditionals: `if_else` and `when`, and [`Merge`] for what branches return.
//!
//! Both branches are recorded, one after the other; at run time each thread runs the one
//! its condition picks while the others wait paused under a tag unique to this `if`.

use super::{Builder, Value, kind};
use crate::ir::{Instruction, Side, Site, Tag};

/// What `if_else` branches can return: values (or groups of values) that both branches
/// assign to the same fresh variables.
pub trait Merge: Sized {
    /// Fresh variables of the same types.
    fn declare(&self, b: &mut Builder) -> Self;
    /// Records `target = self`.
    fn store_into(&self, b: &mut Builder, target: &Self, site: Site);
}

impl Merge for () {
    fn declare(&self, _: &mut Builder) -> Self {}
    fn store_into(&self, _: &mut Builder, _: &Self, _: Site) {}
}

impl<K> Merge for Value<K> {
    fn declare(&self, b: &mut Builder) -> Self {
        b.temp(self.ty)
    }
    fn store_into(&self, b: &mut Builder, target: &Self, site: Site) {
        assert_eq!(
            self.ty, target.ty,
            "the branches of an if_else differ in type"
        );
        b.emit_at(Instruction::Lookup(self.var.clone()), site);
        b.emit_at(Instruction::Define(target.var.clone()), site);
    }
}

impl<A: Merge, B: Merge> Merge for (A, B) {
    fn declare(&self, b: &mut Builder) -> Self {
        (self.0.declare(b), self.1.declare(b))
    }
    fn store_into(&self, b: &mut Builder, target: &Self, site: Site) {
        self.0.store_into(b, &target.0, site);
        self.1.store_into(b, &target.1, site);
    }
}

/// An optional value: both branches must return `Some` or both `None` (the caller
/// decides at build time which values exist).
impl<A: Merge> Merge for Option<A> {
    fn declare(&self, b: &mut Builder) -> Self {
        self.as_ref().map(|a| a.declare(b))
    }
    fn store_into(&self, b: &mut Builder, target: &Self, site: Site) {
        match (self, target) {
            (Some(value), Some(target)) => value.store_into(b, target, site),
            (None, None) => {}
            _ => panic!("one branch of an if_else returns a value the other does not"),
        }
    }
}

impl Builder {
    /// Records both branches; each thread runs `then` if `cond` is true, else
    /// `otherwise`. Values the branches return are merged into fresh variables.
    #[track_caller]
    pub fn if_else<R: Merge>(
        &mut self,
        cond: &Value<kind::Bool>,
        then: impl FnOnce(&mut Builder) -> R,
        otherwise: impl FnOnce(&mut Builder) -> R,
    ) -> R {
        let site = Site::caller();
        let id = self.next_if;
        self.next_if += 1;
        let then_tag = Tag {
            id,
            side: Side::Then,
        };
        let else_tag = Tag {
            id,
            side: Side::Else,
        };
        self.emit_at(Instruction::Lookup(cond.var.clone()), site);
        self.emit_at(Instruction::Cond { tag: else_tag }, site);
        let from_then = then(self);
        let result = from_then.declare(self);
        from_then.store_into(self, &result, site);
        self.emit_at(Instruction::Pause(then_tag), site);
        self.emit_at(Instruction::Reactivate(else_tag), site);
        let from_else = otherwise(self);
        from_else.store_into(self, &result, site);
        self.emit_at(Instruction::Reactivate(then_tag), site);
        result
    }

    /// Runs `then` on the threads where `cond` holds.
    #[track_caller]
    pub fn when(&mut self, cond: &Value<kind::Bool>, then: impl FnOnce(&mut Builder)) {
        self.if_else(cond, then, |_| ());
    }
}
