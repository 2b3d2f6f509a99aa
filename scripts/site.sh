#!/usr/bin/env bash
# Writes the site that plays in the browser with both engines: builds the fast executor
# for WebAssembly (the `regex-chess-wasm` crate, crates/wasm; the wasm32-unknown-unknown
# target is installed with rustup when missing), builds the command line, and runs
# `regex-chess site --wasm` with the module and any other `site` options given.
#
#   scripts/site.sh DIR [--search NAME] [--fen FEN] ...   # then: regex-chess serve --dir DIR
#
# SITE_PROFILE=debug builds the command line without optimisations (the module is always
# optimised: the `wasm` profile of Cargo.toml). The module uses WebAssembly SIMD (every
# current browser has it).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/site.sh DIR [regex-chess site options]}
shift

TARGET=wasm32-unknown-unknown
if ! rustup target list --installed | grep -qx "$TARGET"; then
  rustup target add "$TARGET"
fi
# SIMD for memchr's searches, which the executor leans on.
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128" \
  cargo build --quiet -p regex-chess-wasm --target "$TARGET" --profile wasm
WASM="target/$TARGET/wasm/regex_chess_wasm.wasm"

PROFILE=${SITE_PROFILE:-release}
if [ "$PROFILE" = release ]; then cargo build --quiet --release; else cargo build --quiet; fi
BIN="target/$PROFILE/regex-chess"

"$BIN" site -o "$out" --wasm "$WASM" "$@"
