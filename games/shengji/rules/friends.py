"""Finding friends (zpy-reference.md §4): friend cards and their resolution.

The landlord declares distinct (card, ordinal) pairs: "the k-th copy of X to be
played joins my team".  When a trick is finished its cards are walked in play
order; each matching card either counts down a slot's skip counter or fills
the slot.  Under the default double-join policy ``unrestricted`` a slot filled
by someone already on the team (the landlord himself, or a friend joining
twice) is used up and the team does not grow; under ``no-double-join`` the slot
stays open for the next copy.  Cards returned from a failed throw never count.

Examples
--------
>>> t = Trump("2", "S")
>>> tracker = FriendTracker([FriendSlot(card("AH"), 2)], landlord=0)
>>> tracker.resolve_trick([(1, parse_cards("AH")), (2, parse_cards("AH")), (3, parse_cards("3H"))])
[FriendJoin(seat=2, slot=0, already_on_team=False)]
>>> sorted(tracker.team)
[0, 2]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.errors import IllegalActionError, InvalidParameterError
from games.shengji.rules.cards import BIG_JOKER, NUM_FACES, SMALL_JOKER, Card, card, parse_cards
from games.shengji.rules.trump import TRUMP_SUIT, Trump, table

__all__ = [
    "FRIEND_POLICIES",
    "DOUBLE_JOIN_POLICIES",
    "FriendSlot",
    "FriendJoin",
    "FriendTracker",
    "allowed_friend_cards",
    "friend_declaration_error",
    "resolve_friends",
    "parse_friend",
]

#: Which cards may be named as friends (default first).
FRIEND_POLICIES = (
    "unrestricted",
    "trumps-included",
    "highest-card-not-allowed",
    "point-card-not-allowed",
)
#: What a slot filled by a team member does (default first).
DOUBLE_JOIN_POLICIES = ("unrestricted", "no-double-join")

_ORD = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}


@dataclass(frozen=True, slots=True)
class FriendSlot:
    """ "The ``ordinal``-th copy of ``card`` to be played joins the landlord's team"."""

    card: Card
    ordinal: int

    def __str__(self) -> str:
        return f"{_ORD.get(self.ordinal, f'{self.ordinal}th')} {self.card}"


@dataclass(frozen=True, slots=True)
class FriendJoin:
    """A filled slot: who played the card and whether they were already on the team."""

    seat: int
    slot: int
    already_on_team: bool


def allowed_friend_cards(trump: Trump, policy: str = "unrestricted") -> list[Card]:
    """The faces that may be named as friend cards under ``policy``.

    ``unrestricted`` forbids trumps (jokers, rank cards, trump suit);
    ``trumps-included`` allows every card; ``highest-card-not-allowed`` also
    forbids the ace (the king when the rank is A); ``point-card-not-allowed``
    forbids 5, 10 and K (except a K at rank A).

    Examples
    --------
    >>> len(allowed_friend_cards(Trump("2", "S")))
    36
    >>> card("AH") in allowed_friend_cards(Trump("2", "S"), "highest-card-not-allowed")
    False
    """
    if policy not in FRIEND_POLICIES:
        raise InvalidParameterError(
            f"unknown friend policy {policy!r}; known: {', '.join(FRIEND_POLICIES)}"
        )
    if policy == "trumps-included":
        return [card(f) for f in range(NUM_FACES)]
    t = table(trump)
    out = []
    for f in range(NUM_FACES):
        if t.esuit[f] == TRUMP_SUIT or f in (SMALL_JOKER, BIG_JOKER):
            continue
        r = f % 13
        if policy == "highest-card-not-allowed":
            top = 11 if trump.rank == 12 else 12
            if r == top:
                continue
        if (
            policy == "point-card-not-allowed"
            and r in (3, 8, 11)
            and not (r == 11 and trump.rank == 12)
        ):
            continue
        out.append(card(f))
    return out


def friend_declaration_error(
    slots: Sequence[FriendSlot],
    trump: Trump,
    decks: int,
    num_friends: int,
    policy: str = "unrestricted",
) -> str | None:
    """Why a friend declaration is not allowed, or ``None`` when it is.

    Examples
    --------
    >>> friend_declaration_error([FriendSlot(card("3S"), 1)], Trump("2", "S"), 2, 1)
    '3S is not allowed as a friend card (trumps are not allowed)'
    """
    if len(slots) != num_friends:
        return f"declare exactly {num_friends} friend card{'s' if num_friends != 1 else ''}, not {len(slots)}"
    allowed = set(allowed_friend_cards(trump, policy))
    seen = set()
    for s in slots:
        if not 1 <= s.ordinal <= decks:
            return f"the ordinal of {s.card} must be 1..{decks} (there are {decks} copies)"
        if s.card not in allowed:
            why = (
                "trumps are not allowed"
                if table(trump).esuit[s.card] == TRUMP_SUIT
                else f"the {policy} policy forbids it"
            )
            return f"{s.card} is not allowed as a friend card ({why})"
        if (s.card, s.ordinal) in seen:
            return f"{s} is declared twice"
        seen.add((s.card, s.ordinal))
    return None


class FriendTracker:
    """The friend slots of a round, the landlord's team, and trick-by-trick resolution."""

    __slots__ = ("slots", "skip", "filled", "team", "policy")

    def __init__(self, slots: Iterable[FriendSlot], landlord: int, policy: str = "unrestricted"):
        if policy not in DOUBLE_JOIN_POLICIES:
            raise InvalidParameterError(
                f"unknown double-join policy {policy!r}; known: {', '.join(DOUBLE_JOIN_POLICIES)}"
            )
        self.slots = list(slots)
        self.skip = [s.ordinal - 1 for s in self.slots]
        self.filled: list[int | None] = [None] * len(self.slots)
        self.team = {landlord}
        self.policy = policy

    def resolve_trick(self, plays: Iterable[tuple[int, Iterable[int]]]) -> list[FriendJoin]:
        """Walk a finished trick's ``(seat, cards)`` in play order; return the joins."""
        joins = []
        for seat, cards in plays:
            for c in cards:
                for i, s in enumerate(self.slots):
                    if s.card != c:
                        continue
                    if self.skip[i] > 0:
                        self.skip[i] -= 1
                        continue
                    if self.filled[i] is not None:
                        continue
                    already = seat in self.team
                    if already and self.policy == "no-double-join":
                        continue
                    self.filled[i] = seat
                    self.team.add(seat)
                    joins.append(FriendJoin(seat, i, already))
        return joins

    @property
    def open_slots(self) -> list[int]:
        """Indices of slots not yet filled."""
        return [i for i, f in enumerate(self.filled) if f is None]

    def copy(self) -> FriendTracker:
        """An independent copy."""
        other = FriendTracker.__new__(FriendTracker)
        other.slots = list(self.slots)
        other.skip = list(self.skip)
        other.filled = list(self.filled)
        other.team = set(self.team)
        other.policy = self.policy
        return other


