"""What a BoerenBridge seat knows: exact deal knowledge, guesses as evidence, and a round as an epistemic model."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.base import Observation
from games.boerenbridge.rules import (
    _CARD_TEXT,
    _PHASE_DEAL,
    _PHASE_OVER,
    NUM_CARDS,
    RANKS,
    SEAT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    BoerenBridgeParams,
    _suit_mask,
    card_pretty,
    card_str,
    cards_of,
    parse_card,
    parse_seat,
)
from games.boerenbridge.state import BoerenBridgeState
from games.errors import InvalidParameterError

__all__ = [
    "boerenbridge_deck",
    "round_deck",
    "SeatView",
    "UNDEALT",
    "TURNED",
    "PLAYED",
    "OUT",
    "seat_knowledge",
    "deal_state",
    "still_out",
    "knows",
    "probability",
    "make_guess_probability",
    "GuessModel",
    "guess_weights",
]


# ================================================================ knowledge
#: Location of the cards not dealt this round (nobody sees them).
UNDEALT = "undealt"
#: Location of the turned-up trump card.
TURNED = "turned"
#: Location of the cards played this round.
PLAYED = "played"
#: Location of the cards outside this round's deck (variant ``lamas``).
OUT = "out"

_CARD_OF_TEXT = {card_str(c): c for c in range(NUM_CARDS)}
_DECK: Any = None


def boerenbridge_deck() -> Any:
    """The 32 cards as a :class:`games.cards.Deck` whose kind ``i`` is card id ``i``.

    Examples
    --------
    >>> d = boerenbridge_deck()
    >>> d.name(23), d.index("A♥"), d.index("th")
    ('AH', 23, 19)
    """
    global _DECK
    if _DECK is None:
        from games.cards import Deck

        names = [card_str(c) for c in range(NUM_CARDS)]
        aliases: dict[str, str] = {}
        for c in range(NUM_CARDS):
            aliases[card_pretty(c)] = names[c]
            if RANKS[c & 7] == "10":
                aliases["T" + SUITS[c >> 3]] = names[c]
                aliases["T" + SUIT_SYMBOLS[c >> 3]] = names[c]
        _DECK = Deck(
            names,
            suits={n: n[-1] for n in names},
            ranks={n: n[:-1] for n in names},
            aliases=aliases,
        )
    return _DECK


def round_deck(params: BoerenBridgeParams, cards: int) -> int:
    """Card mask of the deck used in a round of ``cards`` cards."""
    if params.deck == "full":
        return (1 << NUM_CARDS) - 1
    mask = 0
    for s in range(4):
        for r in range(8 - cards, 8):
            mask |= 1 << (s * 8 + r)
    return mask


class SeatView:
    """Everything one seat has observed, kept up to date from its observations only.

    Bots and notebook queries read a seat's situation from here: its hand,
    the trump, the guesses, the trick on the table, the cards played, the
    voids everybody showed, and -- through :meth:`knowledge` -- the seat's
    exact deal knowledge as a :class:`games.deal.DealKnowledge`.

    Parameters
    ----------
    params : BoerenBridgeParams
        The game's parameters (public).
    seat : int
        The seat whose observations are fed to :meth:`observe`.

    Examples
    --------
    >>> from games.base import load_game
    >>> from games.boerenbridge import random_playout
    >>> state = random_playout(load_game("boerenbridge"), seed=1, stop_after=40)
    >>> view = SeatView.from_state(state, 2)
    >>> view.hand == state.hand_mask(2), view.trump == state.trump
    (True, True)
    """

    def __init__(self, params: BoerenBridgeParams, seat: int):
        self.params = params
        self.seat = seat
        self.players = params.players
        self.round_index = -1
        self.cards = 0
        self.dealer = 0
        self.deck = 0
        self.hand = 0
        self.dealt = 0
        self.trump: int | None = None
        self.trump_card: int | None = None
        self.trump_known = False
        self.guesses: list[int | None] = [None] * self.players
        self.tricks = [0] * self.players
        self.leader = 0
        self.trick: list[int] = []
        self.plays: list[tuple[int, int]] = []
        self.played = 0
        self.played_by = [0] * self.players
        self.voids = [0] * self.players
        self.scores = [0] * self.players
        #: whether the round in the view has been scored (the next one not yet dealt)
        self.round_over = False
        #: points of the last scored round, per seat
        self.last_points: tuple[int, ...] = ()
        #: the last completed trick as ``(seat, card)`` pairs, and who won it
        self.last_trick: tuple[tuple[int, int], ...] = ()
        self.last_winner: int | None = None
        self.version = 0
        self._kcache: tuple[int, Any] | None = None

    @classmethod
    def from_state(cls, state: BoerenBridgeState, seat: int) -> SeatView:
        """The view built from ``seat``'s observations in ``state`` (nothing else)."""
        view = cls(state.params, seat)
        for obs in state.observations(seat):
            view.observe(obs)
        return view

    # ------------------------------------------------------------ updates
    def observe(self, obs: Observation) -> None:
        """Take one observation of this seat into account."""
        self.version += 1
        kind = obs.kind
        if kind == "play":
            seat: int = obs.actor  # type: ignore[assignment]
            c = _CARD_OF_TEXT[obs["card"]]
            if self.trick:
                led = self.trick[0] >> 3
                if (c >> 3) != led:
                    self.voids[seat] |= 1 << led
            else:
                self.leader = seat
            self.trick.append(c)
            self.plays.append((seat, c))
            self.played |= 1 << c
            self.played_by[seat] |= 1 << c
            if seat == self.seat:
                self.hand &= ~(1 << c)
        elif kind == "trick":
            w = obs["winner"]
            self.last_trick = tuple(self.plays[-self.players :])
            self.last_winner = w
            self.tricks[w] += 1
            self.leader = w
            self.trick = []
        elif kind == "guess":
            self.guesses[obs.actor] = obs["guess"]  # type: ignore[index]
        elif kind == "round":
            self.round_index = obs["round"] - 1
            self.cards = obs["cards"]
            self.dealer = obs["dealer"]
            self.deck = round_deck(self.params, self.cards)
            self.hand = 0
            self.dealt = 0
            self.trump = None
            self.trump_card = None
            self.trump_known = False
            self.guesses = [None] * self.players
            self.tricks = [0] * self.players
            self.leader = (self.dealer + 1) % self.players
            self.trick = []
            self.plays = []
            self.played = 0
            self.played_by = [0] * self.players
            self.voids = [0] * self.players
            self.round_over = False
            self.last_trick = ()
            self.last_winner = None
        elif kind == "hand":
            cards = obs.get("cards")
            if cards is not None and obs["seat"] == self.seat:
                m = 0
                for t in cards:
                    m |= 1 << _CARD_OF_TEXT[t]
                self.hand = self.dealt = m
        elif kind == "trump":
            self.trump_known = True
            suit = obs["suit"]
            self.trump = None if suit == "none" else SUITS.index(suit)
            card = obs.get("card")
            self.trump_card = None if card is None else _CARD_OF_TEXT[card]
        elif kind == "score":
            self.scores = list(obs["scores"])
            self.last_points = tuple(obs["points"])
            self.round_over = True

    # ------------------------------------------------------------ queries
    @property
    def to_play(self) -> int:
        """Seat whose card is next in the trick."""
        return (self.leader + len(self.trick)) % self.players

    def hand_size(self, seat: int) -> int:
        """Cards ``seat`` holds now."""
        return self.cards - self.played_by[seat].bit_count()

    @property
    def need(self) -> int:
        """Tricks this seat still needs to hit its guess (negative: already over)."""
        g = self.guesses[self.seat]
        return (0 if g is None else g) - self.tricks[self.seat]

    @property
    def remaining_tricks(self) -> int:
        """Tricks still to finish this round, the current one included."""
        return self.hand_size(self.to_play)

    def undealt_size(self) -> int:
        """Cards of this round's deck that nobody holds and nobody saw."""
        return self.deck.bit_count() - self.players * self.cards - (self.trump_card is not None)

    def unseen(self) -> int:
        """Card mask of the round's cards this seat has not seen."""
        m = self.deck & ~self.hand & ~self.played
        if self.trump_card is not None:
            m &= ~(1 << self.trump_card)
        return m

    def legal_cards(self) -> list[int]:
        """The cards this seat may play now (following suit)."""
        h = self.hand
        if self.trick:
            f = h & _suit_mask(self.trick[0] >> 3)
            if f:
                h = f
        return cards_of(h)

    def knowledge(self) -> Any:
        """This seat's exact deal knowledge (a :class:`games.deal.DealKnowledge`).

        Locations: the seats' hands by name, ``undealt``, ``turned`` (the
        trump card), ``played`` and ``out`` (outside this round's deck).  The
        seat knows its own hand, the turned card, the cards played, the cards
        out of the round and every void shown by failing to follow suit.
        Guesses are intentions, not facts: they do not enter it.
        """
        if self._kcache is not None and self._kcache[0] == self.version:
            return self._kcache[1]
        from games.deal import DealKnowledge

        deck = boerenbridge_deck()
        names = SEAT_NAMES[: self.players]
        sizes = {names[s]: self.hand_size(s) for s in range(self.players)}
        sizes[UNDEALT] = self.undealt_size()
        sizes[TURNED] = 0 if self.trump_card is None else 1
        sizes[PLAYED] = self.played.bit_count()
        sizes[OUT] = NUM_CARDS - self.deck.bit_count()
        k = DealKnowledge(deck, sizes, name=names[self.seat])
        k.reveal(names[self.seat], cards_of(self.hand))
        k.reveal(PLAYED, cards_of(self.played))
        k.reveal(OUT, cards_of(((1 << NUM_CARDS) - 1) & ~self.deck))
        if self.trump_card is not None:
            k.reveal(TURNED, [self.trump_card])
        for s in range(self.players):
            for suit in range(4):
                if self.voids[s] >> suit & 1:
                    k.void(names[s], cards_of(_suit_mask(suit)))
        self._kcache = (self.version, k)
        return k

    def sample_hands(self, n: int, rng: Any) -> list[tuple[int, ...]]:
        """``n`` deals consistent with this seat's knowledge, drawn by the exact sampler
        of :mod:`games.deal`, as tuples of hand masks (this seat's hand is its own)."""
        import numpy as np

        k = self.knowledge()
        arr = k.sample(n, seed=rng)
        weights = np.left_shift(np.int64(1), np.arange(NUM_CARDS, dtype=np.int64))
        masks = np.tensordot(arr[:, :, : self.players].astype(np.int64), weights, axes=([1], [0]))
        return [tuple(int(x) for x in row) for row in masks]


