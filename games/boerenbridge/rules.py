"""BoerenBridge rules that need no game state: cards, seats, tricks, parameters, scores."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from games.errors import CardParseError, InvalidParameterError

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
    "make_params",
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
    elif isinstance(text, Iterable):
        tokens = list(text)
    else:
        raise CardParseError(f"{text!r} is not a card list: give text such as 'AH KS' or a list")
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


def _suit_mask(suit: int) -> int:
    return 0xFF << (8 * suit)
