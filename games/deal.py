"""Exact knowledge of a card deal: counts, probabilities, knowledge and sampling.

Every card game of the library shares this module.  A deal places the cards
of a :class:`~games.cards.Deck` (copies allowed) in named *locations*: each
player's hand, the pile, the kitty, the undealt cards, the trick on the
table.  How many cards each location holds is public.  What each agent knows
beyond that is a :class:`DealKnowledge` object, updated by the events the agent
observes:

========================================  =====================================================
event                                     method
========================================  =====================================================
the agent sees a location's whole content :meth:`~DealKnowledge.reveal` (own hand, a called play)
the agent sees some cards in a location   :meth:`~DealKnowledge.show` (a face-up trump card)
cards it sees go from one place to another :meth:`~DealKnowledge.move` (a card played face up)
cards it does not see go somewhere        :meth:`~DealKnowledge.move_hidden` (a face-down play)
a whole location joins another            :meth:`~DealKnowledge.move_all` (the pile picked up)
a location holds none of some cards       :meth:`~DealKnowledge.void` (failing to follow suit)
a location holds at least/most k of a set :meth:`~DealKnowledge.at_least`, :meth:`~DealKnowledge.at_most`
========================================  =====================================================

A game keeps one knowledge object per seat and feeds each the events with the
right audience; :class:`DealState` does exactly that for a true deal (it also
checks every event against the true cards).  Bots build their own
:class:`DealKnowledge` from their observations only.

Semantics
---------
An agent's *possible worlds* are the current deals (how many copies of each
card every location holds) consistent with everything it observed; hidden
choices (which cards went face down) are existentially quantified away, so the
worlds are deals, never histories.  Knowledge is truth in all of them.
Probabilities treat the physical cards as distinct and every consistent
arrangement of them as equally likely, the distribution of a shuffled deck
conditioned on the observations (for a deck without copies this is the
uniform distribution over the consistent deals).  Strategic inference from
other players' choices is not part of it.

Every observation is projected exactly onto the current deal: a face-down
move or a merge of locations leaves joint constraints ("at most two of these
cards are in the pile"), written as small tables over linear forms of the
card counts.  Long histories of face-down moves out of partly known hands
(BS) can make those tables large; a knowledge object keeps each within
:attr:`~DealKnowledge.max_table` value combinations by dropping the oldest
large constraint, which keeps a superset of the possible deals (everything
it reports as known stays true) and sets :attr:`~DealKnowledge.exact` to
False.  Small decks, and the games whose plays are face up, stay exact.

Queries are answered by dynamic programming over card kinds and locations,
never by enumerating deals: :meth:`~DealKnowledge.count` (exact Python int),
:meth:`~DealKnowledge.marginals` (expected copies of every card in every
location), :meth:`~DealKnowledge.probability`,
:meth:`~DealKnowledge.count_distribution` (e.g. "P3 holds at least two
sevens"), :meth:`~DealKnowledge.probability_of` and
:meth:`~DealKnowledge.knows` for propositional formulas over the card atoms
``has(location, card)``, and :meth:`~DealKnowledge.sample`, an exact sampler
of consistent deals that depends only on the agent's information.  For small
decks :meth:`DealState.kripke_model` builds the whole situation as an explicit
:class:`~kripke.models.KripkeModel` (worlds: histories of the deal;
accessibility: same observations), so the model checker can verify nested
knowledge.

Examples
--------
>>> from games.cards import Deck
>>> from games.deal import DealState
>>> from kripke import parse
>>> deck = Deck(["AS", "KS", "QS", "JS", "AH", "KH"])
>>> st = DealState(deck, {"p1": "AS KS", "p2": "QS JS", "p3": "AH KH", "table": ""})
>>> st.knows("p1", parse("has(p2, QS) | has(p3, QS)"))
True
>>> st.knowledge("p1").probability("QS", "p2")
0.5
>>> st.move("QS", "p2", "table")          # played face up: everyone sees it
>>> st.knows("p1", parse("has(table, QS)"))
True
>>> st.knowledge("p1").count()             # p2's last card: JS, AH or KH
3
"""

from __future__ import annotations

import copy as _copy
import functools
import itertools
import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from games.cards import CardsLike, Deck
from games.errors import (
    CardParseError,
    IllegalActionError,
    InconsistentKnowledgeError,
    InvalidParameterError,
)

__all__ = [
    "DealKnowledge",
    "DealState",
    "Deck",
    "card_atom",
    "evaluate",
    "MAX_MODEL_CARDS",
]

#: Largest deck :meth:`DealState.kripke_model` builds an explicit model for.
MAX_MODEL_CARDS = 12

_TMP = "__hidden__"


# ===================================================================== forms
@dataclass(frozen=True, slots=True)
class _Form:
    """``offset + sum(coef * n[kind, loc])`` over the cells of the deal."""

    coef: tuple[tuple[int, int, int], ...]  # (kind, loc, c) with c != 0, sorted
    offset: int = 0

    @staticmethod
    def make(cells: Mapping[tuple[int, int], int], offset: int = 0) -> _Form:
        return _Form(tuple(sorted((k, ll, c) for (k, ll), c in cells.items() if c)), offset)

    def cells(self) -> dict[tuple[int, int], int]:
        return {(k, ll): c for k, ll, c in self.coef}

    def touches(self, locs: Iterable[int]) -> bool:
        s = set(locs)
        return any(ll in s for _, ll, _ in self.coef)


@dataclass(frozen=True, slots=True, eq=False)
class _Pred:
    """A constraint: the tuple of form values lies in the set ``table``.

    ``table[v - low]`` is True for accepted value tuples ``v``; values outside
    the box are rejected.
    """

    forms: tuple[_Form, ...]
    low: tuple[int, ...]
    table: np.ndarray

    def accept(self, values: np.ndarray) -> np.ndarray:
        """Vectorised acceptance of an ``(S, F)`` integer array."""
        idx = values - np.asarray(self.low, dtype=np.int64)
        shape = np.asarray(self.table.shape, dtype=np.int64)
        ok = np.all((idx >= 0) & (idx < shape), axis=1)
        out = np.zeros(len(values), dtype=bool)
        if ok.any():
            sel = idx[ok]
            out[ok] = self.table[tuple(sel.T)]
        return out

    def touches(self, locs: Iterable[int]) -> bool:
        s = set(locs)
        return any(f.touches(s) for f in self.forms)


def _sum_forms(forms: Iterable[_Form]) -> _Form:
    cells: dict[tuple[int, int], int] = {}
    off = 0
    for f in forms:
        off += f.offset
        for k, ll, c in f.coef:
            cells[(k, ll)] = cells.get((k, ll), 0) + c
    return _Form.make(cells, off)


def _interval_pred(form: _Form, lo: int, hi: int) -> _Pred:
    lo = max(lo, -(10**6))
    if hi < lo:
        return _Pred((form,), (0,), np.zeros(1, dtype=bool))
    return _Pred((form,), (lo,), np.ones(hi - lo + 1, dtype=bool))


class _TooLarge(Exception):
    """A joint constraint would exceed the table budget; ``pred`` is the one to drop."""

    def __init__(self, pred: _Pred | None):
        super().__init__("constraint table too large")
        self.pred = pred


