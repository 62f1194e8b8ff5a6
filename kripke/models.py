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
import os
import re
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from kripke.errors import (
    InvalidModelError,
    KripkeError,
    ModelFileError,
    SizeLimitError,
    UnknownAgentError,
    UnknownWorldError,
)
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
    "explicit_memory_limit",
    "set_explicit_memory_limit",
    "estimate_explicit_bytes",
    "check_explicit_size",
    "MEMORY_LIMIT_ENV",
    "DEFAULT_MEMORY_LIMIT",
]

FORMAT = "kripke-games/model"
FORMAT_VERSION = 1


#: environment variable overriding the explicit engine's memory limit (bytes, or 4GiB, 512MB …)
MEMORY_LIMIT_ENV = "KRIPKE_EXPLICIT_MEMORY_LIMIT"
#: default memory limit of one explicit model being built: 4 GiB
DEFAULT_MEMORY_LIMIT = 4 * 2**30
_memory_limit: int | None = None
_UNITS = {"": 1, "b": 1, "k": 10**3, "kb": 10**3, "kib": 2**10, "m": 10**6, "mb": 10**6,
          "mib": 2**20, "g": 10**9, "gb": 10**9, "gib": 2**30, "t": 10**12, "tb": 10**12,
          "tib": 2**40}  # fmt: skip


def explicit_memory_limit() -> int:
    """The memory (bytes) one explicit model may take before it is built.

    :func:`set_explicit_memory_limit` sets it; otherwise the environment
    variable ``KRIPKE_EXPLICIT_MEMORY_LIMIT`` (``"8GiB"``, ``"500MB"``,
    plain bytes); otherwise 4 GiB.

    Raises
    ------
    kripke.errors.KripkeError
        If the environment variable is not a size.
    """
    if _memory_limit is not None:
        return _memory_limit
    text = os.environ.get(MEMORY_LIMIT_ENV, "").strip()
    if not text:
        return DEFAULT_MEMORY_LIMIT
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([a-zA-Z]*)", text)
    if m is None or m.group(2).lower() not in _UNITS:
        raise KripkeError(
            f"{MEMORY_LIMIT_ENV}={text!r} is not a size; write bytes or e.g. 4GiB, 500MB"
        )
    limit = int(float(m.group(1)) * _UNITS[m.group(2).lower()])
    if limit <= 0:
        raise KripkeError(f"{MEMORY_LIMIT_ENV}={text!r}: the memory limit must be positive")
    return limit


def set_explicit_memory_limit(limit: int | None) -> int | None:
    """Set the explicit engine's memory limit in bytes (``None``: back to the default).

    Returns the previous setting.

    >>> old = set_explicit_memory_limit(2**20)
    >>> explicit_memory_limit()
    1048576
    >>> _ = set_explicit_memory_limit(old)
    """
    global _memory_limit
    if limit is not None and (not _is_int(limit) or limit <= 0):
        raise KripkeError(f"a memory limit is a positive number of bytes, got {limit!r}")
    old, _memory_limit = _memory_limit, limit
    return old


def estimate_explicit_bytes(num_worlds: int, num_atoms: int, num_agents: int) -> int:
    """Rough memory of an explicit S5 model and of evaluating formulas on it.

    Per world: an 8-byte label, one byte per atom and an 8-byte class id per
    agent; model checking holds a few such models (announcements restrict,
    truth sets are kept), so the estimate is four times the model
    (measured: muddy children with 19 children peaks near 3.2 times).
    """
    return 4 * num_worlds * (8 + num_atoms + 8 * num_agents)


def _size_text(num_bytes: float) -> str:
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if num_bytes >= size:
            return f"{num_bytes / size:,.1f} {unit}"
    return f"{int(num_bytes)} bytes"


