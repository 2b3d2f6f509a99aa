//! Layer 1 of the fast executor, the shared helpers: what is read off a pattern's parse
//! and kept of it, and the small indexes and totals every layer above may use.
//!
//! Contract: nothing here imports a module of a layer above; each module's own doc gives
//! its contract. `syntax` (a pattern's parse, its ASCII cut-down form for the lazy DFAs,
//! the binary form of parses, written in the machine's one codec, `crate::codec`);
//! `literal` (literal prefixes, required literals, fixed literal groups, and the memmem
//! finders); `remembered` (what the program cache keeps of each pattern); `nfa_form`
//! (an NFA as plain data, replayed into the NFA builder); `starts` (the index of the
//! state's `%` bytes); `local` (which patterns may run on pieces cut at thread
//! boundaries); `counters` (the totals of the paths that cut the state).
//!
//! Trade-offs: the binary forms here are this build's own, read back only under the
//! program cache's key (a file of another build is rebuilt, never read), which is why
//! they carry no version of their own; the parse table's magic line in
//! `crate::program::wire` carries one, bumped whenever these bytes change.

pub(in crate::exec::fast) mod counters;
pub(in crate::exec::fast) mod literal;
pub(in crate::exec::fast) mod local;
pub(in crate::exec::fast) mod nfa_form;
pub(in crate::exec::fast) mod remembered;
pub(in crate::exec::fast) mod starts;
pub(in crate::exec::fast) mod syntax;
