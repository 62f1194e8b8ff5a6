"""Deal knowledge: known answers, the sampler, the Kripke-model bridge and bad input."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.deal import DealKnowledge, DealState, card_atom
from games.errors import (
    CardParseError,
    IllegalActionError,
    InconsistentKnowledgeError,
    InvalidParameterError,
)
from kripke import holds, parse
from kripke.errors import KripkeError, SizeLimitError, UnknownAtomError


def _bridge_declarer():
    """Declarer's view after seeing dummy: 26 unknown cards, 13 to each defender."""
    deck = Deck.standard()
    k = DealKnowledge(deck, {"S": 13, "N": 13, "E": 13, "W": 13})
    mine = [c for c in deck.all_cards() if c[-1] == "S"][:9]  # 2S..10S
    rest = [c for c in deck.all_cards() if c[-1] != "S"]
    k.reveal("S", mine[:5] + rest[:8])
    k.reveal("N", mine[5:] + rest[8:17])
    return deck, k


# -------------------------------------------------------------- known answers
def test_number_of_bridge_deals():
    # 52! / (13!)^4 = 53,644,737,765,488,792,839,237,440,000 (Wikipedia, "Contract bridge probabilities")
    k = DealKnowledge(Deck.standard(), {"N": 13, "E": 13, "S": 13, "W": 13})
    assert k.count() == 53644737765488792839237440000


def test_suit_split_odds_four_missing():
    # four cards outstanding (JS QS KS AS) between the defenders: 2-2 40.70%,
    # 3-1 49.74%, 4-0 9.57% (the a-priori suit-split table of bridge literature,
    # e.g. Wikipedia "Contract bridge probabilities")
    deck, k = _bridge_declarer()
    dist = k.count_distribution("JS QS KS AS", "E", exact=True)
    two_two = dist[2]
    three_one = dist[1] + dist[3]
    four_zero = dist[0] + dist[4]
    assert round(float(two_two), 4) == 0.4070
    assert round(float(three_one), 4) == 0.4974
    assert round(float(four_zero), 4) == 0.0957
    assert sum(dist) == 1


def test_suit_split_two_missing_and_finesse():
    # two outstanding cards split 1-1 with probability 52% (13*13*2 / (26*25))
    _, k = _bridge_declarer()
    dist = k.count_distribution("KS AS", "E", exact=True)
    assert dist[1] == Fraction(13 * 13 * 2, 26 * 25)
    # the king is onside exactly half the time: the finesse is a 50% chance
    assert k.probability("KS", "W", exact=True) == Fraction(1, 2)


def test_marginals_rows_and_columns_add_up():
    deck, k = _bridge_declarer()
    k.void("E", deck.suit("H"))
    m = k.marginals()
    assert np.allclose(m.sum(axis=1), 1.0)
    sizes = k.sizes()
    assert np.allclose(m.sum(axis=0), [sizes[x] for x in k.locations])
    assert (m[list(deck.suit("H")), k.locations.index("E")] == 0).all()


def test_multi_deck_copies_and_counts():
    # two decks: each card has two identical copies
    deck = Deck.standard(copies=2)
    k = DealKnowledge(deck, {"me": 26, "a": 26, "b": 26, "c": 26})
    k.reveal("me", deck.all_cards()[:26])
    m = k.marginals()
    assert np.allclose(m.sum(axis=1), 2)
    # I hold both 2C: nobody else can
    assert k.probability("2C", "a") == 0.0
    k.show("a", "AS AS")
    assert k.knows("has(a, AS)") and k.count_distribution("AS", "a")[2] == 1.0


def test_koth_deck_reasoning():
    # 13 ranks, 4 copies: "I hold three 7s, the pile received three claimed 7s"
    deck = Deck.ranks(13, copies=4)
    k = DealKnowledge(deck, {"me": 13, "p1": 13, "p2": 13, "p3": 13, "play": 0})
    k.reveal("me", ["7", "7", "7"] + [str(r) for r in range(13) if r != 7][:10])
    k.move_hidden("p1", "play", 3)
    # at most one 7 exists outside my hand: the claim "three 7s" is surely a lie
    assert k.count_distribution("7", "play")[3] == 0
    assert k.knows("~has(me, 7) | has(me, 7)")
    # the last 7 is with p1 with probability 13/39, then among its 3 played cards: 1/13
    assert k.probability_at_least("7", "play", 1, exact=True) == Fraction(1, 13)


