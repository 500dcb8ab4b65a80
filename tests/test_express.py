"""The express lane of `polydoku solve FILE` (cli/express.py, `Core.solve_lines` in _core.c): the same
output, messages, summary and exit code as the full command, on any file, and its own check."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from conftest import DATA, EXAMPLES, IN_CI

from polydoku import api
from polydoku.cli import express
from polydoku.engines import Status
from polydoku.engines.native import _build_ccore, compile_problem
from polydoku.formats.line import parse_line
from polydoku.model import Geometry, default_alphabet
from polydoku.problem import build_problem
from polydoku.units import classic_core_args

try:
    from polydoku import _core
except ImportError:      # the fallback machine: no express lane to test (fails in CI)
    _core = None         # type: ignore[assignment]
    if IN_CI:
        raise
    pytest.skip("the compiled core is not built here", allow_module_level=True)

SCRIPT = str(Path(sys.executable).with_name("polydoku"))   # the console script: express.entry
NO_EXPRESS = {**os.environ, "POLYDOKU_EXPRESS": "off"}     # every line through the model
SAMPLES = DATA / "samples_1000"
TIMING = re.compile(r"in [0-9.]+ s \([0-9,]+/s\)")
WIKI_LINE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)


def same_as_full(path: Path, *extra: str) -> subprocess.CompletedProcess:
    """Run `solve PATH` through the console script and the full command; assert that stdout,
    exit code and stderr (timings aside) are the same, and return the script's run."""
    got = run([SCRIPT, "solve", str(path), *extra])
    want = run([SCRIPT, "solve", str(path), *extra], env=NO_EXPRESS)
    assert got.stdout == want.stdout
    assert got.returncode == want.returncode, got.stderr
    assert TIMING.sub("", got.stderr) == TIMING.sub("", want.stderr)
    assert "Traceback" not in got.stderr
    return got


def first_solution_full(line: str) -> tuple[int, ...] | None:
    outcome = api.solve(parse_line(line), "native")
    return outcome.solutions[0] if outcome.status is Status.SOLVED else None


# ------------------------------------------------------------------ the core and its check

@pytest.mark.parametrize("cells", sorted(express.CLASSIC))
def test_the_express_core_is_the_native_engines_core(cells):
    size, rows, cols, symbols = express.CLASSIC[cells]
    puzzle = parse_line("." * cells)
    assert (puzzle.geometry.box_rows, puzzle.geometry.box_cols) == (rows, cols)
    assert Geometry.of_size(size) == puzzle.geometry
    assert default_alphabet(size).encode() == symbols
    C = compile_problem(build_problem(puzzle))
    dsizes, ncells, peers, units, conflicts, tables, sums, crossings = classic_core_args(
        size, rows, cols)
    assert (dsizes, ncells, conflicts, tables, sums) == (C.dsizes, C.ncells, [], [], [])
    assert [tuple(p) for p in peers] == [tuple(p) for p in C.peers]
    assert [tuple(u) for u in units] == [tuple(u) for u in C.units]
    from polydoku.units import crossings as cross
    assert crossings == cross(C.units)
    assert _build_ccore(C) is not None


def _grid(line: str) -> list[int]:
    return [-1 if ch in ".0" else int(ch) - 1 for ch in line]


def test_the_check_accepts_solutions_and_refuses_every_single_change():
    puzzles = (SAMPLES / "royle_17clue_1000.txt").read_text().split()[:20]
    solutions = (SAMPLES / "royle_17clue_1000.solutions.txt").read_text().split()[:20]
    rng = random.Random(5)
    for p, s in zip(puzzles, solutions):
        given, sol = _grid(p), _grid(s)
        assert _core.check_classic(given, sol, 3, 3)
        assert _core.check_classic([-1] * 81, sol, 3, 3)
        k = rng.randrange(81)
        wrong = list(sol)
        wrong[k] = (wrong[k] + rng.randrange(1, 9)) % 9
        assert not _core.check_classic([-1] * 81, wrong, 3, 3)       # a unit breaks
        swapped = list(sol)
        j = next(j for j in range(81) if given[j] >= 0)
        other = next(i for i in range(81) if i // 9 == j // 9 and sol[i] != sol[j])
        swapped[j], swapped[other] = swapped[other], swapped[j]
        assert not _core.check_classic(given, swapped, 3, 3)          # a given is lost
        assert not _core.check_classic(given, [9] + sol[1:], 3, 3)    # not a symbol


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([c for c in sorted(express.CLASSIC) if c <= 256]), st.integers(0, 2**32),
       st.floats(0.0, 0.9))
