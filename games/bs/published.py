"""The two leading entries of the BS programming tournament, rewritten as bots of this library.

``bs-koth.txt`` ends with a scoreboard on which two entries lead by far:
``PlayerConMan`` (59.8% of its games won) and ``CalculatingLiar`` (57.0%),
against 36.8% for the next one.  Their strategies are public; the bots here
follow those strategies through the tournament's player API
(:class:`~games.bs.koth.KothPlayer`), written anew for this library, so that
the library's own bots can be measured against the best bots written for that
tournament (``benchmarks/bs_koth_field.py``).  They play BS variant ``koth``.

=====================  =========================================================================
name                   strategy
=====================  =========================================================================
``calculating-liar``   :class:`CalculatingLiarPlayer`.  Plays every card of the asked number;
                       with none, one card of the number it will be asked for last.  Calls when
                       the claimant goes out, when the claim and the copies it can account for
                       (its hand and its own cards in the pile) exceed four, and with its own
                       last card when the claimant holds fewer than five.
``con-man``            :class:`ConManPlayer`.  Tracks every card it can place, with a
                       confidence: its own plays, the piles it sees picked up, and each claim
                       taken as true with the probability it computed for it.  Plays like the
                       other, one lie card at most.  Calls impossible claims and claims that
                       empty the claimant's hand; otherwise calls when the claim's
                       hypergeometric probability is below a threshold that rises with what
                       picking up the (believed) pile would save it, or when the pile holds
                       only cards it wants.
=====================  =========================================================================

Both assume four seats, as the tournament does: a seat is asked for every
fourth number (``r, r + 4, r + 8, …`` modulo 13).

Examples
--------
>>> from games.base import load_game, make_bot, play_game
>>> bots = [make_bot("bs", n, seed=i) for i, n in enumerate(
...     ["con-man", "calculating-liar", "truthful", "threshold"])]
>>> result = play_game(load_game("bs", variant="koth"), bots, seed=5)
>>> result.forfeit is None and sum(result.returns)
1.0
"""

from __future__ import annotations

from math import comb

from games.base import Game, Observation, register_bot
from games.bs.koth import KothController, KothPlayer, KothSeat

__all__ = ["CalculatingLiarPlayer", "ConManPlayer", "turn_order_of_numbers", "last_needed"]

RANKS = 13
COPIES = 4
SEATS = 4


def turn_order_of_numbers(start: int) -> list[int]:
    """The numbers a seat is asked for from ``start`` on, one turn each (four seats).

    Examples
    --------
    >>> turn_order_of_numbers(11)
    [11, 2, 6, 10, 1, 5, 9, 0, 4, 8, 12, 3, 7]
    """
    return [(start + SEATS * i) % RANKS for i in range(RANKS)]


def last_needed(hand: list[int], start: int) -> int:
    """The number in ``hand`` that the seat will be asked for last, counting from ``start``.

    Examples
    --------
    >>> last_needed([0, 3, 5], 0)  # asked 0, 4, 8, 12, 3, 7, 11, 2, 6, 10, 1, 5, 9
    5
    """
    held = set(hand)
    return next(n for n in reversed(turn_order_of_numbers(start)) if n in held)


def plays_to_go_out(hand: list[int], start: int) -> tuple[list[int], list[int]]:
    """The seat's turns from ``start`` until every number in ``hand`` has been asked for.

    Returns the numbers asked that the hand holds (truths) and those it does
    not (lies), each in turn order.

    Examples
    --------
    >>> plays_to_go_out([4, 4, 12], 0)  # asked 0, 4, 8, 12
    ([4, 12], [0, 8])
    """
    left = set(hand)
    truths: list[int] = []
    lies: list[int] = []
    for n in turn_order_of_numbers(start):
        if not left:
            break
        if n in left:
            truths.append(n)
            left.discard(n)
        else:
            lies.append(n)
    return truths, lies


