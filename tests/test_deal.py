"""Exact deal knowledge against brute-force enumeration of every history.

The reference below enumerates, independently of :mod:`games.deal`, every
initial deal and every hidden choice (which cards went face down), keeps the
histories in which an agent observed exactly what it observed in the true
history, and reads off the consistent current deals.  The dynamic programme
must agree on counts, exact marginals, count distributions and knowledge.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games.deal.counting as deal_mod
from games.cards import Deck
from games.deal import DealKnowledge, DealState
from kripke.formulas import And, Atom, Not, Or


# ------------------------------------------------------------ the reference
def _subsets(pool, n):
    return sorted(set(itertools.combinations(sorted(pool), n)))


def _minus(pool, part):
    out = list(pool)
    for x in part:
        out.remove(x)
    return out


def _initial_deals(cards, locs, sizes):
    if len(locs) == 1:
        yield {locs[0]: sorted(cards)}
        return
    for part in _subsets(cards, sizes[0]):
        for rest in _initial_deals(_minus(cards, part), locs[1:], sizes[1:]):
            yield {locs[0]: list(part), **rest}


def _histories(start, events, agents, owns):
    """Yield (current deal, observations per agent) for every history from ``start``."""
    obs0 = tuple(tuple(tuple(sorted(start[x])) for x in owns[a]) for a in agents)
    frontier = [(start, obs0)]
    for ev in events:
        nxt = []
        for deal, obs in frontier:
            kind = ev[0]
            if kind == "move":
                _, cards, src, dst, aud = ev
                for ch in _subsets(deal[src], len(cards)):
                    d = dict(deal)
                    d[src] = _minus(deal[src], ch)
                    d[dst] = sorted(deal[dst] + list(ch))
                    o = tuple(
                        obs[i] + ((src, dst, ch) if a in aud else (src, dst, len(ch)),)
                        for i, a in enumerate(agents)
                    )
                    nxt.append((d, o))
            elif kind == "all":
                _, src, dst, aud = ev
                d = dict(deal)
                d[dst] = sorted(deal[dst] + deal[src])
                d[src] = []
                o = tuple(
                    obs[i] + (("all", tuple(sorted(deal[src])) if a in aud else None),)
                    for i, a in enumerate(agents)
                )
                nxt.append((d, o))
            elif kind == "reveal":
                _, loc, aud = ev
                o = tuple(
                    obs[i] + (("r", tuple(sorted(deal[loc])) if a in aud else None),)
                    for i, a in enumerate(agents)
                )
                nxt.append((deal, o))
            elif kind == "show":
                _, cards, loc, aud = ev
                for ch in _subsets(deal[loc], len(cards)):
                    o = tuple(
                        obs[i] + (("s", ch if a in aud else None),) for i, a in enumerate(agents)
                    )
                    nxt.append((deal, o))
            elif kind == "any_of":
                if any(
                    lo <= sum(1 for x in ls for c in deal[x] if c in ks) <= hi
                    for ls, ks, lo, hi in ev[1]
                ):
                    nxt.append((deal, obs))
            else:
                _, locs, kinds, k = ev
                have = sum(1 for x in locs for c in deal[x] if c in kinds)
                ok = {
                    "void": have == 0,
                    "at_least": have >= (k or 0),
                    "at_most": have <= (k or 0),
                }[kind]
                if ok:
                    nxt.append((deal, obs))
        frontier = nxt
    return frontier


def _true_history(start, events, agents, owns):
    """The observations of the true history (hidden choices as they really were)."""
    obs = tuple(tuple(tuple(sorted(start[x])) for x in owns[a]) for a in agents)
    deal = {k: list(v) for k, v in start.items()}
    for ev in events:
        kind = ev[0]
        if kind == "move":
            _, cards, src, dst, aud = ev
            ch = tuple(sorted(cards))
            obs = tuple(
                obs[i] + ((src, dst, ch) if a in aud else (src, dst, len(ch)),)
                for i, a in enumerate(agents)
            )
            deal[src] = _minus(deal[src], ch)
            deal[dst] = sorted(deal[dst] + list(ch))
        elif kind == "all":
            _, src, dst, aud = ev
            obs = tuple(
                obs[i] + (("all", tuple(sorted(deal[src])) if a in aud else None),)
                for i, a in enumerate(agents)
            )
            deal[dst] = sorted(deal[dst] + deal[src])
            deal[src] = []
        elif kind == "reveal":
            _, loc, aud = ev
            obs = tuple(
                obs[i] + (("r", tuple(sorted(deal[loc])) if a in aud else None),)
                for i, a in enumerate(agents)
            )
        elif kind == "show":
            _, cards, loc, aud = ev
            ch = tuple(sorted(cards))
            obs = tuple(obs[i] + (("s", ch if a in aud else None),) for i, a in enumerate(agents))
    return deal, obs


def _reference(deck, start, events, agents, owns):
    """Per agent: {current deal (frozen) -> labelled weight} of its consistent deals."""
    cards = [k for k in range(len(deck)) for _ in range(deck.copies[k])]
    locs = list(start)
    sizes = [len(start[x]) for x in locs]
    _, true_obs = _true_history(start, events, agents, owns)
    out = {a: {} for a in agents}
    for init in _initial_deals(cards, locs, sizes):
        for deal, obs in _histories(init, events, agents, owns):
            key = tuple((x, tuple(sorted(deal[x]))) for x in locs)
            for i, a in enumerate(agents):
                if obs[i] == true_obs[i]:
                    w = 1
                    for k in range(len(deck)):
                        w *= math.factorial(deck.copies[k])
                        for x in locs:
                            w //= math.factorial(deal[x].count(k))
                    out[a][key] = w
    return out


# ------------------------------------------------------------ scenarios
def _scenario(seed):
    """A random small deck, deal and event history (events are true facts)."""
    rng = random.Random(seed)
    nk = rng.randint(3, 6)
    copies = [rng.choice([1, 1, 1, 2]) for _ in range(nk)]
    while sum(copies) > 8:
        copies[copies.index(max(copies))] -= 1
    names = [chr(ord("A") + i) for i in range(nk)]
    deck = Deck(names, copies)
    agents = ["x", "y", "z"][: rng.randint(2, 3)]
    locs = agents + ["pile"] + (["kit"] if rng.random() < 0.3 else [])
    cards = [k for k in range(nk) for _ in range(copies[k])]
    rng.shuffle(cards)
    start = {x: [] for x in locs}
    for c in cards:
        start[rng.choice(locs)].append(c)
    start = {x: sorted(v) for x, v in start.items()}
    owns = {a: [a] for a in agents}
    state = DealState(deck, {x: [names[k] for k in v] for x, v in start.items()}, agents=agents)
    events = []
    for _ in range(rng.randint(0, 5)):
        deal = {x: [deck.index(c) for c in cs] for x, cs in state.deal.items()}
        kind = rng.choice(
            ["move", "move", "all", "reveal", "show", "void", "at_least", "at_most", "any_of"]
        )
        nonempty = [x for x in locs if deal[x]]
        aud = frozenset(a for a in agents if rng.random() < 0.5)
        if kind == "move" and nonempty:
            src = rng.choice(nonempty)
            dst = rng.choice([x for x in locs if x != src])
            ch = rng.sample(deal[src], rng.randint(1, min(2, len(deal[src]))))
            state.move([names[k] for k in ch], src, dst, seen_by=sorted(aud))
            events.append(("move", tuple(sorted(ch)), src, dst, aud))
        elif kind == "all" and nonempty:
            src = rng.choice(nonempty)
            dst = rng.choice([x for x in locs if x != src])
            state.move_all(src, dst, seen_by=sorted(aud))
            events.append(("all", src, dst, aud))
        elif kind == "reveal":
            loc = rng.choice(locs)
            state.reveal(loc, to=sorted(aud))
            events.append(("reveal", loc, aud))
        elif kind == "show" and nonempty:
            loc = rng.choice(nonempty)
            ch = rng.sample(deal[loc], 1)
            state.show(loc, [names[k] for k in ch], to=sorted(aud))
            events.append(("show", tuple(ch), loc, aud))
        elif kind == "void":
            loc = rng.choice(locs)
            absent = [k for k in range(nk) if k not in deal[loc]]
            if absent:
                ks = tuple(sorted(rng.sample(absent, rng.randint(1, len(absent)))))
                state.void(loc, [names[k] for k in ks])
                events.append(("void", (loc,), ks, None))
        elif kind in ("at_least", "at_most"):
            ls = tuple(sorted(rng.sample(locs, rng.randint(1, 2))))
            ks = tuple(sorted(rng.sample(range(nk), rng.randint(1, nk))))
            have = sum(1 for x in ls for c in deal[x] if c in ks)
            k = rng.randint(0, have) if kind == "at_least" else rng.randint(have, have + 1)
            getattr(state, kind)(ls, [names[c] for c in ks], k)
            events.append((kind, ls, ks, k))
        elif kind == "any_of":  # two counts, one of them true
            conds = []
            for i in range(2):
                ls = tuple(sorted(rng.sample(locs, rng.randint(1, 2))))
                ks = tuple(sorted(rng.sample(range(nk), rng.randint(1, 2))))
                have = sum(1 for x in ls for c in deal[x] if c in ks)
                lo, hi = (have, have) if i == 0 else (rng.randint(0, 2), rng.randint(0, 2))
                conds.append((ls, ks, lo, hi) if i or rng.random() < 0.5 else (ls, ks, 0, 9))
            if rng.random() < 0.5:
                conds.reverse()
            state.any_of([(ls, [names[c] for c in ks], lo, hi) for ls, ks, lo, hi in conds])
            events.append(("any_of", tuple(conds)))
    return deck, start, events, agents, owns, state


def _check(seed):
    deck, start, events, agents, owns, state = _scenario(seed)
    ref = _reference(deck, start, events, agents, owns)
    locs = list(start)
    for a in agents:
        kn = state.knowledge(a)
        worlds = ref[a]
        assert kn.exact, (seed, a)
        assert kn.count() == len(worlds), (seed, a)
        z = sum(worlds.values())
        exp = np.zeros((len(deck), len(locs)), dtype=object)
        exp[:] = Fraction(0)
        for key, w in worlds.items():
            for j, (_, cs) in enumerate(key):
                for c in cs:
                    exp[c, j] += Fraction(w, z)
        got = kn.marginals(exact=True)
        cols = [kn.locations.index(x) for x in locs]
        assert (got[:, cols] == exp).all(), (seed, a)
        fl = kn.marginals()
        assert np.allclose(fl[:, cols], exp.astype(float)), (seed, a)
        # a count distribution of a random card set in random locations
        rng = random.Random(seed + 1)
        ks = sorted(rng.sample(range(len(deck)), rng.randint(1, len(deck))))
        ls = sorted(rng.sample(locs, rng.randint(1, 2)))
        dist = kn.count_distribution([deck.name(k) for k in ks], ls, exact=True)
        least, most = kn.count_range([deck.name(k) for k in ks], ls)
        support = [v for v, p in enumerate(dist) if p > 0]
        assert least <= support[0] and support[-1] <= most, (seed, a)
        ref_dist = Counter()
        for key, w in worlds.items():
            d = dict(key)
            ref_dist[sum(1 for x in ls for c in d[x] if c in ks)] += Fraction(w, z)
        assert [dist[v] for v in range(len(dist))] == [ref_dist[v] for v in range(len(dist))]
        # knowledge of random formulas over card atoms
        atoms = [
            Atom("has", (rng.choice(locs), deck.name(rng.randrange(len(deck))))) for _ in range(3)
        ]
        for f in (atoms[0], Or((atoms[0], atoms[1])), And((Not(atoms[1]), atoms[2]))):
            truth = [_holds(f, dict(key), deck) for key in worlds]
            assert kn.knows(f) == all(truth), (seed, a, str(f))
            assert kn.possible(f) == any(truth), (seed, a, str(f))
            p = kn.probability_of(f, exact=True)
            assert p == sum(
                Fraction(w, z) for key, w in worlds.items() if _holds(f, dict(key), deck)
            )


def _holds(f, deal, deck):
    if isinstance(f, Atom):
        loc, card = f.args
        return deck.index(card) in deal[loc]
    if isinstance(f, Not):
        return not _holds(f.arg, deal, deck)
    if isinstance(f, And):
        return all(_holds(g, deal, deck) for g in f.args)
    if isinstance(f, Or):
        return any(_holds(g, deal, deck) for g in f.args)
    raise TypeError(f)


@pytest.mark.parametrize("seed", range(20))
def test_dp_equals_enumeration_on_fixed_seeds(seed):
    _check(seed)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31))
def test_dp_equals_enumeration(seed):
    _check(seed)


def _dealt(rng, kinds, choices, most, public, max_table=None):
    """A small deck (``kinds`` = (fewest, most) kinds, copies drawn from ``choices``,
    at most ``most`` cards) dealt in turn to the hands x, y, z, and the empty
    locations ``public``: ``(deck, names, start, state)``, ``start`` by card
    index, ``state`` the deal state of the agents x, y, z (every agent's
    :attr:`DealKnowledge.max_table` ``max_table`` if given)."""
    nk = rng.randint(*kinds)
    copies = [rng.choice(choices) for _ in range(nk)]
    while sum(copies) > most:
        copies[copies.index(max(copies))] -= 1
    names = [chr(ord("A") + i) for i in range(nk)]
    deck = Deck(names, copies)
    cards = [k for k in range(nk) for _ in range(copies[k])]
    rng.shuffle(cards)
    start = {x: [] for x in ["x", "y", "z", *public]}
    for i, c in enumerate(cards):
        start["xyz"[i % 3]].append(c)
    start = {x: sorted(v) for x, v in start.items()}
    state = DealState(deck, {x: [names[k] for k in v] for x, v in start.items()}, agents="xyz")
    if max_table is not None:
        for a in "xyz":
            state.knowledge(a).max_table = max_table
    return deck, names, start, state


def _bs_scenario(seed, max_table=None):
    """BS-shaped histories: face-down plays, calls, pickups (the hard merges).

    ``max_table`` (if given) is every agent's :attr:`DealKnowledge.max_table`.
    """
    rng = random.Random(seed)
    deck, names, start, state = _dealt(rng, (4, 6), [1, 1, 2], 7, ["pile", "play"], max_table)
    agents = ["x", "y", "z"]
    owns = {a: [a] for a in agents}
    events = []
    turn = 0
    for _ in range(rng.randint(2, 6)):
        deal = {x: [deck.index(c) for c in cs] for x, cs in state.deal.items()}
        p = agents[turn % 3]
        turn += 1
        if not deal[p]:
            continue
        ch = rng.sample(deal[p], rng.randint(1, min(2, len(deal[p]))))
        state.move([names[k] for k in ch], p, "play", seen_by=[p])
        events.append(("move", tuple(sorted(ch)), p, "play", frozenset([p])))
        r = rng.random()
        if r < 0.3:
            state.reveal("play", to=agents)
            events.append(("reveal", "play", frozenset(agents)))
        state.move_all("play", "pile", seen_by=[])
        events.append(("all", "play", "pile", frozenset()))
        if r < 0.45:
            taker = rng.choice(agents)
            state.move_all("pile", taker, seen_by=[taker])
            events.append(("all", "pile", taker, frozenset([taker])))
    return deck, start, events, agents, owns, state


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31))
def test_dp_equals_enumeration_on_bs_histories(seed):
    deck, start, events, agents, owns, state = _bs_scenario(seed)
    ref = _reference(deck, start, events, agents, owns)
    for a in agents:
        kn = state.knowledge(a)
        assert kn.exact, (seed, a)
        _assert_counts_as(kn, ref[a], list(start), (seed, a))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31))
def test_a_drawn_deal_is_checked_against_every_constraint(seed):
    """``_is_deal`` (the check a deal drawn as a witness of ``possible`` passes) accepts
    exactly the enumerated consistent deals among all placements of the cards, and every
    drawn deal is one of them."""
    deck, start, events, agents, owns, state = _bs_scenario(seed)
    ref = _reference(deck, start, events, agents, owns)
    locs = list(start)
    cards = [k for k in range(len(deck)) for _ in range(deck.copies[k])]
    for a in agents:
        kn = state.knowledge(a)
        cols = [kn._loc(x) for x in locs]
        sizes = [kn._size[col] for col in cols]
        accepted = set()
        for init in _initial_deals(cards, locs, sizes):
            d = np.zeros((len(deck), len(kn._locs)), dtype=np.int64)
            for x, col in zip(locs, cols, strict=True):
                for k in init[x]:
                    d[k, col] += 1
            if kn._is_deal(d):
                accepted.add(tuple((x, tuple(sorted(init[x]))) for x in locs))
        assert accepted == set(ref[a]), (seed, a)
        card = deck.name(0)
        kn.possible(f"has(x, {card}) | ~has(x, {card})")  # keeps the programme, its sampler
        eng = kn._engine(stages=True)
        for d in eng.sample(20, np.random.default_rng(seed)):
            assert kn._is_deal(d), (seed, a)


def _assert_counts_as(kn, worlds, locs, tag):
    """The knowledge's count and exact marginals are those of the enumerated ``worlds``."""
    deck = kn.deck
    assert kn.count() == len(worlds), tag
    z = sum(worlds.values())
    got = kn.marginals(exact=True)
    for x in locs:
        col = kn.locations.index(x)
        for k in range(len(deck)):
            want = sum(Fraction(w * dict(key)[x].count(k), z) for key, w in worlds.items())
            assert got[k, col] == want, (*tag, x, deck.name(k))


