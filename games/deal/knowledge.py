"""Exact deal knowledge of one agent: :class:`DealKnowledge`."""

from __future__ import annotations

import copy as _copy
import functools
import itertools
import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from games.cards import CardsLike, Deck
from games.deal.cells import tighten
from games.deal.counting import MAX_TABLE_BYTES
from games.deal.engine import _Engine
from games.deal.flow import _feasible_flow, _min_cut
from games.deal.forms import _Form, _interval_pred, _Pred, _span, _sum_forms, _TooLarge
from games.deal.formulas import _as_prop, _shannon, evaluate
from games.errors import (
    CardParseError,
    InconsistentKnowledgeError,
    InvalidParameterError,
)
from kripke.errors import SizeLimitError

__all__ = ["DealKnowledge", "MAX_MODEL_CARDS"]


#: Largest deck :meth:`DealState.kripke_model` builds an explicit model for.
MAX_MODEL_CARDS = 12

_TMP = "__hidden__"


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
        self._aux_cache: _Aux | None = None
        self._aux_recent: dict[Any, _Aux] = {}
        #: Largest joint-constraint table a merge may build (value combinations).
        self.max_table = 20_000
        #: Whether a joint-constraint table has an axis only for each form that
        #: is not a linear combination of the others, and its forms' ranges are
        #: bounded by the locations' sizes as well as by the copies of the
        #: kinds.  More constraints then stay within :attr:`max_table` (the
        #: knowledge stays exact for longer), and counting with them costs
        #: more, so once a constraint was dropped (:attr:`exact` is False) the
        #: tables are built as without it.  :class:`~games.deal.DealState`
        #: turns it on.
        self.compact_tables = False
        #: Largest enumeration (states times options) a query may build for one
        #: group of linked card kinds.
        self.max_states = 400_000
        #: Largest memory (bytes, estimated before allocating) the counting
        #: tables of one query may take; past it a query raises
        #: :class:`~kripke.errors.SizeLimitError` naming the estimate.
        self.max_bytes = MAX_TABLE_BYTES
        #: Largest work (cells of a counting table times the terms added into them,
        #: estimated before counting) a query may take; past it a query raises
        #: :class:`~kripke.errors.SizeLimitError` naming the estimate.  ``None``
        #: (the default): no limit.  About 10**10 cell-terms a second here.
        self.max_work: int | None = None
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
    def joint_constraints(self) -> int:
        """How many joint constraints (over several cells) the knowledge keeps: what
        makes its programme large (BS-ZPY's claims: with 40 of them one seat's programme
        takes 7-20 s, with 8 or fewer well under 0.1 s)."""
        return len(self._preds)

    @property
    def counted(self) -> bool:
        """Whether a programme of this knowledge is kept (built by an earlier question)."""
        return any(key[0] == "engine" for key in self._cache)

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
        new._aux_recent = dict(self._aux_recent)
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

        vec = np.zeros(len(self.deck), dtype=np.int64)
        for k, v in cnt.items():
            vec[k] = v

        def go() -> None:
            bad = np.flatnonzero((vec < self._lo[:, ll]) | (vec > self._hi[:, ll]))
            if bad.size:
                k = int(bad[0])
                raise self._fail(f"{self.deck.name(k)} ×{int(vec[k])} in {location}")
            self._lo[:, ll] = vec
            self._hi[:, ll] = vec

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
        form, ls, ks = self._count_form(locations, cards, lo, hi)

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

    def _count_form(
        self, locations: str | Iterable[str], cards: CardsLike, *counts: int | None
    ) -> tuple[_Form, list[int], list[int]]:
        """The form "copies of ``cards`` at ``locations``", its locations and kinds;
        ``counts`` (``None`` for no bound) checked to be ints ``>= 0``."""
        ls = self._locset(locations)
        ks = self._cardset(cards)
        for v in counts:
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
                raise InvalidParameterError(f"a card count must be an int >= 0, got {v!r}")
        return _Form.make({(k, ll): 1 for k in ks for ll in ls}), ls, ks

    def any_of(self, conditions: Sequence[tuple[str | Iterable[str], CardsLike, int, int]]) -> None:
        """At least one condition holds: each ``(locations, cards, lo, hi)`` is "the
        locations together hold between ``lo`` and ``hi`` copies of ``cards``" (a
        disjunction of counts, e.g. "the card put down was no joker, or the seat
        still holds a heart").

        One joint constraint over the conditions' counts; when its table would
        exceed :attr:`max_table` the constraint is left out (the possible deals
        become a superset) and :attr:`exact` turns False.

        Raises
        ------
        InconsistentKnowledgeError
            If no known deal satisfies any condition.

        Examples
        --------
        >>> from games.cards import Deck
        >>> k = DealKnowledge(Deck(["A", "B", "C", "D"]), {"x": 2, "y": 2})
        >>> k.any_of([("x", "A", 1, 1), ("x", "B", 1, 1)])   # x holds A or B
        >>> k.count(), k.exact
        (5, True)
        """
        forms, bounds = [], []
        for locations, cards, lo, hi in conditions:
            forms.append(self._count_form(locations, cards, lo, hi)[0])
            bounds.append((lo, hi))
        if not forms:
            raise InvalidParameterError("any_of needs at least one condition")

        def either(vals: np.ndarray) -> np.ndarray:
            ok = np.zeros(len(vals), dtype=bool)
            for i, (lo, hi) in enumerate(bounds):
                ok |= (lo <= vals[:, i]) & (vals[:, i] <= hi)
            return ok

        def go() -> None:
            try:
                pred = self._table_pred(tuple(forms), either)
            except _TooLarge:
                self.relaxations += 1
                return
            if pred is not None:
                self._preds.append(pred)

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
        others = [ll for ll in range(len(self._locs)) if ll not in (a, y)]
        if others:
            other_hi_l = hi[:, others].sum(axis=1).tolist()
            other_lo_l = lo[:, others].sum(axis=1).tolist()
        else:
            other_hi_l = other_lo_l = [0] * K
        la_l, ha_l, cp_l = lo[:, a].tolist(), hi[:, a].tolist(), cp.tolist()
        u, v = min(a, y), max(a, y)
        for k in range(K):
            la, ha, c_k = la_l[k], ha_l[k], cp_l[k]
            if la > 0 and c_k - other_hi_l[k] < la:
                extra.append(_interval_pred(_Form(((k, u, 1), (k, v, 1)), 0), la, c_k))
            if ha < c_k - other_lo_l[k]:
                extra.append(_interval_pred(_Form(((k, u, 1), (k, v, 1)), 0), 0, ha))
        lo[:, a] = 0
        lo[:, y] = 0
        hi[:, y] = np.minimum(hi[:, a], n)
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
        memo: dict[Any, Any] = {}  # what a retry after dropping a constraint can reuse
        while True:
            saved = (
                self._lo[:, [a, b]].copy(),
                self._hi[:, [a, b]].copy(),
                list(self._size),
                list(self._preds),
                self.relaxations,
            )
            try:
                self._merge_once(a, b, memo)
                return
            except _TooLarge as big:
                self._lo[:, [a, b]] = saved[0]
                self._hi[:, [a, b]] = saved[1]
                self._size = saved[2]
                self._preds = saved[3]
                self.relaxations = saved[4]  # what the failed attempt dropped is back
                if not memo.get("loose"):
                    # first the other way of writing the split, then drop constraints
                    memo["loose"] = True
                    continue
                if isinstance(big, _TooLargeMany):
                    victims = big.preds
                else:
                    victims = [] if big.pred is None else [big.pred]
                if not victims:
                    touched = [p for p in self._preds if p.touches([a, b])]
                    if not touched:
                        raise InvalidParameterError(
                            "a merge needs a constraint table larger than max_table"
                        ) from None
                    victims = [max(touched, key=lambda p: p.table.size)]
                for victim in victims:
                    self._preds = [p for p in self._preds if p is not victim]
                    self.relaxations += 1

    def _merge_once(self, a: int, b: int, memo: dict[Any, Any] | None = None) -> None:
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
        size_a = self._size[a]
        size_b = self._size[b]
        n_lo = lo[:, a] + lo[:, b]
        n_hi = np.minimum(cp, hi[:, a] + hi[:, b])
        la_l, ha_l = lo[:, a].tolist(), hi[:, a].tolist()
        lb_l, hb_l = lo[:, b].tolist(), hi[:, b].tolist()
        nlo_l, nhi_l, cp_l = n_lo.tolist(), n_hi.tolist(), cp.tolist()
        sum_lo_a, sum_lo_b = sum(la_l), sum(lb_l)
        row_lo = lo.sum(axis=1).tolist()
        # forced kinds: x_k = alpha*n' + beta.  The per-kind bounds do not
        # depend on the joint constraints: a retry (one constraint dropped)
        # reuses them through ``memo``.
        if memo is None:
            memo = {}
        # a kind whose cell bounds fix its split for every merged count is
        # substituted; without ``loose``, also where the bounds implied by the
        # sizes are needed for that (a retry drops those, for bounds as lines)
        loose = bool(memo.get("loose"))
        kinds = memo.get(("kinds", loose))
        if kinds is None:
            f_alpha = [0] * K
            f_beta = [0] * K
            forced = [False] * K
            latent: list[Any] = []
            cells_k = zip(nlo_l, nhi_l, la_l, ha_l, lb_l, hb_l, cp_l, row_lo, strict=True)
            for k, (x0, x1, la, ha, lb, hb, c_k, r_k) in enumerate(cells_k):
                if x1 < x0:
                    raise self._fail(f"merging {self._locs[a]} into {self._locs[b]}")
                if not loose:
                    lk, uk, lin_l, lin_u = _split_bounds(la, ha, lb, hb, x0, x1)
                    if lk == uk and lin_l is not None:
                        forced[k] = True
                        f_alpha[k], f_beta[k] = lin_l
                        continue
                # an upper bound no smaller than the location's size is implied by
                # the sizes (the x_k add up to size_a, the rest to size_b)
                # (so is one no smaller than the size minus the other kinds' minimums,
                # or than the copies not known to be elsewhere): lower bounds are kept
                if ha >= size_a - (sum_lo_a - la) or ha >= c_k - (r_k - la):
                    ha = c_k + 1
                if hb >= size_b - (sum_lo_b - lb) or hb >= c_k - (r_k - lb):
                    hb = c_k + 1
                lk, uk, lin_l, lin_u = _split_bounds(la, ha, lb, hb, x0, x1)
                if lk == uk and lin_l is not None:
                    forced[k] = True
                    f_alpha[k], f_beta[k] = lin_l
                    continue
                latent.append((k, lk, uk, lin_l, lin_u))
            kinds = memo[("kinds", loose)] = (forced, f_alpha, f_beta, latent)
        forced, f_alpha, f_beta, latent = kinds
        # constraints of one latent kind alone enter through that kind's bounds
        # (see ``_local_kinds``); the others are rewritten or joined below
        local = self._local_kinds(a, b, touched, latent, memo)
        # (what a retry without a dropped constraint would see: see the drops below)
        touched_all, latent_all_ks = touched, {x[0] for x in latent}
        if local:
            gone = {id(p) for x in local for p in x[3]}
            touched = [p for p in touched if id(p) not in gone]
            local_ks = {x[0] for x in local}
            latent = [x for x in latent if x[0] not in local_ks]
        forms: list[_Form] = [f for p in touched for f in p.forms]
        F = len(forms)
        # per-kind coefficients of every form on the two columns, as Python lists
        eps_l = [[0] * K for _ in range(F)]
        cb_l = [[0] * K for _ in range(F)]
        for i, f in enumerate(forms):
            e_i, c_i = eps_l[i], cb_l[i]
            for k, ll, c in f.coef:
                if ll == a:
                    e_i[k] += c
                elif ll == b:
                    e_i[k] -= c
                    c_i[k] += c
        eps = np.asarray(eps_l, dtype=np.int64).reshape(F, K)
        groups: dict[Any, list[int]] = {}
        bounds: dict[int, tuple[list[int], list[int]]] = {}
        lines: dict[int, tuple[Any, Any]] = {}  # a kind's bounds as lines of its count, or None
        for k, lk, uk, lin_l, lin_u in latent:
            lines[k] = (lin_l, lin_u)
            ek = tuple(e_i[k] for e_i in eps_l) if F else ()
            if lin_l is not None and lin_u is not None:
                key: Any = (ek, lin_l[0], lin_u[0])
                groups.setdefault(key, []).append(k)
                bounds[k] = (lk, uk)
            else:
                groups[("single", k)] = [k]
                bounds[k] = (lk, uk)
        # rewritten forms (functions of the merged column b)
        forced_ks = [k for k in range(K) if forced[k]]
        new_forms: list[_Form] = []
        for i, f in enumerate(forms):
            done = memo.get(("form", f, loose))
            if done is not None:
                new_forms.append(done)
                continue
            cells: dict[tuple[int, int], int] = {}
            off = f.offset
            for k, ll, c in f.coef:
                if ll != a and ll != b:
                    cells[(k, ll)] = cells.get((k, ll), 0) + c
            col = list(cb_l[i])
            e_i = eps_l[i]
            for k in forced_ks:
                col[k] += e_i[k] * f_alpha[k]
                off += e_i[k] * f_beta[k]
            for k in range(K):
                c = col[k]
                if c:
                    cells[(k, b)] = cells.get((k, b), 0) + c
            done = memo[("form", f, loose)] = _Form.make(cells, off)
            new_forms.append(done)
        f_forced = _Form.make(
            {(k, b): f_alpha[k] for k in forced_ks if f_alpha[k]},
            sum(f_beta[k] for k in forced_ks),
        )
        # update the cells before building tables (ranges use the new bounds)
        self._lo[:, b] = n_lo
        self._hi[:, b] = n_hi
        self._lo[:, a] = 0
        self._hi[:, a] = 0
        self._size[b] += size_a
        self._size[a] = 0
        # the constraints that see the split are joined with it into one table:
        # when their forms alone pass max_table, so does the table (drop one)
        # (and a retry without the largest of them would start the same way:
        # the constraints to drop are found here, the merge is retried once)
        latent_ks = [x[0] for x in latent]
        per_pred = []
        pos = 0
        for p in touched:
            n_f = len(p.forms)
            per_pred.append((p, eps_l[pos : pos + n_f], new_forms[pos : pos + n_f]))
            pos += n_f
        victims: list[_Pred] = []
        sights: list[tuple[_Pred, tuple[int | None, frozenset[int]]]] | None = None
        own_ks: set[int] = set()
        while True:
            live = [x for x in per_pred if all(x[0] is not v for v in victims)]
            dep_kinds = (
                [k for k in latent_ks if any(e_i[k] for x in live for e_i in x[1])] if live else []
            )
            if not dep_kinds:
                break
            seeing: list[_Pred] = []
            seen_forms: list[_Form] = []
            for p, rows, nf in live:
                if any(e_i[k] for e_i in rows for k in dep_kinds):
                    seeing.append(p)
                    seen_forms.extend(nf)
            if self._box_size(seen_forms) <= self.max_table:
                break
            victims.append(max(seeing, key=lambda p: p.table.size))
            # a kind whose split only its own constraints see now takes the other
            # way on a retry (see ``_local_kinds``): the retry chooses what comes next
            if sights is None:
                sights = [(p, _sight(p, a, b, latent_all_ks)) for p in touched_all]
                own_ks = set(_own_of(sights))
            gone_ids = {id(v) for v in victims}
            if set(_own_of([x for x in sights if id(x[0]) not in gone_ids])) != own_ks:
                break
        if victims:
            raise _TooLargeMany(victims)
        allowed_b = [k for k in range(K) if nhi_l[k] > 0]

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
                bl = sum(bounds[k][0][0] - sl * nlo_l[k] for k in ks)
                bu = sum(bounds[k][1][0] - su * nlo_l[k] for k in ks)
                lin[key] = (count_form(ks, sl, bl), count_form(ks, su, bu))
        dep = [g for g in gkeys if any(e_i[groups[g][0]] for e_i in eps_l)]
        slack = [g for g in gkeys if g not in dep]
        # the slack groups enter only through the total: add their bounds up.
        # A side of Hall's condition that cannot bind (judged from ranges) is
        # left out; a binding side with a bound that is not linear in the
        # group's count is dropped soundly (the knowledge is then not exact).
        if f_forced.coef:
            t_lo, t_hi = self._form_range(self._fold(f_forced))
        else:  # no forced kind: a constant (no per-state tables needed)
            t_lo = t_hi = f_forced.offset
        t_min, t_max = size_a - t_hi, size_a - t_lo
        dep_umax = sum(min(size_a, int(max(_gmax(g, groups, bounds, 1)))) for g in dep)
        s_lmax = sum(max(_gmax(g, groups, bounds, 0)) for g in slack)
        s_umin = sum(min(_gmax(g, groups, bounds, 1, lowest=True)) for g in slack)
        s_lmax += sum(x[4] for x in local)
        s_umin += sum(x[5] for x in local)
        lower_free = s_lmax <= t_min - dep_umax
        upper_free = s_umin >= t_max
        l_parts: list[_Form] = [x[1][0] for x in local if len(x[1]) == 1]
        u_parts: list[_Form] = [x[2][0] for x in local if len(x[2]) == 1]
        # kinds whose bound is the largest (smallest) of several forms: Hall's
        # condition holds for the sum with each choice of one form per kind
        l_multi = [x[1] for x in local if len(x[1]) > 1]
        u_multi = [x[2] for x in local if len(x[2]) > 1]
        s_tab: list[Any] = []
        for g in slack:
            if g in lin:
                l_parts.append(lin[g][0])
                u_parts.append(lin[g][1])
                continue
            k = groups[g][0]
            ll_, ul_ = lines[k]
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
                    ll_, ul_ = lines[k]
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
        preds: list[_Pred] = list(rest) + [x[6] for x in local if x[6] is not None]
        if lower_free:
            l_multi = []
        if upper_free:
            u_multi = []
        # one constraint per choice of lower forms, one per choice of upper forms
        picks = math.prod(len(x) for x in l_multi) + math.prod(len(x) for x in u_multi)
        if not dep and not s_tab and picks <= _LOCAL_PICKS:
            # the old constraints do not see the split: rewrite them; Hall's
            # condition on the total is two linear constraints
            pos = 0
            for p in touched:
                preds.append(_Pred(tuple(new_forms[pos : pos + len(p.forms)]), p.low, p.table))
                pos += len(p.forms)
            if not lower_free:
                for pick in itertools.product(*l_multi):
                    total = _sum_forms([slack_l, f_forced, *pick])
                    _add_interval(preds, total, -(10**6), size_a)
            if not upper_free:
                for pick in itertools.product(*u_multi):
                    total = _sum_forms([slack_u, f_forced, *pick])
                    _add_interval(preds, total, size_a, 10**6)
            self._preds = preds
            return
        # constraints that see the split are joined with it; the others are rewritten
        pos = 0
        joined: list[tuple[_Pred, int, int]] = []
        jforms: list[_Form] = []
        E_rows: list[np.ndarray] = []
        for p in touched:
            nf = new_forms[pos : pos + len(p.forms)]
            rows = eps_l[pos : pos + len(p.forms)]
            pos += len(p.forms)
            sees = any(e_i[k] for g in dep for k in groups[g] for e_i in rows)
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
        # the bounds of several forms, after the total: the largest lower and
        # the smallest upper form of each kind are added to the slack's
        mforms = [f for fs in l_multi + u_multi for f in fs]
        all_forms = tuple(jforms) + tuple(bforms) + (slack_l, slack_u, f_forced, *mforms)
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
            col += 3
            for fs in l_multi:
                sl = sl + vals[:, col : col + len(fs)].max(axis=1)
                col += len(fs)
            for fs in u_multi:
                su = su + vals[:, col : col + len(fs)].min(axis=1)
                col += len(fs)
            Lm = np.stack(Ls, axis=1) if D else np.zeros((S, 0), dtype=np.int64)
            Um = np.stack(Us, axis=1) if D else np.zeros((S, 0), dtype=np.int64)
            return _search_splits(vals[:, :F0], E, joined, Lm, Um, target - su, target - sl, size_a)

        if self._box_size(all_forms) > self.max_table:
            raise _TooLarge(
                max((j[0] for j in joined), key=lambda p: p.table.size) if joined else None
            )
        pred = self._table_pred(all_forms, exists)
        if pred is not None:
            preds.append(pred)
        self._preds = preds

    def _local_kinds(
        self, a: int, b: int, touched: Sequence[_Pred], latent: Sequence[Any], memo: dict[Any, Any]
    ) -> list[tuple[int, list[_Form], list[_Form], list[_Pred], int, int, _Pred | None]]:
        """The latent kinds of a merge of ``a`` into ``b`` whose split is seen only by
        constraints of their own, with their bounds on the split as linear forms.

        A constraint is a kind's own when that kind is the only one whose
        split it sees and no other kind's cells in ``a`` or ``b`` enter it:
        a constraint of the kind's cells alone (``W0 + hidden <= 1``: the card
        put down unseen was not a second copy), or one that also reads
        other kinds' cells elsewhere (``3D in the trick, or P1 still holds a
        spade``), whose other parts are then read like cells.  For every
        value of the kind's cells after the merge (and of those parts), its
        copies that came from ``a`` lie in what each of these constraints
        and its cell bounds allow; where each is an interval whose ends are
        affine with integer coefficients (see :func:`_local_bounds`), the
        splits are an interval from the largest lower end to the smallest
        upper end, and the kind enters Hall's condition on the total like a
        kind whose bounds are lines of its count (a choice of one end per
        kind where several can be the largest).  Its constraints are
        replaced by one table of the values for which the interval is not
        empty.  Such kinds need no axis in the joint table, whose size is
        the product of its axes: BS-ZPY's won piles, each card forfeited
        unseen to another pile, had one axis per kind the card could be.
        A kind for which this does not hold is left to the joint table.

        Returns ``(kind, lower forms, upper forms, its constraints, largest
        lower bound, smallest upper bound, its table or None)`` per kind.
        """
        latent_ks = {x[0] for x in latent}
        if not latent_ks or not touched:
            return []
        own = _own_constraints(a, b, touched, latent_ks)
        out = []
        size_a = self._size[a]
        lo, hi, cp = self._lo, self._hi, self._copies
        for k, ps in own.items():
            key = ("local", k, tuple(id(p) for p in ps))
            got = memo.get(key)
            if got is None:
                # the other kinds' parts of the forms, with their ranges
                rests: dict[tuple[tuple[int, int, int], ...], _Form] = {}
                for p in ps:
                    for f in p.forms:
                        rest = _Form(tuple(x for x in f.coef if x[0] != k))
                        if rest.coef:
                            rests.setdefault(rest.coef, rest)
                others = list(rests.values())
                got = memo[key] = _local_bounds(
                    k,
                    ps,
                    a,
                    b,
                    size_a,
                    (int(lo[k, a]), int(hi[k, a]), int(lo[k, b]), int(hi[k, b])),
                    lo[k].tolist(),
                    hi[k].tolist(),
                    int(cp[k]),
                    [(r, self._form_range(r)) for r in others],
                )
            if got is None:
                continue
            out.append((k, got[0], got[1], ps, got[2], got[3], got[4]))
        return out

    @property
    def _compact(self) -> bool:
        """Whether tables are built compact now (see :attr:`compact_tables`)."""
        return self.compact_tables and self.relaxations == 0

    def _box_size(self, forms: Iterable[_Form]) -> int:
        """Value combinations of the independent forms (after folding).

        Forms with the same cells share one axis, and a form whose cells are
        a linear combination of other forms' has none (see :meth:`_axes`).
        """
        if not self._compact:
            seen: dict[tuple[tuple[int, int, int], ...], int] = {}
            aux = self._aux()
            for f in forms:
                g = aux.fold_memo(f)
                if g.coef not in seen:
                    lo_v, hi_v = aux.range_memo(g)
                    seen[g.coef] = hi_v - lo_v + 1
            size = 1
            for n in seen.values():
                size *= max(n, 1)
            return size
        _, ranges, dep, _ = self._axes(forms)
        size = 1
        for (lo_v, hi_v), expr in zip(ranges, dep, strict=True):
            if expr is None:
                size *= max(hi_v - lo_v + 1, 1)
        return size

    def _axes(
        self, forms: Iterable[_Form]
    ) -> tuple[
        list[_Form], list[tuple[int, int]], list[dict[int, Fraction] | None], list[tuple[int, int]]
    ]:
        """The distinct folded forms of ``forms``, their ranges, their dependencies and
        where each given form is read.

        Returns ``(uforms, ranges, dep, mapping)``: ``dep[u]`` is None for an
        axis of a table over these forms (every form, unless
        :attr:`compact_tables`), else ``{v: a}``: the cells of
        ``uforms[u]`` are ``sum a * cells of uforms[v]`` (axes ``v``, so
        its value is ``offset_u + sum a * (value_v - offset_v)``); the
        ``i``-th form is ``uforms[u] + d`` for ``(u, d) = mapping[i]``.
        Forms with narrow ranges are preferred as axes.
        """
        aux = self._aux()
        index: dict[tuple[tuple[int, int, int], ...], int] = {}
        uforms: list[_Form] = []
        mapping: list[tuple[int, int]] = []
        for f in forms:
            g = aux.fold_memo(f)
            u = index.get(g.coef)
            if u is None:
                u = index[g.coef] = len(uforms)
                uforms.append(g)
            mapping.append((u, g.offset - uforms[u].offset))
        ranges = [aux.range_memo(g) for g in uforms]
        if len(uforms) < 2 or not self._compact:
            return uforms, ranges, [None] * len(uforms), mapping
        key = tuple(g.coef for g in uforms)
        dep = aux.spans.get(key)
        if dep is None:
            order = sorted(range(len(uforms)), key=lambda u: ranges[u][1] - ranges[u][0])
            got = _span(tuple(uforms[u].coef for u in order))
            dep = [None] * len(uforms)
            for pos, d in enumerate(got):
                if d is not None:
                    dep[order[pos]] = {order[j]: a for j, a in d.items()}
            aux.spans[key] = dep
        return uforms, ranges, dep, mapping

    def _aux(self) -> _Aux:
        """Per-state data of :meth:`_fold` and :meth:`_form_range`, cached by value."""
        compact = self._compact
        key = (self._lo.tobytes(), self._hi.tobytes(), tuple(self._size), compact)
        aux = self._aux_cache
        if aux is not None and aux.key == key:
            return aux
        recent = self._aux_recent
        aux = recent.get(key)
        if aux is None:
            aux = recent[key] = _Aux(key, self._lo, self._hi, self._size, self._copies, compact)
            if len(recent) > 4:
                del recent[next(iter(recent))]
        self._aux_cache = aux
        return aux

    def _form_range(self, f: _Form) -> tuple[int, int]:
        """Bounds of a form's value from the cell bounds (ignoring joint constraints)."""
        return self._aux().range_memo(f)

    def _table_pred(
        self, forms: tuple[_Form, ...], fn: Callable[[np.ndarray], np.ndarray]
    ) -> _Pred | None:
        """Tabulate ``fn`` over the possible values of the forms (None if always true).

        Forms with the same cells share one axis (their values differ by a
        constant), forms whose cells are combinations of other forms' have
        none (see :meth:`_axes`); axes the result does not depend on are
        dropped.
        """
        uforms, ranges, dep, mapping = self._axes(forms)
        axes = [u for u in range(len(uforms)) if dep[u] is None]
        shape = tuple(ranges[u][1] - ranges[u][0] + 1 for u in axes)
        if any(x <= 0 for x in shape):
            raise self._fail("a joint constraint")
        size = math.prod(shape)  # Python ints: many axes must not wrap around
        if size > self.max_table:
            raise _TooLarge(None)
        grid = np.indices(shape).reshape(len(shape), size).T + np.asarray(
            [ranges[u][0] for u in axes], dtype=np.int64
        )
        grid = grid.reshape(size, len(shape)).astype(np.int64)
        ucol: dict[int, np.ndarray] = {u: grid[:, i] for i, u in enumerate(axes)}
        # a form without an axis is computed from the axes; where its value is
        # not an integer in its range no deal lies, and the table may say True
        care = np.ones(size, dtype=bool)
        for u, expr in enumerate(dep):
            if expr is None:
                continue
            den = math.lcm(*(a.denominator for a in expr.values()))
            num = np.full(size, den * uforms[u].offset, dtype=np.int64)
            for v, a in expr.items():
                num += int(a * den) * (ucol[v] - uforms[v].offset)
            care &= num % den == 0
            val = num // den
            care &= (ranges[u][0] <= val) & (val <= ranges[u][1])
            ucol[u] = val
        vals = (
            np.stack([ucol[u] + shift for u, shift in mapping], axis=1)
            if mapping
            else np.zeros((size, 0), dtype=np.int64)
        )
        ok = np.asarray(fn(vals), dtype=bool)
        if not (ok & care).any():
            raise self._fail("a joint constraint")
        ok = (ok | ~care).reshape(shape)
        if ok.all():
            return None
        keep = []
        for d in range(ok.ndim):
            first = np.take(ok, [0], axis=d)
            if not (ok == first).all():
                keep.append(d)
        for d in reversed(range(ok.ndim)):
            if d not in keep:
                ok = np.take(ok, 0, axis=d)
        pred = _Pred(
            tuple(uforms[axes[d]] for d in keep), tuple(ranges[axes[d]][0] for d in keep), ok
        )
        return self._shrink(pred)

    def _fold(self, f: _Form) -> _Form:
        """Canonical form: known cells in the offset, each column written shortest.

        The cells of a column with unknown counts always add up to the same
        number (the location's size minus its known cards), so a column's
        most common coefficient can be moved into the offset; a form covering
        a whole column becomes a constant.
        """
        return self._aux().fold_memo(f)

    def _shrink(self, p: _Pred, aux: _Aux | None = None) -> _Pred | None:
        """Restrict a table to the possible values; drop forms that are constant.

        ``aux`` is this state's :meth:`_aux` when the caller has it already.
        """
        if aux is None:
            aux = self._aux()
        forms = [aux.fold_memo(f) for f in p.forms]
        # folding moves known cells into the offsets; form values are unchanged
        table = p.table
        low = list(p.low)
        ranges = [aux.range_memo(f) for f in forms]
        shape = table.shape
        if all(
            rlo == low[d] and rhi - rlo + 1 == shape[d] > 1 for d, (rlo, rhi) in enumerate(ranges)
        ):
            # the table's box is exactly the possible values: nothing to cut
            if not table.any():
                raise self._fail("a joint constraint")
            if table.all():
                return None
            new_forms = tuple(forms)
            return p if new_forms == p.forms else _Pred(new_forms, p.low, table)
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
        bad = tighten(self._lo, self._hi, self._copies, np.asarray(self._size, dtype=np.int64))
        if bad is not None:
            if bad[0] == "cell":
                raise self._fail(f"{self.deck.name(bad[1])} in {self._locs[bad[2]]}")
            raise self._fail("the location sizes" if bad[0] == "sizes" else "the card counts")
        preds = []
        aux = self._aux() if self._preds else None
        for p in self._preds:
            q = self._shrink(p, aux)
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
                    max_bytes=self.max_bytes,
                    max_work=self.max_work,
                    **kw,
                )
            except _TooLarge as big:
                victim = big.pred
                real = [p for p in self._preds if victim is not None and p.table is victim.table]
                if not real:
                    if not self._preds:
                        raise SizeLimitError(
                            f"counting this deal takes {big.need:,} enumeration states for "
                            f"one group of card kinds even without joint constraints, more "
                            f"than max_states={self.max_states:,}"
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
        if exact:
            return 1 - dist[0]
        # the mass of one or more copies, summed (1 - dist[0] rounds an impossible card to -2e-16)
        return min(1.0, float(sum(dist[1:])))

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

    def joint_count_distribution(
        self,
        groups: Sequence[CardsLike],
        locations: str | Iterable[str],
        *,
        exact: bool = False,
        max_values: int = 200_000,
    ) -> dict[tuple[int, ...], Any]:
        """Joint distribution of the numbers of copies of each card set of ``groups``
        (disjoint) held by ``locations`` together.

        Counted as one :meth:`count_distribution` of a weighted sum, the copies of group
        ``i`` weighing the product of the ranges of the groups before it (mixed radix),
        so that each value of the sum is one tuple of counts.

        Returns
        -------
        dict
            ``{(n_0, n_1, ...): probability}`` over the tuples with a positive chance.

        Raises
        ------
        InvalidParameterError
            If a card is in two groups, or no group is given.
        SizeLimitError
            If the tuples' box (the product of the groups' ranges,
            :meth:`count_range`) exceeds ``max_values``.

        Examples
        --------
        >>> from games.cards import Deck
        >>> k = DealKnowledge(Deck(["A", "B", "C"], [2, 1, 1]), {"x": 2, "y": 2})
        >>> k.show("x", ["C"])
        >>> d = k.joint_count_distribution(["A", "B"], "x", exact=True)
        >>> sorted((n, str(p)) for n, p in d.items())
        [((0, 1), '1/3'), ((1, 0), '2/3')]
        """
        from kripke.errors import SizeLimitError

        if not groups:
            raise InvalidParameterError("no card set given")
        sets = [self._cardset(g) for g in groups]
        seen: dict[int, int] = {}
        for i, ks in enumerate(sets):
            for k in ks:
                if k in seen:
                    raise InvalidParameterError(
                        f"card {self.deck.name(k)!r} is in groups {seen[k]} and {i}: "
                        "the groups must be disjoint"
                    )
                seen[k] = i
        ls = self._locset(locations)
        spans = []
        for ks in sets:
            lo, hi = self._form_range(self._fold(_Form.make({(k, ll): 1 for k in ks for ll in ls})))
            spans.append((max(0, lo), max(lo, hi)))
        size = 1
        weights = []
        for lo, hi in spans:
            weights.append(size)
            size *= hi - lo + 1
        if size > max_values:
            raise SizeLimitError(
                f"the joint distribution of {len(sets)} card sets would have {size:,} "
                f"values, over max_values={max_values:,}"
            )
        form = _Form.make(
            {(k, ll): w for ks, w in zip(sets, weights, strict=True) for k in ks for ll in ls}
        )
        eng = self._build(exact=exact, distinct=False, query=form, moments=False, stages=False)
        out: dict[tuple[int, ...], Any] = {}
        base = sum(w * lo for w, (lo, _) in zip(weights, spans, strict=True))
        for v, p in eng.query_distribution().items():
            if not p:
                continue
            rest = v - base
            counts = []
            for w, (lo, _) in reversed(list(zip(weights, spans, strict=True))):
                counts.append(lo + rest // w)
                rest %= w
            out[tuple(reversed(counts))] = p if exact else float(p)
        return out

    def _query_fits(self, cards: CardsLike, locations: str | Iterable[str]) -> bool:
        """Whether :meth:`count_distribution` of these cards and locations surely
        answers without dropping a constraint (no component of its programme
        can pass :attr:`max_states`), judged without counting."""
        ks = self._cardset(cards)
        ls = self._locset(locations)
        if not self._preds:
            # the query's kinds are the only component; a kind's allocations
            # number at most comb(copies + locations - 1, locations - 1)
            n_loc = len(self._locs)
            bound = 1
            for k in ks:
                bound *= math.comb(int(self._copies[k]) + n_loc - 1, n_loc - 1)
            if bound <= self.max_states:
                return True
        form = _Form.make({(k, ll): 1 for k in ks for ll in ls})
        plan = _Engine(
            self._copies,
            self._lo,
            self._hi,
            self._size,
            self._preds,
            exact=False,
            distinct=False,
            query=form,
            moments=False,
            stages=False,
            max_edges=self.max_states,
            plan_only=True,
        )
        return bool(plan.fits)

    def _count_possible(self, cards: CardsLike, location: str, least: int, most: int) -> bool:
        """Whether a deal within the cell bounds and the sizes puts ``least`` to
        ``most`` copies of ``cards`` in ``location``.

        A feasible flow (kinds to locations, each cell between its bounds),
        no counting.  Without joint constraints those deals are exactly the
        consistent ones, so this is whether :meth:`count_distribution` gives
        the values ``least`` … ``most`` a positive probability; with joint
        constraints it is only necessary for that.
        """
        ks = self._cardset(cards)
        q = self._loc(location)
        cache_key = ("flow groups", tuple(ks), q)
        got = self._cache.get(cache_key)
        if got is None:
            lo, hi = self._lo.tolist(), self._hi.tolist()
            # kinds with the same copies and bounds are one node: a flow of their
            # sums splits into one per kind (equal shares are a fractional one,
            # and the transportation polytope has integral vertices)
            in_q = set(ks)
            grouped: dict[tuple[Any, ...], int] = {}
            for k, c in enumerate(self._copies.tolist()):
                key = (k in in_q, c, tuple(lo[k]), tuple(hi[k]))
                grouped[key] = grouped.get(key, 0) + 1
            got = self._cache[cache_key] = (
                grouped,
                sum(lo[k][q] for k in ks),
                sum(hi[k][q] for k in ks),
            )
        groups, known, room = got
        if room < least or known > most:
            return False
        if least <= known or most >= room:
            return self._transport_possible(groups, q, least - known, most - known)
        G, L = len(groups), len(self._size)
        # nodes: 0 source, 1 sink, kind groups, locations, then the query's node
        src, snk, qn = 0, 1, 2 + G + L
        edges: list[tuple[int, int, int, int]] = []
        for g, ((query, c, lo_k, hi_k), m) in enumerate(groups.items()):
            edges.append((src, 2 + g, m * c, m * c))
            for ll in range(L):
                if hi_k[ll] == 0:
                    continue
                to = qn if ll == q and query else 2 + G + ll
                edges.append((2 + g, to, m * lo_k[ll], m * hi_k[ll]))
        edges.append((qn, 2 + G + q, least, most))
        for ll in range(L):
            edges.append((2 + G + ll, snk, self._size[ll], self._size[ll]))
        return _feasible_flow(qn + 1, src, snk, edges)

    def _transport_possible(
        self, groups: dict[tuple[Any, ...], int], q: int, more: int, fewer: int
    ) -> bool:
        """:meth:`_count_possible` when one side of the interval cannot bind.

        The known copies are taken out (every cell from 0 to its cap), so the
        deals are the flows that saturate the kinds' unknown copies.  At most
        ``fewer`` more copies of the query in ``q``: the query's kinds reach
        ``q`` through one edge of that capacity; at least ``more``: the other
        kinds do, with the room left.  The copies all find a place exactly
        when every cut of that network is at least their number (the maximum
        flow is the minimum cut), which :func:`_min_cut` finds by trying them.
        """
        L = len(self._size)
        lo_cols = [0] * L
        for (_, _, lo_k, _), m in groups.items():
            for ll in range(L):
                lo_cols[ll] += m * lo_k[ll]
        demand = [self._size[ll] - lo_cols[ll] for ll in range(L)]
        limited = more <= 0  # True: the query's kinds pass the gate, else the others
        gate_cap = fewer if limited else demand[q] - more
        if gate_cap < 0:
            return False
        # columns: the locations, then the gate into q
        caps: list[list[int]] = []
        supply: list[int] = []
        for (query, c, lo_k, hi_k), m in groups.items():
            row = [m * (hi_k[ll] - lo_k[ll]) for ll in range(L)] + [0]
            if query == limited:
                row[L], row[q] = row[q], 0
            caps.append(row)
            supply.append(m * (c - sum(lo_k)))
        return _min_cut(caps, supply, demand + [0], (L, q, gate_cap)) >= sum(supply)

    def count_range(self, cards: CardsLike, locations: str | Iterable[str]) -> tuple[int, int]:
        """Bounds ``(least, most)`` on the copies of ``cards`` that ``locations`` hold
        together in every possible deal, from the cell bounds and the locations' sizes
        alone (no counting; joint constraints ignored, so a bound may not be tight):
        a quick test before :meth:`count_distribution`.

        Examples
        --------
        >>> from games.cards import Deck
        >>> k = DealKnowledge(Deck(["A", "B", "C"]), {"x": 2, "y": 1})
        >>> k.void("x", "C")
        >>> k.count_range("A B", "x"), k.count_range("C", ["y"])
        ((2, 2), (1, 1))
        """
        form = self._count_form(locations, cards)[0]
        return self._form_range(self._fold(form))

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
        by ``exp(base)``.  Nothing given: this knowledge's own kept programme.
        """
        probe = self._probe(cells) if cells else self
        if probe is None:
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

    def _exists_given(self, cells: dict[tuple[int, int], bool]) -> int:
        """1 when some consistent deal has the given cells occupied or empty, else 0
        (nothing given: this knowledge's own kept programme)."""
        probe = self._probe(cells) if cells else self
        return 0 if probe is None else int(probe._engine().log_total() > -math.inf)

    def _probe(self, cells: dict[tuple[int, int], bool]) -> DealKnowledge | None:
        """A settled copy with the given cells occupied or empty; ``None`` when no
        deal within the bounds has them."""
        probe = self.copy()
        for (k, ll), truth in cells.items():
            if truth:
                probe._lo[k, ll] = max(probe._lo[k, ll], 1)
            else:
                probe._hi[k, ll] = 0
        try:
            probe._settle()
        except InconsistentKnowledgeError:
            return None
        return probe

    def possible(self, formula: Any) -> bool:
        """Whether some consistent deal satisfies the propositional ``formula``."""
        from kripke.formulas import Atom

        f = _as_prop(formula)
        # this knowledge's programme first: a constraint too large to count is
        # dropped here, before the probes copy the constraints; built with its
        # sampler unless one is kept already, so that drawn deals can witness f
        self._kept_engine()
        cell = {a.key: self._cell_of_atom(a) for a in f.atoms() if isinstance(a, Atom)}

        def holds(d: np.ndarray) -> bool:
            occupied = {key: bool(d[c] >= 1) for key, c in cell.items()}
            return evaluate(f, functools.partial(_occupied, occupied))

        if self._drawn_witness(holds):
            return True
        return bool(_shannon(f, self._cell_of_atom, self._exists_given, stop_at_hit=True))

    def _kept_engine(self) -> _Engine:
        """This knowledge's floating-point programme, kept: built with its sampler unless
        one is kept already, so that drawn deals can witness what is possible."""
        kept = any(k[0] == "engine" and not k[1] and not k[2] for k in self._cache)
        return self._engine(stages=not kept)

    def _kept_sampler(self) -> _Engine | None:
        """The kept floating-point programme that can draw deals, if any."""
        for mo in (False, True):
            eng = self._cache.get(("engine", False, False, mo, True))
            if eng is not None:
                return eng
        return None

    #: Deals drawn from the kept programme before :meth:`possible` probes cell by cell.
    WITNESS_DRAWS = 32

    def _drawn_witness(self, holds: Callable[[np.ndarray], bool]) -> bool:
        """Whether one of :attr:`WITNESS_DRAWS` deals drawn (seeded) from this knowledge's
        kept programme satisfies ``holds`` (of a ``(kinds, locations)`` array) and passes
        :meth:`_is_deal`: a consistent deal where it holds, without building a probe
        programme.  ``False`` says nothing (no sampler kept, or no draw hit)."""
        eng = self._kept_sampler()
        if eng is None or eng.log_total() == -math.inf:
            return False
        draws = eng.sample(self.WITNESS_DRAWS, np.random.default_rng(0))
        return any(holds(d) and self._is_deal(d) for d in draws)

    def _is_deal(self, d: np.ndarray) -> bool:
        """Whether the ``(kinds, locations)`` array ``d`` (internal locations) is a deal
        this knowledge allows: every copy placed once, every location at its size, the
        cell bounds and every joint constraint kept."""
        if (d < self._lo).any() or (d > self._hi).any():
            return False
        if (d.sum(axis=1) != self._copies).any():
            return False
        if (d.sum(axis=0) != np.asarray(self._size, dtype=np.int64)).any():
            return False
        for p in self._preds:
            values = [fm.offset + sum(c * int(d[k, ll]) for k, ll, c in fm.coef) for fm in p.forms]
            if not p.accept(np.asarray([values], dtype=np.int64))[0]:
                return False
        return True

    def count_possible(self, card: str, location: str, least: int, most: int) -> bool:
        """Whether some consistent deal puts between ``least`` and ``most`` copies of
        ``card`` at ``location``: a deal drawn from the kept programme (as
        :meth:`possible`), else one programme with that cell's bounds narrowed, counted
        in floating point (existence needs no exact weights).

        Examples
        --------
        >>> from games.cards import Deck
        >>> k = DealKnowledge(Deck(["A", "B"], [2, 2]), {"x": 2, "y": 2})
        >>> k.at_least(["x"], "A", 1)
        >>> k.count_possible("A", "x", 0, 0), k.count_possible("A", "x", 2, 2)
        (False, True)
        """
        k, col = self.deck.index(card), self._loc(location)
        least, most = max(least, int(self._lo[k, col])), min(most, int(self._hi[k, col]))
        if least > most:
            return False
        if self._kept_engine().log_total() == -math.inf:
            return False
        if self._drawn_witness(lambda d: bool(least <= d[k, col] <= most)):
            return True
        probe = self.copy()
        probe._lo[k, col], probe._hi[k, col] = least, most
        try:
            probe._settle()
        except InconsistentKnowledgeError:
            return False
        return probe._engine().log_total() > -math.inf

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


def _occupied(cells: dict[Any, bool], atom: Any) -> bool:
    """An atom's truth in a drawn deal, from its cells' occupancy."""
    return cells[atom.key]


#: Most constraints (choices of one lower, or one upper, bound form per kind) a merge
#: writes Hall's condition as.
_LOCAL_PICKS = 64


class _TooLargeMany(_TooLarge):
    """Several joint constraints to drop, in the order successive retries would drop them."""

    def __init__(self, preds: list[_Pred]):
        super().__init__(preds[0])
        self.preds = preds


class _Aux:
    """The cell bounds as Python lists, for folding forms and bounding their values.

    Built once per state (the key is the bounds and sizes by value) and
    holding the memos of :meth:`DealKnowledge._fold` and
    :meth:`DealKnowledge._form_range`, which are called many times per
    event on the same state.
    """

    __slots__ = (
        "key",
        "lo",
        "hi",
        "fixed",
        "var",
        "s_l",
        "row_lo",
        "row_free",
        "cp",
        "size",
        "col_lo",
        "col_free",
        "lo_t",
        "hi_t",
        "compact",
        "folds",
        "ranges",
        "spans",
    )

    def __init__(
        self,
        key: Any,
        lo: np.ndarray,
        hi: np.ndarray,
        size: Sequence[int],
        cp: np.ndarray,
        compact: bool = False,
    ):
        self.key = key
        self.compact = compact
        self.lo: list[list[int]] = lo.tolist()
        self.hi: list[list[int]] = hi.tolist()
        fixed = lo == hi
        self.fixed: list[list[bool]] = fixed.tolist()
        self.var: list[list[int]] = [
            [k for k, f in enumerate(col) if not f] for col in fixed.T.tolist()
        ]
        known = np.where(fixed, lo, 0).sum(axis=0)
        self.s_l: list[int] = [int(size[j]) - int(known[j]) for j in range(len(size))]
        self.row_lo: list[int] = lo.sum(axis=1).tolist()
        self.row_free: list[int] = (hi - lo).sum(axis=1).tolist()
        self.cp: list[int] = cp.tolist()
        self.size = list(size)
        # the locations' lines of cells, read by ``form_range`` with ``compact`` only
        self.col_lo: list[int] = lo.sum(axis=0).tolist() if compact else []
        self.col_free: list[int] = (hi - lo).sum(axis=0).tolist() if compact else []
        self.lo_t: list[list[int]] = lo.T.tolist() if compact else []
        self.hi_t: list[list[int]] = hi.T.tolist() if compact else []
        self.folds: dict[_Form, _Form] = {}
        self.ranges: dict[_Form, tuple[int, int]] = {}
        self.spans: dict[tuple[Any, ...], list[dict[int, Fraction] | None]] = {}

    def fold_memo(self, f: _Form) -> _Form:
        """:meth:`fold`, memoised on this state."""
        got = self.folds.get(f)
        if got is None:
            got = self.folds[f] = self.fold(f)
        return got

    def range_memo(self, f: _Form) -> tuple[int, int]:
        """:meth:`form_range`, memoised on this state."""
        got = self.ranges.get(f)
        if got is None:
            got = self.ranges[f] = self.form_range(f)
        return got

    def fold(self, f: _Form) -> _Form:
        fixed, lo = self.fixed, self.lo
        off = f.offset
        by_col: dict[int, dict[int, int]] = {}
        for k, ll, c in f.coef:
            if fixed[k][ll]:
                off += c * lo[k][ll]
            else:
                col = by_col.setdefault(ll, {})
                col[k] = col.get(k, 0) + c
        keep: list[tuple[int, int, int]] = []
        for ll, col in by_col.items():
            var = self.var[ll]
            counts: dict[int, int] = {}
            for c in col.values():
                counts[c] = counts.get(c, 0) + 1
            best, best_n = 0, len(var) - len(col)
            for c, n in counts.items():
                if n > best_n:
                    best, best_n = c, n
            if best:
                off += best * self.s_l[ll]
                for k in var:
                    c = col.get(k, 0) - best
                    if c:
                        keep.append((k, ll, c))
            else:
                keep.extend((k, ll, c) for k, c in col.items() if c)
        keep.sort()
        return _Form(tuple(keep), off)

    def form_range(self, f: _Form) -> tuple[int, int]:
        """Bounds of a form's value from the cell bounds, by kinds (and by locations).

        A kind's copies not known to be anywhere are spread over its cells
        (each up to its bound): the smallest and largest values of the
        form's cells of each kind add up to a bound.  With ``compact`` a
        location's cards not known to be there are spread over its cells
        too, and the form lies in both bounds.
        """
        by_kind: dict[int, dict[int, int]] = {}
        for k, ll, c in f.coef:
            by_kind.setdefault(k, {})[ll] = c
        lo_r, hi_r = self._spread(by_kind, self.lo, self.hi, self.cp, self.row_lo, self.row_free)
        if not self.compact:
            return f.offset + lo_r, f.offset + hi_r
        by_loc: dict[int, dict[int, int]] = {}
        for k, ll, c in f.coef:
            by_loc.setdefault(ll, {})[k] = c
        lo_c, hi_c = self._spread(
            by_loc, self.lo_t, self.hi_t, self.size, self.col_lo, self.col_free
        )
        return f.offset + max(lo_r, lo_c), f.offset + min(hi_r, hi_c)

    @staticmethod
    def _spread(
        lines: Mapping[int, Mapping[int, int]],
        lo: Sequence[Sequence[int]],
        hi: Sequence[Sequence[int]],
        total: Sequence[int],
        line_lo: Sequence[int],
        line_free: Sequence[int],
    ) -> tuple[int, int]:
        """Smallest and largest ``sum c * x`` over lines (kinds or locations) of cells.

        Line ``i`` has the cells ``lo[i][j] <= x[j] <= hi[i][j]`` adding up
        to ``total[i]`` (``line_lo[i]`` the sum of its lower bounds,
        ``line_free[i]`` of its caps); ``lines[i]`` maps the form's cells of
        the line to their coefficients, every other cell counts 0.
        """
        mn_all = mx_all = 0
        for i, cs in lines.items():
            lo_i, hi_i = lo[i], hi[i]
            base = 0
            caps = []
            inside = 0
            for j, c in cs.items():
                base += c * lo_i[j]
                cap = hi_i[j] - lo_i[j]
                caps.append((c, cap))
                inside += cap
            r = total[i] - line_lo[i]
            # the r free units over the cells: coefficient 0 outside the form
            caps.append((0, line_free[i] - inside))
            caps.sort()
            mn = mx = base
            left = r
            for c, cap in caps:
                t = min(cap, left)
                mn += c * t
                left -= t
            left = r
            for c, cap in reversed(caps):
                t = min(cap, left)
                mx += c * t
                left -= t
            mn_all += mn
            mx_all += mx
        return mn_all, mx_all


def _own_constraints(
    a: int, b: int, touched: Sequence[_Pred], latent_ks: set[int]
) -> dict[int, list[_Pred]]:
    """The latent kinds of a merge of ``a`` into ``b`` whose split only constraints of
    their own see, with those constraints (see :meth:`DealKnowledge._local_kinds`).

    A constraint is kind ``k``'s own when it reads ``k``'s cells alone, or
    when ``k`` is the one latent kind whose split it sees and the only kind
    whose cells in ``a`` or ``b`` it reads.

    Examples
    --------
    >>> from games.deal.forms import _Form, _interval_pred
    >>> mine = _interval_pred(_Form(((0, 0, 1), (0, 2, 1))), 0, 1)    # kind 0 alone
    >>> both = _interval_pred(_Form(((1, 0, 1), (2, 0, 1))), 0, 1)    # kinds 1 and 2
    >>> sorted(_own_constraints(0, 1, [mine, both], {0, 1, 2}))
    [0]
    """
    return _own_of([(p, _sight(p, a, b, latent_ks)) for p in touched])


def _sight(p: _Pred, a: int, b: int, latent_ks: set[int]) -> tuple[int | None, frozenset[int]]:
    """``(k, sees)``: the kind whose own constraint ``p`` is in a merge of ``a`` into
    ``b`` (None if none, see :func:`_own_constraints`) and the latent kinds whose
    split ``p`` sees."""
    ks: set[int] = set()
    at_ab: set[int] = set()
    sees: set[int] = set()
    for f in p.forms:
        eps: dict[int, int] = {}
        for k, ll, c in f.coef:
            ks.add(k)
            if ll == a:
                eps[k] = eps.get(k, 0) + c
                at_ab.add(k)
            elif ll == b:
                eps[k] = eps.get(k, 0) - c
                at_ab.add(k)
        sees |= {k for k, e in eps.items() if e and k in latent_ks}
    if len(ks) == 1 and ks <= latent_ks:
        return next(iter(ks)), frozenset(sees)
    if len(sees) == 1 and at_ab == sees:
        return next(iter(sees)), frozenset(sees)
    return None, frozenset(sees)


def _own_of(
    sights: Sequence[tuple[_Pred, tuple[int | None, frozenset[int]]]],
) -> dict[int, list[_Pred]]:
    """:func:`_own_constraints` from the constraints' :func:`_sight`."""
    own: dict[int, list[_Pred]] = {}
    seen: set[int] = set()  # kinds whose split one of those sees
    shared: set[int] = set()  # kinds whose split a constraint of several kinds sees
    for p, (k, sees) in sights:
        if k is None:
            shared |= sees
        else:
            own.setdefault(k, []).append(p)
            seen |= sees
    return {k: ps for k, ps in own.items() if k in seen and k not in shared}


#: Largest number of cell values of one kind that :func:`_local_bounds` tries.
_LOCAL_CELLS = 4096


def _affine(design: np.ndarray, y: np.ndarray, basis: bool = True) -> np.ndarray | None:
    """Integer coefficients ``c`` with ``design @ c == y`` exactly, or None.

    The first column is the constant 1, the others are variables.  A
    variable with one value at every point gets coefficient 0.  Where the
    points lie on a line (or plane) of their variables, least squares
    shares the coefficients among them in fractions; with ``basis`` the fit
    is then made again on a basis of the columns, the earlier ones first
    (or the later variables first), the others at 0.

    Examples
    --------
    >>> design = np.array([[1, 1, 0], [1, 1, 1]])   # the first variable is 1 throughout
    >>> _affine(design, np.array([1, 1])).tolist()
    [1, 0, 0]
    >>> design = np.array([[1, 1, 1], [1, 2, 0]])   # the variables add up to 2
    >>> _affine(design, np.array([0, 1])).tolist()
    [-1, 1, 0]
    """
    vary = np.ones(design.shape[1], dtype=bool)
    vary[1:] = (design[:, 1:] != design[:1, 1:]).any(axis=0)
    cols = np.flatnonzero(vary).tolist()
    ic = _fit(design, y, cols)
    if ic is not None or not basis or len(design) <= 1:
        return ic
    gram = (design.T @ design).astype(float)  # the ranks of the columns, from a small matrix
    if np.linalg.matrix_rank(gram[np.ix_(cols, cols)]) == len(cols):
        return None  # the fit was unique
    for order in (cols[1:], cols[:0:-1]):
        keep = [0]
        for j in order:
            if np.linalg.matrix_rank(gram[np.ix_([*keep, j], [*keep, j])]) > len(keep):
                keep.append(j)
        ic = _fit(design, y, sorted(keep))
        if ic is not None:
            return ic
    return None


def _fit(design: np.ndarray, y: np.ndarray, cols: list[int]) -> np.ndarray | None:
    """Least-squares coefficients of ``y`` on the columns ``cols`` of ``design`` (the
    others 0), if rounding them fits exactly."""
    coef = np.linalg.lstsq(design[:, cols].astype(float), y.astype(float), rcond=None)[0]
    ic = np.zeros(design.shape[1], dtype=np.int64)
    ic[cols] = np.rint(coef).astype(np.int64)
    return ic if (design @ ic == y).all() else None


def _pieces(design: np.ndarray, y: np.ndarray) -> list[np.ndarray] | None:
    """Affine functions (integer coefficients, rows of ``design`` the points with a
    leading 1) whose largest value is ``y`` at every point, or None if none found.

    One function if ``y`` is affine; else the functions that fit ``y`` where
    one variable is at most (or at least) some value and lie below ``y``
    everywhere (an end that a threshold of a cell or form bends, ``n - 1 +
    [s == 0]`` is the larger of ``n - 1`` and ``n - s``), if together they
    reach ``y`` at every point.

    Examples
    --------
    >>> n, s = np.meshgrid(np.arange(3), np.arange(4), indexing="ij")
    >>> design = np.stack([np.ones(12, int), n.ravel(), s.ravel()], axis=1)
    >>> y = n.ravel() - 1 + (s.ravel() == 0)
    >>> [ic.tolist() for ic in _pieces(design, y)]
    [[0, 1, -1], [-1, 1, 0]]
    """
    ic = _affine(design, y)
    if ic is not None:
        return [ic]
    found: list[np.ndarray] = []
    reached = np.zeros(len(y), dtype=bool)
    for v in range(1, design.shape[1]):
        col = design[:, v]
        for t in np.unique(col).tolist():
            for part in (col <= t, col >= t):
                if part.all() or part.sum() < 2:
                    continue
                ic = _affine(design[part], y[part], basis=False)
                if ic is None:
                    continue
                vals = design @ ic
                if (vals <= y).all() and not any((ic == f).all() for f in found):
                    found.append(ic)
                    reached |= vals == y
    return found if reached.all() else None


def _local_bounds(
    k: int,
    preds: Sequence[_Pred],
    a: int,
    b: int,
    size_a: int,
    ab: tuple[int, int, int, int],
    lo: Sequence[int],
    hi: Sequence[int],
    copies: int,
    rests: Sequence[tuple[_Form, tuple[int, int]]] = (),
) -> tuple[list[_Form], list[_Form], int, int, _Pred | None] | None:
    """Bounds of kind ``k``'s copies that came from ``a`` when ``a`` joins ``b``, as
    affine forms of its cells after the merge (see :meth:`DealKnowledge._local_kinds`).

    ``preds`` are constraints on kind ``k``'s cells and on ``rests``: forms
    over other kinds' cells outside ``a`` and ``b`` (with their ranges of
    values), which the merge leaves alone and which enter like cells.
    ``ab`` are ``k``'s bounds ``(lo, hi)`` in ``a`` then in ``b`` before the
    merge, ``lo`` and ``hi`` its bounds in every location.  Each constraint (and each cell bound)
    allows, for every value of the cells, an interval of splits; the splits
    are their intersection, from the largest of their lower ends to the
    smallest of their upper ends.  Returns ``(lowers, uppers, largest lower
    value, smallest upper value, table)``: the lower ends that can be the
    largest and the upper ends that can be the smallest, each an affine form
    with integer coefficients, and ``table`` accepting the cell values for
    which some split satisfies every bound and constraint (None when all
    do); or None when some constraint's splits are not an interval or an end
    is not affine.

    Examples
    --------
    >>> from games.deal.forms import _Form, _interval_pred
    >>> p = _interval_pred(_Form(((0, 0, 1), (0, 2, 1))), 0, 1)   # cells 0 and 2 hold <= 1
    >>> low, up, lmax, umin, table = _local_bounds(        # 2 joins 1, which held none
    ...     0, [p], 2, 1, 1, (0, 1, 0, 0), [0, 0, 0], [1, 0, 1], 2)
    >>> low == up == [_Form(((0, 1, 1),))], table.table.tolist()   # x is 1's count now
    (True, [[True, True], [True, False]])
    """
    la, ha, lb, hb = ab
    others = sorted(
        {ll for p in preds for f in p.forms for kk, ll, _ in f.coef if kk == k} - {a, b}
    )
    locs = [b, *others]
    ranges = [(lo[a] + lo[b], min(copies, hi[a] + hi[b]))]
    ranges += [(lo[ll], hi[ll]) for ll in others]
    ranges += [r for _, r in rests]
    # the variables: k's cells (in b, then the others), then the rests
    axes = [_Form.make({(k, ll): 1}) for ll in locs] + [r for r, _ in rests]
    rest_at = {r.coef: len(locs) + i for i, (r, _) in enumerate(rests)}
    if any(r1 < r0 for r0, r1 in ranges):
        return None
    shape = tuple(r1 - r0 + 1 for r0, r1 in ranges)
    cells = math.prod(shape)
    if cells > _LOCAL_CELLS:
        return None
    grid = np.indices(shape).reshape(len(shape), cells).T + np.asarray(
        [r0 for r0, _ in ranges], dtype=np.int64
    )
    x0, top = max(la, 0), min(ha, size_a, copies)
    if top < x0:
        return None
    # each constraint's splits are read on a wider range than the possible
    # ones, so that its ends are not cut by them (the constant ends are)
    wide = copies + 2
    xs = np.arange(x0 - wide, top + wide + 1, dtype=np.int64)
    real = (xs >= x0) & (xs <= top)
    n_b = grid[:, 0:1]
    pos = {ll: i for i, ll in enumerate(locs)}
    # oks[c][s, j]: constraint c allows the split xs[j] at cell values grid[s]
    oks = [(n_b - xs[None, :] >= lb) & (n_b - xs[None, :] <= hb)]
    for p in preds:
        vals = np.zeros((cells, len(xs), len(p.forms)), dtype=np.int64)
        for fi, f in enumerate(p.forms):
            v = np.full((cells, len(xs)), f.offset, dtype=np.int64)
            rest = tuple(x for x in f.coef if x[0] != k)
            if rest:
                v += grid[:, rest_at[rest] : rest_at[rest] + 1]
            for kk, ll, c in f.coef:
                if kk != k:
                    continue
                if ll == a:
                    v += c * xs[None, :]
                elif ll == b:
                    v += c * (n_b - xs[None, :])
                else:
                    v += c * grid[:, pos[ll] : pos[ll] + 1]
            vals[:, :, fi] = v
        oks.append(p.accept(vals.reshape(-1, len(p.forms))).reshape(cells, len(xs)))
    feas = (np.logical_and.reduce(oks) & real[None, :]).any(axis=1)
    if not feas.any():
        return None
    pts = grid[feas]
    design = np.concatenate([np.ones((len(pts), 1), dtype=np.int64), pts], axis=1)
    # each constraint's interval of splits, its ends fitted as affine forms
    lows: list[tuple[np.ndarray, np.ndarray]] = [(np.full(len(pts), x0), _const(len(axes), x0))]
    ups: list[tuple[np.ndarray, np.ndarray]] = [(np.full(len(pts), top), _const(len(axes), top))]
    for ok in oks:
        okf = ok[feas]
        first = np.argmax(okf, axis=1)
        last = len(xs) - 1 - np.argmax(okf[:, ::-1], axis=1)
        if not (okf.sum(axis=1) == last - first + 1).all():
            return None  # a gap: not an interval
        for y, out, sign in ((xs[first], lows, 1), (xs[last], ups, -1)):
            got = _pieces(design, sign * y)
            if got is None:
                return None
            out.extend((design @ (sign * ic), sign * ic) for ic in got)
    low_v = np.max([y for y, _ in lows], axis=0)
    up_v = np.min([y for y, _ in ups], axis=0)

    def needed(pieces: list[tuple[np.ndarray, np.ndarray]], want: np.ndarray) -> list[_Form]:
        # the ends that reach the bound somewhere no earlier kept end does, first
        # the ones reaching it most often
        order = sorted(pieces, key=lambda t: -int((t[0] == want).sum()))
        kept: list[tuple[np.ndarray, np.ndarray]] = []
        covered = np.zeros(len(want), dtype=bool)
        for y, ic in order:
            hit = (y == want) & ~covered
            if hit.any():
                kept.append((y, ic))
                covered |= hit
        return [
            _sum_forms(
                [_Form((), int(ic[0]))]
                + [_scaled(f, int(c)) for f, c in zip(axes, ic[1:], strict=True) if c]
            )
            for _, ic in kept
        ]

    table = None
    if not feas.all():
        table = _Pred(tuple(axes), tuple(r0 for r0, _ in ranges), feas.reshape(shape))
    return needed(lows, low_v), needed(ups, up_v), int(low_v.max()), int(up_v.min()), table


def _scaled(f: _Form, c: int) -> _Form:
    """``c * f``."""
    return _Form(tuple((k, ll, c * x) for k, ll, x in f.coef), c * f.offset)


def _const(n: int, v: int) -> np.ndarray:
    """The coefficients of the constant ``v`` over ``n`` cells (see :func:`_affine`)."""
    out = np.zeros(n + 1, dtype=np.int64)
    out[0] = v
    return out


def _search_splits(
    base: np.ndarray,
    E: np.ndarray,
    joined: Sequence[tuple[_Pred, int, int]],
    Lm: np.ndarray,
    Um: np.ndarray,
    least: np.ndarray,
    most: np.ndarray,
    size: int,
) -> np.ndarray:
    """The rows for which some split of a merged location exists.

    Row ``s`` asks for counts ``x`` (one per group of kinds) with
    ``Lm[s] <= x <= Um[s]`` and ``0 <= x <= size``, ``least[s] <= sum(x) <=
    most[s]``, and every joined constraint ``(pred, s0, s1)`` accepting
    columns ``s0:s1`` of ``base[s] + E @ x``.  The counts are chosen group
    after group: a value keeps only the rows whose bounds allow it and whose
    sum the remaining groups can still complete, and rows already answered
    are left out, so the whole box of splits is not tried for every row.

    Examples
    --------
    >>> from games.deal.forms import _Form
    >>> big = _Pred((_Form(()),), (2,), np.ones(1, dtype=bool))   # the form equals 2
    >>> Lm, Um = np.array([[0, 0], [0, 0], [1, 1]]), np.array([[2, 2], [0, 0], [2, 2]])
    >>> E = np.array([[1, 1]])                                     # the form is x0 + x1
    >>> base = np.zeros((3, 1), dtype=np.int64)
    >>> least, most = np.array([2, 2, 0]), np.array([2, 2, 1])
    >>> _search_splits(base, E, [(big, 0, 1)], Lm, Um, least, most, 4).tolist()
    [True, False, False]
    """
    S, D = Lm.shape
    ok = np.zeros(S, dtype=bool)
    if S == 0:
        return ok
    lo_c = np.maximum(Lm, 0)
    hi_c = np.minimum(Um, size)
    # what the groups from d on can add at least and at most
    tail_lo = np.zeros((S, D + 1), dtype=np.int64)
    tail_hi = np.zeros((S, D + 1), dtype=np.int64)
    for d in reversed(range(D)):
        tail_lo[:, d] = tail_lo[:, d + 1] + lo_c[:, d]
        tail_hi[:, d] = tail_hi[:, d + 1] + hi_c[:, d]
    x = np.zeros(D, dtype=np.int64)

    def go(d: int, rows: np.ndarray, done: int) -> None:
        if not rows.size:
            return
        if d == D:
            vals = base[rows] + (E @ x)[None, :]
            acc = np.ones(len(rows), dtype=bool)
            for p, s0, s1 in joined:
                acc &= p.accept(vals[:, s0:s1])
            ok[rows[acc]] = True
            return
        lo_d, hi_d = lo_c[rows, d], hi_c[rows, d]
        rest_lo, rest_hi = tail_lo[rows, d + 1], tail_hi[rows, d + 1]
        least_r, most_r = least[rows], most[rows]
        for v in range(int(lo_d.min()), int(hi_d.max()) + 1):
            t = done + v
            keep = (lo_d <= v) & (v <= hi_d) & (t + rest_lo <= most_r) & (t + rest_hi >= least_r)
            sub = rows[keep]
            sub = sub[~ok[sub]]
            if sub.size:
                x[d] = v
                go(d + 1, sub, t)

    start = np.all(lo_c <= hi_c, axis=1) & (tail_lo[:, 0] <= most) & (tail_hi[:, 0] >= least)
    go(0, np.flatnonzero(start), 0)
    return ok


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


@functools.lru_cache(maxsize=8192)
def _split_bounds(
    la: int, ha: int, lb: int, hb: int, x0: int, x1: int
) -> tuple[list[int], list[int], tuple[int, int] | None, tuple[int, int] | None]:
    """Bounds of the copies a merged kind had in the merged location, for each count.

    For every merged count ``x`` from ``x0`` to ``x1``: the copies that came
    from the first location lie between ``max(la, x - hb)`` and
    ``min(ha, x - lb)`` (its bounds ``la``, ``ha``; the other's ``lb``, ``hb``).
    Returns both lists and the two bounds as lines of ``x`` (or None).  The
    lists are shared between calls: read them, never change them.

    Examples
    --------
    >>> _split_bounds(0, 5, 1, 5, 1, 3)
    ([0, 0, 0], [0, 1, 2], (0, 0), (1, -1))
    """
    vals = range(x0, x1 + 1)
    lk = [max(la, v - hb) for v in vals]
    uk = [min(ha, v - lb) for v in vals]
    return lk, uk, _max_line(la, hb, x0, x1), _min_line(ha, lb, x0, x1)


def _max_line(c: int, h: int, x0: int, x1: int) -> tuple[int, int] | None:
    """``(a, b)`` with ``max(c, x - h) = a*x + b`` for every ``x`` from ``x0`` to ``x1``, or None.

    One point is the line ``(0, value)``.

    Examples
    --------
    >>> _max_line(1, 2, 0, 3), _max_line(1, 2, 3, 5), _max_line(1, 2, 2, 4)
    ((0, 1), (1, -2), None)
    """
    if x0 == x1:
        return (0, max(c, x0 - h))
    if x1 - h <= c:
        return (0, c)
    if x0 - h >= c:
        return (1, -h)
    return None


def _min_line(c: int, h: int, x0: int, x1: int) -> tuple[int, int] | None:
    """``(a, b)`` with ``min(c, x - h) = a*x + b`` for every ``x`` from ``x0`` to ``x1``, or None.

    One point is the line ``(0, value)``.

    Examples
    --------
    >>> _min_line(1, 2, 0, 3), _min_line(1, 2, 3, 5), _min_line(1, 2, 2, 4)
    ((1, -2), (0, 1), None)
    """
    if x0 == x1:
        return (0, min(c, x0 - h))
    if x1 - h <= c:
        return (1, -h)
    if x0 - h >= c:
        return (0, c)
    return None


#: The shared read-only True values of :func:`_wide_interval` (made on first use).
_ALL_TRUE: np.ndarray | None = None


def _add_interval(preds: list[_Pred], form: _Form, lo: int, hi: int) -> None:
    """Append the constraint ``lo <= form <= hi`` to ``preds`` (a :func:`_wide_interval`),
    unless the form is a constant it holds for: settling would drop that one at once.

    Examples
    --------
    >>> preds: list[_Pred] = []
    >>> _add_interval(preds, _Form((), 2), 1, 10**6)
    >>> _add_interval(preds, _Form(((0, 1, 1),), 2), 1, 10**6)
    >>> [p.forms[0].offset for p in preds]
    [2]
    """
    if not form.coef and lo <= form.offset <= hi:
        return
    preds.append(_wide_interval(form, lo, hi))


def _wide_interval(form: _Form, lo: int, hi: int) -> _Pred:
    """:func:`~games.deal.forms._interval_pred` without allocating its (wide) table.

    The table is a read-only view of a shared run of True values: settling
    cuts it to the form's possible values at once (a copy, or nothing when it
    accepts them all), so the view is never kept.
    """
    global _ALL_TRUE
    lo = max(lo, -(10**6))
    if hi < lo:
        return _interval_pred(form, lo, hi)
    n = hi - lo + 1
    if _ALL_TRUE is None:
        _ALL_TRUE = np.ones(2 * 10**6 + 64, dtype=bool)
        _ALL_TRUE.flags.writeable = False
    if n <= len(_ALL_TRUE):
        return _Pred((form,), (lo,), _ALL_TRUE[:n])
    return _Pred((form,), (lo,), np.broadcast_to(np.True_, (n,)))
