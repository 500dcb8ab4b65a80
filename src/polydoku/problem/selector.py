"""An or too wide for one table of its fillings: an auxiliary names an option that holds.

`choice.py` lowers an or as one table of the fillings of the cells its options read; over
many cells (two whole lines, each an option's hidden skyscraper) those are too many to list.
Here each option's constraints are kept, one table each with the selector as a column: the
option's own rows where it is chosen, and where another is, any values of the cells with
the option's auxiliaries at 1; a sum too wide to list gets a slack the selector sets. A constraint among cells of one house that only says they
differ is left out (the house says it always). A grid some options keep has a solution per
option chosen, so the problem counts grids (`Problem.free_aux`).
"""

from __future__ import annotations

from itertools import product
from math import prod
from typing import Sequence

from ..errors import BadInput
from .ir import AbsDiffNot, AllDifferent, Constraint, Linear, Nogood, Table, variables

MOST_ROWS = 20_000          # rows of one option's constraint with the selector
SUM_ROWS = MOST_ROWS        # a sum of more fillings than these gets a slack instead


def _holds(c: Constraint, at: dict[int, int]) -> bool:
    """Return whether a constraint holds for values of all its variables."""
    if isinstance(c, AllDifferent):
        return len({at[v] for v in c.vars}) == len(set(c.vars))
    if isinstance(c, Nogood):
        return not (at[c.x] == c.a and at[c.y] == c.b)
    if isinstance(c, AbsDiffNot):
        return abs(at[c.x] - at[c.y]) != c.d
    if isinstance(c, Linear):
        return c.holds([at[v] for v in c.vars])
    raise TypeError(f"no rows for a {type(c).__name__}")


def _rows(c: Constraint, vs: tuple[int, ...], sizes: dict[int, int]) -> set[tuple[int, ...]]:
    """Return the values of the distinct variables `vs` the constraint allows."""
    if isinstance(c, Table):
        at = [vs.index(v) for v in c.vars]
        out = set()
        for row in c.tuples:
            vals = [0] * len(vs)
            for k, a in zip(at, row):
                if vals[k] not in (0, a):
                    break
                vals[k] = a
            else:
                out.add(tuple(vals))
        return out
    if prod(sizes[v] for v in vs) > MOST_ROWS:
        raise BadInput(f"an or's option holds a constraint over {len(vs)} variables, too "
                       f"many to list as rows")
    return {vals for vals in product(*(range(1, sizes[v] + 1) for v in vs))
            if _holds(c, dict(zip(vs, vals)))}


def _slack(c: Linear, sizes: dict[int, int]) -> tuple[int, int, int, int]:
    """Return a slack variable for a sum of an option too wide to list: its size, its
    value where the option is chosen (the sum is then c's own), its coefficient and the
    new right-hand side. Where another option is chosen, the slack's other value (any for
    an equation: it takes up the difference) lets the other variables take any values."""
    ends = [sorted((k, k * sizes[v])) for k, v in zip(c.coefs, c.vars)]
    lo, hi = sum(e[0] for e in ends), sum(e[1] for e in ends)
    if c.op == "==":            # sum + slack = rhs + own
        own = max(1, hi - c.rhs + 1)
        return max(own, c.rhs + own - lo), own, 1, c.rhs + own
    if c.op == "<=":            # sum - m * (slack - 1) <= rhs, slack 1 chosen, 2 not
        m = max(0, hi - c.rhs)
        return 2, 1, -m, c.rhs - m
    m = max(0, c.rhs - lo)      # sum + m * (slack - 1) >= rhs
    return 2, 1, m, c.rhs + m


def lower_selected(b, lowered: Sequence[tuple[list[Constraint], list[int]]]) -> None:
    """Lower "at least one option holds" into builder `b` with a selector: `lowered` holds
    each option's constraints and auxiliary domain sizes as `choice.option_constraints`
    makes them (auxiliaries numbered from the grid's cells on). BadInput when an option's
    constraint is too wide to list, before anything is added to `b`."""
    g = b.geometry
    n, nv = g.ncells, g.nvalues
    units = [frozenset(u) for u in g.units]
    tables: list[tuple[int, tuple[int, ...], list[tuple[int, ...]]]] = []
    sums: list[tuple[int, Linear, tuple[int, int, int, int]]] = []
    for k, (constraints, aux) in enumerate(lowered, start=1):
        sizes = {n + j: size for j, size in enumerate(aux)}
        for c in constraints:
            vs = tuple(dict.fromkeys(variables(c)))
            if isinstance(c, AllDifferent) and all(v < n for v in vs) and \
                    any(u.issuperset(vs) for u in units):
                continue
            sizes.update({v: nv for v in vs if v < n})
            if isinstance(c, Linear) and prod(sizes[v] for v in vs) > SUM_ROWS:
                sums.append((k, c, _slack(c, sizes)))
                continue
            rows = [(k, *r) for r in sorted(_rows(c, vs, sizes))]
            free = list(product(*((range(1, nv + 1) if v < n else (1,)) for v in vs)))
            if len(rows) + (len(lowered) - 1) * len(free) > MOST_ROWS:
                raise BadInput(f"an or's option holds a constraint over {len(vs)} variables, "
                               f"too many to list as rows")
            rows += [(j, *r) for j in range(1, len(lowered) + 1) if j != k for r in free]
            tables.append((k, vs, rows))
    chosen = b.new_var(len(lowered), "option")
    mine = [{n + j: b.new_var(size, f"option {k} aux {j + 1}") for j, size in enumerate(aux)}
            for k, (_, aux) in enumerate(lowered, start=1)]
    for k, vs, rows in tables:
        b.table((chosen, *(mine[k - 1].get(v, v) for v in vs)), rows)
    for k, c, (size, own, coef, rhs) in sums:
        slack = b.new_var(size, f"option {k} slack")
        b.table((chosen, slack), [(j, a) for j in range(1, len(lowered) + 1)
                                  for a in range(1, size + 1)
                                  if (a == own if j == k else a != own or c.op == "==")])
        b.linear((*(mine[k - 1].get(v, v) for v in c.vars), slack), (*c.coefs, coef), rhs,
                 c.op)
    b.free_aux = True           # a grid two options keep is one solution per option chosen
