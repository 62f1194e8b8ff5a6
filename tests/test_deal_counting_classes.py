"""Counts with several closed-form classes and residual constraint tables, against brute force.

A count (no marginals, no sampling) sums every class of unconstrained kinds
whose masks nest in closed form (``_mask_chain``), and an enumerated
component reads each form's final value into the constraint's remaining
table (``_Residuals``).  Both must give the exact numbers of deals that a
brute-force enumeration of every card-count matrix gives, on small random
states with voids in several hands (nested masks), count bounds and joint
constraints; and on larger states, the same integers as the route that
keeps one class (the engine built for marginals).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest

from games.cards import Deck
from games.deal import DealKnowledge, counting
from games.deal.counting import _mask_chain
from games.deal.engine import _Engine
from games.errors import InconsistentKnowledgeError

SEATS = ["me", "x", "y", "z"]


def _random_state(seed: int, kinds: int) -> DealKnowledge | None:
    """``me``'s knowledge after random voids, count bounds and hidden plays (None if inconsistent)."""
    rng = random.Random(seed)
    names = [chr(ord("A") + i) for i in range(kinds)]
    copies = [rng.choice([1, 2, 2]) for _ in names]
    deck = Deck(names, copies)
    cards = [c for c, m in zip(names, copies, strict=True) for _ in range(m)]
    rng.shuffle(cards)
    cut = sorted(rng.sample(range(1, len(cards)), len(SEATS) - 1))
    hands = [cards[a:b] for a, b in zip([0, *cut], [*cut, len(cards)], strict=True)]
    true = dict(zip(SEATS, hands, strict=True))
    kn = DealKnowledge(deck, {**{p: len(h) for p, h in true.items()}, "pile": 0})
    kn.reveal("me", true["me"])
    true["pile"] = []
    try:
        for _ in range(rng.randint(2, 6)):
            p = rng.choice(SEATS[1:])
            what = rng.random()
            held = {c: true[p].count(c) for c in names}
            if what < 0.35:  # a void seen (true)
                gone = [c for c in names if held[c] == 0]
                if gone:
                    kn.void(p, rng.sample(gone, rng.randint(1, len(gone))))
            elif what < 0.55:  # a true count bound over a few kinds
                ks = rng.sample(names, rng.randint(2, 3))
                n = sum(held[c] for c in ks)
                if rng.random() < 0.5:
                    kn.at_most(p, ks, n)
                else:
                    kn.at_least(p, ks, n)
            elif true[p]:  # a hidden play to the pile
                c = rng.choice(true[p])
                true[p].remove(c)
                true["pile"].append(c)
                kn.move_hidden(p, "pile", 1)
    except InconsistentKnowledgeError:
        return None
    return kn


def _brute(
    kn: DealKnowledge, distinct: bool, keep: Callable[[np.ndarray], bool] | None = None
) -> int:
    """The weight of every card-count matrix within the bounds, sizes and joint constraints.

    ``keep``: count only the matrices ``n[kind, location]`` it accepts.
    """
    lo, hi = kn._lo, kn._hi
    K, L = lo.shape
    size = list(kn._size)
    copies = kn._copies.tolist()
    total = 0

    def rows(k: int, left: list[int]):
        def rec(ll: int, rem: int, acc: list[int]):
            if ll == L:
                if rem == 0:
                    yield list(acc)
                return
            for v in range(int(lo[k, ll]), min(int(hi[k, ll]), rem, left[ll]) + 1):
                acc.append(v)
                yield from rec(ll + 1, rem - v, acc)
                acc.pop()

        yield from rec(0, copies[k], [])

    def ok(n: np.ndarray) -> bool:
        for p in kn._preds:
            vals = [f.offset + sum(c * int(n[k, ll]) for k, ll, c in f.coef) for f in p.forms]
            if not p.accept(np.asarray([vals], dtype=np.int64))[0]:
                return False
        return True

    n = np.zeros((K, L), dtype=np.int64)
    # kinds whose every copy is placed by the bounds: one row, one constant factor
    fixed = 1
    free = []
    left0 = list(size)
    for k in range(K):
        if (lo[k] == hi[k]).all():
            n[k] = lo[k]
            left0 = [a - int(b) for a, b in zip(left0, lo[k], strict=True)]
            if not distinct:
                fixed *= math.factorial(copies[k])
                for x in lo[k]:
                    fixed //= math.factorial(int(x))
        else:
            free.append(k)
    F = len(free)
    # most cards the kinds from the i-th free one on can still put in each location
    room = np.zeros((F + 1, L), dtype=np.int64)
    for i in range(F - 1, -1, -1):
        room[i] = room[i + 1] + np.minimum(hi[free[i]], copies[free[i]])

    def go(i: int, left: list[int]) -> None:
        nonlocal total
        if any(x < 0 or x > r for x, r in zip(left, room[i].tolist(), strict=True)):
            return
        if i == F:
            if all(x == 0 for x in left) and ok(n) and (keep is None or keep(n)):
                w = fixed
                if not distinct:
                    for k in free:
                        w *= math.factorial(copies[k])
                        for x in n[k]:
                            w //= math.factorial(int(x))
                total += w
            return
        k = free[i]
        for row in rows(k, left):
            n[k] = row
            go(i + 1, [a - b for a, b in zip(left, row, strict=True)])
        n[k] = 0

    go(0, left0)
    return total


