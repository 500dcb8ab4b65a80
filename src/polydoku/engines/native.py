"""The native engine: depth-first search on the smallest choice over the propagation core
(polydoku/core: bitmask candidates, naked and hidden singles, nogoods, tables, sums). It runs
in process and touches nothing outside it.

The core holds two views of one problem. The *cell view* (`core.compiled`, `core.cells`)
keeps one int per variable (bit v-1 set while value v is possible); reasoning code builds on
it, step by step. The compiled core (`polydoku._core`, src/polydoku/_core.c, bound in
`core.binding`) runs the search, counting and propagation where it was built; the pure-Python
search here, over the core's field view (`core.fields`), is its fallback
(`POLYDOKU_NATIVE=python` forces it), held to the same answers by test_core.py.

The *field view* (`_Core`) is what the pure-Python search runs on: in CPython it solves magictour_top1465
and forum_hardest_1106 about 4.5x faster than the same search over the cell view did. Sudoku is an exact cover: every variable takes exactly one value, and every value
appears exactly once in every full unit (an AllDifferent over `size` variables). Each of these
"exactly one" groups is a *field* of `size` bits, one bit per option (variable, value) of the
group, followed by a guard bit. All fields sit side by side in ONE Python int, so a handful of
big-int operations look at every field at once (SWAR: SIMD within a register):

    t = (Y | G) - L     per field x-1; a field's guard survives only where x != 0
    y = t & Y           per field x & (x-1): the field minus its lowest bit
    ((y | G) - L) & G   guard set where x has two or more bits

so "some field is empty" (a contradiction) and "these fields hold exactly one option"
(naked singles in cell fields, hidden singles in unit fields) cost a few operations for the
whole grid. Placing option o is `Y &= keep[o]`: one mask clears every option it conflicts
with (its variable's other values, the same value in every peer, nogood and |x-y|=d partners),
precomputed on first use. A search state is two ints (candidates, fields done), so branching
copies nothing and backtracking restores nothing.

Roads not taken (measured on magictour_top1465 and forum_hardest_1106, CPU time, same run):
- branching on the lowest field of fewest options, which favours unit fields: 1.5x the nodes
  and 1.3-1.5x the time of the highest one, which favours cell fields;
- eliminating what sees both options of every two-option field (bivalue cells, two-place units:
  pointing and claiming among them), applied once per field along a branch: it halves the
  nodes on top1465 (64,566 -> 29,880) and cuts them by a fifth on forum, yet costs 1.1x and
  1.6x the time, since finding and applying the pairs costs more than the nodes it saves;
- a trail of undo records: a state of two ints needs none.
"""

from __future__ import annotations

import time
from dataclasses import replace

from ..core.binding import _build_ccore, _ccore, _sum_groups, backend  # noqa: F401 (the engine's names)
from ..core.cells import _propagate_python, initial_candidates, propagate  # noqa: F401
from ..core.cells import reading_fixpoint
from ..core.compiled import Compiled, _compile, compile_problem  # noqa: F401
from ..core.fields import _core, _Core
from ..core.filters import constraint_filter  # noqa: F401
from ..problem import Problem
from .base import ALL_KINDS, Availability, Engine, Outcome, Status


class _TimedOut(Exception):
    """The deadline passed during the search."""


def _run(core: _Core, Y: int, D: int, limit: int, deadline: float | None, stats: dict,
         solutions: list, keep: int | None = None) -> None:
    """Depth-first search from a state, finding up to `limit` solutions (appending the first
    `keep` of them, all when None, and counting them in stats["found"]); counts nodes and
    guesses (branch points) in `stats`; raises _TimedOut past the deadline."""
    most = limit if keep is None else keep
    found = 0
    G, fixpoint, branch, mask = core.G, core.fixpoint, core.branch, core.mask
    stack = [(Y, D, -1)]
    nodes = guesses = 0
    try:
        while stack:
            Y, D, o = stack.pop()
            nodes += 1
            if deadline is not None and not nodes & 63 and time.monotonic() > deadline:
                raise _TimedOut
            if o >= 0:
                keep, done, _ = mask(o)
                Y &= keep
                D |= done
            state = fixpoint(Y, D)
            if state is None:
                continue
            Y, D = state
            if D == G:
                found += 1
                if found <= most:
                    solutions.append(core.solution(Y))
                if found >= limit:
                    return
                continue
            guesses += 1
            for o in reversed(branch(Y, D)):
                stack.append((Y, D, o))
    finally:
        stats["nodes"] += nodes
        stats["guesses"] += guesses
        stats["found"] = stats.get("found", 0) + found


