"""The command line: parse -> call the API -> render -> exit code, nothing else.

Each command lives in its own module of this package; every module is imported here, so a new
command is a new file.
"""

from __future__ import annotations

import importlib
import pkgutil

from .app import cli, main

for _mod in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    if _mod not in ("app", "common"):
        importlib.import_module(f"{__name__}.{_mod}")

__all__ = ["cli", "main"]
