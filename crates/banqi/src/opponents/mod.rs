//! The fixed opponents, of other families than the engine and sharing nothing with its
//! evaluation: a random mover, a greedy player (the best immediate capture, else a flip)
//! and a Monte-Carlo tree search with random playouts ([`mcts`]). They are frozen: a test
//! pins their moves on fixed seeds, so a change to them shows.

pub mod greedy;
pub mod mcts;
pub mod random;

pub use greedy::Greedy;
pub use mcts::Mcts;
pub use random::RandomMover;
