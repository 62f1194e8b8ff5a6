"""Counting holds a bounded number of shifted table copies, with the same floats.

The dynamic programme's weighted sums over a block's terms read the shifted
copies of a table a group at a time (``_GATHER_BYTES``).  Each group's sum
continues the previous one, so the result must be the very floats of the sum
over all copies at once (``_weighted_sum`` of ``_gather``), which is checked
here with one copy per group, on random BS-shaped histories with joint
constraints, forwards and backwards, and through the public queries.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from games.cards import Deck
from games.deal import DealKnowledge, counting
from games.deal.counting import _weighted_sum

SEATS = ["me", "x", "y", "z"]


def _states(seed: int) -> list[DealKnowledge]:
    """``me``'s knowledge after each event of a random BS-shaped game (states with joint constraints)."""
    rng = random.Random(seed)
    nk = rng.randint(6, 8)
    names = [chr(ord("A") + i) for i in range(nk)]
    deck = Deck(names, [2] * nk)
    cards = [c for c in names for _ in range(2)]
    rng.shuffle(cards)
    true: dict[str, list[str]] = {p: cards[i :: len(SEATS)] for i, p in enumerate(SEATS)}
    kn = DealKnowledge(deck, {**{p: len(h) for p, h in true.items()}, "pile": 0, "play": 0})
    kn.reveal("me", true["me"])
    true.update(pile=[], play=[])
    out: list[DealKnowledge] = []
    for _ in range(rng.randint(6, 12)):
        p = rng.choice(SEATS)
        if not true[p]:
            continue
        play = rng.sample(true[p], min(len(true[p]), rng.randint(1, 2)))
        for c in play:
            true[p].remove(c)
        if p == "me":
            kn.move(play, "me", "play")
        else:
            kn.move_hidden(p, "play", len(play))
        called = rng.random() < 0.3
        if called:
            kn.reveal("play", play)
        kn.move_all("play", "pile")
        true["pile"] += play
        if called:
            taker = rng.choice(SEATS)
            if taker == "me":
                kn.reveal("pile", true["pile"])
            kn.move_all("pile", taker)
            true[taker] += true["pile"]
            true["pile"] = []
        if kn._preds:
            out.append(kn.copy())
    return out


def _engines(seeds: range) -> list[object]:
    engines = []
    for seed in seeds:
        for kn in _states(seed):
            try:
                eng = kn._engine(moments=True)
            except Exception:
                continue
            if eng.zero or not eng.La:
                continue
            engines.append(eng)
    return engines


def test_grouped_sums_are_the_floats_of_the_sum_over_all_copies(monkeypatch):
    monkeypatch.setattr(counting, "_GATHER_BYTES", 1)  # one copy per group
    rng = np.random.default_rng(7)
    grouped = 0
    for eng in _engines(range(40)):
        for b, blk in enumerate(eng.blocks):
            w = np.asarray(blk.w, dtype=np.float64)
            tables = [eng.betas[b + 1], rng.random(eng.shape) * 10.0 ** rng.integers(-5, 5)]
            for table in tables:
                for forward in (False, True):
                    got = eng._shifted_sum(table, b, forward)
                    want = _weighted_sum(w, eng._gather(table, b, forward))
                    assert got.shape == want.shape
                    assert np.array_equal(got, want), (b, forward)
                dots = eng._term_dots(table, b, tables[1])
                g = eng._gather(table, b, False).reshape(len(w), -1)
                assert np.array_equal(dots, np.einsum("tc,c->t", g, tables[1].reshape(-1)))
            if eng.betas[b + 1].size >= 16 and len(w) > 1:
                grouped += 1
    assert grouped > 20  # the grouped route ran, not only the one-shot one


@pytest.mark.parametrize("first", [0, 8, 16])
def test_queries_are_the_same_floats_whatever_the_group_size(monkeypatch, first):
    answers = {}
    for budget in (1, 1 << 40):
        monkeypatch.setattr(counting, "_GATHER_BYTES", budget)
        got = []
        for kn in (k for seed in range(first, first + 8) for k in _states(seed)):
            kn = kn.copy()
            got.append(kn.marginals().tolist())
            for card in kn.deck.names:
                got.append(kn.probability(card, "x"))
                got.append(list(kn.count_distribution(card, "y")))
        answers[budget] = got
    assert answers[1] == answers[1 << 40]
    assert sum(isinstance(x, float) for x in answers[1]) > 50


