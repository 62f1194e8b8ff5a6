"""Pictures of Kripke models, announcements, action models and product updates.

Worlds are drawn as nodes labelled by the atoms true there, each agent's
relation in its own colour with a legend entry.  An S5 agent's relation is
drawn as one undirected edge per pair of worlds it cannot tell apart (no
reflexive loops, no arrows), or as shaded classes; any other relation (K,
KD45 belief) as arrows, with loops where a world sees itself.  The actual
worlds get a thick ring, and the truth set of a formula can be shaded.
Models with more worlds than a picture can show (64 by default) are drawn
as a summary: for each agent, the sizes of the classes of worlds it cannot
tell apart.

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from kripke import muddy_children, announce
>>> from visualize import draw_model
>>> pm = announce(muddy_children(3, [1, 2]), "m1 | m2 | m3")
>>> ax = draw_model(pm, shade="K_1 m1")
>>> len(ax.collections[0].get_offsets())   # the worlds left after the father speaks
7
>>> [t.get_text() for t in ax.get_legend().get_texts()]
['agent 1', 'agent 2', 'agent 3', 'actual world', 'K_1 m1 holds']

Notes
-----
Every artist carries a ``gid`` so pictures can be inspected or restyled
after drawing: ``"worlds"`` (the node collection), ``"removed"`` and
``"ghosts"`` (worlds removed by an announcement at this step and earlier),
``"relation:<agent>"`` (one arrow patch per drawn edge), ``"loop:<agent>"``
(a collection with one marker per reflexive loop), ``"class:<agent>"`` (one
patch per shaded class or summary segment), ``"label"`` (world labels) and
``"caption"``.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, Patch, Polygon, Rectangle
from matplotlib.path import Path
from matplotlib.textpath import TextPath

from kripke.errors import UnknownAgentError
from kripke.formulas import Formula, as_formula
from kripke.models import KripkeModel, Partition, PointedModel
from visualize.errors import VisualizeError
from visualize.layout import LayoutSpec, layout_array
from visualize.style import (
    ACTUAL_COLOR,
    FONT_SIZE,
    NODE_EDGE_COLOR,
    REMOVED_COLOR,
    SHADE_COLOR,
    agent_label,
    agent_styles,
)

__all__ = [
    "MAX_WORLDS",
    "draw_model",
    "draw_model_summary",
    "draw_announcements",
    "draw_action_model",
    "draw_product_update",
    "world_labels",
    "model_png",
    "action_model_png",
]

#: Above this many worlds :func:`draw_model` draws :func:`draw_model_summary` instead.
MAX_WORLDS = 64

_GHOST_COLOR = "#BFBFBF"

LabelSpec = str | Mapping[Hashable, str] | Callable[[Hashable], str]


# ----------------------------------------------------------------- inputs
def _unpack(target: Any) -> tuple[KripkeModel, tuple[int, ...]]:
    """The explicit model and designated world indices of anything drawable."""
    if isinstance(target, PointedModel):
        return target.model, target.designated_indices
    if isinstance(target, KripkeModel):
        return target, ()
    to_explicit = getattr(target, "to_explicit", None)
    if callable(to_explicit):
        return _unpack(to_explicit())
    raise VisualizeError(
        f"cannot draw a {type(target).__name__}: expected a KripkeModel, PointedModel "
        "or ActionModel"
    )


def _designated(model: KripkeModel, default: tuple[int, ...], actual: Any) -> tuple[int, ...]:
    if actual is None:
        return default
    if isinstance(actual, set | frozenset | list | tuple) and not (
        isinstance(actual, tuple) and _is_label(model, actual)
    ):
        return tuple(sorted(model.index(w) for w in actual))
    return (model.index(actual),)


def _is_label(model: KripkeModel, w: Any) -> bool:
    try:
        model.index(w)
    except Exception:
        return False
    return True


def _shade_mask(model: KripkeModel, shade: Any) -> tuple[np.ndarray | None, str]:
    """Boolean mask of the shaded worlds and its legend text."""
    if shade is None:
        return None, ""
    if isinstance(shade, Formula | str):
        from kripke.explicit import truth_array

        f = as_formula(shade)
        return np.asarray(truth_array(model, f), dtype=bool), f"{_short(str(f), 40)} holds"
    mask = np.zeros(model.num_worlds, dtype=bool)
    for w in shade:
        mask[model.index(w)] = True
    return mask, "highlighted worlds"


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _agents(model: KripkeModel, agents: Sequence[Any] | None) -> list[str]:
    if agents is None:
        return list(model.agents)
    out = []
    for a in agents:
        name = str(a)
        if name not in model.agents:
            raise UnknownAgentError(
                f"unknown agent {name!r}; the model's agents are {', '.join(model.agents)}"
            )
        out.append(name)
    return out


# ----------------------------------------------------------------- labels
def world_labels(model: KripkeModel, labels: LabelSpec = "auto") -> tuple[list[str], str]:
    """The text drawn on each world (index order) and a caption explaining it.

    Parameters
    ----------
    model : KripkeModel
    labels : str, mapping or callable
        ``"atoms"`` (the true atoms, ``∅`` for none), ``"bits"`` (one 0/1
        digit per atom, in the order of ``model.atoms``), ``"worlds"`` (the
        world labels), ``"both"`` (world label and atoms), ``"auto"`` (atoms,
        or bits for more than 16 worlds with long atom lists), a mapping from
        world labels to text, or a function of the world label.

    Examples
    --------
    >>> from kripke import muddy_children
    >>> from visualize.models import world_labels
    >>> world_labels(muddy_children(2).model)
    (['∅', 'm1', 'm2', 'm1,m2'], '')
    >>> world_labels(muddy_children(2).model, "bits")
    (['00', '10', '01', '11'], 'world labels: m1 m2 (1 = true)')
    """
    n = model.num_worlds
    if callable(labels) and not isinstance(labels, str):
        return [str(labels(model.label(i))) for i in range(n)], ""
    if isinstance(labels, Mapping):
        out = []
        for i in range(n):
            w = model.label(i)
            if w not in labels:
                raise VisualizeError(f"the labels give no text for world {w!r}")
            out.append(str(labels[w]))
        return out, ""
    val = model.valuation_matrix
    atoms_text = [
        ",".join(model.atoms[j] for j in np.flatnonzero(val[:, i])) or "∅" for i in range(n)
    ]
    if labels == "auto":
        long = max((len(t) for t in atoms_text), default=0) > 6
        labels = "bits" if n > 16 and 0 < len(model.atoms) <= 8 and long else "atoms"
    if labels == "atoms":
        return atoms_text, ""
    if labels == "bits":
        bits = [
            "".join("1" if val[j, i] else "0" for j in range(len(model.atoms))) for i in range(n)
        ]
        return bits, f"world labels: {' '.join(model.atoms)} (1 = true)"
    if labels == "worlds":
        return [_world_text(model.label(i)) for i in range(n)], ""
    if labels == "both":
        return [f"{_world_text(model.label(i))}: {atoms_text[i]}" for i in range(n)], ""
    raise VisualizeError(
        f"unknown labels {labels!r}; choose 'auto', 'atoms', 'bits', 'worlds', 'both', "
        "a mapping from worlds to text or a function of the world"
    )


def _world_text(w: Hashable) -> str:
    if isinstance(w, tuple):
        return "(" + ", ".join(_world_text(x) for x in w) + ")"
    return str(w)


# ------------------------------------------------------------ node shapes
class _NodeShape:
    """A node marker sized to its label, in points; knows its boundary distance."""

    def __init__(self, texts: Sequence[str], font_size: float, square: bool = False):
        widths, heights = [0.0], [0.0]
        for t in texts:
            lines = t.split("\n")
            widths.append(max(_text_width(line, font_size) for line in lines))
            heights.append(len(lines) * font_size * 1.25)
        w, h = max(widths), max(heights)
        self.round = not square and w <= 2.2 * font_size and h <= 1.3 * font_size
        if self.round:
            r = max(11.0, 0.5 * np.hypot(w, h) + 3.5)
            self.a = self.b = r
            self.path = Path.circle((0.0, 0.0), r)
        else:
            self.a = max(11.0, w / 2 + 6.0)
            self.b = max(10.0, h / 2 + 4.0)
            self.path = _rounded_rect(self.a, self.b, min(self.b, 7.0) if not square else 2.5)
        self.size = (2 * float(np.abs(self.path.vertices).max())) ** 2

    def boundary(self, dx: float, dy: float) -> float:
        """Distance in points from the centre to the outline in direction ``(dx, dy)``."""
        if self.round:
            return self.a
        c, s = abs(dx), abs(dy)
        norm = np.hypot(c, s) or 1.0
        c, s = c / norm, s / norm
        return float(min(self.a / c if c > 1e-9 else np.inf, self.b / s if s > 1e-9 else np.inf))


def _text_width(text: str, size: float) -> float:
    if not text:
        return 0.0
    return float(TextPath((0, 0), text, size=size).get_extents().width)


def _rounded_rect(a: float, b: float, r: float) -> Path:
    r = min(r, a, b)
    t = np.linspace(0, np.pi / 2, 7)
    corners = [
        (a - r, b - r, 0.0),
        (-a + r, b - r, np.pi / 2),
        (-a + r, -b + r, np.pi),
        (a - r, -b + r, 1.5 * np.pi),
    ]
    verts: list[tuple[float, float]] = []
    for cx, cy, start in corners:
        verts.extend(zip(cx + r * np.cos(start + t), cy + r * np.sin(start + t), strict=True))
    verts.append(verts[0])
    codes = [Path.MOVETO] + [Path.LINETO] * (len(verts) - 2) + [Path.CLOSEPOLY]
    return Path(np.array(verts), codes)


def _free_direction(used: Sequence[float]) -> float:
    """The direction (degrees, 90 = up) farthest from the edges and loops already at a world."""
    best, best_score = 90.0, -1.0
    for k in range(24):
        # candidates from straight up, alternating right and left
        phi = 90.0 + (1 if k % 2 else -1) * 15.0 * ((k + 1) // 2)
        score = min((abs((phi - u + 180.0) % 360.0 - 180.0) for u in used), default=360.0)
        if score > best_score + 1e-9:
            best, best_score = phi % 360.0, score
    return best


def _loop_path(shape: _NodeShape, angle_deg: float) -> Path:
    """An unfilled loop sitting on the node outline at ``angle_deg`` from straight up."""
    th = np.radians(90.0 + angle_deg)
    d = shape.boundary(np.cos(th), np.sin(th))
    rho = 7.0
    centre = (d + rho * 0.8) * np.array([np.cos(th), np.sin(th)])
    t = np.linspace(0, 2 * np.pi, 33)
    verts = np.stack([centre[0] + rho * np.cos(t), centre[1] + rho * np.sin(t)], axis=1)
    codes = [Path.MOVETO] + [Path.LINETO] * (len(verts) - 1)
    return Path(verts, codes)


# ------------------------------------------------------------------ edges
def _relation_pairs(
    model: KripkeModel, agent: str, s5: str, xy: np.ndarray | None = None
) -> tuple[list[tuple[int, int, str]], list[int], list[np.ndarray]]:
    """Edges to draw ``(i, j, arrowstyle)``, worlds with loops, and classes to shade."""
    rel = model.relation(agent)
    if isinstance(rel, Partition):
        classes = [c for c in rel.classes() if len(c) > 1]
        if s5 == "hulls":
            return [], [], classes
        if s5 == "chains" and xy is not None:
            return [e for c in classes for e in _chain(c, xy)], [], []
        edges = []
        for c in classes:
            c = np.sort(c)
            for x in range(len(c)):
                for y in range(x + 1, len(c)):
                    edges.append((int(c[x]), int(c[y]), "-"))
        return edges, [], []
    src, dst = rel.edges()
    pairs = set(zip(src.tolist(), dst.tolist(), strict=True))
    loops = sorted(s for s, d in pairs if s == d)
    edges = []
    for s, d in sorted(pairs):
        if s == d:
            continue
        if (d, s) in pairs:
            if s < d:
                edges.append((s, d, "<|-|>"))
        else:
            edges.append((s, d, "-|>"))
    return edges, loops, []


def _chain(members: np.ndarray, xy: np.ndarray) -> list[tuple[int, int, str]]:
    """A path through a class: from its leftmost (then lowest) world, always on to
    the nearest world not yet visited."""
    left = sorted(int(i) for i in members)
    start = min(left, key=lambda i: (round(float(xy[i, 0]), 6), round(float(xy[i, 1]), 6), i))
    path = [start]
    left.remove(start)
    while left:
        here = xy[path[-1]]
        nxt = min(left, key=lambda i: (float(((xy[i] - here) ** 2).sum()), i))
        path.append(nxt)
        left.remove(nxt)
    return [(min(a, b), max(a, b), "-") for a, b in zip(path, path[1:], strict=False)]


def _s5_style(model: KripkeModel, agents: Sequence[str], s5: str) -> str:
    if s5 not in ("auto", "edges", "chains", "hulls"):
        raise VisualizeError(
            f"unknown s5 style {s5!r}; choose 'auto', 'edges', 'chains' or 'hulls'"
        )
    if s5 != "auto":
        return s5
    n = model.num_worlds
    total, largest = 0, 0
    for a in agents:
        rel = model.relation(a)
        if isinstance(rel, Partition):
            sizes = np.bincount(rel.labels, minlength=rel.num_classes)
            total += int((sizes * (sizes - 1) // 2).sum())
            largest = max(largest, int(sizes.max(initial=0)))
    return "edges" if total <= max(3 * n, 60) and largest <= 4 else "chains"


def _near_other_node(xy: np.ndarray, i: int, j: int) -> bool:
    """Whether the straight segment i-j passes close to another world."""
    p, q = xy[i], xy[j]
    d = q - p
    length2 = float(d @ d)
    if length2 == 0:
        return False
    t = np.clip(((xy - p) @ d) / length2, 0.0, 1.0)
    dist = np.linalg.norm(xy - (p + t[:, None] * d), axis=1)
    dist[[i, j]] = np.inf
    inside = (t > 0.02) & (t < 0.98)
    return bool(np.any(inside & (dist < 0.12)))


def _hull(points: np.ndarray) -> np.ndarray:
    """Convex hull (Andrew's monotone chain) in counter-clockwise order."""
    pts = sorted(set(map(tuple, np.round(points, 9).tolist())))
    if len(pts) <= 2:
        return np.array(pts)

    def cross(o: tuple, a: tuple, b: tuple) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[tuple] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return np.array(lower[:-1] + upper[:-1])


def _class_outline(xy: np.ndarray, pad: float) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    ring = np.stack([np.cos(t), np.sin(t)], axis=1) * pad
    pts = (xy[:, None, :] + ring[None, :, :]).reshape(-1, 2)
    return _hull(pts)


# ----------------------------------------------------------- figure size
_LEGEND_IN = 2.1  # room kept right of a model for its legend, inches
_MAX_AXES_IN = (15.0, 10.0)


def _axes_inches(xy: np.ndarray, shape: _NodeShape) -> tuple[float, float]:
    """Size of the axes so that one layout unit leaves room between neighbouring nodes."""
    unit_pt = max(2 * shape.a + 16.0, (2 * shape.b + 16.0) / 1.3, 40.0)
    span = xy.max(axis=0) - xy.min(axis=0) if xy.shape[0] else np.zeros(2)
    w = (span[0] + 1.5) * unit_pt / 72
    h = (span[1] + 1.4) * unit_pt / 72
    scale = min(1.0, _MAX_AXES_IN[0] / w, _MAX_AXES_IN[1] / h)
    return w * scale, h * scale


def _place_axes(
    fig: Figure, axes_in: tuple[float, float], legend: bool, title: bool, caption: bool
) -> Axes:
    """Add axes of exactly ``axes_in`` inches to a figure sized around them."""
    w, h = axes_in
    left, right = 0.15, (_LEGEND_IN if legend else 0.15)
    bottom, top = (0.35 if caption else 0.15), (0.5 if title else 0.15)
    fw, fh = w + left + right, h + bottom + top
    fig.set_size_inches(fw, fh)
    return fig.add_axes((left / fw, bottom / fh, w / fw, h / fh))


def _new_axes(
    xy: np.ndarray, shape: _NodeShape, *, legend: bool, title: bool, caption: bool
) -> Axes:
    fig = plt.figure()
    return _place_axes(fig, _axes_inches(xy, shape), legend, title, caption)


def _panel_size(xy: np.ndarray, shape: _NodeShape) -> tuple[float, float]:
    w, h = _axes_inches(xy, shape)
    return w + 0.3, h + 0.9


# ---------------------------------------------------------------- drawing
def _draw(
    ax: Axes,
    model: KripkeModel,
    xy: np.ndarray,
    *,
    designated: Sequence[int],
    agents: Sequence[str],
    texts: Sequence[str],
    caption: str,
    shape: _NodeShape,
    shade: np.ndarray | None,
    shade_text: str,
    s5: str,
    loops: bool,
    edge_labels: bool,
    legend: bool,
    title: str | None,
    font_size: float,
    removed: Sequence[tuple[np.ndarray, str]] = (),
    ghosts: np.ndarray | None = None,
    styles: Mapping[str, Any] | None = None,
    designated_text: str = "actual world",
    removed_text: str = "removed by this announcement",
    extra_xy: np.ndarray | None = None,
) -> Axes:
    n = model.num_worlds
    styles = dict(styles) if styles is not None else agent_styles(list(model.agents))
    s5_style = _s5_style(model, agents, s5)
    handles: list[Any] = []

    # worlds first, so ax.collections[0] is always the world nodes (zorder keeps them on top)
    face = np.array(["white"] * n, dtype=object)
    if shade is not None:
        face[shade] = SHADE_COLOR
    edge = np.array([NODE_EDGE_COLOR] * n, dtype=object)
    width = np.full(n, 1.0)
    des = np.asarray(designated, dtype=np.int64)
    if des.size:
        edge[des] = ACTUAL_COLOR
        width[des] = 2.6
    if n:
        ax.scatter(
            xy[:, 0],
            xy[:, 1],
            marker=shape.path,
            s=shape.size,
            c=list(face),
            edgecolors=list(edge),
            linewidths=width.tolist(),
            zorder=3,
            gid="worlds",
        )

    # classes (hulls) behind everything
    if s5_style == "hulls":
        for k, a in enumerate(agents):
            _, _, classes = _relation_pairs(model, a, "hulls")
            pad = 0.32 + 0.09 * k
            for c in classes:
                outline = _class_outline(xy[c], pad)
                ax.add_patch(
                    Polygon(
                        outline,
                        closed=True,
                        facecolor=styles[a].color,
                        edgecolor=styles[a].color,
                        alpha=0.18,
                        linewidth=1.4,
                        linestyle=styles[a].linestyle,
                        zorder=0.5,
                        gid=f"class:{a}",
                    )
                )

    # edges, grouped by unordered pair so parallel agents fan out
    by_pair: dict[tuple[int, int], list[tuple[str, int, int, str]]] = {}
    loop_worlds: dict[str, list[int]] = {}
    occupied: dict[int, list[float]] = {}  # directions (degrees) already used at each world
    for a in agents:
        edges, lw, _ = _relation_pairs(model, a, s5_style, xy)
        for i, j, style in edges:
            by_pair.setdefault((min(i, j), max(i, j)), []).append((a, i, j, style))
        if loops and lw:
            loop_worlds[a] = lw
    for (p, q), items in sorted(by_pair.items()):
        m = len(items)
        base = 0.0
        if _near_other_node(xy, p, q):
            base = 0.28
        for k, (a, i, j, style) in enumerate(items):
            rad = base + (k - (m - 1) / 2) * 0.22
            if i > j:  # keep the fan orientation independent of arrow direction
                rad = -rad
            dx, dy = xy[j] - xy[i]
            out_a = (dx / 2 + rad * dy, dy / 2 - rad * dx)
            out_b = (-dx / 2 + rad * dy, -dy / 2 - rad * dx)
            arrow = FancyArrowPatch(
                tuple(xy[i]),
                tuple(xy[j]),
                arrowstyle=style,
                connectionstyle=f"arc3,rad={rad:.3f}",
                shrinkA=shape.boundary(*out_a) + 1.5,
                shrinkB=shape.boundary(*out_b) + 1.5,
                mutation_scale=9,
                color=styles[a].color,
                linestyle=styles[a].linestyle,
                linewidth=1.5,
                zorder=1,
                gid=f"relation:{a}",
            )
            ax.add_patch(arrow)
            occupied.setdefault(i, []).append(float(np.degrees(np.arctan2(out_a[1], out_a[0]))))
            occupied.setdefault(j, []).append(float(np.degrees(np.arctan2(out_b[1], out_b[0]))))
            if edge_labels:
                mx, my = (xy[i] + xy[j]) / 2 + 0.5 * rad * np.array([dy, -dx])
                ax.text(
                    mx,
                    my,
                    a,
                    color=styles[a].color,
                    fontsize=font_size - 1,
                    ha="center",
                    va="center",
                    bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.8},
                    zorder=2,
                    gid="edge-label",
                )
    for a in agents:
        groups: dict[float, list[int]] = {}
        for w in loop_worlds.get(a, ()):
            phi = _free_direction(occupied.setdefault(w, []))
            occupied[w].append(phi)
            groups.setdefault(phi, []).append(w)
        for phi, ws in sorted(groups.items()):
            lp = _loop_path(shape, phi - 90.0)
            ax.scatter(
                xy[ws, 0],
                xy[ws, 1],
                marker=lp,
                s=(2 * float(np.abs(lp.vertices).max())) ** 2,
                facecolors="none",
                edgecolors=styles[a].color,
                linewidths=1.5,
                zorder=1,
                gid=f"loop:{a}",
            )

    # ghosts and removed worlds (announcement panels)
    if ghosts is not None and len(ghosts):
        ax.scatter(
            ghosts[:, 0],
            ghosts[:, 1],
            marker=shape.path,
            s=shape.size,
            facecolors="white",
            edgecolors=_GHOST_COLOR,
            linewidths=0.8,
            linestyles=":",
            zorder=2,
            gid="ghosts",
        )
    for rxy, rtext in removed:
        ax.scatter(
            [rxy[0]],
            [rxy[1]],
            marker=shape.path,
            s=shape.size,
            facecolors="#FBE3D6",
            edgecolors=REMOVED_COLOR,
            linewidths=1.4,
            linestyles="--",
            zorder=2,
            gid="removed",
        )
        ax.text(
            rxy[0],
            rxy[1],
            rtext,
            fontsize=font_size,
            color="#8C8C8C",
            ha="center",
            va="center",
            zorder=4,
            gid="label",
        )

    for i in range(n):
        ax.text(
            xy[i, 0],
            xy[i, 1],
            texts[i],
            fontsize=font_size,
            ha="center",
            va="center",
            zorder=4,
            gid="label",
            linespacing=1.1,
        )

    # legend
    for a in agents:
        st = styles[a]
        if s5_style == "hulls" and model.is_s5(a):
            handles.append(
                Patch(facecolor=st.color, edgecolor=st.color, alpha=0.35, label=agent_label(a))
            )
        else:
            handles.append(
                Line2D([], [], color=st.color, linestyle=st.linestyle, lw=1.8, label=agent_label(a))
            )
    if des.size:
        handles.append(
            Line2D(
                [],
                [],
                linestyle="none",
                marker="o",
                markersize=10,
                markerfacecolor="white",
                markeredgecolor=ACTUAL_COLOR,
                markeredgewidth=2.4,
                label=designated_text if des.size == 1 else designated_text + "s",
            )
        )
    if shade is not None:
        handles.append(Patch(facecolor=SHADE_COLOR, edgecolor=NODE_EDGE_COLOR, label=shade_text))
    if removed:
        handles.append(
            Patch(facecolor="#FBE3D6", edgecolor=REMOVED_COLOR, linestyle="--", label=removed_text)
        )
    if legend and handles:
        ax.legend(
            handles=handles,
            loc="upper left",
            bbox_to_anchor=(1.0, 1.0),
            frameon=False,
            fontsize=font_size,
            handlelength=1.8,
        )

    # frame
    pts = [xy]
    if ghosts is not None and len(ghosts):
        pts.append(ghosts)
    if removed:
        pts.append(np.array([r[0] for r in removed]))
    if extra_xy is not None and len(extra_xy):
        pts.append(extra_xy)
    allxy = np.concatenate([p.reshape(-1, 2) for p in pts]) if pts else np.zeros((0, 2))
    if len(allxy):
        lo, hi = allxy.min(axis=0), allxy.max(axis=0)
        ax.set_xlim(lo[0] - 0.75, hi[0] + 0.75)
        ax.set_ylim(lo[1] - 0.7, hi[1] + 0.7)
    else:
        ax.text(0.5, 0.5, "no worlds", ha="center", va="center", transform=ax.transAxes)
    ax.set_aspect("equal", adjustable="box")
    ax.set_axis_off()
    if caption:
        ax.text(
            0.0,
            -0.02,
            caption,
            transform=ax.transAxes,
            fontsize=font_size - 1,
            color="#4D4D4D",
            ha="left",
            va="top",
            gid="caption",
        )
    if title:
        ax.set_title(title, fontsize=font_size + 1)
    return ax


