"""BoerenBridge: the full 15-round trick-guessing game and the `lamas` variant.

Rules (``shared/rules/boerenbridge.md`` with the project's clarifications):
four players, 32 cards (7 8 9 10 J Q K A in four suits), rounds of 2 3 4 5 6 7
8 8 8 7 6 5 4 3 2 cards.  After the deal a remaining card is turned face up
and its suit is trump; when no card remains a trump suit is drawn at random
and announced; round 8 has no trump.  The dealer moves one seat clockwise
every round.  Starting left of the dealer every player publicly guesses how
many tricks they will take; the dealer may not make the guesses add up to the
number of cards dealt.  The player left of the dealer leads the first trick,
the winner of a trick leads the next; follow suit when you can.  A correct
guess scores ``2 * tricks + 10`` (``+ 20`` instead of ``+ 10`` for a correct
0 in a round of 6 or more cards), a wrong guess ``-2 * |tricks - guess|``.

The variant ``lamas`` (how the Groningen course project played it) deals 5
rounds of 3 4 5 4 3 cards, each round from the top ``n`` ranks of every suit,
with a random trump suit and no zero bonus.  Round sizes, the number of
players (3 or 4) and the scoring are parameters of the one engine.

Actions are small ints: a card is ``suit * 8 + rank`` (0-31, suits ♣ ♦ ♥ ♠,
ranks 7 … A), a guess of ``g`` tricks is ``GUESS_BASE + g`` and a drawn
trump suit ``SUIT_BASE + suit``.  Chance deals one card at a time.

Knowledge: every seat's exact deal knowledge is a
:class:`games.deal.DealKnowledge` over the locations ``North`` … ``West``,
``undealt``, ``turned``, ``played`` and ``out``, built from the seat's
observations only (:class:`SeatView`, :func:`seat_knowledge`) or updated
event by event on the true deal (:func:`deal_state`).  Guesses are intentions,
not facts; :class:`GuessModel` reads them as evidence, apart from the exact
knowledge.  Notebook questions: :func:`knows` (with :func:`still_out`),
:func:`probability` and :func:`make_guess_probability`.

Examples
--------
>>> from games.base import load_game
>>> game = load_game("boerenbridge")
>>> game.params.rounds
(2, 3, 4, 5, 6, 7, 8, 8, 8, 7, 6, 5, 4, 3, 2)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 32)
>>> load_game("boerenbridge", variant="lamas").params.rounds
(3, 4, 5, 4, 3)
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from games.base import (
    CHANCE,
    TERMINAL,
    Game,
    Observation,
    State,
    register_game,
    sample_chance,
)
from games.errors import CardParseError, IllegalActionError, InvalidParameterError

__all__ = [
    "SUITS",
    "SUIT_SYMBOLS",
    "SUIT_NAMES",
    "RANKS",
    "SEAT_NAMES",
    "NUM_CARDS",
    "GUESS_BASE",
    "SUIT_BASE",
    "STANDARD_ROUNDS",
    "LAMAS_ROUNDS",
    "card_suit",
    "card_rank",
    "card_str",
    "card_pretty",
    "parse_card",
    "parse_cards",
    "cards_of",
    "seat_name",
    "parse_seat",
    "trick_winner",
    "round_score",
    "BoerenBridgeParams",
    "BoerenBridgeGame",
    "BoerenBridgeState",
    "RoundRecord",
    "make_game",
    "make_params",
    "random_playout",
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

#: Suit letters, in card-id order.
SUITS = "CDHS"
#: Suit symbols, in card-id order.
SUIT_SYMBOLS = "♣♦♥♠"
#: Suit names, in card-id order.
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
#: Ranks from low to high.
RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
#: Seat names, clockwise; seat ``i`` of a 3-player table is ``SEAT_NAMES[i]``.
SEAT_NAMES = ("North", "East", "South", "West")
#: Cards in the full deck.
NUM_CARDS = 32
#: Action of guessing ``g`` tricks: ``GUESS_BASE + g``.
GUESS_BASE = 32
#: Chance action drawing trump suit ``s`` when no card can be turned up: ``SUIT_BASE + s``.
SUIT_BASE = 48
#: Round sizes of the standard game.
STANDARD_ROUNDS = (2, 3, 4, 5, 6, 7, 8, 8, 8, 7, 6, 5, 4, 3, 2)
#: Round sizes of the ``lamas`` variant.
LAMAS_ROUNDS = (3, 4, 5, 4, 3)

_SUIT_OF_TEXT = {
    "C": 0,
    "D": 1,
    "H": 2,
    "S": 3,
    "♣": 0,
    "♦": 1,
    "♥": 2,
    "♠": 3,
    "♧": 0,
    "♢": 1,
    "♡": 2,
    "♤": 3,
}
_RANK_OF_TEXT = {r: i for i, r in enumerate(RANKS)} | {"T": 3}

_PHASE_DEAL, _PHASE_TRUMP, _PHASE_GUESS, _PHASE_PLAY, _PHASE_OVER = range(5)
_CARD_TEXT = tuple(RANKS[c & 7] + SUITS[c >> 3] for c in range(32))


# ------------------------------------------------------------------ cards
def card_suit(card: int) -> int:
    """Suit index (0 ♣, 1 ♦, 2 ♥, 3 ♠) of a card id."""
    return card >> 3


def card_rank(card: int) -> int:
    """Rank index (0 is the 7, 7 is the ace) of a card id."""
    return card & 7


def card_str(card: int) -> str:
    """Canonical text of a card: ``"AH"``, ``"10S"``, ``"7C"``.

    Examples
    --------
    >>> card_str(31), card_str(0), card_str(19)
    ('AS', '7C', '10H')
    """
    return RANKS[card & 7] + SUITS[card >> 3]


def card_pretty(card: int) -> str:
    """A card with its suit symbol: ``"A♥"``."""
    return RANKS[card & 7] + SUIT_SYMBOLS[card >> 3]


def parse_card(text: str | int) -> int:
    """Read a card: ``"AH"``, ``"ah"``, ``"A♥"``, ``"10S"``, ``"TS"`` or a card id.

    Raises
    ------
    CardParseError
        Naming the token when it is not a card of the 32-card deck.

    Examples
    --------
    >>> parse_card("A♥") == parse_card("AH") == 23
    True
    >>> parse_card("6H")
    Traceback (most recent call last):
    ...
    games.errors.CardParseError: '6H' is not a BoerenBridge card (ranks 7 8 9 10 J Q K A, suits C D H S)
    """
    if isinstance(text, int) and not isinstance(text, bool):
        if 0 <= text < NUM_CARDS:
            return text
        raise CardParseError(f"card id {text} is out of range 0..31")
    if not isinstance(text, str):
        raise CardParseError(f"{text!r} is not a card")
    t = text.strip().upper()
    if len(t) >= 2 and t[:-1] in _RANK_OF_TEXT and t[-1] in _SUIT_OF_TEXT:
        return _SUIT_OF_TEXT[t[-1]] * 8 + _RANK_OF_TEXT[t[:-1]]
    raise CardParseError(
        f"{text!r} is not a BoerenBridge card (ranks 7 8 9 10 J Q K A, suits C D H S)"
    )


def parse_cards(text: str | Iterable[str | int]) -> list[int]:
    """Read several cards from ``"AH KS 10D"`` (spaces or commas) or an iterable.

    Examples
    --------
    >>> [card_str(c) for c in parse_cards("AH, ks 10d")]
    ['AH', 'KS', '10D']
    """
    tokens: list[str | int]
    if isinstance(text, str):
        tokens = [t for t in text.replace(",", " ").split() if t]
    else:
        tokens = list(text)
    return [parse_card(t) for t in tokens]


def cards_of(mask: int) -> list[int]:
    """Card ids of a 32-bit card mask, ascending.

    Examples
    --------
    >>> cards_of((1 << 31) | (1 << 3))
    [3, 31]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def seat_name(seat: int) -> str:
    """``"North"``, ``"East"``, ``"South"`` or ``"West"``."""
    return SEAT_NAMES[seat]


