"""Following a lead (zpy-reference.md §5.2): suit first, then format.

Every player plays as many cards as were led.  **Suit**: holding at least that
many cards of the led effective suit, all played cards must come from it;
otherwise all of them must be played and the rest is free.  **Format**: the
shapes of the lead's decomposition order are tried in turn; a play that fits a
shape is legal, and a play that does not, when the in-suit hand could have fitted
it, is illegal.  Trumping is never compulsory and nobody has to beat anything.

Draw policies (the reference engine's ``TrickDrawPolicy``; default first):

``no-protections``
    a triple must be broken to supply a pair, and so on.
``longer-tuples-protected``
    when checking what the hand *could* play, a longer tuple is never broken.
``only-draw-tractor-on-tractor``
    tuples are never required to be drawn as tractors unless a tractor was led.
``protected-tractor-on-tractor``
    both of the above.
``no-format-based-draw``
    suit only.

Examples
--------
>>> t = Trump("2", "S")
>>> is_legal_follow("7H 7H 9H JH 3C", "KH KH", "9H JH", t)
False
>>> follow_error("7H 7H 9H JH 3C", "KH KH", "9H JH", t)
'must play a pair of hearts: you hold 7H 7H'
>>> follow_error("9H 3C 4C", "KH KH", "9H 4C", t) is None
True
>>> follow_error("9H JH 3C", "KH QH", "9H 3C", t)
'must follow hearts: you hold 2 hearts (9H JH)'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from itertools import combinations

from games.errors import InvalidParameterError
from games.shengji.rules.cards import CARDS, Card, as_cards, card, format_cards
from games.shengji.rules.formats import (
    Format,
    Shape,
    _give,
    _pkey,
    _take,
    count_faces,
    decomposition_order,
    describe_shape,
    fits_shape,
    group_placements,
    lead_format,
)
from games.shengji.rules.trump import SUIT_LABELS, Trump, table

__all__ = [
    "greedy_follow",
    "DRAW_POLICIES",
    "FollowRules",
    "is_legal_follow",
    "follow_error",
    "legal_follows",
]

#: The draw policies, default first.
DRAW_POLICIES = (
    "no-protections",
    "longer-tuples-protected",
    "only-draw-tractor-on-tractor",
    "protected-tractor-on-tractor",
    "no-format-based-draw",
)

Counts = dict[int, int]


def _as_counts(x: Mapping[int, int] | Iterable[int] | str) -> Counts:
    if isinstance(x, Mapping):
        return {int(f): n for f, n in x.items() if n}
    return count_faces(as_cards(x) if isinstance(x, str) else x)


def _as_format(lead: Format | Iterable[int] | str, trump: Trump) -> Format:
    if isinstance(lead, Format):
        return lead
    return lead_format(lead, trump)


class FollowRules:
    """What one hand may play to one trick format, precomputed once.

    The legal plays are described by *skeletons*: a non-single part taken from
    the in-suit hand (for one of the allowed shapes) plus a number of free
    in-suit singles.  A play is legal exactly when it contains some skeleton;
    this also answers whether a partial selection can still be completed.

    Parameters
    ----------
    hand : mapping face -> copies, or cards
        The follower's whole hand.
    fmt : Format
        The trick format (the lead, or the forced unit of a failed throw).
    draw_policy : str
        One of :data:`DRAW_POLICIES`.
    """

    __slots__ = ("hand", "fmt", "n", "suit", "in_suit", "n_in_suit", "short", "skeletons", "_due")

    def __init__(
        self,
        hand: Mapping[int, int] | Iterable[int] | str,
        fmt: Format,
        draw_policy: str = "no-protections",
    ):
        if draw_policy not in DRAW_POLICIES:
            raise InvalidParameterError(
                f"unknown draw policy {draw_policy!r}; known: {', '.join(DRAW_POLICIES)}"
            )
        t = table(fmt.trump)
        self.hand = _as_counts(hand)
        self.fmt = fmt
        self.n = fmt.size
        self.suit = fmt.suit
        self.in_suit = {f: c for f, c in self.hand.items() if t.esuit[f] == fmt.suit}
        self.n_in_suit = sum(self.in_suit.values())
        self.short = self.n_in_suit <= self.n
        self.skeletons: list[tuple[Counts, int]] = []
        self._due: Shape | None = None
        if self.short:
            return
        if draw_policy == "no-format-based-draw":
            self.skeletons = [({}, self.n)]
            return
        protect = draw_policy in ("longer-tuples-protected", "protected-tractor-on-tractor")
        new_adj = draw_policy not in (
            "only-draw-tractor-on-tractor",
            "protected-tractor-on-tractor",
        )
        allowed: list[Shape] = []
        for shape in decomposition_order(fmt, new_adj):
            allowed.append(shape)
            if fits_shape(self.in_suit, shape, fmt.trump, protect):
                self._due = shape
                break
        if self._due is None:
            self.skeletons = [({}, self.n)]
            return
        seen: set[tuple[tuple[int, int], ...]] = set()
        for shape in allowed:
            groups = [g for g in shape if g != (1,)]
            singles = len(shape) - len(groups)
            for sk in _skeletons(dict(self.in_suit), groups, fmt.trump):
                key = (*sorted(sk.items()), (-1, singles))
                if key not in seen:
                    seen.add(key)
                    self.skeletons.append((sk, singles))

    # ----------------------------------------------------------------- queries
    def can_extend(self, selection: Mapping[int, int]) -> bool:
        """Whether a partial selection (face -> copies) can still become a legal play."""
        total = 0
        hand = self.hand
        for f, k in selection.items():
            if k > hand.get(f, 0):
                return False
            total += k
        if total > self.n:
            return False
        if self.short:
            inside = sum(k for f, k in selection.items() if f in self.in_suit)
            return total - inside <= self.n - self.n_in_suit
        for f in selection:
            if selection[f] and f not in self.in_suit:
                return False
        for sk, singles in self.skeletons:
            extra = 0
            for f, k in selection.items():
                d = k - sk.get(f, 0)
                if d > 0:
                    extra += d
            if extra <= singles:
                return True
        return False

    def next_faces(self, selection: Mapping[int, int]) -> list[int]:
        """Faces one more copy of which keeps ``selection`` completable (empty when full)."""
        total = sum(selection.values())
        if total >= self.n:
            return []
        hand = self.hand
        if self.short:
            room = (
                self.n
                - self.n_in_suit
                - (total - sum(k for f, k in selection.items() if f in self.in_suit))
            )
            return [
                f
                for f, k in hand.items()
                if k > selection.get(f, 0) and (f in self.in_suit or room > 0)
            ]
        free = [f for f, k in self.in_suit.items() if k > selection.get(f, 0)]
        if self.skeletons and not self.skeletons[0][0] and self.skeletons[0][1] == self.n:
            return free
        out = []
        sel = dict(selection)
        for f in free:
            sel[f] = sel.get(f, 0) + 1
            if self.can_extend(sel):
                out.append(f)
            sel[f] -= 1
        return out

    def is_legal(self, play: Mapping[int, int] | Iterable[int] | str) -> bool:
        """Whether ``play`` (all of it) is a legal follow."""
        sel = _as_counts(play)
        return sum(sel.values()) == self.n and self.can_extend(sel)

    def error(self, play: Mapping[int, int] | Iterable[int] | str) -> str | None:
        """Why ``play`` is not a legal follow, or ``None`` when it is."""
        sel = _as_counts(play)
        label = SUIT_LABELS[self.suit]
        for f, k in sorted(sel.items()):
            if k > self.hand.get(f, 0):
                have = self.hand.get(f, 0)
                return f"you hold {have} {card(f)}" if have else f"you do not hold {card(f)}"
        total = sum(sel.values())
        if total != self.n:
            return f"must play {self.n} card{'s' if self.n != 1 else ''}, not {total}"
        if self.can_extend(sel):
            return None
        inside = sum(k for f, k in sel.items() if f in self.in_suit)
        held = format_cards(
            sorted(_expand(self.in_suit), key=table(self.fmt.trump).order.__getitem__)
        )
        if self.short or inside < self.n:
            return f"must follow {label}: you hold {self.n_in_suit} {label} ({held})"
        due = self._due or self.fmt.shape
        example = self._example()
        part = tuple(g for g in due if g != (1,)) or due
        return f"must play {describe_shape(part)} of {label}: you hold {example}"

    def _example(self) -> str:
        due = self._due
        if due is None:
            return ""
        groups = [g for g in due if g != (1,)]
        for sk in _skeletons(dict(self.in_suit), groups, self.fmt.trump):
            order = table(self.fmt.trump).order
            return format_cards(sorted(_expand(sk), key=order.__getitem__))
        return ""

    def plays(self) -> Iterator[tuple[Card, ...]]:
        """Every legal play once, as a tuple of cards sorted by face number."""
        if self.short:
            rest = {f: c for f, c in self.hand.items() if f not in self.in_suit}
            base = _expand(self.in_suit)
            card_of = CARDS.__getitem__
            for extra in _multiset_combinations(rest, self.n - self.n_in_suit):
                yield tuple(map(card_of, sorted((*base, *extra))))
            return
        seen: set[tuple[int, ...]] = set()
        for sk, singles in self.skeletons:
            rest = dict(self.in_suit)
            for f, k in sk.items():
                rest[f] -= k
            base = _expand(sk)
            for extra in _multiset_combinations(rest, singles):
                p = tuple(sorted((*base, *extra)))
                if p not in seen:
                    seen.add(p)
                    yield tuple(map(CARDS.__getitem__, p))


def _expand(counts: Mapping[int, int]) -> list[int]:
    return [f for f in sorted(counts) for _ in range(counts[f])]


def _multiset_combinations(counts: Mapping[int, int], k: int) -> list[tuple[int, ...]]:
    """Every distinct ``k``-card sub-multiset of ``counts``, each a sorted tuple of
    faces, in increasing lexicographic order.

    Built bottom-up with the suffixes shared (the combinations of the faces from
    ``i`` on are computed once per size), so the cost is about one tuple
    concatenation per result.
    """
    faces = [f for f in sorted(counts) if counts[f] > 0]
    if k == 0:
        return [()]
    if all(counts[f] == 1 for f in faces):
        return list(combinations(faces, k))
    room = [0] * (len(faces) + 1)
    for i in range(len(faces) - 1, -1, -1):
        room[i] = room[i + 1] + counts[faces[i]]
    memo: dict[tuple[int, int], list[tuple[int, ...]]] = {}

    def rec(i: int, k: int) -> list[tuple[int, ...]]:
        if k == 0:
            return [()]
        if room[i] < k:
            return []
        hit = memo.get((i, k))
        if hit is not None:
            return hit
        f = faces[i]
        out: list[tuple[int, ...]] = []
        for take in range(min(counts[f], k), -1, -1):
            head = (f,) * take
            out.extend([head + rest for rest in rec(i + 1, k - take)])
        memo[i, k] = out
        return out

    return rec(0, k)


def _skeletons(counts: Counts, groups: list[tuple[int, ...]], trump: Trump) -> Iterator[Counts]:
    """Every way to take ``groups`` disjointly from ``counts`` (as used-copy counts)."""
    order = table(trump).order
    used: Counts = {}

    def rec(i: int, floor: tuple[int, ...] | None) -> Iterator[Counts]:
        if i == len(groups):
            yield dict(used)
            return
        same = i > 0 and groups[i] == groups[i - 1]
        for pl in group_placements(counts, groups[i], trump):
            key = _pkey(pl, order)
            if same and floor is not None and key < floor:
                continue
            _take(counts, pl)
            for f, k in pl:
                used[f] = used.get(f, 0) + k
            yield from rec(i + 1, key)
            for f, k in pl:
                used[f] -= k
                if not used[f]:
                    del used[f]
            _give(counts, pl)

    yield from rec(0, None)


def is_legal_follow(
    hand: Mapping[int, int] | Iterable[int] | str,
    lead: Format | Iterable[int] | str,
    play: Mapping[int, int] | Iterable[int] | str,
    trump: Trump,
    draw_policy: str = "no-protections",
) -> bool:
    """Whether ``play`` from ``hand`` legally follows ``lead`` (cards or a :class:`Format`).

    Examples
    --------
    >>> t = Trump("2", "S")
    >>> is_legal_follow("7H 7H 7H 9H", "KH KH", "7H 9H", t)
    False
    >>> is_legal_follow("7H 7H 7H 9H", "KH KH", "7H 9H", t, "longer-tuples-protected")
    True
    """
    fmt = _as_format(lead, trump)
    return FollowRules(hand, fmt, draw_policy).is_legal(play)


def follow_error(
    hand: Mapping[int, int] | Iterable[int] | str,
    lead: Format | Iterable[int] | str,
    play: Mapping[int, int] | Iterable[int] | str,
    trump: Trump,
    draw_policy: str = "no-protections",
) -> str | None:
    """Why ``play`` does not legally follow ``lead``, or ``None`` when it does."""
    fmt = _as_format(lead, trump)
    return FollowRules(hand, fmt, draw_policy).error(play)


def legal_follows(
    hand: Mapping[int, int] | Iterable[int] | str,
    lead: Format | Iterable[int] | str,
    trump: Trump,
    draw_policy: str = "no-protections",
) -> list[tuple[Card, ...]]:
    """Every distinct legal follow (each a tuple of cards sorted by face number).

    Examples
    --------
    >>> legal_follows("3H 3H 4H 4H 6H 9C", "QH QH KH KH", Trump("2", "S"))
    [(3H, 3H, 4H, 4H)]
    """
    fmt = _as_format(lead, trump)
    return list(FollowRules(hand, fmt, draw_policy).plays())


def greedy_follow(rules: FollowRules) -> list[Card]:
    """A legal follow built greedily, one card at a time (a fallback when enumerating
    :meth:`FollowRules.plays` is not wanted)."""
    sel: dict[int, int] = {}
    for _ in range(rules.n):
        for f in sorted(rules.hand):
            if rules.hand[f] > sel.get(f, 0):
                sel[f] = sel.get(f, 0) + 1
                if rules.can_extend(sel):
                    break
                sel[f] -= 1
    return [card(f) for f in sel for _ in range(sel[f])]
