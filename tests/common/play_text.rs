//! Reading the `play` program's board text in tests: its labelled lines and its message.

/// The line after `label` in the text.
pub fn field<'a>(text: &'a str, label: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.strip_prefix(label))
        .unwrap_or_else(|| panic!("no `{label}` line in\n{text}"))
}

/// The message line (the one before the prompt).
pub fn message(text: &str) -> &str {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len() - 2]
}
