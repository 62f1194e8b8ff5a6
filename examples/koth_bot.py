"""A BS bot written the way the programming tournament's text describes (``bs-koth.txt``).

The same idea as ``examples/my_bot.py`` — every card of the required rank,
else the first card of the hand; call BS on a claim of three or more — through
:class:`games.bs.koth.KothPlayer`, the tournament's ``Player`` API in Python.
It plays BS variant ``koth``::

    kripke tournament bs --variant koth --games 200 \\
        --bots examples/koth_bot.py:Player1,probabilistic,threshold,liar
"""

from __future__ import annotations

from games.bs.koth import KothController, KothPlayer, KothSeat


class Player1(KothPlayer):
    """Truthful when it can, else its first card; calls BS on a claim of 3 or more."""

    def initialize(self, controller: KothController) -> None:
        self.rounds = 0  # called once, when the cards are dealt

    def request_cards(self, required_rank: int, controller: KothController) -> list[int]:
        hand = self.get_hand()
        cards = [card for card in hand if card == required_rank]
        return cards or [hand[0]]

    def call_bs(self, player: KothSeat, rank: int, count: int, controller: KothController) -> bool:
        return count >= 3

    def update(self, controller: KothController) -> None:
        self.rounds += 1  # called at the end of every round
