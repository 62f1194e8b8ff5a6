"""BoerenBridge deal knowledge: seat views against the true deal, exact counts, voids, the
explicit Kripke model on a small deal, notebook queries and the guess model."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from games.base import load_game
from games.boerenbridge import (
    GUESS_BASE,
    OUT,
    PLAYED,
    SEAT_NAMES,
    GuessModel,
    SeatView,
    card_str,
    cards_of,
    deal_state,
    guess_weights,
    knows,
    make_guess_probability,
    parse_card,
    parse_cards,
    probability,
    random_playout,
    round_deck,
    seat_knowledge,
    still_out,
)
from games.errors import InvalidParameterError


def deal_round(state, hands, trump_action=None):
    n = state.num_players()
    cards = [parse_cards(h) for h in hands]
    order = [(state.dealer + 1 + i) % n for i in range(n)]
    by_seat = dict(zip(order, cards, strict=True))
    for k in range(len(cards[0])):
        for s in order:
            state.apply_action(by_seat[s][k])
    if trump_action is not None:
        state.apply_action(trump_action)


def test_count_at_the_start_of_the_first_round():
    """Own 2 cards and the turned card seen: the other three hands of 2 come from the
    29 unseen cards, the other 23 stay undealt: 29! / (2! 2! 2! 23!) deals."""
    state = random_playout(load_game("boerenbridge"), seed=1, stop_after=9)
    assert state.phase == "guess"
    expected = math.comb(29, 2) * math.comb(27, 2) * math.comb(25, 2)
    for seat in range(4):
        assert seat_knowledge(state, seat).count() == expected


@pytest.mark.parametrize("seed", [3, 8])
def test_seat_views_agree_with_the_event_by_event_deal_state(seed):
    """Two routes: each seat's knowledge rebuilt from its observations, and the true deal
    updated event by event (with its truth checks) give the same counts and marginals."""
    game = load_game("boerenbridge", rounds=(4, 5), no_trump_rounds=(2,))
    rng = random.Random(seed)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.phase == "play" and rng.random() < 0.4:
            ds = deal_state(state)
            for seat in range(4):
                a = seat_knowledge(state, seat)
                b = ds.knowledge(SEAT_NAMES[seat])
                assert a.count() == b.count()
                cols = [b.locations.index(x) for x in a.locations]
                assert np.allclose(a.marginals(), b.marginals()[:, cols])
            checked += 1
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert checked > 3


def test_failing_to_follow_suit_is_a_public_void():
    state = load_game("boerenbridge").new_initial_state()
    deal_round(state, ["AH 7C", "KH 8C", "QS 9C", "JH 10C"], trump_action=parse_card("AS"))
    for g in (1, 0, 0, 0):
        state.apply_action(GUESS_BASE + g)
    state.apply_action(parse_card("AH"))  # East leads a heart
    state.apply_action(parse_card("KH"))
    no_hearts = " & ".join(f"~has(West, {c}H)" for c in ("7", "8", "9", "10", "J", "Q"))
    assert not knows(state, "North", no_hearts)
    state.apply_action(parse_card("QS"))  # West shows out of hearts
    for seat in ("North", "East", "South"):
        assert knows(state, seat, no_hearts)
    view = SeatView.from_state(state, 0)
    assert view.voids == [0, 0, 0, 1 << 2]


def test_west_knows_the_ace_of_hearts_is_still_out():
    """Does West know that the A♥ is still out?  Yes while West holds it; once it is
    played, everyone knows it is not."""
    state = load_game("boerenbridge").new_initial_state()
    deal_round(state, ["AS 7C", "KH 8C", "AH 9D", "JH 10C"], trump_action=parse_card("QS"))
    # dealt from East: East AS 7C, South KH 8C, West AH 9D, North JH 10C
    assert knows(state, "West", still_out("AH"))
    assert not knows(state, "North", still_out("AH"))  # it may lie undealt
    p = probability(state, "North", still_out("AH"))
    assert p == pytest.approx(6 / 29)  # 6 cards in other hands among the 29 North has not seen
    for g in (1, 0, 1, 1):
        state.apply_action(GUESS_BASE + g)
    state.apply_action(parse_card("7C"))
    state.apply_action(parse_card("8C"))
    state.apply_action(parse_card("AH"))  # West shows out of clubs with the A♥
    for seat in SEAT_NAMES:
        assert knows(state, seat, f"has({PLAYED}, AH)")
        assert (
            not knows(state, seat, still_out("AH"))
            and probability(state, seat, still_out("AH")) == 0.0
        )


def test_the_explicit_kripke_model_agrees_on_a_small_deal():
    """The 8 cards of a 2-card lamas round as an explicit Kripke model (worlds: histories,
    accessibility: same observations) against the counting knowledge of each seat."""
    from games.cards import Deck
    from games.deal import DealState
    from kripke.semantics import holds

    game = load_game("boerenbridge", variant="lamas", rounds=(2,))
    rng = random.Random(4)
    state = game.new_initial_state()
    while not (state.phase == "play" and len(state.plays) == 3):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    deck_cards = cards_of(round_deck(state.params, 2))
    deck = Deck([card_str(c) for c in deck_cards])
    ds = DealState(
        deck,
        {SEAT_NAMES[s]: [card_str(c) for c in state.dealt_hand(s)] for s in range(4)}
        | {PLAYED: []},
        agents={name: name for name in SEAT_NAMES},
    )
    led = state.plays[0][1] >> 3
    for seat, c in state.plays:
        ds.move(card_str(c), SEAT_NAMES[seat], PLAYED)
        if c >> 3 != led:
            ds.void(SEAT_NAMES[seat], [card_str(x) for x in deck_cards if x >> 3 == led])
    pm = ds.kripke_model()
    known = 0
    for seat in range(4):
        k = seat_knowledge(state, seat)
        me = SEAT_NAMES[seat]
        for c in deck_cards:
            for owner in SEAT_NAMES:
                for f in (f"has({owner}, {card_str(c)})", f"~has({owner}, {card_str(c)})"):
                    model = holds(pm, f"K_{me} {f}")
                    assert model == k.knows(f), (me, f)
                    known += model
            either = f"has({SEAT_NAMES[(seat + 1) % 4]}, {card_str(c)}) | has({SEAT_NAMES[(seat + 2) % 4]}, {card_str(c)})"
            assert holds(pm, f"K_{me} ({either})") == k.knows(either)
    assert known > 40
    assert all(
        seat_knowledge(state, s).size(OUT) == 24 for s in range(4)
    )  # 24 cards out of the round


def test_make_guess_probability_bounds_and_errors():
    state = random_playout(load_game("boerenbridge"), seed=4, stop_after=78)
    p = make_guess_probability(state, "North", samples=12, seed=2)
    q = make_guess_probability(state, "North", samples=12, seed=2, mode="possible")
    assert 0.0 <= p <= q <= 1.0
    east = make_guess_probability(state, "East", viewer="South", samples=12, seed=2)
    assert 0.0 <= east <= 1.0
    with pytest.raises(InvalidParameterError, match="mode"):
        make_guess_probability(state, "North", mode="maybe")
    with pytest.raises(InvalidParameterError, match="seat"):
        make_guess_probability(state, "Nowhere")
    early = random_playout(load_game("boerenbridge"), seed=4, stop_after=5)
    with pytest.raises(InvalidParameterError, match="play phase"):
        make_guess_probability(early, "North")


def test_a_guess_already_out_of_reach_has_probability_zero():
    state = load_game("boerenbridge").new_initial_state()
    deal_round(state, ["AS 7C", "KH 8C", "AH 9C", "JH 10C"], trump_action=parse_card("QS"))
    for g in (1, 0, 2, 0):  # North (the dealer) says 0 after East 1, South 0, West 2
        state.apply_action(GUESS_BASE + g)
    state.apply_action(parse_card("AS"))
    state.apply_action(parse_card("8C"))
    state.apply_action(parse_card("9C"))
    state.apply_action(parse_card("10C"))  # East wins with the A♠; West can no longer take 2
    assert make_guess_probability(state, "West", samples=8) == 0.0
    assert make_guess_probability(state, "East", samples=8, mode="possible") > 0.0


def test_guess_model_reweights_deals_apart_from_the_exact_knowledge():
    state = random_playout(load_game("boerenbridge"), seed=6, stop_after=120)
    while state.phase != "play":
        legal = state.legal_actions()
        state.apply_action(legal[0])
    view = SeatView.from_state(state, 0)
    deals = view.sample_hands(64, np.random.default_rng(0))
    model = GuessModel(sharpness=2.0)
    w = guess_weights(view, deals, model)
    assert len(w) == 64 and sum(w) == pytest.approx(1.0) and min(w) >= 0
    # the reading favours deals whose hands match the guesses
    east_guess = view.guesses[1]
    fit = [abs(model.estimate(h[1] | view.played_by[1], view.trump) - east_guess) for h in deals]
    weighted = sum(x * y for x, y in zip(w, fit, strict=True))
    assert weighted <= sum(fit) / len(fit) + 1e-9
    # and the exact knowledge is untouched by guesses
    assert view.knowledge().count() == seat_knowledge(state, 0).count()


def test_sampled_deals_respect_everything_the_seat_saw():
    game = load_game("boerenbridge", rounds=(6,), no_trump_rounds=())
    rng = random.Random(12)
    state = game.new_initial_state()
    while not (state.phase == "play" and len(state.plays) >= 11):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert sum(v.bit_count() for v in SeatView.from_state(state, 0).voids) >= 2
    for seat in range(4):
        view = SeatView.from_state(state, seat)
        for hands in view.sample_hands(40, np.random.default_rng(seat)):
            assert hands[seat] == view.hand
            seen = view.played | view.hand | (1 << view.trump_card)
            for p in range(4):
                assert hands[p].bit_count() == view.hand_size(p)
                if p != seat:
                    assert not hands[p] & seen
                for s in range(4):
                    if view.voids[p] >> s & 1:
                        assert not hands[p] & (0xFF << (8 * s))
            assert sum(h.bit_count() for h in hands) == len({c for h in hands for c in cards_of(h)})
