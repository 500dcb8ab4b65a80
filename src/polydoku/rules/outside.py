"""Clues outside the grid: little killer diagonals, sandwiches, X-sums and skyscrapers.

Sandwiches, X-sums and skyscrapers need to know positions and running maxima, so they lower
through auxiliary variables: small tables tie each auxiliary to its cells, and one sum
finishes the clue. Auxiliary values are 1-based (a 0/1 flag is stored as 1/2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, Iterator

from ..errors import BadInput
from ..model.geometry import Cell, Geometry, cell_name
from ..model.rules import Rule, Shape, ShapeKind
from . import params
from .automaton import Unfolded, lower_line, unfold_steps
from .base import SIDES, OutsideRule, outside_cell, fpuzzles_number, iss_number, mask_values, span, values_at
from .cells import _matched, cage_sets

_STEPS = {"ul": (-1, -1), "ur": (-1, 1), "dl": (1, -1), "dr": (1, 1)}


@lru_cache(maxsize=16)
def iss_diagonals(n: int) -> dict[str, tuple[Cell, ...]]:
    """Return the Interactive Sudoku Solver's little killer diagonals of an n x n grid: the
    name of the cell each starts at (the id ISS gives it) -> its cells, each diagonal of 2
    cells or more once, in the direction ISS reads it."""
    out: dict[str, tuple[Cell, ...]] = {}
    seen: set[frozenset[Cell]] = set()

    def add(r: int, c: int, dr: int, dc: int) -> None:
        cells = []
        while 0 <= r < n and 0 <= c < n:
            cells.append((r, c))
            r, c = r + dr, c + dc
        if len(cells) > 1 and frozenset(cells) not in seen:
            seen.add(frozenset(cells))
            out[cell_name(cells[0])] = tuple(cells)

    for row in range(n - 1):
        add(row, 0, 1, 1)
    for row in range(1, n - 1):
        add(row, n - 1, -1, -1)
    for col in range(1, n):
        add(0, col, 1, -1)
    for col in range(1, n - 1):
        add(n - 1, col, -1, 1)
    return out


@dataclass(frozen=True)
class LittleKiller(Rule):
    """The values along a diagonal, from a clue outside the grid, add up to its sum."""

    start: Cell
    direction: str
    total: int

    kind: ClassVar[str] = "little-killer"
    fpuzzles: ClassVar[tuple[str, ...]] = ("littlekillersum",)
    iss: ClassVar[str] = "LittleKiller"
    description: ClassVar[str] = "the values along the arrow's diagonal add up to the clue (repeats allowed)"
    aliases: ClassVar[tuple[str, ...]] = ("littlekiller", "little-killer-sum")

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "LittleKiller":
        start = params.one_cell(data, "cell", geometry)
        direction = params.choice(data, "direction", tuple(_STEPS))
        return cls(start, direction, params.integer(data, "sum", 0, geometry.size ** 2))

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "cell": cell_name(self.start),
                "direction": self.direction.upper(), "sum": self.total}

    def diagonal(self, g: Geometry) -> list[Cell]:
        """Return the cells from the start to the grid's edge."""
        dr, dc = _STEPS[self.direction]
        out, (r, c) = [], self.start
        while g.in_grid(r, c):
            out.append((r, c))
            r, c = r + dr, c + dc
        return out

    def footprint(self) -> tuple[Cell, ...]:
        return (self.start,)

    any_values: ClassVar[bool] = True       # `total` adds up the values themselves
    any_count: ClassVar[bool] = True

    def index_total(self, g: Geometry) -> int:
        """Return what the diagonal's value indices add up to (its sum on values 1..N)."""
        return self.total - len(self.diagonal(g)) * g.offset

    def lower(self, b) -> None:
        xs = b.vars(self.diagonal(b.geometry))
        b.linear(xs, [1] * len(xs), self.index_total(b.geometry))

    technique: ClassVar[str] = "Little Killer"
    technique_score: ClassVar[int] = 20
    technique_level: ClassVar[str] = "Easy"
    technique_summary: ClassVar[str] = (
        "the cells of a little killer diagonal add up to its sum (repeats allowed): bounds "
        "each way")

    def logic_cells(self, geometry: Geometry) -> tuple[Cell, ...]:
        return tuple(self.diagonal(geometry))

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """Sum bounds along the diagonal (repeats allowed): each cell is at least the sum
        less what the others can hold at most, and at most the sum less their least."""
        cells = self.diagonal(geometry)
        idx = [geometry.index(c) for c in cells]
        masks = [cands[i] for i in idx]
        if not all(masks):
            return None
        lows = [(m & -m).bit_length() for m in masks]
        highs = [m.bit_length() for m in masks]
        s_lo, s_hi = sum(lows), sum(highs)
        drop, total = {}, self.index_total(geometry)
        for i, m, lo, hi in zip(idx, masks, lows, highs):
            least, most = total - (s_hi - hi), total - (s_lo - lo)
            keep = m & span(least, most)
            if m & ~keep:
                drop[i] = m & ~keep
        if not drop:
            return None
        shift = len(cells) * geometry.offset         # the values are the indices + offset
        return drop, (f"the little killer {self.total} from {cell_name(self.start)} adds up "
                      f"{len(cells)} cells that can make {s_lo + shift} to {s_hi + shift}")

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        cells = self.diagonal(geometry)
        vals = values_at(grid, geometry, cells)
        if 0 not in vals and sum(map(geometry.real, vals)) != self.total:
            yield (f"the little killer diagonal from {cell_name(self.start)} adds up to "
                   f"{sum(map(geometry.real, vals))}, not {self.total}")

    def describe(self, geometry: Geometry) -> str:
        return f"little killer {self.total} from {cell_name(self.start)}"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.OUTSIDE, (geometry.index(self.start),), str(self.total), self.direction)]

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell) -> Any:
        """`LittleKiller~S~R1C2`: the diagonal ISS starts at that cell (`iss_diagonals`)."""
        if len(args) != 2:
            raise BadInput("LittleKiller takes a sum and the diagonal's first cell")
        cells = iss_diagonals(n).get(cell(args[1]))
        if cells is None:
            raise BadInput(f"LittleKiller: no diagonal starts at {args[1][:10]!r}")
        step = (cells[1][0] - cells[0][0], cells[1][1] - cells[0][1])
        return {"kind": cls.kind, "cell": cell_name(cells[0]),
                "direction": {v: k for k, v in _STEPS.items()}[step].upper(),
                "sum": iss_number(args[0])}

    def iss_items(self, n: int, cell) -> list[str]:
        along = set(self.diagonal(Geometry.of_size(n)))
        for cells in iss_diagonals(n).values():
            if set(cells) == along:
                return [f"LittleKiller~{self.total}~{cell(cells[0])}"]
        raise BadInput(f"the diagonal from {cell_name(self.start)} is not a whole diagonal of 2 "
                       f"cells or more, the only ones ISS takes")

    @classmethod
    def fpuzzles_rules(cls, key: str, value: Any, n: int, cell) -> list[Any]:
        """Each clue with a value: its cell outside the grid and the direction it points."""
        out = []
        for e in value if isinstance(value, list) else []:
            if e.get("value") in (None, ""):
                continue
            r, c = outside_cell(cell(e.get("cell"), outside=True))
            direction = str(e.get("direction", "")).upper()
            if direction.lower() not in _STEPS:
                raise BadInput(f"littlekillersum: bad direction {direction[:4]!r}")
            dr, dc = _STEPS[direction.lower()]
            if not (1 <= r + dr <= n and 1 <= c + dc <= n):
                raise BadInput(f"littlekillersum at R{r}C{c} points outside the grid")
            out.append({"kind": cls.kind, "cell": f"r{r + dr}c{c + dc}", "direction": direction,
                        "sum": fpuzzles_number(e["value"], key)})
        return out

    def fpuzzles_entries(self, n: int, cell) -> dict[str, Any]:
        dr, dc = _STEPS[self.direction]
        r, c = self.start
        return {"littlekillersum": [{"cell": cell((r - dr, c - dc)),
                                     "direction": self.direction.upper(),
                                     "value": str(self.total)}]}


