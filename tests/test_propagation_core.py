"""The propagation core (polydoku/core): its compiled and pure-Python halves reach the same
fixpoint on every rule kind (hypothesis over each kind's `sample()` on 4x4 and 6x6, beside the
data sets of test_core.py), and the readers of "what excludes what" (the logic layout, the
drawn candidates) say what a reading of the constraints by hand says, on the data sets, the
published variants and every kind.

The reference reading below switches on the constraint types on purpose: it is the meaning
the core's one answer must keep, written a second way.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import data_lines, data_path
from polydoku import api, core, render
from polydoku.core import binding, cells
from polydoku.errors import BadInput
from polydoku.formats import parse_line, read_puzzle
from polydoku.formats.jsonfmt import parse_json, puzzle_from_dict
from polydoku.problem import AbsDiffNot, AllDifferent, Nogood, build_problem
from polydoku.reasoning.logic.layout import layout_of
from polydoku.rules import KINDS
from test_properties import QUICK
from test_rule_kinds import instance

PUBLISHED = [json.loads(line) for line in
             (Path(__file__).parent / "data" / "variants" / "published.jsonl").read_text()
             .splitlines()]
KIND_NAMES = sorted(k for k in KINDS if k != "doppelganger")     # 0..N grids only


def reference_exclusions(problem) -> list[int]:
    """Return, per cell candidate, the cell candidates it rules out, read from the constraints
    over cells alone (all-differents, nogoods, differences)."""
    n, ncells = problem.size, problem.ncells
    out = [(((1 << n) - 1) << (i // n * n)) & ~(1 << i) for i in range(ncells * n)]

    def bar(x, a, y, b):
        if (x, a) != (y, b):
            out[x * n + a - 1] |= 1 << (y * n + b - 1)
            out[y * n + b - 1] |= 1 << (x * n + a - 1)

    for c in problem.constraints:
        if isinstance(c, AllDifferent) and all(v < ncells for v in c.vars):
            for x in c.vars:
                for y in c.vars:
                    if x != y:
                        for a in range(1, n + 1):
                            bar(x, a, y, a)
        elif isinstance(c, Nogood) and c.x < ncells and c.y < ncells:
            bar(c.x, c.a, c.y, c.b)
        elif isinstance(c, AbsDiffNot) and c.x < ncells and c.y < ncells:
            for a in range(1, n + 1):
                for b in (a - c.d, a + c.d):
                    if 1 <= b <= n:
                        bar(c.x, a, c.y, b)
    return out


def kind_puzzle(kind: str, size: int, seed: int):
    """Return an empty size x size puzzle with one sampled rule of `kind` (the kind's own
    `sample()`, else on 4x4 test_rule_kinds' instance), None when neither gives one."""
    rng = random.Random(seed)
    data = KINDS[kind].sample(rng, size)
    if data is None and size == 4:
        data = instance(kind, rng)
    if data is None:
        return None
    if isinstance(data, dict) and "kind" not in data:
        data = dict(kind=kind, **data)
    return parse_json(json.dumps({"size": size, "givens": "." * size * size, "rules": [data]}))


def readers_agree(puzzle) -> None:
    problem = build_problem(puzzle)
    ref = reference_exclusions(problem)
    assert list(core.exclusions(problem)) == ref
    assert list(layout_of(problem).conflicts) == ref
    n = problem.size
    gone = 0
    for i, v in enumerate(puzzle.givens):
        if v:
            gone |= ref[i * n + v - 1]
    drawn = render.candidates_for(puzzle)
    for i, v in enumerate(puzzle.givens):
        want = {v} if v else {w for w in range(1, n + 1) if not gone >> (i * n + w - 1) & 1}
        assert drawn[i] == want, (i, drawn[i], want)


@pytest.fixture
def compiled():
    if binding.module() is None:
        if os.environ.get("CI"):
            pytest.fail("the compiled core was not built (CI builds it from deps/debian.txt)")
        pytest.skip("the compiled core was not built here")
    return binding.module()


@QUICK
@given(st.sampled_from(KIND_NAMES), st.sampled_from([4, 6]), st.integers(0, 10 ** 9))
def test_compiled_and_python_propagation_agree_on_every_kind(kind, size, seed):
    if binding.module() is None:
        pytest.skip("the compiled core was not built here")
    puzzle = kind_puzzle(kind, size, seed)
    if puzzle is None:
        return
    problem = build_problem(puzzle)
    start = core.domains(problem)
    if start is None:
        return
    C = core.compile_problem(problem)
    rng = random.Random(seed)
    open_vars = [v for v in range(problem.nvars) if start[v] & (start[v] - 1)]
    for _ in range(6):
        if not open_vars:
            return
        v = rng.choice(open_vars)
        fast, slow = start[:], start[:]
        fast[v] = slow[v] = rng.choice([1 << k for k in range(64) if start[v] >> k & 1])
        ok_fast = core.propagate(fast, [v], C)
        ok_slow = cells._propagate_python(slow, [v], C)
        assert ok_fast == ok_slow, (kind, size, seed)
        if ok_fast:
            assert fast == slow, (kind, size, seed)


@QUICK
@given(st.sampled_from(KIND_NAMES), st.sampled_from([4, 6]), st.integers(0, 10 ** 9))
def test_the_readers_exclude_what_the_constraints_say_on_every_kind(kind, size, seed):
    puzzle = kind_puzzle(kind, size, seed)
    if puzzle is not None:
        readers_agree(puzzle)


@pytest.mark.parametrize("source", ["norvig_top95", "magictour_top1465", "variants"])
def test_the_readers_exclude_what_the_constraints_say_on_the_data_sets(source):
    if source == "variants":
        puzzles = [puzzle_from_dict(e["puzzle"]) for e in PUBLISHED]
    else:
        puzzles = [parse_line(line) for line in data_lines(f"{source}.txt", limit=10)]
    for puzzle in puzzles:
        readers_agree(puzzle)


def test_domains_with_givens_are_those_of_the_problem_given_them():
    problem = build_problem(parse_line(data_lines("norvig_top95.txt", limit=1)[0]))
    bare = problem.with_givens(())
    assert core.domains(bare, problem.givens) == core.domains(problem)
    clash = ((0, 1), (1, 1))                       # one value twice in a row
    assert core.domains(bare, clash) is None


def fixpoints(problem, givens) -> list[tuple]:
    """Return the search's fixpoint and the reading's (`propagate`'s) with `givens` placed,
    as the compiled core reaches them and as its pure-Python twin does (the field view the
    fallback search runs on, and `_propagate_python`)."""
    C = core.compile_problem(problem)
    out = []
    for module in (binding._compiled, None):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(binding, "_compiled", module)
            out.append((cells.search_fixpoint(problem, C, givens),
                        cells.reading_fixpoint(problem, C, givens)))
    return out


def fixpoints_agree(puzzle, seed: int, tries: int = 3) -> None:
    """Hold the two fixpoints equal on the puzzle's givens and on a few positions with more
    cells placed (random candidates of the first fixpoint, as a search would place them)."""
    try:
        problem = build_problem(puzzle)
    except BadInput:                # a clue polydoku bounds (a loop of too many fillings)
        return
    givens = list(problem.givens)
    fast, slow = fixpoints(problem, givens)
    assert fast == slow
    rng = random.Random(seed)
    for _ in range(tries):
        cands = fast[0]
        if cands is None:
            return
        open_cells = [v for v in range(problem.ncells) if cands[v] & (cands[v] - 1)]
        if not open_cells:
            return
        v = rng.choice(open_cells)
        givens.append((v, rng.choice([k + 1 for k in range(64) if cands[v] >> k & 1])))
        fast, slow = fixpoints(problem, givens)
        assert fast == slow, givens


@QUICK
@given(st.sampled_from(KIND_NAMES), st.sampled_from([4, 6, 9]), st.integers(0, 10 ** 9))
def test_the_fixpoints_are_the_same_compiled_and_in_python_on_every_kind(kind, size,
                                                                              seed):
    if binding.module() is None:
        pytest.skip("the compiled core was not built here")
    puzzle = kind_puzzle(kind, size, seed)
    if puzzle is not None:
        fixpoints_agree(puzzle, seed)


def variant_sets() -> list[str]:
    """Return the variant puzzle files the fixpoints are compared on."""
    here = Path(__file__).parent / "data" / "variants"
    return sorted(p.name for p in here.glob("*.jsonl")) + ["shared", "iss_collection"]


@pytest.mark.parametrize("source", variant_sets())
def test_the_fixpoints_are_the_same_compiled_and_in_python_on_the_variant_sets(source,
                                                                                    compiled):
    # core.domains (the readers' candidates) and the generator's test of singles read these
    # fixpoints: the compiled core's where it runs, the twin's where it does not, so both
    # must say the same everywhere
    if source == "iss_collection":
        puzzles = []
        for line in (Path(__file__).parent / "data" / "iss_collection.jsonl").read_text() \
                .splitlines():
            try:
                puzzles.append(read_puzzle(json.loads(line)["input"]))
            except BadInput:
                continue
    else:
        path = (data_path("variants/variants.jsonl") if source == "shared"
                else Path(__file__).parent / "data" / "variants" / source)
        puzzles = [puzzle_from_dict(d.get("puzzle", d))
                   for d in map(json.loads, path.read_text().splitlines())]
    assert len(puzzles) > 5
    for k, puzzle in enumerate(puzzles):
        fixpoints_agree(puzzle, k, tries=1)


def test_a_cell_that_is_the_only_place_of_two_values_is_a_contradiction(compiled):
    """ISS's "0-indexed: Windoku" (here from 1) with r5c5 = 4: the window of r2c2..r4c4 keeps
    2 and 7 only in r4c3, whose candidates are just those two. The compiled core's hidden
    singles took a cell already down to its unique values as settled; the twin finds the
    clash, as SAT does (no grid)."""
    puzzle = read_puzzle(".Windoku.~R2C6_5~R2C8_1~R3C5_2~R3C9_6~R4C7_4~R5C3_5~R5C7_6~R6C2_8"
                         "~R6C6_7~R6C7_3~R7C4_2~R7C5_1~R7C6_4~R8C2_7~R8C9_2~R9C3_6~R9C8_4")
    problem = build_problem(puzzle)
    (fast, _), (slow, _) = fixpoints(problem, [*problem.givens, (40, 4)])
    assert fast is None and slow is None
    assert api.count(puzzle.with_givens(tuple(4 if i == 40 else v
                                              for i, v in enumerate(puzzle.givens))),
                     api.get_engine("sat"), limit=1).solutions == []
