"""The ``knowledge`` BS bot on cell bounds, and ``knowledge-exact``.

* Sound: every call of ``knowledge`` is a real lie, and every claim its
  bounds prove false is one (seeded games against liars).
* Where the exact deal knowledge has no joint constraint before the play,
  the cell bounds prove exactly the lies the exact knowledge knows.
* Legal, seeded (same seed, same actions) and honest (the bot's view is
  built from its seat's observations only: a twin deal the seat cannot tell
  apart gives the same decision).
"""

from __future__ import annotations

import pytest

from games.base import load_game, make_bot, play_game
from games.bs.bots import ExactKnowledgeBot, KnowledgeBot
from games.bs.knowledge import SeatKnowledge
from games.bs.rules import CALL
from games.errors import InvalidParameterError


def _lie(state, rank: int) -> bool:
    kinds = state.game.kinds_of_rank[rank]
    return any(c for k, c in enumerate(state._play) if c and k not in kinds)


@pytest.mark.parametrize(
    ("params", "names"),
    [
        ({"variant": "koth"}, ["knowledge", "liar", "knowledge", "probabilistic"]),
        ({"variant": "classic", "players": 3}, ["knowledge", "liar", "knowledge"]),
    ],
)
def test_calls_and_proven_lies_are_real_lies(params, names):
    game = load_game("bs", **params)
    proven = calls = 0
    for seed in (1, 5, 7):
        bots = [make_bot("bs", n, seed=seed * 10 + s) for s, n in enumerate(names)]

        def on_step(state, player, action, bots=bots):  # type: ignore[no-untyped-def]
            nonlocal proven, calls
            if state.phase not in ("call", "pick_caller"):
                return
            for b in bots:
                if not isinstance(b, KnowledgeBot) or b.view.last is None:
                    continue
                if b.view.last[0] != b.seat and b.view.rank_knows_lie():
                    assert _lie(state, b.view.last[1])
                    proven += 1
            if action == CALL and isinstance(bots[player], KnowledgeBot):
                assert _lie(state, state.required_rank)
                calls += 1

        res = play_game(game, bots, seed=seed, on_step=on_step)
        assert res.forfeit is None
    assert proven > 0 and calls > 0


class _Both(ExactKnowledgeBot):
    """knowledge-exact whose view also keeps the cell bounds."""

    needs_cells = True


@pytest.mark.parametrize("params", [{"variant": "koth"}, {"variant": "classic", "players": 3}])
def test_agrees_with_the_exact_knowledge_without_joint_constraints(params):
    game = load_game("bs", **params)
    n = game.num_players()
    seen = {True: 0, False: 0}

    def call(self, player, rank, count):  # type: ignore[no-untyped-def]
        v = self.view
        exact = v.knows_lie()
        cells = v.rank_knows_lie()
        if v.knowledge.exact:  # no constraint dropped: the bounds never prove more
            assert not cells or exact
        if v._before is not None and not v._before._preds and v.knowledge.exact:
            assert cells == exact
            seen[exact] += 1
        return exact

    for seed in (1, 5, 6):
        bots = [_Both(seed=seed * 10 + s) for s in range(n)]
        for b in bots:
            b.call = call.__get__(b)  # type: ignore[method-assign]
        play_game(game, bots, seed=seed, max_steps=500)
    assert seen[True] > 0 and seen[False] > 50


def test_seeded_legal_and_from_the_seats_observations():
    game = load_game("bs", variant="koth")
    runs = []
    for _ in range(2):
        bots = [make_bot("bs", "knowledge", seed=7 + s) for s in range(4)]
        steps: list[int] = []

        def rec(state, player, action, steps=steps):  # type: ignore[no-untyped-def]
            assert action in state.legal_actions()
            steps.append(action)

        res = play_game(game, bots, seed=5, on_step=rec, keep_state=True)
        runs.append(steps)
        for s, b in enumerate(bots):
            assert b.view.history == list(res.state.observations(s))
            assert b.view.knowledge is None and b.view.cells is not None
    assert runs[0] == runs[1]


def test_names_and_errors():
    assert isinstance(make_bot("bs", "knowledge"), KnowledgeBot)
    assert isinstance(make_bot("bs", "knowledge-exact"), ExactKnowledgeBot)
    game = load_game("bs", variant="koth")
    view = SeatKnowledge(game, 0)
    assert view.rank_knows_lie() is False  # no open play
    view.last = (1, 3, 2)
    with pytest.raises(InvalidParameterError, match="cells=False"):
        view.rank_knows_lie()
