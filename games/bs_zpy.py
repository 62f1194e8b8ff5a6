"""BS-ZPY: ZPY (finding friends) played face down, with claims, BS calls and peanut butter.

Rules: ``bs-zpy.md`` on top of normal ZPY (``zpy-reference.md``), with the
notes of zpy-reference §9 and the decisions below.  Bidding, the kitty
exchange and the friend declaration are those of the ZPY engine
(:class:`games.shengji.state.ShengjiState`, variant ``zpy``); the tricks are
played by :class:`ClaimPhase`, which applies the ZPY rules layer
(:mod:`games.shengji.rules.formats`, :mod:`~games.shengji.rules.follow`,
:mod:`~games.shengji.rules.tricks`, :mod:`~games.shengji.rules.friends`) to *claims*.

**A play.**  The player puts cards face down (``select`` … then ``COMMIT``)
and claims what they are (``claim`` … card by card, or ``CLAIM_TRUE`` for
"exactly what I put down").  The number of cards is visible and cannot be a
lie: a follow has as many cards as the trick's format, a claim as many as
the cards put down.  A lead claim lies in one effective suit (a throw may be
claimed); a follow claim is any cards.  No copy count above the number of
decks can be claimed.

**Lying.**  A play is a lie when the cards are not the claimed cards or the
play is invalid: a lead in several suits, a throw that another player's hand
can beat (the ZPY throw check, zpy-reference §5.3, against the true hands),
or a follow that breaks the suit or format rule (§5.2) for the true hand.

**Calls.**  Before the next play every other player decides, without seeing
the others' decisions, whether to call BS; several callers: the first in
turn order after the player calls.  Everyone learns who wanted to call.  A
call reveals the cards.  A caught liar forfeits ``penalty_cards`` (2) random
cards of their winnings pile to the caller (all of them if fewer; if the
pile is empty they lose ``penalty_points`` (5) points) and can no longer win
the trick.  A wrong caller pays the accused the same way.  If every player
before the last was caught lying, nobody may call on the last.

**Caught invalid lead.**  The leader keeps the *smallest-valued valid
sub-hand* of the cards and takes the rest back.  Sub-hands are ordered by
(number of cards, points, plain before trump, strength within the suit, suit
clubs < diamonds < hearts < spades), smallest first; every single card is a
valid lead, so the kept sub-hand is the lowest-valued card
(:func:`smallest_valid_subhand`).  The trick format becomes that card; a
caught leader whose lead was valid leaves the revealed cards as the format.

**Peanut butter.**  With no call the cards count as claimed and are never
shown; a liar then says "peanut butter": the fact of the lie becomes public
(a public announcement of "the claim was false"), not its content.  Silence
after no call therefore announces that the claim was true.

**Winning.**  A play that is not caught competes with its claim (a called
truthful play's claim is its cards).  The lead's claim sets the format; a
later claim takes the trick when it beats the current best as in ZPY §5.4.
If the leader was caught, the first follower whose claim matches the format
is the first to beat; if no eligible claim matches, the first eligible play
wins.  The winner takes every card of the trick (the true cards) into a
face-down winnings pile, which holds every card won.  Winnings piles stay
face down: nobody looks at them during the round, so stolen cards are
unseen.

**Friends.**  The k-th *successful* claim of a friend card (a claim that was
not caught) fills the slot, walking each finished trick in play order as in
ZPY §4; a caught liar's cards never count.

**Score.**  Each side's score is the points of the cards in its members'
winnings piles (final teams), plus the kitty's points times the ZPY
multiplier for the side that wins the last trick, minus its penalties.  The
level change is δ = ⌊(attacking − dictator) / (20 n)⌋ + 1 with n decks
(``step_per_deck`` = 20): δ > 0, the attackers go up δ levels; δ < 0, the
dictator's team goes up |δ|; δ = 0, the attackers win without going up (the
rule text leaves δ = 0 undefined; this is the project's reading).  The
rule text's example (attacking 105, dictator 195, 3 decks) writes −80 for
105 − 195 = −90; both give δ = −1.  The ZPY bonus level does not apply.  The
next dictator is the next seat after the dictator on the winning side.

**Knowledge.**  :class:`SeatKnowledge` turns one seat's observations into
exact deal knowledge (:mod:`games.deal`): claims are not facts; calls,
reveals, silence (the claim was true) and peanut butter (it was false) are
public announcements.  It answers whether the seat knows a claim is false,
the probability that a claim can be true, and who may hold a friend card.
:class:`Narrator` tells a game with that knowledge after each event
(``kripke play bs-zpy --seed 5``).

The default table is 5 players with 2 decks (an 8-card kitty, 20 cards
each, one friend), the ZPY setting of zpy-reference §1; 4 to 10 players
work, but exact deal knowledge for three or more decks is slow.

Examples
--------
>>> from games.base import load_game
>>> g = load_game("bs-zpy")
>>> g.num_players(), g.rules.decks, g.rules.hand_size, g.rules.friends
(5, 2, 20, 1)
>>> st = g.position(["AS AS 3H", "KS 4H 5H", "QS 6H 7H", "JS 8H 9H", "10S 10H 2C"],
...                 trump="2D", landlord=0, friends=["AH"])
>>> st.play_claim(0, "3H", claim="AS")       # a lie: 3H put down as AS
>>> st.decide_calls({1: True})               # P1 calls BS
>>> for o in st.observations(2)[-3:]:
...     print(o)
call caller=1 callers=[1]
P0 reveal cards=[3H] kept=[] returned=[] truthful=False valid=True violation=
P0 penalty cards=0 points=5 to=1
"""

from __future__ import annotations

import io
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TextIO

from games.base import CHANCE, TERMINAL, Bot, Observation, make_bot, register_game, sample_chance
from games.errors import IllegalActionError, InvalidParameterError
from games.shengji.rules.cards import (
    NUM_FACES,
    Card,
    as_cards,
    card,
    card_points,
    format_cards,
    parse_cards,
)
from games.shengji.knowledge import SeatDeal
from games.shengji.state import (
    _SELECT,
    COMMIT,
    PASS,
    Rules,
    ShengjiGame,
    ShengjiParams,
    ShengjiState,
    decode_action,
    resolve_rules,
    select_action,
)
from games.shengji.rules.follow import FollowRules
from games.shengji.rules.formats import (
    Format,
    Unit,
    count_faces,
    decomposition_order,
    fits_shape,
    lead_format,
)
from games.shengji.rules.friends import FriendSlot, FriendTracker, parse_friend
from games.shengji.rules.scoring import advance_rank, kitty_multiplier, next_landlord
from games.shengji.rules.tricks import beats, check_throw, format_readings
from games.shengji.rules.trump import SUIT_LABELS, TRUMP_SUIT, Trump, rank_name, table

__all__ = [
    "BSZPYParams",
    "BSZPYGame",
    "BSZPYState",
    "ClaimPhase",
    "ClaimRecord",
    "ClaimTrick",
    "Settlement",
    "SeatKnowledge",
    "ClaimOdds",
    "PASS",
    "COMMIT",
    "CALL",
    "CLAIM_TRUE",
    "claim_action",
    "decode_bs_action",
    "smallest_valid_subhand",
    "play_validity",
    "claim_winner",
    "level_delta",
    "seat_knowledge",
    "SeenPlay",
    "Narrator",
    "narrate",
]

#: Action at a call decision: call BS.
CALL = 2
#: Action when claiming: claim exactly the cards put down (and finish the claim).
CLAIM_TRUE = 3
_CLAIM = 6000
_STEAL = 7000


def claim_action(c: int) -> int:
    """Action: add one copy of ``c`` to the claim being made."""
    return _CLAIM + int(c)


def decode_bs_action(a: int) -> tuple[str, Any]:
    """``(kind, payload)`` of a BS-ZPY action (the ZPY kinds plus call, claim_true, claim, steal).

    Examples
    --------
    >>> decode_bs_action(CALL), decode_bs_action(claim_action(card("AS")))
    (('call', None), ('claim', AS))
    """
    if a == CALL:
        return "call", None
    if a == CLAIM_TRUE:
        return "claim_true", None
    if _CLAIM <= a < _CLAIM + NUM_FACES:
        return "claim", card(a - _CLAIM)
    if _STEAL <= a < _STEAL + NUM_FACES:
        return "steal", card(a - _STEAL)
    return decode_action(a)


# ====================================================================== rules
def _within(f: int, t: Any) -> int:
    s = t.strength[f]
    return s - 100 if t.esuit[f] == TRUMP_SUIT else s % 16


def _value_key(cards: Sequence[int], trump: Trump) -> tuple[Any, ...]:
    t = table(trump)
    strongest = max(cards, key=lambda f: (t.esuit[f] == TRUMP_SUIT, _within(f, t)))
    suit = -1 if strongest >= 52 else int(strongest) // 13
    return (
        len(cards),
        card_points(cards),
        t.esuit[strongest] == TRUMP_SUIT,
        _within(strongest, t),
        suit,
    )


def smallest_valid_subhand(cards: Sequence[int] | str, trump: Trump) -> list[Card]:
    """The sub-hand a caught leader keeps: the smallest-valued valid lead inside ``cards``.

    Sub-hands are ordered by (number of cards, points, plain before trump,
    strength within the suit, suit C < D < H < S).  Every single card is a
    valid lead, so the result is always the lowest-valued single card.

    Examples
    --------
    >>> t = Trump("2", "S")
    >>> smallest_valid_subhand("AH AH 5C 3D", t)     # 5C has points, 3D is the lowest
    [3D]
    >>> smallest_valid_subhand("5C 10H KS", t)       # all point cards: fewest points
    [5C]
    """
    cs = as_cards(cards) if isinstance(cards, str) else [card(c) for c in cards]
    if not cs:
        raise InvalidParameterError("a sub-hand of no cards does not exist")
    return [min(cs, key=lambda c: _value_key([c], trump))]