# ------------------------------------------------------------------- sampler
def test_sampler_uniform_chi_square():
    # 6 distinct cards, I hold 2, the rest split 2/2 between two others: C(4,2)=6 deals
    deck = Deck(list("ABCDEF"))
    k = DealKnowledge(deck, {"me": 2, "x": 2, "y": 2})
    k.reveal("me", "A B")
    n = 6000
    draws = k.sample(n, seed=11)
    keys = Counter(tuple(np.flatnonzero(d[:, 1])) for d in draws)
    assert len(keys) == 6 == k.count()
    exp = n / 6
    chi2 = sum((c - exp) ** 2 / exp for c in keys.values())
    assert chi2 < 20.5  # 5 degrees of freedom, p = 0.001


def test_sampler_matches_constrained_distribution():
    # with joint constraints the sampler must follow the exact marginals
    deck = Deck(list("ABCDEFGH"))
    k = DealKnowledge(deck, {"me": 2, "x": 2, "y": 2, "pile": 2})
    k.reveal("me", "A B")
    k.at_least(["x"], "C D E", 1)
    k.void("y", "F")
    k.at_most(["pile", "y"], "G H", 1)
    n = 20000
    draws = k.sample(n, seed=3)
    freq = draws.mean(axis=0)
    assert np.allclose(freq, k.marginals(), atol=0.015)
    # every draw is consistent
    for d in draws[:500]:
        assert d[[2, 3, 4], 1].sum() >= 1 and d[5, 2] == 0 and d[[6, 7]][:, [2, 3]].sum() <= 1
    counts = Counter(d.tobytes() for d in draws)
    assert len(counts) == k.count()
    exp = n / k.count()
    chi2 = sum((c - exp) ** 2 / exp for c in counts.values())
    df = k.count() - 1
    assert chi2 < df + 5 * math.sqrt(2 * df)


def test_sampler_depends_only_on_the_agents_information():
    # two true deals that p1 cannot tell apart give p1 the same sampler output
    deck = Deck(list("ABCDEFGH"))
    hands1 = {"p1": "A B", "p2": "C D E", "p3": "F G H", "pile": ""}
    hands2 = {"p1": "A B", "p2": "F G C", "p3": "D E H", "pile": ""}
    outs = []
    for hands in (hands1, hands2):
        st_ = DealState(deck, hands)
        st_.move("C", "p2", "pile", seen_by=["p2"])  # face down: p1 sees one card go
        st_.move("A", "p1", "pile", seen_by=["p1"])
        st_.reveal("pile", to=["p1", "p2", "p3"])
        st_.move_all("pile", "p3", seen_by=["p3"])
        outs.append(st_.knowledge("p1").sample(500, seed=42))
    assert np.array_equal(outs[0], outs[1])


# --------------------------------------------------------- Kripke-model bridge
def _random_state(seed):
    rng = random.Random(seed)
    n = rng.randint(4, 7)
    deck = Deck([chr(ord("A") + i) for i in range(n)], [rng.choice([1, 1, 2]) for _ in range(n)])
    while deck.total > 8:
        deck = Deck(deck.names, [1] * n)
    cards = list(deck.all_cards())
    rng.shuffle(cards)
    hands = {"x": [], "y": [], "z": [], "pile": []}
    for c in cards:
        hands[rng.choice(list(hands))].append(c)
    st_ = DealState(deck, hands, agents=["x", "y", "z"])
    for _ in range(rng.randint(0, 4)):
        deal = st_.deal
        src = rng.choice([x for x in deal if deal[x]])
        dst = rng.choice([x for x in deal if x != src])
        r = rng.random()
        if r < 0.5:
            st_.move(
                rng.sample(deal[src], 1), src, dst, seen_by=[a for a in "xyz" if rng.random() < 0.5]
            )
        elif r < 0.7:
            st_.move_all(src, dst, seen_by=[a for a in "xyz" if rng.random() < 0.5])
        elif r < 0.85:
            st_.reveal(src, to=[a for a in "xyz" if rng.random() < 0.5])
        else:
            absent = [c for c in deck.names if c not in deal[src]]
            if absent:
                st_.void(src, absent[:1])
    return deck, st_


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31))
def test_counting_equals_model_checker(seed):
    deck, st_ = _random_state(seed)
    pm = st_.kripke_model()
    model = pm.model
    rng = random.Random(seed)
    locs = list(st_.deal)
    for a in st_.agents:
        kn = st_.knowledge(a)
        # the agent's class in the model: the distinct current deals equal count()
        cls = model.accessible(a, pm.actual)
        deals = {frozenset(model.valuation(w)) for w in cls}
        # valuations record card presence; with copies the count matrix is finer,
        # so compare on decks without copies and bound otherwise
        if all(c == 1 for c in deck.copies):
            assert kn.count() == len(deals)
        for _ in range(4):
            atoms = [card_atom(rng.choice(locs), rng.choice(deck.names)) for _ in range(2)]
            f = atoms[0] | ~atoms[1] if rng.random() < 0.5 else atoms[0] & atoms[1]
            assert kn.knows(f) == holds(pm, parse(f"K_{a} ({f})")), (seed, a, str(f))
            assert kn.possible(f) == holds(pm, parse(f"M_{a} ({f})")), (seed, a, str(f))


