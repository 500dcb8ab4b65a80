"""polydoku's native engine against the Interactive Sudoku Solver (ISS, run headless in node),
in one run: uniqueness (count to 2), CPU time per puzzle, on the project's variant puzzles,
on ISS's own collection (the puzzles polydoku reads of it) and on classic top1465 puzzles.

    python3 tasks.py bench iss [--classic 200] [--timeout 60] [--out DIR]

polydoku's time is the CPU time of `api.count(puzzle, "native", limit=2)` in this process
(reading the puzzle excluded, lowering and search included); ISS's is the CPU time its runner
reports for parsing, building and searching (node's start-up excluded for both). Each puzzle
is written for ISS by `polydoku export --to iss`; puzzles with kinds ISS lacks are left out
and counted. Both answers are checked: the count must agree, and the solution must be the
published one. Prints a table per puzzle, totals per set, the ratio, the worst tail and how
many puzzles took more than 3x ISS's time + 5 ms; writes JSON and a plot to --out.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from pathlib import Path

import _iss
from _common import DATA, RESULTS, ROOT

from polydoku import api
from polydoku.errors import BadInput
from polydoku.formats.iss import to_iss
from polydoku.formats.jsonfmt import puzzle_from_dict
from polydoku.formats.line import parse_line

VARIANT_SETS = ("published", "held_out", "held_out_2", "held_out_3", "held_out_4")
SLACK_MS = 5.0          # the target: no puzzle over 3x ISS's time + 5 ms


def variant_cases() -> tuple[list[dict], dict[str, int]]:
    """Return the variant puzzles ISS can hold (set, id, puzzle, solution, ISS string) and how
    many of each set were left out."""
    sources = [(name, ROOT / "tests" / "data" / "variants" / f"{name}.jsonl")
               for name in VARIANT_SETS] + [("shared", DATA / "variants" / "variants.jsonl")]
    cases, left_out = [], {}
    for name, path in sources:
        for line in path.read_text().splitlines():
            d = json.loads(line)
            puzzle = puzzle_from_dict(d.get("puzzle", d))
            try:
                text = to_iss(puzzle)
            except BadInput:
                left_out[name] = left_out.get(name, 0) + 1
                continue
            cases.append({"set": name, "id": d["id"], "puzzle": puzzle, "iss": text,
                          "solution": d.get("solution"), "kinds": sorted(
                              {r.kind for r in puzzle.rules})})
    return cases, left_out


def collection_cases() -> tuple[list[dict], dict[str, int]]:
    """Return the puzzles of ISS's own collection (tests/data/iss_collection.jsonl) that
    polydoku reads, given to ISS as ISS wrote them, and how many it cannot read (by why)."""
    from polydoku.formats import read_puzzle
    cases, refused = [], {}
    path = ROOT / "tests" / "data" / "iss_collection.jsonl"
    for k, line in enumerate(path.read_text().splitlines(), 1):
        d = json.loads(line)
        try:
            puzzle = read_puzzle(d["input"])
        except BadInput as err:
            refused[err.reason[:40]] = refused.get(err.reason[:40], 0) + 1
            continue
        cases.append({"set": "collection", "id": f"{k}:{d['name']}"[:60], "puzzle": puzzle,
                      "iss": "".join(d["input"].split()), "solution": d.get("solution"),
                      "kinds": sorted({r.kind for r in puzzle.rules})})
    return cases, refused


def classic_cases(count: int) -> list[dict]:
    """Return the first `count` puzzles of top1465 (classic, 9x9)."""
    lines = (DATA / "samples_1000" / "magictour_top1465_first1000.txt").read_text().split()
    sols = (DATA / "samples_1000" / "magictour_top1465_first1000.solutions.txt").read_text().split()
    out = []
    for k, (line, sol) in enumerate(zip(lines[:count], sols)):
        puzzle = parse_line(line)
        out.append({"set": "top1465", "id": f"top1465-{k + 1}", "puzzle": puzzle,
                    "iss": to_iss(puzzle), "solution": sol, "kinds": []})
    return out


def run_polydoku(case: dict, timeout: float) -> dict:
    """Return polydoku's answer on one case: count (None when it gave up), CPU ms, solution."""
    t0 = time.process_time()
    try:
        out = api.count(case["puzzle"], "native", limit=2, timeout=timeout)
    except BadInput as err:             # a clue polydoku bounds (a loop with too many fillings)
        return {"count": None, "ms": 1000 * (time.process_time() - t0), "solution": None,
                "status": f"refused: {err.reason[:60]}"}
    ms = 1000 * (time.process_time() - t0)
    first = "".join(map(str, out.solutions[0])) if out.solutions else None
    return {"count": out.count if out.exhausted or out.count >= 2 else None, "ms": ms,
            "solution": first, "status": out.status.value}


