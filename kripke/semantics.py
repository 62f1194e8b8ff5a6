"""One entry point over every engine: ``truth_set``, ``holds``, ``is_valid``, ``check``.

The explicit engine answers :class:`~kripke.models.KripkeModel` and
:class:`~kripke.models.PointedModel`; other engines (the symbolic one in
:mod:`kripke.symbolic`) register themselves with :func:`register_engine`.
The ``engine`` keyword chooses an engine explicitly and converts the model
when needed; nothing ever falls back silently to another engine.

Examples
--------
>>> from kripke.puzzles import muddy_children
>>> from kripke.semantics import check, holds
>>> pm = muddy_children(2, [1, 2])
>>> holds(pm, "~K_1 m1 & ~K_2 m2")
True
>>> check(pm, "[!m1 | m2] [!~K_1 m1 & ~K_2 m2] K_1 m1")
True
"""

from __future__ import annotations

import importlib
from collections.abc import Hashable
from typing import Any, Protocol

import numpy as np

from kripke.errors import EngineError
from kripke.formulas import Formula, as_formula
from kripke.models import KripkeModel, PointedModel

__all__ = [
    "truth_set",
    "holds",
    "is_valid",
    "check",
    "count",
    "register_engine",
    "engine_of",
    "ENGINES",
]


class EngineHandler(Protocol):
    """What an engine provides to the common entry points."""

    name: str

    def accepts(self, obj: Any) -> bool: ...
    def truth_set(self, obj: Any, f: Formula) -> Any: ...
    def holds(self, obj: Any, f: Formula, state: Any = None) -> bool: ...
    def is_valid(self, obj: Any, f: Formula) -> bool: ...
    def is_pointed(self, obj: Any) -> bool: ...
    def count(self, obj: Any, f: Formula) -> int: ...
    def announce(self, obj: Any, f: Formula, check: bool = True) -> Any: ...
    def product_update(self, obj: Any, action: Any, events: Any) -> Any: ...
    def convert(self, obj: Any) -> Any: ...


class _ExplicitEngine:
    name = "explicit"

    def accepts(self, obj: Any) -> bool:
        return isinstance(obj, KripkeModel | PointedModel)

    def _model(self, obj: Any) -> KripkeModel:
        return obj.model if isinstance(obj, PointedModel) else obj

    def truth_set(self, obj: Any, f: Formula) -> frozenset[Hashable]:
        from kripke.explicit import truth_array

        m = self._model(obj)
        return frozenset(m.label(int(i)) for i in np.flatnonzero(truth_array(m, f)))

    def holds(self, obj: Any, f: Formula, state: Any = None) -> bool:
        from kripke.explicit import truth_array

        if state is not None:
            m = self._model(obj)
            return bool(truth_array(m, f)[m.index(state)])
        if not isinstance(obj, PointedModel):
            raise EngineError(
                "holds() needs a pointed model or a state=…; use is_valid() for a whole model"
            )
        t = truth_array(obj.model, f)
        return bool(t[list(obj.designated_indices)].all())

    def is_valid(self, obj: Any, f: Formula) -> bool:
        from kripke.explicit import truth_array

        return bool(truth_array(self._model(obj), f).all())

    def is_pointed(self, obj: Any) -> bool:
        return isinstance(obj, PointedModel)

    def count(self, obj: Any, f: Formula) -> int:
        from kripke.explicit import truth_array

        return int(truth_array(self._model(obj), f).sum())

    def announce(self, obj: Any, f: Formula, check: bool = True) -> Any:
        from kripke.updates import announce

        return announce(obj, f, check=check)

    def product_update(self, obj: Any, action: Any, events: Any) -> Any:
        from kripke.updates import product_update

        return product_update(obj, action, events)

    def convert(self, obj: Any) -> Any:
        if self.accepts(obj):
            return obj
        to_explicit = getattr(importlib.import_module("kripke.symbolic"), "to_explicit", None)
        if to_explicit is None:
            raise EngineError(f"cannot convert {type(obj).__name__} to an explicit model")
        return to_explicit(obj)


ENGINES: dict[str, EngineHandler] = {"explicit": _ExplicitEngine()}
#: engines registered lazily: name -> module that registers it on import
_LAZY = {"symbolic": "kripke.symbolic"}


def register_engine(handler: EngineHandler) -> None:
    """Register an engine (called by the engine's module on import)."""
    ENGINES[handler.name] = handler


def _engine(name: str) -> EngineHandler:
    if name not in ENGINES and name in _LAZY:
        importlib.import_module(_LAZY[name])
    if name not in ENGINES:
        raise EngineError(
            f"unknown engine {name!r}; choose one of {sorted(set(ENGINES) | set(_LAZY))}"
        )
    return ENGINES[name]


def engine_of(obj: Any) -> str:
    """The name of the engine that natively answers ``obj``."""
    for name, h in ENGINES.items():
        if h.accepts(obj):
            return name
    for name in _LAZY:
        if _engine(name).accepts(obj):
            return name
    raise EngineError(
        f"{type(obj).__name__} is not a model: expected a KripkeModel, PointedModel or knowledge structure"
    )


def _dispatch(obj: Any, engine: str | None) -> EngineHandler:
    native = engine_of(obj)
    return _engine(native if engine is None else engine)


def _prepare(obj: Any, engine: str | None) -> tuple[EngineHandler, Any]:
    native = engine_of(obj)
    name = native if engine is None else engine
    h = _engine(name)
    return h, (obj if name == native else h.convert(obj))


def truth_set(obj: Any, f: Formula | str, *, engine: str | None = None) -> Any:
    """The worlds or states where ``f`` is true.

    Explicit models give a ``frozenset`` of world labels; knowledge structures
    give a BDD.
    """
    h, o = _prepare(obj, engine)
    return h.truth_set(o, as_formula(f))


def holds(obj: Any, f: Formula | str, *, state: Any = None, engine: str | None = None) -> bool:
    """Whether ``f`` is true at the designated world(s), or at ``state``."""
    h, o = _prepare(obj, engine)
    return h.holds(o, as_formula(f), state)


def is_valid(obj: Any, f: Formula | str, *, engine: str | None = None) -> bool:
    """Whether ``f`` is true at every world or state."""
    h, o = _prepare(obj, engine)
    return h.is_valid(o, as_formula(f))


def count(obj: Any, f: Formula | str, *, engine: str | None = None) -> int:
    """The exact number of worlds or states where ``f`` is true."""
    h, o = _prepare(obj, engine)
    return h.count(o, as_formula(f))


def check(obj: Any, f: Formula | str, *, engine: str | None = None, state: Any = None) -> bool:
    """Model-check ``f``: the one entry point over every engine.

    On a pointed model (or structure), whether ``f`` holds at the designated
    worlds; with ``state=`` whether it holds there; on a plain model, whether
    it is valid (true everywhere).  ``engine="explicit"`` or ``"symbolic"``
    converts the model to that engine first.
    """
    h, o = _prepare(obj, engine)
    f = as_formula(f)
    if state is not None or h.is_pointed(o):
        return h.holds(o, f, state)
    return h.is_valid(o, f)
