"""Maximum flows and minimum cuts for deal knowledge's feasibility checks.

Whether the cards can still be placed under per-location bounds is a flow
question: rows (groups of cards) supply copies, columns (locations) take
them.  :func:`_min_cut` tries every cut of a small transport network at once
in numpy; :func:`_max_flow` (Dinic's algorithm) answers for any size, and
:func:`_feasible_flow` decides flows with lower bounds on the edges.  Both
:mod:`games.deal.knowledge` and :mod:`games.deal.cells` ask them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__: list[str] = []


#: For each number of columns: every choice of the columns left on the sink
#: side of a cut, as 0/1 rows (see :func:`_min_cut`).
_CUT_SIDES: dict[int, np.ndarray] = {}

#: Most columns :func:`_min_cut` tries every cut of (more: a max flow).
_CUT_COLUMNS = 12


def _transport_flow(
    caps: Sequence[Sequence[int]],
    supply: Sequence[int],
    demand: Sequence[int],
    gate: tuple[int, int, int] | None = None,
) -> int:
    """:func:`_min_cut` as a maximum flow (:func:`_max_flow`), for any number of columns.

    Examples
    --------
    >>> _transport_flow([[2, 1], [0, 3]], [3, 3], [5, 3], gate=(1, 0, 1))
    3
    """
    n_row, n_col = len(supply), len(demand)
    # nodes: 0 the source, the rows, the columns, the sink
    snk = 1 + n_row + n_col
    net: list[dict[int, int]] = [{} for _ in range(snk + 1)]
    for g in range(n_row):
        if supply[g]:
            _add_edge(net, 0, 1 + g, supply[g])
        for j in range(n_col):
            if caps[g][j]:
                _add_edge(net, 1 + g, 1 + n_row + j, caps[g][j])
    for j in range(n_col):
        if gate is not None and j == gate[0]:
            if gate[2]:
                _add_edge(net, 1 + n_row + j, 1 + n_row + gate[1], gate[2])
        elif demand[j]:
            _add_edge(net, 1 + n_row + j, snk, demand[j])
    return _max_flow(net, 0, snk, sum(supply))


def _min_cut(
    caps: Sequence[Sequence[int]],
    supply: Sequence[int],
    demand: Sequence[int],
    gate: tuple[int, int, int] | None = None,
) -> int:
    """Minimum cut (the maximum flow) of a transport network with few columns.

    The source gives row ``g`` up to ``supply[g]``; row ``g`` sends up to
    ``caps[g][j]`` to column ``j``; column ``j`` takes up to ``demand[j]``.
    ``gate = (j, q, c)`` makes column ``j`` a gate: it passes up to ``c``
    on to column ``q`` instead of to the sink.  A cut keeps a set of columns
    on the source side; each row then costs the smaller of its supply and
    its edges into the other columns.  Every set is tried at once (numpy), so
    this suits a dozen columns or fewer.

    Examples
    --------
    >>> _min_cut([[2, 1], [0, 3]], [3, 3], [2, 3])
    5
    >>> _min_cut([[2, 1], [0, 3]], [3, 3], [5, 3], gate=(1, 0, 1))  # 2 direct, 1 by the gate
    3
    """
    n_col = len(demand)
    if n_col > _CUT_COLUMNS:
        return _transport_flow(caps, supply, demand, gate)
    sides = _CUT_SIDES.get(n_col)
    if sides is None:
        bits = np.arange(1 << n_col, dtype=np.int64)[:, None] >> np.arange(n_col)
        sides = _CUT_SIDES[n_col] = (bits & 1).astype(np.int64)  # 1: on the sink side
    c = np.asarray(caps, dtype=np.int64).reshape(len(supply), n_col)
    rows = np.minimum(sides @ c.T, np.asarray(supply, dtype=np.int64)[None, :]).sum(axis=1)
    dem = np.asarray(demand, dtype=np.int64)
    if gate is not None:
        j, q, cap = gate
        dem = dem.copy()
        dem[j] = 0
        cut = rows + (1 - sides) @ dem + cap * (1 - sides[:, j]) * sides[:, q]
    else:
        cut = rows + (1 - sides) @ dem
    return int(cut.min())


def _max_flow(cap: list[dict[int, int]], src: int, snk: int, limit: int) -> int:
    """Maximum flow (up to ``limit``) on sparse capacities, which it leaves residual.

    ``cap[u]`` maps each node ``v`` that an edge ``u -> v`` reaches to its
    capacity; every reverse edge must be listed too (capacity 0), so the
    residual network has the same keys.  Dinic's algorithm: breadth-first
    levels, then a blocking flow along them by depth-first search.

    Examples
    --------
    >>> _max_flow([{1: 2, 2: 1}, {0: 0, 2: 1}, {0: 0, 1: 0}], 0, 2, 10)
    2
    >>> _max_flow([{1: 2, 2: 1}, {0: 0, 2: 1}, {0: 0, 1: 0}], 0, 2, 1)
    1
    """
    n = len(cap)
    flow = 0
    while flow < limit:
        level = [-1] * n
        level[src] = 0
        frontier = [src]
        while frontier and level[snk] < 0:
            nxt = []
            for u in frontier:
                lu = level[u] + 1
                for v, c in cap[u].items():
                    if c > 0 and level[v] < 0:
                        level[v] = lu
                        nxt.append(v)
            frontier = nxt
        if level[snk] < 0:
            break
        arcs = [list(cap[u]) for u in range(n)]
        pos = [0] * n
        while flow < limit:
            got = _push(cap, arcs, pos, level, src, snk, limit - flow)
            if not got:
                break
            flow += got
    return flow


def _push(
    cap: list[dict[int, int]],
    arcs: list[list[int]],
    pos: list[int],
    level: list[int],
    u: int,
    snk: int,
    amount: int,
) -> int:
    """One augmenting path of :func:`_max_flow`'s level graph from ``u``: the flow pushed.

    ``pos[u]`` is the next arc of ``u`` to try; arcs that can push nothing
    more in this phase are skipped for good.
    """
    if u == snk:
        return amount
    row, nbrs, lu = cap[u], arcs[u], level[u] + 1
    while pos[u] < len(nbrs):
        v = nbrs[pos[u]]
        c = row[v]
        if c > 0 and level[v] == lu:
            got = _push(cap, arcs, pos, level, v, snk, min(amount, c))
            if got:
                row[v] = c - got
                cap[v][u] += got
                return got
        pos[u] += 1
    return 0


def _add_edge(cap: list[dict[int, int]], u: int, v: int, c: int) -> None:
    """Add capacity ``c`` to the edge ``u -> v`` of :func:`_max_flow`'s network."""
    cap[u][v] = cap[u].get(v, 0) + c
    cap[v].setdefault(u, 0)


