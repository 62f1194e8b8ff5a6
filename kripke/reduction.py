"""Equivalent formulas that engines answer more easily: announcements reduced away, and
S5 introspection.

:func:`reduce_announcements` rewrites a formula with public announcements into one
without them, by the reduction axioms of public announcement logic (Plaza 1989; van
Ditmarsch, van der Hoek and Kooi, *Dynamic Epistemic Logic*, 2007, section 7.4):
``[!p] q`` is ``p -> T(q)``, ``<!p> q`` is ``p & T(q)``, where ``T`` says on the model
as it is what a formula says after the announcement: it leaves the atoms alone
(announcements change no facts), goes through the connectives, and relativises each
modality to ``p``: ``T(K_a q) = K_a (p -> T(q))``, ``T(M_a q) = M_a (p & T(q))``,
``T(D_G q) = D_G (p -> T(q))``, and ``E_G`` and ``Kw_a`` by their definitions.  Common
knowledge has no such axiom (it needs relativised common knowledge), so an
announcement over ``C_G`` stays where it is.  The equivalence holds on every model.

:func:`introspect` uses what holds on S5 models only (every relation an equivalence):
a formula whose truth agent ``a`` always knows (a Boolean combination of ``K_a``,
``M_a``, ``Kw_a`` formulas and of ``C_G`` formulas with ``a`` in ``G``) is what
``K_a`` and ``M_a`` of it say, and ``Kw_a`` of it is true; ``D_G`` of it, for ``a`` in
``G``, is what it says, and so are ``E_G`` and ``C_G`` of a formula whose truth every
member always knows; a group of one is its member (``E_{a}``, ``C_{a}``, ``D_{a}`` are
``K_a``).

Examples
--------
>>> from kripke.parser import parse
>>> print(reduce_announcements(parse("[!p] K_a q")))
p -> K_a (p -> q)
>>> print(introspect(parse("M_a K_a q | Kw_b C_{a,b} p")))
K_a q | top
"""

from __future__ import annotations

from collections.abc import Callable

from kripke.formulas import (
    TOP,
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
)

__all__ = ["reduce_announcements", "introspect"]

#: ``decided(p, a)``: whether agent ``a`` knows the truth of the propositional ``p``
Decided = Callable[[Formula, str], bool]


def reduce_announcements(f: Formula) -> Formula:
    """An equivalent formula without public announcements, except those over common
    knowledge (see the module's text).

    Examples
    --------
    >>> from kripke.parser import parse
    >>> print(reduce_announcements(parse("<!p> M_a ~q")))
    p & M_a (p & ~q)
    >>> print(reduce_announcements(parse("[!p] E_{a,b} q")))
    p -> E_{a,b} (p -> q)
    >>> print(reduce_announcements(parse("[!K_b p] C_{a,b} p")))
    [!K_b p] C_{a,b} p
    """
    match f:
        case Announce(p, q) | AnnounceDiamond(p, q):
            p = reduce_announcements(p)
            after = _after(p, reduce_announcements(q))
            if isinstance(f, Announce):
                return after if _common_left(after, p) else Implies(p, after)
            return And((p, after))
    kids = f.children()
    return _with_children(f, [reduce_announcements(k) for k in kids]) if kids else f


def _common_left(after: Formula, p: Formula) -> bool:
    """Whether ``after`` is an announcement of ``p`` kept over common knowledge (then
    it already is the whole ``[!p] q``)."""
    return isinstance(after, Announce) and after.announcement is p


def _after(p: Formula, q: Formula) -> Formula:
    """What the announcement-free ``q`` says after announcing ``p``, said on the model as
    it is, wherever ``p`` holds."""
    match q:
        case Atom() | Top() | Bottom():
            return q
        case Know(a, x):
            return Know(a, Implies(p, _after(p, x)))
        case Possible(a, x):
            return Possible(a, And((p, _after(p, x))))
        case KnowWhether(a, x):
            x = _after(p, x)
            return Or((Know(a, Implies(p, x)), Know(a, Implies(p, Not(x)))))
        case Everybody(group, x):  # every member knows p -> x: kept as one E
            return Everybody(group, Implies(p, _after(p, x)))
        case Distributed(group, x):
            return Distributed(group, Implies(p, _after(p, x)))
        case Common() | Announce() | AnnounceDiamond():
            return Announce(p, q)  # no reduction axiom: kept, true where p holds
    return _with_children(q, [_after(p, k) for k in q.children()])


def _with_children(g: Formula, kids: list[Formula]) -> Formula:
    match g:
        case Not():
            return Not(kids[0])
        case And():
            return And(tuple(kids))
        case Or():
            return Or(tuple(kids))
        case Implies():
            return Implies(kids[0], kids[1])
        case Iff():
            return Iff(kids[0], kids[1])
        case Know(a) | Possible(a) | KnowWhether(a):
            return type(g)(a, kids[0])
        case Everybody(group) | Common(group) | Distributed(group):
            return type(g)(group, kids[0])
        case Announce() | AnnounceDiamond():
            return type(g)(kids[0], kids[1])
    return g  # action modalities keep their subformulas


def _decided_by(f: Formula, a: str, decided: Decided | None = None) -> bool:
    """Whether agent ``a`` knows the truth of ``f`` on every S5 model (and, with
    ``decided``, on the models ``decided`` speaks for)."""
    match f:
        case Know(b) | Possible(b) | KnowWhether(b):
            return b == a
        case Common(group):
            return a in group
        case Top() | Bottom():
            return True
    if decided is not None and f.is_propositional() and decided(f, a):
        return True
    if isinstance(f, (Not, And, Or, Implies, Iff)):
        return all(_decided_by(k, a, decided) for k in f.children())
    return False


def introspect(f: Formula, decided: Decided | None = None) -> Formula:
    """An equivalent formula on S5 models, with what an agent knows of its own knowledge
    read off (see the module's text).

    Parameters
    ----------
    f : Formula
    decided : callable, optional
        ``decided(p, a)``: whether agent ``a`` knows the truth of the propositional
        ``p`` in every world of the models at hand (a card game: ``p`` is about its own
        hand).  Such a ``p`` is read off like ``a``'s own knowledge.

    Examples
    --------
    >>> from kripke.parser import parse
    >>> print(introspect(parse("K_a ~K_a p")))
    ~K_a p
    >>> print(introspect(parse("D_{b} E_{a} p")))
    K_b K_a p
    >>> print(introspect(parse("D_{a,b} p & Kw_a q"), decided=lambda p, a: a == "a"))
    p & top
    """
    kids = f.children()
    if kids:  # an update leaves an S5 model S5: the parts of announcements too
        f = _with_children(f, [introspect(k, decided) for k in kids])
    match f:
        case Everybody((a,), x) | Common((a,), x) | Distributed((a,), x):
            f = Know(a, x)
    match f:
        case Know(a, x) | Possible(a, x) if _decided_by(x, a, decided):
            return x
        case KnowWhether(a, x) if _decided_by(x, a, decided):
            return TOP
        case Distributed(group, x) if any(_decided_by(x, a, decided) for a in group):
            return x  # D_G x -> x, and x -> K_a x -> D_G x
        case Everybody(group, x) | Common(group, x) if all(
            _decided_by(x, a, decided) for a in group
        ):
            return x  # x is the same in every world any member reaches
    return f
