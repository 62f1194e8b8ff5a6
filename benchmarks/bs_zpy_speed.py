"""BS-ZPY speed: whole rounds, and the exact claim probability over 2,000 states.

1. Rounds per second (wall clock and this process's CPU time) of complete
   BS-ZPY rounds (deal with bidding, kitty, friends, face-down tricks with
   calls, penalties and scoring) with random and with truthful bots, against
   the ZPY engine it is built on (``shengji`` variant ``zpy``, random bots,
   same players) as the baseline: the ratio is the price of claims and calls.
2. Claim queries.  Seeded full games between knowledge-keeping bots
   (knowledge, bluffer, truthful, bluffer, probabilistic) are played until
   ``--states`` (2,000) states are collected: at each claim, every seat but
   the claimer asks :meth:`~games.bs_zpy.SeatKnowledge.claim_odds`, the exact
   probability that the claim can be true (one count of the deals that make
   it true, over the seat's count).  The table gives CPU milliseconds per
   query (median, p90, p99, worst) and the peak memory (maximum resident set)
   of the process that ran them.  Each route runs in a process of its own, on
   the same seeded games:

   * ``current``: this checkout's ``claim_odds``;
   * ``chain`` (``--chain``): this checkout's chain rule
     (:meth:`~games.bs_zpy.SeatKnowledge._chain`, one conditional count per
     constraint), the algorithm ``claim_odds`` used before;
   * ``baseline`` (``--baseline DIR``): ``claim_odds`` of another copy of the
     library (e.g. ``git archive <commit> | tar -x -C DIR``), today's code
     path as an in-run comparison.

   Every other route's answers are compared with ``current``'s on the
   queries where both saw the same state (same game, seats and claim): the
   largest relative difference.

    python3 benchmarks/bs_zpy_speed.py [--rounds 50]             # both parts
    python3 benchmarks/bs_zpy_speed.py --claims-only [--states 2000] [--slowest 5]
    python3 benchmarks/bs_zpy_speed.py --claims-only --chain --baseline /tmp/base
    python3 benchmarks/bs_zpy_speed.py --claims-only --seed 100   # other games

``--slowest K`` lists the K slowest queries of each route: the game and
seats, the claim, its constraints (chain-rule steps), the sizes of the seat's
deal locations and the joint constraints (with their number of linear forms)
the deal engine holds -- the shapes that make the worst cases.  ``--out
FILE`` keeps every query's line (JSON) as it is measured; an interrupted run
(Ctrl-C) prints the table of the queries finished so far.

Measured (2 shared cores, load average 6-8; ``--claims-only --states 2000
--chain --baseline DIR`` with DIR the library at 7af827e), median / p99 /
worst CPU ms and peak memory: current 3.0 / 31.9 / 60.9 ms, 98 MB; the
chain rule on the same engine 3.8 / 102 / 280 ms, 75 MB; baseline 5.2 /
183 / 604 ms, 119 MB; the 2,000 answers of every route agree with
current's to 1.3e-13 (relative).  Games from seed 100 (``--seed 100``):
current 2.9 / 33.9 / 86.8 ms, 92 MB; baseline 5.1 / 193 / 319 ms, 88 MB.

What made the worst cases: a follow that shows a void.  A claimed follow
with fewer led-suit cards than the format says the claimer held no other
card of the led suit: one void per led-suit face it may hold (8 to 13
constraints).  The chain rule counted once per constraint, each count a
dynamic programme over the five or six locations with unknown cards (about
140,000 cells), and every voided kind left the closed-form class to become
a block of its own (15 terms over the whole table), so each count was
slower than the one before (30 to 78 ms, 12 of them).  Second, hidden plays
leave joint constraints of many forms (11 forms over 5 kinds): their
enumeration carried every form's value to the last kind (5,040 states,
95,000 edges, over 100 ms).  Now: one count for the whole claim; kinds
voided in some hands stay in closed form (nested masks, see
:func:`games.deal.counting._mask_chain`); a form's final value is read into
the constraint's remaining table at once (``_Residuals``); and the blocks
with the most terms go where only a few cells of the table are read.

The machine may be shared: CPU times are the robust figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import _common  # noqa: F401  (puts the project on sys.path)
from _common import ROOT, table
from tqdm import tqdm

if "--lib" in sys.argv:  # a worker timing another copy of the library: that copy first
    sys.path.insert(0, os.path.abspath(sys.argv[sys.argv.index("--lib") + 1]))

from games.base import load_game, make_bot, play_game, sample_chance  # noqa: E402
from games.bs_zpy import BSZPYGame, BSZPYState, SeatKnowledge  # noqa: E402
from games.bs_zpy.knowledge import follow_claims  # noqa: E402

#: The bots of the claim games, seat by seat.
NAMES = ["knowledge", "bluffer", "truthful", "bluffer", "probabilistic"]


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


def _shape(k: SeatKnowledge, seed: int, seat: int) -> str:
    """The claim query's shape: claim, chain-rule steps, locations, joint constraints."""
    sp = k.open_play()
    if sp is None:
        return ""
    cons, _ = k._truth(sp.seat, sp.claim, sp.lead, pre=True)
    steps = [f"{c.op} {c.loc} {c.faces} {c.k}" for c in k._steps(cons)]
    kn = k.knowledge
    sizes = {loc: kn.size(loc) for loc in kn.locations}
    preds = [len(p.forms) for p in getattr(kn, "_preds", ())]
    more = " ..." if len(steps) > 4 else ""
    return (
        f"game {seed}, seat {seat} on claimer {sp.seat}'s claim {sp.claim} "
        f"(lead {sp.lead}): {len(steps)} steps {steps[:4]}{more}; "
        f"locations {sizes}; joint constraints (forms each) {preds}"
    )


