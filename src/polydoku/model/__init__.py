"""Puzzle model: geometry, rules and puzzles. Pure data; no I/O, no solving."""

from .geometry import Cell, Geometry, box_shape_for, cell_name, parse_cell
from .check import conflicting_givens, violations
from .puzzle import Puzzle, default_alphabet
from .rules import Rule, Shape, ShapeKind

__all__ = ["Cell", "conflicting_givens", "violations", "Geometry", "Puzzle", "Rule", "Shape", "ShapeKind",
           "box_shape_for", "cell_name", "default_alphabet", "parse_cell"]
