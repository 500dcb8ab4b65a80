"""Rules between two neighbouring cells: kropki dots and XV marks, and their negative forms
("every pair without a mark is neither")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterator

from ..model.geometry import Cell, Geometry, cell_name
from ..model.rules import Shape, ShapeKind
from . import params
from ..errors import BadInput
from .base import GlobalRule, PairRule, real_pairs
from .globals import move_pairs


@dataclass(frozen=True)
class KropkiWhite(PairRule):
    """A white dot: the two cells hold consecutive values."""

    kind: ClassVar[str] = "kropki-white"
    any_shape: ClassVar[bool] = True
    fpuzzles: ClassVar[tuple[str, ...]] = ("difference",)
    any_values: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    iss: ClassVar[str] = "WhiteDot"
    description: ClassVar[str] = "cells joined by a white dot hold consecutive values"
    aliases: ClassVar[tuple[str, ...]] = ("white-dot", "difference")
    words: ClassVar[str] = "are not consecutive"

    def ok(self, a: int, b: int) -> bool:
        return abs(a - b) == 1

    technique: ClassVar[str] = "Kropki Pair"
    technique_score: ClassVar[int] = 20
    technique_level: ClassVar[str] = "Easy"
    technique_summary: ClassVar[str] = (
        "a candidate that no candidate across a white (consecutive) or black (double) dot "
        "completes goes")
    joins: ClassVar[str] = "consecutive values"
    mark: ClassVar[str] = "white dot"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.DOT, tuple(geometry.index(c) for c in self.cells), style="white")]

    @classmethod
    def fpuzzles_read(cls, element: dict[str, Any], cells: list[str],
                      key: str) -> dict[str, Any] | None:
        """A plain dot (no value, or 1); a numbered one is a difference dot's (None)."""
        return {"kind": cls.kind, "cells": cells} if element.get("value") in (None, "", 1, "1") \
            else None


@dataclass(frozen=True)
class KropkiBlack(PairRule):
    """A black dot: one cell holds double the other."""

    kind: ClassVar[str] = "kropki-black"
    any_shape: ClassVar[bool] = True
    any_values: ClassVar[bool] = True       # `ok` reads the values themselves
    any_count: ClassVar[bool] = True
    fpuzzles: ClassVar[tuple[str, ...]] = ("ratio",)
    iss: ClassVar[str] = "BlackDot"
    description: ClassVar[str] = "cells joined by a black dot hold values in ratio 1:2"
    aliases: ClassVar[tuple[str, ...]] = ("black-dot", "ratio")
    words: ClassVar[str] = "are not in ratio 1:2"

    def ok(self, a: int, b: int) -> bool:
        return a == 2 * b or b == 2 * a

    technique: ClassVar[str] = "Kropki Pair"
    technique_score: ClassVar[int] = KropkiWhite.technique_score
    technique_summary: ClassVar[str] = KropkiWhite.technique_summary
    joins: ClassVar[str] = "a value and its double"
    mark: ClassVar[str] = "black dot"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.DOT, tuple(geometry.index(c) for c in self.cells), style="black")]

    @classmethod
    def fpuzzles_read(cls, element: dict[str, Any], cells: list[str],
                      key: str) -> dict[str, Any] | None:
        """A plain dot (no value, or 2); another ratio is a ratio dot's (None)."""
        return {"kind": cls.kind, "cells": cells} if element.get("value") in (None, "", 2, "2") \
            else None


