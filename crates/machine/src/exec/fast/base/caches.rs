//! One thread's lazy-DFA caches ([`Caches`]): a cache per pattern slot, made on first
//! use, kept between runs in the executor's pool, and bounded there.
//!
//! Contract: [`Caches::cache`] gives pattern slot `id`'s cache set for the run's texts
//! (ASCII throughout or not, see [`Caches::set_ascii`]); a cache never changes a search's
//! answer, only its cost. [`Caches::trim`] forgets lazy-DFA states, never anything a
//! later search could not build again.
//!
//! Trade-offs: caches are per thread (a search mutates its cache), so each helper thread
//! of the multi-core mode has its own; the states one move builds are kept for the next
//! move up to a bound, so that a game does not grow them without end.
//!
//! Layer 4 (the shared base): uses `pattern`.

use crate::exec::fast::pattern::Cache;

/// One thread's caches: one per distinct pattern, made on first use.
#[derive(Debug, Default)]
pub struct Caches {
    caches: Vec<Option<Box<Cache>>>,
    /// Whether the run's texts are all ASCII throughout (see `Fast::ascii_templates`):
    /// every cache taken through [`Caches::cache`] is set to it ([`Cache::set_ascii`]).
    /// `false` (the default) is right for every text.
    ascii: bool,
}

impl Caches {
    /// The cache of pattern slot `id`, made on first use, set for this run's texts.
    pub fn cache(&mut self, id: usize) -> &mut Cache {
        if self.caches.len() <= id {
            self.caches.resize_with(id + 1, || None);
        }
        let cache = self.caches[id].get_or_insert_with(Box::default);
        cache.set_ascii(self.ascii);
        cache
    }

    /// Whether the run's texts are all ASCII.
    #[cfg(test)]
    pub fn ascii(&self) -> bool {
        self.ascii
    }

    /// Sets whether the run's texts are all ASCII throughout (every text the run meets,
    /// not only its first).
    pub fn set_ascii(&mut self, ascii: bool) {
        self.ascii = ascii;
    }

    /// Bounds what is kept between runs: when the lazy DFAs' states add up to more than
    /// `max` bytes, the largest caches forget theirs until at most `after` are left. The
    /// gap between the two is room for the states one move builds on the widest bench
    /// position, so repeated runs of one move keep all they need after at most one
    /// trim; a game, whose every move meets new texts and builds new states, no longer
    /// accumulates them without end (PERF.md, "Figures behind the fast executor's
    /// constants").
    pub fn trim(&mut self, max: usize, after: usize) {
        let mut sizes: Vec<(usize, usize)> = self
            .caches
            .iter()
            .enumerate()
            .filter_map(|(id, c)| Some((c.as_ref()?.lazy_memory(), id)))
            .filter(|&(size, _)| size > 0)
            .collect();
        let mut total: usize = sizes.iter().map(|&(size, _)| size).sum();
        if total <= max {
            return;
        }
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        for (size, id) in sizes {
            if total <= after {
                break;
            }
            if let Some(cache) = &mut self.caches[id] {
                cache.forget_states();
                total -= size;
            }
        }
    }

    /// The bytes of lazy-DFA states each slot's cache holds (0: none, or no cache).
    #[cfg(test)]
    pub fn lazy_sizes(&self) -> Vec<usize> {
        self.caches
            .iter()
            .map(|c| c.as_ref().map_or(0, |c| c.lazy_memory()))
            .collect()
    }
}
