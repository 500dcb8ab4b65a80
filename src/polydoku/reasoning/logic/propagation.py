"""Constraint Propagation: the clues no technique reads, filtered on their own.

Sums (killer cages, arrows, little killers, sandwiches...) and tables (the rule kinds lowered to
lists of allowed tuples) have no named technique yet. Rather than ignore them, logic filters
each one alone against the current candidates, as the native engine does: a candidate that no
allowed total (or tuple) of the clue can use, given the other cells' candidates, goes. The step
names the clue and its cells. It is checked against the solution like every other step.
Finders return the first step they see, or None; none changes the board.
"""

from __future__ import annotations

from functools import partial

from .board import Board, recall, remember, values_of
from .step import Step, cell_list, make_step

NAME = "Constraint Propagation"


class _Clue:
    """One clue as Constraint Propagation sees it: its constraints (tied together by the
    auxiliary variables they share) with their filters, and its cells."""

    def __init__(self, problem, cons: list):
        from ...engines.native import constraint_filter
        self.label = next((c.label for c in cons if c.label), "")
        self.filters = [(tuple(c.vars), constraint_filter(problem, c)) for c in cons]
        ncells = problem.ncells
        self.cells = sorted({v for c in cons for v in c.vars if v < ncells})
        self.aux = {v: (1 << problem.domain_size(v)) - 1
                    for c in cons for v in c.vars if v >= ncells}

    def eliminations(self, board: Board, masks: list[int]) -> list[tuple[int, int]] | None:
        """Return the (cell, value) candidates the clue forbids, [] for none, None when it
        allows nothing at all (the board is broken: other steps say so). `masks` are the
        board's `value_masks()`."""
        dom = self._narrowed(masks)
        return None if dom is None else board.losses({v: ~dom[v] for v in self.cells})

    def _narrowed(self, masks: list[int], cell: int = -1, bit: int = 0) -> dict[int, int] | None:
        """Return the clue's cells' candidates (from `masks`; `cell` holding `bit` when given)
        once the clue is filtered to a fixpoint, None when nothing fits."""
        dom = dict(self.aux)
        for v in self.cells:
            dom[v] = masks[v]
        if cell >= 0:
            dom[cell] = bit
        return _settle(self.filters, dom)

    def forbidden_pairs(self, masks: list[int], conflicts) -> list[tuple[int, int, int, int]]:
        """Return the candidates (x, a, y, b) of two of the clue's cells that the clue does
        not allow together, given the candidates `masks`: with x holding a, the clue filtered
        alone leaves y without b (pairs the rules already keep apart, in `conflicts`, left
        out). One filtering per candidate, not per pair."""
        n = len(conflicts) // len(masks) if masks else 0
        out = []
        for x in self.cells:
            for a in values_of(masks[x]):
                dom = self._narrowed(masks, x, 1 << (a - 1))
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
        return out


def _settle(filters: list, dom: dict[int, int]) -> dict[int, int] | None:
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


def _clues(board: Board) -> list[_Clue]:
    """Return the clues no technique reads (built once per layout): constraints that share an
    auxiliary variable form one clue."""
    lay = board.layout
    cached = _CLUES.get(id(lay))
    if cached is not None and cached[0] is lay:
        return cached[1]
    problem = lay.problem
    out: list[_Clue] = []
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
        out = [_Clue(problem, g) for g in groups if g]
    if len(_CLUES) > 16:
        _CLUES.clear()
    _CLUES[id(lay)] = (lay, out)
    return out


_CLUES: dict[int, tuple] = {}


def clue_links(board: Board) -> list[tuple[int, int, str]]:
    """Return the pairs of candidates (as candidate numbers) that a clue allows only apart,
    given the board's candidates, with the clue's label: weak links for chains and the
    variant intersections, as the rules' own exclusions are. Remembered per clue by its
    cells' candidates."""
    lay = board.layout
    out: list[tuple[int, int, str]] = []
    if not lay.unread:
        return out
    masks = board.value_masks()
    n = lay.size
    for k, clue in enumerate(_clues(board)):
        key = ("clue links", k, tuple(masks[v] for v in clue.cells))
        pairs = recall(lay.memo, key, partial(clue.forbidden_pairs, masks, lay.conflicts))
        out += [(x * n + a - 1, y * n + b - 1, clue.label or "a clue") for x, a, y, b in pairs]
    return out


