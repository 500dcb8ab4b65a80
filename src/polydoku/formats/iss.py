"""The Interactive Sudoku Solver's constraint strings: a puzzle written as one, and read back.

ISS (sigh/Interactive-Sudoku-Solver) writes a puzzle as items `.Type~arg~arg…`: `.~R1C1_5` for
givens (a list of values is a cell's candidates), `.Thermo~R1C2~R2C3`, `.Cage~15~R1C1~R1C2`,
outside clues by their row or column (`.XSum~R4~5~7`: from the left, then from the right).
A kind's ISS name is its class attribute `iss`; this module holds how the arguments are laid
out, and refuses by name a kind ISS has no constraint for (or a clue ISS cannot place). Puzzle
names and labels are never written: ISS strings carry no free text here. Nothing here runs ISS.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Callable, Iterator

from ..errors import BadInput
from ..model import Puzzle
from ..model.geometry import Cell, box_shape_for, box_shape_of, cell_name
from ..model.rules import Rule, hooks_of
from ..text import one_line

MAX_SIZE = 16                       # ISS grids: 4x4 to 16x16
_BASE = "0123456789abcdefg"         # ISS writes a row or column number in base 17 (1..g)
_STEPS = {(1, 1): "DR", (-1, -1): "UL", (1, -1): "DL", (-1, 1): "UR"}
_GLOBALS = {"AntiKnight": "anti-knight", "AntiKing": "anti-king",
            "AntiConsecutive": "non-consecutive", "DisjointSets": "disjoint-groups",
            "Windoku": "windoku", "AntiTaxicab": "anti-taxicab",
            "StrictKropki": "kropki-negative", "StrictXV": "xv-negative"}
_LINES = {"Thermo": "thermometer", "Between": "between", "Renban": "renban",
          "Palindrome": "palindrome", "Entropic": "entropic", "Zipper": "zipper",
          "RegionSumLine": "region-sum", "AllDifferent": "extra-region", "DoubleArrow":
          "double-arrow", "WhiteDot": "kropki-white", "BlackDot": "kropki-black",
          "GreaterThan": "greater-than"}
_OUTSIDE = {"XSum": ("x-sum", "sum"), "Skyscraper": ("skyscraper", "count"),
            "NumberedRoom": ("numbered-room", "value")}
_ALONE = ("AntiKnight", "AntiKing", "AntiConsecutive", "DisjointSets", "Windoku",
          "AntiTaxicab", "StrictKropki", "StrictXV", "NoBoxes")
# a given (`.~R1C1_5`), a name with arguments, or a known global rule alone; never a line of
# symbols such as `.AB.C…` (a 16x16 line holds no `~`)
_DETECT = re.compile(r"^\.(~[Rr][0-9a-gA-G][Cc]|[A-Z][A-Za-z]*~|(" + "|".join(_ALONE)
                     + r")(\.|$))", re.ASCII)


_ALONE_NAME = re.compile(r"^\.([A-Z][A-Za-z]*)(\.|$)", re.ASCII)


def looks_like_iss(text: str) -> bool:
    """Return whether text is an ISS constraint string (not a line of symbols)."""
    head = "".join(text[:400].split())
    if _DETECT.match(head):
        return True
    alone = _ALONE_NAME.match(head)            # a global rule of a kind's module, alone
    return alone is not None and alone[1] in _kinds_named()


def _kinds_named() -> dict[str, list[type[Rule]]]:
    """Return the kinds that read ISS items, by ISS name (the registry loads on first use)."""
    from ..rules.registry import named_in
    return named_in("iss")


# ---- writing --------------------------------------------------------------------------------

def _cell(cell: Cell) -> str:
    return f"R{_BASE[cell[0] + 1]}C{_BASE[cell[1] + 1]}"


def _cells(cells) -> str:
    return "~".join(_cell(c) for c in cells)


@lru_cache(maxsize=16)
def little_killer_ids(n: int) -> dict[str, tuple[Cell, ...]]:
    """Return ISS's little killer diagonals of an n x n grid: the first cell's id -> the cells
    (each diagonal of 2 cells or more once, in the direction ISS reads it)."""
    out: dict[str, tuple[Cell, ...]] = {}
    seen: set[frozenset[Cell]] = set()

    def add(r: int, c: int, dr: int, dc: int) -> None:
        cells = []
        while 0 <= r < n and 0 <= c < n:
            cells.append((r, c))
            r, c = r + dr, c + dc
        if len(cells) > 1 and frozenset(cells) not in seen:
            seen.add(frozenset(cells))
            out[_cell(cells[0])] = tuple(cells)

    for row in range(n - 1):
        add(row, 0, 1, 1)
    for row in range(1, n - 1):
        add(row, n - 1, -1, -1)
    for col in range(1, n):
        add(0, col, 1, -1)
    for col in range(1, n - 1):
        add(n - 1, col, -1, 1)
    return out


def _refuse(rule: Rule, why: str) -> BadInput:
    return BadInput(f"{rule.kind}: {why}")


def _outside(rule: Any, n: int) -> str:
    """Return an outside clue (x-sum, skyscraper, numbered room) as ISS writes it."""
    head = f"R{rule.index + 1}" if rule.side in ("left", "right") else f"C{rule.index + 1}"
    if rule.value == 0 and rule.kind != "numbered-room":
        raise _refuse(rule, "ISS has no clue of 0 for this kind")
    ahead = rule.side in ("left", "top")
    return f"{type(rule).iss}~{head}~{rule.value if ahead else ''}~{'' if ahead else rule.value}"


def _little_killer(rule: Any, n: int) -> str:
    dr, dc = {v: k for k, v in _STEPS.items()}[rule.direction.upper()]
    (r, c), cells = rule.start, set()
    while 0 <= r < n and 0 <= c < n:
        cells.add((r, c))
        r, c = r + dr, c + dc
    for key, diagonal in little_killer_ids(n).items():
        if set(diagonal) == cells:
            return f"LittleKiller~{rule.total}~{key}"
    raise _refuse(rule, f"the diagonal from {cell_name(rule.start)} is not a whole diagonal "
                        "of 2 cells or more, the only ones ISS takes")


def _arrow(rule: Any, n: int) -> str:
    if len(rule.circle) == 1:
        return f"Arrow~{_cells(rule.circle + rule.cells)}"
    if list(rule.circle) != sorted(rule.circle):
        raise _refuse(rule, "ISS reads a pill from left to right, top to bottom; this circle "
                            "is listed in another order")
    return f"PillArrow~{len(rule.circle)}~{_cells(rule.circle + rule.cells)}"


def _killer(rule: Any, n: int) -> str:
    if rule.total == 0:
        raise _refuse(rule, "ISS reads a cage sum of 0 as no sum")
    return f"Cage~{'' if rule.total is None else rule.total}~{_cells(rule.cells)}"


def _xv(rule: Any, n: int) -> str:
    mark = {10: "X", 5: "V"}.get(rule.total)
    if mark is None:
        raise _refuse(rule, f"ISS marks pairs adding up to 10 (X) or 5 (V), not {rule.total}")
    return f"{mark}~{_cells(rule.cells)}"


def _negative(rule: Any, n: int) -> str:
    if rule.marks != rule.all_marks:
        raise _refuse(rule, "ISS takes all the marks as given, not one kind alone")
    return type(rule).iss


def _sum_line(rule: Any, n: int) -> str:
    return f"SumLine~{rule.total}~{_cells(rule.cells)}{'~LOOP' if rule.loop else ''}"


def _quad(rule: Any, n: int) -> str:
    return f"Quad~{_cell(min(rule.cells))}~" + "~".join(map(str, rule.values))


def _params(rule: Rule, n: int) -> str:
    """Return the ISS item of a rule kind that is ISS's name and arguments (no leading dot)."""
    kind, cells = rule.kind, getattr(rule, "cells", ())
    if kind in ("diagonal-main", "diagonal-anti", "diagonal"):
        parts = {"diagonal-main": ["-1"], "diagonal-anti": ["1"], "diagonal": ["1", "-1"]}[kind]
        return ".".join(f"Diagonal~{p}" for p in parts)
    if kind in ("even", "odd"):
        values = "_".join(str(v) for v in range(2 if kind == "even" else 1, n + 1, 2))
        return "~" + "~".join(f"{_cell(c)}_{values}" for c in cells)
    if kind == "whispers":
        return f"Whisper~{rule.difference or (n + 1) // 2}~{_cells(cells)}"  # type: ignore[attr-defined]
    if kind == "lockout":
        return f"Lockout~{rule.gap(n)}~{_cells(cells)}"          # type: ignore[attr-defined]
    if kind == "between" and len(cells) < 3:
        raise _refuse(rule, "ISS takes between lines of 3 cells or more")
    if kind in ("modular", "parity"):
        return f"Modular~{getattr(rule, 'modulus', 2)}~{_cells(cells)}"
    if kind in ("column-index", "row-index"):
        return f"Indexing~{'C' if kind == 'column-index' else 'R'}~{_cells(cells)}"
    if kind == "sandwich":
        side = "R" if rule.side in ("left", "right") else "C"    # type: ignore[attr-defined]
        return f"Sandwich~{rule.value}~{side}{rule.index + 1}"    # type: ignore[attr-defined]
    if kind in ("x-sum", "skyscraper", "numbered-room"):
        return _outside(rule, n)
    if kind in _WRITERS:
        return _WRITERS[kind](rule, n)
    if rule.is_global:
        return type(rule).iss
    return f"{type(rule).iss}~{_cells(cells)}"