def test_solve_lines_gives_the_native_engines_first_solution(cells, seed, keep):
    """Puzzles from a random solution with random givens kept (most have many solutions, and
    the first one found must be the same), on every classic size."""
    size, rows, cols, symbols = express.CLASSIC[cells]
    rng = random.Random(seed)
    full = api.solve(parse_line("." * cells), "native").solutions[0]
    perm = list(range(1, size + 1))
    rng.shuffle(perm)
    grid = [perm[v - 1] for v in full]
    line = "".join(symbols.decode()[v - 1] if rng.random() < keep else rng.choice(".0")
                   for v in grid)
    core, *_ = express._core_for(cells)
    text, used, lines, answered = core.solve_lines(line.encode() + b"\n", symbols, rows, cols,
                                                   10.0)
    want = first_solution_full(line)
    assert (used, lines, answered) == (cells + 1, 1, 1)
    assert text.decode().strip() == "".join(symbols.decode()[v - 1] for v in want)


def test_solve_lines_stops_before_a_line_it_cannot_answer():
    core, rows, cols, symbols = express._core_for(81)
    good = (SAMPLES / "royle_17clue_1000.txt").read_text().split()[:3]
    for bad in ("11" + "." * 79,                        # two equal givens in a row
                "." * 80,                               # another length
                "x" + "." * 80,                         # not a symbol
                good[0] + " # a comment after it",      # the reader keeps only the puzzle
                '{"grid": "' + "." * 81 + '"}'):
        data = "\n".join(good[:2] + ["# a comment", "", bad, good[2]]).encode()
        text, used, lines, answered = core.solve_lines(data, symbols, rows, cols, 10.0)
        assert (lines, answered) == (4, 2)
        assert data[used:].startswith(bad.encode())
        assert text.decode().split() == (SAMPLES / "royle_17clue_1000.solutions.txt") \
            .read_text().split()[:2]


# ------------------------------------------------------------------ the command, end to end

@pytest.mark.parametrize("name", ["royle_17clue_1000", "magictour_top1465_first1000",
                                  "forum_hardest_1905_11plus_1000"])
def test_the_express_lane_prints_the_solutions_file(name):
    got = same_as_full(SAMPLES / f"{name}.txt", "--jobs", "1")
    assert got.stdout == (SAMPLES / f"{name}.solutions.txt").read_text()
    assert got.stderr.startswith("polydoku: 1,000 puzzles in ") and "1,000 solved" in got.stderr


def _mixed(tmp_path: Path, head: int) -> Path:
    """A file whose first `head` lines the express lane answers, then every kind of line."""
    puzzles = (SAMPLES / "magictour_top1465_first1000.txt").read_text().split()
    lines = ["# a comment first", ""] + puzzles[:head] + [
        "# a comment", "", "11" + "." * 79,                     # two equal givens
        puzzles[head] + "   # with a comment",
        "9" * 3 + "." * 78,                                     # equal givens too
        "." * 80,                                               # bad: a length
        "1" + "." * 80,                                         # many solutions
        '{"grid": "' + "." * 16 + '"}',                         # JSON, 4x4
        "abc",                                                  # bad symbols
        "..3" + "." * 78 + "\r",                                # a CRLF line
    ] + puzzles[head + 1: head + 40]
    path = tmp_path / f"mixed-{head}.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("head", [0, 25, 30])
