"""Puzzle model: geometry, rules and puzzles. Pure data; no I/O, no solving."""

from .geometry import Cell, Geometry, box_shape_for, cell_name, parse_cell
from .check import conflicting_givens, violations
from .puzzle import Puzzle, default_alphabet
from .rules import RULES, Rule, Shape, parse_rules, rule_from_data, rules_from_data

__all__ = ["Cell", "conflicting_givens", "violations", "Geometry", "Puzzle", "RULES", "Rule", "Shape", "rule_from_data", "rules_from_data", "box_shape_for", "cell_name",
           "default_alphabet", "parse_cell", "parse_rules"]
