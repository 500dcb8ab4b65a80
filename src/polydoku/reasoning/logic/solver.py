"""The logical solver: apply the easiest technique that makes progress, again and again.

`next_step` tries the finders in catalogue order (HoDoKu's default order) and returns the first
step found. `solve_logically` repeats it to the end or until logic stalls, and, when a solution
is known, checks every step against it (a placement must match, an elimination must never remove
the true value): a wrong step raises `WrongStep`, which is a bug, never output.

The native engine is asked first (up to two solutions): a puzzle with no solution is not
reasoned about, the first solution is the reference for the checks, and uniqueness techniques
run only when the puzzle is proved unique (and its rules are classic).
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Callable, Iterable, Sequence

from ...engines.native import search
from ...engines.base import Status
from ...errors import EXIT_ENGINE, PolydokuError
from ...model import Puzzle
from ...problem import Problem, build_problem
from ...verify import is_solution
from . import (als, cages, chains, clue_claiming, clues, fish, forcing, hidden_cages,
               intersections, leftovers, line_houses, mirrors, parity, polarity, propagation, rule45,
               rule_combinations, single_digit, singles, skyscrapers, subsets, uniqueness,
               wings)
from .board import Board, Layout, layout_of
from .catalog import LEVELS, Rating, level_of, rate
from .difficulty import difficulty
from .explainer import explainer_path
from .graded import GRADES, Graded, graded
from .step import Step, apply_step

Finder = Callable[[Board], "Step | None"]

# (technique names a finder may return, finder), in the order they are tried.
FINDERS: tuple[tuple[tuple[str, ...], Finder], ...] = (
    (("Full House",), singles.find_full_house),
    (("Naked Single",), singles.find_naked_single),
    (("Hidden Single",), singles.find_hidden_single),
    *(((name,), partial(clues.find_rule_step, technique=name)) for name in clues.TECHNIQUES),
    (("45 Rule",), rule45.find_rule45),
    (("Constraint Propagation",), propagation.find_constraint_propagation),
    (("Skyscraper Pair",), skyscrapers.find_skyscraper_pair),
    (("Locked Pair",), partial(subsets.find_locked_subset, k=2)),
    (("Locked Triple",), partial(subsets.find_locked_subset, k=3)),
    (("Pointing",), intersections.find_pointing),
    (("Claiming",), intersections.find_claiming),
    (("Mirrored Cells",), mirrors.find_mirrored_cells),
    (("Locked Candidates (variant)",), intersections.find_locked_variant),
    (("Cell Forcing",), intersections.find_cell_forcing),
    (("Whispers Neighbours",), line_houses.find_whispers_neighbours),
    (("Whispers Polarity",), polarity.find_whispers_polarity),
    (("Region-Sum Totals",), line_houses.find_region_sum_totals),
    (("Renban Claiming",), line_houses.find_renban_claiming),
    (("Cage Unit Overlap",), cages.find_cage_unit_overlap),
    (("Cage Interaction",), cages.find_cage_interaction),
    (("Law of Leftovers",), leftovers.find_law_of_leftovers),
    (("Naked Pair",), partial(subsets.find_naked_subset, k=2)),
    (("Naked Triple",), partial(subsets.find_naked_subset, k=3)),
    (("Hidden Pair",), partial(subsets.find_hidden_subset, k=2)),
    (("Hidden Triple",), partial(subsets.find_hidden_subset, k=3)),
    (("Hidden Cage",), hidden_cages.find_hidden_cage),
    (("Cage Splitting",), hidden_cages.find_cage_splitting),
    (("Innies and Outies",), rule45.find_innies_outies),
    (("Sum Parity",), parity.find_sum_parity),
    (("Naked Quadruple",), partial(subsets.find_naked_subset, k=4)),
    (("Hidden Quadruple",), partial(subsets.find_hidden_subset, k=4)),
    (("X-Wing",), partial(fish.find_basic_fish, n=2)),
    (("Swordfish",), partial(fish.find_basic_fish, n=3)),
    (("Jellyfish",), partial(fish.find_basic_fish, n=4)),
    (("Remote Pair",), wings.find_remote_pair),
    (("BUG+1",), uniqueness.find_bug_plus_one),
    (("Skyscraper",), single_digit.find_skyscraper),
    (("2-String Kite",), single_digit.find_two_string_kite),
    (("Empty Rectangle",), single_digit.find_empty_rectangle),
    (("W-Wing",), wings.find_w_wing),
    (("XY-Wing",), wings.find_xy_wing),
    (("XYZ-Wing",), wings.find_xyz_wing),
    (("Unique Rectangle Type 1",), uniqueness.find_ur1),
    (("Unique Rectangle Type 2",), uniqueness.find_ur2),
    (("Unique Rectangle Type 3",), uniqueness.find_ur3),
    (("Unique Rectangle Type 4",), uniqueness.find_ur4),
    (("Finned X-Wing", "Sashimi X-Wing"), partial(fish.find_finned_fish, n=2)),
    (("Finned Swordfish", "Sashimi Swordfish"), partial(fish.find_finned_fish, n=3)),
    (("Finned Jellyfish", "Sashimi Jellyfish"), partial(fish.find_finned_fish, n=4)),
    (("Simple Colouring",), single_digit.find_simple_colouring),
    (("X-Chain",), chains.find_x_chain),
    (("XY-Chain",), chains.find_xy_chain),
    (("AIC",), chains.find_aic),
    (("Grouped AIC", "AIC"), chains.find_grouped_aic),
    (("ALS-XZ",), als.find_als_xz),
    (("ALS-AIC",), chains.find_als_aic),
    (("Pigeonhole",), intersections.find_pigeonhole),
    (("Clue Combinations",), propagation.find_clue_combinations),
    (("Clue Combinations",), rule_combinations.find_rule_combinations),
    (("Clue Unit Overlap",), clue_claiming.find_clue_unit_overlap),
    (("Forcing Net",), forcing.find_contradiction),
    (("Forcing Net",), forcing.find_verity),
    (("Nested Forcing Net",), forcing.find_nested_contradiction),
    (("Nested Forcing Net",), forcing.find_nested_verity),
)


class WrongStep(PolydokuError):
    """A step that contradicts the solution: a bug in a technique, never shown as a move."""

    exit_code = EXIT_ENGINE


@dataclass
class Prepared:
    """A puzzle ready for logic: its problem, layout, reference solution and uniqueness."""

    puzzle: Puzzle
    problem: Problem
    layout: Layout
    solution: tuple[int, ...] | None
    unique: bool
    status: Status
    engine: str = ""                    # the engine whose answer this is

    @property
    def why_no_logic(self) -> str:
        """Return why logic is not tried on this puzzle, naming the engine that answered
        ("" when it has a solution)."""
        if self.solution is not None:
            return ""
        if self.status is Status.UNSATISFIABLE:
            return "no solution"
        return f"the {self.engine or 'native'} engine gave up before finding a solution"


def prepare(puzzle: Puzzle, timeout: float | None = 60.0) -> Prepared:
    """Return the puzzle with its layout and what the native engine proves (up to two solutions)."""
    problem = build_problem(puzzle)
    layout = layout_of(problem)
    outcome = _prove(problem, layout, timeout)
    # the grid only, whichever engine answered (native keeps the auxiliaries, SAT does not)
    grids = [problem.grid(s) for s in outcome.solutions]
    solutions = [g for g in grids if is_solution(puzzle, g)]
    if len(solutions) != len(grids):
        raise WrongStep(f"{outcome.engine or 'the engine'} returned a wrong solution")
    unique = outcome.status is Status.SOLVED and outcome.exhausted and len(solutions) == 1
    return Prepared(puzzle, problem, layout, solutions[0] if solutions else None, unique,
                    outcome.status, outcome.engine)


NATIVE_FIRST = 0.25     # seconds the native engine gets on sums and tables before SAT takes over


def _prove(problem: Problem, layout: Layout, timeout: float | None):
    """Return up to two solutions of a problem and whether that is all of them: the native
    engine's search; on sums, tables and auxiliary variables (where it can take minutes) only
    for NATIVE_FIRST seconds, then the SAT engine's (CaDiCaL, when PySAT is installed)."""
    if not layout.unread:
        return search(problem, max_solutions=2, timeout=timeout)
    first = NATIVE_FIRST if timeout is None else min(NATIVE_FIRST, timeout)
    outcome = search(problem, max_solutions=2, timeout=first)
    if outcome.exhausted:
        return outcome
    rest = None if timeout is None else max(timeout - first, 1.0)
    try:
        from ...engines.registry import make_engine
        return make_engine("sat").solve(problem, max_solutions=2, timeout=rest)
    except PolydokuError:           # no PySAT here: the native engine takes the time left
        return search(problem, max_solutions=2, timeout=rest)


