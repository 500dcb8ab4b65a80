"""The generator: new puzzles with one solution, at a chosen level, symmetry and rules.

A puzzle is made in two stages, each driven by one `random.Random` seeded with the request's
seed and the puzzle's number, so the same request gives the same puzzles on any machine and
with any number of processes:

1. **A full grid.** A few values are dropped at random into an empty grid of the requested
   geometry and rules (each consistent with the values already placed), and the native
   engine completes it; a start with no completion is thrown away and another drawn.
2. **Digging.** The grid's cells are taken in orbits of the symmetry (one cell, a pair, four
   cells) in a random order, and an orbit's values are removed when the puzzle keeps one
   solution (the native engine proves it: it finds no second one) and, when a level is
   asked, when logic alone still solves it with techniques up to that level (the logical
   solver of `reasoning.logic`, allowed no technique above the level, which keeps each trial
   cheap: a harder puzzle stalls early instead of running forcing nets). Digging stops when
   every orbit has been tried, or when the aim of `--givens` is reached.

The result is rated by the same rater as `polydoku steps`; a puzzle whose level is below the
one asked (digging stopped at an easier puzzle) is thrown away and another grid drawn. With
`minimal`, digging keeps only uniqueness in mind and the finished puzzle, minimal by
construction (no orbit, hence no given when there is no symmetry, can go), is kept when it
rates at the level asked. Clues that have no named technique yet (sums, tables) take part in
the rating through Constraint Propagation steps.

Clue rules (killer cages, thermometers, arrows, kropki dots, XV...) are read off the full grid
by `clue_rules` before digging, so the digging leans on them: a killer puzzle has few givens.

Nothing here prints; the command (`cli/generate.py`) prints and counts.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Iterator, Sequence

from .engines.base import Status
from .engines.native import backend, count_with, random_solution, search, solved_by_singles
from .errors import BadInput, EXIT_UNKNOWN, PolydokuError
from .model import Geometry, Puzzle
from .model.rules import Rule
from .problem import Linear, Problem, Table, build_problem
from .reasoning.logic import LEVELS, Prepared, Rating, layout_of, solve_logically
from .reasoning.logic.solver import explainer_difficulty, full_logic_path
from .verify import is_solution

SYMMETRIES = ("none", "rotational", "rotational90", "mirror", "diagonal")

# qqwing's level names, as documented aliases of polydoku's levels (qqwing rates by the
# techniques it needs: singles only, then pairs and intersections, then guessing).
QQWING_LEVELS = {"simple": "Easy", "easy": "Medium", "intermediate": "Hard", "expert": "Unfair"}

UNIQUE_TIMEOUT = 30.0          # seconds one uniqueness proof may take before the trial is dropped
MAX_DIFFICULTY = 12.0         # the top of rate's scale (an unrated stall is 11.0)
LAYOUT_NODES = 20_000  # search nodes for a full grid on one random jigsaw layout
MAX_EMPTY_LAYOUTS = 50  # layouts without a grid in a row before generate gives up
MAX_GRIDS_FOR_DIFFICULTY = 200  # grids tried for a --difficulty range without a --timeout
RATE_SECONDS = 5.0             # rating a puzzle made at no level asked (forcing nets can be slow)


class GaveUp(PolydokuError):
    """The search for a puzzle ran out of time or tries (exit 4); `found` holds what it made."""

    exit_code = EXIT_UNKNOWN


@dataclass(frozen=True)
class Request:
    """What to generate: geometry and rules, level, symmetry, minimality, an aim for givens."""

    geometry: Geometry
    rules: tuple[Rule, ...] = ()
    level: str | None = None
    symmetry: str = "none"
    minimal: bool = False
    givens: int | None = None
    clues: tuple[str, ...] = ()          # clue kinds read off the grid: killer, kropki, ...
    jigsaw: bool = False                 # irregular regions, drawn at random per puzzle
    seed: int = 0
    timeout: float | None = None         # seconds for one puzzle, tries included
    difficulty: tuple[float, float] | None = None   # the difficulty range asked (rate's scale)

    def __post_init__(self) -> None:
        if self.symmetry not in SYMMETRIES:
            raise BadInput(f"unknown symmetry {self.symmetry!r}: expected one of "
                           f"{', '.join(SYMMETRIES)}")
        if self.level is not None and self.level not in LEVELS:
            raise BadInput(f"unknown level {self.level!r}: expected one of {', '.join(LEVELS)}")
        if self.difficulty is not None:
            low, high = self.difficulty
            if not 1.0 <= low <= high <= MAX_DIFFICULTY:
                raise BadInput(f"--difficulty {low:g}-{high:g}: give a range within "
                               f"1.0-{MAX_DIFFICULTY:g}, the lower bound first")
        n = self.geometry.size
        unknown = [k for k in self.clues if k not in clue_kinds()]
        if unknown:
            raise BadInput(f"unknown clue kind {unknown[0]!r}: expected one of "
                           f"{', '.join(clue_kinds())}")
        if self.givens is not None:
            if not 0 <= self.givens <= n * n:
                raise BadInput(f"--givens {self.givens} is outside 0..{n * n}")
            low = lower_bound(n, self.jigsaw) if not self.rules and not self.clues else 0
            if self.givens < low:
                raise BadInput(f"--givens {self.givens}: a {n}x{n} {'jigsaw' if self.jigsaw else 'classic'} "
                               f"puzzle with one solution needs at least {low} givens")
            sizes = {len(o) for o in orbits(n, self.symmetry)}
            if not reachable(self.givens, orbits(n, self.symmetry)):
                raise BadInput(f"--givens {self.givens} cannot be met with {self.symmetry} "
                               f"symmetry on {n}x{n}: its cells come in groups of "
                               f"{' and '.join(map(str, sorted(sizes)))}")


def lower_bound(n: int, jigsaw: bool = False) -> int:
    """Return the fewest givens a unique N×N puzzle without rules or clues can have, that we
    refuse to aim below.

    Every value but one must appear (else two values could swap): N - 1. With the usual boxes,
    9×9 needs 17 (McGuire, Tugemann and Civario, 2012) and 4×4 needs 4. Rules and clues carry
    information of their own (a killer puzzle can have no givens at all): no bound is known
    for them, so none is applied.
    """
    return n - 1 if jigsaw else {4: 4, 9: 17}.get(n, n - 1)


def orbits(n: int, symmetry: str) -> list[tuple[int, ...]]:
    """Return the grid's cells grouped into the orbits of a symmetry (each sorted, row-major)."""
    def images(r: int, c: int) -> set[tuple[int, int]]:
        if symmetry == "rotational":
            return {(r, c), (n - 1 - r, n - 1 - c)}
        if symmetry == "rotational90":
            return {(r, c), (c, n - 1 - r), (n - 1 - r, n - 1 - c), (n - 1 - c, r)}
        if symmetry == "mirror":
            return {(r, c), (r, n - 1 - c)}
        if symmetry == "diagonal":
            return {(r, c), (c, r)}
        return {(r, c)}

    seen: set[int] = set()
    out = []
    for i in range(n * n):
        if i in seen:
            continue
        orbit = tuple(sorted(a * n + b for a, b in images(*divmod(i, n))))
        seen.update(orbit)
        out.append(orbit)
    return out


