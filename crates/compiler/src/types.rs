//! Value types: what the compiler knows about a value while tracing.
//!
//! Contract: a [`Type`] fixes the value's encoding (see [`super::encode`]) and so which
//! rules an instruction lowers to. Types are small and `Copy`; enumerations are `'static`
//! definitions so that a type can point at them without lifetimes. Lists hold scalars
//! only: nesting would need a second separator per level, and no program needs it yet.

use std::fmt;

/// A small enumeration such as a square, a piece or a colour. Each value is stored as its
/// variant name, so names must be distinct, non-empty and made of ASCII letters, digits
/// and `_`. Order (for `<`) is the order of `variants`.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct EnumDef {
    /// The enumeration's name, for messages.
    pub name: &'static str,
    /// The variants, in order.
    pub variants: &'static [&'static str],
}

impl EnumDef {
    /// Checks that the variants are non-empty, distinct and made of ASCII letters, digits
    /// and `_` (the DSL calls this when an enumeration is first used).
    ///
    /// # Panics
    /// When a variant breaks the rule.
    pub fn check(&self) {
        for (i, v) in self.variants.iter().enumerate() {
            assert!(
                !v.is_empty() && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'),
                "{}: variant {v:?} is not made of letters, digits and `_`",
                self.name
            );
            assert!(
                !self.variants[..i].contains(v),
                "{}: variant {v:?} appears twice",
                self.name
            );
        }
    }

    /// The position of `variant`, if it is one.
    pub fn index_of(&self, variant: &str) -> Option<usize> {
        self.variants.iter().position(|v| *v == variant)
    }
}

/// The type of a list element. Lists do not nest: an element never contains the list
/// separator `;`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    /// `T` or `F`.
    Bool,
    /// A variant name of the enumeration.
    Enum(&'static EnumDef),
    /// A signed integer of `bits` binary digits (see [`super::encode::int`]).
    Int {
        /// The width, 1 to 64.
        bits: u8,
    },
    /// Free text without `%`, newline or `;`, not starting with `#` or `!`.
    Str,
}

/// The type of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// `T` or `F`.
    Bool,
    /// A variant name.
    Enum(&'static EnumDef),
    /// A fixed-width signed integer in offset binary.
    Int {
        /// The width, 1 to 64.
        bits: u8,
    },
    /// Free text without `%` or newline, not starting with `#` or `!`.
    Str,
    /// `;e1;e2...` (the empty list is the empty string).
    List(Scalar),
}

impl From<Scalar> for Type {
    fn from(s: Scalar) -> Type {
        match s {
            Scalar::Bool => Type::Bool,
            Scalar::Enum(e) => Type::Enum(e),
            Scalar::Int { bits } => Type::Int { bits },
            Scalar::Str => Type::Str,
        }
    }
}

impl Type {
    /// The type as a list element, if it can be one.
    pub fn as_scalar(self) -> Option<Scalar> {
        match self {
            Type::Bool => Some(Scalar::Bool),
            Type::Enum(e) => Some(Scalar::Enum(e)),
            Type::Int { bits } => Some(Scalar::Int { bits }),
            Type::Str => Some(Scalar::Str),
            Type::List(_) => None,
        }
    }
}

/// A variable name: ASCII letters, digits and `_`, not `stack`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(String);

impl Var {
    /// Checks and wraps `name`.
    ///
    /// # Panics
    /// When the name is empty, has another character, or is `stack`.
    pub fn new(name: &str) -> Var {
        assert!(
            !name.is_empty()
                && name != "stack"
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'),
            "`{name}` is not a valid variable name (letters, digits, `_`; not `stack`)"
        );
        Var(name.to_string())
    }

    /// The name.
    pub fn name(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "appears twice")]
    fn enumerations_refuse_repeated_variants() {
        static BAD: EnumDef = EnumDef {
            name: "bad",
            variants: &["a", "b", "a"],
        };
        BAD.check();
    }

    #[test]
    #[should_panic(expected = "not made of letters")]
    fn enumerations_refuse_odd_characters() {
        static BAD: EnumDef = EnumDef {
            name: "bad",
            variants: &["a;b"],
        };
        BAD.check();
    }
}
