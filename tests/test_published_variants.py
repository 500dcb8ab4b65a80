"""Published variant puzzles (tests/data/variants, with their sources): each is solved to its
published solution and proved unique, by native and by the sat and cpsat engines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import need_engine
from polydoku import api
from polydoku.formats.jsonfmt import puzzle_from_dict

PUBLISHED = [json.loads(line) for line in
             (Path(__file__).parent / "data" / "variants" / "published.jsonl").read_text().splitlines()]
# puzzles the variant techniques were not built on (SOURCES.md): measured, and held to the truth
def _read(name: str) -> list[dict]:
    return [json.loads(line) for line in
            (Path(__file__).parent / "data" / "variants" / name).read_text().splitlines()]


HELD_OUT = _read("held_out.jsonl")
# a second held-out set: f-puzzles files, read by polydoku's f-puzzles reader (SOURCES.md)
HELD_OUT_2 = _read("held_out_2.jsonl")
# a third: the collection's puzzles of the rule kinds added after the second was measured
HELD_OUT_3 = _read("held_out_3.jsonl")
# a fourth: f-puzzles links of published puzzles, from another solver's tests
HELD_OUT_4 = _read("held_out_4.jsonl")
# the pure-Python search needs from 3 s to over a minute on these (sums and auxiliaries); the
# compiled core solves them in under 3 s each, in test_core.py
NATIVE_SLOW = {"leven", "the-zip-that-zips-the-zips", "raw-spaghetti", "arrow", "pill-arrow-sudoku",
               "quadruple-x", "little-killer-sudoku", "the-barbed-cross"}


DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"       # a solution's values, in base 36


def _check(entry: dict, engine: str) -> None:
    puzzle = puzzle_from_dict(entry["puzzle"])
    out = api.count(puzzle, engine, limit=2, timeout=120)
    assert out.exhausted and out.count == 1, (entry["id"], engine, out.message)
    assert "".join(DIGITS[v] for v in out.solutions[0]) == entry["solution"]


def test_the_set_covers_thirty_kinds():
    kinds = {k for e in PUBLISHED for k in e["kinds"]}
    assert len(kinds) >= 30 and all(e["sources"] for e in PUBLISHED)


@pytest.mark.parametrize("entry", [e for e in PUBLISHED if e["id"] not in NATIVE_SLOW],
                         ids=lambda e: e["id"])
def test_native_solves_and_proves_unique(entry):
    _check(entry, "native")


@pytest.mark.parametrize("engine", ["sat", "cpsat"])
def test_sat_and_cpsat_solve_every_published_puzzle(engine):
    need_engine(engine)
    for entry in PUBLISHED:
        _check(entry, engine)


@pytest.mark.parametrize("engine", ["libsolv-conda+tuned", "rattler+tuned"])
def test_conda_resolvers_solve_published_killer_thermometer_and_arrow_puzzles(engine):
    need_engine(engine.split("+")[0])
    for entry in PUBLISHED:
        if entry["id"] in ("killer", "thermo", "arrow"):
            out = api.solve(puzzle_from_dict(entry["puzzle"]), engine, timeout=120)
            assert "".join(map(str, out.solutions[0])) == entry["solution"], entry["id"]


# logic on the published puzzles: those listed take 5 s or more (bench/logic_variants.py);
# none does now
LOGIC_SLOW: set[str] = set()


def test_logic_steps_through_published_variants_and_never_removes_a_true_value():
    from polydoku.reasoning.logic import solve_logically
    solved, patterns, used = [], [], {}
    for entry in PUBLISHED:
        if entry["id"] in LOGIC_SLOW:
            continue
        puzzle = puzzle_from_dict(entry["puzzle"])
        path = solve_logically(puzzle, check=False, max_seconds=20)
        for step in path.steps:
            for i, v in step.eliminations:
                assert int(entry["solution"][i]) != v, (entry["id"], step.text)
            for i, v in step.placements:
                assert int(entry["solution"][i]) == v, (entry["id"], step.text)
        used[entry["id"]] = {s.technique for s in path.steps}
        if path.solved:
            solved.append(entry["id"])
            if not used[entry["id"]] & {"Forcing Net", "Nested Forcing Net"}:
                patterns.append(entry["id"])
    # sums, tables and auxiliary variables (killer, sandwich, x-sum, skyscraper...) included
    assert {"killer", "between-1-and-9-sudoku", "x-sum", "skyscraper", "odd-even",
            "modular-lines-1", "arrow", "thermo", "xv-kropki-sudoku"} <= set(solved)
    assert len(solved) >= 20, solved
    # a little killer's diagonal filled at once, with its cells' boxes, unlocks the path
    assert "little-killer-sudoku" in solved and "Clue Combinations" in used["little-killer-sudoku"]
    # patterns alone (no forcing net) on more than half: the clues' strong links (x-sum),
    # cell groups in chains (i-just-like-colours) and a candidate that would leave a house
    # too few places (elementary) each finish one
    assert {"x-sum", "i-just-like-colours", "elementary"} <= set(patterns), patterns
    # and the 45 rule with the arrows as sums (pill arrows; almost locked sets of two and
    # three cells as chain nodes finished it before)
    assert "pill-arrow-sudoku" in patterns and "45 Rule" in used["pill-arrow-sudoku"], patterns
    assert len(patterns) >= 14, patterns
    assert {"ALS-AIC", "Pigeonhole"} <= used["elementary"]


@pytest.mark.parametrize("entries, slow, floor", [
    (HELD_OUT, {"i-bet-someone-did-this-already", "renban-skyscrapers", "hailstone-little-killer"},
     (19, 13, 11)),
    (HELD_OUT_2, set(), (21, 21, 19)),
    (HELD_OUT_3, set(), (12, 10, 6)),
    (HELD_OUT_4, set(), (34, 28, 22)),
], ids=["held_out", "held_out_2", "held_out_3", "held_out_4"])
def test_held_out_puzzles_are_proved_unique_and_logic_never_removes_a_true_value(
        entries, slow, floor):
    """The held-out puzzles: native proves each unique with its published solution; logic
    takes no wrong step on any (the slowest paths left to the bench), solves most, and
    finishes many by patterns alone."""
    from polydoku.reasoning.logic import solve_logically
    solved = patterns = 0
    for entry in entries:
        _check(entry, "native")
        if entry["id"] in slow:
            continue
        path = solve_logically(puzzle_from_dict(entry["puzzle"]), check=False, max_seconds=20)
        for step in path.steps:
            for i, v in step.eliminations:
                assert int(entry["solution"][i], 36) != v, (entry["id"], step.text)
            for i, v in step.placements:
                assert int(entry["solution"][i], 36) == v, (entry["id"], step.text)
        solved += path.solved
        patterns += path.solved and not {s.technique for s in path.steps} & {
            "Forcing Net", "Nested Forcing Net"}
    count, least_solved, least_patterns = floor
    assert len(entries) == count and solved >= least_solved and patterns >= least_patterns, (
        solved, patterns)


def _positions(only_clues: bool):
    """Yield (id, board, true candidates) for the published puzzles (not the slow ones), at
    the start and halfway through the logical path; with `only_clues`, only those whose
    layout has clues no technique reads."""
    from polydoku.reasoning.logic import prepare, solve_logically, start_board
    for entry in PUBLISHED:
        if entry["id"] in LOGIC_SLOW:
            continue
        puzzle = puzzle_from_dict(entry["puzzle"])
        prepared = prepare(puzzle)
        if only_clues and not prepared.layout.unread:
            continue
        board = start_board(prepared)
        path = solve_logically(puzzle, check=False, max_seconds=1, prepared=prepared)
        half = board.copy()
        for step in path.steps[:len(path.steps) // 2]:
            for i, v in step.placements:
                if not half.value[i]:
                    half.place(i, v)
            for i, v in step.eliminations:
                half.eliminate(i, v)
        n = prepared.layout.size
        truth = {i * n + int(ch, 36) - 1 for i, ch in enumerate(entry["solution"])}
        yield entry["id"], board, truth
        yield entry["id"], half, truth


def test_clue_links_never_join_two_true_candidates():
    """The pairs a clue allows only apart (weak links for chains, `Board.conflicts`) are
    never both true in the published solution, at the start and halfway through the path;
    and the clues do give such links, beyond the rules'."""
    from polydoku.reasoning.logic.clue_filters import clue_links
    seen = 0
    for name, board, truth in _positions(only_clues=True):
        links = clue_links(board.layout, board.value_masks())
        seen += len(links)
        for p, q, label in links:
            assert not (p in truth and q in truth), (name, label)
            assert board.conflicts()[p] >> q & 1 and board.clue_rule(p, q)
    assert seen > 100


