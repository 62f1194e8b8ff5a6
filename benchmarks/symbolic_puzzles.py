"""The small classic puzzles on both engines: Cheryl's birthday, the three wise
men, Sum and Product (x + y <= 100) and the Russian cards search (102 safe
announcements among 1290 hand lists).

    python3 benchmarks/symbolic_puzzles.py
"""

from __future__ import annotations

import _common  # noqa: F401  (puts the project on sys.path)
from _common import table
from symbolic_tasks import REFERENCE, load_note, measure, russian_cards, sum_product

from kripke import puzzles as P
from kripke.semantics import holds
from kripke.updates import announce_all


def cheryl(engine: str = "symbolic") -> None:
    pm = announce_all(P.cheryls_birthday(engine=engine), P.cheryl_announcements())
    assert (pm.model.num_worlds if engine == "explicit" else pm.num_states()) == 1


def wise_men(engine: str = "symbolic") -> None:
    pm = P.three_wise_men("RRR", engine=engine)
    pm = announce_all(pm, ["r1 | r2 | r3", "~Kw_1 r1", "~Kw_2 r2"])
    assert holds(pm, "K_3 r3")


def main() -> None:
    rows = []
    for name, fn, ref in [
        ("Cheryl's birthday", cheryl, None),
        ("three wise men", wise_men, None),
        ("Sum and Product", sum_product, REFERENCE[("sum-product", 100)]),
        ("Russian cards search", russian_cards, REFERENCE[("russian-cards", 7)]),
    ]:
        secs, peak, _ = measure(fn, repeat=3)
        esecs, _, _ = measure(lambda fn=fn: fn("explicit"), repeat=3, symbolic=False)
        rows.append((name, secs, peak, esecs, f"{esecs / secs:.2f}x", "" if ref is None else ref))
    print("Classic puzzles (symbolic engine, with the explicit engine as baseline)")
    print(load_note())
    print(
        table(
            ["puzzle", "seconds", "peak BDD nodes", "explicit s", "explicit/symbolic", "SMCDEL s"],
            rows,
        )
    )


if __name__ == "__main__":
    main()
