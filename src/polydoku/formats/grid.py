"""The pretty grid: one row per line, with or without `|`, `-`, `+` separators."""

from __future__ import annotations

import re
from typing import Sequence

from ..errors import BadInput
from ..model import Geometry, Puzzle, Rule, default_alphabet
from ..model.geometry import MAX_SIZE, MIN_SIZE
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
    w = len(rows[0][1]) if rows else 0
    rectangle = w != n and MIN_SIZE <= w <= MAX_SIZE and all(len(r) == w for _, r in rows)
    try:
        geometry = Geometry.rectangle(n, w) if rectangle else Geometry.of_size(n)
    except BadInput as err:
        raise BadInput(f"a grid of {n} rows: {err.reason}") from None
    width, nv = geometry.width, geometry.nvalues
    alphabet = alphabet or default_alphabet(nv)
    values: list[int] = []
    for lineno, row in rows:
        if len(row) != width:
            raise BadInput(f"row has {len(row)} cells, expected {width}", line=lineno)
        try:
            values += parse_values(row, f"{n}x{width}", alphabet)
        except BadInput as err:
            raise BadInput(err.reason, line=lineno) from None
    return Puzzle(geometry, tuple(values), tuple(rules), alphabet, name)


def write_grid(puzzle: Puzzle, grid: Sequence[int] | None = None, *, separators: bool = True,
               empty: str = ".") -> str:
    """Return a grid (default: the givens) drawn with box separators."""
    g: Geometry = puzzle.geometry
    values = puzzle.givens if grid is None else grid
    texts = [puzzle.symbol(v, empty) for v in values[:g.ncells]]
    if not separators:
        return draw(texts, g.size, g.size, g.width, cols=g.width)
    return draw(texts, g.size, g.box_rows, g.box_cols, cols=g.width)


def draw(texts: Sequence[str], size: int, box_rows: int, box_cols: int, *,
         frame: bool = False, cols: int = 0) -> str:
    """Return cell texts (row-major) drawn as a grid: each column as wide as its widest text,
    cells apart by a space, boxes ruled off (` | ` and `-+-`; with `frame`, a border too).

    Every text grid polydoku prints is drawn here: solutions, candidates, explanations.
    `cols`: the columns of a rectangular grid of `size` rows."""
    n, w = size, cols or size
    br, bc = (box_rows, box_cols) if box_rows and box_cols else (n, w)
    widths = [max(len(texts[r * w + c]) for r in range(n)) for c in range(w)]
    spans = ["-" * (sum(widths[b:b + bc]) + bc - 1) for b in range(0, w, bc)]
    rule = "+-" + "-+-".join(spans) + "-+" if frame else "-+-".join(spans)
    lines = [rule] if frame else []
    for r in range(n):
        if r and r % br == 0:
            lines.append(rule)
        boxes = [" ".join(texts[r * w + c].ljust(widths[c]) for c in range(b, b + bc))
                 for b in range(0, w, bc)]
        lines.append("| " + " | ".join(boxes) + " |" if frame else " | ".join(boxes).rstrip())
    if frame:
        lines.append(rule)
    return "\n".join(lines)
