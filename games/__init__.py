"""games: card games as epistemic models, with knowledge-driven bots.

Load a game with :func:`games.base.load_game`, e.g. ``load_game("bs", variant="koth")``.
"""

from __future__ import annotations

from games.base import (
    CHANCE,
    TERMINAL,
    Bot,
    Game,
    Observation,
    State,
    load_game,
    make_bot,
    play_game,
    register_bot,
    register_game,
    registered_bots,
    registered_games,
)
from games.errors import (
    BotError,
    CardParseError,
    GameError,
    IllegalActionError,
    InconsistentKnowledgeError,
    InvalidParameterError,
    UnknownGameError,
)

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Bot",
    "Game",
    "Observation",
    "State",
    "load_game",
    "make_bot",
    "play_game",
    "register_bot",
    "register_game",
    "registered_bots",
    "registered_games",
    "BotError",
    "CardParseError",
    "GameError",
    "IllegalActionError",
    "InconsistentKnowledgeError",
    "InvalidParameterError",
    "UnknownGameError",
]
