"""Public facts in :func:`games.epistemic.knowledge.never_known`.

A fact's conjunct ``has(M, C#j)`` (a count's lower bound on one card at one place)
shows ``j`` copies of ``C`` at ``M`` as a public show does, and a conjunct that only
denies card atoms (a void, ``~(p | q)``, a count's upper bound) of places none of the
cards at the asked location can have been at then bars no kind from the trade.
Within a seat's worlds, the seat's own cards of kinds nothing bars are partners
enough on their own.  Every claim of the rule is checked against the explicit model
on random histories with face-down moves, shows, claims and voids, with the facts as
they were stated and written as counts.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.epistemic import CardHistory, Fact, Move, MoveAll, explicit_model
from games.epistemic.knowledge import never_known
from kripke import holds, is_valid
from kripke.formulas import Atom, Know, Not
from tests.test_whole_game_facts import claim_history, fact_history
from tests.test_whole_game_ignorance import claims


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_what_the_rule_claims_on_claim_histories_holds(seed):
    h = claim_history(seed, events=6)
    claims(h)
    claims(h.facts_as_counts())


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_what_the_rule_claims_on_histories_with_facts_holds(seed, copies):
    h = fact_history(seed, copies)
    claims(h)
    claims(h.facts_as_counts())


def test_the_rule_claims_often_on_claim_histories():
    """The claim histories' true claims and voids no longer keep the rule from claiming."""
    assert sum(claims(claim_history(seed, events=6)) for seed in range(12)) > 100


def test_known_answer_a_true_claim_and_a_void_elsewhere():
    """x puts a B down and claims it truly; the table hears that y holds no C.  y does
    not know that z holds the A (it may be x's C), and every seat knows that: the
    claimed B is shown, the void is about y's hand, where z's card never was.  The
    same void of z's hand tells y that z holds the A."""
    d = Deck(["A", "B", "C", "D"], [1, 2, 1, 1])
    h = CardHistory(d, {"x": "B C", "y": "D B", "z": "A", "down": "", "pile": ""}, ["x", "y", "z"])
    h = h.then(Move("B", "x", "down", seen_by=["x"]))
    has_z_a = Atom("has", ("z", "A"))
    elsewhere = h.then(Fact("has(down, B) & ~has(y, C)")).then(MoveAll("down", "pile"))
    assert never_known(elsewhere, "y", has_z_a)
    assert all(never_known(elsewhere, "y", has_z_a, within=s) for s in "xz")
    assert is_valid(explicit_model(elsewhere).model, Not(Know("y", has_z_a)))
    here = h.then(Fact("has(down, B) & ~has(z, C)")).then(MoveAll("down", "pile"))
    assert not never_known(here, "y", has_z_a)
    assert holds(explicit_model(here), "K_y has(z, A)")
    for g in (elsewhere, here):
        claims(g)


def test_known_answer_the_seat_s_own_card_is_the_partner():
    """y holds the D and both Es; the table hears that z holds no E.  Counted over the
    table the Es y holds leave no partner for z's A, but x holds the C, which nothing
    names and y never saw: in every world x considers possible, y cannot tell z's A
    from x's C."""
    d = Deck(["A", "C", "D", "E"], [1, 1, 1, 2])
    h = CardHistory(d, {"x": "C", "y": "D E E", "z": "A"}, ["x", "y", "z"])
    has_z_a = Atom("has", ("z", "A"))
    for g in (h.then(Fact("~has(z, E)")), h.then(Fact("~has(z, E)")).facts_as_counts()):
        assert not never_known(g, "y", has_z_a)
        assert never_known(g, "y", has_z_a, within="x")
        assert holds(explicit_model(g), "K_x ~K_y has(z, A)")
        claims(g)
