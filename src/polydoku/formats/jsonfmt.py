"""JSON: `{"size": 9, "box": [3, 3], "givens": "...", "rules": [...]}`.

`rules` holds global rule names and rule objects (`{"kind": "killer", "cells": [...], "sum":
12}`; docs/rules.md lists every kind). `regions` (a string of N² region symbols, or N lists
of cell names) replaces the boxes; `"box": "none"` means no boxes at all; `"values": [0, 8]`
gives the values a grid holds when they are not 1..N (givens are then written in their own
digits, "0" a value and "." an empty cell). Also reads the
fields of `variants.jsonl` (`box_rows`, `box_cols`, `alphabet`, `id`).
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import BadInput
from ..model import Geometry, Puzzle, default_alphabet
from ..rules import rules_from_data
from ..model.geometry import MAX_SIZE, MIN_SIZE, cell_name, parse_cell
from .line import parse_values, size_for_length


def parse_json(text: str, *, name: str | None = None) -> Puzzle:
    """Return the puzzle described by polydoku's own JSON object (`formats.read` also takes
    f-puzzles' and SudokuPad's puzzle JSON)."""
    return puzzle_from_dict(load_json(text), name=name)


def load_json(text: str) -> Any:
    """Return the decoded JSON of a text; malformed JSON is bad input naming its place."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise BadInput(f"malformed JSON: {err.msg}", line=err.lineno, column=err.colno) from None
    except RecursionError:
        raise BadInput("malformed JSON: nested too deeply") from None
    except ValueError as err:           # e.g. an integer of more than 4,300 digits
        raise BadInput(f"malformed JSON: {str(err).split(':')[0].lower()}") from None


def puzzle_from_dict(data: Any, *, name: str | None = None) -> Puzzle:
    """Return the puzzle of a decoded JSON object."""
    if not isinstance(data, dict):
        raise BadInput("JSON puzzle must be an object with a \"givens\" field")
    givens = data.get("givens")
    if isinstance(givens, list):
        givens = "".join(str(x) if x else "." for x in givens)
    if not isinstance(givens, str):
        raise BadInput("JSON puzzle has no \"givens\" string")
    size, ncols = _size(data.get("size") or size_for_length(len(givens)))
    geometry = _geometry(data, size, *_values(data.get("values"), max(size, ncols)), ncols)
    if len(givens) != geometry.ncells:
        raise BadInput(f"JSON \"givens\" has {len(givens)} symbols, expected {geometry.ncells}")
    alphabet = data.get("alphabet") or None
    if alphabet is not None and not isinstance(alphabet, str):
        raise BadInput("JSON \"alphabet\" must be a string")
    for field in ("id", "name", "title"):
        value = data.get(field)
        if value is not None and (isinstance(value, bool) or not isinstance(value, (str, int))):
            raise BadInput(f"JSON \"{field}\" must be text, not {type(value).__name__}")
    title = next((str(data[k]) for k in ("id", "name", "title") if data.get(k) not in (None, "")),
                 name)
    puzzle = Puzzle(geometry, (0,) * geometry.ncells, rules_from_data(data.get("rules"), geometry),
                    alphabet or "", title if isinstance(title, str) else None)
    try:
        values = parse_values(givens, f"{geometry.size}x{geometry.width}", puzzle.alphabet)
    except BadInput as err:
        raise BadInput(f"JSON \"givens\": {err.reason} at symbol {err.column}") from None
    return puzzle.with_givens(values)


def _size(size: Any) -> tuple[int, int]:
    """Return the rows and columns of a JSON "size": N, or [rows, columns] (0 columns for
    a square)."""
    sides = size if isinstance(size, list) and len(size) == 2 else [size]
    if not all(not isinstance(v, bool) and isinstance(v, int) and MIN_SIZE <= v <= MAX_SIZE
               for v in sides):
        raise BadInput(f"JSON \"size\" must be an integer in {MIN_SIZE}..{MAX_SIZE} or "
                       f"[rows, columns]")
    return sides[0], (sides[1] if len(sides) == 2 and sides[1] != sides[0] else 0)


