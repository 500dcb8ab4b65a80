"""Arrows, clones, quadruples and row/column indexing."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, permutations, product
from operator import itemgetter, ne
from typing import Any, ClassVar, Iterator

from ..errors import BadInput
from ..model.geometry import Cell, Geometry, cell_name, parse_cell
from ..model.rules import Rule, Shape, ShapeKind
from . import params
from .base import (MAX_FILLINGS, CellsRule, fpuzzles_cells, fpuzzles_number, iss_number, cells_phrase, count_where, equal_pairs, span, value_at,
                   values_at, where)


@dataclass(frozen=True)
class Arrow(Rule):
    """The shaft's values (repeats allowed) add up to the number its circle reads."""

    circle: tuple[Cell, ...]
    cells: tuple[Cell, ...]

    kind: ClassVar[str] = "arrow"
    any_shape: ClassVar[bool] = True
    any_values: ClassVar[bool] = True       # it adds up and reads the values themselves
    any_count: ClassVar[bool] = True
    fpuzzles: ClassVar[tuple[str, ...]] = ("arrow",)
    iss: ClassVar[str] = "Arrow PillArrow"
    description: ClassVar[str] = "the digits on the shaft add up to the number in the circle"

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "Arrow":
        circle = params.cell_list(data, "circle", geometry, min_len=1, max_len=3)
        cells = params.cell_list(data, "cells", geometry, min_len=1)
        if set(circle) & set(cells):
            raise BadInput("field \"cells\": the shaft overlaps the circle")
        return cls(circle, cells)

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "circle": params.names(self.circle),
                "cells": params.names(self.cells)}

    def footprint(self) -> tuple[Cell, ...]:
        return self.circle + self.cells

    def weights(self) -> list[int]:
        """Return each circle cell's place value, in reading order (a pill r1c2,r1c3 reads
        10 * r1c2 + r1c3, whichever order it was listed in)."""
        k = len(self.circle)
        return [10 ** (k - 1 - i) for i in range(k)]

    def reading(self) -> tuple[Cell, ...]:
        """Return the circle cells in reading order (top to bottom, left to right)."""
        return tuple(sorted(self.circle))

    def lower(self, b) -> None:
        shaft, circle = b.vars(self.cells), b.vars(self.reading())
        weights = self.weights()
        # the values are indices + offset: the offsets move to the right-hand side
        rhs = b.geometry.offset * (sum(weights) - len(shaft))
        b.linear(shaft + circle, [1] * len(shaft) + [-w for w in weights], rhs)

    def implied(self, geometry: Geometry) -> list:
        """Every filling of a one-cell circle and its shaft at once: the sum with the shaft's
        cells that must differ (in one box, row or column), which the totals alone miss
        (on values 1..N)."""
        if len(self.circle) != 1 or len(self.cells) > 4 or geometry.low != 1:
            return []
        cells = self.circle + self.cells
        n = geometry.nvalues
        if n > 9:
            return []
        idx = [geometry.index(c) for c in cells]
        apart = [(j, k) for k in range(len(idx)) for j in range(k)
                 if idx[j] in geometry.peers[idx[k]]]
        # the circle's value, then each way the shaft adds up to it (at most 126 of them)
        table = [t for total in range(1, n + 1)
                 for t in ((total, *parts) for parts in _compositions(total, len(self.cells), n))
                 if all(t[j] != t[k] for j, k in apart)]
        return [(cells, table)] if table and len(table) <= MAX_FILLINGS else []

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        shaft = values_at(grid, geometry, self.cells)
        circle = values_at(grid, geometry, self.reading())
        if 0 in shaft or 0 in circle:
            return
        shaft, circle = [geometry.real(v) for v in shaft], [geometry.real(v) for v in circle]
        number = sum(w * v for w, v in zip(self.weights(), circle))
        if sum(shaft) != number:
            yield (f"the arrow from {where(self.circle)} adds up to {sum(shaft)}, "
                   f"not {number} ({self.kind})")

    def shapes(self, geometry: Geometry) -> list[Shape]:
        idx = tuple(geometry.index(c) for c in self.circle + self.cells)
        return [Shape(ShapeKind.ARROW, idx, str(len(self.circle)))]

    technique: ClassVar[str] = "Arrow Sum"
    technique_score: ClassVar[int] = 20
    technique_level: ClassVar[str] = "Easy"
    technique_summary: ClassVar[str] = (
        "an arrow's circle lies between the least and the greatest sum its shaft can make; "
        "each shaft cell leaves room for the others")

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """Arrow bounds, both ways: the circle lies between the least and the greatest sum
        the shaft can make, and each shaft cell leaves room for the others. A circle of two or
        more cells, or a grid of other values than 1..N, is left to Constraint Propagation."""
        if len(self.circle) != 1 or geometry.low != 1:
            return None
        shaft = [geometry.index(c) for c in self.cells]
        ring = geometry.index(self.circle[0])
        masks = [cands[i] for i in shaft]
        if not all(masks) or not cands[ring]:
            return None
        lows = [(m & -m).bit_length() for m in masks]
        highs = [m.bit_length() for m in masks]
        s_lo, s_hi = sum(lows), sum(highs)
        ring_keep = cands[ring] & span(s_lo, s_hi)
        drop = {ring: cands[ring] & ~ring_keep} if cands[ring] & ~ring_keep else {}
        if ring_keep:
            c_lo, c_hi = (ring_keep & -ring_keep).bit_length(), ring_keep.bit_length()
            for i, m, lo, hi in zip(shaft, masks, lows, highs):
                keep = m & span(c_lo - (s_hi - hi), c_hi - (s_lo - lo))
                if m & ~keep:
                    drop[i] = drop.get(i, 0) | m & ~keep
        if not drop:
            return None
        ring_words = (f"{(ring_keep & -ring_keep).bit_length()} to {ring_keep.bit_length()}"
                      if ring_keep else "nothing")
        return drop, (f"the arrow's shaft {cells_phrase(self.cells)} adds up to {s_lo} to "
                      f"{s_hi}, and its circle {cell_name(self.circle[0])} can hold "
                      f"{ring_words}")

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell) -> Any:
        """`Arrow~circle~shaft…`, or `PillArrow~K~pill (K cells)~shaft…`, its pill read left to
        right, top to bottom."""
        if name == "Arrow":
            if len(args) < 2:
                raise BadInput("unexpected arguments")
            return {"kind": cls.kind, "circle": [cell(args[0])],
                    "cells": [cell(a) for a in args[1:]]}
        if not args or args[0] not in ("2", "3") or len(args) < int(args[0]) + 2:
            raise BadInput("PillArrow: a pill has 2 or 3 cells, then the shaft")
        k = int(args[0])
        pill = sorted((cell(a) for a in args[1:k + 1]), key=parse_cell)
        return {"kind": cls.kind, "circle": pill, "cells": [cell(a) for a in args[k + 1:]]}

    def iss_items(self, n: int, cell) -> list[str]:
        shaft = [cell(c) for c in self.circle + self.cells]
        if len(self.circle) == 1:
            return ["~".join(["Arrow", *shaft])]
        if list(self.circle) != sorted(self.circle):
            raise BadInput("ISS reads a pill from left to right, top to bottom; this circle "
                           "is listed in another order")
        return ["~".join(["PillArrow", str(len(self.circle)), *shaft])]

    @classmethod
    def fpuzzles_rules(cls, key: str, value: Any, n: int, cell) -> list[Any]:
        """Each element: its circle (`cells`) and each of its `lines` a shaft (the circle's
        cells on the line left out)."""
        out = []
        for e in value if isinstance(value, list) else []:
            circle = fpuzzles_cells(e.get("cells") or [], cell, key)
            for line in e.get("lines") or []:
                out.append({"kind": cls.kind, "circle": circle,
                            "cells": [c for c in fpuzzles_cells(line, cell, key)
                                      if c not in circle]})
        return out

    def fpuzzles_entries(self, n: int, cell) -> dict[str, Any]:
        circle = [cell(c) for c in self.circle]
        return {"arrow": [{"cells": circle,
                           "lines": [[circle[-1], *(cell(c) for c in self.cells)]]}]}