@dataclass(frozen=True)
class Sandwich(OutsideRule):
    """The cells between the lowest and the highest value (1 and N) of a row or column add up
    to the clue."""

    kind: ClassVar[str] = "sandwich"
    fpuzzles: ClassVar[tuple[str, ...]] = ("sandwichsum",)
    iss: ClassVar[str] = "Sandwich"
    description: ClassVar[str] = ("the values between the lowest (1) and the highest value add "
                                  "up to the clue")
    aliases: ClassVar[tuple[str, ...]] = ("sandwich-sum", "sandwichsum")
    # the crusts are the lowest and the highest value (0 and 8 on 0..8); the sum adds up the
    # values themselves
    any_values: ClassVar[bool] = True
    # a row or column shorter than the count of values (a rectangle's short side, or a grid
    # of more values than cells) may lack the 1 or the N: its crusts are then its own
    # smallest and largest values, as ISS reads every sandwich (a lunchbox of the line)
    any_count: ClassVar[bool] = True
    any_shape: ClassVar[bool] = True

    def lower(self, b) -> None:
        line = self.line(b.geometry)
        if len(line) < b.nvalues:
            from .kind.lunchbox import Lunchbox
            Lunchbox(tuple(line), self.value).lower(b)
            return
        n, off = b.nvalues, b.geometry.offset
        xs = b.vars(line)
        lo = b.new_var(n, "place of 1")
        hi = b.new_var(n, f"place of {n}")
        # per cell, for each placing of the ends, the values it can hold: the lowest value at
        # the place of 1 and there only, the highest at the place of n and there only (which
        # ties each place to its cell both ways: no nogoods beside, 288 a clue, needed),
        # between them a value of some set of that many middle values with the sum, outside
        # them the rest; the sum itself is the linear below
        for x, rows in zip(xs, _sandwich_rows(n, self.value, off)):
            b.table((lo, hi, x), rows)
        parts = []
        counted = tuple((f, a, a + off + 1 if f == 2 else 1) for f in (1, 2) for a in range(1, n + 1))
        for j, x in enumerate(xs):
            inside = b.new_var(2, f"cell {j + 1} inside")
            b.table((lo, hi, inside), _between_rows(n, j + 1))
            part = b.new_var(n + off + 1, f"cell {j + 1} counts")      # its value + 1 inside
            b.table((inside, x, part), counted)
            parts.append(part)
        b.linear(parts, [1] * n, self.value + n)

    technique: ClassVar[str] = "Sandwich"
    technique_score: ClassVar[int] = 30
    technique_level: ClassVar[str] = "Medium"
    technique_summary: ClassVar[str] = (
        "the places of the 1 and the N a sandwich clue allows, with the sets of different "
        "values between them that make its sum and the values each set leaves over outside")

    def logic_cells(self, geometry: Geometry) -> tuple[Cell, ...]:
        return tuple(self.line(geometry.size))

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """The places of the 1 and the N that the candidates allow, and for each the sets of
        different values between them that make the sum: a candidate no such placing uses
        goes (between: a value of a fitting set; outside: a value the set leaves over, the
        row holding every value once)."""
        n = geometry.size
        idx = [geometry.index(c) for c in self.line(n)]
        masks = [cands[i] for i in idx]
        one, top = 1, 1 << (n - 1)
        keep = [0] * n
        places = []
        for p in range(n):
            if not masks[p] & one:
                continue
            for q in range(n):
                if q == p or not masks[q] & top:
                    continue
                fill = _sandwich_fill(masks, p, q, self.value, n, geometry.offset)
                if fill is None:
                    return None
                if not any(fill):
                    continue
                places.append((p, q))
                keep = [a | b for a, b in zip(keep, fill)]
        drop = {i: m & ~k for i, m, k in zip(idx, masks, keep) if m & ~k}
        if not drop:
            return None
        cells = self.line(n)
        lo, hi = geometry.low, geometry.real(n)
        where = "; ".join(f"{lo} at {cell_name(cells[p])} and {hi} at {cell_name(cells[q])}"
                          for p, q in places[:3])
        more = f" (or {len(places) - 3} more placings)" if len(places) > 3 else ""
        return drop, (f"the sandwich {self.value} {self.place()} fits only with "
                      f"{where or f'no placing of the {lo} and the {hi}'}{more}, each "
                      f"with the values the sum leaves over outside it")

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = values_at(grid, geometry, self.line(geometry))
        n = geometry.nvalues
        if 0 in vals:
            return
        if len(vals) < n:               # a short line: its own smallest and largest values
            from .kind.lunchbox import between_sum
            total = between_sum([geometry.real(v) for v in vals])
            if total != self.value:
                yield (f"the sandwich {self.place()} holds {total} between its smallest and "
                       f"largest value, not {self.value}")
            return
        if 1 not in vals or n not in vals:
            return
        i, j = sorted((vals.index(1), vals.index(n)))
        total = sum(map(geometry.real, vals[i + 1:j]))
        if total != self.value:
            yield f"the sandwich {self.place()} holds {total}, not {self.value}"

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell) -> Any:
        """`Sandwich~S~R3` (a row, its clue on the left) or `~C3` (a column, on top)."""
        if len(args) != 2 or not re.fullmatch(r"[RC]\d{1,2}", args[1]):
            raise BadInput("unexpected arguments")
        return {"kind": cls.kind, "side": "left" if args[1][0] == "R" else "top",
                "index": int(args[1][1:]), "sum": iss_number(args[0])}

    def iss_items(self, n: int, cell) -> list[str]:
        side = "R" if self.side in ("left", "right") else "C"
        return [f"Sandwich~{self.value}~{side}{self.index + 1}"]