# ============================================================ notebook queries
def seat_knowledge(state: BoerenBridgeState, seat: int | str) -> Any:
    """``seat``'s exact deal knowledge, built from its observations only.

    Examples
    --------
    >>> from games.base import load_game
    >>> from games.boerenbridge import random_playout
    >>> state = random_playout(load_game("boerenbridge"), seed=2, stop_after=45)
    >>> k = seat_knowledge(state, "West")
    >>> k.knows(f"has(West, {card_str(state.hand(3)[0])})")
    True
    """
    return SeatView.from_state(state, parse_seat(seat, state.num_players())).knowledge()


def deal_state(state: BoerenBridgeState) -> Any:
    """The current round as a :class:`games.deal.DealState`: the true deal and every
    seat's knowledge, updated event by event (the cards out of the round and the
    turned card shown to all, each card played face up, each failure to follow
    suit a public void).

    Examples
    --------
    >>> from games.base import load_game
    >>> from games.boerenbridge import random_playout
    >>> state = random_playout(load_game("boerenbridge"), seed=4, stop_after=78)
    >>> ds = deal_state(state)
    >>> ds.knowledge("North").count() == seat_knowledge(state, "North").count()
    True
    """
    from games.deal import DealState

    if state.phase == "deal" or state.phase == "over":
        raise InvalidParameterError(f"no deal to describe in the {state.phase} phase")
    n = state.num_players()
    names = SEAT_NAMES[:n]
    deck = round_deck(state.params, state.cards_per_hand)
    dealt = 0
    deal: dict[str, list[str]] = {}
    for s in range(n):
        h = state._dealt_hands[s]
        dealt |= h
        deal[names[s]] = [card_str(c) for c in cards_of(h)]
    deal[UNDEALT] = [card_str(c) for c in cards_of(deck & ~dealt)]
    deal[TURNED] = []
    deal[PLAYED] = []
    deal[OUT] = [card_str(c) for c in cards_of(((1 << NUM_CARDS) - 1) & ~deck)]
    ds = DealState(boerenbridge_deck(), deal, agents={name: name for name in names})
    ds.reveal(OUT)
    if state.trump_card is not None:
        ds.move(card_str(state.trump_card), UNDEALT, TURNED)
    led = 0
    for i, (seat, c) in enumerate(state.plays):
        if i % n == 0:
            led = c >> 3
        ds.move(card_str(c), names[seat], PLAYED)
        if c >> 3 != led:
            ds.void(names[seat], [card_str(x) for x in cards_of(_suit_mask(led))])
    return ds


