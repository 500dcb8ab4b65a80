"""The Interactive Sudoku Solver's constraint strings: a puzzle written as one, and read back.

ISS (sigh/Interactive-Sudoku-Solver) writes a puzzle as items `.Type~arg~arg…`: `.~R1C1_5` for
givens (a list of values is a cell's candidates), `.Thermo~R1C2~R2C3`, `.Cage~15~R1C1~R1C2`,
outside clues by their row or column (`.XSum~R4~5~7`: from the left, then from the right).
A kind's ISS names are its class attribute `iss`, and it reads and writes its own items
(`Rule.iss_rules`, `Rule.iss_items`); this module holds the grid (shape, boxes, jigsaw), the
givens, and refuses by name a kind ISS has no constraint for (or a clue ISS cannot place). Puzzle
names and labels are never written: ISS strings carry no free text here. Nothing here runs ISS.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

from ..errors import BadInput
from ..model import Puzzle
from ..model.geometry import Cell, box_shape_for, box_shape_of, cell_name
from ..model.rules import Rule, hooks_of
from ..rules.base import iss_number, iss_refused
from ..text import one_line
from .iss_replicate import blocks, targets

MAX_SIZE = 16                       # ISS grids: 4x4 to 16x16
_BASE = "0123456789abcdefg"         # ISS writes a row or column number in base 17 (1..g)
_ALONE = ("NoBoxes",)           # a global kind alone is detected by its class's `iss`
# a given (`.~R1C1_5`), a name with arguments, or a known global rule alone; never a line of
# symbols such as `.AB.C…` (a 16x16 line holds no `~`)
_DETECT = re.compile(r"^\.(~[Rr][0-9a-gA-G][Cc]|[A-Z][A-Za-z]*~|(" + "|".join(_ALONE)
                     + r")(\.|$))", re.ASCII)


_ALONE_NAME = re.compile(r"^\.([A-Z][A-Za-z]*)(\.|$)", re.ASCII)


def looks_like_iss(text: str) -> bool:
    """Return whether text is an ISS constraint string (not a line of symbols)."""
    head = "".join(text[:400].split())
    if head.startswith(".."):           # empty items before the first (ISS reads none there)
        head = "." + head.lstrip(".")
    if _DETECT.match(head):
        return True
    alone = _ALONE_NAME.match(head)            # a global rule of a kind's module, alone
    # a name first and ISS items after it (`.ChaosConstruction.~R1C1_5`): no line of
    # symbols holds a "~", so the string is ISS even when the name is none of polydoku's
    return alone is not None and (alone[1] in _kinds_named() or "~" in head)


def _kinds_named() -> dict[str, list[type[Rule]]]:
    """Return the kinds that read ISS items, by ISS name (the registry loads on first use)."""
    from ..rules.registry import named_in
    return named_in("iss")


# ---- writing --------------------------------------------------------------------------------

def _cell(cell: Cell) -> str:
    return f"R{_BASE[cell[0] + 1]}C{_BASE[cell[1] + 1]}"


def _cells(cells) -> str:
    return "~".join(_cell(c) for c in cells)


def little_killer_ids(n: int) -> dict[str, tuple[Cell, ...]]:
    """Return ISS's little killer diagonals of an n x n grid by the ISS id of their first cell."""
    from ..rules.outside import iss_diagonals
    return {_cell(cells[0]): cells for cells in iss_diagonals(n).values()}


def _refuse(rule: Rule, why: str) -> BadInput:
    return BadInput(f"{rule.kind}: {why}")


def _layout(puzzle: Puzzle) -> Iterator[str]:
    """Yield the items for the grid: its shape, and its regions when they are not ISS's boxes."""
    g = puzzle.geometry
    n, w = g.size, g.width
    side, shape = max(n, w), g.shape_words()
    if g.low != 1:
        yield f"Shape~{shape}~{g.low}-{g.real(g.nvalues)}"
    elif g.nvalues != side:
        yield f"Shape~{shape}~{g.nvalues}"
    elif shape != "9x9":
        yield f"Shape~{shape}"
    cells = (g.box_rows * g.box_cols if g.is_rectangular else
             max(map(len, g.boxes), default=side))
    if cells != side:
        yield f"RegionSize~{cells}"
    if g.is_rectangular and (g.box_rows, g.box_cols) == _box_shape(n, cells, w):
        return
    if g.has_boxes:
        symbols = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"    # the cells of no region: one more piece
        if -1 in g.region_of and g.region_of.count(-1) == cells:
            raise BadInput(f"ISS would read the {cells} cells outside the regions as a region")
        layout = "".join(symbols[k] for k in g.region_of)
        yield f"Jigsaw~{layout}"
    yield "NoBoxes"


