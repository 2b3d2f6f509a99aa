//! Typed values: booleans, comparisons, integer arithmetic.
//!
//! Equality and order are never computed with a backreference. An enumeration compares
//! through an alternation of the pairs that satisfy the comparison (`k` variants: up to
//! `k²` short alternatives, so keep ordering comparisons to small enumerations). Two
//! integers are first *interleaved* by one rule with a capture group per digit:
//! `a = a1..an` and `b = b1..bn` become the scratch line `!a1b1a2b2..anbn`. In offset
//! binary the string order is the signed order, so then
//! `a > b` ⇔ the pairs match `(?:00|11)*10`, `a < b` ⇔ `(?:00|11)*01`, `a == b` ⇔
//! `(?:00|11)*` to the end.
//!
//! Addition and subtraction resolve carries from the least significant digit with a
//! cursor: the line `!<pairs>:<carry><result digits>` loses its last pair each step. A
//! round is 4 rules, one per digit sum `x + y + carry` ∈ {0, 1, 2, 3}; a round may move
//! the cursor several digits (the rules are position-free), and `n` rounds always finish.
//! Cost: `4n + 3` rules for `n` bits; the rounds are identical, so an executor that stops
//! a run of identical rules at its fixpoint skips the ones that have nothing left to do.
//! Overflow wraps modulo `2^n`; offset binary adds as plain binary with the top digit
//! flipped at the end. Negation is `0 - a`.
//!
//! | instruction | rules |
//! | --- | --- |
//! | not | 3 |
//! | and, or | 2 |
//! | compare (enum, bool) | 3 |
//! | compare (int) | 3 |
//! | eq_text (any type against a constant) | 3 |
//! | add, sub (n bits) | 4n + 3 |
//! | neg (n bits) | 4n + 5 |
//!
//! Operands that are not of the expected shape (a short stack, a non-boolean) leave the
//! thread unchanged or half-changed; the DSL's types rule that out.

use super::{HEAD_GROUP, Out, stack};
use crate::compiler::encode;
use crate::compiler::ir::{CmpOp, Scalar};

/// `not`: `T` → `!`, `F` → `T`, `!` → `F`.
pub fn not(out: &mut Out) {
    out.rule(format!("{HEAD_GROUP}T\n"), "${1}!\n");
    out.rule(format!("{HEAD_GROUP}F\n"), "${1}T\n");
    out.rule(format!("{HEAD_GROUP}!\n"), "${1}F\n");
}

/// `and`: any pair with an `F` becomes `F`, then `T T` becomes `T`.
pub fn and(out: &mut Out) {
    out.rule(format!("{HEAD_GROUP}(?:T\nF|F\nT|F\nF)\n"), "${1}F\n");
    out.rule(format!("{HEAD_GROUP}T\nT\n"), "${1}T\n");
}

/// `or`: any pair with a `T` becomes `T`, then `F F` becomes `F`.
pub fn or(out: &mut Out) {
    out.rule(format!("{HEAD_GROUP}(?:T\nT|T\nF|F\nT)\n"), "${1}T\n");
    out.rule(format!("{HEAD_GROUP}F\nF\n"), "${1}F\n");
}

/// The variant names of an enumeration-like scalar, in order.
fn variants(ty: Scalar) -> Vec<String> {
    match ty {
        Scalar::Bool => vec!["F".into(), "T".into()],
        Scalar::Enum(def) => def.variants.iter().map(|v| v.to_string()).collect(),
        Scalar::Int { .. } | Scalar::Str => unreachable!("not an enumeration"),
    }
}

/// `a op b` for any scalar but strings.
pub fn compare(out: &mut Out, op: CmpOp, ty: Scalar) {
    match ty {
        Scalar::Int { bits } => compare_ints(out, op, bits),
        Scalar::Bool | Scalar::Enum(_) => compare_enums(out, op, &variants(ty)),
        Scalar::Str => panic!("strings have no compare instruction"),
    }
}

