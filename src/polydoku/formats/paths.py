"""Lines drawn in f-puzzles and SudokuPad: a path of cells, named as a kind, becomes rules.

The kinds a line can be named as are those `along_path`, each saying in its `from_path` what a
path through its cells stands for, and in `path_number` which field a number in its name sets
(`whispers:4`). A drawn line may pass a cell twice or cross itself; how that is kept depends on
what the kind's statement reads:
- a relation between near cells along the path (thermometers, whispers, parity, entropic and
  modular lines): the path is cut into pieces of distinct cells that overlap by the kind's
  reach, so every relation along the path is kept;
- a set of cells (renban): the cells, each once;
- mirrored places (palindrome): the cells at mirrored places are equal (clones);
- two ends and the cells between (between, lockout): the middle cells, each once;
- a sum or count over the path (arrows, sum lines, zippers, region sums, double arrows):
  a cell counted once per visit is no rule polydoku has, so the line is refused by name.
A sum line drawn back to its first cell is a loop.
"""

from __future__ import annotations

from typing import Any

from ..errors import BadInput
from ..model.rules import Rule


def _kinds() -> dict[str, type[Rule]]:
    """Return the kinds a drawn line can be named as (`Rule.along_path`)."""
    from ..rules.registry import line_kinds
    return line_kinds()


def _numbers() -> dict[str, str]:
    """Return the line kinds that take a number, with the field it sets (`path_number`)."""
    return {k: c.path_number for k, c in _kinds().items() if c.path_number}


def kinds_help() -> str:
    """Return the line kinds and their numbers, as an error message lists them."""
    kinds = list(_kinds())
    by_field: dict[str, list[str]] = {}
    for kind, field in _numbers().items():
        by_field.setdefault(field, []).append(kind)
    numbers = ", ".join(f"{', '.join(f'{k}:{f[0].upper()}' for k in ks)} for a {f} {f[0].upper()}"
                        for f, ks in by_field.items())
    return f"kinds: {', '.join(kinds)}; {numbers}"


def line_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Return the kind and the parameters a line name stands for: a line kind, or with a
    number for the kinds that take one (`whispers:4`: Dutch whispers; `lockout:4`;
    `sum-line:15`)."""
    kind, _, param = spec.partition(":")
    if kind not in _kinds():
        raise BadInput(f"line kind {kind[:30]!r} is not one polydoku reads from drawn lines "
                       f"({kinds_help()})")
    extra: dict[str, Any] = {}
    if param:
        numbers = _numbers()
        if kind not in numbers or not param.isascii() or not param.isdigit() \
                or len(param) > 2:
            named = ", ".join(list(numbers)[:-1]) + " and " + list(numbers)[-1]
            raise BadInput(f"line kind {spec[:30]!r}: only {named} take a number "
                           f"(whispers:4, lockout:4, sum-line:10)")
        extra[numbers[kind]] = int(param)
    return kind, extra


def line_rule(spec: str, cells: list[str]) -> dict[str, Any]:
    """Return the rule of a named line through distinct cells (a sum line drawn back to its
    first cell is a loop)."""
    kind, extra = line_spec(spec)
    return _kinds()[kind].from_path(cells, extra)[0]


def line_rules(spec: str, cells: list[str]) -> list[dict[str, Any]]:
    """Return the rules a named line stands for, along a path that may pass a cell twice
    (each kind says how: `Rule.from_path`)."""
    kind, extra = line_spec(spec)
    return _kinds()[kind].from_path(cells, extra)
