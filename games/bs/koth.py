"""The BS programming tournament's player API (``bs-koth.txt``), for bots written that way.

The tournament text asks for a class extending ``Player`` with two decisions
and two notifications; :class:`KothPlayer` is that class in Python.  Subclass
it, implement :meth:`~KothPlayer.request_cards` and :meth:`~KothPlayer.call_bs`,
and the adapter turns the seat's observations into the tournament's calls.  It
plays BS variant ``koth`` (``load_game("bs", variant="koth")``, ``kripke
tournament bs --variant koth``); seated at another game or variant it raises
:class:`~games.errors.BotError` when the game starts (a tournament records a
forfeit with that reason).

==============================================================  ==========================================================
tournament text (Java)                                          here
==============================================================  ==========================================================
``List<Card> requestCards(int card, Controller controller)``    ``request_cards(required_rank, controller) -> list[int]``
``boolean bs(Player player, int card, int numberOfCards, ...)`` ``call_bs(player, rank, count, controller) -> bool``
``void update(Controller controller)``                          ``update(controller)``
``void initialize(Controller controller)``                      ``initialize(controller)``
``Card[] getHand()``, ``Card.getNumber()``                      ``get_hand() -> list[int]``: a card *is* its number 0–12
``int handSize()``                                              ``hand_size()`` (also of every ``player``)
``controller.getDiscardPileSize()``                             ``controller.get_discard_pile_size()``
``controller.getPlayers()`` (in turn order)                     ``controller.get_players()`` (:class:`KothSeat` views)
``controller.rnd``                                              ``self.rng`` (seeded: a seed replays the game)
``toString()``                                                  ``str(player)`` (``"P2"``); a bot's label is its spec
==============================================================  ==========================================================

When the adapter calls:

* :meth:`~KothPlayer.initialize` once, when the cards are dealt;
* :meth:`~KothPlayer.request_cards` at the seat's turn, with the rank to
  claim; return cards of the hand (at least one; the same number twice means
  two cards of that number).  The count is public, the numbers are not;
* :meth:`~KothPlayer.call_bs` whenever another player has played: the
  player (a :class:`KothSeat`), the rank claimed and the count;
* :meth:`~KothPlayer.update` once at the end of every round (every player
  playing once), and once more if the game ends within a round.

The controller shows public information only: the pile (during ``call_bs``
it includes the cards just played, as in the tournament), and every player's
hand size in turn order.  The hand is kept in the order the cards arrived:
the dealt cards in rank order, then each pile picked up.  What the seat knows
beyond that stays available: ``self.view`` is its
:class:`~games.bs.knowledge.SeatKnowledge` (counts, the last claim), and
``self.view.history`` every observation.  A bot that returns cards it does not
hold raises :class:`~games.errors.BotError` (a forfeit in a tournament).

Examples
--------
The tournament text's sample player:

>>> from games.base import load_game, make_bot, play_game
>>> class Player1(KothPlayer):
...     def request_cards(self, required_rank, controller):
...         hand = self.get_hand()
...         cards = [c for c in hand if c == required_rank]
...         return cards or [hand[0]]
...     def call_bs(self, player, rank, count, controller):
...         return count >= 3
>>> bots = [Player1(seed=0)] + [make_bot("bs", n, seed=1) for n in ("liar", "truthful", "random")]
>>> result = play_game(load_game("bs", variant="koth"), bots, seed=4)
>>> result.forfeit is None and sum(result.returns) == 1.0
True
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

from games.base import Bot, Game, Observation
from games.bs.knowledge import SeatKnowledge
from games.bs.rules import CALL, PASS
from games.bs.state import BSGame
from games.errors import BotError

__all__ = ["KothPlayer", "KothController", "KothSeat"]


class KothSeat:
    """A player at the table as the tournament's ``Player`` shows it: seat and hand size.

    Two views of the same seat are equal; ``str`` is ``"P<seat>"``.
    """

    __slots__ = ("seat", "_view")

    def __init__(self, seat: int, view: SeatKnowledge):
        self.seat = seat
        self._view = view

    def hand_size(self) -> int:
        """How many cards this player holds now (public)."""
        return int(self._view.sizes[self.seat])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, KothSeat):
            return NotImplemented
        return self.seat == other.seat

    def __hash__(self) -> int:
        return hash(("KothSeat", self.seat))

    def __str__(self) -> str:
        return f"P{self.seat}"

    def __repr__(self) -> str:
        return f"<KothSeat P{self.seat}: {self.hand_size()} cards>"


class KothController:
    """The tournament's ``Controller``: the public state of the table, read-only."""

    __slots__ = ("_view", "_seats")

    def __init__(self, view: SeatKnowledge):
        self._view = view
        self._seats = {s: KothSeat(s, view) for s in range(view.n)}

    def get_discard_pile_size(self) -> int:
        """Cards in the discard pile (during ``call_bs``, the cards just played included)."""
        v = self._view
        return int(v.pile + (v.last[2] if v.last is not None else 0))

    def get_players(self) -> list[KothSeat]:
        """Every player (this bot's seat included), in turn order."""
        return [self._seats[s] for s in self._view.order]

    def seat(self, seat: int) -> KothSeat:
        """The view of ``seat``."""
        return self._seats[seat]


