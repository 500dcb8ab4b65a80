"""Every rule kind: its lowering keeps exactly the grids its statement accepts, on every engine
family, checked against brute force over all 288 4x4 grids (and box-less 5x5 cases).

The statement (`violations`) is the independent truth; each engine solves the lowered problem.
Random instances come from Hypothesis; each kind also has a fixed instance so a failure
names the kind.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import need_engine
from polydoku import api
from polydoku.engines.native import search
from polydoku.errors import BadInput
from polydoku.formats.jsonfmt import parse_json, puzzle_to_dict
from polydoku.model import Puzzle
from polydoku.rules import rule_from_data
from polydoku.problem import build_problem, lower
from polydoku.rules import KINDS
from polydoku.verify import is_solution

N = 4


def name(r: int, c: int) -> str:
    return f"r{r + 1}c{c + 1}"


def walk(rng: random.Random, length: int, n: int = N) -> list[str]:
    """Return a random king-move walk of distinct cells."""
    for _ in range(50):
        r, c = rng.randrange(n), rng.randrange(n)
        path = [(r, c)]
        while len(path) < length:
            steps = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                     if (dr or dc) and 0 <= r + dr < n and 0 <= c + dc < n
                     and (r + dr, c + dc) not in path]
            if not steps:
                break
            r, c = rng.choice(steps)
            path.append((r, c))
        if len(path) == length:
            return [name(*p) for p in path]
    return [name(0, 0), name(0, 1)]


def pair(rng: random.Random, n: int = N) -> list[str]:
    """Return two orthogonally adjacent cells."""
    r, c = rng.randrange(n - 1), rng.randrange(n - 1)
    return [name(r, c), name(r, c + 1)] if rng.random() < 0.5 else [name(r, c), name(r + 1, c)]


def cells(rng: random.Random, k: int, n: int = N) -> list[str]:
    return [name(*divmod(i, n)) for i in rng.sample(range(n * n), k)]


def instance(kind: str, rng: random.Random) -> str | dict:
    """Return a random valid rule of `kind` on a 4x4 grid."""
    side = rng.choice(["top", "bottom", "left", "right"])
    make = {
        "extra-region": lambda: {"cells": cells(rng, rng.randint(2, 4))},
        "even": lambda: {"cells": cells(rng, rng.randint(1, 3))},
        "odd": lambda: {"cells": cells(rng, rng.randint(1, 3))},
        "minimum": lambda: {"cells": rng.choice([cells(rng, 1), pair(rng), cells(rng, 2)])},
        "maximum": lambda: {"cells": rng.choice([cells(rng, 1), pair(rng), cells(rng, 2)])},
        "killer": lambda: {"cells": walk(rng, rng.randint(2, 4)), "sum": rng.randint(3, 10)},
        "kropki-white": lambda: {"cells": pair(rng)},
        "kropki-black": lambda: {"cells": pair(rng)},
        "xv": lambda: {"cells": pair(rng), "sum": rng.choice([5, 10, 4, 6])},
        "thermometer": lambda: {"cells": walk(rng, rng.randint(2, 4))},
        "slow-thermometer": lambda: {"cells": walk(rng, rng.randint(2, 5))},
        "whispers": lambda: {"cells": walk(rng, rng.randint(2, 4)), "difference": rng.randint(1, 2)},
        "palindrome": lambda: {"cells": walk(rng, rng.randint(2, 5))},
        "renban": lambda: {"cells": walk(rng, rng.randint(2, 4))},
        "between": lambda: {"cells": walk(rng, rng.randint(2, 4))},
        "entropic": lambda: None,
        "modular": lambda: {"cells": walk(rng, rng.randint(2, 5))},
        "parity": lambda: {"cells": walk(rng, rng.randint(2, 5))},
        "zipper": lambda: {"cells": walk(rng, rng.randint(2, 5))},
        "region-sum": lambda: {"cells": walk(rng, rng.randint(2, 5))},
        "arrow": lambda: (lambda w: {"circle": w[:1], "cells": w[1:]})(walk(rng, rng.randint(2, 4))),
        "clone": lambda: (lambda a, b: {"cells": a, "copy": b})(*[cells(rng, 2)] * 1,
                                                                   cells(rng, 2)),
        "quadruple": lambda: (lambda r, c: {"cells": [name(r, c), name(r, c + 1), name(r + 1, c),
                                                      name(r + 1, c + 1)],
                                            "values": sorted(rng.choices(range(1, 5),
                                                                         k=rng.randint(1, 3)))})(
            rng.randrange(N - 1), rng.randrange(N - 1)),
        "column-index": lambda: {"cells": cells(rng, rng.randint(1, 3))},
        "row-index": lambda: {"cells": cells(rng, rng.randint(1, 3))},
        "little-killer": lambda: {"cell": cells(rng, 1)[0], "direction": rng.choice(["UL", "UR", "DL", "DR"]),
                                  "sum": rng.randint(1, 12)},
        "sandwich": lambda: {"side": side, "index": rng.randint(1, N), "sum": rng.randint(0, 5)},
        "x-sum": lambda: {"side": side, "index": rng.randint(1, N), "sum": rng.randint(1, 10)},
        "skyscraper": lambda: {"side": side, "index": rng.randint(1, N), "count": rng.randint(1, 4)},
        "greater-than": lambda: {"cells": pair(rng)},
        "lockout": lambda: {"cells": walk(rng, rng.randint(2, 4)), "difference": rng.randint(1, 2)},
        "double-arrow": lambda: {"cells": walk(rng, rng.randint(3, 4))},
        "sum-line": lambda: (lambda w: {"cells": w, "sum": rng.randint(1, 10),
                                        "loop": len(w) > 1 and rng.random() < 0.5})(
            walk(rng, rng.randint(1, 5))),
        "numbered-room": lambda: {"side": side, "index": rng.randint(1, N),
                                  "value": rng.randint(1, N)},
    }
    if kind not in make:
        return KINDS[kind].sample(rng, N)
    if KINDS[kind].is_global:
        return kind
    data = make[kind]()
    return None if data is None else dict(kind=kind, **data)


@lru_cache(maxsize=1)
def all_grids() -> tuple[tuple[int, ...], ...]:
    """Return every valid 4x4 grid (classic rules)."""
    out = api.count(Puzzle.empty(N), limit=1000)
    assert out.exhausted and out.count == 288
    return tuple(out.solutions)


def puzzle_with(rules: list) -> Puzzle:
    return parse_json(json.dumps({"size": N, "givens": "." * N * N, "rules": rules}))


def truth(puzzle: Puzzle) -> set[tuple[int, ...]]:
    return {g for g in all_grids() if is_solution(puzzle, g)}


def solutions(puzzle: Puzzle, engine: str) -> set[tuple[int, ...]]:
    out = api.count(puzzle, engine, limit=1000, timeout=60)
    assert out.exhausted, (engine, out.message)
    return set(out.solutions)


# doppelganger holds on grids of 0..N only: tests/test_more_values.py checks it on a 4x4 of 0..4
KIND_NAMES = sorted(k for k in KINDS if k not in ("entropic", "doppelganger"))


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_native_and_its_lowering_keep_exactly_the_grids_the_statement_accepts(kind):
    rng = random.Random(kind)
    for _ in range(4):
        rules = [instance(kind, rng)]
        if kind in ("kropki-negative", "xv-negative"):
            rules += [{"kind": "kropki-white" if kind[0] == "k" else "xv", "cells": pair(rng),
                       **({} if kind[0] == "k" else {"sum": 5})}]
        puzzle = puzzle_with(rules)
        expected = truth(puzzle)
        assert solutions(puzzle, "native") == expected, rules
        problem = build_problem(puzzle)
        low = lower(problem, ())             # no arithmetic, no AllDifferent: nogoods and tables
        got = {low.grid(s) for s in search(low, 1000).solutions}
        assert got == expected, rules


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(KIND_NAMES), min_size=1, max_size=3), st.integers(0, 10 ** 9))
def test_random_rule_mixes_agree_with_brute_force_on_native(kinds, seed):
    rng = random.Random(seed)
    rules = [r for r in (instance(k, rng) for k in kinds) if r is not None]
    puzzle = puzzle_with(rules)
    assert solutions(puzzle, "native") == truth(puzzle)


@pytest.mark.parametrize("engine", ["sat", "pycosat", "cpsat", "z3", "clingo"])
def test_every_kind_agrees_with_brute_force_on_each_solver_family(engine):
    need_engine(engine)
    rng = random.Random(engine)
    for kind in KIND_NAMES:
        rules = [instance(kind, rng)]
        puzzle = puzzle_with(rules)
        assert solutions(puzzle, engine) == truth(puzzle), (engine, rules)


@pytest.mark.engine("minizinc")
def test_minizinc_takes_sums_tables_and_auxiliaries():
    need_engine("minizinc")
    rng = random.Random(7)
    for kind in ("killer", "arrow", "sandwich", "skyscraper", "quadruple", "renban", "between"):
        puzzle = puzzle_with([instance(kind, rng)])
        assert solutions(puzzle, "minizinc") == truth(puzzle), kind


def test_entropic_lines_on_a_six_by_six():
    data = {"size": 6, "givens": "1....." + "." * 30,
            "rules": [{"kind": "entropic", "cells": ["r1c1", "r1c2", "r1c3", "r2c3"]}]}
    puzzle = parse_json(json.dumps(data))
    out = api.count(puzzle, limit=5)
    assert out.count == 5
    for grid in out.solutions:
        thirds = [(grid[i] - 1) * 3 // 6 for i in (0, 1, 2, 8)]
        assert len(set(thirds[:3])) == 3 and len(set(thirds[1:])) == 3


def test_box_less_and_irregular_grids():
    latin = parse_json(json.dumps({"size": 5, "box": "none", "givens": "." * 25}))
    assert latin.geometry.has_boxes is False
    out = api.count(latin.with_givens([1, 2, 3, 4, 5] + [0] * 20), limit=10_000)
    assert out.exhausted and out.count == 1344   # 161,280 latin squares of order 5, over 5!
    jigsaw = parse_json(json.dumps({"size": 5, "givens": "." * 25,
                                    "regions": "AAABB" "AABBB" "CCCDD" "CCEDD" "EEEED"}))
    assert [len(r) for r in jigsaw.geometry.boxes] == [5] * 5
    grid = api.solve(jigsaw).solutions[0]
    assert is_solution(jigsaw, grid)
    for region in jigsaw.geometry.boxes:
        assert sorted(grid[i] for i in region) == [1, 2, 3, 4, 5]
    assert puzzle_to_dict(jigsaw)["regions"][0][0] == "r1c1"


@pytest.mark.parametrize("kind", KIND_NAMES + ["entropic"])
def test_rules_round_trip_through_json(kind):
    rng = random.Random(kind + "json")
    data = instance(kind, rng) if kind != "entropic" else {"kind": "entropic", "cells": ["r1c1", "r1c2"]}
    size = 6 if kind == "entropic" else N
    puzzle = parse_json(json.dumps({"size": size, "givens": "." * size * size, "rules": [data]}))
    again = parse_json(json.dumps(puzzle_to_dict(puzzle)))
    assert again.rules == puzzle.rules


@pytest.mark.parametrize("data, words", [
    ({"kind": "killer", "cells": ["r1c1", "r9c9"], "sum": 3}, "outside"),
    ({"kind": "killer", "cells": "r1c1", "sum": 3}, "field \"cells\" must be a list"),
    ({"kind": "killer", "cells": ["r1c1"], "sum": "x"}, "field \"sum\" must be an integer"),
    ({"kind": "killer", "cells": ["r1c1"], "sum": 10 ** 400}, "huge"),
    ({"kind": "thermometer", "cells": ["r1c1", "r1c1"]}, "twice"),
    ({"kind": "kropki-white", "cells": ["r1c1", "r2c2"]}, "do not share a side"),
    ({"kind": "sandwich", "side": "middle", "index": 1, "sum": 3}, "field \"side\""),
    ({"kind": "arrow", "circle": ["r1c1"], "cells": ["r1c1"]}, "overlaps"),
    ({"kind": "quadruple", "cells": ["r1c1", "r1c2", "r2c1", "r3c3"], "values": [1]}, "2x2"),
    ({"kind": "teleport", "cells": ["r1c1"]}, "unknown kind"),
    ({"cells": ["r1c1"]}, "field \"kind\""),
    (["killer"], "expected a kind name or an object"),
    ("killer", "needs parameters"),
])
def test_bad_rules_name_the_rule_and_the_field(data, words):
    puzzle = {"size": 4, "givens": "." * 16, "rules": [data]}
    with pytest.raises(BadInput) as err:
        parse_json(json.dumps(puzzle))
    assert words in str(err.value)
    assert str(err.value).startswith("rule 1")
    assert "\n" not in str(err.value)


def test_bad_rule_in_a_file_is_exit_2_with_its_line_and_the_rest_solved(run_cli, tmp_path):
    good = {"size": 4, "givens": "1...............", "rules": [
        {"kind": "killer", "cells": ["r1c2", "r2c2"], "sum": 7}]}
    bad = dict(good, rules=[{"kind": "killer", "cells": ["r1c2"], "sum": []}])
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in (good, bad, good)) + "\n")
    result = run_cli("solve", str(path))
    assert result.code == 2
    assert "line 2" in result.err and "rule 1 (killer)" in result.err
    assert len([ln for ln in result.err.splitlines() if "rule" in ln]) == 1
    assert [ln != "error" for ln in result.out.splitlines()] == [True, False, True]


def test_engines_that_cannot_take_a_kind_refuse_it_by_name(run_cli, tmp_path):
    puzzle = json.dumps({"size": 4, "givens": "1...............", "rules": [
        {"kind": "killer", "cells": ["r1c2", "r2c2"], "sum": 7}]})
    result = run_cli("export", puzzle, "--to", "alloy", "--out", str(tmp_path / "x"))
    assert result.code == 2
    assert "engine 'alloy' cannot take killer" in result.err
    assert not (tmp_path / "x" / "puzzle.als").exists()
    from polydoku.engines import make_engine
    problem = build_problem(parse_json(puzzle))
    assert "cannot take killer" in make_engine("alloy").refusal(problem)
    assert make_engine("cpsat").refusal(problem) is None


def test_global_rules_still_come_from_the_rules_option():
    from polydoku.rules import parse_rules
    assert [r.kind for r in parse_rules("anti-knight, windoku,diagonal+")] == [
        "anti-knight", "windoku", "diagonal-anti"]
    with pytest.raises(BadInput, match="needs parameters"):
        parse_rules("killer")
    rule = rule_from_data({"kind": "kropki-negative", "dots": ["white"]},
                          Puzzle.empty(4).geometry)
    assert rule.to_data() == {"kind": "kropki-negative", "dots": ["white"]}


def test_docs_show_one_valid_example_of_every_kind():
    import re
    from conftest import ROOT
    text = (ROOT / "docs" / "rules.md").read_text()
    examples = [json.loads(m) for m in re.findall(r"`(\{\"kind\": \"[^`]*\})`", text)]
    shown = {e["kind"] for e in examples}
    described = re.sub(r"<!-- names: begin -->.*<!-- names: end -->", "", text, flags=re.S)
    globals_ = {k for k in re.findall(r"^\| `([a-z-]+)` \|", described, re.M)
                if k in KINDS and KINDS[k].is_global}
    for data in examples:
        parse_json(json.dumps({"givens": "." * 81, "rules": [data]}))
    missing = set(KINDS) - shown - globals_
    assert not missing, f"docs/rules.md lacks an example of {sorted(missing)}"


def test_explain_names_the_clues_of_a_conflict_and_each_is_needed():
    from polydoku.reasoning.explain import explain
    cage = {"kind": "killer", "cells": ["r1c1", "r1c2"], "sum": 3}        # r1c1 is 1 or 2
    thermo = {"kind": "thermometer", "cells": ["r1c3", "r1c1"]}         # r1c3 < r1c1: 1 < 2,
    given = "...4............"                                           # but the 1 is taken
    bystander = {"kind": "killer", "cells": ["r4c3", "r4c4"], "sum": 7}
    puzzle = parse_json(json.dumps({"size": 4, "givens": given, "rules": [bystander, cage, thermo]}))
    e = explain(puzzle)
    assert e.status.value == "unsatisfiable" and e.is_minimal
    assert sorted(r.to_data()["kind"] for r in e.clues) == ["killer", "thermometer"]
    assert bystander not in [r.to_data() for r in e.clues]
    assert e.givens == ()                        # the clues alone clash: the given is no part
    kept = dict(e.givens)
    for clue in e.clues:                         # each clue is needed: without it, solvable
        rest = tuple(r for r in e.clues if r != clue)
        reduced = puzzle.with_rules(rest).with_givens(
            [kept.get(i, 0) for i in range(len(puzzle.givens))])
        assert api.solve(reduced).status.value == "solved"


def test_explain_cli_lists_the_clues(run_cli):
    puzzle = json.dumps({"size": 4, "givens": "...4............", "rules": [
        {"kind": "killer", "cells": ["r1c1", "r1c2"], "sum": 3},
        {"kind": "thermometer", "cells": ["r1c3", "r1c1"]}]})
    result = run_cli("explain", puzzle)
    assert result.code == 1
    assert "these 2 clues" in result.out and "cage (3) at r1c1..r1c2" in result.out


VARIANT_4X4 = {"size": 4, "givens": "................", "rules": [   # one solution
    {"kind": "killer", "cells": ["r1c2", "r2c2"], "sum": 7},
    {"kind": "thermometer", "cells": ["r1c3", "r2c2"]},
    {"kind": "sandwich", "side": "left", "index": 2, "sum": 3},
    {"kind": "arrow", "circle": ["r4c1"], "cells": ["r4c2", "r3c3"]}]}


@pytest.mark.parametrize("engine", ["libsolv-deb", "libsolv-deb+tuned", "aspcud", "dose",
                                    "aptitude+tuned", "libsolv-conda", "rattler+tuned",
                                    "resolvelib+tuned", "uv+tuned", "pip+tuned", "composer",
                                    "composer+tuned", "cargo", "cargo+tuned", "dnf", "dnf+tuned",
                                    "opam+tuned", "0install", "0install+tuned"])
def test_package_managers_solve_variant_rules(engine):
    need_engine(engine.split("+")[0])
    puzzle = parse_json(json.dumps(VARIANT_4X4))
    expected = truth(puzzle)
    assert len(expected) == 1
    out = api.solve(puzzle, engine, timeout=120)
    assert out.status.value == "solved", out.message
    assert set(out.solutions) == expected


def test_every_engine_refuses_an_unknown_option_by_name():
    from polydoku.engines.registry import ENGINE_IDS, make_engine
    for engine_id in ENGINE_IDS:
        with pytest.raises(BadInput, match="no option 'bogus'"):
            make_engine(engine_id, options={"bogus": "1"})


@pytest.mark.parametrize("engine", ["native", "sat", "cpsat", "z3", "clingo"])
def test_a_sum_line_loop_cut_two_ways_is_one_grid(engine):
    # 2, 3, 2, 3 around a loop makes runs of 5 either as 2+3 or as 3+2: one grid, counted once
    need_engine(engine)
    puzzle = puzzle_with([{"kind": "sum-line", "cells": ["r1c2", "r1c3", "r2c3", "r2c2"],
                           "sum": 5, "loop": True}])
    assert (2, 3, 2, 3) in [tuple(g[i] for i in (1, 2, 6, 5)) for g in truth(puzzle)]
    assert solutions(puzzle, engine) == truth(puzzle)


def test_docs_name_every_kind_in_the_other_formats():
    from conftest import ROOT
    from polydoku.formats.names import kind_names, names_table
    text = (ROOT / "docs" / "rules.md").read_text()
    shown = text.split("<!-- names: begin -->\n", 1)[1].split("<!-- names: end -->", 1)[0]
    assert shown == names_table(), "docs/rules.md's names are stale: run python3 tasks.py docs"
    names = kind_names()
    assert set(names) == set(KINDS)
    assert "killercage" in names["killer"]["fpuzzles"] and "Cage" in names["killer"]["iss"]
    assert names["counting-circles"]["iss"] == ["CountingCircles"]
