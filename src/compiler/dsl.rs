//! The tracing DSL: Rust code that records instructions instead of running them.
//!
//! A [`Builder`] holds the instruction list being recorded. Values are [`Value`] handles:
//! each names a variable of every active thread, typed at compile time by a kind
//! ([`kind::Int`], [`kind::Bool`]...) and at trace time by a [`Type`] (the integer width,
//! the enumeration). An operation looks its operands up onto the stack, records the
//! instruction and assigns the result to a fresh temporary (`_0`, `_1`...);
//! dead-variable elimination and the peephole pass later keep intermediate results on the
//! stack instead.
//!
//! - Rust loops unroll: `for v in values { acc = b.add(&acc, v) }` records one `add` per
//!   iteration.
//! - Rust functions compose: a `fn score(b: &mut Builder, ...) -> Value<Int>` is a macro.
//! - [`Builder::if_else`] takes both branches as closures and records both; each thread
//!   runs the one its condition picks. Branch results are merged through [`Merge`].
//! - Every method is `#[track_caller]`: the rules a call emits carry its file, line and
//!   column, so profiles point at the DSL source.
//!
//! Mistakes found while tracing (mixing widths, an unknown variant) panic at the call
//! site, before any rule exists.
//!
//! # Cheat sheet
//!
//! | want | write |
//! | --- | --- |
//! | inputs and results | `input_int("x", 8)`, `input_enum`, `input_list::<kind::Int>`...; `output("r", &v)` |
//! | constants | `int(8, -3)`, `bool(true)`, `variant(&PIECE, "N")`, `str("..")`, `empty_list` |
//! | arithmetic, logic | `add`, `sub`, `neg`, `and`, `or`, `not` |
//! | comparisons | `eq`, `ne`, `lt`, `le`, `gt`, `ge` (bool, int, enum); `eq_text(&v, "e2e4")` (any type) |
//! | text and lists | `concat`, `slice`, `map_chars`, `split`, `join`, `list_push`, `text_of` |
//! | branches | `let r = if_else(&c, \|b\| .., \|b\| ..)`; `when(&c, \|b\| ..)` |
//! | threads | `fork`, `fork_bool`, `fork_list(&xs, max)`, `destroy` |
//! | many threads to one | `gather(&v, max_threads)`, `keep_best(&score, max_threads, Best::Max)` |
//! | per-parent reductions | `grouped(\|b\| { fork_list..; keep_best.. })` |
//! | hand-written rules | `rules(name, rules, reads, writes)`, `rules_value`, `named`, `fresh` |
//!
//! Bounds (`max`, `max_threads`, `max_len`) are compile-time: they fix how many rounds of
//! rules are emitted. A run longer than its bound is not fully reduced (a tournament
//! leaves several threads, a fork leaves a list), so choose them from the program's
//! worst case.
//!
//! Your own DSL functions can carry `#[track_caller]` too; the rules they emit are then
//! attributed to their callers instead of their bodies.

use std::marker::PhantomData;

use super::encode;
use super::ir::{
    Best, CmpOp, EnumDef, Instruction, IrProgram, Located, Scalar, Side, Site, Tag, Type, Var,
};

/// Compile-time kinds of values.
pub mod kind {
    use std::marker::PhantomData;

    /// A boolean.
    #[derive(Debug)]
    pub struct Bool;
    /// A fixed-width signed integer.
    #[derive(Debug)]
    pub struct Int;
    /// A value of a small enumeration.
    #[derive(Debug)]
    pub struct Enum;
    /// A string.
    #[derive(Debug)]
    pub struct Str;
    /// A list of `K`.
    #[derive(Debug)]
    pub struct List<K>(PhantomData<K>);
}

/// A kind, with the run-time types it covers.
pub trait Kind {
    /// Whether a value of type `ty` can have this kind.
    fn accepts(ty: Type) -> bool;
}