def to_iss(puzzle: Puzzle) -> str:
    """Return the puzzle as an ISS constraint string (BadInput naming what ISS cannot hold)."""
    g = puzzle.geometry
    n = g.size
    if n > MAX_SIZE:
        raise BadInput(f"ISS grids are at most {MAX_SIZE}x{MAX_SIZE}; this one is {n}x{n}")
    kinds = {r.kind for r in puzzle.rules}
    if "non-consecutive" in kinds and "kropki-white" in kinds:
        raise BadInput("non-consecutive: ISS does not exempt the pairs white dots join")
    items = list(_layout(puzzle))
    givens = [f"{_cell(cell)}_{g.real(v)}" for cell, v in puzzle.given_cells()]
    if givens:
        items.append("~" + "~".join(givens))
    for rule in puzzle.rules:
        if "write_iss" not in hooks_of(type(rule)):
            raise iss_refused(rule.kind)
        try:
            items += rule.iss_items_on(g, _cell)
        except BadInput as err:
            raise _refuse(rule, err.reason) from None
    # a rule twice (diagonal and diagonal-main) is one ISS item, as ISS merges them
    return "".join("." + item for item in dict.fromkeys(items)) or ".Shape~9x9"


# ---- reading --------------------------------------------------------------------------------

class _Reader:
    """The state of one string being read: the grid, the givens and the rules so far."""

    def __init__(self) -> None:
        self.size = 9
        self.ncols = 0                  # the columns of a rectangular grid (0: square)
        self.low = 1                    # the lowest value (Shape~9x9~0-8: 0)
        self.count = 9                  # how many values (Shape~6x6~9: 9; the side by default)
        self.region_size = 0            # the cells of a box or jigsaw piece (0: the side)
        self.shaped = False
        self.layout: str | None = None
        self.no_boxes = False
        self.givens: dict[Cell, int] = {}
        self.rules: list[Any] = []
        self.frames: list[tuple[str, list[Any]]] = []   # the open Or and And items
        self.shift = (0, 0)             # a Replicate copy's rows and columns from its origin

    def cell(self, text: str) -> Cell:
        """Return the cell of an ISS cell id (R1C1; rows and columns in base 17)."""
        t = text.lower()
        if t.startswith("cc") and t[2:].isdigit():
            raise BadInput(f"{text}: a chaos construction's region cell, which polydoku reads "
                           f"in ChaosCount, ChaosArrow and SameValues only")
        if len(t) != 4 or t[0] != "r" or t[2] != "c" or t[1] not in _BASE[1:] \
                or t[3] not in _BASE[1:]:
            raise BadInput(f"{one_line(text[:20])!r} is not an ISS cell id (R1C1)")
        r, c = _BASE.index(t[1]) - 1 + self.shift[0], _BASE.index(t[3]) - 1 + self.shift[1]
        if not (0 <= r < self.size and 0 <= c < (self.ncols or self.size)):
            moved = f" (moved to {cell_name((r, c))} by a Replicate)" if any(self.shift) else ""
            raise BadInput(f"cell {one_line(text)}{moved} is outside the {self.size}x"
                           f"{self.ncols or self.size} grid")
        return r, c

    def names(self, args: list[str]) -> list[str]:
        return [cell_name(self.cell(a)) for a in args]


