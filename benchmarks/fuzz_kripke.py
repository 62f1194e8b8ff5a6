"""Long fuzz runs of the kripke boundaries: the targets of ``tests/test_fuzz_kripke.py``.

Each target (parser texts, model JSON values, corrupted model bytes, deep
formulas) runs for the given number of generated inputs; an input *escapes*
when the target raises anything but the package's typed errors (or a
round-trip assertion fails).  Prints, per target, how many inputs were tried
and how many escaped, with the first escapes.  Each finished target is
appended to ``--out`` (JSON lines) at once, so Ctrl-C keeps finished results.

    python3 benchmarks/fuzz_kripke.py [--inputs 20000] [--deep-inputs 300]
        [--targets parser,model-json,model-bytes,deep-formulas] [--seed 0]
        [--out fuzz_kripke.jsonl]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import _common  # noqa: F401  (puts the project on sys.path)
from _common import table
from hypothesis import HealthCheck, Phase, given, seed, settings
from tqdm import tqdm

from tests.test_fuzz_kripke import TARGETS


def run_target(name: str, inputs: int, rng_seed: int) -> dict[str, Any]:
    """Feed ``inputs`` generated inputs to one target; count tries and escapes."""
    target, strategy = TARGETS[name]
    tried = 0
    escapes: list[str] = []
    bar = tqdm(total=inputs, desc=name, unit="input", leave=False)

    @seed(rng_seed)
    @settings(
        max_examples=inputs,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def fuzz(value: Any) -> None:
        nonlocal tried
        tried += 1
        bar.update()
        try:
            target(value)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # an escape is recorded, never raised: the run goes on
            escapes.append(f"{type(exc).__name__}: {str(exc)[:120]} <- {repr(value)[:120]}")

    t0 = time.perf_counter()
    try:
        fuzz()
    finally:
        bar.close()
    return {
        "target": name,
        "tried": tried,
        "escaped": len(escapes),
        "seconds": round(time.perf_counter() - t0, 1),
        "seed": rng_seed,
        "first_escapes": escapes[:5],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--inputs", type=int, default=20_000, help="inputs per target")
    ap.add_argument("--deep-inputs", type=int, default=300, help="inputs for deep-formulas")
    ap.add_argument("--targets", default=",".join(TARGETS), help="comma-separated targets")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=None, help="append each finished target as a JSON line")
    args = ap.parse_args()
    names = [t.strip() for t in args.targets.split(",") if t.strip()]
    unknown = [t for t in names if t not in TARGETS]
    if unknown:
        ap.error(f"unknown target {unknown[0]!r}; choose from {', '.join(TARGETS)}")
    if args.inputs < 1 or args.deep_inputs < 1:
        ap.error("--inputs and --deep-inputs must be positive")
    rows = []
    try:
        for i, name in enumerate(names):
            n = args.deep_inputs if name == "deep-formulas" else args.inputs
            result = run_target(name, n, args.seed + i)
            rows.append(result)
            if args.out:
                with open(args.out, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps(result) + "\n")
            print(f"{name}: {result['tried']} tried, {result['escaped']} escaped", flush=True)
    except KeyboardInterrupt:
        print("interrupted: the finished targets follow", file=sys.stderr)
    print(table(["target", "tried", "escaped", "seconds"],
                [[r["target"], r["tried"], r["escaped"], r["seconds"]] for r in rows]))  # fmt: skip
    for r in rows:
        for e in r["first_escapes"]:
            print(f"  {r['target']}: {e}")


if __name__ == "__main__":
    main()
