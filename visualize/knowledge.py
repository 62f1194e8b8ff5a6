"""Pictures of what players know: belief heatmaps, knowledge timelines and
"who knows what" tables.

The drawing functions take plain data — a matrix of probabilities, counts per
step, a table of values — so they draw any source of knowledge: an explicit
Kripke model, the exact card-deal knowledge of :mod:`games.deal`, or numbers
a user computed.  Thin adapters (:func:`who_knows` here, and those of
:mod:`visualize.cards`) turn the library's objects into that data.

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from fractions import Fraction as F
>>> from visualize import draw_belief
>>> ax = draw_belief([[1, 0, 0], [0, F(1, 2), F(1, 2)]], ["AS", "KH"], ["me", "P1", "P2"])
>>> sorted(t.get_text() for t in ax.texts if t.get_gid() == "cell")
['1', '1/2', '1/2']
"""

from __future__ import annotations

import html
import math
import textwrap
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from numbers import Real
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.colors import LinearSegmentedColormap
from matplotlib.patches import Rectangle
from matplotlib.ticker import MaxNLocator
from matplotlib.transforms import blended_transform_factory

from kripke.formulas import Formula, as_formula
from kripke.models import PointedModel
from visualize.errors import VisualizeError
from visualize.style import (
    FONT_SIZE,
    KNOWN_COLOR,
    KNOWS_FALSE_COLOR,
    KNOWS_TRUE_COLOR,
    agent_label,
    agent_styles,
)

__all__ = [
    "format_probability",
    "draw_belief",
    "draw_knowledge_timeline",
    "KnowledgeTable",
    "Refused",
    "who_knows",
    "draw_who_knows",
]

Probability = Fraction | float | int


def format_probability(p: Probability, *, max_denominator: int = 64) -> str:
    """Short text for a probability: ``"1"``, ``""`` for 0, ``"1/3"`` for a
    fraction with a small denominator, else two decimals (``".37"``).

    Examples
    --------
    >>> from fractions import Fraction
    >>> from visualize.knowledge import format_probability
    >>> [format_probability(x) for x in (1, 0, Fraction(2, 6), 0.375, Fraction(1, 1000))]
    ['1', '', '1/3', '.38', '<.01']
    """
    if p == 1:
        return "1"
    if p == 0:
        return ""
    if isinstance(p, Fraction) and p.denominator <= max_denominator:
        return f"{p.numerator}/{p.denominator}"
    x = float(p)
    if x < 0.005:
        return "<.01"
    if x > 0.995:
        return ">.99"
    return f"{x:.2f}".lstrip("0")


def _format_copies(x: Probability) -> str:
    """Expected copies: ``"2"``, ``""`` for none, ``"3/2"``, or one decimal (``"1.3"``)."""
    if x == 0:
        return ""
    if x == int(x):
        return str(int(x))
    if isinstance(x, Fraction) and x.denominator <= 8:
        return f"{x.numerator}/{x.denominator}"
    return f"{float(x):.1f}"


def _probability_matrix(
    probabilities: Any, rows: Sequence[Any], cols: Sequence[Any], top: Sequence[int] | None = None
) -> tuple[np.ndarray, list[list[Probability]]]:
    """Validate a rows × cols matrix of probabilities (or expected copies up to
    ``top[i]``); floats for colour, exact values for text."""
    try:
        exact = [list(r) for r in probabilities]
    except TypeError:
        raise VisualizeError(
            "probabilities must be a matrix (a list of rows or a 2-D array)"
        ) from None
    if len(exact) != len(rows) or any(len(r) != len(cols) for r in exact):
        shape = (len(exact), {len(r) for r in exact})
        raise VisualizeError(
            f"probabilities have shape {shape}, expected {len(rows)} cards × {len(cols)} locations"
        )
    out = np.zeros((len(rows), len(cols)))
    for i, r in enumerate(exact):
        for j, p in enumerate(r):
            if isinstance(p, np.generic):
                p = p.item()
                exact[i][j] = p
            hi = 1 if top is None else top[i]
            if not isinstance(p, Real) or isinstance(p, bool) or not 0 <= float(p) <= hi:
                what = "probability" if top is None else "expected copies"
                raise VisualizeError(
                    f"{what} of {rows[i]} at {cols[j]} is {p!r}, not a number in [0, {hi}]"
                )
            out[i, j] = float(p)
    return out, exact