def draw_model(
    model: Any,
    ax: Axes | None = None,
    *,
    actual: Any = None,
    shade: Formula | str | Iterable[Hashable] | None = None,
    agents: Sequence[Any] | None = None,
    layout: LayoutSpec = "auto",
    by: str | None = None,
    labels: LabelSpec = "auto",
    s5: str = "auto",
    loops: bool = True,
    edge_labels: bool = False,
    max_worlds: int = MAX_WORLDS,
    title: str | None = None,
    legend: bool = True,
    font_size: float = FONT_SIZE,
) -> Axes:
    """Draw a Kripke model: worlds, each agent's relation, the actual world.

    Parameters
    ----------
    model : KripkeModel, PointedModel or ActionModel
        A pointed model's designated worlds are ringed; an action model is
        drawn with :func:`draw_action_model`.  Anything with a
        ``to_explicit()`` method (a small knowledge structure) is converted.
    ax : matplotlib Axes, optional
        Where to draw; by default a new figure sized to the model.
    actual : world label or list of labels, optional
        Worlds to ring instead of the pointed model's designated worlds.
    shade : Formula, str or iterable of worlds, optional
        Fill the worlds where this formula holds (or these worlds).
    agents : sequence of agents, optional
        Draw only these agents' relations (all by default).  Colours stay
        those of the full agent list.
    layout : str, mapping or callable
        See :mod:`visualize.layout`: ``"auto"``, ``"layered"``,
        ``"classes"`` (rows are the classes of agent ``by``), ``"grid"``,
        ``"circular"``, ``"spring"``, or explicit positions.
    labels : str, mapping or callable
        See :func:`world_labels`.
    s5 : {"auto", "edges", "chains", "hulls"}
        How S5 agents are drawn: one undirected edge per pair of
        indistinguishable worlds; a chain through each class (the worlds an
        agent cannot tell apart are those joined by a path of its colour:
        transitive edges left out); or each class as a shaded region.
        ``"auto"`` uses edges when no class has more than four worlds and
        there are at most ``max(3 n, 60)`` of them, chains otherwise.
    loops : bool
        Draw reflexive loops of non-S5 relations (S5 loops are never drawn).
    edge_labels : bool
        Also write the agent's name on each edge (for greyscale print).
    max_worlds : int
        Above this many worlds, draw :func:`draw_model_summary` instead.
    title : str, optional
    legend : bool
    font_size : float

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    VisualizeError
        For an unknown layout, label or s5 style.
    kripke.errors.UnknownWorldError, kripke.errors.UnknownAgentError
        For an actual world or agent the model does not have.
    """
    from kripke.updates import ActionModel

    if isinstance(model, ActionModel):
        return draw_action_model(
            model, ax, designated=actual, layout=layout, title=title, legend=legend
        )
    m, default_des = _unpack(model)
    des = _designated(m, default_des, actual)
    if m.num_worlds > max_worlds:
        return draw_model_summary(
            m, ax, actual=[m.label(i) for i in des] or None, agents=agents, title=title
        )
    ag = _agents(m, agents)
    xy = layout_array(m, layout, by=by)
    texts, caption = world_labels(m, labels)
    shape = _NodeShape(texts, font_size)
    mask, shade_text = _shade_mask(m, shade)
    if ax is None:
        ax = _new_axes(xy, shape, legend=legend, title=bool(title), caption=bool(caption))
    return _draw(
        ax,
        m,
        xy,
        designated=des,
        agents=ag,
        texts=texts,
        caption=caption,
        shape=shape,
        shade=mask,
        shade_text=shade_text,
        s5=s5,
        loops=loops,
        edge_labels=edge_labels,
        legend=legend,
        title=title,
        font_size=font_size,
    )


