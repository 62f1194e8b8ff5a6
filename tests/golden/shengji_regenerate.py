"""Write the golden Shengji/ZPY playthroughs: ``python tests/golden/shengji_regenerate.py``.

Each file is a seeded game with heuristic bots, one line per step: the actor,
the action, and every public observation that step produced.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

from _transcript import transcript, write  # noqa: E402

from games.base import load_game, make_bot  # noqa: E402

CASES = {
    "shengji_tractor_seed3.txt": {"variant": "tractor", "seed": 3},
    "shengji_zpy5_seed4.txt": {"variant": "zpy", "players": 5, "seed": 4},
}


def playthrough(variant: str, seed: int, players: int | None = None) -> str:
    """The transcript of one seeded heuristic game."""
    params: dict[str, object] = {"variant": variant}
    if players is not None:
        params["players"] = players
    game = load_game("shengji", **params)
    n = game.num_players()
    bots = [make_bot("shengji", "heuristic", seed=seed * 100 + s) for s in range(n)]
    header = f"# shengji {params} seed={seed}"
    return transcript(game, bots, seed, header, name=game.seat_name, keep=lambda o: o.public)


if __name__ == "__main__":
    write(ROOT, CASES, playthrough)
