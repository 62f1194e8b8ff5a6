"""Units, tractors and the reading of a lead (zpy-reference.md §5.1), and play shapes.

A **unit** is an n-tuple (n copies of one face; a single when n = 1) or a
**tractor**: two or more adjacent faces held at equal width ≥ 2.  A lead lies in
one effective suit and is read by enumerating its splits into units and keeping
the reading whose largest unit is biggest, tractors winning ties.  More than
one unit makes the lead a throw.

A **shape** is the card-free form of units: a tuple of *groups*, each group a
tuple of adjacent tuple sizes, e.g. ``((2, 2),)`` for a tractor of pairs,
``((2,), (1,), (1,))`` for a pair and two singles, ``((3, 2),)`` for an
adjacent triple and pair.  Following (:mod:`games.shengji.rules.follow`) walks the
reference engine's *decomposition order* of shapes.

Examples
--------
>>> t = Trump("9", "C")
>>> is_tractor("6D 6D 5D 5D 4D 4D 3D 3D", t)
True
>>> f = lead_format("KD QD QD 10D 10D", Trump("9", "C"))
>>> f.units, f.is_throw
((KD, 10D 10D, QD QD), True)
>>> lead_format("2S 2S 2S 3S 3S", Trump("4", "H")).units
(2S, 2S 2S 3S 3S)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import NamedTuple

from games.errors import IllegalActionError
from games.shengji.rules.cards import Card, as_cards, card, format_cards
from games.shengji.rules.trump import SUIT_LABELS, Trump, table

__all__ = [
    "Unit",
    "Format",
    "Shape",
    "count_faces",
    "find_readings",
    "lead_format",
    "is_tractor",
    "shape_of",
    "describe_shape",
    "full_decomposition_ordering",
    "subsequent_decomposition_ordering",
    "decomposition_order",
    "group_placements",
    "fits_shape",
]

Shape = tuple[tuple[int, ...], ...]


class Unit(NamedTuple):
    """One unit of a play: ``width`` copies of each face in ``faces`` (adjacent, weakest first).

    A unit with one face is an n-tuple (a single, pair, triple, …); with several
    faces it is a tractor.
    """

    width: int
    faces: tuple[int, ...]

    @property
    def size(self) -> int:
        """Number of cards."""
        return self.width * len(self.faces)

    @property
    def is_tractor(self) -> bool:
        """Whether the unit spans several adjacent faces."""
        return len(self.faces) > 1

    @property
    def first(self) -> int:
        """The weakest face (what comparisons of units look at)."""
        return self.faces[0]

    @property
    def last(self) -> int:
        """The strongest face."""
        return self.faces[-1]

    @property
    def group(self) -> tuple[int, ...]:
        """The card-free form: ``(width,) * len(faces)``."""
        return (self.width,) * len(self.faces)

    def cards(self) -> list[Card]:
        """The unit's cards, weakest first."""
        return [card(f) for f in self.faces for _ in range(self.width)]

    def __repr__(self) -> str:
        return format_cards(self.cards())

    def describe(self) -> str:
        """Readable kind: ``single``, ``pair``, ``triple``, ``tractor``, ``tractor of triples`` …"""
        return describe_group(self.group)


_TUPLE_NAMES = {1: "single", 2: "pair", 3: "triple", 4: "quadruple", 5: "quintuple"}


def _tuple_name(n: int) -> str:
    return _TUPLE_NAMES.get(n, f"{n}-tuple")


def describe_group(group: Sequence[int]) -> str:
    """Readable name of one group: ``pair``, ``tractor``, ``3-tractor of pairs`` …"""
    if len(group) == 1:
        return _tuple_name(group[0])
    if all(g == group[0] for g in group):
        if len(group) == 2:
            return "tractor" if group[0] == 2 else f"tractor of {_tuple_name(group[0])}s"
        return f"{len(group)}-tractor of {_tuple_name(group[0])}s"
    return "adjacent " + " and ".join(_tuple_name(g) for g in group)


def describe_shape(shape: Shape) -> str:
    """Readable shape, e.g. ``a tractor``, ``2 pairs and a single``.

    Examples
    --------
    >>> describe_shape(((2, 2),)), describe_shape(((2,), (2,), (1,)))
    ('a tractor', '2 pairs and a single')
    """
    counts: dict[str, int] = {}
    for g in shape:
        name = describe_group(g)
        counts[name] = counts.get(name, 0) + 1
    parts = []
    for name, n in counts.items():
        if n == 1:
            parts.append(("an " if name[0] in "aeiou" else "a ") + name)
        else:
            parts.append(f"{n} {name}s")
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


