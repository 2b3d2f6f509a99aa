//! The intermediate representation: a flat list of instructions, each with the source
//! location of the DSL call that recorded it.
//!
//! Contract: an [`IrProgram`] is a straight-line list. Control flow is expressed with
//! [`Instruction::Cond`], [`Instruction::CondNot`], [`Instruction::Pause`] and
//! [`Instruction::Reactivate`] over
//! thread tags, never with jumps, so passes can reason about it as a sequence and lowering
//! is one instruction at a time. Types are only what lowering needs: the instructions that
//! depend on a type carry it (an integer width, an enumeration's variants), and the stack
//! itself is untyped text. The DSL ([`super::dsl`]) is what keeps the stack well typed.

use std::fmt;
use std::panic::Location;

pub use super::types::{EnumDef, Scalar, Type, Var};

/// Which branch of an `if` a tag pauses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The threads that took the then-branch (`t<id>`).
    Then,
    /// The threads that take the else-branch (`e<id>`).
    Else,
}

/// The tag of paused threads: one pair per `if`, so nested conditionals never mix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tag {
    /// The conditional's number, unique in a program.
    pub id: u32,
    /// Which side it holds.
    pub side: Side,
}

impl fmt::Display for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = match self.side {
            Side::Then => 't',
            Side::Else => 'e',
        };
        write!(f, "{c}{}", self.id)
    }
}

/// A comparison; `a op b` where `b` is the top of the stack and `a` the value below it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `a == b`
    Eq,
    /// `a != b`
    Ne,
    /// `a < b`
    Lt,
    /// `a <= b`
    Le,
    /// `a > b`
    Gt,
    /// `a >= b`
    Ge,
}

impl CmpOp {
    /// Whether `ordering` (of `a` against `b`) satisfies the comparison.
    pub fn holds(self, ordering: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::*;
        match self {
            CmpOp::Eq => ordering == Equal,
            CmpOp::Ne => ordering != Equal,
            CmpOp::Lt => ordering == Less,
            CmpOp::Le => ordering != Greater,
            CmpOp::Gt => ordering == Greater,
            CmpOp::Ge => ordering != Less,
        }
    }
}

/// Which threads a tournament or a keep-top keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Best {
    /// The highest score; among equals, the earliest thread.
    Max,
    /// The lowest score; among equals, the earliest thread.
    Min,
}

