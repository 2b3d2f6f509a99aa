//! One rule applied to one string in a single output pass.
//!
//! Contract: [`rewrite`] returns `None` when the pattern has no match (the caller keeps its
//! buffer untouched), else a [`Rewritten`]: the match count and whether the text changed,
//! with the new text in the caller's spare buffer, byte-identical to
//! `regex::Regex::replace_all(hay, replacement)`.
//!
//! Matches are visited in order as `regex`'s iterator visits them (see [`next_match`]):
//! leftmost-first, non-overlapping, and an empty match that ends where the previous match
//! ended is dropped in favour of a search from the next char. Unmatched spans are copied
//! and the template expanded straight into the output; no list of matches is built.
//! Spans of the text are held back while the next piece continues them (a group that
//! starts a match continues the text before it), so that each run of adjacent spans
//! takes one copy. Whether a match's replacement changed it is decided piece by piece
//! against the match, without reading the output.
//! Capture groups are resolved only when the template uses a group other than 0, and
//! only with an engine when a used group is not a fixed literal.
//!
//! [`rewrite_capped`] writes at most a given number of bytes: past it, the rest of the
//! output is only counted ([`Rewritten::dropped`]), so that a rule that would grow the
//! state past the state limit costs no more memory than the limit (see
//! `crate::exec::limit`).
//!
//! Trade-offs: one pass and no list of matches means the output is written before the
//! rewrite knows whether anything changed: a rule whose every replacement gives its match
//! back still writes a copy (the caller then keeps the old text). Comparing each match
//! with its replacement costs a few comparisons per match, only until one differs.
//!
//! Layer 5: uses `pattern`, `rules` (a rule's parts) and `starts`.

use std::ops::Range;

use crate::program::Piece;

use crate::exec::fast::pattern::{Cache, Compiled};
use crate::exec::fast::rules::{GroupNeed, RuleParts};
use crate::exec::fast::starts::{Follow, Starts};

/// The next match at or after `pos`, given where the previous match ended, following
/// `regex_automata::util::iter::Searcher`: an empty match at the previous match's end is
/// not reported; the search restarts one char later.
pub fn next_match(
    pattern: &Compiled,
    cache: &mut Cache,
    hay: &str,
    pos: usize,
    last_end: Option<usize>,
    starts: Option<&Starts>,
) -> Option<(usize, usize)> {
    if pos > hay.len() {
        return None;
    }
    let m = pattern.find_at(cache, hay, pos, starts)?;
    if m.0 == m.1 && Some(m.1) == last_end {
        // The match is empty and starts at `pos`; `regex` retries from `pos + 1`, and its
        // engines never report an empty match inside a char, so the next char boundary is
        // the same thing.
        let next = next_boundary(hay, pos)?;
        return pattern.find_at(cache, hay, next, starts);
    }
    Some(m)
}

/// The first char boundary after `pos`, or `None` at the end of `hay`.
fn next_boundary(hay: &str, pos: usize) -> Option<usize> {
    let c = hay[pos..].chars().next()?;
    Some(pos + c.len_utf8())
}

/// What one [`rewrite`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rewritten {
    /// The number of matches replaced.
    pub count: usize,
    /// Whether some match was replaced by other bytes. Decided match by match, so the
    /// caller never compares whole texts. `false` proves the text unchanged; `true` almost
    /// always means it changed (replacements that differ from their matches can, in
    /// contrived programs, still add up to the same text), which costs the caller only a
    /// needless buffer swap or search.
    pub changed: bool,
    /// The bytes of output not written because they went past the cap of
    /// [`rewrite_capped`] (0 when all was written; the output is then unusable).
    pub dropped: usize,
}

/// The index of `%` bytes of the text a [`rewrite`] reads, and where to put the index of
/// the text it writes.
#[derive(Debug)]
pub struct Index<'a> {
    /// The index of `hay`.
    pub starts: &'a Starts,
    /// Becomes the index of the output when the rewrite returns `Some`.
    pub follow: Follow<'a>,
}

/// Applies `rule` to `hay`, appending the new text to `out` (usually empty).
/// `from` is a position no match starts before (see [`Compiled::first_possible`]).
/// Returns `None` when nothing matched (`out` is then unspecified), else what was done.
/// With `index`, candidates may come from it, and its `follow` is fed the output.
pub fn rewrite(
    rule: RuleParts<'_>,
    cache: &mut Cache,
    hay: &str,
    from: usize,
    out: &mut String,
    index: Option<Index<'_>>,
) -> Option<Rewritten> {
    rewrite_capped(rule, cache, hay, from, out, index, usize::MAX)
}

