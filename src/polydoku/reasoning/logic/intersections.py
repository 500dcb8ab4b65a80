"""Intersections: Pointing and Claiming (locked candidates), and their variant-rule forms.

"Locked Candidates (variant)" and "Cell Forcing" are one idea over the layout's conflicts: when
every place a value can take in a house (or every candidate of one cell) rules out the same
candidate, that candidate goes. With classic rules this is exactly pointing and claiming, so the
variant finders run only when the rules add peers or non-consecutive links. Finders return the
first step they see, or None; none changes the board.
"""

from __future__ import annotations

from itertools import combinations

from .board import Board, House, all_barren, bits, fresh_values, recall, values_of
from .step import Step, cands_of_mask, cell_list, make_step, value_list


def _locked(board: Board, house: House, across: tuple[House, ...], name: str,
            values: list[int]) -> Step | None:
    """Return a step when one of `values` has its places in `house` all in one house of
    `across`."""
    lay = board.layout
    # only the houses of `across` that meet this one can hold its places: those, in order
    meeting = recall(lay.memo, ("crossing", name, house.index),
                     lambda: tuple(h for h in across if h.mask & house.mask))
    for v in values:
        places = board.place_mask(house, v)
        if places.bit_count() < 2:
            continue
        for other in meeting:
            if places & ~other.mask:
                continue
            elim = board.place_mask(other, v) & ~house.mask
            if elim:
                cells = list(bits(places))
                return make_step(lay, name, f"in {house.name}, {lay.sym(v)} lies only in "
                                 f"{other.name} ({cell_list(lay, cells)})",
                                 eliminations=[(i, v) for i in bits(elim)],
                                 pattern_candidates=[(i, v) for i in cells],
                                 houses=[house.name, other.name])
    return None


def _rules(board: Board, froms: list[int], common: int) -> str:
    """Return the variant rules and clues behind a common exclusion, written "anti-knight,
    killer cage 12"."""
    targets = list(bits(common))
    names = dict.fromkeys(board.layout.rules_between(froms, targets))
    for t in targets:
        for f in froms:
            label = board.clue_rule(f, t)
            if label and not board.layout.conflicts[f] >> t & 1:
                names[label] = None
    return ", ".join(names) or "houses"


def find_pointing(board: Board) -> Step | None:
    """Return a Pointing step: a value confined to one row or column inside a box."""
    lines = board.layout.lines
    values = fresh_values(board, "Pointing")      # a single-digit pattern: see fresh_values
    for box in lines["box"]:
        step = _locked(board, box, lines["row"] + lines["column"], "Pointing", values)
        if step:
            return step
    all_barren(board, "Pointing", values)
    return None


def find_claiming(board: Board) -> Step | None:
    """Return a Claiming step: a value confined to one box inside a row or column."""
    lines = board.layout.lines
    values = fresh_values(board, "Claiming")
    for line in lines["row"] + lines["column"]:
        step = _locked(board, line, lines["box"], "Claiming", values)
        if step:
            return step
    all_barren(board, "Claiming", values)
    return None


def find_locked_variant(board: Board) -> Step | None:
    """Return a step where every place of a value in a house rules out the same candidate."""
    lay = board.layout
    if lay.is_classic:
        return None
    live, conflicts = board.live(), board.conflicts()
    for house in lay.houses:
        for v in range(1, lay.size + 1):
            places = list(bits(board.place_mask(house, v)))
            if len(places) < 2:
                continue
            common = live
            for i in places:
                common &= conflicts[lay.cand(i, v)]
                if not common:
                    break
            if common:
                rules = _rules(board, [lay.cand(i, v) for i in places], common)
                return make_step(lay, "Locked Candidates (variant)",
                                 f"wherever {lay.sym(v)} goes in {house.name} "
                                 f"({cell_list(lay, places, 'or')}), it rules out the same "
                                 f"candidates "
                                 f"({rules})", eliminations=cands_of_mask(lay, common),
                                 pattern_candidates=[(i, v) for i in places], houses=[house.name])
    return None


def find_cell_forcing(board: Board) -> Step | None:
    """Return a Cell Forcing step: every candidate of one cell rules out the same candidate."""
    lay = board.layout
    if lay.is_classic:
        return None
    live, conflicts = board.live(), board.conflicts()
    for cell in sorted(board.unsolved(), key=lambda i: board.cand[i].bit_count()):
        values = values_of(board.cand[cell])
        if len(values) < 2:
            continue
        common = live
        for v in values:
            common &= conflicts[lay.cand(cell, v)]
            if not common:
                break
        if common:
            rules = _rules(board, [lay.cand(cell, v) for v in values], common)
            return make_step(lay, "Cell Forcing",
                             f"whichever of {value_list(lay, values)} {lay.name(cell)} holds, "
                             f"it rules out the same candidates ({rules})",
                             eliminations=cands_of_mask(lay, common),
                             pattern_candidates=[(cell, v) for v in values])
    return None