def play_validity(
    cards: Sequence[int],
    hand_before: Mapping[int, int],
    fmt: Format | None,
    trump: Trump,
    other_hands: Sequence[Mapping[int, int]] = (),
    draw_policy: str = "no-protections",
) -> tuple[bool, str]:
    """Whether the true cards of a play are a valid ZPY play; ``(valid, why not)``.

    A lead (``fmt`` is ``None``) must lie in one effective suit, and a throw
    must stand the ZPY throw check against ``other_hands`` (in turn order).
    A follow must obey the suit and format rules for ``hand_before``.

    Examples
    --------
    >>> t = Trump("2", "S")
    >>> play_validity(parse_cards("3C"), count_faces(parse_cards("3C 4H")), lead_format("5H", t), t)
    (False, 'must follow hearts: you hold 1 hearts (4H)')
    >>> play_validity(parse_cards("AH KH"), count_faces(parse_cards("AH KH")), None, t,
    ...               [count_faces(parse_cards("QH QH"))])
    (True, '')
    >>> play_validity(parse_cards("AH QH QH"), count_faces(parse_cards("AH QH QH")), None, t,
    ...               [count_faces(parse_cards("KH KH"))])
    (False, 'the throw can be beaten')
    """
    t = table(trump)
    if fmt is None:
        suits = {t.esuit[c] for c in cards}
        if len(suits) != 1:
            return False, "a lead must lie in one suit"
        lf = lead_format(cards, trump)
        if lf.is_throw and not check_throw(lf, list(other_hands), trump).valid:
            return False, "the throw can be beaten"
        return True, ""
    err = FollowRules(hand_before, fmt, draw_policy).error(count_faces(cards))
    return (err is None), (err or "")


def _strongest_reading(fmt: Format, cards: Sequence[int]) -> tuple[Unit, ...] | None:
    readings = format_readings(fmt, cards)
    if not readings:
        return None
    s = table(fmt.trump).strength
    return max(readings, key=lambda r: sorted((s[u.first] for u in r), reverse=True))


def claim_winner(
    fmt: Format, plays: Sequence[tuple[bool, Sequence[int]]], policy: str = "all"
) -> int:
    """Index of the play that wins a trick of claims.

    ``plays`` are ``(eligible, cards)`` in play order, the lead first; the
    cards are the claims (the revealed cards of a called truthful play).
    Plays that were caught lying (not eligible) never win.  An eligible lead
    is the first winner with the format's units; otherwise the first eligible
    play matching the format is.  A later matching play takes over when it
    beats the current winner (ZPY §5.4).  With no eligible matching play the
    first eligible play wins.

    Examples
    --------
    >>> t = Trump("2", "S")
    >>> f = lead_format("5H", t)
    >>> claim_winner(f, [(True, parse_cards("5H")), (True, parse_cards("KH")), (True, parse_cards("3S"))])
    2
    >>> claim_winner(f, [(False, parse_cards("5H")), (True, parse_cards("3C")), (True, parse_cards("4H"))])
    2
    """
    best: int | None = None
    best_units: tuple[Unit, ...] | None = None
    s = table(fmt.trump).strength
    for i, (ok, cs) in enumerate(plays):
        if not ok:
            continue
        if i == 0:
            best, best_units = 0, fmt.units
            continue
        if best_units is None:
            r = _strongest_reading(fmt, cs)
            if r is not None:
                best, best_units = i, r
            elif best is None:
                best = i
            continue
        win: tuple[Unit, ...] | None = None
        for r in format_readings(fmt, cs):
            if beats(r, best_units, fmt.trump, policy):
                key = sorted((s[u.first] for u in r), reverse=True)
                if win is None or key > sorted((s[u.first] for u in win), reverse=True):
                    win = r
        if win is not None:
            best, best_units = i, win
    if best is None:
        raise InvalidParameterError("a trick needs at least one eligible play")
    return best


def level_delta(attacking: int, dictator: int, decks: int, step_per_deck: int = 20) -> int:
    """δ = ⌊(attacking − dictator) / (step × decks)⌋ + 1.

    Examples
    --------
    >>> level_delta(105, 195, 3)      # bs-zpy.md's example: (105 - 195) / 60 = -1.5
    -1
    >>> level_delta(100, 100, 2), level_delta(60, 100, 2), level_delta(140, 60, 2)
    (1, 0, 3)
    """
    return (attacking - dictator) // (step_per_deck * decks) + 1


@dataclass
class ClaimRecord:
    """One face-down play: its true cards, its claim and how it was settled.

    ``status`` is ``open`` (waiting for calls), ``unchallenged`` (no call),
    ``upheld`` (called, truthful) or ``caught`` (called, a lie).
    """

    seat: int
    cards: list[Card]
    claim: list[Card]
    lead: bool
    valid: bool
    violation: str
    status: str = "open"
    caller: int | None = None
    returned: list[Card] = field(default_factory=list)

    @property
    def lie(self) -> bool:
        """Whether the play is a lie (cards not as claimed, or invalid)."""
        return not self.valid or sorted(self.cards) != sorted(self.claim)

    @property
    def eligible(self) -> bool:
        """Whether the play may win the trick and fill friend slots."""
        return self.status in ("unchallenged", "upheld")


@dataclass
class ClaimTrick:
    """A finished trick of claims."""

    leader: int
    fmt: Format
    plays: list[ClaimRecord]
    winner: int
    points: int
    joins: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class Settlement:
    """How the calls on one play were settled.

    ``loser`` pays ``gainer`` (cards from the winnings pile or points) after
    a call; ``peanut_butter`` is set for an unchallenged lie.
    """

    caller: int | None
    caught: bool
    peanut_butter: bool
    loser: int | None = None
    gainer: int | None = None
    kept: tuple[Card, ...] = ()
    returned: tuple[Card, ...] = ()


