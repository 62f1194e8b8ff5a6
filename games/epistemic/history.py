"""What happened to the cards: a game's history in the bridge's terms.

A :class:`CardHistory` is a deck, the initial content of every *location*
(hands, pile, kitty, …), which locations each *agent* (seat) sees at the
start, and a sequence of events with their exact audiences:

========================  ============================================================
event                     meaning
========================  ============================================================
:class:`Move`             cards go from one location to another; ``seen_by`` see which
                          cards, everybody else only how many (a face-down play)
:class:`MoveAll`          a whole location joins another; ``seen_by`` see its content
                          (a pile picked up)
:class:`Reveal`           agents in ``to`` see the whole content of a location
:class:`Show`             agents in ``to`` see that a location holds some cards
:class:`Count`            public fact: locations hold between ``lo`` and ``hi`` copies
                          of some cards (a void when ``hi`` is 0)
:class:`Fact`             public announcement of a propositional formula over the
                          card atoms ``has(location, card)`` ("the claim was false")
========================  ============================================================

How many cards every location holds is public at all times.  Every agent
remembers everything it observed (perfect recall).  A history is an
immutable value; :meth:`CardHistory.then` returns a longer one, and every
event is checked against the true cards when it is added (a move of cards
the source does not hold, a false fact, an unknown agent or location raises
and changes nothing).

Card atoms: ``has(L, C)`` is "location ``L`` holds card ``C``".  In a deck
with copies (two decks of Shengji) ``has(L, C#k)`` is "``L`` holds at least
``k`` copies of ``C``" and ``has(L, C)`` is ``has(L, C#1)``: copies of a
card cannot be told apart, so every agent observes how many copies it sees,
never which.

Examples
--------
>>> from games.cards import Deck
>>> from games.epistemic.history import CardHistory, Move, MoveAll
>>> h = CardHistory(Deck(["A", "B", "C", "D"]), {"x": "A B", "y": "C D", "pile": ""},
...                 seats={"x": "x", "y": "y"})
>>> h = h.then(Move("A", "x", "pile", seen_by={"x"}))     # x plays A face down
>>> h = h.then(MoveAll("pile", "y", seen_by={"y"}))       # y picks the pile up
>>> h.content()["y"], h.sizes()
(('A', 'C', 'D'), {'x': 1, 'y': 3, 'pile': 0})
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.cards import CardsLike, Deck
from games.deal import evaluate
from games.errors import IllegalActionError, InvalidParameterError

__all__ = [
    "Move",
    "MoveAll",
    "Reveal",
    "Show",
    "Count",
    "Fact",
    "Event",
    "CardHistory",
    "card_key",
    "has_atom",
]


#: The one seat of :meth:`CardHistory.onlooker`'s history.
ONLOOKER = "__onlooker__"
#: The agent :meth:`CardHistory.joined` adds: it sees what every member of a group sees.
COMMON = "__common__"

#: The agent :meth:`CardHistory.pooled` adds: what a group sees between its members.
POOLED = "__pooled__"

#: The last deal states :meth:`CardHistory.deal_state` built, by deck, deal and seats:
#: ``(events, state)``; a history continuing one applies only its new events.
_DEAL_STATES: OrderedDict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = OrderedDict()
#: How many deal states are kept.
_DEAL_STATES_KEPT = 4


def clear_deal_states() -> None:
    """Drop the deal states :meth:`CardHistory.deal_state` keeps (to time a history's
    counting from scratch, or to free their memory)."""
    _DEAL_STATES.clear()


def _audience(who: Iterable[str] | str | None) -> frozenset[str] | None:
    if who is None:
        return None
    if isinstance(who, str):
        return frozenset([who])
    return frozenset(str(a) for a in who)


@dataclass(frozen=True, slots=True)
class Move:
    """Cards go from ``src`` to ``dst``; the agents in ``seen_by`` see which.

    ``seen_by=None`` (the default) means everybody (a card played face up);
    the others see only how many cards moved.
    """

    cards: tuple[str, ...] | CardsLike
    src: str
    dst: str
    seen_by: frozenset[str] | Iterable[str] | str | None = None
    label: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "seen_by", _audience(self.seen_by))  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class MoveAll:
    """Every card of ``src`` joins ``dst``; the agents in ``seen_by`` see them.

    ``seen_by`` defaults to nobody (a pile that stays face down); ``None``
    means everybody.
    """

    src: str
    dst: str
    seen_by: frozenset[str] | Iterable[str] | str | None = frozenset()
    label: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "seen_by", _audience(self.seen_by))  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Reveal:
    """The agents in ``to`` (``None``: everybody) see the whole content of ``location``."""

    location: str
    to: frozenset[str] | Iterable[str] | str | None = None
    label: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "to", _audience(self.to))  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Show:
    """The agents in ``to`` (``None``: everybody) see that ``location`` holds ``cards``.

    For the others it is some cards of that location, as many as shown.
    """

    location: str
    cards: tuple[str, ...] | CardsLike
    to: frozenset[str] | Iterable[str] | str | None = None
    label: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "to", _audience(self.to))  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Count:
    """Public fact: ``locations`` together hold between ``lo`` and ``hi`` copies of ``cards``.

    ``Count(["P2"], hearts, 0, 0)`` is "P2 holds no heart" (a void).
    """

    locations: tuple[str, ...] | Iterable[str] | str
    cards: tuple[str, ...] | CardsLike
    lo: int
    hi: int
    label: str = ""

    def __post_init__(self) -> None:
        locs = (self.locations,) if isinstance(self.locations, str) else tuple(self.locations)
        object.__setattr__(self, "locations", locs)


@dataclass(frozen=True, slots=True)
class Fact:
    """Public announcement of a propositional formula over the card atoms.

    The formula (a :class:`~kripke.formulas.Formula` or its text) is about
    the cards *now*, e.g. ``~(has(play, AS) & has(play, AS#2))`` for
    "the two cards put down are not both aces of spades".
    """

    formula: Any
    label: str = ""


Event = Move | MoveAll | Reveal | Show | Count | Fact


def card_key(name: str, copy: int, copies: int) -> str:
    """The card argument of a card atom: ``QS``, or ``QS#2`` for at least two copies.

    Examples
    --------
    >>> card_key("QS", 1, 1), card_key("QS", 1, 2), card_key("QS", 2, 2)
    ('QS', 'QS', 'QS#2')
    """
    return name if copy == 1 else f"{name}#{copy}"


def has_atom(location: str, card: str) -> Any:
    """The atom ``has(location, card)``.

    Examples
    --------
    >>> print(has_atom("P2", "QS#2"))
    has(P2, QS#2)
    """
    from kripke.formulas import Atom

    return Atom("has", (location, card))


@dataclass(frozen=True, slots=True)
class _Step:
    """An event checked against the true deal, in canonical form."""

    kind: str  # "move", "all", "reveal", "show", "count", "fact"
    event: Any
    src: str = ""
    dst: str = ""
    kinds: tuple[int, ...] = ()  # card kinds (with repeats) moved, shown or counted
    audience: frozenset[str] | None = None  # None: everybody
    locations: tuple[str, ...] = ()
    lo: int = 0
    hi: int = 0
    formula: Any = None
    content: tuple[int, ...] = ()  # true content (kinds with repeats) of src/location before
    index: int = -1  # position in the history (names the history atoms of the event)


class CardHistory:
    """A deck, the initial content of every location, who sees what, and the events since.

    Parameters
    ----------
    deck : Deck
        The cards, with copies.
    initial : mapping from location to cards
        The true initial content of every location, empty ones included;
        the sizes are public.
    seats : mapping from agent to the locations it sees, or list of agents
        An agent sees the initial content of its locations (its hand).  A
        list means each agent sees the location of its own name.  A
        location every agent sees is public from the start.
    events : iterable of events, optional

    Raises
    ------
    InvalidParameterError
        If the initial content does not use every card exactly once, or an
        agent sees an unknown location.
    IllegalActionError
        If an event does not fit the true cards (see :meth:`then`).

    Examples
    --------
    >>> from games.cards import Deck
    >>> h = CardHistory(Deck(["A", "B", "C"]), {"x": "A", "y": "B", "z": "C"}, ["x", "y", "z"])
    >>> h.agents, h.locations, len(h)
    (('x', 'y', 'z'), ('x', 'y', 'z'), 0)
    """

    __slots__ = ("deck", "locations", "agents", "owns", "initial", "events", "_steps", "_after")

    def __init__(
        self,
        deck: Deck,
        initial: Mapping[str, CardsLike],
        seats: Mapping[str, str | Iterable[str]] | Iterable[str],
        events: Iterable[Event] = (),
    ):
        if not isinstance(deck, Deck):
            raise InvalidParameterError(f"deck must be a games.cards.Deck, got {deck!r}")
        self.deck = deck
        locs: list[str] = []
        content: dict[str, list[int]] = {}
        for loc, cards in initial.items():
            name = _check_name(str(loc), "location")
            if name in content:
                raise InvalidParameterError(f"location {name!r} is listed twice")
            locs.append(name)
            content[name] = list(deck.kinds(cards)) if cards else []
        seen = Counter(k for ks in content.values() for k in ks)
        for k, c in enumerate(deck.copies):
            if seen[k] != c:
                raise InvalidParameterError(
                    f"the initial deal holds {seen[k]} copies of {deck.name(k)} "
                    f"but the deck has {c}"
                )
        self.locations: tuple[str, ...] = tuple(locs)
        if isinstance(seats, Mapping):
            owns = {
                _check_name(str(a), "agent"): tuple([v] if isinstance(v, str) else list(v))
                for a, v in seats.items()
            }
        else:
            owns = {_check_name(str(a), "agent"): (str(a),) for a in seats}
        for a, ls in owns.items():
            for ll in ls:
                if ll not in content:
                    raise InvalidParameterError(
                        f"agent {a!r} sees unknown location {ll!r}; "
                        f"locations: {', '.join(self.locations)}"
                    )
        if not owns:
            raise InvalidParameterError("a card history needs at least one agent")
        self.agents: tuple[str, ...] = tuple(owns)
        self.owns: dict[str, tuple[str, ...]] = owns
        self.initial: dict[str, tuple[int, ...]] = {
            loc: tuple(sorted(ks)) for loc, ks in content.items()
        }
        self.events: tuple[Event, ...] = ()
        self._steps: tuple[_Step, ...] = ()
        self._after: dict[str, tuple[int, ...]] = dict(self.initial)
        for e in events:
            self._append(e)

    # ------------------------------------------------------------ building
    def then(self, *events: Event) -> CardHistory:
        """This history followed by ``events`` (a new history).

        Raises
        ------
        IllegalActionError
            If a location does not hold the cards moved or shown, a fact is
            false, or a location or agent is unknown; nothing changes.
        """
        out = self._copy()
        for e in events:
            out._append(e)
        return out

    def prefix(self, n: int) -> CardHistory:
        """The history of the first ``n`` events."""
        if not 0 <= n <= len(self.events):
            raise InvalidParameterError(f"a prefix has 0..{len(self.events)} events, not {n}")
        out = self._copy()
        out.events = self.events[:n]
        out._steps = self._steps[:n]
        out._after = out._replay(n)
        return out

    def _copy(self) -> CardHistory:
        out = CardHistory.__new__(CardHistory)
        out.deck = self.deck
        out.locations = self.locations
        out.agents = self.agents
        out.owns = self.owns
        out.initial = self.initial
        out.events = self.events
        out._steps = self._steps
        out._after = dict(self._after)
        return out

    def _replay(self, n: int) -> dict[str, tuple[int, ...]]:
        cur = {loc: list(ks) for loc, ks in self.initial.items()}
        for st in self._steps[:n]:
            _apply(cur, st)
        return {loc: tuple(sorted(ks)) for loc, ks in cur.items()}

    def _loc(self, loc: Any, what: str) -> str:
        name = str(loc)
        if name not in self._after:
            raise IllegalActionError(
                f"{what}: unknown location {name!r}; locations: {', '.join(self.locations)}"
            )
        return name

    def _aud(self, who: Any, what: str) -> frozenset[str] | None:
        if who is None:
            return None
        bad = sorted(who - set(self.agents))
        if bad:
            raise IllegalActionError(
                f"{what}: unknown agent {bad[0]!r}; agents: {', '.join(self.agents)}"
            )
        if who == set(self.agents):
            return None
        return frozenset(who)

    def _append(self, e: Event) -> None:
        st = replace(self._check(e), index=len(self.events))
        if st.kind in ("move", "all"):  # the only steps that change where cards are
            cur = {loc: list(self._after[loc]) for loc in (st.src, st.dst)}
            _apply(cur, st)
            for loc, ks in cur.items():  # this history's own dict (see _copy)
                self._after[loc] = tuple(sorted(ks))
        self.events = (*self.events, e)
        self._steps = (*self._steps, st)

    def _check(self, e: Event) -> _Step:
        d = self.deck
        cur = self._after
        what = f"event {len(self.events)} ({type(e).__name__})"
        match e:
            case Move():
                src = self._loc(e.src, what)
                dst = self._loc(e.dst, what)
                if src == dst:
                    raise IllegalActionError(
                        f"{what}: a move needs two locations, got {src!r} twice"
                    )
                ks = tuple(sorted(d.kinds(e.cards)))
                if not ks:
                    raise IllegalActionError(f"{what}: a move needs at least one card")
                _need(d, cur[src], ks, src, what)
                return _Step("move", e, src, dst, ks, self._aud(e.seen_by, what), content=cur[src])  # type: ignore[arg-type]
            case MoveAll():
                src = self._loc(e.src, what)
                dst = self._loc(e.dst, what)
                if src == dst:
                    raise IllegalActionError(
                        f"{what}: a move needs two locations, got {src!r} twice"
                    )
                return _Step(
                    "all", e, src, dst, audience=self._aud(e.seen_by, what), content=cur[src]
                )  # type: ignore[arg-type]
            case Reveal():
                loc = self._loc(e.location, what)
                return _Step("reveal", e, loc, audience=self._aud(e.to, what), content=cur[loc])  # type: ignore[arg-type]
            case Show():
                loc = self._loc(e.location, what)
                ks = tuple(sorted(d.kinds(e.cards)))
                if not ks:
                    raise IllegalActionError(f"{what}: show at least one card")
                _need(d, cur[loc], ks, loc, what)
                return _Step(
                    "show", e, loc, kinds=ks, audience=self._aud(e.to, what), content=cur[loc]
                )  # type: ignore[arg-type]
            case Count():
                locs = tuple(self._loc(x, what) for x in e.locations)  # type: ignore[union-attr]
                if not locs or len(set(locs)) != len(locs):
                    raise IllegalActionError(f"{what}: give distinct locations")
                ks = tuple(sorted(set(d.kinds(e.cards))))
                if not isinstance(e.lo, int) or not isinstance(e.hi, int) or e.lo > e.hi:
                    raise IllegalActionError(f"{what}: need integers lo <= hi, got {e.lo}, {e.hi}")
                have = sum(1 for ll in locs for k in cur[ll] if k in ks)
                if not e.lo <= have <= e.hi:
                    names = " ".join(d.name(k) for k in ks)
                    raise IllegalActionError(
                        f"{what}: {', '.join(locs)} hold {have} of {names}, not {e.lo}..{e.hi}"
                    )
                return _Step("count", e, locations=locs, kinds=ks, lo=e.lo, hi=e.hi)
            case Fact():
                f = self.card_formula(e.formula)
                if not self._holds_now(f):
                    raise IllegalActionError(f"{what}: the fact {f} is false")
                return _Step("fact", e, formula=f)
            case _:
                raise IllegalActionError(f"{e!r} is not a card event")

    # ------------------------------------------------------------- queries
    def __len__(self) -> int:
        return len(self.events)

    def __repr__(self) -> str:
        return (
            f"CardHistory({self.deck!r}, {len(self.locations)} locations, "
            f"agents {list(self.agents)}, {len(self.events)} events)"
        )

    @property
    def steps(self) -> tuple[_Step, ...]:
        """The events in canonical form (card kinds, audiences), checked."""
        return self._steps

    def content(self, step: int | None = None) -> dict[str, tuple[str, ...]]:
        """The true content of every location after ``step`` events (default: all)."""
        cur = self._after if step is None else self._replay(step)
        return {loc: tuple(self.deck.name(k) for k in ks) for loc, ks in cur.items()}

    def kinds_now(self) -> dict[str, tuple[int, ...]]:
        """The true content now, as sorted card kinds."""
        return dict(self._after)

    def sizes(self, step: int | None = None) -> dict[str, int]:
        """How many cards every location holds after ``step`` events (public)."""
        cur = self._after if step is None else self._replay(step)
        return {loc: len(ks) for loc, ks in cur.items()}

    def public_locations(self) -> tuple[str, ...]:
        """Locations every agent sees from the start."""
        return tuple(loc for loc in self.locations if all(loc in self.owns[a] for a in self.agents))

    def atoms(self) -> list[str]:
        """Every card atom ``has(location, card)`` (with ``#k`` copies), as text."""
        out = []
        for loc in self.locations:
            for k, name in enumerate(self.deck.names):
                m = self.deck.copies[k]
                for j in range(1, m + 1):
                    out.append(f"has({loc}, {card_key(name, j, m)})")
        return out

    def card_formula(self, formula: Any) -> Any:
        """``formula`` parsed and checked: propositional over this history's card atoms.

        Raises
        ------
        kripke.errors.UnknownAtomError
            Naming an atom that is not ``has(location, card)`` of this deal.
        kripke.errors.KripkeError
            If the formula has knowledge operators.
        """
        from kripke.errors import KripkeError
        from kripke.formulas import Formula
        from kripke.parser import parse

        f = parse(formula) if isinstance(formula, str) else formula
        if not isinstance(f, Formula):
            raise KripkeError(f"expected a formula, got {formula!r}")
        if not f.is_propositional():
            raise KripkeError(f"a fact about the cards is propositional; {f} is not")
        for a in f.atoms():
            self.atom_cell(a)
        return f

    def atom_cell(self, a: Any) -> tuple[str, int, int]:
        """``(location, kind, copies at least)`` of a card atom.

        Raises
        ------
        kripke.errors.UnknownAtomError
            If ``a`` is not a card atom of this deal.
        """
        from kripke.errors import UnknownAtomError

        if a.name != "has" or len(a.args) != 2:
            raise UnknownAtomError(
                f"{a.key} is not a card atom; card atoms read has(location, card)"
            )
        loc, card = a.args
        if loc not in self._after:
            raise UnknownAtomError(
                f"{a.key}: unknown location {loc!r}; locations: {', '.join(self.locations)}"
            )
        name, _, copy = card.partition("#")
        try:
            k = self.deck.index(name)
        except Exception as exc:
            raise UnknownAtomError(f"{a.key}: {exc}") from None
        j = 1
        if copy:
            if not copy.isdigit() or not 1 <= int(copy) <= self.deck.copies[k]:
                raise UnknownAtomError(
                    f"{a.key}: the deck has {self.deck.copies[k]} copies of "
                    f"{self.deck.name(k)}; write {self.deck.name(k)}#1 .. "
                    f"{self.deck.name(k)}#{self.deck.copies[k]}"
                )
            j = int(copy)
        return loc, k, j

    def card_cell(self, a: Any) -> tuple[str, int, int] | None:
        """:meth:`atom_cell` of a card atom of this history, or ``None`` for anything
        else (not an atom, or an atom that names no location and card of this deal):
        the rules that decide only card atoms leave the rest undecided."""
        from kripke.errors import UnknownAtomError
        from kripke.formulas import Atom

        if not isinstance(a, Atom):
            return None
        try:
            return self.atom_cell(a)
        except UnknownAtomError:
            return None

    def deal_state(self) -> Any:
        """This history as a :class:`games.deal.DealState`: every agent's exact counting
        knowledge of the current deal (first-order questions at any size).

        A :class:`Fact` enters as counts where it is a conjunction of card atoms
        and their negations; other conjuncts are left out, and every agent's
        knowledge is then not :attr:`~games.deal.DealKnowledge.exact` (a sound
        superset of the deals: what it knows stays true).

        Each call returns a state of its own.  The last few are kept
        (:func:`clear_deal_states` drops them): a history that continues one
        of them (the same deck, deal and seats, its events followed by more),
        such as the next state of a game being followed, applies only the
        events that are new.

        Examples
        --------
        >>> from games.cards import Deck
        >>> h = CardHistory(Deck(["A", "B", "C"]), {"x": "A B", "y": "C", "pile": ""}, ["x", "y"])
        >>> ds = h.then(Move("A", "x", "pile", seen_by=["x"])).deal_state()
        >>> ds.probability("y", "has(pile, A)", exact=True)
        Fraction(1, 2)
        """
        from games.deal import DealState

        key = self._deal_key()
        events = tuple(self.events)
        hit = _DEAL_STATES.get(key)
        start = 0
        if hit is not None and len(hit[0]) <= len(events):
            if all(e is f or e == f for e, f in zip(hit[0], events[: len(hit[0])], strict=True)):
                ds, start = hit[1].copy(), len(hit[0])
        if start == len(events) > 0:  # nothing new: the kept state stays as it is
            _DEAL_STATES.move_to_end(key)
            return ds
        if not start:
            ds = DealState(
                self.deck,
                {loc: [self.deck.name(k) for k in ks] for loc, ks in self.initial.items()},
                agents={a: list(self.owns[a]) for a in self.agents},
            )

        def aud(x: Any) -> Any:
            return None if x is None else sorted(x)

        for i in range(start, len(events)):
            e = events[i]
            if isinstance(e, Move):
                ds.move(e.cards, e.src, e.dst, seen_by=aud(e.seen_by))
            elif isinstance(e, MoveAll):
                ds.move_all(e.src, e.dst, seen_by=aud(e.seen_by))
            elif isinstance(e, Reveal):
                ds.reveal(e.location, to=aud(e.to))
            elif isinstance(e, Show):
                ds.show(e.location, e.cards, to=aud(e.to))
            elif isinstance(e, Count) and e.hi == 0 and len(self._steps[i].locations) == 1:
                ds.void(self._steps[i].locations[0], e.cards)  # per card: no joint constraint
            elif isinstance(e, Count):
                ds.at_least(list(e.locations), e.cards, e.lo)
                ds.at_most(list(e.locations), e.cards, e.hi)
            elif not self._fact_counts(ds, self._steps[i].formula):
                for a in self.agents:  # a fact counting cannot state: a superset of the deals
                    ds.knowledge(a).relaxations += 1
        _DEAL_STATES[key] = (events, ds.copy())
        _DEAL_STATES.move_to_end(key)
        while len(_DEAL_STATES) > _DEAL_STATES_KEPT:
            _DEAL_STATES.popitem(last=False)
        return ds

    def _deal_key(self) -> tuple[Any, ...]:
        """What a deal state depends on besides the events: the deck, the initial
        content and who sees which locations."""
        return (
            tuple(self.deck.names),
            tuple(self.deck.copies),
            tuple(sorted((loc, tuple(ks)) for loc, ks in self.initial.items())),
            tuple((a, tuple(self.owns[a])) for a in self.agents),
        )

    def _fact_counts(self, ds: Any, f: Any) -> bool:
        """Add the public fact ``f`` to ``ds`` as counts: the bounds
        :meth:`fact_bounds` reads from it (a card atom ``has(L, C#k)`` is "``L``
        holds at least ``k`` copies of ``C``", its negation "at most ``k - 1``"),
        and each clause left over that is a disjunction of such atoms as one
        disjunction of counts (:meth:`games.deal.DealKnowledge.any_of`; the atoms
        ``has(L, C)`` of one location together as "at least one of them");
        whether they state the whole fact (else the rest is left out, so the
        knowledge keeps a superset of the deals)."""
        bounds, clauses = self._fact_parts(f)
        for (loc, k), (lo, hi) in bounds.items():
            if lo > 0:
                ds.at_least([loc], [self.deck.name(k)], lo)
            if hi < self.deck.copies[k]:
                ds.at_most([loc], [self.deck.name(k)], hi)
        whole = True
        for c in clauses:
            conds = _clause_counts(self.deck, c)
            if conds is None:
                whole = False
            else:
                ds.any_of(conds)
        return whole

    def fact_bounds(self, f: Any) -> tuple[dict[tuple[str, int], tuple[int, int]], int]:
        """The copies of each card that each location holds, as bounds ``(lo, hi)`` per
        ``(location, kind)``, that the propositional fact ``f`` states, and how many of
        its clauses those bounds leave unstated (``0``: ``f`` is exactly the bounds).

        ``f`` is read as a conjunction (negations pushed inwards): each card atom and
        negated card atom is a bound; a disjunction is dropped once one of its parts
        follows from the bounds, and a part the bounds contradict is dropped from it,
        so that a disjunction left with one part adds that part (to a fixpoint).
        Every step keeps the conjunction equivalent to ``f``.

        Examples
        --------
        >>> from games.cards import Deck
        >>> h = CardHistory(Deck(["A", "B"], [2, 1]), {"x": "A B", "y": "A"}, ["x", "y"])
        >>> b, rest = h.fact_bounds(h.card_formula("~(has(y, B) | has(y, A#2)) & (has(y, B) | has(x, A))"))
        >>> sorted(b.items()), rest       # y: no B, at most one A; x: at least one A
        ([(('x', 0), (1, 2)), (('y', 0), (0, 1)), (('y', 1), (0, 0))], 0)
        >>> h.fact_bounds(h.card_formula("has(x, A) | has(x, B)"))[1]
        1
        """
        bounds, clauses = self._fact_parts(f)
        return bounds, len(clauses)

    def facts_as_counts(self) -> CardHistory:
        """The same history with every :class:`Fact` that :meth:`fact_bounds` states
        whole written as :class:`Count` events (the voids of a location as one
        count, each other bound as a count of one card at one location): the same
        public information at the same moment, so every agent has the same worlds;
        the rules that read counts (which cards every count treats alike) read them.
        Other facts stay; ``self`` when there is nothing to write.

        Examples
        --------
        >>> from games.cards import Deck
        >>> h = CardHistory(Deck(["A", "B", "C"]), {"x": "A", "y": "B C"}, ["x", "y"])
        >>> h = h.then(Fact("~(has(x, B) | has(x, C))"))
        >>> h.facts_as_counts().events
        (Count(locations=('x',), cards=('B', 'C'), lo=0, hi=0, label=''),)
        """
        events: list[Event] = []
        changed = False
        for e, st in zip(self.events, self._steps, strict=True):
            bounds, clauses = self._fact_parts(st.formula) if st.kind == "fact" else ({}, [1])
            if clauses:
                events.append(e)
                continue
            changed = True
            voids: dict[str, list[str]] = {}
            for (loc, k), (lo, hi) in sorted(bounds.items()):
                if hi == 0:
                    voids.setdefault(loc, []).append(self.deck.name(k))
                elif lo > 0 or hi < self.deck.copies[k]:
                    events.append(Count((loc,), (self.deck.name(k),), lo, hi, label=e.label))
            events += [Count((loc,), tuple(ks), 0, 0, label=e.label) for loc, ks in voids.items()]
        if not changed:
            return self
        initial = {loc: [self.deck.name(k) for k in ks] for loc, ks in self.initial.items()}
        return CardHistory(self.deck, initial, self.owns, events)

    def card_nnf(self, g: Any, neg: bool = False) -> Any:
        """The propositional card formula ``g`` (negated when ``neg``) in negation normal
        form, as nested tuples: ``("lit", location, kind, k, positive)`` ("at least
        ``k`` copies there", or "fewer" when not ``positive``), ``("and", parts)``,
        ``("or", parts)``, or ``("opaque",)`` for a part that is not about the cards.

        Examples
        --------
        >>> from games.cards import Deck
        >>> h = CardHistory(Deck(["A", "B"], [2, 1]), {"x": "A B", "y": "A"}, ["x", "y"])
        >>> h.card_nnf(h.card_formula("~(has(y, B) | has(y, A#2))"))
        ('and', [('lit', 'y', 1, 1, False), ('lit', 'y', 0, 2, False)])
        """
        from kripke.formulas import And, Atom, Bottom, Implies, Not, Or, Top

        match g:
            case Atom():
                loc, k, j = self.atom_cell(g)
                return ("lit", loc, k, j, not neg)
            case Not(a):
                return self.card_nnf(a, not neg)
            case And(args) | Or(args):
                conj = isinstance(g, And) != neg
                return ("and" if conj else "or", [self.card_nnf(a, neg) for a in args])
            case Implies(a, b):
                return ("and" if neg else "or", [self.card_nnf(a, not neg), self.card_nnf(b, neg)])
            case Top() | Bottom():
                return ("and" if isinstance(g, Top) != neg else "or", [])
        return ("opaque",)

    def _fact_parts(self, f: Any) -> tuple[dict[tuple[str, int], tuple[int, int]], list[Any]]:
        """:meth:`fact_bounds` with the clauses left over: ``("or", parts)`` (parts
        ``("lit", location, kind, k, positive)``, ``("and", parts)`` or ``("or", parts)``)
        or ``("opaque",)``."""
        bounds: dict[tuple[str, int], list[int]] = {}

        def state(lit: Any) -> bool | None:  # follows (True), contradicted (False), open
            _, loc, k, j, pos = lit
            lo, hi = bounds.get((loc, k), (0, self.deck.copies[k]))
            if pos:
                return True if lo >= j else False if hi < j else None
            return True if hi <= j - 1 else False if lo >= j else None

        def value(g: Any) -> bool | None:
            if g[0] == "lit":
                return state(g)
            if g[0] == "opaque":
                return None
            parts = [value(x) for x in g[1]]
            if g[0] == "and":
                return False if False in parts else True if all(parts) else None
            return True if True in parts else False if all(p is False for p in parts) else None

        todo = [self.card_nnf(f)]
        clauses: list[Any] = []
        while todo:
            g = todo.pop()
            if g[0] == "and":
                todo.extend(g[1])
            elif g[0] == "lit":
                _, loc, k, j, pos = g
                b = bounds.setdefault((loc, k), [0, self.deck.copies[k]])
                if pos:
                    b[0] = max(b[0], j)
                else:
                    b[1] = min(b[1], j - 1)
            else:
                clauses.append(g)
            if todo:
                continue
            open_: list[Any] = []
            for c in clauses:  # the bounds grew: simplify the disjunctions again
                if c[0] == "or" and value(c) is not True:
                    left = [x for x in c[1] if value(x) is not False]
                    if len(left) == 1:
                        todo.append(left[0])
                        continue
                    c = ("or", left)
                if c[0] == "opaque" or value(c) is not True:
                    open_.append(c)
            clauses = open_
        return {m: (lo, hi) for m, (lo, hi) in bounds.items()}, clauses

    def onlooker_counting(
        self, locations: Iterable[str], sees: Callable[[frozenset[str]], bool]
    ) -> Any:
        """The exact counting knowledge (:class:`games.deal.DealKnowledge`) of one
        onlooker who owns ``locations`` and sees every public event and every
        event whose audience (a set of agents) ``sees`` accepts, replaying its
        observations only (a fifth of :meth:`deal_state`'s work at five seats).

        Examples
        --------
        >>> from games.cards import Deck
        >>> h = CardHistory(Deck(["A", "B", "C"]), {"x": "A", "y": "B C", "pile": ""}, ["x", "y"])
        >>> h = h.then(Move("B", "y", "pile", seen_by=["y"]))
        >>> kn = h.onlooker_counting(["x", "y"], lambda aud: bool(aud & {"x", "y"}))
        >>> kn.knows(h.card_formula("has(pile, B)"))   # x's and y's eyes together
        True
        """
        return self.onlooker(locations, sees).deal_state().knowledge(ONLOOKER)

    def onlooker(
        self, locations: Iterable[str], sees: Callable[[frozenset[str]], bool]
    ) -> CardHistory:
        """This history seen by one seat alone, :data:`ONLOOKER`, who owns ``locations``
        and sees every public event and every event whose audience ``sees`` accepts
        (the other seats are left out: its worlds are the worlds of a seat or group
        that observes exactly that)."""

        everybody = set(self.agents)

        def aud(x: frozenset[str] | None) -> frozenset[str] | None:
            if x is None or everybody <= x:  # seen by every seat: a public event
                return None
            return frozenset([ONLOOKER] if sees(x) else [])

        return self._reseated(aud, {ONLOOKER: tuple(locations)})

    def joined(self, group: Iterable[str], name: str = COMMON) -> CardHistory:
        """This history with one more agent, ``name``, who owns the locations every agent
        of ``group`` owns and sees exactly the events every one of them sees; the other
        agents keep their view.

        Its worlds are those that agree with the true one on everything the group saw
        together.  Such an event stays as it is along every chain of worlds, each a world
        some member cannot tell from the one before, so those worlds include every world
        the group's common knowledge reaches: what holds in all of them is common
        knowledge of the group, and known at every depth of nested knowledge of its
        members.

        Raises
        ------
        InvalidParameterError
            If ``group`` names an unknown agent or is empty, or ``name`` is taken.

        Examples
        --------
        >>> from games.cards import Deck
        >>> h = CardHistory(Deck(["A", "B", "C"]), {"x": "A", "y": "B", "z": "C", "pile": ""},
        ...                 ["x", "y", "z"])
        >>> h = h.then(Move("A", "x", "pile", seen_by=["x", "y"]))
        >>> j = h.joined(["x", "y"])
        >>> j.agents[-1] == COMMON, j.owns[COMMON], j.steps[0].audience == {"x", "y", COMMON}
        (True, (), True)
        """
        return self._added(group, name, together=True)

    def pooled(self, group: Iterable[str], name: str = POOLED) -> CardHistory:
        """This history with one more agent, ``name``, who owns every location an agent of
        ``group`` owns and sees every event one of them sees; the other agents keep their
        view.  In every world it knows what the group knows between its members: its
        knowledge is the group's distributed knowledge ``D_G``.

        Raises
        ------
        InvalidParameterError
            If ``group`` names an unknown agent or is empty, or ``name`` is taken.

        Examples
        --------
        >>> from games.cards import Deck
        >>> h = CardHistory(Deck(["A", "B", "C"]), {"x": "A", "y": "B", "z": "C", "pile": ""},
        ...                 ["x", "y", "z"])
        >>> h = h.then(Move("A", "x", "pile", seen_by=["x"]))
        >>> p = h.pooled(["x", "y"])
        >>> p.owns[POOLED], p.steps[0].audience == {"x", POOLED}
        (('x', 'y'), True)
        """
        return self._added(group, name, together=False)

    def _added(self, group: Iterable[str], name: str, *, together: bool) -> CardHistory:
        """This history with one more agent, ``name``, who owns the locations every member
        of ``group`` owns and sees the events every one sees (``together``), or owns the
        locations some member owns and sees the events some member sees."""
        members = list(dict.fromkeys(group))
        unknown = [a for a in members if a not in self.agents]
        if not members or unknown:
            raise InvalidParameterError(
                f"unknown agent {unknown[0]!r}; agents: {', '.join(self.agents)}"
                if unknown
                else "a group needs at least one agent"
            )
        if name in self.agents:
            raise InvalidParameterError(f"agent {name!r} is taken")
        test = all if together else any

        def aud(x: frozenset[str] | None) -> frozenset[str] | None:
            if x is None or not test(a in x for a in members):
                return x
            return x | {name}

        seats = dict(self.owns)
        seats[name] = tuple(m for m in self.locations if test(m in self.owns[a] for a in members))
        return self._reseated(aud, seats)

    def _reseated(
        self,
        aud: Callable[[frozenset[str] | None], frozenset[str] | None],
        seats: Mapping[str, tuple[str, ...]],
    ) -> CardHistory:
        """The same deal and events, seen by ``seats``, every audience turned by ``aud``."""
        events: list[Event] = []
        for e in self.events:
            if isinstance(e, (Move, MoveAll)):
                e = replace(e, seen_by=aud(e.seen_by))  # type: ignore[arg-type]
            elif isinstance(e, (Reveal, Show)):
                e = replace(e, to=aud(e.to))  # type: ignore[arg-type]
            events.append(e)
        initial = {loc: [self.deck.name(k) for k in ks] for loc, ks in self.initial.items()}
        return CardHistory(self.deck, initial, seats, events)

    def seat_counting(self, agent: str) -> Any:
        """The exact counting knowledge of ``agent`` alone (:meth:`onlooker_counting`
        with its locations and its audiences)."""
        return self.onlooker_counting(self.owns[agent], lambda aud: aud is None or agent in aud)

    def _holds_now(self, f: Any) -> bool:
        counts = {loc: Counter(ks) for loc, ks in self._after.items()}
        return evaluate(f, lambda a: self._has(counts, a))

    def _has(self, counts: Mapping[str, Counter[int]], a: Any) -> bool:
        loc, k, j = self.atom_cell(a)
        return counts[loc][k] >= j


def _clause_counts(deck: Deck, clause: Any) -> list[tuple[str, list[str], int, int]] | None:
    """A clause of :meth:`CardHistory._fact_parts` as conditions ``(location, cards, lo,
    hi)`` of which at least one holds, or ``None`` when a part is not a card atom or
    its negation (a conjunction inside the disjunction)."""
    if clause[0] != "or":
        return None
    lits, todo = [], list(clause[1])
    while todo:
        g = todo.pop()
        if g[0] == "or":
            todo.extend(g[1])
        elif g[0] == "lit":
            lits.append(g)
        else:
            return None
    some: dict[str, list[str]] = {}  # has(L, C) atoms of one location: at least one of them
    conds: list[tuple[str, list[str], int, int]] = []
    for _, loc, k, j, pos in lits:
        if pos and j == 1:
            some.setdefault(loc, []).append(deck.name(k))
        elif pos:
            conds.append((loc, [deck.name(k)], j, deck.copies[k]))
        else:
            conds.append((loc, [deck.name(k)], 0, j - 1))
    conds += [(loc, names, 1, len(names) * max(deck.copies)) for loc, names in some.items()]
    return conds


def _check_name(name: str, what: str) -> str:
    import re

    if not re.match(r"^[A-Za-z_0-9][A-Za-z_0-9]*$", name):
        raise InvalidParameterError(
            f"{what} name {name!r} must be letters, digits and underscores (it appears in atoms)"
        )
    return name


def _need(d: Deck, pool: Sequence[int], ks: Sequence[int], loc: str, what: str) -> None:
    have = Counter(pool)
    for k, n in Counter(ks).items():
        if have[k] < n:
            raise IllegalActionError(
                f"{what}: {loc} holds {have[k]} of {d.name(k)}, cannot move or show {n}"
            )


def _apply(cur: dict[str, list[int]], st: _Step) -> None:
    if st.kind == "move":
        for k in st.kinds:
            cur[st.src].remove(k)
        cur[st.dst].extend(st.kinds)
    elif st.kind == "all":
        cur[st.dst].extend(cur[st.src])
        cur[st.src] = []
