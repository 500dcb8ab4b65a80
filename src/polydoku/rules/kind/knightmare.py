"""Knightmare: two cells a chess knight's move apart do not add up to 5 or to 15 (or to the
listed sums), as the knightmare constraint of Rangsk's variant solver
(github.com/dclamage/SudokuSolver, KnightmareConstraint: default sums 5 and 15)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Iterator

from ...errors import BadInput
from ...model.geometry import Geometry, cell_name
from .. import params
from ..base import GlobalRule, real_pairs
from ..globals import move_pairs

KNIGHT = tuple((dr, dc) for dr in (-2, -1, 1, 2) for dc in (-2, -1, 1, 2) if abs(dr) != abs(dc))
DEFAULT_SUMS = (5, 15)


@dataclass(frozen=True)
class Knightmare(GlobalRule):
    """Two cells a knight's move apart add up to none of `sums`."""

    sums: tuple[int, ...] = DEFAULT_SUMS

    kind: ClassVar[str] = "knightmare"
    description: ClassVar[str] = ("two cells a chess knight's move apart do not add up to 5 or "
                                  "15 (or the sums given)")
    aliases: ClassVar[tuple[str, ...]] = ("knight-mare",)
    phrases: ClassVar[tuple[str, ...]] = (r"knightmare",)
    any_values: ClassVar[bool] = True       # `sums` add up the values themselves

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "Knightmare":
        if data.get("sums") is None:
            return cls()
        low, top = geometry.low, geometry.real(geometry.size)   # two different values' sums
        sums = params.int_list(data, "sums", 2 * low + 1, 2 * top - 1, max_len=2 * geometry.size)
        if len(set(sums)) != len(sums):
            raise BadInput("field \"sums\" lists a sum twice")
        return cls(tuple(sorted(sums)))

    def to_data(self) -> str | dict[str, Any]:
        if self.sums == DEFAULT_SUMS:
            return self.kind
        return {"kind": self.kind, "sums": list(self.sums)}

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        for a, b in move_pairs(KNIGHT, geometry):
            p, q = geometry.real(grid[a]), geometry.real(grid[b])
            if grid[a] and grid[b] and p + q in self.sums:
                yield (f"{cell_name(geometry.cell(a))}={p} and {cell_name(geometry.cell(b))}"
                       f"={q}, a knight's move apart, add up to {p + q} ({self.kind})")

    def lower(self, b) -> None:
        for x, y in move_pairs(KNIGHT, b.geometry):
            b.relation(x, y, real_pairs(lambda p, q: p + q not in self.sums, b.geometry))

    def describe(self, geometry: Geometry) -> str:
        return f"{self.kind} ({', '.join(map(str, self.sums))})"

    @classmethod
    def sample(cls, rng: Any, size: int) -> str | dict[str, Any]:
        if rng.random() < 0.5:
            return cls.kind
        sums = rng.sample(range(3, 2 * size), rng.randint(1, 2))
        return {"kind": cls.kind, "sums": sorted(sums)}


KINDS = (Knightmare,)
