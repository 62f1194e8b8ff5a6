"""Deal knowledge without joint constraints: :class:`CellKnowledge`.

:class:`~games.deal.DealKnowledge` keeps, besides a lower and an upper bound
on the copies of every card kind in every location (the *cells*), the joint
constraints that face-down moves leave ("the pile and P2 together hold at
least one 7").  :class:`CellKnowledge` keeps the cells only.  An update is
the cell-wise projection of the event (a few array operations); the
propagation of the bounds through the card counts and the location sizes
(the rules of :func:`tighten`, :class:`~games.deal.DealKnowledge`'s, to the
same bounds, in fewer array operations) runs once before the next query
(or :meth:`CellKnowledge.settle`), not after every event.  Its possible deals are always a superset of
:class:`~games.deal.DealKnowledge`'s: what it reports as known stays true.

Its questions are about one *group* of card kinds (the cards of one rank):
:meth:`CellKnowledge.count_distribution` and :meth:`CellKnowledge.expected`
answer them in the *shuffle model*: the unknown cards (the copies no lower
bound accounts for) lie shuffled in the unknown places (the places no lower
bound fills), every arrangement of them as distinct cards equally likely,
conditioned on the group's own upper bounds; the other kinds' upper bounds
are not used.  A placement ``x`` of the group's unknown copies (``x[k][l]``
copies of kind ``k`` in location ``l``) then has the weight

``prod_k r_k! / prod_l x[k][l]!  *  prod_l f_l! / (f_l - X_l)!``

where ``r_k`` are kind ``k``'s unknown copies, ``f_l`` the unknown places of
location ``l`` and ``X_l`` the group's copies among them: the first factor
arranges the group's copies, the second the other unknown cards in the
places left.  A group has a handful of copies, so the placements are
enumerated and every answer is exact in this model.  It is not the
posterior of :class:`~games.deal.DealKnowledge`: that one also keeps the
joint constraints and the other kinds' upper bounds, and counts a lower
bound of another kind as copies that may be any of its physical cards.  The
two agree when the deal knowledge has no joint constraint, the other kinds
no upper bound that binds and no lower bound in a location with unknown
places (at the deal, for instance).  Every placement the bounds allow has a
positive weight, so a claim the model calls impossible is impossible.

Examples
--------
>>> from games.cards import Deck
>>> deck = Deck.ranks(13, copies=4)
>>> k = CellKnowledge(deck, {"me": 13, "p1": 13, "p2": 13, "p3": 13})
>>> k.reveal("me", ["7"] * 3 + [str(r) for r in range(11) if r != 7])
>>> [round(p, 4) for p in k.count_distribution("7", "p1")]
[0.6667, 0.3333, 0.0, 0.0, 0.0]
>>> k.move_hidden("p1", "p2", 2)                   # p1 gives p2 two cards face down
>>> round(k.expected("7")["p2"], 4)           # 15 of the 39 unknown places
0.3846
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from games.cards import CardsLike, Deck
from games.deal.counting import _compositions
from games.deal.flow import _min_cut
from games.errors import InconsistentKnowledgeError, InvalidParameterError

__all__ = ["CellKnowledge", "tighten"]


def tighten(
    lo: np.ndarray, hi: np.ndarray, copies: np.ndarray, size: np.ndarray
) -> tuple[Any, ...] | None:
    """Propagate cell bounds through the card counts and the location sizes, in place.

    Every pass lowers each upper bound to what the copies not known to be
    elsewhere and the places not known to be taken allow, and raises each
    lower bound to what they force; passes repeat until nothing moves.
    Lower bounds only rise and upper bounds only fall, so the pass that
    leaves both sums unchanged is the last.

    Parameters
    ----------
    lo, hi : numpy.ndarray
        ``(kinds, locations)`` int64 bounds, changed in place.
    copies : numpy.ndarray
        Copies of every kind.
    size : numpy.ndarray
        Cards in every location.

    Returns
    -------
    tuple or None
        None when the bounds are consistent; else ``("cell", kind, location)``
        for a cell whose bounds cross, ``("sizes",)`` or ``("counts",)``.

    Examples
    --------
    >>> lo = np.zeros((2, 2), dtype=np.int64)
    >>> hi = np.asarray([[1, 1], [1, 0]], dtype=np.int64)
    >>> tighten(lo, hi, np.asarray([1, 1]), np.asarray([1, 1])), lo.tolist()
    (None, [[0, 1], [1, 0]])
    """
    cp_col, size_row = copies[:, None], size[None, :]
    np.minimum(hi, cp_col, out=hi)  # the steps below only lower it further
    if hi.size and int(np.minimum.reduce(hi, axis=None)) < 0:
        return _tighten_checked(lo, hi, copies, size)
    add, sub, low, high = np.add.reduce, np.subtract, np.minimum, np.maximum
    t = np.empty_like(lo)
    before: tuple[int, int] | None = None
    sums: tuple[np.ndarray, ...] | None = None
    for step in range(101):
        rs_lo, rs_hi = add(lo, 1, keepdims=True), add(hi, 1, keepdims=True)
        now = (int(add(rs_lo, None)), int(add(rs_hi, None)))
        if now == before:
            smallest = np.minimum.reduce
            if lo.shape[0] and lo.shape[1] and min(smallest(size), smallest(copies)) >= 0:
                # a fixpoint keeps every sum between its bounds: a row's lower
                # bounds above its copies would have pushed an upper bound
                # below its lower bound (and so on), caught by the pass
                return None
            sums = (add(lo, 0), add(hi, 0), rs_lo[:, 0], rs_hi[:, 0])
            break
        if step == 100:
            break
        before = now
        # hi <= copies - (row's lower bounds elsewhere); lo >= copies - (row's upper bounds elsewhere)
        low(hi, sub(cp_col, sub(rs_lo, lo, out=t), out=t), out=hi)
        high(lo, sub(cp_col, sub(rs_hi, hi, out=t), out=t), out=lo)
        cs_lo, cs_hi = add(lo, 0, keepdims=True), add(hi, 0, keepdims=True)
        # the same with the location sizes
        low(hi, sub(size_row, sub(cs_lo, lo, out=t), out=t), out=hi)
        high(lo, sub(size_row, sub(cs_hi, hi, out=t), out=t), out=lo)
        high(hi, 0, out=hi)
        if np.greater(lo, hi).any():
            k, ll = np.argwhere(lo > hi)[0]
            return ("cell", int(k), int(ll))
    return _check_sums(lo, hi, copies, size, sums)


def _tighten_checked(
    lo: np.ndarray, hi: np.ndarray, copies: np.ndarray, size: np.ndarray
) -> tuple[Any, ...] | None:
    """:func:`tighten` for bounds with a negative upper bound: passes compared cell by cell."""
    cp_col, size_row = copies[:, None], size[None, :]
    np.minimum(hi, cp_col, out=hi)
    sums = None
    for _ in range(100):
        old_lo, old_hi = lo.copy(), hi.copy()
        rs_lo, rs_hi = lo.sum(1, keepdims=True), hi.sum(1, keepdims=True)
        np.minimum(hi, cp_col - (rs_lo - lo), out=hi)
        np.maximum(lo, cp_col - (rs_hi - hi), out=lo)
        cs_lo, cs_hi = lo.sum(0, keepdims=True), hi.sum(0, keepdims=True)
        np.minimum(hi, size_row - (cs_lo - lo), out=hi)
        np.maximum(lo, size_row - (cs_hi - hi), out=lo)
        np.maximum(hi, 0, out=hi)
        if (lo > hi).any():
            k, ll = np.argwhere(lo > hi)[0]
            return ("cell", int(k), int(ll))
        if np.array_equal(lo, old_lo) and np.array_equal(hi, old_hi):
            sums = (cs_lo[0], cs_hi[0], rs_lo[:, 0], rs_hi[:, 0])
            break
    return _check_sums(lo, hi, copies, size, sums)


def _check_sums(
    lo: np.ndarray,
    hi: np.ndarray,
    copies: np.ndarray,
    size: np.ndarray,
    sums: tuple[np.ndarray, ...] | None,
) -> tuple[Any, ...] | None:
    """The location sizes and the card counts within the bounds' sums (see :func:`tighten`)."""
    if sums is None:
        sums = (lo.sum(0), hi.sum(0), lo.sum(1), hi.sum(1))
    if (sums[0] > size).any() or (sums[1] < size).any():
        return ("sizes",)
    if (sums[2] > copies).any() or (sums[3] < copies).any():
        return ("counts",)
    return None


