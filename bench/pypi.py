#!/usr/bin/env python3
"""Benchmark: the Python packaging engines (resolvelib, pip, uv, Poetry, PDM), faithful and tuned.

Puzzles: `norvig_hardest` (11) and 20 of `forum_hardest_1106` (every 18th line), from the shared
data (see its SOURCES.md). Each (engine, puzzle) runs in a fresh worker process with a per-run
timeout (60 s by default), so CPU seconds (the worker and every program it ran) and peak memory
(the largest resident set of the worker or any of its children, from getrusage) belong to that
run alone. The native engine runs the same puzzles in the same run as the reference: the table
gives each engine's median CPU ratio to it. Every answer is verified (`api.solve`) and compared
with the reference solution. The machine's 2 cores are shared: absolute times are noisy, and a
wall-clock timeout under load can cut a run that would finish on an idle machine.

Run: `python3 tasks.py bench pypi [--engines uv,resolvelib] [--variants tuned] [--limit 3]
[--timeout 60] [--out bench/results/pypi.jsonl] [--examples]`; `--examples` runs Inkala's puzzle
and the miracle puzzle (examples/) instead; `--table FILE` prints the table of a results file.
Results are appended as JSON lines (one per run, with tool versions and settings).
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("POLYDOKU_DATA", ROOT.parent / "shared" / "data"))
ENGINES = ("resolvelib", "pip", "uv", "poetry", "pdm")
SETS = {"norvig_hardest": (1, None), "forum_hardest_1106": (18, 20)}   # name: (step, limit)

WORKER = r"""
import json, resource, sys, time
from polydoku import api
from polydoku.errors import PolydokuError
from polydoku.formats import read_puzzle
spec, line, timeout, options = sys.argv[1], sys.argv[2], float(sys.argv[3]), json.loads(sys.argv[4])
t0 = time.perf_counter()
try:
    out = api.solve(read_puzzle(line), spec, timeout=timeout, options=options)
    rec = {"status": out.status.value, "solution": "".join(map(str, out.solutions[0]))
           if out.solutions else "", "message": out.message[:300], "stats": out.stats}
except PolydokuError as err:
    rec = {"status": "error", "solution": "", "message": str(err)[:300], "stats": {}}
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
rec["wall"] = time.perf_counter() - t0
rec["cpu"] = me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
rec["peak_mb"] = max(me.ru_maxrss, kids.ru_maxrss) / 1024
print(json.dumps(rec, default=str))
"""


def puzzles(limit: int | None) -> list[tuple[str, str, str | None]]:
    """Return (set:line-number, puzzle, solution) for the benchmark's puzzles."""
    out = []
    for name, (step, count) in SETS.items():
        lines = (DATA / f"{name}.txt").read_text().split()
        sols = (DATA / f"{name}.solutions.txt").read_text().split()
        picked = list(range(0, len(lines), step))[:count]
        out += [(f"{name}:{k + 1}", lines[k], sols[k]) for k in picked][:limit]
    return out


def examples() -> list[tuple[str, str, str | None]]:
    """Return the example puzzles (Inkala's, the miracle) as (id, file, None: no reference)."""
    return [(name, str(ROOT / "examples" / name), None) for name in ("inkala.txt", "miracle.json")]


def run_one(spec: str, line: str, timeout: float, options: dict[str, str]) -> dict:
    """Run one engine on one puzzle in a fresh worker; return its record."""
    cmd = [sys.executable, "-c", WORKER, spec, line, str(timeout), json.dumps(options)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 60,
                              cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"status": "unknown", "message": "worker killed", "cpu": None, "peak_mb": None,
                "wall": timeout + 60, "stats": {}, "solution": ""}
    try:
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return {"status": "error", "message": done.stderr.strip()[-300:], "cpu": None,
                "peak_mb": None, "wall": None, "stats": {}, "solution": ""}


def versions() -> dict[str, str]:
    """Return the engines' versions here (recorded with the results)."""
    from polydoku.engines import make_engine
    out = {}
    for engine_id in ("native", *ENGINES):
        avail = make_engine(engine_id).available()
        out[engine_id] = avail.version if avail.ok else f"unavailable: {avail.reason}"
    return out


