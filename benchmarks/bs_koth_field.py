"""BS koth strength: a 7-bot field (4 drawn per game) and fixed 4-seat tables.

With ``--report`` a run plays nothing and summarises the games in the results
files (after an interrupted run, for instance).

The tournament's own conditions (``bs-koth.txt``): every game draws 4 bots of
the field and the game draws their turn order.  The field is the library's
bots and the tournament text's example players:

* ``strategic`` (:mod:`games.bs.strategic`), ``probabilistic``, ``knowledge``,
  ``threshold`` and ``liar`` (:mod:`games.bs.bots`);
* ``sample`` and ``first-card`` (:mod:`games.bs.examples`, the text's sample
  player and its ``requestCards`` alone);
* with ``--bots``, any registered bot, e.g. ``con-man`` and
  ``calculating-liar`` (:mod:`games.bs.published`, the scoreboard's leaders).

``field`` plays ``--games`` games of the field (seats drawn per game,
seeded).  ``tables`` plays every table of ``--focus`` and three of the other
bots, ``--table-games`` games each (the game draws the turn order), and says
whether the focus bot has the best win rate at each table.  Both print the
win rate of every bot with its 95% Wilson interval, games played and games
per second of the run; ``field`` also prints head-to-head counts (the games
two bots played together and how many each won).  ``speed`` plays
``--games`` games of four copies of ``--focus`` in one process and prints
games per second.

Every run writes JSON-lines results under ``--out`` (one file per field or
table) and resumes from them: Ctrl-C keeps the finished games, and the same
command plays only the missing ones.  Progress is a tqdm bar per run.

Run::

    python benchmarks/bs_koth_field.py field --games 20000 --out bench_out/koth
    python benchmarks/bs_koth_field.py tables --table-games 500 --out bench_out/koth
    python benchmarks/bs_koth_field.py speed --games 1000

Measured (seed 18, 2 workers on a shared 2-core machine under load; the
``probabilistic`` and ``knowledge`` figures below were taken when both read
the exact deal knowledge, the bots now named ``probabilistic-exact`` and
``knowledge-exact``; ``benchmarks/bs_strength.py`` compares both versions):

* ``field --games 20000`` (the default field), 20,000 games, 12.1 games/s:
  strategic wins 8,376 of its 11,443 games, 0.732 [0.724, 0.740]; next
  probabilistic 0.577 [0.568, 0.586], knowledge 0.279, first-card 0.102,
  threshold 0.037, sample 0.020, liar 0.002.  In the games both played,
  strategic won 0.603 against probabilistic's 0.286 and 0.672 against
  knowledge's 0.205;
* ``tables --table-games 150`` (the default field): strategic first at all
  20 tables; 0.500-0.540 with both probabilistic and knowledge (the worst,
  0.500 [0.421, 0.579] with threshold, probabilistic 0.280), 0.600-0.693
  with probabilistic alone, 0.760-0.873 with knowledge alone, 0.973-0.987
  with neither;
* ``field --games 20000 --bots strategic,truthful,threshold,liar,random,sample,first-card``,
  20,000 games, 48.8 games/s: strategic 9,719 of 11,443 games, 0.849
  [0.843, 0.856]; next threshold 0.304 [0.295, 0.312], sample 0.257,
  truthful 0.187, first-card 0.109, random 0.044, liar 0.001;
* ``tables --table-games 500`` with those bots: strategic first at all 20
  tables, from 0.562 [0.518, 0.605] (with threshold, random, sample) to 0.994;
* ``speed --games 1000``: four strategic bots, 58.6 games/s, 7.4 rounds a game;
* against the tournament scoreboard's two leaders rewritten from their
  published strategies (:mod:`games.bs.published`), seed 18, 1 worker:
  ``field --games 20000 --bots strategic,con-man,calculating-liar,truthful,threshold,sample,first-card``,
  137 games/s: strategic 8,158 of 11,443 games, 0.713 [0.705, 0.721]; next
  con-man 0.339 [0.330, 0.348], calculating-liar 0.287, truthful 0.258,
  first-card 0.100, threshold 0.038, sample 0.014.  In the games both played,
  strategic won 0.558 against con-man's 0.255 and 0.677 against
  calculating-liar's 0.160;
* ``tables --table-games 300`` with those bots: strategic first at all 20
  tables, from 0.470 [0.414, 0.527] (with con-man, calculating-liar and
  first-card; con-man 0.237) to 0.983.
"""

from __future__ import annotations

import argparse
import sys
import time
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import pair_wins, table  # noqa: E402

from games.tournament import TournamentSpec, read_results, run_tournament, summarize  # noqa: E402

FIELD = ["strategic", "probabilistic", "knowledge", "threshold", "liar", "sample", "first-card"]


def _rows(summary: dict[str, Any]) -> list[list[Any]]:
    rows = []
    for label, b in sorted(summary["bots"].items(), key=lambda kv: -kv[1]["win_rate"]):
        lo, hi = b["ci95"]
        rows.append([label, b["games"], b["wins"], f"{b['win_rate']:.3f}", f"[{lo:.3f}, {hi:.3f}]"])
    return rows


