//! The machine state as the fast executor holds it between rules.
//!
//! Contract: [`State`] always renders to exactly the text the reference would hold, and a
//! rule that matches nothing leaves it untouched (no copy).
//!
//! Today it is one contiguous `String`, and every rule sees the whole text. It is its own
//! type so that it can become the thread-segmented buffer of design.md §5 without the run
//! loop changing: the plan is a `Vec` of segments, one per thread (each starting at its `%`
//! marker, the first segment holding any text before the first marker), plus a flag per
//! segment for "starts with `%%`". A rule whose pattern starts with a literal beginning
//! with `%` and cannot match a `%` after it (its HIR, past the prefix, never accepts `%`,
//! and no look-around sees across a segment edge) is thread-local: it is run per segment,
//! only on the segments its prefix selects, and only rewritten segments are replaced.
//! Other rules (forks, merges, tournaments) render the text, run the general path and
//! re-split. [`State::text`] and [`State::set`] are the only operations the run loop
//! uses, which is the seam where that change goes.

/// The state between rules.
#[derive(Debug, Default)]
pub struct State {
    text: String,
}

impl State {
    /// A state holding `text`.
    pub fn new(text: &str) -> State {
        State {
            text: text.to_string(),
        }
    }

    /// The whole text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Replaces the whole text.
    pub fn set(&mut self, text: String) {
        self.text = text;
    }

    /// Gives back the text.
    pub fn into_string(self) -> String {
        self.text
    }
}
