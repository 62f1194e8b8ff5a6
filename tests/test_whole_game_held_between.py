"""``C_{x,y} has(L, C)`` from the pair's own hands (:meth:`GameKnowledge._held_between`):
where ``x`` and ``y`` each watch their own place and what they see in common shows that
the two places hold every copy of ``C``, the count at ``x``'s place is the same in every
world their common knowledge reaches.

Checked against the explicit model on random histories and small trick-taking deals
(hypothesis; :func:`tests.test_whole_game_swaps.suit_history`), on known answers (a
public count that puts both A's with x or y; a move into x's place that x did not see),
and at full size on BoerenBridge, where the local quotient took 2 s for the question.
"""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.epistemic import CardHistory, Count, GameKnowledge, Move, explicit_model
from kripke import holds
from kripke.formulas import Common
from tests.test_epistemic import random_history
from tests.test_whole_game_ignorance import all_atoms
from tests.test_whole_game_swaps import suit_history


def held_claims(h: CardHistory) -> tuple[int, int]:
    """Every pair of seats and card atom of ``h``: where the rule claims ``C_pair atom``,
    the explicit model agrees; how many it claimed, and how many hold."""
    pm = explicit_model(h)
    gk = GameKnowledge(h)
    claimed = true = 0
    for pair in itertools.combinations(h.agents, 2):
        for atom in all_atoms(h):
            truth = holds(pm, Common(pair, atom))
            if gk._held_between(pair, atom):
                assert truth, (pair, atom.key)
                claimed += 1
            true += truth
    return claimed, true


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_what_the_rule_claims_is_common_knowledge(seed, copies):
    held_claims(random_history(seed, copies=copies, events=6))
    held_claims(suit_history(seed, 2 + seed % 5))


def test_the_rule_claims_often():
    """Not vacuous: on small trick-taking deals (two and four cards played) the rule
    claims many common-knowledge facts, among them some that neither the public nor the
    pair's shared view knows."""
    from games.epistemic.knowledge import PUBLIC

    claimed = beyond = 0
    for seed, events in itertools.product(range(30), (2, 4)):
        h = suit_history(seed, events)
        c, _ = held_claims(h)
        claimed += c
        gk = GameKnowledge(h)
        for pair in itertools.combinations(h.agents, 2):
            for atom in all_atoms(h):
                if gk._held_between(pair, atom) and not gk._knows(PUBLIC, atom):
                    beyond += 1
    assert claimed >= 35 and beyond >= 15, (claimed, beyond)


def test_known_answer_a_public_count_puts_the_copies_with_the_pair():
    """x and y are told that the two A's are with them: each sees its own hand, so
    ``C_{x,y} has(x, A)`` holds where x has one, though z (and the public) cannot say
    whether x or y holds it; it fails once x's hand took a card x did not see."""
    deal = {"x": "A B", "y": "A C", "z": "B C", "pile": ""}
    h = CardHistory(Deck(["A", "B", "C"], [2, 2, 2]), deal, ["x", "y", "z"])
    h = h.then(Count(["x", "y"], ["A"], 2, 2))
    gk = GameKnowledge(h)
    atom = h.card_formula("has(x, A)")
    assert gk._held_between(("x", "y"), atom) is True
    assert holds(explicit_model(h), Common(("x", "y"), atom)) is True
    assert gk.holds("C_{x,y} has(x, A)") is True
    assert gk.holds("K_z has(x, A)") is False

    h2 = h.then(Move("B", "z", "x", seen_by=["z"]))  # x did not see what came in
    assert GameKnowledge(h2)._held_between(("x", "y"), atom) is False


def test_full_size_boerenbridge_common_knowledge_of_a_hand():
    """BoerenBridge seed 3, play 202: ``C_{South,West} has(West, KS)`` holds (the local
    quotient's answer, 2 s), and the pair's own hands show it by counting."""
    from benchmarks.whole_game_knowledge import plays

    h = dict(plays("boerenbridge", 3))[202]
    gk = GameKnowledge(h)
    assert gk._held_between(("South", "West"), h.card_formula("has(West, KS)")) is True
    assert gk.holds("C_{South,West} has(West, KS)") is True and gk.route == "counting"
