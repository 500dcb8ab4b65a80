"""The binding to the compiled core (`polydoku._core`, built from src/polydoku/_core.c by
setup.py): loading it, and handing it a compiled problem once per problem. Where it is not
built, or POLYDOKU_NATIVE=python asks, `module()` is None and the pure-Python twin runs."""

from __future__ import annotations

import os

from ..gcpause import gc_paused
from ..units import crossings
from .compiled import Compiled, sum_groups as _sum_groups  # noqa: F401 (its old home)


def _load_compiled():
    """Return the compiled search module, None when it was not built here or
    POLYDOKU_NATIVE=python asks for the pure-Python search."""
    if os.environ.get("POLYDOKU_NATIVE", "").lower() == "python":
        return None
    try:
        from .. import _core
    except ImportError:
        return None
    return _core


_compiled = _load_compiled()


def backend() -> str:
    """Return which search the native engine runs: "compiled" (the C core) or "python"."""
    return "compiled" if _compiled is not None else "python"


def _ccore(C: Compiled):
    """Return the C core of a compiled problem (built once), None when it cannot take it
    (not built here, or a domain of more than 64 values)."""
    if _compiled is None:
        return None
    if C.ccore is None:
        with gc_paused():
            C.ccore = _build_ccore(C) or False
    return C.ccore or None


def _build_ccore(C: Compiled):
    if max(C.dsizes, default=0) > 64:
        return None
    dsizes = C.dsizes
    conflicts = [(x, a, y, m & ((1 << dsizes[y]) - 1))
                 for (x, a), row in C.conflicts.items() for y, m in row.items()]
    sums = []
    for i, s in enumerate(C.linears + C.implied_sums):
        top = sum(max(sh) for sh in s.shifts)
        words = (top + 64) // 64
        sums.append((s.vars, s.shifts, s.target.to_bytes(words * 8, "little"), top,
                     s.distinct, s.groups,
                     i >= len(C.linears)))
    return _compiled.Core(dsizes, C.ncells, C.peers, C.units, conflicts,
                          [(vs, ts) for vs, ts in C.tables]
                          + [((x, y), masks, False, True) for x, y, masks in C.pairs]
                          + [(vs, ts, True) for vs, ts in C.implied],
                          sums, crossings(C.units))


def module():
    """Return the compiled core module in use, None when the pure-Python twin runs."""
    return _compiled
