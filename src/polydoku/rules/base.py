"""Shared shapes of rule kinds: global rules, rules over a list of cells (cages, lines, dots)
and outside clues, so each kind's module holds only what is its own."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterable, Iterator, Sequence

from ..errors import BadInput
from ..model.geometry import Cell, Geometry, cell_name, parse_cell
from ..model.rules import Grid, Rule, Shape, ShapeKind, first_repeated
from ..text import one_line
from . import params


def value_at(grid: Grid, g: Geometry, cell: Cell) -> int:
    """Return the value of a cell in a row-major grid (0 when empty)."""
    return grid[cell[0] * g.width + cell[1]]


def values_at(grid: Grid, g: Geometry, cells: Sequence[Cell]) -> list[int]:
    """Return the values of cells in order (0 for empty ones)."""
    w = g.width
    return [grid[r * w + c] for r, c in cells]


def where(cells: Sequence[Cell]) -> str:
    """Return a short place name for a group of cells: its first cell, and how many."""
    head = cell_name(cells[0])
    return head if len(cells) == 1 else f"{head}..{cell_name(cells[-1])}"


# Candidate bitmasks as the kinds' logic (`Rule.deduce`) reads them: bit v-1 stands for value v.

MAX_FILLINGS = 600      # tuples in a table a rule implies for search (Rule.implied)


def mask_values(mask: int) -> Iterator[int]:
    """Yield the values of a candidate bitmask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length()
        mask ^= low


def single_bits(mask: int) -> Iterator[int]:
    """Yield the single-bit masks of a candidate bitmask, lowest first."""
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


def span(lo: int, hi: int) -> int:
    """Return the bitmask of the values lo..hi (from 1 at least; empty when lo > hi)."""
    lo = max(lo, 1)
    return ((1 << hi) - 1) & ~((1 << (lo - 1)) - 1) if lo <= hi else 0


def union(masks: Iterable[int]) -> int:
    """Return the union of candidate bitmasks."""
    out = 0
    for m in masks:
        out |= m
    return out


def pair_support(mx: int, my: int, ok: Callable[[int, int], bool]) -> tuple[int, int]:
    """Return the values of x and of y that some value of the other completes (`ok(a, b)`
    for a in x, b in y)."""
    keep_x = keep_y = 0
    for a in mask_values(mx):
        for b in mask_values(my):
            if ok(a, b):
                keep_x |= 1 << (a - 1)
                keep_y |= 1 << (b - 1)
    return keep_x, keep_y


def equal_pairs(cands: Sequence[int], pairs: Iterable[tuple[int, int]]) -> dict[int, int]:
    """Return, for cell pairs that hold the same value, what each cell loses: the values the
    other cannot hold (cell index -> bitmask)."""
    drop: dict[int, int] = {}
    for x, y in pairs:
        both = cands[x] & cands[y]
        for cell in (x, y):
            if cands[cell] & ~both:
                drop[cell] = drop.get(cell, 0) | cands[cell] & ~both
    return drop


def real_pairs(ok: Callable[[int, int], bool], g: Geometry) -> Callable[[int, int], bool]:
    """Return a relation of two values as one of their indices on a grid (`ok` itself on
    values 1..N, where each value is its index)."""
    if g.low == 1:
        return ok
    return lambda a, b: ok(g.real(a), g.real(b))


def iss_values_from_one(rule: Any, geometry: Geometry, cell: Callable[[Cell], str]
                        ) -> list[str]:
    """Return a rule's ISS items, refusing a grid of other values than 1..N: ISS takes some
    kinds (entropy by thirds, taxicab distances) on values from 1 only."""
    if geometry.low != 1:
        raise BadInput(f"ISS takes {rule.kind} on values 1..{geometry.size} only, not "
                       f"{geometry.values_words()}")
    return rule.iss_items(geometry.size, cell)


def cells_phrase(cells: Sequence[Cell]) -> str:
    """Return cells written out for a sentence: "r1c1, r1c2 and r2c1"."""
    names = [cell_name(c) for c in cells]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def outside_cell(name: str) -> tuple[int, int]:
    """Return the 1-based (row, column) of a cell name that may lie one step outside the grid
    (`r0c3`)."""
    r, _, c = name[1:].partition("c")
    return int(r), int(c)