PIGEONHOLE_MAX = 3      # the most values a Pigeonhole step counts in one house


def find_pigeonhole(board: Board) -> Step | None:
    """Return a Pigeonhole step: a candidate whose exclusions would leave k values of a house
    (2 <= k <= PIGEONHOLE_MAX) fewer than k places, so it goes. With k = 1 this is Locked
    Candidates (variant), which comes first; variant rules only, as that is."""
    lay = board.layout
    if lay.is_classic:
        return None
    conflicts, planes = board.conflicts(), board.planes()
    # all a house's search reads is what the candidate rules out there and the places of
    # every value in the house: one searched in vain with both as they stand needs no
    # second look (what the candidate rules out elsewhere may change: clue links)
    state = [tuple([pl & h.mask for pl in planes]) for h in lay.houses]
    inside = recall(lay.memo, ("house candidates",), lambda: _house_candidates(lay))
    for x in board.unsolved():
        for a in values_of(board.cand[x]):
            p = lay.cand(x, a)
            row = conflicts[p]
            kill, houses = _exclusions(lay, x, p, row)
            barren: dict[int, tuple] = recall(lay.memo, ("pigeonhole", p), dict)
            for h in houses:
                seen = (state[h], row & inside[h])
                if barren.get(h) == seen:
                    continue
                step = _pigeonhole_in(board, x, a, kill, lay.houses[h])
                if step:
                    return step
                barren[h] = seen
    return None


def _house_candidates(lay) -> list[int]:
    """Return, per house, every candidate of its cells as one bitset."""
    every = (1 << lay.size) - 1
    return [sum(every << (i * lay.size) for i in h.cells) for h in lay.houses]


def _exclusions(lay, x: int, p: int, row: int) -> tuple[dict[int, int], list[int]]:
    """Return what candidate p (x holding a) rules out, given its conflicts `row`: per value,
    the cells it takes that value from; and the houses those cells lie in, in order."""
    def make() -> tuple[dict[int, int], list[int]]:
        n = lay.size
        kill: dict[int, int] = {}           # value -> the cells x = a takes it from
        houses: set[int] = set()
        for c in bits(row):
            j, v = divmod(c, n)
            if j != x:
                kill[v + 1] = kill.get(v + 1, 0) | 1 << j
                houses.update(lay.cell_houses[j])
        return kill, sorted(houses)
    return recall(lay.memo, ("pigeonhole exclusions", p, row), make)


def _pigeonhole_in(board: Board, x: int, a: int, kill: dict[int, int],
                   house: House) -> Step | None:
    """Return the Pigeonhole step that removes a from x (whose exclusions are `kill`: value ->
    cells) in `house`, where x = a takes some value's places, or None."""
    lay = board.layout
    n, planes, mask = lay.size, board.planes(), house.mask
    # only a value left two places or fewer after losing one can take part (the board itself
    # has room for every value)
    if not any(gone & mask and (planes[v - 1] & mask & ~gone & ~(1 << x)).bit_count()
               < PIGEONHOLE_MAX for v, gone in kill.items()):
        return None
    inside = mask >> x & 1
    left = {}                      # value -> its places left, if fewer than the most
    for v in range(1, n + 1):
        places = planes[v - 1] & mask
        if not places or (inside and v == a):   # placed, or x = a places it
            continue
        after = places & ~kill.get(v, 0) & ~(1 << x)
        if after.bit_count() < PIGEONHOLE_MAX:
            left[v] = after
    return _pigeonhole(board, x, a, house, left, kill)


def _pigeonhole(board: Board, x: int, a: int, house: House, left: dict[int, int],
                kill: dict[int, int]) -> Step | None:
    """Return the Pigeonhole step of x holding a in `house`, given the values left fewer than
    PIGEONHOLE_MAX places there (value -> cells), or None."""
    lay = board.layout
    few = sorted(left)
    for k in range(2, PIGEONHOLE_MAX + 1):
        for values in combinations(few, k):
            cells = 0
            for v in values:
                cells |= left[v]
            if cells.bit_count() >= k:
                continue
            lost = [(i, v) for v in values for i in bits(kill.get(v, 0) & house.mask)]
            rules = _rules(board, [lay.cand(x, a)], sum(1 << lay.cand(i, v) for i, v in lost))
            where = cell_list(lay, bits(cells), "and") if cells else "no cell"
            return make_step(lay, "Pigeonhole",
                             f"if {lay.name(x)} were {lay.sym(a)}, it would rule out "
                             f"{value_list(lay, list(values))} in {house.name} everywhere but "
                             f"{where} ({rules}): {k} values for {cells.bit_count()} "
                             f"cell{'s' if cells.bit_count() != 1 else ''}",
                             eliminations=[(x, a)],
                             pattern_candidates=[(x, a)] + [(i, v) for v in values
                                                            for i in bits(left[v])],
                             houses=[house.name])
    return None