_WRITERS: dict[str, Callable[[Any, int], str]] = {
    "little-killer": _little_killer, "arrow": _arrow, "killer": _killer, "xv": _xv,
    "kropki-negative": _negative, "xv-negative": _negative, "sum-line": _sum_line,
    "quadruple": _quad}


def _layout(puzzle: Puzzle) -> Iterator[str]:
    """Yield the items for the grid: its shape, and its regions when they are not ISS's boxes."""
    g = puzzle.geometry
    n = g.size
    if n != 9:
        yield f"Shape~{n}x{n}"
    if g.is_rectangular and (g.box_rows, g.box_cols) == box_shape_for(n):
        return
    if g.has_boxes:
        symbols = "ABCDEFGHIJKLMNOP"
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
    givens = [f"{_cell(cell)}_{v}" for cell, v in puzzle.given_cells()]
    if givens:
        items.append("~" + "~".join(givens))
    for rule in puzzle.rules:
        if "write_iss" in hooks_of(type(rule)):
            try:
                items += rule.iss_items(n, _cell)
            except BadInput as err:
                raise _refuse(rule, err.reason) from None
            continue
        if not type(rule).iss:
            raise BadInput(f"{rule.kind}: the Interactive Sudoku Solver has no such constraint")
        items += _params(rule, n).split(".")
    # a rule twice (diagonal and diagonal-main) is one ISS item, as ISS merges them
    return "".join("." + item for item in dict.fromkeys(items)) or ".Shape~9x9"


