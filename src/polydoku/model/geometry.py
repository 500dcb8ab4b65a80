"""Grid geometry: cells, units and peers, computed from the size and the box shape.

Cells are 0-based `(row, col)` pairs inside the code, numbered `row * size + col`;
`r1c6` names appear only at the edges (`cell_name`, `parse_cell`).

Values: a grid holds V values, `low`..`low + V - 1` (1..N unless `low` says otherwise, as the
0..8 of a "0-indexed" sudoku). V is the grid's side N unless `count` says more (ISS's
`Shape~6x6~9`: nine values on a 6x6 grid, each house holding six different ones). Inside the
code a cell always holds the value's index 1..V (0 = empty), so that houses, engines and
candidate bitmasks never change; `real` turns an index into the value a person reads, and the
kinds whose statement is arithmetic read it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from functools import cached_property
from operator import itemgetter
from typing import Any

from ..errors import BadInput
from ..text import shorten, whole_number

Cell = tuple[int, int]

MIN_SIZE, MAX_SIZE = 4, 25
MAX_VALUE = 35          # the largest value a grid may hold: symbols 0-9 then A-Z


def box_shape_for(size: int, cells: int = 0, width: int = 0) -> tuple[int, int]:
    """Return the most nearly square box shape (rows, cols), rows <= cols where it can, of
    `cells` cells (default: `size`) that tiles a grid of `size` rows and `width` columns
    (default: square), as ISS picks it."""
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise BadInput(f"size {size} is outside {MIN_SIZE}..{MAX_SIZE}")
    width = width or size
    cells = cells or max(size, width)
    for rows in range(math.isqrt(cells), 1, -1):
        if cells % rows:
            continue
        if size % rows == 0 and width % (cells // rows) == 0:
            return rows, cells // rows
        if width % rows == 0 and size % (cells // rows) == 0:
            return cells // rows, rows
    if cells == size == width:
        raise BadInput(f"size {size} has no rectangular box (it is prime)")
    raise BadInput(f"no rectangular box of {cells} cells tiles a {size}x{width} grid")


def box_shape_of(size: int, labels, cells: int = 0) -> tuple[int, int] | None:
    """Return (rows, cols) when per-cell region labels (row-major) cut the grid into
    rectangular boxes of that shape (of `cells` cells each, default `size`), else None (a
    jigsaw), so that a reader can write boxes a source spelled out as regions (f-puzzles and
    SudokuPad write every region)."""
    labels = list(labels)
    cells = cells or size
    if len(labels) != size * size:
        return None
    groups: dict[object, set[int]] = {}
    for i, label in enumerate(labels):
        groups.setdefault(label, set()).add(i)
    parts = {frozenset(g) for g in groups.values()}
    for rows in range(2, cells // 2 + 1):
        cols, rest = divmod(cells, rows)
        if rest or cols < 2 or size % rows or size % cols:
            continue
        boxes = Geometry(size, rows, cols, count=cells).boxes
        if parts == {frozenset(b) for b in boxes}:
            return rows, cols
    return None


def cell_name(cell: Cell) -> str:
    """Return the 1-based name `r1c6` of a 0-based cell."""
    return f"r{cell[0] + 1}c{cell[1] + 1}"


_CELL = re.compile(r"^\s*r(\d+)\s*c(\d+)\s*$", re.IGNORECASE | re.ASCII)


def parse_cell(text: str, size: int | None = None) -> Cell:
    """Return the 0-based cell named by `r1c6` (checked against `size` when given)."""
    m = _CELL.match(text)
    if not m:
        raise BadInput(f"bad cell {shorten(text)!r}: expected a name like r1c6")
    row, col = whole_number(m.group(1)) - 1, whole_number(m.group(2)) - 1
    if row < 0 or col < 0 or (size is not None and (row >= size or col >= size)):
        raise BadInput(f"cell {shorten(text)!r} is outside the {size}x{size} grid")
    return row, col


_DEFAULTS: dict[int, Any] = {}     # the default geometry of each size (Geometry.of_size)
_SHARED: dict[tuple, dict[str, Any]] = {}
_SHARED_GEOMETRIES = 64


class _shared(cached_property):
    """A cached property computed once for every equal geometry, not once per instance: each
    puzzle of a file has its own Geometry, and its units, peers and boxes are the same
    tuples as the last one's."""

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        key = (obj.size, obj.box_rows, obj.box_cols, obj.regions, obj.ncols)
        store = _SHARED.get(key)
        if store is None:
            if len(_SHARED) >= _SHARED_GEOMETRIES:
                _SHARED.clear()
            store = _SHARED[key] = {}
        name = self.attrname or ""
        if name not in store:
            store[name] = self.func(obj)
        obj.__dict__[name] = store[name]
        return store[name]


