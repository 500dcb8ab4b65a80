"""Small helpers shared by the benchmark scripts: puzzle sets, time summaries, the machine,
JSON results and plain-text tables. No timing happens here; scripts measure, this formats."""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
DATA = Path(os.environ.get("POLYDOKU_DATA", ROOT.parent / "shared" / "data"))
RESULTS = ROOT / "bench" / "results"


def load_set(name: str) -> tuple[list[str], list[str]]:
    """Return the puzzle lines of a shared data set and the parallel solution lines."""
    puzzles = (DATA / f"{name}.txt").read_text().split()
    solutions = (DATA / f"{name}.solutions.txt").read_text().split()
    if len(puzzles) != len(solutions):
        raise SystemExit(f"{name}: {len(puzzles)} puzzles but {len(solutions)} solutions")
    return puzzles, solutions


def timed(cmd: list[str], *, stdin: str | None = None, env: dict | None = None,
          timeout: float = 3600) -> tuple[str, float, float]:
    """Run a command to its end (`stdin` its standard input, `env` added to this one's);
    return its stdout, wall seconds and CPU seconds (the finished child's, from getrusage).
    A failing command stops the benchmark with its last words."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {done.returncode}: {done.stderr[-300:]}")
    return done.stdout, wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def time_summary(seconds: list[float]) -> dict:
    """Return count, total seconds, puzzles per second and mean/median/max milliseconds."""
    total = sum(seconds)
    return {"count": len(seconds), "total_s": round(total, 6),
            "puzzles_per_s": round(len(seconds) / total, 1) if total else None,
            "mean_ms": round(1000 * total / len(seconds), 4) if seconds else None,
            "median_ms": round(1000 * statistics.median(seconds), 4) if seconds else None,
            "max_ms": round(1000 * max(seconds), 4) if seconds else None}


def per_item_median(rounds: list[list[float]]) -> list[float]:
    """Return, for each item, its median over repeated rounds."""
    return [statistics.median(values) for values in zip(*rounds)]


def machine() -> dict:
    """Return the description of this machine (CPU, cores, memory, load, Python, OS)."""
    from polydoku.benchmark.machine import machine_info
    return machine_info()


def write_result(data: dict, out: str | Path | None, default_name: str) -> Path:
    """Write a result as indented JSON (default bench/results/NAME.json); return its path."""
    path = Path(out) if out else RESULTS / f"{default_name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n")
    return path


def table(headers: list[str], rows: list[list]) -> str:
    """Return rows as a plain-text table, numbers right-aligned."""
    cells = [[str(h) for h in headers]] + [["" if v is None else str(v) for v in r] for r in rows]
    widths = [max(len(row[k]) for row in cells) for k in range(len(headers))]
    lines = []
    for n, row in enumerate(cells):
        lines.append("  ".join(v.ljust(w) if k == 0 else v.rjust(w)
                               for k, (v, w) in enumerate(zip(row, widths))))
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def resolver_sample(norvig: int, forum: int, stride: int = 18) -> list[tuple[str, object, str]]:
    """Return (name, puzzle, solution): the first `norvig` of norvig_hardest and `forum` of
    forum_hardest_1106 (every `stride`-th line), the package-resolver benchmarks' set."""
    from polydoku.formats.line import parse_line
    out = []
    for name, step, limit in (("norvig_hardest", 1, norvig), ("forum_hardest_1106", stride, forum)):
        lines, sols = load_set(name)
        picked = list(range(0, len(lines), step))[:limit]
        out += [(f"{name}:{k + 1}", parse_line(lines[k]), sols[k]) for k in picked]
    return out
