"""Explanations: conflicts are unsatisfiable and subset-minimal, checked by an independent solver
(tests/test_explain_checker.py) and, where it is registered, by the SAT engine."""

from __future__ import annotations

import pytest

from conftest import EXAMPLES, data_lines, need_engine
from polydoku import api
from polydoku.engines import Status
from polydoku.formats.read import read_puzzle
from polydoku.model import Puzzle
from polydoku.rules import parse_rules
from polydoku.reasoning.explain import explain
from polydoku.verify import is_solution
from test_explain_checker import Checker, givens_of

CONDA = ["r4c5=6", "r5c1=4", "r6c5=2", "r8c4=4"]


def names(puzzle: Puzzle, literals) -> list[str]:
    return [f"r{v // puzzle.size + 1}c{v % puzzle.size + 1}={x}" for v, x in literals]


def with_only(puzzle: Puzzle, literals) -> Puzzle:
    """Return the puzzle with exactly these givens."""
    values = [0] * puzzle.geometry.ncells
    for var, value in literals:
        values[var] = value
    return puzzle.with_givens(values)


def assert_minimal_conflict(puzzle: Puzzle, e, extra=()) -> None:
    """The conflict (plus `extra`) has no solution; without any one given it has one."""
    assert e.status is Status.UNSATISFIABLE and e.is_minimal and e.givens
    checker = Checker(puzzle)
    literals = list(extra) + list(e.givens)
    assert not checker.has_solution(literals), "the conflict has a solution"
    for g in e.givens:
        rest = [x for x in literals if x != g]
        assert is_solution(with_only(puzzle, rest), e.witnesses[g]), f"bad witness for {g}"
        assert checker.has_solution(rest), f"{g} is not needed"


def unsat_tdoku() -> list[str]:
    return [ln.split(":")[0] for ln in data_lines("tdoku_test_puzzles_counts.txt")
            if ln.split(":")[1] == "0"]


def test_conda_example_reproduces():
    puzzle = read_puzzle(str(EXAMPLES / "wikipedia.txt"))
    why = (5, 4)                                   # r1c6=4
    e = explain(puzzle, why=why)
    assert_minimal_conflict(puzzle, e, extra=[why])
    assert e.assumption == why and not e.puzzle_unsolvable
    found = names(puzzle, e.givens)
    print(f"conda example: r1c6=4 is refuted by {', '.join(found)}")
    assert found == CONDA
    assert e.by_propagation and e.classic_suffices and not e.needed_rules


def test_ten_unsolvable_tdoku_puzzles_minimal_conflicts():
    puzzles = unsat_tdoku()
    assert len(puzzles) == 10
    sizes = []
    for text in puzzles:
        p = read_puzzle(text)
        e = explain(p)
        assert_minimal_conflict(p, e)
        assert set(e.givens) <= set(givens_of(p))
        sizes.append(len(e.givens))
    print(f"tdoku conflicts: {sizes} givens")


def test_conflicts_unsat_for_the_sat_engine_too():
    sat = need_engine("sat")
    for text in unsat_tdoku()[:3]:
        p = read_puzzle(text)
        e = explain(p)
        assert api.solve(with_only(p, e.givens), sat).status is Status.UNSATISFIABLE


def test_core_engine_gives_a_minimal_conflict_too():
    sat = need_engine("sat")
    puzzle = read_puzzle(str(EXAMPLES / "wikipedia.txt"))
    e = explain(puzzle, why=(5, 4), engine=sat)
    assert_minimal_conflict(puzzle, e, extra=[(5, 4)])
    p = read_puzzle(unsat_tdoku()[0])
    assert_minimal_conflict(p, explain(p, engine=sat))


def test_quickxplain_and_smallest():
    puzzle = read_puzzle(str(EXAMPLES / "wikipedia.txt"))
    qx = explain(puzzle, why=(5, 4), method="quickxplain")
    assert_minimal_conflict(puzzle, qx, extra=[(5, 4)])
    # starting from QuickXplain's conflict, the hitting-set search still finds a 4-given one
    e = explain(puzzle, why=(5, 4), method="quickxplain", smallest=True)
    assert_minimal_conflict(puzzle, e, extra=[(5, 4)])
    assert e.smallest.is_proved and e.smallest.lower_bound == len(e.givens) == 4
    assert len(e.givens) <= len(qx.givens)


def test_smallest_out_of_budget_keeps_a_minimal_conflict():
    p = read_puzzle(unsat_tdoku()[1])
    e = explain(p, smallest=True, smallest_budget=0.001)
    assert_minimal_conflict(p, e)
    assert not e.smallest.is_proved and "gave up" in e.smallest.message
    assert e.smallest.lower_bound <= len(e.givens)


