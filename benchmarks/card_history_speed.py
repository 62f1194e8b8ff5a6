"""BS-ZPY card histories at every decision of a round: cached validity against uncached.

A BS-ZPY state's card history (``state.card_history()``, the input of
``state.knowledge()``) states the validity of every claimed play of the round
as a card formula (:func:`games.bs_zpy.knowledge.follow_validity`,
:func:`~games.bs_zpy.knowledge.lead_validity`).  Asking for it after every
decision, as a notebook following a game or the whole-game benchmark does,
states each earlier play's validity again.  The formulas are cached, keyed by
the deck, seat, cards, format, trump and draw policy.

For each seed one round is played by the default bots of
``benchmarks/whole_game_knowledge.py`` (probabilistic at every seat), then
replayed, asking for the card history after every decision twice in the
same process: with the caches as the library keeps them (``cached``), and
with them cleared before every call (``uncached``, the baseline: each call
states every validity anew).  Both histories must print alike.

    python3 benchmarks/card_history_speed.py [--seeds 0 1 2] [--max-plays N]

Reported per seed: decisions with a history, seconds for all of them on each
route (``time.process_time``) and the ratio.

Measured (this 2-core machine, another benchmark running beside it):

* ``--seeds 0 .. 19`` at ff89590 (where the follow rule's cases were cached as well,
  and cleared with the formulas): 12,093 histories in 114 s cached (9.5 ms each),
  246 s uncached (2.1x).  Since then only the formulas are cached: the cached
  time is the same (seed 16's first 150: 6.6 s with the cases' cache or without),
  while an uncached call no longer reuses cases within itself (31 s there, from
  24 s).  Most rounds take 3-5 s cached and 5-7 s uncached; seed 16, whose
  follows have the most cases, 31 s cached and 118 s uncached (3.8x).
* Seed 16, the first 150 histories (``--seeds 16 --max-plays 150``): 6.6 s
  cached, 24 s uncached; the library before the cache and before the cases
  were pruned with numpy (169d365, this script run from a clone of it, where
  both routes are that code) 97 s, 15x the cached time.  Its whole round took
  hours there; the whole-game benchmark spent them replaying that round.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from _common import table
from tqdm import tqdm


def _clear() -> None:
    from games.bs_zpy import knowledge

    if hasattr(knowledge, "_validity_cached"):  # absent in older copies
        knowledge._validity_cached.cache_clear()


def measure(seed: int, max_plays: int | None = None) -> tuple[int, float, float]:
    """Decisions with a card history, CPU seconds cached, CPU seconds uncached."""
    from games.base import load_game, make_bot, play_game
    from games.errors import GameError

    g = load_game("bs-zpy")
    bots = [
        make_bot("bs-zpy", "probabilistic", seed=1000 * seed + i) for i in range(g.num_players())
    ]
    actions = play_game(g, bots, seed=seed).history
    s: Any = g.new_initial_state()
    n, warm, cold = 0, 0.0, 0.0
    _clear()
    for action in tqdm(actions, desc=f"seed {seed}", leave=False):
        chance = s.is_chance_node()
        s.apply_action(action)
        if chance:
            continue
        try:
            t0 = time.process_time()
            a = s.card_history()
            warm += time.process_time() - t0
        except GameError:  # before the deal: no history
            continue
        _clear()  # afterwards the cache holds this state's plays, as after the cached call
        t0 = time.process_time()
        b = s.card_history()
        cold += time.process_time() - t0
        if [str(e) for e in a.events] != [str(e) for e in b.events]:
            raise AssertionError(f"seed {seed}: the cached history differs at decision {n}")
        n += 1
        if max_plays is not None and n >= max_plays:
            break
    return n, warm, cold


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="*", default=[0, 1, 2])
    ap.add_argument("--max-plays", type=int, default=None)
    args = ap.parse_args(argv)
    rows = []
    for seed in args.seeds:
        n, warm, cold = measure(seed, args.max_plays)
        rows.append([seed, n, f"{warm:.2f}", f"{cold:.2f}", f"{cold / max(warm, 1e-9):.1f}x"])
    print(table(["seed", "histories", "cached s", "uncached s", "ratio"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
