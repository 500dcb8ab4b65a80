"""House sums a search may add: innies and outies as sums of their own.

Every full unit of an N-grid (a row, column, box, region or full diagonal) holds 1..N once, so
its cells add up to N(N+1)/2, and two disjoint units side by side to twice that. Taking from
such a house the sums of known total that lie in it (killer cages, little killers) leaves an
equation on the cells they do not cover (innies); taking also the sums that mostly lie in it
subtracts the cells they put outside (outies). These equations follow from the problem, so
they remove no solution; the native search filters them to prune sooner, and reasoning never
sees them (what logic explains comes from the problem's own constraints).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .ir import Linear, Problem

MAX_TERMS = 8       # an implied sum of more open cells prunes too little for its filtering
                    # (boxes: 143 ms with 12, 81 ms with 8, at the same nodes)


def house_sums(problem: Problem, units: Sequence[Sequence[int]],
               sums: Sequence[Linear] | None = None) -> list[Linear]:
    """Return the innie and outie sums of the houses (`units`: full units over cells, each
    holding every value once) and of pairs of disjoint houses side by side, built from the
    problem's sums of known total (`sums`, its Linear constraints, when the caller has them
    at hand); none when the problem has no such sum."""
    size, ncells = problem.size, problem.ncells
    known = _known_sums(problem, problem.constraints if sums is None else sums)
    houses = [frozenset(u) for u in units if len(u) == size and all(v < ncells for v in u)]
    if not known or not houses:
        return []
    out: dict[tuple, Linear] = {}
    for region, value in _regions(tuple(houses), size):
        # outies are left out: their -1 terms cost more to filter than they prune (hailstone
        # little killer 2.6 s -> 7.1 s, same nodes)
        for outies in (False,):
            eq = _equation(region, value, known, outies)
            if eq is not None:
                out.setdefault((eq.vars, eq.coefs, eq.rhs), eq)
    return list(out.values())


@lru_cache(maxsize=16)
def _regions(houses: tuple[frozenset[int], ...], size: int
             ) -> tuple[tuple[frozenset[int], int], ...]:
    """Return the houses and the pairs of disjoint houses side by side, each with its total
    (remembered per list of houses: every 9x9 with boxes has the same 81 such regions)."""
    total = size * (size + 1) // 2
    regions: dict[frozenset[int], int] = {h: total for h in houses}
    for i, a in enumerate(houses):
        for b in houses[i + 1:]:
            if not a & b and _touch(a, b, size):
                regions.setdefault(a | b, 2 * total)
    return tuple(regions.items())


def _known_sums(problem: Problem, constraints: Sequence) -> list[tuple[frozenset[int], int]]:
    """Return the problem's sums of cells each counted once with coefficient 1 and a known
    total (cells, total), read from its constraints."""
    out = []
    for c in constraints:
        if (isinstance(c, Linear) and c.op == "==" and c.vars and all(k == 1 for k in c.coefs)
                and len(set(c.vars)) == len(c.vars) and all(v < problem.ncells for v in c.vars)):
            out.append((frozenset(c.vars), c.rhs))
    return out


def _touch(a: frozenset[int], b: frozenset[int], size: int) -> bool:
    """Return whether some cell of `a` is next to (a side shared) some cell of `b`."""
    for v in a:
        r, c = divmod(v, size)
        if ((c + 1 < size and v + 1 in b) or (c > 0 and v - 1 in b)
                or v + size in b or v - size in b):
            return True
    return False


def _equation(region: frozenset[int], value: int, known: list[tuple[frozenset[int], int]],
              outies: bool) -> Linear | None:
    """Return the sum on the cells of `region` that the known sums inside it leave open, less
    (with `outies`) the cells outside it of the known sums mostly inside it; None when no
    known sum takes part, or the result has no term or too many."""
    used: set[int] = set()
    plus, minus, rhs, parts = set(region), set[int](), value, 0
    inside = [(cells, t) for cells, t in known if cells <= region]
    rest = sorted(((cells, t) for cells, t in known if outies and not cells <= region
                   and 2 * len(cells - region) <= len(cells & region)),
                  key=lambda ct: len(ct[0] - region))
    for cells, t in inside + rest:
        if cells & used:
            continue
        used |= cells
        plus -= cells
        minus |= cells - region
        rhs -= t
        parts += 1
    if not parts or (outies and not minus):
        return None
    terms = sorted(plus) + sorted(minus)
    if not terms or len(terms) > MAX_TERMS:
        return None
    return Linear(tuple(terms), (1,) * len(plus) + (-1,) * len(minus), rhs, label="house sum")
