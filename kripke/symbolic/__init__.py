"""The symbolic engine: knowledge structures on binary decision diagrams.

A knowledge structure is a vocabulary, a state law (a BDD) and, for each
agent, the variables it observes (S5) or a relational BDD (K, KD45 belief
agents).  It answers the same :class:`~kripke.formulas.Formula` objects as the
explicit engine, through the same entry points: :func:`~kripke.semantics.check`,
:func:`~kripke.semantics.holds`, :func:`~kripke.semantics.truth_set` (a BDD),
:func:`~kripke.updates.announce` and :func:`~kripke.updates.product_update`
take a :class:`PointedStructure` exactly as they take a pointed model.

The BDD backend is CUDD (``dd.cudd``) when installed, else ``dd.autoref``
(pure Python); see :func:`set_backend`.

Examples
--------
>>> from kripke import check, announce, holds
>>> from kripke.puzzles import muddy_children
>>> pm = muddy_children(100, [3, 7], engine="symbolic")
>>> pm = announce(pm, " | ".join(f"m{i}" for i in range(1, 101)))
>>> holds(pm, "K_3 ~m1 & ~Kw_3 m3")
True
>>> check(muddy_children(3, [1]), "[!m1 | m2 | m3] K_1 m1", engine="symbolic")
True

Notes
-----
The design follows SMCDEL (van Benthem, van Eijck, Gattinger & Su,
"Symbolic model checking for dynamic epistemic logic — S5 and beyond",
*J. Logic Comput.* 28, 2018; Gattinger, *New Directions in Model Checking
Dynamic Epistemic Logic*, PhD thesis, Amsterdam 2018).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kripke.errors import EngineError
from kripke.formulas import Formula
from kripke.semantics import register_engine
from kripke.symbolic._bdd import (
    available_backends,
    fresh_manager,
    get_backend,
    get_limits,
    manager,
    set_backend,
    set_limits,
    use_backend,
)
from kripke.symbolic.boolean import at_least, at_most, bdd_of, between, exactly, primed, variable
from kripke.symbolic.structures import KnowledgeStructure, PointedStructure
from kripke.symbolic.transformers import optimize, optimize_pointed
from kripke.symbolic.translate import to_explicit, to_symbolic

__all__ = [
    "KnowledgeStructure",
    "PointedStructure",
    "SymbolicEngine",
    "to_symbolic",
    "to_explicit",
    "optimize",
    "optimize_pointed",
    "bdd_of",
    "variable",
    "primed",
    "at_least",
    "at_most",
    "exactly",
    "between",
    "available_backends",
    "get_backend",
    "set_backend",
    "use_backend",
    "fresh_manager",
    "manager",
    "set_limits",
    "get_limits",
]


def _structure(obj: Any) -> KnowledgeStructure:
    return obj.structure if isinstance(obj, PointedStructure) else obj


class SymbolicEngine:
    """The engine handler :mod:`kripke.semantics` dispatches knowledge structures to."""

    name = "symbolic"

    def accepts(self, obj: Any) -> bool:
        return isinstance(obj, KnowledgeStructure | PointedStructure)

    def truth_set(self, obj: Any, f: Formula) -> Any:
        return _structure(obj).truth_set(f)

    def holds(self, obj: Any, f: Formula, state: Any = None) -> bool:
        if state is not None:
            return _structure(obj).holds(f, state)
        if not isinstance(obj, PointedStructure):
            raise EngineError(
                "holds() needs a pointed structure or a state=…; use is_valid() for a whole structure"
            )
        return obj.holds(f)

    def is_valid(self, obj: Any, f: Formula) -> bool:
        return _structure(obj).is_valid(f)

    def is_pointed(self, obj: Any) -> bool:
        return isinstance(obj, PointedStructure)

    def count(self, obj: Any, f: Formula) -> int:
        return _structure(obj).count(f)

    def announce(self, obj: Any, f: Formula, check: bool = True) -> Any:
        if isinstance(obj, PointedStructure):
            return obj.announce(f, check=check)
        return obj.announce(f)

    def product_update(self, obj: Any, action: Any, events: Iterable[str] | str | None) -> Any:
        if isinstance(obj, PointedStructure):
            return obj.product_update(action, events)
        return obj.product_update(action)

    def convert(self, obj: Any) -> Any:
        return to_symbolic(obj)


register_engine(SymbolicEngine())