def _states(seeds: range, kinds: int) -> list[DealKnowledge]:
    out = []
    for seed in seeds:
        kn = _random_state(seed, kinds)
        if kn is not None:
            out.append(kn)
    return out


def test_the_heaviest_chain_of_nested_masks():
    assert _mask_chain({(1, 1): 3}) == [(1, 1)]
    # (1, 0, 1) and (0, 1, 1) do not nest: the heavier branch wins
    assert _mask_chain({(1, 1, 1): 1, (1, 0, 1): 5, (0, 1, 1): 4}) == [(1, 1, 1), (1, 0, 1)]
    assert _mask_chain({(1, 0, 0): 2, (0, 1, 0): 3}) == [(0, 1, 0)]


@pytest.mark.parametrize("distinct", [False, True])
@pytest.mark.parametrize("stagewise", [False, True])
def test_counts_equal_brute_force_on_small_random_states(distinct, stagewise, monkeypatch):
    if stagewise:  # every component kind by kind, reading residual tables (no product route)
        monkeypatch.setattr(counting, "_PRODUCT_LIMIT", 0)
    states = _states(range(40), 5)
    assert len(states) > 25
    several = joint = 0
    for kn in states:
        eng = _Engine(
            kn._copies, kn._lo, kn._hi, kn._size, kn._preds,
            exact=True, distinct=distinct, moments=False, stages=False,
        )  # fmt: skip
        several += len(eng.free_chain) > 1
        joint += bool(kn._preds)
        assert int(eng.total()) == _brute(kn, distinct)
    assert several >= 3 and joint >= 10  # chains of classes, joint constraints


@pytest.mark.parametrize("stagewise", [False, True])
def test_count_distributions_equal_brute_force(stagewise, monkeypatch):
    if stagewise:
        monkeypatch.setattr(counting, "_PRODUCT_LIMIT", 0)
    for kn in _states(range(40, 60), 5):
        z = _brute(kn, False)
        if z == 0:
            continue
        loc = "x"
        for card in ("A", "B"):
            d = kn.count_distribution(card, loc, exact=True)
            lo = kn._lo.copy()
            hi = kn._hi.copy()
            k, ll = kn.deck.index(card), kn._loc(loc)
            for j, p in enumerate(d):
                probe = kn.copy()
                probe._lo, probe._hi = lo.copy(), hi.copy()
                probe._lo[k, ll] = max(probe._lo[k, ll], j)
                probe._hi[k, ll] = min(probe._hi[k, ll], j)
                want = (
                    Fraction(_brute(probe, False), z) if probe._lo[k, ll] <= probe._hi[k, ll] else 0
                )
                assert p == want


@pytest.mark.parametrize("stagewise", [False, True])
def test_the_count_route_gives_the_integers_of_the_one_class_route(stagewise, monkeypatch):
    """Larger states: the chain of classes and residual tables against the marginals' engine."""
    if stagewise:
        monkeypatch.setattr(counting, "_PRODUCT_LIMIT", 0)
    checked = 0
    for kn in _states(range(100, 130), 9):
        args = (kn._copies, kn._lo, kn._hi, kn._size, kn._preds)
        count = _Engine(*args, exact=True, distinct=False, moments=False, stages=False)
        one = _Engine(*args, exact=True, distinct=False, moments=True, stages=False)
        assert len(one.free_chain) <= 1
        assert count.total() == one.total()
        f_count = _Engine(*args, exact=False, distinct=False, moments=False, stages=False)
        if count.total() > 0:
            assert f_count.log_total() == pytest.approx(math.log(count.total()), rel=1e-12)
        checked += 1
    assert checked > 20
