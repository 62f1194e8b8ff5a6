"""Formulas of dynamic epistemic logic as immutable, hashable expression trees.

One frozen dataclass per connective under the abstract :class:`Formula`.
Structural equality and hashing let formulas key memo tables; the Python
operators ``&``, ``|``, ``~`` and ``>>`` build conjunction, disjunction,
negation and implication.  Constructors never simplify: the formula a user
announces is the one they wrote (``&`` and ``|`` only extend an existing chain,
so ``p & q & r`` equals ``parse("p & q & r")``).

Every operation on formulas (``==``, ``hash``, ``str``, ``repr``, LaTeX,
:meth:`Formula.size`, :meth:`Formula.depth`) works at any nesting depth: a
node's hash and depth are set when it is built, and the rest walks the tree
with an explicit stack instead of recursion.

This module imports nothing from models, engines or games.

Examples
--------
>>> from kripke.formulas import Atom, K, C
>>> p, q = Atom("p"), Atom("q")
>>> f = K("a", p & ~q) >> C(["a", "b"], p)
>>> str(f)
'K_a (p & ~q) -> C_{a,b} p'
>>> f.atoms() == {p, q}
True
"""

from __future__ import annotations

import re
from abc import abstractmethod
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, Protocol, runtime_checkable

from kripke.errors import KripkeError

__all__ = [
    "Formula",
    "Top",
    "Bottom",
    "Atom",
    "Not",
    "And",
    "Or",
    "Implies",
    "Iff",
    "Know",
    "Possible",
    "KnowWhether",
    "Everybody",
    "Common",
    "Distributed",
    "Announce",
    "AnnounceDiamond",
    "Action",
    "ActionDiamond",
    "ActionLike",
    "TOP",
    "BOT",
    "atom",
    "atoms",
    "K",
    "M",
    "Kw",
    "E",
    "C",
    "D",
    "conj",
    "disj",
    "as_formula",
    "check_agent_name",
]

_AGENT_RE = re.compile(r"^\w+$")
_IDENT_RE = re.compile(r"^[^\W\d]\w*$")
_ARG_RE = re.compile(r"^[\w#♠♥♦♣]+[+-]?$")

# Precedence levels used by the printer (higher binds tighter).
_P_IFF, _P_IMP, _P_OR, _P_AND, _P_UNARY = 1, 2, 3, 4, 5


def check_agent_name(agent: object) -> str:
    """Return ``agent`` as the string formulas use, or raise ``KripkeError``.

    Agent names are identifiers or numbers (``1``, ``"alice"``, ``"p2"``).
    """
    if isinstance(agent, bool) or not isinstance(agent, int | str):
        raise KripkeError(f"agent name must be an identifier or a number, got {agent!r}")
    name = str(agent)
    if not _AGENT_RE.match(name):
        raise KripkeError(f"agent name must be an identifier or a number, got {agent!r}")
    return name


def _group(agents: Iterable[object] | str | int) -> tuple[str, ...]:
    if isinstance(agents, str | int):
        agents = [agents]
    group = tuple(check_agent_name(a) for a in agents)
    if not group:
        raise KripkeError("a group of agents must not be empty")
    return group


@runtime_checkable
class ActionLike(Protocol):
    """What a formula needs of an action model: a name and its events."""

    name: str

    def event_names(self) -> tuple[str, ...]: ...


