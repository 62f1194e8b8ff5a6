"""BoerenBridge bots: legal, reproducible, blind to hidden cards, and doing what their
policies say in positions with a known right answer; the narrated ``kripke play``."""

from __future__ import annotations

import io
import itertools
import sys

import pytest

from games.base import Bot, load_game, make_bot, play_game, registered_bots
from games.boerenbridge import GUESS_BASE, GuessModel, card_str, parse_card, parse_cards
from games.boerenbridge.bots import (
    KnowledgeBot,
    NoisySelfishBot,
    SamplingBot,
    SelfishBot,
    SelfishPlayBot,
    SelfishSearchBot,
    SmallHandSelfishBot,
    estimated_guesses,
    selfish_playout,
)
from kripke.cli import main

BOTS = ["random", "greedy", "knowledge", "sampling", "selfish"]


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


def decide(bot: Bot, state, seat: int) -> int:
    """A fresh bot at ``seat`` fed ``seat``'s observations, asked for its action."""
    bot.restart(state.game, seat)
    for obs in state.observations(seat):
        bot.inform(obs)
    return bot.step(state.legal_actions(seat))


def test_all_bots_are_registered_and_play_legal_games():
    assert set(BOTS) <= set(registered_bots("boerenbridge"))
    game = load_game("boerenbridge", variant="lamas")
    for lineup in (
        BOTS[:4],
        BOTS[::-1][:4],
        ["selfish", "sampling", "selfish-play", "greedy"],
        ["selfish-search", "greedy", "random", "greedy"],
        ["selfish-noisy", "selfish-play", "knowledge", "greedy"],
        ["selfish-small", "selfish-noisy", "sampling", "greedy"],
    ):
        bots = [make_bot("boerenbridge", name, seed=i) for i, name in enumerate(lineup)]
        res = play_game(game, bots, seed=5)  # an illegal action would raise BotError
        assert res.forfeit is None and len(res.history) > 60


def test_same_seeds_same_game():
    game = load_game("boerenbridge", rounds=(3, 5), no_trump_rounds=())
    runs = []
    for _ in range(2):
        lineup = ["selfish", "greedy", "knowledge", "sampling"]
        bots = [make_bot("boerenbridge", name, seed=7 + i) for i, name in enumerate(lineup)]
        runs.append(play_game(game, bots, seed=9).history)
    assert runs[0] == runs[1]


@pytest.mark.parametrize(
    "name",
    [
        "knowledge",
        "sampling",
        "selfish",
        "selfish-play",
        "selfish-search",
        "selfish-noisy",
        "selfish-small",
    ],
)
def test_bots_decide_from_what_their_seat_saw_only(name):
    """Two deals that differ only in the other hands look the same to East before the
    first card: East's bot must act the same in both."""
    game = load_game("boerenbridge", rounds=(4,), no_trump_rounds=())
    hands_a = ["AH 7C 9D QS", "KH 8C 10D 8S", "QH 9C JD 9S", "JH 10C QD 10S"]
    hands_b = ["AH 7C 9D QS", "10S 9S 10D 8C", "JH QD KH 8S", "JD QH 9C 10C"]
    actions = []
    for hands in (hands_a, hands_b):
        state = game.new_initial_state()
        deal_round(state, hands, trump_action=parse_card("KS"))
        assert state.current_player() == 1
        guess = decide(make_bot("boerenbridge", name, seed=3), state, 1)
        for g in (guess - GUESS_BASE, 0, 1, 0):
            if state.current_player() == 0 and sum(x for x in state.guesses if x) + g == 4:
                g += 1
            state.apply_action(GUESS_BASE + g)
        card = decide(make_bot("boerenbridge", name, seed=3), state, 1)
        actions.append((guess, card, state.information_state_string(1)))
    assert actions[0] == actions[1]


