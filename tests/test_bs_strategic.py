"""The strategic BS bot: legal and deterministic, honest about information, and its decisions.

The decisions are checked on dealt games built card by card (the engine's
chance actions), so every situation is a real game state seen through the
bot's own observations.
"""

from __future__ import annotations

import random
from itertools import product
from math import comb

import pytest

from games.base import Bot, load_game, make_bot, play_game
from games.bs import CALL, PASS, BSState
from games.bs.strategic import StrategicBot, hyper_at_least
from tests.recording import Recorder

KOTH = load_game("bs", variant="koth")


def deal_koth(hands: list[list[int]], order: int = 0) -> BSState:
    """A koth game with the seat order ``order`` (index of the permutation) and these hands."""
    assert sorted(c for h in hands for c in h) == sorted(r for r in range(13) for _ in range(4))
    state = KOTH.new_initial_state()
    state.apply_action(order)
    for i in range(52):
        state.apply_action(hands[i % 4][i // 4])
    return state


def informed(state: BSState, seat: int, bot: Bot | None = None) -> Bot:
    """A strategic bot at ``seat`` that has seen that seat's observations of ``state``."""
    bot = bot or StrategicBot(seed=0)
    bot.restart(KOTH, seat)
    for o in state.observations(seat):
        bot.inform(o)
    return bot


def play(state: BSState, cards: list[int]) -> None:
    """The current player plays ``cards`` (numbers)."""
    counts = [0] * 13
    for c in cards:
        counts[c] += 1
    state.apply_action(KOTH.encode(counts))


# 13 cards each; seat 0 holds three 0s and the whole deck is dealt
HANDS = [
    [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    [0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12],
    [1, 2, 2, 3, 4, 5, 6, 7, 8, 10, 10, 11, 12],
    [3, 4, 5, 6, 7, 8, 9, 9, 10, 11, 11, 12, 12],
]


# ------------------------------------------------------------ legal, seeded
@pytest.mark.parametrize("variant", ["koth", "classic"])
def test_plays_whole_games_legally(variant):
    game = load_game("bs", variant=variant)
    others = ("truthful", "threshold", "liar") if variant == "classic" else ("sample", "liar")
    for seed in range(4):
        names = ["strategic", *others, "strategic"][:4]
        bots = [make_bot("bs", n, seed=seed * 10 + i) for i, n in enumerate(names)]
        res = play_game(game, bots, seed=seed, keep_state=True)
        assert res.forfeit is None
        assert res.state is not None and res.state.is_terminal()


def test_deterministic_per_seed():
    def transcript(seed):
        bots = [make_bot("bs", "strategic", seed=seed + i) for i in range(4)]
        res = play_game(KOTH, bots, seed=seed, keep_state=True)
        return [str(o) for o in res.state.observations(0)], res.returns

    assert transcript(3) == transcript(3)
    assert transcript(3) != transcript(4)


# ------------------------------------------------------- information honesty
def test_receives_only_its_seats_observations():
    spies = [Recorder(StrategicBot(seed=s)) for s in range(4)]
    res = play_game(KOTH, spies, seed=8, keep_state=True)
    for s, spy in enumerate(spies):
        assert spy.received == list(res.state.observations(s))


def test_decisions_depend_only_on_the_seats_observations():
    # swapping unseen cards between seats 2 and 3 changes nothing seat 0 sees, so
    # neither its call (on seat 1's claim) nor its next play changes
    def run(hands):
        state = deal_koth(hands)
        play(state, [1, 2])  # seat 0 claims two 0s
        while state.phase == "call":
            state.apply_action(PASS)
        play(state, [1])  # seat 1 claims one 1 truthfully
        while state.current_player() != 0:
            state.apply_action(PASS)
        decisions = [informed(state, 0).step(state.legal_actions())]
        while state.current_player() != 0 or state.phase != "play":
            if state.phase == "call":
                state.apply_action(PASS)
            else:  # seats 2 and 3 put down their first card
                hand = state._hands[state.current_player()]
                play(state, [next(k for k, c in enumerate(hand) if c)])
        decisions.append(informed(state, 0).step(state.legal_actions()))
        return decisions, state.information_state_string(0)

    twin = [list(h) for h in HANDS]
    twin[2][0], twin[3][0] = twin[3][0], twin[2][0]  # a 1 and a 3 change seats
    twin[2].sort()
    twin[3].sort()
    a, info_a = run([list(h) for h in HANDS])
    b, info_b = run(twin)
    assert info_a == info_b
    assert a == b


# ---------------------------------------------------------------- decisions
def test_calls_a_claim_it_can_prove_false():
    state = deal_koth([HANDS[1], HANDS[0], HANDS[2], HANDS[3]])  # seat 1 holds three 0s
    play(state, [1, 2])  # seat 0 claims two 0s with a 1 and a 2
    assert state.current_player() == 1 and state.phase == "call"
    bot = informed(state, 1)
    assert bot.lie_probability(0, 0, 2) == 1.0
    assert bot.step(state.legal_actions()) == CALL


def test_does_not_call_a_claim_it_cannot_refute_early():
    state = deal_koth(HANDS)
    play(state, [0])  # seat 0 claims one 0 truthfully; seat 1 holds one 0 itself
    bot = informed(state, 1)
    assert 0.0 < bot.lie_probability(0, 0, 1) < 1.0
    assert bot.step(state.legal_actions()) == PASS


def test_calls_a_player_going_out():
    # a claimer with no cards left wins unless called; calling costs nothing then
    bot = StrategicBot(seed=0)
    state = deal_koth(HANDS)
    bot = informed(state, 1, bot)
    bot.view.sizes[0] = 0
    bot._open = (0, 0, 1, 1)
    bot.view.last = (0, 0, 1)
    assert bot.call(0, 0, 1) is True


def test_plays_its_whole_hand_when_it_is_all_of_the_required_rank():
    bot = informed(deal_koth(HANDS), 0)
    hand = [0] * 13
    hand[0] = 2
    bot.view.hand = hand  # two 0s left at a turn that claims 0s
    assert bot.choose(0) == hand


def drive(seed: int, others=("truthful", "liar", "sample"), check=None) -> BSState:
    """A whole koth game with a strategic bot at seat 0; ``check(state, bot)`` before its moves."""
    rng = random.Random(seed)
    state = KOTH.new_initial_state()
    bots = [StrategicBot(seed=seed)] + [make_bot("bs", n, seed=seed) for n in others]
    for s, b in enumerate(bots):
        b.restart(KOTH, s)
    seen = [0] * 4
    while not state.is_terminal():
        for s in range(4):
            obs = state.observations(s)
            for o in obs[seen[s] :]:
                bots[s].inform(o)
            seen[s] = len(obs)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        cur = state.current_player()
        if cur == 0 and check is not None:
            check(state, bots[0])
        state.apply_action(bots[cur].step(state.legal_actions()))
    return state


def test_never_lies_when_a_truthful_last_play_is_there():
    # whenever its whole hand is of the required rank, the bot plays it all (and wins)
    finals = []

    def check(state, bot):
        if state.phase == "play":
            hand = state._hands[0]
            if sum(hand) == hand[state.required_rank]:
                action = bot.step(state.legal_actions())
                assert KOTH.decode(action) == hand
                finals.append(action)

    for seed in range(12):
        drive(seed, check=check)
    assert finals


def test_a_lie_it_can_prove_is_never_a_truth():
    # soundness of the bookkeeping: whenever the bot's counting proves a claim false,
    # the cards put down were not all of the claimed rank
    proofs = []

    def check(state, bot):
        if state.phase == "call":
            p, rank, count = bot.view.last
            if bot.lie_probability(p, rank, count) == 1.0:
                proofs.append(any(c and k != rank for k, c in enumerate(state._play)))

    for seed in range(8):
        drive(seed, check=check)
    assert proofs and all(proofs)


def test_learns_who_calls_from_the_public_calls():
    bot = informed(deal_koth(HANDS), 0)
    prior3 = bot.call_rate(2, 3)
    prior1 = bot.call_rate(2, 1)
    for _ in range(6):  # seat 1 claims three cards, seat 2 calls every time
        bot._open = (1, 5, 3, 10)
        bot._settle_decisions((2,))
        bot._open = (1, 5, 1, 10)  # and lets every one-card claim pass
        bot._settle_decisions(())
    assert bot.call_rate(2, 3) > prior3 + 0.3
    assert bot.call_rate(2, 1) < prior1
    assert bot.call_rate(3, 3) < prior3  # seat 3 never called


def test_lies_big_on_an_empty_pile_and_small_on_a_pile_the_seats_would_call():
    # seat 0 holds no 11: claiming 11s, the cards it can shed depend on what a call costs
    state = deal_koth(HANDS)
    bot = informed(state, 0)
    for s in (1, 2, 3):  # nobody has called anything yet
        bot.chances[s] = [30.0] * 5
    assert bot.view.pile == 0
    calm = sum(bot.choose(11))
    bot.view.pile = 12
    for s in (1, 2, 3):  # every claim of 2 or more is called
        bot.calls[s][1:4] = bot.chances[s][1:4] = [30.0] * 3
    nervous = sum(bot.choose(11))
    assert calm >= 2 and nervous == 1


def test_hyper_at_least_matches_counting():
    for total, good, drawn in product(range(7), repeat=3):
        if good > total or drawn > total:
            continue
        for k in range(5):
            hits = 0
            for j in range(k, min(good, drawn) + 1):
                hits += comb(good, j) * comb(total - good, drawn - j)
            assert hyper_at_least(total, good, drawn, k) == pytest.approx(hits / comb(total, drawn))


def test_field_benchmark_runs_and_resumes(tmp_path, capsys):
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "bs_koth_field.py"
    spec = importlib.util.spec_from_file_location("bs_koth_field", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    args = ["field", "--games", "6", "--bots", "strategic,truthful,liar,sample,first-card"]
    args += ["--out", str(tmp_path), "--workers", "1"]
    bench.main(args)
    first = capsys.readouterr().out
    assert "6 games played in this run" in first and "strategic" in first
    bench.main(args)  # resumes: every game is in the results file already
    again = capsys.readouterr().out
    assert "games played in this run" not in again
    assert first.splitlines()[:8] == again.splitlines()[:8]  # the same table
