#!/usr/bin/env python3
"""Benchmark: the native engine against Debian's `qqwing --solve`, same puzzles, same run.

Sets: norvig_top95, magictour_top1465, forum_hardest_1106 and the three 1,000-puzzle samples of
`samples_1000/` (see ../shared/data/SOURCES.md). Each round runs every set through qqwing and
through the native engine (the order alternates between rounds); a puzzle's time is its median
over the rounds (default 3).

How each side is timed, as alike as they can be:
- qqwing: one process per set, fed every puzzle on standard input (`qqwing --solve --one-line
  --timer --csv`). Its own timer covers reading one puzzle, setting it and solving it, per
  puzzle, and leaves out printing; that is the figure compared. Process start-up (an empty
  input, median of 5) and the process's wall time are reported apart.
- native: in this process, per puzzle, the wall time (perf_counter) of parsing the line,
  building the problem and `search(problem, max_solutions=1)`. The problem structure of 9x9
  sudoku is compiled once before timing (its cold cost is reported apart), as qqwing's tables
  are built before its clock starts.
Neither side proves uniqueness here (qqwing --solve stops at its first solution too).

Every native answer is verified (`verify.is_solution`) and compared with the set's
`.solutions.txt`; so is every qqwing answer. Timeouts and wrong answers are counted, never
hidden. The machine has 2 cores shared with other work: absolute times are noisy, the ratio
(native total / qqwing total, same puzzles, same run) is the figure to read.

What limits further speed is measured too: microseconds per search node, nodes per puzzle
beside qqwing's guesses, the share of time outside the search (parsing, building), and the
cost of one big-int operation on the packed state, from which a node's cost in such
operations follows.

Run: `python3 tasks.py bench native [--repeat 3] [--sets top1465,forum1106] [--limit N]
[--profile SET] [--out FILE]`. Writes JSON (bench/results/native.json by default), prints a
table.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import resource
import shutil
import statistics
import subprocess
import sys
import time
import timeit

from _common import load_set, machine, per_item_median, table, time_summary, write_result

from polydoku import __version__
from polydoku.engines import Status, native
from polydoku.formats.line import parse_line
from polydoku.problem import build_problem
from polydoku.verify import is_solution

SCHEMA_VERSION = 1
SETS = {
    "top95": "norvig_top95",
    "top1465": "magictour_top1465",
    "forum1106": "forum_hardest_1106",
    "royle1000": "samples_1000/royle_17clue_1000",
    "top1465first1000": "samples_1000/magictour_top1465_first1000",
    "forum11plus1000": "samples_1000/forum_hardest_1905_11plus_1000",
}
HARD = ("top1465", "forum1106")
QQWING = ["--solve", "--one-line", "--timer", "--csv"]


def run_native(lines: list[str], timeout: float) -> dict:
    """Return the native engine's per-puzzle seconds (all, and search only), answers, stats."""
    perf, cpu = time.perf_counter, time.process_time
    seconds, search_seconds, cpu_seconds, answers = [], [], [], []
    nodes = guesses = timeouts = 0
    for line in lines:
        c0, t0 = cpu(), perf()
        problem = build_problem(parse_line(line))
        t1 = perf()
        outcome = native.search(problem, 1, timeout)
        t2, c2 = perf(), cpu()
        seconds.append(t2 - t0)
        search_seconds.append(t2 - t1)
        cpu_seconds.append(c2 - c0)
        nodes += outcome.stats["nodes"]
        guesses += outcome.stats["guesses"]
        timeouts += outcome.status is Status.UNKNOWN
        answers.append(outcome.solutions[0] if outcome.solutions else None)
    return {"seconds": seconds, "search_seconds": search_seconds, "cpu_seconds": cpu_seconds,
            "answers": answers, "nodes": nodes, "guesses": guesses, "timeouts": timeouts}


def qqwing_program() -> str | None:
    """Return the path of qqwing (PATH, then /usr/games), None when it is not installed."""
    return shutil.which("qqwing") or shutil.which("qqwing", path="/usr/games")


