"""The web API of `polydoku serve`, in process through Starlette's TestClient: the same JSON as
the CLI's --json, one-line errors with 400/404/413/429, runs in workers, nothing unescaped."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from conftest import EXAMPLES, IN_CI

if not IN_CI:       # in CI the web extra must be there: a missing one fails the import below
    pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")

from starlette.testclient import TestClient  # noqa: E402

from polydoku.formats.jsonfmt import puzzle_from_dict, puzzle_to_dict  # noqa: E402
from polydoku.formats.read import read_text  # noqa: E402
from polydoku.model import Puzzle  # noqa: E402
from polydoku.web.app import MAX_BODY, Settings, create_app  # noqa: E402

WIKI = next(ln for ln in (EXAMPLES / "wikipedia.txt").read_text().splitlines()
            if ln and not ln.startswith("#"))
UNSAT = WIKI[:5] + "4" + WIKI[6:]          # r1c6=4 has no solution (explain's own example)
MANY = "1" + "." * 15                      # a 4x4 with many solutions
BASE = "http://127.0.0.1"
JSON = {"content-type": "application/json"}
NAMED = json.dumps({"name": "<script>alert(1)</script>", "size": 4, "box": [2, 2],
                    "givens": ".3.4......1.2..."})


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Settings(workers=2, queue_wait=0.2)), base_url=BASE) as c:
        yield c


def cli_json(run_cli, *args) -> dict:
    """Return the one JSON object a CLI command prints."""
    r = run_cli(*args)
    assert r.code in (0, 1, 4), r.err
    return json.loads(r.out)


def same_but_timing(api: dict, cli: dict) -> None:
    """Assert two JSON objects are equal apart from measured seconds."""
    def strip(d):
        d = dict(d)
        stats = d.pop("stats", None)
        d.pop("seconds", None)
        return d, sorted(stats or ())
    assert strip(api) == strip(cli)


@pytest.mark.parametrize("call,args,body", [
    ("solve", ["solve", WIKI, "--format", "json"], {"puzzle": WIKI}),
    ("count", ["solve", MANY, "--count", "--limit", "50", "--format", "json"],
     {"puzzle": MANY, "limit": 50}),
    ("check-unique", ["check-unique", MANY, "--json"], {"puzzle": MANY}),
    ("check-unique", ["check-unique", WIKI, "--json"], {"puzzle": WIKI}),
    ("explain", ["explain", UNSAT, "--json"], {"puzzle": UNSAT}),
    ("explain", ["explain", WIKI, "--why", "r1c6=4", "--json"], {"puzzle": WIKI, "why": "r1c6=4"}),
    ("candidates", ["candidates", MANY, "--json"], {"puzzle": MANY}),
    ("hint", ["hint", WIKI, "--json"], {"puzzle": WIKI}),
    ("hint", ["hint", UNSAT, "--json"], {"puzzle": UNSAT}),
    ("steps", ["steps", WIKI, "--json"], {"puzzle": WIKI}),
    ("steps", ["steps", UNSAT, "--json"], {"puzzle": UNSAT}),
])
def test_api_json_is_the_cli_json(client, run_cli, call, args, body):
    r = client.post(f"/api/{call}", json=body)
    assert r.status_code == 200, r.text
    same_but_timing(r.json(), cli_json(run_cli, *args))


def test_engines_are_the_cli_rows(client, run_cli):
    r = run_cli("engines", "--json")
    rows = [json.loads(line) for line in r.out.splitlines()]
    assert client.get("/api/engines").json() == rows


def test_check_unique_marks_the_differing_cells(client):
    data = client.post("/api/check-unique", json={"puzzle": MANY}).json()
    a, b = data["solutions"]
    assert data["unique"] is False and a != b
    assert len(data["differences"]) == sum(x != y for x, y in zip(a, b))


def test_explain_names_the_conflict(client):
    data = client.post("/api/explain", json={"puzzle": UNSAT}).json()
    assert data["status"] == "unsatisfiable" and "r1c6=4" in data["conflict"] and data["minimal"]


def test_grid_field_replaces_the_givens(client):
    solved = client.post("/api/solve", json={"puzzle": WIKI}).json()["solutions"][0]
    grid = solved[:80] + "."
    data = client.post("/api/solve", json={"puzzle": WIKI, "grid": grid}).json()
    assert data["solutions"] == [solved] and data["puzzle"] == grid


@pytest.mark.parametrize("grade", ["nudge", "technique", "cells", "answer"])
def test_hint_grades_tell_more_and_more(client, run_cli, grade):
    full = cli_json(run_cli, "hint", WIKI, "--json")
    data = client.post("/api/hint", json={"puzzle": WIKI, "level": grade}).json()
    assert data["grade"] == grade and data["status"] == "move"
    told = {"nudge": set(), "technique": {"technique"}, "cells": {"technique", "pattern"},
            "answer": {"technique", "pattern", "placements", "eliminations"}}[grade]
    for key in ("technique", "pattern", "placements", "eliminations"):
        assert data[key] == (full[key] if key in told else None if key == "technique" else [])
    assert data == cli_json(run_cli, "hint", WIKI, "--level", grade, "--json")
    assert (full["technique"] in data["text"]) == (grade != "nudge")
    assert set(data["house_cells"]) >= set(full["pattern"]) or not full["houses"]


def test_a_graded_hint_on_a_full_grid_says_complete(client):
    solved = client.post("/api/solve", json={"puzzle": WIKI}).json()["solutions"][0]
    data = client.post("/api/hint", json={"puzzle": solved, "level": "nudge"}).json()
    assert data["status"] == "complete" and data["grade"] == "nudge" and not data["pattern"]


@pytest.mark.parametrize("body,words", [
    (b"{not json", "not JSON"),
    (b"[1, 2]", "must be a JSON object"),
    (b"\xff\xfe", "not JSON"),
    (json.dumps({"puzzle": "12345"}).encode(), "wrong length"),
    (json.dumps({"puzzle": WIKI, "timeout": "soon"}).encode(), "field 'timeout'"),
    (json.dumps({"puzzle": WIKI, "timeout": 10_000}).encode(), "field 'timeout'"),
    (json.dumps({"puzzle": WIKI, "engine": "nosuch"}).encode(), "nosuch"),
    (json.dumps({"puzzle": WIKI, "rules": "anti-gravity"}).encode(), "anti-gravity"),
    (json.dumps({"puzzle": WIKI, "grid": "12"}).encode(), "field 'grid'"),
    (json.dumps({"puzzle": WIKI, "why": "r10c1=4"}).encode(), "r10c1"),
    (json.dumps({"puzzle": WIKI, "level": "everything"}).encode(), "field 'level'"),
    (json.dumps({"puzzle": "/etc/passwd"}).encode(), "wrong length"),   # never a file name
])
def test_bad_requests_get_400_and_one_line(client, body, words):
    r = client.post("/api/solve" if b"why" not in body and b"level" not in body else
                    "/api/explain" if b"why" in body else "/api/hint", content=body, headers=JSON)
    assert r.status_code == 400, r.text
    message = r.json()["error"]
    assert words in message and "\n" not in message and "Traceback" not in r.text


def test_bad_puzzle_message_is_the_cli_line(client, run_cli):
    cli = run_cli("solve", "12345")
    api = client.post("/api/solve", json={"puzzle": "12345"}).json()["error"]
    assert cli.code == 2 and cli.err.strip().endswith(api.split(": ", 1)[1])


def test_body_over_a_megabyte_gets_413(client):
    r = client.post("/api/solve", content=b" " * (MAX_BODY + 1), headers=JSON)
    assert r.status_code == 413 and "bytes" in r.json()["error"]
    chunks = (b" " * 65536 for _ in range(MAX_BODY // 65536 + 2))   # no Content-Length
    r = client.post("/api/board", content=chunks, headers=JSON)
    assert r.status_code == 413


def test_cross_site_requests_are_refused(client):
    # A form or a no-cors fetch from another site cannot send application/json...
    r = client.post("/api/solve", content=json.dumps({"puzzle": WIKI}),
                    headers={"content-type": "text/plain"})
    assert r.status_code == 415 and "application/json" in r.json()["error"]
    # ...and a site's own DNS name pointed at 127.0.0.1 is not a host this server answers.
    r = client.post("/api/solve", json={"puzzle": WIKI}, headers={"host": "evil.example"})
    assert r.status_code == 400 and "evil" not in r.text


def test_unknown_call_and_method(client):
    assert client.post("/api/frobnicate", json={}).status_code == 404
    r = client.get("/api/solve")
    assert r.status_code == 405 and "error" in r.json()


def test_runs_beyond_the_workers_get_429_and_the_page_stays_responsive():
    # seconds of counting: SAT enumerates with a blocking clause per solution, far slower than
    # the native search (which counts 100,000 solutions of an empty grid in about a second)
    slow = {"puzzle": "." * 81, "engine": "sat", "limit": 100_000, "timeout": 3}
    with TestClient(create_app(Settings(workers=1, queue_wait=0.2)), base_url=BASE) as c:
        answers = {}
        first = threading.Thread(target=lambda: answers.update(
            first=c.post("/api/count", json=slow)))
        first.start()
        time.sleep(1.0)
        start = time.monotonic()
        board = c.post("/api/board", json={"puzzle": WIKI})
        answers["second"] = c.post("/api/solve", json={"puzzle": WIKI})
        waited = time.monotonic() - start
        first.join()
    assert board.status_code == 200
    assert answers["second"].status_code == 429 and "busy" in answers["second"].json()["error"]
    assert waited < 2.5                    # neither waited for the slow run to end
    first_json = answers["first"].json()
    assert answers["first"].status_code == 200 and first_json["exhausted"] is False


def test_a_name_with_markup_is_escaped_in_the_picture(client):
    data = client.post("/api/board", json={"puzzle": NAMED}).json()
    assert data["name"] == "<script>alert(1)</script>"
    assert "<script" not in data["svg"] and "&lt;script&gt;" in data["svg"]


def test_the_page_is_static_with_a_strict_policy(client):
    r = client.get("/")
    assert r.status_code == 200 and 'data-action="solve"' in r.text
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert "innerHTML" not in client.get("/static/app.js").text
    assert client.get("/static/app.css").status_code == 200


def test_no_page_script_writes_html(client):
    for name in ("app.js", "grid.js", "checks.js"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200
        assert "innerHTML" not in r.text and "insertAdjacentHTML" not in r.text, name


def _published(kind_id: str) -> tuple[Puzzle, str]:
    """Return a published variant puzzle of tests/data and its solution."""
    data = Path(__file__).parent / "data" / "variants" / "published.jsonl"
    entry = next(e for e in map(json.loads, data.read_text().splitlines()) if e["id"] == kind_id)
    return puzzle_from_dict(entry["puzzle"]), entry["solution"]


def _broken(checks: dict, vals: list[int], ncells: int) -> set[str]:
    """Return the labels of the constraints the page would mark in `vals` (0 = empty): the
    rules of checks.js, written again here to test what the server sends."""
    labels, domains, out = checks["labels"], checks["domains"], set()
    at = (lambda v: vals[v] if v < ncells else 0)
    for label, *group in checks["groups"]:
        seen = [at(v) for v in group if at(v)]
        if len(seen) != len(set(seen)):
            out.add(labels[label])
    for x, a, y, b, label in checks["nogoods"]:
        if at(x) == a and at(y) == b:
            out.add(labels[label])
    for x, y, d, label in checks["diffs"]:
        if at(x) and at(y) and abs(at(x) - at(y)) == d:
            out.add(labels[label])
    for label, vars_, tuples in checks["tables"]:
        filled = [k for k, v in enumerate(vars_) if at(v)]
        if filled and not any(all(t[k] == at(vars_[k]) for k in filled) for t in tuples):
            out.add(labels[label])
    for label, vars_, coefs, rhs, op in checks["sums"]:
        lo = hi = 0
        for v, w in zip(vars_, coefs):
            top = domains[v - ncells] if v >= ncells else round(ncells ** 0.5)
            lo, hi = (lo + w * at(v), hi + w * at(v)) if at(v) else (lo + min(w, w * top),
                                                                    hi + max(w, w * top))
        if not (lo <= rhs <= hi if op == "==" else lo <= rhs if op == "<=" else hi >= rhs):
            out.add(labels[label])
    return out


@pytest.mark.parametrize("kind_id", ["killer", "thermo", "xv-kropki-sudoku", "arrow", "odd-even"])
def test_the_board_sends_what_the_page_checks_typing_against(client, kind_id):
    puzzle, solution = _published(kind_id)
    data = client.post("/api/board", json={"puzzle": json.dumps(puzzle_to_dict(puzzle))}).json()
    checks, n = data["checks"], puzzle.size
    grid = [int(ch) for ch in solution]
    assert _broken(checks, grid, n * n) == set()                   # the solution breaks nothing
    assert len(json.dumps(checks)) < 400_000
    rng = random.Random(kind_id)
    for _ in range(40):                                          # a wrong value is caught
        i = rng.randrange(n * n)
        wrong = grid.copy()
        wrong[i] = rng.choice([v for v in range(1, n + 1) if v != grid[i]])
        assert _broken(checks, wrong, n * n), (i, wrong[i])
    for _ in range(40):                                          # a few right values, nothing
        partial = [v if rng.random() < 0.3 else 0 for v in grid]
        assert _broken(checks, partial, n * n) == set()
    drawn = data["svg"].count('data-rule="killer"')
    assert drawn == sum(r.kind == "killer" for r in puzzle.rules)


def test_check_names_wrong_entries_without_the_solution(client):
    solution = client.post("/api/solve", json={"puzzle": WIKI}).json()["solutions"][0]
    empty = [i for i, ch in enumerate(WIKI) if ch == "."]
    right, wrong = empty[0], empty[1]
    bad = str(int(solution[wrong]) % 9 + 1)
    entries = ["."] * 81
    entries[right], entries[wrong] = solution[right], bad
    r = client.post("/api/check", json={"puzzle": WIKI, "entries": "".join(entries)}).json()
    assert r["status"] == "solved" and r["unique"] is True
    assert r["wrong"] == [f"r{wrong // 9 + 1}c{wrong % 9 + 1}"]
    assert r["entered"] == 2 and r["empty"] == len(empty) - 2
    assert solution not in json.dumps(r) and "solutions" not in r
    several = client.post("/api/check", json={"puzzle": MANY, "entries": ".2.............."}).json()
    assert several["unique"] is False and several["fits"] is True and "wrong" not in several
    none = client.post("/api/check", json={"puzzle": MANY, "entries": ".1.............."}).json()
    assert none["status"] == "solved" and none["fits"] is False
    counted = client.post("/api/check", json={"puzzle": WIKI, "entries": "".join(entries),
                                              "engine": "resolvelib"}).json()
    assert counted["engine"] == "native" and counted["wrong"] == r["wrong"]
    refused = client.post("/api/check", json={"puzzle": WIKI, "entries": "12"})
    assert refused.status_code == 400 and "\n" not in refused.json()["error"]


def test_links_open_the_puzzle_in_other_solvers(client):
    puzzle, _ = _published("killer")
    r = client.post("/api/links", json={"puzzle": json.dumps(puzzle_to_dict(puzzle))}).json()
    assert [link["app"] for link in r["links"]] == ["fpuzzles", "sudokupad", "iss"]
    assert r["links"][2]["url"].startswith("https://sigh.github.io/Interactive-Sudoku-Solver/?q=")
    for link in r["links"]:
        text = link["url"]
        if link["app"] == "iss":
            text = urllib.parse.unquote(text.partition("?q=")[2])
        back = read_text(text)
        assert back.givens == puzzle.givens
        assert sorted(map(str, back.rules)) == sorted(map(str, puzzle.rules))


def test_the_engines_menu_lists_every_engine_once_grouped(client):
    from polydoku.engines.registry import ENGINE_IDS
    r = client.get("/engines.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    prefix = "window.POLYDOKU_ENGINES = "
    assert r.text.startswith(prefix) and "<" not in r.text
    rows = json.loads(r.text[len(prefix):].rstrip().rstrip(";"))
    assert [row["id"] for row in rows] == list(ENGINE_IDS)
    specs = [spec for row in rows for spec in row["specs"]]
    assert len(specs) == len(set(specs)) and not any(s.endswith("+faithful") for s in specs)
    groups = {row["id"]: row["group"] for row in rows}
    assert groups["native"] == "polydoku"
    assert {groups[e] for e in ("sat", "cpsat", "z3", "clingo", "minizinc")} == {"solvers"}
    assert {groups[e] for e in ("apt", "pip", "uv", "npm", "cargo", "rattler")} == {"managers"}


def descendants(pid: int) -> set[int]:
    """Return the processes below `pid` (read from /proc)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, todo = set(), [pid]
    while todo:
        parent = todo.pop()
        kids = [p for p, pp in parents.items() if pp == parent]
        found.update(kids)
        todo += kids
    return found