def parse_seat(seat: int | str, players: int = 4) -> int:
    """A seat from its index, its name (``"West"``, ``"w"``) or ``"P3"``.

    Examples
    --------
    >>> parse_seat("West"), parse_seat("n"), parse_seat("P2"), parse_seat(1)
    (3, 0, 2, 1)
    """
    if isinstance(seat, int) and not isinstance(seat, bool):
        if 0 <= seat < players:
            return seat
        raise InvalidParameterError(f"seat {seat} is out of range 0..{players - 1}")
    if isinstance(seat, str):
        t = seat.strip().lower()
        for i, name in enumerate(SEAT_NAMES[:players]):
            if t in (name.lower(), name[0].lower(), f"p{i}", str(i)):
                return i
    raise InvalidParameterError(
        f"unknown seat {seat!r}; seats are {', '.join(SEAT_NAMES[:players])} (or 0..{players - 1})"
    )


def trick_winner(cards: Sequence[int], trump: int | None) -> int:
    """Index (into ``cards``, the first being the lead) of the card that wins.

    The highest trump wins, else the highest card of the suit led.

    Examples
    --------
    >>> trick_winner(parse_cards("10H AH 7S KH"), trump=3)
    2
    >>> trick_winner(parse_cards("10H AH 7S KH"), trump=None)
    1
    """
    best = 0
    bc = cards[0]
    for i in range(1, len(cards)):
        c = cards[i]
        if (c >> 3) == (bc >> 3):
            if c > bc:
                best, bc = i, c
        elif trump is not None and (c >> 3) == trump:
            best, bc = i, c
    return best


# ------------------------------------------------------------- parameters
@dataclass(frozen=True, slots=True)
class BoerenBridgeParams:
    """Every parameter of the engine with its default (the standard game).

    Parameters
    ----------
    variant : str
        ``"standard"`` or ``"lamas"``; a variant sets the defaults of the others.
    players : int
        3 or 4 seats.
    rounds : tuple of int
        Cards dealt to each player in each round.
    no_trump_rounds : tuple of int
        1-based rounds played without trump.
    trump : str
        ``"turn-up"``: turn up a remaining card (draw a suit when none is left);
        ``"random-suit"``: always draw and announce a suit.
    deck : str
        ``"full"``: the 32 cards every round; ``"top"``: the top ``n`` ranks of
        every suit in a round of ``n`` cards.
    trick_points, hit_bonus, miss_penalty : int
        A correct guess of ``t`` scores ``trick_points * t + hit_bonus``; a
        wrong one ``-miss_penalty * |tricks - guess|``.
    zero_bonus : int or None
        Bonus of a correct 0 in a round of at least ``zero_bonus_min_cards``
        cards (``None``: no special zero bonus).
    zero_bonus_min_cards : int
        See ``zero_bonus``.
    first_dealer : int
        Dealer of the first round.
    """

    variant: str = "standard"
    players: int = 4
    rounds: tuple[int, ...] = STANDARD_ROUNDS
    no_trump_rounds: tuple[int, ...] = (8,)
    trump: str = "turn-up"
    deck: str = "full"
    trick_points: int = 2
    hit_bonus: int = 10
    zero_bonus: int | None = 20
    zero_bonus_min_cards: int = 6
    miss_penalty: int = 2
    first_dealer: int = 0


_VARIANTS: dict[str, dict[str, Any]] = {
    "standard": {},
    "lamas": {
        "rounds": LAMAS_ROUNDS,
        "no_trump_rounds": (),
        "trump": "random-suit",
        "deck": "top",
        "zero_bonus": None,
    },
}


