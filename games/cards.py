"""Decks of cards with copies: the card type shared by the deal-knowledge module and games.

A :class:`Deck` lists card *kinds* (``"QS"``, ``"7"``, ``"BJ"``), how many
identical copies of each kind it holds, and optional suit and rank labels.
Each kind has one canonical text; :meth:`Deck.parse` reads card text and names
the bad token in a :class:`~games.errors.CardParseError`.

Examples
--------
>>> from games.cards import Deck
>>> deck = Deck.standard()
>>> len(deck), deck.total
(52, 52)
>>> deck.parse("10h qs")
('10H', 'QS')
>>> [deck.name(k) for k in deck.suit("S")][:3]
['2S', '3S', '4S']
>>> koth = Deck.ranks(13, copies=4)
>>> koth.total, koth.copies[0], koth.name(7)
(52, 4, '7')
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from games.errors import CardParseError

__all__ = ["Deck", "STANDARD_RANKS", "STANDARD_SUITS", "CardsLike"]

#: Ranks of the standard deck, low to high (ace high).
STANDARD_RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
#: Suits of the standard deck: clubs, diamonds, hearts, spades.
STANDARD_SUITS: tuple[str, ...] = ("C", "D", "H", "S")

#: Card arguments accepted everywhere: one card text (``"QS"``), text with
#: several cards (``"7S 8H"``, ``"7S,8H"``), or an iterable of card texts or
#: kind indices.  Repeating a card means several copies.
CardsLike = str | Iterable[str | int]

_SPLIT = re.compile(r"[\s,]+")


class Deck:
    """Card kinds, their copies, and optional suit and rank labels.

    Parameters
    ----------
    names : sequence of str
        The canonical text of every card kind, e.g. ``"QS"``.  Texts are
        matched case-insensitively.
    copies : int or sequence of int, default 1
        Identical copies of each kind (2 for a double deck).
    suits, ranks : mapping from name to label, optional
        Labels used by :meth:`suit` and :meth:`rank`.
    aliases : mapping from text to name, optional
        Extra spellings, e.g. ``{"J-": "SJ"}``.

    Raises
    ------
    CardParseError
        If a name is repeated or empty.

    Examples
    --------
    >>> d = Deck(["a", "b"], copies=[2, 1])
    >>> d.total, d.parse(["A", "a", "B"])
    (3, ('a', 'a', 'b'))
    """

    __slots__ = ("names", "copies", "total", "_index", "_suits", "_ranks", "_by_suit", "_by_rank")

    def __init__(
        self,
        names: Sequence[str],
        copies: int | Sequence[int] = 1,
        *,
        suits: Mapping[str, str] | None = None,
        ranks: Mapping[str, str] | None = None,
        aliases: Mapping[str, str] | None = None,
    ):
        names = tuple(str(n) for n in names)
        if not names:
            raise CardParseError("a deck needs at least one card")
        if isinstance(copies, int):
            cps = (copies,) * len(names)
        else:
            cps = tuple(int(c) for c in copies)
        if len(cps) != len(names):
            raise CardParseError(f"{len(names)} card names but {len(cps)} copy counts")
        if any(c < 1 for c in cps):
            raise CardParseError("every card kind needs at least one copy")
        self.names: tuple[str, ...] = names
        self.copies: tuple[int, ...] = cps
        self.total: int = sum(cps)
        index: dict[str, int] = {}
        for i, n in enumerate(names):
            key = n.upper()
            if not n or key in index:
                raise CardParseError(f"card name {n!r} is empty or repeated")
            index[key] = i
        for alias, target in (aliases or {}).items():
            t = index.get(str(target).upper())
            if t is None:
                raise CardParseError(f"alias {alias!r} points to unknown card {target!r}")
            index.setdefault(str(alias).upper(), t)
        self._index = index
        self._suits = tuple((suits or {}).get(n) for n in names)
        self._ranks = tuple((ranks or {}).get(n) for n in names)
        by_suit: dict[str, list[int]] = {}
        by_rank: dict[str, list[int]] = {}
        for i in range(len(names)):
            if self._suits[i] is not None:
                by_suit.setdefault(str(self._suits[i]).upper(), []).append(i)
            if self._ranks[i] is not None:
                by_rank.setdefault(str(self._ranks[i]).upper(), []).append(i)
        self._by_suit = {k: tuple(v) for k, v in by_suit.items()}
        self._by_rank = {k: tuple(v) for k, v in by_rank.items()}

    # ------------------------------------------------------------ factories
    @classmethod
    def standard(
        cls, copies: int = 1, jokers: bool = False, ranks: Sequence[str] = STANDARD_RANKS
    ) -> Deck:
        """The 52-card deck (``2C`` … ``AS``), optionally with ``SJ``/``BJ`` jokers.

        ``ranks`` keeps only some ranks, e.g. the 32-card piquet deck.

        Examples
        --------
        >>> Deck.standard(copies=2, jokers=True).total
        108
        >>> Deck.standard(ranks=("7", "8", "9", "10", "J", "Q", "K", "A")).total
        32
        >>> Deck.standard(ranks=("J", "Q", "K", "A")).names[:4]
        ('JC', 'QC', 'KC', 'AC')
        """
        for r in ranks:
            if r not in STANDARD_RANKS:
                raise CardParseError(f"{r!r} is not a rank of the standard deck")
        names = [r + s for s in STANDARD_SUITS for r in ranks]
        suits = {n: n[-1] for n in names}
        rank_of = {n: n[:-1] for n in names}
        aliases = {"T" + s: "10" + s for s in STANDARD_SUITS} if "10" in ranks else {}
        if jokers:
            names += ["SJ", "BJ"]
            rank_of.update({"SJ": "SJ", "BJ": "BJ"})
            aliases.update({"J-": "SJ", "J+": "BJ"})
        return cls(names, copies, suits=suits, ranks=rank_of, aliases=aliases)

    @classmethod
    def ranks(cls, n: int, copies: int = 4) -> Deck:
        """A deck of ranks ``"0"`` … ``str(n-1)`` with ``copies`` identical cards each.

        This is the deck of the BS programming tournament (13 ranks, 4 copies).
        """
        names = [str(i) for i in range(n)]
        return cls(names, copies, ranks={x: x for x in names})

    # --------------------------------------------------------------- access
    def __len__(self) -> int:
        return len(self.names)

    def __repr__(self) -> str:
        return f"Deck({len(self.names)} kinds, {self.total} cards)"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deck):
            return NotImplemented
        return (self.names, self.copies, self._suits, self._ranks) == (
            other.names,
            other.copies,
            other._suits,
            other._ranks,
        )

    def __hash__(self) -> int:
        return hash((self.names, self.copies))

    def name(self, kind: int) -> str:
        """Canonical text of kind ``kind``."""
        return self.names[kind]

    def index(self, card: str | int) -> int:
        """Kind index of one card text (or an index, checked).

        Raises
        ------
        CardParseError
            Naming the bad token and the deck.
        """
        if isinstance(card, bool):
            raise CardParseError(f"{card!r} is not a card")
        if isinstance(card, int):
            if 0 <= card < len(self.names):
                return card
            raise CardParseError(f"card index {card} is outside 0..{len(self.names) - 1}")
        if not isinstance(card, str):
            raise CardParseError(f"{card!r} is not a card")
        k = self._index.get(card.strip().upper())
        if k is None:
            sample = ", ".join(self.names[:4])
            raise CardParseError(f"{card!r} is not a card of this deck (cards are {sample}, …)")
        return k

    def kinds(self, cards: CardsLike) -> tuple[int, ...]:
        """Kind indices of ``cards`` (a multiset: repeats kept, order kept)."""
        if isinstance(cards, str):
            toks = [t for t in _SPLIT.split(cards.strip()) if t]
            return tuple(self.index(t) for t in toks)
        try:
            items = list(cards)
        except TypeError:
            raise CardParseError(f"{cards!r} is not a card or a collection of cards") from None
        return tuple(self.index(c) for c in items)

    def parse(self, cards: CardsLike) -> tuple[str, ...]:
        """Canonical texts of ``cards``."""
        return tuple(self.names[k] for k in self.kinds(cards))

    def counts(self, cards: CardsLike) -> Counter[int]:
        """Copies of each kind in ``cards``; raises if a kind appears too often."""
        c = Counter(self.kinds(cards))
        for k, n in c.items():
            if n > self.copies[k]:
                raise CardParseError(
                    f"{self.names[k]} appears {n} times but the deck has {self.copies[k]}"
                )
        return c

    def suit_of(self, kind: int) -> str | None:
        """Suit label of a kind (``None`` if it has none)."""
        return self._suits[kind]

    def rank_of(self, kind: int) -> str | None:
        """Rank label of a kind (``None`` if it has none)."""
        return self._ranks[kind]

    def suit(self, suit: str) -> tuple[int, ...]:
        """Kinds of one suit.

        Raises
        ------
        CardParseError
            If no card has that suit.
        """
        got = self._by_suit.get(str(suit).upper())
        if got is None:
            raise CardParseError(f"no card of this deck has suit {suit!r}")
        return got

    def rank(self, rank: str | int) -> tuple[int, ...]:
        """Kinds of one rank.

        Raises
        ------
        CardParseError
            If no card has that rank.
        """
        got = self._by_rank.get(str(rank).upper())
        if got is None:
            raise CardParseError(f"no card of this deck has rank {rank!r}")
        return got

    def all_cards(self) -> tuple[str, ...]:
        """Every physical card once (kinds repeated by their copies)."""
        return tuple(n for n, c in zip(self.names, self.copies, strict=True) for _ in range(c))
