"""BS-ZPY states as epistemic models: validity as a card formula, and the routes agreeing.

* The validity formulas (:func:`games.bs_zpy.knowledge.follow_validity`,
  :func:`~games.bs_zpy.knowledge.lead_validity`) agree with the game's own
  check (:func:`games.bs_zpy.play_validity`: ZPY's follow rule and throw
  check) on random hands, formats and plays.
* At random points of random games from small positions, the knowledge
  structure and the explicit Kripke model answer random formulas of depth
  ≤ 3 alike.
* Known answers from the rule text (``bs-zpy.md``): silence announces that
  the claim was true, so a follow claimed off-suit shows a void; peanut
  butter announces the lie, not the cards.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import load_game
from games.bs_zpy import play_validity
from games.bs_zpy.knowledge import follow_validity, lead_validity
from games.deal import evaluate
from games.errors import InvalidParameterError
from games.shengji.knowledge import shengji_deck
from games.shengji.rules.cards import card
from games.shengji.rules.formats import count_faces, lead_format
from games.shengji.rules.trump import Trump, table
from kripke import holds
from tests.test_epistemic import random_formula

DECK = shengji_deck(2)
TRUMPS = [Trump("2", "S"), Trump("9", "H"), Trump("5", None)]


def _value(loc_counts: dict[str, Counter[int]]):
    def value(atom):
        loc, name = atom.args
        face, _, k = name.partition("#")
        return loc_counts[loc][int(card(face))] >= int(k or 1)

    return value


def _random_hand(rng: random.Random, faces: list[int], size: int) -> Counter[int]:
    pool = [f for f in faces for _ in range(2)]
    return Counter(rng.sample(pool, min(size, len(pool))))


def _random_lead(rng: random.Random, faces: list[int]) -> Counter[int]:
    """A single, a pair, a tractor or a throw of the suit."""
    kind = rng.choice(["single", "pair", "tractor", "throw"])
    if kind == "single":
        return Counter([rng.choice(faces)])
    if kind == "pair":
        return Counter({rng.choice(faces): 2})
    if kind == "tractor" and len(faces) >= 3:
        i = rng.randrange(len(faces) - 2)
        return Counter({f: 2 for f in faces[i : i + rng.choice([2, 3])]})
    return _random_hand(rng, faces, rng.randint(2, 6))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.sampled_from(["no-protections", "only-draw-tractor-on-tractor"]))
def test_follow_validity_agrees_with_the_follow_rule(seed, policy):
    rng = random.Random(seed)
    trump = rng.choice(TRUMPS)
    t = table(trump)
    suit = rng.choice([s for s in range(len(t.by_suit)) if t.by_suit[s]])
    faces = list(t.by_suit[suit])
    lead = _random_lead(rng, faces)
    lead_cards = [card(f) for f in sorted(lead.elements())]
    fmt = lead_format(lead_cards, trump)
    others = [f for f in range(len(DECK)) if t.esuit[f] != suit]
    hand = _random_hand(rng, faces, rng.randint(0, 12)) + _random_hand(rng, others, 6)
    if sum(hand.values()) < fmt.size:
        hand += _random_hand(rng, others, fmt.size)
    inside = [f for f in hand.elements() if t.esuit[f] == suit]
    if len(inside) >= fmt.size and rng.random() < 0.7:  # exercise the format rule
        cards = rng.sample(inside, fmt.size)
    else:
        cards = rng.sample(list(hand.elements()), fmt.size)
    after = hand - Counter(cards)
    want, _ = play_validity(cards, dict(hand), fmt, trump, (), policy)
    f = follow_validity(DECK, "P1", cards, fmt, policy)
    assert evaluate(f, _value({"P1": after})) == want, (lead_cards, sorted(hand), cards)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10**9))
def test_requirements_are_the_minimal_ones_fewest_cards_first(seed):
    """The follow rule's cases (:func:`games.bs_zpy.knowledge._requirements`): no case
    holds another's counts (each would be redundant in the disjunction), they come
    fewest cards first, and each holds the format's groups (every tuple of the shape
    finds its copies among the case's counts, searched independently)."""
    from games.bs_zpy.knowledge import _requirements
    from games.shengji.rules.formats import decomposition_order, group_placements

    rng = random.Random(seed)
    trump = rng.choice(TRUMPS)
    t = table(trump)
    suit = rng.choice([s for s in range(len(t.by_suit)) if t.by_suit[s]])
    faces = list(t.by_suit[suit])
    fmt = lead_format([card(f) for f in sorted(_random_lead(rng, faces).elements())], trump)
    pool = {f: 2 for f in faces}

    def fit(left: dict[int, int], groups: list) -> bool:  # every group finds its copies
        if not groups:
            return True
        for pl in group_placements({f: k for f, k in left.items() if k}, groups[0], trump):
            rest = dict(left)
            for f, k in pl:
                rest[f] -= k
            if fit(rest, groups[1:]):
                return True
        return False

    for shape in decomposition_order(fmt, True):
        groups = [g for g in shape if g != (1,)]
        reqs = _requirements(groups, pool, trump)
        sizes = [sum(r.values()) for r in reqs]
        assert sizes == sorted(sizes)
        for i, r in enumerate(reqs):
            for j, o in enumerate(reqs):
                assert i == j or not all(r.get(f, 0) >= k for f, k in o.items()), (r, o)
            assert fit(dict(r), groups), (r, groups)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_lead_validity_agrees_with_the_throw_check(seed):
    rng = random.Random(seed)
    trump = rng.choice(TRUMPS)
    t = table(trump)
    suit = rng.choice([s for s in range(len(t.by_suit)) if t.by_suit[s]])
    faces = list(t.by_suit[suit])
    lead = _random_hand(rng, faces, rng.randint(1, 7))
    cards = [card(f) for f in sorted(lead.elements())]
    rest = Counter({f: 2 for f in faces}) - lead
    hands = []
    for _ in range(rng.randint(1, 3)):
        h = Counter(rng.sample(list(rest.elements()), min(len(list(rest.elements())), 5)))
        rest -= h
        hands.append(h)
    want, _ = play_validity(cards, dict(lead), None, trump, [dict(h) for h in hands])
    locs = [f"P{i + 1}" for i in range(len(hands))]
    f = lead_validity(DECK, cards, trump, locs)
    assert evaluate(f, _value(dict(zip(locs, hands, strict=True)))) == want, (cards, hands)