def check(case: dict) -> str:
    """Return "" when both answers agree with each other and the published solution, else why."""
    ours, theirs = case["polydoku"], case["iss_answer"]
    if "error" in theirs:
        return "ISS error: " + str(theirs["error"])[:60]
    if ours["count"] is None:
        return "polydoku gave up"
    if ours["count"] != theirs["solutions"]:
        return f"counts differ: {ours['count']} vs {theirs['solutions']}"
    small = case["puzzle"].size <= 9
    if small and case["solution"] and ours["solution"] != case["solution"]:
        return "polydoku's solution is not the published one"
    if small and case["solution"] and theirs["solution"] != case["solution"]:
        return "ISS's solution is not the published one"
    return ""


def over_target(case: dict) -> bool:
    """Return whether polydoku took more than 3x ISS's time + 5 ms."""
    return case["polydoku"]["ms"] > 3 * case["iss_answer"].get("cpu_ms", 0) + SLACK_MS


def report(cases: list[dict], left_out: dict[str, int], worst: int) -> None:
    """Print the table per puzzle, totals per set, the worst tail and the target's count."""
    print(f"{'set':10} {'puzzle':34} {'polydoku ms':>12} {'ISS ms':>9} {'ratio':>7} "
          f"{'ISS guesses':>11}  problem")
    for c in cases:
        if c["set"] == "top1465":
            continue
        p, i = c["polydoku"], c["iss_answer"]
        ratio = p["ms"] / max(i.get("cpu_ms", 0), 0.001)
        print(f"{c['set']:10} {c['id'][:34]:34} {p['ms']:12.1f} {i.get('cpu_ms', 0):9.1f} "
              f"{ratio:7.1f} {i.get('guesses', 0):11}  {c['problem']}")
    print()
    print(f"{'set':10} {'puzzles':>7} {'left out':>8} {'polydoku s':>11} {'ISS s':>8} "
          f"{'ratio':>6} {'>3x+5ms':>8} {'problems':>8}")
    for name in dict.fromkeys(c["set"] for c in cases):
        subset = [c for c in cases if c["set"] == name]
        _total_line(name, subset, left_out.get(name, 0))
    variants = [c for c in cases if c["set"] != "top1465"]
    _total_line("variants", variants, sum(left_out.values()))
    print(f"\nworst {worst} (polydoku / ISS):")
    for c in sorted(variants, key=lambda c: -c["polydoku"]["ms"]
                    / max(c["iss_answer"].get("cpu_ms", 0), 0.001))[:worst]:
        print(f"  {c['id'][:34]:34} {c['polydoku']['ms']:10.1f} ms vs "
              f"{c['iss_answer'].get('cpu_ms', 0):8.1f} ms  {','.join(c['kinds'])[:60]}")


def _total_line(name: str, subset: list[dict], left: int) -> None:
    ours = sum(c["polydoku"]["ms"] for c in subset) / 1000
    theirs = sum(c["iss_answer"].get("cpu_ms", 0) for c in subset) / 1000
    print(f"{name:10} {len(subset):7} {left:8} {ours:11.3f} {theirs:8.3f} "
          f"{ours / theirs if theirs else 0:6.2f} {sum(map(over_target, subset)):8} "
          f"{sum(bool(c['problem']) for c in subset):8}")


