"""The page's engines menu, complete before anything is probed: every registered engine once,
grouped (polydoku's own, solvers, package managers), with its variants other than the default.

Whether an engine runs here takes seconds to find out (programs are asked for versions), so
the page gets this list with its first paint (`/engines.js`) and greys the missing engines when
`/api/engines` answers.
"""

from __future__ import annotations

import json
from typing import Any

from ..engines.registry import ENGINE_IDS, engine_class

# Engines that hand the puzzle to a package manager's resolver, by the module they live in.
_MANAGERS = ("debian", "conda", "pypi", "javascript", "composer", "cargo", "dnf", "opam",
             "bundler", "cabal", "zeroinstall")


def group_of(engine_id: str) -> str:
    """Return the menu group of an engine: "polydoku", "solvers" or "managers"."""
    if engine_id == "native":
        return "polydoku"
    module = engine_class(engine_id).__module__.split(".")
    return "managers" if any(part in _MANAGERS for part in module[2:]) else "solvers"


def menu_rows() -> list[dict[str, Any]]:
    """Return one row per engine: id, title, group, the specs to offer (the id, then each
    variant but the default, as `id+variant`), capabilities and install hint."""
    rows = []
    for engine_id in ENGINE_IDS:
        cls = engine_class(engine_id)
        variants = list(cls.variants)
        rows.append({"id": engine_id, "title": cls.title, "group": group_of(engine_id),
                     "specs": [engine_id, *(f"{engine_id}+{v}" for v in variants[1:])],
                     "capabilities": sorted(cls.capabilities), "install": cls.install_hint})
    return rows


def menu_script() -> str:
    """Return the script that hands the page its engines menu (JSON, with `<` escaped so no
    text can close the script element)."""
    data = json.dumps(menu_rows()).replace("<", "\\u003c")
    return f"window.POLYDOKU_ENGINES = {data};\n"