/// [`rewrite`], with `out` never longer than `cap` bytes: once the next bytes would
/// take it past `cap`, they and all that follow are counted in [`Rewritten::dropped`]
/// instead of written.
pub fn rewrite_capped(
    rule: RuleParts<'_>,
    cache: &mut Cache,
    hay: &str,
    from: usize,
    out: &mut String,
    index: Option<Index<'_>>,
    cap: usize,
) -> Option<Rewritten> {
    let RuleParts {
        pattern, template, ..
    } = rule;
    pattern.begin_rule(cache, hay.len());
    let (starts, follow) = match index {
        Some(Index { starts, follow }) => (Some(starts), Some(follow)),
        None => (None, None),
    };
    let first = next_match(pattern, cache, hay, from, None, starts)?;
    // Whether literals of the template can hold a `%` the index must learn of (looked
    // up once per rule, not per match: most templates write none).
    let percent_literals = follow.is_some()
        && template
            .pieces()
            .iter()
            .any(|p| matches!(p, Piece::Literal(text) if text.contains('%')));
    out.reserve((hay.len() + hay.len() / 8 + 64).min(cap));
    let pass = Pass::new(
        rule,
        Hay {
            text: hay,
            index: starts,
        },
    );
    let mut dropped = 0;
    let done = pass.write_into(out, follow, percent_literals, cap, &mut dropped, |writer| {
        pass.expand(cache, writer, Some(first), 0..usize::MAX, &mut Every)
    });
    Some(Rewritten {
        count: done.count,
        changed: done.changed,
        dropped,
    })
}

/// What [`rewrite_stretch`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stretched {
    /// The matches replaced.
    pub count: usize,
    /// Whether some match was replaced by other bytes (as [`Rewritten::changed`]).
    pub changed: bool,
    /// Where the text the output stands for ends: the limit, or the end of the last
    /// match when it ends past the limit (or, when the rewrite stopped at a known match,
    /// that match's start).
    pub end: usize,
    /// Whether the rewrite stopped at a match `Marks::StopAt` knew.
    pub stopped: bool,
}

/// One match of a [`rewrite_stretch`] that records its matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// Where the match starts in the text.
    pub start: usize,
    /// Where its output starts (in `out`, counted from its length when the rewrite
    /// began).
    pub at: usize,
    /// Whether its replacement changed it.
    pub changed: bool,
}

/// What a [`rewrite_stretch`] does at each match.
#[derive(Debug)]
pub enum Marks<'a> {
    /// Records every match.
    Record(&'a mut Vec<Mark>),
    /// Stops before the first match that starts where one of these (sorted by start)
    /// does.
    StopAt(&'a [Mark]),
}

/// What [`Pass::expand`] does at each match.
trait Hook {
    /// Whether each match's `changed` is wanted ([`Hook::matched`]), not only whether
    /// some match changed.
    const EACH: bool;
    /// Before writing the match at `start`: whether to stop there.
    fn stop(&mut self, start: usize, writer: &Writer<'_, '_, '_>) -> bool;
    /// After writing a match: whether its replacement changed it (called for every
    /// match only when [`Hook::EACH`]).
    fn matched(&mut self, changed: bool);
}

/// Writes every match, records nothing.
struct Every;

impl Hook for Every {
    const EACH: bool = false;
    #[inline(always)]
    fn stop(&mut self, _: usize, _: &Writer<'_, '_, '_>) -> bool {
        false
    }
    #[inline(always)]
    fn matched(&mut self, _: bool) {}
}

/// Records every match in `marks` ([`Marks::Record`]).
struct Recording<'a> {
    marks: &'a mut Vec<Mark>,
    /// The output's length when the rewrite began.
    base: usize,
}

impl Hook for Recording<'_> {
    const EACH: bool = true;
    fn stop(&mut self, start: usize, writer: &Writer<'_, '_, '_>) -> bool {
        self.marks.push(Mark {
            start,
            at: writer.len() - self.base,
            changed: false,
        });
        false
    }
    fn matched(&mut self, changed: bool) {
        if let Some(mark) = self.marks.last_mut() {
            mark.changed = changed;
        }
    }
}

/// Stops at a known match ([`Marks::StopAt`]).
struct StopAt<'a>(&'a [Mark]);

impl Hook for StopAt<'_> {
    const EACH: bool = false;
    fn stop(&mut self, start: usize, _: &Writer<'_, '_, '_>) -> bool {
        self.0
            .binary_search_by_key(&start, |mark| mark.start)
            .is_ok()
    }
    fn matched(&mut self, _: bool) {}
}