class ClaimPhase:
    """The trick phase of BS-ZPY: face-down plays, claims, calls and winnings piles.

    Parameters
    ----------
    trump : Trump
    hands : sequence of card lists, one per seat
    leader : int
        Who leads the first trick (the dictator).
    friends : FriendTracker
        The friend slots (the dictator's team grows as claims fill them).
    kitty : list of Card
        The buried cards.
    decks : int
        Copies of each card (claims may not exceed it).
    draw_policy, throw_policy, kitty_policy : str
        ZPY rule switches (see :mod:`games.shengji.rules.follow`,
        :mod:`games.shengji.rules.tricks`, :mod:`games.shengji.rules.scoring`).

    Examples
    --------
    >>> t = Trump("2", "S")
    >>> hands = [parse_cards(h) for h in ("AH 3C", "KH 4C", "QH 5C", "JH 6C")]
    >>> p = ClaimPhase(t, hands, 0, FriendTracker([FriendSlot(card("KH"), 1)], 0), decks=1)
    >>> _ = p.put(0, parse_cards("3C"), parse_cards("AH"))     # a lie
    >>> p.settle(None).peanut_butter                          # nobody calls
    True
    >>> for s, c in ((1, "KH"), (2, "QH"), (3, "JH")):
    ...     _ = p.put(s, parse_cards(c), parse_cards(c))
    ...     _ = p.settle(None)
    >>> tr = p.finish_trick()             # the claimed AH wins; KH fills the friend slot
    >>> tr.winner, [len(x) for x in p.piles], sorted(p.team), tr.points
    (0, [4, 0, 0, 0], [0, 1], 10)
    """

    def __init__(
        self,
        trump: Trump,
        hands: Sequence[Iterable[int]],
        leader: int,
        friends: FriendTracker,
        kitty: Sequence[int] = (),
        decks: int = 2,
        draw_policy: str = "no-protections",
        throw_policy: str = "all",
        kitty_policy: str = "times",
    ):
        self.trump = trump
        self.n = len(hands)
        self.hands: list[dict[int, int]] = [count_faces(h) for h in hands]
        self.leader = leader
        self.friends = friends
        self.kitty = [card(c) for c in kitty]
        self.decks = decks
        self.draw_policy = draw_policy
        self.throw_policy = throw_policy
        self.kitty_policy = kitty_policy
        self.piles: list[list[Card]] = [[] for _ in range(self.n)]
        self.penalties = [0] * self.n
        self.tricks: list[ClaimTrick] = []
        self.current: list[ClaimRecord] = []
        self.fmt: Format | None = None
        self.kitty_points_awarded = 0
        self.kitty_winner: int | None = None

    # ----------------------------------------------------------------- state
    @property
    def team(self) -> set[int]:
        """The dictator's team as it stands now."""
        return self.friends.team

    def hand(self, seat: int) -> list[Card]:
        """``seat``'s cards, face by face."""
        h = self.hands[seat]
        return [card(f) for f in sorted(h) for _ in range(h[f])]

    def is_over(self) -> bool:
        """Whether every card has been played."""
        return not self.current and all(not h for h in self.hands)

    def is_leading(self) -> bool:
        """Whether the next play leads a trick."""
        return not self.current

    def waiting(self) -> ClaimRecord | None:
        """The play waiting for calls, if any."""
        if self.current and self.current[-1].status == "open":
            return self.current[-1]
        return None

    def to_play(self) -> int | None:
        """The seat to put cards down next (``None`` while calls are open or when over)."""
        if self.is_over() or self.waiting() is not None or len(self.current) == self.n:
            return None
        return (self.leader + len(self.current)) % self.n

    def may_call(self) -> bool:
        """Whether the waiting play may be called (not when everyone before the last was caught)."""
        rec = self.waiting()
        if rec is None:
            return False
        if len(self.current) == self.n and self.n > 1:
            return not all(p.status == "caught" for p in self.current[:-1])
        return True

    # ---------------------------------------------------------------- checks
    def max_lead(self) -> int:
        """The most cards a lead can claim (the copies of the largest effective suit)."""
        t = table(self.trump)
        return max(len(faces) for faces in t.by_suit) * self.decks

    def claim_error(self, seat: int, n_cards: int, claim: Sequence[int]) -> str | None:
        """Why ``claim`` is not a well-formed claim for ``n_cards`` face-down cards, or ``None``."""
        if len(claim) != n_cards:
            return f"a claim names as many cards as were put down ({n_cards}), not {len(claim)}"
        for f, k in count_faces(claim).items():
            if k > self.decks:
                return f"there are only {self.decks} copies of {card(f)}"
        if self.is_leading():
            t = table(self.trump)
            if len({t.esuit[c] for c in claim}) > 1:
                return f"a lead claim must lie in one suit: {format_cards(claim)} mixes suits"
        return None

    def put_error(self, seat: int, cards: Sequence[int], claim: Sequence[int]) -> str | None:
        """Why ``seat`` cannot put ``cards`` down claiming ``claim``, or ``None``."""
        if self.to_play() != seat:
            return "it is not your turn"
        if not cards:
            return "put down at least one card"
        if self.is_leading() and len(cards) > self.max_lead():
            return f"a lead claim lies in one suit: at most {self.max_lead()} cards"
        for f, k in count_faces(cards).items():
            if self.hands[seat].get(f, 0) < k:
                return f"you do not hold {k} × {card(f)}"
        if not self.is_leading():
            assert self.fmt is not None
            if len(cards) != self.fmt.size:
                return f"put down exactly {self.fmt.size} card(s), as many as the lead"
        return self.claim_error(seat, len(cards), claim)

    def validity(self, seat: int, cards: Sequence[int]) -> tuple[bool, str]:
        """Whether ``seat`` putting down ``cards`` now would be a valid ZPY play."""
        hand = self.hands[seat]
        if self.is_leading():
            others = [self.hands[(seat + k) % self.n] for k in range(1, self.n)]
            return play_validity(cards, hand, None, self.trump, others, self.draw_policy)
        return play_validity(cards, hand, self.fmt, self.trump, (), self.draw_policy)

    # ---------------------------------------------------------------- moves
    def put(self, seat: int, cards: Sequence[int], claim: Sequence[int]) -> ClaimRecord:
        """``seat`` puts ``cards`` face down and claims ``claim``; the play waits for calls.

        Raises
        ------
        IllegalActionError
            If it is not ``seat``'s turn, the cards are not held, the count is
            wrong or the claim is ill-formed (nothing changes).
        """
        cs = [card(c) for c in cards]
        cl = sorted(card(c) for c in claim)
        err = self.put_error(seat, cs, cl)
        if err is not None:
            raise IllegalActionError(
                f"P{seat} cannot put down {format_cards(cs)} claiming {format_cards(cl)}: {err}"
            )
        valid, why = self.validity(seat, cs)
        lead = self.is_leading()
        h = self.hands[seat]
        for c in cs:
            h[c] -= 1
            if not h[c]:
                del h[c]
        rec = ClaimRecord(seat, sorted(cs), cl, lead, valid, why)
        if lead:
            self.fmt = lead_format(cl, self.trump)
        self.current.append(rec)
        return rec

    def settle(self, caller: int | None) -> Settlement:
        """Settle the waiting play: no call (``None``) or a call by ``caller``.

        A caught leader with an invalid lead keeps :func:`smallest_valid_subhand`
        and takes the rest back; the trick format becomes the revealed (kept)
        cards whenever the leader is caught.
        """
        rec = self.waiting()
        if rec is None:
            raise IllegalActionError("no play is waiting for calls")
        if caller is None:
            rec.status = "unchallenged"
            return Settlement(None, False, rec.lie)
        if caller == rec.seat or not 0 <= caller < self.n:
            raise IllegalActionError(f"P{caller} cannot call BS on P{rec.seat}'s own play")
        if not self.may_call():
            raise IllegalActionError(
                "every player before the last was caught lying: nobody may call on the last"
            )
        rec.caller = caller
        if not rec.lie:
            rec.status = "upheld"
            return Settlement(caller, False, False, caller, rec.seat)
        rec.status = "caught"
        kept: tuple[Card, ...] = ()
        back: tuple[Card, ...] = ()
        if rec.lead:
            if not rec.valid:
                keep = smallest_valid_subhand(rec.cards, self.trump)
                rest = list(rec.cards)
                for c in keep:
                    rest.remove(c)
                h = self.hands[rec.seat]
                for c in rest:
                    h[c] = h.get(c, 0) + 1
                rec.returned = sorted(rest)
                rec.cards = sorted(keep)
                kept, back = tuple(rec.cards), tuple(rec.returned)
            self.fmt = lead_format(rec.cards, self.trump)
        return Settlement(caller, True, False, rec.seat, caller, kept, back)

    def transfer(self, loser: int, gainer: int, c: int) -> None:
        """Move one card ``c`` from ``loser``'s winnings pile to ``gainer``'s."""
        pile = self.piles[loser]
        if c not in pile:
            raise IllegalActionError(f"P{loser}'s winnings pile holds no {card(c)}")
        pile.remove(c)  # type: ignore[arg-type]
        self.piles[gainer].append(card(c))

    def fine(self, loser: int, points: int) -> None:
        """``loser`` loses ``points`` points (a penalty with an empty winnings pile)."""
        self.penalties[loser] += points

    def trick_complete(self) -> bool:
        """Whether every seat has played to the trick and every call is settled."""
        return len(self.current) == self.n and self.waiting() is None

    def finish_trick(self) -> ClaimTrick:
        """Award the finished trick: winner by claims, every true card to its pile, friends."""
        if not self.trick_complete():
            raise IllegalActionError("the trick is not complete")
        fmt = self.fmt
        assert fmt is not None
        plays = [(p.eligible, p.claim) for p in self.current]
        w = self.current[claim_winner(fmt, plays, self.throw_policy)].seat
        cards = [c for p in self.current for c in p.cards]
        points = card_points(cards)
        self.piles[w].extend(cards)
        joins = self.friends.resolve_trick((p.seat, p.claim) for p in self.current if p.eligible)
        if self.is_over_after_trick() and self.kitty:
            mult = kitty_multiplier(fmt.largest_unit, self.kitty_policy)
            self.kitty_points_awarded = card_points(self.kitty) * mult
            self.kitty_winner = w
        tr = ClaimTrick(self.leader, fmt, self.current, w, points, joins)
        self.tricks.append(tr)
        self.current = []
        self.fmt = None
        self.leader = w
        return tr

    def is_over_after_trick(self) -> bool:
        """Whether the hands are empty (the trick in hand is the last)."""
        return all(not h for h in self.hands)

    # ---------------------------------------------------------------- score
    def seat_scores(self) -> list[int]:
        """Each seat's tally: pile points, the kitty for the last trick's winner, minus penalties."""
        out = [card_points(p) - pen for p, pen in zip(self.piles, self.penalties, strict=True)]
        if self.kitty_winner is not None:
            out[self.kitty_winner] += self.kitty_points_awarded
        return out

    def side_scores(self) -> tuple[int, int]:
        """``(dictator side, attacking side)`` scores by the current teams."""
        sc = self.seat_scores()
        team = self.team
        d = sum(v for s, v in enumerate(sc) if s in team)
        return d, sum(sc) - d

    def all_cards(self) -> list[Card]:
        """Every card of the round: hands, the trick, the winnings piles and the kitty."""
        out = [c for s in range(self.n) for c in self.hand(s)]
        out += [c for p in self.current for c in p.cards]
        out += [c for p in self.piles for c in p]
        return out + list(self.kitty)


# ===================================================================== engine
@dataclass(frozen=True)
class BSZPYParams(ShengjiParams):
    """Parameters of BS-ZPY: the ZPY parameters (variant ``zpy``) plus the penalties.

    ``penalty_cards`` random cards leave a winnings pile after a lost call
    (default 2); ``penalty_points`` are lost instead when the pile is empty
    (default 5).  ``players`` defaults to 5 (2 decks).
    """

    variant: str = "zpy"
    players: int | None = 5
    penalty_cards: int = 2
    penalty_points: int = 5


class BSZPYGame(ShengjiGame):
    """BS-ZPY with fixed parameters (see the module docstring)."""

    name = "bs-zpy"
    params_type = BSZPYParams

    def __init__(self, params: BSZPYParams | None = None, **kwargs: Any):
        if kwargs.get("variant") is None:
            kwargs.pop("variant", None)
        params = self._with(params, kwargs)
        if params.variant != "zpy":
            raise InvalidParameterError(
                f"bs-zpy is played as ZPY with friends; variant {params.variant!r} is not available"
            )
        if params.penalty_cards < 0 or params.penalty_points < 0:
            raise InvalidParameterError("penalty_cards and penalty_points must be >= 0")
        ShengjiGame.__init__(self, params)
        self.rules: Rules = resolve_rules(params)

    def new_initial_state(self) -> BSZPYState:
        return BSZPYState(self)

    def position(
        self,
        hands: Sequence[str | Iterable[int]],
        trump: str | Trump,
        landlord: int,
        friends: Sequence[str | FriendSlot] = (),
        kitty: str | Iterable[int] = (),
        leader: int | None = None,
    ) -> BSZPYState:
        """A state at the start of the tricks from a hand-made position.

        Parameters
        ----------
        hands : one card list (or text) per seat, all of the same size
        trump : ``"2S"`` (rank then suit letter), ``"2NT"``, or a :class:`Trump`
        landlord : the dictator
        friends : friend slots (``"AH"``, ``"2:AH"``)
        kitty : the buried cards (seen by the dictator only)
        leader : who leads first (default: the dictator)

        Every seat observes its own hand, the trump, the dictator and the
        friend slots; the dictator also sees the kitty.  The position need not
        use every card of the decks (hand-made endgames).

        Raises
        ------
        InvalidParameterError
            If the seats, hands, friends or copies do not fit the game.
        """
        return BSZPYState(self, _position=(hands, trump, landlord, friends, kitty, leader))


def _parse_trump(trump: str | Trump) -> Trump:
    if isinstance(trump, Trump):
        return trump
    text = trump.strip().upper()
    if text.endswith("NT"):
        return Trump(text[:-2] or "NT", None)
    return Trump(text[:-1], text[-1])


