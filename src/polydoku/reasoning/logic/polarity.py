"""Whispers Polarity: a whispers line whose values are each either low (every value far enough
from it is higher) or high (every such value is lower) alternates low and high along its
length (on 9x9, with a difference of 5: 1-4 and 6-9, 5 fitting nowhere), so the cells at even
places on the line share one polarity and those at odd places the other. Of the two ways
round, one may leave a house that the line crosses unable to hold its low (or high) values:
more cells that must be low than there are low values, fewer cells that can be low than low
values, or a low value with no place left. The other way round then holds. A finder returns
the first step it sees, or None; it does not change the board.
"""

from __future__ import annotations

from ...rules.lines import Whispers
from .board import Board, House
from .step import Step, cell_list, make_step, value_list

NAME = "Whispers Polarity"


def _polarities(rule: Whispers, n: int) -> tuple[int, int]:
    """Return the line's low and high values (bitmasks): those every value far enough from
    them exceeds, and those it stays below; a value with neighbours both ways is in neither."""
    low = high = 0
    for v in range(1, n + 1):
        near = [w for w in range(1, n + 1) if rule.ok(v, w, 1, n)]
        if near and min(near) > v:
            low |= 1 << (v - 1)
        elif near and max(near) < v:
            high |= 1 << (v - 1)
    return low, high


def _short(house: House, masks: list[int], values: int, lay, word: str) -> str:
    """Return why `house`, its cells holding `masks`, cannot hold the values of `values` (its
    low or high ones, `word`) each once, or ""."""
    k = values.bit_count()
    must = sum(1 for m in masks if m and not m & ~values)
    can = sum(1 for m in masks if m & values)
    if must > k:
        return f"{house.name} would have {must} cells for its {k} {word} values"
    if can < k:
        return f"{house.name} would have only {can} cells for its {k} {word} values"
    for v in range(1, lay.size + 1):
        if values >> (v - 1) & 1 and not any(m >> (v - 1) & 1 for m in masks):
            return f"{house.name} would have no place for {lay.sym(v)}"
    if word == "high":
        cells = _unmatched(masks)
        if cells:
            held = 0
            for j in cells:
                held |= masks[j]
            names = cell_list(lay, [house.cells[j] for j in cells])
            return (f"{names} in {house.name} could hold only "
                    f"{value_list(lay, _values(held), ' or ')}")
    return ""


def _unmatched(masks: list[int]) -> list[int]:
    """Return cells (positions in `masks`) that hold fewer values between them than there are
    of them, when the cells cannot hold one value each, all different (a matching of cells
    to values by augmenting paths, whose failed search finds such cells); else []."""
    owner: dict[int, int] = {}          # value bit -> the cell holding it

    def place(i: int, seen: set[int]) -> bool:
        m = masks[i]
        while m:
            bit = m & -m
            m ^= bit
            if bit in seen:
                continue
            seen.add(bit)
            if bit not in owner or place(owner[bit], seen):
                owner[bit] = i
                return True
        return False

    for i in range(len(masks)):
        seen: set[int] = set()
        if not place(i, seen):
            return sorted({i} | {owner[b] for b in seen})
    return []


def _contradiction(board: Board, cands: list[int], trial: dict[int, int], low: int,
                   high: int) -> tuple[str, list[str]]:
    """Return why the candidates `cands` with the line's cells cut to `trial` break some
    house the line crosses (or a cell of it left empty), and that house; ("", []) if
    nothing breaks."""
    lay = board.layout
    for i, m in trial.items():
        if not m:
            return f"{lay.name(i)} would have no candidate", []
    crossed = sorted({h for i in trial for h in lay.cell_houses[i]})
    for h in crossed:
        house = lay.houses[h]
        masks = [trial.get(i, cands[i]) for i in house.cells]
        for values, word in ((low, "low"), (high, "high")):
            why = _short(house, masks, values, lay, word)
            if why:
                return why, [house.name]
    return "", []


def find_whispers_polarity(board: Board) -> Step | None:
    """Return a step where one way round of a whispers line's low and high values breaks a
    house it crosses, so the line's cells keep only the other way's values."""
    lay = board.layout
    puzzle = lay.puzzle
    if lay.is_classic or puzzle is None:
        return None
    g, n = puzzle.geometry, lay.size
    cands = board.value_masks()
    for rule in (r for r in puzzle.rules if isinstance(r, Whispers)):
        idx = [g.index(c) for c in rule.cells]
        low, high = _polarities(rule, n)
        if len(idx) < 2 or any(cands[i] & ~(low | high) for i in idx):
            continue                # a value that fits both ways is still there: no polarity
        classes = (idx[0::2], idx[1::2])
        for side in (0, 1):
            first = set(classes[side])
            trial = {i: cands[i] & (low if i in first else high) for i in idx}
            why, broken = _contradiction(board, cands, trial, low, high)
            if not why:
                continue
            kept = {i: cands[i] & (high if i in first else low) for i in idx}
            elim = [(i, v) for i in idx if not board.value[i]
                    for v in range(1, n + 1) if (cands[i] & ~kept[i]) >> (v - 1) & 1]
            if not elim:
                continue
            lows, highs = value_list(lay, _values(low)), value_list(lay, _values(high))
            return make_step(
                lay, NAME,
                f"the whispers line from {cell_list(lay, idx[:1])} alternates low "
                f"({lows}) and high ({highs}) values, so {cell_list(lay, classes[side])} "
                f"share one and {cell_list(lay, classes[1 - side])} the other; were "
                f"{cell_list(lay, classes[side])} low, {why}: they are high and "
                f"{cell_list(lay, classes[1 - side])} low",
                eliminations=elim, pattern=idx,
                houses=broken)
    return None


def _values(mask: int) -> list[int]:
    return [v + 1 for v in range(mask.bit_length()) if mask >> v & 1]
