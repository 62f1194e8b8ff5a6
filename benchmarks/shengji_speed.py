"""Shengji/ZPY speed: whole rounds with bots, and legal-follow enumeration.

1. Rounds per second of complete rounds (deal with bidding, exchange, friends,
   every trick, scoring) with four heuristic bots (``tractor``) and six
   (``zpy``), and with random bots as the baseline of the engine alone.
2. Legal follows for seeded 25-card hands of a two-deck deal against single,
   pair, tractor and throw leads in a suit the hand holds, microseconds per
   call: building :class:`games.shengji.FollowRules` (the description of every
   legal follow that the engine and the bots use: card-by-card choices and
   legality checks), and listing every legal follow with
   :func:`games.shengji.legal_follows`, whose cost grows with the number of
   plays (tens of thousands when a short hand may discard any 5 of 24 cards).
   Median, 99th percentile and worst case, timed with the garbage collector
   off (as :mod:`timeit` does); the worst case includes any pause of a shared
   machine.

    python3 benchmarks/shengji_speed.py [--rounds 100] [--hands 200]
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time

import _common  # noqa: F401  (puts the project on sys.path)
from _common import table
from tqdm import tqdm

from games.base import load_game, make_bot, play_game
from games.shengji import FollowRules, Trump, legal_follows, parse_cards
from games.shengji.rules.cards import full_deck
from games.shengji.rules.formats import lead_format
from games.shengji.rules.trump import table as trump_table


def rounds_per_second(variant: str, players: int, bot: str, rounds: int) -> tuple[float, float]:
    """Rounds per second of wall-clock time and of this process's CPU time."""
    game = load_game("shengji", variant=variant, players=players)
    t0, c0 = time.perf_counter(), time.process_time()
    for seed in tqdm(range(rounds), desc=f"{variant} {bot}", leave=False):
        bots = [make_bot("shengji", bot, seed=seed * 100 + s) for s in range(players)]
        play_game(game, bots, seed=seed)
    return rounds / (time.perf_counter() - t0), rounds / (time.process_time() - c0)


LEADS = {
    "single": "KH",
    "pair": "KH KH",
    "tractor": "QH QH KH KH",
    "throw (pair+single)": "AH AH KH",
    "tractor of 3 pairs": "JH JH QH QH KH KH",
}


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def follow_times(hands: int) -> list[list[object]]:
    rng = random.Random(0)
    trump = Trump("2", "S")
    t = trump_table(trump)
    deck = full_deck(2)
    rows = []
    for name, lead in LEADS.items():
        fmt = lead_format(parse_cards(lead), trump)
        legal_follows(deck[:25], fmt, trump)  # warm the decomposition caches
        rules, times, sizes = [], [], []
        gc.collect()
        gc.disable()  # as timeit does: no collector pauses inside the timings
        for _ in range(hands):
            rng.shuffle(deck)
            hand = deck[:25]
            if not any(t.esuit[c] == fmt.suit for c in hand):
                continue
            t0 = time.perf_counter()
            FollowRules(hand, fmt)
            t1 = time.perf_counter()
            plays = legal_follows(hand, fmt, trump)
            t2 = time.perf_counter()
            rules.append(t1 - t0)
            times.append(t2 - t1)
            sizes.append(len(plays))
        gc.enable()
        rows.append(
            [
                name,
                len(times),
                statistics.median(sizes),
                max(sizes),
                round(1e6 * statistics.median(rules), 1),
                round(1e6 * _pct(rules, 0.99), 1),
                round(1e6 * statistics.median(times), 1),
                round(1e6 * _pct(times, 0.99), 1),
                round(1e6 * max(times), 1),
            ]
        )
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--hands", type=int, default=200)
    args = ap.parse_args()
    rows = []
    for variant, players in (("tractor", 4), ("zpy", 6)):
        for bot in ("random", "heuristic"):
            wall, cpu = rounds_per_second(variant, players, bot, args.rounds)
            rows.append([variant, players, bot, round(wall, 1), round(cpu, 1)])
    print("Complete rounds (deal, bids, exchange, friends, tricks, scoring)")
    print(table(["variant", "players", "bots", "rounds/s (wall)", "rounds/s (cpu)"], rows))
    print()
    print("legal_follows for a 25-card hand (2 decks, trump 2 of spades, lead in hearts)")
    heads = ["lead", "hands", "median plays", "max plays", "rules µs (median)", "rules µs (p99)"]
    heads += ["list µs (median)", "list µs (p99)", "list µs (max)"]
    print(table(heads, follow_times(args.hands)))


if __name__ == "__main__":
    main()