@dataclass(frozen=True, slots=True)
class Format:
    """The format of a trick: its effective suit and its units.

    Units are sorted by size, then by the strength of their weakest face (the
    order in which a failed throw looks for the smallest beatable unit).
    """

    suit: int
    units: tuple[Unit, ...]
    trump: Trump
    size: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", sum(u.size for u in self.units))

    @property
    def is_throw(self) -> bool:
        """Whether the lead has more than one unit."""
        return len(self.units) > 1

    @property
    def shape(self) -> Shape:
        """The card-free form of the units, in unit order."""
        return tuple(u.group for u in self.units)

    @property
    def largest_unit(self) -> int:
        """Size of the largest unit (the kitty multiplier uses it)."""
        return max(u.size for u in self.units)

    def cards(self) -> list[Card]:
        """Every card of the format's units."""
        return [c for u in self.units for c in u.cards()]

    def describe(self) -> str:
        """Readable description, e.g. ``a tractor of hearts``."""
        return f"{describe_shape(self.shape)} of {SUIT_LABELS[self.suit]}"


def count_faces(cards: Iterable[int]) -> dict[int, int]:
    """Copy counts of the faces in ``cards``."""
    out: dict[int, int] = {}
    for c in cards:
        out[c] = out.get(c, 0) + 1
    return out


# --------------------------------------------------------------- readings
def _tractors_from(
    start: int, counts: Mapping[int, int], succ: list[tuple[int, ...]], min_width: int = 2
) -> list[Unit]:
    """Every tractor (≥ 2 faces) starting at ``start``, breadth first, width = the path minimum."""
    c0 = counts.get(start, 0)
    if c0 < min_width:
        return []
    out: list[Unit] = []
    frontier: list[tuple[tuple[int, ...], int]] = [((start,), c0)]
    while frontier:
        nxt: list[tuple[tuple[int, ...], int]] = []
        for path, width in frontier:
            for f in succ[path[-1]]:
                n = counts.get(f, 0)
                if n >= 2:
                    w = min(width, n)
                    p = (*path, f)
                    if w >= min_width:
                        out.append(Unit(w, p))
                    nxt.append((p, w))
        frontier = nxt
    return out


def _remove(counts: dict[int, int], unit: Unit) -> None:
    for f in unit.faces:
        n = counts[f] - unit.width
        if n:
            counts[f] = n
        else:
            del counts[f]


def _add(counts: dict[int, int], unit: Unit) -> None:
    for f in unit.faces:
        counts[f] = counts.get(f, 0) + unit.width


def find_readings(cards: Iterable[int] | str, trump: Trump) -> list[list[Unit]]:
    """Every split of same-suit ``cards`` into units, in the reference engine's order.

    The weakest remaining face starts a unit: each tractor starting there, and
    the whole stack of that face unless every such tractor uses all of it.  A
    face held k times is one k-tuple unless a tractor uses part of it.  When a
    single unit covers everything, that is the only reading.

    Examples
    --------
    >>> find_readings("2H 2H 2H 3H 3H", Trump("4", "S"))
    [[2H, 2H 2H 3H 3H], [3H 3H, 2H 2H 2H]]
    """
    t = table(trump)
    counts = count_faces(as_cards(cards) if isinstance(cards, str) else cards)
    total = sum(counts.values())
    if not total:
        return []
    return _readings(counts, total, -1, t.order, t.succ)


def _readings(
    counts: dict[int, int], num: int, min_order: int, order: list[int], succ: list[tuple[int, ...]]
) -> list[list[Unit]]:
    start = min((f for f in counts if order[f] >= min_order), key=order.__getitem__)
    tractors = _tractors_from(start, counts, succ)
    consumed = bool(tractors) and all(counts[f] == u.width for u in tractors for f in u.faces)
    starts = tractors if consumed else [*tractors, Unit(counts[start], (start,))]
    for s in starts:
        if s.size == num:
            return [[s]]
    plays: list[list[Unit]] = []
    for s in starts:
        _remove(counts, s)
        for sub in _readings(counts, num - s.size, order[s.first], order, succ):
            sub.append(s)
            plays.append(sub)
        _add(counts, s)
    return plays


def _sort_units(units: Iterable[Unit], order: list[int]) -> tuple[Unit, ...]:
    return tuple(sorted(units, key=lambda u: (u.size, order[u.first])))


