"""Write the golden BS playthroughs: ``python tests/golden/bs_regenerate.py``.

Each file is a seeded game of the narrator's default bots (probabilistic,
knowledge, truthful, threshold), one line per step: the actor, the action,
and the observations of seat 0 that step produced (so the file also shows
what seat 0 may and may not see).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

from _transcript import transcript, write  # noqa: E402

from games.base import load_game, make_bot  # noqa: E402

BOTS = ("probabilistic", "knowledge", "truthful", "threshold")
CASES = {
    "bs_koth_seed7.txt": {"variant": "koth", "seed": 7},
    "bs_classic_seed1.txt": {"variant": "classic", "seed": 1},
}


def playthrough(variant: str, seed: int) -> str:
    """The transcript of one seeded game."""
    game = load_game("bs", variant=variant)
    bots = [make_bot("bs", BOTS[s % len(BOTS)], seed=seed * 31 + s) for s in range(4)]
    header = f"# bs variant={variant} seed={seed} bots={','.join(BOTS)}"
    return transcript(game, bots, seed, header, sep=" ; ")


def render(name: str) -> str:
    """The text of golden file ``name``."""
    return playthrough(**CASES[name])  # type: ignore[arg-type]


if __name__ == "__main__":
    write(ROOT, CASES, playthrough)