class CalculatingLiarPlayer(KothPlayer):
    """The ``CalculatingLiar`` strategy (see the module): honest counting, minimal lies.

    It remembers the numbers of the cards it put on the pile since the pile was
    last picked up (a pile that shrank has been picked up).

    Examples
    --------
    >>> p = CalculatingLiarPlayer(seed=0)
    >>> p._hand = [5, 5, 9]
    >>> p.request_cards(5, None), p.request_cards(2, None)  # all 5s; else the 9 (asked last)
    ([5, 5], [9])
    """

    name = "calculating-liar"

    def __init__(self, seed: int | None = None):
        super().__init__(seed)
        self._mine_in_pile: list[int] = []
        self._pile_seen = 0

    def initialize(self, controller: KothController) -> None:
        self._mine_in_pile = []
        self._pile_seen = 0

    def _watch_pile(self, controller: KothController) -> None:
        size = controller.get_discard_pile_size()
        if size < self._pile_seen:
            self._mine_in_pile = []
        self._pile_seen = size

    def update(self, controller: KothController) -> None:
        self._watch_pile(controller)

    def request_cards(self, required_rank: int, controller: KothController | None) -> list[int]:
        hand = self.get_hand()
        cards = [c for c in hand if c == required_rank] or [last_needed(hand, required_rank)]
        if controller is not None:
            self._watch_pile(controller)
            self._pile_seen = controller.get_discard_pile_size() + len(cards)
        self._mine_in_pile.extend(cards)
        return cards

    def call_bs(self, player: KothSeat, rank: int, count: int, controller: KothController) -> bool:
        self._watch_pile(controller)
        accounted = self.get_hand().count(rank) + self._mine_in_pile.count(rank)
        return (
            player.hand_size() == 0
            or count > COPIES
            or accounted + count > COPIES
            or (player.hand_size() < 5 and self.hand_size() == 1)
        )