def run_qqwing(program: str, lines: list[str], timeout: float) -> dict:
    """Return qqwing's own per-puzzle seconds and answers for a set, one process for all."""
    t, c = time.perf_counter(), _children_cpu()
    done = subprocess.run([program, *QQWING], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=timeout)
    wall, cpu = time.perf_counter() - t, _children_cpu() - c
    rows = done.stdout.splitlines()
    body = [r.split(",") for r in rows[1:] if "," in r]
    if done.returncode != 0 or len(body) != len(lines):
        raise SystemExit(f"qqwing answered {len(body)} of {len(lines)} puzzles "
                         f"(exit {done.returncode}): {done.stderr.strip()[:200]}")
    own = rows[-1].split(" in ")[-1].split()[0] if rows and " in " in rows[-1] else None
    return {"seconds": [float(r[1]) / 1000 for r in body], "answers": [r[0] for r in body],
            "process_wall_s": wall, "process_cpu_s": cpu,
            "process_own_s": float(own) if own else None}


def _children_cpu() -> float:
    """Return the user+system CPU seconds of this process's finished children."""
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def qqwing_startup(program: str, reps: int = 5) -> tuple[float, float]:
    """Return the median wall and CPU milliseconds of a qqwing process given no puzzle."""
    walls, cpus = [], []
    for _ in range(reps):
        t, c = time.perf_counter(), _children_cpu()
        subprocess.run([program, *QQWING], input="", capture_output=True, text=True, timeout=60)
        walls.append(time.perf_counter() - t)
        cpus.append(_children_cpu() - c)
    return round(1000 * statistics.median(walls), 3), round(1000 * statistics.median(cpus), 3)


