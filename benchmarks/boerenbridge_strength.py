"""BoerenBridge strength: each bot alone against three greedy (or knowledge) bots, in both variants.

    python benchmarks/boerenbridge_strength.py [--games 2000] [--workers 2] [--out-dir DIR]
        [--only standard:sampling,lamas:knowledge] [--opponents greedy] [--summarize]

Every table is a seeded tournament of the shared harness (``games.tournament``:
seats rotated, results streamed to ``DIR/boerenbridge_<variant>_<bot>.jsonl``,
or ``..._<bot>_vs_<opponents>.jsonl`` for opponents other than greedy, so
an interrupted run resumes; ``--summarize`` only reads the files).  The
``standard`` variant is a full game of 15 rounds (2 to 8 cards and back), ``lamas``
five rounds.  The table reports, per variant and bot, its mean game score, the
mean score of the three opponents at its tables, and the mean per-game
difference (bot minus the opponents' average of the same game) with a 95%
interval.  Single hands paired on identical deals, with the bots' guesses and
tricks: ``benchmarks/boerenbridge_bidding.py``.  The same runs from the command line:

    kripke tournament boerenbridge --games 2000 --bots sampling,greedy,greedy,greedy --json
    kripke tournament boerenbridge --variant lamas --games 2000 --bots knowledge,greedy,greedy,greedy

For the ``lamas`` variant the Groningen course project reported mean game scores of
23.6 (its best Kripke agent), 21.0 (greedy) and -3.7 (random) -- in its own tables,
so the numbers compare in spirit, not seat for seat.
"""

from __future__ import annotations

import argparse
import json
import math
import tempfile
from pathlib import Path

from _common import table

from games.tournament import run_tournament

TABLES = [
    ("standard", "selfish-small"),
    ("standard", "selfish-noisy"),
    ("standard", "selfish-play"),
    ("standard", "selfish"),
    ("standard", "sampling"),
    ("standard", "knowledge"),
    ("standard", "random"),
    ("lamas", "selfish-small"),
    ("lamas", "selfish-noisy"),
    ("lamas", "selfish-play"),
    ("lamas", "selfish"),
    ("lamas", "sampling"),
    ("lamas", "knowledge"),
    ("lamas", "random"),
]


def paired(path: Path, hero: str) -> tuple[int, float, float, float, float]:
    """Games, hero mean, opponents' mean, mean difference and its 95% half-width."""
    heroes, greedies, diffs = [], [], []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            if "tournament" in rec:
                continue
            seats, rets = rec["seats"], rec["returns"]
            h = rets[seats.index(hero)]
            g = [r for s, r in zip(seats, rets, strict=True) if s != hero]
            heroes.append(h)
            greedies.append(sum(g) / len(g))
            diffs.append(h - sum(g) / len(g))
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    return n, sum(heroes) / n, sum(greedies) / n, mean, 1.96 * math.sqrt(var / n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--out-dir", default=str(Path(tempfile.gettempdir()) / "boerenbridge-strength"))
    ap.add_argument("--only", default=None, help="comma-separated variant:bot tables to run")
    ap.add_argument("--opponents", default="greedy", help="the three other seats' bot")
    ap.add_argument(
        "--summarize",
        action="store_true",
        help="play nothing: summarise the games already in the result files",
    )
    args = ap.parse_args()
    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    chosen = TABLES
    if args.only:
        want = {tuple(x.split(":")) for x in args.only.split(",")}
        chosen = [t for t in TABLES if t in want]
    rows = []
    for variant, hero in chosen:
        if hero == args.opponents:  # the bot alone in its seat, or nothing to measure
            continue
        tail = "" if args.opponents == "greedy" else f"_vs_{args.opponents}"
        path = out_dir / f"boerenbridge_{variant}_{hero}{tail}.jsonl"
        if args.summarize:
            if path.exists():
                n, h, g, d, half = paired(path, hero)
                rows.append([variant, hero, n, f"{h:.1f}", f"{g:.1f}", f"{d:+.1f} ± {half:.1f}"])
            continue
        run_tournament(
            "boerenbridge",
            [hero] + [args.opponents] * 3,
            args.games,
            out=path,
            workers=args.workers,
            variant=variant,
        )
        n, h, g, d, half = paired(path, hero)
        rows.append([variant, hero, n, f"{h:.1f}", f"{g:.1f}", f"{d:+.1f} ± {half:.1f}"])
    opp = args.opponents
    print(f"each bot against three {opp} bots (seats rotated); results in {out_dir}")
    print(table(["variant", "bot", "games", "bot mean", f"{opp} mean", "difference"], rows))


if __name__ == "__main__":
    main()
