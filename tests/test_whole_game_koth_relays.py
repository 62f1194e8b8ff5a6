"""Copies relayed through several hands: :func:`games.epistemic.knowledge.outplayed`
with the trades of ways at other hands' hidden plays (``_copies_marked(shed=True)``),
and its count of every copy (``every``) against the cards ``L`` put down since.

A copy ``b`` saw go into a pile that hand ``H`` picked up may have stayed with ``H``
when ``H`` put cards face down: a card ``H`` kept to the end unseen by ``b`` can have
gone the copy's way instead.  ``outplayed(h, b, has(L, C), within=a)`` claims
``K_a ~K_b has(L, C)``; every claim is checked against the explicit model on random
relay histories (three seats, a stock nobody sees, plays of one card, two or a whole
hand face down into a pile the next seat mostly picks up), and a partner counted
too many makes some claim false.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.epistemic import (
    CardHistory,
    Count,
    GameKnowledge,
    Move,
    MoveAll,
    Reveal,
    explicit_model,
    knowledge,
)
from games.epistemic.knowledge import never_known, outplayed
from kripke import holds
from kripke.formulas import Atom
from tests.test_whole_game_dislodged import checked_claims
from tests.test_whole_game_swaps import SEATS, shuffled


def relay_history(seed: int, plays: int = 7) -> CardHistory:
    """Three seats and a stock of two or three cards nobody sees, from a deck of two or
    three kinds with two to four copies (at most 10 cards); each turn a seat puts one
    or two cards (or, 3 times in 10, its whole hand) face down on ``pile``, which is
    sometimes revealed and mostly picked up (seeing it), most often by the next seat."""
    rng = random.Random(seed)
    names = [chr(ord("A") + i) for i in range(rng.randint(2, 3))]
    deck, cards = shuffled(rng, names, [rng.choice([2, 3, 4]) for _ in names], 10)
    k = rng.randint(2, 3)
    hands = {s: cards[k + i :: 3] for i, s in enumerate(SEATS)}
    h = CardHistory(deck, {**hands, "stock": cards[:k], "pile": ""}, SEATS)
    for t in range(plays):
        seat = SEATS[t % 3]
        cur = list(h.content()[seat])
        if not cur:
            continue
        n = len(cur) if rng.random() < 0.3 else rng.randint(1, min(2, len(cur)))
        h = h.then(Move(rng.sample(cur, n), seat, "pile", seen_by=[seat]))
        r = rng.random()
        if r < 0.15:
            h = h.then(Reveal("pile"))
        if r < 0.7:
            taker = SEATS[(t + 1) % 3] if rng.random() < 0.7 else rng.choice(SEATS)
            h = h.then(MoveAll("pile", taker, seen_by=[taker]))
    return h


def relayed_claims(h: CardHistory) -> tuple[int, int]:
    """Every claim of :func:`outplayed` on ``h`` checked in the explicit model; how many,
    and how many it makes only with the trades at other hands (none without partners)."""
    made = checked_claims(h, lambda h, b, atom, a, kn: outplayed(h, b, atom, within=a))
    stayers = knowledge._stayers
    try:
        knowledge._stayers = lambda *args: 0
        new = sum(not outplayed(h, b, atom, within=a) for a, b, atom, _ in made)
    finally:
        knowledge._stayers = stayers
    return len(made), new


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), plays=st.integers(4, 8))
def test_what_outplayed_claims_holds_on_relay_histories(seed, plays):
    relayed_claims(relay_history(seed, plays))


def test_the_trades_at_other_hands_claim_more():
    made = new = 0
    for seed in range(16):
        n, m = relayed_claims(relay_history(seed))
        made, new = made + n, new + m
    assert made > 500 and new > 50


def test_a_partner_counted_too_many_makes_a_false_claim(monkeypatch):
    """One more card kept by the hand than it keeps: some claim is false (the test above
    would catch it)."""
    stayers = knowledge._stayers
    monkeypatch.setattr(knowledge, "_stayers", lambda h, agent, i: stayers(h, agent, i) + 1)
    false = 0
    for seed in (49, 55):
        h = relay_history(seed)
        pm = explicit_model(h)
        for b in h.agents:
            for loc in h.locations:
                for c in h.deck.names:
                    atom = Atom("has", (loc, c))
                    for a in h.agents:
                        if outplayed(h, b, atom, within=a):
                            false += not holds(pm, f"K_{a} ~K_{b} has({loc}, {c})")
    assert false >= 2


def test_known_answer_a_copy_relayed_through_a_hand():
    """x plays its A into the pile y picks up; y puts cards face down into the pile z
    picks up.  When y kept a card, x does not know that z holds an A, and y knows that;
    when y put its whole hand down, x knows z holds the A."""
    deck = Deck(["A", "B", "C", "D"], [2, 2, 3, 3])
    h = CardHistory(deck, {"x": "A B C", "y": "B C", "z": "A C", "w": "D D D", "pile": ""}, SEATS)
    h = h.then(Move("A", "x", "pile", seen_by=["x"]), MoveAll("pile", "y", seen_by=["y"]))
    atom = Atom("has", ("z", "A"))
    kept = h.then(Move("A B", "y", "pile", seen_by=["y"]), MoveAll("pile", "z", seen_by=["z"]))
    assert holds(explicit_model(kept), "K_y ~K_x has(z, A)")
    assert outplayed(kept, "x", atom, within="y")
    stayers = knowledge._stayers
    try:
        knowledge._stayers = lambda *args: 0
        assert not outplayed(kept, "x", atom, within="y")  # only by the trade at y
    finally:
        knowledge._stayers = stayers
    whole = h.then(Move("A B C", "y", "pile", seen_by=["y"]), MoveAll("pile", "z", seen_by=["z"]))
    assert holds(explicit_model(whole), "K_x has(z, A)")
    assert not any(outplayed(whole, "x", atom, within=a) for a in SEATS)


def test_full_size_koth_states_with_copies_relayed_or_outplayed():
    """52-card koth, seed 0.  Play 40: ``K_P1 ~K_P2 has(P3, 1)`` is true.  P2 may have
    seen up to three 1s reach P3, two of them through P0, who picked up the pile P2 had
    played into and put three cards down into the pile P3 took; P0 kept many cards P2
    never sees, and P3 put two cards down since (the kind quotient is refused here
    after 40-80 s).  Play 54: ``K_P2 ~K_P3 has(P0, 10)`` is true: since P0 picked up
    the pile, it put down seven cards P3 never sees again, more than the four 10s.
    Play 80: ``K_P0 ~K_P1 has(P2, 1)`` is true.  P2 last took in cards that may hold a 1
    (for all P0 knows) with the pile after its called 1 and 5; the cards it took in
    since are P0's 7 and four 11s shown to all.  Of the 1s P1 may have seen reach P2 then,
    those P3 put down beside can go back to P3, which keeps many cards P1 never sees
    (P3's earlier play went to P1 whole, so trading there would have been in vain);
    two are left, its own card and the called 1, and P2 has since put down two cards
    P1 never sees again (rules before: refused after 4 s)."""
    from benchmarks.whole_game_knowledge import plays

    for k, h in plays("bs-koth", 0):
        if k == 40:
            gk = GameKnowledge(h)
            assert gk.holds("K_P1 ~K_P2 has(P3, 1)") is True and gk.route == "counting"
            assert outplayed(h, "P2", Atom("has", ("P3", "1")), within="P1")
        if k == 54:
            gk = GameKnowledge(h)
            assert gk.holds("K_P2 ~K_P3 has(P0, 10)") is True and gk.route == "counting"
        if k == 80:
            gk = GameKnowledge(h)
            assert gk.holds("K_P0 ~K_P1 has(P2, 1)") is True and gk.route == "counting"
            assert outplayed(h, "P1", Atom("has", ("P2", "1")), within="P0")
            break


def test_known_answer_a_hand_that_did_not_see_its_own_card_go():
    """z moves a card to y that only x sees: z does not know whether it kept its B or
    its C, so its own hand is no partner for y's A (a count bars B from y, and where z
    moved the C, x knows y holds the A).  ``never_known`` claimed ``K_z ~K_x has(y, A)``
    here (a hypothesis example of :mod:`tests.test_whole_game_facts`)."""
    h = CardHistory(
        Deck(["A", "B", "C", "D"], [1, 1, 1, 1]),
        {"x": "D", "y": "A", "z": "B C", "pile": "", "kitty": ""},
        SEATS,
    )
    h = h.then(
        Count(["x"], ["D"], 1, 1),
        Count(["y"], ["B"], 0, 0),
        Move("B", "z", "y", seen_by=["x"]),
    )
    pm = explicit_model(h)
    assert holds(pm, "~K_x has(y, A)") and not holds(pm, "K_z ~K_x has(y, A)")
    assert not never_known(h, "x", Atom("has", ("y", "A")), within="z")
    gk = GameKnowledge(h, max_width=1, quotient_width=2**62)
    assert gk._by_counting(gk.formula("K_z ~K_x has(y, A)")) is not True
