"""JSON: `{"size": 9, "box": [3, 3], "givens": "...", "rules": [...]}`.

Also reads the fields of `variants.jsonl` (`box_rows`, `box_cols`, `alphabet`, `id`).
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import BadInput
from ..model import Geometry, Puzzle, default_alphabet, parse_rules
from .line import parse_values, size_for_length


def parse_json(text: str, *, name: str | None = None) -> Puzzle:
    """Return the puzzle described by a JSON object."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise BadInput(f"malformed JSON: {err.msg}", line=err.lineno, column=err.colno) from None
    return puzzle_from_dict(data, name=name)


def puzzle_from_dict(data: Any, *, name: str | None = None) -> Puzzle:
    """Return the puzzle of a decoded JSON object."""
    if not isinstance(data, dict):
        raise BadInput("JSON puzzle must be an object with a \"givens\" field")
    givens = data.get("givens")
    if isinstance(givens, list):
        givens = "".join(str(x) if x else "." for x in givens)
    if not isinstance(givens, str):
        raise BadInput("JSON puzzle has no \"givens\" string")
    size = data.get("size") or size_for_length(len(givens))
    if not isinstance(size, int):
        raise BadInput("JSON \"size\" must be an integer")
    box = data.get("box") or [data.get("box_rows"), data.get("box_cols")]
    geometry = (Geometry(size, int(box[0]), int(box[1])) if all(box) else Geometry.of_size(size))
    if len(givens) != geometry.ncells:
        raise BadInput(f"JSON \"givens\" has {len(givens)} symbols, expected {geometry.ncells}")
    alphabet = data.get("alphabet") or None
    puzzle = Puzzle(geometry, (0,) * geometry.ncells, parse_rules(data.get("rules") or ()),
                    alphabet or "", data.get("id") or data.get("name") or name)
    try:
        values = parse_values(givens, size, puzzle.alphabet)
    except BadInput as err:
        raise BadInput(f"JSON \"givens\": {err.reason} at symbol {err.column}") from None
    return puzzle.with_givens(values)


def puzzle_to_dict(puzzle: Puzzle) -> dict[str, Any]:
    """Return the JSON object of a puzzle."""
    g = puzzle.geometry
    out: dict[str, Any] = {"size": g.size, "box": [g.box_rows, g.box_cols],
                           "givens": "".join(puzzle.symbol(v) for v in puzzle.givens),
                           "rules": [r.name for r in puzzle.rules]}
    if puzzle.alphabet != default_alphabet(g.size):
        out["alphabet"] = puzzle.alphabet
    if puzzle.name:
        out["name"] = puzzle.name
    return out


def write_json(puzzle: Puzzle) -> str:
    """Return a puzzle as one line of JSON."""
    return json.dumps(puzzle_to_dict(puzzle))
