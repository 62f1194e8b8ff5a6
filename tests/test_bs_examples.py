"""The tournament text's example players (games/bs/examples.py): faithful, legal, honest."""

from __future__ import annotations

import pytest

from games.base import load_game, make_bot, play_game
from games.bs import CALL, PASS
from games.bs.examples import FirstCardPlayer, SamplePlayer, sample_request
from games.errors import BotError, InvalidParameterError
from tests.recording import Recorder

KOTH = load_game("bs", variant="koth")


class _Watch(Recorder):
    """Seats an example player and records each decision with what the player knew."""

    def __init__(self, inner):
        super().__init__(inner)
        self.decisions: list[tuple] = []

    def step(self, legal_actions):
        hand = self.inner.get_hand()
        last = self.inner.view.last
        required = self.inner.view.required
        action = super().step(legal_actions)
        self.decisions.append((hand, last, required, action))
        return action


def _games(cls, seeds=range(6), others=("strategic", "truthful", "threshold")):
    for seed in seeds:
        watch = _Watch(cls(seed=seed))
        bots = [watch] + [make_bot("bs", n, seed=seed + i) for i, n in enumerate(others)]
        res = play_game(KOTH, bots, seed=seed, keep_state=True)
        assert res.forfeit is None
        yield watch, res


@pytest.mark.parametrize("cls", [SamplePlayer, FirstCardPlayer])
def test_plays_as_the_text_says(cls):
    plays = calls = 0
    for watch, _ in _games(cls):
        for hand, last, required, action in watch.decisions:
            if action in (PASS, CALL):
                count = last[2]
                wants = cls is SamplePlayer and count >= 3  # lines 32-34: numberOfCards >= 3
                assert action == (CALL if wants else PASS)
                calls += action == CALL
            else:
                counts = KOTH.decode(action)
                played = [k for k, c in enumerate(counts) for _ in range(c)]
                same = [c for c in hand if c == required]
                # lines 20-30: every card of the number, else the hand's first card
                assert played == (same if same else [hand[0]])
                plays += 1
    assert plays > 0
    assert (calls > 0) == (cls is SamplePlayer)


@pytest.mark.parametrize("cls", [SamplePlayer, FirstCardPlayer])
def test_receives_only_its_seats_observations(cls):
    for watch, res in _games(cls, seeds=range(2)):
        assert watch.received == list(res.state.observations(0))


@pytest.mark.parametrize("name", ["sample", "first-card"])
def test_registered_and_deterministic_per_seed(name):
    def run(seed):
        bots = [make_bot("bs", name, seed=seed)] + [
            make_bot("bs", n, seed=seed) for n in ("liar", "truthful", "sample")
        ]
        res = play_game(KOTH, bots, seed=seed, keep_state=True)
        return [str(o) for o in res.state.observations(0)]

    assert run(2) == run(2)


@pytest.mark.parametrize("name", ["sample", "first-card"])
def test_plays_koth_only(name):
    bot = make_bot("bs", name, seed=0)
    with pytest.raises(BotError, match="variant koth"):
        bot.restart(load_game("bs", variant="classic"), 0)


def test_sample_request_names_the_empty_hand():
    assert sample_request([3, 1, 3], 3) == [3, 3]
    assert sample_request([3, 1, 3], 1) == [1]
    assert sample_request([3, 1, 3], 9) == [3]
    with pytest.raises(InvalidParameterError, match="empty hand"):
        sample_request([], 4)