@pytest.mark.parametrize("jobs", [("--jobs", "1"), (), ("--jobs", "2"),
                                  ("--jobs", "1", "--timeout", "50")])
def test_a_file_with_other_lines_is_handed_over_with_the_same_output(tmp_path, head, jobs):
    got = same_as_full(_mixed(tmp_path, head), *jobs)
    assert got.returncode == 2                           # bad lines: the worst code
    assert "no solution" in got.stdout and "error" in got.stdout
    assert re.search(r"\d+ solved, 2 no solution, 3 bad input", got.stderr)


def test_workers_and_other_options_answer_runs_of_lines_in_c(tmp_path, monkeypatch, run_cli):
    """--jobs 2 (each worker) and options the console lane does not take (the full command)
    still answer runs of plain lines in C; an option that changes the output does not."""
    got = same_as_full(SAMPLES / "forum_hardest_1905_11plus_1000.txt", "--jobs", "2")
    assert got.stdout == (SAMPLES / "forum_hardest_1905_11plus_1000.solutions.txt").read_text()
    calls = []
    real = express.answer_lines

    def counted(texts, timeout):
        calls.append(timeout)
        return real(texts, timeout)
    monkeypatch.setattr(express, "answer_lines", counted)
    path = SAMPLES / "royle_17clue_1000.txt"
    r = run_cli("solve", str(path), "--jobs", "1", "--timeout", "50")
    assert r.code == 0 and r.out == (SAMPLES / "royle_17clue_1000.solutions.txt").read_text()
    assert calls and set(calls) == {50.0}
    calls.clear()
    r = run_cli("solve", str(path), "--jobs", "1", "--count")
    assert r.code == 0 and r.out.split() == ["1"] * 1000 and not calls
    r = run_cli("solve", str(path), "--jobs", "1", "--limit", "2")     # counts to two
    assert r.code == 0 and not calls


def test_one_puzzle_and_small_files_without_jobs(tmp_path):
    same_as_full(EXAMPLES / "wikipedia.txt")
    one = tmp_path / "one.txt"
    one.write_text((SAMPLES / "royle_17clue_1000.txt").read_text().split()[7] + "\n")
    got = same_as_full(one)
    assert got.stderr == "" and len(got.stdout) == 82
    four = tmp_path / "four.txt"
    four.write_text("1..." + "." * 12 + "\n" + "12.." + "." * 12 + "\r\n" + "." * 16)
    assert len(same_as_full(four).stdout.split()) == 3
    no = tmp_path / "no.txt"
    no.write_text("." * 80 + "1\n" + "." * 80 + "1\n" + "11" + "." * 79 + "\n")
    assert same_as_full(no).returncode == 1


def _big_file(tmp_path: Path, size: int, count: int, keep: float) -> Path:
    """A file of `count` puzzles of a size, from a solved grid with cells kept at random (some
    letters in lower case, blanks as `.` or `0`)."""
    rng = random.Random(size)
    cells = size * size
    _, _, _, symbols = express.CLASSIC[cells]
    full = api.solve(parse_line("." * cells), "native").solutions[0]
    lines = []
    for _ in range(count):
        perm = list(range(size))
        rng.shuffle(perm)
        lines.append("".join((lambda ch: ch.lower() if rng.random() < 0.3 else ch)(
            symbols.decode()[perm[v - 1]]) if rng.random() < keep else rng.choice(".0")
            for v in full))
    path = tmp_path / f"size{size}.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("size,keep", [(12, 0.5), (16, 0.6), (25, 0.7)])
def test_bigger_grids_take_the_express_lane_with_the_same_output(tmp_path, size, keep):
    path = _big_file(tmp_path, size, 6, keep)
    assert express._plain_head(path.read_bytes()) == size * size
    got = same_as_full(path, "--jobs", "1")
    assert len(got.stdout.split()) == 6 and got.returncode == 0