@dataclass(frozen=True)
class Clone(Rule):
    """Two groups of cells hold the same values in the same places."""

    cells: tuple[Cell, ...]
    copy: tuple[Cell, ...]

    kind: ClassVar[str] = "clone"
    any_shape: ClassVar[bool] = True
    fpuzzles: ClassVar[tuple[str, ...]] = ("clone",)
    any_values: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    drawn_colour: ClassVar[str] = "#fdd0a2"
    description: ClassVar[str] = "the clone holds the same values as the original, cell for cell"

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "Clone":
        cells = params.cell_list(data, "cells", geometry)
        copy = params.cell_list(data, "copy", geometry, min_len=len(cells), max_len=len(cells))
        return cls(cells, copy)

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "cells": params.names(self.cells),
                "copy": params.names(self.copy)}

    def footprint(self) -> tuple[Cell, ...]:
        return self.cells + self.copy

    def lower(self, b) -> None:
        for x, y in zip(b.vars(self.cells), b.vars(self.copy)):
            if x != y:
                b.relation(x, y, lambda a, c: a == c)

    technique: ClassVar[str] = "Clone"
    technique_score: ClassVar[int] = 20
    technique_level: ClassVar[str] = "Easy"
    technique_summary: ClassVar[str] = (
        "a cell and its clone hold the same value: each keeps what the other can")

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """A cell and its clone hold the same value: each keeps what the other can hold."""
        drop = equal_pairs(cands, [(geometry.index(a), geometry.index(b))
                                   for a, b in zip(self.cells, self.copy)])
        if not drop:
            return None
        return drop, (f"the clone of {cells_phrase(self.cells)} at {cells_phrase(self.copy)} "
                      "holds the same values, cell for cell")

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        for p, q in zip(self.cells, self.copy):
            a, c = value_at(grid, geometry, p), value_at(grid, geometry, q)
            if a and c and a != c:
                yield (f"{cell_name(p)}={geometry.real(a)} but its clone "
                       f"{cell_name(q)}={geometry.real(c)} ({self.kind})")

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.SHADE, tuple(geometry.index(c) for c in self.cells + self.copy),
                      style="clone")]

    @classmethod
    def fpuzzles_rules(cls, key: str, value: Any, n: int, cell) -> list[Any]:
        return [{"kind": cls.kind, "cells": fpuzzles_cells(e.get("cells"), cell, key),
                 "copy": fpuzzles_cells(e.get("cloneCells"), cell, key)}
                for e in (value if isinstance(value, list) else [])]

    def fpuzzles_entries(self, n: int, cell) -> dict[str, Any]:
        return {"clone": [{"cells": [cell(c) for c in self.cells],
                           "cloneCells": [cell(c) for c in self.copy]}]}