impl Kind for kind::Bool {
    fn accepts(ty: Type) -> bool {
        ty == Type::Bool
    }
}
impl Kind for kind::Int {
    fn accepts(ty: Type) -> bool {
        matches!(ty, Type::Int { .. })
    }
}
impl Kind for kind::Enum {
    fn accepts(ty: Type) -> bool {
        matches!(ty, Type::Enum(_))
    }
}
impl Kind for kind::Str {
    fn accepts(ty: Type) -> bool {
        ty == Type::Str
    }
}
impl<K: Kind> Kind for kind::List<K> {
    fn accepts(ty: Type) -> bool {
        matches!(ty, Type::List(e) if K::accepts(e.into()))
    }
}

/// Kinds that have an order (and equality) lowered to rules.
pub trait Ordered: Kind {}
impl Ordered for kind::Bool {}
impl Ordered for kind::Int {}
impl Ordered for kind::Enum {}

/// A handle on a value: the variable that holds it in every active thread, and its type.
#[derive(Debug)]
pub struct Value<K> {
    var: Var,
    ty: Type,
    kind: PhantomData<fn() -> K>,
}

impl<K> Clone for Value<K> {
    fn clone(&self) -> Self {
        Value {
            var: self.var.clone(),
            ty: self.ty,
            kind: PhantomData,
        }
    }
}

impl<K> Value<K> {
    /// The variable holding the value.
    pub fn var(&self) -> &Var {
        &self.var
    }

    /// The value's type.
    pub fn ty(&self) -> Type {
        self.ty
    }
}

impl Value<kind::Int> {
    /// The integer's width.
    pub fn bits(&self) -> u8 {
        match self.ty {
            Type::Int { bits } => bits,
            _ => unreachable!("an Int value has an Int type"),
        }
    }
}

/// What `if_else` branches can return: values (or groups of values) that both branches
/// assign to the same fresh variables.
pub trait Merge: Sized {
    /// Fresh variables of the same types.
    fn declare(&self, b: &mut Builder) -> Self;
    /// Records `target = self`.
    fn store_into(&self, b: &mut Builder, target: &Self, site: Site);
}

impl Merge for () {
    fn declare(&self, _: &mut Builder) -> Self {}
    fn store_into(&self, _: &mut Builder, _: &Self, _: Site) {}
}

impl<K> Merge for Value<K> {
    fn declare(&self, b: &mut Builder) -> Self {
        b.temp(self.ty)
    }
    fn store_into(&self, b: &mut Builder, target: &Self, site: Site) {
        assert_eq!(
            self.ty, target.ty,
            "the branches of an if_else differ in type"
        );
        b.emit_at(Instruction::Lookup(self.var.clone()), site);
        b.emit_at(Instruction::Assign(target.var.clone()), site);
    }
}

impl<A: Merge, B: Merge> Merge for (A, B) {
    fn declare(&self, b: &mut Builder) -> Self {
        (self.0.declare(b), self.1.declare(b))
    }
    fn store_into(&self, b: &mut Builder, target: &Self, site: Site) {
        self.0.store_into(b, &target.0, site);
        self.1.store_into(b, &target.1, site);
    }
}

/// Records a program. See the module documentation.
#[derive(Debug)]
pub struct Builder {
    ir: IrProgram,
    next_temp: u32,
    next_if: u32,
    group_level: u32,
}

impl Builder {
    /// An empty program.
    pub fn new(name: &str, description: &str) -> Builder {
        Builder {
            ir: IrProgram {
                name: name.to_string(),
                description: description.to_string(),
                ..IrProgram::default()
            },
            next_temp: 0,
            next_if: 0,
            group_level: 0,
        }
    }

    /// The recorded program.
    pub fn finish(self) -> IrProgram {
        self.ir
    }

    /// The instructions recorded so far.
    pub fn body(&self) -> &[Located] {
        &self.ir.body
    }

    /// Records one raw instruction (low level: the caller keeps the stack consistent).
    #[track_caller]
    pub fn emit(&mut self, instruction: Instruction) {
        self.emit_at(instruction, Site::caller());
    }

