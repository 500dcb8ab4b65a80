"""The 45 rule of killer sudoku and set sums: a house holds 1..N once, so it adds up to
N(N+1)/2 (45 on 9x9), and 1 to 3 houses that share no cell add up to that many times it.
Taking away the sums with known totals that lie mostly inside those houses (killer cages,
little killer diagonals, arrows as "shaft less circle is 0", region-sum segments as "one
segment less another is 0"...) leaves an equation over few cells: the houses' cells no clue
covers (innies, counted +1) and the clues' cells sticking out (outies, counted -1). Placed
values are taken out of it, and the fillings of its open cells that keep apart what the rules
keep apart tell what each can hold.

"45 Rule" is one house against the clues; "Innies and Outies" is several houses side by side
(2 to 8 rows or columns in a row, 2 to 4 boxes or regions that touch). Which clues to take away is decided once per layout:
greedily, each time the one that leaves the fewest cells in the equation, and also only the
clues wholly inside (the classic innies). Only `==` sums over cells are read; a sum tied to
one auxiliary total (region-sum segments) is read as differences of its parts.
Finders return the first step they see, or None; none changes the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from ...problem import Linear
from ...problem.build import numbered, rule_words
from ...rules.cells import cage_sets, sets_words
from .board import Board, Layout, bits, remember
from .step import Step, cell_list, make_step

NAME = "45 Rule"
SETS = "Innies and Outies"
MAX_CELLS = 6               # open cells of an equation beyond this many say too little
MAX_TERMS = 14              # cells of an equation kept per layout (placed ones drop out later)
MAX_FILLINGS = 40_000       # product of candidate counts searched at most
MAX_LINES = 8               # rows (columns) in a row taken together at most
MAX_AREAS = 4               # boxes or regions that touch taken together at most


@dataclass(frozen=True)
class SumClue:
    """A known sum over cells: sum(coef * cell) == rhs, and the clue it comes from."""

    terms: tuple[tuple[int, int], ...]      # (cell, coef)
    rhs: int
    words: str                              # "the cage (15) at r1c1..r1c3"
    label: str = ""                         # the constraint's label (one per rule)
    kind: str = ""                          # the kind of rule it comes from ("killer")


@dataclass(frozen=True)
class Equation:
    """Houses against clues: sum(coef * cell) == rhs over the cells left."""

    houses: tuple[str, ...]
    total: int                              # what the houses add up to
    taken: tuple[tuple[SumClue, int], ...]  # clues and the multiple taken away (+1 or -1)
    terms: tuple[tuple[int, int], ...]
    rhs: int
    inside: int                             # the houses' cells, as a bitset


def _rule_words(layout: Layout) -> dict[str, str]:
    """Return each constraint label's rule in words ("cage (15) at r1c1..r1c3 #2" -> "the
    cage (15) at r1c1..r1c3")."""
    problem = layout.problem
    puzzle = problem.puzzle if problem is not None else None
    if puzzle is None:
        return {}
    out: dict[str, str] = {}
    seen: dict[str, int] = {}
    for rule in puzzle.rules:
        words = rule_words(rule, puzzle.geometry)
        out[numbered(words, seen)] = "the " + words
    return out


def sum_clues(layout: Layout) -> list[SumClue]:
    """Return the problem's known sums over cells (`Linear ==`), those tied through one
    auxiliary total read as differences of their parts."""
    problem = layout.problem
    if problem is None:
        return []
    words = _rule_words(layout)
    ncells = problem.ncells
    out: list[SumClue] = []
    tied: dict[int, list[tuple[Linear, int]]] = {}
    for c in problem.constraints:
        if not isinstance(c, Linear) or c.op != "==":
            continue
        aux = [(v, k) for v, k in zip(c.vars, c.coefs) if v >= ncells]
        if not aux:
            terms = _merge(zip(c.vars, c.coefs))
            if terms:
                out.append(SumClue(terms, c.rhs, words.get(c.label, c.label), c.label,
                                  c.origin.kind))
        elif len(aux) == 1 and abs(aux[0][1]) == 1:
            tied.setdefault(aux[0][0], []).append((c, aux[0][1]))
    for parts in tied.values():
        (first, k0), rest = parts[0], parts[1:]
        for c, k in rest:
            # t = k0 (r0 - part0) = k (r - part): k0 part0 - k part = k0 r0 - k r
            terms = _merge([(v, k0 * a) for v, a in zip(first.vars, first.coefs) if v < ncells]
                           + [(v, -k * a) for v, a in zip(c.vars, c.coefs) if v < ncells])
            if terms:
                out.append(SumClue(terms, k0 * first.rhs - k * c.rhs,
                                   words.get(c.label, c.label) + " (two of its parts)",
                                   c.label, c.origin.kind))
    return out


