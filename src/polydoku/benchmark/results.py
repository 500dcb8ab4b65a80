"""The benchmark result file: versioned JSON, written and read back.

Version 1 holds: `schema`, `schema_version`, `created`, `polydoku` (version), `machine`,
`settings`, `engines` (per spec: availability, tool version, reason, install hint), `sets`
(name, path, puzzle count, solutions file), `puzzles` (per puzzle: set, line, text, and per
engine: status, seconds and cpu_seconds as medians over the repeats, every run's seconds,
message, the engine's statistics) and `summary` (per engine, see `summary.summarize`).
"""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import BadInput
from ..files import write_file

SCHEMA = "polydoku-bench"
SCHEMA_VERSION = 1

# The statuses of one engine on one puzzle, best first.
# "gave-up": the engine stopped without an answer before the time limit; "timeout": at it.
STATUSES = ("solved", "unsat", "gave-up", "timeout", "error", "wrong", "unavailable")


def write_results(results: dict, path: str | Path) -> Path:
    """Write a result as indented JSON and return its path (a symbolic link there, or an OS
    error, is bad input naming the path)."""
    return write_file(path, json.dumps(results, indent=1, default=str) + "\n", "--out",
                      make_parents=True)


def read_results(path: str | Path) -> dict:
    """Return a result file's content (a file of another schema or a newer version is bad input)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise BadInput(f"cannot read benchmark results: {err}", source=str(path)) from None
    if data.get("schema") != SCHEMA or data.get("schema_version", 0) > SCHEMA_VERSION:
        raise BadInput(f"not a {SCHEMA} v{SCHEMA_VERSION} result", source=str(path))
    return data
