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

    python3 benchmarks/bs_zpy_speed.py [--rounds 50] [--games 3] [--slowest 5]
    python3 benchmarks/bs_zpy_speed.py --claims-only --games 3 --slowest 5
    python3 benchmarks/bs_zpy_speed.py --claims-only --games 6   # 2,000 claim queries

The claim table ends with the peak memory (maximum resident set) of the
process.

``--slowest K`` lists the K slowest exact claim queries: the game and seats,
the claim, its chain-rule steps, the sizes of the seat's deal locations and
the joint constraints (predicates, with their number of linear forms) the
deal engine holds at that moment -- the shapes that make the worst cases.

The machine may be shared: CPU-time rates are the robust figures.
"""

from __future__ import annotations

import argparse
import random
import resource
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


def _shape(k: SeatKnowledge, seed: int, seat: int, rec: object) -> str:
    """The claim query's shape: claim, chain-rule steps, locations, joint constraints."""
    sp = k.open_play()
    if sp is None:
        return ""
    cons, _ = k._truth(sp.seat, sp.claim, sp.lead, pre=True)
    steps = [f"{c.op} {c.loc} {c.faces} {c.k}" for c in k._steps(cons)]
    kn = k.knowledge
    sizes = {loc: kn.size(loc) for loc in kn.locations}
    preds = [len(p.forms) for p in getattr(kn, "_preds", ())]
    return (
        f"game {seed}, seat {seat} on claimer {sp.seat}'s claim {sp.claim} "
        f"(lead {sp.lead}): {len(steps)} steps {steps[:4]}{' ...' if len(steps) > 4 else ''}; "
        f"locations {sizes}; joint constraints (forms each) {preds}"
    )


def claim_queries(games: int, names: list[str], slowest: int = 0) -> dict[str, list[float]]:
    """Per claim and observing seat: query times, and which route knew a lie.

    With ``slowest``, ``out["slowest"]`` holds the shapes of the slowest
    ``claim_odds`` queries as ``(seconds, description)``.
    """
    worst: list[tuple[float, str]] = []
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
                    dt = time.process_time() - c0
                    out["odds"].append(dt)
                    if slowest and (len(worst) < slowest or dt > worst[-1][0]):
                        worst.append((dt, _shape(k, seed, s, rec)))
                        worst.sort(key=lambda x: -x[0])
                        del worst[slowest:]
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
    out["slowest"] = worst  # type: ignore[assignment]
    return out


def _ms(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return 1000 * xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=50)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--slowest", type=int, default=0)
    ap.add_argument("--claims-only", action="store_true", help="skip the rounds-per-second part")
    args = ap.parse_args()
    if not args.claims_only:
        rounds_table(args.rounds)
    claims_table(args.games, args.slowest)


def rounds_table(n_rounds: int) -> None:
    rows = []
    base_wall, base_cpu = rounds_per_second("shengji", "random", n_rounds, variant="zpy", players=5)
    rows.append(["shengji zpy", "random", round(base_wall, 1), round(base_cpu, 1), 1.0])
    for bot in ("random", "truthful"):
        wall, cpu = rounds_per_second("bs-zpy", bot, n_rounds)
        rows.append(["bs-zpy", bot, round(wall, 1), round(cpu, 1), round(base_cpu / cpu, 2)])
    print("Complete rounds, 5 players, 2 decks")
    print(table(["game", "bots", "rounds/s (wall)", "rounds/s (cpu)", "cpu time vs zpy"], rows))
    print()


def claims_table(games: int, slowest: int) -> None:
    names = ["knowledge", "bluffer", "truthful", "bluffer", "probabilistic"]
    res = claim_queries(games, names, slowest)
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
    print(f"Claim queries, {games} games of {','.join(names)} (CPU ms per query)")
    print(table(["query", "queries", "median ms", "p90 ms", "max ms"], q))
    print()
    print(
        f"{claims} claims, {lies} of them lies; a seat knew a claim false {exact} times by exact "
        f"deal knowledge, {counting} times by counting alone; {fallbacks} engine fallbacks"
    )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory of this process (max resident set): {peak:,.0f} MB")
    if slowest:
        print()
        print(f"The {slowest} slowest claim_odds queries (CPU ms):")
        for dt, text in res["slowest"]:  # type: ignore[misc]
            print(f"  {1000 * dt:8.1f}  {text}")


if __name__ == "__main__":
    main()