def still_out(card: str | int, players: int = 4) -> Any:
    """The formula "``card`` is still in somebody's hand": ``has(North, c) | has(East, c) | …``.

    Examples
    --------
    >>> print(still_out("AH", players=3))
    has(North, AH) | has(East, AH) | has(South, AH)
    """
    from games.deal import card_atom
    from kripke.formulas import Or

    c = card_str(parse_card(card))
    return Or(tuple(card_atom(name, c) for name in SEAT_NAMES[:players]))


def knows(state: BoerenBridgeState, seat: int | str, formula: Any) -> bool:
    """Whether ``seat`` knows a formula over the card atoms ``has(location, card)``.

    Locations are the seat names, ``undealt``, ``turned``, ``played`` and ``out``.

    Examples
    --------
    Does West know that the A♥ is still out?

    >>> from games.base import load_game
    >>> from games.boerenbridge import random_playout
    >>> state = random_playout(load_game("boerenbridge"), seed=2, stop_after=45)
    >>> west = parse_seat("West")
    >>> knows(state, "West", still_out("AH")) == (23 in state.hand(west))
    True
    """
    return bool(seat_knowledge(state, seat).knows(formula))


def probability(state: BoerenBridgeState, seat: int | str, formula: Any) -> float:
    """The exact probability ``seat`` gives a formula over card atoms (all consistent
    deals equally likely).

    Examples
    --------
    >>> from games.base import load_game
    >>> from games.boerenbridge import random_playout
    >>> state = random_playout(load_game("boerenbridge"), seed=2, stop_after=45)
    >>> 0.0 <= probability(state, "North", "has(East, AS) | has(South, AS)") <= 1.0
    True
    """
    return float(seat_knowledge(state, seat).probability_of(formula))


