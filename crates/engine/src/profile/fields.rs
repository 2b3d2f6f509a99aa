//! What a state's bytes are made of, field by field: the markers that open threads, their
//! stacks, their variables (compiler registers `#_N` apart from named variables), group
//! boundaries and any text before the first thread.
//!
//! Contract: [`split`] reads a state line by line, as the machine's grammar has it (a
//! thread opens with a `%%` or `%tag` line, then `#stack:`, stack values one a line, then
//! `#name: value` lines; `%/N` lines are group boundaries) and gives every byte, newlines
//! included, to exactly one [`Field`]: the fields add up to the state's length, and a
//! thread's fields to the thread's bytes. It does not check the grammar: a line it cannot
//! place is counted as `text` and the split still adds up. Used at the widest point of a
//! run, it says which fields a leaner state should shrink.

use std::collections::HashMap;

/// What kind of bytes a field holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A thread's first line: `%%` (active) or `%tag` (paused).
    Marker,
    /// The `#stack:` line and the stack's values.
    Stack,
    /// A compiler register: `#_N: value`.
    Register,
    /// A named variable: `#name: value`.
    Variable,
    /// A group boundary line `%/N`.
    Boundary,
    /// Any other line (text before the first thread, or out of the grammar).
    Text,
}

impl Kind {
    /// A short name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Marker => "marker",
            Kind::Stack => "stack",
            Kind::Register => "register",
            Kind::Variable => "variable",
            Kind::Boundary => "boundary",
            Kind::Text => "text",
        }
    }
}

/// One field's bytes over a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Its kind.
    pub kind: Kind,
    /// The variable's name for registers and variables; else the kind's name.
    pub name: String,
    /// Bytes over the state, each line's newline included.
    pub bytes: usize,
    /// Lines of this field (for a variable: the threads holding it).
    pub lines: usize,
}

/// A state's bytes by field.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Split {
    /// The state's length.
    pub total: usize,
    /// Threads (marker lines).
    pub threads: usize,
    /// Of those, active (`%%`).
    pub active: usize,
    /// The fields, most bytes first.
    pub fields: Vec<Field>,
}

/// Splits `state` into its fields (see the module's contract).
pub fn split(state: &str) -> Split {
    let mut fields: HashMap<(Kind, &str), (usize, usize)> = HashMap::new();
    let (mut threads, mut active) = (0, 0);
    let mut in_stack = false;
    for line in state.split_inclusive('\n') {
        let text = line.strip_suffix('\n').unwrap_or(line);
        let key = if text.starts_with("%/") {
            in_stack = false;
            (Kind::Boundary, "boundary")
        } else if text.starts_with('%') {
            threads += 1;
            active += usize::from(text == "%%");
            in_stack = false;
            (Kind::Marker, "marker")
        } else if text == "#stack:" {
            in_stack = true;
            (Kind::Stack, "stack")
        } else if let Some((name, _)) = text.strip_prefix('#').and_then(|v| v.split_once(": ")) {
            in_stack = false;
            match name.starts_with('_') {
                true => (Kind::Register, name),
                false => (Kind::Variable, name),
            }
        } else if in_stack {
            (Kind::Stack, "stack")
        } else {
            (Kind::Text, "text")
        };
        let entry = fields.entry(key).or_default();
        entry.0 += line.len();
        entry.1 += 1;
    }
    let mut fields: Vec<Field> = fields
        .into_iter()
        .map(|((kind, name), (bytes, lines))| Field {
            kind,
            name: name.to_string(),
            bytes,
            lines,
        })
        .collect();
    fields.sort_by(|a, b| {
        b.bytes
            .cmp(&a.bytes)
            .then(a.kind.cmp(&b.kind))
            .then(a.name.cmp(&b.name))
    });
    Split {
        total: state.len(),
        threads,
        active,
        fields,
    }
}

impl Split {
    /// The bytes of each kind, most first.
    pub fn by_kind(&self) -> Vec<(Kind, usize)> {
        let mut kinds: HashMap<Kind, usize> = HashMap::new();
        for field in &self.fields {
            *kinds.entry(field.kind).or_default() += field.bytes;
        }
        let mut kinds: Vec<(Kind, usize)> = kinds.into_iter().collect();
        kinds.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        kinds
    }

    /// A table: the kinds, then the `top` fields, in bytes and bytes a thread.
    pub fn render(&self, top: usize) -> String {
        let per = |bytes: usize| bytes as f64 / self.threads.max(1) as f64;
        let mut out = format!(
            "widest state: {} B, {} threads ({} active), {:.1} B a thread\n\
             {:>10} {:>7} {:>10}  field\n",
            self.total,
            self.threads,
            self.active,
            per(self.total),
            "bytes",
            "%",
            "B/thread"
        );
        let share = |bytes: usize| 100.0 * bytes as f64 / self.total.max(1) as f64;
        for (kind, bytes) in self.by_kind() {
            out.push_str(&format!(
                "{bytes:>10} {:>6.1}% {:>10.1}  all {}s\n",
                share(bytes),
                per(bytes),
                kind.name()
            ));
        }
        for field in self.fields.iter().take(top) {
            let name = match field.kind {
                Kind::Register | Kind::Variable => format!("#{} ({})", field.name, field.lines),
                _ => field.name.clone(),
            };
            out.push_str(&format!(
                "{:>10} {:>6.1}% {:>10.1}  {name}\n",
                field.bytes,
                share(field.bytes),
                per(field.bytes)
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_chess_compiler::encode::{self, Thread};

    #[test]
    fn fields_add_up_to_the_state_and_each_thread() {
        let a = Thread::active(&["1010", ";e2;e4"], &[("board", "rnbq"), ("_7", "0110")]);
        let b = Thread::active(&[], &[("board", "kk"), ("turn", "w")]).paused("p1");
        let threads = [a.clone(), b];
        let mut state = String::from("engine: black\n");
        state.push_str(&encode::render(&threads));
        state.push_str("%/1\n");
        let s = split(&state);
        assert_eq!(s.fields.iter().map(|f| f.bytes).sum::<usize>(), state.len());
        assert_eq!((s.threads, s.active), (2, 1));
        let field = |name: &str| s.fields.iter().find(|f| f.name == name).unwrap().clone();
        // `#board: rnbq\n` and `#board: kk\n`.
        assert_eq!((field("board").bytes, field("board").lines), (13 + 11, 2));
        assert_eq!(field("_7").kind, Kind::Register);
        // `#stack:\n` twice, then the two values.
        assert_eq!(field("stack").bytes, 8 + 8 + 5 + 7);
        assert_eq!(field("marker").bytes, 3 + 4);
        assert_eq!((field("boundary").bytes, field("text").bytes), (4, 14));
        // One thread alone: its fields are its bytes.
        let mut one = String::new();
        a.render_into(&mut one);
        let alone = split(&one);
        assert_eq!(
            alone.by_kind().iter().map(|k| k.1).sum::<usize>(),
            one.len()
        );
        assert!(alone.render(3).contains("#board (1)"));
        // A state without a final newline still adds up.
        assert_eq!(split("%%\n#stack:\n#x: 1").total, 16);
        let tail = split("%%\n#stack:\n#x: 1");
        assert_eq!(tail.fields.iter().map(|f| f.bytes).sum::<usize>(), 16);
    }
}
