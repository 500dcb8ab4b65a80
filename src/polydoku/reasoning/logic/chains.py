"""Chains: X-Chain, XY-Chain and alternating inference chains (AIC, nice loops).

A strong link joins two candidates of which at least one is true (a bivalue cell, a value with
two places in a house); a weak link joins two that cannot both be true (the layout's conflicts:
same cell, peers with one value, non-consecutive neighbours). A chain that starts "if s is
false" and alternates strong and weak links ends in "then y is true": s or y holds, so every
candidate that excludes both goes. A chain that comes back to s itself proves s.

The search is breadth-first from every start, so the chain reported is a shortest one. Finders
return the first (shortest) step they see, or None; none changes the board.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from typing import Callable, Iterable, cast

from .board import Board, bits, compiled_core, remember, values_of
from .propagation import clue_strong_links
from .step import Step, cands_of_mask, make_step

MAX_LINKS = {"X-Chain": 15, "XY-Chain": 15, "AIC": 13}

Strong = dict[int, list[int]]


def _join(strong: Strong, a: int, b: int) -> None:
    """Add the strong link a = b (both ways)."""
    strong.setdefault(a, []).append(b)
    strong.setdefault(b, []).append(a)


@dataclass
class Found:
    """A chain from start `s` (false) to `end` (true): its links and what it concludes."""

    links: int
    start: int
    end: int
    nodes: list[tuple[int, bool]]     # (candidate, is true) from the start on
    eliminations: int                  # candidate bitset
    proves_start: bool


def strong_links(board: Board, bivalue: bool, bilocal: bool, digit: int = 0) -> Strong:
    """Return, per candidate, its strong-link partners (bivalue cells and/or two-place houses)."""
    lay = board.layout
    n = lay.size
    out: Strong = {}
    if bivalue:
        for i in board.unsolved():
            c = board.cand[i]
            if c.bit_count() == 2:
                a, b = (i * n + k for k in bits(c))
                _join(out, a, b)
    if bilocal:
        for h in lay.houses:
            for v in ([digit] if digit else range(1, n + 1)):
                places = board.place_mask(h, v)
                if places.bit_count() == 2:
                    a, b = (i * n + v - 1 for i in bits(places))
                    _join(out, a, b)
    return out


@dataclass
class Graph:
    """Links between nodes: a node is a candidate, or a group of candidates (one value, cells of
    one box and one line) that is "true" when one of them is."""

    strong: Strong
    weak: Callable[[int], Iterable[int]]      # nodes that a true node makes false
    conf: Callable[[int], int]                # candidates a true node makes false
    label: Callable[[int], str]               # "(5)r1c1", "(5)r1c12"
    members: list[int] = field(default_factory=list)   # group k's candidates (node singles + k)
    # `weak` as masks, for the compiled core to write out: (filter, same value) when weak(x)
    # is the candidates of conf(x) inside filter (of x's value only when asked), lowest
    # first, then the groups of x's value inside conf(x) and the live candidates, in order
    # (groups from `mixed_from` on are cell groups: any value, and after a cell group only
    # those)
    weak_mask: tuple[int, bool] | None = None
    mixed_from: int | None = None


def _remembered(weak: Callable[[int], Iterable[int]]) -> Callable[[int], Iterable[int]]:
    """Return `weak` answering each node once: the searches from every start of one graph ask
    the same nodes again and again."""
    memo: dict[int, list[int]] = {}

    def cached(x: int) -> list[int]:
        out = memo.get(x)
        if out is None:
            out = memo[x] = list(weak(x))
        return out
    return cached


def simple_graph(board: Board, strong: Strong, inside: int, same_value: bool = False) -> Graph:
    """Return a graph over single candidates whose weak links are a candidate's conflicts
    among `inside` (of its own value only, when asked)."""
    conflicts = board.conflicts()
    n = board.layout.size
    masks = board.layout.value_masks

    def weak(c: int) -> Iterable[int]:
        mask = conflicts[c] & inside
        return bits(mask & masks[c % n + 1] if same_value else mask)

    return Graph(strong, _remembered(weak), lambda c: conflicts[c],
                 lambda c: _single_label(board, c), weak_mask=(inside, same_value))


def _single_label(board: Board, c: int) -> str:
    """Return "(5)r1c1" for a candidate."""
    cell, v = board.layout.split(c)
    return f"({board.layout.sym(v)}){board.layout.name(cell)}"


def _bfs(graph: Graph, live: int, s: int, singles: int, limit: int,
         end_ok: Callable[[int, int], bool]) -> Found | None:
    """Return the shortest conclusive chain from "s is false", up to `limit` links, or None."""
    cs = graph.conf(s) & live
    parent: dict[int, int] = {s << 1: -1}
    frontier, links = [s << 1], 0
    while frontier and links < limit:
        ons = []
        for key in frontier:
            for y in graph.strong.get(key >> 1, ()):
                k = y << 1 | 1
                if k not in parent:
                    parent[k] = key
                    ons.append(k)
        links += 1
        for k in ons:
            y = k >> 1
            if y == s and s < singles:
                return Found(links, s, y, _path(parent, k), 0, True)
            if links >= 3 and end_ok(s, y):
                elim = cs & graph.conf(y)
                if elim:
                    return Found(links, s, y, _path(parent, k), elim, False)
        if links + 2 > limit:
            break
        frontier = []
        for k in ons:
            for z in graph.weak(k >> 1):
                kk = z << 1
                if kk not in parent:
                    parent[kk] = k
                    frontier.append(kk)
        links += 1
    return None


def _path(parent: dict[int, int], key: int) -> list[tuple[int, bool]]:
    """Return the chain's nodes from the start to `key`."""
    out = []
    while key != -1:
        out.append((key >> 1, bool(key & 1)))
        key = parent[key]
    return out[::-1]


