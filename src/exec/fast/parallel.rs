//! Opt-in multi-core mode of the fast executor: a *local* rule on a large state runs on
//! pieces of the state cut at thread boundaries, one piece per core, and the outputs are
//! concatenated.
//!
//! Contract: for every pattern, state and template, [`Parallel::apply`] produces exactly
//! the text and match count of one `rewrite` over the whole state (that is, of
//! `regex::Regex::replace_all`), or declines (`None`) having changed nothing.
//!
//! Why cutting is exact. A pattern is [local](is_local) when it has no look-around, cannot
//! match the empty string, and no string it matches contains `\n%`. The state is cut only
//! just before a `%` that follows a `\n` (so every cut is a char boundary). Then:
//! - no match of the whole-text search contains a cut (it would contain that `\n%`), so
//!   every match lies inside one piece;
//! - without look-around, whether a span matches, and which match the leftmost-first
//!   search prefers from a start, depends only on the bytes of the span and after it
//!   within reach; paths that would run past a cut are not matches anyway, so each piece's
//!   search finds exactly the whole search's matches that start in it, in order;
//! - matches are never empty, so `replace_all`'s empty-match rule (which looks at the
//!   previous match's end) never applies, and the pieces are independent.
//!
//! Nothing here depends on the text being a chess state: stray `%`s and lines without
//! threads only change where cuts can go (a state without `\n%` is not cut).
//!
//! Trade-offs: every piece gets its own scratch (lazy DFA caches are per thread of
//! execution); the caller keeps them between rules and runs. Cutting costs one `memmem`
//! per cut and one extra copy of the later pieces' outputs into the state buffer; handing
//! a piece to a pool thread costs a few microseconds, so only states of at least
//! `min_len` bytes are cut (see PERF.md, "Several cores").

use regex_automata::nfa::thompson::{NFA, State};
use regex_automata::util::primitives::StateID;
use regex_syntax::hir::Hir;

use super::Scratch;
use super::pattern::{Cache, Compiled};
use super::rewrite::{self, GroupNeed};
use crate::program::Template;

/// Whether matches of the pattern (`hir`, compiled to `nfa`) can never contain a thread
/// boundary `\n%`, can never be empty and look at nothing outside themselves: the rule
/// may then run on pieces cut before such boundaries. Decided on the NFA: no useful state
/// (reachable from the anchored start and able to reach a match) has a `\n` transition
/// into a state whose epsilon closure has a `%` transition into a useful state.
pub fn is_local(hir: &Hir, nfa: &NFA) -> bool {
    let props = hir.properties();
    if !props.look_set().is_empty() || props.minimum_len().is_none_or(|n| n == 0) {
        return false;
    }
    let n = nfa.states().len();
    let mut forward: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut backward: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (id, state) in nfa.states().iter().enumerate() {
        for next in successors(state) {
            forward[id].push(next.as_usize());
            backward[next.as_usize()].push(id);
        }
    }
    let reachable = closure(&forward, [nfa.start_anchored().as_usize()]);
    let matches = nfa
        .states()
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s, State::Match { .. }))
        .map(|(id, _)| id);
    let coreachable = closure(&backward, matches);
    for (id, state) in nfa.states().iter().enumerate() {
        if !(reachable[id] && coreachable[id]) {
            continue;
        }
        for after_newline in byte_successors(state, b'\n') {
            let eps = epsilon_closure(nfa, after_newline);
            for (other, inside) in eps.iter().enumerate() {
                if *inside
                    && byte_successors(&nfa.states()[other], b'%')
                        .any(|next| coreachable[next.as_usize()])
                {
                    return false;
                }
            }
        }
    }
    true
}

/// Every state `state` can move to, on a byte or without one.
fn successors(state: &State) -> Vec<StateID> {
    match state {
        State::ByteRange { trans } => vec![trans.next],
        State::Sparse(sparse) => sparse.transitions.iter().map(|t| t.next).collect(),
        State::Dense(dense) => dense
            .transitions
            .iter()
            .copied()
            .filter(|&s| s != StateID::ZERO)
            .collect(),
        State::Look { next, .. } | State::Capture { next, .. } => vec![*next],
        State::Union { alternates } => alternates.to_vec(),
        State::BinaryUnion { alt1, alt2 } => vec![*alt1, *alt2],
        State::Fail | State::Match { .. } => Vec::new(),
    }
}

