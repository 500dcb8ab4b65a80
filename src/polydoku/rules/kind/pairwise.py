"""Pairwise relations, as ISS's `Pair` and `PairX` (and their older spellings `Binary` and
`BinaryX`): a table of the value pairs two cells may hold, asked of each two neighbours along
a line, or of every two cells of a group. Setters write with it what no other kind says (a 1:3
ratio dot, an odd-even thermometer, a renban of doubled values); a nabner line is the relation
"2 or more apart" between every two cells, and is read as `nabner`.

ISS keeps the table as a key: one bit per pair (a, b) of the values 1..N, row by row (a, then
b), six bits to a character of base64url, lowest bit first, trailing zeros left out; the older
spellings swap `-` and `_`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterable, Iterator

from ...errors import BadInput
from ...model.geometry import Cell, Geometry, cell_name
from ..base import CellsRule, pair_support, real_pairs, values_at, where
from ..lines import random_line

BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
LEGACY = str.maketrans("-_", "_-")
ALL_PAIRS = ("PairX", "BinaryX")
MAX_CELLS = 64


def key_pairs(key: str, n: int, legacy: bool = False) -> frozenset[tuple[int, int]]:
    """Return the value pairs an ISS relation key allows on values 1..n."""
    text = key.translate(LEGACY) if legacy else key
    if len(text) > (n * n + 5) // 6 or any(ch not in BASE64URL for ch in text):
        raise BadInput(f"{text[:20]!r} is not an ISS relation key for values 1..{n}")
    bits = [BASE64URL.index(ch) >> k & 1 for ch in text for k in range(6)]
    return frozenset((k // n + 1, k % n + 1) for k, bit in enumerate(bits)
                     if bit and k < n * n)


def pairs_key(pairs: Iterable[tuple[int, int]], n: int) -> str:
    """Return the ISS key of a relation on values 1..n (the inverse of `key_pairs`)."""
    chosen = set(pairs)
    bits = [(a, b) in chosen for a in range(1, n + 1) for b in range(1, n + 1)]
    while bits and not bits[-1]:
        bits.pop()
    return "".join(BASE64URL[sum(1 << k for k, bit in enumerate(bits[i:i + 6]) if bit)]
                   for i in range(0, len(bits), 6))


def named_groups(items: list[str]) -> Iterator[list[str]]:
    """Yield the cell groups of ISS's named groups (`_name` starts a group and names it, an
    empty item ends one); the names are the setter's words and are left out."""
    group: list[str] = []
    for item in items:
        if not item or item.startswith("_"):
            if group:
                yield group
            group = []
        else:
            group.append(item)
    if group:
        yield group


def is_nabner(pairs: frozenset[tuple[int, int]], n: int) -> bool:
    """Return whether a relation is the nabner line's: two values 2 or more apart."""
    return pairs == {(a, b) for a in range(1, n + 1) for b in range(1, n + 1) if abs(a - b) > 1}