def _tighten_stacked(b: np.ndarray, copies: np.ndarray, size: np.ndarray) -> bool:
    """:func:`tighten` on the stacked bounds ``b = [lo, hi]`` (shape ``(2, kinds, locations)``).

    The same rules, each pass applying the two row rules to the bounds as
    they stood (then the two column rules), so a pass is half the array
    operations.  The rules only narrow the bounds and never exclude a deal
    within them, so this reaches the same bounds as :func:`tighten` whenever
    some deal is within them; it returns False when the bounds cross (the
    observations contradict each other).  Sizes and copies must not be
    negative.

    Examples
    --------
    >>> b = np.asarray([[[0, 0], [0, 0]], [[1, 1], [1, 0]]], dtype=np.int64)
    >>> _tighten_stacked(b, np.asarray([1, 1]), np.asarray([1, 1])), b[0].tolist()
    (True, [[0, 1], [1, 0]])
    """
    lo, hi = b[0], b[1]
    cp_col, size_row = copies[:, None], size[None, :]
    np.minimum(hi, cp_col, out=hi)
    add, sub, low, high = np.add.reduce, np.subtract, np.minimum, np.maximum
    t = np.empty_like(b)
    before: list[int] | None = None
    for _ in range(1000):
        rs = add(b, 2, keepdims=True)
        now = add(rs, (1, 2)).tolist()
        if now == before:
            return True
        before = now
        # others' lower bounds cap the upper bound, others' upper bounds raise the lower
        sub(cp_col, sub(rs, b, out=t), out=t)
        low(hi, t[0], out=hi)
        high(lo, t[1], out=lo)
        cs = add(b, 1, keepdims=True)
        sub(size_row, sub(cs, b, out=t), out=t)
        low(hi, t[0], out=hi)
        high(lo, t[1], out=lo)
        high(hi, 0, out=hi)
        if np.greater(lo, hi).any():
            return False
    return _check_sums(lo, hi, copies, size, None) is None


