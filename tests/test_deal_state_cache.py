"""Deal states built from the previous one (:meth:`CardHistory.deal_state` keeps its
last few states and applies only a continuing history's new events) agree with
states built from scratch, and every call's state is independent of the kept one."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.epistemic.history import CardHistory, Move, clear_deal_states
from tests.test_epistemic import AGENTS, random_history


def _summary(ds) -> list:
    return [
        (ds.knowledge(a).signature(), ds.knowledge(a).count(), ds.knowledge(a).relaxations)
        for a in ds.agents
    ]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9))
def test_each_prefix_built_on_the_last_agrees_with_a_fresh_build(seed):
    h = random_history(seed, events=9)
    clear_deal_states()
    grown = [_summary(h.prefix(n).deal_state()) for n in range(len(h.events) + 1)]
    fresh = []
    for n in range(len(h.events) + 1):
        clear_deal_states()
        fresh.append(_summary(h.prefix(n).deal_state()))
    assert grown == fresh


def test_a_returned_state_is_the_callers_own():
    from games.cards import Deck

    h = CardHistory(Deck(["A", "B", "C"]), {"x": "A B", "y": "C", "pile": ""}, AGENTS[:2])
    clear_deal_states()
    ds = h.deal_state()
    ds.move("A", "x", "pile", seen_by=["x"])  # the caller's own event, not the history's
    assert h.deal_state().knowledge("y").count() == 1
    later = h.then(Move("B", "x", "pile", seen_by=["x"]))
    assert later.deal_state().knowledge("y").count() == 2
    clear_deal_states()
    assert later.deal_state().knowledge("y").count() == 2


def test_a_history_that_differs_earlier_is_built_anew():
    from games.cards import Deck

    h = CardHistory(Deck(["A", "B", "C"]), {"x": "A B", "y": "C", "pile": ""}, AGENTS[:2])
    clear_deal_states()
    played_a = h.then(Move("A", "x", "pile", seen_by=["x", "y"]))
    assert not played_a.deal_state().knowledge("y").possible("has(pile, B)")
    played_b = h.then(Move("B", "x", "pile", seen_by=["x", "y"]))  # same deal, another event
    assert not played_b.deal_state().knowledge("y").possible("has(pile, A)")
    assert played_a.deal_state().knowledge("y").possible("has(x, B)")
