"""The pretty grid: one row per line, with or without `|`, `-`, `+` separators."""

from __future__ import annotations

import re
from typing import Sequence

from ..errors import BadInput
from ..model import Geometry, Puzzle, Rule, default_alphabet
from .line import parse_values

_RULE_LINE = re.compile(r"^[\s\-+=|_:*]*$")


def is_separator(line: str) -> bool:
    """Return whether a line only draws lines between bands."""
    return bool(_RULE_LINE.match(line)) and any(ch in line for ch in "-+=_*")


def parse_grid(text: str, *, rules: Sequence[Rule] = (), alphabet: str | None = None,
               name: str | None = None) -> Puzzle:
    """Return the puzzle drawn as a grid, one row per line."""
    rows: list[tuple[int, str]] = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        if not raw.strip() or is_separator(raw):
            continue
        rows.append((lineno, re.sub(r"[\s|]", "", raw)))
    n = len(rows)
    try:
        geometry = Geometry.of_size(n)
    except BadInput as err:
        raise BadInput(f"a grid of {n} rows: {err.reason}") from None
    alphabet = alphabet or default_alphabet(n)
    values: list[int] = []
    for lineno, row in rows:
        if len(row) != n:
            raise BadInput(f"row has {len(row)} cells, expected {n}", line=lineno)
        try:
            values += parse_values(row, n, alphabet)
        except BadInput as err:
            raise BadInput(err.reason, line=lineno) from None
    return Puzzle(geometry, tuple(values), tuple(rules), alphabet, name)


def write_grid(puzzle: Puzzle, grid: Sequence[int] | None = None, *, separators: bool = True,
               empty: str = ".") -> str:
    """Return a grid (default: the givens) drawn with box separators."""
    g: Geometry = puzzle.geometry
    values = puzzle.givens if grid is None else grid
    n, br, bc = g.size, g.box_rows, g.box_cols
    lines = []
    for r in range(n):
        if separators and r and r % br == 0:
            lines.append("-+-".join(["-" * (2 * bc - 1)] * (n // bc)))
        cells = [puzzle.symbol(values[r * n + c], empty) for c in range(n)]
        if separators:
            lines.append(" | ".join(" ".join(cells[k:k + bc]) for k in range(0, n, bc)))
        else:
            lines.append(" ".join(cells))
    return "\n".join(lines)