def test_nested_knowledge_in_the_model():
    deck = Deck(list("ABC"))
    st_ = DealState(deck, {"x": "A", "y": "B", "z": "C"})
    pm = st_.kripke_model()
    # everybody knows their own card, nobody knows another's
    assert holds(pm, "K_x has(x, A) & ~K_x has(y, B)")
    # x knows that y knows y's own card, whichever it is
    assert holds(pm, "K_x (K_y has(y, B) | K_y has(y, C))")
    st_ = DealState(Deck(list("ABCD")), {"x": "A B", "y": "C", "z": "D"})
    st_.move("A", "x", "y", seen_by=["x", "y"])  # x passes A to y; z sees a card go
    pm = st_.kripke_model()
    assert holds(pm, "K_y has(y, A) & ~K_z has(y, A) & K_z (has(y, A) | has(y, B))")
    assert holds(pm, "K_x K_y has(y, A) & K_x ~K_z has(y, A)")
    assert st_.knowledge("z").knows("has(y, A) | has(y, B)")


# ------------------------------------------------------------------ bad input
def test_bad_cards_and_locations_are_named():
    deck = Deck.standard()
    k = DealKnowledge(deck, {"me": 26, "you": 26})
    with pytest.raises(CardParseError, match="'XX'"):
        k.reveal("me", "AS XX")
    with pytest.raises(InvalidParameterError, match="'them'"):
        k.void("them", "AS")
    with pytest.raises(InvalidParameterError, match="add up"):
        DealKnowledge(deck, {"me": 26, "you": 25})
    with pytest.raises(UnknownAtomError, match="has\\(me, ZZ\\)"):
        k.knows("has(me, ZZ)")
    with pytest.raises(KripkeError, match="knowledge operators"):
        k.knows("K_me has(me, AS)")


def test_contradiction_raises_and_changes_nothing():
    deck = Deck(list("ABCD"))
    k = DealKnowledge(deck, {"me": 2, "you": 2})
    k.reveal("me", "A B")
    before = k.signature()
    with pytest.raises(InconsistentKnowledgeError):
        k.show("you", "A")
    with pytest.raises(InconsistentKnowledgeError):
        k.reveal("you", "A C")
    with pytest.raises(InconsistentKnowledgeError):
        k.at_least(["you"], "A B", 1)
    with pytest.raises(InconsistentKnowledgeError):
        k.move_hidden("me", "you", 3)
    assert k.signature() == before
    assert k.count() == 1


def test_deal_state_checks_the_true_cards():
    deck = Deck(list("ABCD"))
    st_ = DealState(deck, {"x": "A B", "y": "C D"})
    with pytest.raises(IllegalActionError, match="does not hold C"):
        st_.move("C", "x", "y")
    with pytest.raises(IllegalActionError):
        st_.void("x", "A")
    with pytest.raises(InvalidParameterError, match="copies of D"):
        DealState(deck, {"x": "A B", "y": "C"})
    assert st_.deal == {"x": ("A", "B"), "y": ("C", "D")}


