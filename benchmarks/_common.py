"""Shared helpers for the benchmark scripts: timing, peak memory, tables."""

from __future__ import annotations

import sys
import time
import tracemalloc
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def timed(fn: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    """Best wall-clock seconds over ``repeat`` runs, and the last result."""
    best = float("inf")
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def peak_memory(fn: Callable[[], Any]) -> int:
    """Peak bytes allocated (Python and numpy) while ``fn`` runs."""
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A plain-text table, right-aligned numbers."""
    cells = [[_fmt(c) for c in row] for row in rows]
    widths = [
        max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)
    ]
    line = "  ".join(h.rjust(w) for h, w in zip(headers, widths, strict=True))
    out = [line, "  ".join("-" * w for w in widths)]
    for r in cells:
        out.append("  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)))
    return "\n".join(out)


def _fmt(c: Any) -> str:
    if isinstance(c, float):
        return f"{c:.4f}" if c < 10 else f"{c:.2f}"
    return str(c)


def pair_wins(
    records: Iterable[Mapping[str, Any]], bots: Sequence[str]
) -> list[tuple[str, str, int, int, int]]:
    """For each pair of bots: the games they sat in together and the wins of each.

    ``records`` are tournament records (``seats`` and ``winners`` lists of bot names).
    """
    recs = list(records)
    rows = []
    for a, b in combinations(bots, 2):
        together = [r for r in recs if a in r["seats"] and b in r["seats"]]
        wa = sum(a in r["winners"] for r in together)
        wb = sum(b in r["winners"] for r in together)
        rows.append((a, b, len(together), wa, wb))
    return rows
