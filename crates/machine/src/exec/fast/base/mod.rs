//! Layer 4 of the fast executor, the shared base: what every layer above reads of a
//! program.
//!
//! Contract: `slot` holds one distinct pattern, compiled on first use, and the ids of
//! the literals its matches need; `rules` (uses `slot`) is the program's rules with
//! their slots and the one way to a rule's compiled parts (`Rules::parts`: pattern,
//! template, group need); `caches` is one thread's lazy-DFA caches; `seen` (uses
//! `slot`) is what a run knows of its state's needed literals.
//!
//! Trade-offs: the base hands out borrowed parts and compiles lazily behind locks that
//! are taken once per pattern; the layers above never hold the executor itself, which
//! keeps them testable alone at the cost of passing a small context around.

pub(in crate::exec::fast) mod caches;
pub(in crate::exec::fast) mod rules;
pub(in crate::exec::fast) mod seen;
pub(in crate::exec::fast) mod slot;
