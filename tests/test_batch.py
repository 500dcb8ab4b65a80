"""Batch solving: the ordered, bounded process map, and `solve FILE --jobs N`."""

import itertools
import os
import signal
import subprocess
import sys
import time

from conftest import child_pids, data_lines

from polydoku.batch import (IN_FLIGHT_PER_JOB, MAX_CHUNK, next_chunk_size, ordered_chunks,
                            ordered_map)

WIKI = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
UNSAT = "55" + WIKI[2:]


def test_ordered_map_keeps_input_order():
    items = [(k, str(k)) for k in range(500)]
    out = list(ordered_map(list, items, jobs=2))
    assert [item for item, _ in out] == items
    assert all(item == result for item, result in out)


def test_ordered_map_reads_its_input_lazily():
    pulled = itertools.count()
    source = (next(pulled) for _ in range(10**9))     # far too long to read ahead
    results = ordered_map(list, source, jobs=2)
    first = [next(results) for _ in range(3)]
    bound = 2 * IN_FLIGHT_PER_JOB * MAX_CHUNK
    assert [item for item, _ in first] == [0, 1, 2] and next(pulled) < bound
    results.close()


def test_chunk_size_moves_towards_the_target():
    assert next_chunk_size(1, 0.0001, 1) > 1              # easy items: bigger chunks
    size = 64
    for _ in range(4):                                    # two seconds each: one at a time
        size = next_chunk_size(size, size * 2.0, size)
    assert size == 1
    assert next_chunk_size(10**6, 0.0, 1) <= MAX_CHUNK


def _file(tmp_path, lines):
    path = tmp_path / "many.txt"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_jobs_keep_order_exit_code_and_match_one_job(run_cli, tmp_path):
    puzzles = data_lines("norvig_easy50.txt", limit=12)
    lines = puzzles[:5] + ["# a comment", WIKI[:30], UNSAT] + puzzles[5:]
    path = _file(tmp_path, lines)
    many, one = run_cli("solve", path, "--jobs", "2"), run_cli("solve", path, "--jobs", "1")
    expected = data_lines("norvig_easy50.solutions.txt", limit=12)
    assert many.code == one.code == 2                     # a bad line is the worst code seen
    assert many.out == one.out
    assert many.out.split("\n")[:-1] == expected[:5] + ["error", "no solution"] + expected[5:]
    assert "line 7" in many.err and "wrong length" in many.err
    assert "14 puzzles" in many.err and "12 solved" in many.err and "1 bad input" in many.err


def test_jobs_json_and_unsat_exit_code(run_cli, tmp_path):
    path = _file(tmp_path, [WIKI, UNSAT, WIKI])
    r = run_cli("solve", path, "--jobs", "2", "--format", "json")
    assert r.code == 1
    assert [line.split('"status": "')[1][:6] for line in r.out.splitlines()] == [
        "solved", "unsati", "solved"]


def test_progress_bar_counts_and_draws(capsys):
    from polydoku.batch import Progress
    with Progress(100, enabled=True, label="solving") as bar:
        for _ in range(10):
            bar.advance(10)
        bar.set_total(200)
    assert bar.count == 10
    capsys.readouterr()
    with Progress(None, enabled=False) as quiet:
        quiet.advance(5, items=3)
    assert quiet.count == 3 and capsys.readouterr().err == ""


def _dies_on_seven(start, chunk):
    """A task whose worker is killed (as the out-of-memory killer does) by item 7."""
    if 7 in chunk:
        os.kill(os.getpid(), signal.SIGKILL)
    return [x * 10 for x in chunk]


def test_a_chunk_that_kills_its_worker_is_given_up_and_the_rest_answered():
    lost = []

    def on_lost(start, chunk, error):
        lost.append((start, chunk, type(error).__name__))
        return ["lost"] * len(chunk)
    out = [(chunk, result) for chunk, result in
           ordered_chunks(_dies_on_seven, range(12), jobs=2, size=1, on_lost=on_lost)]
    assert [c for c, _ in out] == [[k] for k in range(12)]
    assert [r for _, r in out] == [[k * 10] for k in range(7)] + [["lost"]] + \
        [[k * 10] for k in range(8, 12)]
    assert lost == [(7, [7], "WorkerLost")]


def test_a_killed_worker_does_not_end_the_batch(tmp_path):
    """SIGKILL of one `--jobs 2` worker mid-run, for real: its chunk runs again and every
    line gets its right answer."""
    puzzles = data_lines("royle_17clue.txt", limit=30000)
    solutions = data_lines("royle_17clue.solutions.txt", limit=30000)
    path = tmp_path / "many.txt"
    path.write_text("\n".join(puzzles) + "\n")
    proc = subprocess.Popen([sys.executable, "-m", "polydoku", "solve", str(path), "--jobs", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    killed = None
    deadline = time.monotonic() + 60
    while killed is None and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
        # workers are the fork server's children; the server is the command's child
        for worker in [w for helper in child_pids(proc.pid) for w in child_pids(helper)]:
            try:
                os.kill(worker, signal.SIGKILL)
                killed = worker
                break
            except ProcessLookupError:
                continue
    out, err = proc.communicate(timeout=300)
    assert killed is not None, "no worker was running"
    assert proc.returncode == 0, err
    assert out.split() == solutions
    assert len(err.splitlines()) == 1 and "30,000 solved" in err
