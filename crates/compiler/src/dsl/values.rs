//! Constants, booleans, comparisons and integer arithmetic.
//!
//! Each operation looks its operands up, records one instruction and defines a fresh
//! temporary; widths and enumerations are checked while tracing.

use super::{Builder, Kind, Ordered, Value, kind};
use crate::encode;
use crate::ir::{CmpOp, EnumDef, Instruction, Scalar, Type};

impl Builder {
    #[track_caller]
    fn constant<K>(&mut self, text: String, ty: Type) -> Value<K> {
        self.result(Instruction::Push(text), ty)
    }

    /// A boolean constant.
    #[track_caller]
    pub fn bool(&mut self, value: bool) -> Value<kind::Bool> {
        self.constant(encode::bool(value).to_string(), Type::Bool)
    }

    /// An integer constant of `bits` bits.
    ///
    /// # Panics
    /// When `value` does not fit.
    #[track_caller]
    pub fn int(&mut self, bits: u8, value: i64) -> Value<kind::Int> {
        self.constant(encode::int(bits, value), Type::Int { bits })
    }

    /// The variant `name` of `def`.
    ///
    /// # Panics
    /// When `def` has no such variant.
    #[track_caller]
    pub fn variant(&mut self, def: &'static EnumDef, name: &str) -> Value<kind::Enum> {
        def.check();
        assert!(
            def.index_of(name).is_some(),
            "{} has no variant `{name}`",
            def.name
        );
        self.constant(name.to_string(), Type::Enum(def))
    }

    /// A string constant.
    ///
    /// # Panics
    /// When the text holds `%`, a newline or `\x01`, or starts with `#` or `!`.
    #[track_caller]
    pub fn str(&mut self, text: &str) -> Value<kind::Str> {
        assert!(
            !text.contains(['%', '\n', '\x01']) && !text.starts_with(['#', '!']),
            "{text:?} cannot be a value"
        );
        self.constant(text.to_string(), Type::Str)
    }

    /// An empty list of `elem`.
    #[track_caller]
    pub fn empty_list<K: Kind>(&mut self, elem: Scalar) -> Value<kind::List<K>> {
        assert!(
            K::accepts(elem.into()),
            "element type {elem:?} has another kind"
        );
        self.constant(String::new(), Type::List(elem))
    }

    /// `!a`.
    #[track_caller]
    pub fn not(&mut self, a: &Value<kind::Bool>) -> Value<kind::Bool> {
        self.unary(a, Instruction::Not, Type::Bool)
    }

    /// `a && b` (both are always evaluated).
    #[track_caller]
    pub fn and(&mut self, a: &Value<kind::Bool>, b: &Value<kind::Bool>) -> Value<kind::Bool> {
        self.binary(a, b, Instruction::And, Type::Bool)
    }

    /// `a || b` (both are always evaluated).
    #[track_caller]
    pub fn or(&mut self, a: &Value<kind::Bool>, b: &Value<kind::Bool>) -> Value<kind::Bool> {
        self.binary(a, b, Instruction::Or, Type::Bool)
    }

    /// `a op b`.
    ///
    /// # Panics
    /// When the operands' types differ.
    #[track_caller]
    pub fn compare<K: Ordered>(
        &mut self,
        op: CmpOp,
        a: &Value<K>,
        b: &Value<K>,
    ) -> Value<kind::Bool> {
        assert_eq!(a.ty, b.ty, "compare: operand types differ");
        let ty = a.ty.as_scalar().expect("ordered kinds are scalars");
        self.binary(a, b, Instruction::Compare { op, ty }, Type::Bool)
    }

    /// `a == b`.
    #[track_caller]
    pub fn eq<K: Ordered>(&mut self, a: &Value<K>, b: &Value<K>) -> Value<kind::Bool> {
        self.compare(CmpOp::Eq, a, b)
    }

    /// `a != b`.
    #[track_caller]
    pub fn ne<K: Ordered>(&mut self, a: &Value<K>, b: &Value<K>) -> Value<kind::Bool> {
        self.compare(CmpOp::Ne, a, b)
    }

    /// `a < b`.
    #[track_caller]
    pub fn lt<K: Ordered>(&mut self, a: &Value<K>, b: &Value<K>) -> Value<kind::Bool> {
        self.compare(CmpOp::Lt, a, b)
    }

    /// `a <= b`.
    #[track_caller]
    pub fn le<K: Ordered>(&mut self, a: &Value<K>, b: &Value<K>) -> Value<kind::Bool> {
        self.compare(CmpOp::Le, a, b)
    }

    /// `a > b`.
    #[track_caller]
    pub fn gt<K: Ordered>(&mut self, a: &Value<K>, b: &Value<K>) -> Value<kind::Bool> {
        self.compare(CmpOp::Gt, a, b)
    }

    /// `a >= b`.
    #[track_caller]
    pub fn ge<K: Ordered>(&mut self, a: &Value<K>, b: &Value<K>) -> Value<kind::Bool> {
        self.compare(CmpOp::Ge, a, b)
    }

    /// Whether the text of `a` equals `text` (an encoded value of `a`'s type, or any
    /// string for a string): one instruction, no constant to look up.
    ///
    /// # Panics
    /// When the text could not be a value.
    #[track_caller]
    pub fn eq_text<K>(&mut self, a: &Value<K>, text: &str) -> Value<kind::Bool> {
        assert!(
            !text.contains(['%', '\n']) && !text.starts_with(['#', '!']),
            "{text:?} cannot be a value"
        );
        self.unary(a, Instruction::EqText(text.to_string()), Type::Bool)
    }

    #[track_caller]
    fn same_width(a: &Value<kind::Int>, b: &Value<kind::Int>) -> u8 {
        assert_eq!(a.bits(), b.bits(), "integer widths differ");
        a.bits()
    }

    /// `a + b`, wrapping.
    #[track_caller]
    pub fn add(&mut self, a: &Value<kind::Int>, b: &Value<kind::Int>) -> Value<kind::Int> {
        let bits = Self::same_width(a, b);
        self.binary(a, b, Instruction::Add { bits }, a.ty)
    }

    /// `a - b`, wrapping.
    #[track_caller]
    pub fn sub(&mut self, a: &Value<kind::Int>, b: &Value<kind::Int>) -> Value<kind::Int> {
        let bits = Self::same_width(a, b);
        self.binary(a, b, Instruction::Sub { bits }, a.ty)
    }

    /// `-a`, wrapping (the minimum is its own negation).
    #[track_caller]
    pub fn neg(&mut self, a: &Value<kind::Int>) -> Value<kind::Int> {
        self.unary(a, Instruction::Neg { bits: a.bits() }, a.ty)
    }
}
