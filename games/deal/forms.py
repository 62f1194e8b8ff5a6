"""Linear forms over the card-kind counts and the constraints built on them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

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
    """A joint constraint would exceed the table budget; ``pred`` is the one to drop."""

    def __init__(self, pred: _Pred | None):
        super().__init__("constraint table too large")
        self.pred = pred