def draw_belief(
    probabilities: Any,
    cards: Sequence[Any],
    locations: Sequence[Any],
    ax: Axes | None = None,
    *,
    known: Any = None,
    groups: Sequence[Hashable] | None = None,
    title: str | None = None,
    annotate: bool | None = None,
    colorbar: bool = True,
    copies: Sequence[int] | None = None,
    font_size: float = FONT_SIZE,
) -> Axes:
    """Heatmap of one seat's belief: for each card, the probability of each location.

    Parameters
    ----------
    probabilities : matrix, ``len(cards)`` rows × ``len(locations)`` columns
        Exact :class:`~fractions.Fraction` values are written as fractions
        when the denominator is small; floats as two decimals.
    cards, locations : sequences
        Row and column names.
    ax : Axes, optional
    known : boolean matrix, optional
        Cells the seat knows (outlined).  Default: the cells of probability 1.
    groups : sequence, optional
        A group name per card (e.g. its suit); each group becomes its own
        block of rows, blocks side by side, so a 52-card deck fits on a page.
    title : str, optional
    annotate : bool, optional
        Write the probability in each cell (default: when there are at most
        400 cells).
    colorbar : bool
    copies : sequence of int, optional
        For decks with copies: the number of copies of each card.  The
        matrix then holds expected copies (0 to ``copies[i]``), written in the
        cells; the colour is the share of the copies, and a cell is known when
        it holds every copy.

    Returns
    -------
    matplotlib.axes.Axes
        Cell texts carry gid ``"cell"``, known-cell outlines ``"known"``.

    Raises
    ------
    VisualizeError
        If the matrix has the wrong shape or a value outside [0, 1].
    """
    cards = [str(c) for c in cards]
    locations = [str(loc) for loc in locations]
    if copies is not None and len(copies) != len(cards):
        raise VisualizeError(f"{len(copies)} copy counts for {len(cards)} cards")
    values, exact = _probability_matrix(probabilities, cards, locations, copies)
    n, k = values.shape
    full = np.ones(n) if copies is None else np.asarray(copies, dtype=float)
    if known is None:
        known_mask = values == full[:, None]
    else:
        known_mask = np.asarray(known, dtype=bool)
        if known_mask.shape != (n, k):
            raise VisualizeError(f"known has shape {known_mask.shape}, expected {(n, k)}")
    if groups is None:
        blocks: list[tuple[str, list[int]]] = [("", list(range(n)))]
    else:
        if len(groups) != n:
            raise VisualizeError(f"{len(groups)} groups for {n} cards")
        seen: dict[Hashable, list[int]] = {}
        for i, g in enumerate(groups):
            seen.setdefault(g, []).append(i)
        blocks = [(str(g), idx) for g, idx in seen.items()]
    tall = max(len(idx) for _, idx in blocks) if blocks else 0
    if annotate is None:
        annotate = n * k <= 400
    if ax is None:
        cell_w, cell_h = (0.5, 0.27) if annotate else (0.3, 0.2)
        width = len(blocks) * (k * cell_w + 0.6) + (1.4 if colorbar else 0.4)
        height = tall * cell_h + 0.9 + 0.12 * max(len(loc) for loc in locations) if locations else 2
        _, ax = plt.subplots(figsize=(max(width, 3.0), max(height, 1.8)))
    cmap = plt.get_cmap("Blues")
    mesh = None
    gap = 1.6 if groups is not None else 0.0
    for b, (name, idx) in enumerate(blocks):
        x0 = b * (k + gap)
        sub = values[idx] / full[idx, None]
        mesh = ax.pcolormesh(
            np.arange(k + 1) + x0,
            np.arange(len(idx) + 1),
            sub,
            cmap=cmap,
            vmin=0.0,
            vmax=1.0,
            edgecolors="white",
            linewidth=0.6,
            gid="belief",
        )
        for r, i in enumerate(idx):
            if groups is not None:
                ax.text(
                    x0 - 0.15,
                    r + 0.5,
                    cards[i],
                    ha="right",
                    va="center",
                    fontsize=font_size - 1,
                    gid="card",
                )
            for j in range(k):
                if known_mask[i, j]:
                    ax.add_patch(
                        Rectangle(
                            (x0 + j + 0.07, r + 0.09),
                            0.86,
                            0.82,
                            fill=False,
                            edgecolor=KNOWN_COLOR,
                            linewidth=1.8,
                            zorder=3,
                            gid="known",
                        )
                    )
                if annotate:
                    text = (
                        format_probability(exact[i][j])
                        if copies is None
                        else _format_copies(exact[i][j])
                    )
                    if text:
                        ax.text(
                            x0 + j + 0.5,
                            r + 0.5,
                            text,
                            ha="center",
                            va="center",
                            fontsize=font_size - 1.5,
                            color="white" if values[i, j] / full[i] > 0.55 else "black",
                            fontweight="bold" if known_mask[i, j] else "normal",
                            zorder=4,
                            gid="cell",
                        )
        for j, loc in enumerate(locations):
            ax.text(
                x0 + j + 0.5,
                -0.15,
                loc,
                ha="center",
                va="bottom",
                rotation=60 if max(map(len, locations)) > 4 else 0,
                fontsize=font_size - 1,
                gid="location",
            )
        if name:
            ax.text(
                x0 + k / 2,
                -0.15 - (0.9 if max(len(loc) for loc in locations) > 4 else 0.55),
                name,
                ha="center",
                va="bottom",
                fontsize=font_size,
                fontweight="bold",
                gid="group",
            )
    ax.set_xlim(
        -0.05 - (gap * 0.9 if groups is not None else 0), len(blocks) * (k + gap) - gap + 0.05
    )
    ax.set_ylim(tall, 0)
    ax.set_xticks([])
    if groups is None:
        ax.set_yticks(np.arange(n) + 0.5, cards, fontsize=font_size - 1)
        ax.tick_params(axis="y", length=0)
    else:
        ax.set_yticks([])
    for side in ax.spines.values():
        side.set_visible(False)
    if colorbar and mesh is not None:
        cb = ax.figure.colorbar(mesh, ax=ax, fraction=0.04, pad=0.02)
        cb.set_label(
            "probability" if copies is None else "share of the copies", fontsize=font_size - 1
        )
        cb.ax.tick_params(labelsize=font_size - 2)
    if title:
        pad = 40.0 if max(map(len, locations), default=0) > 4 else 22.0
        ax.set_title(title, fontsize=font_size + 1, pad=pad + (14.0 if groups is not None else 0.0))
    return ax