/// The text a rule is applied to and, when held, the index of its `%` bytes.
#[derive(Clone, Copy, Debug)]
pub struct Hay<'a> {
    /// The whole text.
    pub text: &'a str,
    /// The index of its `%` bytes, when held.
    pub index: Option<&'a Starts>,
}

/// Applies `rule` to the stretch `span` of `hay.text`, from `span.start` (where the
/// previous match ended, or where no match can be in progress) up to `span.end`,
/// appending its new text to `out`: matches are searched from `span.start` in the whole
/// text, those that start before `span.end` are replaced (the last may end past it),
/// and the output stands for `hay.text[span.start..end]` (see [`Stretched::end`]). The
/// pattern must have no look-around and no empty match (`Compiled::splittable`), so
/// that a search that starts at `span.start` finds what a search of the whole text finds
/// there once a match has ended there.
pub fn rewrite_stretch(
    rule: RuleParts<'_>,
    cache: &mut Cache,
    hay: Hay<'_>,
    span: Range<usize>,
    out: &mut String,
    marks: Marks<'_>,
) -> Stretched {
    let from = span.start;
    if from >= span.end {
        return Stretched {
            count: 0,
            changed: false,
            end: from,
            stopped: false,
        };
    }
    let base = out.len();
    let pass = Pass::new(rule, hay);
    let first = next_match(rule.pattern, cache, hay.text, from, None, hay.index);
    pass.write_into(out, None, false, usize::MAX, &mut 0, |writer| match marks {
        Marks::Record(marks) => {
            let mut hook = Recording { marks, base };
            pass.expand(cache, writer, first, span, &mut hook)
        }
        Marks::StopAt(known) => pass.expand(cache, writer, first, span, &mut StopAt(known)),
    })
}

/// One rule applied to one text: what [`Pass::expand`] reads.
struct Pass<'a> {
    pattern: &'a Compiled,
    /// The template's pieces, read out of it once (a rewrite runs many matches; the
    /// compiler does not hoist reads through the reference a [`RuleParts`] holds).
    pieces: &'a [Piece],
    need: GroupNeed,
    hay: &'a str,
    starts: Option<&'a Starts>,
}

impl<'a> Pass<'a> {
    fn new(rule: RuleParts<'a>, hay: Hay<'a>) -> Pass<'a> {
        Pass {
            pattern: rule.pattern,
            pieces: rule.template.pieces(),
            need: rule.need,
            hay: hay.text,
            starts: hay.index,
        }
    }

    /// Runs `body` with a writer into `out` (feeding `follow` when given; see
    /// [`Writer::percent_literals`]) that writes at most `cap` bytes, then writes what
    /// the writer held back; adds to `dropped` the bytes it did not write.
    fn write_into(
        &self,
        out: &mut String,
        follow: Option<Follow<'_>>,
        percent_literals: bool,
        cap: usize,
        dropped: &mut usize,
        body: impl FnOnce(&mut Writer<'_, '_, '_>) -> Stretched,
    ) -> Stretched {
        let mut writer = Writer {
            hay: self.hay,
            out,
            from: 0,
            to: 0,
            follow,
            percent_literals,
            cap,
            dropped: 0,
        };
        let done = body(&mut writer);
        writer.flush();
        *dropped += writer.dropped;
        done
    }

    /// Writes the text from `span.start` with each match from `first` on that starts
    /// before `span.end` replaced, up to the end of the last such match or `span.end`,
    /// whichever is later (at most the text's end). Before writing a match, asks `hook`
    /// whether to stop; if so, stops there, the text before the match written.
    fn expand<H: Hook>(
        &self,
        cache: &mut Cache,
        writer: &mut Writer<'_, '_, '_>,
        first: Option<(usize, usize)>,
        span: Range<usize>,
        hook: &mut H,
    ) -> Stretched {
        let Range {
            start: copy_from,
            end: limit,
        } = span;
        let (pattern, hay) = (self.pattern, self.hay);
        let mut copied = copy_from;
        let mut count = 0;
        let mut changed = false;
        let mut m = first;
        while let Some((start, end)) = m {
            if start >= limit {
                break;
            }
            writer.span(copied, start);
            if hook.stop(start, writer) {
                return Stretched {
                    count,
                    changed,
                    end: start,
                    stopped: true,
                };
            }
            if self.need == GroupNeed::Engine {
                pattern.resolve_groups(cache, hay, start, end);
            }
            let pieces = self.pieces;
            for piece in pieces {
                match part(pattern, cache, self.need, piece, start, end) {
                    Part::Text(text) => writer.literal(text),
                    Part::Span(s, e) => writer.span(s, e),
                }
            }
            // Once some match changed, the rest need not be compared unless the hook
            // wants each.
            if !changed || H::EACH {
                let parts = pieces
                    .iter()
                    .map(|p| part(pattern, cache, self.need, p, start, end));
                let this = !unchanged(parts, hay, start, end);
                changed |= this;
                hook.matched(this);
            }
            copied = end;
            count += 1;
            m = next_match(pattern, cache, hay, end, Some(end), self.starts);
        }
        let end = copied.max(limit.min(hay.len()));
        writer.span(copied, end);
        Stretched {
            count,
            changed,
            end,
            stopped: false,
        }
    }
}

