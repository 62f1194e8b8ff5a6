"""Muddy children, all muddy, full protocol, on the symbolic engine.

The father's announcement, then "nobody knows" until every child knows
(n-1 silences).  Prints n, seconds, peak BDD nodes and, where the explicit
engine can run (2^n worlds), its time on the same task in this process.

    python3 benchmarks/symbolic_muddy.py [--max-n 160] [--explicit-max 16]
"""

from __future__ import annotations

import argparse
import sys

import _common  # noqa: F401  (puts the project on sys.path)
from _common import table
from symbolic_tasks import REFERENCE, load_note, measure, muddy


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-n", type=int, default=160)
    ap.add_argument("--explicit-max", type=int, default=16)
    args = ap.parse_args()
    rows = []
    for n in [n for n in (4, 8, 12, 16, 20, 40, 80, 120, 160) if n <= args.max_n]:
        secs, peak, _ = measure(lambda n=n: muddy(n), repeat=3 if n <= 40 else 1)
        exp = ratio = ""
        if n <= args.explicit_max:
            esecs, _, _ = measure(lambda n=n: muddy(n, "explicit"), repeat=3, symbolic=False)
            exp, ratio = f"{esecs:.4f}", f"{esecs / secs:.1f}x"
        ref = REFERENCE.get(("muddy", n))
        rows.append((n, secs, peak, exp, ratio, "" if ref is None else ref))
        print(f"  n={n}: {secs:.3f} s", file=sys.stderr, flush=True)
    print("Muddy children, all muddy, full protocol (symbolic engine)")
    print(load_note())
    print(
        table(
            ["n", "seconds", "peak BDD nodes", "explicit s", "explicit/symbolic", "SMCDEL s"], rows
        )
    )


if __name__ == "__main__":
    main()