def iss_number(text: str) -> int:
    """Return a whole number of an ISS item's argument (BadInput when it is none)."""
    if not re.fullmatch(r"-?\d{1,6}", text):
        raise BadInput(f"{one_line(text[:20])!r} is not a number")
    return int(text)


def fpuzzles_number(value: Any, what: str) -> int:
    """Return a whole number f-puzzles saved (a number or a string of digits)."""
    if isinstance(value, bool):
        raise BadInput(f"{what}: expected a number")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value) < 8:
        return int(value)
    raise BadInput(f"{what}: expected a number, not {str(value)[:20]!r}")


def fpuzzles_cells(items: Any, cell: Callable[..., str], what: str) -> list[str]:
    """Return polydoku's names of a list of f-puzzles cells (`R1C2`)."""
    if not isinstance(items, list):
        raise BadInput(f"{what}: expected a list of cells")
    return [cell(x) for x in items]


def fpuzzles_refused(kind: str) -> BadInput:
    """Return the error of a kind f-puzzles has no element for."""
    return BadInput(f"rule {kind!r} has no f-puzzles form")


def iss_refused(kind: str) -> BadInput:
    """Return the error of a kind the Interactive Sudoku Solver has no constraint for."""
    return BadInput(f"{kind}: the Interactive Sudoku Solver has no such constraint")


@dataclass(frozen=True)
class GlobalRule(Rule):
    """A rule with no parameters, written as its kind alone (in ISS too: `.AntiKnight`)."""

    is_global: ClassVar[bool] = True

    @classmethod
    def read_iss(cls, args: list[str], cell: Callable[[str], str]) -> Any:
        if args:
            raise BadInput("unexpected arguments")
        return cls.kind

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        return []

    @classmethod
    def fpuzzles_rules(cls, key: str, value: Any, n: int, cell: Callable[..., str]) -> list[Any]:
        """A flag set to true (`"antiknight": true`; SudokuPad's metadata names it too)."""
        return [cls.kind] if value is True else []

    def fpuzzles_entries(self, n: int, cell: Callable[[Cell], str]) -> dict[str, Any]:
        if not self.fpuzzles:
            raise fpuzzles_refused(self.kind)
        return {self.fpuzzles[0]: True}


