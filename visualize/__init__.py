"""visualize: matplotlib pictures of Kripke models and card-game knowledge.

Model pictures (:mod:`visualize.models`): :func:`draw_model`,
:func:`draw_model_summary`, :func:`draw_announcements`,
:func:`draw_action_model`, :func:`draw_product_update`, and the PNG bytes
behind the notebook display of models (:func:`model_png`).

Knowledge pictures (:mod:`visualize.knowledge`): :func:`draw_belief`
(cards × locations heatmap), :func:`draw_knowledge_timeline` (deals each seat
considers possible, step by step), :func:`who_knows` and
:func:`draw_who_knows` (each agent's knowledge of chosen formulas).

Card deals (:mod:`visualize.cards`): :func:`draw_deal_model` draws a small
deal's Kripke model with worlds labelled by the cards at each location;
:func:`belief_from_model` and :func:`count_history` read a seat's belief and
the number of deals it considers possible off such models; :func:`belief_of`
reads it off the exact knowledge of :mod:`games.deal`, and
:func:`replay_knowledge` replays a game to count, step by step, the deals
each seat considers possible.

Game states display in notebooks as a table of what one seat sees
(:func:`show_seat`, :func:`seat_view_html`, built on ``State.seat_view``).

Single pictures take an optional matplotlib ``ax`` and return the Axes they
drew on, so they compose into a user's own figures; multi-panel pictures
(:func:`draw_announcements`, :func:`draw_product_update`) return their list of
Axes.
"""

from __future__ import annotations

from visualize.cards import (
    Belief,
    Timeline,
    belief_from_model,
    belief_of,
    count_history,
    deal_world_labels,
    draw_deal_model,
    replay_knowledge,
)
from visualize.errors import VisualizeError
from visualize.knowledge import (
    KnowledgeTable,
    Refused,
    draw_belief,
    draw_knowledge_timeline,
    draw_who_knows,
    format_probability,
    who_knows,
)
from visualize.layout import LAYOUTS, model_layout
from visualize.models import (
    MAX_WORLDS,
    action_model_png,
    draw_action_model,
    draw_announcements,
    draw_model,
    draw_model_summary,
    draw_product_update,
    model_png,
    world_labels,
)
from visualize.style import agent_styles, deterministic_style
from visualize.tables import seat_view_html, show_seat

__all__ = [
    "Belief",
    "belief_from_model",
    "belief_of",
    "count_history",
    "deal_world_labels",
    "draw_deal_model",
    "Timeline",
    "replay_knowledge",
    "VisualizeError",
    "KnowledgeTable",
    "Refused",
    "draw_belief",
    "draw_knowledge_timeline",
    "draw_who_knows",
    "format_probability",
    "who_knows",
    "LAYOUTS",
    "model_layout",
    "MAX_WORLDS",
    "action_model_png",
    "draw_action_model",
    "draw_announcements",
    "draw_model",
    "draw_model_summary",
    "draw_product_update",
    "model_png",
    "world_labels",
    "agent_styles",
    "deterministic_style",
    "seat_view_html",
    "show_seat",
    "register_display",
]


def register_display() -> None:
    """Register this package's pictures with :mod:`kripke.display` (notebook ``_repr_png_``).

    Called on import and through the ``kripke.display`` entry point, so
    models draw themselves in a notebook without :mod:`kripke` importing
    this package.
    """
    from kripke.display import register_renderer

    register_renderer("model", model_png)
    register_renderer("action_model", action_model_png)


register_display()
