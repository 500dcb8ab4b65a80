"""The candidate filters of tables and sums: a pure function from the candidate bitmasks of a
constraint's variables to those some allowed tuple (or total) still uses, as the compiled
core filters them in C."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ..problem import Linear, Problem, Table


class _Supporter:
    """A constraint that filters candidate bitmasks (`_support`, a pure function of them),
    remembering its last question and answer: search asks the same one again and again."""

    last: tuple = ((), None)
    vars: tuple[int, ...] = ()

    def support(self, cands: list[int]) -> list[int] | None:
        """Return each variable's supported candidates (value bitmasks), None when none fit."""
        asked = tuple(cands)
        if self.last[0] == asked:
            return self.last[1]
        out = self._support(cands)
        self.last = (asked, out)
        return out

    def _support(self, cands: list[int]) -> list[int] | None:
        raise NotImplementedError


class _TableBits(_Supporter):
    """A table made ready for support filtering: per column and value, the set of tuples
    with that value there, as one int. The tuples still possible are the AND over columns of
    the OR of their candidates' sets; a candidate is supported when it meets that set."""

    def __init__(self, vs: tuple[int, ...], tuples: tuple[tuple[int, ...], ...]):
        self.vars, self.tuples = vs, tuples
        self.all = (1 << len(tuples)) - 1
        self.masks: list[dict[int, int]] = [{} for _ in vs]
        for k, row in enumerate(tuples):
            for i, v in enumerate(row):
                if v >= 1:
                    m = self.masks[i]
                    m[v - 1] = m.get(v - 1, 0) | 1 << k

    def _support(self, cands: list[int]) -> list[int] | None:
        valid = self.all
        for m, c in zip(self.masks, cands):
            acc = 0
            while c:
                low = c & -c
                acc |= m.get(low.bit_length() - 1, 0)
                c ^= low
            valid &= acc
            if not valid:
                return None
        out = []
        for m, c in zip(self.masks, cands):
            keep = 0
            while c:
                low = c & -c
                if valid & m.get(low.bit_length() - 1, 0):
                    keep |= low
                c ^= low
            out.append(keep)
        return out


class _Sum(_Supporter):
    """A Linear constraint made ready for support filtering over candidate bitmasks.

    Each term's contribution coef*value is shifted to be >= 0, so a set of partial sums is one
    int with bit s set when the sum s is reachable; a value keeps its place when some
    reachable prefix plus it can still end in the allowed totals.
    """

    distinct = 0        # see _distinct_values: filtered by sets of values in search
    # see compiled.sum_groups: the terms as groups of cells that differ, filtered by each
    # group's value sets in search (None: no two terms fall into one group)
    groups: list[tuple[int, int, tuple[int, ...]]] | None = None

    def __init__(self, c: Linear, domain_sizes: list[int]):
        self.vars = c.vars
        self.coefs = c.coefs
        self.shifts: list[list[int]] = []      # per term, per value index: its contribution
        low = 0
        for k, d in zip(c.coefs, domain_sizes):
            parts = [k * v for v in range(1, d + 1)]
            low += min(parts)
            self.shifts.append([p - min(parts) for p in parts])
        top = sum(max(s) for s in self.shifts)
        rhs = c.rhs - low
        if c.op == "==":
            self.target = 1 << rhs if 0 <= rhs <= top else 0
        elif c.op == "<=":
            self.target = (1 << (min(rhs, top) + 1)) - 1 if rhs >= 0 else 0
        else:
            self.target = ((1 << (top + 1)) - 1) & ~((1 << max(rhs, 0)) - 1)

    def _support(self, cands: list[int]) -> list[int] | None:
        shifts, n = self.shifts, len(cands)
        reach = [1]
        for cand, sh in zip(cands, shifts):
            acc, r = 0, reach[-1]
            while cand:
                low = cand & -cand
                acc |= r << sh[low.bit_length() - 1]
                cand ^= low
            reach.append(acc)
        need = [0] * (n + 1)
        need[n] = self.target
        for i in range(n - 1, -1, -1):
            acc, cand, g = 0, cands[i], need[i + 1]
            while cand:
                low = cand & -cand
                acc |= g >> shifts[i][low.bit_length() - 1]
                cand ^= low
            need[i] = acc
        if not need[0] & 1:
            return None
        out = []
        for i in range(n):
            keep, cand, r, g = 0, cands[i], reach[i], need[i + 1]
            while cand:
                low = cand & -cand
                if (r << shifts[i][low.bit_length() - 1]) & g:
                    keep |= low
                cand ^= low
            out.append(keep)
        return out


