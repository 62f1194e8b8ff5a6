"""Exception hierarchy of the :mod:`games` package."""

from __future__ import annotations

__all__ = [
    "GameError",
    "IllegalActionError",
    "CardParseError",
    "UnknownGameError",
    "InvalidParameterError",
    "BotError",
    "InconsistentKnowledgeError",
]


class GameError(Exception):
    """Base class of every error raised by :mod:`games`."""


class IllegalActionError(GameError, ValueError):
    """An action is not legal in the current state; the state is unchanged.

    The message names the seat, the action (cards, guess, call…) and why it
    is illegal.
    """


class CardParseError(GameError, ValueError):
    """A card text could not be read; the message names the bad token."""


class UnknownGameError(GameError, KeyError):
    """``load_game`` was asked for a game, variant or bot that is not registered."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class InvalidParameterError(GameError, ValueError):
    """A game parameter is out of range or of the wrong kind."""


class BotError(GameError, RuntimeError):
    """A bot raised or returned an illegal action."""


class InconsistentKnowledgeError(GameError, ValueError):
    """A deal-knowledge update leaves no consistent deal (the facts contradict)."""
