"""Rule kinds: one module per family, each kind a class with its parameters, its statement
(`violations`, what `verify` checks), its lowering to the IR (`lower`) and its drawing
(`shapes`). `registry.py` lists them (`KINDS`) and reads rules by name or as JSON data.

Adding a kind: a class in one module here (or a new module listed in `registry.py`) and its
tests. No engine changes: engines take the IR, and `problem.lower` rewrites what an engine lacks.
"""

from .registry import KINDS, global_kinds, parse_rules, rule_from_data, rules_from_data

__all__ = ["KINDS", "global_kinds", "parse_rules", "rule_from_data", "rules_from_data"]
