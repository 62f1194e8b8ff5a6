"""Game states hand out their epistemic models: BS (short decks, both variants) and Shengji.

Routes compared at random points of random games: the explicit Kripke model
(``state.kripke_model()``, enumerated histories), the knowledge structure
(``state.knowledge_structure()``) and, for first-order questions, the exact
counting of :mod:`games.deal` as each game's own seat knowledge feeds it
(:class:`games.bs.SeatKnowledge`, :class:`games.shengji.knowledge.SeatDeal`).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import load_game
from games.bs import CALL, PASS, BSGame, BSParams, SeatKnowledge, bs_claim
from games.cards import STANDARD_RANKS, Deck
from games.epistemic import CardHistory, Move, MoveAll, Reveal, Show
from games.epistemic.knowledge import GameKnowledge
from games.errors import InvalidParameterError
from kripke import holds
from kripke.formulas import And, Atom, Not, Or
from tests.test_epistemic import random_formula, to_deal_state


# ------------------------------------------------------------------ BS on short decks
def short_bs(variant: str, players: int, deck: Deck) -> BSGame:
    """A BS game on a short deck: the engine unchanged, the deck and its ranks replaced."""
    g = BSGame(BSParams(variant, players))
    g.deck = deck
    if variant == "koth":
        g.rank_of = tuple(int(str(deck.rank_of(k))) for k in range(len(deck)))
    else:
        g.rank_of = tuple(STANDARD_RANKS.index(deck.rank_of(k)) for k in range(len(deck)))
    g.num_kinds = len(deck)
    g.radix = max(deck.copies) + 1
    g.powers = tuple(g.radix**k for k in range(g.num_kinds))
    g.name_runs = tuple(tuple((n,) * c for c in range(g.radix)) for n in deck.names)
    g.kinds_of_rank = tuple(
        tuple(k for k in range(g.num_kinds) if g.rank_of[k] == r) for r in range(13)
    )
    return g


SHORT_GAMES = {
    "classic": lambda: short_bs("classic", 3, Deck.standard(ranks=("10", "J"))),
    "koth": lambda: short_bs("koth", 4, Deck.ranks(3, copies=3)),
}


def random_point(game: BSGame, seed: int, max_plays: int = 5):
    """A random BS state after the deal: random plays (mostly one or two cards), random calls."""
    rng = random.Random(seed)
    s = game.new_initial_state()
    stop = rng.randint(0, max_plays)
    plays = 0
    while not s.is_terminal():
        if s.is_chance_node():
            acts, ps = zip(*s.chance_outcomes(), strict=True)
            s.apply_action(rng.choices(acts, ps)[0])
            continue
        if s.phase == "call":
            s.apply_action(CALL if rng.random() < 0.3 else PASS)
            continue
        if plays >= stop and rng.random() < 0.7:
            break
        p = s.current_player()
        hand = list(s.hands[p])
        k = 1 if s.phase == "first" else min(len(hand), rng.choice([1, 1, 2]))
        s.apply_play(p, rng.sample(hand, k))
        plays += 1
    return s


def seat_counting(state, seat: int):
    """The game's own exact deal knowledge of ``seat`` (games.bs.SeatKnowledge)."""
    sk = SeatKnowledge(state.game, seat, exact=True)
    for o in state.observations(seat):
        sk.observe(o)
    return sk.knowledge


@pytest.mark.parametrize("variant", sorted(SHORT_GAMES))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_bs_states_answer_alike_on_every_route(variant, seed):
    """Random formulas of depth <= 3 get the same answer from ``state.kripke_model()``
    and ``state.knowledge_structure()``; every seat's number of possible deals and
    its knowledge of propositional card formulas equal those of the game's own
    exact counting (SeatKnowledge over games.deal) and of games.deal fed the history."""
    s = random_point(SHORT_GAMES[variant](), seed)
    h = s.card_history()
    pm = s.kripke_model()
    ps = s.knowledge_structure()
    rng = random.Random(seed)
    for _ in range(20):
        f = random_formula(rng, h, 3)
        assert ps.holds(f) == holds(pm, f), (seed, str(f))
    gk = s.knowledge()
    ds = h.deal_state()
    plain = [a for a in h.atoms() if "#" not in a]
    for seat in range(s.num_players()):
        kn = seat_counting(s, seat)
        fed = ds.knowledge(f"P{seat}")
        if not (kn.exact and fed.exact):
            # counting dropped a joint constraint (a sound superset of the deals, seed
            # 6366 of koth): its answers are bounds, not the structure's to compare
            continue
        assert gk.count(seat) == kn.count() == fed.count()
        for _ in range(4):
            x, y = (Atom("has", tuple(rng.choice(plain)[4:-1].split(", "))) for _ in range(2))
            f = Or((x, Not(y))) if rng.random() < 0.5 else And((x, y))
            assert gk.knows(seat, f) == kn.knows(f), (seed, seat, str(f))
            # with copies too: shares of physical arrangements on both sides
            assert gk.probability(seat, f) == kn.probability_of(f, exact=True), (seed, str(f))


