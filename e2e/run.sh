#!/usr/bin/env bash
# End-to-end test of the browser page (callable from .ci/run): installs Chromium,
# ChromeDriver, playwright-core and chess.js if missing (scripts/ci-deps.sh), writes the
# site with both engines (scripts/site.sh: the fast executor built for WebAssembly, and
# every search variant's `play` program), serves it on localhost, plays in headless
# Chromium on a phone-sized screen with each engine (e2e/browser.mjs; chess.js judges
# the moves, the engines' games must match state for state) and saves screenshots of the
# page to target/e2e/page.png and target/e2e/phone-thinking.png and the engine's reply
# times per variant and engine to target/e2e/times.json. A second site beside it
# (`site --file`, served at growth/) holds a program that doubles its state forty times;
# the page must stop it at the state limit and show the error. It fails, rather than testing
# something else, when a `play` program or the module cannot be built or a tool is
# missing.
#
# E2E_PROFILE=release builds the binary with --release; E2E_SCREENSHOT=PATH and
# E2E_PHONE_SCREENSHOT=PATH write the screenshots elsewhere:
# `E2E_SCREENSHOT=docs/page.png E2E_PHONE_SCREENSHOT=docs/page-phone.png e2e/run.sh`
# refreshes the README's. E2E_BENCH=N times the engines on the bench positions.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT="$ROOT/target/e2e"
SCREENSHOT=${E2E_SCREENSHOT:-$OUT/page.png}
PHONE_SCREENSHOT=${E2E_PHONE_SCREENSHOT:-$OUT/phone-thinking.png}
rm -rf "$OUT"
mkdir -p "$OUT" "$(dirname "$SCREENSHOT")" "$(dirname "$PHONE_SCREENSHOT")"

echo "== e2e: dependencies"
scripts/ci-deps.sh

echo "== e2e: build and write the site (both engines; every search variant's play program)"
PROFILE=${E2E_PROFILE:-debug}
SITE_PROFILE=$PROFILE scripts/site.sh "$OUT/site"
BIN="$ROOT/target/$PROFILE/regex-chess"
# The user's program that grows without bound: `(.+)` -> `$1$1`, forty times.
{
  printf '['
  for i in $(seq 40); do
    [ "$i" = 1 ] || printf ', '
    printf '["(.+)", "$1$1"]'
  done
  printf ']\n'
} >"$OUT/growth.json"
printf 'ab\nYour move: ' >"$OUT/growth.start"
SITE_PROFILE=$PROFILE scripts/site.sh "$OUT/site/growth" --file "$OUT/growth.json" \
  --start "$OUT/growth.start"

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
node e2e/browser.mjs "$URL" "$OUT" "$BIN" "$OUT/site" "$SCREENSHOT" "$PHONE_SCREENSHOT"