# ---- reading --------------------------------------------------------------------------------

class _Reader:
    """The state of one string being read: the grid, the givens and the rules so far."""

    def __init__(self) -> None:
        self.size = 9
        self.shaped = False
        self.layout: str | None = None
        self.no_boxes = False
        self.givens: dict[Cell, int] = {}
        self.rules: list[Any] = []

    def cell(self, text: str) -> Cell:
        """Return the cell of an ISS cell id (R1C1; rows and columns in base 17)."""
        t = text.lower()
        if len(t) != 4 or t[0] != "r" or t[2] != "c" or t[1] not in _BASE[1:] \
                or t[3] not in _BASE[1:]:
            raise BadInput(f"{one_line(text[:20])!r} is not an ISS cell id (R1C1)")
        r, c = _BASE.index(t[1]) - 1, _BASE.index(t[3]) - 1
        if r >= self.size or c >= self.size:
            raise BadInput(f"cell {one_line(text)} is outside the {self.size}x{self.size} grid")
        return r, c

    def names(self, args: list[str]) -> list[str]:
        return [cell_name(self.cell(a)) for a in args]

    def number(self, text: str) -> int:
        if not re.fullmatch(r"-?\d{1,6}", text):
            raise BadInput(f"{one_line(text[:20])!r} is not a number")
        return int(text)


