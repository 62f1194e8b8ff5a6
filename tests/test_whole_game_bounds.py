"""How many copies of a kind may lie, and must lie, at every place at every moment in
the worlds a seat considers possible: :func:`games.epistemic.knowledge._copies_bounds`,
and the rules that read it.

The bounds are checked against every history the seat cannot tell from the true
one, enumerated event by event with the explicit route's own branching (the card
counts of every place after every event), on random histories with every event
kind and on koth-like relays.  A copy revealed later lay where it came from:
:func:`~games.epistemic.knowledge.never_known` no longer lets a seat's copy travel
with a card it put down before that reveal, and the claims it makes then are checked
against the explicit model.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.epistemic import CardHistory, Move, MoveAll, Reveal, explicit_model
from games.epistemic.explicit import _branch, _initial_deals, _true_history
from games.epistemic.knowledge import _copies_bounds, _copies_marked, never_known
from kripke import holds
from kripke.formulas import Atom, Know, Not
from tests.test_epistemic import random_history
from tests.test_whole_game_koth_relays import relay_history


def trajectories(h: CardHistory, seat: str) -> list[list[dict[str, tuple[int, ...]]]]:
    """The card counts of every place after every event (index ``t``: after ``t``
    events) in every history ``seat`` cannot tell from the true one."""
    i = h.agents.index(seat)
    true_obs = _true_history(h)[1][i]
    out = []
    for start in _initial_deals(h):
        paths = [([start], tuple(("deal", loc, start[loc]) for loc in h.owns[seat]))]
        for st_ in h.steps:
            paths = [
                ([*deals, deal2], obs + tok[i])
                for deals, obs in paths
                for deal2, tok in _branch(h, st_, deals[-1])
            ]
        out.extend(deals for deals, obs in paths if obs == true_obs)
    return out


def check_bounds(h: CardHistory) -> int:
    """Every bound against every world of every seat; how many worlds were checked."""
    n = 0
    for seat in h.agents:
        worlds = trajectories(h, seat)
        assert worlds, seat  # the true history is one of them
        for x in range(len(h.deck.copies)):
            most, least = _copies_bounds(h, x, seat)
            assert len(most) == len(least) == len(h.steps) + 1
            for deals in worlds:
                for t, deal in enumerate(deals):
                    for m in h.locations:
                        have = deal[m].count(x)
                        assert least[t][m] <= have <= most[t][m], (seat, h.deck.name(x), t, m)
                n += 1
    return n


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_the_bounds_hold_in_every_world_of_random_histories(seed, copies):
    check_bounds(random_history(seed, max_cards=7, copies=copies, events=6))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_the_bounds_hold_in_every_world_of_relays(seed):
    check_bounds(relay_history(seed, plays=5))


def test_a_copy_revealed_later_stayed_where_it_was():
    # x and z hold one A each; x puts two cards down unseen (keeping its A, as the later
    # reveal shows), z puts its A down, and y picks the pile up.  In every world of z
    # the A that y holds is z's, which x never saw: x cannot know that y holds an A
    # (z keeps cards x never saw to trade it with), and z knows it.
    deck = Deck(["A", "B", "C", "D", "E", "F"], [2, 1, 1, 1, 1, 1])
    h = CardHistory(
        deck,
        {"x": "A B C", "y": "D", "z": "A E F", "pile": "", "play": ""},
        ["x", "y", "z"],
    )
    h = h.then(
        Move("B C", "x", "pile", seen_by=["x"]),
        Move("A", "z", "pile", seen_by=["z"]),
        MoveAll("pile", "y", seen_by=["y"]),
        Move("A", "x", "play", seen_by=["x"]),
        Reveal("play"),
    )
    most, least = _copies_bounds(h, 0, "z")
    assert least[0]["x"] == least[1]["x"] == 1  # x kept its A at the first move
    assert most[1]["pile"] == 0 and most[3]["y"] == least[3]["y"] == 1
    assert _copies_marked(h, "x", 0, "z", "y")[0] == 0  # no A at y that x saw
    has_y_a = Atom("has", ("y", "A"))
    assert never_known(h, "x", has_y_a, within="z")
    assert holds(explicit_model(h), Know("z", Not(Know("x", has_y_a))))
    assert check_bounds(h) == 108  # worlds x kinds, over the three seats
