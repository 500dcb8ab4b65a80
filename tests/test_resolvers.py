"""The package managers that read a generated repository and write a lock (Composer, Cargo, dnf,
opam, 0install, mccs) run for real: easy puzzles here, Inkala's where the tool is quick, the hard
ones in the benchmark. Every answer is verified by `api.solve`; an unsolvable puzzle gets the
tool's own proof; the exported folder solves by hand with the README's commands; nothing is
written outside the sandbox."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import tomllib
from pathlib import Path

import pytest

from polydoku import api
from polydoku.engines import Status, make_engine
from polydoku.engines.exports import export
from polydoku.formats import parse_line, read_puzzle
from polydoku.formats.jsonfmt import parse_json
from polydoku.rules import parse_rules
from polydoku.verify import is_solution

from conftest import EXAMPLES, need_engine

FOUR = str(EXAMPLES / "four.txt")
WIKIPEDIA = str(EXAMPLES / "wikipedia.txt")
INKALA = str(EXAMPLES / "inkala.txt")
UNSAT_4 = "......34...23..."      # no two givens clash, yet no solution (r4c4 has no value left)
ENGINES = ["composer", "cargo", "dnf", "opam", "0install"]
# the tool's own words when it proves that no grid exists
PROOF = {"composer": "could not be resolved to an installable set of packages",
         "cargo": "failed to select a version",
         "dnf": "Problem:", "opam": "Package conflict",
         "0install": "Can't find all required implementations",
         "bundler": "could not find compatible versions",
         "cabal": "Could not resolve dependencies"}
# where each tool keeps its state when nobody tells it otherwise: never written by a run
HOST_STATE = ["/var/lib/dnf", "/var/cache/dnf", "/var/log/dnf.log", "/var/log/dnf.librepo.log",
              "/var/lib/rpm", "/etc/dnf", "~/.cargo/registry", "~/.cargo/.package-cache",
              "~/.composer", "~/.config/composer", "~/.cache/composer", "~/.opam",
              "~/.cache/0install.net", "~/.config/0install.net", "~/.bundle", "~/.gem",
              "~/.local/share/gem", "~/.cabal", "~/.config/cabal", "~/.cache/cabal",
              "~/.ghc", "/var/lib/dpkg/status"]


def solved(spec: str, path: str, timeout: float = 120):
    engine = need_engine(spec)
    puzzle = read_puzzle(path)
    outcome = api.solve(puzzle, engine, timeout=timeout)
    assert outcome.status is Status.SOLVED, outcome.message
    assert is_solution(puzzle, outcome.solutions[0])
    return outcome


@pytest.mark.parametrize("spec", ENGINES + [e + "+tuned" for e in ENGINES])
def test_four_and_wikipedia(spec):
    solved(spec, FOUR)
    out = solved(spec, WIKIPEDIA)
    assert out.stats["encoding"] == ("tuned" if spec.endswith("+tuned") else "faithful")
    assert out.stats["releases"] > 81


def test_bundler_solves_wikipedia_tuned_and_four_both_ways():
    """Molinillo backtracks chronologically: the faithful Wikipedia runs past two minutes (the
    benchmark shows it); the tuned one takes about a second."""
    solved("bundler", FOUR)
    solved("bundler+tuned", FOUR)
    solved("bundler+tuned", WIKIPEDIA)


def test_cabal_gives_up_at_its_backjump_limit_and_tuned_searches_on():
    out = api.solve(read_puzzle(WIKIPEDIA), need_engine("cabal"), timeout=120)
    assert out.status is Status.UNKNOWN and "Backjump limit reached" in out.message
    solved("cabal", FOUR)
    solved("cabal+tuned", WIKIPEDIA)


@pytest.mark.parametrize("spec", ["composer", "composer+tuned", "dnf", "dnf+tuned",
                                  "cargo+tuned", "opam+tuned", "0install", "0install+tuned"])
def test_inkala(spec):
    solved(spec, INKALA, timeout=300)


def test_tuned_publishes_fewer_versions():
    need_engine("composer")
    puzzle = read_puzzle(WIKIPEDIA)
    faithful = api.solve(puzzle, "composer").stats["releases"]
    tuned = api.solve(puzzle, "composer+tuned").stats["releases"]
    assert tuned < faithful


@pytest.mark.parametrize("engine_id", ENGINES + ["bundler", "cabal+tuned"])
def test_no_solution_is_the_tools_own_proof(engine_id):
    engine = need_engine(engine_id)
    engine_id = engine_id.split("+")[0]
    outcome = api.solve(parse_line(UNSAT_4), engine, timeout=120)
    assert outcome.status is Status.UNSATISFIABLE and outcome.exhausted
    assert PROOF[engine_id] in outcome.message
    assert "/tmp/polydoku-" not in outcome.message       # the sandbox's path is not shown


@pytest.mark.parametrize("engine_id", ENGINES)
def test_variant_rules_reach_the_tool(engine_id):
    """Anti-knight and a diagonal on a 4x4 with one answer: the tools honour both."""
    need_engine(engine_id)
    puzzle = parse_line("1...............")
    puzzle = puzzle.with_rules(parse_rules("diagonal,non-consecutive"))
    truth = api.count(puzzle, "native", limit=10)
    outcome = api.solve(puzzle, make_engine(engine_id), timeout=120)
    if truth.count == 0:
        assert outcome.status is Status.UNSATISFIABLE
    else:
        assert outcome.status is Status.SOLVED
        assert outcome.solutions[0] in set(truth.solutions)


@pytest.mark.parametrize("engine_id", ENGINES + ["bundler", "cabal+tuned"])
def test_a_killer_cage_becomes_a_table_package(engine_id):
    need_engine(engine_id)
    puzzle = parse_json(json.dumps({"size": 4, "givens": "1...........4...",
                                    "rules": [{"kind": "killer", "cells": ["r1c2", "r1c3"],
                                               "sum": 7}]}))
    truth = api.count(puzzle, "native", limit=10)
    assert truth.count >= 1
    outcome = api.solve(puzzle, make_engine(engine_id), timeout=120)
    assert outcome.status is Status.SOLVED, outcome.message
    assert outcome.solutions[0] in set(truth.solutions)


def test_the_cli_names_the_engine_and_exits_one_on_no_solution(run_cli):
    need_engine("dnf")
    r = run_cli("solve", UNSAT_4, "--engine", "dnf")
    assert r.code == 1 and r.out.strip() == "no solution"
    assert "conflicting requests" in r.err or "Problem" in r.err


def test_a_timeout_is_unknown_and_leaves_no_process():
    engine = need_engine("cargo")
    outcome = api.solve(read_puzzle(INKALA), engine, timeout=1)
    assert outcome.status is Status.UNKNOWN and "timed out" in outcome.message
    leftover = subprocess.run(["pgrep", "-f", "generate-lockfile"], capture_output=True, text=True)
    assert leftover.stdout.strip() == ""


def test_bad_options_are_bad_input(run_cli):
    r = run_cli("solve", FOUR, "--engine", "composer", "-o", "encoding=clever")
    assert r.code == 2 and "encoding='clever'" in r.err
    r = run_cli("solve", FOUR, "--engine", "dnf", "-o", "memory_mb=lots")
    assert r.code == 2 and "memory_mb" in r.err


def _readme_commands(folder: Path) -> str:
    text = (folder / "README.md").read_text()
    block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert block, "the README has a shell block"
    return block[1]


@pytest.mark.parametrize("fmt, answer", [("composer", "composer.lock"), ("cargo", "Cargo.lock"),
                                         ("dnf", ""), ("opam", ""), ("0install", ""),
                                         ("bundler", "project/Gemfile.lock"), ("cabal", "")])
def test_export_runs_by_hand_with_the_readme_commands(fmt, answer, tmp_path):
    """The folder `export --to X` writes is solved by the README's commands, run by a shell."""
    need_engine(fmt)
    puzzle = read_puzzle(FOUR)
    out = tmp_path / "out"
    options = {"encoding": "tuned"}
    if fmt == "bundler":
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            options["port"] = str(s.getsockname()[1])
    export(puzzle, fmt, out, options)
    home = tmp_path / "home"
    home.mkdir()
    # Debian's tools first: a rustup proxy on PATH needs the real home, which is not this one
    env = {"PATH": "/usr/bin:/bin:" + os.environ["PATH"], "HOME": str(home), "LC_ALL": "C.UTF-8"}
    done = subprocess.run(["bash", "-e", "-c", _readme_commands(out)], cwd=out, env=env,
                          capture_output=True, text=True, timeout=120)
    text = done.stdout + done.stderr
    assert done.returncode == (1 if fmt == "dnf" else 0), text     # dnf: "Operation aborted."
    if fmt == "composer":
        pins = {p["name"]: p["version"].split(".")[0]
                for p in json.loads((out / answer).read_text())["packages"]}
    elif fmt == "cargo":
        pins = {p["name"]: p["version"].split(".")[1]
                for p in tomllib.loads((out / answer).read_text())["package"]}
    elif fmt == "dnf":
        pins = dict(re.findall(r"^ (sudoku-r\dc\d) +noarch +(\d+)\.", text, re.M))
    elif fmt == "bundler":
        pins = dict(re.findall(r"^    (sudoku-r\dc\d) \((\d+)\.", (out / answer).read_text(),
                               re.M))
    elif fmt == "cabal":
        pins = dict(re.findall(r"^ - (sudoku-r\dc\d)-(\d+)\.", text, re.M))
    elif fmt == "opam":
        pins = dict(re.findall(r"install (sudoku-r\dc\d) +(\d+)\.", text))
    else:
        pins = dict(re.findall(r'interface="[^"]*/(sudoku-r\dc\d)\.xml"[^>]*version="(\d+)\.',
                               done.stdout))
    digits = [int(pins[f"sudoku{'/' if fmt == 'composer' else '-'}r{r}c{c}"])
              for r in range(1, 5) for c in range(1, 5)]
    assert is_solution(puzzle, tuple(digits))


def _state(paths: list[str]) -> dict[str, tuple]:
    out = {}
    for raw in paths:
        path = Path(os.path.expanduser(raw))
        if not path.exists():
            out[raw] = ()
            continue
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*"))
        out[raw] = tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size if p.is_file() else 0)
                         for p in files)
    return out


def test_runs_leave_the_hosts_package_state_alone():
    for engine_id in ENGINES + ["bundler", "cabal"]:
        need_engine(engine_id)
    before = _state(HOST_STATE)
    for engine_id in ENGINES + ["bundler", "cabal+tuned"]:
        assert api.solve(read_puzzle(FOUR), make_engine(engine_id)).status is Status.SOLVED
        assert api.solve(parse_line(UNSAT_4), make_engine(engine_id)).status \
            is Status.UNSATISFIABLE
    assert _state(HOST_STATE) == before