@dataclass(frozen=True)
class Geometry:
    """A size-N grid cut into boxes of `box_rows` x `box_cols` cells, or into irregular regions.

    `regions`, when set, replaces the rectangular boxes (jigsaw): N regions of N cells each,
    and box_rows = box_cols = 0. An empty `regions` means no boxes at all (rows and columns
    only), which any size allows, prime sizes too.
    """

    size: int
    box_rows: int
    box_cols: int
    regions: tuple[tuple[int, ...], ...] | None = None
    low: int = 1
    count: int = 0              # how many values, when more than the side N (0: N)
    ncols: int = 0              # the columns of a rectangular grid of `size` rows (0: N)

    def __post_init__(self) -> None:
        if not MIN_SIZE <= self.size <= MAX_SIZE:
            raise BadInput(f"size {self.size} is outside {MIN_SIZE}..{MAX_SIZE}")
        side = self.longest
        if (isinstance(self.count, bool) or not isinstance(self.count, int)
                or self.count and not side <= self.count <= MAX_VALUE + 1):
            raise BadInput(f"{self.count!r} values on a {self.shape_words()} grid: a grid "
                           f"holds {side}..{MAX_VALUE + 1} values")
        if self.count == side:          # as many values as the longer side: the plain grid
            object.__setattr__(self, "count", 0)
        top = MAX_VALUE - self.nvalues + 1
        if (isinstance(self.low, bool) or not isinstance(self.low, int)
                or not 0 <= self.low <= top):
            raise BadInput(f"values {self.low!r}..: a {self.shape_words()} grid's "
                           f"{self.nvalues} values start at 0..{top}")
        if self.ncols and not (MIN_SIZE <= self.ncols <= MAX_SIZE and self.ncols != self.size):
            raise BadInput(f"a grid of {self.size} rows has {MIN_SIZE}..{MAX_SIZE} columns, "
                           f"not {self.ncols!r}")
        br, bc, n, w = self.box_rows, self.box_cols, self.size, self.width
        if self.regions is not None:
            self._check_regions()
        elif (not max(n, w) <= br * bc <= self.nvalues or min(br, bc) < 2 or n % br
              or w % bc):
            raise BadInput(f"box {br}x{bc} does not tile a {self.shape_words()} grid"
                           + (f" of {self.nvalues} values" if self.count else ""))

    def _check_regions(self) -> None:
        """Raise BadInput unless the regions are N disjoint groups of N cells covering the
        grid; on a grid of more values, disjoint groups of one size K (N <= K <= V), the
        cells of none in no region (ISS's jigsaw pieces)."""
        n, wide = self.longest, self.more_values
        if self.box_rows or self.box_cols:
            raise BadInput("a grid has either rectangular boxes or irregular regions, not both")
        if not self.regions:
            return
        k = len(set(self.regions[0])) if wide else n
        if wide and not n <= k <= self.nvalues:
            raise BadInput(f"region 1 has {k} cells; a region of a {self.shape_words()} grid "
                           f"of {self.nvalues} values has {n}..{self.nvalues}")
        if not wide and len(self.regions) != n:
            raise BadInput(f"{len(self.regions)} regions given, a {n}x{n} grid needs {n}")
        seen: set[int] = set()
        for j, region in enumerate(self.regions):
            if len(region) != k or len(set(region)) != k:
                raise BadInput(f"region {j + 1} has {len(set(region))} cells, expected {k}")
            for i in region:
                if not 0 <= i < self.ncells:
                    raise BadInput(f"region {j + 1} has a cell outside the grid")
                if i in seen:
                    raise BadInput(f"region {j + 1}: {cell_name(self.cell(i))} is in two "
                                   f"regions")
                seen.add(i)

    @classmethod
    def irregular(cls, size: int, regions, low: int = 1, count: int = 0,
                  ncols: int = 0) -> "Geometry":
        """Return a grid whose boxes are the given regions (lists of cell indices; [] for none)."""
        return cls(size, 0, 0, tuple(tuple(sorted(r)) for r in regions), low, count, ncols)

    @classmethod
    def rectangle(cls, size: int, ncols: int, low: int = 1, count: int = 0) -> "Geometry":
        """Return a grid of `size` rows of `ncols` cells, boxed as ISS cuts it (the most
        nearly square box of one cell per value of the longer side), or boxless when no such
        box tiles it (4x7)."""
        try:
            rows, cols = box_shape_for(size, 0, ncols)
        except BadInput:
            return cls.irregular(size, (), low, count, ncols)
        return cls(size, rows, cols, low=low, count=count, ncols=ncols)

    def with_low(self, low: int) -> "Geometry":
        """Return the same grid holding the values low..low + V - 1."""
        return self if low == self.low else replace(self, low=low)

    def with_values(self, low: int, count: int) -> "Geometry":
        """Return the same grid holding `count` values from `low` (count N: one per cell of
        a house, as a sudoku)."""
        count = 0 if count == self.longest else count
        return self if (low, count) == (self.low, self.count) else replace(self, low=low,
                                                                           count=count)

    @property
    def nvalues(self) -> int:
        """Return V, how many values the grid holds (N unless `count` says more; the longer
        side of a rectangular grid)."""
        return self.count or self.longest

    @property
    def longest(self) -> int:
        """Return the longer side: N, or the longer of a rectangle's rows and columns."""
        return max(self.size, self.ncols)

    @property
    def width(self) -> int:
        """Return the number of columns (N but on a rectangular grid)."""
        return self.ncols or self.size

    @property
    def is_square(self) -> bool:
        """Return whether the grid has as many columns as rows."""
        return not self.ncols

    def shape_words(self) -> str:
        """Return the grid's rows and columns: "9x9", "6x8"."""
        return f"{self.size}x{self.width}"

    @property
    def plain_values(self) -> bool:
        """Return whether the grid is square and holds 1..N, one of each in every house."""
        return self.low == 1 and not self.count and not self.ncols

    @property
    def more_values(self) -> bool:
        """Return whether the grid holds more values than a house has cells (a house then
        holds different values, not every value)."""
        return self.nvalues > min(self.size, self.width)

    @property
    def offset(self) -> int:
        """Return what to add to a value's index 1..N for the value itself (0 for 1..N)."""
        return self.low - 1

    def real(self, v: int) -> int:
        """Return the value a person reads of index v (1..N)."""
        return v + self.low - 1

    def values_words(self) -> str:
        """Return the grid's values in words: "1..9", "0..8"."""
        return f"{self.low}..{self.low + self.nvalues - 1}"

    @property
    def is_rectangular(self) -> bool:
        """Return whether the boxes are rectangles of box_rows x box_cols cells."""
        return self.regions is None

    @property
    def has_boxes(self) -> bool:
        """Return whether the grid has boxes or regions (a latin square has neither)."""
        return self.regions is None or bool(self.regions)

    @classmethod
    def of_size(cls, size: int) -> "Geometry":
        """Return the geometry of a size-N grid with its default box shape (one shared
        instance per size: a geometry never changes)."""
        g = _DEFAULTS.get(size)
        if g is None or type(g) is not cls:
            g = _DEFAULTS[size] = cls(size, *box_shape_for(size))
        return g

    @property
    def ncells(self) -> int:
        """Return the number of cells, N² (rows x columns)."""
        return self.size * self.width

    def index(self, cell: Cell) -> int:
        """Return the 0-based index of a cell in row-major order."""
        return cell[0] * self.width + cell[1]

    def cell(self, index: int) -> Cell:
        """Return the (row, col) of a cell index."""
        return divmod(index, self.width)

    def box_of(self, cell: Cell) -> int:
        """Return the 0-based box (region) number of a cell, counted row-major over boxes; -1
        when the grid has no boxes."""
        if self.regions is not None:
            return self.region_of[self.index(cell)]
        per_band = self.width // self.box_cols
        return (cell[0] // self.box_rows) * per_band + cell[1] // self.box_cols

    @_shared
    def region_of(self) -> tuple[int, ...]:
        """Return, per cell index, the number of its box or region (-1 when there are none)."""
        out = [-1] * self.ncells
        for k, box in enumerate(self.boxes):
            for i in box:
                out[i] = k
        return tuple(out)

    @_shared
    def rows(self) -> tuple[tuple[int, ...], ...]:
        """Return each row as a tuple of cell indices."""
        h, w = self.size, self.width
        return tuple(tuple(r * w + c for c in range(w)) for r in range(h))

    @_shared
    def cols(self) -> tuple[tuple[int, ...], ...]:
        """Return each column as a tuple of cell indices."""
        h, w = self.size, self.width
        return tuple(tuple(r * w + c for r in range(h)) for c in range(w))

    @_shared
    def boxes(self) -> tuple[tuple[int, ...], ...]:
        """Return each box (or region) as a tuple of cell indices, boxes numbered row-major."""
        if self.regions is not None:
            return tuple(sorted(self.regions))
        h, w, br, bc = self.size, self.width, self.box_rows, self.box_cols
        out = []
        for top in range(0, h, br):
            for left in range(0, w, bc):
                out.append(tuple((top + r) * w + left + c for r in range(br) for c in range(bc)))
        return tuple(out)

    @_shared
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Return all rows, then columns, then boxes."""
        return self.rows + self.cols + self.boxes

    @_shared
    def unit_getters(self) -> tuple[Any, ...]:
        """Return, per unit of `units`, a function that picks the unit's values out of a
        grid (the verifier reads every unit of every answer)."""
        return tuple(itemgetter(*unit) if len(unit) > 1 else (lambda g, i=unit[0]: (g[i],))
                     for unit in self.units)

    def unit_name(self, k: int) -> str:
        """Return a person's name for unit `k` of `units` ("row 3", "column 5", "box 2")."""
        kind, number = self.unit_of(k)
        return f"{kind} {number}"

    def unit_of(self, k: int) -> tuple[str, int]:
        """Return what unit `k` of `units` is: row, column, box or region, and its 1-based number."""
        h, w = self.size, self.width
        kind, number = (0, k) if k < h else (1, k - h) if k < h + w else (2, k - h - w)
        box = "box" if self.regions is None else "region"
        return ("row", "column", box)[kind], number + 1

    @_shared
    def peers(self) -> tuple[frozenset[int], ...]:
        """Return, for each cell, the other cells sharing a row, column or box with it."""
        peers: list[set[int]] = [set() for _ in range(self.ncells)]
        for unit in self.units:
            for i in unit:
                peers[i].update(unit)
        return tuple(frozenset(p - {i}) for i, p in enumerate(peers))

    def in_grid(self, row: int, col: int) -> bool:
        """Return whether (row, col) lies inside the grid."""
        return 0 <= row < self.size and 0 <= col < self.width
