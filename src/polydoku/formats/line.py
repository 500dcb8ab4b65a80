"""The one-line format: N² symbols, `.` or `0` for an empty cell, 1-9 then A-Z above 9."""

from __future__ import annotations

import math
from collections import Counter
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


def parse_values(text: str, shape: str, alphabet: str, *, column0: int = 1) -> tuple[int, ...]:
    """Return the values of a string of symbols (0 for empty), naming the column of a bad symbol
    and the grid's shape (such as "6x4")."""
    lookup = _symbols(alphabet)
    out = tuple(map(lookup.get, text, [-1] * len(text)))
    if -1 in out:
        k = out.index(-1)
        raise BadInput(f"bad symbol {text[k]!r} for a {shape} grid "
                       f"(allowed: {alphabet} and . or 0 for empty)", column=column0 + k)
    return out


def jigsaw_parts(text: str) -> tuple[str, str, int] | None:
    """Return (givens, layout, N) when text is a jigsaw line, N² symbols and then N² region
    symbols, N of them N times each, a space between or none (as ISS writes one); else None."""
    words = text.split()
    if len(words) not in (1, 2):
        return None
    body = "".join(words)
    half, odd = divmod(len(body), 2)
    n = math.isqrt(half)
    if odd or n * n != half or not MIN_SIZE <= n <= MAX_SIZE \
            or len(words) == 2 and len(words[0]) != half:
        return None
    counts = Counter(body[half:])
    if len(counts) != n or any(k != n for k in counts.values()):
        return None
    return body[:half], body[half:], n


def parse_line(text: str, *, rules: Sequence[Rule] = (), alphabet: str | None = None,
               box: tuple[int, int] | None = None, name: str | None = None) -> Puzzle:
    """Return the puzzle written as one line of N² symbols (or a jigsaw line: the givens, then
    the region of each cell)."""
    body = text.strip()
    jigsaw = jigsaw_parts(body)
    if jigsaw is not None:
        body, layout, n = jigsaw
        regions: dict[str, list[int]] = {ch: [] for ch in layout}     # in first-seen order
        for i, ch in enumerate(layout):
            regions[ch].append(i)
        geometry = Geometry.irregular(n, [tuple(cells) for cells in regions.values()])
    else:
        n = size_for_length(len(body))
        geometry = Geometry(n, *box) if box else Geometry.of_size(n)
    alphabet = alphabet or _letters_alphabet(body, n) or default_alphabet(n)
    return Puzzle(geometry, parse_values(body, f"{n}x{n}", alphabet), tuple(rules), alphabet, name)


def _letters_alphabet(body: str, n: int) -> str | None:
    """Return A, B, C… for values 1..N when a line of a grid past 9x9 writes its values as
    letters only, some past the default symbols' (ISS writes a 16x16 with A..P); else None."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXY"[:n]
    used = set(body.upper()) - set(EMPTY)
    if n <= 9 or not used or not used <= set(letters) or used <= set(default_alphabet(n)):
        return None
    return letters


def write_line(puzzle: Puzzle, grid: Sequence[int] | None = None, empty: str = ".") -> str:
    """Return a grid (default: the givens) as one line of symbols."""
    values = puzzle.givens if grid is None else grid
    symbols = [empty, *puzzle.alphabet]
    return "".join([symbols[v] for v in values])
