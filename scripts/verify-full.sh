#!/usr/bin/env bash
# Runs every `#[ignore]`d volume test in release mode, one test file at a time, and
# prints a summary fit for docs/verification.md (the commit, the start and end times,
# and each file's result line). Exits non-zero when any volume fails. A test file is
# named by its test binary and module, as it lies under tests/: `chess/play` is
# tests/chess/play.rs, run as `cargo test --test chess -- --ignored play::`.
#
#   scripts/verify-full.sh            # every volume
#   scripts/verify-full.sh chess/play # only the volumes of these test files
#   scripts/verify-full.sh --quiet    # without the progress lines
#   VERIFY_SKIP="_full other" scripts/verify-full.sh chess/variants
#                                     # without the tests whose names hold a word of
#                                     # VERIFY_SKIP (libtest's --skip, each word)
#
# While it runs, plain progress lines on standard error say which file runs and how each
# ended (`verify-full: [3/9] chess/play ...`, then `verify-full: [3/9] chess/play ok in
# 412 s (2 passed; ...), 1630 s in all`); `--quiet` leaves them out. Standard output holds
# the summary (and the panics of a file that failed).
#
# The volumes need python3 and node for the export tests (REGEX_CHESS_REQUIRE_ENGINES=1
# makes their absence a failure). On the project machine the whole run takes hours;
# prefix it with `nice -n 10` there.
set -uo pipefail
cd "$(dirname "$0")/.."

quiet=
if [ "${1:-}" = --quiet ] || [ "${1:-}" = -q ]; then
  quiet=1
  shift
fi
# A progress line on standard error, unless --quiet.
progress() {
  [ -n "$quiet" ] || echo "verify-full: $*" >&2
}

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  # Every test file that holds an ignored volume: not the strength screen (its ignore
  # reason starts "a screen"), which plays a match against Stockfish and judges nothing.
  mapfile -t files < <(grep -lE '#\[ignore = "(full volume|volume|minutes)' tests/*/*.rs |
    sed 's#^tests/##; s/\.rs$//' | sort)
fi
export REGEX_CHESS_REQUIRE_ENGINES=1

commit=$(git rev-parse --short HEAD)
dirty=$(git status --porcelain --untracked-files=no | head -1)
echo "verify-full: commit ${commit}${dirty:+ (with uncommitted changes)}, started $(date -u '+%Y-%m-%d %H:%M UTC')"
progress "building ${#files[@]} test files in release mode ..."
binaries=$(printf '%s\n' "${files[@]}" | cut -d/ -f1 | sort -u)
cargo test --release --no-run --quiet $(printf -- '--test %s ' $binaries) || exit 1
progress "built in ${SECONDS} s"

skips=()
for word in ${VERIFY_SKIP:-}; do
  skips+=(--skip "$word")
done
[ ${#skips[@]} -eq 0 ] || echo "verify-full: skipping the tests named with: ${VERIFY_SKIP}"

failed=0
summary=()
index=0
for file in "${files[@]}"; do
  index=$((index + 1))
  progress "[${index}/${#files[@]}] ${file} ..."
  start=$SECONDS
  log=$(mktemp)
  if cargo test --release --quiet --test "${file%%/*}" -- --ignored --test-threads=1 \
    "${file#*/}::" ${skips[@]+"${skips[@]}"} >"$log" 2>&1; then
    status=ok
  else
    status=FAILED
    failed=1
  fi
  result=$(grep -E '^test result:' "$log" | tail -1)
  summary+=("| ${file} | ${status} | $((SECONDS - start)) s | ${result#test result: } |")
  said=${result#test result: }
  progress "[${index}/${#files[@]}] ${file} ${status} in $((SECONDS - start)) s (${said:-no test result}), ${SECONDS} s in all"
  if [ "$status" = FAILED ]; then
    grep -E 'panicked|FAILED|failures:' "$log" | head -20
  fi
  rm -f "$log"
done

echo "verify-full: ended $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "| test file | status | time | result |"
echo "|---|---|---|---|"
printf '%s\n' "${summary[@]}"
exit $failed
