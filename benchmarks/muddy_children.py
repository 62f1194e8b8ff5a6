"""Muddy children, all muddy, full protocol, on the explicit engine.

The father's announcement, then "nobody knows" until the children know
(n-1 silences).  Prints n, worlds, seconds and peak memory; for small n also
the time of a naive set-based evaluator run in the same process, as a ratio.

    python3 benchmarks/muddy_children.py [--max-n 20]
"""

from __future__ import annotations

import argparse

import _common  # noqa: F401  (puts the project on sys.path)
from _common import peak_memory, table, timed

from kripke.puzzles import at_least_one_muddy, muddy_children, muddy_children_protocol, nobody_knows


def run(n: int) -> int:
    rounds = list(muddy_children_protocol(muddy_children(n)))
    assert len(rounds) == n and len(rounds[-1].knowers) == n
    return len(rounds)


def run_naive(n: int) -> None:
    from tests.naive import NaiveModel

    m = NaiveModel.of(muddy_children(n).model)
    actual = (1 << n) - 1
    keep = m.truth(at_least_one_muddy(n))
    m = m.restrict(keep)
    silence = nobody_knows(n)
    for _ in range(n - 1):
        m = m.restrict(m.truth(silence))
    assert m.worlds == [actual]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-n", type=int, default=20)
    args = ap.parse_args()
    rows = []
    for n in [n for n in (4, 6, 8, 10, 12, 14, 16, 18, 20) if n <= args.max_n]:
        secs, _ = timed(lambda n=n: run(n), repeat=3 if n <= 16 else 1)
        mem = peak_memory(lambda n=n: run(n))
        naive = ratio = ""
        if n <= 10:
            naive_secs, _ = timed(lambda n=n: run_naive(n))
            naive, ratio = f"{naive_secs:.4f}", f"{naive_secs / secs:.0f}x"
        rows.append((n, 2**n, secs, f"{mem / 2**20:.1f}", naive, ratio))
    print("Muddy children, all muddy, full protocol (explicit engine)")
    print(table(["n", "worlds", "seconds", "peak MiB", "naive s", "speed-up"], rows))


if __name__ == "__main__":
    main()
