"""A clue on the regions of a chaos construction (chaos_construction.py) themselves, as ISS
writes it with its region cells (`CC19`, the region of the 19th cell in reading order):
chaos-same-region, the listed cells lie in one region (ISS's `SameValues` of single region
cells: a killer cage no region boundary crosses). ISS's `SameValues` of grid cells is
`same-values`; this kind takes the item only when region cells are listed. Like the other
chaos clues, it reads the one drawing of regions every chaos rule of the puzzle shares.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar

from ...errors import BadInput
from ...model.geometry import Cell, Geometry, cell_name
from ...model.rules import Shape, ShapeKind
from .. import params
from .chaos_clues import _iss_cc, _iss_cells
from .chaos_construction import ChaosReader, region_variables

def _is_cc(arg: str) -> bool:
    return arg[:2].upper() == "CC" and arg[2:].isdigit()


class _RegionClue(ChaosReader):
    """A clue that reads the chaos regions of listed cells."""

    cells: tuple[Cell, ...]

    @staticmethod
    def _region_cells(args: list[str], n: int, cell: Callable[[str], str]) -> list[str]:
        """Return polydoku's names of ISS region cells, BadInput when a grid cell is among
        them (ISS reads its value there, which no kind here compares with a region)."""
        if not all(map(_is_cc, args)):
            raise BadInput("region cells (CC1) and grid cells in one item: polydoku reads "
                           "region cells alone")
        return _iss_cells(args, n, cell)


@dataclass(frozen=True)
class ChaosSameRegion(_RegionClue):
    """The cells all lie in one chaos region."""

    cells: tuple[Cell, ...]

    kind: ClassVar[str] = "chaos-same-region"
    iss: ClassVar[str] = "SameValues"
    description: ClassVar[str] = "the listed cells lie in one chaos region"
    aliases: ClassVar[tuple[str, ...]] = ("chaos-cage", "same-chaos-region")

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "ChaosSameRegion":
        return cls(params.cell_list(data, "cells", geometry, min_len=2))

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "cells": params.names(self.cells)}

    def footprint(self) -> tuple[Cell, ...]:
        return self.cells

    def holds_for(self, grid, region: list[int], label: int, g: Geometry) -> bool:
        """Return whether the region just drawn holds all the cells or none of them."""
        inside = [region[g.index(c)] == label for c in self.cells]
        return all(inside) or not any(inside)

    def lower(self, b) -> None:
        label, _ = region_variables(b)
        first = label[b.var(self.cells[0])]
        for c in self.cells[1:]:
            b.relation(first, label[b.var(c)], int.__eq__)

    def describe(self, geometry: Geometry) -> str:
        return f"chaos-same-region at {cell_name(self.cells[0])}"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.CAGE, tuple(map(geometry.index, self.cells)), "", "chaos")]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        picked = rng.sample(range(size * size), rng.randint(2, 3))
        return {"kind": cls.kind, "cells": [cell_name(divmod(i, size)) for i in picked]}

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell) -> dict[str, Any] | None:
        """`SameValues~K~CC1~CC2…`: K sets of one region cell each; None when no region
        cell is listed (`same-values` reads the item)."""
        if not any(map(_is_cc, args[1:])):
            return None
        if args[0] != str(len(args) - 1):
            raise BadInput("sets of several region cells: polydoku reads one region cell a set")
        return {"kind": cls.kind, "cells": cls._region_cells(args[1:], n, cell)}

    def iss_items_on(self, geometry: Geometry, cell: Callable[[Cell], str]) -> list[str]:
        return ["ChaosConstruction", "~".join([self.iss, str(len(self.cells)),
                                               *(_iss_cc(geometry, c) for c in self.cells)])]

    def write_iss(self, n: int, cell) -> list[str]:
        return self.iss_items_on(Geometry.of_size(n), cell)[1].split("~")[1:]


KINDS = (ChaosSameRegion,)
