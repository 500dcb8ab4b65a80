"""`polydoku bench`: the JSON result, table and plots; wrong answers counted, never hidden."""

import io
import json
import xml.etree.ElementTree as ET

import pytest

from conftest import data_lines

from polydoku.benchmark import SCHEMA_VERSION, BenchSettings, read_results, run_bench
from polydoku.benchmark.summary import not_run_notes, summarize, table

WIKI = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
UNSAT = "55" + WIKI[2:]


@pytest.fixture
def tiny_set(tmp_path):
    """A set of three easy puzzles with its parallel solutions file."""
    puzzles = data_lines("norvig_easy50.txt", limit=3)
    solutions = data_lines("norvig_easy50.solutions.txt", limit=3)
    path = tmp_path / "tiny.txt"
    path.write_text("\n".join(puzzles) + "\n")
    (tmp_path / "tiny.solutions.txt").write_text("\n".join(solutions) + "\n")
    return path, solutions


def test_bench_writes_json_table_and_plots(run_cli, tiny_set, tmp_path):
    path, _ = tiny_set
    out = tmp_path / "out"
    r = run_cli("bench", path, "--engines", "native", "--repeat", "2", "--out", out)
    assert r.code == 0, r.err
    data = read_results(out / "results.json")
    assert data["schema"] == "polydoku-bench" and data["schema_version"] == SCHEMA_VERSION
    assert data["engines"]["native"]["available"] and data["engines"]["native"]["version"]
    assert data["machine"]["cores"] and data["machine"]["python"]
    assert data["settings"]["repeat"] == 2 and data["sets"][0]["solutions_file"]
    assert len(data["puzzles"]) == 3
    for p in data["puzzles"]:
        result = p["results"]["native"]
        assert result["status"] == "solved" and len(result["runs"]) == 2
        assert result["seconds"] > 0 and result["cpu_seconds"] >= 0 and "nodes" in result["stats"]
    assert data["summary"]["native"]["solved"] == 3
    assert "native" in r.out and "solved" in r.out and "puzzles/s" in r.out
    for stem in ("times", "cactus"):
        assert (out / f"{stem}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert ET.parse(out / f"{stem}.svg").getroot().tag.endswith("svg")


def test_answer_differing_from_solutions_file_is_wrong(run_cli, tiny_set, tmp_path):
    path, solutions = tiny_set
    bad = solutions[1][1] + solutions[1][0] + solutions[1][2:]     # swap two cells
    (tmp_path / "tiny.solutions.txt").write_text("\n".join([solutions[0], bad, solutions[2]]))
    r = run_cli("bench", path, "--engines", "native", "--out", tmp_path / "o", "--no-plots")
    assert r.code == 3
    data = json.loads((tmp_path / "o" / "results.json").read_text())
    statuses = [p["results"]["native"]["status"] for p in data["puzzles"]]
    assert statuses == ["solved", "wrong", "solved"]
    assert "differs from the solutions file at r1c1" in data["puzzles"][1]["results"]["native"][
        "message"]
    assert data["summary"]["native"]["wrong"] == 1


def test_unsat_and_jobs(tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_text(f"{WIKI}\n{UNSAT}\n{WIKI}\n")
    one = run_bench(BenchSettings((str(path),), ("native",), jobs=1))
    two = run_bench(BenchSettings((str(path),), ("native",), jobs=2))
    for data in (one, two):
        assert [p["results"]["native"]["status"] for p in data["puzzles"]] == [
            "solved", "unsat", "solved"]
        assert summarize(data)["native"]["unsat"] == 1


def test_unavailable_engine_is_reported_and_wrong_shown_in_red(tiny_set):
    path, _ = tiny_set
    data = run_bench(BenchSettings((str(path),), ("native",), limit=2))
    data["engines"]["ghost"] = {"spec": "ghost", "title": "", "available": False, "version": "",
                                "reason": "ghost-solver not found", "hint": "apt install ghost"}
    data["puzzles"][0]["results"]["native"]["status"] = "wrong"
    summary = summarize(data)
    assert summary["native"]["wrong"] == 1 and summary["native"]["solved"] == 1
    assert not_run_notes(summary) == [
        "ghost: not run, unavailable: ghost-solver not found (install: apt install ghost)"]
    from rich.console import Console
    console = Console(file=io.StringIO(), width=200, force_terminal=True)
    console.print(table(data, summary))
    text = console.file.getvalue()
    assert "\x1b[1;31m1\x1b[0m" in text and "unavailable" in text    # the wrong count in bold red