def _read_given(rd: _Reader, args: list[str]) -> None:
    """Read a Given item: single values are givens, the even or odd values are even/odd cells,
    other sets of values candidate givens (cells of one set are one `candidates` rule). A cell
    given again keeps both: as ISS reads them, every given holds (two values: no solution)."""
    n = rd.size
    evens, odds = list(range(2, n + 1, 2)), list(range(1, n + 1, 2))
    marked: dict[str, list[str]] = {"even": [], "odd": []}
    candidates: dict[tuple[int, ...], list[str]] = {}
    extra: list[tuple[tuple[int, ...], list[str]]] = []
    for arg in args:
        head, *values = arg.split("_")
        cell = rd.cell(head)
        nums = [rd.number(v) for v in values]
        if any(not 1 <= v <= n for v in nums):
            raise BadInput(f"given {one_line(arg[:30])}: values are 1..{n}")
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


def _read_outside(rd: _Reader, name: str, args: list[str]) -> None:
    kind, field = _OUTSIDE[name]
    args = args + [""] * (3 - len(args))
    if len(args) != 3 or not re.fullmatch(r"[RC]\d{1,2}", args[0]):
        raise BadInput(f"{name} takes a row or column (R4, C2) and two clues")
    is_row, index = args[0][0] == "R", int(args[0][1:])
    for value, side in ((args[1], "left" if is_row else "top"),
                        (args[2], "right" if is_row else "bottom")):
        if value:
            rd.rules.append({"kind": kind, "side": side, "index": index,
                             field: rd.number(value)})


def _read_little_killer(rd: _Reader, args: list[str]) -> None:
    if len(args) != 2:
        raise BadInput("LittleKiller takes a sum and the diagonal's first cell")
    cells = little_killer_ids(rd.size).get(_cell(rd.cell(args[1])))
    if cells is None:
        raise BadInput(f"LittleKiller: no diagonal starts at {one_line(args[1])}")
    step = (cells[1][0] - cells[0][0], cells[1][1] - cells[0][1])
    rd.rules.append({"kind": "little-killer", "cell": cell_name(cells[0]),
                     "direction": _STEPS[step], "sum": rd.number(args[0])})


_PAIRS = ("WhiteDot", "BlackDot", "GreaterThan", "X", "V")


def _adjacent_pairs(cells: list[Cell]) -> Iterator[tuple[Cell, Cell]]:
    """Yield the pairs of orthogonal neighbours among cells, each earlier cell first (how ISS
    reads a dot, a mark or a sign drawn over more than two cells)."""
    for k, (r, c) in enumerate(cells):
        for other in cells[k + 1:]:
            if abs(other[0] - r) + abs(other[1] - c) == 1:
                yield (r, c), other


def _valued_line(rd: _Reader, name: str, args: list[str]) -> dict[str, Any]:
    """Return the rule of a line with a value first: a whisper's or a lockout's difference, a
    sum line's sum (and LOOP last). (A modular line reads itself: `Modular.read_iss`.)"""
    value, cells = rd.number(args[0]), args[1:]
    loop = name == "SumLine" and cells[-1:] == ["LOOP"]
    kind = {"Whisper": "whispers", "Lockout": "lockout", "SumLine": "sum-line"}
    line: dict[str, Any] = {"kind": kind[name],
                            "cells": rd.names(cells[:-1] if loop else cells)}
    line["sum" if name == "SumLine" else "difference"] = value
    if loop:
        line["loop"] = True
    return line


