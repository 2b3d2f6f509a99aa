//! The machine state as the fast executor holds it between rules.
//!
//! Contract: [`State`] always renders to exactly the text the reference would hold, and a
//! rule that matches nothing leaves it untouched (no copy).
//!
//! Today it is one contiguous `String` (plus a spare buffer reused for the next rewrite),
//! and every rule sees the whole text. It is its own type so that it can become the
//! thread-segmented buffer of design.md §5 without the run loop changing.
//!
//! Plan and the catch found while trying it. Segments must be a pure function of the text,
//! since the executor must be exact on any UTF-8 state: a segment starts at every `%`
//! that does not follow another `%` (the `%%` marker is a run of two), the first segment
//! holds the text before the first marker. A rule is then *statically* thread-local when
//! its head literal is `%`s followed by a non-`%` byte, nothing after the head can match
//! `%`, and it has no look-around: its matches cannot leave a segment, can only start in
//! the segment's leading `%` run, and full-text iteration equals per-segment iteration.
//! But the machine's main rules are **not** statically thread-local: `[^\n]*` in pop and
//! in lookup accepts `%`, so on a thread with an empty stack `(%%\n#stack:\n)[^\n]*\n`
//! really does match the next thread's `%%\n` line (tests/fast_executor.rs has such a
//! case, and the reference agrees). So the segmented path needs a *run-time* guard: run
//! the rule per segment, and when a search reaches the end of its segment (the DFA or the
//! linear search read the segment's last byte without settling), redo that rule on the
//! flat text. The linear search can report how far it read; the lazy DFA cannot directly
//! (search it on the segment with an end-of-text check instead). Alternatively the
//! compiler could emit `[^\n%]` where it means "rest of this line", which makes those
//! rules statically thread-local. [`State::text`], [`State::buffers`] and [`State::swap`]
//! are the only operations the run loop uses, which is the seam where that change goes.

/// The state between rules.
#[derive(Debug, Default)]
pub struct State {
    text: String,
    /// The buffer the next rewrite writes into; swapped with `text` when a rule changes
    /// the state, so large buffers are reused instead of allocated for every rule.
    spare: String,
}

impl State {
    /// A state holding `text`.
    pub fn new(text: &str) -> State {
        State {
            text: text.to_string(),
            spare: String::new(),
        }
    }

    /// The whole text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text and an empty spare buffer to write the next text into.
    pub fn buffers(&mut self) -> (&str, &mut String) {
        self.spare.clear();
        (&self.text, &mut self.spare)
    }

    /// Makes the spare buffer the text (after a rewrite into it).
    pub fn swap(&mut self) {
        std::mem::swap(&mut self.text, &mut self.spare);
    }

    /// Gives back the text.
    pub fn into_string(self) -> String {
        self.text
    }
}
