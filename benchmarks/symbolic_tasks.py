"""The benchmark tasks of the symbolic engine, shared by the ``symbolic_*`` scripts.

Each task is the one SMCDEL (the Haskell reference) times in its own
benchmarks, built and solved from scratch in a fresh BDD manager, so the peak
node count belongs to that task alone.  ``REFERENCE`` holds SMCDEL's times
measured on this kind of machine.

    python3 benchmarks/symbolic_reference.py      # the comparison table
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import _common  # noqa: F401  (puts the project on sys.path)

from kripke import puzzles as P
from kripke.formulas import Formula, Know, Not, atom, conj, disj
from kripke.semantics import holds, is_valid
from kripke.symbolic import fresh_manager, get_backend
from kripke.updates import announce_all

__all__ = [
    "REFERENCE",
    "measure",
    "muddy",
    "dining_bench_formula",
    "dining_bench",
    "dining_full",
    "drinking",
    "sum_product",
    "russian_cards",
    "load_note",
]

#: SMCDEL's seconds for each task on this machine (task, n) -> seconds
REFERENCE: dict[tuple[str, int], float] = {
    ("muddy", 40): 0.23,
    ("muddy", 80): 2.3,
    ("muddy", 160): 27.0,
    ("dining", 200): 3.3,
    ("drinking", 800): 4.9,
    ("sum-product", 100): 0.5,
    ("russian-cards", 7): 0.4,
}


def measure(
    fn: Callable[[], Any], repeat: int = 1, symbolic: bool = True
) -> tuple[float, int, Any]:
    """Best seconds over ``repeat`` runs (each in a fresh BDD manager), peak BDD nodes, result."""
    best, peak, result = float("inf"), 0, None
    for _ in range(repeat):
        if symbolic:
            with fresh_manager() as mgr:
                t0 = time.perf_counter()
                result = fn()
                best = min(best, time.perf_counter() - t0)
                peak = max(peak, mgr.peak_nodes())
        else:
            t0 = time.perf_counter()
            result = fn()
            best = min(best, time.perf_counter() - t0)
    return best, peak, result


# ------------------------------------------------------------------ tasks
def muddy(n: int, engine: str = "symbolic") -> int:
    """All n children muddy, full protocol (father, then "nobody knows" until all
    know): SMCDEL's ``findNumberCUDD n n`` task.  Returns the number of rounds."""
    rounds = list(P.muddy_children_protocol(P.muddy_children(n, engine=engine)))
    assert len(rounds) == n and len(rounds[-1].knowers) == n, "wrong muddy children result"
    return len(rounds)


def dining_bench_formula(n: int) -> Formula:
    """SMCDEL's ``benchDcCheckForm n``: after it is announced whether the parity
    of all diners' announcements is odd, diner 1 (if it did not pay) knows that
    nobody paid, or knows that another diner paid without knowing which."""
    paid = [atom("paid", i) for i in range(n + 1)]
    mine: dict[int, list[Formula]] = {i: [paid[i]] for i in range(1, n + 1)}
    for k in range(1, n + 1):
        for m in range(k + 1, n + 1):
            c = atom("coin", k, m)
            mine[k].append(c)
            mine[m].append(c)
    said = P.xor([P.xor(mine[i]) for i in range(1, n + 1)])
    body = Not(paid[1]) >> disj(
        [
            Know("1", conj(Not(paid[k]) for k in range(1, n + 1))),
            Know("1", disj(paid[k] for k in range(2, n + 1)))
            & conj(Not(Know("1", paid[k])) for k in range(2, n + 1)),
        ]
    )
    return P.announce_whether(said, body)


def dining_bench(n: int, engine: str = "symbolic") -> bool:
    """SMCDEL's ``benchDcValid n``: validity of the check formula on the general
    dining cryptographers (a shared coin for every pair of diners)."""
    pm = P.dining_cryptographers(n, 1, engine=engine)
    model = pm.structure if engine == "symbolic" else pm.model
    ok = is_valid(model, dining_bench_formula(n))
    assert ok, "wrong dining cryptographers result"
    return ok


def dining_full(n: int, engine: str = "symbolic") -> bool:
    """SMCDEL's ``genDcValid n 1``: after each diner in turn announces whether
    its parity is odd, everyone knows whether the NSA paid and a paying diner
    stays anonymous (``kripke.puzzles.dining_cryptographers_formula``)."""
    pm = P.dining_cryptographers(n, 1, engine=engine)
    model = pm.structure if engine == "symbolic" else pm.model
    ok = is_valid(model, P.dining_cryptographers_formula(n))
    assert ok, "wrong dining cryptographers result"
    return ok


def drinking(n: int, engine: str = "symbolic") -> bool:
    """SMCDEL's ``thirstyCheck n``: n-1 logicians say "I don't know", then the
    last one knows everybody wants beer."""
    ok = holds(P.drinking_logicians(n, engine=engine), P.drinking_logicians_formula(n))
    assert ok, "wrong drinking logicians result"
    return ok


def sum_product(engine: str = "symbolic") -> Any:
    """Sum and Product with x + y <= 100: the three statements leave (4, 13)."""
    m = announce_all(P.sum_and_product(engine=engine), P.sum_and_product_announcements())
    left = list(m.states()) if engine == "symbolic" else m.worlds
    assert len(left) == 1, "wrong Sum and Product result"
    return left[0]


def russian_cards(engine: str = "symbolic") -> int:
    """Russian cards: search the 1290 hand lists for Alice's safe announcements."""
    safe = P.russian_cards_safe_announcements(engine=engine)
    assert len(safe) == 102, "wrong Russian cards result"
    return len(safe)


def load_note() -> str:
    """The machine load, which makes timings pessimistic when other work runs."""
    try:
        one, five, _ = os.getloadavg()
    except OSError:  # pragma: no cover - platforms without load averages
        return f"backend {get_backend()}"
    return (
        f"backend {get_backend()}, {os.cpu_count()} cores, load average {one:.2f} (1 min), "
        f"{five:.2f} (5 min)"
    )
