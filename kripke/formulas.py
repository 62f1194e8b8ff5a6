"""Formulas of dynamic epistemic logic as immutable, hashable expression trees.

One frozen dataclass per connective under the abstract :class:`Formula`.
Structural equality and hashing let formulas key memo tables; the Python
operators ``&``, ``|``, ``~`` and ``>>`` build conjunction, disjunction,
negation and implication.  Constructors never simplify: the formula a user
announces is the one they wrote (``&`` and ``|`` only extend an existing chain,
so ``p & q & r`` equals ``parse("p & q & r")``).

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
from dataclasses import dataclass
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

    __slots__ = ()

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

    def size(self) -> int:
        """Number of nodes of the formula tree."""
        return 1 + sum(c.size() for c in self.children())

    def is_propositional(self) -> bool:
        """Whether the formula has no modal or dynamic operator."""
        return all(
            isinstance(f, Top | Bottom | Atom | Not | And | Or | Implies | Iff)
            for f in self.subformulas()
        )

    # -- rendering ---------------------------------------------------------
    @abstractmethod
    def _prec(self) -> int: ...

    @abstractmethod
    def _text(self) -> str: ...

    @abstractmethod
    def _latex(self) -> str: ...

    def __str__(self) -> str:
        return self._text()

    def _wrap(self, child: Formula, min_prec: int) -> str:
        s = child._text()
        return f"({s})" if child._prec() < min_prec else s

    def _wrap_latex(self, child: Formula, min_prec: int) -> str:
        s = child._latex()
        return f"({s})" if child._prec() < min_prec else s

    def to_latex(self) -> str:
        """LaTeX source of the formula (without dollar signs)."""
        return self._latex()

    def _repr_latex_(self) -> str:
        return f"${self._latex()}$"

    def simplify(self) -> Formula:
        """An equivalent, usually smaller formula (propositional parts through sympy).

        Modal subformulas are simplified inside and treated as opaque letters
        outside.  The result is equivalent on every model.
        """
        from kripke._simplify import simplify_formula

        return simplify_formula(self)


def _leaf_children(self: Formula) -> tuple[Formula, ...]:
    return ()


@dataclass(frozen=True, slots=True, repr=False)
class Top(Formula):
    """The constant true, ``top`` or ``⊤``."""

    children = _leaf_children

    def _prec(self) -> int:
        return _P_UNARY

    def _text(self) -> str:
        return "top"

    def _latex(self) -> str:
        return r"\top"

    def __repr__(self) -> str:
        return "Top()"


@dataclass(frozen=True, slots=True, repr=False)
class Bottom(Formula):
    """The constant false, ``bot`` or ``⊥``."""

    children = _leaf_children

    def _prec(self) -> int:
        return _P_UNARY

    def _text(self) -> str:
        return "bot"

    def _latex(self) -> str:
        return r"\bot"

    def __repr__(self) -> str:
        return "Bottom()"


TOP = Top()
BOT = Bottom()


@dataclass(frozen=True, slots=True, repr=False)
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

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _IDENT_RE.match(self.name):
            raise KripkeError(f"atom name must be an identifier, got {self.name!r}")
        if _reserved_ident(self.name):
            raise KripkeError(f"{self.name!r} is reserved and cannot name an atom")
        args = tuple(str(a) for a in self.args)
        for a in args:
            if not _ARG_RE.match(a):
                raise KripkeError(
                    f"atom argument {a!r} of {self.name} is not a name, number or card"
                )
        object.__setattr__(self, "args", args)

    children = _leaf_children

    @property
    def key(self) -> str:
        """Canonical text of the atom, used as the key of valuations."""
        return self._text()

    def _prec(self) -> int:
        return _P_UNARY

    def _text(self) -> str:
        if not self.args:
            return self.name
        return f"{self.name}({', '.join(self.args)})"

    def _latex(self) -> str:
        name = _latex_ident(self.name)
        if not self.args:
            return name
        args = ", ".join(_latex_arg(a) for a in self.args)
        return f"\\mathit{{{self.name}}}({args})" if len(self.name) > 1 else f"{name}({args})"

    def __repr__(self) -> str:
        if self.args:
            return f"Atom({self.name!r}, {self.args!r})"
        return f"Atom({self.name!r})"


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


@dataclass(frozen=True, slots=True, repr=False)
class Not(Formula):
    """Negation ``~f``."""

    arg: Formula

    def children(self) -> tuple[Formula, ...]:
        return (self.arg,)

    def _prec(self) -> int:
        return _P_UNARY

    def _text(self) -> str:
        return "~" + self._wrap(self.arg, _P_UNARY)

    def _latex(self) -> str:
        return r"\neg " + self._wrap_latex(self.arg, _P_UNARY)

    def __repr__(self) -> str:
        return f"Not({self.arg!r})"


def _check_args(kind: str, args: tuple[Formula, ...]) -> tuple[Formula, ...]:
    args = tuple(args)
    if len(args) < 2:
        raise KripkeError(f"{kind} needs at least two arguments; use conj()/disj() for fewer")
    for a in args:
        if not isinstance(a, Formula):
            raise KripkeError(f"{kind} argument {a!r} is not a Formula")
    return args


@dataclass(frozen=True, slots=True, repr=False)
class And(Formula):
    """Conjunction of two or more formulas, ``p & q & r``."""

    args: tuple[Formula, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "args", _check_args("And", self.args))

    def children(self) -> tuple[Formula, ...]:
        return self.args

    def _prec(self) -> int:
        return _P_AND

    def _text(self) -> str:
        return " & ".join(self._wrap(a, _P_AND + 1) for a in self.args)

    def _latex(self) -> str:
        return r" \land ".join(self._wrap_latex(a, _P_AND + 1) for a in self.args)

    def __repr__(self) -> str:
        return f"And({self.args!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Or(Formula):
    """Disjunction of two or more formulas, ``p | q | r``."""

    args: tuple[Formula, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "args", _check_args("Or", self.args))

    def children(self) -> tuple[Formula, ...]:
        return self.args

    def _prec(self) -> int:
        return _P_OR

    def _text(self) -> str:
        return " | ".join(self._wrap(a, _P_OR + 1) for a in self.args)

    def _latex(self) -> str:
        return r" \lor ".join(self._wrap_latex(a, _P_OR + 1) for a in self.args)

    def __repr__(self) -> str:
        return f"Or({self.args!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Implies(Formula):
    """Implication ``p -> q`` (right-associative)."""

    left: Formula
    right: Formula

    def children(self) -> tuple[Formula, ...]:
        return (self.left, self.right)

    def _prec(self) -> int:
        return _P_IMP

    def _text(self) -> str:
        return f"{self._wrap(self.left, _P_IMP + 1)} -> {self._wrap(self.right, _P_IMP)}"

    def _latex(self) -> str:
        return f"{self._wrap_latex(self.left, _P_IMP + 1)} \\rightarrow {self._wrap_latex(self.right, _P_IMP)}"

    def __repr__(self) -> str:
        return f"Implies({self.left!r}, {self.right!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Iff(Formula):
    """Equivalence ``p <-> q`` (left-associative)."""

    left: Formula
    right: Formula

    def children(self) -> tuple[Formula, ...]:
        return (self.left, self.right)

    def _prec(self) -> int:
        return _P_IFF

    def _text(self) -> str:
        return f"{self._wrap(self.left, _P_IFF)} <-> {self._wrap(self.right, _P_IFF + 1)}"

    def _latex(self) -> str:
        return f"{self._wrap_latex(self.left, _P_IFF)} \\leftrightarrow {self._wrap_latex(self.right, _P_IFF + 1)}"

    def __repr__(self) -> str:
        return f"Iff({self.left!r}, {self.right!r})"


class _AgentModal(Formula):
    __slots__ = ()
    _op: str = ""
    _tex: str = ""
    agent: str
    arg: Formula

    def children(self) -> tuple[Formula, ...]:
        return (self.arg,)

    def _prec(self) -> int:
        return _P_UNARY

    def _text(self) -> str:
        return f"{self._op}_{self.agent} {self._wrap(self.arg, _P_UNARY)}"

    def _latex(self) -> str:
        return f"{self._tex}_{{{_latex_agent(self.agent)}}} {self._wrap_latex(self.arg, _P_UNARY)}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.agent!r}, {self.arg!r})"


def _latex_agent(a: str) -> str:
    if len(a) == 1 or a.isdigit():
        return a
    return "\\mathit{" + a.replace("_", "\\_") + "}"


@dataclass(frozen=True, slots=True, repr=False)
class Know(_AgentModal):
    """``K_a f``: agent *a* knows *f* (true in every world *a* considers possible)."""

    agent: str
    arg: Formula
    _op = "K"
    _tex = "K"

    def __post_init__(self) -> None:
        object.__setattr__(self, "agent", check_agent_name(self.agent))


@dataclass(frozen=True, slots=True, repr=False)
class Possible(_AgentModal):
    """``M_a f``: agent *a* considers *f* possible (the dual of ``K_a``)."""

    agent: str
    arg: Formula
    _op = "M"
    _tex = r"\hat{K}"

    def __post_init__(self) -> None:
        object.__setattr__(self, "agent", check_agent_name(self.agent))


@dataclass(frozen=True, slots=True, repr=False)
class KnowWhether(_AgentModal):
    """``Kw_a f``: agent *a* knows whether *f* (``K_a f | K_a ~f``)."""

    agent: str
    arg: Formula
    _op = "Kw"
    _tex = r"\mathit{Kw}"

    def __post_init__(self) -> None:
        object.__setattr__(self, "agent", check_agent_name(self.agent))


class _GroupModal(Formula):
    __slots__ = ()
    _op: str = ""
    group: tuple[str, ...]
    arg: Formula

    def children(self) -> tuple[Formula, ...]:
        return (self.arg,)

    def _prec(self) -> int:
        return _P_UNARY

    def _text(self) -> str:
        return f"{self._op}_{{{','.join(self.group)}}} {self._wrap(self.arg, _P_UNARY)}"

    def _latex(self) -> str:
        grp = ",".join(_latex_agent(a) for a in self.group)
        return f"{self._op}_{{\\{{{grp}\\}}}} {self._wrap_latex(self.arg, _P_UNARY)}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.group!r}, {self.arg!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Everybody(_GroupModal):
    """``E_G f``: everybody in *G* knows *f*."""

    group: tuple[str, ...]
    arg: Formula
    _op = "E"

    def __post_init__(self) -> None:
        object.__setattr__(self, "group", _group(self.group))


@dataclass(frozen=True, slots=True, repr=False)
class Common(_GroupModal):
    """``C_G f``: *f* is common knowledge in *G* (every finite ``E_G`` chain)."""

    group: tuple[str, ...]
    arg: Formula
    _op = "C"

    def __post_init__(self) -> None:
        object.__setattr__(self, "group", _group(self.group))


@dataclass(frozen=True, slots=True, repr=False)
class Distributed(_GroupModal):
    """``D_G f``: *f* is distributed knowledge in *G* (intersection of relations)."""

    group: tuple[str, ...]
    arg: Formula
    _op = "D"

    def __post_init__(self) -> None:
        object.__setattr__(self, "group", _group(self.group))


@dataclass(frozen=True, slots=True, repr=False)
class Announce(Formula):
    """``[!f] g``: after every truthful public announcement of *f*, *g* holds."""

    announcement: Formula
    arg: Formula

    def children(self) -> tuple[Formula, ...]:
        return (self.announcement, self.arg)

    def _prec(self) -> int:
        return _P_UNARY

    def _text(self) -> str:
        return f"[!{self.announcement._text()}] {self._wrap(self.arg, _P_UNARY)}"

    def _latex(self) -> str:
        return f"[!{self.announcement._latex()}] {self._wrap_latex(self.arg, _P_UNARY)}"

    def __repr__(self) -> str:
        return f"Announce({self.announcement!r}, {self.arg!r})"


@dataclass(frozen=True, slots=True, repr=False)
class AnnounceDiamond(Formula):
    """``<!f> g``: *f* is true and after announcing it *g* holds."""

    announcement: Formula
    arg: Formula

    def children(self) -> tuple[Formula, ...]:
        return (self.announcement, self.arg)

    def _prec(self) -> int:
        return _P_UNARY

    def _text(self) -> str:
        return f"<!{self.announcement._text()}> {self._wrap(self.arg, _P_UNARY)}"

    def _latex(self) -> str:
        return (
            f"\\langle !{self.announcement._latex()}\\rangle {self._wrap_latex(self.arg, _P_UNARY)}"
        )

    def __repr__(self) -> str:
        return f"AnnounceDiamond({self.announcement!r}, {self.arg!r})"


def _check_events(model: Any, events: object) -> tuple[str, ...]:
    if not isinstance(model, ActionLike):
        raise KripkeError(f"{model!r} is not an action model")
    raw = (events,) if isinstance(events, str | int) else tuple(events)  # type: ignore[arg-type]
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


@dataclass(frozen=True, slots=True, repr=False)
class Action(Formula):
    """``[A,e] f``: after every execution of event *e* of action model *A*, *f* holds.

    ``events`` may name several events (a multi-pointed action model):
    ``[A,{e,f}] g``.
    """

    model: Any
    events: tuple[str, ...]
    arg: Formula

    def __post_init__(self) -> None:
        object.__setattr__(self, "events", _check_events(self.model, self.events))

    def children(self) -> tuple[Formula, ...]:
        return (self.arg,)

    def _prec(self) -> int:
        return _P_UNARY

    def _text(self) -> str:
        return f"[{_action_text(self.model, self.events)}] {self._wrap(self.arg, _P_UNARY)}"

    def _latex(self) -> str:
        return f"[{_latex_ident(self.model.name)},{','.join(self.events)}] {self._wrap_latex(self.arg, _P_UNARY)}"

    def __repr__(self) -> str:
        return f"Action({self.model!r}, {self.events!r}, {self.arg!r})"


@dataclass(frozen=True, slots=True, repr=False)
class ActionDiamond(Formula):
    """``<A,e> f``: event *e* of *A* can happen and afterwards *f* holds."""

    model: Any
    events: tuple[str, ...]
    arg: Formula

    def __post_init__(self) -> None:
        object.__setattr__(self, "events", _check_events(self.model, self.events))

    def children(self) -> tuple[Formula, ...]:
        return (self.arg,)

    def _prec(self) -> int:
        return _P_UNARY

    def _text(self) -> str:
        return f"<{_action_text(self.model, self.events)}> {self._wrap(self.arg, _P_UNARY)}"

    def _latex(self) -> str:
        return (
            f"\\langle {_latex_ident(self.model.name)},{','.join(self.events)}\\rangle "
            f"{self._wrap_latex(self.arg, _P_UNARY)}"
        )

    def __repr__(self) -> str:
        return f"ActionDiamond({self.model!r}, {self.events!r}, {self.arg!r})"


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