def _read_given(rd: _Reader, args: list[str]) -> None:
    """Read a Given item: single values are givens, the even or odd values are even/odd cells,
    other sets of values candidate givens (cells of one set are one `candidates` rule). A cell
    given again keeps both: as ISS reads them, every given holds (two values: no solution)."""
    n, low = max(rd.size, rd.count), rd.low
    evens = [v for v in range(low, low + n) if v % 2 == 0]
    odds = [v for v in range(low, low + n) if v % 2]
    marked: dict[str, list[str]] = {"even": [], "odd": []}
    candidates: dict[tuple[int, ...], list[str]] = {}
    extra: list[tuple[tuple[int, ...], list[str]]] = []
    for arg in args:
        head, *values = arg.split("_")
        cell = rd.cell(head)
        nums = [iss_number(v) for v in values]
        if any(not low <= v < low + n for v in nums):
            raise BadInput(f"given {one_line(arg[:30])}: values are {low}..{low + n - 1}")
        if len(nums) == 1 and rd.givens.get(cell, nums[0]) == nums[0]:
            rd.givens[cell] = nums[0]
        elif nums in (evens, odds) and cell_name(cell) not in marked["even" if nums == evens
                                                                      else "odd"]:
            marked["even" if nums == evens else "odd"].append(cell_name(cell))
        else:               # candidates, or a cell given again: every one of its items holds
            key = tuple(sorted(set(nums)))
            group = candidates.setdefault(key, [])
            if cell_name(cell) in group:
                extra.append((key, [cell_name(cell)]))
            else:
                group.append(cell_name(cell))
    rd.rules += [{"kind": k, "cells": v} for k, v in marked.items() if v]
    if candidates or extra:     # the kind of its own module, named by its class
        from ..rules.kind.candidates import Candidates
        rd.rules += [{"kind": Candidates.kind, "cells": c, "values": list(v)}
                     for v, c in [*candidates.items(), *extra]]


def _read_by_kind(rd: _Reader, name: str, args: list[str]) -> bool:
    """Read an item through the kinds of its ISS name (`Rule.iss_rules`), the first that takes
    it; return whether one did."""
    for cls in _kinds_named().get(name, ()):
        # n is the count of values (a key of value pairs counts them; no kind read on a
        # rectangle or a grid of more values takes n as the side)
        data = cls.iss_rules_at(name, args, max(rd.size, rd.ncols, rd.count), rd.low,
                                lambda text: cell_name(rd.cell(text)))
        if data is not None:
            rd.rules += data if isinstance(data, list) else [data]
            return True
    return False


def _read_rule(rd: _Reader, name: str, args: list[str]) -> None:
    """Read one item naming a rule: the kinds whose `iss` names it read it, the first that
    takes it; a name no kind takes is bad input naming it."""
    if not _read_by_kind(rd, name, args):
        raise BadInput(f"{name}: unexpected arguments" if name in _kinds_named() else
                       f"ISS constraint {one_line(name[:40])!r} has no polydoku rule kind")


def _read_shape(rd: _Reader, args: list[str]) -> None:
    """Read `Shape~RxC` and its values, `~LO-HI` (0-8) or `~V` (1..V): V may be more than the
    side (`6x6~9`: each house holds six different values of nine)."""
    m = re.fullmatch(r"(\d{1,2})x(\d{1,2})", args[0] if args else "")
    if not m:
        raise BadInput("a shape is rows x columns (Shape~9x9)")
    if rd.shaped:
        raise BadInput("a second Shape")
    rd.shaped = True
    rd.size, cols = int(m[1]), int(m[2])
    rd.ncols = cols if cols != rd.size else 0
    n = max(rd.size, cols)              # a house of the longer side holds every value
    if not 4 <= min(rd.size, cols) <= n <= MAX_SIZE:
        raise BadInput(f"ISS grids are 4x4 to {MAX_SIZE}x{MAX_SIZE}")
    if len(args) > 2:
        raise BadInput(f"Shape~{args[0]} with {one_line(args[2][:20])!r}: polydoku reads "
                       f"Shape~RxC~LO-HI only")
    values = re.fullmatch(r"(?:(\d{1,2})-)?(\d{1,2})", args[1] if len(args) > 1 else str(n))
    if not values:
        raise BadInput(f"{one_line(args[1][:20])!r} is not a range of values (0-8 or 9)")
    low, high = int(values[1] or 1), int(values[2])
    if high - low + 1 < n:
        raise BadInput(f"values {low}..{high} on a {args[0]} grid: a house of {n} cells "
                       f"holds {n} different values")
    rd.low, rd.count = low, high - low + 1