def lead_format(cards: Iterable[int] | str, trump: Trump) -> Format:
    """The format of a lead: its suit and its best reading into units.

    Raises
    ------
    IllegalActionError
        If ``cards`` is empty or spans several effective suits.

    Examples
    --------
    >>> lead_format("AH AH KH", Trump("2", "S")).describe()
    'a single and a pair of hearts'
    """
    t = table(trump)
    cs = as_cards(cards) if isinstance(cards, str) else [card(c) for c in cards]
    if not cs:
        raise IllegalActionError("a lead needs at least one card")
    suits = {t.esuit[c] for c in cs}
    if len(suits) > 1:
        names = ", ".join(SUIT_LABELS[s] for s in sorted(suits))
        raise IllegalActionError(
            f"a lead must lie in one suit, but {format_cards(cs)} mixes {names}"
        )
    readings = find_readings(cs, trump)
    best: list[Unit] = readings[0]
    best_key = (-1, False)
    for r in readings:
        key = max((u.size, u.is_tractor) for u in r)
        if key >= best_key:
            best, best_key = r, key
    return Format(suits.pop(), _sort_units(best, t.order), trump)


def is_tractor(cards: Iterable[int] | str, trump: Trump) -> bool:
    """Whether ``cards`` form exactly one tractor (shengji-bot.md Appendix C).

    Examples
    --------
    >>> t = Trump("9", "C")
    >>> is_tractor("J+ J+ J- J- 9C 9C", t), is_tractor("9H 9H 9D 9D", t)
    (True, False)
    """
    t = table(trump)
    cs = as_cards(cards) if isinstance(cards, str) else list(cards)
    if len(cs) < 4 or len({t.esuit[c] for c in cs}) != 1:
        return False
    f = lead_format(cs, trump)
    return len(f.units) == 1 and f.units[0].is_tractor


def shape_of(units: Iterable[Unit]) -> Shape:
    """The shape (groups sorted descending) of some units."""
    return tuple(sorted((u.group for u in units), reverse=True))


# -------------------------------------------------------- decomposition order
@cache
def _groupings(n: int) -> tuple[tuple[int, ...], ...]:
    """Integer partitions of ``n`` (descending parts), in descending lexicographic order."""
    if n == 1:
        return ((1,),)
    out: set[tuple[int, ...]] = set()
    for g in _groupings(n - 1):
        for v in dict.fromkeys(g):
            i = g.index(v)
            out.add((*g[:i], v + 1, *g[i + 1 :]))
        out.add((*g, 1))
    return tuple(sorted(out, reverse=True))


