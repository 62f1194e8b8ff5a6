"""Estimated probabilities where exact counting drops a constraint: time per drawn deal,
share of draws kept, interval width.

For each game and seed one complete game is played as in
``benchmarks/whole_game_knowledge.py`` (same bots, same plays).  At every ``--every``-th
play, for the seat ``a`` and card atom ``has(c, X)`` that benchmark asks about, where
``a``'s counting knowledge is not exact (so that :meth:`GameKnowledge.probability`
refuses), :meth:`GameKnowledge.probability_estimate` draws ``--samples`` deals (seeded by
the play) and keeps those ``a``'s integer program finds possible.

Reported per game: states estimated, median and worst seconds per drawn deal, the median
share of draws kept, the median width of the 95% interval, and how many draws the
integer program left undecided.  Each state is appended to ``--out`` (JSON lines) as it
finishes; states already there are skipped, so an interrupted run goes on where it
stopped.

Run: ``python benchmarks/probability_estimate.py --games bs-classic bs-koth --seeds 0 1
--every 20 --samples 100``.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import table  # noqa: E402
from benchmarks.whole_game_knowledge import BOTS, pick_query, plays  # noqa: E402
from games.errors import InvalidParameterError  # noqa: E402


def estimate_state(h: Any, index: int, samples: int) -> dict[str, Any] | None:
    """The estimate for play ``index`` of ``h``, or ``None`` where the seat's counting is
    exact (``probability`` answers) or there is nothing to ask."""
    from games.epistemic import GameKnowledge

    try:
        q = pick_query(h, index)
    except InvalidParameterError:
        return None
    a = q["a"]
    found = re.search(r"has\([^)]*\)", q["formulas"][0])  # has(c's place, X)
    if found is None:
        return None
    f = found.group(0)
    gk = GameKnowledge(h)
    kn = gk._seat_counting(a)
    if kn is None or kn.exact:
        return None
    t0 = time.perf_counter()
    e = gk.probability_estimate(a, f, samples=samples, seed=index)
    s = time.perf_counter() - t0
    return {
        "seat": a,
        "formula": f,
        "value": e.value,
        "low": e.low,
        "high": e.high,
        "kept": e.kept,
        "drawn": e.drawn,
        "undecided": e.undecided,
        "s": s,
        "s_per_draw": s / max(1, e.drawn),
    }


def summarize(records: list[dict[str, Any]]) -> str:
    rows = []
    for game in dict.fromkeys(r["game"] for r in records):
        rs = [r for r in records if r["game"] == game]
        per = [r["s_per_draw"] for r in rs]
        kept = [r["kept"] / r["drawn"] for r in rs]
        width = [r["high"] - r["low"] for r in rs]
        rows.append(
            [
                game,
                len({r["seed"] for r in rs}),
                len(rs),
                f"{statistics.median(per):.3f}",
                f"{max(per):.3f}",
                f"{statistics.median(kept):.2f}",
                f"{statistics.median(width):.3f}",
                sum(r["undecided"] for r in rs),
            ]
        )
    headers = ["game", "seeds", "states", "median s/draw", "worst s/draw", "kept share"]
    headers += ["median 95% width", "undecided"]
    return table(headers, rows)


def main(argv: list[str] | None = None) -> int:
    from tqdm import tqdm

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="*", default=["bs-classic", "bs-koth"], choices=list(BOTS))
    ap.add_argument("--seeds", type=int, nargs="*", default=[0, 1])
    ap.add_argument("--every", type=int, default=20, help="estimate every N-th play")
    ap.add_argument("--samples", type=int, default=100, help="deals drawn per state")
    ap.add_argument("--out", type=Path, default=Path("probability_estimate.jsonl"))
    args = ap.parse_args(argv)
    if args.every < 1 or args.samples < 1:
        ap.error("--every and --samples must be at least 1")
    done = {}
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            try:
                r = json.loads(line)
                done[(r["game"], r["seed"], r["play"], r["every"], r["samples"])] = r
            except (ValueError, KeyError):
                continue
    records = []
    with args.out.open("a") as out:
        for game in args.games:
            for seed in args.seeds:
                bar = tqdm(desc=f"{game} seed {seed}", unit="state")
                for k, h in plays(game, seed):
                    if k % args.every:
                        continue
                    key = (game, seed, k, args.every, args.samples)
                    if key in done:
                        records.append(done[key])
                        continue
                    r = estimate_state(h, k // args.every, args.samples)
                    bar.update()
                    if r is None:
                        continue
                    r |= {"game": game, "seed": seed, "play": k}
                    r |= {"every": args.every, "samples": args.samples}
                    out.write(json.dumps(r) + "\n")
                    out.flush()
                    records.append(r)
                    bar.set_postfix(play=k, kept=r["kept"], s=f"{r['s']:.1f}")
                bar.close()
    if records:
        print(summarize(records))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
