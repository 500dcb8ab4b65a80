"""Lowering: rewrite constraints into the kinds an engine understands.

AllDifferent -> pairwise nogoods; |x-y| != d -> nogoods. Tables stay (every engine takes
them). Nogoods are normalised (x, a) < (y, b) and deduplicated, the first label kept. Lowering keeps the solution set (checked by brute force in the tests).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from .ir import AbsDiffNot, AllDifferent, Constraint, Nogood, Problem, Table


def _lower_one(c: Constraint, size: int, keep: frozenset[type]) -> Iterable[Constraint]:
    if type(c) in keep:
        yield c
    elif isinstance(c, AllDifferent):
        for k, x in enumerate(c.vars):
            for y in c.vars[k + 1:]:
                for v in range(1, size + 1):
                    yield Nogood(x, v, y, v, c.label)
    elif isinstance(c, AbsDiffNot):
        for a in range(1, size + 1):
            for b in (a - c.d, a + c.d):
                if 1 <= b <= size:
                    yield Nogood(c.x, a, c.y, b, c.label)
    else:
        raise ValueError(f"cannot lower {type(c).__name__} to {sorted(k.__name__ for k in keep)}")


def lower(problem: Problem, kinds: Iterable[type]) -> Problem:
    """Return the problem with every constraint rewritten into `kinds` (Nogood and Table always allowed)."""
    keep = frozenset(kinds) | {Nogood, Table}
    out: list[Constraint] = []
    seen: set[tuple[int, int, int, int]] = set()
    done_pairs: set[tuple[int, int]] = set()   # AllDifferent pairs already lowered in full
    for c in problem.constraints:
        if isinstance(c, AllDifferent) and AllDifferent not in keep:
            _lower_all_different(c, problem.size, out, seen, done_pairs)
            continue
        for d in _lower_one(c, problem.size, keep):
            if isinstance(d, Nogood):
                d = _add_nogood(d, seen)
                if d is None:
                    continue
            out.append(d)
    return replace(problem, constraints=tuple(out))


def _add_nogood(d: Nogood, seen: set) -> Nogood | None:
    """Return the normalised nogood, or None when an equal one was already emitted."""
    if (d.x, d.a) > (d.y, d.b):
        d = Nogood(d.y, d.b, d.x, d.a, d.label)
    key = (d.x, d.a, d.y, d.b)
    if key in seen:
        return None
    seen.add(key)
    return d


def _lower_all_different(c: AllDifferent, size: int, out: list, seen: set, done_pairs: set) -> None:
    """Append the pairwise nogoods of an AllDifferent, skipping pairs a unit before it covered.

    Same output as lowering value by value; a pair already lowered in full by an earlier
    AllDifferent has every one of its nogoods in `seen`, so it is skipped whole (the fast path
    that makes 25x25 grids cheap).
    """
    values = range(1, size + 1)
    for k, x in enumerate(c.vars):
        for y in c.vars[k + 1:]:
            pair = (x, y) if x < y else (y, x)
            if pair in done_pairs:
                continue
            done_pairs.add(pair)
            for v in values:
                d = _add_nogood(Nogood(x, v, y, v, c.label), seen)
                if d is not None:
                    out.append(d)
