"""One palette and one set of sizes for every picture of the package.

Agents are coloured from the Okabe–Ito palette, which stays distinguishable
for readers with colour-vision deficiencies and in greyscale print; after the
seventh agent the colours repeat with a dashed line style.

Examples
--------
>>> from visualize.style import agent_styles
>>> styles = agent_styles(["a", "b"])
>>> styles["a"].color, styles["b"].color
('#0072B2', '#D55E00')
>>> agent_styles([str(i) for i in range(9)])["7"].linestyle
'--'
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal

import matplotlib as mpl

__all__ = [
    "AGENT_COLORS",
    "ACTUAL_COLOR",
    "SHADE_COLOR",
    "REMOVED_COLOR",
    "NODE_EDGE_COLOR",
    "KNOWS_TRUE_COLOR",
    "KNOWS_FALSE_COLOR",
    "KNOWN_COLOR",
    "FONT_SIZE",
    "AgentStyle",
    "agent_styles",
    "agent_label",
    "deterministic_style",
]

#: Okabe–Ito colours in the order agents receive them (yellow is left out: too pale on white).
AGENT_COLORS: tuple[str, ...] = (
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#000000",  # black
)
#: Ring drawn around the actual (designated) worlds.
ACTUAL_COLOR = "#000000"
#: Fill of the worlds where a shaded formula holds (Okabe–Ito yellow).
SHADE_COLOR = "#F0E442"
#: Outline of worlds removed by an announcement.
REMOVED_COLOR = "#D55E00"
#: Outline of ordinary worlds.
NODE_EDGE_COLOR = "#4D4D4D"
#: Cells of a "who knows what" table: the agent knows the formula is true / false.
KNOWS_TRUE_COLOR = "#009E73"
KNOWS_FALSE_COLOR = "#D55E00"
#: Outline of the cells of a belief heatmap that a seat knows (Okabe–Ito orange).
KNOWN_COLOR = "#E69F00"
#: Base font size (points) of labels; titles are one step larger.
FONT_SIZE = 9.0

LineStyle = Literal["-", "--", ":", "-."]
_LINESTYLES: tuple[LineStyle, ...] = ("-", "--", ":", "-.")


@dataclass(frozen=True, slots=True)
class AgentStyle:
    """How one agent's relation is drawn: a colour and a line style."""

    color: str
    linestyle: LineStyle


def agent_styles(agents: Sequence[str]) -> dict[str, AgentStyle]:
    """A colour and line style for each agent, in the given order.

    The same agent list always gives the same styles, so every picture of a
    notebook colours agent ``"1"`` alike.
    """
    out: dict[str, AgentStyle] = {}
    for i, a in enumerate(agents):
        cycle, k = divmod(i, len(AGENT_COLORS))
        out[str(a)] = AgentStyle(AGENT_COLORS[k], _LINESTYLES[cycle % len(_LINESTYLES)])
    return out


def agent_label(agent: str) -> str:
    """Legend text of an agent: ``"agent 1"``, ``"agent alice"``."""
    return f"agent {agent}"


_DETERMINISTIC_RC: dict[str, Any] = {
    "font.family": "DejaVu Sans",
    "font.size": FONT_SIZE,
    "text.hinting": "none",
    "svg.hashsalt": "kripke-games",
    "path.simplify": True,
    "figure.dpi": 100,
    "savefig.dpi": 100,
    "figure.facecolor": "white",
    "savefig.facecolor": "white",
}


@contextmanager
def deterministic_style() -> Iterator[None]:
    """A matplotlib style under which a picture renders the same bytes on every run.

    The bundled DejaVu Sans font without hinting and a fixed resolution: use
    it for reference images and for pictures compared across machines.
    """
    with mpl.rc_context(_DETERMINISTIC_RC):  # type: ignore[arg-type]
        yield
