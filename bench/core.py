#!/usr/bin/env python3
"""Benchmark: `polydoku solve FILE` as a user runs it, whole processes, against Debian's qqwing.

For each 1,000-puzzle sample of `../shared/data/samples_1000` (17-clue, top1465, forum-hardest
11+), each round runs, one after the other (the order turns every round):

- `qqwing --solve --one-line` with the file on standard input (its first solution);
- `polydoku solve FILE --jobs 1` on the compiled core (start-up included: the process is new),
  as a user runs it: the console script, whose express lane (cli/express.py) answers a file
  of classic puzzle lines in C;
- the full command on the compiled core, every line through the Python model
  (`POLYDOKU_EXPRESS=off`), so both are on record;
- the same with `POLYDOKU_NATIVE=python`, the pure-Python search a machine without a compiler
  gets (once, it is slow);
- and, apart, `polydoku solve FILE --jobs J` for J in --jobs-list on the first --jobs-lines
  puzzles of forum_hardest_1905_11plus: puzzles per second of wall time (a 1,000-puzzle file
  is done before a second worker has started).

With `--tdoku BIN`, tdoku itself runs too: its `example/solve.c` linked with its
`src/solver_dpll_triad_simd.cc` and `src/util.cc` (g++ -O3 -march=native), fed each file on
standard input with a limit of 1, and the "x tdoku" column is measured in the same run. Its
source is not here: fetch it from its repository (t-dillon/tdoku) where there is a network.

CPU time is the process's own and its children's (getrusage); the figure compared is puzzles per
CPU-second, median over rounds, and its ratio to qqwing's in the same run. Without --tdoku,
its published speed stands in: 25x, 44x and 69x qqwing's on these three kinds of puzzle (the
targets: within 10x of it, so 2.5x, 4.4x and 6.9x qqwing); neither Debian nor PyPI has it.

Start-up: `polydoku solve` of one easy puzzle (examples/wikipedia.txt: the express lane; and
the same puzzle as a literal argument: the full command), CPU time, median of --startup
runs, beside `python3 -c pass` and `python3 -c "import click"`.

Every polydoku answer is compared with the set's .solutions.txt (a wrong or missing line fails
the run); qqwing's answers likewise.

Run: `python3 tasks.py bench core [--rounds 3] [--startup 11] [--jobs-list 1,2]
[--jobs-lines 20000] [--out FILE]`.
Writes JSON (bench/results/core.json), a plot (bench/results/core.png) and prints a table.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from _common import DATA, RESULTS, ROOT, machine, table, timed, write_result

SETS = {
    "17-clue": "samples_1000/royle_17clue_1000",
    "top1465": "samples_1000/magictour_top1465_first1000",
    "forum-hardest 11+": "samples_1000/forum_hardest_1905_11plus_1000",
}
TDOKU_X_QQWING = {"17-clue": 25, "top1465": 44, "forum-hardest 11+": 69}
POLYDOKU = str(ROOT / ".venv" / "bin" / "polydoku")
# The full command: every line through the Python model, no express lane.
NO_EXPRESS = {"POLYDOKU_EXPRESS": "off"}


def check(name: str, out: str, solutions: list[str], tool: str) -> None:
    """Fail unless every output line is the set's solution, in order."""
    got = [line.strip() for line in out.splitlines() if len(line.strip()) == 81]
    if got != solutions:
        bad = sum(a != b for a, b in zip(got, solutions)) + abs(len(got) - len(solutions))
        raise SystemExit(f"{tool} on {name}: {bad} answers differ from the solutions file")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--startup", type=int, default=11)
    ap.add_argument("--jobs-list", default="1,2")
    ap.add_argument("--jobs-lines", type=int, default=20000)
    ap.add_argument("--out")
    ap.add_argument("--tdoku", metavar="BIN",
                    help="tdoku's example/solve.c built from its source (see the docstring): "
                         "timed too, and the x tdoku column measured instead of published")
    args = ap.parse_args()
    qqwing = shutil.which("qqwing")
    if not qqwing:
        raise SystemExit("qqwing is not installed (python3 tasks.py bench installs it)")
    jobs_list = [int(j) for j in args.jobs_list.split(",")]

    rows, results = [], {}
    for label, name in SETS.items():
        path = DATA / f"{name}.txt"
        solutions = (DATA / f"{name}.solutions.txt").read_text().split()
        n = len(solutions)
        runs: dict[str, list[float]] = {"qqwing": [], "compiled": [], "full": []}
        if args.tdoku:
            runs["tdoku"] = []
        for r in range(args.rounds):
            order = list(runs) if r % 2 == 0 else list(runs)[::-1]
            for who in order:
                if who == "qqwing":
                    out, _, cpu = timed([qqwing, "--solve", "--one-line"], stdin=path.read_text())
                elif who == "tdoku":     # prints puzzle:count:solution
                    out, _, cpu = timed([args.tdoku, "1"], stdin=path.read_text())
                    out = "\n".join(line.split(":")[-1] for line in out.splitlines())
                elif who == "compiled":
                    out, _, cpu = timed([POLYDOKU, "solve", str(path), "--jobs", "1"])
                else:
                    out, _, cpu = timed([POLYDOKU, "solve", str(path), "--jobs", "1"],
                                        env=NO_EXPRESS)
                check(label, out, solutions, who)
                runs[who].append(cpu)
        out, _, cpu = timed([POLYDOKU, "solve", str(path), "--jobs", "1"],
                            env={"POLYDOKU_NATIVE": "python"})
        check(label, out, solutions, "pure Python")
        runs["python"] = [cpu]
        med = {k: statistics.median(v) for k, v in runs.items()}
        rate = {k: n / v for k, v in med.items()}
        ratio = {k: rate[k] / rate["qqwing"] for k in rate}
        results[label] = {"set": name, "puzzles": n, "cpu_seconds": runs,
                          "puzzles_per_cpu_s": {k: round(v, 1) for k, v in rate.items()},
                          "ratio_to_qqwing": {k: round(v, 3) for k, v in ratio.items()},
                          "target_ratio": round(TDOKU_X_QQWING[label] / 10, 2)}
        x_tdoku = (rate["compiled"] / rate["tdoku"] if args.tdoku
                   else ratio["compiled"] / TDOKU_X_QQWING[label])
        results[label]["x_tdoku"] = round(x_tdoku, 3)
        results[label]["x_tdoku_from"] = "measured" if args.tdoku else "published"
        rows.append([label, round(rate["qqwing"]), round(rate["compiled"]),
                     f"{ratio['compiled']:.2f}x", f"{TDOKU_X_QQWING[label] / 10:.1f}x",
                     f"{x_tdoku:.3f}", round(rate["full"]),
                     f"{ratio['full']:.2f}x", round(rate["python"]), f"{ratio['python']:.2f}x"])

    walls = jobs_scaling(jobs_list, args.jobs_lines)

    easy = str(ROOT / "examples" / "wikipedia.txt")
    startup = {
        "polydoku solve (one easy puzzle, a file: express lane)": [POLYDOKU, "solve", easy],
        "polydoku solve (the same, a literal: full command)":
            [POLYDOKU, "solve", (ROOT / "examples" / "wikipedia.txt").read_text().split()[-1]],
        "python3 -c pass": [sys.executable, "-c", "pass"],
        'python3 -c "import click"': [sys.executable, "-c", "import click"],
    }
    start_ms = {k: round(1000 * statistics.median(timed(cmd)[2] for _ in range(args.startup)), 1)
                for k, cmd in startup.items()}

    print(table(["set", "qqwing /cpu-s", "polydoku /cpu-s", "x qqwing", "target",
                 "x tdoku", "full command /cpu-s", "x qqwing", "pure Python /cpu-s",
                 "x qqwing"], rows))
    print()
    print(table(["--jobs", "puzzles / wall-s", "x --jobs 1"],
                [[j, w, f"{w / walls[jobs_list[0]]:.2f}"] for j, w in walls.items()]))
    print()
    print(table(["start-up", "CPU ms (median)"], [[k, v] for k, v in start_ms.items()]))
    data = {"schema_version": 1, "machine": machine(), "rounds": args.rounds,
            "sets": results, "startup_cpu_ms": start_ms,
            "jobs_scaling": {"set": "forum_hardest_1905_11plus", "lines": args.jobs_lines,
                             "puzzles_per_wall_s": walls},
            "tdoku_x_qqwing_published": TDOKU_X_QQWING}
    path = write_result(data, args.out, "core")
    print(f"\nwrote {path}")
    plot(results, path.with_suffix(".png") if args.out else RESULTS / "core.png")
    return 0


