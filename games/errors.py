"""Exception hierarchy of the :mod:`games` package."""

from __future__ import annotations

__all__ = [
    "GameError",
    "IllegalActionError",
    "CardParseError",
    "UnknownGameError",
    "InvalidParameterError",
    "BotError",
    "BotLoadError",
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


class BotLoadError(BotError, ValueError):
    """A bot of the user's own could not be loaded from its spec.

    The spec is ``path/to/my_bot.py:MyBot``, ``package.module:MyBot`` or the
    name of an installed entry point (:mod:`games.botspec`).  The message
    names the file or module, the class and what is missing: the file, a
    line with a syntax error, the class (listing the classes found), the
    :class:`~games.base.Bot` base class, a constructor taking ``seed``, or
    the installed package of an entry point.  ``spec`` is the spec as given.
    """

    def __init__(self, message: str, spec: str = ""):
        super().__init__(message)
        self.spec = spec


class InconsistentKnowledgeError(GameError, ValueError):
    """A deal-knowledge update leaves no consistent deal (the facts contradict)."""