def _sandwich_fill(masks: list[int], p: int, q: int, total: int, n: int,
                   off: int = 0) -> list[int] | None:
    """Return, per cell of the line, the values it can hold with the 1 at p and the n at q
    (indices; each value is its index + `off`): between them a set of different middle values
    making `total`, outside them the middle values that set leaves over (all zeros when
    nothing fits; None past the sets' limit)."""
    one, top = 1, 1 << (n - 1)
    middle = ((1 << n) - 1) & ~(one | top)
    lo, hi = min(p, q), max(p, q)
    inner = [masks[j] & middle for j in range(lo + 1, hi)]
    outer = [j for j in range(n) if not lo <= j <= hi]
    out_masks = [masks[j] & middle for j in outer]
    found = (cage_sets(n, inner, total - len(inner) * off) if inner
             else ([], [()] if total == 0 else []))
    if found is None:
        return None
    fill = [0] * n
    for combo in found[1]:
        chosen = sum(1 << (v - 1) for v in combo)
        used_in = _matched(inner, chosen) if inner else []
        if inner and not any(used_in):
            continue
        used_out = _matched(out_masks, middle & ~chosen) if outer else []
        if outer and not any(used_out):
            continue
        for j, m in zip(range(lo + 1, hi), used_in):
            fill[j] |= m
        for j, m in zip(outer, used_out):
            fill[j] |= m
        fill[p] |= one
        fill[q] |= top
    return fill