@dataclass(frozen=True)
class Quadruple(CellsRule):
    """The values listed all appear among the four cells around a corner."""

    values: tuple[int, ...] = ()

    kind: ClassVar[str] = "quadruple"
    any_shape: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    any_values: ClassVar[bool] = True       # `values` are the values themselves
    fpuzzles: ClassVar[tuple[str, ...]] = ("quadruple",)
    iss: ClassVar[str] = "Quad"
    description: ClassVar[str] = "the values in the circle appear among the four cells around it"
    aliases: ClassVar[tuple[str, ...]] = ("quad",)
    min_cells: ClassVar[int] = 4
    max_cells: ClassVar[int | None] = 4

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "Quadruple":
        cells = cls.read_cells(data, geometry)
        rows, cols = {r for r, _ in cells}, {c for _, c in cells}
        if len(rows) != 2 or len(cols) != 2 or max(rows) - min(rows) != 1 or max(cols) - min(cols) != 1:
            raise BadInput("field \"cells\": the four cells must form a 2x2 block")
        values = params.int_list(data, "values", geometry.low,
                                 geometry.real(geometry.nvalues), max_len=4)
        return cls(tuple(sorted(cells)), tuple(sorted(values)))

    def to_data(self) -> dict[str, Any]:
        return dict(super().to_data(), values=list(self.values))

    def need(self, g: Geometry) -> Counter[int]:
        """Return how often each value index (1..N) must appear."""
        return Counter(v - g.offset for v in self.values)

    def lower(self, b) -> None:
        xs = b.vars(self.cells)
        for v, times in self.need(b.geometry).items():       # as contain-at-least does
            count_where(b, xs, v.__eq__, f"is {v}", ">=", times)

    MAX_FILLINGS: ClassVar[int] = 600

    def implied(self, geometry: Geometry) -> list[tuple[tuple[Cell, ...], list[tuple[int, ...]]]]:
        """Every filling of the four cells at once (for two values listed or more, up to
        MAX_FILLINGS): the values find their places together, as four values fill the block,
        which one count per value does not see."""
        fillings = self.fillings(geometry) if len(self.values) >= 2 else None
        return [(self.cells, fillings)] if fillings is not None else []

    def fillings(self, g: Geometry) -> list[tuple[int, ...]] | None:
        """Return every filling of the four cells that holds the listed values, cells that
        share a row, column or box differing; None past MAX_FILLINGS or above 9x9."""
        if g.nvalues > 9:
            return None
        idx = [g.index(c) for c in self.cells]
        apart = [(j, k) for k in range(4) for j in range(k) if idx[j] in g.peers[idx[k]]]
        wanted = sorted(self.need(g).elements())
        n = g.nvalues
        if len(wanted) > 4 or any(not 1 <= v <= n for v in wanted):
            return []
        out = _block_fillings(tuple(wanted), tuple(apart), n, self.MAX_FILLINGS)
        return None if out is None else list(out)

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = values_at(grid, geometry, self.cells)
        filled = [v for v in vals if v]
        for v, times in self.need(geometry).items():
            missing = times - filled.count(v)
            if missing > vals.count(0):
                yield (f"the quadruple at {where(self.cells)} cannot hold {geometry.real(v)} "
                       f"{times} time(s)")

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.CORNER, tuple(geometry.index(c) for c in self.cells),
                      " ".join(map(str, self.values)))]

    technique: ClassVar[str] = "Quadruple"
    technique_score: ClassVar[int] = 20
    technique_level: ClassVar[str] = "Easy"
    technique_summary: ClassVar[str] = (
        "a quadruple's values need places among its four cells: a value only as many cells "
        "as it needs can hold fills them; four different values leave room for nothing else")

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """The circle's values must find places among the four cells: a value that only one
        cell can hold is that cell's; with four different values listed, no other value fits."""
        idx = [geometry.index(c) for c in self.cells]
        need = self.need(geometry)
        drop: dict[int, int] = {}
        why = ""
        if len(self.values) == 4 and len(need) == 4:
            listed = sum(1 << (v - 1) for v in need)
            drop = {i: cands[i] & ~listed for i in idx if cands[i] & ~listed}
            why = f"the four cells hold {', '.join(map(str, self.values))} and nothing else"
        if not drop:
            for v, times in need.items():
                bit = 1 << (v - 1)
                able = [i for i in idx if cands[i] & bit]
                if len(able) == times:
                    drop = {i: cands[i] & ~bit for i in able if cands[i] & ~bit}
                    if drop:
                        why = (f"{geometry.real(v)} must appear {times} "
                               f"time{'s' if times > 1 else ''} and "
                               f"only {len(able)} of the cells can hold it")
                        break
        if not drop:
            return None
        return drop, f"the quadruple at {cells_phrase(self.cells)}: {why}"

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell) -> Any:
        """`Quad~R1C1~v~v…`: the values round the corner below right of the cell named."""
        if len(args) < 2:
            raise BadInput("unexpected arguments")
        r, c = parse_cell(cell(args[0]))
        return {"kind": cls.kind, "cells": [cell_name(x) for x in
                                            ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))],
                "values": [iss_number(v) for v in args[1:]]}

    def iss_items(self, n: int, cell) -> list[str]:
        return ["~".join(["Quad", cell(min(self.cells)), *map(str, self.values)])]

    @classmethod
    def fpuzzles_read(cls, element: dict[str, Any], cells: list[str],
                      key: str) -> dict[str, Any] | None:
        return {"kind": cls.kind, "cells": cells,
                "values": [fpuzzles_number(v, key) for v in element.get("values") or []]}

    def fpuzzles_written(self) -> dict[str, Any]:
        return {"values": list(self.values)}


