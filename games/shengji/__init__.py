"""Shengji (tractor, fixed partners) and ZPY (finding friends): rules, engine, bots, table.

The rules layer is a set of pure functions usable on their own (and on
*claimed* cards, as the bluffing variant BS-ZPY does): cards
(:mod:`~games.shengji.cards`), trump order (:mod:`~games.shengji.trump`),
units and formats (:mod:`~games.shengji.formats`), following
(:mod:`~games.shengji.follow`), throws and trick winners
(:mod:`~games.shengji.tricks`), friends (:mod:`~games.shengji.friends`),
bidding (:mod:`~games.shengji.bidding`) and scoring
(:mod:`~games.shengji.scoring`).  The engine (:mod:`~games.shengji.engine`)
is registered as the game ``"shengji"`` with variants ``tractor`` and ``zpy``.

Examples
--------
>>> from games.base import load_game
>>> load_game("shengji", variant="zpy", players=5).rules.kitty
8
"""

from __future__ import annotations

from games.base import register_game
from games.shengji.bidding import Bid, valid_bids
from games.shengji.cards import Card, card, card_points, format_cards, parse_card, parse_cards
from games.shengji.engine import ShengjiGame, ShengjiParams, ShengjiState
from games.shengji.follow import FollowRules, follow_error, is_legal_follow, legal_follows
from games.shengji.formats import Format, Unit, find_readings, is_tractor, lead_format
from games.shengji.friends import (
    FriendSlot,
    FriendTracker,
    allowed_friend_cards,
    resolve_friends,
)
from games.shengji.play import PlayPhase
from games.shengji.scoring import (
    advance_rank,
    kitty_multiplier,
    kitty_size,
    level_change,
    level_table,
    next_landlord,
)
from games.shengji.tricks import TrickState, check_throw, trick_winner
from games.shengji.trump import Trump, compare, effective_suit, is_adjacent, successors

__all__ = [
    "Bid",
    "Card",
    "Format",
    "FollowRules",
    "FriendSlot",
    "FriendTracker",
    "PlayPhase",
    "ShengjiGame",
    "ShengjiParams",
    "ShengjiState",
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


def _register() -> None:
    from games.shengji import bots, table

    register_game(
        "shengji",
        lambda **kw: ShengjiGame(**kw),
        doc="Shengji/tractor (variant tractor) and ZPY finding friends (variant zpy)",
        narrate=table.narrate,
    )
    bots.register()


_register()
