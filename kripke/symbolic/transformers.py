"""Action models on knowledge structures: product update with event variables.

An action model with events *e₀ … e_{k-1}* becomes a knowledge transformer
(van Benthem, van Eijck, Gattinger & Su 2018, §4): fresh variables *X*
encode the event, the new law says which event happened and that its
precondition held, and each agent learns what the action model lets it
distinguish.  Factual change keeps the old value of a changed atom *p* in a
fresh copy *p°* (which the agents that observed *p* keep observing) and
makes *p* the postcondition.

* An S5 agent of the structure with a partition in the action model
  observes the event variables (all events told apart), nothing more (one
  class), or fresh class variables that name its class of events.
* Any other agent gets a relational BDD: its old relation (for an S5 agent,
  agreement on what it observes) conjoined with the action model's
  relation over *X* and *X'*.

Examples
--------
>>> from kripke.symbolic import KnowledgeStructure, PointedStructure
>>> from kripke.updates import semi_private_announcement
>>> ks = KnowledgeStructure(["p"], observes={"a": [], "b": []})
>>> pm = PointedStructure(ks, {"p"})
>>> after = pm.product_update(semi_private_announcement("p", ["a"], ["a", "b"]))
>>> after.holds("K_a p & ~K_b p & K_b Kw_a p")
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kripke.errors import (
    EngineError,
    InvalidModelError,
    PreconditionError,
    UnknownAtomError,
    UnknownWorldError,
)
from kripke.models import Partition
from kripke.symbolic._bdd import BDD, Manager
from kripke.symbolic.structures import KnowledgeStructure, PointedStructure, _Frame

__all__ = ["ProductInfo", "product", "product_pointed", "optimize"]


@dataclass(eq=False)
class ProductInfo:
    """The product of a structure with an action model, and how to go back.

    Attributes
    ----------
    structure : KnowledgeStructure
        The updated structure.
    codes : dict
        Each event's code over the event variables (a BDD).
    old : dict
        ``{copy: atom}``: the variables holding old values of changed atoms.
    quantified : BDD
        The cube of the variables a state of the product has beyond the
        state it came from (event, class variables, new values).
    """

    structure: KnowledgeStructure
    codes: dict[str, BDD]
    old: dict[str, str]
    quantified: BDD
    rename_old: dict[str, str] = field(default_factory=dict)

    def chosen(self, events: Iterable[str]) -> BDD:
        mgr = self.structure._frame.mgr
        out = mgr.false
        for e in events:
            if e not in self.codes:
                raise UnknownWorldError(f"the action model has no event {e!r}")
            out = out | self.codes[e]
        return out

    def back(self, inner: BDD, events: Iterable[str], *, diamond: bool) -> BDD:
        """``[A,E]φ`` (or ``<A,E>φ``) on the old structure from φ's truth on the product."""
        s = self.structure
        mgr = s._frame.mgr
        where = s.law & self.chosen(events)
        if diamond:
            r = mgr.exists(self.quantified, where & inner)
        else:
            r = ~mgr.exists(self.quantified, where & ~inner)
        return mgr.rename(r, self.old)


def _bits(i: int, width: int) -> list[bool]:
    return [bool(i >> b & 1) for b in range(width)]


def _code(mgr: Manager, names: list[str], i: int, primed: bool = False) -> BDD:
    out = mgr.true
    for name, bit in zip(names, _bits(i, len(names)), strict=True):
        v = mgr.primed(name) if primed else mgr.var(name)
        out = out & (v if bit else ~v)
    return out


def _classes(rel: Partition) -> np.ndarray:
    return Partition.from_labels(rel.labels).labels


def product(ks: KnowledgeStructure, action: Any) -> ProductInfo:
    """The product update of ``ks`` with an :class:`~kripke.updates.ActionModel` (memoised)."""
    key = ("product", action)
    ref = ks._children.get(key)
    info = ref() if ref is not None else None
    if info is not None:
        ks._frame._lru.append(info.structure)
        return info
    mgr = ks._frame.mgr
    with mgr.guard(f"the product update with {getattr(action, 'name', action)!r}"):
        info = _product(ks, action)
    mgr.check()
    import weakref

    ks._children[key] = weakref.ref(info)
    info.structure._origin = info  # the product structure keeps its info alive
    ks._frame._lru.append(info.structure)
    return info


