//! Strings and lists: append, concatenate, fields, character maps, split and join.
//!
//! Lengths are compile-time bounds (`max_len`): they fix how many rounds of rules a
//! character map emits.

use std::marker::PhantomData;

use super::{Builder, Value, kind};
use crate::ir::{Instruction, Scalar, Type};

impl Builder {
    /// `list` with `elem` appended.
    #[track_caller]
    pub fn list_push<K>(
        &mut self,
        list: &Value<kind::List<K>>,
        elem: &Value<K>,
    ) -> Value<kind::List<K>> {
        assert_eq!(Type::List(elem.ty.as_scalar().unwrap()), list.ty);
        self.binary(list, elem, Instruction::ListPush, list.ty)
    }

    /// The text of any value, as a string. Free: every encoding is valid text, so the
    /// handle reads the same variable.
    pub fn text_of<K>(&self, value: &Value<K>) -> Value<kind::Str> {
        Value {
            var: value.var.clone(),
            ty: Type::Str,
            kind: PhantomData,
        }
    }

    /// Whether `pattern` matches somewhere in `s`: one instruction, 4 rules, whatever the
    /// pattern. Use it to ask questions about a whole line at once, such as "a rook, then
    /// empty squares every 8 characters, then the king".
    ///
    /// # Panics
    /// When the pattern does not parse, can match a newline (write `[^x\n]`, not `[^x]`),
    /// or has an anchor or a look-around.
    #[track_caller]
    pub fn matches(&mut self, s: &Value<kind::Str>, pattern: &str) -> Value<kind::Bool> {
        if let Err(problem) = crate::lower::strings::check_line_pattern(pattern) {
            panic!("matches {pattern:?}: {problem}");
        }
        self.unary(s, Instruction::Matches(pattern.to_string()), Type::Bool)
    }

    /// `a` followed by `b`.
    #[track_caller]
    pub fn concat(&mut self, a: &Value<kind::Str>, b: &Value<kind::Str>) -> Value<kind::Str> {
        self.binary(a, b, Instruction::Concat, Type::Str)
    }

    /// The `len` characters of `s` from `start` (`s` unchanged when it is too short).
    #[track_caller]
    pub fn slice(&mut self, s: &Value<kind::Str>, start: usize, len: usize) -> Value<kind::Str> {
        self.unary(s, Instruction::Slice { start, len }, Type::Str)
    }

    /// `s` with each character found in `table` replaced by its image; `s` has at most
    /// `max_len` characters.
    #[track_caller]
    pub fn map_chars(
        &mut self,
        s: &Value<kind::Str>,
        table: &[(char, &str)],
        max_len: usize,
    ) -> Value<kind::Str> {
        let table = table
            .iter()
            .map(|(from, to)| {
                assert!(
                    !to.contains(['%', '\n', '\x01']),
                    "{to:?} cannot be mapped to"
                );
                (*from, to.to_string())
            })
            .collect();
        self.unary(s, Instruction::MapChars { table, max_len }, Type::Str)
    }

    /// The pieces of `s` between `sep` characters; `s` has at most `max_len` characters.
    #[track_caller]
    pub fn split(
        &mut self,
        s: &Value<kind::Str>,
        sep: char,
        max_len: usize,
    ) -> Value<kind::List<kind::Str>> {
        self.unary(
            s,
            Instruction::Split { sep, max_len },
            Type::List(Scalar::Str),
        )
    }

    /// The elements of `list` joined by `sep`; the result has at most `max_len` characters.
    #[track_caller]
    pub fn join(
        &mut self,
        list: &Value<kind::List<kind::Str>>,
        sep: char,
        max_len: usize,
    ) -> Value<kind::Str> {
        self.unary(list, Instruction::Join { sep, max_len }, Type::Str)
    }
}
