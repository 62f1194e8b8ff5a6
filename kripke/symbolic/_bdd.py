"""The BDD backend: the one module of :mod:`kripke` that imports ``dd``.

``dd.cudd`` (CUDD, C) is used when it can be imported, ``dd.autoref`` (pure
Python) otherwise.  The environment variable ``KRIPKE_BDD_BACKEND``
(``cudd`` or ``autoref``) or :func:`set_backend` forces one.  Every backend
gets one shared :class:`Manager` per process, so BDDs of different
structures combine freely; each propositional variable is declared together
with a primed copy directly below it (relational BDDs for belief agents use
the primed copies).

Variables are named by the canonical text of their atom (``"has(alice, 0)"``);
auxiliary variables of the engine start with ``@`` and primed copies end
with ``'``, so neither can clash with an atom.

Examples
--------
>>> from kripke.symbolic._bdd import manager
>>> mgr = manager()
>>> mgr.declare(["p", "q"])
>>> u = mgr.var("p") & ~mgr.var("q")
>>> mgr.count(u, ["p", "q"])
1
"""

from __future__ import annotations

import atexit
import os
import struct
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import dd.autoref as _autoref

from kripke.errors import EngineError, SizeLimitError

try:  # the fast backend is optional
    import dd.cudd as _cudd
except ImportError:  # pragma: no cover - depends on the installation
    _cudd = None

__all__ = [
    "BDD",
    "Manager",
    "available_backends",
    "default_backend",
    "get_backend",
    "set_backend",
    "use_backend",
    "fresh_manager",
    "manager",
    "set_limits",
    "get_limits",
    "ENV_VAR",
    "is_bdd",
]

#: Environment variable that forces a backend (``cudd`` or ``autoref``).
ENV_VAR = "KRIPKE_BDD_BACKEND"

#: A BDD as the backend represents it (``dd.cudd.Function`` or ``dd.autoref.Function``).
BDD = Any

_MIB = 2**20


def is_bdd(x: object) -> bool:
    """Whether ``x`` is a BDD of one of the backends."""
    if _cudd is not None and isinstance(x, _cudd.Function):
        return True
    return isinstance(x, _autoref.Function)


def available_backends() -> tuple[str, ...]:
    """The backends that can be used here, fastest first."""
    return ("cudd", "autoref") if _cudd is not None else ("autoref",)


def default_backend() -> str:
    """The backend chosen by ``KRIPKE_BDD_BACKEND``, else the fastest available."""
    env = os.environ.get(ENV_VAR, "").strip().lower()
    if env:
        return _check_backend(env)
    return available_backends()[0]


def _check_backend(name: str) -> str:
    if name not in ("cudd", "autoref"):
        raise EngineError(f"unknown BDD backend {name!r}; choose 'cudd' or 'autoref'")
    if name == "cudd" and _cudd is None:
        raise EngineError(
            "the BDD backend 'cudd' is not installed; install dd with CUDD or use 'autoref'"
        )
    return name


_current: str | None = None
_managers: dict[str, Manager] = {}
# managers replaced by fresh_manager() stay referenced: CUDD must outlive every
# BDD of it, and BDDs may sit in reference cycles collected at any later time
_retired: list[Manager] = []
_limits: dict[str, int | None] = {
    "max_memory": None,  # bytes CUDD may allocate (None: half the physical memory)
    "max_nodes": 50_000_000,  # live nodes of the pure-Python backend
    "max_states": 200_000,  # states of a structure turned into an explicit model
    "max_work": 2 * 10**9,  # estimated BDD work of a puzzle protocol (about a minute)
}

#: Cache slots a new CUDD manager starts with.  CUDD grows its computed table
#: by itself while the hit rate is good, so a small start costs no speed on
#: large problems, and a trivial structure does not pay for a 32 MiB table.
INITIAL_CACHE_SLOTS = 2**16


def get_backend() -> str:
    """The name of the backend new structures use."""
    global _current
    if _current is None:
        _current = default_backend()
    return _current


def set_backend(name: str) -> None:
    """Use backend ``name`` (``"cudd"`` or ``"autoref"``) for new structures."""
    global _current
    _current = _check_backend(name)