def _validate(p: BoerenBridgeParams) -> None:
    if not isinstance(p.players, int) or not 3 <= p.players <= 4:
        raise InvalidParameterError(f"players={p.players!r}: BoerenBridge takes 3 or 4 players")
    if not p.rounds:
        raise InvalidParameterError("rounds is empty; give at least one round size")
    for n in p.rounds:
        if not isinstance(n, int) or not 1 <= n <= 8:
            raise InvalidParameterError(f"round size {n!r} is not between 1 and 8 cards")
    for r in p.no_trump_rounds:
        if not isinstance(r, int) or not 1 <= r <= len(p.rounds):
            raise InvalidParameterError(
                f"no_trump_rounds names round {r!r}; rounds are 1..{len(p.rounds)}"
            )
    if p.trump not in ("turn-up", "random-suit"):
        raise InvalidParameterError(f"trump={p.trump!r}; expected 'turn-up' or 'random-suit'")
    if p.deck not in ("full", "top"):
        raise InvalidParameterError(f"deck={p.deck!r}; expected 'full' or 'top'")
    for name in ("trick_points", "hit_bonus", "miss_penalty", "zero_bonus_min_cards"):
        if not isinstance(getattr(p, name), int):
            raise InvalidParameterError(f"{name}={getattr(p, name)!r} is not an int")
    if p.zero_bonus is not None and not isinstance(p.zero_bonus, int):
        raise InvalidParameterError(f"zero_bonus={p.zero_bonus!r} is not an int or None")
    if not isinstance(p.first_dealer, int) or not 0 <= p.first_dealer < p.players:
        raise InvalidParameterError(f"first_dealer={p.first_dealer!r} is not a seat")


def _tuple_param(name: str, value: Any) -> tuple[int, ...]:
    if isinstance(value, str):
        try:
            return tuple(int(x) for x in value.replace(",", " ").split())
        except ValueError:
            raise InvalidParameterError(f"{name}={value!r} is not a list of integers") from None
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,)
    try:
        return tuple(value)
    except TypeError:
        raise InvalidParameterError(f"{name}={value!r} is not a list of integers") from None


def make_params(variant: str | None = None, **overrides: Any) -> BoerenBridgeParams:
    """The parameters of ``variant`` with ``overrides`` applied, validated."""
    variant = variant or "standard"
    if variant not in _VARIANTS:
        raise InvalidParameterError(
            f"unknown BoerenBridge variant {variant!r}; variants: {', '.join(_VARIANTS)}"
        )
    known = {f.name for f in fields(BoerenBridgeParams)}
    for key in overrides:
        if key not in known:
            raise InvalidParameterError(
                f"unknown BoerenBridge parameter {key!r}; parameters: {', '.join(sorted(known))}"
            )
    values = dict(_VARIANTS[variant])
    values.update({k: v for k, v in overrides.items() if v is not None or k == "zero_bonus"})
    for key in ("rounds", "no_trump_rounds"):
        if key in values:
            values[key] = _tuple_param(key, values[key])
    if "rounds" in overrides and "no_trump_rounds" not in overrides:
        # the variant's no-trump rounds that still exist
        nt = values.get("no_trump_rounds", BoerenBridgeParams().no_trump_rounds)
        values["no_trump_rounds"] = tuple(r for r in nt if r <= len(values["rounds"]))
    params = replace(BoerenBridgeParams(), variant=variant, **values)
    _validate(params)
    return params


def round_score(params: BoerenBridgeParams, cards: int, guess: int, tricks: int) -> int:
    """Points for one round: ``2t + 10`` (or ``+ 20`` for a zero) when ``tricks == guess``.

    Examples
    --------
    >>> p = BoerenBridgeParams()
    >>> round_score(p, 5, 2, 2), round_score(p, 6, 0, 0), round_score(p, 5, 0, 0)
    (14, 20, 10)
    >>> round_score(p, 5, 3, 1)
    -4
    """
    if tricks == guess:
        bonus = params.hit_bonus
        if guess == 0 and params.zero_bonus is not None and cards >= params.zero_bonus_min_cards:
            bonus = params.zero_bonus
        return params.trick_points * tricks + bonus
    return -params.miss_penalty * abs(tricks - guess)


# ------------------------------------------------------------------- game
class BoerenBridgeGame(Game):
    """BoerenBridge with fixed parameters; see :class:`BoerenBridgeParams`."""

    name = "boerenbridge"

    def __init__(self, params: BoerenBridgeParams):
        super().__init__(params)
        self.round_decks = tuple(self._round_deck(n) for n in params.rounds)

    def _round_deck(self, n: int) -> int:
        if self.params.deck == "full":
            return (1 << NUM_CARDS) - 1
        mask = 0
        for s in range(4):
            for r in range(8 - n, 8):
                mask |= 1 << (s * 8 + r)
        return mask

    def num_players(self) -> int:
        return self.params.players

    def num_rounds(self) -> int:
        """Rounds in a game."""
        return len(self.params.rounds)

    def dealer(self, round_index: int) -> int:
        """Dealer of the 0-based round ``round_index``."""
        return (self.params.first_dealer + round_index) % self.params.players

    def new_initial_state(self) -> BoerenBridgeState:
        return BoerenBridgeState(self)

    def __repr__(self) -> str:
        return f"BoerenBridgeGame({self.params!r})"


def make_game(variant: str | None = None, **params: Any) -> BoerenBridgeGame:
    """Build the game; ``load_game("boerenbridge", variant="lamas", players=3)`` calls this.

    Examples
    --------
    >>> make_game("lamas", players=3).params.players
    3
    >>> make_game(players=5)
    Traceback (most recent call last):
    ...
    games.errors.InvalidParameterError: players=5: BoerenBridge takes 3 or 4 players
    """
    params.pop("seed", None)
    return BoerenBridgeGame(make_params(variant, **params))


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """A finished round: who dealt, trump, every seat's guess, tricks and points."""

    round: int
    cards: int
    dealer: int
    trump: int | None
    trump_card: int | None
    guesses: tuple[int, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]