def test_clue_strong_links_always_keep_one_true_candidate():
    """The pairs of which a clue needs one (strong links for chains) always hold one true
    candidate in the published solution, at the start and halfway through the path; and
    the clues and rule kinds do give such links."""
    from polydoku.reasoning.logic.propagation import clue_strong_links
    seen = 0
    for name, board, truth in _positions(only_clues=False):
        links = clue_strong_links(board)
        seen += len(links)
        for p, q in links:
            assert p in truth or q in truth, (name, p, q)
    assert seen > 100


def test_a_clue_filtered_from_its_last_fixpoints_finds_what_it_finds_afresh():
    """A clue whose cells' candidates have only shrunk since it was last asked filters from
    the fixpoints it reached then: halfway through each path (asked at the start before),
    the pairs it keeps apart and the pairs it needs one of are those found from nothing."""
    from polydoku.reasoning.logic.clue_filters import clues_of
    reused = 0
    for name, board, _ in _positions(only_clues=True):
        lay, masks = board.layout, board.value_masks()
        for clue in clues_of(lay):
            reused += bool(clue.last)
            warm = (clue.forbidden_pairs(masks, lay.conflicts),
                    clue.needed_pairs(masks, board.value))
            clue.last.clear()
            assert (clue.forbidden_pairs(masks, lay.conflicts),
                    clue.needed_pairs(masks, board.value)) == warm, name
    assert reused > 10


