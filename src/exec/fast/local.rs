//! Which patterns may run on pieces of the state cut at thread boundaries.
//!
//! Contract: [`is_local`] is true only when no match of the pattern contains `\n%`, no
//! match is empty, and the pattern has no look-around. Then every match of a search of
//! the whole state lies inside one piece of a state cut just before a `%` that follows a
//! `\n`, and each piece's search finds exactly those of the whole search (the argument
//! is in `parallel.rs`). False is always safe: the rule then runs on the whole state.
//!
//! How: on the pattern's NFA, no useful state (reachable from the anchored start and
//! able to reach a match) has a `\n` transition into a state whose epsilon closure has a
//! `%` transition into a useful state. Look-around states count as passable, which only
//! makes the answer more conservative.
//!
//! Depends on nothing else in the executor.

use regex_automata::nfa::thompson::{NFA, State as NfaState};
use regex_automata::util::primitives::StateID;
use regex_syntax::hir::Hir;

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
        .filter(|(_, s)| matches!(s, NfaState::Match { .. }))
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
fn successors(state: &NfaState) -> Vec<StateID> {
    match state {
        NfaState::ByteRange { trans } => vec![trans.next],
        NfaState::Sparse(sparse) => sparse.transitions.iter().map(|t| t.next).collect(),
        NfaState::Dense(dense) => dense
            .transitions
            .iter()
            .copied()
            .filter(|&s| s != StateID::ZERO)
            .collect(),
        NfaState::Look { next, .. } | NfaState::Capture { next, .. } => vec![*next],
        NfaState::Union { alternates } => alternates.to_vec(),
        NfaState::BinaryUnion { alt1, alt2 } => vec![*alt1, *alt2],
        NfaState::Fail | NfaState::Match { .. } => Vec::new(),
    }
}

/// The states `state` moves to on `byte`.
fn byte_successors(state: &NfaState, byte: u8) -> impl Iterator<Item = StateID> {
    let found: Vec<StateID> = match state {
        NfaState::ByteRange { trans } => trans
            .matches_byte(byte)
            .then_some(trans.next)
            .into_iter()
            .collect(),
        NfaState::Sparse(sparse) => sparse.matches_byte(byte).into_iter().collect(),
        NfaState::Dense(dense) => dense.matches_byte(byte).into_iter().collect(),
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
            NfaState::Look { next, .. } | NfaState::Capture { next, .. } => stack.push(*next),
            NfaState::Union { alternates } => stack.extend(alternates.iter().copied()),
            NfaState::BinaryUnion { alt1, alt2 } => stack.extend([*alt1, *alt2]),
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
}
