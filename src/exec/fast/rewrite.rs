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
//! Capture groups are resolved only when the template uses a group other than 0, and
//! only with an engine when a used group is not a fixed literal.

use crate::program::{Piece, Template};

use super::pattern::{Cache, Compiled};
use super::starts::{Follow, Starts};

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

/// What the template needs from each match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupNeed {
    /// Only the whole match (or nothing).
    WholeMatch,
    /// Groups that are fixed literals at known offsets from the match start.
    Fixed,
    /// Groups that need a capture engine.
    Engine,
}

/// Decides how `template` can be expanded for `pattern`.
pub fn group_need(template: &Template, pattern: &Compiled) -> GroupNeed {
    if !template.needs_subgroups() {
        return GroupNeed::WholeMatch;
    }
    let fixed = pattern.fixed_groups();
    let all_fixed = template.pieces().iter().all(|p| match p {
        Piece::Group(0) | Piece::Literal(_) => true,
        Piece::Group(i) => fixed.get(*i).copied().flatten().is_some(),
    });
    if all_fixed {
        GroupNeed::Fixed
    } else {
        GroupNeed::Engine
    }
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

/// Applies one rule to `hay`, appending the new text to `out` (usually empty).
/// `from` is a position no match starts before (see [`Compiled::first_possible`]).
/// Returns `None` when nothing matched (`out` is then unspecified), else what was done.
/// With `index`, candidates may come from it, and its `follow` is fed the output.
#[allow(clippy::too_many_arguments)]
pub fn rewrite(
    pattern: &Compiled,
    cache: &mut Cache,
    template: &Template,
    need: GroupNeed,
    hay: &str,
    from: usize,
    out: &mut String,
    index: Option<Index<'_>>,
) -> Option<Rewritten> {
    pattern.begin_rule(cache, hay.len());
    let (starts, mut follow) = match index {
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
    out.reserve(hay.len() + hay.len() / 8 + 64);
    let mut copied = 0;
    let mut count = 0;
    let mut changed = false;
    let mut m = Some(first);
    while let Some((start, end)) = m {
        if let Some(follow) = &mut follow {
            follow.copied(copied, start, out.len());
        }
        out.push_str(&hay[copied..start]);
        let mark = out.len();
        let follow = follow.as_mut().map(|f| (f, percent_literals));
        expand(pattern, cache, template, need, hay, start, end, out, follow);
        changed = changed || out.as_bytes()[mark..] != hay.as_bytes()[start..end];
        copied = end;
        count += 1;
        m = next_match(pattern, cache, hay, end, Some(end), starts);
    }
    if let Some(follow) = &mut follow {
        follow.copied(copied, hay.len(), out.len());
    }
    out.push_str(&hay[copied..]);
    Some(Rewritten { count, changed })
}

#[allow(clippy::too_many_arguments)]
fn expand(
    pattern: &Compiled,
    cache: &mut Cache,
    template: &Template,
    need: GroupNeed,
    hay: &str,
    start: usize,
    end: usize,
    out: &mut String,
    mut follow: Option<(&mut Follow<'_>, bool)>,
) {
    if need == GroupNeed::Engine {
        pattern.resolve_groups(cache, hay, start, end);
    }
    for piece in template.pieces() {
        let out_at = out.len();
        match piece {
            Piece::Literal(text) => {
                out.push_str(text);
                if let Some((follow, true)) = &mut follow {
                    follow.literal(text.as_bytes(), out_at);
                }
            }
            Piece::Group(0) => {
                out.push_str(&hay[start..end]);
                if let Some((follow, _)) = &mut follow {
                    follow.group(start, end, out_at);
                }
            }
            Piece::Group(i) => {
                let span = match need {
                    GroupNeed::Engine => {
                        let s = cache.groups.get(2 * i).copied().flatten();
                        let e = cache.groups.get(2 * i + 1).copied().flatten();
                        s.zip(e)
                    }
                    _ => pattern.fixed_groups()[*i]
                        .map(|(s, e)| (s.at(start, end), e.at(start, end))),
                };
                if let Some((s, e)) = span {
                    out.push_str(&hay[s..e]);
                    if let Some((follow, _)) = &mut follow {
                        follow.group(s, e, out_at);
                    }
                }
            }
        }
    }
}
