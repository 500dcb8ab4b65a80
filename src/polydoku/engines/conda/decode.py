"""Reading a conda solver's answer back: the packages it chose -> one value per variable.

Pure; it trusts nothing: a missing cell, a cell chosen twice or a version outside 1..N is
reported as a problem, never patched (`api.solve` then verifies the grid against the rules).
"""

from __future__ import annotations

from ...problem import Problem
from .encode import Channel


def decode(problem: Problem, channel: Channel,
           installed: list[tuple[str, str]]) -> tuple[tuple[int, ...] | None, str]:
    """Return (solution, "") from the chosen (name, version) pairs, or (None, what is wrong)."""
    cells = problem.size * problem.size
    index = {name: var for var, name in enumerate(channel.names[:cells])}
    values = [0] * cells
    for name, version in installed:
        var = index.get(name)
        if var is None:
            continue              # the metapackage, tables and auxiliaries (the cells fix them)
        if not (version.isascii() and version.isdigit()) or not 1 <= int(version) <= problem.size:
            return None, f"package {name} was given version {version!r}, not one of 1..{problem.size}"
        if values[var]:
            return None, f"package {name} was chosen twice ({values[var]} and {version})"
        values[var] = int(version)
    missing = [channel.names[v] for v, x in enumerate(values) if not x]
    if missing:
        return None, f"no version chosen for {len(missing)} cells, e.g. {missing[0]}"
    return tuple(values), ""
