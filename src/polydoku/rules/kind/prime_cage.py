"""Prime cages: a cage whose values differ and add up to a prime number (2, 3, 5, 7, 11, …),
its total not given. (Some setters call a cage "prime" when its digits, read as one number,
make a prime; that is another rule, not this one.)"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Iterator

from ...model.geometry import Geometry, cell_name
from ...model.rules import Shape, ShapeKind
from ..base import CellsRule, cells_phrase, where
from ..cells import sets_words
from ..globals import repeats
from .killer_bound import cage_eliminations


def is_prime(k: int) -> bool:
    """Return whether k is a prime number."""
    return k > 1 and all(k % d for d in range(2, int(k ** 0.5) + 1))


@dataclass(frozen=True)
class PrimeCage(CellsRule):
    """The cage's values differ and add up to a prime."""

    kind: ClassVar[str] = "prime-cage"
    description: ClassVar[str] = "a cage's values differ and add up to a prime number"
    aliases: ClassVar[tuple[str, ...]] = ("primecage", "prime-killer")
    phrases: ClassVar[tuple[str, ...]] = (
        r"(?:digits|values|numbers) in (?:a|each|the) (?:\w+ )?cages? (?:must )?(?:sum|add up) "
        r"to a prime",)
    any_values: ClassVar[bool] = True       # the values' own total is the prime

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        idx = [geometry.index(c) for c in self.cells]
        yield from repeats(grid, geometry, idx, f"prime cage at {where(self.cells)}")
        vals = self.complete(grid, geometry)
        if vals is not None and not is_prime(total := sum(map(geometry.real, vals))):
            yield f"the prime cage at {where(self.cells)} adds up to {total}, not a prime"

    def lower(self, b) -> None:
        xs = b.vars(self.cells)
        b.all_different(xs)
        # the indices' total as an auxiliary (fixed by the cells), allowed only the values
        # whose own total (each value its index + offset) is prime
        shift = len(xs) * b.geometry.offset
        total = b.new_var(b.size * len(xs), "total")
        b.linear([*xs, total], [1] * len(xs) + [-1], 0)
        b.unary(total, lambda t: is_prime(t + shift))

    # the same reasoning as a killer cage's: the sets of different values that fit
    technique: ClassVar[str] = "Killer Cage"

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """Cage combinations over every prime total: a candidate no fitting set uses goes."""
        shift = len(self.cells) * geometry.offset       # index totals whose values' is prime
        primes = [t for t in range(geometry.size * len(self.cells) + 1) if is_prime(t + shift)]
        found = cage_eliminations(geometry, self.cells, cands, primes)
        if found is None:
            return None
        drop, sets = found
        fits = [tuple(map(geometry.real, f)) for f in sets]
        return drop, f"the prime cage {cells_phrase(self.cells)} {sets_words(fits)}"

    def describe(self, geometry: Geometry) -> str:
        return f"prime cage at {cell_name(self.cells[0])}"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.CAGE, tuple(geometry.index(c) for c in self.cells), "P",
                      "prime")]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        r, c = rng.randrange(size), rng.randrange(size)
        cells, target = [(r, c)], rng.randint(1, 3)
        for _ in range(20 * target):
            if len(cells) == target:
                break
            r, c = cells[-1]
            r, c = rng.choice(((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)))
            if 0 <= r < size and 0 <= c < size and (r, c) not in cells:
                cells.append((r, c))
        return {"kind": cls.kind, "cells": [cell_name(x) for x in cells]}


KINDS = (PrimeCage,)
