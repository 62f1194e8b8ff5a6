"""Estimated probabilities (:mod:`games.epistemic.estimate`): deals drawn from a
counting's superset and kept where the seat's integer program finds them possible.

Checked against exact counting on small decks (drawn from an onlooker who saw no hand,
so that most draws are rejected, the interval must hold the seat's exact probability),
and at full size on koth, where the seat's counting dropped constraints and
:meth:`GameKnowledge.probability` refuses."""

from __future__ import annotations

import random

import pytest

from games.epistemic import GameKnowledge
from games.epistemic.estimate import Estimate, estimated_probability, wilson
from games.errors import InvalidParameterError
from kripke.errors import SizeLimitError
from tests.test_epistemic import random_history
from tests.test_whole_game_copies import koth_history


def atoms_of(h, rng):
    """A random card atom or its negation about a location holding cards in some world."""
    loc = rng.choice(list(h.locations))
    card = rng.choice(list(h.deck.names))
    atom = f"has({loc}, {card})"
    return atom if rng.random() < 0.7 else f"~{atom}"


@pytest.mark.parametrize("seed", range(12))
def test_rejection_from_a_blind_onlooker_agrees_with_exact_counting(seed):
    """A blind onlooker's deals are a superset of every seat's, each weighed as the seat
    weighs it; kept where the seat's program finds them possible they are the seat's
    draws, and the 99.9% interval holds the exact probability (fixed seeds)."""
    make = random_history if seed % 2 else koth_history
    h = make(seed)
    rng = random.Random(seed)
    blind = h.onlooker_counting(h.public_locations(), lambda audience: False)
    gk = GameKnowledge(h)
    checked = 0
    for agent in h.agents:
        kn = h.seat_counting(agent)
        assert kn.exact
        f = atoms_of(h, rng)
        exact = float(kn.probability_of(h.card_formula(f), exact=True))
        e = estimated_probability(
            h, agent, f, samples=600, seed=seed, knowledge=blind, confidence=0.999
        )
        assert not e.exact_draws and e.undecided == 0
        assert e.kept + e.undecided <= e.drawn == 600
        if e.kept < 50:
            continue  # too few kept to say much: the next seat
        assert e.low <= exact <= e.high, (seed, agent, f, exact, e)
        own = gk.probability_estimate(agent, f, samples=600, seed=seed, confidence=0.999)
        assert own.exact_draws and own.kept == own.drawn == 600
        assert own.low <= exact <= own.high, (seed, agent, f, exact, own)
        checked += 1
    assert checked >= 1


def test_rejection_is_needed_where_the_blind_draws_are_not_the_seats():
    """Not vacuous: some blind draws are impossible for the seat and were left out."""
    h = koth_history(3)
    blind = h.onlooker_counting(h.public_locations(), lambda audience: False)
    e = estimated_probability(
        h, h.agents[0], f"has({h.agents[1]}, A)", samples=300, seed=0, knowledge=blind
    )
    assert e.kept < e.drawn


def test_full_size_koth_where_counting_relaxed():
    """koth seed 0 play 75: P0's counting dropped constraints, so ``probability`` of
    ``has(P1, 8)`` is refused; the estimate keeps only the deals P0 considers possible.
    P0's program shows it knows ``has(P2, 11) | has(play, 11#4)``: every kept deal meets
    it; more than half the relaxed counting's draws are deals P0 rules out."""
    from benchmarks.whole_game_knowledge import plays

    h = next(h for k, h in plays("bs-koth", 0) if k == 75)
    gk = GameKnowledge(h)
    with pytest.raises(SizeLimitError, match="P0's deals dropped"):
        gk.probability("P0", "has(P1, 8)")
    known = "has(P2, 11) | has(play, 11#4)"
    e = gk.probability_estimate("P0", known, samples=60, seed=0)
    assert not e.exact_draws and 0 < e.kept < e.drawn / 2 and e.value == 1.0
    e1 = gk.probability_estimate("P0", "has(P1, 8)", samples=40, seed=5)
    assert e1 == gk.probability_estimate("P0", "has(P1, 8)", samples=40, seed=5)  # seeded
    assert 0 <= e1.low <= e1.value <= e1.high <= 1 and e1.kept > 0
    assert "deals of 40 drawn" in str(e1)


def test_wilson_interval_known_values():
    """Wilson (1927): 0 of 10 at 95% gives (0, 0.2775); 5 of 10 gives (0.2366, 0.7634)."""
    lo, hi = wilson(0, 10, 0.95)
    assert lo == 0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(5, 10, 0.95)
    assert (lo, hi) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    assert wilson(0, 0, 0.95) == (0.0, 1.0)


def test_bad_input_is_named():
    h = koth_history(1)
    with pytest.raises(InvalidParameterError, match="samples must be"):
        estimated_probability(h, h.agents[0], "has(pile, A)", samples=0)
    with pytest.raises(InvalidParameterError, match="confidence"):
        estimated_probability(h, h.agents[0], "has(pile, A)", confidence=1.5)
    gk = GameKnowledge(h)
    with pytest.raises(InvalidParameterError, match="about knowledge"):
        gk.probability_estimate(h.agents[0], f"K_{h.agents[1]} has({h.agents[2]}, A)")
    assert isinstance(gk.probability_estimate(h.agents[0], "has(pile, A)", samples=5), Estimate)
