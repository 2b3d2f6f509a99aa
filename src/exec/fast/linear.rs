//! Capture groups of "linear" patterns, resolved on a known match span without an engine.
//!
//! A pattern is linear when, after flattening groups, it is a plain sequence of literals,
//! single-char classes and repetitions of a single-char class (`[^%]*`, `[^\n]+?`,
//! `x{2,5}`), with no alternation, look-around or nested repetition. The machine's lookups
//! are linear: `(%%\n#stack:\n)([^%]*\n#x: )([^\n]*)\n`.
//!
//! Contract: [`Linear::resolve`] is given a span `start..end` that is the pattern's
//! leftmost-first match; it writes exactly the group spans `regex` gives, or returns false
//! (slots then undefined) when its work budget runs out, and the caller uses an engine.
//!
//! Why it is exact: every path through a linear pattern consumes one char per repetition
//! step, and leftmost-first prefers, at each repetition, more steps (greedy) or fewer
//! (lazy). The overall winning path ends at `end`, so it is the most preferred path among
//! those that end at `end`, which is what a depth-first search in preference order, pinned
//! to `end`, finds first. The search steps back from the longest run one char at a time,
//! so the usual lookup (the wanted line is near the end of the span) costs little; the
//! budget (a few times the span length) cuts off patterns that would backtrack a lot.

use regex_syntax::hir::{Class, Hir, HirKind};

#[derive(Clone, Debug)]
enum Atom {
    Literal(Box<[u8]>),
    Class(Class),
    Repeat {
        class: Class,
        min: u32,
        max: Option<u32>,
        greedy: bool,
    },
    Open(usize),
    Close(usize),
}

/// A linear pattern, ready to resolve groups.
#[derive(Clone, Debug)]
pub struct Linear {
    atoms: Vec<Atom>,
}

impl Linear {
    /// The linear form of `hir`, if it has one.
    pub fn new(hir: &Hir) -> Option<Linear> {
        let mut atoms = Vec::new();
        flatten(hir, &mut atoms)?;
        Some(Linear { atoms })
    }

    /// Fills `slots` (2 per group) for the match `start..end` of `hay`. Returns false when
    /// the budget ran out.
    pub fn resolve(
        &self,
        hay: &str,
        start: usize,
        end: usize,
        slots: &mut [Option<usize>],
    ) -> bool {
        let mut search = Search {
            atoms: &self.atoms,
            hay,
            end,
            budget: 4 * (end - start) + 64,
            slots,
        };
        let found = search.at(0, start);
        if found {
            search.slots[0] = Some(start);
            search.slots[1] = Some(end);
        }
        found
    }
}

fn flatten(hir: &Hir, out: &mut Vec<Atom>) -> Option<()> {
    match hir.kind() {
        HirKind::Empty => {}
        HirKind::Literal(lit) => out.push(Atom::Literal(lit.0.clone())),
        HirKind::Class(class) => out.push(Atom::Class(class.clone())),
        HirKind::Capture(cap) => {
            out.push(Atom::Open(cap.index as usize));
            flatten(&cap.sub, out)?;
            out.push(Atom::Close(cap.index as usize));
        }
        HirKind::Concat(subs) => {
            for sub in subs {
                flatten(sub, out)?;
            }
        }
        HirKind::Repetition(rep) => {
            let class = match rep.sub.kind() {
                HirKind::Class(class) => class.clone(),
                HirKind::Literal(lit) => single_char_class(&lit.0)?,
                _ => return None,
            };
            out.push(Atom::Repeat {
                class,
                min: rep.min,
                max: rep.max,
                greedy: rep.greedy,
            });
        }
        HirKind::Look(_) | HirKind::Alternation(_) => return None,
    }
    Some(())
}

/// The class holding exactly the one char `bytes` encodes.
fn single_char_class(bytes: &[u8]) -> Option<Class> {
    let text = std::str::from_utf8(bytes).ok()?;
    let mut chars = text.chars();
    let c = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    let range = regex_syntax::hir::ClassUnicodeRange::new(c, c);
    Some(Class::Unicode(regex_syntax::hir::ClassUnicode::new([
        range,
    ])))
}

fn class_has(class: &Class, c: char) -> bool {
    match class {
        Class::Unicode(u) => {
            let ranges = u.ranges();
            // Ranges are sorted and disjoint.
            let i = ranges.partition_point(|r| r.end() < c);
            ranges.get(i).is_some_and(|r| r.start() <= c)
        }
        Class::Bytes(b) => {
            c.is_ascii() && {
                let byte = c as u8;
                b.ranges()
                    .iter()
                    .any(|r| r.start() <= byte && byte <= r.end())
            }
        }
    }
}

