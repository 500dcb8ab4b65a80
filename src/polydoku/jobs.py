"""How many worker processes a run uses when `--jobs` is not given. Light (only `os`), and
below both ways of running many puzzles: processes here (batch.py) and a Dask cluster
(cluster.py)."""

from __future__ import annotations

import os


def default_jobs() -> int:
    """Return the number of processes to use by default: the machine's core count."""
    return os.cpu_count() or 1
