"""Cards of the Shengji family: faces, copies across decks, text forms and points.

A *face* is one of the 54 distinct cards of a deck (52 suited cards, the small
joker ``SJ`` and the big joker ``BJ``).  With several decks a face occurs
several times; hands, plays and the kitty are therefore multisets of faces.
:class:`Card` is an ``int`` (the face number) that prints as its text form, so
lists of cards read naturally and cost nothing to compare or hash.

Text forms follow the shengji-bot conventions: rank then suit letter (``2C``,
``10H``, ``QS``, ``AD``), jokers ``SJ``/``BJ`` (also read as ``J-``/``J+``).
Parsing is case-insensitive.

Examples
--------
>>> parse_cards("10C QS AD J+ sj")
[10C, QS, AD, BJ, SJ]
>>> card_points(parse_cards("5H 10S KD 9C"))
25
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.errors import CardParseError

__all__ = [
    "SUITS",
    "SUIT_NAMES",
    "RANKS",
    "SMALL_JOKER",
    "BIG_JOKER",
    "NUM_FACES",
    "Card",
    "card",
    "parse_card",
    "parse_cards",
    "format_cards",
    "face_suit",
    "face_rank",
    "make_face",
    "card_points",
    "face_points",
    "full_deck",
    "to_counts",
    "from_counts",
    "as_cards",
    "CARDS",
]

#: Suit letters in face order: clubs, diamonds, hearts, spades.
SUITS = ("C", "D", "H", "S")
#: Readable suit names, in the order of :data:`SUITS`.
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
#: Rank names, lowest first; a rank is an index 0..12 into this tuple.
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
#: Face number of the small (black) joker.
SMALL_JOKER = 52
#: Face number of the big (red) joker.
BIG_JOKER = 53
#: Distinct faces in one deck.
NUM_FACES = 54

_POINTS = tuple(
    (5 if r == 3 else 10 if r in (8, 11) else 0) for _s in range(4) for r in range(13)
) + (0, 0)


class Card(int):
    """One card face (an ``int`` 0..53) that prints as its text form.

    Faces ``13 * suit + rank`` for suits C, D, H, S and ranks 2..A, then 52 =
    ``SJ`` and 53 = ``BJ``.  Build cards with :func:`card` or
    :func:`parse_cards`.

    Examples
    --------
    >>> card("10H"), int(card("10H")), card(53)
    (10H, 34, BJ)
    """

    __slots__ = ()

    def __str__(self) -> str:
        return _TEXT[self]

    __repr__ = __str__

    @property
    def suit(self) -> int | None:
        """Printed suit index (0..3), ``None`` for a joker."""
        return None if self >= SMALL_JOKER else int(self) // 13

    @property
    def rank(self) -> int | None:
        """Rank index (0 for 2 … 12 for A), ``None`` for a joker."""
        return None if self >= SMALL_JOKER else int(self) % 13

    @property
    def points(self) -> int:
        """Points: 5 for a five, 10 for a ten or a king, else 0."""
        return _POINTS[self]


_TEXT = [RANKS[f % 13] + SUITS[f // 13] for f in range(52)] + ["SJ", "BJ"]
_CARDS = tuple(int.__new__(Card, f) for f in range(NUM_FACES))
#: The 54 :class:`Card` objects, indexed by face number.
CARDS = _CARDS
_BY_TEXT = {t: _CARDS[i] for i, t in enumerate(_TEXT)}
_BY_TEXT.update({"J-": _CARDS[SMALL_JOKER], "J+": _CARDS[BIG_JOKER]})
_BY_TEXT.update({"LJ": _CARDS[SMALL_JOKER], "HJ": _CARDS[BIG_JOKER]})
_BY_TEXT.update({"T" + s: _CARDS[8 + 13 * i] for i, s in enumerate(SUITS)})


def card(x: int | str) -> Card:
    """The :class:`Card` for a face number or a text form.

    Raises
    ------
    CardParseError
        If ``x`` is neither a face number 0..53 nor a card text.
    """
    if isinstance(x, str):
        return parse_card(x)
    if isinstance(x, int) and not isinstance(x, bool) and 0 <= x < NUM_FACES:
        return _CARDS[x]
    raise CardParseError(f"not a card: {x!r} (expected a face number 0..53 or a text like 10C)")


def parse_card(text: str) -> Card:
    """Read one card such as ``10C``, ``QS``, ``AD``, ``SJ``, ``J+``.

    Raises
    ------
    CardParseError
        Naming the token when it is not a card.

    Examples
    --------
    >>> parse_card("qs")
    QS
    >>> parse_card("11S")
    Traceback (most recent call last):
    ...
    games.errors.CardParseError: '11S' is not a card: write rank then suit (2-10, J, Q, K, A and C, D, H, S), or SJ/BJ (J-/J+) for the jokers
    """
    if not isinstance(text, str):
        raise CardParseError(f"{text!r} is not a card: write it as text such as 10C or QS")
    c = _BY_TEXT.get(text.strip().upper())
    if c is None:
        raise CardParseError(
            f"{text!r} is not a card: write rank then suit (2-10, J, Q, K, A and C, D, H, S), "
            "or SJ/BJ (J-/J+) for the jokers"
        )
    return c


def parse_cards(text: str | Iterable[int | str]) -> list[Card]:
    """Read cards separated by spaces or commas (or convert an iterable of cards).

    Raises
    ------
    CardParseError
        Naming the first bad token.

    Examples
    --------
    >>> parse_cards("9C, 9C 9D 9D AC AC")
    [9C, 9C, 9D, 9D, AC, AC]
    >>> parse_cards("9C 9X")
    Traceback (most recent call last):
    ...
    games.errors.CardParseError: '9X' is not a card: write rank then suit (2-10, J, Q, K, A and C, D, H, S), or SJ/BJ (J-/J+) for the jokers
    """
    if isinstance(text, str):
        return [parse_card(tok) for tok in text.replace(",", " ").split()]
    if not isinstance(text, Iterable):
        raise CardParseError(f"{text!r} is not a card list: give text such as '10C QS' or a list")
    return [card(x) for x in text]


def as_cards(cards: str | Iterable[int | str]) -> list[Card]:
    """Cards from text or from an iterable of faces/texts (the argument form of every rule)."""
    return parse_cards(cards)


def format_cards(cards: Iterable[int]) -> str:
    """Cards as text, separated by spaces.

    Examples
    --------
    >>> format_cards([34, 52])
    '10H SJ'
    """
    return " ".join(_TEXT[c] for c in cards)


def face_suit(face: int) -> int | None:
    """Printed suit index of a face (``None`` for jokers)."""
    return None if face >= SMALL_JOKER else face // 13


def face_rank(face: int) -> int | None:
    """Rank index of a face (``None`` for jokers)."""
    return None if face >= SMALL_JOKER else face % 13


def make_face(rank: int, suit: int) -> Card:
    """The card of rank index ``rank`` (0..12) and suit index ``suit`` (0..3)."""
    return _CARDS[13 * suit + rank]


def face_points(face: int) -> int:
    """Points of one face."""
    return _POINTS[face]


def card_points(cards: Iterable[int]) -> int:
    """Total points of some cards (5s count 5, 10s and kings 10)."""
    return sum(_POINTS[c] for c in cards)


def full_deck(decks: int) -> list[Card]:
    """Every card of ``decks`` decks, face by face (``decks`` copies of each face)."""
    return [c for c in _CARDS for _ in range(decks)]


def to_counts(cards: Iterable[int]) -> list[int]:
    """The multiset of ``cards`` as 54 copy counts."""
    counts = [0] * NUM_FACES
    for c in cards:
        counts[c] += 1
    return counts


def from_counts(counts: Sequence[int]) -> list[Card]:
    """The cards of a count vector, face by face."""
    return [_CARDS[f] for f, n in enumerate(counts) for _ in range(n)]