def clue_strong_links(board: Board) -> list[tuple[int, int]]:
    """Return the pairs of candidates (as candidate numbers) of which a clue needs one, given
    the board's candidates: with x not holding a, the clue alone leaves y one value b (that it
    had others besides), so x is a or y is b. Strong links for chains, from the clues no
    technique reads (filtered alone) and from the rule kinds' own logic (`Rule.deduce`).
    Remembered per clue by its cells' candidates."""
    lay = board.layout
    problem = lay.problem
    puzzle = problem.puzzle if problem is not None else None
    rules = [r for r in puzzle.rules if r.technique] if puzzle is not None else []
    if not lay.unread and not rules:
        return []
    masks = board.value_masks()
    n = lay.size
    out: list[tuple[int, int, int, int]] = []
    for k, clue in enumerate(_clues(board)):
        key = ("clue strong", k, tuple(masks[v] for v in clue.cells))
        out += recall(lay.memo, key,
                      partial(_needed_pairs, clue.cells, masks, board.value, clue._narrowed))
    for k, rule in enumerate(rules):
        cells = [puzzle.geometry.index(c) for c in rule.logic_cells(puzzle.geometry)]  # type: ignore[union-attr]
        key = ("rule strong", k, tuple(masks[v] for v in cells))
        deduced = partial(_deduced, rule, puzzle.geometry)  # type: ignore[union-attr]
        out += recall(lay.memo, key, partial(_needed_pairs, cells, masks, board.value, deduced))
    return [(x * n + a - 1, y * n + b - 1) for x, a, y, b in out]


def _deduced(rule, geometry, masks: list[int]) -> dict[int, int] | None:
    """Return every cell's candidates once the rule's own logic has run on `masks` (None when
    it allows nothing)."""
    found = rule.deduce(geometry, masks)
    if found is None:
        return dict(enumerate(masks))
    drop = found[0]
    out = {i: m & ~drop.get(i, 0) for i, m in enumerate(masks)}
    return None if any(not out[i] for i in drop) else out


def _needed_pairs(cells: list[int], masks: list[int], value: list[int],
                  narrow) -> list[tuple[int, int, int, int]]:
    """Return (x, a, y, b): with a taken from x, `narrow` leaves y only b (y unplaced, with
    other candidates before). One narrowing per candidate."""
    out = []
    for x in cells:
        if value[x] or masks[x].bit_count() < 2:
            continue
        for a in values_of(masks[x]):
            trial = list(masks)
            trial[x] &= ~(1 << (a - 1))
            dom = narrow(trial)
            if dom is None:         # x must be a: a single says so
                continue
            for y in cells:
                d = dom.get(y, masks[y])
                if y != x and not value[y] and d and not d & (d - 1) and masks[y] != d:
                    out.append((x, a, y, d.bit_length()))
    return out


def find_constraint_propagation(board: Board) -> Step | None:
    """Return the eliminations of the first clue (sum, table, or a rule with auxiliary
    variables) that forbids some candidate."""
    if not board.layout.unread:
        return None
    lay = board.layout
    masks = board.value_masks()
    for clue in _clues(board):
        elim = clue.eliminations(board, masks)
        if elim:
            return make_step(lay, NAME, f"{clue.label or 'a clue'} on "
                             f"{cell_list(lay, clue.cells)} allows no combination that uses "
                             f"them", eliminations=elim, pattern=clue.cells)
    return None


COMBINATIONS = "Clue Combinations"
COMBINATION_NODES = 500         # cells tried per clue and position: past them, the clue is left alone


class _OutOfNodes(Exception):
    pass


