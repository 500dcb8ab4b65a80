"""The command line: parse -> call the API -> render -> exit code, nothing else.

Each command lives in its own module of this package, named after it (`check-unique` in
check_unique.py). A module is imported when its command runs (or when help lists them all),
so `polydoku solve` pays only for what solving needs; a new command is a new file.
"""

from __future__ import annotations

from .app import cli, main

__all__ = ["cli", "main"]
