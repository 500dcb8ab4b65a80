"""Rendering a board as text: the pencil-mark grid a person reads when logic stalls.

Pure: board in, string out. Placed cells show their value; the others their candidates.
"""

from __future__ import annotations

from ...formats.grid import draw
from .board import Board, values_of


def candidates_grid(board: Board) -> str:
    """Return the board as a grid of candidates, columns aligned, boxes ruled off, framed."""
    lay = board.layout
    n = lay.size
    br, bc = lay.box_shape if lay.box_shape != (0, 0) else (n, n)
    return draw([text for row in candidates_rows(board) for text in row], n, br, bc, frame=True)


def candidates_rows(board: Board) -> list[list[str]]:
    """Return each row's cells as strings: the value of a placed cell, else its candidates."""
    lay = board.layout
    n = lay.size
    return [[lay.sym(board.value[r * n + c]) if board.value[r * n + c]
             else "".join(lay.sym(v) for v in values_of(board.cand[r * n + c]))
             for c in range(n)] for r in range(n)]