def start_board(prep: Prepared) -> Board:
    """Return the board of the puzzle's givens, uniqueness techniques allowed when proved unique."""
    return Board(prep.layout, prep.puzzle.givens, unique=prep.unique and prep.layout.is_classic)


def allowed_finders(max_level: str | None = None, exclude: Iterable[str] = ()
                    ) -> list[tuple[tuple[str, ...], Finder]]:
    """Return the finders up to a level ("Easy".."Extreme"), without the excluded names."""
    top = LEVELS.index(max_level) if max_level else len(LEVELS) - 1
    skip = set(exclude)
    return [(names, f) for names, f in FINDERS
            if any(LEVELS.index(level_of(n)) <= top and n not in skip for n in names)]


def full_logic_path(techniques: Iterable[str], max_level: str | None) -> bool:
    """Return whether a path that logic up to `max_level` found, using `techniques`, is the
    path full logic takes on the same puzzle: every finder it used comes before the first one
    that only a higher level allows (the solver takes, at each step, the first finder in
    order that finds something, so the higher ones were never asked)."""
    if max_level is None:
        return True
    allowed = allowed_finders(max_level)
    used = set(techniques)
    first_excluded = next((k for k, entry in enumerate(FINDERS) if entry not in allowed),
                          len(FINDERS))
    last_used = max((k for k, (names, _) in enumerate(FINDERS) if used & set(names)), default=-1)
    return last_used < first_excluded


