"""Benchmarks: every engine on every puzzle of some sets, side by side, every answer verified.

`run.run_bench` runs them (on worker processes when asked) and returns the versioned result
(`results.SCHEMA_VERSION`); `summary` turns it into per-engine counts, times and ratios to a
reference engine measured in the same run, and a table; `plots` draws time per puzzle and a
cactus plot. Nothing here asserts a speed: figures are reported, never judged.
"""

from .results import SCHEMA_VERSION, read_results, write_results
from .run import BenchSettings, run_bench

__all__ = ["SCHEMA_VERSION", "BenchSettings", "read_results", "run_bench", "write_results"]