@pytest.mark.parametrize("seed", range(10))
def test_staged_enumeration_equals_enumeration(seed, monkeypatch):
    # components are enumerated kind by kind (large ones) or all at once (small ones);
    # the kind-by-kind route must agree with the reference on the same histories
    monkeypatch.setattr(deal_mod, "_PRODUCT_LIMIT", 0)
    _check(seed)
    deck, start, events, agents, owns, state = _bs_scenario(seed)
    ref = _reference(deck, start, events, agents, owns)
    for a in agents:
        assert state.knowledge(a).count() == len(ref[a]), (seed, a)


def test_both_enumeration_routes_sample_the_same_distribution(monkeypatch):
    deck = Deck(list("ABCDEFGH"))
    k = DealKnowledge(deck, {"me": 2, "x": 2, "y": 2, "pile": 2})
    k.reveal("me", "A B")
    k.at_least(["x"], "C D E", 1)
    k.at_most(["pile", "y"], "G H", 1)
    fast = k.sample(4000, seed=5).mean(axis=0)
    monkeypatch.setattr(deal_mod, "_PRODUCT_LIMIT", 0)
    k2 = k.copy()
    staged = k2.sample(4000, seed=5).mean(axis=0)
    assert np.allclose(fast, k.marginals(), atol=0.03)
    assert np.allclose(staged, k2.marginals(), atol=0.03)
    assert np.allclose(k.marginals(), k2.marginals())


