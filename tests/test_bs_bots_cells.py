"""The ``probabilistic`` BS bot on cell bounds, and ``probabilistic-exact``.

* The seat's cell bounds (``SeatKnowledge(cells=True)``) contain the true
  deal after every step of seeded games, with the open play still in the
  claimer's hand (the bounds take a play when it is settled).
* A claim the bounds call surely false (``rank_lie_probability() == 1``) is
  a lie, and a claim they call surely honest is honest.
* The lie probability at the deal equals the exact deal knowledge's (the
  shuffle model and the exact posterior agree before any face-down play).
* ``probabilistic-exact`` decides on the exact deal knowledge (the former
  ``probabilistic`` bot).
"""

from __future__ import annotations

import random

import pytest

from games.base import load_game, make_bot, play_game
from games.bs.bots import ExactProbabilisticBot, ProbabilisticBot
from games.bs.knowledge import SeatKnowledge
from games.errors import InvalidParameterError


def _truth(state, seat_view, loc: str, k: int) -> int:
    if loc == "pile":
        return state._pile[k]
    s = int(loc[1:])
    last = seat_view.last
    pending = state._play[k] if last is not None and last[0] == s else 0
    return state._hands[s][k] + pending


@pytest.mark.parametrize(("variant", "seed"), [("koth", 0), ("koth", 1), ("classic", 2)])
def test_cell_bounds_contain_the_true_deal_and_known_lies_are_lies(variant, seed):
    game = load_game("bs", variant=variant)
    n = game.num_players()
    bots = [make_bot("bs", "probabilistic", seed=seed * 10 + s) for s in range(n)]
    seen = {"checks": 0, "sure lies": 0, "sure honest": 0}

    def on_step(state, player, action):  # type: ignore[no-untyped-def]
        for b in bots:
            cells = b.view.cells
            if cells is None:
                continue
            lo, hi = cells.bounds()
            for j, loc in enumerate(cells.locations):
                for k in range(len(game.deck)):
                    assert lo[k, j] <= _truth(state, b.view, loc, k) <= hi[k, j]
            seen["checks"] += 1
            last = b.view.last
            if last is None or last[0] == b.seat or state.phase not in ("call", "pick_caller"):
                continue
            p = b.view.rank_lie_probability()
            kinds = game.kinds_of_rank[last[1]]
            lie = any(state._play[k] for k in range(len(game.deck)) if k not in kinds)
            if p == 1.0:
                assert lie
                seen["sure lies"] += 1
            if p == 0.0:
                assert not lie
                seen["sure honest"] += 1

    play_game(game, bots, seed=seed, on_step=on_step, max_steps=400)
    assert seen["checks"] > 200 and seen["sure lies"] > 0


def test_lie_probability_at_the_deal_equals_the_exact_one():
    game = load_game("bs", variant="koth")
    compared = 0
    for seed in range(4):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        p = state.current_player()
        state.apply_play(p, state.hands[p][:2])  # the first play of the game
        for seat in range(4):
            if seat == p:
                continue
            view = SeatKnowledge(game, seat, exact=True, cells=True)
            for o in state.observations(seat):
                view.observe(o)
            assert view.rank_lie_probability() == pytest.approx(view.lie_probability(), abs=1e-12)
            compared += 1
    assert compared == 12


def test_the_two_bots_share_decisions_and_differ_in_knowledge():
    game = load_game("bs", variant="koth")
    cheap, exact = make_bot("bs", "probabilistic", seed=1), make_bot("bs", "probabilistic-exact")
    assert isinstance(cheap, ProbabilisticBot) and isinstance(exact, ExactProbabilisticBot)
    res = play_game(
        game, [cheap, exact, make_bot("bs", "truthful"), make_bot("bs", "liar")], seed=4
    )
    assert res.forfeit is None
    assert cheap.view.knowledge is None and cheap.view.cells is not None
    assert exact.view.knowledge is not None and exact.view.cells is None
    view = SeatKnowledge(game, 0)
    with pytest.raises(InvalidParameterError, match="cells=False"):
        view.rank_expected(3)
