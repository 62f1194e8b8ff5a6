"""Marginals and count distributions from the counting tables."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from games.errors import (
    InconsistentKnowledgeError,
)

__all__: list[str] = []


if TYPE_CHECKING:  # the mixin runs on the counting tables of :class:`_Counting`
    from games.deal.counting import _Counting as _Base
else:
    _Base = object


class _Marginals(_Base):
    """Per-card probabilities and query distributions over the counting tables (mixin of the engine)."""

    def _term_weights(self, b: int) -> np.ndarray:
        """Posterior weight of every term of block ``b`` (unnormalised)."""
        blk = self.blocks[b]
        exact = self.exact
        beta = self.betas[b + 1]
        out = np.zeros(len(blk.w), dtype=object if exact else np.float64)
        if b == 0:
            # the forward table before the first block is a single 1 at the origin
            if not exact and self.La:
                sh = self.shifts[b]
                inside = np.all(sh < np.asarray(beta.shape, dtype=np.int64), axis=1)
                at = np.where(inside[:, None], sh, 0)
                w = np.asarray(blk.w, dtype=np.float64)
                return np.where(inside, beta[tuple(at.T)] * w, 0.0)
            for t in range(len(blk.w)):
                src, _ = self.slc(b)[t]
                if src is None:
                    out[t] = 0
                    continue
                idx = tuple(x.start for x in src)
                out[t] = beta[idx] * blk.w[t]
            return out
        alpha = self.alphas[b]
        if not exact and self.La and len(blk.w) > 6:
            return self._term_dots(beta, b, alpha) * np.asarray(blk.w, dtype=np.float64)
        for t in range(len(blk.w)):
            src, dst = self.slc(b)[t]
            if src is None:
                out[t] = 0
                continue
            if exact:
                s = 0
                for x, y in zip(
                    alpha[dst].ravel().tolist(), beta[src].ravel().tolist(), strict=True
                ):
                    if x and y:
                        s += x * y
                out[t] = s * blk.w[t]
            else:
                out[t] = float(np.vdot(alpha[dst], beta[src])) * blk.w[t]
        return out

    def marginals(self) -> np.ndarray:
        """Expected copies of each kind in each location (Fractions in exact mode)."""
        K, L = self.K, self.L
        exact = self.exact
        if self.zero or self.Z == 0:
            raise InconsistentKnowledgeError("no deal is consistent with the observations")
        res = np.zeros((K, L), dtype=object if exact else np.float64)
        if exact:
            for k in range(K):
                for ll in range(L):
                    res[k, ll] = Fraction(int(self.lo[k, ll]))
        else:
            res[:, :] = self.lo
        used = np.zeros(self.La, dtype=object if exact else np.float64)
        if exact:
            used[:] = Fraction(0)
        for b, blk in enumerate(self.blocks):
            tw = self._term_weights(b)
            z = tw.sum()
            for t in range(len(blk.w)):
                if tw[t] == 0:
                    continue
                scale = (Fraction(tw[t], blk.w[t] * 1) / z) if exact else tw[t] / blk.w[t] / z
                contrib = blk.mom[t] * scale  # nk × La
                for i, k in enumerate(blk.kinds):
                    for j, ll in enumerate(self.act_l):
                        res[k, ll] += contrib[i, j]
                        used[j] += contrib[i, j]
        if self.free:
            tot = sum(int(self.r[k]) for k in self.free)
            for j, ll in enumerate(self.act_l):
                rem = int(self.s_act[j]) - used[j]
                for k in self.free:
                    share = Fraction(int(self.r[k]), tot) if exact else self.r[k] / tot
                    res[k, ll] += rem * share
        return res

    def query_distribution(self) -> dict[int, Any]:
        """Distribution of the query form's value."""
        exact = self.exact
        if self.zero or self.Z == 0:
            raise InconsistentKnowledgeError("no deal is consistent with the observations")
        if self.query_const is not None or self.query_block is None:
            return {int(self.query_const or 0): Fraction(1) if exact else 1.0}
        b = self.query_block
        blk = self.blocks[b]
        tw = self._term_weights(b)
        z = tw.sum()
        out: dict[int, Any] = {}
        assert blk.qv is not None
        for t in range(len(tw)):
            v = int(blk.qv[t])
            p = Fraction(tw[t], z) if exact else tw[t] / z
            out[v] = out.get(v, 0) + p
        return out

    # -------------------------------------------------------------- sampling