class BSZPYState(ShengjiState):
    """A state of a BS-ZPY match (see the module docstring for the rules)."""

    game: BSZPYGame

    def __init__(self, game: BSZPYGame, _position: tuple[Any, ...] | None = None):
        super().__init__(game)
        if _position is not None:
            self._setup_position(*_position)

    # ------------------------------------------------------------ round setup
    def _start_round(self) -> None:
        super()._start_round()
        self.table: ClaimPhase | None = None
        self.down: dict[int, int] = {}
        self.sealed = False
        self.claiming: dict[int, int] = {}
        self.to_decide: list[int] = []
        self.votes: dict[int, bool] = {}
        self.steal: tuple[int, int, int] | None = None  # loser, gainer, cards left to move

    def _setup_position(
        self,
        hands: Sequence[str | Iterable[int]],
        trump: str | Trump,
        landlord: int,
        friends: Sequence[str | FriendSlot],
        kitty: str | Iterable[int],
        leader: int | None,
    ) -> None:
        r = self.rules
        if len(hands) != self.n:
            raise InvalidParameterError(f"give one hand per seat ({self.n}), not {len(hands)}")
        cs = [parse_cards(h) if isinstance(h, str) else [card(c) for c in h] for h in hands]
        if len({len(h) for h in cs}) != 1 or not cs[0]:
            raise InvalidParameterError("every hand must hold the same number (>= 1) of cards")
        if not 0 <= landlord < self.n:
            raise InvalidParameterError(f"the dictator must be a seat 0..{self.n - 1}")
        kit = parse_cards(kitty) if isinstance(kitty, str) else [card(c) for c in kitty]
        every = count_faces([c for h in cs for c in h] + kit)
        for f, k in every.items():
            if k > r.decks:
                raise InvalidParameterError(
                    f"{card(f)} appears {k} times but there are only {r.decks} decks"
                )
        slots = [s if isinstance(s, FriendSlot) else parse_friend(s) for s in friends]
        tr = _parse_trump(trump)
        self.trump = tr
        self.landlord = self.round_landlord = landlord
        self.hands = [count_faces(h) for h in cs]
        self.buried = list(kit)
        self.slots = slots
        self.deck = [0] * NUM_FACES
        self.deck_left = 0
        every_card = [c for f in range(NUM_FACES) for c in [card(f)] * r.decks]
        for c in [c for h in cs for c in h] + kit:
            every_card.remove(c)
        for s in range(self.n):
            self._observe("hand", s, audience=(s,), cards=tuple(sorted(cs[s])))
        self._observe("setup", None, size=len(cs[0]), kitty=len(kit), out=tuple(every_card))
        self._observe(
            "trump", landlord, rank=rank_name(tr.rank), suit=_suit_word(tr), size=len(cs[0])
        )
        if kit:
            self._observe("kitty_known", landlord, audience=(landlord,), cards=tuple(sorted(kit)))
        self._observe("friends", landlord, slots=tuple((s.card, s.ordinal) for s in slots))
        self._start_play(leader if leader is not None else landlord)

    def _start_play(self, leader: int | None = None) -> None:  # type: ignore[override]
        r = self.rules
        ll = self.round_landlord
        assert ll is not None and self.trump is not None
        self.table = ClaimPhase(
            self.trump,
            [[card(f) for f in sorted(h) for _ in range(h[f])] for h in self.hands],
            leader=ll if leader is None else leader,
            friends=FriendTracker(self.slots, ll, r.double_join),
            kitty=self.buried,
            decks=r.decks,
            draw_policy=r.draw_policy,
            throw_policy=r.throw_policy,
            kitty_policy=r.kitty_policy,
        )
        self.phase = "play"

    def _card_history(self) -> Any:
        """This round for :mod:`games.epistemic` (see
        :func:`games.epistemic.bs_zpy.bs_zpy_card_history`)."""
        from games.epistemic.bs_zpy import bs_zpy_card_history

        return bs_zpy_card_history(self)

    # --------------------------------------------------------------- helpers
    def hand(self, seat: int) -> list[Card]:
        """``seat``'s current cards (cards being put down are still counted)."""
        if self.table is not None:
            return self.table.hand(seat)
        return super().hand(seat)

    def landlord_team(self) -> set[int]:
        """The dictator's team as it stands now (by successful claims)."""
        if self.table is not None:
            return set(self.table.team)
        return super().landlord_team()

    def winners(self) -> list[int]:
        """Seats on the winning side of the last finished round (empty before any)."""
        if not self.results:
            return []
        res = self.results[-1]
        team = set(res["team"])
        if res["delta"] < 0:
            return sorted(team)
        return [s for s in range(self.n) if s not in team]

    @property
    def penalty_cards(self) -> int:
        return self.game.params.penalty_cards

    @property
    def penalty_points(self) -> int:
        return self.game.params.penalty_points

    # -------------------------------------------------------------- OpenSpiel
    def _current_player(self) -> int:
        ph = self.phase
        if ph == "steal":
            return CHANCE
        if ph == "call":
            return self.to_decide[0]
        if ph == "play":
            assert self.table is not None
            seat = self.table.to_play()
            assert seat is not None
            return seat
        return super()._current_player()

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == "steal":
            assert self.table is not None and self.steal is not None
            pile = self.table.piles[self.steal[0]]
            counts = count_faces(pile)
            return [(_STEAL + f, k / len(pile)) for f, k in sorted(counts.items())]
        return super()._chance_outcomes()

    def _legal_actions(self, player: int) -> list[int]:
        ph = self.phase
        if ph == "call":
            return [PASS, CALL]
        if ph == "play":
            return self._play_actions(player)
        return super()._legal_actions(player)

    def _play_actions(self, seat: int) -> list[int]:
        t = self.table
        assert t is not None
        if not self.sealed:
            hand = t.hands[seat]
            n_down = sum(self.down.values())
            if t.is_leading():
                out = []
                if n_down < t.max_lead():
                    out = [_SELECT + f for f, k in hand.items() if k > self.down.get(f, 0)]
                return out + ([COMMIT] if n_down else [])
            assert t.fmt is not None
            if n_down == t.fmt.size:
                return [COMMIT]
            return [_SELECT + f for f, k in hand.items() if k > self.down.get(f, 0)]
        out = []
        if (
            not self.claiming
            and t.claim_error(seat, sum(self.down.values()), _expand(self.down)) is None
        ):
            out.append(CLAIM_TRUE)
        for f in range(NUM_FACES):
            if self._claim_ok(f):
                out.append(_CLAIM + f)
        return out

    def _claim_ok(self, f: int) -> bool:
        t = self.table
        assert t is not None and self.trump is not None
        d = self.rules.decks
        if self.claiming.get(f, 0) >= d:
            return False
        left = sum(self.down.values()) - sum(self.claiming.values())
        if left <= 0:
            return False
        if t.is_leading():
            tt = table(self.trump)
            if self.claiming and tt.esuit[next(iter(self.claiming))] != tt.esuit[f]:
                return False
            room = sum(d - self.claiming.get(g, 0) for g in tt.by_suit[tt.esuit[f]])
            if room < left:
                return False
        return True

    def _is_legal(self, player: int, action: int) -> bool:
        ph = self.phase
        if ph == "call":
            return action in (PASS, CALL)
        if ph == "play":
            t = self.table
            assert t is not None
            if not self.sealed:
                if action == COMMIT:
                    n_down = sum(self.down.values())
                    if t.is_leading():
                        return n_down > 0
                    assert t.fmt is not None
                    return n_down == t.fmt.size
                f = action - _SELECT
                if not 0 <= f < NUM_FACES or t.hands[player].get(f, 0) <= self.down.get(f, 0):
                    return False
                if not t.is_leading():
                    assert t.fmt is not None
                    return sum(self.down.values()) < t.fmt.size
                return sum(self.down.values()) < t.max_lead()
            if action == CLAIM_TRUE:
                return not self.claiming and (
                    t.claim_error(player, sum(self.down.values()), _expand(self.down)) is None
                )
            f = action - _CLAIM
            return 0 <= f < NUM_FACES and self._claim_ok(f)
        return super()._is_legal(player, action)

    def _illegal_reason(self, player: int, action: int) -> str:
        ph = self.phase
        if ph == "call":
            return "decide whether to call BS: pass or call"
        if ph != "play":
            return super()._illegal_reason(player, action)
        t = self.table
        assert t is not None
        try:
            kind, payload = decode_bs_action(action)
        except IllegalActionError as exc:
            return str(exc)
        if not self.sealed:
            if kind == "commit":
                return "put down the right number of cards first"
            if kind != "select":
                return "first put cards face down (select, then commit), then claim"
            held = t.hands[player].get(payload, 0)
            if held <= self.down.get(payload, 0):
                return (
                    f"you hold {held} × {payload}, all already put down"
                    if held
                    else (f"you do not hold {payload}")
                )
            if t.is_leading():
                return f"a lead claim lies in one suit: at most {t.max_lead()} cards"
            return "you have put down as many cards as the lead"
        if kind == "claim_true":
            return "a lead claim must lie in one suit (your cards mix suits)"
        if kind != "claim":
            return "claim what your face-down cards are (claim cards, or claim_true)"
        if self.claiming.get(payload, 0) >= self.rules.decks:
            return f"there are only {self.rules.decks} copies of {payload}"
        if sum(self.claiming.values()) >= sum(self.down.values()):
            return "the claim already names every card put down"
        return "a lead claim must lie in one suit"

    def _action_to_string(self, player: int, action: int) -> str:
        kind, payload = decode_bs_action(action)
        if kind == "call":
            return "call BS"
        if kind == "claim_true":
            return "claim the truth"
        if kind == "claim":
            return f"claim {payload}"
        if kind == "steal":
            return f"steal {payload}"
        if self.phase == "call" and kind == "pass":
            return "no call"
        if self.phase == "play" and kind == "commit":
            return "put down"
        if kind == "select" and self.phase == "play":
            return f"down {payload}"
        return super()._action_to_string(player, action)

    # ---------------------------------------------------------------- moves
    def _apply_action(self, action: int) -> None:
        ph = self.phase
        if ph == "play":
            self._play_step(self._current_player(), action)
        elif ph == "call":
            seat = self.to_decide.pop(0)
            self.votes[seat] = action == CALL
            self._observe("decide", seat, audience=(seat,), call=action == CALL)
            if not self.to_decide:
                self._resolve_calls()
        elif ph == "steal":
            self._steal_card(action - _STEAL)
        else:
            super()._apply_action(action)

    def _play_step(self, seat: int, action: int) -> None:
        if not self.sealed:
            if action == COMMIT:
                self.sealed = True
                self._observe("down", seat, audience=(seat,), cards=tuple(_expand(self.down)))
                return
            f = action - _SELECT
            self.down[f] = self.down.get(f, 0) + 1
            self._observe("select", seat, audience=(seat,), card=card(f))
            return
        if action == CLAIM_TRUE:
            self.claiming = dict(self.down)
        else:
            f = action - _CLAIM
            self.claiming[f] = self.claiming.get(f, 0) + 1
            self._observe("claiming", seat, audience=(seat,), card=card(f))
            if sum(self.claiming.values()) < sum(self.down.values()):
                return
        self._submit(seat)

    def _submit(self, seat: int) -> None:
        t = self.table
        assert t is not None
        cards, claim = _expand(self.down), _expand(self.claiming)
        lead = t.is_leading()
        t.put(seat, cards, claim)
        self.down, self.claiming, self.sealed = {}, {}, False
        self._observe(
            "claim",
            seat,
            audience=(seat,),
            hidden={"cards": tuple(cards)},
            claim=tuple(claim),
            count=len(cards),
            lead=lead,
        )
        if t.may_call():
            self.to_decide = [(seat + k) % self.n for k in range(1, self.n)]
            self.votes = {}
            self.phase = "call"
        else:
            self._observe("nocall", None, allowed=False)
            self._settle(None)

    def _resolve_calls(self) -> None:
        t = self.table
        assert t is not None
        rec = t.waiting()
        assert rec is not None
        order = [(rec.seat + k) % self.n for k in range(1, self.n)]
        callers = tuple(s for s in order if self.votes.get(s))
        self.votes = {}
        if callers:
            self._observe("call", None, callers=callers, caller=callers[0])
            self._settle(callers[0])
        else:
            self._observe("nocall", None, allowed=True)
            self._settle(None)

    def _settle(self, caller: int | None) -> None:
        t = self.table
        assert t is not None
        rec = t.waiting()
        assert rec is not None
        seat, shown = rec.seat, tuple(rec.cards)
        st = t.settle(caller)
        if caller is None:
            self._observe("peanut_butter" if st.peanut_butter else "silent", seat)
            self._after_settle()
            return
        self._observe(
            "reveal",
            seat,
            cards=shown,
            truthful=not st.caught,
            valid=rec.valid,
            violation=rec.violation,
            kept=st.kept,
            returned=st.returned,
        )
        assert st.loser is not None and st.gainer is not None
        self._penalise(st.loser, st.gainer)

    def _penalise(self, loser: int, gainer: int) -> None:
        t = self.table
        assert t is not None
        pile = t.piles[loser]
        if not pile or self.penalty_cards == 0:
            t.fine(loser, self.penalty_points)
            self._observe("penalty", loser, to=gainer, points=self.penalty_points, cards=0)
            self._after_settle()
            return
        k = min(self.penalty_cards, len(pile))
        self._observe("penalty", loser, to=gainer, points=0, cards=k)
        self.steal = (loser, gainer, k)
        self.phase = "steal"

    def _steal_card(self, f: int) -> None:
        t = self.table
        assert t is not None and self.steal is not None
        loser, gainer, k = self.steal
        t.transfer(loser, gainer, f)
        self._observe("steal", loser, to=gainer)
        if k > 1:
            self.steal = (loser, gainer, k - 1)
            return
        self.steal = None
        self._after_settle()

    def _after_settle(self) -> None:
        t = self.table
        assert t is not None
        self.phase = "play"
        if not t.trick_complete():
            return
        tr = t.finish_trick()
        self._observe("trick", tr.winner, cards=sum(len(p.cards) for p in tr.plays))
        for j in tr.joins:
            self._observe("join", j.seat, slot=j.slot, already=j.already_on_team)
        if t.is_over():
            self._end_round()

    def _end_round(self) -> None:
        r = self.rules
        t = self.table
        ll = self.round_landlord
        assert t is not None and ll is not None and self.trump is not None
        team = set(t.team)
        dictator, attacking = t.side_scores()
        delta = level_delta(attacking, dictator, r.decks, r.step_per_deck)
        ll_rank = self.ranks[ll]
        before = list(self.ranks)
        for s in range(self.n):
            defending = s in team
            steps = (
                -delta
                if (defending and delta < 0)
                else (delta if not defending and delta > 0 else 0)
            )
            new, wraps, _ = advance_rank(
                self.ranks[s], steps, defending, ll_rank, r.advancement, r.max_rank
            )
            self.ranks[s] = new
            self.metalevels[s] += wraps
        landlord_won = delta < 0
        nxt = next_landlord(ll, team, landlord_won, self.n)
        if delta > 0:
            result = f"attackers +{delta}"
        elif delta < 0:
            result = f"dictator's team +{-delta}"
        else:
            result = "attackers win, +0"
        self._observe(
            "round_end",
            None,
            kitty=tuple(sorted(t.kitty)),
            kitty_points=t.kitty_points_awarded,
            piles=tuple(card_points(p) for p in t.piles),
            penalties=tuple(t.penalties),
            team=tuple(sorted(team)),
            dictator_score=dictator,
            attacking_score=attacking,
            delta=delta,
            result=result,
            ranks=tuple(rank_name(x) for x in self.ranks),
            next_landlord=nxt,
        )
        self.results.append(
            {
                "round": self.round_no,
                "landlord": ll,
                "trump": str(self.trump),
                "team": sorted(team),
                "dictator_score": dictator,
                "attacking_score": attacking,
                "delta": delta,
                "result": result,
                "ranks_before": [rank_name(x) for x in before],
                "ranks_after": [rank_name(x) for x in self.ranks],
                "next_landlord": nxt,
            }
        )
        self.landlord = nxt
        self.round_no += 1
        if self.round_no >= r.rounds:
            self.phase = "over"
        else:
            self._start_round()

    # ------------------------------------------------------ whole-move helpers
    def play_claim(
        self, seat: int, cards: Sequence[int] | str, claim: Sequence[int] | str | None = None
    ) -> None:
        """Put ``cards`` down and claim ``claim`` (default: the truth); nothing changes if illegal.

        Raises
        ------
        IllegalActionError
            Naming the reason, e.g. ``you do not hold 1 × AS``.
        """
        cs = parse_cards(cards) if isinstance(cards, str) else [card(c) for c in cards]
        if claim is None:
            cl = list(cs)
        else:
            cl = parse_cards(claim) if isinstance(claim, str) else [card(c) for c in claim]
        if self.phase != "play" or self.table is None:
            raise IllegalActionError(f"P{seat} cannot play now: no trick is being played")
        if self.down or self.sealed:
            raise IllegalActionError(f"P{seat} cannot play now: a play is already being built")
        err = self.table.put_error(seat, cs, sorted(cl))
        if err is not None:
            raise IllegalActionError(
                f"P{seat} cannot put down {format_cards(cs)} claiming {format_cards(cl)}: {err}"
            )
        for c in cs:
            self.apply_action(select_action(c))
        self.apply_action(COMMIT)
        if claim is None or sorted(cl) == sorted(cs):
            self.apply_action(CLAIM_TRUE)
        else:
            for c in cl:
                self.apply_action(claim_action(c))

    def decide_calls(self, calls: Mapping[int, bool] | Iterable[int]) -> None:
        """Apply every open call decision: seats in ``calls`` (or mapped to True) call BS."""
        want = {s for s, v in calls.items() if v} if isinstance(calls, Mapping) else set(calls)
        if self.phase != "call":
            raise IllegalActionError("no play is waiting for calls")
        bad = want - set(self.to_decide)
        if bad:
            raise IllegalActionError(
                f"P{min(bad)} cannot call BS now (deciding: {', '.join(f'P{s}' for s in self.to_decide)})"
            )
        while self.phase == "call":
            self.apply_action(CALL if self.to_decide[0] in want else PASS)

    def waiting_claim(self) -> ClaimRecord | None:
        """The play waiting for calls (the true cards: for the engine and tests, not for bots)."""
        return self.table.waiting() if self.table is not None else None


