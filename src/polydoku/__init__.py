"""polydoku: one Sudoku model, many engines, every answer verified."""

__version__ = "0.1.0"