@contextmanager
def use_backend(name: str) -> Iterator[Manager]:
    """Temporarily use backend ``name``; yields its manager."""
    global _current
    before = _current
    set_backend(name)
    try:
        yield manager()
    finally:
        _current = before


@contextmanager
def fresh_manager(name: str | None = None) -> Iterator[Manager]:
    """Temporarily replace the shared manager of a backend by a new one.

    Structures built inside keep using the new manager; its peak node count
    starts at zero (the benchmarks use this).
    """
    global _current
    backend = _check_backend(name) if name is not None else get_backend()
    before_current = _current
    before = _managers.get(backend)
    mgr = Manager(backend)
    _managers[backend] = mgr
    _current = backend
    try:
        yield mgr
    finally:
        _current = before_current
        _retired.append(mgr)
        mgr.clear_caches()
        if before is None:
            _managers.pop(backend, None)
        else:
            _managers[backend] = before


@atexit.register
def _shutdown() -> None:
    """Free cached BDDs while their managers are still alive (a quiet interpreter exit)."""
    import gc

    for mgr in [*_managers.values(), *_retired]:
        mgr.clear_caches()
    gc.collect()


def _immortal(obj: object) -> None:
    """Never free ``obj``: a BDD manager must outlive every BDD node it made
    (both backends check their reference counts when freed), and at
    interpreter exit Python frees objects in no useful order.  The operating
    system reclaims the memory."""
    import ctypes

    ctypes.pythonapi.Py_IncRef(ctypes.py_object(obj))


def manager(name: str | None = None) -> Manager:
    """The shared manager of backend ``name`` (the current backend by default)."""
    backend = _check_backend(name) if name is not None else get_backend()
    mgr = _managers.get(backend)
    if mgr is None:
        mgr = Manager(backend)
        _managers[backend] = mgr
    return mgr


def set_limits(
    *,
    max_memory: int | None = None,
    max_nodes: int | None = None,
    max_states: int | None = None,
    max_work: int | None = None,
) -> dict[str, int | None]:
    """Set size limits; returns the previous ones (pass them back to restore).

    Parameters
    ----------
    max_memory : int, optional
        Bytes the CUDD backend may allocate; an operation that needs more
        raises :class:`~kripke.errors.SizeLimitError` (default: half the
        physical memory).
    max_nodes : int, optional
        Live BDD nodes the pure-Python backend may hold, checked between
        operations.
    max_states : int, optional
        The largest structure :func:`~kripke.symbolic.to_explicit` converts.
    max_work : int, optional
        The estimated BDD work (summed sizes of the BDDs it goes through) a
        puzzle protocol, such as the symbolic muddy children protocol, may
        need; checked before it starts.  The default, ``2 * 10**9``, is
        about a minute.
    """
    before = dict(_limits)
    for key, value in (
        ("max_memory", max_memory),
        ("max_nodes", max_nodes),
        ("max_states", max_states),
        ("max_work", max_work),
    ):
        if value is not None:
            if not isinstance(value, int) or value <= 0:
                raise EngineError(f"{key} must be a positive integer, got {value!r}")
            _limits[key] = value
    for mgr in _managers.values():
        mgr._apply_memory_limit()
    return before


def get_limits() -> dict[str, int | None]:
    """The current size limits (see :func:`set_limits`)."""
    return dict(_limits)


def _restore_limits(saved: Mapping[str, int | None]) -> None:
    _limits.update(saved)
    for mgr in _managers.values():
        mgr._apply_memory_limit()


