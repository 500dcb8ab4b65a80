"""ISS's `Replicate` blocks: `.Replicate~<targets>[~origin].Child.Child.End` stands for its
children copied to each target cell, shifted by the target's rows and columns from the origin
(R1C1 by default). The targets are a bitset in ISS's 6-bit alphabet: bit i (bit i % 6 of
character i // 6) is the cell i places after the origin in reading order. polydoku reads each
copy as rules of its own (formats/iss.py reads the children with its cells shifted, an `Or`
among them as it reads one anywhere) and writes them so.
"""

from __future__ import annotations

from ..errors import BadInput
from ..text import one_line

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_OPEN = ("Replicate", "And", "Or")        # ISS's composites: each closes with an `End`


def blocks(items: list[str]) -> dict[int, int]:
    """Return the Replicate blocks of a string's items: the item of each `Replicate` -> the
    item of the `End` that closes it, past the `Or` and `And` inside it and their own `End`s
    (BadInput for a block not closed, or a Replicate inside another)."""
    out: dict[int, int] = {}
    k = 0
    while k < len(items):
        if items[k].split("~")[0] == "Replicate":
            depth, end = 1, k
            while depth:
                end += 1
                if end == len(items):
                    raise BadInput(f"ISS item {k + 1} (Replicate): no End closes it")
                name = items[end].split("~")[0]
                if name == "Replicate":
                    raise BadInput(f"ISS item {end + 1} (Replicate): a Replicate inside "
                                   f"another is not read")
                depth += 1 if name in _OPEN else -1 if items[end] == "End" else 0
            out[k] = end
            k = end
        k += 1
    return out


def targets(args: list[str], width: int, cells: int, origin_of) -> list[tuple[int, int]]:
    """Return the shifts (rows, columns) of a Replicate's copies: `args` are its bitset and
    origin, `origin_of` reads an ISS cell id into (row, column)."""
    if not args or len(args) > 2 or len(args[0]) > cells:
        raise BadInput("a Replicate has its targets and at most an origin cell")
    bits, origin = args[0], origin_of(args[1] if len(args) > 1 else "R1C1")
    if any(ch not in _ALPHABET for ch in bits):
        raise BadInput(f"targets {one_line(bits[:20])!r} are not ISS's 6-bit alphabet")
    start = origin[0] * width + origin[1]
    out = []
    for i in range(6 * len(bits)):
        if _ALPHABET.index(bits[i // 6]) >> (i % 6) & 1:
            if start + i >= cells:
                raise BadInput(f"a Replicate target {i} cells after the origin is outside "
                               f"the grid")
            r, c = divmod(start + i, width)
            out.append((r - origin[0], c - origin[1]))
    return out