@dataclass(frozen=True)
class Pairwise(CellsRule):
    """Two cells the rule relates hold a pair of values its table allows: each two neighbours
    along the line (the first cell's value first), or every two cells when `all_pairs` (the
    table then symmetric, as ISS asks)."""

    pairs: frozenset[tuple[int, int]] = frozenset()
    all_pairs: bool = False

    kind: ClassVar[str] = "pairwise"
    description: ClassVar[str] = ("the cells a pairwise line relates (neighbours along it, or "
                                  "every two) hold value pairs its table allows")
    aliases: ClassVar[tuple[str, ...]] = ("pair-relation", "binary-relation")
    iss: ClassVar[str] = "Pair PairX Binary BinaryX"
    min_cells: ClassVar[int] = 2
    max_cells: ClassVar[int | None] = MAX_CELLS
    line_style: ClassVar[str] = "pairwise"
    drawn_colour: ClassVar[str] = "#8C6BB1"
    # `pairs` are the values themselves; ISS's key counts them by index (its first bit is the
    # lowest value's pair with itself), read and written on the grid's values
    any_values: ClassVar[bool] = True

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "Pairwise":
        cells = cls.read_cells(data, geometry)
        raw = data.get("pairs")
        n, lo, hi = geometry.size, geometry.low, geometry.real(geometry.size)
        if not isinstance(raw, list) or not 1 <= len(raw) <= n * n:
            raise BadInput(f"field \"pairs\" must be a list of 1..{n * n} value pairs [a, b]")
        pairs = set()
        for k, pair in enumerate(raw):
            if not (isinstance(pair, list) and len(pair) == 2
                    and all(type(v) is int and lo <= v <= hi for v in pair)):
                raise BadInput(f"field \"pairs\", item {k + 1}: a pair [a, b] of values "
                               f"{geometry.values_words()}")
            pairs.add((pair[0], pair[1]))
        all_pairs = data.get("all_pairs", False)
        if not isinstance(all_pairs, bool):
            raise BadInput("field \"all_pairs\" must be true or false")
        lone = next((p for p in sorted(pairs) if p[::-1] not in pairs), None)
        if all_pairs and lone:          # every two cells: no order between them to read
            raise BadInput(f"field \"pairs\": with \"all_pairs\" the table is symmetric, "
                           f"but it has {list(lone)} without {list(lone[::-1])}")
        return cls(cells, frozenset(pairs), all_pairs)

    def to_data(self) -> dict[str, Any]:
        out = dict(super().to_data(), pairs=[list(p) for p in sorted(self.pairs)])
        if self.all_pairs:
            out["all_pairs"] = True
        return out

    def related(self) -> Iterator[tuple[int, int]]:
        """Yield the positions (i, j) of the cells the table relates, in that order."""
        n = len(self.cells)
        for i in range(n - 1):
            for j in range(i + 1, n if self.all_pairs else i + 2):
                yield i, j

    def allows(self, a: int, b: int) -> bool:
        """Return whether the values a and b (themselves, not indices) are a pair allowed."""
        return (a, b) in self.pairs

    def lower(self, b) -> None:
        xs = b.vars(self.cells)
        for i, j in self.related():
            b.relation(xs[i], xs[j], real_pairs(self.allows, b.geometry))

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = [geometry.real(v) if v else None for v in values_at(grid, geometry, self.cells)]
        for i, j in self.related():
            a, c = vals[i], vals[j]
            if a is not None and c is not None and not self.allows(a, c):
                yield (f"{cell_name(self.cells[i])}={a} and {cell_name(self.cells[j])}={c} "
                       f"are not a pair the table allows (pairwise line at {where(self.cells)})")

    technique: ClassVar[str] = "Pairwise Relation"
    technique_score: ClassVar[int] = 30
    technique_level: ClassVar[str] = "Medium"

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """A candidate of a cell that no candidate of a related cell pairs with goes, round
        the line until nothing more goes."""
        idx = [geometry.index(c) for c in self.cells]
        keep = [cands[i] for i in idx]
        changed = True
        while changed:
            changed = False
            for i, j in self.related():
                ki, kj = pair_support(keep[i], keep[j], real_pairs(self.allows, geometry))
                if keep[i] & ~ki or keep[j] & ~kj:
                    keep[i] &= ki
                    keep[j] &= kj
                    changed = True
        drop = {x: cands[x] & ~k for x, k in zip(idx, keep) if cands[x] & ~k}
        if not drop:
            return None
        return drop, (f"on the pairwise line from {cell_name(self.cells[0])}, each value needs "
                      f"a partner its table allows")

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell: Callable[[str], str]) -> Any:
        return cls.iss_rules_at(name, args, n, 1, cell)

    @classmethod
    def iss_rules_at(cls, name: str, args: list[str], n: int, low: int,
                     cell: Callable[[str], str]) -> Any:
        """Each group of the item is a rule (its key's index pairs as values from `low`); a
        nabner relation between every two cells is a nabner line."""
        if not args:
            raise BadInput("a relation key and cells are expected")
        pairs = key_pairs(args[0], n, legacy=name.startswith("Binary"))
        if not pairs:
            raise BadInput("the relation allows no pair of values")
        every = name in ALL_PAIRS
        out: list[dict[str, Any]] = []
        for group in named_groups(args[1:]):
            cells = [cell(c) for c in group]
            if len(cells) < 2:
                continue                # a single cell: no pair to relate
            if every and is_nabner(pairs, n):
                out.append({"kind": "nabner", "cells": cells})
                continue
            rule: dict[str, Any] = {"kind": cls.kind, "cells": cells,
                                    "pairs": [[a + low - 1, b + low - 1]
                                              for a, b in sorted(pairs)]}
            if every:
                rule["all_pairs"] = True
            out.append(rule)
        return out

    def iss_items(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        return self.iss_items_on(Geometry.of_size(n), cell)

    def iss_items_on(self, geometry: Geometry, cell: Callable[[Cell], str]) -> list[str]:
        off = geometry.offset                   # ISS's key counts the values by index
        key = pairs_key(((a - off, b - off) for a, b in self.pairs), geometry.nvalues)
        return ["~".join(["PairX" if self.all_pairs else "Pair", key,
                          *(cell(c) for c in self.cells)])]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        values = range(1, size + 1)
        density = rng.choice((0.4, 0.6, 0.8))
        every = rng.random() < 0.4
        pairs = [[a, b] for a in values for b in values
                 if (not every or a <= b) and rng.random() < density]
        if every:                       # every two cells: a symmetric table
            pairs += [[b, a] for a, b in pairs if a != b]
        data: dict[str, Any] = {"kind": cls.kind, "pairs": pairs or [[1, 2], [2, 1]],
                                "cells": random_line(rng, size, rng.randint(2, 3))}
        if every:
            data["all_pairs"] = True
        return data


KINDS = (Pairwise,)
