"""Rule kinds: one module per family, each kind a class with its parameters, its statement
(`violations`, what `verify` checks), its lowering to the IR (`lower`) and its drawing
(`shapes`). `registry.py` lists them (`kinds()`, also `KINDS`) and reads rules by name or as
JSON data; the families load when a kind is first looked up, not with this package.

Adding a kind: a module in `kind/` (found there by `registry.py`) and its
tests. No engine changes: engines take the IR, and `problem.lower` rewrites what an engine lacks.
"""

from __future__ import annotations

from ..model.rules import Rule
from .registry import global_kinds, kinds, parse_rules, rule_from_data, rules_from_data

__all__ = ["KINDS", "global_kinds", "kinds", "parse_rules", "rule_from_data", "rules_from_data"]


def __getattr__(name: str) -> dict[str, type[Rule]]:
    """`KINDS`, the registry, is built when first asked for (see `registry.kinds`)."""
    if name == "KINDS":
        return kinds()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