def resolve_friends(
    slots: Sequence[FriendSlot],
    landlord: int,
    tricks: Iterable[Iterable[tuple[int, Iterable[int] | str]]],
    policy: str = "unrestricted",
) -> tuple[set[int], list[FriendJoin]]:
    """The landlord's team after some finished tricks, and every join in order.

    Examples
    --------
    >>> slots = [FriendSlot(card("AS"), 1), FriendSlot(card("AS"), 2)]
    >>> team, joins = resolve_friends(slots, 0, [[(3, "AS AS"), (0, "3S 4S")]])
    >>> sorted(team), [j.already_on_team for j in joins]
    ([0, 3], [False, True])
    """
    tracker = FriendTracker(slots, landlord, policy)
    joins: list[FriendJoin] = []
    for trick in tricks:
        joins += tracker.resolve_trick(
            (seat, parse_cards(cs) if isinstance(cs, str) else cs) for seat, cs in trick
        )
    return tracker.team, joins


def parse_friend(text: str) -> FriendSlot:
    """Read ``AS``, ``2:AS`` or ``second AS`` as a friend slot (default ordinal 1)."""
    if not isinstance(text, str):
        raise IllegalActionError(f"cannot read friend {text!r}: write e.g. AS, 2:AS or second AS")
    tok = text.strip().replace(":", " ").split()
    if len(tok) == 1:
        return FriendSlot(parse_cards(tok[0])[0], 1)
    if len(tok) == 2:
        words = {v: k for k, v in _ORD.items()}
        o = tok[0].lower()
        if o.isdigit():
            return FriendSlot(parse_cards(tok[1])[0], int(o))
        if o in words:
            return FriendSlot(parse_cards(tok[1])[0], words[o])
    raise IllegalActionError(f"cannot read friend {text!r}: write e.g. AS, 2:AS or second AS")
