"""BS-ZPY claim probability in one count: the chain rule's numbers, and brute force.

:meth:`SeatKnowledge._joint` counts the deals that make a claim true once;
:meth:`SeatKnowledge._chain` (the route it replaced) multiplies one
conditional count per constraint.  On random small positions played out by
the bots, at every claim and for every other seat, the two give the same
:class:`~fractions.Fraction`, which is also the share of the seat's possible
deals (every card-count matrix, brute force) where the claim's constraints
hold; the floats :meth:`claim_odds` answers agree with the chain's.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from games.base import load_game, make_bot
from games.bs_zpy import SeatKnowledge
from games.bs_zpy.knowledge import follow_claims
from tests.test_deal_counting_classes import _brute

POOL = [f"{r}{s}" for r in "3456789" for s in "HS"]


def _claims(seed: int):
    """``(seat knowledge, constraints)`` at every claim of a random 3-card position."""
    rng = random.Random(seed)
    game = load_game("bs-zpy", players=4)
    cards = [c for c in POOL for _ in range(2)]
    rng.shuffle(cards)
    hands = [" ".join(cards[3 * s : 3 * s + 3]) for s in range(4)]
    state = game.position(hands, trump="2D", landlord=rng.randrange(4), friends=["AH"])
    names = ["bluffer", "truthful", "random", "bluffer"]
    bots = [make_bot("bs-zpy", names[s], seed=seed * 10 + s) for s in range(4)]
    for s, b in enumerate(bots):
        b.restart(game, s)
    know = [SeatKnowledge(game.rules, s) for s in range(4)]

    def chance(st):
        outs = st.chance_outcomes()
        return outs[rng.randrange(len(outs))][0]

    for rec in follow_claims(state, bots, know, chance):
        for s in range(4):
            k = know[s]
            sp = k.open_play()
            if s != rec.seat and sp is not None and not k.counting_refutes(sp.claim):
                cons, _ = k._truth(sp.seat, sp.claim, sp.lead, pre=True)
                yield k, cons


def _holds(k: SeatKnowledge, cons) -> object:
    """The claim's constraints (as :meth:`_steps` states them) read on a count matrix."""
    kn = k.knowledge
    steps = k._steps(cons)

    def keep(n: np.ndarray) -> bool:
        for c in steps:
            ll = kn._loc(c.loc)
            got = sum(int(n[kn.deck.index(nm), ll]) for nm in k._names(c.faces))
            if (got < c.k) if c.op == "at_least" else (got > c.k):
                return False
        return True

    return keep


@pytest.mark.parametrize("seed", range(6))
def test_one_count_equals_the_chain_rule_and_brute_force(seed):
    brute = 0
    for k, cons in _claims(seed):
        joint = k._joint(cons, exact=True)
        assert joint == k._chain(cons, exact=True)
        assert k.claim_odds().probability == pytest.approx(float(joint), rel=1e-9, abs=1e-300)
        if brute < 3 and len(k._steps(cons)) > 1:  # brute force on a few (it is slow)
            brute += 1
            total = _brute(k.knowledge, False)
            assert joint == Fraction(_brute(k.knowledge, False, _holds(k, cons)), total)


def test_the_positions_exercise_claims_of_several_constraints():
    steps = [len(k._steps(c)) for seed in range(6) for k, c in _claims(seed)]
    assert len(steps) > 40 and sum(n > 1 for n in steps) > 10
