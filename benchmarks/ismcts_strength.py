"""Strength against OpenSpiel's IS-MCTS: our best BS bot and our best BoerenBridge bot.

Every game seats two of our bots and two IS-MCTS bots (``games.openspiel``,
worlds drawn by the exact deal sampler from the seat's observations) in
alternating seats, swapped from one game to the next:

* ``--game bs``: BS koth, ``probabilistic`` against ``ismcts``; a game is won
  by one seat (or nobody at the round cap).  Reported: each side's win rate
  and the mean per-game difference (our wins minus IS-MCTS wins, in -1..1).
* ``--game boerenbridge``: BoerenBridge (variant ``--variant``, default
  ``lamas``: five hands), ``selfish-play`` against ``ismcts``.  Reported: the mean
  per-game difference of the two sides' average scores, per game and per hand.

``--ours`` seats another bot of ours.  Single BoerenBridge hands paired on
identical deals, with IS-MCTS in our bot's seat: ``benchmarks/boerenbridge_bidding.py``.
Intervals are 95% normal intervals over games.  IS-MCTS runs
``--simulations`` simulations per search (default 100, the bot's default);
``--equal-time`` first measures our bot's seconds per decision and IS-MCTS's
seconds per simulation on ``--calibrate`` games and sets the simulations so both
sides spend the same time per decision.

Results go to ``--out`` (JSON lines, one per game) as games finish; a rerun
with the same arguments resumes after the games already there, so an
interrupted run loses nothing finished.  Needs the optional extra
``open-spiel``.

Run: ``python benchmarks/ismcts_strength.py --game bs --games 40 --out ismcts_bs.jsonl``
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common  # noqa: E402,F401  (puts the repository on the path)
from tqdm import tqdm  # noqa: E402

from games.base import Bot, load_game, make_bot, play_game  # noqa: E402
from games.openspiel.ismcts import ISMCTSBot  # noqa: E402

OURS = {"bs": "probabilistic", "boerenbridge": "selfish-play"}
BEFORE = {"bs": "probabilistic", "boerenbridge": "sampling"}  # our bots in older result files


class Timed(Bot):
    """Passes everything to ``bot`` and adds up the seconds its decisions take."""

    def __init__(self, bot: Bot):
        super().__init__(bot.seed)
        self.bot = bot
        self.name = bot.name
        self.seconds = 0.0
        self.decisions = 0

    def restart(self, game: Any, seat: int) -> None:
        super().restart(game, seat)
        self.bot.restart(game, seat)

    def inform(self, observation: Any) -> None:
        self.bot.inform(observation)

    def step(self, legal_actions: Sequence[int]) -> int:
        t0 = time.perf_counter()
        action = self.bot.step(legal_actions)
        self.seconds += time.perf_counter() - t0
        self.decisions += 1
        return action


def play_one(game: Any, name: str, index: int, seed: int, simulations: int) -> dict[str, Any]:
    ours_first = index % 2 == 0
    bots: list[Timed] = []
    for seat in range(game.num_players()):
        if (seat % 2 == 0) == ours_first:
            bots.append(Timed(make_bot(name, OURS[name], seed=seed * 10 + seat)))
        else:
            bots.append(Timed(ISMCTSBot(seed=seed * 10 + seat, simulations=simulations)))
    result = play_game(game, bots, seed=seed)
    sides = ["ours" if b.name == OURS[name] else "ismcts" for b in bots]
    return {
        "game": index,
        "seed": seed,
        "seats": sides,
        "returns": result.returns,
        "seconds": [b.seconds for b in bots],
        "decisions": [b.decisions for b in bots],
        "simulations": simulations,
        "ours": OURS[name],
    }


def per_decision(recs: list[dict[str, Any]], side: str) -> float:
    sec = sum(s for r in recs for s, w in zip(r["seconds"], r["seats"], strict=True) if w == side)
    dec = sum(d for r in recs for d, w in zip(r["decisions"], r["seats"], strict=True) if w == side)
    return sec / dec if dec else float("nan")


def mean_ci(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, float("inf")
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, 1.96 * math.sqrt(var / n)


def summary(name: str, recs: list[dict[str, Any]], hands: int) -> str:
    lines = [f"{len(recs)} games, IS-MCTS {recs[0]['simulations']} simulations per search"]
    lines.append(
        f"seconds per decision: ours {per_decision(recs, 'ours'):.3f}, "
        f"ismcts {per_decision(recs, 'ismcts'):.3f}"
    )
    if name == "bs":
        ours = [
            sum(r for r, w in zip(x["returns"], x["seats"], strict=True) if w == "ours")
            for x in recs
        ]
        theirs = [
            sum(r for r, w in zip(x["returns"], x["seats"], strict=True) if w == "ismcts")
            for x in recs
        ]
        m, h = mean_ci([a - b for a, b in zip(ours, theirs, strict=True)])
        lines.append(
            f"win rate: ours {sum(ours) / len(recs):.3f} ({OURS[name]}, two seats), "
            f"ismcts {sum(theirs) / len(recs):.3f} (two seats)"
        )
        lines.append(f"per-game difference (ours - ismcts wins): {m:+.3f} ± {h:.3f} (CI95)")
    else:
        diffs = []
        for x in recs:
            o = [r for r, w in zip(x["returns"], x["seats"], strict=True) if w == "ours"]
            t = [r for r, w in zip(x["returns"], x["seats"], strict=True) if w == "ismcts"]
            diffs.append(sum(o) / len(o) - sum(t) / len(t))
        m, h = mean_ci(diffs)
        lines.append(f"mean score difference per game (ours - ismcts): {m:+.2f} ± {h:.2f} (CI95)")
        lines.append(f"per hand ({hands} hands a game): {m / hands:+.2f} ± {h / hands:.2f}")
    return "\n".join(lines)


def calibrate(game: Any, name: str, seed: int, games: int) -> int:
    recs = [play_one(game, name, i, seed + 10_000 + i, 20) for i in range(games)]
    ours = per_decision(recs, "ours")
    per_sim = per_decision(recs, "ismcts") / 20
    sims = max(2, round(ours / per_sim))
    print(
        f"calibration: ours {ours:.3f} s/decision, ismcts {per_sim * 1000:.2f} ms/simulation "
        f"-> {sims} simulations"
    )
    return sims


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", choices=sorted(OURS), default="bs")
    ap.add_argument("--variant", default=None)
    ap.add_argument("--ours", default=None, help="our bot (default: the game's best)")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--simulations", type=int, default=100)
    ap.add_argument("--equal-time", action="store_true")
    ap.add_argument("--calibrate", type=int, default=2)
    ap.add_argument("--max-rounds", type=int, default=1000, help="BS round cap")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    name = args.game
    if args.ours:
        OURS[name] = args.ours
    if name == "bs":
        game = load_game("bs", variant=args.variant or "koth", max_rounds=args.max_rounds)
        hands = 1
    else:
        game = load_game("boerenbridge", variant=args.variant or "lamas")
        hands = len(game.params.rounds)
    sims = calibrate(game, name, args.seed, args.calibrate) if args.equal_time else args.simulations
    out = Path(args.out or f"ismcts_{name}_{sims}.jsonl")
    recs: list[dict[str, Any]] = []
    if out.exists():
        for line in out.read_text(encoding="utf-8").splitlines():
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue
            ours = rec.get("ours", BEFORE[name])  # records of before --ours name no bot
            if (
                rec.get("simulations") == sims
                and ours == OURS[name]
                and rec.get("game", -1) < args.games
            ):
                recs.append(rec)
    done = {r["game"] for r in recs}
    todo = [i for i in range(args.games) if i not in done]
    with out.open("a", encoding="utf-8") as fh:
        try:
            for i in tqdm(todo, desc=f"{name} vs ismcts", unit="game"):
                rec = play_one(game, name, i, args.seed * 100_000 + i, sims)
                fh.write(json.dumps(rec) + "\n")
                fh.flush()
                recs.append(rec)
        except KeyboardInterrupt:
            print("interrupted: the finished games are kept in", out)
    if recs:
        print(summary(name, sorted(recs, key=lambda r: r["game"]), hands))


if __name__ == "__main__":
    main()
