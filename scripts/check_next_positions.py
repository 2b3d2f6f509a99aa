#!/usr/bin/env python3
"""Checks an exported `next-positions` rule list the way the public "regex-chess" task does.

The task (Terminal-Bench 2.0) runs a JSON list of [pattern, replacement] pairs with

    def all_legal_next_positions(fen):
        for pattern, repl in json.load(open("re.json")):
            fen = re.sub(pattern, repl, fen)
        return fen.split("\\n")

on a FEN with white to move and no final newline, and wants the FEN of every legal next
position (queen promotions only; either en-passant convention; counters may be wrong, but
every line has its six single-spaced fields). This script runs the file exactly so, and
compares every answer with python-chess (`pip install chess`) on:

- the published example (exactly three FENs);
- every white-to-move position of the famous games in data/next_positions/games.txt;
- the hand-made positions of data/next_positions/crafted.txt;
- seeded random positions from weighted playouts, with quotas for checks, double checks,
  pins, promotions with and without capture, legal en passant, en passant refused by a
  pin, castling, castling refused by an attacked square, and lost castling rights.

The comparison is strict on everything but the en-passant field: the lines must be the
FENs python-chess writes (clocks included), each once, in any order; each line's
en-passant field may be python-chess's `fen` convention (after every double push) or its
`legal` one (only when the capture is legal). With `--full` (for `next-positions-full`)
every promotion counts and half the random positions have black to move.

Prints the counts per kind, the median and slowest time per position (a call of the
function above, JSON loading included, after one untimed warm-up call; wall clock and
the process's CPU time, which a loaded machine disturbs less) and the limits;
exits 1 on any difference, 2 on bad usage.

    regex-chess export --format json --program next-positions -o re.json
    python3 scripts/check_next_positions.py re.json [--random 300] [--seed 1]
"""

import argparse
import collections
import json
import os
import random
import re
import statistics
import sys
import time

try:
    import chess
except ImportError:  # pragma: no cover - reported to the caller
    sys.stderr.write("check_next_positions: python-chess is missing (pip install chess)\n")
    sys.exit(3)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "data", "next_positions")
EXAMPLE = "rnb1k1nr/p2p1ppp/3B4/1p1NPN1P/6P1/3P1Q2/P1P5/q4Kb1 w kq - 0 1"
MAX_PAIRS = 100_000
MAX_CHARS = 10_000_000


def harness(path):
    """The task's function, verbatim but for the file name."""

    def all_legal_next_positions(fen):
        for pattern, repl in json.load(open(path)):
            fen = re.sub(pattern, repl, fen)
        return fen.split("\n")

    return all_legal_next_positions


def read_lines(name):
    """The non-comment lines of a data file."""
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]


def game_positions():
    """(label, FEN) of every position of the famous games, either side to move."""
    out = []
    for line in read_lines("games.txt"):
        name, text = line.split(";", 1)
        board = chess.Board()
        for token in text.split():
            token = re.sub(r"^\d+\.(\.\.)?", "", token)
            if not token or token in ("1-0", "0-1", "1/2-1/2", "*"):
                continue
            if not board.is_game_over():
                out.append((name.split(",")[0], board.fen()))
            board.push_san(token)
    return out


def crafted_positions():
    out = []
    for line in read_lines("crafted.txt"):
        fen, what = line.split(";", 1)
        out.append(("crafted: " + what.strip(), fen.strip()))
    return out


def kinds(board):
    """The special features of a position, by name."""
    found = set()
    us = board.turn
    checkers = board.checkers()
    if checkers:
        found.add("check")
    if len(checkers) >= 2:
        found.add("double check")
    king = board.king(us)
    if any(
        board.is_pinned(us, sq) for sq in chess.scan_forward(board.occupied_co[us]) if sq != king
    ):
        found.add("pin")
    for move in board.legal_moves:
        if move.promotion:
            found.add("promotion capture" if board.is_capture(move) else "promotion push")
        if board.is_en_passant(move):
            found.add("en passant")
        if board.is_castling(move):
            found.add("castling")
    if board.ep_square is not None and board.has_pseudo_legal_en_passant() and not board.has_legal_en_passant():
        found.add("en passant refused")
    # Castling refused: a right, the squares between king and rook empty, and yet no
    # such castling move (the king is in check, crosses or lands on an attacked square).
    back = 0 if us == chess.WHITE else 7
    legal_castles = {m.to_square for m in board.legal_moves if board.is_castling(m)}
    for rook_file, between, king_to in ((7, (5, 6), 6), (0, (1, 2, 3), 2)):
        rook_sq = chess.square(rook_file, back)
        if (
            board.castling_rights & chess.BB_SQUARES[rook_sq]
            and all(board.piece_at(chess.square(f, back)) is None for f in between)
            and chess.square(king_to, back) not in legal_castles
        ):
            found.add("castling refused")
    # A lost right: king and rook at home, the right gone.
    if board.king(us) == chess.square(4, back):
        for file in (0, 7):
            rook = board.piece_at(chess.square(file, back))
            if rook == chess.Piece(chess.ROOK, us) and not board.castling_rights & chess.BB_SQUARES[chess.square(file, back)]:
                found.add("lost rights")
    return found


