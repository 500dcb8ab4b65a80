"""Finite automata over a grid's values, as the regex and nfa kinds read the values along
their cells: an automaton (several starts, several targets per symbol, empty moves), its run
over a line's values (the statement), and its unfolding over a line of L cells into one
deterministic, minimal state per step (the lowering).

Symbols are a grid's value indices 1..V. The unfolding is what keeps counts true: a state
per step is a set of the automaton's states (subset construction), so the cells fix each
auxiliary variable and every grid has exactly one run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Sequence

from ..errors import BadInput

MAX_STATES = 4096          # states of an automaton as read or compiled
MAX_UNFOLDED = 3000        # deterministic states of one line's unfolding, over all its steps
MAX_WORK = 3_000_000       # states read while unfolding one line (a bound on its time)


@dataclass
class Automaton:
    """A nondeterministic automaton: per state, its moves by symbol and its empty moves."""

    moves: list[dict[int, set[int]]] = field(default_factory=list)
    empty: list[set[int]] = field(default_factory=list)
    starts: set[int] = field(default_factory=set)
    accepts: set[int] = field(default_factory=set)

    def add_state(self) -> int:
        """Return a new state's number (BadInput past MAX_STATES)."""
        if len(self.moves) >= MAX_STATES:
            raise BadInput(f"the automaton has more than {MAX_STATES} states")
        self.moves.append({})
        self.empty.append(set())
        return len(self.moves) - 1

    def add_move(self, a: int, b: int, symbol: int) -> None:
        self.moves[a].setdefault(symbol, set()).add(b)

    def closure(self, states) -> frozenset[int]:
        """Return the states reached from `states` by empty moves (themselves included)."""
        seen = set(states)
        todo = list(seen)
        while todo:
            for t in self.empty[todo.pop()]:
                if t not in seen:
                    seen.add(t)
                    todo.append(t)
        return frozenset(seen)

    def step(self, states: frozenset[int], symbol: int) -> frozenset[int]:
        """Return the states after reading one symbol from `states`."""
        out: set[int] = set()
        for s in states:
            out |= self.moves[s].get(symbol, set())
        return self.closure(out) if out else frozenset()

    def accepts_word(self, word: Sequence[int]) -> bool:
        """Return whether the automaton accepts the symbols read in order."""
        states = self.closure(self.starts)
        for symbol in word:
            states = self.step(states, symbol)
            if not states:
                return False
        return bool(states & self.accepts)


@dataclass(frozen=True)
class Unfolded:
    """A line's automaton unfolded over its L cells: `sizes[i]` deterministic states before
    cell i (and `sizes[L]` after the last), `edges[i]` the (state, value, next state) of cell i,
    states numbered from 1. Empty edges: no filling of the line is accepted."""

    sizes: tuple[int, ...]
    edges: tuple[tuple[tuple[int, int, int], ...], ...]


def unfold(aut: Automaton, length: int, nsymbols: int) -> Unfolded:
    """Return the automaton unfolded over `length` cells of values 1..nsymbols: subset
    construction step by step, kept to the states from which an accepted end is still
    reachable, and merged where the rest of the line is read the same (minimal per step)."""
    # a set of states keeps only those that read on or accept (the others change nothing),
    # and each state's targets by a symbol, empty moves followed, are found once
    useful = frozenset(i for i, m in enumerate(aut.moves) if m) | frozenset(aut.accepts)
    closed: dict[tuple[int, int], frozenset[int]] = {}
    work = [0]

    def step(states: frozenset[int], v: int) -> frozenset[int] | None:
        work[0] += len(states)
        if work[0] > MAX_WORK:
            raise BadInput(f"the automaton takes too long to unfold along {length} cells")
        out: set[int] = set()
        for t in states:
            hit = closed.get((t, v))
            if hit is None:
                hit = closed[(t, v)] = aut.closure(aut.moves[t].get(v, ())) & useful
            out |= hit
        return frozenset(out) or None

    return unfold_steps(aut.closure(aut.starts) & useful, step,
                        lambda states: bool(states & aut.accepts), length, nsymbols)


def unfold_steps(start: Hashable, step: Callable[[Any, int], Hashable | None],
                 accepts: Callable[[Any], bool], length: int, nsymbols: int) -> Unfolded:
    """Return a deterministic automaton given by its moves (`step(state, value)`: the next
    state, None for none) unfolded over `length` cells of values 1..nsymbols, as `unfold`."""
    layers: list[list[Any]] = [[start]]
    moves: list[list[tuple[int, int, int]]] = []
    total = 1
    for _ in range(length):
        index: dict[Any, int] = {}
        here = []
        for k, state in enumerate(layers[-1]):
            for v in range(1, nsymbols + 1):
                after = step(state, v)
                if after is not None:
                    here.append((k, v, index.setdefault(after, len(index))))
        total += len(index)
        if total > MAX_UNFOLDED:
            raise BadInput(f"the automaton unfolds to more than {MAX_UNFOLDED} states along "
                           f"{length} cells")
        layers.append(list(index))
        moves.append(here)
    # backwards: a state's class is what the rest of the line may read from it (-1: nothing)
    cls = [0 if accepts(s) else -1 for s in layers[-1]]
    sizes = [1 if 0 in cls else 0]
    edges: list[tuple[tuple[int, int, int], ...]] = []
    for i in range(length - 1, -1, -1):
        sig: list[list[tuple[int, int]]] = [[] for _ in layers[i]]
        for k, v, t in moves[i]:
            if cls[t] >= 0:
                sig[k].append((v, cls[t]))
        names: dict[tuple[tuple[int, int], ...], int] = {}
        named = [names.setdefault(tuple(s), len(names)) if s else -1 for s in sig]
        edges.append(tuple(sorted({(named[k] + 1, v, cls[t] + 1) for k, v, t in moves[i]
                                   if named[k] >= 0 and cls[t] >= 0})))
        sizes.append(len(names))
        cls = named
    return Unfolded(tuple(reversed(sizes)), tuple(reversed(edges)))


def lower_line(b, cells, unfolded: Unfolded, what: str) -> None:
    """Lower a line's unfolded automaton: one auxiliary state between two cells where a step
    has more than one, and a table per cell of (state before, value, state after)."""
    xs = b.vars(cells)
    if not unfolded.edges[0]:
        b.unary(xs[0], lambda v: False)           # no filling of the line is accepted
        return
    states = [b.new_var(n, f"{what} state {i}") if n > 1 and 0 < i < len(xs) else None
              for i, n in enumerate(unfolded.sizes)]
    for i, x in enumerate(xs):
        before, after = states[i], states[i + 1]
        if before is not None and after is not None:
            b.table((before, x, after), unfolded.edges[i])    # sorted, each edge once
            continue
        keep = [k for k, var in enumerate((before, x, after)) if var is not None]
        rows = {tuple(edge[k] for k in keep) for edge in unfolded.edges[i]}
        b.table([(before, x, after)[k] for k in keep], sorted(rows))
