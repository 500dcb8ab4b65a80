"""Published variant puzzles (tests/data/variants/published.jsonl): per engine, the time to solve
and to prove uniqueness (count to 2), every answer checked against the published solution.

    python3 tasks.py bench variants [--engines native,cpsat,sat] [--timeout 60]

Prints a table per puzzle and the medians; the reference is native in the same run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from _common import ROOT

from polydoku import api
from polydoku.formats.jsonfmt import puzzle_from_dict


def run(engine: str, entry: dict, limit: int, timeout: float) -> tuple[str, float]:
    """Return (status word, wall seconds) of one engine on one puzzle."""
    puzzle = puzzle_from_dict(entry["puzzle"])
    t0 = time.perf_counter()
    out = api.count(puzzle, engine, limit=limit, timeout=timeout)
    seconds = time.perf_counter() - t0
    if not out.solutions:
        return out.status.value, seconds
    if "".join(map(str, out.solutions[0])) != entry["solution"]:
        return "WRONG", seconds
    if limit > 1:
        return ("unique" if out.exhausted and out.count == 1 else
                "timeout" if not out.exhausted else "several"), seconds
    return "solved", seconds


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--engines", default="native,cpsat,sat")
    ap.add_argument("--timeout", type=float, default=60)
    args = ap.parse_args()
    entries = [json.loads(x) for x in
               (ROOT / "tests" / "data" / "variants" / "published.jsonl").read_text().splitlines()]
    engines = args.engines.split(",")
    table: dict[str, dict[str, list]] = {e: {"solve": [], "unique": []} for e in engines}
    print(f"{'puzzle':30} " + " ".join(f"{e + ' solve':>14} {e + ' unique':>15}" for e in engines))
    for entry in entries:
        row = []
        for engine in engines:
            for what, limit in (("solve", 1), ("unique", 2)):
                status, seconds = run(engine, entry, limit, args.timeout)
                table[engine][what].append(seconds if status in ("solved", "unique") else None)
                row.append(f"{seconds:8.2f}s {status[:6]:>6}")
        print(f"{entry['id'][:30]:30} " + " ".join(row), flush=True)
    for engine in engines:
        for what in ("solve", "unique"):
            done = [s for s in table[engine][what] if s is not None]
            all_times = [s if s is not None else float("inf") for s in table[engine][what]]
            print(f"{engine:8} {what:7} done {len(done)}/{len(entries)}, "
                  f"median {statistics.median(all_times):.2f} s")


if __name__ == "__main__":
    main()
