#!/usr/bin/env python3
"""Peak resident memory of one `regex-chess uci` process over a self-play game.

The engine plays both sides from the start position: for each ply the script sends
`position startpos moves ...` and `go`, reads `bestmove`, and after the game prints the
moves and the process's VmHWM (Linux only: it reads /proc/<pid>/status).

    python3 scripts/selfplay_rss.py ./target/release/regex-chess [PLIES]   # default 16
"""

import subprocess
import sys


def main() -> None:
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    binary = sys.argv[1]
    plies = int(sys.argv[2]) if len(sys.argv) == 3 else 16
    engine = subprocess.Popen(
        [binary, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )

    def send(line: str) -> None:
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def wait_for(prefix: str) -> str:
        for line in engine.stdout:
            if line.startswith(prefix):
                return line.strip()
        sys.exit(f"the engine exited before sending {prefix!r}")

    send("uci")
    wait_for("uciok")
    send("isready")
    wait_for("readyok")
    moves: list[str] = []
    for _ in range(plies):
        send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        send("go")
        best = wait_for("bestmove").split()[1]
        if best == "0000":
            break
        moves.append(best)
    with open(f"/proc/{engine.pid}/status") as status:
        peak = next(line.split(":", 1)[1].strip() for line in status if line.startswith("VmHWM"))
    send("quit")
    engine.wait()
    print(" ".join(moves))
    print(f"{len(moves)} plies, peak RSS (VmHWM) {peak}")


if __name__ == "__main__":
    main()
