"""The two text formats killer puzzles are passed around in on the forums, read as killer cages.

- The short format (enjoysudoku.com, "understandable snarfable killer cages"): 81 symbols, one
  per cell of a 9x9 grid. A cage's total sits in one of its cells (0-9, A-Z for 10-35, a-j for
  36-45); every other cell of the cage points, by an arrow, at a neighbour in the same cage:
  `<` `>` `^` `v` orthogonally, `` ` `` `'` `,` `.` to the up-left, up-right, down-left and
  down-right. Following the arrows leads to the total; a total of 0 is a cage of any total (its
  cells still differ), as the Interactive Sudoku Solver reads it. An arrow off the grid or
  arrows in a loop are errors.
- The long format (SudoCue): `3x3:d:k:` then 81 numbers separated by colons, each
  `256 × total + cage number`; `d` in the second field adds both diagonals, and a 0 total
  leaves the cell out of every cage.

Both are read as a classic 9x9 puzzle with no givens and one `killer` rule per cage. Cells are
named in every error; nothing of the text is kept but the numbers.
"""

from __future__ import annotations

from typing import Any

from ..errors import BadInput
from ..model import Puzzle

N = 9
_ARROWS = {"<": (0, -1), ">": (0, 1), "^": (-1, 0), "v": (1, 0),
           "`": (-1, -1), "'": (-1, 1), ",": (1, -1), ".": (1, 1)}
_SHORT_SYMBOLS = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij") | frozenset(_ARROWS)


def looks_like_killer(text: str) -> bool:
    """Return whether text is a killer puzzle in the short or the long format."""
    t = text.strip()
    if t.startswith("3x3:"):
        return True
    return (len(t) == N * N and any(c in _ARROWS for c in t if c != ".")
            and all(c in _SHORT_SYMBOLS for c in t))


def parse_killer(text: str, *, name: str | None = None) -> Puzzle:
    """Return the killer puzzle of a short- or long-format text."""
    from .jsonfmt import puzzle_from_dict
    t = text.strip()
    data: dict[str, Any] = {"size": N, "givens": "." * (N * N)}
    if t.startswith("3x3:"):
        cages, diagonals = _long(t)
        if diagonals:
            data["rules"] = ["diagonal"]
    else:
        cages = _short(t)
    rules = data.setdefault("rules", [])
    for total, cells in cages:
        cage: dict[str, Any] = {"kind": "killer", "cells": [_name(i) for i in cells]}
        if total:                       # a total of 0: any total (the cells still differ)
            cage["sum"] = total
        rules.append(cage)
    if name:
        data["name"] = name
    return puzzle_from_dict(data, name=name)


def _name(i: int) -> str:
    return f"r{i // N + 1}c{i % N + 1}"


def _total(symbol: str) -> int | None:
    """Return the cage total a symbol writes, or None for an arrow or another symbol."""
    if symbol.isdigit():
        return int(symbol)
    if "A" <= symbol <= "Z":
        return ord(symbol) - ord("A") + 10
    if "a" <= symbol <= "j":
        return ord(symbol) - ord("a") + 36
    return None


def _short(text: str) -> list[tuple[int, list[int]]]:
    """Return the cages (total, cells) of a short-format text."""
    if len(text) != N * N:
        raise BadInput(f"a short-format killer has {N * N} symbols, not {len(text)}")
    step: list[int] = []
    for i, symbol in enumerate(text):
        if symbol not in _SHORT_SYMBOLS:
            raise BadInput(f"killer text, {_name(i)}: {symbol!r} is no cage total nor arrow")
        if symbol in _ARROWS:
            dr, dc = _ARROWS[symbol]
            r, c = i // N + dr, i % N + dc
            if not (0 <= r < N and 0 <= c < N):
                raise BadInput(f"killer text, {_name(i)}: its arrow {symbol!r} points off the grid")
            step.append(r * N + c)
        else:
            step.append(i)
    cages: dict[int, list[int]] = {}
    for i in range(N * N):
        head, seen = i, 0
        while step[head] != head:
            head, seen = step[head], seen + 1
            if seen > N * N:
                raise BadInput(f"killer text, {_name(i)}: its arrows go round in a loop")
        if _total(text[head]) is not None:
            cages.setdefault(head, []).append(i)
    return [(_total(text[head]) or 0, cells) for head, cells in cages.items()]


def _long(text: str) -> tuple[list[tuple[int, list[int]]], bool]:
    """Return the cages (total, cells) of a long-format text, and whether it has diagonals."""
    parts = text.split(":")
    if len(parts) < 3 or parts[2] != "k":
        raise BadInput("a long-format killer starts 3x3::k: (or 3x3:d:k: with diagonals)")
    numbers = parts[3:]
    if numbers and numbers[-1] == "":
        numbers = numbers[:-1]
    if len(numbers) != N * N:
        raise BadInput(f"a long-format killer has {N * N} numbers after 3x3::k:, not {len(numbers)}")
    cages: dict[int, tuple[int, list[int]]] = {}
    for i, field in enumerate(numbers):
        if not field.isascii() or not field.isdigit() or len(field) > 6:
            raise BadInput(f"killer text, {_name(i)}: {field[:10]!r} is not a number")
        total, cage = divmod(int(field), 256)
        if not total:
            continue
        known, cells = cages.setdefault(cage, (total, []))
        if known != total:
            raise BadInput(f"killer text, {_name(i)}: cage {cage} has total {known} elsewhere, "
                           f"{total} here")
        cells.append(i)
    return list(cages.values()), parts[1] == "d"
