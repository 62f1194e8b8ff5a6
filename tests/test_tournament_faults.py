"""Faults a tournament survives: bots that raise, exit, interrupt or loop; killed runs; bad files."""

from __future__ import annotations

import io

import pytest

from games.base import Bot, load_game, make_bot, play_game
from games.errors import BotError, InvalidParameterError
from kripke.cli import main as kripke_main


class _Exits(Bot):
    name = "exits"

    def step(self, legal_actions):
        raise SystemExit(3)


class _Interrupts(Bot):
    name = "interrupts"

    def inform(self, observation):
        if observation.kind == "hand":
            raise KeyboardInterrupt

    def step(self, legal_actions):
        return legal_actions[0]


class _BadRestart(Bot):
    name = "bad-restart"

    def restart(self, game, seat):
        raise ValueError("no table for me")

    def step(self, legal_actions):
        return legal_actions[0]


def _table(first: Bot) -> list[Bot]:
    return [first] + [make_bot("bs", "truthful", seed=s) for s in range(3)]


def test_play_game_turns_a_bots_system_exit_into_a_forfeit_or_a_bot_error():
    game = load_game("bs", variant="koth")
    res = play_game(game, _table(_Exits()), seed=2, forfeit_on_error=True)
    assert res.forfeit == 0 and res.returns == [-1.0, 0.0, 0.0, 0.0]
    assert res.reason == "P0 (exits) SystemExit: 3"
    with pytest.raises(BotError, match="SystemExit"):
        play_game(game, _table(_Exits()), seed=2)


def test_faults_in_restart_and_inform_forfeit_the_seat():
    game = load_game("bs", variant="koth")
    res = play_game(game, _table(_BadRestart()), seed=0, forfeit_on_error=True)
    assert res.forfeit == 0 and "in restart: no table for me" in res.reason
    res = play_game(
        game, _table(_Interrupts()), seed=0, forfeit_on_error=True, bot_faults=(BaseException,)
    )
    assert res.forfeit == 0 and "KeyboardInterrupt in inform" in res.reason
    # by default a KeyboardInterrupt is the user's: it passes through
    with pytest.raises(KeyboardInterrupt):
        play_game(game, _table(_Interrupts()), seed=0, forfeit_on_error=True)


def test_an_unknown_game_parameter_is_named_with_the_valid_ones(capsys):
    with pytest.raises(InvalidParameterError, match="bs has no parameter 'foo'; its parameters: "):
        load_game("bs", foo=1)
    code = kripke_main(["play", "bs", "--param", "foo=1", "--quiet"], out=io.StringIO())
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1 and "'foo'" in err[0] and "max_rounds" in err[0]