def next_step(board: Board, finders: Sequence[tuple[tuple[str, ...], Finder]] = FINDERS
              ) -> Step | None:
    """Return the easiest step that makes progress on `board`, or None when logic stalls."""
    for _, find in finders:
        step = find(board)
        if step is not None:
            return step
    return None


def check_step(step: Step, solution: Sequence[int], board: Board) -> None:
    """Raise WrongStep when a step contradicts the solution or changes nothing."""
    lay = board.layout
    for cell, v in step.placements:
        if solution[cell] != v:
            raise WrongStep(f"{step.technique} placed {lay.sym(v)} in {lay.name(cell)}, "
                            f"but the solution has {lay.sym(solution[cell])} ({step.text})")
    for cell, v in step.eliminations:
        if solution[cell] == v:
            raise WrongStep(f"{step.technique} removed the true value {lay.sym(v)} from "
                            f"{lay.name(cell)} ({step.text})")
    progress = any(not board.value[c] for c, _ in step.placements) or \
        any(board.has(c, v) for c, v in step.eliminations)
    if not progress:
        raise WrongStep(f"{step.technique} changed nothing ({step.text})")


@dataclass
class Path:
    """The logical solve of a puzzle: its steps, where it ended, and its rating."""

    prepared: Prepared
    steps: list[Step] = field(default_factory=list)
    board: Board | None = None
    seconds: float = 0.0
    timed_out: bool = False
    max_seconds: float | None = None
    limited: bool = False           # techniques held back (max_level, exclude)
    _difficulty: float | None = field(default=None, repr=False)

    @property
    def solved(self) -> bool:
        """Return whether logic alone filled the grid."""
        return self.board is not None and self.board.is_solved()

    @property
    def rating(self) -> Rating:
        """Return the HoDoKu-style rating of the path, with its finer difficulty."""
        return replace(self.level_rating(), difficulty=self.difficulty)

    def level_rating(self) -> Rating:
        """Return the HoDoKu-style rating with the hardest step's difficulty (cheap: no second
        path), for a caller that rates many candidate puzzles and keeps few."""
        lay = self.prepared.layout
        return replace(rate((s.technique for s in self.steps), self.solved, lay.ncells),
                       difficulty=difficulty(self.steps, lay, self.solved))

    @property
    def difficulty(self) -> float | None:
        """Return the number on Sudoku Explainer's scale: for a classic 9x9 puzzle, the rating
        of Sudoku Explainer's own cheapest-first path (`explainer.py`), computed once; for
        other puzzles, a path with techniques held back, or when that path runs out of time,
        the hardest step's value (11.0 when logic stalls)."""
        if self._difficulty is None:
            value = None if self.limited else explainer_difficulty(self.prepared,
                                                                   self.max_seconds)
            if value is None:
                value = difficulty(self.steps, self.prepared.layout, self.solved)
            self._difficulty = value
        return self._difficulty


