"""Regex lines (ISS `Regex`): the values along the line, read in order as a string of
characters (0-9, then a-z for 10-35), match a regular expression as a whole. The pattern is
compiled to an automaton (rules/regex_syntax.py) and lowered through its deterministic
unfolding along the line (rules/automaton.py), which the nfa kind shares."""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Callable, ClassVar, Iterator
from urllib.parse import unquote

from ...errors import BadInput
from ...model.geometry import Cell, Geometry
from ...model.rules import Shape
from .. import params
from ..automaton import Automaton, Unfolded, lower_line, unfold
from ..base import CellsRule, where
from ..lines import random_line
from ..regex_syntax import char_of, compile_regex


Compiler = Callable[[str, int, int], tuple[Automaton, int]]


@lru_cache(maxsize=128)
def _compiled(compile_: Compiler, source: str, low: int, nvalues: int) -> tuple[Automaton, int]:
    return compile_(source, low, nvalues)


@lru_cache(maxsize=128)
def _unfolded(compile_: Compiler, source: str, low: int, nvalues: int, length: int) -> Unfolded:
    aut, _ = _compiled(compile_, source, low, nvalues)
    return unfold(aut, length, nvalues)


@dataclass(frozen=True)
class AutomatonLine(CellsRule):
    """A line whose values, read in order, an automaton accepts (the automaton's `source`)."""

    source: str

    field: ClassVar[str] = ""          # the JSON field of the source
    along_path: ClassVar[bool] = True
    any_values: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    any_shape: ClassVar[bool] = True

    @classmethod
    def compile(cls, source: str, low: int, nvalues: int) -> tuple[Automaton, int]:
        """Return the automaton of a source on a grid of values low.. (nvalues of them)."""
        raise NotImplementedError

    def unfolded(self, g: Geometry) -> Unfolded:
        """Return the automaton unfolded along this line on a grid."""
        return _unfolded(type(self).compile, self.source, g.low, g.nvalues, len(self.cells))

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "AutomatonLine":
        cells = params.cell_list(data, "cells", geometry, distinct=False)
        source = data.get(cls.field)
        if not isinstance(source, str) or not source:
            raise BadInput(f"field \"{cls.field}\" must be a non-empty string")
        rule = cls(cells, source)
        try:
            rule.unfolded(geometry)
        except BadInput as err:
            raise BadInput(f"field \"{cls.field}\": {err.reason}") from None
        return rule

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, self.field: self.source, "cells": params.names(self.cells)}

    @classmethod
    def from_path(cls, cells: list[str], extra: dict[str, Any]) -> list[dict[str, Any]]:
        """The line reads a cell it passes twice twice."""
        return [{"kind": cls.kind, "cells": cells, **extra}]

    def lower(self, b) -> None:
        lower_line(b, self.cells, self.unfolded(b.geometry), self.kind)

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = self.complete(grid, geometry)
        if vals is None:
            return
        aut, _ = _compiled(type(self).compile, self.source, geometry.low, geometry.nvalues)
        if not aut.accepts_word(vals):
            read = "".join(char_of(geometry.real(v)) if 0 <= geometry.real(v) < 36 else "?"
                           for v in vals)
            yield f"the {self.kind} line {where(self.cells)} reads {read}, {self.refused_words()}"

    def refused_words(self) -> str:
        """Return what a reading the automaton refuses fails at, for `violations`."""
        return "which its automaton refuses"

    @classmethod
    def iss_groups(cls, args: list[str], cell: Callable[[str], str]) -> list[list[str]]:
        """Return the lines of an ISS item's cells: groups apart by an empty item, a name
        (`_Sandwich`) opening a group; a segment break ("-") is refused."""
        groups: list[list[str]] = [[]]
        for a in args:
            if a == "-":
                raise BadInput("a line of several segments ('-') is not read")
            if not a or a.startswith("_"):
                groups.append([])
            else:
                groups[-1].append(cell(a))
        return [g for g in groups if g]


@dataclass(frozen=True)
class Regex(AutomatonLine):
    """The line's values, read as characters, match `pattern` as a whole."""

    kind: ClassVar[str] = "regex"
    iss: ClassVar[str] = "Regex"
    description: ClassVar[str] = ("the values along the line, read in order, match a regular "
                                  "expression")
    aliases: ClassVar[tuple[str, ...]] = ("regex-line",)
    field: ClassVar[str] = "pattern"
    line_style: ClassVar[str] = "regex"
    drawn_colour: ClassVar[str] = "#7f7f3f"

    @classmethod
    def compile(cls, source: str, low: int, nvalues: int) -> tuple[Automaton, int]:
        return compile_regex(source, low, nvalues), nvalues

    def refused_words(self) -> str:
        return f"which does not match {''.join(self.source.split())}"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        """The line, labelled with its pattern (which says what the line means)."""
        return [replace(sh, text="".join(self.source.split())) for sh in super().shapes(geometry)]

    @classmethod
    def sample(cls, rng, size: int) -> dict[str, Any]:
        line = random_line(rng, size, rng.randint(1, min(size, 5)))
        return {"kind": cls.kind, "pattern": random_pattern(rng, size), "cells": line}

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell) -> list[dict[str, Any]]:
        """`Regex~<pattern, base64url>~cells~~cells`: one line per group of cells."""
        if not args:
            raise BadInput("a regex needs its pattern")
        pattern = _decode(args[0])
        return [{"kind": cls.kind, "pattern": pattern, "cells": g}
                for g in cls.iss_groups(args[1:], cell)]

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        coded = base64.urlsafe_b64encode("".join(self.source.split()).encode()).decode()
        return [coded.rstrip("="), *(cell(c) for c in self.cells)]


def _decode(token: str) -> str:
    """Return an ISS pattern: URL-safe base64, or (as ISS once wrote it) %-escaped text."""
    try:
        if "%" in token or "." in token:
            return unquote(token, errors="strict")
        padded = token.rstrip("=") + "=" * (-len(token.rstrip("=")) % 4)
        return base64.b64decode(padded, altchars=b"-_", validate=True).decode("ascii")
    except (binascii.Error, ValueError):
        raise BadInput("the pattern is neither base64 nor %-escaped text") from None


def random_pattern(rng, size: int, depth: int = 2) -> str:
    """Return a random pattern over the values 1..size (varied, and often matched)."""
    def atom() -> str:
        pick = rng.random()
        if pick < 0.4:
            return str(rng.randint(1, size))
        if pick < 0.55:
            return "."
        if pick < 0.8:
            a = rng.randint(1, size)
            b = rng.randint(a, size)
            return f"[{'^' if rng.random() < 0.3 else ''}{a}-{b}]"
        if depth == 0:
            return str(rng.randint(1, size))
        inner = "|".join(random_pattern(rng, size, depth - 1) for _ in range(rng.randint(1, 3)))
        return f"({inner})"

    parts = []
    for _ in range(rng.randint(1, 3)):
        q = rng.choice(["", "", "*", "+", "?", "{1,2}", "{2}", "{0,}"])
        parts.append(atom() + q)
    return "".join(parts)


KINDS = (Regex,)
