"""A play-like rule program for the browser test while the real `play` is not merged.

It keeps the shape of the real game's state (the pretty board, a message line, the
prompt `Your move: ` followed by the typed line) but knows no chess: it moves whatever
stands on the from-square to the to-square and answers with the mirrored move (e2e4 is
answered by e7e5), all with regex rules. Input that is not four coordinates gets a
message and the board back unchanged.

Usage: python3 toy_play.py OUT_DIR  (writes toy-play.json and toy-play.state)
"""

import json
import sys

FILES = "abcdefgh"
START = [
    "♜♞♝♛♚♝♞♜",
    "♟♟♟♟♟♟♟♟",
    "········",
    "········",
    "········",
    "········",
    "♙♙♙♙♙♙♙♙",
    "♖♘♗♕♔♗♘♖",
]


def start_state():
    lines = []
    for i, row in enumerate(START):
        lines.append(f"{8 - i} " + " ".join(row))
    lines.append("  a b c d e f g h")
    lines.append("Toy game: the rules move pieces but know no chess.")
    lines.append("Your move: ")
    return "\n".join(lines)


def rules():
    out = []

    def rule(pattern, replacement, origin):
        out.append({"pattern": pattern, "replacement": replacement, "origin": origin})

    # The typed move becomes a marker line `!FROM TO>copy`, the message line goes.
    rule(
        r"\n[^\n]*\nYour move: ([a-h][1-8][a-h][1-8])\n\z",
        "\n!${1}>${1}",
        "toy: read the typed move",
    )
    rule(
        r"\n[^\n]*\nYour move: [^\n]*\n\z",
        "\nNot a move: type squares like e2e4.\nYour move: ",
        "toy: refuse anything else",
    )
    # Mirror the ranks of the copy: digits to letters, then letters to digits.
    for at in ("", "[a-h][1-8A-H][a-h]"):
        for rank in range(1, 9):
            rule(f"(>[a-h]{at}){rank}" if not at else f"(>{at}){rank}",
                 "${1}" + "ABCDEFGH"[8 - rank], "toy: mirror a rank")
    for at in ("[a-h]", "[a-h][1-8][a-h]"):
        for rank in range(1, 9):
            rule(f"(>{at}){'ABCDEFGH'[rank - 1]}", "${1}" + str(rank), "toy: mirror a rank")
    # The reply's message, kept apart from the marker.
    rule(
        r"\n!([a-h1-8]{4})>([a-h1-8]{4})\z",
        "\n!${1}>${2}\nYou played ${1}, the toy engine mirrors it: ${2}.\nYour move: ",
        "toy: the message",
    )

    def moves(tag):
        for rank in range(1, 9):
            for f, file in enumerate(FILES):
                rule(
                    f"(?m)^({rank} (?:[^ \\n] ){{{f}}})([^ \\n])([\\s\\S]*\\n!){file}{rank}",
                    "${1}·${3}${2}",
                    f"toy: pick up from {file}{rank} ({tag})",
                )
        for rank in range(1, 9):
            for f, file in enumerate(FILES):
                rule(
                    f"(?m)^({rank} (?:[^ \\n] ){{{f}}})[^ \\n]([\\s\\S]*\\n!)([^ \\n>]){file}{rank}",
                    "${1}${3}${2}",
                    f"toy: put down on {file}{rank} ({tag})",
                )

    moves("player")
    rule(r"\n!>", "\n!", "toy: the reply's turn")
    moves("engine")
    rule(r"\n!\n", "\n", "toy: drop the marker")
    return out


def main():
    out_dir = sys.argv[1]
    program = {
        "format": "regex-chess-program",
        "version": 1,
        "name": "toy-play",
        "description": "A play-like toy: moves pieces without rules and mirrors the move.",
        "rules": rules(),
    }
    with open(f"{out_dir}/toy-play.json", "w", encoding="utf-8") as f:
        json.dump(program, f, ensure_ascii=False, indent=1)
    with open(f"{out_dir}/toy-play.state", "w", encoding="utf-8", newline="") as f:
        f.write(start_state())


if __name__ == "__main__":
    main()
