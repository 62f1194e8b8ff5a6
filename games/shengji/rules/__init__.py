"""The rules of Shengji and ZPY as pure functions, usable on their own.

They work on any cards, *claimed* cards included (the bluffing variant
BS-ZPY uses them that way): cards (:mod:`~games.shengji.rules.cards`), trump
order (:mod:`~games.shengji.rules.trump`), units and formats
(:mod:`~games.shengji.rules.formats`), following
(:mod:`~games.shengji.rules.follow`), throws and trick winners
(:mod:`~games.shengji.rules.tricks`), friends
(:mod:`~games.shengji.rules.friends`), bidding
(:mod:`~games.shengji.rules.bidding`) and scoring
(:mod:`~games.shengji.rules.scoring`).

Examples
--------
>>> from games.shengji.rules import Trump, lead_format, parse_cards
>>> lead_format(parse_cards("3H 3H 4H 4H"), Trump("2", "S")).units
(3H 3H 4H 4H,)
"""

from __future__ import annotations

from games.shengji.rules.bidding import Bid, valid_bids
from games.shengji.rules.cards import Card, card, card_points, format_cards, parse_card, parse_cards
from games.shengji.rules.follow import FollowRules, follow_error, is_legal_follow, legal_follows
from games.shengji.rules.formats import Format, Unit, find_readings, is_tractor, lead_format
from games.shengji.rules.friends import (
    FriendSlot,
    FriendTracker,
    allowed_friend_cards,
    resolve_friends,
)
from games.shengji.rules.scoring import (
    advance_rank,
    kitty_multiplier,
    kitty_size,
    level_change,
    level_table,
    next_landlord,
)
from games.shengji.rules.tricks import TrickState, check_throw, trick_winner
from games.shengji.rules.trump import Trump, compare, effective_suit, is_adjacent, successors

__all__ = [
    "Bid",
    "Card",
    "Format",
    "FollowRules",
    "FriendSlot",
    "FriendTracker",
    "TrickState",
    "Trump",
    "Unit",
    "advance_rank",
    "allowed_friend_cards",
    "card",
    "card_points",
    "check_throw",
    "compare",
    "effective_suit",
    "find_readings",
    "follow_error",
    "format_cards",
    "is_adjacent",
    "is_legal_follow",
    "is_tractor",
    "kitty_multiplier",
    "kitty_size",
    "lead_format",
    "legal_follows",
    "level_change",
    "level_table",
    "next_landlord",
    "parse_card",
    "parse_cards",
    "resolve_friends",
    "successors",
    "trick_winner",
    "valid_bids",
]
