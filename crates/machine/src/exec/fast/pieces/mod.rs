//! Layers 6 and 7 of the fast executor, the pieces and the cores: runs that take the
//! state in pieces, on one core or several, and the helper that compiles ahead.
//!
//! Contract: each path gives exactly the state a rule-by-rule run gives. `rope`: a run
//! of consecutive local rules taken through the pieces of the state cut at thread
//! boundaries, piece after piece. `stretch`: one rule that is not local, on a state cut
//! anywhere, the pieces joined in order with the matches that cross a cut searched again.
//! `compile_ahead`: the helper thread that compiles patterns ahead of a run. `parallel` (layer
//! 7, uses the three): the pieces of each rope run and of each stretch shared between
//! the cores. They are given the base's `Rules` and a small context of the run (a
//! `rope::Run`, a `stretch::Stretch`, a `compile_ahead::CompileAhead`), never the executor.
//!
//! Trade-offs: pieces pay off only on large states (thresholds in
//! `crate::exec::fast::executor`, measured in PERF.md); below them a run goes rule by
//! rule. Results never depend on the number of cores.

pub(in crate::exec::fast) mod compile_ahead;
pub(in crate::exec::fast) mod parallel;
pub(in crate::exec::fast) mod rope;
pub(in crate::exec::fast) mod stretch;