def search(problem: Problem, max_solutions: int = 1, timeout: float | None = None,
           keep: int | None = None) -> Outcome:
    """Return the native engine's outcome for a problem: up to `max_solutions` solutions,
    `exhausted` when it has seen them all, status UNKNOWN when the deadline passed first.
    With `keep`, only the first `keep` solutions are kept (the rest counted: `found`), so a
    count of millions runs in little memory."""
    if problem.free_aux and max_solutions > 1:
        return _grids(problem, max_solutions, timeout)
    deadline = time.monotonic() + timeout if timeout else None
    C = compile_problem(problem)
    cc = _ccore(C)
    if cc is not None:
        return _csearch(cc, problem, max(1, max_solutions), deadline, keep)
    core = _core(problem, C)
    stats = {"nodes": 0, "guesses": 0}
    state = core.start(problem.givens)
    if state is None:
        return Outcome(Status.UNSATISFIABLE, exhausted=True, stats=stats, engine="native")
    solutions: list[tuple[int, ...]] = []
    limit = max(1, max_solutions)
    try:
        _run(core, *state, limit, deadline, stats, solutions, keep)
        timed_out = False
    except _TimedOut:
        timed_out = True
    return _outcome(solutions, stats.pop("found"), limit, stats, timed_out, keep)


def _grids(problem: Problem, limit: int, timeout: float | None) -> Outcome:
    """Return up to `limit` solutions of different grids when auxiliaries are free of the
    cells: each solution found splits what is left of its part of the search into disjoint
    parts by the first cell that differs from it (its earlier cells as in it, that cell of
    another value), each searched for one solution in turn."""
    deadline = time.monotonic() + timeout if timeout else None
    solutions: list[tuple[int, ...]] = []
    stats = {"nodes": 0, "guesses": 0, "searches": 0}
    parts = [dict(problem.givens)]
    while parts and len(solutions) < limit:
        fixed = parts.pop()
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            return _outcome(solutions, len(solutions), limit, stats, True, None)
        out = search(replace(problem, givens=tuple(sorted(fixed.items())), free_aux=False),
                     1, left)
        stats["searches"] += 1
        for key in ("nodes", "guesses"):
            stats[key] += out.stats.get(key, 0)
        if out.status is Status.UNKNOWN:
            return _outcome(solutions, len(solutions), limit, stats, True, None)
        if not out.solutions:
            continue
        found = out.solutions[0]
        solutions.append(found)
        prefix = dict(fixed)
        for i in range(problem.ncells):
            if i in fixed:
                continue
            parts += [{**prefix, i: v} for v in problem.values if v != found[i]]
            prefix[i] = found[i]
    return _outcome(solutions, len(solutions), limit, stats, False, None)


def _csearch(cc, problem: Problem, limit: int, deadline: float | None,
             keep: int | None) -> Outcome:
    """Return the outcome of the C core's search (the same contract as `search`)."""
    solutions, found, nodes, guesses, timed_out = cc.search(
        problem.givens, limit, limit if keep is None else keep, deadline or 0.0)
    return _outcome(solutions, found, limit, {"nodes": nodes, "guesses": guesses}, timed_out,
                    keep)


def _outcome(solutions: list, found: int, limit: int, stats: dict, timed_out: bool,
             keep: int | None) -> Outcome:
    """Return the outcome of a search (either one) that found `found` solutions, keeping
    `solutions`: cut by the deadline, solved or unknown; else exhausted below the limit."""
    counted = found if keep is not None else None
    if timed_out:
        status = Status.SOLVED if solutions else Status.UNKNOWN
        return Outcome(status, solutions, False, stats, timed_out_words(), "native",
                       found=counted)
    status = Status.SOLVED if solutions else Status.UNSATISFIABLE
    return Outcome(status, solutions, found < limit, stats, engine="native", found=counted)


# engines that learn from their conflicts, which prove the puzzles this search gives up on
# (a published sandwich puzzle: native past 120 s, sat in 20 s); the first one here is named
_PROVERS = (("sat", "pysat", "python-sat"), ("cpsat", "ortools", "ortools"))


