"""BS-ZPY rules that need no game state: actions, the validity of a play, who wins a trick of claims, level changes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.errors import InvalidParameterError
from games.shengji.rules.cards import (
    NUM_FACES,
    Card,
    as_cards,
    card,
    card_points,
)
from games.shengji.rules.follow import FollowRules
from games.shengji.rules.formats import (
    Format,
    Unit,
    count_faces,
    lead_format,
)
from games.shengji.rules.tricks import beats, check_throw, format_readings
from games.shengji.rules.trump import TRUMP_SUIT, Trump, table
from games.shengji.state import (
    decode_action,
)

__all__ = [
    "CALL",
    "CLAIM_TRUE",
    "claim_action",
    "decode_bs_action",
    "smallest_valid_subhand",
    "play_validity",
    "claim_winner",
    "level_delta",
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
    >>> from games.shengji.rules import Trump, lead_format, parse_cards
    >>> from games.shengji.rules.formats import count_faces
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
    >>> from games.shengji.rules import Trump, lead_format, parse_cards
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