def _arrow_of(rd: _Reader, name: str, args: list[str]) -> dict[str, Any]:
    """Return the arrow of an Arrow (circle, shaft…) or a PillArrow (2 or 3, pill, shaft…;
    ISS reads the pill left to right, top to bottom)."""
    if name == "Arrow":
        return {"kind": "arrow", "circle": rd.names(args[:1]), "cells": rd.names(args[1:])}
    if args[0] not in ("2", "3"):
        raise BadInput("PillArrow: a pill has 2 or 3 cells")
    k = int(args[0])
    circle = sorted(rd.cell(a) for a in args[1:k + 1])
    return {"kind": "arrow", "circle": [cell_name(c) for c in circle],
            "cells": rd.names(args[k + 1:])}


def _read_by_kind(rd: _Reader, name: str, args: list[str]) -> bool:
    """Read an item through the kinds of its ISS name (`Rule.iss_rules`), the first that takes
    it; return whether one did."""
    for cls in _kinds_named().get(name, ()):
        data = cls.iss_rules(name, args, rd.size, lambda text: cell_name(rd.cell(text)))
        if data is not None:
            rd.rules += data if isinstance(data, list) else [data]
            return True
    return False


def _read_rule(rd: _Reader, name: str, args: list[str]) -> None:
    """Read one item naming a rule."""
    add = rd.rules.append
    if _read_by_kind(rd, name, args):
        return
    if name in _GLOBALS and not args:
        add(_GLOBALS[name])
    elif name in _PAIRS and len(args) > 2:
        for a, b in _adjacent_pairs([rd.cell(x) for x in args]):
            _read_rule(rd, name, [_cell(a), _cell(b)])
    elif name in _LINES:
        add({"kind": _LINES[name], "cells": rd.names(args)})
    elif name in _OUTSIDE:
        _read_outside(rd, name, args)
    elif name == "Diagonal" and args in (["1"], ["-1"]):
        add("diagonal-anti" if args == ["1"] else "diagonal-main")
    elif name == "Cage" and args:
        rule: dict[str, Any] = {"kind": "killer", "cells": rd.names(args[1:])}
        if args[0] not in ("", "0"):
            rule["sum"] = rd.number(args[0])
        add(rule)
    elif name == "Whisper" and args and not re.fullmatch(r"-?\d+", args[0]):
        add({"kind": "whispers", "cells": rd.names(args), "difference": 5})  # ISS's default
    elif name in ("Whisper", "Lockout", "SumLine") and args:
        add(_valued_line(rd, name, args))
    elif name in ("X", "V"):
        add({"kind": "xv", "cells": rd.names(args), "sum": 10 if name == "X" else 5})
    elif name in ("Arrow", "PillArrow") and len(args) >= 2:
        add(_arrow_of(rd, name, args))
    elif name == "Sandwich" and len(args) == 2 and re.fullmatch(r"[RC]\d{1,2}", args[1]):
        add({"kind": "sandwich", "side": "left" if args[1][0] == "R" else "top",
             "index": int(args[1][1:]), "sum": rd.number(args[0])})
    elif name == "LittleKiller":
        _read_little_killer(rd, args)
    elif name == "Quad" and len(args) >= 2:
        r, c = rd.cell(args[0])
        add({"kind": "quadruple", "cells": [cell_name(x) for x in
                                            ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))],
             "values": [rd.number(v) for v in args[1:]]})
    elif name == "Indexing" and args and args[0] in ("R", "C"):
        add({"kind": "row-index" if args[0] == "R" else "column-index",
             "cells": rd.names(args[1:])})
    else:
        known = name in _KNOWN or name in _kinds_named()
        raise BadInput(f"{name}: unexpected arguments" if known else
                       f"ISS constraint {one_line(name[:40])!r} has no polydoku rule kind")


_KNOWN = {*_GLOBALS, *_LINES, *_OUTSIDE, "Diagonal", "Cage", "Whisper", "Lockout", "Modular",
          "SumLine", "X", "V", "Arrow", "PillArrow", "Sandwich", "LittleKiller", "Quad",
          "Indexing"}