def test_the_express_lane_imports_neither_click_nor_the_model():
    code = ("import sys, io\n"
            "from polydoku.cli import express\n"
            "out, sys.stdout = sys.stdout, io.TextIOWrapper(io.BytesIO())\n"
            f"code = express.run(['solve', {str(SAMPLES / 'royle_17clue_1000.txt')!r}, '-j1'])\n"
            "sys.stdout = out\n"
            "print(code, ' '.join(sorted(sys.modules)))\n")
    done = run([sys.executable, "-c", code])
    exit_code, modules = done.stdout.split(" ", 1)
    loaded = set(modules.split())
    assert exit_code == "0", done.stderr
    assert not {"click", "polydoku.api", "polydoku.model", "polydoku.batch", "rich",
                "polydoku.engines", "dataclasses", "enum", "typing"} & loaded


@pytest.mark.parametrize("argv,wanted", [
    (["solve", "F", "--jobs", "1"], ("solve", "F", 120.0, None)),
    (["solve", "-j1", "F"], ("solve", "F", 120.0, None)),
    (["solve", "F", "--jobs=1"], ("solve", "F", 120.0, None)),
    (["solve", "F"], ("solve", "F", 120.0, None)),
    (["solve", "F", "--jobs", "2"], ("solve", "F", 120.0, None)),
    (["solve", "F", "--no-check-unique"], ("solve", "F", 120.0, False)),
    (["solve", "F", "--check-unique"], ("solve", "F", 120.0, True)),
    (["solve", "-", "-e", "native", "--format=line", "--timeout", "5", "--chunk", "9"],
     ("solve", "-", 5.0, None)),
    (["solve", "-enative", "-fline", "--input-format", "lines", "F"], ("solve", "F", 120.0, None)),
    (["check-unique", "F", "--engine=native"], ("check-unique", "F", 120.0, None)),
    (["solve", "F", "--count"], None), (["solve", "F", "-f", "json"], None),
    (["solve", "F", "G"], None), (["solve", "--jobs", "1"], None), (["solve", "F", "-j"], None),
    (["solve", "F", "--engine", "sat"], None), (["solve", "F", "--timeout", "0"], None),
    (["solve", "F", "--jobs", "0"], None), (["solve", "F", "--jobs", "two"], None),
    (["solve", "F", "--input-format", "grid"], None), (["check-unique", "F", "-f", "line"], None),
    (["check-unique", "F", "--no-check-unique"], None), (["solve", "F", "--rules", "x"], None),
    (["rate", "F"], None), ([], None),
])
def test_the_lane_reads_every_spelling_of_the_plain_command(argv, wanted):
    asked = express.plain_args(argv)
    got = None if asked is None else (asked.command, asked.source, asked.timeout, asked.check)
    assert got == wanted


@pytest.mark.parametrize("command", ["solve", "check-unique"])
def test_the_lanes_options_are_the_commands_own(command):
    """Every option the lane reads is one the full command declares, taking a value or not as
    there, and every value the lane answers is one the command accepts."""
    import click

    from polydoku.cli.app import cli
    cmd = cli.get_command(click.Context(cli), command)
    params = {opt: p for p in cmd.params if isinstance(p, click.Option)
              for opt in p.opts + p.secondary_opts}
    for name, what in express._VALUES.items():
        if what not in express._COMMANDS[command]:
            continue
        param = params[name]
        assert not param.is_flag and param.nargs == 1, name
        for value in express._TAKES[what] or ():
            param.type.convert(value, param, None)       # raises when the command refuses it
    if command == "solve":
        for flag in express._FLAGS:
            assert params[flag].is_flag, flag


SPELLINGS = [(), ("--engine", "native"), ("-enative",), ("--format", "line"), ("-f", "line"),
             ("--jobs", "2"), ("-j1",), ("--timeout", "60"), ("--input-format=lines",),
             ("--chunk", "7", "--engine=native")]


