"""Chaos clues (ISS's `ChaosCount` and `ChaosArrow`): a control cell's value read from the
regions of a chaos construction (chaos_construction.py), which they imply.

- chaos-count: the control holds how many of the listed cells lie in the region of the first
  of them (that cell counted, or left out with offset 1); by default the 3x3 square centred
  on the control, the control first.
- chaos-arrow: the control holds the length of the run of cells of the start's region along
  each arm (every arm opens on the start, counted once, or left out with offset 1), summed
  over the arms; by default the four arms from the control to the grid's edges.

Each reads the one drawing of regions every chaos rule of the puzzle shares: the statement
(`violations`) searches for a drawing that fits all of them at once, run by the first of
them only (`shared_problems`), so a grid is searched once and each problem said once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar

from ...errors import BadInput
from ...model.geometry import Cell, Geometry, cell_name
from ...model.rules import Shape, ShapeKind
from .. import params
from .chaos_construction import ChaosReader, region_variables

_BASE = "0123456789abcdefg"         # ISS writes a row or column number in base 17


def _offset(data: dict[str, Any]) -> int:
    return params.integer(data, "offset", 0, 1) if "offset" in data else 0


def _iss_cells(args: list[str], n: int, cell: Callable[[str], str]) -> list[str]:
    """Return polydoku's names of ISS cells: grid cells (R1C2) or region cells (CC2, row-major)."""
    out = []
    for a in args:
        if a[:2].upper() == "CC" and a[2:].isdigit() and 0 < int(a[2:]) <= n * n:
            r, c = divmod(int(a[2:]) - 1, n)
            a = f"R{_BASE[r + 1]}C{_BASE[c + 1]}"
        out.append(cell(a))
    return out


def _same(count: int) -> list[tuple[int, int, int]]:
    """Return the table (label, label, flag): the flag is 2 when the labels are equal."""
    return [(x, y, 2 if x == y else 1) for x in range(1, count + 1) for y in range(1, count + 1)]


def _iss_cc(g: Geometry, c: Cell) -> str:
    return f"CC{c[0] * g.width + c[1] + 1}"


class _ChaosClue(ChaosReader):
    """What both clues share: a control cell, an offset, the regions they read."""

    control: Cell
    offset: int

    def reference(self) -> Cell:
        raise NotImplementedError

    def counted(self, region: list[int], label: int, g: Geometry) -> int:
        """Return the count the control holds once the reference's region is drawn."""
        raise NotImplementedError

    def holds_for(self, grid, region: list[int], label: int, g: Geometry) -> bool:
        """Return whether the clue holds, when `label` is the reference cell's region just
        drawn (True when it is another: the clue waits for its own)."""
        if region[g.index(self.reference())] != label:
            return True
        return grid[g.index(self.control)] == self.counted(region, label, g) - self.offset

    def _lower_flags(self, b, flags: list[int]) -> None:
        """Say the control is 1 + (number of true flags) - offset (flags are 1/2)."""
        b.linear([*flags, b.var(self.control)], [1] * len(flags) + [-1],
                 len(flags) - 1 + self.offset)

    def _iss_head(self, g: Geometry, cell: Callable[[Cell], str]) -> list[str]:
        return [cell(self.control), str(self.offset)]


@dataclass(frozen=True)
class ChaosCount(_ChaosClue):
    """The control holds how many listed cells share the first one's region."""

    control: Cell
    cells: tuple[Cell, ...]
    offset: int = 0

    kind: ClassVar[str] = "chaos-count"
    iss: ClassVar[str] = "ChaosCount"
    description: ClassVar[str] = ("the control cell holds how many of the listed cells lie in "
                                  "the first one's chaos region")
    aliases: ClassVar[tuple[str, ...]] = ("chaoscount",)

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "ChaosCount":
        control = params.one_cell(data, "control", geometry)
        r, c = control
        square = tuple((r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                       if (dr, dc) != (0, 0) and geometry.in_grid(r + dr, c + dc))
        cells = params.cell_list(data, "cells", geometry, default=(control, *square))
        return cls(control, cells, _offset(data))

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "control": cell_name(self.control),
                "cells": params.names(self.cells), "offset": self.offset}

    def footprint(self) -> tuple[Cell, ...]:
        return (self.control, *(c for c in self.cells if c != self.control))

    def reference(self) -> Cell:
        return self.cells[0]

    def counted(self, region: list[int], label: int, g: Geometry) -> int:
        return sum(region[g.index(c)] == label for c in self.cells)

    def lower(self, b) -> None:
        label, _ = region_variables(b)
        first = label[b.var(self.cells[0])]
        flags = []
        count = b.geometry.ncells // b.nvalues
        for c in self.cells[1:]:
            flag = b.new_var(2, f"{cell_name(c)} with {cell_name(self.cells[0])}")
            b.table((first, label[b.var(c)], flag), _same(count))
            flags.append(flag)
        self._lower_flags(b, flags)

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.CIRCLE, (geometry.index(self.control),), style="open"),
                Shape(ShapeKind.SHADE, tuple(map(geometry.index, self.cells)), style="chaos")]

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell) -> dict[str, Any]:
        if not args:
            raise BadInput("a control cell is missing")
        data: dict[str, Any] = {"kind": cls.kind, "control": cell(args[0])}
        if len(args) > 1:
            data["offset"] = int(args[1] or 0) if args[1] in ("", "0", "1") else args[1]
        if len(args) > 2:
            data["cells"] = _iss_cells(args[2:], n, cell)
        return data

    def iss_items_on(self, geometry: Geometry, cell: Callable[[Cell], str]) -> list[str]:
        return ["ChaosConstruction", "~".join([self.iss, *self._iss_head(geometry, cell),
                                               *(_iss_cc(geometry, c) for c in self.cells)])]

    def write_iss(self, n: int, cell) -> list[str]:
        return self.iss_items_on(Geometry.of_size(n), cell)[1].split("~")[1:]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        control = (rng.randrange(size), rng.randrange(size))
        data = {"kind": cls.kind, "control": cell_name(control), "offset": rng.randint(0, 1)}
        if rng.random() < 0.5:
            k = rng.randint(2, 5)
            data["cells"] = [cell_name(divmod(i, size)) for i in rng.sample(range(size * size), k)]
        return data