# ------------------------------------------------- relaxation stays sound
def test_relaxed_knowledge_stays_sound_on_long_bs_histories():
    # a full deck, face-down plays, calls and pickups with a tiny table budget:
    # the knowledge may stop being exact, but the true deal stays possible
    rng = random.Random(4)
    deck = Deck.ranks(13, copies=4)
    cards = list(deck.all_cards())
    rng.shuffle(cards)
    seats = [f"p{i}" for i in range(4)]
    st_ = DealState(
        deck,
        {**{s: cards[13 * i : 13 * i + 13] for i, s in enumerate(seats)}, "pile": "", "play": ""},
    )
    for kn in (st_.knowledge(s) for s in seats):
        kn.max_table = 4
    for turn in range(40):
        s = seats[turn % 4]
        hand = st_.deal[s]
        if not hand:
            break
        st_.move(rng.sample(hand, min(len(hand), rng.randint(1, 2))), s, "play", seen_by=[s])
        if turn % 3 == 2:
            st_.reveal("play", to=seats)
            st_.move_all("play", "pile")
            taker = rng.choice(seats)
            st_.move_all("pile", taker, seen_by=[taker])
        else:
            st_.move_all("play", "pile")
    assert not st_.exact
    truth = st_.deal
    for s in seats:
        kn = st_.knowledge(s)
        # every true placement is still considered possible
        for loc, held in truth.items():
            for card in set(held):
                assert kn.possible(f"has({loc}, {card})"), (s, loc, card)
        m = kn.marginals()
        assert np.allclose(m.sum(axis=1), 4)


def test_where_sample_deal_and_known_places():
    deck = Deck(list("ABCDEF"))
    k = DealKnowledge(deck, {"me": 2, "x": 2, "y": 2})
    k.reveal("me", "A B")
    k.void("x", "C")
    assert k.knows_where("A") == "me" and k.knows_where("C") == "y"
    assert k.where("D") == pytest.approx({"x": 2 / 3, "y": 1 / 3})
    d = k.sample_deal(seed=1)
    assert sorted(d) == ["me", "x", "y"] and d["me"] == ("A", "B") and "C" in d["y"]
    assert k.probability_at_least("D E F", "x", 2, exact=True) == 1


def test_a_formula_without_atoms_that_is_not_written_as_a_constant():
    """``top & top`` and ``~top`` have no atom to split on: counting reads their value
    (simplified formulas leave such parts, e.g. ``Kw_b p`` read as true)."""
    from games.epistemic.history import CardHistory
    from kripke.formulas import TOP, And, Not

    h = CardHistory(Deck(["A", "B"]), {"x": "A", "y": "B"}, ["x", "y"])
    kn = h.seat_counting("x")
    assert kn.knows(And((TOP, TOP))) and not kn.knows(Not(TOP))
    assert kn.probability_of(Not(And((TOP, TOP)))) == 0


@pytest.mark.parametrize("seed", range(10))
def test_joint_count_distribution_agrees_with_conjunctions(seed):
    """The joint counts of two cards at a location (a deck without copies), against the
    probabilities of the four conjunctions of ``has(loc, x)``, ``has(loc, y)`` and their
    negations counted as formulas."""
    from tests.test_epistemic import random_history

    h = random_history(seed, copies=False)
    x, y = list(h.deck.names)[:2]
    for agent in h.agents:
        kn = h.seat_counting(agent)
        for loc in h.locations:
            joint = kn.joint_count_distribution([[x], [y]], loc, exact=True)
            assert sum(joint.values()) == 1
            for sx in (0, 1):
                for sy in (0, 1):
                    f = f"{'' if sx else '~'}has({loc}, {x}) & {'' if sy else '~'}has({loc}, {y})"
                    want = kn.probability_of(h.card_formula(f), exact=True)
                    assert joint.get((sx, sy), 0) == want, (seed, agent, loc, f)


def test_joint_count_distribution_refuses_overlapping_groups():
    k = DealKnowledge(Deck(["A", "B", "C"]), {"x": 2, "y": 1})
    with pytest.raises(InvalidParameterError, match="card 'A' is in groups 0 and 1"):
        k.joint_count_distribution(["A B", "A"], "x")
    with pytest.raises(SizeLimitError, match="max_values=1"):
        k.joint_count_distribution(["A", "B"], "x", max_values=1)