# ---------------------------------------------------------------- summary
def _groups(model: KripkeModel, agent: str) -> np.ndarray:
    """Group id per world: its class (S5) or the set of worlds it considers possible."""
    rel = model.relation(agent)
    if isinstance(rel, Partition):
        return rel.labels
    n = model.num_worlds
    src, dst = rel.edges()
    if src.size == 0:
        return np.zeros(n, dtype=np.int64)
    # hash each world's successor list (sorted by source, then destination)
    order = np.lexsort((dst, src))
    src, dst = src[order], dst[order]
    rng = np.random.default_rng(12345)
    weights = rng.integers(1, 2**61 - 1, size=n, dtype=np.int64).astype(np.uint64)
    h = np.zeros(n, dtype=np.uint64)
    np.add.at(h, src, weights[dst])
    cnt = np.bincount(src, minlength=n).astype(np.uint64)
    _, inv = np.unique(np.stack([h, cnt], axis=1), axis=0, return_inverse=True)
    return inv.reshape(-1)


def draw_model_summary(
    model: Any,
    ax: Axes | None = None,
    *,
    actual: Any = None,
    agents: Sequence[Any] | None = None,
    title: str | None = None,
    max_segments: int = 8,
    font_size: float = FONT_SIZE,
) -> Axes:
    """A picture of a model too large to draw world by world.

    One horizontal bar per agent, as long as the model has worlds, split by
    the size of the class a world lies in: a segment ``c × s`` holds the
    worlds of the ``c`` classes of ``s`` worlds the agent cannot tell apart
    (for a non-S5 agent: groups of worlds where it considers the same worlds
    possible).  Larger classes come first; a triangle marks the actual
    world's segment.  At a glance: who knows a lot (many small classes) and
    who knows little (few large ones).

    Parameters
    ----------
    model : KripkeModel or PointedModel
    ax : Axes, optional
    actual : world label or list of labels, optional
    agents : sequence, optional
    title : str, optional
    max_segments : int
        Class sizes beyond the largest ``max_segments - 1`` share one grey
        segment.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from kripke import muddy_children
    >>> from visualize import draw_model_summary
    >>> ax = draw_model_summary(muddy_children(8))
    >>> [t.get_text() for t in ax.get_yticklabels()][:2]
    ['agent 1', 'agent 2']
    >>> [t.get_text() for t in ax.texts if t.get_gid() == "segment"][:1]
    ['128 classes of 2']
    """
    m, default_des = _unpack(model)
    des = _designated(m, default_des, actual)
    ag = _agents(m, agents)
    styles = agent_styles(list(m.agents))
    n = m.num_worlds
    if ax is None:
        _, ax = plt.subplots(figsize=(8.5, 0.9 + 0.55 * max(len(ag), 1)))
    ax.set_xlim(0, max(n, 1))
    ax.set_ylim(-0.6, len(ag) - 0.4)
    bar_in = ax.get_window_extent().width / ax.figure.dpi if n else 1.0
    for row, a in enumerate(ag):
        groups = _groups(m, a)
        sizes = np.bincount(groups)
        sizes = sizes[sizes > 0]
        class_sizes, counts = np.unique(sizes, return_counts=True)
        order = np.argsort(-class_sizes, kind="stable")
        class_sizes, counts = class_sizes[order], counts[order]
        if class_sizes.size > max_segments:
            keep = max_segments - 1
            segments = [
                (int(s), int(c)) for s, c in zip(class_sizes[:keep], counts[:keep], strict=True)
            ]
            rest_worlds = int((class_sizes[keep:] * counts[keep:]).sum())
            rest_classes = int(counts[keep:].sum())
        else:
            segments = [(int(s), int(c)) for s, c in zip(class_sizes, counts, strict=True)]
            rest_worlds = rest_classes = 0
        actual_size = int(np.bincount(groups)[groups[des[0]]]) if des else None
        y = len(ag) - 1 - row
        left = 0.0
        kind = "classes" if m.is_s5(a) else "groups"
        for k, (size, count) in enumerate(segments):
            w = float(size * count)
            ax.add_patch(
                Rectangle(
                    (left, y - 0.35),
                    w,
                    0.7,
                    facecolor=styles[a].color,
                    alpha=0.9 if k % 2 == 0 else 0.6,
                    edgecolor="white",
                    linewidth=1.0,
                    gid=f"class:{a}",
                )
            )
            text = f"{count:,} {kind if count > 1 else kind[:-2] if kind == 'classes' else 'group'} of {size:,}"
            short = f"{count:,}×{size:,}"
            room = w / max(n, 1) * bar_in * 72
            for t in (text, short):
                if _text_width(t, font_size - 1) + 6 < room:
                    ax.text(
                        left + w / 2,
                        y,
                        t,
                        ha="center",
                        va="center",
                        fontsize=font_size - 1,
                        color="white" if styles[a].color != "#56B4E9" else "black",
                        gid="segment",
                    )
                    break
            if actual_size == size:
                ax.plot(
                    [left + w / 2],
                    [y + 0.42],
                    marker="v",
                    markersize=7,
                    color=ACTUAL_COLOR,
                    linestyle="none",
                    gid="actual",
                )
            left += w
        if rest_worlds:
            ax.add_patch(
                Rectangle(
                    (left, y - 0.35),
                    float(rest_worlds),
                    0.7,
                    facecolor="#D9D9D9",
                    edgecolor="white",
                    hatch="///",
                    linewidth=1.0,
                    gid="class-rest",
                )
            )
            if actual_size is not None and actual_size not in {s for s, _ in segments}:
                ax.plot(
                    [left + rest_worlds / 2],
                    [y + 0.42],
                    marker="v",
                    markersize=7,
                    color=ACTUAL_COLOR,
                    linestyle="none",
                    gid="actual",
                )
        total = int(counts.sum())
        note = f"{total:,} {kind}"
        if actual_size is not None:
            note += f"\nactual: {actual_size:,} worlds"
        if rest_classes:
            note += f"\n(grey: {rest_classes:,} smaller)"
        ax.text(
            max(n, 1) * 1.01, y, note, va="center", ha="left", fontsize=font_size - 1, gid="note"
        )
    ax.set_yticks(range(len(ag) - 1, -1, -1), [agent_label(a) for a in ag], fontsize=font_size)
    ax.set_xlabel(
        f"worlds (n = {n:,}) by the size of the class an agent cannot tell apart",
        fontsize=font_size,
    )
    ax.tick_params(axis="x", labelsize=font_size - 1)
    ax.tick_params(axis="y", length=0)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    ax.set_title(title or f"{n:,} worlds: too many to draw one by one", fontsize=font_size + 1)
    return ax


