#!/usr/bin/env python3
"""Benchmark: the human-style logical solver over the shared puzzle sets.

Per set: how many puzzles logic alone solves (with every technique, and with patterns only,
that is, before the first forcing net), the technique usage counts, the rating distribution
(mean score, levels), and the time per puzzle, with the native engine's solve time (up to two
solutions, as `prepare` asks) measured on the same puzzles in the same worker as the reference.
Every step is checked against the solution (a wrong step is counted and reported; it should
never happen). On shared cores absolute times are noisy: read the ratio to the native engine.

Run: `python3 tasks.py bench logic [--sets easy50,17clue,...] [--limit N] [--jobs 2]
[--max-seconds 60] [--out FILE]`. Prints a table and writes a JSON record
(bench/results/logic.json by default).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
DATA = Path(os.environ.get("POLYDOKU_DATA", ROOT.parent / "shared" / "data"))

SETS = {
    "easy50": "norvig_easy50.txt",
    "17clue": "samples_1000/royle_17clue_1000.txt",
    "top1465": "magictour_top1465.txt",
    "forum1106": "forum_hardest_1106.txt",
    "forum1905": "samples_1000/forum_hardest_1905_11plus_1000.txt",
}


def one(args: tuple[str, float]) -> dict:
    """Return the measurements of one puzzle: native time, logical path, rating, any wrong step."""
    line, max_seconds = args
    from polydoku.formats import parse_line
    from polydoku.reasoning.logic import WrongStep, prepare, solve_logically
    puzzle = parse_line(line)
    start = time.perf_counter()
    prep = prepare(puzzle, timeout=max_seconds)
    native = time.perf_counter() - start
    start = time.perf_counter()
    try:
        path = solve_logically(puzzle, prepared=prep, max_seconds=max_seconds)
    except WrongStep as err:
        return {"line": line, "wrong": str(err), "native": native,
                "logic": time.perf_counter() - start}
    names = [s.technique for s in path.steps]
    forcing = "Forcing Net" in names
    rating = path.rating
    return {"line": line, "native": native, "logic": time.perf_counter() - start,
            "solved": path.solved, "patterns_only": path.solved and not forcing,
            "timed_out": path.timed_out, "steps": len(names), "techniques": Counter(names),
            "score": rating.score, "level": rating.level}


def summarise(name: str, rows: list[dict]) -> dict:
    """Return a set's figures from its puzzles' measurements."""
    ok = [r for r in rows if "wrong" not in r]
    usage: Counter = Counter()
    for r in ok:
        usage.update(r["techniques"])
    logic = [r["logic"] for r in rows]
    native = [r["native"] for r in rows]
    scores = [r["score"] for r in ok]
    return {
        "set": name, "file": SETS[name], "puzzles": len(rows),
        "solved": sum(r["solved"] for r in ok),
        "solved_patterns_only": sum(r["patterns_only"] for r in ok),
        "timed_out": sum(r["timed_out"] for r in ok),
        "wrong_steps": [r["wrong"] for r in rows if "wrong" in r],
        "rating_mean": round(statistics.mean(scores), 1) if scores else None,
        "rating_median": statistics.median(scores) if scores else None,
        "rating_quartiles": [round(q) for q in statistics.quantiles(scores, n=4)]
        if len(scores) > 1 else [],
        "levels": dict(Counter(r["level"] for r in ok).most_common()),
        "techniques": dict(usage.most_common()),
        "logic_seconds_mean": round(statistics.mean(logic), 5),
        "logic_seconds_median": round(statistics.median(logic), 5),
        "native_seconds_mean": round(statistics.mean(native), 5),
        "native_seconds_median": round(statistics.median(native), 5),
        "logic_to_native_ratio": round(sum(logic) / max(sum(native), 1e-9), 1),
    }


def run_set(name: str, limit: int | None, jobs: int, max_seconds: float) -> dict:
    """Return the summary of one set, solving its puzzles on `jobs` processes."""
    lines = [x.strip() for x in (DATA / SETS[name]).read_text().splitlines() if x.strip()]
    lines = lines[:limit] if limit else lines
    work = [(line, max_seconds) for line in lines]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            rows = list(pool.map(one, work, chunksize=4))
    else:
        rows = [one(w) for w in work]
    return summarise(name, rows)


def table(results: list[dict]) -> str:
    """Return the per-set table as text."""
    head = (f"{'set':<10} {'n':>5} {'solved':>7} {'patterns':>8} {'wrong':>5} {'mean':>7} "
            f"{'median':>7} {'logic s':>8} {'native s':>9} {'ratio':>6}  levels")
    out = [head, "-" * len(head)]
    for r in results:
        levels = ", ".join(f"{k} {v}" for k, v in r["levels"].items())
        out.append(f"{r['set']:<10} {r['puzzles']:>5} {r['solved']:>7} "
                   f"{r['solved_patterns_only']:>8} {len(r['wrong_steps']):>5} "
                   f"{r['rating_mean']!s:>7} {r['rating_median']!s:>7} "
                   f"{r['logic_seconds_mean']:>8.4f} {r['native_seconds_mean']:>9.5f} "
                   f"{r['logic_to_native_ratio']:>6}  {levels}")
    return "\n".join(out)


def meta(args: argparse.Namespace) -> dict:
    """Return the context of the run: versions, machine, load, settings."""
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    from polydoku import __version__
    return {"bench": "logic", "date": time.strftime("%Y-%m-%d %H:%M:%S"), "commit": commit,
            "polydoku": __version__, "python": platform.python_version(),
            "machine": platform.machine(), "cpus": os.cpu_count(),
            "load_before": [round(x, 2) for x in os.getloadavg()],
            "settings": {"sets": args.sets, "limit": args.limit, "jobs": args.jobs,
                         "max_seconds": args.max_seconds}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated: " + ",".join(SETS))
    parser.add_argument("--limit", type=int, default=None, help="at most N puzzles per set")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--max-seconds", type=float, default=60.0,
                        help="logic time allowed per puzzle (then it counts as not solved)")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "logic.json"))
    args = parser.parse_args()
    record = meta(args)
    results = []
    for name in args.sets.split(","):
        if name not in SETS:
            parser.error(f"unknown set {name!r} (known: {', '.join(SETS)})")
        start = time.perf_counter()
        results.append(run_set(name, args.limit, args.jobs, args.max_seconds))
        results[-1]["wall_seconds"] = round(time.perf_counter() - start, 1)
        print(f"{name}: done in {results[-1]['wall_seconds']} s", file=sys.stderr, flush=True)
    record["load_after"] = [round(x, 2) for x in os.getloadavg()]
    record["results"] = results
    print(table(results))
    for r in results:
        top = ", ".join(f"{k} {v}" for k, v in list(r["techniques"].items())[:12])
        print(f"\n{r['set']} techniques: {top}")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(f"\nwritten {out}")
    return 1 if any(r["wrong_steps"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
