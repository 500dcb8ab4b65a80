"""polydoku's difficulty against Sudoku Explainer's ER (serate, SE 1.2.1's techniques) on
classic sets: the share within 0.5 of ER, Spearman's rank correlation, a table per ER band, and
the time of both.

Sets (from ../shared/data, plus bench/data/qqwing_levels.txt, 20 puzzles per qqwing level made
with Debian's qqwing 1.3.4): qqwing's four levels, Royle's 17-clue puzzles (every 25th of the
1000 sample), top1465 (every 12th), the forum's hardest of 2011 (every 10th) and the forum's
ER 11+ list (every 25th of its 1000 sample). Each selection is split in two: the even places
("tune", the part the rating was built looking at) and the odd places ("held", never looked
at while building it). --part picks one.

serate is a peer here, never a dependency, and polydoku ships none of it. Point --serate (or
POLYDOKU_SERATE) at your own serate jar: build SudokuMonster/SukakuExplainer from source with
a JDK (`javac -encoding ISO-8859-1 -d classes $(find . -name '*.java')`, then
`jar cfe serate.jar diuf.sudoku.test.serate -C classes .`). It runs once per puzzle with a
time limit (--se-timeout); its time includes the JVM's start-up. ER of hard puzzles takes
serate minutes, so --se-ratings FILE reads earlier ratings instead (lines `PUZZLE ER SECONDS`,
as this script writes with --save-se), and --trust-list takes the forum 11+ list at its word
(every puzzle ER 11 or more): for those, the bench counts how many polydoku rates 10.5 or
more.

    python3 tasks.py bench serate [--part tune|held|both] [--sets qqwing,top1465,...]
        [--serate JAR | --se-ratings FILE] [--save-se FILE] [--out FILE]

Writes bench/results/serate.json.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import time
from pathlib import Path

from _common import DATA, ROOT, machine, table, write_result

from polydoku.formats.line import parse_line
from polydoku.reasoning.logic import solve_logically

# SE 1.2.1's techniques in serate's technique mask (serate --techs= lists the 46 positions):
# everything but generalized intersections and naked sets, turbot fish, the strong-linked
# fishes and the WXYZ..TUVWXYZ wings, which came after 1.2.1.
SE121_MASK = "1111111111010111011011011011000010100010111111"
SETS = {"qqwing": (None, 1), "royle17": ("samples_1000/royle_17clue_1000", 25),
        "top1465": ("magictour_top1465", 12), "hardest1106": ("forum_hardest_1106", 10),
        "forum11": ("samples_1000/forum_hardest_1905_11plus_1000", 25)}
LIMITS = {"qqwing": 80, "royle17": 40, "top1465": 120, "hardest1106": 38, "forum11": 40}
BANDS = ((0, 2), (2, 4), (4, 6), (6, 7.5), (7.5, 8.5), (8.5, 9.4), (9.4, 10.5), (10.5, 20))


def selection(name: str, part: str) -> list[str]:
    """Return a set's puzzles of one part (tune: even places of the stride, held: odd)."""
    source, stride = SETS[name]
    if source is None:
        path = ROOT / "bench" / "data" / "qqwing_levels.txt"
        lines = [ln.split()[0] for ln in path.read_text().splitlines() if ln.strip()]
    else:
        lines = [ln.strip() for ln in (DATA / f"{source}.txt").read_text().splitlines()
                 if ln.strip()]
    chosen = lines[::stride][:LIMITS[name]]
    keep = {"tune": (0,), "held": (1,), "both": (0, 1)}[part]
    return [p for i, p in enumerate(chosen) if i % 2 in keep]


def run_serate(jar: str, puzzle: str, timeout: float) -> tuple[float | None, float]:
    """Return serate's ER of one puzzle (None past the time limit) and its wall time."""
    cmd = ["java", "-Xmx1g", "-jar", jar, f"--techs={SE121_MASK}", "--islkSudokuBUG=0",
           "--islkSudokuURUL=0", "--format=%r", puzzle]
    t0 = time.perf_counter()
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - t0
    seconds = time.perf_counter() - t0
    try:
        return float(out.stdout.split()[-1]), seconds
    except (IndexError, ValueError):
        return None, seconds


def ranks(xs: list[float]) -> list[float]:
    """Return the ranks of xs, ties given their mean rank."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    out = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2
        i = j + 1
    return out


def spearman(a: list[float], b: list[float]) -> float:
    """Return Spearman's rank correlation of two lists."""
    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return round(cov / (va * vb), 3) if va and vb else 0.0


def hardest_share(rows: list[dict]) -> dict:
    """Return how many puzzles of ER 11 or more (by serate, or by the forum's list) polydoku
    rates 10.5 or more."""
    hard = [r for r in rows if (r["se"] or 0) >= 11 or r["set"] == "forum11"]
    return {"er_11_plus": len(hard), "rated_10_5_plus": sum(r["ours"] >= 10.5 for r in hard)}


def summary(rows: list[dict]) -> dict:
    """Return agreement figures of rated rows (each with `se` and `ours`)."""
    pairs = [(r["se"], r["ours"]) for r in rows if r["se"] is not None]
    if not pairs:
        return {"puzzles": 0, **hardest_share(rows)}
    se, ours = [p[0] for p in pairs], [p[1] for p in pairs]
    within = sum(abs(a - b) <= 0.5 + 1e-9 for a, b in pairs)
    return {"puzzles": len(pairs), "within_0_5": round(within / len(pairs), 3),
            "spearman": spearman(se, ours),
            "mean_abs_diff": round(sum(abs(a - b) for a, b in pairs) / len(pairs), 2),
            **hardest_share(rows)}


