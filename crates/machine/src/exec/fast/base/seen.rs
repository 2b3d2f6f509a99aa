//! What a run knows of its state's needed literals ([`Seen`]) while the state does not
//! change: which are absent, and where the present ones first occur.
//!
//! Contract: [`Seen::known`] answers only for the current state: every change of the
//! state ([`Seen::state_changed`]) forgets all answers at once, by a version bump, not by
//! clearing a table. An answer it gives is the one a search of the current state gives.
//!
//! Trade-offs: one entry per literal id ever met, kept for the run; a lookup is an index.
//!
//! Layer 4 (the shared base): uses `slot`.

use crate::exec::fast::slot::LiteralId;

/// Needed literals searched for in the state, each with the state version it was
/// searched in and its first position there, or its absence: while the state has not
/// changed since, a rule that needs an absent one cannot match and is skipped without a
/// search (a branch whose threads are all elsewhere runs hundreds of rules that would
/// each scan the whole state for the same missing tag), and a rule whose literals were
/// all found takes their positions without a search (the machine's rules between two
/// changes of the state mostly share the stack's `%%\n#stack:\n` prefix). Literals are
/// known by their [`LiteralId`], so a lookup is an index, not a hash.
#[derive(Debug, Default)]
pub struct Seen {
    /// Bumped every time a rule changes the state.
    version: u64,
    /// For each literal id, one more than the version it was last searched in (0:
    /// never), and its first position then ([`Seen::ABSENT`]: none).
    found_in: Vec<(u64, usize)>,
}

impl Seen {
    /// The position recorded for a literal found absent.
    const ABSENT: usize = usize::MAX;

    /// What is known of `literal` in the current state: `Some(Some(at))`, its first
    /// position; `Some(None)`, absent; `None`, not searched since the state changed.
    fn known(&self, literal: LiteralId) -> Option<Option<usize>> {
        match self.found_in.get(literal.index()) {
            Some(&(version, at)) if version == self.version + 1 => {
                Some((at != Self::ABSENT).then_some(at))
            }
            _ => None,
        }
    }

    pub fn is_absent(&self, literal: LiteralId) -> bool {
        self.known(literal) == Some(None)
    }

    /// Records the first position of `literal` in the current state (`None`: absent).
    fn record(&mut self, literal: LiteralId, first: Option<usize>) {
        if self.found_in.len() <= literal.index() {
            self.found_in.resize(literal.index() + 1, (0, 0));
        }
        self.found_in[literal.index()] = (self.version + 1, first.unwrap_or(Self::ABSENT));
    }

    /// The first position of `literal`: the one recorded in the current state, else
    /// `find`'s answer, then recorded.
    pub fn first_of(
        &mut self,
        literal: LiteralId,
        find: &mut dyn FnMut() -> Option<usize>,
    ) -> Option<usize> {
        if let Some(known) = self.known(literal) {
            return known;
        }
        let first = find();
        self.record(literal, first);
        first
    }

    pub fn state_changed(&mut self) {
        self.version += 1;
    }
}
