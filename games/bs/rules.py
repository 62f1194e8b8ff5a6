"""The rules of BS that need no game state: variants, call actions and parameters.

See :mod:`games.bs` for the rules text and the two variants.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

__all__ = ["VARIANTS", "PASS", "CALL", "BSParams"]

#: Rule variants of the one engine.
VARIANTS = ("classic", "koth")
#: Action at a call decision: do not call.
PASS = 0
#: Action at a call decision: call BS.
CALL = 1
_PLAY0 = 2

_KOTH_ORDERS = tuple(itertools.permutations(range(4)))


@dataclass(frozen=True)
class BSParams:
    """Parameters of BS.

    Parameters
    ----------
    variant : {"classic", "koth"}
    players : int
        Seats; ``koth`` needs exactly 4, ``classic`` 2 to 52.
    max_rounds : int
        Rounds (every player playing once) before the game ends with no winner.
    """

    variant: str = "classic"
    players: int = 4
    max_rounds: int = 1000
