//! The engines of a compiled pattern, each built on first need behind a lock: its parse
//! read back, the NFA, the forward and reverse lazy DFAs, `meta::Regex`, the PikeVM and
//! the linear form for groups.
//!
//! Contract: every engine is built from the pattern's own parse (or, for the lazy DFAs,
//! its ASCII cut-down form), so each gives `regex`'s answers; building one never changes
//! a result, only what later searches cost.
//!
//! Trade-offs: building on first need keeps a fresh process and a pattern that its
//! linear search always decides free of engines, at the price of a lock read per use.

use super::groups::for_groups;
use super::*;

impl Compiled {
    /// The pattern's parse, read back from its binary form.
    pub(super) fn hir(&self) -> Hir {
        syntax::decode(&self.parsed).expect("the executor's own encoding reads back")
    }

    /// The pattern's parse cut down to ASCII (`syntax::ascii_hir`), read from its binary form.
    pub(super) fn ascii_hir(&self) -> Hir {
        syntax::decode_ascii(&self.parsed).expect("the executor's own encoding reads back")
    }

    /// Builds the engines that a search of the pattern builds on its first use whatever
    /// the text, for texts that are all ASCII when `ascii` (see [`AsciiDfa`]): the forward
    /// lazy DFA when candidates are searched with it or when the program cache kept its
    /// NFA (see `Plain::stored`), and the lazy DFAs of the `lines` form. The helper thread
    /// that compiles ahead of a run calls it, so that the run finds them built; results
    /// are the same either way.
    pub fn build_search_engines(&self, ascii: bool) {
        // Built outside the locks and then set (see `syntax::set_built`): a run that
        // needs one meanwhile builds its own instead of waiting for the helper's.
        if self.forward.is_some() || matches!(self.strategy, Strategy::Anchored(Candidate::Dfa)) {
            let dfa = syntax::set_built(&self.dfa, || self.new_dfa());
            if let Some(dfa) = dfa {
                dfa.build_ahead(ascii);
            }
        }
        if let Some(lines) = self.lines() {
            lines.build_dfas(ascii);
        }
    }

    /// The NFA, built on first use.
    pub(super) fn nfa(&self) -> &NFA {
        self.nfa.get_or_init(|| {
            let nfa = thompson::Compiler::new()
                .build_from_hir(&self.hir())
                .expect("a validated pattern compiles to an NFA");
            debug_assert_eq!(nfa.group_info().slot_len(), self.slot_len);
            nfa
        })
    }

    /// The forward lazy DFAs, built on first use; `None` when the NFA cannot be built.
    pub(super) fn dfa(&self) -> Option<&AsciiDfa> {
        self.dfa.get_or_init(|| self.new_dfa()).as_deref()
    }

    /// Builds the forward lazy DFAs (see [`Compiled::dfa`]).
    pub(super) fn new_dfa(&self) -> Option<Box<AsciiDfa>> {
        // The prefilter comes from the pattern itself: it must not skip a
        // non-ASCII byte where a match of the pattern could start (the DFA
        // would not see it and quit), and skipping places where none can start
        // is right for both forms. When every match starts with one literal,
        // that literal is the prefilter (much cheaper to build than the one
        // read off the parse, and as right).
        let prefilter = match &self.literals.prefix {
            Prefix::One(finder) => Prefilter::new(MatchKind::LeftmostFirst, &[finder.needle()]),
            _ => Prefilter::from_hir_prefix(MatchKind::LeftmostFirst, &self.hir()),
        };
        let stored = self.forward.as_deref().map(nfa_form::decode);
        let nfa = match stored {
            Some(Ok(nfa)) => {
                #[cfg(debug_assertions)]
                {
                    let fresh = thompson::Compiler::new()
                        .build_from_hir(&self.ascii_hir())
                        .ok()?;
                    let mut form = Vec::new();
                    nfa_form::encode(&fresh, &mut form);
                    debug_assert!(
                        self.forward.as_deref() == Some(&form[..]),
                        "a stored NFA that is not the pattern's"
                    );
                }
                nfa
            }
            _ => thompson::Compiler::new()
                .build_from_hir(&self.ascii_hir())
                .ok()?,
        };
        let config = lazy_config(FORWARD_CACHE).prefilter(prefilter);
        Some(Box::new(AsciiDfa::new(nfa, config, Direction::Forward)))
    }

