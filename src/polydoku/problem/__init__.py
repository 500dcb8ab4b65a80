"""Problem layer: the finite-domain constraint problem (CSP IR) that every engine solves."""

from .build import build_problem
from .ir import (AbsDiffNot, AllDifferent, Constraint, Linear, Nogood, Origin, Problem, Table,
                 variables)
from .lower import domains, lower, nogood_partners

__all__ = ["AbsDiffNot", "AllDifferent", "Constraint", "Linear", "Nogood", "Origin", "Problem", "Table",
           "build_problem", "domains", "lower", "nogood_partners", "variables"]