def test_solvable_puzzles_say_so():
    wiki = read_puzzle(str(EXAMPLES / "wikipedia.txt"))
    e = explain(wiki)
    assert e.status is Status.SOLVED and e.exhausted and len(e.solutions) == 1
    several = read_puzzle(data_lines("serg_benchmark.txt", limit=1)[0])
    e = explain(several)
    assert e.status is Status.SOLVED and len(e.solutions) == 2 and not e.exhausted


def test_why_possible_value_gives_a_solution_with_it():
    wiki = read_puzzle(str(EXAMPLES / "wikipedia.txt"))
    e = explain(wiki, why=(5, 8))
    assert e.status is Status.SOLVED and e.solutions[0][5] == 8
    assert is_solution(wiki, e.solutions[0])


def test_why_against_a_given_names_that_given():
    wiki = read_puzzle(str(EXAMPLES / "wikipedia.txt"))
    e = explain(wiki, why=(0, 1))                  # r1c1 is given as 5
    assert e.status is Status.UNSATISFIABLE and names(wiki, e.givens) == ["r1c1=5"]


def test_why_on_an_unsolvable_puzzle_explains_the_puzzle():
    p = read_puzzle(unsat_tdoku()[2])
    empty = next(i for i, v in enumerate(p.givens) if not v)
    e = explain(p, why=(empty, 1))
    assert e.puzzle_unsolvable and e.assumption is None
    assert_minimal_conflict(p, e)


@pytest.mark.parametrize("size, rules, givens, needed, classic", [
    (8, "anti-knight,diagonal", {(0, 0): 1, (2, 1): 1}, ("anti-knight",), False),
    (6, "non-consecutive", {(0, 0): 1, (0, 1): 2}, ("non-consecutive",), False),
    (6, "anti-king", {(0, 0): 1, (0, 3): 1}, (), True),
    (4, "anti-king", {}, ("anti-king",), False),     # no 4x4 grid keeps kings apart
])
def test_variant_rules_named_when_needed(size, rules, givens, needed, classic):
    p = Puzzle.empty(size, parse_rules(rules))
    p = p.with_givens([givens.get(divmod(i, size), 0) for i in range(size * size)])
    e = explain(p)
    assert e.status is Status.UNSATISFIABLE and e.is_minimal
    assert not Checker(p).has_solution(list(e.givens))
    if givens:
        assert_minimal_conflict(p, e)
    else:
        assert e.givens == ()
    assert e.needed_rules == needed and e.classic_suffices is classic


def test_variant_puzzle_with_a_wrong_given():
    import json
    from polydoku.formats.jsonfmt import parse_json
    line = next(ln for ln in data_lines("variants/variants.jsonl")
                if json.loads(ln)["id"] == "ctc-anti-knight")
    p = parse_json(line)
    solution = json.loads(line)["solution"]
    k = next(i for i, v in enumerate(p.givens) if not v)
    wrong = next(v for v in range(1, 10) if v != int(solution[k]))
    e = explain(p, why=(k, wrong))
    assert_minimal_conflict(p, e, extra=[(k, wrong)])


def test_gave_up_is_unknown():
    p = read_puzzle(unsat_tdoku()[0])
    e = explain(p, timeout=1e-9)
    assert e.status is Status.UNKNOWN and e.message


def test_16x16_uses_quickxplain_and_symbols():
    import json
    from polydoku.jsonout import literal_name
    from polydoku.reasoning.explain import parse_why
    from polydoku.formats.jsonfmt import parse_json
    line = next(ln for ln in data_lines("variants/variants.jsonl")
                if json.loads(ln)["id"] == "joon-16x16")
    p = parse_json(line)
    solution = json.loads(line)["solution"]
    k = next(i for i, v in enumerate(p.givens) if not v)
    peers = {p.givens[j] for j in p.geometry.peers[k]}
    wrong = next(v for v in range(1, 17) if v not in peers and p.symbol(v) != solution[k])
    why = parse_why(literal_name(p, (k, wrong)), p)
    assert why == (k, wrong)
    e = explain(p, why=why)
    assert e.stats["method"] == "quickxplain"
    assert_minimal_conflict(p, e, extra=[why])


def test_givens_that_clash_outright_are_the_answer():
    wiki = read_puzzle(str(EXAMPLES / "wikipedia.txt"))
    twice = wiki.with_givens((5,) + wiki.givens[1:]).with_given((0, 1), 5)   # r1c1=r1c2=5
    e = explain(twice)
    assert names(twice, e.givens) == ["r1c1=5", "r1c2=5"]
    assert_minimal_conflict(twice, e)
    e = explain(wiki, why=(2, 5))                  # r1c3=5, but r1c1 is 5
    assert names(wiki, e.givens) == ["r1c1=5"]
    assert_minimal_conflict(wiki, e, extra=[(2, 5)])