def band_rows(rows: list[dict]) -> list[list]:
    """Return one table row per ER band: puzzles, share within 0.5, median of ours."""
    out = []
    for lo, hi in BANDS:
        got = [r for r in rows if r["se"] is not None and lo <= r["se"] < hi]
        if not got:
            continue
        ours = sorted(r["ours"] for r in got)
        within = sum(abs(r["se"] - r["ours"]) <= 0.5 + 1e-9 for r in got)
        out.append([f"{lo}-{hi}", len(got), f"{within / len(got):.0%}", ours[len(ours) // 2],
                    f"{ours[0]}..{ours[-1]}"])
    return out


def read_cache(path: str | None) -> dict[str, tuple[float | None, float]]:
    """Return earlier serate ratings by puzzle."""
    cache: dict[str, tuple[float | None, float]] = {}
    if path:
        for line in Path(path).read_text().splitlines():
            parts = line.split()
            if len(parts) >= 3:
                er = None if parts[1] == "timeout" else float(parts[1])
                cache[parts[0]] = (er, float(parts[2]))
    return cache


def rate_set(name: str, puzzles: list[str], args, cache: dict) -> list[dict]:
    """Return per puzzle: SE's ER and time, polydoku's difficulty and time."""
    rows = []
    for p in puzzles:
        if p in cache:
            se, se_s = cache[p]
        elif args.serate and not (name == "forum11" and args.trust_list):
            se, se_s = run_serate(args.serate, p, args.se_timeout)
        else:
            se, se_s = None, 0.0
        t0 = time.process_time()
        path = solve_logically(parse_line(p), check=False, max_seconds=args.max_seconds)
        ours = path.rating.difficulty
        ours_s = time.process_time() - t0
        rows.append({"set": name, "puzzle": p, "se": se, "se_seconds": round(se_s, 3),
                     "ours": ours, "ours_seconds": round(ours_s, 3)})
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", choices=("tune", "held", "both"), default="held")
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--serate", default=os.environ.get("POLYDOKU_SERATE"),
                    help="your serate jar (or POLYDOKU_SERATE)")
    ap.add_argument("--se-ratings", help="earlier serate ratings: PUZZLE ER SECONDS per line")
    ap.add_argument("--save-se", help="append serate's ratings here, for --se-ratings")
    ap.add_argument("--se-timeout", type=float, default=300.0)
    ap.add_argument("--trust-list", action="store_true",
                    help="take the forum 11+ list's ER (11 or more) instead of running serate")
    ap.add_argument("--max-seconds", type=float, default=120.0)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    if not args.serate and not args.se_ratings:
        raise SystemExit("no serate: give --serate JAR (or POLYDOKU_SERATE) or --se-ratings FILE")
    cache = read_cache(args.se_ratings)
    rows: list[dict] = []
    per_set = {}
    for name in args.sets.split(","):
        got = rate_set(name, selection(name, args.part), args, cache)
        rows += got
        per_set[name] = {**summary(got), "se_seconds": round(sum(r["se_seconds"] for r in got), 1),
                         "ours_seconds": round(sum(r["ours_seconds"] for r in got), 1)}
        s = per_set[name]
        print(f"{name}: {s.get('within_0_5')} within 0.5, Spearman {s.get('spearman')}, "
              f"ER 11+ rated 10.5+: {s['rated_10_5_plus']} of {s['er_11_plus']}, "
              f"serate {s['se_seconds']} s, polydoku {s['ours_seconds']} s", flush=True)
    if args.save_se:
        with open(args.save_se, "a") as f:
            for r in rows:
                f.write(f"{r['puzzle']} {r['se'] if r['se'] is not None else 'timeout'} "
                        f"{r['se_seconds']}\n")
    total = summary(rows)
    se_s = sum(r["se_seconds"] for r in rows if r["se"] is not None)
    ours_s = sum(r["ours_seconds"] for r in rows if r["se"] is not None)
    ratio = round(se_s / ours_s, 1) if ours_s else None
    print()
    print(table(["set", "puzzles", "within 0.5", "Spearman", "serate s", "polydoku s"],
                [[k, v.get("puzzles"), v.get("within_0_5"), v.get("spearman"), v["se_seconds"],
                  v["ours_seconds"]] for k, v in per_set.items()]))
    print()
    print(table(["ER band", "puzzles", "within 0.5", "polydoku median", "polydoku range"],
                band_rows(rows)))
    print(f"\nall ({args.part}): {total.get('within_0_5')} within 0.5, Spearman "
          f"{total.get('spearman')}, over {total.get('puzzles')} puzzles rated by serate; "
          f"ER 11+ rated 10.5 or more: {total['rated_10_5_plus']} of {total['er_11_plus']}; "
          f"serate took {ratio}x polydoku's time (serate wall time with JVM start-up per "
          f"puzzle, polydoku CPU time with its solution proof and HoDoKu path)")
    path = write_result({"machine": machine(), "part": args.part, "summary": total,
                         "sets": per_set, "serate_over_polydoku_time": ratio, "rows": rows},
                        args.out, "serate")
    print(f"\nwrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
