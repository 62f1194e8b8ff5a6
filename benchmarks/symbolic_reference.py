"""The symbolic engine against SMCDEL (the Haskell reference) on SMCDEL's own tasks.

Each task is built and solved from scratch in a fresh BDD manager; the table
gives our seconds (best of ``--repeat`` runs for tasks under a second), the
peak number of live BDD nodes, SMCDEL's time on this machine, the speed-up
over it, and the explicit engine's time on the same task run in this process
where it can run at that size.

    python3 benchmarks/symbolic_reference.py [--quick] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys

import _common  # noqa: F401  (puts the project on sys.path)
from _common import table
from symbolic_tasks import (
    REFERENCE,
    dining_bench,
    drinking,
    load_note,
    measure,
    muddy,
    russian_cards,
    sum_product,
)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="skip muddy children with n = 160")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    tasks = [
        ("muddy", 40, lambda: muddy(40), None),
        ("muddy", 80, lambda: muddy(80), None),
        ("muddy", 160, lambda: muddy(160), None),
        ("dining", 200, lambda: dining_bench(200), None),
        ("drinking", 800, lambda: drinking(800), None),
        ("sum-product", 100, lambda: sum_product(), lambda: sum_product("explicit")),
        ("russian-cards", 7, lambda: russian_cards(), lambda: russian_cards("explicit")),
    ]
    rows = []
    for name, n, fn, explicit in tasks:
        if args.quick and (name, n) == ("muddy", 160):
            continue
        secs, peak, _ = measure(fn, repeat=1)
        if secs < 1 and args.repeat > 1:
            secs, peak, _ = measure(fn, repeat=args.repeat)
        ref = REFERENCE[(name, n)]
        exp = ""
        if explicit is not None:
            esecs, _, _ = measure(explicit, repeat=1, symbolic=False)
            exp = f"{esecs:.3f} ({esecs / secs:.1f}x)"
        rows.append((name, n, secs, peak, ref, f"{ref / secs:.2f}x", exp))
        print(f"  done: {name} n={n} in {secs:.3f} s", file=sys.stderr, flush=True)
    print("Symbolic engine vs SMCDEL on SMCDEL's benchmark tasks")
    print(load_note())
    print(
        table(
            ["task", "n", "seconds", "peak BDD nodes", "SMCDEL s", "speed-up", "explicit s"],
            rows,
        )
    )


if __name__ == "__main__":
    main()