@pytest.mark.parametrize("first", [0, 8])
def test_the_box_route_and_its_read_cells_give_the_same_answers(monkeypatch, first):
    """Adding each term on its box, and filling only the cells the first two tables are read at.

    Against the route that gathers every copy and fills whole tables:
    the same exact counts (Fractions, ints) and the same floats.
    """
    monkeypatch.setattr(
        counting, "_CRT_WORK", 0
    )  # the read cells' exact sums by Chinese remainders
    answers = {}
    for box_cells in (1, 1 << 40):
        monkeypatch.setattr(counting, "_BOX_CELLS", box_cells)
        got: list[object] = []
        for kn in (k for seed in range(first, first + 8) for k in _states(seed)):
            kn = kn.copy()
            got.append(kn.count())
            got.append(kn.marginals().tolist())
            got.append(kn.marginals(exact=True).tolist())
            for card in kn.deck.names:
                got.append(list(kn.count_distribution(card, ["x", "pile"])))
                got.append(list(kn.count_distribution(card, "z", exact=True)))
            got.append(kn.sample(3, seed=first).tolist())
        answers[box_cells] = got
    assert answers[1] == answers[1 << 40]
    assert len(answers[1]) > 100


def test_reused_component_blocks_give_the_answers_of_fresh_ones(monkeypatch):
    """Counts that reuse an earlier count's component block answer as if enumerated anew."""

    def answers() -> list[object]:
        got: list[object] = []
        for kn in (k for seed in range(8) for k in _states(seed)):
            for card in kn.deck.names:
                for loc in ("x", "y"):
                    probe = kn.copy()  # a fresh engine per query: components repeat
                    got.append(list(probe.count_distribution(card, loc)))
                    got.append(list(probe.count_distribution(card, "z", exact=True)))
        return got

    hits = {"n": 0}
    get = counting._COMPONENT_CACHE.get

    def counted_get(key: object) -> object:
        found = get(key)
        hits["n"] += found is not None
        return found

    counting._COMPONENT_CACHE.clear()
    monkeypatch.setattr(counting._COMPONENT_CACHE, "get", counted_get, raising=False)
    reused = answers()
    assert hits["n"] > 20
    monkeypatch.setattr(counting, "_COMPONENT_CACHE_SIZE", 0)
    counting._COMPONENT_CACHE.clear()
    assert answers() == reused


@pytest.mark.parametrize("exact", [False, True])
def test_read_cells_are_the_box_sums_at_those_cells(monkeypatch, exact):
    """``_cells_sum`` at every cell of a random table, edges included, equals the box route there.

    The box route adds each term on the cells its shift keeps inside the
    table, in the order of the terms: the same exact ints, the same floats.
    """
    monkeypatch.setattr(
        counting, "_CRT_WORK", 0
    )  # exact sums by Chinese remainders, even small ones
    rng = np.random.default_rng(7)
    checked = 0
    for kn in (k for seed in range(16) for k in _states(seed)):
        eng = kn.copy()._engine(exact=exact)
        if eng.zero or not eng.La:
            continue
        shape = eng.shape
        cells = np.indices(shape).reshape(len(shape), -1).T
        for b in range(len(eng.blocks)):
            if exact:
                table = np.empty(shape, dtype=object)
                # counts past any machine word: the exact sums go through several primes
                big = [
                    int(x) * 10**30 + int(y)
                    for x, y in rng.integers(0, 10**9, size=(table.size, 2))
                ]
                table.reshape(-1)[:] = big
            else:
                table = rng.random(shape)
            want = np.zeros(shape, dtype=table.dtype)
            if exact:
                want[...] = 0
            for t, (src, dst) in enumerate(eng.slc(b)):
                if src is not None:
                    want[dst] += eng.blocks[b].w[t] * table[src]
            got = eng._cells_sum(table, b, cells)
            assert got.tolist() == want.reshape(-1).tolist()
            checked += 1
    assert checked > 20


def test_counts_that_reuse_a_kept_third_table_answer_as_fresh_ones(monkeypatch):
    """A count asked again starts from the kept third backward table: the same answers.

    Every table takes the box route with read cells (``_BOX_CELLS`` 1), so
    the third table is whole; against the same counts with nothing kept.
    """
    monkeypatch.setattr(counting, "_BOX_CELLS", 1)

    def answers() -> list[object]:
        got: list[object] = []
        for kn in (k for seed in range(8) for k in _states(seed)):
            for _ in range(2):  # a fresh engine each time: the second reads the kept table
                got.append(kn.copy().count())
                for card in kn.deck.names[:3]:
                    got.append(list(kn.copy().count_distribution(card, "x")))
                    got.append(list(kn.copy().count_distribution(card, "y", exact=True)))
                    got.append(kn.copy().probability_of(f"has(z, {card})", exact=True))
        return got

    hits = {"n": 0}
    get = counting._TAIL_CACHE.get

    def counted_get(key: object) -> object:
        found = get(key)
        hits["n"] += found is not None
        return found

    counting._TAIL_CACHE.clear()
    monkeypatch.setattr(counting._TAIL_CACHE, "get", counted_get, raising=False)
    kept = answers()
    assert hits["n"] > 20
    monkeypatch.setattr(counting, "_TAIL_CACHE_SIZE", 0)
    counting._TAIL_CACHE.clear()
    assert answers() == kept
