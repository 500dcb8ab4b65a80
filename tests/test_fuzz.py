"""A fuzz of generated bad inputs through the command line and the web API: every one is
answered with an exit code polydoku promises (never 3, "internal error") and at most one line
on stderr per puzzle, or an HTTP answer in JSON (never 500), never a traceback. Hypothesis
generates them, so each run tries inputs no one wrote down."""

from __future__ import annotations

import json
import os
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from polydoku.cli.express import DEFAULT_TIMEOUT as CLI_TIMEOUT

W = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
FOUR = "1.3...1.3...4..."
# POLYDOKU_FUZZ=N multiplies the examples (a fresh fuzz of thousands: POLYDOKU_FUZZ=10).
SCALE = max(1, int(os.environ.get("POLYDOKU_FUZZ", "1") or 1))
# The fuzzer's own limit on one input, above the engines' default timeout (the CLI's, longer
# than the API's): an input that an engine merely gives up on, at its own timeout, is no
# failure, one that outlives it is.
FUZZ_LIMIT = timedelta(seconds=CLI_TIMEOUT + 30)
KINDS = ["killer", "thermometer", "arrow", "kropki-white", "xv", "little-killer", "sandwich",
         "renban", "anti-knight", "windoku", "quadruple", "clone", "region-sum", "between",
         "skyscraper", "x-sum", "even", "minimum", "whispers", "nonsense"]
FIELDS = ["cells", "sum", "line", "lines", "circle", "digits", "direction", "target", "value",
          "clue", "difference", "cells2", "side", "index"]

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
                    st.sampled_from(["r1c1", "R1C1", "r0c0", "r10c1", "r1c1,r1c2", "9", ""]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=12)
cells = st.lists(st.sampled_from([f"r{r}c{c}" for r in range(0, 11) for c in range(0, 11)]),
                 max_size=6)
rules = st.lists(st.one_of(
    st.sampled_from(KINDS),
    st.fixed_dictionaries({"kind": st.sampled_from(KINDS)},
                          optional={f: st.one_of(values, cells) for f in FIELDS}),
    values), max_size=3)
puzzles = st.fixed_dictionaries(
    {}, optional={"givens": st.one_of(st.sampled_from([W, FOUR, W[:-1], "." * 16, "."]),
                                      st.text(alphabet="0123456789.xA", max_size=90), values),
                  "size": values, "box": st.one_of(st.sampled_from(["3x3", "2x2", "none", [2, 2],
                                                                    [3, 3], "9"]), values),
                  "rules": st.one_of(rules, values), "name": values, "id": values,
                  "alphabet": values, "regions": values})


def _ok(result) -> None:
    assert result.code in (0, 1, 2, 4), (result.code, result.err)
    assert "internal error" not in result.err and "Traceback" not in result.err, result.err


@settings(max_examples=250 * SCALE, deadline=FUZZ_LIMIT,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(puzzles)
def test_generated_json_puzzles(run_cli, data):
    _ok(run_cli("solve", json.dumps(data, allow_nan=True), "--timeout", "5"))


@settings(max_examples=150 * SCALE, deadline=FUZZ_LIMIT,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.text(max_size=200))
def test_generated_text(run_cli, text):
    _ok(run_cli("solve", "-", "--timeout", "5", stdin=text))


@settings(max_examples=100 * SCALE, deadline=FUZZ_LIMIT,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["solve", "check-unique", "explain", "candidates", "hint", "steps",
                        "render", "check", "export"]),
       st.lists(st.sampled_from(["--timeout", "--why", "--scale", "--title", "--rules", "--box",
                                 "--engine", "--format", "--limit", "--jobs", "--to", "--out",
                                 "-o", "--level", "nan", "inf", "-1", "0", "1e400", "r1c1=¹",
                                 "r1c1=5", "x=y", "anti-knight,??", "\x1b[2J", "{tmp}/x.svg",
                                 "{tmp}/no/x.png", "json", "native", "nope", "3x3", "¹",
                                 "--keep", "{tmp}", "/dev/zero", "/sys/x.svg", "/dev/full",
                                 "-o", "solver=bogus", "sat", "1" + "9" * 5000]),
                max_size=4))
def test_generated_options(run_cli, tmp_path, command, options):
    args = [command, FOUR if command != "check" else "1234341221434321"]
    args += [o.replace("{tmp}", str(tmp_path)) for o in options]
    if command in ("render",) and "--out" not in options:
        args += ["--out", str(tmp_path / "x.svg")]
    _ok(run_cli(*args))


@settings(max_examples=100 * SCALE, deadline=FUZZ_LIMIT,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from(["size", "grid", "killercage", "thermometer", "arrow",
                                        "littlekiller", "sandwichsum", "difference", "ratio",
                                        "xv", "title", "author", "diagonal+", "antiknight",
                                        "region", "line", "clone", "quadruple", "even",
                                        "betweenline", "renban", "whispers"]), values,
                       max_size=6))
