#!/usr/bin/env python3
"""Random legal placements of an attacker's men against a lone black king, white to
move, for `regex-chess match --openings-file` (data/positions/README.md).

    scripts/placements.py KRBP 30 --seed 4 > data/positions/krbpk.txt

The men are white's, named by letters (K first or not at all: the white king is always
placed). Every square is drawn uniformly; a placement is kept when the kings are not
adjacent, the black king is not in check, no pawn stands on rank 1 or 8 or on file a or h
(a rook's pawn with the wrong bishop can be a draw), and python-chess finds the position
valid. Needs python-chess (pip install chess)."""

import argparse
import random
import sys

import chess


def placement(rng, men):
    board = chess.Board(None)
    squares = rng.sample(range(64), len(men) + 2)
    board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
    for square, letter in zip(squares[2:], men):
        piece = chess.Piece.from_symbol(letter.upper())
        if piece.piece_type == chess.PAWN:
            if chess.square_rank(square) in (0, 7) or chess.square_file(square) in (0, 7):
                return None
        board.set_piece_at(square, piece)
    board.turn = chess.WHITE
    if chess.square_distance(squares[0], squares[1]) < 2:
        return None
    if board.is_attacked_by(chess.WHITE, squares[1]) or not board.is_valid():
        return None
    return board


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("men", help="the attacker's men besides its king, e.g. KRBP or RBP")
    parser.add_argument("count", type=int)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    men = args.men.upper().lstrip("K")
    if not men or any(m not in "QRBNP" for m in men):
        sys.exit(f"placements.py: men must be letters of QRBNP, got {args.men!r}")
    rng = random.Random(args.seed)
    print(
        f"# K{men}K: {args.count} random legal placements (kings apart, the lone black king "
        f"not in check, pawns on files b to g), white to move, seed {args.seed}; "
        "scripts/placements.py; for match --openings-file"
    )
    kept = 0
    while kept < args.count:
        board = placement(rng, men)
        if board is not None:
            print(board.fen())
            kept += 1


if __name__ == "__main__":
    main()
