"""The trick-playing phase of a round, as a plain object other engines can compose.

:class:`PlayPhase` holds the hands, the trump, the teams (fixed, or a friend
tracker), the trick in progress and the point piles, and applies whole plays:
a lead (checked as a throw against the hidden hands), then follows (checked
by :class:`~games.shengji.follow.FollowRules`), then the trick's winner,
points and friend joins.  The game state of :mod:`games.shengji.engine` wraps
it; the sampling bot builds one from a sampled deal and plays it out.

Examples
--------
>>> from games.shengji.cards import parse_cards
>>> hands = [parse_cards(h) for h in ("AH KH", "3H 4H", "5H 6H", "7H 8H")]
>>> p = PlayPhase(Trump("2", "S"), hands, leader=0, landlord_team={0, 2})
>>> p.play(0, parse_cards("AH KH")).valid
True
>>> for seat in (1, 2, 3):
...     _ = p.play(seat, next(p.follow_rules(seat).plays()))
>>> p.tricks[-1].winner, p.piles
(0, [15, 0, 0, 0])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from games.errors import IllegalActionError
from games.shengji.cards import Card, card, card_points, format_cards
from games.shengji.follow import FollowRules
from games.shengji.formats import Format, count_faces, lead_format
from games.shengji.friends import FriendJoin, FriendTracker
from games.shengji.scoring import kitty_multiplier
from games.shengji.tricks import ThrowCheck, TrickState, check_throw
from games.shengji.trump import Trump, table

__all__ = ["PlayPhase", "PlayRecord", "TrickRecord"]


@dataclass
class PlayRecord:
    """One play: the seat, the cards played, and for a failed throw what was tried."""

    seat: int
    cards: list[Card]
    attempted: list[Card] | None = None
    blocker: int | None = None


@dataclass
class TrickRecord:
    """A finished trick."""

    leader: int
    fmt: Format
    plays: list[PlayRecord]
    winner: int
    points: int
    joins: list[FriendJoin] = field(default_factory=list)


class PlayPhase:
    """Trick play of one round.

    Parameters
    ----------
    trump : Trump
    hands : sequence of card lists, one per seat
    leader : int
        Who leads the first trick (the landlord).
    landlord_team : set of int, optional
        Fixed teams: the landlord's side.  Omit it and give ``friends`` instead.
    friends : FriendTracker, optional
        Finding-friends teams (the landlord's team grows as friends join).
    kitty : list of Card
        The buried cards (their points go to the last trick's winner).
    draw_policy, throw_policy, kitty_policy, throw_penalty : str
        Rule switches (see :mod:`games.shengji.follow`, :mod:`games.shengji.tricks`,
        :mod:`games.shengji.scoring`); ``throw_penalty`` is ``none`` or
        ``ten-points``.
    """

    def __init__(
        self,
        trump: Trump,
        hands: Sequence[Iterable[int]],
        leader: int,
        landlord_team: set[int] | None = None,
        friends: FriendTracker | None = None,
        kitty: Sequence[int] = (),
        draw_policy: str = "no-protections",
        throw_policy: str = "all",
        kitty_policy: str = "times",
        throw_penalty: str = "none",
    ):
        self.trump = trump
        self.n = len(hands)
        self.hands: list[dict[int, int]] = [count_faces(h) for h in hands]
        self.sizes = [sum(h.values()) for h in self.hands]
        self.left = sum(self.sizes)
        self.leader = leader
        self.fixed_team = set(landlord_team) if landlord_team is not None else None
        self.friends = friends
        if self.fixed_team is None and friends is None:
            raise IllegalActionError("a play phase needs a landlord team or a friend tracker")
        self.kitty = list(kitty)
        self.draw_policy = draw_policy
        self.throw_policy = throw_policy
        self.kitty_policy = kitty_policy
        self.throw_penalty = throw_penalty
        self.piles = [0] * self.n
        self.penalties = [0] * self.n
        self.tricks: list[TrickRecord] = []
        self.trick: TrickState | None = None
        self.current: list[PlayRecord] = []
        self.kitty_points_awarded = 0
        self._rules: tuple[int, int, FollowRules] | None = None

    # ----------------------------------------------------------------- state
    @property
    def team(self) -> set[int]:
        """The landlord's team as it stands now."""
        if self.fixed_team is not None:
            return self.fixed_team
        assert self.friends is not None
        return self.friends.team

    def to_play(self) -> int | None:
        """The seat to play next, ``None`` when the round is over."""
        if self.is_over():
            return None
        return (self.leader + len(self.current)) % self.n

    def is_over(self) -> bool:
        """Whether every card has been played."""
        return not self.current and self.left == 0

    def is_leading(self) -> bool:
        """Whether the next play leads a trick."""
        return not self.current

    @property
    def fmt(self) -> Format | None:
        """The current trick's format (``None`` before the lead)."""
        return self.trick.fmt if self.trick is not None and self.current else None

    def follow_rules(self, seat: int) -> FollowRules:
        """The follow rules of ``seat`` for the current trick (cached)."""
        if self.trick is None or not self.current:
            raise IllegalActionError("nobody has led yet")
        key = (len(self.tricks), seat)
        if self._rules is None or self._rules[:2] != key:
            self._rules = (*key, FollowRules(self.hands[seat], self.trick.fmt, self.draw_policy))
        return self._rules[2]

    def lead_error(self, seat: int, cards: Sequence[int]) -> str | None:
        """Why ``seat`` cannot lead ``cards``, or ``None``."""
        if not cards:
            return "play at least one card"
        need = count_faces(cards)
        for f, k in need.items():
            if self.hands[seat].get(f, 0) < k:
                return f"you do not hold {k} × {card_text(f)}"
        t = table(self.trump)
        if len({t.esuit[c] for c in cards}) > 1:
            return f"a lead must lie in one suit: {format_cards(cards)} mixes suits"
        return None

    def play_error(self, seat: int, cards: Sequence[int]) -> str | None:
        """Why ``seat`` cannot play ``cards`` now, or ``None`` when it can."""
        if self.to_play() != seat:
            return "it is not your turn"
        if self.is_leading():
            return self.lead_error(seat, cards)
        return self.follow_rules(seat).error(count_faces(cards))

    # ---------------------------------------------------------------- moves
    def play(self, seat: int, cards: Sequence[int]) -> ThrowCheck | None:
        """Apply a whole play by ``seat``; a lead returns its throw check.

        Raises
        ------
        IllegalActionError
            If the play is illegal (the phase is unchanged).
        """
        err = self.play_error(seat, cards)
        if err is not None:
            raise IllegalActionError(f"P{seat} cannot play {format_cards(cards)}: {err}")
        if self.is_leading():
            return self._lead(seat, list(map(card, cards)))
        self._follow(seat, list(map(card, cards)))
        return None

    def replay(self, seat: int, cards: Sequence[int], fmt: Format | None = None) -> None:
        """Apply a play that is known to have happened, without checking it.

        A lead takes ``fmt`` as the trick format (default: its own reading).
        Used to rebuild a position from a sampled deal, where the facts of the
        table are fixed even if the sampled hands would not force them.
        """
        if self.is_leading():
            self._remove(seat, cards)
            self.trick = TrickState(
                fmt or lead_format(cards, self.trump), list(cards), self.throw_policy
            )
            self.current = [PlayRecord(seat, list(map(card, cards)))]
        else:
            self._follow(seat, list(map(card, cards)))

    def _remove(self, seat: int, cards: Iterable[int]) -> None:
        h = self.hands[seat]
        for c in cards:
            k = h[c] - 1
            if k:
                h[c] = k
            else:
                del h[c]
            self.sizes[seat] -= 1
            self.left -= 1

    def _lead(self, seat: int, cards: list[Card]) -> ThrowCheck:
        fmt = lead_format(cards, self.trump)
        others = [self.hands[(seat + k) % self.n] for k in range(1, self.n)]
        chk = check_throw(fmt, others, self.trump)
        played = chk.played
        rec = PlayRecord(seat, list(played))
        if not chk.valid:
            rec.attempted = list(cards)
            rec.blocker = (seat + 1 + (chk.blocker or 0)) % self.n
        self._remove(seat, played)
        self.trick = TrickState(chk.format, played, self.throw_policy)
        self.current = [rec]
        return chk

    def _follow(self, seat: int, cards: list[Card]) -> None:
        assert self.trick is not None
        self._remove(seat, cards)
        self.trick.add(cards)
        self.current.append(PlayRecord(seat, cards))
        if len(self.current) == self.n:
            self._finish_trick()

    def _finish_trick(self) -> None:
        assert self.trick is not None
        trick = self.trick
        winner = self.current[trick.winner].seat
        points = trick.points
        joins: list[FriendJoin] = []
        if self.friends is not None:
            joins = self.friends.resolve_trick((p.seat, p.cards) for p in self.current)
        first = self.current[0]
        if first.attempted is not None and self.throw_penalty == "ten-points":
            self.penalties[first.seat] += 10
        if self.left == 0 and self.kitty:
            mult = kitty_multiplier(trick.fmt.largest_unit, self.kitty_policy)
            self.kitty_points_awarded = card_points(self.kitty) * mult
            points += self.kitty_points_awarded
        self.piles[winner] += points
        self.tricks.append(TrickRecord(self.leader, trick.fmt, self.current, winner, points, joins))
        self.current = []
        self.trick = None
        self.leader = winner

    # ---------------------------------------------------------------- score
    def attacking_points(self) -> int:
        """Points in the piles of the seats not on the landlord's team, with throw penalties."""
        team = self.team
        pts = sum(p for s, p in enumerate(self.piles) if s not in team)
        for s, pen in enumerate(self.penalties):
            if pen:
                pts += pen if s in team else -pen
        return pts


def card_text(face: int) -> str:
    return format_cards([face])
