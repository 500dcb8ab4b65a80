"""The clues no technique reads (sums, tables: the rule kinds lowered to lists of allowed
tuples) as filters over a board's candidates: a clue is the constraints tied together by the
auxiliary variables they share, filtered alone to a fixpoint as the native engine filters
them. The board reads the pairs of candidates a clue keeps apart (`clue_links`); Constraint
Propagation and Clue Combinations (propagation.py) use the filters. Nothing here finds
techniques or holds a position.
"""

from __future__ import annotations

from functools import partial

from .layout import Layout, recall, values_of


class Clue:
    """One clue as Constraint Propagation sees it: its constraints (tied together by the
    auxiliary variables they share) with their filters, and its cells."""

    def __init__(self, problem, cons: list):
        from ...core import constraint_filter
        self.label = next((c.label for c in cons if c.label), "")
        self.filters = [(tuple(c.vars), constraint_filter(problem, c)) for c in cons]
        ncells = problem.ncells
        self.cells = sorted({v for c in cons for v in c.vars if v < ncells})
        self.aux = {v: (1 << problem.domain_size(v)) - 1
                    for c in cons for v in c.vars if v >= ncells}
        # per question (the pairs kept apart, the pairs needed): the cells' candidates when
        # it was last asked, and the fixpoint each of its filterings reached
        self.last: dict[str, tuple[tuple[int, ...], dict]] = {}

    def narrowed(self, masks: list[int], cell: int = -1, bit: int = 0) -> dict[int, int] | None:
        """Return the clue's cells' candidates (from `masks`; `cell` holding `bit` when given)
        once the clue is filtered to a fixpoint, None when nothing fits."""
        dom = dict(self.aux)
        for v in self.cells:
            dom[v] = masks[v]
        if cell >= 0:
            dom[cell] = bit
        return settle(self.filters, dom)

    def forbidden_pairs(self, masks: list[int], conflicts) -> list[tuple[int, int, int, int]]:
        """Return the candidates (x, a, y, b) of two of the clue's cells that the clue does
        not allow together, given the candidates `masks`: with x holding a, the clue filtered
        alone leaves y without b (pairs the rules already keep apart, in `conflicts`, left
        out). One filtering per candidate, not per pair."""
        n = len(conflicts) // len(masks) if masks else 0
        kept, settled = self._kept("apart", masks), {}
        out = []
        for x in self.cells:
            for a in values_of(masks[x]):
                bit = 1 << (a - 1)
                dom = settled[x, a] = self._settled(masks, x, bit, kept.get((x, a), False))
                if dom is None:         # the clue rules a out: Constraint Propagation says so
                    continue
                p = x * n + a - 1
                for y in self.cells:
                    if y == x:
                        continue
                    for b in values_of(masks[y] & ~dom[y]):
                        q = y * n + b - 1
                        if not conflicts[p] >> q & 1:
                            out.append((x, a, y, b))
        self.last["apart"] = (tuple([masks[v] for v in self.cells]), settled)
        return out

    def needed_pairs(self, masks: list[int], value: list[int]) -> list[tuple[int, int, int, int]]:
        """Return (x, a, y, b): with a taken from x, the clue filtered alone leaves y only b
        (y unplaced, with other candidates before), so x is a or y is b. One filtering per
        candidate."""
        kept, settled = self._kept("needed", masks), {}
        out = []
        for x in self.cells:
            if value[x] or masks[x].bit_count() < 2:
                continue
            for a in values_of(masks[x]):
                start = masks[x] & ~(1 << (a - 1))
                dom = settled[x, a] = self._settled(masks, x, start, kept.get((x, a), False))
                if dom is None:         # x must be a: a single says so
                    continue
                for y in self.cells:
                    d = dom[y]
                    if y != x and not value[y] and d and not d & (d - 1) and masks[y] != d:
                        out.append((x, a, y, d.bit_length()))
        self.last["needed"] = (tuple([masks[v] for v in self.cells]), settled)
        return out

    def _kept(self, question: str, masks: list[int]) -> dict:
        """Return the fixpoints `question` reached when last asked, if the cells' candidates
        have only shrunk since (else nothing)."""
        before = self.last.get(question)
        if before is None or any(masks[v] & ~b for v, b in zip(self.cells, before[0])):
            return {}
        return before[1]

    def _settled(self, masks: list[int], x: int, start: int, old) -> dict[int, int] | None:
        """Return the clue's candidates filtered to a fixpoint from `masks` with x's cut to
        `start`. Each filter keeps exactly what some allowed tuple or total uses, so the
        fixpoint is the largest one inside the candidates it starts from: from fewer
        candidates than when the same filtering last ran, its fixpoint (`old`; False for
        none) cut down to them leads to the same one, and is it when the cut takes nothing
        away."""
        if old is False:
            return self.narrowed(masks, x, start)
        if old is None:
            return None
        cut = {v: start if v == x else masks[v] for v in self.cells}
        if all(old[v] & m == old[v] for v, m in cut.items()):
            return old
        dom = dict(old)
        for v, m in cut.items():
            dom[v] &= m
            if not dom[v]:
                return None
        return settle(self.filters, dom)