def test_a_mixed_suit_lead_is_never_valid():
    t = Trump("2", "S")
    f = lead_validity(DECK, [card("3H"), card("4C")], t, ["P1"])
    assert not evaluate(f, lambda a: False)


def test_protected_draw_policies_are_refused_with_a_reason():
    t = Trump("2", "S")
    with pytest.raises(InvalidParameterError, match="longer-tuples-protected"):
        follow_validity(
            DECK, "P1", [card("3H")], lead_format([card("5H")], t), "longer-tuples-protected"
        )


# ------------------------------------------------------------------ games
HANDS = ["AS AS 3H", "KS 4H 5H", "QS 6H 7H", "JS QC 2C"]


def position():
    g = load_game("bs-zpy", players=4)
    return g.position(HANDS, trump="2D", landlord=0, friends=["AH"])


def test_silence_announces_the_claim_and_its_validity():
    st = position()
    st.play_claim(0, "3H")
    st.decide_calls({})  # nobody calls; P0 is silent: it led 3H
    st.play_claim(1, "4H")
    st.decide_calls({})
    st.play_claim(2, "6H")
    st.decide_calls({})
    st.play_claim(3, "JS")  # P3 follows hearts with a spade, truthfully
    st.decide_calls({})
    gk = st.knowledge()
    everybody = "P0, P1, P2, P3"
    # silence: the claims were true, so the led cards are common knowledge
    assert gk.holds(f"C_{{{everybody}}} has(W{_winner(st)}, 3H)")
    # a valid off-suit follow shows a void in hearts (bs-zpy.md: a follow must obey the suit rule)
    assert gk.holds(f"C_{{{everybody}}} (~has(P3, 7H) & ~has(P3, 5H))")
    # P1 still holds 5H: P1 knows it; P2 knows it only as one of the hearts it lacks
    assert gk.knows(1, "has(P1, 5H)")
    assert gk.knows(2, "has(P1, 5H) | has(P0, 5H) | has(P0, 7H) | has(P1, 7H)")


def _winner(st) -> int:
    return st.table.tricks[-1].winner


