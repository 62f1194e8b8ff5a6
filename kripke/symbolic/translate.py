"""Translations between explicit Kripke models and knowledge structures.

:func:`to_symbolic` keeps the model's atoms as the vocabulary.  Worlds with
the same valuation are told apart by auxiliary variables; an S5 agent
observes the atoms that are constant on each of its classes when those
atoms separate the classes, else auxiliary variables naming its class; any
other relation becomes a relational BDD (van Benthem, van Eijck, Gattinger
& Su 2018, §3 and §5).  :func:`to_explicit` enumerates the states, for
structures small enough to draw.

Examples
--------
>>> from kripke.puzzles import muddy_children
>>> from kripke.symbolic import to_symbolic, to_explicit
>>> ps = to_symbolic(muddy_children(3, [1, 2]))
>>> ps.structure.observes("1") == {"m2", "m3"}, ps.num_states()
(True, 8)
>>> to_explicit(ps).model.num_worlds
8
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np

from kripke.errors import EngineError, SizeLimitError
from kripke.models import KripkeModel, Partition, PointedModel, Relation
from kripke.symbolic._bdd import BDD, Manager, get_limits, manager
from kripke.symbolic.structures import KnowledgeStructure, PointedStructure, _Frame

__all__ = ["to_symbolic", "to_explicit"]


def _width(n: int) -> int:
    n = int(n)
    return (n - 1).bit_length() if n > 1 else 0


def to_symbolic(
    obj: KripkeModel | PointedModel, *, backend: str | None = None
) -> KnowledgeStructure | PointedStructure:
    """The knowledge structure of an explicit (pointed) model.

    The structure answers every formula as the model does; its states can
    be named by the model's world labels (``holds(ks, f, state=w)``).
    """
    if isinstance(obj, KnowledgeStructure | PointedStructure):
        return obj
    if isinstance(obj, PointedModel):
        model = obj.model
    elif isinstance(obj, KripkeModel):
        model = obj
    else:
        raise EngineError(f"cannot turn {type(obj).__name__} into a knowledge structure")
    mgr = manager(backend)
    atoms = tuple(model.atoms)
    n = model.num_worlds
    val = np.asarray(model.valuation_matrix, dtype=bool)
    with mgr.guard("translating a model to a knowledge structure"):
        mgr.declare(atoms)
        # auxiliary variables that tell apart worlds with equal valuations
        if n and atoms:
            _, group = np.unique(np.packbits(val.T, axis=1), axis=0, return_inverse=True)
            group = group.reshape(-1)
        else:
            group = np.zeros(n, dtype=np.int64)
        rank = np.zeros(n, dtype=np.int64)
        counts: dict[int, int] = {}
        for w in range(n):
            g = int(group[w])
            rank[w] = counts.get(g, 0)
            counts[g] = rank[w] + 1
        dvars = [mgr.fresh("d") for _ in range(_width(max(counts.values(), default=1)))]
        hidden: list[str] = list(dvars)
        assign: list[dict[str, bool]] = []
        for w in range(n):
            a = {k: bool(val[i, w]) for i, k in enumerate(atoms)}
            a.update({d: bool(int(rank[w]) >> b & 1) for b, d in enumerate(dvars)})
            assign.append(a)
        obs: dict[str, frozenset[str]] = {}
        rel_edges: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for agent in model.agents:
            r = model.relation(agent)
            if isinstance(r, Partition):
                lab = Partition.from_labels(r.labels).labels if n else r.labels
                seen = _observed_atoms(val, lab, atoms)
                if seen is not None:
                    obs[agent] = frozenset(seen)
                    continue
                m = int(lab.max()) + 1 if n else 0
                cvars = [mgr.fresh("k") for _ in range(_width(m))]
                hidden += cvars
                for w in range(n):
                    assign[w].update({c: bool(int(lab[w]) >> b & 1) for b, c in enumerate(cvars)})
                obs[agent] = frozenset(cvars)
            else:
                rel_edges[agent] = r.edges()
        allvars = atoms + tuple(hidden)
        cubes = [mgr.assignment_cube(a) for a in assign]
        law = mgr.false
        for c in cubes:
            law = law | c
        rel: dict[str, BDD] = {}
        for agent, (src, dst) in rel_edges.items():
            rel[agent] = _relation_bdd(mgr, cubes, src, dst, allvars)
        labels = {model.label(w): assign[w] for w in range(n)}
        frame = _Frame(mgr, atoms, tuple(hidden), obs, rel, tuple(model.agents), labels)
        ks = frame.structure(law)
        mgr.check()
        if isinstance(obj, PointedModel):
            des = mgr.false
            for w in obj.designated_indices:
                des = des | cubes[w]
            return PointedStructure._from_bdd(ks, des)
    return ks


def _observed_atoms(val: np.ndarray, lab: np.ndarray, atoms: tuple[str, ...]) -> list[str] | None:
    """The atoms constant on every class, if they separate the classes; else ``None``."""
    n = lab.size
    if n == 0:
        return []
    m = int(lab.max()) + 1
    keep = []
    for i in range(len(atoms)):
        row = val[i].astype(np.int64)
        lo = np.full(m, 2, dtype=np.int64)
        hi = np.full(m, -1, dtype=np.int64)
        np.minimum.at(lo, lab, row)
        np.maximum.at(hi, lab, row)
        if np.all(lo == hi):
            keep.append(i)
    if keep:
        patterns = np.packbits(val[keep].T, axis=1)
        distinct = np.unique(patterns, axis=0).shape[0]
    else:
        distinct = 1
    if distinct != m:
        return None
    return [atoms[i] for i in keep]


def _relation_bdd(
    mgr: Manager, cubes: list[BDD], src: np.ndarray, dst: np.ndarray, allvars: tuple[str, ...]
) -> BDD:
    mgr.ensure_primes(allvars)
    primed: dict[int, BDD] = {}
    out = mgr.false
    succ: dict[int, BDD] = {}
    for s, d in zip(src.tolist(), dst.tolist(), strict=True):
        p = primed.get(d)
        if p is None:
            p = mgr.rename(cubes[d], {v: v + "'" for v in allvars})
            primed[d] = p
        succ[s] = succ.get(s, mgr.false) | p
    for s, targets in succ.items():
        out = out | (cubes[s] & targets)
    return out


def to_explicit(obj: KnowledgeStructure | PointedStructure) -> KripkeModel | PointedModel:
    """The explicit model of a (pointed) structure, for structures up to
    ``max_states`` states (see :func:`~kripke.symbolic.set_limits`).

    Worlds are labelled by the model's labels for structures made by
    :func:`to_symbolic`, else by the frozenset of their true atoms (with a
    number when auxiliary variables make several states share atoms).

    Raises
    ------
    SizeLimitError
        If the structure has more states than the limit.
    """
    if isinstance(obj, KripkeModel | PointedModel):
        return obj
    if isinstance(obj, PointedStructure):
        ks = obj.structure
    elif isinstance(obj, KnowledgeStructure):
        ks = obj
    else:
        raise EngineError(f"cannot turn {type(obj).__name__} into an explicit model")
    fr = ks._frame
    mgr = fr.mgr
    limit = get_limits()["max_states"] or 0
    n = ks.num_states()
    if n > limit:
        raise SizeLimitError(
            f"the structure has {n} states, more than the {limit} an explicit model may have; "
            "raise the limit with kripke.symbolic.set_limits(max_states=...)"
        )
    allvars = fr.allvars
    states = list(mgr.assignments(ks.law, allvars))
    bits = np.array([[a[v] for v in allvars] for a in states], dtype=bool).reshape(n, len(allvars))
    index = {tuple(row.tolist()): i for i, row in enumerate(bits)}
    valuations = [fr.valuation(a) for a in states]
    atoms = sorted(fr.vocab)
    val = np.zeros((len(atoms), n), dtype=bool)
    for j, a in enumerate(atoms):
        for i, v in enumerate(valuations):
            val[j, i] = a in v
    labels = _labels(fr, valuations, bits)
    rels: dict[str, Partition | Relation] = {}
    col = {v: i for i, v in enumerate(allvars)}
    for agent in fr.agents:
        if agent in fr.obs:
            cols = sorted(col[v] for v in fr.obs[agent])
            if cols:
                rels[agent] = Partition.from_labels(np.packbits(bits[:, cols], axis=1))
            else:
                rels[agent] = Partition(np.zeros(n, dtype=np.int64), 1 if n else 0)
        else:
            rels[agent] = _edges(mgr, ks, agent, index, allvars)
    model = KripkeModel(labels, atoms, val, rels)
    if isinstance(obj, PointedStructure):
        des = [
            index[tuple(a[v] for v in allvars)] for a in mgr.assignments(obj.designated, allvars)
        ]
        return PointedModel._from_indices(model, des)
    return model


def _labels(fr: _Frame, sets: list[frozenset[str]], bits: np.ndarray) -> list[Hashable]:
    if fr.labels is not None:
        back = {tuple(a[v] for v in fr.allvars): lab for lab, a in fr.labels.items()}
        found = [back.get(tuple(row.tolist())) for row in bits]
        if all(x is not None for x in found):
            return found  # type: ignore[return-value]
    if len(set(sets)) == len(sets):
        return list(sets)
    seen: dict[frozenset[str], int] = {}
    out: list[Hashable] = []
    for s in sets:
        i = seen.get(s, 0)
        seen[s] = i + 1
        out.append((s, i))
    return out


def _edges(
    mgr: Manager,
    ks: KnowledgeStructure,
    agent: str,
    index: dict[tuple[bool, ...], int],
    allvars: tuple[str, ...],
) -> Relation:
    mgr.ensure_primes(allvars)
    both = ks._frame.relation(agent) & ks.law & mgr.prime(ks.law)
    names = list(allvars) + [v + "'" for v in allvars]
    n = len(index)
    limit = (get_limits()["max_states"] or 0) * 64
    src: list[int] = []
    dst: list[int] = []
    k = len(allvars)
    for a in mgr.assignments(both, names):
        src.append(index[tuple(a[v] for v in names[:k])])
        dst.append(index[tuple(a[v] for v in names[k:])])
        if len(src) > limit:
            raise SizeLimitError(f"agent {agent!r} has more than {limit} edges; too many to draw")
    return Relation.from_edges(np.array(src, np.int64), np.array(dst, np.int64), n)
