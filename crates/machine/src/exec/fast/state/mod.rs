//! Layer 5 of the fast executor, the rewrite and the state: one rule applied to a text,
//! and the state kept between rules.
//!
//! Contract: `rewrite` applies a rule's parts to a text in one output pass with
//! `replace_all`'s empty-match rules, over the whole text or a stretch of it (the
//! matches that start before a limit); `segments` (uses `rewrite`) is the state between
//! rules, flat (with its `%` index) or cut into thread segments, and always renders to
//! exactly the text the reference holds.
//!
//! Trade-offs: the state keeps a spare buffer and its `%` index so that a rule costs one
//! pass and no allocation in the common case; it pays for that with memory about twice
//! the state's size.

pub(in crate::exec::fast) mod rewrite;
pub(in crate::exec::fast) mod segments;