def _read_region_size(rd: _Reader, args: list[str]) -> None:
    """Read `RegionSize~K`: the cells of each box or jigsaw piece, from the side N to the
    number of values (9 on a 6x6 grid of nine values: 3x3 boxes holding every value)."""
    k = int(args[0]) if len(args) == 1 and args[0].isdigit() and len(args[0]) < 3 else 0
    side = max(rd.size, rd.ncols)
    if not side <= k <= max(side, rd.count):
        raise BadInput(f"RegionSize~{one_line('~'.join(args)[:20])}: a box or region has "
                       f"{side}..{max(side, rd.count)} cells")
    rd.region_size = k


MOST_FRAMES = 3                 # an Or inside an And inside an Or


def _read_item(rd: _Reader, k: int, item: str) -> None:
    name, *args = item.split("~")
    try:
        if name in ("Or", "And", "End") and not args:
            _read_frame(rd, name)
            return
        before = len(rd.rules)
        if rd.frames and name in ("", "Given", "Shape", "RegionSize", "NoBoxes", "Jigsaw"):
            _read_framed_given(rd, name, args)
        elif name in ("", "Given"):
            _read_given(rd, args)
        elif name == "Shape":
            _read_shape(rd, args)
        elif name == "RegionSize":
            _read_region_size(rd, args)
        elif name == "NoBoxes" and not args:
            rd.no_boxes = True
        elif name == "Jigsaw" and args:
            rd.layout = args[-1]
        else:
            _read_rule(rd, name, args)
        if rd.frames:                   # what the item said belongs to the open Or or And
            said = rd.rules[before:]
            del rd.rules[before:]
            kind, parts = rd.frames[-1]
            if kind == "Or":
                parts.append(said)      # one option
            else:
                parts.extend(said)
    except BadInput as err:
        raise BadInput(f"ISS item {k + 1} ({one_line(name[:40]) or 'Given'}): {err.reason}") \
            from None


def _read_frame(rd: _Reader, name: str) -> None:
    """Open an Or (its items are its options) or an And (its items one option), or close the
    last one open: a closed Or is a rule of the `or` kind."""
    if name != "End":
        if len(rd.frames) >= MOST_FRAMES:
            raise BadInput(f"Or and And nest more than {MOST_FRAMES} deep")
        rd.frames.append((name, []))
        return
    if not rd.frames:
        raise BadInput("an End with no Or or And open")
    from ..rules.kind.either import Either
    kind, parts = rd.frames.pop()
    said = [{"kind": Either.kind, "options": parts}] if kind == "Or" else parts
    if not rd.frames:
        rd.rules.extend(said)
    elif rd.frames[-1][0] == "Or":
        rd.frames[-1][1].append(said)
    else:
        rd.frames[-1][1].extend(said)


def _read_framed_given(rd: _Reader, name: str, args: list[str]) -> None:
    """Read a Given inside an Or or And: each cell's values a candidates rule (a given is
    one value), as it holds only where its option does."""
    from ..rules.kind.candidates import Candidates
    if name not in ("", "Given"):
        raise BadInput(f"{name} inside an Or or And")
    low, n = rd.low, max(rd.size, rd.ncols, rd.count)
    for arg in args:
        head, *values = arg.split("_")
        nums = [iss_number(v) for v in values]
        if not nums or any(not low <= v < low + n for v in nums):
            raise BadInput(f"given {one_line(arg[:30])}: values are {low}..{low + n - 1}")
        rd.rules.append({"kind": Candidates.kind, "cells": [cell_name(rd.cell(head))],
                         "values": nums})


def _read_replicate(rd: _Reader, k: int, item: str, children: list[str]) -> None:
    """Read a Replicate block: its children once per target, their cells shifted there."""
    width = rd.ncols or rd.size
    try:
        shifts = targets(item.split("~")[1:], width, rd.size * width, rd.cell)
    except BadInput as err:
        raise BadInput(f"ISS item {k + 1} (Replicate): {err.reason}") from None
    for shift in shifts:
        rd.shift = shift
        for j, child in enumerate(children):
            _read_item(rd, k + 1 + j, child)
    rd.shift = (0, 0)