    /// The reverse lazy DFAs (all matches, no groups), built on first use, as
    /// `regex_automata::hybrid::regex` builds them; `None` when the NFA cannot be built.
    pub(super) fn reverse(&self) -> Option<&AsciiDfa> {
        self.reverse
            .get_or_init(|| {
                let nfa = thompson::Compiler::new()
                    .configure(
                        thompson::Config::new()
                            .reverse(true)
                            .shrink(true)
                            .which_captures(thompson::WhichCaptures::None),
                    )
                    .build_from_hir(&self.ascii_hir())
                    .ok()?;
                let config = lazy_config(REVERSE_CACHE)
                    .prefilter(None)
                    .specialize_start_states(false)
                    .match_kind(MatchKind::All);
                Some(Box::new(AsciiDfa::new(nfa, config, Direction::Reverse)))
            })
            .as_deref()
    }

    /// The leftmost-first match in `input` (unanchored) with the lazy DFAs, as
    /// `hybrid::regex::Regex::try_search` finds it: the forward DFA gives its end, the
    /// reverse DFA run back from there its start. The forward DFA and its cache are the
    /// ones anchored searches use. `Err` when a DFA cannot be built or gives up.
    pub(super) fn lazy_search(
        &self,
        cache: &mut Cache,
        input: &Input<'_>,
    ) -> Result<Option<(usize, usize)>, ()> {
        let ascii = cache.ascii;
        let forward = self.dfa().and_then(|d| d.get(ascii));
        let reverse = self.reverse().and_then(|d| d.get(ascii));
        let (Some(forward), Some(reverse)) = (forward, reverse) else {
            return Err(());
        };
        let fcache = cache.dfa.get_or_insert_with(|| forward.create_cache());
        let Some(end) = forward.try_search_fwd(fcache, input).map_err(|_| ())? else {
            return Ok(None);
        };
        let end = end.offset();
        if input.start() == end || forward.get_nfa().is_always_start_anchored() {
            return Ok(Some((input.start(), end)));
        }
        let back = input
            .clone()
            .span(input.start()..end)
            .anchored(Anchored::Yes)
            .earliest(false);
        let rcache = cache.reverse.get_or_insert_with(|| reverse.create_cache());
        match reverse.try_search_rev(rcache, &back) {
            Ok(Some(start)) => Ok(Some((start.offset(), end))),
            _ => Err(()),
        }
    }

    /// The meta regex, the fallback when a lazy DFA cannot be built or gives up (a
    /// Unicode word boundary meeting non-ASCII text). It only ever reports whole
    /// matches, so it is built without explicit groups and without the one-pass DFA (a
    /// capture engine): a smaller NFA and cache, the same matches.
    pub(super) fn meta(&self) -> &meta::Regex {
        self.meta.get_or_init(|| {
            meta::Builder::new()
                .configure(
                    meta::Config::new()
                        .nfa_size_limit(Some(10 * (1 << 20)))
                        .hybrid_cache_capacity(2 * (1 << 20))
                        .which_captures(thompson::WhichCaptures::Implicit)
                        .onepass(false),
                )
                .build_from_hir(&self.hir())
                .expect("a validated pattern builds a meta regex")
        })
    }

    /// The linear form for group resolution (see `group_linear`) and whether it left out
    /// a leading `\A`, built on first use.
    pub(super) fn group_linear(&self) -> Option<(&Linear, bool)> {
        self.group_linear
            .get_or_init(|| {
                let (hir, from_start) = for_groups(&self.hir());
                Linear::new(&hir).map(|linear| (linear, from_start))
            })
            .as_ref()
            .map(|(linear, from_start)| (linear, *from_start))
    }

    pub(super) fn pikevm(&self) -> &pikevm::PikeVM {
        self.pikevm.get_or_init(|| {
            pikevm::PikeVM::new_from_nfa(self.nfa().clone()).expect("PikeVM builds from any NFA")
        })
    }
}
