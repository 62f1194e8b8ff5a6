"""Witness worlds for ``M_a K_b`` and ``M_a ~K_b``: :mod:`games.epistemic.witness`.

A trade of cards that never moved, unseen by ``a``, gives another world of
``a``; ``b``'s exact counting there decides ``K_b`` in that world, so a world
found proves ``M_a K_b has(L, C)`` (``K_a ~K_b`` is false) or ``M_a ~K_b``
(``K_a K_b`` is false).  Checked against the explicit model on random small
histories of every event kind and on trick-taking histories with voids.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.epistemic import CardHistory, Count, GameKnowledge, Move, explicit_model
from games.epistemic.witness import (
    static_cards,
    traded,
    witness_absent,
    witness_knowledge,
    witness_tracked,
)
from kripke import holds
from kripke.formulas import Know, Not, Possible
from tests.test_epistemic import random_history
from tests.test_whole_game_dislodged import bs_history
from tests.test_whole_game_ignorance import all_atoms
from tests.test_whole_game_swaps import suit_history


def witness_claims(h: CardHistory) -> tuple[int, int]:
    """Every witness found on ``h``, checked in the explicit model; how many, and how
    many of them the true world alone does not show."""
    pm = explicit_model(h)
    n = beyond = 0
    for a in h.agents:
        for b in h.agents:
            if a == b:
                continue
            for atom in all_atoms(h):
                for knows in (True, False):
                    if witness_knowledge(h, a, b, atom, knows=knows):
                        g = Know(b, atom) if knows else Not(Know(b, atom))
                        assert holds(pm, Possible(a, g)), (a, b, atom.key, knows)
                        n += 1
                        beyond += not holds(pm, g)
    return n, beyond


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_witnesses_are_worlds_of_the_seat(seed, copies):
    witness_claims(random_history(seed, copies=copies, events=6))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_witnesses_with_voids(seed):
    witness_claims(suit_history(seed))


def test_witnesses_go_beyond_the_true_world():
    found = beyond = 0
    for seed in range(40):
        h = random_history(seed, copies=seed % 2 == 0, events=5) if seed % 3 else suit_history(seed)
        n, m = witness_claims(h)
        found, beyond = found + n, beyond + m
    assert found > 100 and beyond > 50


def test_known_answer_two_of_a_kind_put_down_blind():
    """x holds A and B and puts one card on z's heap without looking; y holds nothing.
    x does not know which card went (it was the B), but had x been dealt the pile's
    other B in place of its A, x would know z holds a B whichever card it put down; y
    cannot tell those deals apart, so ``K_y ~K_x has(z, B)`` is false."""
    from kripke.formulas import Atom

    d = Deck(["A", "B", "C", "D"], [1, 2, 2, 1])
    h = CardHistory(d, {"x": "A B", "y": "", "z": "C D", "pile": "B C"}, ["x", "y", "z"])
    h = h.then(Move("B", "x", "z", seen_by=[]))
    pm = explicit_model(h)
    assert not holds(pm, "K_x has(z, B)") and holds(pm, "M_y K_x has(z, B)")
    assert witness_knowledge(h, "y", "x", Atom("has", ("z", "B")), knows=True)
    gk = GameKnowledge(h, max_width=1, quotient_width=2**62)
    assert gk.holds("K_y ~K_x has(z, B)") is False and gk.route == "counting"


def test_static_cards_and_trades():
    d = Deck(["A", "B", "C"])
    h = CardHistory(d, {"x": "A", "y": "B", "z": "C"}, ["x", "y", "z"])
    assert {m: dict(c) for m, c in static_cards(h, "x").items()} == {"y": {1: 1}, "z": {2: 1}}
    t = traded(h, [("y", 1, "z", 2)])
    assert t is not None and t.content() == {"x": ("A",), "y": ("C",), "z": ("B",)}
    voided = h.then(Count("y", "B", 1, 1))
    assert traded(voided, [("y", 1, "z", 2)]) is None  # the count no longer holds


def tracked_claims(h: CardHistory) -> tuple[int, int]:
    """Every witness :func:`witness_tracked` finds on ``h``, checked in the explicit
    model; how many, and how many the untouched-card trades do not find."""
    pm = explicit_model(h)
    n = beyond = 0
    for a in h.agents:
        for b in h.agents:
            if a == b:
                continue
            for atom in all_atoms(h):
                if witness_tracked(h, a, b, atom):
                    assert holds(pm, Possible(a, Know(b, atom))), (a, b, atom.key)
                    n += 1
                    beyond += not witness_knowledge(h, a, b, atom, knows=True)
    return n, beyond


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_tracked_witnesses_on_bs_histories(seed):
    tracked_claims(bs_history(seed))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_tracked_witnesses_on_random_histories(seed, copies):
    tracked_claims(random_history(seed, copies=copies, events=6))


def test_tracked_witnesses_are_found():
    found = beyond = 0
    for seed in range(40):
        n, m = tracked_claims(bs_history(seed))
        found, beyond = found + n, beyond + m
    assert found > 20 and beyond > 10


def test_relabelled_history_trades_kinds_along_the_paths():
    from games.epistemic import MoveAll
    from games.epistemic.witness import follow_cards, relabelled

    h = CardHistory(
        Deck(["A", "B", "C"]), {"x": "A", "y": "B", "z": "C", "pile": ""}, ["x", "y", "z"]
    )
    h = h.then(Move("A", "x", "pile", seen_by=["x"]), MoveAll("pile", "y", seen_by=["y"]))
    cards = follow_cards(h, "z", "x")
    a_card = next(i for i, c in enumerate(cards) if c.kind == 0)
    c_card = next(i for i, c in enumerate(cards) if c.kind == 2)
    assert cards[a_card].at == "y" and cards[a_card].seen_b and not cards[a_card].seen_a
    t = relabelled(h, [(a_card, c_card)], "z", "x")
    assert t is not None and t.content() == {"x": (), "y": ("B", "C"), "z": ("A",), "pile": ()}
    assert t.events[0].cards == ("C",)


def absent_claims(h: CardHistory) -> int:
    """Every world :func:`witness_absent` finds on ``h`` checked in the explicit model:
    the seat then does not know the atom."""
    pm = explicit_model(h)
    n = 0
    for b in h.agents:
        for atom in all_atoms(h):
            if witness_absent(h, b, atom):
                assert holds(pm, Not(Know(b, atom))), (b, atom.key)
                n += 1
    return n


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_absent_witnesses_on_random_and_bs_histories(seed, copies):
    absent_claims(random_history(seed, copies=copies, events=6))
    absent_claims(bs_history(seed))


def test_absent_witnesses_are_found():
    assert sum(absent_claims(bs_history(seed)) for seed in range(30)) > 30
