"""Building a problem from a puzzle: the geometry's units, then each rule's own lowering.

A rule kind lowers itself (`Rule.lower`) through the `Builder` here, which offers the
vocabulary of the IR (all-different groups, pair relations, tables, sums) and auxiliary
variables. Engines never change when a kind is added. Labels are made here from the kind, its
number or total and its cells (what a solver reads on the grid: "little killer 36 from r5c9"),
never from puzzle text, since encoders write them into artifacts and steps into terminals.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from types import CodeType
from typing import Callable, Iterable, Sequence

from ..gcpause import gc_paused
from ..model import Puzzle, Rule, cell_name
from ..model.geometry import Geometry
from .ir import (NO_ORIGIN, AbsDiffNot, AllDifferent, Constraint, Linear, Nogood, Origin, Problem,
                 Table, nogoods)


_NOT_NAME = re.compile(r"[^0-9A-Za-z]")
# what a rule's label may hold: kind names, numbers, cell names and plain punctuation
_PLAIN = re.compile(r"[0-9a-z .,()/-]+")
# the signs a kind's words may use, in plain words
_SIGNS = {"≥": "at least ", "≤": "at most ", "≠": "not "}


def rule_words(rule: Rule, geometry: Geometry) -> str:
    """Return what a solver calls a rule: a global rule its kind; any other its kind, its
    number or total and its place as `Rule.describe` words them ("little killer 36 from
    r5c9", "cage (15) at r1c1..r1c3"), or its kind and first cell when those words hold
    anything but kind names, numbers, cell names and plain punctuation."""
    if rule.is_global:
        return rule.kind
    words = rule.describe(geometry)
    for sign, plain in _SIGNS.items():
        words = words.replace(sign, plain)
    if _PLAIN.fullmatch(words):
        return words
    cells = rule.footprint()
    return f"{rule.kind} at {cell_name(cells[0])}" if cells else rule.kind


def numbered(words: str, seen: dict[str, int]) -> str:
    """Return a rule's label from its words and the words of the rules before it (`seen`,
    updated): the words, the second rule worded alike "#2" after them, and so on."""
    n = seen[words] = seen.get(words, 0) + 1
    return words if n == 1 else f"{words} #{n}"


def identifier(text: str) -> str:
    """Return text as a name every model language takes: letters, digits and underscores."""
    out = _NOT_NAME.sub("_", text)
    return out if out[:1].isalpha() else f"a_{out}"


class Builder:
    """Collects a puzzle's constraints and auxiliary variables while rules lower themselves."""

    def __init__(self, geometry: Geometry):
        self.geometry = geometry
        self.size = geometry.size
        self.nvalues = geometry.nvalues     # a cell's values 1..V (V = N but on a wider grid)
        self.ncells = geometry.ncells
        self.constraints: list[Constraint] = []
        self.aux: list[int] = []
        self.aux_names: list[str] = []
        self.label = ""
        self.origin = NO_ORIGIN
        self.rules: tuple[Rule, ...] = ()
        self._counts: dict[str, int] = {}
        self._words: dict[str, int] = {}    # rules worded alike so far, by their words
        self._key = ""                      # the rule's kind and ordinal, for auxiliary names
        # per relation (as `relation` takes it) and domain sizes: the value pairs it refuses
        self._refusals: dict[tuple, tuple[tuple[int, int], ...]] = {}
        # what the rules of one puzzle build once and share, by name (the chaos regions)
        self.shared: dict[str, object] = {}
        # set by a rule whose auxiliaries the cells do not fix (`Problem.free_aux`)
        self.free_aux = False

    def start(self, rule: Rule) -> None:
        """Begin the constraints of one rule: its label is its words (`rule_words`), the
        second rule worded alike numbered "#2" so that a label names one rule."""
        k = self._counts[rule.kind] = self._counts.get(rule.kind, 0) + 1
        self._key = rule.kind if rule.is_global else f"{rule.kind} {k}"
        self.label = numbered(rule_words(rule, self.geometry), self._words)
        self.origin = Origin(rule.kind, 0 if rule.is_global else k)

    def unit(self, vars_: Sequence[int], kind: str, number: int) -> None:
        """Say a classic unit (row, column, box or region `number`, 1-based) holds different values."""
        self.add(AllDifferent(tuple(vars_), f"{kind} {number}", Origin(kind, number, unit=True)))

    def domain(self, var: int) -> range:
        """Return the values of a variable (1..V for a cell, 1..D for an auxiliary)."""
        k = var - self.ncells
        return range(1, (self.nvalues if k < 0 else self.aux[k]) + 1)

    def new_var(self, domain_size: int, what: str) -> int:
        """Return a new auxiliary variable with values 1..domain_size.

        The rule's constraints must fix every auxiliary once the cells are filled (a position,
        a flag, a running maximum), so that one grid is one solution and counts stay true.
        """
        if domain_size < 1:
            raise ValueError("an auxiliary variable needs at least one value")
        self.aux.append(domain_size)
        self.aux_names.append(identifier(f"{self._key or 'aux'} {what}"))
        return self.ncells + len(self.aux) - 1

    def var(self, cell: tuple[int, int]) -> int:
        """Return the variable of a 0-based (row, col) cell."""
        return self.geometry.index(cell)

    def vars(self, cells) -> list[int]:
        """Return the variables of cells, in order."""
        return list(map(self.geometry.index, cells))

    def add(self, constraint: Constraint) -> None:
        """Add one constraint."""
        self.constraints.append(constraint)

    def all_different(self, vars_: Sequence[int], label: str | None = None, part: str = "") -> None:
        """Say the variables take different values (`part` names the part of the rule they
        are, as a diagonal rule's "main" and "anti"; `label` what a person calls it)."""
        if len(vars_) > 1:
            self.add(AllDifferent(tuple(vars_), self.label if label is None else label,
                                  replace(self.origin, part=part) if part else self.origin))

    def relation(self, x: int, y: int, ok: Callable[[int, int], bool]) -> None:
        """Say (x, y) takes only value pairs `ok` accepts: one nogood per refused pair."""
        self.refuse(x, y, self._refused(ok, self._dsize(x), self._dsize(y)))

    def refuse(self, x: int, y: int, pairs: Iterable[tuple[int, int]]) -> None:
        """Say (x, y) takes none of the value `pairs`: one nogood per pair (a relation whose
        refused pairs a rule already knows)."""
        self.constraints.extend(nogoods(x, y, pairs, self.label, self.origin))

    def _dsize(self, var: int) -> int:
        """Return how many values a variable takes."""
        k = var - self.ncells
        return self.nvalues if k < 0 else self.aux[k]

    def _refused(self, ok: Callable[[int, int], bool], dx: int, dy: int
                 ) -> tuple[tuple[int, int], ...]:
        """Return the value pairs (1..dx, 1..dy) `ok` refuses, asked once per relation (a rule
        that puts one relation on every pair of neighbours, as the negative dots do, asks it
        for 144 pairs of cells)."""
        key = (_relation_key(ok), dx, dy)
        try:
            hit = self._refusals.get(key)
            keep = True
        except TypeError:                     # a relation that cannot be a key: asked anew
            hit, keep = None, False
        if hit is None:
            hit = tuple((a, b) for a in range(1, dx + 1) for b in range(1, dy + 1)
                        if not ok(a, b))
            if keep:
                self._refusals[key] = hit
        return hit

    def nogood(self, x: int, a: int, y: int, b: int) -> None:
        """Say x = a and y = b do not both hold."""
        self.add(Nogood(x, a, y, b, self.label, self.origin))

    def unary(self, x: int, ok: Callable[[int], bool]) -> None:
        """Say x takes only values `ok` accepts (a one-variable table)."""
        allowed = tuple((a,) for a in self.domain(x) if ok(a))
        self.add(Table((x,), allowed, self.label, self.origin))

    def table(self, vars_: Sequence[int], tuples: Iterable[Sequence[int]]) -> None:
        """Say the variables take one of the allowed tuples."""
        self.add(Table(tuple(vars_), tuple(map(tuple, tuples)), self.label, self.origin))

    def linear(self, vars_: Sequence[int], coefs: Sequence[int], rhs: int, op: str = "==") -> None:
        """Say sum(coef * var) op rhs."""
        self.add(Linear(tuple(vars_), tuple(coefs), rhs, op, self.label, self.origin))

    def any_of(self, options) -> None:
        """Say at least one option (a list of rules that all hold) holds: one table of the
        fillings some option allows (`choice.py`; BadInput past its bounds)."""
        from .choice import lower_choice
        lower_choice(self, options)

    def abs_diff_not(self, x: int, y: int, d: int) -> None:
        """Say |x - y| != d."""
        self.add(AbsDiffNot(x, y, d, self.label, self.origin))


