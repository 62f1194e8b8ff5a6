"""The covering of ``K_a ~K_b has(c, X)`` (:func:`games.epistemic.cover.covered_ignorance`)
with HiGHS alone against HiGHS then CP-SAT (:data:`games.epistemic.cover.HIGHS_ROUND`),
both in one process, on late states of long games.

For each state (game, seed, play: the query ``benchmarks/whole_game_knowledge.py``
asks there) the covering runs to its end (up to ``--seconds`` and ``--rounds``) once
with HiGHS in every round and once switching to CP-SAT after a round HiGHS does not
answer within ``HIGHS_ROUND``; reported: the answer, rounds and seconds of each, and the
ratio of the seconds.  Every state is appended to ``--out`` (JSON lines) as it ends;
states already there are skipped, so an interrupted run goes on where it stopped.

Run: ``python benchmarks/cover_solvers.py`` (the default states: late koth and BS-ZPY
states of ``whole_game_knowledge.py``'s games, most of them over its 2 s budget before
CP-SAT).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import table  # noqa: E402
from benchmarks.whole_game_knowledge import pick_query, plays  # noqa: E402

#: (game, seed, play): late states where the covering decides ``K_a ~K_b has(c, X)``.
STATES = [
    ("bs-koth", 0, 100),
    ("bs-koth", 0, 165),
    ("bs-koth", 6, 50),
    ("bs-koth", 15, 45),
    ("bs-koth", 0, 59),
    ("bs-zpy", 0, 125),
    ("bs-zpy", 4, 80),
]


def run(game: str, seed: int, play: int, seconds: float, rounds: int) -> dict[str, Any]:
    """Both ways on one state: answers, rounds and seconds."""
    import games.epistemic.cover as cover
    from games.epistemic import GameKnowledge

    h = next(h for i, h in plays(game, seed) if i == play)
    q = pick_query(h, play)
    gk = GameKnowledge(h)
    atom = gk.formula(q["formulas"][0]).arg.arg.arg  # K_a ~K_b atom
    counted = gk.counted
    n = [0]
    real_cut = cover._cut

    def cut(*args: Any, **kw: Any) -> Any:
        n[0] += 1
        return real_cut(*args, **kw)

    out: dict[str, Any] = {"game": game, "seed": seed, "play": play, "formula": q["formulas"][0]}
    kept = cover.HIGHS_ROUND
    cover._cut = cut  # type: ignore[assignment]
    try:
        for name, switch in (("highs", float("inf")), ("cp_sat", kept)):
            cover.HIGHS_ROUND = switch
            n[0] = 0
            t0 = time.perf_counter()
            got = cover.covered_ignorance(
                counted, q["a"], q["b"], atom, time_limit=seconds, rounds=rounds
            )[0]
            out[name] = {"answer": got, "rounds": n[0], "s": time.perf_counter() - t0}
    finally:
        cover.HIGHS_ROUND = kept
        cover._cut = real_cut  # type: ignore[assignment]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="most seconds a covering")
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--out", default="cover_solvers.jsonl")
    args = ap.parse_args(argv)
    from tqdm import tqdm

    from games.epistemic.program import _cp_sat

    _cp_sat()  # imported before the clocks start
    path = Path(args.out)
    done = {}
    if path.exists():
        for line in path.read_text().splitlines():
            r = json.loads(line)
            done[r["game"], r["seed"], r["play"]] = r
    for key in tqdm(STATES, desc="states", unit="state"):
        if key not in done:
            done[key] = run(key[0], key[1], key[2], args.seconds, args.rounds)
            with path.open("a") as f:
                f.write(json.dumps(done[key]) + "\n")
    rows = []
    for key in STATES:
        r = done[key]
        hi, cp = r["highs"], r["cp_sat"]
        rows.append(
            (
                *key,
                r["formula"],
                f"{hi['answer']} / {hi['rounds']}",
                hi["s"],
                f"{cp['answer']} / {cp['rounds']}",
                cp["s"],
                hi["s"] / cp["s"],
            )
        )
    heads = ("game", "seed", "play", "formula", "HiGHS: answer / rounds", "s")
    print(table((*heads, "CP-SAT after HIGHS_ROUND: answer / rounds", "s", "ratio"), rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