# ----------------------------------------------------------- announcements
def draw_announcements(
    model: KripkeModel | PointedModel,
    announcements: Sequence[Formula | str],
    *,
    ncols: int | None = None,
    layout: LayoutSpec = "auto",
    by: str | None = None,
    labels: LabelSpec = "auto",
    agents: Sequence[Any] | None = None,
    s5: str = "auto",
    check: bool = True,
    max_worlds: int = MAX_WORLDS,
    font_size: float = FONT_SIZE,
) -> list[Axes]:
    """One panel per step of a sequence of public announcements.

    Panel 0 is the model; panel *k* the model after the *k*-th
    announcement, with the worlds it removed drawn dashed and the worlds
    removed earlier as faint outlines.  Every panel uses the first model's
    layout, so a world stays where it was.

    Parameters
    ----------
    model : KripkeModel or PointedModel
    announcements : sequence of Formula or str
    ncols : int, optional
        Panels per row (default: all in one row, at most four).
    check : bool
        Passed to :func:`kripke.updates.announce`: on a pointed model an
        announcement false at the actual world raises
        :class:`~kripke.errors.PreconditionError`.

    Returns
    -------
    list of Axes
        One per panel; ``axes[0].figure`` is the figure.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from kripke import muddy_children
    >>> from visualize import draw_announcements
    >>> axes = draw_announcements(muddy_children(3, [1, 2]),
    ...                           ["m1 | m2 | m3", "~Kw_1 m1 & ~Kw_2 m2 & ~Kw_3 m3"])
    >>> [ax.get_title().splitlines()[-1] for ax in axes]
    ['8 worlds', '7 worlds, 1 removed', '4 worlds, 3 removed']
    """
    from kripke.updates import announce

    m0, default_des = _unpack(model)
    if m0.num_worlds > max_worlds:
        raise VisualizeError(
            f"the model has {m0.num_worlds} worlds, more than max_worlds={max_worlds} can show "
            "panel by panel; announce first and draw the smaller model, or raise max_worlds"
        )
    fs = [as_formula(f) for f in announcements]
    steps: list[Any] = [model]
    for f in fs:
        steps.append(announce(steps[-1], f, check=check))
    xy0 = layout_array(m0, layout, by=by)
    texts0, caption = world_labels(m0, labels)
    shape = _NodeShape(texts0, font_size)
    ag = _agents(m0, agents)
    styles = agent_styles(list(m0.agents))
    k = len(steps)
    cols = ncols or min(k, 4)
    rows = -(-k // cols)
    w1, h1 = _panel_size(xy0, shape)
    fig, axs = plt.subplots(
        rows,
        cols,
        figsize=(min(w1 * cols + _LEGEND_IN, 22.0), min(h1 * rows, 18.0)),
        squeeze=False,
    )
    axes = list(axs.ravel())
    for extra in axes[k:]:
        extra.set_axis_off()
    prev_idx = np.arange(m0.num_worlds)
    for s, target in enumerate(steps):
        m, des = _unpack(target)
        idx = np.array([m0.index(m.label(i)) for i in range(m.num_worlds)], dtype=np.int64)
        gone_now = np.setdiff1d(prev_idx, idx)
        gone_before = np.setdiff1d(np.arange(m0.num_worlds), prev_idx)
        if s == 0:
            head = "initial model"
            foot = f"{m.num_worlds} worlds"
        else:
            head = "\n".join(textwrap.wrap(f"after !{fs[s - 1]}", 38))
            foot = f"{m.num_worlds} worlds, {gone_now.size} removed"
        _draw(
            axes[s],
            m,
            xy0[idx],
            designated=des,
            agents=ag,
            texts=[texts0[i] for i in idx],
            caption=caption if s == 0 else "",
            shape=shape,
            shade=None,
            shade_text="",
            s5=s5,
            loops=True,
            edge_labels=False,
            legend=s == k - 1,
            title=f"{head}\n{foot}",
            font_size=font_size,
            removed=[(xy0[i], texts0[i]) for i in gone_now],
            ghosts=xy0[gone_before],
            styles=styles,
            extra_xy=xy0,
        )
        prev_idx = idx
    return axes[:k]


# ------------------------------------------------------------ action models
def _event_labels(action: Any) -> list[str]:
    out = []
    for e, pre in zip(action.events, action.pre, strict=True):
        lines = [f"{e}: {_short(str(pre), 28)}"]
        for atom, f in action.post.get(e, ()):
            lines.append(f"{atom} := {_short(str(f), 20)}")
        out.append("\n".join(lines))
    return out


def draw_action_model(
    action: Any,
    ax: Axes | None = None,
    *,
    designated: Any = None,
    layout: LayoutSpec = "auto",
    title: str | None = None,
    legend: bool = True,
    font_size: float = FONT_SIZE,
) -> Axes:
    """Draw an action model: events (boxes labelled ``event: precondition``,
    with postconditions ``atom := formula``) and each agent's relation.

    Parameters
    ----------
    action : ActionModel
    designated : event name or list of names, optional
        Events to ring (the ones that actually happen).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from kripke import private_announcement
    >>> from visualize import draw_action_model
    >>> ax = draw_action_model(private_announcement("p", ["a"], ["a", "b"]), designated="e")
    >>> sorted(t.get_text() for t in ax.texts if t.get_gid() == "label")
    ['e: p', 'skip: top']
    >>> len([p for p in ax.patches if p.get_gid() == "relation:b"])   # b believes skip happened
    1
    """
    m = action.to_kripke()
    des = _designated(m, (), designated)
    xy = layout_array(m, layout)
    texts = _event_labels(action)
    shape = _NodeShape(texts, font_size, square=True)
    if ax is None:
        ax = _new_axes(xy, shape, legend=legend, title=True, caption=False)
    return _draw(
        ax,
        m,
        xy,
        designated=des,
        agents=list(m.agents),
        texts=texts,
        caption="",
        shape=shape,
        shade=None,
        shade_text="",
        s5="edges",
        loops=True,
        edge_labels=False,
        legend=legend,
        title=title if title is not None else f"action model {action.name}",
        font_size=font_size,
        designated_text="designated event",
    )


def draw_product_update(
    model: KripkeModel | PointedModel,
    action: Any,
    events: Iterable[str] | str | None = None,
    *,
    layout: LayoutSpec = "auto",
    labels: LabelSpec = "auto",
    font_size: float = FONT_SIZE,
) -> list[Axes]:
    """Three panels: the model, the action model, and their product update.

    The product is drawn as one copy of the model per event, side by side,
    each world ``(w, e)`` where ``w`` was in the first panel: a world missing
    from a copy is one where the event's precondition fails.

    Parameters
    ----------
    model : KripkeModel or PointedModel
    action : ActionModel
    events : event name or names, optional
        The designated events (all by default), as in
        :func:`kripke.updates.product_update`.

    Returns
    -------
    list of three Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from kripke import KripkeModel, PointedModel, private_announcement
    >>> from visualize import draw_product_update
    >>> m = KripkeModel.from_partitions(["w", "v"], {"w": ["p"], "v": []},
    ...                                 {"a": [["w", "v"]], "b": [["w", "v"]]})
    >>> axes = draw_product_update(PointedModel(m, "w"),
    ...                            private_announcement("p", ["a"], ["a", "b"]), "e")
    >>> len(axes[2].collections[0].get_offsets())   # (w, e), (w, skip), (v, skip)
    3
    """
    from kripke.updates import product_update

    m0, des0 = _unpack(model)
    product = product_update(model, action, events)
    m1, des1 = _unpack(product)
    xy0 = layout_array(m0, layout)
    texts0, caption = world_labels(m0, labels)
    texts1, _ = world_labels(m1, labels)
    shape0 = _NodeShape(texts0 + texts1, font_size)
    width = (xy0[:, 0].max() - xy0[:, 0].min() if len(xy0) else 0.0) + 1.6
    xy1 = np.zeros((m1.num_worlds, 2))
    used: set[int] = set()
    for i in range(m1.num_worlds):
        w, e = _pair(m1.label(i))
        used.add(action.events.index(e))
        xy1[i] = xy0[m0.index(w)] + (action.events.index(e) * width, 0.0)
    am = action.to_kripke()
    wa, ha = _panel_size(
        layout_array(am, "auto"), _NodeShape(_event_labels(action), font_size, True)
    )
    w0, h0 = _panel_size(xy0, shape0)
    w1, h1 = _panel_size(xy1, shape0)
    fig = plt.figure(figsize=(min(w0 + wa + w1 + _LEGEND_IN, 22.0), max(h0, ha, h1) + 0.4))
    grid = fig.add_gridspec(1, 3, width_ratios=[w0, wa, w1])
    axes = [fig.add_subplot(grid[0, k]) for k in range(3)]
    styles = agent_styles(list(m0.agents))
    _draw(
        axes[0],
        m0,
        xy0,
        designated=des0,
        agents=list(m0.agents),
        texts=texts0,
        caption=caption,
        shape=shape0,
        shade=None,
        shade_text="",
        s5="auto",
        loops=True,
        edge_labels=False,
        legend=False,
        title="model",
        font_size=font_size,
        styles=styles,
    )
    draw_action_model(action, axes[1], designated=events, legend=False, font_size=font_size)
    _draw(
        axes[2],
        m1,
        xy1,
        designated=des1,
        agents=list(m1.agents),
        texts=texts1,
        caption="",
        shape=shape0,
        shade=None,
        shade_text="",
        s5="auto",
        loops=True,
        edge_labels=False,
        legend=True,
        title=f"product update with {action.name}",
        font_size=font_size,
        styles=styles,
    )
    top = xy0[:, 1].max() + 0.55 if len(xy0) else 0.5
    for k in sorted(used):
        x = (xy0[:, 0].min() + xy0[:, 0].max()) / 2 + k * width
        axes[2].text(
            x,
            top,
            f"event {action.events[k]}",
            ha="center",
            va="bottom",
            fontsize=font_size - 0.5,
            color="#4D4D4D",
            gid="band",
        )
    lo, hi = axes[2].get_ylim()
    axes[2].set_ylim(lo, max(hi, top + 0.4))
    return axes


def _pair(label: Hashable) -> tuple[Hashable, str]:
    """A product-update world label ``(world, event)``."""
    if not isinstance(label, tuple) or len(label) != 2:
        raise VisualizeError(f"{label!r} is not a (world, event) label of a product update")
    return label[0], str(label[1])


# -------------------------------------------------------------- notebooks
def _png(draw: Callable[[Figure], Any]) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = Figure()
    FigureCanvasAgg(fig)
    draw(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    return buf.getvalue()


def model_png(model: KripkeModel | PointedModel, *, max_worlds: int = MAX_WORLDS) -> bytes:
    """The picture of :func:`draw_model` as PNG bytes (the models' notebook display).

    No pyplot figure is created, so displaying a model leaves no open figure.

    Examples
    --------
    >>> from kripke import muddy_children
    >>> from visualize import model_png
    >>> model_png(muddy_children(2))[:4]
    b'\\x89PNG'
    """
    m, _ = _unpack(model)

    def draw(fig: Figure) -> None:
        if m.num_worlds > max_worlds:
            fig.set_size_inches(8.0, 0.9 + 0.55 * max(len(m.agents), 1))
            draw_model_summary(model, fig.add_subplot())
            return
        xy = layout_array(m, "auto")
        texts, caption = world_labels(m, "auto")
        ax = _place_axes(
            fig, _axes_inches(xy, _NodeShape(texts, FONT_SIZE)), True, False, bool(caption)
        )
        draw_model(model, ax, max_worlds=max_worlds)

    return _png(draw)


def action_model_png(action: Any) -> bytes:
    """The picture of :func:`draw_action_model` as PNG bytes (notebook display)."""

    def draw(fig: Figure) -> None:
        m = action.to_kripke()
        xy = layout_array(m, "auto")
        shape = _NodeShape(_event_labels(action), FONT_SIZE, square=True)
        draw_action_model(action, _place_axes(fig, _axes_inches(xy, shape), True, True, False))

    return _png(draw)