/// One instruction. "Top" is the first line of the stack; `a` below `b` means `b` is the
/// top. Every instruction acts only on active threads (`%%`), except where it says so.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Instruction {
    /// Push an already encoded value.
    Push(String),
    /// Drop the top value. Empty stack: nothing happens.
    Pop,
    /// Copy the top value. Empty stack: nothing happens.
    Dup,
    /// Exchange the two top values. Fewer than two: nothing happens.
    Swap,
    /// Push the value of a variable. Missing variable: nothing is pushed.
    Lookup(Var),
    /// Pop the top into a variable, replacing any old value. Empty stack: the variable is
    /// deleted and nothing is assigned.
    Assign(Var),
    /// Pop the top into a new line for the variable at the thread's end, without looking
    /// for an old one (one rule instead of two). The thread must not hold the variable
    /// yet: the DSL defines each temporary once per thread. Empty stack: nothing happens.
    Define(Var),
    /// Remove a variable. Missing: nothing happens.
    Delete(Var),
    /// Push the value of a variable and remove it: `lookup` then `delete` in one rule.
    /// Missing: nothing happens.
    Take(Var),
    /// `T` ↔ `F` on the top.
    Not,
    /// Pop `b`, `a`; push `a and b`.
    And,
    /// Pop `b`, `a`; push `a or b`.
    Or,
    /// Pop `b`, `a` of one scalar type; push `a op b` as a boolean.
    Compare {
        /// The comparison.
        op: CmpOp,
        /// The operands' type (not `Str`).
        ty: Scalar,
    },
    /// Replace the top value by whether its text equals the given (encoded) text. Works
    /// for every type, strings included.
    EqText(String),
    /// Pop `b`, `a`; push `a + b`, wrapping.
    Add {
        /// Operand width.
        bits: u8,
    },
    /// Pop `b`, `a`; push `a - b`, wrapping.
    Sub {
        /// Operand width.
        bits: u8,
    },
    /// Replace the top `a` by `-a`, wrapping (the minimum stays the minimum).
    Neg {
        /// Operand width.
        bits: u8,
    },
    /// Pop a boolean; threads that popped `F` are paused under `tag`.
    Cond {
        /// The else-tag of the conditional.
        tag: Tag,
    },
    /// Pop a boolean; threads that popped `T` are paused under `tag` (the negation of
    /// [`Instruction::Cond`]: an `if` whose then-branch is empty runs its else-branch on
    /// the threads left active, with no pause and wake-up around an empty branch).
    CondNot {
        /// The then-tag of the conditional.
        tag: Tag,
    },
    /// Pause every active thread under `tag`.
    Pause(Tag),
    /// Make every thread paused under `tag` active again.
    Reactivate(Tag),
    /// Each active thread becomes two identical adjacent threads.
    Fork,
    /// Each active thread becomes two: the first with `T` pushed, the second with `F`.
    ForkBool,
    /// Pop a list of at most `max_len` elements; one thread per element, in list order,
    /// each with its element pushed. An empty list destroys the thread.
    ForkList {
        /// Compile-time bound on the length.
        max_len: usize,
    },
    /// Delete every active thread.
    Destroy,
    /// Put a group boundary `%/<level>` before every active thread.
    MarkGroups {
        /// The nesting level (markers of different levels are removed separately).
        level: u32,
        /// The program promises that, when this level is unmarked, each group holds at
        /// most one thread, and that it is active: the group-stash pass
        /// ([`crate::passes::group_stash`]) may then keep the variables the group's
        /// instructions never mention in its boundary instead of in every thread.
        one_left: bool,
    },
    /// Remove every group boundary of `level` (active or not: markers are never paused).
    UnmarkGroups {
        /// The level.
        level: u32,
    },
    /// In each run of adjacent active threads (of at most `max_threads`), pop every
    /// thread's top value and push their list, in thread order, on the first thread;
    /// the others are deleted.
    Gather {
        /// Compile-time bound on the run length.
        max_threads: usize,
    },
    /// In each run of adjacent active threads (of at most `max_threads`), keep only the
    /// thread whose top integer is best (ties: the earliest). The score stays on top.
    Tournament {
        /// Score width.
        bits: u8,
        /// Compile-time bound on the run length.
        max_threads: usize,
        /// Highest or lowest.
        best: Best,
    },
    /// In each run of adjacent active threads (of at most `max_threads`), keep the `keep`
    /// threads whose top integer is best and delete the others. Threads are ranked by
    /// score, then by position (of two equal scores, the earlier thread is the better), so
    /// exactly `min(keep, run length)` threads stay, in their original order, with their
    /// score on top. A run of at most `keep` threads is unchanged; `keep = 1` is
    /// [`Instruction::Tournament`]. A run longer than `max_threads` may keep more.
    KeepTop {
        /// Score width.
        bits: u8,
        /// How many threads each run keeps (at least 1).
        keep: usize,
        /// Compile-time bound on the run length.
        max_threads: usize,
        /// Highest or lowest.
        best: Best,
    },
    /// Replace the top string by whether the regular expression matches somewhere in it.
    /// The pattern can never match a newline and has no anchors (see
    /// [`super::lower::strings::check_line_pattern`]).
    Matches(String),
    /// Pop an element `e` and a list `l`; push `l` with `e` appended.
    ListPush,
    /// Pop `b`, `a`; push `a` followed by `b`.
    Concat,
    /// Replace the top string by its `len` characters from `start`. Too short: unchanged.
    Slice {
        /// First character taken (0-based).
        start: usize,
        /// Number of characters taken.
        len: usize,
    },
    /// Replace every character of the top string (of at most `max_len` characters) found
    /// in `table` by its image; other characters stay.
    MapChars {
        /// `(from, to)` pairs; `to` never holds `%`, newline or `\x01`.
        table: Vec<(char, String)>,
        /// Compile-time bound on the length.
        max_len: usize,
    },
    /// Replace the top string by the list of its pieces between `sep` characters.
    Split {
        /// The separator.
        sep: char,
        /// Compile-time bound on the length of the string.
        max_len: usize,
    },
    /// Replace the top list by its elements joined with `sep`.
    Join {
        /// The separator.
        sep: char,
        /// Compile-time bound on the length of the joined string.
        max_len: usize,
    },
    /// Hand-designed rules, emitted as written (the escape hatch for patterns the other
    /// instructions cannot express, such as the chess board's stride patterns). The
    /// author keeps the conventions: a thread-local rule starts with `%%\n#stack:\n`,
    /// values never gain `%` or a newline, scratch lines and marks are gone when the
    /// last rule has run. `reads` and `writes` declare every variable the rules look at
    /// or create/change, so that passes stay correct (dead-variable elimination treats
    /// each as a use; constant inlining leaves them alone).
    Rules {
        /// A short name for origins and profiles (`movegen`, `legality`...).
        name: String,
        /// `(pattern, replacement)` pairs, in order.
        rules: Vec<(String, String)>,
        /// Variables the rules read.
        reads: Vec<Var>,
        /// Variables the rules create or change.
        writes: Vec<Var>,
    },
}

