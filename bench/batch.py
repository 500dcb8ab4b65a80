#!/usr/bin/env python3
"""Benchmark: batch solving on several processes (`polydoku solve FILE --jobs N`).

1. Throughput: `polydoku solve royle_17clue.txt` (all 49,158 17-clue puzzles) with `--jobs 1`
   (the reference, in the same run) and `--jobs 2`; the target is at least 1.7x with 2 jobs.
   Every output line is compared with `royle_17clue.solutions.txt`: same order, same grids.
2. Memory: peak RSS of the whole process tree (polydoku, its fork server and workers), sampled
   every 0.1 s; and on a synthetic input of 1,000,000 lines (the set repeated, in a temp file)
   the RSS when 10% of the lines are out against the RSS at the end: flat means streaming.

The machine's load average is recorded with each run: on shared cores, ratios say more than
absolute times. Where the kernel shares CPU per session (autogroup) and other sessions keep
every core busy, all of a run's processes share one session's slice, so the N-job speed-up
shows only when the machine has idle cores.

Run: `python3 tasks.py bench batch [--jobs 2] [--rounds K] [--lines 1000000] [--skip-million]
[--out FILE]`; `--rounds` alternates the 1-job and N-job runs K times and reports the median
round's ratio, since other work on the machine comes and goes. Prints a table and writes a
JSON record (bench/results/batch.json by default).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("POLYDOKU_DATA", ROOT.parent / "shared" / "data"))
POLYDOKU = ROOT / ".venv" / "bin" / "polydoku"
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024
TICKS = os.sysconf("SC_CLK_TCK")


def tree_sample(root: int) -> tuple[int, dict[int, float]]:
    """Return the summed resident memory (KB) of a process and its descendants, and each one's
    CPU seconds so far."""
    children: dict[int, list[int]] = {}
    info: dict[int, tuple[int, float]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry.name)
        children.setdefault(int(fields[1]), []).append(pid)     # fields[1]: the parent pid
        # fields[11], [12]: user and system CPU in clock ticks; fields[21]: rss in pages
        info[pid] = (int(fields[21]) * PAGE_KB, (int(fields[11]) + int(fields[12])) / TICKS)
    rss, cpu, todo = 0, {}, [root]
    while todo:
        pid = todo.pop()
        if pid in info:
            rss += info[pid][0]
            cpu[pid] = info[pid][1]
        todo.extend(children.get(pid, ()))
    return rss, cpu


def autogroup() -> bool:
    """Return whether the kernel shares CPU time per session (autogroup scheduling)."""
    try:
        return Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip() == "1"
    except OSError:
        return False


def load() -> list[float]:
    """Return the 1, 5 and 15 minute load averages."""
    return [round(x, 2) for x in os.getloadavg()]


def run_solve(path: Path, jobs: int, expected: list[str], total_lines: int) -> dict:
    """Run `polydoku solve PATH --jobs N`, check every output line, sample the tree's RSS."""
    before = load()
    start = time.perf_counter()
    proc = subprocess.Popen([str(POLYDOKU), "solve", str(path), "--jobs", str(jobs)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            bufsize=1 << 16)
    state = {"lines": 0, "mismatch": None}

    def read() -> None:
        n = len(expected)
        for k, line in enumerate(proc.stdout):
            if state["mismatch"] is None and line.rstrip("\n") != expected[k % n]:
                state["mismatch"] = k + 1
            state["lines"] = k + 1

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    samples, cpu = [], {}
    while proc.poll() is None:
        rss, seen = tree_sample(proc.pid)
        cpu.update(seen)          # the last CPU figure seen per process (misses its last 0.1 s)
        samples.append((time.perf_counter() - start, state["lines"], rss))
        time.sleep(0.1)
    reader.join()
    seconds = time.perf_counter() - start
    err = proc.stderr.read()
    done = state["lines"]
    at_10 = next((rss for _, lines, rss in samples if lines >= total_lines // 10), None)
    tail = [rss for _, lines, rss in samples if lines >= total_lines * 9 // 10]
    return {"jobs": jobs, "lines": done, "expected_lines": total_lines,
            "seconds": round(seconds, 3),
            "puzzles_per_second": round(done / seconds, 1), "exit_code": proc.returncode,
            "cpu_seconds": round(sum(cpu.values()), 2),
            "cpu_ms_per_puzzle": round(1000 * sum(cpu.values()) / max(done, 1), 3),
            "first_mismatch": state["mismatch"], "order_and_answers_ok":
                state["mismatch"] is None and done == total_lines and proc.returncode == 0,
            "peak_rss_mb": round(max((s[2] for s in samples), default=0) / 1024, 1),
            "rss_at_10pct_mb": round(at_10 / 1024, 1) if at_10 else None,
            "rss_last_10pct_max_mb": round(max(tail) / 1024, 1) if tail else None,
            "load_before": before, "load_after": load(), "summary": err.strip()[-300:]}


def million_file(source: Path, lines: int) -> Path:
    """Return a temp file of `lines` puzzle lines: the source set repeated."""
    rows = source.read_text().splitlines()
    handle = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, prefix="polydoku-1m-")
    with handle:
        for k in range(lines):
            handle.write(rows[k % len(rows)] + "\n")
    return Path(handle.name)


def show(rows: list[dict]) -> None:
    """Print one line per run."""
    print(f"{'input':<22}{'jobs':>5}{'lines':>10}{'seconds':>10}{'puzzles/s':>11}"
          f"{'CPU ms/p':>9}{'peak MB':>9}{'@10% MB':>9}{'end MB':>8}  ok   load before -> after")
    for r in rows:
        print(f"{r['input']:<22}{r['jobs']:>5}{r['lines']:>10,}{r['seconds']:>10.1f}"
              f"{r['puzzles_per_second']:>11,.0f}{r['cpu_ms_per_puzzle']:>9}{r['peak_rss_mb']:>9}"
              f"{str(r['rss_at_10pct_mb']):>9}{str(r['rss_last_10pct_max_mb']):>8}  "
              f"{'yes' if r['order_and_answers_ok'] else 'NO '}  {r['load_before']} -> "
              f"{r['load_after']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--skip-million", action="store_true")
    parser.add_argument("--rounds", type=int, default=1,
                        help="alternate 1-job and N-job runs this many times (busy machines)")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "batch.json"))
    args = parser.parse_args()
    puzzles, solutions = DATA / "royle_17clue.txt", DATA / "royle_17clue.solutions.txt"
    expected = solutions.read_text().splitlines()
    rows = []
    for _ in range(args.rounds):
        for jobs in (1, args.jobs):
            rows.append({"input": puzzles.name, **run_solve(puzzles, jobs, expected,
                                                            len(expected))})
            show(rows[-1:])
    pairs = [(rows[k]["puzzles_per_second"], rows[k + 1]["puzzles_per_second"])
             for k in range(0, len(rows), 2)]
    ratios = sorted(many / one for one, many in pairs)
    ratio = ratios[len(ratios) // 2]                         # the median round
    best = max(m for _, m in pairs) / max(o for o, _ in pairs)
    if not args.skip_million:
        big = million_file(puzzles, args.lines)
        try:
            rows.append({"input": f"{args.lines:,} lines",
                         **run_solve(big, args.jobs, expected, args.lines)})
        finally:
            big.unlink()
    print()
    show(rows)
    target = 1.7
    print(f"\nthroughput, {args.jobs} jobs / 1 job (same run, median of {len(ratios)} "
          f"alternating rounds): {ratio:.2f}x; best of each: {best:.2f}x "
          f"(target >= {target}x: {'met' if ratio >= target else 'NOT met'}); "
          f"cores: {os.cpu_count()}; load now {load()}")
    if autogroup() and max(r["load_before"][0] for r in rows) > os.cpu_count():
        print("note: the kernel shares CPU per session (autogroup) and the load was above the "
              "core count: while other sessions keep the cores busy, this run's processes share "
              "one session's slice, so N jobs cannot get more CPU than 1. Run it on a quiet "
              "machine for the speed-up.")
    record = {"benchmark": "batch", "python": platform.python_version(),
              "autogroup": autogroup(),
              "cores": os.cpu_count(), "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
              "ratio": round(ratio, 3), "ratios": [round(r, 3) for r in ratios],
              "ratio_best_of_each": round(best, 3), "target": target, "runs": rows}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {out}")
    return 0 if all(r["order_and_answers_ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