class Formula:
    """Abstract base of every formula.

    Subclasses are frozen dataclasses, so formulas are immutable values with
    structural equality.  Use :func:`kripke.parser.parse` to read text.
    """

    # the hash and the depth, set when the node is built from its children's
    # (copies and unpickled formulas set them again on first use)
    __slots__ = ("_h", "_d")
    _h: int
    _d: int

    # -- operators ---------------------------------------------------------
    def __and__(self, other: object) -> Formula:
        if not isinstance(other, Formula):
            return NotImplemented
        if type(self) is And:
            return And((*self.args, other))  # type: ignore[attr-defined]
        return And((self, other))

    def __rand__(self, other: object) -> Formula:
        return NotImplemented

    def __or__(self, other: object) -> Formula:
        if not isinstance(other, Formula):
            return NotImplemented
        if type(self) is Or:
            return Or((*self.args, other))  # type: ignore[attr-defined]
        return Or((self, other))

    def __ror__(self, other: object) -> Formula:
        return NotImplemented

    def __invert__(self) -> Formula:
        return Not(self)

    def __rshift__(self, other: object) -> Formula:
        if not isinstance(other, Formula):
            return NotImplemented
        return Implies(self, other)

    # -- structural equality and hashing (iterative: any depth) -------------
    def _fields(self) -> tuple[Any, ...]:
        """The fields that are not subformulas (names, agents, events, action model)."""
        return ()

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is not type(self):
            return NotImplemented
        try:
            if self._h != other._h:  # type: ignore[attr-defined]
                return False
            key = _KEYS.get(type(self))
            if key is not None and self._d <= _SHALLOW:  # shallow: compare field by field
                return key(self) == key(other)  # type: ignore[no-any-return]
        except AttributeError:
            pass
        stack: list[tuple[Formula, Formula]] = [(self, other)]  # type: ignore[list-item]
        while stack:
            a, b = stack.pop()
            if a is b:
                continue
            if type(a) is not type(b) or hash(a) != hash(b) or a._fields() != b._fields():
                return False
            ca, cb = a.children(), b.children()
            if len(ca) != len(cb):
                return False
            stack.extend(zip(ca, cb, strict=True))
        return True

    def __hash__(self) -> int:
        try:
            return self._h
        except AttributeError:
            _reseal(self)
            return self._h

    def __post_init__(self) -> None:
        self._check()
        self._seal()

    def _check(self) -> None:
        """Validate the fields (subclasses); raise ``KripkeError``."""

    def _seal(self) -> None:
        # hash and depth from the children's: O(1) per node, so any depth works
        kids = self.children()
        n = len(kids)
        hs: object
        try:
            if n == 0:
                d, hs = 1, None
            elif n == 1:
                c = kids[0]
                d, hs = c._d + 1, c._h
            elif n == 2:
                a, b = kids
                d, hs = max(a._d, b._d) + 1, (a._h, b._h)
            else:
                d, hs = max(c._d for c in kids) + 1, tuple(c._h for c in kids)
        except AttributeError:  # a child was copied or unpickled: seal its tree first
            for c in kids:
                _reseal(c)
            self._seal()
            return
        object.__setattr__(self, "_h", hash((type(self).__name__, self._fields(), n, hs)))
        object.__setattr__(self, "_d", d)

    # -- structure ---------------------------------------------------------
    @abstractmethod
    def children(self) -> tuple[Formula, ...]:
        """Direct subformulas."""

    def subformulas(self) -> Iterator[Formula]:
        """Every subformula, children before parents, each once."""
        seen: set[Formula] = set()
        stack: list[tuple[Formula, bool]] = [(self, False)]
        while stack:
            f, done = stack.pop()
            if done:
                if f not in seen:
                    seen.add(f)
                    yield f
                continue
            if f in seen:
                continue
            stack.append((f, True))
            for c in reversed(f.children()):
                stack.append((c, False))

    def atoms(self) -> set[Atom]:
        """Every atom occurring in the formula (action models' formulas included)."""
        out: set[Atom] = set()
        for f in self.subformulas():
            if isinstance(f, Atom):
                out.add(f)
        return out

    def agents(self) -> set[str]:
        """Every agent named by a modal operator."""
        out: set[str] = set()
        for f in self.subformulas():
            if isinstance(f, Know | Possible | KnowWhether):
                out.add(f.agent)
            elif isinstance(f, Everybody | Common | Distributed):
                out.update(f.group)
        return out

    def modal_depth(self) -> int:
        """Nesting depth of knowledge operators (announcements count their argument)."""
        depth: dict[Formula, int] = {}
        for f in self.subformulas():
            inner = max((depth[c] for c in f.children()), default=0)
            if isinstance(f, Know | Possible | KnowWhether | Everybody | Common | Distributed):
                inner += 1
            depth[f] = inner
        return depth[self]

    def depth(self) -> int:
        """Nesting depth of the formula tree (an atom has depth 1).

        >>> from kripke.parser import parse
        >>> parse("~~p & q").depth()
        4
        """
        try:
            return self._d
        except AttributeError:
            _reseal(self)
            return self._d

    def size(self) -> int:
        """Number of nodes of the formula tree."""
        total = 0
        stack: list[Formula] = [self]
        while stack:
            f = stack.pop()
            total += 1
            stack.extend(f.children())
        return total

    def is_propositional(self) -> bool:
        """Whether the formula has no modal or dynamic operator."""
        return all(
            isinstance(f, Top | Bottom | Atom | Not | And | Or | Implies | Iff)
            for f in self.subformulas()
        )

    # -- rendering (iterative: any depth) ----------------------------------
    @abstractmethod
    def _prec(self) -> int: ...

    @abstractmethod
    def _text_parts(self) -> list[_Part]:
        """The text syntax: strings and ``(child, min_prec)`` slots, in order."""

    @abstractmethod
    def _latex_parts(self) -> list[_Part]:
        """The LaTeX rendering, in the same form as :meth:`_text_parts`."""

    @abstractmethod
    def _repr_parts(self) -> list[_Part]:
        """The code rendering, in the same form as :meth:`_text_parts`."""

    def _text(self) -> str:
        return _render(self, "_text_parts")

    def _latex(self) -> str:
        return _render(self, "_latex_parts")

    def __str__(self) -> str:
        return _render(self, "_text_parts")

    def __repr__(self) -> str:
        return _render(self, "_repr_parts")

    def to_latex(self) -> str:
        """LaTeX source of the formula (without dollar signs)."""
        return _render(self, "_latex_parts")

    def _repr_latex_(self) -> str:
        return f"${self.to_latex()}$"

    def simplify(self) -> Formula:
        """An equivalent, usually smaller formula (propositional parts through sympy).

        Modal subformulas are simplified inside and treated as opaque letters
        outside.  The result is equivalent on every model.
        """
        from kripke._simplify import simplify_formula

        return simplify_formula(self)


