"""Errors raised by :mod:`visualize` on bad drawing input.

:class:`VisualizeError` derives from :class:`kripke.errors.KripkeError` and
:class:`ValueError`, so ``except KripkeError`` and ``except ValueError`` both
catch it.
"""

from __future__ import annotations

from kripke.errors import KripkeError

__all__ = ["VisualizeError"]


class VisualizeError(KripkeError, ValueError):
    """A drawing function got input it cannot draw (bad layout, shape, probability, ...)."""
