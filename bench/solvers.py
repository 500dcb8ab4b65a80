#!/usr/bin/env python3
"""Benchmark: the constraint-solver engines against the native engine, same puzzles, same run.

Sets: the three 1,000-puzzle samples of `samples_1000/` (17-clue, magictour top1465, forum
hardest 11+; see ../shared/data/SOURCES.md). For each set, every engine (native first, as the
reference) solves every puzzle; each answer is verified and compared with the set's
`.solutions.txt`.

What is timed, per puzzle: `engine.solve(problem)` (wall, perf_counter) in this process,
after the puzzle is parsed and its problem built (both cheap and alike for every engine).
The engines that keep a prebuilt base model per (geometry, rules) build it on their first
9x9 puzzle; that cold build is reported apart ("build s") and left out of the per-puzzle
figures, which are the givens-as-assumptions solves. MiniZinc has no base model: each puzzle
is one `minizinc` run (flattening + Gecode), all of it in the per-puzzle time. CPU seconds
(this process plus finished child processes) are summed beside the wall time, since CPU is
less disturbed by other work on the machine.

The machine has 2 cores shared with other work: absolute times are noisy; the ratio to
native (engine time / native time, same puzzles, same run) is the figure to read.

Run: `python3 tasks.py bench solvers [--limit N] [--sets royle17,top1465,forum11]
[--engines sat,cpsat,...] [--timeout S] [--out FILE]`. Writes JSON
(bench/results/solvers.json by default) and prints a table per set.
"""

from __future__ import annotations

import argparse
import resource
import time

from _common import load_set, machine, table, time_summary, write_result

from polydoku import __version__
from polydoku.engines import Status, make_engine
from polydoku.formats.line import parse_line
from polydoku.problem import build_problem
from polydoku.verify import is_solution

SCHEMA_VERSION = 1
SETS = {
    "royle17": "samples_1000/royle_17clue_1000",
    "top1465": "samples_1000/magictour_top1465_first1000",
    "forum11": "samples_1000/forum_hardest_1905_11plus_1000",
}
ENGINES = ["native", "sat", "pycosat", "cpsat", "z3", "clingo", "minizinc"]


def cpu() -> float:
    """Return the CPU seconds of this process and its finished children (minizinc runs)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run_engine(engine, puzzles: list[str], solutions: list[str], timeout: float) -> dict:
    """Return the timings and failures of one engine over one set."""
    seconds, build, wrong, unsolved, cpu_total = [], 0.0, 0, 0, 0.0
    for line, expected in zip(puzzles, solutions):
        puzzle = parse_line(line)
        problem = build_problem(puzzle)
        c0, t0 = cpu(), time.perf_counter()
        outcome = engine.solve(problem, max_solutions=1, timeout=timeout)
        elapsed = time.perf_counter() - t0
        cold = outcome.stats.get("build_seconds", 0.0) or 0.0
        cpu_total += max(cpu() - c0 - cold, 0.0)
        build += cold
        seconds.append(max(elapsed - cold, 0.0))
        if outcome.status is not Status.SOLVED:
            unsolved += 1
        elif not is_solution(puzzle, outcome.solutions[0]) or \
                "".join(map(str, outcome.solutions[0])) != expected:
            wrong += 1
    out = time_summary(seconds)
    out.update(build_s=round(build, 6), cpu_total_s=round(cpu_total, 6), unsolved=unsolved,
               wrong=wrong)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--limit", type=int, default=None, help="first N puzzles of each set")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per puzzle")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    ids = [e.strip() for e in args.engines.split(",") if e.strip()]
    if "native" not in ids:
        ids.insert(0, "native")
    engines, versions = {}, {}
    for spec in ids:
        engine = make_engine(spec)
        avail = engine.available()
        if not avail.ok:
            print(f"skipping {spec}: {avail.reason}")
            continue
        engines[spec], versions[spec] = engine, avail.version
    results = {}
    for key in [s.strip() for s in args.sets.split(",") if s.strip()]:
        puzzles, solutions = load_set(SETS[key])
        puzzles, solutions = puzzles[:args.limit], solutions[:args.limit]
        results[key] = {}
        for spec, engine in engines.items():
            results[key][spec] = run_engine(engine, puzzles, solutions, args.timeout)
            print(f"  {key} {spec}: {results[key][spec]['total_s']:.2f}s", flush=True)
        print_set(key, results[key])
    data = {"schema": SCHEMA_VERSION, "benchmark": "solvers", "polydoku": __version__,
            "machine": machine(), "settings": vars(args), "versions": versions,
            "results": results, "fastest": fastest(results)}
    path = write_result(data, args.out, "solvers")
    print(f"fastest per set: {data['fastest']}\nwrote {path}")
    return 0


def print_set(key: str, res: dict) -> None:
    """Print one set's table, with each engine's time as a ratio to native's."""
    ref = res["native"]["total_s"] or 1e-9
    ref_cpu = res["native"]["cpu_total_s"] or 1e-9
    rows = [[spec, r["puzzles_per_s"], r["mean_ms"], r["median_ms"], r["max_ms"],
             round(r["total_s"] / ref, 2), round(r["cpu_total_s"] / ref_cpu, 2), r["build_s"],
             r["unsolved"], r["wrong"]]
            for spec, r in sorted(res.items(), key=lambda kv: kv[1]["total_s"])]
    print(f"\n{key} ({res['native']['count']} puzzles)")
    print(table(["engine", "puzzles/s", "mean ms", "median ms", "max ms", "x native",
                 "x native cpu", "build s", "unsolved", "wrong"], rows))


def fastest(results: dict) -> dict:
    """Return, per set, the engine with the smallest total time."""
    return {key: min(res, key=lambda spec: res[spec]["total_s"]) for key, res in results.items()}


if __name__ == "__main__":
    raise SystemExit(main())
