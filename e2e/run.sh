#!/usr/bin/env bash
# End-to-end test of the browser page (callable from .ci/run): installs Chromium,
# ChromeDriver and playwright-core if missing (scripts/ci-deps.sh), writes the site,
# serves it on localhost, plays two moves in headless Chromium (e2e/browser.mjs) and
# leaves a screenshot in target/e2e/screenshot.png.
#
# E2E_PROGRAM=play|toy chooses the program (default: play when it is registered, else the
# toy of e2e/toy_play.py); E2E_PROFILE=release builds the binary with --release.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT="$ROOT/target/e2e"
rm -rf "$OUT"
mkdir -p "$OUT"

echo "== e2e: dependencies"
scripts/ci-deps.sh

echo "== e2e: build"
PROFILE=${E2E_PROFILE:-debug}
if [ "$PROFILE" = release ]; then cargo build --release; else cargo build; fi
BIN="$ROOT/target/$PROFILE/regex-chess"

MODE=${E2E_PROGRAM:-}
if [ -z "$MODE" ]; then
  if "$BIN" compile --program play --stats >/dev/null 2>&1; then MODE=play; else MODE=toy; fi
fi
echo "== e2e: the site, with the $MODE program"
if [ "$MODE" = play ]; then
  "$BIN" compile --program play -o "$OUT/program.json"
  "$BIN" site --file "$OUT/program.json" -o "$OUT/site"
else
  python3 e2e/toy_play.py "$OUT"
  cp "$OUT/toy-play.json" "$OUT/program.json"
  "$BIN" site --file "$OUT/program.json" --start "$OUT/toy-play.state" -o "$OUT/site"
fi

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
node e2e/browser.mjs "$URL" "$OUT" "$MODE" "$BIN" "$OUT/program.json"
