"""Throws and trick winners (zpy-reference.md §5.3-5.4).

**Throw check.**  A lead of several units is checked against the hidden hands
of the other players in turn order.  A unit is beaten in the same suit by ≥ n
copies of a strictly stronger face (n-tuples), or by a tractor at least as
long and as wide starting above the unit's weakest face (tractors).  The first
player who can beat anything decides: the lead shrinks to the smallest unit
(by size, then rank) that this player can beat, and the rest goes back.

**Winner.**  Only a play matching the format can win: all in the led suit or
all trump, with the same units.  It takes the lead when some reading of it has
every unit strictly stronger than the matching unit of the current winner
(policy ``all``); ties go to the earlier player.

Examples
--------
>>> t = Trump("9", "C")
>>> r = check_throw("KD QD", ["KD 3S", "4S 5S", "6S 7S"], t)
>>> r.valid, r.blocker, r.played
(False, 0, [QD])
>>> check_throw("KD QD", ["10C 3C", "4S 5S", "6S 7S"], t).valid
True
>>> trick_winner(["KD QD", "10C 3C", "AD 2D", "5H 6H"], t)
TrickResult(winner=1, points=25)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from games.errors import InvalidParameterError
from games.shengji.rules.cards import Card, as_cards, card, card_points
from games.shengji.rules.formats import (
    Format,
    Unit,
    _pkey,
    _take,
    _tractors_from,
    count_faces,
    group_placements,
    lead_format,
)
from games.shengji.rules.trump import TRUMP_SUIT, Trump, table

__all__ = [
    "THROW_EVALUATION_POLICIES",
    "ThrowCheck",
    "TrickResult",
    "can_beat_unit",
    "check_throw",
    "format_readings",
    "matches_format",
    "beats",
    "trick_winner",
    "TrickState",
]

#: How a matching play is compared with the current winner (default first).
THROW_EVALUATION_POLICIES = ("all", "highest", "trick-unit-length")

Cards = Iterable[int] | str


def _cards(x: Cards) -> list[Card]:
    if isinstance(x, str):
        return as_cards(x)
    return [c if type(c) is Card else card(c) for c in x]


def can_beat_unit(hand: Mapping[int, int] | Cards, unit: Unit, trump: Trump) -> bool:
    """Whether ``hand`` holds, in the unit's own suit, something that beats ``unit``.

    Examples
    --------
    >>> t = Trump("9", "C")
    >>> f = lead_format("KD QD QD 10D 10D", t)
    >>> [can_beat_unit("JD JD 3S", u, t) for u in f.units]
    [False, True, False]
    """
    t = table(trump)
    counts = hand if isinstance(hand, Mapping) else count_faces(_cards(hand))
    suit = t.esuit[unit.first]
    s0 = t.strength[unit.first]
    esuit = t.esuit
    in_suit = {f: n for f, n in counts.items() if n and esuit[f] == suit}
    if not unit.is_tractor:
        return any(n >= unit.width and t.strength[f] > s0 for f, n in in_suit.items())
    length = len(unit.faces)
    for f in in_suit:
        if t.strength[f] > s0:
            for tr in _tractors_from(f, in_suit, t.succ, unit.width):
                if len(tr.faces) >= length:
                    return True
    return False


@dataclass(frozen=True)
class ThrowCheck:
    """Outcome of checking a lead against the other hands.

    Attributes
    ----------
    lead : Format
        The format of the whole lead.
    valid : bool
        Whether the lead stands (a single unit always stands).
    blocker : int or None
        Index (into the hands given, i.e. turn order after the leader) of the
        first player who can beat a unit.
    forced : Unit or None
        The smallest unit that blocker can beat; it becomes the trick format.
    played : list of Card
        The cards that are actually played.
    returned : list of Card
        Cards that go back to the leader's hand.
    """

    lead: Format
    valid: bool
    blocker: int | None = None
    forced: Unit | None = None
    played: list[Card] = field(default_factory=list)
    returned: list[Card] = field(default_factory=list)

    @property
    def format(self) -> Format:
        """The trick format after the check."""
        if self.forced is None:
            return self.lead
        return Format(self.lead.suit, (self.forced,), self.lead.trump)


def check_throw(
    lead: Format | Cards, other_hands: Sequence[Mapping[int, int] | Cards], trump: Trump
) -> ThrowCheck:
    """Check a lead against the other players' hands, in turn order after the leader.

    Examples
    --------
    >>> t = Trump("9", "C")
    >>> r = check_throw("KD QD QD 10D 10D", ["3S", "JD JD 4S", "AD 5S"], t)
    >>> r.blocker, r.forced, r.returned
    (1, 10D 10D, [KD, QD, QD])
    """
    fmt = lead if isinstance(lead, Format) else lead_format(_cards(lead), trump)
    cards = fmt.cards()
    if not fmt.is_throw:
        return ThrowCheck(fmt, True, played=cards)
    for i, hand in enumerate(other_hands):
        counts = dict(hand) if isinstance(hand, Mapping) else count_faces(_cards(hand))
        for u in fmt.units:
            if can_beat_unit(counts, u, trump):
                played = u.cards()
                rest = list(cards)
                for c in played:
                    rest.remove(c)
                return ThrowCheck(fmt, False, i, u, played, rest)
    return ThrowCheck(fmt, True, played=cards)


def format_readings(fmt: Format, play: Cards) -> list[tuple[Unit, ...]]:
    """Every reading of ``play`` as the format's units (aligned with ``fmt.units``).

    Empty when the play does not match: it must be all in the led suit or all
    trump, of the right size, and split into units of the format's shapes.
    Units of equal shape are assigned weakest first (one reading per split).
    """
    t = table(fmt.trump)
    cs = _cards(play)
    if len(cs) != fmt.size or not cs:
        return []
    suits = {t.esuit[c] for c in cs}
    if len(suits) != 1 or not ({fmt.suit, TRUMP_SUIT} & suits):
        return []
    units = fmt.units
    if len(units) == 1 and not units[0].is_tractor:
        f0 = cs[0]
        if all(c == f0 for c in cs):
            return [(Unit(len(cs), (f0,)),)]
        return []
    counts = count_faces(cs)
    out: list[tuple[Unit, ...]] = []
    chosen: list[Unit] = []
    floors: dict[tuple[int, ...], tuple[int, ...]] = {}

    def rec(i: int) -> None:
        if i == len(units):
            out.append(tuple(chosen))
            return
        g = units[i].group
        floor = floors.get(g)
        for pl in group_placements(counts, g, fmt.trump):
            key = _pkey(pl, t.order)
            if floor is not None and key < floor:
                continue
            _take(counts, pl)
            chosen.append(Unit(g[0], tuple(f for f, _ in pl)))
            floors[g] = key
            rec(i + 1)
            if floor is None:
                del floors[g]
            else:
                floors[g] = floor
            chosen.pop()
            for f, n in pl:
                counts[f] = counts.get(f, 0) + n

    rec(0)
    return out


def matches_format(fmt: Format, play: Cards) -> bool:
    """Whether ``play`` matches the trick format (and so may win the trick)."""
    return bool(format_readings(fmt, play))


def _classes(units: Sequence[Unit], strength: list[int]) -> dict[tuple[int, ...], list[int]]:
    out: dict[tuple[int, ...], list[int]] = {}
    for u in units:
        out.setdefault(u.group, []).append(strength[u.first])
    for v in out.values():
        v.sort()
    return out


def beats(new: Sequence[Unit], cur: Sequence[Unit], trump: Trump, policy: str = "all") -> bool:
    """Whether reading ``new`` takes the trick from the current winner's units ``cur``.

    ``all``: every unit strictly stronger than its counterpart (counterparts of
    equal shape paired weakest with weakest); ``highest``: the strongest card
    strictly stronger; ``trick-unit-length``: the largest differing units decide.
    """
    s = table(trump).strength
    if policy == "highest":
        return max(s[u.last] for u in new) > max(s[u.last] for u in cur)
    a, b = _classes(new, s), _classes(cur, s)
    if policy == "all":
        return all(x > y for g in b for x, y in zip(a.get(g, ()), b[g], strict=False))
    if policy == "trick-unit-length":
        skip_singles = len(new) > 1 and any(u.size > 1 for u in new)
        comps = []
        for g in b:
            size = sum(g)
            if skip_singles and size == 1:
                continue
            for x, y in zip(a.get(g, ()), b[g], strict=False):
                comps.append((size, (x > y) - (x < y)))
        comps.sort(key=lambda c: (-c[0], c[1] == 0))
        for _, c in comps:
            if c:
                return c > 0
        return False
    raise InvalidParameterError(
        f"unknown throw evaluation policy {policy!r}; known: {', '.join(THROW_EVALUATION_POLICIES)}"
    )


@dataclass(frozen=True)
class TrickResult:
    """The winner (index into the plays) and the points in the trick."""

    winner: int
    points: int


class TrickState:
    """A trick in progress: the format, the plays so far and the current winner.

    Works on any cards, so a variant can feed it *claimed* plays.
    """

    __slots__ = ("fmt", "plays", "winner", "winning", "policy")

    def __init__(self, fmt: Format, lead_cards: Sequence[int] | None = None, policy: str = "all"):
        self.fmt = fmt
        self.policy = policy
        self.plays: list[list[Card]] = [
            list(map(card, lead_cards)) if lead_cards is not None else fmt.cards()
        ]
        self.winner = 0
        self.winning: tuple[Unit, ...] = fmt.units

    def add(self, play: Cards) -> bool:
        """Add the next play; return whether it now wins the trick."""
        cs = _cards(play)
        self.plays.append(cs)
        best: tuple[Unit, ...] | None = None
        s = table(self.fmt.trump).strength
        for r in format_readings(self.fmt, cs):
            if beats(r, self.winning, self.fmt.trump, self.policy):
                key = sorted((s[u.first] for u in r), reverse=True)
                if best is None or key > sorted((s[u.first] for u in best), reverse=True):
                    best = r
        if best is not None:
            self.winner = len(self.plays) - 1
            self.winning = best
            return True
        return False

    @property
    def points(self) -> int:
        """Points of every card played so far."""
        return sum(card_points(p) for p in self.plays)


def trick_winner(
    plays: Sequence[Cards], trump: Trump, fmt: Format | None = None, policy: str = "all"
) -> TrickResult:
    """Who wins a trick (index into ``plays``, in play order) and its points.

    ``fmt`` is the trick format (default: the reading of the first play).

    Examples
    --------
    >>> t = Trump("9", "C")
    >>> trick_winner(["KD QD QD 10D 10D", "8C 8C 5C 5C JC", "AC AC 3C 3C 2C"], t)
    TrickResult(winner=1, points=40)
    >>> trick_winner(["KD QD QD 10D 10D", "8C 8C 5C 5C JC", "QC QC 10C 10C AC"], t)
    TrickResult(winner=2, points=60)
    >>> trick_winner(["5S", "9H", "9D", "3S"], t)
    TrickResult(winner=1, points=5)
    """
    if not plays:
        raise InvalidParameterError("a trick needs at least one play")
    first = _cards(plays[0])
    fmt = fmt if fmt is not None else lead_format(first, trump)
    ts = TrickState(fmt, first, policy)
    for p in plays[1:]:
        ts.add(p)
    return TrickResult(ts.winner, ts.points)
