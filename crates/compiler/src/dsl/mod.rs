//! The tracing DSL: Rust code that records instructions instead of running them.
//!
//! A [`Builder`] holds the instruction list being recorded. Values are [`Value`] handles:
//! each names a variable of every active thread, typed at compile time by a kind
//! ([`kind::Int`], [`kind::Bool`]...) and at trace time by a [`Type`] (the integer width,
//! the enumeration). An operation looks its operands up onto the stack, records the
//! instruction and defines a fresh temporary (`_0`, `_1`...) with the result;
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
//! | text and lists | `concat`, `slice`, `map_chars`, `split`, `join`, `list_push`, `text_of`, `matches(&board, "R\\.{7}K")` |
//! | hand-written rules | `rules(name, rules, reads, writes)`, `rules_value`, `named`, `fresh` |
//! | branches | `let r = if_else(&c, \|b\| .., \|b\| ..)`; `when(&c, \|b\| ..)` |
//! | threads | `fork`, `fork_bool`, `fork_list(&xs, max)`, `destroy` |
//! | many threads to one | `gather(&v, max_threads)`, `keep_best(&score, max_threads, Best::Max)` |
//! | many threads to a few | `keep_top(&score, k, max_threads, Best::Max)` |
//! | per-parent reductions | `grouped(\|b\| { fork_list..; keep_best.. })` |
//!
//! Bounds (`max_len`, `max_threads`) are compile-time: they fix how many rounds of
//! rules are emitted. A run longer than its bound is not fully reduced (a tournament
//! leaves several threads, a fork leaves a list), so choose them from the program's
//! worst case.
//!
//! Your own DSL functions can carry `#[track_caller]` too; the rules they emit are then
//! attributed to their callers instead of their bodies.

mod control;
mod custom;
mod text;
mod threads;
mod values;

pub use control::Merge;

use std::marker::PhantomData;

use super::ir::{EnumDef, Instruction, IrProgram, Located, Scalar, Site, Type, Var};

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

    /// Records `instruction` and defines a fresh temporary with the top of the stack.
    #[track_caller]
    fn result<K>(&mut self, instruction: Instruction, ty: Type) -> Value<K> {
        self.emit(instruction);
        let value = self.temp(ty);
        self.emit(Instruction::Define(value.var.clone()));
        value
    }

    // ----- inputs and outputs -----

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

    // ----- helpers for the operation files -----

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
}
