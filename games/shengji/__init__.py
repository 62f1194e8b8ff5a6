"""Shengji (tractor, fixed partners) and ZPY (finding friends): rules, engine, bots, table.

The package has one module per concern: :mod:`games.shengji.rules` (pure
functions usable on their own and on *claimed* cards, as the bluffing variant
BS-ZPY does: cards, trump order, formats, following, throws and trick
winners, friends, bidding, scoring), :mod:`games.shengji.state` (the engine,
registered as the game ``"shengji"`` with variants ``tractor`` and ``zpy``,
and the trick-playing phase other engines compose), :mod:`games.shengji.knowledge`
(a seat's view and its exact deal knowledge, and a round as an epistemic
model), :mod:`games.shengji.bots` and :mod:`games.shengji.table` (the human
seat with the shengji-bot commands, and the narrated game).

Examples
--------
>>> from games.base import load_game
>>> load_game("shengji", variant="zpy", players=5).rules.kitty
8
"""

from __future__ import annotations

from games.base import register_game
from games.shengji.rules import (
    Bid,
    Card,
    FollowRules,
    Format,
    FriendSlot,
    FriendTracker,
    TrickState,
    Trump,
    Unit,
    advance_rank,
    allowed_friend_cards,
    card,
    card_points,
    check_throw,
    compare,
    effective_suit,
    find_readings,
    follow_error,
    format_cards,
    is_adjacent,
    is_legal_follow,
    is_tractor,
    kitty_multiplier,
    kitty_size,
    lead_format,
    legal_follows,
    level_change,
    level_table,
    next_landlord,
    parse_card,
    parse_cards,
    resolve_friends,
    successors,
    trick_winner,
    valid_bids,
)
from games.shengji.state import VARIANTS, PlayPhase, ShengjiGame, ShengjiParams, ShengjiState

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
        variants=VARIANTS,
    )
    bots.register()


_register()
