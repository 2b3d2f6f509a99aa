//! Standard algebraic notation (SAN), in rules: the `play` program names moves in SAN and
//! reads what the player types (SAN or coordinates) by matching it against the legal
//! moves it generates. Nothing here runs on the wide part of the search: every function
//! starts from a single thread (its forks are one legal-move generation wide).
//!
//! # Entries
//!
//! A legal move is described by a fixed-width *entry* of 7 characters: the moving piece
//! (`PNBRQK`, upper case for both sides), the origin and target squares, the promotion
//! letter (`qrbn`, or `-`) and `x` for a capture (en passant included) or `-`:
//! `Ng1f3--`, `Pe7d8qx`, `Ke1g1--`. [`legal_entries`] lists the entries of the thread's
//! position, after a dummy entry `-------` that matches nothing (so the list is never
//! empty).
//!
//! # Queries
//!
//! [`query`] turns the typed text into an entry pattern of the same width, with `?` for
//! "any": `Nf3` is `N??f3-?`, `exd5` is `Pe?d5-?`, `e4` is `Pe?e4-?` (a push keeps its
//! file), `O-O` is `Ke?g?-?`, `e2e4`/`E2E4` is `?e2e4-?`, `e7e8q` is `?e7e8q?`. A
//! promotion typed without its piece (`e8`, `e7e8`) takes the queen. Trailing `+`, `#`,
//! `!` and `?` are ignored, and `0-0` is `O-O`. Text that is no move gives `X`.

use super::board::MAX_MOVES;
use super::board::{Position, offset};
use super::movegen::{beside_legal_moves, has_legal_move, in_check};
use super::stack_rules::on_stack;
use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::ir::Type;

const HEAD: &str = "(%%\n#stack:\n)";

/// The entry that matches no query and starts every list of [`legal_entries`].
pub const DUMMY: &str = "-------";

/// `aa|bb|...`: the pairs of equal characters from `chars`.
fn pairs(chars: &str) -> String {
    let pairs: Vec<String> = chars.chars().map(|c| format!("{c}{c}")).collect();
    pairs.join("|")
}

/// `(?:aa|bb|...)`: a pair of equal characters from `chars`.
fn equal_pairs(chars: &str) -> String {
    format!("(?:{})", pairs(chars))
}

/// The rules that turn a stack `uci\nboard\n` (the board before the move) into the
/// move's entry.
fn entry_rules() -> Vec<(String, String)> {
    let mut origin = Vec::new();
    let mut target = Vec::new();
    let (mut from_out, mut to_out) = (String::from("${1}!"), String::from("${1}#"));
    let mut from_tail = String::from("\n");
    let mut to_target = String::from("|");
    for rank in 0..8 {
        for file in 0..8 {
            let name = format!("{}{}", (b'a' + file as u8) as char, rank + 1);
            let off = offset(file, rank);
            let g = 2 + 3 * origin.len();
            origin.push(format!("({name}[a-h][1-8][qrbn]?)\n(.{{{off}}})(.)"));
            from_out.push_str(&format!("${{{}}}", g + 2));
            from_tail.push_str(&format!("${{{}}}${{{}}}", g + 1, g + 2));
            let t = 2 + 6 * target.len();
            target.push(format!("(.)(..)({name})([qrbn]?)\n(.{{{off}}})(.)[^\n]*\n"));
            to_out.push_str(&format!(
                "${{{}}}${{{}}}${{{}}}${{{}}}",
                t,
                t + 1,
                t + 2,
                t + 3
            ));
            to_target.push_str(&format!("${{{}}}", t + 5));
        }
    }
    // The origin rule copies the moving piece before the move: `!p e2e4\n<board>`.
    let mut uci_groups = String::new();
    for i in 0..64 {
        uci_groups.push_str(&format!("${{{}}}", 2 + 3 * i));
    }
    let mut rules = vec![(
        format!("{HEAD}(?:{})", origin.join("|")),
        // `!` + piece + uci, newline, board prefix + piece (the board unchanged).
        format!("{from_out}{uci_groups}{from_tail}"),
    )];
    rules.push((
        format!("{HEAD}!(?:{})", target.join("|")),
        format!("{to_out}{to_target}\n"),
    ));
    // Capture: an occupied target.
    rules.push((format!("{HEAD}#([^|\n]*)\\|\\.\n"), "${1}@${2}-\n".into()));
    rules.push((
        format!("{HEAD}#([^|\n]*)\\|[^.\n]\n"),
        "${1}@${2}x\n".into(),
    ));
    // No promotion letter: `-`.
    rules.push((format!("{HEAD}@(.....)(.)\n"), "${1}${2}-${3}\n".into()));
    rules.push((format!("{HEAD}@(......)(.)\n"), "${1}${2}${3}\n".into()));
    for (lower, upper) in [
        ('p', 'P'),
        ('n', 'N'),
        ('b', 'B'),
        ('r', 'R'),
        ('q', 'Q'),
        ('k', 'K'),
    ] {
        rules.push((format!("{HEAD}{lower}"), format!("${{1}}{upper}")));
    }
    // A pawn changing files captures, en passant too.
    let diagonal: Vec<String> = (0..8u8)
        .flat_map(|f| {
            let from = (b'a' + f) as char;
            [f.checked_sub(1), (f < 7).then_some(f + 1)]
                .into_iter()
                .flatten()
                .map(move |t| format!("{from}.{}", (b'a' + t) as char))
        })
        .collect();
    rules.push((
        format!("{HEAD}(P(?:{}).[qrbn-])-\n", diagonal.join("|")),
        "${1}${2}x\n".into(),
    ));
    rules
}