class CellKnowledge:
    """What one agent knows about a deal, as bounds on every card's copies in every location.

    The cheap, sound relaxation of :class:`~games.deal.DealKnowledge` (see
    the module text): the same observation methods, no joint constraints.
    An observation is checked against the bounds as they stand: a
    contradiction raises :class:`~games.errors.InconsistentKnowledgeError`
    and changes nothing.  One that only the propagation of the bounds finds
    raises it at the next :meth:`settle`, which every query runs first.

    Parameters
    ----------
    deck : Deck
        The cards, with copies.
    sizes : mapping from location name to int
        How many cards each location holds; they must add up to ``deck.total``.
    name : str, optional
        The agent's name, used in messages.

    Raises
    ------
    InvalidParameterError
        If the sizes do not add up or a size is not a count.
    """

    def __init__(self, deck: Deck, sizes: Mapping[str, int], *, name: str | None = None):
        if not isinstance(deck, Deck):
            raise InvalidParameterError(f"deck must be a games.cards.Deck, got {deck!r}")
        self.deck = deck
        self.name = name
        self._li: dict[str, int] = {}
        for loc, n in sizes.items():
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise InvalidParameterError(
                    f"size of location {loc!r} must be an int >= 0, got {n!r}"
                )
            if not isinstance(loc, str) or not loc:
                raise InvalidParameterError(f"location name must be a non-empty text, got {loc!r}")
            self._li[loc] = len(self._li)
        self._size = np.asarray(list(sizes.values()), dtype=np.int64)
        if int(self._size.sum()) != deck.total:
            raise InvalidParameterError(
                f"location sizes add up to {int(self._size.sum())} but the deck has "
                f"{deck.total} cards"
            )
        self._copies = np.asarray(deck.copies, dtype=np.int64)
        self._copies_l: list[int] = self._copies.tolist()
        K, L = len(deck), len(self._li)
        self._b = np.zeros((2, K, L), dtype=np.int64)
        self._b[1] = self._copies[:, None]
        self._lo, self._hi = self._b[0], self._b[1]
        self._dirty = True
        self._kinds: dict[tuple[Any, ...], list[int]] = {}
        self.settle()

    # ------------------------------------------------------------ structure
    @property
    def locations(self) -> tuple[str, ...]:
        """Location names, in the order of the columns of :meth:`bounds`."""
        return tuple(self._li)

    def size(self, location: str) -> int:
        """Number of cards in ``location``."""
        return int(self._size[self._loc(location)])

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Copies of the lower and upper bounds, shape ``(len(deck), len(locations))``."""
        self.settle()
        return self._lo.copy(), self._hi.copy()

    def settle(self) -> None:
        """Propagate the bounds (:func:`tighten`) if an update came since the last time.

        Raises
        ------
        InconsistentKnowledgeError
            If the observations since then contradict each other; the bounds
            are then left as they were before the propagation.
        """
        if not self._dirty:
            return
        b = self._b.copy()
        if not _tighten_stacked(b, self._copies, self._size):
            raise self._fail("a count of cards")
        self._set(b)
        self._dirty = False

    def _set(self, b: np.ndarray) -> None:
        self._b, self._lo, self._hi = b, b[0], b[1]

    def copy(self) -> CellKnowledge:
        """An independent copy."""
        new = CellKnowledge.__new__(CellKnowledge)
        new.deck, new.name, new._li, new._copies = self.deck, self.name, self._li, self._copies
        new._copies_l = self._copies_l
        new._size = self._size.copy()
        new._set(self._b.copy())
        new._kinds = self._kinds
        new._dirty = self._dirty
        return new

    def __repr__(self) -> str:
        who = f" of {self.name}" if self.name else ""
        body = ", ".join(f"{n}: {int(self._size[i])}" for n, i in self._li.items())
        return f"CellKnowledge{who}({body})"

    def _loc(self, location: str) -> int:
        i = self._li.get(location) if isinstance(location, str) else None
        if i is None:
            known = ", ".join(self._li)
            raise InvalidParameterError(f"unknown location {location!r}; locations: {known}")
        return i

    def _vector(self, cards: CardsLike) -> np.ndarray:
        vec = np.zeros(len(self.deck), dtype=np.int64)
        for k, v in self.deck.counts(cards).items():
            vec[k] = v
        return vec

    def _fail(self, what: str) -> InconsistentKnowledgeError:
        who = f"{self.name}: " if self.name else ""
        return InconsistentKnowledgeError(f"{who}{what} contradicts what is known")

    def _apply(self, change: Any) -> None:
        """Run ``change`` (which checks first, then writes); mark the bounds for :meth:`settle`."""
        change()
        self._dirty = True

    # --------------------------------------------------------- observations
    def reveal(self, location: str, cards: CardsLike) -> None:
        """The agent sees the whole content of ``location``: exactly ``cards``.

        Raises
        ------
        InconsistentKnowledgeError
            If the number of cards differs from the location's size or the
            cards contradict what is known.
        """
        ll = self._loc(location)
        vec = self._vector(cards)
        if int(vec.sum()) != self._size[ll]:
            raise InconsistentKnowledgeError(
                f"{location} holds {int(self._size[ll])} cards but {int(vec.sum())} were revealed"
            )

        def go() -> None:
            bad = np.flatnonzero((vec < self._lo[:, ll]) | (vec > self._hi[:, ll]))
            if bad.size:
                k = int(bad[0])
                raise self._fail(f"{self.deck.name(k)} ×{int(vec[k])} in {location}")
            self._lo[:, ll] = vec
            self._hi[:, ll] = vec

        self._apply(go)

    def move(self, cards: CardsLike, src: str, dst: str) -> None:
        """The agent sees ``cards`` go from ``src`` to ``dst``.

        Raises
        ------
        InconsistentKnowledgeError
            If ``src`` cannot hold those cards.
        """
        a, b = self._loc(src), self._loc(dst)
        vec = self._vector(cards)
        n = int(vec.sum())
        if a == b or n == 0:
            return

        def go() -> None:
            bad = np.flatnonzero(self._hi[:, a] < vec)
            if bad.size or n > self._size[a]:
                what = self.deck.name(int(bad[0])) if bad.size else f"{n} cards"
                raise self._fail(f"{what} in {src}")
            self._lo[:, a] = np.maximum(self._lo[:, a], vec) - vec
            self._hi[:, a] -= vec
            self._lo[:, b] += vec
            self._hi[:, b] = np.minimum(self._copies, self._hi[:, b] + vec)
            self._size[a] -= n
            self._size[b] += n

        self._apply(go)

    def move_hidden(self, src: str, dst: str, n: int) -> None:
        """``n`` cards the agent did not see went from ``src`` to ``dst``.

        Kind ``k`` moved at least ``lo[k, src] - (size[src] - n)`` copies
        (those ``src`` cannot have kept) and at most ``min(hi[k, src], n)``.
        """
        a, b = self._loc(src), self._loc(dst)
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise InvalidParameterError(f"a number of cards must be an int >= 0, got {n!r}")
        if a == b or n == 0:
            return
        if n > self._size[a]:
            raise InconsistentKnowledgeError(
                f"{src} holds {int(self._size[a])} cards, cannot give {n}"
            )

        def go() -> None:
            lo_a, hi_a = self._lo[:, a], self._hi[:, a]
            least = np.maximum(lo_a - (self._size[a] - n), 0)
            most = np.minimum(hi_a, n)
            self._lo[:, b] += least
            self._hi[:, b] = np.minimum(self._copies, self._hi[:, b] + most)
            self._lo[:, a] = np.maximum(lo_a - most, 0)
            self._hi[:, a] = hi_a - least
            self._size[a] -= n
            self._size[b] += n

        self._apply(go)

    def move_all(self, src: str, dst: str) -> None:
        """Every card of ``src`` joins ``dst``; ``src`` is then empty."""
        a, b = self._loc(src), self._loc(dst)
        if a == b:
            return

        def go() -> None:
            self._lo[:, b] += self._lo[:, a]
            self._hi[:, b] = np.minimum(self._copies, self._hi[:, b] + self._hi[:, a])
            self._lo[:, a] = 0
            self._hi[:, a] = 0
            self._size[b] += self._size[a]
            self._size[a] = 0

        self._apply(go)

    # ---------------------------------------------------------------- queries
    def _group(
        self, cards: CardsLike, by_flow: bool = False
    ) -> tuple[list[int], list[int], tuple[Any, ...], int]:
        """The group's known copies per location, the locations its unknown copies
        may take, the group's key there for :func:`_placements` and its copies.

        Checks that some placement exists: by enumerating them (the callers
        that read them next find them cached) or, with ``by_flow``, as a
        transport flow (kinds to locations) that ships every unknown copy."""
        ks = self._kinds.get(cards) if isinstance(cards, tuple) else None
        if ks is None:
            ks = sorted(set(self.deck.kinds(cards)))
            if isinstance(cards, tuple):
                self._kinds[cards] = ks
        self.settle()
        lo, hi = self._lo[ks].tolist(), self._hi[ks].tolist()
        L = len(self._li)
        free = np.subtract(self._size, np.add.reduce(self._lo, 0)).tolist()
        known = lo[0] if len(lo) == 1 else [sum(row[ll] for row in lo) for ll in range(L)]
        rows = []
        cps = self._copies_l
        for k, lo_k, hi_k in zip(ks, lo, hi, strict=True):
            r = cps[k] - sum(lo_k)
            if r:
                rows.append((r, [min(h - x, f) for h, x, f in zip(hi_k, lo_k, free, strict=True)]))
        cols = [ll for ll in range(L) if any(caps[ll] for _, caps in rows)]
        key = (
            tuple((r, tuple(caps[ll] for ll in cols)) for r, caps in rows),
            tuple(free[ll] for ll in cols),
        )
        specs = key[0]
        # one kind: its caps are at most the free places, so every placement
        # within them has a positive weight
        if len(specs) == 1:
            bad = sum(specs[0][1]) < specs[0][0]
        elif by_flow:
            supply = [r for r, _ in specs]
            bad = _min_cut([caps for _, caps in specs], supply, key[1]) < sum(supply)
        else:
            bad = not _placements(*key)
        if bad:
            raise self._fail("the copies of the group")
        total = sum(cps[k] for k in ks)
        return known, cols, key, total

    def placements(self, cards: CardsLike) -> tuple[list[int], list[tuple[tuple[int, ...], int]]]:
        """The group's known copies per location and its weighted unknown placements.

        Returns
        -------
        known : list of int
            Copies of the group surely in each location.
        placements : list of (tuple, int)
            Every placement of the group's other copies, as the copies it puts
            in each location, with its integer weight under the group
            relaxation (see the module text).  Only the ratios of the weights
            matter.

        Raises
        ------
        InconsistentKnowledgeError
            If the bounds leave the group's copies no place.

        Examples
        --------
        >>> from games.cards import Deck
        >>> k = CellKnowledge(Deck.ranks(2, copies=2), {"a": 1, "b": 2, "c": 1})
        >>> k.reveal("a", "0")
        >>> k.placements("0")      # b holds a 1 (at most one 0 fits), one place left
        ([1, 0, 0], [((0, 0, 1), 1), ((0, 1, 0), 1)])
        """
        known, cols, key, _ = self._group(cards)
        places = _placements(*key)
        L = len(self._li)
        out = []
        for x, w in places:
            full = [0] * L
            for j, c in zip(cols, x, strict=True):
                full[j] = c
            out.append((tuple(full), w))
        return known, out

    def count_distribution(self, cards: CardsLike, locations: str | Iterable[str]) -> list[float]:
        """Distribution of the copies of ``cards`` the ``locations`` hold, under the group relaxation.

        Returns
        -------
        list of float
            ``dist[j]`` is the probability of exactly ``j`` copies, for ``j``
            from 0 to the group's copies.

        Raises
        ------
        InvalidParameterError
            If a location is unknown or none is given.
        """
        if isinstance(locations, str):
            want = {self._loc(locations)}
        else:
            want = {self._loc(x) for x in locations}
            if not want:
                raise InvalidParameterError("no location given")
        known, cols, key, total = self._group(cards)
        base = sum(known[c] for c in want)
        dist = _distribution(*key, tuple(j for j, c in enumerate(cols) if c in want))
        out = [0.0] * (total + 1)
        for v, p in enumerate(dist):
            out[base + v] = p
        return out

    def most(self, cards: CardsLike, location: str) -> int:
        """The most copies of ``cards`` that ``location`` can hold under the bounds.

        The largest count to which :meth:`count_distribution` gives a positive
        probability, found without the distribution: a count above it is
        impossible in every deal the bounds allow (so in every deal the
        observations allow).

        Raises
        ------
        InvalidParameterError
            If the location is unknown.
        InconsistentKnowledgeError
            If the bounds leave the group's copies no place.

        Examples
        --------
        >>> from games.cards import Deck
        >>> k = CellKnowledge(Deck.ranks(2, copies=2), {"a": 1, "b": 2, "c": 1})
        >>> k.reveal("a", "0")
        >>> k.most("0", "b"), k.most("0", "a"), k.most("1", "c")
        (1, 1, 1)
        """
        ll = self._loc(location)
        known, cols, key, _ = self._group(cards, by_flow=True)
        if ll not in cols:
            return known[ll]
        j = cols.index(ll)
        # A flow that fills this location first (every kind as far as its cap,
        # the location's free places as far as they go) grows by augmenting
        # paths, which never take back what reaches the sink, to a flow that
        # places every copy (one exists: _group checked): so the most is that
        # first fill.
        fill = sum(min(r, caps[j]) for r, caps in key[0])
        return known[ll] + min(fill, key[1][j])

    def expected(self, cards: CardsLike) -> dict[str, float]:
        """Expected copies of ``cards`` in every location, under the group relaxation."""
        known, cols, key, _ = self._group(cards)
        out = {name: float(known[i]) for name, i in self._li.items()}
        names = self.locations
        for c, m in zip(cols, _means(*key), strict=True):
            out[names[c]] += m
        return out


@functools.lru_cache(maxsize=1 << 16)
def _placements(
    specs: tuple[tuple[int, tuple[int, ...]], ...], free: tuple[int, ...]
) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Placements of a group's unknown copies with their weights (see the module text).

    ``specs`` gives, for every kind of the group with unknown copies, their
    number and the most each location can take; ``free`` the unknown places
    of each location.  A placement of ``X_l`` copies in location ``l`` weighs
    ``prod_k r_k! / prod_l x[k][l]!`` (its kinds' arrangements) times
    ``prod_l f_l! / (f_l - X_l)!`` (the other unknown cards in the places
    left).

    Examples
    --------
    >>> _placements(((2, (1, 2)),), (1, 3))     # two copies; places 1 and 3
    (((0, 2), 6), ((1, 1), 6))
    """
    states: dict[tuple[int, ...], int] = {(0,) * len(free): 1}
    for r, caps in specs:
        fact = math.factorial(r)
        opts: list[tuple[tuple[int, ...], int]] = []
        for comp in _compositions(r, caps):
            w = fact
            for m in comp:
                w //= math.factorial(m)
            opts.append((comp, w))
        nxt: dict[tuple[int, ...], int] = {}
        for x, wx in states.items():
            for comp, w in opts:
                y = tuple(a + c for a, c in zip(x, comp, strict=True))
                nxt[y] = nxt.get(y, 0) + wx * w
        states = nxt
    out: list[tuple[tuple[int, ...], int]] = []
    for x, w in states.items():
        for f, c in zip(free, x, strict=True):
            if c > f:
                w = 0
                break
            w *= math.perm(f, c)
        if w:
            out.append((x, w))
    return tuple(out)


