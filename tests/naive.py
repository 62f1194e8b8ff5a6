"""A deliberately naive reference evaluator: python sets over ``accessible()``.

It shares nothing with the engines but the model's public queries, so it is an
independent route for checking truth sets.
"""

from __future__ import annotations

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
from kripke.models import KripkeModel


class NaiveModel:
    def __init__(self, worlds, val, rel):
        self.worlds = list(worlds)
        self.val = val  # world -> set of atom keys
        self.rel = rel  # agent -> world -> set of worlds

    @classmethod
    def of(cls, m: KripkeModel) -> NaiveModel:
        val = {w: set(m.valuation(w)) for w in m.worlds}
        rel = {a: {w: set(m.accessible(a, w)) for w in m.worlds} for a in m.agents}
        return cls(m.worlds, val, rel)

    def restrict(self, keep: set) -> NaiveModel:
        worlds = [w for w in self.worlds if w in keep]
        rel = {a: {w: r[w] & keep for w in worlds} for a, r in self.rel.items()}
        return NaiveModel(worlds, {w: self.val[w] for w in worlds}, rel)

    def product(self, A):
        pre = {e: self.truth(p) for e, p in zip(A.events, A.pre, strict=True)}
        worlds = [(w, e) for w in self.worlds for e in A.events if w in pre[e]]
        val = {}
        for w, e in worlds:
            v = set(self.val[w])
            for atom_key, post in A.post.get(e, ()):
                v.discard(atom_key)
                if w in self.truth(post):
                    v.add(atom_key)
            val[(w, e)] = v
        rel = {}
        for a, r in self.rel.items():
            s, d = A.rel[a].edges()
            erel = {}
            for x, y in zip(s.tolist(), d.tolist(), strict=False):
                erel.setdefault(A.events[x], set()).add(A.events[y])
            rel[a] = {
                (w, e): {(v, f) for v in r[w] for f in erel.get(e, ()) if (v, f) in val}
                for (w, e) in worlds
            }
        return NaiveModel(worlds, val, rel), None

    def truth(self, f: Formula) -> set:
        W = set(self.worlds)
        match f:
            case Top():
                return set(W)
            case Bottom():
                return set()
            case Atom():
                return {w for w in W if f.key in self.val[w]}
            case Not(x):
                return W - self.truth(x)
            case And(xs):
                out = set(W)
                for x in xs:
                    out &= self.truth(x)
                return out
            case Or(xs):
                out = set()
                for x in xs:
                    out |= self.truth(x)
                return out
            case Implies(a, b):
                return (W - self.truth(a)) | self.truth(b)
            case Iff(a, b):
                ta, tb = self.truth(a), self.truth(b)
                return {w for w in W if (w in ta) == (w in tb)}
            case Know(ag, x):
                t = self.truth(x)
                return {w for w in W if self.rel[ag][w] <= t}
            case Possible(ag, x):
                t = self.truth(x)
                return {w for w in W if self.rel[ag][w] & t}
            case KnowWhether(ag, x):
                t = self.truth(x)
                return {w for w in W if self.rel[ag][w] <= t or not (self.rel[ag][w] & t)}
            case Everybody(g, x):
                t = self.truth(x)
                return {w for w in W if all(self.rel[a][w] <= t for a in g)}
            case Common(g, x):
                t = self.truth(x)
                out = set()
                for w in W:
                    seen, stack, ok = set(), [w], True
                    while stack and ok:
                        u = stack.pop()
                        for a in g:
                            for v in self.rel[a][u]:
                                if v not in t:
                                    ok = False
                                if v not in seen:
                                    seen.add(v)
                                    stack.append(v)
                    if ok:
                        out.add(w)
                return out
            case Distributed(g, x):
                t = self.truth(x)
                out = set()
                for w in W:
                    succ = set(W)
                    for a in g:
                        succ &= self.rel[a][w]
                    if succ <= t:
                        out.add(w)
                return out
            case Announce(a, x):
                ta = self.truth(a)
                inner = self.restrict(ta).truth(x)
                return (W - ta) | inner
            case AnnounceDiamond(a, x):
                ta = self.truth(a)
                return self.restrict(ta).truth(x)
            case Action(model, events, x) | ActionDiamond(model, events, x):
                prod, origin = self.product(model)
                inner = prod.truth(x)
                if isinstance(f, Action):
                    return {
                        w for w in W if all((w, e) in inner for e in events if (w, e) in prod.val)
                    }
                return {w for w in W if any((w, e) in inner for e in events)}
            case _:
                raise TypeError(f)
