"""Distributed and common knowledge of a group by exact counting: the group's
onlookers of :meth:`games.epistemic.knowledge.GameKnowledge._group_knows`.

The onlooker who sees everything some member sees knows exactly what the group
knows distributedly (``D_G f``); the one who sees only what every member sees
knows only what is common knowledge (``C_G f``).  Checked against the explicit
model on random small histories (hypothesis), and at full size, where the
benchmark's ``D`` formulas are answered by counting.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.epistemic import GameKnowledge, explicit_model
from kripke import holds
from kripke.formulas import Common, Distributed, Know
from tests.test_epistemic import random_formula, random_history
from tests.test_whole_game_ignorance import all_atoms


def group_claims(seed: int, copies: bool) -> tuple[int, int]:
    """Every group of two or three seats and random formulas about the cards on one
    random history: the union onlooker's answers are ``D_G f`` (always given when
    the counting is exact), the common onlooker's "knows" implies ``C_G f``."""
    h = random_history(seed, copies=copies, events=6)
    pm = explicit_model(h)
    rng = random.Random(seed)
    gk = GameKnowledge(h, max_width=1, quotient_width=2**62)
    dist = common = 0
    agents = list(h.agents)
    for _ in range(6):
        group = tuple(rng.sample(agents, rng.randint(2, len(agents))))
        f = random_formula(rng, h, 0)
        if any("#" in a.args[1] for a in f.atoms()):
            continue
        d = gk._group_knows(group, f, union=True)
        if d is not None:
            assert d == holds(pm, Distributed(group, f)), (seed, group, str(f))
            dist += 1
        if gk._group_knows(group, f, union=False):
            assert holds(pm, Common(group, f)), (seed, group, str(f))
            common += 1
    return dist, common


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_group_onlookers_agree_with_the_explicit_model(seed, copies):
    group_claims(seed, copies)


def test_group_onlookers_decide_often():
    dist = common = 0
    for seed in range(30):
        d, c = group_claims(seed, seed % 2 == 0)
        dist, common = dist + d, common + c
    assert dist > 60 and common > 0


def test_distributed_knowledge_by_counting_in_game_knowledge():
    """With the structure refused, ``D_G f`` about the cards is answered by counting as
    the explicit model answers it, also where no member knows ``f`` alone."""
    joint = 0
    for seed in range(20):
        h = random_history(seed, copies=seed % 2 == 0, events=5)
        pm = explicit_model(h)
        rng = random.Random(seed)
        true = [t for t in h.atoms() if h._holds_now(h.card_formula(t))]
        for _ in range(8):
            a, b = rng.sample(list(h.agents), 2)
            f = random_formula(rng, h, 0) if rng.random() < 0.3 else " & ".join(rng.sample(true, 2))
            text = f"D_{{{a},{b}}} ({f})"
            gk = GameKnowledge(h, max_width=1, quotient_width=2**62)
            got = gk.holds(text)
            assert got == holds(pm, text), (seed, text)
            joint += got and gk.route == "counting" and not holds(pm, f"K_{a} ({f}) | K_{b} ({f})")
    assert joint > 0


def test_known_answer_a_card_two_seats_saw():
    """A card x plays face down to the pile while y looks on: that it lies there is
    common knowledge of x and y (both saw it, and the audience is public), though z,
    and so the public, does not know it; the common onlooker of x and y knows it."""
    from games.cards import Deck
    from games.epistemic import CardHistory, Move

    h = CardHistory(
        Deck(["A", "B", "C", "D"]), {"x": "A B", "y": "C", "z": "D", "pile": ""}, ["x", "y", "z"]
    )
    h = h.then(Move("A", "x", "pile", seen_by=["x", "y"]))
    pm = explicit_model(h)
    assert holds(pm, "C_{x,y} has(pile, A)") and not holds(pm, "K_z has(pile, A)")
    gk = GameKnowledge(h, max_width=1, quotient_width=2**62)
    assert gk.holds("C_{x,y} has(pile, A)") is True and gk.route == "counting"
    assert gk.holds("C_{x,z} has(pile, A)") is False


def test_full_size_classic_distributed_knowledge():
    """52-card classic BS after 16 plays: what two seats know together about a third's
    cards is decided by counting, as the union of what they saw: every card of P2's
    that P0 or P1 knows alone, the pair knows, and the pair knows some card of P2's
    that neither knows alone."""
    from benchmarks.whole_game_knowledge import plays

    h = next(h for k, h in plays("bs-classic", 0) if k == 16)
    gk = GameKnowledge(h)
    together = alone = 0
    for card in h.content()["P2"]:
        got = gk.holds(f"D_{{P0,P1}} has(P2, {card})")
        assert gk.route == "counting"
        single = gk.holds(f"K_P0 has(P2, {card}) | K_P1 has(P2, {card})")
        assert got or not single
        together += got
        alone += single
    assert together >= alone


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_one_seat_replayed_alone_counts_like_every_seat_together(seed, copies):
    """:meth:`CardHistory.seat_counting` replays one seat's observations only; its
    knowledge is the same as that seat's in :meth:`CardHistory.deal_state`."""
    from fractions import Fraction

    from games.errors import InvalidParameterError

    h = random_history(seed, copies=copies, events=7)
    try:
        ds = h.deal_state()
    except InvalidParameterError:
        return
    for a in h.agents:
        alone, together = h.seat_counting(a), ds.knowledge(a)
        assert alone.count() == together.count()
        assert alone.exact == together.exact
        for card in h.deck.names:
            for loc in h.locations:
                p = alone.probability(card, loc, exact=True)
                assert p == together.probability(card, loc, exact=True)
                assert isinstance(p, Fraction)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_facts_enter_counting_as_counts_or_as_a_relaxation(seed, copies):
    """A history with public facts: what each seat's counting knows is true in the
    explicit model, and where every fact was a conjunction of card atoms and their
    negations (the knowledge stays exact) it knows exactly what the model says."""
    counting_agrees(random_history(seed, copies=copies, events=6))


def counting_agrees(h, atoms=None):
    """Every seat's counting knows only what the explicit model says it knows, and
    knows all of it where it is exact, for the card atoms ``atoms`` (default all)."""
    pm = explicit_model(h)
    ds = h.deal_state()
    for a in h.agents:
        kn = ds.knowledge(a)
        for atom in all_atoms(h) if atoms is None else atoms:
            if "#" in atom.args[1]:
                continue
            truth = holds(pm, Know(a, atom))
            if kn.knows(atom):
                assert truth, (a, atom.key)
            elif kn.exact:
                assert not truth, (a, atom.key)


def test_a_conjunctive_fact_keeps_counting_exact():
    from games.cards import Deck
    from games.epistemic import CardHistory, Fact, Move

    h = CardHistory(
        Deck(["A", "B", "C", "D"]), {"x": "A B", "y": "C", "z": "D", "pile": ""}, ["x", "y", "z"]
    )
    h = h.then(Move("A", "x", "pile", seen_by=["x"]), Fact("has(pile, A) & ~has(pile, B)"))
    ds = h.deal_state()
    assert ds.knowledge("y").exact and ds.knows("y", h.card_formula("has(pile, A)"))
    either = h.then(Fact("has(x, B) | has(y, A)")).deal_state()  # a disjunction of counts
    assert either.knowledge("y").exact and either.knows("y", h.card_formula("has(x, B)"))
    loose = h.then(Fact("has(x, B) & has(z, D) | has(y, A)"))
    assert not loose.deal_state().knowledge("y").exact
