//! One distinct pattern of a program ([`PatternSlot`]): its source, its compiled form
//! built on first use, and the literals every match of it needs, numbered once per
//! executor ([`LiteralId`], [`Literals`]).
//!
//! Contract: [`PatternSlot::get`] always gives the same compiled pattern, whichever
//! thread asked first; [`PatternSlot::get_ahead`] gives it too without holding the lock
//! while it compiles (for the helper that compiles ahead of a run). The needed literals
//! are known before the pattern is compiled when the program cache remembered them
//! ([`PatternSlot::needed_before_compiling`]): a rule whose state lacks one is skipped
//! without compiling its pattern. Equal literals of different patterns share one id, so
//! what a run learnt of a literal in its state serves every pattern that needs it.
//!
//! Trade-offs: a slot compiles from the stored form the program cache kept
//! ([`parse_table`]) when there is one, else from the parse; debug builds check the
//! remembered literals against the compiled pattern's own. The literal table is one
//! mutex-guarded map, taken only when a pattern's ids are first decided.
//!
//! Layer 4 (the shared base): uses `pattern`, `remembered` and `syntax`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::exec::fast::pattern::Compiled;
use crate::exec::fast::remembered;
use crate::exec::fast::syntax;

/// The table the program cache keeps of `patterns` (see `remembered.rs`): for each
/// distinct pattern its parse, the literals its matches need and its compiled form's
/// plain data (`Compiled::store`), for [`remember_parses`](crate::exec::fast::remember_parses).
pub fn parse_table<'a>(patterns: impl IntoIterator<Item = &'a str>) -> Vec<u8> {
    remembered::table(patterns, Compiled::store)
}

/// One distinct pattern: its source and its engines, compiled on first use.
#[derive(Debug)]
pub struct PatternSlot {
    source: String,
    compiled: OnceLock<Compiled>,
    /// The pattern's needed literals ([`Compiled::needed_literals`]) when the program
    /// cache remembered them (see `remembered.rs`): a rule can then be skipped before
    /// its pattern is compiled.
    needed: Option<remembered::Needed>,
    /// The ids of the needed literals.
    literal_ids: OnceLock<Box<[LiteralId]>>,
    /// [`Compiled::splittable`], decided on first use.
    splittable: OnceLock<bool>,
}

impl PatternSlot {
    /// The slots of the distinct `sources`, with the needed literals the program cache
    /// remembered of them. Nothing is compiled.
    pub fn all(sources: Vec<String>) -> Vec<PatternSlot> {
        let needed = remembered::needed(sources.iter().map(String::as_str));
        sources
            .into_iter()
            .zip(needed)
            .map(|(source, needed)| PatternSlot {
                source,
                compiled: OnceLock::new(),
                needed,
                literal_ids: OnceLock::new(),
                splittable: OnceLock::new(),
            })
            .collect()
    }

    /// The compiled pattern, compiled now if it is not yet.
    pub fn get(&self) -> &Compiled {
        self.compiled.get_or_init(|| self.build())
    }

    /// The compiled pattern, built outside the lock when it is not built yet (see
    /// `syntax::set_built`): for the helper that compiles ahead, so that a run that
    /// meets the pattern meanwhile compiles it itself instead of waiting.
    pub fn get_ahead(&self) -> &Compiled {
        syntax::set_built(&self.compiled, || self.build())
    }

    /// Whether the pattern is compiled.
    pub fn is_compiled(&self) -> bool {
        self.compiled.get().is_some()
    }

    /// Compiles the pattern.
    fn build(&self) -> Compiled {
        // The stored form when the program cache kept one (shared out of the table,
        // which is not locked while the pattern is compiled), else the parse.
        let stored = remembered::stored(&self.source, |form, stored| {
            (Arc::clone(form), Arc::clone(stored))
        });
        let from_stored = stored.and_then(|(form, stored)| {
            let compiled = Compiled::from_stored(form, &stored);
            debug_assert!(compiled.is_ok(), "the stored form of {:?}", self.source);
            compiled.ok()
        });
        let compiled = from_stored.unwrap_or_else(|| {
            let (hir, prefix) = remembered::parse(&self.source);
            Compiled::from_hir_known(&hir, prefix.as_ref())
        });
        debug_assert!(
            self.needed
                .as_ref()
                .is_none_or(|needed| needed.iter().map(|l| &l[..]).eq(compiled.needed_literals())),
            "the remembered needed literals of {:?}",
            self.source
        );
        compiled
    }

    /// The ids of the needed literals, compiling the pattern only when they were not
    /// remembered.
    pub fn ids(&self, literals: &Literals) -> &[LiteralId] {
        self.literal_ids.get_or_init(|| match &self.needed {
            Some(needed) => literals.ids(needed.iter().map(|l| &l[..])),
            None => literals.ids(self.get().needed_literals()),
        })
    }

    /// Whether the pattern may run on a state cut anywhere (see `stretch.rs`).
    pub fn splittable(&self) -> bool {
        *self.splittable.get_or_init(|| self.get().splittable())
    }

    /// The remembered needed literals when the pattern is not compiled yet.
    pub fn needed_before_compiling(&self) -> Option<&[Box<[u8]>]> {
        match self.compiled.get() {
            Some(_) => None,
            None => self.needed.as_deref(),
        }
    }
}

/// A literal some pattern needs ([`Compiled::needed_literals`]), numbered once per
/// executor: equal literals of different patterns share one id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LiteralId(usize);

impl LiteralId {
    /// The id as an index (ids count from 0, one per distinct literal).
    pub fn index(self) -> usize {
        self.0
    }
}

/// Numbers needed literals as patterns are compiled.
#[derive(Debug, Default)]
pub struct Literals(Mutex<HashMap<Vec<u8>, usize>>);

impl Literals {
    /// The ids of `needed`, a pattern's needed literals, in order.
    fn ids<'a>(&self, needed: impl Iterator<Item = &'a [u8]>) -> Box<[LiteralId]> {
        let mut known = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        needed
            .map(|literal| {
                let next = known.len();
                // A literal met before is looked up without copying it.
                match known.get(literal) {
                    Some(&id) => LiteralId(id),
                    None => LiteralId(*known.entry(literal.to_vec()).or_insert(next)),
                }
            })
            .collect()
    }
}
