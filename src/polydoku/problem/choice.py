"""Rules of alternatives (ISS's `Or`): the fillings of a few cells that some option allows.

An option is a list of rules that must all hold. Each is lowered on its own, and a small
search (forward checking, the variable of fewest values first) lists the fillings of the
cells the options read that its constraints and the houses among those cells allow. Their
union is one table, which every engine takes. The lists are bounded: past them, and first
for an or over more than SELECT_OVER cells, an or is lowered with an auxiliary naming the
option that holds (`selector.py`), and refused by name where that fails too.
"""

from __future__ import annotations

from typing import Iterator, Sequence

from ..errors import BadInput
from ..model import Geometry, Rule
from .ir import AbsDiffNot, AllDifferent, Constraint, Linear, Nogood, Table, variables

MOST_FILLINGS = 20_000      # rows of the table an or becomes
MOST_NODES = 400_000        # search nodes for one option's fillings
# an or over more cells is lowered with a selector when it can be: over 9 cells or more, the
# fillings of ISS's collection's ors are always past MOST_FILLINGS, which the search takes
# 0.7 to 2 s to find out (19 of them in one puzzle)
SELECT_OVER = 8


def option_constraints(builder_type, geometry: Geometry, option: Sequence[Rule]
                       ) -> tuple[list[Constraint], list[int]]:
    """Return the constraints an option's rules lower to on their own, and the domain sizes
    of the auxiliaries they make (numbered from the grid's cells on)."""
    sub = builder_type(geometry)
    for rule in option:
        sub.start(rule)
        rule.lower(sub)
    return sub.constraints, sub.aux


def cells_read(constraints: Sequence[Constraint], ncells: int) -> set[int]:
    """Return the cells (variables below `ncells`) the constraints read."""
    out: set[int] = set()
    for c in constraints:
        out.update(v for v in variables(c) if v < ncells)
    return out


def fillings(constraints: Sequence[Constraint], domains: dict[int, int],
             scope: Sequence[int], out: set[tuple[int, ...]] | None = None
             ) -> set[tuple[int, ...]]:
    """Return `out` (a new set by default) with the fillings of `scope` (values
    1..domains[v]) that some solution of the constraints over every variable of `domains`
    gives; BadInput past the bounds, counting what `out` held already."""
    search = _Search(constraints, domains)
    out = set() if out is None else out
    for values in search.fillings(list(scope)):
        out.add(values)
        if len(out) > MOST_FILLINGS:
            raise BadInput(f"an or over {len(scope)} cells allows more than {MOST_FILLINGS} "
                           f"fillings of them; polydoku reads an or as a table of those")
    return out


Domains = dict[int, int]         # a variable's values as a mask: bit a - 1 for value a


