"""The truth rules (docs/truth.md): a command states a fact about a puzzle (unique, several,
none) only when an engine proved it; an engine that cannot count says "not counted"; `solve`
looks for a second solution of one puzzle, and of each puzzle of a file when asked."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import EXAMPLES, IN_CI, ROOT, need_engine

WIKI = str(EXAMPLES / "wikipedia.txt")
WIKI_LINE = next(ln for ln in (EXAMPLES / "wikipedia.txt").read_text().splitlines()
                 if ln and not ln.startswith("#"))
# Wikipedia's puzzle less three givens (r1c5, r3c3, r5c1): 72 solutions
SEVENTY_TWO = "".join("." if i in (4, 20, 36) else ch for i, ch in enumerate(WIKI_LINE))
SCRIPT = os.path.join(os.path.dirname(sys.executable), "polydoku")


def test_the_seventy_two_solution_puzzle_has_72(run_cli):
    r = run_cli("solve", SEVENTY_TWO, "--count")
    assert r.code == 0 and r.out == "72\n"


@pytest.mark.engine("resolvelib")
def test_explain_with_an_engine_that_cannot_count_says_not_counted(run_cli):
    need_engine("resolvelib")
    r = run_cli("explain", WIKI, "--engine", "resolvelib")
    assert r.code == 0 and "several" not in r.out
    assert "not counted: resolvelib does not count solutions" in r.out and "native" in r.out
    data = json.loads(run_cli("explain", WIKI, "--engine", "resolvelib", "--json").out)
    assert data["status"] == "solved" and data["unique"] is None
    assert data["message"].startswith("not counted")
    # the shared layer the page's API reads says the same
    from polydoku.formats import parse_line
    from polydoku.reasoning.explain import explain
    e = explain(parse_line(WIKI_LINE), engine="resolvelib")
    assert e.is_unique is None and e.message.startswith("not counted")


def test_explain_states_unique_and_several_only_when_counted(run_cli):
    data = json.loads(run_cli("explain", WIKI, "--json").out)
    assert data["unique"] is True and data["message"] == ""
    data = json.loads(run_cli("explain", SEVENTY_TWO, "--json").out)
    assert data["unique"] is False and len(data["solutions"]) == 2
    assert "several solutions" in run_cli("explain", SEVENTY_TWO).out


def test_solve_one_puzzle_says_not_unique_and_keeps_stdout_the_grid(run_cli):
    r = run_cli("solve", SEVENTY_TWO)
    assert r.code == 0 and len(r.out.strip()) == 81 and "." not in r.out
    assert r.err == ("polydoku: not unique: native found a second solution (polydoku solve "
                     "--count --format grid shows two and where they differ)\n")
    data = json.loads(run_cli("solve", SEVENTY_TWO, "--json").out)
    assert data["unique"] is False
    r = run_cli("solve", WIKI)
    assert r.code == 0 and r.err == ""
    assert json.loads(run_cli("solve", WIKI, "--json").out)["unique"] is True


def test_no_check_unique_skips_the_check(run_cli):
    r = run_cli("solve", SEVENTY_TWO, "--no-check-unique")
    assert r.code == 0 and r.err == "" and len(r.out.strip()) == 81
    assert json.loads(run_cli("solve", SEVENTY_TWO, "--no-check-unique", "--json").out)[
        "unique"] is None


@pytest.mark.engine("resolvelib")
def test_an_engine_that_cannot_count_has_native_look_for_the_second(run_cli):
    need_engine("resolvelib")
    r = run_cli("solve", SEVENTY_TWO, "--engine", "resolvelib")
    assert r.code == 0 and "not unique: native found a second solution" in r.err


def test_uniqueness_not_checked_when_the_budget_runs_out(run_cli, monkeypatch):
    from polydoku import api
    monkeypatch.setattr(api, "UNIQUE_BUDGET", 1e-9)
    empty = "." * 256            # an empty 16x16: the first grid comes at once, a second not
    r = run_cli("solve", empty)
    assert r.code == 0 and len(r.out.strip()) == 256
    assert r.err.startswith("polydoku: uniqueness not checked: no second solution ruled out")


def test_a_file_of_many_is_checked_only_when_asked(run_cli, tmp_path):
    f = tmp_path / "three.txt"
    f.write_text(f"{SEVENTY_TWO}\n{WIKI_LINE}\n{SEVENTY_TWO}\n")
    r = run_cli("solve", str(f), "--jobs", "1")
    assert r.code == 0 and "not unique" not in r.err
    assert r.err.splitlines()[-1].endswith(
        ": 3 solved; uniqueness not checked (--check-unique checks it)")
    r = run_cli("solve", str(f), "--jobs", "1", "--check-unique")
    lines = r.err.splitlines()
    assert r.code == 0 and len(r.out.splitlines()) == 3
    assert lines[0].startswith("polydoku: three.txt:1: not unique")
    assert lines[1].startswith("polydoku: three.txt:3: not unique")
    assert lines[2].endswith(": 1 solved, 2 solved but not unique; uniqueness checked")


def run_script(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([SCRIPT, *args], capture_output=True, text=True, timeout=60, env=env)


def test_the_express_lane_checks_a_file_of_one_puzzle(tmp_path):
    one = tmp_path / "one.txt"
    one.write_text(f"# one puzzle\n{SEVENTY_TWO}\n")
    fast = run_script("solve", str(one))
    assert fast.returncode == 0 and len(fast.stdout.strip()) == 81
    assert fast.stderr.startswith("polydoku: not unique: native found a second solution")
    full = subprocess.run([SCRIPT, "solve", str(one)], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src"),
                               "POLYDOKU_EXPRESS": "off"})
    assert (full.returncode, full.stdout, full.stderr) == (0, fast.stdout, fast.stderr)
    skipped = run_script("solve", str(one), "--no-check-unique")
    assert skipped.returncode == 0 and skipped.stderr == "" and skipped.stdout == fast.stdout
    one.write_text(WIKI_LINE + "\n")
    unique = run_script("solve", str(one))
    assert unique.returncode == 0 and unique.stderr == ""


@pytest.mark.engine("resolvelib")
def test_the_api_says_none_when_the_engine_cannot_count():
    need_engine("resolvelib")
    from polydoku import api
    from polydoku.formats import parse_line
    assert api.is_unique(parse_line(WIKI_LINE), "resolvelib") is None
    assert api.is_unique(parse_line(WIKI_LINE)) is True
    assert api.is_unique(parse_line(SEVENTY_TWO)) is False


@pytest.mark.engine("resolvelib")
def test_the_page_api_says_not_counted_too():
    need_engine("resolvelib")
    if not IN_CI:       # in CI the web extra must be there: a missing one fails the import
        pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
    from starlette.testclient import TestClient
    from polydoku.web.app import Settings, create_app
    with TestClient(create_app(Settings(workers=1, queue_wait=0.2)),
                    base_url="http://127.0.0.1") as client:
        data = client.post("/api/explain", json={"puzzle": WIKI_LINE,
                                                 "engine": "resolvelib"}).json()
        solved = client.post("/api/solve", json={"puzzle": SEVENTY_TWO}).json()
    assert data["status"] == "solved" and data["unique"] is None
    assert data["message"].startswith("not counted: resolvelib")
    assert solved["status"] == "solved" and solved["unique"] is False


def test_the_express_lane_and_the_api_share_the_budget():
    from polydoku import api
    from polydoku.cli import express
    assert express.UNIQUE_BUDGET == api.UNIQUE_BUDGET


def test_generate_help_promises_two_engines_only_where_two_run(run_cli):
    r = run_cli("generate", "--help")
    text = " ".join(r.out.split())
    assert r.code == 0 and "proved by two engines" not in text
    assert "where python-sat is installed, else by a second native search" in text


def test_generate_killer_takes_few_givens(run_cli):
    r = run_cli("generate", "--seed", "1", "--clues", "killer", "--givens", "5", "-f", "json")
    data = json.loads(r.out)
    assert r.code == 0, r.err
    assert sum(ch != "." for ch in data["givens"]) <= 5 and data["rules"]
    r = run_cli("generate", "--seed", "1", "--givens", "5")
    assert r.code == 2 and "a 9x9 classic puzzle with one solution needs at least 17" in r.err
    r = run_cli("generate", "--seed", "1", "--jigsaw", "--givens", "5")
    assert r.code == 2 and "a 9x9 jigsaw puzzle with one solution needs at least 8" in r.err


def test_engines_marks_a_tool_that_needs_root(run_cli, monkeypatch):
    from polydoku.engines import make_engine
    rows = {r["id"]: r for r in map(json.loads, run_cli("engines", "--json").out.splitlines())}
    assert rows["dnf"]["needs_root"] is True and rows["native"]["needs_root"] is False
    # as a user other than root: dnf is not available, and says why (the install test runs
    # the real thing as such a user)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    avail = make_engine("dnf").available()
    assert not avail.ok and "only as root" in avail.reason
    r = run_cli("engines")
    assert "needs root" in r.out
    r = run_cli("solve", WIKI, "--engine", "dnf")
    assert r.code == 3 and "only as root" in r.err


def test_serve_without_uvicorn_names_the_package_not_an_engine(run_cli, monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)     # as where the web extra is missing
    r = run_cli("serve", "--port", "0")
    assert r.code == 3 and "engine 'serve'" not in r.err
    assert r.err == ("polydoku: serve needs uvicorn, which is not installed (install: pip "
                     "install 'polydoku[web]', or 'polydoku[all]' for the engines too)\n")


def full_path(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "POLYDOKU_EXPRESS": "off"}
    return subprocess.run([SCRIPT, *args], capture_output=True, text=True, timeout=60, env=env)


@pytest.mark.parametrize("line", [
    WIKI_LINE, SEVENTY_TWO, "1" + "." * 15, "11" + "." * 14, WIKI_LINE.replace(".", "0"),
    "a" + "." * 255, WIKI_LINE + "1",
])
@pytest.mark.parametrize("flag", [(), ("--no-check-unique",)])
def test_a_literal_classic_line_answers_as_the_full_command(line, flag):
    fast, full = run_script("solve", line, *flag), full_path("solve", line, *flag)
    assert (fast.returncode, fast.stdout, fast.stderr) == \
        (full.returncode, full.stdout, full.stderr)


def test_a_literal_line_takes_the_express_lane_without_click():
    code = ("import sys, io\n"
            "from polydoku.cli import express\n"
            "out, sys.stdout = sys.stdout, io.TextIOWrapper(io.BytesIO())\n"
            f"code = express.run(['solve', {SEVENTY_TWO!r}])\n"
            "sys.stdout = out\n"
            "print(code, ' '.join(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    exit_code, modules = done.stdout.split(" ", 1)
    assert exit_code == "0" and "polydoku: not unique" in done.stderr
    assert not {"click", "polydoku.api", "polydoku.model", "rich"} & set(modules.split())


@pytest.mark.engine("resolvelib")
def test_count_with_an_engine_that_cannot_count_says_not_counted_not_timed_out(run_cli):
    need_engine("resolvelib")
    r = run_cli("solve", WIKI, "--count", "--engine", "resolvelib")
    assert r.code == 4 and r.out == "1+\n" and "timed out" not in r.err
    assert r.err == ("polydoku: not counted: resolvelib does not count solutions (native, sat, "
                     "cpsat, z3 and clingo do: try --engine native)\n")