# ================================================================ knowledge
class DealKnowledge:
    """What one agent knows about where the cards of a deck are.

    The object is a process like a game state: observation methods update it
    in place (and raise :class:`~games.errors.InconsistentKnowledgeError`
    without changing anything if the observation contradicts what is known);
    :meth:`copy` branches it.  Queries never change it.

    Parameters
    ----------
    deck : Deck
        The cards, with copies.
    sizes : mapping from location name to int
        How many cards each location holds; they must add up to
        ``deck.total``.  Locations may be empty (a pile before the first play).
    name : str, optional
        The agent's name, used in messages.

    Raises
    ------
    InvalidParameterError
        If the sizes do not add up or a name is empty.

    Examples
    --------
    >>> from games.cards import Deck
    >>> deck = Deck.standard()
    >>> k = DealKnowledge(deck, {"me": 13, "p1": 13, "p2": 13, "p3": 13})
    >>> k.reveal("me", deck.suit("S"))          # I hold every spade
    >>> k.void("p1", deck.suit("H"))            # p1 showed out of hearts
    >>> k.probability("AH", "p1")
    0.0
    >>> round(k.probability("AH", "p2"), 6)
    0.5
    >>> k.count() == math.comb(39, 13) * math.comb(26, 13) * 0 + (
    ...     math.comb(26, 13) * math.comb(26, 13))  # hearts avoid p1
    True
    """

    def __init__(self, deck: Deck, sizes: Mapping[str, int], *, name: str | None = None):
        if not isinstance(deck, Deck):
            raise InvalidParameterError(f"deck must be a games.cards.Deck, got {deck!r}")
        self.deck = deck
        self.name = name
        self._locs: list[str] = []
        self._li: dict[str, int] = {}
        self._size: list[int] = []
        K = len(deck)
        self._copies = np.asarray(deck.copies, dtype=np.int64)
        self._lo = np.zeros((K, 0), dtype=np.int64)
        self._hi = np.zeros((K, 0), dtype=np.int64)
        self._preds: list[_Pred] = []
        self._cache: dict[Any, Any] = {}
        #: Largest joint-constraint table a merge may build (value combinations).
        self.max_table = 20_000
        #: Largest enumeration (states times options) a query may build for one
        #: group of linked card kinds.
        self.max_states = 400_000
        #: How many joint constraints were dropped to respect :attr:`max_table`
        #: or :attr:`max_states`.
        self.relaxations = 0
        total = 0
        for loc, n in sizes.items():
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise InvalidParameterError(
                    f"size of location {loc!r} must be an int >= 0, got {n!r}"
                )
            self._new_loc(loc, n)
            total += n
        if total != deck.total:
            raise InvalidParameterError(
                f"location sizes add up to {total} but the deck has {deck.total} cards"
            )
        self._hi[:, :] = self._copies[:, None]
        self._settle()

    # ------------------------------------------------------------ structure
    def _new_loc(self, name: str, size: int) -> int:
        if not isinstance(name, str) or not name or name.startswith("__") and name != _TMP:
            raise InvalidParameterError(f"location name must be a non-empty text, got {name!r}")
        if name in self._li:
            raise InvalidParameterError(f"location {name!r} is listed twice")
        self._li[name] = len(self._locs)
        self._locs.append(name)
        self._size.append(size)
        K = len(self.deck)
        self._lo = np.hstack([self._lo, np.zeros((K, 1), dtype=np.int64)])
        self._hi = np.hstack([self._hi, np.zeros((K, 1), dtype=np.int64)])
        return self._li[name]

    @property
    def exact(self) -> bool:
        """Whether the knowledge is exact (no constraint was ever dropped).

        Long histories of face-down moves out of partly known hands (BS) can
        create joint constraints larger than :attr:`max_table`; the knowledge
        then keeps a sound superset of the possible deals.
        """
        return self.relaxations == 0

    @property
    def locations(self) -> tuple[str, ...]:
        """Location names, in the order of the columns of :meth:`marginals`."""
        return tuple(n for n in self._locs if n != _TMP)

    def sizes(self) -> dict[str, int]:
        """Public number of cards in every location."""
        return {n: self._size[i] for i, n in enumerate(self._locs) if n != _TMP}

    def size(self, location: str) -> int:
        """Number of cards in ``location``."""
        return self._size[self._loc(location)]

    def add_location(self, name: str) -> None:
        """Add an empty location (a new trick, a discard pile).

        Raises
        ------
        InvalidParameterError
            If the name is taken.
        """
        self._new_loc(name, 0)
        self._changed()

    def copy(self) -> DealKnowledge:
        """An independent copy."""
        new = _copy.copy(self)
        new._locs = list(self._locs)
        new._li = dict(self._li)
        new._size = list(self._size)
        new._lo = self._lo.copy()
        new._hi = self._hi.copy()
        new._preds = list(self._preds)
        new._cache = {}
        return new

    def _loc(self, location: str) -> int:
        i = self._li.get(location) if isinstance(location, str) else None
        if i is None or location == _TMP:
            known = ", ".join(self.locations)
            raise InvalidParameterError(f"unknown location {location!r}; locations: {known}")
        return i

    def _locset(self, locations: str | Iterable[str]) -> list[int]:
        if isinstance(locations, str):
            return [self._loc(locations)]
        out = [self._loc(x) for x in locations]
        if not out:
            raise InvalidParameterError("no location given")
        return sorted(set(out))

    def _cardset(self, cards: CardsLike) -> list[int]:
        ks = sorted(set(self.deck.kinds(cards)))
        return ks

    def _changed(self) -> None:
        self._cache.clear()

    def __repr__(self) -> str:
        who = f" of {self.name}" if self.name else ""
        body = ", ".join(f"{n}: {s}" for n, s in self.sizes().items())
        return f"DealKnowledge{who}({body}; {len(self._preds)} joint constraints)"

    def signature(self) -> Hashable:
        """A hashable summary: equal signatures mean the same information state.

        Two knowledge objects reached by different event sequences that carry
        the same information have equal signatures when their constraints are
        written the same way; this is what the sampler's output depends on.
        """
        preds = tuple((p.forms, p.low, p.table.shape, p.table.tobytes()) for p in self._preds)
        return (
            tuple(self._locs),
            tuple(self._size),
            self._lo.tobytes(),
            self._hi.tobytes(),
            preds,
        )

    # --------------------------------------------------------- transactions
    def _transaction(self, fn: Callable[[], None]) -> None:
        saved = (
            list(self._locs),
            dict(self._li),
            list(self._size),
            self._lo.copy(),
            self._hi.copy(),
            list(self._preds),
        )
        try:
            fn()
            self._settle()
        except Exception:
            (self._locs, self._li, self._size, self._lo, self._hi, self._preds) = saved
            raise
        finally:
            self._changed()

    def _fail(self, what: str) -> InconsistentKnowledgeError:
        who = f"{self.name}: " if self.name else ""
        return InconsistentKnowledgeError(f"{who}{what} contradicts what is known")

    # --------------------------------------------------------- observations
    def reveal(self, location: str, cards: CardsLike) -> None:
        """The agent sees the whole content of ``location``: exactly ``cards``.

        Raises
        ------
        InconsistentKnowledgeError
            If the number of cards differs from the location's size or the
            cards contradict earlier observations.
        """
        ll = self._loc(location)
        cnt = self.deck.counts(cards)
        n = sum(cnt.values())
        if n != self._size[ll]:
            raise InconsistentKnowledgeError(
                f"{location} holds {self._size[ll]} cards but {n} were revealed"
            )

        def go() -> None:
            for k in range(len(self.deck)):
                v = cnt.get(k, 0)
                if v < self._lo[k, ll] or v > self._hi[k, ll]:
                    raise self._fail(f"{self.deck.name(k)} ×{v} in {location}")
                self._lo[k, ll] = self._hi[k, ll] = v

        self._transaction(go)

    def show(self, location: str, cards: CardsLike) -> None:
        """The agent sees that ``location`` holds (at least) ``cards``."""
        ll = self._loc(location)
        cnt = self.deck.counts(cards)

        def go() -> None:
            for k, v in cnt.items():
                if v > self._hi[k, ll]:
                    raise self._fail(f"{self.deck.name(k)} in {location}")
                self._lo[k, ll] = max(self._lo[k, ll], v)

        self._transaction(go)

    def void(self, location: str, cards: CardsLike) -> None:
        """``location`` holds none of ``cards`` (e.g. a player showed out of a suit)."""
        ll = self._loc(location)
        ks = self._cardset(cards)

        def go() -> None:
            for k in ks:
                if self._lo[k, ll] > 0:
                    raise self._fail(f"no {self.deck.name(k)} in {location}")
                self._hi[k, ll] = 0

        self._transaction(go)

    def at_least(self, locations: str | Iterable[str], cards: CardsLike, k: int) -> None:
        """The locations together hold at least ``k`` copies of the card set ``cards``."""
        self._count_constraint(locations, cards, k, None)

    def at_most(self, locations: str | Iterable[str], cards: CardsLike, k: int) -> None:
        """The locations together hold at most ``k`` copies of the card set ``cards``."""
        self._count_constraint(locations, cards, None, k)

    def exactly(self, locations: str | Iterable[str], cards: CardsLike, k: int) -> None:
        """The locations together hold exactly ``k`` copies of the card set ``cards``."""
        self._count_constraint(locations, cards, k, k)

    def _count_constraint(
        self, locations: str | Iterable[str], cards: CardsLike, lo: int | None, hi: int | None
    ) -> None:
        ls = self._locset(locations)
        ks = self._cardset(cards)
        for v in (lo, hi):
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
                raise InvalidParameterError(f"a card count must be an int >= 0, got {v!r}")
        form = _Form.make({(k, ll): 1 for k in ks for ll in ls})

        def go() -> None:
            if len(ks) == 1 and len(ls) == 1:
                k, ll = ks[0], ls[0]
                if lo is not None:
                    self._lo[k, ll] = max(self._lo[k, ll], lo)
                if hi is not None:
                    self._hi[k, ll] = min(self._hi[k, ll], hi)
                return
            self._preds.append(_interval_pred(form, lo or 0, hi if hi is not None else 10**6))

        self._transaction(go)

    def move(self, cards: CardsLike, src: str, dst: str) -> None:
        """The agent sees ``cards`` go from ``src`` to ``dst`` (a card played face up).

        Raises
        ------
        InconsistentKnowledgeError
            If ``src`` cannot hold those cards.
        """
        a, b = self._loc(src), self._loc(dst)
        cnt = self.deck.counts(cards)
        n = sum(cnt.values())
        if a == b or n == 0:
            return
        if n > self._size[a]:
            raise InconsistentKnowledgeError(f"{src} holds {self._size[a]} cards, cannot give {n}")

        def go() -> None:
            for k, v in cnt.items():
                if self._hi[k, a] < v:
                    raise self._fail(f"{self.deck.name(k)} ×{v} in {src}")
            if self._size[b] == 0:
                self._clear_empty(b)
            for k, v in cnt.items():
                lo_a = max(int(self._lo[k, a]), v)
                self._lo[k, a] = lo_a - v
                self._hi[k, a] -= v
                self._lo[k, b] += v
                self._hi[k, b] = min(int(self._copies[k]), int(self._hi[k, b]) + v)
            new = []
            for p in self._preds:
                forms = []
                for f in p.forms:
                    cells = f.cells()
                    off = f.offset
                    for k, v in cnt.items():
                        off += v * (cells.get((k, a), 0) - cells.get((k, b), 0))
                    forms.append(_Form(f.coef, off))
                new.append(_Pred(tuple(forms), p.low, p.table))
            self._preds = new
            self._size[a] -= n
            self._size[b] += n

        self._transaction(go)

    def move_hidden(self, src: str, dst: str, n: int) -> None:
        """``n`` cards the agent did not see went from ``src`` to ``dst`` (a face-down play)."""
        a, b = self._loc(src), self._loc(dst)
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise InvalidParameterError(f"a number of cards must be an int >= 0, got {n!r}")
        if a == b or n == 0:
            return
        if n > self._size[a]:
            raise InconsistentKnowledgeError(f"{src} holds {self._size[a]} cards, cannot give {n}")

        def go() -> None:
            if self._size[b] == 0:
                self._hidden_to_empty(a, b, n)
                return
            t = self._li.get(_TMP)
            if t is None:
                t = self._new_loc(_TMP, 0)
            self._hidden_to_empty(a, t, n)
            self._settle()
            self._merge(t, b)

        self._transaction(go)

    def move_all(self, src: str, dst: str) -> None:
        """Every card of ``src`` joins ``dst`` (the pile picked up); ``src`` is then empty."""
        a, b = self._loc(src), self._loc(dst)
        if a == b:
            return
        self._transaction(lambda: self._merge(a, b))

    # ---------------------------------------------------- projection rules
    def _clear_empty(self, y: int) -> None:
        """Forget constraints on an empty location's cells (they are all zero)."""
        self._lo[:, y] = 0
        self._hi[:, y] = 0
        new = []
        for p in self._preds:
            if p.touches([y]):
                forms = tuple(
                    _Form(tuple(c for c in f.coef if c[1] != y), f.offset) for f in p.forms
                )
                new.append(_Pred(forms, p.low, p.table))
            else:
                new.append(p)
        self._preds = new

    def _hidden_to_empty(self, a: int, y: int, n: int) -> None:
        self._clear_empty(y)
        K = len(self.deck)
        lo, hi, cp = self._lo, self._hi, self._copies
        extra: list[_Pred] = []
        for k in range(K):
            la, ha = int(lo[k, a]), int(hi[k, a])
            others = [ll for ll in range(len(self._locs)) if ll not in (a, y)]
            other_hi = int(hi[k, others].sum()) if others else 0
            other_lo = int(lo[k, others].sum()) if others else 0
            pair = _Form.make({(k, a): 1, (k, y): 1})
            if la > 0 and int(cp[k]) - other_hi < la:
                extra.append(_interval_pred(pair, la, int(cp[k])))
            if ha < int(cp[k]) - other_lo:
                extra.append(_interval_pred(pair, 0, ha))
            lo[k, a] = 0
            lo[k, y] = 0
            hi[k, y] = min(ha, n)
        new = []
        for p in self._preds:
            if p.touches([a]):
                forms = []
                for f in p.forms:
                    cells = f.cells()
                    for (k, ll), c in list(cells.items()):
                        if ll == a:
                            cells[(k, y)] = c
                    forms.append(_Form.make(cells, f.offset))
                new.append(_Pred(tuple(forms), p.low, p.table))
            else:
                new.append(p)
        self._preds = new + extra
        self._size[a] -= n
        self._size[y] += n

    def _rename(self, a: int, b: int) -> None:
        """Merge into an empty location: the cells of ``a`` become those of ``b``."""
        self._clear_empty(b)
        self._lo[:, b] = self._lo[:, a]
        self._hi[:, b] = self._hi[:, a]
        self._lo[:, a] = 0
        self._hi[:, a] = 0
        new = []
        for p in self._preds:
            if p.touches([a]):
                forms = tuple(
                    _Form(
                        tuple(sorted((k, b if ll == a else ll, c) for k, ll, c in f.coef)), f.offset
                    )
                    for f in p.forms
                )
                new.append(_Pred(forms, p.low, p.table))
            else:
                new.append(p)
        self._preds = new
        self._size[b] += self._size[a]
        self._size[a] = 0

    def _merge(self, a: int, b: int) -> None:
        """Merge ``a`` into ``b``; relax soundly if the exact constraint is too large.

        When the joint constraint would need more than :attr:`max_table`
        value combinations, the largest old constraint it would join is
        dropped (the possible deals become a superset: whatever is known
        stays true) and :attr:`exact` turns False.
        """
        while True:
            saved = (
                self._lo[:, [a, b]].copy(),
                self._hi[:, [a, b]].copy(),
                list(self._size),
                list(self._preds),
            )
            try:
                self._merge_once(a, b)
                return
            except _TooLarge as big:
                self._lo[:, [a, b]] = saved[0]
                self._hi[:, [a, b]] = saved[1]
                self._size = saved[2]
                self._preds = saved[3]
                victim = big.pred
                if victim is None:
                    touched = [p for p in self._preds if p.touches([a, b])]
                    if not touched:
                        raise InvalidParameterError(
                            "a merge needs a constraint table larger than max_table"
                        ) from None
                    victim = max(touched, key=lambda p: p.table.size)
                self._preds = [p for p in self._preds if p is not victim]
                self.relaxations += 1

    def _merge_once(self, a: int, b: int) -> None:
        """Exact projection of "all cards of ``a`` join ``b``" onto the merged deal.

        Let ``x_k`` be the unobservable number of copies of kind ``k`` that came
        from ``a``.  The new worlds are those for which some ``x`` satisfies the
        old constraints.  Kinds whose ``x_k`` is determined are substituted;
        the others are grouped by how the old constraints see them, and the
        existential over the group sums is evaluated into a table.
        """
        if self._size[a] == 0:
            self._clear_empty(a)
            return
        if self._size[b] == 0:
            self._rename(a, b)
            return
        K = len(self.deck)
        lo, hi, cp = self._lo, self._hi, self._copies
        touched = [p for p in self._preds if p.touches([a, b])]
        rest = [p for p in self._preds if not p.touches([a, b])]
        forms: list[_Form] = [f for p in touched for f in p.forms]
        F = len(forms)
        eps = np.zeros((F, K), dtype=np.int64)
        cb = np.zeros((F, K), dtype=np.int64)
        for i, f in enumerate(forms):
            for k, ll, c in f.coef:
                if ll == a:
                    eps[i, k] += c
                elif ll == b:
                    eps[i, k] -= c
                    cb[i, k] += c
        size_a = self._size[a]
        size_b = self._size[b]
        n_lo = lo[:, a] + lo[:, b]
        n_hi = np.minimum(cp, hi[:, a] + hi[:, b])
        sum_lo_a, sum_lo_b = int(lo[:, a].sum()), int(lo[:, b].sum())
        row_lo = [int(x) for x in lo.sum(axis=1)]
        # forced kinds: x_k = alpha*n' + beta
        f_alpha = np.zeros(K, dtype=np.int64)
        f_beta = np.zeros(K, dtype=np.int64)
        forced = np.zeros(K, dtype=bool)
        groups: dict[Any, list[int]] = {}
        bounds: dict[int, tuple[list[int], list[int]]] = {}
        for k in range(K):
            vals = list(range(int(n_lo[k]), int(n_hi[k]) + 1))
            if not vals:
                raise self._fail(f"merging {self._locs[a]} into {self._locs[b]}")
            la, ha, lb, hb = int(lo[k, a]), int(hi[k, a]), int(lo[k, b]), int(hi[k, b])
            # an upper bound no smaller than the location's size is implied by
            # the sizes (the x_k add up to size_a, the rest to size_b)
            # (so is one no smaller than the size minus the other kinds' minimums,
            # or than the copies not known to be elsewhere): lower bounds are kept
            big_k = int(cp[k]) + 1
            if ha >= min(size_a - (sum_lo_a - la), int(cp[k]) - (row_lo[k] - la)):
                ha = big_k
            if hb >= min(size_b - (sum_lo_b - lb), int(cp[k]) - (row_lo[k] - lb)):
                hb = big_k
            lk = [max(la, v - hb) for v in vals]
            uk = [min(ha, v - lb) for v in vals]
            if lk == uk and _linear(vals, lk) is not None:
                al, be = _linear(vals, lk)  # type: ignore[misc]
                forced[k] = True
                f_alpha[k], f_beta[k] = al, be
                continue
            ek = tuple(int(e) for e in eps[:, k])
            lin_l, lin_u = _linear(vals, lk), _linear(vals, uk)
            if lin_l is not None and lin_u is not None:
                key: Any = (ek, lin_l[0], lin_u[0])
                groups.setdefault(key, []).append(k)
                bounds[k] = (lk, uk)
            else:
                groups[("single", k)] = [k]
                bounds[k] = (lk, uk)
        # rewritten forms (functions of the merged column b)
        new_forms: list[_Form] = []
        for i, f in enumerate(forms):
            cells: dict[tuple[int, int], int] = {}
            off = f.offset
            for k, ll, c in f.coef:
                if ll != a and ll != b:
                    cells[(k, ll)] = cells.get((k, ll), 0) + c
            for k in range(K):
                c = int(cb[i, k])
                if forced[k]:
                    c += int(eps[i, k] * f_alpha[k])
                    off += int(eps[i, k] * f_beta[k])
                if c:
                    cells[(k, b)] = cells.get((k, b), 0) + c
            new_forms.append(_Form.make(cells, off))
        f_forced = _Form.make(
            {(k, b): int(f_alpha[k]) for k in range(K) if forced[k] and f_alpha[k]},
            int(f_beta[forced].sum()),
        )
        # update the cells before building tables (ranges use the new bounds)
        self._lo[:, b] = n_lo
        self._hi[:, b] = n_hi
        self._lo[:, a] = 0
        self._hi[:, a] = 0
        self._size[b] += size_a
        self._size[a] = 0
        allowed_b = [k for k in range(K) if n_hi[k] > 0]

        def count_form(ks: list[int], scale: int = 1, const: int = 0) -> _Form:
            """``scale * (copies of ks in b) + const``, written over the shorter kind list."""
            if scale == 0:
                return _Form((), const)
            in_g = set(ks)
            if len(ks) * 2 > len(allowed_b):
                comp = {(k, b): -scale for k in allowed_b if k not in in_g}
                return _Form.make(comp, const + scale * self._size[b])
            return _Form.make({(k, b): scale for k in ks}, const)

        # each latent group: its eps vector and bounds (linear forms, or tables)
        gkeys = list(groups)
        geps = {}
        lin: dict[Any, tuple[_Form, _Form]] = {}
        tab: dict[Any, tuple[_Form, np.ndarray, np.ndarray, int]] = {}
        for key in gkeys:
            ks = groups[key]
            if key[0] == "single":
                k = ks[0]
                lk, uk = bounds[k]
                geps[key] = eps[:, k]
                tab[key] = (
                    _Form.make({(k, b): 1}),
                    np.asarray(lk, dtype=np.int64),
                    np.asarray(uk, dtype=np.int64),
                    int(n_lo[k]),
                )
            else:
                ek, sl, su = key
                geps[key] = np.asarray(ek, dtype=np.int64)
                bl = sum(bounds[k][0][0] - sl * int(n_lo[k]) for k in ks)
                bu = sum(bounds[k][1][0] - su * int(n_lo[k]) for k in ks)
                lin[key] = (count_form(ks, sl, bl), count_form(ks, su, bu))
        dep = [g for g in gkeys if np.any(geps[g] != 0)]
        slack = [g for g in gkeys if g not in dep]
        # the slack groups enter only through the total: add their bounds up.
        # A side of Hall's condition that cannot bind (judged from ranges) is
        # left out; a binding side with a bound that is not linear in the
        # group's count is dropped soundly (the knowledge is then not exact).
        t_lo, t_hi = self._form_range(self._fold(f_forced))
        t_min, t_max = size_a - t_hi, size_a - t_lo
        dep_umax = sum(min(size_a, int(max(_gmax(g, groups, bounds, 1)))) for g in dep)
        s_lmax = sum(max(_gmax(g, groups, bounds, 0)) for g in slack)
        s_umin = sum(min(_gmax(g, groups, bounds, 1, lowest=True)) for g in slack)
        lower_free = s_lmax <= t_min - dep_umax
        upper_free = s_umin >= t_max
        l_parts: list[_Form] = []
        u_parts: list[_Form] = []
        s_tab: list[Any] = []
        for g in slack:
            if g in lin:
                l_parts.append(lin[g][0])
                u_parts.append(lin[g][1])
                continue
            k = groups[g][0]
            lk, uk = bounds[k]
            vals = list(range(int(n_lo[k]), int(n_lo[k]) + len(lk)))
            ll_, ul_ = _linear(vals, lk), _linear(vals, uk)
            if (ll_ is None and not lower_free) or (ul_ is None and not upper_free):
                s_tab.append(g)  # bounds read from tables, one axis per such kind
                continue
            if ll_ is not None:
                l_parts.append(_Form.make({(k, b): ll_[0]} if ll_[0] else {}, ll_[1]))
            if ul_ is not None:
                u_parts.append(_Form.make({(k, b): ul_[0]} if ul_[0] else {}, ul_[1]))
        if s_tab and not dep:
            probe = [tab[g][0] for g in s_tab] + l_parts + u_parts + [f_forced]
            if self._box_size(probe) > self.max_table:
                # too many kinds with such bounds: drop their side soundly
                self.relaxations += 1
                for g in s_tab:
                    k = groups[g][0]
                    lk, uk = bounds[k]
                    vals = list(range(int(n_lo[k]), int(n_lo[k]) + len(lk)))
                    ll_, ul_ = _linear(vals, lk), _linear(vals, uk)
                    if ll_ is not None:
                        l_parts.append(_Form.make({(k, b): ll_[0]} if ll_[0] else {}, ll_[1]))
                    else:
                        lower_free = True
                    if ul_ is not None:
                        u_parts.append(_Form.make({(k, b): ul_[0]} if ul_[0] else {}, ul_[1]))
                    else:
                        upper_free = True
                s_tab = []
        slack_l = _sum_forms(l_parts) if not lower_free else _Form((), 0)
        slack_u = _sum_forms(u_parts) if not upper_free else _Form((), 10**5)
        preds: list[_Pred] = list(rest)
        if not dep and not s_tab:
            # the old constraints do not see the split: rewrite them; Hall's
            # condition on the total is two linear constraints
            pos = 0
            for p in touched:
                preds.append(_Pred(tuple(new_forms[pos : pos + len(p.forms)]), p.low, p.table))
                pos += len(p.forms)
            if not lower_free:
                preds.append(_interval_pred(_sum_forms([slack_l, f_forced]), -(10**6), size_a))
            if not upper_free:
                preds.append(_interval_pred(_sum_forms([slack_u, f_forced]), size_a, 10**6))
            self._preds = preds
            return
        # constraints that see the split are joined with it; the others are rewritten
        pos = 0
        joined: list[tuple[_Pred, int, int]] = []
        jforms: list[_Form] = []
        E_rows: list[np.ndarray] = []
        for p in touched:
            nf = new_forms[pos : pos + len(p.forms)]
            rows = eps[pos : pos + len(p.forms)]
            pos += len(p.forms)
            sees = any(np.any(rows[:, groups[g]] != 0) for g in dep)
            if sees:
                joined.append((p, len(jforms), len(jforms) + len(nf)))
                jforms.extend(nf)
                E_rows.extend(
                    np.asarray([geps[g][pos - len(p.forms) + i] for g in dep], dtype=np.int64)
                    for i in range(len(nf))
                )
            else:
                preds.append(_Pred(tuple(nf), p.low, p.table))
        D = len(dep)
        E = np.asarray(E_rows, dtype=np.int64).reshape(len(jforms), D)
        F0 = len(jforms)
        # bound forms of the dependent groups, then the slack and the total
        bforms: list[_Form] = []
        for g in dep:
            if g in lin:
                bforms.extend(lin[g])
            else:
                bforms.append(tab[g][0])
        stabs = [tab[g] for g in s_tab]
        for t in stabs:
            bforms.append(t[0])
        all_forms = tuple(jforms) + tuple(bforms) + (slack_l, slack_u, f_forced)
        big = 10**6

        def tab_bounds(
            t: tuple[_Form, np.ndarray, np.ndarray, int], n: np.ndarray
        ) -> tuple[np.ndarray, np.ndarray]:
            _, lt, ut, base = t
            i = n - base
            ok = (i >= 0) & (i < len(lt))
            ic = np.clip(i, 0, len(lt) - 1)
            return np.where(ok, lt[ic], big), np.where(ok, ut[ic], -big)

        def exists(vals: np.ndarray) -> np.ndarray:
            S = len(vals)
            col = F0
            Ls, Us = [], []
            for g in dep:
                if g in lin:
                    Ls.append(vals[:, col])
                    Us.append(vals[:, col + 1])
                    col += 2
                else:
                    lo_g, up_g = tab_bounds(tab[g], vals[:, col])
                    Ls.append(lo_g)
                    Us.append(up_g)
                    col += 1
            sl = np.zeros(S, dtype=np.int64)
            su = np.zeros(S, dtype=np.int64)
            for t in stabs:
                lo_g, up_g = tab_bounds(t, vals[:, col])
                sl += lo_g
                su += up_g
                col += 1
            sl = sl + vals[:, col]
            su = su + vals[:, col + 1]
            target = size_a - vals[:, col + 2]
            Lm = np.stack(Ls, axis=1) if D else np.zeros((S, 0), dtype=np.int64)
            Um = np.stack(Us, axis=1) if D else np.zeros((S, 0), dtype=np.int64)
            ok = np.zeros(S, dtype=bool)
            if S == 0:
                return ok
            ranges = [
                range(max(0, int(Lm[:, d].min())), min(size_a, int(Um[:, d].max())) + 1)
                for d in range(D)
            ]
            for xs in itertools.product(*ranges):
                x = np.asarray(xs, dtype=np.int64)
                rest_x = target - int(x.sum())
                good = np.all((Lm <= x) & (x <= Um), axis=1) & (sl <= rest_x) & (rest_x <= su) & ~ok
                idx = np.flatnonzero(good)
                if not idx.size:
                    continue
                base = vals[idx, :F0] + (E @ x)[None, :]
                acc = np.ones(len(idx), dtype=bool)
                for p, s0, s1 in joined:
                    acc &= p.accept(base[:, s0:s1])
                ok[idx[acc]] = True
            return ok

        if self._box_size(all_forms) > self.max_table:
            raise _TooLarge(
                max((j[0] for j in joined), key=lambda p: p.table.size) if joined else None
            )
        pred = self._table_pred(all_forms, exists)
        if pred is not None:
            preds.append(pred)
        self._preds = preds

    def _box_size(self, forms: Iterable[_Form]) -> int:
        """Value combinations of the distinct forms (after folding)."""
        seen: dict[tuple[tuple[int, int, int], ...], int] = {}
        for f in forms:
            g = self._fold(f)
            if g.coef not in seen:
                lo_v, hi_v = self._form_range(g)
                seen[g.coef] = hi_v - lo_v + 1
        size = 1
        for n in seen.values():
            size *= max(n, 1)
        return size

    def _form_range(self, f: _Form) -> tuple[int, int]:
        """Bounds of a form's value from the cell bounds (ignoring joint constraints)."""
        lo_v = hi_v = f.offset
        by_kind: dict[int, dict[int, int]] = {}
        for k, ll, c in f.coef:
            by_kind.setdefault(k, {})[ll] = c
        for k, cs in by_kind.items():
            lo_k, hi_k = self._lo[k], self._hi[k]
            base = sum(c * int(lo_k[ll]) for ll, c in cs.items())
            r = int(self._copies[k]) - int(lo_k.sum())
            # distribute the r free copies over cells: coefficient 0 outside the form
            caps = [(c, int(hi_k[ll] - lo_k[ll])) for ll, c in cs.items()]
            outside = int((hi_k - lo_k).sum()) - sum(cp for _, cp in caps)
            caps.append((0, outside))
            mn = mx = base
            left = r
            for c, cap in sorted(caps):
                t = min(cap, left)
                mn += c * t
                left -= t
            left = r
            for c, cap in sorted(caps, reverse=True):
                t = min(cap, left)
                mx += c * t
                left -= t
            lo_v += mn
            hi_v += mx
        return lo_v, hi_v

    def _table_pred(
        self, forms: tuple[_Form, ...], fn: Callable[[np.ndarray], np.ndarray]
    ) -> _Pred | None:
        """Tabulate ``fn`` over the possible values of the forms (None if always true).

        Forms with the same cells share one axis (their values differ by a
        constant); axes the result does not depend on are dropped.
        """
        folded = [self._fold(f) for f in forms]
        index: dict[tuple[tuple[int, int, int], ...], int] = {}
        ubase: list[int] = []
        ucoef: list[tuple[tuple[int, int, int], ...]] = []
        mapping: list[tuple[int, int]] = []
        for f in folded:
            u = index.get(f.coef)
            if u is None:
                u = index[f.coef] = len(ubase)
                ubase.append(f.offset)
                ucoef.append(f.coef)
            mapping.append((u, f.offset - ubase[u]))
        uforms = [_Form(c, o) for c, o in zip(ucoef, ubase, strict=True)]
        ranges = [self._form_range(f) for f in uforms]
        shape = tuple(hi - lo + 1 for lo, hi in ranges)
        if any(x <= 0 for x in shape):
            raise self._fail("a joint constraint")
        size = int(np.prod(shape, dtype=np.int64)) if shape else 1
        if size > self.max_table:
            raise _TooLarge(None)
        grid = np.indices(shape).reshape(len(shape), -1).T + np.asarray(
            [lo for lo, _ in ranges], dtype=np.int64
        )
        grid = grid.reshape(size, len(shape)).astype(np.int64)
        vals = np.stack([grid[:, u] + d for u, d in mapping], axis=1) if mapping else grid
        ok = np.asarray(fn(vals), dtype=bool).reshape(shape)
        if ok.all():
            return None
        if not ok.any():
            raise self._fail("a joint constraint")
        keep = []
        for d in range(ok.ndim):
            first = np.take(ok, [0], axis=d)
            if not (ok == first).all():
                keep.append(d)
        for d in reversed(range(ok.ndim)):
            if d not in keep:
                ok = np.take(ok, 0, axis=d)
        pred = _Pred(tuple(uforms[d] for d in keep), tuple(ranges[d][0] for d in keep), ok)
        return self._shrink(pred)

    def _fold(self, f: _Form) -> _Form:
        """Canonical form: known cells in the offset, each column written shortest.

        The cells of a column with unknown counts always add up to the same
        number (the location's size minus its known cards), so a column's
        most common coefficient can be moved into the offset; a form covering
        a whole column becomes a constant.
        """
        fixed = self._lo == self._hi
        off = f.offset
        by_col: dict[int, dict[int, int]] = {}
        for k, ll, c in f.coef:
            if fixed[k, ll]:
                off += c * int(self._lo[k, ll])
            else:
                col = by_col.setdefault(ll, {})
                col[k] = col.get(k, 0) + c
        keep: list[tuple[int, int, int]] = []
        for ll, col in by_col.items():
            var = np.flatnonzero(~fixed[:, ll])
            n_var = len(var)
            counts: dict[int, int] = {}
            for c in col.values():
                counts[c] = counts.get(c, 0) + 1
            zeros = n_var - len(col)
            best, best_n = 0, zeros
            for c, n in counts.items():
                if n > best_n:
                    best, best_n = c, n
            if best:
                s_l = self._size[ll] - int(self._lo[fixed[:, ll], ll].sum())
                off += best * s_l
                for k in var.tolist():
                    c = col.get(k, 0) - best
                    if c:
                        keep.append((k, ll, c))
            else:
                keep.extend((k, ll, c) for k, c in col.items() if c)
        return _Form(tuple(sorted(keep)), off)

    def _shrink(self, p: _Pred) -> _Pred | None:
        """Restrict a table to the possible values; drop forms that are constant."""
        forms = [self._fold(f) for f in p.forms]
        # folding moves known cells into the offsets; form values are unchanged
        table = p.table
        low = list(p.low)
        ranges = [self._form_range(f) for f in forms]
        sl = []
        new_low = []
        for d, (rlo, rhi) in enumerate(ranges):
            t0 = max(rlo, low[d])
            t1 = min(rhi, low[d] + table.shape[d] - 1)
            if t1 < t0:
                sl.append(slice(0, 0))
                new_low.append(t0)
                continue
            sl.append(slice(t0 - low[d], t1 - low[d] + 1))
            new_low.append(t0)
        sub = table[tuple(sl)]
        if sub.size == 0 or not sub.any():
            raise self._fail("a joint constraint")
        # a range may be wider than the table: values outside are rejected
        full_shape = tuple(rhi - rlo + 1 for rlo, rhi in ranges)
        if sub.shape != full_shape:
            box = np.zeros(full_shape, dtype=bool)
            ins = tuple(
                slice(new_low[d] - ranges[d][0], new_low[d] - ranges[d][0] + sub.shape[d])
                for d in range(len(ranges))
            )
            box[ins] = sub
            sub = box
            new_low = [r[0] for r in ranges]
        if sub.all():
            return None
        keep = [d for d in range(len(forms)) if sub.shape[d] > 1]
        if len(keep) < len(forms):
            sub = sub.reshape(tuple(sub.shape[d] for d in keep))
            forms = [forms[d] for d in keep]
            new_low = [new_low[d] for d in keep]
        return _Pred(tuple(forms), tuple(new_low), sub)

    # -------------------------------------------------------- normalisation
    def _settle(self) -> None:
        """Propagate cell bounds to a fixpoint, then simplify the constraints."""
        lo, hi, cp = self._lo, self._hi, self._copies
        size = np.asarray(self._size, dtype=np.int64)
        for _ in range(100):
            old_lo, old_hi = lo.copy(), hi.copy()
            np.minimum(hi, cp[:, None], out=hi)
            rs_lo, rs_hi = lo.sum(1, keepdims=True), hi.sum(1, keepdims=True)
            np.minimum(hi, cp[:, None] - (rs_lo - lo), out=hi)
            np.maximum(lo, cp[:, None] - (rs_hi - hi), out=lo)
            cs_lo, cs_hi = lo.sum(0, keepdims=True), hi.sum(0, keepdims=True)
            np.minimum(hi, size[None, :] - (cs_lo - lo), out=hi)
            np.maximum(lo, size[None, :] - (cs_hi - hi), out=lo)
            np.maximum(hi, 0, out=hi)
            if (lo > hi).any():
                k, ll = np.argwhere(lo > hi)[0]
                raise self._fail(f"{self.deck.name(int(k))} in {self._locs[int(ll)]}")
            if np.array_equal(lo, old_lo) and np.array_equal(hi, old_hi):
                break
        if (lo.sum(0) > size).any() or (hi.sum(0) < size).any():
            raise self._fail("the location sizes")
        if (lo.sum(1) > cp).any() or (hi.sum(1) < cp).any():
            raise self._fail("the card counts")
        preds = []
        for p in self._preds:
            q = self._shrink(p)
            if q is not None:
                preds.append(q)
        self._preds = preds

    # ================================================================ queries
    def _engine(
        self,
        *,
        exact: bool = False,
        distinct: bool = False,
        moments: bool = False,
        stages: bool = False,
    ) -> _Engine:
        """The (cached) dynamic programme; ``moments`` for marginals, ``stages`` for sampling."""
        for mo, sg in ((moments, stages), (True, stages), (moments, True), (True, True)):
            eng = self._cache.get(("engine", exact, distinct, mo, sg))
            if eng is not None:
                return eng
        eng = self._build(exact=exact, distinct=distinct, moments=moments, stages=stages)
        self._cache[("engine", exact, distinct, moments, stages)] = eng
        return eng

    def _build(self, **kw: Any) -> _Engine:
        """Build a dynamic programme, relaxing soundly if a component is too large.

        A component whose enumeration would pass :attr:`max_states` makes the
        knowledge drop the component's largest joint constraint (the possible
        deals become a superset, :attr:`exact` turns False) and retry.
        """
        while True:
            try:
                return _Engine(
                    self._copies,
                    self._lo,
                    self._hi,
                    self._size,
                    self._preds,
                    max_edges=self.max_states,
                    **kw,
                )
            except _TooLarge as big:
                victim = big.pred
                real = [p for p in self._preds if victim is not None and p.table is victim.table]
                if not real:
                    if not self._preds:
                        raise InvalidParameterError(
                            "this deal needs a larger max_states to answer"
                        ) from None
                    real = [max(self._preds, key=lambda p: p.table.size)]
                self._preds = [p for p in self._preds if p is not real[0]]
                self.relaxations += 1
                self._cache.clear()

    def count(self) -> int:
        """The exact number of consistent deals (copies of a card are interchangeable).

        Examples
        --------
        >>> from games.cards import Deck
        >>> k = DealKnowledge(Deck.standard(), {"a": 13, "b": 13, "c": 13, "d": 13})
        >>> k.count() == math.factorial(52) // math.factorial(13) ** 4
        True
        """
        return int(self._engine(exact=True, distinct=True).total())

    def marginals(self, *, exact: bool = False) -> np.ndarray:
        """Expected copies of every card in every location.

        Returns
        -------
        numpy.ndarray
            Shape ``(len(deck), len(locations))``, columns in the order of
            :attr:`locations`.  For a deck without copies the entries are the
            probabilities that each card lies in each location.  With
            ``exact=True`` the entries are :class:`~fractions.Fraction`.
        """
        key = ("marg", exact)
        got = self._cache.get(key)
        if got is None:
            got = self._engine(exact=exact, moments=True).marginals()
            got = got[:, [self._li[n] for n in self.locations]]
            self._cache[key] = got
        return got.copy()

    def probability(
        self, card: str | int, location: str, *, exact: bool = False
    ) -> float | Fraction:
        """Probability that ``location`` holds at least one copy of ``card``."""
        k = self.deck.index(card)
        ll = self._loc(location)
        if self.deck.copies[k] == 1:
            m = self.marginals(exact=exact)
            v = m[k, self.locations.index(self._locs[ll])]
            return v if exact else float(v)
        dist = self.count_distribution([k], location, exact=exact)
        return 1 - dist[0]

    def where(self, card: str | int) -> dict[str, float]:
        """Expected copies of ``card`` in each location with a positive chance."""
        k = self.deck.index(card)
        m = self.marginals()
        return {n: float(m[k, i]) for i, n in enumerate(self.locations) if m[k, i] > 0}

    def count_distribution(
        self, cards: CardsLike, locations: str | Iterable[str], *, exact: bool = False
    ) -> list[Any]:
        """Distribution of the number of copies of ``cards`` held by ``locations``.

        Returns
        -------
        list
            ``dist[j]`` is the probability of exactly ``j`` copies, for ``j``
            from 0 to the number of copies of the card set.

        Examples
        --------
        >>> from games.cards import Deck
        >>> deck = Deck.ranks(13, copies=4)
        >>> k = DealKnowledge(deck, {"me": 13, "p1": 13, "p2": 13, "p3": 13})
        >>> k.reveal("me", ["7"] * 3 + [str(r) for r in range(11) if r != 7])
        >>> [round(p, 4) for p in k.count_distribution("7", "p1")]
        [0.6667, 0.3333, 0.0, 0.0, 0.0]
        """
        ks = self._cardset(cards)
        ls = self._locset(locations)
        form = _Form.make({(k, ll): 1 for k in ks for ll in ls})
        total = sum(self.deck.copies[k] for k in ks)
        eng = self._build(exact=exact, distinct=False, query=form, moments=False, stages=False)
        dist = eng.query_distribution()
        out: list[Any] = [Fraction(0) if exact else 0.0 for _ in range(total + 1)]
        for v, p in dist.items():
            if 0 <= v <= total:
                out[v] = p if exact else float(p)
        return out

    def probability_at_least(
        self, cards: CardsLike, locations: str | Iterable[str], k: int, *, exact: bool = False
    ) -> float | Fraction:
        """Probability that ``locations`` hold at least ``k`` copies of ``cards``."""
        d = self.count_distribution(cards, locations, exact=exact)
        return sum(d[max(k, 0) :], Fraction(0) if exact else 0.0)

    # ---------------------------------------------------- formulas over cards
    def _cell_of_atom(self, a: Any) -> tuple[int, int]:
        from kripke.errors import UnknownAtomError

        if a.name != "has" or len(a.args) != 2:
            raise UnknownAtomError(
                f"{a.key} is not a card atom; card atoms read has(location, card)"
            )
        loc, card = a.args
        try:
            return self.deck.index(card), self._loc(loc)
        except (CardParseError, InvalidParameterError) as exc:
            raise UnknownAtomError(f"{a.key}: {exc}") from None

    def _weight_given(
        self, cells: dict[tuple[int, int], bool], exact: bool, base: float = 0.0
    ) -> Any:
        """Weight of the deals with the given cells occupied or empty.

        Exact mode: the exact integer weight.  Float mode: the weight divided
        by ``exp(base)``.
        """
        lo, hi = self._lo.copy(), self._hi.copy()
        for (k, ll), truth in cells.items():
            if truth:
                lo[k, ll] = max(lo[k, ll], 1)
            else:
                hi[k, ll] = 0
        probe = self.copy()
        probe._lo, probe._hi = lo, hi
        try:
            probe._settle()
        except InconsistentKnowledgeError:
            return 0
        eng = probe._engine(exact=exact)
        if exact:
            return eng.total()
        lt = eng.log_total()
        return 0.0 if lt == -math.inf else math.exp(lt - base)

    def probability_of(self, formula: Any, *, exact: bool = False) -> float | Fraction:
        """Probability of a propositional formula over card atoms ``has(location, card)``.

        Parameters
        ----------
        formula : Formula or str
            E.g. ``"has(p2, QS) | has(p3, QS)"``.

        Raises
        ------
        kripke.errors.UnknownAtomError
            If an atom is not a card atom of this deal.
        kripke.errors.KripkeError
            If the formula has knowledge operators (use :meth:`DealState.kripke_model`).
        """
        f = _as_prop(formula)
        eng = self._engine(exact=exact)
        if eng.total() == 0:
            raise self._fail("the observations")
        if exact:
            z = eng.total()
            hit = _shannon(f, self._cell_of_atom, lambda cells: self._weight_given(cells, True))
            return Fraction(hit, z)
        base = eng.log_total()
        hit = _shannon(f, self._cell_of_atom, lambda cells: self._weight_given(cells, False, base))
        return min(1.0, float(hit))

    def possible(self, formula: Any) -> bool:
        """Whether some consistent deal satisfies the propositional ``formula``."""
        f = _as_prop(formula)
        base = self._engine().log_total()
        hit = _shannon(
            f,
            self._cell_of_atom,
            lambda cells: self._weight_given(cells, False, base),
            stop_at_hit=True,
        )
        return bool(hit > 0)

    def knows(self, formula: Any) -> bool:
        """Whether the propositional ``formula`` holds in every consistent deal.

        Examples
        --------
        >>> from games.cards import Deck
        >>> k = DealKnowledge(Deck(["A", "B", "C"]), {"me": 1, "x": 1, "y": 1})
        >>> k.reveal("me", "A")
        >>> k.knows("has(x, B) | has(y, B)"), k.knows("has(x, B)")
        (True, False)
        """
        from kripke.formulas import Not

        return not self.possible(Not(_as_prop(formula)))

    def known_cards(self, location: str) -> tuple[str, ...]:
        """Cards (with their copies) that ``location`` holds in every consistent deal.

        Read from the per-card bounds, so every card listed is surely there;
        a joint constraint can imply more (:meth:`knows` decides exactly).

        Examples
        --------
        >>> from games.cards import Deck
        >>> k = DealKnowledge(Deck.ranks(3, copies=2), {"me": 2, "you": 2, "pile": 2})
        >>> k.reveal("me", "0 1")
        >>> k.move("0", "me", "pile")
        >>> k.known_cards("pile"), k.known_cards("you")
        (('0',), ())
        """
        ll = self._loc(location)
        return tuple(
            self.deck.name(k) for k in range(len(self.deck)) for _ in range(int(self._lo[k, ll]))
        )

    def knows_where(self, card: str | int) -> str | None:
        """The location that surely holds ``card`` (all copies), or ``None``."""
        k = self.deck.index(card)
        m = self.marginals()
        full = [n for i, n in enumerate(self.locations) if m[k, i] >= self.deck.copies[k] - 1e-12]
        return full[0] if full else None

    # --------------------------------------------------------------- sampling
    def sample(self, n: int = 1, *, seed: int | None | np.random.Generator = None) -> np.ndarray:
        """Draw ``n`` consistent deals, exactly from the agent's distribution.

        Returns
        -------
        numpy.ndarray
            Shape ``(n, len(deck), len(locations))``: copies of each card in
            each location.  The draws depend only on this knowledge and the
            seed.
        """
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        if not isinstance(n, int) or n < 0:
            raise InvalidParameterError(f"a number of samples must be an int >= 0, got {n!r}")
        eng = self._engine(stages=True)
        if eng.total() == 0:
            raise self._fail("the observations")
        out = eng.sample(n, rng)
        return out[:, :, [self._li[x] for x in self.locations]]

    def sample_deal(
        self, seed: int | None | np.random.Generator = None
    ) -> dict[str, tuple[str, ...]]:
        """One consistent deal as ``{location: cards}``."""
        arr = self.sample(1, seed=seed)[0]
        out: dict[str, tuple[str, ...]] = {}
        for j, loc in enumerate(self.locations):
            out[loc] = tuple(
                self.deck.name(k) for k in range(len(self.deck)) for _ in range(int(arr[k, j]))
            )
        return out