@lru_cache(maxsize=64)
def _skyscraper_line(n: int, length: int, count: int, zero: bool) -> Unfolded:
    """Return a skyscraper clue's line as an automaton unfolded over its `length` cells of
    values 1..n: its states the highest value so far and how many values were seen (a value
    is seen when higher than all before; on a grid of 0..n-1, `zero`, the value 0, index 1,
    never is), accepting exactly `count` seen."""
    def step(state: tuple[int, int], a: int) -> tuple[int, int] | None:
        m, c = state
        if a <= m:
            return state
        return (a, c + 1) if c < count else None      # never back down to the clue

    return unfold_steps((1, 0) if zero else (0, 0), step, lambda state: state[1] == count,
                        length, n)


@lru_cache(maxsize=64)
def _sandwich_rows(n: int, total: int, off: int) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Return, per place j of a sandwich line of n cells with clue `total`, the rows (place
    of 1, place of N, value) its cell's table allows: the lowest value at the place of 1 and
    there only, the highest at the place of N and there only, between them a value of some
    set of that many middle values with the sum, outside them the rest. They depend on the
    clue alone, so clues of one total share them."""
    inside_ok, outside_ok = _sandwich_digits(n, total, off)
    ends = [(p, q, abs(p - q) - 1) for p in range(1, n + 1) for q in range(1, n + 1)
            if p != q and abs(p - q) - 1 in inside_ok]
    inside = {k: sorted(v) for k, v in inside_ok.items()}
    outside = {k: sorted(outside_ok[k]) for k in inside_ok}
    out = []
    for j in range(1, n + 1):
        rows: list[tuple[int, int, int]] = []
        for p, q, k in ends:
            if j == p or j == q:
                rows.append((p, q, 1 if j == p else n))
                continue
            rows += [(p, q, a) for a in (inside[k] if min(p, q) < j < max(p, q) else outside[k])]
        out.append(tuple(rows))
    return tuple(out)


@lru_cache(maxsize=64)
def _between_rows(n: int, j: int) -> tuple[tuple[int, int, int], ...]:
    """Return the rows (place of 1, place of N, flag) of a sandwich line's place j: flag 2
    when j lies strictly between the two ends, else 1."""
    return tuple((p, q, 2 if min(p, q) < j < max(p, q) else 1)
                 for p in range(1, n + 1) for q in range(1, n + 1) if p != q)


def _sandwich_digits(n: int, total: int, off: int = 0
                     ) -> tuple[dict[int, set[int]], dict[int, set[int]]]:
    """Return, per number k of cells between the 1 and the n, the values those cells can hold
    (some k-set of indices 2..n-1, each value its index + `off`, adds up to `total`) and the
    values the other cells can hold."""
    from itertools import combinations
    middle = range(2, n)
    inside: dict[int, set[int]] = {}
    outside: dict[int, set[int]] = {}
    for k in range(0, n - 1):
        for combo in combinations(middle, k):
            if sum(combo) + k * off == total:
                inside.setdefault(k, set()).update(combo)
                outside.setdefault(k, set()).update(set(middle) - set(combo))
    return inside, outside


@dataclass(frozen=True)
class XSum(OutsideRule):
    """Seen from the clue, the first X cells add up to the clue, X being the first cell's value."""

    kind: ClassVar[str] = "x-sum"
    fpuzzles: ClassVar[tuple[str, ...]] = ("xsum",)
    iss: ClassVar[str] = "XSum"
    description: ClassVar[str] = "the first X cells add up to the clue, X being the first one's value"
    aliases: ClassVar[tuple[str, ...]] = ("xsum", "x-sums")
    # X is the first cell's value itself and the sum adds up values (on 0..8 a 0 counts no
    # cell, and a first value past N cells fits no row)
    any_values: ClassVar[bool] = True

    def lower(self, b) -> None:
        n, off = b.size, b.geometry.offset
        xs = b.vars(self.line(n))
        first = xs[0]
        # implied, for propagation: for each first index k (X = k + off), what each later
        # cell can hold
        firsts, refused, counted = _x_sum_parts(n, self.value, off, b.nvalues)
        b.unary(first, firsts.__contains__)
        for x, pairs in zip(xs[1:], refused):
            b.refuse(first, x, pairs)
        parts = []
        for j, (x, rows) in enumerate(zip(xs[1:], counted), start=2):
            part = b.new_var(n + off + 1, f"cell {j} counts")      # its value + 1 when counted
            b.table((first, x, part), rows)
            parts.append(part)
        # the first cell counts itself (X >= 1) or is 0: its value either way
        b.linear([first, *parts], [1] * n, self.value - off + n - 1)

    technique: ClassVar[str] = "X-Sum"
    technique_score: ClassVar[int] = 30
    technique_level: ClassVar[str] = "Medium"
    technique_summary: ClassVar[str] = (
        "the values the first cell of an X-sum can hold, each with the sets of different "
        "values the next cells need to make the sum")

    def logic_cells(self, geometry: Geometry) -> tuple[Cell, ...]:
        return tuple(self.line(geometry.size))

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """For each value X the first cell can hold, the sets of X-1 different values (not X)
        the next X-1 cells can hold that make the rest of the sum: an X with none goes, and
        so does a candidate of those cells that no X's sets use."""
        n, off = geometry.size, geometry.offset
        idx = [geometry.index(c) for c in self.line(n)]
        masks = [cands[i] for i in idx]
        keep = [0] * n
        firsts = []
        for k in range(1, n + 1):
            x = k + off                     # the value X, how many cells count
            if not masks[0] >> (k - 1) & 1 or x > n:
                continue
            bit = 1 << (k - 1)
            inner = [m & ~bit for m in masks[1:x]]
            if inner:
                found = cage_sets(n, inner, self.value - x - len(inner) * off)
                if found is None:
                    return None
                inside, fits = found
                if not fits or not all(inside):
                    continue
            elif x != self.value:           # X = 1 (the cell alone) or 0 (none: sum 0)
                continue
            else:
                inside = []
            firsts.append(x)
            keep[0] |= bit
            for j, m in enumerate(inside, start=1):
                keep[j] |= m
            for j in range(max(x, 1), n):
                keep[j] |= masks[j]
        drop = {i: m & ~k for i, m, k in zip(idx, masks, keep) if m & ~k}
        if not drop:
            return None
        first = cell_name(self.line(n)[0])
        return drop, (f"the X-sum {self.value} {self.place()} fits only with "
                      + (f"{first} = {' or '.join(map(str, firsts))}" if firsts
                         else f"no value at {first}"))

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = values_at(grid, geometry, self.line(geometry.size))
        if not vals[0]:
            return
        x = geometry.real(vals[0])
        if x > len(vals):
            yield f"the X-sum {self.place()} counts {x} cells, its row holds {len(vals)}"
        elif 0 not in vals[:x] and sum(map(geometry.real, vals[:x])) != self.value:
            yield (f"the X-sum {self.place()} is {sum(map(geometry.real, vals[:x]))}, "
                   f"not {self.value}")