/// The entry of the move `uci` made from a position whose board was `board`.
#[track_caller]
fn entry_of(b: &mut Builder, board: &Value<kind::Str>, uci: &Value<kind::Str>) -> Value<kind::Str> {
    on_stack(
        b,
        "san_entry",
        &[board.var(), uci.var()],
        entry_rules(),
        Type::Str,
    )
}

/// The entries of the legal moves of the single thread's position, after [`DUMMY`]. The
/// thread keeps its position.
#[track_caller]
pub fn legal_entries(b: &mut Builder, pos: &Position) -> Value<kind::List<kind::Str>> {
    let board: Value<kind::Str> = on_stack(b, "board_copy", &[pos.board.var()], vec![], Type::Str);
    b.grouped(|b| {
        let entry = beside_legal_moves(b, pos, |b| b.str(DUMMY), |b, uci| entry_of(b, &board, uci));
        b.gather(&entry, MAX_MOVES + 1)
    })
}

/// How an entry `e` on the stack above an entry `m` bears on `m`'s SAN: `C` another
/// piece of the same kind that can go to the same square, `CF`/`CR` one on the same
/// file/rank, `-` none.
fn conflict_rules() -> Vec<(String, String)> {
    let one = "(.)".repeat(7);
    let mut interleaved = String::from("${1}!");
    for i in 0..7 {
        interleaved.push_str(&format!("${{{}}}${{{}}}", 2 + i, 9 + i));
    }
    interleaved.push('\n');
    let files = equal_pairs("abcdefgh");
    let ranks = equal_pairs("12345678");
    vec![
        (format!("{HEAD}{one}\n{one}\n"), interleaved),
        (
            format!("{HEAD}!(?:NN|BB|RR|QQ|KK)(..)(..){files}{ranks}[^\n]*\n"),
            "${1}C${2}${3}\n".into(),
        ),
        (format!("{HEAD}C{files}{ranks}\n"), "${1}-\n".into()),
        (format!("{HEAD}C{files}..\n"), "${1}CF\n".into()),
        (format!("{HEAD}C..{ranks}\n"), "${1}CR\n".into()),
        (format!("{HEAD}C....\n"), "${1}C\n".into()),
        (format!("{HEAD}![^\n]*\n"), "${1}-\n".into()),
    ]
}