impl Instruction {
    /// A short name used in rule origins and statistics.
    pub fn name(&self) -> &'static str {
        use Instruction::*;
        match self {
            Push(_) => "push",
            Pop => "pop",
            Dup => "dup",
            Swap => "swap",
            Lookup(_) => "lookup",
            Assign(_) => "assign",
            Define(_) => "define",
            Delete(_) => "delete",
            Take(_) => "take",
            Not => "not",
            And => "and",
            Or => "or",
            Compare { .. } => "compare",
            EqText(_) => "eq_text",
            Add { .. } => "add",
            Sub { .. } => "sub",
            Neg { .. } => "neg",
            Cond { .. } => "cond",
            CondNot { .. } => "cond_not",
            Pause(_) => "pause",
            Reactivate(_) => "reactivate",
            Fork => "fork",
            ForkBool => "fork_bool",
            ForkList { .. } => "fork_list",
            Destroy => "destroy",
            MarkGroups { .. } => "mark_groups",
            UnmarkGroups { .. } => "unmark_groups",
            Gather { .. } => "gather",
            Tournament { .. } => "tournament",
            KeepTop { .. } => "keep_top",
            ListPush => "list_push",
            Concat => "concat",
            Matches(_) => "matches",
            Slice { .. } => "slice",
            MapChars { .. } => "map_chars",
            Split { .. } => "split",
            Join { .. } => "join",
            Rules { .. } => "rules",
        }
    }

    /// The variable this instruction reads, writes or deletes, if any.
    pub fn var(&self) -> Option<&Var> {
        match self {
            Instruction::Lookup(v)
            | Instruction::Assign(v)
            | Instruction::Define(v)
            | Instruction::Delete(v)
            | Instruction::Take(v) => Some(v),
            _ => None,
        }
    }

    /// Every variable this instruction mentions: the one of [`Instruction::var`], or the
    /// declared reads and writes of [`Instruction::Rules`].
    pub fn vars(&self) -> Vec<&Var> {
        match self {
            Instruction::Rules { reads, writes, .. } => reads.iter().chain(writes).collect(),
            other => other.var().into_iter().collect(),
        }
    }

    /// The variable this instruction stores the top of the stack into (assign, define).
    pub fn stored(&self) -> Option<&Var> {
        match self {
            Instruction::Assign(v) | Instruction::Define(v) => Some(v),
            _ => None,
        }
    }

    /// The conditional this instruction belongs to, if it is a control instruction.
    pub fn tag(&self) -> Option<Tag> {
        match self {
            Instruction::Cond { tag }
            | Instruction::CondNot { tag }
            | Instruction::Pause(tag)
            | Instruction::Reactivate(tag) => Some(*tag),
            _ => None,
        }
    }
}

