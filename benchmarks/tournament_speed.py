"""Tournament speed of the knowledge-driven BS bots, 3 to 6 players.

Each row plays ``games`` games of one bot against copies of itself exactly as
``kripke tournament bs --bots NAME,NAME,... --workers 1`` does (the same
:func:`games.tournament.play_one` seeds and seat rotation), timing the CPU
time of this process (``time.process_time``), so a machine shared with other
work measures the code, not the load.  Rows: the koth variant (4 players,
the target command of the benchmark) and the classic variant with 3, 4, 5
and 6 players, for the ``probabilistic`` and the ``knowledge`` bot.

Every row also prints a fingerprint: a hash of every action of every game.
Two runs of the same seeds with equal fingerprints made the same decisions,
so a speed-up that keeps the fingerprints keeps the bots' strength.
``--save FILE`` writes the fingerprints as JSON, ``--compare FILE`` checks
them against a saved run (exit status 1 on any difference).

``--split`` also reports the shares of the row's CPU time the bots spend
following observations (updating their deal knowledge) and deciding.

``--baseline DIR`` measures another copy of the library in the same run (for
instance ``git archive <commit> | tar -x -C DIR``): every row is played in
fresh processes, alternately by the baseline and by this checkout,
``--repeat`` times each, and the best CPU rate of each is reported with
their ratio and whether the actions agree.  A shared machine's load then
weighs on both alike.

Run: ``python benchmarks/tournament_speed.py [--games N] [--save F | --compare F]``
or ``python benchmarks/tournament_speed.py --baseline DIR [--repeat 2]``

``--agree FIELD`` counts, instead of timing, the call decisions of
``knowledge-exact`` and ``knowledge`` at the same moments (seats named
``knowledge`` in tables of FIELD).

Measured (``--baseline DIR --games 20 --repeat 1``, DIR a ``git archive`` of
0c3f300, games per CPU second on a 2-core machine loaded by other work,
load 4-6; the ``probabilistic`` rows from an earlier run of the same day):

=============  =======  =======  ==========  ==========  ========  =========
bot            variant  players  0c3f300     now         speed-up  actions
=============  =======  =======  ==========  ==========  ========  =========
probabilistic  koth     4        1.14        19.78       17.4      different
probabilistic  classic  3        2.20        27.17       12.4      different
probabilistic  classic  4        1.64        27.03       16.5      different
probabilistic  classic  5        0.54        18.30       33.8      different
probabilistic  classic  6        0.82        10.67       13.0      different
knowledge      koth     4        24.61       117.91      4.79      same
knowledge      classic  3        16.20       121.18      7.48      same
knowledge      classic  4        10.29       85.39       8.30      same
knowledge      classic  5        15.44       70.34       4.56      same
knowledge      classic  6        10.81       54.03       5.00      same
=============  =======  =======  ==========  ==========  ========  =========

Both bots now read cell bounds (:class:`games.deal.cells.CellKnowledge`)
instead of the exact deal knowledge; the former bots are
``probabilistic-exact`` and ``knowledge-exact`` (in this run
``knowledge-exact`` plays 25.23 koth games/CPU s, 16.23 / 10.27 / 15.36 /
10.77 classic, with the actions of the 0c3f300 ``knowledge`` bot; over 100
koth games 116.35 against 27.67).  ``benchmarks/bs_strength.py`` gives each
pair the same strength.  The ``probabilistic`` koth goal of 20 games/s is
reached at the edge (18.5-21.3 in that day's runs); ``knowledge`` passes its
goal of 40 (the exact bot spent its time on the bound propagation, merging
the play into the pile and the call decision).  ``knowledge`` calls when the bounds leave the
claimer fewer copies of the rank than it claims (sound; a lie only a joint
constraint proves goes uncalled).  Its call decisions against
``knowledge-exact``'s at the same moments (``--agree``): in 200 self-play
games of koth and of classic with 3 players, 77 and 444 lies proven by
both, no other difference; 200 koth and classic-4 games against
probabilistic, liar and threshold, 54 and 119, no other difference; 300
koth games against random, probabilistic and truthful (random plays make
the exact knowledge drop constraints: 6,468 of 7,920 decisions on relaxed
knowledge), 3,147 by both, 44 by the exact knowledge only, 7 by the cells
only (all on relaxed exact knowledge), 4,722 by neither.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import table  # noqa: E402
from tqdm import tqdm  # noqa: E402

from games.base import load_game, make_bot, play_game  # noqa: E402
from games.tournament import TournamentSpec, _game_seed, _table  # noqa: E402

#: The speed goals of the koth command (games per CPU second, one process).
TARGETS = "goals (koth, 4 players): probabilistic >= 20 games/s, knowledge >= 40 games/s"

#: (variant, players) of the rows.
SHAPES = [("koth", 4), ("classic", 3), ("classic", 4), ("classic", 5), ("classic", 6)]
BOTS = ["probabilistic", "knowledge"]


def _time_calls(bot: Any, name: str, parts: dict[str, float]) -> None:
    """Add the CPU time of every call of ``bot.<name>`` to ``parts[name]``."""
    inner = getattr(bot, name)

    def timed(*args: Any) -> Any:
        c0 = time.process_time()
        try:
            return inner(*args)
        finally:
            parts[name] += time.process_time() - c0

    setattr(bot, name, timed)


def run_row(
    bot: str, variant: str, players: int, games: int, seed: int, split: bool = False
) -> dict[str, Any]:
    """Play one row; games per CPU second, steps per game and the action fingerprint.

    With ``split`` the bots' CPU time is also split into following the
    observations (``inform``: updating the deal knowledge) and deciding
    (``step``: the call and play decisions), as shares of the row's time.
    """
    parts = {"inform": 0.0, "step": 0.0}
    spec = TournamentSpec(
        "bs", tuple([bot] * players), games, seed, "rotate", (("variant", variant),)
    )
    if variant == "classic":
        spec = TournamentSpec(
            "bs",
            tuple([bot] * players),
            games,
            seed,
            "rotate",
            (("players", players), ("variant", variant)),
        )
    game = load_game("bs", **dict(spec.params))
    digest = hashlib.sha256()
    steps = 0
    cpu = 0.0
    for i in range(games):
        names = _table(spec, i, players)
        gseed = _game_seed(spec, i)
        actions: list[int] = []

        def record(_state: Any, player: int, action: int, actions: list[int] = actions) -> None:
            actions.append(player * 10_000 + action)

        c0 = time.process_time()
        bots = [make_bot("bs", n, seed=gseed * 31 + s) for s, n in enumerate(names)]
        if split:
            for b in bots:
                _time_calls(b, "inform", parts)
                _time_calls(b, "step", parts)
        res = play_game(game, bots, seed=gseed, forfeit_on_error=True, on_step=record)
        cpu += time.process_time() - c0
        steps += res.steps
        digest.update(repr((actions, [float(r) for r in res.returns], res.forfeit)).encode())
    out = {
        "rate": games / cpu if cpu > 0 else float("inf"),
        "steps": steps / max(games, 1),
        "fingerprint": digest.hexdigest()[:16],
    }
    if split and cpu > 0:
        out["inform"] = parts["inform"] / cpu
        out["step"] = parts["step"] / cpu
    return out


def agreement(variant: str, players: int, games: int, seed: int, field: str) -> dict[str, int]:
    """Call decisions of the exact and the cell-bound knowledge at the same moments.

    Every seat named ``knowledge`` in ``field`` (comma-separated, cycled
    over the seats) plays ``knowledge-exact`` and, at every call decision,
    also asks its cell bounds; returns how many decisions both, only one or
    neither called, how many were made on relaxed exact knowledge (a joint
    constraint dropped past the table budget) and how many of the lies only
    the cells proved were among those.  Both are sound.
    """
    # (imported here: a baseline copy of the library, timed by the other modes, may lack it)
    from games.bs.bots import ExactKnowledgeBot

    class _BothKnowledge(ExactKnowledgeBot):
        """``knowledge-exact`` whose view also keeps cell bounds; counts how the two answers agree."""

        name = "knowledge-both"
        needs_cells = True

        def __init__(self, seed: int | None, tally: dict[str, int]):
            super().__init__(seed=seed)
            self.tally = tally

        def call(self, player: int, rank: int, count: int) -> bool:
            exact, cells = self.view.knows_lie(), self.view.rank_knows_lie()
            key = {(True, True): "both", (True, False): "exact only", (False, True): "cells only"}
            self.tally[key.get((exact, cells), "neither")] += 1
            kn = self.view.knowledge
            if kn is not None and not kn.exact:
                self.tally["relaxed"] += 1
                self.tally["relaxed, cells only"] += cells and not exact
            return exact

    tally = dict.fromkeys(
        ["both", "exact only", "cells only", "neither", "relaxed", "relaxed, cells only"], 0
    )
    params: dict[str, Any] = {"variant": variant}
    if variant == "classic":
        params["players"] = players
    game = load_game("bs", **params)
    names = field.split(",")
    for i in tqdm(range(games), desc=f"{variant}{players}", leave=False):
        gseed = seed * 1_000 + i
        bots = []
        for s in range(players):
            name = names[(s + i) % len(names)]
            b = gseed * 31 + s
            bots.append(
                _BothKnowledge(b, tally) if name == "knowledge" else make_bot("bs", name, seed=b)
            )
        play_game(game, bots, seed=gseed)
    return tally


def _row_in_process(root: str, bot: str, variant: str, players: int, games: int, seed: int):
    """:func:`run_row` in a fresh Python whose library is the one under ``root``."""
    # _common puts this checkout first on the path: undo that before importing the library
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[2]); import _common;"
        "sys.path[:] = [sys.argv[1]] + [p for p in sys.path if p != sys.argv[8]];"
        "import tournament_speed as t, games;"
        "assert games.__file__.startswith(sys.argv[1]), games.__file__;"
        "print(json.dumps(t.run_row(sys.argv[3], sys.argv[4], int(sys.argv[5]),"
        " int(sys.argv[6]), int(sys.argv[7]))))"
    )
    here = str(Path(__file__).resolve().parent)
    checkout = str(Path(__file__).resolve().parent.parent)
    root = str(Path(root).resolve())
    args = [root, here, bot, variant, str(players), str(games), str(seed), checkout]
    env = {**os.environ, "PYTHONPATH": root}
    out = subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def compare_with(baseline: str, args: argparse.Namespace, shapes: list[tuple[str, int]]) -> int:
    """Rows played alternately by the baseline copy and this checkout."""
    here = str(Path(__file__).resolve().parent.parent)
    rows = []
    bad = 0
    for bot in args.bots.split(","):
        for variant, players in shapes:
            best: dict[str, dict[str, Any]] = {}
            for _ in range(args.repeat):
                for name, root in (("baseline", baseline), ("current", here)):
                    r = _row_in_process(root, bot, variant, players, args.games, args.seed)
                    if name not in best or r["rate"] > best[name]["rate"]:
                        best[name] = r
            b, c = best["baseline"], best["current"]
            same = b["fingerprint"] == c["fingerprint"]
            bad += not same
            rows.append(
                (bot, variant, players, args.games, f"{c['steps']:.0f}")
                + (f"{b['rate']:.2f}", f"{c['rate']:.2f}", f"{c['rate'] / b['rate']:.2f}")
                + ("same" if same else "DIFFERENT",)
            )
            print(*rows[-1], flush=True)
    print(f"BS tournaments, one process per row, best of {args.repeat}; baseline: {baseline}")
    print(TARGETS)
    print(
        table(
            ["bot", "variant", "players", "games", "steps/game"]
            + ["baseline games/CPU s", "current games/CPU s", "speed-up", "actions"],
            rows,
        )
    )
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=10, help="games per row")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--bots", default=",".join(BOTS))
    ap.add_argument("--shapes", default=None, help="e.g. koth4,classic3")
    ap.add_argument("--save", default=None, help="write the fingerprints to this JSON file")
    ap.add_argument("--compare", default=None, help="compare with a saved JSON file")
    ap.add_argument("--baseline", default=None, help="another copy of the library to time")
    ap.add_argument("--repeat", type=int, default=2, help="runs per row with --baseline")
    ap.add_argument(
        "--split",
        action="store_true",
        help="also give the shares of the CPU time spent updating knowledge and deciding",
    )
    ap.add_argument(
        "--agree",
        default=None,
        metavar="FIELD",
        help="count the call decisions of knowledge-exact and knowledge at the same moments "
        "in tables of FIELD (e.g. knowledge,liar,truthful,threshold) instead of timing",
    )
    args = ap.parse_args()
    shapes = SHAPES
    if args.shapes:
        want = set(args.shapes.split(","))
        shapes = [s for s in SHAPES if f"{s[0]}{s[1]}" in want]
    if args.agree:
        got = [(v, n, agreement(v, n, args.games, args.seed, args.agree)) for v, n in shapes]
        cols = list(got[0][2]) if got else []
        print(
            f"call decisions of the knowledge seats, {args.games} games a row, field {args.agree}"
        )
        print(
            table(["variant", "players"] + cols, [(v, n, *(t[c] for c in cols)) for v, n, t in got])
        )
        return 0
    if args.baseline:
        return compare_with(args.baseline, args, shapes)
    saved = json.loads(Path(args.compare).read_text()) if args.compare else {}
    rows = []
    prints: dict[str, Any] = {}
    bad = 0
    for bot in args.bots.split(","):
        for variant, players in shapes:
            key = f"{bot}/{variant}{players}/{args.games}/{args.seed}"
            r = run_row(bot, variant, players, args.games, args.seed, split=args.split)
            prints[key] = r
            same = ""
            if key in saved:
                ok = saved[key]["fingerprint"] == r["fingerprint"]
                bad += not ok
                same = f"{'same' if ok else 'DIFFERENT'}, was {saved[key]['rate']:.2f}"
            shares: tuple[str, ...] = ()
            if args.split:
                shares = (f"{100 * r['inform']:.0f}%", f"{100 * r['step']:.0f}%")
            rows.append(
                (bot, variant, players, args.games, f"{r['steps']:.0f}", f"{r['rate']:.2f}")
                + shares
                + (r["fingerprint"], same)
            )
            print(*rows[-1], flush=True)
    print("BS, one process, games played as `kripke tournament bs --workers 1` plays them")
    split_cols = ["updates", "decisions"] if args.split else []
    print(
        table(
            ["bot", "variant", "players", "games", "steps/game", "games/CPU s"]
            + split_cols
            + ["actions", "saved"],
            rows,
        )
    )
    print(TARGETS)
    if args.save:
        Path(args.save).write_text(json.dumps(prints, indent=1))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
