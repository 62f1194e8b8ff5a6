"""Propositional simplification of formulas through sympy.

Maximal non-propositional subformulas (knowledge, announcements, actions) are
simplified recursively and then stand as opaque letters while sympy's
``simplify_logic`` rewrites the propositional skeleton around them.
"""

from __future__ import annotations

from typing import Any

import sympy
from sympy.logic import boolalg

from kripke.formulas import (
    BOT,
    TOP,
    Action,
    ActionDiamond,
    And,
    Announce,
    AnnounceDiamond,
    Atom,
    Bottom,
    Common,
    Distributed,
    Everybody,
    Formula,
    Iff,
    Implies,
    Know,
    KnowWhether,
    Not,
    Or,
    Possible,
    Top,
    conj,
    disj,
)

__all__ = ["simplify_formula", "to_sympy", "from_sympy"]


def to_sympy(f: Formula, table: dict[Formula, sympy.Symbol] | None = None) -> Any:
    """Translate the propositional skeleton of ``f`` to a sympy Boolean.

    ``table`` collects the letter chosen for every atom or opaque modal subformula.
    """
    if table is None:
        table = {}

    def letter(g: Formula) -> sympy.Symbol:
        if g not in table:
            table[g] = sympy.Symbol(f"x{len(table)}")
        return table[g]

    def go(g: Formula) -> Any:
        match g:
            case Top():
                return sympy.true
            case Bottom():
                return sympy.false
            case Atom():
                return letter(g)
            case Not(arg):
                return sympy.Not(go(arg))
            case And(args):
                return sympy.And(*(go(a) for a in args))
            case Or(args):
                return sympy.Or(*(go(a) for a in args))
            case Implies(left, right):
                return sympy.Implies(go(left), go(right))
            case Iff(left, right):
                return sympy.Equivalent(go(left), go(right))
            case _:
                return letter(g)

    return go(f)


def from_sympy(expr: Any, table: dict[Formula, sympy.Symbol]) -> Formula:
    """Translate a sympy Boolean back, using ``table`` from :func:`to_sympy`."""
    back = {s: f for f, s in table.items()}

    def go(e: Any) -> Formula:
        if e is sympy.true or e == sympy.true:
            return TOP
        if e is sympy.false or e == sympy.false:
            return BOT
        if isinstance(e, sympy.Symbol):
            return back[e]
        if isinstance(e, boolalg.Not):
            return Not(go(e.args[0]))
        if isinstance(e, boolalg.And):
            return conj(go(a) for a in sorted(e.args, key=str))
        if isinstance(e, boolalg.Or):
            return disj(go(a) for a in sorted(e.args, key=str))
        if isinstance(e, boolalg.Implies):
            return Implies(go(e.args[0]), go(e.args[1]))
        if isinstance(e, boolalg.Equivalent):
            args = [go(a) for a in e.args]
            equiv: Formula = Iff(args[0], args[1])
            for a in args[2:]:
                equiv = And((equiv, Iff(args[0], a)))
            return equiv
        if isinstance(e, boolalg.Xor):
            args = [go(a) for a in e.args]
            parity: Formula = Not(Iff(args[0], args[1]))
            for a in args[2:]:
                parity = Not(Iff(parity, a))
            return parity
        raise TypeError(f"cannot translate sympy expression {e!r}")

    return go(expr)


def _inner(f: Formula) -> Formula:
    """Simplify inside modal operators, keep the operator."""
    match f:
        case Know(a, arg):
            return Know(a, simplify_formula(arg))
        case Possible(a, arg):
            return Possible(a, simplify_formula(arg))
        case KnowWhether(a, arg):
            return KnowWhether(a, simplify_formula(arg))
        case Everybody(g, arg):
            return Everybody(g, simplify_formula(arg))
        case Common(g, arg):
            return Common(g, simplify_formula(arg))
        case Distributed(g, arg):
            return Distributed(g, simplify_formula(arg))
        case Announce(ann, arg):
            return Announce(simplify_formula(ann), simplify_formula(arg))
        case AnnounceDiamond(ann, arg):
            return AnnounceDiamond(simplify_formula(ann), simplify_formula(arg))
        case Action(m, evs, arg):
            return Action(m, evs, simplify_formula(arg))
        case ActionDiamond(m, evs, arg):
            return ActionDiamond(m, evs, simplify_formula(arg))
        case _:
            return f


def simplify_formula(f: Formula) -> Formula:
    """An equivalent formula with a simplified propositional skeleton."""
    table: dict[Formula, sympy.Symbol] = {}
    expr = to_sympy(f, table)
    table = {(_inner(g) if not isinstance(g, Atom) else g): s for g, s in table.items()}
    simple = boolalg.simplify_logic(expr, force=len(table) <= 12)
    out = from_sympy(simple, table)
    return out if out.size() <= f.size() else f
