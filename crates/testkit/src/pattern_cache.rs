//! A process-wide cache of compiled patterns, keyed by the pattern's text, for the
//! equivalence fuzz target: its inputs come from mutating one another and from the same
//! instruction shapes, so most of an input's patterns were compiled for an input before
//! it, and compiling them again under the fuzzing build's instrumentation was a large share
//! of an input's time.
//!
//! Contract: [`compile`] answers exactly as `regex::Regex::new` does (the `Regex` itself,
//! or its error), the first time by calling it and later from the cache. Trade-offs: the
//! cache lives per thread (the fuzz targets run one input at a time; tests running in
//! parallel keep their own) and is emptied whole when it holds [`MAX_PATTERNS`] patterns or
//! [`MAX_TEXT`] bytes of pattern text, so that an hour of fuzzing keeps its memory bounded
//! without the bookkeeping of an LRU. A cached `Regex` is used to validate programs and to
//! read capture names, never to search, so its search caches stay empty.

use std::cell::RefCell;
use std::collections::HashMap;

use regex::Regex;

/// The most patterns the cache holds before it is emptied.
pub const MAX_PATTERNS: usize = 2048;

/// The most bytes of pattern text the cache holds before it is emptied (a compiled
/// pattern's size grows with its text, and raw patterns may be 6,000 bytes long).
pub const MAX_TEXT: usize = 1 << 20;

#[derive(Default)]
struct Cache {
    compiled: HashMap<String, Result<Regex, regex::Error>>,
    text: usize,
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

/// `regex::Regex::new(pattern)`, from this thread's cache when it was asked before.
pub fn compile(pattern: &str) -> Result<Regex, regex::Error> {
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some(answer) = cache.compiled.get(pattern) {
            return answer.clone();
        }
        if cache.compiled.len() >= MAX_PATTERNS || cache.text + pattern.len() > MAX_TEXT {
            cache.compiled.clear();
            cache.text = 0;
        }
        let answer = Regex::new(pattern);
        cache.text += pattern.len();
        cache.compiled.insert(pattern.to_string(), answer.clone());
        answer
    })
}

/// How many patterns this thread's cache holds.
pub fn len() -> usize {
    CACHE.with(|cache| cache.borrow().compiled.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_as_regex_new_does_and_stays_bounded() {
        for pattern in ["(a)(?P<b>b)?", "(", "\\pL+", "[z-a]", ""] {
            for _ in 0..2 {
                let cached = compile(pattern);
                match (cached, Regex::new(pattern)) {
                    (Ok(got), Ok(want)) => {
                        assert_eq!(got.as_str(), want.as_str());
                        let got: Vec<_> = got.capture_names().collect();
                        let want: Vec<_> = want.capture_names().collect();
                        assert_eq!(got, want);
                    }
                    (Err(got), Err(want)) => assert_eq!(got.to_string(), want.to_string()),
                    (got, want) => panic!("{pattern:?}: cached {got:?}, regex {want:?}"),
                }
            }
        }
        for i in 0..MAX_PATTERNS + 10 {
            compile(&format!("x{i}")).unwrap();
        }
        assert!(len() <= MAX_PATTERNS);
        assert!(compile("x1").unwrap().is_match("x1"));
    }
}