@lru_cache(maxsize=64)
def _x_sum_parts(n: int, total: int, off: int, nvalues: int
                 ) -> tuple[frozenset[int], tuple[tuple[tuple[int, int], ...], ...],
                            tuple[tuple[tuple[int, int, int], ...], ...]]:
    """Return what an x-sum clue of `total` on a line of n cells says, which depends on the
    clue alone (clues of one total share it): the first cell's indices that some sum allows;
    per later place j = 2..n, the pairs (first's index, its index) it refuses (the next X-1
    cells hold values of some set that makes the sum, the cells after them the rest); and
    per place the rows (first's index, its index, its value + 1 when counted, else 1)."""
    inside_ok, outside_ok = _x_sum_digits(n, total, off)
    values = range(1, nvalues + 1)
    refused = tuple(
        tuple((k, a) for k in values for a in values
              if not (k in inside_ok and a in (inside_ok[k] if j <= k + off else outside_ok[k])))
        for j in range(2, n + 1))
    counted = tuple(tuple((k, a, a + off + 1 if j <= k + off else 1)
                          for k in range(1, n + 1) for a in range(1, n + 1))
                    for j in range(2, n + 1))
    return frozenset(inside_ok), refused, counted


def _x_sum_digits(n: int, total: int, off: int = 0
                  ) -> tuple[dict[int, set[int]], dict[int, set[int]]]:
    """Return, per first index k (its value X = k + `off`), the indices the next X-1 cells
    can hold (some set of X-1 other values adds up to total - X) and those the cells after
    them can hold; a first value of 0 counts no cell (the sum then 0)."""
    from itertools import combinations
    inside: dict[int, set[int]] = {}
    outside: dict[int, set[int]] = {}
    for k in range(1, n + 1):
        x = k + off
        others = [v for v in range(1, n + 1) if v != k]
        if x == 0 and total == 0:
            inside[k], outside[k] = set(), set(others)
        if not 1 <= x <= n:
            continue
        for combo in combinations(others, x - 1):
            if sum(combo) + (x - 1) * off + x == total:
                inside.setdefault(k, set()).update(combo)
                outside.setdefault(k, set()).update(set(others) - set(combo))
    for k in inside:
        outside.setdefault(k, set())
    return inside, outside