def make_guess_probability(
    state: BoerenBridgeState,
    seat: int | str,
    viewer: int | str | None = None,
    samples: int = 48,
    seed: int = 0,
    mode: str = "force",
) -> float:
    """The probability, in ``viewer``'s eyes, that ``seat`` can still make its guess.

    Deals consistent with ``viewer``'s knowledge (default: ``seat`` itself) are
    drawn with the exact sampler and solved double dummy from the current
    position.  ``mode="force"``: ``seat`` can take exactly its guess whatever
    the others play; ``mode="possible"``: some play of all the remaining cards
    gives it exactly its guess.

    Examples
    --------
    What is the probability that North can still make her guess?

    >>> from games.base import load_game
    >>> from games.boerenbridge import random_playout
    >>> state = random_playout(load_game("boerenbridge"), seed=4, stop_after=78)
    >>> state.phase, state.cards_per_hand, state.guess_of(0), state.tricks_won[0]
    ('play', 4, 1, 0)
    >>> p = make_guess_probability(state, "North", samples=16, seed=1)
    >>> q = make_guess_probability(state, "North", samples=16, seed=1, mode="possible")
    >>> 0.0 <= p <= q <= 1.0
    True
    """
    import numpy as np

    from games.boerenbridge.double_dummy import DoubleDummySolver, Position

    if mode not in ("force", "possible"):
        raise InvalidParameterError(f"mode={mode!r}; expected 'force' or 'possible'")
    if state.phase != "play":
        raise InvalidParameterError(
            f"guesses are made and played for in the play phase, not {state.phase}"
        )
    n = state.num_players()
    s = parse_seat(seat, n)
    v = parse_seat(viewer, n) if viewer is not None else s
    view = SeatView.from_state(state, v)
    need = (state.guess_of(s) or 0) - state.tricks_won[s]
    rem = view.remaining_tricks
    if need < 0 or need > rem:
        return 0.0
    solver = DoubleDummySolver(state.trump, n, s, cooperative=(mode == "possible"))
    rng = np.random.default_rng(seed)
    deals = view.sample_hands(samples, rng)
    hits = 0
    for hands in deals:
        pos = Position(hands, state.trump, state.leader, state.current_trick)
        hits += solver.can_force(pos, need, need)
    return hits / len(deals)