# ------------------------------------------------------------------ state
class BoerenBridgeState(State):
    """A BoerenBridge game in progress (see the module docstring for the rules).

    Public attributes are read-only views for narration and tests; bots never
    see the state, only their seat's observations.
    """

    def __init__(self, game: BoerenBridgeGame):
        super().__init__(game)
        self._params: BoerenBridgeParams = game.params
        self._np = game.params.players
        self._scores = [0] * self._np
        self._records: list[RoundRecord] = []
        self._round = 0
        self._outcomes: tuple[int, list[tuple[int, float]]] | None = None
        self._start_round()

    # ------------------------------------------------------------ rounds
    def _start_round(self) -> None:
        g: BoerenBridgeGame = self.game  # type: ignore[assignment]
        self._n = self._params.rounds[self._round]
        self._dealer = g.dealer(self._round)
        self._undealt = cards_of(g.round_decks[self._round])
        self._dealt = 0
        self._hands = [0] * self._np
        self._dealt_hands = [0] * self._np
        self._trump: int | None = None
        self._trump_card: int | None = None
        self._guesses: list[int] = []
        self._tricks = [0] * self._np
        self._leader = (self._dealer + 1) % self._np
        self._trick: list[int] = []
        self._plays: list[tuple[int, int]] = []
        self._played = 0
        self._phase = _PHASE_DEAL

    def _after_deal(self) -> None:
        n = self._np
        self._observe("round", None, round=self._round + 1, cards=self._n, dealer=self._dealer)
        for seat in range(n):
            self._observe(
                "hand",
                None,
                audience=(seat,),
                hidden={"cards": tuple(card_str(c) for c in cards_of(self._hands[seat]))},
                seat=seat,
            )
        if (self._round + 1) in self._params.no_trump_rounds:
            self._observe("trump", None, suit="none")
            self._phase = _PHASE_GUESS
        else:
            self._phase = _PHASE_TRUMP

    def _finish_round(self) -> None:
        p = self._params
        by_seat = [self.guess_of(s) or 0 for s in range(self._np)]
        points = tuple(
            round_score(p, self._n, by_seat[s], self._tricks[s]) for s in range(self._np)
        )
        for s in range(self._np):
            self._scores[s] += points[s]
        self._records.append(
            RoundRecord(
                self._round + 1,
                self._n,
                self._dealer,
                self._trump,
                self._trump_card,
                tuple(by_seat),
                tuple(self._tricks),
                points,
            )
        )
        self._observe(
            "score",
            None,
            round=self._round + 1,
            tricks=tuple(self._tricks),
            points=points,
            scores=tuple(self._scores),
        )
        self._round += 1
        if self._round == len(p.rounds):
            self._phase = _PHASE_OVER
        else:
            self._start_round()

    # ------------------------------------------------------------- hooks
    def _current_player(self) -> int:
        ph = self._phase
        if ph == _PHASE_PLAY:
            return (self._leader + len(self._trick)) % self._np
        if ph == _PHASE_GUESS:
            return (self._dealer + 1 + len(self._guesses)) % self._np
        if ph == _PHASE_OVER:
            return TERMINAL
        return CHANCE

    def _public(self, kind: str, actor: int | None, data: tuple[tuple[str, Any], ...]) -> None:
        """Send one event to every seat (``data`` already sorted by key)."""
        obs = Observation(kind, actor, data, True)
        for seat_obs in self._observations:
            seat_obs.append(obs)

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        cached = self._outcomes
        if cached is not None and cached[0] == len(self._history):
            return cached[1]
        out = self._compute_outcomes()
        self._outcomes = (len(self._history), out)
        return out

    def _compute_outcomes(self) -> list[tuple[int, float]]:
        if self._phase == _PHASE_DEAL:
            u = self._undealt
            pr = 1.0 / len(u)
            return [(c, pr) for c in u]
        if self._phase == _PHASE_TRUMP:
            if self._params.trump == "turn-up" and self._undealt:
                pr = 1.0 / len(self._undealt)
                return [(c, pr) for c in self._undealt]
            return [(SUIT_BASE + s, 0.25) for s in range(4)]
        raise IllegalActionError("not a chance node")

    def _legal_actions(self, player: int) -> list[int]:
        if self._phase == _PHASE_GUESS:
            return [GUESS_BASE + g for g in range(self._n + 1) if g != self._forbidden_guess()]
        hand = self._hands[player]
        if self._trick:
            suit_cards = hand & (0xFF << ((self._trick[0] >> 3) * 8))
            if suit_cards:
                hand = suit_cards
        return cards_of(hand)

    def _forbidden_guess(self) -> int:
        """The guess the dealer may not make, or -1 (not the dealer's turn)."""
        if len(self._guesses) == self._np - 1:
            return self._n - sum(self._guesses)
        return -1

    def _is_legal(self, player: int, action: int) -> bool:
        ph = self._phase
        if ph == _PHASE_PLAY:
            if not 0 <= action < NUM_CARDS or not (self._hands[player] >> action) & 1:
                return False
            if self._trick:
                led = self._trick[0] >> 3
                if (action >> 3) != led and self._hands[player] & (0xFF << (led * 8)):
                    return False
            return True
        if ph == _PHASE_GUESS:
            g = action - GUESS_BASE
            return 0 <= g <= self._n and g != self._forbidden_guess()
        return False

    def _illegal_reason(self, player: int, action: int) -> str:
        ph = self._phase
        name = SEAT_NAMES[player]
        if ph == _PHASE_GUESS:
            if not GUESS_BASE <= action < GUESS_BASE + 9:
                return f"it is {name}'s turn to guess 0..{self._n} tricks, not to play a card"
            g = action - GUESS_BASE
            if g > self._n:
                return f"a guess lies between 0 and {self._n} in a {self._n}-card round"
            others = sum(self._guesses)
            return (
                f"the dealer may not make the guesses add up to the {self._n} cards dealt "
                f"(the others guessed {others} in total)"
            )
        if not 0 <= action < NUM_CARDS:
            return f"it is {name}'s turn to play a card; the guessing is over"
        if not (self._hands[player] >> action) & 1:
            return f"{card_str(action)} is not in {name}'s hand"
        led = self._trick[0] >> 3
        held = cards_of(self._hands[player] & (0xFF << (led * 8)))
        return (
            f"revoke: {name} must follow {SUIT_NAMES[led]} and holds "
            f"{', '.join(card_str(c) for c in held)}"
        )

    def _apply_action(self, action: int) -> None:
        ph = self._phase
        if ph == _PHASE_PLAY:
            self._play(action)
        elif ph == _PHASE_GUESS:
            seat = (self._dealer + 1 + len(self._guesses)) % self._np
            self._guesses.append(action - GUESS_BASE)
            self._public("guess", seat, (("guess", action - GUESS_BASE),))
            if len(self._guesses) == self._np:
                self._phase = _PHASE_PLAY
        elif ph == _PHASE_DEAL:
            self._undealt.remove(action)
            seat = (self._dealer + 1 + self._dealt) % self._np
            self._hands[seat] |= 1 << action
            self._dealt += 1
            if self._dealt == self._n * self._np:
                self._dealt_hands = list(self._hands)
                self._after_deal()
        elif ph == _PHASE_TRUMP:
            if action >= SUIT_BASE:
                self._trump = action - SUIT_BASE
                self._observe("trump", None, suit=SUITS[self._trump])
            else:
                self._undealt.remove(action)
                self._trump_card = action
                self._trump = action >> 3
                self._observe("trump", None, suit=SUITS[self._trump], card=card_str(action))
            self._phase = _PHASE_GUESS

    def _play(self, card: int) -> None:
        seat = (self._leader + len(self._trick)) % self._np
        self._hands[seat] &= ~(1 << card)
        self._trick.append(card)
        self._plays.append((seat, card))
        self._public("play", seat, (("card", _CARD_TEXT[card]),))
        if len(self._trick) == self._np:
            w = (self._leader + trick_winner(self._trick, self._trump)) % self._np
            self._tricks[w] += 1
            self._played += 1
            self._public("trick", None, (("number", self._played), ("winner", w)))
            self._leader = w
            self._trick = []
            if self._played == self._n:
                self._finish_round()

    def _action_to_string(self, player: int, action: int) -> str:
        if 0 <= action < NUM_CARDS:
            return card_str(action)
        if GUESS_BASE <= action < GUESS_BASE + 9:
            return f"guess {action - GUESS_BASE}"
        if SUIT_BASE <= action < SUIT_BASE + 4:
            return f"trump {SUITS[action - SUIT_BASE]}"
        return f"action {action}"

    def _returns(self) -> list[float]:
        return [float(s) for s in self._scores]

    def clone(self) -> BoerenBridgeState:
        """An independent copy (faster than a deep copy)."""
        other = copy.copy(self)
        other._history = list(self._history)
        other._observations = [list(o) for o in self._observations]
        other._scores = list(self._scores)
        other._records = list(self._records)
        other._undealt = list(self._undealt)
        other._hands = list(self._hands)
        other._dealt_hands = list(self._dealt_hands)
        other._guesses = list(self._guesses)
        other._tricks = list(self._tricks)
        other._trick = list(self._trick)
        other._plays = list(self._plays)
        return other

    # ------------------------------------------------------ read-only views
    @property
    def params(self) -> BoerenBridgeParams:
        """The game's parameters."""
        return self._params

    @property
    def round_index(self) -> int:
        """0-based index of the current round (``num_rounds`` once over)."""
        return self._round

    @property
    def cards_per_hand(self) -> int:
        """Cards dealt to each player this round."""
        return self._n

    @property
    def dealer(self) -> int:
        """This round's dealer."""
        return self._dealer

    @property
    def trump(self) -> int | None:
        """Trump suit index, ``None`` without trump (or before it is known)."""
        return self._trump

    @property
    def trump_card(self) -> int | None:
        """The turned-up card, if any."""
        return self._trump_card

    @property
    def guesses(self) -> tuple[int | None, ...]:
        """Each seat's guess this round (``None`` before it guessed)."""
        return tuple(self.guess_of(s) for s in range(self._np))

    def guess_of(self, seat: int) -> int | None:
        """``seat``'s guess this round, or ``None`` before it guessed."""
        i = (seat - self._dealer - 1) % self._np
        return self._guesses[i] if i < len(self._guesses) else None

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks won this round per seat."""
        return tuple(self._tricks)

    @property
    def leader(self) -> int:
        """Seat that leads (led) the current trick."""
        return self._leader

    @property
    def current_trick(self) -> tuple[int, ...]:
        """Cards of the trick in progress, the lead first."""
        return tuple(self._trick)

    @property
    def scores(self) -> tuple[int, ...]:
        """Cumulative scores."""
        return tuple(self._scores)

    @property
    def records(self) -> tuple[RoundRecord, ...]:
        """Finished rounds."""
        return tuple(self._records)

    @property
    def phase(self) -> str:
        """``"deal"``, ``"trump"``, ``"guess"``, ``"play"`` or ``"over"``."""
        return ("deal", "trump", "guess", "play", "over")[self._phase]

    def hand(self, seat: int) -> list[int]:
        """Card ids in ``seat``'s hand now."""
        return cards_of(self._hands[seat])

    def hand_mask(self, seat: int) -> int:
        """``seat``'s hand as a 32-bit card mask."""
        return self._hands[seat]

    def dealt_hand(self, seat: int) -> list[int]:
        """Cards ``seat`` was dealt this round."""
        return cards_of(self._dealt_hands[seat])

    @property
    def plays(self) -> tuple[tuple[int, int], ...]:
        """``(seat, card)`` of every card played this round, in order."""
        return tuple(self._plays)

    def undealt(self) -> list[int]:
        """Cards of this round's deck in no hand and not turned up (or not yet dealt)."""
        return list(self._undealt)

    def seat_view(self, seat: int) -> list[tuple[str, str]]:
        """The table as ``seat`` sees it now (built from its observations only).

        Rows: the seat, who is to move (or that cards are being dealt, the
        trump turned up, the game over), the round, the seat's hand, the
        trump, one row per seat (its guess, tricks, cards left, score and
        shown voids; once a round is scored, the round's result), the last
        completed trick with its winner and the trick on the table.

        Examples
        --------
        >>> from games.base import load_game
        >>> state = random_playout(load_game("boerenbridge"), seed=4, stop_after=78)
        >>> rows = dict(state.seat_view(0))
        >>> rows["round"], rows["to move"]
        ('3 of 15 · 4 cards · dealer South', 'North to play')
        """
        if not 0 <= seat < self._np:
            raise InvalidParameterError(f"seat {seat} does not exist; seats are 0..{self._np - 1}")
        v = SeatView.from_state(self, seat)
        ph = self._phase
        if ph == _PHASE_OVER:
            turn = "game over"
        elif ph == _PHASE_DEAL:
            turn = f"dealing round {self._round + 1} ({self._n} cards each)"
        elif ph == _PHASE_TRUMP:
            turn = "turning up the trump"
        else:
            verb = "guess" if ph == _PHASE_GUESS else "play"
            turn = f"{SEAT_NAMES[self._current_player()]} to {verb}"
        rows = [("seat", SEAT_NAMES[seat]), ("to move", turn)]
        if v.round_index < 0:
            return rows
        rows.append(
            (
                "round",
                f"{v.round_index + 1} of {len(self._params.rounds)} · {v.cards} cards · "
                f"dealer {SEAT_NAMES[v.dealer]}" + (" · scored" if v.round_over else ""),
            )
        )
        rows.append(("hand", " ".join(card_pretty(c) for c in cards_of(v.hand)) or "-"))
        if v.trump_known:
            t = "none" if v.trump is None else SUIT_SYMBOLS[v.trump]
            if v.trump_card is not None:
                t += f" (turned up {card_pretty(v.trump_card)})"
            rows.append(("trump", t))
        for p in range(self._np):
            g = v.guesses[p]
            if v.round_over:
                rows.append(
                    (
                        SEAT_NAMES[p],
                        f"guessed {g} · took {v.tricks[p]} · {v.last_points[p]:+d} points · "
                        f"score {v.scores[p]}",
                    )
                )
                continue
            voids = "".join(SUIT_SYMBOLS[x] for x in range(4) if v.voids[p] >> x & 1)
            rows.append(
                (
                    SEAT_NAMES[p],
                    f"guess {'-' if g is None else g} · tricks {v.tricks[p]} · "
                    f"{v.hand_size(p)} card{'' if v.hand_size(p) == 1 else 's'} · "
                    f"score {v.scores[p]}" + (f" · void {voids}" if voids else ""),
                )
            )
        if v.last_trick and v.last_winner is not None:
            played = " ".join(f"{SEAT_NAMES[s][0]}:{card_pretty(c)}" for s, c in v.last_trick)
            rows.append(("last trick", f"{played} · won by {SEAT_NAMES[v.last_winner]}"))
        if v.trick:
            played = " ".join(
                f"{SEAT_NAMES[s][0]}:{card_pretty(c)}" for s, c in v.plays[-len(v.trick) :]
            )
            rows.append(("trick", played))
        return rows

    def _card_history(self) -> Any:
        """This round for :mod:`games.epistemic`: the hands dealt (each seen by its
        seat), the cards out of the round (seen by all), the turned card and every
        card played face up, and a void for every failure to follow suit."""
        from games.epistemic import CardHistory, Count, Move

        if self._phase in (_PHASE_DEAL, _PHASE_OVER):
            raise InvalidParameterError(f"no dealt round to describe in the {self.phase} phase")
        names = SEAT_NAMES[: self._np]
        deck = round_deck(self._params, self._n)
        initial = {names[s]: cards_of(self._dealt_hands[s]) for s in range(self._np)}
        dealt = 0
        for h in self._dealt_hands:
            dealt |= h
        initial[UNDEALT] = cards_of(deck & ~dealt)
        initial[TURNED] = initial[PLAYED] = []
        initial[OUT] = cards_of(((1 << NUM_CARDS) - 1) & ~deck)
        events: list[Any] = []
        if self._trump_card is not None:
            c = _CARD_TEXT[self._trump_card]
            events.append(Move(c, UNDEALT, TURNED, label=f"{c} turned up"))
        led = 0
        for i, (seat, card) in enumerate(self._plays):
            led = card >> 3 if i % self._np == 0 else led
            events.append(Move(_CARD_TEXT[card], names[seat], PLAYED, label=f"{names[seat]} plays"))
            if card >> 3 != led:
                void = [_CARD_TEXT[x] for x in cards_of(_suit_mask(led))]
                events.append(Count(names[seat], void, 0, 0, label=f"{names[seat]} shows out"))
        text = {loc: [_CARD_TEXT[c] for c in cs] for loc, cs in initial.items()}
        return CardHistory(boerenbridge_deck(), text, {n: (n, OUT) for n in names}, events)

    def __str__(self) -> str:
        lines = [
            f"round {self._round + 1}/{len(self._params.rounds)} ({self._n} cards), "
            f"dealer {SEAT_NAMES[self._dealer]}, phase {self.phase}"
        ]
        if self._trump is not None:
            t = SUIT_SYMBOLS[self._trump]
            lines.append(
                f"trump {t}"
                + (f" (turned up {card_pretty(self._trump_card)})" if self._trump_card else "")
            )
        for s in range(self._np):
            g = self.guess_of(s)
            lines.append(
                f"{SEAT_NAMES[s]:5}: {' '.join(card_pretty(c) for c in self.hand(s)):30} "
                f"guess {'-' if g is None else g} tricks {self._tricks[s]} score {self._scores[s]}"
            )
        if self._trick:
            lines.append("trick: " + " ".join(card_pretty(c) for c in self._trick))
        return "\n".join(lines)


