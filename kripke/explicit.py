"""The explicit engine: truth sets of formulas on :class:`~kripke.models.KripkeModel`.

Truth sets are numpy boolean arrays computed bottom-up and memoised per model
(models are immutable, so the memo never goes stale).

Notes
-----
Truth clauses, for a model *M* and world *w*:

* ``K_a f``: *f* holds at every *v* with *w R_a v*; ``M_a f`` at some such *v*;
  ``Kw_a f`` iff ``K_a f`` or ``K_a ~f``.
* ``E_G f``: ``K_a f`` for every *a* in *G*.
* ``C_G f``: *f* holds at every *v* reachable from *w* in one or more steps of
  the union of *G*'s relations (for S5 agents: *w*'s connected component).
* ``D_G f``: *f* holds at every *v* with *w* (∩ R_a) *v*.
* ``[!f] g``: if *f* holds at *w* then *g* holds at *w* in *M* restricted to
  the *f*-worlds; ``<!f> g``: *f* holds and so does *g* after.
* ``[A,e] g``: if ``pre(e)`` holds at *w* then *g* holds at *(w, e)* in the
  product update *M ⊗ A* (van Ditmarsch, van der Hoek & Kooi, *Dynamic
  Epistemic Logic*, 2007, ch. 6).
"""

from __future__ import annotations

from functools import reduce
from typing import Any

import numpy as np

from kripke.formulas import (
    Action,
    ActionDiamond,
    And,
    Announce,
    AnnounceDiamond,
    Atom,
    Bottom,
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
    Top,
)
from kripke.models import KripkeModel, Partition, partition_components

__all__ = ["truth_array", "box", "common_box", "distributed_box"]


def truth_array(model: KripkeModel, f: Formula) -> np.ndarray:
    """Boolean array over the model's worlds: where ``f`` is true (read-only)."""
    if not isinstance(f, Formula):
        raise TypeError(f"expected a Formula, got {type(f).__name__}")
    return _Evaluator(model).truth(f)


def box(model: KripkeModel, agent: str, t: np.ndarray) -> np.ndarray:
    """Worlds where every ``agent``-successor is in ``t``."""
    rel = model.relation(agent)
    if isinstance(rel, Partition):
        bad = np.zeros(rel.num_classes, dtype=bool)
        bad[rel.labels[~t]] = True
        return ~bad[rel.labels]
    out = np.ones(model.num_worlds, dtype=bool)
    out[rel.src[~t[rel.dst]]] = False
    return out


