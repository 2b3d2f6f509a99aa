#!/usr/bin/env bash
# The release-mode share of the test volumes that CI (.ci/run) runs after `cargo test`:
#
# 1. a quarter of the cases of tests/machine/equivalence_wide.rs from a seed new to the
#    run: the wider properties `cargo test` judged from fixed seeds, on new cases (the
#    properties of tests/machine/equivalence.rs run in `cargo test` from their fixed
#    seeds; `REGEX_CHESS_VOLUME=half` or `full` runs more of them, docs/fuzzing.md);
# 2. the `#[ignore]`d volumes of the chess test files below, through
#    scripts/verify-full.sh (chess/play's and chess/variants' judge every search variant);
# 3. engine/uci_volumes: fast games through the UCI binary with busy loops beside it
#    (none lost on time) and 200 games in one UCI process (its memory holds).
#
# Left out, for `scripts/verify-full.sh` alone (CI's 45 minutes): the `#[ignore]`d tests
# named `..._other_searches...` of chess/multipv, chess/game_end, machine/two_cores and
# engine/uci (the search variants `cargo test`'s shares leave out: they judge the
# strongest of each family, `volume::searches_per_family`; about 5 minutes on 2 cores:
# `cargo test --release --test chess --test machine --test engine -- --ignored multipv::
# game_end::the_other_searches two_cores::the_other_searches
# uci::uci_search_fixes_the_other_searches`), chess/san's SAN of every move of the suites
# on both executors and machine/exports' exports of every chess program (their shares run
# in `cargo test`), tests/engine/uci.rs's perft through the
# binary, the `..._full` volumes of chess/variants, the larger volumes of
# machine/two_cores, chess/multipv, chess/perft (perft(4)
# of every position; position 3 runs in `cargo test`) and chess/game_end (forty
# placements a class with every variant).
set -euo pipefail
cd "$(dirname "$0")/.."

# The wider properties from a seed new to this run (plain `cargo test` runs their fixed
# seeds): it is printed, and docs/fuzzing.md says how to replay a failure. The properties
# of equivalence.rs keep their fixed seeds: some of their generators (states up to 4 MB
# cut into 1-byte rope pieces) can run for many minutes on a seed nobody has timed.
seed=$(date +%s%N)
echo "== the wider equivalence properties, a quarter of their cases, REGEX_CHESS_SEED=$seed"
REGEX_CHESS_SEED=$seed cargo test --release --test machine equivalence_wide::

echo "== the ignored volumes, release"
scripts/verify-full.sh chess/core_rules chess/legal chess/play chess/search \
  chess/next_positions engine/uci_volumes
# chess/variants: the other search variants on the shares' positions; its `..._full`
# volumes (a thousand playout positions a family, 300 lone-king placements: five of the
# six minutes the file takes) are verify-full.sh's alone.
VERIFY_SKIP=_full scripts/verify-full.sh chess/variants
