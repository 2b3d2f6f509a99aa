//! Pattern fragments shared by the chess rules.
//!
//! Every chess rule is thread-local unless it says otherwise: it starts with [`HEAD`]
//! (an active thread) and reaches a variable by skipping whole lines with [`LINES`], so it
//! never leaves its thread. The position variables come in a fixed order (see
//! [`super::board`]), so one pattern can read the board, then the castling rights, then
//! the en-passant square.

/// An active thread's head.
pub const HEAD: &str = "%%\n#stack:\n";
/// Any number of whole lines of the same thread.
pub const LINES: &str = "(?:[^%\n]*\n)*";
/// Any characters of the current line.
pub const LINE: &str = "[^\n]*";

/// `#name: ` reached from the head of the thread or from the end of a line (with the
/// lines in between).
pub fn var(name: &str) -> String {
    format!("{LINES}#{name}: ")
}

/// One rule that replaces each active thread by a line printed from the variables
/// `vars` (given in the order the thread holds them): `template` reads their values as
/// `${1}`, `${2}`, … (see [`thread_values`]).
#[track_caller]
pub fn print_threads(
    b: &mut regex_chess_compiler::dsl::Builder,
    name: &str,
    vars: &[&regex_chess_compiler::ir::Var],
    template: &str,
) {
    let names: Vec<&str> = vars.iter().map(|v| v.name()).collect();
    let rule = (thread_values(&names), template.to_string());
    b.rules(name, vec![rule], vars, &[]);
}

/// A whole active thread, capturing the values of the variables `names` (given in the
/// order the thread holds them) as `${1}`, `${2}`, …: the pattern of a rule that
/// replaces each thread by a line printed from its variables.
pub fn thread_values(names: &[&str]) -> String {
    let mut pattern = HEAD.to_string();
    for name in names {
        pattern.push_str(&format!("{LINES}#{name}: ([^\n]*)\n"));
    }
    pattern.push_str("[^%]*");
    pattern
}

/// `[^\n]{n}` (empty for 0).
pub fn any(n: usize) -> String {
    match n {
        0 => String::new(),
        1 => "[^\n]".to_string(),
        _ => format!("[^\n]{{{n}}}"),
    }
}

/// `[^\n]{lo,hi}`.
pub fn any_range(lo: usize, hi: usize) -> String {
    format!("[^\n]{{{lo},{hi}}}")
}

/// The characters between two squares `k` steps of `step` apart (`step > 0`), every
/// square strictly between them empty. Written out as a plain sequence (no repeated
/// group), which the fast executor resolves without a backtracking engine.
pub fn ray_between(step: usize, k: usize) -> String {
    let gap = any(step - 1);
    match k {
        1 => gap,
        _ if step == 1 => format!("\\.{{{}}}", k - 1),
        _ => format!("{}{gap}", format!("{gap}\\.").repeat(k - 1)),
    }
}

/// The characters between two squares any positive number of steps of `step` apart,
/// every square between them empty.
pub fn ray_any(step: usize) -> String {
    ray_over(step, "\\.")
}

/// Like [`ray_any`], with the squares between of class `empty` (such as `[.*]`, where
/// `*` marks the square a moving piece just left).
pub fn ray_over(step: usize, empty: &str) -> String {
    if step == 1 {
        format!("{empty}*")
    } else {
        let gap = any(step - 1);
        format!("(?:{gap}{empty})*{gap}")
    }
}

/// A rule that deletes every active thread whose board matches `board` somewhere.
pub fn delete_if_board(board: &str) -> (String, String) {
    (
        format!("{HEAD}{}{LINE}(?:{board})[^%]*", var("b")),
        String::new(),
    )
}

/// Rules that add one to the decimal variable `name` in every active thread whose value
/// ends in the mark `+` (the mark is consumed). Numbers up to 5 digits of trailing 9s
/// carry correctly.
pub fn increment_marked(name: &str) -> Vec<(String, String)> {
    let at = format!("({HEAD}{}[0-9]*)", var(name));
    let mut rules = Vec::new();
    for _ in 0..5 {
        rules.push((format!("{at}9\\+"), "${1}+0".to_string()));
    }
    for d in 0..=8 {
        rules.push((format!("{at}{d}\\+"), format!("${{1}}{}", d + 1)));
    }
    rules.push((format!("({HEAD}{})\\+", var(name)), "${1}1".to_string()));
    rules
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragments() {
        assert_eq!(ray_between(10, 1), "[^\n]{9}");
        assert_eq!(ray_between(10, 3), "[^\n]{9}\\.[^\n]{9}\\.[^\n]{9}");
        assert_eq!(ray_between(1, 3), "\\.{2}");
        assert_eq!(ray_between(1, 1), "");
        assert!(
            delete_if_board("K")
                .0
                .starts_with("%%\n#stack:\n(?:[^%\n]*\n)*#b: ")
        );
    }
}