@lru_cache(maxsize=256)
def _compositions(total: int, parts: int, n: int) -> tuple[tuple[int, ...], ...]:
    """Return every tuple of `parts` values of 1..n that adds up to `total`, in order."""
    if parts == 0:
        return ((),) if total == 0 else ()
    return tuple((v, *rest) for v in range(1, min(n, total - parts + 1) + 1)
                 for rest in _compositions(total - v, parts - 1, n))


@lru_cache(maxsize=256)
def _block_fillings(wanted: tuple[int, ...], apart: tuple[tuple[int, int], ...], n: int,
                    limit: int) -> tuple[tuple[int, ...], ...] | None:
    """Return every filling of four cells (values 1..n) that holds the `wanted` values, the
    cells of each `apart` pair differing, in order; None past `limit`. It depends on nothing
    else, so quadruples of the same values and shape share it (a grid of boxes has two
    shapes: inside a box, or across a border)."""
    if len(apart) == 6:              # the four cells all differ: orders of value sets
        if len(set(wanted)) < len(wanted):
            return ()
        others = [v for v in range(1, n + 1) if v not in wanted]
        out = sorted(p for extra in combinations(others, 4 - len(wanted))
                     for p in permutations((*wanted, *extra)))
        return tuple(out) if len(out) <= limit else None
    # the listed values put in their places every way, the other cells any value: a few
    # hundred candidates, where a search cell by cell asked thousands of questions
    found: set[tuple[int, ...]] = set()
    values = range(1, n + 1)
    for places in set(permutations(range(4), len(wanted))):
        at = dict(zip(places, wanted))
        found.update(product(*[(at[k],) if k in at else values for k in range(4)]))
    if len(apart) >= 2:     # the pairs apart as two item getters compared side by side
        left, right = itemgetter(*[j for j, _ in apart]), itemgetter(*[k for _, k in apart])
        out = sorted(t for t in found if all(map(ne, left(t), right(t))))
    else:
        out = sorted(t for t in found if all(t[j] != t[k] for j, k in apart))
    return tuple(out) if len(out) <= limit else None


