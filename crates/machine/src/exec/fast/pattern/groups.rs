//! Group resolution of a compiled pattern's match: fixed offsets, the linear form (the
//! pattern's own, or one rewritten for groups), else a one-pass DFA, the bounded
//! backtracker or the PikeVM, always anchored on the match span.
//!
//! Contract: [`Compiled::resolve_groups`] fills exactly the group spans `regex` gives for
//! a match [`Compiled::find_at`] reported.
//!
//! Trade-offs: the rewritten linear form ([`for_groups`]) is exact only for matches at 0
//! when a leading `\A` was dropped, which the caller checks; the general engines are
//! built only for patterns that need them.

use super::*;

impl Compiled {
    /// Resolves the groups of the match `start..end` into `cache.groups`. `start..end`
    /// must be a match [`Compiled::find_at`] reported.
    pub fn resolve_groups(&self, cache: &mut Cache, hay: &str, start: usize, end: usize) {
        if cache.groups_for == Some((start, end)) {
            return;
        }
        let slot_len = self.slot_len;
        cache.groups.clear();
        cache.groups.resize(slot_len, None);
        if let Some(linear) = &self.linear
            && linear.resolve(hay, start, end, &mut cache.groups)
        {
            return;
        }
        // A pattern with no linear form of its own whose form for groups is linear (see
        // [`for_groups`]: the `play` program's parsing of its input,
        // `\A([^%]*)(%%\n#stack:\n)...`, and the SAN's list forks,
        // `(%%\n#stack:\n)((?:;[^;\n]*){1})((?:;[^;\n]*)+)\n([^%]*)`): that form has the
        // same matches with the same groups, so its linear form resolves them, as
        // `Linear::resolve` would the pattern's own. The engines cost far more a match
        // on these (PERF.md).
        if self.linear.is_none()
            && let Some((linear, from_start)) = self.group_linear()
            && (start == 0 || !from_start)
            && linear.resolve(hay, start, end, &mut cache.groups)
        {
            return;
        }
        cache.slots.clear();
        cache.slots.resize(slot_len, None);
        let input = Input::new(hay).span(start..end).anchored(Anchored::Yes);
        let engine = self.groups.get_or_init(|| {
            let nfa = self.nfa();
            if let Ok(op) = onepass::Builder::new().build_from_nfa(nfa.clone()) {
                GroupEngine::OnePass(Box::new(op))
            } else if let Ok(bt) = backtrack::Builder::new().build_from_nfa(nfa.clone()) {
                GroupEngine::Backtrack(bt)
            } else {
                GroupEngine::PikeVm
            }
        });
        let found = match engine {
            GroupEngine::OnePass(op) => {
                let c = cache.onepass.get_or_insert_with(|| op.create_cache());
                op.try_search_slots(c, &input, &mut cache.slots).ok()
            }
            GroupEngine::Backtrack(bt) if end - start <= bt.max_haystack_len() => {
                let c = cache.backtrack.get_or_insert_with(|| bt.create_cache());
                bt.try_search_slots(c, &input, &mut cache.slots).ok()
            }
            _ => None,
        };
        if found.flatten().is_none() {
            let vm = self.pikevm();
            let c = cache.pikevm.get_or_insert_with(|| vm.create_cache());
            vm.search_slots(c, &input, &mut cache.slots);
        }
        for (group, slot) in cache.groups.iter_mut().zip(&cache.slots) {
            *group = slot.map(|s| s.get());
        }
        debug_assert_eq!(
            (cache.groups[0], cache.groups[1]),
            (Some(start), Some(end)),
            "group resolution must find the same match"
        );
    }
}

/// The pattern `hir` rewritten for group resolution: its matches that start at 0 (all of
/// them when `true` comes back) are the same, with the same groups, as those of `hir`.
/// - A leading `\A` (the first part of a concatenation) is left out (`true`): at 0 it
///   holds and takes no width, so a match anchored there is the rest's.
/// - Loops are merged (see [`merged_loop`]).
///
/// Either may make a pattern linear that was not.
pub(super) fn for_groups(hir: &Hir) -> (Hir, bool) {
    if let HirKind::Concat(parts) = hir.kind()
        && let Some(first) = parts.first()
        && matches!(first.kind(), HirKind::Look(Look::Start))
    {
        return (merged_loops(&Hir::concat(parts[1..].to_vec())), true);
    }
    (merged_loops(hir), false)
}

/// `hir` with every loop [`merged_loop`] takes merged.
pub(super) fn merged_loops(hir: &Hir) -> Hir {
    if let HirKind::Repetition(rep) = hir.kind()
        && let Some(merged) = merged_loop(rep)
    {
        return merged;
    }
    syntax::map_subs(hir, merged_loops)
}

/// A greedy `(?:aC*)+` (`(?:aC*)*`), `a` one char, `C*` a greedy run of a class without
/// `a`, written as `a[Ca]*` (`(?:a[Ca]*)?`): the SAN's lists, `(?:;[^;\n]*)+`.
///
/// Why it is exact: both match the same texts (`a` then any chars of `C` or `a`, each
/// `a` starting the next turn of the loop), a text in one way only (a turn ends where
/// the next `a` is, since `C` lacks `a`), and with the same preference: from a start,
/// the loop's ends are tried from the farthest down to one char after the start (then,
/// for `*`, the start itself), one char at a time, as the merged run gives back. (The
/// last turn's run gives back to its `a`; then the turn is dropped, which ends before
/// that `a`; then the turn before it gives back a char, after which no turn can follow,
/// and so on.) The body holds no group, so only the end matters to what follows.
pub(super) fn merged_loop(rep: &Repetition) -> Option<Hir> {
    if !rep.greedy || rep.max.is_some() || rep.min > 1 {
        return None;
    }
    let HirKind::Concat(parts) = rep.sub.kind() else {
        return None;
    };
    let [first, run] = &parts[..] else {
        return None;
    };
    let HirKind::Literal(lit) = first.kind() else {
        return None;
    };
    let mut chars = std::str::from_utf8(&lit.0).ok()?.chars();
    let (Some(a), None) = (chars.next(), chars.next()) else {
        return None;
    };
    let HirKind::Repetition(inner) = run.kind() else {
        return None;
    };
    if !inner.greedy || inner.min != 0 || inner.max.is_some() {
        return None;
    }
    let HirKind::Class(Class::Unicode(class)) = inner.sub.kind() else {
        return None;
    };
    let single = ClassUnicode::new([ClassUnicodeRange::new(a, a)]);
    let mut common = class.clone();
    common.intersect(&single);
    if !common.ranges().is_empty() {
        return None;
    }
    let mut wider = class.clone();
    wider.union(&single);
    let body = Hir::concat(vec![
        first.clone(),
        Hir::repetition(Repetition {
            min: 0,
            max: None,
            greedy: true,
            sub: Box::new(Hir::class(Class::Unicode(wider))),
        }),
    ]);
    Some(match rep.min {
        1 => body,
        _ => Hir::repetition(Repetition {
            min: 0,
            max: Some(1),
            greedy: true,
            sub: Box::new(body),
        }),
    })
}