@dataclass(frozen=True)
class Skyscraper(OutsideRule):
    """Seen from the clue, exactly that many values are visible (each larger than all before;
    a 0 is no skyscraper, as in ISS, so on a grid of 0..N-1 a 0 is never seen)."""

    kind: ClassVar[str] = "skyscraper"
    any_values: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    any_shape: ClassVar[bool] = True
    fpuzzles: ClassVar[tuple[str, ...]] = ("skyscraper",)
    iss: ClassVar[str] = "Skyscraper"
    description: ClassVar[str] = "the clue counts the values seen from it, each larger than all before"
    aliases: ClassVar[tuple[str, ...]] = ("skyscrapers",)
    value_field: ClassVar[str] = "count"

    def lower(self, b) -> None:
        # the line read as an automaton of (highest value so far, values seen), unfolded
        # over its cells: each cell's table holds exactly the steps some filling of the line
        # with that many seen takes, which filtering each table makes exact for the clue (the
        # highest so far and a seen flag per cell, tied by a sum, were not: ISS's "all 5"
        # took 47 ms, polydoku over 5 s)
        cells = self.line(b.geometry)
        lower_line(b, cells, _skyscraper_line(b.nvalues, len(cells), self.value,
                                              b.geometry.low == 0), self.kind)

    technique: ClassVar[str] = "Skyscraper Clue"
    technique_score: ClassVar[int] = 30
    technique_level: ClassVar[str] = "Medium"
    technique_summary: ClassVar[str] = (
        "a skyscraper clue c sees c values, each higher than all before it: the cell d places "
        "from the clue is at most N-c+1+d, a clue of 1 puts the N next to it, and only the "
        "values some way of rising c times uses remain")

    def logic_cells(self, geometry: Geometry) -> tuple[Cell, ...]:
        return tuple(self.line(geometry.size))

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """Read from the clue, the row is a walk through (highest so far, values seen): a
        value rises the highest and is seen, a lower one is hidden, the highest again is a
        repeat (no row holds it twice). A candidate on no walk that ends with the clue's
        count seen goes."""
        n = geometry.size
        cells = self.line(n)
        idx = [geometry.index(c) for c in cells]
        keep = skyline(n, [cands[i] for i in idx], self.value, 1 if geometry.low == 0 else 0)
        drop = {i: cands[i] & ~k for i, k in zip(idx, keep) if cands[i] & ~k}
        if not drop:
            return None
        c = self.value
        if c == 1:
            why = f"the {geometry.real(n)} stands next to it, hiding everything behind"
        elif c == n:
            why = "the row rises one step at a time"
        else:
            why = (f"the cell d places from the clue is at most {geometry.real(n - c)}+d, "
                   f"and only the values some way of rising {c} times uses remain")
        return drop, (f"the skyscraper {c} {self.place()} sees {c} values along "
                      f"{cell_name(cells[0])}..{cell_name(cells[-1])}, each higher than "
                      f"all before it: {why}")

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = values_at(grid, geometry, self.line(geometry))
        if 0 in vals:
            return
        seen, top = 0, 0
        for v in map(geometry.real, vals):
            if v > top:
                seen, top = seen + 1, v
        if seen != self.value:
            yield f"the skyscraper clue {self.place()} sees {seen}, not {self.value}"


