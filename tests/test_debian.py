"""The Debian engines, run for real: apt, aptitude, aspcud (EDSP), libsolv-deb and dose solve
generated Packages files in a private apt tree; every answer is verified by `api.solve`; apt's
give-up is "unknown" (exit 4) with apt's own words; "no solution" only when the tool proved it;
and the host's dpkg status is byte-identical before and after."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

import pytest

from polydoku import api
from polydoku.engines import Status
from polydoku.engines.debian import decode, layout, run
from polydoku.engines.debian.encode import encode
from polydoku.engines.sandbox import Sandbox
from polydoku.formats import read_puzzle
from polydoku.problem import build_problem

from conftest import EXAMPLES, data_path, need_engine

WIKI = str(EXAMPLES / "wikipedia.txt")
FOUR = str(EXAMPLES / "four.txt")
MIRACLE = str(EXAMPLES / "miracle.json")
FOUR_UNSAT = "..214.....1....."          # passes the givens check; no solution
NINE_UNSAT = ("1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4.")
HOST_STATE = [Path("/var/lib/dpkg/status"), Path("/var/lib/apt/extended_states"),
              Path("/var/lib/aptitude/pkgstates")]


def _digest(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None


@pytest.fixture(scope="session")
def host_state():
    """The host's package state before the first engine test of the session."""
    return {str(p): _digest(p) for p in HOST_STATE}


@pytest.fixture(autouse=True)
def _snapshot_first(host_state):
    """Take the snapshot before any engine test runs."""


def sixteen() -> str:
    """Return the 16x16 puzzle joon-16x16 of the shared variants (a JSON line)."""
    lines = data_path("variants/variants.jsonl").read_text().splitlines()
    return next(ln for ln in lines if '"joon-16x16"' in ln)


def solve_cli(run_cli, puzzle: str, spec: str, *extra: str):
    """Run `polydoku solve PUZZLE --engine SPEC --format json` and return (code, record, stderr)."""
    need_engine(spec.split("+")[0])
    r = run_cli("solve", puzzle, "--engine", spec, "--format", "json", "--timeout", "120", *extra)
    return r.code, json.loads(r.out.strip().splitlines()[-1]), r.err


SOLVES = [  # (puzzle, engine spec): where the tool can, each quickly
    (FOUR, "aptitude"), (FOUR, "aspcud"), (FOUR, "libsolv-deb"), (FOUR, "dose"),
    (FOUR, "apt+tuned"),
    (WIKI, "aptitude"), (WIKI, "aspcud"), (WIKI, "libsolv-deb"), (WIKI, "dose"),
    (WIKI, "apt+tuned"),
    (MIRACLE, "aspcud+tuned"), (MIRACLE, "libsolv-deb+tuned"), (MIRACLE, "dose+tuned"),
    ("16x16", "libsolv-deb"), ("16x16", "dose+tuned"), ("16x16", "aspcud+tuned"),
    (FOUR, "mccs"), (WIKI, "mccs"), (str(EXAMPLES / "inkala.txt"), "mccs"),
    (MIRACLE, "mccs+tuned"),
]


@pytest.mark.parametrize("puzzle,spec", SOLVES)
def test_solves_and_the_answer_verifies(run_cli, puzzle, spec):
    text = sixteen() if puzzle == "16x16" else puzzle
    code, record, err = solve_cli(run_cli, text, spec)
    assert code == 0, err
    assert record["status"] == "solved" and record["count"] == 1
    p = read_puzzle(text)
    assert api.solve(p).solutions[0] == tuple(
        p.alphabet.index(ch) + 1 for ch in record["solutions"][0])   # the unique solution


@pytest.mark.parametrize("puzzle", [FOUR, WIKI, MIRACLE, "16x16"])
def test_apt_gives_up_with_its_own_words(run_cli, puzzle):
    need_engine("apt")
    text = sixteen() if puzzle == "16x16" else puzzle
    r = run_cli("solve", text, "--engine", "apt")
    assert r.code == 4 and r.out.strip().endswith("unknown")
    assert "gave up without an answer" in r.err
    assert "E: Unable to correct problems, you have held broken packages." in r.err
    assert "no proof that the puzzle has no solution" in r.err
    assert "no solution\n" not in r.out


UNSAT_WORDS = {"libsolv-deb": "libsolv: Problem 1/1: - package ",
               "dose": "dose-distcheck: puzzle is broken: conflict",
               "aspcud": "aspcud (through apt-get's EDSP): (UNSAT) No Solutions",
               "mccs": "mccs (through apt-get's EDSP): (UNSAT) No Solutions"}


@pytest.mark.parametrize("puzzle,spec", [(FOUR_UNSAT, "libsolv-deb"), (FOUR_UNSAT, "dose"),
                                         (FOUR_UNSAT, "aspcud"), (NINE_UNSAT, "libsolv-deb+tuned"),
                                         (NINE_UNSAT, "aspcud+tuned"), (FOUR_UNSAT, "mccs")])
def test_no_solution_only_with_the_tools_proof(run_cli, puzzle, spec):
    # (mccs on NINE_UNSAT exits 255 without its UNSAT words: that is "unknown", never a proof)
    words = UNSAT_WORDS[spec.split("+")[0]]
    code, record, err = solve_cli(run_cli, puzzle, spec)
    assert code == 1 and record["status"] == "unsatisfiable"
    assert words in record["message"]
    r = run_cli("solve", puzzle, "--engine", spec)
    assert r.code == 1 and r.out.strip() == "no solution" and words in r.err


