"""Fish: X-Wing, Swordfish, Jellyfish, and their finned and sashimi forms.

n base lines (rows, or columns) whose places for a value lie in n cover lines: the value takes
one place per cover line inside the base lines, so it leaves the rest of the cover lines. With
fins (extra places, all in one box) the same holds for cover cells inside the fins' box.
Finders return the first step they see, or None; none changes the board.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations
from typing import Callable, Iterator

from .board import Board, House, Layout, bits, compiled_core, first_per_digit, recall
from .step import Step, cell_list, make_step

BASIC = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}
FINNED = {2: "Finned X-Wing", 3: "Finned Swordfish", 4: "Finned Jellyfish"}
SASHIMI = {2: "Sashimi X-Wing", 3: "Sashimi Swordfish", 4: "Sashimi Jellyfish"}

Orientation = tuple[list[House], list[House], Callable[[int], int]]


def _orientations(board: Board) -> Iterator[Orientation]:
    """Yield (base lines, cover lines by index, cover index of a cell): rows first, then columns."""
    lay = board.layout
    n = lay.size
    rows = sorted(lay.lines["row"], key=lambda h: h.cells[0] // n)
    cols = sorted(lay.lines["column"], key=lambda h: h.cells[0] % n)
    if len(rows) == n and len(cols) == n:
        yield rows, cols, _projector(n, True)
        yield cols, rows, _projector(n, False)


@cache
def _projector(n: int, by_column: bool) -> Callable[[int], int]:
    """Return the function from a cell to its column (or row) number; one object per (n,
    orientation), so that `_index_mask` can remember its answers."""
    if by_column:
        return lambda cell: cell % n
    return lambda cell: cell // n


_INDEX_MASKS: dict[tuple[Callable[[int], int], int], int] = {}


def _index_mask(places: int, index: Callable[[int], int]) -> int:
    """Return the cover indices of a bitset of cells, as a bitset (remembered: the same
    places come back on every board of a path)."""
    key = (index, places)
    out = _INDEX_MASKS.get(key)
    if out is None:
        out = 0
        for i in bits(places):
            out |= 1 << index(i)
        if len(_INDEX_MASKS) > 500_000:
            _INDEX_MASKS.clear()
        _INDEX_MASKS[key] = out
    return out


def _names(houses: list[House]) -> str:
    """Return "rows 2 and 7" style names for a list of lines of one kind."""
    kind = houses[0].name.split()[0]
    numbers = [h.name.split()[-1] for h in houses]
    if len(numbers) == 1:
        return f"{kind} {numbers[0]}"
    return f"{kind}s {', '.join(numbers[:-1])} and {numbers[-1]}"


def find_basic_fish(board: Board, n: int) -> Step | None:
    """Return a basic fish of size n (2 X-Wing, 3 Swordfish, 4 Jellyfish)."""
    return first_per_digit(board, ("basic fish", n), lambda v: _basic_fish(board, n, v))


def _basic_fish(board: Board, n: int, v: int) -> Step | None:
    """Return a basic fish of size n on value v, or None."""
    lay = board.layout
    for bases, covers, index in _orientations(board):
        lines = []
        for h in bases:
            places = board.place_mask(h, v)
            if 2 <= places.bit_count() <= n:
                lines.append((h, places, _index_mask(places, index)))
        for combo in combinations(lines, n):
            union = 0
            for _, _, m in combo:
                union |= m
            if union.bit_count() != n:
                continue
            inside = sum(p for _, p, _ in combo)
            cover = [covers[k] for k in bits(union)]
            elim = [(i, v) for c in cover for i in bits(board.place_mask(c, v) & ~inside)]
            if elim:
                base = [h for h, _, _ in combo]
                return make_step(lay, BASIC[n], f"in {_names(base)}, {lay.sym(v)} lies only in "
                                 f"{_names(cover)}", eliminations=elim,
                                 pattern_candidates=[(i, v) for i in bits(inside)],
                                 houses=[h.name for h in base + cover])
    return None


def find_finned_fish(board: Board, n: int) -> Step | None:
    """Return a finned or sashimi fish of size n whose fins lie in one box."""
    return first_per_digit(board, ("finned fish", n), lambda v: _finned_fish(board, n, v))


def _finned_fish(board: Board, n: int, v: int) -> Step | None:
    """Return a finned or sashimi fish of size n on value v, or None."""
    lay = board.layout
    boxes = lay.lines["box"]
    width = max(lay.box_shape) or lay.size
    core = compiled_core()
    if core is not None and boxes and lay.size <= 32:
        return _compiled_finned(core, board, n, v, width)
    return _python_finned(board, n, v, width)


def _box_of(lay: Layout) -> bytes:
    """Return the box number of every cell, 255 for none (remembered on the layout)."""
    def make() -> bytes:
        table = bytearray([255]) * lay.ncells
        for k, box in enumerate(lay.lines["box"]):
            for i in box.cells:
                table[i] = k
        return bytes(table)
    return recall(lay.memo, ("box of",), make)


def _compiled_finned(core, board: Board, n: int, v: int, width: int) -> Step | None:
    """Return what `_python_finned` returns, found by the compiled core (`finned_fish` in
    _core.c, the same search in the same order); the step is written here, by the same code."""
    lay = board.layout
    size = 8 * lay.words                 # the value's plane, as packed_planes() holds it
    plane = board.packed_planes()[(v - 1) * size:v * size]
    found = core.finned_fish(plane, lay.size, _box_of(lay), n, width)
    if found is None:
        return None
    orient, numbers, b = found
    bases, covers, index = list(_orientations(board))[orient]
    combo = []
    for r in numbers:
        places = board.place_mask(bases[r], v)
        combo.append((bases[r], places, _index_mask(places, index)))
    box = lay.lines["box"][b]
    step = _finned_combo(board, v, combo, (box,), [_index_mask(box.mask, index)], covers, index, n)
    return step or _python_finned(board, n, v, width)    # never: the two searches agree


def _python_finned(board: Board, n: int, v: int, width: int) -> Step | None:
    """Return a finned or sashimi fish of size n on value v, or None (the search in Python)."""
    lay = board.layout
    boxes = lay.lines["box"]
    for bases, covers, index in _orientations(board):
        box_idx = [_index_mask(b.mask, index) for b in boxes]
        lines = []
        for h in bases:
            places = board.place_mask(h, v)
            idx = _index_mask(places, index)
            if places and idx.bit_count() <= n + width:
                lines.append((h, places, idx))
        most = n + width                  # a fin box covers at most `width` indices
        for combo in combinations(lines, n):
            union = 0
            for line in combo:
                union |= line[2]
            if union.bit_count() > most:
                continue
            step = _finned_combo(board, v, combo, boxes, box_idx, covers, index, n)
            if step:
                return step
    return None


def _finned_combo(board: Board, v: int, combo, boxes: tuple[House, ...], box_idx: list[int],
                  covers: list[House], index: Callable[[int], int], n: int) -> Step | None:
    """Return a finned fish on the base lines of `combo`, trying each box for the fins."""
    inside = union = lines = 0
    for h, p, idx in combo:
        inside |= p
        union |= idx
        lines |= h.mask
    plane = board.planes()[v - 1]
    for box, bidx in zip(boxes, box_idx):
        if not inside & box.mask or (union & ~bidx).bit_count() > n:
            continue
        if not plane & box.mask & ~lines:        # nothing to eliminate in this box
            continue
        outside = 0
        for h, _p, idx in combo:
            outside |= idx & ~bidx if h.mask & box.mask else idx
        if outside.bit_count() <= n:
            step = _finned_in_box(board, v, combo, inside, outside, box, bidx, covers, n)
            if step:
                return step
    return None


def _finned_in_box(board: Board, v: int, combo, inside: int, outside: int, box: House,
                   bidx: int, covers: list[House], n: int) -> Step | None:
    """Return a finned fish on base lines `combo` with its fins in `box`, or None."""
    spare = n - outside.bit_count()
    free = bidx & ~outside
    for extra in combinations(list(bits(free)), min(spare, free.bit_count())):
        cover_idx = outside | sum(1 << k for k in extra)
        cover_cells = sum(covers[k].mask for k in bits(cover_idx))
        fins = inside & ~cover_cells
        if not fins:
            continue
        targets = cover_cells & box.mask & ~sum(h.mask for h, _, _ in combo)
        elim = [(i, v) for i in bits(targets) if board.has(i, v)]
        if not elim:
            continue
        body = [p & cover_cells for _, p, _ in combo]
        name = (SASHIMI if min(b.bit_count() for b in body) <= 1 else FINNED)[n]
        base = [h for h, _, _ in combo]
        cover = [covers[k] for k in bits(cover_idx)]
        lay = board.layout
        return make_step(lay, name, f"in {_names(base)}, {lay.sym(v)} lies only in "
                         f"{_names(cover)} apart from the fin{'s' if fins & (fins - 1) else ''} "
                         f"{cell_list(lay, bits(fins))} in {box.name}", eliminations=elim,
                         pattern_candidates=[(i, v) for i in bits(inside)],
                         houses=[h.name for h in base + cover] + [box.name])
    return None