def _geometry(data: dict[str, Any], size: int, low: int = 1, count: int = 0,
              ncols: int = 0) -> Geometry:
    """Return the geometry a JSON puzzle asks for: boxes, irregular regions, or none; its
    values from `low`, `count` of them; `ncols` columns when it is not square."""
    regions = data.get("regions")
    box = data.get("box")
    if regions is not None:
        return Geometry.irregular(size, _regions(regions, size, ncols), low, count, ncols)
    if isinstance(box, str) and box.strip().lower() in ("none", "no", "latin"):
        return Geometry.irregular(size, (), low, count, ncols)
    if ncols and box is None:
        return Geometry.rectangle(size, ncols, low, count)
    if box is None:
        box = [data.get("box_rows"), data.get("box_cols")]
        if not all(box):
            try:
                plain = Geometry.of_size(size)
            except BadInput:
                raise BadInput(f"size {size} has no rectangular box: give \"regions\" or "
                               f"\"box\": \"none\"") from None
            return plain.with_values(low, count)
    if isinstance(box, str) and "x" in box.lower():
        box = box.lower().split("x", 1)
    if (not isinstance(box, (list, tuple)) or len(box) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) or
                       isinstance(v, str) and v.strip().isdigit() and len(v) < 4 for v in box)):
        raise BadInput("JSON \"box\" must be [rows, cols], \"RxC\" or \"none\"")
    return Geometry(size, int(box[0]), int(box[1]), low=low, count=count, ncols=ncols)


def _values(values: Any, size: int) -> tuple[int, int]:
    """Return the first value and the number of values of a JSON "values" field ([low, high],
    at least `size` values: more than a house has cells make each house hold different ones)."""
    if values is None:
        return 1, size
    if (not isinstance(values, list) or len(values) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in values)):
        raise BadInput("JSON \"values\" must be [lowest, highest]")
    low, high = values
    if high - low + 1 < size:
        raise BadInput(f"JSON \"values\" {low}..{high} are {high - low + 1} values; a "
                       f"{size}x{size} grid holds at least {size}")
    return low, high - low + 1


def _regions(regions: Any, size: int, ncols: int = 0) -> list[list[int]]:
    """Return irregular regions as lists of cell indices, from a string of N² region symbols
    or a list of N lists of cell names."""
    width = ncols or size
    if isinstance(regions, str):
        symbols = "".join(regions.split())
        if len(symbols) != size * width:
            raise BadInput(f"JSON \"regions\" has {len(symbols)} symbols, expected {size * width}")
        groups: dict[str, list[int]] = {}
        for i, ch in enumerate(symbols):
            groups.setdefault(ch, []).append(i)
        return list(groups.values())
    if not isinstance(regions, list) or len(regions) > size * width:
        raise BadInput("JSON \"regions\" must be a string of region symbols or lists of cells")
    out = []
    for k, region in enumerate(regions):
        if not isinstance(region, list) or not all(isinstance(c, str) and len(c) < 12 for c in region):
            raise BadInput(f"JSON \"regions\": region {k + 1} must be a list of cell names")
        cells = []
        for c in region:
            r, col = parse_cell(c, None if ncols else size)
            if r >= size or col >= width:
                raise BadInput(f"JSON \"regions\": {cell_name((r, col))} is outside the "
                               f"{size}x{width} grid")
            cells.append(r * width + col)
        out.append(cells)
    return out


def puzzle_to_dict(puzzle: Puzzle) -> dict[str, Any]:
    """Return the JSON object of a puzzle."""
    g = puzzle.geometry
    out: dict[str, Any] = {"size": g.size if g.is_square else [g.size, g.width]}
    if g.is_rectangular:
        out["box"] = [g.box_rows, g.box_cols]
    elif not g.has_boxes:
        out["box"] = "none"
    else:
        out["regions"] = [[cell_name(g.cell(i)) for i in region] for region in g.boxes]
    if g.low != 1 or g.more_values:
        out["values"] = [g.low, g.real(g.nvalues)]
    out["givens"] = "".join(puzzle.symbol(v) for v in puzzle.givens)
    out["rules"] = [r.to_data() for r in puzzle.rules]
    if puzzle.alphabet != default_alphabet(g.nvalues, g.low):
        out["alphabet"] = puzzle.alphabet
    if puzzle.name:
        out["name"] = puzzle.name
    return out


def write_json(puzzle: Puzzle) -> str:
    """Return a puzzle as one line of JSON."""
    return json.dumps(puzzle_to_dict(puzzle))