def test_formula_queries_reuse_the_knowledge_programme(monkeypatch):
    """``probability_of`` and ``possible`` build the knowledge's programme once (kept)
    and one more per split they weigh; the split with nothing fixed reads the kept
    one (before, each query built a copy of it as well); the answers are the counted
    ones; a formula that a deal drawn from the kept programme satisfies is possible
    without a split."""
    built = []
    build = DealKnowledge._build
    monkeypatch.setattr(
        DealKnowledge, "_build", lambda self, **kw: built.append(kw) or build(self, **kw)
    )
    k = DealKnowledge(Deck(["A", "B", "C", "D"], [2, 1, 1, 2]), {"me": 2, "x": 2, "y": 2})
    k.reveal("me", "A D")
    assert k.probability_of("has(x, B)", exact=True) == Fraction(1, 2)
    assert len(built) == 2  # the exact programme, the split has(x, B)
    assert k.possible("~has(x, A) & ~has(y, A)") is False
    assert len(built) == 4  # the float programme (with its sampler), the split ~has(x, A)
    assert k.possible("has(y, D)") is True
    assert len(built) == 4  # a drawn deal has y holding a D: no split
    assert k.possible("has(y, D) & has(x, D)") is False  # no draw serves: the splits
    assert len(built) > 4


@pytest.mark.parametrize("exact", [True, False])
def test_a_count_keeps_only_the_tables_it_reads(exact):
    """A programme built for a count (no marginals, no sampling) keeps the first two
    backward tables only, and counts what one that keeps every table counts, also
    a query's distribution."""
    from games.deal.forms import _Form

    rng = random.Random(3)
    deck = Deck([f"c{i}" for i in range(8)], [2] * 8)
    k = DealKnowledge(deck, {"a": 4, "b": 4, "c": 4, "d": 4})
    cards = list(deck.all_cards())
    rng.shuffle(cards)
    k.reveal("a", cards[:4])
    k.move_hidden("b", "a", 2)
    k.move_hidden("c", "d", 1)
    k.exactly("c", "c1 c2", 1)
    form = _Form.make({(k.deck.index("c3"), k._loc("d")): 1})
    lean = k._build(exact=exact, distinct=False, query=form, moments=False, stages=False)
    full = k._build(exact=exact, distinct=False, query=form, moments=True, stages=True)
    assert len(lean.blocks) > 2
    assert sum(t is not lean._zero_t for t in lean.betas) <= 2
    assert lean.total() == pytest.approx(full.total())
    got, want = lean.query_distribution(), full.query_distribution()
    assert got.keys() == want.keys()
    assert all(got[v] == pytest.approx(want[v]) for v in want)