# ----------------------------------------------------------------- timeline
def draw_knowledge_timeline(
    counts: Mapping[Any, Sequence[int]] | Sequence[Sequence[int]],
    ax: Axes | None = None,
    *,
    steps: Sequence[float] | None = None,
    events: Iterable[tuple[float, str]] = (),
    title: str | None = None,
    ylabel: str = "deals considered possible",
    xlabel: str = "step",
    font_size: float = FONT_SIZE,
) -> Axes:
    """How many deals (worlds) each seat considers possible, step by step, on a log scale.

    Parameters
    ----------
    counts : mapping from seat to counts, or a list of count sequences (seats ``P0``, ``P1``, …)
        Exact integers may exceed a float's precision (10^20 deals); they
        are drawn as floats.  Every count must be at least 1: a seat always
        considers the true deal possible.
    steps : sequence, optional
        The x value of each count (default ``0, 1, 2, …``).
    events : iterable of ``(step, text)``
        Moments to mark with a vertical line and a label (a call, a reveal).
    title, ylabel, xlabel : str

    Returns
    -------
    matplotlib.axes.Axes
        One line per seat (gid ``"seat:<name>"``), one per event
        (gid ``"event"``); a star where a seat first knows the whole deal.

    Raises
    ------
    VisualizeError
        For a count below 1 or sequences of different lengths.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from visualize import draw_knowledge_timeline
    >>> ax = draw_knowledge_timeline({"P0": [10**20, 10**12, 1], "P1": [10**20, 10**20, 10**5]},
    ...                              events=[(1, "P1 calls BS")])
    >>> ax.get_yscale(), [t.get_text() for t in ax.get_legend().get_texts()]
    ('log', ['P0', 'P1'])
    """
    if isinstance(counts, Mapping):
        series = [(str(k), list(v)) for k, v in counts.items()]
    else:
        series = [(f"P{i}", list(v)) for i, v in enumerate(counts)]
    if not series:
        raise VisualizeError("no counts to draw")
    length = len(series[0][1])
    for name, vals in series:
        if len(vals) != length:
            raise VisualizeError(
                f"{name} has {len(vals)} counts, {series[0][0]} has {length}: give one per step"
            )
        for t, v in enumerate(vals):
            if not isinstance(v, Real) or v < 1:
                raise VisualizeError(
                    f"{name} considers {v!r} deals possible at step {t}; a count is at least 1"
                )
    xs = np.arange(length, dtype=float) if steps is None else np.asarray(steps, dtype=float)
    if xs.shape != (length,):
        raise VisualizeError(f"{len(xs)} steps for {length} counts")
    styles = agent_styles([n for n, _ in series])
    if ax is None:
        _, ax = plt.subplots(figsize=(8.0, 3.6))
    top, bottom = 1.0, math.inf
    # the last count holds for one more step, so it shows as a segment too
    tail = float(np.median(np.diff(xs))) if length > 1 else 1.0
    xs_drawn = np.r_[xs, xs[-1] + tail]
    for name, vals in series:
        y = np.array([float(v) for v in vals])
        top = max(top, float(y.max()))
        bottom = min(bottom, float(y.min()))
        st = styles[name]
        ax.step(
            xs_drawn,
            np.r_[y, y[-1]],
            where="post",
            color=st.color,
            linestyle=st.linestyle,
            lw=1.8,
            label=name,
            gid=f"seat:{name}",
        )
        hit = np.flatnonzero(y <= 1.0)
        if hit.size:
            ax.plot(
                xs[hit[0]],
                1.0,
                marker="*",
                markersize=11,
                color=st.color,
                markeredgecolor="black",
                markeredgewidth=0.6,
                linestyle="none",
                gid=f"knows:{name}",
                clip_on=False,
                zorder=4,
            )
    ax.set_yscale("log")
    # down to 1 (knowing the deal) only when some seat gets there
    ax.set_ylim(0.5 if bottom <= 1.0 else bottom / 10, top * 30)
    trans = blended_transform_factory(ax.transData, ax.transAxes)
    for step, text in events:
        ax.axvline(step, color="#7F7F7F", linestyle=":", lw=1.0, gid="event")
        ax.text(
            step,
            0.985,
            text,
            transform=trans,
            rotation=90,
            ha="right",
            va="top",
            fontsize=font_size - 1.5,
            color="#4D4D4D",
            gid="event-label",
            bbox={"boxstyle": "square,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.85},
        )
    if steps is None:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(xlabel, fontsize=font_size)
    ax.set_ylabel(ylabel, fontsize=font_size)
    ax.tick_params(labelsize=font_size - 1)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.legend(frameon=False, fontsize=font_size - 0.5, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    if title:
        ax.set_title(title, fontsize=font_size + 1)
    return ax


# ------------------------------------------------------------ who knows what
@dataclass(frozen=True)
class Refused:
    """A cell of a :class:`KnowledgeTable` the knowledge would not answer exactly.

    Late in a long face-down game a seat's exact counting may have to drop a
    joint constraint too large to keep; its deals are then a superset of the
    true ones, and a probability strictly between 0 and 1 read from them would
    be neither exact nor a bound.  Such a cell holds the refusal's message
    (``why``) instead of a number, and the rest of the table is still given.
    """

    why: str

    def __str__(self) -> str:
        return "refused"


Cell = Probability | tuple[Probability, Probability] | Refused | None


@dataclass(frozen=True)
class KnowledgeTable:
    """Each agent's probability of each formula, and the formulas' actual truth.

    ``values[i][j]`` is agent ``agents[i]``'s probability that
    ``formulas[j]`` holds: 1 when it knows the formula, 0 when it knows its
    negation, ``None`` when it considers no world possible, and a pair
    ``(low, high)`` when only bounds are defined (a game's formula about what
    other seats saw, see :meth:`games.epistemic.GameKnowledge.probability_bounds`),
    and a :class:`Refused` cell, with the reason, where a game's knowledge
    would not answer exactly.  ``truth[j]`` is the formula's value at the
    actual world (``None`` if unknown or refused).
    """

    agents: tuple[str, ...]
    formulas: tuple[str, ...]
    values: tuple[tuple[Cell, ...], ...]
    truth: tuple[bool | None, ...] = field(default=())

    def cell_text(self, i: int, j: int) -> str:
        """``"knows"``, ``"knows it's false"``, a probability such as ``"P = 1/3"``, an
        interval ``"P in [0, 1/3]"``, ``"refused"`` or ``"—"``."""
        v = self.values[i][j]
        if v is None:
            return "—"
        if isinstance(v, Refused):
            return str(v)
        if isinstance(v, tuple):
            lo, hi = (format_probability(x) or "0" for x in v)
            return f"P in [{lo}, {hi}]"
        if v == 1:
            return "knows"
        if v == 0:
            return "knows it's false"
        text = format_probability(v)
        return f"P {text}" if text[0] in "<>" else f"P = {text}"

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(f)}</th>" for f in self.formulas)
        rows = []
        if self.truth:
            cells = "".join(
                f"<td>{'true' if t else 'false' if t is not None else '?'}</td>" for t in self.truth
            )
            rows.append(f"<tr><th>actual world</th>{cells}</tr>")
        for i, a in enumerate(self.agents):
            cells = "".join(
                f'<td style="background:{_cell_color(v)}"'
                + (f' title="{html.escape(v.why)}"' if isinstance(v, Refused) else "")
                + f">{html.escape(self.cell_text(i, j))}</td>"
                for j, v in enumerate(self.values[i])
            )
            rows.append(f"<tr><th>{html.escape(a)}</th>{cells}</tr>")
        return f"<table><tr><th></th>{head}</tr>{''.join(rows)}</table>"


_KNOWS_CMAP = LinearSegmentedColormap.from_list(
    "knows", [KNOWS_FALSE_COLOR, "#FFFFFF", KNOWS_TRUE_COLOR]
)


def _cell_color(v: Cell) -> str:
    if v is None:
        return "#EEEEEE"
    if isinstance(v, Refused):
        return "#D9D9D9"
    if isinstance(v, tuple):
        v = (v[0] + v[1]) / 2
        v = min(max(v, 0.001), 0.999)  # an interval is never shown as knowledge
    r, g, b, _ = _KNOWS_CMAP(0.15 + 0.7 * float(v) if 0 < v < 1 else float(v))
    return f"#{int(r * 255):02X}{int(g * 255):02X}{int(b * 255):02X}"


def who_knows(
    target: Any,
    formulas: Sequence[Formula | str],
    agents: Sequence[Any] | None = None,
    *,
    labels: Sequence[str] | None = None,
) -> KnowledgeTable:
    """What each agent knows of each formula: a :class:`KnowledgeTable`.

    Parameters
    ----------
    target : PointedModel, PointedStructure, games.epistemic.GameKnowledge, games.deal.DealState, or mapping of agent to DealKnowledge
        On a pointed model or structure, an agent's probability of a formula
        is the fraction of the worlds it considers possible where the formula
        holds (every possible world equally likely).  On a game's knowledge
        (``state.knowledge()``), it is the share of the deals the seat
        considers possible, or the pair of bounds when the formula speaks of
        what other seats saw; a cell the game's knowledge refuses (a seat
        whose counting had to drop a constraint, late in a long face-down
        game) is a :class:`Refused` with the reason, and only that cell is
        missing from the table.  On a card deal, it is the
        exact probability of the deal-knowledge module (propositional
        formulas over ``has(location, card)``); a :class:`~games.deal.DealState`
        also gives the formulas' truth in the true deal.  Either way 1 means
        the agent knows the formula, 0 that it knows the negation.
    formulas : sequence of Formula or str
    agents : sequence, optional
        The rows (default: every agent).
    labels : sequence of str, optional
        Column headings (default: the formulas' text).

    Examples
    --------
    >>> from kripke import muddy_children, announce
    >>> from visualize import who_knows
    >>> pm = announce(muddy_children(3, [1, 2]), "m1 | m2 | m3")
    >>> t = who_knows(pm, ["m1", "m3"])
    >>> [[t.cell_text(i, j) for j in range(2)] for i in range(3)]
    [['P = 1/2', "knows it's false"], ['knows', "knows it's false"], ['knows', 'P = 1/2']]
    >>> t.truth
    (True, False)
    """
    from kripke.explicit import truth_array

    if labels is not None:
        if len(labels) != len(formulas):
            raise VisualizeError(f"{len(labels)} labels for {len(formulas)} formulas")
        table = who_knows(target, formulas, agents)
        return KnowledgeTable(table.agents, tuple(map(str, labels)), table.values, table.truth)
    # asked of the type: a game's ``pointed`` builds its knowledge structure, which a long
    # game's knowledge refuses (its probabilities come from counting)
    kind = type(target)
    if isinstance(target, Mapping) or (
        hasattr(kind, "knowledge") and hasattr(kind, "holds") and hasattr(target, "agents")
    ):
        return _who_knows_deal(target, formulas, agents)
    if hasattr(kind, "probability_bounds") and hasattr(kind, "pointed"):
        return _who_knows_game(target, formulas, agents)
    if hasattr(target, "considered") and hasattr(target, "designated"):
        return _who_knows_symbolic(target, formulas, agents)
    if not isinstance(target, PointedModel):
        raise VisualizeError(
            f"who_knows needs a PointedModel or PointedStructure (knowledge is relative to "
            f"the actual world), a game's knowledge, a card DealState or a mapping of agents "
            f"to DealKnowledge; got {type(target).__name__}"
        )
    model = target.model
    actual = target.actual
    fs = [as_formula(f) for f in formulas]
    names = list(model.agents) if agents is None else [str(a) for a in agents]
    truths = [np.asarray(truth_array(model, f), dtype=bool) for f in fs]
    values = []
    for a in names:
        idx = np.array([model.index(w) for w in model.accessible(a, actual)], dtype=np.int64)
        row: list[Probability | None] = []
        for t in truths:
            row.append(None if idx.size == 0 else Fraction(int(t[idx].sum()), int(idx.size)))
        values.append(tuple(row))
    i = model.index(actual)
    return KnowledgeTable(
        tuple(names), tuple(str(f) for f in fs), tuple(values), tuple(bool(t[i]) for t in truths)
    )


def _who_knows_symbolic(
    target: Any, formulas: Sequence[Formula | str], agents: Sequence[Any] | None
) -> KnowledgeTable:
    from kripke.errors import PreconditionError

    fs = [as_formula(f) for f in formulas]
    names = list(target.agents) if agents is None else [str(a) for a in agents]
    values = []
    for a in names:
        if a not in target.agents:
            raise VisualizeError(f"no agent {a!r}; agents: {', '.join(target.agents)}")
        row: list[Probability | None] = []
        for f in fs:
            try:
                row.append(target.probability(a, f))
            except PreconditionError:
                row.append(None)
        values.append(tuple(row))
    truth = tuple(bool(target.holds(f)) for f in fs)
    return KnowledgeTable(tuple(names), tuple(str(f) for f in fs), tuple(values), truth)


def _who_knows_game(
    target: Any, formulas: Sequence[Formula | str], agents: Sequence[Any] | None
) -> KnowledgeTable:
    from kripke.errors import SizeLimitError

    fs = [target.formula(f) for f in formulas]
    seats = list(target.agents) if agents is None else [target.agent(a) for a in agents]
    values = []
    for a in seats:
        row: list[Cell] = []
        for f in fs:
            try:
                lo, hi = target.probability_bounds(a, f)
            except SizeLimitError as e:  # this cell only: the others are still answered
                row.append(Refused(str(e)))
                continue
            row.append(lo if lo == hi else (lo, hi))
        values.append(tuple(row))
    truth: list[bool | None] = []
    for f in fs:
        try:
            truth.append(bool(target.holds(f)))
        except SizeLimitError:
            truth.append(None)
    return KnowledgeTable(
        tuple(str(a) for a in seats), tuple(str(f) for f in formulas), tuple(values), tuple(truth)
    )


def _who_knows_deal(
    target: Any, formulas: Sequence[Formula | str], agents: Sequence[Any] | None
) -> KnowledgeTable:
    fs = [as_formula(f) for f in formulas]
    if isinstance(target, Mapping):
        knowledge = {str(a): k for a, k in target.items()}
        truth: tuple[bool | None, ...] = ()
    else:
        knowledge = {str(a): target.knowledge(a) for a in target.agents}
        truth = tuple(bool(target.holds(f)) for f in fs)
    names = list(knowledge) if agents is None else [str(a) for a in agents]
    values = []
    for a in names:
        if a not in knowledge:
            raise VisualizeError(f"no knowledge for agent {a!r}; agents: {', '.join(knowledge)}")
        values.append(tuple(knowledge[a].probability_of(f, exact=True) for f in fs))
    return KnowledgeTable(tuple(names), tuple(str(f) for f in fs), tuple(values), truth)


def draw_who_knows(
    table: KnowledgeTable,
    ax: Axes | None = None,
    *,
    title: str | None = None,
    font_size: float = FONT_SIZE,
) -> Axes:
    """Draw a :class:`KnowledgeTable`: agents × formulas, green where an agent
    knows the formula, red where it knows the negation, shades in between
    with the probability; a first row gives the actual truth values.

    Returns
    -------
    matplotlib.axes.Axes
        Cell texts carry gid ``"cell"``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from kripke import muddy_children
    >>> from visualize import who_knows, draw_who_knows
    >>> ax = draw_who_knows(who_knows(muddy_children(2, [1]), ["m1", "K_2 m1"]))
    >>> [t.get_text() for t in ax.texts if t.get_gid() == "cell"]
    ['P = 1/2', 'P = 1/2', 'knows', 'knows']
    """
    n, k = len(table.agents), len(table.formulas)
    header_lines = [textwrap.wrap(f, 18) or [""] for f in table.formulas]
    head_h = 0.18 * max(len(h) for h in header_lines) if header_lines else 0.2
    has_truth = bool(table.truth)
    rows = n + (1 if has_truth else 0)
    if ax is None:
        _, ax = plt.subplots(figsize=(1.3 + 1.35 * k, 0.5 + head_h + 0.36 * rows))
    for j in range(k):
        ax.text(
            j + 0.5,
            -0.12,
            "\n".join(header_lines[j]),
            ha="center",
            va="bottom",
            fontsize=font_size - 1,
            gid="formula",
        )
        if has_truth:
            t = table.truth[j]
            ax.add_patch(
                Rectangle((j + 0.03, 0.03), 0.94, 0.94, facecolor="#F2F2F2", edgecolor="white")
            )
            ax.text(
                j + 0.5,
                0.5,
                {True: "true", False: "false", None: "?"}[t],
                ha="center",
                va="center",
                fontsize=font_size - 1,
                style="italic",
                gid="truth",
            )
    for i in range(n):
        for j in range(k):
            v = table.values[i][j]
            y = i + (1 if has_truth else 0)
            ax.add_patch(
                Rectangle(
                    (j + 0.03, y + 0.03),
                    0.94,
                    0.94,
                    facecolor=_cell_color(v),
                    edgecolor="white",
                    gid="cell-box",
                )
            )
            dark = v is not None and not isinstance(v, tuple | Refused) and (v == 1 or v == 0)
            ax.text(
                j + 0.5,
                y + 0.5,
                table.cell_text(i, j),
                ha="center",
                va="center",
                fontsize=font_size - 1,
                color="white" if dark else "black",
                fontweight="bold" if dark else "normal",
                gid="cell",
            )
    labels = (["actual world"] if has_truth else []) + [
        agent_label(a) if a.isdigit() else a for a in table.agents
    ]
    ax.set_yticks(np.arange(rows) + 0.5, labels, fontsize=font_size - 0.5)
    ax.tick_params(axis="y", length=0)
    ax.set_xticks([])
    ax.set_xlim(0, k)
    ax.set_ylim(rows, 0)
    for side in ax.spines.values():
        side.set_visible(False)
    if title:
        ax.set_title(
            title,
            fontsize=font_size + 1,
            pad=14 + 12 * max((len(h) for h in header_lines), default=1),
        )
    return ax
