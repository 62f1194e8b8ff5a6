"""A bot wrapper for tests: it seats another bot and records what that bot is given."""

from __future__ import annotations

from collections.abc import Sequence

from games.base import Bot, Game, Observation


class Recorder(Bot):
    """Seats ``inner`` unchanged and records every observation and decision of its seat.

    ``received`` holds the observations in the order the seat was given them;
    ``steps`` holds ``(legal_actions, action)`` for every decision.
    """

    name = "recorder"

    def __init__(self, inner: Bot):
        super().__init__(inner.seed)
        self.inner = inner
        self.received: list[Observation] = []
        self.steps: list[tuple[tuple[int, ...], int]] = []

    def restart(self, game: Game, seat: int) -> None:
        super().restart(game, seat)
        self.inner.restart(game, seat)

    def inform(self, observation: Observation) -> None:
        self.received.append(observation)
        self.inner.inform(observation)

    def step(self, legal_actions: Sequence[int]) -> int:
        action = self.inner.step(legal_actions)
        self.steps.append((tuple(legal_actions), action))
        return action
