"""Explicit Kripke models: worlds, a valuation and one relation per agent.

Worlds are indexed by integers ``0 .. n-1``; the labels the user chose are kept
beside them.  The valuation is a boolean matrix (one row per atom), an S5
relation is a partition stored as a label array (the fast path), and any other
relation is an edge list sorted by source.  Nothing loops over pairs of worlds
in Python.

Models are immutable values: updates return new models.

Examples
--------
>>> from kripke.models import KripkeModel, PointedModel
>>> m = KripkeModel.from_partitions(
...     worlds=["w1", "w2"],
...     valuation={"w1": ["p"], "w2": []},
...     partitions={"a": [["w1", "w2"]], "b": [["w1"], ["w2"]]},
... )
>>> m
KripkeModel(2 worlds, atoms ['p'], agents ['a', 'b'])
>>> m.accessible("a", "w1")
['w1', 'w2']
>>> PointedModel(m, "w1").actual
'w1'
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from kripke.errors import InvalidModelError, ModelFileError, UnknownAgentError, UnknownWorldError
from kripke.formulas import Atom, check_agent_name
from kripke.types import World

__all__ = [
    "Partition",
    "Relation",
    "KripkeModel",
    "PointedModel",
    "atom_key",
    "load_model",
    "save_model",
]

FORMAT = "kripke-games/model"
FORMAT_VERSION = 1


def atom_key(a: Atom | str) -> str:
    """Canonical text of an atom given as :class:`Atom` or text (``"has(p2,QS)"``)."""
    if isinstance(a, Atom):
        return a.key
    if isinstance(a, str):
        from kripke.parser import parse

        try:
            f = parse(a)
        except Exception as exc:
            raise InvalidModelError(f"{a!r} is not an atom: {exc}") from None
        if not isinstance(f, Atom):
            raise InvalidModelError(f"{a!r} is not an atom")
        return f.key
    raise InvalidModelError(f"an atom is an Atom or its text, got {a!r}")


# --------------------------------------------------------------- relations
@dataclass(frozen=True, eq=False)
class Partition:
    """An S5 relation as a partition: ``labels[w]`` is the class of world ``w``.

    Class ids are integers below ``num_classes``; not every id needs a world
    (restricting a model keeps the ids).
    """

    labels: np.ndarray
    num_classes: int

    @classmethod
    def from_labels(cls, labels: np.ndarray) -> Partition:
        """Compact arbitrary labels into ``0 .. k-1``, numbered by first occurrence."""
        labels = np.asarray(labels)
        if labels.size == 0:
            return cls(np.zeros(0, dtype=np.intp), 0)
        axis = 0 if labels.ndim > 1 else None
        _, first, inv = np.unique(labels, axis=axis, return_index=True, return_inverse=True)
        rank = np.empty(first.size, dtype=np.intp)
        rank[np.argsort(first, kind="stable")] = np.arange(first.size)
        return cls(rank[inv.reshape(-1)], int(first.size))

    def restrict(self, mask: np.ndarray) -> Partition:
        return Partition(self.labels[mask], self.num_classes)

    def compact(self) -> Partition:
        return Partition.from_labels(self.labels)

    def edges(self) -> tuple[np.ndarray, np.ndarray]:
        """All ordered pairs within classes (quadratic in class size)."""
        order = np.argsort(self.labels, kind="stable")
        lab = self.labels[order]
        starts = np.flatnonzero(np.r_[True, lab[1:] != lab[:-1]]) if lab.size else np.zeros(0, int)
        ends = np.r_[starts[1:], lab.size] if lab.size else np.zeros(0, int)
        src: list[np.ndarray] = []
        dst: list[np.ndarray] = []
        for s, e in zip(starts, ends, strict=True):
            members = order[s:e]
            src.append(np.repeat(members, len(members)))
            dst.append(np.tile(members, len(members)))
        if not src:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        return np.concatenate(src).astype(np.int64), np.concatenate(dst).astype(np.int64)

    def classes(self) -> list[np.ndarray]:
        """The non-empty classes as arrays of world indices."""
        order = np.argsort(self.labels, kind="stable")
        lab = self.labels[order]
        if lab.size == 0:
            return []
        cuts = np.flatnonzero(lab[1:] != lab[:-1]) + 1
        return np.split(order, cuts)


@dataclass(frozen=True, eq=False)
class Relation:
    """A general relation as edges ``src[i] -> dst[i]``, sorted by source, no duplicates."""

    src: np.ndarray
    dst: np.ndarray
    num_worlds: int

    @classmethod
    def from_edges(cls, src: np.ndarray, dst: np.ndarray, n: int) -> Relation:
        src = np.asarray(src, dtype=np.int64)
        dst = np.asarray(dst, dtype=np.int64)
        if src.size:
            code = np.unique(src * n + dst)
            src, dst = code // n, code % n
        return cls(src, dst, n)

    def restrict(self, mask: np.ndarray) -> Relation:
        new_index = np.cumsum(mask) - 1
        keep = mask[self.src] & mask[self.dst]
        return Relation(new_index[self.src[keep]], new_index[self.dst[keep]], int(mask.sum()))

    def edges(self) -> tuple[np.ndarray, np.ndarray]:
        return self.src, self.dst

    def successors(self, w: int) -> np.ndarray:
        lo, hi = np.searchsorted(self.src, [w, w + 1])
        return self.dst[lo:hi]

    def is_reflexive(self) -> bool:
        return bool(
            np.all(np.bincount(self.src[self.src == self.dst], minlength=self.num_worlds) > 0)
        )

    def is_serial(self) -> bool:
        return bool(np.all(np.bincount(self.src, minlength=self.num_worlds) > 0))

    def is_symmetric(self) -> bool:
        n = self.num_worlds
        a = np.sort(self.src * n + self.dst)
        b = np.sort(self.dst * n + self.src)
        return bool(np.array_equal(a, b))

    def is_transitive(self) -> bool:
        n = self.num_worlds
        if self.src.size == 0:
            return True
        codes = self.src * n + self.dst
        # pairs (u, w) with u -> v -> w
        starts = np.searchsorted(self.src, np.arange(n))
        ends = np.searchsorted(self.src, np.arange(n), side="right")
        counts = (ends - starts)[self.dst]
        if counts.sum() > 50_000_000:
            raise InvalidModelError("relation too large to test transitivity")
        u = np.repeat(self.src, counts)
        idx = (
            np.concatenate([np.arange(starts[v], ends[v]) for v in self.dst])
            if counts.sum()
            else np.zeros(0, int)
        )
        w = self.dst[idx]
        return bool(np.all(np.isin(u * n + w, codes)))

    def is_euclidean(self) -> bool:
        # u->v and u->w imply v->w: each world's successor set must be a clique
        n = self.num_worlds
        codes = set((self.src * n + self.dst).tolist())
        for u in range(n):
            succ = self.successors(u)
            for v in succ:
                for w in succ:
                    if int(v) * n + int(w) not in codes:
                        return False
        return True


AnyRelation = Partition | Relation


def _as_partition(rel: Relation) -> Partition | None:
    """The partition of an equivalence relation, or ``None``."""
    n = rel.num_worlds
    if not rel.is_reflexive() or not rel.is_symmetric():
        return None
    comp = _components(n, [(rel.src, rel.dst)])
    sizes = np.bincount(comp, minlength=n)
    if int((sizes.astype(np.int64) ** 2).sum()) != rel.src.size:
        return None
    return Partition.from_labels(comp)


def _components(n: int, edge_lists: Sequence[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """Connected components (undirected) by min-label propagation with pointer jumping."""
    comp = np.arange(n, dtype=np.int64)
    if n == 0:
        return comp
    src = np.concatenate([e[0] for e in edge_lists]) if edge_lists else np.zeros(0, np.int64)
    dst = np.concatenate([e[1] for e in edge_lists]) if edge_lists else np.zeros(0, np.int64)
    while True:
        m = np.minimum(comp[src], comp[dst])
        new = comp.copy()
        np.minimum.at(new, src, m)
        np.minimum.at(new, dst, m)
        new = new[new]
        while True:
            nxt = new[new]
            if np.array_equal(nxt, new):
                break
            new = nxt
        if np.array_equal(new, comp):
            return comp
        comp = new


def partition_components(n: int, partitions: Sequence[Partition]) -> np.ndarray:
    """Components of the union of several partitions, as a label per world.

    Hook-and-jump union-find, vectorised: every round links each class to the
    smallest representative among its members, then shortcuts pointers.
    """
    parent = np.arange(n, dtype=np.int64)
    if n == 0 or not partitions:
        return parent
    groups = []
    for p in partitions:
        order = np.argsort(p.labels, kind="stable")
        lab = p.labels[order]
        new_class = np.r_[True, lab[1:] != lab[:-1]]
        groups.append((order, np.flatnonzero(new_class), np.cumsum(new_class) - 1))
    while True:
        before = parent.copy()
        for order, starts, class_of in groups:
            roots = parent[order]
            low = np.minimum.reduceat(roots, starts)[class_of]
            np.minimum.at(parent, roots, low)  # hook every member's root under the class minimum
            parent = parent[parent]
        while True:
            jumped = parent[parent]
            if np.array_equal(jumped, parent):
                break
            parent = jumped
        if np.array_equal(before, parent):
            return parent


# ------------------------------------------------------------------- model
def _canon_label(w: Any) -> Hashable:
    if isinstance(w, np.integer):
        return int(w)
    if isinstance(w, list):
        return tuple(_canon_label(x) for x in w)
    return w


class KripkeModel:
    """A finite Kripke model.

    Build one with :meth:`from_partitions`, :meth:`from_relations` or
    :meth:`from_observations`.  Relations that are equivalence relations are
    stored as partitions (the S5 fast path) whichever constructor is used.

    Attributes
    ----------
    agents : tuple of str
    atoms : tuple of str
        Canonical atom texts, sorted.
    """

    __slots__ = (
        "_labels",
        "atoms",
        "_atom_index",
        "_val",
        "agents",
        "_rel",
        "_index",
        "_cache",
        "__weakref__",
    )

    def __init__(
        self,
        labels: Sequence[World] | np.ndarray,
        atoms: Sequence[str],
        valuation: np.ndarray,
        relations: Mapping[str, AnyRelation],
        *,
        validate: bool = True,
    ):
        if isinstance(labels, np.ndarray) and labels.dtype.kind in "iu":
            self._labels = labels.astype(np.int64, copy=False)
        else:
            self._labels = np.fromiter(
                (_canon_label(w) for w in labels), dtype=object, count=len(labels)
            )
        self.atoms = tuple(atoms)
        self._atom_index = {a: i for i, a in enumerate(self.atoms)}
        self._val = np.asarray(valuation, dtype=bool)
        self.agents = tuple(check_agent_name(a) for a in relations)
        self._rel = {check_agent_name(a): r for a, r in relations.items()}
        self._index: dict[Hashable, int] | None = None
        self._cache: dict[Any, Any] = {}
        if validate:
            self._validate()

    def _validate(self) -> None:
        n = len(self._labels)
        if self._val.shape != (len(self.atoms), n):
            raise InvalidModelError(
                f"valuation has shape {self._val.shape}, expected {(len(self.atoms), n)}"
            )
        if len(set(self.atoms)) != len(self.atoms):
            raise InvalidModelError("atoms are repeated")
        if self._labels.dtype == object and len(set(self._labels.tolist())) != n:
            seen: set[Hashable] = set()
            for w in self._labels.tolist():
                if w in seen:
                    raise InvalidModelError(f"world {w!r} is listed twice")
                seen.add(w)
        elif self._labels.dtype != object and np.unique(self._labels).size != n:
            raise InvalidModelError("world labels are repeated")
        for a, r in self._rel.items():
            if isinstance(r, Partition):
                if r.labels.shape != (n,):
                    raise InvalidModelError(
                        f"partition of agent {a!r} covers {r.labels.size} worlds, expected {n}"
                    )
                if n and (r.labels.min() < 0 or r.labels.max() >= r.num_classes):
                    raise InvalidModelError(f"partition of agent {a!r} has out-of-range class ids")
            elif isinstance(r, Relation):
                if r.num_worlds != n or (
                    r.src.size and (r.src.max() >= n or r.dst.max() >= n or r.src.min() < 0)
                ):
                    raise InvalidModelError(
                        f"relation of agent {a!r} refers to worlds outside the model"
                    )
            else:
                raise InvalidModelError(
                    f"relation of agent {a!r} is {type(r).__name__}, not Partition or Relation"
                )

    # ---------------------------------------------------------- constructors
    @classmethod
    def _prepare(
        cls,
        worlds: Iterable[World],
        valuation: Mapping[Any, Iterable[Atom | str]],
        extra_atoms: Iterable[Atom | str] = (),
    ) -> tuple[list[Hashable], dict[Hashable, int], list[str], np.ndarray]:
        labels = [_canon_label(w) for w in worlds]
        index: dict[Hashable, int] = {}
        for i, w in enumerate(labels):
            try:
                if w in index:
                    raise InvalidModelError(f"world {w!r} is listed twice")
            except TypeError:
                raise InvalidModelError(f"world label {w!r} is not hashable") from None
            index[w] = i
        if not isinstance(valuation, Mapping):
            raise InvalidModelError("valuation must map each world to the atoms true there")
        true_atoms: dict[int, set[str]] = {}
        names: set[str] = {atom_key(a) for a in extra_atoms}
        for w, ats in valuation.items():
            w = _canon_label(w)
            if w not in index:
                raise UnknownWorldError(
                    f"valuation names world {w!r}, which is not among the worlds"
                )
            if isinstance(ats, str | Atom):
                raise InvalidModelError(
                    f"valuation of world {w!r} must be a collection of atoms, got {ats!r}"
                )
            keys = {atom_key(a) for a in ats}
            true_atoms[index[w]] = keys
            names |= keys
        atoms = sorted(names)
        aidx = {a: i for i, a in enumerate(atoms)}
        val = np.zeros((len(atoms), len(labels)), dtype=bool)
        for wi, keys in true_atoms.items():
            for k in keys:
                val[aidx[k], wi] = True
        return labels, index, atoms, val

    @classmethod
    def from_partitions(
        cls,
        worlds: Iterable[World],
        valuation: Mapping[Any, Iterable[Atom | str]],
        partitions: Mapping[Any, Iterable[Iterable[World]]],
        atoms: Iterable[Atom | str] = (),
    ) -> KripkeModel:
        """An S5 model from each agent's partition of the worlds into classes.

        Raises
        ------
        InvalidModelError
            If a partition misses a world, lists one twice, or names an unknown world.
        """
        labels, index, atom_names, val = cls._prepare(worlds, valuation, atoms)
        n = len(labels)
        rels: dict[str, AnyRelation] = {}
        for agent, classes in partitions.items():
            name = check_agent_name(agent)
            lab = np.full(n, -1, dtype=np.int64)
            k = 0
            for cls_ in classes:
                members = list(cls_)
                if not members:
                    continue
                for w in members:
                    w = _canon_label(w)
                    if w not in index:
                        raise UnknownWorldError(
                            f"partition of agent {name!r} names unknown world {w!r}"
                        )
                    if lab[index[w]] != -1:
                        raise InvalidModelError(
                            f"partition of agent {name!r} puts world {w!r} in two classes"
                        )
                    lab[index[w]] = k
                k += 1
            missing = np.flatnonzero(lab < 0)
            if missing.size:
                raise InvalidModelError(
                    f"partition of agent {name!r} does not cover world {labels[int(missing[0])]!r}"
                )
            rels[name] = Partition(lab, k)
        return cls(labels, atom_names, val, rels)

    @classmethod
    def from_relations(
        cls,
        worlds: Iterable[World],
        valuation: Mapping[Any, Iterable[Atom | str]],
        relations: Mapping[Any, Iterable[tuple[World, World]]],
        atoms: Iterable[Atom | str] = (),
    ) -> KripkeModel:
        """A model from each agent's accessibility relation as ``(world, world)`` pairs.

        Equivalence relations are detected and stored as partitions.
        """
        labels, index, atom_names, val = cls._prepare(worlds, valuation, atoms)
        n = len(labels)
        rels: dict[str, AnyRelation] = {}
        for agent, pairs in relations.items():
            name = check_agent_name(agent)
            src, dst = [], []
            for pair in pairs:
                try:
                    w, v = pair
                except (TypeError, ValueError):
                    raise InvalidModelError(
                        f"relation of agent {name!r}: {pair!r} is not a pair of worlds"
                    ) from None
                w, v = _canon_label(w), _canon_label(v)
                for x in (w, v):
                    if x not in index:
                        raise UnknownWorldError(
                            f"relation of agent {name!r} names unknown world {x!r}"
                        )
                src.append(index[w])
                dst.append(index[v])
            rel = Relation.from_edges(np.array(src, np.int64), np.array(dst, np.int64), n)
            part = _as_partition(rel)
            rels[name] = part if part is not None else rel
        return cls(labels, atom_names, val, rels)

    @classmethod
    def from_observations(
        cls,
        worlds: Iterable[World],
        valuation: Mapping[Any, Iterable[Atom | str]],
        observes: Mapping[Any, Iterable[Atom | str]],
        atoms: Iterable[Atom | str] = (),
    ) -> KripkeModel:
        """An S5 model in which agent *a* cannot tell apart worlds that agree on the atoms *a* observes.

        This is the natural way to build card deals: each player observes the
        atoms of their own hand.
        """
        labels, index, atom_names, val = cls._prepare(worlds, valuation, atoms)
        aidx = {a: i for i, a in enumerate(atom_names)}
        rels: dict[str, AnyRelation] = {}
        for agent, obs in observes.items():
            name = check_agent_name(agent)
            cols = []
            for a in obs:
                k = atom_key(a)
                if k not in aidx:
                    raise InvalidModelError(
                        f"agent {name!r} observes atom {k!r}, which the model does not have"
                    )
                cols.append(aidx[k])
            rels[name] = _partition_by_columns(val, cols, len(labels))
        return cls(labels, atom_names, val, rels)

    # ------------------------------------------------------------- queries
    @property
    def num_worlds(self) -> int:
        return len(self._labels)

    def __len__(self) -> int:
        return len(self._labels)

    @property
    def worlds(self) -> list[Hashable]:
        """World labels in index order."""
        return self._labels.tolist()

    def label(self, i: int) -> Hashable:
        """Label of world index ``i``."""
        return _canon_label(self._labels[i])

    def index(self, world: World) -> int:
        """Index of the world labelled ``world``."""
        if self._labels.dtype != object:
            if isinstance(world, bool) or not isinstance(world, int | np.integer):
                raise UnknownWorldError(
                    f"the model has no world {world!r} (its worlds are numbered)"
                )
            hits = np.flatnonzero(self._labels == world)
            if hits.size == 0:
                raise UnknownWorldError(f"the model has no world {world!r}")
            return int(hits[0])
        if self._index is None:
            self._index = {w: i for i, w in enumerate(self._labels.tolist())}
        w = _canon_label(world)
        try:
            return self._index[w]
        except (KeyError, TypeError):
            raise UnknownWorldError(f"the model has no world {world!r}") from None

    def relation(self, agent: object) -> AnyRelation:
        """The relation of ``agent`` (a :class:`Partition` or :class:`Relation`)."""
        name = str(agent)
        try:
            return self._rel[name]
        except KeyError:
            raise UnknownAgentError(
                f"unknown agent {name!r}; the model's agents are {', '.join(self.agents) or 'none'}"
            ) from None

    def atom_row(self, a: Atom | str) -> np.ndarray:
        """Boolean array: where atom ``a`` is true.

        Raises
        ------
        kripke.errors.UnknownAtomError
            If the model has no such atom.
        """
        key = a.key if isinstance(a, Atom) else a
        i = self._atom_index.get(key)
        if i is None:
            from kripke.errors import UnknownAtomError

            raise UnknownAtomError(
                f"the model has no atom {key!r}; its atoms include {list(self.atoms[:8])}"
            )
        return self._val[i]

    @property
    def valuation_matrix(self) -> np.ndarray:
        """``(atoms × worlds)`` boolean matrix (read-only view)."""
        v = self._val.view()
        v.flags.writeable = False
        return v

    def valuation(self, world: World) -> frozenset[str]:
        """Atoms true at ``world``."""
        i = self.index(world)
        return frozenset(self.atoms[j] for j in np.flatnonzero(self._val[:, i]))

    def is_s5(self, agent: object | None = None) -> bool:
        """Whether ``agent``'s relation (every agent's, by default) is an equivalence."""
        if agent is None:
            return all(isinstance(r, Partition) for r in self._rel.values())
        return isinstance(self.relation(agent), Partition)

    def accessible(self, agent: object, world: World) -> list[Hashable]:
        """Labels of the worlds ``agent`` considers possible at ``world``."""
        rel = self.relation(agent)
        i = self.index(world)
        if isinstance(rel, Partition):
            idx = np.flatnonzero(rel.labels == rel.labels[i])
        else:
            idx = rel.successors(i)
        return [self.label(int(j)) for j in idx]

    def classes(self, agent: object) -> list[list[Hashable]]:
        """The equivalence classes of an S5 agent (lists of labels)."""
        rel = self.relation(agent)
        if not isinstance(rel, Partition):
            raise InvalidModelError(f"agent {agent!r} has a non-S5 relation; use accessible()")
        return [[self.label(int(j)) for j in c] for c in rel.classes()]

    def edges(self, agent: object) -> tuple[np.ndarray, np.ndarray]:
        """All edges of ``agent``'s relation as index arrays (partitions expanded)."""
        return self.relation(agent).edges()

    def relation_properties(self, agent: object) -> dict[str, bool]:
        """Which frame properties the agent's relation has (reflexive, serial, transitive, …)."""
        rel = self.relation(agent)
        if isinstance(rel, Partition):
            return {
                k: True for k in ("reflexive", "serial", "symmetric", "transitive", "euclidean")
            }
        return {
            "reflexive": rel.is_reflexive(),
            "serial": rel.is_serial(),
            "symmetric": rel.is_symmetric(),
            "transitive": rel.is_transitive(),
            "euclidean": rel.is_euclidean(),
        }

    def restrict(self, mask: np.ndarray | Iterable[World]) -> KripkeModel:
        """The submodel on the worlds selected by a boolean mask or a collection of labels."""
        if not isinstance(mask, np.ndarray) or mask.dtype != bool:
            sel = np.zeros(self.num_worlds, dtype=bool)
            for w in mask:
                sel[self.index(w)] = True
            mask = sel
        if mask.shape != (self.num_worlds,):
            raise InvalidModelError(f"mask has shape {mask.shape}, expected ({self.num_worlds},)")
        rels = {a: r.restrict(mask) for a, r in self._rel.items()}
        return KripkeModel(self._labels[mask], self.atoms, self._val[:, mask], rels, validate=False)

    def relabel(self, labels: Sequence[World]) -> KripkeModel:
        """The same model with new world labels (same order)."""
        if len(labels) != self.num_worlds:
            raise InvalidModelError(f"{len(labels)} labels for {self.num_worlds} worlds")
        return KripkeModel(labels, self.atoms, self._val, self._rel)

    # --------------------------------------------------------------- dunder
    def __repr__(self) -> str:
        atoms = list(self.atoms) if len(self.atoms) <= 8 else [*self.atoms[:8], "..."]
        return f"KripkeModel({self.num_worlds} worlds, atoms {atoms}, agents {list(self.agents)})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, KripkeModel):
            return NotImplemented
        if self is other:
            return True
        if (
            self.worlds != other.worlds
            or self.atoms != other.atoms
            or set(self.agents) != set(other.agents)
        ):
            return False
        if not np.array_equal(self._val, other._val):
            return False
        return all(
            np.array_equal(
                _edge_codes(self._rel[a], self.num_worlds),
                _edge_codes(other._rel[a], other.num_worlds),
            )
            for a in self.agents
        )

    def __hash__(self) -> int:
        return hash((self.num_worlds, self.atoms, frozenset(self.agents)))

    def _repr_png_(self) -> bytes | None:
        from kripke.display import render_png

        return render_png("model", self)

    # ----------------------------------------------------------- conversion
    def to_networkx(self) -> Any:
        """A ``networkx.MultiDiGraph``: nodes are world labels with attribute ``atoms``,
        edges carry the agent as key (partitions give every ordered pair in a class)."""
        import networkx as nx

        g = nx.MultiDiGraph()
        for i, w in enumerate(self.worlds):
            g.add_node(w, atoms=frozenset(self.atoms[j] for j in np.flatnonzero(self._val[:, i])))
        for a in self.agents:
            src, dst = self.edges(a)
            for s, d in zip(src.tolist(), dst.tolist(), strict=True):
                g.add_edge(self.label(s), self.label(d), key=a, agent=a)
        return g

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description (see :func:`save_model`)."""
        worlds = [_jsonable(w) for w in self.worlds]
        val = {}
        for i, _w in enumerate(worlds):
            val[str(i)] = [self.atoms[j] for j in np.flatnonzero(self._val[:, i])]
        rels: dict[str, Any] = {}
        for a in self.agents:
            r = self._rel[a]
            if isinstance(r, Partition):
                rels[a] = {"partition": [c.tolist() for c in r.classes()]}
            else:
                rels[a] = {"edges": np.stack([r.src, r.dst], axis=1).tolist()}
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "worlds": worlds,
            "atoms": list(self.atoms),
            "valuation": val,
            "agents": list(self.agents),
            "relations": rels,
        }

    @classmethod
    def from_dict(cls, data: Any) -> KripkeModel:
        """Inverse of :meth:`to_dict`, validating every field."""
        if not isinstance(data, dict):
            raise ModelFileError("a model file holds a JSON object")
        if data.get("format") != FORMAT:
            raise ModelFileError(
                f"not a model file: 'format' is {data.get('format')!r}, expected {FORMAT!r}"
            )
        if data.get("version") != FORMAT_VERSION:
            raise ModelFileError(f"unsupported model file version {data.get('version')!r}")
        for key, typ in (
            ("worlds", list),
            ("atoms", list),
            ("valuation", dict),
            ("agents", list),
            ("relations", dict),
        ):
            if not isinstance(data.get(key), typ):
                raise ModelFileError(f"model file: {key!r} must be a JSON {typ.__name__}")
        worlds = [_canon_label(w) for w in data["worlds"]]
        n = len(worlds)
        atoms = data["atoms"]
        for a in atoms:
            if not isinstance(a, str):
                raise ModelFileError(f"model file: atom {a!r} is not a string")
        keys = [atom_key(a) for a in atoms]
        aidx = {a: i for i, a in enumerate(keys)}
        val = np.zeros((len(keys), n), dtype=bool)
        for wi, ats in data["valuation"].items():
            if not (isinstance(wi, str) and wi.isdigit() and int(wi) < n):
                raise ModelFileError(
                    f"model file: valuation key {wi!r} is not a world index below {n}"
                )
            if not isinstance(ats, list):
                raise ModelFileError(f"model file: valuation of world {wi} must be a list")
            for a in ats:
                atom_text = atom_key(a) if isinstance(a, str) else None
                if atom_text is None or atom_text not in aidx:
                    raise ModelFileError(f"model file: world {wi} has undeclared atom {a!r}")
                val[aidx[atom_text], int(wi)] = True
        rels: dict[str, AnyRelation] = {}
        for a in data["agents"]:
            if not isinstance(a, str | int):
                raise ModelFileError(f"model file: agent {a!r} is not a name")
            spec = data["relations"].get(str(a))
            if not isinstance(spec, dict) or not ({"partition", "edges"} & set(spec)):
                raise ModelFileError(
                    f"model file: agent {a!r} needs a 'partition' or 'edges' entry"
                )
            if "partition" in spec:
                lab = np.full(n, -1, dtype=np.int64)
                for k, members in enumerate(spec["partition"]):
                    for w in members:
                        if not isinstance(w, int) or not 0 <= w < n or lab[w] != -1:
                            raise ModelFileError(
                                f"model file: agent {a!r} partition has bad or repeated world {w!r}"
                            )
                        lab[w] = k
                if (lab < 0).any():
                    raise ModelFileError(
                        f"model file: agent {a!r} partition misses world {int(np.argmin(lab))}"
                    )
                rels[str(a)] = Partition(lab, len(spec["partition"]))
            else:
                e = spec["edges"]
                try:
                    arr = np.array(e, dtype=np.int64).reshape(-1, 2)
                except (ValueError, TypeError):
                    raise ModelFileError(
                        f"model file: agent {a!r} edges must be pairs of world indices"
                    ) from None
                if arr.size and (arr.min() < 0 or arr.max() >= n):
                    raise ModelFileError(
                        f"model file: agent {a!r} edges refer to worlds outside 0..{n - 1}"
                    )
                rels[str(a)] = Relation.from_edges(arr[:, 0], arr[:, 1], n)
        try:
            return cls(worlds, keys, val, rels)
        except InvalidModelError as exc:
            raise ModelFileError(str(exc)) from None


def _edge_codes(r: AnyRelation, n: int) -> np.ndarray:
    src, dst = r.edges()
    return np.sort(src * max(n, 1) + dst)


def _jsonable(w: Any) -> Any:
    if isinstance(w, tuple):
        return [_jsonable(x) for x in w]
    if isinstance(w, frozenset | set):
        return sorted(_jsonable(x) for x in w)
    if isinstance(w, str | int | float | bool) or w is None:
        return w
    raise ModelFileError(
        f"world label {w!r} cannot be written to JSON; relabel the model with strings or ints"
    )


def _partition_by_columns(val: np.ndarray, cols: Sequence[int], n: int) -> Partition:
    if not cols:
        return Partition(np.zeros(n, dtype=np.int64), 1 if n else 0)
    return Partition.from_labels(np.packbits(val[list(cols)].T, axis=1))


# ------------------------------------------------------------ pointed model
class PointedModel:
    """A model with its actual world, or several designated worlds.

    Parameters
    ----------
    model : KripkeModel
    actual : world label, or a set/list of world labels
        One label makes a single-pointed model; a ``set``, ``frozenset`` or
        ``list`` of labels a multi-pointed one.
    """

    __slots__ = ("model", "_designated")

    def __init__(self, model: KripkeModel, actual: Any):
        if not isinstance(model, KripkeModel):
            raise InvalidModelError(f"PointedModel needs a KripkeModel, got {type(model).__name__}")
        self.model = model
        if isinstance(actual, set | frozenset | list):
            idx = tuple(sorted(model.index(w) for w in actual))
            if not idx:
                raise InvalidModelError("a pointed model needs at least one designated world")
        else:
            idx = (model.index(actual),)
        self._designated = idx

    @classmethod
    def _from_indices(cls, model: KripkeModel, idx: Iterable[int]) -> PointedModel:
        pm = cls.__new__(cls)
        pm.model = model
        pm._designated = tuple(sorted(int(i) for i in idx))
        return pm

    @property
    def designated_indices(self) -> tuple[int, ...]:
        return self._designated

    @property
    def designated(self) -> list[Hashable]:
        """Labels of the designated worlds."""
        return [self.model.label(i) for i in self._designated]

    @property
    def actual(self) -> Hashable:
        """The actual world (raises if several worlds are designated)."""
        if len(self._designated) != 1:
            raise InvalidModelError(
                f"{len(self._designated)} worlds are designated; use .designated"
            )
        return self.model.label(self._designated[0])

    def __repr__(self) -> str:
        pts = self.designated
        where = repr(pts[0]) if len(pts) == 1 else f"{len(pts)} designated worlds"
        return f"PointedModel({self.model!r}, actual={where})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PointedModel):
            return NotImplemented
        return self.model == other.model and self._designated == other._designated

    def __hash__(self) -> int:
        return hash((self.model, self._designated))

    def _repr_png_(self) -> bytes | None:
        from kripke.display import render_png

        return render_png("model", self)


def save_model(model: KripkeModel | PointedModel, path: str | Path) -> None:
    """Write a model (with its designated worlds, if pointed) as JSON."""
    if isinstance(model, PointedModel):
        data = model.model.to_dict()
        data["designated"] = list(model.designated_indices)
    else:
        data = model.to_dict()
    Path(path).write_text(json.dumps(data, indent=1))


def load_model(path: str | Path) -> KripkeModel | PointedModel:
    """Read a model written by :func:`save_model`.

    Raises
    ------
    ModelFileError
        Naming what is wrong: not JSON, wrong format, unknown world or atom.
    """
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise ModelFileError(f"cannot read model file {path}: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ModelFileError(f"{path} is not valid JSON: {exc}") from None
    model = KripkeModel.from_dict(data)
    if "designated" in data:
        des = data["designated"]
        if (
            not isinstance(des, list)
            or not des
            or not all(isinstance(i, int) and 0 <= i < model.num_worlds for i in des)
        ):
            raise ModelFileError(
                "model file: 'designated' must be a non-empty list of world indices"
            )
        return PointedModel._from_indices(model, des)
    return model
