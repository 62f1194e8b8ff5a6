"""Write the golden BoerenBridge playthroughs: ``python tests/golden/boerenbridge_regenerate.py``.

Each file is a seeded game with greedy bots, one line per step: the actor,
the action, and every public observation that step produced.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

from _transcript import transcript, write  # noqa: E402

from games.base import load_game, make_bot  # noqa: E402
from games.boerenbridge import SEAT_NAMES  # noqa: E402

CASES = {
    "boerenbridge_standard_seed3.txt": {"variant": "standard", "seed": 3},
    "boerenbridge_lamas_seed3.txt": {"variant": "lamas", "seed": 3},
    "boerenbridge_3players_seed5.txt": {"variant": "standard", "seed": 5, "players": 3},
}


def playthrough(variant: str, seed: int, players: int | None = None) -> str:
    """The transcript of one seeded game of greedy bots."""
    params: dict[str, object] = {"variant": variant}
    if players is not None:
        params["players"] = players
    game = load_game("boerenbridge", **params)
    n = game.num_players()
    bots = [make_bot("boerenbridge", "greedy", seed=seed * 100 + s) for s in range(n)]
    header = f"# boerenbridge {params} seed={seed}"
    return transcript(
        game, bots, seed, header, name=SEAT_NAMES.__getitem__, keep=lambda o: o.public
    )


if __name__ == "__main__":
    write(ROOT, CASES, playthrough)