/// What one piece of a template expands to for one match.
#[derive(Clone, Copy, Debug)]
enum Part<'t> {
    /// Text of the template.
    Text(&'t str),
    /// These bytes of the text searched (empty for a group that did not take part).
    Span(usize, usize),
}

/// The expansion of `piece` for the match `start..end`, whose groups (when `need` is
/// [`GroupNeed::Engine`]) are resolved into `cache.groups`.
#[inline]
fn part<'t>(
    pattern: &Compiled,
    cache: &Cache,
    need: GroupNeed,
    piece: &'t Piece,
    start: usize,
    end: usize,
) -> Part<'t> {
    match piece {
        Piece::Literal(text) => Part::Text(text),
        Piece::Group(0) => Part::Span(start, end),
        Piece::Group(i) => {
            let span = match need {
                GroupNeed::Engine => {
                    let s = cache.groups.get(2 * i).copied().flatten();
                    let e = cache.groups.get(2 * i + 1).copied().flatten();
                    s.zip(e)
                }
                _ => pattern.fixed_groups()[*i].map(|(s, e)| (s.at(start, end), e.at(start, end))),
            };
            span.map_or(Part::Span(start, start), |(s, e)| Part::Span(s, e))
        }
    }
}

/// Whether `parts`, written one after the other, give the match `start..end` of `hay`
/// again (then replacing it changed nothing). Parts that copy the match's own bytes in
/// place are recognised without a comparison.
fn unchanged<'t>(
    parts: impl Iterator<Item = Part<'t>>,
    hay: &str,
    start: usize,
    end: usize,
) -> bool {
    let bytes = hay.as_bytes();
    let mut at = start;
    for part in parts {
        let len = match part {
            Part::Span(s, e) if s == at || s == e => e - s,
            Part::Span(s, e) => {
                if !bytes[at..end].starts_with(&bytes[s..e]) {
                    return false;
                }
                e - s
            }
            Part::Text(text) => {
                if !bytes[at..end].starts_with(text.as_bytes()) {
                    return false;
                }
                text.len()
            }
        };
        at += len;
        if at > end {
            return false;
        }
    }
    at == end
}

/// The output of a [`rewrite`]: bytes of the text searched are held back while the
/// next piece continues them, so that adjacent spans (the text before a match and a
/// group that starts it, a group that ends a match and the text after it) are copied
/// at once: most of a rule's copies are a few bytes long, and each costs a call.
struct Writer<'h, 'o, 'f> {
    hay: &'h str,
    out: &'o mut String,
    /// The held-back bytes `from..to` of `hay` (none when equal).
    from: usize,
    to: usize,
    follow: Option<Follow<'f>>,
    /// Whether literals may hold a `%` that `follow` must learn of.
    percent_literals: bool,
    /// The most bytes `out` may hold.
    cap: usize,
    /// The bytes not written since the first that would have gone past `cap`.
    dropped: usize,
}