def _values(mask: int) -> Iterator[int]:
    """Yield the values of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length()
        mask ^= low


def _one(mask: int) -> bool:
    return not mask & (mask - 1)


class _Search:
    """The fillings of some variables that a few constraints allow: branching on those
    variables (the one of fewest values first), each step narrowed to a fixpoint, and at a
    filling a search for one way to fill the rest."""

    def __init__(self, constraints: Sequence[Constraint], domains: dict[int, int]):
        self.constraints = list(constraints)
        self.domains = domains
        self.on: dict[int, list[Constraint]] = {v: [] for v in domains}
        for c in self.constraints:
            for v in set(variables(c)):
                self.on[v].append(c)
        self.nodes = 0
        self.indexes: dict[int, list[dict[int, int]]] = {}
        # per table and column, the rows that a set of values (a mask) allows, as found
        self.supports: dict[int, list[dict[int, int]]] = {}

    def _index(self, c: Table) -> list[dict[int, int]]:
        """Return, per column of a table, the rows (bits of an int) that hold each value."""
        index = self.indexes.get(id(c))
        if index is None:
            index = [{} for _ in c.vars]
            for r, row in enumerate(c.tuples):
                for k, a in enumerate(row):
                    index[k][a] = index[k].get(a, 0) | 1 << r
            self.indexes[id(c)] = index
            self.supports[id(c)] = [{} for _ in c.vars]
        return index

    def fillings(self, scope: list[int]) -> Iterator[tuple[int, ...]]:
        """Yield each filling of `scope` some solution gives, once."""
        start = {v: (1 << d) - 1 for v, d in self.domains.items()}
        if self._fixpoint(start, self.constraints):
            yield from self._branch(start, scope)

    def _step(self) -> None:
        self.nodes += 1
        if self.nodes > MOST_NODES:
            raise BadInput(f"an or's options take more than {MOST_NODES} search steps to "
                           f"list their fillings")

    def _branch(self, dom: Domains, scope: list[int]) -> Iterator[tuple[int, ...]]:
        open_ = [v for v in scope if not _one(dom[v])]
        if not open_:
            if self._completes(dom):
                yield tuple(dom[v].bit_length() for v in scope)
            return
        var = min(open_, key=lambda v: dom[v].bit_count())
        for value in _values(dom[var]):
            self._step()
            child = dict(dom)
            child[var] = 1 << (value - 1)
            if self._fixpoint(child, self.on[var]):
                yield from self._branch(child, scope)

    def _completes(self, dom: Domains) -> bool:
        """Return whether the variables still open can all be filled."""
        open_ = [v for v in dom if not _one(dom[v])]
        if not open_:
            return True
        var = min(open_, key=lambda v: dom[v].bit_count())
        for value in _values(dom[var]):
            self._step()
            child = dict(dom)
            child[var] = 1 << (value - 1)
            if self._fixpoint(child, self.on[var]) and self._completes(child):
                return True
        return False

    def _fixpoint(self, dom: Domains, first: Sequence[Constraint]) -> bool:
        """Narrow by the constraints until nothing changes; False on a wipe-out."""
        queue = list(dict.fromkeys(first))
        queued = set(map(id, queue))
        while queue:
            c = queue.pop()
            queued.discard(id(c))
            changed = self._narrow(c, dom)
            if changed is None:
                return False
            for v in changed:
                for d in self.on[v]:
                    if id(d) not in queued and d is not c:
                        queue.append(d)
                        queued.add(id(d))
        return True

    def _narrow(self, c: Constraint, dom: Domains) -> list[int] | None:
        """Narrow the variables' values by one constraint: the variables it narrowed, None
        on a wipe-out."""
        new: dict[int, int] = {}
        if isinstance(c, AllDifferent):
            fixed = 0
            for v in c.vars:
                m = dom[v]
                if _one(m):
                    if fixed & m:
                        return None
                    fixed |= m
            for v in c.vars:
                if not _one(dom[v]) and dom[v] & fixed:
                    new[v] = dom[v] & ~fixed
        elif isinstance(c, Nogood):
            if dom[c.x] == 1 << (c.a - 1) and dom[c.y] >> (c.b - 1) & 1:
                new[c.y] = dom[c.y] & ~(1 << (c.b - 1))
            elif dom[c.y] == 1 << (c.b - 1) and dom[c.x] >> (c.a - 1) & 1:
                new[c.x] = dom[c.x] & ~(1 << (c.a - 1))
        elif isinstance(c, AbsDiffNot):
            for x, y in ((c.x, c.y), (c.y, c.x)):
                if _one(dom[x]):
                    a = dom[x].bit_length()
                    near = (1 << (a - 1 + c.d)) | (1 << (a - 1 - c.d) if a > c.d else 0)
                    if dom[y] & near:
                        new[y] = dom[y] & ~near
        elif isinstance(c, Table):
            index = self._index(c)
            known = self.supports[id(c)]
            alive = -1                      # the rows every variable's values allow
            for k, v in enumerate(c.vars):
                mask = dom[v]
                rows = known[k].get(mask)   # the same values recur: their rows once
                if rows is None:
                    rows = 0
                    for a in _values(mask):
                        rows |= index[k].get(a, 0)
                    known[k][mask] = rows
                alive &= rows
                if not alive:
                    return None
            for k, v in enumerate(c.vars):
                if _one(dom[v]):            # its one value is in every row alive
                    continue
                keep = 0
                for a in _values(dom[v]):
                    if index[k].get(a, 0) & alive:
                        keep |= 1 << (a - 1)
                if keep != dom[v]:
                    new[v] = keep
        else:
            return self._linear(c, dom)
        for v, m in new.items():
            if not m:
                return None
            dom[v] = m
        return list(new)

    @staticmethod
    def _linear(c: Linear, dom: Domains) -> list[int] | None:
        """Bounds: each variable's values that some values of the others allow."""
        ends = []
        for k, v in zip(c.coefs, c.vars):
            low, high = dom[v] & -dom[v], dom[v].bit_length()
            a, b = k * low.bit_length(), k * high
            ends.append((min(a, b), max(a, b)))
        lo, hi = sum(e[0] for e in ends), sum(e[1] for e in ends)
        want_lo = c.rhs if c.op in ("==", ">=") else None
        want_hi = c.rhs if c.op in ("==", "<=") else None
        if want_lo is not None and hi < want_lo or want_hi is not None and lo > want_hi:
            return None
        changed = []
        for (k, v), (l_, h_) in zip(zip(c.coefs, c.vars), ends):
            others_lo, others_hi = lo - l_, hi - h_
            keep = 0
            for a in _values(dom[v]):
                if (want_lo is None or others_hi + k * a >= want_lo) and \
                        (want_hi is None or others_lo + k * a <= want_hi):
                    keep |= 1 << (a - 1)
            if not keep:
                return None
            if keep != dom[v]:
                dom[v] = keep
                changed.append(v)
        return changed


def lower_choice(b, options: Sequence[Sequence[Rule]]) -> None:
    """Lower "at least one option holds" into builder `b`: one table over the cells the
    options read, of every filling some option allows with the houses among those cells."""
    g = b.geometry
    lowered = [option_constraints(type(b), g, option) for option in options]
    scope = sorted(set().union(*(cells_read(cs, g.ncells) for cs, _ in lowered)))
    if not scope:
        raise BadInput("an or whose options read no cell")
    inside = set(scope)
    houses: list[Constraint] = [AllDifferent(tuple(v for v in unit if v in inside))
                                for unit in g.units if len(inside.intersection(unit)) > 1]
    from .selector import lower_selected
    if len(scope) > SELECT_OVER:
        try:                    # a selector first: its rows are few where it takes the or
            lower_selected(b, lowered)
            return
        except BadInput:
            pass
    rows: set[tuple[int, ...]] = set()
    try:
        for constraints, aux in lowered:
            domains = {v: g.nvalues for v in scope}
            domains.update({g.ncells + k: size for k, size in enumerate(aux)})
            fillings([*constraints, *houses], domains, scope, rows)
    except BadInput as wide:
        if len(scope) > SELECT_OVER:
            raise
        try:                    # too many fillings to list: a selector (selector.py)
            lower_selected(b, lowered)
        except BadInput:
            raise wide from None
        return
    b.table(scope, sorted(rows))