def _merge(terms) -> tuple[tuple[int, int], ...]:
    """Return (cell, coef) terms with equal cells added up and zeros dropped, by cell."""
    acc: dict[int, int] = {}
    for v, k in terms:
        acc[v] = acc.get(v, 0) + k
    return tuple(sorted((v, k) for v, k in acc.items() if k))


def _regions(layout: Layout) -> list[tuple[int, ...]]:
    """Return sets of houses (indices) sharing no cell: each house, 2 to MAX_LINES rows
    (columns) in a row, and 2 to MAX_AREAS boxes or regions that touch one another."""
    n = layout.size
    out: list[tuple[int, ...]] = [(h.index,) for h in layout.houses]
    for kind in ("row", "column"):
        lines = sorted(layout.lines[kind], key=lambda h: min(h.cells))
        for k in range(2, min(n, MAX_LINES + 1)):
            out += [tuple(h.index for h in lines[i:i + k]) for i in range(len(lines) - k + 1)]
    areas = [h for h in layout.houses if h.kind in ("box", "other")]
    near = {h.index: _grown(h.mask, n) for h in areas}
    for k in range(2, MAX_AREAS + 1):
        for group in combinations(areas, k):
            masks = [h.mask for h in group]
            if any(a & b for a, b in combinations(masks, 2)):
                continue
            if _connected([h.index for h in group], {h.index: h.mask for h in group}, near):
                out.append(tuple(h.index for h in group))
    return out


def _grown(mask: int, n: int) -> int:
    """Return a set of cells with its orthogonal neighbours added."""
    out = mask
    for i in bits(mask):
        r, c = divmod(i, n)
        for a, b in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= a < n and 0 <= b < n:
                out |= 1 << (a * n + b)
    return out


def _connected(group: list[int], masks: dict[int, int], near: dict[int, int]) -> bool:
    """Return whether houses touch one another as a whole (each step along a shared side)."""
    reached, todo = {group[0]}, [group[0]]
    while todo:
        h = todo.pop()
        for g in group:
            if g not in reached and near[h] & masks[g]:
                reached.add(g)
                todo.append(g)
    return len(reached) == len(group)


def equations(layout: Layout) -> list[Equation]:
    """Return the equations of the layout's house sets against its sum clues (worked out
    once per layout): per set, the greedy one and the innies one, at most MAX_TERMS cells."""
    key = ("set sums",)
    found = layout.memo.get(key)
    if found is None:
        found = _equations(layout)
        remember(layout.memo, key, found)
    return found        # type: ignore[return-value]


def _equations(layout: Layout) -> list[Equation]:
    clues = sum_clues(layout)
    if not clues:
        return []
    n = layout.size
    whole = n * (n + 1) // 2
    masks = [sum(1 << v for v, _ in c.terms) for c in clues]
    out: dict[tuple, Equation] = {}
    for region in _regions(layout):
        houses = [layout.houses[k] for k in region]
        inside = 0
        for h in houses:
            inside |= h.mask
        start = {i: 1 for i in bits(inside)}
        total = whole * len(houses)
        touching = [k for k, m in enumerate(masks) if m & inside]
        if not touching:
            continue
        innies = [(k, -1) for k in touching if masks[k] & ~inside == 0]
        for taken in (_greedy(start, clues, touching), innies):
            if not taken:
                continue
            coefs = dict(start)
            rhs = total
            for k, s in taken:
                rhs += s * clues[k].rhs
                for v, a in clues[k].terms:
                    coefs[v] = coefs.get(v, 0) + s * a
            terms = tuple(sorted((v, a) for v, a in coefs.items() if a))
            if not terms or len(terms) > MAX_TERMS:
                continue
            eq = Equation(tuple(h.name for h in houses), total,
                          tuple((clues[k], s) for k, s in taken), terms, rhs, inside)
            out.setdefault((terms, rhs), eq)
    return list(out.values())


def _greedy(start: dict[int, int], clues: list[SumClue], touching: list[int]
            ) -> list[tuple[int, int]]:
    """Return the clues to take away (index, multiple), each time the one that leaves the
    fewest cells, while that lowers the count."""
    coefs = dict(start)
    taken: list[tuple[int, int]] = []
    left = set(touching)
    while left:
        best = None
        for k in left:
            for s in (-1, 1):
                gain = 0
                for v, a in clues[k].terms:
                    old = coefs.get(v, 0)
                    gain += (old != 0) - (old + s * a != 0)
                if gain > 0 and (best is None or gain > best[0]):
                    best = (gain, k, s)
        if best is None:
            break
        _, k, s = best
        for v, a in clues[k].terms:
            coefs[v] = coefs.get(v, 0) + s * a
        taken.append((k, s))
        left.discard(k)
    return taken


