#!/usr/bin/env bash
# End-to-end test of the browser page (callable from .ci/run): installs Chromium,
# ChromeDriver, playwright-core and chess.js if missing (scripts/ci-deps.sh), writes the
# site (every search variant's `play` program), serves it on localhost, plays in headless Chromium on a
# phone-sized screen (e2e/browser.mjs; chess.js judges the moves) and saves a screenshot
# of the page to target/e2e/page.png and the engine's reply times per variant to
# target/e2e/times.json. It fails, rather than testing something else, when a `play`
# program cannot be compiled or a tool is missing.
#
# E2E_PROFILE=release builds the binary with --release; E2E_SCREENSHOT=PATH writes the
# screenshot elsewhere: `E2E_SCREENSHOT=docs/page.png e2e/run.sh` refreshes the README's.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT="$ROOT/target/e2e"
SCREENSHOT=${E2E_SCREENSHOT:-$OUT/page.png}
rm -rf "$OUT"
mkdir -p "$OUT" "$(dirname "$SCREENSHOT")"

echo "== e2e: dependencies"
scripts/ci-deps.sh

echo "== e2e: build"
PROFILE=${E2E_PROFILE:-debug}
if [ "$PROFILE" = release ]; then cargo build --release; else cargo build; fi
BIN="$ROOT/target/$PROFILE/regex-chess"

echo "== e2e: the site of the play programs (one a search variant)"
"$BIN" site -o "$OUT/site"

echo "== e2e: serve and play"
"$BIN" serve --port 0 --dir "$OUT/site" >"$OUT/serve.log" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  grep -q "http://" "$OUT/serve.log" && break
  sleep 0.1
done
URL=$(grep -o 'http://[^ ]*' "$OUT/serve.log")
echo "serving on $URL"
node e2e/browser.mjs "$URL" "$OUT" "$BIN" "$OUT/site" "$SCREENSHOT"