@dataclass(frozen=True)
class ChaosArrow(_ChaosClue):
    """The control holds the run of the start's region along the arms, summed."""

    control: Cell
    arms: tuple[tuple[Cell, ...], ...]
    offset: int = 0

    kind: ClassVar[str] = "chaos-arrow"
    iss: ClassVar[str] = "ChaosArrow"
    description: ClassVar[str] = ("the control cell holds how far the start's chaos region "
                                  "runs along the arms from the start, summed")
    aliases: ClassVar[tuple[str, ...]] = ("chaosarrow",)

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "ChaosArrow":
        control = params.one_cell(data, "control", geometry)
        value = data.get("arms")
        if value is None:
            arms = tuple(_ray(geometry, control, d) for d in ((0, -1), (0, 1), (-1, 0), (1, 0)))
        elif not isinstance(value, list) or not 1 <= len(value) <= 8:
            raise BadInput("field \"arms\" must be a list of 1..8 lists of cells")
        else:
            arms = tuple(params.cell_list({"arms": a}, "arms", geometry) for a in value)
        if any(arm[0] != arms[0][0] for arm in arms):
            raise BadInput("field \"arms\": every arm opens on the same start cell")
        # an arm of the start alone adds nothing beside others (as ISS drops it)
        return cls(control, tuple(a for a in arms if len(a) > 1) or arms[:1], _offset(data))

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "control": cell_name(self.control),
                "arms": [params.names(a) for a in self.arms], "offset": self.offset}

    def footprint(self) -> tuple[Cell, ...]:
        return tuple(dict.fromkeys((self.control, *(c for a in self.arms for c in a))))

    def reference(self) -> Cell:
        return self.arms[0][0]

    def counted(self, region: list[int], label: int, g: Geometry) -> int:
        total = 1
        for arm in self.arms:
            for c in arm[1:]:
                if region[g.index(c)] != label:
                    break
                total += 1
        return total

    def lower(self, b) -> None:
        label, _ = region_variables(b)
        start = label[b.var(self.reference())]
        count = b.geometry.ncells // b.nvalues
        flags = []
        for arm in self.arms:
            run = None                  # the flag "the run reaches this cell" (2 = yes)
            for c in arm[1:]:
                flag = b.new_var(2, f"run of {cell_name(arm[0])} to {cell_name(c)}")
                if run is None:
                    b.table((start, label[b.var(c)], flag), _same(count))
                else:
                    b.table((run, start, label[b.var(c)], flag),
                            [(r, x, y, 2 if r == 2 and x == y else 1) for r in (1, 2)
                             for x, y, _ in _same(count)])
                flags.append(run := flag)
        self._lower_flags(b, flags)

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.CIRCLE, (geometry.index(self.control),), style="open"),
                *(Shape(ShapeKind.LINE, tuple(map(geometry.index, a)), style="chaos")
                  for a in self.arms if len(a) > 1)]

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell) -> dict[str, Any]:
        data = ChaosCount.iss_rules(name, args[:2], n, cell)
        data["kind"] = cls.kind
        if len(args) > 2:               # ISS separates arms with "-"; one of the start alone
            arms = [_iss_cells(a.split("~"), n, cell) for a in "~".join(args[2:]).split("~-~")]
            data["arms"] = [a for a in arms if len(a) > 1] or arms[:1]
        return data

    def iss_items_on(self, geometry: Geometry, cell: Callable[[Cell], str]) -> list[str]:
        body = "~-~".join("~".join(_iss_cc(geometry, c) for c in a) for a in self.arms)
        return ["ChaosConstruction",
                "~".join([self.iss, *self._iss_head(geometry, cell), body])]

    def write_iss(self, n: int, cell) -> list[str]:
        return self.iss_items_on(Geometry.of_size(n), cell)[1].split("~")[1:]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        control = (rng.randrange(size), rng.randrange(size))
        return {"kind": cls.kind, "control": cell_name(control), "offset": rng.randint(0, 1)}


def _ray(g: Geometry, cell: Cell, step: tuple[int, int]) -> tuple[Cell, ...]:
    """Return the cells from `cell` to the grid's edge in one direction, `cell` first."""
    out = [cell]
    while g.in_grid(out[-1][0] + step[0], out[-1][1] + step[1]):
        out.append((out[-1][0] + step[0], out[-1][1] + step[1]))
    return tuple(out)


KINDS = (ChaosCount, ChaosArrow)