@functools.lru_cache(maxsize=1 << 16)
def _distribution(
    specs: tuple[tuple[int, tuple[int, ...]], ...], free: tuple[int, ...], at: tuple[int, ...]
) -> tuple[float, ...]:
    """Distribution of the group's unknown copies in the places ``at`` (see :func:`_placements`).

    Examples
    --------
    >>> _distribution(((2, (1, 2)),), (1, 3), (0,))
    (0.5, 0.5, 0.0)
    """
    if len(specs) == 1:
        r, caps = specs[0]
        polys = [_column(f, c, r) for f, c in zip(free, caps, strict=True)]
        inside = _product([g for j, g in enumerate(polys) if j in at], r)
        rest = _product([g for j, g in enumerate(polys) if j not in at], r)
        acc = [inside[v] * rest[r - v] for v in range(r + 1)]
    else:
        acc = [0] * (sum(r for r, _ in specs) + 1)
        for x, w in _placements(specs, free):
            acc[sum(x[j] for j in at)] += w
    z = sum(acc)
    return tuple(a / z for a in acc)


@functools.lru_cache(maxsize=1 << 16)
def _means(
    specs: tuple[tuple[int, tuple[int, ...]], ...], free: tuple[int, ...]
) -> tuple[float, ...]:
    """Expected unknown copies of the group in each place (see :func:`_placements`).

    Examples
    --------
    >>> _means(((2, (1, 2)),), (1, 3))
    (0.5, 1.5)
    """
    if len(specs) == 1:
        r, caps = specs[0]
        cols = [_column(f, c, r) for f, c in zip(free, caps, strict=True)]
        z = _product(cols, r)[r]
        out = []
        for j, g in enumerate(cols):
            rest = _product(cols[:j] + cols[j + 1 :], r)
            out.append(sum(v * g[v] * rest[r - v] for v in range(r + 1)) / z)
        return tuple(out)
    places = _placements(specs, free)
    z = sum(w for _, w in places)
    return tuple(sum(x[j] * w for x, w in places) / z for j in range(len(free)))


def _column(f: int, cap: int, r: int) -> list[int]:
    """One kind's weights in one location: ``comb(f, x)`` for ``x`` up to ``cap``, to degree ``r``.

    With one kind, a placement's weight (:func:`_placements`) is
    ``r! * prod_l comb(f_l, x_l)``: the product of these polynomials, read at
    degree ``r``, sums it over the placements.
    """
    return [math.comb(f, x) if x <= cap else 0 for x in range(r + 1)]


def _product(polys: list[list[int]], r: int) -> list[int]:
    """The product of polynomials (coefficient lists), cut at degree ``r``.

    Examples
    --------
    >>> _product([[1, 1, 0], [1, 2, 1]], 2)
    [1, 3, 3]
    """
    out = [1] + [0] * r
    for g in polys:
        out = [sum(out[i] * g[d - i] for i in range(d + 1)) for d in range(r + 1)]
    return out
