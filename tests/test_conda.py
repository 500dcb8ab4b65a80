"""The conda engines, run for real: libsolv (PyPI solv) and resolvo (PyPI py-rattler) solve the
generated channel in a child process; every answer is verified by `api.solve`; "no solution"
only with the tool's own proof and words; a timeout is "unknown"; the export's README commands
work as written."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from polydoku import api
from polydoku.engines.conda import run as conda_run
from polydoku.engines.sandbox import Run
from polydoku.formats import read_puzzle

from conftest import EXAMPLES, data_path, need_engine

WIKI = str(EXAMPLES / "wikipedia.txt")
INKALA = str(EXAMPLES / "inkala.txt")
FOUR = str(EXAMPLES / "four.txt")
MIRACLE = str(EXAMPLES / "miracle.json")
# The conda write-up's experiment: Wikipedia's puzzle with one more given, 1x6-is=4 (no solution;
# the givens alone break no rule, so the tool has to prove it).
WIKI_SPECS = ("1x1-is=5 1x2-is=3 1x5-is=7 2x1-is=6 2x4-is=1 2x5-is=9 2x6-is=5 3x2-is=9 3x3-is=8 "
              "3x8-is=6 4x1-is=8 4x5-is=6 4x9-is=3 5x1-is=4 5x4-is=8 5x6-is=3 5x9-is=1 6x1-is=7 "
              "6x5-is=2 6x9-is=6 7x2-is=6 7x7-is=2 7x8-is=8 8x4-is=4 8x5-is=1 8x6-is=9 8x9-is=5 "
              "9x5-is=8 9x8-is=7 9x9-is=9")
WIKI_PLUS = WIKI_SPECS + " 1x6-is=4"


def variant_line(ident: str) -> str:
    """Return one puzzle of the shared variants file (a JSON line)."""
    lines = data_path("variants/variants.jsonl").read_text().splitlines()
    return next(ln for ln in lines if f'"{ident}"' in ln)


def solve_cli(run_cli, puzzle: str, spec: str, *extra: str):
    """Run `polydoku solve PUZZLE --engine SPEC --format json`; return (code, record, stderr)."""
    need_engine(spec.split("+")[0])
    r = run_cli("solve", puzzle, "--engine", spec, "--format", "json", *extra)
    return r.code, json.loads(r.out.strip().splitlines()[-1]), r.err


SOLVES = [  # (puzzle, engine spec): where the tool can, each within about a second
    (FOUR, "libsolv-conda"), (FOUR, "rattler"), (FOUR, "libsolv-conda+tuned"), (FOUR, "rattler+tuned"),
    (WIKI, "libsolv-conda"), (WIKI, "rattler"), (WIKI, "libsolv-conda+tuned"), (WIKI, "rattler+tuned"),
    (INKALA, "libsolv-conda"), (INKALA, "rattler"), (INKALA, "libsolv-conda+tuned"),
    (INKALA, "rattler+tuned"),
    (MIRACLE, "rattler"), (MIRACLE, "rattler+tuned"), (MIRACLE, "libsolv-conda+tuned"),
    ("joon-16x16", "rattler"), ("joon-16x16", "rattler+tuned"), ("joon-16x16", "libsolv-conda+tuned"),
    ("joon-25x25-a", "libsolv-conda+tuned"),
]


@pytest.mark.parametrize("puzzle,spec", SOLVES)
def test_solves_and_the_answer_verifies(run_cli, puzzle, spec):
    text = variant_line(puzzle) if puzzle.startswith("joon") else puzzle
    code, record, err = solve_cli(run_cli, text, spec, "--timeout", "120")
    assert code == 0, err
    assert record["status"] == "solved" and record["count"] == 1
    assert record["stats"]["encoding"] == ("tuned" if spec.endswith("+tuned") else "faithful")
    p = read_puzzle(text)
    assert api.solve(p).solutions[0] == tuple(
        p.alphabet.index(ch) + 1 for ch in record["solutions"][0])   # the unique solution


def test_write_up_experiment_libsolv_names_the_givens(run_cli):
    need_engine("libsolv-conda")
    r = run_cli("solve", WIKI_PLUS, "--engine", "libsolv-conda")
    assert r.code == 1, r.err
    assert r.out.strip() == "no solution"
    assert "Problem 1/1:" in r.err
    # libsolv's ways out: drop one of the conflicting givens, the new one among them
    assert "do not ask to install a package providing 1x6-is = 4" in r.err
    assert "do not ask to install a package providing 8x4-is = 4" in r.err
    assert "<>" in r.err                                # `!=` written as libsolv's relation


def test_write_up_experiment_rattler_names_the_givens(run_cli):
    need_engine("rattler")
    r = run_cli("solve", WIKI_PLUS, "--engine", "rattler")
    assert r.code == 1, r.err
    assert r.out.strip() == "no solution"
    assert "Cannot solve the request because of" in r.err
    for given in ("1x6-is 4", "4x5-is 6", "8x4-is 4", "6x5-is 2"):
        assert given in r.err                           # the write-up's conflicting givens


@pytest.mark.parametrize("spec", ["libsolv-conda+tuned", "rattler+tuned"])
def test_tuned_proves_it_too(run_cli, spec):
    code, record, err = solve_cli(run_cli, WIKI_PLUS, spec)
    assert code == 1 and record["status"] == "unsatisfiable" and record["exhausted"]
    assert record["message"]


def test_libsolv_stopped_at_the_timeout_is_unknown(run_cli):
    # libsolv has no time limit of its own: the runner stops the child, and says so
    need_engine("libsolv-conda")
    r = run_cli("solve", MIRACLE, "--engine", "libsolv-conda", "--timeout", "1")
    assert r.code == 4, r.err
    assert r.out.strip() == "unknown"
    assert "libsolv-conda gave up without an answer: libsolv was stopped after" in r.err
    assert "no solution" not in r.out + r.err


def test_rattler_gives_up_at_its_own_time_limit(run_cli):
    code, record, err = solve_cli(run_cli, variant_line("joon-25x25-a"), "rattler",
                                  "--timeout", "2")
    assert code == 4, err
    assert record["status"] == "unknown"
    assert "time limit" in record["message"] or "stopped after" in record["message"]


@pytest.mark.parametrize("spec", ["libsolv-conda+tuned", "rattler"])
def test_constrains_knob_solves_too(run_cli, spec):
    code, record, err = solve_cli(run_cli, WIKI, spec, "-o", "nogoods=constrains")
    assert code == 0, err


def test_bad_option_is_bad_input(run_cli):
    need_engine("rattler")
    r = run_cli("solve", WIKI, "--engine", "rattler", "-o", "nogoods=maybe")
    assert r.code == 2
    assert len(r.err.strip().splitlines()) == 1 and "nogoods" in r.err


def test_keep_holds_the_channel_and_the_log(run_cli, tmp_path):
    need_engine("rattler")
    r = run_cli("solve", FOUR, "--engine", "rattler", "--keep", str(tmp_path), "--format", "json")
    assert r.code == 0, r.err
    record = json.loads(r.out)
    assert (tmp_path / "channel" / "noarch" / "repodata.json").exists()
    assert (tmp_path / "channel" / "specs.txt").read_text().split()[-1] == "sudoku"
    assert Path(record["log_path"]).read_text().startswith("$ ")


def test_an_answer_written_before_a_crash_at_exit_counts(tmp_path):
    # py-rattler has crashed at interpreter exit after solving: the result file decides
    result = tmp_path / "result.json"
    result.write_text(json.dumps({"status": "solved", "installed": [["1x1-is", "1"]],
                                  "version": "x", "solve_seconds": 0.1}))
    run = Run(["python"], -11, "", "Segmentation fault", 0.2, 0.1, False)
    out = conda_run._read(result, run, "rattler", 10.0)
    assert out.status == "solved" and out.installed == [("1x1-is", "1")]
    assert out.stats["exit_after_answer"] == -11
    missing = conda_run._read(tmp_path / "none.json", run, "rattler", 10.0)
    assert missing.status == "error" and "Segmentation fault" in missing.message


def test_engines_lists_both(run_cli):
    r = run_cli("engines", "--json")
    rows = {row["id"]: row for row in map(json.loads, r.out.strip().splitlines())}
    for engine_id, dist in (("libsolv-conda", "solv"), ("rattler", "py-rattler")):
        row = rows[engine_id]
        assert row["variants"] == ["faithful", "tuned"]
        if row["available"]:
            assert row["version"].startswith(dist + " ")
        else:
            assert dist in row["install"]


def test_export_writes_a_channel_and_commands_that_work(run_cli, tmp_path):
    need_engine("rattler")
    need_engine("libsolv-conda")
    r = run_cli("export", WIKI, "--to", "conda", "--out", str(tmp_path))
    assert r.code == 0, r.err
    readme = (tmp_path / "README.md").read_text()
    assert f"conda create --dry-run -n sudoku -c {tmp_path.resolve().as_uri()} " \
           f"--override-channels {WIKI_SPECS} sudoku" in readme
    assert json.loads((tmp_path / "linux-64" / "repodata.json").read_text())["packages"] == {}
    for tool in ("rattler", "libsolv"):
        # the README's command, run with the Python that has the tools
        done = subprocess.run([sys.executable, str(tmp_path / "solve.py"), tool, str(tmp_path)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "  1x6-is: 8\n" in done.stdout
        extra = subprocess.run([sys.executable, str(tmp_path / "solve.py"), tool, str(tmp_path),
                                *WIKI_PLUS.split(), "sudoku"],
                               capture_output=True, text=True, timeout=120)
        assert extra.returncode == 1 and "1x6-is" in extra.stdout


def test_export_tuned_and_bad_encoding(run_cli, tmp_path):
    r = run_cli("export", FOUR, "--to", "conda", "--out", str(tmp_path), "-o", "encoding=tuned")
    assert r.code == 0, r.err
    assert "tuned encoding" in (tmp_path / "README.md").read_text()
    bad = run_cli("export", FOUR, "--to", "conda", "--out", str(tmp_path / "x"), "-o",
                  "encoding=fast")
    assert bad.code == 2 and "unknown encoding" in bad.err


def test_a_missing_tool_is_reported_with_its_install_hint():
    from polydoku.engines.conda.engine import RattlerEngine

    class Missing(RattlerEngine):
        module = "polydoku_no_such_module"

    avail = Missing().available()
    assert not avail.ok and "polydoku_no_such_module" in avail.reason
    assert "pip install py-rattler" in avail.hint
