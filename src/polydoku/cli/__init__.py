"""The command line: parse -> call the API -> render -> exit code, nothing else.

Each command lives in its own module of this package, named after it (`check-unique` in
check_unique.py). A module is imported when its command runs (or when help lists them all),
so `polydoku solve` pays only for what solving needs; a new command is a new file.
"""

from __future__ import annotations

__all__ = ["cli", "main"]


def __getattr__(name: str):
    """`cli` and `main` from app.py, imported on first use: the console entry (express.py) runs
    without click when the express lane answers."""
    if name in __all__:
        from . import app
        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
