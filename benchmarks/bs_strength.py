"""Strength of the BS bots: a koth tournament with mixed 4-seat tables.

Every game draws 4 of the 6 bots (probabilistic, knowledge, truthful,
threshold, liar, random) into random seats, so every pair meets in mixed
tables.  The script plays the games (resuming from ``--out`` if it exists),
then prints the overall table (win rate with a 95% Wilson interval) and a
head-to-head table: for two bots, the games both played and how many each
won.

``--bots`` plays another field (``probabilistic-exact`` in place of
``probabilistic`` compares the bot on cell bounds with the one on exact deal
knowledge: same seed, same draws of seats).

Run: ``python benchmarks/bs_strength.py --games 10000 --out bs_draw.jsonl``

Measured (``--games 2000 --seed 11 --workers 1``): ``probabilistic`` on
exact deal knowledge (as at commit 0c3f300, now ``probabilistic-exact``)
wins 0.690 [0.665, 0.714] of its 1,339 games, 0.620 of its 807 games with
``knowledge``; on cell bounds (the bot now) 0.689 [0.664, 0.714] and 0.627
(an earlier version of it that updated the bounds at every event: 0.688
[0.662, 0.712]).  ``knowledge`` wins 0.464 and 0.462 in the two fields.
Both in one field (``--bots probabilistic,probabilistic-exact,knowledge,
threshold,truthful,liar``, same games and seed): ``probabilistic`` 0.583
[0.557, 0.609], ``probabilistic-exact`` 0.533 [0.506, 0.560]; at the 807
tables with both, 340 wins against 302.  In the 7-bot field of
``benchmarks/bs_koth_field.py field --games 2000 --seed 18 --workers 1``
(same draws): ``probabilistic`` 0.592 [0.563, 0.619] now, 0.578 [0.549,
0.606] at 0c3f300.

``knowledge`` on cell bounds (the bot now) against the same bot on exact
deal knowledge (``knowledge-exact``, the ``knowledge`` bot of 0c3f300), same
games and seed: 0.457 [0.430, 0.484] against 0.462 [0.435, 0.489] in the
default field (``--bots probabilistic,knowledge-exact,truthful,threshold,
liar,random`` for the second).  Both in one field (``--bots knowledge,
knowledge-exact,probabilistic,threshold,truthful,liar``): ``knowledge``
0.224 [0.203, 0.247], ``knowledge-exact`` 0.208 [0.187, 0.231]; at the 807
tables with both, 187 wins against 172.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import pair_wins, table  # noqa: E402

from games.tournament import format_summary, run_tournament  # noqa: E402

BOTS = ["probabilistic", "knowledge", "truthful", "threshold", "liar", "random"]


def head_to_head(
    path: Path, games: int, bots: list[str] = BOTS
) -> list[tuple[str, str, int, int, int]]:
    """For each pair of bots: games together, wins of each."""
    recs = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(rec.get("game"), int) and rec["game"] < games:
            recs[rec["game"]] = rec
    return pair_wins(recs.values(), bots)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--out", default="bs_strength.jsonl")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--bots", default=",".join(BOTS), help="the field, comma-separated")
    args = ap.parse_args()
    bots = args.bots.split(",")
    out = Path(args.out)
    summary = run_tournament(
        "bs",
        bots,
        args.games,
        seed=args.seed,
        seats="draw",
        out=out,
        workers=args.workers,
        variant="koth",
    )
    title = f"BS koth, {args.games} games, 4 of {len(bots)} bots drawn per game"
    print(format_summary(summary, title))
    print()
    rows = [
        (a, b, n, wa, wb, f"{wa / n:.3f}" if n else "-", f"{wb / n:.3f}" if n else "-")
        for a, b, n, wa, wb in head_to_head(out, args.games, bots)
    ]
    print(table(["bot A", "bot B", "games together", "A wins", "B wins", "A rate", "B rate"], rows))


if __name__ == "__main__":
    main()