def jobs_scaling(jobs_list: list[int], lines: int) -> dict[int, float]:
    """Return puzzles per wall-second of `solve --jobs J` on a big file, per J."""
    name = "forum_hardest_1905_11plus"
    puzzles = (DATA / f"{name}.txt").read_text().split()[:lines]
    solutions = (DATA / f"{name}.solutions.txt").read_text().split()[:lines]
    walls = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "puzzles.txt"
        path.write_text("\n".join(puzzles) + "\n")
        for j in jobs_list:
            out, wall, _ = timed([POLYDOKU, "solve", str(path), "--jobs", str(j)])
            check(name, out, solutions, f"--jobs {j}")
            walls[j] = round(len(puzzles) / wall, 1)
    return walls


def plot(results: dict, path) -> None:
    """Draw puzzles per CPU-second per set: qqwing, polydoku (express lane, full command, pure
    Python), tdoku when it ran, and the target (a tenth of tdoku's published speed), on a log
    scale."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    labels = list(results)
    series = [("qqwing", "qqwing"), ("compiled", "polydoku (express lane)"),
              ("full", "polydoku (full command, compiled core)"),
              ("python", "polydoku (pure Python)")]
    if "tdoku" in results[labels[0]]["puzzles_per_cpu_s"]:
        series.append(("tdoku", "tdoku (built from source)"))
    fig, ax = plt.subplots(figsize=(8, 4.5))
    width = 0.16
    for k, (key, name) in enumerate(series):
        ax.bar([i + k * width for i in range(len(labels))],
               [results[s]["puzzles_per_cpu_s"][key] for s in labels], width, label=name)
    target = [results[s]["puzzles_per_cpu_s"]["qqwing"] * results[s]["target_ratio"]
              for s in labels]
    ax.bar([i + len(series) * width for i in range(len(labels))], target, width,
           label="target (tdoku / 10)", hatch="//", fill=False)
    ax.set_xticks([i + len(series) * width / 2 for i in range(len(labels))], labels)
    ax.set_yscale("log")
    ax.set_ylabel("puzzles per CPU-second (CLI, start-up included)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    print(f"wrote {path}")


if __name__ == "__main__":
    sys.exit(main())
