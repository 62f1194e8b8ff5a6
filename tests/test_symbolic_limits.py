"""Exact counting, size limits, backends and the programmatic API of the
symbolic engine (the pieces card games build on)."""

from __future__ import annotations

import gc
import math
import os
import subprocess
import sys
from fractions import Fraction

import pytest

from kripke.errors import EngineError, InvalidModelError, SizeLimitError
from kripke.formulas import Iff, atom, conj, disj
from kripke.puzzles import muddy_children
from kripke.semantics import count
from kripke.symbolic import (
    KnowledgeStructure,
    PointedStructure,
    at_least,
    at_most,
    available_backends,
    bdd_of,
    between,
    exactly,
    get_limits,
    manager,
    set_limits,
    to_explicit,
    use_backend,
)
from kripke.symbolic._bdd import ENV_VAR, _restore_limits


def card_deal(ncards: int, per_seat: int) -> KnowledgeStructure:
    seats = ["p1", "p2", "p3", "p4"]
    has = {(s, c): f"has({s}, c{c})" for s in seats for c in range(ncards)}
    vocab = [has[s, c] for c in range(ncards) for s in seats]  # card-major order
    law = manager().true
    for c in range(ncards):
        law = law & exactly(1, [has[s, c] for s in seats])
    for s in seats:
        law = law & exactly(per_seat, [has[s, c] for c in range(ncards)])
    return KnowledgeStructure(vocab, law, {s: [has[s, c] for c in range(ncards)] for s in seats})


# ------------------------------------------------------------------ counting
def test_exact_counts_beyond_floating_point(backend):
    """32 cards dealt 8 each to four seats: 32!/(8!)^4 deals, more than 2**53."""
    ks = card_deal(32, 8)
    deals = math.factorial(32) // math.factorial(8) ** 4
    assert deals > 2**53 and ks.num_states() == deals
    assert ks.count("has(p1, c0)") == deals // 4
    assert ks.probability("has(p2, c5)", given="has(p1, c0)") == Fraction(8, 31)
    fast = ks.probability("has(p2, c5)", given="has(p1, c0)", exact=False)
    assert isinstance(fast, float) and abs(fast - 8 / 31) < 1e-12
    # what p1 knows in one deal: the other 24 cards split 8/8/8 among three seats
    hand = {f"has(p1, c{c})" for c in range(8)}
    rest = {
        f"has({s}, c{c})"
        for s, lo in (("p2", 8), ("p3", 16), ("p4", 24))
        for c in range(lo, lo + 8)
    }
    pm = PointedStructure(ks, hand | rest)
    seen = conj(atom("has", "p1", f"c{c}") for c in range(8))
    assert ks.count(seen) == math.factorial(24) // math.factorial(8) ** 3
    assert pm.holds("K_p1 ~has(p2, c0) & ~Kw_p1 has(p2, c8)")


def test_counts_of_a_large_vocabulary(backend):
    n = 100
    pm = muddy_children(n, [1], engine="symbolic")
    father = disj(atom(f"m{i}") for i in range(1, n + 1))
    assert count(pm, father) == 2**n - 1
    # child 1 knows it is muddy exactly where no other child is
    assert count(pm, "K_1 m1") == 0
    assert count(pm.announce(father), "K_1 m1") == 1
    assert count(pm.announce(father), "~Kw_1 m1") == 2**n - 2


def test_counting_constraints_match_binomials(backend):
    names = [f"q{i}" for i in range(12)]
    mgr = manager()
    for lo, hi in [(0, 0), (3, 3), (2, 7), (0, 12), (5, 4)]:
        u = between(lo, hi, names)
        assert mgr.count(u, names) == sum(math.comb(12, k) for k in range(lo, hi + 1))
    assert mgr.count(at_least(10, names), names) == sum(math.comb(12, k) for k in (10, 11, 12))
    assert mgr.count(at_most(1, names), names) == 13
    assert mgr.count(bdd_of("q0 -> q1"), ["q0", "q1"]) == 3


# --------------------------------------------------------------- size limits
def test_to_explicit_refuses_large_structures(backend, limits):
    set_limits(max_states=10)
    with pytest.raises(SizeLimitError, match="32 states, more than the 10"):
        to_explicit(muddy_children(5, engine="symbolic"))
    assert to_explicit(muddy_children(3, engine="symbolic")).model.num_worlds == 8