def _shortest(board: Board, graph: Graph, starts: list[int], limit: int,
              end_ok: Callable[[int, int], bool], mode: int = 0) -> Found | None:
    """Return the shortest conclusive chain over all starts (the first one found among equals).
    `mode` names `end_ok` for the compiled search: 0 any end, 1 the start's value elsewhere
    (XY-Chain)."""
    core = compiled_core()
    if core is not None and starts:
        return _compiled_shortest(core, board, graph, starts, limit, mode)
    live = board.live()
    singles = board.layout.ncells * board.layout.size
    best: Found | None = None
    for s in starts:
        found = _bfs(graph, live, s, singles, best.links - 1 if best else limit, end_ok)
        if found and (best is None or found.links < best.links):
            best = found
            if best.links <= 3:
                break
    return best


def _compiled_shortest(core, board: Board, graph: Graph, starts: list[int], limit: int,
                       mode: int) -> Found | None:
    """Return what `_shortest` returns, searched by the compiled core (`chain_search` in
    _core.c, the same breadth-first search step for step) over the graph written out as
    arrays: strong and weak neighbours in the graph's order, and the conflicts of every node
    with strong links (weak links start only from those: strong links go both ways)."""
    lay = board.layout
    singles = lay.ncells * lay.size
    nodes = singles + len(graph.members)
    words = (singles + 63) // 64
    full = (1 << singles) - 1
    strong_ptr, weak_ptr = array("i", bytes(8 * nodes)), array("i", bytes(8 * nodes))
    strong_adj, weak_adj = array("i"), array("i")
    conf_row = array("i", [-1]) * nodes
    conf = bytearray()
    for rows, (x, partners) in enumerate(graph.strong.items()):
        strong_ptr[2 * x] = len(strong_adj)
        strong_adj.extend(partners)
        strong_ptr[2 * x + 1] = len(strong_adj)
        conf_row[x] = rows
        conf += (graph.conf(x) & full).to_bytes(8 * words, "little")
    live = (board.live() & full).to_bytes(8 * words, "little")
    if graph.weak_mask is not None:
        inside, same_value = graph.weak_mask
        groups = b"".join(m.to_bytes(8 * words, "little") for m in graph.members)
        mixed_from = len(graph.members) if graph.mixed_from is None else graph.mixed_from
        weak_ptr, weak_adj = core.weak_links(nodes, conf_row, conf, words, singles,
                                             (inside & full).to_bytes(8 * words, "little"),
                                             live, lay.size, same_value, groups, mixed_from)
    else:
        for x in graph.strong:
            weak_ptr[2 * x] = len(weak_adj)
            weak_adj.extend(graph.weak(x))
            weak_ptr[2 * x + 1] = len(weak_adj)
    found = core.chain_search(nodes, strong_ptr, strong_adj, weak_ptr, weak_adj, conf_row,
                              bytes(conf), live, array("i", starts), words, singles, limit,
                              mode, lay.size)
    if found is None:
        return None
    links, start, end, path, elim, proves = found
    return Found(links, start, end, path, int.from_bytes(elim, "little"), proves)


