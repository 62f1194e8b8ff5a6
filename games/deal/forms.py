"""Linear forms over the card-kind counts and the constraints built on them."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

__all__: list[str] = []


@dataclass(frozen=True, slots=True)
class _Form:
    """``offset + sum(coef * n[kind, loc])`` over the cells of the deal."""

    coef: tuple[tuple[int, int, int], ...]  # (kind, loc, c) with c != 0, sorted
    offset: int = 0

    @staticmethod
    def make(cells: Mapping[tuple[int, int], int], offset: int = 0) -> _Form:
        return _Form(tuple(sorted((k, ll, c) for (k, ll), c in cells.items() if c)), offset)

    def cells(self) -> dict[tuple[int, int], int]:
        return {(k, ll): c for k, ll, c in self.coef}

    def touches(self, locs: Iterable[int]) -> bool:
        s = set(locs)
        return any(ll in s for _, ll, _ in self.coef)


@dataclass(frozen=True, slots=True, eq=False)
class _Pred:
    """A constraint: the tuple of form values lies in the set ``table``.

    ``table[v - low]`` is True for accepted value tuples ``v``; values outside
    the box are rejected.
    """

    forms: tuple[_Form, ...]
    low: tuple[int, ...]
    table: np.ndarray

    def accept(self, values: np.ndarray) -> np.ndarray:
        """Vectorised acceptance of an ``(S, F)`` integer array."""
        idx = values - np.asarray(self.low, dtype=np.int64)
        shape = np.asarray(self.table.shape, dtype=np.int64)
        ok = np.all((idx >= 0) & (idx < shape), axis=1)
        out = np.zeros(len(values), dtype=bool)
        if ok.any():
            sel = idx[ok]
            out[ok] = self.table[tuple(sel.T)]
        return out

    def touches(self, locs: Iterable[int]) -> bool:
        s = set(locs)
        return any(f.touches(s) for f in self.forms)


def _sum_forms(forms: Iterable[_Form]) -> _Form:
    cells: dict[tuple[int, int], int] = {}
    off = 0
    for f in forms:
        off += f.offset
        for k, ll, c in f.coef:
            cells[(k, ll)] = cells.get((k, ll), 0) + c
    return _Form.make(cells, off)


def _interval_pred(form: _Form, lo: int, hi: int) -> _Pred:
    lo = max(lo, -(10**6))
    if hi < lo:
        return _Pred((form,), (0,), np.zeros(1, dtype=bool))
    return _Pred((form,), (lo,), np.ones(hi - lo + 1, dtype=bool))


class _TooLarge(Exception):
    """A joint constraint would exceed the table budget; ``pred`` is the one to drop
    (``None``: none of them is to blame), ``need`` the size that passed the budget."""

    def __init__(self, pred: _Pred | None, need: int = 0):
        super().__init__("constraint table too large")
        self.pred = pred
        self.need = need


Coefs = tuple[tuple[int, int, int], ...]


def _subtract(vec: dict[Any, Fraction], other: Mapping[Any, Fraction], f: Fraction) -> None:
    """``vec -= f * other`` for sparse vectors, in place (zeros removed)."""
    for key, c in other.items():
        v = vec.get(key, Fraction(0)) - f * c
        if v:
            vec[key] = v
        else:
            vec.pop(key, None)


@functools.lru_cache(maxsize=4096)
def _span(coefs: tuple[Coefs, ...]) -> tuple[dict[int, Fraction] | None, ...]:
    """Which linear parts are combinations of earlier independent ones.

    ``coefs`` are the (distinct) linear parts of some forms, in the order in
    which they should be preferred as independent axes.  Returns, for each,
    None if it is kept as an axis, else ``{j: a_j}`` with the part equal to
    ``sum a_j * coefs[j]`` over kept parts ``j`` (cached: read it, never
    change it).

    A part with a cell no other remaining part has cannot take part in a
    linear relation: such parts are kept first (repeatedly); the rest is
    reduced exactly over the rationals.

    Examples
    --------
    >>> x, y = (0, 0, 1), (1, 0, 1)
    >>> _span((((0, 0, 1),), ((0, 0, -1),)))
    (None, {0: Fraction(-1, 1)})
    >>> _span(((x,), (y,), (x, y), ((0, 0, 2), (1, 0, 2))))
    (None, None, {0: Fraction(1, 1), 1: Fraction(1, 1)}, {0: Fraction(2, 1), 1: Fraction(2, 1)})
    >>> _span(((x,), (y,)))
    (None, None)
    """
    n = len(coefs)
    out: list[dict[int, Fraction] | None] = [None] * n
    cells = [{(k, ll): c for k, ll, c in cf} for cf in coefs]
    alive = set(range(n))
    while True:
        seen: dict[tuple[int, int], int] = {}
        for i in alive:
            for cell in cells[i]:
                seen[cell] = seen.get(cell, 0) + 1
        private = [i for i in alive if any(seen[cell] == 1 for cell in cells[i])]
        if not private:
            break
        alive.difference_update(private)
    if len(alive) < 2:
        return tuple(out)
    # Gaussian elimination over the remaining parts, in the given order:
    # ``rows`` are reduced vectors with their pivot cell and their expression
    # in the kept parts
    rows: list[tuple[tuple[int, int], dict[tuple[int, int], Fraction], dict[int, Fraction]]] = []
    for i in sorted(alive):
        vec = {cell: Fraction(c) for cell, c in cells[i].items()}
        expr: dict[int, Fraction] = {i: Fraction(1)}
        for pivot, rvec, rexpr in rows:
            a = vec.get(pivot)
            if not a:
                continue
            f = a / rvec[pivot]
            _subtract(vec, rvec, f)
            _subtract(expr, rexpr, f)
        if vec:
            rows.append((min(vec), vec, expr))
            continue
        # 0 = sum expr[j] * part_j: part i is minus the rest over its coefficient
        own = expr.pop(i)
        out[i] = {j: -c / own for j, c in expr.items()}
    return tuple(out)
