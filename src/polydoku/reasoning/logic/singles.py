"""Singles: Full House, Naked Single, Hidden Single (over every house, diagonals included).

Each finder returns the first step it sees on a board, or None; none changes the board.
"""

from __future__ import annotations

from .board import Board, House, bits
from .step import Step, make_step


def scan_order(board: Board) -> list[House]:
    """Return the houses in the order a person scans them: boxes, rows, columns, the rest."""
    lines = board.layout.lines
    return [*lines["box"], *lines["row"], *lines["column"], *lines["other"]]


def find_full_house(board: Board) -> Step | None:
    """Return a Full House: the one empty cell left in a house."""
    lay, val, cand = board.layout, board.value, board.cand
    open_cells = 0
    for i, v in enumerate(val):
        if not v:
            open_cells |= 1 << i
    for h in scan_order(board):
        empty = open_cells & h.mask
        if empty and not empty & (empty - 1) and cand[empty.bit_length() - 1].bit_count() == 1:
            i = empty.bit_length() - 1
            v = cand[i].bit_length()
            return make_step(lay, "Full House", f"{lay.name(i)} is the last empty cell of {h.name}",
                             placements=[(i, v)], pattern=[i], houses=[h.name])
    return None


def find_naked_single(board: Board) -> Step | None:
    """Return a Naked Single: a cell with one candidate left."""
    lay = board.layout
    for i, v in enumerate(board.value):
        c = board.cand[i]
        if not v and c and not c & (c - 1):
            value = c.bit_length()
            return make_step(lay, "Naked Single",
                             f"{lay.name(i)} can only be {lay.sym(value)}",
                             placements=[(i, value)], pattern=[i], say_conclusion=False)
    return None


def find_hidden_single(board: Board) -> Step | None:
    """Return a Hidden Single: a value with one place left in a house."""
    lay, val, cand = board.layout, board.value, board.cand
    for h in scan_order(board):
        once = twice = placed = 0
        for i in h.cells:
            if val[i]:
                placed |= 1 << (val[i] - 1)
                continue
            c = cand[i]
            twice |= once & c
            once |= c
        for b in bits(once & ~twice & ~placed):
            value = b + 1
            cell = next(i for i in h.cells if not val[i] and cand[i] >> b & 1)
            if cand[cell].bit_count() == 1:
                continue          # a naked single, found earlier in the order
            return make_step(lay, "Hidden Single",
                             f"in {h.name}, {lay.sym(value)} can only go in {lay.name(cell)}",
                             placements=[(cell, value)], pattern=[cell], houses=[h.name],
                             say_conclusion=False)
    return None
