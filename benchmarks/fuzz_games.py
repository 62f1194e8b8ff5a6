"""Fuzz every game's ``apply_action`` with many arbitrary ints and objects.

The same check as ``tests/test_fuzz_games.py`` on many more inputs: at points
of seeded random playouts an arbitrary value (any-size ints, ints next to the
legal actions, bools, floats, strings, bytes, None, lists, tuples, dicts,
objects) is offered to ``apply_action``; it must be applied as a legal action
or refused with ``IllegalActionError`` leaving the state unchanged.  Prints,
per game and variant, how many inputs were tried, applied, refused and how
many escaped (with the first few escapes).

Usage::

    python3 benchmarks/fuzz_games.py --inputs 20000 --seed 0
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from _common import ROOT, table

sys.path.insert(0, str(ROOT))

from tqdm import tqdm  # noqa: E402

from tests.test_fuzz_games import CONFIGS, Escape, offer, playout_points  # noqa: E402

_SPECIAL = [-1, 0, 1, 2**31, 2**31 - 1, 2**63, 2**63 - 1, -(2**63), 2**64, 10**30, -(10**30)]
_OBJECTS: list[Any] = [None, True, False, 1.0, float("nan"), float("inf"), 3j, "7H", "pass", b"7H"]


def arbitrary(state: Any, rng: random.Random) -> Any:
    """One arbitrary value, a third of them ints next to a legal action."""
    kind = rng.randrange(9)
    if kind <= 2:
        legal = state.legal_actions()
        if len(legal):
            return legal[rng.randrange(len(legal))] + rng.randint(-3, 3)
        return rng.randint(-3, 3)
    if kind == 3:
        return rng.randint(-(2**20), 2**20)
    if kind == 4:
        return rng.choice(_SPECIAL) + rng.randint(-2, 2)
    if kind == 5:
        return rng.randint(-(2**200), 2**200)
    if kind == 6:
        return rng.choice(_OBJECTS)
    if kind == 7:
        return [rng.randint(0, 60) for _ in range(rng.randint(0, 3))]
    return (rng.randint(0, 60), str(rng.randint(0, 9)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--inputs", type=int, default=20000, help="inputs per game and variant")
    ap.add_argument("--playouts", type=int, default=6, help="seeded playouts per game")
    ap.add_argument("--points", type=int, default=25, help="states taken from each playout")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    rows = []
    shown = 0
    for config in sorted(CONFIGS):
        rng = random.Random(f"{args.seed}/{config}")
        t0 = time.perf_counter()
        states = [s for k in range(args.playouts) for s in playout_points(config, k, args.points)]
        counts = {"applied": 0, "refused": 0, "escaped": 0}
        for _ in tqdm(range(args.inputs), desc=config, unit="input", file=sys.stderr):
            state = states[rng.randrange(len(states))]
            action = arbitrary(state, rng)
            try:
                counts[offer(state, action)] += 1
            except Escape as exc:
                counts["escaped"] += 1
                if shown < 20:
                    shown += 1
                    print(f"ESCAPE {config}: {exc}", file=sys.stderr)
        rows.append(
            [
                config,
                args.inputs,
                counts["applied"],
                counts["refused"],
                counts["escaped"],
                time.perf_counter() - t0,
            ]
        )
    print(table(["game", "tried", "applied", "refused", "escaped", "seconds"], rows))
    return 1 if any(r[4] for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
