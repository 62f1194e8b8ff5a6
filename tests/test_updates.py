"""Announcements, action models, product update and bisimulation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kripke.errors import InvalidModelError, PreconditionError
from kripke.formulas import Action, Atom, Iff, Implies, Know, conj
from kripke.models import KripkeModel, PointedModel
from kripke.parser import parse
from kripke.semantics import holds, is_valid, truth_set
from kripke.updates import (
    ActionModel,
    announce,
    announce_all,
    bisimulation_classes,
    is_bisimilar,
    minimize,
    private_announcement,
    product_update,
    public_announcement,
    semi_private_announcement,
    show_card,
    shown_event,
)
from tests.naive import NaiveModel
from tests.strategies import AGENTS, formulas, models, pointed_models

p, q = Atom("p"), Atom("q")


def two_worlds() -> PointedModel:
    m = KripkeModel.from_partitions(
        ["w1", "w2"], {"w1": ["p"]}, {"a": [["w1", "w2"]], "b": [["w1", "w2"]]}
    )
    return PointedModel(m, "w1")


def test_announce_restricts_and_checks_precondition():
    pm = two_worlds()
    after = announce(pm, "p")
    assert after.model.worlds == ["w1"] and after.actual == "w1"
    assert holds(after, "C_{a,b} p")
    with pytest.raises(PreconditionError, match="false at the actual world 'w1'"):
        announce(pm, "~p")
    # skipping the check keeps the surviving designated worlds, but never none
    pm2 = PointedModel(pm.model, {"w1", "w2"})
    assert announce(pm2, "~p", check=False).designated == ["w2"]
    with pytest.raises(PreconditionError):
        announce(pm, "~p", check=False)


def test_announce_sequence_equals_nested():
    pm = two_worlds()
    assert announce_all(pm, ["p | ~p", "p"]).model.worlds == ["w1"]


def test_moores_sentence_is_unsuccessful():
    # "p and you don't know it" becomes false once announced (Moore; van Ditmarsch & Kooi 2006)
    pm = two_worlds()
    moore = parse("p & ~K_a p")
    assert holds(pm, moore)
    assert holds(pm, f"[!{moore}] ~({moore})")


@given(models(), formulas(max_leaves=6), formulas(max_leaves=6))
@settings(max_examples=100, deadline=None)
def test_public_announcement_action_model_equals_announcement(m, f, g):
    A = public_announcement(f, m.agents, name="A")
    assert truth_set(m, Action(A, ("e",), g)) == truth_set(m, parse(f"[!{f}] ({g})"))


@given(models(), formulas(max_leaves=5), formulas(max_leaves=5), st.sampled_from(AGENTS))
@settings(max_examples=100, deadline=None)
def test_action_models_agree_with_naive_product(m, f, g, a):
    for A in (
        private_announcement(f, [a], m.agents, name="A"),
        semi_private_announcement(f, [a], m.agents, name="A"),
    ):
        for e in A.events:
            h = Action(A, (e,), g)
            assert truth_set(m, h) == frozenset(NaiveModel.of(m).truth(h))


@given(models(), formulas(max_leaves=5), st.sampled_from(AGENTS))
@settings(max_examples=100, deadline=None)
def test_action_model_reduction_axiom_for_knowledge(m, g, a):
    """[A,e] K_a g <-> (pre(e) -> AND_{e R_a f} K_a [A,f] g) (Baltag, Moss & Solecki 1998)."""
    A = semi_private_announcement(p, ["b"], m.agents, name="A")
    for e in A.events:
        src, dst = A.rel[a].edges()
        succ = [
            A.events[d]
            for s_, d in zip(src.tolist(), dst.tolist(), strict=False)
            if A.events[s_] == e
        ]
        rhs = Implies(A.precondition(e), conj(Know(a, Action(A, (f,), g)) for f in succ))
        assert is_valid(m, Iff(Action(A, (e,), Know(a, g)), rhs))


def test_private_announcement_outsider_unaware():
    pm = two_worlds()
    A = private_announcement(p, ["a"], ["a", "b"])
    after = product_update(pm, A, "e")
    assert holds(after, "K_a p")
    assert holds(after, "~K_b p & K_b ~K_a p")  # b believes nothing happened
    assert not after.model.is_s5("b")


def test_semi_private_announcement():
    pm = two_worlds()
    A = semi_private_announcement(p, ["a"], ["a", "b"])
    after = product_update(pm, A)
    assert holds(after, "K_a p & ~K_b p & K_b Kw_a p")
    assert after.model.is_s5()
    assert holds(pm, parse("[A,{yes,no}] K_b Kw_a p", actions={"A": A}))


def test_show_card():
    # alice holds one of three cards and shows it to bob; cath sees that a card was shown
    worlds = ["x", "y", "z"]
    val = {w: [f"has(alice, {w})"] for w in worlds}
    m = KripkeModel.from_partitions(
        worlds, val, {a: [worlds] for a in ("bob", "cath")} | {"alice": [[w] for w in worlds]}
    )
    pm = PointedModel(m, "y")
    cards = [f"has(alice, {w})" for w in worlds]
    A = show_card(cards, "has(alice, y)", "bob", ["alice", "bob", "cath"])
    after = product_update(pm, A, shown_event(A, "has(alice, y)"))
    assert holds(after, "K_bob has(alice, y) & ~K_cath has(alice, y)")
    assert holds(after, "K_cath (Kw_bob has(alice, x) & Kw_bob has(alice, y))")


def test_factual_change():
    pm = two_worlds()
    flip = ActionModel("Flip", {"e": "top"}, {"a": [["e"]], "b": [["e"]]}, {"e": {"p": "~p"}})
    after = product_update(pm, flip)
    assert holds(after, "~p") and truth_set(after, "p") == {("w2", "e")}
    assert holds(pm, parse("[F,e] ~p", actions={"F": flip}))


def test_action_model_errors():
    with pytest.raises(InvalidModelError, match="agent 'b'"):
        product_update(two_worlds(), ActionModel("A", {"e": "top"}, {"a": [["e"]]}))
    with pytest.raises(PreconditionError):
        product_update(two_worlds(), ActionModel("A", {"e": "~p"}, {"a": [["e"]], "b": [["e"]]}))
    with pytest.raises(Exception, match="unknown event 'x'"):
        ActionModel("A", {"e": "top"}, {"a": [["e", "x"]]})


@given(pointed_models(), formulas(max_leaves=8))
@settings(max_examples=150, deadline=None)
def test_minimize_preserves_every_formula(pm, f):
    small = minimize(pm)
    assert small.model.num_worlds <= pm.model.num_worlds
    assert holds(small, f) == holds(pm, f)
    assert is_bisimilar(small, pm)


def test_minimize_muddy_children_after_announcements():
    from kripke.puzzles import muddy_children

    pm = muddy_children(3)
    m = pm.model
    # two copies of the same model are bisimilar; contraction of an S5 model stays S5
    assert is_bisimilar(pm, PointedModel(m, pm.actual))
    assert minimize(pm).model.is_s5()
    assert len(bisimulation_classes(m)) == 8


def test_not_bisimilar():
    m = two_worlds()
    other = PointedModel(m.model, "w2")
    assert not is_bisimilar(m, other)