def eureka(graph: Graph, nodes: list[tuple[int, bool]]) -> str:
    """Return a chain in Eureka notation: (5)r1c1=(5)r1c7-(3)r1c7=..."""
    text = ""
    for k, (c, _) in enumerate(nodes):
        if k:
            text += "=" if k % 2 else "-"
        text += graph.label(c)
    return text


def _step(board: Board, name: str, found: Found, graph: Graph) -> Step:
    """Return the step of a found chain."""
    lay = board.layout
    chain = eureka(graph, found.nodes)
    start = _say(board, graph, found.start)
    pattern = [lay.split(c) for node, _ in found.nodes for c in _members(board, graph, node)]
    if found.proves_start:
        s_cell, s_v = lay.split(found.start)
        return make_step(lay, name, f"{chain}: if {start} were false the chain would make it true",
                         placements=[(s_cell, s_v)], pattern_candidates=pattern, chain=chain)
    if name == "ALS-AIC":
        said = (f"either {_clause(board, graph, found.start)} or "
                f"{_clause(board, graph, found.end)}")
    else:
        said = f"{start} or {_say(board, graph, found.end)} is true"
    return make_step(lay, name, f"{chain}: {said}",
                     eliminations=cands_of_mask(lay, found.eliminations),
                     pattern_candidates=pattern, chain=chain)


def _clause(board: Board, graph: Graph, node: int) -> str:
    """Return a node as a clause: "r1c1 is 5", "5 is in r1c1/r1c2", and for a cell group
    (a cell's candidates but one) "r1c1 is not 5"."""
    lay = board.layout
    cands = [lay.split(c) for c in _members(board, graph, node)]
    cells = {c for c, _ in cands}
    if len(cands) == 1:
        return f"{lay.name(cands[0][0])} is {lay.sym(cands[0][1])}"
    if len(cells) > 1:
        return f"{lay.sym(cands[0][1])} is in {'/'.join(lay.name(c) for c, _ in cands)}"
    cell = cands[0][0]
    rest = values_of(board.cand[cell] & ~sum(1 << (v - 1) for _, v in cands))
    if len(rest) == 1:
        return f"{lay.name(cell)} is not {lay.sym(rest[0])}"
    values = [lay.sym(v) for _, v in cands]
    return f"{lay.name(cell)} is {', '.join(values[:-1])} or {values[-1]}"


def _members(board: Board, graph: Graph, node: int) -> list[int]:
    """Return the candidates of a node (itself, or a group's members)."""
    singles = board.layout.ncells * board.layout.size
    return [node] if node < singles else list(bits(graph.members[node - singles]))


def _say(board: Board, graph: Graph, node: int) -> str:
    """Return a node in words: "5 in r1c1", or for a group "5 in r1c1/r1c2"."""
    lay = board.layout
    cands = [lay.split(c) for c in _members(board, graph, node)]
    if len(cands) > 1 and len({c for c, _ in cands}) == 1:     # a cell group
        values = [lay.sym(v) for _, v in cands]
        return f"{', '.join(values[:-1])} or {values[-1]} in {lay.name(cands[0][0])}"
    return f"{lay.sym(cands[0][1])} in {'/'.join(lay.name(c) for c, _ in cands)}"


def find_x_chain(board: Board) -> Step | None:
    """Return an X-Chain: one value, strong links in houses, weak links between peers.

    Without rules between different values (non-consecutive, kropki...), what a value's
    chains conclude depends only on the cells that can hold it, so the layout remembers the
    longest limit a value's cells gave nothing at, and a value whose cells it has seen at that
    limit or a longer one is passed over (the first chain found is the same)."""
    lay = board.layout
    best: tuple[Found, Graph] | None = None
    barren = lay.barren if not lay.pair_rules and not lay.unread else {}
    planes = board.planes()
    for v in range(1, lay.size + 1):
        limit = best[0].links - 1 if best else MAX_LINKS["X-Chain"]
        seen = ("X-Chain", v, planes[v - 1])
        if cast(int, barren.get(seen, -1)) >= limit:
            continue
        strong = strong_links(board, False, True, v)
        graph = simple_graph(board, strong, lay.value_masks[v] & board.live())
        found = _shortest(board, graph, sorted(strong), limit, lambda s, y: True)
        if found and (best is None or found.links < best[0].links):
            best = (found, graph)
        elif not found:
            remember(barren, seen, limit)
    return _step(board, "X-Chain", *best) if best else None