def test_bs_history_mirrors_the_table():
    """Plays are face-down moves seen by the player (the claim is no fact), a call
    reveals the play to all and the taker alone sees the pile it picks up."""
    s = SHORT_GAMES["classic"]().new_initial_state()
    rng = random.Random(0)
    while s.is_chance_node():
        s.apply_action(rng.choice(list(s.legal_actions())))
    p = s.current_player()
    s.apply_play(p, s.hands[p][0])  # the first card, face up
    q = s.current_player()
    s.apply_play(q, s.hands[q][:2])
    h = s.card_history()
    first, play = h.events
    assert isinstance(first, Move) and first.seen_by is None and first.dst == "pile"
    assert isinstance(play, Move) and play.seen_by == {f"P{q}"} and play.dst == "play"
    while s.phase == "call":
        s.apply_action(CALL)
    reveal, join, pickup = s.card_history().events[2:5]
    assert isinstance(reveal, Reveal) and reveal.to is None
    assert isinstance(join, MoveAll) and isinstance(pickup, MoveAll)
    assert pickup.src == "pile" and len(pickup.seen_by) == 1
    assert s.knowledge().holds("C_{0,1,2} ~has(play, " + s.hands[q][0] + ")")


def hand_made_koth():
    """Short koth deck: ranks 0-3, two copies each; the order P0 P1 P2 P3 (chance
    outcome 0) and the hands P0 {1, 2}, P1 {1, 3}, P2 {2, 3}, P3 {0, 0}."""
    g = short_bs("koth", 4, Deck.ranks(4, copies=2))
    s = g.new_initial_state()
    s.apply_action(0)
    hands = [["1", "2"], ["1", "3"], ["2", "3"], ["0", "0"]]
    for i in range(2):
        for p in range(4):
            s.apply_action(g.deck.index(hands[p][i]))
    return s


def test_known_answers_on_a_hand_made_koth_position():
    """P0 must claim a 0 and puts down a 1.  P3 holds both 0s, so P3 knows the claim
    is false, and P0 knows it, but P0 does not know that P3 knows (P3 could hold the
    two 3s); P1 and P2 do not know, nor do they know that P3 knows.  After P2's call
    the lie is common knowledge."""
    s = hand_made_koth()
    assert s.hands[3] == ("0", "0") and s.current_player() == 0
    s.apply_play(0, "1")
    claim = bs_claim(s)
    gk = s.knowledge()
    lie = Not(claim)
    assert gk.knows(3, lie) and gk.knows(0, lie)
    assert not gk.knows(1, lie) and not gk.knows(2, lie)
    assert gk.holds(lie)
    for seat in (0, 1, 2):
        assert not gk.knows(seat, f"K_3 ~({claim})"), seat
    assert gk.knows(3, f"K_0 ~({claim})")  # P3 knows the liar knows
    assert gk.probability(3, claim) == 0
    # the same answers from the explicit model
    pm = s.kripke_model()
    assert holds(pm, gk.formula(f"K_3 ~({claim}) & ~K_0 K_3 ~({claim}) & ~K_1 ~({claim})"))
    # P1 passes, P2 calls, P3 passes: the 1 is shown and P0, the liar, takes it back
    for a in (PASS, CALL, PASS):
        s.apply_action(a)
    assert s.phase == "penalty"
    after = s.knowledge()
    assert after.holds("C_{0,1,2,3} has(0, 1) & ~K_0 has(2, 2) & K_3 ~has(0, 0)")


def test_bs_needs_a_deal():
    s = load_game("bs").new_initial_state()
    with pytest.raises(InvalidParameterError, match="not dealt"):
        s.card_history()
    with pytest.raises(InvalidParameterError, match="no open claim"):
        bs_claim(s)