def qqwing_guesses(program: str, lines: list[str], timeout: float) -> int:
    """Return qqwing's total guesses over a set (an untimed run with --stats)."""
    done = subprocess.run([program, "--solve", "--stats", "--csv"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=timeout)
    header, *rows = [r.split(",") for r in done.stdout.splitlines() if "," in r]
    column = header.index("Guesses")
    return sum(int(r[column]) for r in rows)


def wrong_native(lines, answers, solutions) -> list[int]:
    """Return the 1-based lines whose native answer fails verification or differs from the file."""
    bad = []
    for k, (line, answer, expected) in enumerate(zip(lines, answers, solutions), 1):
        if answer is None or "".join(map(str, answer)) != expected or not is_solution(
                parse_line(line), answer):
            bad.append(k)
    return bad


def cold_compile_ms() -> float:
    """Return the milliseconds to compile 9x9 sudoku from scratch with all its masks."""
    problem = build_problem(parse_line("." * 81))
    t = time.perf_counter()
    core = native._Core(problem, native._compile(problem))
    for o in range(81 * 9):
        core.mask(o)
    return round(1000 * (time.perf_counter() - t), 2)


def bigint_op_ns() -> dict:
    """Return nanoseconds per `&` on the 9x9 packed state and on a small int (for scale)."""
    problem = build_problem(parse_line("." * 81))
    core = native._core(problem, native.compile_problem(problem))
    y, keep = core.full, core.mask(40)[0]
    n = 200_000
    big = min(timeit.repeat(lambda: y & keep, number=n, repeat=5)) / n * 1e9
    small = min(timeit.repeat(lambda: 511 & 73, number=n, repeat=5)) / n * 1e9
    return {"state_bits": core.nbits, "and_ns": round(big, 1), "small_and_ns": round(small, 1)}


def profile(name: str, limit: int | None) -> str:
    """Return the top of a cProfile of the native engine over a set."""
    lines, _ = load_set(SETS.get(name, name))
    problems = [build_problem(parse_line(x)) for x in lines[:limit]]
    prof = cProfile.Profile()
    prof.enable()
    for p in problems:
        native.search(p, 1)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(8)
    return out.getvalue()


def bench_set(key: str, args, program: str | None, startup_cpu_s: float) -> dict:
    """Return the figures of one set: native and qqwing, per puzzle medians over the rounds."""
    name = SETS[key]
    lines, solutions = load_set(name)
    lines, solutions = lines[:args.limit], solutions[:args.limit]
    nat_runs, qq_runs = [], []
    for r in range(args.repeat):
        for side in (("qqwing", "native") if r % 2 == 0 else ("native", "qqwing")):
            if side == "native":
                nat_runs.append(run_native(lines, args.timeout))
            elif program:
                qq_runs.append(run_qqwing(program, lines, args.set_timeout))
    first, n = nat_runs[0], len(lines)
    search_seconds = per_item_median([r["search_seconds"] for r in nat_runs])
    nat = {"wall": time_summary(per_item_median([r["seconds"] for r in nat_runs])),
           "cpu": time_summary(per_item_median([r["cpu_seconds"] for r in nat_runs])),
           "search_wall_total_s": round(sum(search_seconds), 6),
           "nodes": first["nodes"], "guesses": first["guesses"], "timeouts": first["timeouts"],
           "wrong_lines": wrong_native(lines, first["answers"], solutions)}
    out = {"set": name, "key": key, "puzzles": n, "native": nat}
    if program:
        qq_cpu = statistics.median(r["process_cpu_s"] for r in qq_runs) - startup_cpu_s
        qq = {"wall": time_summary(per_item_median([r["seconds"] for r in qq_runs])),
              "cpu_total_s": round(qq_cpu, 4),
              "process_wall_s_median": round(statistics.median(
                  r["process_wall_s"] for r in qq_runs), 4),
              "process_own_s_median": statistics.median(r["process_own_s"] or 0 for r in qq_runs),
              "wrong_lines": [k for k, (a, s) in enumerate(zip(qq_runs[0]["answers"], solutions), 1)
                              if a != s],
              "guesses": qqwing_guesses(program, lines, args.set_timeout)}
        out["qqwing"] = qq
        out["ratio_wall"] = round(nat["wall"]["total_s"] / qq["wall"]["total_s"], 3)
        out["ratio_cpu"] = round(nat["cpu"]["total_s"] / qq_cpu, 3) if qq_cpu > 0 else None
        out["ratio_wall_medians"] = round(nat["wall"]["median_ms"] / qq["wall"]["median_ms"], 3)
    out["limits"] = {
        "native_us_per_node": round(1e6 * sum(search_seconds) / max(1, nat["nodes"]), 2),
        "native_nodes_per_puzzle": round(nat["nodes"] / n, 2),
        "native_guesses_per_puzzle": round(nat["guesses"] / n, 2),
        "qqwing_guesses_per_puzzle": round(out["qqwing"]["guesses"] / n, 2) if program else None,
        "share_outside_search": round(1 - sum(search_seconds) / max(1e-12, nat["wall"]["total_s"]),
                                      3)}
    return out


def print_report(result: dict) -> None:
    """Print the speed table and the limits table."""
    rows = []
    for s in result["sets"]:
        nat, qq = s["native"], s.get("qqwing", {})
        nw, qw = nat["wall"], qq.get("wall", {})
        rows.append([s["key"], s["puzzles"], nw["puzzles_per_s"], nw["mean_ms"], nw["median_ms"],
                     nw["max_ms"], qw.get("puzzles_per_s"), qw.get("mean_ms"), qw.get("median_ms"),
                     qw.get("max_ms"), s.get("ratio_wall"), s.get("ratio_cpu"),
                     f"{len(nat['wrong_lines'])}/{len(qq.get('wrong_lines', []))}"])
    print(table(["set", "n", "native p/s", "mean ms", "median", "max", "qqwing p/s", "mean ms",
                 "median", "max", "ratio wall", "ratio cpu", "wrong n/q"], rows))
    print()
    print(table(["set", "us/node", "nodes/puzzle", "guesses/puzzle", "qqwing guesses",
                 "outside search"],
                [[s["key"], s["limits"]["native_us_per_node"],
                  s["limits"]["native_nodes_per_puzzle"], s["limits"]["native_guesses_per_puzzle"],
                  s["limits"]["qqwing_guesses_per_puzzle"],
                  f"{100 * s['limits']['share_outside_search']:.1f}%"] for s in result["sets"]]))
    g = result["global"]
    print(f"\n{result['qqwing_version'] or 'qqwing not installed'}: start-up "
          f"{g.get('qqwing_startup_ms')} ms wall, {g.get('qqwing_startup_cpu_ms')} ms CPU per "
          f"process (outside its timer; taken off its CPU total). native: 9x9 compiled cold in "
          f"{g['native_cold_compile_ms']} ms (once, outside the timing); one & on the "
          f"{g['bigint']['state_bits']}-bit state takes {g['bigint']['and_ns']} ns (on small "
          f"ints {g['bigint']['small_and_ns']} ns).")
    print("ratio wall = native total / qqwing total by its own per-puzzle timer; ratio cpu = "
          "native CPU / qqwing process CPU less start-up. Same puzzles, same run; the machine's "
          "2 cores are shared, so read ratios, not absolute times (CPU is the steadier one).")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", default=",".join(SETS),
                        help=f"comma-separated among {', '.join(SETS)}")
    parser.add_argument("--repeat", type=int, default=3, help="rounds (median per puzzle)")
    parser.add_argument("--limit", type=int, default=None, help="first N puzzles of each set")
    parser.add_argument("--timeout", type=float, default=60.0, help="native seconds per puzzle")
    parser.add_argument("--set-timeout", type=float, default=1800.0, help="qqwing seconds per set")
    parser.add_argument("--profile", metavar="SET", help="print a cProfile of native on SET")
    parser.add_argument("--out", help="JSON path (default bench/results/native.json)")
    args = parser.parse_args(argv)
    if args.profile:
        print(profile(args.profile, args.limit))
        return 0
    keys = [k.strip() for k in args.sets.split(",") if k.strip()]
    unknown = [k for k in keys if k not in SETS]
    if unknown:
        parser.error(f"unknown set {unknown[0]!r} (known: {', '.join(SETS)})")
    program = qqwing_program()
    if not program:
        print("qqwing is not installed (apt-get install qqwing; `python3 tasks.py bench native` "
              "installs it): native figures only", file=sys.stderr)
    version = subprocess.run([program, "--version"], capture_output=True, text=True
                             ).stdout.strip() if program else None
    # compile 9x9 once, outside the timing
    native.search(build_problem(parse_line(load_set(SETS["top95"])[0][0])), 1)
    result = {"schema": "polydoku-bench-native", "schema_version": SCHEMA_VERSION,
              "polydoku_version": __version__, "qqwing_version": version,
              "machine": machine(),
              "settings": {"repeat": args.repeat, "limit": args.limit, "timeout": args.timeout,
                           "sets": keys, "qqwing_command": ["qqwing", *QQWING],
                           "native_call": "search(build_problem(parse_line(line)), 1)",
                           "clock": "wall (perf_counter / qqwing gettimeofday)"},
              "global": {"native_cold_compile_ms": cold_compile_ms(), "bigint": bigint_op_ns()},
              "sets": []}
    startup = qqwing_startup(program) if program else (None, 0.0)
    result["global"].update(qqwing_startup_ms=startup[0], qqwing_startup_cpu_ms=startup[1])
    for key in keys:
        print(f"[bench native] {key} ...", file=sys.stderr, flush=True)
        result["sets"].append(bench_set(key, args, program, startup[1] / 1000))
    result["machine_load_after"] = machine().get("load_average")
    path = write_result(result, args.out, "native")
    print_report(result)
    print(f"\nwritten: {path}")
    wrong = sum(len(s["native"]["wrong_lines"]) for s in result["sets"])
    return 3 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
