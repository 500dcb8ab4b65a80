"""Lowering: rewrite constraints into the kinds an engine understands.

AllDifferent -> pairwise nogoods; |x-y| != d -> nogoods. Tables stay (every engine takes
them). Nogoods are normalised (x, a) < (y, b) and deduplicated, the first label kept. Lowering keeps the solution set (checked by brute force in the tests).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from .ir import AbsDiffNot, AllDifferent, Constraint, Linear, Nogood, Problem, Table


def _lower_one(c: Constraint, size: int, keep: frozenset[type]) -> Iterable[Constraint]:
    if type(c) in keep:
        yield c
    elif isinstance(c, AllDifferent):
        for k, x in enumerate(c.vars):
            for y in c.vars[k + 1:]:
                for v in range(1, size + 1):
                    yield Nogood(x, v, y, v, c.label, c.origin)
    elif isinstance(c, AbsDiffNot):
        for a in range(1, size + 1):
            for b in (a - c.d, a + c.d):
                if 1 <= b <= size:
                    yield Nogood(c.x, a, c.y, b, c.label, c.origin)
    else:
        raise ValueError(f"cannot lower {type(c).__name__} to {sorted(k.__name__ for k in keep)}")


def lower(problem: Problem, kinds: Iterable[type]) -> Problem:
    """Return the problem with every constraint rewritten into `kinds` (Nogood and Table always
    allowed; a Linear outside `kinds` becomes tables over auxiliary variables)."""
    keep = frozenset(kinds) | {Nogood, Table}
    if Linear not in keep:
        problem = lower_linear(problem)
    out: list[Constraint] = []
    seen: set[tuple[int, int, int, int]] = set()
    done_pairs: set[tuple[int, int]] = set()   # AllDifferent pairs already lowered in full
    for c in problem.constraints:
        if isinstance(c, AllDifferent) and AllDifferent not in keep:
            _lower_all_different(c, problem.domain, out, seen, done_pairs)
            continue
        for d in _lower_one(c, problem.size, keep):
            if isinstance(d, Nogood):
                kept = _add_nogood(d, seen)
                if kept is None:
                    continue
                d = kept
            out.append(d)
    return replace(problem, constraints=tuple(out))


def _add_nogood(d: Nogood, seen: set) -> Nogood | None:
    """Return the normalised nogood, or None when an equal one was already emitted."""
    if (d.x, d.a) > (d.y, d.b):
        d = Nogood(d.y, d.b, d.x, d.a, d.label, d.origin)
    key = (d.x, d.a, d.y, d.b)
    if key in seen:
        return None
    seen.add(key)
    return d


def _lower_all_different(c: AllDifferent, domain, out: list, seen: set, done_pairs: set) -> None:
    """Append the pairwise nogoods of an AllDifferent, skipping pairs a unit before it covered.

    Same output as lowering value by value; a pair already lowered in full by an earlier
    AllDifferent has every one of its nogoods in `seen`, so it is skipped whole (the fast path
    that makes 25x25 grids cheap). The values of a pair are those both may take (auxiliaries
    may have more than a cell: a chaos region and value).
    """
    tops = {x: len(domain(x)) for x in c.vars}
    for k, x in enumerate(c.vars):
        for y in c.vars[k + 1:]:
            pair = (x, y) if x < y else (y, x)
            if pair in done_pairs:
                continue
            done_pairs.add(pair)
            for v in range(1, min(tops[x], tops[y]) + 1):
                d = _add_nogood(Nogood(x, v, y, v, c.label, c.origin), seen)
                if d is not None:
                    out.append(d)


# ---------------------------------------------------------------- sums without arithmetic

_MAX_SETS = 256   # a distinct-digit sum with more value sets than this is lowered as a chain


def lower_linear(problem: Problem) -> Problem:
    """Return the problem with every Linear rewritten into tables and nogoods over auxiliary
    variables, for engines that have no arithmetic.

    A sum of +1 coefficients over cells that an AllDifferent keeps apart (a killer cage)
    becomes one auxiliary whose values are the value sets that make the sum, each forbidding
    the cell values outside it (what a package manager reads as "a cage package whose versions
    are digit sets"). Any other sum becomes a chain of partial sums: s1 = c1*x1, s_k =
    s_(k-1) + c_k*x_k, one three-variable table per step, the last step checked against the
    right-hand side.
    """
    if not any(isinstance(c, Linear) for c in problem.constraints):
        return problem
    aux, names = list(problem.aux), list(problem.names) if problem.names else []
    ncells = problem.ncells
    apart = set(problem.difference_pairs)

    def domain(var: int) -> range:
        k = var - ncells
        return range(1, (problem.size if k < 0 else aux[k]) + 1)

    def new_var(size: int, name: str) -> int:
        from .build import identifier
        aux.append(size)
        if names:
            names.append(identifier(name))
        return ncells + len(aux) - 1

    out: list[Constraint] = []
    for c in problem.constraints:
        if not isinstance(c, Linear):
            out.append(c)
        elif not _as_sets(c, apart, domain, new_var, out):
            _as_chain(c, domain, new_var, out)
    return replace(problem, constraints=tuple(out), aux=tuple(aux), names=tuple(names),
                   nvars=ncells + len(aux))


def _as_sets(c: Linear, apart: set, domain, new_var, out: list) -> bool:
    """Lower a distinct-cells sum to one value-set auxiliary; False when it does not apply."""
    from itertools import combinations
    vs = c.vars
    if c.op != "==" or any(k != 1 for k in c.coefs) or len(set(vs)) != len(vs):
        return False
    if any((min(a, b), max(a, b)) not in apart for i, a in enumerate(vs) for b in vs[i + 1:]):
        return False
    values = sorted(set().union(*(domain(v) for v in vs)))
    sets = []
    for combo in combinations(values, len(vs)):
        if sum(combo) == c.rhs:
            sets.append(frozenset(combo))
            if len(sets) > _MAX_SETS:
                return False
    if not sets:
        out.append(Table(vs[:1], (), c.label, c.origin))   # no set makes the sum: nothing can hold
        return True
    if len(sets) == 1:
        for x in vs:
            out.append(Table((x,), tuple((v,) for v in domain(x) if v in sets[0]), c.label, c.origin))
        return True
    s = new_var(len(sets), f"{c.label} value set")
    for k, chosen in enumerate(sets, start=1):
        for x in vs:
            for v in domain(x):
                if v not in chosen:
                    out.append(Nogood(s, k, x, v, c.label, c.origin))
    return True


def _as_chain(c: Linear, domain, new_var, out: list) -> None:
    """Lower any sum to a chain of partial-sum auxiliaries and three-variable tables."""
    terms = list(zip(c.coefs, c.vars))
    # reach[k]: the partial sums the first k+1 terms can make; need[k]: those from which
    # the remaining terms can still meet the right-hand side.
    reach = [{k * v for v in domain(x)} for k, x in terms[:1]]
    for k, x in terms[1:]:
        reach.append({s + k * v for s in reach[-1] for v in domain(x)})
    final = {s for s in reach[-1] if _meets(s, c.op, c.rhs)}
    need = [final]
    for k, x in reversed(terms[1:]):
        need.append({s - k * v for s in need[-1] for v in domain(x)})
    need.reverse()
    sums = [sorted(r & n) for r, n in zip(reach, need)]
    if not sums[-1]:
        out.append(Table(c.vars[:1], (), c.label, c.origin))    # no total can be met
        return
    (k0, x0), label, origin = terms[0], c.label, c.origin
    if len(terms) == 1:
        out.append(Table((x0,), tuple((v,) for v in domain(x0) if k0 * v in final), label, origin))
        return
    prev_var, prev_index = x0, {k0 * v: v for v in domain(x0) if k0 * v in sums[0]}
    if len(prev_index) < len(domain(x0)):
        out.append(Table((x0,), tuple((v,) for v in prev_index.values()), label, origin))
    for step, (k, x) in enumerate(terms[1:], start=1):
        last = step == len(terms) - 1
        allowed = set(sums[step])
        if last:
            out.append(Table((prev_var, x), tuple(
                (pv, v) for s, pv in prev_index.items() for v in domain(x) if s + k * v in allowed),
                label, origin))
            return
        index = {s: i for i, s in enumerate(sums[step], start=1)}
        part = new_var(len(index), f"{label} partial sum {step + 1}")
        out.append(Table((prev_var, x, part), tuple(
            (pv, v, index[s + k * v]) for s, pv in prev_index.items() for v in domain(x)
            if s + k * v in index), label, origin))
        prev_var, prev_index = part, index


def _meets(total: int, op: str, rhs: int) -> bool:
    return total == rhs if op == "==" else total <= rhs if op == "<=" else total >= rhs


def nogood_partners(lowered: Problem) -> dict[tuple[int, int], dict[int, set[int]]]:
    """Return, for each option (x, a) of a lowered problem, the values each other variable y
    may not take when x = a (its nogoods, read both ways)."""
    out: dict[tuple[int, int], dict[int, set[int]]] = {}
    for c in lowered.constraints:
        if isinstance(c, Nogood):
            out.setdefault((c.x, c.a), {}).setdefault(c.y, set()).add(c.b)
            out.setdefault((c.y, c.b), {}).setdefault(c.x, set()).add(c.a)
    return out


def domains(problem: Problem, prune: bool,
            partners: dict[tuple[int, int], dict[int, set[int]]] | None = None
            ) -> list[tuple[int, ...]]:
    """Return the values each variable may take: all of them, or with `prune` those the givens
    leave (each given's nogoods applied once, no further), for encoders that publish fewer."""
    if not prune:
        return [tuple(problem.domain(v)) for v in range(problem.nvars)]
    given = problem.given_map()
    out: list[set[int]] = [{given[v]} if v in given else set(problem.domain(v))
                           for v in range(problem.nvars)]
    for (x, a), ys in (partners or nogood_partners(lower(problem, ()))).items():
        if given.get(x) == a:
            for y, bs in ys.items():
                if y not in given:
                    out[y].difference_update(bs)
    return [tuple(sorted(d)) for d in out]
