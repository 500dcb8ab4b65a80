"""polydoku's cache folder: small files it can always rebuild (tool versions, fetched puzzles).

The folder is `$POLYDOKU_CACHE_DIR`, else `$XDG_CACHE_HOME/polydoku`, else
`~/.cache/polydoku`. Nothing in it is needed: a missing, unreadable or read-only cache makes
polydoku do the work again, never fail. This module does no I/O at import.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


def cache_dir() -> Path:
    """Return the cache folder (it may not exist yet)."""
    own = os.environ.get("POLYDOKU_CACHE_DIR")
    if own:
        return Path(own)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "polydoku"


def read_json(name: str) -> Any:
    """Return the JSON document cached as `name`, or None when there is none (or it is bad)."""
    try:
        with open(cache_dir() / name, encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return None


def write_json(name: str, data: Any) -> bool:
    """Store `data` as `name` atomically (a temp file renamed); return whether it was stored.

    A folder that cannot be made or written is no error: the cache is only a saving."""
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        if folder.is_symlink():
            return False
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(data, handle)
            os.replace(tmp, folder / name)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    except OSError:
        return False
    return True
