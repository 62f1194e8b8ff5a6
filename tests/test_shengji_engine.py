"""The Shengji/ZPY engine: API conformance, invariants over random legal games, hidden
information, golden playthroughs, the terminal table and the bots."""

from __future__ import annotations

import importlib.util
import io
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import CHANCE, TERMINAL, Bot, load_game, make_bot, play_game, registered_bots
from games.errors import IllegalActionError, InvalidParameterError
from games.shengji import PlayPhase, Trump, parse_cards
from games.shengji.rules.cards import card_points
from games.shengji.state import COMMIT, PASS, select_action

GOLDEN = Path(__file__).resolve().parent / "golden"


def _chance(state, rng):
    outs = state.chance_outcomes()
    x, acc = rng.random(), 0.0
    for a, p in outs:
        acc += p
        if x < acc:
            return a
    return outs[-1][0]


def run_random(game, seed, check=None):
    """Play uniformly random legal actions, calling ``check(state)`` at every node."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if check is not None:
            check(state)
        if state.is_chance_node():
            state.apply_action(_chance(state, rng))
        else:
            legal = state.legal_actions()
            assert legal, f"no legal action in phase {state.phase}"
            assert legal == sorted(set(legal))
            state.apply_action(rng.choice(legal))
        steps += 1
        assert steps < 20000
    return state


def _conserved(state):
    r = state.rules
    total = 54 * r.decks
    if state.phase in ("bid", "deal", "start"):
        assert (
            sum(sum(h.values()) for h in state.hands) + state.deck_left + len(state.kitty_cards)
            == total
        )
    elif state.phase == "play":
        p = state.play
        in_hands = sum(sum(h.values()) for h in p.hands)
        played = sum(len(pl.cards) for t in p.tricks for pl in t.plays) + sum(
            len(pl.cards) for pl in p.current
        )
        assert in_hands + played + len(p.kitty) == total
        assert in_hands == p.left


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), variant=st.sampled_from(["tractor", "zpy"]))
def test_random_games_conserve_cards_and_points(seed, variant):
    players = 4 if variant == "tractor" else 4 + seed % 4
    game = load_game("shengji", variant=variant, players=players)
    state = run_random(game, seed, _conserved)
    res = state.results[-1]
    play = state.play
    r = state.rules
    kitty_pts = card_points(play.kitty)
    assert sum(play.piles) == 100 * r.decks - kitty_pts + play.kitty_points_awarded
    assert res["attacking_points"] == play.attacking_points()
    every = [c for t in play.tricks for pl in t.plays for c in pl.cards] + list(play.kitty)
    assert sorted(every) == sorted(c for c in range(54) for _ in range(r.decks))
    assert len(play.team) <= 1 + r.friends or r.fixed_teams
    assert state.legal_actions() == [] and state.is_terminal()


def test_same_seed_same_transcript():
    game = load_game("shengji", variant="zpy", players=5)
    a = play_game(game, [make_bot("shengji", "heuristic", seed=i) for i in range(5)], seed=9)
    b = play_game(game, [make_bot("shengji", "heuristic", seed=i) for i in range(5)], seed=9)
    assert a.history == b.history and a.returns == b.returns


@pytest.mark.parametrize(
    ("variant", "players", "seed"), [("tractor", 4, 1), ("tractor", 4, 8), ("zpy", 5, 3)]
)
def test_every_seat_that_can_call_is_offered_after_every_draw(variant, players, seed):
    """shengji-bot.md: a call "can be used at any time during the dealing process"."""
    game = load_game("shengji", variant=variant, players=players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    bots = [make_bot("shengji", "heuristic", seed=s) for s in range(players)]
    for s, b in enumerate(bots):
        b.restart(game, s)
    seen = [0] * players
    offered: set[int] = set()
    last_bidder = None
    draws = offers = 0
    while state.phase in ("start", "deal", "bid"):
        for s, b in enumerate(bots):
            obs = state.observations(s)
            for o in obs[seen[s] :]:
                b.inform(o)
            seen[s] = len(obs)
        if state.is_chance_node():
            if state.phase == "deal" and state.drawn:
                # back to the deal: everyone who could call now was asked since the last draw
                can = {s for s in range(players) if state.valid_bids(s)} - {last_bidder}
                assert can <= offered, (state.drawn, can - offered)
            state.apply_action(_chance(state, rng))
            draws += 1
            offered, last_bidder = set(), None
            continue
        seat = state.current_player()
        assert state.valid_bids(seat), "a seat without a legal call is never asked"
        offered.add(seat)
        offers += 1
        legal = state.legal_actions(seat)
        # mostly pass, so that calls stay open for long stretches of the deal
        action = PASS if rng.random() < 0.9 else bots[seat].step(legal)
        if action != PASS:
            offered, last_bidder = set(), seat
        state.apply_action(action)
    assert state.bids and offers > 0 and draws > 100


def test_hidden_cards_never_reach_other_seats():
    game = load_game("shengji", variant="tractor")
    state = run_random(game, 5)
    for seat in range(4):
        for o in state.observations(seat):
            if o.kind == "draw":
                assert (o.get("card") is not None) == (o.actor == seat)
            if o.kind in ("kitty", "bury"):
                assert (o.get("cards") is not None) == (o.actor == seat)
            if o.kind == "select":  # a play being built is seen by its player only
                assert o.actor == seat and not o.public


class SpyBot(Bot):
    name = "spy"

    def __init__(self, seed=None):
        super().__init__(seed)
        self.seen = []

    def inform(self, observation):
        self.seen.append(observation)

    def step(self, legal_actions):
        return self.rng.choice(list(legal_actions))


def test_bots_receive_exactly_their_observations():
    game = load_game("shengji", variant="zpy", players=4)
    bots = [SpyBot(seed=i) for i in range(4)]
    res = play_game(game, bots, seed=2, keep_state=True)
    for seat, b in enumerate(bots):
        assert tuple(b.seen) == res.state.observations(seat)


def _advance_to_play(state, rng, bots=None):
    while not state.is_terminal() and state.phase != "play":
        if state.is_chance_node():
            state.apply_action(_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_illegal_actions_change_nothing_and_say_why():
    game = load_game("shengji", variant="tractor")
    rng = random.Random(4)
    state = game.new_initial_state()
    _advance_to_play(state, rng)
    seat = state.current_player()
    hand = state.hand(seat)
    missing = next(c for c in range(54) if c not in hand)
    before = (state.history(), state.information_state_string(seat))
    with pytest.raises(IllegalActionError, match="do not hold"):
        state.apply_action(select_action(missing))
    with pytest.raises(IllegalActionError, match="select at least one card"):
        state.apply_action(COMMIT)
    with pytest.raises(IllegalActionError):
        state.play_cards(seat, [hand[0], missing])
    assert (state.history(), state.information_state_string(seat)) == before
    # lead, then a follower who holds the led suit tries another suit
    state.play_cards(seat, [hand[-1]])
    follower = state.current_player()
    from games.shengji.rules.trump import table

    t = table(state.trump)
    led = t.esuit[hand[-1]]
    fh = state.hand(follower)
    in_suit = [c for c in fh if t.esuit[c] == led]
    other = [c for c in fh if t.esuit[c] != led]
    if in_suit and other:
        with pytest.raises(IllegalActionError, match="must follow"):
            state.play_cards(follower, [other[0]])
    state.play_cards(follower, [in_suit[0] if in_suit else fh[0]])


def test_clone_is_independent():
    game = load_game("shengji", variant="tractor")
    rng = random.Random(1)
    state = game.new_initial_state()
    _advance_to_play(state, rng)
    copy = state.clone()
    seat = state.current_player()
    state.play_cards(seat, [state.hand(seat)[0]])
    assert copy.history() != state.history()
    assert len(copy.hand(seat)) == len(state.hand(seat)) + 1


def test_failed_throw_in_play_phase():
    t = Trump("9", "C")
    hands = [
        parse_cards(h)
        for h in (
            "KD QD QD 10D 10D 3S",
            "JD JD 4S 5S 6S 7S",
            "AD 8S 8S 2S 3H 4H",
            "5H 6H 7H 8H 10H JH",
        )
    ]
    p = PlayPhase(t, hands, leader=0, landlord_team={0, 2})
    chk = p.play(0, parse_cards("KD QD QD 10D 10D"))
    assert not chk.valid and sorted(chk.played) == parse_cards("10D 10D")
    assert p.current[0].blocker == 1 and sorted(p.hands[0]) == sorted(parse_cards("KD QD 3S"))
    assert p.fmt.size == 2
    p.play(1, parse_cards("JD JD"))
    with pytest.raises(IllegalActionError, match="must follow diamonds"):
        p.play(2, parse_cards("8S 8S"))
    p.play(2, parse_cards("AD 8S"))
    p.play(3, parse_cards("5H 6H"))
    assert p.tricks[0].winner == 1 and p.piles[1] == 25
    p2 = PlayPhase(t, hands, leader=0, landlord_team={0, 2}, throw_penalty="ten-points")
    p2.play(0, parse_cards("KD QD QD 10D 10D"))
    for s, c in ((1, "JD JD"), (2, "AD 8S"), (3, "5H 6H")):
        p2.play(s, parse_cards(c))
    assert p2.attacking_points() == 25 + 10  # the landlord side's failed throw gives 10


def test_match_of_several_rounds_moves_ranks_and_landlord():
    game = load_game("shengji", variant="tractor", rounds=3)
    res = play_game(
        game, [make_bot("shengji", "heuristic", seed=i) for i in range(4)], seed=11, keep_state=True
    )
    st_ = res.state
    assert len(st_.results) == 3
    for a, b in zip(st_.results, st_.results[1:], strict=False):
        assert b["landlord"] == a["next_landlord"]
        assert b["ranks_before"] == a["ranks_after"]
    # partners always share a rank in the fixed-partner game
    assert st_.ranks[0] == st_.ranks[2] and st_.ranks[1] == st_.ranks[3]


def test_zpy_friends_declared_and_resolved():
    game = load_game("shengji", variant="zpy", players=6)
    res = play_game(
        game, [make_bot("shengji", "heuristic", seed=i) for i in range(6)], seed=3, keep_state=True
    )
    s = res.state
    assert s.rules.decks == 3 and s.rules.kitty == 6 and s.rules.friends == 2
    decl = [o for o in s.observations(0) if o.kind == "friends"]
    assert len(decl) == 1 and len(decl[0]["slots"]) == 2
    joins = [o for o in s.observations(0) if o.kind == "join"]
    team = set(s.results[-1]["team"])
    assert {o.actor for o in joins if not o["already"]} | {s.results[-1]["landlord"]} == team


def test_parameters_are_validated():
    with pytest.raises(InvalidParameterError, match="exactly 4"):
        load_game("shengji", variant="tractor", players=5)
    with pytest.raises(InvalidParameterError, match="4 to 10"):
        load_game("shengji", variant="zpy", players=11)
    with pytest.raises(InvalidParameterError, match="draw policy"):
        load_game("shengji", draw_policy="nope")
    with pytest.raises(InvalidParameterError, match="unknown shengji parameter"):
        load_game("shengji", colour="red")
    g = load_game("shengji", variant="zpy", players=7)
    assert (g.rules.decks, g.rules.kitty, g.rules.hand_size, g.rules.friends) == (3, 8, 22, 2)


@pytest.mark.parametrize(
    "name", ["shengji_tractor_seed3.txt", "shengji_tractor_seed4.txt", "shengji_zpy5_seed4.txt"]
)
def test_golden_playthroughs(name):
    spec = importlib.util.spec_from_file_location(
        "shengji_regenerate", GOLDEN / "shengji_regenerate.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.playthrough(**mod.CASES[name]) == (GOLDEN / name).read_text()


def test_bots_registered_and_play_legally():
    assert {"random", "heuristic", "sampling"} <= set(registered_bots("shengji"))
    game = load_game("shengji", variant="tractor")
    bots = [
        make_bot("shengji", n, seed=i)
        for i, n in enumerate(["sampling", "heuristic", "random", "heuristic"])
    ]
    bots[0].samples = 3
    res = play_game(game, bots, seed=6)
    assert res.forfeit is None and len(res.returns) == 4


# ------------------------------------------------------------------- table
def test_kripke_play_shengji_narrates_a_bot_game(capsys):
    from kripke.cli import main

    out = io.StringIO()
    assert (
        main(["play", "shengji", "--variant", "zpy", "--players", "5", "--seed", "2"], out=out) == 0
    )
    text = out.getvalue()
    assert "is the landlord" in text and "calls for friends" in text and "Round over" in text


def test_player_actions_named():
    game = load_game("shengji", variant="tractor")
    state = game.new_initial_state()
    assert state.current_player() == CHANCE
    assert state.action_to_string(CHANCE, state.legal_actions()[0]).startswith("first")
    assert PASS == 0 and TERMINAL != CHANCE


# ------------------------------------------------------- deal knowledge (games.deal)
def test_seat_deal_knowledge_stays_consistent_with_the_true_deal():
    from games.shengji.knowledge import SeatDeal

    game = load_game("shengji", variant="zpy", players=5)
    res = play_game(
        game, [make_bot("shengji", "heuristic", seed=i) for i in range(5)], seed=8, keep_state=True
    )
    st_ = res.state
    for seat in range(5):
        sd = SeatDeal(game.rules, seat)
        for o in st_.observations(seat):
            if o.kind == "round_end":
                break
            sd.update(o)
            if o.kind == "trick" and sd.knowledge.size(f"P{seat}") == 3:
                # every sampled deal gives this seat exactly its true remaining hand
                for hands in sd.sample_hands(3, seed=seat):
                    assert sum(hands[seat].values()) == 3


def test_seat_deal_learns_voids_and_blocked_throws():
    from games.base import Observation as Obs
    from games.shengji.knowledge import SeatDeal
    from games.shengji.rules.cards import card as C

    game = load_game("shengji", variant="tractor")
    sd = SeatDeal(game.rules, 0)
    mine = parse_cards(
        "KD QD QD 10D 10D 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 3H 4H 5H 6H 7H 8H 9H 10H"
    )
    for c in mine:
        sd.update(Obs.make("draw", 0, card=c))
    sd.update(Obs.make("dealt", None, kitty=8))
    sd.update(Obs.make("trump", 2, rank="9", suit="clubs"))
    sd.update(Obs.make("bury", 2, count=8))
    k = sd.knowledge
    sd.update(Obs.make("throw_failed", 0, attempted=tuple(sorted(parse_cards("KD QD QD 10D 10D"))), blocker=2,
                       forced=tuple(parse_cards("10D 10D")), unit="pair"))  # fmt: skip
    # West (1) sat before the blocker: no JD/KD/AD pair and no diamond above KD
    assert k.probability("AD", "P1") == 0.0
    assert k.count_distribution("JD", "P1")[2] == 0.0
    # South (2) blocked: at least two diamonds stronger than 10
    assert k.probability_at_least(parse_cards_names("JD KD AD"), "P2", 2) == pytest.approx(1.0)
    sd.update(Obs.make("play", 0, cards=tuple(parse_cards("10D 10D")), lead=True))
    sd.update(Obs.make("play", 1, cards=tuple(parse_cards("3C 4C")), lead=False))
    assert k.probability("JD", "P1") == 0.0  # West showed out of diamonds
    assert C("JD") not in mine


def parse_cards_names(text):
    return [str(c) for c in parse_cards(text)]


def test_seat_view_shows_own_hand_and_only_counts_of_others():
    """The notebook table of a seat: its own hand exactly, other hands as counts only,
    at every step of a whole random round (no hidden card in another seat's row)."""
    import random

    from games.base import TERMINAL, load_game
    from games.shengji.rules.cards import parse_cards

    state = load_game("shengji", variant="tractor").new_initial_state()
    rng = random.Random(3)
    names = [state.seat_name(s) for s in range(4)]
    steps = 0
    while state.current_player() != TERMINAL:
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
        if steps % 7:
            continue
        for seat in range(4):
            rows = dict(state.seat_view(seat))
            shown = parse_cards(rows["hand"]) if rows["hand"] != "—" else []
            chosen = parse_cards(rows.get("choosing", rows.get("burying", "")))
            held = list(state.hand(seat))
            if state.phase == "bury" and seat == state.round_landlord:
                held += state.buried  # taken out of the hand one at a time
            assert sorted(shown + chosen) == sorted(held)
            for other in range(4):
                if other != seat:
                    count = rows[names[other]].split(" · ")[0]
                    if count.startswith("took up the kitty"):
                        assert state.phase == "bury"
                    else:
                        assert count.split()[0] == str(len(state.hand(other)))
    assert dict(state.seat_view(0))["to move"] == "match over"
    assert "<table" in state._repr_html_()
