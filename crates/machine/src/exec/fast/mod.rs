//! The fast executor: same results as [`super::reference::Reference`], byte for byte, with
//! far less work per rule.
//!
//! Contract: for every program, state and rule range, [`Fast`] returns the state the
//! reference returns and reports every rule index in order to the observer (with the same
//! match counts when the observer wants them). `skipped: true` means the rule was not
//! searched: a literal every match needs is absent (0 matches), or the identical previous
//! rule changed nothing (it then reports that rule's matches, which it would find again).
//!
//! Modules, in layers, one folder a layer (its `mod.rs` opens with the layer's contract
//! and trade-offs): a module imports only modules of the layers below it (and of its own
//! layer where said), never one that imports it back; each module's own doc opens with
//! its contract, its trade-offs and its layer. Every module is named by its own name
//! (`crate::exec::fast::NAME`), whatever its folder.
//! 1. Shared helpers (`helpers/`). `syntax`: a pattern's parse, its ASCII cut-down form for the lazy
//!    DFAs, and a binary form of parses. `literal` (uses `syntax`): literal prefixes,
//!    required literals and fixed literal groups, from the pattern's HIR, and the
//!    `memmem` finders of the executor, which rank bytes by their frequency in the
//!    machine's states. `remembered` (uses both): what the program cache keeps of each
//!    pattern ([`parse_table`], [`remember_parses`]): its parse, its needed literals and
//!    its compiled form's plain data, so that a fresh process does not parse again and
//!    skips a rule whose state lacks a needed literal before compiling its pattern.
//!    `nfa_form` (uses `syntax`): an NFA as plain data, its states that behave alike
//!    merged, replayed into the NFA builder (the program cache keeps the NFAs of the
//!    lazy DFAs a fresh process is sure to build, and those of the `lines` parts).
//!    `starts`: the index of the state's `%` bytes, built on first need on large states
//!    and kept by `rewrite`: rules whose matches start with a `%`-literal walk it for
//!    their candidates instead of calling memmem once per thread. `local`: which
//!    patterns may run on pieces cut at thread boundaries. `counters`: the totals of
//!    the paths that cut the state ([`Counters`], [`Fast::counters`]).
//! 2. Matchers (`matchers/`). `linear`: plain-sequence patterns (push, pop, lookups, forks): an
//!    anchored depth-first search with memchr/memmem that finds the match end and its
//!    groups at once. `lockstep`: several anchored lazy-DFA walks interleaved. `lines`
//!    (uses `linear` and `lockstep`): patterns that skip whole lines to one line of a
//!    thread (`L (?:[^%\n]*\n)* M R [^%]*`): memchr/memmem to the lines starting with
//!    `M`, an anchored DFA for the rest only there.
//! 3. The compiled pattern (`pattern/`). `pattern`: each distinct pattern compiled once, lazily on
//!    first use, into the matchers above, an anchored lazy DFA (or `meta::Regex` when
//!    there is no literal to anchor at) and capture engines built only when a template
//!    needs them. How a pattern searches is a type chosen once when it is compiled
//!    (`Strategy`: never, unanchored, or anchored with one way to decide a candidate).
//! 4. The shared base (`base/`), what every layer above reads of a program. `slot`: one distinct
//!    pattern, compiled on first use, and the ids of the literals its matches need.
//!    `rules` (uses `slot`): the program's rules with their slots, and the one way to a
//!    rule's compiled parts (`Rules::parts`: pattern, template, group need). `caches`:
//!    one thread's lazy-DFA caches. `seen` (uses `slot`): what a run knows of its state's
//!    needed literals.
//! 5. The rewrite and the state (`state/`). `rewrite`: a rule's parts applied to a text in one
//!    output pass with `replace_all`'s empty-match rules, over the whole text or a
//!    stretch of it (the matches that start before a limit). `segments` (uses `rewrite`):
//!    the state between rules, flat (with its `%` index) or cut into thread segments.
//! 6. Pieces (`pieces/`). `rope`: a run of consecutive local rules taken through the pieces of the
//!    state cut at thread boundaries, piece after piece, each written into the state's
//!    spare buffer once done (on one core, by default on states from
//!    [`DEFAULT_ROPE_MIN`]; [`Fast::rope`]); it holds a thread's scratch space (its
//!    caches and its pieces' buffers). `stretch`: one rule that is not local, on a state
//!    cut anywhere: each piece searched from its start, the pieces joined in order with
//!    the matches that cross a cut searched again. `compile_ahead`: the helper thread that
//!    compiles patterns ahead of a run ([`Fast::compile_ahead`]). They are given the
//!    base's `Rules` and a small context of the run (a `rope::Run`, a
//!    `stretch::Stretch`, a `compile_ahead::CompileAhead`), never the executor.
//! 7. The cores (`pieces/`). `parallel`: the opt-in multi-core mode ([`Fast::parallel`]): the pieces
//!    of each rope run, and of each stretch, shared between the cores.
//! 8. The run (`executor/`). `run`: one run over one state, rule after rule or a rope run at a time,
//!    each rule reported to the observer.
//! 9. The executor (`executor/`). `executor`: [`Fast`], its options, its pool of scratch spaces, and
//!    the [`Executor`](super::Executor) implementation that sets a run up.
//!
//! Trade-offs: start-up only deduplicates patterns; nothing is compiled until a rule runs
//! (and, when the needed literals are remembered, finds them all in the state), so a run
//! that touches few patterns pays for few. A run that meets patterns not yet compiled
//! has a helper thread compile them ahead of it ([`Fast::compile_ahead`]). Lazy-DFA
//! caches are pooled between runs so that repeated runs (a game, a benchmark) reuse the
//! states already built. The layers cost nothing at run time: the base hands out
//! borrowed parts, and the hot paths that cross modules are inlined as before the split
//! (the warm move's instruction counts are the same).

mod base;
mod executor;
mod helpers;
mod matchers;
mod pattern;
mod pieces;
mod state;

// Every module by its own name, so that a module names another by the layer-free path
// `crate::exec::fast::NAME`: the folders are the layers, the names stay short.
use base::{caches, rules, seen, slot};
use executor::run;
use helpers::{counters, literal, local, nfa_form, remembered, starts, syntax};
use matchers::{linear, lines, lockstep};
use pieces::{compile_ahead, parallel, rope, stretch};
use state::{rewrite, segments};

#[cfg(test)]
mod generated;

pub use counters::Counters;
pub use executor::{
    DEFAULT_INDEX_MIN, DEFAULT_ROPE_MIN, DEFAULT_ROPE_PIECE, DEFAULT_SPLIT_MIN, Fast,
};
pub use remembered::{forget as forget_parses, remember as remember_parses};
pub use slot::parse_table;
pub use syntax::DecodeError as ParsedTableError;