/// The rules that turn a stack `codes\nentry\n` (the gathered [`conflict_rules`] codes
/// and the move's entry) into its SAN without the check suffix.
fn assemble_rules() -> Vec<(String, String)> {
    let mut rules = vec![
        // The disambiguation: B(oth), R(ank), F(ile) or N(one).
        (
            format!("{HEAD}[^\n]*(?:F[^\n]*R|R[^\n]*F)[^\n]*\n"),
            "${1}=B\n".to_string(),
        ),
        (format!("{HEAD}[^\n=]*F[^\n]*\n"), "${1}=R\n".into()),
        (format!("{HEAD}[^\n=]*C[^\n]*\n"), "${1}=F\n".into()),
        (format!("{HEAD}[^\n=]*\n"), "${1}=N\n".into()),
        (format!("{HEAD}=.\nKe([18])g[18]-.\n"), "${1}O-O\n".into()),
        (format!("{HEAD}=.\nKe([18])c[18]-.\n"), "${1}O-O-O\n".into()),
        (
            format!("{HEAD}=.\nP(.).(..)(.)x\n"),
            "${1}${2}x${3}~${4}\n".into(),
        ),
        (format!("{HEAD}=.\nP..(..)(.)-\n"), "${1}${2}~${3}\n".into()),
    ];
    for (mode, from) in [("N", ".."), ("F", "(.)."), ("R", ".(.)"), ("B", "(..)")] {
        let (kept, to) = if from == ".." {
            ("", "${3}")
        } else {
            ("${3}", "${4}")
        };
        rules.push((
            format!("{HEAD}={mode}\n([NBRQK]){from}(..).x\n"),
            format!("${{1}}${{2}}{kept}x{to}\n"),
        ));
        rules.push((
            format!("{HEAD}={mode}\n([NBRQK]){from}(..).-\n"),
            format!("${{1}}${{2}}{kept}{to}\n"),
        ));
    }
    rules.push((format!("{HEAD}([^\n~]*)~-\n"), "${1}${2}\n".into()));
    for (letter, upper) in [('q', 'Q'), ('r', 'R'), ('b', 'B'), ('n', 'N')] {
        rules.push((
            format!("{HEAD}([^\n~]*)~{letter}\n"),
            format!("${{1}}${{2}}={upper}\n"),
        ));
    }
    rules
}

/// The SAN of the move with entry `entry` among the legal moves `entries` (from
/// [`legal_entries`]), without the check suffix, in every active thread.
#[track_caller]
pub fn san_of(
    b: &mut Builder,
    entry: &Value<kind::Str>,
    entries: &Value<kind::List<kind::Str>>,
) -> Value<kind::Str> {
    let codes = b.grouped(|b| {
        let other = b.fork_list(entries, MAX_MOVES + 1);
        let code: Value<kind::Str> = on_stack(
            b,
            "san_conflict",
            &[entry.var(), other.var()],
            conflict_rules(),
            Type::Str,
        );
        b.gather(&code, MAX_MOVES + 1)
    });
    on_stack(
        b,
        "san_text",
        &[entry.var(), codes.var()],
        assemble_rules(),
        Type::Str,
    )
}

/// `name` with the check suffix of the move that led to the thread's position: `+` if
/// the side to move is in check with a legal move, `#` if it is mated.
#[track_caller]
pub fn with_check_suffix(
    b: &mut Builder,
    pos: &Position,
    name: &Value<kind::Str>,
) -> Value<kind::Str> {
    let check = in_check(b, pos);
    b.if_else(
        &check,
        |b| {
            let can_move = has_legal_move(b, pos);
            b.if_else(
                &can_move,
                |b| {
                    let plus = b.str("+");
                    b.concat(name, &plus)
                },
                |b| {
                    on_stack(
                        b,
                        "mate_suffix",
                        &[name.var()],
                        vec![(format!("{HEAD}([^\n]*)\n"), "${1}${2}#\n".into())],
                        Type::Str,
                    )
                },
            )
        },
        |_| name.clone(),
    )
}

