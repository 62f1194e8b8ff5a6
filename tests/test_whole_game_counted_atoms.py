"""Exact counting of "at least k copies" atoms, true announcements of card facts, and
knowledge of what no world allows: each checked against the explicit model.

* ``K_a has(L, C#k)`` (at least ``k`` copies of ``C`` at ``L``), its negation, a
  group's distributed knowledge of it and a seat's probability of it come from the
  distribution of ``C``'s copies at ``L`` (:mod:`games.deal` reads plain ``has(L, C)``);
* ``[!p] q`` and ``<!p> q`` with ``q`` about the cards are ``q`` at the true state once
  ``p`` is true there (an announcement removes worlds, not cards);
* ``~K_a f``, ``~E_G f``, ``~C_G f`` and ``~D_G f`` hold in every world when ``~f`` does
  (what is known is true), so ``M_b E_G has(pile, C)`` is false while the pile is empty.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games.epistemic import GameKnowledge
from games.epistemic.explicit import explicit_model
from kripke import holds
from kripke.formulas import (
    Announce,
    AnnounceDiamond,
    Atom,
    Common,
    Distributed,
    Everybody,
    Know,
    Not,
    Possible,
)
from tests.test_epistemic import random_formula
from tests.test_epistemic_games import SHORT_GAMES, random_point


def copies_atoms(h) -> list[Atom]:
    """The "at least k copies" atoms of the history (``has(L, C#k)``, k >= 2)."""
    return [Atom("has", tuple(t[4:-1].split(", "))) for t in h.atoms() if "#" in t]


def groups(rng: random.Random, agents) -> tuple[str, ...]:
    return tuple(rng.sample(list(agents), rng.randint(1, len(agents))))


def formulas(rng: random.Random, h) -> list:
    """Formulas the three rules decide, mixed with random ones over the same atoms."""
    atoms = copies_atoms(h)
    agents = h.agents
    out = []
    for _ in range(6):
        a = rng.choice(atoms)
        lit = Not(a) if rng.random() < 0.5 else a
        seat = rng.choice(agents)
        out += [
            Know(seat, lit),
            Possible(seat, lit),
            Distributed(groups(rng, agents), lit),
            Not(Distributed(groups(rng, agents), lit)),
            Announce(random_formula(rng, h, 1, atoms=atoms), lit),
            AnnounceDiamond(random_formula(rng, h, 1, atoms=atoms), lit),
            Possible(rng.choice(agents), Everybody(groups(rng, agents), lit)),
            Not(Common(groups(rng, agents), lit)),
            random_formula(rng, h, 2, atoms=atoms),
        ]
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_counting_decides_copies_atoms_like_the_explicit_model(seed):
    rng = random.Random(seed)
    h = random_point(SHORT_GAMES["koth"](), seed, max_plays=6).card_history()
    pm = explicit_model(h)
    gk = GameKnowledge(h)
    decided = 0
    for f in formulas(rng, h):
        want = holds(pm, f)
        got = gk._by_counting(gk.formula(f))
        if got is not None:
            decided += 1
            assert got == want, (seed, str(f))
        assert gk.holds(f) == want, (seed, str(f))
    assert decided > 0


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
@example(seed=2605)  # P2's counting drops constraints; its integer program knows the atom false
def test_probabilities_of_copies_atoms_equal_the_structures(seed):
    """With the structure refused (``max_width=1``) a seat's probability of
    ``has(L, C#k)`` comes from counting; it equals the structure's, exactly."""
    rng = random.Random(seed)
    h = random_point(SHORT_GAMES["koth"](), seed, max_plays=6).card_history()
    full = GameKnowledge(h)
    counted = GameKnowledge(h, max_width=1)
    for _ in range(4):
        a = rng.choice(copies_atoms(h))
        f = Not(a) if rng.random() < 0.5 else a
        seat = rng.choice(h.agents)
        assert counted.probability(seat, f) == full.probability(seat, f), (seed, str(f))


def test_a_true_announcement_of_cards_leaves_the_cards():
    """At a koth state where the structure took 10 s: the announcement is true, so
    ``[!p] has(pile, 10#2)`` is ``has(pile, 10#2)``, settled on the true deal; two
    cards lie in play, so no world has four 8s there and nobody can know it."""
    from tests.test_epistemic_playouts import playout

    s = playout("bs", 1000, 10, variant="koth")
    h = s.card_history()
    assert len(h.content()["play"]) == 2
    gk = GameKnowledge(h)
    f = "[!has(pile, 6#3) -> has(P1, 10#2)] has(pile, 10#2)"
    assert gk.holds(f) == h._holds_now(gk.formula("has(pile, 10#2)"))
    assert gk.route == "counting"
    assert gk.holds("M_P1 E_{P3,P0,P1,P2} has(play, 8#4)") is False
    assert gk.route == "counting"
    assert gk.holds("~C_{P0,P2} has(play, 8#4) & ~D_{P1,P3} has(play, 8#4)")
