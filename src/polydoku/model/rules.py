"""Variant rules: what each rule relates in a grid, and an independent check of a full grid.

A rule knows its geometry (which cells it ties together) and how to check a finished grid.
Turning rules into solver constraints is the problem layer's job, so new rules (cages,
thermometers, arrows, irregular regions) add a class here and a compiler there, and no engine
changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar, Iterator, Sequence

from ..errors import BadInput
from .geometry import Geometry, cell_name

Grid = Sequence[int]


class Rule:
    """A variant rule on top of the classic rows, columns and boxes."""

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""

    def violations(self, grid: Grid, geometry: Geometry) -> Iterator[str]:
        """Yield one sentence for each place where `grid` breaks this rule (0 = empty, ignored)."""
        raise NotImplementedError

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class DistinctPairsRule(Rule):
    """A rule saying that cells a fixed set of moves apart hold different values."""

    offsets: ClassVar[tuple[tuple[int, int], ...]] = ()

    def pairs(self, geometry: Geometry) -> tuple[tuple[int, int], ...]:
        """Return the cell-index pairs (a < b) that must hold different values."""
        return _move_pairs(self.offsets, geometry)

    def violations(self, grid: Grid, geometry: Geometry) -> Iterator[str]:
        for a, b in self.pairs(geometry):
            if grid[a] and grid[a] == grid[b]:
                yield (f"{cell_name(geometry.cell(a))} and {cell_name(geometry.cell(b))} both "
                       f"hold {grid[a]} ({self.name})")


@lru_cache(maxsize=64)
def _move_pairs(offsets: tuple[tuple[int, int], ...], geometry: Geometry) -> tuple[tuple[int, int], ...]:
    """Return the cell-index pairs (a < b) a move of `offsets` apart (cached: verify asks per grid)."""
    n = geometry.size
    out = set()
    for r in range(n):
        for c in range(n):
            for dr, dc in offsets:
                if geometry.in_grid(r + dr, c + dc):
                    a, b = r * n + c, (r + dr) * n + c + dc
                    out.add((min(a, b), max(a, b)))
    return tuple(sorted(out))


_KNIGHT = tuple((dr, dc) for dr in (-2, -1, 1, 2) for dc in (-2, -1, 1, 2) if abs(dr) != abs(dc))
_KING = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))


@dataclass(frozen=True)
class AntiKnight(DistinctPairsRule):
    """Two cells a chess knight's move apart differ."""

    name: ClassVar[str] = "anti-knight"
    description: ClassVar[str] = "two cells a chess knight's move apart differ"
    offsets: ClassVar[tuple[tuple[int, int], ...]] = _KNIGHT


@dataclass(frozen=True)
class AntiKing(DistinctPairsRule):
    """Two cells a chess king's move apart differ."""

    name: ClassVar[str] = "anti-king"
    description: ClassVar[str] = "two cells a chess king's move apart differ"
    offsets: ClassVar[tuple[tuple[int, int], ...]] = _KING


@dataclass(frozen=True)
class NonConsecutive(Rule):
    """Orthogonally adjacent cells do not differ by exactly 1."""

    name: ClassVar[str] = "non-consecutive"
    description: ClassVar[str] = "orthogonally adjacent cells do not differ by exactly 1"

    def pairs(self, geometry: Geometry) -> tuple[tuple[int, int], ...]:
        """Return the orthogonally adjacent cell-index pairs (a < b)."""
        return _move_pairs(((0, 1), (1, 0)), geometry)

    def violations(self, grid: Grid, geometry: Geometry) -> Iterator[str]:
        for a, b in self.pairs(geometry):
            if grid[a] and grid[b] and abs(grid[a] - grid[b]) == 1:
                yield (f"{cell_name(geometry.cell(a))}={grid[a]} and "
                       f"{cell_name(geometry.cell(b))}={grid[b]} are consecutive ({self.name})")


@dataclass(frozen=True)
class Diagonal(Rule):
    """Each main diagonal holds every value once (X-sudoku)."""

    name: ClassVar[str] = "diagonal"
    description: ClassVar[str] = "each main diagonal holds every value once"

    def units(self, geometry: Geometry) -> tuple[tuple[int, ...], ...]:
        """Return the two main diagonals as tuples of cell indices."""
        n = geometry.size
        return (tuple(i * n + i for i in range(n)), tuple(i * n + n - 1 - i for i in range(n)))

    def violations(self, grid: Grid, geometry: Geometry) -> Iterator[str]:
        for k, unit in enumerate(self.units(geometry)):
            seen: dict[int, int] = {}
            for i in unit:
                if not grid[i]:
                    continue
                if grid[i] in seen:
                    yield (f"{cell_name(geometry.cell(seen[grid[i]]))} and "
                           f"{cell_name(geometry.cell(i))} both hold {grid[i]} "
                           f"({'main' if k == 0 else 'anti'} diagonal)")
                seen[grid[i]] = i


RULES: dict[str, type[Rule]] = {cls.name: cls for cls in (AntiKnight, AntiKing, NonConsecutive, Diagonal)}


def parse_rules(text: str | Sequence[str] | None) -> tuple[Rule, ...]:
    """Return the rules named in a comma-separated string or a list (unknown names are bad input)."""
    if not text:
        return ()
    names = text.split(",") if isinstance(text, str) else list(text)
    out: list[Rule] = []
    for raw in names:
        name = raw.strip().lower().replace("_", "-")
        if not name:
            continue
        name = {"antiknight": "anti-knight", "antiking": "anti-king", "nonconsecutive":
                "non-consecutive", "x": "diagonal", "diagonals": "diagonal"}.get(name, name)
        if name not in RULES:
            raise BadInput(f"unknown rule {raw.strip()!r} (known: {', '.join(RULES)})")
        rule = RULES[name]()
        if rule not in out:
            out.append(rule)
    return tuple(out)