/// The states `state` moves to on `byte`.
fn byte_successors(state: &State, byte: u8) -> impl Iterator<Item = StateID> {
    let found: Vec<StateID> = match state {
        State::ByteRange { trans } => trans
            .matches_byte(byte)
            .then_some(trans.next)
            .into_iter()
            .collect(),
        State::Sparse(sparse) => sparse.matches_byte(byte).into_iter().collect(),
        State::Dense(dense) => dense.matches_byte(byte).into_iter().collect(),
        _ => Vec::new(),
    };
    found.into_iter()
}

/// The states reachable from `start` without reading a byte (look-arounds count as
/// passable, which only makes the caller more conservative).
fn epsilon_closure(nfa: &NFA, start: StateID) -> Vec<bool> {
    let mut seen = vec![false; nfa.states().len()];
    let mut stack = vec![start];
    while let Some(id) = stack.pop() {
        if std::mem::replace(&mut seen[id.as_usize()], true) {
            continue;
        }
        match &nfa.states()[id.as_usize()] {
            State::Look { next, .. } | State::Capture { next, .. } => stack.push(*next),
            State::Union { alternates } => stack.extend(alternates.iter().copied()),
            State::BinaryUnion { alt1, alt2 } => stack.extend([*alt1, *alt2]),
            _ => {}
        }
    }
    seen
}

/// The nodes reachable from `starts` along `edges` (the starts included).
fn closure(edges: &[Vec<usize>], starts: impl IntoIterator<Item = usize>) -> Vec<bool> {
    let mut seen = vec![false; edges.len()];
    let mut stack: Vec<usize> = starts.into_iter().collect();
    while let Some(id) = stack.pop() {
        if !std::mem::replace(&mut seen[id], true) {
            stack.extend(edges[id].iter().copied());
        }
    }
    seen
}

/// Cut points for `pieces` pieces of `text`: each is the position of a `%` right after a
/// `\n`, at or after an equal share of the text, in increasing order (fewer when the text
/// has too few boundaries).
pub fn cuts(text: &[u8], pieces: usize) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::with_capacity(pieces);
    for k in 1..pieces {
        let target = (text.len() * k / pieces).max(out.last().map_or(1, |&c| c + 1));
        if target >= text.len() {
            break;
        }
        match memchr::memmem::find(&text[target - 1..], b"\n%") {
            Some(i) => out.push(target + i),
            None => break,
        }
    }
    out
}

/// The multi-core mode: a pool of helper threads and when to use it.
#[derive(Debug)]
pub struct Parallel {
    pool: rayon::ThreadPool,
    /// Pieces per cut state (the number of cores).
    pieces: usize,
    /// States shorter than this are not cut.
    min_len: usize,
}

