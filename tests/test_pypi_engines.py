"""The Python packaging engines run for real: resolvelib in process; pip, uv, Poetry and PDM as
programs in their sandboxes. Easy puzzles only (the benchmark runs the hard ones); few Poetry and
PDM runs, since each starts slowly. Every answer is verified by `api.solve`."""

from __future__ import annotations

from pathlib import Path

import pytest

from polydoku import api
from polydoku.engines import Status
from polydoku.formats import parse_line, read_puzzle
from polydoku.verify import is_solution

from conftest import EXAMPLES, need_engine

FOUR = str(EXAMPLES / "four.txt")
WIKIPEDIA = str(EXAMPLES / "wikipedia.txt")
INKALA = str(EXAMPLES / "inkala.txt")
MIRACLE = str(EXAMPLES / "miracle.json")
UNSAT_4 = "......34...23..."      # no two givens clash, yet no solution (r4c4 has no value left)


def solved(spec: str, path: str, timeout: float = 120, **kwargs):
    """Return the verified outcome of a real run (skips or fails when the engine is missing)."""
    engine = need_engine(spec, **kwargs)
    puzzle = read_puzzle(path)
    outcome = api.solve(puzzle, engine, timeout=timeout)
    assert outcome.status is Status.SOLVED, outcome.message
    assert is_solution(puzzle, outcome.solutions[0])
    return outcome


@pytest.mark.parametrize("spec", ["resolvelib", "resolvelib+tuned", "pip", "pip+tuned", "uv",
                                  "uv+tuned", "pdm+tuned"])
def test_four(spec):
    solved(spec, FOUR)


@pytest.mark.parametrize("spec", ["resolvelib", "resolvelib+tuned", "pip", "pip+tuned", "uv",
                                  "uv+tuned", "poetry+tuned", "pdm+tuned"])
def test_wikipedia(spec):
    outcome = solved(spec, WIKIPEDIA)
    assert outcome.stats["encoding"] == ("tuned" if spec.endswith("+tuned") else "faithful")


def test_poetry_reports_its_own_statistics():
    outcome = solved("poetry", FOUR)
    assert outcome.stats["tried_solutions"] >= 1 and outcome.stats["decisions"] >= 16
    assert outcome.stats["releases"] == 64


def test_miracle_variant_rules():
    """Anti-knight, anti-king and non-consecutive lower to the same `!=` requirements (the
    other engines run the miracle puzzle in the benchmark: `bench/pypi.py --examples`)."""
    solved("resolvelib+tuned", MIRACLE)


def test_inkala_with_uv_lowest_first():
    outcome = solved("uv+tuned", INKALA, timeout=300)
    assert outcome.stats["encoding"] == "tuned" and outcome.stats["resolved"] == 81


def test_resolvelib_strategy_option_solves_inkala_fewest_first():
    solved("resolvelib", INKALA, timeout=300, options={"strategy": "fewest",
                                                        "encoding": "tuned"})


@pytest.mark.parametrize("spec, words", [
    ("resolvelib", "ResolutionImpossible"),
    ("pip", "The conflict is caused by"),
    ("uv", "your requirements are unsatisfiable"),
    ("poetry", "version solving failed"),
    ("pdm", "Unable to find a resolution")])
def test_unsatisfiable_in_the_tools_own_words(spec, words):
    outcome = api.solve(parse_line(UNSAT_4), need_engine(spec), timeout=120)
    assert outcome.status is Status.UNSATISFIABLE and outcome.exhausted
    assert words in outcome.message and "sudoku-r" in outcome.message


def test_timeouts_are_unknown_with_the_reason():
    outcome = api.solve(read_puzzle(INKALA), need_engine("resolvelib"), timeout=0.5)
    assert outcome.status is Status.UNKNOWN and "timed out" in outcome.message
    assert outcome.stats["rounds"] > 0
    outcome = api.solve(read_puzzle(INKALA), need_engine("pip"), timeout=1.5)
    assert outcome.status is Status.UNKNOWN and "timed out" in outcome.message


def test_resolution_too_deep_is_unknown():
    engine = need_engine("resolvelib", options={"max_rounds": "20"})
    outcome = api.solve(read_puzzle(INKALA), engine, timeout=60)
    assert outcome.status is Status.UNKNOWN and "ResolutionTooDeep" in outcome.message


