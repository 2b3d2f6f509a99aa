//! The compiled searches the engine can play with, from the cheapest to the strongest.
//!
//! Each [`Variant`] names a registered program whose contract is the `move` program's
//! (see [`crate::chess`]): a FEN in, the move, the FEN after it and the status out. The
//! UCI time management chooses among them per move.

/// A search the engine can play with.
pub struct Variant {
    /// The name the time management and the command line use.
    pub name: &'static str,
    /// The registered program that runs it.
    pub program: &'static str,
    /// The search depth in plies.
    pub depth: u32,
    /// Whether the leaves are settled by a capture search.
    pub quiescence: bool,
    /// One line about it.
    pub summary: &'static str,
}

/// Every variant.
pub const VARIANTS: &[Variant] = &[Variant {
    name: "2ply",
    program: "move",
    depth: 2,
    quiescence: false,
    summary: "2-ply minimax over legal moves, material and piece-square tables",
}];

/// The variant called `name`.
pub fn find(name: &str) -> Option<&'static Variant> {
    VARIANTS.iter().find(|v| v.name == name)
}

/// The variant `move` and `play` use when nothing else is asked.
pub fn default_play() -> &'static Variant {
    &VARIANTS[0]
}
