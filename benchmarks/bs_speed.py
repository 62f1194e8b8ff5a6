"""Games per second of the BS engine on one core, with simple and knowledge-driven bots.

Every game is played through :func:`games.base.play_game` (the runner the
tournaments use), koth variant, seeded.  Rates are games per second of this
process's CPU time (``time.process_time``), so a machine shared with other
work measures the engine, not the load; wall-clock rates are shown too.  Rows: four copies of each simple bot,
a mixed simple table, a mixed table with the two knowledge-driven bots, and
four probabilistic bots.

Run: ``python benchmarks/bs_speed.py [--quick]``
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import table  # noqa: E402

from games.base import load_game, make_bot, play_game  # noqa: E402

TABLES = [
    ("4 x truthful", ["truthful"] * 4, 600),
    ("4 x threshold", ["threshold"] * 4, 600),
    ("4 x liar", ["liar"] * 4, 600),
    ("4 x random", ["random"] * 4, 600),
    ("truthful, liar, threshold, random", ["truthful", "liar", "threshold", "random"], 600),
    (
        "probabilistic, knowledge, truthful, threshold",
        ["probabilistic", "knowledge", "truthful", "threshold"],
        40,
    ),
    ("4 x probabilistic", ["probabilistic"] * 4, 6),
]


def rate(names: list[str], games: int) -> tuple[float, float, float]:
    """Games per CPU second, games per wall second, mean steps per game."""
    game = load_game("bs", variant="koth")
    steps = 0
    c0, t0 = time.process_time(), time.perf_counter()
    for g in range(games):
        rot = names[g % 4 :] + names[: g % 4]
        bots = [make_bot("bs", n, seed=g * 10 + i) for i, n in enumerate(rot)]
        steps += play_game(game, bots, seed=g).steps
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    return games / cpu, games / wall, steps / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="a tenth of the games")
    args = ap.parse_args()
    rows = []
    for label, names, games in TABLES:
        n = max(2, games // 10) if args.quick else games
        r, wall, steps = rate(names, n)
        target = ""
        if label.startswith("4 x") and "probabilistic" not in label:
            target = ">= 300"
        if label == "4 x probabilistic":
            target = ">= 20"
        rows.append((label, n, f"{steps:.0f}", f"{r:.1f}", f"{wall:.1f}", target))
    print("BS koth, one process, games played through games.base.play_game")
    print(table(["table", "games", "steps/game", "games/CPU s", "games/wall s", "target"], rows))


if __name__ == "__main__":
    main()
