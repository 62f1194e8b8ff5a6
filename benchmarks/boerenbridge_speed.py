"""BoerenBridge speed: whole games with simple bots, and games with the knowledge bots.

    python benchmarks/boerenbridge_speed.py [--games 200] [--sampling-games 3]

Rows: full standard 15-round games (and ``lamas`` games) played through the shared
runner ``games.base.play_game`` -- chance deals card by card, every seat's bot
informed of every observation -- in games per second of CPU time and of wall
time; the engine alone (random legal actions, no bots) as the baseline; then the
seconds per game of tables with knowledge and sampling bots, including the
four-``SamplingBot`` game.  On a machine shared with other work the wall clock is
longer than the CPU time, and CPU figures are pessimistic too.
"""

from __future__ import annotations

import argparse
import statistics
import time

from _common import table

from games.base import load_game, make_bot, play_game
from games.boerenbridge import random_playout


def rate(fn, n: int) -> tuple[float, float]:
    """Games per CPU second and per wall second of ``n`` calls ``fn(i)``."""
    c, w = time.process_time(), time.perf_counter()
    for i in range(n):
        fn(i)
    return n / (time.process_time() - c), n / (time.perf_counter() - w)


def bots_game(variant: str, lineup: list[str]):
    game = load_game("boerenbridge", variant=variant)

    def run(i: int) -> None:
        bots = [make_bot("boerenbridge", name, seed=100 * i + s) for s, name in enumerate(lineup)]
        play_game(game, bots, seed=i)

    return run


def seconds_per_game(variant: str, lineup: list[str], n: int) -> tuple[float, float, float]:
    """Mean and max CPU seconds per game, and mean wall seconds."""
    cpu, wall = [], []
    run = bots_game(variant, lineup)
    for i in range(n):
        c, w = time.process_time(), time.perf_counter()
        run(i)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return statistics.mean(cpu), max(cpu), statistics.mean(wall)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--sampling-games", type=int, default=3)
    args = ap.parse_args()
    rows = []
    for variant in ("standard", "lamas"):
        game = load_game("boerenbridge", variant=variant)
        c, w = rate(lambda i, g=game: random_playout(g, seed=i), args.games)
        rows.append([variant, "engine alone (random actions)", f"{c:.0f}", f"{w:.0f}"])
        for name in ("random", "greedy"):
            c, w = rate(bots_game(variant, [name] * 4), args.games)
            rows.append([variant, f"4 {name} bots", f"{c:.0f}", f"{w:.0f}"])
    print("whole games per second (play_game, observations to every bot)")
    print(table(["variant", "table", "games/s CPU", "games/s wall"], rows))

    rows = []
    n = args.sampling_games
    tables = [
        ("standard", ["knowledge", "greedy", "greedy", "greedy"], 3 * n),
        ("standard", ["sampling", "greedy", "greedy", "greedy"], n),
        ("standard", ["sampling"] * 4, n),
        ("lamas", ["sampling"] * 4, 5 * n),
    ]
    for variant, lineup, games in tables:
        mean, worst, wall = seconds_per_game(variant, lineup, games)
        rows.append(
            [variant, ",".join(lineup), games, f"{mean:.2f}", f"{worst:.2f}", f"{wall:.2f}"]
        )
    print()
    print("seconds per game")
    print(table(["variant", "bots", "games", "CPU mean", "CPU max", "wall mean"], rows))


if __name__ == "__main__":
    main()