struct Search<'a, 's> {
    atoms: &'a [Atom],
    hay: &'a str,
    end: usize,
    budget: usize,
    slots: &'s mut [Option<usize>],
}

impl Search<'_, '_> {
    /// Whether atoms `i..` match `hay[pos..end]` exactly, following the most preferred
    /// path; on success the slots hold that path's groups.
    fn at(&mut self, i: usize, pos: usize) -> bool {
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        let Some(atom) = self.atoms.get(i) else {
            return pos == self.end;
        };
        match atom {
            Atom::Literal(lit) => {
                let after = pos + lit.len();
                after <= self.end
                    && self.hay.as_bytes()[pos..after] == lit[..]
                    && self.at(i + 1, after)
            }
            Atom::Class(class) => match self.hay[pos..self.end].chars().next() {
                Some(c) if class_has(class, c) => self.at(i + 1, pos + c.len_utf8()),
                _ => false,
            },
            Atom::Open(g) | Atom::Close(g) => {
                let slot = 2 * g + usize::from(matches!(atom, Atom::Close(_)));
                let old = self.slots[slot];
                self.slots[slot] = Some(pos);
                if self.at(i + 1, pos) {
                    return true;
                }
                self.slots[slot] = old;
                false
            }
            Atom::Repeat {
                class,
                min,
                max,
                greedy,
            } => {
                let (min, max) = (*min as usize, max.map_or(usize::MAX, |m| m as usize));
                if *greedy {
                    // Run as far as the class and `max` allow, then give back one char at
                    // a time.
                    let mut steps = 0;
                    let mut q = pos;
                    for c in self.hay[pos..self.end].chars() {
                        if steps == max || !class_has(class, c) {
                            break;
                        }
                        steps += 1;
                        q += c.len_utf8();
                        if self.budget <= steps {
                            return false;
                        }
                    }
                    self.budget -= steps;
                    loop {
                        if steps < min {
                            return false;
                        }
                        if self.at(i + 1, q) {
                            return true;
                        }
                        let Some(c) = self.hay[pos..q].chars().next_back() else {
                            return false;
                        };
                        q -= c.len_utf8();
                        steps -= 1;
                    }
                } else {
                    let mut steps = 0;
                    let mut q = pos;
                    let mut chars = self.hay[pos..self.end].chars();
                    loop {
                        if steps >= min && self.at(i + 1, q) {
                            return true;
                        }
                        if steps == max {
                            return false;
                        }
                        match chars.next() {
                            Some(c) if class_has(class, c) => {
                                steps += 1;
                                q += c.len_utf8();
                            }
                            _ => return false,
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn groups(pattern: &str, hay: &str) -> Option<Vec<Option<(usize, usize)>>> {
        let re = regex::Regex::new(pattern).unwrap();
        let caps = re.captures(hay).unwrap();
        let m = caps.get(0).unwrap();
        let hir = regex_syntax::parse(pattern).unwrap();
        let linear = Linear::new(&hir)?;
        let mut slots = vec![None; 2 * re.captures_len()];
        assert!(linear.resolve(hay, m.start(), m.end(), &mut slots));
        let ours: Vec<_> = (0..re.captures_len())
            .map(|g| slots[2 * g].zip(slots[2 * g + 1]))
            .collect();
        let theirs: Vec<_> = (0..re.captures_len())
            .map(|g| caps.get(g).map(|m| (m.start(), m.end())))
            .collect();
        assert_eq!(ours, theirs, "{pattern:?} on {hay:?}");
        Some(ours)
    }

    #[test]
    fn lookup_groups() {
        let p = "(%%\n#stack:\n)([^%]*\n#x: )([^\n]*)\n";
        groups(p, "%%\n#stack:\nA\n#x: 1\n#y: 2\n#x: 3\n%%\n").unwrap();
        groups(p, "q%%\n#stack:\n\n#x: \n").unwrap();
    }

    #[test]
    fn greedy_lazy_and_counted() {
        groups("(a*)(a*?)(a+)", "aaaa").unwrap();
        groups("(a*?)(a+?)(b)", "xaaab").unwrap();
        groups("(é{1,2})(é*)", "ééé").unwrap();
        groups("([a-c]{2})(.*)(c)", "abcabc").unwrap();
        groups("(?i)(ab)(c*)", "xABcC").unwrap();
        groups("(x?)(x)", "x").unwrap();
    }

    #[test]
    fn not_linear() {
        let hir = regex_syntax::parse("(a|bc)").unwrap();
        assert!(Linear::new(&hir).is_none());
        let hir = regex_syntax::parse(r"\ba").unwrap();
        assert!(Linear::new(&hir).is_none());
        let hir = regex_syntax::parse("(ab)*").unwrap();
        assert!(Linear::new(&hir).is_none());
    }
}
