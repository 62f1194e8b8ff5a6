"""Exact counting of deals: dynamic programming over card kinds and locations."""

from __future__ import annotations

import collections
import functools
import itertools
import math
import os
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from games.deal.forms import _Form, _Pred, _TooLarge
from kripke.errors import SizeLimitError

__all__: list[str] = []


@functools.lru_cache(maxsize=4096)
def _compositions(total: int, caps: tuple[int, ...]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []

    def rec(i: int, left: int, acc: list[int]) -> None:
        if i == len(caps) - 1:
            if left <= caps[i]:
                out.append((*acc, left))
            return
        for v in range(min(left, caps[i]) + 1):
            acc.append(v)
            rec(i + 1, left - v, acc)
            acc.pop()

    if not caps:
        return [()] if total == 0 else []
    rec(0, total, [])
    return out


_SINGLE_CACHE: dict[Any, Any] = {}

#: Blocks of constrained components of recent counts (see ``_Counting._component``).
_COMPONENT_CACHE: collections.OrderedDict[Any, Any] = collections.OrderedDict()
_COMPONENT_CACHE_SIZE = 8


def _half_the_memory() -> int:
    """Half of this machine's physical memory in bytes (4 GiB if it cannot be read)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (AttributeError, ValueError, OSError):
        return 4 << 30


#: Default memory budget of one count's tables (bytes), see ``DealKnowledge.max_bytes``:
#: half of this machine's memory.
MAX_TABLE_BYTES = _half_the_memory()


def _bytes_text(n: int) -> str:
    """``1.5 GiB``, ``300.0 MiB``: a byte count for messages."""
    if n >= 1 << 30:
        return f"{n / (1 << 30):,.1f} GiB"
    return f"{n / (1 << 20):,.1f} MiB"


#: Bytes of shifted table copies the programme holds at once (see ``_Counting._shifted_sum``).
_GATHER_BYTES = 8 << 20

#: Tables of at least this many cells add each term on its box of cells
#: (see ``_Counting._shifted_sum``); smaller ones gather the shifted copies.
_BOX_CELLS = 1024

#: Recent counts' third backward tables, by what they depend on (see ``_Counting._run``):
#: a count asked again, or one differing only in its first two blocks, starts from it.
_TAIL_CACHE: collections.OrderedDict[Any, tuple[np.ndarray, float]] = collections.OrderedDict()
_TAIL_CACHE_SIZE = 2

#: Tables larger than this (bytes) are not kept in ``_TAIL_CACHE``.
_TAIL_CACHE_BYTES = 64 << 20


def _is_word_prime(n: int) -> bool:
    """Whether ``n < 3,215,031,751`` is prime (Miller-Rabin, bases 2, 3, 5, 7: exact there)."""
    if n < 2 or n % 2 == 0:
        return n == 2
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for a in (2, 3, 5, 7):
        if a % n == 0:
            continue
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@functools.cache
def _word_primes() -> tuple[int, ...]:
    """The 64 largest primes below 2**31 (products of two residues fit an int64;
    about 1,980 bits together), for exact sums by Chinese remainders (see
    ``_Counting._cells_sum``); found on first use, not at import."""
    odd = range(2**31 - 1, 2**31 - 10_000, -2)
    return tuple(itertools.islice((q for q in odd if _is_word_prime(q)), 64))


#: Exact read-cell sums of at least this many products (cells times terms) go
#: through :func:`_word_primes`; smaller ones multiply Python ints.
_CRT_WORK = 1 << 16

#: Components with at most this many option combinations are enumerated at once.
_PRODUCT_LIMIT = 4096


def _product_size(sizes: Iterable[int]) -> int:
    out = 1
    for n in sizes:
        out *= n
        if out > _PRODUCT_LIMIT:
            break
    return out


@functools.lru_cache(maxsize=20000)
def _kind_options(
    r: int,
    copies: int,
    lo_row: tuple[int, ...],
    act_l: tuple[int, ...],
    cap: tuple[int, ...],
    exact: bool,
    distinct: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """Residual allocations of one kind and their weights ``copies!/prod (lo+m)!``."""
    La = len(act_l)
    comps = _compositions(r, cap)
    arr = np.asarray(comps, dtype=np.int64).reshape(len(comps), La)
    if distinct:
        w: list[Any] = [1 if exact else 1.0] * len(comps)
    else:
        base = math.factorial(copies)
        fixed_den = 1
        for ll, x in enumerate(lo_row):
            if ll not in act_l:
                fixed_den *= math.factorial(x)
        w = []
        for c in comps:
            den = fixed_den
            for j, ll in enumerate(act_l):
                den *= math.factorial(lo_row[ll] + c[j])
            w.append(base // den if exact else base / den)
    return arr, np.asarray(w, dtype=object if exact else np.float64)


def _mask_chain(weight: dict[tuple[int, ...], int]) -> list[tuple[int, ...]]:
    """The heaviest chain of nested masks (each a strict subset of the one before).

    Kinds with no lower bound and no binding cap in the locations with
    unknown cards, grouped by the locations they may lie in (their mask), are
    summed in closed form at the end of the programme.  Classes whose masks
    nest, ``M_0 ⊋ M_1 ⊋ …``, have one: the locations in ``M_0`` but not in
    ``M_1`` take their cards from class 0 alone, so given every location's
    count ``v_l`` the labelled copies are placed by choosing, class after
    class, which of the copies still to place go to the locations only the
    wider masks reach:

    ``prod_g pool_g! / (prod_l v_l! * prod_{g>0} rest_g!)``

    with ``pool_0`` the copies of class 0, ``rest_g`` the copies of
    ``pool_{g-1}`` not placed in ``M_{g-1} - M_g`` and
    ``pool_g = rest_g + copies of class g`` (a multinomial for one class).
    Every other class stays a block of its own.

    Examples
    --------
    >>> _mask_chain({(1, 1, 1): 6, (1, 0, 1): 10, (0, 1, 1): 4, (0, 0, 1): 2})
    [(1, 1, 1), (1, 0, 1), (0, 0, 1)]
    """
    masks = sorted(weight, key=lambda m: -sum(m))
    best: dict[tuple[int, ...], tuple[int, tuple[int, ...] | None]] = {}
    for m in masks:
        wider = [p for p in best if p != m and all(a >= b for a, b in zip(p, m, strict=True))]
        up = max(wider, key=lambda p: best[p][0], default=None)
        best[m] = (weight[m] + (best[up][0] if up is not None else 0), up)
    end: tuple[int, ...] | None = max(masks, key=lambda m: best[m][0])
    out: list[tuple[int, ...]] = []
    while end is not None:
        out.append(end)
        end = best[end][1]
    return out[::-1]


class _Residuals:
    """A constraint's table while its forms' values become final, one group at a time.

    The enumeration of a component places its kinds one after another; a
    form's value is final once its last kind is placed.  Rather than carry
    final values to the end, each state keeps the index of the table that
    remains of the constraint over its other forms (the table sliced at the
    final values).  States whose remaining tables are equal merge, and a
    state whose table accepts nothing is dropped at once.

    Examples
    --------
    >>> import numpy as np
    >>> from games.deal.forms import _Form, _Pred
    >>> t = np.array([[False, True], [True, True]])        # x + y >= 1 on {0, 1}^2
    >>> r = _Residuals(_Pred((_Form(()), _Form(())), (0, 0), t))
    >>> r.read(np.array([0, 0]), [0], np.array([[0], [1]])).tolist()
    [0, 1]
    >>> [x.tolist() for x in r.tables]                     # y >= 1, and anything
    [[False, True], [True, True]]
    >>> r.read(np.array([0, 0, 1]), [1], np.array([[0], [1], [0]])).tolist()
    [-1, 0, 0]
    >>> r.closed()
    True
    """

    __slots__ = ("low", "left", "tables")

    def __init__(self, pred: _Pred):
        self.low = list(pred.low)
        #: the forms (their indices in the constraint) the tables are over
        self.left = list(range(len(pred.forms)))
        self.tables: list[np.ndarray] = [pred.table]

    def read(self, ids: np.ndarray, forms: list[int], values: np.ndarray) -> np.ndarray:
        """The table indices after reading ``values`` (rows) of ``forms`` in tables ``ids``.

        ``-1`` where the remaining table would accept nothing.
        """
        axes = [self.left.index(fi) for fi in forms]
        idx = values - np.asarray([self.low[fi] for fi in forms], dtype=np.int64)
        # every table is the constraint's sliced at the same axes: one shape; a value
        # outside it is rejected, and the rest are numbered without a search for bounds
        dims = [self.tables[0].shape[ax] for ax in axes]
        inside = np.ones(len(ids), dtype=bool)
        code = ids.astype(np.int64, copy=True)
        radix = len(self.tables)
        for i, dim in enumerate(dims):
            col = idx[:, i]
            inside &= (col >= 0) & (col < dim)
            code = code * dim + col
            radix *= dim
        result = np.full(len(ids), -1, dtype=np.int64)
        keep = np.flatnonzero(inside)
        if len(keep) == 0:
            self.tables = []
            self.left = [fi for fi in self.left if fi not in forms]
            return result
        if radix < 2**62:
            inv, m = _dense_codes(code[keep], radix)
            rep = np.empty(m, dtype=np.int64)
            rep[inv] = keep
            uniq = np.concatenate([ids[rep, None], idx[rep]], axis=1)
        else:
            uniq, inv = _unique_rows(np.concatenate([ids[keep, None], idx[keep]], axis=1))
        tables: list[np.ndarray] = []
        seen: dict[tuple[tuple[int, ...], bytes], int] = {}
        out = np.full(len(uniq), -1, dtype=np.int64)
        for u, row in enumerate(uniq.tolist()):
            t = self.tables[row[0]]
            sel: list[Any] = [slice(None)] * t.ndim
            for ax, x in zip(axes, row[1:], strict=True):
                sel[ax] = x
            sub = t[tuple(sel)]
            if sub.any():
                key = (sub.shape, np.ascontiguousarray(sub).tobytes())
                got = seen.get(key)
                if got is None:
                    got = seen[key] = len(tables)
                    tables.append(sub)
                out[u] = got
        self.tables = tables
        self.left = [fi for fi in self.left if fi not in forms]
        result[keep] = out[inv]
        return result

    def closed(self) -> bool:
        """Whether every form's value was read (the table is a single truth value)."""
        return not self.left


class _Block:
    """One group of kinds processed together: its terms over location usage."""

    __slots__ = ("kinds", "allocs", "w", "mom", "stages", "final", "term_of_final", "qv")

    def __init__(self) -> None:
        self.kinds: list[int] = []
        self.allocs = np.zeros((0, 0), dtype=np.int64)
        self.w: np.ndarray = np.zeros(0)
        self.mom: np.ndarray = np.zeros((0, 0, 0))
        self.stages: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        self.final: tuple[np.ndarray, np.ndarray] = (np.zeros(0, np.int64), np.zeros(0))
        self.term_of_final = np.zeros(0, dtype=np.int64)
        self.qv: np.ndarray | None = None


def _weighted_sum(w: np.ndarray, stack: np.ndarray) -> np.ndarray:
    """``sum_t w[t] * stack[t]``, without BLAS.

    numpy's own loops: a multithreaded BLAS spends several times the CPU on
    these small products when the machine is shared (tournament workers).
    """
    flat = stack.reshape(len(w), -1)
    return np.einsum("t,tc->c", w, flat).reshape(stack.shape[1:])


def _dense_codes(code: np.ndarray, radix: int) -> tuple[np.ndarray, int]:
    """``code`` (values in ``0 .. radix - 1``) renumbered ``0 .. m - 1`` in increasing
    order, and ``m``.

    A table of the values present when ``radix`` is small, else one unstable sort:
    ``np.unique`` with ``return_index`` sorts stably, several times slower on the
    enumeration's arrays of a few hundred thousand codes."""
    n = len(code)
    if radix <= 4 * n + 4096:
        present = np.zeros(radix, dtype=bool)
        present[code] = True
        ids = np.cumsum(present, dtype=np.int64) - 1
        return ids[code], int(ids[-1]) + 1
    perm = np.argsort(code)
    ordered = code[perm]
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    ids = np.cumsum(new, dtype=np.int64) - 1
    inv = np.empty(n, dtype=np.int64)
    inv[perm] = ids
    return inv, int(ids[-1]) + 1


def _unique_rows(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(keys, axis=0, return_inverse=True)`` through one integer per row.

    The rows are read as numbers in mixed radix (the last column the most
    significant), renumbered densely whenever the next column would pass 2**62;
    the unique rows come in the order of those numbers.

    Examples
    --------
    >>> import numpy as np
    >>> uniq, inv = _unique_rows(np.array([[1, 5], [0, 5], [1, 5], [0, 2]]))
    >>> uniq.tolist(), inv.tolist()
    ([[0, 2], [0, 5], [1, 5]], [2, 1, 2, 0])
    """
    n, d = keys.shape
    if d == 0 or n == 0:
        return keys[:1], np.zeros(n, dtype=np.int64)
    lo = keys.min(axis=0)
    span = (keys.max(axis=0) - lo + 1).tolist()
    radix = math.prod(span)
    if radix < 2**62:  # one pass over the rows (a column at a time is strided)
        code = (keys - lo) @ np.cumprod([1, *span[:-1]]).astype(np.int64)
    else:
        code, radix = np.zeros(n, dtype=np.int64), 1
        for j in range(d - 1, -1, -1):
            if span[j] == 1:
                continue
            if radix * span[j] >= 2**62:
                code, radix = _dense_codes(code, radix)
            code = code * span[j] + (keys[:, j] - lo[j])
            radix *= span[j]
    inv, m = _dense_codes(code, radix)
    rep = np.empty(m, dtype=np.int64)
    rep[inv] = np.arange(n, dtype=np.int64)  # rows with one code are equal: any serves
    return keys[rep], inv


class _Counting:
    """Dynamic programme for one information state.

    The residual copies ``m[k, l] = n[k, l] - lo[k, l]`` are distributed over
    the locations with unknown content.  Kinds linked by joint constraints
    form blocks enumerated with their constraint values; every other kind is a
    block of its own; the largest group of unconstrained kinds is summed in
    closed form (a multinomial) at the end.  Blocks are combined by a dense
    dynamic programme over location usage vectors, forwards and backwards,
    which gives the total weight, every block's posterior (marginals) and an
    exact backward sampler.
    """

    def __init__(
        self,
        copies: np.ndarray,
        lo: np.ndarray,
        hi: np.ndarray,
        size: Sequence[int],
        preds: Sequence[_Pred],
        exact: bool,
        distinct: bool,
        query: _Form | None = None,
        *,
        moments: bool = True,
        stages: bool = True,
        max_edges: int = 400_000,
        max_bytes: int | None = None,
        max_work: int | None = None,
        plan_only: bool = False,
    ):
        self.max_edges = max_edges
        self.max_bytes = MAX_TABLE_BYTES if max_bytes is None else max_bytes
        self.max_work = max_work
        self.exact = exact
        self.distinct = distinct
        self.need_mom = moments
        self.need_stages = stages
        K, L = lo.shape
        self.K, self.L = K, L
        self.lo = lo.copy()
        self.copies = copies
        r = copies - lo.sum(1)
        s = np.asarray(size, dtype=np.int64) - lo.sum(0)
        cap = hi - lo
        self.zero = False
        act_l = [ll for ll in range(L) if s[ll] > 0]
        self.act_l = act_l
        La = len(act_l)
        self.La = La
        s_act = s[act_l]
        self.s_act = s_act
        act_k = [k for k in range(K) if r[k] > 0]
        capA = cap[:, act_l] if La else np.zeros((K, 0), dtype=np.int64)
        if (s < 0).any() or (r < 0).any():
            self.zero = True
        for k in act_k:
            if capA[k].sum() < r[k]:
                self.zero = True
        # weight of the kinds whose every copy is placed
        self.fixed = 1
        self.log_fixed = 0.0
        if not distinct:
            for k in range(K):
                if r[k] == 0:
                    w_k = math.factorial(int(copies[k]))
                    for x in lo[k]:
                        w_k //= math.factorial(int(x))
                    self.fixed *= w_k
            self.log_fixed = math.log(self.fixed)
        # kind options (computed when a block needs them)
        self._lo_full = lo
        self._capA = capA
        self._r = r
        self._opt_cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        # constraints restricted to the residual variables
        lpos = {ll: i for i, ll in enumerate(act_l)}
        folded: list[tuple[_Pred, list[int], list[dict[int, np.ndarray]]]] = []
        qpred: _Pred | None = None
        allp = list(preds)
        if query is not None:
            qpred = _Pred((query,), (-(10**6),), np.ones(1, dtype=bool))
            allp.append(qpred)
        self.query_const: int | None = None
        lo_l = lo.tolist()
        r_l = r.tolist()
        for p in allp:
            offs = []
            contrib: list[dict[int, np.ndarray]] = []
            kinds: set[int] = set()
            for f in p.forms:
                off = f.offset
                rows: dict[int, list[int]] = {}
                for k, ll, c in f.coef:
                    off += c * lo_l[k][ll]
                    if r_l[k] > 0 and ll in lpos:
                        row = rows.get(k)
                        if row is None:
                            row = rows[k] = [0] * La
                        row[lpos[ll]] += c
                cvec = {k: np.asarray(row, dtype=np.int64) for k, row in rows.items() if any(row)}
                kinds |= set(cvec)
                offs.append(off)
                contrib.append(cvec)
            if not kinds:
                if p is qpred:
                    self.query_const = offs[0]
                    continue
                if not bool(p.accept(np.asarray([offs], dtype=np.int64))[0]):
                    self.zero = True
                continue
            q = _Pred(tuple(_Form((), o) for o in offs), p.low, p.table)
            folded.append((q, sorted(kinds), contrib))
        # union-find over kinds of constraints
        parent = {k: k for k in act_k}

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for _, ks, _ in folded:
            for k in ks[1:]:
                parent[find(k)] = find(ks[0])
        linked = {k for _, ks, _ in folded for k in ks}
        comps_map: dict[int, list[int]] = {}
        for k in sorted(linked):
            comps_map.setdefault(find(k), []).append(k)
        if plan_only:
            # whether building would pass ``max_edges``: the product of a
            # component's option counts bounds every stage of its enumeration;
            # a component past that bound is enumerated to find out
            self.fits = True
            for ks in comps_map.values():
                prod = 1
                for k in ks:
                    prod *= len(_compositions(int(r[k]), tuple(int(c) for c in capA[k])))
                    if prod > max_edges:
                        break
                if prod <= max_edges:
                    continue
                cons = [(q, contrib) for q, kk, contrib in folded if kk[0] in ks]
                try:
                    self._enumerate(ks, cons, qpred)
                except _TooLarge:
                    self.fits = False
                    return
            return
        # terminal free class
        free_groups: dict[tuple[int, ...], list[int]] = {}
        for k in act_k:
            if k in linked or (La and lo[k, act_l].any()):
                continue
            if distinct and r[k] > 1:
                continue
            row = capA[k]
            # a cap no smaller than the location's unknown cards is implied by its size
            if all(c == 0 or c >= min(r[k], s_act[i]) for i, c in enumerate(row)):
                free_groups.setdefault(tuple(int(c > 0) for c in row), []).append(k)
        self.free: list[int] = []
        self.free_mask: tuple[int, ...] = ()
        #: The closed-form classes ``(mask, residual copies)``, widest mask first.
        self.free_chain: list[tuple[tuple[int, ...], int]] = []
        if free_groups:
            weight = {m: sum(int(copies[k]) for k in ks) for m, ks in free_groups.items()}
            if moments or stages:
                # marginals and sampling read one multinomial class
                chosen = [max(free_groups, key=lambda m: weight[m])]
            else:
                chosen = _mask_chain(weight)
            self.free = [k for m in chosen for k in free_groups[m]]
            self.free_mask = chosen[0]
            self.free_chain = [(m, sum(int(r[k]) for k in free_groups[m])) for m in chosen]
        free_set = set(self.free)
        self.r = r
        if not distinct:
            # weights of free kinds: copies!/(known factorials * r!) times a multinomial
            inactive = [x for x in range(L) if x not in act_l]
            for k in self.free:
                c = math.factorial(int(copies[k])) // math.factorial(int(r[k]))
                for x in inactive:
                    c //= math.factorial(int(lo[k, x]))
                self.fixed *= c
            self.log_fixed = math.log(self.fixed)
        # blocks
        self.blocks: list[_Block] = []
        self.query_block: int | None = None
        for ks in comps_map.values():
            cons = [(q, contrib) for q, kk, contrib in folded if kk[0] in ks]
            blk = self._component(ks, cons, qpred)
            if blk is None:
                self.zero = True
                continue
            if blk.qv is not None:
                self.query_block = 0
                self.blocks.insert(0, blk)
            else:
                self.blocks.append(blk)
        for k in act_k:
            if k in linked or k in free_set:
                continue
            blk = self._single(k)
            if blk is None:
                self.zero = True
                continue
            self.blocks.append(blk)
        if not (moments or stages):
            # a count reads the first two backward tables at a few cells only
            # (see ``_run``): the blocks with the most terms go there
            first = 0 if self.query_block is None else 1
            self.blocks[first:] = sorted(self.blocks[first:], key=lambda b: -len(b.w))
        self._run()

    # ------------------------------------------------------------ enumeration
    def _options(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        got = self._opt_cache.get(k)
        if got is None:
            got = _kind_options(
                int(self._r[k]),
                int(self.copies[k]),
                tuple(int(x) for x in self._lo_full[k]),
                tuple(self.act_l),
                tuple(int(c) for c in self._capA[k]),
                self.exact,
                self.distinct,
            )
            self._opt_cache[k] = got
        return got

    def _component(
        self,
        ks: list[int],
        cons: list[tuple[_Pred, list[dict[int, np.ndarray]]]],
        qpred: _Pred | None,
    ) -> _Block | None:
        """:meth:`_enumerate`, reusing the block of an earlier count with the same inputs.

        Successive counts on one knowledge (a chain of conditions) often share
        a component that the new condition does not touch.  The key holds
        everything the enumeration reads: the kinds with their residual
        copies, known copies and caps, the locations and their free space,
        the modes, and every constraint's forms, value box and table (by
        identity: tables are never changed in place; the entry keeps its
        tables alive).  A component holding the query is not reused.
        """
        if qpred is not None and any(q.table is qpred.table for q, _ in cons):
            return self._enumerate(ks, cons, qpred)
        key = (
            tuple(
                (
                    k,
                    int(self._r[k]),
                    int(self.copies[k]),
                    tuple(self._lo_full[k].tolist()),
                    tuple(self._capA[k].tolist()),
                )
                for k in ks
            ),
            tuple(self.act_l),
            tuple(self.s_act.tolist()),
            self.exact,
            self.distinct,
            self.need_mom,
            self.need_stages,
            tuple(
                (
                    tuple(f.offset for f in q.forms),
                    tuple(q.low),
                    id(q.table),
                    tuple(
                        tuple(sorted((k, tuple(v.tolist())) for k, v in c.items())) for c in contrib
                    ),
                )
                for q, contrib in cons
            ),
        )
        got = _COMPONENT_CACHE.get(key)
        if got is not None:
            _COMPONENT_CACHE.move_to_end(key)
            return got[0]
        blk = self._enumerate(ks, cons, qpred)
        _COMPONENT_CACHE[key] = (blk, [q.table for q, _ in cons])
        while len(_COMPONENT_CACHE) > _COMPONENT_CACHE_SIZE:
            _COMPONENT_CACHE.popitem(last=False)
        return blk

    def _single(self, k: int) -> _Block | None:
        """Block of one kind without joint constraints (cached across engines)."""
        key = (
            int(self._r[k]),
            int(self.copies[k]),
            tuple(int(x) for x in self._lo_full[k]),
            tuple(self.act_l),
            tuple(int(c) for c in self._capA[k]),
            tuple(int(x) for x in self.s_act),
            self.exact,
            self.distinct,
        )
        blk = _SINGLE_CACHE.get(key)
        if blk is None:
            opt_arr, ow = self._options(k)
            ok = np.all(opt_arr <= self.s_act, axis=1) if self.La else np.ones(len(opt_arr), bool)
            if not ok.any():
                return None
            idx = np.flatnonzero(ok)
            blk = _Block()
            blk.kinds = [k]
            blk.allocs = opt_arr[idx]
            blk.w = ow[idx]
            blk.mom = (blk.allocs * blk.w[:, None])[:, None, :]
            n = len(idx)
            stage = (np.zeros(n, np.int64), idx, np.arange(n), blk.w, opt_arr)
            blk.stages = [stage]
            blk.final = (np.arange(n), np.asarray(blk.w, dtype=np.float64))
            blk.term_of_final = np.arange(n)
            if len(_SINGLE_CACHE) > 20000:
                _SINGLE_CACHE.clear()
            _SINGLE_CACHE[key] = blk
        if blk.kinds != [k]:
            copy_blk = _Block()
            for attr in _Block.__slots__:
                setattr(copy_blk, attr, getattr(blk, attr))
            copy_blk.kinds = [k]
            return copy_blk
        return blk

    def _enumerate_product(
        self,
        ks: list[int],
        cons: list[tuple[_Pred, list[dict[int, np.ndarray]]]],
        qpred: _Pred | None,
    ) -> _Block | None:
        """Enumerate a small component at once: every combination of its kinds' options.

        The same block as :meth:`_enumerate` (terms over location usage and
        the query value, weights, moments) from a handful of array operations
        instead of one merging stage per kind; its sampling stages are the
        identity on the surviving combinations.
        """
        La = self.La
        exact = self.exact
        dt = object if exact else np.float64
        nk = len(ks)
        opts = [self._options(k) for k in ks]
        sizes = [len(o[0]) for o in opts]
        idx = np.indices(sizes).reshape(nk, -1)
        P = idx.shape[1]
        alloc = np.zeros((P, La), dtype=np.int64)
        for i, (opt_arr, _) in enumerate(opts):
            alloc += opt_arr[idx[i]]
        ok = np.all(alloc <= self.s_act, axis=1) if La else np.ones(P, dtype=bool)
        cols = [(ci, fi) for ci, (q, _) in enumerate(cons) for fi in range(len(q.forms))]
        fv = np.empty((P, len(cols)), dtype=np.int64)
        fv[:] = [cons[ci][0].forms[fi].offset for ci, fi in cols]
        for i, k in enumerate(ks):
            coef = np.zeros((La, len(cols)), dtype=np.int64)
            used = False
            for j, (ci, fi) in enumerate(cols):
                v = cons[ci][1][fi].get(k)
                if v is not None:
                    coef[:, j] = v
                    used = True
            if used:
                fv += (opts[i][0] @ coef)[idx[i]]
        is_q = [qpred is not None and q.table is qpred.table for q, _ in cons]
        for ci, (q, _) in enumerate(cons):
            if not is_q[ci]:
                js = [j for j, (c2, _) in enumerate(cols) if c2 == ci]
                ok &= q.accept(fv[:, js])
        rows = np.flatnonzero(ok)
        if len(rows) == 0:
            return None
        idx, alloc, fv = idx[:, rows], alloc[rows], fv[rows]
        n = len(rows)
        w = opts[0][1][idx[0]]
        for i in range(1, nk):
            w = w * opts[i][1][idx[i]]
        qcol = next((j for j, (ci, _) in enumerate(cols) if is_q[ci]), None)
        keycols = alloc if qcol is None else np.concatenate([alloc, fv[:, qcol : qcol + 1]], axis=1)
        uniq, term = _unique_rows(keycols)
        T = len(uniq)
        tw = np.zeros(T, dtype=dt)
        if exact:
            tw[:] = 0
        np.add.at(tw, term, w)
        tm = np.zeros((T, nk if self.need_mom else 0, La), dtype=dt)
        if self.need_mom:
            if exact:
                tm[...] = 0
            m = np.stack([opts[i][0][idx[i]] for i in range(nk)], axis=1) * w[:, None, None]
            np.add.at(tm, term, m)
        blk = _Block()
        blk.kinds = list(ks)
        blk.allocs = uniq[:, :La]
        blk.w = tw
        blk.mom = tm
        if self.need_stages:
            same = np.arange(n)
            ones = np.ones(n)
            blk.stages = [(same, idx[i], same, ones, opts[i][0]) for i in range(nk)]
            blk.final = (same, np.asarray(w, dtype=np.float64))
        blk.term_of_final = term
        blk.qv = uniq[:, La] if qcol is not None else None
        return blk

    def _enumerate(
        self,
        ks: list[int],
        cons: list[tuple[_Pred, list[dict[int, np.ndarray]]]],
        qpred: _Pred | None,
    ) -> _Block | None:
        """Enumerate a component: allocations of its kinds with the constraint values.

        Each constraint is applied (and its values forgotten) as soon as the
        last kind it involves is placed; kinds are ordered so that
        constraints close early.
        """
        if _product_size(self._options(k)[0].shape[0] for k in ks) <= _PRODUCT_LIMIT:
            return self._enumerate_product(ks, cons, qpred)
        La = self.La
        exact = self.exact
        dt = object if exact else np.float64
        # order the kinds: constraints with few kinds first, their kinds together
        members = [sorted({k for c in contrib for k in c}) for _, contrib in cons]
        order: list[int] = []
        for i in sorted(range(len(cons)), key=lambda i: len(members[i])):
            for k in members[i]:
                if k not in order:
                    order.append(k)
        for k in ks:
            if k not in order:
                order.append(k)
        ks = order
        pos = {k: i for i, k in enumerate(ks)}
        is_q = [qpred is not None and q.table is qpred.table for q, _ in cons]
        # the stage at which each form's last kind is placed (its value is final)
        done_at = [[max((pos[k] for k in c), default=0) for c in contrib] for _, contrib in cons]
        # columns: a form still collecting values (ci, fi), or a constraint's
        # residual table (ci, -1): the index of its table over the forms not
        # yet final, after the final values were read off (see ``_Residuals``)
        cols: list[tuple[int, int]] = []
        res: dict[int, _Residuals] = {}
        for ci, (q, _) in enumerate(cons):
            if not is_q[ci]:
                res[ci] = _Residuals(q)
                cols.append((ci, -1))
            for fi in range(len(q.forms)):
                cols.append((ci, fi))
        first = [0 if fi < 0 else cons[ci][0].forms[fi].offset for ci, fi in cols]
        fv = np.asarray([first], dtype=np.int64).reshape(1, len(cols))
        alloc = np.zeros((1, La), dtype=np.int64)
        w = np.asarray([1 if exact else 1.0], dtype=dt)
        nk = len(ks)
        need_mom = self.need_mom
        mom = np.zeros((1, nk if need_mom else 0, La), dtype=dt)
        if exact:
            mom[...] = 0
        stages = []
        s_act = self.s_act
        for i, k in enumerate(ks):
            opt_arr, ow = self._options(k)
            ofv = np.zeros((len(opt_arr), len(cols)), dtype=np.int64)
            for j, (ci, fi) in enumerate(cols):
                v = cons[ci][1][fi].get(k) if fi >= 0 else None
                if v is not None:
                    ofv[:, j] = opt_arr @ v
            S, n_o = len(alloc), len(opt_arr)
            if S * n_o > self.max_edges:
                real = [q for ci, (q, _) in enumerate(cons) if not is_q[ci]]
                raise _TooLarge(max(real, key=lambda q: q.table.size) if real else None, S * n_o)
            p_idx = np.repeat(np.arange(S), n_o)
            o_idx = np.tile(np.arange(n_o), S)
            # every state with every option, row p * n_o + o (a broadcast sum, not a
            # gather), then the edges within the locations' sizes
            a_e = (alloc[:, None, :] + opt_arr[None, :, :]).reshape(S * n_o, La)
            ok = np.all(a_e <= s_act, axis=1) if La else np.ones(len(a_e), dtype=bool)
            p_idx, o_idx, a_e = p_idx[ok], o_idx[ok], a_e[ok]
            if len(p_idx) == 0:
                return None
            f_e = np.take(fv, p_idx, axis=0)
            f_e += np.take(ofv, o_idx, axis=0)
            # forms whose last kind this is: read their values into the
            # residual tables, drop the edges whose table accepts nothing
            final = {
                ci: [
                    j
                    for j, (c2, fi) in enumerate(cols)
                    if c2 == ci and fi >= 0 and done_at[ci][fi] == i
                ]
                for ci in res
            }
            final = {ci: js for ci, js in final.items() if js}
            if final:
                keep_e = np.ones(len(p_idx), dtype=bool)
                for ci, js in final.items():
                    jt = cols.index((ci, -1))
                    fis = [cols[j][1] for j in js]
                    new_id = res[ci].read(f_e[:, jt], fis, f_e[:, js])
                    keep_e &= new_id >= 0
                    f_e[:, jt] = new_id
                p_idx, o_idx, a_e, f_e = p_idx[keep_e], o_idx[keep_e], a_e[keep_e], f_e[keep_e]
                if len(p_idx) == 0:
                    return None
                gone = {j for js in final.values() for j in js}
                gone |= {cols.index((ci, -1)) for ci in final if res[ci].closed()}
                remain = [j for j in range(len(cols)) if j not in gone]
                cols = [cols[j] for j in remain]
                f_e = f_e[:, remain]
            w_e = w[p_idx] * ow[o_idx]
            if need_mom:
                m_e = mom[p_idx] * ow[o_idx][:, None, None]
                m_e[:, i, :] = m_e[:, i, :] + w_e[:, None] * opt_arr[o_idx]
            if i == 0 and nk == 1 and not cols:
                uniq = a_e
                child = np.arange(len(a_e))
            else:
                keys = np.concatenate([a_e, f_e], axis=1)
                uniq, child = _unique_rows(keys)
            n_new = len(uniq)
            if exact:
                w_new = np.zeros(n_new, dtype=dt)
                w_new[:] = 0
                np.add.at(w_new, child, w_e)
            else:
                w_new = np.bincount(child, weights=w_e, minlength=n_new)
            m_new = np.zeros((n_new, nk if need_mom else 0, La), dtype=dt)
            if need_mom:
                if exact:
                    m_new[...] = 0
                np.add.at(m_new, child, m_e)
            if self.need_stages:
                stages.append((p_idx, o_idx, child, w_e, opt_arr))
            alloc = uniq[:, :La]
            fv = uniq[:, La:]
            w, mom = w_new, m_new
        # every constraint closed at its last kind; only the query stays open
        qcol = next((j for j, (ci, _) in enumerate(cols) if is_q[ci]), None)
        fin = np.arange(len(alloc))
        keycols = alloc
        if qcol is not None:
            keycols = np.concatenate([alloc, fv[:, qcol : qcol + 1]], axis=1)
        uniq, term = _unique_rows(keycols)
        T = len(uniq)
        tw = np.zeros(T, dtype=dt)
        tm = np.zeros((T, nk if need_mom else 0, La), dtype=dt)
        if exact:
            tw[:] = 0
            tm[...] = 0
        np.add.at(tw, term, w)
        if need_mom:
            np.add.at(tm, term, mom)
        blk = _Block()
        blk.kinds = ks
        blk.allocs = uniq[:, :La]
        blk.w = tw
        blk.mom = tm
        blk.stages = stages
        blk.final = (fin, np.asarray(w, dtype=np.float64))
        blk.term_of_final = term
        blk.qv = uniq[:, La] if qcol is not None else None
        return blk

    # ------------------------------------------------------------ global DP
    def _run(self) -> None:
        La = self.La
        exact = self.exact
        dt = object if exact else np.float64
        if self.zero:
            self.Z: Any = 0
            self.log_z = -math.inf
            return
        if La == 0:
            self.elim = -1
            shape: tuple[int, ...] = ()
        else:
            self.elim = int(np.argmax(self.s_act))
            shape = tuple(1 if i == self.elim else int(self.s_act[i]) + 1 for i in range(La))
        self.shape = shape
        self._check_size(shape)
        zero_t = np.zeros(shape, dtype=dt)
        if exact:
            zero_t[...] = 0
        self.shifts = []
        self._slice_cache: dict[tuple[int, ...], tuple[Any, Any]] = {}
        self._slc: list[list[tuple[Any, Any]] | None] = []
        for blk in self.blocks:
            a = blk.allocs.copy()
            if La:
                a[:, self.elim] = 0
            self.shifts.append(a)
            self._slc.append(None)
        B = len(self.blocks)
        betas = [zero_t] * (B + 1)
        big = La > 0 and zero_t.size >= _BOX_CELLS
        # a count's third table is whole and depends only on the blocks from the
        # third on and the terminal table: counts that share them reuse it
        reuse = big and B >= 3 and not (self.need_mom or self.need_stages)
        key = self._tail_key(2) if reuse else None
        hit = _TAIL_CACHE.get(key) if key is not None else None
        if hit is not None:
            _TAIL_CACHE.move_to_end(key)
            betas[2], ls = hit
            first = 1
        else:
            term, ls_term = self._terminal(shape, zero_t)
            betas[B], ls = self._scale(term)
            ls += ls_term
            first = B - 1
        for b in range(first, -1, -1):
            nxt = betas[b + 1]
            blk = self.blocks[b]
            if big and b <= 1:
                # only some cells of the first two tables are ever read: the
                # origin of the first (the total), and of the second the cells
                # the first block's terms reach from the origin
                if b == 0:
                    cells = np.zeros((1, La), dtype=np.int64)
                else:
                    sh0 = self.shifts[0]
                    cells = np.unique(sh0[np.all(sh0 < np.asarray(shape), axis=1)], axis=0)
                cur = zero_t.copy()
                cur[tuple(cells.T)] = self._cells_sum(nxt, b, cells)
            elif not exact and len(blk.w) > 6 and La:
                cur = self._shifted_sum(nxt, b, False)
            else:
                cur = zero_t.copy()
                for t, (src, dst) in enumerate(self.slc(b)):
                    if src is None:
                        continue
                    cur[dst] += blk.w[t] * nxt[src]
            betas[b], d = self._scale(cur)
            ls += d
            if key is not None and b == 2:
                _TAIL_CACHE[key] = (betas[2], ls)
                betas[2].setflags(write=False)
                while len(_TAIL_CACHE) > _TAIL_CACHE_SIZE:
                    _TAIL_CACHE.popitem(last=False)
            if b >= 1 and not (self.need_mom or self.need_stages):
                # a count reads the first two tables only (the total, and a query's
                # distribution the second): the others go as soon as they are read
                betas[b + 1] = zero_t
        self.betas = betas
        origin = tuple(0 for _ in range(La))
        z0 = betas[0][origin] if La else betas[0][()]
        self.Z = z0
        self.log_z = (math.log(z0) + ls + self.log_fixed) if (not exact and z0 > 0) else -math.inf
        self._alphas: list[np.ndarray] | None = None
        self._zero_t = zero_t

    def _terminal(self, shape: tuple[int, ...], zero_t: np.ndarray) -> tuple[np.ndarray, float]:
        """The terminal table of the backward pass (the free classes placed, or the one
        cell of the final sizes when none is free) and its log scale."""
        La = self.La
        exact = self.exact
        # the free classes in closed form (see ``_mask_chain``)
        term = zero_t.copy()
        ls_term = 0.0
        if self.free and not exact and La:
            term, ls_term = self._closed_form(shape)
        elif self.free:
            chain = self.free_chain
            total = sum(n for _, n in chain)
            grids = np.indices(shape).reshape(La, -1) if La else np.zeros((0, 1), np.int64)
            v = self.s_act[:, None] - grids
            if La:
                v[self.elim] = total - (v.sum(axis=0) - v[self.elim])
            valid = np.all(v >= 0, axis=0)
            for i in range(La):
                if not self.free_mask[i]:
                    valid &= v[i] == 0
            if not La:
                valid &= total == 0
            # pools[g]: the copies still to place when class g joins (the copies of
            # the classes before it that avoided the locations they alone reach,
            # plus its own); rests[g]: those of them left for the narrower masks
            pools: list[Any] = [chain[0][1]]
            rests: list[Any] = []
            for g in range(1, len(chain)):
                alone = [i for i in range(La) if chain[g - 1][0][i] and not chain[g][0][i]]
                rest = pools[-1] - v[alone].sum(axis=0)
                valid &= rest >= 0
                rests.append(rest)
                pools.append(rest + chain[g][1])
            flat = term.reshape(-1)
            if exact:
                fact = [math.factorial(i) for i in range(total + 1)]
                for j in np.flatnonzero(valid):
                    den = 1
                    for x in v[:, j]:
                        den *= fact[int(x)]
                    num = fact[total]
                    if rests:
                        num = fact[chain[0][1]]
                        for pool in pools[1:]:
                            num *= fact[int(pool[j])]
                        for rest in rests:
                            den *= fact[int(rest[j])]
                    flat[j] = num // den
            else:
                lf = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, total + 1)))])
                logw = lf[total] - lf[np.clip(v, 0, total)].sum(axis=0)
                if rests:
                    logw = lf[chain[0][1]] - lf[np.clip(v, 0, total)].sum(axis=0)
                    for pool in pools[1:]:
                        logw = logw + lf[np.clip(pool, 0, total)]
                    for rest in rests:
                        logw = logw - lf[np.clip(rest, 0, total)]
                if valid.any():
                    ls_term = float(logw[valid].max())
                    flat[valid] = np.exp(logw[valid] - ls_term)
            term = flat.reshape(shape)
        else:
            idx = tuple(0 if i == self.elim else int(self.s_act[i]) for i in range(La))
            term[idx] = 1 if exact else 1.0
        return term, ls_term

    def _tail_key(self, b: int) -> tuple[Any, ...] | None:
        """What the backward table of block ``b`` depends on: the terminal table's
        inputs and the later blocks' shifts and weights, in order (``None`` when
        the table is too large to keep)."""
        if math.prod(self.shape) * (64 if self.exact else 8) > _TAIL_CACHE_BYTES:
            return None
        blocks = []
        for blk, sh in zip(self.blocks[b:], self.shifts[b:], strict=True):
            w = tuple(blk.w.tolist()) if self.exact else blk.w.tobytes()
            blocks.append((sh.shape, sh.tobytes(), w))
        chain = tuple(self.free_chain) if self.free else ()
        return (
            self.exact,
            self.shape,
            self.elim,
            tuple(self.s_act.tolist()),
            bool(self.free),
            self.free_mask,
            chain,
            tuple(blocks),
        )

    def _closed_form(self, shape: tuple[int, ...]) -> tuple[np.ndarray, float]:
        """The terminal table of the free classes (floats), and its log scale.

        Each cell's weight (see :func:`_mask_chain`) is a sum of terms that
        each depend on one location's count, and a location's count on one
        axis of the table (the eliminated location's on their sum): the
        terms are added by broadcasting one axis at a time, so the only
        arrays of the table's size are the sums themselves.
        """
        La, e = self.La, self.elim
        chain = self.free_chain
        total = sum(n for _, n in chain)
        lf = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, total + 1)))])

        def along(i: int, x: np.ndarray) -> np.ndarray:
            return x.reshape(tuple(len(x) if j == i else 1 for j in range(La)))

        v: dict[int, Any] = {
            i: along(i, self.s_act[i] - np.arange(shape[i])) for i in range(La) if i != e
        }
        used: Any = 0
        for x in v.values():
            used = used + x
        v[e] = np.broadcast_to(total - np.asarray(used), shape)
        valid = v[e] >= 0
        for i in range(La):
            if not self.free_mask[i]:
                valid = valid & (v[i] == 0)
        logw: Any = lf[chain[0][1]]
        for i in range(La):
            logw = logw - lf[np.clip(v[i], 0, total)]
        pool: Any = chain[0][1]
        for g in range(1, len(chain)):
            rest = pool
            for i in range(La):
                if chain[g - 1][0][i] and not chain[g][0][i]:
                    rest = rest - v[i]
            valid = valid & (rest >= 0)
            pool = rest + chain[g][1]
            logw = logw + lf[np.clip(pool, 0, total)] - lf[np.clip(rest, 0, total)]
        logw = np.where(valid, logw, -np.inf)
        logw = np.broadcast_to(logw, shape)
        ls = float(logw.max())
        if ls == -np.inf:
            return np.zeros(shape), 0.0
        return np.exp(logw - ls), ls

    def _check_size(self, shape: tuple[int, ...]) -> None:
        """Refuse, before allocating, tables that would pass :attr:`max_bytes`.

        The programme keeps a backward and a forward table per block (and the
        closed-form class needs an index grid of the same size): an estimate
        of their bytes, from the number of cells of one table.
        """
        cells = 1
        for n in shape:
            cells *= n
        per_cell = 48 if self.exact else 8
        tables = 2 * (len(self.blocks) + 1) + (self.La + 1 if self.free else 0)
        need = cells * per_cell * tables
        if need > self.max_bytes:
            raise SizeLimitError(
                f"counting these deals needs {tables} tables of {cells:,} cells each "
                f"(about {_bytes_text(need)}), more than the limit of "
                f"{_bytes_text(self.max_bytes)} (DealKnowledge.max_bytes); "
                "the table has one axis per location with unknown cards, sized by "
                "its unknown cards: reveal cards or merge locations"
            )
        terms = sum(len(blk.w) for blk in self.blocks)
        work = cells * max(terms, 1)
        if self.max_work is not None and work > self.max_work:
            raise SizeLimitError(
                f"counting these deals adds {terms:,} terms over tables of {cells:,} cells "
                f"(about {work:,} cell-terms), more than the limit of {self.max_work:,} "
                "(DealKnowledge.max_work); the table has one axis per location with "
                "unknown cards, sized by its unknown cards"
            )

    @property
    def alphas(self) -> list[np.ndarray]:
        """Forward tables (computed on first use)."""
        if self._alphas is None:
            La = self.La
            zero_t = self._zero_t
            B = len(self.blocks)
            alphas = [zero_t] * (B + 1)
            a0 = zero_t.copy()
            a0[tuple(0 for _ in range(La))] = 1 if self.exact else 1.0
            alphas[0] = a0
            for b in range(B):
                prev = alphas[b]
                blk = self.blocks[b]
                if not self.exact and len(blk.w) > 6 and La:
                    cur = self._shifted_sum(prev, b, True)
                else:
                    cur = zero_t.copy()
                    for t, (src, dst) in enumerate(self.slc(b)):
                        if src is None:
                            continue
                        cur[src] += blk.w[t] * prev[dst]
                alphas[b + 1], _ = self._scale(cur)
            self._alphas = alphas
        return self._alphas

    def _scale(self, t: np.ndarray) -> tuple[np.ndarray, float]:
        if self.exact or t.size == 0:
            return t, 0.0
        m = float(np.max(t))
        if m > 0 and (m > 1e100 or m < 1e-100):
            return t / m, math.log(m)
        return t, 0.0

    def _windows(self, table: np.ndarray, b: int, forward: bool) -> tuple[np.ndarray, np.ndarray]:
        """Every shifted copy of ``table`` as a view, and each term's start in it.

        ``win[tuple(start[t])]`` is term ``t``'s copy: backward
        ``out[u] = table[u + a_t]``, forward ``out[u] = table[u - a_t]`` (zero
        outside the table).
        """
        sh = self.shifts[b]
        m = sh.max(axis=0)
        padded = np.zeros(tuple(int(n + x) for n, x in zip(table.shape, m, strict=True)))
        if forward:
            padded[tuple(slice(int(x), None) for x in m)] = table
            start = m[None, :] - sh
        else:
            padded[tuple(slice(0, n) for n in table.shape)] = table
            start = sh
        return np.lib.stride_tricks.sliding_window_view(padded, table.shape), start

    def _chunk_terms(self, cells: int, terms: int) -> int:
        """How many shifted copies of a table of ``cells`` cells to hold at once."""
        if cells < 16:
            return max(terms, 1)
        return max(1, min(terms, _GATHER_BYTES // (8 * cells)))

    def _gather(self, table: np.ndarray, b: int, forward: bool) -> np.ndarray:
        """Every term's shifted copy of ``table`` at once: shape ``(terms, *table.shape)``.

        Backward: ``out[t][u] = table[u + a_t]``; forward: ``out[t][u] = table[u - a_t]``
        (zero outside the table).  Its memory grows with terms times cells: the
        programme itself reads the copies a bounded number at a time
        (:meth:`_shifted_sum`, :meth:`_term_dots`).
        """
        win, start = self._windows(table, b, forward)
        return win[tuple(start.T)]

    def _shifted_sum(self, table: np.ndarray, b: int, forward: bool) -> np.ndarray:
        """``sum_t w_t * table`` shifted by term ``t`` of block ``b`` (floats).

        Every cell adds its terms' products in the order of the terms,
        starting from zero, whichever route runs, so the routes give the same
        floats: a large table adds each term on the box of cells its shift
        keeps inside the table (no copies); a small one gathers the shifted
        copies (zero outside the table) and sums them with ``_weighted_sum``,
        a bounded number at a time (their bytes at most ``_GATHER_BYTES``),
        each group's sum continuing the previous one through a leading weight
        1.  Terms shifted past the table add only zeros and are skipped.
        """
        w = np.asarray(self.blocks[b].w, dtype=np.float64)
        cells = table.size
        if cells >= _BOX_CELLS:
            cur = np.zeros(table.shape)
            for t, (src, dst) in enumerate(self.slc(b)):
                if src is None:
                    continue
                if forward:
                    cur[src] += w[t] * table[dst]
                else:
                    cur[dst] += w[t] * table[src]
            return cur
        sh = self.shifts[b]
        inside = np.flatnonzero(np.all(sh < np.asarray(table.shape, dtype=np.int64), axis=1))
        if len(inside) == 0:
            return np.zeros(table.shape)
        win, start = self._windows(table, b, forward)
        start, w = start[inside], w[inside]
        step = self._chunk_terms(cells, len(w))
        acc = _weighted_sum(w[:step], win[tuple(start[:step].T)])
        if step >= len(w):
            return acc
        buf = np.empty((step + 1, *table.shape))
        wb = np.empty(step + 1)
        wb[0] = 1.0
        for i in range(step, len(w), step):
            j = min(i + step, len(w))
            n = j - i
            buf[0] = acc
            buf[1 : n + 1] = win[tuple(start[i:j].T)]
            wb[1 : n + 1] = w[i:j]
            acc = _weighted_sum(wb[: n + 1], buf[: n + 1])
        return acc

    def _cells_sum(self, table: np.ndarray, b: int, cells: np.ndarray) -> np.ndarray:
        """``sum_t w_t * table[u + a_t]`` at the cells ``u`` (rows of ``cells``) only.

        The terms are added in their order from zero, terms shifted past the
        table left out: the floats of :meth:`_shifted_sum` at those cells.
        Work and memory grow with cells times terms, a bounded number of
        cells at a time.
        """
        shape = np.asarray(table.shape, dtype=np.int64)
        sh = self.shifts[b]
        inside = np.all(sh < shape, axis=1)
        sh = sh[inside]
        w = self.blocks[b].w[inside]
        out = np.zeros(len(cells), dtype=table.dtype)
        if self.exact:
            out[:] = 0
        if len(sh) == 0:
            return out
        mult = np.ones(len(shape), dtype=np.int64)
        for i in range(len(shape) - 2, -1, -1):
            mult[i] = mult[i + 1] * shape[i + 1]
        # a read outside the table reads the zero appended after it
        flat = np.concatenate([table.reshape(-1), np.zeros(1, dtype=table.dtype)])
        if self.exact:
            flat[-1] = 0
        outside = len(flat) - 1
        # exact: the sums modulo enough word-sized primes (numpy's integer loops), not Python ints
        residues: list[np.ndarray] | None = None
        w_res: list[np.ndarray] = []
        if self.exact and len(cells) * len(w) >= _CRT_WORK:
            bound = int(np.max(np.abs(flat))) * int(np.sum(np.abs(w)))
            primes = _word_primes()
            k = 0
            modulus = 1
            while modulus <= 2 * bound + 1 and k < len(primes):
                modulus *= primes[k]
                k += 1
            if modulus > 2 * bound + 1:
                residues = [np.asarray(flat % q, dtype=np.int64) for q in primes[:k]]
                w_res = [np.asarray(w % q, dtype=np.int64) for q in primes[:k]]
        # fits[i][x]: the terms whose shift along axis i is at most x, as packed bits,
        # so that a cell's terms inside the table are an AND of one row per axis
        fits = [
            np.packbits(np.arange(int(n))[:, None] >= sh[None, :, i], axis=1)
            for i, n in enumerate(shape)
        ]
        room = shape[None, :] - 1 - cells
        cell_at = cells @ mult
        term_at = sh @ mult
        T = len(sh)
        step = max(1, (1 << 18) // T)
        for i in range(0, len(cells), step):
            j = min(i + step, len(cells))
            ok = fits[0][room[i:j, 0]]
            for ax in range(1, len(shape)):
                ok = ok & fits[ax][room[i:j, ax]]
            inside_t = np.unpackbits(ok, axis=1, count=T).view(bool)
            pos = np.where(inside_t, cell_at[i:j, None] + term_at[None, :], outside)
            if residues is not None:
                out[i:j] = self._crt_sums(residues, w_res, pos)
                continue
            prods = flat[pos] * w[None, :]
            out[i:j] = np.cumsum(prods, axis=1)[:, -1]
        return out

    @staticmethod
    def _crt_sums(
        residues: list[np.ndarray], w_res: list[np.ndarray], pos: np.ndarray
    ) -> np.ndarray:
        """Exact ``sum_t w_t * flat[pos[c, t]]`` per row ``c`` from the sums modulo :func:`_word_primes`.

        ``residues[k]`` and ``w_res[k]`` are the table and the weights modulo
        prime ``k``; the primes' product exceeds twice the largest possible
        absolute sum, so the Chinese remainder gives the sum itself.
        """
        out = np.zeros(len(pos), dtype=object)
        out[:] = 0
        modulus = 1
        for res, wr, p in zip(residues, w_res, _word_primes(), strict=False):
            sums = ((res[pos] * wr[None, :]) % p).sum(axis=1) % p
            # combine: x = out + modulus * ((sums - out) * modulus^-1 mod p)
            inv = pow(modulus % p, -1, p)
            lift = (sums - (out % p).astype(np.int64)) % p
            lift = (lift * inv) % p
            out = out + modulus * lift.astype(object)
            modulus *= p
        half = modulus // 2
        return np.where(out > half, out - modulus, out)

    def _term_dots(self, table: np.ndarray, b: int, other: np.ndarray) -> np.ndarray:
        """``<table shifted back by term t, other>`` for every term of block ``b`` (floats).

        The shifted copies are made a bounded number at a time, as in
        :meth:`_shifted_sum`.
        """
        win, start = self._windows(table, b, False)
        T = len(start)
        step = self._chunk_terms(table.size, T)
        flat = other.reshape(-1)
        out = np.empty(T)
        for i in range(0, T, step):
            j = min(i + step, T)
            g = win[tuple(start[i:j].T)]
            out[i:j] = np.einsum("tc,c->t", g.reshape(j - i, -1), flat)
        return out

    def slc(self, b: int) -> list[tuple[Any, Any]]:
        """Block ``b``'s terms as slice pairs (see :meth:`_slices`), made on first use."""
        got = self._slc[b]
        if got is None:
            cache = self._slice_cache
            got = []
            for key in map(tuple, self.shifts[b].tolist()):
                pair = cache.get(key)
                if pair is None:
                    pair = cache[key] = self._slices(key)
                got.append(pair)
            self._slc[b] = got
        return got

    def _slices(self, sh: Sequence[int]) -> tuple[Any, Any]:
        """Slices so that ``table[dst] = f(table[src])`` shifts by ``sh``: src = dst + sh."""
        src, dst = [], []
        for i, n in enumerate(self.shape):
            d = int(sh[i])
            if d >= n:
                return None, None
            src.append(slice(d, n))
            dst.append(slice(0, n - d))
        return tuple(src), tuple(dst)

    def total(self) -> Any:
        """Total weight of the consistent deals: an exact int (exact mode) or a float."""
        if self.zero:
            return 0
        if self.exact:
            return self.Z * self.fixed
        return math.exp(self.log_z) if self.log_z < 700 else math.inf

    def log_total(self) -> float:
        """Natural logarithm of :meth:`total` (``-inf`` if nothing is consistent)."""
        if self.zero:
            return -math.inf
        if self.exact:
            return math.log(self.total()) if self.total() > 0 else -math.inf
        return self.log_z