def test_tools_touch_nothing_outside_their_sandbox(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    for var in ("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
        monkeypatch.setenv(var, str(home))
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/unreachable")  # ignored (--isolated)
    monkeypatch.setenv("UV_INDEX_URL", "http://127.0.0.1:9/unreachable")   # ignored (--no-config)
    for spec in ("pip", "uv"):
        solved(spec, FOUR)
    assert list(home.iterdir()) == []


def test_keep_holds_the_artifact_and_the_log(tmp_path):
    outcome = solved("uv+tuned", FOUR, keep=tmp_path / "kept")
    kept = Path(outcome.artifact_path)
    assert (kept / "requirements.in").read_text().count("sudoku-r") == 16
    assert len(list((kept / "wheels").glob("*.whl"))) == outcome.stats["releases"]
    assert "uv pip compile" in Path(outcome.log_path).read_text()


def test_cli_solve_and_bad_options(run_cli):
    need_engine("uv")
    r = run_cli("solve", FOUR, "--engine", "uv+tuned")
    assert r.code == 0 and r.out.strip() == "1324423134122143"
    r = run_cli("solve", FOUR, "--engine", "resolvelib", "-o", "strategy=random")
    assert r.code == 2 and "strategy" in r.err and "fewest" in r.err
    r = run_cli("solve", FOUR, "--engine", "uv", "-o", "colour=blue")
    assert r.code == 2 and "no option 'colour'" in r.err
    r = run_cli("solve", UNSAT_4, "--engine", "uv")
    assert r.code == 1 and "unsatisfiable" in r.err


def test_export_pypi_readme_commands_run(run_cli, tmp_path):
    """The README's uv command, run by hand on the exported folder, solves the puzzle."""
    out = tmp_path / "export"
    r = run_cli("export", FOUR, "--to", "pypi", "--out", out, "-o", "encoding=tuned")
    assert r.code == 0
    readme = (out / "README.md").read_text()
    assert "--find-links wheels -r requirements.txt" in readme and "pdm lock" in readme
    assert (out / "simple" / "sudoku-r1c1" / "index.html").exists()
    need_engine("uv")
    from polydoku.engines.sandbox import Sandbox, find_program
    with Sandbox("uv-export") as box:
        run = box.run([find_program("uv"), "pip", "compile", "requirements.txt", "--no-index",
                       "--find-links", "wheels", "--no-config", "--no-cache", "--quiet"],
                      timeout=60, cwd=out)
    assert run.returncode == 0, run.stderr
    assert "sudoku-r1c1==1.0.0" in run.stdout and "sudoku-r4c4==3.0.0" in run.stdout


def test_export_poetry(run_cli, tmp_path):
    r = run_cli("export", WIKIPEDIA, "--to", "poetry", "--out", tmp_path, "-o", "port=8123")
    assert r.code == 0
    assert 'url = "http://127.0.0.1:8123/simple/"' in (tmp_path / "pyproject.toml").read_text()
    assert "poetry lock" in (tmp_path / "README.md").read_text()
    assert len(list((tmp_path / "simple").glob("*/*.whl.metadata"))) == 729
    r = run_cli("export", FOUR, "--to", "poetry", "--out", tmp_path, "-o", "port=http")
    assert r.code == 2 and "port" in r.err


def test_index_server_is_silent_when_a_client_drops(tmp_path, capfd):
    """A client that resets its connection mid-request prints nothing (no traceback) on stderr."""
    import socket
    import struct
    from polydoku.engines.pypi.run import serve
    (tmp_path / "index.html").write_text("<html></html>")
    with serve(tmp_path) as url:
        host, port = url.removeprefix("http://").split(":")
        for _ in range(5):
            sock = socket.create_connection((host, int(port)))
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.sendall(b"GET /index.html HTTP/1.1\r\nHost: x\r\n")
            sock.close()   # an RST in the middle of the request
        import urllib.request
        assert urllib.request.urlopen(url + "/index.html", timeout=10).read() == b"<html></html>"
    assert "Traceback" not in capfd.readouterr().err
