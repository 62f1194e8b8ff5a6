"""Reducing announcements away and S5 introspection give equivalent formulas.

Both are checked against the explicit engine on random models and formulas
(:mod:`tests.strategies`): the announcement reduction on every model (the reduction
axioms of public announcement logic hold without S5), introspection on S5 models.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from kripke import holds
from kripke.formulas import Announce, AnnounceDiamond, Common
from kripke.models import PointedModel
from kripke.parser import parse
from kripke.reduction import introspect, reduce_announcements
from tests.strategies import formulas, models, pointed_models


def _announcements(f) -> list:
    out = [f] if isinstance(f, (Announce, AnnounceDiamond)) else []
    for k in f.children():
        out += _announcements(k)
    return out


def _only_over_common(f) -> bool:
    """Every announcement left has common knowledge inside."""

    def has_common(g) -> bool:
        return isinstance(g, Common) or any(has_common(k) for k in g.children())

    return all(has_common(a.arg) for a in _announcements(f))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pm=pointed_models(), f=formulas(max_leaves=8))
def test_reduced_announcements_are_equivalent(pm, f):
    g = reduce_announcements(f)
    assert holds(pm, g) == holds(pm, f), (str(f), str(g))
    assert _only_over_common(g), str(g)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(m=models(s5=True), f=formulas(max_leaves=8))
def test_introspection_is_equivalent_on_s5_models(m, f):
    g = introspect(f)
    for w in m.worlds:
        pm = PointedModel(m, w)
        assert holds(pm, g) == holds(pm, f), (str(f), str(g))


def test_introspection_needs_s5():
    """On a model that is not S5 an agent may know p without knowing that it knows it."""
    from kripke.models import KripkeModel

    m = KripkeModel.from_relations(
        ["u", "v", "w"], {"u": ["p"], "v": ["p"], "w": []}, {"a": [("u", "v"), ("v", "w")]}
    )
    f = parse("K_a K_a p")
    assert holds(PointedModel(m, "u"), introspect(f)) != holds(PointedModel(m, "u"), f)


def test_known_reductions():
    """Textbook instances (van Ditmarsch, van der Hoek and Kooi 2007, section 7.4): after a
    truthful announcement of p everybody knows p; announcing a Moore sentence makes it
    false."""
    assert str(reduce_announcements(parse("[!p] K_a p"))) == "p -> K_a (p -> p)"
    moore = parse("p & ~K_a p")
    g = reduce_announcements(parse("[!p & ~K_a p] ~(p & ~K_a p)"))
    assert not _announcements(g)
    from kripke.models import KripkeModel

    m = KripkeModel.from_partitions(["u", "v"], {"u": ["p"], "v": []}, {"a": [["u", "v"]]})
    pm = PointedModel(m, "u")
    assert holds(pm, moore) and holds(pm, g)  # after saying it, it is no longer true