def _run(bots: list[str], games: int, seats: str, out: Path, args: argparse.Namespace) -> Any:
    """Play (or resume) one tournament; the summary, the games played now and the seconds.

    With ``--report`` nothing is played: the summary of the games in ``out``.
    """
    spec = TournamentSpec(
        "bs",
        tuple(bots),
        games,
        seed=args.seed,
        seats=seats,
        params=(("variant", "koth"),),
        move_time=10.0,
    )
    before = len(read_results(out, spec)) if out.exists() else 0
    if args.report:
        done = read_results(out, spec) if out.exists() else {}
        return summarize(done[i] for i in sorted(done)), 0, 0.0
    t0 = time.perf_counter()
    summary = run_tournament(
        "bs",
        bots,
        games,
        seed=args.seed,
        seats=seats,
        out=out,
        workers=args.workers,
        variant="koth",
    )
    return summary, games - before, time.perf_counter() - t0


def head_to_head(out: Path, bots: list[str], games: int, seed: int) -> list[list[Any]]:
    """For each pair of bots: games together and the wins of each."""
    spec = TournamentSpec(
        "bs",
        tuple(bots),
        games,
        seed=seed,
        seats="draw",
        params=(("variant", "koth"),),
        move_time=10.0,
    )
    recs = read_results(out, spec)
    rows = []
    for a, b, n, wa, wb in pair_wins(recs.values(), bots):
        rows.append([a, b, n, wa, wb, f"{wa / n:.3f}" if n else "-", f"{wb / n:.3f}" if n else "-"])
    return rows


def field(args: argparse.Namespace) -> None:
    bots = args.bots.split(",") if args.bots else FIELD
    out = Path(args.out) / f"field_{'_'.join(bots)}_{args.games}games_seed{args.seed}.jsonl"
    summary, played, secs = _run(bots, args.games, "draw", out, args)
    n = sum(b["games"] for b in summary["bots"].values()) // 4
    print(f"BS koth field: {n} of {args.games} games, 4 of {len(bots)} bots drawn per game ({out})")
    print(table(["bot", "games", "wins", "win rate", "95% CI"], _rows(summary)))
    if played:
        print(f"{played} games played in this run, {secs:.1f} s, {played / secs:.1f} games/s")
    print()
    heads = ["bot A", "bot B", "together", "A wins", "B wins", "A rate", "B rate"]
    print(table(heads, head_to_head(out, bots, args.games, args.seed)))


def tables(args: argparse.Namespace) -> None:
    bots = args.bots.split(",") if args.bots else FIELD
    focus = args.focus
    others = [b for b in bots if b != focus]
    rows = []
    first_everywhere = True
    for trio in combinations(others, 3):
        seats = [focus, *trio]
        name = f"table_{'_'.join(seats)}_{args.table_games}games_seed{args.seed}.jsonl"
        out = Path(args.out) / name
        summary, played, secs = _run(seats, args.table_games, "rotate", out, args)
        rates = {b: summary["bots"].get(b, {"win_rate": 0.0})["win_rate"] for b in seats}
        best_other = max(trio, key=lambda b: rates[b])
        if focus not in summary["bots"]:
            continue
        f = summary["bots"][focus]
        lo, hi = f["ci95"]
        first = rates[focus] > rates[best_other]
        first_everywhere &= first
        speed = f"{played / secs:.1f}" if played else "-"
        rows.append(
            [
                " ".join(trio),
                f["games"],
                f"{f['win_rate']:.3f}",
                f"[{lo:.3f}, {hi:.3f}]",
                best_other,
                f"{rates[best_other]:.3f}",
                "yes" if first else "NO",
                speed,
            ]
        )
        print(rows[-1], flush=True)
    print()
    print(f"BS koth fixed tables: {focus} and three others, {args.table_games} games each")
    heads = [
        "others",
        "games",
        f"{focus} rate",
        "95% CI",
        "best other",
        "its rate",
        "first",
        "games/s",
    ]
    print(table(heads, rows))
    print(f"{focus} first at every table: {'yes' if first_everywhere else 'no'}")


def speed(args: argparse.Namespace) -> None:
    """Games per second of four copies of ``--focus`` in this process (seeded games)."""
    from tqdm import tqdm

    from games.base import load_game, make_bot, play_game

    game = load_game("bs", variant="koth")
    t0 = time.perf_counter()
    rounds = 0
    for i in tqdm(range(args.games), unit="game"):
        bots = [make_bot("bs", args.focus, seed=args.seed * 1000 + 4 * i + s) for s in range(4)]
        res = play_game(game, bots, seed=args.seed * 100_000 + i, keep_state=True)
        rounds += getattr(res.state, "rounds", 0)
    secs = time.perf_counter() - t0
    print(
        f"four {args.focus} bots: {args.games} games in {secs:.1f} s, "
        f"{args.games / secs:.1f} games/s, {rounds / args.games:.1f} rounds a game"
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("mode", choices=("field", "tables", "speed"))
    ap.add_argument("--games", type=int, default=20000, help="games of the field")
    ap.add_argument("--table-games", type=int, default=500, help="games per fixed table")
    ap.add_argument("--bots", default="", help="comma-separated field (default: the 7 bots)")
    ap.add_argument("--focus", default="strategic", help="the bot seated at every fixed table")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--out", default="bench_out/bs_koth_field")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument(
        "--report", action="store_true", help="summarise the finished games only (play none)"
    )
    args = ap.parse_args(argv)
    if args.mode == "field":
        field(args)
    elif args.mode == "tables":
        tables(args)
    else:
        speed(args)


if __name__ == "__main__":
    main()