def claim_states(states: int, first: int = 0) -> Iterator[tuple[int, int, SeatKnowledge]]:
    """``(game seed, seat, knowledge)`` at every claim, for every seat but the claimer.

    Seeded games (chance by ``random.Random(seed)``, bots seeded by seat),
    seeds ``first``, ``first + 1`` …, are played one after another until
    ``states`` states were given.
    """
    game = BSZPYGame()
    n = game.num_players()
    given = 0
    seed = first
    while given < states:
        rng = random.Random(seed)
        bots = [make_bot("bs-zpy", NAMES[s % len(NAMES)], seed=seed * 100 + s) for s in range(n)]
        state: BSZPYState = game.new_initial_state()
        know = [SeatKnowledge(game.rules, s) for s in range(n)]
        for s, b in enumerate(bots):
            b.restart(game, s)

        for rec in follow_claims(state, bots, know, lambda st, r=rng: sample_chance(st, r)):
            for s in range(n):
                if s != rec.seat and given < states:
                    given += 1
                    yield seed, s, know[s]
        seed += 1


def worker(route: str, states: int, first: int) -> None:
    """Time one route on the claim states; one JSON line per query, then the peak memory."""
    for i, (seed, seat, k) in enumerate(claim_states(states, first)):
        sp = k.open_play()
        assert sp is not None
        if route == "chain":
            cons, _ = k._truth(sp.seat, sp.claim, sp.lead, pre=True)
            c0 = time.process_time()
            p = 0.0 if k.counting_refutes(sp.claim) else float(k._chain(cons))
        else:
            c0 = time.process_time()
            p = k.claim_odds().probability
        dt = time.process_time() - c0
        line = {
            "q": i,
            "game": seed,
            "seat": seat,
            "claimer": sp.seat,
            "claim": [int(c) for c in sp.claim],
            "ms": 1000 * dt,
            "p": p,
            "shape": _shape(k, seed, seat),
        }
        print(json.dumps(line), flush=True)
    import games

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"peak_mb": peak, "games": games.__file__}), flush=True)