@pytest.mark.parametrize("south_guess, right", [(1, "KS"), (0, "7C")])
def test_sampling_and_knowledge_bots_find_the_only_card_that_hits(south_guess, right):
    """East leads the A♦ and holds the A♠; South (K♠ 7♣) is void in diamonds.  Ruffing
    with the K♠ takes exactly one trick (the 7♣ is then led into East's A♠ ruff);
    throwing the 7♣ takes none (the K♠ falls under the A♠)."""
    game = load_game("boerenbridge", rounds=(2,), no_trump_rounds=())
    state = game.new_initial_state()
    deal_round(state, ["AD AS", "KS 7C", "QD 9C", "JD 10C"], trump_action=parse_card("8S"))
    east = 2 if south_guess == 0 else 1
    for g in (east, south_guess, 0, 1):  # North, the dealer, keeps the total off 2
        state.apply_action(GUESS_BASE + g)
    state.apply_action(parse_card("AD"))
    assert decide(SamplingBot(seed=2), state, 2) == parse_card(right)
    assert decide(SelfishBot(seed=2), state, 2) == parse_card(right)
    assert decide(SelfishPlayBot(seed=2), state, 2) == parse_card(right)
    assert decide(SelfishSearchBot(seed=2), state, 2) == parse_card(right)
    assert decide(NoisySelfishBot(seed=2), state, 2) == parse_card(right)
    assert decide(KnowledgeBot(seed=2), state, 2) == parse_card(right)


def test_smarter_bots_outscore_random_over_seeded_lamas_games():
    game = load_game("boerenbridge", variant="lamas")
    totals = {name: 0.0 for name in ("random", "knowledge", "sampling")}
    for g in range(6):
        lineup = ["random", "knowledge", "sampling", "random"]
        k = g % 4
        lineup = lineup[k:] + lineup[:k]
        bots = [make_bot("boerenbridge", n, seed=10 * g + i) for i, n in enumerate(lineup)]
        res = play_game(game, bots, seed=g)
        for seat, n in enumerate(lineup):
            totals[n] += res.returns[seat] / (2 if n == "random" else 1)
    assert totals["knowledge"] > totals["random"] and totals["sampling"] > totals["random"]


# ------------------------------------------------------------------ kripke play
def run(*argv, stdin: str | None = None):
    out = io.StringIO()
    old = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        code = main(list(argv), out=out)
    finally:
        sys.stdin = old
    return code, out.getvalue()


def test_narrated_game_shows_every_seats_knowledge():
    code, text = run(
        "play", "boerenbridge", "--seed", "3", "--bots", "knowledge,greedy,sampling,random",
        "--param", "rounds=2,3",
    )  # fmt: skip
    assert code == 0
    assert "Round 1/2 · 2 cards · dealer North" in text and "Round 2/2" in text
    assert "East guesses" in text and "no deal ruled out" in text
    assert text.count(" · sure where ") == 4 * (2 * 4 - 1 + 3 * 4 - 1)
    assert "final scores:" in text and "winner:" in text


def test_quiet_lamas_game_prints_the_result_only():
    code, text = run("play", "boerenbridge", "--variant", "lamas", "--bots", "greedy", "--quiet")
    assert code == 0 and text.count("\n") == 1 and text.startswith("final scores:")


def test_a_human_seat_plays_from_the_terminal():
    answers = "\n".join(itertools.chain.from_iterable(
        ["x", "0", "1"] + [card_str(c) for c in range(32)] for _ in range(40)
    ))  # fmt: skip
    code, text = run(
        "play", "boerenbridge", "--human", "0", "--bots", "greedy", "--param", "rounds=2",
        stdin=answers,
    )  # fmt: skip
    assert code == 0 and "your hand" in text and "North (you" in text
    assert "not one of" in text or "is not a BoerenBridge card" in text


def test_bad_play_options_are_named():
    code, _ = run("play", "boerenbridge", "--bots", "greedy,random", "--quiet")
    assert code == 2
    code, _ = run("play", "boerenbridge", "--bots", "wizard", "--quiet")
    assert code == 2
    code, _ = run("play", "boerenbridge", "--players", "5", "--quiet")
    assert code == 2


