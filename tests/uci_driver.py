"""Drives `regex-chess uci` the way a GUI does, through python-chess.

Usage: python3 tests/uci_driver.py PATH_TO_REGEX_CHESS [PLIES|whole]

Checks the handshake and the option, then plays a game of PLIES plies (6 by default; `whole`
plays until python-chess declares the game over, draws by claim included, or 400 plies)
with the engine as white against a fixed list of replies chosen by python-chess (the first
legal move in sorted UCI order), checking each of the engine's moves is legal. When the chess rules are not registered in
the build, the engine answers `bestmove 0000`; the driver then prints `SKIPPED game` and
checks only the protocol.
"""

import sys

import chess
import chess.engine

PLIES = 6
WHOLE_GAME_CAP = 400


def main() -> int:
    path = sys.argv[1]
    whole = len(sys.argv) > 2 and sys.argv[2] == "whole"
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