def explainer_difficulty(prep: Prepared, max_seconds: float | None = None) -> float | None:
    """Return a classic 9x9 puzzle's rating computed as Sudoku Explainer computes it, or None
    for other puzzles and when the path runs out of time."""
    lay = prep.layout
    if not (lay.is_classic and lay.size == 9 and prep.solution is not None):
        return None
    found = explainer_path(start_board(prep), max_seconds)
    return None if found.cut else found.rating


def solve_logically(puzzle: Puzzle, *, check: bool = True, max_level: str | None = None,
                    exclude: Iterable[str] = (), max_seconds: float | None = None,
                    prepared: Prepared | None = None) -> Path:
    """Return the logical path of a puzzle: steps until solved or stalled (checked when asked)."""
    prep = prepared or prepare(puzzle)
    finders = allowed_finders(max_level, exclude)
    path = Path(prep, max_seconds=max_seconds, limited=len(finders) < len(FINDERS))
    if prep.solution is None:
        return path
    board = start_board(prep)
    path.board = board
    started = time.perf_counter()
    deadline = started + max_seconds if max_seconds else None
    while not board.is_solved():
        if deadline is not None and time.perf_counter() > deadline:
            path.timed_out = True
            break
        step = next_step(board, finders)
        if step is None:
            break
        if check:
            check_step(step, prep.solution, board)
        apply_step(board, step)
        path.steps.append(step)
    path.seconds = time.perf_counter() - started
    return path


class HintStatus(str, enum.Enum):
    """What a hint found: a move, a full grid, logic stalling, or why logic was not tried."""

    MOVE = "move"
    COMPLETE = "complete"
    STALLED = "stalled"
    UNSATISFIABLE = "unsatisfiable"     # proved to have no solution
    UNKNOWN = "unknown"                 # no engine found a solution in time


@dataclass(frozen=True)
class Hint:
    """The next move of a position, told at one grade (`graded`), or why there is none."""

    status: HintStatus
    prepared: Prepared
    grade: str
    board: Board | None = None
    step: Step | None = None
    graded: Graded | None = None                # what the grade tells of the step

    @property
    def message(self) -> str:
        """Return why logic was not tried, naming the engine that answered ("" when it was)."""
        return self.prepared.why_no_logic


def hint(puzzle: Puzzle, *, max_level: str | None = None, grade: str = "answer",
         check: bool = True, prepared: Prepared | None = None,
         timeout: float | None = 60.0) -> Hint:
    """Return the next move of a position (the easiest technique up to `max_level` that makes
    progress, checked against the solution), told at `grade` (GRADES), or why there is none."""
    if grade not in GRADES:
        raise ValueError(f"unknown grade {grade!r}")
    prep = prepared or prepare(puzzle, timeout=timeout)
    if prep.solution is None:
        proved = prep.status is Status.UNSATISFIABLE
        return Hint(HintStatus.UNSATISFIABLE if proved else HintStatus.UNKNOWN, prep, grade)
    board = start_board(prep)
    if board.is_solved():
        return Hint(HintStatus.COMPLETE, prep, grade, board)
    step = next_step(board, allowed_finders(max_level))
    if step is None:
        return Hint(HintStatus.STALLED, prep, grade, board)
    if check:
        check_step(step, prep.solution, board)
    return Hint(HintStatus.MOVE, prep, grade, board, step, graded(step, board.layout, grade))
