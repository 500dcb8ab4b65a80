#!/usr/bin/env python3
"""Benchmark: the conda engines (libsolv-conda, rattler) on hard 9x9 puzzles, faithful and tuned
channels side by side.

Puzzles: all 11 of `norvig_hardest` and 20 of `forum_hardest_1106` (every 18th line from the
first, so the sorted file is covered evenly; the same puzzles as bench/debian.py). Every engine
runs every puzzle once with a per-run timeout (default 60 s). The reference, measured in the
same run, is the native engine on the same puzzles (its CPU seconds per puzzle). "tool CPU s"
is the CPU time of the child process that loads the channel and solves it, Python's start and
the tool's import included (about 0.1 s of it); "solve s" is the time of the tool's solve call
alone, measured inside the child. Encoding the channel happens in the parent and is not counted. The machine has 2 cores shared with other
work, so absolute times are noisy: read the ratios.

Run: `python3 tasks.py bench conda [--forum 20] [--timeout 60] [--engines rattler]
[--variants faithful,tuned] [-o nogoods=constrains] [--out FILE]`. Writes a JSON record
(settings, versions, machine, every run) and prints a table.
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

from _common import resolver_sample  # noqa: E402
from polydoku import __version__, api  # noqa: E402
from polydoku.engines import Status, make_engine  # noqa: E402
from polydoku.errors import PolydokuError  # noqa: E402

ENGINES = ("libsolv-conda", "rattler")


def kind_of(outcome) -> str:
    """Return how a run ended: solved, unsatisfiable, timeout or gave up."""
    if outcome.status is Status.UNKNOWN:
        words = outcome.message
        return "timeout" if ("stopped after" in words or "time limit" in words) else "gave up"
    return outcome.status.value


def run_one(puzzle, solution: str, spec: str, timeout: float, options: dict) -> dict:
    """Return one run's record: how it ended, tool CPU, encode and wall seconds."""
    t = time.perf_counter()
    try:
        outcome = api.solve(puzzle, spec, timeout=timeout, options=options)
    except PolydokuError as err:
        return {"kind": "error", "message": str(err)[:300], "seconds": time.perf_counter() - t,
                "cpu": None, "encode": None, "solve": None}
    kind = kind_of(outcome)
    if kind == "solved" and "".join(map(str, outcome.solutions[0])) != solution:
        kind = "other solution"      # verified by api.solve, yet not the file's unique solution
    s = outcome.stats
    return {"kind": kind, "message": outcome.message[:300], "seconds": s.get("seconds"),
            "cpu": s.get("tool_cpu_seconds", s.get("cpu_seconds")),
            "encode": s.get("encode_seconds"), "solve": s.get("solve_seconds"),
            "packages": s.get("packages")}


def summary(rows: list[dict], ref_median: float) -> list[str]:
    """Return the table: per engine and encoding, counts, tool CPU seconds, ratio to native."""
    keys = sorted({(r["engine"], r["variant"]) for r in rows},
                  key=lambda k: (ENGINES.index(k[0]), k[1]))
    out = ["| engine | encoding | solved | timeout | gave up | error | tool CPU s (solved) | "
           "median tool CPU s | max | median vs native | median solve s | solve vs native |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for engine, variant in keys:
        mine = [r for r in rows if r["engine"] == engine and r["variant"] == variant]
        count = {k: sum(r["kind"] == k for r in mine) for k in ("solved", "timeout", "gave up")}
        errors = len(mine) - sum(count.values())
        cpu = [r["cpu"] for r in mine if r["kind"] == "solved" and r["cpu"] is not None]
        solve = [r["solve"] for r in mine if r["kind"] == "solved" and r["solve"] is not None]
        med = statistics.median(cpu) if cpu else 0.0
        ratio = f"{med / ref_median:,.0f}×" if cpu and ref_median > 0 else "–"
        med_solve = statistics.median(solve) if solve else 0.0
        solve_ratio = f"{med_solve / ref_median:,.0f}×" if solve and ref_median > 0 else "–"
        out.append(f"| {engine} | {variant} | {count['solved']}/{len(mine)} | {count['timeout']} | "
                   f"{count['gave up']} | {errors} | {sum(cpu):.2f} | {med:.3f} | "
                   f"{max(cpu) if cpu else 0:.2f} | {ratio} | {med_solve:.3f} | {solve_ratio} |")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--forum", type=int, default=20, help="puzzles of forum_hardest_1106 (20)")
    ap.add_argument("--norvig", type=int, default=11, help="puzzles of norvig_hardest (all 11)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per run (60)")
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--variants", default="faithful,tuned")
    ap.add_argument("-o", "--option", action="append", default=[], metavar="KNOB=VALUE",
                    help="encoder knob for every run, e.g. nogoods=constrains")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "conda.json"))
    args = ap.parse_args(argv)
    engines = [e for e in args.engines.split(",") if e]
    variants = [v for v in args.variants.split(",") if v]
    options = dict(kv.split("=", 1) for kv in args.option)
    chosen = resolver_sample(args.norvig, args.forum)
    rows: list[dict] = []
    native = []
    for name, puzzle, solution in chosen:
        r = run_one(puzzle, solution, "native", args.timeout, {})
        native.append(r["cpu"] or 0.0)
        rows.append({"engine": "native", "variant": "-", "puzzle": name, **r})
    ref, ref_median = sum(native), statistics.median(native)
    print(f"native (reference): {ref:.3f} CPU s for {len(chosen)} puzzles, "
          f"median {ref_median:.4f}", flush=True)
    for engine in engines:
        for variant in variants:
            for name, puzzle, solution in chosen:
                r = run_one(puzzle, solution, f"{engine}+{variant}", args.timeout, options)
                rows.append({"engine": engine, "variant": variant, "puzzle": name, **r})
                print(f"{engine}+{variant} {name}: {r['kind']} {r['cpu'] or 0:.2f} tool CPU s "
                      f"{r['seconds'] or 0:.2f} s", flush=True)
    table = summary([r for r in rows if r["engine"] != "native"], ref_median)
    record = {"bench": "conda", "polydoku": __version__,
              "when": time.strftime("%Y-%m-%d %H:%M:%S"),
              "machine": {"platform": platform.platform(), "cpus": os.cpu_count(),
                          "python": platform.python_version(),
                          "load": os.getloadavg()},
              "settings": {"timeout": args.timeout, "options": options,
                           "puzzles": [p[0] for p in chosen], "engines": engines,
                           "variants": variants},
              "versions": {e: make_engine(e).available().version for e in engines},
              "reference_native_cpu_seconds": ref,
              "reference_native_median_cpu_seconds": ref_median, "rows": rows, "table": table}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=1, default=str))
    print(f"\n{len(chosen)} puzzles, timeout {args.timeout:g} s, options {options or 'none'}; "
          f"reference: native {ref:.3f} CPU s in all, median {ref_median:.4f} s\n")
    print("\n".join(table))
    print(f"\nwritten: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