class ConManPlayer(KothPlayer):
    """The ``PlayerConMan`` strategy (see the module): card tracking with confidences.

    Examples
    --------
    >>> from games.base import load_game, make_bot, play_game
    >>> game = load_game("bs", variant="koth")
    >>> bots = [ConManPlayer(seed=1)] + [make_bot("bs", "liar", seed=s) for s in (2, 3, 4)]
    >>> play_game(game, bots, seed=8).forfeit is None
    True
    """

    name = "con-man"

    def __init__(self, seed: int | None = None):
        super().__init__(seed)
        self._reset()

    def _reset(self) -> None:
        #: per other seat: the cards believed in its hand, as [number, confidence]
        self._held: dict[int, list[list[float]]] = {}
        #: the cards believed in the pile, as [number, confidence]
        self._pile: list[list[float]] = []
        #: the entries the last play added to the pile (replaced when it is revealed)
        self._last_play: list[list[float]] = []
        #: the probability of the last claim, computed as it was announced
        self._last_prob = 1.0

    def restart(self, game: Game, seat: int) -> None:
        super().restart(game, seat)
        self._reset()
        self._held = {s: [] for s in range(self.view.n) if s != seat}

    # ------------------------------------------------------------ tracking
    def inform(self, observation: Observation) -> None:
        sizes_before = list(self.view.sizes)
        super().inform(observation)
        kind = observation.kind
        actor = observation.actor
        if kind == "play" and actor is not None:
            if actor == self.seat:
                self._last_play = [[float(self._number(c)), 1.0] for c in observation["cards"]]
            else:
                assert self.view.last is not None
                _, rank, count = self.view.last  # the claimed rank as a number
                self._last_prob = self.claim_probability(actor, rank, count)
                self._last_play = self._believed_play(actor, rank, count, self._last_prob)
            self._pile.extend(self._last_play)
        elif kind == "call":
            revealed = [[float(self._number(c)), 1.0] for c in observation["cards"]]
            kept = [e for e in self._pile if not any(e is x for x in self._last_play)]
            taker = observation["taker"]
            if taker != self.seat:  # the whole pile, the revealed play exactly
                self._held[taker].extend(kept + revealed)
            self._pile = []
            self._last_play = []
        elif kind == "penalty" and actor is not None:
            if actor == self.seat:
                self._pile = [[float(self._number(observation["card"])), 1.0]]
            else:  # an unknown card of the caller's goes to the pile
                before = max(1, sizes_before[actor])
                for e in self._held[actor]:
                    e[1] *= 1 - 1 / before

    def _believed_play(self, p: int, rank: int, count: int, prob: float) -> list[list[float]]:
        """Move what seat ``p`` is believed to have put down from its hand to the pile.

        The copies of ``rank`` believed in its hand go first, then cards taken
        as ``rank`` with confidence ``prob``; its other cards lose confidence by
        the chance that they were the lie.
        """
        held = self._held[p]
        hand_before = self.view.sizes[p] + count
        own = sorted((e for e in held if e[0] == rank), key=lambda e: -e[1])[:count]
        for e in own:
            held.remove(e)
        rest = count - len(own)
        if rest and hand_before > len(own):
            chosen = rest / (hand_before - len(own))  # the chance a given card was put down
            for e in held:
                e[1] *= (1 - chosen) * (1 - prob) + prob
        return own + [[float(rank), prob] for _ in range(rest)]

    # ----------------------------------------------------------- decisions
    def request_cards(self, required_rank: int, controller: KothController) -> list[int]:
        hand = self.get_hand()
        return [c for c in hand if c == required_rank] or [last_needed(hand, required_rank)]

    def claim_probability(self, p: int, rank: int, count: int) -> float:
        """The chance that seat ``p`` holds the ``count`` cards of ``rank`` it claims.

        Asked as the play is announced (its cards not yet in the believed pile):
        from the copies believed in ``p``'s hand and elsewhere (this hand, the
        pile, the other seats), with the rest of ``p``'s hand drawn at random
        from the cards nobody can place (hypergeometric).  0 for an impossible
        claim.
        """
        hand_before = self.view.sizes[p] + count
        believed = self._held[p]
        here = sum(e[1] for e in believed if e[0] == rank)
        others = [e for s, es in self._held.items() if s != p for e in es] + self._pile
        elsewhere = self.get_hand().count(rank) + sum(e[1] for e in others if e[0] == rank)
        possible = round(COPIES - elsewhere - here)
        needed = round(count - here)
        if needed > possible:
            return 0.0
        if needed <= 0:
            return 1.0
        placed = self.hand_size() + sum(e[1] for e in believed) + sum(e[1] for e in others)
        unknown = round(RANKS * COPIES - placed)
        draws = round(hand_before - sum(e[1] for e in believed))
        if not 0 <= draws <= unknown or possible > unknown:
            return 0.0
        hits = sum(
            comb(possible, i) * comb(unknown - possible, draws - i)
            for i in range(needed, min(possible, draws) + 1)
        )
        return hits / comb(unknown, draws)

    def call_bs(self, player: KothSeat, rank: int, count: int, controller: KothController) -> bool:
        p = player.seat
        prob = self._last_prob
        if prob == 0.0 or player.hand_size() == 0:
            return True  # an impossible claim, or one that ends the game if let through
        hand = self.get_hand()
        start = (rank + self._turns_after(p)) % RANKS  # the number this seat is asked next
        truths, lies = plays_to_go_out(hand, start)
        pile_numbers = [int(e[0]) for e in self._pile]
        unseen = controller.get_discard_pile_size() - len(self._pile)
        confidence = 0.5**unseen
        for e in self._pile:
            confidence *= e[1]
        if confidence > 0.5 and unseen == 0 and lies:
            wanted = set(truths) | set(lies)
            doubt = sum(1 - e[1] for e in self._pile)
            if (
                any(n in lies for n in pile_numbers)
                and all(n in wanted for n in pile_numbers)
                and doubt < 1
            ):
                return True  # the pile surely holds only numbers it wants: take it
        if_taken = plays_to_go_out(hand + pile_numbers, start)
        lose = len(if_taken[0]) + len(if_taken[1])
        expected = lose * confidence + max(lose, 7) * (1 - confidence)
        threshold = -(expected - (len(truths) + len(lies))) / RANKS
        if not lies:
            threshold /= 2
        return prob < threshold

    def _turns_after(self, p: int) -> int:
        """How many turns after seat ``p``'s this seat plays (1 to 3 at four seats)."""
        order = self.view.order
        return (order.index(self.seat) - order.index(p)) % len(order)


for _cls in (CalculatingLiarPlayer, ConManPlayer):
    register_bot("bs", _cls.name, _cls)
