"""The symbolic engine agrees with the explicit one (the central property), on
both BDD backends: truth sets of random formulas on random models, in both
directions of translation, through announcements and action models."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kripke.errors import InvalidModelError, PreconditionError
from kripke.formulas import (
    TOP,
    Action,
    ActionDiamond,
    Atom,
    Formula,
    Know,
)
from kripke.models import KripkeModel, PointedModel
from kripke.parser import parse
from kripke.semantics import check, count, holds, is_valid, truth_set
from kripke.symbolic import (
    KnowledgeStructure,
    PointedStructure,
    available_backends,
    to_explicit,
    to_symbolic,
    use_backend,
)
from kripke.updates import (
    ActionModel,
    announce,
    is_bisimilar,
    private_announcement,
    product_update,
    public_announcement,
    semi_private_announcement,
)
from tests.strategies import AGENTS, ATOMS, formulas, models, pointed_models

SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture(scope="module", params=available_backends())
def backend(request: pytest.FixtureRequest):
    with use_backend(request.param):
        yield request.param


def explicit_truth(m: KripkeModel, f: Formula) -> frozenset:
    return truth_set(m, f)


def symbolic_truth(ks: KnowledgeStructure, worlds, f: Formula) -> frozenset:
    """The worlds (model labels) where the structure made from the model says ``f`` holds."""
    return frozenset(w for w in worlds if ks.holds(f, w))


# ------------------------------------------------------ the central property
@given(m=models(max_worlds=6), f=formulas(max_leaves=9))
@SETTINGS
def test_explicit_and_symbolic_truth_sets_agree(backend, m, f):
    ks = to_symbolic(m)
    assert symbolic_truth(ks, m.worlds, f) == explicit_truth(m, f)
    # and the BDD truth set is exactly the union of those worlds' states
    want = ks.manager.false
    for w in explicit_truth(m, f):
        want = want | ks.state(w)
    assert ks.truth_set(f) == want
    assert ks.count(f) == count(m, f)


@given(m=models(max_worlds=6), f=formulas(max_leaves=9))
@SETTINGS
def test_round_trip_to_symbolic_and_back(backend, m, f):
    back = to_explicit(to_symbolic(m))
    assert sorted(map(repr, back.worlds)) == sorted(map(repr, m.worlds))
    assert truth_set(back, f) == explicit_truth(m, f)


@st.composite
def structures(draw, max_relational: int = 1):
    """Random native knowledge structures over p, q, r: a random law, S5 agents
    observing random atoms, and possibly a belief agent with a random relation."""
    atoms = list(ATOMS)
    law = draw(formulas(max_leaves=5, dynamic=False).filter(lambda g: g.is_propositional()))
    obs = {}
    rel_agents = draw(st.integers(0, max_relational))
    for a in AGENTS[: len(AGENTS) - rel_agents]:
        obs[a] = draw(st.lists(st.sampled_from(atoms), unique=True, max_size=3))
    rel = {}
    if rel_agents:
        from kripke.symbolic import manager

        mgr = manager()
        mgr.declare(atoms)
        pairs = draw(
            st.lists(
                st.tuples(st.lists(st.booleans(), min_size=3, max_size=3),
                          st.lists(st.booleans(), min_size=3, max_size=3)),
                max_size=12,
            )
        )  # fmt: skip
        r = mgr.false
        for s, t in pairs:
            cube = mgr.true
            for a, bs, bt in zip(atoms, s, t, strict=True):
                cube = cube & (mgr.var(a) if bs else ~mgr.var(a))
                cube = cube & (mgr.primed(a) if bt else ~mgr.primed(a))
            r = r | cube
        rel[AGENTS[-1]] = r
    return KnowledgeStructure(atoms, law, obs, rel)


@given(data=st.data())
@SETTINGS
def test_native_structures_agree_with_their_explicit_models(backend, data):
    ks = data.draw(structures())
    f = data.draw(formulas(max_leaves=8))
    m = to_explicit(ks)
    assert m.num_worlds == ks.num_states()
    for w in m.worlds:
        assert ks.holds(f, w) == (w in truth_set(m, f)), w
    assert ks.is_valid(f) == is_valid(m, f)


# --------------------------------------------------- announcements, actions
@given(pm=pointed_models(max_worlds=6), f=formulas(max_leaves=5), g=formulas(max_leaves=6))
@SETTINGS
def test_announcements_agree(backend, pm, f, g):
    ps = to_symbolic(pm)
    assert holds(ps, f) == holds(pm, f)
    if holds(pm, f):
        after_e = announce(pm, f)
        after_s = announce(ps, f)
        assert holds(after_s, g) == holds(after_e, g)
        assert after_s.num_states() == after_e.model.num_worlds
        assert is_bisimilar(to_explicit(after_s), after_e)
    else:
        with pytest.raises(PreconditionError):
            announce(ps, f)


def _actions(f: Formula, a: str, agents) -> list[ActionModel]:
    flip = ActionModel(
        "Flip", {"e": TOP, "f": f}, {x: ([["e", "f"]] if x != a else [["e"], ["f"]]) for x in agents},
        {"f": {"p": ~Atom("p")}, "e": {"q": f}},
    )  # fmt: skip
    return [
        public_announcement(f, agents, name="Pub"),
        private_announcement(f, [a], agents, name="Priv"),
        semi_private_announcement(f, [a], agents, name="Semi"),
        flip,
    ]


@given(
    m=models(max_worlds=5),
    f=formulas(max_leaves=4),
    g=formulas(max_leaves=6),
    a=st.sampled_from(AGENTS),
)
@SETTINGS
def test_action_models_agree(backend, m, f, g, a):
    ks = to_symbolic(m)
    for A in _actions(f, a, m.agents):
        for e in A.events:
            for op in (Action, ActionDiamond):
                h = op(A, (e,), g)
                assert symbolic_truth(ks, m.worlds, h) == explicit_truth(m, h), (A.name, e, op)
        both = Action(A, tuple(A.events), g)
        assert symbolic_truth(ks, m.worlds, both) == explicit_truth(m, both)


@given(pm=pointed_models(max_worlds=5), f=formulas(max_leaves=4), g=formulas(max_leaves=7),
       a=st.sampled_from(AGENTS))  # fmt: skip
@SETTINGS
def test_product_updates_are_bisimilar(backend, pm, f, g, a):
    ps = to_symbolic(pm)
    for A in _actions(f, a, pm.model.agents):
        try:
            after_e = product_update(pm, A)
        except PreconditionError:
            with pytest.raises(PreconditionError):
                product_update(ps, A)
            continue
        for optimize in (True, False):
            after_s = ps.product_update(A, optimize=optimize)
            assert holds(after_s, g) == holds(after_e, g), (A.name, optimize)
            assert is_bisimilar(to_explicit(after_s), after_e), (A.name, optimize)


@given(
    m=models(max_worlds=5),
    f=formulas(max_leaves=4),
    g=formulas(max_leaves=4),
    h=formulas(max_leaves=6),
)
@SETTINGS
def test_announcing_whether_agrees(backend, m, f, g, h):
    """[!f]h & [!~f]h is evaluated with one fresh variable everybody observes;
    stacks of them too (as in the dining cryptographers)."""
    from kripke.puzzles import announce_whether

    ks = to_symbolic(m)
    for phi in (announce_whether(f, h), announce_whether(f, announce_whether(g, h))):
        assert symbolic_truth(ks, m.worlds, phi) == explicit_truth(m, phi)


def test_deeply_nested_announcements():
    """Hundreds of nested announcements evaluate without exhausting the Python stack."""
    from kripke.puzzles import drinking_logicians, drinking_logicians_formula

    n = 500
    with use_backend(available_backends()[0]):
        assert holds(drinking_logicians(n, engine="symbolic"), drinking_logicians_formula(n))


# ------------------------------------------------------------ entry points
def test_check_converts_explicit_models(backend):
    m = KripkeModel.from_partitions(
        ["w1", "w2", "w3"],
        {"w1": ["p"], "w2": ["p", "q"]},
        {"a": [["w1", "w2"], ["w3"]], "b": [["w1"], ["w2", "w3"]]},
    )
    f = parse("K_a p & ~C_{a,b} p")
    for w in m.worlds:
        assert check(m, f, engine="symbolic", state=w) == check(m, f, state=w)
    pm = PointedModel(m, "w1")
    assert check(pm, f, engine="symbolic") == check(pm, f)
    assert check(m, "p | ~p", engine="symbolic") and not check(m, "p", engine="symbolic")
    ps = to_symbolic(pm)
    assert check(ps, f, engine="explicit") == check(pm, f)
    assert truth_set(ps, "p") == ps.structure.state("w1") | ps.structure.state("w2")


def test_pointed_structures_through_the_common_entry_points(backend):
    ks = KnowledgeStructure(["p", "q"], "p | q", {"a": ["p"], "b": ["q"]})
    ps = PointedStructure(ks, {"p", "q"})
    assert holds(ps, "K_a p & ~K_b p & M_b p")
    assert holds(ps, "D_{a,b} (p & q)") and not holds(ps, "E_{a,b} p")
    assert not holds(ps, "C_{a,b} (p | q) -> C_{a,b} p")
    assert is_valid(ks, "C_{a,b} (p | q)")
    assert count(ks, "p") == 2 and ks.num_states() == 3
    after = announce(ps, "~K_b p")
    assert after.num_states() == 2 and holds(after, "K_b ~q -> K_b p")
    with pytest.raises(PreconditionError, match="false at the actual state"):
        announce(ps, "~q")
    assert holds(ps, "[!q] K_b q") and holds(ps, "<!K_a p> K_a p")
    assert ks.holds("K_a p", {"p", "q"}) and ks.holds("~K_a q", {"p": True, "q": True})
    assert ks.probability("p") == Fraction(2, 3) and ks.probability("q", given="p") == Fraction(
        1, 2
    )


def test_belief_agents_k_and_kd45(backend):
    """A belief agent that wrongly believes p: KD45 but not S5."""
    ks0 = KnowledgeStructure(["p"], observes={"a": []})
    mgr = ks0.manager
    p, pp = ks0.var("p"), ks0.primed("p")
    believes_p = pp  # every state sees the p-state: serial, transitive, euclidean
    ks = KnowledgeStructure(["p"], observes={"a": ["p"]}, relations={"b": believes_p})
    assert not ks.is_s5("b") and ks.is_s5("a")
    assert ks.holds("K_b p & ~p", set())
    assert ks.is_valid("K_b p -> K_b K_b p") and ks.is_valid("~K_b p -> K_b ~K_b p")
    assert not ks.is_valid("K_b p -> p")
    # a K agent with a dead end believes everything there
    dead = ks0.manager.false | (~p & pp)
    ks2 = KnowledgeStructure(["p"], relations={"c": dead})
    assert ks2.holds("K_c bot", {"p"}) and not ks2.holds("K_c bot", set())
    explicit = to_explicit(ks)
    assert not explicit.is_s5("b") and explicit.relation_properties("b")["euclidean"]
    assert mgr is ks2.manager


def test_errors_name_the_bad_input(backend):
    from kripke.errors import EngineError, UnknownAgentError, UnknownAtomError, UnknownWorldError

    ks = KnowledgeStructure(["p", "q"], observes={"a": ["p"]})
    with pytest.raises(UnknownAtomError, match="'r'"):
        ks.truth_set("r & p")
    with pytest.raises(UnknownAgentError, match="'z'"):
        ks.is_valid("K_z p")
    with pytest.raises(UnknownAtomError, match="'x'"):
        KnowledgeStructure(["p"], observes={"a": ["x"]})
    with pytest.raises(InvalidModelError, match="twice"):
        KnowledgeStructure(["p", "p"])
    with pytest.raises(EngineError, match="propositional"):
        KnowledgeStructure(["p"], "K_a p", {"a": []})
    with pytest.raises(UnknownWorldError, match=r"\{p, q\} is not a state"):
        KnowledgeStructure(["p", "q"], "~(p & q)").holds("p", {"p", "q"})
    with pytest.raises(UnknownWorldError, match="set of atoms"):
        ks.holds("p", "p")
    with pytest.raises(InvalidModelError, match="no relation for agent 'a'"):
        PointedStructure(ks, {"p"}).product_update(ActionModel("A", {"e": "top"}, {"b": [["e"]]}))
    with pytest.raises(EngineError, match="unknown BDD backend"):
        with use_backend("quantum"):
            pass


def test_knowledge_nested_in_actions(backend):
    """[A,e] K_b p after a private announcement to a: b is unaware (BMS 1998)."""
    m = KripkeModel.from_partitions(
        ["w1", "w2"], {"w1": ["p"]}, {"a": [["w1", "w2"]], "b": [["w1", "w2"]]}
    )
    A = private_announcement("p", ["a"], ["a", "b"])
    ps = to_symbolic(PointedModel(m, "w1"))
    assert holds(ps, Action(A, ("e",), Know("a", Atom("p")) & ~Know("b", Atom("p"))))
    after = product_update(ps, A, "e")
    assert holds(after, "K_a p & ~K_b p & K_b ~K_a p")
    assert not after.structure.is_s5("b")


def test_small_structures_draw_as_their_explicit_model_and_large_ones_as_text():
    from kripke.puzzles import muddy_children

    small = muddy_children(3, [1], engine="symbolic")
    assert small._repr_png_()[:4] == b"\x89PNG"
    assert small.structure._repr_png_()[:4] == b"\x89PNG"
    assert muddy_children(7, [1], engine="symbolic")._repr_png_() is None


@given(pm=pointed_models(max_worlds=6), f=formulas(max_leaves=5))
@SETTINGS
def test_agent_probabilities_are_shares_of_the_accessible_worlds(backend, pm, f):
    """An agent's probability at the actual state: the symbolic count over the states it
    considers possible equals the share of accessible worlds in the explicit model."""
    ps = to_symbolic(pm)
    truth = truth_set(pm.model, f)
    for a in pm.model.agents:
        seen = list(pm.model.accessible(a, pm.actual))
        if not seen:
            with pytest.raises(PreconditionError):
                ps.probability(a, f)
            continue
        share = Fraction(sum(w in truth for w in seen), len(seen))
        assert ps.probability(a, f) == share
        assert ps.probability(a, f, exact=False) == pytest.approx(float(share))
