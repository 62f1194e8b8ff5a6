"""Write the golden Shengji/ZPY playthroughs: ``python tests/golden/shengji_regenerate.py``.

Each ``CASES`` file is a seeded game with heuristic bots, one line per step: the
actor, the action, and every public observation that step produced (seed 4 of
``tractor`` keeps calls open for long stretches of the deal, so it shows the
seats that are offered a call after each draw and pass).  Each ``NARRATED`` file
is what ``kripke play shengji`` prints for a spectator: the omniscient view with
the seats' live knowledge.
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
    "shengji_tractor_seed4.txt": {"variant": "tractor", "seed": 4},
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


NARRATED = {
    "shengji_table_tractor_seed4.txt": {"argv": ("--variant", "tractor", "--seed", "4")},
    "shengji_table_zpy5_seed5.txt": {"argv": ("--variant", "zpy", "--players", "5", "--seed", "5")},
}


def narrated(argv: tuple[str, ...]) -> str:
    """What ``kripke play shengji ARGV`` prints (a spectator's narrated game)."""
    import io

    from kripke.cli import main

    out = io.StringIO()
    main(["play", "shengji", *argv], out=out)
    return out.getvalue()


if __name__ == "__main__":
    write(ROOT, CASES, playthrough)
    write(ROOT, NARRATED, narrated)