@dataclass(frozen=True)
class ColumnIndex(CellsRule):
    """A value X in marked cell (r, c) says that cell (r, X) holds c."""

    kind: ClassVar[str] = "column-index"
    any_count: ClassVar[bool] = True
    any_shape: ClassVar[bool] = True    # X is a place along the cell's own row (column)
    fpuzzles: ClassVar[tuple[str, ...]] = ("columnindexer", "columnindex")
    iss: ClassVar[str] = "Indexing"
    drawn_colour: ClassVar[str] = "#dadaeb"
    description: ClassVar[str] = "a value X in a marked cell of column C puts C in column X of its row"
    aliases: ClassVar[tuple[str, ...]] = ("columnindex", "column-indexing", "col-index")
    by_row: ClassVar[bool] = False
    # the values themselves are places and column (row) numbers 1..N, as ISS reads them: on
    # 0..8 a 0 points at no column and column 9's number is no value, so neither can stand
    any_values: ClassVar[bool] = True

    def target(self, cell: Cell, x: int, g: Geometry) -> tuple[Cell, int] | None:
        """Return the cell the value of index x in `cell` points at and the index of the
        value it must hold (its column or row number), None when either is not on the grid."""
        r, c = cell
        place, must = g.real(x), (r if self.by_row else c) + 1 - g.offset
        if not (1 <= place <= (g.size if self.by_row else g.width) and 1 <= must <= g.nvalues):
            return None
        return ((place - 1, c), must) if self.by_row else ((r, place - 1), must)

    def lower(self, b) -> None:
        g = b.geometry
        for cell in self.cells:
            var = b.var(cell)
            # a value naming no cell or no value, or naming its own cell and another value
            stuck = {x for x in b.domain(var) if (t := self.target(cell, x, g)) is None
                     or t[0] == cell and t[1] != x}
            if stuck:
                b.unary(var, lambda a, stuck=stuck: a not in stuck)
            for x in b.domain(var):
                t = self.target(cell, x, g)
                if t is not None and t[0] != cell:
                    other, must = t
                    for w in b.domain(b.var(other)):
                        if w != must:
                            b.nogood(var, x, b.var(other), w)

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        g = geometry
        for cell in self.cells:
            x = value_at(grid, geometry, cell)
            if not x:
                continue
            t = self.target(cell, x, g)
            what = "row" if self.by_row else "column"
            if t is None:
                yield (f"{cell_name(cell)}={g.real(x)} points at no {what}, or its {what} "
                       f"number is no value of {g.values_words()} ({self.kind})")
                continue
            other, must = t
            v = value_at(grid, geometry, other)
            if v and v != must:
                yield (f"{cell_name(cell)}={g.real(x)} says {cell_name(other)} holds "
                       f"{g.real(must)}, but it holds {g.real(v)} ({self.kind})")

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.SHADE, tuple(geometry.index(c) for c in self.cells), style="index")]

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell) -> Any:
        """`Indexing~C~cells` (column indexing) or `Indexing~R~cells` (row indexing)."""
        if not args or args[0] not in ("R", "C"):
            raise BadInput("unexpected arguments")
        return {"kind": RowIndex.kind if args[0] == "R" else ColumnIndex.kind,
                "cells": [cell(a) for a in args[1:]]}

    def write_iss(self, n: int, cell) -> list[str]:
        return ["R" if self.kind == RowIndex.kind else "C", *(cell(c) for c in self.cells)]

    @classmethod
    def fpuzzles_rules(cls, key: str, value: Any, n: int, cell) -> list[Any]:
        """All the key's elements (each its `cells`, or one `cell`) as one rule."""
        items = value if isinstance(value, list) else []
        return [{"kind": cls.kind, "cells": [
            c for e in items for c in (fpuzzles_cells(e["cells"], cell, key) if "cells" in e
                                       else [cell(e.get("cell"))])]}]


@dataclass(frozen=True)
class RowIndex(ColumnIndex):
    """A value X in marked cell (r, c) says that cell (X, c) holds r."""

    kind: ClassVar[str] = "row-index"
    any_count: ClassVar[bool] = True
    fpuzzles: ClassVar[tuple[str, ...]] = ("rowindexer", "rowindex")
    description: ClassVar[str] = "a value X in a marked cell of row R puts R in row X of its column"
    aliases: ClassVar[tuple[str, ...]] = ("rowindex", "row-indexing")
    by_row: ClassVar[bool] = True


KINDS = (Arrow, Clone, Quadruple, ColumnIndex, RowIndex)

