"""Plays regex-chess against Stockfish with real clocks, through python-chess.

Usage: python3 tests/engine/uci_match.py REGEX_CHESS STOCKFISH GAMES BASE_SECONDS INCREMENT_SECONDS
       [--skill N] [--openings FILE] [--log FILE] [--first N]

Both engines get `go wtime .. btime .. winc .. binc ..` with the clocks this script keeps
(wall-clock time from sending `go` to reading `bestmove`, the increment added after the
move); before each game both get `ucinewgame` and `isready`, and the clocks start after
`readyok`, as a GUI's do. A side whose clock runs out loses on time. Games alternate colours and start from
the openings file's FENs in order (one FEN a line, `;` comments after it), or the start
position. python-chess judges every move and the end of the game (the fifty-move rule and
threefold repetition are claimed at once; 300 plies is a draw).

Prints one line a game and a summary: `RESULT +W =D -L timeouts T` from regex-chess's
view, plus the slowest move it made, the least time it had left, and the share of its clock
it used in the median game (the time it spent over its base time and the increments of
its moves).
"""

import argparse
import time
from statistics import median

import chess
import chess.engine

MAX_PLIES = 300


def read_openings(path):
    if not path:
        return [chess.STARTING_FEN]
    fens = []
    with open(path) as f:
        for line in f:
            line = line.split(";")[0].strip()
            if line and not line.startswith("#"):
                fens.append(line)
    return fens


def play_game(ours, theirs, fen, ours_white, base, inc, log):
    board = chess.Board(fen)
    clocks = {chess.WHITE: base, chess.BLACK: base}
    slowest = 0.0
    least_left = base
    spent_ours = 0.0
    moves_ours = 0

    def used():
        """The share of its clock regex-chess spent: time over base plus increments."""
        return spent_ours / (base + inc * moves_ours)

    # As a GUI does (cutechess-cli, fastchess): a new game, then `isready`, waited for before
    # the first clock starts, so an engine's loading (regex-chess compiles its programs at
    # its first `isready` when its program cache is cold) is not counted as a move.
    for engine in (ours, theirs):
        engine.protocol.send_line("ucinewgame")
        engine.ping()
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            return outcome.winner, outcome.termination.name, slowest, least_left, used()
        if len(board.move_stack) >= MAX_PLIES:
            return None, "MAX_PLIES", slowest, least_left, used()
        mover = board.turn
        engine = ours if (mover == chess.WHITE) == ours_white else theirs
        limit = chess.engine.Limit(
            white_clock=clocks[chess.WHITE],
            black_clock=clocks[chess.BLACK],
            white_inc=inc,
            black_inc=inc,
        )
        started = time.monotonic()
        result = engine.play(board, limit)
        spent = time.monotonic() - started
        clocks[mover] -= spent
        if engine is ours:
            spent_ours += spent
            moves_ours += 1
            slowest = max(slowest, spent)
            least_left = min(least_left, clocks[mover])
            if log:
                log.write(f"{board.fen()}\t{spent * 1000:.0f} ms\t{clocks[mover]:.2f} s left\n")
        if clocks[mover] < 0:
            return (not mover), "TIME_FORFEIT", slowest, least_left, used()
        clocks[mover] += inc
        if result.move is None or result.move not in board.legal_moves:
            return (not mover), f"ILLEGAL {result.move}", slowest, least_left, used()
        board.push(result.move)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("regex_chess")
    parser.add_argument("stockfish")
    parser.add_argument("games", type=int)
    parser.add_argument("base", type=float)
    parser.add_argument("inc", type=float)
    parser.add_argument("--skill", type=int, default=0)
    parser.add_argument("--openings")
    parser.add_argument("--log")
    parser.add_argument("--first", type=int, default=1, help="the number of the first game")
    args = parser.parse_args()
    log = open(args.log, "a") if args.log else None
    openings = read_openings(args.openings)
    # Two minutes for a command (python-chess's default is 10 s): the first `isready`
    # with a cold program cache compiles every search variant's programs.
    ours = chess.engine.SimpleEngine.popen_uci([args.regex_chess, "uci"], timeout=120.0)
    theirs = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    theirs.configure({"Skill Level": args.skill, "Threads": 1, "Hash": 16})
    wins = draws = losses = timeouts = 0
    slowest = 0.0
    least_left = args.base
    shares = []
    try:
        for game in range(args.first - 1, args.first - 1 + args.games):
            fen = openings[(game // 2) % len(openings)]
            ours_white = game % 2 == 0
            winner, how, slow, left, share = play_game(
                ours, theirs, fen, ours_white, args.base, args.inc, log
            )
            shares.append(share)
            slowest = max(slowest, slow)
            least_left = min(least_left, left)
            ours_color = chess.WHITE if ours_white else chess.BLACK
            if winner is None:
                draws += 1
                score = "="
            elif winner == ours_color:
                wins += 1
                score = "+"
            else:
                losses += 1
                score = "-"
                if how == "TIME_FORFEIT":
                    timeouts += 1
            side = "white" if ours_white else "black"
            print(
                f"game {game + 1}: regex-chess {side} {score} {how} "
                f"(slowest move {slow:.2f} s, least left {left:.2f} s, "
                f"clock used {share * 100:.0f}%)",
                flush=True,
            )
    finally:
        ours.quit()
        theirs.quit()
    print(
        f"RESULT +{wins} ={draws} -{losses} timeouts {timeouts} "
        f"slowest move {slowest:.2f} s least left {least_left:.2f} s "
        f"median clock used {median(shares) * 100:.0f}%"
    )


if __name__ == "__main__":
    main()
