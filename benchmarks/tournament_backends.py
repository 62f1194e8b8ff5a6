"""Tournament throughput: local worker processes vs Ray tasks, games per second.

Plays the same seeded BS (koth) tournament with ``--backend process`` for
1..N workers and with ``--backend ray`` (on the cluster at ``--address``, or
a local one started once before timing, so start-up is not counted), checks
that every run gives the same summary, and prints games per second.

Usage::

    python3 benchmarks/tournament_backends.py --games 400 --workers 2
    python3 benchmarks/tournament_backends.py --games 400 --address 127.0.0.1:6379
"""

from __future__ import annotations

import argparse
import sys
import time

from _common import ROOT, table

sys.path.insert(0, str(ROOT))

from games.tournament import run_tournament  # noqa: E402

BOTS = ["truthful", "threshold", "liar", "random"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--workers", type=int, default=2, help="most process workers")
    ap.add_argument("--address", default=None, help="Ray cluster (default: a local one)")
    ap.add_argument("--no-ray", action="store_true")
    args = ap.parse_args(argv)
    rows = []
    summaries = []

    def timed(label: str, workers: int | None, **kw: object) -> None:
        t0 = time.perf_counter()
        s = run_tournament(
            "bs", BOTS, args.games, variant="koth", workers=workers, progress=False, **kw
        )
        dt = time.perf_counter() - t0
        summaries.append(s)
        rows.append([label, workers or "cluster CPUs", args.games, dt, args.games / dt])

    for w in range(1, args.workers + 1):
        timed("process", w)
    if not args.no_ray:
        import ray

        ray.init(address=args.address, include_dashboard=False, log_to_driver=False)
        try:
            timed("ray (warm-up)", None, backend="ray")
            timed("ray", None, backend="ray")
        finally:
            ray.shutdown()
    print(table(["backend", "workers", "games", "seconds", "games/s"], rows))
    same = all(s == summaries[0] for s in summaries)
    print("same summary in every run:", same)
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
