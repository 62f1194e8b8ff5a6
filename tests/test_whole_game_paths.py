"""Witness worlds searched over the paths of one kind's copies
(:func:`games.epistemic.paths.witness_searched`).

A world found proves ``M_a K_b has(L, C)`` (so ``K_a ~K_b has(L, C)`` is false).  Every
world found is checked against the explicit model on random BS-like histories and on
random histories with copies; known answers: a small history where ``b`` must have put
down two copies at once, and full-size BS states (koth with copies, classic) that the
other witnesses and the quotients did not answer.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.epistemic import CardHistory, GameKnowledge, Move, MoveAll, explicit_model
from games.epistemic.paths import witness_searched
from games.epistemic.witness import (
    witness_carried,
    witness_followed,
    witness_knowledge,
    witness_tracked,
)
from kripke import holds
from kripke.formulas import Atom, Know, Not, Possible
from tests.test_epistemic import random_history
from tests.test_whole_game_dislodged import bs_history
from tests.test_whole_game_ignorance import all_atoms


def searched_claims(h: CardHistory) -> int:
    """Every world :func:`witness_searched` finds on ``h``, checked in the explicit model
    (``M_a K_b atom`` holds there); how many."""
    pm = explicit_model(h)
    n = 0
    for (a, b), atom in itertools.product(itertools.permutations(h.agents, 2), all_atoms(h)):
        if witness_searched(h, a, b, atom):
            assert holds(pm, Possible(a, Know(b, atom))), (a, b, atom.key)
            n += 1
    return n


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), plays=st.integers(4, 9))
def test_searched_worlds_are_worlds_where_the_seat_knows(seed, plays):
    searched_claims(bs_history(seed, plays=plays))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_searched_worlds_on_random_histories(seed, copies):
    searched_claims(random_history(seed, copies=copies, events=7))


def test_searched_worlds_are_found():
    """Not a vacuous check: the search finds worlds on small BS histories."""
    found = sum(searched_claims(bs_history(seed, plays=8)) for seed in range(10))
    assert found > 10


def test_known_answer_two_copies_put_down_at_once():
    """y gives z an A and a B face down; z puts one card down into a pile that also gets
    x's A, and y picks that pile up.  y cannot tell whether z put its A down.  Had y
    put down two As (z's own A and y's B trading kinds, unseen by x), z would keep one
    of them whatever it put down: x considers it possible that y knows."""
    h = CardHistory(
        Deck(["A", "B", "C"], [3, 3, 3]),
        {"x": "A C C", "y": "A B B", "z": "A B C", "pile": ""},
        ["x", "y", "z"],
    )
    h = h.then(
        Move("A B", "y", "pile", seen_by=["y"]),
        MoveAll("pile", "z", seen_by=["z"]),
        Move("A", "x", "pile", seen_by=["x"]),
        Move("C", "z", "pile", seen_by=["z"]),
        MoveAll("pile", "y", seen_by=["y"]),
    )
    at = Atom("has", ("z", "A"))
    pm = explicit_model(h)
    assert not holds(pm, Know("y", at))
    assert holds(pm, Possible("x", Know("y", at)))
    assert witness_searched(h, "x", "y", at)
    assert GameKnowledge(h).holds(Know("x", Not(Know("y", at)))) is False


@pytest.mark.parametrize(
    ("game", "seed", "play", "formula"),
    [
        # P3 put a 0 into the pile P0 took; P0's later cards went into a pile P3 saw
        # holding P1's 0: had P3 put two 0s down and P1 another card, P3 would know
        ("bs-koth", 2, 50, "K_P2 ~K_P3 has(P0, 0)"),
        # a world of P1 where P2 followed the 2D to P3
        ("bs-classic", 10, 93, "K_P1 ~K_P2 has(P3, 2D)"),
    ],
)
def test_full_size_states_the_other_witnesses_missed(game, seed, play, formula):
    from benchmarks.whole_game_knowledge import plays

    h = next(h for k, h in plays(game, seed) if k == play)
    gk = GameKnowledge(h)
    f = gk.formula(formula)
    a, b, atom = f.agent, f.arg.arg.agent, f.arg.arg.arg
    hc = gk.counted
    assert not any(
        w(hc, a, b, atom) for w in (witness_tracked, witness_followed, witness_carried)
    ) and not witness_knowledge(hc, a, b, atom, knows=True)
    assert witness_searched(hc, a, b, atom)
    assert gk.holds(f) is False and gk.route == "counting"