def _joint_support(clue: _Clue, masks: list[int], conflicts, n: int
                   ) -> dict[int, int] | None:
    """Return the values each of the clue's cells keeps in some way to fill all of them at
    once (the clue holds, and no two of its candidates the rules keep apart are both taken),
    None when there is none; raise _OutOfNodes past COMBINATION_NODES tries."""
    cells = clue.cells
    full = (1 << n) - 1
    budget = [COMBINATION_NODES]
    supported = {v: 0 for v in cells}

    def place(dom: dict[int, int], x: int, a: int) -> dict[int, int] | None:
        """Return the candidates with x holding a, what it rules out gone, and the clue
        filtered, repeated for every cell left one value; None when something runs out."""
        budget[0] -= 1
        if budget[0] < 0:
            raise _OutOfNodes
        out: dict[int, int] | None = dict(dom)
        assert out is not None
        out[x] = 1 << (a - 1)
        fixed = {z for z in cells if not dom[z] & (dom[z] - 1)}    # their exclusions are in
        fixed.add(x)
        queue = [x]
        while queue:
            while queue:
                y = queue.pop()
                row = conflicts[y * n + out[y].bit_length() - 1]
                for z in cells:
                    if z != y:
                        bad = (row >> (z * n)) & full
                        if out[z] & bad:
                            out[z] &= ~bad
                            if not out[z]:
                                return None
            out = _settle(clue.filters, out)
            if out is None:
                return None
            for z in cells:
                if z not in fixed and not out[z] & (out[z] - 1):
                    fixed.add(z)
                    queue.append(z)
        return out

    def search(dom: dict[int, int]) -> dict[int, int] | None:
        open_ = [v for v in cells if dom[v] & (dom[v] - 1)]
        if not open_:
            return dom
        x = min(open_, key=lambda v: dom[v].bit_count())
        for a in values_of(dom[x]):
            nxt = place(dom, x, a)
            if nxt is not None:
                found = search(nxt)
                if found is not None:
                    return found
        return None

    start: dict[int, int] | None = dict(clue.aux)
    for v in cells:
        start[v] = masks[v]                            # type: ignore[index]
    for x in cells:                                    # what is placed rules out the rest
        if masks[x] and not masks[x] & (masks[x] - 1) and start is not None:
            start = place(start, x, masks[x].bit_length())
    start = _settle(clue.filters, start) if start is not None else None
    if start is None:
        return None
    for x in cells:
        for a in values_of(start[x] & ~supported[x]):
            trial = place(start, x, a)
            found = search(trial) if trial is not None else None
            if found is not None:
                for v in cells:
                    supported[v] |= found[v]
    return supported


class _Merged(_Clue):
    """The clues of one rule (a zipper's pairs, an arrow's pieces) taken as one."""

    def __init__(self, parts: list[_Clue]):
        self.label = parts[0].label
        self.filters = [f for p in parts for f in p.filters]
        self.cells = sorted({v for p in parts for v in p.cells})
        self.aux = {v: m for p in parts for v, m in p.aux.items()}


def _rule_clues(board: Board) -> list[_Clue]:
    """Return the clues no technique reads, those of one rule (by label) merged into one."""
    lay = board.layout
    def make() -> list[_Clue]:
        by_label: dict[str, list[_Clue]] = {}
        out: list[_Clue] = []
        for clue in _clues(board):
            if clue.label:
                by_label.setdefault(clue.label, []).append(clue)
            else:
                out.append(clue)
        return [parts[0] if len(parts) == 1 else _Merged(parts)
                for parts in by_label.values()] + out
    return recall(lay.memo, ("rule clues",), make)


def _inner_exclusions(lay, cells: list[int]) -> bool:
    """Return whether the rules keep apart some candidates of two of these cells (remembered
    per layout and cells)."""
    def make() -> bool:
        n = lay.size
        block = (1 << n) - 1
        return any(lay.conflicts[x * n + a] >> (y * n) & block
                   for x in cells for a in range(n) for y in cells if y != x)
    return recall(lay.memo, ("inner exclusions", tuple(cells)), make)


def find_clue_combinations(board: Board) -> Step | None:
    """Return the eliminations of the first clue (a sum or a table) whose cells, filled all
    at once with what the rules allow between them (different values where they see each
    other, the pairs a dot or a line forbids), cannot use some candidate."""
    lay = board.layout
    if not lay.unread:
        return None
    masks = board.value_masks()
    n = lay.size
    for k, clue in enumerate(_rule_clues(board)):
        if not _inner_exclusions(lay, clue.cells):
            continue                    # filled at once is filtered alone: Constraint Propagation
        key = ("combinations", k, tuple(masks[v] for v in clue.cells))
        try:
            dom = recall(lay.memo, key, partial(_joint_support, clue, masks, lay.conflicts, n))
        except _OutOfNodes:
            remember(lay.memo, key, {v: masks[v] for v in clue.cells})
            continue
        if dom is None:
            continue
        elim = board.losses({v: ~dom[v] for v in clue.cells})
        if elim:
            return make_step(lay, COMBINATIONS,
                             f"{clue.label or 'a clue'} on {cell_list(lay, clue.cells)} can be "
                             f"filled only in ways that keep apart what the rules keep apart "
                             f"(different values where its cells see each other), and none "
                             f"of them uses these", eliminations=elim, pattern=clue.cells)
    return None