@pytest.mark.parametrize("spelling", SPELLINGS, ids=" ".join)
def test_every_spelling_takes_the_lane_with_the_same_output(tmp_path, spelling):
    """A file, standard input (handed over midway, its line numbers kept) and a literal: the
    same output as the full command, and each spelling answered without click or the model."""
    mixed = _mixed(tmp_path, 30)
    got = same_as_full(mixed, *spelling)
    assert got.returncode == 2
    with mixed.open() as a, mixed.open() as b:
        piped = run([SCRIPT, "solve", "-", *spelling], stdin=a)
        want = run([SCRIPT, "solve", "-", *spelling], stdin=b, env=NO_EXPRESS)
    assert (piped.stdout, piped.returncode) == (want.stdout, want.returncode)
    assert TIMING.sub("", piped.stderr) == TIMING.sub("", want.stderr)
    line = (SAMPLES / "royle_17clue_1000.txt").read_text().split()[3]
    if "--input-format=lines" in spelling:
        return                      # a literal read as a file of lines: the full command
    for command in ("solve", "check-unique"):
        if command == "check-unique" and spelling and spelling[0].startswith(("-f", "--format")):
            continue
        code = ("import sys, io\n"
                "from polydoku.cli import express\n"
                "out, sys.stdout = sys.stdout, io.TextIOWrapper(io.BytesIO())\n"
                f"code = express.run({[command, line, *spelling]!r})\n"
                "sys.stdout = out\n"
                "print(code, 'click' in sys.modules, 'polydoku.model' in sys.modules)\n")
        assert run([sys.executable, "-c", code]).stdout.split() == ["0", "False", "False"]


@pytest.mark.parametrize("line,words", [
    ("1" + "." * 80, ("not unique", "at least 2 solutions")),
    ("11" + "." * 79, ("no solution", "no solution")), ("." * 15 + "1", ("", "")),
    (WIKI_LINE, ("", "yes")),
])
def test_a_literal_says_what_the_full_command_says(line, words):
    for command, said in zip(("solve", "check-unique"), words):
        got = run([SCRIPT, command, line])
        want = run([SCRIPT, command, line], env=NO_EXPRESS)
        assert (got.stdout, got.stderr, got.returncode) == (want.stdout, want.stderr,
                                                             want.returncode)
        assert said in got.stdout + got.stderr


def test_a_big_file_with_jobs_is_shared_by_processes(tmp_path):
    big = tmp_path / "big.txt"
    big.write_text(("." * 81 + "\n") * (express.PARALLEL_FROM // 82 + 10))
    assert express.run(["solve", str(big), "--jobs", "2"]) is None
    assert express.plain_args(["solve", str(big), "--jobs", "2"]).jobs == 2


def test_pure_python_asked_means_no_express_lane(tmp_path, monkeypatch):
    monkeypatch.setenv("POLYDOKU_NATIVE", "python")
    path = tmp_path / "p.txt"
    path.write_text("." * 81 + "\n" + "." * 81 + "\n")
    assert express.run(["solve", str(path), "--jobs", "1"]) is None


def test_a_closed_pipe_and_a_stop_signal(tmp_path):
    hard = (SAMPLES / "forum_hardest_1905_11plus_1000.txt").read_text()
    big = tmp_path / "big.txt"
    big.write_text(hard * 20)
    head = subprocess.run(f"'{SCRIPT}' solve '{big}' --jobs 1 | head -1", shell=True,
                          capture_output=True, text=True, timeout=120)
    assert len(head.stdout) == 82 and "Traceback" not in head.stderr
    proc = subprocess.Popen([SCRIPT, "solve", str(big), "--jobs", "1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and err == "polydoku: interrupted\n"


def test_the_default_timeout_is_the_commands():
    from polydoku.cli.solve import solve
    timeout = next(p for p in solve.params if p.name == "timeout")
    assert timeout.default == express.DEFAULT_TIMEOUT
