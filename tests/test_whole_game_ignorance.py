"""A seat that never saw a card cannot know where it is: the rule
:func:`games.epistemic.knowledge.never_known` and the depth-2 formulas it decides.

``never_known(h, b, has(L, C#k))`` claims that ``~K_b has(L, C#k)`` holds in
every world of ``h`` (with ``within=a``: in every world ``a`` considers
possible, so ``K_a ~K_b has(L, C#k)``); checked against the explicit model on
random small histories with every event kind, and on
full-size koth (13 ranks of 4 copies), where ``K_a ~K_b has(c, X)`` is then
answered by exact counting, before any quotient is built.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.epistemic import CardHistory, GameKnowledge, Move, MoveAll, Reveal, explicit_model
from games.epistemic.history import card_key
from games.epistemic.knowledge import never_known
from kripke import holds, is_valid
from kripke.formulas import Atom, Know, Not
from tests.test_epistemic import random_formula, random_history


def all_atoms(h: CardHistory) -> list[Atom]:
    d = h.deck
    return [
        Atom("has", (loc, card_key(c, j, d.copies[d.index(c)])))
        for loc in h.locations
        for c in d.names
        for j in range(1, d.copies[d.index(c)] + 1)
    ]


def claims(h: CardHistory) -> int:
    """Check every claim of the rule on ``h`` against the explicit model; how many."""
    pm = explicit_model(h)
    n = 0
    for b in h.agents:
        for a in all_atoms(h):
            if never_known(h, b, a):
                assert is_valid(pm.model, Not(Know(b, a))), (b, a.key)
                n += 1
            for c in h.agents:  # within c's worlds: K_c ~K_b
                if never_known(h, b, a, within=c):
                    assert holds(pm, Know(c, Not(Know(b, a)))), (c, b, a.key)
                    n += 1
    return n


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_what_the_rule_claims_holds_in_every_world(seed, copies):
    claims(random_history(seed, copies=copies, events=7))


def test_the_rule_claims_often_and_counts_mark_or_bar():
    """A count about the card marks its locations; one about other kinds bars those kinds
    from the trade."""
    made = sum(claims(random_history(seed, copies=seed % 2 == 0, events=5)) for seed in range(30))
    assert made > 50
    from games.epistemic import Count

    d = Deck(["A", "B", "C", "D"], [2, 2, 2, 2])
    h = CardHistory(d, {"x": "A B", "y": "A C C D", "z": "B D", "pile": ""}, ["x", "y", "z"])
    has_z_a = Atom("has", ("z", "A"))
    assert never_known(h, "x", has_z_a)
    assert never_known(h.then(Count(["y"], ["D"], 1, 1)), "x", has_z_a)
    assert not never_known(h.then(Count(["y"], ["C", "D"], 3, 3)), "x", has_z_a)
    assert not never_known(h.then(Count(["z"], ["A"], 0, 0)), "x", has_z_a)
    for g in (h, h.then(Count(["y"], ["D"], 1, 1)), h.then(Count(["z"], ["A"], 0, 0))):
        claims(g)


def test_a_seat_that_saw_the_card_go_there_may_know():
    """The rules' known answer: after a caught lie the liar's cards are picked up by the
    caller; the liar saw them go, so the rule makes no claim there, and the caller's
    pickup of a revealed play marks every card of it for everybody."""
    d = Deck(["A", "B", "C", "D"], [2, 2, 2, 2])
    h = CardHistory(
        d, {"x": "A B C", "y": "A B D", "z": "C D", "play": "", "pile": ""}, ["x", "y", "z"]
    )
    h = h.then(Move("A", "x", "play", seen_by=["x"]))
    has_z_a = Atom("has", ("z", "A"))
    assert never_known(h, "y", has_z_a)
    caught = h.then(Reveal("play")).then(MoveAll("play", "z", seen_by=["z"]))
    assert not never_known(caught, "x", has_z_a) and not never_known(caught, "y", has_z_a)
    pm = explicit_model(caught)
    assert holds(pm, "K_x has(z, A) & K_y has(z, A)")
    quiet = h.then(MoveAll("play", "pile")).then(MoveAll("pile", "z", seen_by=["z"]))
    assert not never_known(quiet, "x", has_z_a)  # x played it into the pile z took
    assert never_known(quiet, "y", has_z_a)
    assert holds(explicit_model(quiet), "K_x has(z, A) & K_x ~K_y has(z, A)")


def test_game_knowledge_decides_nested_ignorance_by_counting_like_the_explicit_model():
    """With the structure refused, ``K_a ~K_b`` / ``M_a K_b`` formulas the rule settles are
    answered by counting (route ``"counting"``), as the explicit model answers them."""
    decided = 0
    for seed in range(12):
        h = random_history(seed, copies=seed % 2 == 0, events=5)
        pm = explicit_model(h)
        rng = random.Random(seed)
        for _ in range(8):
            a, b = rng.sample(list(h.agents), 2)
            atom = rng.choice(all_atoms(h))
            for f in (f"K_{a} ~K_{b} {atom.key}", f"M_{a} K_{b} {atom.key}"):
                gk = GameKnowledge(h, max_width=1, quotient_width=2**62)
                got = gk.holds(f)
                assert got == holds(pm, f), (seed, f)
                decided += gk.route == "counting"
        for _ in range(4):  # and every other formula still answers alike
            f = random_formula(rng, h, 2)
            assert GameKnowledge(h, max_width=1).holds(f) == holds(pm, f), (seed, str(f))
    assert decided > 10


def test_full_size_koth_after_eight_plays_is_answered_by_counting():
    """52-card koth after 8 plays (no call yet): the kind quotient's pass exceeds
    600,000 states there, the rule answers ``K_P1 ~K_P2 has(P3, 1)`` at once."""
    from benchmarks.whole_game_knowledge import plays

    h = next(h for k, h in plays("bs-koth", 0) if k == 8)
    gk = GameKnowledge(h)
    assert gk.holds("K_P1 ~K_P2 has(P3, 1)") is True
    assert gk.route == "counting"
    assert gk.holds("M_P1 K_P2 has(P3, 1)") is False


def test_late_classic_states_are_decided_by_counting():
    """Classic BS (seed 0) from play 40 on, every 8th play: the benchmark's formulas
    ``K_a ~K_b has(c, X)`` and ``C_{a,b} has(c, X)`` are decided by exact counting at
    several states (the local quotient took more than 100 s after 56 plays), and
    ``K_a ~K_b`` decided true is what a rule within ``a``'s worlds shows
    (:func:`never_known` or the later ones, ``GameKnowledge._unknown``)."""
    from benchmarks.whole_game_knowledge import pick_query, plays

    decided = 0
    for k, h in plays("bs-classic", 0):
        if k > 72:
            break
        if k < 40 or k % 8:
            continue
        q = pick_query(h, k // 8)
        gk = GameKnowledge(h)
        first, common = (gk._by_counting(gk.formula(f)) for f in q["formulas"])
        if first is True:
            atom = gk.formula(q["formulas"][0]).arg.arg.arg
            a, b = q["a"], q["b"]
            assert never_known(h, b, atom, within=a) or gk._unknown(b, atom, a)
        decided += (first is not None) + (common is not None)
    assert decided >= 4


def test_probabilities_of_knowledge_where_counting_settles_them():
    """With the structure refused, a seat's probability of a formula about knowledge is 1
    (0) where counting shows it true (false) in every world of the seat, and ``K_b p``
    where ``b`` always sees ``p``'s places is ``p``'s probability, exactly as the structure
    gives them; elsewhere the refusal stands."""
    from fractions import Fraction

    from kripke.errors import SizeLimitError

    settled = 0
    for seed in range(10):
        h = random_history(seed, copies=seed % 2 == 0, events=5)
        full, narrow = GameKnowledge(h), GameKnowledge(h, max_width=1)
        rng = random.Random(seed)
        for _ in range(6):
            a, b = rng.sample(list(h.agents), 2)
            atom = rng.choice(all_atoms(h))
            for f in (f"K_{b} {atom.key}", f"~K_{b} {atom.key}"):
                try:
                    p = narrow.probability(a, f)
                except SizeLimitError:
                    continue
                assert p == full.probability(a, f), (seed, a, f)
                assert isinstance(p, Fraction) and narrow.probability(a, f, exact=False) == p
                settled += 1
    assert settled > 10


def test_full_size_koth_probability_of_ignorance():
    from benchmarks.whole_game_knowledge import plays

    h = next(h for k, h in plays("bs-koth", 0) if k == 8)
    gk = GameKnowledge(h)
    assert gk.probability("P1", "K_P2 has(P3, 1)") == 0
    assert gk.probability("P1", "~K_P2 has(P3, 1)", exact=False) == 1.0
