"""The local card-symmetry quotient on full-size BS states (52 cards, 4 seats).

:class:`~games.epistemic.GameKnowledge` answers truth queries of a classic BS
state past the structure's width on the local quotient (route
``"local quotient"``); here its answers at states of a seeded whole game are
compared with the whole quotient (every history, the route it replaced), on
the benchmark's formulas and on random formulas of modal depth up to 2 over
the query card, with common knowledge and distributed knowledge.
"""

from __future__ import annotations

import random

import pytest

from benchmarks.whole_game_knowledge import pick_query, plays
from games.epistemic import GameKnowledge
from games.epistemic.quotient import local_holds, quotient_model
from kripke.formulas import Atom, Know
from tests.test_epistemic import random_formula


@pytest.fixture(scope="module")
def states() -> dict[int, object]:
    wanted = {12, 24, 32}
    out = {}
    for k, h in plays("bs-classic", 0):
        if k in wanted:
            out[k] = h
        if k >= max(wanted):
            break
    return out


@pytest.mark.parametrize("play", [12, 24, 32])
def test_benchmark_formulas_answer_as_the_whole_quotient(states, play):
    h = states[play]
    q = pick_query(h, play // 8)
    gk = GameKnowledge(h, counting_first=False)
    for f in q["formulas"]:
        g = gk.formula(f)
        whole = quotient_model(h, [q["card"]], agents=g.agents(), formulas=[g])
        assert gk.holds(f) == whole.holds(g), (play, f)
        assert gk.route == "local quotient"


@pytest.mark.parametrize("play", [24, 32])
def test_random_formulas_answer_as_the_whole_quotient(states, play):
    h = states[play]
    rng = random.Random(play)
    card = pick_query(h, play // 8)["card"]
    atoms = [Atom("has", (loc, card)) for loc in h.locations]
    agents = list(h.agents[:3])
    fs = [random_formula(rng, h, 2, agents=agents, atoms=atoms) for _ in range(12)]
    whole = quotient_model(h, [card], agents=agents, formulas=fs)
    for f in fs:
        assert local_holds(h, f) == whole.holds(f), (play, str(f))


def test_a_claim_naming_every_card_is_counted_not_quotiented():
    """``K_a ~claim`` names 48 cards (the claim: the play holds only fours): with the
    quotient asked first (``quotient_width=0``) it is decided by exact counting
    (route ``"counting"``) and agrees with the knowledge structure."""
    from games.base import load_game
    from games.bs import bs_claim

    state = load_game("bs", variant="classic").new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(rng.choice(list(state.legal_actions())))
    state.apply_play(1, "3C")
    state.apply_play(2, "6C")  # face down, claiming a 4
    claim = bs_claim(state)
    h = state.card_history()
    assert len({a.args[1] for a in claim.atoms()}) > 8
    fast = GameKnowledge(h, quotient_width=0)
    assert fast.who_knows(~claim) == ("P2",) and fast.route == "counting"
    ps = fast.pointed  # the knowledge structure agrees
    assert [ps.holds(Know(a, ~claim)) for a in h.agents] == [False, False, True, False]
