"""Lines crossing houses: "Whispers Neighbours", "Region-Sum Totals" and "Renban Claiming".
A whispers cell between two neighbours on the line that see each other needs two different
values far enough from its own (on 9x9 a 4 needs 9 on both sides, so it cannot be there). A region-sum line's
segments (its runs inside one box, different values each) make the same total: only the totals
every segment can still make remain, and a segment's cells keep the values of the fillings that
make one of them. A renban line of k cells holds a run of k
consecutive values; the values every run its cells can still fill shares must be on the line, and
when the line's places for such a value all lie in one house, the value is on the line there and
leaves the house's other cells (pointing through the line). Finders return the first step they
see, or None; none changes the board.
"""

from __future__ import annotations

from ...rules.lines import RegionSum, Renban, Whispers
from .board import Board
from .step import Step, cell_list, make_step

NAME = "Renban Claiming"
TOTALS = "Region-Sum Totals"
WHISPERS = "Whispers Neighbours"
MAX_SEGMENT = 7             # longer segments are left to Constraint Propagation


def _segment_sums(masks: list[int]) -> dict[int, list[int]]:
    """Return, per total that different values from `masks` (one per cell) can make, the
    values each cell uses in some filling of that total."""
    out: dict[int, list[int]] = {}
    chosen: list[int] = []

    def walk(k: int, used: int, total: int) -> None:
        if k == len(masks):
            keep = out.setdefault(total, [0] * len(masks))
            for j, bit in enumerate(chosen):
                keep[j] |= bit
            return
        free = masks[k] & ~used
        while free:
            bit = free & -free
            free ^= bit
            chosen.append(bit)
            walk(k + 1, used | bit, total + bit.bit_length())
            chosen.pop()

    walk(0, 0, 0)
    return out


def find_region_sum_totals(board: Board) -> Step | None:
    """Return a step where a region-sum line's segments share only some totals and a cell
    loses the values no filling of those totals uses."""
    lay = board.layout
    puzzle = lay.puzzle
    if lay.is_classic or puzzle is None or puzzle.geometry.low != 1:
        return None                 # (its totals add up value indices: the values are 1..N)
    g = puzzle.geometry
    cands = board.value_masks()
    for rule in (r for r in puzzle.rules if isinstance(r, RegionSum)):
        segs = [[g.index(rule.cells[k]) for k in seg] for seg in rule.segments(g)]
        if len(segs) < 2 or max(len(s) for s in segs) > MAX_SEGMENT:
            continue
        sums = [_segment_sums([cands[i] for i in seg]) for seg in segs]
        common = set(sums[0]).intersection(*sums[1:])
        drop: dict[int, int] = {}
        for seg, by_total in zip(segs, sums):
            for j, i in enumerate(seg):
                keep = 0
                for t in common:
                    keep |= by_total[t][j]
                if cands[i] & ~keep:
                    drop[i] = cands[i] & ~keep
        elim = board.losses(drop)
        if elim:
            totals = "/".join(str(t) for t in sorted(common)) or "no total"
            return make_step(
                lay, TOTALS,
                f"the {len(segs)} segments of the region-sum line from "
                f"{cell_list(lay, segs[0][:1])} (one per box, different values each) can all "
                f"make only {totals}", eliminations=elim,
                pattern=[i for seg in segs for i in seg])
    return None


def _must(masks: list[int], n: int) -> tuple[int, list[int]]:
    """Return the values (a bitmask) every run the line's cells can fill contains, and the
    lowest values of those runs."""
    k = len(masks)
    union = 0
    for m in masks:
        union |= m
    fits = []
    for lo in range(1, n - k + 2):
        run = ((1 << k) - 1) << (lo - 1)
        if all(m & run for m in masks) and (run & union) == run:
            fits.append(lo)
    must = (1 << n) - 1 if fits else 0
    for lo in fits:
        must &= ((1 << k) - 1) << (lo - 1)
    return must, fits


def find_renban_claiming(board: Board) -> Step | None:
    """Return a step where a value a renban line must hold has all its places on the line in
    one house, and that house's other cells lose it."""
    lay = board.layout
    puzzle = lay.puzzle
    if lay.is_classic or puzzle is None:
        return None
    lines = [r for r in puzzle.rules if isinstance(r, Renban)]
    if not lines:
        return None
    g, n = puzzle.geometry, lay.size
    cands = board.value_masks()
    houses = [h for group in lay.lines.values() for h in group]
    for rule in lines:
        idx = [g.index(c) for c in rule.cells]
        must, fits = _must([cands[i] for i in idx], n)
        for v in range(1, n + 1):
            if not must >> (v - 1) & 1 or any(board.value[i] == v for i in idx):
                continue
            places = [i for i in idx if cands[i] >> (v - 1) & 1]
            claim = board.claimed(places, v, houses)
            if claim:
                h, elim = claim
                k = len(idx)
                runs = " or ".join(f"{lo}-{lo + k - 1}" for lo in fits)
                return make_step(
                    lay, NAME,
                    f"the renban line from {cell_list(lay, idx[:1])} holds {k} consecutive "
                    f"values ({runs}), so it holds {lay.sym(v)}, which on the line can go "
                    f"only in {cell_list(lay, places)}, all in {h.name}",
                    eliminations=elim, pattern=idx,
                    pattern_candidates=[(i, v) for i in places], houses=[h.name])
    return None


def _pinched(rule: Whispers, v: int, sides: tuple[int, int], n: int) -> tuple[int, int] | None:
    """Return the candidates of the two neighbours that agree with `v` when they cannot
    hold two different ones (None when they can)."""
    fit = tuple(sum(1 << (w - 1) for w in range(1, n + 1) if m >> (w - 1) & 1
                    and rule.ok(v, w, 1, n)) for m in sides)
    a, b = fit
    if not a or not b or (a == b and a.bit_count() == 1):
        return a, b
    return None


def find_whispers_neighbours(board: Board) -> Step | None:
    """Return a step where a whispers cell's two neighbours on the line see each other and
    cannot both hold a value far enough from one of its candidates."""
    lay = board.layout
    puzzle = lay.puzzle
    if lay.is_classic or puzzle is None:
        return None
    g, n = puzzle.geometry, lay.size
    cands = board.value_masks()
    for rule in (r for r in puzzle.rules if isinstance(r, Whispers)):
        idx = [g.index(c) for c in rule.cells]
        for k in range(1, len(idx) - 1):
            x, y, z = idx[k - 1], idx[k], idx[k + 1]
            if board.value[y] or not lay.sees(x, z):
                continue
            for v in range(1, n + 1):
                if not cands[y] >> (v - 1) & 1:
                    continue
                fit = _pinched(rule, v, (cands[x], cands[z]), n)
                if fit is None:
                    continue
                need = "/".join(str(w) for w in range(1, n + 1) if (fit[0] | fit[1]) >> (w - 1) & 1)
                return make_step(
                    lay, WHISPERS,
                    f"on the whispers line from {cell_list(lay, idx[:1])}, "
                    f"{rule.rule_words()}; "
                    f"{cell_list(lay, [y])} = {lay.sym(v)} would leave its neighbours "
                    f"{cell_list(lay, [x, z])}, which see each other, only {need or 'nothing'}",
                    eliminations=[(y, v)], pattern=[x, y, z],
                    pattern_candidates=[(y, v)])
    return None
