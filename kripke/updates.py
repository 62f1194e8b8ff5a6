"""Model updates: public announcements, action models with factual change,
product update, and bisimulation contraction.

Every update returns a new model; nothing is changed in place.

Examples
--------
>>> from kripke.puzzles import muddy_children
>>> from kripke.updates import announce
>>> from kripke.parser import parse
>>> pm = muddy_children(3, [1, 2, 3])
>>> pm = announce(pm, parse("m1 | m2 | m3"))
>>> len(pm.model)
7
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from kripke.errors import InvalidModelError, PreconditionError, UnknownAtomError, UnknownWorldError
from kripke.formulas import TOP, Atom, Formula, as_formula, check_agent_name
from kripke.models import (
    KripkeModel,
    Partition,
    PointedModel,
    Relation,
    _collection,
    atom_key,
    check_explicit_size,
)

__all__ = [
    "announce",
    "announce_all",
    "ActionModel",
    "product_update",
    "public_announcement",
    "private_announcement",
    "semi_private_announcement",
    "show_card",
    "minimize",
    "is_bisimilar",
    "bisimulation_classes",
]


# ------------------------------------------------------------ announcements
def announce(target: Any, f: Formula | str, *, check: bool = True) -> Any:
    """Public announcement of ``f``: keep only the worlds where ``f`` is true.

    Works on a :class:`KripkeModel`, a :class:`PointedModel`, and (through the
    engine registry) on knowledge structures.

    Parameters
    ----------
    target : KripkeModel, PointedModel or a symbolic structure
    f : Formula or str
    check : bool
        On a pointed model, raise :class:`PreconditionError` when ``f`` is
        false at a designated world (a truthful announcement must be true).
        With ``check=False`` the designated worlds that survive are kept.

    Raises
    ------
    PreconditionError
        If ``f`` is false at the actual world (with ``check``), or no
        designated world survives.
    """
    f = as_formula(f)
    if isinstance(target, KripkeModel):
        from kripke.explicit import truth_array

        return target.restrict(truth_array(target, f))
    if isinstance(target, PointedModel):
        from kripke.explicit import truth_array

        t = truth_array(target.model, f)
        des = np.array(target.designated_indices, dtype=np.int64)
        if check and not t[des].all():
            bad = target.model.label(int(des[~t[des]][0]))
            raise PreconditionError(f"cannot announce {f}: it is false at the actual world {bad!r}")
        keep = des[t[des]]
        if keep.size == 0:
            raise PreconditionError(f"announcing {f} removes every designated world")
        new_index = np.cumsum(t) - 1
        return PointedModel._from_indices(target.model.restrict(t), new_index[keep].tolist())
    from kripke.semantics import _dispatch

    return _dispatch(target, None).announce(target, f, check=check)


def announce_all(target: Any, fs: Iterable[Formula | str], *, check: bool = True) -> Any:
    """Announce several formulas in sequence."""
    for f in fs:
        target = announce(target, f, check=check)
    return target


# ------------------------------------------------------------ action models
def _event_relation(events: tuple[str, ...], spec: Any, agent: str) -> Partition | Relation:
    idx = {e: i for i, e in enumerate(events)}
    k = len(events)
    if isinstance(spec, Partition | Relation):
        return spec
    spec = _collection(spec, f"the relation of agent {agent!r}")
    if spec and all(isinstance(x, tuple) and len(x) == 2 for x in spec):
        # a list of (event, event) tuples is a general relation; a list of lists a partition
        pairs = [(str(a), str(b)) for a, b in spec]
        for a, b in pairs:
            for e in (a, b):
                if e not in idx:
                    raise UnknownWorldError(
                        f"relation of agent {agent!r} names unknown event {e!r}"
                    )
        rel = Relation.from_edges(
            np.array([idx[a] for a, _ in pairs], np.int64),
            np.array([idx[b] for _, b in pairs], np.int64),
            k,
        )
        from kripke.models import _as_partition

        part = _as_partition(rel)
        return part if part is not None else rel
    lab = np.full(k, -1, dtype=np.int64)
    for c, cls in enumerate(spec):
        for e in _collection(cls, f"a class of agent {agent!r}"):
            e = str(e)
            if e not in idx:
                raise UnknownWorldError(f"partition of agent {agent!r} names unknown event {e!r}")
            if lab[idx[e]] != -1:
                raise InvalidModelError(
                    f"partition of agent {agent!r} puts event {e!r} in two classes"
                )
            lab[idx[e]] = c
    if (lab < 0).any():
        raise InvalidModelError(
            f"partition of agent {agent!r} does not cover event {events[int(np.argmin(lab))]!r}"
        )
    return Partition(lab, len(spec))


class ActionModel:
    """An action (event) model: events with preconditions, optional
    postconditions (factual change) and one relation per agent over events.

    Parameters
    ----------
    name : str
        Name used when the model appears in a formula (``[A,e] p``).
    preconditions : mapping of event name to Formula (or text)
    relations : mapping of agent to a partition (list of lists of events) or
        a list of ``(event, event)`` pairs
    postconditions : mapping of event to ``{atom: Formula}``, optional
        The atom's new value is the formula's value before the event.

    Examples
    --------
    >>> from kripke.updates import ActionModel
    >>> A = ActionModel("A", {"e": "p", "f": "~p"}, {"a": [["e"], ["f"]], "b": [["e", "f"]]})
    >>> A.event_names()
    ('e', 'f')
    """

    __slots__ = ("name", "events", "pre", "rel", "post", "_hash")

    def __init__(
        self,
        name: str,
        preconditions: Mapping[Any, Formula | str],
        relations: Mapping[Any, Any],
        postconditions: Mapping[Any, Mapping[Atom | str, Formula | str]] | None = None,
    ):
        if not isinstance(name, str) or not name.isidentifier():
            raise InvalidModelError(f"action model name must be an identifier, got {name!r}")
        self.name = name
        for what, value in (("preconditions", preconditions), ("relations", relations)):
            if not isinstance(value, Mapping):
                raise InvalidModelError(
                    f"action model {name!r}: {what} must be a mapping, got {value!r}"
                )
        if postconditions is not None and (
            not isinstance(postconditions, Mapping)
            or not all(isinstance(v, Mapping) for v in postconditions.values())
        ):
            raise InvalidModelError(
                f"action model {name!r}: postconditions map each event to {{atom: formula}}, "
                f"got {postconditions!r}"
            )
        self.events: tuple[str, ...] = tuple(str(e) for e in preconditions)
        if not self.events:
            raise InvalidModelError("an action model needs at least one event")
        for e in self.events:
            if not e.replace("_", "a").isalnum():
                raise InvalidModelError(f"event name {e!r} must be an identifier or number")
        self.pre: tuple[Formula, ...] = tuple(as_formula(preconditions[e]) for e in preconditions)
        self.rel: dict[str, Partition | Relation] = {
            check_agent_name(a): _event_relation(self.events, spec, str(a))
            for a, spec in relations.items()
        }
        post: dict[str, tuple[tuple[str, Formula], ...]] = {}
        for e, assign in (postconditions or {}).items():
            if str(e) not in self.events:
                raise UnknownWorldError(f"postcondition names unknown event {e!r}")
            post[str(e)] = tuple(sorted((atom_key(a), as_formula(v)) for a, v in assign.items()))
        self.post = post
        self._hash = hash((self.name, self.events, self.pre, tuple(sorted(post.items()))))

    def event_names(self) -> tuple[str, ...]:
        return self.events

    @property
    def agents(self) -> tuple[str, ...]:
        return tuple(self.rel)

    def precondition(self, event: str) -> Formula:
        return self.pre[self.events.index(str(event))]

    def __repr__(self) -> str:
        return f"ActionModel({self.name!r}, events={list(self.events)}, agents={list(self.rel)})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ActionModel):
            return NotImplemented
        if self is other:
            return True
        if (self.name, self.events, self.pre, self.post) != (
            other.name,
            other.events,
            other.pre,
            other.post,
        ):
            return False
        if set(self.rel) != set(other.rel):
            return False
        k = len(self.events)
        for a in self.rel:
            e1, e2 = self.rel[a].edges(), other.rel[a].edges()
            if not np.array_equal(np.sort(e1[0] * k + e1[1]), np.sort(e2[0] * k + e2[1])):
                return False
        return True

    def __hash__(self) -> int:
        return self._hash

    def to_kripke(self) -> KripkeModel:
        """The action model drawn as a Kripke model (events as worlds, no valuation)."""
        return KripkeModel(list(self.events), [], np.zeros((0, len(self.events)), bool), self.rel)

    def _repr_png_(self) -> bytes | None:
        from kripke.display import render_png

        return render_png("action_model", self)


def _product(
    model: KripkeModel, A: ActionModel
) -> tuple[KripkeModel, np.ndarray, np.ndarray, list[str]]:
    """Product update; returns the model, and for each new world its origin world and event index."""
    from kripke.explicit import truth_array

    missing = [a for a in model.agents if a not in A.rel]
    if missing:
        raise InvalidModelError(f"action model {A.name!r} has no relation for agent {missing[0]!r}")
    n, k = model.num_worlds, len(A.events)
    pre = np.stack([truth_array(model, p) for p in A.pre])  # (k, n)
    check_explicit_size(
        int(pre.sum()), len(model.atoms), len(model.agents), f"the product update with {A.name!r}"
    )
    ev_of, origin = np.nonzero(pre)
    order = np.lexsort((ev_of, origin))  # worlds grouped by origin, then event
    origin, ev_of = origin[order].astype(np.int64), ev_of[order].astype(np.int64)
    m = origin.size
    pid = np.full((n, k), -1, dtype=np.int64)
    pid[origin, ev_of] = np.arange(m)
    # valuation with factual change
    val = model.valuation_matrix[:, origin].copy()
    aidx = {a: i for i, a in enumerate(model.atoms)}
    for e, assign in A.post.items():
        ei = A.events.index(e)
        rows = ev_of == ei
        for a, f in assign:
            if a not in aidx:
                raise UnknownAtomError(
                    f"postcondition of event {e!r} assigns {a!r}, which the model does not have"
                )
            val[aidx[a], rows] = truth_array(model, f)[origin[rows]]
    rels: dict[str, Partition | Relation] = {}
    for a in model.agents:
        r, er = model.relation(a), A.rel[a]
        if isinstance(r, Partition) and isinstance(er, Partition):
            lab = r.labels[origin] * max(er.num_classes, 1) + er.labels[ev_of]
            rels[a] = Partition.from_labels(lab)
            continue
        ws, wd = r.edges()
        es, ed = er.edges()
        srcs, dsts = [], []
        for e, f in zip(es.tolist(), ed.tolist(), strict=True):
            ps, pd = pid[ws, e], pid[wd, f]
            ok = (ps >= 0) & (pd >= 0)
            srcs.append(ps[ok])
            dsts.append(pd[ok])
        src = np.concatenate(srcs) if srcs else np.zeros(0, np.int64)
        dst = np.concatenate(dsts) if dsts else np.zeros(0, np.int64)
        rels[a] = Relation.from_edges(src, dst, m)
    labels = [(model.label(int(w)), A.events[int(e)]) for w, e in zip(origin, ev_of, strict=True)]
    new = KripkeModel(labels, model.atoms, val, rels, validate=False)
    return new, origin, ev_of, list(A.events)


def product_update(
    target: Any, action: ActionModel, events: Iterable[str] | str | None = None
) -> Any:
    """The product update of a model with an action model.

    New worlds are labelled ``(world, event)``.  On a pointed model the
    designated worlds are the pairs of a designated world with a designated
    event (``events``; all events by default) whose precondition holds.

    Raises
    ------
    PreconditionError
        If no designated event can happen at any designated world.
    """
    if isinstance(target, KripkeModel | PointedModel) and not isinstance(action, ActionModel):
        raise InvalidModelError(f"product_update needs an ActionModel, got {action!r}")
    if isinstance(target, KripkeModel):
        return _product(target, action)[0]
    if isinstance(target, PointedModel):
        prod, origin, ev_of, names = _product(target.model, action)
        if events is None:
            chosen = set(range(len(names)))
        else:
            evs = [events] if isinstance(events, str | int) else _collection(events, "events")
            for e in evs:
                if str(e) not in names:
                    raise UnknownWorldError(f"action model {action.name!r} has no event {e!r}")
            chosen = {names.index(str(e)) for e in evs}
        des = set(target.designated_indices)
        keep = [
            i for i in range(prod.num_worlds) if int(origin[i]) in des and int(ev_of[i]) in chosen
        ]
        if not keep:
            raise PreconditionError(
                f"no designated event of {action.name!r} can happen at the actual world"
            )
        return PointedModel._from_indices(prod, keep)
    from kripke.semantics import _dispatch

    return _dispatch(target, None).product_update(target, action, events)


# ---------------------------------------------------- ready-made actions
def _agent_list(agents: Iterable[Any]) -> list[str]:
    return [check_agent_name(a) for a in agents]


def public_announcement(f: Formula | str, agents: Iterable[Any], name: str = "Pub") -> ActionModel:
    """The public announcement of ``f`` as a one-event action model."""
    return ActionModel(name, {"e": as_formula(f)}, {a: [["e"]] for a in _agent_list(agents)})


def private_announcement(
    f: Formula | str, group: Iterable[Any], agents: Iterable[Any], name: str = "Priv"
) -> ActionModel:
    """``group`` privately learns ``f``; everyone else believes nothing happened.

    Events ``e`` (precondition ``f``, designated) and ``skip`` (``top``).
    Members tell them apart; outsiders believe ``skip`` whatever happened, so
    their relation is KD45, not S5 (the classic "private announcement",
    Baltag, Moss & Solecki 1998).
    """
    group_l = set(_agent_list(group))
    rels: dict[str, Any] = {}
    for a in _agent_list(agents):
        rels[a] = [["e"], ["skip"]] if a in group_l else [("e", "skip"), ("skip", "skip")]
    return ActionModel(name, {"e": as_formula(f), "skip": TOP}, rels)


def semi_private_announcement(
    f: Formula | str, learners: Iterable[Any], agents: Iterable[Any], name: str = "Semi"
) -> ActionModel:
    """``learners`` learn whether ``f``; the others see that they learn it but not the answer.

    Events ``yes`` (precondition ``f``) and ``no`` (``~f``); designate both
    (``[Semi,{yes,no}] g``) so the actual answer is whichever is true.
    Everybody's relation stays S5.
    """
    fl = as_formula(f)
    learn = set(_agent_list(learners))
    rels = {a: ([["yes"], ["no"]] if a in learn else [["yes", "no"]]) for a in _agent_list(agents)}
    return ActionModel(name, {"yes": fl, "no": ~fl}, rels)


def show_card(
    candidates: Sequence[Atom | str],
    shown: Atom | str,
    to: Iterable[Any] | Any,
    agents: Iterable[Any],
    name: str = "Show",
) -> ActionModel:
    """A card shown privately: the audience ``to`` sees which of ``candidates`` it is,
    everyone else only sees that one was shown.

    ``candidates`` are the atoms "the shower holds card c" for every card the
    shower might show; event ``c<i>`` has precondition ``candidates[i]``.
    Returns the action model; its designated event is ``shown``'s (see
    :attr:`designated`).
    """
    keys = [atom_key(c) for c in candidates]
    shown_key = atom_key(shown)
    if shown_key not in keys:
        raise UnknownWorldError(f"the shown card {shown_key!r} is not among the candidates")
    audience = set(_agent_list([to] if isinstance(to, str | int) else to))
    events = [f"c{i}" for i in range(len(keys))]
    from kripke.parser import parse

    pre = {e: parse(k) for e, k in zip(events, keys, strict=True)}
    rels = {a: ([[e] for e in events] if a in audience else [events]) for a in _agent_list(agents)}
    model = ActionModel(name, pre, rels)
    return model


def shown_event(action: ActionModel, shown: Atom | str) -> str:
    """The event of a :func:`show_card` model that shows ``shown``."""
    key = atom_key(shown)
    for e, p in zip(action.events, action.pre, strict=True):
        if isinstance(p, Atom) and p.key == key:
            return e
    raise UnknownWorldError(f"{action.name!r} has no event showing {key!r}")


# ------------------------------------------------------------ bisimulation
def _refine(model: KripkeModel) -> np.ndarray:
    """Coarsest bisimulation as a block id per world (partition refinement)."""
    n = model.num_worlds
    if n == 0:
        return np.zeros(0, np.int64)
    val = model.valuation_matrix.T
    if val.shape[1]:
        _, block = np.unique(np.packbits(val, axis=1), axis=0, return_inverse=True)
        block = block.reshape(-1).astype(np.int64)
    else:
        block = np.zeros(n, np.int64)
    count = int(block.max()) + 1
    while True:
        cols = [block]
        for a in model.agents:
            cols.append(_successor_signature(model.relation(a), block, n))
        _, new = np.unique(np.stack(cols, axis=1), axis=0, return_inverse=True)
        new = new.reshape(-1).astype(np.int64)
        new_count = int(new.max()) + 1
        if new_count == count:
            return new
        block, count = new, new_count


def _successor_signature(rel: Partition | Relation, block: np.ndarray, n: int) -> np.ndarray:
    """For each world, an id of the set of blocks among its successors."""
    if isinstance(rel, Partition):
        owners = rel.labels
        size = rel.num_classes
    else:
        owners = rel.src
        size = n
        block = block[rel.dst]
    nb = int(block.max()) + 1 if block.size else 1
    codes = np.unique(owners * nb + block)
    own, blk = codes // nb, codes % nb
    sig_of: dict[bytes, int] = {}
    sig = np.full(size, -1, dtype=np.int64)
    if own.size:
        cuts = np.flatnonzero(own[1:] != own[:-1]) + 1
        for chunk_own, chunk_blk in zip(np.split(own, cuts), np.split(blk, cuts), strict=True):
            key = chunk_blk.tobytes()
            sig[chunk_own[0]] = sig_of.setdefault(key, len(sig_of))
    if isinstance(rel, Partition):
        return sig[rel.labels]
    return sig  # worlds without successors keep -1


def bisimulation_classes(target: KripkeModel | PointedModel) -> list[list[Any]]:
    """The classes of the coarsest bisimulation (lists of world labels)."""
    model = target.model if isinstance(target, PointedModel) else target
    block = _refine(model)
    out: dict[int, list[Any]] = {}
    for i, b in enumerate(block.tolist()):
        out.setdefault(b, []).append(model.label(i))
    return list(out.values())


def minimize(target: KripkeModel | PointedModel) -> KripkeModel | PointedModel:
    """Bisimulation contraction: the smallest model satisfying the same formulas.

    Each class of bisimilar worlds becomes one world, labelled by its first
    member.  Partition relations stay partitions.
    """
    model = target.model if isinstance(target, PointedModel) else target
    block = _refine(model)
    nb = int(block.max()) + 1 if block.size else 0
    reps = np.full(nb, -1, dtype=np.int64)
    for i in range(model.num_worlds - 1, -1, -1):
        reps[block[i]] = i
    rels: dict[str, Partition | Relation] = {}
    for a in model.agents:
        r = model.relation(a)
        if isinstance(r, Partition):
            sig = _successor_signature(r, block, model.num_worlds)
            rels[a] = Partition.from_labels(sig[reps])
        else:
            rels[a] = Relation.from_edges(block[r.src], block[r.dst], nb)
    labels = [model.label(int(i)) for i in reps]
    quotient = KripkeModel(
        labels, model.atoms, model.valuation_matrix[:, reps], rels, validate=False
    )
    if isinstance(target, PointedModel):
        return PointedModel._from_indices(
            quotient, sorted({int(block[i]) for i in target.designated_indices})
        )
    return quotient


def _disjoint_union(m1: KripkeModel, m2: KripkeModel) -> KripkeModel:
    if set(m1.agents) != set(m2.agents):
        raise InvalidModelError(
            f"models have different agents: {sorted(m1.agents)} and {sorted(m2.agents)}"
        )
    atoms = sorted(set(m1.atoms) | set(m2.atoms))
    n1, n2 = m1.num_worlds, m2.num_worlds
    val = np.zeros((len(atoms), n1 + n2), dtype=bool)
    for i, a in enumerate(atoms):
        if a in m1.atoms:
            val[i, :n1] = m1.atom_row(a)
        if a in m2.atoms:
            val[i, n1:] = m2.atom_row(a)
    rels: dict[str, Partition | Relation] = {}
    for a in m1.agents:
        r1, r2 = m1.relation(a), m2.relation(a)
        if isinstance(r1, Partition) and isinstance(r2, Partition):
            rels[a] = Partition(
                np.r_[r1.labels, r2.labels + r1.num_classes], r1.num_classes + r2.num_classes
            )
        else:
            s1, d1 = r1.edges()
            s2, d2 = r2.edges()
            rels[a] = Relation.from_edges(np.r_[s1, s2 + n1], np.r_[d1, d2 + n1], n1 + n2)
    return KripkeModel(np.arange(n1 + n2), atoms, val, rels, validate=False)


def is_bisimilar(x: KripkeModel | PointedModel, y: KripkeModel | PointedModel) -> bool:
    """Whether two pointed models are bisimilar (same designated blocks), or, for
    plain models, whether every world of each has a bisimilar world in the other."""
    mx = x.model if isinstance(x, PointedModel) else x
    my = y.model if isinstance(y, PointedModel) else y
    union = _disjoint_union(mx, my)
    block = _refine(union)
    n1 = mx.num_worlds
    if isinstance(x, PointedModel) and isinstance(y, PointedModel):
        bx = {int(block[i]) for i in x.designated_indices}
        by = {int(block[n1 + i]) for i in y.designated_indices}
        return bx == by
    return set(block[:n1].tolist()) == set(block[n1:].tolist())