SKYLINE_STATES = 4000      # past this many states at one cell, the walk forgets which values it used


def skyline(n: int, masks: list[int], count: int, floor: int, whole: bool = True
            ) -> list[int]:
    """Return, per cell of a line read from a skyscraper clue, the candidates (bit a-1 for
    value a) that some filling seeing exactly `count` values keeps: states (values used,
    highest so far, seen) forward and backward, a value above the highest seen, a lower one
    hidden, each value once (a row holds it once); `floor` is a value never seen (0-indexed
    grids: index 1, the 0). With `whole` the line ends with the highest value n seen; else
    it is part of a line, ending anywhere (all zeros when no filling fits). Where the states
    grow past SKYLINE_STATES, the values used are forgotten (only a repeat of the highest is
    refused)."""
    return (_sky_walk(n, masks, count, floor, whole, exact=True)
            or _sky_walk(n, masks, count, floor, whole, exact=False) or [0] * len(masks))


def _sky_walk(n: int, masks: list[int], count: int, floor: int, whole: bool, exact: bool
              ) -> list[int] | None:
    """Return `skyline`'s answer, the values used kept (`exact`) or not; None when the exact
    walk grows past SKYLINE_STATES."""
    def after(state: tuple[int, int, int], a: int) -> tuple[int, int, int] | None:
        used, top, seen = state
        if exact and used >> (a - 1) & 1:
            return None
        nxt = _sky_step(top, seen, a, floor)
        return None if nxt is None else ((used | 1 << (a - 1)) if exact else 0, *nxt)

    fwd = [{(0, floor, 0)}]
    for m in masks:
        nxt = {st for state in fwd[-1] for a in range(1, n + 1) if m >> (a - 1) & 1
               for st in [after(state, a)] if st is not None}
        if exact and len(nxt) > SKYLINE_STATES:
            return None
        fwd.append(nxt)
    back = {st for st in fwd[-1] if st[2] == count and (st[1] == n or not whole)}
    keep = [0] * len(masks)
    for j in range(len(masks) - 1, -1, -1):
        prev = set()
        for state in fwd[j]:
            for a in range(1, n + 1):
                if masks[j] >> (a - 1) & 1 and after(state, a) in back:
                    keep[j] |= 1 << (a - 1)
                    prev.add(state)
        back = prev
    return keep


