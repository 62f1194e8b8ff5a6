"""OpenSpiel interop: our games through pyspiel's own loaders and algorithms, and IS-MCTS seats.

Skipped when the optional extra (``open-spiel``) is not installed.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from games.base import load_game, make_bot, play_game, registered_bots  # noqa: E402
from games.errors import IllegalActionError, InvalidParameterError  # noqa: E402
from games.openspiel.ismcts import (  # noqa: E402
    ISMCTSBot,
    SpielBot,
    determinize,
    spiel_ismcts,
)
from games.openspiel.spiel import (  # noqa: E402
    SpielGame,
    deserialize_state,
    game_from,
    register_games,
    serialize_state,
    spiel_params,
)

NAMES = ["kripke_bs", "kripke_boerenbridge", "kripke_shengji", "kripke_bs_zpy"]
CASES = [
    ("kripke_bs", {"variant": "classic", "max_rounds": 40}),
    ("kripke_bs", {"variant": "koth", "max_rounds": 40}),
    ("kripke_bs", {"variant": "classic", "players": 3, "max_rounds": 40}),
    ("kripke_boerenbridge", {"variant": "lamas"}),
    ("kripke_boerenbridge", {"rounds": "2/3", "trump": "turn-up"}),
    ("kripke_shengji", {}),
    ("kripke_shengji", {"variant": "zpy", "players": 5, "bonus_level": 1}),
    ("kripke_bs_zpy", {}),
]


@pytest.fixture(scope="module", autouse=True)
def _registered() -> None:
    register_games()


def _chance(state, rng: random.Random) -> int:
    actions, probs = zip(*state.chance_outcomes(), strict=True)
    return rng.choices(actions, probs)[0]


def _playout(game, seed: int, stop: int | None = None):
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and (stop is None or len(state.history()) < stop):
        if state.is_chance_node():
            state.apply_action(_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_every_game_loads_through_pyspiel() -> None:
    assert set(NAMES) <= set(pyspiel.registered_names())
    for name in NAMES:
        game = pyspiel.load_game(name)
        assert isinstance(game, SpielGame)
        gt = game.get_type()
        assert gt.short_name == name
        assert gt.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert gt.reward_model == pyspiel.GameType.RewardModel.TERMINAL
        assert gt.provides_information_state_string and gt.provides_observation_string
        assert game.num_players() == game.inner.num_players()
    koth = pyspiel.load_game("kripke_bs(variant=koth,max_rounds=7)")
    assert koth.inner.params.variant == "koth" and koth.inner.params.max_rounds == 7
    lamas = pyspiel.load_game("kripke_boerenbridge", {"variant": "lamas"})
    assert lamas.inner.params == load_game("boerenbridge", variant="lamas").params
    bb = pyspiel.load_game("kripke_boerenbridge", {"rounds": "3/4", "zero_bonus": 15})
    assert bb.inner.params.rounds == (3, 4) and bb.inner.params.zero_bonus == 15
    assert spiel_params("shengji", players=5, bonus_level=True) == {
        "players": 5,
        "bonus_level": 1,
    }


@pytest.mark.parametrize(("name", "params"), CASES, ids=lambda c: str(c))
def test_game_strings_read_back_as_the_same_game(name: str, params: dict) -> None:
    game = pyspiel.load_game(name, params)
    again = pyspiel.load_game(str(game))
    assert again.inner.params == game.inner.params
    ours = game_from(game.inner)
    assert pyspiel.load_game(str(ours)).inner.params == game.inner.params


def test_bad_parameters_are_named() -> None:
    with pytest.raises(pyspiel.SpielError, match="colour"):
        pyspiel.load_game("kripke_bs", {"colour": "red"})
    with pytest.raises(InvalidParameterError, match="rounds"):
        SpielGame("boerenbridge", {"rounds": "three"})
    with pytest.raises(pyspiel.SpielError, match="rounds"):
        pyspiel.load_game("kripke_boerenbridge", {"rounds": 3})  # a list is text
    with pytest.raises(InvalidParameterError, match="koth"):
        SpielGame("bs", {"variant": "koth", "players": 3})


@pytest.mark.parametrize(("name", "params"), CASES, ids=lambda c: str(c))
def test_random_playouts_meet_the_api(name: str, params: dict) -> None:
    game = pyspiel.load_game(name, params)
    n = game.num_players()
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_initial_state()
        snapshot = None
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
                assert all(0 <= a < game.max_chance_outcomes() for a, _ in outcomes)
                assert state.legal_actions() == sorted(a for a, _ in outcomes)
                state.apply_action(_chance(state, rng))
                continue
            p = state.current_player()
            legal = state.legal_actions()
            assert legal and legal == sorted(set(legal))
            assert all(0 <= a < game.num_distinct_actions() for a in legal)
            assert all(state.legal_actions(q) == [] for q in range(n) if q != p)
            if len(state.history()) % 17 == 0:
                assert state.information_state_string(p).startswith(
                    state.inner.information_state_string(p)
                )
            if snapshot is None and len(state.history()) > 20:
                snapshot = (state.clone(), state.history(), state.information_state_string(p), p)
            state.apply_action(rng.choice(legal))
        assert state.legal_actions() == [] and state.current_player() == pyspiel.PlayerId.TERMINAL
        returns = state.returns()
        assert len(returns) == n
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
        assert returns == [float(r) for r in state.inner.returns()]
        if name == "kripke_bs":
            assert sum(returns) in (0.0, 1.0)
        assert len(state.history()) <= game.max_game_length()
        clone, history, info, p = snapshot
        assert clone.history() == history and clone.information_state_string(p) == info
        clone.apply_action(
            clone.legal_actions()[0]
            if not clone.is_chance_node()
            else clone.chance_outcomes()[0][0]
        )
        assert state.returns() == returns  # the clone moved, the original did not


def test_bs_plays_are_spelt_card_by_card() -> None:
    game = pyspiel.load_game("kripke_bs", {"variant": "koth"})
    state = _playout(game, 3, stop=53)
    while state.is_chance_node():
        state.apply_action(_chance(state, random.Random(1)))
    p = state.current_player()
    hand = state.inner._hands[p]
    kinds = [k for k, c in enumerate(hand) if c]
    commit = 2 + 13
    assert state.legal_actions() == [2 + k for k in kinds]  # nothing selected: no commit
    state.apply_action(2 + kinds[-1])
    assert "selected" in state.information_state_string(p)
    others = [q for q in range(4) if q != p]
    assert all("selected" not in state.information_state_string(q) for q in others)
    assert state.legal_actions()[-1] == commit
    assert all(a >= 2 + kinds[-1] for a in state.legal_actions())  # ascending spelling
    state.apply_action(commit)
    assert state.inner.phase == "call"
    assert state.inner.observations(p)[-1]["cards"] == (game.inner.deck.name(kinds[-1]),)
    before = state.history()
    with pytest.raises(IllegalActionError, match="no card selected"):
        state.apply_action(commit)
    assert state.history() == before


@pytest.mark.parametrize(("name", "params"), [CASES[1], CASES[3], CASES[5]], ids=str)
def test_serialisation_round_trip(name: str, params: dict) -> None:
    game = pyspiel.load_game(name, params)
    for stop in (40, None):
        state = _playout(game, 5, stop)
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game) and state2.history() == state.history()
        ours = deserialize_state(serialize_state(state))
        assert ours.history() == state.history()
        assert str(ours.get_game()) == str(game)
        for p in range(game.num_players()):
            assert ours.information_state_string(p) == state.information_state_string(p)
            assert state2.information_state_string(p) == state.information_state_string(p)


def test_deserialize_names_bad_text() -> None:
    state = _playout(pyspiel.load_game("kripke_bs", {"variant": "koth"}), 1, stop=30)
    head, actions = serialize_state(state).split("\n")
    with pytest.raises(IllegalActionError, match="99"):
        deserialize_state(head + "\n" + actions + " 99")
    with pytest.raises(InvalidParameterError, match="'x'"):
        deserialize_state(head + "\n1 x")
    with pytest.raises(InvalidParameterError, match="kripke-games"):
        deserialize_state('{"game": "kuhn_poker", "params": {}}\n')


def test_information_state_ignores_other_seats_hidden_cards() -> None:
    # BS koth: the order, then the deal card by card to seats 0, 1, 2, 3, 0, ...
    game = pyspiel.load_game("kripke_bs", {"variant": "koth"})
    rng = random.Random(2)
    order = 0
    deal = list(np.random.default_rng(2).permutation([k for k in range(13) for _ in range(4)]))
    i = next(i for i in range(1, 52, 4) if deal[i] != deal[i + 1])  # seat 1's and seat 2's card
    swapped = list(deal)
    swapped[i], swapped[i + 1] = deal[i + 1], deal[i]
    states = []
    for d in (deal, swapped):
        st = game.new_initial_state()
        st.apply_action(order)
        for a in d:
            st.apply_action(int(a))
        states.append(st)
    a, b = states
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    # the first player (seat 0 under order 0) plays the same card in both worlds
    assert a.current_player() == 0
    card = next(k for k, c in enumerate(a.inner._hands[0]) if c)
    for st in states:
        st.apply_action(2 + card)
        st.apply_action(2 + 13)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(3) == b.information_state_string(3)
    # BoerenBridge: swap a card of seats 1 and 2 in the deal of a one-round game
    game = pyspiel.load_game("kripke_boerenbridge", {"rounds": "3/", "trump": "random-suit"})
    cards = rng.sample(range(32), 12)
    j = 0  # dealer 0 deals to seats 1, 2, 3, 0, 1, ...
    swapped = list(cards)
    swapped[j], swapped[j + 1] = cards[j + 1], cards[j]
    states = []
    for d in (cards, swapped):
        st = game.new_initial_state()
        for c in d:
            st.apply_action(c)
        st.apply_action(48)  # clubs
        states.append(st)
    a, b = states
    for seat in (0, 3):
        assert a.information_state_string(seat) == b.information_state_string(seat)
    assert a.information_state_string(1) != b.information_state_string(1)


def test_determinize_draws_worlds_from_the_seat_view() -> None:
    game = load_game("boerenbridge", variant="lamas")
    st = game.new_initial_state()
    rng = random.Random(4)
    while st.is_chance_node() or len(st.history()) < 16:
        st.apply_action(rng.choice(st.legal_actions()))
    seat = st.current_player()
    worlds = [determinize(game, seat, st.observations(seat), seed=s) for s in range(12)]
    for w in worlds:
        assert w.information_state_string(seat) == st.information_state_string(seat)
        assert w.hand(seat) == st.hand(seat)
        assert sorted(w.legal_actions()) == sorted(st.legal_actions())
    other = (seat + 1) % 4
    assert len({tuple(w.hand(other)) for w in worlds}) > 1  # hidden cards vary
    koth = load_game("bs", variant="koth")
    bs = koth.new_initial_state()
    while bs.is_chance_node():
        bs.apply_action(rng.choice(bs.legal_actions()))
    p = bs.current_player()
    bs.apply_play(p, bs.hands[p][:2])
    q = bs.current_player()  # deciding whether to call
    w = determinize(koth, q, bs.observations(q), seed=1)
    assert w.current_player() == q and w.phase == "call"
    assert w.information_state_string(q) == bs.information_state_string(q)
    assert w.hand_sizes == bs.hand_sizes and w.pile_size == bs.pile_size
    with pytest.raises(InvalidParameterError, match="shengji"):
        determinize(load_game("shengji"), 0, ())


def test_boerenbridge_worlds_follow_every_new_observation() -> None:
    # one determinizer through a whole hand, as the ismcts bot uses it: worlds come
    # from batches of exact draws, and a batch never outlives the seat's next observation
    from games.openspiel.ismcts import _BATCH, _Determinizer

    game = load_game("boerenbridge", rounds=(4,), no_trump_rounds=())
    st = game.new_initial_state()
    rng = random.Random(3)
    det = _Determinizer()
    nrng = np.random.default_rng(1)
    seat = 2
    checked = 0
    while not st.is_terminal():
        if not st.is_chance_node():
            obs = st.observations(seat)
            worlds = [det.world(game, seat, obs, nrng) for _ in range(_BATCH + 3)]
            for w in worlds:
                assert w.information_state_string(seat) == st.information_state_string(seat)
                assert w.hand(seat) == st.hand(seat)
                for q in range(4):
                    assert len(w.hand(q)) == len(st.hand(q))
                    assert not set(w.hand(q)) & {c for _, c in st.plays}  # played cards are out
                assert w.current_player() == st.current_player()
                if st.current_player() == seat:
                    assert sorted(w.legal_actions()) == sorted(st.legal_actions())
            hidden = {tuple(w.hand((seat + 1) % 4)) for w in worlds}
            assert len(hidden) > 1 or len(st.hand(seat)) <= 1
            checked += 1
        st.apply_action(rng.choice(st.legal_actions()))
    assert checked >= 4 * 4


def test_evaluate_bots_with_our_bots_and_ismcts() -> None:
    from open_spiel.python.algorithms import evaluate_bots

    game = pyspiel.load_game("kripke_bs", {"variant": "koth", "max_rounds": 6})
    search = spiel_ismcts(game, simulations=8, seed=1, max_steps=20)
    names = ["probabilistic", "truthful", "liar"]
    ours = [SpielBot(make_bot("bs", name, seed=s), s + 1) for s, name in enumerate(names)]
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, [search, *ours], np.random.RandomState(2))
    assert state.is_terminal() and returns == state.returns()
    assert len(returns) == 4 and sum(returns) in (0.0, 1.0)
    bb = pyspiel.load_game("kripke_boerenbridge", {"variant": "lamas", "rounds": "3/2"})
    search = spiel_ismcts(bb, simulations=10, uct_c=20.0, seed=2)
    ours = [SpielBot(make_bot("boerenbridge", "sampling", seed=s), s) for s in range(2)]
    greedy = SpielBot(make_bot("boerenbridge", "greedy", seed=9), 3)
    state = bb.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, [*ours, search, greedy], np.random.RandomState(5))
    assert state.is_terminal() and returns == [float(x) for x in state.inner.scores]


@pytest.mark.parametrize(
    ("name", "game", "bots"),
    [
        ("kripke_shengji", "shengji", ["heuristic", "random", "heuristic", "random"]),
        ("kripke_bs_zpy", "bs-zpy", ["truthful", "random", "bluffer", "random", "truthful"]),
    ],
)
def test_evaluate_bots_on_shengji_and_bs_zpy(name: str, game: str, bots: list[str]) -> None:
    from open_spiel.python.algorithms import evaluate_bots

    spiel = pyspiel.load_game(name)
    seated = [SpielBot(make_bot(game, b, seed=s), s) for s, b in enumerate(bots)]
    state = spiel.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, seated, np.random.RandomState(3))
    assert state.is_terminal() and returns == [float(r) for r in state.inner.returns()]


def test_cfr_on_a_short_deck() -> None:
    from open_spiel.python.algorithms import cfr, exploitability

    # one round of one card from the four aces, three players: a small tree
    game = pyspiel.load_game(
        "kripke_boerenbridge", {"players": 3, "rounds": "1/", "deck": "top", "no_trump_rounds": "/"}
    )
    solver = cfr.CFRSolver(game)
    for _ in range(3):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    conv = exploitability.nash_conv(game, policy)
    assert conv >= 0.0
    table = policy.to_tabular() if hasattr(policy, "to_tabular") else policy
    assert len(table.state_lookup) > 0


def test_ismcts_bot_is_registered_and_plays() -> None:
    assert "ismcts" in registered_bots("bs") and "ismcts" in registered_bots("boerenbridge")
    game = load_game("boerenbridge", variant="lamas", rounds=(2,))
    bots = [make_bot("boerenbridge", "ismcts", seed=1)] + [
        make_bot("boerenbridge", "greedy", seed=s) for s in range(3)
    ]
    assert len(play_game(game, bots, seed=2).returns) == 4
    koth = load_game("bs", variant="koth", max_rounds=3)
    bots = [ISMCTSBot(seed=2, simulations=4, max_steps=10)] + [
        make_bot("bs", "truthful", seed=s) for s in range(3)
    ]
    result = play_game(koth, bots, seed=3)
    assert result.forfeit is None and len(result.returns) == 4
    with pytest.raises(InvalidParameterError, match="shengji"):
        ISMCTSBot(seed=1).restart(load_game("shengji"), 0)
