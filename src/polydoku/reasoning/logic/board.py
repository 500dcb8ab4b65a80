"""The candidate board a person pencils in: placed values and per-cell candidate bitmasks over
a problem's layout (layout.py), and the helpers techniques share to search it and remember
what they found nothing in. Nothing here finds techniques.

Candidates are numbered `cell * N + value - 1`; sets of candidates and sets of cells are Python
ints used as bitsets (fast AND/OR over 729 or 81 bits).
"""

from __future__ import annotations

from array import array
from typing import Callable, Iterable, Sequence, TypeVar

# the layout's names are the board's vocabulary too: techniques import them from here
from .clue_filters import clue_links
from .mirror_groups import mirror_links
from .layout import House, Layout, bits, layout_of, recall, remember, values_of

__all__ = ["Board", "House", "Layout", "all_barren", "bits", "compiled_core", "first_per_digit",
           "fresh_values", "layout_of", "recall", "region_state", "remember", "values_of"]


T = TypeVar("T")

USE_COMPILED = True          # False: the searches that have a compiled twin run in Python


def compiled_core():
    """Return the compiled core module when the native engine runs it (not with
    POLYDOKU_NATIVE=python) and USE_COMPILED is on, else None: the chain and ALS searches
    then run in Python (tests hold the two to the same steps)."""
    if not USE_COMPILED:
        return None
    from ... import core
    return core.module()


def first_per_digit(board: "Board", key: object, search: Callable[[int], T | None]) -> T | None:
    """Return search(v) for the first value v (1..N) it finds something for, else None.

    For a single-digit pattern (fish, skyscraper, kite, empty rectangle, colouring), what
    search(v) finds depends only on the cells that can still hold v and on the layout, so a
    value whose candidate cells are ones this search already found nothing in is passed over
    (the layout remembers them): a solve path asks every finder again after each step, and
    most steps leave most values' cells as they were. The answer is the same as asking every
    value, in the same order."""
    barren = board.layout.barren
    planes = board.planes()
    for v in range(1, board.layout.size + 1):
        seen = (key, v, planes[v - 1])
        if seen in barren:
            continue
        found = search(v)
        if found is not None:
            return found
        remember(barren, seen, None)
    return None


def fresh_values(board: "Board", key: object) -> list[int]:
    """Return the values whose candidate cells a single-digit search (`key`) has not already
    searched in vain (see `first_per_digit`), for searches that loop over houses first."""
    barren, planes = board.layout.barren, board.planes()
    return [v for v in range(1, board.layout.size + 1) if (key, v, planes[v - 1]) not in barren]


def all_barren(board: "Board", key: object, values: list[int]) -> None:
    """Remember that a single-digit search found nothing for any of `values` as they stand."""
    planes = board.planes()
    for v in values:
        remember(board.layout.barren, (key, v, planes[v - 1]), None)


def region_state(board: "Board", cells: Sequence[int]) -> tuple[int, ...]:
    """Return the candidates of `cells` (0 for a placed cell): all a search confined to them
    reads, so a key to remember that it found nothing there."""
    val, cand = board.value, board.cand
    return tuple([0 if val[i] else cand[i] for i in cells])


