"""The trump of a round: effective suits, the strength order and adjacency.

Rules (zpy-reference.md §2): jokers and every card of the trump rank are
trump, and so is the trump suit.  Trump runs, high to low, BJ > SJ > the rank
card of the trump suit > the rank cards of the other suits (equal to each
other) > A, K, … of the trump suit without the rank.  Plain suits run A…2
without the rank.  Equal cards never beat each other (the first played wins).
Adjacency (for tractors) is the next card up in the same effective suit,
skipping the rank; inside trump the chain runs trump-suit A → each off-suit
rank card → the trump-suit rank card → SJ → BJ, and a plain A has no
successor.  At rank NT only the jokers are trump.

Examples
--------
>>> t = Trump("9", "C")
>>> t
Trump('9', 'C')
>>> [SUIT_LABELS[effective_suit(c, t)] for c in parse_cards("9H AC 10D BJ")]
['trumps', 'trumps', 'diamonds', 'trumps']
>>> compare(card("9H"), card("9D"), t), compare(card("9C"), card("9D"), t)
(0, 1)
>>> successors(card("8S"), t)
(10S,)
>>> successors(card("AC"), t)
(9D, 9H, 9S)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from games.errors import InvalidParameterError
from games.shengji.rules.cards import (
    BIG_JOKER,
    NUM_FACES,
    RANKS,
    SMALL_JOKER,
    SUIT_NAMES,
    SUITS,
    Card,
    card,
    make_face,
    parse_cards,
)

__all__ = [
    "NT",
    "TRUMP_SUIT",
    "SUIT_LABELS",
    "Trump",
    "TrumpTable",
    "table",
    "effective_suit",
    "strength",
    "compare",
    "successors",
    "is_adjacent",
    "rank_index",
    "rank_name",
    "suit_index",
    "sort_cards",
]

#: Rank index of the top rank "NT" (no trump rank: only the jokers are trump).
NT = 13
#: Effective-suit index of trump (plain suits are 0..3 as in :data:`SUITS`).
TRUMP_SUIT = 4
#: Names of the five effective suits.
SUIT_LABELS = (*SUIT_NAMES, "trumps")

_RANK_NAMES = (*RANKS, "NT")


def rank_index(rank: int | str) -> int:
    """Rank index 0..13 (2 … A, NT) from a name such as ``"10"``, ``"A"``, ``"NT"`` or an index.

    Raises
    ------
    InvalidParameterError
        For anything else.
    """
    if isinstance(rank, str):
        name = rank.strip().upper()
        if name == "T":
            name = "10"
        if name in _RANK_NAMES:
            return _RANK_NAMES.index(name)
    elif isinstance(rank, int) and not isinstance(rank, bool) and 0 <= rank <= NT:
        return rank
    raise InvalidParameterError(
        f"not a rank: {rank!r} (expected 2-10, J, Q, K, A or NT, or an index 0..13)"
    )


def rank_name(rank: int) -> str:
    """Name of a rank index (``"2"`` … ``"A"``, ``"NT"``)."""
    return _RANK_NAMES[rank]


def suit_index(suit: int | str | None) -> int | None:
    """Suit index 0..3 from ``"C"``, ``"clubs"``, … or an index; ``None`` stays ``None``.

    Raises
    ------
    InvalidParameterError
        For anything else.
    """
    if suit is None:
        return None
    if isinstance(suit, str):
        s = suit.strip().lower()
        for i, (letter, name) in enumerate(zip(SUITS, SUIT_NAMES, strict=True)):
            if s in (letter.lower(), name, name[:-1]):
                return i
        if s in ("nt", "none", "no-trump", "notrump"):
            return None
    elif isinstance(suit, int) and not isinstance(suit, bool) and 0 <= suit < 4:
        return suit
    raise InvalidParameterError(f"not a suit: {suit!r} (expected C, D, H, S or None)")


@dataclass(frozen=True, slots=True, init=False)
class Trump:
    """The trump of a round: a rank and a suit (``None`` = no trump).

    Parameters
    ----------
    rank : int or str
        Rank name (``"2"`` … ``"A"``, ``"NT"``) or index 0..13.
    suit : int or str or None
        Suit letter or index, ``None`` for no trump.  At rank NT the suit must
        be ``None`` (only jokers are trump).

    Examples
    --------
    >>> Trump("10", "hearts"), Trump(13, None)
    (Trump('10', 'H'), Trump('NT', None))
    """

    rank: int
    suit: int | None
    _table: TrumpTable | None = field(
        default=None, init=False, repr=False, compare=False, hash=False
    )

    def __init__(self, rank: int | str, suit: int | str | None = None):
        r = rank_index(rank)
        s = suit_index(suit)
        if r == NT and s is not None:
            raise InvalidParameterError("at rank NT there is no trump suit (only jokers are trump)")
        object.__setattr__(self, "rank", r)
        object.__setattr__(self, "suit", s)
        object.__setattr__(self, "_table", None)

    def __repr__(self) -> str:
        suit = None if self.suit is None else SUITS[self.suit]
        return f"Trump({rank_name(self.rank)!r}, {suit!r})"

    def __str__(self) -> str:
        if self.suit is None:
            return f"{rank_name(self.rank)} no trump"
        return f"{rank_name(self.rank)} of {SUIT_NAMES[self.suit]}"

    @property
    def table(self) -> TrumpTable:
        """Precomputed per-face tables of this trump."""
        return table(self)


class TrumpTable:
    """Per-face lookup tables for one :class:`Trump` (built once, cached).

    Attributes
    ----------
    esuit : list of int
        Effective suit of each face (0..3 plain, 4 trump).
    strength : list of int
        Strength of each face; equal numbers are equal cards.  Only faces of the
        same effective suit are ever compared; trump is above every plain suit.
    succ : list of tuple of int
        Adjacent faces one step up (several only after the trump-suit ace).
    order : list of int
        A total order (strength, then face) for sorting and canonical readings.
    by_suit : list of tuple of int
        Faces of each effective suit, weakest first.
    """

    __slots__ = ("trump", "esuit", "strength", "succ", "order", "by_suit")

    def __init__(self, trump: Trump):
        self.trump = trump
        r, ts = trump.rank, trump.suit
        esuit = [0] * NUM_FACES
        strength = [0] * NUM_FACES
        for f in range(NUM_FACES):
            if f >= SMALL_JOKER:
                esuit[f] = TRUMP_SUIT
                strength[f] = 122 if f == SMALL_JOKER else 123
                continue
            s, k = divmod(f, 13)
            if k == r:
                esuit[f] = TRUMP_SUIT
                strength[f] = 121 if s == ts else 120
            elif s == ts:
                esuit[f] = TRUMP_SUIT
                strength[f] = 100 + k
            else:
                esuit[f] = s
                strength[f] = 16 * s + k
        succ: list[tuple[int, ...]] = [()] * NUM_FACES
        for f in range(NUM_FACES):
            succ[f] = tuple(self._successor(f, esuit))
        self.esuit = esuit
        self.strength = strength
        self.succ = succ
        self.order = [strength[f] * 64 + f for f in range(NUM_FACES)]
        self.by_suit = [
            tuple(
                sorted((f for f in range(NUM_FACES) if esuit[f] == s), key=self.order.__getitem__)
            )
            for s in range(5)
        ]

    def __deepcopy__(self, memo: dict[int, object]) -> TrumpTable:
        return self  # never mutated after construction

    def __copy__(self) -> TrumpTable:
        return self

    def _successor(self, f: int, esuit: list[int]) -> list[int]:
        r, ts = self.trump.rank, self.trump.suit
        if f == BIG_JOKER:
            return []
        if f == SMALL_JOKER:
            return [BIG_JOKER]
        s, k = divmod(f, 13)
        if k == r:
            if ts is not None and s != ts:
                return [make_face(r, ts)]
            return [SMALL_JOKER]
        nxt = k + 1
        if nxt == r:
            nxt += 1
        if nxt <= 12:
            return [make_face(nxt, s)]
        if esuit[f] == TRUMP_SUIT:
            if r < NT:
                return [make_face(r, x) for x in range(4) if x != ts]
            return [SMALL_JOKER]
        return []


@lru_cache(maxsize=128)
def _build(trump: Trump) -> TrumpTable:
    return TrumpTable(trump)


def table(trump: Trump) -> TrumpTable:
    """The cached :class:`TrumpTable` of ``trump``."""
    t = trump._table
    if t is None:
        t = _build(trump)
        object.__setattr__(trump, "_table", t)
    return t


def effective_suit(c: int, trump: Trump) -> int:
    """Effective suit of a card: 0..3 for a plain suit (C, D, H, S), 4 for trump."""
    return table(trump).esuit[c]


def strength(c: int, trump: Trump) -> int:
    """Strength of a card under ``trump`` (equal numbers: equal cards)."""
    return table(trump).strength[c]


def compare(a: int, b: int, trump: Trump) -> int:
    """-1, 0 or 1 as card ``a`` is weaker than, equal to or stronger than ``b``.

    Cards of different plain suits compare by suit index (they never meet in a
    contest: only the led suit and trump can win).
    """
    t = table(trump)
    x, y = t.strength[a], t.strength[b]
    return (x > y) - (x < y)


def successors(c: int, trump: Trump) -> tuple[Card, ...]:
    """The faces one step above ``c`` for tractors (empty at the top of a suit)."""
    return tuple(card(x) for x in table(trump).succ[c])


def is_adjacent(a: int, b: int, trump: Trump) -> bool:
    """Whether ``b`` is one step above ``a`` (so a pair of each forms a tractor)."""
    return b in table(trump).succ[a]


def sort_cards(cards: Sequence[int] | str, trump: Trump, reverse: bool = False) -> list[Card]:
    """Cards grouped by effective suit (clubs, diamonds, hearts, spades, trumps), weakest first."""
    t = table(trump)
    cs = parse_cards(cards) if isinstance(cards, str) else [card(c) for c in cards]
    return sorted(cs, key=lambda c: (t.esuit[c], t.order[c]), reverse=reverse)
