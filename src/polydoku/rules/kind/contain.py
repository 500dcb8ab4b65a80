"""Cells that must contain values, as ISS's `ContainAtLeast` and `ContainExact`: each listed
value appears among the cells at least (exactly) as often as it is listed; values not listed
are free. A look-and-say clue (ISS's `LookAndSay`) is an exact count written as (count, value)
digit pairs, "1223" = one 2 and two 3s, where a count of 0 keeps a value out. A quadruple
(rules/arrows.py) is the at-least rule of a 2x2 block drawn on its corner; all lower through
the same count (`count_where`)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterator

from ...errors import BadInput
from ...model.geometry import Cell, Geometry, cell_name
from ...model.rules import Shape, ShapeKind
from .. import params
from ..base import CellsRule, count_where, values_at, where


@dataclass(frozen=True)
class ContainAtLeast(CellsRule):
    """Each listed value appears among the cells at least as often as it is listed."""

    values: tuple[int, ...] = ()

    kind: ClassVar[str] = "contain-at-least"
    any_shape: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    iss: ClassVar[str] = "ContainAtLeast"
    description: ClassVar[str] = "the listed values appear among the cells (repeats as listed)"
    aliases: ClassVar[tuple[str, ...]] = ("containatleast", "contains")
    phrases: ClassVar[tuple[str, ...]] = (
        r"(?:digits|numbers) (?:shown |given )?in the (?:cage|region|box) (?:must )?"
        r"(?:appear|be placed) (?:somewhere )?(?:in|within) it",)
    op: ClassVar[str] = ">="
    words: ClassVar[str] = "at least"
    any_values: ClassVar[bool] = True       # `values` are the values themselves

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "ContainAtLeast":
        cells = cls.read_cells(data, geometry)
        values = params.int_list(data, "values", geometry.low, geometry.real(geometry.size),
                                 max_len=geometry.ncells)
        if len(values) > len(cells):
            raise BadInput(f"field \"values\" lists {len(values)} values for {len(cells)} cells")
        return cls(cells, tuple(sorted(values)))

    def to_data(self) -> dict[str, Any]:
        return dict(super().to_data(), values=list(self.values))

    def counts(self) -> dict[int, int]:
        """Return how often each named value is to appear."""
        return dict(sorted(Counter(self.values).items()))

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = values_at(grid, geometry, self.cells)
        for v, times in self.counts().items():
            placed = vals.count(v - geometry.offset)        # v's index
            if placed + vals.count(0) < times or (self.op == "==" and placed > times):
                yield (f"the cells at {where(self.cells)} hold {v} {placed} time(s), not "
                       f"{self.words} {times} ({self.kind})")

    def lower(self, b) -> None:
        xs = b.vars(self.cells)
        for v, times in self.counts().items():
            count_where(b, xs, (v - b.geometry.offset).__eq__, f"is {v}", self.op, times)

    def describe(self, geometry: Geometry) -> str:
        return f"{self.kind} {'/'.join(map(str, self.values))} at {cell_name(self.cells[0])}"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.CAGE, tuple(geometry.index(c) for c in self.cells),
                      ",".join(map(str, self.values)), self.kind)]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        picked = rng.sample(range(size * size), rng.randint(1, 5))
        values = rng.choices(range(1, size + 1), k=rng.randint(1, min(3, len(picked))))
        return {"kind": cls.kind, "cells": [f"r{i // size + 1}c{i % size + 1}" for i in picked],
                "values": sorted(values)}

    @classmethod
    def read_iss(cls, args: list[str], cell: Callable[[str], str]) -> dict[str, Any]:
        if len(args) < 2:
            raise BadInput("values and cells are expected")
        return {"kind": cls.kind, "values": args[0].split("_"),
                "cells": [cell(a) for a in args[1:]]}

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        return ["_".join(map(str, self.values)), *(cell(c) for c in self.cells)]


@dataclass(frozen=True)
class ContainExact(ContainAtLeast):
    """Each listed value appears among the cells exactly as often as it is listed."""

    kind: ClassVar[str] = "contain-exact"
    any_shape: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    iss: ClassVar[str] = "ContainExact"
    description: ClassVar[str] = ("the listed values appear among the cells exactly as often "
                                  "as listed")
    aliases: ClassVar[tuple[str, ...]] = ("containexact",)
    phrases: ClassVar[tuple[str, ...]] = ()
    op: ClassVar[str] = "=="
    words: ClassVar[str] = "exactly"


@dataclass(frozen=True)
class LookAndSay(ContainExact):
    """The clue's (count, value) digit pairs: each value appears exactly that often."""

    absent: tuple[int, ...] = ()            # the values of a count of 0

    kind: ClassVar[str] = "look-and-say"
    any_shape: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    iss: ClassVar[str] = "LookAndSay"
    description: ClassVar[str] = ("the clue's digit pairs (count, value) say how often each "
                                  "value appears among the cells")
    aliases: ClassVar[tuple[str, ...]] = ("lookandsay", "look-say")
    phrases: ClassVar[tuple[str, ...]] = (r"look[- ]and[- ]say",)

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "LookAndSay":
        cells = cls.read_cells(data, geometry)
        clue = data.get("clue")
        if isinstance(clue, int) and not isinstance(clue, bool):
            clue = str(clue)
        if not isinstance(clue, str) or not re.fullmatch(r"(?:\d\d){1,9}", clue):
            raise BadInput("field \"clue\" must be (count, value) digit pairs, like \"1223\"")
        pairs = [(int(clue[k]), int(clue[k + 1])) for k in range(0, len(clue), 2)]
        for _, v in pairs:
            if not geometry.low <= v <= geometry.real(geometry.nvalues):
                raise BadInput(f"field \"clue\" names the value {v}, outside "
                               f"{geometry.values_words()}")
        if len({v for _, v in pairs}) < len(pairs):
            raise BadInput("field \"clue\" names a value twice")
        if sum(t for t, _ in pairs) > len(cells):
            raise BadInput(f"field \"clue\" asks for more values than the {len(cells)} cells")
        values = tuple(v for times, v in sorted(pairs, key=lambda p: p[1]) for _ in range(times))
        return cls(cells, values, tuple(sorted(v for times, v in pairs if not times)))

    def clue(self) -> str:
        """Return the clue as ISS writes it: (count, value) pairs by value."""
        return "".join(f"{t}{v}" for v, t in self.counts().items())

    def counts(self) -> dict[int, int]:
        return dict(sorted({**Counter(self.values), **{v: 0 for v in self.absent}}.items()))

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "cells": params.names(self.cells), "clue": self.clue()}

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.CAGE, tuple(geometry.index(c) for c in self.cells),
                      self.clue(), self.kind)]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        picked = rng.sample(range(size * size), rng.randint(1, 5))
        values = rng.sample(range(1, size + 1), rng.randint(1, 2))
        times = [rng.randint(0, 2) for _ in values]
        while sum(times) > len(picked):
            times[0] = 0
            times = times[::-1]
        return {"kind": cls.kind, "cells": [f"r{i // size + 1}c{i % size + 1}" for i in picked],
                "clue": "".join(f"{t}{v}" for t, v in zip(times, values))}

    @classmethod
    def read_iss(cls, args: list[str], cell: Callable[[str], str]) -> dict[str, Any]:
        if len(args) < 2:
            raise BadInput("a clue and cells are expected")
        return {"kind": cls.kind, "clue": args[0], "cells": [cell(a) for a in args[1:]]}

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        return [self.clue(), *(cell(c) for c in self.cells)]


KINDS = (ContainAtLeast, ContainExact, LookAndSay)