def _gmax(
    g: Any,
    groups: Mapping[Any, list[int]],
    bounds: Mapping[int, tuple[list[int], list[int]]],
    side: int,
    lowest: bool = False,
) -> list[int]:
    """Largest (or smallest) value of a group's lower (0) or upper (1) bound, as a 1-list."""
    pick = min if lowest else max
    return [sum(pick(bounds[k][side]) for k in groups[g])]


def _linear(xs: Sequence[int], ys: Sequence[int]) -> tuple[int, int] | None:
    """``(a, b)`` with ``y = a*x + b`` on all points (integers), or None."""
    if len(xs) == 1:
        return (0, ys[0])
    a = ys[1] - ys[0]
    b = ys[0] - a * xs[0]
    if all(y == a * x + b for x, y in zip(xs, ys, strict=True)):
        return (a, b)
    return None


# ================================================================== engine
@functools.lru_cache(maxsize=4096)
def _compositions(total: int, caps: tuple[int, ...]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []

    def rec(i: int, left: int, acc: list[int]) -> None:
        if i == len(caps) - 1:
            if left <= caps[i]:
                out.append((*acc, left))
            return
        for v in range(min(left, caps[i]) + 1):
            acc.append(v)
            rec(i + 1, left - v, acc)
            acc.pop()

    if not caps:
        return [()] if total == 0 else []
    rec(0, total, [])
    return out


_SINGLE_CACHE: dict[Any, Any] = {}

#: Components with at most this many option combinations are enumerated at once.
_PRODUCT_LIMIT = 4096


def _product_size(sizes: Iterable[int]) -> int:
    out = 1
    for n in sizes:
        out *= n
        if out > _PRODUCT_LIMIT:
            break
    return out


@functools.lru_cache(maxsize=20000)
def _kind_options(
    r: int,
    copies: int,
    lo_row: tuple[int, ...],
    act_l: tuple[int, ...],
    cap: tuple[int, ...],
    exact: bool,
    distinct: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """Residual allocations of one kind and their weights ``copies!/prod (lo+m)!``."""
    La = len(act_l)
    comps = _compositions(r, cap)
    arr = np.asarray(comps, dtype=np.int64).reshape(len(comps), La)
    if distinct:
        w: list[Any] = [1 if exact else 1.0] * len(comps)
    else:
        base = math.factorial(copies)
        fixed_den = 1
        for ll, x in enumerate(lo_row):
            if ll not in act_l:
                fixed_den *= math.factorial(x)
        w = []
        for c in comps:
            den = fixed_den
            for j, ll in enumerate(act_l):
                den *= math.factorial(lo_row[ll] + c[j])
            w.append(base // den if exact else base / den)
    return arr, np.asarray(w, dtype=object if exact else np.float64)


class _Block:
    """One group of kinds processed together: its terms over location usage."""

    __slots__ = ("kinds", "allocs", "w", "mom", "stages", "final", "term_of_final", "qv")

    def __init__(self) -> None:
        self.kinds: list[int] = []
        self.allocs = np.zeros((0, 0), dtype=np.int64)
        self.w: np.ndarray = np.zeros(0)
        self.mom: np.ndarray = np.zeros((0, 0, 0))
        self.stages: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        self.final: tuple[np.ndarray, np.ndarray] = (np.zeros(0, np.int64), np.zeros(0))
        self.term_of_final = np.zeros(0, dtype=np.int64)
        self.qv: np.ndarray | None = None


class _Engine:
    """Dynamic programme for one information state.

    The residual copies ``m[k, l] = n[k, l] - lo[k, l]`` are distributed over
    the locations with unknown content.  Kinds linked by joint constraints
    form blocks enumerated with their constraint values; every other kind is a
    block of its own; the largest group of unconstrained kinds is summed in
    closed form (a multinomial) at the end.  Blocks are combined by a dense
    dynamic programme over location usage vectors, forwards and backwards,
    which gives the total weight, every block's posterior (marginals) and an
    exact backward sampler.
    """

    def __init__(
        self,
        copies: np.ndarray,
        lo: np.ndarray,
        hi: np.ndarray,
        size: Sequence[int],
        preds: Sequence[_Pred],
        exact: bool,
        distinct: bool,
        query: _Form | None = None,
        *,
        moments: bool = True,
        stages: bool = True,
        max_edges: int = 400_000,
    ):
        self.max_edges = max_edges
        self.exact = exact
        self.distinct = distinct
        self.need_mom = moments
        self.need_stages = stages
        K, L = lo.shape
        self.K, self.L = K, L
        self.lo = lo.copy()
        self.copies = copies
        r = copies - lo.sum(1)
        s = np.asarray(size, dtype=np.int64) - lo.sum(0)
        cap = hi - lo
        self.zero = False
        act_l = [ll for ll in range(L) if s[ll] > 0]
        self.act_l = act_l
        La = len(act_l)
        self.La = La
        s_act = s[act_l]
        self.s_act = s_act
        act_k = [k for k in range(K) if r[k] > 0]
        capA = cap[:, act_l] if La else np.zeros((K, 0), dtype=np.int64)
        if (s < 0).any() or (r < 0).any():
            self.zero = True
        for k in act_k:
            if capA[k].sum() < r[k]:
                self.zero = True
        # weight of the kinds whose every copy is placed
        self.fixed = 1
        self.log_fixed = 0.0
        if not distinct:
            for k in range(K):
                if r[k] == 0:
                    w_k = math.factorial(int(copies[k]))
                    for x in lo[k]:
                        w_k //= math.factorial(int(x))
                    self.fixed *= w_k
            self.log_fixed = math.log(self.fixed)
        # kind options (computed when a block needs them)
        self._lo_full = lo
        self._capA = capA
        self._r = r
        self._opt_cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        # constraints restricted to the residual variables
        lpos = {ll: i for i, ll in enumerate(act_l)}
        folded: list[tuple[_Pred, list[int], list[dict[int, np.ndarray]]]] = []
        qpred: _Pred | None = None
        allp = list(preds)
        if query is not None:
            qpred = _Pred((query,), (-(10**6),), np.ones(1, dtype=bool))
            allp.append(qpred)
        self.query_const: int | None = None
        for p in allp:
            offs = []
            contrib: list[dict[int, np.ndarray]] = []
            kinds: set[int] = set()
            for f in p.forms:
                off = f.offset
                cvec: dict[int, np.ndarray] = {}
                for k, ll, c in f.coef:
                    off += c * int(lo[k, ll])
                    if r[k] > 0 and ll in lpos:
                        v = cvec.setdefault(k, np.zeros(La, dtype=np.int64))
                        v[lpos[ll]] += c
                cvec = {k: v for k, v in cvec.items() if v.any()}
                kinds |= set(cvec)
                offs.append(off)
                contrib.append(cvec)
            if not kinds:
                if p is qpred:
                    self.query_const = offs[0]
                    continue
                if not bool(p.accept(np.asarray([offs], dtype=np.int64))[0]):
                    self.zero = True
                continue
            q = _Pred(tuple(_Form((), o) for o in offs), p.low, p.table)
            folded.append((q, sorted(kinds), contrib))
        # union-find over kinds of constraints
        parent = {k: k for k in act_k}

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for _, ks, _ in folded:
            for k in ks[1:]:
                parent[find(k)] = find(ks[0])
        linked = {k for _, ks, _ in folded for k in ks}
        comps_map: dict[int, list[int]] = {}
        for k in sorted(linked):
            comps_map.setdefault(find(k), []).append(k)
        # terminal free class
        free_groups: dict[tuple[int, ...], list[int]] = {}
        for k in act_k:
            if k in linked or (La and lo[k, act_l].any()):
                continue
            if distinct and r[k] > 1:
                continue
            row = capA[k]
            # a cap no smaller than the location's unknown cards is implied by its size
            if all(c == 0 or c >= min(r[k], s_act[i]) for i, c in enumerate(row)):
                free_groups.setdefault(tuple(int(c > 0) for c in row), []).append(k)
        self.free: list[int] = []
        self.free_mask: tuple[int, ...] = ()
        if free_groups:
            best = max(free_groups, key=lambda m: sum(int(copies[k]) for k in free_groups[m]))
            self.free = free_groups[best]
            self.free_mask = best
        free_set = set(self.free)
        self.r = r
        if not distinct:
            # weights of free kinds: copies!/(known factorials * r!) times a multinomial
            inactive = [x for x in range(L) if x not in act_l]
            for k in self.free:
                c = math.factorial(int(copies[k])) // math.factorial(int(r[k]))
                for x in inactive:
                    c //= math.factorial(int(lo[k, x]))
                self.fixed *= c
            self.log_fixed = math.log(self.fixed)
        # blocks
        self.blocks: list[_Block] = []
        self.query_block: int | None = None
        for ks in comps_map.values():
            cons = [(q, contrib) for q, kk, contrib in folded if kk[0] in ks]
            blk = self._enumerate(ks, cons, qpred)
            if blk is None:
                self.zero = True
                continue
            if blk.qv is not None:
                self.query_block = 0
                self.blocks.insert(0, blk)
            else:
                self.blocks.append(blk)
        for k in act_k:
            if k in linked or k in free_set:
                continue
            blk = self._single(k)
            if blk is None:
                self.zero = True
                continue
            self.blocks.append(blk)
        self._run()

    # ------------------------------------------------------------ enumeration
    def _options(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        got = self._opt_cache.get(k)
        if got is None:
            got = _kind_options(
                int(self._r[k]),
                int(self.copies[k]),
                tuple(int(x) for x in self._lo_full[k]),
                tuple(self.act_l),
                tuple(int(c) for c in self._capA[k]),
                self.exact,
                self.distinct,
            )
            self._opt_cache[k] = got
        return got

    def _single(self, k: int) -> _Block | None:
        """Block of one kind without joint constraints (cached across engines)."""
        key = (
            int(self._r[k]),
            int(self.copies[k]),
            tuple(int(x) for x in self._lo_full[k]),
            tuple(self.act_l),
            tuple(int(c) for c in self._capA[k]),
            tuple(int(x) for x in self.s_act),
            self.exact,
            self.distinct,
        )
        blk = _SINGLE_CACHE.get(key)
        if blk is None:
            opt_arr, ow = self._options(k)
            ok = np.all(opt_arr <= self.s_act, axis=1) if self.La else np.ones(len(opt_arr), bool)
            if not ok.any():
                return None
            idx = np.flatnonzero(ok)
            blk = _Block()
            blk.kinds = [k]
            blk.allocs = opt_arr[idx]
            blk.w = ow[idx]
            blk.mom = (blk.allocs * blk.w[:, None])[:, None, :]
            n = len(idx)
            stage = (np.zeros(n, np.int64), idx, np.arange(n), blk.w, opt_arr)
            blk.stages = [stage]
            blk.final = (np.arange(n), np.asarray(blk.w, dtype=np.float64))
            blk.term_of_final = np.arange(n)
            if len(_SINGLE_CACHE) > 20000:
                _SINGLE_CACHE.clear()
            _SINGLE_CACHE[key] = blk
        if blk.kinds != [k]:
            copy_blk = _Block()
            for attr in _Block.__slots__:
                setattr(copy_blk, attr, getattr(blk, attr))
            copy_blk.kinds = [k]
            return copy_blk
        return blk

    def _enumerate_product(
        self,
        ks: list[int],
        cons: list[tuple[_Pred, list[dict[int, np.ndarray]]]],
        qpred: _Pred | None,
    ) -> _Block | None:
        """Enumerate a small component at once: every combination of its kinds' options.

        The same block as :meth:`_enumerate` (terms over location usage and
        the query value, weights, moments) from a handful of array operations
        instead of one merging stage per kind; its sampling stages are the
        identity on the surviving combinations.
        """
        La = self.La
        exact = self.exact
        dt = object if exact else np.float64
        nk = len(ks)
        opts = [self._options(k) for k in ks]
        sizes = [len(o[0]) for o in opts]
        idx = np.indices(sizes).reshape(nk, -1)
        P = idx.shape[1]
        alloc = np.zeros((P, La), dtype=np.int64)
        for i, (opt_arr, _) in enumerate(opts):
            alloc += opt_arr[idx[i]]
        ok = np.all(alloc <= self.s_act, axis=1) if La else np.ones(P, dtype=bool)
        cols = [(ci, fi) for ci, (q, _) in enumerate(cons) for fi in range(len(q.forms))]
        fv = np.empty((P, len(cols)), dtype=np.int64)
        fv[:] = [cons[ci][0].forms[fi].offset for ci, fi in cols]
        for i, k in enumerate(ks):
            coef = np.zeros((La, len(cols)), dtype=np.int64)
            used = False
            for j, (ci, fi) in enumerate(cols):
                v = cons[ci][1][fi].get(k)
                if v is not None:
                    coef[:, j] = v
                    used = True
            if used:
                fv += (opts[i][0] @ coef)[idx[i]]
        is_q = [qpred is not None and q.table is qpred.table for q, _ in cons]
        for ci, (q, _) in enumerate(cons):
            if not is_q[ci]:
                js = [j for j, (c2, _) in enumerate(cols) if c2 == ci]
                ok &= q.accept(fv[:, js])
        rows = np.flatnonzero(ok)
        if len(rows) == 0:
            return None
        idx, alloc, fv = idx[:, rows], alloc[rows], fv[rows]
        n = len(rows)
        w = opts[0][1][idx[0]]
        for i in range(1, nk):
            w = w * opts[i][1][idx[i]]
        qcol = next((j for j, (ci, _) in enumerate(cols) if is_q[ci]), None)
        keycols = alloc if qcol is None else np.concatenate([alloc, fv[:, qcol : qcol + 1]], axis=1)
        uniq, term = _unique_rows(keycols)
        T = len(uniq)
        tw = np.zeros(T, dtype=dt)
        if exact:
            tw[:] = 0
        np.add.at(tw, term, w)
        tm = np.zeros((T, nk if self.need_mom else 0, La), dtype=dt)
        if self.need_mom:
            if exact:
                tm[...] = 0
            m = np.stack([opts[i][0][idx[i]] for i in range(nk)], axis=1) * w[:, None, None]
            np.add.at(tm, term, m)
        blk = _Block()
        blk.kinds = list(ks)
        blk.allocs = uniq[:, :La]
        blk.w = tw
        blk.mom = tm
        if self.need_stages:
            same = np.arange(n)
            ones = np.ones(n)
            blk.stages = [(same, idx[i], same, ones, opts[i][0]) for i in range(nk)]
            blk.final = (same, np.asarray(w, dtype=np.float64))
        blk.term_of_final = term
        blk.qv = uniq[:, La] if qcol is not None else None
        return blk

    def _enumerate(
        self,
        ks: list[int],
        cons: list[tuple[_Pred, list[dict[int, np.ndarray]]]],
        qpred: _Pred | None,
    ) -> _Block | None:
        """Enumerate a component: allocations of its kinds with the constraint values.

        Each constraint is applied (and its values forgotten) as soon as the
        last kind it involves is placed; kinds are ordered so that
        constraints close early.
        """
        if _product_size(self._options(k)[0].shape[0] for k in ks) <= _PRODUCT_LIMIT:
            return self._enumerate_product(ks, cons, qpred)
        La = self.La
        exact = self.exact
        dt = object if exact else np.float64
        # order the kinds: constraints with few kinds first, their kinds together
        members = [sorted({k for c in contrib for k in c}) for _, contrib in cons]
        order: list[int] = []
        for i in sorted(range(len(cons)), key=lambda i: len(members[i])):
            for k in members[i]:
                if k not in order:
                    order.append(k)
        for k in ks:
            if k not in order:
                order.append(k)
        ks = order
        pos = {k: i for i, k in enumerate(ks)}
        is_q = [qpred is not None and q.table is qpred.table for q, _ in cons]
        close_at = [max(pos[k] for k in m) if m else -1 for m in members]
        # columns of the open constraints' forms
        cols: list[tuple[int, int]] = []  # (constraint index, form index)
        for ci, (q, _) in enumerate(cons):
            for fi in range(len(q.forms)):
                cols.append((ci, fi))
        fv = np.asarray([[cons[ci][0].forms[fi].offset for ci, fi in cols]], dtype=np.int64)
        fv = fv.reshape(1, len(cols))
        alloc = np.zeros((1, La), dtype=np.int64)
        w = np.asarray([1 if exact else 1.0], dtype=dt)
        nk = len(ks)
        need_mom = self.need_mom
        mom = np.zeros((1, nk if need_mom else 0, La), dtype=dt)
        if exact:
            mom[...] = 0
        stages = []
        s_act = self.s_act
        for i, k in enumerate(ks):
            opt_arr, ow = self._options(k)
            ofv = np.zeros((len(opt_arr), len(cols)), dtype=np.int64)
            for j, (ci, fi) in enumerate(cols):
                v = cons[ci][1][fi].get(k)
                if v is not None:
                    ofv[:, j] = opt_arr @ v
            S, n_o = len(alloc), len(opt_arr)
            if S * n_o > self.max_edges:
                real = [q for ci, (q, _) in enumerate(cons) if not is_q[ci]]
                raise _TooLarge(max(real, key=lambda q: q.table.size) if real else None)
            p_idx = np.repeat(np.arange(S), n_o)
            o_idx = np.tile(np.arange(n_o), S)
            a_e = alloc[p_idx] + opt_arr[o_idx]
            ok = np.all(a_e <= s_act, axis=1) if La else np.ones(len(a_e), dtype=bool)
            p_idx, o_idx, a_e = p_idx[ok], o_idx[ok], a_e[ok]
            if len(p_idx) == 0:
                return None
            f_e = fv[p_idx] + ofv[o_idx]
            # constraints whose last kind this is: filter, then forget their values
            closing = [ci for ci in range(len(cons)) if close_at[ci] == i and not is_q[ci]]
            if closing:
                keep_e = np.ones(len(p_idx), dtype=bool)
                for ci in closing:
                    js = [j for j, (c2, _) in enumerate(cols) if c2 == ci]
                    keep_e &= cons[ci][0].accept(f_e[:, js])
                p_idx, o_idx, a_e, f_e = (
                    p_idx[keep_e],
                    o_idx[keep_e],
                    a_e[keep_e],
                    f_e[:, :][keep_e],
                )
                if len(p_idx) == 0:
                    return None
                remain = [j for j, (c2, _) in enumerate(cols) if c2 not in closing]
                cols = [cols[j] for j in remain]
                f_e = f_e[:, remain]
            w_e = w[p_idx] * ow[o_idx]
            if need_mom:
                m_e = mom[p_idx] * ow[o_idx][:, None, None]
                m_e[:, i, :] = m_e[:, i, :] + w_e[:, None] * opt_arr[o_idx]
            if i == 0 and nk == 1 and not cols:
                uniq = a_e
                child = np.arange(len(a_e))
            else:
                keys = np.concatenate([a_e, f_e], axis=1)
                uniq, child = _unique_rows(keys)
            n_new = len(uniq)
            w_new = np.zeros(n_new, dtype=dt)
            m_new = np.zeros((n_new, nk if need_mom else 0, La), dtype=dt)
            if exact:
                w_new[:] = 0
                m_new[...] = 0
            np.add.at(w_new, child, w_e)
            if need_mom:
                np.add.at(m_new, child, m_e)
            if self.need_stages:
                stages.append((p_idx, o_idx, child, w_e, opt_arr))
            alloc = uniq[:, :La]
            fv = uniq[:, La:]
            w, mom = w_new, m_new
        # every constraint closed at its last kind; only the query stays open
        qcol = next((j for j, (ci, _) in enumerate(cols) if is_q[ci]), None)
        fin = np.arange(len(alloc))
        keycols = alloc
        if qcol is not None:
            keycols = np.concatenate([alloc, fv[:, qcol : qcol + 1]], axis=1)
        uniq, term = _unique_rows(keycols)
        T = len(uniq)
        tw = np.zeros(T, dtype=dt)
        tm = np.zeros((T, nk if need_mom else 0, La), dtype=dt)
        if exact:
            tw[:] = 0
            tm[...] = 0
        np.add.at(tw, term, w)
        if need_mom:
            np.add.at(tm, term, mom)
        blk = _Block()
        blk.kinds = ks
        blk.allocs = uniq[:, :La]
        blk.w = tw
        blk.mom = tm
        blk.stages = stages
        blk.final = (fin, np.asarray(w, dtype=np.float64))
        blk.term_of_final = term
        blk.qv = uniq[:, La] if qcol is not None else None
        return blk

    # ------------------------------------------------------------ global DP
    def _run(self) -> None:
        La = self.La
        exact = self.exact
        dt = object if exact else np.float64
        if self.zero:
            self.Z: Any = 0
            self.log_z = -math.inf
            return
        if La == 0:
            self.elim = -1
            shape: tuple[int, ...] = ()
        else:
            self.elim = int(np.argmax(self.s_act))
            shape = tuple(1 if i == self.elim else int(self.s_act[i]) + 1 for i in range(La))
        self.shape = shape
        zero_t = np.zeros(shape, dtype=dt)
        if exact:
            zero_t[...] = 0
        # terminal table: the free class in closed form (a multinomial)
        term = zero_t.copy()
        ls_term = 0.0
        if self.free:
            total = sum(int(self.r[k]) for k in self.free)
            grids = np.indices(shape).reshape(La, -1) if La else np.zeros((0, 1), np.int64)
            v = self.s_act[:, None] - grids
            if La:
                v[self.elim] = total - (v.sum(axis=0) - v[self.elim])
            valid = np.all(v >= 0, axis=0)
            for i in range(La):
                if not self.free_mask[i]:
                    valid &= v[i] == 0
            if not La:
                valid &= total == 0
            flat = term.reshape(-1)
            if exact:
                fact = [math.factorial(i) for i in range(total + 1)]
                for j in np.flatnonzero(valid):
                    den = 1
                    for x in v[:, j]:
                        den *= fact[int(x)]
                    flat[j] = fact[total] // den
            else:
                lf = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, total + 1)))])
                logw = lf[total] - lf[np.clip(v, 0, total)].sum(axis=0)
                if valid.any():
                    ls_term = float(logw[valid].max())
                    flat[valid] = np.exp(logw[valid] - ls_term)
            term = flat.reshape(shape)
        else:
            idx = tuple(0 if i == self.elim else int(self.s_act[i]) for i in range(La))
            term[idx] = 1 if exact else 1.0
        self.shifts = []
        self._slice_cache: dict[tuple[int, ...], tuple[Any, Any]] = {}
        self.slc: list[list[tuple[Any, Any]]] = []
        for blk in self.blocks:
            a = blk.allocs.copy()
            if La:
                a[:, self.elim] = 0
            self.shifts.append(a)
            looped = exact or len(blk.w) <= 6 or not La or len(self.shifts) == 1
            self.slc.append([self._slices_cached(sh) for sh in a] if looped else [])
        B = len(self.blocks)
        betas = [zero_t] * (B + 1)
        betas[B], ls = self._scale(term)
        ls += ls_term
        for b in range(B - 1, -1, -1):
            nxt = betas[b + 1]
            blk = self.blocks[b]
            if not exact and len(blk.w) > 6 and La:
                cur = np.tensordot(
                    np.asarray(blk.w, dtype=np.float64), self._gather(nxt, b, False), axes=1
                )
            else:
                cur = zero_t.copy()
                for t, (src, dst) in enumerate(self.slc[b]):
                    if src is None:
                        continue
                    cur[dst] += blk.w[t] * nxt[src]
            betas[b], d = self._scale(cur)
            ls += d
        self.betas = betas
        origin = tuple(0 for _ in range(La))
        z0 = betas[0][origin] if La else betas[0][()]
        self.Z = z0
        self.log_z = (math.log(z0) + ls + self.log_fixed) if (not exact and z0 > 0) else -math.inf
        self._alphas: list[np.ndarray] | None = None
        self._zero_t = zero_t

    @property
    def alphas(self) -> list[np.ndarray]:
        """Forward tables (computed on first use)."""
        if self._alphas is None:
            La = self.La
            zero_t = self._zero_t
            B = len(self.blocks)
            alphas = [zero_t] * (B + 1)
            a0 = zero_t.copy()
            a0[tuple(0 for _ in range(La))] = 1 if self.exact else 1.0
            alphas[0] = a0
            for b in range(B):
                prev = alphas[b]
                blk = self.blocks[b]
                if not self.exact and len(blk.w) > 6 and La:
                    w = np.asarray(blk.w, dtype=np.float64)
                    cur = np.tensordot(w, self._gather(prev, b, True), axes=1)
                else:
                    cur = zero_t.copy()
                    for t, (src, dst) in enumerate(self.slc[b]):
                        if src is None:
                            continue
                        cur[src] += blk.w[t] * prev[dst]
                alphas[b + 1], _ = self._scale(cur)
            self._alphas = alphas
        return self._alphas

    def _scale(self, t: np.ndarray) -> tuple[np.ndarray, float]:
        if self.exact or t.size == 0:
            return t, 0.0
        m = float(np.max(t))
        if m > 0 and (m > 1e100 or m < 1e-100):
            return t / m, math.log(m)
        return t, 0.0

    def _gather(self, table: np.ndarray, b: int, forward: bool) -> np.ndarray:
        """Every term's shifted copy of ``table`` at once: shape ``(terms, *table.shape)``.

        Backward: ``out[t][u] = table[u + a_t]``; forward: ``out[t][u] = table[u - a_t]``
        (zero outside the table).
        """
        sh = self.shifts[b]
        m = sh.max(axis=0)
        padded = np.zeros(tuple(int(n + x) for n, x in zip(table.shape, m, strict=True)))
        if forward:
            padded[tuple(slice(int(x), None) for x in m)] = table
            start = m[None, :] - sh
        else:
            padded[tuple(slice(0, n) for n in table.shape)] = table
            start = sh
        win = np.lib.stride_tricks.sliding_window_view(padded, table.shape)
        return win[tuple(start.T)]

    def _slices_cached(self, sh: np.ndarray) -> tuple[Any, Any]:
        key = tuple(sh.tolist())
        got = self._slice_cache.get(key)
        if got is None:
            got = self._slice_cache[key] = self._slices(sh)
        return got

    def _slices(self, sh: np.ndarray) -> tuple[Any, Any]:
        """Slices so that ``table[dst] = f(table[src])`` shifts by ``sh``: src = dst + sh."""
        src, dst = [], []
        for i, n in enumerate(self.shape):
            d = int(sh[i])
            if d >= n:
                return None, None
            src.append(slice(d, n))
            dst.append(slice(0, n - d))
        return tuple(src), tuple(dst)

    def total(self) -> Any:
        """Total weight of the consistent deals: an exact int (exact mode) or a float."""
        if self.zero:
            return 0
        if self.exact:
            return self.Z * self.fixed
        return math.exp(self.log_z) if self.log_z < 700 else math.inf

    def log_total(self) -> float:
        """Natural logarithm of :meth:`total` (``-inf`` if nothing is consistent)."""
        if self.zero:
            return -math.inf
        if self.exact:
            return math.log(self.total()) if self.total() > 0 else -math.inf
        return self.log_z

    def _term_weights(self, b: int) -> np.ndarray:
        """Posterior weight of every term of block ``b`` (unnormalised)."""
        blk = self.blocks[b]
        exact = self.exact
        beta = self.betas[b + 1]
        out = np.zeros(len(blk.w), dtype=object if exact else np.float64)
        if b == 0:
            # the forward table before the first block is a single 1 at the origin
            for t in range(len(blk.w)):
                src, _ = self.slc[b][t]
                if src is None:
                    out[t] = 0
                    continue
                idx = tuple(x.start for x in src)
                out[t] = beta[idx] * blk.w[t]
            return out
        alpha = self.alphas[b]
        if not exact and self.La and len(blk.w) > 6:
            g = self._gather(beta, b, False)
            return (
                g.reshape(len(blk.w), -1) @ alpha.reshape(-1) * np.asarray(blk.w, dtype=np.float64)
            )
        for t in range(len(blk.w)):
            src, dst = self.slc[b][t]
            if src is None:
                out[t] = 0
                continue
            if exact:
                s = 0
                for x, y in zip(
                    alpha[dst].ravel().tolist(), beta[src].ravel().tolist(), strict=True
                ):
                    if x and y:
                        s += x * y
                out[t] = s * blk.w[t]
            else:
                out[t] = float(np.vdot(alpha[dst], beta[src])) * blk.w[t]
        return out

    def marginals(self) -> np.ndarray:
        """Expected copies of each kind in each location (Fractions in exact mode)."""
        K, L = self.K, self.L
        exact = self.exact
        if self.zero or self.Z == 0:
            raise InconsistentKnowledgeError("no deal is consistent with the observations")
        res = np.zeros((K, L), dtype=object if exact else np.float64)
        if exact:
            for k in range(K):
                for ll in range(L):
                    res[k, ll] = Fraction(int(self.lo[k, ll]))
        else:
            res[:, :] = self.lo
        used = np.zeros(self.La, dtype=object if exact else np.float64)
        if exact:
            used[:] = Fraction(0)
        for b, blk in enumerate(self.blocks):
            tw = self._term_weights(b)
            z = tw.sum()
            for t in range(len(blk.w)):
                if tw[t] == 0:
                    continue
                scale = (Fraction(tw[t], blk.w[t] * 1) / z) if exact else tw[t] / blk.w[t] / z
                contrib = blk.mom[t] * scale  # nk × La
                for i, k in enumerate(blk.kinds):
                    for j, ll in enumerate(self.act_l):
                        res[k, ll] += contrib[i, j]
                        used[j] += contrib[i, j]
        if self.free:
            tot = sum(int(self.r[k]) for k in self.free)
            for j, ll in enumerate(self.act_l):
                rem = int(self.s_act[j]) - used[j]
                for k in self.free:
                    share = Fraction(int(self.r[k]), tot) if exact else self.r[k] / tot
                    res[k, ll] += rem * share
        return res

    def query_distribution(self) -> dict[int, Any]:
        """Distribution of the query form's value."""
        exact = self.exact
        if self.zero or self.Z == 0:
            raise InconsistentKnowledgeError("no deal is consistent with the observations")
        if self.query_const is not None or self.query_block is None:
            return {int(self.query_const or 0): Fraction(1) if exact else 1.0}
        b = self.query_block
        blk = self.blocks[b]
        tw = self._term_weights(b)
        z = tw.sum()
        out: dict[int, Any] = {}
        assert blk.qv is not None
        for t in range(len(tw)):
            v = int(blk.qv[t])
            p = Fraction(tw[t], z) if exact else tw[t] / z
            out[v] = out.get(v, 0) + p
        return out

    # -------------------------------------------------------------- sampling
    def sample(self, n: int, rng: np.random.Generator) -> np.ndarray:
        K, L, La = self.K, self.L, self.La
        out = np.zeros((n, K, L), dtype=np.int64)
        out[:] = self.lo[None, :, :]
        if n == 0:
            return out
        u = np.zeros((n, La), dtype=np.int64)
        shape = np.asarray(self.shape, dtype=np.int64)
        for b, blk in enumerate(self.blocks):
            beta = self.betas[b + 1]
            sh = self.shifts[b]
            T = len(blk.w)
            probs = np.zeros((n, T))
            wf = np.asarray(blk.w, dtype=np.float64)
            for t in range(T):
                pos = u + sh[t]
                ok = np.all(pos < shape, axis=1)
                vals = np.zeros(n)
                if ok.any():
                    vals[ok] = np.asarray(beta[tuple(pos[ok].T)], dtype=np.float64)
                probs[:, t] = vals * wf[t]
            t_pick = _categorical(probs, rng)
            u += sh[t_pick]
            opts = self._backtrack(blk, t_pick, rng)
            for i, k in enumerate(blk.kinds):
                out[:, k, self.act_l] += opts[i]
        if self.free:
            rem = self.s_act[None, :] - u
            if La:
                rem[:, self.elim] = sum(int(self.r[k]) for k in self.free) - (
                    rem.sum(axis=1) - rem[:, self.elim]
                )
            cards = np.asarray([k for k in self.free for _ in range(int(self.r[k]))])
            P = len(cards)
            order = np.argsort(rng.random((n, P)), axis=1)
            cum = np.cumsum(rem, axis=1)
            posn = np.arange(P)[None, :, None]
            loc_of_pos = (posn >= cum[:, None, :]).sum(axis=2)
            kind_at = cards[order]
            rows = np.repeat(np.arange(n), P)
            act = np.asarray(self.act_l)[loc_of_pos.reshape(-1)]
            np.add.at(out, (rows, kind_at.reshape(-1), act), 1)
        return out

    def _backtrack(
        self, blk: _Block, t_pick: np.ndarray, rng: np.random.Generator
    ) -> list[np.ndarray]:
        n = len(t_pick)
        fin, fw = blk.final
        # choose a final state with the chosen term
        state = _grouped_choice(blk.term_of_final, fw, t_pick, rng)
        state = fin[state]
        opts: list[np.ndarray] = [np.zeros((n, self.La), dtype=np.int64)] * len(blk.kinds)
        for i in range(len(blk.stages) - 1, -1, -1):
            p_idx, o_idx, child, w_e, opt_arr = blk.stages[i]
            e = _grouped_choice(child, np.asarray(w_e, dtype=np.float64), state, rng)
            opts[i] = opt_arr[o_idx[e]]
            state = p_idx[e]
        return opts