def _group_edges(model: KripkeModel, group: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    srcs, dsts = [], []
    for a in group:
        s, d = model.relation(a).edges()
        srcs.append(s)
        dsts.append(d)
    return np.concatenate(srcs), np.concatenate(dsts)


def common_box(model: KripkeModel, group: tuple[str, ...], t: np.ndarray) -> np.ndarray:
    """Worlds from which every world reachable in ≥1 step of the group's relations is in ``t``."""
    rels = [model.relation(a) for a in group]
    n = model.num_worlds
    if all(isinstance(r, Partition) for r in rels):
        key = ("components", tuple(sorted(set(group))))
        comp = model._cache.get(key)
        if comp is None:
            comp = partition_components(n, rels)  # type: ignore[arg-type]
            model._cache[key] = comp
        bad = np.zeros(n, dtype=bool)
        bad[comp[~t]] = True
        return ~bad[comp]
    src, dst = _group_edges(model, group)
    # backward reachability of the ~t worlds in one or more steps
    bad = np.zeros(n, dtype=bool)
    frontier = ~t
    while frontier.any():
        hit = np.zeros(n, dtype=bool)
        hit[src[frontier[dst]]] = True
        frontier = hit & ~bad
        bad |= hit
    return ~bad


def distributed_box(model: KripkeModel, group: tuple[str, ...], t: np.ndarray) -> np.ndarray:
    """Worlds where every successor in the intersection of the group's relations is in ``t``."""
    rels = [model.relation(a) for a in group]
    n = model.num_worlds
    if all(isinstance(r, Partition) for r in rels):
        key = ("meet", tuple(sorted(set(group))))
        meet = model._cache.get(key)
        if meet is None:
            stacked = np.stack([r.labels for r in rels], axis=1)  # type: ignore[union-attr]
            _, inv = np.unique(stacked, axis=0, return_inverse=True)
            inv = inv.reshape(-1)
            meet = Partition(inv.astype(np.int64), int(inv.max()) + 1 if n else 0)
            model._cache[key] = meet
        bad = np.zeros(meet.num_classes, dtype=bool)
        bad[meet.labels[~t]] = True
        return ~bad[meet.labels]
    codes = None
    for r in rels:
        s, d = r.edges()
        c = np.unique(s * n + d)
        codes = c if codes is None else np.intersect1d(codes, c, assume_unique=True)
    assert codes is not None
    src, dst = codes // n, codes % n
    out = np.ones(n, dtype=bool)
    out[src[~t[dst]]] = False
    return out


class _Evaluator:
    def __init__(self, model: KripkeModel):
        self.model = model
        self.memo: dict[Formula, np.ndarray] = model._cache.setdefault("truth", {})

    def truth(self, f: Formula) -> np.ndarray:
        hit = self.memo.get(f)
        if hit is not None:
            return hit
        # Without recursion, so any nesting depth evaluates: a node is computed
        # once everything it needs (its subformulas, in this model or in an
        # updated one) is in the memo.
        stack: list[tuple[_Evaluator, Formula]] = [(self, f)]
        while stack:
            ev, g = stack[-1]
            if g in ev.memo:
                stack.pop()
                continue
            todo = ev._missing(g)
            if todo:
                stack.extend(todo)
                continue
            stack.pop()
            r = ev._compute(g)
            r.flags.writeable = False
            ev.memo[g] = r
        return self.memo[f]

    def _missing(self, f: Formula) -> list[tuple[_Evaluator, Formula]]:
        """What ``_compute(f)`` needs that is not memoised yet."""
        match f:
            case Announce(ann, arg) | AnnounceDiamond(ann, arg):
                t = self.memo.get(ann)
                if t is None:
                    return [(self, ann)]
                sub = _Evaluator(self._restricted(ann, t))
                return [] if arg in sub.memo else [(sub, arg)]
            case Action(model, _, arg) | ActionDiamond(model, _, arg):
                sub = _Evaluator(self._product(model)[0])
                return [] if arg in sub.memo else [(sub, arg)]
            case _:
                return [(self, c) for c in f.children() if c not in self.memo]

    def _compute(self, f: Formula) -> np.ndarray:
        m = self.model
        n = m.num_worlds
        match f:
            case Top():
                return np.ones(n, dtype=bool)
            case Bottom():
                return np.zeros(n, dtype=bool)
            case Atom():
                return m.atom_row(f).copy()
            case Not(arg):
                return ~self.truth(arg)
            case And(args):
                return reduce(np.logical_and, (self.truth(a) for a in args))
            case Or(args):
                return reduce(np.logical_or, (self.truth(a) for a in args))
            case Implies(left, right):
                return ~self.truth(left) | self.truth(right)
            case Iff(left, right):
                return self.truth(left) == self.truth(right)
            case Know(agent, arg):
                return box(m, agent, self.truth(arg))
            case Possible(agent, arg):
                return ~box(m, agent, ~self.truth(arg))
            case KnowWhether(agent, arg):
                t = self.truth(arg)
                rel = m.relation(agent)
                if isinstance(rel, Partition):  # one pass: the class is not split by t
                    has_true = np.zeros(rel.num_classes, dtype=bool)
                    has_false = np.zeros(rel.num_classes, dtype=bool)
                    has_true[rel.labels[t]] = True
                    has_false[rel.labels[~t]] = True
                    return ~(has_true & has_false)[rel.labels]
                return box(m, agent, t) | box(m, agent, ~t)
            case Everybody(group, arg):
                t = self.truth(arg)
                return reduce(np.logical_and, (box(m, a, t) for a in group))
            case Common(group, arg):
                return common_box(m, group, self.truth(arg))
            case Distributed(group, arg):
                return distributed_box(m, group, self.truth(arg))
            case Announce(ann, arg):
                t = self.truth(ann)
                inner = _Evaluator(self._restricted(ann, t)).truth(arg)
                out = ~t
                out[t] = inner
                return out
            case AnnounceDiamond(ann, arg):
                t = self.truth(ann)
                inner = _Evaluator(self._restricted(ann, t)).truth(arg)
                out = np.zeros(n, dtype=bool)
                out[t] = inner
                return out
            case Action(model, events, arg):
                prod, origin, ev_of, ev_names = self._product(model)
                inner = _Evaluator(prod).truth(arg)
                chosen = np.isin(ev_of, [ev_names.index(e) for e in events])
                out = np.ones(n, dtype=bool)
                out[origin[chosen & ~inner]] = False
                return out
            case ActionDiamond(model, events, arg):
                prod, origin, ev_of, ev_names = self._product(model)
                inner = _Evaluator(prod).truth(arg)
                chosen = np.isin(ev_of, [ev_names.index(e) for e in events])
                out = np.zeros(n, dtype=bool)
                out[origin[chosen & inner]] = True
                return out
            case _:
                raise TypeError(f"the explicit engine cannot evaluate {type(f).__name__}")

    def _restricted(self, ann: Formula, t: np.ndarray) -> KripkeModel:
        key = ("restrict", ann)
        sub = self.model._cache.get(key)
        if sub is None:
            sub = self.model.restrict(t)
            self.model._cache[key] = sub
        return sub

    def _product(self, action_model: Any) -> tuple[KripkeModel, np.ndarray, np.ndarray, list[str]]:
        key = ("product", action_model)
        hit = self.model._cache.get(key)
        if hit is None:
            from kripke.updates import _product

            hit = _product(self.model, action_model)
            self.model._cache[key] = hit
        return hit