class _DistinctSum(_Supporter):
    """A sum of cells that all differ (a killer cage), filtered as the search's compiled core
    filters it: by the sets of different values the cells can take one by one, forward from
    the first cell and back from the allowed totals. A value stays only where some such set
    with an allowed total uses it: the exact support of the sum and the differences together,
    which totals alone miss.

    In search (`narrow`) it also reads the full units holding all its cells: a value the rest
    of such a unit cannot hold is in the cage, so only sets holding it are allowed; and a value
    every allowed set holds leaves each variable that differs from all the cells still able to
    take it (`required_out`)."""

    def __init__(self, s: _Sum, units: Sequence[tuple[int, ...]] = (),
                 peers: Sequence[Collection[int]] = ()):
        self.vars, self.target, self.d = s.vars, s.target, s.distinct
        mine = set(s.vars)
        self.houses = [((1 << len(u)) - 1, tuple(v for v in u if v not in mine))
                       for u in units if mine <= set(u)]
        self.peers = peers
        self.asked: tuple = ((), None)

    def _support(self, cands: list[int]) -> list[int] | None:
        out = self._sets(cands, 0)
        return None if out is None else out[0]

    def _sets(self, cands: list[int], must: int) -> tuple[list[int], int] | None:
        """Return each cell's values some allowed set holding `must` uses, and the values
        every such set holds; None when there is no such set."""
        forward = _forward_sets(cands)
        good = {used for used in forward[-1]
                if self.target >> _index_sum(used) & 1 and used & must == must}
        if not good:
            return None
        every = -1
        for used in good:
            every &= used
        return _back_sets(forward, cands, good), every

    def narrow(self, cands: list[int]) -> tuple[list[int], int] | None:
        """Return, from every variable's candidates, the cells' supported candidates and the
        values every allowed set holds (see the class); None on a contradiction."""
        must = 0
        for full, rest in self.houses:
            held = 0
            for v in rest:
                held |= cands[v]
            must |= full & ~held
        if must >> self.d:
            return None
        mine = [cands[v] for v in self.vars]
        key = (tuple(mine), must)
        if self.asked[0] == key:
            return self.asked[1]
        out = self._sets(mine, must)
        self.asked = (key, out)
        return out

    def required_out(self, cands: list[int], every: int) -> list[tuple[int, int]] | None:
        """Return the (variable, value bit) pairs a value every allowed set holds rules out:
        each variable differing from all the cells that can still take it; None when such
        a value has no cell left."""
        out = []
        while every:
            bit = every & -every
            every ^= bit
            at = [v for v in self.vars if cands[v] & bit]
            if not at:
                return None
            seen = set(self.peers[at[0]])
            for v in at[1:]:
                seen &= set(self.peers[v])
            out += [(w, bit) for w in sorted(seen) if cands[w] & bit]
        return out


