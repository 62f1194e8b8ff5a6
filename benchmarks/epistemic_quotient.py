"""Card-symmetry quotients of full-size BS games: states, build and query times.

Rows: a 52-card classic BS game with 4 seats after ``k`` random plays
(``benchmarks/epistemic_speed.py``'s ``_bs``: one or two cards a play, a
call with probability 0.3), for a few seeds.  The query is the depth-2
formula ``K_0 ~K_1 has(2, c)`` with ``c`` a card of seat 2 that no public
event names.

Columns: hidden moves left after simplification; cards named (``c`` and
every card a face-up play or a call reveals); pools of interchangeable
futures formed; states of the quotient for the query's agents (P0, P1:
what :func:`~games.epistemic.quotient.quotient_holds` builds) and the most
states kept after any event; build and query seconds.  With ``--all-seats``
the quotient for all four seats is built as well (its states and seconds).
The baseline is the per-card knowledge structure
(:func:`~games.epistemic.symbolic.history_structure`) answering the same
query, run in the same way; the ratio is baseline / quotient (build and
query together).  Every measurement runs in its own process with a
wall-clock budget (``--budget``); over budget prints ``>`` the budget,
a quotient over :data:`~games.epistemic.quotient.MAX_STATES` states prints
``over limit``.

Run::

    python benchmarks/epistemic_quotient.py [--budget 60] [--plays 0 5 10 20 30]
        [--seeds 0 1 2 3 4] [--all-seats] [--baseline-plays 0 5]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import table  # noqa: E402
from benchmarks.epistemic_speed import _bs  # noqa: E402

__all__ = ["main"]


def _state(plays: int, seed: int) -> tuple[Any, str]:
    from games.epistemic.quotient import named_cards

    h = _bs(plays, seed).card_history()
    named = set(named_cards(h))
    card = next(c for c in h.content()[h.agents[2]] if c not in named)
    return h, card


def _quotient(plays: int, seed: int, all_seats: bool, out: Any) -> None:
    from games.epistemic.quotient import quotient_model
    from games.epistemic.symbolic import simplify_steps
    from kripke.errors import SizeLimitError

    h, card = _state(plays, seed)
    f = f"K_0 ~K_1 has(2, {card})"
    try:
        q = quotient_model(h, [card], agents=None if all_seats else [0, 1])
    except SizeLimitError:
        out.put(None)
        return
    t0 = time.perf_counter()
    answer = q.holds(f)
    query = time.perf_counter() - t0
    hidden = sum(1 for st in simplify_steps(h) if st.kind == "move" and st.audience is not None)
    out.put((hidden, len(q.named), q.pools, len(q.states), q.peak, q.seconds, query, answer))


def _baseline(plays: int, seed: int, out: Any) -> None:
    from games.epistemic import GameKnowledge
    from games.epistemic.symbolic import history_structure
    from kripke.symbolic import manager

    manager()  # the BDD backend started outside the timings
    h, card = _state(plays, seed)
    t0 = time.perf_counter()
    hs = history_structure(h)
    build = time.perf_counter() - t0
    gk = GameKnowledge(h)
    gk._hs = hs
    t0 = time.perf_counter()
    answer = gk.holds(f"K_0 ~K_1 has(2, {card})")
    out.put((build, time.perf_counter() - t0, answer))


def _run(target: Any, args: tuple[Any, ...], budget: float) -> tuple[str, Any]:
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=target, args=(*args, q))
    p.start()
    p.join(budget)
    if p.is_alive():
        p.terminate()
        p.join()
        return f"> {budget:.0f}", None
    if q.empty():
        return f"failed (exit {p.exitcode})", None
    r = q.get()
    if r is None:
        return "over limit", None
    return "", r


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=60.0, help="seconds per measurement")
    ap.add_argument("--plays", type=int, nargs="*", default=[0, 5, 10, 20, 30])
    ap.add_argument("--seeds", type=int, nargs="*", default=[0, 1, 2, 3, 4])
    ap.add_argument("--all-seats", action="store_true", help="also the quotient for all seats")
    ap.add_argument(
        "--baseline-plays",
        type=int,
        nargs="*",
        default=[0, 5],
        help="plays for which the knowledge structure is run as baseline",
    )
    args = ap.parse_args(argv)
    rows = []
    for k in args.plays:
        for seed in args.seeds:
            err, r = _run(_quotient, (k, seed, False), args.budget)
            if r is None:
                row: list[Any] = [k, seed, "?", "?", "?", "?", "?", err, "-"]
                total = None
            else:
                hidden, named, pools, states, peak, build, query, answer = r
                row = [k, seed, hidden, named, pools, f"{states:,}", f"{peak:,}"]
                row += [f"{build:.3f}", f"{query:.4f}"]
                total = build + query
            if args.all_seats:
                err, r = _run(_quotient, (k, seed, True), args.budget)
                row += [err, "-"] if r is None else [f"{r[3]:,}", f"{r[5]:.2f}"]
            if k in args.baseline_plays:
                err, b = _run(_baseline, (k, seed), args.budget)
                if b is None:
                    row += [err, "-", "-"]
                else:
                    same = r is None or b[2] == answer
                    ratio = f"{(b[0] + b[1]) / total:.0f}x" if total else "-"
                    row += [f"{b[0]:.2f}", f"{b[1]:.3f}", ratio if same else "DISAGREE"]
            else:
                row += ["-", "-", "-"]
            rows.append(row)
            print(row, flush=True)
    headers = ["plays", "seed", "hidden", "named", "pools", "states", "peak"]
    headers += ["build s", "query s"]
    if args.all_seats:
        headers += ["states 4 seats", "build s 4 seats"]
    headers += ["structure build s", "structure query s", "ratio"]
    print()
    print(table(headers, rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