def _read_item(rd: _Reader, k: int, item: str) -> None:
    name, *args = item.split("~")
    try:
        if name in ("", "Given"):
            _read_given(rd, args)
        elif name == "Shape":
            m = re.fullmatch(r"(\d{1,2})x(\d{1,2})", args[0] if args else "")
            if len(args) != 1 or not m or m[1] != m[2]:
                raise BadInput("polydoku takes square shapes of values 1..N only (Shape~9x9)")
            if rd.shaped:
                raise BadInput("a second Shape")
            rd.shaped = True
            rd.size = int(m[1])
            if not 4 <= rd.size <= MAX_SIZE:
                raise BadInput(f"ISS grids are 4x4 to {MAX_SIZE}x{MAX_SIZE}")
        elif name == "NoBoxes" and not args:
            rd.no_boxes = True
        elif name == "Jigsaw" and args:
            rd.layout = args[-1]
        else:
            _read_rule(rd, name, args)
    except BadInput as err:
        raise BadInput(f"ISS item {k + 1} ({one_line(name[:40]) or 'Given'}): {err.reason}") \
            from None


def _along(rule: Any) -> list[Any]:
    """Return the rules of a line that passes a cell twice, as a drawn line of its kind is read
    (`Rule.from_path`: pieces of distinct cells, or refused by name); any other rule alone."""
    from ..rules.registry import line_kinds
    cells = rule.get("cells") if isinstance(rule, dict) else None
    cls = line_kinds().get(rule["kind"]) if isinstance(rule, dict) else None
    if cls is None or not isinstance(cells, list) or len(set(cells)) == len(cells):
        return [rule]
    return cls.from_path(cells, {k: v for k, v in rule.items() if k not in ("kind", "cells")})


def _has_boxes(n: int) -> bool:
    """Return whether an n x n grid has boxes of its own (a prime size has none)."""
    try:
        box_shape_for(n)
    except BadInput:
        return False
    return True


def parse_iss(text: str, *, name: str | None = None) -> Puzzle:
    """Return the puzzle of an ISS constraint string."""
    from .jsonfmt import puzzle_from_dict
    stripped = "".join(text.split())
    if not stripped.startswith("."):
        raise BadInput("an ISS constraint string starts with '.'")
    rd = _Reader()
    items = stripped[1:].split(".")
    shapes = [k for k, item in enumerate(items) if item.split("~")[0] == "Shape"]
    for k in shapes[:1] + [k for k in range(len(items)) if k not in shapes[:1]]:
        _read_item(rd, k, items[k])
    n = rd.size
    data: dict[str, Any] = {"size": n, "rules": [r for rule in rd.rules for r in _along(rule)]}
    if rd.layout is not None and not rd.no_boxes and _has_boxes(n):
        if len(rd.layout) != n * n:
            raise BadInput(f"ISS Jigsaw layout has {len(rd.layout)} cells, expected {n * n}")
        for label in dict.fromkeys(rd.layout):  # boxes kept: each piece is an extra region
            data["rules"].append({"kind": "extra-region", "cells": [
                cell_name(divmod(i, n)) for i, ch in enumerate(rd.layout) if ch == label]})
    elif rd.layout is not None:
        if len(rd.layout) != n * n:
            raise BadInput(f"ISS Jigsaw layout has {len(rd.layout)} cells, expected {n * n}")
        shape = box_shape_of(n, list(rd.layout))
        if shape:                       # rectangles of another shape (3x2 on a 6x6): boxes
            data["box"] = list(shape)
        else:
            data["regions"] = rd.layout
    elif rd.no_boxes:
        data["box"] = "none"
    from ..model.puzzle import default_alphabet
    symbols = default_alphabet(n)
    data["givens"] = "".join(symbols[rd.givens[divmod(i, n)] - 1] if divmod(i, n) in rd.givens
                             else "." for i in range(n * n))
    return puzzle_from_dict(data, name=name)