def _expand(counts: Mapping[int, int]) -> list[Card]:
    return [card(f) for f in sorted(counts) for _ in range(counts[f])]


def _suit_word(trump: Trump) -> str:
    return "none" if trump.suit is None else SUIT_LABELS[trump.suit]


# ================================================================== knowledge
class Constraint(NamedTuple):
    """A bound on the copies of ``faces`` in ``loc``: ``at_least`` / ``at_most`` ``k`` in total.

    ``caps`` (optional) are per-face upper bounds equivalent to the total
    bound given the lower bounds already in force; the constraint is then
    applied as cell bounds (no joint constraint for the deal engine).
    """

    op: str
    loc: str
    faces: tuple[int, ...]
    k: int
    caps: tuple[int, ...] | None = None


@dataclass
class SeenPlay:
    """One play of the current trick as one seat saw it.

    ``cards`` are the true cards when the seat knows them (its own play, a
    revealed play, or a claim that turned out true); ``lie`` is known once
    the play is settled.
    """

    seat: int
    claim: tuple[Card, ...]
    lead: bool
    cards: tuple[Card, ...] | None = None
    status: str = "open"
    lie: bool | None = None
    callers: tuple[int, ...] = ()

    @property
    def eligible(self) -> bool:
        """Whether the play may still win the trick (not caught lying)."""
        return self.status != "caught"

    @property
    def shown(self) -> tuple[Card, ...]:
        """What the play counts as for winning: the claim, or the revealed cards."""
        return self.claim if self.status != "caught" or self.cards is None else self.cards


@dataclass(frozen=True)
class ClaimOdds:
    """What one seat knows about one claim being true.

    ``probability`` is the probability (for the observing seat, over the deals
    it considers possible) that the claimer held the claimed cards and that
    they make a valid play, i.e. that the claim *can* be true; for a claimer
    who tells the truth whenever it can this is the probability that the
    claim is true.  Which cards went face down is the claimer's choice, so
    no seat but the claimer ever knows that a face-down claim *is* true.
    ``knows_false``: the claim is false in every deal the seat considers
    possible.  ``exact`` is False when a part of the validity rule (tractor
    shapes) was left out, which only widens the possible deals.
    """

    claimer: int
    claim: tuple[Card, ...]
    probability: float
    knows_false: bool
    exact: bool


