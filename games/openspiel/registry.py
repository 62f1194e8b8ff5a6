"""The ``ismcts`` bot name, registered only where OpenSpiel is installed.

Game packages call :func:`register_ismcts` when they register their bots.  It
checks that ``pyspiel`` *could* be imported without importing it, so loading a
game never loads OpenSpiel; the bot's module is imported when a bot is made.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from games.base import Bot, register_bot

__all__ = ["register_ismcts", "make_ismcts"]


def make_ismcts(seed: int | None = None) -> Bot:
    """ismcts: OpenSpiel's IS-MCTS (100 simulations, random playouts), its worlds drawn by
    the exact deal sampler from the seat's own observations (needs open-spiel)."""
    from games.openspiel.ismcts import ISMCTSBot

    return ISMCTSBot(seed=seed)


def register_ismcts(game: str) -> bool:
    """Register ``ismcts`` for ``game`` if ``pyspiel`` is installed; whether it was."""
    try:
        found: Any = importlib.util.find_spec("pyspiel")
    except (ImportError, ValueError):
        found = None
    if found is None:
        return False
    register_bot(game, "ismcts", make_ismcts)
    return True
