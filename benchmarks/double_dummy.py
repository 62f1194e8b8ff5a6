"""Double-dummy solving speed: full 8-card, 4-hand BoerenBridge positions (32 cards).

For random deals (trump in each suit and no trump, a random leader) the table gives,
per question, the time of one exact solve from a fresh solver (empty transposition
table): the most tricks one seat can force against the other three (the classic
double-dummy number), the fewest it can hold itself to, and whether it can force an
exact number of tricks.  A baseline in the same process -- the same AND-OR search
with plain exact-position memo, no rank equivalence, no relevant-rank table, no
bounds -- solves 5-card positions for the speed-up ratio.

    python benchmarks/double_dummy.py [--positions 100] [--seed 1]
    python benchmarks/double_dummy.py --ablation [--positions 60] [--seed 7]

``--ablation`` measures what each technique of the solver buys: it loads
copies of ``games/boerenbridge/double_dummy.py`` with one technique switched
off (no move ordering; every card its own move instead of one move per run of
equivalent cards; a transposition table keyed on the exact position instead
of the relevant ranks, i.e. no partition search; no transposition table at
all, on a quarter of the positions) and times the most tricks of one seat on
the same random 8-card positions, checking that every variant gives the same
answers.

Times are CPU seconds of this process (``time.process_time``): on a machine shared
with other work the wall clock is longer, and even CPU time suffers from a loaded
machine, so figures measured while others run are pessimistic.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

from _common import table

from games.boerenbridge.double_dummy import DoubleDummySolver, Position, mask_of


def random_position(rng: random.Random, n: int, trump: int | None) -> Position:
    cards = list(range(32))
    rng.shuffle(cards)
    hands = [mask_of(cards[i * n : (i + 1) * n]) for i in range(4)]
    return Position(hands, trump, rng.randrange(4))


def cpu(fn, *args) -> float:
    """CPU seconds of ``fn(*args)``."""
    t = time.process_time()
    fn(*args)
    return time.process_time() - t


def solve_max(pos: Position, side: int) -> int:
    return DoubleDummySolver(pos.trump, 4, side).max_tricks(pos)


def solve_min(pos: Position, side: int) -> int:
    return DoubleDummySolver(pos.trump, 4, side).min_tricks(pos)


def solve_all(pos: Position) -> list[int]:
    return [solve_max(pos, s) for s in range(4)]


def solve_exact(pos: Position, side: int, goal: int) -> bool:
    return DoubleDummySolver(pos.trump, 4, side).can_force(pos, goal, goal)


def plain_max_tricks(pos: Position, side: int) -> int:
    """Minimax over every legal card with an exact-position memo (the baseline)."""

    @functools.lru_cache(None)
    def rec(hands: tuple[int, ...], leader: int, trick: tuple[int, ...]) -> int:
        p = Position(hands, pos.trump, leader, trick)
        if p.remaining_tricks == 0:
            return 0
        vals = []
        for c in p.legal_cards():
            q, w = p.play(c)
            vals.append(rec(q.hands, q.leader, q.trick) + (w == side))
        return max(vals) if p.to_play == side else min(vals)

    return rec(pos.hands, pos.leader, pos.trick)


def stats(times: list[float]) -> list[object]:
    ms = sorted(1000 * t for t in times)
    picks = (statistics.mean(ms), statistics.median(ms), ms[int(0.9 * (len(ms) - 1))], ms[-1])
    return [len(ms), *(f"{x:.1f}" for x in picks)]


#: Each ablation: (name, [(text in the solver's source, its replacement)]).
ABLATIONS: list[tuple[str, list[tuple[str, str]]]] = [
    ("no move ordering", [("            if len(reps) > 1 and not (", "            if False and not ("),
                          ("            if len(cards) > 1:\n                if pos == 0:",
                           "            if False:\n                if pos == 0:")]),
    ("no trump-trick bounds", [("        if has_trump and (allc >> tshift) & 0xFF:\n",
                                "        if False:\n")]),
    ("no decided-trick cut", [("            if settled:\n", "            if False:\n")]),
    ("no opponents' lead order", [("                    if win_mode and not chooser:\n",
                                   "                    if False:\n")]),
    ("targets from the top, no guess", [("        g = max(0, min(rem - 1, self._top_cards(pos) - 1))\n",
                                         "        g = rem - 1\n")]),
    ("no equivalent-card moves", [("                    if prev_in:\n                        highs[-1] = b",
                                   "                    if False:\n                        highs[-1] = b")]),
    ("no partition search", [("        pattern = full & relm\n",
                              "        relm = (1 << (32 * n)) - 1\n        jl = [8, 8, 8, 8]\n"
                              "        pattern = full & relm\n")]),
    ("no transposition table", [("        bucket = tt.get(lens)\n", "        bucket = None\n"),
                                ("        pattern = full & relm\n",
                                 "        return result, rel | extra\n        pattern = full & relm\n")]),
]  # fmt: skip


def load_variant(name: str, edits: list[tuple[str, str]], folder: Path) -> ModuleType:
    """A copy of the solver module with ``edits`` applied (each must match once)."""
    import games.boerenbridge.double_dummy as original

    src = Path(original.__file__).read_text()
    for old, new in edits:
        if src.count(old) != 1:
            raise SystemExit(f"ablation {name!r}: the solver's source changed; update ABLATIONS")
        src = src.replace(old, new)
    path = folder / (name.replace(" ", "_").replace("-", "_") + ".py")
    path.write_text(src)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = mod
    spec.loader.exec_module(mod)
    return mod


def ablation(positions: int, seed: int) -> None:
    import games.boerenbridge.double_dummy as solver

    with tempfile.TemporaryDirectory() as tmp:
        variants = [("all techniques", solver)] + [
            (name, load_variant(name, edits, Path(tmp))) for name, edits in ABLATIONS
        ]
        rng = random.Random(seed)
        times: dict[str, dict[int, float]] = {name: {} for name, _ in variants}
        for i in range(positions):
            pos = random_position(rng, 8, (0, 1, 2, 3, None)[i % 5])
            side = rng.randrange(4)
            answers = set()
            for name, mod in variants:
                if name == "no transposition table" and i % 4:
                    continue  # hundreds of times slower: a quarter of the positions
                p = mod.Position(pos.hands, pos.trump, pos.leader)
                t = time.process_time()
                answers.add(mod.DoubleDummySolver(p.trump, 4, side).max_tricks(p))
                times[name][i] = time.process_time() - t
            assert len(answers) == 1, f"variants disagree on position {i}: {answers}"
    base = times["all techniques"]
    rows = []
    for name, ts in times.items():
        # the ratio on the positions the variant solved
        ratio = sum(ts.values()) / sum(base[i] for i in ts)
        rows.append([name, *stats(list(ts.values())), f"{ratio:.1f}x"])
    print(f"8-card positions, most tricks of one seat, CPU ms per solve (seed {seed})")
    print(
        table(
            ["solver", "positions", "mean", "median", "p90", "max", "time vs all (same positions)"],
            rows,
        )
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ablation", action="store_true")
    args = ap.parse_args()
    if args.ablation:
        ablation(args.positions, args.seed)
        return
    rng = random.Random(args.seed)
    rows = []
    for label, trumps in (("trump", (0, 1, 2, 3)), ("no trump", (None,))):
        t_max, t_min, t_hit, t_all = [], [], [], []
        for i in range(args.positions):
            trump = trumps[i % len(trumps)]
            pos = random_position(rng, 8, trump)
            side = rng.randrange(4)
            t_max.append(cpu(solve_max, pos, side))
            t_all.append(cpu(solve_all, pos))
            t_hit.append(cpu(solve_exact, pos, side, rng.randrange(3)))
            if i % 4 == 0:  # the fewest tricks: deep proofs, so fewer positions
                t_min.append(cpu(solve_min, pos, side))
        rows.append([f"{label}: most tricks of one seat", *stats(t_max)])
        rows.append([f"{label}: most tricks of all four seats", *stats(t_all)])
        rows.append([f"{label}: can force exactly 0, 1 or 2", *stats(t_hit)])
        rows.append([f"{label}: fewest tricks of one seat", *stats(t_min)])
    print("full 8-card, 4-hand positions (32 cards), CPU ms per solve")
    print(table(["question", "positions", "mean", "median", "p90", "max"], rows))

    # baseline ratio on 5-card positions
    rng = random.Random(args.seed + 1)
    base, ours = [], []
    for i in range(max(6, args.positions // 10)):
        pos = random_position(rng, 5, (None, 0, 1, 2, 3)[i % 5])
        side = i % 4
        b = cpu(plain_max_tricks, pos, side)
        o = cpu(solve_max, pos, side)
        assert plain_max_tricks(pos, side) == solve_max(pos, side)
        base.append(b)
        ours.append(o)
    print()
    print("5-card positions, most tricks of one seat: solver vs plain memoised minimax")
    print(
        table(
            ["search", "positions", "mean ms", "ratio"],
            [
                ["plain minimax", len(base), f"{1000 * statistics.mean(base):.1f}", "1"],
                [
                    "double_dummy",
                    len(ours),
                    f"{1000 * statistics.mean(ours):.2f}",
                    f"{statistics.mean(base) / statistics.mean(ours):.0f}",
                ],
            ],
        )
    )


if __name__ == "__main__":
    main()