QUOTA_KINDS = [
    "check",
    "double check",
    "pin",
    "promotion push",
    "promotion capture",
    "en passant",
    "en passant refused",
    "castling",
    "castling refused",
    "lost rights",
]


def weighted_move(board, rng):
    moves = list(board.legal_moves)
    groups = [
        ([m for m in moves if m.promotion], 3, 4),
        ([m for m in moves if board.is_en_passant(m)], 3, 4),
        ([m for m in moves if board.is_castling(m)], 1, 4),
        (
            [
                m
                for m in moves
                if board.piece_type_at(m.from_square) == chess.PAWN
                and abs(m.to_square - m.from_square) == 16
            ],
            1,
            3,
        ),
        ([m for m in moves if board.gives_check(m)], 1, 3),
        ([m for m in moves if board.piece_type_at(m.from_square) == chess.PAWN], 1, 3),
    ]
    for group, num, den in groups:
        if group and rng.randrange(den) < num:
            return rng.choice(group)
    return rng.choice(moves)


RANDOM_KINDS = collections.Counter()


def random_positions(count, seed, full, starts):
    """Up to `count` distinct positions from weighted playouts (at most 2 * count games of
    at most 100 plies): a position is taken while one of its kinds is short of count/10,
    or, with no special kind, now and then up to count/4 of them. White to move, or
    either side with `full`. The same seed gives the same list."""
    rng = random.Random(seed)
    per_kind = max(1, count // 10)
    got = {k: 0 for k in QUOTA_KINDS}
    plain = 0
    seen = set()
    out = []
    games = 0
    while len(out) < count and games < 2 * count:
        games += 1
        board = chess.Board(rng.choice(starts))
        for _ in range(100):
            if board.is_insufficient_material() or not any(board.legal_moves):
                break
            wanted = full or board.turn == chess.WHITE
            fen = board.fen()
            if wanted and fen not in seen:
                found = kinds(board)
                short = [k for k in found if k in got and got[k] < per_kind]
                if short or (not found and plain < count // 4 and rng.randrange(8) == 0):
                    seen.add(fen)
                    for k in found:
                        if k in got:
                            got[k] += 1
                    if not found:
                        plain += 1
                    label = "random: " + (", ".join(sorted(found)) or "plain")
                    RANDOM_KINDS.update(found or {"plain"})
                    out.append((label, fen))
                    if len(out) >= count:
                        break
            board.push(weighted_move(board, rng))
    return out


def expected(fen, full):
    """Per child: (the FEN without its en-passant field, the allowed en-passant fields)."""
    board = chess.Board(fen)
    out = {}
    for move in board.legal_moves:
        if move.promotion and move.promotion != chess.QUEEN and not full:
            continue
        child = board.copy(stack=False)
        child.push(move)
        a = child.fen(en_passant="fen").split(" ")
        b = child.fen(en_passant="legal").split(" ")
        key = " ".join(a[:3] + a[4:])
        out[key] = {a[3], b[3]}
    return out


def compare(fen, lines, full):
    """None when `lines` is a right answer for `fen`, else what is wrong."""
    want = expected(fen, full)
    problems = []
    got = {}
    for line in lines:
        fields = line.split(" ")
        if len(fields) != 6 or any(not f for f in fields):
            problems.append(f"not six single-spaced fields: {line!r}")
            continue
        key = " ".join(fields[:3] + fields[4:])
        if key in got:
            problems.append(f"twice: {line!r}")
        got[key] = fields[3]
    for key, ep in got.items():
        if key not in want:
            problems.append(f"extra: {key} (ep {ep})")
        elif ep not in want[key]:
            problems.append(f"en-passant field {ep} for {key}, expected one of {sorted(want[key])}")
    for key in want:
        if key not in got:
            problems.append(f"missing: {key}")
    return "; ".join(problems) or None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("rules", help="the exported pair list (JSON)")
    parser.add_argument("--random", type=int, default=300, help="random positions (default 300)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random positions")
    parser.add_argument("--game-step", type=int, default=1, metavar="N",
                        help="take every N-th position of the famous games (default 1: all)")
    parser.add_argument("--full", action="store_true", help="check next-positions-full")
    parser.add_argument("--write-fens", metavar="FILE", help="also write the FENs checked, one a line")
    parser.add_argument("--quiet", action="store_true", help="print only the summary")
    args = parser.parse_args()

    try:
        with open(args.rules, encoding="utf-8") as f:
            pairs = json.load(f)
    except (OSError, ValueError) as e:
        sys.stderr.write(f"check_next_positions: cannot read {args.rules}: {e}\n")
        return 2
    if not isinstance(pairs, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in pairs
    ):
        sys.stderr.write(f"check_next_positions: {args.rules} is not a list of [pattern, replacement] pairs\n")
        return 2
    chars = sum(len(p) + len(r) for p, r in pairs)
    distinct = len({p for p, _ in pairs})
    size_ok = len(pairs) < MAX_PAIRS and chars < MAX_CHARS

    positions = [("published example", EXAMPLE)]
    games = [(l, f) for l, f in game_positions() if args.full or f.split(" ")[1] == "w"]
    positions += games[:: max(1, args.game_step)]
    crafted = crafted_positions()
    positions += crafted
    if args.full:
        positions += [(l + " (mirrored)", chess.Board(f).mirror().fen()) for l, f in crafted]
    starts = [chess.STARTING_FEN] + [f for _, f in crafted]
    positions += random_positions(args.random, args.seed, args.full, starts)
    if args.write_fens:
        with open(args.write_fens, "w", encoding="utf-8") as f:
            f.write("".join(fen + "\n" for _, fen in positions))

    run = harness(args.rules)
    t0 = time.perf_counter()
    run(EXAMPLE)  # untimed warm-up: re compiles the patterns once
    first = time.perf_counter() - t0

    failures = []
    times = []
    cpu = []
    counts = {}
    for label, fen in positions:
        t, c = time.perf_counter(), time.process_time()
        lines = run(fen)
        times.append((time.perf_counter() - t, fen))
        cpu.append(time.process_time() - c)
        kind = label.split(":")[0].split(" (")[0]
        counts[kind] = counts.get(kind, 0) + 1
        if lines == [""]:
            lines = []
        problem = compare(fen, lines, args.full)
        if problem:
            failures.append(f"{label}: {fen}: {problem}")
            if not args.quiet:
                print(f"FAIL {label}: {fen}\n  {problem}")
    example = run(EXAMPLE)
    if len(example) != 3:
        failures.append(f"published example: {len(example)} lines, expected 3")

    ms = sorted(t * 1000 for t, _ in times)
    slowest = max(times)
    print(f"rules: {args.rules}: {len(pairs)} pairs (limit {MAX_PAIRS - 1:,}), "
          f"{chars:,} characters (limit {MAX_CHARS - 1:,}), {distinct} distinct patterns"
          + ("" if size_ok else "  OVER A LIMIT"))
    print("positions: " + ", ".join(f"{k} {v}" for k, v in counts.items()) + f"; {len(positions)} in all")
    print("random positions with: " + ", ".join(f"{k} {RANDOM_KINDS[k]}" for k in QUOTA_KINDS + ["plain"]))
    print(f"CPython {sys.version.split()[0]} re: first call {first * 1000:.0f} ms (compiling); "
          f"median {statistics.median(ms):.1f} ms, slowest {ms[-1]:.1f} ms ({slowest[1]}), "
          f"mean {statistics.mean(ms):.1f} ms per position (wall clock); CPU time: median "
          f"{statistics.median(cpu) * 1000:.1f} ms, slowest {max(cpu) * 1000:.1f} ms")
    if failures or not size_ok:
        print(f"FAILED: {len(failures)} of {len(positions)} positions differ from python-chess")
        for f in failures[:10]:
            print("  " + f)
        return 1
    print(f"OK: all {len(positions)} positions agree with python-chess {chess.__version__}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
