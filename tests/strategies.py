"""Hypothesis strategies shared by the test suite: random models and formulas."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from kripke.formulas import (
    BOT,
    TOP,
    And,
    Announce,
    AnnounceDiamond,
    Atom,
    Common,
    Distributed,
    Everybody,
    Formula,
    Iff,
    Implies,
    Know,
    KnowWhether,
    Not,
    Or,
    Possible,
)
from kripke.models import KripkeModel, PointedModel

ATOMS = ("p", "q", "r")
AGENTS = ("a", "b", "c")


def formulas(
    atoms=ATOMS, agents=AGENTS, max_leaves: int = 12, dynamic: bool = True
) -> st.SearchStrategy[Formula]:
    leaves = st.one_of(st.sampled_from([Atom(a) for a in atoms]), st.sampled_from([TOP, BOT]))
    groups = st.lists(st.sampled_from(agents), min_size=1, max_size=len(agents), unique=True).map(
        tuple
    )

    def extend(children: st.SearchStrategy[Formula]) -> st.SearchStrategy[Formula]:
        ag = st.sampled_from(agents)
        opts = [
            children.map(Not),
            st.lists(children, min_size=2, max_size=3).map(lambda xs: And(tuple(xs))),
            st.lists(children, min_size=2, max_size=3).map(lambda xs: Or(tuple(xs))),
            st.builds(Implies, children, children),
            st.builds(Iff, children, children),
            st.builds(Know, ag, children),
            st.builds(Possible, ag, children),
            st.builds(KnowWhether, ag, children),
            st.builds(Everybody, groups, children),
            st.builds(Common, groups, children),
            st.builds(Distributed, groups, children),
        ]
        if dynamic:
            opts += [
                st.builds(Announce, children, children),
                st.builds(AnnounceDiamond, children, children),
            ]
        return st.one_of(*opts)

    return st.recursive(leaves, extend, max_leaves=max_leaves)


@st.composite
def models(
    draw, s5: bool | None = None, max_worlds: int = 7, atoms=ATOMS, agents=AGENTS
) -> KripkeModel:
    """Random small models; ``s5`` True gives partitions, False general relations, None either."""
    n = draw(st.integers(1, max_worlds))
    worlds = [f"w{i}" for i in range(n)]
    val = {w: [a for a in atoms if draw(st.booleans())] for w in worlds}
    kind = s5 if s5 is not None else draw(st.booleans())
    if kind:
        parts = {}
        for ag in agents:
            labels = draw(st.lists(st.integers(0, n - 1), min_size=n, max_size=n))
            classes: dict[int, list[str]] = {}
            for w, lab in zip(worlds, labels, strict=True):
                classes.setdefault(lab, []).append(w)
            parts[ag] = list(classes.values())
        return KripkeModel.from_partitions(worlds, val, parts, atoms=atoms)
    rels = {}
    for ag in agents:
        pairs = draw(
            st.lists(st.tuples(st.sampled_from(worlds), st.sampled_from(worlds)), max_size=n * n)
        )
        rels[ag] = pairs
    return KripkeModel.from_relations(worlds, val, rels, atoms=atoms)


@st.composite
def pointed_models(draw, s5: bool | None = None, max_worlds: int = 7) -> PointedModel:
    m = draw(models(s5=s5, max_worlds=max_worlds))
    w = draw(st.sampled_from(m.worlds))
    return PointedModel(m, w)


def random_partition_labels(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.integers(0, max(1, n // 2), size=n)
