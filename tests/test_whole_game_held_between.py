"""``C_{x,y} has(L, C)`` from the places the pair watch (:meth:`GameKnowledge._held_between`):
where ``x`` watches ``L`` (its own place, or a kitty it took up and buried) and ``y``
watches places ``M``, and what they see in common shows that ``L`` and ``M`` hold as many
copies of ``C`` between them as now, the count at ``L`` is the same in every world their
common knowledge reaches.

Checked against the explicit model on random histories and small trick-taking deals
(hypothesis; :func:`tests.test_whole_game_swaps.suit_history`), on known answers (a
public count that puts both A's with x or y; a move into x's place that x did not see;
a kitty buried by x), at full size on BoerenBridge, where the local quotient took 2 s for
the question, and on ZPY, where the kind quotient refused it.
"""

from __future__ import annotations

import itertools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.epistemic import CardHistory, Count, GameKnowledge, Move, MoveAll, explicit_model
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


def buried_history(seed: int) -> CardHistory:
    """A small deal with a kitty that x takes up and buries again (x alone sees), then
    random public plays to the pile and public counts of what a hand holds of a card
    (a seat showing out)."""
    rng = random.Random(seed)
    names = ["A", "B", "C", "D"][: rng.randint(3, 4)]
    deck = Deck(names, [2] * len(names))
    cards = list(deck.all_cards())
    rng.shuffle(cards)
    rest = cards[2:]
    deal = {"x": rest[0::3], "y": rest[1::3], "z": rest[2::3], "kitty": cards[:2], "pile": []}
    h = CardHistory(deck, deal, ["x", "y", "z"])
    h = h.then(MoveAll("kitty", "x", seen_by=["x"]))
    buried = rng.sample(list(h.content()["x"]), len(deal["kitty"]))
    h = h.then(Move(buried, "x", "kitty", seen_by=["x"]))
    for _ in range(rng.randint(1, 4)):
        cur = h.content()
        seat = rng.choice([s for s in ("x", "y", "z") if cur[s]] or ["x"])
        if rng.random() < 0.5 and cur[seat]:
            h = h.then(Move(rng.choice(cur[seat]), seat, "pile"))
        else:
            kind = rng.choice(names)
            have = cur[seat].count(kind)
            h = h.then(Count([seat], [kind], have, have))
    return h


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_a_buried_kitty_the_rule_claims_is_common_knowledge(seed):
    held_claims(buried_history(seed))


def test_the_rule_claims_of_a_buried_kitty():
    """Not vacuous: over buried kitties the rule claims facts about the kitty, which x
    watches but does not own, and among them some the public does not know."""
    from games.epistemic.knowledge import PUBLIC

    kitty = beyond = 0
    for seed in range(60):
        h = buried_history(seed)
        gk = GameKnowledge(h)
        for pair in itertools.combinations(h.agents, 2):
            for atom in all_atoms(h):
                if atom.args[0] == "kitty" and gk._held_between(pair, atom):
                    kitty += 1
                    beyond += not gk._knows(PUBLIC, atom)
    held_claims(buried_history(0))
    assert kitty >= 6 and beyond >= 2, (kitty, beyond)


def test_known_answer_a_buried_card_whose_other_copy_was_played():
    """x takes up the kitty and buries an A; z plays the other A face up, and x and z
    show that they hold no A.  The public cannot tell whether the A is in the kitty or
    with y, nor can z; y holds none, so y knows, and x saw it buried:
    ``C_{x,y} has(kitty, A)`` holds, as the explicit model says, by the counting route.
    A card y puts in the kitty unseen by x ends x's watch of it (the rule no longer
    claims, a sufficient condition only)."""
    from games.epistemic.knowledge import PUBLIC

    deal = {"x": "A B C", "y": "B C", "z": "A D", "kitty": "D", "pile": ""}
    h = CardHistory(Deck(["A", "B", "C", "D"], [2, 2, 2, 2]), deal, ["x", "y", "z"])
    h = h.then(
        MoveAll("kitty", "x", seen_by=["x"]),
        Move("A", "x", "kitty", seen_by=["x"]),
        Move("A", "z", "pile"),
        Count(["x", "z"], ["A"], 0, 0),
    )
    gk = GameKnowledge(h)
    atom = h.card_formula("has(kitty, A)")
    assert gk._held_between(("x", "y"), atom) is True
    assert holds(explicit_model(h), Common(("x", "y"), atom)) is True
    assert gk._knows(PUBLIC, atom) is False and gk.holds("K_z has(kitty, A)") is False
    assert gk.holds("C_{x,y} has(kitty, A)") is True and gk.route == "counting"

    h2 = h.then(Move("B", "y", "kitty", seen_by=["y"]))
    assert GameKnowledge(h2)._held_between(("x", "y"), atom) is False


def test_full_size_zpy_common_knowledge_of_a_buried_card_and_a_hand():
    """ZPY, 5 seats: three common-knowledge questions the kind quotient refused, each
    between a seat that watches the place (the kitty it buried, its own hand) and one
    that knows by counting, answered by the rule and the counting route."""
    from benchmarks.whole_game_knowledge import plays

    cases = [
        (2, 80, ("P1", "P2"), "has(kitty, 5S)"),
        (8, 90, ("P3", "P4"), "has(kitty, 4H)"),
        (15, 85, ("P2", "P3"), "has(P3, 10H)"),
    ]
    for seed, play, pair, text in cases:
        h = next(h for k, h in plays("zpy5", seed) if k == play)
        gk = GameKnowledge(h)
        assert gk._held_between(pair, h.card_formula(text)) is True, (seed, play)
        assert gk.holds(f"C_{{{pair[0]},{pair[1]}}} {text}") is True and gk.route == "counting"


def test_the_places_are_tried_together_only_where_the_splits_are_few(monkeypatch):
    """ZPY seed 15 play 85: P2 watches its hand, the kitty it buried and the cards played
    face up (empty at the deal, every card put there seen by all).  The rule asks about
    those places together with P3's hand first; where the ways to split the copies over
    them exceed ``MAX_SPLITS`` it asks about each place alone."""
    from benchmarks.whole_game_knowledge import plays
    from games.epistemic import knowledge

    h = next(h for k, h in plays("zpy5", 15) if k == 85)
    atom = h.card_formula("has(P3, 10H)")
    asked: list[list[str]] = []
    real = knowledge._copies_sum

    def spy(h, places, k):
        asked.append(list(places))
        return real(h, places, k)

    monkeypatch.setattr(knowledge, "_copies_sum", spy)
    assert GameKnowledge(h)._held_between(("P2", "P3"), atom) is True
    assert asked[0] == ["P3", "P2", "kitty", "played"]
    asked.clear()
    monkeypatch.setattr(knowledge, "MAX_SPLITS", 1)
    GameKnowledge(h)._held_between(("P2", "P3"), atom)
    assert asked and all(len(places) == 2 for places in asked), asked
