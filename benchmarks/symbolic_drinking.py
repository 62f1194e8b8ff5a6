"""Drinking logicians ("does everyone want beer?"), SMCDEL's ``thirstyCheck``:
n-1 logicians say "I don't know", then the last one knows - one formula with
n-1 nested announcements, checked at the actual state.

    python3 benchmarks/symbolic_drinking.py [--max-n 800] [--explicit-max 16]
"""

from __future__ import annotations

import argparse
import sys

import _common  # noqa: F401  (puts the project on sys.path)
from _common import table
from symbolic_tasks import REFERENCE, drinking, load_note, measure


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-n", type=int, default=800)
    ap.add_argument("--explicit-max", type=int, default=16)
    args = ap.parse_args()
    rows = []
    for n in [n for n in (4, 8, 16, 100, 200, 400, 800) if n <= args.max_n]:
        secs, peak, _ = measure(lambda n=n: drinking(n), repeat=3 if n <= 200 else 1)
        exp = ratio = ""
        if n <= args.explicit_max:
            esecs, _, _ = measure(lambda n=n: drinking(n, "explicit"), repeat=3, symbolic=False)
            exp, ratio = f"{esecs:.4f}", f"{esecs / secs:.1f}x"
        ref = REFERENCE.get(("drinking", n))
        rows.append((n, secs, peak, exp, ratio, "" if ref is None else ref))
        print(f"  n={n}: {secs:.3f} s", file=sys.stderr, flush=True)
    print("Drinking logicians, everyone thirsty (symbolic engine)")
    print(load_note())
    print(
        table(
            ["n", "seconds", "peak BDD nodes", "explicit s", "explicit/symbolic", "SMCDEL s"], rows
        )
    )


if __name__ == "__main__":
    main()