    fn emit_at(&mut self, instruction: Instruction, site: Site) {
        self.ir.body.push(Located { instruction, site });
    }

    fn temp<K>(&mut self, ty: Type) -> Value<K> {
        let var = Var::new(&format!("_{}", self.next_temp));
        self.next_temp += 1;
        Value {
            var,
            ty,
            kind: PhantomData,
        }
    }

    #[track_caller]
    fn load<K>(&mut self, value: &Value<K>) {
        self.emit(Instruction::Lookup(value.var.clone()));
    }

    /// Records `instruction` and assigns the top of the stack to a fresh temporary.
    #[track_caller]
    fn result<K>(&mut self, instruction: Instruction, ty: Type) -> Value<K> {
        self.emit(instruction);
        let value = self.temp(ty);
        self.emit(Instruction::Assign(value.var.clone()));
        value
    }

    // ----- inputs, outputs, constants -----

    /// Declares a variable that the initial state holds.
    ///
    /// # Panics
    /// When `ty` is not of kind `K`, or the name is not a valid variable name or starts
    /// with `_` (reserved for temporaries).
    #[track_caller]
    pub fn input<K: Kind>(&mut self, name: &str, ty: Type) -> Value<K> {
        assert!(
            K::accepts(ty),
            "input `{name}`: type {ty:?} has another kind"
        );
        if let Type::Enum(def) | Type::List(Scalar::Enum(def)) = ty {
            def.check();
        }
        assert!(
            !name.starts_with('_'),
            "names starting with `_` are reserved"
        );
        let var = Var::new(name);
        self.ir.inputs.push(var.clone());
        Value {
            var,
            ty,
            kind: PhantomData,
        }
    }

    /// Declares a boolean input.
    #[track_caller]
    pub fn input_bool(&mut self, name: &str) -> Value<kind::Bool> {
        self.input(name, Type::Bool)
    }

    /// Declares an integer input of `bits` bits.
    #[track_caller]
    pub fn input_int(&mut self, name: &str, bits: u8) -> Value<kind::Int> {
        self.input(name, Type::Int { bits })
    }

    /// Declares an input of the enumeration `def`.
    #[track_caller]
    pub fn input_enum(&mut self, name: &str, def: &'static EnumDef) -> Value<kind::Enum> {
        self.input(name, Type::Enum(def))
    }

    /// Declares a string input.
    #[track_caller]
    pub fn input_str(&mut self, name: &str) -> Value<kind::Str> {
        self.input(name, Type::Str)
    }

    /// Declares a list input with elements of type `elem`.
    #[track_caller]
    pub fn input_list<K: Kind>(&mut self, name: &str, elem: Scalar) -> Value<kind::List<K>> {
        self.input(name, Type::List(elem))
    }

    /// Stores `value` in the variable `name` and marks it as a result: passes never
    /// delete it.
    #[track_caller]
    pub fn output<K>(&mut self, name: &str, value: &Value<K>) {
        assert!(
            !name.starts_with('_'),
            "names starting with `_` are reserved"
        );
        let var = Var::new(name);
        self.load(value);
        self.emit(Instruction::Assign(var.clone()));
        self.ir.outputs.push(var);
    }

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

    // ----- operations -----

    #[track_caller]
    fn unary<K, R>(&mut self, a: &Value<K>, instruction: Instruction, ty: Type) -> Value<R> {
        self.load(a);
        self.result(instruction, ty)
    }

