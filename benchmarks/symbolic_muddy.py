"""Muddy children, all muddy, full protocol, on the symbolic engine.

The father's announcement, then "nobody knows" until every child knows
(n-1 silences), through ``kripke.puzzles.muddy_children_protocol``.  Each
row, in this process:

- ``seconds`` / ``peak BDD nodes``: the protocol as the library runs it;
- ``generic s`` / ``generic peak``: the generic step-by-step path, as the
  library ran it before the symbolic protocol (announce "nobody knows" as a
  formula, check ``Kw_i mi`` for every child with ``holds``, count the worlds
  of every round with Python integers, a CUDD cache of 2**20 slots); it is
  also how SMCDEL is run step by step (2.5-2.8 s at n = 160 on this machine,
  measured separately);
- ``explicit s``: the explicit engine where it can run (2^n worlds);
- ``SMCDEL s``: SMCDEL's published ``findNumberCUDD n n`` times.

    python3 benchmarks/symbolic_muddy.py [--sizes 40,80,160,320] [--generic-max 160]
        [--explicit-max 16]
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import _common  # noqa: F401  (puts the project on sys.path)
from _common import table
from symbolic_tasks import REFERENCE, load_note, measure, muddy

from kripke import puzzles as P
from kripke.semantics import holds
from kripke.symbolic import _bdd
from kripke.updates import announce


def muddy_generic(n: int) -> int:
    """The generic path: every round announced as a formula, every child's
    knowledge checked with ``holds``, every round's worlds counted."""
    pm: Any = P.muddy_children(n, engine="symbolic")
    children = sorted(pm.agents, key=int)
    kw = [P.KnowsWhether(c, P.Atom(f"m{c}")) for c in children]
    mgr = pm.structure.manager

    def knowers(p: Any) -> tuple[str, ...]:
        return tuple(c for c, f in zip(children, kw, strict=True) if holds(p, f))

    def worlds(p: Any) -> int:
        return mgr._count_exact(p.structure.law, p.structure._frame.allvars)

    pm = announce(pm, P.at_least_one_muddy(n))
    who, rounds = knowers(pm), [worlds(pm)]
    silence = P.nobody_knows(n)
    while not who:
        pm = announce(pm, silence)
        who = knowers(pm)
        rounds.append(worlds(pm))
    assert len(rounds) == n and len(who) == n, "wrong muddy children result"
    return len(rounds)


def measure_generic(n: int) -> tuple[float, int]:
    before = _bdd.INITIAL_CACHE_SLOTS
    _bdd.INITIAL_CACHE_SLOTS = 2**20
    try:
        secs, peak, _ = measure(lambda: muddy_generic(n))
    finally:
        _bdd.INITIAL_CACHE_SLOTS = before
    return secs, peak


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="40,80,160,320")
    ap.add_argument("--generic-max", type=int, default=160)
    ap.add_argument("--explicit-max", type=int, default=16)
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(",") if x.strip()]
    rows = []
    for n in sizes:
        secs, peak, _ = measure(lambda n=n: muddy(n), repeat=3 if n <= 160 else 1)
        gen = gpeak = ratio = exp = ""
        if n <= args.generic_max:
            gsecs, gpeak = measure_generic(n)
            gen, ratio = f"{gsecs:.3f}", f"{gsecs / secs:.1f}x"
        if n <= args.explicit_max:
            esecs, _, _ = measure(lambda n=n: muddy(n, "explicit"), repeat=3, symbolic=False)
            exp = f"{esecs:.4f}"
        ref = REFERENCE.get(("muddy", n))
        rows.append((n, f"{secs:.3f}", peak, gen, gpeak, ratio, exp, "" if ref is None else ref))
        print(f"  n={n}: {secs:.3f} s (generic {gen or '-'} s)", file=sys.stderr, flush=True)
    print("Muddy children, all muddy, full protocol (symbolic engine)")
    print(load_note())
    print(
        table(
            [
                "n",
                "seconds",
                "peak BDD nodes",
                "generic s",
                "generic peak",
                "generic/new",
                "explicit s",
                "SMCDEL s",
            ],
            rows,
        )
    )


if __name__ == "__main__":
    main()