@dataclass(frozen=True)
class CellsRule(Rule):
    """A rule over an ordered list of cells (a cage, a line, a pair of cells with a dot)."""

    cells: tuple[Cell, ...]

    min_cells: ClassVar[int] = 1
    max_cells: ClassVar[int | None] = None
    line_style: ClassVar[str] = ""        # the Shape drawn: a line of this style, if set

    @classmethod
    def read_cells(cls, data: dict[str, Any], g: Geometry) -> tuple[Cell, ...]:
        """Return the rule's cells from its JSON object, checked."""
        return params.cell_list(data, "cells", g, min_len=cls.min_cells, max_len=cls.max_cells)

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "CellsRule":
        return cls(cls.read_cells(data, geometry))

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "cells": params.names(self.cells)}

    def footprint(self) -> tuple[Cell, ...]:
        return self.cells

    def shapes(self, geometry: Geometry) -> list[Shape]:
        if not self.line_style:
            return []
        return [Shape(ShapeKind.LINE, tuple(geometry.index(c) for c in self.cells), style=self.line_style)]

    # how f-puzzles saves the kind under its key (`fpuzzles`): "lines" (each element's lines,
    # a rule each), "cells" (each element's cells, a rule each) or "cell" (one cell per
    # element, all of them one rule)
    fpuzzles_form: ClassVar[str] = "cells"

    @classmethod
    def fpuzzles_rules(cls, key: str, value: Any, n: int, cell: Callable[..., str]) -> list[Any]:
        """The elements in the kind's `fpuzzles_form`, each through `fpuzzles_read`; a kind
        that reads its elements one by one itself (`read_fpuzzles`) is asked each."""
        if next(k for k in cls.__mro__ if "read_fpuzzles" in vars(k)) is not Rule:
            return super().fpuzzles_rules(key, value, n, cell)
        items = value if isinstance(value, list) else []
        if cls.fpuzzles_form == "cell":
            return [{"kind": cls.kind, "cells": [cell(e.get("cell")) for e in items]}]
        out = []
        for e in items:
            lines = (e.get("lines") or []) if cls.fpuzzles_form == "lines" else [e.get("cells")]
            for line in lines:
                rule = cls.fpuzzles_read(e, fpuzzles_cells(line, cell, key), key)
                if rule is not None:
                    out.append(rule)
        return out

    @classmethod
    def fpuzzles_read(cls, element: dict[str, Any], cells: list[str],
                      key: str) -> dict[str, Any] | None:
        """Return the rule of one f-puzzles element over these cells (None: another kind's)."""
        return {"kind": cls.kind, "cells": cells}

    def fpuzzles_entries(self, n: int, cell: Callable[[Cell], str]) -> dict[str, Any]:
        if next(k for k in type(self).__mro__ if "write_fpuzzles" in vars(k)) is not Rule:
            return super().fpuzzles_entries(n, cell)
        if not self.fpuzzles:
            raise fpuzzles_refused(self.kind)
        cells = [cell(c) for c in self.cells]
        if self.fpuzzles_form == "cell":
            return {self.fpuzzles[0]: [{"cell": c} for c in cells]}
        element: dict[str, Any] = {"lines": [cells]} if self.fpuzzles_form == "lines" else \
            {"cells": cells}
        return {self.fpuzzles[0]: [{**element, **self.fpuzzles_written()}]}

    def fpuzzles_written(self) -> dict[str, Any]:
        """Return the fields of its f-puzzles element beside the cells (a value)."""
        return {}

    @classmethod
    def read_iss(cls, args: list[str], cell: Callable[[str], str]) -> dict[str, Any]:
        """The cells, as ISS lists them (`.Thermo~R1C1~R1C2`)."""
        return {"kind": cls.kind, "cells": [cell(a) for a in args]}

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        return [cell(c) for c in self.cells]

    def complete(self, grid: Grid, g: Geometry) -> list[int] | None:
        """Return the values of the rule's cells when all are filled, else None."""
        vals = values_at(grid, g, self.cells)
        return None if 0 in vals else vals


@dataclass(frozen=True)
class PairRule(CellsRule):
    """A relation between the values of two orthogonally adjacent cells (dots, X and V)."""

    min_cells: ClassVar[int] = 2
    max_cells: ClassVar[int | None] = 2
    words: ClassVar[str] = ""

    @classmethod
    def read_cells(cls, data: dict[str, Any], g: Geometry) -> tuple[Cell, ...]:
        cells = super().read_cells(data, g)
        if not params.orthogonal(*cells):
            raise BadInput(f"field \"cells\": {cell_name(cells[0])} and {cell_name(cells[1])} "
                           f"do not share a side")
        return cells

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell: Callable[[str], str]) -> Any:
        """A mark over two cells; over more, one for each two orthogonal neighbours among them,
        the earlier cell first (as ISS reads a dot, a sign or an X drawn over several)."""
        names = [cell(a) for a in args]
        if len(names) <= 2:
            return cls.iss_pair(name, names)
        cells = [parse_cell(x) for x in names]
        return [cls.iss_pair(name, [names[i], names[j]])
                for i, (r, c) in enumerate(cells) for j in range(i + 1, len(cells))
                if abs(cells[j][0] - r) + abs(cells[j][1] - c) == 1]

    @classmethod
    def iss_pair(cls, name: str, cells: list[str]) -> dict[str, Any]:
        """Return the rule of one pair of an ISS item `name`."""
        return {"kind": cls.kind, "cells": cells}

    def ok(self, a: int, b: int) -> bool:
        """Return whether the two values satisfy the relation."""
        raise NotImplementedError

    def lower(self, b) -> None:
        x, y = b.vars(self.cells)
        b.relation(x, y, real_pairs(self.ok, b.geometry))

    def violations(self, grid: Grid, geometry: Geometry, rules=()) -> Iterator[str]:
        a, c = values_at(grid, geometry, self.cells)
        if a and c and not real_pairs(self.ok, geometry)(a, c):
            yield (f"{cell_name(self.cells[0])}={geometry.real(a)} and "
                   f"{cell_name(self.cells[1])}={geometry.real(c)} "
                   f"{self.words} ({self.kind})")

    def pair(self) -> frozenset[Cell]:
        """Return the two cells as an unordered pair."""
        return frozenset(self.cells)

    joins: ClassVar[str] = ""              # what the mark asks of its cells, for logic's text
    mark: ClassVar[str] = ""               # what the mark is called there ("white dot")

    def deduce(self, geometry: Geometry, cands) -> tuple[dict[int, int], str] | None:
        """A mark's pair: a candidate of one cell that no candidate of the other completes
        goes."""
        if not self.technique:
            return None
        x, y = (geometry.index(c) for c in self.cells)
        mx, my = cands[x], cands[y]
        keep_x, keep_y = pair_support(mx, my, real_pairs(self.ok, geometry))
        drop = {i: m & ~k for i, m, k in ((x, mx, keep_x), (y, my, keep_y)) if m & ~k}
        if not drop:
            return None
        first, second = (cell_name(c) for c in self.cells)
        return drop, (f"the {self.mark_words()} between {first} and {second} joins "
                      f"{self.join_words()}")

    def mark_words(self) -> str:
        """Return what the pair's mark is called in logic's text ("white dot")."""
        return self.mark or self.kind

    def join_words(self) -> str:
        """Return what the mark asks of its two cells ("consecutive values")."""
        return self.joins


