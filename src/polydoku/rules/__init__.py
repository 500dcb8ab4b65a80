"""Rule kinds: one module per family, each kind a class with its parameters, its statement
(`violations`, what `verify` checks), its lowering to the IR (`lower`) and its drawing
(`shapes`). Importing this package fills the registry `polydoku.model.rules.RULES`.

Adding a kind: a class in one module here (or a new module listed below) and its tests. No
engine changes: engines take the IR, and `problem.lower` rewrites what an engine lacks.
"""

from __future__ import annotations

from ..model.rules import RULES, Rule
from . import arrows, cells, globals, lines, outside, pairs

KINDS: dict[str, type[Rule]] = RULES
for _module in (globals, cells, pairs, lines, arrows, outside):
    for _cls in _module.KINDS:
        KINDS[_cls.kind] = _cls

__all__ = ["KINDS"]