def _product(ks: KnowledgeStructure, A: Any) -> ProductInfo:
    fr = ks._frame
    mgr = fr.mgr
    for name in ("events", "pre", "rel", "post"):
        if not hasattr(A, name):
            raise InvalidModelError(f"{A!r} is not an action model")
    missing = [a for a in fr.agents if a not in A.rel]
    if missing:
        raise InvalidModelError(f"action model {A.name!r} has no relation for agent {missing[0]!r}")
    events: tuple[str, ...] = A.events
    k = len(events)
    pre = [ks._ev(p) for p in A.pre]
    changed: list[str] = []
    post: dict[str, dict[str, BDD]] = {}
    for e, assign in A.post.items():
        for atom, f in assign:
            if atom not in fr.vocab_set:
                raise UnknownAtomError(
                    f"postcondition of event {e!r} assigns {atom!r}, which the structure does not have"
                )
            if atom in fr.defs:
                raise EngineError(
                    f"postcondition of event {e!r} assigns the defined atom {atom!r}; "
                    "assign the variables it is defined from"
                )
            if atom not in changed:
                changed.append(atom)
            post.setdefault(e, {})[atom] = ks._ev(f)
    width = (k - 1).bit_length()
    xs = [mgr.fresh("e") for _ in range(width)]
    codes = {e: _code(mgr, xs, i) for i, e in enumerate(events)}
    old = {p: mgr.fresh("o") for p in changed}
    if fr.rel or any(not isinstance(A.rel[a], Partition) for a in fr.agents):
        mgr.ensure_primes([*changed, *old.values(), *xs])
    ren = dict(old)
    ren.update({p + "'": c + "'" for p, c in old.items()})

    def R(u: BDD) -> BDD:
        return mgr.rename(u, old) if old else u

    # agents: what each observes or its relation in the product
    obs: dict[str, frozenset[str]] = {}
    rel: dict[str, BDD] = {}
    class_law: list[BDD] = [mgr.true] * k
    extra_vars: list[str] = []
    for a in fr.agents:
        er = A.rel[a]
        if a in fr.obs and isinstance(er, Partition):
            labels = _classes(er)
            m = int(labels.max()) + 1 if k else 0
            seen = {old.get(v, v) for v in fr.obs[a]}
            if m <= 1:
                obs[a] = frozenset(seen)
            elif m == k:
                obs[a] = frozenset(seen | set(xs))
            else:
                cw = (m - 1).bit_length()
                cvars = [mgr.fresh("c") for _ in range(cw)]
                extra_vars += cvars
                for i in range(k):
                    class_law[i] = class_law[i] & _code(mgr, cvars, int(labels[i]))
                obs[a] = frozenset(seen | set(cvars))
        else:
            src, dst = er.edges()
            r_ev = mgr.false
            for s, d in zip(src.tolist(), dst.tolist(), strict=True):
                r_ev = r_ev | (_code(mgr, xs, s) & _code(mgr, xs, d, primed=True))
            base = fr.relation(a)
            rel[a] = mgr.rename(base, ren) & r_ev
    # the law
    happened = mgr.false
    for i, e in enumerate(events):
        happened = happened | (codes[e] & R(pre[i]) & class_law[i])
    law = R(ks.law) & happened
    for p in changed:
        value = mgr.false
        for e in events:
            new = post.get(e, {}).get(p)
            value = value | (codes[e] & (R(new) if new is not None else mgr.var(old[p])))
        law = law & mgr.var(p).equiv(value)
    hidden = fr.hidden + tuple(xs) + tuple(old[p] for p in changed) + tuple(extra_vars)
    frame = _Frame(mgr, fr.vocab, hidden, obs, rel, fr.agents, defs=fr.defs)
    out = frame.structure(law)
    quantified = mgr.cube([*xs, *changed, *extra_vars])
    return ProductInfo(out, codes, {c: p for p, c in old.items()}, quantified, old)


def product_pointed(
    ps: PointedStructure,
    action: Any,
    events: Iterable[str] | str | None = None,
    *,
    optimize: bool = True,
) -> PointedStructure:
    """The product update of a pointed structure; designated: the designated
    states paired with the chosen events (all by default) that can happen there."""
    info = product(ps.structure, action)
    names = list(info.codes)
    if events is None:
        evs = names
    else:
        evs = [events] if isinstance(events, str) else [str(e) for e in events]
        for e in evs:
            if e not in info.codes:
                raise UnknownWorldError(f"action model {action.name!r} has no event {e!r}")
    mgr = ps.structure._frame.mgr
    designated = mgr.rename(ps.designated, info.rename_old) & info.chosen(evs) & info.structure.law
    if designated == mgr.false:
        raise PreconditionError(
            f"no designated event of {action.name!r} can happen at the actual state"
        )
    out = PointedStructure._from_bdd(info.structure, designated)
    return optimize_pointed(out) if optimize else out


