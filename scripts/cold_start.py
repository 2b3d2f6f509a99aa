#!/usr/bin/env python3
"""The cold start of issue 15, one run per thread: first run <= 2 x warm run + 20 ms?

For each FEN (the bench positions after white's move, data/positions/bench-after-white.txt)
and program, one `examples/cold_start FEN 2 PROGRAM` process under callgrind with
`--separate-threads=yes` (see the example's module docs): the main thread's inclusive
instructions in `first_run` (the first run) and `warm_run` (one warm run), and each helper
thread's total (the helper that compiles ahead, on the second core: `helper` for the first
run's, `+` the warm run's when it started one). Then the same with `--no-ahead`: every
compile on the run's thread, the bound for a machine with one free core. allowed =
2 x warm + 60 M (20 ms is about 60 M instructions on the machine measured), ratio = first /
allowed. The program cache is primed first, in a directory of its own.

    python3 scripts/cold_start.py count BIN PROGRAM[,PROGRAM...] [IDX...]
    python3 scripts/cold_start.py time BIN PROGRAM[,PROGRAM...] REPEATS [IDX...]

`time` runs `BIN FEN 2 PROGRAM` REPEATS times per position, with and without the helper,
interleaved, and prints the medians of the printed first and second run's milliseconds
and first / (2 x warm + 20 ms). BIN is target/release/examples/cold_start (copy it first
when cargo may rebuild it meanwhile). IDX are 0-based lines of the FEN file (all by
default); FENS=path overrides the file; BOUNDS=ahead or BOUNDS=no-ahead measures only one
of the two bounds.

Callgrind runs the threads one at a time; `--fair-sched=yes` has them take turns, so that
the helper gets about as far as on a second core of its own (without it, the run's thread
kept the lock and the helper did next to nothing in some processes).
"""

import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FENS = os.environ.get(
    "FENS", os.path.join(HERE, "..", "data", "positions", "bench-after-white.txt")
)
ALLOWANCE_M = 60.0  # 20 ms in M instructions
ALLOWANCE_MS = 20.0
# BOUNDS=ahead measures only with the helper (`--no-ahead` runs the same code whatever the
# helper does, so one measurement of it serves two builds that differ only there).
BOUNDS = {"ahead": (True,), "no-ahead": (False,)}.get(
    os.environ.get("BOUNDS", ""), (True, False)
)


def fens() -> list:
    with open(FENS) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def inclusive(path: str, names: list) -> dict:
    """The inclusive instructions of each function named `names` in a callgrind file."""
    out = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", "--threshold=100", path],
        capture_output=True, text=True, check=True,
    ).stdout
    found = {}
    for line in out.splitlines():
        for name in names:
            if line.rstrip().split(" [")[0].endswith("::" + name) and name not in found:
                found[name] = int(line.split()[0].replace(",", ""))
    return found


def totals(path: str) -> int:
    with open(path) as f:
        for line in f:
            if line.startswith("totals:"):
                return int(line.split()[1])
    return 0


def count(binary: str, fen: str, program: str, ahead: bool) -> tuple:
    """(first, warm, helper of the first run, helper of the warm run), in M instructions."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        args = [binary, fen, "2", program] + ([] if ahead else ["--no-ahead"])
        subprocess.run(
            ["valgrind", "--tool=callgrind", "--separate-threads=yes", "--fair-sched=yes",
             "--callgrind-out-file=" + out] + args,
            capture_output=True, check=True,
        )
        runs = inclusive(out + "-01", ["first_run", "warm_run"])
        threads = sorted((int(f.split("-")[-1]), f) for f in os.listdir(d) if "-" in f)
        helpers = [totals(os.path.join(d, f)) for n, f in threads if n > 1]
    helpers += [0, 0]
    m = 1e6
    return runs["first_run"] / m, runs["warm_run"] / m, helpers[0] / m, helpers[1] / m


def wall(binary: str, fen: str, program: str, ahead: bool) -> tuple:
    args = [binary, fen, "2", program] + ([] if ahead else ["--no-ahead"])
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    ms = [float(x) for x in re.findall(r"^run \d+: ([\d.]+) ms", out, re.M)]
    return ms[0], ms[1]


def prime(binary: str, programs: list) -> None:
    os.environ["REGEX_CHESS_CACHE"] = tempfile.mkdtemp(prefix="cold-start-cache-")
    for program in programs:
        subprocess.run([binary, "x", "0", program], capture_output=True, check=True)


def main() -> None:
    argv = sys.argv[1:]
    if len(argv) < 3 or argv[0] not in ("count", "time"):
        sys.exit(__doc__.strip().split("\n\n")[2])
    mode, binary, programs = argv[0], os.path.abspath(argv[1]), argv[2].split(",")
    rest = argv[3:]
    repeats = int(rest.pop(0)) if mode == "time" else 0
    all_fens = fens()
    indices = [int(i) for i in rest] or list(range(len(all_fens)))
    prime(binary, programs)
    for program in programs:
        for i in indices:
            fen = all_fens[i]
            if mode == "count":
                parts = []
                for ahead in BOUNDS:
                    first, warm, h1, h2 = count(binary, fen, program, ahead)
                    allowed = 2 * warm + ALLOWANCE_M
                    label = "ahead" if ahead else "no-ahead"
                    helper = f" helper {h1:.1f}+{h2:.1f}" if ahead else ""
                    parts.append(f"{label}: first {first:.1f} warm {warm:.1f}{helper} "
                                 f"allowed {allowed:.1f} ratio {first / allowed:.2f}")
                print(f"{program} {i} " + " | ".join(parts), flush=True)
            else:
                samples = {True: [], False: []}
                for _ in range(repeats):
                    for ahead in (True, False):
                        samples[ahead].append(wall(binary, fen, program, ahead))
                parts = []
                for ahead in (True, False):
                    first = statistics.median(s[0] for s in samples[ahead])
                    warm = statistics.median(s[1] for s in samples[ahead])
                    allowed = 2 * warm + ALLOWANCE_MS
                    label = "ahead" if ahead else "no-ahead"
                    parts.append(f"{label}: first {first:.1f} ms warm {warm:.1f} ms "
                                 f"allowed {allowed:.1f} ms ratio {first / allowed:.2f}")
                print(f"{program} {i} " + " | ".join(parts), flush=True)


if __name__ == "__main__":
    main()
