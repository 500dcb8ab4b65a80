"""Killer cages whose total is bounded rather than given: the cage's values differ and add up to
at least `min` and at most `max` (either may be left out). SudokuPad setters write such a
cage's clue as "<15" (less than 15: at most 14), ">20" (at least 21), "≤15" or "≥20"
(`bounds_of_clue` reads those). A cage with no total at all is a `killer` without `sum`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar, Iterable, Iterator, Sequence

from ...errors import BadInput
from ...model.geometry import Cell, Geometry, cell_name
from ...model.rules import Shape, ShapeKind
from .. import params
from ..base import CellsRule, cells_phrase, where
from ..cells import cage_sets, sets_words
from ..globals import repeats

_CLUE = re.compile(r"\s*(<=|>=|≤|≥|<|>)\s*(\d{1,4})\s*")


def bounds_of_clue(text: str) -> dict[str, int] | None:
    """Return the bounds ({"min": .., "max": ..}) a cage clue such as "<15" or "≥20" states,
    or None when the text is no such clue."""
    m = _CLUE.fullmatch(text)
    if m is None:
        return None
    sign, value = m[1], int(m[2])
    return {"<": {"max": value - 1}, "<=": {"max": value}, "≤": {"max": value},
            ">": {"min": value + 1}, ">=": {"min": value}, "≥": {"min": value}}[sign]


def sets_of_totals(n: int, masks: list[int], totals: Iterable[int]
                   ) -> tuple[list[int], list[tuple[int, ...]]] | None:
    """Return, for cells that hold different values 1..n (candidates `masks`) adding up to
    one of `totals`, what each cell can keep and the sets of values that fit; None when a
    total has too many sets to try (`cage_sets`)."""
    keep, fits = [0] * len(masks), []
    for total in totals:
        found = cage_sets(n, masks, total)
        if found is None:
            return None
        kept, sets = found
        keep = [a | b for a, b in zip(keep, kept)]
        fits += sets
    return keep, fits


def cage_eliminations(geometry: Geometry, cells: tuple[Cell, ...], cands: Sequence[int],
                      totals: Iterable[int]
                      ) -> tuple[dict[int, int], list[tuple[int, ...]]] | None:
    """Return what the cage combinations of a cage of different values adding up to one of
    `totals` rule out (cell index -> values that go) and the sets that fit; None when nothing
    goes or a total has too many sets to try."""
    idx = [geometry.index(c) for c in cells]
    found = sets_of_totals(geometry.nvalues, [cands[i] for i in idx], totals)
    if found is None:
        return None
    keep, fits = found
    drop = {i: cands[i] & ~k for i, k in zip(idx, keep) if cands[i] & ~k}
    return (drop, fits) if drop else None


@dataclass(frozen=True)
class KillerBound(CellsRule):
    """The cage's values differ and their total lies within its bounds."""

    low: int | None = None
    high: int | None = None

    kind: ClassVar[str] = "killer-bound"
    any_shape: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    description: ClassVar[str] = ("a cage's values differ and add up to at least its min and "
                                  "at most its max")
    aliases: ClassVar[tuple[str, ...]] = ("inequality-killer", "killer-inequality",
                                          "inequality-cage", "bounded-killer")
    phrases: ClassVar[tuple[str, ...]] = (
        r"(?:cage|clue)s? (?:with|marked|showing) (?:a |an )?(?:inequality|[<>≤≥])",
        r"(?:sum|total) (?:of (?:the )?(?:digits|cage) )?(?:is |must be )?(?:strictly )?"
        r"(?:less|greater|more) than (?:the|its) clue")
    any_values: ClassVar[bool] = True       # its bounds hold the values' own total

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "KillerBound":
        cells = cls.read_cells(data, geometry)
        top = max(geometry.real(geometry.nvalues), 1) * len(cells)
        low = params.integer(data, "min", 0, top, default=None)
        high = params.integer(data, "max", 0, top, default=None)
        if low is None and high is None:
            raise BadInput("field \"min\" or \"max\" is needed (a cage with no total at all "
                           "is a killer without a sum)")
        if low is not None and high is not None and low > high:
            raise BadInput(f"field \"min\" is {low}, above \"max\" {high}")
        return cls(cells, low, high)

    def to_data(self) -> dict[str, Any]:
        out = super().to_data()
        if self.low is not None:
            out["min"] = self.low
        if self.high is not None:
            out["max"] = self.high
        return out

    def clue(self) -> str:
        """Return the bounds as a short clue ("≥10", "≤20", "10..20")."""
        if self.low is not None and self.high is not None:
            return f"{self.low}..{self.high}"
        return f"≥{self.low}" if self.low is not None else f"≤{self.high}"

    def fits(self, total: int) -> bool:
        """Return whether a total lies within the bounds."""
        return ((self.low is None or total >= self.low)
                and (self.high is None or total <= self.high))

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        idx = [geometry.index(c) for c in self.cells]
        yield from repeats(grid, geometry, idx, f"cage at {where(self.cells)}")
        vals = self.complete(grid, geometry)
        if vals is not None and not self.fits(total := sum(map(geometry.real, vals))):
            yield f"the cage at {where(self.cells)} adds up to {total}, not {self.clue()}"

    def lower(self, b) -> None:
        xs = b.vars(self.cells)
        b.all_different(xs)
        shift = len(xs) * b.geometry.offset         # the indices' total is the values' less it
        if self.low is not None:
            b.linear(xs, [1] * len(xs), self.low - shift, ">=")
        if self.high is not None:
            b.linear(xs, [1] * len(xs), self.high - shift, "<=")

    # the same reasoning as a killer cage's: the sets of different values that fit
    technique: ClassVar[str] = "Killer Cage"

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """Cage combinations: a candidate that no set of different values with a total within
        the bounds (placed so that every cell gets one value) uses goes."""
        top = geometry.nvalues * len(self.cells)       # on the indices
        shift = len(self.cells) * geometry.offset
        lo = max((self.low or 0) - shift, 0)
        hi = min(self.high - shift if self.high is not None else top, top)
        found = cage_eliminations(geometry, self.cells, cands, range(lo, hi + 1))
        if found is None:
            return None
        drop, sets = found
        fits = [tuple(map(geometry.real, f)) for f in sets]
        return drop, f"the cage {cells_phrase(self.cells)} ({self.clue()}) {sets_words(fits)}"

    def describe(self, geometry: Geometry) -> str:
        return f"cage ({self.clue()}) at {cell_name(self.cells[0])}"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.CAGE, tuple(geometry.index(c) for c in self.cells),
                      self.clue())]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        picked = rng.sample(range(size * size), rng.randint(1, 4))
        cells = [f"r{i // size + 1}c{i % size + 1}" for i in picked]
        out: dict[str, Any] = {"kind": cls.kind, "cells": cells}
        middle, top = (size + 1) * len(cells) // 2, size * len(cells)
        which = rng.choice(("min", "max", "both"))
        if which != "max":
            out["min"] = min(top, max(0, middle + rng.randint(-size, size // 2)))
        if which != "min":
            out["max"] = min(top, max(out.get("min", 0), middle + rng.randint(-size // 2, size)))
        return out


KINDS = (KillerBound,)
