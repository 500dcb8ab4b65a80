"""The CLI, in process: exit codes, output, and one-line errors without tracebacks."""

import json
from pathlib import Path

import pytest

from conftest import EXAMPLES

WIKI = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
WIKI_SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def test_solve_literal(run_cli):
    r = run_cli("solve", WIKI)
    assert r.code == 0 and r.out.strip() == WIKI_SOLVED


def test_solve_grid_and_json(run_cli):
    r = run_cli("solve", str(EXAMPLES / "wikipedia.txt"), "--format", "grid")
    assert r.code == 0 and "5 3 4 | 6 7 8 | 9 1 2" in r.out
    r = run_cli("solve", WIKI, "--format", "json")
    data = json.loads(r.out)
    assert data["status"] == "solved" and data["solutions"] == [WIKI_SOLVED]


def test_stdin_and_many(run_cli):
    r = run_cli("solve", "-", stdin=f"{WIKI}\n# comment\n{WIKI}\n")
    assert r.code == 0 and r.out.split() == [WIKI_SOLVED, WIKI_SOLVED]


def test_count_and_differences(run_cli):
    r = run_cli("solve", "." * 16, "--count")
    assert r.code == 0 and r.out.strip() == "288"
    r = run_cli("solve", "." * 16, "--count", "--limit", "5")
    assert r.out.strip() == "5+"
    r = run_cli("solve", "12.." + "." * 12, "--count", "--format", "json")
    data = json.loads(r.out)
    assert data["count"] > 1 and data["differences"]


def test_miracle_count(run_cli):
    r = run_cli("solve", str(EXAMPLES / "miracle.json"), "--count")
    assert r.code == 0 and r.out.strip() == "1"


def test_unsat_exit_1_names_cells(run_cli):
    r = run_cli("solve", "55" + WIKI[2:])
    assert r.code == 1 and r.out.strip() == "no solution"
    assert "r1c1 and r1c2 both hold 5 (row 1)" in r.err


@pytest.mark.parametrize("args, needle", [
    (("solve", "12345"), "wrong length"),
    (("solve", WIKI[:-1] + "z"), "column 81"),
    (("solve", WIKI, "--rules", "anti-bishop"), "unknown rule"),
    (("solve", WIKI, "--engine", "nope"), "unknown engine"),
    (("solve", '{"givens": '), "malformed JSON"),
    (("solve", "." * 49), "prime"),
    (("solve", WIKI, "--bogus"), "No such option"),
    (("check", WIKI), "not complete"),
])
def test_bad_input_one_line_exit_2(run_cli, args, needle):
    r = run_cli(*args)
    assert r.code == 2
    assert needle in r.err and r.err.count("\n") == 1 and "Traceback" not in r.err


def test_bad_line_in_file_continues(run_cli, tmp_path):
    f = tmp_path / "p.txt"
    f.write_text(f"{WIKI}\n{WIKI[:10]}\n{WIKI}\n")
    r = run_cli("solve", str(f))
    assert r.code == 2 and r.out.split() == [WIKI_SOLVED, "error", WIKI_SOLVED]
    assert "line 2" in r.err


def test_check(run_cli):
    assert run_cli("check", WIKI_SOLVED).code == 0
    bad = WIKI_SOLVED[:-2] + WIKI_SOLVED[-1] + WIKI_SOLVED[-2]
    r = run_cli("check", bad)
    assert r.code == 1 and "both hold" in r.out
    r = run_cli("check", WIKI_SOLVED, "--puzzle", "1" + WIKI[1:])
    assert r.code == 1 and "given is 1" in r.out


def test_engines_lists_native(run_cli):
    r = run_cli("engines", "--json")
    rows = [json.loads(x) for x in r.out.splitlines()]
    assert r.code == 0 and rows[0]["id"] == "native" and rows[0]["available"]


def test_terminated_run_exits_cleanly():
    """SIGTERM unwinds like Ctrl-C: exit 130, one line, sandboxes cleaned on the way out."""
    import signal
    import subprocess
    import sys
    import time
    code = "import sys; from polydoku.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.Popen([sys.executable, "-c", code, "solve", "." * 256, "--count",
                             "--limit", "100000000", "--timeout", "60"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert "Traceback" not in err and err.strip().count("\n") == 0


def test_solve_imports_only_what_solving_needs():
    # start-up is what a one-puzzle call pays: no command module but solve's, no process pool,
    # no drawing, no reasoning, no cluster, no link reader (bench/core.py measures the time)
    import subprocess
    import sys
    code = ("import sys, io\n"
            "from polydoku.cli.app import main\n"
            "out, sys.stdout = sys.stdout, io.StringIO()\n"
            f"code = main(['solve', {str(EXAMPLES / 'wikipedia.txt')!r}])\n"
            "sys.stdout = out\n"
            "print(code, ' '.join(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    exit_code, modules = done.stdout.split(" ", 1)
    loaded = set(modules.split())
    assert exit_code == "0", done.stderr
    assert "polydoku.cli.solve" in loaded
    heavy = {"multiprocessing", "concurrent.futures", "matplotlib", "rich", "dask", "numpy",
             "polydoku.reasoning", "polydoku.generator", "polydoku.render", "polydoku.cluster",
             "polydoku.benchmark", "polydoku.formats.fpuzzles", "polydoku.web",
             "polydoku.cli.explain", "polydoku.cli.bench", "polydoku.cli.generate", "logging"}
    assert not heavy & loaded


def test_the_command_list_of_help_is_each_commands_own_summary():
    import pkgutil

    import click

    from polydoku.cli import app
    folder = [str(Path(app.__file__).parent)]
    modules = {m.name.replace("_", "-") for m in pkgutil.iter_modules(folder)
               if m.name not in app.HELPERS}
    assert set(app.SUMMARIES) == modules, "a command is missing from cli/app.py's SUMMARIES"
    ctx = click.Context(app.cli)
    for name, summary in app.SUMMARIES.items():
        command = app.cli.get_command(ctx, name)
        assert command is not None and command.get_short_help_str(limit=1000) == summary, (
            f"SUMMARIES[{name!r}] in cli/app.py must be the first sentence of its help")


def test_help_lists_every_command(run_cli):
    from polydoku.cli.app import SUMMARIES
    r = run_cli("--help")
    assert r.code == 0
    listed = [line.split()[0] for line in r.out.split("Commands:")[1].splitlines() if line.strip()]
    assert listed == sorted(SUMMARIES)


def test_a_closed_pipe_on_the_full_command_is_no_failure(tmp_path):
    import os
    import subprocess
    import sys
    many = tmp_path / "many.txt"
    many.write_text(("." * 81 + "\n") * 3000)
    script = Path(sys.executable).with_name("polydoku")
    done = subprocess.run(f"'{script}' solve '{many}' -j1 --count --limit 1 | head -1; "
                          "exit ${PIPESTATUS[0]}", shell=True, executable="/bin/bash",
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "POLYDOKU_EXPRESS": "off"})
    assert done.stdout == "1+\n" and done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
