"""The JavaScript package managers (npm, pnpm, Yarn 1, Yarn 4, Bun) run for real against the
registry polydoku serves on 127.0.0.1. None of them backtracks: they solve a puzzle whose tuned
encoding leaves one version per cell, and otherwise give up in their own words (or time out),
and a lockfile that breaks the rules is never reported as a solution."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from polydoku import api
from polydoku.engines import Status, make_engine
from polydoku.engines.javascript import (
    NpmEngine, PnpmEngine, YarnBerryEngine, YarnEngine, excluding, registry_files,
    serve_registry)
from polydoku.engines.pypi.encode import build_index
from polydoku.formats import parse_line, read_puzzle
from polydoku.problem import build_problem
from polydoku.verify import is_solution

from conftest import EXAMPLES, need_engine

FOUR = str(EXAMPLES / "four.txt")
JS = ["npm", "pnpm", "yarn", "yarn-berry", "bun"]
# Wikipedia's solution with one cell of each box blank, no two in a row or column: the givens
# leave each blank one value, so the tuned encoding publishes one version of every cell
NEAR = ".34678912672.95348198342.678.97614234268.37917139248.696.53728428741.63534528617."
NEAR_4 = ".324423134122143"
# each tool's own words when the highest versions break a peer requirement (four.txt, tuned)
WORDS = {"npm": "ERESOLVE", "pnpm": "unmet peer", "yarn": "incorrect peer dependency",
         "yarn-berry": "YN0060", "bun": "breaks the puzzle"}
HOST_STATE = ["~/.npm", "~/.npmrc", "~/.yarnrc", "~/.yarnrc.yml", "~/.yarn", "~/.cache/yarn",
              "~/.bun", "~/.local/share/pnpm", "~/.cache/pnpm", "~/.config/yarn"]


@pytest.mark.parametrize("engine_id", ["npm", "pnpm", "yarn", "yarn-berry"])
def test_one_version_per_cell_solves(engine_id):
    engine = need_engine(engine_id + "+tuned")
    puzzle = parse_line(NEAR)
    outcome = api.solve(puzzle, engine, timeout=120)
    assert outcome.status is Status.SOLVED, outcome.message
    assert is_solution(puzzle, outcome.solutions[0])


def test_bun_solves_a_small_one_version_per_cell_puzzle():
    """Bun hangs on the 9x9 (it times out, honestly); it solves the 4x4."""
    puzzle = parse_line(NEAR_4)
    outcome = api.solve(puzzle, need_engine("bun+tuned"), timeout=60)
    assert outcome.status is Status.SOLVED, outcome.message
    assert is_solution(puzzle, outcome.solutions[0])


@pytest.mark.parametrize("engine_id", JS)
def test_no_backtracking_means_giving_up_in_the_tools_words(engine_id):
    engine = need_engine(engine_id + "+tuned")
    outcome = api.solve(read_puzzle(FOUR), engine, timeout=60)
    assert outcome.status is Status.UNKNOWN, outcome.message
    assert WORDS[engine_id] in outcome.message
    assert "no proof that the puzzle has no solution" in outcome.message or \
        "did not solve it" in outcome.message


@pytest.mark.parametrize("engine_id", ["yarn", "bun"])
def test_a_lockfile_that_only_warns_is_no_solution(engine_id, run_cli):
    """Yarn 1 and Bun exit 0 with a lockfile whose versions break the rules: exit 4, and the
    broken grid is never printed."""
    need_engine(engine_id)
    r = run_cli("solve", FOUR, "--engine", engine_id, "--timeout", "60")
    assert r.code == 4 and r.out.strip() == "unknown"
    assert "wrote a lockfile that breaks the puzzle" in r.err and "both hold" in r.err


def test_a_loop_is_stopped_by_the_timeout():
    engine = need_engine("npm")
    outcome = api.solve(read_puzzle(FOUR), engine, timeout=3)
    assert outcome.status is Status.UNKNOWN
    assert "timed out" in outcome.message or "ERESOLVE" in outcome.message


def test_peer_ranges_leave_out_exactly_the_excluded_versions():
    assert excluding(["5.0.0"]) == "<5.0.0 || >5.0.0"
    assert excluding(["5.0.0", "3.0.0"]) == "<3.0.0 || >3.0.0 <5.0.0 || >5.0.0"
    assert excluding(["10.0.0", "9.0.0"]) == "<9.0.0 || >9.0.0 <10.0.0 || >10.0.0"


def test_the_registry_serves_packuments_and_tarballs_and_nothing_outside(tmp_path):
    index = build_index(build_problem(read_puzzle(FOUR)), "tuned")
    with serve_registry(tmp_path) as url:
        for relpath, data in registry_files(index, url).items():
            (tmp_path / relpath).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / relpath).write_bytes(data)
        with urllib.request.urlopen(f"{url}/sudoku-r1c1") as resp:
            doc = json.loads(resp.read())
            assert resp.headers["Content-Type"] == "application/json"
        assert doc["name"] == "sudoku-r1c1" and doc["versions"]
        some = next(iter(doc["versions"].values()))
        with urllib.request.urlopen(some["dist"]["tarball"]) as resp:
            assert resp.read()[:2] == b"\x1f\x8b"
        (tmp_path.parent / "secret").write_text("no")
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(f"{url}/../secret")
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(f"{url}/%2e%2e/secret")


@pytest.mark.parametrize("engine, lock", [
    (NpmEngine, json.dumps({"packages": {"": {}, "node_modules/sudoku-r1c1": {"version": "1.0.0"},
                                         "node_modules/sudoku-r1c2/node_modules/sudoku-r1c1":
                                             {"version": "2.0.0"}}})),
    (PnpmEngine, "packages:\n\n  sudoku-r1c1@1.0.0:\n    x: 1\n\n  sudoku-r1c1@2.0.0:\n    x: 1\n"),
    (YarnEngine, 'sudoku-r1c1@*:\n  version "1.0.0"\n\nsudoku-r1c1@<2.0.0:\n  version "2.0.0"\n'),
    (YarnBerryEngine, '"sudoku-r1c1@npm:*":\n  version: 1.0.0\n\n"sudoku-r1c1@npm:2.0.0":\n'
                      '  version: 2.0.0\n'),
])
def test_two_versions_of_a_cell_in_a_lockfile_are_refused(engine, lock):
    with pytest.raises(ValueError, match="two versions of sudoku-r1c1"):
        engine().pins(lock, None)


def test_runs_leave_the_users_javascript_set_up_alone():
    for engine_id in JS:
        need_engine(engine_id)
    paths = [Path(os.path.expanduser(p)) for p in HOST_STATE]
    before = {p: p.exists() and p.stat().st_mtime_ns for p in paths}
    for engine_id in JS:
        api.solve(parse_line(NEAR_4), make_engine(engine_id + "+tuned"), timeout=60)
    assert {p: p.exists() and p.stat().st_mtime_ns for p in paths} == before


def test_the_export_solves_by_hand_with_the_readme_commands(tmp_path):
    import re
    import socket
    import subprocess
    import sys

    from polydoku.engines.exports import export
    need_engine("npm")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    puzzle = parse_line(NEAR)
    out = tmp_path / "out"
    export(puzzle, "npm", out, {"encoding": "tuned", "port": str(port)})
    block = re.search(r"```sh\n(.*?)```", (out / "README.md").read_text(), re.S)[1]
    home = tmp_path / "home"
    home.mkdir()
    tools = Path(sys.prefix) / "tools" / "js" / "node_modules" / ".bin"
    env = {"PATH": f"{tools}:{os.environ['PATH']}", "HOME": str(home), "LC_ALL": "C.UTF-8"}
    done = subprocess.run(["bash", "-c", block], cwd=out, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    npm_lock = json.loads((out / "project" / "package-lock.json").read_text())["packages"]
    pnpm_lock = (out / "project" / "pnpm-lock.yaml").read_text().split("\npackages:", 1)[1]
    for lock, pins in [
            ("npm", {k.split("/")[-1]: m["version"][0] for k, m in npm_lock.items() if k}),
            ("pnpm", dict(re.findall(r"^  (sudoku-r\dc\d)@(\d)\.0\.0:", pnpm_lock, re.M)))]:
        assert len(pins) == 81, lock
        assert is_solution(puzzle, tuple(int(pins[f"sudoku-r{r}c{c}"]) for r in range(1, 10)
                                         for c in range(1, 10))), lock
