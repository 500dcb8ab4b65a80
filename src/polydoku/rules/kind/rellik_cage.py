"""Rellik cages ("killer" backwards): the cage's values differ, and no one or more of them add
up to its total, as ISS's `RellikCage` ("any combination of one or more digits within the cage
cannot sum to the given value")."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Any, Callable, ClassVar, Iterator

from ...errors import BadInput
from ...model.geometry import Cell, Geometry, cell_name
from ...model.rules import Shape, ShapeKind
from .. import params
from ..base import CellsRule, cells_phrase, where
from ..globals import repeats

MAX_SUBSETS = 4000          # forbidden value sets a cage may stand for (bad input past it)


def subsets_adding_to(n: int, most: int, total: int, limit: int = MAX_SUBSETS, off: int = 0
                      ) -> list[tuple[int, ...]] | None:
    """Return the sets of 1..`most` different value indices of 1..n whose values (index +
    `off`) add up to `total`, or None past `limit` of them. A value of 0 is left out: it adds
    nothing, so a set with it holds a set without it."""
    out: list[tuple[int, ...]] = []

    def grow(start: int, chosen: list[int], left: int) -> bool:
        if left == 0:
            out.append(tuple(chosen))
            return len(out) <= limit
        if len(chosen) == most:
            return True
        for v in range(start, n + 1):
            if v + off > left:
                break
            if v + off <= 0:
                continue
            chosen.append(v)
            going = grow(v + 1, chosen, left - v - off)
            chosen.pop()
            if not going:
                return False
        return True

    return out if grow(1, [], total) else None


def subset_sums(values: list[int]) -> set[int]:
    """Return every sum of some of `values` (the empty choice, 0, included)."""
    sums = {0}
    for v in values:
        sums |= {s + v for s in sums}
    return sums


@dataclass(frozen=True)
class RellikCage(CellsRule):
    """The cage's values differ and no one or more of them add up to the total."""

    total: int = 0

    kind: ClassVar[str] = "rellik-cage"
    cage_total: ClassVar[str] = "sum"
    iss: ClassVar[str] = "RellikCage"
    description: ClassVar[str] = ("a cage's values differ, and no one or more of them add up "
                                  "to its total")
    aliases: ClassVar[tuple[str, ...]] = ("rellik", "rellikcage", "anti-killer")
    phrases: ClassVar[tuple[str, ...]] = (
        r"rellik", r"no (?:combination|subset|set) of (?:one or more )?(?:digits|numbers) "
        r"(?:in|within) (?:a|the) cage (?:can )?(?:sums?|adds? up) to")
    any_values: ClassVar[bool] = True       # it adds up the values themselves (a 0 adds nothing)

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "RellikCage":
        cells = cls.read_cells(data, geometry)
        n = geometry.size
        total = params.integer(data, "sum", 1, max(geometry.real(n), 1) * n)
        if subsets_adding_to(n, len(cells), total, off=geometry.offset) is None:
            raise BadInput(f"field \"sum\": {total} is made by more than {MAX_SUBSETS} sets of "
                           f"values on a {n}x{n} grid")
        return cls(cells, total)

    def to_data(self) -> dict[str, Any]:
        return dict(super().to_data(), sum=self.total)

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        idx = [geometry.index(c) for c in self.cells]
        yield from repeats(grid, geometry, idx, f"rellik cage at {where(self.cells)}")
        placed = sorted({geometry.real(grid[i]) for i in idx if grid[i]})
        if self.total in subset_sums(placed):
            yield (f"some of the values of the rellik cage at {where(self.cells)} add up to "
                   f"{self.total}")

    def lower(self, b) -> None:
        xs = b.vars(self.cells)
        b.all_different(xs)
        off = b.geometry.offset
        sets = subsets_adding_to(b.size, len(xs), self.total, off=off) or []
        for x in xs:
            b.unary(x, lambda a: a + off != self.total)
        sets = [s for s in sets if len(s) > 1]
        if not sets:
            return
        # has[v] is 2 when some cell of the cage holds v: each cell's value is had, and
        # exactly as many values are had as there are cells, so the cells fix every flag
        has = [b.new_var(2, f"has {v}") for v in range(1, b.size + 1)]
        for x in xs:
            for v, flag in enumerate(has, start=1):
                b.nogood(x, v, flag, 1)
        b.linear(has, [1] * len(has), b.size + len(xs))
        for s in sets:
            flags = [has[v - 1] for v in s]
            if len(s) == 2:
                b.nogood(flags[0], 2, flags[1], 2)
            else:
                b.table(flags, [t for t in product((1, 2), repeat=len(s)) if 1 in t])


    technique: ClassVar[str] = "Rellik Cage"
    technique_score: ClassVar[int] = 20
    technique_level: ClassVar[str] = "Easy"
    technique_summary: ClassVar[str] = (
        "a value that would make a rellik cage's total, alone or with values already placed in "
        "the cage, goes from its other cells")

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """A value that would make the total, alone or with some of the values already
        placed in the cage, goes from its other cells."""
        idx = [geometry.index(c) for c in self.cells]
        off = geometry.offset
        placed = [geometry.real(m.bit_length()) for m in (cands[i] for i in idx)
                  if m and not m & (m - 1)]
        sums = subset_sums(sorted(set(placed)))
        bad = sum(1 << (self.total - s - off - 1) for s in sums       # the value total - s
                  if self.total > s and 1 <= self.total - s - off <= geometry.size)
        drop = {i: cands[i] & bad for i in idx if cands[i] & (cands[i] - 1) and cands[i] & bad}
        if not drop:
            return None
        with_ = f" with {' and '.join(map(str, sorted(set(placed))))} placed" if placed else ""
        return drop, (f"no values of the rellik cage {cells_phrase(self.cells)} may add up to "
                      f"{self.total}{with_}")

    def describe(self, geometry: Geometry) -> str:
        return f"rellik cage (not {self.total}) at {cell_name(self.cells[0])}"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.CAGE, tuple(geometry.index(c) for c in self.cells),
                      f"≠{self.total}", "rellik")]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        r, c = rng.randrange(size), rng.randrange(size)
        cells, target = [(r, c)], rng.randint(1, 4)
        for _ in range(20 * target):
            if len(cells) == target:
                break
            r, c = rng.choice(cells)
            r, c = rng.choice(((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)))
            if 0 <= r < size and 0 <= c < size and (r, c) not in cells:
                cells.append((r, c))
        return {"kind": cls.kind, "cells": [cell_name(x) for x in cells],
                "sum": rng.randint(1, 3 * size)}

    @classmethod
    def read_iss(cls, args: list[str], cell: Callable[[str], str]) -> dict[str, Any]:
        if len(args) < 2:
            raise BadInput("a sum and cells are expected")
        return {"kind": cls.kind, "sum": args[0], "cells": [cell(a) for a in args[1:]]}

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        return [str(self.total), *(cell(c) for c in self.cells)]


KINDS = (RellikCage,)