fn compare_enums(out: &mut Out, op: CmpOp, names: &[String]) {
    // The stack reads `b\na\n` (b on top); the pair is true when `a op b`.
    let mut pairs = Vec::new();
    for (i, a) in names.iter().enumerate() {
        for (j, b) in names.iter().enumerate() {
            if op.holds(i.cmp(&j)) {
                pairs.push(format!("{}\n{}", regex::escape(b), regex::escape(a)));
            }
        }
    }
    let any = names
        .iter()
        .map(|n| regex::escape(n))
        .collect::<Vec<_>>()
        .join("|");
    if !pairs.is_empty() {
        out.rule(format!("{HEAD_GROUP}(?:{})\n", pairs.join("|")), "${1}!T\n");
    }
    out.rule(format!("{HEAD_GROUP}(?:{any})\n(?:{any})\n"), "${1}F\n");
    if !pairs.is_empty() {
        out.rule(format!("{HEAD_GROUP}!T\n"), "${1}T\n");
    }
}

/// `eq_text c`: the top value is replaced by `T` if its text is `c`, else `F`.
pub fn eq_text(out: &mut Out, text: &str) {
    out.rule(format!("{HEAD_GROUP}{}\n", regex::escape(text)), "${1}!T\n");
    // Any other value: values never start with `!`, so the scratch `!T` is skipped.
    out.rule(format!("{HEAD_GROUP}(?:[^!#%\n][^\n]*)?\n"), "${1}F\n");
    out.rule(format!("{HEAD_GROUP}!T\n"), "${1}T\n");
}

/// One rule: the two top `bits`-digit integers `b` (top) and `a` become the scratch line
/// `!a1b1..anbn` followed by `tail`.
fn interleave(out: &mut Out, bits: u8, tail: &str) {
    let n = bits as usize;
    let digits = "([01])".repeat(n);
    let mut replacement = String::from("${1}!");
    for i in 0..n {
        replacement.push_str(&format!("${{{}}}${{{}}}", n + 2 + i, 2 + i));
    }
    replacement.push_str(tail);
    replacement.push('\n');
    out.rule(format!("{HEAD_GROUP}{digits}\n{digits}\n"), replacement);
}

fn compare_ints(out: &mut Out, op: CmpOp, bits: u8) {
    interleave(out, bits, "");
    let test = match op {
        CmpOp::Eq => "(?:00|11)*\n",
        CmpOp::Ne => "(?:00|11)*(?:01|10)[01]*\n",
        CmpOp::Lt => "(?:00|11)*01[01]*\n",
        CmpOp::Le => "(?:00|11)*(?:01[01]*)?\n",
        CmpOp::Gt => "(?:00|11)*10[01]*\n",
        CmpOp::Ge => "(?:00|11)*(?:10[01]*)?\n",
    };
    out.rule(format!("{HEAD_GROUP}!{test}"), "${1}T\n");
    out.rule(format!("{HEAD_GROUP}![01]*\n"), "${1}F\n");
}

/// Ripple-carry resolution of the scratch line `!pairs:carry`, for `a + b` or, with `b`'s
/// digits read inverted and a first carry of 1, `a - b`.
fn carry_rounds(out: &mut Out, bits: u8, subtract: bool) {
    // For each digit sum 0..=3, the (pair, carry) texts that produce it.
    let mut by_sum: [Vec<String>; 4] = Default::default();
    for x in 0..2u8 {
        for y in 0..2u8 {
            for c in 0..2u8 {
                let y_eff = if subtract { 1 - y } else { y };
                by_sum[(x + y_eff + c) as usize].push(format!("{x}{y}:{c}"));
            }
        }
    }
    for _ in 0..bits {
        for (sum, alternatives) in by_sum.iter().enumerate() {
            out.rule(
                format!("(%%\n#stack:\n![01]*)(?:{})", alternatives.join("|")),
                format!("${{1}}:{}{}", sum / 2, sum % 2),
            );
        }
    }
    // Drop the last carry (wrapping) and flip the top digit (offset binary).
    out.rule(format!("{HEAD_GROUP}!:[01]0([01]*\n)"), "${1}1${2}");
    out.rule(format!("{HEAD_GROUP}!:[01]1([01]*\n)"), "${1}0${2}");
}

/// `add`: pop `b`, `a`; push `a + b` modulo `2^bits`.
pub fn add(out: &mut Out, bits: u8) {
    interleave(out, bits, ":0");
    carry_rounds(out, bits, false);
}

/// `sub`: pop `b`, `a`; push `a - b` modulo `2^bits`.
pub fn sub(out: &mut Out, bits: u8) {
    interleave(out, bits, ":1");
    carry_rounds(out, bits, true);
}

/// `neg`: `0 - a`, as push 0, swap, sub.
pub fn neg(out: &mut Out, bits: u8) {
    stack::push(out, &encode::int(bits, 0));
    stack::swap(out);
    sub(out, bits);
}