impl Parallel {
    /// A mode with `cores` cores (`cores - 1` helper threads besides the caller's),
    /// cutting states of at least `min_len` bytes. `None` when `cores < 2` or the threads
    /// cannot be started.
    pub fn new(cores: usize, min_len: usize) -> Option<Parallel> {
        if cores < 2 {
            return None;
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(cores - 1)
            .thread_name(|i| format!("regex-chess-piece-{i}"))
            .build()
            .ok()?;
        Some(Parallel {
            pool,
            pieces: cores,
            min_len: min_len.max(2),
        })
    }

    /// The number of cores (pieces per cut state).
    pub fn cores(&self) -> usize {
        self.pieces
    }

    /// Applies one rule to `text` (whose matches start no earlier than `from`) in
    /// pieces, writing the new text into `out` (empty). Returns the match count and
    /// whether the text changed, or `None` (nothing written) when the pattern is not
    /// local, `text` is short or has no cut point: the caller then runs the rule whole.
    #[allow(clippy::too_many_arguments)]
    pub fn apply(
        &self,
        compiled: &Compiled,
        template: &Template,
        need: GroupNeed,
        scratch: &mut Scratch,
        id: usize,
        text: &str,
        from: usize,
        out: &mut String,
    ) -> Option<(usize, bool)> {
        if text.len() < self.min_len || !compiled.is_local() {
            return None;
        }
        let cuts = cuts(&text.as_bytes()[from..], self.pieces);
        if cuts.is_empty() {
            return None;
        }
        let mut bounds = Vec::with_capacity(cuts.len() + 2);
        bounds.push(0);
        bounds.extend(cuts.iter().map(|c| c + from));
        bounds.push(text.len());
        let Scratch { caches, helpers } = scratch;
        if helpers.len() < self.pieces - 1 {
            helpers.resize_with(self.pieces - 1, Scratch::default);
        }
        let main_cache = caches[id].get_or_insert_with(Box::default);
        let mut results: Vec<(Option<usize>, String)> = Vec::new();
        results.resize_with(bounds.len() - 2, Default::default);
        let mut first = None;
        self.pool.in_place_scope(|scope| {
            let pieces = results.iter_mut().zip(bounds[1..].windows(2));
            for ((result, w), cache) in pieces.zip(helper_caches(helpers, id)) {
                let piece = &text[w[0]..w[1]];
                scope.spawn(move |_| {
                    result.0 = compiled.first_possible(piece).and_then(|f| {
                        rewrite::rewrite(compiled, cache, template, need, piece, f, &mut result.1)
                    });
                });
            }
            let piece = &text[..bounds[1]];
            first = rewrite::rewrite(compiled, main_cache, template, need, piece, from, out);
        });
        let mut count = 0;
        let mut changed = false;
        let piece0 = &text[..bounds[1]];
        match first {
            Some(n) => {
                count += n;
                changed |= out.as_str() != piece0;
            }
            None => {
                out.clear();
                out.push_str(piece0);
            }
        }
        for ((n, piece_out), w) in results.iter().zip(bounds[1..].windows(2)) {
            let piece = &text[w[0]..w[1]];
            match n {
                Some(n) => {
                    count += n;
                    changed |= piece_out.as_str() != piece;
                    out.push_str(piece_out);
                }
                None => out.push_str(piece),
            }
        }
        Some((count, changed))
    }
}

/// The caches of pattern `id` in the helpers' scratch spaces, made on first use.
fn helper_caches(helpers: &mut [Scratch], id: usize) -> impl Iterator<Item = &mut Cache> {
    helpers.iter_mut().map(move |h| {
        if h.caches.len() <= id {
            h.caches.resize_with(id + 1, || None);
        }
        &mut **h.caches[id].get_or_insert_with(Box::default)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_automata::nfa::thompson;
    use regex_automata::util::syntax;

    fn local(pattern: &str) -> bool {
        let hir = syntax::parse_with(pattern, &syntax::Config::default()).unwrap();
        let nfa = thompson::Compiler::new().build_from_hir(&hir).unwrap();
        is_local(&hir, &nfa)
    }

    #[test]
    fn locality_follows_newline_then_percent() {
        // Matches never hold `\n%`.
        assert!(local("%%\n#x: [0-9]*\n"));
        assert!(local("[^%]*\nb"));
        assert!(local("(?s)."));
        assert!(local("%%\n#stack:\n(True|False)\n"));
        // The pop of an empty stack runs into the next thread.
        assert!(!local("(%%\n#stack:\n)[^\n]*\n"));
        assert!(!local("a\n%"));
        assert!(!local("(?s).."));
        assert!(!local("x\n(?:y|[%z])"));
        // Look-around and empty matches are never cut.
        assert!(!local("^a"));
        assert!(!local("a$"));
        assert!(!local(r"\ba"));
        assert!(!local("a*"));
        assert!(!local("[a&&b]"));
    }

    #[test]
    fn cuts_sit_before_a_percent_after_a_newline() {
        let text = b"%%\na\n%%\nb\n%p\nc\n";
        assert_eq!(cuts(text, 2), [10]);
        assert_eq!(cuts(text, 3), [5, 10]);
        // No boundary: no cut; a boundary only near the start: one cut at most.
        assert!(cuts(b"abc%\nd%", 2).is_empty());
        assert_eq!(cuts(b"\n%abcdefgh", 4), Vec::<usize>::new());
        assert_eq!(cuts(b"a\n%\n%\n%", 8), [2, 4, 6]);
        for (text, n) in [(&text[..], 5), (b"\n%\n%", 3)] {
            for c in cuts(text, n) {
                assert!(c > 0 && text[c] == b'%' && text[c - 1] == b'\n');
            }
        }
    }
}