def find_rule45(board: Board) -> Step | None:
    """Return the first 45-rule step (one house against the clues) that removes a candidate."""
    return _find(board, one_house=True)


def find_innies_outies(board: Board) -> Step | None:
    """Return the first step of several houses against the clues that removes a
    candidate."""
    return _find(board, one_house=False)


def _find(board: Board, one_house: bool) -> Step | None:
    lay = board.layout
    if lay.is_classic or not lay.unread:
        return None
    puzzle = lay.puzzle
    if puzzle is not None and puzzle.geometry.low != 1:
        return None                 # its words add up value indices, not the grid's values
    value, cand = board.value, board.cand
    for k, eq in enumerate(equations(lay)):
        if (len(eq.houses) == 1) != one_house:
            continue
        open_terms = [(v, a) for v, a in eq.terms if not value[v]]
        if not open_terms or len(open_terms) > MAX_CELLS:
            continue
        rhs = eq.rhs - sum(a * value[v] for v, a in eq.terms if value[v])
        masks = [cand[v] for v, _ in open_terms]
        key = ("set sums", one_house, k, rhs, tuple(masks))
        if key in lay.barren:
            continue
        keep = fillings(lay, open_terms, masks, rhs)
        elim = [] if keep is None else board.losses(
            {v: m & ~kept for (v, _), m, kept in zip(open_terms, masks, keep)})
        if not elim:
            remember(lay.barren, key, None)
            continue
        return make_step(lay, NAME if one_house else SETS,
                         _reason(lay, eq, open_terms, rhs, masks),
                         eliminations=elim, pattern=[v for v, _ in open_terms],
                         houses=eq.houses)
    return None


def fillings(lay: Layout, terms: list[tuple[int, int]], masks: list[int], rhs: int
             ) -> list[int] | None:
    """Return, per cell of `terms`, the candidates some filling uses: values from `masks`,
    sum(coef * value) == rhs, no two candidates the layout keeps apart; None when there are
    more than MAX_FILLINGS to try."""
    k = len(terms)
    count = 1
    for m in masks:
        count *= max(1, m.bit_count())
    if count > MAX_FILLINGS:
        return None
    n, conflicts = lay.size, lay.conflicts
    order = sorted(range(k), key=lambda j: masks[j].bit_count())
    coefs = [terms[j][1] for j in order]
    cells = [terms[j][0] for j in order]
    vals = [[v + 1 for v in bits(masks[j])] for j in order]
    lo = [min(a * v for v in vs) for a, vs in zip(coefs, vals)]
    hi = [max(a * v for v in vs) for a, vs in zip(coefs, vals)]
    rest_lo = [sum(lo[j:]) for j in range(k)] + [0]
    rest_hi = [sum(hi[j:]) for j in range(k)] + [0]
    keep = [0] * k
    full = [masks[j] for j in order]
    chosen: list[int] = []          # candidate numbers so far

    def walk(j: int, left: int, ruled_out: int) -> None:
        # ruled_out: the candidates those chosen so far keep apart from them
        if j == k:
            if left == 0:
                for t, c in enumerate(chosen):
                    keep[t] |= 1 << (c % n)
            return
        if not rest_lo[j] <= left <= rest_hi[j]:
            return
        # a filling through here would keep nothing not kept already: no need to find one
        if all(keep[t] >> (chosen[t] % n) & 1 for t in range(j)) and all(
                keep[t] == full[t] for t in range(j, k)):
            return
        for v in vals[j]:
            c = cells[j] * n + v - 1
            if ruled_out >> c & 1:
                continue
            chosen.append(c)
            walk(j + 1, left - coefs[j] * v, ruled_out | conflicts[c])
            chosen.pop()

    walk(0, rhs, 0)
    out = [0] * k
    for t, j in enumerate(order):
        out[j] = keep[t]
    return out


def _expr(lay: Layout, terms: list[tuple[int, int]], rhs: int) -> str:
    """Return an equation written with no minus sign: "r1c8 + r1c9 = r2c1 + 3" (cells
    counted k times as "2×r1c1")."""
    def side(items: list[tuple[int, int]]) -> list[str]:
        return [(f"{k}×" if k != 1 else "") + lay.name(v) for v, k in items]
    plus = side([(v, a) for v, a in terms if a > 0])
    minus = side([(v, -a) for v, a in terms if a < 0])
    if rhs < 0 or not plus:
        plus, minus, rhs = minus, plus, -rhs
    right = minus + ([str(rhs)] if rhs or not minus else [])
    return f"{' + '.join(plus)} = {' + '.join(right)}"


