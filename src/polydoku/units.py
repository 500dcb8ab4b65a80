"""The units and peers of a classic grid (rows, columns, rectangular boxes) and where two units
cross, as the compiled core reads them. Imports nothing of the model, so the express lane of
`polydoku solve` (cli/express.py) builds its core without it; the native engine's own
compilation gives the same lists for a classic puzzle (tests/test_express.py holds them equal)."""

from __future__ import annotations

from functools import lru_cache


def classic_units(size: int, box_rows: int, box_cols: int) -> list[tuple[int, ...]]:
    """Return the rows, then the columns, then the boxes (row-major) of a size x size grid."""
    rows = [tuple(r * size + c for c in range(size)) for r in range(size)]
    cols = [tuple(r * size + c for r in range(size)) for c in range(size)]
    boxes = [tuple((top + r) * size + left + c for r in range(box_rows) for c in range(box_cols))
             for top in range(0, size, box_rows) for left in range(0, size, box_cols)]
    return rows + cols + boxes


def crossings(units: list[tuple[int, ...]]) -> tuple:
    """Return, for each two units meeting in two cells or more (a box and a line), the cells
    they share and the rest of each: locked candidates read them. Remembered per list of
    units (every 9x9 with boxes has the same 54 crossings, a millisecond to find)."""
    return _crossings(tuple(units))


@lru_cache(maxsize=32)
def _crossings(units: tuple[tuple[int, ...], ...]) -> tuple:
    out = []
    sets = [set(u) for u in units]
    for i, a in enumerate(units):
        for j in range(i + 1, len(units)):
            shared = sets[i] & sets[j]
            if len(shared) >= 2 and len(shared) < min(len(sets[i]), len(sets[j])):
                b = units[j]
                out.append((tuple(v for v in a if v in shared),
                            tuple(v for v in a if v not in shared),
                            tuple(v for v in b if v not in shared)))
    return tuple(out)


def classic_core_args(size: int, box_rows: int, box_cols: int) -> tuple:
    """Return the arguments of `_core.Core` for a classic grid with no other rule."""
    units = classic_units(size, box_rows, box_cols)
    peers: list[set[int]] = [set() for _ in range(size * size)]
    for unit in units:
        for v in unit:
            peers[v].update(unit)
    peer_lists = [tuple(sorted(p - {v})) for v, p in enumerate(peers)]
    return ([size] * (size * size), size * size, peer_lists, units, [], [], [],
            crossings(units))
