"""visualize: matplotlib pictures of Kripke models and card-game knowledge."""

from __future__ import annotations

__all__: list[str] = []
