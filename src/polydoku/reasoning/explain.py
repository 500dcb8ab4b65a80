"""Explanations: why a puzzle has no solution, and why a cell cannot hold a value.

The answer is a *conflict*: a set of givens that has no solution under the puzzle's rules and is
subset-minimal (remove any one given and the rest can be solved). Minimality is never taken on
trust: every given of a conflict comes with a *witness*, a solution of the other givens, checked
by `verify`; the conflict itself is re-proved unsatisfiable by the native engine when another
engine found it. With `smallest`, a cardinality-minimal conflict is searched for within a budget
by hitting-set duality; when the budget runs out the answer says so and keeps its bounds.

Clues are part of a conflict too: a puzzle's parameterised rules (cages, arrows, dots, outside
clues...) are soft like the givens. They are minimised first, with every given in place (drop a
clue; keep it dropped while there is still no solution), then the givens under the clues kept.
Both stay minimal: a clue whose removal made all the givens solvable also makes any subset of
them solvable. Global rules stay hard; whether one is part of the reason is reported
separately (`needed_rules`): the conflict is re-solved without each of them.

This module must not print, read files or choose exit codes (the CLI does); it talks to engines
only through their protocol (`solve`, and `core` where the engine declares it).

Roads not taken (figures from `bench/explain.py`: medians over 10 unsolvable tdoku puzzles and
50 magictour puzzles with one wrong given, as ratios to the native solve of the same puzzle):
- QuickXplain (Junker 2004) needs O(k log(n/k)) solver calls for a conflict of k among n givens,
  against n for deletion, but it yields no witnesses, so proving minimality costs k more calls,
  and its calls on small sets need more search. On 9x9 (n ~ 25, k ~ 5-25) it was 1.6-2.3x
  slower than deletion, so deletion is the default up to 9x9. Above, QuickXplain is the
  default (`method="auto"`): deletion's middle steps (the puzzle less a few givens, still
  close to a conflict) can be very hard to decide on 16x16 and 25x25, while QuickXplain mostly
  asks about small sets. Measured on the 16x16 of variants.jsonl with one wrong given: deletion
  over the native engine gave up after 300 s, QuickXplain took 0.4 s (the `sat` engine: 0.8 s
  and 0.2 s). Some 25x25 puzzles with a wrong given stay out of reach of both (exit 4).
- Assumption cores: an engine declaring "core" (the `sat` engine) gives a core first and again
  whenever a deletion step is refuted (clause-set refinement), and the deletion pass then only
  verifies it. On 9x9 this was no faster than plain deletion over the native engine (1.0x on
  the tdoku set, 2.3x slower on the wrong-given set, where the native engine refutes most
  steps by propagation), so the native engine stays the default; `--engine sat` uses cores.
- Cores from the native engine (recording which givens a refutation used) would slow every
  solve for a gain that, at these speeds, is not needed.
- Enumerating all conflicts (MARCO) to pick the smallest: there can be very many; implicit
  hitting sets only collect correction sets until a minimum hitting set is a conflict.
- A readable chain of deductions (singles and beyond) is the job of the human-style techniques
  (`reasoning.logic`); a conflict here is the set of givens, whatever the deduction.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Callable

from .. import core
from ..engines import Status, make_engine
from ..engines.base import Engine, Outcome, not_counted
from ..engines.native import search
from ..errors import BadInput, EngineFailed, EngineUnavailable
from ..model import Puzzle
from ..model.geometry import cell_name, parse_cell
from ..problem import AbsDiffNot, AllDifferent, Nogood, Problem, build_problem
from ..verify import grid_problems
from ..text import shorten, whole_number

Literal = tuple[int, int]          # (variable, value): a given, or the cell value asked about
Solution = tuple[int, ...]

_WHY = re.compile(r"^\s*(r\d+\s*c\d+)\s*=\s*(\S+)\s*$", re.IGNORECASE | re.ASCII)
_CONDA = re.compile(r"^\s*(\d+)x(\d+)-is=+(\S+)\s*$", re.ASCII)


def parse_why(text: str, puzzle: Puzzle) -> Literal:
    """Return (cell index, value) of `r1c6=4` (or conda's `1x6-is=4`); bad input otherwise."""
    n = puzzle.size
    m, conda = _WHY.match(text), _CONDA.match(text)
    if not (m or conda):
        raise BadInput(f"--why {text!r}: expected a cell and a value like r1c6=4")
    if m:
        cell_text, symbol = m.group(1), m.group(2)
    else:
        assert conda is not None
        cell_text, symbol = f"r{conda.group(1)}c{conda.group(2)}", conda.group(3)
    try:
        cell = parse_cell(cell_text, n)
    except BadInput as err:
        raise BadInput(f"--why {shorten(text)}: {err.reason}") from None
    lookup = {ch.upper(): k + 1 for k, ch in enumerate(puzzle.alphabet)}
    value = lookup.get(symbol.upper())
    if value is None and symbol.isascii() and symbol.isdigit() and 1 <= whole_number(symbol) <= n:
        value = whole_number(symbol)
    if value is None:
        raise BadInput(f"--why {shorten(text)}: value {shorten(symbol)!r} is not one of "
                       f"{puzzle.alphabet[0]}..{puzzle.alphabet[-1]}")
    return puzzle.geometry.index(cell), value


DEFAULT_SMALLEST_BUDGET = 10.0


class GaveUp(Exception):
    """The engine could not decide a question in the time left; `partial` still has no solution."""

    def __init__(self, message: str, partial: tuple[Literal, ...] = ()):
        super().__init__(message)
        self.partial = partial


@dataclass
class Explanation:
    """Why a puzzle (or a puzzle with one more cell value) has no solution, or that it has one.

    status: UNSATISFIABLE (`givens` is a conflict), SOLVED (`solutions` has one, or two when the
    puzzle has several; `is_unique` says which the engine proved, None when it did not count), UNKNOWN (the engine gave up; `givens` has no solution but is not
    proved minimal).
    """

    status: Status
    givens: tuple[Literal, ...] = ()
    assumption: Literal | None = None
    is_minimal: bool = False
    smallest: "Smallest | None" = None
    needed_rules: tuple[str, ...] = ()
    classic_suffices: bool = True
    clues: tuple = ()                    # the clue rules of the conflict (Rule objects)
    clue_witnesses: dict = field(default_factory=dict)   # clue -> a solution without it
    by_propagation: bool = False
    nodes: int = 0
    puzzle_unsolvable: bool = False
    solutions: list[Solution] = field(default_factory=list)
    exhausted: bool = False
    witnesses: dict[Literal, Solution] = field(default_factory=dict)
    stats: dict = field(default_factory=dict)
    message: str = ""

    @property
    def is_unique(self) -> bool | None:
        """Return whether the run proved exactly one solution (True) or found two (False);
        None when it did not count (an engine that cannot, or a `why` question)."""
        if self.status is not Status.SOLVED or self.assumption is not None:
            return None
        if len(self.solutions) >= 2:
            return False
        return True if self.exhausted else None


@dataclass
class Smallest:
    """The outcome of the search for a cardinality-minimal conflict."""

    is_proved: bool
    lower_bound: int
    seconds: float
    iterations: int
    message: str = ""


class Oracle:
    """Asks one engine whether the fixed literals plus some givens have a solution."""

    def __init__(self, problem: Problem, engine: Engine, fixed: tuple[Literal, ...] = (),
                 deadline: float | None = None):
        self.problem, self.engine, self.fixed, self.deadline = problem, engine, fixed, deadline
        self.has_core = "core" in engine.capabilities
        self.calls = 0
        self.solutions: list[Solution] = []
        self.refuted: dict[frozenset, dict] = {}    # givens proved to have no solution -> stats

    def time_left(self) -> float | None:
        """Return the seconds left before the deadline (None without one); GaveUp when none."""
        if self.deadline is None:
            return None
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise GaveUp("out of time")
        return left

    def outcome(self, givens, max_solutions: int = 1):
        """Return the engine's outcome for fixed + givens (errors raise, UNKNOWN raises GaveUp)."""
        self.calls += 1
        literals = self.fixed + tuple(givens)
        if len({var for var, _ in literals}) < len(set(literals)):
            # two values for one cell (`--why r1c1=1` where a 5 is given): no solution, and no
            # engine is asked, since each would keep one of the two values in its own way
            out = Outcome(Status.UNSATISFIABLE, engine=self.engine.spec,
                          message="two values for one cell")
            self.refuted[frozenset(literals)] = {}
            return out
        problem = self.problem.with_givens(literals)
        out = self.engine.solve(problem, max_solutions=max_solutions, timeout=self.time_left())
        if out.status is Status.ERROR:
            raise EngineFailed(self.engine.spec, out.message or "unknown error", out.log_path)
        if out.status is Status.UNKNOWN or (out.status is Status.SOLVED and not out.solutions):
            raise GaveUp(f"{self.engine.spec} gave up: {out.message or 'timed out'}")
        self.solutions += out.solutions
        if out.status is Status.UNSATISFIABLE:
            self.refuted[frozenset(self.fixed + tuple(givens))] = out.stats
        return out

    def solve(self, givens) -> Solution | None:
        """Return a solution of fixed + givens, or None when the engine proved there is none."""
        out = self.outcome(givens)
        return out.solutions[0] if out.status is Status.SOLVED else None

    def core(self, givens) -> list[Literal]:
        """Return the givens of an assumption core of fixed + givens (all of them without one)."""
        givens = list(givens)
        if not self.has_core:
            return givens
        self.calls += 1
        found = self.engine.core(self.problem.with_givens(self.fixed + tuple(givens)),
                                 timeout=self.time_left())
        if found.status is not Status.UNSATISFIABLE:
            return givens
        keep = set(found.givens)
        return [g for g in givens if g in keep]


def deletion(oracle: Oracle, givens) -> tuple[list[Literal], dict[Literal, Solution]]:
    """Return a subset-minimal conflict within `givens` (which have no solution) and a witness
    for each of its givens: a solution of the others.

    Each given is dropped in turn; it stays when the rest can be solved. Invariant: kept + [g] +
    rest has no solution (`proved` says whether that was shown by a solve, not only by a core).
    """
    rest = oracle.core(givens)
    proved = len(rest) == len(list(givens))
    kept: list[Literal] = []
    witnesses: dict[Literal, Solution] = {}
    pending: list[Literal] = []
    try:
        while rest:
            g = rest.pop(0)
            pending = [g]
            solution = oracle.solve(kept + rest)
            if solution is None:
                proved = True
                if oracle.has_core and rest:
                    shrunk = set(oracle.core(kept + rest))
                    proved = all(x in shrunk for x in rest)
                    rest = [x for x in rest if x in shrunk]
            else:
                kept.append(g)
                witnesses[g] = solution
            pending = []
    except GaveUp as err:
        raise GaveUp(str(err), tuple(kept + pending + rest)) from None
    if not proved and oracle.solve(kept) is not None:
        raise EngineFailed(oracle.engine.spec, "its core was not a conflict: the givens it named "
                                               "can be solved")
    return kept, witnesses


def quickxplain(oracle: Oracle, givens) -> tuple[list[Literal], dict[Literal, Solution]]:
    """Return a subset-minimal conflict found by QuickXplain, with witnesses (a deletion pass
    over its result, which also re-proves minimality)."""

    def qx(base: list[Literal], has_delta: bool, cands: list[Literal]) -> list[Literal]:
        if has_delta and oracle.solve(base) is None:
            return []
        if len(cands) == 1:
            return list(cands)
        c1, c2 = cands[: len(cands) // 2], cands[len(cands) // 2:]
        d2 = qx(base + c1, bool(c1), c2)
        d1 = qx(base + d2, bool(d2), c1)
        return d1 + d2

    givens = list(givens)
    try:
        found = qx([], False, givens) if givens else []
    except GaveUp as err:
        raise GaveUp(str(err), tuple(givens)) from None
    order = {g: k for k, g in enumerate(givens)}
    return deletion(oracle, sorted(found, key=order.__getitem__))


METHODS: dict[str, Callable[[Oracle, list], tuple[list[Literal], dict[Literal, Solution]]]] = {
    "deletion": deletion,
    "quickxplain": quickxplain,
}
AUTO_DELETION_MAX_SIZE = 9


def choose_method(method: str, size: int) -> str:
    """Return the method to use: `auto` is deletion up to 9x9, QuickXplain above."""
    if method == "auto":
        return "deletion" if size <= AUTO_DELETION_MAX_SIZE else "quickxplain"
    if method not in METHODS:
        raise ValueError(f"unknown explanation method {method!r} (known: auto, "
                         f"{', '.join(METHODS)})")
    return method


def satisfied(givens: list[Literal], solution: Solution) -> int:
    """Return the bitmask of the givens (by position) that a solution keeps."""
    return sum(1 << k for k, (var, value) in enumerate(givens) if solution[var] == value)


def grow(oracle: Oracle, givens: list[Literal], solution: Solution) -> int:
    """Return a minimal correction set (bitmask): the givens left out of a maximal solvable
    subset grown from the givens that `solution` keeps."""
    full = (1 << len(givens)) - 1
    kept = satisfied(givens, solution)
    for k in range(len(givens)):
        if kept >> k & 1:
            continue
        trial = [g for j, g in enumerate(givens) if kept >> j & 1 or j == k]
        found = oracle.solve(trial)
        if found is not None:
            kept = satisfied(givens, found)
    return full & ~kept


def min_hitting_set(sets: list[int], deadline: float) -> int | None:
    """Return a minimum-cardinality hitting set (bitmask) of the sets, or None when out of time."""
    sets = sorted(set(sets), key=int.bit_count)
    best = _greedy_hitting_set(sets)
    best_size = best.bit_count()
    nodes = 0

    def packing_bound(unhit: list[int]) -> int:
        used, bound = 0, 0
        for s in unhit:
            if not s & used:
                used |= s
                bound += 1
        return bound

    def rec(chosen: int, size: int, unhit: list[int]) -> None:
        nonlocal best, best_size, nodes
        nodes += 1
        if nodes & 1023 == 0 and time.monotonic() > deadline:
            raise GaveUp("out of time in the hitting-set search")
        if not unhit:
            best, best_size = chosen, size
            return
        if size + packing_bound(unhit) >= best_size:
            return
        pivot = unhit[0]
        elements = [1 << k for k in range(pivot.bit_length()) if pivot >> k & 1]
        elements.sort(key=lambda e: -sum(1 for s in unhit if s & e))
        for e in elements:
            rec(chosen | e, size + 1, [s for s in unhit if not s & e])

    try:
        rec(0, 0, sets)
    except GaveUp:
        return None
    return best


def _greedy_hitting_set(sets: list[int]) -> int:
    """Return a hitting set chosen greedily (an upper bound for the branch and bound)."""
    chosen, unhit = 0, list(sets)
    while unhit:
        counts: dict[int, int] = {}
        for s in unhit:
            for k in range(s.bit_length()):
                if s >> k & 1:
                    counts[k] = counts.get(k, 0) + 1
        e = 1 << max(counts, key=counts.__getitem__)
        chosen |= e
        unhit = [s for s in unhit if not s & e]
    return chosen


def smallest_conflict(oracle: Oracle, givens: list[Literal], known: list[Literal],
                      budget: float) -> tuple[list[Literal], dict[Literal, Solution], Smallest]:
    """Return a cardinality-minimal conflict (or the smallest found when the budget runs out),
    its witnesses, and how the search went.

    Implicit hitting sets: every solution keeps a solvable subset of the givens, so the givens
    it breaks form a correction set that every conflict must hit. A minimum hitting set of the
    correction sets found so far is a lower bound; when it has no solution it is a smallest
    conflict; when it has one, that solution yields a new (grown, minimal) correction set.
    """
    started = time.monotonic()
    deadline = started + budget
    if oracle.deadline is not None:
        deadline = min(deadline, oracle.deadline)
    saved, oracle.deadline = oracle.deadline, deadline
    full = (1 << len(givens)) - 1
    sets = [full & ~satisfied(givens, s) for s in oracle.solutions]
    sets = [s for s in sets if s]
    best, lower, iterations, message = list(known), 0, 0, ""
    try:
        while lower < len(best):
            iterations += 1
            hs = min_hitting_set(sets, deadline)
            if hs is None:
                raise GaveUp("out of time in the hitting-set search")
            lower = hs.bit_count()
            if lower >= len(best):
                break
            chosen = [g for k, g in enumerate(givens) if hs >> k & 1]
            solution = oracle.solve(chosen)
            if solution is None:
                best, lower = chosen, len(chosen)
                break
            sets.append(grow(oracle, givens, solution))
    except GaveUp as err:
        message = f"gave up after {time.monotonic() - started:.1f} s ({err})"
    finally:
        oracle.deadline = saved
    conflict, witnesses = deletion(oracle, best)
    report = Smallest(lower >= len(conflict), min(lower, len(conflict)),
                      round(time.monotonic() - started, 3), iterations, message)
    return conflict, witnesses, report


def direct_clash(problem: Problem, fixed: tuple[Literal, ...],
                 soft: list[Literal]) -> list[Literal] | None:
    """Return the one or two givens that, with the fixed literals, break a constraint outright
    (two values in one cell, one value twice in a unit, a nogood, consecutive neighbours).

    It reads the constraints itself rather than the core's exclusions: the pair it names is the
    one the first broken constraint in the problem's order holds (a row before a variant rule),
    an order the core's per-candidate bitsets do not keep."""
    value: dict[int, int] = {}
    origin: dict[int, Literal] = {}
    for lit in (*fixed, *soft):
        if lit[0] in value and value[lit[0]] != lit[1]:
            return [x for x in (origin[lit[0]], lit) if x not in fixed]
        value[lit[0]], origin[lit[0]] = lit[1], lit
    for c in problem.constraints:
        pair = None
        if isinstance(c, AllDifferent):
            seen: dict[int, int] = {}
            for v in c.vars:
                if v in value and value[v] in seen:
                    pair = (seen[value[v]], v)
                    break
                if v in value:
                    seen[value[v]] = v
        elif isinstance(c, Nogood):
            pair = (c.x, c.y) if value.get(c.x) == c.a and value.get(c.y) == c.b else None
        elif isinstance(c, AbsDiffNot) and c.x in value and c.y in value:
            pair = (c.x, c.y) if abs(value[c.x] - value[c.y]) == c.d else None
        if pair:
            return [origin[v] for v in pair if origin[v] not in fixed]
    return None


def resolve_engine(engine: str | Engine) -> Engine:
    """Return a runnable engine for a spec or an engine (EngineUnavailable when it is missing)."""
    eng = engine if isinstance(engine, Engine) else make_engine(engine)
    avail = eng.available()
    if not avail.ok:
        raise EngineUnavailable(eng.id, avail.reason, avail.hint or eng.install_hint)
    return eng


def native_proof(problem: Problem, literals: tuple[Literal, ...], timeout: float | None = None,
                 known: dict | None = None) -> tuple[bool | None, int]:
    """Return (refuted by propagation alone?, search nodes) for the native engine on the
    literals; (None, 0) when it solves them, i.e. they are no conflict. `known` is the stats of
    a native refutation already made, to save a second search."""
    reduced = problem.with_givens(literals)
    if core.domains(reduced) is None:
        return True, 0
    if known is None:
        out = search(reduced, 1, timeout)
        if out.status is Status.SOLVED:
            return None, 0
        known = out.stats
    return False, int(known.get("nodes", 0))


def needed_rules(puzzle: Puzzle, engine: Engine, literals: tuple[Literal, ...],
                 deadline: float | None) -> tuple[tuple[str, ...], bool]:
    """Return the variant rules without which the literals can be solved, and whether the
    classic rules alone already refute them."""
    if not any(r.is_global for r in puzzle.rules):
        return (), True
    clues = tuple(r for r in puzzle.rules if not r.is_global)

    def solvable(rules) -> bool:
        problem = build_problem(puzzle.with_rules(rules))
        return Oracle(problem, engine, (), deadline).solve(literals) is not None

    globals_ = [r for r in puzzle.rules if r.is_global]
    needed = tuple(r.name for r in globals_
                   if solvable(tuple(x for x in puzzle.rules if x != r)))
    if needed:
        return needed, False
    return (), len(globals_) == 1 or not solvable(clues)


def minimal_clues(puzzle: Puzzle, engine: Engine, literals: tuple[Literal, ...],
                  deadline: float | None) -> tuple[tuple, dict]:
    """Return a subset-minimal set of the puzzle's clue rules under which the literals still
    have no solution (global rules always kept), and for each clue kept a solution without it."""
    kept = [r for r in puzzle.rules if not r.is_global]
    globals_ = tuple(r for r in puzzle.rules if r.is_global)
    witnesses: dict = {}
    for clue in list(kept):
        trial = [r for r in kept if r is not clue]
        problem = build_problem(puzzle.with_rules(globals_ + tuple(trial)))
        solution = Oracle(problem, engine, (), deadline).solve(literals)
        if solution is None:
            kept = trial
        else:
            witnesses[clue] = solution
    return tuple(kept), witnesses


def check_solution(puzzle: Puzzle, literals, solution: Solution, engine: Engine) -> None:
    """Raise EngineFailed unless `solution` solves the puzzle's rules with exactly these givens."""
    n = puzzle.geometry.ncells
    values = [0] * n
    for var, value in literals:
        if solution[var] != value:
            raise EngineFailed(engine.spec, f"returned a wrong solution: "
                                            f"{cell_name(puzzle.geometry.cell(var))} holds "
                                            f"{solution[var]}, not {value}")
        values[var] = value
    wrong = grid_problems(puzzle.with_givens(values), solution[:n])
    if wrong:
        raise EngineFailed(engine.spec, f"returned a wrong solution: {wrong[0]}")


def explain(puzzle: Puzzle, *, why: Literal | None = None, engine: str | Engine = "native",
            method: str = "auto", smallest: bool = False,
            smallest_budget: float = DEFAULT_SMALLEST_BUDGET,
            timeout: float | None = None) -> Explanation:
    """Return why the puzzle has no solution (or, with `why=(cell index, value)`, why that cell
    cannot hold that value), or that it has one."""
    eng = resolve_engine(engine)
    method = choose_method(method, puzzle.size)
    started = time.perf_counter()
    deadline = time.monotonic() + timeout if timeout else None
    problem = build_problem(puzzle)
    fixed = (why,) if why else ()
    oracle = Oracle(problem, eng, fixed, deadline)
    soft = list(problem.givens)
    result = Explanation(Status.UNKNOWN, assumption=why)
    try:
        first = oracle.outcome(soft, 1 if why else 2)
        if first.status is Status.SOLVED:
            for s in first.solutions:
                check_solution(puzzle, fixed + tuple(soft), s, eng)
            result = Explanation(Status.SOLVED, assumption=why, solutions=list(first.solutions),
                                 exhausted=first.exhausted)
            if not why and result.is_unique is None:
                result.message = not_counted(eng.spec, "count" in eng.capabilities)
        else:
            if why and Oracle(problem, eng, (), deadline).solve(soft) is None:
                fixed, oracle.fixed = (), ()
                result.puzzle_unsolvable, result.assumption = True, None
            if any(not r.is_global for r in puzzle.rules):
                clues, result.clue_witnesses = minimal_clues(puzzle, eng, fixed + tuple(soft),
                                                             deadline)
                result.clues = clues
                puzzle = puzzle.with_rules(tuple(r for r in puzzle.rules if r.is_global) + clues)
                problem = build_problem(puzzle)
                oracle = Oracle(problem, eng, fixed, deadline)
            result = _conflict(puzzle, problem, oracle, soft, method, smallest, smallest_budget,
                               result)
    except GaveUp as err:
        result.status, result.message = Status.UNKNOWN, str(err)
        result.givens = err.partial
    result.stats.update(engine=eng.spec, method=method, calls=oracle.calls,
                        seconds=round(time.perf_counter() - started, 6))
    return result


def _conflict(puzzle: Puzzle, problem: Problem, oracle: Oracle, soft: list[Literal], method: str,
              smallest: bool, budget: float, result: Explanation) -> Explanation:
    """Fill `result` with a verified subset-minimal (optionally smallest) conflict."""
    # Givens that break a rule outright (with the value asked about) are the smallest answer
    # there is; deletion in row-major order could pass them by for a long chain.
    clash = direct_clash(problem, oracle.fixed, soft)
    conflict, witnesses = deletion(oracle, clash) if clash else METHODS[method](oracle, soft)
    if smallest:
        conflict, witnesses, result.smallest = smallest_conflict(oracle, soft, conflict, budget)
    order = {g: k for k, g in enumerate(soft)}
    conflict.sort(key=order.__getitem__)
    fixed = oracle.fixed
    for g in conflict:
        check_solution(puzzle, fixed + tuple(x for x in conflict if x != g), witnesses[g],
                       oracle.engine)
    literals = fixed + tuple(conflict)
    stats = oracle.refuted.get(frozenset(literals)) if oracle.engine.id == "native" else None
    left = None if oracle.deadline is None else max(1.0, oracle.deadline - time.monotonic())
    by_propagation, nodes = native_proof(problem, literals, left, stats)
    if by_propagation is None:
        raise EngineFailed(oracle.engine.spec, "claimed no solution, but the native engine "
                                               "solved the givens it named")
    rules, classic = needed_rules(puzzle, oracle.engine, literals, oracle.deadline)
    result.status = Status.UNSATISFIABLE
    result.givens, result.witnesses, result.is_minimal = tuple(conflict), witnesses, True
    result.by_propagation, result.nodes = by_propagation, nodes
    result.needed_rules, result.classic_suffices = rules, classic
    return result
