"""The rule kinds' own logic (`Rule.deduce`) never removes a true value: rules drawn at random
and kept when a random solution grid obeys them, on random candidate states that still hold
the solution, must leave every solution value in place (Hypothesis draws the grids, rules and
states)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from polydoku.engines.native import random_solution
from polydoku.model import Geometry, Puzzle
from polydoku.rules import rule_from_data
from polydoku.problem import build_problem
from polydoku.rules import KINDS

N = 9
G = Geometry.of_size(N)
_GRIDS: dict[int, tuple[int, ...]] = {}


def grid_of(seed: int) -> tuple[int, ...]:
    if seed not in _GRIDS:
        problem = build_problem(Puzzle.empty(N))
        _GRIDS[seed] = problem.grid(random_solution(problem, random.Random(seed)))
    return _GRIDS[seed]


def name(i: int) -> str:
    return f"r{i // N + 1}c{i % N + 1}"


def path(rng: random.Random, length: int, king: bool = True) -> list[str]:
    """Return a random walk of distinct cells (king or orthogonal steps)."""
    cells = [rng.randrange(N * N)]
    steps = [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)
             and (king or a == 0 or b == 0)]
    while len(cells) < length:
        r, c = divmod(cells[-1], N)
        options = [(r + a) * N + c + b for a, b in steps if 0 <= r + a < N and 0 <= c + b < N
                   and (r + a) * N + c + b not in cells]
        if not options:
            break
        cells.append(rng.choice(options))
    return [name(i) for i in cells]


def candidates(rng: random.Random, grid) -> list[dict]:
    """Return rule data of every kind with a technique, parameters drawn at random and sums
    taken from the grid (so that most of them hold)."""
    val = {name(i): v for i, v in enumerate(grid)}
    line = path(rng, rng.randint(2, 6))
    side, index = rng.choice(["left", "right", "top", "bottom"]), rng.randint(1, N)
    r, c = rng.randrange(N - 1), rng.randrange(N - 1)
    block = [f"r{r + 1}c{c + 1}", f"r{r + 1}c{c + 2}", f"r{r + 2}c{c + 1}", f"r{r + 2}c{c + 2}"]
    pair = path(rng, 2, king=False)
    out = [
        {"kind": "killer", "cells": line, "sum": sum(val[x] for x in line)},
        {"kind": "thermometer", "cells": sorted(line, key=val.get)},
        {"kind": "slow-thermometer", "cells": sorted(line, key=val.get)},
        {"kind": "arrow", "circle": [line[0]], "cells": line[1:]},
        {"kind": "kropki-white", "cells": pair}, {"kind": "kropki-black", "cells": pair},
        {"kind": "xv", "cells": pair, "sum": val[pair[0]] + val[pair[1]]},
        {"kind": "whispers", "cells": line}, {"kind": "parity", "cells": line},
        {"kind": "palindrome", "cells": line}, {"kind": "renban", "cells": line},
        {"kind": "between", "cells": line}, {"kind": "clone", "cells": line[:1],
                                               "copy": [rng.choice(list(val))]},
        {"kind": "even", "cells": line}, {"kind": "odd", "cells": line},
        {"kind": "quadruple", "cells": block, "values": sorted(rng.sample(
            [val[x] for x in block], rng.randint(1, 4)))},
        {"kind": "minimum", "cells": line[:1]}, {"kind": "maximum", "cells": line[:1]},
        {"kind": "entropic", "cells": line}, {"kind": "modular", "cells": line},
        {"kind": "greater-than", "cells": sorted(pair, key=val.get, reverse=True)},
        {"kind": "lockout", "cells": line, "difference": rng.randint(1, 4)},
    ]
    rule = {"kind": "sandwich", "side": side, "index": index, "sum": 0}
    made = rule_from_data(rule, G)
    vals = [val[name(G.index(x))] for x in made.line(N)]
    i, j = sorted((vals.index(1), vals.index(N)))
    out.append({**rule, "sum": sum(vals[i + 1:j])})
    xsum = {"kind": "x-sum", "side": side, "index": index, "sum": 0}
    made = rule_from_data(xsum, G)
    vals = [val[name(G.index(x))] for x in made.line(N)]
    out.append({**xsum, "sum": sum(vals[:vals[0]])})
    room = {"kind": "numbered-room", "side": side, "index": index, "value": 1}
    made = rule_from_data(room, G)
    vals = [val[name(G.index(x))] for x in made.line(N)]
    out.append({**room, "value": vals[vals[0] - 1]})
    sky = {"kind": "skyscraper", "side": side, "index": index, "count": 1}
    made = rule_from_data(sky, G)
    vals = [val[name(G.index(x))] for x in made.line(N)]
    out.append({**sky, "count": sum(v > max(vals[:k], default=0) for k, v in enumerate(vals))})
    start = rng.choice([f"r1c{k}" for k in range(1, N + 1)])
    lk = {"kind": "little-killer", "cell": start, "direction": rng.choice(["DR", "DL"]),
          "sum": 0}
    made = rule_from_data(lk, G)
    out.append({**lk, "sum": sum(val[name(G.index(x))] for x in made.diagonal(G))})
    listed = {d["kind"] for d in out}
    for kind, cls in KINDS.items():            # kinds with a module of their own draw themselves
        if kind in listed or not cls.technique:
            continue
        for _ in range(50):
            data = cls.sample(rng, N)
            if isinstance(data, dict) and not list(rule_from_data(data, G).violations(grid, G)):
                out.append(data)
                break
    return out


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 7), draw=st.integers(0, 10 ** 6), keep=st.floats(0.1, 0.9))
def test_rule_logic_never_removes_a_true_value(seed, draw, keep):
    grid = grid_of(seed)
    rng = random.Random(draw)
    techniques = set()
    for data in candidates(rng, grid):
        try:
            rule = rule_from_data(data, G)
        except Exception:           # a drawn parameter the kind refuses (a bent line...)
            continue
        if not rule.technique or list(rule.violations(grid, G)):
            continue                # the grid breaks this rule: nothing to check
        cands = [(1 << (v - 1)) | sum(1 << k for k in range(N) if rng.random() < keep)
                 for v in grid]
        found = rule.deduce(G, cands)
        if found is None:
            continue
        drop, reason = found
        techniques.add(rule.technique)
        for i, mask in drop.items():
            assert not mask >> (grid[i] - 1) & 1, (data, reason, name(i), grid[i])
            assert not mask & ~cands[i], "a dropped value that was not a candidate"
        assert "\n" not in reason


def test_every_kind_with_a_technique_is_drawn_above():
    drawn = {d["kind"] for d in candidates(random.Random(1), grid_of(0))}
    named = {k for k, cls in KINDS.items() if cls.technique}
    assert named <= drawn, named - drawn