def plot(cases: list[dict], path: Path) -> None:
    """Draw polydoku's time against ISS's, per puzzle, log-log, with the lines y = x and
    y = 3x + 5 ms."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=(7, 6), dpi=110, layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for k, name in enumerate(dict.fromkeys(c["set"] for c in cases)):
        subset = [c for c in cases if c["set"] == name]
        ax.scatter([max(c["iss_answer"].get("cpu_ms", 0), 0.01) for c in subset],
                   [max(c["polydoku"]["ms"], 0.01) for c in subset], s=14, label=name,
                   marker="osD^vP*"[k % 7])
    xs = [0.01 * 1.2 ** k for k in range(90)]
    ax.plot(xs, xs, color="grey", linewidth=0.8, label="same time")
    ax.plot(xs, [3 * x + SLACK_MS for x in xs], color="grey", linestyle="--", linewidth=0.8,
            label="3x ISS + 5 ms")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("ISS CPU ms (count to 2)")
    ax.set_ylabel("polydoku native CPU ms (count to 2)")
    ax.set_title("Uniqueness per puzzle: polydoku against ISS, same run")
    ax.legend(fontsize=7)
    fig.savefig(path)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--classic", type=int, default=200, help="top1465 puzzles (0: none)")
    ap.add_argument("--timeout", type=float, default=60, help="polydoku's seconds per puzzle")
    ap.add_argument("--worst", type=int, default=12)
    ap.add_argument("--only", default="", help="ids or sets to run (comma-separated)")
    ap.add_argument("--no-collection", dest="collection", action="store_false",
                    help="leave out ISS's own collection (tests/data/iss_collection.jsonl)")
    ap.add_argument("--out", default=str(RESULTS / "iss"))
    args = ap.parse_args()
    why = _iss.missing()
    if why:
        print(f"bench iss: {why}", file=sys.stderr)
        return 3
    cases, left_out = variant_cases()
    if args.collection:
        more, refused = collection_cases()
        cases += more
        left_out["collection"] = sum(refused.values())
        print(f"ISS's collection: {len(more)} read, {sum(refused.values())} not; the most "
              f"common reasons: {sorted(refused.items(), key=lambda kv: -kv[1])[:6]}")
    cases += classic_cases(args.classic)
    if args.only:
        wanted = set(args.only.split(","))
        cases = [c for c in cases if c["id"] in wanted or c["set"] in wanted]
    with tempfile.TemporaryDirectory(prefix="polydoku-iss-") as cache:
        # ISS's collection holds puzzles ISS itself takes minutes on: one process each, bounded
        alone = [c for c in cases if c["set"] == "collection"]
        rest = [c for c in cases if c["set"] != "collection"]
        answers = dict(zip(map(id, rest), _iss.count([c["iss"] for c in rest], cache=cache,
                                                      timeout=3600) if rest else []))
        answers.update(zip(map(id, alone), _iss.count_each(
            [c["iss"] for c in alone], cache=cache, timeout=args.timeout)))
    for case in cases:
        answer = answers[id(case)]
        case["iss_answer"] = answer
        case["polydoku"] = run_polydoku(case, args.timeout)
        case["problem"] = check(case)
    report(cases, left_out, args.worst)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    data = {"schema": "polydoku-bench-iss", "node": _iss.node_version(),
            "python": platform.python_version(), "machine": platform.machine(),
            "timeout_s": args.timeout, "left_out": left_out,
            "puzzles": [{k: c[k] for k in ("set", "id", "kinds", "iss", "polydoku",
                                           "iss_answer", "problem")} for c in cases]}
    (out / f"iss-{stamp}.json").write_text(json.dumps(data, indent=1))
    plot(cases, out / f"iss-{stamp}.png")
    print(f"\nwrote {out / f'iss-{stamp}.json'} and .png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
