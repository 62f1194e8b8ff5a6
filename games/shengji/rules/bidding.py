"""Declaring trump during the deal (zpy-reference.md §3, shengji-bot.md Appendix B).

A bid shows identical copies of a card of the bidding rank (its suit becomes
trump) or of a joker (no trump).  Policies (the reference's ``BidPolicy``):

``joker-or-greater-length`` (default)
    more cards win; at equal length BJ > SJ > any suit, and a suit cannot
    overturn a suit.
``joker-or-higher-suit``
    as above, and at equal length ≥ 2 a higher suit (D < C < H < S) overturns.
``greater-length``
    only more cards win.
``weak-strong``
    the fixed-partner game of shengji-bot.md: a weak call (one rank card) and a
    strong call (a pair) can each be made once per deal, no weak call after a
    strong one, no jokers.

While you hold the winning bid you may only reinforce it (more copies of the
same card) under ``reinforce-while-winning`` (default).

Examples
--------
>>> hand = {card("2C"): 3, card("2S"): 2, 52: 2, 53: 2}
>>> sorted(str(b) for b in valid_bids(0, hand, [], 0, 2))
['P0 1x2C', 'P0 1x2S', 'P0 2x2C', 'P0 2x2S', 'P0 2xBJ', 'P0 2xSJ', 'P0 3x2C']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.errors import InvalidParameterError
from games.shengji.rules.cards import BIG_JOKER, SMALL_JOKER, Card, card
from games.shengji.rules.trump import NT, Trump

__all__ = [
    "BID_POLICIES",
    "JOKER_BID_POLICIES",
    "REINFORCEMENT_POLICIES",
    "Bid",
    "valid_bids",
    "bid_trump",
]

BID_POLICIES = ("joker-or-greater-length", "joker-or-higher-suit", "greater-length", "weak-strong")
JOKER_BID_POLICIES = (
    "both-two-or-more",
    "both-num-decks",
    "lj-num-decks-hj-num-decks-less-one",
    "disabled",
)
REINFORCEMENT_POLICIES = (
    "reinforce-while-winning",
    "overturn-or-reinforce-while-winning",
    "reinforce-while-equivalent",
)

# bid order of suits for joker-or-higher-suit: D < C < H < S (suit indices C=0 D=1 H=2 S=3)
_SUIT_BID_ORDER = (1, 0, 2, 3)


@dataclass(frozen=True, slots=True)
class Bid:
    """``seat`` shows ``count`` copies of ``card``."""

    seat: int
    card: Card
    count: int

    def __str__(self) -> str:
        return f"P{self.seat} {self.count}x{self.card}"


def _check(name: str, value: str, known: Sequence[str]) -> None:
    if value not in known:
        raise InvalidParameterError(f"unknown {name} {value!r}; known: {', '.join(known)}")


def valid_bids(
    seat: int,
    hand: Mapping[int, int],
    bids: Sequence[Bid],
    bid_rank: int,
    decks: int,
    policy: str = "joker-or-greater-length",
    joker_policy: str = "both-two-or-more",
    reinforcement: str = "reinforce-while-winning",
) -> list[Bid]:
    """Every bid ``seat`` may make now, holding ``hand`` (face -> copies).

    ``bid_rank`` is the rank whose cards may be shown (the landlord's, or the
    bidder's own before the first landlord); at rank NT only jokers bid, and a
    single joker suffices.
    """
    _check("bid policy", policy, BID_POLICIES)
    _check("joker bid policy", joker_policy, JOKER_BID_POLICIES)
    _check("reinforcement policy", reinforcement, REINFORCEMENT_POLICIES)
    if policy == "weak-strong":
        return _weak_strong(seat, hand, bids, bid_rank)
    is_nt = bid_rank == NT
    candidates: list[Bid] = []
    for f, n in sorted(hand.items()):
        if n <= 0:
            continue
        joker = f in (SMALL_JOKER, BIG_JOKER)
        if not joker and (is_nt or f % 13 != bid_rank):
            continue
        for k in range(1, n + 1):
            if joker:
                if joker_policy == "disabled":
                    continue
                if joker_policy == "both-two-or-more" and k <= 1 and not is_nt:
                    continue
                if (
                    joker_policy in ("both-num-decks", "lj-num-decks-hj-num-decks-less-one")
                    and f == SMALL_JOKER
                    and k < decks
                ):
                    continue
                if joker_policy == "both-num-decks" and f == BIG_JOKER and k < decks:
                    continue
                if (
                    joker_policy == "lj-num-decks-hj-num-decks-less-one"
                    and f == BIG_JOKER
                    and k < decks - 1
                ):
                    continue
            new = Bid(seat, card(f), k)
            if not bids or _overbids(new, bids[-1], policy):
                candidates.append(new)
    mine = next((b for b in reversed(bids) if b.seat == seat), None)
    if (
        mine is not None
        and reinforcement in ("reinforce-while-winning", "reinforce-while-equivalent")
        and mine == bids[-1]
    ):
        have = hand.get(mine.card, 0)
        return [Bid(seat, mine.card, k) for k in range(mine.count + 1, have + 1)]
    if mine is not None and reinforcement == "reinforce-while-equivalent" and bids:
        last = bids[-1]
        if last.count <= hand.get(mine.card, 0):
            eq = Bid(seat, mine.card, last.count)
            if eq == last or last.card not in (SMALL_JOKER, BIG_JOKER):
                candidates.append(eq)
    return candidates


def _overbids(new: Bid, old: Bid, policy: str) -> bool:
    if new.count > old.count:
        return True
    if new.count < old.count or policy == "greater-length":
        return False
    if new.card == BIG_JOKER:
        return old.card != BIG_JOKER
    if new.card == SMALL_JOKER:
        return old.card not in (SMALL_JOKER, BIG_JOKER)
    if old.card in (SMALL_JOKER, BIG_JOKER):
        return False
    return (
        policy == "joker-or-higher-suit"
        and new.count > 1
        and _SUIT_BID_ORDER[new.card // 13] > _SUIT_BID_ORDER[old.card // 13]
    )


def _weak_strong(
    seat: int, hand: Mapping[int, int], bids: Sequence[Bid], bid_rank: int
) -> list[Bid]:
    if bid_rank == NT:
        return []
    weak_done = any(b.count == 1 for b in bids)
    strong_done = any(b.count >= 2 for b in bids)
    out = []
    for f, n in sorted(hand.items()):
        if f >= SMALL_JOKER or f % 13 != bid_rank:
            continue
        if n >= 1 and not weak_done and not strong_done:
            out.append(Bid(seat, card(f), 1))
        if n >= 2 and not strong_done:
            out.append(Bid(seat, card(f), 2))
    return out


def bid_trump(bid: Bid, rank: int) -> Trump:
    """The trump a winning bid sets at ``rank``: the bid card's suit, or no trump for a joker.

    Examples
    --------
    >>> bid_trump(Bid(1, card("9H"), 2), 7), bid_trump(Bid(1, card("BJ"), 2), 7)
    (Trump('9', 'H'), Trump('9', None))
    """
    if bid.card >= SMALL_JOKER:
        return Trump(rank, None)
    return Trump(rank, bid.card // 13)
