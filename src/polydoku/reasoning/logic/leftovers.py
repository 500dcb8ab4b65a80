"""The Law of Leftovers, for jigsaw regions (and any house that is not a row or a column).

k rows side by side hold every value k times, and so do any k regions. Take the k regions that
cover most of the rows: the rows' cells outside them (the innies) and the regions' cells
outside the rows (the outies) hold the same values, as many times each. So an innie keeps
only values some outie can hold, and an outie only values some innie can hold. The same with
columns. Finders return the first step they see, or None; none changes the board.
"""

from __future__ import annotations

from functools import partial

from .board import Board, bits, recall
from .layout import House
from .step import Step, cell_list, make_step

NAME = "Law of Leftovers"
MAX_LEFT = 5            # innies (and outies) at most: more is not what a solver looks for


def _bands(lines: tuple[House, ...], regions: list[House]
           ) -> list[tuple[str, int, int, list[House]]]:
    """Return (name, innies mask, outies mask, regions) for every run of k lines side by side
    (k below half their number) with its k regions that cover most of it, when some cells
    are left over on each side."""
    out = []
    n = len(lines)
    for k in range(1, (n + 1) // 2 + 1):
        for a in range(0, n - k + 1):
            band = 0
            for line in lines[a:a + k]:
                band |= line.mask
            chosen: list[House] = []
            cover = 0
            for h in sorted(regions, key=lambda h: -(h.mask & band).bit_count()):
                if len(chosen) < k and not h.mask & cover:    # k regions, no cell twice
                    chosen.append(h)
                    cover |= h.mask
            if len(chosen) < k:
                continue
            innies, outies = band & ~cover, cover & ~band
            if innies and innies.bit_count() <= MAX_LEFT:
                kind = lines[0].kind + "s" if k > 1 else lines[0].kind
                span = f"{a + 1}" if k == 1 else f"{a + 1}-{a + k}"
                out.append((f"{kind} {span}", innies, outies, chosen))
    return out


def find_law_of_leftovers(board: Board) -> Step | None:
    """Return a step where a band of rows (columns) and the regions that cover most of it
    leave innies and outies, and a candidate of one side that no cell of the other can hold
    goes."""
    lay = board.layout
    if lay.is_classic:
        return None
    regions = [h for h in lay.houses if h.kind in ("box", "other")]
    if not regions:
        return None
    masks = board.value_masks()
    for group in ("row", "column"):
        lines = lay.lines[group]
        if len(lines) != lay.size:
            continue
        bands = recall(lay.memo, ("leftovers", group), partial(_bands, lines, regions))
        for name, innies, outies, chosen in bands:
            ins, outs = list(bits(innies)), list(bits(outies))
            have_in = have_out = 0
            for i in ins:
                have_in |= masks[i]
            for i in outs:
                have_out |= masks[i]
            drop = {i: masks[i] & ~have_out for i in ins if masks[i] & ~have_out}
            drop.update({i: masks[i] & ~have_in for i in outs if masks[i] & ~have_in})
            elim = board.losses(drop)
            if elim:
                houses = [h.name for h in chosen]
                return make_step(
                    lay, NAME,
                    f"{name} and {', '.join(houses)} each hold every value "
                    f"{len(chosen)} time{'s' if len(chosen) > 1 else ''}, so the cells left "
                    f"inside the {group}s ({cell_list(lay, ins)}) hold the same values as "
                    f"the cells left outside ({cell_list(lay, outs)})",
                    eliminations=elim, pattern=ins + outs, houses=houses)
    return None