def _solve_cpu(rec: dict) -> float | None:
    """Return the CPU seconds of the solve alone (api.solve's own measure, no start-up)."""
    return (rec.get("stats") or {}).get("cpu_seconds")


def table(records: list[dict]) -> str:
    """Return the summary table: per engine spec, solved/timeouts/errors, CPU, memory, ratio.

    "CPU s" is the whole worker (start-up included); the ratio to native uses the solve's own
    CPU (api.solve's measure) on the puzzles both solved, so start-up costs do not hide it.
    """
    records = list({(r["spec"], r["puzzle"]): r for r in records}.values())  # last run wins
    ref = {r["puzzle"]: _solve_cpu(r) for r in records if r["spec"] == "native"}
    specs = list(dict.fromkeys(r["spec"] for r in records))
    rows = ["| engine | runs | solved | unknown (timeout) | error/wrong | CPU s total | "
            "CPU s median | CPU s max | peak MB max | median solve-CPU ratio to native |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for spec in specs:
        rs = [r for r in records if r["spec"] == spec]
        ok = [r for r in rs if r["status"] == "solved" and r.get("correct")]
        cpus = [r["cpu"] for r in rs if r["cpu"] is not None]
        ratios = [_solve_cpu(r) / ref[r["puzzle"]] for r in ok
                  if ref.get(r["puzzle"]) and _solve_cpu(r) is not None]
        peaks = [r["peak_mb"] for r in rs if r["peak_mb"]]
        unknown = sum(r["status"] == "unknown" for r in rs)
        ratio = f"{statistics.median(ratios):,.0f}x" if ratios else "-"
        rows.append(f"| {spec} | {len(rs)} | {len(ok)} | {unknown} | {len(rs) - len(ok) - unknown} "
                    f"| {sum(cpus):.1f} | {statistics.median(cpus) if cpus else 0:.2f} "
                    f"| {max(cpus, default=0):.1f} | {max(peaks, default=0):.0f} | {ratio} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--variants", default="faithful,tuned")
    ap.add_argument("--limit", type=int, default=None, help="at most N puzzles of each set")
    ap.add_argument("--only", default="", help="comma-separated puzzle ids (set:line)")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "pypi.jsonl"))
    ap.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                    help="engine option for every engine but native (an ablation)")
    ap.add_argument("--examples", action="store_true",
                    help="run examples/inkala.txt and examples/miracle.json instead of the sets")
    ap.add_argument("--table", metavar="FILE", help="print the table of a results file and stop")
    args = ap.parse_args(argv)
    if args.table:
        print(table([json.loads(x) for x in Path(args.table).read_text().splitlines() if x]))
        return 0
    chosen = examples() if args.examples else puzzles(args.limit)
    if args.only:
        chosen = [p for p in chosen if p[0] in args.only.split(",")]
    specs = ["native"] + [e if v == "faithful" else f"{e}+{v}"
                          for e in args.engines.split(",") for v in args.variants.split(",")]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    settings = {"timeout": args.timeout, "versions": versions(), "machine": platform.platform(),
                "cpus": os.cpu_count(), "started": time.strftime("%Y-%m-%dT%H:%M:%S")}
    options = dict(pair.split("=", 1) for pair in args.option)
    suffix = "".join(f" -o {pair}" for pair in args.option)
    records = []
    for spec in specs:
        for pid, line, solution in chosen:
            rec = run_one(spec, line, args.timeout, {} if spec == "native" else options)
            correct = rec.get("solution") == solution if solution else rec["status"] == "solved"
            rec.update(spec=spec if spec == "native" else spec + suffix, puzzle=pid,
                       correct=correct,
                       load=os.getloadavg()[0], settings=settings)
            records.append(rec)
            with out.open("a") as f:
                f.write(json.dumps(rec, default=str) + "\n")
            print(f"{spec:18} {pid:24} {rec['status']:8} cpu {rec['cpu'] or 0:7.2f}s "
                  f"peak {rec['peak_mb'] or 0:6.0f} MB  {rec['message'][:60]!r}", flush=True)
    print()
    print(table(records))
    return 0


if __name__ == "__main__":
    sys.exit(main())