def random_playout(
    game: BoerenBridgeGame, seed: int, stop_after: int | None = None
) -> BoerenBridgeState:
    """Play uniformly random legal actions (chance included) from the start.

    Stops at the end of the game or after ``stop_after`` actions.
    """
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal() and (stop_after is None or steps < stop_after):
        steps += 1
        if state.is_chance_node():
            outcomes = state._chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state._legal_actions(state.current_player())
            state.apply_action(legal[rng.randrange(len(legal))])
    return state


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


def _suit_mask(suit: int) -> int:
    return 0xFF << (8 * suit)


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
    >>> state = random_playout(load_game("boerenbridge"), seed=4, stop_after=78)
    >>> state.phase, state.cards_per_hand, state.guess_of(0), state.tricks_won[0]
    ('play', 4, 1, 0)
    >>> p = make_guess_probability(state, "North", samples=16, seed=1)
    >>> q = make_guess_probability(state, "North", samples=16, seed=1, mode="possible")
    >>> 0.0 <= p <= q <= 1.0
    True
    """
    import numpy as np

    from games.double_dummy import DoubleDummySolver, Position

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
DEFAULT_BOTS = ("sampling", "knowledge", "greedy", "random")


def _fmt_count(x: int) -> str:
    return f"{x:,}" if x < 10**7 else f"{x:.2e}"


class _Narrator:
    """Tells a game as it goes, with every seat's knowledge after each guess and card."""

    def __init__(self, state: BoerenBridgeState, out: Any, names: Sequence[str]):
        self.state = state
        self.out = out
        self.names = names
        self.ds: Any = None
        self.model = GuessModel()
        self.rng_seed = 0

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def hand_text(self, seat: int) -> str:
        return " ".join(card_pretty(c) for c in sorted(self.state.hand(seat), reverse=True))

    def round_start(self) -> None:
        st = self.state
        n = st.num_players()
        if st.trump is None:
            trump = "no trump"
        elif st.trump_card is not None:
            trump = f"trump {SUIT_SYMBOLS[st.trump]} (turned up {card_pretty(st.trump_card)})"
        else:
            trump = f"trump {SUIT_SYMBOLS[st.trump]} (drawn)"
        self.say()
        self.say(
            f"Round {st.round_index + 1}/{len(st.params.rounds)} · {st.cards_per_hand} cards · "
            f"dealer {SEAT_NAMES[st.dealer]} · {trump}"
        )
        for seat in range(n):
            self.say(f"  {SEAT_NAMES[seat]:5} ({self.names[seat]:9}) {self.hand_text(seat)}")
        self.ds = deal_state(st)
        counts = ", ".join(
            f"{SEAT_NAMES[s]} {_fmt_count(self.ds.knowledge(SEAT_NAMES[s]).count())}"
            for s in range(n)
        )
        self.say(f"  deals each seat considers possible: {counts}")

    def guessed(self, seat: int, guess: int) -> None:
        st = self.state
        made = [g for g in st.guesses if g is not None]
        self.say(
            f"{SEAT_NAMES[seat]} guesses {guess}  (guesses so far {sum(made)} of "
            f"{st.cards_per_hand} tricks)"
        )
        # a guess is an intention: the exact knowledge is unchanged; the guess model reads it
        parts = []
        for other in range(st.num_players()):
            if other == seat:
                continue
            exact, read = self._high_card_reading(other, seat)
            parts.append(f"{SEAT_NAMES[other]} {exact:.1f} → {read:.1f}")
        self.say(
            f"  no deal ruled out; expected high cards of {SEAT_NAMES[seat]}, exact → "
            f"reading the guess: " + ", ".join(parts)
        )

    def _high_card_reading(self, viewer: int, guesser: int) -> tuple[float, float]:
        import numpy as np

        view = SeatView.from_state(self.state, viewer)
        self.rng_seed += 1
        deals = view.sample_hands(200, np.random.default_rng(self.rng_seed))
        highs = [self.model.estimate(h[guesser], view.trump) for h in deals]
        w = guess_weights(view, deals, self.model)
        return sum(highs) / len(highs), sum(x * y for x, y in zip(w, highs, strict=True))

    def played(self, seat: int, card: int, led: int | None) -> None:
        st = self.state
        n = st.num_players()
        name = SEAT_NAMES[seat]
        note = ""
        self.ds.move(card_str(card), name, PLAYED)
        if led is not None and card >> 3 != led:
            self.ds.void(name, [card_str(x) for x in cards_of(_suit_mask(led))])
            note = f"  — shows out of {SUIT_SYMBOLS[led]}"
        self.say(f"{name} plays {card_pretty(card)}{note}")
        for s in range(n):
            k = self.ds.knowledge(SEAT_NAMES[s])
            m = k.marginals()
            hidden = [
                c
                for c in range(NUM_CARDS)
                if not (st.hand_mask(s) >> c) & 1
                and not any(c == x for _, x in st.plays)
                and c != st.trump_card
                and (round_deck(st.params, st.cards_per_hand) >> c) & 1
            ]
            sure = sum(1 for c in hidden if m[c].max() > 1 - 1e-9)
            voids = []
            for p in range(n):
                suits = "".join(
                    SUIT_SYMBOLS[x] for x in range(4) if p != s and _known_void(k, SEAT_NAMES[p], x)
                )
                if suits:
                    voids.append(f"{SEAT_NAMES[p]} {suits}")
            extra = f" · knows voids: {', '.join(voids)}" if voids else ""
            count = k.count()
            self.say(
                f"  {SEAT_NAMES[s]:5} {_fmt_count(count)} deal{'' if count == 1 else 's'} · "
                f"sure where {sure}/{len(hidden)} unseen cards are{extra}"
            )

    def trick_done(self) -> None:
        st = self.state
        n = st.num_players()
        w = st.leader
        status = ", ".join(f"{SEAT_NAMES[s]} {st.tricks_won[s]}/{st.guess_of(s)}" for s in range(n))
        self.say(f"  trick to {SEAT_NAMES[w]} · tricks/guesses: {status}")
        if st.phase == "play" and len(st.hand(0)) <= 4:
            probs = ", ".join(
                f"{SEAT_NAMES[s]} {make_guess_probability(st, s, samples=12, seed=s):.2f}"
                for s in range(n)
            )
            self.say(f"  P(can still force its guess), each in its own eyes: {probs}")

    def round_done(self, rec: RoundRecord) -> None:
        n = len(rec.points)
        self.say(
            "  round over · tricks/guesses: "
            + ", ".join(f"{SEAT_NAMES[s]} {rec.tricks[s]}/{rec.guesses[s]}" for s in range(n))
        )
        self.say(
            "  points: "
            + ", ".join(f"{SEAT_NAMES[s]} {rec.points[s]:+d}" for s in range(n))
            + " · scores: "
            + ", ".join(f"{SEAT_NAMES[s]} {self.state.scores[s]}" for s in range(n))
        )


