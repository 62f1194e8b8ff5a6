"""Exact uniform sampling of deals from the counting tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from games.deal.counting import _Block

__all__: list[str] = []


def _categorical(probs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    cum = np.cumsum(probs, axis=1)
    tot = cum[:, -1]
    r = rng.random(len(probs)) * tot
    idx = (cum <= r[:, None]).sum(axis=1)
    return np.minimum(idx, probs.shape[1] - 1)


def _grouped_choice(
    group: np.ndarray, weight: np.ndarray, want: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """For each ``want[i]``, an index ``j`` with ``group[j] == want[i]``, chosen ∝ ``weight[j]``."""
    order = np.argsort(group, kind="stable")
    g = group[order]
    w = weight[order]
    cum = np.cumsum(w)
    starts = np.searchsorted(g, want, side="left")
    ends = np.searchsorted(g, want, side="right")
    before = np.where(starts > 0, cum[np.maximum(starts - 1, 0)], 0.0)
    tot = cum[ends - 1] - before
    r = before + rng.random(len(want)) * tot
    pos = np.searchsorted(cum, r, side="right")
    pos = np.clip(pos, starts, ends - 1)
    return order[pos]


if TYPE_CHECKING:  # the mixin runs on the counting tables of :class:`_Counting`
    from games.deal.counting import _Counting as _Base
else:
    _Base = object


class _Sampling(_Base):
    """Exact uniform draws by backtracking through the counting tables (mixin of the engine)."""

    def sample(self, n: int, rng: np.random.Generator) -> np.ndarray:
        K, L, La = self.K, self.L, self.La
        out = np.zeros((n, K, L), dtype=np.int64)
        out[:] = self.lo[None, :, :]
        if n == 0:
            return out
        u = np.zeros((n, La), dtype=np.int64)
        shape = np.asarray(self.shape, dtype=np.int64)
        for b, blk in enumerate(self.blocks):
            beta = self.betas[b + 1]
            sh = self.shifts[b]
            T = len(blk.w)
            probs = np.zeros((n, T))
            wf = np.asarray(blk.w, dtype=np.float64)
            for t in range(T):
                pos = u + sh[t]
                ok = np.all(pos < shape, axis=1)
                vals = np.zeros(n)
                if ok.any():
                    vals[ok] = np.asarray(beta[tuple(pos[ok].T)], dtype=np.float64)
                probs[:, t] = vals * wf[t]
            t_pick = _categorical(probs, rng)
            u += sh[t_pick]
            opts = self._backtrack(blk, t_pick, rng)
            for i, k in enumerate(blk.kinds):
                out[:, k, self.act_l] += opts[i]
        if self.free:
            rem = self.s_act[None, :] - u
            if La:
                rem[:, self.elim] = sum(int(self.r[k]) for k in self.free) - (
                    rem.sum(axis=1) - rem[:, self.elim]
                )
            cards = np.asarray([k for k in self.free for _ in range(int(self.r[k]))])
            P = len(cards)
            order = np.argsort(rng.random((n, P)), axis=1)
            cum = np.cumsum(rem, axis=1)
            posn = np.arange(P)[None, :, None]
            loc_of_pos = (posn >= cum[:, None, :]).sum(axis=2)
            kind_at = cards[order]
            rows = np.repeat(np.arange(n), P)
            act = np.asarray(self.act_l)[loc_of_pos.reshape(-1)]
            np.add.at(out, (rows, kind_at.reshape(-1), act), 1)
        return out

    def _backtrack(
        self, blk: _Block, t_pick: np.ndarray, rng: np.random.Generator
    ) -> list[np.ndarray]:
        n = len(t_pick)
        fin, fw = blk.final
        # choose a final state with the chosen term
        state = _grouped_choice(blk.term_of_final, fw, t_pick, rng)
        state = fin[state]
        opts: list[np.ndarray] = [np.zeros((n, self.La), dtype=np.int64)] * len(blk.kinds)
        for i in range(len(blk.stages) - 1, -1, -1):
            p_idx, o_idx, child, w_e, opt_arr = blk.stages[i]
            e = _grouped_choice(child, np.asarray(w_e, dtype=np.float64), state, rng)
            opts[i] = opt_arr[o_idx[e]]
            state = p_idx[e]
        return opts
