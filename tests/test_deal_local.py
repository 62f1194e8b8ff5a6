"""Constraints of one card kind alone enter a merge through that kind's bounds.

When a location joins another, each kind's copies that came from the first
are unknown; a constraint on the cells of one kind alone (``W0 + hidden <=
1``: the card put down unseen was not a second copy) restricts only that
kind's split.  Such a kind's splits form, for each value of its cells, an
interval whose ends are affine in its cells: it enters Hall's condition on
the total like a kind with linear bounds, and its own constraints become one
table of its cells, instead of one axis per kind in a joint table (which
passed ``max_table`` in BS-ZPY's won piles, cards forfeited unseen from one
to another).  Where a bound is the largest (smallest) of several affine
forms (also one constraint's end, bent where a cell or form passes a
threshold: ``n - 1 + [s == 0]``), Hall's condition holds for each choice of
one; a constraint that
also reads other kinds' cells away from the merge (``the card was not 3D,
or P1 still holds a spade``) enters with those parts read like cells.
Every answer must equal brute-force enumeration of every history
(``tests/test_deal.py``'s reference).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.deal import DealKnowledge
from games.deal import knowledge as knowledge_module
from games.deal.forms import _Form, _interval_pred, _Pred
from games.deal.knowledge import _local_bounds, _pieces
from tests.test_deal import _assert_counts_as, _dealt, _reference
from tests.test_deal_exactness import _seeds_where
from tests.test_deal_incremental import _OneAtATime


def _won_piles_scenario(seed: int, max_table: int | None = None) -> tuple[Any, ...]:
    """BS-ZPY-shaped histories: face-down plays into a trick (some revealed or
    claimed true), tricks won into piles, and cards forfeited unseen from one
    won pile to another."""
    rng = random.Random(seed)
    public = ["down", "trick", "W0", "W1"]
    deck, names, start, state = _dealt(rng, (3, 5), [1, 2, 2], 8, public, max_table)
    nk = len(names)
    agents = ["x", "y", "z"]
    owns = {a: [a] for a in agents}
    events: list[tuple[Any, ...]] = []
    turn = 0
    for _ in range(rng.randint(5, 12)):
        deal = {x: [deck.index(c) for c in cs] for x, cs in state.deal.items()}
        r = rng.random()
        won = [w for w in ("W0", "W1") if deal[w]]
        if r < 0.3 and won:
            # a card forfeited unseen from one won pile to the other
            src = rng.choice(won)
            dst = "W1" if src == "W0" else "W0"
            ch = rng.sample(deal[src], 1)
            state.move([names[k] for k in ch], src, dst, seen_by=[])
            events.append(("move", tuple(ch), src, dst, frozenset()))
            continue
        if r < 0.45 and deal["trick"]:
            dst = rng.choice(["W0", "W1"])
            state.move_all("trick", dst, seen_by=[])
            events.append(("all", "trick", dst, frozenset()))
            continue
        p = agents[turn % 3]
        turn += 1
        if not deal[p]:
            continue
        ch = rng.sample(deal[p], 1)
        state.move([names[k] for k in ch], p, "down", seen_by=[p])
        events.append(("move", tuple(ch), p, "down", frozenset([p])))
        s = rng.random()
        if rng.random() < 0.4:
            # a follow rule: the card was not of kind c, or the seat still holds
            # one of some other kinds (a disjunction of counts, when true)
            c = rng.randrange(nk)
            others = tuple(sorted(rng.sample(range(nk), rng.randint(1, 2))))
            held = sum(1 for k in deal[p] if k in others) - (ch[0] in others)
            if ch[0] != c or held >= 1:
                conds = ((("down",), (c,), 0, 0), ((p,), others, 1, 9))
                state.any_of([(ls, [names[k] for k in ks], lo, hi) for ls, ks, lo, hi in conds])
                events.append(("any_of", conds))
        if s < 0.35:
            state.reveal("down", to=agents)
            events.append(("reveal", "down", frozenset(agents)))
        elif s < 0.6:  # a claim found true: the card is of the kind claimed
            state.at_least(["down"], [names[ch[0]]], 1)
            events.append(("at_least", ("down",), (ch[0],), 1))
        state.move_all("down", "trick", seen_by=[])
        events.append(("all", "down", "trick", frozenset()))
    return deck, start, events, agents, owns, state


def _check_won_piles(seed: int, max_table: int | None = None) -> int:
    """Every exact seat's count and marginals equal the enumeration's; the exact seats."""
    deck, start, events, agents, owns, state = _won_piles_scenario(seed, max_table)
    ref = _reference(deck, start, events, agents, owns)
    exact = 0
    for a in agents:
        kn = state.knowledge(a)
        if kn.exact:
            exact += 1
            _assert_counts_as(kn, ref[a], list(start), (seed, a))
    return exact


def _seeds_through_local_kinds(count: int) -> list[int]:
    """The first ``count`` seeds whose merges took some kind through its own bounds."""
    return _seeds_where(
        "_local_bounds", lambda out: out is not None, _won_piles_scenario, count, 300
    )


_LOCAL = _seeds_through_local_kinds(8)


def test_histories_reach_local_kinds():
    assert len(_LOCAL) == 8


@pytest.mark.parametrize("seed", _LOCAL)
def test_local_kinds_answer_as_the_enumeration(seed):
    assert _check_won_piles(seed) > 0


_SEVERAL = _seeds_where(
    "_local_bounds",
    lambda out: out is not None and max(len(out[0]), len(out[1])) > 1,
    _won_piles_scenario,
    4,
    300,
)


@pytest.mark.parametrize("seed", _SEVERAL)
def test_bounds_of_several_forms_answer_as_the_enumeration(seed):
    # a kind whose lower (upper) bound is the largest (smallest) of several forms
    assert len(_SEVERAL) == 4
    assert _check_won_piles(seed) > 0


_BENT = _seeds_where(
    "_pieces", lambda out: out is not None and len(out) > 1, _won_piles_scenario, 3, 300
)


@pytest.mark.parametrize("seed", _BENT)
def test_bent_ends_answer_as_the_enumeration(seed):
    # a constraint's end that is no affine form but the largest of several
    assert len(_BENT) == 3
    assert _check_won_piles(seed) > 0


@pytest.mark.parametrize("seed", _LOCAL[:6])
def test_local_kinds_answer_as_the_enumeration_with_small_tables(seed):
    _check_won_piles(seed, max_table=6)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31))
def test_won_pile_histories_answer_as_the_enumeration(seed):
    _check_won_piles(seed)


def test_local_kinds_keep_seats_exact_where_the_joint_table_is_dropped(monkeypatch):
    # without the route, the same histories at a small max_table drop constraints
    with_local = sum(_check_won_piles(s, max_table=4) for s in _LOCAL[:6])
    monkeypatch.setattr(knowledge_module, "_local_bounds", lambda *args: None)
    without = sum(_check_won_piles(s, max_table=4) for s in _LOCAL[:6])
    assert with_local > without


def test_dropping_at_once_equals_retrying_on_won_piles(monkeypatch):
    # a merge that must drop constraints names several at once only while no kind
    # would take its own bounds on a retry: the same knowledge as retrying each time
    several = 0
    real = knowledge_module._TooLargeMany

    class Counted(real):  # type: ignore[misc, valid-type]
        def __init__(self, preds: list[_Pred]):
            nonlocal several
            several += len(preds) > 1
            super().__init__(preds)

    for seed in [*_LOCAL, *_BENT]:
        got = []
        for cls in (Counted, _OneAtATime):
            monkeypatch.setattr(knowledge_module, "_TooLargeMany", cls)
            state = _won_piles_scenario(seed, max_table=4)[-1]
            got.append(
                [(state.knowledge(a).signature(), state.knowledge(a).relaxations) for a in "xyz"]
            )
        assert got[0] == got[1], seed
    assert several > 0


def test_local_bounds_of_a_card_not_a_second_copy():
    # kind 0: at most one copy in locations 0 and 2 together; 2 (one card) joins 1,
    # which held no copy: the copies that came are 1's count now, and 0 and 1 do
    # not both hold one
    p = _interval_pred(_Form(((0, 0, 1), (0, 2, 1))), 0, 1)
    low, up, lmax, umin, table = _local_bounds(
        0, [p], 2, 1, 1, (0, 1, 0, 0), [0, 0, 0], [1, 0, 1], 2
    )
    assert low == up == [_Form(((0, 1, 1),))]
    assert table is not None and table.table.tolist() == [[True, True], [True, False]]


def test_local_bounds_refuse_splits_with_a_gap():
    # the pair's total is 0 or 2 (not 1): the split of 2 copies is 0 or 2, not an interval
    p = _interval_pred(_Form(((0, 0, 1), (0, 2, 1))), 0, 2)
    odd = _Pred(p.forms, (0,), np.array([True, False, True]))
    assert _local_bounds(0, [odd], 2, 1, 2, (0, 2, 0, 2), [0, 0, 0], [2, 2, 2], 2) is None


def test_a_forfeited_card_keeps_the_seat_exact():
    # W0 holds A B C (known); one card of it goes to W1 (D, known) unseen: the
    # seat knows W0 keeps two of A B C and W1 one of them with D
    deck = Deck(["A", "B", "C", "D", "E"], [2, 2, 2, 1, 1])
    kn = DealKnowledge(deck, {"me": 2, "p": 2, "W0": 3, "W1": 1})
    kn.reveal("me", "A E")
    kn.reveal("W0", "A B C")
    kn.reveal("W1", "D")
    kn.move_hidden("W0", "W1", 1)
    assert kn.exact
    assert kn.count() == 3  # which of A, B, C moved
    assert kn.probability("A", "W1", exact=True) == Fraction(1, 3)


@pytest.mark.slow
def test_bs_zpy_forfeits_keep_three_seats_exact():
    # BS-ZPY seed 1 (the whole-game benchmark's game): two cards forfeited unseen
    # from W0 to W1 (events 125, 126) dropped 8-28 constraints of every seat; at
    # play 80 P0, P1 and P2 now count exactly
    import benchmarks.deal_exactness as dx

    r = dx.replay("bs-zpy", 1)
    first = r["first_inexact"]
    assert all(first.get(a, [10**6])[0] > 80 for a in ("P0", "P1", "P2")), first
    # P3 and P4 too: the merge of play 47 writes Hall's condition as 18 + 18
    # constraints (one per choice of lower, then of upper forms), not their product
    assert all(first.get(a, [10**6])[0] > 80 for a in ("P3", "P4")), first


def test_pieces_of_an_end_bent_by_a_threshold():
    n, s = np.meshgrid(np.arange(3), np.arange(4), indexing="ij")
    design = np.stack([np.ones(12, dtype=np.int64), n.ravel(), s.ravel()], axis=1)
    y = n.ravel() - 1 + (s.ravel() == 0)  # n - 1, one more where s is 0
    got = _pieces(design, y)
    assert got is not None and len(got) == 2
    assert (np.max([design @ ic for ic in got], axis=0) == y).all()
    # an end that no threshold bends into affine pieces is refused
    assert _pieces(design, (n.ravel() * s.ravel()) % 2) is None


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(1, 4), min_size=1, max_size=3),
    st.lists(st.lists(st.integers(-3, 3), min_size=4, max_size=4), min_size=1, max_size=3),
    st.integers(0, 2**31),
)
def test_pieces_are_exactly_the_end(widths, funcs, seed):
    # an end made the largest of random affine forms, some points left out (the
    # infeasible cell values): the pieces found lie below it and reach it everywhere
    grid = np.indices(widths).reshape(len(widths), -1).T
    rng = np.random.default_rng(seed)
    keep = rng.random(len(grid)) < 0.8
    if not keep.any():
        keep[0] = True
    pts = grid[keep]
    design = np.concatenate([np.ones((len(pts), 1), dtype=np.int64), pts], axis=1)
    coef = np.asarray([f[: design.shape[1]] for f in funcs], dtype=np.int64)
    y = (design @ coef.T).max(axis=1)
    got = _pieces(design, y)
    if len(funcs) == 1 and np.linalg.matrix_rank(design) == design.shape[1]:
        assert got is not None and len(got) == 1  # an affine end is found
    if got is not None:
        assert all(ic.dtype.kind == "i" for ic in got)
        assert (np.max([design @ ic for ic in got], axis=0) == y).all()
    # the same with noise on one point: whatever is found must still be exact
    y2 = y.copy()
    y2[rng.integers(len(y2))] += 1
    got2 = _pieces(design, y2)
    if got2 is not None:
        assert (np.max([design @ ic for ic in got2], axis=0) == y2).all()


def test_local_bounds_where_the_cell_values_lie_on_a_line():
    # kind 0 in W0 (0), W4 (1) and the card put down (2), which joins W4: W4 held
    # one or two, W0 and the card together the rest of two copies (W4 - 1 and
    # W0 + card are 0 and 1 or 1 and 0).  The possible cell values after the
    # merge lie on a line (W0 + W4 = 2), where least squares shares the
    # coefficients in fractions; the ends are still affine
    p = _Pred(
        (_Form(((0, 1, 1),), -1), _Form(((0, 0, 1), (0, 2, 1)))),
        (0, 0),
        np.array([[False, True], [True, False]]),
    )
    got = _local_bounds(0, [p], 2, 1, 1, (0, 1, 1, 2), [0, 1, 0], [1, 2, 1], 2)
    assert got is not None
    low, up, _, _, table = got
    for w4 in (1, 2):
        for w0 in (0, 1):
            splits = [
                x
                for x in (0, 1)
                if 1 <= w4 - x <= 2 and p.accept(np.array([[w4 - x - 1, w0 + x]]))[0]
            ]
            cells = {(0, 1): w4, (0, 0): w0}

            def value(f: _Form, cells: dict[tuple[int, int], int] = cells) -> int:
                return f.offset + sum(c * cells[(k, ll)] for k, ll, c in f.coef)

            ok = table is None or table.accept(np.array([[w4, w0]]))[0]
            assert ok == bool(splits), (w4, w0)
            if splits:
                assert max(value(f) for f in low) == min(splits), (w4, w0)
                assert min(value(f) for f in up) == max(splits), (w4, w0)
