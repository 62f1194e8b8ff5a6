"""Copies are alike: a copy shown at a place and a copy of the same kind that later
leaves it in view may be taken to be the same card.

:func:`games.epistemic.knowledge.never_known` marks the copies a public event showed
(a bid) so that they are never traded.  When a copy of that kind later leaves the
place in view (played face up), the marks now take the copy that left to be the one
shown, so the copy still there is unmarked and can trade.  Every claim is checked
against the explicit model on random histories where a seat shows cards and then
plays, face up or after a hidden exchange; at full size, a ZPY state.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.epistemic import CardHistory, GameKnowledge, Move, MoveAll, Show, explicit_model
from games.epistemic.knowledge import never_known
from kripke import holds
from tests.test_whole_game_dislodged import checked_claims
from tests.test_whole_game_swaps import SEATS, dealt, kitty_history, shuffled


def shown_history(seed: int, plays: int = 5) -> CardHistory:
    """Three seats, a small deck with copies; a seat shows one or two of its cards to
    everybody (a bid), may exchange a card with the kitty unseen by the others, then
    the seats play face up, the bidder often a kind it showed."""
    rng = random.Random(seed)
    names = ["A", "B", "C", "D"][: rng.randint(3, 4)]
    deck, cards = shuffled(rng, names, [rng.choice([2, 3]) for _ in names], 9)
    h = CardHistory(deck, {**dealt(cards[1:]), "kitty": cards[:1], "trick": ""}, SEATS)
    bidder = rng.choice(SEATS)
    mine = list(h.content()[bidder])
    if not mine:
        return h
    shown = rng.sample(mine, min(len(mine), rng.choice([1, 2])))
    h = h.then(Show(bidder, shown))
    if rng.random() < 0.5:
        h = h.then(MoveAll("kitty", bidder, seen_by=[bidder]))
        card = rng.choice(list(h.content()[bidder]))
        h = h.then(Move([card], bidder, "kitty", seen_by=[bidder]))
    for i in range(plays):
        seat = SEATS[i % 3]
        cur = list(h.content()[seat])
        if not cur:
            continue
        alike = [c for c in cur if c in shown]
        card = rng.choice(alike if seat == bidder and alike and rng.random() < 0.7 else cur)
        h = h.then(Move([card], seat, "trick"))
    return h


def rule(h: CardHistory, b: str, atom, a: str, counting: object) -> bool:
    return never_known(h, b, atom, within=a)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), plays=st.integers(1, 6))
def test_what_never_known_claims_holds_after_shows(seed, plays):
    checked_claims(shown_history(seed, plays), rule)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_what_never_known_claims_holds_with_a_kitty(seed):
    checked_claims(kitty_history(seed), rule)


def test_known_answer_the_copy_shown_is_the_copy_played():
    """x bids its A, showing one copy, then plays an A face up: y does not know x still
    holds an A (both are alike; the one left may be any A y never saw), and z knows
    that; x knows it holds one."""
    h = CardHistory(
        Deck(["A", "B", "C"], [2, 2, 2]),
        {"x": "A A B", "y": "B C", "z": "C", "trick": ""},
        SEATS,
    )
    h = h.then(Show("x", ["A"]), Move(["A"], "x", "trick"))
    pm = explicit_model(h)
    assert holds(pm, "K_z ~K_y has(x, A) & K_x has(x, A) & has(x, A)")
    assert never_known(h, "y", GameKnowledge(h).formula("has(x, A)"), within="z")


def test_full_size_zpy_the_bid_copy_was_played():
    """ZPY, 5 seats, seed 0, play 39: P1 bid with the 2D and later played a 2D face up;
    the other 2D is still P1's, and no seat but P1 saw it.  ``K_P4 ~K_P0 has(P1, 2D)``
    is true by counting (the kind quotient ran out of time)."""
    from benchmarks.whole_game_knowledge import plays

    h = next(h for k, h in plays("zpy5", 0) if k == 39)
    gk = GameKnowledge(h)
    assert gk.holds("K_P4 ~K_P0 has(P1, 2D)") is True and gk.route == "counting"
