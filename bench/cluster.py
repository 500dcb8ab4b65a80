#!/usr/bin/env python3
"""Benchmark: batch solving through a Dask scheduler (`polydoku solve FILE --dask ...`) against
local processes (`--jobs`) on the same machine, with the same number of workers.

Three ways to solve the first `--lines` puzzles of royle_17clue.txt with the native engine:
- `local`: `polydoku solve FILE --jobs W` (the reference, in the same run);
- `dask`: `polydoku solve FILE --dask tcp://...`, a scheduler and W single-threaded workers
  started once by this script (`dask scheduler`, `dask worker --nworkers W --nthreads 1`), as
  on a real cluster that is already up;
- `dask local`: `polydoku solve FILE --dask local --jobs W`, which starts a LocalCluster of W
  workers and stops it, every run.

Each is also run on a file of 2 puzzles: that time is the fixed cost (start-up, importing
Dask, connecting, starting workers). The overhead per puzzle of going through the scheduler is
the difference of the marginal times, (T(N) - T(2)) / (N - 2), dask minus local, and is also
given as a share of local's marginal time (the aim: under 10% on 10,000 native puzzles).
On a shared machine wall times swing with other work, so the CPU seconds of every process
involved (polydoku and its children; the running cluster's scheduler, nannies and workers)
are measured too, and give the same overhead in CPU time per puzzle. The running cluster gets
the quieter Dask settings docs/cluster.md recommends (`--dask-defaults`: Dask's own).
Every output line is compared with royle_17clue.solutions.txt, in order. The modes alternate
over `--rounds` rounds (other work on a shared machine comes and goes); figures are medians.

Run: `python3 tasks.py bench cluster [--lines 10000] [--workers 2] [--rounds 3] [--out FILE]`.
Prints a table and writes a JSON record (bench/results/cluster.json by default).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from _common import DATA, ROOT, machine, table, write_result

CLI = [sys.executable, "-c", "from polydoku.cli.app import entry; entry()"]
DASK = Path(sys.executable).with_name("dask")


# The settings docs/cluster.md gives for `dask scheduler` and `dask worker` (and that
# `--dask local` uses): Dask's background work made rarer.
QUIET_ENV = {"DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False",
             "DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL": "1s",
             "DASK_DISTRIBUTED__ADMIN__SYSTEM_MONITOR__INTERVAL": "2s",
             "DASK_DISTRIBUTED__WORKER__MEMORY__MONITOR_INTERVAL": "1s"}


def _env(**extra: str) -> dict[str, str]:
    """Return an environment whose Python imports this checkout's polydoku."""
    path = os.pathsep.join(p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH")) if p)
    return {**os.environ, "PYTHONPATH": path, **extra}


TICKS = os.sysconf("SC_CLK_TCK")


def tree_cpu(roots: list[int]) -> float:
    """Return the CPU seconds so far of some processes and all their descendants."""
    children: dict[int, list[int]] = {}
    cpu: dict[int, float] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry.name))
            cpu[int(entry.name)] = (int(fields[11]) + int(fields[12])) / TICKS
    total, todo = 0.0, list(roots)
    while todo:
        pid = todo.pop()
        total += cpu.get(pid, 0.0)
        todo.extend(children.get(pid, ()))
    return total


@contextmanager
def running_cluster(workers: int, folder: Path, quiet: bool):
    """Start a scheduler and `workers` single-threaded workers; yield the address and the
    processes' ids."""
    from distributed import Client
    info, log = folder / "scheduler.json", open(folder / "cluster.log", "w")
    env = _env(**(QUIET_ENV if quiet else {}))
    procs = [subprocess.Popen([str(DASK), "scheduler", "--port", "0", "--dashboard-address",
                               ":0", "--scheduler-file", str(info)], env=env, stdout=log,
                              stderr=subprocess.STDOUT)]
    try:
        deadline = time.monotonic() + 60
        while not info.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(info.read_text())["address"]
        procs.append(subprocess.Popen([str(DASK), "worker", address, "--nworkers", str(workers),
                                       "--nthreads", "1", "--no-dashboard"], env=env,
                                      stdout=log, stderr=subprocess.STDOUT))
        with Client(address, timeout=30) as client:
            client.wait_for_workers(workers, timeout=60)
        yield address, [p.pid for p in procs]
    finally:
        for proc in reversed(procs):
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()


def run(path: Path, args: list[str], expected: list[str], cluster: list[int]) -> dict:
    """Run `polydoku solve PATH ARGS`; return its wall time, the CPU time of every process it
    used (its own tree, sampled every 20 ms, and the running cluster's), and whether every
    line is right."""
    before = tree_cpu(cluster)
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen([*CLI, "solve", str(path), *args], stdout=out, stderr=err,
                                text=True, env=_env())
        own = 0.0
        while proc.poll() is None:
            own = max(own, tree_cpu([proc.pid]))
            time.sleep(0.02)
        seconds = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        lines, summary = out.read().splitlines(), err.read().strip()[-200:]
    cpu = own + tree_cpu(cluster) - before
    return {"seconds": round(seconds, 4), "cpu_seconds": round(cpu, 3), "lines": len(lines),
            "exit_code": proc.returncode, "ok": proc.returncode == 0 and lines == expected,
            "summary": summary}


