//! Threads: forks, destroy, gather, the tournament, keep-top and groups.
//!
//! Gather, `keep_best` and `keep_top` reduce each run of adjacent active threads;
//! `grouped` puts a boundary before every active thread so that reductions inside it stay
//! within the descendants of one thread.

use super::{Builder, Value, kind};
use crate::ir::{Best, Instruction, Site, Type};

impl Builder {
    /// Every active thread becomes two identical ones.
    #[track_caller]
    pub fn fork(&mut self) {
        self.emit(Instruction::Fork);
    }

    /// Every active thread becomes two; the result is true in the first, false in the
    /// second.
    #[track_caller]
    pub fn fork_bool(&mut self) -> Value<kind::Bool> {
        self.result(Instruction::ForkBool, Type::Bool)
    }

    /// One thread per element of `list` (at most `max_len`), in order, each holding its
    /// element. A thread whose list is empty disappears.
    #[track_caller]
    pub fn fork_list<K>(&mut self, list: &Value<kind::List<K>>, max_len: usize) -> Value<K> {
        let Type::List(elem) = list.ty else {
            unreachable!("a list value has a list type")
        };
        self.unary(list, Instruction::ForkList { max_len }, elem.into())
    }

    /// Deletes every active thread.
    #[track_caller]
    pub fn destroy(&mut self) {
        self.emit(Instruction::Destroy);
    }

    /// Collects `value` from each run of adjacent active threads (at most `max_threads`)
    /// into a list held by the run's first thread; the other threads are deleted.
    #[track_caller]
    pub fn gather<K>(&mut self, value: &Value<K>, max_threads: usize) -> Value<kind::List<K>> {
        let elem = value.ty.as_scalar().expect("lists do not nest");
        self.unary(value, Instruction::Gather { max_threads }, Type::List(elem))
    }

    /// Keeps, in each run of adjacent active threads (at most `max_threads`), the thread
    /// with the best `score`; ties keep the earliest thread.
    #[track_caller]
    pub fn keep_best(&mut self, score: &Value<kind::Int>, max_threads: usize, best: Best) {
        self.load(score);
        self.emit(Instruction::Tournament {
            bits: score.bits(),
            max_threads,
            best,
        });
        self.emit(Instruction::Pop);
    }

    /// Keeps, in each run of adjacent active threads (at most `max_threads`), the `keep`
    /// threads with the best `score` in their original order, deleting the others; of two
    /// equal scores the earlier thread is the better. A run of at most `keep` threads is
    /// unchanged. Costs about `keep` times a [`Builder::keep_best`] in rules
    /// ([`crate::lower::keep_top`]); `keep = 1` is one.
    #[track_caller]
    pub fn keep_top(
        &mut self,
        score: &Value<kind::Int>,
        keep: usize,
        max_threads: usize,
        best: Best,
    ) {
        self.load(score);
        self.emit(Instruction::KeepTop {
            bits: score.bits(),
            keep,
            max_threads,
            best,
        });
        self.emit(Instruction::Pop);
    }

    /// Runs `body` with a group boundary before every active thread, so that gathers and
    /// tournaments in `body` stay within the threads descended from one original thread.
    #[track_caller]
    pub fn grouped<R>(&mut self, body: impl FnOnce(&mut Builder) -> R) -> R {
        self.grouped_at(Site::caller(), false, body)
    }

    /// [`Builder::grouped`] for a `body` that leaves at most one thread in each group,
    /// active, at its end (a tournament over the whole group, say): the variables `body`
    /// never mentions are then kept once in each group's boundary while it runs, not
    /// copied into every thread its forks make ([`crate::passes::group_stash`]). A
    /// `body` that leaves two threads in a group, or one paused, breaks the program.
    #[track_caller]
    pub fn grouped_to_one<R>(&mut self, body: impl FnOnce(&mut Builder) -> R) -> R {
        self.grouped_at(Site::caller(), true, body)
    }

    /// A group at `site`; see [`Builder::grouped_to_one`] for `one_left`.
    fn grouped_at<R>(
        &mut self,
        site: Site,
        one_left: bool,
        body: impl FnOnce(&mut Builder) -> R,
    ) -> R {
        self.group_level += 1;
        let level = self.group_level;
        self.emit_at(Instruction::MarkGroups { level, one_left }, site);
        let result = body(self);
        self.emit_at(Instruction::UnmarkGroups { level }, site);
        self.group_level -= 1;
        result
    }
}