def _unique_rows(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(keys, axis=0, return_inverse=True)`` through one integer per row."""
    n, d = keys.shape
    if d == 0:
        return keys[:1], np.zeros(n, dtype=np.int64)
    lo = keys.min(axis=0)
    span = keys.max(axis=0) - lo + 1
    if float(np.prod(span.astype(np.float64))) < 2**62:
        mult = np.cumprod(np.concatenate([[1], span[:-1]])).astype(np.int64)
        code = (keys - lo) @ mult
        u, first, inv = np.unique(code, return_index=True, return_inverse=True)
        return keys[first], inv.reshape(-1)
    uniq, inv = np.unique(keys, axis=0, return_inverse=True)
    return uniq, inv.reshape(-1)


def _categorical(probs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    cum = np.cumsum(probs, axis=1)
    tot = cum[:, -1]
    r = rng.random(len(probs)) * tot
    idx = (cum <= r[:, None]).sum(axis=1)
    return np.minimum(idx, probs.shape[1] - 1)


def _grouped_choice(
    group: np.ndarray, weight: np.ndarray, want: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """For each ``want[i]``, an index ``j`` with ``group[j] == want[i]``, chosen ∝ ``weight[j]``."""
    order = np.argsort(group, kind="stable")
    g = group[order]
    w = weight[order]
    cum = np.cumsum(w)
    starts = np.searchsorted(g, want, side="left")
    ends = np.searchsorted(g, want, side="right")
    before = np.where(starts > 0, cum[np.maximum(starts - 1, 0)], 0.0)
    tot = cum[ends - 1] - before
    r = before + rng.random(len(want)) * tot
    pos = np.searchsorted(cum, r, side="right")
    pos = np.clip(pos, starts, ends - 1)
    return order[pos]


# ========================================================= formulas over cards
def card_atom(location: str, card: str) -> Any:
    """The atom ``has(location, card)`` of the formula language.

    Examples
    --------
    >>> print(card_atom("p2", "QS"))
    has(p2, QS)
    """
    from kripke.formulas import Atom

    return Atom("has", (location, card))


def _as_prop(formula: Any) -> Any:
    from kripke.errors import KripkeError
    from kripke.formulas import Formula
    from kripke.parser import parse

    f = parse(formula) if isinstance(formula, str) else formula
    if not isinstance(f, Formula):
        raise KripkeError(f"expected a formula, got {formula!r}")
    if not f.is_propositional():
        raise KripkeError(
            f"{f} has knowledge operators; deal knowledge answers propositional formulas "
            "over has(location, card) (use DealState.kripke_model() for nested knowledge)"
        )
    return f


def _restrict(f: Any, key: str, value: bool) -> Any:
    from kripke.formulas import BOT, TOP, And, Atom, Bottom, Iff, Implies, Not, Or, Top

    match f:
        case Top() | Bottom():
            return f
        case Atom():
            if f.key == key:
                return TOP if value else BOT
            return f
        case Not(a):
            x = _restrict(a, key, value)
            if x is TOP:
                return BOT
            if x is BOT:
                return TOP
            return Not(x)
        case And(args):
            parts = []
            for a in args:
                x = _restrict(a, key, value)
                if x is BOT:
                    return BOT
                if x is not TOP:
                    parts.append(x)
            if not parts:
                return TOP
            return parts[0] if len(parts) == 1 else And(tuple(parts))
        case Or(args):
            parts = []
            for a in args:
                x = _restrict(a, key, value)
                if x is TOP:
                    return TOP
                if x is not BOT:
                    parts.append(x)
            if not parts:
                return BOT
            return parts[0] if len(parts) == 1 else Or(tuple(parts))
        case Implies(a, b):
            return _restrict(Or((Not(a), b)), key, value)
        case Iff(a, b):
            return _restrict(Or((And((a, b)), And((Not(a), Not(b))))), key, value)
        case _:
            raise TypeError(f"not a propositional formula: {f!r}")


def _shannon(
    f: Any,
    cell_of: Callable[[Any], tuple[int, int]],
    weight: Callable[[dict[tuple[int, int], bool]], Any],
    stop_at_hit: bool = False,
) -> Any:
    """Total weight of the deals satisfying ``f``, by splitting on its atoms."""
    from kripke.formulas import BOT, TOP, Atom

    atoms = sorted(f.atoms(), key=lambda a: a.key)
    cells = {a.key: cell_of(a) for a in atoms if isinstance(a, Atom)}

    def rec(g: Any, fixed: dict[tuple[int, int], bool]) -> Any:
        if g is BOT:
            return 0
        if g is TOP:
            return weight(fixed)
        if not weight(fixed):
            return 0
        a = min(g.atoms(), key=lambda x: x.key)
        cell = cells[a.key]
        total: Any = 0
        for val in (True, False):
            if cell in fixed and fixed[cell] != val:
                continue
            sub = rec(_restrict(g, a.key, val), {**fixed, cell: val})
            total += sub
            if stop_at_hit and total:
                return total
        return total

    return rec(f if f is not TOP else TOP, {})


# ================================================================ deal state
_ALL = None


class DealState:
    """A true deal, every agent's knowledge of it, and the events that change both.

    Parameters
    ----------
    deck : Deck
    deal : mapping from location name to cards
        The true content of every location (empty locations may be listed
        with ``()`` or added later with :meth:`add_location`).
    agents : mapping from agent to the locations it sees, or list of names, optional
        By default every location whose name is not ``pile``, ``kitty``,
        ``undealt``, ``table`` or ``discard`` is an agent's hand, seen by the
        agent of the same name.

    Raises
    ------
    InvalidParameterError
        If the deal does not use every card exactly once.

    Examples
    --------
    >>> from games.cards import Deck
    >>> deck = Deck(["A", "B", "C", "D"])
    >>> st = DealState(deck, {"x": "A B", "y": "C", "pile": "D"}, agents=["x", "y"])
    >>> st.move("A", "x", "pile", seen_by=["x"])   # x plays A face down
    >>> st.knowledge("y").possible("has(pile, B)")
    True
    >>> st.knowledge("y").count()
    3
    """

    _PUBLIC_NAMES = ("pile", "kitty", "undealt", "table", "discard", "play", "trick")

    def __init__(
        self,
        deck: Deck,
        deal: Mapping[str, CardsLike],
        agents: Mapping[str, str | Iterable[str]] | Iterable[str] | None = None,
    ):
        self.deck = deck
        self._deal: dict[str, list[int]] = {}
        seen = [0] * len(deck)
        for loc, cards in deal.items():
            ks = list(deck.kinds(cards)) if cards else []
            for k in ks:
                seen[k] += 1
            self._deal[loc] = ks
        for k, c in enumerate(seen):
            if c != deck.copies[k]:
                raise InvalidParameterError(
                    f"the deal holds {c} copies of {deck.name(k)} but the deck has {deck.copies[k]}"
                )
        if agents is None:
            agents = [n for n in self._deal if n not in self._PUBLIC_NAMES]
        if isinstance(agents, Mapping):
            owns = {str(a): ([v] if isinstance(v, str) else list(v)) for a, v in agents.items()}
        else:
            owns = {str(a): [str(a)] for a in agents}
        for a, ls in owns.items():
            for ll in ls:
                if ll not in self._deal:
                    raise InvalidParameterError(f"agent {a!r} sees unknown location {ll!r}")
        self.agents: tuple[str, ...] = tuple(owns)
        self._owns = owns
        sizes = {loc: len(ks) for loc, ks in self._deal.items()}
        self._know = {a: DealKnowledge(deck, sizes, name=a) for a in owns}
        self._log: list[tuple[Any, ...]] = [("deal", dict(sizes))]
        self._initial = {loc: list(ks) for loc, ks in self._deal.items()}
        for a, ls in owns.items():
            for ll in ls:
                self._know[a].reveal(ll, self._deal[ll])

    # ------------------------------------------------------------- accessors
    def knowledge(self, agent: str) -> DealKnowledge:
        """The knowledge object of ``agent`` (kept up to date by the events)."""
        try:
            return self._know[str(agent)]
        except KeyError:
            raise InvalidParameterError(
                f"unknown agent {agent!r}; agents: {', '.join(self.agents)}"
            ) from None

    @property
    def deal(self) -> dict[str, tuple[str, ...]]:
        """The true content of every location."""
        return {
            loc: tuple(sorted((self.deck.name(k) for k in ks), key=self.deck.index))
            for loc, ks in self._deal.items()
        }

    @property
    def exact(self) -> bool:
        """Whether every agent's knowledge is exact (see :attr:`DealKnowledge.exact`)."""
        return all(k.exact for k in self._know.values())

    @property
    def locations(self) -> tuple[str, ...]:
        return tuple(self._deal)

    def holds(self, formula: Any) -> bool:
        """Truth of a propositional card formula in the true deal."""
        f = _as_prop(formula)
        return _eval_prop(f, lambda loc, card: self._has(loc, card))

    def _has(self, loc: str, card: str) -> bool:
        from kripke.errors import UnknownAtomError

        if loc not in self._deal:
            raise UnknownAtomError(f"has({loc}, {card}): unknown location {loc!r}")
        try:
            k = self.deck.index(card)
        except CardParseError as exc:
            raise UnknownAtomError(f"has({loc}, {card}): {exc}") from None
        return k in self._deal[loc]

    def knows(self, agent: str, formula: Any) -> bool:
        """Whether ``agent`` knows the propositional card formula."""
        return self.knowledge(agent).knows(formula)

    def probability(self, agent: str, formula: Any, *, exact: bool = False) -> float | Fraction:
        """``agent``'s probability of a propositional card formula."""
        return self.knowledge(agent).probability_of(formula, exact=exact)

    # ---------------------------------------------------------------- events
    def _audience(self, who: Iterable[str] | None) -> set[str]:
        if who is None:
            return set(self.agents)
        out = set()
        for a in [who] if isinstance(who, str) else who:
            if str(a) not in self._know:
                raise InvalidParameterError(
                    f"unknown agent {a!r}; agents: {', '.join(self.agents)}"
                )
            out.add(str(a))
        return out

    def _check_loc(self, loc: str) -> None:
        if loc not in self._deal:
            raise InvalidParameterError(
                f"unknown location {loc!r}; locations: {', '.join(self._deal)}"
            )

    def add_location(self, name: str) -> None:
        """Add an empty location for everyone."""
        if name in self._deal:
            raise InvalidParameterError(f"location {name!r} exists")
        for k in self._know.values():
            k.add_location(name)
        self._deal[name] = []
        self._log.append(("add", name))

    def move(
        self, cards: CardsLike, src: str, dst: str, *, seen_by: Iterable[str] | str | None = _ALL
    ) -> None:
        """Cards go from ``src`` to ``dst``; agents in ``seen_by`` (default: all) see which.

        Raises
        ------
        IllegalActionError
            If ``src`` does not hold the cards (nothing changes).
        """
        self._check_loc(src)
        self._check_loc(dst)
        ks = list(self.deck.kinds(cards))
        pool = list(self._deal[src])
        for k in ks:
            if k not in pool:
                raise IllegalActionError(f"{src} does not hold {self.deck.name(k)}")
            pool.remove(k)
        aud = self._audience(seen_by)
        for a, kn in self._know.items():
            if a in aud:
                kn.move(ks, src, dst)
            else:
                kn.move_hidden(src, dst, len(ks))
        self._deal[src] = pool
        self._deal[dst] = self._deal[dst] + ks
        self._log.append(("move", tuple(sorted(ks)), src, dst, frozenset(aud)))

    def move_all(self, src: str, dst: str, *, seen_by: Iterable[str] | str | None = ()) -> None:
        """All cards of ``src`` join ``dst``; agents in ``seen_by`` see them (default: nobody)."""
        self._check_loc(src)
        self._check_loc(dst)
        aud = self._audience(seen_by) if seen_by is not None else set(self.agents)
        for a, kn in self._know.items():
            if a in aud:
                kn.reveal(src, self._deal[src])
            kn.move_all(src, dst)
        self._deal[dst] = self._deal[dst] + self._deal[src]
        self._deal[src] = []
        self._log.append(("move_all", src, dst, frozenset(aud)))

    def reveal(self, location: str, *, to: Iterable[str] | str | None = _ALL) -> None:
        """Agents in ``to`` (default: all) see the whole content of ``location``."""
        self._check_loc(location)
        aud = self._audience(to)
        for a in aud:
            self._know[a].reveal(location, self._deal[location])
        self._log.append(("reveal", location, frozenset(aud)))

    def show(
        self, location: str, cards: CardsLike, *, to: Iterable[str] | str | None = _ALL
    ) -> None:
        """Agents in ``to`` see that ``location`` holds ``cards``.

        Raises
        ------
        IllegalActionError
            If it does not.
        """
        self._check_loc(location)
        ks = list(self.deck.kinds(cards))
        pool = list(self._deal[location])
        for k in ks:
            if k not in pool:
                raise IllegalActionError(f"{location} does not hold {self.deck.name(k)}")
            pool.remove(k)
        aud = self._audience(to)
        for a in aud:
            self._know[a].show(location, ks)
        self._log.append(("show", tuple(sorted(ks)), location, frozenset(aud)))

    def _public(
        self, kind: str, locations: str | Iterable[str], cards: CardsLike, k: int | None
    ) -> None:
        ls = [locations] if isinstance(locations, str) else list(locations)
        for ll in ls:
            self._check_loc(ll)
        ks = sorted(set(self.deck.kinds(cards)))
        have = sum(1 for ll in ls for x in self._deal[ll] if x in ks)
        ok = {
            "void": have == 0,
            "at_least": k is not None and have >= k,
            "at_most": k is not None and have <= k,
            "exactly": have == k,
        }[kind]
        if not ok:
            raise IllegalActionError(
                f"{kind.replace('_', ' ')} {'' if k is None else k} of "
                f"{' '.join(self.deck.name(x) for x in ks)} in {', '.join(ls)} is false "
                f"(they hold {have})"
            )
        for kn in self._know.values():
            if kind == "void":
                for ll in ls:
                    kn.void(ll, ks)
            else:
                getattr(kn, kind)(ls, ks, k)
        self._log.append((kind, tuple(ls), tuple(ks), k))

    def void(self, location: str, cards: CardsLike) -> None:
        """Public fact: ``location`` holds none of ``cards``."""
        self._public("void", location, cards, None)

    def at_least(self, locations: str | Iterable[str], cards: CardsLike, k: int) -> None:
        """Public fact: the locations hold at least ``k`` copies of ``cards``."""
        self._public("at_least", locations, cards, k)

    def at_most(self, locations: str | Iterable[str], cards: CardsLike, k: int) -> None:
        """Public fact: the locations hold at most ``k`` copies of ``cards``."""
        self._public("at_most", locations, cards, k)

    def exactly(self, locations: str | Iterable[str], cards: CardsLike, k: int) -> None:
        """Public fact: the locations hold exactly ``k`` copies of ``cards``."""
        self._public("exactly", locations, cards, k)

    # ------------------------------------------------------------ Kripke model
    def worlds(self) -> list[tuple[dict[str, tuple[int, ...]], tuple[Any, ...], int]]:
        """Every history of the deal consistent with the public events, by brute force.

        Returns a list of ``(deal, observations, multiplicity)``: the current
        content of every location (sorted kind indices), each agent's
        observation sequence, and how many histories led there.  Meant for
        small decks (see :data:`MAX_MODEL_CARDS`).
        """
        if self.deck.total > MAX_MODEL_CARDS:
            raise InvalidParameterError(
                f"explicit models are built for decks of at most {MAX_MODEL_CARDS} cards, "
                f"this one has {self.deck.total}"
            )
        return _enumerate_histories(self.deck, self._log, self.agents, self._owns)

    def kripke_model(self) -> Any:
        """The whole situation as an explicit pointed Kripke model.

        Worlds are the histories of the deal consistent with the public events
        (identified when they agree on the current deal and on every agent's
        observations); agent *a* cannot tell apart worlds where it observed
        the same things; the atoms ``has(location, card)`` describe the
        current deal.  The actual world is the true history.

        Examples
        --------
        >>> from games.cards import Deck
        >>> from kripke import holds
        >>> st = DealState(Deck(["A", "B", "C"]), {"x": "A", "y": "B", "z": "C"})
        >>> pm = st.kripke_model()
        >>> len(pm.model.worlds), holds(pm, "K_x (has(y, B) | has(z, B))")
        (6, True)
        >>> holds(pm, "K_x (K_y has(y, B) | K_z has(z, B))")
        True
        """
        from kripke.models import KripkeModel, PointedModel

        ws = self.worlds()
        start = {loc: list(ks) for loc, ks in self._initial.items()}
        ((true_deal, true_obs),) = _replay(
            self.deck, self._log, self.agents, self._owns, start, True
        )
        truth = _freeze(true_deal)
        labels = []
        val: dict[Any, list[str]] = {}
        classes: dict[str, dict[Any, list[Any]]] = {a: {} for a in self.agents}
        actual = None
        for i, (deal, obs, _) in enumerate(ws):
            lab = f"w{i}"
            labels.append(lab)
            val[lab] = [
                f"has({loc}, {self.deck.name(k)})" for loc, ks in deal.items() for k in set(ks)
            ]
            for j, a in enumerate(self.agents):
                classes[a].setdefault(obs[j], []).append(lab)
            if _freeze(deal) == truth and obs == true_obs:
                actual = lab
        if actual is None:
            raise InconsistentKnowledgeError("the true history is missing from the model")
        atoms = [
            f"has({loc}, {self.deck.name(k)})" for loc in self._deal for k in range(len(self.deck))
        ]
        model = KripkeModel.from_partitions(
            labels, val, {a: list(c.values()) for a, c in classes.items()}, atoms=atoms
        )
        return PointedModel(model, actual)


def evaluate(f: Any, value: Callable[[Any], Any]) -> bool:
    """Truth of a propositional formula, ``value(atom)`` giving each atom's truth.

    Raises
    ------
    TypeError
        If ``f`` has a modal or dynamic operator.

    Examples
    --------
    >>> from kripke import parse
    >>> evaluate(parse("p & ~q -> r"), lambda atom: atom.name == "p")
    False
    """
    from kripke.formulas import And, Atom, Bottom, Iff, Implies, Not, Or, Top

    match f:
        case Top():
            return True
        case Bottom():
            return False
        case Atom():
            return bool(value(f))
        case Not(a):
            return not evaluate(a, value)
        case And(args):
            return all(evaluate(a, value) for a in args)
        case Or(args):
            return any(evaluate(a, value) for a in args)
        case Implies(a, b):
            return (not evaluate(a, value)) or evaluate(b, value)
        case Iff(a, b):
            return evaluate(a, value) == evaluate(b, value)
        case _:
            raise TypeError(f"not a propositional formula: {f!r}")


def _eval_prop(f: Any, has: Callable[[str, str], bool]) -> bool:
    """Truth of a propositional formula over card atoms ``has(location, card)``."""
    from kripke.errors import UnknownAtomError

    def value(atom: Any) -> bool:
        if atom.name != "has" or len(atom.args) != 2:
            raise UnknownAtomError(f"{atom.key} is not a card atom")
        return has(atom.args[0], atom.args[1])

    return evaluate(f, value)


def _freeze(deal: Mapping[str, Sequence[int]]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    return tuple((loc, tuple(sorted(deal[loc]))) for loc in sorted(deal))


def _submultisets(pool: Sequence[int], n: int) -> list[tuple[int, ...]]:
    return sorted(set(itertools.combinations(sorted(pool), n)))


def _remove(pool: Sequence[int], part: Sequence[int]) -> list[int]:
    out = list(pool)
    for k in part:
        out.remove(k)
    return out


def _replay(
    deck: Deck,
    log: Sequence[tuple[Any, ...]],
    agents: Sequence[str],
    owns: Mapping[str, Sequence[str]],
    start: dict[str, list[int]],
    true_mode: bool,
) -> list[tuple[dict[str, list[int]], tuple[Any, ...]]]:
    """All continuations of an initial deal through the event log (branching on hidden choices)."""
    n = len(agents)
    obs0 = tuple(tuple(("deal", ll, tuple(sorted(start[ll]))) for ll in owns[a]) for a in agents)
    states: list[tuple[dict[str, list[int]], tuple[Any, ...]]] = [(start, obs0)]
    for ev in log[1:]:
        nxt: list[tuple[dict[str, list[int]], tuple[Any, ...]]] = []
        for deal, obs in states:
            kind = ev[0]
            if kind == "add":
                d = dict(deal)
                d[ev[1]] = []
                nxt.append((d, obs))
            elif kind == "move":
                _, ks, src, dst, aud = ev
                choices = (
                    [ks]
                    if (true_mode or set(aud) == set(agents))
                    else _submultisets(deal[src], len(ks))
                )
                for ch in choices:
                    pool = list(deal[src])
                    try:
                        pool = _remove(pool, ch)
                    except ValueError:
                        continue
                    d = dict(deal)
                    d[src] = pool
                    d[dst] = list(deal[dst]) + list(ch)
                    o = tuple(
                        obs[i]
                        + (
                            (("move", src, dst, tuple(sorted(ch))),)
                            if agents[i] in aud
                            else (("move", src, dst, len(ch)),)
                        )
                        for i in range(n)
                    )
                    nxt.append((d, o))
            elif kind == "move_all":
                _, src, dst, aud = ev
                d = dict(deal)
                d[dst] = list(deal[dst]) + list(deal[src])
                d[src] = []
                o = tuple(
                    obs[i]
                    + (
                        (("all", src, dst, tuple(sorted(deal[src]))),)
                        if agents[i] in aud
                        else (("all", src, dst),)
                    )
                    for i in range(n)
                )
                nxt.append((d, o))
            elif kind == "reveal":
                _, loc, aud = ev
                o = tuple(
                    obs[i]
                    + ((("reveal", loc, tuple(sorted(deal[loc]))),) if agents[i] in aud else ())
                    for i in range(n)
                )
                nxt.append((deal, o))
            elif kind == "show":
                _, ks, loc, aud = ev
                choices = (
                    [ks]
                    if (true_mode or set(aud) == set(agents))
                    else _submultisets(deal[loc], len(ks))
                )
                for ch in choices:
                    try:
                        _remove(deal[loc], ch)
                    except ValueError:
                        continue
                    o = tuple(
                        obs[i] + ((("show", loc, tuple(sorted(ch))),) if agents[i] in aud else ())
                        for i in range(n)
                    )
                    nxt.append((deal, o))
            else:
                _, ls, ks, k = ev
                have = sum(1 for ll in ls for x in deal[ll] if x in ks)
                ok = {
                    "void": have == 0,
                    "at_least": k is not None and have >= k,
                    "at_most": k is not None and have <= k,
                    "exactly": have == k,
                }[kind]
                if ok:
                    nxt.append((deal, obs))
        states = nxt
    return states


def _enumerate_histories(
    deck: Deck,
    log: Sequence[tuple[Any, ...]],
    agents: Sequence[str],
    owns: Mapping[str, Sequence[str]],
) -> list[tuple[dict[str, tuple[int, ...]], tuple[Any, ...], int]]:
    sizes: dict[str, int] = log[0][1]
    cards = [k for k in range(len(deck)) for _ in range(deck.copies[k])]
    locs = list(sizes)
    out: dict[Any, list[Any]] = {}
    for start in _all_deals(cards, locs, [sizes[ll] for ll in locs]):
        for deal, obs in _replay(deck, log, agents, owns, start, False):
            key = (_freeze(deal), obs)
            if key in out:
                out[key][2] += 1
            else:
                out[key] = [{ll: tuple(sorted(v)) for ll, v in deal.items()}, obs, 1]
    return [(d, o, m) for d, o, m in out.values()]


def _all_deals(
    cards: Sequence[int], locs: Sequence[str], sizes: Sequence[int]
) -> Iterable[dict[str, list[int]]]:
    def rec(i: int, pool: list[int]) -> Iterable[dict[str, list[int]]]:
        if i == len(locs) - 1:
            yield {locs[i]: list(pool)}
            return
        for part in _submultisets(pool, sizes[i]):
            rest = _remove(pool, part)
            for d in rec(i + 1, rest):
                d[locs[i]] = list(part)
                yield d

    if not locs:
        return []
    return rec(0, sorted(cards))