def reachable(total: int, groups: Sequence[tuple[int, ...]]) -> bool:
    """Return whether some orbits hold exactly `total` cells together (a subset sum)."""
    possible = 1                              # bit k: k cells can be made
    for g in groups:
        possible |= possible << len(g)
    return bool(possible >> total & 1)


@dataclass
class Made:
    """One generated puzzle: the puzzle, its solution, its rating (None when not rated), the
    grids and trials it took, and its time."""

    puzzle: Puzzle
    solution: tuple[int, ...]
    rating: Rating | None
    minimal: bool | None      # None: not checked (not asked)
    grids: int = 0
    trials: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)


class _Budget:
    """The time left for one puzzle (None: no limit)."""

    def __init__(self, seconds: float | None):
        self.deadline = time.monotonic() + seconds if seconds else None

    def left(self) -> float | None:
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    def over(self) -> bool:
        return self.deadline is not None and time.monotonic() > self.deadline


def clue_kinds() -> dict[str, Callable]:
    """Return the clue kinds the generator reads off a full grid: name -> read_off(grid,
    geometry, rng), each defined by its rule kind's own module."""
    from .rules.cells import Killer
    from .rules.lines import Thermometer
    from .rules.pairs import KropkiNegative, XVNegative
    return {"killer": Killer.read_off, "thermometer": Thermometer.read_off,
            "kropki": KropkiNegative.read_off, "xv": XVNegative.read_off}