class Board:
    """Placed values and the candidates of the other cells (bit v-1 of `cand[i]` = v possible)."""

    def __init__(self, layout: Layout, values: Sequence[int], givens: Sequence[int] | None = None,
                 *, unique: bool = False):
        self.layout = layout
        n = layout.size
        self.value = [0] * (n * n)
        self.cand = [(1 << n) - 1] * (n * n)
        self.given = tuple(bool(v) for v in (givens if givens is not None else values))
        self.unique = unique          # uniqueness techniques allowed (proved unique, classic rules)
        self._planes: list[int] | None = None   # per value: the cells that can hold it (cache)
        self._open: bytes | None = None         # open_cand()'s answer (cache)
        self._packed: bytes | None = None       # packed_planes()'s answer (cache)
        self._conflicts: tuple[Sequence[int], dict[tuple[int, int], str]] | None = None
        for i, v in enumerate(values):
            if v:
                self.place(i, v)

    def copy(self) -> "Board":
        """Return an independent copy of this board."""
        other = Board.__new__(Board)
        other.layout, other.given, other.unique = self.layout, self.given, self.unique
        other.value, other.cand = self.value[:], self.cand[:]
        other._planes = self._planes
        other._open = self._open
        other._packed = self._packed
        other._conflicts = self._conflicts
        return other

    def place(self, cell: int, value: int) -> None:
        """Place `value` in `cell` and remove every candidate it excludes."""
        n = self.layout.size
        self._planes = self._conflicts = self._open = self._packed = None
        self.value[cell] = value
        self.cand[cell] = 1 << (value - 1)
        val, cand = self.value, self.cand
        for j, keep in self.layout.excluded(cell * n + value - 1):
            if not val[j]:
                cand[j] &= keep

    def eliminate(self, cell: int, value: int) -> None:
        """Remove a candidate from an unplaced cell."""
        if not self.value[cell]:
            self.cand[cell] &= ~(1 << (value - 1))
            self._planes = self._conflicts = self._open = self._packed = None

    def has(self, cell: int, value: int) -> bool:
        """Return whether an unplaced cell still has `value` as a candidate."""
        return not self.value[cell] and bool(self.cand[cell] >> (value - 1) & 1)

    def seen_by_all(self, value: int, cells: Sequence[int], skip: Iterable[int] = ()
                    ) -> list[tuple[int, int]]:
        """Return the candidates of `value` in the cells (not `cells`, not `skip`) that see
        every one of `cells`: what a pattern ending in those cells removes."""
        seen = -1
        for i in cells:
            seen &= self.layout.peers[i]
        out = set(cells) | set(skip)
        return [(j, value) for j in bits(seen) if j not in out and self.has(j, value)]

    def unsolved(self) -> list[int]:
        """Return the cells without a value, in order."""
        return [i for i, v in enumerate(self.value) if not v]

    def value_masks(self) -> list[int]:
        """Return every cell's candidates as a value bitmask, a placed cell's as its value's
        one bit (what a rule's `deduce` reads)."""
        return [1 << (v - 1) if v else c for v, c in zip(self.value, self.cand)]

    def losses(self, drop: dict[int, int]) -> list[tuple[int, int]]:
        """Return the (cell, value) candidates of unsolved cells that `drop` (cell -> value
        bitmask of what goes) removes, in cell order."""
        return [(i, v) for i, mask in sorted(drop.items()) if not self.value[i]
                for v in values_of(mask & self.cand[i])]

    def claimed(self, places: list[int], value: int, houses: Iterable[House]
                ) -> tuple[House, list[tuple[int, int]]] | None:
        """Return the first of `houses` holding all of `places` in which `value` loses
        candidates elsewhere, with those (cell, value) losses: a value a clue must hold only
        there is claimed from the rest of the house; None when no house loses any."""
        pmask = sum(1 << i for i in places)
        for h in houses:
            if not pmask & ~h.mask:
                elim = self.losses({i: 1 << (value - 1) for i in bits(h.mask & ~pmask)})
                if elim:
                    return h, elim
        return None

    def is_solved(self) -> bool:
        """Return whether every cell holds a value."""
        return all(self.value)

    def places(self, house: House, value: int) -> list[int]:
        """Return the unplaced cells of `house` that can still hold `value`."""
        bit, cand, val = 1 << (value - 1), self.cand, self.value
        return [i for i in house.cells if not val[i] and cand[i] & bit]

    def place_mask(self, house: House, value: int) -> int:
        """Return the cells of `house` that can still hold `value`, as a bitset."""
        planes = self._planes
        if planes is None:
            planes = self.planes()
        return planes[value - 1] & house.mask

    def conflicts(self) -> Sequence[int]:
        """Return, per candidate, the candidates it rules out: the layout's (the rules), and
        where clues (sums, tables) allow two candidates only apart given the candidates left,
        those too (`clue_links`); kept until the board changes."""
        return self._clue_view()[0]

    def clue_rule(self, p: int, q: int) -> str:
        """Return the clue that keeps candidates p and q apart on this board ("" for none)."""
        return self._clue_view()[1].get((min(p, q), max(p, q)), "")

    def _clue_view(self) -> tuple[Sequence[int], dict[tuple[int, int], str]]:
        if self._conflicts is None:
            lay = self.layout
            # cells holding one value (palindromes, clones) see what the others see
            links = mirror_links(lay) if not lay.is_classic else []
            if not lay.unread and not links:
                self._conflicts = (lay.conflicts, {})
            else:
                links = (clue_links(lay, self.value_masks()) if lay.unread else []) + links
                if not links:
                    self._conflicts = (lay.conflicts, {})
                else:
                    conf = list(lay.conflicts)
                    labels: dict[tuple[int, int], str] = {}
                    for p, q, label in links:
                        conf[p] |= 1 << q
                        conf[q] |= 1 << p
                        labels.setdefault((min(p, q), max(p, q)), label)
                    self._conflicts = (conf, labels)
        return self._conflicts

    def planes(self) -> list[int]:
        """Return, per value (index value - 1), the unplaced cells that can hold it as one
        bitset; kept until the board changes (`place` and `eliminate` drop it)."""
        if self._planes is None:
            n = self.layout.size
            if n <= 32 and compiled_core() is not None:
                size, packed = 8 * self.layout.words, self.packed_planes()
                self._planes = [int.from_bytes(packed[k * size:(k + 1) * size], "little")
                                for k in range(n)]
                return self._planes
            planes = [0] * n
            val, cand = self.value, self.cand
            for i in range(n * n):
                if not val[i]:
                    c = cand[i]
                    while c:
                        low = c & -c
                        planes[low.bit_length() - 1] |= 1 << i
                        c ^= low
            self._planes = planes
        return self._planes

    def packed_planes(self) -> bytes:
        """Return `planes()` as the compiled searches read them (`Layout.cell_sets`): written
        by the compiled core from `open_cand()` up to 32 values; kept until the board
        changes."""
        if self._packed is None:
            n = self.layout.size
            core = compiled_core()
            if core is not None and n <= 32:
                self._packed = core.planes(self.open_cand(), n, self.layout.words)
            else:
                self._packed = self.layout.cell_sets(self.planes())
        return self._packed

    def open_cand(self) -> bytes:
        """Return every cell's candidates as uint32, 0 for a placed cell (what the compiled
        searches read); kept until the board changes."""
        if self._open is None:
            self._open = array("I", [0 if v else c for v, c in zip(self.value, self.cand)]
                                ).tobytes()
        return self._open

    def live(self) -> int:
        """Return the candidates of every unplaced cell as one bitset."""
        n, out = self.layout.size, 0
        for i, v in enumerate(self.value):
            if not v:
                out |= self.cand[i] << (i * n)
        return out

    def count(self) -> int:
        """Return how many candidates the unplaced cells still have."""
        return sum(self.cand[i].bit_count() for i, v in enumerate(self.value) if not v)

    def contradiction(self) -> str | None:
        """Return why this board cannot be completed at a glance (a cell or house with no room), or None."""
        for i, v in enumerate(self.value):
            if not v and not self.cand[i]:
                return f"{self.layout.name(i)} has no candidate left"
        full = (1 << self.layout.size) - 1
        for h in self.layout.houses:
            seen = 0
            for i in h.cells:
                seen |= self.cand[i]
            if seen != full:
                missing = values_of(full & ~seen)[0]
                return f"{h.name} has no place for {self.layout.sym(missing)}"
        return None
