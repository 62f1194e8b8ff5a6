"""Game states as epistemic models: card histories, knowledge structures, Kripke models."""

from __future__ import annotations

from games.epistemic.estimate import Estimate, estimated_probability
from games.epistemic.explicit import explicit_model
from games.epistemic.history import (
    CardHistory,
    Count,
    Event,
    Fact,
    Move,
    MoveAll,
    Reveal,
    Show,
    card_key,
    has_atom,
)
from games.epistemic.kinds import kind_holds, kind_quotient
from games.epistemic.knowledge import GameKnowledge, Step
from games.epistemic.quotient import QuotientModel, quotient_holds, quotient_model
from games.epistemic.reading import read_formula, seat_agent, seat_aliases
from games.epistemic.symbolic import HistoryStructure, history_steps, history_structure
from games.epistemic.updates import Update, apply_updates, event_update, explicit_steps

__all__ = [
    "CardHistory",
    "Move",
    "MoveAll",
    "Reveal",
    "Show",
    "Count",
    "Fact",
    "Event",
    "card_key",
    "has_atom",
    "GameKnowledge",
    "Step",
    "Estimate",
    "estimated_probability",
    "seat_aliases",
    "seat_agent",
    "read_formula",
    "QuotientModel",
    "quotient_model",
    "quotient_holds",
    "kind_quotient",
    "kind_holds",
    "HistoryStructure",
    "history_structure",
    "history_steps",
    "explicit_model",
    "Update",
    "event_update",
    "apply_updates",
    "explicit_steps",
]