# -------------------------------------------------------------- optimizing
def optimize(ks: KnowledgeStructure) -> KnowledgeStructure:
    """Drop auxiliary variables that carry no information (a bisimilar structure).

    An auxiliary variable is dropped when the law determines it (always
    true, always false, or equal to another variable, which then replaces
    it in observations and relations), or when no agent observes it and no
    relation mentions it (states that differ only there are bisimilar).
    """
    return _optimize(ks, None)[0]


def optimize_pointed(ps: PointedStructure) -> PointedStructure:
    """:func:`optimize` for a pointed structure (its designated states follow)."""
    ks, designated = _optimize(ps.structure, ps.designated)
    return PointedStructure._from_bdd(ks, designated)


def _optimize(ks: KnowledgeStructure, designated: BDD | None) -> tuple[KnowledgeStructure, BDD]:
    fr = ks._frame
    mgr = fr.mgr
    if not fr.hidden:
        return ks, designated
    law = ks.law
    obs = {a: set(o) for a, o in fr.obs.items()}
    rel = dict(fr.rel)
    hidden = list(fr.hidden)
    des = designated
    with mgr.guard("optimizing a structure"):
        changed = True
        while changed:
            changed = False
            for h in list(hidden):
                v = mgr.var(h)
                value: bool | None = None
                if (law & ~v) == mgr.false:
                    value = True
                elif (law & v) == mgr.false:
                    value = False
                if value is not None:
                    law = mgr.assign(law, {h: value})
                    if des is not None:
                        des = mgr.assign(des, {h: value})
                    both = {h: value, h + "'": value} if mgr.has_prime(h) else {h: value}
                    rel = {a: mgr.assign(r, both) for a, r in rel.items()}
                    for o in obs.values():
                        o.discard(h)
                    hidden.remove(h)
                    changed = True
                    continue
                used = any(h in o for o in obs.values()) or any(
                    {h, h + "'"} & mgr.support(r) for r in rel.values()
                )
                if not used:
                    law = mgr.exists(mgr.cube([h]), law)
                    if des is not None:
                        des = mgr.exists(mgr.cube([h]), des)
                    hidden.remove(h)
                    changed = True
                    continue
                others = [x for x in fr.varatoms + tuple(hidden) if x != h]
                twin = _equal_variable(mgr, law, h, others)
                if twin is not None:
                    other, same = twin
                    lit = mgr.var(other) if same else ~mgr.var(other)
                    new_rel = {}
                    for a, r in rel.items():
                        supp = mgr.support(r)
                        if h in supp or h + "'" in supp:
                            lit_p = mgr.primed(other) if same else ~mgr.primed(other)
                            defs = {h: lit}
                            if mgr.has_prime(h):
                                defs[h + "'"] = lit_p
                            r = mgr.substitute(r, defs)
                        new_rel[a] = r
                    rel = new_rel
                    for o in obs.values():
                        if h in o:
                            o.discard(h)
                            o.add(other)
                    law = mgr.exists(mgr.cube([h]), law)
                    if des is not None:
                        des = mgr.exists(mgr.cube([h]), des & mgr.var(h).equiv(lit))
                    hidden.remove(h)
                    changed = True
    if len(hidden) == len(fr.hidden):
        return ks, designated
    frame = _Frame(
        mgr,
        fr.vocab,
        tuple(hidden),
        {a: frozenset(o) for a, o in obs.items()},
        rel,
        fr.agents,
        defs=fr.defs,
    )
    return frame.structure(law), des


def _equal_variable(
    mgr: Manager, law: BDD, h: str, candidates: list[str]
) -> tuple[str, bool] | None:
    v = mgr.var(h)
    pos = law & v
    neg = law & ~v
    for c in candidates:
        w = mgr.var(c)
        if (pos & ~w) == mgr.false and (neg & w) == mgr.false:
            return c, True
        if (pos & w) == mgr.false and (neg & ~w) == mgr.false:
            return c, False
    return None