class _GroupSum(_Supporter):
    """A sum whose terms fall into groups of cells that differ (a little killer's cells in one
    box, a region-sum segment), filtered as the search's compiled core filters it: each group
    by the sets of different values its cells can take (a group of one term by its values),
    each set worth its total; a set stays only where its total and some total of every other
    group reach an allowed total. Exact for the sum and each group's differences together."""

    def __init__(self, s: _Sum):
        assert s.groups is not None
        self.vars, self.target, self.shifts = s.vars, s.target, s.shifts
        self.groups = s.groups

    def _support(self, cands: list[int]) -> list[int] | None:
        sets: list[list[set[int]] | None] = []     # per group of two or more: forward sets
        totals = []                                # per group: the totals it can make
        for sign, d, terms in self.groups:
            if len(terms) == 1:
                t, c, reach = terms[0], cands[terms[0]], 0
                while c:
                    low = c & -c
                    reach |= 1 << self.shifts[t][low.bit_length() - 1]
                    c ^= low
                sets.append(None)
                totals.append(reach)
                continue
            forward = _forward_sets([cands[t] for t in terms])
            reach = 0
            for used in forward[-1]:
                reach |= 1 << _group_total(sign, d, len(terms), used)
            if not reach:
                return None
            sets.append(forward)
            totals.append(reach)
        pre = [1]
        for reach in totals:
            pre.append(_shifted(pre[-1], reach, 1))
        need = [self.target]
        for reach in reversed(totals):
            need.append(_shifted(need[-1], reach, -1))
        need.reverse()
        if not need[0] & 1:
            return None
        out = [0] * len(cands)
        for g, (sign, d, terms) in enumerate(self.groups):
            fit = totals[g] & _shifted(need[g + 1], pre[g], -1)
            steps = sets[g]
            if steps is None:
                t, c = terms[0], cands[terms[0]]
                while c:
                    low = c & -c
                    if fit >> self.shifts[t][low.bit_length() - 1] & 1:
                        out[t] |= low
                    c ^= low
                continue
            good = {used for used in steps[-1]
                    if fit >> _group_total(sign, d, len(terms), used) & 1}
            for i, keep in enumerate(_back_sets(steps, [cands[t] for t in terms], good)):
                out[terms[i]] = keep
        return out


def _forward_sets(cands: list[int]) -> list[set[int]]:
    """Return the sets of different values cells of these candidates can take, one step per
    cell (the empty set first)."""
    forward = [{0}]
    for cand in cands:
        step = set()
        for used in forward[-1]:
            free = cand & ~used
            while free:
                low = free & -free
                step.add(used | low)
                free ^= low
        forward.append(step)
    return forward


def _back_sets(forward: list[set[int]], cands: list[int], good: set[int]) -> list[int]:
    """Return, per cell, the values that step from a set of `forward` to one that leads to a
    final set in `good`."""
    out = [0] * len(cands)
    for i in range(len(cands) - 1, -1, -1):
        back, keep = set(), 0
        for used in forward[i]:
            free = cands[i] & ~used
            while free:
                low = free & -free
                if used | low in good:
                    back.add(used)
                    keep |= low
                free ^= low
        out[i], good = keep, back
    return out


def _group_total(sign: int, d: int, length: int, used: int) -> int:
    """Return what a group's value set adds to a sum's shifted total: its values less one
    each (coefficients +1), or d less each value (coefficients -1)."""
    total = _index_sum(used)
    return total if sign > 0 else length * (d - 1) - total


def _shifted(base: int, amounts: int, direction: int) -> int:
    """Return the OR of `base` shifted left (direction 1) or right (-1) by each bit index of
    `amounts`."""
    out = 0
    while amounts:
        low = amounts & -amounts
        k = low.bit_length() - 1
        out |= base << k if direction > 0 else base >> k
        amounts ^= low
    return out


def _index_sum(used: int) -> int:
    """Return the sum of the bit indexes of a value set (each value's shift in a sum of 1s)."""
    total = 0
    while used:
        low = used & -used
        total += low.bit_length() - 1
        used ^= low
    return total


def constraint_filter(problem: Problem, c: Table | Linear) -> _Supporter:
    """Return the candidate filter of one table or sum constraint: its `support(cands)` maps
    the candidate bitmasks of `c.vars` to the candidates some allowed tuple (or total) still
    uses, None when none is left. The logical solver uses it to reason over clues it has no
    technique for."""
    if isinstance(c, Linear):
        return _Sum(c, [problem.domain_size(v) for v in c.vars])
    return _TableBits(tuple(c.vars), tuple(c.tuples))