/// The rules that turn the typed text on the stack into a query (see the module doc).
fn query_rules() -> Vec<(String, String)> {
    let promo = "=?([QRBNqrbn]?)";
    let mut rules = vec![
        (format!("{HEAD}([^\n]*?)[+?]+\n"), "${1}${2}\n".to_string()),
        (
            format!("{HEAD}[oO0]-[oO0]-[oO0]\n"),
            "${1}@Ke?c?{}?\n".into(),
        ),
        (format!("{HEAD}[oO0]-[oO0]\n"), "${1}@Ke?g?{}?\n".into()),
        (
            format!("{HEAD}([a-hA-H])([1-8])[-x:]?([a-hA-H])([1-8]){promo}\n"),
            "${1}@?${2}${3}${4}${5}{${6}}?\n".into(),
        ),
        (
            format!("{HEAD}([KQRBNkqrn])([a-h]?)([1-8]?)[-x:]?([a-h])([1-8])\n"),
            "${1}@${2}<${3}><${4}>${5}${6}-?\n".into(),
        ),
        (
            format!("{HEAD}([a-h])[x:]?([a-h])([1-8]){promo}\n"),
            "${1}@P${2}?${3}${4}{${5}}?\n".into(),
        ),
        (
            format!("{HEAD}([a-h])([1-8]){promo}\n"),
            "${1}@P${2}?${2}${3}{${4}}?\n".into(),
        ),
        (format!("{HEAD}(?:[^@\n][^\n]*)?\n"), "${1}X\n".into()),
    ];
    for _ in 0..2 {
        rules.push((format!("{HEAD}(@[^<\n]*)<>"), "${1}${2}?".into()));
        rules.push((format!("{HEAD}(@[^<\n]*)<(.)>"), "${1}${2}${3}".into()));
    }
    rules.push((format!("{HEAD}(@[^{{\n]*)\\{{\\}}"), "${1}${2}-".into()));
    rules.push((
        format!("{HEAD}(@[^{{\n]*)\\{{(.)\\}}"),
        "${1}${2}${3}".into(),
    ));
    for (upper, lower) in ('A'..='H').zip('a'..='h') {
        for at in [1, 3] {
            rules.push((
                format!("{HEAD}(@.{{{at}}}){upper}"),
                format!("${{1}}${{2}}{lower}"),
            ));
        }
    }
    for (upper, lower) in [('Q', 'q'), ('R', 'r'), ('B', 'b'), ('N', 'n')] {
        rules.push((
            format!("{HEAD}(@.{{5}}){upper}"),
            format!("${{1}}${{2}}{lower}"),
        ));
    }
    for (lower, upper) in [('k', 'K'), ('q', 'Q'), ('r', 'R'), ('n', 'N')] {
        rules.push((format!("{HEAD}@{lower}"), format!("${{1}}@{upper}")));
    }
    rules.push((format!("{HEAD}@"), "${1}".into()));
    rules
}

/// The query of the typed text (see the module doc): 7 characters, or `X`.
#[track_caller]
pub fn query(b: &mut Builder, typed: &Value<kind::Str>) -> Value<kind::Str> {
    on_stack(b, "san_query", &[typed.var()], query_rules(), Type::Str)
}

/// Whether the entry on top of the stack matches the query below it.
fn match_rules() -> Vec<(String, String)> {
    let one = "(.)".repeat(7);
    let mut interleaved = String::from("${1}!");
    for i in 0..7 {
        interleaved.push_str(&format!("${{{}}}${{{}}}", 9 + i, 2 + i));
    }
    interleaved.push('\n');
    let any = "\\?.";
    let piece = format!("(?:{any}|{})", pairs("PNBRQK"));
    let files = format!("(?:{any}|{})", pairs("abcdefgh"));
    let ranks = format!("(?:{any}|{})", pairs("12345678"));
    let promo = format!("(?:{any}|--|-q|qq|rr|bb|nn)");
    vec![
        // A query that is not 7 characters (`X`) matches nothing.
        (
            format!("{HEAD}[^\n]{{7}}\n(?:[^\n]{{0,6}}|[^\n]{{8,}})\n"),
            "${1}F\n".into(),
        ),
        (format!("{HEAD}{one}\n{one}\n"), interleaved),
        (
            format!("{HEAD}!{piece}{files}{ranks}{files}{ranks}{promo}{any}\n"),
            "${1}T\n".into(),
        ),
        (format!("{HEAD}![^\n]*\n"), "${1}F\n".into()),
    ]
}

