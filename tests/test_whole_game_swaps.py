"""Trading a card for one of the same suit: the rule
:func:`games.epistemic.knowledge.swap_unknown` and the formulas it decides.

``swap_unknown(h, b, has(L, C#k), within=a)`` claims ``K_a ~K_b has(L, C#k)``:
in every world ``a`` considers possible, the copies of ``C`` at ``L`` can trade
places with cards of ``a``'s hand that every count treats alike (the same
suit, when the counts are voids), unseen by ``b``.  Checked against the
explicit model on random small histories (every event kind) and on random
trick-taking-like histories whose counts are suit voids, the case the rule is
for; on full-size Shengji (ZPY, 5 seats) it answers the benchmark's late
states, which :func:`never_known` leaves open.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.epistemic import CardHistory, Count, GameKnowledge, Move, MoveAll, Show, explicit_model
from games.epistemic.knowledge import never_known, swap_unknown
from games.errors import InvalidParameterError
from kripke import holds
from kripke.formulas import Atom, Know, Not
from tests.test_epistemic import random_history
from tests.test_whole_game_ignorance import all_atoms

SEATS = ("x", "y", "z")


def swap_claims(h: CardHistory) -> tuple[int, int]:
    """Check every claim of the rule on ``h`` against the explicit model; how many
    claims, and how many of them :func:`never_known` does not make."""
    pm = explicit_model(h)
    try:
        ds = h.deal_state()
    except InvalidParameterError:  # a fact: no counting, the rule's own-hand form only
        ds = None
    n = new = 0
    for b in h.agents:
        for a in all_atoms(h):
            for c in h.agents:
                kn = None if ds is None else ds.knowledge(c)
                if swap_unknown(h, b, a, within=c, knowledge=kn):
                    assert holds(pm, Know(c, Not(Know(b, a)))), (c, b, a.key)
                    n += 1
                    new += not never_known(h, b, a, within=c)
    return n, new


def shuffled(rng: random.Random, names: list[str], copies: list[int], most: int):
    """A small deck of ``names`` with ``copies`` (the largest cut down until at most
    ``most`` cards) and its cards shuffled by ``rng``."""
    while sum(copies) > most:
        copies[copies.index(max(copies))] -= 1
    deck = Deck(names, copies)
    cards = list(deck.all_cards())
    rng.shuffle(cards)
    return deck, cards


def dealt(cards: list[str]) -> dict[str, list[str]]:
    """``cards`` dealt round the seats in turn."""
    hands: dict[str, list[str]] = {s: [] for s in SEATS}
    for i, c in enumerate(cards):
        hands[SEATS[i % 3]].append(c)
    return hands


def play_tricks(h: CardHistory, rng: random.Random, names: list[str], events: int):
    """``events`` cards played face up to ``trick`` in turn, following the led suit
    when the seat can, a void in it announced when it cannot."""
    led = None
    for i in range(events):
        seat = SEATS[i % 3]
        cur = h.content()[seat]
        if not cur:
            break
        card = rng.choice(list(cur))
        if i % 3 == 0:
            led = card[-1]
        elif card[-1] != led and not any(c[-1] == led for c in cur):
            h = h.then(Count([seat], [n for n in names if n[-1] == led], 0, 0))
        elif card[-1] != led:
            card = rng.choice([c for c in cur if c[-1] == led])
        h = h.then(Move([card], seat, "trick"))
    return h


def suit_history(seed: int, events: int = 6) -> CardHistory:
    """Three hands of cards in two or three suits, cards played face up one at a time
    to a trick pile, and a void announced whenever a seat plays off the led suit."""
    rng = random.Random(seed)
    suits = "SH" if rng.random() < 0.5 else "SHD"
    names = [r + s for s in suits for r in "AK"]
    deck, cards = shuffled(rng, names, [rng.choice([1, 2]) for _ in names], 9)
    h = CardHistory(deck, {**dealt(cards), "trick": ""}, SEATS)
    return play_tricks(h, rng, names, events)


def kitty_history(seed: int, events: int = 5) -> CardHistory:
    """As :func:`suit_history`, with a kitty: first a bid may show a card to everybody
    or to one seat, then a seat takes the kitty and buries as many cards, seen by it
    alone, before the face-up play."""
    rng = random.Random(seed)
    names = [r + s for s in "SH" for r in "AKQ"]
    deck, cards = shuffled(rng, names, [rng.choice([1, 2]) for _ in names], 10)
    k = rng.choice([1, 2])
    h = CardHistory(deck, {**dealt(cards[k:]), "kitty": cards[:k], "trick": ""}, SEATS)
    bidder = rng.choice(SEATS)
    if h.content()[bidder] and rng.random() < 0.7:
        to = None if rng.random() < 0.5 else [rng.choice(SEATS)]
        h = h.then(Show(bidder, [rng.choice(h.content()[bidder])], to=to))
    taker = rng.choice(SEATS)
    h = h.then(MoveAll("kitty", taker, seen_by=[taker]))
    h = h.then(Move(rng.sample(list(h.content()[taker]), k), taker, "kitty", seen_by=[taker]))
    return play_tricks(h, rng, names, events)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_what_the_rule_claims_holds_with_a_kitty(seed):
    swap_claims(kitty_history(seed))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_what_the_rule_claims_holds_on_random_histories(seed, copies):
    swap_claims(random_history(seed, copies=copies, events=7))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_what_the_rule_claims_holds_with_voids(seed):
    swap_claims(suit_history(seed))


def test_the_rule_claims_where_voids_bar_the_older_rule():
    """Over voids the rule makes claims the older one cannot (a void bars every kind of
    the suit from its trade), and each is true in the explicit model."""
    made = new = 0
    for seed in range(40):
        n, m = swap_claims(suit_history(seed))
        made, new = made + n, new + m
    assert made > 40 and new > 10


def test_known_answer_a_card_of_the_same_suit_in_my_hand():
    """x holds AS and sees y and z; z holds one spade (announced): y cannot know z's
    spade is the KS, since x's AS could be there instead; for a heart x holds no card
    to trade, and y, holding the KH, does know z has the AH."""
    d = Deck(["AS", "KS", "AH", "KH"], [2, 2, 2, 2])
    h = CardHistory(d, {"x": "AS KS", "y": "AS KH", "z": "KS AH AH KH"}, ["x", "y", "z"])
    h = h.then(Count("z", "AS KS", 1, 1))
    pm = explicit_model(h)
    ks, ah = Atom("has", ("z", "KS")), Atom("has", ("z", "AH"))
    assert swap_unknown(h, "y", ks, within="x") and not never_known(h, "y", ks, within="x")
    assert holds(pm, "K_x ~K_y has(z, KS)")
    assert not swap_unknown(h, "y", ah, within="x")
    assert holds(pm, "K_y has(z, AH)")
    # a card x played face up is no longer x's to trade
    played = h.then(Move("AS", "x", "z"))
    assert not swap_unknown(played, "y", ks, within="x")


def test_game_knowledge_uses_the_rule():
    """With the structure refused, ``K_a ~K_b`` formulas only this rule settles are
    answered by counting, as the explicit model answers them."""
    decided = 0
    for seed in range(40):
        h = suit_history(seed)
        pm = explicit_model(h)
        for a in h.agents:
            for b in h.agents:
                for atom in all_atoms(h):
                    if a == b or not swap_unknown(h, b, atom, within=a):
                        continue
                    f = f"K_{a} ~K_{b} {atom.key}"
                    gk = GameKnowledge(h, max_width=1, quotient_width=2**62)
                    assert gk.holds(f) is True and holds(pm, f)
                    decided += gk.route == "counting"
    assert decided > 20


def test_full_size_zpy_late_states():
    """ZPY, 5 seats (seed 0), plays 48-72: the benchmark's ``K_a ~K_b has(c, X)`` (the
    kind quotient refused each) is answered true by counting, and this rule within
    ``a``'s worlds shows each (voids bar the suits from the plain trade of cards)."""
    from benchmarks.whole_game_knowledge import pick_query, plays

    answered = 0
    for k, h in plays("zpy5", 0):
        if k > 72:
            break
        if k < 48 or k % 8:
            continue
        q = pick_query(h, k // 8)
        gk = GameKnowledge(h)
        assert gk.holds(q["formulas"][0]) is True and gk.route == "counting", k
        atom = gk.formula(q["formulas"][0]).arg.arg.arg
        a, b = q["a"], q["b"]
        assert swap_unknown(h, b, atom, within=a, knowledge=gk._public_state().knowledge(a))
        answered += 1
    assert answered == 4


def hidden_claims(h: CardHistory) -> int:
    """Every claim of the buried-partner form of the rule (cards a seat never saw, now
    at a place it does not own, such as a buried kitty) on ``h``, checked against the
    explicit model: ``K_c ~K_b has(L, C#k)``; how many."""
    from games.epistemic.knowledge import _copies_marked, _hidden_partners

    pm = explicit_model(h)
    ds = h.deal_state()
    n = 0
    for b in h.agents:
        for c in h.agents:
            if b == c:
                continue
            kn = ds.knowledge(c)
            for atom in all_atoms(h):
                loc, x, j = h.atom_cell(atom)
                if loc in h.owns[b] or loc in h.owns[c]:
                    continue
                need = _copies_marked(h, b, x, c, loc, counts_mark=False)[1] - j + 1
                if need > 0 and _hidden_partners(h, b, c, x, loc, kn, need):
                    assert holds(pm, Know(c, Not(Know(b, atom)))), (c, b, atom.key)
                    n += 1
    return n


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_buried_partners_hold_in_the_explicit_model(seed):
    hidden_claims(kitty_history(seed, events=7))


def test_buried_partners_are_found():
    assert sum(hidden_claims(kitty_history(seed, events=7)) for seed in range(40)) >= 5


def test_common_knowledge_reads_the_rule_before_the_members_counting(monkeypatch):
    """``C_{a,b} has(L, C)`` is false where the rule shows ``K_a ~K_b has(L, C)``: asked
    after that formula, it reads the kept claim and counts no member's knowledge (the
    explicit model agrees, and so does a fresh knowledge asking it alone)."""
    from games.deal import DealKnowledge

    asked = []
    possible = DealKnowledge.possible
    monkeypatch.setattr(
        DealKnowledge, "possible", lambda self, f: asked.append(f) or possible(self, f)
    )
    decided = 0
    for seed in range(20):
        h = suit_history(seed)
        pm = explicit_model(h)
        for a, b in (("x", "y"), ("y", "z"), ("z", "x")):
            for atom in all_atoms(h):
                if not swap_unknown(h, b, atom, within=a):
                    continue
                common = f"C_{{{a},{b}}} {atom.key}"
                gk = GameKnowledge(h, max_width=1, quotient_width=2**62)
                assert gk.holds(f"K_{a} ~K_{b} {atom.key}") is True
                asked.clear()
                assert gk.holds(common) is False and gk.route == "counting"
                assert not asked and not holds(pm, common)
                alone = GameKnowledge(h, max_width=1, quotient_width=2**62)
                assert alone.holds(common) is False
                decided += 1
    assert decided > 10
