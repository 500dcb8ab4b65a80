"""The versions of the outside programs engines drive, as `polydoku engines` shows them.

Asking a program its version means running it (npm, pnpm and Yarn take a tenth of a second
or more each), so an answer is kept in polydoku's cache, keyed by the program's resolved path
with its modification time and size (and those of any script it is given): an upgrade changes
them, and the program is asked again.
"""

from __future__ import annotations

import os
import subprocess

from .. import cache
from .sandbox import find_program

_FILE = "versions.json"
_MAX_ENTRIES = 200


def _key(argv: list[str], pattern: str) -> str | None:
    """Return the cache key of a version command: each file it names by path, time and size
    (None when the program cannot be looked at)."""
    parts: list[object] = [pattern]
    for k, arg in enumerate(argv):
        if k == 0 or os.path.isfile(arg):
            try:
                real = os.path.realpath(arg)
                st = os.stat(real)
            except OSError:
                return None
            parts.append([real, st.st_mtime_ns, st.st_size])
        else:
            parts.append(arg)
    return repr(parts)


def _ask(argv: list[str], pattern: str) -> str:
    """Return the first line of the program's version output that contains `pattern`."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=20,
                              env={"PATH": os.environ.get("PATH", ""), "LC_ALL": "C"})
    except (OSError, subprocess.SubprocessError):
        return ""
    lines = [ln.strip() for ln in (done.stdout + done.stderr).splitlines() if pattern in ln]
    return lines[0] if lines else ""


def program_version(cmd: list[str], pattern: str = "") -> str:
    """Return the first line of a program's version output that contains `pattern` ("" when
    the program is missing or says nothing), from the cache when the program is unchanged."""
    path = find_program(cmd[0])
    if path is None:
        return ""
    argv = [path, *cmd[1:]]
    key = _key(argv, pattern)
    known = cache.read_json(_FILE)
    if not isinstance(known, dict):
        known = {}
    if key is not None and isinstance(known.get(key), str):
        return known[key]
    version = _ask(argv, pattern)
    if key is not None and version:
        while len(known) >= _MAX_ENTRIES:
            known.pop(next(iter(known)))
        known[key] = version
        cache.write_json(_FILE, known)
    return version
