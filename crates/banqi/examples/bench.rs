//! `cargo run --release -p regex-chess-banqi --example bench [NODES]`: the bench alone.
fn main() {
    let nodes = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let _ = regex_chess_banqi::bench::run(nodes, &mut std::io::stdout());
}
