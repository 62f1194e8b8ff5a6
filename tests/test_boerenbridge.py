"""The BoerenBridge engine: the rules of boerenbridge.md and CLARIFICATIONS.md, API
conformance over random games, illegal actions, hidden information and golden playthroughs."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import CHANCE, TERMINAL, load_game, make_bot, play_game, registered_bots
from games.boerenbridge import (
    GUESS_BASE,
    LAMAS_ROUNDS,
    NUM_CARDS,
    STANDARD_ROUNDS,
    SUIT_BASE,
    BoerenBridgeParams,
    SeatView,
    card_str,
    cards_of,
    parse_card,
    parse_cards,
    parse_seat,
    random_playout,
    round_deck,
    round_score,
    trick_winner,
)
from games.errors import CardParseError, IllegalActionError, InvalidParameterError

GOLDEN = Path(__file__).resolve().parent / "golden"


def advance_to(state, phase, rng):
    """Apply random legal actions until ``state.phase == phase``."""
    while state.phase != phase:
        if state.is_chance_node():
            outs = state.chance_outcomes()
            state.apply_action(outs[rng.randrange(len(outs))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return state


def deal_round(state, hands, trump_action=None):
    """Deal the given hands (one text per seat, in dealing order from left of the dealer)."""
    n = state.num_players()
    cards = [parse_cards(h) for h in hands]
    order = [(state.dealer + 1 + i) % n for i in range(n)]
    by_seat = dict(zip(order, cards, strict=True))
    for k in range(len(cards[0])):
        for s in order:
            state.apply_action(by_seat[s][k])
    if trump_action is not None:
        state.apply_action(trump_action)


# ------------------------------------------------------------------ rules
def test_standard_parameters_follow_the_rule_text():
    p = load_game("boerenbridge").params
    assert p.rounds == STANDARD_ROUNDS == (2, 3, 4, 5, 6, 7, 8, 8, 8, 7, 6, 5, 4, 3, 2)
    assert p.no_trump_rounds == (8,) and p.players == 4 and p.trump == "turn-up"
    lamas = load_game("boerenbridge", variant="lamas").params
    assert lamas.rounds == LAMAS_ROUNDS == (3, 4, 5, 4, 3)
    assert lamas.trump == "random-suit" and lamas.deck == "top" and lamas.zero_bonus is None


def test_scoring_examples_from_the_rule_text():
    p = BoerenBridgeParams()
    assert round_score(p, 5, 3, 3) == 2 * 3 + 10
    assert round_score(p, 6, 0, 0) == 20  # correct 0 in a round of 6 or more cards
    assert round_score(p, 5, 0, 0) == 10  # ... but not with 5 cards
    assert round_score(p, 8, 2, 5) == -6
    lamas = load_game("boerenbridge", variant="lamas").params
    assert round_score(lamas, 5, 0, 0) == 10 and round_score(lamas, 8, 0, 0) == 10


def test_trick_winner_trumps_then_led_suit():
    assert trick_winner(parse_cards("9H AS 7D KH"), trump=None) == 3
    assert trick_winner(parse_cards("9H AS 7D KH"), trump=1) == 2  # the 7♦ ruffs
    assert trick_winner(parse_cards("9H AS 7D KH"), trump=3) == 1
    assert trick_winner(parse_cards("7C 8D 9S"), trump=2) == 0  # off-suit cards never win


def test_dealer_rotation_trump_and_no_trump_round():
    rng = random.Random(4)
    state = load_game("boerenbridge").new_initial_state()
    dealers, trumps = [], []
    for r in range(15):
        advance_to(state, "guess", rng)
        assert state.round_index == r and state.cards_per_hand == STANDARD_ROUNDS[r]
        dealers.append(state.dealer)
        if r + 1 == 8:
            assert state.trump is None and state.trump_card is None
        elif STANDARD_ROUNDS[r] == 8:  # no card left: a drawn suit
            assert state.trump is not None and state.trump_card is None
        else:  # a turned-up card fixes the suit and leaves every hand
            assert state.trump == state.trump_card >> 3
            assert all(state.trump_card not in state.hand(s) for s in range(4))
        trumps.append(state.trump)
        # the player left of the dealer guesses first
        assert state.current_player() == (state.dealer + 1) % 4
        advance_to(state, "play", rng)
        assert state.current_player() == (state.dealer + 1) % 4  # ... and leads
        if r < 14:
            advance_to(state, "deal", rng)
    assert dealers == [r % 4 for r in range(15)]


def test_lamas_deals_the_top_ranks_and_draws_a_suit():
    rng = random.Random(2)
    state = load_game("boerenbridge", variant="lamas").new_initial_state()
    for r, n in enumerate(LAMAS_ROUNDS):
        assert state.phase == "deal" and state.round_index == r
        deck = [a for a, _ in state.chance_outcomes()]
        assert len(deck) == 4 * n and {c & 7 for c in deck} == set(range(8 - n, 8))
        advance_to(state, "trump", rng)
        assert state.undealt() == []  # every card of the round is dealt
        assert [a for a, _ in state.chance_outcomes()] == [SUIT_BASE + s for s in range(4)]
        advance_to(state, "guess", rng)
        assert state.trump_card is None and state.trump is not None
        advance_to(state, "deal" if r < len(LAMAS_ROUNDS) - 1 else "over", rng)


def test_dealer_may_not_make_the_guesses_add_up():
    state = load_game("boerenbridge").new_initial_state()
    deal_round(state, ["AH 7C", "KH 8C", "QH 9C", "JH 10C"], trump_action=parse_card("AS"))
    for g in (1, 0, 0):
        state.apply_action(GUESS_BASE + g)
    assert state.current_player() == state.dealer
    assert state.legal_actions() == [GUESS_BASE + 0, GUESS_BASE + 2]
    before = (state.history(), state.information_state_string(0), state.guesses)
    with pytest.raises(IllegalActionError, match="may not make the guesses add up to the 2"):
        state.apply_action(GUESS_BASE + 1)
    with pytest.raises(IllegalActionError, match="between 0 and 2"):
        state.apply_action(GUESS_BASE + 3)
    with pytest.raises(IllegalActionError, match="turn to guess"):
        state.apply_action(parse_card("AH"))
    assert (state.history(), state.information_state_string(0), state.guesses) == before


def test_follow_suit_and_cards_not_in_hand():
    state = load_game("boerenbridge").new_initial_state()
    # dealer North: East, South, West, North receive these hands
    deal_round(state, ["AH 7C", "KH 8C", "QS 9C", "JH 10C"], trump_action=parse_card("AS"))
    for g in (1, 0, 0, 0):
        state.apply_action(GUESS_BASE + g)
    state.apply_action(parse_card("AH"))  # East leads a heart
    assert state.current_player() == 2 and state.legal_actions() == parse_cards("KH")
    before = (state.history(), [state.information_state_string(s) for s in range(4)])
    with pytest.raises(IllegalActionError, match="revoke: South must follow hearts and holds KH"):
        state.apply_action(parse_card("8C"))
    with pytest.raises(IllegalActionError, match="JH is not in South's hand"):
        state.apply_action(parse_card("JH"))
    with pytest.raises(IllegalActionError, match="guessing is over"):
        state.apply_action(GUESS_BASE)
    assert (state.history(), [state.information_state_string(s) for s in range(4)]) == before
    state.apply_action(parse_card("KH"))
    state.apply_action(parse_card("QS"))  # West shows out of hearts and ruffs
    state.apply_action(parse_card("JH"))
    assert state.tricks_won == (0, 0, 0, 1) and state.leader == 3


def test_round_scores_after_a_full_round():
    state = load_game("boerenbridge").new_initial_state()
    deal_round(state, ["AH 7C", "KH 8C", "QS 9C", "JH 10C"], trump_action=parse_card("AS"))
    for g in (1, 0, 1, 1):  # East 1, South 0, West 1, North 1 (sum 3 != 2)
        state.apply_action(GUESS_BASE + g)
    for c in ("AH", "KH", "QS", "JH", "9C", "10C", "7C", "8C"):
        state.apply_action(parse_card(c))
    rec = state.records[0]
    assert rec.tricks == (1, 0, 0, 1)
    assert rec.guesses == (1, 1, 0, 1)
    assert rec.points == (12, -2, 10, 12)
    assert state.returns() == [12.0, -2.0, 10.0, 12.0]


def test_parameters_are_validated():
    with pytest.raises(InvalidParameterError, match="3 or 4 players"):
        load_game("boerenbridge", players=2)
    with pytest.raises(InvalidParameterError, match="round size 9"):
        load_game("boerenbridge", rounds=(2, 9))
    with pytest.raises(InvalidParameterError, match="unknown BoerenBridge variant"):
        load_game("boerenbridge", variant="oh-hell")
    with pytest.raises(InvalidParameterError, match="unknown BoerenBridge parameter 'colour'"):
        load_game("boerenbridge", colour=1)
    g = load_game("boerenbridge", rounds="3,4", no_trump_rounds="2", zero_bonus=None)
    assert g.params.rounds == (3, 4) and g.params.no_trump_rounds == (2,)


def test_cards_and_seats_parse_and_name_bad_tokens():
    assert [card_str(c) for c in parse_cards("A♥ 10s th 7c")] == ["AH", "10S", "10H", "7C"]
    with pytest.raises(CardParseError, match="'6H'"):
        parse_card("6H")
    with pytest.raises(CardParseError, match="'XX'"):
        parse_cards("AH XX")
    assert parse_seat("West") == 3 and parse_seat("s") == 2
    with pytest.raises(InvalidParameterError, match="'Up'"):
        parse_seat("Up")


# -------------------------------------------------------- API conformance
def conserved(state) -> None:
    deck = round_deck(state.params, state.cards_per_hand)
    held = 0
    for s in range(state.num_players()):
        h = state.hand_mask(s)
        assert not held & h
        held |= h
    rest = held | sum(1 << c for c in state.undealt())
    rest |= sum(1 << c for _, c in state.plays)
    if state.trump_card is not None:
        rest |= 1 << state.trump_card
    assert rest == deck or state.phase == "over"


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    variant=st.sampled_from(["standard", "lamas"]),
    players=st.sampled_from([3, 4]),
)
def test_random_games_respect_the_state_api(seed, variant, players):
    game = load_game("boerenbridge", variant=variant, players=players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        conserved(state)
        legal = state.legal_actions()
        assert legal == sorted(set(legal)) and legal
        if state.is_chance_node():
            assert state.current_player() == CHANCE
            assert abs(sum(p for _, p in state.chance_outcomes()) - 1) < 1e-9
        if steps % 97 == 0:  # clones are independent
            twin = state.clone()
            twin.apply_action(legal[0])
            assert twin.history() != state.history()
        state.apply_action(legal[rng.randrange(len(legal))])
        steps += 1
    assert state.current_player() == TERMINAL and state.legal_actions() == []
    assert len(state.records) == len(game.params.rounds)
    assert state.returns() == [
        float(sum(r.points[s] for r in state.records)) for s in range(players)
    ]
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply_action(0)


def test_same_seed_same_transcript():
    game = load_game("boerenbridge")
    a = random_playout(game, seed=11)
    b = random_playout(game, seed=11)
    assert a.history() == b.history() and a.returns() == b.returns()
    assert random_playout(game, seed=12).history() != a.history()


def test_hidden_cards_never_reach_other_seats():
    """A seat's observations name other hands' cards only once they are played: two deals
    that differ only in the other hands look the same to the seat until then."""
    game = load_game("boerenbridge", rounds=(3,), no_trump_rounds=())
    hands_a = ["AH 7C 9D", "KH 8C 10D", "QS 9C JD", "JH 10C QD"]
    hands_b = ["AH 7C 9D", "QD 10C 8C", "JD KH JH", "QS 9C 10D"]  # East, South, West reshuffled
    states = []
    for hands in (hands_a, hands_b):
        st_ = game.new_initial_state()
        deal_round(st_, hands, trump_action=parse_card("AS"))
        for g in (1, 0, 0, 1):
            st_.apply_action(GUESS_BASE + g)
        st_.apply_action(parse_card("AH"))  # East (the first seat dealt) leads
        states.append(st_)
    a, b = states
    assert a.information_state_string(1) == b.information_state_string(1)
    assert a.hand(1) == b.hand(1)
    for seat in (0, 2, 3):  # the others' streams differ exactly in their own hand
        assert a.information_state_string(seat) != b.information_state_string(seat)
    for seat in range(4):
        for obs in a.observations(seat):
            if obs.kind == "hand" and obs.get("cards") is not None:
                assert obs["seat"] == seat


def test_a_seat_view_rebuilt_from_observations_matches_the_state():
    game = load_game("boerenbridge")
    for stop in (41, 120, 333, 500, 650):
        state = random_playout(game, seed=stop, stop_after=stop)
        if state.phase == "deal":
            continue
        for seat in range(4):
            v = SeatView.from_state(state, seat)
            assert v.hand == state.hand_mask(seat)
            assert v.trump == state.trump and v.trump_card == state.trump_card
            assert v.tricks == list(state.tricks_won)
            assert tuple(v.guesses) == state.guesses
            assert v.trick == list(state.current_trick)
            if state.phase == "play":
                assert v.to_play == state.current_player()
                if v.to_play == seat:
                    assert v.legal_cards() == state.legal_actions()


def _pretty_seated(plays):
    from games.boerenbridge import SEAT_NAMES, card_pretty

    return " ".join(f"{SEAT_NAMES[s][0]}:{card_pretty(c)}" for s, c in plays)


@pytest.mark.parametrize("variant", ["standard", "lamas"])
def test_seat_view_shows_the_current_table_at_every_step(variant):
    # The rows follow the state after every action: whose turn it is, the trick
    # on the table and the last completed one, the current guesses and tricks;
    # once a round is scored (and while the next is dealt), its result -- never
    # the events of a finished round as if they were current.
    from games.boerenbridge import SEAT_NAMES, card_pretty

    game = load_game("boerenbridge", variant=variant)
    state = game.new_initial_state()
    rng = random.Random(7)
    trick_log: list[tuple[int, int]] = []
    last_trick = None
    step = 0
    checked_between_rounds = checked_last_trick = 0
    while True:
        step += 1
        if state.is_terminal() or step % 5 == 0 or state.phase == "deal":
            seat = step % 4
            rows = state.seat_view(seat)
            d = dict(rows)
            assert rows[0] == ("seat", SEAT_NAMES[seat])
            if state.is_terminal():
                assert d["to move"] == "game over"
            elif state.phase == "deal":
                assert d["to move"].startswith(f"dealing round {state.round_index + 1} ")
            elif state.phase in ("guess", "play"):
                assert d["to move"] == f"{SEAT_NAMES[state.current_player()]} to {state.phase}"
            scored = state.records and (state.phase in ("deal", "over"))
            if scored:
                rec = state.records[-1]
                assert d["round"].endswith("· scored")
                for p in range(4):
                    assert d[SEAT_NAMES[p]] == (
                        f"guessed {rec.guesses[p]} · took {rec.tricks[p]} · "
                        f"{rec.points[p]:+d} points · score {state.scores[p]}"
                    )
                checked_between_rounds += 1
            elif state.phase in ("guess", "play"):
                assert "scored" not in d["round"]
                assert d["hand"] == (" ".join(card_pretty(c) for c in state.hand(seat)) or "-")
                for p in range(4):
                    g = state.guesses[p]
                    assert d[SEAT_NAMES[p]].startswith(
                        f"guess {'-' if g is None else g} · tricks {state.tricks_won[p]} · "
                    )
                    assert d[SEAT_NAMES[p]].split(" · ")[3] == f"score {state.scores[p]}"
                if state.current_trick:
                    k = len(state.current_trick)
                    assert d["trick"] == _pretty_seated(state.plays[-k:])
                else:
                    assert "trick" not in d
            if last_trick is not None and state.phase != "guess":
                assert d["last trick"] == last_trick
                checked_last_trick += 1
            # nothing of another seat's hand shows
            shown = " ".join(v for _, v in rows)
            for p in range(4):
                if p != seat and state.phase in ("guess", "play"):
                    assert not any(card_pretty(c) in shown for c in state.hand(p))
        if state.is_terminal():
            break
        if state.phase == "deal" and not state.hand(0):
            trick_log = []
            last_trick = None
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            seat_to_play, trump = state.current_player(), state.trump
            action = legal[rng.randrange(len(legal))]
            state.apply_action(action)
            if action < NUM_CARDS:
                trick_log.append((seat_to_play, action))
                if len(trick_log) % 4 == 0:
                    done = trick_log[-4:]
                    w = done[trick_winner([c for _, c in done], trump)][0]
                    last_trick = f"{_pretty_seated(done)} · won by {SEAT_NAMES[w]}"
    assert checked_between_rounds > 0 and checked_last_trick > 0


@pytest.mark.parametrize("name", ["standard_seed3", "lamas_seed3", "3players_seed5"])
def test_golden_playthroughs(name):
    spec = importlib.util.spec_from_file_location(
        "boerenbridge_regenerate", GOLDEN / "boerenbridge_regenerate.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    fname = f"boerenbridge_{name}.txt"
    assert mod.playthrough(**mod.CASES[fname]) == (GOLDEN / fname).read_text()


def test_simple_bots_play_whole_games():
    assert {"random", "greedy"} <= set(registered_bots("boerenbridge"))
    game = load_game("boerenbridge")
    bots = [make_bot("boerenbridge", n, seed=i) for i, n in enumerate(["greedy", "random"] * 2)]
    res = play_game(game, bots, seed=3)
    assert res.forfeit is None and len(res.returns) == 4
    assert NUM_CARDS == 32 and cards_of(0) == []
