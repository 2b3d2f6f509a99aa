//! What the fast executor's runs did on the paths that cut the state ([`Counters`]): rope
//! runs and their pieces, stretches, hand-offs to the helper cores and the pieces the
//! helpers ran. A threshold gone wrong, or a change that quietly leaves the multi-core
//! path, still gives the right states; these totals are how a test sees which path ran.
//!
//! Contract: [`Tally::read`] gives the totals since the executor was built, over every
//! run on any thread. They are counted with relaxed atomic adds, once per rope run, per
//! stretch, per hand-off and per helper piece, never per rule of the whole-state path
//! nor per match, so they cost nothing measurable. Runs going on while they are read
//! may be counted in part.
//!
//! Layer 1: uses nothing of the executor.

use std::sync::atomic::{AtomicU64, Ordering};

/// Totals of a fast executor's runs since it was built (see `Fast::counters`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Runs of local rules taken through the state cut into pieces (the rope), on one
    /// core or several.
    pub rope_runs: u64,
    /// Rules that are not local run on the state cut into pieces shared with the
    /// helper cores (stretches).
    pub stretches: u64,
    /// The pieces of the rope runs and of the stretches, each counted once whichever
    /// thread ran it.
    pub pieces: u64,
    /// Hand-offs: rope runs and stretches whose pieces were offered to the helper
    /// threads (0 on one core).
    pub hand_offs: u64,
    /// The pieces of hand-offs that a helper thread ran. It may stay 0 on a busy
    /// machine, where the caller takes every piece before a helper wakes up (the
    /// results are the same).
    pub helper_pieces: u64,
}

/// The live totals an executor counts into, shared by its runs and their helpers.
#[derive(Debug, Default)]
pub struct Tally {
    rope_runs: AtomicU64,
    stretches: AtomicU64,
    pieces: AtomicU64,
    hand_offs: AtomicU64,
    helper_pieces: AtomicU64,
}

/// Adds `n` to `counter`.
fn add(counter: &AtomicU64, n: usize) {
    counter.fetch_add(n as u64, Ordering::Relaxed);
}

impl Tally {
    /// Counts a rope run of `pieces` pieces.
    pub fn rope_run(&self, pieces: usize) {
        add(&self.rope_runs, 1);
        add(&self.pieces, pieces);
    }

    /// Counts a stretch of `pieces` pieces.
    pub fn stretch(&self, pieces: usize) {
        add(&self.stretches, 1);
        add(&self.pieces, pieces);
    }

    /// Counts a hand-off to the helper threads.
    pub fn hand_off(&self) {
        add(&self.hand_offs, 1);
    }

    /// Counts a piece a helper thread ran.
    pub fn helper_piece(&self) {
        add(&self.helper_pieces, 1);
    }

    /// The totals so far.
    pub fn read(&self) -> Counters {
        let get = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        Counters {
            rope_runs: get(&self.rope_runs),
            stretches: get(&self.stretches),
            pieces: get(&self.pieces),
            hand_offs: get(&self.hand_offs),
            helper_pieces: get(&self.helper_pieces),
        }
    }
}
