"""Boolean building blocks: propositional formulas and counting constraints as BDDs.

State laws of card deals are conjunctions of counting constraints ("card *c*
is in exactly one place", "player *p* holds exactly 13 cards"); building them
directly as BDDs by dynamic programming is much faster than writing them as
formulas.

Examples
--------
>>> from kripke.symbolic.boolean import exactly, bdd_of
>>> from kripke.symbolic._bdd import manager
>>> u = exactly(2, ["p", "q", "r"])
>>> manager().count(u, ["p", "q", "r"])
3
>>> manager().count(bdd_of("p -> q"), ["p", "q"])
3
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from kripke.errors import EngineError, UnknownAtomError
from kripke.formulas import (
    And,
    Atom,
    Bottom,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Top,
    as_formula,
)
from kripke.models import atom_key
from kripke.symbolic._bdd import BDD, Manager, manager

__all__ = [
    "bdd_of",
    "variable",
    "primed",
    "at_least",
    "at_most",
    "exactly",
    "between",
    "count_between",
    "key_of",
]

_KEYS: dict[str, str] = {}
# the canonical text of an atom, as Atom.key writes it: name or name(arg, arg, ...)
_CANONICAL = re.compile(r"^[^\W\d]\w*(\([\w#♠♥♦♣]+[+-]?(, [\w#♠♥♦♣]+[+-]?)*\))?$")
_RESERVED = re.compile(r"^(top|bot)$|^(K|M|Kw|E|C|D)_")


def key_of(a: Atom | str) -> str:
    """The canonical text of an atom given as :class:`Atom` or text (cached)."""
    if isinstance(a, Atom):
        return a.key
    if isinstance(a, str):
        hit = _KEYS.get(a)
        if hit is None:
            if _CANONICAL.match(a) and not _RESERVED.match(a):
                hit = a
            else:
                hit = atom_key(a)
            if len(_KEYS) > 100_000:
                _KEYS.clear()
            _KEYS[a] = hit
        return hit
    return atom_key(a)


def _keys(atoms: Iterable[Atom | str]) -> list[str]:
    return [key_of(a) for a in atoms]


def bool_bdd(
    mgr: Manager,
    f: Formula,
    known: frozenset[str] | set[str] | None = None,
    what: str = "law",
    defs: Mapping[str, BDD] | None = None,
) -> BDD:
    """The BDD of a propositional formula (its atoms must be declared, or in ``known``)."""
    memo: dict[int, BDD] = {}
    stack: list[tuple[Formula, bool]] = [(f, False)]
    while stack:
        g, ready = stack.pop()
        if id(g) in memo:
            continue
        kids = g.children()
        if not ready:
            stack.append((g, True))
            stack.extend((c, False) for c in kids if id(c) not in memo)
            continue
        match g:
            case Top():
                r = mgr.true
            case Bottom():
                r = mgr.false
            case Atom() if defs and g.key in defs:
                r = defs[g.key]
            case Atom():
                key = g.key
                if (known is not None and key not in known) or not mgr.is_declared(key):
                    raise UnknownAtomError(
                        f"the {what} names atom {key!r}, which is not in the vocabulary"
                    )
                r = mgr.var(key)
            case Not(arg):
                r = ~memo[id(arg)]
            case And(args):
                r = mgr.true
                for a in args:
                    r = r & memo[id(a)]
                    mgr.check()
            case Or(args):
                r = mgr.false
                for a in args:
                    r = r | memo[id(a)]
                    mgr.check()
            case Implies(left, right):
                r = ~memo[id(left)] | memo[id(right)]
            case Iff(left, right):
                r = memo[id(left)].equiv(memo[id(right)])
            case _:
                raise EngineError(
                    f"a {what} must be propositional; {type(g).__name__} has no meaning there"
                )
        memo[id(g)] = r
    return memo[id(f)]


def bdd_of(f: Formula | str, *, backend: str | None = None) -> BDD:
    """The BDD of a propositional formula; its atoms are declared as needed.

    Raises
    ------
    EngineError
        If ``f`` has a modal or dynamic operator.
    """
    f = as_formula(f)
    mgr = manager(backend)
    atoms = sorted(a.key for a in f.atoms())
    mgr.declare(atoms)
    return bool_bdd(mgr, f, what="formula")


def variable(a: Atom | str, *, backend: str | None = None) -> BDD:
    """The BDD of an atom's variable (declared if new).

    Examples
    --------
    >>> from kripke.symbolic.boolean import variable, primed
    >>> u = variable("p") & ~primed("p")  # a relation: from p-states to ~p-states
    >>> u == (variable("p") & ~primed("p"))
    True
    """
    key = key_of(a)
    mgr = manager(backend)
    mgr.declare([key])
    return mgr.var(key)


def primed(a: Atom | str, *, backend: str | None = None) -> BDD:
    """The BDD of an atom's primed copy, for the relations of belief agents."""
    key = key_of(a)
    mgr = manager(backend)
    mgr.declare([key])
    return mgr.primed(key)


def count_between(mgr: Manager, names: Sequence[str], lo: int, hi: int) -> BDD:
    """Assignments with between ``lo`` and ``hi`` of ``names`` true (dynamic programming)."""
    n = len(names)
    lo = max(lo, 0)
    hi = min(hi, n)
    if lo > hi:
        return mgr.false
    ordered = sorted(names, key=mgr.level, reverse=True)  # build from the bottom of the order up
    # row[j]: "exactly j of the variables seen so far are true" for j < cap; row[cap]: "at least cap"
    cap = hi + 1
    row = [mgr.false] * (cap + 1)
    row[0] = mgr.true
    for name in ordered:
        v = mgr.var(name)
        new = [mgr.false] * (cap + 1)
        for j in range(cap + 1):
            up = row[j - 1] if j > 0 else mgr.false
            if j == cap:
                up = up | row[cap]  # staying at "cap or more" when v is true
            new[j] = mgr.ite(v, up, row[j])
        row = new
    out = mgr.false
    for j in range(lo, hi + 1):
        out = out | row[j]
    return out


def _counting(atoms: Iterable[Atom | str], lo: int, hi: int, backend: str | None) -> BDD:
    keys = _keys(atoms)
    if len(set(keys)) != len(keys):
        raise EngineError("a counting constraint lists an atom twice")
    mgr = manager(backend)
    mgr.declare(keys)
    return count_between(mgr, keys, lo, hi)


def at_least(k: int, atoms: Iterable[Atom | str], *, backend: str | None = None) -> BDD:
    """At least ``k`` of ``atoms`` are true."""
    keys = list(atoms)
    return _counting(keys, k, len(keys), backend)


def at_most(k: int, atoms: Iterable[Atom | str], *, backend: str | None = None) -> BDD:
    """At most ``k`` of ``atoms`` are true."""
    return _counting(atoms, 0, k, backend)


def exactly(k: int, atoms: Iterable[Atom | str], *, backend: str | None = None) -> BDD:
    """Exactly ``k`` of ``atoms`` are true."""
    return _counting(atoms, k, k, backend)


def between(lo: int, hi: int, atoms: Iterable[Atom | str], *, backend: str | None = None) -> BDD:
    """Between ``lo`` and ``hi`` (inclusive) of ``atoms`` are true."""
    return _counting(atoms, lo, hi, backend)
