#!/usr/bin/env bash
# Installs what the tests need from outside, when it is missing: CPython and python-chess
# (PyPI `chess`, else Debian's python3-chess: the UCI client test and the export
# checkers), Node.js and npm (the JavaScript export), Stockfish and polyglot (match and
# UCI tests), fairymax and phalanx (the xboard opponents' tests), Debian's Chromium and ChromeDriver, and playwright-core and chess.js (npm,
# into e2e/node_modules; playwright-core drives /usr/bin/chromium and downloads no
# browser, chess.js judges the page's moves). Fails when any
# of them cannot be installed. Safe to run twice.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
missing=()
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
[ -x /usr/games/stockfish ] || missing+=(stockfish)
command -v polyglot >/dev/null 2>&1 || [ -x /usr/games/polyglot ] || missing+=(polyglot)
[ -x /usr/games/fairymax ] || missing+=(fairymax)
[ -x /usr/games/phalanx ] || missing+=(phalanx)
if [ ${#missing[@]} -gt 0 ]; then
  echo "ci-deps: installing ${missing[*]}"
  $SUDO apt-get update
  $SUDO apt-get install -y "${missing[@]}"
fi
if [ ! -d e2e/node_modules/playwright-core ] || [ ! -d e2e/node_modules/chess.js ]; then
  echo "ci-deps: installing playwright-core and chess.js"
  (cd e2e && npm install --no-audit --no-fund)
fi
if ! python3 -c "import chess" >/dev/null 2>&1; then
  echo "ci-deps: installing python-chess"
  python3 -m pip install --quiet chess ||
    python3 -m pip install --quiet --break-system-packages chess ||
    { $SUDO apt-get update && $SUDO apt-get install -y python3-chess; }
fi
python3 --version
python3 -c "import chess; print('python-chess', chess.__version__)"
node --version
/usr/bin/chromium --version 2>/dev/null
test -x /usr/games/stockfish && echo "stockfish: /usr/games/stockfish"
test -x /usr/games/fairymax && echo "fairymax: /usr/games/fairymax"
test -x /usr/games/phalanx && echo "phalanx: /usr/games/phalanx"
