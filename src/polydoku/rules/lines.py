"""Line rules: thermometers, whispers, renban, palindromes, between lines, entropic, modular
(any modulus), zipper, region-sum and parity lines. A line is an ordered list of cells."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial
from itertools import permutations
from math import factorial
from typing import Any, ClassVar, Iterator

from ..errors import BadInput
from ..model.geometry import Geometry, cell_name
from ..model.rules import Shape, ShapeKind
from . import params
from .base import (MAX_FILLINGS, CellsRule, fpuzzles_number, iss_number, iss_values_from_one, path_pieces, refuse_revisit, equal_pairs, mask_values, pair_support, span, union, values_at,
                   where)


@dataclass(frozen=True)
class _PairwiseLine(CellsRule):
    """A line whose rule is a relation between cells at most `reach` steps apart along it."""

    min_cells: ClassVar[int] = 2
    reach: ClassVar[int] = 1
    words: ClassVar[str] = ""
    along_path: ClassVar[bool] = True
    path_reach: ClassVar[int] = 1       # how far along a drawn path the statement relates cells

    @classmethod
    def from_path(cls, cells: list[str], extra: dict[str, Any]) -> list[dict[str, Any]]:
        """A path through a cell twice: pieces of distinct cells that overlap by the reach, so
        every relation along the path is kept."""
        if len(set(cells)) == len(cells):
            return [{"kind": cls.kind, "cells": cells, **extra}]
        return [{"kind": cls.kind, "cells": piece, **extra}
                for piece in path_pieces(cells, cls.path_reach, cls.kind)]

    def ok(self, a: int, b: int, steps: int, n: int) -> bool:
        """Return whether values a (earlier) and b (`steps` later) agree with the rule on an
        n x n grid."""
        raise NotImplementedError

    def pairs(self):
        """Yield (i, j, steps) for the line positions the rule relates."""
        n = len(self.cells)
        for i in range(n):
            for j in range(i + 1, min(n, i + self.reach + 1)):
                yield i, j, j - i

    def lower(self, b) -> None:
        xs = b.vars(self.cells)
        for i, j, d in self.pairs():
            b.relation(xs[i], xs[j], lambda a, c, d=d: self.ok(a, c, d, b.size))

    def rule_words(self) -> str:
        """Return the line's rule as logic's text says it ("neighbours differ by at least 5")."""
        return self.description

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """Line pairs: a candidate that no candidate of a cell it is related to along the line
        completes goes (the kinds that name a technique only)."""
        if not self.technique:
            return None
        n = geometry.size
        idx = [geometry.index(c) for c in self.cells]
        keep = [cands[i] for i in idx]
        for i, j, d in self.pairs():
            ki, kj = pair_support(keep[i], keep[j], partial(self.ok, steps=d, n=n))
            keep[i] &= ki
            keep[j] &= kj
        drop = {x: cands[x] & ~k for x, k in zip(idx, keep) if cands[x] & ~k}
        if not drop:
            return None
        return drop, (f"on the {self.kind} line from {cell_name(self.cells[0])}, "
                      f"{self.rule_words()}")

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = values_at(grid, geometry, self.cells)
        for i, j, d in self.pairs():
            a, c = vals[i], vals[j]
            if a and c and not self.ok(a, c, d, geometry.size):
                yield (f"{cell_name(self.cells[i])}={geometry.real(a)} and "
                       f"{cell_name(self.cells[j])}={geometry.real(c)} "
                       f"{self.words} ({self.kind} at {where(self.cells)})")


@dataclass(frozen=True)
class Thermometer(_PairwiseLine):
    """Values strictly increase from the bulb (the first cell)."""

    kind: ClassVar[str] = "thermometer"
    any_shape: ClassVar[bool] = True
    fpuzzles: ClassVar[tuple[str, ...]] = ("thermometer",)
    fpuzzles_form: ClassVar[str] = "lines"
    phrases: ClassVar[tuple[str | tuple[str, int], ...]] = (r"\bthermo(?:meter)?s?\b",)
    any_values: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    iss: ClassVar[str] = "Thermo"
    description: ClassVar[str] = "values strictly increase from the bulb"
    aliases: ClassVar[tuple[str, ...]] = ("thermo",)
    reach: ClassVar[int] = 64
    words: ClassVar[str] = "do not increase along the thermometer"

    @classmethod
    def line_marks(cls, cells: list[str]) -> dict[str, str]:
        return {cells[0]: f"{cls.kind} bulb"}

    def ok(self, a: int, b: int, steps: int, n: int) -> bool:
        return b - a >= steps

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.THERMO, tuple(geometry.index(c) for c in self.cells), style=self.kind)]

    technique: ClassVar[str] = "Thermometer"
    technique_score: ClassVar[int] = 20
    technique_level: ClassVar[str] = "Easy"
    technique_summary: ClassVar[str] = (
        "values rise along a thermometer: each cell is above what the cells before it need "
        "and below what the cells after it allow")
    rise: ClassVar[int] = 1                 # the least step from one cell to the next
    climbs: ClassVar[str] = "rise at every step"

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """Thermometer bounds: each cell is above what the cells before it need and below
        what the cells after it allow."""
        idx = [geometry.index(c) for c in self.cells]
        masks = [cands[i] for i in idx]
        if not all(masks):
            return None
        low = [(m & -m).bit_length() for m in masks]
        high = [m.bit_length() for m in masks]
        for j in range(1, len(idx)):
            low[j] = max(low[j], low[j - 1] + self.rise)
        for j in range(len(idx) - 2, -1, -1):
            high[j] = min(high[j], high[j + 1] - self.rise)
        drop, bounds = {}, []
        for i, m, lo, hi in zip(idx, masks, low, high):
            keep = span(lo, hi)
            if m & ~keep:
                drop[i] = m & ~keep
                bounds.append(f"{cell_name(geometry.cell(i))} {lo} to {hi}" if lo <= hi
                              else f"{cell_name(geometry.cell(i))} nothing")
        if not drop:
            return None
        return drop, (f"values {self.climbs} along the {self.kind} from "
                      f"{cell_name(self.cells[0])} ({len(self.cells)} cells), which leaves "
                      + ", ".join(bounds))

    @classmethod
    def read_off(cls, grid, geometry: Geometry, rng) -> list["Thermometer"]:
        """Return about N thermometers of 3 to 6 cells drawn on a full grid (each step to a
        king-move neighbour holding a higher value, no cell on two), for the generator."""
        n = geometry.size
        used: set[int] = set()
        out: list[Thermometer] = []
        for _ in range(4 * n):
            if len(out) >= n:
                break
            start = rng.randrange(n * n)
            if start in used:
                continue
            path = [start]
            while len(path) < 6:
                r, c = divmod(path[-1], n)
                options = [a * n + b for a in (r - 1, r, r + 1) for b in (c - 1, c, c + 1)
                           if 0 <= a < n and 0 <= b < n and a * n + b not in used
                           and a * n + b not in path and grid[a * n + b] > grid[path[-1]]]
                if not options:
                    break
                path.append(rng.choice(options))
            if len(path) >= 3:
                used.update(path)
                out.append(cls(tuple(geometry.cell(i) for i in path)))
        return out


@dataclass(frozen=True)
class SlowThermometer(Thermometer):
    """Values never decrease from the bulb (equal neighbours allowed)."""

    kind: ClassVar[str] = "slow-thermometer"
    any_shape: ClassVar[bool] = True
    fpuzzles: ClassVar[tuple[str, ...]] = ("slowthermometer",)
    fpuzzles_form: ClassVar[str] = "lines"
    phrases: ClassVar[tuple[str | tuple[str, int], ...]] = (r"slow thermo",)
    iss: ClassVar[str] = ""
    description: ClassVar[str] = "values never decrease from the bulb"
    aliases: ClassVar[tuple[str, ...]] = ("slow-thermo", "slowthermometer")
    words: ClassVar[str] = "decrease along the slow thermometer"

    def ok(self, a: int, b: int, steps: int, n: int) -> bool:
        return b >= a

    rise: ClassVar[int] = 0
    climbs: ClassVar[str] = "never fall"


@dataclass(frozen=True)
class Whispers(_PairwiseLine):
    """Neighbours along the line differ by at least `difference` (German whispers: 5)."""

    difference: int = 0

    kind: ClassVar[str] = "whispers"
    any_shape: ClassVar[bool] = True
    fpuzzles: ClassVar[tuple[str, ...]] = ("whispers",)
    fpuzzles_form: ClassVar[str] = "lines"
    phrases: ClassVar[tuple[str | tuple[str, int], ...]] = (
        (r"dutch whisper", 4),
        r"german whisper|whisper line|\bwhispers?\b|difference of (?:at least )?(?:5|five) or "
        r"more|differ by (?:at least )?(?:5|five)")
    path_number: ClassVar[str] = "difference"
    any_values: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    iss: ClassVar[str] = "Whisper"
    description: ClassVar[str] = "neighbours along the line differ by at least the difference"
    aliases: ClassVar[tuple[str, ...]] = ("german-whispers", "whisper")
    line_style: ClassVar[str] = "whispers"
    drawn_colour: ClassVar[str] = "#2ca02c"

    @property
    def words(self) -> str:   # type: ignore[override]
        return f"differ by less than {self.difference or 'half the size'}"

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "Whispers":
        cells = cls.read_cells(data, geometry)
        n = geometry.nvalues                    # German whispers: 5 apart on 1..9
        return cls(cells, params.integer(data, "difference", 1, n - 1, default=(n + 1) // 2))

    def to_data(self) -> dict[str, Any]:
        return dict(super().to_data(), difference=self.difference)

    def ok(self, a: int, b: int, steps: int, n: int) -> bool:
        return abs(a - b) >= (self.difference or (n + 1) // 2)

    technique: ClassVar[str] = "German Whispers"
    technique_score: ClassVar[int] = 20
    technique_level: ClassVar[str] = "Easy"
    technique_summary: ClassVar[str] = (
        "a candidate on a whispers line that no neighbour's candidate differs from by "
        "enough goes")

    def rule_words(self) -> str:
        return f"neighbours differ by at least {self.difference or 'half the size'}"

    @classmethod
    def read_iss(cls, args: list[str], cell) -> dict[str, Any]:
        """`Whisper~D~cells`, or the cells alone for ISS's default difference, 5."""
        if args and re.fullmatch(r"-?\d+", args[0]):
            return {"kind": cls.kind, "cells": [cell(a) for a in args[1:]],
                    "difference": iss_number(args[0])}
        return {"kind": cls.kind, "cells": [cell(a) for a in args], "difference": 5}

    def write_iss(self, n: int, cell) -> list[str]:
        return [str(self.difference or (n + 1) // 2), *(cell(c) for c in self.cells)]

    @classmethod
    def fpuzzles_read(cls, element: dict[str, Any], cells: list[str],
                      key: str) -> dict[str, Any] | None:
        rule: dict[str, Any] = {"kind": cls.kind, "cells": cells}
        if element.get("value") not in (None, ""):
            rule["difference"] = fpuzzles_number(element["value"], key)
        return rule

    def fpuzzles_written(self) -> dict[str, Any]:
        return {"value": str(self.difference)}


@dataclass(frozen=True)
class Palindrome(CellsRule):
    """The line reads the same from both ends."""

    kind: ClassVar[str] = "palindrome"
    any_shape: ClassVar[bool] = True
    fpuzzles: ClassVar[tuple[str, ...]] = ("palindrome",)
    fpuzzles_form: ClassVar[str] = "lines"
    phrases: ClassVar[tuple[str | tuple[str, int], ...]] = (
        r"palindrom|reads? the same (?:way )?(?:from )?(?:both|backwards?|in both)",)
    along_path: ClassVar[bool] = True

    @classmethod
    def from_path(cls, cells: list[str], extra: dict[str, Any]) -> list[dict[str, Any]]:
        """A path through a cell twice: the cells at mirrored places are equal (clones)."""
        if len(set(cells)) == len(cells):
            return [{"kind": cls.kind, "cells": cells, **extra}]
        pairs = dict.fromkeys(tuple(sorted((cells[i], cells[-1 - i])))
                              for i in range(len(cells) // 2) if cells[i] != cells[-1 - i])
        return [{"kind": "clone", "cells": [a], "copy": [b]} for a, b in pairs]
    any_values: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    iss: ClassVar[str] = "Palindrome"
    description: ClassVar[str] = "the line reads the same from both ends"
    min_cells: ClassVar[int] = 2
    line_style: ClassVar[str] = "palindrome"
    drawn_colour: ClassVar[str] = "#8c8c8c"

    def mirrored(self):
        """Yield the position pairs (i, j) that must hold equal values."""
        n = len(self.cells)
        for i in range(n // 2):
            yield i, n - 1 - i

    def lower(self, b) -> None:
        xs = b.vars(self.cells)
        for i, j in self.mirrored():
            b.relation(xs[i], xs[j], lambda a, c: a == c)

    technique: ClassVar[str] = "Palindrome"
    technique_score: ClassVar[int] = 20
    technique_level: ClassVar[str] = "Easy"
    technique_summary: ClassVar[str] = (
        "cells mirrored on a palindrome line hold the same value: each keeps what the other"
        " can")

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """Mirrored cells hold the same value: each keeps only what the other can hold."""
        idx = [geometry.index(c) for c in self.cells]
        mirrored = list(self.mirrored())
        drop = equal_pairs(cands, [(idx[i], idx[j]) for i, j in mirrored])
        pairs = [f"{cell_name(self.cells[i])} and {cell_name(self.cells[j])}" for i, j in mirrored
                 if cands[idx[i]] != cands[idx[j]]]
        if not drop:
            return None
        return drop, (f"the palindrome line from {cell_name(self.cells[0])} reads the same "
                      f"both ways, so {' and '.join(pairs[:1])}"
                      + ("" if len(pairs) == 1 else f" (and {len(pairs) - 1} more pairs)")
                      + " hold the same value")

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = values_at(grid, geometry, self.cells)
        for i, j in self.mirrored():
            if vals[i] and vals[j] and vals[i] != vals[j]:
                yield (f"{cell_name(self.cells[i])}={geometry.real(vals[i])} and "
                       f"{cell_name(self.cells[j])}={geometry.real(vals[j])} differ "
                       f"({self.kind} at {where(self.cells)})")


@dataclass(frozen=True)
class Renban(CellsRule):
    """The line holds different values that form a run of consecutive numbers."""

    any_count: ClassVar[bool] = True
    kind: ClassVar[str] = "renban"
    any_shape: ClassVar[bool] = True
    fpuzzles: ClassVar[tuple[str, ...]] = ("renban",)
    fpuzzles_form: ClassVar[str] = "lines"
    phrases: ClassVar[tuple[str | tuple[str, int], ...]] = (
        r"\brenbans?\b|consecutive(?: non-repeating| and non-repeating)? digits in any order"
        r"|set of (?:non-repeating )?consecutive digits|run of consecutive digits",)
    along_path: ClassVar[bool] = True

    @classmethod
    def from_path(cls, cells: list[str], extra: dict[str, Any]) -> list[dict[str, Any]]:
        """A renban's cells are a set: a cell passed twice counts once."""
        return [{"kind": cls.kind, "cells": list(dict.fromkeys(cells)), **extra}]
    any_values: ClassVar[bool] = True
    iss: ClassVar[str] = "Renban"
    description: ClassVar[str] = "the line holds a set of consecutive values, in any order"
    min_cells: ClassVar[int] = 2
    line_style: ClassVar[str] = "renban"
    drawn_colour: ClassVar[str] = "#9467bd"

    @classmethod
    def read_cells(cls, data, g):
        cells = super().read_cells(data, g)
        if len(cells) > g.nvalues:
            raise BadInput(f"field \"cells\": a renban line of {len(cells)} cells cannot hold "
                           f"different values 1..{g.nvalues}")
        return cells

    def lower(self, b) -> None:
        xs = b.vars(self.cells)
        b.all_different(xs)
        length = len(xs)
        low = b.new_var(b.nvalues - length + 1, "lowest value")
        for x in xs:
            b.relation(low, x, lambda lo, v: lo <= v <= lo + length - 1)

    def implied(self, geometry: Geometry) -> list:
        """Every filling of the line at once (a run of different values): the run's values
        must all find places, which each cell's range alone does not see."""
        k, n = len(self.cells), geometry.nvalues
        if n > 9 or len(set(self.cells)) != k:
            return []
        # every filling is an order of a run of k values, whatever the cells see of each
        # other: (n - k + 1) * k! of them, made at once rather than asked cell by cell
        if (n - k + 1) * factorial(k) > MAX_FILLINGS:
            return []
        table = sorted(p for low in range(1, n - k + 2)
                       for p in permutations(range(low, low + k)))
        return [(self.cells, table)] if table else []

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = self.complete(grid, geometry)
        if vals is not None and (len(set(vals)) != len(vals) or
                                 max(vals) - min(vals) != len(vals) - 1):
            yield (f"the renban line at {where(self.cells)} holds "
                   f"{sorted(map(geometry.real, vals))}, not a run")

    technique: ClassVar[str] = "Renban"
    technique_score: ClassVar[int] = 20
    technique_level: ClassVar[str] = "Easy"
    technique_summary: ClassVar[str] = (
        "a renban line holds a run of consecutive values: only the runs its cells can fill "
        "remain")

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """The line holds a run of len(cells) consecutive values: only the runs every cell can
        take part in remain (each cell a value of the run), and a cell keeps the values of
        those runs."""
        n, k = geometry.nvalues, len(self.cells)
        idx = [geometry.index(c) for c in self.cells]
        masks = [cands[i] for i in idx]
        fits = []
        for lo in range(1, n - k + 2):
            run = ((1 << k) - 1) << (lo - 1)
            if all(m & run for m in masks) and (run & union(masks)) == run:
                fits.append(lo)
        allowed = 0
        for lo in fits:
            allowed |= ((1 << k) - 1) << (lo - 1)
        drop = {i: m & ~allowed for i, m in zip(idx, masks) if m & ~allowed}
        if not drop:
            return None
        runs = " or ".join(f"{lo}-{lo + k - 1}" for lo in fits) or "no run"
        return drop, (f"the renban line from {cell_name(self.cells[0])} holds {k} consecutive "
                      f"values, and only {runs} fits its cells")


@dataclass(frozen=True)
class Between(CellsRule):
    """Cells between the two ends hold values strictly between the ends' values."""

    kind: ClassVar[str] = "between"
    fpuzzles: ClassVar[tuple[str, ...]] = ("betweenline",)
    fpuzzles_form: ClassVar[str] = "lines"
    phrases: ClassVar[tuple[str | tuple[str, int], ...]] = (
        r"between line|strictly between|(?:must|should) (?:be|lie) between|(?:lie|are) "
        r"between (?:the|those|its)",)
    along_path: ClassVar[bool] = True

    @classmethod
    def line_marks(cls, cells: list[str]) -> dict[str, str]:
        return {cells[0]: f"{cls.kind} line end", cells[-1]: f"{cls.kind} line end"}

    @classmethod
    def from_path(cls, cells: list[str], extra: dict[str, Any]) -> list[dict[str, Any]]:
        """The two ends and the cells between as a set; a path whose ends it passes again is
        refused."""
        if len(set(cells)) == len(cells):
            return [{"kind": cls.kind, "cells": cells, **extra}]
        middle = list(dict.fromkeys(cells[1:-1]))
        ends = {cells[0], cells[-1]}
        if len(ends) == 2 and not ends & set(middle):
            return [{"kind": cls.kind, "cells": [cells[0], *middle, cells[-1]], **extra}]
        raise refuse_revisit(cls.kind, cells)
    any_values: ClassVar[bool] = True
    iss: ClassVar[str] = "Between"
    description: ClassVar[str] = "values on the line lie strictly between its two ends' values"
    aliases: ClassVar[tuple[str, ...]] = ("between-line", "betweenline")
    min_cells: ClassVar[int] = 2
    line_style: ClassVar[str] = "between"
    drawn_colour: ClassVar[str] = "#6baed6"

    def lower(self, b) -> None:
        xs = b.vars(self.cells)
        first, last, middle = xs[0], xs[-1], xs[1:-1]
        n = b.size
        allowed = {(a, c): self.middle_values(a, c, n)
                   for a in range(1, n + 1) for c in range(1, n + 1)}
        for m in middle:
            b.table((first, last, m), [(a, c, v) for (a, c), mask in allowed.items() if mask
                                       for v in mask_values(mask)])
        ends = {pair for pair, mask in allowed.items() if mask is not None and (mask or not middle)}
        if len(ends) < len(allowed):
            b.relation(first, last, lambda a, c: (a, c) in ends)

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = values_at(grid, geometry, self.cells)
        a, c = vals[0], vals[-1]
        if not (a and c):
            return
        for cell, v in zip(self.cells[1:-1], vals[1:-1]):
            if v and not min(a, c) < v < max(a, c):
                yield (f"{cell_name(cell)}={geometry.real(v)} is not between "
                       f"{geometry.real(a)} and {geometry.real(c)} "
                       f"(between line at {where(self.cells)})")

    def shapes(self, geometry: Geometry) -> list[Shape]:
        idx = tuple(geometry.index(c) for c in self.cells)
        return [Shape(ShapeKind.LINE, idx, style="between"), Shape(ShapeKind.CIRCLE, (idx[0], idx[-1]), style="open")]

    technique: ClassVar[str] = "Between Line"
    technique_score: ClassVar[int] = 20
    technique_level: ClassVar[str] = "Easy"
    technique_summary: ClassVar[str] = (
        "the cells of a between line lie strictly between its ends: only the pairs of end "
        "values that leave every cell a candidate remain")

    def middle_values(self, a: int, c: int, n: int) -> int | None:
        """Return the values a cell between ends holding a and c may take (a mask), None when
        the ends cannot hold a and c."""
        return span(min(a, c) + 1, max(a, c) - 1)

    def reading(self, n: int) -> str:
        """Return what the line asks, for logic's text."""
        return (f"the cells between {cell_name(self.cells[0])} and {cell_name(self.cells[-1])} "
                f"lie strictly between the values of those two")

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """The cells between the ends hold what the ends' values allow them: only the pairs of
        end values that leave every middle cell a candidate remain."""
        n = geometry.size
        idx = [geometry.index(c) for c in self.cells]
        first, last, middle = idx[0], idx[-1], idx[1:-1]
        keep_first = keep_last = 0
        keep_mid = [0] * len(middle)
        for a in mask_values(cands[first]):
            for c in mask_values(cands[last]):
                allowed = self.middle_values(a, c, n)
                if allowed is None:
                    continue
                got = [cands[m] & allowed for m in middle]
                if not all(got):
                    continue
                keep_first |= 1 << (a - 1)
                keep_last |= 1 << (c - 1)
                keep_mid = [k | g for k, g in zip(keep_mid, got)]
        drop = {i: cands[i] & ~k for i, k in zip([first, last, *middle],
                                                 [keep_first, keep_last, *keep_mid])
                if cands[i] & ~k}
        return (drop, self.reading(n)) if drop else None

    def write_iss(self, n: int, cell) -> list[str]:
        if len(self.cells) < 3 and type(self) is Between:
            raise BadInput("ISS takes between lines of 3 cells or more")
        return super().write_iss(n, cell)


@dataclass(frozen=True)
class Entropic(_PairwiseLine):
    """Any three consecutive cells hold a low, a middle and a high value (thirds of 1..N)."""

    kind: ClassVar[str] = "entropic"
    any_values: ClassVar[bool] = True       # the thirds of the grid's values, by their order
    fpuzzles: ClassVar[tuple[str, ...]] = ("entropicline",)
    fpuzzles_form: ClassVar[str] = "lines"
    phrases: ClassVar[tuple[str | tuple[str, int], ...]] = (r"entropic",)
    path_reach: ClassVar[int] = 2
    iss: ClassVar[str] = "Entropic"
    description: ClassVar[str] = "any three consecutive cells hold one low, one middle, one high value"
    aliases: ClassVar[tuple[str, ...]] = ("entropic-line", "entropicline")
    reach: ClassVar[int] = 2
    words: ClassVar[str] = "are in the same third"
    line_style: ClassVar[str] = "entropic"
    drawn_colour: ClassVar[str] = "#ff7f0e"

    @classmethod
    def read_cells(cls, data, g):
        if g.size % 3:
            raise BadInput(f"entropic lines need a size divisible by 3, not {g.size}")
        return super().read_cells(data, g)

    def ok(self, a: int, b: int, steps: int, n: int) -> bool:
        return _third(a, n) != _third(b, n)

    technique: ClassVar[str] = "Entropic Line"
    technique_score: ClassVar[int] = 30
    technique_level: ClassVar[str] = "Medium"
    technique_summary: ClassVar[str] = (
        "any three cells in a row of an entropic line hold a low, a middle and a high "
        "value: cells three apart share a third")
    class_words: ClassVar[tuple[str, ...]] = ("low", "middle", "high")

    def class_word(self, c: int, geometry: Geometry) -> str:
        """Return the name of value class c, for logic's text."""
        return self.class_words[c]

    def iss_items_on(self, geometry: Geometry, cell) -> list[str]:
        return iss_values_from_one(self, geometry, cell)

    def value_class(self, v: int, n: int) -> int:
        """Return the class (0, 1, 2) of a value: its third of 1..n."""
        return _third(v, n)

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        return _three_classes(self, geometry, cands)


def _third(v: int, n: int) -> int:
    return (v - 1) * 3 // n


@dataclass(frozen=True)
class Modular(_PairwiseLine):
    """Any `modulus` consecutive cells (3 by default) hold values that differ modulo it; a
    line shorter than the modulus holds values that all differ modulo it (as ISS reads it)."""

    modulus: int = 3

    kind: ClassVar[str] = "modular"
    any_shape: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    # remainders split any run of values into the same classes (index v is low + v - 1, so
    # indices equal modulo M are values equal modulo M); only their names move
    any_values: ClassVar[bool] = True
    fpuzzles: ClassVar[tuple[str, ...]] = ("modularline",)
    fpuzzles_form: ClassVar[str] = "lines"
    phrases: ClassVar[tuple[str | tuple[str, int], ...]] = (r"modular line|\bmodular\b",)
    path_reach: ClassVar[int] = 2
    iss: ClassVar[str] = "Modular"
    description: ClassVar[str] = ("any M consecutive cells differ modulo M (M = modulus, 3 by "
                                  "default)")
    aliases: ClassVar[tuple[str, ...]] = ("modular-line", "modularline")
    line_style: ClassVar[str] = "modular"
    drawn_colour: ClassVar[str] = "#17becf"

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "Modular":
        cells = cls.read_cells(data, geometry)
        return cls(cells, params.integer(data, "modulus", 2, geometry.nvalues, default=3))

    def to_data(self) -> dict[str, Any]:
        out = super().to_data()
        if self.modulus != 3:
            out["modulus"] = self.modulus
        return out

    @property
    def reach(self) -> int:   # type: ignore[override]
        return self.modulus - 1

    @property
    def words(self) -> str:   # type: ignore[override]
        return f"are equal modulo {self.modulus}"

    def ok(self, a: int, b: int, steps: int, n: int) -> bool:
        return a % self.modulus != b % self.modulus

    technique: ClassVar[str] = "Modular Line"
    technique_score: ClassVar[int] = 30
    technique_level: ClassVar[str] = "Medium"
    technique_summary: ClassVar[str] = (
        "any three cells in a row of a modular line differ modulo 3: cells three apart "
        "share a remainder")

    def class_word(self, c: int, geometry: Geometry) -> str:
        """Return the name of value class c (index remainder c), for logic's text: the
        values' own remainder."""
        return f"{(c + geometry.offset) % self.modulus} mod {self.modulus}"

    def value_class(self, v: int, n: int) -> int:
        """Return the class of a value: its remainder modulo the modulus."""
        return v % self.modulus

    def rule_words(self) -> str:
        return f"any {self.modulus} cells in a row differ modulo {self.modulus}"

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        if len(self.cells) >= self.modulus:
            return _three_classes(self, geometry, cands, self.modulus)
        return super().deduce(geometry, cands)

    @classmethod
    def sample(cls, rng, size: int) -> dict[str, Any]:
        line = random_line(rng, size, rng.randint(2, min(size + 1, 6)))
        return {"kind": cls.kind, "cells": line, "modulus": rng.randint(2, size)}

    @classmethod
    def read_iss(cls, args: list[str], cell) -> dict[str, Any]:
        """`Modular~M~cells`: a modulus of 2 is a parity line."""
        if not args or not args[0].strip().isdigit():
            raise BadInput("Modular needs its modulus first")
        m = int(args[0])
        cells = [cell(a) for a in args[1:] if a]
        if m == 2:
            return {"kind": "parity", "cells": cells}
        return {"kind": cls.kind, "cells": cells, **({} if m == 3 else {"modulus": m})}

    def write_iss(self, n: int, cell) -> list[str]:
        return [str(self.modulus), *(cell(c) for c in self.cells)]


def random_line(rng, size: int, length: int) -> list[str]:
    """Return the names of a random walk of king steps through distinct cells (shorter when
    it runs into itself)."""
    r, c = rng.randrange(size), rng.randrange(size)
    path = [(r, c)]
    while len(path) < length:
        steps = [(r + a, c + b) for a in (-1, 0, 1) for b in (-1, 0, 1)
                 if 0 <= r + a < size and 0 <= c + b < size and (r + a, c + b) not in path]
        if not steps:
            break
        r, c = rng.choice(steps)
        path.append((r, c))
    return [cell_name(p) for p in path]


@dataclass(frozen=True)
class Parity(_PairwiseLine):
    """Neighbours along the line alternate between odd and even."""

    kind: ClassVar[str] = "parity"
    any_shape: ClassVar[bool] = True
    fpuzzles: ClassVar[tuple[str, ...]] = ("parityline",)
    fpuzzles_form: ClassVar[str] = "lines"
    phrases: ClassVar[tuple[str | tuple[str, int], ...]] = (
        r"parity line|alternate between odd and even",)
    any_values: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    iss: ClassVar[str] = "Modular"
    description: ClassVar[str] = "neighbours along the line alternate odd and even"
    aliases: ClassVar[tuple[str, ...]] = ("parity-line", "parityline")
    words: ClassVar[str] = "have the same parity"
    line_style: ClassVar[str] = "parity"
    drawn_colour: ClassVar[str] = "#d62728"

    def ok(self, a: int, b: int, steps: int, n: int) -> bool:
        return (a + b) % 2 == 1

    technique: ClassVar[str] = "Parity Line"
    technique_score: ClassVar[int] = 20
    technique_level: ClassVar[str] = "Easy"
    technique_summary: ClassVar[str] = (
        "a candidate on a parity line that no neighbour of the other parity completes goes")

    def rule_words(self) -> str:
        return "neighbours alternate odd and even"

    @classmethod
    def read_iss(cls, args: list[str], cell) -> dict[str, Any]:
        """ISS's modular line of 2 (`Modular~2~cells`); any modulus reads as `Modular`'s."""
        return Modular.read_iss(args, cell)

    def write_iss(self, n: int, cell) -> list[str]:
        return ["2", *(cell(c) for c in self.cells)]


@dataclass(frozen=True)
class Zipper(CellsRule):
    """Cells at equal distance from the line's centre add up to the centre's value (odd length)
    or all to the same sum (even length)."""

    kind: ClassVar[str] = "zipper"
    fpuzzles: ClassVar[tuple[str, ...]] = ("zipperline",)
    fpuzzles_form: ClassVar[str] = "lines"
    phrases: ClassVar[tuple[str | tuple[str, int], ...]] = (
        r"zipper|equidistant from the cent(?:er|re)",)
    along_path: ClassVar[bool] = True
    iss: ClassVar[str] = "Zipper"
    description: ClassVar[str] = "cells equally far from the centre add up to the same total"
    aliases: ClassVar[tuple[str, ...]] = ("zipper-line", "zipperline")
    min_cells: ClassVar[int] = 2
    line_style: ClassVar[str] = "zipper"
    any_values: ClassVar[bool] = True       # it adds up the values themselves
    drawn_colour: ClassVar[str] = "#e377c2"

    @classmethod
    def line_marks(cls, cells: list[str]) -> dict[str, str]:
        """An odd zipper's centre cell is drawn as a circle."""
        return {cells[len(cells) // 2]: "zipper centre"} if len(cells) % 2 else {}

    def mirrored(self):
        """Yield the position pairs (i, j) equally far from the centre."""
        n = len(self.cells)
        for i in range(n // 2):
            yield i, n - 1 - i

    def lower(self, b) -> None:
        xs = b.vars(self.cells)
        if len(xs) % 2:
            # on the indices: a + b + 2 offset = centre + offset
            total, rhs = xs[len(xs) // 2], -b.geometry.offset
        else:
            total, rhs = b.new_var(2 * b.size, "pair sum"), 0     # the indices' pair sum
        for i, j in self.mirrored():
            b.linear((xs[i], xs[j], total), (1, 1, -1), rhs)

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = self.complete(grid, geometry)
        if vals is None:
            return
        vals = [geometry.real(v) for v in vals]
        sums = {vals[i] + vals[j] for i, j in self.mirrored()}
        if len(vals) % 2:
            sums.add(vals[len(vals) // 2])
        if len(sums) > 1:
            yield f"the zipper line at {where(self.cells)} has pair sums {sorted(sums)}"


@dataclass(frozen=True)
class RegionSum(CellsRule):
    """The line's segments in each box (region) add up to the same total."""

    kind: ClassVar[str] = "region-sum"
    any_values: ClassVar[bool] = True       # it adds up the values themselves
    fpuzzles: ClassVar[tuple[str, ...]] = ("regionsumline",)
    fpuzzles_form: ClassVar[str] = "lines"
    phrases: ClassVar[tuple[str | tuple[str, int], ...]] = (
        r"region sum|equal sum within each (?:box|region)|same sum in each (?:box|region)",)
    along_path: ClassVar[bool] = True
    iss: ClassVar[str] = "RegionSumLine"
    description: ClassVar[str] = "the line's segments in each box add up to the same total"
    aliases: ClassVar[tuple[str, ...]] = ("region-sum-line", "regionsumline", "regionsum")
    min_cells: ClassVar[int] = 2
    line_style: ClassVar[str] = "region-sum"
    drawn_colour: ClassVar[str] = "#1f77b4"

    def segments(self, g: Geometry) -> list[list[int]]:
        """Return the line's runs of positions inside one box each."""
        out: list[list[int]] = []
        last = None
        for k, cell in enumerate(self.cells):
            box = g.box_of(cell)
            if box != last or not out:
                out.append([])
            out[-1].append(k)
            last = box
        return out

    def lower(self, b) -> None:
        xs = b.vars(self.cells)
        segs = self.segments(b.geometry)
        if len(segs) < 2:
            return
        g, shortest = b.geometry, min(len(s) for s in segs)
        # the auxiliary is the common total less `base` (0 on values 1..N), so that it is at
        # least 1 on any values; each segment's values are its indices plus the offset
        base = 0 if g.low == 1 else shortest * g.low - 1
        total = b.new_var(shortest * g.real(b.size) - base, "segment sum")
        for seg in segs:
            b.linear([xs[k] for k in seg] + [total], [1] * len(seg) + [-1],
                     base - len(seg) * g.offset)

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = self.complete(grid, geometry)
        if vals is None:
            return
        vals = [geometry.real(v) for v in vals]
        sums = {sum(vals[k] for k in seg) for seg in self.segments(geometry)}
        if len(sums) > 1:
            yield f"the region-sum line at {where(self.cells)} has segment sums {sorted(sums)}"


@dataclass(frozen=True)
class Lockout(Between):
    """The two ends (diamonds) differ by at least `difference`; no cell between lies between
    them, ends included."""

    difference: int = 0

    kind: ClassVar[str] = "lockout"
    fpuzzles: ClassVar[tuple[str, ...]] = ("lockout",)
    fpuzzles_form: ClassVar[str] = "lines"
    phrases: ClassVar[tuple[str | tuple[str, int], ...]] = (r"lockout",)
    path_number: ClassVar[str] = "difference"
    iss: ClassVar[str] = "Lockout"
    description: ClassVar[str] = ("the ends differ by at least the difference (4 on 9x9), and "
                                  "the cells between lie outside the ends' range")
    aliases: ClassVar[tuple[str, ...]] = ("lockout-line",)
    min_cells: ClassVar[int] = 2
    line_style: ClassVar[str] = "lockout"
    drawn_colour: ClassVar[str] = "#3182bd"
    technique: ClassVar[str] = "Lockout Line"
    technique_score: ClassVar[int] = 20
    technique_level: ClassVar[str] = "Easy"
    technique_summary: ClassVar[str] = (
        "a lockout line's ends differ by at least its difference and the cells between lie "
        "outside their range: only the end values that leave every cell a candidate remain")

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "Lockout":
        cells = cls.read_cells(data, geometry)
        return cls(cells, params.integer(data, "difference", 1, geometry.size - 1,
                                         default=cls.default_difference(geometry.size)))

    @staticmethod
    def default_difference(n: int) -> int:
        """Return the usual difference on an n x n grid: 4 on 9x9."""
        return max(1, (n - 1) // 2)

    def to_data(self) -> dict[str, Any]:
        return dict(super().to_data(), difference=self.difference)

    def gap(self, n: int) -> int:
        return self.difference or self.default_difference(n)

    def ends_ok(self, a: int, c: int, n: int) -> bool:
        return abs(a - c) >= self.gap(n)

    def middle_values(self, a: int, c: int, n: int) -> int | None:
        if not self.ends_ok(a, c, n):
            return None
        return span(1, min(a, c) - 1) | span(max(a, c) + 1, n)

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = values_at(grid, geometry, self.cells)
        a, c = vals[0], vals[-1]
        if not (a and c):
            return
        if not self.ends_ok(a, c, geometry.size):
            yield (f"the ends {cell_name(self.cells[0])}={geometry.real(a)} and "
                   f"{cell_name(self.cells[-1])}={geometry.real(c)} differ by less than {self.gap(geometry.size)} (lockout line)")
        for cell, v in zip(self.cells[1:-1], vals[1:-1]):
            if v and min(a, c) <= v <= max(a, c):
                yield (f"{cell_name(cell)}={geometry.real(v)} is between {geometry.real(a)} "
                       f"and {geometry.real(c)} (lockout line at {where(self.cells)})")

    def shapes(self, geometry: Geometry) -> list[Shape]:
        idx = tuple(geometry.index(c) for c in self.cells)
        return [Shape(ShapeKind.LINE, idx, style="lockout"), Shape(ShapeKind.SQUARE, (idx[0], idx[-1]),
                                                           style="lockout")]

    def reading(self, n: int) -> str:
        return (f"the ends {cell_name(self.cells[0])} and {cell_name(self.cells[-1])} differ by "
                f"at least {self.gap(n)} and the cells between lie outside their range")

    @classmethod
    def read_iss(cls, args: list[str], cell) -> dict[str, Any]:
        """`Lockout~D~cells`."""
        if not args:
            raise BadInput("unexpected arguments")
        return {"kind": cls.kind, "cells": [cell(a) for a in args[1:]],
                "difference": iss_number(args[0])}

    def write_iss(self, n: int, cell) -> list[str]:
        return [str(self.gap(n)), *(cell(c) for c in self.cells)]


@dataclass(frozen=True)
class DoubleArrow(CellsRule):
    """The two ends (circles) add up to the sum of the cells between them (repeats allowed)."""

    kind: ClassVar[str] = "double-arrow"
    any_shape: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    fpuzzles: ClassVar[tuple[str, ...]] = ("doublearrow",)
    fpuzzles_form: ClassVar[str] = "lines"
    phrases: ClassVar[tuple[str | tuple[str, int], ...]] = (r"double arrow",)
    along_path: ClassVar[bool] = True
    iss: ClassVar[str] = "DoubleArrow"
    description: ClassVar[str] = "the two ends add up to the sum of the cells between them"
    aliases: ClassVar[tuple[str, ...]] = ("doublearrow",)
    min_cells: ClassVar[int] = 3
    line_style: ClassVar[str] = "double-arrow"
    any_values: ClassVar[bool] = True       # it adds up the values themselves
    drawn_colour: ClassVar[str] = "#8c564b"

    def lower(self, b) -> None:
        xs = b.vars(self.cells)
        middle = xs[1:-1]
        # on the indices: each of the values is its index + offset
        shift = (len(middle) - 2) * b.geometry.offset
        b.linear([xs[0], xs[-1], *middle], [1, 1] + [-1] * len(middle), shift)

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = self.complete(grid, geometry)
        if vals is None:
            return
        vals = [geometry.real(v) for v in vals]
        ends, between = vals[0] + vals[-1], sum(vals[1:-1])
        if ends != between:
            yield (f"the ends of the double arrow at {where(self.cells)} add up to {ends}, "
                   f"the cells between to {between}")

    def shapes(self, geometry: Geometry) -> list[Shape]:
        idx = tuple(geometry.index(c) for c in self.cells)
        return [Shape(ShapeKind.LINE, idx, style="double-arrow"), Shape(ShapeKind.CIRCLE, (idx[0], idx[-1]),
                                                                style="open")]


@dataclass(frozen=True)
class SumLine(CellsRule):
    """The line can be cut into runs of consecutive cells that each add up to `sum` (10
    lines); a `loop` closes on itself, so a run may go on past its last cell to its first."""

    total: int = 10
    loop: bool = False

    kind: ClassVar[str] = "sum-line"
    along_path: ClassVar[bool] = True
    path_number: ClassVar[str] = "sum"

    @classmethod
    def from_path(cls, cells: list[str], extra: dict[str, Any]) -> list[dict[str, Any]]:
        """A path drawn back to its first cell is a loop; one through a cell twice otherwise
        is refused (its sum would count the cell once per visit)."""
        if len(cells) > 2 and cells[0] == cells[-1] and len(set(cells)) == len(cells) - 1:
            return [{"kind": cls.kind, "cells": cells[:-1], **extra, "loop": True}]
        if len(set(cells)) == len(cells):
            return [{"kind": cls.kind, "cells": cells, **extra}]
        raise refuse_revisit(cls.kind, cells)
    iss: ClassVar[str] = "SumLine"
    description: ClassVar[str] = "the line can be cut into runs that each add up to the sum"
    aliases: ClassVar[tuple[str, ...]] = ("sumline", "ten-line")
    any_values: ClassVar[bool] = True       # its runs add up the values themselves
    line_style: ClassVar[str] = "sum-line"
    drawn_colour: ClassVar[str] = "#bcbd22"

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "SumLine":
        cells = cls.read_cells(data, geometry)
        loop = data.get("loop", False)
        if not isinstance(loop, bool):
            raise BadInput("field \"loop\" must be true or false")
        if loop and len(cells) < 2:
            raise BadInput("field \"loop\": a loop needs 2 cells at least")
        n = geometry.size
        total = params.integer(data, "sum", 1, max(1, n * (n + 1) // 2 + n * geometry.offset),
                               default=10)
        return cls(cells, total, loop)

    def to_data(self) -> dict[str, Any]:
        out = dict(super().to_data(), sum=self.total)
        if self.loop:
            out["loop"] = True
        return out

    MAX_LOOP_TUPLES: ClassVar[int] = 20_000

    def lower(self, b) -> None:
        xs = b.vars(self.cells)
        off = b.geometry.offset                 # a cell's value is its index + off
        if self.loop:
            b.table(xs, self.loop_tuples(b.size, off))
            return
        # the run's total so far, after each cell (0 to sum - 1, held as 1 to sum): it grows
        # by the cell's value, and drops back to 0 where the sum is reached
        s = self.total
        steps = [(a + 1, v, (a + v + off) % s + 1) for a in range(s)
                 for v in range(1, b.size + 1) if a + v + off <= s]
        before = b.new_var(s, "run total 0")
        b.unary(before, lambda t: t == 1)
        for k, x in enumerate(xs):
            after = b.new_var(s, f"run total {k + 1}")
            if k == len(xs) - 1:
                b.unary(after, lambda t: t == 1)
            b.table((before, x, after), steps)
            before = after

    def loop_tuples(self, n: int, off: int = 0) -> list[tuple[int, ...]]:
        """Return the value indices a loop's cells can hold (a table, with no auxiliary
        variable: one grid can cut a loop in two ways, and engines would count it twice),
        each value its index + `off`: for each run total carried over the start, the
        sequences that come back to it."""
        s, k = self.total, len(self.cells)
        out: set[tuple[int, ...]] = set()

        def grow(prefix: list[int], run: int, carry: int) -> None:
            if len(prefix) == k:
                if run == carry:
                    out.add(tuple(prefix))
                    if len(out) > self.MAX_LOOP_TUPLES:
                        raise BadInput(f"the sum line loop at {where(self.cells)} allows more "
                                       f"than {self.MAX_LOOP_TUPLES} fillings: too long a loop "
                                       f"for its sum")
                return
            for v in range(1, min(n, s - run - off) + 1):
                prefix.append(v)
                grow(prefix, (run + v + off) % s, carry)
                prefix.pop()

        for carry in range(s):
            grow([], carry, carry)
        return sorted(out)

    def cuts(self, vals: list[int]) -> bool:
        """Return whether complete values can be cut into runs adding up to the sum."""
        starts = range(len(vals)) if self.loop else (0,)
        for start in starts:
            run = 0
            for v in vals[start:] + vals[:start]:
                run += v
                if run > self.total:
                    break
                if run == self.total:
                    run = 0
            else:
                if run == 0:
                    return True
        return False

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = self.complete(grid, geometry)
        if vals is not None and not self.cuts([geometry.real(v) for v in vals]):
            yield (f"the sum line at {where(self.cells)} cannot be cut into runs adding up to "
                   f"{self.total}")

    @classmethod
    def read_iss(cls, args: list[str], cell) -> dict[str, Any]:
        """`SumLine~S~cells`, `~LOOP` last for a loop."""
        if not args:
            raise BadInput("unexpected arguments")
        loop = args[-1:] == ["LOOP"]
        out: dict[str, Any] = {"kind": cls.kind,
                               "cells": [cell(a) for a in args[1:len(args) - loop]],
                               "sum": iss_number(args[0])}
        if loop:
            out["loop"] = True
        return out

    def write_iss(self, n: int, cell) -> list[str]:
        return [str(self.total), *(cell(c) for c in self.cells), *(["LOOP"] if self.loop else [])]


KINDS = (Thermometer, SlowThermometer, Whispers, Palindrome, Renban, Between, Entropic, Modular,
         Parity, Zipper, RegionSum, Lockout, DoubleArrow, SumLine)


def _three_classes(rule, geometry, cands, k: int = 3) -> tuple[dict[int, int], str] | None:
    """Entropic and modular lines: any k (three) consecutive cells hold one value of each of
    k classes, so cells k apart share a class; the line's k position groups take the k
    classes once each. A group keeps the classes all its cells can hold, a class only one
    group can take is that group's, and each cell keeps the values of its group's classes."""
    n = geometry.size
    idx = [geometry.index(c) for c in rule.cells]
    if len(idx) < k:
        return None
    cls = [0] * (n + 1)
    for v in range(1, n + 1):
        cls[v] = rule.value_class(v, n)
    groups = [idx[p::k] for p in range(k)]
    allowed = []
    for cells in groups:
        classes = (1 << k) - 1
        for i in cells:
            classes &= union(1 << cls[v] for v in mask_values(cands[i]))
        allowed.append(classes)
    changed = True
    while changed:                      # classes as a naked/hidden single among the groups
        changed = False
        for g in range(k):
            if allowed[g].bit_count() == 1:
                for h in range(k):
                    if h != g and allowed[h] & allowed[g]:
                        allowed[h] &= ~allowed[g]
                        changed = True
        for c in range(k):
            able = [g for g in range(k) if allowed[g] >> c & 1]
            if len(able) == 1 and allowed[able[0]] != 1 << c:
                allowed[able[0]] = 1 << c
                changed = True
    drop = {}
    for g, cells in enumerate(groups):
        ok = union(1 << (v - 1) for v in range(1, n + 1) if allowed[g] >> cls[v] & 1)
        for i in cells:
            if cands[i] & ~ok:
                drop[i] = cands[i] & ~ok
    if not drop:
        return None
    said = []
    count = {3: "three", 4: "four", 5: "five"}.get(k, str(k))
    nth = {3: "third", 4: "fourth", 5: "fifth"}.get(k, f"{k}th")
    for g in range(k):
        words = " or ".join(rule.class_word(c, geometry) for c in range(k)
                            if allowed[g] >> c & 1)
        every = f" (and every {nth} cell on)" if len(groups[g]) > 1 else ""
        said.append(f"{cell_name(rule.cells[g])}{every} {words or 'nothing'}")
    return drop, (f"on the {rule.kind} line from {cell_name(rule.cells[0])}, any {count} cells "
                  f"in a row hold one of each class, which leaves " + "; ".join(said))