class KothPlayer(Bot):
    """Base class of a bot written against the tournament text's player API (see the module).

    Implement :meth:`request_cards` and :meth:`call_bs`; :meth:`update` and
    :meth:`initialize` are optional.  A subclass with its own ``__init__``
    accepts ``seed`` and calls ``super().__init__(seed)``.
    """

    name = "koth-player"
    games = ("bs",)

    def __init__(self, seed: int | None = None):
        super().__init__(seed)
        self._hand: list[int] = []
        self._settled = 0
        self._await_penalty = False

    # --------------------------------------------------------- player API
    @abstractmethod
    def request_cards(self, required_rank: int, controller: KothController) -> list[int]:
        """The cards to put down when ``required_rank`` must be claimed (at least one)."""

    @abstractmethod
    def call_bs(self, player: KothSeat, rank: int, count: int, controller: KothController) -> bool:
        """Whether to call BS on ``player``, who claims ``count`` cards of ``rank``."""

    def update(self, controller: KothController) -> None:  # noqa: B027 (optional hook)
        """Called once at the end of every round (default: nothing)."""

    def initialize(self, controller: KothController) -> None:  # noqa: B027 (optional hook)
        """Called once when the cards are dealt (default: nothing)."""

    def get_hand(self) -> list[int]:
        """This seat's cards (numbers 0–12), in the order they arrived; a copy."""
        return list(self._hand)

    def hand_size(self) -> int:
        """How many cards this seat holds."""
        return len(self._hand)

    # ------------------------------------------------------ Bot plumbing
    def restart(self, game: Game, seat: int) -> None:
        super().restart(game, seat)
        if not isinstance(game, BSGame) or not game.koth:
            raise BotError(
                f"{type(self).__name__} follows the BS tournament's player API and plays BS "
                f"variant koth, not {game!r}; run it with --variant koth"
            )
        self.g: BSGame = game
        self.view = SeatKnowledge(game, seat)
        self.controller = KothController(self.view)
        self._hand = []
        self._settled = 0
        self._await_penalty = False

    def inform(self, observation: Observation) -> None:
        self.view.observe(observation)
        kind = observation.kind
        me = self.seat
        if kind == "hand" and observation.actor == me:
            self._hand = [self._number(c) for c in observation["cards"]]
            self.initialize(self.controller)
        elif kind == "play" and observation.actor == me:
            self._remove(observation["cards"])
        elif kind == "nocall":
            self._play_settled()
        elif kind == "call":
            if observation["taker"] == me:
                self._hand.extend(self._number(c) for c in observation["pile"])
            if observation["lie"]:
                self._await_penalty = True  # the caller's penalty card settles the play
            else:
                self._play_settled()
        elif kind == "penalty":
            if observation.actor == me:
                self._remove((observation["card"],))
            self._play_settled()
        elif kind == "end" and self._settled % self.view.n:
            self.update(self.controller)  # the last, unfinished round

    def step(self, legal_actions: Sequence[int]) -> int:
        v = self.view
        if len(legal_actions) == 2 and legal_actions[0] == PASS and legal_actions[1] == CALL:
            if v.last is None:
                raise BotError(f"P{self.seat}: a call decision without a play to call")
            player, rank, count = v.last
            call = self.call_bs(self.controller.seat(player), rank, count, self.controller)
            return CALL if call else PASS
        rank = v.required
        cards = self.request_cards(rank, self.controller)
        return self.g.encode(self._counts(cards, rank))

    # ---------------------------------------------------------- helpers
    def _number(self, card: str) -> int:
        return int(self.g.rank_of[self.g.deck.index(card)])

    def _remove(self, cards: Sequence[str]) -> None:
        for c in cards:
            self._hand.remove(self._number(c))

    def _play_settled(self) -> None:
        self._await_penalty = False
        self._settled += 1
        if self._settled % self.view.n == 0:
            self.update(self.controller)

    def _counts(self, cards: Any, rank: int) -> list[int]:
        """The count vector of ``cards`` returned by ``request_cards``, checked against the hand."""
        who = f"{type(self).__name__} (P{self.seat}) request_cards({rank})"
        try:
            chosen = list(cards)
        except TypeError:
            raise BotError(f"{who} returned {cards!r}, not a list of cards") from None
        if not chosen:
            raise BotError(f"{who} returned no card; a play is at least one card")
        counts = [0] * self.g.num_kinds
        for c in chosen:
            if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < 13:
                raise BotError(f"{who} returned {c!r}; a card is a number 0-12")
            counts[c] += 1
        for number, n in enumerate(counts):
            held = self._hand.count(number)
            if n > held:
                raise BotError(
                    f"{who} returned {n} x {number} but the hand holds {held}: {sorted(self._hand)}"
                )
        return counts