#: a piece of a rendering: literal text, or a child with the precedence it needs
_Part = str | tuple[Formula, int]
#: min_prec of a child that is never parenthesised (``repr``)
_NO_PARENS = 0


#: formulas at most this deep compare with (bounded) recursion, deeper ones with a stack
_SHALLOW = 100


def _cached_hash(f: Formula) -> int | None:
    try:
        return f._h
    except AttributeError:
        return None


def _reseal(root: Formula) -> None:
    """Set hash and depth on every node of a copied or unpickled formula, children first."""
    stack: list[Formula] = [root]
    while stack:
        f = stack[-1]
        if _cached_hash(f) is not None:
            stack.pop()
            continue
        todo = [c for c in f.children() if _cached_hash(c) is None]
        if todo:
            stack.extend(todo)
            continue
        stack.pop()
        f._seal()


def _render(root: Formula, method: str) -> str:
    """Render ``root`` with ``method`` (``_text_parts`` …) without recursion."""
    done: dict[int, str] = {}
    stack: list[Formula] = [root]
    while stack:
        f = stack[-1]
        if id(f) in done:
            stack.pop()
            continue
        parts: list[_Part] = getattr(f, method)()
        todo = [p[0] for p in parts if not isinstance(p, str) and id(p[0]) not in done]
        if todo:
            stack.extend(todo)
            continue
        stack.pop()
        pieces = []
        for p in parts:
            if isinstance(p, str):
                pieces.append(p)
            else:
                child, min_prec = p
                s = done[id(child)]
                pieces.append(f"({s})" if child._prec() < min_prec else s)
        done[id(f)] = "".join(pieces)
    return done[id(root)]


