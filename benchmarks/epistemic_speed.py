"""Game states as knowledge structures at full size: build and query times beside BDD sizes.

Rows:

* a full 32-card BoerenBridge round (4 seats, 8 cards each), at the start of
  the play and after 2 and 5 tricks (every card face up, voids public);
* a 52-card classic BS game with 4 seats after ``k`` plays (random plays of
  one or two cards, a call with probability 0.3): every play the table does
  not call stays a face-down move only its player saw.

Rows whose estimated law width (:func:`games.epistemic.symbolic.law_width`:
the partial counts the card-major law must remember) is over
:data:`~games.epistemic.symbolic.MAX_WIDTH` are refused at once, as
``history_structure`` refuses them (``--force`` builds them anyway).

Each row runs in its own process (the BDD backend imported and its manager
started before the clock runs: about 1 s once per process) with a wall-clock
budget (``--budget``, default 60 s); a row over budget prints ``>`` the budget.  Columns: hidden
moves after simplification, estimated width, nodes of the law's BDD,
seconds to build, seconds for the depth-2 query ``K_0 ~K_1 has(2, c)``
(``c`` a card of seat 2), and the target.

Encoding (see :mod:`games.epistemic.symbolic`): card-major variable order
(cards by suit, then rank), per card one ``dealt`` variable per hand that can
hold it, then one variable per hidden event that can involve it.  Measured
law sizes (CUDD, this script): the 52-card deal into 4 hands of 13 alone is
about 263,000 nodes (0.5 s); the hand sizes make the width the number of
partial count vectors.  Every hidden move adds one more count to the cut and
multiplies the law by about ``n + 1`` (``n`` cards moved): 1, 2, 3, 4 hidden
moves of 2 cards gave 0.97 M, 3.3 M, 10.7 M and 33 M nodes.  Face-up plays,
reveals and voids add no count.

Run::

    python benchmarks/epistemic_speed.py [--budget 60] [--plays 0 1 2 3 20]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import table  # noqa: E402

__all__ = ["main"]


def _boerenbridge(tricks: int, seed: int) -> Any:
    from games.base import load_game

    g = load_game("boerenbridge", rounds=(8,))
    s: Any = g.new_initial_state()
    rng = random.Random(seed)
    while s.phase != "play":
        s.apply_action(rng.choice(list(s.legal_actions())))
    for _ in range(4 * tricks):
        s.apply_action(rng.choice(list(s.legal_actions())))
    return s


def _bs(plays: int, seed: int) -> Any:
    from games.base import load_game
    from games.bs import CALL, PASS

    s: Any = load_game("bs", variant="classic", players=4).new_initial_state()
    rng = random.Random(seed)
    done = 0
    while not s.is_terminal():
        if s.is_chance_node():
            acts, ps = zip(*s.chance_outcomes(), strict=True)
            s.apply_action(rng.choices(acts, ps)[0])
        elif s.phase == "call":
            s.apply_action(CALL if rng.random() < 0.3 else PASS)
        elif done >= plays:
            break
        else:
            p = s.current_player()
            hand = list(s.hands[p])
            k = 1 if s.phase == "first" else min(len(hand), rng.choice([1, 2]))
            s.apply_play(p, rng.sample(hand, k))
            done += 1
    return s


def _measure(kind: str, k: int, seed: int, out: Any, force: bool) -> None:
    from games.epistemic.symbolic import MAX_WIDTH, history_structure, law_width, simplify_steps
    from kripke.symbolic import manager

    manager()  # import the BDD backend and start its manager once, outside the timings
    s = _boerenbridge(k, seed) if kind == "boerenbridge" else _bs(k, seed)
    h = s.card_history()
    steps = simplify_steps(h)
    hidden = sum(1 for st in steps if st.kind == "move" and st.audience is not None)
    width = law_width(h, steps)
    if width > MAX_WIDTH and not force:
        out.put((len(h), hidden, width, None, None, None))
        return
    t0 = time.perf_counter()
    hs = history_structure(h, max_width=None)
    build = time.perf_counter() - t0
    gk = s.knowledge()
    gk._hs = hs
    agents = h.agents
    card = h.content()[agents[2]][0]
    t0 = time.perf_counter()
    gk.holds(f"K_0 ~K_1 has(2, {card})")
    query = time.perf_counter() - t0
    out.put((len(h), hidden, width, hs.law_nodes(), build, query))


def _row(kind: str, k: int, seed: int, budget: float, force: bool) -> tuple[Any, ...]:
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_measure, args=(kind, k, seed, q, force))
    p.start()
    p.join(budget)
    if p.is_alive():
        p.terminate()
        p.join()
        return ("?", "?", "?", "?", f"> {budget:.0f}", "-")
    if q.empty():
        return ("?", "?", "?", "?", f"failed (exit {p.exitcode})", "-")
    events, hidden, width, nodes, build, query = q.get()
    if nodes is None:
        return (events, hidden, f"{width:,}", "-", "refused (width)", "-")
    return (events, hidden, f"{width:,}", f"{nodes:,}", f"{build:.2f}", f"{query:.3f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=60.0, help="seconds per row")
    ap.add_argument("--plays", type=int, nargs="*", default=[0, 1, 2, 3, 20])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--force", action="store_true", help="build structures over the width limit too"
    )
    args = ap.parse_args(argv)
    rows = []
    for tricks in (0, 2, 5):
        r = _row("boerenbridge", tricks, args.seed, args.budget, args.force)
        rows.append((f"BoerenBridge 32 cards, {tricks} tricks", *r, "build <= 1 s"))
        print(rows[-1], flush=True)
    for k in args.plays:
        r = _row("bs", k, args.seed, args.budget, args.force)
        target = "build <= 2 s, query <= 1 s" if k == 20 else ""
        rows.append((f"BS 52 cards, 4 seats, {k} plays", *r, target))
        print(rows[-1], flush=True)
    print()
    print(
        table(
            [
                "state",
                "events",
                "hidden",
                "width est.",
                "law nodes",
                "build s",
                "query s",
                "target",
            ],
            rows,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
