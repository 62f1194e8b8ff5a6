"""The witness :func:`games.epistemic.witness.witness_kept`: a world where the place a
card was put down from kept it, and put down instead a card it held then.

Every world it finds is checked against the explicit model (the seat then does not know
the atom) on random koth-like, BS-like and random histories; at full size, a classic BS
state where a member of the group was shown ignorant only this way.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.epistemic import CardHistory, GameKnowledge, Move, MoveAll, explicit_model
from games.epistemic.witness import witness_kept
from kripke import holds
from kripke.formulas import Atom
from tests.test_epistemic import random_history
from tests.test_whole_game_copies import found_witnesses, koth_history
from tests.test_whole_game_dislodged import bs_history


def kept_witnesses(h: CardHistory) -> tuple[int, int]:
    """Every world :func:`witness_kept` finds on ``h``, checked in the explicit model
    (:func:`~tests.test_whole_game_copies.found_witnesses`)."""
    return found_witnesses(h, witness_kept)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), plays=st.integers(3, 7))
def test_kept_witnesses_on_koth_and_bs_histories(seed, plays):
    kept_witnesses(koth_history(seed, plays))
    kept_witnesses(bs_history(seed, plays=plays))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_kept_witnesses_on_random_histories(seed, copies):
    kept_witnesses(random_history(seed, copies=copies, events=6))


def test_kept_witnesses_find_what_the_untouched_trades_do_not():
    found = beyond = 0
    for seed in range(10):
        for h in (koth_history(seed, 6), bs_history(seed, plays=6)):
            n, m = kept_witnesses(h)
            found, beyond = found + n, beyond + m
    assert found >= 10 and beyond >= 5, (found, beyond)


def test_known_answer_the_hand_may_have_kept_the_card():
    """y put one of its two cards face down and z took the pile: x, who saw neither,
    does not know z holds the card y put down (y may have put the other); z, who saw
    the pile it took, knows."""
    h = CardHistory(
        Deck(["A", "B", "C"]), {"x": "C", "y": "A B", "z": "", "pile": ""}, ["x", "y", "z"]
    )
    h = h.then(Move("A", "y", "pile", seen_by=["y"]), MoveAll("pile", "z", seen_by=["z"]))
    assert holds(explicit_model(h), "~K_x has(z, A) & K_z has(z, A) & K_y has(z, A)")
    atom = Atom("has", ("z", "A"))
    assert witness_kept(h, "x", atom)
    assert not witness_kept(h, "z", atom) and not witness_kept(h, "y", atom)


def test_classic_bs_a_member_who_may_think_the_card_was_kept():
    """52-card classic BS, seed 0, 97 plays in: P2 put down all four 2s claiming 2, and
    P3 took that pile.  P1's counting is relaxed there; a world of P1 where P2 kept
    the 2C shows that P1 does not know P3 holds it, so it is not common knowledge of
    P1 and P2 (the card quotient of this state did not finish in 20 s)."""
    from benchmarks.whole_game_knowledge import plays

    h = next(h for k, h in plays("bs-classic", 0) if k == 97)
    assert witness_kept(h, "P1", Atom("has", ("P3", "2C")))
    gk = GameKnowledge(h)
    assert gk.holds("C_{P1,P2} has(P3, 2C)") is False and gk.route == "counting"
    assert gk.holds("K_P2 has(P3, 2C)") is True
