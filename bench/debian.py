#!/usr/bin/env python3
"""Benchmark: the Debian engines (apt, aptitude, aspcud, libsolv-deb, dose) on hard 9x9 puzzles,
faithful and tuned encodings side by side.

Puzzles: all 11 of `norvig_hardest` and 20 of `forum_hardest_1106` (every 18th line from the
first, so the sorted file is covered evenly). Every engine runs every puzzle once with a per-run
timeout (default 60 s) and the default memory cap. The reference, measured in the same run, is
the native engine on the same puzzles. CPU seconds are those of the tool's processes (for
libsolv-deb, its child process), summed over the runs that finished, timeouts excluded; the
machine has 2 cores shared with other work, so absolute times are noisy: read the ratios.

Run: `python3 tasks.py bench debian [--forum 20] [--timeout 60] [--engines apt,dose]
[--variants faithful,tuned] [--reduction conflicts] [--out FILE]`. A quick look:
`--forum 3 --timeout 10 --engines libsolv-deb,dose`. Writes a JSON record (settings, versions,
machine, every run) and prints a table.
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

ENGINES = ("apt", "aptitude", "aspcud", "libsolv-deb", "dose")


def run_one(puzzle, solution: str, spec: str, timeout: float, options: dict) -> dict:
    """Return one run's record: status, kind of failure, tool CPU and wall seconds."""
    t = time.perf_counter()
    try:
        outcome = api.solve(puzzle, spec, timeout=timeout, options=options)
    except PolydokuError as err:
        return {"status": "error", "kind": "error", "message": str(err)[:300],
                "seconds": time.perf_counter() - t, "cpu": None}
    grid = "".join(str(v) for v in outcome.solutions[0]) if outcome.solutions else ""
    kind = outcome.status.value
    if outcome.status is Status.UNKNOWN:
        kind = "timeout" if "timed out" in outcome.message else \
            "memory" if "memory cap" in outcome.message else "gave up"
    if outcome.status is Status.SOLVED and grid != solution:
        kind = "other solution"   # verified by api.solve, but not the file's unique solution
    return {"status": outcome.status.value, "kind": kind, "message": outcome.message[:300],
            "seconds": outcome.stats.get("seconds"),
            "cpu": outcome.stats.get("tool_cpu_seconds", outcome.stats.get("cpu_seconds"))}


def summary(rows: list[dict], ref_median: float) -> list[str]:
    """Return the table lines: per engine and variant, counts, CPU seconds, and the median CPU
    seconds of its solved runs over native's median on the same puzzles."""
    keys = sorted({(r["engine"], r["variant"]) for r in rows}, key=lambda k: (
        (ENGINES + ("native",)).index(k[0]), k[1]))
    out = ["| engine | encoding | solved | timeout | gave up | memory | error | CPU s (solved) | "
           "median CPU s | max CPU s | median vs native |", "|---|---|" + "---:|" * 9]
    for engine, variant in keys:
        mine = [r for r in rows if r["engine"] == engine and r["variant"] == variant]
        count = {k: sum(r["kind"] == k for r in mine) for k in
                 ("solved", "timeout", "gave up", "memory", "error")}
        cpu = [r["cpu"] for r in mine if r["kind"] == "solved" and r["cpu"] is not None]
        total = sum(cpu)
        ratio = f"{statistics.median(cpu) / ref_median:,.0f}×" if cpu and ref_median > 0 else "–"
        out.append(f"| {engine} | {variant} | {count['solved']}/{len(mine)} | {count['timeout']} | "
                   f"{count['gave up']} | {count['memory']} | {count['error']} | {total:.2f} | "
                   f"{statistics.median(cpu) if cpu else 0:.2f} | {max(cpu) if cpu else 0:.2f} | "
                   f"{ratio} |")
    return out


def versions(engines: list[str]) -> dict[str, str]:
    """Return each engine's version as `polydoku engines` shows it."""
    return {e: make_engine(e).available().version for e in engines}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--forum", type=int, default=20, help="puzzles of forum_hardest_1106 (20)")
    ap.add_argument("--norvig", type=int, default=11, help="puzzles of norvig_hardest (all 11)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per run (60)")
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--variants", default="faithful,tuned")
    ap.add_argument("--reduction", default="conflicts", choices=("conflicts", "depends"))
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "debian.json"))
    args = ap.parse_args(argv)
    engines = [e for e in args.engines.split(",") if e]
    variants = [v for v in args.variants.split(",") if v]
    chosen = resolver_sample(args.norvig, args.forum)
    options = {"reduction": args.reduction}
    rows: list[dict] = []
    native = []
    for name, puzzle, solution in chosen:
        r = run_one(puzzle, solution, "native", args.timeout, {})
        native.append(r["cpu"] or 0.0)
        rows.append({"engine": "native", "variant": "-", "puzzle": name, **r})
    ref, ref_median = sum(native), statistics.median(native)
    print(f"native (reference): {ref:.3f} CPU s for {len(chosen)} puzzles, median {ref_median:.4f}",
          flush=True)
    for engine in engines:
        for variant in variants:
            for name, puzzle, solution in chosen:
                r = run_one(puzzle, solution, f"{engine}+{variant}", args.timeout, options)
                rows.append({"engine": engine, "variant": variant, "puzzle": name, **r})
                print(f"{engine}+{variant} {name}: {r['kind']} {r['cpu'] or 0:.2f} CPU s "
                      f"{r['seconds'] or 0:.2f} s", flush=True)
    table = summary([r for r in rows if r["engine"] != "native"], ref_median)
    record = {"bench": "debian", "polydoku": __version__,
              "when": time.strftime("%Y-%m-%d %H:%M:%S"),
              "machine": {"platform": platform.platform(), "cpus": os.cpu_count(),
                          "python": platform.python_version()},
              "settings": {"timeout": args.timeout, "reduction": args.reduction,
                           "puzzles": [p[0] for p in chosen], "engines": engines,
                           "variants": variants},
              "versions": versions(engines), "reference_native_cpu_seconds": ref,
              "reference_native_median_cpu_seconds": ref_median,
              "rows": rows, "table": table}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=1, default=str))
    print(f"\n{len(chosen)} puzzles, timeout {args.timeout:g} s, reduction {args.reduction}; "
          f"reference: native {ref:.3f} CPU s in all, median {ref_median:.4f} s\n")
    print("\n".join(table))
    print(f"\nwritten: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
