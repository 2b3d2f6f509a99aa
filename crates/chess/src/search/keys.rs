//! The comparison keys of moves: a score's binary digits followed by the move's UCI text
//! turned into digits whose order is the reverse of the texts' byte order, so that a
//! tournament keeping the largest key prefers the best score and, among equal scores,
//! the smallest UCI text (the contracts' tie-break).

use super::*;
use crate::evaluate::SCORE_BITS;
use crate::stack_rules::on_stack;
use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::ir::Type;

/// Width of the tie-break key folded under the score (from, to, promotion).
pub(super) const UCI_KEY_BITS: u8 = 15;

/// Rules turning a UCI text on top of the stack into 15 binary digits whose order is the
/// reverse of the texts' byte order (so that a max prefers the smallest text).
pub(super) fn uci_key_rules() -> Vec<(String, String)> {
    let mut rules = Vec::new();
    let digits = |v: usize| format!("{:03b}", 7 - v);
    for (k, chars) in ["abcdefgh", "12345678", "abcdefgh", "12345678"]
        .iter()
        .enumerate()
    {
        for (v, c) in chars.chars().enumerate() {
            rules.push((
                format!("(%%\n#stack:\n[01]{{{}}}){c}", 3 * k),
                format!("${{1}}{}", digits(v)),
            ));
        }
    }
    // No promotion sorts first, then b, n, q, r.
    for (v, c) in ["", "b", "n", "q", "r"].iter().enumerate() {
        rules.push((
            format!("(%%\n#stack:\n[01]{{12}}){c}\n"),
            format!("${{1}}{}\n", digits(v)),
        ));
    }
    rules
}

/// The comparison key of a move: with `allowed`, a digit 1 when it holds (the move is
/// one `searchmoves` lets the search play), else 0; then its score's digits, then the
/// UCI key.
#[track_caller]
pub(super) fn move_key(
    b: &mut Builder,
    score: &Value<kind::Int>,
    uci: &Value<kind::Str>,
    allowed: Option<&Value<kind::Bool>>,
) -> Value<kind::Int> {
    let key: Value<kind::Str> = on_stack(b, "uci_key", &[uci.var()], uci_key_rules(), Type::Str);
    let text = b.text_of(score);
    let mut joined = b.concat(&text, &key);
    if let Some(allowed) = allowed {
        let digit: Value<kind::Str> = on_stack(
            b,
            "allowed_digit",
            &[allowed.var()],
            vec![
                (format!("{HEAD}T\n"), "${1}1\n".to_string()),
                (format!("{HEAD}F\n"), "${1}0\n".to_string()),
            ],
            Type::Str,
        );
        joined = b.concat(&digit, &joined);
    }
    let bits = SCORE_BITS + UCI_KEY_BITS + u8::from(allowed.is_some());
    on_stack(b, "as_int", &[joined.var()], Vec::new(), Type::Int { bits })
}

/// The width of [`move_key`]'s text.
pub(super) const KEY_DIGITS: usize = (SCORE_BITS + UCI_KEY_BITS) as usize;
