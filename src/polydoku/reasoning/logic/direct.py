"""Sudoku Explainer's cheap techniques, for its rating: singles with their house, and the
"direct" techniques (a pointing, a claiming or a hidden pair or triple that leaves a hidden
single, taken as that single).

Each finder returns (value on Sudoku Explainer's scale, step) for the cheapest instance on the
board, or None; none changes the board. Only rows, columns and boxes are read: the rating they
serve is for classic puzzles.
"""

from __future__ import annotations

from itertools import combinations

from .board import Board, House, bits
from .step import Step, make_step

Rated = tuple[float, Step]


def _lines(board: Board) -> tuple[list[House], list[House], list[House]]:
    """Return the boxes, rows and columns of the board's layout."""
    lines = board.layout.lines
    return list(lines["box"]), list(lines["row"]), list(lines["column"])


def find_hidden_single(board: Board) -> Rated | None:
    """Return the cheapest hidden single: the last empty cell of a house (1.0), a value with
    one place in a box (1.2), in a row or column (1.5)."""
    lay, val = board.layout, board.value
    boxes, rows, cols = _lines(board)
    for h in [*boxes, *rows, *cols]:
        empty = [i for i in h.cells if not val[i]]
        if len(empty) == 1 and board.cand[empty[0]].bit_count() == 1:
            i = empty[0]
            return 1.0, make_step(lay, "Full House", f"{lay.name(i)} is the last empty cell of "
                                  f"{h.name}", placements=[(i, board.cand[i].bit_length())],
                                  pattern=[i], houses=[h.name])
    for value_of_house, houses in ((1.2, boxes), (1.5, [*rows, *cols])):
        for h in houses:
            for v in range(1, lay.size + 1):
                places = board.places(h, v)
                if len(places) == 1:
                    return value_of_house, make_step(
                        lay, "Hidden Single", f"in {h.name}, {lay.sym(v)} can only go in "
                        f"{lay.name(places[0])}", placements=[(places[0], v)],
                        pattern=places, houses=[h.name], say_conclusion=False)
    return None


def find_naked_single(board: Board) -> Rated | None:
    """Return a naked single (2.3)."""
    lay = board.layout
    for i in board.unsolved():
        c = board.cand[i]
        if c and not c & (c - 1):
            return 2.3, make_step(lay, "Naked Single", f"{lay.name(i)} can only be "
                                  f"{lay.sym(c.bit_length())}", placements=[(i, c.bit_length())],
                                  pattern=[i], say_conclusion=False)
    return None


def _direct_locking(board: Board, firsts: list[House], seconds: list[House], name: str,
                    value: float) -> Rated | None:
    """Return a locking (a value's places in a house of `firsts` inside one of `seconds`) that
    leaves the value one place in another house of `firsts` crossing it."""
    lay = board.layout
    for v in range(1, lay.size + 1):
        for h1 in firsts:
            places = board.place_mask(h1, v)
            if places.bit_count() < 2:
                continue
            for h2 in seconds:
                if places & ~h2.mask:
                    continue
                for h3 in firsts:
                    if h3 is h1 or not h3.mask & h2.mask:
                        continue
                    p3 = board.place_mask(h3, v)
                    left = p3 & ~h2.mask
                    if p3.bit_count() > 1 and left.bit_count() == 1:
                        cell = left.bit_length() - 1
                        return value, make_step(
                            lay, name, f"in {h1.name}, {lay.sym(v)} lies only in {h2.name}, so "
                            f"in {h3.name} it can only go in {lay.name(cell)}",
                            placements=[(cell, v)], houses=[h1.name, h2.name, h3.name],
                            pattern_candidates=[(i, v) for i in bits(places)],
                            say_conclusion=False)
    return None


def find_direct_pointing(board: Board) -> Rated | None:
    """Return a direct pointing (1.7) or, failing that, a direct claiming (1.9)."""
    boxes, rows, cols = _lines(board)
    return (_direct_locking(board, boxes, [*rows, *cols], "Direct Pointing", 1.7)
            or _direct_locking(board, rows, boxes, "Direct Claiming", 1.9)
            or _direct_locking(board, cols, boxes, "Direct Claiming", 1.9))


def find_direct_hidden(board: Board, k: int) -> Rated | None:
    """Return a direct hidden pair (k=2, 2.0) or triple (k=3, 2.5): k values confined to k
    cells of a house, which leave another value one place in that house."""
    lay = board.layout
    boxes, rows, cols = _lines(board)
    for h in [*boxes, *cols, *rows]:
        empty = [i for i in h.cells if not board.value[i]]
        if len(empty) <= k:
            continue
        masks = {v: board.place_mask(h, v) for v in range(1, lay.size + 1)}
        open_values = [v for v, m in masks.items() if m]
        for values in combinations(open_values, k):
            union = 0
            for v in values:
                union |= masks[v]
            if union.bit_count() != k:
                continue
            for w in open_values:
                left = masks[w] & ~union
                if w in values or masks[w].bit_count() < 2 or left.bit_count() != 1:
                    continue
                cell = left.bit_length() - 1
                name = "Direct Hidden Pair" if k == 2 else "Direct Hidden Triple"
                vs = "/".join(lay.sym(v) for v in values)
                return (2.0 if k == 2 else 2.5), make_step(
                    lay, name, f"in {h.name}, {vs} fill {', '.join(lay.name(i) for i in bits(union))}"
                    f", so {lay.sym(w)} can only go in {lay.name(cell)}", placements=[(cell, w)],
                    pattern_candidates=[(i, v) for v in values for i in bits(masks[v])],
                    houses=[h.name], say_conclusion=False)
    return None
