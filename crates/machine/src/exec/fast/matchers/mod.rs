//! Layer 2 of the fast executor, the matchers: the searches a compiled pattern
//! (`crate::exec::fast::pattern`) runs at a candidate, each faster than a general
//! engine on the shapes of pattern the machine's programs are made of.
//!
//! Contract: each matcher finds exactly the match `regex` finds for the patterns it
//! accepts, or says it gives up (the pattern's layer then asks a lazy DFA). `linear`:
//! plain-sequence patterns (push, pop, lookups, forks), an anchored depth-first search
//! with memchr/memmem that finds the match end and its groups at once. `lockstep`:
//! several anchored lazy-DFA walks interleaved. `lines` (uses `linear` and
//! `lockstep`): patterns that skip whole lines to one line of a thread, memchr/memmem to
//! the candidate lines, an anchored DFA for the rest only there.
//!
//! Trade-offs: each matcher covers only the shapes it is fast on and declines the rest,
//! so the choice among them is made once per pattern (its `Strategy`), not per search;
//! a matcher that gives up costs the search it started.

pub(in crate::exec::fast) mod linear;
pub(in crate::exec::fast) mod lines;
pub(in crate::exec::fast) mod lockstep;
