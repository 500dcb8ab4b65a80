"""The CSP IR: variables with finite domains 1..N, constraints of a few kinds, givens apart.

Givens are kept apart from the domains so that engines can treat them as assumptions
(SAT selectors, pinned requirements) and `explain` can remove them one by one.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..model import Puzzle


@dataclass(frozen=True)
class Origin:
    """Where a constraint comes from, for the engines and readers that treat some apart.

    A classic unit (`unit` True): `kind` is row, column, box or region and `number` its
    1-based number. A rule: its kind and its ordinal among the puzzle's rules of that kind (0
    for a global rule), and `part` for a rule made of named parts (a diagonal's "main" or
    "anti"). The empty origin belongs to constraints made apart from any puzzle.
    """

    kind: str = ""
    number: int = 0
    unit: bool = False
    part: str = ""


NO_ORIGIN = Origin()


@dataclass(frozen=True)
class AllDifferent:
    """The variables all take different values."""

    vars: tuple[int, ...]
    label: str = ""
    origin: Origin = field(default=NO_ORIGIN, compare=False)


@dataclass(frozen=True)
class Nogood:
    """x=a and y=b do not both hold."""

    x: int
    a: int
    y: int
    b: int
    label: str = ""
    origin: Origin = field(default=NO_ORIGIN, compare=False)


def nogoods(x: int, y: int, pairs, label: str = "", origin: Origin = NO_ORIGIN
            ) -> list[Nogood]:
    """Return Nogood(x, a, y, b, label, origin) for each (a, b) of `pairs`, made without the
    dataclass's __init__: a frozen one sets each field through object.__setattr__, which
    costs three times as much for the thousands of nogoods a relation on every pair of
    neighbours makes (a puzzle's whole build, for the smaller ones)."""
    new = object.__new__
    out = []
    for a, b in pairs:
        n = new(Nogood)
        d = n.__dict__
        d["x"] = x
        d["a"] = a
        d["y"] = y
        d["b"] = b
        d["label"] = label
        d["origin"] = origin
        out.append(n)
    return out


@dataclass(frozen=True)
class Table:
    """The variables take one of the allowed tuples."""

    vars: tuple[int, ...]
    tuples: tuple[tuple[int, ...], ...]
    label: str = ""
    origin: Origin = field(default=NO_ORIGIN, compare=False)


@dataclass(frozen=True)
class AbsDiffNot:
    """|x - y| != d."""

    x: int
    y: int
    d: int = 1
    label: str = ""
    origin: Origin = field(default=NO_ORIGIN, compare=False)


@dataclass(frozen=True)
class Linear:
    """sum(coef * var) `op` rhs, with op one of "==", "<=", ">=".

    Over cell variables the values are the digits; engines without arithmetic get it lowered
    to tables over auxiliary partial-sum variables (`lower`).
    """

    vars: tuple[int, ...]
    coefs: tuple[int, ...]
    rhs: int
    op: str = "=="
    label: str = ""
    origin: Origin = field(default=NO_ORIGIN, compare=False)

    def holds(self, values) -> bool:
        """Return whether the constraint holds for the variables' values (in `vars` order)."""
        total = sum(c * v for c, v in zip(self.coefs, values))
        return (total == self.rhs if self.op == "==" else
                total <= self.rhs if self.op == "<=" else total >= self.rhs)


Constraint = AllDifferent | Nogood | Table | AbsDiffNot | Linear


def variables(c: Constraint) -> tuple[int, ...]:
    """Return the variables a constraint reads."""
    return (c.x, c.y) if isinstance(c, (Nogood, AbsDiffNot)) else tuple(c.vars)


@dataclass(frozen=True)
class Problem:
    """Variables 0..n-1, constraints and givens.

    The first N² variables (rows x columns) are the cells, each with values 1..size: `size` is
    how many values a cell may hold, the grid's side N but on a grid of more values than a
    house has cells. Auxiliary variables (introduced by rules such as sandwiches, or by
    lowering sums) follow them: auxiliary variable ncells + k takes values 1..aux[k]; what a
    value means is known only to the rule or lowering that made it, which writes its tables
    and nogoods in those terms.
    """

    size: int
    nvars: int
    constraints: tuple[Constraint, ...]
    givens: tuple[tuple[int, int], ...] = ()
    names: tuple[str, ...] = ()
    puzzle: "Puzzle | None" = field(default=None, compare=False)
    aux: tuple[int, ...] = ()
    # True when some auxiliaries are not fixed by the cells (the regions of a chaos
    # construction may be drawn two ways in one grid): engines then count grids, not
    # assignments, and an engine that cannot refuses the puzzle
    free_aux: bool = False

    @property
    def values(self) -> range:
        """Return the values every cell variable may take, 1..size."""
        return range(1, self.size + 1)

    @property
    def side(self) -> int:
        """Return the grid's side N (N² cell variables)."""
        from math import isqrt
        return isqrt(self.ncells)

    def shape_words(self) -> str:
        """Return the grid's rows and columns ("6x8"), from its puzzle when it has one."""
        if self.puzzle is not None:
            return self.puzzle.geometry.shape_words()
        return f"{self.side}x{self.side}"

    @property
    def more_values(self) -> bool:
        """Return whether a cell may hold more values than a house has cells (a house then
        holds different values, not every value)."""
        if self.puzzle is not None:
            return self.puzzle.geometry.more_values
        return self.size * self.size > self.ncells

    @property
    def ncells(self) -> int:
        """Return the number of cell variables, size²."""
        return self.nvars - len(self.aux)

    def domain_size(self, var: int) -> int:
        """Return how many values a variable has (size for a cell, its own for an auxiliary)."""
        k = var - self.ncells
        return self.size if k < 0 else self.aux[k]

    def domain(self, var: int) -> range:
        """Return the values a variable may take, 1..domain_size(var)."""
        return range(1, self.domain_size(var) + 1)

    @property
    def max_domain(self) -> int:
        """Return the largest domain size of any variable (size when there is no auxiliary)."""
        return max((self.size, *self.aux))

    def name(self, var: int) -> str:
        """Return the name of a variable (`r1c6` for a cell)."""
        return self.names[var] if self.names else f"x{var}"

    def cell(self, var: int) -> tuple[int, int]:
        """Return the 0-based (row, col) of a cell variable."""
        return divmod(var, self.size)

    def given_map(self) -> dict[int, int]:
        """Return the givens as {var: value}."""
        return dict(self.givens)

    def with_givens(self, givens: tuple[tuple[int, int], ...] | list[tuple[int, int]]) -> "Problem":
        """Return the same problem with other givens (the constraints are shared, not copied)."""
        return replace(self, givens=tuple(givens))

    def kinds(self) -> set[type]:
        """Return the constraint kinds this problem uses."""
        return {type(c) for c in self.constraints}

    @cached_property
    def difference_pairs(self) -> tuple[tuple[int, int], ...]:
        """Return every pair (a < b) of variables that an AllDifferent keeps apart."""
        out: set[tuple[int, int]] = set()
        for c in self.constraints:
            if isinstance(c, AllDifferent):
                vs = c.vars
                for k, a in enumerate(vs):
                    for b in vs[k + 1:]:
                        out.add((min(a, b), max(a, b)))
        return tuple(sorted(out))

    def grid(self, solution: tuple[int, ...]) -> tuple[int, ...]:
        """Return a solution as a row-major grid (the cell values, auxiliaries dropped)."""
        return tuple(solution[: self.ncells])