def test_peanut_butter_announces_the_lie_not_the_cards():
    st = position()
    st.play_claim(0, "3H")
    st.decide_calls({})
    st.play_claim(1, "KS", claim="5H")  # a lie: P1 holds hearts
    st.decide_calls({})
    obs = [o.kind for o in st.observations(2)]
    assert "peanut_butter" in obs
    gk = st.knowledge()
    everybody = "P0, P1, P2, P3"
    # the claim "5H" was false: it is common knowledge that 5H was not played
    assert gk.holds(f"C_{{{everybody}}} ~has(trick, 5H)")
    # P1 knows the card it put down; P2 does not, and knows that P1 knows
    assert gk.knows(1, "has(trick, KS)")
    assert not gk.knows(2, "has(trick, KS)")
    assert gk.knows(2, "Kw_1 has(trick, KS)")


def test_a_call_reveals_and_states_validity():
    st = position()
    st.play_claim(0, "3H")
    st.decide_calls({})
    st.play_claim(1, "KS", claim="5H")
    st.decide_calls({2: True})  # P2 calls: KS is shown, and the play was invalid
    gk = st.knowledge()
    assert gk.holds("C_{P0, P1, P2, P3} has(trick, KS)")
    # an invalid off-suit follow: P1 held a heart, publicly
    assert gk.holds("C_{P0, P1, P2, P3} (has(P1, 4H) | has(P1, 5H) | has(P1, 6H) | has(P1, 7H))")
    assert not gk.holds("C_{P0, P1, P2, P3} (has(P1, 4H) | has(P1, 5H) | has(P1, 7H))")
    assert gk.knows(2, "has(P1, 4H) | has(P1, 5H) | has(P1, 7H)")


def _random_point(seed: int):
    rng = random.Random(seed)
    cards = "AS AS KS 3H 4H 4H 5H 7D".split()
    rng.shuffle(cards)
    hands = [" ".join(cards[i * 2 : (i + 1) * 2]) for i in range(4)]
    st = load_game("bs-zpy", players=4).position(hands, trump="2D", landlord=0)
    for _ in range(rng.randint(2, 14)):
        if st.is_terminal():
            break
        if st.is_chance_node():
            st.apply_action(rng.choice([a for a, _ in st.chance_outcomes()]))
        else:
            st.apply_action(rng.choice(list(st.legal_actions())))
    return st, rng


@pytest.mark.parametrize("seed", range(6))
def test_bs_zpy_states_answer_alike_on_both_routes(seed):
    st, rng = _random_point(seed)
    h = st.card_history()
    gk = st.knowledge()
    pm = st.kripke_model()
    for _ in range(12):
        f = random_formula(rng, h, 3)
        assert gk.holds(f) == holds(pm, f), str(f)


def test_the_history_replays_the_true_cards():
    st, _ = _random_point(3)
    h = st.card_history()
    now = h.content()
    for s in range(4):
        assert sorted(now[f"P{s}"]) == sorted(str(c) for c in st.hand(s))
    won = Counter(c for s in range(4) for c in now[f"W{s}"])
    assert won == Counter(str(c) for p in st.table.piles for c in p)
    assert count_faces([card(c) for c in now["trick"]]) == count_faces(
        [c for p in st.table.current for c in p.cards if p.status != "waiting"]
    )


def test_a_full_game_history_replays_the_true_cards():
    """A dealt 108-card game (bids, kitty, burying) to the middle of the tricks."""
    st = load_game("bs-zpy").new_initial_state()
    rng = random.Random(1)
    steps = 0
    while not st.is_terminal() and (st.phase not in ("play", "call", "steal") or steps < 40):
        if st.is_chance_node():
            acts, ps = zip(*st.chance_outcomes(), strict=True)
            st.apply_action(rng.choices(acts, ps)[0])
        else:
            st.apply_action(rng.choice(list(st.legal_actions())))
        steps += st.phase in ("play", "call", "steal")
    h = st.card_history()
    now = h.content()
    assert h.deck.total == 108
    for s in range(st.n):
        assert sorted(now[f"P{s}"]) == sorted(str(c) for c in st.hand(s))
    won = Counter(c for s in range(st.n) for c in now[f"W{s}"])
    assert won == Counter(str(c) for p in st.table.piles for c in p)
    assert any("claim" in e.label for e in h.events)
