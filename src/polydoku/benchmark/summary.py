"""Per-engine figures of a benchmark result, and the table that shows them.

Counts per status; median and max time over the puzzles an engine finished (solved or proved
unsatisfiable); puzzles per second over all its runs; and the ratio to the reference engine:
the geometric mean, over the puzzles both finished, of engine time / reference time (so 3.0
means three times slower than the reference, in the same run). A wrong answer is counted and
shown in red, never hidden.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter

FINISHED = ("solved", "unsat")
COUNTED = ("solved", "unsat", "gave-up", "timeout", "error", "wrong")


def _ratio(puzzles: list[dict], spec: str, reference: str) -> tuple[float | None, int]:
    """Return the geometric mean of `spec`'s time over `reference`'s, and over how many
    puzzles."""
    logs = []
    for p in puzzles:
        mine, ref = p["results"].get(spec), p["results"].get(reference)
        if mine and ref and mine["status"] in FINISHED and ref["status"] in FINISHED:
            logs.append(math.log(max(mine["seconds"], 1e-6) / max(ref["seconds"], 1e-6)))
    return (math.exp(statistics.fmean(logs)) if logs else None), len(logs)


def summarize(results: dict) -> dict[str, dict]:
    """Return, per engine spec, its counts, times, throughput and ratio to the reference."""
    reference = results["settings"].get("reference") or ""
    out = {}
    for spec, info in results["engines"].items():
        rows = [p["results"][spec] for p in results["puzzles"] if spec in p["results"]]
        if not info["available"]:
            out[spec] = {"available": False, "reason": info["reason"], "hint": info["hint"]}
            continue
        counts = Counter(r["status"] for r in rows)
        finished = [r["seconds"] for r in rows if r["status"] in FINISHED]
        total = sum(r["seconds"] for r in rows)
        ratio, n_ratio = _ratio(results["puzzles"], spec, reference)
        out[spec] = {"available": True, "version": info["version"], "puzzles": len(rows),
                     **{status: counts.get(status, 0) for status in COUNTED},
                     "median_seconds": statistics.median(finished) if finished else None,
                     "max_seconds": max(finished) if finished else None,
                     "total_seconds": round(total, 6),
                     "puzzles_per_second": len(rows) / total if total > 0 else None,
                     "ratio_to_reference": ratio, "ratio_puzzles": n_ratio,
                     "reference": reference}
    return out


def fmt_seconds(seconds: float | None) -> str:
    """Return a time for a person: µs, ms or s with three significant digits ("—" for none)."""
    if seconds is None:
        return "—"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.3g} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds:.3g} s"


def fmt_number(x: float | None) -> str:
    """Return a rate or ratio for a person: three significant digits, whole from 100 up."""
    if x is None:
        return "—"
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def table(results: dict, summary: dict[str, dict]):
    """Return a rich Table of the summary, wrong answers in red, unavailable engines named."""
    from rich.table import Table
    s = results["settings"]
    n = len(results["puzzles"])
    sets = ", ".join(x["name"] for x in results["sets"])
    t = Table(title=f"polydoku bench: {n} puzzles ({sets}), repeat {s['repeat']}, "
                    f"timeout {s['timeout']:g} s, "
                    + ("on Dask" if s.get("dask") else f"jobs {s['jobs']}"),
              caption=f"times: wall clock, median over repeats, over finished puzzles; "
                      f"× {s['reference']}: geometric mean of time ratios on puzzles both "
                      f"finished (same run)")
    for name in ("engine", "version", "solved", "unsat", "gave up", "timeout", "error", "wrong",
                 "median", "max", "puzzles/s", f"× {s['reference']}"):
        t.add_column(name, justify="left" if name in ("engine", "version") else "right")
    for spec, row in summary.items():
        if not row["available"]:
            t.add_row(spec, f"[red]unavailable[/red]: {row['reason']}", *["—"] * 10)
            continue
        wrong = f"[bold red]{row['wrong']}[/bold red]" if row["wrong"] else "0"
        error = f"[yellow]{row['error']}[/yellow]" if row["error"] else "0"
        timeout = f"[yellow]{row['timeout']}[/yellow]" if row["timeout"] else "0"
        gave_up = f"[yellow]{row['gave-up']}[/yellow]" if row["gave-up"] else "0"
        rate = row["puzzles_per_second"]
        ratio = row["ratio_to_reference"]
        t.add_row(spec, row["version"], str(row["solved"]), str(row["unsat"]), gave_up, timeout,
                  error, wrong, fmt_seconds(row["median_seconds"]),
                  fmt_seconds(row["max_seconds"]), fmt_number(rate), fmt_number(ratio))
    return t


def not_run_notes(summary: dict[str, dict]) -> list[str]:
    """Return one line per engine that could not run here: why, and how to install it."""
    return [f"{spec}: not run, unavailable: {row['reason']}"
            + (f" (install: {row['hint']})" if row.get("hint") else "")
            for spec, row in summary.items() if not row["available"]]
