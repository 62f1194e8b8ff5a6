"""Domain type aliases used across :mod:`kripke` (one place for all of them)."""

from __future__ import annotations

from collections.abc import Hashable

__all__ = ["Agent", "World", "AtomName", "Event"]

#: An agent name: a string such as ``"alice"`` or an integer such as ``1``.
#: Formulas always store agent names as strings (``K_1 p`` names agent ``"1"``).
Agent = str
#: A world label as the user gives it; the engines index worlds by ``int``.
World = Hashable
#: The printed name of an atom, e.g. ``"p"`` or ``"has(p2, QS)"``.
AtomName = str
#: An event label of an action model.
Event = Hashable