# ======================================================== reading the guesses
@dataclass(frozen=True, slots=True)
class GuessModel:
    """A stated model of how players guess, for a Bayesian reading of guesses.

    Guesses are public announcements of intentions, not facts: no deal is
    ruled out by them, and the exact deal knowledge ignores them.  This model
    says how likely a guess is given the hand it was made from: the guesser
    aims at its *high cards* (aces and trumps of queen or higher, the count a
    plain player makes) and is off by ``d`` tricks with weight
    ``exp(-sharpness * d)``.  :func:`guess_weights` turns it into weights of
    sampled deals (importance weights), kept apart from the exact counts.

    Examples
    --------
    >>> m = GuessModel(sharpness=1.0)
    >>> hand = (1 << 31) | (1 << 23)   # A♠ and A♥
    >>> m.likelihood(2, hand, trump=0, cards=2) > m.likelihood(0, hand, trump=0, cards=2)
    True
    """

    sharpness: float = 1.0

    def estimate(self, hand: int, trump: int | None) -> int:
        """The number of high cards in ``hand``."""
        high = 0
        for c in cards_of(hand):
            if c & 7 == 7 or (trump is not None and c >> 3 == trump and c & 7 >= 5):
                high += 1
        return high

    def likelihood(self, guess: int, hand: int, trump: int | None, cards: int) -> float:
        """P(guess | hand) under the model (normalised over 0 … ``cards``)."""
        e = self.estimate(hand, trump)
        ws = [math.exp(-self.sharpness * abs(g - e)) for g in range(cards + 1)]
        return ws[guess] / sum(ws) if 0 <= guess <= cards else 0.0


def guess_weights(view: SeatView, deals: Sequence[Sequence[int]], model: GuessModel) -> list[float]:
    """Importance weights of sampled ``deals`` (hand masks per seat) given the other
    seats' guesses: each deal weighs the product of the likelihoods of the guesses
    under ``model``, each from the hand the guesser was dealt (its hand in the deal
    plus the cards it has played since).  Normalised to sum 1."""
    out = []
    for hands in deals:
        w = 1.0
        for p in range(view.players):
            g = view.guesses[p]
            if p == view.seat or g is None:
                continue
            w *= model.likelihood(g, hands[p] | view.played_by[p], view.trump, view.cards)
        out.append(w)
    total = sum(out)
    if total <= 0:
        return [1.0 / len(out)] * len(out) if out else []
    return [w / total for w in out]


# ================================================================= narration


def round_card_history(state: BoerenBridgeState) -> Any:
    """The round of ``state`` for :mod:`games.epistemic`: the hands dealt (each seen by its
    seat), the cards out of the round (seen by all), the turned card and every
    card played face up, and a void for every failure to follow suit."""

    from games.epistemic import CardHistory, Count, Move

    if state._phase in (_PHASE_DEAL, _PHASE_OVER):
        raise InvalidParameterError(f"no dealt round to describe in the {state.phase} phase")
    names = SEAT_NAMES[: state._np]
    deck = round_deck(state._params, state._n)
    initial = {names[s]: cards_of(state._dealt_hands[s]) for s in range(state._np)}
    dealt = 0
    for h in state._dealt_hands:
        dealt |= h
    initial[UNDEALT] = cards_of(deck & ~dealt)
    initial[TURNED] = initial[PLAYED] = []
    initial[OUT] = cards_of(((1 << NUM_CARDS) - 1) & ~deck)
    events: list[Any] = []
    if state._trump_card is not None:
        c = _CARD_TEXT[state._trump_card]
        events.append(Move(c, UNDEALT, TURNED, label=f"{c} turned up"))
    led = 0
    for i, (seat, card) in enumerate(state._plays):
        led = card >> 3 if i % state._np == 0 else led
        events.append(Move(_CARD_TEXT[card], names[seat], PLAYED, label=f"{names[seat]} plays"))
        if card >> 3 != led:
            void = [_CARD_TEXT[x] for x in cards_of(_suit_mask(led))]
            events.append(Count(names[seat], void, 0, 0, label=f"{names[seat]} shows out"))
    text = {loc: [_CARD_TEXT[c] for c in cs] for loc, cs in initial.items()}
    return CardHistory(boerenbridge_deck(), text, {n: (n, OUT) for n in names}, events)