def _known_void(k: Any, location: str, suit: int) -> bool:
    m = k.marginals()
    col = k.locations.index(location)
    return k.size(location) > 0 and all(m[c, col] == 0 for c in range(8 * suit, 8 * suit + 8))


def _human_bot(read: Any, out: Any) -> Any:
    from games.boerenbridge_bots import ViewBot

    class HumanBot(ViewBot):
        name = "human"

        def step(self, legal_actions: Sequence[int]) -> int:
            v = self.view
            assert v is not None
            hand = " ".join(card_pretty(c) for c in cards_of(v.hand))
            if legal_actions[0] >= GUESS_BASE:
                options = " ".join(str(a - GUESS_BASE) for a in legal_actions)
                prompt = f"your hand {hand} · guess how many tricks ({options}): "
            else:
                options = " ".join(card_pretty(a) for a in legal_actions)
                prompt = f"your hand {hand} · play one of {options}: "
            while True:
                print(prompt, file=out)
                line = read()
                if line is None:
                    raise IllegalActionError("input ended before the game did")
                text = line.strip()
                try:
                    if legal_actions[0] >= GUESS_BASE:
                        a = GUESS_BASE + int(text)
                    else:
                        a = parse_card(text)
                except (ValueError, CardParseError) as exc:
                    print(f"  {exc}", file=out)
                    continue
                if a in legal_actions:
                    return a
                print(f"  {text} is not one of: {options}", file=out)

    return HumanBot()


