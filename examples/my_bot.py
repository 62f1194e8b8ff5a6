"""A BS bot of one's own, written against :class:`games.base.Bot`.

It plays every card of the rank it must claim, or else its first card, and
calls BS whenever a player claims three cards or more.  It follows its hand
from its seat's observations only (see the ``Bot`` docstring for what a seat
receives).  Play it in a tournament::

    kripke tournament bs --variant koth --games 200 \\
        --bots examples/my_bot.py:MyBot,probabilistic,threshold,liar

It plays both variants (``classic`` starts with one card face up).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import Bot, Game, Observation
from games.bs import CALL, PASS


class MyBot(Bot):
    """Truthful when it can, else its first card; calls BS on a claim of 3 or more."""

    games = ("bs",)

    def restart(self, game: Game, seat: int) -> None:
        super().restart(game, seat)
        self.hand: list[str] = []  # card texts, e.g. "7H" (classic) or "7" (koth)
        self.required = 0  # index of the rank the next play must claim
        self.claimed = 0  # the count of the play waiting for calls

    def inform(self, observation: Observation) -> None:
        o, me = observation, self.seat
        if o.kind == "hand" and o.actor == me:  # the deal: only this seat sees its cards
            self.hand = list(o["cards"])
        elif o.kind == "first":  # classic: the first card, face up; the next claim follows it
            if o.actor == me:
                self.hand.remove(o["card"])
            self.required = (self.rank(o["card"]) + 1) % 13
        elif o.kind == "play":  # others' plays show the count, this seat's own its cards
            self.claimed = o["count"]
            if o.actor == me:
                for card in o["cards"]:
                    self.hand.remove(card)
        elif o.kind in ("nocall", "call"):  # the play is settled; the next rank is claimed
            if o.kind == "call" and o["taker"] == me:
                self.hand.extend(o["pile"])  # only the taker sees the pile it picks up
            self.required = (self.required + 1) % 13
        elif o.kind == "penalty" and o.actor == me:  # koth: the right caller's card
            self.hand.remove(o["card"])

    def rank(self, card: str) -> int:
        """The rank index of a card text."""
        return self.game.rank_of[self.game.deck.index(card)]  # type: ignore[union-attr]

    def step(self, legal_actions: Sequence[int]) -> int:
        if legal_actions[0] == PASS:  # [PASS, CALL]: another player's play; call BS?
            return CALL if self.claimed >= 3 else PASS
        cards = [c for c in self.hand if self.rank(c) == self.required] or self.hand[:1]
        action = self.game.play_action(cards)  # type: ignore[union-attr]
        # classic's first play is a single card face up: any one card is fine
        return action if action in legal_actions else legal_actions[0]