/// What the typed `query` finds among `entries` (from [`legal_entries`]), in the single
/// thread: the list of [`DUMMY`] and the matching entries.
#[track_caller]
pub fn matching(
    b: &mut Builder,
    query: &Value<kind::Str>,
    entries: &Value<kind::List<kind::Str>>,
) -> Value<kind::List<kind::Str>> {
    b.grouped(|b| {
        let entry = b.fork_list(entries, MAX_MOVES + 1);
        let hit: Value<kind::Bool> = on_stack(
            b,
            "san_match",
            &[query.var(), entry.var()],
            match_rules(),
            Type::Bool,
        );
        let dummy = b.eq_text(&entry, DUMMY);
        let keep = b.or(&hit, &dummy);
        let drop = b.not(&keep);
        b.when(&drop, |b| b.destroy());
        b.gather(&entry, MAX_MOVES + 1)
    })
}

/// How many moves a [`matching`] list holds: `0`, `1` or `2` (two or more).
#[track_caller]
pub fn hit_count(b: &mut Builder, hits: &Value<kind::List<kind::Str>>) -> Value<kind::Str> {
    on_stack(
        b,
        "hit_count",
        &[hits.var()],
        vec![
            (format!("{HEAD};-------\n"), "${1}0\n".into()),
            (format!("{HEAD};-------;[^;\n]*\n"), "${1}1\n".into()),
            (format!("{HEAD};-------;[^\n]*\n"), "${1}2\n".into()),
        ],
        Type::Str,
    )
}

/// The one move of a [`matching`] list with one move: its entry.
#[track_caller]
pub fn single(b: &mut Builder, hits: &Value<kind::List<kind::Str>>) -> Value<kind::Str> {
    on_stack(
        b,
        "single_hit",
        &[hits.var()],
        vec![(format!("{HEAD};-------;([^;\n]*)\n"), "${1}${2}\n".into())],
        Type::Str,
    )
}

/// The UCI text of an entry (`Pe7e8q-` is `e7e8q`).
#[track_caller]
pub fn uci_of(b: &mut Builder, entry: &Value<kind::Str>) -> Value<kind::Str> {
    on_stack(
        b,
        "entry_uci",
        &[entry.var()],
        vec![
            (format!("{HEAD}.(....)-.\n"), "${1}${2}\n".into()),
            (format!("{HEAD}.(....)(.).\n"), "${1}${2}${3}\n".into()),
        ],
        Type::Str,
    )
}

/// The SANs of the moves of a [`matching`] list, joined by `, `.
#[track_caller]
pub fn candidates(
    b: &mut Builder,
    hits: &Value<kind::List<kind::Str>>,
    entries: &Value<kind::List<kind::Str>>,
) -> Value<kind::Str> {
    let sans = b.grouped(|b| {
        let hit = b.fork_list(hits, MAX_MOVES + 1);
        let dummy = b.eq_text(&hit, DUMMY);
        b.when(&dummy, |b| b.destroy());
        let san = san_of(b, &hit, entries);
        b.gather(&san, MAX_MOVES + 1)
    });
    // `;a;b;c` becomes `a, b, c` (up to 16 candidates: 8 knights and 2 others).
    let mut rules = vec![(format!("{HEAD};"), "${1}".to_string())];
    for _ in 0..16 {
        rules.push((format!("{HEAD}([^\n;]*);"), "${1}${2}, ".to_string()));
    }
    on_stack(b, "candidate_list", &[sans.var()], rules, Type::Str)
}

/// The entry of the legal move `uci` among `entries`.
#[track_caller]
pub fn entry_for_uci(
    b: &mut Builder,
    uci: &Value<kind::Str>,
    entries: &Value<kind::List<kind::Str>>,
) -> Value<kind::Str> {
    let q: Value<kind::Str> = on_stack(
        b,
        "uci_query",
        &[uci.var()],
        vec![
            (format!("{HEAD}(....)\n"), "${1}?${2}-?\n".into()),
            (format!("{HEAD}(.....)\n"), "${1}?${2}?\n".into()),
        ],
        Type::Str,
    );
    let hits = matching(b, &q, entries);
    single(b, &hits)
}
