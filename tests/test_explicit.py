"""The explicit engine against a naive reference evaluator, and the logic's laws."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kripke.errors import UnknownAgentError, UnknownAtomError
from kripke.explicit import truth_array
from kripke.formulas import (
    And,
    Announce,
    Atom,
    Common,
    Everybody,
    Iff,
    Implies,
    Know,
    Not,
)
from kripke.models import KripkeModel, PointedModel
from kripke.parser import parse
from kripke.semantics import check, count, holds, is_valid, truth_set
from tests.naive import NaiveModel
from tests.strategies import AGENTS, formulas, models


@given(models(), formulas())
@settings(max_examples=250, deadline=None)
def test_engine_agrees_with_naive_evaluator(m, f):
    assert truth_set(m, f) == frozenset(NaiveModel.of(m).truth(f))


@given(models(s5=True), formulas(max_leaves=5), formulas(max_leaves=5), st.sampled_from(AGENTS))
@settings(max_examples=150, deadline=None)
def test_s5_axioms_valid_on_s5_models(m, f, g, a):
    axioms = [
        Implies(Know(a, Implies(f, g)), Implies(Know(a, f), Know(a, g))),  # K
        Implies(Know(a, f), f),  # T
        Implies(Know(a, f), Know(a, Know(a, f))),  # 4
        Implies(Not(Know(a, f)), Know(a, Not(Know(a, f)))),  # 5
    ]
    for ax in axioms:
        assert is_valid(m, ax), ax


@given(models(), formulas(max_leaves=5), formulas(max_leaves=5), st.sampled_from(AGENTS))
@settings(max_examples=150, deadline=None)
def test_public_announcement_reduction_axioms(m, f, g, a):
    p = Atom("p")
    axioms = [
        Iff(Announce(f, p), Implies(f, p)),
        Iff(Announce(f, Not(g)), Implies(f, Not(Announce(f, g)))),
        Iff(Announce(f, And((g, p))), And((Announce(f, g), Announce(f, p)))),
        Iff(Announce(f, Know(a, g)), Implies(f, Know(a, Announce(f, g)))),
        Iff(Announce(f, Announce(g, p)), Announce(And((f, Announce(f, g))), p)),
    ]
    for ax in axioms:
        assert is_valid(m, ax), ax


def _gfp(m, group, phi_t):
    """Greatest fixed point of X = E_G(phi & X), computed on python sets."""
    X = set(m.worlds)
    while True:
        inner = {w for w in X if w in phi_t}
        new = {w for w in m.worlds if all(set(m.accessible(a, w)) <= inner for a in group)}
        if new == X:
            return X
        X = new


@given(models(), formulas(max_leaves=6), st.lists(st.sampled_from(AGENTS), min_size=1, unique=True))
@settings(max_examples=150, deadline=None)
def test_common_knowledge_is_greatest_fixed_point(m, f, group):
    group = tuple(group)
    ck = truth_set(m, Common(group, f))
    assert ck == frozenset(_gfp(m, group, truth_set(m, f)))
    assert is_valid(m, Iff(Common(group, f), Everybody(group, And((f, Common(group, f))))))


def test_truth_set_holds_check_count():
    m = KripkeModel.from_partitions(
        ["w1", "w2", "w3"], {"w1": ["p"], "w2": ["p", "q"], "w3": []}, {"a": [["w1", "w2"], ["w3"]]}
    )
    assert truth_set(m, "K_a p") == {"w1", "w2"}
    assert holds(PointedModel(m, "w1"), "K_a p")
    assert check(m, "K_a p", state="w3") is False
    assert check(m, "K_a p | K_a ~p") is True
    assert count(m, "p") == 2
    assert holds(PointedModel(m, {"w1", "w3"}), "Kw_a p")


def test_general_relations_kd45_beliefs_can_be_false():
    # a believes p at w0 although p is false there (KD45, not S5)
    m = KripkeModel.from_relations(["w0", "w1"], {"w1": ["p"]}, {"a": [("w0", "w1"), ("w1", "w1")]})
    assert not m.is_s5("a")
    assert holds(PointedModel(m, "w0"), "K_a p & ~p")
    props = m.relation_properties("a")
    assert props["serial"] and props["transitive"] and props["euclidean"] and not props["reflexive"]


def test_equivalence_relations_become_partitions():
    m = KripkeModel.from_relations([1, 2, 3], {}, {"a": [(1, 1), (2, 2), (3, 3), (1, 2), (2, 1)]})
    assert m.is_s5("a") and sorted(map(sorted, m.classes("a"))) == [[1, 2], [3]]


def test_unknown_agent_and_atom_are_named():
    m = KripkeModel.from_partitions(["w"], {"w": ["p"]}, {"a": [["w"]]})
    with pytest.raises(UnknownAgentError, match="'zed'"):
        truth_set(m, "K_zed p")
    with pytest.raises(UnknownAtomError, match="'nope'"):
        truth_set(m, "nope")


def test_truth_arrays_are_read_only():
    m = KripkeModel.from_partitions(["w"], {"w": ["p"]}, {"a": [["w"]]})
    t = truth_array(m, Atom("p"))
    with pytest.raises(ValueError):
        t[0] = False


def test_large_partition_model_common_knowledge():
    # 2^14 worlds: common knowledge among two agents over many classes, vectorised
    n = 1 << 14
    w = np.arange(n)
    from kripke.models import Partition

    val = np.stack([(w & 1).astype(bool)])
    m = KripkeModel(
        w,
        ["p"],
        val,
        {"a": Partition.from_labels(w // 2), "b": Partition.from_labels((w + 1) // 2)},
    )
    # a links 2k,2k+1; b links 2k-1,2k: everything is one chain, so nothing is common knowledge but top
    assert truth_array(m, parse("C_{a,b} (p | ~p)")).all()
    assert truth_array(m, parse("C_{a,b} p")).sum() == 0
    assert truth_array(m, parse("C_{a} (p | K_a ~p)")).sum() == 0
