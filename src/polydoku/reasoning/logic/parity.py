"""Sum Parity: a sum's parity fixes how many odd values its cells hold.

A value is odd or even, so a total is odd exactly when its cells hold an odd count of odd
values (a cell counted twice adds an even amount and drops out). Every known sum says so: a
killer cage, a little killer, an arrow read as "shaft less circle is 0", the 45 rule's
equations (rule45.py), and every house (1..9 holds five odd values). When all of a sum's
cells but one have a known parity (placed, or every candidate odd, or every candidate even),
the last one's parity follows. Two sums that differ by one such cell do the same: added
together, the cells they share cancel ("box 8 adds up to 45, and box 8 with box 9 less the
cages makes r7c7 + ... = 52: the cells they do not share hold an odd count of odd values").
Finders return the first step they see, or None; none changes the board.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board, Layout, bits, remember
from .rule45 import _expr, equations, sum_clues
from .step import Step, cell_list, make_step

NAME = "Sum Parity"


@dataclass(frozen=True)
class Sum:
    """A known sum: its cells counted an odd number of times, its total, and its words."""

    odd_cells: int                  # bitset of the cells with an odd coefficient
    rhs: int
    words: str                      # "the cage (15) at r1c1..r1c3 adds up to 15"
    houses: tuple[str, ...]
    plain: bool = True              # every cell counted once (a cage, a house)


def sums(layout: Layout) -> list[Sum]:
    """Return the layout's known sums (worked out once): the clues of known total, the 45
    rule's equations and the houses that hold every value."""
    key = ("parity sums",)
    found = layout.memo.get(key)
    if found is None:
        found = _sums(layout)
        remember(layout.memo, key, found)
    return found        # type: ignore[return-value]


def _sums(layout: Layout) -> list[Sum]:
    n = layout.size
    out: list[Sum] = []
    for h in layout.houses:
        if len(h.cells) == n:
            out.append(Sum(h.mask, n * (n + 1) // 2, f"{h.name} adds up to {n * (n + 1) // 2}",
                           (h.name,)))
    for c in sum_clues(layout):
        odd = sum(1 << v for v, a in c.terms if a % 2)
        if odd:
            out.append(Sum(odd, c.rhs, f"{c.words} makes {_expr(layout, list(c.terms), c.rhs)}",
                           (), all(abs(a) == 1 for _, a in c.terms)))
    for eq in equations(layout):
        odd = sum(1 << v for v, a in eq.terms if a % 2)
        if odd:
            names = eq.houses[0] if len(eq.houses) == 1 else \
                ", ".join(eq.houses[:-1]) + " and " + eq.houses[-1]
            out.append(Sum(odd, eq.rhs, f"the 45 rule on {names} makes "
                           f"{_expr(layout, list(eq.terms), eq.rhs)}", eq.houses,
                           all(abs(a) == 1 for _, a in eq.terms)))
    return out


def find_sum_parity(board: Board) -> Step | None:
    """Return the first step where a sum (or two sums added together) leaves one cell of
    unknown parity, which loses its candidates of the other parity."""
    lay = board.layout
    if lay.is_classic or not lay.unread:
        return None
    puzzle = lay.puzzle
    if puzzle is not None and puzzle.geometry.low != 1:
        return None                 # the sums add up value indices, not the grid's values
    n = lay.size
    odd_vals = sum(1 << k for k in range(0, n, 2))      # the values 1, 3, 5...
    even_vals = ((1 << n) - 1) & ~odd_vals
    known_odd = known_even = 0
    for i, (v, c) in enumerate(zip(board.value, board.cand)):
        if v:
            known_odd |= (v % 2) << i
            known_even |= (1 - v % 2) << i
        elif not c & even_vals:
            known_odd |= 1 << i
        elif not c & odd_vals:
            known_even |= 1 << i
    known = known_odd | known_even
    key = ("sum parity", known_odd, known_even)
    if key in lay.barren:
        return None
    found = sums(lay)
    by_open: dict[int, list[Sum]] = {}
    for s in found:
        by_open.setdefault(s.odd_cells & ~known, []).append(s)
    for s in found:                 # one sum alone first, then two added together
        mixed = s.odd_cells & ~known
        if mixed and not mixed & (mixed - 1):
            return _step(board, [s], mixed, known_odd, odd_vals, even_vals)
    for s in found:
        mixed = s.odd_cells & ~known
        for v in bits(mixed):
            for t in by_open.get(mixed & ~(1 << v), ()):
                return _step(board, [s, t], 1 << v, known_odd, odd_vals, even_vals)
    remember(lay.barren, key, None)
    return None


def _step(board: Board, used: list[Sum], cell_bit: int, known_odd: int, odd_vals: int,
          even_vals: int) -> Step:
    """Return the step that fixes the parity of the one cell left by the sums `used`."""
    lay = board.layout
    cell = cell_bit.bit_length() - 1
    cells = used[0].odd_cells if len(used) == 1 else used[0].odd_cells ^ used[1].odd_cells
    total = sum(s.rhs for s in used)
    # the odd count of the cells: the total's parity, less the odd cells already known
    others = cells & ~cell_bit
    odd_known = bin(others & known_odd).count("1")
    odd = (total - odd_known) % 2 == 1
    keep = odd_vals if odd else even_vals
    elim = board.losses({cell: board.cand[cell] & ~keep})
    words = used[0].words if len(used) == 1 else f"{used[0].words}, and {used[1].words}"
    if len(used) == 1:
        whose = "its cells" if used[0].plain else "its cells counted an odd number of times"
    else:
        whose = "added together, the cells counted an odd number of times"
    count = "an odd" if total % 2 else "an even"
    told = [_are(lay, others & known_odd, "odd"), _are(lay, others & ~known_odd, "even")]
    known_words = " and ".join(t for t in told if t)
    reason = (f"{words}; so {whose} hold {count} count of odd values"
              + (f"; of them {known_words} (placed or by their candidates)" if known_words
                 else "")
              + f", which leaves {lay.name(cell)} {'odd' if odd else 'even'}")
    houses = tuple(h for s in used for h in s.houses)
    return make_step(lay, NAME, reason, eliminations=elim, pattern=list(bits(cells)),
                     houses=houses)


def _are(lay: Layout, cells: int, what: str) -> str:
    """Return "r1c1 is odd" or "r1c1 and r2c2 are odd" ("" for no cells)."""
    if not cells:
        return ""
    return f"{cell_list(lay, bits(cells))} {'is' if cells & (cells - 1) == 0 else 'are'} {what}"
