"""Joint constraints over linearly dependent forms: one axis per independent form.

A merge's joint table is over the forms of the constraints it joins and the
bounds of the split; some of those forms are combinations of others (``f``
and ``c - f``; the pile's count of some kinds and their sum).  They get no
axis of their own, so a table stays small enough to be kept where it was
dropped before.  Every answer must still equal brute-force enumeration of
every history (``tests/test_deal.py``'s reference), on BS-shaped histories
with copies and a small :attr:`DealKnowledge.max_table` that makes the
difference show.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.deal import DealKnowledge
from games.deal import knowledge as knowledge_module
from games.deal.forms import _Form, _Pred, _span
from games.deal.knowledge import _search_splits
from tests.test_deal import _assert_counts_as, _bs_scenario, _reference


def _check_exact_seats(seed: int, max_table: int = 6) -> int:
    """Compare every exact seat with the enumeration; the number of exact seats."""
    deck, start, events, agents, owns, state = _bs_scenario(seed, max_table)
    ref = _reference(deck, start, events, agents, owns)
    exact = 0
    for a in agents:
        kn = state.knowledge(a)
        if not kn.exact:
            continue
        exact += 1
        _assert_counts_as(kn, ref[a], list(start), (seed, a))
    return exact


def _no_dependencies(coefs: tuple[Any, ...]) -> tuple[Any, ...]:
    return (None,) * len(coefs)


def _seeds_where(name: str, hit: Any, scenario: Any, count: int, limit: int = 400) -> list[int]:
    """The first ``count`` seeds below ``limit`` whose ``scenario(seed)`` called
    ``games.deal.knowledge``'s function ``name`` with an output ``hit`` accepts."""
    found: list[int] = []
    real = getattr(knowledge_module, name)
    seen = [False]

    def spy(*args: Any) -> Any:
        out = real(*args)
        seen[0] |= bool(hit(out))
        return out

    setattr(knowledge_module, name, spy)
    try:
        for seed in range(limit):
            seen[0] = False
            scenario(seed)
            if seen[0]:
                found.append(seed)
                if len(found) == count:
                    break
    finally:
        setattr(knowledge_module, name, real)
    return found


def _seeds_with_dependent_forms(count: int) -> list[int]:
    """The first ``count`` seeds whose tables had a form without an axis."""
    return _seeds_where(
        "_span",
        lambda out: any(d for d in out if d is not None),
        lambda seed: _bs_scenario(seed, 6),
        count,
        1000,
    )


def test_span_finds_the_combinations():
    x, y, z = (0, 0, 1), (1, 0, 1), (2, 1, 1)
    neg = ((0, 0, -1), (1, 0, -1))
    assert _span(((x, y), neg, (z,))) == (None, {0: Fraction(-1)}, None)
    # half of a form: a rational coefficient
    assert _span((((0, 0, 2), (1, 0, 2)), (x, y))) == (None, {0: Fraction(1, 2)})
    # x, y, x + y, x - y: the last two are read off the first two
    got = _span(((x,), (y,), (x, y), (x, (1, 0, -1))))
    assert got[:2] == (None, None)
    assert got[2] == {0: 1, 1: 1} and got[3] == {0: 1, 1: -1}


def test_a_form_and_its_complement_share_one_axis():
    deck = Deck(["A", "B", "C", "D", "E", "F"])
    kn = DealKnowledge(deck, {"me": 2, "p": 2, "q": 2})
    kn.reveal("me", "A B")
    f = _Form.make({(2, 1): 1, (3, 1): 1})  # C and D in p
    g = _Form.make({(2, 1): -1, (3, 1): -1}, 2)  # the others of C, D: 2 - f
    assert kn._box_size([f]) == 3
    assert kn._box_size([f, g]) == 9  # the bots' setting: an axis per form
    kn.compact_tables = True
    assert kn._box_size([f, g]) == 3

    def both(vals: np.ndarray) -> np.ndarray:
        assert (vals[:, 0] + vals[:, 1] == 2).all()
        return vals[:, 0] == 1

    pred = kn._table_pred((f, g), both)
    assert pred is not None and pred.table.shape == (3,)
    assert pred.table.tolist() == [False, True, False]


_DEPENDENT = _seeds_with_dependent_forms(8)


def test_histories_reach_dependent_forms():
    assert len(_DEPENDENT) == 8


@pytest.mark.parametrize("seed", _DEPENDENT)
def test_dependent_forms_answer_as_the_enumeration(seed):
    assert _check_exact_seats(seed) > 0


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31))
def test_bs_histories_with_copies_answer_as_the_enumeration(seed):
    _check_exact_seats(seed)


def test_dependent_forms_keep_more_seats_exact(monkeypatch):
    # the same histories with every form an axis of its own: never more seats
    # exact, and on some histories fewer (the tables pass max_table)
    seeds = range(60)
    with_span = [sum(_bs_scenario(s, 6)[-1].knowledge(a).exact for a in "xyz") for s in seeds]
    monkeypatch.setattr(knowledge_module, "_span", _no_dependencies)
    without = [sum(_bs_scenario(s, 6)[-1].knowledge(a).exact for a in "xyz") for s in seeds]
    assert all(a >= b for a, b in zip(with_span, without, strict=True))
    assert sum(with_span) > sum(without)


def _splits_reference(base, E, joined, Lm, Um, least, most, size):
    """Every split in the box, row by row (the search without its pruning)."""
    S, D = Lm.shape
    ok = np.zeros(S, dtype=bool)
    ranges = [range(0, size + 1)] * D
    for xs in itertools.product(*ranges):
        x = np.asarray(xs, dtype=np.int64)
        good = np.all((Lm <= x) & (x <= Um), axis=1)
        good &= (least <= x.sum()) & (x.sum() <= most)
        vals = base + (E @ x)[None, :]
        for p, s0, s1 in joined:
            good &= p.accept(vals[:, s0:s1])
        ok |= good
    return ok


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31))
def test_split_search_equals_the_whole_box(seed):
    rng = np.random.default_rng(seed)
    S, D, F = int(rng.integers(1, 30)), int(rng.integers(0, 4)), int(rng.integers(1, 3))
    size = int(rng.integers(1, 5))
    Lm = rng.integers(-1, 3, (S, D))
    Um = Lm + rng.integers(-1, 4, (S, D))
    base = rng.integers(-2, 3, (S, F))
    E = rng.integers(-1, 2, (F, D))
    least = rng.integers(-1, 4, S)
    most = least + rng.integers(-1, 4, S)
    low = tuple(int(v) for v in rng.integers(-3, 0, F))
    table = rng.random(tuple([8] * F)) < 0.5
    pred = _Pred(tuple(_Form(()) for _ in range(F)), low, table)
    got = _search_splits(base, E, [(pred, 0, F)], Lm, Um, least, most, size)
    want = _splits_reference(base, E, [(pred, 0, F)], Lm, Um, least, most, size)
    assert got.tolist() == want.tolist()