impl fmt::Display for Instruction {
    /// The name and the operands, as in `lookup x`, `push 1000`, `cond e3`,
    /// `tournament bits=8 max_threads=64 max`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Instruction::*;
        f.write_str(self.name())?;
        match self {
            Push(v) | EqText(v) | Matches(v) => write!(f, " {v:?}"),
            Lookup(v) | Assign(v) | Define(v) | Delete(v) | Take(v) => write!(f, " {v}"),
            Compare { op, ty } => write!(f, " {op:?} {ty:?}"),
            Add { bits } | Sub { bits } | Neg { bits } => write!(f, " bits={bits}"),
            Cond { tag } | CondNot { tag } | Pause(tag) | Reactivate(tag) => {
                write!(f, " {tag}")
            }
            ForkList { max_len } => write!(f, " max_len={max_len}"),
            MarkGroups { level, one_left } => match one_left {
                true => write!(f, " level={level} one_left"),
                false => write!(f, " level={level}"),
            },
            UnmarkGroups { level } => write!(f, " level={level}"),
            Gather { max_threads } => write!(f, " max_threads={max_threads}"),
            Tournament {
                bits,
                max_threads,
                best,
            } => write!(f, " bits={bits} max_threads={max_threads} {best:?}"),
            KeepTop {
                bits,
                keep,
                max_threads,
                best,
            } => write!(
                f,
                " bits={bits} keep={keep} max_threads={max_threads} {best:?}"
            ),
            Slice { start, len } => write!(f, " start={start} len={len}"),
            MapChars { table, max_len } => write!(f, " {table:?} max_len={max_len}"),
            Split { sep, max_len } | Join { sep, max_len } => {
                write!(f, " {sep:?} max_len={max_len}")
            }
            Rules {
                name,
                rules,
                reads,
                writes,
            } => {
                let names =
                    |vars: &[Var]| vars.iter().map(|v| v.name()).collect::<Vec<_>>().join(",");
                write!(
                    f,
                    " {name} ({} rules) reads=[{}] writes=[{}]",
                    rules.len(),
                    names(reads),
                    names(writes)
                )
            }
            Pop | Dup | Swap | Not | And | Or | Fork | ForkBool | Destroy | ListPush | Concat => {
                Ok(())
            }
        }
    }
}

/// A source location: where the DSL call was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Site {
    /// Source file.
    pub file: &'static str,
    /// Line, 1-based.
    pub line: u32,
    /// Column, 1-based.
    pub column: u32,
}

impl Site {
    /// The location of the caller (through every `#[track_caller]` frame).
    #[track_caller]
    pub fn caller() -> Site {
        let location = Location::caller();
        Site {
            file: location.file(),
            line: location.line(),
            column: location.column(),
        }
    }
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// An instruction with its origin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    /// The instruction.
    pub instruction: Instruction,
    /// Where it was recorded.
    pub site: Site,
}

/// A recorded program: the instructions plus what passes need to know about its edges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IrProgram {
    /// Short name, such as `demo-arith`.
    pub name: String,
    /// What the program does and which state it expects.
    pub description: String,
    /// The instructions in order.
    pub body: Vec<Located>,
    /// Variables the initial state holds.
    pub inputs: Vec<Var>,
    /// Variables the caller reads at the end (never deleted by passes).
    pub outputs: Vec<Var>,
}