def _feasible_flow(n: int, src: int, snk: int, edges: Sequence[tuple[int, int, int, int]]) -> bool:
    """Whether a flow from ``src`` to ``snk`` keeps every edge ``(u, v, low, high)``
    between its bounds (and every other node balanced).

    The lower bounds become demands of a second source and sink; the flow is
    feasible exactly when a maximum flow between those saturates them.

    Examples
    --------
    >>> _feasible_flow(3, 0, 2, [(0, 1, 2, 2), (1, 2, 0, 1)])
    False
    >>> _feasible_flow(3, 0, 2, [(0, 1, 2, 2), (1, 2, 1, 3)])
    True
    """
    s2, t2 = n, n + 1
    cap: list[dict[int, int]] = [{} for _ in range(n + 2)]
    excess = [0] * n
    for u, v, low, high in edges:
        if high < low:
            return False
        if high > low:
            _add_edge(cap, u, v, high - low)
        excess[v] += low
        excess[u] -= low
    _add_edge(cap, snk, src, 1 << 40)  # the flow returns: a circulation
    need = 0
    for v, e in enumerate(excess):
        if e > 0:
            _add_edge(cap, s2, v, e)
            need += e
        elif e < 0:
            _add_edge(cap, v, t2, -e)
    return _max_flow(cap, s2, t2, need) == need
