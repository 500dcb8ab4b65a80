"""Logic on published variant puzzles (tests/data/variants/published.jsonl, with sources, or
held_out*.jsonl with --set: puzzles the variant techniques were not built
on): per
puzzle, whether the logical solver finishes it, with patterns only (no forcing net: no trial
and error) and with everything; the time of the whole path (wall and CPU); the time of a hint at the start and
halfway through (the position with the first half of the path's placements as givens); and the
native engine's time to solve and prove uniqueness (up to 30 s), as the reference in the same
run. Every step is checked against the published solution. Then the share solved per rule kind.

    python3 tasks.py bench logic_variants [--set published|held_out|held_out_2|held_out_3|held_out_4] [--max-seconds 60] [--out FILE]

Writes bench/results/logic_variants.json (logic_variants_SET.json for a held-out set).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter, defaultdict

from _common import ROOT, machine, table, write_result

from polydoku import api
from polydoku.formats.jsonfmt import puzzle_from_dict
from polydoku.model import Puzzle
from polydoku.reasoning.logic import hint, solve_logically

TRIAL = {"Forcing Net", "Nested Forcing Net"}


def halfway(puzzle: Puzzle, path) -> Puzzle:
    """Return the puzzle with the first half of the path's placements added as givens."""
    placed = [p for s in path.steps for p in s.placements]
    givens = list(puzzle.givens)
    for i, v in placed[:len(placed) // 2]:
        givens[i] = v
    return Puzzle(puzzle.geometry, tuple(givens), puzzle.rules)


def timed(fn, *args, **kw):
    t0 = time.perf_counter()
    out = fn(*args, **kw)
    return out, time.perf_counter() - t0


def one(entry: dict, max_seconds: float) -> dict:
    puzzle = puzzle_from_dict(entry["puzzle"])
    solution = [int(ch, 36) for ch in entry["solution"]]
    native, native_s = timed(api.count, puzzle, "native", limit=2, timeout=30)
    cpu0 = time.process_time()
    path, path_s = timed(solve_logically, puzzle, check=False, max_seconds=max_seconds)
    path_cpu_s = time.process_time() - cpu0
    wrong = [s.text for s in path.steps
             if any(solution[i] == v for i, v in s.eliminations)
             or any(solution[i] != v for i, v in s.placements)]
    used = Counter(s.technique for s in path.steps)
    patterns = path.solved and not (TRIAL & set(used))
    _, hint_start_s = timed(hint, puzzle, check=False)
    _, hint_half_s = timed(hint, halfway(puzzle, path), check=False)
    return {"id": entry["id"], "kinds": entry["kinds"], "solved": path.solved,
            "patterns_only": patterns, "timed_out": path.timed_out, "steps": len(path.steps),
            "wrong_steps": wrong, "rating": str(path.rating), "score": path.rating.score,
            "level": path.rating.level, "techniques": dict(used),
            "path_s": round(path_s, 4), "path_cpu_s": round(path_cpu_s, 4), "hint_start_s": round(hint_start_s, 4),
            "hint_half_s": round(hint_half_s, 4), "native_s": round(native_s, 4),
            "native_unique": native.exhausted and native.count == 1}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-seconds", type=float, default=60.0,
                    help="stop a path after this long (counted as not solved)")
    ap.add_argument("--set", choices=["published", "held_out", "held_out_2", "held_out_3", "held_out_4"], default="published",
                    help="the 25 published puzzles, or a held-out set (SOURCES.md)")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    entries = [json.loads(line) for line in
               (ROOT / "tests" / "data" / "variants" / f"{args.set}.jsonl").read_text().splitlines()]
    rows = []
    for entry in entries:
        r = one(entry, args.max_seconds)
        rows.append(r)
        print(f"{r['id'][:34]:34} solved={r['solved']!s:5} patterns={r['patterns_only']!s:5} "
              f"{r['path_s']:7.2f}s ({r['path_cpu_s']:.2f}s CPU) hint {1000 * r['hint_half_s']:6.0f} ms  {r['rating']}",
              flush=True)
    by_kind: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        for k in r["kinds"]:
            by_kind[k].append(r)
    kinds = [[k, len(rs), sum(r["solved"] for r in rs), sum(r["patterns_only"] for r in rs)]
             for k, rs in sorted(by_kind.items())]
    print()
    print(table(["kind", "puzzles", "solved by logic", "patterns only (no forcing net)"], kinds))
    hints = [r["hint_half_s"] for r in rows] + [r["hint_start_s"] for r in rows]
    summary = {
        "puzzles": len(rows),
        "solved": sum(r["solved"] for r in rows),
        "patterns_only": sum(r["patterns_only"] for r in rows),
        "wrong_steps": sum(len(r["wrong_steps"]) for r in rows),
        "median_path_s": round(statistics.median(r["path_s"] for r in rows), 4),
        "median_path_cpu_s": round(statistics.median(r["path_cpu_s"] for r in rows), 4),
        "max_path_cpu_s": round(max(r["path_cpu_s"] for r in rows), 4),
        "median_hint_ms": round(1000 * statistics.median(hints), 1),
        "median_native_s": round(statistics.median(r["native_s"] for r in rows), 4),
    }
    print()
    print(table(list(summary), [list(summary.values())]))
    path = write_result({"machine": machine(), "max_seconds": args.max_seconds,
                         "summary": summary, "kinds": kinds, "puzzles": rows},
                        args.out, "logic_variants" if args.set == "published"
                        else f"logic_variants_{args.set}")
    print(f"\nwrote {path}")
    return 1 if summary["wrong_steps"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