def test_the_bayesian_sampler_favours_deals_that_fit_the_guesses():
    """Reading the guesses with the guess model resamples the exact sampler's deals towards
    hands whose high cards match what the others guessed."""
    from games.boerenbridge import GuessModel, random_playout
    from games.boerenbridge.bots import BayesSamplingBot

    state = random_playout(load_game("boerenbridge"), seed=6, stop_after=120)
    while state.phase != "play":
        state.apply_action(state.legal_actions()[0])
    model = GuessModel()
    plain, bayes = SamplingBot(seed=4, samples=60), BayesSamplingBot(seed=4, samples=60)
    fits = []
    for bot in (plain, bayes):
        bot.restart(state.game, 0)
        for obs in state.observations(0):
            bot.inform(obs)
        v = bot.view
        deals = bot._deals(60)
        fits.append(
            sum(
                abs(model.estimate(h[p] | v.played_by[p], v.trump) - v.guesses[p])
                for h in deals
                for p in (1, 2, 3)
            )
        )
    assert fits[1] < fits[0]
    assert "sampling-bayes" in registered_bots("boerenbridge")


def test_seat_view_rows_show_only_what_the_seat_saw():
    from games.boerenbridge import card_pretty, random_playout

    state = random_playout(load_game("boerenbridge"), seed=4, stop_after=78)
    rows = dict(state.seat_view(2))
    assert rows["hand"] == " ".join(card_pretty(c) for c in state.hand(2))
    others = {card_pretty(c) for s in (0, 1, 3) for c in state.hand(s)}
    assert not any(c in " ".join(rows.values()) for c in others)


# ------------------------------------------------------------------ selfish
def test_selfish_playout_lets_every_seat_pursue_its_own_guess():
    """North's K♠ is beaten only if East plays the A♠ on it; East guessed 0 and
    follows with the Q♠, then throws the A♠ on the diamond lead.  Against a
    coalition (the paranoid double-dummy count) North takes no trick."""
    from games.boerenbridge.double_dummy import Position, mask_of, max_tricks

    hands = [mask_of(parse_cards(h)) for h in ("KS 8D", "AS QS", "9S 9D", "10S 10D")]
    assert selfish_playout(hands, None, 0, (), [0] * 4, [1, 0, 0, 1]) == [1, 0, 0, 1]
    assert max_tricks(Position(hands, None, 0), 0) == 0
    # wanting a trick, East takes the K♠ with the A♠
    assert selfish_playout(hands, None, 0, (), [0] * 4, [1, 1, 0, 1])[1] >= 1


def test_selfish_estimates_keep_the_dealer_off_the_forbidden_total():
    from games.boerenbridge import SeatView

    game = load_game("boerenbridge", rounds=(2,), no_trump_rounds=())
    state = game.new_initial_state()
    deal_round(state, ["AH 7D", "KS 7C", "QD 9C", "JD 10C"], trump_action=parse_card("8S"))
    for g in (1, 0):  # East, South; West is to guess, North deals
        state.apply_action(GUESS_BASE + g)
    view = SeatView.from_state(state, 3)
    hands = [state.hand_mask(s) for s in range(4)]
    # North's ace would make the total 2, the cards dealt: North's estimate moves to 0
    assert estimated_guesses(view, hands, GuessModel()) == [0, 1, 0, 0]
    state.apply_action(GUESS_BASE + 1)  # West: North may not say 0
    # the dealer itself never says the forbidden guess
    bot = SelfishBot(seed=1)
    action = decide(bot, state, 0)
    assert action in state.legal_actions(0) and action - GUESS_BASE != 0


def five_card_deal():
    """A 5-card round, diamonds trump, dealt and waiting for East's guess."""
    game = load_game("boerenbridge", rounds=(5,), no_trump_rounds=())
    state = game.new_initial_state()
    deal_round(
        state,
        ["AS KS QH 7C 8D", "10S 9S 10D 8C 9H", "JH QD KH 8S 7H", "JD QS 9C 10C 7S"],
        trump_action=parse_card("AD"),
    )
    return state


def test_selfish_bot_is_deterministic_for_a_seed():
    state = five_card_deal()
    picks = {decide(SelfishBot(seed=11), state, 1) for _ in range(3)}
    assert len(picks) == 1


def test_selfish_search_is_deterministic_for_a_seed_and_plays_a_legal_card():
    state = five_card_deal()
    for g in (1, 2, 1, 2):
        state.apply_action(GUESS_BASE + g)
    assert state.current_player() == 1  # East leads
    picks = {decide(SelfishSearchBot(seed=11, simulations=60), state, 1) for _ in range(3)}
    assert len(picks) == 1 and picks <= set(state.legal_actions(1))
    state.apply_action(parse_card("QH"))
    state.apply_action(parse_card("9H"))  # West must follow hearts with JH, KH or 7H
    picks = {decide(SelfishSearchBot(seed=11, simulations=60), state, 3) for _ in range(3)}
    assert len(picks) == 1 and {card_str(c) for c in picks} <= {"JH", "KH", "7H"}


