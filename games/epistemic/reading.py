"""Formulas in a game's own terms: seat numbers and aliases, card atoms checked against a history.

A formula about a game state may name a seat by its agent name (``North``,
``P1``), its number (``1``) or ``P<number>``; :func:`read_formula` parses
it, renames the seats to the history's agents and checks every card atom.
:class:`~games.epistemic.knowledge.GameKnowledge` and the card-symmetry
quotient (:mod:`games.epistemic.quotient`) read formulas this way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.epistemic.history import CardHistory
from games.errors import InvalidParameterError

__all__ = ["seat_aliases", "seat_agent", "read_formula"]


def seat_aliases(agents: tuple[str, ...]) -> dict[str, str]:
    """Other names of the agents: the seat number and ``P<number>``.

    Examples
    --------
    >>> seat_aliases(("North", "East"))
    {'0': 'North', 'P0': 'North', '1': 'East', 'P1': 'East'}
    """
    out: dict[str, str] = {}
    for i, a in enumerate(agents):
        for alias in (str(i), f"P{i}"):
            if alias not in agents:
                out[alias] = a
    return out


def _rename(f: Any, agents: Mapping[str, str]) -> Any:
    """``f`` with agent aliases and ``has`` locations renamed, ``C#1`` as ``C``."""
    from kripke.formulas import Atom

    memo: dict[int, Any] = {}

    def go(g: Any) -> Any:
        r: Any
        hit = memo.get(id(g))
        if hit is not None:
            return hit
        match g:
            case Atom(name="has", args=(loc, card)):
                if card.endswith("#1"):
                    card = card[:-2]
                r = Atom("has", (agents.get(loc, loc), card))
            case _:
                r = _map_children(g, go, lambda a: agents.get(a, a))
        memo[id(g)] = r
        return r

    return go(f)


def _map_children(
    g: Any, go: Callable[[Any], Any], agent: Callable[[str], str] | None = None
) -> Any:
    """``g`` with every direct subformula ``s`` replaced by ``go(s)`` and, with
    ``agent``, every agent name ``a`` of its operator by ``agent(a)``.

    Examples
    --------
    >>> from kripke.parser import parse
    >>> print(_map_children(parse("K_a (p & C_{a,b} q)"), lambda s: s, str.upper))
    K_A (p & C_{a,b} q)
    """
    from kripke import formulas as kf
    from kripke.reduction import _with_children

    match g:
        case kf.Know(name, arg) | kf.Possible(name, arg) | kf.KnowWhether(name, arg):
            return type(g)(name if agent is None else agent(name), go(arg))
        case kf.Everybody(group, arg) | kf.Common(group, arg) | kf.Distributed(group, arg):
            return type(g)(group if agent is None else tuple(map(agent, group)), go(arg))
        case kf.Announce(ann, arg) | kf.AnnounceDiamond(ann, arg):
            return type(g)(go(ann), go(arg))
    kids = g.children()
    return _with_children(g, [go(c) for c in kids]) if kids else g


def seat_agent(history: CardHistory, seat: Any) -> str:
    """The agent name of a seat given by number, alias or name.

    Raises
    ------
    InvalidParameterError
        Naming the seat and the agents.
    """
    if isinstance(seat, bool):
        raise InvalidParameterError(f"{seat!r} is not a seat")
    agents = history.agents
    name = str(seat)
    if name in agents:
        return name
    aliases = seat_aliases(agents)
    if name in aliases:
        return aliases[name]
    raise InvalidParameterError(
        f"unknown seat {seat!r}; seats: {', '.join(agents)} (or 0..{len(agents) - 1})"
    )


def read_formula(history: CardHistory, f: Any) -> Any:
    """``f`` parsed, with seat numbers and ``P<n>`` renamed to the agents' names.

    Raises
    ------
    kripke.errors.ParseError, kripke.errors.UnknownAtomError, kripke.errors.UnknownAgentError
        For text that does not parse, an atom that is not a card atom of
        this deal, or an unknown agent.
    """
    from kripke.errors import KripkeError, UnknownAgentError
    from kripke.formulas import Formula
    from kripke.parser import parse

    g = parse(f) if isinstance(f, str) else f
    if not isinstance(g, Formula):
        raise KripkeError(f"expected a formula, got {f!r}")
    g = _rename(g, seat_aliases(history.agents))
    for a in g.atoms():
        history.atom_cell(a)
    bad = sorted(set(g.agents()) - set(history.agents))
    if bad:
        raise UnknownAgentError(
            f"unknown agent {bad[0]!r}; the seats are {', '.join(history.agents)}"
        )
    return g