def test_blowup_raises_size_limit_error(backend, limits):
    """x_i <-> y_i with every x before every y needs 2^n nodes: a clear error, not a hang."""
    n = 40
    xs, ys = [f"bx{i}" for i in range(n)], [f"by{i}" for i in range(n)]
    law = conj(Iff(atom(x), atom(y)) for x, y in zip(xs, ys, strict=True))
    mgr = manager()
    if backend == "cudd":
        gc.collect()  # BDDs of earlier tests freed now, not inside the blow-up
        set_limits(max_memory=mgr.memory_in_use() + 16 * 2**20)
    else:
        set_limits(max_nodes=len(mgr.bdd) + 20_000)
    with pytest.raises(SizeLimitError, match="set_limits"):
        KnowledgeStructure(xs + ys, law)
    _restore_limits(get_limits() | {"max_memory": None})
    # the manager still works afterwards, and a good order makes the law small
    set_limits(max_nodes=50_000_000)
    good = KnowledgeStructure(
        xs + ys, law, order=[v for pair in zip(xs, ys, strict=True) for v in pair]
    )
    assert good.num_states() == 2**n


def test_set_limits_validates():
    with pytest.raises(EngineError, match="max_states must be a positive integer"):
        set_limits(max_states=0)


# ------------------------------------------------------------------ backends
def test_environment_variable_chooses_the_backend():
    code = "from kripke.symbolic import get_backend; print(get_backend())"
    for name in available_backends():
        env = dict(os.environ, **{ENV_VAR: name})
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        assert out.stdout.strip() == name, out.stderr
    env = dict(os.environ, **{ENV_VAR: "quantum"})
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert "unknown BDD backend 'quantum'" in out.stderr


def test_only_one_module_imports_dd():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "kripke"
    importers = sorted(
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if "import dd" in p.read_text() or "from dd" in p.read_text()
    )
    assert importers == ["symbolic/_bdd.py"]


def test_structures_of_different_backends_do_not_mix():
    if len(available_backends()) < 2:
        pytest.skip("only one backend installed")
    with use_backend("autoref"):
        foreign = bdd_of("p")
    with use_backend("cudd"), pytest.raises(InvalidModelError, match="another BDD manager"):
        KnowledgeStructure(["p"], foreign)


# ----------------------------------------------------------- programmatic API
def test_structures_from_bdds_orders_and_definitions(backend):
    law = exactly(1, ["loc(c, 0)", "loc(c, 1)"])
    ks = KnowledgeStructure(
        ["loc(c, 0)", "loc(c, 1)", "seen"],
        law,
        {"a": ["loc(c, 0)", "loc(c, 1)"], "b": ["seen"]},
        definitions={"has(a, c)": "loc(c, 0)", "has(b, c)": "loc(c, 1) & seen"},
        order=["seen", "loc(c, 0)", "loc(c, 1)"],
    )
    assert ks.num_states() == 4
    assert ks.is_valid("K_a has(a, c) | K_a ~has(a, c)")
    assert ks.count("has(b, c)") == 1
    assert sorted(map(sorted, ks.states("has(b, c)"))) == [["has(b, c)", "loc(c, 1)", "seen"]]
    assert ks.holds("~K_b has(a, c)", {"loc(c, 1)"})
    m = to_explicit(ks)
    assert m.num_worlds == 4 and "has(b, c)" in m.atoms
    with pytest.raises(InvalidModelError, match="defined atom"):
        KnowledgeStructure(["p"], observes={"a": ["d"]}, definitions={"d": "p"})
    mgr = manager()
    assert mgr.level("seen") < mgr.level("loc(c, 0)") < mgr.level("loc(c, 1)")


def test_announcements_reuse_structures(backend):
    """Announcing restricts the law once; checking [!f]g later reuses that structure."""
    pm = muddy_children(8, engine="symbolic")
    father = disj(atom(f"m{i}") for i in range(1, 9))
    after = pm.announce(father)
    g = atom("m1") | atom("m2")
    assert pm.holds(father) and after.holds(g)
    from kripke.formulas import Announce

    before = len(after.structure._memo)
    assert pm.holds(Announce(father, g))
    assert len(after.structure._memo) == before  # g was looked up, not recomputed
    assert pm.structure.announce(father) is after.structure
