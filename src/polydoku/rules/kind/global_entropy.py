"""Global entropy: every 2x2 square of the grid holds a low, a middle and a high value (ISS's
GlobalEntropy: 1-3, 4-6 and 7-9 on a 9x9). Also the shared shape of the whole-grid rules that
ask every 2x2 square for a value of each of three classes (global-modular is the other)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from ...errors import BadInput
from typing import Any, Callable, ClassVar, Iterator

from ...model.geometry import Cell, Geometry, cell_name
from ..base import GlobalRule


@lru_cache(maxsize=16)
def squares(size: int) -> tuple[tuple[int, int, int, int], ...]:
    """Return every 2x2 square of a size x size grid as cell indices, overlapping ones too."""
    return tuple((r * size + c, r * size + c + 1, (r + 1) * size + c, (r + 1) * size + c + 1)
                 for r in range(size - 1) for c in range(size - 1))


@dataclass(frozen=True)
class ThreeClassSquares(GlobalRule):
    """Every 2x2 square holds a value of each of three classes of 1..N."""

    class_words: ClassVar[tuple[str, str, str]] = ("", "", "")
    # the classes are read on value indices (thirds by order, remainders modulo 3), which
    # split any run of N values as they split 1..N; only the remainders' names move
    any_values: ClassVar[bool] = True

    def class_word(self, c: int, geometry: Geometry) -> str:
        """Return the name of class c on a grid (messages)."""
        return self.class_words[c]

    def value_class(self, v: int, n: int) -> int:
        """Return the class (0, 1 or 2) of value index v on a grid of n values."""
        raise NotImplementedError

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        nv = geometry.nvalues
        for square in squares(geometry.size):
            vals = [grid[i] for i in square]
            if 0 in vals:
                continue
            missing = set(range(3)) - {self.value_class(v, nv) for v in vals}
            if missing:
                yield (f"the 2x2 square at {cell_name(geometry.cell(square[0]))} holds no "
                       f"{self.class_word(min(missing), geometry)} value ({self.kind})")

    def lower(self, b) -> None:
        """Per square and class, an auxiliary names the first of the square's four cells that
        holds a value of that class: that cell holds one, the cells before it do not (so
        the auxiliary is fixed by the grid, and a grid is one solution)."""
        nv = b.nvalues
        for k, square in enumerate(squares(b.size)):
            for cls in range(3):
                first = b.new_var(4, f"square {k + 1} class {cls + 1}")
                for j, x in enumerate(square):
                    b.relation(first, x, self._first_ok(j, cls, nv))

    def _first_ok(self, j: int, cls: int, n: int) -> Callable[[int, int], bool]:
        """Return the relation of a square's class-`cls` auxiliary (first cell holding that
        class, 1..4) and the value of its `j`-th cell (0-based), on a grid of n values."""
        def ok(first: int, v: int) -> bool:
            if first - 1 == j:
                return self.value_class(v, n) == cls
            return first - 1 < j or self.value_class(v, n) != cls
        return ok

    @classmethod
    def read_iss(cls, args: list[str], cell: Callable[[str], str]) -> dict[str, Any]:
        return {"kind": cls.kind}

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        if n != 9:
            raise BadInput(f"ISS has {self.iss} on 9x9 grids only")
        return []


@dataclass(frozen=True)
class GlobalEntropy(ThreeClassSquares):
    """Every 2x2 square holds a low, a middle and a high value: the thirds of 1..V (the
    grid's values, more than a house has cells on ISS's `Shape~6x6~9`)."""

    kind: ClassVar[str] = "global-entropy"
    any_count: ClassVar[bool] = True
    iss: ClassVar[str] = "GlobalEntropy"
    description: ClassVar[str] = ("every 2x2 square holds a low, a middle and a high value "
                                  "(thirds of the grid's values)")
    aliases: ClassVar[tuple[str, ...]] = ("entropy", "global-entropic", "entropic-squares")
    phrases: ClassVar[tuple[str, ...]] = (
        r"global entropy",
        r"(every|each|any) 2 ?x ?2 (box|square|region|area)[^.]*\blow\b[^.]*\bmiddle\b[^.]*\bhigh\b",
    )
    class_words: ClassVar[tuple[str, str, str]] = ("low", "middle", "high")

    def iss_items_on(self, geometry: Geometry, cell: Callable[[Cell], str]) -> list[str]:
        if geometry.low != 1 or geometry.nvalues != 9:     # ISS's thirds are 1-3, 4-6, 7-9
            raise BadInput(f"ISS has {self.iss} on the values 1..9 only, not "
                           f"{geometry.values_words()}")
        return self.iss_items(geometry.size, cell)

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        return []

    def value_class(self, v: int, n: int) -> int:
        # the thirds of 1..V when 3 divides V; on other counts the same formula, (v-1)*3 div V
        return (v - 1) * 3 // n


KINDS = (GlobalEntropy,)
