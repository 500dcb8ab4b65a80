"""Pencilmark grids: a puzzle given as every cell's candidates, N symbols per cell, row by row.

Cell k's candidates are the digits among symbols N·k to N·k + N − 1 (`.` for a value struck
out); the usual layout puts value v at place v, but any order is read, as the Interactive
Sudoku Solver reads it. A cell with one candidate is a given; a cell with some is a
`candidates` rule; a cell with none has no solution (bad input naming it). The sizes whose
text length cannot be taken for a line of givens are read: 6x6 (216 symbols), 7x7, 8x8 and 9x9
(729 symbols).
"""

from __future__ import annotations

from typing import Any

from ..errors import BadInput
from ..model import Puzzle

SIZES = {n ** 3: n for n in (6, 7, 8, 9)}


def looks_like_pencilmarks(text: str) -> bool:
    """Return whether text is a pencilmark grid (its length, digits and dots only)."""
    return len(text) in SIZES and all(ch == "." or "1" <= ch <= "9" for ch in text)


def parse_pencilmarks(text: str, *, name: str | None = None) -> Puzzle:
    """Return the puzzle of a pencilmark grid."""
    from .jsonfmt import puzzle_from_dict
    n = SIZES.get(len(text))
    if n is None:
        raise BadInput(f"a pencilmark grid has 216, 343, 512 or 729 symbols, not {len(text)}")
    givens, rules = [], []
    by_marks: dict[tuple[int, ...], list[str]] = {}
    for k in range(n * n):
        where = f"r{k // n + 1}c{k % n + 1}"
        chunk = text[n * k:n * k + n]
        values = sorted({int(ch) for ch in chunk if ch != "."})
        if any(v > n for v in values):
            raise BadInput(f"pencilmarks, {where}: value {values[-1]} on a {n}x{n} grid")
        if not values:
            raise BadInput(f"pencilmarks, {where}: no candidate left")
        givens.append(str(values[0]) if len(values) == 1 else ".")
        if 1 < len(values) < n:
            by_marks.setdefault(tuple(values), []).append(where)
    from ..rules.kind.candidates import Candidates       # the kind, named by its class
    for marks, cells in by_marks.items():
        rules.append({"kind": Candidates.kind, "cells": cells, "values": list(marks)})
    data: dict[str, Any] = {"size": n, "givens": "".join(givens), "rules": rules}
    return puzzle_from_dict(data, name=name)