def _leaf_children(self: Formula) -> tuple[Formula, ...]:
    return ()


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Top(Formula):
    """The constant true, ``top`` or ``⊤``."""

    children = _leaf_children

    def _prec(self) -> int:
        return _P_UNARY

    def _text_parts(self) -> list[_Part]:
        return ["top"]

    def _latex_parts(self) -> list[_Part]:
        return [r"\top"]

    def _repr_parts(self) -> list[_Part]:
        return ["Top()"]


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Bottom(Formula):
    """The constant false, ``bot`` or ``⊥``."""

    children = _leaf_children

    def _prec(self) -> int:
        return _P_UNARY

    def _text_parts(self) -> list[_Part]:
        return ["bot"]

    def _latex_parts(self) -> list[_Part]:
        return [r"\bot"]

    def _repr_parts(self) -> list[_Part]:
        return ["Bottom()"]


TOP = Top()
BOT = Bottom()


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Atom(Formula):
    """A propositional atom, optionally with arguments: ``p``, ``m1``, ``has(p2, QS)``.

    Parameters
    ----------
    name : str
        An identifier.
    args : tuple of str
        Argument tokens (identifiers, numbers or card names such as ``10H``).
    """

    name: str
    args: tuple[str, ...] = ()

    def _check(self) -> None:
        if not isinstance(self.name, str) or not _IDENT_RE.match(self.name):
            raise KripkeError(f"atom name must be an identifier, got {self.name!r}")
        if _reserved_ident(self.name):
            raise KripkeError(f"{self.name!r} is reserved and cannot name an atom")
        if not isinstance(self.args, tuple) and (
            isinstance(self.args, str) or not isinstance(self.args, Iterable)
        ):
            raise KripkeError(f"atom arguments of {self.name} must be a tuple, got {self.args!r}")
        args = tuple(str(a) for a in self.args)
        for a in args:
            if not _ARG_RE.match(a):
                raise KripkeError(
                    f"atom argument {a!r} of {self.name} is not a name, number or card"
                )
        object.__setattr__(self, "args", args)

    children = _leaf_children

    def _fields(self) -> tuple[Any, ...]:
        return (self.name, self.args)

    @property
    def key(self) -> str:
        """Canonical text of the atom, used as the key of valuations."""
        if not self.args:
            return self.name
        return f"{self.name}({', '.join(self.args)})"

    def _prec(self) -> int:
        return _P_UNARY

    def _text_parts(self) -> list[_Part]:
        return [self.key]

    def _latex_parts(self) -> list[_Part]:
        name = _latex_ident(self.name)
        if not self.args:
            return [name]
        args = ", ".join(_latex_arg(a) for a in self.args)
        if len(self.name) > 1:
            return [f"\\mathit{{{self.name}}}({args})"]
        return [f"{name}({args})"]

    def _repr_parts(self) -> list[_Part]:
        if self.args:
            return [f"Atom({self.name!r}, {self.args!r})"]
        return [f"Atom({self.name!r})"]


def _reserved_ident(name: str) -> bool:
    return name in ("top", "bot") or bool(re.match(r"^(K|M|Kw|E|C|D)_", name))


def _latex_ident(name: str) -> str:
    m = re.match(r"^([^\W\d_]+)(\d+)$", name)
    if m:
        return f"{m.group(1)}_{{{m.group(2)}}}"
    if len(name) == 1:
        return name
    escaped = name.replace("_", "\\_")
    return "\\mathit{" + escaped + "}"


def _latex_arg(a: str) -> str:
    return "\\mathrm{" + a.replace("#", r"\#").replace("_", r"\_") + "}"