def _along(rule: Any) -> list[Any]:
    """Return the rules of a line that passes a cell twice, as a drawn line of its kind is read
    (`Rule.from_path`: pieces of distinct cells, or refused by name); any other rule alone."""
    from ..rules.registry import line_kinds
    cells = rule.get("cells") if isinstance(rule, dict) else None
    cls = line_kinds().get(rule["kind"]) if isinstance(rule, dict) else None
    if cls is None or not isinstance(cells, list) or len(set(cells)) == len(cells):
        return [rule]
    return cls.from_path(cells, {k: v for k, v in rule.items() if k not in ("kind", "cells")})


def _pieces(layout: str, n: int, nv: int, w: int = 0) -> str | list[list[str]]:
    """Return a Jigsaw layout's regions: the layout itself on a square grid of N values, else
    the pieces of N..V cells (as ISS reads them, one piece of another size is no region: the
    cells a 7x7 grid of nine values leaves over). `w`: the columns, when not N."""
    if nv == n and not w:
        return layout
    w = w or n
    n = max(n, w)
    pieces: dict[str, list[str]] = {}
    for i, label in enumerate(layout):
        pieces.setdefault(label, []).append(cell_name(divmod(i, w)))
    kept = [cells for cells in pieces.values() if n <= len(cells) <= nv]
    if len(pieces) - len(kept) > 1 or len({len(c) for c in kept}) > 1:
        raise BadInput("ISS Jigsaw layout: its pieces are of more than one size")
    return kept


def _box_shape(n: int, cells: int, w: int = 0) -> tuple[int, int] | None:
    """Return the shape of ISS's own boxes of `cells` cells on an n x w grid (square by
    default), None when no rectangle of them tiles it (a prime side has none)."""
    try:
        return box_shape_for(n, cells, w)
    except BadInput:
        return None


def parse_iss(text: str, *, name: str | None = None) -> Puzzle:
    """Return the puzzle of an ISS constraint string."""
    from .jsonfmt import puzzle_from_dict
    stripped = "".join(text.split())
    if not stripped.startswith("."):
        raise BadInput("an ISS constraint string starts with '.'")
    rd = _Reader()
    items = stripped[1:].split(".")
    shapes = [k for k, item in enumerate(items) if item.split("~")[0] == "Shape"]
    replicated = blocks(items)
    inside = {j for k, end in replicated.items() for j in range(k + 1, end + 1)}
    for k in shapes[:1] + [k for k in range(len(items)) if k not in shapes[:1]]:
        if k in replicated:
            _read_replicate(rd, k, items[k], items[k + 1:replicated[k]])
        elif k not in inside:
            _read_item(rd, k, items[k])
    if rd.frames:
        raise BadInput(f"an {rd.frames[-1][0]} without its End")
    n, w = rd.size, rd.ncols or rd.size
    side = max(n, w)
    nv = max(rd.count, side)
    data: dict[str, Any] = {"size": n if n == w else [n, w],
                            "rules": [r for rule in rd.rules for r in _along(rule)]}
    if rd.low != 1 or nv != side:
        data["values"] = [rd.low, rd.low + nv - 1]
    k = rd.region_size or side
    boxes = _box_shape(n, k, w)
    cells = n * w
    if rd.layout is not None and len(rd.layout) != cells:
        raise BadInput(f"ISS Jigsaw layout has {len(rd.layout)} cells, expected {cells}")
    if rd.layout is not None and not rd.no_boxes and boxes:
        for label in dict.fromkeys(rd.layout):  # boxes kept: each piece is an extra region
            data["rules"].append({"kind": "extra-region", "cells": [
                cell_name(divmod(i, w)) for i, ch in enumerate(rd.layout) if ch == label]})
    elif rd.layout is not None:
        shape = box_shape_of(n, list(rd.layout), k) if n == w else None
        if shape:                       # rectangles of another shape (3x2 on a 6x6): boxes
            data["box"] = list(shape)
        else:
            data["regions"] = _pieces(rd.layout, n, nv, rd.ncols)
    elif rd.no_boxes or not boxes:
        data["box"] = "none"
    elif k != side or n != w:
        data["box"] = list(boxes)
    from ..model.puzzle import default_alphabet
    symbols = default_alphabet(nv, rd.low)
    data["givens"] = "".join(symbols[rd.givens[divmod(i, w)] - rd.low] if divmod(i, w) in rd.givens
                             else "." for i in range(cells))
    return puzzle_from_dict(data, name=name)
