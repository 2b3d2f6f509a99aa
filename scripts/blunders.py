#!/usr/bin/env python3
"""Where the engine's points go: its blunders in match PGNs, and the search depth that avoids them.

Usage: scripts/blunders.py STOCKFISH [--depth D] [--drop P] [--max-depth K] PGN...

For every move of the engine (the player whose name starts with "regex-chess") in the games
of the PGN files, Stockfish at `go depth D` (default 12) scores the position before the move
(its best line) and the position after it, from the engine's view (mates as +-2000 cp). Each
score becomes a winning chance in percent, `50 + 50 (2 / (1 + exp(-0.00368208 cp)) - 1)` (the
curve lichess.org uses for its move labels), and the move's *drop* is the chance before
minus the chance after. A move dropping at least P points (default 30, lichess's "blunder")
is a *blunder*; so losing a pawn in a level position is not one, nor going from mate to a
won ending. For each blunder, Stockfish searches the position before it again at
`go depth d` for d = 1 .. K (default 6); the blunder counts as *avoided at depth d* at the
first d whose chosen move drops less than P points (by the depth-D scores). Stockfish's
depth is not a plain full-width ply count (it extends checks and captures and prunes), so
the table says roughly how much deeper a search must look to stop the blunders, not exactly.

With `--engine BIN` (a `regex-chess` binary) and `--search NAME` (repeatable), each blunder
position is also handed to `BIN move --search NAME --fen FEN` (without the game's history),
and the table counts the blunders each variant's move avoids (drops less than P points).

Requires python-chess (`pip install chess`). Prints a summary and a table to standard output.
"""

import argparse
import collections
import math
import subprocess
import sys

import chess
import chess.engine
import chess.pgn

MATE_CP = 2000


def chance(score: chess.engine.PovScore, colour: chess.Color) -> float:
    """The winning chance in percent of `colour` at `score` (mates as +-MATE_CP)."""
    cp = score.pov(colour).score(mate_score=MATE_CP)
    return 50 + 50 * (2 / (1 + math.exp(-0.00368208 * cp)) - 1)


def engine_colour(game: chess.pgn.Game):
    """The colour the engine played in `game`, or None when neither player is the engine."""
    if game.headers.get("White", "").startswith("regex-chess"):
        return chess.WHITE
    if game.headers.get("Black", "").startswith("regex-chess"):
        return chess.BLACK
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stockfish")
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--drop", type=float, default=30)
    parser.add_argument("--max-depth", type=int, default=6)
    parser.add_argument("--engine", help="a regex-chess binary to try on each blunder position")
    parser.add_argument("--search", action="append", default=[], help="a variant for --engine")
    args = parser.parse_args()

    sf = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    reference = chess.engine.Limit(depth=args.depth)
    moves = blunders = 0
    avoided_at = collections.Counter()
    avoided_by = collections.Counter()
    per_game = collections.Counter()
    results = collections.Counter()
    losses_with_blunder = 0
    try:
        for path in args.pgn:
            with open(path, encoding="utf-8") as pgn:
                while (game := chess.pgn.read_game(pgn)) is not None:
                    colour = engine_colour(game)
                    if colour is None:
                        continue
                    result = game.headers.get("Result", "*")
                    won = {"1-0": chess.WHITE, "0-1": chess.BLACK}.get(result)
                    outcome = "draw" if won is None else ("win" if won == colour else "loss")
                    results[outcome] += 1
                    board = game.board()
                    game_blunders = 0
                    for move in game.mainline_moves():
                        if board.turn == colour:
                            before = sf.analyse(board, reference)
                            best = chance(before["score"], colour)
                            board.push(move)
                            after = sf.analyse(board, reference)
                            drop = best - chance(after["score"], colour)
                            board.pop()
                            moves += 1
                            if drop >= args.drop:
                                blunders += 1
                                game_blunders += 1
                                avoided_at[first_depth_avoiding(sf, board, colour, best, args)] += 1
                                for name in args.search:
                                    if drops_less(sf, board, colour, best, ours(args.engine, name, board), args):
                                        avoided_by[name] += 1
                        board.push(move)
                    per_game[game_blunders] += 1
                    if outcome == "loss" and game_blunders:
                        losses_with_blunder += 1
    finally:
        sf.quit()

    games = sum(results.values())
    print(f"games: {games} ({results['win']} won, {results['draw']} drawn, {results['loss']} lost)")
    print(f"engine moves: {moves}; blunders (a drop of {args.drop:g} points or more at depth {args.depth}): "
          f"{blunders} ({100 * blunders / max(moves, 1):.1f} per 100 moves)")
    print(f"lost games with at least one blunder: {losses_with_blunder} of {results['loss']}")
    print()
    print("| Stockfish depth that avoids the blunder | blunders | cumulative |")
    print("| --- | ---: | ---: |")
    running = 0
    for depth in list(range(1, args.max_depth + 1)) + [None]:
        running += avoided_at[depth]
        label = f"{depth}" if depth is not None else f"more than {args.max_depth}"
        print(f"| {label} | {avoided_at[depth]} | {100 * running / max(blunders, 1):.0f}% |")
    if args.search:
        print()
        print("| variant | blunders its move avoids |")
        print("| --- | ---: |")
        for name in args.search:
            print(f"| {name} | {avoided_by[name]} of {blunders} |")
    return 0


def ours(binary, search, board):
    """The move `binary move --search search` plays from `board` (its FEN only)."""
    out = subprocess.run([binary, "move", "--search", search, "--fen", board.fen()],
                         capture_output=True, text=True, check=True).stdout
    return chess.Move.from_uci(out.split()[0])


def drops_less(sf, board, colour, best, move, args):
    """Whether `move` drops less than `--drop` points (by the depth-D score)."""
    board.push(move)
    score = chance(sf.analyse(board, chess.engine.Limit(depth=args.depth))["score"], colour)
    board.pop()
    return best - score < args.drop


def first_depth_avoiding(sf, board, colour, best, args):
    """The first depth d (1..max) whose chosen move drops less than `--drop`, or None."""
    for depth in range(1, args.max_depth + 1):
        choice = sf.play(board, chess.engine.Limit(depth=depth)).move
        if drops_less(sf, board, colour, best, choice, args):
            return depth
    return None


if __name__ == "__main__":
    sys.exit(main())