class _ApaCounter:
    """CUDD's exact (arbitrary-precision) model count, ``Cudd_ApaCountMinterm``.

    ``dd.cudd`` does not wrap it, but its extension module exports CUDD's C
    functions; they are called through :mod:`ctypes` with the manager's
    pointer (the field of ``dd.cudd.BDD`` just before its ``vars``, as laid out
    in dd's source) and a node's pointer (``int(u) - 2``, dd's encoding).
    :meth:`attach` checks the pointer (CUDD must give back this manager's
    constant node and a known count) and returns None when anything does not
    match, so counting falls back to Python integers.
    """

    def __init__(self, lib: Any, mgr: int):
        self._lib = lib
        self._mgr = mgr

    @classmethod
    def attach(cls, bdd: Any) -> _ApaCounter | None:
        import ctypes

        try:
            lib = ctypes.CDLL(_cudd.__file__)  # type: ignore[union-attr]
            words = (ctypes.c_uint64 * 8).from_address(id(bdd))
            slots = [i for i in range(1, 8) if words[i] == id(bdd.vars)]
            if len(slots) != 1:
                return None
            mgr = int(words[slots[0] - 1])
            lib.Cudd_ReadOne.restype = ctypes.c_void_p
            lib.Cudd_ReadOne.argtypes = [ctypes.c_void_p]
            if lib.Cudd_ReadOne(mgr) != int(bdd.true) - 2:
                return None
            lib.Cudd_ApaCountMinterm.restype = ctypes.POINTER(ctypes.c_uint32)
            lib.Cudd_ApaCountMinterm.argtypes = [
                ctypes.c_void_p,
                ctypes.c_void_p,
                ctypes.c_int,
                ctypes.POINTER(ctypes.c_int),
            ]
            lib.Cudd_FreeApaNumber.restype = None
            lib.Cudd_FreeApaNumber.argtypes = [ctypes.POINTER(ctypes.c_uint32)]
            counter = cls(lib, mgr)
            if counter.count(bdd.true, 70) != 1 << 70 or counter.count(bdd.false, 3) != 0:
                return None
            return counter
        except (OSError, AttributeError, ValueError, TypeError):  # pragma: no cover
            return None

    def count(self, u: BDD, nvars: int) -> int:
        """The models of ``u`` over ``nvars`` variables (``u`` depends on no others)."""
        import ctypes

        digits = ctypes.c_int()
        p = self._lib.Cudd_ApaCountMinterm(self._mgr, int(u) - 2, nvars, ctypes.byref(digits))
        if not p:
            raise MemoryError("CUDD out of memory while counting")
        try:
            n = digits.value
            return int.from_bytes(struct.pack(f">{n}I", *p[:n]), "big")
        finally:
            self._lib.Cudd_FreeApaNumber(p)


def _total_memory() -> int:
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):  # pragma: no cover - exotic platforms
        return 8 * 2**30