def narrate(args: Any, out: Any) -> int:
    """``kripke play boerenbridge``: a narrated game with every seat's knowledge.

    ``--bots`` names one bot per seat (default ``sampling,knowledge,greedy,random``),
    ``--human k`` lets you play seat ``k`` at the terminal, ``--quiet`` prints the
    result only; ``--variant lamas``, ``--players 3`` and ``--param KEY=VALUE``
    choose the game.
    """
    import sys

    from games.base import make_bot

    params = dict(getattr(args, "params", {}) or {})
    variant = getattr(args, "variant", None) or params.pop("variant", None)
    players = getattr(args, "players", None)
    if players is not None:
        params["players"] = players
    game = make_game(variant, **params)
    n = game.num_players()
    bots_arg = getattr(args, "bots", None)
    names = [x.strip() for x in bots_arg.split(",")] if bots_arg else list(DEFAULT_BOTS[:n])
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise InvalidParameterError(f"--bots needs 1 or {n} names, got {len(names)}")
    seed = int(getattr(args, "seed", 0) or 0)
    human = getattr(args, "human", None)
    if human is not None and not 0 <= human < n:
        raise InvalidParameterError(f"--human must be a seat 0..{n - 1}, got {human}")
    stdin_lines = iter(sys.stdin)

    def read() -> str | None:
        return next(stdin_lines, None)

    bots = []
    for s in range(n):
        if s == human:
            bots.append(_human_bot(read, out))
            names[s] = "you"
        else:
            bots.append(make_bot("boerenbridge", names[s], seed=seed * 100 + s))
    quiet = bool(getattr(args, "quiet", False))
    state = game.new_initial_state()
    for s, b in enumerate(bots):
        b.restart(game, s)
    rng = random.Random(seed)
    sink = out if not quiet else _Null()
    nar = _Narrator(state, sink, names)
    p = game.params
    nar.say(
        f"BoerenBridge ({p.variant}, {n} players, rounds {' '.join(map(str, p.rounds))}), "
        f"seed {seed} · " + ", ".join(f"{SEAT_NAMES[s]} {names[s]}" for s in range(n))
    )
    seen = [0] * n
    rounds_done = 0
    while not state.is_terminal():
        for s, b in enumerate(bots):
            obs = state.observations(s)
            while seen[s] < len(obs):
                b.inform(obs[seen[s]])
                seen[s] += 1
        cur = state.current_player()
        if cur == CHANCE:
            state.apply_action(sample_chance(state, rng))
            if state.phase == "guess" and all(g is None for g in state.guesses):
                nar.round_start()
            continue
        action = bots[cur].step(state.legal_actions(cur))
        led = state.current_trick[0] >> 3 if state.current_trick else None
        state.apply_action(action)
        if action >= GUESS_BASE:
            nar.guessed(cur, action - GUESS_BASE)
            continue
        if len(state.records) > rounds_done:  # the last card of the round
            rounds_done = len(state.records)
            nar.say(f"{SEAT_NAMES[cur]} plays {card_pretty(action)}")
            nar.round_done(state.records[-1])
            continue
        nar.played(cur, action, led)
        if not state.current_trick:
            nar.trick_done()
    scores = state.scores
    best = max(scores)
    winners = [SEAT_NAMES[s] for s in range(n) if scores[s] == best]
    print(
        "final scores: "
        + ", ".join(f"{SEAT_NAMES[s]} ({names[s]}) {scores[s]}" for s in range(n))
        + f" · winner: {' and '.join(winners)}",
        file=out,
    )
    return 0


class _Null:
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        return None


register_game(
    "boerenbridge",
    make_game,
    doc="BoerenBridge (Oh Hell with 32 cards): 15 rounds of guessing tricks; variant 'lamas'",
    narrate=narrate,
)


import games.boerenbridge_bots  # noqa: E402,F401  (registers the bots)
