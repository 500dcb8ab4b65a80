#!/usr/bin/env python3
"""Benchmark: `polydoku generate` beside qqwing, level by level, and the levels checked by
outside raters.

For each of four level pairs (polydoku Easy, Medium, Hard, Unfair beside qqwing's simple,
easy, intermediate, expert), both make `--count` unique puzzles (50 by default) in the same run:
qqwing with `qqwing --generate N --difficulty D --one-line` (a subprocess; its CPU time is its
child-process time), polydoku with `polydoku generate --count N --level L --seed S -j 1` (a
subprocess too, so both pay their start-up). Each side runs `--rounds` times alternately and
the medians count. The claim checked: polydoku's total over the four levels is no longer than
qqwing's, and the ratio per level is shown beside it.

Agreement: every puzzle polydoku made is rated by hodoku-py (PyPI, a port of HoDoKu, whose
levels polydoku's rater follows) and by `qqwing --solve --stats` (simple/easy/intermediate/
expert, from the techniques qqwing's solver needs and whether it guesses). Reported per level:
the share hodoku-py rates at the same level; the share qqwing rates simple or easy (for Easy)
and intermediate or expert (for Hard and Unfair). qqwing's own puzzles are rated by polydoku and
hodoku-py for context: qqwing's levels are not HoDoKu's.

Run: `python3 tasks.py bench generate [--count 50] [--rounds 3] [--levels Easy,Medium,...]
[--seed 1] [--out FILE]`. Prints a table and writes a JSON record
(bench/results/generate.json by default). Needs qqwing (deps/debian-bench.txt) and, for the
agreement, hodoku-py (the `bench` extra; without it that column says so).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

from _common import ROOT, machine, table, write_result
from _common import timed as run_timed

sys.path.insert(0, str(ROOT / "src"))

PAIRS = {"Easy": "simple", "Medium": "easy", "Hard": "intermediate", "Unfair": "expert"}
POLYDOKU = [str(ROOT / ".venv" / "bin" / "polydoku")]
if not Path(POLYDOKU[0]).exists():
    POLYDOKU = [sys.executable, "-m", "polydoku"]


def timed(cmd: list[str], stdin: str | None = None) -> tuple[str, float, float]:
    """Run a command with polydoku's source on its path; return stdout, wall and CPU seconds."""
    return run_timed(cmd, stdin=stdin, env={"PYTHONPATH": str(ROOT / "src")})


def qqwing_generate(level: str, count: int) -> tuple[list[str], float, float]:
    out, wall, cpu = timed(["qqwing", "--generate", str(count), "--difficulty", PAIRS[level],
                            "--one-line"])
    return [line for line in out.split() if len(line) == 81], wall, cpu


def polydoku_generate(level: str, count: int, seed: int) -> tuple[list[str], float, float]:
    out, wall, cpu = timed([*POLYDOKU, "generate", "--count", str(count), "--level", level,
                            "--seed", str(seed), "-j", "1"])
    return out.split(), wall, cpu


def qqwing_levels(puzzles: list[str]) -> list[str]:
    """Return qqwing's difficulty of each puzzle (`--solve --stats --csv`)."""
    out, _, _ = timed(["qqwing", "--solve", "--stats", "--csv"], "\n".join(puzzles) + "\n")
    rows = [line.split(",") for line in out.splitlines()[1:] if line.strip()]
    return [row[10].strip().lower() for row in rows]


def hodoku_levels(puzzles: list[str]) -> list[str] | None:
    """Return hodoku-py's level of each puzzle, None when hodoku-py is not installed."""
    try:
        from hodoku.api import Solver
    except ImportError:
        return None
    solver = Solver()
    return [solver.rate(p.replace(".", "0")).level.name.capitalize() for p in puzzles]


def polydoku_levels(puzzles: list[str]) -> list[str]:
    from polydoku.formats.line import parse_line
    from polydoku.reasoning.logic import solve_logically
    return [solve_logically(parse_line(p)).rating.level for p in puzzles]


