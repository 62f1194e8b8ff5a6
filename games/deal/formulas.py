"""Formulas over card atoms: evaluation, restriction, and the card atom ``has(location, card)``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["card_atom", "evaluate", "connective_value"]


def card_atom(location: str, card: str) -> Any:
    """The atom ``has(location, card)`` of the formula language.

    Examples
    --------
    >>> print(card_atom("p2", "QS"))
    has(p2, QS)
    """
    from kripke.formulas import Atom

    return Atom("has", (location, card))


def _as_prop(formula: Any) -> Any:
    from kripke.errors import KripkeError
    from kripke.formulas import Formula
    from kripke.parser import parse

    f = parse(formula) if isinstance(formula, str) else formula
    if not isinstance(f, Formula):
        raise KripkeError(f"expected a formula, got {formula!r}")
    if not f.is_propositional():
        raise KripkeError(
            f"{f} has knowledge operators; deal knowledge answers propositional formulas "
            "over has(location, card) (use DealState.kripke_model() for nested knowledge)"
        )
    return f


def _restrict(f: Any, key: str, value: bool) -> Any:
    from kripke.formulas import BOT, TOP, And, Atom, Bottom, Iff, Implies, Not, Or, Top

    match f:
        case Top() | Bottom():
            return f
        case Atom():
            if f.key == key:
                return TOP if value else BOT
            return f
        case Not(a):
            x = _restrict(a, key, value)
            if x is TOP:
                return BOT
            if x is BOT:
                return TOP
            return Not(x)
        case And(args):
            parts = []
            for a in args:
                x = _restrict(a, key, value)
                if x is BOT:
                    return BOT
                if x is not TOP:
                    parts.append(x)
            if not parts:
                return TOP
            return parts[0] if len(parts) == 1 else And(tuple(parts))
        case Or(args):
            parts = []
            for a in args:
                x = _restrict(a, key, value)
                if x is TOP:
                    return TOP
                if x is not BOT:
                    parts.append(x)
            if not parts:
                return BOT
            return parts[0] if len(parts) == 1 else Or(tuple(parts))
        case Implies(a, b):
            return _restrict(Or((Not(a), b)), key, value)
        case Iff(a, b):
            return _restrict(Or((And((a, b)), And((Not(a), Not(b))))), key, value)
        case _:
            raise TypeError(f"not a propositional formula: {f!r}")


def _shannon(
    f: Any,
    cell_of: Callable[[Any], tuple[int, int]],
    weight: Callable[[dict[tuple[int, int], bool]], Any],
    stop_at_hit: bool = False,
) -> Any:
    """Total weight of the deals satisfying ``f``, by splitting on its atoms."""
    from kripke.formulas import BOT, TOP, Atom

    atoms = sorted(f.atoms(), key=lambda a: a.key)
    cells = {a.key: cell_of(a) for a in atoms if isinstance(a, Atom)}

    def rec(g: Any, fixed: dict[tuple[int, int], bool]) -> Any:
        if g is BOT:
            return 0
        if g is TOP:
            return weight(fixed)
        if not weight(fixed):
            return 0
        if not g.atoms():  # a constant not written as one, e.g. ~top or top & top
            return weight(fixed) if evaluate(g, bool) else 0
        a = min(g.atoms(), key=lambda x: x.key)
        cell = cells[a.key]
        total: Any = 0
        for val in (True, False):
            if cell in fixed and fixed[cell] != val:
                continue
            sub = rec(_restrict(g, a.key, val), {**fixed, cell: val})
            total += sub
            if stop_at_hit and total:
                return total
        return total

    return rec(f if f is not TOP else TOP, {})


def evaluate(f: Any, value: Callable[[Any], Any]) -> bool:
    """Truth of a propositional formula, ``value(atom)`` giving each atom's truth.

    Raises
    ------
    TypeError
        If ``f`` has a modal or dynamic operator.

    Examples
    --------
    >>> from kripke import parse
    >>> evaluate(parse("p & ~q -> r"), lambda atom: atom.name == "p")
    False
    """
    out = connective_value(f, value, lambda g: evaluate(g, value))
    if out is None:
        raise TypeError(f"not a propositional formula: {f!r}")
    return out


def connective_value(
    f: Any, value: Callable[[Any], Any], sub: Callable[[Any], bool]
) -> bool | None:
    """Truth of ``f`` when it is an atom (``value(atom)``), a constant or a Boolean
    connective of subformulas whose truth ``sub`` gives; ``None`` for any other
    operator (knowledge, announcements), which the caller evaluates.

    Examples
    --------
    >>> from kripke import parse
    >>> connective_value(parse("p | K_a q"), lambda atom: atom.name == "p", bool)
    True
    >>> connective_value(parse("K_a q"), bool, bool) is None
    True
    """
    from kripke.formulas import And, Atom, Bottom, Iff, Implies, Not, Or, Top

    match f:
        case Top():
            return True
        case Bottom():
            return False
        case Atom():
            return bool(value(f))
        case Not(a):
            return not sub(a)
        case And(args):
            return all(sub(a) for a in args)
        case Or(args):
            return any(sub(a) for a in args)
        case Implies(a, b):
            return (not sub(a)) or sub(b)
        case Iff(a, b):
            return sub(a) == sub(b)
    return None


def _eval_prop(f: Any, has: Callable[[str, str], bool]) -> bool:
    """Truth of a propositional formula over card atoms ``has(location, card)``."""
    from kripke.errors import UnknownAtomError

    def value(atom: Any) -> bool:
        if atom.name != "has" or len(atom.args) != 2:
            raise UnknownAtomError(f"{atom.key} is not a card atom")
        return has(atom.args[0], atom.args[1])

    return evaluate(f, value)
