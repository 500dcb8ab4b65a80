"""The one-line format: N² symbols, `.` or `0` for an empty cell, 1-9 then A-Z above 9."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Sequence

from ..errors import BadInput
from ..model import Geometry, Puzzle, Rule, default_alphabet
from ..model.geometry import MAX_SIZE, MIN_SIZE

EMPTY = ".0"


def size_for_length(length: int) -> int:
    """Return N for a line of N² symbols (bad input when no allowed N fits)."""
    n = math.isqrt(length)
    if n * n != length or not MIN_SIZE <= n <= MAX_SIZE:
        raise BadInput(f"wrong length: {length} symbols, expected N² for N in "
                       f"{MIN_SIZE}..{MAX_SIZE} (81 for 9x9)")
    return n


@lru_cache(maxsize=32)
def _symbols(alphabet: str) -> dict[str, int]:
    """Return the value of each symbol of an alphabet (lower case too for letters; . and 0,
    unless the alphabet uses them, for empty)."""
    lookup = {ch: k + 1 for k, ch in enumerate(alphabet)}
    if alphabet.isupper() or alphabet.isascii() and alphabet.isdigit():
        lookup.update({ch.lower(): k + 1 for k, ch in enumerate(alphabet) if ch.isalpha()})
    for ch in EMPTY:
        lookup.setdefault(ch, 0)
    return lookup


def parse_values(text: str, size: int, alphabet: str, *, column0: int = 1) -> tuple[int, ...]:
    """Return the values of a string of symbols (0 for empty), naming the column of a bad symbol."""
    lookup = _symbols(alphabet)
    out = tuple(map(lookup.get, text, [-1] * len(text)))
    if -1 in out:
        k = out.index(-1)
        raise BadInput(f"bad symbol {text[k]!r} for a {size}x{size} grid "
                       f"(allowed: {alphabet} and . or 0 for empty)", column=column0 + k)
    return out


def parse_line(text: str, *, rules: Sequence[Rule] = (), alphabet: str | None = None,
               box: tuple[int, int] | None = None, name: str | None = None) -> Puzzle:
    """Return the puzzle written as one line of N² symbols."""
    body = text.strip()
    n = size_for_length(len(body))
    alphabet = alphabet or default_alphabet(n)
    geometry = Geometry(n, *box) if box else Geometry.of_size(n)
    return Puzzle(geometry, parse_values(body, n, alphabet), tuple(rules), alphabet, name)


def write_line(puzzle: Puzzle, grid: Sequence[int] | None = None, empty: str = ".") -> str:
    """Return a grid (default: the givens) as one line of symbols."""
    values = puzzle.givens if grid is None else grid
    symbols = [empty, *puzzle.alphabet]
    return "".join([symbols[v] for v in values])
