"""Building a problem from a puzzle: geometry and rules become constraints.

Each rule kind has one compiler here. A new rule adds a compiler; engines never change.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

from ..model import Puzzle, Rule, cell_name
from ..model.geometry import Geometry
from ..model.rules import Diagonal, DistinctPairsRule, NonConsecutive
from .ir import AbsDiffNot, AllDifferent, Constraint, Problem


def _distinct_pairs(rule: DistinctPairsRule, g: Geometry) -> list[Constraint]:
    return [AllDifferent((a, b), rule.name) for a, b in rule.pairs(g)]


def _non_consecutive(rule: NonConsecutive, g: Geometry) -> list[Constraint]:
    return [AbsDiffNot(a, b, 1, rule.name) for a, b in rule.pairs(g)]


def _diagonal(rule: Diagonal, g: Geometry) -> list[Constraint]:
    main, anti = rule.units(g)
    return [AllDifferent(main, "main diagonal"), AllDifferent(anti, "anti diagonal")]


COMPILERS: dict[type, Callable[..., list[Constraint]]] = {
    DistinctPairsRule: _distinct_pairs,
    NonConsecutive: _non_consecutive,
    Diagonal: _diagonal,
}


def compile_rule(rule: Rule, geometry: Geometry) -> list[Constraint]:
    """Return the constraints a rule stands for (by its class or nearest base class)."""
    for cls in type(rule).__mro__:
        if cls in COMPILERS:
            return COMPILERS[cls](rule, geometry)
    raise TypeError(f"no compiler for rule {rule.name!r}")


@lru_cache(maxsize=64)
def _constraints(geometry: Geometry, rules: tuple[Rule, ...]) -> tuple[Constraint, ...]:
    out: list[Constraint] = [AllDifferent(unit, geometry.unit_name(k))
                             for k, unit in enumerate(geometry.units)]
    for rule in rules:
        out += compile_rule(rule, geometry)
    return tuple(out)


@lru_cache(maxsize=64)
def _names(size: int) -> tuple[str, ...]:
    return tuple(cell_name(divmod(i, size)) for i in range(size * size))


def build_problem(puzzle: Puzzle) -> Problem:
    """Return the problem of a puzzle; puzzles of one geometry and rules share one constraint tuple."""
    g = puzzle.geometry
    givens = tuple((i, v) for i, v in enumerate(puzzle.givens) if v)
    return Problem(g.size, g.ncells, _constraints(g, puzzle.rules), givens, _names(g.size), puzzle)
