"""The engine: counting, marginals and sampling over one set of constraints."""

from __future__ import annotations

from games.deal.counting import _Counting
from games.deal.marginals import _Marginals
from games.deal.sampling import _Sampling

__all__: list[str] = []


class _Engine(_Marginals, _Sampling, _Counting):
    """Counting tables for one constraint set, with marginals and exact sampling.

    See :class:`~games.deal.counting._Counting` for the dynamic programme.
    """