def share(values: list[str] | None, wanted: set[str]) -> float | None:
    if values is None:
        return None
    return round(sum(v in wanted for v in values) / len(values), 3) if values else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--levels", default=",".join(PAIRS))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None, help="JSON record (bench/results/generate.json)")
    args = ap.parse_args()
    levels = [lv.strip() for lv in args.levels.split(",") if lv.strip()]
    unknown = [lv for lv in levels if lv not in PAIRS]
    if unknown:
        ap.error(f"unknown level {unknown[0]!r}: expected {', '.join(PAIRS)}")
    records, rows = [], []
    for level in levels:
        ours_wall, ours_cpu, theirs_wall, theirs_cpu = [], [], [], []
        ours: list[str] = []
        theirs: list[str] = []
        for k in range(args.rounds):
            theirs, w, c = qqwing_generate(level, args.count)
            theirs_wall.append(w)
            theirs_cpu.append(c)
            ours, w, c = polydoku_generate(level, args.count, args.seed + k)
            ours_wall.append(w)
            ours_cpu.append(c)
        if len(ours) != args.count:
            print(f"polydoku made {len(ours)} of {args.count} {level} puzzles", file=sys.stderr)
        rated = polydoku_levels(ours)
        hodoku = hodoku_levels(ours)
        qq = qqwing_levels(ours)
        qq_own_ours = polydoku_levels(theirs)
        qq_own_hodoku = hodoku_levels(theirs)
        # qqwing rates by what its solver needs: hidden singles (easy), pairs and
        # intersections (intermediate), guessing (expert); Medium has no counterpart claim
        want_qq = {"simple", "easy"} if level == "Easy" else (
            {"intermediate", "expert"} if level in ("Hard", "Unfair") else None)
        rec = {
            "level": level, "qqwing_level": PAIRS[level], "count": args.count,
            "polydoku_wall_s": round(statistics.median(ours_wall), 3),
            "polydoku_cpu_s": round(statistics.median(ours_cpu), 3),
            "qqwing_wall_s": round(statistics.median(theirs_wall), 3),
            "qqwing_cpu_s": round(statistics.median(theirs_cpu), 3),
            "rated_at_level": share(rated, {level}),
            "hodoku_same_level": share(hodoku, {level}),
            "hodoku_levels": dict(Counter(hodoku)) if hodoku is not None else None,
            "qqwing_agrees": share(qq, want_qq) if want_qq else None,
            "qqwing_levels": dict(Counter(qq)),
            "qqwing_puzzles_polydoku_levels": dict(Counter(qq_own_ours)),
            "qqwing_puzzles_hodoku_levels": dict(Counter(qq_own_hodoku))
            if qq_own_hodoku is not None else None,
        }
        rec["ratio_cpu"] = round(rec["polydoku_cpu_s"] / max(rec["qqwing_cpu_s"], 1e-9), 2)
        records.append(rec)
        rows.append([level, PAIRS[level], f"{rec['polydoku_cpu_s']:.2f}",
                     f"{rec['qqwing_cpu_s']:.2f}", f"{rec['ratio_cpu']:.2f}",
                     f"{rec['rated_at_level']:.0%}",
                     "n/a" if rec["hodoku_same_level"] is None else f"{rec['hodoku_same_level']:.0%}",
                     "-" if rec["qqwing_agrees"] is None else f"{rec['qqwing_agrees']:.0%}"])
    ours_total = sum(r["polydoku_cpu_s"] for r in records)
    theirs_total = sum(r["qqwing_cpu_s"] for r in records)
    rows.append(["total", "", f"{ours_total:.2f}", f"{theirs_total:.2f}",
                 f"{ours_total / max(theirs_total, 1e-9):.2f}", "", "", ""])
    print(table(["level", "qqwing", "polydoku s", "qqwing s", "ratio", "rated at level",
                 "hodoku agrees", "qqwing agrees"], rows))
    out = write_result({"machine": machine(), "count": args.count, "rounds": args.rounds,
                          "levels": records, "polydoku_total_cpu_s": round(ours_total, 3),
                        "qqwing_total_cpu_s": round(theirs_total, 3)}, args.out, "generate")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
