"""Bots for BoerenBridge: random, greedy, knowledge and sampling.

Every bot sees only its seat's observations (kept in a
:class:`~games.boerenbridge.SeatView`) and the legal actions.

=============  ===========================================================================
name           policy
=============  ===========================================================================
``random``     a uniformly random legal guess and card
``greedy``     guesses its aces and high trumps; plays its strongest card while it still
               wants tricks, its weakest once it has enough
``knowledge``  guesses the expected number of tricks computed from its exact card
               marginals; plays to hit its guess exactly, winning with cards it *knows*
               win and ducking with cards it *knows* lose (:class:`KnowledgeBot`)
``sampling``   determinized Monte Carlo: draws deals consistent with what it knows from the
               exact sampler, solves each exactly with the double-dummy search and picks the
               guess and card with the best expected round score (:class:`SamplingBot`)
=============  ===========================================================================

Examples
--------
>>> from games.base import load_game, make_bot, play_game
>>> game = load_game("boerenbridge", variant="lamas")
>>> bots = [make_bot("boerenbridge", name, seed=i) for i, name in
...         enumerate(["greedy", "random", "greedy", "random"])]
>>> result = play_game(game, bots, seed=1)
>>> len(result.returns)
4
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.base import Bot, Game, Observation, register_bot
from games.boerenbridge import GUESS_BASE, SeatView

__all__ = ["ViewBot", "RandomBot", "GreedyBot", "card_strength"]


def card_strength(card: int, trump: int | None) -> int:
    """Strength of a card for play heuristics: trumps above all others, then by rank."""
    return (card & 7) + (8 if trump is not None and card >> 3 == trump else 0)


class ViewBot(Bot):
    """A bot that keeps a :class:`~games.boerenbridge.SeatView` of its seat."""

    name = "view"

    def __init__(self, seed: int | None = None):
        super().__init__(seed)
        self.view: SeatView | None = None

    def restart(self, game: Game, seat: int) -> None:
        super().restart(game, seat)
        self.view = SeatView(game.params, seat)

    def inform(self, observation: Observation) -> None:
        assert self.view is not None
        self.view.observe(observation)

    def step(self, legal_actions: Sequence[int]) -> int:
        if legal_actions[0] >= GUESS_BASE:
            return GUESS_BASE + self.guess([a - GUESS_BASE for a in legal_actions])
        return self.play(list(legal_actions))

    def guess(self, legal: list[int]) -> int:
        """Choose a guess among ``legal`` (numbers of tricks)."""
        return legal[self.rng.randrange(len(legal))]

    def play(self, legal: list[int]) -> int:
        """Choose a card among ``legal`` (card ids)."""
        return legal[self.rng.randrange(len(legal))]


class RandomBot(ViewBot):
    """Uniformly random legal guesses and cards."""

    name = "random"


def nearest_legal(target: int, legal: Sequence[int]) -> int:
    """The legal guess nearest to ``target`` (the higher one on a tie)."""
    return min(legal, key=lambda g: (abs(g - target), -g))


class GreedyBot(ViewBot):
    """High cards to win, low cards to lose.

    Guess: the number of aces and trumps of queen or higher in hand (the
    nearest legal number if the dealer may not say it).  Play: while it has
    fewer tricks than it guessed, its strongest legal card (trumps first,
    then rank); afterwards its weakest.
    """

    name = "greedy"

    def guess(self, legal: list[int]) -> int:
        v = self.view
        assert v is not None
        high = 0
        for c in range(32):
            if v.hand >> c & 1:
                r = c & 7
                if r == 7 or (v.trump is not None and c >> 3 == v.trump and r >= 5):
                    high += 1
        return nearest_legal(high, legal)

    def play(self, legal: list[int]) -> int:
        v = self.view
        assert v is not None
        t = v.trump
        if v.need > 0:
            return max(legal, key=lambda c: (card_strength(c, t), c))
        return min(legal, key=lambda c: (card_strength(c, t), c))


def _register(name: str, factory: Any) -> None:
    register_bot("boerenbridge", name, factory)


_register("random", RandomBot)
_register("greedy", GreedyBot)
