"""BoerenBridge bidding and single-hand strength, paired on identical deals.

    python benchmarks/boerenbridge_bidding.py --cards 5 --hands 300 --bots sampling,selfish
        [--opponents sampling] [--simulations 200] [--seats-per-deal 1|4]
        [--out FILE.jsonl] [--summarize] [--by-guess]

Every hand is one round of ``--cards`` cards (a trump turned up, the standard
scoring).  Each bot of ``--bots`` in turn sits at one seat (rotating with the
hand number) against three ``--opponents`` bots (any registered BoerenBridge
bot, or ``ismcts``: OpenSpiel's IS-MCTS searching worlds drawn by our exact
sampler, :class:`games.openspiel.ismcts.ISMCTSBot`, with
``--simulations`` simulations), on the same deal with the same opponent seeds,
so the differences between the bots are paired.  ``ismcts`` may also be one of
``--bots``: ``--bots ismcts,selfish-play --opponents ismcts`` compares a bot
with IS-MCTS in its seat, hand by hand.  A bot written ``A+B`` guesses as ``A``
and plays its cards as ``B`` (``ismcts+selfish-play``, ``selfish-play+ismcts``):
the swaps show how much of a difference the guess makes and how much the play.

With ``--seats-per-deal 4`` every deal is played with the bot at each seat in
turn (hands ``4k`` to ``4k+3`` share deal ``k``); a bot that is also the
opponent then makes the same table at every seat, so one hand of four such bots
serves the whole deal (IS-MCTS against IS-MCTS: a quarter of the searches).
Intervals are 95% and cluster-robust over deals (hands of one deal are not
independent).

Reported per bot: mean guess, mean tricks taken, the share of guesses of 0,
the shares of hands over / under / on its guess, the mean round score with a
95% interval, the mean milliseconds per guess, per card and per decision and the slowest
decision (CPU time of the deciding thread: wall-clock time on a loaded machine
measures the load; both are recorded), and for every bot
after the first its paired mean score differences against the first and
against the bot listed before it (CI95); and every bot's difference against
the opponents' mean at its tables.

Results are appended to ``--out`` (JSON lines) as hands finish; a rerun
resumes after the hands already there, and a rerun with more bots plays only
the new bots on the hands already there (same deals, same opponents).
``--by-guess`` adds a table per bot and guess value (tricks taken, shares over
and under, mean score): where the points are won and lost.

Measured (IS-MCTS with 100 simulations, ``--seats-per-deal 4 --seed 200000``,
CPU milliseconds per decision)::

    python benchmarks/boerenbridge_bidding.py --cards 7 --hands 2000 --seats-per-deal 4 \
        --seed 200000 --bots ismcts,selfish-noisy --opponents ismcts --simulations 100

* 7 cards, 2,000 hands: ``selfish-noisy`` +0.48 ± 0.40 a hand against IS-MCTS in
  its seat (9.58 against 9.10), 7.4 ms a decision (IS-MCTS 23.6 ms);
  ``selfish-play`` with the same command (an earlier run) -0.07 ± 0.43.
* 5 cards, 2,000 hands (``--cards 5``, the rest as above): ``selfish-noisy``
  +0.26 ± 0.30 (6.91 against 6.66): ahead, not significantly; 4.8 ms a
  decision (IS-MCTS 18.7 ms).  ``selfish-play`` earlier: +0.16 ± 0.45 (1,015 hands).
  The swaps with IS-MCTS on the first 200 hands: ``selfish-noisy`` +0.47 ± 0.96,
  IS-MCTS's guesses with its cards (``ismcts+selfish-noisy``) -0.08 ± 0.65, its
  guesses with IS-MCTS's cards (``selfish-noisy+ismcts``) +0.34 ± 1.05: what lead
  there is comes with the guess more than with the cards (none of it significant).  On the first 200 hands,
  ``selfish-play`` +0.60 ± 1.48 against IS-MCTS, the swaps ``ismcts+selfish-play``
  +0.63 ± 1.23 and ``selfish-play+ismcts`` +0.76 ± 1.46: neither the guess nor
  the card play alone separates the two there.  The noise of ``selfish-noisy``
  (0.6, the other seats' random cards in the playouts) over ``selfish-play`` on
  the first 127 hands: +1.81 ± 1.43 (0.4: +0.69 ± 1.33; 0.2 on 200 hands +0.36 ± 1.11).
  The swaps on the first 128 hands, over ``selfish-play``: the noisy cards alone
  (``selfish-play+selfish-noisy``) +0.94 ± 1.03, the noisy guesses alone
  (``selfish-noisy+selfish-play``) +0.77 ± 1.36, both +1.80 ± 1.43 -- the two
  halves about equal.  These are the hands the noise level was chosen on, so
  they flatter it: over all 2,000 hands the gain is about +0.55 (+0.48 against
  -0.07).
* Fresh deals, ``--seed 900000`` (the rest as above): 7 cards, 800 hands,
  ``selfish-noisy`` +0.68 ± 0.65 (9.91 against 9.23); 5 cards, 2,000 hands,
  -0.04 ± 0.31 (6.72 against 6.76).  So ahead at 7 cards on deals the noise was
  not chosen on, and level with IS-MCTS at 5 cards.
* ``selfish-small`` (``selfish-noisy`` that in rounds of at most 5 cards plays out
  150 deals per guess and 100 per card, each deal's options replaying the same
  random draws of the other seats; in bigger rounds it makes ``selfish-noisy``'s
  decisions card for card, tested in ``tests/test_boerenbridge_bots.py``).  Chosen
  on the training deals ``--seed 300000`` at 5 cards (254 hands, ``--bots
  ismcts,selfish-noisy,...``, candidates registered by a throwaway script):
  the more deals with common draws +0.47 ± 0.58 over ``selfish-noisy``; also
  reading the guesses (``read_guesses``, the deals weighed by the default
  :class:`~games.boerenbridge.GuessModel`) -0.28 ± 0.60 on top of that, so off; a
  guess noise of 0.3 instead of 0.6 -0.20 ± 0.75 (238 hands).  Validation on
  fresh deals, run once::

      python benchmarks/boerenbridge_bidding.py --cards 5 --hands 2000 --seats-per-deal 4 \
          --seed 910000 --bots ismcts,selfish-small --opponents ismcts --simulations 100

  5 cards, 2,000 hands: ``selfish-small`` +0.42 ± 0.32 against IS-MCTS in its
  seat (7.08 against 6.66), 14.5 ms a decision (52.5 ms a guess, 6.9 ms a card;
  slowest decision 80 ms; IS-MCTS 21.6 ms).  7 cards, where it is
  ``selfish-noisy``: the ``--seed 900000`` run above completed to 2,000 hands,
  +0.59 ± 0.41 (9.62 against 9.04), 7.7 ms a decision.  Both on a loaded
  2-core machine (CPU time of the deciding thread).  What the change bought, on
  the same fresh deals (``--bots ismcts,selfish-small,selfish-noisy``, the rest
  as above, run after the validation): ``selfish-noisy`` -0.02 ± 0.30 against
  IS-MCTS, so ``selfish-small`` over ``selfish-noisy`` +0.44 ± 0.26 (paired).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import table  # noqa: E402
from tqdm import tqdm  # noqa: E402

from games.base import Bot, load_game, make_bot, play_game  # noqa: E402


class Timed(Bot):
    """Passes everything to ``bot``; adds up the seconds of its guesses and of its
    cards, keeps the slowest decision, and follows the seat's guess and tricks in
    a :class:`~games.boerenbridge.SeatView` of its own (so any bot can be timed)."""

    def __init__(self, bot: Bot):
        super().__init__(bot.seed)
        self.bot = bot
        self.name = bot.name
        self.seconds = [0.0, 0.0]
        self.cpu = [0.0, 0.0]
        self.decisions = [0, 0]
        self.worst = 0.0
        self.worst_cpu = 0.0
        self.view: Any = None

    def restart(self, game: Any, seat: int) -> None:
        from games.boerenbridge import SeatView

        super().restart(game, seat)
        self.bot.restart(game, seat)
        self.view = SeatView(game.params, seat)

    def inform(self, observation: Any) -> None:
        self.view.observe(observation)
        self.bot.inform(observation)

    def step(self, legal_actions: Sequence[int]) -> int:
        from games.boerenbridge import GUESS_BASE

        kind = 0 if legal_actions[0] >= GUESS_BASE else 1
        t0, c0 = time.perf_counter(), time.thread_time()
        action = self.bot.step(legal_actions)
        dt, dc = time.perf_counter() - t0, time.thread_time() - c0
        self.seconds[kind] += dt
        self.cpu[kind] += dc
        self.decisions[kind] += 1
        self.worst = max(self.worst, dt)
        self.worst_cpu = max(self.worst_cpu, dc)
        return action


class Swap(Bot):
    """Guesses as ``bidder`` and plays its cards as ``player`` (both follow every
    observation of the seat, so each decides from its own up-to-date view)."""

    def __init__(self, bidder: Bot, player: Bot):
        super().__init__(bidder.seed)
        self.bidder, self.player = bidder, player
        self.name = f"{bidder.name}+{player.name}"

    def restart(self, game: Any, seat: int) -> None:
        super().restart(game, seat)
        self.bidder.restart(game, seat)
        self.player.restart(game, seat)

    def inform(self, observation: Any) -> None:
        self.bidder.inform(observation)
        self.player.inform(observation)

    def step(self, legal_actions: Sequence[int]) -> int:
        from games.boerenbridge import GUESS_BASE

        guessing = legal_actions[0] >= GUESS_BASE
        return (self.bidder if guessing else self.player).step(legal_actions)


def opponent(name: str, seed: int, simulations: int) -> Bot:
    if "+" in name:  # "A+B": A guesses, B plays the cards
        bidder, player = name.split("+", 1)
        return Swap(opponent(bidder, seed, simulations), opponent(player, seed, simulations))
    if name == "ismcts":
        from games.openspiel.ismcts import ISMCTSBot

        return ISMCTSBot(seed=seed, simulations=simulations)
    return make_bot("boerenbridge", name, seed=seed)


def play_table(
    game: Any, hero: str, opp: str, seats: Sequence[int], seed: int, sims: int
) -> dict[int, dict[str, Any]]:
    """One hand with ``hero`` at each of ``seats`` and ``opp`` at the others; a record
    of each hero seat (its guess, tricks, score, the others' mean score, its time)."""
    bots: list[Bot] = []
    for s in range(game.num_players()):
        if s in seats:
            bots.append(Timed(opponent(hero, seed * 10 + s, sims)))
        else:
            bots.append(opponent(opp, seed * 10 + s, sims))
    res = play_game(game, bots, seed=seed)
    out = {}
    for seat in seats:
        hero_bot = bots[seat]
        assert isinstance(hero_bot, Timed)
        view = hero_bot.view
        others = [r for s, r in enumerate(res.returns) if s != seat]
        out[seat] = {
            "seat": seat,
            "guess": view.guesses[seat],
            "tricks": view.tricks[seat],
            "score": res.returns[seat],
            "others": sum(others) / len(others),
            "seconds": hero_bot.seconds,
            "cpu": hero_bot.cpu,
            "decisions": hero_bot.decisions,
            "worst": hero_bot.worst,
            "worst_cpu": hero_bot.worst_cpu,
        }
    return out


def play_hand(game: Any, hero: str, opp: str, seat: int, seed: int, sims: int) -> dict[str, Any]:
    """One hand with ``hero`` at ``seat`` against three ``opp``: the hero's record."""
    return play_table(game, hero, opp, [seat], seed, sims)[seat]


def deal_of(index: int, first_seed: int, seats_per_deal: int, players: int) -> tuple[int, int]:
    """The deal seed and the hero's seat of hand ``index``: one deal per hand (seats
    rotating), or every deal played from all ``players`` seats in turn."""
    if seats_per_deal == 1:
        return first_seed + index, index % players
    return first_seed + index // players, index % players


def mean_ci(xs: Sequence[float], groups: Sequence[Any] | None = None) -> tuple[float, float]:
    """Mean and 95% half-width; values of the same group (hands of one deal) are
    correlated, so the variance is taken over the groups' sums (a cluster-robust
    interval, the ordinary one when every group holds one value)."""
    n = len(xs)
    m = sum(xs) / n
    keys = list(range(n)) if groups is None else list(groups)
    sums: dict[Any, float] = {}
    for x, g in zip(xs, keys, strict=True):
        sums[g] = sums.get(g, 0.0) + x - m
    k = len(sums)
    if k < 2:
        return m, float("inf")
    var = k / (k - 1) * sum(d * d for d in sums.values()) / (n * n)
    return m, 1.96 * math.sqrt(var)


def summarize(recs: list[dict[str, Any]], bots: list[str]) -> str:
    rows = []
    first = bots[0]
    for b in bots:
        rs = [r[b] for r in recs]
        n = len(rs)
        g = sum(r["guess"] for r in rs) / n
        t = sum(r["tricks"] for r in rs) / n
        zero = sum(r["guess"] == 0 for r in rs) / n
        over = sum(r["tricks"] > r["guess"] for r in rs) / n
        under = sum(r["tricks"] < r["guess"] for r in rs) / n
        hit = 1 - over - under
        deals = [r["seed"] for r in recs]
        m, h = mean_ci([r["score"] for r in rs], deals)
        dm, dh = mean_ci([r["score"] - r["others"] for r in rs], deals)
        # CPU time of the deciding thread where recorded (wall-clock time on a loaded
        # machine measures the load); older records have wall-clock time only
        key = "cpu" if all("cpu" in r for r in rs) else "seconds"
        ms_g = 1000 * sum(r[key][0] for r in rs) / max(1, sum(r["decisions"][0] for r in rs))
        ms_p = 1000 * sum(r[key][1] for r in rs) / max(1, sum(r["decisions"][1] for r in rs))
        ms_all = 1000 * sum(sum(r[key]) for r in rs) / max(1, sum(sum(r["decisions"]) for r in rs))
        wkey = "worst_cpu" if key == "cpu" else "worst"
        worst = 1000 * max((r.get(wkey, 0.0) for r in rs), default=0.0)
        k = bots.index(b)
        if k == 0:
            pair = prev = "-"
        else:
            pm, ph = mean_ci([r[b]["score"] - r[first]["score"] for r in recs], deals)
            pair = f"{pm:+.2f} ± {ph:.2f}"
            qm, qh = mean_ci([r[b]["score"] - r[bots[k - 1]]["score"] for r in recs], deals)
            prev = f"{qm:+.2f} ± {qh:.2f}"
        rows.append(
            [
                b,
                n,
                f"{g:.2f}",
                f"{t:.2f}",
                f"{zero:.0%}",
                f"{over:.0%}/{under:.0%}/{hit:.0%}",
                f"{m:.2f} ± {h:.2f}",
                f"{dm:+.2f} ± {dh:.2f}",
                pair,
                prev,
                f"{ms_g:.1f}/{ms_p:.1f}/{ms_all:.1f}",
                f"{worst:.0f}",
            ]
        )
    head = [
        "bot",
        "hands",
        "guess",
        "tricks",
        "guess 0",
        "over/under/hit",
        "score",
        "vs opponents",
        f"vs {first} (paired)",
        "vs the bot above (paired)",
        "ms guess/card/all (CPU)",
        "worst ms",
    ]
    return table(head, rows)


def by_guess(recs: list[dict[str, Any]], bots: list[str]) -> str:
    """Per bot and guess value: how often it was said, the tricks then taken, the
    shares over / under / on it and the mean score (where the points are lost)."""
    rows = []
    for b in bots:
        rs = [r[b] for r in recs]
        for g in sorted({r["guess"] for r in rs}):
            sub = [r for r in rs if r["guess"] == g]
            n = len(sub)
            over = sum(r["tricks"] > g for r in sub) / n
            under = sum(r["tricks"] < g for r in sub) / n
            rows.append(
                [
                    b,
                    g,
                    f"{n / len(rs):.0%}",
                    f"{sum(r['tricks'] for r in sub) / n:.2f}",
                    f"{over:.0%}/{under:.0%}/{1 - over - under:.0%}",
                    f"{sum(r['score'] for r in sub) / n:.2f}",
                    f"{sum(r['score'] for r in sub) / len(rs):+.2f}",
                ]
            )
    head = ["bot", "guess", "share", "tricks", "over/under/hit", "mean score", "share x score"]
    return table(head, rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=int, default=5)
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--bots", default="sampling,selfish")
    ap.add_argument("--opponents", default="sampling")
    ap.add_argument("--simulations", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0, help="first deal seed")
    ap.add_argument(
        "--seats-per-deal",
        type=int,
        choices=(1, 4),
        default=1,
        help="4: every deal is played from each seat in turn (hands 4k..4k+3 share a deal)",
    )
    ap.add_argument("--out", default=None)
    ap.add_argument("--summarize", action="store_true")
    ap.add_argument("--by-guess", action="store_true", help="also a table per bot and guess value")
    args = ap.parse_args()
    bots = args.bots.split(",")
    out = Path(
        args.out
        or Path(tempfile.gettempdir())
        / f"bb_bidding_{args.cards}_{'-'.join(bots)}_vs_{args.opponents}.jsonl"
    )
    game = load_game("boerenbridge", rounds=(args.cards,), no_trump_rounds=())
    merged: dict[int, dict[str, Any]] = {}  # a hand's lines merge: bots added later
    if out.exists():
        with out.open(encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    rec = json.loads(line)
                    merged.setdefault(rec["hand"], {}).update(rec)
    if not args.summarize:
        todo = [i for i in range(args.hands) if any(b not in merged.get(i, {}) for b in bots)]
        players = game.num_players()
        tables: dict[tuple[str, int], dict[int, dict[str, Any]]] = {}
        with out.open("a", encoding="utf-8") as fh:
            for i in tqdm(todo, desc=f"{args.cards}-card hands"):
                seed, seat = deal_of(i, args.seed, args.seats_per_deal, players)
                rec = {"hand": i, "seed": seed}
                for b in bots:
                    if b in merged.get(i, {}):
                        continue
                    if b == args.opponents:
                        # the bot in its seat makes the same table as at any seat: one
                        # hand of four serves the whole deal
                        if (b, seed) not in tables:
                            if len(tables) > 8:
                                tables.clear()
                            tables[(b, seed)] = play_table(
                                game, b, b, range(players), seed, args.simulations
                            )
                        rec[b] = tables[(b, seed)][seat]
                    else:
                        rec[b] = play_hand(game, b, args.opponents, seat, seed, args.simulations)
                fh.write(json.dumps(rec) + "\n")
                fh.flush()
                merged.setdefault(i, {}).update(rec)
    recs = [merged[i] for i in sorted(merged)]
    recs = [r for r in recs if all(b in r for b in bots)]
    print(
        f"{args.cards}-card hands, each bot against three {args.opponents} "
        f"(same deals and opponent seeds); results in {out}"
    )
    if recs:
        print(summarize(recs, bots))
        if args.by_guess:
            print(by_guess(recs, bots))


if __name__ == "__main__":
    main()