def _check_formula(kind: str, f: object) -> None:
    if not isinstance(f, Formula):
        raise KripkeError(f"{kind} argument {f!r} is not a Formula")


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Not(Formula):
    """Negation ``~f``."""

    arg: Formula

    def _check(self) -> None:
        _check_formula("Not", self.arg)

    def children(self) -> tuple[Formula, ...]:
        return (self.arg,)

    def _prec(self) -> int:
        return _P_UNARY

    def _text_parts(self) -> list[_Part]:
        return ["~", (self.arg, _P_UNARY)]

    def _latex_parts(self) -> list[_Part]:
        return [r"\neg ", (self.arg, _P_UNARY)]

    def _repr_parts(self) -> list[_Part]:
        return ["Not(", (self.arg, _NO_PARENS), ")"]


def _check_args(kind: str, args: tuple[Formula, ...]) -> tuple[Formula, ...]:
    if not isinstance(args, tuple):
        if isinstance(args, Formula) or not isinstance(args, Iterable):
            raise KripkeError(f"{kind} takes a tuple of formulas, got {args!r}")
        args = tuple(args)
    if len(args) < 2:
        raise KripkeError(f"{kind} needs at least two arguments; use conj()/disj() for fewer")
    for a in args:
        _check_formula(kind, a)
    return args


def _joined(args: tuple[Formula, ...], sep: str, min_prec: int) -> list[_Part]:
    out: list[_Part] = []
    for i, a in enumerate(args):
        if i:
            out.append(sep)
        out.append((a, min_prec))
    return out


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class And(Formula):
    """Conjunction of two or more formulas, ``p & q & r``."""

    args: tuple[Formula, ...]

    def _check(self) -> None:
        object.__setattr__(self, "args", _check_args("And", self.args))

    def children(self) -> tuple[Formula, ...]:
        return self.args

    def _prec(self) -> int:
        return _P_AND

    def _text_parts(self) -> list[_Part]:
        return _joined(self.args, " & ", _P_AND + 1)

    def _latex_parts(self) -> list[_Part]:
        return _joined(self.args, r" \land ", _P_AND + 1)

    def _repr_parts(self) -> list[_Part]:
        return ["And((", *_joined(self.args, ", ", _NO_PARENS), "))"]


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Or(Formula):
    """Disjunction of two or more formulas, ``p | q | r``."""

    args: tuple[Formula, ...]

    def _check(self) -> None:
        object.__setattr__(self, "args", _check_args("Or", self.args))

    def children(self) -> tuple[Formula, ...]:
        return self.args

    def _prec(self) -> int:
        return _P_OR

    def _text_parts(self) -> list[_Part]:
        return _joined(self.args, " | ", _P_OR + 1)

    def _latex_parts(self) -> list[_Part]:
        return _joined(self.args, r" \lor ", _P_OR + 1)

    def _repr_parts(self) -> list[_Part]:
        return ["Or((", *_joined(self.args, ", ", _NO_PARENS), "))"]


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Implies(Formula):
    """Implication ``p -> q`` (right-associative)."""

    left: Formula
    right: Formula

    def _check(self) -> None:
        _check_formula("Implies", self.left)
        _check_formula("Implies", self.right)

    def children(self) -> tuple[Formula, ...]:
        return (self.left, self.right)

    def _prec(self) -> int:
        return _P_IMP

    def _text_parts(self) -> list[_Part]:
        return [(self.left, _P_IMP + 1), " -> ", (self.right, _P_IMP)]

    def _latex_parts(self) -> list[_Part]:
        return [(self.left, _P_IMP + 1), " \\rightarrow ", (self.right, _P_IMP)]

    def _repr_parts(self) -> list[_Part]:
        return ["Implies(", (self.left, _NO_PARENS), ", ", (self.right, _NO_PARENS), ")"]


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Iff(Formula):
    """Equivalence ``p <-> q`` (left-associative)."""

    left: Formula
    right: Formula

    def _check(self) -> None:
        _check_formula("Iff", self.left)
        _check_formula("Iff", self.right)

    def children(self) -> tuple[Formula, ...]:
        return (self.left, self.right)

    def _prec(self) -> int:
        return _P_IFF

    def _text_parts(self) -> list[_Part]:
        return [(self.left, _P_IFF), " <-> ", (self.right, _P_IFF + 1)]

    def _latex_parts(self) -> list[_Part]:
        return [(self.left, _P_IFF), " \\leftrightarrow ", (self.right, _P_IFF + 1)]

    def _repr_parts(self) -> list[_Part]:
        return ["Iff(", (self.left, _NO_PARENS), ", ", (self.right, _NO_PARENS), ")"]


