"""Conda-style cell specs, as in the conda experiment: `1x5-is=7 2x1-is=3 …` (1-based row x col)."""

from __future__ import annotations

import re
from typing import Sequence

from ..errors import BadInput
from ..model import Geometry, Puzzle, Rule
from ..model.geometry import MAX_SIZE, MIN_SIZE, box_shape_for
from ..text import shorten, whole_number

SPEC = re.compile(r"^(\d+)x(\d+)-is(?:==?|\s+)(\d+)$", re.ASCII)


def looks_like_specs(text: str) -> bool:
    """Return whether the text is made of `RxC-is=V` specs."""
    tokens = text.split()
    return bool(tokens) and all(SPEC.match(t) for t in tokens)


def _size_at_least(m: int) -> int:
    for n in range(max(m, MIN_SIZE), MAX_SIZE + 1):
        try:
            box_shape_for(n)
            return n
        except BadInput:
            continue
    raise BadInput(f"no grid size fits a cell or value of {m}")


def parse_specs(text: str, *, size: int | None = None, rules: Sequence[Rule] = (),
                name: str | None = None) -> Puzzle:
    """Return the puzzle given by specs; the size is 9 unless `size` or a spec says more."""
    found = []
    for k, token in enumerate(text.split(), 1):
        m = SPEC.match(token)
        if not m:
            raise BadInput(f"bad spec {shorten(token)!r} (spec {k}): expected RxC-is=V")
        numbers = tuple(whole_number(x) for x in m.groups())
        if max(numbers) > MAX_SIZE:
            raise BadInput(f"spec {k} ({shorten(token)}): a row, column or value over "
                           f"{MAX_SIZE}, the largest grid size")
        found.append(numbers)
    largest = max((max(t) for t in found), default=9)
    n = size or _size_at_least(max(9, largest))
    geometry = Geometry.of_size(n)
    givens = [0] * geometry.ncells
    for r, c, v in found:
        if not (1 <= r <= n and 1 <= c <= n and 1 <= v <= n):
            raise BadInput(f"spec {r}x{c}-is={v} is outside the {n}x{n} grid")
        i = (r - 1) * n + c - 1
        if givens[i] and givens[i] != v:
            raise BadInput(f"cell {r}x{c} is given twice ({givens[i]} and {v})")
        givens[i] = v
    return Puzzle(geometry, tuple(givens), tuple(rules), name=name)


def write_specs(puzzle: Puzzle) -> str:
    """Return the givens as conda-style specs, row-major."""
    return " ".join(f"{r + 1}x{c + 1}-is={v}" for (r, c), v in puzzle.given_cells())