def run_route(
    name: str, route: str, lib: str, states: int, first: int, out: Any
) -> tuple[list[dict[str, Any]], float | None]:
    """Run one route in a process of its own: its query lines and its peak memory (MB).

    Interrupted (Ctrl-C), it returns the lines finished so far.
    """
    cmd = [sys.executable, __file__, "--worker", route, "--states", str(states), "--lib", lib,
           "--seed", str(first)]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    lines: list[dict[str, Any]] = []
    peak = None
    assert proc.stdout is not None
    try:
        with tqdm(total=states, desc=f"claim queries, {name}", leave=False) as bar:
            for raw in proc.stdout:
                d = json.loads(raw)
                if "peak_mb" in d:
                    peak = d["peak_mb"]
                    where = os.path.realpath(d["games"])
                    if not where.startswith(os.path.realpath(lib) + os.sep):
                        raise SystemExit(f"the {name} worker ran {where}, not the copy in {lib}")
                    continue
                d["route"] = name
                lines.append(d)
                if out is not None:
                    out.write(json.dumps(d) + "\n")
                    out.flush()
                bar.update(1)
        if proc.wait() != 0:
            raise SystemExit(f"the {name} worker failed (exit {proc.returncode})")
    except KeyboardInterrupt:
        proc.terminate()
        proc.wait()
        print(f"interrupted: {len(lines)} {name} queries finished", file=sys.stderr)
    return lines, peak


def _q(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def claims_table(
    states: int,
    slowest: int,
    chain: bool,
    baseline: str | None,
    out_path: str | None,
    first: int = 0,
) -> None:
    routes = [("current", "current", str(ROOT))]
    if chain:
        routes.append(("chain", "chain", str(ROOT)))
    if baseline:
        routes.append(("baseline", "current", baseline))
    out = open(out_path, "w") if out_path else None  # noqa: SIM115
    results: dict[str, tuple[list[dict[str, Any]], float | None]] = {}
    try:
        for name, route, lib in routes:
            results[name] = run_route(name, route, lib, states, first, out)
            if len(results[name][0]) < states:
                break  # interrupted
    finally:
        if out is not None:
            out.close()
    cur = {d["q"]: d for d in results["current"][0]}
    rows = []
    for name, (lines, peak) in results.items():
        if not lines:
            continue
        ms = [d["ms"] for d in lines]
        same = [
            (d, cur[d["q"]])
            for d in lines
            if d["q"] in cur
            and all(d[x] == cur[d["q"]][x] for x in ("game", "seat", "claimer", "claim"))
        ]
        diff = max((abs(a["p"] - b["p"]) / max(abs(b["p"]), 1e-300) for a, b in same), default=0.0)
        rows.append(
            [name, len(lines), round(statistics.median(ms), 2), round(_q(ms, 0.9), 2),
             round(_q(ms, 0.99), 1), round(max(ms), 1),
             "" if peak is None else f"{peak:,.0f}",
             "-" if name == "current" else f"{len(same)}: {diff:.1e}"]
        )  # fmt: skip
    print(f"Exact claim probability over {states:,} states of full BS-ZPY games "
          f"({','.join(NAMES)}; game seeds from {first}), CPU ms per query")  # fmt: skip
    if baseline:
        print(f"baseline: {baseline}")
    heads = ["route", "queries", "median ms", "p90 ms", "p99 ms", "worst ms", "peak MB",
             "same states: max rel. diff"]  # fmt: skip
    print(table(heads, rows))
    if slowest:
        for name, (lines, _) in results.items():
            print()
            print(f"The {slowest} slowest queries, {name} (CPU ms):")
            for d in sorted(lines, key=lambda d: -d["ms"])[:slowest]:
                print(f"  {d['ms']:8.1f}  {d['shape']}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=50)
    ap.add_argument("--states", type=int, default=2000, help="claim queries to time")
    ap.add_argument("--slowest", type=int, default=0, help="list the K slowest queries")
    ap.add_argument("--chain", action="store_true", help="also time the chain rule")
    ap.add_argument("--baseline", default=None, help="another copy of the library to time")
    ap.add_argument("--out", default=None, help="write every query as a JSON line here")
    ap.add_argument("--seed", type=int, default=0, help="the first game's seed")
    ap.add_argument("--claims-only", action="store_true", help="skip the rounds-per-second part")
    ap.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--lib", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        try:
            worker(args.worker, args.states, args.seed)
        except (KeyboardInterrupt, BrokenPipeError):
            pass  # the main process keeps what was finished
        return
    if not args.claims_only:
        rounds_table(args.rounds)
    claims_table(args.states, args.slowest, args.chain, args.baseline, args.out, args.seed)


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


if __name__ == "__main__":
    main()
