//! regex-chess-arena: what measuring any game's engine needs and no game knows: the Elo
//! difference a match score implies with its interval ([`elo`]), the sequential
//! probability ratio test that stops a match once it decides ([`sprt`]), results files of
//! one JSON object a line ([`json_lines`]) and the seeded generator every schedule and
//! random player draws from ([`rng`]).
//!
//! Both games' matches (chess in `regex-chess-engine`, Banqi in `regex-chess-banqi`)
//! report through these, so a score means the same thing in either.

pub mod elo;
pub mod json_lines;
pub mod rng;
pub mod sprt;
