"""The shared writer of golden playthroughs (used by every ``*_regenerate.py``).

A transcript is a seeded game played by :func:`games.base.play_game`, one line
per step: who acted, the action, and what one seat observed in that step.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent.parent))

from games.base import CHANCE, play_game  # noqa: E402


def transcript(
    game: Any,
    bots: Sequence[Any],
    seed: int,
    header: str,
    *,
    name: Callable[[int], str] = lambda seat: f"P{seat}",
    viewer: Callable[[int], int] = lambda player: 0,
    keep: Callable[[Any], bool] = lambda obs: True,
    sep: str = " | ",
    start: Any = None,
) -> str:
    """The text of one seeded game.

    ``viewer(player)`` is the seat whose observations of each step are shown
    (``player`` is the actor, :data:`~games.base.CHANCE` for chance), ``keep``
    filters them and ``sep`` joins them; ``start`` is an optional starting
    state (a hand-made position).
    """
    lines = [header]
    pending: list[tuple[str, str, int, int]] = []

    def flush(state: Any) -> None:
        if pending:
            who, text, seat, before = pending.pop()
            seen = [str(o) for o in state.observations(seat)[before:] if keep(o)]
            lines.append(f"{who}: {text}" + (f"  | {sep.join(seen)}" if seen else ""))

    def on_step(state: Any, player: int, action: int) -> None:
        flush(state)
        seat = viewer(player)
        who = "chance" if player == CHANCE else name(player)
        pending.append(
            (who, state.action_to_string(player, action), seat, len(state.observations(seat)))
        )

    result = play_game(game, bots, seed=seed, on_step=on_step, keep_state=True, start=start)
    flush(result.state)
    lines.append(f"returns {result.state.returns()}")
    return "\n".join(lines) + "\n"


def write(root: Path, cases: dict[str, dict[str, Any]], playthrough: Callable[..., str]) -> None:
    """Write every golden file of ``cases`` next to this module."""
    for name, case in cases.items():
        (root / name).write_text(playthrough(**case), encoding="utf-8")
        print("wrote", root / name)
