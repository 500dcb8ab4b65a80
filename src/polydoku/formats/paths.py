"""Lines drawn in f-puzzles and SudokuPad: a path of cells, named as a kind, becomes rules.

A drawn line may pass a cell twice or cross itself. How that is kept depends on what the
kind's statement reads:
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
from ..model.rules import Rule, first_repeated

# line kinds a colour can be named as (polydoku rule kinds whose parameter is a path of cells)
LINE_KINDS = ("whispers", "renban", "palindrome", "thermometer", "slow-thermometer", "between",
              "entropic", "modular", "zipper", "region-sum", "parity", "lockout", "double-arrow",
              "sum-line")
# the kinds a line name gives a number to (`whispers:4`, `lockout:4`, `sum-line:15`)
LINE_NUMBERS = {"whispers": "difference", "lockout": "difference", "sum-line": "sum"}
# how far along the path the kinds that relate near cells reach
REACH = {"thermometer": 1, "slow-thermometer": 1, "whispers": 1, "parity": 1,
         "entropic": 2, "modular": 2}


def _kinds() -> dict[str, type[Rule]]:
    """Return the kinds a drawn line can be named as (`Rule.along_path`)."""
    from ..rules.registry import line_kinds
    return line_kinds()


def _numbers() -> dict[str, str]:
    """Return the line kinds that take a number, with the field it sets."""
    return {**LINE_NUMBERS, **{k: c.path_number for k, c in _kinds().items() if c.path_number}}


def kinds_help() -> str:
    """Return the line kinds and their numbers, as an error message lists them."""
    kinds = dict.fromkeys((*LINE_KINDS, *_kinds()))
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
    if kind not in LINE_KINDS and kind not in _kinds():
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
    if kind not in LINE_KINDS:
        return _kinds()[kind].from_path(cells, extra)[0]
    rule: dict[str, Any] = {"kind": kind, "cells": cells, **extra}
    if kind == "sum-line" and len(cells) > 2 and cells[0] == cells[-1]:
        rule.update(cells=cells[:-1], loop=True)
    return rule


def line_rules(spec: str, cells: list[str]) -> list[dict[str, Any]]:
    """Return the rules a named line stands for, along a path that may pass a cell twice."""
    kind, extra = line_spec(spec)
    if kind not in LINE_KINDS:
        return _kinds()[kind].from_path(cells, extra)
    loop = kind == "sum-line" and len(cells) > 2 and cells[0] == cells[-1]
    if len(set(cells)) == len(cells) - loop:
        return [line_rule(spec, cells)]
    if kind in REACH:
        return [{"kind": kind, "cells": piece, **extra}
                for piece in pieces(cells, REACH[kind], kind)]
    if kind == "renban":
        return [{"kind": kind, "cells": list(dict.fromkeys(cells))}]
    if kind == "palindrome":
        pairs = dict.fromkeys(tuple(sorted((cells[i], cells[-1 - i])))
                              for i in range(len(cells) // 2) if cells[i] != cells[-1 - i])
        return [{"kind": "clone", "cells": [a], "copy": [b]} for a, b in pairs]
    if kind in ("between", "lockout"):
        middle = list(dict.fromkeys(cells[1:-1]))
        ends = {cells[0], cells[-1]}
        if len(ends) == 2 and not ends & set(middle):
            return [{"kind": kind, "cells": [cells[0], *middle, cells[-1]], **extra}]
    raise BadInput(f"a {kind} line from {cells[0]} passes {first_repeated(cells)} twice: its rule "
                   f"counts that cell once per visit, which polydoku cannot say")


def pieces(cells: list[str], reach: int, kind: str) -> list[list[str]]:
    """Return pieces of distinct cells covering every run of `reach` + 1 consecutive cells of
    a path (consecutive pieces share `reach` cells)."""
    out: list[list[str]] = []
    start = 0
    while True:
        end = start
        while end + 1 < len(cells) and cells[end + 1] not in cells[start:end + 1]:
            end += 1
        if end == len(cells) - 1:
            out.append(cells[start:])
            return out
        if end - start < reach:
            raise BadInput(f"a {kind} line from {cells[0]} comes back to {cells[end + 1]} "
                           f"within {reach + 1} cells, which its rule forbids")
        out.append(cells[start:end + 1])
        start = end - reach + 1