def timed_out_words() -> str:
    """Return what the native engine says when its deadline passes: that it timed out, and
    the engine (installed here, or how to install it) that proves puzzles like this one."""
    import importlib.util
    for engine, module, _ in _PROVERS:
        if importlib.util.find_spec(module) is not None:
            return (f"timed out; {engine} learns from its conflicts and proves puzzles like "
                    f"this one: try --engine {engine}")
    engine, _, package = _PROVERS[0]
    return (f"timed out; {engine} learns from its conflicts and proves puzzles like this one "
            f"(pip install {package}, then --engine {engine})")


def count_with(problem: Problem, givens, limit: int = 2, deadline: float | None = None
               ) -> int | None:
    """Return how many solutions (up to `limit`) the problem's constraints have under other
    `givens` ((var, value) pairs), None when the monotonic `deadline` passed first. The
    quickest way to ask "still unique?" many times over one geometry (the generator's
    digging): no problem, outcome or solution tuple is built."""
    if problem.free_aux:
        left = None if deadline is None else max(deadline - time.monotonic(), 1e-3)
        out = _grids(replace(problem, givens=tuple(givens)), limit, left)
        return len(out.solutions) if out.exhausted or len(out.solutions) >= limit else None
    C = compile_problem(problem)
    cc = _ccore(C)
    if cc is not None:
        _, found, _, _, timed_out = cc.search(givens, limit, 0, deadline or 0.0)
        return None if timed_out else found
    core = _core(problem, C)
    state = core.start(givens)
    if state is None:
        return 0
    stats = {"nodes": 0, "guesses": 0}
    try:
        _run(core, *state, limit, deadline, stats, [], 0)
    except _TimedOut:
        return None
    return stats["found"]


def random_solution(problem: Problem, rng, deadline: float | None = None,
                    nodes: int = 2000, most: int | None = None) -> tuple[int, ...] | None:
    """Return a solution drawn at random: depth-first search that tries each branch's
    values in a random order (from `rng`, a random.Random), restarted after `nodes` nodes
    with twice the budget (a heavy-tailed search gets unlucky less often). None when the
    problem has no solution, the monotonic `deadline` passed first, or more than `most`
    nodes were searched in all (a count, so the same seed gives up at the same place)."""
    core = _core(problem, compile_problem(problem))
    start = core.start(problem.givens)
    if start is None:
        return None
    G, fixpoint, branch, mask = core.G, core.fixpoint, core.branch, core.mask
    budget, spent = nodes, 0
    while True:
        if most is not None and spent >= most:
            return None
        stack = [(*start, -1)]
        count = 0
        while stack and count < budget:
            Y, D, o = stack.pop()
            count += 1
            if deadline is not None and not count & 63 and time.monotonic() > deadline:
                return None
            if o >= 0:
                keep, done, _ = mask(o)
                Y &= keep
                D |= done
            state = fixpoint(Y, D)
            if state is None:
                continue
            Y, D = state
            if D == G:
                return core.solution(Y)
            options = branch(Y, D)
            rng.shuffle(options)
            stack.extend((Y, D, o) for o in options)
        if not stack:
            return None                       # searched it all: no solution
        spent += count
        budget *= 2


def solved_by_singles(problem: Problem) -> bool:
    """Return whether naked and hidden singles alone, repeated, fill every cell (the givens
    must hold a solution for the answer to mean "Easy")."""
    cands = reading_fixpoint(problem, compile_problem(problem), problem.givens)
    return cands is not None and all(not c & (c - 1) for c in cands)


class NativeEngine(Engine):
    """polydoku's own solver, in process."""

    id = "native"
    title = "polydoku's own bitmask propagation-and-search solver (in process)"
    install_hint = "built in"
    capabilities = frozenset({"solve", "count"})
    counts_grids = True
    takes = ALL_KINDS
    takes_aux = True
    takes_more_values = True

    def available(self) -> Availability:
        from .. import __version__
        return Availability(True, f"{__version__} ({backend()} search)")

    def solve(self, problem: Problem, *, max_solutions: int = 1,
              timeout: float | None = None, keep: int | None = None) -> Outcome:
        return search(problem, max_solutions, timeout, keep)