def test_serve_stops_a_run_whose_client_goes_away_and_stops_on_ctrl_c():
    code = "import sys; from polydoku.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.Popen([sys.executable, "-c", code, "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().strip()
        host, port = url.removeprefix("http://").rstrip("/").split(":")
        assert host == "127.0.0.1"
        body = json.dumps({"puzzle": "." * 256, "limit": 100_000, "timeout": 60}).encode()
        warm = urllib.request.Request(f"{url}api/solve", data=json.dumps({"puzzle": WIKI}).encode(),
                                      headers=JSON)
        with urllib.request.urlopen(warm, timeout=60) as res:     # starts the fork server
            assert json.load(res)["status"] == "solved"
        idle = descendants(proc.pid)
        with socket.create_connection((host, int(port))) as s:
            s.sendall(b"POST /api/count HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                      % (len(body), body))
            deadline = time.monotonic() + 20
            while not descendants(proc.pid) - idle and time.monotonic() < deadline:
                time.sleep(0.1)
            running = descendants(proc.pid)
            assert len(running) > len(idle)             # the run has a worker of its own
        deadline = time.monotonic() + 10                 # the client went away: stop it
        while len(descendants(proc.pid)) >= len(running) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(descendants(proc.pid)) < len(running)
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=20)
    assert proc.returncode == 130 and "Traceback" not in err and err.strip().endswith("stopped")


def test_serve_on_a_port_in_use_is_one_line(run_cli):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        r = run_cli("serve", "--port", s.getsockname()[1])
    assert r.code == 2 and r.err.startswith("polydoku: cannot listen on 127.0.0.1:")
    assert len(r.err.splitlines()) == 1