def test_generated_fpuzzles_links(run_cli, data):
    import lzstring
    payload = lzstring.LZString().compressToBase64(json.dumps(data, allow_nan=True))
    _ok(run_cli("solve", f"https://www.f-puzzles.com/?load={payload}", "--timeout", "5"))


# -- the web API -------------------------------------------------------------------------

API_CALLS = ["solve", "count", "check-unique", "explain", "candidates", "hint", "steps", "board",
             "nosuch"]
WEB_ENGINES = ["native", "sat", "resolvelib", "pycosat", "nosuch", "", "sat+tuned"]
api_fields = st.fixed_dictionaries({}, optional={
    "puzzle": st.one_of(st.sampled_from([W, FOUR, W[:-1], "." * 16, "", "/etc/passwd"]),
                        st.text(max_size=90), puzzles.map(json.dumps), values),
    "rules": st.one_of(st.sampled_from(["anti-knight", "diagonal,anti-king", "nonsense", ""]),
                       values),
    "format": st.one_of(st.sampled_from(["auto", "line", "grid", "json", "specs", "nope"]),
                        values),
    "grid": st.one_of(st.sampled_from([W, FOUR, "1" * 16, "12"]), values),
    "engine": st.one_of(st.sampled_from(WEB_ENGINES), values),
    "timeout": st.one_of(st.floats(allow_nan=True, allow_infinity=True), values),
    "limit": st.one_of(st.integers(-5, 200_000), values),
    "why": st.one_of(st.sampled_from(["r1c6=4", "r1c1=1", "r10c1=4", "x=y", "r1c1=¹"]), values),
    "level": st.one_of(st.sampled_from(["nudge", "technique", "cells", "answer", "all"]),
                       values),
    "max_level": st.one_of(st.sampled_from(["Easy", "Hard", "nope"]), values),
    "smallest": values, "at_least": st.one_of(st.integers(-3, 5), values)})
# Requests mostly well formed, so that most reach a worker and an engine: a good puzzle and
# fields of the right types, each sometimes odd.
plausible = st.fixed_dictionaries(
    {"puzzle": st.sampled_from([W, FOUR, "." * 16, "1" + "." * 15, W[:5] + "4" + W[6:]])},
    optional={"rules": st.sampled_from(["anti-knight", "diagonal", "anti-king,diagonal", ""]),
              "engine": st.sampled_from(WEB_ENGINES[:4]),
              "timeout": st.one_of(st.floats(0.001, 5), st.integers(1, 5)),
              "limit": st.integers(1, 100_000), "why": st.sampled_from(["r1c6=4", "r1c1=1"]),
              "level": st.sampled_from(["nudge", "technique", "cells", "answer"]),
              "max_level": st.sampled_from(["Easy", "Medium", "Hard"]),
              "smallest": st.booleans(), "at_least": st.integers(1, 3),
              "grid": st.sampled_from([FOUR, "1" * 16, "." * 81])})
api_bodies = st.one_of(plausible.map(lambda d: json.dumps(d).encode()),
                       api_fields.map(lambda d: json.dumps(d, allow_nan=True).encode()),
                       values.map(lambda v: json.dumps(v, allow_nan=True).encode()),
                       st.binary(max_size=200))


@pytest.fixture(scope="module")
def web():
    """A client of the web application (in process), with runs bounded to 5 s."""
    from starlette.testclient import TestClient

    from polydoku.web.app import Settings, create_app
    with TestClient(create_app(Settings(workers=2, queue_wait=30, max_timeout=5)),
                    base_url="http://127.0.0.1") as client:
        yield client


@settings(max_examples=150 * SCALE, deadline=FUZZ_LIMIT,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(API_CALLS), api_bodies)
def test_generated_api_requests(web, call, body):
    r = web.post(f"/api/{call}", content=body, headers={"content-type": "application/json"})
    assert r.status_code < 500, (r.status_code, r.text)
    assert r.headers["content-type"] == "application/json"
    data = r.json()
    if r.status_code >= 400:
        assert list(data) == ["error"] and "\n" not in data["error"]
    assert "Traceback" not in r.text and "internal error" not in r.text


NUMBER_PLACES = ["1x1-is=={n}", "{n}x1-is=1", "1x{n}-is 3", '{{"givens": "{w}", "size": "{n}"}}',
                 '{{"givens": "{w}", "rules": [{{"kind": "killer", "cells": ["r1c1", "r1c2"], '
                 '"sum": "{n}"}}]}}', '{{"givens": "{w}", "box": "{n}x3"}}',
                 '<ksudoku><game><puzzle><graph order="{n}" type="sudoku"/><values>{w}'
                 '</values></puzzle></game></ksudoku>']


@settings(max_examples=30 * SCALE, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(NUMBER_PLACES), st.integers(1, 6000), st.sampled_from("0189"))
def test_generated_long_numbers(run_cli, place, digits, digit):
    _ok(run_cli("solve", place.format(n="1" + digit * digits, w=W), "--timeout", "5"))