@pytest.mark.parametrize("spec", ["apt", "aptitude"])
def test_a_give_up_is_not_a_proof(run_cli, spec):
    code, record, err = solve_cli(run_cli, FOUR_UNSAT, spec)
    assert code == 4 and record["status"] == "unknown"
    assert "this is no proof that the puzzle has no solution" in record["message"]
    if spec == "aptitude":
        assert "Unable to resolve dependencies!  Giving up..." in record["message"]


def test_aptitude_without_its_hint_leaves_puzzle_out(tmp_path):
    """Why the engine passes `reject puzzle :UNINST`: without it aptitude's "solution" is to keep
    puzzle uninstalled."""
    need_engine("aptitude")
    problem = build_problem(read_puzzle(WIKI))
    with Sandbox("aptitude-test") as box:
        root = run.prepare(box, encode(problem))
        cmd = layout.aptitude_command(str(root))
        k = cmd.index(f"Aptitude::ProblemResolver::Hints::={layout.APTITUDE_HINT}")
        without = run.run_apt_family(box, root, cmd[:k - 1] + cmd[k + 1:], timeout=60,
                                     memory_mb=1024)
        with_hint = run.run_apt_family(box, root, cmd, timeout=60, memory_mb=1024)
    assert "No packages will be installed" in without.last.stdout
    assert "puzzle [Not Installed]" in without.last.stdout
    assert not decode.read_aptitude(without.last.output).answered
    assert decode.read_aptitude(with_hint.last.output).answered


def test_aptitude_running_out_of_time_is_unknown(run_cli):
    code, record, err = solve_cli(run_cli, str(EXAMPLES / "inkala.txt"), "aptitude",
                                  "--timeout", "3")
    assert code == 4 and record["status"] == "unknown"
    assert record["message"] == "aptitude timed out after 3 s"


@pytest.mark.parametrize("spec", ["libsolv-deb", "dose", "aspcud", "aptitude", "mccs"])
def test_depends_reduction(run_cli, spec):
    code, record, err = solve_cli(run_cli, FOUR, spec, "-o", "reduction=depends")
    assert code == 0, err
    assert record["stats"]["reduction"] == "depends"


@pytest.mark.parametrize("reader", ["debian", "pypi"])
def test_libsolv_reads_the_packages_file_both_ways(run_cli, reader):
    code, record, err = solve_cli(run_cli, WIKI, "libsolv-deb", "-o", f"solv={reader}")
    assert code == 0, err


def test_keep_holds_the_packages_file_and_the_log(run_cli, tmp_path):
    code, record, err = solve_cli(run_cli, FOUR, "dose", "--keep", str(tmp_path))
    assert code == 0
    packages = Path(record["artifact_path"])
    assert packages.read_text().startswith("Package: puzzle\n")
    assert "dose-distcheck" in Path(record["log_path"]).read_text()


def test_memory_cap_is_an_honest_unknown():
    # the faithful encoding of the miracle puzzle takes dose-distcheck past 4 GB; here past 200 MB
    engine = need_engine("dose", options={"memory_mb": "200"})
    outcome = api.solve(read_puzzle(MIRACLE), engine, timeout=60)
    assert outcome.status is Status.UNKNOWN
    assert outcome.message.startswith("dose-distcheck ran out of its 200 MB memory cap: ")


def test_bad_options_are_bad_input(run_cli):
    r = run_cli("solve", FOUR, "--engine", "dose", "-o", "reduction=both")
    assert r.code == 2 and "option reduction='both' is not one of conflicts, depends" in r.err
    r = run_cli("solve", FOUR, "--engine", "apt", "-o", "colour=blue")
    assert r.code == 2 and "has no option 'colour'" in r.err


def test_engines_lists_versions():
    from polydoku.engines.registry import ENGINE_IDS, make_engine
    for engine_id in ("apt", "aptitude", "aspcud", "mccs", "libsolv-deb", "dose"):
        assert engine_id in ENGINE_IDS
        engine = make_engine(engine_id)
        avail = engine.available()
        assert engine.install_hint.startswith("apt-get install")
        assert avail.version if avail.ok else avail.reason


def test_a_missing_tool_is_unavailable_with_its_install_hint(run_cli, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    r = run_cli("solve", FOUR, "--engine", "aptitude")
    assert r.code == 3
    assert "aptitude not found" in r.err and "apt-get install aptitude" in r.err


def sh_block(readme: str, heading: str) -> str:
    """Return the first ```sh block after a heading of an export README."""
    return readme.split(heading, 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]


def test_export_commands_run_as_written(run_cli, tmp_path):
    need_engine("dose")
    need_engine("aspcud")
    r = run_cli("export", WIKI, "--to", "debian", "--out", str(tmp_path), "-o", "variant=tuned")
    assert r.code == 0
    readme = (tmp_path / "README.md").read_text()
    assert "reject puzzle :UNINST" in readme and "Dir::State::status" in readme
    script = sh_block(readme, "## apt-get (") + sh_block(readme, "## apt-get with the EDSP")
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=120)
    assert done.stdout.count("Inst cell") == 2 * 81     # apt+tuned and aspcud both solve it
    done = subprocess.run(["bash", "-c", sh_block(readme, "## dose-distcheck")],
                          capture_output=True, text=True, timeout=120)
    assert "status: ok" in done.stdout


def test_host_package_state_is_unchanged(host_state):
    """Last in this file: the host's dpkg status (and apt's, aptitude's state) byte-identical."""
    assert {str(p): _digest(p) for p in HOST_STATE} == host_state
