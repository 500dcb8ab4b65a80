"""The finer difficulty scale (Sudoku Explainer's manner, `polydoku rate`'s difficulty column)
over puzzle sets of known hardness: norvig's easy 50, magictour's top1465, and the forum's
hardest (Sudoku Explainer 11+). Reports per set the median and spread of the scale, and the
order agreement between sets: the share of (harder set, easier set) puzzle pairs that the
scale puts in that order (ties count half). A path cut by --max-seconds counts as stalled
(11.0) and is reported.

    python3 tasks.py bench difficulty [--limit 40] [--max-seconds 20] [--out FILE]

Writes bench/results/difficulty.json.
"""

from __future__ import annotations

import argparse
import statistics
import time

from _common import load_set, machine, table, write_result

from polydoku.formats.line import parse_line
from polydoku.reasoning.logic import solve_logically

SETS = (("easy50", "norvig_easy50"), ("top1465", "magictour_top1465"),
        ("forum 11+", "samples_1000/forum_hardest_1905_11plus_1000"))


def rate_set(name: str, limit: int, max_seconds: float) -> dict:
    lines, _ = load_set(name)
    values, levels, cut, seconds = [], [], 0, []
    for line in lines[:limit]:
        t0 = time.perf_counter()
        path = solve_logically(parse_line(line), check=False, max_seconds=max_seconds)
        seconds.append(time.perf_counter() - t0)
        rating = path.rating
        values.append(rating.difficulty)
        levels.append(rating.level)
        cut += path.timed_out
    return {"values": values, "levels": levels, "timed_out": cut,
            "median": statistics.median(values), "min": min(values), "max": max(values),
            "mean_s": round(statistics.mean(seconds), 3)}


def agreement(harder: list[float], easier: list[float]) -> float:
    """Return the share of pairs (h, e) with h rated above e (ties count half)."""
    wins = sum((h > e) + 0.5 * (h == e) for h in harder for e in easier)
    return round(wins / (len(harder) * len(easier)), 4)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=40, help="puzzles per set (the first N)")
    ap.add_argument("--max-seconds", type=float, default=20.0)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    results = {}
    for label, name in SETS:
        results[label] = rate_set(name, args.limit, args.max_seconds)
        r = results[label]
        print(f"{label}: median {r['median']} ({r['min']}..{r['max']}), "
              f"{r['timed_out']} cut by the time limit, {r['mean_s']} s per puzzle", flush=True)
    rows = [[label, len(r["values"]), r["median"], r["min"], r["max"], r["timed_out"]]
            for label, r in results.items()]
    print()
    print(table(["set", "puzzles", "median", "min", "max", "cut by time"], rows))
    pairs = {"top1465 above easy50": agreement(results["top1465"]["values"],
                                               results["easy50"]["values"]),
             "forum 11+ above top1465": agreement(results["forum 11+"]["values"],
                                                  results["top1465"]["values"]),
             "forum 11+ above easy50": agreement(results["forum 11+"]["values"],
                                                 results["easy50"]["values"])}
    print()
    print(table(["order", "agreement"], [[k, v] for k, v in pairs.items()]))
    path = write_result({"machine": machine(), "limit": args.limit,
                         "max_seconds": args.max_seconds, "sets": results,
                         "agreement": pairs}, args.out, "difficulty")
    print(f"\nwrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