impl Writer<'_, '_, '_> {
    /// Appends the bytes `s..e` of `hay`.
    #[inline(always)]
    fn span(&mut self, s: usize, e: usize) {
        if s == e {
            return;
        }
        if self.to != s {
            self.flush();
            self.from = s;
        }
        self.to = e;
    }

    /// Appends `text`.
    #[inline(always)]
    fn literal(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        self.flush();
        if self.over(text.len()) {
            return;
        }
        let at = self.out.len();
        self.out.push_str(text);
        if self.percent_literals
            && let Some(follow) = &mut self.follow
        {
            follow.literal(text.as_bytes(), at);
        }
    }

    /// Whether `n` more bytes go past the cap (or some already did): they are then
    /// counted as dropped, not written.
    #[inline(always)]
    fn over(&mut self, n: usize) -> bool {
        if self.dropped > 0 || n > self.cap.saturating_sub(self.out.len()) {
            self.dropped += n;
            return true;
        }
        false
    }

    /// The output's length once the held-back bytes are written.
    #[inline]
    fn len(&self) -> usize {
        self.out.len() + (self.to - self.from)
    }

    /// Writes the held-back bytes.
    #[inline(always)]
    fn flush(&mut self) {
        if self.from < self.to {
            if self.over(self.to - self.from) {
                self.from = self.to;
                return;
            }
            let at = self.out.len();
            self.out.push_str(&self.hay[self.from..self.to]);
            if let Some(follow) = &mut self.follow {
                follow.span(self.from, self.to, at);
            }
            self.from = self.to;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::fast::rules::group_need;
    use crate::program::Template;

    /// One rule on `hay` through [`rewrite`], with the index of `%` bytes and without:
    /// the output and whether it changed, after checking the output against `regex`
    /// and the followed index against a fresh scan.
    fn run(pattern: &str, template: &str, hay: &str) -> Option<(String, Rewritten)> {
        let regex = regex::Regex::new(pattern).unwrap();
        let template = Template::parse(template, &regex).unwrap();
        let compiled = Compiled::new(pattern);
        let need = group_need(&template, &compiled);
        let want = regex
            .replace_all(hay, template_text(&template))
            .into_owned();
        let mut results = Vec::new();
        for indexed in [false, true] {
            let mut cache = Cache::default();
            let mut out = String::new();
            let starts = Starts::build(hay.as_bytes());
            let mut new = Starts::default();
            let index = indexed.then(|| Index {
                starts: &starts,
                follow: new.follow(&starts),
            });
            let rule = RuleParts {
                slot: 0,
                pattern: &compiled,
                template: &template,
                need,
            };
            let done = rewrite(rule, &mut cache, hay, 0, &mut out, index);
            if done.is_some() {
                assert_eq!(out, want, "{pattern:?} -> {template:?} on {hay:?}");
                if indexed {
                    assert_eq!(new, Starts::build(out.as_bytes()), "{out:?}");
                }
            }
            results.push(done.map(|done| (out, done)));
        }
        assert_eq!(results[0], results[1]);
        results.pop().unwrap()
    }

    /// The template in `regex`'s own syntax.
    fn template_text(template: &Template) -> String {
        template
            .pieces()
            .iter()
            .map(|piece| match piece {
                Piece::Literal(text) => text.replace('$', "$$"),
                Piece::Group(i) => format!("${{{i}}}"),
            })
            .collect()
    }

    #[test]
    fn adjacent_spans_reordered_and_repeated_groups_keep_text_and_index() {
        let hay = "%%\n#stack:\nab%\n%mb\n#stack:\nb%a\n%%\nxy\n";
        for (pattern, template) in [
            // A group that starts the match joins the text before it, one that ends it
            // the text after.
            (r"(%%\n#stack:\n)([^%]*)", "${1}#x: 1\n${2}"),
            // Groups out of order and repeated, holding `%`.
            (r"(#stack:\n)([^\n]*)(\n)", "${2}${1}${3}${2}"),
            (r"([ab])(%?)([ab])", "${3}${2}${2}${1}"),
            // A group that did not take part, and the whole match twice.
            (r"(a)|(b)", "${2}${1}${0}"),
            (r"%m", "${0}${0}"),
            // Literals holding `%`.
            (r"\n(%)", "\n%${1}%"),
            // An empty match at every position.
            (r"x*", "-"),
        ] {
            let (_, done) = run(pattern, template, hay).unwrap();
            assert!(done.changed, "{pattern:?} -> {template:?}");
        }
    }

    #[test]
    fn replacements_that_give_the_match_back_are_unchanged() {
        let hay = "%%\n#stack:\nab\n%mb\n#stack:\nba\n";
        for (pattern, template) in [
            // Groups that tile the match in place.
            (r"(a)(b)", "${1}${2}"),
            (r"(%)(m)b", "${1}${2}b"),
            // The same bytes from a literal, and from a group elsewhere in the match.
            (r"ab", "ab"),
            (r"(b)b?a", "${1}a"),
            (r"(a)a?", "${1}"),
        ] {
            let (out, done) = run(pattern, template, hay).unwrap();
            assert_eq!(out, hay);
            assert!(!done.changed, "{pattern:?} -> {template:?}");
        }
        // Too short, too long, or other bytes: changed.
        for (pattern, template) in [
            (r"(a)(b)", "${1}"),
            (r"(a)(b)", "${1}${2}${2}"),
            (r"ab", "ba"),
            (r"(a)(b)", "${2}${1}"),
        ] {
            let (_, done) = run(pattern, template, hay).unwrap();
            assert!(done.changed, "{pattern:?} -> {template:?}");
        }
        assert_eq!(run("zz", "y", hay), None);
    }
}
