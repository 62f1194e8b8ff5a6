"""The published tournament entries rewritten as bots (games/bs/published.py):
legal, seeded, honest about information, and their decision rules."""

from __future__ import annotations

import random

import pytest

from games.base import load_game, make_bot, play_game
from games.bs import CALL, PASS, SeatKnowledge
from games.bs.published import (
    CalculatingLiarPlayer,
    ConManPlayer,
    last_needed,
    plays_to_go_out,
    turn_order_of_numbers,
)
from tests.recording import Recorder
from tests.test_bs_strategic import HANDS, deal_koth, informed, play

KOTH = load_game("bs", variant="koth")
NAMES = ["calculating-liar", "con-man"]


@pytest.mark.parametrize("name", NAMES)
def test_whole_games_are_legal_and_replay_per_seed(name):
    def transcript(seed):
        names = [name, "strategic", "truthful", name]
        bots = [make_bot("bs", n, seed=seed + i) for i, n in enumerate(names)]
        res = play_game(KOTH, bots, seed=seed, keep_state=True)
        assert res.forfeit is None and res.state.is_terminal()
        return [str(o) for o in res.state.observations(1)], res.returns

    for seed in range(3):
        assert transcript(seed) == transcript(seed)


@pytest.mark.parametrize("cls", [CalculatingLiarPlayer, ConManPlayer])
def test_receives_only_its_seats_observations(cls):
    bots = [Recorder(cls(seed=s)) for s in range(2)] + [
        make_bot("bs", n, seed=9) for n in ("truthful", "threshold")
    ]
    res = play_game(KOTH, bots, seed=4, keep_state=True)
    for seat in range(2):
        assert bots[seat].received == list(res.state.observations(seat))


def test_the_turn_order_of_numbers():
    # four seats: a seat is asked every fourth number; all 13 come up in 13 turns
    assert sorted(turn_order_of_numbers(5)) == list(range(13))
    assert turn_order_of_numbers(5)[:4] == [5, 9, 0, 4]
    assert last_needed([5, 9, 0], 5) == 0
    assert plays_to_go_out([9, 9], 5) == ([9], [5])


def _call_decision(bot_cls, claim: list[int]) -> int:
    """Seat 0 (three 0s in HANDS) plays ``claim`` as its 0s; seat 1's decision."""
    state = deal_koth(HANDS)
    play(state, claim)
    assert state.phase == "call" and state.current_player() == 1
    return informed(state, 1, bot_cls(seed=0)).step(state.legal_actions())


def test_calculating_liar_calls_when_the_copies_it_accounts_for_exceed_four():
    # seat 1 holds one 0: a claim of three 0s is possible, of four is not
    assert _call_decision(CalculatingLiarPlayer, [0, 0, 0]) == PASS
    assert _call_decision(CalculatingLiarPlayer, [0, 0, 0, 1]) == CALL


def test_con_man_calls_an_impossible_claim_and_lets_a_likely_one_pass():
    assert _call_decision(ConManPlayer, [0, 0, 0, 1]) == CALL
    assert _call_decision(ConManPlayer, [0]) == PASS


def test_both_lie_with_the_card_they_are_asked_for_last():
    # every seat plays its cards of the asked number, else its lowest card, nobody
    # calls; at each later turn without the asked number, both put down one card
    # of the number they will be asked for last
    checked = 0
    for cls in (CalculatingLiarPlayer, ConManPlayer):
        state = deal_koth(HANDS)
        for _ in range(24):
            seat = state.current_player()
            bot = informed(state, seat, cls(seed=0))
            hand, required = bot.get_hand(), bot.view.required
            if required not in hand:
                counts = KOTH.decode(bot.step(state.legal_actions()))
                assert sum(counts) == 1
                assert counts.index(1) == last_needed(hand, required)
                checked += 1
            held = state._hands[seat]
            ranks = [k for k, c in enumerate(held) if c]
            play(state, [required] * held[required] if held[required] else [ranks[0]])
            while state.phase == "call":
                state.apply_action(PASS)
    assert checked >= 4


@pytest.mark.parametrize("seed", range(6))
def test_con_mans_first_claim_probability_is_the_exact_one(seed):
    # before any card is placed the tracker knows only its own hand, so its
    # hypergeometric chance that the claimant held the claimed cards is exact:
    # it equals 1 - the seat's exact lie probability from its deal knowledge
    rng = random.Random(seed)
    deck = [r for r in range(13) for _ in range(4)]
    rng.shuffle(deck)
    hands = [sorted(deck[i * 13 : (i + 1) * 13]) for i in range(4)]
    held = [c for c in hands[0] if c == 0]
    claim = held + [c for c in hands[0] if c != 0][: rng.randint(1, 4 - len(held))]
    state = deal_koth(hands)
    play(state, claim)
    for seat in (1, 2, 3):
        bot = informed(state, seat, ConManPlayer(seed=0))
        exact = SeatKnowledge(KOTH, seat, exact=True)
        for o in state.observations(seat):
            exact.observe(o)
        assert bot._last_prob == pytest.approx(1 - exact.lie_probability(), abs=1e-12)