class SeatKnowledge(SeatDeal):
    """What one BS-ZPY seat knows, built only from that seat's observations.

    The deal knowledge is a :class:`games.deal.DealKnowledge` over the
    locations ``P0`` … (the hands), ``kitty``, ``played`` (every card that left
    the hands: the tricks and the winnings piles) and ``down`` (a face-down
    play being settled).  Events update it with the right audience:

    * a claim is *not* a fact: nothing changes until the play is settled;
    * a call reveals the cards (``show`` then ``move`` to ``played``), with the
      validity facts of the revealed play (see below); a caught leader's
      returned cards stay in its hand, and everyone has seen them;
    * no call and silence: the claim was true, so the claimed cards move face
      up to ``played`` and the validity facts of the claimed play hold;
    * peanut butter: the claim was false.  The cards go down unseen
      (``move_hidden``); when "false" is a single-cell fact (a claim of one
      card face that makes a valid play whenever the cards are as claimed) it
      is announced exactly (fewer copies of that face), otherwise it is left
      out, which only widens the possible deals (:attr:`relaxations`).

    Validity facts: a follow with fewer led-suit cards than the format shows a
    void in the led suit; a follow that fits only a later shape of the format's
    decomposition shows that the hand could not fit the earlier tuple shapes
    (at most w−1 copies of each led-suit face); a throw that stands shows that
    nobody can beat its tuple units.  Tractor shapes are left out (sound).

    Parameters
    ----------
    rules : Rules
        The game's resolved rules (``game.rules``).
    seat : int
    deal : bool
        Keep the exact deal knowledge (default); without it only the seat's
        hand, the trick, the teams and the public counts are followed.

    Examples
    --------
    >>> from games.base import load_game
    >>> g = load_game("bs-zpy", players=4)
    >>> st = g.position(["AS AS 3H", "KS 4H 5H", "QS 6H 7H", "JS 8H 9H"], trump="2D",
    ...                 landlord=0, friends=["AH"])
    >>> st.play_claim(0, "3H")                   # P0 leads 3H, truthfully
    >>> st.decide_calls({})                      # no call, and no peanut butter
    >>> st.play_claim(1, "KS", claim="AS")       # P1 claims an AS; P0 holds both
    >>> seat_knowledge(st, 0).knows_false()
    True
    >>> round(seat_knowledge(st, 2).claim_odds().probability, 4)   # 4 of C(8, 3) hands
    0.0714
    """

    def __init__(self, rules: Any, seat: int, *, deal: bool = True):
        super().__init__(rules, seat)
        self.use_deal = deal
        self._reset_round()

    def _reset_round(self) -> None:
        n = self.n
        self.mine: dict[int, int] = {}
        self.sizes = [0] * n
        self.plays: list[SeenPlay] = []
        self.trick_fmt: Format | None = None
        self.slots: list[FriendSlot] = []
        self.tracker: FriendTracker | None = None
        self.pile_sizes = [0] * n
        self.penalties = [0] * n
        self.lies: list[tuple[int, tuple[Card, ...]]] = []
        self.known_out = [0] * NUM_FACES
        self.public_out = [0] * NUM_FACES
        self.lies_by = [0] * n
        self.settled_by = [0] * n
        self.relaxations = 0
        self.fallbacks = 0
        self.tricks_done = 0
        self.last_winner: int | None = None

    def _start(self) -> None:
        if not self.use_deal:
            return
        super()._start()
        self.knowledge.add_location("down")

    # ---------------------------------------------------------------- updates
    def update(self, obs: Observation) -> None:
        """Take in one observation of this seat."""
        k, a = obs.kind, obs.actor
        if k in ("redeal", "round_end"):
            keep = self.use_deal
            SeatDeal.__init__(self, self.rules, self.seat)
            self.use_deal = keep
            self._reset_round()
            return
        handler = getattr(self, f"_on_{k}", None)
        if handler is not None:
            handler(obs, a)
        elif k in ("bid", "trump", "kitty_reveal", "dealt"):
            if k != "kitty_reveal" or self.use_deal:
                super().update(obs)
            if k == "dealt":
                self.sizes = [self.rules.hand_size] * self.n
            elif k == "trump" and obs.get("size") is not None:
                self.sizes = [obs["size"]] * self.n

    def _names(self, cards: Any) -> list[str]:
        return [str(card(c)) for c in cards]

    def _on_draw(self, obs: Observation, a: int | None) -> None:
        c = obs.get("card")
        if c is not None:
            self.mine[c] = self.mine.get(c, 0) + 1
        super().update(obs)

    def _on_kitty(self, obs: Observation, a: int | None) -> None:
        cs = obs.get("cards")
        if cs is not None:
            for c in cs:
                self.mine[c] = self.mine.get(c, 0) + 1
        if self.use_deal:
            super().update(obs)

    def _on_bury(self, obs: Observation, a: int | None) -> None:
        cs = obs.get("cards")
        if cs is not None:
            for c in cs:
                self._drop(self.mine, c)
                self.known_out[c] += 1
        if self.use_deal:
            super().update(obs)

    def _on_hand(self, obs: Observation, a: int | None) -> None:
        self.hand = list(obs["cards"])
        self.mine = count_faces(obs["cards"])

    def _on_setup(self, obs: Observation, a: int | None) -> None:
        size, kit, out = obs["size"], obs["kitty"], list(obs["out"])
        self.sizes = [size] * self.n
        for c in out:
            self.known_out[c] += 1
            self.public_out[c] += 1
        if not self.use_deal:
            return
        from games.deal import DealKnowledge
        from games.shengji.knowledge import shengji_deck

        sizes = {**{f"P{s}": size for s in range(self.n)}, "kitty": kit, "played": len(out)}
        sizes["down"] = 0
        kn = DealKnowledge(shengji_deck(self.rules.decks), sizes, name=f"P{self.seat}")
        kn.reveal(f"P{self.seat}", self._names(self.hand))
        kn.reveal("played", self._names(out))
        self.knowledge = kn

    def _on_kitty_known(self, obs: Observation, a: int | None) -> None:
        for c in obs["cards"]:
            self.known_out[c] += 1
        if self.use_deal:
            self.knowledge.reveal("kitty", self._names(obs["cards"]))

    def _on_friends(self, obs: Observation, a: int | None) -> None:
        self.slots = [FriendSlot(card(c), o) for c, o in obs["slots"]]
        self.landlord = a
        assert a is not None
        self.tracker = FriendTracker(self.slots, a, self.rules.double_join)

    def _on_claim(self, obs: Observation, a: int | None) -> None:
        assert a is not None and self.trump is not None
        sp = SeenPlay(a, tuple(obs["claim"]), bool(obs["lead"]))
        self.sizes[a] -= obs["count"]
        if a == self.seat:
            sp.cards = tuple(obs["cards"])
            for c in sp.cards:
                self._drop(self.mine, c)
        if sp.lead:
            self.plays = [sp]
            self.trick_fmt = lead_format(sp.claim, self.trump)
        else:
            self.plays.append(sp)

    def _on_call(self, obs: Observation, a: int | None) -> None:
        if self.plays:
            self.plays[-1].callers = tuple(obs["callers"])

    def _on_silent(self, obs: Observation, a: int | None) -> None:
        sp = self.plays[-1]
        sp.status, sp.lie = "unchallenged", False
        self.settled_by[sp.seat] += 1
        sp.cards = sp.claim
        self._moved(sp, sp.claim)
        if a != self.seat:
            self._facts(sp.seat, sp.claim, sp.lead, True)

    def _on_peanut_butter(self, obs: Observation, a: int | None) -> None:
        sp = self.plays[-1]
        sp.status, sp.lie = "unchallenged", True
        assert a is not None
        self.lies.append((a, sp.claim))
        self.lies_by[a] += 1
        self.settled_by[a] += 1
        if a == self.seat:
            assert sp.cards is not None
            self._moved(sp, sp.cards, public=False)
            return
        if not self.use_deal:
            return
        kn = self.knowledge
        kn.move_hidden(f"P{a}", "down", len(sp.claim))
        cons, exact = self._truth(sp.seat, sp.claim, sp.lead, pre=False)
        faces = {f for c in cons if c.loc == "down" for f in c.faces}
        single = exact and len(faces) == 1 and all(c.loc == "down" for c in cons)
        if single:
            kn.at_most("down", self._names(cons[0].faces), cons[0].k - 1)
        else:
            self.relaxations += 1
        kn.move_all("down", "played")

    def _on_reveal(self, obs: Observation, a: int | None) -> None:
        assert a is not None and self.trump is not None
        sp = self.plays[-1]
        shown = tuple(obs["cards"])
        kept = tuple(obs["kept"]) or shown
        returned = tuple(obs["returned"])
        truthful = bool(obs["truthful"])
        sp.status = "upheld" if truthful else "caught"
        sp.lie = not truthful
        self.settled_by[a] += 1
        self.lies_by[a] += int(not truthful)
        sp.cards = kept
        self.sizes[a] += len(returned)
        if a == self.seat:
            for c in returned:
                self.mine[c] = self.mine.get(c, 0) + 1
        elif self.use_deal:
            self.knowledge.show(f"P{a}", self._names(shown))
        self._moved(sp, kept)
        if sp.lead and not truthful:
            self.trick_fmt = lead_format(kept, self.trump)
        if a == self.seat:
            return
        if obs["valid"]:
            self._facts(a, shown, sp.lead, True)
        elif not sp.lead and str(obs["violation"]).startswith("must follow"):
            assert self.trick_fmt is not None
            t = table(self.trump)
            if self.use_deal:
                self.knowledge.at_least(f"P{a}", self._names(t.by_suit[self.trick_fmt.suit]), 1)
        elif self.use_deal:
            self.relaxations += 1

    def _on_penalty(self, obs: Observation, a: int | None) -> None:
        assert a is not None
        self.penalties[a] += obs["points"]

    def _on_steal(self, obs: Observation, a: int | None) -> None:
        assert a is not None
        self.pile_sizes[a] -= 1
        self.pile_sizes[obs["to"]] += 1

    def _on_trick(self, obs: Observation, a: int | None) -> None:
        assert a is not None
        self.pile_sizes[a] += obs["cards"]
        if self.tracker is not None:
            self.tracker.resolve_trick((p.seat, p.claim) for p in self.plays if p.eligible)
        self.last_winner = a
        self.plays = []
        self.trick_fmt = None
        self.tricks_done += 1

    def _moved(self, sp: SeenPlay, cards: Sequence[int], public: bool = True) -> None:
        for c in cards:
            self.known_out[c] += 1
            if public:
                self.public_out[c] += 1
        if self.use_deal:
            self.knowledge.move(self._names(cards), f"P{sp.seat}", "played")

    def _facts(self, seat: int, cards: Sequence[int], lead: bool, post: bool) -> None:
        """Add the validity facts of a valid play of ``cards`` by ``seat`` (after the move)."""
        if not self.use_deal:
            return
        cons, exact = self._validity(seat, cards, lead, pre=not post)
        if not exact:
            self.relaxations += 1
        for c in cons:
            self._apply(self.knowledge, c)

    @staticmethod
    def _drop(d: dict[int, int], c: int) -> None:
        n = d.get(c, 0) - 1
        if n > 0:
            d[c] = n
        else:
            d.pop(c, None)

    # ------------------------------------------------------------ constraints
    def _validity(
        self, seat: int, cards: Sequence[int], lead: bool, pre: bool
    ) -> tuple[list[Constraint], bool]:
        """Cell constraints of "``cards`` by ``seat`` are a valid play" and whether they are exact.

        ``pre``: on the hand before the cards left it (else after).
        """
        assert self.trump is not None
        t = table(self.trump)
        counts = count_faces(cards)
        out: list[Constraint] = []
        exact = True
        if lead:
            lf = lead_format(cards, self.trump)
            if not lf.is_throw:
                return out, True
            for k in range(1, self.n):
                j = f"P{(seat + k) % self.n}"
                for u in lf.units:
                    if u.is_tractor:
                        exact = False
                        continue
                    s0 = t.strength[u.first]
                    stronger = tuple(f for f in t.by_suit[t.esuit[u.first]] if t.strength[f] > s0)
                    if not stronger:
                        continue
                    if u.width == 1:
                        out.append(Constraint("at_most", j, stronger, 0))
                    else:
                        out.extend(Constraint("at_most", j, (f,), u.width - 1) for f in stronger)
            return out, exact
        fmt = self.trick_fmt
        assert fmt is not None
        loc = f"P{seat}"
        suit_faces = t.by_suit[fmt.suit]
        m = sum(counts.get(f, 0) for f in suit_faces)
        if m < fmt.size:
            faces = tuple(suit_faces)
            if pre:  # with the claimed cards held, "m led-suit cards" is "exactly those"
                caps = tuple(counts.get(f, 0) for f in faces)
                out.append(Constraint("at_most", loc, faces, m, caps))
            else:
                out.append(Constraint("at_most", loc, faces, 0))
            return out, True
        if self.rules.draw_policy != "no-protections":
            return out, False
        in_suit = {f: c for f, c in counts.items() if t.esuit[f] == fmt.suit}
        for shape in decomposition_order(fmt, True):
            if fits_shape(in_suit, shape, self.trump):
                break
            groups = [g for g in shape if g != (1,)]
            if len(groups) == 1 and len(groups[0]) == 1:
                w = groups[0][0]
                for f in suit_faces:
                    cap = w - 1 if pre else w - 1 - counts.get(f, 0)
                    out.append(Constraint("at_most", loc, (f,), cap))
            else:
                exact = False
        return out, exact

    def _truth(
        self, seat: int, claim: Sequence[int], lead: bool, pre: bool = True
    ) -> tuple[list[Constraint], bool]:
        """Constraints of "the claim is true" (the cards are as claimed and valid)."""
        where = f"P{seat}" if pre else "down"
        cons: list[Constraint] = [
            Constraint("at_least", where, (f,), k) for f, k in sorted(count_faces(claim).items())
        ]
        v, exact = self._validity(seat, claim, lead, pre=pre)
        if pre:  # drop upper bounds that counting already guarantees (no engine run for them)
            unseen = self.unseen()
            v = [
                c
                for c in v
                if not (c[0] == "at_most" and sum(unseen[f] for f in c[2]) <= c[3])
                or c[1] == f"P{self.seat}"
            ]
        return cons + v, exact

    def _apply(self, kn: Any, c: Constraint) -> None:
        names = self._names(c.faces)
        if c.op == "at_least":
            kn.at_least(c.loc, names, c.k)
            return
        if c.k < 0:
            from games.errors import InconsistentKnowledgeError

            raise InconsistentKnowledgeError(f"{c.loc} would need fewer than 0 cards")
        if c.caps is not None:
            zero = [n for n, cap in zip(names, c.caps, strict=True) if cap == 0]
            if zero:
                kn.void(c.loc, zero)
            for n, cap in zip(names, c.caps, strict=True):
                if cap > 0:
                    kn.at_most(c.loc, [n], cap)
        elif c.k == 0:
            kn.void(c.loc, names)  # cell bounds, not a joint constraint
        else:
            kn.at_most(c.loc, names, c.k)

    def _steps(self, cons: Sequence[Constraint]) -> list[Constraint]:
        """The constraints as chain-rule steps: cell bounds face by face, guaranteed ones dropped.

        A void or a capped bound is a conjunction of one bound per face; asking
        for each face alone (conditioned on the faces before) gives the same
        product as asking for the whole suit at once, with far smaller
        queries for the deal engine.
        """
        unseen = self.unseen()
        out: list[Constraint] = []
        for c in cons:
            if c.op != "at_most" or (c.caps is None and c.k != 0):
                out.append(c)
                continue
            caps = c.caps if c.caps is not None else (0,) * len(c.faces)
            for f, cap in zip(c.faces, caps, strict=True):
                if c.loc != f"P{self.seat}" and unseen[f] <= cap:
                    continue
                out.append(Constraint("at_most", c.loc, (f,), cap))
        return out

    def _chain(self, cons: Sequence[Constraint]) -> float:
        """Probability of a conjunction of constraints, factor by factor (chain rule)."""
        from games.errors import InconsistentKnowledgeError

        kn = self.knowledge.copy()
        p = 1.0
        for c in self._steps(cons):
            if c.k < 0:
                return 0.0
            d = kn.count_distribution(self._names(c.faces), c.loc)
            q = float(sum(d[c.k :])) if c.op == "at_least" else float(sum(d[: c.k + 1]))
            if q <= 0.0:
                return 0.0
            p *= min(q, 1.0)
            if q < 1.0 - 1e-12:
                try:
                    self._apply(kn, c)
                except InconsistentKnowledgeError:
                    return 0.0
        return p

    def _possible(self, cons: Sequence[Constraint]) -> bool:
        """Exactly whether some deal this seat considers possible satisfies every constraint.

        A positive weight from the floating-point engine settles it; a zero is
        confirmed by the exact count.
        """
        from games.errors import InconsistentKnowledgeError

        kn = self.knowledge.copy()
        try:
            for c in cons:
                self._apply(kn, c)
        except InconsistentKnowledgeError:
            return False
        if cons:
            try:
                d = kn.count_distribution(self._names(cons[0].faces), cons[0].loc)
                if any(x > 0 for x in d):
                    return True
            except (InconsistentKnowledgeError, ZeroDivisionError, FloatingPointError):
                return False
        return kn.count() > 0

    # --------------------------------------------------------------- queries
    def open_play(self) -> SeenPlay | None:
        """The play waiting for calls (or the last play, before it is settled)."""
        if self.plays and self.plays[-1].status == "open":
            return self.plays[-1]
        return None

    def unseen(self) -> list[int]:
        """Copies of each face not in this hand and not known to be out of the other hands."""
        d = self.rules.decks
        return [max(0, d - self.mine.get(f, 0) - self.known_out[f]) for f in range(NUM_FACES)]

    def claim_cap(self, f: int) -> int:
        """Most copies of ``f`` another player can hold, by counting what this seat has seen."""
        return self.unseen()[f]

    def counting_refutes(self, claim: Sequence[int]) -> bool:
        """Whether counting alone shows the claim impossible (this seat holds or has seen too many)."""
        cap = self.unseen()
        return any(k > cap[f] for f, k in count_faces(claim).items())

    def claim_odds(self, play: SeenPlay | None = None) -> ClaimOdds:
        """What this seat knows about the open claim (or ``play``) being true.

        Raises
        ------
        InvalidParameterError
            If no claim is open or the seat follows no deal knowledge.
        """
        sp = play or self.open_play()
        if sp is None:
            raise InvalidParameterError("no claim is waiting for calls")
        if sp.lie is not None or sp.seat == self.seat:
            truth = sp.lie is False or (
                sp.lie is None and sp.cards is not None and sorted(sp.cards) == sorted(sp.claim)
            )
            return ClaimOdds(sp.seat, sp.claim, float(truth), not truth, True)
        if not self.use_deal or self.knowledge is None:
            raise InvalidParameterError("this seat follows no deal knowledge (deal=False)")
        cons, exact = self._truth(sp.seat, sp.claim, sp.lead, pre=True)
        if self.counting_refutes(sp.claim):
            return ClaimOdds(sp.seat, sp.claim, 0.0, True, exact)
        try:
            p = self._chain(cons)
            knows_false = p == 0.0 and not self._possible(cons)
        except MemoryError:
            self.fallbacks += 1
            chance = self.counting_chance(sp.seat, sp.claim)
            return ClaimOdds(sp.seat, sp.claim, chance, False, False)
        if p == 0.0 and not knows_false:
            p = 5e-324
        return ClaimOdds(sp.seat, sp.claim, p, knows_false, exact)

    def holding_odds(self, play: SeenPlay | None = None) -> float:
        """Exact probability that the claimer held the claimed cards (validity left out).

        The probability, over the deals this seat considers possible, that
        the claimer's hand before the play held every claimed card; whether
        the claimed cards would make a valid play is not part of it (see
        :meth:`claim_odds` for both).  Counting unseen cards answers when the
        deal engine runs out of memory (:attr:`fallbacks`).

        Raises
        ------
        InvalidParameterError
            If no claim is open or the seat follows no deal knowledge.
        """
        sp = play or self.open_play()
        if sp is None:
            raise InvalidParameterError("no claim is waiting for calls")
        if not self.use_deal or self.knowledge is None:
            raise InvalidParameterError("this seat follows no deal knowledge (deal=False)")
        if self.counting_refutes(sp.claim):
            return 0.0
        cons = [
            Constraint("at_least", f"P{sp.seat}", (f,), k)
            for f, k in sorted(count_faces(sp.claim).items())
        ]
        try:
            return self._chain(cons)
        except MemoryError:
            self.fallbacks += 1
            return self.counting_chance(sp.seat, sp.claim)

    def counting_chance(self, seat: int, claim: Sequence[int]) -> float:
        """Chance that a hand of ``seat``'s size dealt from the unseen cards holds ``claim``.

        Hypergeometric per claimed face (faces treated as independent): what
        the claim's probability would be if this seat knew nothing but which
        cards it has not seen.  ``seat``'s size is taken before the claimed
        cards went down.
        """
        unseen = self.unseen()
        total = sum(unseen)
        h = min(total, self.sizes[seat] + len(claim))
        if total <= 0 or h <= 0:
            return 0.0
        p = 1.0
        for f, k in count_faces(claim).items():
            u = unseen[f]
            below = sum(math.comb(u, j) * math.comb(total - u, h - j) for j in range(k))
            p *= 1.0 - below / math.comb(total, h)
        return p

    def knows_false(self, play: SeenPlay | None = None) -> bool:
        """Whether this seat knows the open claim is false (cards not as claimed, or invalid).

        Exact: no deal consistent with the seat's observations makes the claim
        true.  With an inexact validity rule (tractor shapes) it is sound.
        """
        sp = play or self.open_play()
        if sp is None:
            raise InvalidParameterError("no claim is waiting for calls")
        if sp.lie is not None or sp.seat == self.seat:
            return self.claim_odds(sp).knows_false
        if self.counting_refutes(sp.claim):
            return True
        if not self.use_deal or self.knowledge is None:
            return False
        cons, _ = self._truth(sp.seat, sp.claim, sp.lead, pre=True)
        try:
            return not self._possible(cons)
        except MemoryError:
            self.fallbacks += 1
            return False

    def team(self) -> set[int]:
        """The dictator's team as everyone knows it (by successful claims so far)."""
        if self.tracker is not None:
            return set(self.tracker.team)
        return {self.landlord} if self.landlord is not None else set()

    def open_slots(self) -> list[FriendSlot]:
        """Friend slots nobody has filled yet."""
        if self.tracker is None:
            return []
        return [self.tracker.slots[i] for i in self.tracker.open_slots]

    def holders(self, c: int | str) -> dict[str, float]:
        """Probability that each location holds at least one copy of ``c`` (this seat's view)."""
        if not self.use_deal or self.knowledge is None:
            raise InvalidParameterError("this seat follows no deal knowledge (deal=False)")
        name = str(card(c) if isinstance(c, int) else parse_cards(c)[0])
        out: dict[str, float] = {}
        for loc in self.knowledge.locations:
            if loc == "down" or self.knowledge.size(loc) == 0:
                continue
            p = float(self.knowledge.probability(name, loc))
            if p > 0:
                out[loc] = p
        return out

    def knows_holder(self, c: int | str) -> str | None:
        """The one hand (``"P3"``) this seat knows holds ``c``, if it knows one; else ``None``."""
        hs = self.holders(c)
        sure = [loc for loc, p in hs.items() if loc.startswith("P") and p >= 1.0 - 1e-12]
        return sure[0] if sure else None

    @property
    def exact(self) -> bool:
        """Whether every public announcement was absorbed exactly and every query answered exactly.

        False after a relaxation (:attr:`relaxations`: an announcement the deal
        knowledge cannot express, left out soundly), a relaxation inside
        :mod:`games.deal`, or a query the deal engine could not answer within
        memory (:attr:`fallbacks`: answered by counting unseen cards).
        """
        deal_exact = self.knowledge is None or bool(getattr(self.knowledge, "exact", True))
        return self.relaxations == 0 and self.fallbacks == 0 and deal_exact


