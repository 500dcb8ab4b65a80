"""Reading a rule's parameters from JSON, each checked against the grid.

Every reader raises BadInput naming the field; `rule_from_data` adds the rule's place and
kind, and the format reader adds the file and line.
"""

from __future__ import annotations

from typing import Any, Iterable

from ..errors import BadInput
from ..model.geometry import Cell, Geometry, cell_name, parse_cell

_MISSING = object()
BIGGEST = 10 ** 6       # no rule needs a larger number; bigger ones are bad input, not work


def integer(data: dict[str, Any], field: str, lo: int = -BIGGEST, hi: int = BIGGEST,
            default: Any = _MISSING) -> int:
    """Return an integer field within lo..hi (or the default when it is absent)."""
    value = data.get(field, _MISSING)
    if value is _MISSING or value is None:
        if default is _MISSING:
            raise BadInput(f"field \"{field}\" is missing")
        return default
    if isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value) < 10:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"field \"{field}\" must be an integer")
    if not lo <= value <= hi:
        raise BadInput(f"field \"{field}\" is {value if abs(value) < BIGGEST else 'huge'}, "
                       f"outside {lo}..{hi}")
    return value


def choice(data: dict[str, Any], field: str, options: Iterable[str],
           default: Any = _MISSING) -> str:
    """Return a string field that must be one of `options` (case-insensitive)."""
    options = tuple(options)
    value = data.get(field, _MISSING)
    if value is _MISSING or value is None:
        if default is _MISSING:
            raise BadInput(f"field \"{field}\" is missing (one of {', '.join(options)})")
        return default
    if not isinstance(value, str) or value.strip().lower() not in options:
        shown = value[:20] if isinstance(value, str) else type(value).__name__
        raise BadInput(f"field \"{field}\" is {shown!r}, expected one of {', '.join(options)}")
    return value.strip().lower()


def one_cell(data: dict[str, Any], field: str, g: Geometry) -> Cell:
    """Return the 0-based (row, col) of the cell a field names (`"r1c6"`)."""
    value = data.get(field, _MISSING)
    if value is _MISSING:
        raise BadInput(f"field \"{field}\" is missing")
    return _cell(value, field, g)


def _cell(value: Any, field: str, g: Geometry) -> Cell:
    if not isinstance(value, str) or len(value) > 12:
        raise BadInput(f"field \"{field}\": expected a cell name like r1c6")
    try:
        cell = parse_cell(value, g.size if g.is_square else None)
    except BadInput as err:
        raise BadInput(f"field \"{field}\": {err.reason}") from None
    if not g.in_grid(*cell):
        raise BadInput(f"field \"{field}\": cell {value!r} is outside the {g.shape_words()} "
                       f"grid")
    return cell


def cell_list(data: dict[str, Any], field: str, g: Geometry, *, min_len: int = 1,
              max_len: int | None = None, distinct: bool = True,
              default: Any = _MISSING) -> tuple[Cell, ...]:
    """Return the 0-based cells a list field names, in order."""
    value = data.get(field, _MISSING)
    if value is _MISSING or value is None:
        if default is _MISSING:
            raise BadInput(f"field \"{field}\" is missing")
        return default
    if not isinstance(value, list):
        raise BadInput(f"field \"{field}\" must be a list of cell names")
    limit = max_len if max_len is not None else g.ncells
    if not min_len <= len(value) <= limit:
        raise BadInput(f"field \"{field}\" has {len(value)} cells, expected {min_len}..{limit}")
    cells = tuple(_cell(v, field, g) for v in value)
    if distinct and len(set(cells)) != len(cells):
        twice = next(c for c in cells if cells.count(c) > 1)
        raise BadInput(f"field \"{field}\" lists {cell_name(twice)} twice")
    return cells


def int_list(data: dict[str, Any], field: str, lo: int, hi: int, *, min_len: int = 1,
             max_len: int = 64) -> tuple[int, ...]:
    """Return a list field of integers, each within lo..hi."""
    value = data.get(field, _MISSING)
    if not isinstance(value, list) or not min_len <= len(value) <= max_len:
        raise BadInput(f"field \"{field}\" must be a list of {min_len}..{max_len} integers")
    return tuple(integer({field: v}, field, lo, hi) for v in value)


def names(cells: Iterable[Cell]) -> list[str]:
    """Return the names `r1c1` of cells (for `to_data`)."""
    return [cell_name(c) for c in cells]


def orthogonal(a: Cell, b: Cell) -> bool:
    """Return whether two cells share a side."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def neighbours(g: Geometry, cell: Cell) -> list[Cell]:
    """Return the cells sharing a side with a cell."""
    r, c = cell
    return [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if g.in_grid(r + dr, c + dc)]


def in_grid(g: Geometry, cells: Iterable[Cell], field: str = "cells") -> None:
    """Raise BadInput when a cell lies outside the grid."""
    for r, c in cells:
        if not g.in_grid(r, c):
            raise BadInput(f"field \"{field}\": {cell_name((r, c))} is outside the "
                           f"{g.shape_words()} grid")
