"""Notebook pictures without a dependency on the drawing code.

Models, pointed models, action models and small knowledge structures show
themselves as PNG pictures in Jupyter (``_repr_png_``).  The logic layer
does not import any drawing package: a drawing package registers a
*renderer* for a kind of object with :func:`register_renderer`, and
:func:`render_png` asks it.  Installed packages announce their renderers
under the entry-point group ``kripke.display`` (this distribution's
:mod:`visualize` does), loaded on the first picture asked for; without a
renderer, notebooks show the text form.

Kinds: ``"model"`` (a :class:`~kripke.models.KripkeModel` or
:class:`~kripke.models.PointedModel`) and ``"action_model"`` (an
:class:`~kripke.updates.ActionModel`).

Examples
--------
>>> from kripke.display import register_renderer, render_png, renderers
>>> register_renderer("demo", lambda obj: b"PNG " + str(obj).encode())
>>> render_png("demo", 7)
b'PNG 7'
>>> "demo" in renderers()
True
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import metadata
from typing import Any

from kripke.errors import KripkeError

__all__ = ["ENTRY_POINT_GROUP", "register_renderer", "render_png", "renderers"]

#: Entry-point group under which packages register their renderers (a callable
#: that calls :func:`register_renderer`).
ENTRY_POINT_GROUP = "kripke.display"

_RENDERERS: dict[str, Callable[[Any], bytes | None]] = {}
_LOADED = False


def register_renderer(kind: str, render: Callable[[Any], bytes | None]) -> None:
    """Use ``render(obj) -> PNG bytes or None`` for the pictures of ``kind``.

    Raises
    ------
    KripkeError
        If ``render`` is not callable.
    """
    if not callable(render):
        raise KripkeError(f"a renderer for {kind!r} must be callable, got {render!r}")
    _RENDERERS[kind] = render


def renderers() -> dict[str, Callable[[Any], bytes | None]]:
    """The registered renderers by kind (entry points loaded)."""
    _load_entry_points()
    return dict(_RENDERERS)


def _load_entry_points() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            ep.load()()
        except Exception:  # a broken drawing package must not break the text display
            continue


def render_png(kind: str, obj: Any) -> bytes | None:
    """The picture of ``obj`` as PNG bytes, or ``None`` when no renderer is registered."""
    if kind not in _RENDERERS:
        _load_entry_points()
    render = _RENDERERS.get(kind)
    return None if render is None else render(obj)
