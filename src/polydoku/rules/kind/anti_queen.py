"""Anti-queen: two cells a chess queen's move apart do not hold the same value, for every value
or for the listed ones only ("9s are anti-queen"). Rows and columns differ already, so what it
adds is the diagonals, of any length. This is the chess constraint of Rangsk's variant solver
(github.com/dclamage/SudokuSolver, ChessConstraint: a set of symmetric offsets and optional
values) with the queen's diagonal offsets."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, Iterator

from ...errors import BadInput
from ...model.geometry import Geometry, cell_name
from .. import params
from ..base import GlobalRule


@lru_cache(maxsize=16)
def diagonals(size: int) -> tuple[tuple[int, ...], ...]:
    """Return every diagonal and anti-diagonal of two cells or more, as cell indices."""
    out = []
    for d in range(-(size - 2), size - 1):              # column - row = d
        out.append(tuple(r * size + r + d for r in range(size) if 0 <= r + d < size))
    for s in range(1, 2 * size - 2):                    # row + column = s
        out.append(tuple(r * size + s - r for r in range(size) if 0 <= s - r < size))
    return tuple(out)


@dataclass(frozen=True)
class AntiQueen(GlobalRule):
    """Two cells on one diagonal do not both hold the same value (of `values`; () = all)."""

    values: tuple[int, ...] = ()

    kind: ClassVar[str] = "anti-queen"
    description: ClassVar[str] = ("two cells a chess queen's move apart differ (for the listed "
                                  "values only, when values are given)")
    aliases: ClassVar[tuple[str, ...]] = ("antiqueen", "queen")
    any_values: ClassVar[bool] = True       # `values` are the values themselves

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "AntiQueen":
        if data.get("values") is None:
            return cls()
        values = params.int_list(data, "values", geometry.low, geometry.real(geometry.size),
                                 max_len=geometry.size)
        if len(set(values)) != len(values):
            raise BadInput("field \"values\" lists a value twice")
        every = len(values) == geometry.size
        return cls(() if every else tuple(sorted(values)))

    def to_data(self) -> str | dict[str, Any]:
        return {"kind": self.kind, "values": list(self.values)} if self.values else self.kind

    def applies(self, v: int, g: Geometry) -> bool:
        """Return whether the value of index v may not repeat along a diagonal."""
        return bool(v) and (not self.values or g.real(v) in self.values)

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        for line in diagonals(geometry.size):
            seen: dict[int, int] = {}
            for i in line:
                v = grid[i]
                if not self.applies(v, geometry):
                    continue
                if v in seen:
                    yield (f"{cell_name(geometry.cell(seen[v]))} and {cell_name(geometry.cell(i))}"
                           f" both hold {geometry.real(v)} on one diagonal ({self.kind})")
                else:
                    seen[v] = i

    def lower(self, b) -> None:
        for line in diagonals(b.size):
            if not self.values:
                b.all_different(line)
                continue
            for k, x in enumerate(line):
                for y in line[k + 1:]:
                    for v in self.values:
                        i = v - b.geometry.offset       # the value's index
                        b.nogood(x, i, y, i)

    def describe(self, geometry: Geometry) -> str:
        if not self.values:
            return self.kind
        return f"{self.kind} ({', '.join(map(str, self.values))})"

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        # one or two values: every value at once leaves few grids or none (no 4x4 at all)
        values = rng.sample(range(1, size + 1), rng.choice((1, 1, 2)))
        return {"kind": cls.kind, "values": sorted(values)}


KINDS = (AntiQueen,)
