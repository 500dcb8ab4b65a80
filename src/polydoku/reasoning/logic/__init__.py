"""Human-style reasoning: named techniques over pencil-mark candidates, step by step.

`solve_logically(puzzle)` returns the whole path (steps, whether logic alone finished, the
HoDoKu-style rating); `hint(puzzle)` returns the next move. Every step is data (`Step`: the
technique, its pattern, its placements and eliminations, one sentence) and is checked against
the native engine's solution. The modules split by technique family; `catalog` names and
scores them, `solver` orders them. Nothing here prints or parses command lines.
"""

from .board import Board, Layout, layout_of
from .catalog import LEVELS, STALL_SCORE, TECHNIQUES, Rating, rate
from .render import candidates_grid, candidates_rows
from .graded import GRADES, Graded, graded
from .solver import (FINDERS, Hint, HintStatus, Path, Prepared, WrongStep, allowed_finders,
                     apply_step, check_step, hint, next_step, prepare, solve_logically,
                     start_board)
from .step import Step

__all__ = ["Board", "FINDERS", "GRADES", "Graded", "Hint", "HintStatus", "LEVELS", "Layout",
           "Path", "Prepared", "Rating", "STALL_SCORE", "graded",
           "Step", "TECHNIQUES", "WrongStep", "allowed_finders", "apply_step", "candidates_grid",
           "candidates_rows",
           "check_step", "hint", "layout_of", "next_step", "prepare", "rate", "solve_logically",
           "start_board"]