SIDES = ("top", "bottom", "left", "right")


@dataclass(frozen=True)
class OutsideRule(Rule):
    """A clue outside the grid about one row or column, read from one side."""

    side: str
    index: int          # 0-based row (left/right) or column (top/bottom)
    value: int

    value_field: ClassVar[str] = "sum"
    iss_zero: ClassVar[bool] = False     # whether ISS takes a clue of 0 of this kind

    @classmethod
    def value_range(cls, n: int) -> tuple[int, int]:
        """Return the lowest and highest clue an n x n grid takes."""
        return 0, n ** 3

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "OutsideRule":
        side = params.choice(data, "side", SIDES)
        across = geometry.width if side in ("top", "bottom") else geometry.size
        index = params.integer(data, "index", 1, across) - 1
        return cls(side, index, params.integer(data, cls.value_field,
                                               *cls.value_range(geometry.size)))

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "side": self.side, "index": self.index + 1,
                self.value_field: self.value}

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell: Callable[[str], str]) -> Any:
        """`Name~R4~A~B`: the clue A seen from the left (top for `C4`), B from the right
        (bottom); either may be empty."""
        args = args + [""] * (3 - len(args))
        if len(args) != 3 or not re.fullmatch(r"[RC]\d{1,2}", args[0]):
            raise BadInput(f"{name} takes a row or column (R4, C2) and two clues")
        is_row, index = args[0][0] == "R", int(args[0][1:])
        return [{"kind": cls.kind, "side": side, "index": index, cls.value_field: iss_number(v)}
                for v, side in ((args[1], "left" if is_row else "top"),
                                (args[2], "right" if is_row else "bottom")) if v]

    def iss_items(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        if not self.iss:
            raise iss_refused(self.kind)
        if self.value == 0 and not self.iss_zero:
            raise BadInput("ISS has no clue of 0 for this kind")
        head = f"R{self.index + 1}" if self.side in ("left", "right") else f"C{self.index + 1}"
        ahead = self.side in ("left", "top")
        return [f"{self.iss}~{head}~{self.value if ahead else ''}~{'' if ahead else self.value}"]

    @classmethod
    def fpuzzles_rules(cls, key: str, value: Any, n: int, cell: Callable[..., str]) -> list[Any]:
        """A clue in a cell just outside the grid (`R0C3`: above column 3), with its value."""
        out = []
        for e in value if isinstance(value, list) else []:
            if e.get("value") in (None, ""):
                continue
            r, c = outside_cell(cell(e.get("cell"), outside=True))
            side, index = ("top", c) if r == 0 else ("bottom", c) if r == n + 1 else \
                ("left", r) if c == 0 else ("right", r) if c == n + 1 else ("", 0)
            if not side:
                raise BadInput(f"{key} at R{r}C{c} is not outside the grid")
            out.append({"kind": cls.kind, "side": side, "index": index,
                        cls.value_field: fpuzzles_number(e["value"], key)})
        return out

    def fpuzzles_entries(self, n: int, cell: Callable[[Cell], str]) -> dict[str, Any]:
        if not self.fpuzzles:
            raise fpuzzles_refused(self.kind)
        i = self.index
        place = {"top": (-1, i), "bottom": (n, i), "left": (i, -1), "right": (i, n)}[self.side]
        return {self.fpuzzles[0]: [{"cell": cell(place), "value": str(self.value)}]}

    def line(self, n: "int | Geometry") -> list[Cell]:
        """Return the row or column's cells in the order seen from the clue's side, on an
        n x n grid or a geometry's rows and columns."""
        rows, cols = (n.size, n.width) if isinstance(n, Geometry) else (n, n)
        if self.side in ("left", "right"):
            cells = [(self.index, c) for c in range(cols)]
        else:
            cells = [(r, self.index) for r in range(rows)]
        return cells[::-1] if self.side in ("right", "bottom") else cells

    def footprint(self) -> tuple[Cell, ...]:
        return ()

    def place(self) -> str:
        """Return where the clue sits, in words ("left of row 3")."""
        what = "row" if self.side in ("left", "right") else "column"
        side = {"top": "above", "bottom": "below", "left": "left of", "right": "right of"}[self.side]
        return f"{side} {what} {self.index + 1}"

    def describe(self, geometry: Geometry) -> str:
        return f"{self.kind} {self.value} {self.place()}"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        first = self.line(geometry)[0]
        return [Shape(ShapeKind.OUTSIDE, (geometry.index(first),), str(self.value), self.side)]



def flags_where(b: Any, xs: Sequence[int], ok: Callable[[int], bool], what: str) -> list[int]:
    """Return, for each variable of `xs`, a new auxiliary of the builder `b` that is 2 when
    the variable's value is one `ok` accepts and 1 when not (so that sums of flags count);
    `what` names the test in the auxiliaries' names ("is 5", "even")."""
    flags = []
    for x in xs:
        flag = b.new_var(2, f"{cell_name(b.geometry.cell(x))} {what}")
        b.relation(x, flag, lambda a, f: (f == 2) == ok(a))
        flags.append(flag)
    return flags


def count_where(b: Any, xs: Sequence[int], ok: Callable[[int], bool], what: str,
                op: str = "==", rhs: int = 0, extra: Sequence[tuple[int, int]] = ()) -> None:
    """Say, through the builder `b`: (how many of `xs` hold a value `ok` accepts) +
    sum(coef * var over the (var, coef) pairs of `extra`) `op` rhs."""
    flags = flags_where(b, xs, ok, what)
    b.linear(flags + [var for var, _ in extra], [1] * len(flags) + [k for _, k in extra],
             rhs + len(flags), op)


def path_pieces(cells: list[str], reach: int, kind: str) -> list[list[str]]:
    """Return pieces of distinct cells covering every run of `reach` + 1 consecutive cells of
    a path that may pass a cell twice (consecutive pieces share `reach` cells)."""
    out: list[list[str]] = []
    start = 0
    while True:
        end = start
        while end + 1 < len(cells) and cells[end + 1] not in cells[start:end + 1]:
            end += 1
        if end == len(cells) - 1:
            out.append(cells[start:])
            return out
        if end - start < reach:
            raise BadInput(f"a {kind} line from {cells[0]} comes back to {cells[end + 1]} "
                           f"within {reach + 1} cells, which its rule forbids")
        out.append(cells[start:end + 1])
        start = end - reach + 1


def refuse_revisit(kind: str, cells: list[str]) -> BadInput:
    """Return the error of a line that passes a cell twice where its rule counts the cell once
    per visit."""
    return BadInput(f"a {kind} line from {cells[0]} passes {first_repeated(cells)} twice: its "
                    f"rule counts that cell once per visit, which polydoku cannot say")