    #[track_caller]
    fn binary<K, L, R>(
        &mut self,
        a: &Value<K>,
        b: &Value<L>,
        instruction: Instruction,
        ty: Type,
    ) -> Value<R> {
        self.load(a);
        self.load(b);
        self.result(instruction, ty)
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

    // ----- control -----

    /// Records both branches; each thread runs `then` if `cond` is true, else
    /// `otherwise`. Values the branches return are merged into fresh variables.
    #[track_caller]
    pub fn if_else<R: Merge>(
        &mut self,
        cond: &Value<kind::Bool>,
        then: impl FnOnce(&mut Builder) -> R,
        otherwise: impl FnOnce(&mut Builder) -> R,
    ) -> R {
        let site = Site::caller();
        let id = self.next_if;
        self.next_if += 1;
        let then_tag = Tag {
            id,
            side: Side::Then,
        };
        let else_tag = Tag {
            id,
            side: Side::Else,
        };
        self.emit_at(Instruction::Lookup(cond.var.clone()), site);
        self.emit_at(Instruction::Cond { tag: else_tag }, site);
        let from_then = then(self);
        let result = from_then.declare(self);
        from_then.store_into(self, &result, site);
        self.emit_at(Instruction::Pause(then_tag), site);
        self.emit_at(Instruction::Reactivate(else_tag), site);
        let from_else = otherwise(self);
        from_else.store_into(self, &result, site);
        self.emit_at(Instruction::Reactivate(then_tag), site);
        result
    }

    /// Runs `then` on the threads where `cond` holds.
    #[track_caller]
    pub fn when(&mut self, cond: &Value<kind::Bool>, then: impl FnOnce(&mut Builder)) {
        self.if_else(cond, then, |_| ());
    }

    // ----- threads -----

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

    // ----- hand-written rules -----

    /// A handle on the variable `name`, which hand-written rules ([`Builder::rules`])
    /// create or read. Unlike [`Builder::input`] the variable is not part of the initial
    /// state.
    ///
    /// # Panics
    /// When `ty` is not of kind `K`, or the name is invalid or starts with `_`.
    pub fn named<K: Kind>(&self, name: &str, ty: Type) -> Value<K> {
        assert!(K::accepts(ty), "`{name}`: type {ty:?} has another kind");
        assert!(
            !name.starts_with('_'),
            "names starting with `_` are reserved"
        );
        Value {
            var: Var::new(name),
            ty,
            kind: PhantomData,
        }
    }

    /// A handle on a fresh temporary that hand-written rules will write.
    pub fn fresh<K: Kind>(&mut self, ty: Type) -> Value<K> {
        assert!(K::accepts(ty), "fresh: type {ty:?} has another kind");
        self.temp(ty)
    }

    /// Records hand-written rules as one [`Instruction::Rules`]: emitted as written, with
    /// `reads` and `writes` declaring the variables they touch (see the instruction's
    /// documentation for the conventions the rules must keep).
    #[track_caller]
    pub fn rules(
        &mut self,
        name: &str,
        rules: Vec<(String, String)>,
        reads: &[&Var],
        writes: &[&Var],
    ) {
        self.emit(Instruction::Rules {
            name: name.to_string(),
            rules,
            reads: reads.iter().map(|v| (*v).clone()).collect(),
            writes: writes.iter().map(|v| (*v).clone()).collect(),
        });
    }

    /// Like [`Builder::rules`] for rules that leave exactly one new value of type `ty` on
    /// top of every active thread's stack; the value is assigned to a fresh temporary.
    #[track_caller]
    pub fn rules_value<K: Kind>(
        &mut self,
        name: &str,
        rules: Vec<(String, String)>,
        reads: &[&Var],
        ty: Type,
    ) -> Value<K> {
        assert!(K::accepts(ty), "rules_value: type {ty:?} has another kind");
        self.rules(name, rules, reads, &[]);
        let value = self.temp(ty);
        self.emit(Instruction::Assign(value.var.clone()));
        value
    }

    /// Runs `body` with a group boundary before every active thread, so that gathers and
    /// tournaments in `body` stay within the threads descended from one original thread.
    #[track_caller]
    pub fn grouped<R>(&mut self, body: impl FnOnce(&mut Builder) -> R) -> R {
        let site = Site::caller();
        self.group_level += 1;
        let level = self.group_level;
        self.emit_at(Instruction::MarkGroups { level }, site);
        let result = body(self);
        self.emit_at(Instruction::UnmarkGroups { level }, site);
        self.group_level -= 1;
        result
    }
}