def check_explicit_size(num_worlds: int, num_atoms: int, num_agents: int, what: str) -> None:
    """Refuse to build an explicit model that would not fit the memory limit.

    Raises
    ------
    kripke.errors.SizeLimitError
        Naming ``what``, the estimate and the limit, and suggesting the symbolic engine.

    >>> check_explicit_size(2**30, 30, 30, "muddy children with 30 children")
    Traceback (most recent call last):
    ...
    kripke.errors.SizeLimitError: muddy children with 30 children: 1,073,741,824 worlds are too many for the explicit engine: they need about 1,112.0 GiB, above its limit of 4.0 GiB; use engine='symbolic' (or raise the limit with set_explicit_memory_limit or KRIPKE_EXPLICIT_MEMORY_LIMIT)
    """
    need = estimate_explicit_bytes(num_worlds, num_atoms, num_agents)
    limit = explicit_memory_limit()
    if need > limit:
        raise SizeLimitError(
            f"{what}: {num_worlds:,} worlds are too many for the explicit engine: they need "
            f"about {_size_text(need)}, above its limit of {_size_text(limit)}; "
            "use engine='symbolic' (or raise the limit with "
            f"set_explicit_memory_limit or {MEMORY_LIMIT_ENV})"
        )


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
        """All ordered pairs within classes (quadratic in class size).

        Raises
        ------
        kripke.errors.SizeLimitError
            If the pairs would not fit the explicit engine's memory limit.
        """
        sizes = np.bincount(self.labels) if self.labels.size else np.zeros(0, np.int64)
        pairs = int((sizes.astype(np.int64) ** 2).sum())
        if 32 * pairs > explicit_memory_limit():  # two int64 arrays, and their building
            raise SizeLimitError(
                f"listing a partition's {pairs:,} ordered pairs needs about "
                f"{_size_text(32 * pairs)}, above the explicit engine's limit of "
                f"{_size_text(explicit_memory_limit())}; keep the relation a partition "
                "or use engine='symbolic'"
            )
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


def _collection(x: Any, what: str) -> list[Any]:
    """``x`` as a list, if it is a collection (not a string); else ``InvalidModelError``."""
    if isinstance(x, str | bytes) or not isinstance(x, Iterable):
        raise InvalidModelError(f"{what} must be a collection (a list or set), got {x!r}")
    return list(x)


def _mapping(x: Any, what: str) -> Mapping[Any, Any]:
    if not isinstance(x, Mapping):
        raise InvalidModelError(f"{what} must be a mapping from agent to its relation, got {x!r}")
    return x


def _known(w: Any, index: Mapping[Hashable, int]) -> bool:
    try:
        return w in index
    except TypeError:  # an unhashable label is no world of the model
        return False


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
        labels = [_canon_label(w) for w in _collection(worlds, "the worlds")]
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
            if not _known(w, index):
                raise UnknownWorldError(
                    f"valuation names world {w!r}, which is not among the worlds"
                )
            if isinstance(ats, str | Atom):
                raise InvalidModelError(
                    f"valuation of world {w!r} must be a collection of atoms, got {ats!r}"
                )
            keys = {atom_key(a) for a in _collection(ats, f"the valuation of world {w!r}")}
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
        for agent, classes in _mapping(partitions, "partitions").items():
            name = check_agent_name(agent)
            lab = np.full(n, -1, dtype=np.int64)
            k = 0
            for cls_ in _collection(classes, f"the partition of agent {name!r}"):
                members = _collection(cls_, f"a class of agent {name!r}")
                if not members:
                    continue
                for w in members:
                    w = _canon_label(w)
                    if not _known(w, index):
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
        for agent, pairs in _mapping(relations, "relations").items():
            name = check_agent_name(agent)
            src, dst = [], []
            for pair in _collection(pairs, f"the relation of agent {name!r}"):
                try:
                    w, v = pair
                except (TypeError, ValueError):
                    raise InvalidModelError(
                        f"relation of agent {name!r}: {pair!r} is not a pair of worlds"
                    ) from None
                w, v = _canon_label(w), _canon_label(v)
                for x in (w, v):
                    if not _known(x, index):
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
        for agent, obs in _mapping(observes, "observes").items():
            name = check_agent_name(agent)
            cols = []
            for a in _collection(obs, f"the atoms agent {name!r} observes"):
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
        """Inverse of :meth:`to_dict`, validating every field (see :func:`load_model`).

        A ``"designated"`` entry is checked too but ignored; :func:`load_model`
        returns it as a :class:`PointedModel`.

        Raises
        ------
        kripke.errors.ModelFileError
            Naming the field and what is wrong with it.
        """
        return _read_model_data(data)[0]


# --------------------------------------------------------------- model files
#: the fields of a model file, in the order :meth:`KripkeModel.to_dict` writes them
_FILE_FIELDS = ("format", "version", "worlds", "atoms", "valuation", "agents", "relations")
#: world labels in files: nested lists (tuples in Python) at most this deep
_MAX_LABEL_DEPTH = 16
#: integers in model files have at most this many digits (int64 range)
_MAX_INT_DIGITS = 18
_INDEX_RE = re.compile(r"0|[1-9][0-9]*")


def _file_error(field: str, problem: str) -> ModelFileError:
    return ModelFileError(f"model file: {field}: {problem}")


