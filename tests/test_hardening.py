"""Puzzle files come from strangers: their text never runs code, never breaks an artifact, a
message or a picture, and bad input is always exit 2 with one line, never an internal error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from polydoku import api
from polydoku.engines import Status
from polydoku.formats.read import read_text
from polydoku.text import clean_name, label, one_line
from polydoku.verify import is_solution

from conftest import need_engine

FOUR = "1.3...1.3...4..."
FOUR_SOLVED = "1234341221434321"
W = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
W_SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"

# A name that tries to end a quoted string, a comment or a field in every syntax polydoku
# writes, and to run code when a tool reads it (a build backend, a hook, a shell).
CANARY = "polydoku-canary"


def crafted(tmp_path: Path, givens: str = FOUR) -> str:
    """Return a JSON puzzle whose name and id would run code if written unescaped."""
    flag = tmp_path / CANARY
    payload = (f"x\"\n[build-system]\nrequires = []\nbuild-backend = \"evil\"\n"
               f"# '; touch {flag}; echo '\r\n\"\"\")\nimport os; os.system('touch {flag}')\n"
               f"Package: evil\nDepends: x $(touch {flag}) `touch {flag}` </title><script>")
    return json.dumps({"givens": givens, "name": payload, "title": payload})


def test_names_are_cleaned_when_read():
    p = read_text(json.dumps({"givens": FOUR, "name": "a\nb\x00c\u2028d\x1b[31m"}))
    assert p.name == "a b c d [31m"
    assert clean_name("x" * 500).endswith("…") and len(clean_name("x" * 500)) == 120


def test_label_and_one_line():
    assert label('x"; rm -rf / #\n') == "x_ rm -rf"
    assert label("") == "puzzle" and label("\"'") == "puzzle"
    assert one_line("a\nb\x1b") == "a\\nb\\x1b"


@pytest.mark.parametrize("bad", [{}, [], 5.5, True])
def test_a_name_that_is_not_text_is_exit_2(run_cli, bad):
    r = run_cli("solve", json.dumps({"givens": FOUR, "name": bad}))
    assert r.code == 2 and '"name" must be text' in r.err and r.err.count("\n") == 1


@pytest.mark.parametrize("alphabet", ["abc'", "ab\"c", "a$bc", "a bc", "a\nbc"])
def test_an_alphabet_with_quotes_or_controls_is_exit_2(run_cli, alphabet):
    r = run_cli("solve", json.dumps({"givens": "....", "alphabet": alphabet, "size": 4,
                                     "box": [2, 2]}).replace('"....', '"' + "." * 16))
    assert r.code == 2 and r.err.count("\n") == 1


@pytest.mark.parametrize("fmt", ["debian", "conda", "pypi", "poetry", "dimacs", "smtlib",
                                 "minizinc", "asp", "alloy", "picat"])
def test_exports_never_carry_puzzle_text(run_cli, tmp_path, fmt):
    out = tmp_path / "out"
    r = run_cli("export", crafted(tmp_path), "--to", fmt, "--out", out)
    assert r.code == 0, r.err
    files = [p for p in out.rglob("*") if p.is_file()]
    assert files
    raw = [b'"evil"', b"$(touch", b"`touch", b"<script>", b"os.system(", b"\nPackage: evil",
           b"\n[build-system]", b"'; touch", b"\r"]
    for path in files:
        data = path.read_bytes()
        assert not [r for r in raw if r in data], path
        if path.suffix == ".toml":
            tomllib.loads(data.decode())          # well-formed, so nothing was injected
        if path.suffix == ".json":
            json.loads(data)


def test_svg_title_is_escaped_and_well_formed(run_cli, tmp_path):
    out = tmp_path / "x.svg"
    r = run_cli("render", crafted(tmp_path), "--out", out)
    assert r.code == 0, r.err
    root = ET.parse(out).getroot()                  # well-formed XML
    title = root.find("{http://www.w3.org/2000/svg}title")
    assert title is not None and title.text.startswith('x" [build-system]')
    assert "\n" not in title.text and "\r" not in title.text
    assert b"<script>" not in out.read_bytes()


def test_control_characters_in_title_option_are_exit_2(run_cli, tmp_path):
    r = run_cli("render", FOUR, "--title", "a\x01b", "--out", tmp_path / "x.svg")
    assert r.code == 2 and "--title" in r.err and r.err.count("\n") == 1


def test_messages_naming_a_puzzle_stay_on_one_line(run_cli):
    bad = json.dumps({"givens": "1" * 16, "name": "two\nlines"})
    r = run_cli("solve", bad, "--format", "json")
    assert "two\nlines" not in r.out + r.err


@pytest.mark.parametrize("spec", ["pip", "uv", "pdm+tuned", "poetry+tuned", "aptitude",
                                  "libsolv-conda", "minizinc", "clingo"])
def test_a_crafted_puzzle_runs_no_code_on_any_engine(tmp_path, spec):
    engine = need_engine(spec)
    puzzle = read_text(crafted(tmp_path))
    outcome = api.solve(puzzle, engine, timeout=120)
    assert outcome.status is Status.SOLVED, outcome.message
    assert is_solution(puzzle, outcome.solutions[0])
    assert not (tmp_path / CANARY).exists()


# --- every bad input is exit 2 with one line -------------------------------------------------

def _json(**fields) -> str:
    return json.dumps({"givens": W, **fields})


BAD_INPUTS = [
    ("solve", _json(rules=5)),
    ("solve", _json(box="9")),
    ("solve", _json(name={})),
    ("solve", _json(size=1e400)),
    ("solve", '{"givens": "' + W + '", "size": ' + "9" * 5000 + "}"),
    ("solve", "[" * 100_000 + "]" * 100_000),
    ("solve", '{"a": ' * 100_000 + "1" + "}" * 100_000),
    ("explain", W, "--why", "r1c1=¹"),
    ("explain", W, "--why", "r¹c1=1"),
    ("solve", W, "--timeout", "inf"),
    ("solve", W, "--timeout", "nan"),
    ("solve", W, "--timeout", "1e308"),
    ("render", W, "--scale", "nan", "--out", "{tmp}/x.png"),
    ("render", W, "--out", "{tmp}/missing-dir/x.svg"),
    ("render", W, "--title", "a\x1b[2Jb", "--out", "{tmp}/x.svg"),
    ("check", W[:-1] + "x"),
    ("solve", W, "--jobs", "0"),
]


@pytest.mark.parametrize("args", BAD_INPUTS, ids=lambda a: " ".join(a)[:40])
def test_bad_input_is_exit_2_on_one_line(run_cli, tmp_path, args):
    r = run_cli(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert r.code == 2, r.err
    assert r.err.count("\n") == 1 and r.err.startswith("polydoku: ")
    assert "internal error" not in r.err and "Traceback" not in r.err


def test_non_utf8_standard_input_is_exit_2(tmp_path):
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "polydoku", "solve", "-"],
                          input=b"\xff\xfe53..\n", capture_output=True, timeout=60)
    assert done.returncode == 2 and b"not UTF-8" in done.stderr
    assert done.stderr.count(b"\n") == 1


def test_a_byte_order_mark_is_accepted(run_cli, tmp_path):
    f = tmp_path / "bom.txt"
    f.write_bytes(b"\xef\xbb\xbf" + W.encode() + b"\n")
    r = run_cli("solve", f)
    assert r.code == 0 and r.out.strip() == W_SOLVED


def test_an_overlong_line_is_reported_and_the_rest_solved(run_cli, tmp_path):
    f = tmp_path / "long.txt"
    f.write_text(f"{W}\n{'1' * 3_000_000}\n{W}\n")
    r = run_cli("solve", f, "--jobs", "1")
    assert r.code == 2 and r.out.split() == [W_SOLVED, "error", W_SOLVED]
    assert "line 2: line longer than 1 MB" in r.err


# --- batches ---------------------------------------------------------------------------------

@pytest.mark.parametrize("jobs", ["1", "2"])
def test_json_lines_stay_aligned_with_the_input(run_cli, tmp_path, jobs):
    f = tmp_path / "p.txt"
    f.write_text(f"{W}\n{W[:10]}\n\n# a comment\n{_json(rules=5)}\n{W}\n")
    r = run_cli("solve", f, "--format", "json", "--jobs", jobs)
    records = [json.loads(line) for line in r.out.splitlines()]
    assert [x["status"] for x in records] == ["solved", "error", "error", "solved"]
    assert [x.get("line") for x in records[1:3]] == [2, 5]
    assert r.code == 2


def test_check_checks_every_grid_of_a_file(run_cli, tmp_path):
    f = tmp_path / "grids.txt"
    broken = W_SOLVED[:-2] + W_SOLVED[-1] + W_SOLVED[-2]
    f.write_text(f"{W_SOLVED}\n{broken}\nxx\n{W_SOLVED}\n")
    r = run_cli("check", f)
    lines = r.out.splitlines()
    assert lines[0] == "valid" and lines[1].startswith("invalid: ") and lines[2:] == ["error",
                                                                                         "valid"]
    assert r.code == 2


def test_check_applies_the_rules_a_json_grid_carries(run_cli):
    r = run_cli("check", _json(rules=["anti-knight"]).replace(W, W_SOLVED), "--puzzle", W)
    assert r.code == 1 and "anti-knight" in r.out


# --- exit codes ------------------------------------------------------------------------------

def test_explain_why_a_given_cell_cannot_hold_another_value_on_every_engine(run_cli):
    for engine in ("native", "cpsat", "sat", "z3"):
        r = run_cli("explain", W, "--why", "r1c1=1", "--engine", engine)
        assert r.code == 1, (engine, r.out)
        assert r.out.startswith("r1c1 cannot hold 1") and "r1c1=5" in r.out


def test_a_count_cut_by_the_timeout_gives_up(run_cli):
    r = run_cli("solve", "." * 81, "--count", "--limit", "100000000", "--timeout", "0.5")
    assert r.code == 4 and r.out.strip().endswith("+") and "timed out" in r.err


def test_a_count_that_reaches_its_limit_is_solved(run_cli):
    r = run_cli("solve", "." * 81, "--count", "--limit", "50")
    assert r.code == 0 and r.out.strip() == "50+"


def test_counting_keeps_only_two_solutions():
    from polydoku.model import Puzzle
    outcome = api.solve(Puzzle.empty(9), max_solutions=5000, keep_solutions=2)
    assert outcome.count == 5000 and len(outcome.solutions) == 2 and not outcome.exhausted
    assert api.count(read_text(FOUR), limit=10).count == 1


def test_a_closed_pipe_is_exit_0(tmp_path):
    import subprocess
    import sys
    f = tmp_path / "many.txt"
    f.write_text((W + "\n") * 3000)
    proc = subprocess.Popen([sys.executable, "-m", "polydoku", "solve", str(f), "--jobs", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline().strip().decode() == W_SOLVED
    proc.stdout.close()
    assert proc.wait(timeout=120) == 0
    with proc.stderr:
        assert b"Traceback" not in proc.stderr.read()


# --- clean stops -----------------------------------------------------------------------------

def _group_alive(pgid: int) -> list[str]:
    import subprocess
    ps = subprocess.run(["ps", "-eo", "pgid=,stat=,args="], capture_output=True, text=True)
    return [ln for ln in ps.stdout.splitlines()
            if ln.split()[0] == str(pgid) and "Z" not in ln.split()[1]]


def _default_stop_signals() -> None:
    """Give the run the stop signals' default actions: a suite started under `nohup` ignores
    SIGHUP, and a run that inherits an ignored signal rightly keeps ignoring it."""
    import signal
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def test_a_run_started_under_nohup_keeps_ignoring_sighup():
    import signal
    from polydoku.stops import install_main_handlers
    saved = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        install_main_handlers()
        assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        install_main_handlers()
        assert signal.getsignal(signal.SIGHUP) not in (signal.SIG_IGN, signal.SIG_DFL)
    finally:
        signal.signal(signal.SIGHUP, saved)


@pytest.mark.parametrize("signame, engine, jobs", [("SIGTERM", "uv", "2"),
                                                   ("SIGHUP", "pip", "2"),
                                                   ("SIGTERM", "poetry", "1")])
def test_a_stop_signal_to_the_group_leaves_nothing_behind(tmp_path, signame, engine, jobs):
    import os
    import signal
    import subprocess
    import sys
    import time
    need_engine(engine)
    hard = Path(__file__).parent.parent / "examples" / "inkala.txt"
    f = tmp_path / "many.txt"
    f.write_text((hard.read_text().strip() + "\n") * 6)
    sandboxes = tmp_path / "tmp"
    sandboxes.mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "polydoku", "solve", str(f), "--engine",
                             engine, "--jobs", jobs, "--timeout", "60"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "TMPDIR": str(sandboxes)}, start_new_session=True,
                            preexec_fn=_default_stop_signals)
    deadline = time.monotonic() + 60
    while not any(sandboxes.glob(f"polydoku-{engine}-*")) and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1.0)                               # the tool is running in its sandbox
    assert any(sandboxes.glob(f"polydoku-{engine}-*"))
    stopped = time.monotonic()
    os.killpg(proc.pid, getattr(signal, signame))
    try:
        code = proc.wait(timeout=30)
    finally:                    # a run that hangs is killed, its pipes closed: no later test
        if proc.poll() is None:     # sees them
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate(timeout=10)
    took = time.monotonic() - stopped
    with proc.stdout, proc.stderr:
        err = proc.stderr.read().decode()
    assert code == 130 and took < 5, (code, took, err)
    assert "Traceback" not in err, err
    time.sleep(1.0)
    assert not _group_alive(proc.pid)
    assert not list(sandboxes.glob("polydoku-*"))


def test_polydoku_alone_prints_a_short_usage(run_cli):
    r = run_cli()
    assert r.code == 2 and r.err.startswith("usage: polydoku COMMAND")
    assert len(r.err.splitlines()) < 12 and "\\n" not in r.err


@pytest.mark.parametrize("command", ["solve", "check-unique", "explain", "hint", "steps",
                                     "candidates", "rate"])
def test_json_is_spelled_the_same_everywhere(run_cli, command):
    def untimed(text: str) -> dict:
        data = json.loads(text)
        return {k: v for k, v in data.items() if k not in ("seconds", "stats")}
    short = run_cli(command, W, "--json")
    long = run_cli(command, W, "--format", "json")
    assert short.code == long.code == 0, short.err
    assert untimed(short.out) == untimed(long.out)


def test_out_never_writes_through_a_symbolic_link(run_cli, tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("mine")
    link = tmp_path / "picture.svg"
    link.symlink_to(outside)
    r = run_cli("render", W, "--out", str(link))
    assert r.code == 2 and "symbolic link" in r.err
    assert outside.read_text() == "mine"


@pytest.mark.parametrize("where", ["the folder", "inside"])
def test_keep_never_follows_a_link_out_of_its_folder(run_cli, tmp_path, where):
    need_engine("uv")
    outside = tmp_path / "outside"
    outside.mkdir()
    keep = tmp_path / "keep"
    if where == "the folder":
        keep.symlink_to(outside, target_is_directory=True)
    else:
        keep.mkdir()
        (keep / "wheels").symlink_to(outside, target_is_directory=True)
    r = run_cli("solve", W, "--engine", "uv", "--keep", str(keep))
    assert r.code == 2 and "symbolic link" in r.err
    assert list(outside.iterdir()) == []            # nothing written through the link


def test_keep_gives_each_puzzle_of_a_file_its_own_folder(run_cli, tmp_path):
    need_engine("uv")
    src = tmp_path / "two.txt"
    src.write_text(W + "\n" + W.replace("53", "5.", 1) + "\n")
    keep = tmp_path / "keep"
    r = run_cli("solve", str(src), "--engine", "uv", "--keep", str(keep))
    assert r.code == 0, r.err
    assert sorted(p.name for p in keep.iterdir()) == ["line-1", "line-2"]
    assert (keep / "line-1" / "requirements.txt").read_text() != ""
    assert (keep / "line-2" / "requirements.txt").read_text() != ""


def test_out_is_spelled_the_same_everywhere():
    import click

    from polydoku.cli.app import cli
    ctx = click.Context(cli)
    names = cli.list_commands(ctx)
    assert "solve" in names and "check-unique" in names and "many" not in names
    for name in names:
        command = cli.get_command(ctx, name)
        assert command is not None, name
        for param in command.params:
            if "--out" in getattr(param, "opts", []):
                assert param.opts == ["--out", "-O"], name
            if "-o" in getattr(param, "opts", []):
                assert param.opts == ["--option", "-o"], name


BIG = "9" * 5000          # past Python's 4,300-digit limit on reading a whole number


@pytest.mark.parametrize("args, place", [
    (["solve", f"1x1-is=={BIG}"], "spec 1"),
    (["solve", f"1x1-is={BIG}"], "spec 1"),
    (["explain", W, "--why", f"r{BIG}c1=4"], "--why"),
    (["explain", W, "--why", f"r1c1={BIG}"], "--why"),
    (["render", W, "--highlight", f"r1c{BIG}", "--out", "{tmp}/x.svg"], "cell"),
    (["generate", "--box", f"{BIG}x3"], "--box"),
    (["solve", f'<ksudoku><game><puzzle><graph order="{BIG}" type="sudoku"/>'
               f'<values>{W}</values></puzzle></game></ksudoku>'], "order"),
])
def test_numbers_past_the_digit_limit_are_bad_input(run_cli, tmp_path, args, place):
    r = run_cli(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert r.code == 2, r.err
    line, = r.err.splitlines()
    assert place in line and len(line) < 300 and "internal" not in line


def test_numbers_past_the_digit_limit_are_http_400():
    from starlette.testclient import TestClient
    from polydoku.web.app import Settings, create_app
    with TestClient(create_app(Settings(workers=1)), base_url="http://127.0.0.1") as client:
        r = client.post("/api/solve", json={"puzzle": f"1x1-is=={BIG}"})
    assert r.status_code == 400 and "spec 1" in r.json()["error"]


def test_an_endless_line_on_standard_input_stops_the_reading():
    with open("/dev/zero", "rb") as zeros:
        done = subprocess.run([sys.executable, "-m", "polydoku", "solve", "-"], stdin=zeros,
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["polydoku: <stdin>: a line longer than 16 MB: "
                                        "stopped reading"]


@pytest.mark.parametrize("kind", ["device", "named pipe", "folder"])
def test_special_files_are_refused_by_name(run_cli, tmp_path, kind):
    path = {"device": "/dev/zero", "named pipe": str(tmp_path / "fifo"),
            "folder": str(tmp_path)}[kind]
    if kind == "named pipe":
        os.mkfifo(path)           # opening it to read would wait for a writer for ever
    r = run_cli("solve", path)
    assert r.code == 2
    assert r.err.splitlines() == [f"polydoku: {path}: is a {kind}, not a file of puzzles"]
