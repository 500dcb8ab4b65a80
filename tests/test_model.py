"""Geometry invariants for every size, rules, and the puzzle model."""

import pytest
from hypothesis import given, strategies as st

from polydoku.errors import BadInput
from polydoku.model import Geometry, Puzzle, box_shape_for, cell_name, parse_cell
from polydoku.rules import parse_rules
from polydoku.rules.globals import AntiKing, AntiKnight, Diagonal, NonConsecutive

SIZES = [4, 6, 8, 9, 10, 12, 15, 16, 20, 25]


@pytest.mark.parametrize("size", SIZES)
def test_geometry_invariants(size):
    g = Geometry.of_size(size)
    assert g.box_rows * g.box_cols == size
    assert len(g.units) == 3 * size
    for unit in g.units:
        assert len(unit) == len(set(unit)) == size
    # every cell is in exactly one row, column and box
    for kind in (g.rows, g.cols, g.boxes):
        assert sorted(i for unit in kind for i in unit) == list(range(g.ncells))
    # peers: (N-1) in row and col, box adds N - br - bc + 1 more
    expected = 2 * (size - 1) + (size - g.box_rows - g.box_cols + 1)
    assert {len(p) for p in g.peers} == {expected}
    assert all(i not in p for i, p in enumerate(g.peers))


def test_box_shapes():
    assert box_shape_for(6) == (2, 3)
    assert box_shape_for(12) == (3, 4)
    assert box_shape_for(8) == (2, 4)
    assert box_shape_for(9) == (3, 3)
    with pytest.raises(BadInput, match="prime"):
        box_shape_for(7)
    with pytest.raises(BadInput, match="outside"):
        box_shape_for(3)


def test_box_numbering_6x6():
    g = Geometry.of_size(6)
    assert g.boxes[0] == (0, 1, 2, 6, 7, 8)
    assert g.box_of((2, 3)) == 3


@given(st.integers(0, 24), st.integers(0, 24))
def test_cell_names_round_trip(r, c):
    assert parse_cell(cell_name((r, c))) == (r, c)


def test_parse_cell_errors():
    with pytest.raises(BadInput):
        parse_cell("x1y2")
    with pytest.raises(BadInput, match="outside"):
        parse_cell("r10c1", 9)


def test_rule_pairs_9x9():
    g = Geometry.of_size(9)
    knight = AntiKnight().pairs(g)
    king = AntiKing().pairs(g)
    assert (0, 11) in knight and (0, 19) in knight and (0, 10) not in knight
    assert (0, 10) in king and (0, 1) in king
    # counts: knight moves on a 9x9 board (each pair once) and king moves
    assert len(knight) == 4 * (9 - 1) * (9 - 2)
    assert len(king) == 2 * 9 * 8 + 2 * 8 * 8
    assert len(NonConsecutive().pairs(g)) == 2 * 9 * 8
    main, anti = Diagonal().units(g)
    assert main[0] == 0 and main[-1] == 80 and anti[0] == 8 and anti[-1] == 72


def test_parse_rules():
    assert [r.name for r in parse_rules("anti-knight, antiking,NON_CONSECUTIVE,x")] == [
        "anti-knight", "anti-king", "non-consecutive", "diagonal"]
    with pytest.raises(BadInput, match="unknown rule 'foo'"):
        parse_rules("foo")


def test_puzzle_checks_values():
    with pytest.raises(BadInput, match="outside 1..4"):
        Puzzle(Geometry.of_size(4), (5,) + (0,) * 15)
    with pytest.raises(BadInput, match="16 cells"):
        Puzzle(Geometry.of_size(9), (0,) * 16)