def _houses_words(names: tuple[str, ...]) -> str:
    """Return "row 1", "rows 1 and 2" style names for the houses of an equation."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _reason(lay: Layout, eq: Equation, terms: list[tuple[int, int]], rhs: int,
            masks: list[int]) -> str:
    """Return the step's reason: what the houses add up to, what the clues take away, the
    equation left on the open cells, and the sets that fit it when they form a cage."""
    if all(a < 0 for _, a in terms):            # outies alone: say them as a positive sum
        terms, rhs = [(v, -a) for v, a in terms], -rhs
    text = _classic_words(lay, eq, terms, rhs) or _general_words(lay, eq, terms, rhs)
    cells = [v for v, _ in terms]
    if all(a == 1 for _, a in terms) and all(lay.sees(a, b) for a, b in combinations(cells, 2)):
        found = cage_sets(lay.size, masks, rhs)
        if found is not None:
            text += ", and " + _they(found[1], len(cells))
    return text


def _classic_words(lay: Layout, eq: Equation, terms: list[tuple[int, int]], rhs: int
                   ) -> str:
    """Return the killer solver's sentence for cages wholly inside the houses (innies) or
    covering them (outies), "" for any other equation."""
    where = _houses_words(eq.houses)
    plural = len(eq.houses) > 1
    cages = all(c.kind == "killer" and all(a == 1 for _, a in c.terms) and s < 0
                for c, s in eq.taken)
    if not cages:
        return ""
    cells = [v for v, _ in terms]
    placed = len(terms) < len(eq.terms)
    took = -sum(c.rhs * s for c, s in eq.taken)
    inside = all(sum(1 << v for v, _ in c.terms) & ~eq.inside == 0 for c, _ in eq.taken)
    if inside and all(a == 1 for _, a in terms):
        other = "open cells" if placed else "other cells"
        less = ", less its placed values," if placed else ""
        return (f"the cages inside {where} add up to {took}, so {'their' if plural else 'its'} "
                f"{other} {cell_list(lay, cells)}{less} add up to {rhs}")
    if all(a == 1 for _, a in terms) and not any(eq.inside >> v & 1 for v in cells):
        less = ", less the placed values," if placed else ""
        return (f"the cages covering {where} add up to {took}, so the cells sticking out, "
                f"{cell_list(lay, cells)}{less} add up to {rhs}")
    return ""


def _general_words(lay: Layout, eq: Equation, terms: list[tuple[int, int]], rhs: int) -> str:
    """Return what the houses add up to, what the clues take away or add, and the equation
    left on the open cells."""
    away = _named([c for c, s in eq.taken if s < 0])
    back = _named([c for c, s in eq.taken if s > 0])
    adds = " add" if len(eq.houses) > 1 else " adds"
    text = f"{_houses_words(eq.houses)}{adds} up to {eq.total}"
    if away:
        text += f"; less {_listing(away)}"
    if back:
        text += f"; plus {_listing(back)}"
    placed = len(terms) < len(eq.terms)
    return text + (f"{', and the placed values' if placed else ''}, that leaves "
                   f"{_expr(lay, terms, rhs)}")


def _named(clues: list[SumClue]) -> list[str]:
    """Return clue names once each: "(k of its sums)" after one rule taken k times, "(k of
    them)" after k rules named alike."""
    by_words: dict[str, list[str]] = {}
    for c in clues:
        by_words.setdefault(c.words, []).append(c.label)
    return [w if len(labels) == 1 else
            f"{w} ({len(labels)} of {'its sums' if len(set(labels)) == 1 else 'them'})"
            for w, labels in by_words.items()]


def _listing(words: list[str]) -> str:
    """Return clue names joined for a sentence ("a, b and c")."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]



def _they(fits: list[tuple[int, ...]], k: int) -> str:
    """Return the sets sentence for cells that are not a cage ("it is 7", "they can only be
    1+2")."""
    if not fits:
        return "no set of different values fits them"
    if k == 1 and len(fits) == 1:
        return f"it is {fits[0][0]}"
    words = sets_words(fits)
    if k > 1 and words.startswith("holds "):
        return "they hold " + words[len("holds "):]
    return ("it " if k == 1 else "they ") + words
