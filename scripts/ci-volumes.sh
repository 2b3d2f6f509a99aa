#!/usr/bin/env bash
# The release-mode share of the test volumes that CI runs after `cargo test`: every
# property of tests/equivalence.rs with its full count of cases (four times plain
# `cargo test`'s), then the `#[ignore]`d volumes of the chess and export tests through
# scripts/verify-full.sh. Left out, for `scripts/verify-full.sh` alone: tests/uci.rs's perft
# through the binary, and the volumes of two_cores, chess_perft (perft(4) of every
# position; position 3 runs in `cargo test`) and chess_game_end.
set -euo pipefail
cd "$(dirname "$0")/.."

# The properties at their full count, from a seed new to this run (plain `cargo test`
# runs their fixed seeds): the test prints it, and docs/fuzzing.md says how to replay a
# failure.
seed=$(date +%s%N)
echo "== equivalence, full count of cases, release, REGEX_CHESS_SEED=$seed"
REGEX_CHESS_SEED=$seed REGEX_CHESS_VOLUME=full cargo test --release --test equivalence
echo "== the wider equivalence properties, a quarter of their cases, REGEX_CHESS_SEED=$seed"
REGEX_CHESS_SEED=$seed cargo test --release --test equivalence_wide

echo "== the ignored volumes, release"
scripts/verify-full.sh chess_core chess_legal chess_play chess_san chess_search chess_variants \
  exports next_positions