def settle(filters: list, dom: dict[int, int]) -> dict[int, int] | None:
    """Return `dom` (changed in place) once every filter keeps only what it supports, to a
    fixpoint; None when some filter allows nothing."""
    changed = True
    while changed:
        changed = False
        for vars_, flt in filters:
            support = flt.support([dom[v] for v in vars_])
            if support is None:
                return None
            for v, keep in zip(vars_, support):
                if dom[v] & ~keep:
                    dom[v] &= keep
                    if not dom[v]:
                        return None
                    changed = len(filters) > 1
    return dom


def clues_of(lay: Layout) -> list[Clue]:
    """Return the clues no technique reads (built once per layout): constraints that share an
    auxiliary variable form one clue."""
    cached = _CLUES.get(id(lay))
    if cached is not None and cached[0] is lay:
        return cached[1]
    problem = lay.problem
    out: list[Clue] = []
    if problem is not None:
        ncells = problem.ncells
        groups: list[list] = []
        owner: dict[int, int] = {}          # auxiliary variable -> group
        for c in lay.unread:
            aux = [v for v in c.vars if v >= ncells]
            hit = sorted({owner[v] for v in aux if v in owner})
            if not hit:
                k = len(groups)
                groups.append([])
            else:
                k = hit[0]
                for other in hit[1:]:       # merge: the constraint ties two groups
                    groups[k] += groups[other]
                    for v, g in owner.items():
                        if g == other:
                            owner[v] = k
                    groups[other] = []
            groups[k].append(c)
            for v in aux:
                owner[v] = k
        out = [Clue(problem, g) for g in groups if g]
    if len(_CLUES) > 16:
        _CLUES.clear()
    _CLUES[id(lay)] = (lay, out)
    return out


_CLUES: dict[int, tuple] = {}


def clue_links(lay: Layout, masks: list[int]) -> list[tuple[int, int, str]]:
    """Return the pairs of candidates (as candidate numbers) that a clue allows only apart,
    given a board's candidates (`masks`, its `value_masks()`), with the clue's label: weak
    links for chains and the variant intersections, as the rules' own exclusions are.
    Remembered per clue by its cells' candidates."""
    out: list[tuple[int, int, str]] = []
    if not lay.unread:
        return out
    n = lay.size
    for k, clue in enumerate(clues_of(lay)):
        key = ("clue links", k, tuple(masks[v] for v in clue.cells))
        pairs = recall(lay.memo, key, partial(clue.forbidden_pairs, masks, lay.conflicts))
        out += [(x * n + a - 1, y * n + b - 1, clue.label or "a clue") for x, a, y, b in pairs]
    return out
