#!/usr/bin/env python3
"""Benchmark: time to explain an unsolvable 9x9 puzzle (a subset-minimal conflict of givens).

Puzzles: the 10 with no solution in tdoku's test fixture, and 50 of magictour_top1465 made
unsolvable by one wrong given (puzzle 29*i for i < 50; the first empty cell that keeps two or more
candidates after propagation; its smallest candidate that is not the solution's value, so the
contradiction needs more than the cell's peers). The reference, measured in the same run, is the
native engine proving the same puzzle unsolvable (`polydoku solve`).

Run: `python3 tasks.py bench explain [--repeat 3] [--smallest] [--out FILE]`.
Writes a JSON record (settings, versions, machine, per-puzzle times) and prints a table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from polydoku import __version__  # noqa: E402
from polydoku.engines import make_engine  # noqa: E402
from polydoku.engines.native import compile_problem, initial_candidates, search  # noqa: E402
from polydoku.formats.line import parse_line  # noqa: E402
from polydoku.problem import build_problem  # noqa: E402
from polydoku.reasoning.explain import explain  # noqa: E402

DATA = Path(os.environ.get("POLYDOKU_DATA", ROOT.parent / "shared" / "data"))


def tdoku_unsat() -> list[tuple[str, object]]:
    """Return (name, puzzle) for the puzzles of tdoku's fixture that have no solution."""
    out = []
    for k, line in enumerate((DATA / "tdoku_test_puzzles_counts.txt").read_text().splitlines(), 1):
        parts = line.strip().split(":")
        if len(parts) >= 2 and parts[1] == "0":
            out.append((f"tdoku:{k}", parse_line(parts[0])))
    return out


def wrong_given(puzzle, solution: str):
    """Return the puzzle with one wrong given (see the module docstring), or None."""
    problem = build_problem(puzzle)
    cand = initial_candidates(problem, compile_problem(problem))
    for i, v in enumerate(puzzle.givens):
        if v or cand[i].bit_count() < 2:
            continue
        right = int(solution[i])
        wrong = [x for x in range(1, 10) if cand[i] >> (x - 1) & 1 and x != right]
        givens = list(puzzle.givens)
        givens[i] = wrong[0]
        return puzzle.with_givens(givens), f"r{i // 9 + 1}c{i % 9 + 1}={wrong[0]}"
    return None


def magictour_wrong(count: int = 50, stride: int = 29) -> list[tuple[str, object]]:
    """Return (name, puzzle) for `count` magictour puzzles made unsolvable by one wrong given."""
    lines = (DATA / "magictour_top1465.txt").read_text().split()
    sols = (DATA / "magictour_top1465.solutions.txt").read_text().split()
    out = []
    for k in range(0, len(lines), stride):
        made = wrong_given(parse_line(lines[k]), sols[k])
        if made:
            out.append((f"magictour:{k + 1}+{made[1]}", made[0]))
        if len(out) == count:
            break
    return out


def timed(fn, repeat: int) -> tuple[float, object]:
    """Return the median seconds of `repeat` runs of fn() and its last result."""
    times, result = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), result


def run(puzzles, ways: list[tuple[str, str]], repeat: int, smallest: bool) -> list[dict]:
    """Return one row per puzzle: reference solve time and explanation times."""
    rows = []
    for name, puzzle in puzzles:
        problem = build_problem(puzzle)
        ref, outcome = timed(lambda: search(problem, 1), repeat)
        row = {"puzzle": name, "givens": sum(1 for v in puzzle.givens if v),
               "solve_s": ref, "solve_status": outcome.status.value}
        for engine, method in ways:
            key = method if engine == "native" else f"{engine}_{method}"
            secs, e = timed(lambda: explain(puzzle, method=method, engine=engine), repeat)
            row[f"{key}_s"] = secs
            row[f"{key}_size"] = len(e.givens)
            row[f"{key}_calls"] = e.stats["calls"]
            row[f"{key}_status"] = e.status.value
        if smallest:
            secs, e = timed(lambda: explain(puzzle, smallest=True), 1)
            row.update(smallest_s=secs, smallest_size=len(e.givens),
                       smallest_proved=e.smallest.is_proved if e.smallest else None)
        rows.append(row)
        print(f"  {name:32} solve {ref * 1000:7.1f} ms  deletion {row['deletion_s'] * 1000:7.1f} ms "
              f"({row['deletion_size']:2} givens)  quickxplain {row['quickxplain_s'] * 1000:7.1f} ms"
              + "".join(f"  {k[:-2]} {row[k] * 1000:7.1f} ms" for k in row
                        if k.endswith("_s") and k[:-2] not in ("solve", "deletion", "quickxplain",
                                                               "smallest"))
              + (f"  smallest {row['smallest_s']:.2f} s ({row['smallest_size']})" if smallest
                 else ""), flush=True)
    return rows


def summary(rows: list[dict], keys: list[str]) -> dict:
    """Return median and max of each timing key, and the ratio of medians to the solve time."""
    out = {}
    ref = statistics.median(r["solve_s"] for r in rows)
    for key in keys:
        values = [r[key] for r in rows if key in r]
        if values:
            med = statistics.median(values)
            out[key] = {"median": med, "max": max(values), "median_ratio_to_solve": med / ref,
                        "under_1s": sum(v < 1.0 for v in values), "n": len(values)}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (median)")
    parser.add_argument("--smallest", action="store_true", help="also time --smallest (1 run)")
    parser.add_argument("--engines", default="native,sat",
                        help="engines to explain with (those not available here are left out)")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "explain.json"))
    args = parser.parse_args()
    sets = {"tdoku_unsat": tdoku_unsat(), "magictour_wrong_given": magictour_wrong()}
    ways = [("native", "deletion"), ("native", "quickxplain")]
    versions = {}
    for engine_id in args.engines.split(","):
        engine = make_engine(engine_id.strip())
        avail = engine.available()
        versions[engine.id] = avail.version if avail.ok else f"unavailable: {avail.reason}"
        if avail.ok and engine.id != "native":
            ways.append((engine.id, "deletion"))
    keys = ["solve_s", "deletion_s", "quickxplain_s"] + [f"{e}_{m}_s" for e, m in ways[2:]] + \
        (["smallest_s"] if args.smallest else [])
    record = {"benchmark": "explain", "polydoku": __version__, "python": sys.version.split()[0],
              "machine": platform.platform(), "cpus": os.cpu_count(), "repeat": args.repeat, "engines": versions,
              "when": time.strftime("%Y-%m-%dT%H:%M:%S"),
              "load_average": os.getloadavg(), "sets": {}}
    for name, puzzles in sets.items():
        print(f"{name}: {len(puzzles)} puzzles", flush=True)
        rows = run(puzzles, ways, args.repeat, args.smallest)
        record["sets"][name] = {"summary": summary(rows, keys), "rows": rows}
    print()
    print(f"{'set':24} {'what':16} {'median ms':>10} {'max ms':>10} {'x solve':>8} {'<1 s':>6}")
    for name, data in record["sets"].items():
        for key, s in data["summary"].items():
            print(f"{name:24} {key[:-2]:16} {s['median'] * 1000:10.1f} {s['max'] * 1000:10.1f} "
                  f"{s['median_ratio_to_solve']:8.1f} {s['under_1s']:>3}/{s['n']}")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(f"\nwrote {out} (load average at start {record['load_average'][0]:.1f} on "
          f"{record['cpus']} cores: absolute times are noisy, compare the ratios)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
