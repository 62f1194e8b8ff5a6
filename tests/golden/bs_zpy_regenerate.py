"""Write the golden BS-ZPY playthroughs: ``python tests/golden/bs_zpy_regenerate.py``.

Each file is a seeded game, one line per step: the actor, the action, and what another
seat observed in that step (the public part of every event).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

from _transcript import transcript, write  # noqa: E402

from games.base import CHANCE, load_game, make_bot  # noqa: E402

#: A five-seat hand-made position (6 cards each, an 8-card kitty).
POSITION = {
    "hands": [
        "AS AS KS 10H 5H 3C",
        "QS JS 9H 9H 4C 5D",
        "10S 8S AH KH 7C 7D",
        "5S 5S QH 2H 9C 3D",
        "4S 3S JH 8H KC KD",
    ],
    "trump": "2S",
    "landlord": 0,
    "friends": ["AH"],
    "kitty": "6C 8C 10C JC 4D 6D 8D 9D",
}

CASES = {
    "bs_zpy_seed5.txt": {
        "seed": 5,
        "bots": ["truthful", "random", "truthful", "random", "truthful"],
    },
    "bs_zpy_position_seed3.txt": {
        "seed": 3,
        "bots": ["knowledge", "bluffer", "truthful", "knowledge", "random"],
        "position": True,
    },
}


def playthrough(seed: int, bots: list[str], position: bool = False) -> str:
    """The transcript of one seeded game."""
    game = load_game("bs-zpy")
    n = game.num_players()
    players = [make_bot("bs-zpy", name, seed=seed * 100 + s) for s, name in enumerate(bots)]
    header = f"# bs-zpy seed={seed} bots={','.join(bots)}" + (" position" if position else "")
    return transcript(
        game,
        players,
        seed,
        header,
        viewer=lambda player: 0 if player == CHANCE else (player + 1) % n,
        keep=lambda o: o.kind != "draw",
        start=game.position(**POSITION) if position else None,
    )


if __name__ == "__main__":
    write(ROOT, CASES, playthrough)
