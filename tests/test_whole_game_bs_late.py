"""Worlds where a seat knows where a card lies after it changed hands unseen:
:func:`games.epistemic.witness.witness_followed` and
:func:`games.epistemic.witness.witness_carried`, and the kinds
:func:`games.epistemic.knowledge.rerouted` follows once the seat whose worlds are asked
about sees the whole pile the cards went into.

A witness found proves ``M_a K_b has(L, C)`` (so ``K_a ~K_b has(L, C)`` is false);
:func:`rerouted` claims ``K_a ~K_b has(L, C)``.  Both are checked against the explicit
model on random BS-like histories (face-down plays, calls, piles picked up and played
from), and at the full-size classic BS states they settle.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.epistemic import CardHistory, GameKnowledge, Move, MoveAll, Reveal, explicit_model
from games.epistemic.knowledge import rerouted
from games.epistemic.witness import witness_carried, witness_followed
from kripke import holds
from kripke.formulas import Atom, Know, Not, Possible
from tests.test_epistemic import random_history
from tests.test_whole_game_dislodged import bs_history, checked_claims
from tests.test_whole_game_facts import fact_claims
from tests.test_whole_game_ignorance import all_atoms

WITNESSES = {"followed": witness_followed, "carried": witness_carried}


def witness_claims(h: CardHistory, name: str) -> int:
    """Every world the witness ``name`` finds on ``h``, checked in the explicit model
    (``M_a K_b atom`` holds there); how many."""
    pm = explicit_model(h)
    n = 0
    for (a, b), atom in itertools.product(itertools.permutations(h.agents, 2), all_atoms(h)):
        if WITNESSES[name](h, a, b, atom):
            assert holds(pm, Possible(a, Know(b, atom))), (name, a, b, atom.key)
            n += 1
    return n


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), plays=st.integers(6, 10))
def test_counting_agrees_with_the_explicit_model_on_bs_histories(seed, plays):
    """Every ``K_a ~K_b`` and ``C_{a,b}`` of an atom that counting decides (the witnesses
    among its rules) agrees with the explicit model."""
    fact_claims(bs_history(seed, plays=plays))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), plays=st.integers(4, 8), name=st.sampled_from(sorted(WITNESSES)))
def test_witnesses_are_worlds_where_the_seat_knows(seed, plays, name):
    witness_claims(bs_history(seed, plays=plays), name)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans(), name=st.sampled_from(sorted(WITNESSES)))
def test_witnesses_on_random_histories(seed, copies, name):
    witness_claims(random_history(seed, copies=copies, events=6), name)


def test_witnesses_are_found():
    found = sum(witness_claims(bs_history(seed, plays=8), "followed") for seed in range(8))
    assert found > 50


def followed_history() -> CardHistory:
    """D is called and goes to w, which also holds the E y put down; w puts a card down
    (the A), x picks it up and puts its C down, y picks that up."""
    h = CardHistory(
        Deck(list("ABCDEFG")),
        {"w": "A B", "x": "C D", "y": "E F", "z": "G", "play": "", "pile": ""},
        ["w", "x", "y", "z"],
    )
    return h.then(
        Move("E", "y", "pile", seen_by=["y"]),
        MoveAll("pile", "w", seen_by=["w"]),
        Move("D", "x", "play", seen_by=["x"]),
        Reveal("play"),
        MoveAll("play", "w", seen_by=["w"]),
        Move("A", "w", "pile", seen_by=["w"]),
        MoveAll("pile", "x", seen_by=["x"]),
        Move("C", "x", "pile", seen_by=["x"]),
        MoveAll("pile", "y", seen_by=["y"]),
    )


def test_known_answer_the_cards_put_down_come_back_into_view():
    """D is called and goes to w, which also holds the E y put down; w puts a card down
    (the A), x picks it up and puts its C down, y picks that up.  y cannot tell whether w
    put the D down, but z cannot tell whether x passed on w's card: had w put the E down
    and x passed it on, y would have seen its E come back and known w kept the D."""
    h = followed_history()
    at = Atom("has", ("w", "D"))
    pm = explicit_model(h)
    assert not holds(pm, Know("y", at)) and holds(pm, Possible("z", Know("y", at)))
    assert witness_followed(h, "z", "y", at)
    assert GameKnowledge(h).holds("K_z ~K_y has(w, D)") is False


def test_the_walks_left_for_later_are_still_asked(monkeypatch):
    """On a long history the witnesses that walk the copies' moves come after the first try
    of the covering: the world only :func:`witness_followed` finds in the history above is
    not found without them, and is found once they are asked; the answer stays false."""
    h = followed_history()
    at = Atom("has", ("w", "D"))
    g = Not(Know("y", at))
    assert not witness_carried(h, "z", "y", at)
    gk = GameKnowledge(h)
    assert gk._witnessed("z", g, counted=False, walks=False) is False
    assert gk._witnessed("z", g, counted=False) is True
    monkeypatch.setattr("games.epistemic.knowledge.PROGRAM_FIRST_STEPS", 0)
    long = GameKnowledge(h)
    assert long._program_first("z")
    assert long.holds("K_z ~K_y has(w, D)") is False


def test_known_answer_the_seat_carried_the_card_itself():
    """z puts the A down and x picks it up; x puts a card down, which y picks up, and y
    puts one down, which x picks up.  y cannot know where the A is, but z cannot tell
    whether x put the A down and y passed it back to x."""
    h = CardHistory(
        Deck(list("ABCDEF")), {"x": "B D", "y": "C E", "z": "A F", "pile": ""}, ["x", "y", "z"]
    )
    h = h.then(
        Move("A", "z", "pile", seen_by=["z"]),
        MoveAll("pile", "x", seen_by=["x"]),
        Move("B", "x", "pile", seen_by=["x"]),
        MoveAll("pile", "y", seen_by=["y"]),
        Move("C", "y", "pile", seen_by=["y"]),
        MoveAll("pile", "x", seen_by=["x"]),
    )
    at = Atom("has", ("x", "A"))
    pm = explicit_model(h)
    assert not holds(pm, Know("y", at)) and holds(pm, Possible("z", Know("y", at)))
    assert witness_carried(h, "z", "y", at) and not witness_followed(h, "z", "y", at)
    assert GameKnowledge(h).holds("K_z ~K_y has(x, A)") is False


def test_known_answer_rerouted_follows_the_pile_the_seat_picked_up():
    """The A is called and goes to x; x puts a card down (the B), z picks the pile up and
    puts its F down, which y picks up.  z saw the B and kept it, so x may have put the A
    down instead: z knows y does not know where the A is."""
    h = CardHistory(
        Deck(list("ABCDEFG")),
        {"x": "B D", "y": "C E", "z": "A F G", "play": "", "pile": ""},
        ["x", "y", "z"],
    )
    h = h.then(
        Move("A", "z", "play", seen_by=["z"]),
        Reveal("play"),
        MoveAll("play", "x", seen_by=["x"]),
        Move("B", "x", "pile", seen_by=["x"]),
        MoveAll("pile", "z", seen_by=["z"]),
        Move("F", "z", "pile", seen_by=["z"]),
        MoveAll("pile", "y", seen_by=["y"]),
    )
    at = Atom("has", ("x", "A"))
    assert holds(explicit_model(h), Know("z", Not(Know("y", at))))
    assert rerouted(h, "y", at, within="z")
    # had z played the B on, y would have seen it: nothing is left to trade with the A
    played_on = h.prefix(5).then(
        Move("B", "z", "pile", seen_by=["z"]), MoveAll("pile", "y", seen_by=["y"])
    )
    assert not rerouted(played_on, "y", at, within="z")


@pytest.mark.parametrize(("play", "card"), [(80, "8D"), (112, "3C")])
def test_full_size_classic_bs_states_the_quotient_did_not_answer(play, card):
    """Classic BS, seed 0, plays 80 and 112: ``K_P2 ~K_P3 has(P0, X)`` is false (a world
    of P2 where P3 saw the cards P0 put down come back, or carried X to P0 itself),
    found by counting's witnesses where the local quotient ran out of time."""
    from benchmarks.whole_game_knowledge import plays

    h = next(h for k, h in plays("bs-classic", 0) if k == play)
    gk = GameKnowledge(h)
    assert gk.holds(f"K_P2 ~K_P3 has(P0, {card})") is False and gk.route == "counting"
    assert gk.holds(f"C_{{P2,P3}} has(P0, {card})") is False


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), plays=st.integers(4, 10))
def test_rerouted_claims_hold_on_bs_histories(seed, plays):
    checked_claims(
        bs_history(seed, plays=plays), lambda h, b, atom, a, kn: rerouted(h, b, atom, within=a)
    )