def _json_type(x: Any) -> str:
    if x is None:
        return "null"
    if isinstance(x, bool):
        return f"the boolean {json.dumps(x)}"
    if isinstance(x, int | float):
        return f"the number {x!r}"
    if isinstance(x, str):
        return f"the string {_short(x)}"
    if isinstance(x, list):
        return "a list"
    if isinstance(x, _LongNumber):
        return f"a {x.digits}-digit number (integers in model files have at most {_MAX_INT_DIGITS} digits)"
    return "an object"


def _short(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _read_index(x: Any, n: int, field: str) -> int:
    if not _is_int(x):
        raise _file_error(
            field, f"expected a world index (an integer 0..{n - 1}), got {_json_type(x)}"
        )
    if not 0 <= x < n:
        raise _file_error(field, f"world index {x} is outside 0..{n - 1}")
    return int(x)


def _read_list(x: Any, field: str, what: str) -> list[Any]:
    if not isinstance(x, list):
        raise _file_error(field, f"expected a list of {what}, got {_json_type(x)}")
    return x


def _read_label(x: Any, field: str, depth: int = 0) -> Hashable:
    if isinstance(x, str) or _is_int(x):
        return x  # type: ignore[no-any-return]
    if isinstance(x, list) and depth < _MAX_LABEL_DEPTH:
        return tuple(_read_label(y, field, depth + 1) for y in x)
    raise _file_error(
        field,
        "a world label is a string, an integer or a list of those "
        f"(at most {_MAX_LABEL_DEPTH} deep), got {_json_type(x)}",
    )


def _read_model_data(data: Any) -> tuple[KripkeModel, tuple[int, ...] | None]:
    """Validate the JSON value of a model file: the model and its designated worlds."""
    if not isinstance(data, dict):
        raise ModelFileError(f"a model file holds a JSON object, got {_json_type(data)}")
    if data.get("format") != FORMAT:
        raise ModelFileError(
            f"not a model file: 'format' is {_short(data.get('format'))}, expected {FORMAT!r}"
        )
    unknown = sorted(set(data) - set(_FILE_FIELDS) - {"designated"})
    if unknown:
        raise ModelFileError(
            f"model file: unknown field {_short(unknown[0])}; "
            f"the fields are {', '.join(_FILE_FIELDS)} and the optional designated"
        )
    version = data.get("version")
    if not _is_int(version) or version != FORMAT_VERSION:
        raise _file_error(
            "version",
            f"unsupported model file version {_json_type(version)}; "
            f"this library reads version {FORMAT_VERSION} (the integer)",
        )
    for key in _FILE_FIELDS[2:]:
        if key not in data:
            raise ModelFileError(f"model file: the field {key!r} is missing")
    worlds = [
        _read_label(w, f"worlds[{i}]")
        for i, w in enumerate(_read_list(data["worlds"], "worlds", "world labels"))
    ]
    n = len(worlds)
    seen_worlds: dict[Hashable, int] = {}
    for i, w in enumerate(worlds):
        if w in seen_worlds:
            raise _file_error(
                f"worlds[{i}]", f"world {w!r} is listed twice (also at {seen_worlds[w]})"
            )
        seen_worlds[w] = i

    keys: list[str] = []
    for i, a in enumerate(_read_list(data["atoms"], "atoms", "atom names")):
        if not isinstance(a, str):
            raise _file_error(f"atoms[{i}]", f'expected an atom such as "p", got {_json_type(a)}')
        try:
            keys.append(atom_key(a))
        except InvalidModelError:
            raise _file_error(
                f"atoms[{i}]", f"{_short(a)} is not an atom (a name such as p, m1 or has(p2, QS))"
            ) from None
        if keys[-1] in keys[:-1]:
            raise _file_error(f"atoms[{i}]", f"atom {_short(a)} is listed twice")
    aidx = {a: i for i, a in enumerate(keys)}

    valuation = data["valuation"]
    if not isinstance(valuation, dict):
        raise _file_error(
            "valuation",
            f"expected an object from world index to atoms, got {_json_type(valuation)}",
        )
    val = np.zeros((len(keys), n), dtype=bool)
    for wi, ats in valuation.items():
        if not _INDEX_RE.fullmatch(wi) or len(wi) > _MAX_INT_DIGITS or int(wi) >= n:
            raise _file_error(
                f"valuation key {_short(wi)}",
                f"is not a world index below {n} (written in decimal digits)",
            )
        field = f"valuation[{wi!r}]"
        for j, a in enumerate(_read_list(ats, field, "atoms")):
            atom_text = atom_key(a) if isinstance(a, str) and a in aidx else None
            if atom_text is None:
                try:
                    atom_text = atom_key(a) if isinstance(a, str) else None
                except InvalidModelError:
                    atom_text = None
            if atom_text is None or atom_text not in aidx:
                raise _file_error(f"{field}[{j}]", f"world {wi} has undeclared atom {_short(a)}")
            if val[aidx[atom_text], int(wi)]:
                raise _file_error(f"{field}[{j}]", f"atom {_short(a)} is listed twice")
            val[aidx[atom_text], int(wi)] = True

    agents: list[str] = []
    for i, a in enumerate(_read_list(data["agents"], "agents", "agent names")):
        if not isinstance(a, str):
            raise _file_error(
                f"agents[{i}]",
                f'an agent name is a string such as "1" or "alice", got {_json_type(a)}',
            )
        try:
            name = check_agent_name(a)
        except KripkeError:
            raise _file_error(
                f"agents[{i}]", f"{_short(a)} is not an agent name (letters, digits, _)"
            ) from None
        if name in agents:
            raise _file_error(f"agents[{i}]", f"agent {name!r} is listed twice")
        agents.append(name)

    relations = data["relations"]
    if not isinstance(relations, dict):
        raise _file_error(
            "relations", f"expected an object from agent to relation, got {_json_type(relations)}"
        )
    extra = sorted(set(relations) - set(agents))
    if extra:
        raise _file_error(
            f"relations[{extra[0]!r}]", "is the relation of an agent not listed in 'agents'"
        )
    rels: dict[str, AnyRelation] = {}
    for a in agents:
        spec = relations.get(a)
        if not isinstance(spec, dict) or not ({"partition", "edges"} & set(spec)):
            raise ModelFileError(f"model file: agent {a!r} needs a 'partition' or 'edges' entry")
        if set(spec) - {"partition", "edges"}:
            bad = sorted(set(spec) - {"partition", "edges"})[0]
            raise _file_error(
                f"relations[{a!r}]", f"unknown entry {_short(bad)} (use 'partition' or 'edges')"
            )
        if len(spec) == 2:
            raise _file_error(
                f"relations[{a!r}]", "has both 'partition' and 'edges'; give one of them"
            )
        field = f"relations[{a!r}]"
        if "partition" in spec:
            rels[a] = _read_partition(spec["partition"], n, f"{field}.partition", a)
        else:
            rels[a] = _read_edges(spec["edges"], n, f"{field}.edges")

    try:
        model = KripkeModel(worlds, keys, val, rels)
    except InvalidModelError as exc:
        raise ModelFileError(f"model file: {exc}") from None
    if "designated" not in data:
        return model, None
    des = _read_list(data["designated"], "designated", "world indices")
    if not des:
        raise _file_error("designated", "a pointed model needs at least one designated world")
    idx = [_read_index(x, n, f"designated[{i}]") for i, x in enumerate(des)]
    for j, i in enumerate(idx):
        if i in idx[:j]:
            raise _file_error(f"designated[{j}]", f"world index {i} is listed twice")
    return model, tuple(sorted(idx))


def _read_partition(spec: Any, n: int, field: str, agent: str) -> Partition:
    lab = np.full(n, -1, dtype=np.int64)
    classes = _read_list(spec, field, "classes (lists of world indices)")
    for k, members in enumerate(classes):
        members = _read_list(members, f"{field}[{k}]", "world indices")
        if not members:
            raise _file_error(f"{field}[{k}]", "a class of the partition is empty")
        for j, w in enumerate(members):
            i = _read_index(w, n, f"{field}[{k}][{j}]")
            if lab[i] != -1:
                raise _file_error(
                    f"{field}[{k}][{j}]", f"world {i} is already in class {int(lab[i])}"
                )
            lab[i] = k
    if (lab < 0).any():
        raise ModelFileError(
            f"model file: agent {agent!r} partition misses world {int(np.argmin(lab))}"
        )
    return Partition(lab, len(classes))


def _read_edges(spec: Any, n: int, field: str) -> Relation:
    pairs = _read_list(spec, field, "pairs [from, to] of world indices")
    src = np.empty(len(pairs), dtype=np.int64)
    dst = np.empty(len(pairs), dtype=np.int64)
    seen: set[tuple[int, int]] = set()
    for k, pair in enumerate(pairs):
        if not isinstance(pair, list) or len(pair) != 2:
            raise _file_error(
                f"{field}[{k}]", f"expected a pair [from, to] of world indices, got {_short(pair)}"
            )
        edge = (
            _read_index(pair[0], n, f"{field}[{k}][0]"),
            _read_index(pair[1], n, f"{field}[{k}][1]"),
        )
        if edge in seen:
            raise _file_error(f"{field}[{k}]", f"edge {list(edge)} is listed twice")
        seen.add(edge)
        src[k], dst[k] = edge
    return Relation.from_edges(src, dst, n)


def _edge_codes(r: AnyRelation, n: int) -> np.ndarray:
    src, dst = r.edges()
    return np.sort(src * max(n, 1) + dst)


def _jsonable(w: Any) -> Any:
    if isinstance(w, tuple):
        return [_jsonable(x) for x in w]
    if isinstance(w, frozenset | set):
        return sorted(_jsonable(x) for x in w)
    if isinstance(w, str) or (_is_int(w) and len(str(abs(w))) <= _MAX_INT_DIGITS):
        return w
    raise ModelFileError(
        f"world label {w!r} cannot be written to a model file (labels are strings, "
        f"integers of at most {_MAX_INT_DIGITS} digits, or tuples of those); "
        "relabel the model with strings or ints"
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
    """Read a model written by :func:`save_model`, validating every field.

    The file is UTF-8 JSON: an object with ``"format": "kripke-games/model"``,
    ``"version": 1`` (the integer), ``"worlds"`` (labels: strings, integers
    or lists of those, which read back as tuples), ``"atoms"`` (atom texts
    such as ``"p"`` or ``"has(p2, QS)"``), ``"valuation"`` (world index in
    decimal digits → list of declared atoms), ``"agents"`` (names as
    strings), ``"relations"`` (each agent → ``{"partition": [[i, ...], ...]}``
    covering every world index once, or ``{"edges": [[i, j], ...]}``, not
    both) and optionally ``"designated"`` (a non-empty list of world
    indices).  Integers have at most 18 digits; ``NaN``, ``Infinity``,
    floats and booleans are refused wherever a number or name is expected.

    Raises
    ------
    ModelFileError
        Naming the field and what is wrong: unreadable, not UTF-8, not JSON,
        wrong format or version, a bad world label, index, atom or agent.
    SizeLimitError
        If the file is larger than the explicit engine's memory limit.

    Examples
    --------
    >>> import os, tempfile
    >>> from kripke.puzzles import muddy_children
    >>> path = os.path.join(tempfile.mkdtemp(), "muddy.json")
    >>> save_model(muddy_children(3, [1, 2]), path)
    >>> load_model(path).actual
    3
    >>> with open(path, "w") as fh:
    ...     _ = fh.write('{"format": "kripke-games/model", "version": 1.0}')
    >>> load_model(path)
    Traceback (most recent call last):
    ...
    kripke.errors.ModelFileError: model file: version: unsupported model file version the number 1.0; this library reads version 1 (the integer)
    """
    try:
        size = Path(path).stat().st_size
        if size > explicit_memory_limit():
            raise SizeLimitError(
                f"model file {path} has {size:,} bytes, above the explicit engine's limit of "
                f"{explicit_memory_limit():,} bytes (set {MEMORY_LIMIT_ENV} to raise it)"
            )
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise ModelFileError(f"cannot read model file {path}: {exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ModelFileError(
            f"{path} is not UTF-8 text: byte {raw[exc.start]:#04x} at offset {exc.start}"
        ) from None
    try:
        data = json.loads(
            text,
            parse_int=_json_int,
            parse_constant=_json_constant,
            object_pairs_hook=_json_object,
        )
    except json.JSONDecodeError as exc:
        raise ModelFileError(f"{path} is not valid JSON: {exc}") from None
    except RecursionError:
        raise ModelFileError(f"{path} is not a model file: its JSON is nested too deeply") from None
    model, designated = _read_model_data(data)
    if designated is None:
        return model
    return PointedModel._from_indices(model, designated)


class _LongNumber:
    """An integer of a model file with too many digits, refused where it is read."""

    __slots__ = ("digits",)

    def __init__(self, digits: int):
        self.digits = digits

    def __repr__(self) -> str:
        return f"<a {self.digits}-digit number>"


def _json_int(text: str) -> int | _LongNumber:
    digits = len(text.lstrip("-"))
    if digits > _MAX_INT_DIGITS:
        return _LongNumber(digits)  # its field's check names it (no int() of a huge text)
    return int(text)


def _json_constant(text: str) -> Any:
    raise ModelFileError(f"model file: {text} is not a valid value in a model file")


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ModelFileError(f"model file: the key {_short(key)} appears twice in one object")
        out[key] = value
    return out
