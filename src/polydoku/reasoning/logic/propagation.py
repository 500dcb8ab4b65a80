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
from .clue_filters import Clue, clues_of, settle
from .step import Step, cell_list, make_step

NAME = "Constraint Propagation"


def _eliminations(clue: Clue, board: Board, masks: list[int]) -> list[tuple[int, int]] | None:
    """Return the (cell, value) candidates the clue forbids, [] for none, None when it
    allows nothing at all (the board is broken: other steps say so). `masks` are the
    board's `value_masks()`."""
    dom = clue.narrowed(masks)
    return None if dom is None else board.losses({v: ~dom[v] for v in clue.cells})


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
    for k, clue in enumerate(clues_of(board.layout)):
        key = ("clue strong", k, tuple(masks[v] for v in clue.cells))
        out += recall(lay.memo, key, partial(clue.needed_pairs, masks, board.value))
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
    for clue in clues_of(board.layout):
        elim = _eliminations(clue, board, masks)
        if elim:
            return make_step(lay, NAME, f"{clue.label or 'a clue'} on "
                             f"{cell_list(lay, clue.cells)} allows no combination that uses "
                             f"them", eliminations=elim, pattern=clue.cells)
    return None


COMBINATIONS = "Clue Combinations"
COMBINATION_NODES = 500         # cells tried per clue and position: past them, the clue is left alone


class _OutOfNodes(Exception):
    pass


def _joint_support(clue: Clue, masks: list[int], conflicts, n: int, any_one: bool = False
                   ) -> dict[int, int] | None:
    """Return the values each of the clue's cells keeps in some way to fill all of them at
    once (the clue holds, and no two of its candidates the rules keep apart are both taken),
    None when there is none; raise _OutOfNodes past COMBINATION_NODES tries. With `any_one`,
    the values of the first such filling only (enough to say there is one)."""
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
            out = settle(clue.filters, out)
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
    start = settle(clue.filters, start) if start is not None else None
    if start is None:
        return None
    for x in cells:
        for a in values_of(start[x] & ~supported[x]):
            trial = place(start, x, a)
            found = search(trial) if trial is not None else None
            if found is not None:
                for v in cells:
                    supported[v] |= found[v]
                if any_one:
                    return supported
    return None if any_one else supported


class _Merged(Clue):
    """The clues of one rule (a zipper's pairs, an arrow's pieces) taken as one."""

    def __init__(self, parts: list[Clue]):
        self.label = parts[0].label
        self.filters = [f for p in parts for f in p.filters]
        self.cells = sorted({v for p in parts for v in p.cells})
        self.aux = {v: m for p in parts for v, m in p.aux.items()}


def _rule_clues(board: Board) -> list[Clue]:
    """Return the clues no technique reads, those of one rule (by label) merged into one."""
    lay = board.layout
    def make() -> list[Clue]:
        by_label: dict[str, list[Clue]] = {}
        out: list[Clue] = []
        for clue in clues_of(board.layout):
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