def _relation_key(ok: Callable[[int, int], bool]) -> object:
    """Return what a relation's answers depend on: a function's code with the values it
    closes over and its defaults (the bound object too, for a method), so the lambdas a rule
    makes anew for each pair of cells (`lambda a, c, d=d: ...`) are asked once per distinct
    set of values; any other callable stands for itself."""
    code = getattr(ok, "__code__", None)
    if not isinstance(code, CodeType):
        return ok
    closure = getattr(ok, "__closure__", None) or ()
    kwdefaults = getattr(ok, "__kwdefaults__", None) or {}
    try:
        held = tuple(c.cell_contents for c in closure)
    except ValueError:                  # a name it closes over is not bound yet
        return ok
    return (code, getattr(ok, "__self__", None), getattr(ok, "__defaults__", None),
            tuple(kwdefaults.items()), held)


@lru_cache(maxsize=64)
def _lowered(geometry: Geometry, rules: tuple[Rule, ...]
             ) -> tuple[tuple[Constraint, ...], tuple[int, ...], tuple[str, ...], bool]:
    """Return the constraints, auxiliary domain sizes and auxiliary names of a geometry and
    rules, and whether some auxiliaries are free of the cells."""
    b = Builder(geometry)
    b.rules = rules
    with gc_paused():                   # thousands of nogoods, no cycle among them
        for k, unit in enumerate(geometry.units):
            b.unit(unit, *geometry.unit_of(k))
        for rule in rules:
            b.start(rule)
            rule.lower(b)
    return tuple(b.constraints), tuple(b.aux), tuple(b.aux_names), b.free_aux


@lru_cache(maxsize=64)
def _names(geometry: Geometry, aux_names: tuple[str, ...] = ()) -> tuple[str, ...]:
    return tuple(cell_name(geometry.cell(i)) for i in range(geometry.ncells)) + aux_names


def compile_rule(rule: Rule, geometry: Geometry) -> list[Constraint]:
    """Return the constraints one rule stands for on a grid (its auxiliaries numbered from N²)."""
    b = Builder(geometry)
    b.start(rule)
    rule.lower(b)
    return b.constraints


def build_problem(puzzle: Puzzle) -> Problem:
    """Return the problem of a puzzle; puzzles of one geometry and rules share one constraint tuple."""
    g = puzzle.geometry
    givens = tuple((i, v) for i, v in enumerate(puzzle.givens) if v)
    constraints, aux, aux_names, free = _lowered(g, puzzle.rules)
    return Problem(g.nvalues, g.ncells + len(aux), constraints, givens, _names(g, aux_names),
                   puzzle, aux, free)
