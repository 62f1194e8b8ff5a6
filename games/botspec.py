"""Bots of one's own: loading a :class:`~games.base.Bot` subclass from a spec.

Wherever a bot name is accepted (``kripke tournament --bots``, ``kripke play
--bots``, :func:`games.base.make_bot`, :func:`games.tournament.run_tournament`)
three more kinds of name load a bot written outside this package:

``path/to/my_bot.py:MyBot``
    The class ``MyBot`` of a Python file.  The file is run as a module of
    its own (once per process), so it may import anything installed.
``package.module:MyBot``
    The class ``MyBot`` of an importable module (installed, or on
    ``PYTHONPATH``).
``mybot``
    A bot an installed package registers under the entry-point group
    ``kripke_games.bots``: the entry point's name is ``<game>.<bot>`` and its
    value ``module:Class``.  In ``pyproject.toml``::

        [project.entry-points."kripke_games.bots"]
        "bs.mybot" = "mybots.bs:MyBot"

    registers ``mybot`` for ``bs`` (``kripke tournament bs --bots
    mybot,probabilistic``); the same class may be registered for several
    games under several entry points.  The package's bots appear in
    :func:`games.base.registered_bots` and ``kripke tournament --help``.  A
    bot registered by this package keeps its name: an entry point of the
    same name is not used.

The class must be a subclass of :class:`games.base.Bot` implementing
``step`` (and usually ``restart`` and ``inform``) whose constructor accepts
``seed=`` (the inherited one does).  A class attribute ``games`` (e.g.
``games = ("bs",)``) names the games it plays; a bot without one is offered
to every game.  A spec is a plain string, so tournament worker processes load
the bot again by its spec: nothing is pickled.

Whatever is missing raises :class:`~games.errors.BotLoadError` naming the
file or module, the class and what is missing.

Examples
--------
>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "first.py").write_text(
...     "from games.base import Bot\\n"
...     "class First(Bot):\\n"
...     "    games = ('bs',)\\n"
...     "    def step(self, legal_actions):\\n"
...     "        return legal_actions[0]\\n")
>>> spec = f"{folder / 'first.py'}:First"
>>> load_bot_class(spec, "bs").__name__
'First'
>>> load_bot_class(f"{folder / 'first.py'}:Second", "bs")
Traceback (most recent call last):
...
games.errors.BotLoadError: ...first.py has no class 'Second'; classes defined there: First (a Bot)
>>> load_bot_class(spec, "boerenbridge")
Traceback (most recent call last):
...
games.errors.BotLoadError: First (...first.py) plays bs only (its 'games' attribute), not boerenbridge
>>> import shutil; shutil.rmtree(folder)
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import sys
import traceback
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any

from games.errors import BotLoadError

__all__ = [
    "ENTRY_POINT_GROUP",
    "is_bot_spec",
    "absolute_spec",
    "load_bot_class",
    "entry_point_bots",
    "has_entry_point_bot",
    "load_entry_point_bot",
    "make_bot_from_spec",
    "check_bot_class",
]

#: Entry-point group under which installed packages register bots (``<game>.<bot>``).
ENTRY_POINT_GROUP = "kripke_games.bots"

#: Modules loaded from files, by resolved path (each file runs once per process).
_FILE_MODULES: dict[Path, ModuleType] = {}
#: Classes loaded from entry points, by ``(game, bot)``.
_ENTRY_CLASSES: dict[tuple[str, str], type] = {}
#: Checked classes of file and module specs, by ``(spec, game, working directory)``.
_SPEC_CLASSES: dict[tuple[str, str | None, str], type] = {}

_HOW_TO = "write class MyBot(Bot) with restart/inform/step (from games.base import Bot)"


def is_bot_spec(name: str) -> bool:
    """Whether ``name`` names a class by ``file.py:Class`` or ``module:Class`` (or a bare file).

    Examples
    --------
    >>> is_bot_spec("bots/my_bot.py:MyBot"), is_bot_spec("mybots.bs:MyBot")
    (True, True)
    >>> is_bot_spec("probabilistic")
    False
    """
    return ":" in name or name.endswith(".py")


def absolute_spec(spec: str) -> str:
    """``spec`` with a relative file path made absolute (other names unchanged).

    For runners whose workers may start in another directory (a cluster's
    worker processes): the bot keeps its label, the worker loads it by the
    absolute spec.

    Examples
    --------
    >>> import os
    >>> absolute_spec("bots/my_bot.py:MyBot") == os.path.abspath("bots/my_bot.py") + ":MyBot"
    True
    >>> absolute_spec("mybots.bs:MyBot"), absolute_spec("probabilistic")
    ('mybots.bs:MyBot', 'probabilistic')
    """
    where, sep, cls = spec.rpartition(":")
    if sep and where and _is_file(where):
        return f"{Path(where).expanduser().absolute()}:{cls}"
    return spec


def _split(spec: str) -> tuple[str, str]:
    """``(where, class name)`` of a spec; ``where`` a file path or a module name."""
    where, sep, cls = spec.rpartition(":")
    if not sep:
        raise BotLoadError(
            f"bot spec {spec!r} names a file but no class; write {spec}:ClassName"
            + _classes_hint(Path(spec)),
            spec,
        )
    if not where:
        raise BotLoadError(f"bot spec {spec!r} names no file or module before ':'", spec)
    if not cls or not all(part.isidentifier() for part in cls.split(".")):
        raise BotLoadError(
            f"bot spec {spec!r}: {cls!r} after ':' is not a class name; write {where}:ClassName",
            spec,
        )
    return where, cls


def _is_file(where: str) -> bool:
    return where.endswith(".py") or "/" in where or os.sep in where


def _classes_hint(path: Path) -> str:
    """``" (classes defined there: ...)"`` for an existing file, else ``""``."""
    if not path.is_file():
        return ""
    try:
        module = _load_file(path, str(path))
    except BotLoadError:
        return ""
    found = _classes(module)
    return f" (classes defined there: {found})" if found else ""


def load_bot_class(spec: str, game: str | None = None) -> type:
    """The bot class named by ``path/to/file.py:Class`` or ``package.module:Class``.

    Parameters
    ----------
    spec : str
        The spec, as on the command line.
    game : str, optional
        The game it will play; a class whose ``games`` attribute leaves this
        game out is refused.

    Returns
    -------
    type
        A checked subclass of :class:`games.base.Bot` (see :func:`check_bot_class`).

    Raises
    ------
    BotLoadError
        The file does not exist or has a syntax error (with its line), the
        file or module raised on import, the module is not installed, there
        is no class of that name (the classes found are listed), or the
        class is no usable bot.
    """
    key = (spec, game, os.getcwd())
    if key in _SPEC_CLASSES:
        return _SPEC_CLASSES[key]
    where, cls_name = _split(spec)
    if _is_file(where):
        path = Path(where).expanduser()
        if not path.is_file():
            why = "is a directory" if path.is_dir() else "not found"
            raise BotLoadError(
                f"bot file {where} {why} (spec {spec!r}; working directory {Path.cwd()})", spec
            )
        module = _load_file(path, spec)
        origin = where
    else:
        module = _import_module(where, spec)
        origin = f"module {where}"
    obj = _lookup(module, cls_name, origin, spec)
    _SPEC_CLASSES[key] = check_bot_class(obj, origin, spec, game)
    return _SPEC_CLASSES[key]


def _load_file(path: Path, spec: str) -> ModuleType:
    """Run ``path`` as a module (once per process) and return it."""
    resolved = path.resolve()
    cached = _FILE_MODULES.get(resolved)
    if cached is not None:
        return cached
    digest = hashlib.sha1(str(resolved).encode()).hexdigest()[:12]
    stem = "".join(ch if ch.isalnum() else "_" for ch in resolved.stem)
    name = f"kripke_games_userbot_{stem}_{digest}"
    loader_spec = importlib.util.spec_from_file_location(name, resolved)
    if loader_spec is None or loader_spec.loader is None:
        raise BotLoadError(f"bot file {path} cannot be loaded as Python (spec {spec!r})", spec)
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[name] = module  # dataclasses and pickling look classes up by module name
    try:
        loader_spec.loader.exec_module(module)
    except SyntaxError as exc:
        sys.modules.pop(name, None)
        raise BotLoadError(
            f"syntax error in bot file {path}, line {exc.lineno}: {exc.msg} (spec {spec!r})", spec
        ) from None
    except Exception as exc:
        sys.modules.pop(name, None)
        line = _line_in(exc, resolved)
        at = f", line {line}" if line else ""
        raise BotLoadError(
            f"bot file {path} raised {type(exc).__name__} when loaded{at}: {exc} (spec {spec!r})",
            spec,
        ) from exc
    _FILE_MODULES[resolved] = module
    return module


def _line_in(exc: BaseException, path: Path) -> int | None:
    """The last line of ``path`` in the traceback of ``exc``."""
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        try:
            if Path(frame.filename).resolve() == path:
                line = frame.lineno
        except OSError:
            continue
    return line


def _import_module(name: str, spec: str) -> ModuleType:
    if not all(part.isidentifier() for part in name.split(".")):
        raise BotLoadError(
            f"bot spec {spec!r}: {name!r} is neither a module name nor a .py file", spec
        )
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (name == exc.name or name.startswith(exc.name + ".")):
            raise BotLoadError(
                f"module {name} not found (spec {spec!r}): install its package or put it on "
                f"PYTHONPATH, or name the file: path/to/{name.rsplit('.', 1)[-1]}.py:"
                f"{spec.rpartition(':')[2]}",
                spec,
            ) from None
        raise BotLoadError(
            f"module {name} cannot import {exc.name!r} (spec {spec!r}): {exc}", spec
        ) from exc
    except SyntaxError as exc:
        raise BotLoadError(
            f"syntax error in module {name} ({exc.filename}), line {exc.lineno}: {exc.msg} "
            f"(spec {spec!r})",
            spec,
        ) from None
    except Exception as exc:
        raise BotLoadError(
            f"module {name} raised {type(exc).__name__} when imported: {exc} (spec {spec!r})",
            spec,
        ) from exc


def _classes(module: ModuleType) -> str:
    """The classes ``module`` defines, Bot subclasses marked, as text."""
    from games.base import Bot

    names = []
    for attr, value in vars(module).items():
        if isinstance(value, type) and value.__module__ == module.__name__:
            names.append(f"{attr} (a Bot)" if issubclass(value, Bot) else attr)
    return ", ".join(names) if names else ""


def _lookup(module: ModuleType, cls_name: str, origin: str, spec: str) -> Any:
    obj: Any = module
    for part in cls_name.split("."):
        if not hasattr(obj, part):
            found = _classes(module)
            listing = f"classes defined there: {found}" if found else "it defines no class"
            raise BotLoadError(f"{origin} has no class {cls_name!r}; {listing}", spec)
        obj = getattr(obj, part)
    return obj


def check_bot_class(obj: Any, origin: str, spec: str, game: str | None = None) -> type:
    """``obj`` if it is a usable bot class for ``game``, else a :class:`BotLoadError`.

    Usable: a concrete subclass of :class:`games.base.Bot` whose constructor
    accepts ``seed=`` and whose ``games`` attribute, if not empty, names ``game``.
    """
    from games.base import Bot

    label = getattr(obj, "__name__", repr(obj))
    if not isinstance(obj, type):
        raise BotLoadError(
            f"{label} in {origin} is a {type(obj).__name__}, not a class; {_HOW_TO}", spec
        )
    if not issubclass(obj, Bot):
        raise BotLoadError(
            f"{label} in {origin} is not a subclass of games.base.Bot; {_HOW_TO}", spec
        )
    if inspect.isabstract(obj):
        missing = ", ".join(sorted(getattr(obj, "__abstractmethods__", ())))
        raise BotLoadError(
            f"{label} in {origin} does not implement {missing} "
            "(def step(self, legal_actions): return one of them)",
            spec,
        )
    try:
        inspect.signature(obj).bind(seed=0)
    except TypeError:
        raise BotLoadError(
            f"{label} in {origin} cannot be built as {label}(seed=...): its constructor is "
            f"{label}{inspect.signature(obj)}; accept the seed: "
            "def __init__(self, seed=None): super().__init__(seed)",
            spec,
        ) from None
    except ValueError:  # no signature to read (a C type): trust the constructor
        pass
    plays = tuple(getattr(obj, "games", ()) or ())
    if game is not None and plays and game not in plays:
        raise BotLoadError(
            f"{label} ({origin}) plays {', '.join(plays)} only (its 'games' attribute), not {game}",
            spec,
        )
    return obj


# ------------------------------------------------------------ entry points
def _entry_points() -> Iterable[metadata.EntryPoint]:
    return metadata.entry_points(group=ENTRY_POINT_GROUP)


def entry_point_bots(game: str) -> dict[str, str]:
    """Bots that installed packages register for ``game``: ``{bot name: "module:Class"}``.

    The entry points are read, not loaded, so listing them imports nothing.
    """
    out: dict[str, str] = {}
    for ep in _entry_points():
        prefix, dot, bot = ep.name.partition(".")
        if dot and prefix == game and bot and bot not in out:
            out[bot] = ep.value
    return dict(sorted(out.items()))


def has_entry_point_bot(game: str, name: str) -> bool:
    """Whether an installed package registers ``name`` for ``game`` (a loaded one is remembered)."""
    return (game, name) in _ENTRY_CLASSES or name in entry_point_bots(game)


def load_entry_point_bot(game: str, name: str) -> type:
    """The class of the entry point ``<game>.<name>`` of group :data:`ENTRY_POINT_GROUP`.

    Raises
    ------
    BotLoadError
        No such entry point is installed, or its module or class cannot be
        loaded (the message names the distribution, module and class).
    """
    key = (game, name)
    if key in _ENTRY_CLASSES:
        return _ENTRY_CLASSES[key]
    wanted = f"{game}.{name}"
    found = [ep for ep in _entry_points() if ep.name == wanted]
    if not found:
        raise BotLoadError(
            f"no installed package registers bot {name!r} for {game}: no entry point "
            f"{wanted!r} in group {ENTRY_POINT_GROUP!r} (install the package that provides it)",
            name,
        )
    ep = found[0]
    dist = getattr(ep, "dist", None)
    owner = f" of {dist.name} {dist.version}" if dist is not None else ""
    origin = f"entry point {wanted} = {ep.value}{owner}"
    module_name, _, attr = ep.value.partition(":")
    module_name = module_name.strip()
    attr = attr.strip()
    if not attr:
        raise BotLoadError(f"{origin} names no class (write module:Class)", name)
    try:
        module = _import_module(module_name, f"{module_name}:{attr}")
    except BotLoadError as exc:
        raise BotLoadError(
            f"bot {name!r} of {game} cannot be loaded from its {origin}: {exc}", name
        ) from exc
    cls = check_bot_class(_lookup(module, attr, origin, name), origin, name, game)
    _ENTRY_CLASSES[key] = cls
    return cls


# ------------------------------------------------------------------- bots
def make_bot_from_spec(game: str, spec: str, seed: int | None = None) -> Any:
    """Instantiate the bot named by ``spec`` (file, module or entry point) for ``game``.

    Raises
    ------
    BotLoadError
        See :func:`load_bot_class` and :func:`load_entry_point_bot`; also when
        the constructor raises.
    """
    cls = load_bot_class(spec, game) if is_bot_spec(spec) else load_entry_point_bot(game, spec)
    try:
        return cls(seed=seed)
    except Exception as exc:
        raise BotLoadError(
            f"{cls.__name__}(seed={seed!r}) raised {type(exc).__name__}: {exc} (spec {spec!r})",
            spec,
        ) from exc
