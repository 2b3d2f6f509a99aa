#!/usr/bin/env bash
# Installs what the cross-engine export tests (tests/exports.rs) and the browser test
# (e2e/run.sh) need, when it is missing: CPython, Node.js and npm, Debian's Chromium and
# ChromeDriver, and playwright-core and chess.js (npm, into e2e/node_modules; playwright-core drives
# /usr/bin/chromium and downloads no browser). Safe to run twice.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
if [ ${#missing[@]} -gt 0 ]; then
  echo "ci-deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update
  $SUDO apt-get install -y "${missing[@]}"
fi
if [ ! -d e2e/node_modules/playwright-core ] || [ ! -d e2e/node_modules/chess.js ]; then
  echo "ci-deps: installing playwright-core and chess.js"
  (cd e2e && npm install --no-audit --no-fund)
fi
python3 --version
node --version
/usr/bin/chromium --version 2>/dev/null