def random_regions(n: int, rng: random.Random, box: tuple[int, int] | None = None
                   ) -> tuple[tuple[int, ...], ...]:
    """Return N connected regions of N cells each (a jigsaw layout), made from the boxes (or
    the rows) by many random swaps of two bordering cells that keep both regions connected."""
    if box:
        region = [(r // box[0]) * (n // box[1]) + c // box[1] for r in range(n) for c in range(n)]
    else:
        region = [i // n for i in range(n * n)]

    def neighbours(i: int) -> list[int]:
        r, c = divmod(i, n)
        return [a * n + b for a, b in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if 0 <= a < n and 0 <= b < n]

    def connected(k: int) -> bool:
        cells = [i for i in range(n * n) if region[i] == k]
        seen, todo = {cells[0]}, [cells[0]]
        while todo:
            for j in neighbours(todo.pop()):
                if region[j] == k and j not in seen:
                    seen.add(j)
                    todo.append(j)
        return len(seen) == len(cells)

    border = [(a, b) for a in range(n * n) for b in neighbours(a) if a < b]
    for _ in range(n * n * 4):
        a, b = rng.choice(border)
        ra, rb = region[a], region[b]
        if ra == rb:
            continue
        # a moves to b's region; some cell c of b's region next to a's region moves back
        backs = [c for c in range(n * n) if region[c] == rb and c != b
                 and any(region[d] == ra and d != a for d in neighbours(c))]
        if not backs:
            continue
        c = rng.choice(backs)
        region[a], region[c] = rb, ra
        if not (connected(ra) and connected(rb)):
            region[a], region[c] = ra, rb
    return tuple(tuple(i for i in range(n * n) if region[i] == k) for k in range(n))


class _Oracle:
    """Answers "is this subset of the solution's values still a unique puzzle?" many times
    over one solution grid.

    With PySAT, one CaDiCaL solver holds the rules' CNF (loaded once per geometry and rules,
    kept across grids); each grid adds one clause that rules its solution out, guarded by a
    fresh activation literal that is assumed while the grid is dug and switched off after.
    A trial's givens are assumptions too, so the trial is unique exactly when the solver
    finds no model (no second solution), and what the solver learns carries over from one
    trial to the next. Without PySAT, and on rules without sums, tables or auxiliaries when
    the native engine's compiled core runs (it counts such a trial to two in about a third of
    the time), the native engine counts to two. Either way the answers are the same, so the
    puzzles are too."""

    def __init__(self, problem: Problem):
        self.problem = problem
        self.solver: Any = None
        self.act = 0
        # the native engine counts: there is no SAT solver to hold
        self.native = backend() == "compiled" and not problem.aux and not (
            problem.kinds() & {Table, Linear})
        if self.native:
            return
        try:
            from pysat.solvers import Solver
        except ImportError:
            self.native = True
            return
        from .engines.cnf import ENCODINGS
        self.cnf, _ = ENCODINGS.get(problem)
        self.solver = Solver(name="cadical195", bootstrap_with=self.cnf.clauses)
        self.next_var = self.cnf.nvars

    def start(self, solution: tuple[int, ...]) -> None:
        """Rule out the solution of the grid about to be dug (and the previous grid's no more)."""
        if self.solver is None:
            return
        if self.act:
            self.solver.add_clause([-self.act])
        self.next_var += 1
        self.act = self.next_var
        self.solver.add_clause([-self.act] + self.cnf.blocking_clause(solution))

    def unique(self, givens: list[tuple[int, int]], deadline: float) -> bool:
        """Return whether the givens ((cell, value) pairs of the solution) leave one solution
        (False when it cannot tell before the deadline)."""
        if self.solver is None:
            return count_with(self.problem, givens, 2, deadline) == 1
        lits = [self.act] + [self.cnf.lit(var, value) for var, value in givens]
        while True:
            self.solver.conf_budget(5000)
            answer = self.solver.solve_limited(assumptions=lits)
            if answer is not None:
                return not answer
            if time.monotonic() > deadline:
                return False

    def close(self) -> None:
        if self.solver is not None:
            self.solver.delete()
            self.solver = None


class Generator:
    """Makes puzzles for one request; `make(k)` returns its k-th puzzle (the same every time)."""

    def __init__(self, request: Request):
        self.request = request
        self._base(request.geometry)
        self.orbits = orbits(request.geometry.size, request.symmetry)
        makers = clue_kinds()
        self.clue_makers = [makers[k] for k in request.clues]
        if request.level is not None:
            try:
                layout_of(self.problem)
            except BadInput as err:
                raise BadInput(f"--level cannot aim puzzles with these rules: {err}") from None

    def _base(self, geometry: Geometry) -> None:
        """Set the empty puzzle and its problem (per puzzle for jigsaw layouts)."""
        self.empty = Puzzle(geometry, (0,) * geometry.ncells, self.request.rules)
        self.problem = build_problem(self.empty)
        self._clued = self.problem
        self._oracle: _Oracle | None = getattr(self, "_oracle", None)

    # -- stage 1: a full grid -------------------------------------------------------------

    def full_grid(self, rng: random.Random, budget: _Budget) -> tuple[int, ...] | None:
        """Return a random full grid of the current geometry and rules (a depth-first search
        that tries values in a random order); None when a random jigsaw layout holds none
        within LAYOUT_NODES nodes (some layouts hold no grid at all: another is drawn)."""
        most = LAYOUT_NODES if self.request.jigsaw else None
        grid = random_solution(self.problem, rng, budget.deadline, most=most)
        if grid is not None:
            return self.problem.grid(grid)
        if budget.over():
            raise GaveUp("no full grid found in time")
        if most is not None:
            return None
        raise BadInput(f"the rules {_names(self.request.rules)} leave no "
                       f"{self.empty.geometry.size}x{self.empty.geometry.size} grid")

    # -- stage 2: digging -----------------------------------------------------------------

    def rate(self, puzzle: Puzzle, problem: Problem, solution: tuple[int, ...],
             max_level: str | None, budget: _Budget, most: float | None = None
             ) -> Rating | None:
        """Return the rating of a unique puzzle whose solution is known (logic up to a level),
        None when it takes longer than the budget (or `most` seconds)."""
        prep = Prepared(puzzle, problem, layout_of(problem), solution, True, Status.SOLVED)
        left = budget.left()
        seconds = left if most is None else (most if left is None else min(most, left))
        path = solve_logically(puzzle, check=True, max_level=max_level, prepared=prep,
                               max_seconds=seconds)
        return None if path.timed_out else path.level_rating()

    def finish(self, puzzle: Puzzle, solution: tuple[int, ...], rating: Rating) -> Rating:
        """Return the rating of a puzzle kept, with the difficulty `polydoku rate` gives it
        (for classic puzzles Sudoku Explainer's, from a second path: only for the kept one)."""
        if not rating.solved:
            return rating
        problem = self._problem_of(puzzle)
        prep = Prepared(puzzle, problem, layout_of(problem), solution, True, Status.SOLVED)
        value = explainer_difficulty(prep, RATE_SECONDS)
        return rating if value is None else replace(rating, difficulty=value)

    def dig(self, puzzle: Puzzle, rng: random.Random, budget: _Budget, made: Made,
            oracle: _Oracle) -> Puzzle:
        """Remove orbits of givens, in a random order, while the puzzle keeps one solution
        (down to the aim of --givens, when there is one)."""
        req = self.request
        givens = list(puzzle.givens)
        order = list(self.orbits)
        rng.shuffle(order)
        count = sum(1 for v in givens if v)
        for orbit in order:
            if req.givens is not None and count <= req.givens:
                break
            if req.givens is not None and count - len(orbit) < req.givens \
                    and not reachable(req.givens, [o for o in order if all(givens[i] for i in o)
                                                   and o is not orbit]):
                continue
            if budget.over():
                raise GaveUp("time ran out while removing givens")
            trial = list(givens)
            for i in orbit:
                trial[i] = 0
            made.trials += 1
            if not oracle.unique([(i, v) for i, v in enumerate(trial) if v], _deadline(budget)):
                continue
            givens = trial
            count -= len(orbit)
        return puzzle.with_givens(givens)

    def is_minimal(self, puzzle: Puzzle, budget: _Budget, oracle: _Oracle) -> bool:
        """Return whether no orbit of givens (no given, with no symmetry) can be removed with
        the puzzle staying unique."""
        for orbit in self.orbits:
            if not all(puzzle.givens[i] for i in orbit):
                continue
            trial = list(puzzle.givens)
            for i in orbit:
                trial[i] = 0
            if oracle.unique([(i, v) for i, v in enumerate(trial) if v], _deadline(budget)):
                return False
        return True

    def make(self, k: int) -> Made:
        """Return the request's k-th puzzle: unique, at the level asked, minimal when asked.

        Raises GaveUp when the request's time runs out first."""
        req = self.request
        rng = random.Random(f"polydoku-generate:{req.seed}:{k}")
        budget = _Budget(req.timeout)
        started = time.perf_counter()
        made = Made(self.empty, (), None, None)
        empty_layouts = 0
        while True:
            if budget.over():
                raise GaveUp(f"no {req.level + ' ' if req.level else ''}puzzle"
                             f"{self.difficulty_words()} found in time ({made.grids} grids tried)")
            if req.difficulty is not None and budget.deadline is None \
                    and made.grids >= MAX_GRIDS_FOR_DIFFICULTY:
                raise GaveUp(f"no puzzle{self.difficulty_words()} in {made.grids - 1} grids: "
                             f"give --timeout to search longer")
            made.grids += 1
            if req.jigsaw:
                n = req.geometry.size
                self._base(Geometry.irregular(n, random_regions(n, rng, _box(req.geometry))))
            solution = self.full_grid(rng, budget)
            if solution is None:              # a layout without a grid: another layout
                empty_layouts += 1
                if empty_layouts >= MAX_EMPTY_LAYOUTS:
                    raise GaveUp(f"no grid with these rules on {empty_layouts} random "
                                 f"jigsaw layouts")
                continue
            full = self.empty.with_givens(solution)
            if self.clue_makers:
                clues = [r for make in self.clue_makers
                         for r in make(solution, full.geometry, rng)]
                full = full.with_rules(self.empty.rules + tuple(clues))
                self._clued = build_problem(full.with_givens((0,) * len(solution)))
            oracle = self.oracle()
            oracle.start(solution)
            puzzle = self.dig(full, rng, budget, made, oracle)
            if req.minimal and req.givens is not None:
                made.minimal = self.is_minimal(puzzle, budget, oracle)
            if made.minimal is False:
                if made.grids >= 50 and budget.deadline is None:
                    raise GaveUp(f"no minimal puzzle with {req.givens} givens in 50 grids")
                made.minimal = None
                continue                      # the aim left a removable given: another grid
            if req.givens is not None and self.count(puzzle) != req.givens and made.grids < 20:
                continue                      # the aim was not met on this grid: another one
            aimed = self.aim(puzzle, solution, rng, budget, made)
            if aimed is None:
                continue
            puzzle, rating = aimed
            self.check(full, puzzle, solution, budget)
            if rating is not None:
                rating = self.finish(puzzle, solution, rating)
            if rating is not None and not self.in_range(rating):
                eased = self.ease(puzzle, solution, rating, rng, budget, made)
                if eased is not None:
                    puzzle, rating = eased
            if not self.in_range(rating):
                made.notes.clear()            # notes of a puzzle not kept
                continue                      # rated outside the difficulty asked: another grid
            made.puzzle, made.solution, made.rating = puzzle, solution, rating
            if req.minimal and req.givens is None:
                made.minimal = True           # dug until no orbit could go
            have = self.count(puzzle)
            if req.givens is not None and have != req.givens:
                made.notes.append(f"aimed at {req.givens} givens, made {have}")
            made.seconds = time.perf_counter() - started
            return made

    def ease(self, puzzle: Puzzle, solution: tuple[int, ...], rating: Rating,
             rng: random.Random, budget: _Budget, made: Made) -> tuple[Puzzle, Rating] | None:
        """Return the puzzle with values of its solution put back, an orbit at a time in a
        random order, until it rates no harder than the range asked, with its rating; None
        when it was not too hard, lands below the range, or may not be filled back (minimal,
        or aimed at a number of givens)."""
        req = self.request
        if req.difficulty is None or req.minimal or req.givens is not None:
            return None
        low, high = req.difficulty
        if rating.difficulty is None or rating.difficulty <= high:
            return None
        for trial in self.filled_back(puzzle, solution, rng, budget, made):
            rated = self.full_rating(trial, solution, budget, made)
            if rated is None:
                continue
            rated = self.finish(trial, solution, rated)
            if rated.difficulty is not None and rated.difficulty <= high:
                return (trial, rated) if rated.difficulty >= low else None
        return None

    def in_range(self, rating: Rating | None) -> bool:
        """Return whether a made puzzle's difficulty is in the range asked (always, when
        none is): a puzzle logic did not rate is outside every range."""
        if self.request.difficulty is None:
            return True
        low, high = self.request.difficulty
        value = None if rating is None else rating.difficulty
        return value is not None and low <= value <= high

    def difficulty_words(self) -> str:
        """Return " of difficulty LO-HI" for messages, or "" when no range is asked."""
        if self.request.difficulty is None:
            return ""
        return " of difficulty {:.1f}-{:.1f}".format(*self.request.difficulty)

    def oracle(self) -> _Oracle:
        """Return the uniqueness oracle of the current rules (a new one when they changed:
        per grid with clue rules or jigsaw regions)."""
        if self._oracle is None or self._oracle.problem.constraints is not self._clued.constraints:
            if self._oracle is not None:
                self._oracle.close()
            self._oracle = _Oracle(self._clued)
        return self._oracle

    def check(self, full: Puzzle, puzzle: Puzzle, solution: tuple[int, ...],
              budget: _Budget) -> None:
        """Check a made puzzle independently of the digging: its solution breaks no rule, and
        an engine other than the one that dug it finds no second solution (the native engine
        after SAT digging; SAT after native digging, where PySAT is installed)."""
        if not is_solution(full, solution):
            raise PolydokuError("generated a grid that breaks the rules (a bug)")
        problem = self._problem_of(puzzle)
        if self._oracle is not None and self._oracle.native and _has_pysat():
            outcome = _sat_count(problem, budget)
        else:
            outcome = search(problem, 2, timeout=_seconds(budget, 5.0), keep=0)
            if not outcome.exhausted and _has_pysat():
                # the native engine is slow on some rules (tables): a fresh SAT solver decides
                outcome = _sat_count(problem, budget)
        if not outcome.exhausted:
            raise GaveUp("time ran out while proving the puzzle unique")
        if outcome.found != 1:
            raise PolydokuError("generated a puzzle without a single solution (a bug)")

    @staticmethod
    def count(puzzle: Puzzle) -> int:
        return sum(1 for v in puzzle.givens if v)

    def aim(self, puzzle: Puzzle, solution: tuple[int, ...], rng: random.Random,
            budget: _Budget, made: Made) -> tuple[Puzzle, Rating | None] | None:
        """Return the dug puzzle (or one with some givens put back) rated at the level asked,
        with its rating; None when this grid gives no puzzle at that level.

        The dug puzzle is rated with techniques up to the level asked: at that level, done;
        below it, this grid cannot give one (removing more would lose uniqueness); above it
        (logic up to the level stalls), values of the solution are put back, an orbit at a
        time in a random order, until logic up to the level solves it, which lands at the
        level asked or just below (then the grid is dropped). Minimal puzzles and puzzles
        aimed at a number of givens are never filled back."""
        req = self.request
        if req.level is None:
            return puzzle, self.full_rating(puzzle, solution, budget, made)
        level = req.level
        top = LEVELS.index(level)
        limit = None if level == "Extreme" else level
        if top and solved_by_singles(self._problem_of(puzzle)):
            return None                     # Easy: and minimal, so no harder puzzle here
        rating = self.rate(puzzle, self._problem_of(puzzle), solution, limit, budget)
        if rating is None:
            return None
        rank = LEVELS.index(rating.level)
        if rating.solved and rank == top or level == "Extreme" and rank == top:
            return self.confirm(puzzle, solution, rating, budget)
        if rank < top or req.minimal or req.givens is not None:
            return None
        for trial in self.filled_back(puzzle, solution, rng, budget, made):
            if top and solved_by_singles(self._problem_of(trial)):
                return None                 # filled back past the level asked
            rating = self.rate(trial, self._problem_of(trial), solution, limit, budget)
            if rating is None:
                return None
            rank = LEVELS.index(rating.level)
            if rating.solved and rank <= top:
                return self.confirm(trial, solution, rating, budget) if rank == top else None
        return None

    def filled_back(self, puzzle: Puzzle, solution: tuple[int, ...], rng: random.Random,
                    budget: _Budget, made: Made) -> Iterator[Puzzle]:
        """Yield the puzzle with values of its solution put back, one more orbit each time, in
        a random order, until every orbit is back or the budget runs out."""
        holes = [o for o in self.orbits if not any(puzzle.givens[i] for i in o)]
        rng.shuffle(holes)
        givens = list(puzzle.givens)
        for orbit in holes:
            if budget.over():
                return
            for i in orbit:
                givens[i] = solution[i]
            made.trials += 1
            yield puzzle.with_givens(givens)

    def confirm(self, puzzle: Puzzle, solution: tuple[int, ...], rating: Rating,
                budget: _Budget) -> tuple[Puzzle, Rating] | None:
        """Return the puzzle with its rating by every technique (what `polydoku rate` says)
        when that is still the level asked, else None.

        Logic limited to a level can solve a puzzle that full logic rates higher: the rater
        takes the cheapest step each time, and a few techniques of a higher level score less
        than some of a lower one (HoDoKu's scores), so the two paths can differ."""
        if self.request.level == "Extreme" or full_logic_path(rating.counts, self.request.level):
            return puzzle, rating           # the path full logic takes: the same rating
        full = self.rate(puzzle, self._problem_of(puzzle), solution, None, budget)
        if full is None or full.level != self.request.level or not full.solved:
            return None
        return puzzle, full

    def full_rating(self, puzzle: Puzzle, solution: tuple[int, ...], budget: _Budget,
                    made: Made) -> Rating | None:
        """Return a puzzle's rating with every technique, when no level was asked (None, with
        a note, when logic cannot read its rules or takes longer than RATE_SECONDS)."""
        try:
            rating = self.rate(puzzle, self._problem_of(puzzle), solution, None, budget,
                               RATE_SECONDS)
        except BadInput:
            return None                     # rules logic cannot read (sums): "rating": null
        if rating is None:
            made.notes.append(f"not rated: logic took more than {RATE_SECONDS:g} s")
        return rating

    def _problem_of(self, puzzle: Puzzle) -> Problem:
        return self._clued.with_givens([(i, v) for i, v in enumerate(puzzle.givens) if v])


def _sat_count(problem: Problem, budget: _Budget):
    """Return the SAT engine's count of a problem's solutions, up to two."""
    from .engines.registry import make_engine
    outcome = make_engine("sat").solve(problem, max_solutions=2,
                                       timeout=_seconds(budget, UNIQUE_TIMEOUT))
    outcome.found = len(outcome.solutions)
    return outcome


def _has_pysat() -> bool:
    try:
        import pysat  # noqa: F401
    except ImportError:
        return False
    return True


def _names(rules: Sequence[Rule]) -> str:
    """Return the kinds of some rules, for a message."""
    return ", ".join(dict.fromkeys(r.kind for r in rules)) or "(none)"


def _box(geometry: Geometry) -> tuple[int, int] | None:
    """Return a geometry's box shape (None without rectangular boxes)."""
    return (geometry.box_rows, geometry.box_cols) if geometry.box_rows else None


def _deadline(budget: _Budget) -> float:
    """Return the monotonic deadline of one uniqueness proof."""
    return time.monotonic() + _seconds(budget, UNIQUE_TIMEOUT)


def _seconds(budget: _Budget, most: float) -> float:
    left = budget.left()
    return most if left is None else max(0.01, min(most, left))


def generate(request: Request, count: int = 1, start: int = 0) -> Iterable[Made]:
    """Yield `count` puzzles of a request, numbered from `start`."""
    gen = Generator(request)
    for k in range(start, start + count):
        yield gen.make(k)
