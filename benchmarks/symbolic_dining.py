"""Dining cryptographers with a shared coin for every pair of diners.

Two tasks: SMCDEL's benchmark (``benchDcValid``: announce whether the parity
of all announcements is odd, then check what diner 1 knows) up to n = 200,
and the full protocol of :func:`kripke.puzzles.dining_cryptographers_formula`
(each diner in turn announces whether its parity is odd; SMCDEL's
``genDcValid``).  The explicit engine runs while it can (n + 1 payers times
2^(n(n-1)/2) coin tosses).

In the full protocol the diners' announcements form a system of parity
equations over the complete graph of coins: its BDD needs a number of nodes
exponential in n under every variable order (the complete graph has
pathwidth n - 1), so that task stops growing early - for SMCDEL too.

    python3 benchmarks/symbolic_dining.py [--max-n 200] [--full-max 10]
"""

from __future__ import annotations

import argparse
import sys

import _common  # noqa: F401  (puts the project on sys.path)
from _common import table
from symbolic_tasks import REFERENCE, dining_bench, dining_full, load_note, measure


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-n", type=int, default=200)
    ap.add_argument("--full-max", type=int, default=10)
    ap.add_argument("--explicit-max", type=int, default=5)
    args = ap.parse_args()
    rows = []
    for n in [n for n in (3, 5, 10, 50, 100, 150, 200) if n <= args.max_n]:
        secs, peak, _ = measure(lambda n=n: dining_bench(n), repeat=3 if n <= 50 else 1)
        exp = ratio = ""
        if n <= args.explicit_max:
            esecs, _, _ = measure(lambda n=n: dining_bench(n, "explicit"), symbolic=False)
            exp, ratio = f"{esecs:.4f}", f"{esecs / secs:.1f}x"
        ref = REFERENCE.get(("dining", n))
        rows.append(("benchDcValid", n, secs, peak, exp, ratio, "" if ref is None else ref))
        print(f"  bench n={n}: {secs:.3f} s", file=sys.stderr, flush=True)
    for n in [n for n in range(3, 13) if n <= args.full_max]:
        secs, peak, _ = measure(lambda n=n: dining_full(n), repeat=3 if n <= 6 else 1)
        exp = ratio = ""
        if n <= args.explicit_max:
            esecs, _, _ = measure(lambda n=n: dining_full(n, "explicit"), symbolic=False)
            exp, ratio = f"{esecs:.4f}", f"{esecs / secs:.1f}x"
        rows.append(("full protocol", n, secs, peak, exp, ratio, ""))
        print(f"  full n={n}: {secs:.3f} s", file=sys.stderr, flush=True)
    print("Dining cryptographers, one payer, a coin for every pair of diners (symbolic engine)")
    print(load_note())
    print(
        table(
            [
                "task",
                "n",
                "seconds",
                "peak BDD nodes",
                "explicit s",
                "explicit/symbolic",
                "SMCDEL s",
            ],
            rows,
        )
    )


if __name__ == "__main__":
    main()