@dataclass(frozen=True)
class XV(PairRule):
    """An X (the two cells add up to 10) or a V (they add up to 5)."""

    total: int = 10

    kind: ClassVar[str] = "xv"
    any_shape: ClassVar[bool] = True
    any_values: ClassVar[bool] = True       # `ok` reads the values themselves
    any_count: ClassVar[bool] = True
    fpuzzles: ClassVar[tuple[str, ...]] = ("xv",)
    iss: ClassVar[str] = "X V"
    description: ClassVar[str] = "cells joined by an X add up to 10, by a V to 5"

    @property
    def words(self) -> str:   # type: ignore[override]
        return f"do not add up to {self.total}"

    technique: ClassVar[str] = "XV Pair"
    technique_score: ClassVar[int] = 20
    technique_level: ClassVar[str] = "Easy"
    technique_summary: ClassVar[str] = (
        "a candidate that no candidate across an X (sum 10) or a V (sum 5) completes goes")

    def join_words(self) -> str:
        return f"values adding up to {self.total}"

    def mark_words(self) -> str:
        return {10: "X", 5: "V"}.get(self.total, f"{self.total} mark")

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "XV":
        value = data.get("sum")
        if isinstance(value, str) and value.strip().upper() in ("X", "V"):
            data = dict(data, sum=10 if value.strip().upper() == "X" else 5)
        return cls(cls.read_cells(data, geometry),
                   params.integer(data, "sum", 2, max(10, 2 * geometry.nvalues)))

    def to_data(self) -> dict[str, Any]:
        return dict(super().to_data(), sum=self.total)

    def ok(self, a: int, b: int) -> bool:
        return a + b == self.total

    def shapes(self, geometry: Geometry) -> list[Shape]:
        mark = {10: "X", 5: "V"}.get(self.total, str(self.total))
        return [Shape(ShapeKind.MARK, tuple(geometry.index(c) for c in self.cells), mark)]

    @classmethod
    def iss_pair(cls, name: str, cells: list[str]) -> dict[str, Any]:
        return {"kind": cls.kind, "cells": cells, "sum": 10 if name == "X" else 5}

    def iss_items(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        mark = {10: "X", 5: "V"}.get(self.total)
        if mark is None:
            raise BadInput(f"ISS marks pairs adding up to 10 (X) or 5 (V), not {self.total}")
        return ["~".join([mark, *(cell(c) for c in self.cells)])]

    @classmethod
    def fpuzzles_read(cls, element: dict[str, Any], cells: list[str],
                      key: str) -> dict[str, Any] | None:
        mark = str(element.get("value", "")).upper()
        if mark not in ("X", "V"):
            raise BadInput(f"f-puzzles xv mark {mark[:8]!r} is not X or V")
        return {"kind": cls.kind, "cells": cells, "sum": 10 if mark == "X" else 5}

    def fpuzzles_written(self) -> dict[str, Any]:
        mark = {10: "X", 5: "V"}.get(self.total)
        if mark is None:
            raise BadInput(f"f-puzzles has no mark for a pair adding up to {self.total}")
        return {"value": mark}


# a sentence saying all of a family's marks are given ("all possible dots are given")
_ALL_GIVEN = r"\ball\b.*\bgiven\b|\bno dot\b|\bwithout a dot\b"


@dataclass(frozen=True)
class _Negative(GlobalRule):
    """Every orthogonal pair with no mark of the given family breaks each of its relations."""

    marks: tuple[str, ...] = ()

    family: ClassVar[tuple[type, ...]] = ()
    all_marks: ClassVar[tuple[str, ...]] = ()
    field: ClassVar[str] = ""
    words: ClassVar[str] = ""

    def __post_init__(self) -> None:
        if not self.marks:
            object.__setattr__(self, "marks", self.all_marks)

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "_Negative":
        raw = data.get(cls.field, list(cls.all_marks))
        if not isinstance(raw, list) or not raw:
            raise BadInput(f"field \"{cls.field}\" must be a list of {', '.join(cls.all_marks)}")
        marks = tuple(params.choice({cls.field: m}, cls.field, cls.all_marks) for m in raw)
        return cls(tuple(sorted(set(marks), key=cls.all_marks.index)))

    def to_data(self):
        if self.marks == self.all_marks:
            return self.kind
        return {"kind": self.kind, self.field: list(self.marks)}

    def forbidden(self, mark: str, a: int, b: int) -> bool:
        """Return whether two unmarked neighbours holding a, b break `mark`'s negative rule."""
        raise NotImplementedError

    def ok(self, a: int, b: int) -> bool:
        return not any(self.forbidden(m, a, b) for m in self.marks)

    @classmethod
    def read_off(cls, grid, geometry: Geometry, rng) -> list:
        """Return every mark a full grid carries (all of them: the negative rule holds), and
        the negative rule itself, for the generator."""
        negative = cls(cls.all_marks)
        out: list = []
        for a, b in move_pairs(((0, 1), (1, 0)), geometry):
            pair = (geometry.cell(a), geometry.cell(b))
            for mark in cls.all_marks:
                if negative.forbidden(mark, grid[a], grid[b]):
                    out.append(cls.mark_rule(mark, pair))
                    break
        return out + [negative]

    @classmethod
    def mark_rule(cls, mark: str, pair) -> PairRule:
        """Return the rule of one mark between two cells."""
        raise NotImplementedError

    def free_pairs(self, g: Geometry, rules) -> list[tuple[int, int]]:
        """Return the orthogonal cell-index pairs that carry no mark of the family."""
        marked = {r.pair() for r in rules if isinstance(r, PairRule) and isinstance(r, self.family)}
        out = []
        for a, b in move_pairs(((0, 1), (1, 0)), g):
            if frozenset((g.cell(a), g.cell(b))) not in marked:
                out.append((a, b))
        return out

    def lower(self, b) -> None:
        ok = real_pairs(self.ok, b.geometry)
        for x, y in self.free_pairs(b.geometry, b.rules):
            b.relation(x, y, ok)

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        ok, real = real_pairs(self.ok, geometry), geometry.real
        for a, b in self.free_pairs(geometry, rules):
            if grid[a] and grid[b] and not ok(grid[a], grid[b]):
                yield (f"{cell_name(geometry.cell(a))}={real(grid[a])} and "
                       f"{cell_name(geometry.cell(b))}={real(grid[b])} have no mark but "
                       f"{self.words} ({self.kind})")

    @classmethod
    def stated(cls, low: str, negated: bool, drawn: tuple[str, ...]) -> list[Any]:
        """A sentence that says all of the family's marks are given ("all possible black dots
        are given", "no dot means neither") states this rule for the marks it names (all when
        it names none); "not all" or "no negative constraint" say nothing."""
        if negated or not all(re.search(p, low) for p in cls.stated_phrases[0]):
            return []
        marks = cls.marks_named(low)
        return [{"kind": cls.kind, cls.field: marks}] if marks else []

    @classmethod
    def marks_named(cls, low: str) -> list[str]:
        """Return the marks of the family a sentence names (what its negative rule covers)."""
        return [m for m in cls.all_marks if re.search(rf"\b{m}\b", low)] or list(cls.all_marks)

    def iss_items(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        if self.marks != self.all_marks:
            raise BadInput("ISS takes all the marks as given, not one kind alone")
        return super().iss_items(n, cell)

    fpuzzles_marks: ClassVar[dict[str, str]] = {}   # mark -> its name in f-puzzles' list
    # every name f-puzzles' "negative" list may hold (any other is bad input)
    fpuzzles_known: ClassVar[tuple[str, ...]] = ("difference", "ratio", "xv")

    @classmethod
    def fpuzzles_rules(cls, key: str, value: Any, n: int, cell) -> list[Any]:
        """f-puzzles' one `negative` list: the marks it names of this kind's family."""
        if not isinstance(value, list):
            raise BadInput("f-puzzles \"negative\" must be a list")
        unknown = [x for x in value if x not in cls.fpuzzles_known]
        if unknown:
            raise BadInput(f"f-puzzles negative constraint {str(unknown[0])[:20]!r} is not "
                           f"supported")
        marks = [m for m, name in cls.fpuzzles_marks.items() if name in value]
        if not marks:
            return []
        if len(set(cls.fpuzzles_marks.values())) == 1:
            return [cls.kind]           # one name stands for all its marks
        return [{"kind": cls.kind, cls.field: marks}]

    def fpuzzles_entries(self, n: int, cell) -> dict[str, Any]:
        return {"negative": list(dict.fromkeys(self.fpuzzles_marks[m] for m in self.marks))}


@dataclass(frozen=True)
class KropkiNegative(_Negative):
    """All dots are given: neighbours with no dot are neither consecutive nor in ratio 1:2."""

    kind: ClassVar[str] = "kropki-negative"
    any_shape: ClassVar[bool] = True
    any_values: ClassVar[bool] = True       # `ok` reads the values themselves
    any_count: ClassVar[bool] = True
    fpuzzles: ClassVar[tuple[str, ...]] = ("negative",)
    fpuzzles_marks: ClassVar[dict[str, str]] = {"white": "difference", "black": "ratio"}
    iss: ClassVar[str] = "StrictKropki"
    description: ClassVar[str] = "neighbours with no kropki dot are neither consecutive nor in ratio 1:2"
    aliases: ClassVar[tuple[str, ...]] = ("negative-kropki",)
    family: ClassVar[tuple[type, ...]] = (KropkiWhite, KropkiBlack)
    all_marks: ClassVar[tuple[str, ...]] = ("white", "black")
    field: ClassVar[str] = "dots"
    words: ClassVar[str] = "are consecutive or in ratio 1:2"
    stated_phrases: ClassVar[tuple[tuple[str, ...], ...]] = ((_ALL_GIVEN, r"\bdots?\b|kropki"),)

    def forbidden(self, mark: str, a: int, b: int) -> bool:
        return abs(a - b) == 1 if mark == "white" else (a == 2 * b or b == 2 * a)

    @classmethod
    def mark_rule(cls, mark: str, pair) -> PairRule:
        return KropkiWhite(pair) if mark == "white" else KropkiBlack(pair)


@dataclass(frozen=True)
class XVNegative(_Negative):
    """All X and V marks are given: neighbours with no mark add up to neither 10 nor 5."""

    kind: ClassVar[str] = "xv-negative"
    any_shape: ClassVar[bool] = True
    any_values: ClassVar[bool] = True       # `ok` reads the values themselves
    any_count: ClassVar[bool] = True
    fpuzzles: ClassVar[tuple[str, ...]] = ("negative",)
    fpuzzles_marks: ClassVar[dict[str, str]] = {"x": "xv", "v": "xv"}
    iss: ClassVar[str] = "StrictXV"
    description: ClassVar[str] = "neighbours with no X or V add up to neither 10 nor 5"
    aliases: ClassVar[tuple[str, ...]] = ("negative-xv",)
    family: ClassVar[tuple[type, ...]] = (XV,)
    all_marks: ClassVar[tuple[str, ...]] = ("x", "v")
    field: ClassVar[str] = "marks"
    words: ClassVar[str] = "add up to 10 or 5"
    stated_phrases: ClassVar[tuple[tuple[str, ...], ...]] = (
        (_ALL_GIVEN, r"\bx\b|\bv\b|\bxs\b|\bvs\b|x'?s|v'?s"),)

    @classmethod
    def marks_named(cls, low: str) -> list[str]:
        """X and V are named as letters, alone or plural ("X's"); none named, no rule."""
        return [m for m in cls.all_marks if re.search(rf"\b{m}'?s?\b", low)]

    def forbidden(self, mark: str, a: int, b: int) -> bool:
        return a + b == (10 if mark == "x" else 5)

    @classmethod
    def mark_rule(cls, mark: str, pair) -> PairRule:
        return XV(pair, 10 if mark == "x" else 5)


@dataclass(frozen=True)
class GreaterThan(PairRule):
    """An inequality sign between two neighbours: the first cell holds the larger value."""

    kind: ClassVar[str] = "greater-than"
    any_shape: ClassVar[bool] = True
    any_values: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    iss: ClassVar[str] = "GreaterThan"
    description: ClassVar[str] = "of two neighbours joined by a sign, the first holds the larger value"
    aliases: ClassVar[tuple[str, ...]] = ("greaterthan", "inequality")
    words: ClassVar[str] = "break the inequality (the first is not larger)"

    def ok(self, a: int, b: int) -> bool:
        return a > b

    technique: ClassVar[str] = "Inequality"
    technique_score: ClassVar[int] = 20
    technique_level: ClassVar[str] = "Easy"
    technique_summary: ClassVar[str] = (
        "the larger cell of an inequality sign is above some value of the smaller: bounds "
        "both ways")
    joins: ClassVar[str] = "a larger value and a smaller one, in that order"
    mark: ClassVar[str] = "inequality sign"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        (r1, c1), (r2, c2) = self.cells
        sign = {(0, 1): ">", (0, -1): "<", (1, 0): "v", (-1, 0): "^"}[(r2 - r1, c2 - c1)]
        return [Shape(ShapeKind.MARK, tuple(geometry.index(c) for c in self.cells), sign)]


KINDS = (KropkiWhite, KropkiBlack, XV, KropkiNegative, XVNegative, GreaterThan)