def seat_knowledge(state: BSZPYState, seat: int, *, deal: bool = True) -> SeatKnowledge:
    """The knowledge of ``seat`` in a BS-ZPY state, rebuilt from its observations (this round)."""
    sk = SeatKnowledge(state.rules, seat, deal=deal)
    for o in state.observations(seat):
        sk.update(o)
    return sk


# ================================================================ narration
#: Events the narrator tells (their public part).
_TOLD = frozenset(
    """bid redeal trump bury friends claim call nocall silent peanut_butter reveal penalty
    trick join round_end setup""".split()
)


def _say_cards(cards: Sequence[int]) -> str:
    return format_cards(cards) if cards else "nothing"


class Narrator:
    """Narrates a BS-ZPY game from the public events, with every seat's knowledge.

    After each claim it says, for every other seat, whether it knows the
    claim is false or how likely the claim can be true (exact, from that
    seat's deal knowledge); after the friend declaration and each join, who
    each seat thinks holds the friend card.
    """

    def __init__(
        self, game: BSZPYGame, out: TextIO, names: Sequence[str] = (), knowledge: bool = True
    ):
        self.game = game
        self.n = game.num_players()
        self.out = out
        self.names = list(names)
        self.show_knowledge = knowledge
        self.know = [SeatKnowledge(game.rules, s, deal=knowledge) for s in range(self.n)]
        self.seen = [0] * self.n

    def who(self, seat: int | None) -> str:
        if seat is None:
            return "the table"
        if self.names:
            return f"P{seat} ({self.names[seat]})"
        return f"P{seat}"

    def say(self, text: str) -> None:
        print(text, file=self.out)

    def feed(self, state: BSZPYState) -> None:
        """Pass new observations to every seat's knowledge; narrate the public ones once."""
        public: list[Observation] = []
        for s in range(self.n):
            obs = state.observations(s)
            while self.seen[s] < len(obs):
                o = obs[self.seen[s]]
                self.seen[s] += 1
                self.know[s].update(o)
                if s == 0 and o.kind in _TOLD:
                    public.append(o)
        for o in public:
            self.event(o)

    def event(self, o: Observation) -> None:
        k, a = o.kind, o.actor
        if k == "bid":
            self.say(f"{self.who(a)} bids {o['count']} x {o['card']}.")
        elif k == "redeal":
            self.say("Nobody bid: the cards are dealt again.")
        elif k == "trump":
            suit = o["suit"]
            self.say(
                f"{self.who(a)} is the dictator; trump: {o['rank']}"
                + (" (no trump suit)." if suit == "none" else f" of {suit}.")
            )
        elif k == "bury":
            self.say(f"{self.who(a)} buries {o.get('count', 0)} cards.")
        elif k == "setup":
            self.say(f"A hand-made position: {o['size']} cards each, {o['kitty']} in the kitty.")
        elif k == "friends":
            slots = ", ".join(str(FriendSlot(card(c), n)) for c, n in o["slots"])
            self.say(f"{self.who(a)} calls for friends: {slots}.")
            self._friend_knowledge()
        elif k == "claim":
            verb = "leads" if o["lead"] else "plays"
            self.say(
                f"{self.who(a)} {verb} {o['count']} card(s) face down, claiming {_say_cards(o['claim'])}."
            )
            self._claim_knowledge(a)
        elif k == "call":
            others = [c for c in o["callers"] if c != o["caller"]]
            also = (
                f" ({', '.join(self.who(c) for c in others)} wanted to call too)" if others else ""
            )
            self.say(f"  {self.who(o['caller'])} calls BS!{also}")
        elif k == "nocall":
            if not o["allowed"]:
                self.say("  Everyone before was caught lying: nobody may call.")
        elif k == "silent":
            self.say("  No call. The claim stands, and it was true.")
        elif k == "peanut_butter":
            self.say(
                f'  No call. {self.who(a)} says "peanut butter": the claim was false '
                "(everyone knows it now, but not what the cards are)."
            )
        elif k == "reveal":
            if o["truthful"]:
                self.say(f"  Revealed: {_say_cards(o['cards'])}. The claim was true.")
            else:
                why = "" if o["valid"] else f" (invalid: {o['violation']})"
                self.say(f"  Revealed: {_say_cards(o['cards'])}. Caught lying{why}.")
                if o["returned"]:
                    self.say(
                        f"  {self.who(a)} keeps {_say_cards(o['kept'])} and takes back "
                        f"{_say_cards(o['returned'])}."
                    )
        elif k == "penalty":
            if o["cards"]:
                self.say(
                    f"  {self.who(a)} gives {o['cards']} random card(s) of its winnings pile to "
                    f"{self.who(o['to'])}."
                )
            else:
                self.say(f"  {self.who(a)} has no winnings: it loses {o['points']} points.")
        elif k == "trick":
            self.say(f"  {self.who(a)} wins the trick ({o['cards']} cards to its winnings pile).")
        elif k == "join":
            extra = " (already on the team)" if o["already"] else ""
            self.say(f"  {self.who(a)} joins the dictator's team{extra}.")
            self._friend_knowledge()
        elif k == "round_end":
            team = ", ".join(self.who(s) for s in o["team"])
            self.say(
                f"Round over. Kitty {format_cards(o['kitty'])} gives {o['kitty_points']} points to "
                f"the last trick. Dictator's team ({team}): {o['dictator_score']}; attackers: "
                f"{o['attacking_score']}. δ = {o['delta']}: {o['result']}."
            )
            self.say("Ranks: " + ", ".join(f"{self.who(s)} {r}" for s, r in enumerate(o["ranks"])))

    def _claim_knowledge(self, claimer: int | None) -> None:
        if not self.show_knowledge:
            return
        chances, knowers = [], []
        for s in range(self.n):
            if s == claimer:
                continue
            odds = self.know[s].claim_odds()
            if odds.knows_false:
                knowers.append(self.who(s))
            else:
                chances.append(f"{self.who(s)} {odds.probability:.2f}")
        parts = []
        if chances:
            parts.append("chance the claim can be true: " + ", ".join(chances))
        if knowers:
            parts.append(
                ", ".join(knowers) + (" know" if len(knowers) > 1 else " knows") + " it is false"
            )
        self.say("  " + "; ".join(parts))

    def _friend_knowledge(self) -> None:
        if not self.show_knowledge:
            return
        for s in range(self.n):
            kn = self.know[s]
            for slot in kn.open_slots():
                try:
                    holder = kn.knows_holder(slot.card)
                    hands = {loc: p for loc, p in kn.holders(slot.card).items() if loc != "played"}
                except MemoryError:
                    self.say(f"  ({self.who(s)}: the deal engine ran out of memory on this query)")
                    continue
                if holder == f"P{s}":
                    self.say(f"  {self.who(s)} holds {slot.card} itself.")
                elif holder is not None:
                    self.say(f"  {self.who(s)} knows {holder} holds {slot.card}.")
                else:
                    where = ", ".join(f"{loc} {p:.2f}" for loc, p in hands.items())
                    self.say(f"  {self.who(s)} does not know who holds {slot.card} ({where}).")