class _AgentModal(Formula):
    __slots__ = ()
    _op: str = ""
    _tex: str = ""
    agent: str
    arg: Formula

    def _check(self) -> None:
        object.__setattr__(self, "agent", check_agent_name(self.agent))
        _check_formula(type(self).__name__, self.arg)

    def children(self) -> tuple[Formula, ...]:
        return (self.arg,)

    def _fields(self) -> tuple[Any, ...]:
        return (self.agent,)

    def _prec(self) -> int:
        return _P_UNARY

    def _text_parts(self) -> list[_Part]:
        return [f"{self._op}_{self.agent} ", (self.arg, _P_UNARY)]

    def _latex_parts(self) -> list[_Part]:
        return [f"{self._tex}_{{{_latex_agent(self.agent)}}} ", (self.arg, _P_UNARY)]

    def _repr_parts(self) -> list[_Part]:
        return [f"{type(self).__name__}({self.agent!r}, ", (self.arg, _NO_PARENS), ")"]


def _latex_agent(a: str) -> str:
    if len(a) == 1 or a.isdigit():
        return a
    return "\\mathit{" + a.replace("_", "\\_") + "}"


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Know(_AgentModal):
    """``K_a f``: agent *a* knows *f* (true in every world *a* considers possible)."""

    agent: str
    arg: Formula
    _op = "K"
    _tex = "K"


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Possible(_AgentModal):
    """``M_a f``: agent *a* considers *f* possible (the dual of ``K_a``)."""

    agent: str
    arg: Formula
    _op = "M"
    _tex = r"\hat{K}"


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class KnowWhether(_AgentModal):
    """``Kw_a f``: agent *a* knows whether *f* (``K_a f | K_a ~f``)."""

    agent: str
    arg: Formula
    _op = "Kw"
    _tex = r"\mathit{Kw}"


