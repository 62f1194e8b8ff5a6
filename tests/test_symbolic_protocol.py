"""The symbolic muddy children protocol against the generic step-by-step path,
the one-pass "nobody knows", CUDD's exact counting, the lazy world counts and
the size guards of the symbolic muddy children."""

from __future__ import annotations

import math
import random
import time
from typing import Any

import pytest

from kripke import puzzles as P
from kripke.errors import SizeLimitError
from kripke.formulas import Atom, Kw
from kripke.semantics import holds
from kripke.symbolic import (
    KnowledgeStructure,
    PointedStructure,
    available_backends,
    manager,
    set_limits,
    use_backend,
)
from kripke.symbolic import puzzles as SP
from kripke.updates import announce


def generic_protocol(pm: Any) -> list[tuple[int, tuple[str, ...]]]:
    """The protocol step by step through the generic API: announce the
    formulas, check every child's knowledge with ``holds``, count the states."""
    children = sorted(pm.agents, key=int)
    kw = [Kw(c, Atom(f"m{c}")) for c in children]

    def knowers(p: Any) -> tuple[str, ...]:
        return tuple(c for c, f in zip(children, kw, strict=True) if holds(p, f))

    pm = announce(pm, P.at_least_one_muddy(len(children)))
    out = [(pm.num_states(), knowers(pm))]
    while not out[-1][1]:
        pm = announce(pm, P.nobody_knows(len(children)))
        out.append((pm.num_states(), knowers(pm)))
    return out


@pytest.mark.parametrize("n, muddy", [(1, [1]), (4, [2]), (6, None), (8, [1, 4, 8]), (11, [3, 5])])
def test_protocol_equals_the_generic_path_and_the_explicit_engine(backend, n, muddy):
    rounds = list(P.muddy_children_protocol(P.muddy_children(n, muddy, engine="symbolic")))
    got = [(r.worlds, r.knowers) for r in rounds]
    assert got == generic_protocol(P.muddy_children(n, muddy, engine="symbolic"))
    explicit = list(P.muddy_children_protocol(P.muddy_children(n, muddy)))
    assert rounds == explicit
    assert [r.round for r in rounds] == list(range(len(rounds)))


def test_protocol_on_a_structure_outside_the_fast_case(backend):
    """A hidden coin nobody observes: each child's unobserved variables are its
    own forehead and the coin, so "nobody knows" comes from the formulas."""
    n = 5
    vocab = [f"m{i}" for i in range(1, n + 1)] + ["coin"]
    obs = {str(i): [f"m{j}" for j in range(1, n + 1) if j != i] for i in range(1, n + 1)}
    ks = KnowledgeStructure(vocab, "coin | m1", observes=obs)
    pm = PointedStructure(ks, {"m2", "m4", "coin"})
    rounds = list(P.muddy_children_protocol(pm))
    assert [(r.worlds, r.knowers) for r in rounds] == generic_protocol(pm)


def test_max_rounds_stops_early(backend):
    pm = P.muddy_children(6, engine="symbolic")
    rounds = list(P.muddy_children_protocol(pm, max_rounds=2))
    assert [r.round for r in rounds] == [0, 1, 2] and not rounds[-1].knowers
    assert rounds[-1].worlds == 2**6 - 1 - 6 - 15


@pytest.mark.parametrize("seed", range(6))
def test_one_pass_nobody_knows_equals_the_quantifications(backend, seed):
    rng = random.Random(seed)
    mgr = manager()
    names = [f"fc{seed}_{i}" for i in range(9)]
    mgr.declare(names)
    flip = frozenset(rng.sample(names, rng.randint(1, len(names))))
    memo: list[dict[int, Any]] = [{}, {}]
    law = mgr.true
    for _ in range(4):  # successive laws share the memo, as the protocol's rounds do
        clause = mgr.false
        for v in rng.sample(names, 3):
            clause = clause | (mgr.var(v) if rng.random() < 0.5 else ~mgr.var(v))
        law = law & clause
        expect = law
        for v in sorted(flip):
            expect = expect & mgr.forall(mgr.cube([v]), law)
        assert SP._flip_conj(mgr, law, flip, memo) == expect


def test_cudd_counts_exactly_beyond_floating_point():
    if "cudd" not in available_backends():
        pytest.skip("CUDD is not installed")
    with use_backend("cudd"):
        mgr = manager()
        assert mgr._apa is not None, "CUDD's exact count could not be reached"
        names = [f"big{i}" for i in range(150)]
        mgr.declare(names)
        u = mgr.false
        for v in names[::7]:
            u = u | mgr.var(v)
        u = u & ~(mgr.var(names[1]) & mgr.var(names[2]))
        for f in (u, ~u, u & mgr.var(names[149])):
            assert mgr.count(f, names) == mgr._count_exact(f, names)
        k = len(names[::7])
        assert mgr.count(u, names) == (2**k - 1) * 2 ** (150 - k) * 3 // 4


def test_round_worlds_are_counted_only_when_read():
    calls = []

    def worlds() -> int:
        calls.append(1)
        return 7

    r = P.MuddyRound(2, "nobody knows", worlds, ("1",))
    assert calls == [] and r.knowers == ("1",)
    assert r.worlds == 7 and r.worlds == 7 and calls == [1]
    assert r == P.MuddyRound(2, "nobody knows", 7, ("1",))
    with pytest.raises(AttributeError):
        r.round = 3  # type: ignore[misc]


def test_large_protocols_are_refused_with_the_estimate(limits):
    set_limits(max_work=10**7)
    t0 = time.perf_counter()
    pm = P.muddy_children(600, engine="symbolic")
    with pytest.raises(SizeLimitError, match=r"estimated BDD work of 3\.6.e\+07.*max_work="):
        next(iter(P.muddy_children_protocol(pm)))
    assert time.perf_counter() - t0 < 10
    set_limits(max_work=100)
    with pytest.raises(SizeLimitError, match="more than the limit of 1.00e"):
        list(P.muddy_children_protocol(P.muddy_children(12, engine="symbolic")))
    # with few muddy children the same number of children is cheap
    assert SP.muddy_protocol_work(12, 2) < 100
    rounds = list(P.muddy_children_protocol(P.muddy_children(12, [3, 9], engine="symbolic")))
    assert rounds[-1].knowers == ("3", "9")


def test_the_work_estimate_follows_the_laws():
    n = 9
    sizes = [(r + 1) * (n - r + 1) for r in range(n)]
    assert SP.muddy_protocol_work(n, n) == sum(sizes)
    assert SP.muddy_protocol_work(3000, 3000) == sum((r + 1) * (3001 - r) for r in range(3000))
    assert math.isclose(SP.muddy_protocol_work(1000, 1000), 1000**3 / 6, rel_tol=0.02)


def test_huge_muddy_children_are_refused_before_allocating():
    with pytest.raises(SizeLimitError, match=r"10+ children.*max_memory="):
        P.muddy_children(10**9, engine="symbolic")
