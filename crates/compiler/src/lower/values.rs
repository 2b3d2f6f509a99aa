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
//! Addition and subtraction resolve carries (borrows for subtraction) from the least
//! significant digit with a cursor: the line `!<pairs>:<carry><result digits>` loses its
//! last pair each step. One rule does a step for every case at once (see `carry_step`:
//! an alternation of the eight `(x, y, carry)` cases whose captured digits the
//! replacement copies), so the cost is `n + 3` rules for `n` bits: interleave, `n`
//! identical steps (each moves the cursor one pair in every thread), and two rules that
//! drop the last carry and flip the top digit. Overflow wraps modulo `2^n`: offset binary
//! adds and subtracts as plain binary with the top digit flipped at the end (the offsets
//! `2^(n-1)` add up to `2^n`, or cancel). Negation is `0 - a`.
//!
//! | instruction | rules |
//! | --- | --- |
//! | not | 3 |
//! | and, or | 2 |
//! | compare (enum, bool) | 3 |
//! | compare (int) | 3 |
//! | eq_text (any type against a constant) | 3 |
//! | add, sub (n bits) | n + 3 |
//! | neg (n bits) | n + 5 |
//!
//! Operands that are not of the expected shape (a short stack, a non-boolean) leave the
//! thread unchanged or half-changed; the DSL's types rule that out.

use super::{HEAD_GROUP, Out, stack};
use crate::encode;
use crate::ir::{CmpOp, Scalar};

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

/// A digit step: `(x, y, carry)` → `(new carry, result digit)`.
type Step = fn(u8, u8, u8) -> (u8, u8);

/// `x + y + carry`.
fn add_step(x: u8, y: u8, carry: u8) -> (u8, u8) {
    let sum = x + y + carry;
    (sum / 2, sum % 2)
}

/// `x - y - borrow`; the new "carry" is the borrow.
fn sub_step(x: u8, y: u8, borrow: u8) -> (u8, u8) {
    let d = x as i8 - y as i8 - borrow as i8;
    ((d < 0) as u8, d.rem_euclid(2) as u8)
}

/// Ripple resolution of the scratch line `!pairs:carry` from its last pair, one rule per
/// digit, for addition (carries) or subtraction (borrows); both start at 0.
fn carry_rounds(out: &mut Out, bits: u8, step: Step) {
    let (pattern, replacement) = carry_step(step);
    for _ in 0..bits {
        out.rule(pattern.clone(), replacement.clone());
    }
    // Drop the last carry (wrapping) and flip the top digit (offset binary).
    out.rule(format!("{HEAD_GROUP}!:[01]0([01]*\n)"), "${1}1${2}");
    out.rule(format!("{HEAD_GROUP}!:[01]1([01]*\n)"), "${1}0${2}");
}

/// The rule that resolves the last pair before the cursor: `xy:c` becomes `:c'r` (new
/// carry, sum digit). Its alternation lists the eight `(x, y, c)` cases; in each, the
/// first `0` and the first `1` of the matched digits are captured, and since `c'` and `r`
/// always occur among `x`, `y`, `c` (for both steps; checked when the rule is built),
/// the one replacement copies them: it lists, for every
/// case, the group holding its `c'`, then, for every case, the group holding its `r`.
/// Only the matching case's groups take part; the others expand to nothing.
fn carry_step(step: Step) -> (String, String) {
    let mut alternatives = Vec::new();
    let mut carries = String::new();
    let mut digits = String::new();
    let mut next_group = 2;
    for x in 0..2u8 {
        for y in 0..2u8 {
            for c in 0..2u8 {
                let (carry, digit) = step(x, y, c);
                let matched = [x, y, c];
                let mut group_of = [None, None];
                let mut alternative = String::new();
                for (k, &d) in matched.iter().enumerate() {
                    if k == 2 {
                        alternative.push(':');
                    }
                    if group_of[d as usize].is_none() {
                        group_of[d as usize] = Some(next_group);
                        next_group += 1;
                        alternative.push_str(&format!("({d})"));
                    } else {
                        alternative.push_str(&d.to_string());
                    }
                }
                let group = |v: u8| group_of[v as usize].expect("c' and r occur in x, y, c");
                carries.push_str(&format!("${{{}}}", group(carry)));
                digits.push_str(&format!("${{{}}}", group(digit)));
                alternatives.push(alternative);
            }
        }
    }
    (
        format!("(%%\n#stack:\n![01]*)(?:{})", alternatives.join("|")),
        format!("${{1}}:{carries}{digits}"),
    )
}

/// `add`: pop `b`, `a`; push `a + b` modulo `2^bits`.
pub fn add(out: &mut Out, bits: u8) {
    interleave(out, bits, ":0");
    carry_rounds(out, bits, add_step);
}

/// `sub`: pop `b`, `a`; push `a - b` modulo `2^bits`.
pub fn sub(out: &mut Out, bits: u8) {
    interleave(out, bits, ":0");
    carry_rounds(out, bits, sub_step);
}

/// `neg`: `0 - a`, as push 0, swap, sub.
pub fn neg(out: &mut Out, bits: u8) {
    stack::push(out, &encode::int(bits, 0));
    stack::swap(out);
    sub(out, bits);
}