def narrate(args: Any, out: TextIO) -> int:
    """``kripke play bs-zpy``: a narrated bot game with every seat's knowledge after each event."""
    params = dict(getattr(args, "params", {}) or {})
    variant = getattr(args, "variant", None)
    if variant is not None:
        params["variant"] = variant
    players = getattr(args, "players", None)
    if players is not None:
        params["players"] = players
    if getattr(args, "human", None) is not None:
        raise InvalidParameterError(
            "kripke play bs-zpy narrates a game between bots; --human is not available"
        )
    game = BSZPYGame(**params)
    n = game.num_players()
    default = ["probabilistic", "bluffer", "knowledge", "truthful", "bluffer"]
    text = getattr(args, "bots", None)
    names = text.split(",") if text else [default[s % len(default)] for s in range(n)]
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise InvalidParameterError(f"--bots needs 1 or {n} names, got {len(names)}")
    seed = int(getattr(args, "seed", 0) or 0)
    bots: list[Bot] = [
        make_bot("bs-zpy", name, seed=seed * 100 + s) for s, name in enumerate(names)
    ]
    quiet = bool(getattr(args, "quiet", False))
    sink: TextIO = out if not quiet else io.StringIO()
    narrator = Narrator(game, sink, names, knowledge=not quiet)
    state = game.new_initial_state()
    for s, b in enumerate(bots):
        b.restart(game, s)
    rng = random.Random(seed)
    seen = [0] * n
    while True:
        narrator.feed(state)
        for s, b in enumerate(bots):
            obs = state.observations(s)
            while seen[s] < len(obs):
                b.inform(obs[seen[s]])
                seen[s] += 1
        cur = state.current_player()
        if cur == TERMINAL:
            break
        if cur == CHANCE:
            action = sample_chance(state, rng)
        else:
            action = bots[cur].step(state.legal_actions(cur))
        state.apply_action(action)
    rets = state.returns()
    print(
        "Match over. Levels gained: "
        + ", ".join(f"{narrator.who(s)} {int(r):+d}" for s, r in enumerate(rets)),
        file=out,
    )
    return 0


def _register() -> None:
    register_game(
        "bs-zpy",
        lambda **kw: BSZPYGame(**kw),
        doc="BS-ZPY: ZPY played face down with claims, BS calls and peanut butter",
        narrate=narrate,
    )
    from games import bs_zpy_bots  # noqa: F401  (registers the bots)


_register()
