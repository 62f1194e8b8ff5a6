"""Knowledge about a hand where every card is played face up: a count, not a search.

In Shengji and ZPY every card goes from a hand to the table face up; what is
hidden is the deal and the kitty, which only its owner sees exchanged.  What a
seat ``b`` knows there is fixed by its own hand (and the kitty, for its owner):
its worlds are every placing of the cards it has not seen, each hand keeping its
size, the suits it showed void in and the cards it showed.  Whether a card must
lie at a place in all of them is a transport question over groups of cards
(the kinds every void treats alike), decided by Hall's condition; and that
condition depends on ``b``'s hand only through how many cards of each group it
holds.  So ``K_a ~K_b has(L, C)`` (in no world ``a`` considers possible does ``b``
know it) follows from the fewest cards of each union of groups that ``b`` can hold
in ``a``'s worlds, which ``a``'s exact counting gives: :func:`hand_unknown`.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations
from typing import Any

from games.epistemic.history import CardHistory
from kripke.errors import SizeLimitError

__all__ = ["hand_unknown", "hand_known", "hand_knows_probability", "public_places"]

#: Most places not seen by the seat for :func:`hand_unknown` (it checks every subset).
MAX_PLACES = 10


def public_places(h: CardHistory) -> set[str]:
    """The places whose whole content everybody knows in every world: seen by every seat
    at the deal, or empty then, and only ever reached or left by moves everybody sees
    (a table the cards are played to face up)."""
    shared = set(h.public_locations())
    return {
        m
        for m in h.locations
        if (m in shared or not h.initial[m])
        and all(
            st.audience is None
            for st in h.steps
            if st.kind in ("move", "all") and m in (st.src, st.dst)
        )
    }


def _shape(h: CardHistory, public: set[str]) -> dict[str, str] | None:
    """Whether ``h`` is a history this rule reads, and the hidden place each private
    place belongs to: every event is public but moves within one seat's hand and a place
    only that seat sees (a kitty); every count is a void (none of some cards) at places
    that no card comes into afterwards; no fact, no private show or reveal.  The map
    sends each buried place (a kitty) to the seat that sees it; ``None``: not read."""
    owner: dict[str, str] = {}
    for i, st in enumerate(h.steps):
        if st.kind == "fact":
            return None
        if st.kind == "count":
            if st.lo != 0 or st.hi != 0:
                return None
            later = h.steps[i + 1 :]
            if any(s.kind in ("move", "all") and s.dst in st.locations for s in later):
                return None
            continue
        if st.audience is None:
            if st.kind in ("move", "all") and st.dst not in public:
                return None  # a card given face up to a hand: not read here
            continue
        if st.kind in ("reveal", "show") or len(st.audience) != 1:
            return None
        (seat,) = st.audience
        for m in (st.src, st.dst):
            if m in h.owns[seat]:
                continue
            if any(m in own for own in h.owns.values()) or m in public:
                return None
            if owner.setdefault(m, seat) != seat:
                return None
    return owner


def _pins(h: CardHistory, public: set[str]) -> list[tuple[frozenset[str], int, int]]:
    """What everybody knows of the private places from what was shown: ``(places, kind,
    copies)``, at least that many copies of the kind lie at those places together now.
    A show pins the copies at its place; a card of that kind played face up from there
    may be one of them; a move only its seat saw may take them along (the places grow)."""
    pins: list[list[Any]] = []
    for st in h.steps:
        if st.kind in ("show", "reveal") and st.audience is None:
            shown = Counter(st.content if st.kind == "reveal" else st.kinds)
            for k, c in shown.items():
                pins.append([frozenset([st.src]), k, c])
        elif st.kind in ("move", "all"):
            moved = Counter(st.kinds if st.kind == "move" else st.content)
            for p in pins:
                if st.src not in p[0]:
                    continue
                if st.audience is None:
                    p[2] = max(0, p[2] - moved[p[1]])
                else:
                    p[0] = p[0] | {st.dst}
    out: dict[tuple[frozenset[str], int], int] = {}
    for places, k, c in pins:
        if c:
            out[places, k] = max(out.get((places, k), 0), c)
    return [(places, k, c) for (places, k), c in out.items()]


def hand_unknown(h: CardHistory, agent: str, atom: Any, *, within: str, knowledge: Any) -> bool:
    """Whether ``agent`` surely does not know the card atom ``atom`` (``has(L, C)``: at least
    one copy of ``C`` at ``L``) in any world seat ``within`` considers possible, in a
    history whose cards are all played face up (:func:`_shape`): ``True`` is exact,
    ``False`` means not shown.

    In a world of ``within`` where ``agent`` holds the hand ``H``, ``agent``'s worlds are the
    placings of the cards it has not seen at the places it does not see, every place
    keeping its size, its voids and the shown copies (:func:`_pins`).  One of them has
    no ``C`` at ``L`` when the copies of ``C`` can be kept away from ``L``: by Hall's
    condition, when for every set ``S`` of those places the cards that can only lie in
    ``S`` (with ``L`` barred to ``C``) are no more than ``S`` holds.  Those cards are every
    copy of such kinds not in a public place, less ``H``'s: at most the copies less the
    fewest that ``agent`` holds in ``within``'s worlds (``knowledge``, the exact counting of
    ``within``; a relaxed one only lowers that fewest).  When every ``S`` passes, no
    world of ``within`` lets ``agent`` know the atom.

    Examples
    --------
    z takes the kitty and buries an AS and a QH, then six cards are played face up; x
    is left with a KS and y with the AH.  z knows every other card, but not which of
    the two is x's, in any world of x:

    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move, MoveAll
    >>> from kripke.formulas import Atom
    >>> h = CardHistory(Deck(["AS", "KS", "QS", "AH", "KH", "QH"], [2, 2, 1, 1, 2, 2]),
    ...                 {"x": "AS KS KH", "y": "QS AH KH", "z": "KS QH", "kitty": "AS QH",
    ...                  "trick": ""}, ["x", "y", "z"])
    >>> h = h.then(MoveAll("kitty", "z", seen_by=["z"]),
    ...            Move("QH AS", "z", "kitty", seen_by=["z"]),
    ...            *(Move(c, s, "trick") for c, s in zip(["KH", "KH", "QH", "AS", "QS", "KS"],
    ...                                                  "xyzxyz")))
    >>> hand_unknown(h, "z", Atom("has", ("x", "KS")), within="x",
    ...              knowledge=h.seat_counting("x"))
    True
    """
    read = _hall_events(h, agent, atom, within=within)
    if read is None or knowledge is None:
        return False
    seen, events = read
    for kinds, need in events:
        if not kinds:
            return False  # the agent knows it whatever it holds
        if _fewest(h, knowledge, set(kinds), seen, enough=need) < need:
            return False  # in some world of within the agent may know it
    return True


def hand_known(h: CardHistory, agent: str, atom: Any, *, within: str, knowledge: Any) -> bool:
    """Whether some world seat ``within`` considers possible was found where ``agent`` knows
    the card atom ``atom`` (``has(L, C)``), in a history :func:`hand_unknown` reads: one
    where ``agent``'s hand holds so few cards of a group that Hall's condition fails
    (:func:`_hall_events`), read from ``within``'s exact counting ``knowledge`` (a relaxed
    one proves nothing here).  ``True`` is a proof of ``M_within K_agent atom``; ``False``
    shows nothing.

    Examples
    --------
    As in :func:`hand_knows_probability`: y's last card may be the AS, and then y knows
    that z holds a KS:

    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move
    >>> from kripke.formulas import Atom
    >>> h = CardHistory(Deck(["AS", "KS", "AH", "KH"], [1, 2, 1, 2]),
    ...                 {"x": "KS KH", "y": "KS KH", "z": "AS AH", "trick": ""}, ["x", "y", "z"])
    >>> h = h.then(Move("KH", "x", "trick"), Move("KH", "y", "trick"))
    >>> hand_known(h, "y", Atom("has", ("z", "KS")), within="x", knowledge=h.seat_counting("x"))
    True
    """
    read = _hall_events(h, agent, atom, within=within)
    if read is None or knowledge is None or not knowledge.exact:
        return False
    seen, events = read
    for kinds, need in events:
        if not kinds:
            return True  # it knows whatever it holds
        names = [h.deck.name(k) for k in sorted(kinds)]
        if knowledge.count_range(names, seen)[0] >= need:
            continue
        try:
            dist = knowledge.count_distribution(names, seen, exact=True)
        except SizeLimitError:
            continue
        if any(p > 0 for p in dist[:need]):
            return True
    return False


def hand_knows_probability(
    h: CardHistory, agent: str, atom: Any, *, within: str, knowledge: Any
) -> Fraction | None:
    """Seat ``within``'s probability that ``agent`` knows the card atom ``atom``
    (``has(L, C)``), exactly, in a history :func:`hand_unknown` reads: ``agent`` knows it
    exactly when its hand holds fewer than some number of the cards of some group of
    kinds (:func:`hand_unknown`'s Hall condition), whose distribution ``within``'s exact
    counting ``knowledge`` gives (several groups: their joint distribution,
    :meth:`~games.deal.DealKnowledge.joint_count_distribution`).  The weights are the
    counting's: every deal by its physical arrangements, as
    :meth:`GameKnowledge.probability` weighs a deal; here every world with the same deal
    agrees, since what ``agent`` knows is read from its hand.  ``None``: not read here
    (another shape of history, or a count too wide).

    Examples
    --------
    x and y each play a KH face up; x holds the KS, z the AS and AH, y one card: for x,
    the other KS, the AS or the AH.  Unless y holds that KS, two KS are left for x's one
    card and z's two, and y knows that z holds one:

    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move
    >>> from kripke.formulas import Atom
    >>> h = CardHistory(Deck(["AS", "KS", "AH", "KH"], [1, 2, 1, 2]),
    ...                 {"x": "KS KH", "y": "KS KH", "z": "AS AH", "trick": ""}, ["x", "y", "z"])
    >>> h = h.then(Move("KH", "x", "trick"), Move("KH", "y", "trick"))
    >>> hand_knows_probability(h, "y", Atom("has", ("z", "KS")), within="x",
    ...                        knowledge=h.seat_counting("x"))
    Fraction(2, 3)
    """
    read = _hall_events(h, agent, atom, within=within)
    if read is None or knowledge is None or not knowledge.exact:
        return None
    seen, events = read
    if not events:
        return Fraction(0)
    if any(not kinds for kinds, _ in events):
        return Fraction(1)
    events = [  # not those its hand cannot meet (the whole deck: it holds its hand's size)
        (kinds, need)
        for kinds, need in events
        if need > knowledge.count_range([h.deck.name(k) for k in sorted(kinds)], seen)[0]
    ]
    if not events:
        return Fraction(0)
    need: dict[frozenset[int], int] = {}
    for kinds, n in events:
        need[kinds] = max(n, need.get(kinds, 0))
    if len(need) == 1:
        ((kinds, most),) = need.items()
        names = [h.deck.name(k) for k in sorted(kinds)]
        try:
            dist = knowledge.count_distribution(names, seen, exact=True)
        except SizeLimitError:
            return None
        return Fraction(sum(dist[:most], Fraction(0)))
    # several groups: the joint counts of the parts their kinds split into
    groups = list(need)
    parts: dict[tuple[bool, ...], list[str]] = {}
    for k in sorted(frozenset().union(*groups)):
        parts.setdefault(tuple(k in g for g in groups), []).append(h.deck.name(k))
    keys = list(parts)
    try:
        joint = knowledge.joint_count_distribution([parts[c] for c in keys], seen, exact=True)
    except SizeLimitError:
        return None
    p = Fraction(0)
    for counts, q in joint.items():
        held = [
            sum(n for c, n in zip(keys, counts, strict=True) if c[i]) for i in range(len(groups))
        ]
        if any(n < need[g] for n, g in zip(held, groups, strict=True)):
            p += q
    return p


def _hall_events(
    h: CardHistory, agent: str, atom: Any, *, within: str
) -> tuple[list[str], list[tuple[frozenset[int], int]]] | None:
    """When ``agent`` knows ``has(L, C)`` in a history :func:`_shape` reads: the places
    whose content it knows in every world (its own, and a buried place, a kitty, that it
    alone saw), and every ``(kinds, need)`` such that, holding there fewer than ``need``
    cards of ``kinds``, it knows it (a set of places that the cards it has not seen, less
    ``L`` for ``C``, would overfill: Hall's condition fails); it knows it exactly when one
    of them holds.  An empty ``kinds``: it knows it whatever it holds.  ``None``: not
    read here."""
    cell = h.card_cell(atom)
    if cell is None or within == agent:
        return None
    loc, x, j = cell
    if j != 1:
        return None
    public = public_places(h)
    owner = _shape(h, public)
    if owner is None:
        return None
    seen = set(h.owns.get(agent, ())) | {m for m, s in owner.items() if s == agent}
    if loc in seen or loc in public:
        return None
    hidden = [m for m in h.locations if m not in seen and m not in public]
    if len(hidden) > MAX_PLACES:
        return None
    voids: dict[str, set[int]] = {m: set() for m in h.locations}
    for st in h.steps:
        if st.kind == "count":
            for m in st.locations:
                voids[m] |= set(st.kinds)
    size = h.sizes()
    content = h.content()
    copies = h.deck.copies
    # every copy not at a public place, less the pinned ones, by kind (agent's included)
    free = Counter({k: c for k, c in enumerate(copies)})
    for m in public:
        free.subtract(Counter(h.deck.index(c) for c in content[m]))
    # groups: (places a card may lie at, kinds), the pinned copies apart
    groups: list[tuple[frozenset[str], frozenset[int], int]] = []
    for places, k, c in _pins(h, public):
        if places & seen:
            continue  # the agent sees where they are: its own cards
        allowed = frozenset(m for m in places if k not in voids[m] and not (k == x and m == loc))
        groups.append((allowed, frozenset(), c))
        free[k] -= c
    pattern: dict[frozenset[str], set[int]] = {}
    for k in range(len(copies)):
        allowed = frozenset(m for m in hidden if k not in voids[m] and not (k == x and m == loc))
        pattern.setdefault(allowed, set()).add(k)
    for allowed, kinds in pattern.items():
        groups.append((allowed, frozenset(kinds), sum(free[k] for k in kinds)))
    events = []
    for r in range(len(hidden) + 1):
        for chosen in combinations(hidden, r):
            room = sum(size[m] for m in chosen)
            inside = [g for g in groups if g[0] <= set(chosen)]
            most = sum(g[2] for g in inside)
            if most > room:
                events.append((frozenset().union(*(g[1] for g in inside)), most - room))
    return sorted(m for m in seen if m in h.locations), events


def _fewest(
    h: CardHistory, knowledge: Any, kinds: set[int], spots: list[str], *, enough: int | None = None
) -> int:
    """The fewest copies of ``kinds`` that ``spots`` hold together in ``knowledge``'s worlds
    (exact arithmetic: a world is never lost to rounding), or, when the cell bounds
    alone assure ``enough`` (:meth:`~games.deal.DealKnowledge.count_range`), that
    assured number without counting."""
    names = [h.deck.name(k) for k in sorted(kinds)]
    if enough is not None:
        least = knowledge.count_range(names, spots)[0]
        if least >= enough:
            return int(least)
    try:
        dist = knowledge.count_distribution(names, spots, exact=True)
    except SizeLimitError:  # too wide to count: none assured
        return 0
    return next(v for v, p in enumerate(dist) if p > 0)