def modes(workers: int, address: str) -> dict[str, list[str]]:
    """Return the command-line arguments of each way to run."""
    return {"local": ["--jobs", str(workers)], "dask": ["--dask", address],
            "dask local": ["--dask", "local", "--jobs", str(workers)]}


def summarize(runs: dict[str, dict[str, list[dict]]], n: int) -> list[dict]:
    """Return per mode: median times, puzzles per second, fixed cost, marginal time per
    puzzle, and the overhead against local."""
    rows = []
    for mode, sizes in runs.items():
        med = {key: {size: statistics.median(r[key] for r in sizes[size]) for size in sizes}
               for key in ("seconds", "cpu_seconds")}
        big, small = med["seconds"]["big"], med["seconds"]["small"]
        rows.append({"mode": mode, "seconds": round(big, 3), "puzzles_per_s": round(n / big, 1),
                     "fixed_s": round(small, 3),
                     "marginal_us": round(1e6 * (big - small) / (n - 2), 1),
                     "cpu_us": round(1e6 * (med["cpu_seconds"]["big"]
                                            - med["cpu_seconds"]["small"]) / (n - 2), 1),
                     "all_ok": all(r["ok"] for r in sizes["big"] + sizes["small"])})
    local = rows[0]
    for row in rows:
        row["speed_vs_local"] = round(row["puzzles_per_s"] / local["puzzles_per_s"], 3)
        row["overhead_us_per_puzzle"] = round(row["marginal_us"] - local["marginal_us"], 1)
        row["overhead_pct"] = round(100 * row["overhead_us_per_puzzle"] / local["marginal_us"], 1)
        row["cpu_overhead_pct"] = round(100 * (row["cpu_us"] / local["cpu_us"] - 1), 1)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", default=None)
    parser.add_argument("--dask-defaults", action="store_true",
                        help="start the running cluster with Dask's default settings, not the "
                             "quieter ones docs/cluster.md recommends")
    args = parser.parse_args()
    puzzles = (DATA / "royle_17clue.txt").read_text().splitlines()[:args.lines]
    solutions = (DATA / "royle_17clue.solutions.txt").read_text().splitlines()[:args.lines]
    with tempfile.TemporaryDirectory(prefix="polydoku-cluster-") as tmp:
        folder = Path(tmp)
        big, small = folder / "big.txt", folder / "small.txt"
        big.write_text("\n".join(puzzles) + "\n")
        small.write_text("\n".join(puzzles[:2]) + "\n")
        with running_cluster(args.workers, folder, not args.dask_defaults) as (address,
                                                                               cluster):
            ways = modes(args.workers, address)
            runs = {mode: {"big": [], "small": []} for mode in ways}
            for k in range(args.rounds):
                for mode, extra in ways.items():
                    pids = cluster if mode == "dask" else []
                    runs[mode]["big"].append(run(big, extra, solutions, pids))
                    runs[mode]["small"].append(run(small, extra, solutions[:2], pids))
                    last = runs[mode]["big"][-1]
                    print(f"round {k + 1} {mode:<11} {last['seconds']:7.2f} s "
                          f"({last['cpu_seconds']:.2f} CPU s)  2 puzzles: "
                          f"{runs[mode]['small'][-1]['seconds']:.2f} s  "
                          f"load {os.getloadavg()[0]:.2f}", flush=True)
    rows = summarize(runs, len(puzzles))
    print()
    print(table(["mode", "seconds", "puzzles/s", "× local", "fixed s", "µs/puzzle",
                 "overhead µs/puzzle", "overhead %", "CPU µs/puzzle", "CPU overhead %",
                 "answers"],
                [[r["mode"], r["seconds"], f"{r['puzzles_per_s']:,.0f}", r["speed_vs_local"],
                  r["fixed_s"], r["marginal_us"], r["overhead_us_per_puzzle"],
                  r["overhead_pct"], r["cpu_us"], r["cpu_overhead_pct"],
                  "ok" if r["all_ok"] else "WRONG"] for r in rows]))
    record = {"benchmark": "cluster", "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
              "machine": machine(), "lines": len(puzzles), "workers": args.workers,
              "rounds": args.rounds, "engine": "native",
              "cluster_settings": "dask defaults" if args.dask_defaults else QUIET_ENV,
              "rows": rows, "runs": runs}
    print(f"wrote {write_result(record, args.out, 'cluster')}")
    return 0 if all(r["all_ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
