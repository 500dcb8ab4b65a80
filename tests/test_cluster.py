"""Many puzzles on a real Dask cluster: a scheduler and workers started here as processes
(`dask scheduler`, `dask worker`), and `--dask local`. Order, verified answers, bad lines on
their lines, a worker killed mid-run, a worker without the engine, Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import ROOT, child_pids, data_lines, missing

DASK = Path(sys.executable).with_name("dask")
CLI = [sys.executable, "-c", "from polydoku.cli.app import entry; entry()"]
WIKI = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
UNSAT = "55" + WIKI[2:]


@dataclass
class Cluster:
    address: str
    workers: list[subprocess.Popen]


def _env(**extra: str) -> dict[str, str]:
    """Return an environment whose Python imports this checkout's polydoku."""
    path = os.pathsep.join(p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH")) if p)
    return {**os.environ, "PYTHONPATH": path, **extra}


@contextmanager
def dask_cluster(folder: Path, workers: int = 2, worker_env: dict | None = None):
    """Run a scheduler and `workers` single-threaded workers (no nanny: a killed worker stays
    dead) as processes; yield their address and the worker processes; stop them all."""
    if not DASK.exists():
        missing("Dask distributed is not installed (pip install 'polydoku[cluster]')")
    from distributed import Client
    folder.mkdir(parents=True, exist_ok=True)
    info, log = folder / "scheduler.json", open(folder / "cluster.log", "w")
    procs = [subprocess.Popen([str(DASK), "scheduler", "--port", "0", "--dashboard-address",
                               ":0", "--scheduler-file", str(info)], env=_env(), stdout=log,
                              stderr=subprocess.STDOUT)]
    try:
        deadline = time.monotonic() + 60
        while not info.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(info.read_text())["address"]
        for k in range(workers):
            procs.append(subprocess.Popen(
                [str(DASK), "worker", address, "--nthreads", "1", "--no-nanny",
                 "--no-dashboard", "--name", f"w{k}"], env=worker_env or _env(), stdout=log,
                stderr=subprocess.STDOUT))
        with Client(address, timeout=30) as client:
            client.wait_for_workers(workers, timeout=60)
        yield Cluster(address, procs[1:])
    finally:
        for proc in reversed(procs):
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.close()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with dask_cluster(tmp_path_factory.mktemp("dask")) as running:
        yield running


def _royle(n: int) -> tuple[list[str], list[str]]:
    return data_lines("royle_17clue.txt", limit=n), data_lines("royle_17clue.solutions.txt",
                                                                limit=n)


def _file(tmp_path: Path, lines: list[str]) -> str:
    path = tmp_path / "many.txt"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_two_workers_solve_in_order_every_answer_verified(run_cli, cluster, tmp_path):
    puzzles, solutions = _royle(2000)
    # A bad line, a comment and an unsolvable puzzle among them stay on their lines.
    lines = puzzles[:700] + [WIKI[:30], "# a comment", UNSAT] + puzzles[700:]
    r = run_cli("solve", _file(tmp_path, lines), "--dask", cluster.address)
    assert r.code == 2                                    # the worst: bad input
    assert r.out.split("\n")[:-1] == solutions[:700] + ["error", "no solution"] + solutions[700:]
    assert "many.txt, line 701: wrong length" in r.err
    assert "2,002 puzzles" in r.err and "2,000 solved" in r.err and "1 no solution" in r.err
    assert "1 bad input" in r.err


def test_check_unique_and_json_match_a_local_run(run_cli, cluster, tmp_path):
    lines = data_lines("norvig_easy50.txt", limit=6) + ["123", UNSAT, "." * 16]
    path = _file(tmp_path, lines)
    for args in (("check-unique", path, "--json"), ("check-unique", path),
                 ("solve", path, "--format", "json", "--count")):
        there = run_cli(*args, "--dask", cluster.address, "--chunk", "2")
        here = run_cli(*args, "--jobs", "1")
        assert there.code == here.code == 2 and _untimed(there.out) == _untimed(here.out)
        assert "line 7" in there.err and len(there.out.splitlines()) == 9   # 'error' on line 7


def _untimed(out: str) -> list:
    """Return output lines, JSON ones without the engine's statistics (times differ)."""
    rows = [json.loads(x) if x.startswith("{") else x for x in out.splitlines()]
    return [{k: v for k, v in x.items() if k != "stats"} if isinstance(x, dict) else x
            for x in rows]


def test_unordered_gives_every_answer_once(run_cli, cluster, tmp_path):
    puzzles, solutions = _royle(300)
    r = run_cli("solve", _file(tmp_path, puzzles), "--dask", cluster.address, "--unordered",
                "--chunk", "7", "--format", "json")
    rows = [json.loads(line) for line in r.out.splitlines()]
    assert r.code == 0
    assert sorted(int(x["puzzle"].split(":")[1]) for x in rows) == list(range(1, 301))
    assert all(x["solutions"] == [solutions[int(x["puzzle"].split(":")[1]) - 1]] for x in rows)


def _start_cli(folder: Path, *args: str) -> tuple[subprocess.Popen, str]:
    """Start polydoku as a process (stderr to a file); return it once its first output line
    is out, and that line."""
    err = open(folder / "stderr.txt", "w")
    proc = subprocess.Popen([*CLI, *args], env=_env(), stdout=subprocess.PIPE, stderr=err,
                            text=True)
    err.close()
    return proc, proc.stdout.readline()


def _finish_cli(proc: subprocess.Popen, folder: Path) -> tuple[str, str]:
    """Return the rest of a polydoku process's output and its stderr, once it has ended."""
    with proc.stdout:
        out = proc.stdout.read()
    proc.wait(120)
    return out, (folder / "stderr.txt").read_text()


def test_killed_worker_loses_and_repeats_nothing(tmp_path):
    puzzles, solutions = _royle(2000)
    with dask_cluster(tmp_path / "dask") as running:
        proc, first = _start_cli(tmp_path, "solve", _file(tmp_path, puzzles), "--dask",
                                 running.address, "--chunk", "20")
        os.kill(running.workers[0].pid, signal.SIGKILL)
        assert proc.poll() is None                # killed while the run was under way
        out, err = _finish_cli(proc, tmp_path)
        assert running.workers[0].wait(10) == -signal.SIGKILL
    assert proc.returncode == 0, err
    assert (first + out).split("\n")[:-1] == solutions
    assert "2,000 puzzles" in err and "2,000 solved" in err


def test_a_worker_without_the_engine_answers_exit_3_named(run_cli, tmp_path):
    puzzles = data_lines("norvig_easy50.txt", limit=3)
    # Without PATH the worker finds no `minizinc` program.
    with dask_cluster(tmp_path / "dask", workers=1, worker_env=_env(PATH="/nonexistent")) as c:
        r = run_cli("solve", _file(tmp_path, puzzles), "--dask", c.address,
                    "--engine", "minizinc")
    assert r.code == 3 and r.out.split() == ["error"] * 3
    errors = r.err.splitlines()
    for k in (1, 2, 3):
        assert any(f"many.txt:{k}: engine 'minizinc' is unavailable on tcp://" in line
                   for line in errors)


def test_interrupt_cancels_the_run_and_frees_the_cluster(cluster, tmp_path):
    from distributed import Client
    puzzles, _ = _royle(10000)
    proc, _ = _start_cli(tmp_path, "solve", _file(tmp_path, puzzles), "--dask",
                         cluster.address, "--chunk", "50")
    proc.send_signal(signal.SIGINT)
    out, err = _finish_cli(proc, tmp_path)
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert err.strip().splitlines()[-1] in ("polydoku: interrupted", "polydoku: aborted"), err
    assert len(out.splitlines()) < 9999
    count = lambda dask_scheduler: len(dask_scheduler.tasks)   # noqa: E731 (sent by value)
    with Client(cluster.address, timeout=30) as client:
        deadline = time.monotonic() + 20
        while client.run_on_scheduler(count) > 0 and time.monotonic() < deadline:
            time.sleep(0.2)
        left = client.run_on_scheduler(count)
        assert left == 0, f"{left} tasks left on the scheduler"   # nothing left of the run


def test_dask_local_starts_and_stops_a_local_cluster(run_cli, tmp_path):
    puzzles, solutions = _royle(200)
    r = run_cli("solve", _file(tmp_path, puzzles), "--dask", "local", "--jobs", "2")
    assert r.code == 0 and r.out.split() == solutions


def test_cluster_options_are_checked(run_cli, tmp_path):
    path = _file(tmp_path, [WIKI, WIKI])
    r = run_cli("solve", path, "--unordered")
    assert r.code == 2 and "--unordered needs --dask" in r.err
    r = run_cli("solve", path, "--dask", "tcp://127.0.0.1:1")
    assert r.code == 3 and "cannot reach the Dask scheduler" in r.err
    assert r.err.count("\n") == 1


def test_generate_on_the_cluster_makes_the_puzzles_made_here(run_cli, cluster):
    args = ("generate", "--count", "6", "--seed", "4", "--level", "Medium")
    here = run_cli(*args, "-j", "1")
    there = run_cli(*args, "--dask", cluster.address)
    assert here.code == there.code == 0
    assert there.out == here.out and len(there.out.split()) == 6


def test_rate_on_the_cluster_keeps_rows_in_input_order(run_cli, cluster, tmp_path):
    lines = data_lines("norvig_easy50.txt", limit=20) + ["not a puzzle"]
    src = _file(tmp_path, lines)
    here = run_cli("rate", src, "-f", "json", "-j", "1")
    there = run_cli("rate", src, "-f", "json", "--dask", cluster.address, "--chunk", "3")
    assert here.code == there.code == 2
    assert [json.loads(x)["line"] for x in there.out.splitlines()] == list(range(1, 22))
    assert there.out == here.out


def test_bench_on_the_cluster_verifies_the_same_answers(run_cli, cluster, tmp_path):
    puzzles = data_lines("norvig_easy50.txt", limit=8)
    solutions = data_lines("norvig_easy50.solutions.txt", limit=8)
    path = tmp_path / "set.txt"
    path.write_text("\n".join(puzzles) + "\n")
    (tmp_path / "set.solutions.txt").write_text("\n".join(solutions) + "\n")
    runs = {}
    for where, args in (("here", ("-j", "1")), ("there", ("--dask", cluster.address))):
        out = tmp_path / where
        r = run_cli("bench", path, "--engines", "native,sat", "--no-plots", "--out", out, *args)
        assert r.code == 0, r.err
        data = json.loads((out / "results.json").read_text())
        runs[where] = data
        assert data["settings"]["dask"] == (cluster.address if where == "there" else None)
    for data in runs.values():
        assert len(data["puzzles"]) == 8
    # "solved" is an answer checked against the solutions file ("wrong" otherwise)
    statuses = {w: [(p["line"], p["puzzle"], e, r["status"])
                    for p in d["puzzles"] for e, r in sorted(p["results"].items())]
                for w, d in runs.items()}
    assert statuses["there"] == statuses["here"]
    assert {s[3] for s in statuses["there"]} == {"solved"} and len(statuses["there"]) == 16


def test_local_cluster_leaves_no_scratch_space_and_is_quiet_about_a_killed_worker(tmp_path):
    puzzles, solutions = _royle(20000)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    proc = subprocess.Popen([*CLI, "solve", _file(tmp_path, puzzles), "--dask", "local",
                             "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=_env(TMPDIR=str(scratch)))
    first = proc.stdout.readline()             # under way: the workers are up
    workers = [pid for pid in child_pids(proc.pid)
               if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]
    os.kill(workers[0], signal.SIGKILL)
    with proc.stdout, proc.stderr:
        rest, err = proc.stdout.read(), proc.stderr.read()
    proc.wait(120)
    assert proc.returncode == 0, err
    assert (first + rest).split() == solutions
    assert err.splitlines() == [line for line in err.splitlines() if "20,000 solved" in line]
    assert len(err.splitlines()) == 1
    assert list(scratch.iterdir()) == []