def test_noisy_playouts_stray_from_the_rule_for_the_others_only():
    """With noise the other seats sometimes play a random legal card: the outcomes
    spread, every trick is still won by someone, a seed repeats its playout, and
    the kept seat plays by the rule."""
    import random

    from games.boerenbridge.double_dummy import mask_of

    def playouts(hands, targets, keep, noise=1.0):
        out = set()
        for seed in range(40):
            won = selfish_playout(
                hands, None, 0, (), [0] * 4, targets, noise, random.Random(seed), keep
            )
            assert sum(won) == bin(hands[0]).count("1")
            again = selfish_playout(
                hands, None, 0, (), [0] * 4, targets, noise, random.Random(seed), keep
            )
            assert won == again
            out.add(tuple(won))
        return out

    hands = [
        mask_of(parse_cards(h))
        for h in ("AS 7H 8D 9C", "KS QS 8H 9D", "JS 9H 10H 10D", "10S JD QD 10C")
    ]
    assert len(playouts(hands, [1, 1, 1, 1], 0)) > 1
    assert len(playouts(hands, [1, 1, 1, 1], 0, noise=0.0)) == 1
    # North wants no trick: by the rule it leads the 7♠ under the others' forced
    # spades and throws the A♠ on the heart; a North that strays may lead the A♠
    # and then win the 7♠ too
    hands = [mask_of(parse_cards(h)) for h in ("AS 7S", "KS 8H", "QS 9H", "JS 10H")]
    assert {won[0] for won in playouts(hands, [0, 1, 0, 0], keep=0)} == {0}
    assert max(won[0] for won in playouts(hands, [0, 1, 0, 0], keep=-1)) == 2


def _hand_with(lineup, cards, seed):
    game = load_game("boerenbridge", rounds=(cards,), no_trump_rounds=())
    bots = [make_bot("boerenbridge", name, seed=10 * seed + i) for i, name in enumerate(lineup)]
    return play_game(game, bots, seed=seed).history


@pytest.mark.parametrize("cards, seed", [(6, 1), (7, 2)])
def test_small_hand_bot_is_selfish_noisy_in_big_rounds(cards, seed):
    """Above ``up_to`` (5) cards ``selfish-small`` makes every decision ``selfish-noisy``
    makes with the same seed: the same hands, card for card."""
    lineup = ["selfish-small", "greedy", "selfish-small", "knowledge"]
    same = ["selfish-noisy", "greedy", "selfish-noisy", "knowledge"]
    assert _hand_with(lineup, cards, seed) == _hand_with(same, cards, seed)


def test_small_hand_bot_looks_closer_in_small_rounds():
    """In 5-card rounds it decides otherwise than ``selfish-noisy`` somewhere over a
    few hands, the same way for a seed; with ``up_to`` below the round it is
    ``selfish-noisy``."""
    lineup = ["selfish-small", "selfish-small", "selfish-small", "selfish-small"]
    same = ["selfish-noisy"] * 4
    assert any(_hand_with(lineup, 5, s) != _hand_with(same, 5, s) for s in range(4))
    picks = {decide(SmallHandSelfishBot(seed=3), five_card_deal(), 1) for _ in range(3)}
    assert len(picks) == 1
    small = decide(SmallHandSelfishBot(seed=3, up_to=4), five_card_deal(), 1)
    assert small == decide(NoisySelfishBot(seed=3), five_card_deal(), 1)


def test_small_hand_bot_reading_the_guesses_guesses_legally():
    state = five_card_deal()
    state.apply_action(GUESS_BASE + 2)  # East, then South, have guessed
    state.apply_action(GUESS_BASE + 1)
    seat = state.current_player()
    picks = {decide(SmallHandSelfishBot(seed=5, read_guesses=True), state, seat) for _ in range(2)}
    assert len(picks) == 1 and picks <= set(state.legal_actions(seat))