@pytest.mark.parametrize("name", ["arrow", "x-windoku"])
def test_a_path_is_the_same_with_the_layout_memory_warm(name):
    """Pigeonhole remembers each house it searched in vain for a candidate, as its values'
    places stood (these paths search many and find none); solving the puzzle again on the
    same layout, every search remembered, takes the same steps as the first time."""
    from polydoku.reasoning.logic import prepare, solve_logically
    entry = next(e for e in PUBLISHED if e["id"] == name)
    puzzle = puzzle_from_dict(entry["puzzle"])
    prepared = prepare(puzzle)
    first = [(s.technique, s.text)
             for s in solve_logically(puzzle, check=False, prepared=prepared).steps]
    again = [(s.technique, s.text)
             for s in solve_logically(puzzle, check=False, prepared=prepared).steps]
    assert again == first
    searched = [v for k, v in prepared.layout.memo.items() if k[0] == "pigeonhole"]
    assert sum(map(len, searched)) > 1000      # Pigeonhole looked, and remembered


def test_logic_proves_uniqueness_where_native_is_slow():
    # the pure-Python search needs minutes on these (sums, tables, auxiliaries): prepare hands
    # them to SAT after 0.25 s; the compiled core proves them itself. Either way the solution
    # is the grid alone, without the auxiliaries.
    from polydoku.reasoning.logic import prepare
    for entry in PUBLISHED:
        if entry["id"] in ("leven", "raw-spaghetti"):
            prep = prepare(puzzle_from_dict(entry["puzzle"]), timeout=30)
            assert prep.unique, entry["id"]
            assert "".join(map(str, prep.solution)) == entry["solution"]
