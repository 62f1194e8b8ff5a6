"""Positions of worlds for drawing a Kripke model.

Every layout is deterministic (the same model gives the same picture) and is
scaled so that neighbouring worlds sit about one unit apart; drawing functions
turn units into inches.

``"layered"``
    Worlds in rows by the number of atoms true there, ordered within a row by
    which atoms those are: muddy children's hypercube comes out as the
    familiar cube (a Hasse diagram of the subsets of muddy children).
``"classes"``
    One row per class of one agent (``by``): that agent's indistinguishable
    worlds side by side.  Good for card deals.
``"events"``
    For the result of a product update (worlds labelled ``(world, event)``):
    one band per event, side by side, each world where its origin sits in
    the layout of the origins.
``"grid"``, ``"circular"``, ``"spring"``
    Worlds in index order on a grid or a circle, or a seeded force-directed
    layout of the union of all relations.
``"auto"``
    ``"events"`` for a product update whose worlds repeat an origin,
    ``"layered"`` when the worlds have distinct valuations spread over at
    least two rows of at most 20, ``"circular"`` for up to 8 worlds,
    ``"spring"`` otherwise.

Examples
--------
>>> from kripke import muddy_children
>>> from visualize.layout import model_layout
>>> pos = model_layout(muddy_children(2).model)
>>> pos[0], pos[3]
((0.0, 0.0), (0.0, 2.6))
>>> sorted(pos[1] + pos[2])
[-0.5, 0.5, 1.3, 1.3]
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

import numpy as np

from kripke.models import KripkeModel, Partition, Relation
from visualize.errors import VisualizeError

__all__ = ["LAYOUTS", "model_layout", "layout_array", "choose_layout"]

#: Names accepted by ``layout=``.
LAYOUTS = ("auto", "layered", "classes", "events", "grid", "circular", "spring")

_ROW_GAP = 1.3  # vertical distance between rows, in units


LayoutSpec = str | Mapping[Hashable, tuple[float, float]] | Callable[[KripkeModel], Any]


def model_layout(
    model: KripkeModel, layout: LayoutSpec = "auto", *, by: str | None = None
) -> dict[Hashable, tuple[float, float]]:
    """Positions ``{world label: (x, y)}`` of the model's worlds.

    Parameters
    ----------
    model : KripkeModel
    layout : str, mapping or callable
        A name from :data:`LAYOUTS`, a mapping from world labels to ``(x, y)``
        (every world must appear), or a function of the model returning such a
        mapping.
    by : str, optional
        The agent whose classes form the rows of the ``"classes"`` layout
        (default: the first agent).

    Raises
    ------
    VisualizeError
        For an unknown layout name or a mapping that misses a world.
    """
    xy = layout_array(model, layout, by=by)
    return {model.label(i): (float(xy[i, 0]), float(xy[i, 1])) for i in range(model.num_worlds)}


def choose_layout(model: KripkeModel) -> str:
    """The layout ``"auto"`` picks for ``model``."""
    n = model.num_worlds
    if _event_split(model) is not None:
        return "events"
    if n >= 2 and model.atoms:
        val = model.valuation_matrix
        layers = val.sum(axis=0)
        sizes = np.bincount(layers)
        distinct = np.unique(np.packbits(val.T, axis=1), axis=0).shape[0] == n
        if distinct and np.count_nonzero(sizes) >= 2 and sizes.max() <= 20:
            return "layered"
    return "circular" if n <= 8 else "spring"


def layout_array(
    model: KripkeModel, layout: LayoutSpec = "auto", *, by: str | None = None
) -> np.ndarray:
    """Like :func:`model_layout` but as an ``(n, 2)`` array in world-index order."""
    n = model.num_worlds
    if callable(layout) and not isinstance(layout, str):
        layout = layout(model)
    if isinstance(layout, Mapping):
        out = np.zeros((n, 2))
        for i in range(n):
            w = model.label(i)
            if w not in layout:
                raise VisualizeError(f"the layout gives no position for world {w!r}")
            try:
                x, y = layout[w]
                out[i] = (float(x), float(y))
            except (TypeError, ValueError):
                raise VisualizeError(
                    f"the position of world {w!r} must be a pair of numbers, got {layout[w]!r}"
                ) from None
        return out
    if not isinstance(layout, str) or layout not in LAYOUTS:
        raise VisualizeError(
            f"unknown layout {layout!r}; choose one of {', '.join(LAYOUTS)}, "
            "a mapping from worlds to (x, y) or a function of the model"
        )
    if n == 0:
        return np.zeros((0, 2))
    if layout == "auto":
        layout = choose_layout(model)
    if layout == "layered":
        return _layered(model)
    if layout == "classes":
        return _classes(model, by)
    if layout == "events":
        return _events(model)
    if layout == "grid":
        return _grid(n)
    if layout == "circular":
        return _circular(n)
    return _spring(model)


def _event_split(model: KripkeModel) -> tuple[list[Hashable], list[str]] | None:
    """Origins and events of a product-update model, or ``None`` if it is not one
    (or no origin has two events)."""
    labels = model.worlds
    if not labels or not all(
        isinstance(w, tuple) and len(w) == 2 and isinstance(w[1], str) for w in labels
    ):
        return None
    events = list(dict.fromkeys(w[1] for w in labels))  # type: ignore[index]
    origins = list(dict.fromkeys(w[0] for w in labels))  # type: ignore[index]
    if len(events) < 2 or len(origins) == len(labels):
        return None
    return origins, events


def _events(model: KripkeModel) -> np.ndarray:
    split = _event_split(model)
    if split is None:
        raise VisualizeError(
            "the 'events' layout is for product updates, whose worlds are (world, event) pairs"
        )
    origins, events = split
    labels = model.worlds
    where = {o: i for i, o in enumerate(origins)}
    first: dict[Hashable, int] = {}
    for i, w in enumerate(labels):
        first.setdefault(w[0], i)  # type: ignore[index]
    # the model of the origins: first valuation seen, relations projected
    val = model.valuation_matrix[:, [first[o] for o in origins]]
    origin_of = np.array([where[w[0]] for w in labels], dtype=np.int64)  # type: ignore[index]
    rels: dict[str, Relation | Partition] = {}
    for a in model.agents:
        src, dst = model.edges(a)
        rels[a] = Relation.from_edges(origin_of[src], origin_of[dst], len(origins))
    inner = layout_array(
        KripkeModel(np.arange(len(origins)), model.atoms, val, rels, validate=False), "auto"
    )
    width = float(inner[:, 0].max() - inner[:, 0].min()) + 1.6
    xy = inner[origin_of].copy()
    band = np.array([events.index(w[1]) for w in labels])  # type: ignore[index]
    xy[:, 0] += band * width
    return xy


def _rows_to_xy(rows: list[np.ndarray], n: int) -> np.ndarray:
    """Centre each row of world indices on x = 0, rows ``_ROW_GAP`` apart from y = 0 upwards."""
    xy = np.zeros((n, 2))
    for r, members in enumerate(rows):
        k = len(members)
        xy[members, 0] = np.arange(k) - (k - 1) / 2
        xy[members, 1] = round(r * _ROW_GAP, 9)
    return xy


def _layered(model: KripkeModel) -> np.ndarray:
    n = model.num_worlds
    val = model.valuation_matrix
    layer = val.sum(axis=0) if val.shape[0] else np.zeros(n, dtype=np.int64)
    k = val.shape[0]
    # start from the mean position of a world's true atoms (atoms spread over [-1, 1]) ...
    spread = np.linspace(-1.0, 1.0, k) if k > 1 else np.zeros(k)
    key = (spread @ val) / np.maximum(layer, 1) if k else np.zeros(n)
    rows = []
    for lv in np.unique(layer):
        members = np.flatnonzero(layer == lv)
        # lexsort: last key is primary -> order by key, ties by world index
        rows.append(members[np.lexsort((members, np.round(key[members], 9)))])
    # ... then shorten edges by barycentre sweeps between neighbouring rows
    rows = _barycentre_sweeps(model, rows)
    # empty rows between layers are skipped: y follows the rank of the layer
    return _rows_to_xy(rows, n)


def _barycentre_sweeps(
    model: KripkeModel, rows: list[np.ndarray], sweeps: int = 8
) -> list[np.ndarray]:
    """Reorder each row by the mean x of its neighbours in the row before (Sugiyama's heuristic).

    Keeps the ordering with the shortest total horizontal edge length.
    """
    n = model.num_worlds
    src_l, dst_l = [], []
    for a in model.agents:
        s, d = model.edges(a)
        keep = s != d
        src_l.append(s[keep])
        dst_l.append(d[keep])
    if not src_l or len(rows) < 2:
        return rows
    src = np.concatenate(src_l)
    dst = np.concatenate(dst_l)
    if src.size == 0:
        return rows

    def xs(rs: list[np.ndarray]) -> np.ndarray:
        x = np.zeros(n)
        for members in rs:
            x[members] = np.arange(len(members)) - (len(members) - 1) / 2
        return x

    def cost(rs: list[np.ndarray]) -> float:
        x = xs(rs)
        return float(np.abs(x[src] - x[dst]).sum())

    row_of = np.zeros(n, dtype=np.int64)
    for r, members in enumerate(rows):
        row_of[members] = r
    best, best_cost = rows, cost(rows)
    current = [r.copy() for r in rows]
    passes = [(r, r - 1) for r in range(1, len(rows))] + [
        (r, r + 1) for r in range(len(rows) - 2, -1, -1)
    ]
    for _ in range(sweeps):
        for r, ref in passes:
            x = xs(current)
            sel = (row_of[src] == r) & (row_of[dst] == ref)
            total = np.bincount(src[sel], weights=x[dst[sel]], minlength=n)
            count = np.bincount(src[sel], minlength=n)
            members = current[r]
            bary = np.where(
                count[members] > 0, total[members] / np.maximum(count[members], 1), x[members]
            )
            current[r] = members[np.lexsort((x[members], np.round(bary, 9)))]
            c = cost(current)
            if c < best_cost - 1e-9:
                best, best_cost = [m.copy() for m in current], c
    return best


def _classes(model: KripkeModel, by: str | None) -> np.ndarray:
    n = model.num_worlds
    if not model.agents:
        return _grid(n)
    agent = model.agents[0] if by is None else by
    rel = model.relation(agent)
    if isinstance(rel, Partition):
        labels = rel.labels
    else:
        labels = _successor_set_labels(model, agent)
    rows = []
    seen: dict[int, list[int]] = {}
    for i, c in enumerate(labels.tolist()):
        seen.setdefault(c, []).append(i)
    for members in seen.values():
        rows.append(np.array(members, dtype=np.int64))
    xy = _rows_to_xy(rows, n)
    xy[:, 1] = xy[:, 1].max() - xy[:, 1]  # first class on top
    return xy


def _successor_set_labels(model: KripkeModel, agent: str) -> np.ndarray:
    """Group worlds by the set of worlds ``agent`` considers possible there."""
    rel = model.relation(agent)
    n = model.num_worlds
    src, dst = rel.edges()
    keys: dict[tuple[int, ...], int] = {}
    out = np.zeros(n, dtype=np.int64)
    succ: list[list[int]] = [[] for _ in range(n)]
    for s, d in zip(src.tolist(), dst.tolist(), strict=True):
        succ[s].append(d)
    for i in range(n):
        out[i] = keys.setdefault(tuple(sorted(succ[i])), len(keys))
    return out


def _grid(n: int) -> np.ndarray:
    cols = int(np.ceil(np.sqrt(n))) if n else 1
    idx = np.arange(n)
    xy = np.zeros((n, 2))
    xy[:, 0] = (idx % cols) * 1.2
    xy[:, 1] = -(idx // cols) * _ROW_GAP
    return xy


def _circular(n: int) -> np.ndarray:
    if n == 1:
        return np.zeros((1, 2))
    if n == 2:
        return np.array([[-0.8, 0.0], [0.8, 0.0]])
    radius = max(1.0, 1.6 * n / (2 * np.pi))
    angle = np.pi / 2 - 2 * np.pi * np.arange(n) / n
    return np.round(np.stack([radius * np.cos(angle), radius * np.sin(angle)], axis=1), 12)


def _spring(model: KripkeModel) -> np.ndarray:
    import networkx as nx

    n = model.num_worlds
    g = nx.Graph()
    g.add_nodes_from(range(n))
    for a in model.agents:
        src, dst = model.edges(a)
        keep = src != dst
        g.add_edges_from(zip(src[keep].tolist(), dst[keep].tolist(), strict=True))
    init = _circular(n)
    pos = nx.spring_layout(
        g, pos={i: init[i] for i in range(n)}, seed=1, iterations=200, k=1.5 / np.sqrt(n)
    )
    xy = np.array([pos[i] for i in range(n)], dtype=float)
    return _normalise(xy)


def _normalise(xy: np.ndarray) -> np.ndarray:
    """Scale so that the median distance to the nearest other world is 1.3 units."""
    n = xy.shape[0]
    if n < 2:
        return xy - xy.mean(axis=0) if n else xy
    d = np.sqrt(((xy[:, None, :] - xy[None, :, :]) ** 2).sum(-1))
    np.fill_diagonal(d, np.inf)
    near = np.median(d.min(axis=1))
    if not np.isfinite(near) or near <= 0:
        return _grid(n)
    xy = (xy - xy.mean(axis=0)) * (1.3 / near)
    return np.round(_separate(xy, 1.0), 9)


def _separate(xy: np.ndarray, dmin: float, rounds: int = 100) -> np.ndarray:
    """Push apart pairs of worlds closer than ``dmin`` units (deterministic relaxation)."""
    xy = xy.copy()
    n = xy.shape[0]
    if n < 2 or n > 2000:
        return xy
    jitter = np.stack([np.cos(np.arange(n)), np.sin(np.arange(n))], axis=1) * 1e-3
    for _ in range(rounds):
        diff = xy[:, None, :] - xy[None, :, :]
        d = np.sqrt((diff**2).sum(-1))
        np.fill_diagonal(d, np.inf)
        close = d < dmin
        if not close.any():
            break
        d_safe = np.where(d == 0, 1.0, d)
        direction = np.where((d == 0)[..., None], jitter[:, None, :], diff / d_safe[..., None])
        push = np.where(close, (dmin - np.minimum(d, dmin)) / 2 + 1e-3, 0.0)
        xy += (direction * push[..., None]).sum(axis=1)
    return xy
