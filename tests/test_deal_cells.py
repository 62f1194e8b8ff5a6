"""Cell bounds: the propagation and :class:`~games.deal.cells.CellKnowledge`.

* :func:`~games.deal.cells.tighten` (the propagation ``DealKnowledge`` also
  settles with) stops when the sums of the bounds stop moving; the
  cell-by-cell comparison of every pass (``_tighten_checked``, the way
  ``DealKnowledge`` settled before) is the reference.
* :class:`CellKnowledge` is a sound relaxation of :class:`DealKnowledge`: on
  random histories of face-down and face-up moves its bounds contain the
  deal knowledge's, and every count the deal knowledge finds possible has a
  positive probability in the shuffle model.
* The shuffle model's distributions equal a brute-force shuffle of the
  unknown cards into the unknown places, and the deal knowledge's exact
  ones where the two models agree (right after the deal).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from games.cards import Deck
from games.deal import DealKnowledge
from games.deal.cells import CellKnowledge, _tighten_checked, _tighten_stacked, tighten
from games.errors import InconsistentKnowledgeError, InvalidParameterError


def _random_bounds(seed: int):
    """Copies, sizes and bounds around a random deal: ``(rng, cp, size, lo, hi)``."""
    rng = np.random.default_rng(seed)
    K, L = int(rng.integers(1, 7)), int(rng.integers(1, 6))
    cp = rng.integers(0, 4, size=K).astype(np.int64)
    deal = np.zeros((K, L), dtype=np.int64)
    for k in range(K):
        for _ in range(cp[k]):
            deal[k, rng.integers(L)] += 1
    lo = np.maximum(deal - rng.integers(0, 3, size=(K, L)), 0)
    hi = deal + rng.integers(0, 3, size=(K, L))
    return rng, cp, deal.sum(0), lo, hi


def test_tighten_equals_the_pass_by_pass_reference():
    outcomes = Counter()
    for seed in range(1500):
        # bounds around a deal, sometimes crossing, negative, or with wrong sizes
        rng, cp, size, lo, hi = _random_bounds(seed)
        K, L = lo.shape
        if seed % 5 == 0:
            lo[rng.integers(K), rng.integers(L)] += 2
        if seed % 7 == 0:
            hi[rng.integers(K), rng.integers(L)] = -1
        if seed % 3 == 0:
            size[rng.integers(L)] += int(rng.integers(-2, 3))
        if seed % 4 == 0:
            cp[rng.integers(K)] += int(rng.integers(-1, 2))
        a_lo, a_hi, b_lo, b_hi = lo.copy(), hi.copy(), lo.copy(), hi.copy()
        got = tighten(a_lo, a_hi, cp, size)
        want = _tighten_checked(b_lo, b_hi, cp, size)
        assert got == want, seed
        outcomes[want[0] if want else None] += 1
        if want is None:
            assert (a_lo == b_lo).all() and (a_hi == b_hi).all()
    assert outcomes[None] > 300 and outcomes["cell"] > 300 and outcomes["sizes"] > 10


def test_stacked_tighten_reaches_the_same_bounds():
    """Whenever a deal lies within the bounds both reach the same ones; else both refuse."""
    agree = Counter()
    for seed in range(1500):
        rng, cp, size, lo, hi = _random_bounds(seed)
        inside = seed % 2 == 0
        if not inside:  # perhaps no deal within the bounds any more
            lo[rng.integers(lo.shape[0]), rng.integers(lo.shape[1])] += int(rng.integers(1, 3))
        a_lo, a_hi = lo.copy(), hi.copy()
        b = np.stack([lo, hi])
        want = tighten(a_lo, a_hi, cp, size)
        got = _tighten_stacked(b, cp, size)
        assert got == (want is None), seed
        if got:
            assert (b[0] == a_lo).all() and (b[1] == a_hi).all(), seed
        if inside:
            assert got
        agree[got] += 1
    assert agree[True] > 700 and agree[False] > 100


def test_deal_knowledge_names_the_crossed_cell():
    k = DealKnowledge(Deck.ranks(2, copies=2), {"a": 2, "b": 2})
    k.reveal("a", "0 0")
    with pytest.raises(InconsistentKnowledgeError, match="0 .* in b|1 in"):
        k.reveal("b", "0 1")


# ------------------------------------------------------------ random histories
def _history(seed: int, deck: Deck, hands: int, per: int):
    """A random BS-like history: (true deal as lists, events for seat 0)."""
    rng = random.Random(seed)
    cards = [deck.name(k) for k in range(len(deck)) for _ in range(deck.copies[k])]
    rng.shuffle(cards)
    where = {f"P{s}": cards[s * per : (s + 1) * per] for s in range(hands)}
    where["pile"] = cards[hands * per :]
    events = [("reveal", "P0", list(where["P0"]))]
    for _ in range(rng.randint(3, 9)):
        s = rng.randrange(hands)
        src = f"P{s}"
        if not where[src]:
            continue
        n = rng.randint(1, min(2, len(where[src])))
        moved = rng.sample(where[src], n)
        for c in moved:
            where[src].remove(c)
        where["play"] = moved
        events.append(("move", moved, src, "play") if s == 0 else ("hidden", src, "play", n))
        if rng.random() < 0.4:
            events.append(("reveal", "play", list(moved)))
        events.append(("all", "play", "pile"))
        where["pile"] += moved
        where["play"] = []
        if rng.random() < 0.3:
            t = f"P{rng.randrange(hands)}"
            if t == "P0":
                events.append(("reveal", "pile", list(where["pile"])))
            events.append(("all", "pile", t))
            where[t] += where["pile"]
            where["pile"] = []
    return where, events


def _apply(kn, events):
    for ev in events:
        if ev[0] == "reveal":
            kn.reveal(ev[1], ev[2])
        elif ev[0] == "move":
            kn.move(ev[1], ev[2], ev[3])
        elif ev[0] == "hidden":
            kn.move_hidden(ev[1], ev[2], ev[3])
        else:
            kn.move_all(ev[1], ev[2])


def _start(deck: Deck, hands: int, per: int):
    sizes = {f"P{s}": per for s in range(hands)}
    sizes.update(pile=deck.total - hands * per, play=0)
    return DealKnowledge(deck, sizes), CellKnowledge(deck, sizes)


@pytest.mark.parametrize("seed", range(40))
def test_cell_knowledge_is_a_sound_relaxation_of_deal_knowledge(seed):
    deck = Deck.ranks(4, copies=2)
    dk, ck = _start(deck, 3, 2)
    truth, events = _history(seed, deck, 3, 2)
    _apply(dk, events)
    _apply(ck, events)
    c_lo, c_hi = ck.bounds()
    assert (c_lo <= dk._lo).all() and (dk._hi <= c_hi).all()
    for k in range(len(deck)):
        for loc in ck.locations:
            kloc = list(dk.locations).index(loc)
            assert c_lo[k, kloc] <= truth.get(loc, []).count(deck.name(k)) <= c_hi[k, kloc]
            exact = dk.count_distribution(deck.name(k), loc)
            model = ck.count_distribution(deck.name(k), loc)
            assert abs(sum(model) - 1) < 1e-12
            for j, p in enumerate(exact):
                if p > 0:
                    assert model[j] > 0, (seed, k, loc, j)


def _shuffle_reference(ck: CellKnowledge, kinds: list[int], loc: str) -> list[Fraction]:
    """The shuffle model by brute force: every arrangement of the unknown cards."""
    deck = ck.deck
    lo, hi = ck.bounds()
    locs = ck.locations
    tokens = []  # the unknown physical cards, by kind
    for k in range(len(deck)):
        tokens += [k] * (deck.copies[k] - int(lo[k].sum()))
    places = []
    for j, name in enumerate(locs):
        places += [j] * (ck.size(name) - int(lo[:, j].sum()))
    assert len(tokens) == len(places)
    q = locs.index(loc)
    total = sum(deck.copies[k] for k in kinds)
    hits = Counter()
    for perm in itertools.permutations(range(len(tokens))):
        got = Counter((tokens[i], places[p]) for p, i in enumerate(perm) if tokens[i] in kinds)
        if any(lo[k, j] + got[(k, j)] > hi[k, j] for k in kinds for j in range(len(locs))):
            continue
        hits[int(sum(lo[k, q] for k in kinds)) + sum(got[(k, q)] for k in kinds)] += 1
    z = sum(hits.values())
    return [Fraction(hits[v], z) for v in range(total + 1)]


@pytest.mark.parametrize("seed", range(12))
def test_shuffle_model_equals_brute_force(seed):
    deck = Deck.ranks(3, copies=2)
    dk, ck = _start(deck, 2, 2)
    _, events = _history(seed, deck, 2, 2)
    _apply(ck, events)
    for k in range(len(deck)):
        for loc in ("P1", "pile"):
            want = _shuffle_reference(ck, [k], loc)
            got = ck.count_distribution(deck.name(k), loc)
            assert got == pytest.approx([float(x) for x in want], abs=1e-12)


def test_shuffle_model_of_a_group_of_single_cards_equals_brute_force():
    deck = Deck(["AS", "AH", "KS", "KH", "QS", "QH"])
    ck = CellKnowledge(deck, {"me": 2, "x": 2, "y": 1, "pile": 1})
    ck.reveal("me", "AS KS")
    ck.move_hidden("x", "pile", 1)
    want = _shuffle_reference(ck, [deck.index("AH"), deck.index("KH")], "x")
    got = ck.count_distribution("AH KH", "x")
    assert got == pytest.approx([float(x) for x in want], abs=1e-12)


@pytest.mark.parametrize("seed", range(10))
def test_shuffle_model_equals_deal_knowledge_at_the_deal(seed):
    rng = random.Random(seed)
    deck = Deck.ranks(5, copies=3)
    sizes = {"me": 4, "p1": 4, "p2": 4, "rest": 3}
    dk, ck = DealKnowledge(deck, sizes), CellKnowledge(deck, sizes)
    cards = [deck.name(k) for k in range(5) for _ in range(3)]
    rng.shuffle(cards)
    dk.reveal("me", cards[:4])
    ck.reveal("me", cards[:4])
    for k in range(5):
        for loc in ("p1", "rest"):
            want = dk.count_distribution(deck.name(k), loc)
            assert ck.count_distribution(deck.name(k), loc) == pytest.approx(want, abs=1e-12)
        m = dk.marginals()
        got = ck.expected(deck.name(k))
        for j, loc in enumerate(dk.locations):
            assert got[loc] == pytest.approx(float(m[k, j]), abs=1e-12)


def test_cell_knowledge_errors_name_the_bad_value():
    deck = Deck.ranks(2, copies=2)
    ck = CellKnowledge(deck, {"a": 2, "b": 2})
    with pytest.raises(InvalidParameterError, match="'c'"):
        ck.count_distribution("0", "c")
    with pytest.raises(InvalidParameterError, match="add up to 3"):
        CellKnowledge(deck, {"a": 2, "b": 1})
    with pytest.raises(InconsistentKnowledgeError, match="3 were revealed"):
        ck.reveal("a", "0 0 1")
    ck.reveal("a", "0 0")
    with pytest.raises(InconsistentKnowledgeError, match="1 in a"):
        ck.move("1", "a", "b")
    ck2 = CellKnowledge(deck, {"a": 2, "b": 2})
    ck2.reveal("a", "0 0")
    ck2.reveal("b", "0 1")  # only the propagation finds that no 0 is left for b
    with pytest.raises(InconsistentKnowledgeError, match="contradicts"):
        ck2.settle()
    with pytest.raises(InconsistentKnowledgeError, match="cannot give 3"):
        ck.move_hidden("b", "a", 3)
    ck2 = ck.copy()
    ck2.move_hidden("b", "a", 1)
    assert ck.size("a") == 2 and ck2.size("a") == 3


@pytest.mark.parametrize("seed", range(60))
def test_one_kind_products_equal_the_enumerated_placements(seed):
    from games.deal import cells

    rng = random.Random(seed)
    n = rng.randint(1, 5)
    r = rng.randint(1, 4)
    free = tuple(rng.randint(0, 6) for _ in range(n))
    caps = tuple(min(rng.randint(0, 4), f) for f in free)
    if sum(caps) < r:
        caps = tuple(min(f, r) for f in free)
    if sum(caps) < r:
        return
    specs = ((r, caps),)
    places = cells._placements(specs, free)
    z = sum(w for _, w in places)
    at = tuple(j for j in range(n) if rng.random() < 0.5)
    want = [Fraction(0)] * (r + 1)
    for x, w in places:
        want[sum(x[j] for j in at)] += Fraction(w, z)
    assert cells._distribution(specs, free, at) == tuple(float(x) for x in want)
    means = [float(sum(Fraction(x[j] * w, z) for x, w in places)) for j in range(n)]
    assert cells._means(specs, free) == pytest.approx(means, rel=1e-12)


@pytest.mark.parametrize("seed", range(30))
def test_most_is_the_largest_possible_count(seed):
    """``most`` is the largest count the shuffle model gives a positive probability,
    for one kind and for a group of two; it is never below the exact knowledge's."""
    deck = Deck.ranks(4, copies=2)
    dk, ck = _start(deck, 3, 2)
    truth, events = _history(seed, deck, 3, 2)
    _apply(dk, events)
    _apply(ck, events)
    for group in ([0], [2], [0, 1], [1, 3]):
        cards = " ".join(deck.name(k) for k in group)
        for loc in ck.locations:
            dist = ck.count_distribution(cards, loc)
            most = ck.most(cards, loc)
            assert most == max(j for j, p in enumerate(dist) if p > 0), (seed, group, loc)
            held = sum(truth.get(loc, []).count(deck.name(k)) for k in group)
            exact = dk.count_distribution(cards, loc)
            assert held <= max(j for j, p in enumerate(exact) if p > 0) <= most


@pytest.mark.parametrize("seed", range(80))
def test_most_and_the_flow_check_equal_the_enumerated_placements(seed):
    """On random groups of kinds: a placement exists iff the transport flow ships every
    copy, and the most a location can take is its first fill."""
    from games.deal import cells
    from games.deal.flow import _min_cut

    rng = random.Random(seed)
    n = rng.randint(1, 5)
    free = tuple(rng.randint(0, 4) for _ in range(n))
    specs = []
    for _ in range(rng.randint(2, 4)):
        r = rng.randint(1, 2)
        specs.append((r, tuple(min(rng.randint(0, 2), f) for f in free)))
    specs_t = tuple(specs)
    places = cells._placements(specs_t, free)
    supply = [r for r, _ in specs]
    shipped = _min_cut([c for _, c in specs], supply, free)
    assert (shipped == sum(supply)) == bool(places)
    if places:
        for j in range(n):
            fill = min(sum(min(r, c[j]) for r, c in specs), free[j])
            assert fill == max(x[j] for x, _ in places)