class _GroupModal(Formula):
    __slots__ = ()
    _op: str = ""
    group: tuple[str, ...]
    arg: Formula

    def _check(self) -> None:
        object.__setattr__(self, "group", _group(self.group))
        _check_formula(type(self).__name__, self.arg)

    def children(self) -> tuple[Formula, ...]:
        return (self.arg,)

    def _fields(self) -> tuple[Any, ...]:
        return (self.group,)

    def _prec(self) -> int:
        return _P_UNARY

    def _text_parts(self) -> list[_Part]:
        return [f"{self._op}_{{{','.join(self.group)}}} ", (self.arg, _P_UNARY)]

    def _latex_parts(self) -> list[_Part]:
        grp = ",".join(_latex_agent(a) for a in self.group)
        return [f"{self._op}_{{\\{{{grp}\\}}}} ", (self.arg, _P_UNARY)]

    def _repr_parts(self) -> list[_Part]:
        return [f"{type(self).__name__}({self.group!r}, ", (self.arg, _NO_PARENS), ")"]


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Everybody(_GroupModal):
    """``E_G f``: everybody in *G* knows *f*."""

    group: tuple[str, ...]
    arg: Formula
    _op = "E"


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Common(_GroupModal):
    """``C_G f``: *f* is common knowledge in *G* (every finite ``E_G`` chain)."""

    group: tuple[str, ...]
    arg: Formula
    _op = "C"


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Distributed(_GroupModal):
    """``D_G f``: *f* is distributed knowledge in *G* (intersection of relations)."""

    group: tuple[str, ...]
    arg: Formula
    _op = "D"


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Announce(Formula):
    """``[!f] g``: after every truthful public announcement of *f*, *g* holds."""

    announcement: Formula
    arg: Formula

    def _check(self) -> None:
        _check_formula("Announce", self.announcement)
        _check_formula("Announce", self.arg)

    def children(self) -> tuple[Formula, ...]:
        return (self.announcement, self.arg)

    def _prec(self) -> int:
        return _P_UNARY

    def _text_parts(self) -> list[_Part]:
        return ["[!", (self.announcement, _NO_PARENS), "] ", (self.arg, _P_UNARY)]

    def _latex_parts(self) -> list[_Part]:
        return ["[!", (self.announcement, _NO_PARENS), "] ", (self.arg, _P_UNARY)]

    def _repr_parts(self) -> list[_Part]:
        return ["Announce(", (self.announcement, _NO_PARENS), ", ", (self.arg, _NO_PARENS), ")"]


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class AnnounceDiamond(Formula):
    """``<!f> g``: *f* is true and after announcing it *g* holds."""

    announcement: Formula
    arg: Formula

    def _check(self) -> None:
        _check_formula("AnnounceDiamond", self.announcement)
        _check_formula("AnnounceDiamond", self.arg)

    def children(self) -> tuple[Formula, ...]:
        return (self.announcement, self.arg)

    def _prec(self) -> int:
        return _P_UNARY

    def _text_parts(self) -> list[_Part]:
        return ["<!", (self.announcement, _NO_PARENS), "> ", (self.arg, _P_UNARY)]

    def _latex_parts(self) -> list[_Part]:
        return ["\\langle !", (self.announcement, _NO_PARENS), "\\rangle ", (self.arg, _P_UNARY)]

    def _repr_parts(self) -> list[_Part]:
        return [
            "AnnounceDiamond(",
            (self.announcement, _NO_PARENS),
            ", ",
            (self.arg, _NO_PARENS),
            ")",
        ]


def _check_events(model: Any, events: object) -> tuple[str, ...]:
    if not isinstance(model, ActionLike):
        raise KripkeError(f"{model!r} is not an action model")
    if isinstance(events, str | int):
        raw: tuple[object, ...] = (events,)
    elif isinstance(events, Iterable):
        raw = tuple(events)
    else:
        raise KripkeError(f"events must be an event name or a tuple of names, got {events!r}")
    evs = tuple(str(e) for e in raw)
    if not evs:
        raise KripkeError("an action modality needs at least one event")
    known = set(model.event_names())
    for e in evs:
        if e not in known:
            raise KripkeError(
                f"action model {model.name!r} has no event {e!r}; its events: {sorted(known)}"
            )
    return evs


def _action_text(model: Any, events: tuple[str, ...]) -> str:
    ev = events[0] if len(events) == 1 else "{" + ",".join(events) + "}"
    return f"{model.name},{ev}"


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Action(Formula):
    """``[A,e] f``: after every execution of event *e* of action model *A*, *f* holds.

    ``events`` may name several events (a multi-pointed action model):
    ``[A,{e,f}] g``.
    """

    model: Any
    events: tuple[str, ...]
    arg: Formula

    def _check(self) -> None:
        object.__setattr__(self, "events", _check_events(self.model, self.events))
        _check_formula("Action", self.arg)

    def children(self) -> tuple[Formula, ...]:
        return (self.arg,)

    def _fields(self) -> tuple[Any, ...]:
        return (self.model, self.events)

    def _prec(self) -> int:
        return _P_UNARY

    def _text_parts(self) -> list[_Part]:
        return [f"[{_action_text(self.model, self.events)}] ", (self.arg, _P_UNARY)]

    def _latex_parts(self) -> list[_Part]:
        head = f"[{_latex_ident(self.model.name)},{','.join(self.events)}] "
        return [head, (self.arg, _P_UNARY)]

    def _repr_parts(self) -> list[_Part]:
        return [f"Action({self.model!r}, {self.events!r}, ", (self.arg, _NO_PARENS), ")"]


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class ActionDiamond(Formula):
    """``<A,e> f``: event *e* of *A* can happen and afterwards *f* holds."""

    model: Any
    events: tuple[str, ...]
    arg: Formula

    def _check(self) -> None:
        object.__setattr__(self, "events", _check_events(self.model, self.events))
        _check_formula("ActionDiamond", self.arg)

    def children(self) -> tuple[Formula, ...]:
        return (self.arg,)

    def _fields(self) -> tuple[Any, ...]:
        return (self.model, self.events)

    def _prec(self) -> int:
        return _P_UNARY

    def _text_parts(self) -> list[_Part]:
        return [f"<{_action_text(self.model, self.events)}> ", (self.arg, _P_UNARY)]

    def _latex_parts(self) -> list[_Part]:
        head = f"\\langle {_latex_ident(self.model.name)},{','.join(self.events)}\\rangle "
        return [head, (self.arg, _P_UNARY)]

    def _repr_parts(self) -> list[_Part]:
        return [f"ActionDiamond({self.model!r}, {self.events!r}, ", (self.arg, _NO_PARENS), ")"]


