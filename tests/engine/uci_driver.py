"""Drives `regex-chess uci` the way a GUI does, through python-chess.

Usage: python3 tests/engine/uci_driver.py PATH_TO_REGEX_CHESS [PLIES|whole|clocks|multipv FEN]

Checks the handshake and the option, then plays a game of PLIES plies (6 by default; `whole`
plays until python-chess declares the game over, draws by claim included, or 400 plies)
with the engine as white against a fixed list of replies chosen by python-chess (the first
legal move in sorted UCI order), checking each of the engine's moves is legal. When the chess rules are not registered in
the build, the engine answers `bestmove 0000`; the driver then prints `SKIPPED game` and
checks only the protocol.

`clocks` instead plays a short game with clocks (`go wtime .. btime .. winc .. binc ..`,
the clocks kept here), then checks `analyse` (a pv whose first move is legal; the score
when the rules report one) and the positions without a legal move: `play` gives
`move is None` and `analyse` the score `mate 0` (checkmate) or `cp 0` (stalemate). It
prints `CLOCKS`, `ANALYSE` and `NO MOVE` lines.

`multipv FEN` runs `analyse(board, Limit(depth=2), multipv=3)` on FEN and checks it
returns 3 entries, ranked 1 to 3, each with a score and a pv starting with a legal move;
it prints one line `MULTIPV <rank> <move> <centipawns>` an entry (the caller compares
them with the oracle).
"""

import sys
import time

import chess
import chess.engine

PLIES = 6
WHOLE_GAME_CAP = 400


CLOCK_PLIES = 40
MATED = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"
STALEMATED = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"


def clocks(engine) -> int:
    """The `clocks` mode."""
    board = chess.Board()
    left = {chess.WHITE: 30.0, chess.BLACK: 30.0}
    inc = 0.1
    while not board.is_game_over(claim_draw=True) and len(board.move_stack) < CLOCK_PLIES:
        if board.turn == chess.WHITE:
            limit = chess.engine.Limit(
                white_clock=left[chess.WHITE],
                black_clock=left[chess.BLACK],
                white_inc=inc,
                black_inc=inc,
            )
            started = time.monotonic()
            result = engine.play(board, limit)
            left[chess.WHITE] += inc - (time.monotonic() - started)
            assert result.move in board.legal_moves, (board.fen(), result.move)
            board.push(result.move)
        else:
            board.push(sorted(board.legal_moves, key=lambda m: m.uci())[-1])
    print("CLOCKS", len(board.move_stack), "plies", f"{left[chess.WHITE]:.2f} s left")

    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    info = engine.analyse(board, chess.engine.Limit(time=2.0))
    assert "pv" in info and info["pv"], info
    assert info["pv"][0] in board.legal_moves, info
    assert info.get("depth", 0) >= 1, info
    print("ANALYSE", "pv", " ".join(m.uci() for m in info["pv"]),
          "score", info.get("score"), "nodes", info.get("nodes"))

    for fen, score in [(MATED, chess.engine.Mate(0)), (STALEMATED, chess.engine.Cp(0))]:
        board = chess.Board(fen)
        result = engine.play(board, chess.engine.Limit(time=1.0))
        assert result.move is None, (fen, result)
        info = engine.analyse(board, chess.engine.Limit(time=1.0))
        assert info["score"].relative == score, (fen, info)
        print("NO MOVE", fen, info["score"].relative)
    return 0


def multipv(engine, fen) -> int:
    """The `multipv` mode."""
    assert engine.options["MultiPV"].max >= 3, engine.options["MultiPV"]
    board = chess.Board(fen)
    infos = engine.analyse(board, chess.engine.Limit(depth=2), multipv=3)
    assert len(infos) == 3, infos
    for rank, info in enumerate(infos, start=1):
        assert info.get("multipv") == rank, info
        assert "score" in info and info.get("pv"), info
        assert info["pv"][0] in board.legal_moves, info
        cp = info["score"].relative.score(mate_score=100000)
        print("MULTIPV", rank, info["pv"][0].uci(), cp)
    return 0


def main() -> int:
    path = sys.argv[1]
    if len(sys.argv) > 3 and sys.argv[2] == "multipv":
        engine = chess.engine.SimpleEngine.popen_uci([path, "uci"], timeout=600)
        try:
            return multipv(engine, sys.argv[3])
        finally:
            engine.quit()
    whole = len(sys.argv) > 2 and sys.argv[2] == "whole"
    if len(sys.argv) > 2 and sys.argv[2] == "clocks":
        engine = chess.engine.SimpleEngine.popen_uci([path, "uci"], timeout=600)
        try:
            return clocks(engine)
        finally:
            engine.quit()
    plies = WHOLE_GAME_CAP if whole else int(sys.argv[2]) if len(sys.argv) > 2 else PLIES
    engine = chess.engine.SimpleEngine.popen_uci([path, "uci"], timeout=600)
    try:
        assert engine.id.get("name") == "regex-chess", engine.id
        option = engine.options["Executor"]
        assert option.type == "combo", option
        assert option.default == "fast", option
        assert set(option.var) == {"fast", "reference"}, option
        engine.configure({"Executor": "fast"})
        engine.ping()

        board = chess.Board()
        for ply in range(plies):
            if board.is_game_over(claim_draw=True):
                break
            if ply % 2 == 0:
                result = engine.play(board, chess.engine.Limit(time=1.0))
                if not result.move:  # None, or the null move `0000`
                    print("SKIPPED game: the engine has no move (are the rules registered?)")
                    return 0
                assert result.move in board.legal_moves, (board.fen(), result.move)
                board.push(result.move)
            else:
                reply = sorted(board.legal_moves, key=lambda m: m.uci())[0]
                board.push(reply)
        print("PLAYED", " ".join(m.uci() for m in board.move_stack))
        if whole:
            outcome = board.outcome(claim_draw=True)
            assert outcome is not None, f"no result after {len(board.move_stack)} plies"
            print("RESULT", board.result(claim_draw=True), outcome.termination.name)
        return 0
    finally:
        engine.quit()


if __name__ == "__main__":
    sys.exit(main())
