"""Formats: readers and writers, one module per format. Readers report bad input with its place.

`read.read_puzzles` detects the format of a literal, a file or standard input.
"""

from .line import parse_line, write_line
from .read import read_puzzles, read_puzzle

__all__ = ["parse_line", "read_puzzle", "read_puzzles", "write_line"]