# ------------------------------------------------------------------ Shengji
def shengji_point(variant: str, seed: int):
    """A random Shengji state in the play phase of its first round."""
    g = load_game("shengji", variant=variant)
    s: Any = g.new_initial_state()
    rng = random.Random(seed)
    while s.phase != "play":
        s.apply_action(rng.choice(list(s.legal_actions())))
    for _ in range(rng.randint(0, 120)):
        if s.is_terminal() or any(o.kind == "round_end" for o in s.observations(0)):
            break
        s.apply_action(rng.choice(list(s.legal_actions())))
    return s


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_shengji_history_agrees_with_seat_counting(seed):
    """The round as a card history (hands, bids shown, kitty taken and buried by the
    landlord, plays face up, voids and throw facts, each checked against the true
    cards when added), counted exactly by games.deal for every seat.

    SeatDeal drops the landlord's own bids once the kitty is exchanged; the history
    keeps them (the landlord's hand and the kitty together still hold the cards shown),
    so it allows at most as many deals, and exactly as many without those shows."""
    from games.shengji.knowledge import seat_deal

    s = shengji_point("tractor", seed)
    h = s.card_history()
    assert h.deck.total == 54 * s.rules.decks
    ll = f"P{s.round_landlord}"
    weaker = [e for e in h.events if not (isinstance(e, Show) and e.label.startswith(f"{ll} bids"))]
    initial = {loc: [h.deck.name(k) for k in ks] for loc, ks in h.initial.items()}
    h2 = CardHistory(h.deck, initial, h.owns, weaker)
    full, dropped = to_deal_state(h), to_deal_state(h2)
    for seat in range(s.n):
        want = seat_deal(s, seat).knowledge.count()
        assert dropped.knowledge(f"P{seat}").count() == want, seat
        assert full.knowledge(f"P{seat}").count() <= want, seat


def test_zpy_history_holds_the_true_cards():
    """ZPY (friends, larger tables): the history replays to the true hands."""
    s = shengji_point("zpy", 4)
    h = s.card_history()
    now = h.content()
    for seat in range(s.n):
        assert sorted(now[f"P{seat}"]) == sorted(str(c) for c in s.hand(seat)), seat


def test_stepping_through_a_bs_game():
    """A notebook steps through the game: one step per card event, labelled as the
    table saw it, each with everybody's knowledge then and its DEL update; the last
    step answers as the state does."""
    s = hand_made_koth()
    s.apply_play(0, "1")
    for a in (PASS, CALL, PASS):
        s.apply_action(a)
    steps = list(s.knowledge().steps())
    assert [st.label for st in steps] == [
        "deal",
        "P0 plays 1 card claiming 0",
        "P2 calls BS: the play is 1",
        "the play joins the pile",
        "P0 takes the pile",
    ]
    assert steps[1].update().kind == "action" and steps[2].update().kind == "announce"
    f = "K_3 has(0, 1) & ~K_1 has(3, 0#2)"
    assert steps[-1].knowledge.holds(f) == s.knowledge().holds(f)
    assert not steps[0].knowledge.holds("K_1 has(3, 0#2)")


@pytest.mark.parametrize("seed", range(4))
def test_a_structure_too_wide_answers_on_the_quotient(seed):
    """With the width limit at 1 every BS state with a face-down play is refused as a
    structure; truth queries then answer on the card-symmetry quotient, alike."""
    state = random_point(SHORT_GAMES["classic"](), seed, max_plays=6)
    rng = random.Random(seed)
    h = state.card_history()
    full = GameKnowledge(h, counting_first=False, quotient_width=10**9)  # the structure
    narrow = GameKnowledge(h, max_width=1, counting_first=False)
    for _ in range(8):
        f = random_formula(rng, h, 2)
        assert narrow.holds(f) == full.holds(f), str(f)
    assert full.route == "structure"
    card = h.deck.names[0]
    wide = GameKnowledge(h, max_width=1, counting_first=False)
    first = wide.holds(f"K_0 K_1 (has(P0, {card}) | has(P1, {card}))")
    assert wide.knows(1, f"has(P0, {card})") == full.knows(1, f"has(P0, {card})")
    assert len(wide._quotients) == 1  # the second question reuses the first quotient
    assert first == full.holds(f"K_0 K_1 (has(P0, {card}) | has(P1, {card}))")
    assert narrow.route == "local quotient"
    # first-order probabilities and counts come from exact counting, alike
    f = f"has(P1, {card}) | has(P2, {card})"
    assert narrow.probability(0, f) == full.probability(0, f)
    assert narrow.count(2) == full.count(2)
    g = f"K_1 has(P1, {card})"
    # about knowledge, by counting: P1 always sees its own hand, so K_1 has(P1, C) is
    # has(P1, C) in every world, and its probability is that of the card formula
    p = narrow.probability(0, g)
    assert p == full.probability(0, g) == narrow.probability(0, f"has(P1, {card})")