def find_xy_chain(board: Board) -> Step | None:
    """Return an XY-Chain: bivalue cells linked by equal values; both ends hold the same value."""
    lay = board.layout
    n = lay.size
    strong = strong_links(board, True, False)
    graph = simple_graph(board, strong, board.live() & sum(1 << c for c in strong),
                         same_value=True)
    found = _shortest(board, graph, sorted(strong), MAX_LINKS["XY-Chain"],
                      lambda s, y: s % n == y % n and s // n != y // n, mode=1)
    return _step(board, "XY-Chain", found, graph) if found else None


def _with_clue_links(board: Board, strong: Strong) -> Strong:
    """Add the strong links the clues make (`clue_strong_links`) to `strong`."""
    for p, q in clue_strong_links(board):
        if q not in strong.get(p, ()):
            _join(strong, p, q)
    return strong


def find_aic(board: Board) -> Step | None:
    """Return an alternating inference chain over every kind of strong and weak link (the
    clues' own strong links too)."""
    strong = _with_clue_links(board, strong_links(board, True, True))
    graph = simple_graph(board, strong, board.live() & sum(1 << c for c in strong))
    found = _shortest(board, graph, sorted(strong), MAX_LINKS["AIC"], lambda s, y: True)
    return _step(board, "AIC", found, graph) if found else None


def grouped_graph(board: Board, cell_groups: bool = False) -> tuple[Graph, list[int]]:
    """Return the graph with groups (a value's places in one box and one line) and its starts;
    with `cell_groups`, also a cell's candidates but one (ALS-AIC), after the others."""
    lay = board.layout
    n, singles, live = lay.size, lay.ncells * lay.size, board.live()
    members: list[int] = []
    strong = _grouped_strong(board, members)
    mixed_from = len(members)
    if cell_groups:
        _cell_group_strong(board, members, strong)
        _als_strong(board, members, strong)
    conflicts = board.conflicts()
    conf = [_and_conflicts(conflicts, m) for m in members]
    by_value: dict[int, list[tuple[int, int]]] = {}     # value -> (group node, members)
    for k, m in enumerate(members[:mixed_from]):
        by_value.setdefault((m.bit_length() - 1) % n + 1, []).append((singles + k, m))
    mixed = [(singles + k, m) for k, m in enumerate(members) if k >= mixed_from]
    has_strong = sum(1 << c for c in strong if c < singles)

    def conf_of(x: int) -> int:
        return conflicts[x] if x < singles else conf[x - singles]

    def weak(x: int) -> list[int]:
        # groups of one value are weakly linked through that value only (peers), which keeps
        # this cheap; a cell group is made false by what rules out each of its candidates
        mask = conf_of(x) & live
        k = x - singles
        value = (x if k < 0 else members[k].bit_length() - 1) % n + 1
        out = [*bits(mask & has_strong)]
        if k < mixed_from:
            out += [g for g, m in by_value.get(value, ()) if not m & ~mask]
        return out + [g for g, m in mixed if not m & ~mask]

    graph = Graph(strong, _remembered(weak), conf_of,
                  lambda x: _group_label(board, members, x), members,
                  weak_mask=(live & has_strong, False), mixed_from=mixed_from)
    return graph, sorted(strong)


CELL_GROUP_MAX = 9      # a cell group comes from a cell of 3 to this many candidates


def _cell_group_strong(board: Board, members: list[int], strong: Strong) -> None:
    """Add the strong links of cells with 3 to CELL_GROUP_MAX candidates: each candidate with
    the group of the cell's other candidates (if the cell is not a, it is one of the rest);
    new groups' candidate sets are appended to `members`."""
    lay = board.layout
    n, singles = lay.size, lay.ncells * lay.size
    for i in board.unsolved():
        c = board.cand[i]
        if not 3 <= c.bit_count() <= CELL_GROUP_MAX:
            continue
        cands = c << (i * n)
        for a in bits(c):
            x = i * n + a
            y = singles + len(members)
            members.append(cands & ~(1 << x))
            _join(strong, x, y)


ALS_NODE_CELLS = (2, 3)     # the almost locked sets that are chain nodes: of 2 or 3 cells


def _als_strong(board: Board, members: list[int], strong: Strong) -> None:
    """Add the strong links of almost locked sets of 2 or 3 cells: for any two of an ALS's
    values a and b, a is in it or b is (without a, its cells are locked on the rest). A value
    in one cell of it is that candidate; in more, a group of them (appended to `members`)."""
    from .als import almost_locked_sets
    lay = board.layout
    singles = lay.ncells * lay.size
    index: dict[int, int] = {}

    def node(where: int, v: int) -> int:
        mask = lay.cells_to_cands(where, v)
        if where.bit_count() == 1:
            return mask.bit_length() - 1
        if mask not in index:
            index[mask] = singles + len(members)
            members.append(mask)
        return index[mask]

    for als in almost_locked_sets(board):       # ALS-XZ's, remembered per house
        if als.cells.bit_count() not in ALS_NODE_CELLS:
            continue
        nodes = [node(als.where[v - 1], v) for v in values_of(als.values)]
        for k, x in enumerate(nodes):
            for y in nodes[k + 1:]:
                _join(strong, x, y)


def _grouped_strong(board: Board, members: list[int]) -> Strong:
    """Return the strong links of bivalue cells and of houses split in two parts; new groups'
    candidate sets are appended to `members` (group k is node N³ + k)."""
    lay = board.layout
    n, singles = lay.size, lay.ncells * lay.size
    index: dict[int, int] = {}
    strong = _with_clue_links(board, strong_links(board, True, False))

    def node(cells: int, v: int) -> int:
        if cells.bit_count() == 1:
            return (cells.bit_length() - 1) * n + v - 1
        mask = lay.cells_to_cands(cells, v)
        if mask not in index:
            index[mask] = singles + len(members)
            members.append(mask)
        return index[mask]

    for h in lay.houses:
        for v in range(1, n + 1):
            for a, b in _segments(lay, h, board.place_mask(h, v)):
                x, y = node(a, v), node(b, v)
                _join(strong, x, y)
    return strong


def _group_label(board: Board, members: list[int], x: int) -> str:
    """Return "(5)r1c1" for a candidate, "(5)r1c12" for a group."""
    lay = board.layout
    n, singles = lay.size, lay.ncells * lay.size
    if x < singles:
        return _single_label(board, x)
    cands = list(bits(members[x - singles]))
    cells = sorted({c // n for c in cands})
    if len(cells) == 1:                      # a cell group: "(35)r5c2"
        return f"({''.join(lay.sym(c % n + 1) for c in cands)}){lay.name(cells[0])}"
    rows, cols = sorted({i // n + 1 for i in cells}), sorted({i % n + 1 for i in cells})
    value = lay.sym((members[x - singles].bit_length() - 1) % n + 1)
    return f"({value})r{''.join(map(str, rows))}c{''.join(map(str, cols))}"


def _segments(lay, house, places: int) -> list[tuple[int, int]]:
    """Return the ways a house's places split into two parts, each one cell or one box-line group."""
    if places.bit_count() < 2:
        return []
    if places.bit_count() == 2:
        a = places & -places
        return [(a, places ^ a)]
    out = []
    across = lay.lines["box"] if house.kind in ("row", "column") else \
        (lay.lines["row"] + lay.lines["column"] if house.kind == "box" else ())
    for kind in (("row", "column") if house.kind == "box" else ("box",)):   # in this order
        parts = [places & h.mask for h in across if h.kind == kind and places & h.mask]
        if len(parts) == 2:
            out.append((parts[0], parts[1]))
    return out


def _and_conflicts(conflicts, mask: int) -> int:
    """Return the candidates every member of a group excludes."""
    out = -1
    for c in bits(mask):
        out &= conflicts[c]
    return out


def find_grouped_aic(board: Board) -> Step | None:
    """Return an AIC whose nodes may be groups (a value's places in one box and one line)."""
    graph, starts = grouped_graph(board)
    found = _shortest(board, graph, starts, MAX_LINKS["AIC"], lambda s, y: True)
    if not found:
        return None
    singles = board.layout.ncells * board.layout.size
    grouped = any(node >= singles for node, _ in found.nodes)
    return _step(board, "Grouped AIC" if grouped else "AIC", found, graph)


def find_als_aic(board: Board) -> Step | None:
    """Return an ALS-AIC: an AIC whose nodes may also be a cell's candidates but one (a
    one-cell almost locked set: if the cell is not a, it holds one of the rest). Tried on
    variant layouts only, where a cell's candidates meet links beyond its houses; classic
    paths keep HoDoKu's catalogue. It runs after Grouped AIC, so a chain it finds uses a
    cell group."""
    if board.layout.is_classic:
        return None
    graph, starts = grouped_graph(board, cell_groups=True)
    found = _shortest(board, graph, starts, MAX_LINKS["AIC"], lambda s, y: True)
    return _step(board, "ALS-AIC", found, graph) if found else None