@cache
def _set_partitions(n: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Set partitions of ``range(n)`` ordered by (largest block desc, fewer blocks first)."""
    if n == 1:
        return (((0,),),)
    made: list[tuple[tuple[int, ...], ...]] = []
    elem = n - 1
    for part in _set_partitions(n - 1):
        for i in range(len(part)):
            made.append(tuple((*b, elem) if j == i else b for j, b in enumerate(part)))
        made.append((*part, (elem,)))
    made.sort(key=lambda p: (-max(len(b) for b in p), len(p)))
    out: list[tuple[tuple[int, ...], ...]] = []
    for p in made:
        if not out or out[-1] != p:
            out.append(p)
    return tuple(out)


@cache
def full_decomposition_ordering(n: int) -> tuple[Shape, ...]:
    """Every shape of ``n`` cards, in the reference engine's decomposition order.

    Integer partitions in descending order; for each, the ways to join its
    non-single parts into adjacency groups (by the order of set partitions),
    singles never adjacent.

    Examples
    --------
    >>> full_decomposition_ordering(4)
    (((4,),), ((3,), (1,)), ((2, 2),), ((2,), (2,)), ((2,), (1,), (1,)), ((1,), (1,), (1,), (1,)))
    """
    out: list[Shape] = []
    for g in _groupings(n):
        gt1 = tuple(v for v in g if v > 1)
        ones: tuple[tuple[int, ...], ...] = ((1,),) * (len(g) - len(gt1))
        shapes: list[Shape]
        if not gt1:
            shapes = [ones]
        else:
            shapes = []
            for part in _set_partitions(len(gt1)):
                blocks = [tuple(gt1[i] for i in b) for b in part] + list(ones)
                shapes.append(tuple(sorted(blocks, reverse=True)))
        for s in shapes:
            if not out or out[-1] != s:
                out.append(s)
    return tuple(out)


def subsequent_decomposition_ordering(
    groups: Sequence[Sequence[int]], include_new_adjacency: bool = True
) -> list[Shape]:
    """The shapes tried after a format's own shape when following (§5.2).

    Each unit of the format steps through its own decomposition order; at
    every step the unit with the most remaining steps is broken down once, and
    the union of the current pieces (sorted) is the next shape.  With
    ``include_new_adjacency`` false, a tuple may not turn into adjacent groups
    (the option *only draw tractors on tractors*).

    Examples
    --------
    >>> subsequent_decomposition_ordering([(2, 2)])
    [((2,), (2,)), ((2,), (1,), (1,)), ((1,), (1,), (1,), (1,))]
    >>> subsequent_decomposition_ordering([(3,)])
    [((2,), (1,)), ((1,), (1,), (1,))]
    """
    reqs = [tuple(sorted(g, reverse=True)) for g in groups]
    if any(not g for g in reqs):
        return []
    remaining: list[list[Shape]] = []
    for g in reqs:
        full = list(full_decomposition_ordering(sum(g)))
        try:
            idx = full.index((g,))
            rest = full[idx + 1 :]
        except ValueError:
            rest = []
        remaining.append(rest[::-1])  # pop() takes the next one
    current: dict[int, Shape] = {i: (g,) for i, g in enumerate(reqs)}
    can_adjacent = [include_new_adjacency or len(g) > 1 for g in reqs]
    h = list(range(len(reqs)))
    out: list[Shape] = []
    while True:
        h.sort(key=lambda i: -len(remaining[i]))
        i0 = h[0]
        if not remaining[i0]:
            break
        current[i0] = remaining[i0].pop()
        if all(len(a) == 1 or can_adjacent[i] for i in h for a in current[i]):
            out.append(tuple(sorted((a for i in h for a in current[i]), reverse=True)))
    return out


def decomposition_order(fmt: Format, include_new_adjacency: bool = True) -> Iterator[Shape]:
    """The format's own shape, then its subsequent decomposition order (lazily)."""
    yield fmt.shape
    yield from subsequent_decomposition_ordering(fmt.shape, include_new_adjacency)


# ------------------------------------------------------------ shape fitting
Placement = tuple[tuple[int, int], ...]


def group_placements(
    counts: Mapping[int, int],
    group: Sequence[int],
    trump: Trump,
    protect: bool = False,
) -> list[Placement]:
    """Every way to take one adjacency group from ``counts``: ((face, copies), …).

    A group with differing sizes may be laid in any order of its sizes.  With
    ``protect`` a face may only supply exactly as many copies as it holds (a
    longer tuple is never broken).
    """
    t = table(trump)
    succ, order = t.succ, t.order
    out: list[Placement] = []
    perms = {tuple(group)} if len(set(group)) == 1 else set(itertools.permutations(group))
    for perm in sorted(perms, reverse=True):
        for f in sorted(counts, key=order.__getitem__):
            n = counts[f]
            if n < perm[0] or (protect and n != perm[0]):
                continue
            stack: list[tuple[Placement, int]] = [(((f, perm[0]),), 1)]
            while stack:
                chain, k = stack.pop()
                if k == len(perm):
                    out.append(chain)
                    continue
                req = perm[k]
                for g in succ[chain[-1][0]]:
                    m = counts.get(g, 0)
                    if m >= req and not (protect and m != req):
                        stack.append(((*chain, (g, req)), k + 1))
    return out


def _take(counts: dict[int, int], pl: Placement) -> None:
    for f, n in pl:
        m = counts[f] - n
        if m:
            counts[f] = m
        else:
            del counts[f]


def _give(counts: dict[int, int], pl: Placement) -> None:
    for f, n in pl:
        counts[f] = counts.get(f, 0) + n


def fits_shape(
    counts: Mapping[int, int], shape: Shape, trump: Trump, protect: bool = False
) -> bool:
    """Whether disjoint groups of ``shape`` can be taken from ``counts``.

    Singles take whatever is left (with ``protect``: only faces held once).

    Examples
    --------
    >>> t = Trump("2", "S")
    >>> fits_shape(count_faces(as_cards("5H 5H 6H 6H 9H")), ((2, 2),), t)
    True
    >>> fits_shape(count_faces(as_cards("5H 5H 5H")), ((2,), (1,)), t, protect=True)
    False
    """
    groups = [g for g in shape if g != (1,)]
    singles = len(shape) - len(groups)
    work = dict(counts)
    return _fit(work, groups, 0, singles, trump, protect, None)


def _fit(
    counts: dict[int, int],
    groups: list[tuple[int, ...]],
    i: int,
    singles: int,
    trump: Trump,
    protect: bool,
    floor: Placement | None,
) -> bool:
    if i == len(groups):
        if protect:
            return sum(1 for n in counts.values() if n == 1) >= singles
        return sum(counts.values()) >= singles
    same_as_prev = i > 0 and groups[i] == groups[i - 1]
    order = table(trump).order
    for pl in group_placements(counts, groups[i], trump, protect):
        if same_as_prev and floor is not None and _pkey(pl, order) < _pkey(floor, order):
            continue
        _take(counts, pl)
        ok = _fit(counts, groups, i + 1, singles, trump, protect, pl)
        _give(counts, pl)
        if ok:
            return True
    return False


def _pkey(pl: Placement, order: list[int]) -> tuple[int, ...]:
    return tuple(order[f] for f, _ in pl)