def _sky_step(top: int, seen: int, a: int, floor: int) -> tuple[int, int] | None:
    """Return the state after value `a` (None: a repeat of the highest seen)."""
    if a > top:
        return a, seen + 1
    if a == top and top > floor:
        return None
    return top, seen


@dataclass(frozen=True)
class NumberedRoom(OutsideRule):
    """Seen from the clue, the X-th cell holds the clue, X being the first cell's value."""

    value_field: ClassVar[str] = "value"
    iss_zero: ClassVar[bool] = True
    kind: ClassVar[str] = "numbered-room"
    any_count: ClassVar[bool] = True
    any_shape: ClassVar[bool] = True    # X names a place along the row or column, as long as it is
    iss: ClassVar[str] = "NumberedRoom"
    description: ClassVar[str] = "the X-th cell holds the clue, X being the first cell's value"
    aliases: ClassVar[tuple[str, ...]] = ("numberedroom", "numbered-rooms")
    # X is the first cell's value itself, a place 1..N along the row (a 0 or a value past N
    # names no cell, as ISS reads it), and the clue a value of the grid
    any_values: ClassVar[bool] = True

    @classmethod
    def value_range(cls, n: int) -> tuple[int, int]:
        return 1, n

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "OutsideRule":
        side = params.choice(data, "side", SIDES)
        across = geometry.width if side in ("top", "bottom") else geometry.size
        index = params.integer(data, "index", 1, across) - 1
        return cls(side, index, params.integer(data, cls.value_field, geometry.low,
                                               geometry.real(geometry.nvalues)))

    def room(self, v: int, g: Geometry) -> int:
        """Return the place (1..L along the clue's row or column of L cells) the first cell's
        value index v names, 0 for none."""
        x = g.real(v)
        return x if 1 <= x <= len(self.line(g)) else 0

    def lower(self, b) -> None:
        g = b.geometry
        xs = b.vars(self.line(g))
        first, clue = xs[0], self.value - g.offset          # the clue's index
        b.unary(first, lambda k: self.room(k, g) not in (0, 1) or (self.room(k, g) == 1
                                                                   and k == clue))
        for j, x in enumerate(xs[1:], start=2):
            b.relation(first, x, lambda k, a, j=j: self.room(k, g) != j or a == clue)

    technique: ClassVar[str] = "Numbered Room"
    technique_score: ClassVar[int] = 20
    technique_level: ClassVar[str] = "Easy"
    technique_summary: ClassVar[str] = (
        "a numbered room's first cell is X only where the X-th cell can hold the clue")

    def logic_cells(self, geometry: Geometry) -> tuple[Cell, ...]:
        return tuple(self.line(geometry.size))

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """The first cell is X only if the X-th cell can hold the clue; when the first cell
        is X, the X-th cell holds the clue."""
        n, clue = geometry.size, self.value - geometry.offset     # the clue's index
        idx = [geometry.index(c) for c in self.line(n)]
        first = idx[0]
        bit = 1 << (clue - 1)
        drop: dict[int, int] = {}
        for k in mask_values(cands[first]):
            x = self.room(k, geometry)
            if not x or not cands[idx[x - 1]] & bit or x == 1 and k != clue:
                drop[first] = drop.get(first, 0) | 1 << (k - 1)
        left = cands[first] & ~drop.get(first, 0)
        if left and not left & (left - 1):
            room = idx[self.room(left.bit_length(), geometry) - 1]
            if cands[room] & ~bit and room != first:
                drop[room] = cands[room] & ~bit
        if not drop:
            return None
        return drop, (f"the numbered room {self.value} {self.place()}: the first cell is X only "
                      f"where the X-th cell can hold {self.value}")

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = [grid[geometry.index(c)] for c in self.line(geometry)]
        n = len(vals)
        if not vals[0]:
            return
        x = self.room(vals[0], geometry)
        if not x:
            yield (f"the numbered room {self.value} {self.place()}: the first cell holds "
                   f"{geometry.real(vals[0])}, which names no cell of 1..{n}")
        elif vals[x - 1] and geometry.real(vals[x - 1]) != self.value:
            yield (f"the numbered room {self.value} {self.place()}: cell {x} holds "
                   f"{geometry.real(vals[x - 1])}")


KINDS = (LittleKiller, Sandwich, XSum, Skyscraper, NumberedRoom)