class Manager:
    """One BDD manager: variables (each with a primed copy) and the operations
    the engine needs, identical on both backends.

    Parameters
    ----------
    backend : {"cudd", "autoref"}
    """

    def __init__(self, backend: str):
        self.backend = _check_backend(backend)
        if backend == "cudd":
            assert _cudd is not None
            mem = min(_total_memory() // 4, 2 * 2**30)
            self.bdd = _cudd.BDD(memory_estimate=mem, initial_cache_size=INITIAL_CACHE_SLOTS)
            self.bdd.configure(reordering=False)
            _immortal(self.bdd)
            self._apa: _ApaCounter | None = _ApaCounter.attach(self.bdd)
        else:
            self.bdd = _autoref.BDD()
            self.bdd.configure(reordering=False)
            _immortal(self.bdd)
            self._apa = None
        self.true = self.bdd.true
        self.false = self.bdd.false
        self._vars: dict[str, BDD] = {}
        self._primes: dict[str, BDD] = {}
        self._fresh = 0
        self._peak = 0
        self._after_gc = 0
        self._cubes: dict[frozenset[str], BDD] = {}
        #: canonical ids of formulas, shared by every structure of this manager
        self.intern: dict[tuple[Any, ...], int] = {}
        self.canon_cache: dict[int, tuple[Any, int]] = {}
        #: whether the formula with a canonical id is propositional (by id)
        self.propositional: list[bool] = []
        #: structures the puzzle builders made, by arguments (they are immutable)
        self.builds: dict[Any, Any] = {}
        self._apply_memory_limit()

    def clear_caches(self) -> None:
        """Drop cached cubes, formula ids and puzzle structures."""
        self._cubes.clear()
        self.canon_cache.clear()
        self.builds.clear()

    # ------------------------------------------------------------ limits
    def _apply_memory_limit(self) -> None:
        if self.backend == "cudd":
            limit = _limits["max_memory"] or _total_memory() // 2
            self.bdd.configure(max_memory=int(limit))

    def check(self) -> None:
        """Raise :class:`SizeLimitError` if the pure-Python backend holds too many nodes.

        The pure-Python backend never frees dead nodes by itself; this
        collects them when the table has doubled since the last collection.
        """
        if self.backend == "autoref":
            n = len(self.bdd)
            if n > 2 * self._after_gc + 50_000:
                self.bdd.collect_garbage()
                n = len(self.bdd)
                self._after_gc = n
            if n > self._peak:
                self._peak = n
            limit = _limits["max_nodes"]
            if limit is not None and n > limit:
                raise SizeLimitError(
                    f"the BDDs hold {n} nodes, more than the limit of {limit}; "
                    "raise it with kripke.symbolic.set_limits(max_nodes=...)"
                )

    @contextmanager
    def guard(self, what: str | Callable[[], str]) -> Iterator[None]:
        """Turn the backend's out-of-memory failures into :class:`SizeLimitError`.

        ``what`` (text, or a function making it) names the task in the message.
        """
        try:
            yield
        except (ValueError, RuntimeError, MemoryError) as exc:
            raise self.size_error(exc, what) from None

    def size_error(self, exc: BaseException, what: str | Callable[[], str]) -> BaseException:
        """The :class:`SizeLimitError` for a backend failure, or ``exc`` if it is another error."""
        text = str(exc)
        if "NULL" in text or "out of memory" in text or isinstance(exc, MemoryError):
            limit = _limits["max_memory"] or _total_memory() // 2
            task = what() if callable(what) else what
            return SizeLimitError(
                f"{task} needs more than the BDD memory limit of {limit // _MIB} MiB; "
                "raise it with kripke.symbolic.set_limits(max_memory=...) or choose a "
                "better variable order"
            )
        return exc

    def peak_nodes(self) -> int:
        """The largest number of live BDD nodes so far."""
        if self.backend == "cudd":
            return int(self._statistics()["peak_live_nodes"])
        self.check()
        return self._peak

    def _statistics(self) -> dict[str, Any]:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # dd notes a unit change of "mem" on every call
            return dict(self.bdd.statistics())

    def memory_in_use(self) -> int:
        """Bytes the backend has allocated (CUDD), or an estimate from the node count."""
        if self.backend == "cudd":
            return int(self._statistics()["mem"])
        return 100 * len(self.bdd)

    def live_nodes(self) -> int:
        """The number of BDD nodes currently referenced."""
        return int(len(self.bdd))

    # --------------------------------------------------------- variables
    def declare(self, names: Iterable[str]) -> None:
        """Declare variables at the bottom of the order."""
        bdd = self.bdd
        for name in names:
            if name not in self._vars:
                bdd.declare(name)
                self._vars[name] = bdd.var(name)

    def ensure_primes(self, names: Iterable[str]) -> None:
        """Declare the primed copies of ``names``, each directly below its variable
        (CUDD; the pure-Python backend puts them at the bottom)."""
        bdd = self.bdd
        for name in names:
            p = name + "'"
            if p in self._primes:
                continue
            if self.backend == "cudd":
                bdd.insert_var(p, self.level(name) + 1)
            else:
                bdd.declare(p)
            self._primes[p] = bdd.var(p)

    def is_declared(self, name: str) -> bool:
        return name in self._vars

    def fresh(self, tag: str) -> str:
        """A new auxiliary variable ``@<tag><n>`` (declared, with its primed copy)."""
        self._fresh += 1
        name = f"@{tag}{self._fresh}"
        self.declare([name])
        return name

    def var(self, name: str) -> BDD:
        """The BDD of a declared variable."""
        return self._vars[name]

    def primed(self, name: str) -> BDD:
        """The BDD of the primed copy of a declared variable."""
        p = self._primes.get(name + "'")
        if p is None:
            self.ensure_primes([name])
            p = self._primes[name + "'"]
        return p

    def has_prime(self, name: str) -> bool:
        return name + "'" in self._primes

    def level(self, name: str) -> int:
        return int(self.bdd.level_of_var(name))

    def order(self) -> list[str]:
        """Declared (unprimed) variables from the top of the order down."""
        return sorted(self._vars, key=self.level)

    def ensure_order(self, names: Sequence[str]) -> None:
        """Make ``names`` (declared) appear in this relative order, moving them if needed."""
        names = [n for n in names if n in self._vars]
        levels = [self.level(n) for n in names]
        if all(a < b for a, b in zip(levels, levels[1:], strict=False)):
            return
        current = self.order()
        chosen = set(names)
        first = min(current.index(n) for n in names)
        rest = [n for n in current if n not in chosen]
        new = rest[:first] + list(names) + rest[first:]
        dvars: dict[str, int] = {}
        for n in new:
            dvars[n] = len(dvars)
            if n + "'" in self._primes:
                dvars[n + "'"] = len(dvars)
        if self.backend == "cudd":
            assert _cudd is not None
            _cudd.reorder(self.bdd, dvars)
        else:
            _autoref.reorder(self.bdd, dvars)
        self._cubes.clear()

    # --------------------------------------------------------- operations
    def cube(self, names: Iterable[str]) -> BDD:
        """The positive cube of ``names`` (used to quantify them), cached."""
        key = frozenset(names)
        hit = self._cubes.get(key)
        if hit is None:
            hit = self.assignment_cube(dict.fromkeys(key, True))
            if len(self._cubes) > 4096:
                self._cubes.clear()
            self._cubes[key] = hit
        return hit

    def exists(self, cube: BDD, u: BDD) -> BDD:
        """``∃ vars(cube). u``."""
        if cube == self.true:
            return u
        if self.backend == "cudd":
            return self.bdd.apply("exists", cube, u)
        return self.bdd.exist(self.bdd.support(cube), u)

    def and_exists(
        self, u: BDD, v: BDD, cube: BDD, names: Sequence[str] | int, small: bool = False
    ) -> BDD:
        """``∃ vars(cube). u ∧ v``; ``names`` lists the variables when they are few
        (then CUDD does it in one pass), else gives their number.  For ``small``
        BDDs two calls with the cached cube cost less than that one pass."""
        if not names:
            return u & v
        if (
            self.backend == "cudd"
            and not small
            and not isinstance(names, int)
            and len(self._vars) <= 4096
        ):
            return _cudd.and_exists(u, v, names)  # type: ignore[union-attr]
        return self.exists(cube, u & v)

    def forall(self, cube: BDD, u: BDD) -> BDD:
        """``∀ vars(cube). u``."""
        if cube == self.true:
            return u
        if self.backend == "cudd":
            return self.bdd.apply("forall", cube, u)
        return self.bdd.forall(self.bdd.support(cube), u)

    def assign(self, u: BDD, values: Mapping[str, bool]) -> BDD:
        """``u`` with some variables replaced by constants (a cofactor)."""
        if not values:
            return u
        if len(values) == 1:
            ((name, value),) = values.items()
            return self.bdd.let({name: self.true if value else self.false}, u)
        if self.backend == "cudd":
            return self.bdd.let({k: bool(v) for k, v in values.items()}, u)
        return self.bdd.let({k: bool(v) for k, v in values.items()}, u)

    def substitute(self, u: BDD, defs: Mapping[str, BDD]) -> BDD:
        """``u`` with variables replaced by BDDs, simultaneously."""
        if not defs:
            return u
        return self.bdd.let(dict(defs), u)

    def rename(self, u: BDD, mapping: Mapping[str, str]) -> BDD:
        """``u`` with variables renamed (targets must not occur in ``u``)."""
        mapping = {k: v for k, v in mapping.items() if k != v}
        if not mapping:
            return u
        if self.backend == "cudd":
            if len(mapping) == 1:
                ((k, v),) = mapping.items()
                return self.bdd.let({k: self.bdd.var(v)}, u)
            return self.bdd._swap(u, dict(mapping))
        return self.bdd.let({k: self.bdd.var(v) for k, v in mapping.items()}, u)

    def prime(self, u: BDD) -> BDD:
        """``u`` over the primed copies of its variables."""
        supp = self.support(u)
        self.ensure_primes(supp)
        return self.rename(u, {v: v + "'" for v in supp})

    def support(self, u: BDD) -> set[str]:
        return set(self.bdd.support(u))

    def ite(self, c: BDD, a: BDD, b: BDD) -> BDD:
        return self.bdd.ite(c, a, b)

    def equiv(self, a: BDD, b: BDD) -> BDD:
        return a.equiv(b)

    def xor(self, a: BDD, b: BDD) -> BDD:
        return self.bdd.apply("xor", a, b)

    def assignment_cube(self, values: Mapping[str, bool]) -> BDD:
        """The conjunction of literals ``values`` (a cube)."""
        if self.backend == "cudd" and len(values) > 16:
            return self.bdd.cube({k: bool(v) for k, v in values.items()})
        out = self.true
        for name in sorted(values, key=self.level, reverse=True):
            v = self.bdd.var(name)
            out = (v if values[name] else ~v) & out
        return out

    def size(self, u: BDD) -> int:
        """Number of nodes of ``u``."""
        return int(u.dag_size)

    # ------------------------------------------------------------ counting
    def count(self, u: BDD, names: Sequence[str]) -> int:
        """The exact number of assignments to ``names`` satisfying ``u``.

        ``u`` must not depend on other variables.
        """
        total = len(names)
        if u == self.false:
            return 0
        if u == self.true:
            return 1 << total
        supp = self.support(u)
        extra = supp - set(names)
        if extra:
            raise EngineError(
                f"cannot count over {total} variables: the BDD also uses {sorted(extra)[:3]}"
            )
        if self.backend == "autoref":
            return int(self.bdd.count(u, nvars=total))
        k = len(supp)
        if k < 1000:
            # CUDD counts in doubles; every partial count is at most the result,
            # so a result below 2**52 is exact
            approx = self.bdd.count(u, nvars=k)
            if approx < 2.0**52:
                return int(approx) << (total - k)
        if self._apa is not None:
            return self._apa.count(u, k) << (total - k)
        return self._count_exact(u, names)

    def count_float(self, u: BDD, names: Sequence[str]) -> float:
        """The number of satisfying assignments as a float (fast, rounded)."""
        if u == self.false:
            return 0.0
        total = len(names)
        if self.backend == "autoref" or u == self.true:
            return float(self.count(u, names))
        k = len(self.support(u))
        if k >= 1000:
            return float(self._count_exact(u, names))
        import math

        return math.ldexp(float(self.bdd.count(u, nvars=k)), total - k)

    def _count_exact(self, u: BDD, names: Sequence[str]) -> int:
        """Exact count by one pass over the nodes with Python integers (used
        when CUDD's arbitrary-precision count is not reachable)."""
        levels = sorted(self.level(n) for n in names)
        total = len(levels)
        top = levels[-1] + 2 if levels else 1
        rem_at = [0] * (top + 1)  # counted variables at levels >= l
        j = total
        for lv in range(top, -1, -1):
            while j > 0 and levels[j - 1] >= lv:
                j -= 1
            rem_at[lv] = total - j
        # CUDD: the low bit of a node's integer marks a complemented edge
        tid = int(self.true)
        value: dict[int, int] = {tid: 1}
        depth: dict[int, int] = {tid: 0}
        stack = [u]
        while stack:
            f = stack[-1]
            key = int(f) & ~1
            if key in value:
                stack.pop()
                continue
            lo, hi = f.low, f.high
            kl, kh = int(lo), int(hi)
            waiting = False
            if kl & ~1 not in value:
                stack.append(lo)
                waiting = True
            if kh & ~1 not in value:
                stack.append(hi)
                waiting = True
            if waiting:
                continue
            stack.pop()
            d = rem_at[f.level]
            acc = 0
            for kc in (kl, kh):
                rc = kc & ~1
                dc = depth[rc]
                vc = value[rc]
                if kc & 1:
                    vc = (1 << dc) - vc
                acc += vc << (d - 1 - dc)
            value[key] = acc
            depth[key] = d
        ku = int(u)
        d = depth[ku & ~1]
        v = value[ku & ~1]
        if ku & 1:
            v = (1 << d) - v
        return v << (total - d)

    # ---------------------------------------------------------- enumeration
    def assignments(self, u: BDD, names: Sequence[str]) -> Iterator[dict[str, bool]]:
        """Every assignment to ``names`` satisfying ``u`` (``u`` must not use other variables)."""
        care = set(names)
        if u == self.false:
            return
        if not care:
            yield {}
            return
        for a in self.bdd.pick_iter(u, care_vars=care):
            yield dict(a)
