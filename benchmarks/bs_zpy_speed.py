"""BS-ZPY speed: whole rounds, and what exact deal knowledge costs and buys.

1. Rounds per second (wall clock and this process's CPU time) of complete
   BS-ZPY rounds (deal with bidding, kitty, friends, face-down tricks with
   calls, penalties and scoring) with random and with truthful bots, against
   the ZPY engine it is built on (``shengji`` variant ``zpy``, random bots,
   same players) as the baseline: the ratio is the price of claims and calls.
2. Claim queries.  In seeded games between knowledge-keeping bots, every seat
   evaluates every other seat's claim: the exact probability that the claim
   can be true (:meth:`~games.bs_zpy.SeatKnowledge.claim_odds`, chain rule on
   :mod:`games.deal`) and whether it knows the claim is false
   (:meth:`~games.bs_zpy.SeatKnowledge.knows_false`), against counting unseen
   cards as the baseline (:meth:`~games.bs_zpy.SeatKnowledge.counting_refutes`).
   The table gives milliseconds per query and how many false claims each
   route recognised.

    python3 benchmarks/bs_zpy_speed.py [--rounds 50] [--games 3]

The machine may be shared: CPU-time rates are the robust figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import _common  # noqa: F401  (puts the project on sys.path)
from _common import table
from tqdm import tqdm

from games.base import CHANCE, TERMINAL, load_game, make_bot, play_game
from games.bs_zpy import BSZPYGame, BSZPYState, SeatKnowledge


def rounds_per_second(
    game_name: str, bot: str, rounds: int, **params: object
) -> tuple[float, float]:
    """Rounds per second of wall-clock time and of CPU time."""
    game = load_game(game_name, **params)
    n = game.num_players()
    t0, c0 = time.perf_counter(), time.process_time()
    for seed in tqdm(range(rounds), desc=f"{game_name} {bot}", leave=False):
        bots = [make_bot(game_name, bot, seed=seed * 100 + s) for s in range(n)]
        play_game(game, bots, seed=seed)
    return rounds / (time.perf_counter() - t0), rounds / (time.process_time() - c0)


def claim_queries(games: int, names: list[str]) -> dict[str, list[float]]:
    """Per claim and observing seat: query times, and which route knew a lie."""
    game = BSZPYGame()
    n = game.num_players()
    out: dict[str, list[float]] = {"odds": [], "knows": [], "count": []}
    hits = {"claims": 0, "lies": 0, "exact": 0, "counting": 0, "fallbacks": 0}
    for seed in tqdm(range(games), desc="claim queries", leave=False):
        rng = random.Random(seed)
        bots = [make_bot("bs-zpy", names[s % len(names)], seed=seed * 100 + s) for s in range(n)]
        state: BSZPYState = game.new_initial_state()
        know = [SeatKnowledge(game.rules, s) for s in range(n)]
        for s, b in enumerate(bots):
            b.restart(game, s)
        seen = [0] * n
        while True:
            for s in range(n):
                obs = state.observations(s)
                while seen[s] < len(obs):
                    bots[s].inform(obs[seen[s]])
                    know[s].update(obs[seen[s]])
                    seen[s] += 1
            cur = state.current_player()
            if cur == TERMINAL:
                break
            rec = state.waiting_claim()
            if rec is not None and state.phase == "call" and cur == (rec.seat + 1) % n:
                hits["claims"] += 1
                hits["lies"] += rec.lie
                for s in range(n):
                    if s == rec.seat:
                        continue
                    k = know[s]
                    c0 = time.process_time()
                    counted = k.counting_refutes(rec.claim)
                    out["count"].append(time.process_time() - c0)
                    c0 = time.process_time()
                    k.claim_odds()
                    out["odds"].append(time.process_time() - c0)
                    c0 = time.process_time()
                    knows = k.knows_false()
                    out["knows"].append(time.process_time() - c0)
                    hits["exact"] += knows
                    hits["counting"] += counted
            if cur == CHANCE:
                outs = state.chance_outcomes()
                x, acc, action = rng.random(), 0.0, outs[-1][0]
                for a, p in outs:
                    acc += p
                    if x < acc:
                        action = a
                        break
            else:
                action = bots[cur].step(state.legal_actions(cur))
            state.apply_action(action)
        hits["fallbacks"] += sum(k.fallbacks for k in know)
    out["hits"] = [float(hits[k]) for k in ("claims", "lies", "exact", "counting", "fallbacks")]
    return out


def _ms(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return 1000 * xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=50)
    ap.add_argument("--games", type=int, default=3)
    args = ap.parse_args()
    rows = []
    base_wall, base_cpu = rounds_per_second(
        "shengji", "random", args.rounds, variant="zpy", players=5
    )
    rows.append(["shengji zpy", "random", round(base_wall, 1), round(base_cpu, 1), 1.0])
    for bot in ("random", "truthful"):
        wall, cpu = rounds_per_second("bs-zpy", bot, args.rounds)
        rows.append(["bs-zpy", bot, round(wall, 1), round(cpu, 1), round(base_cpu / cpu, 2)])
    print("Complete rounds, 5 players, 2 decks")
    print(table(["game", "bots", "rounds/s (wall)", "rounds/s (cpu)", "cpu time vs zpy"], rows))
    print()
    names = ["knowledge", "bluffer", "truthful", "bluffer", "probabilistic"]
    res = claim_queries(args.games, names)
    claims, lies, exact, counting, fallbacks = (int(x) for x in res["hits"])
    q = []
    for key, label in (
        ("count", "counting (baseline)"),
        ("odds", "claim_odds (exact)"),
        ("knows", "knows_false (exact)"),
    ):
        xs = res[key]
        q.append([label, len(xs), round(1000 * statistics.median(xs), 3), round(_ms(xs, 0.9), 3),
                  round(1000 * max(xs), 1)])  # fmt: skip
    print(f"Claim queries, {args.games} games of {','.join(names)} (CPU ms per query)")
    print(table(["query", "queries", "median ms", "p90 ms", "max ms"], q))
    print()
    print(
        f"{claims} claims, {lies} of them lies; a seat knew a claim false {exact} times by exact "
        f"deal knowledge, {counting} times by counting alone; {fallbacks} engine fallbacks"
    )


if __name__ == "__main__":
    main()
