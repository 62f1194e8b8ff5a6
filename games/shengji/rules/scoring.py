"""End of round (zpy-reference.md §6): kitty, level table, bonus, advancement, next landlord.

Examples
--------
>>> [level_change(p, 2).describe() for p in (0, 35, 40, 80, 120, 160, 200, 240)]
['landlord +3', 'landlord +2', 'landlord +1', 'attackers +0', 'attackers +1', 'attackers +2', 'attackers +3', 'attackers +4']
>>> kitty_size(4, 2), kitty_size(5, 2), kitty_size(6, 3)
(8, 8, 6)
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from games.errors import InvalidParameterError
from games.shengji.rules.trump import NT, rank_name

__all__ = [
    "KITTY_POLICIES",
    "ADVANCEMENT_POLICIES",
    "LevelChange",
    "default_decks",
    "kitty_size",
    "kitty_multiplier",
    "level_change",
    "level_table",
    "advance_rank",
    "next_landlord",
]

#: Kitty multiplier policies: ``times`` (2 × largest unit, default), ``power`` (2^size), ``double`` (flat ×2).
KITTY_POLICIES = ("times", "power", "double")
#: Rank advancement policies (default first).
ADVANCEMENT_POLICIES = ("unrestricted", "fully-unrestricted", "defend-points")


def default_decks(players: int) -> int:
    """Decks by default: ⌊players/2⌋."""
    return players // 2


def kitty_size(players: int, decks: int) -> int:
    """The reference kitty size: ``total % players``; 0 → ``players``; under 5 → ``+ players``.

    Examples
    --------
    >>> [kitty_size(p, p // 2) for p in (4, 5, 6, 7, 8)]
    [8, 8, 6, 8, 8]
    """
    k = (54 * decks) % players
    if k == 0:
        k = players
    if k < 5:
        k += players
    return k


def kitty_multiplier(largest_unit: int, policy: str = "times") -> int:
    """Multiplier of the kitty's points on the last trick.

    Examples
    --------
    >>> [kitty_multiplier(n) for n in (1, 2, 3, 4)], kitty_multiplier(2, "power"), kitty_multiplier(4, "double")
    ([2, 4, 6, 8], 4, 2)
    """
    if policy == "times":
        return 2 * largest_unit
    if policy == "power":
        return 2**largest_unit
    if policy == "double":
        return 2
    raise InvalidParameterError(
        f"unknown kitty policy {policy!r}; known: {', '.join(KITTY_POLICIES)}"
    )


@dataclass(frozen=True)
class LevelChange:
    """Result of a round: who won and by how many levels."""

    landlord_won: bool
    landlord_delta: int
    attacker_delta: int
    bonus: bool = False

    def describe(self) -> str:
        if self.landlord_won:
            return f"landlord +{self.landlord_delta}" + (" (bonus level)" if self.bonus else "")
        return f"attackers +{self.attacker_delta}"


def level_change(
    attacking_points: int,
    decks: int,
    *,
    step_per_deck: int = 20,
    turnover_steps: int = 2,
    deadzone_steps: int = 1,
    truncate_zero: bool = True,
    smaller_team: bool = False,
    bonus_level: bool = True,
    max_delta: int | None = None,
) -> LevelChange:
    """The level change for ``attacking_points`` (the reference's ``scoring.rs`` defaults).

    With step ``s = step_per_deck × decks``: the landlord side wins below
    ``turnover_steps × s``: +1 for the last step before it, +2 from 5 up to
    ``s``, +3 from ``5 - s`` up to 5, then one more per further ``s`` down.
    Attackers: +0 in the deadzone step, then +1 per further step.  With
    ``smaller_team`` (the landlord's final team is smaller than 1 + friends) a
    landlord win earns one bonus level.  ``max_delta`` caps both sides (the
    fixed-partner table stops at +3).

    Examples
    --------
    >>> level_change(-40, 2).landlord_delta, level_change(-80, 2).landlord_delta
    (4, 5)
    >>> level_change(60, 3).describe(), level_change(60, 3, smaller_team=True).describe()
    ('landlord +1', 'landlord +2 (bonus level)')
    """
    s = step_per_deck * decks
    if s <= 0 or s % 5:
        raise InvalidParameterError(f"the step size {s} must be a positive multiple of 5")
    if turnover_steps < 1:
        raise InvalidParameterError("turnover_steps must be at least 1")
    p = attacking_points
    if p < turnover_steps * s:
        # landlord-winning segments, highest first: (start, end, delta)
        segs: list[tuple[int, int, int]] = []
        if truncate_zero:
            d = 1
            for off in range(turnover_steps, 1, -1):
                segs.append(((off - 1) * s, off * s, d))
                d += 1
            segs.append((5, s, d))
            segs.append((5 - s, 5, d + 1))
        else:
            segs.append(((turnover_steps - 1) * s, turnover_steps * s, 1))
        delta = None
        for a, b, d in segs:
            if a <= p < b:
                delta = d
                break
        if delta is None:
            a, b, d = segs[-1]
            width = b - a
            while not a <= p < b:
                a, b, d = a - width, a, d + 1
            delta = d
        bonus = bonus_level and smaller_team
        if bonus:
            delta += 1
        if max_delta is not None:
            delta = min(delta, max_delta)
        return LevelChange(True, delta, 0, bonus)
    lose: list[tuple[int, int, int]] = []
    if deadzone_steps:
        lose.append((turnover_steps * s, (turnover_steps + deadzone_steps) * s, 0))
    top = turnover_steps + deadzone_steps
    a, b, d = top * s, (top + 1) * s, 1
    for x, y, dd in lose:
        if x <= p < y:
            return LevelChange(False, 0, dd)
    while not a <= p < b:
        a, b, d = b, b + (b - a), d + 1
    if max_delta is not None:
        d = min(d, max_delta)
    return LevelChange(False, 0, d)


def level_table(decks: int, upto: int | None = None, **options: object) -> list[tuple[int, str]]:
    """``(points, result)`` at every 5 points where the result changes, from 0.

    Examples
    --------
    >>> level_table(2)[:4]
    [(0, 'landlord +3'), (5, 'landlord +2'), (40, 'landlord +1'), (80, 'attackers +0')]
    """
    upto = 100 * decks if upto is None else upto
    out: list[tuple[int, str]] = []
    for p in range(0, upto + 1, 5):
        d = level_change(p, decks, **options).describe()  # type: ignore[arg-type]
        if not out or out[-1][1] != d:
            out.append((p, d))
    return out


def advance_rank(
    rank: int,
    steps: int,
    defending: bool,
    landlord_rank: int,
    policy: str = "unrestricted",
    max_rank: int = NT,
) -> tuple[int, int, bool]:
    """Advance one player's rank by ``steps``: ``(new_rank, wraps, blocked)``.

    A and NT must be defended: at the top rank (and at A below NT) a player
    passes only on the first step of a win as a landlord-team member, and NT
    also needs the landlord playing at NT.  Past the top rank a player wraps
    to 2 (``wraps`` counts the meta-levels gained).  ``defend-points`` also
    makes 5, 10 and K defended; ``fully-unrestricted`` removes every stop.

    Examples
    --------
    >>> advance_rank(10, 3, True, 10)   # Q +3 as landlord: K, A, then stop at A
    (12, 0, True)
    >>> advance_rank(12, 2, True, 12)   # A defended: to NT, then stop
    (13, 0, True)
    >>> advance_rank(11, 4, False, 5)   # attackers stop at A
    (12, 0, True)
    """
    if policy not in ADVANCEMENT_POLICIES:
        raise InvalidParameterError(
            f"unknown advancement policy {policy!r}; known: {', '.join(ADVANCEMENT_POLICIES)}"
        )
    wraps = 0
    for i in range(steps):
        must = False
        if policy != "fully-unrestricted":
            must = rank == max_rank or (rank + 1 == max_rank and max_rank == NT)
            if policy == "defend-points" and rank in (3, 8, 11):
                must = True
        landlord_must = must and rank == NT
        if must and (not defending or i > 0 or (landlord_must and landlord_rank != NT)):
            return rank, wraps, True
        if rank != max_rank and rank < NT:
            rank += 1
        else:
            rank = 0
            wraps += 1
    return rank, wraps, False


def next_landlord(
    landlord: int, landlord_team: Collection[int], landlord_won: bool, players: int
) -> int:
    """The next seat after the landlord (cyclically, ending with the landlord) on the winning side.

    Examples
    --------
    >>> next_landlord(0, {0, 2}, True, 4), next_landlord(0, {0, 2}, False, 4)
    (2, 1)
    """
    for k in range(1, players + 1):
        seat = (landlord + k) % players
        if (seat in landlord_team) == landlord_won:
            return seat
    raise InvalidParameterError("no seat is on the winning side")


def describe_rank(rank: int) -> str:
    """Readable rank (``"2"`` … ``"A"``, ``"NT"``)."""
    return rank_name(rank)