# ---------------------------------------------------------------- helpers
def as_formula(x: Formula | str) -> Formula:
    """Return ``x`` if it is a formula; parse it if it is text."""
    if isinstance(x, Formula):
        return x
    if isinstance(x, str):
        from kripke.parser import parse

        return parse(x)
    raise KripkeError(f"expected a Formula or formula text, got {x!r}")


def atom(name: str, *args: object) -> Atom:
    """An atom: ``atom("p")``, ``atom("has", "p2", "QS")``."""
    return Atom(name, tuple(str(a) for a in args))


def atoms(names: str) -> tuple[Atom, ...]:
    """Several atoms from a space-separated string: ``p, q = atoms("p q")``."""
    return tuple(Atom(n) for n in names.split())


def K(agent: object, f: Formula | str) -> Know:
    """``K_agent f``."""
    return Know(agent, as_formula(f))  # type: ignore[arg-type]


def M(agent: object, f: Formula | str) -> Possible:
    """``M_agent f``."""
    return Possible(agent, as_formula(f))  # type: ignore[arg-type]


def Kw(agent: object, f: Formula | str) -> KnowWhether:
    """``Kw_agent f``."""
    return KnowWhether(agent, as_formula(f))  # type: ignore[arg-type]


def E(group: Iterable[object] | str | int, f: Formula | str) -> Everybody:
    """``E_G f``."""
    return Everybody(_group(group), as_formula(f))


def C(group: Iterable[object] | str | int, f: Formula | str) -> Common:
    """``C_G f``."""
    return Common(_group(group), as_formula(f))


def D(group: Iterable[object] | str | int, f: Formula | str) -> Distributed:
    """``D_G f``."""
    return Distributed(_group(group), as_formula(f))


def conj(fs: Iterable[Formula]) -> Formula:
    """Conjunction of any number of formulas (``top`` for none, the formula itself for one)."""
    items = tuple(fs)
    if not items:
        return TOP
    if len(items) == 1:
        return items[0]
    return And(items)


def disj(fs: Iterable[Formula]) -> Formula:
    """Disjunction of any number of formulas (``bot`` for none, the formula itself for one)."""
    items = tuple(fs)
    if not items:
        return BOT
    if len(items) == 1:
        return items[0]
    return Or(items)


def _key_getter(cls: type) -> Any:
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    if not names:
        return lambda f: ()
    return attrgetter(*names)


#: each connective's fields as one value (a tuple for several), for fast equality
_KEYS: dict[type, Any] = {
    cls: _key_getter(cls)
    for cls in (Top, Bottom, Atom, Not, And, Or, Implies, Iff, Know, Possible, KnowWhether,
                Everybody, Common, Distributed, Announce, AnnounceDiamond, Action, ActionDiamond)
}  # fmt: skip
