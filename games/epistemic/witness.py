"""Witness worlds: another history a seat cannot tell from the true one.

A formula ``M_a g`` ("seat ``a`` considers ``g`` possible") is shown by a
single world ``a`` considers possible where ``g`` holds.  This module builds
such worlds from the true history by *trading cards that never moved*: a
card that has lain at location ``M`` since the deal, seen neither by ``a``
nor by any public event, can change places with one that has lain at ``N``
all along, when every count of the history that covers just one of ``M`` and
``N`` treats their kinds alike.  The traded history (a new
:class:`~games.epistemic.history.CardHistory`, so every event is checked
again) gives ``a`` the same observations, so it is one of ``a``'s worlds, and
what another seat ``b`` knows there is read from ``b``'s exact counting in it.

:func:`witness_knowledge` looks for a world of ``a`` where ``b`` knows
``has(L, C#k)`` (the copies of ``C`` that can be traded go into ``b``'s hands,
so that ``b`` can pin the others at ``L``) or where ``b`` surely does not (the
copies ``b`` holds go elsewhere).  A world found is a proof (``M_a K_b`` or
``M_a ~K_b``), no world found proves nothing.

Cards that moved can trade *ways* instead (:func:`_ways_traded`: from a move on, a card
put down and one that stayed each go the other's way).  :func:`witness_followed` lets
the cards ``L`` put down, unseen by ``a`` and ``b``, be ones ``b`` knew lay at ``L`` and
carries them on until ``b`` sees them again; :func:`witness_carried` routes the card
itself through a place of ``b``'s and back to ``L``.  Each such world is kept only when
``a`` observes exactly what it observes in the true history.

Examples
--------
x holds A and B and puts one card on z's heap without looking (it was the B):

>>> from games.cards import Deck
>>> from games.epistemic.history import CardHistory, Move
>>> from kripke.formulas import Atom
>>> h = CardHistory(Deck(["A", "B", "C", "D"], [1, 2, 2, 1]),
...                 {"x": "A B", "y": "", "z": "C D", "pile": "B C"}, ["x", "y", "z"])
>>> h = h.then(Move("B", "x", "z", seen_by=[]))
>>> h.deal_state().knows("x", Atom("has", ("z", "B")))
False
>>> # had x been dealt the pile's B for its A, x would know; y cannot tell
>>> witness_knowledge(h, "y", "x", Atom("has", ("z", "B")), knows=True)
True
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from games.epistemic.history import CardHistory
from games.errors import GameError
from kripke.errors import SizeLimitError

#: Most further single trades :func:`witness_tracked` tries with
#: :func:`known_at_least` alone after the ones it also counts: each is a traded history
#: replayed and followed, a few milliseconds on a 52-card game.
TRACKED_TRIES = 24

__all__ = [
    "static_cards",
    "traded",
    "witness_knowledge",
    "follow_cards",
    "relabelled",
    "witness_tracked",
    "witness_absent",
    "known_at_least",
    "TRACKED_TRIES",
    "witness_rerouted",
    "witness_kept",
    "KEPT_TRIES",
    "witness_followed",
    "witness_carried",
    "FOLLOW_HOPS",
    "CARRIED_TRIES",
]


def static_cards(h: CardHistory, seat: str) -> dict[str, Counter[int]]:
    """For every location ``seat`` does not own, how many copies of each kind have lain
    there since the deal, never shown to ``seat`` or to everybody: the cards a
    trade may move without ``seat`` seeing a difference.

    A location revealed to ``seat`` (or to everybody) has none; a shown copy is
    kept out while the show needs it.
    """
    mine = set(h.owns.get(seat, ()))
    public = set(h.public_locations())
    cur = {m: Counter(h.initial[m]) for m in h.locations}
    low = {m: Counter(cur[m]) for m in h.locations if m not in mine and m not in public}

    def floor(m: str, less: Counter[int] | None = None) -> None:
        if m in low:
            for k in list(low[m]):
                low[m][k] = min(low[m][k], cur[m][k] - (less[k] if less else 0))

    for st in h.steps:
        sees = st.audience is None or seat in st.audience
        if st.kind in ("move", "all"):
            moved = Counter(st.kinds if st.kind == "move" else st.content)
            cur[st.src] -= moved
            cur[st.dst] += moved
            floor(st.src)
        elif st.kind == "reveal" and sees:
            low.pop(st.src, None)
        elif st.kind == "show":  # the shown copies must stay for the show to hold
            floor(st.src, Counter(st.kinds))
    return {m: +c for m, c in low.items()}


def _alike(h: CardHistory, m: str, n: str, p: int, q: int) -> bool:
    """Whether every count and fact of ``h`` stays true when a ``p`` at ``m`` and a ``q``
    at ``n`` trade places for the whole history (a count over just one of the two
    locations must hold both kinds or neither; no fact may name them)."""
    for st in h.steps:
        if st.kind == "count":
            ks = set(st.kinds)
            if (m in st.locations) != (n in st.locations) and (p in ks) != (q in ks):
                return False
        elif st.kind == "fact":
            named = {h.atom_cell(a)[1] for a in st.formula.atoms()}
            if p in named or q in named:
                return False
    return True


def traded(h: CardHistory, trades: list[tuple[str, int, str, int]]) -> CardHistory | None:
    """``h`` with the initial deal changed by ``trades`` (a ``p`` at ``m`` and a ``q`` at
    ``n`` change places, for each ``(m, p, n, q)``) and the same events, or ``None``
    when an event no longer fits the cards (checked as any history is)."""
    deal = {m: Counter(ks) for m, ks in h.initial.items()}
    for m, p, n, q in trades:
        deal[m][p] -= 1
        deal[m][q] += 1
        deal[n][q] -= 1
        deal[n][p] += 1
    if any(c < 0 for d in deal.values() for c in d.values()):
        return None
    initial = {m: [h.deck.name(k) for k in sorted(d.elements())] for m, d in deal.items()}
    try:
        return CardHistory(h.deck, initial, h.owns, h.events)
    except GameError:
        return None


@dataclass
class _Card:
    """One physical card followed through a history: its kind, where it lies now,
    whether seat ``a`` (or everybody) ever saw it, whether seat ``b`` did."""

    kind: int
    at: str
    seen_a: bool = False
    seen_b: bool = False
    #: the steps (indices in ``h.steps``) of the moves that carried it, in order
    moves: list[int] = field(default_factory=list)


def follow_cards(h: CardHistory, a: str, b: str, *, newest: bool = False) -> list[_Card]:
    """The physical cards of ``h``, each followed from the deal to now (copies of a kind
    are told apart by one fixed choice: a move takes the copies that came first, or with
    ``newest`` the ones that came last),
    with whether ``a`` or ``b`` ever saw it: at one of its locations, in an event
    it was in the audience of (or a public one), revealed or shown to it."""
    mine = {a: set(h.owns.get(a, ())), b: set(h.owns.get(b, ()))}
    cards: list[_Card] = []
    at: dict[str, list[int]] = {m: [] for m in h.locations}
    for m, ks in h.initial.items():
        for k in ks:
            at[m].append(len(cards))
            cards.append(_Card(k, m, m in mine[a], m in mine[b]))

    def mark(ids: list[int], aud: frozenset[str] | None) -> None:
        for i in ids:
            cards[i].seen_a |= aud is None or a in aud
            cards[i].seen_b |= aud is None or b in aud

    for t, st in enumerate(h.steps):
        if st.kind in ("move", "all"):
            if st.kind == "all":
                ids = list(at[st.src])
            else:
                ids, pool = [], list(at[st.src])
                for k in st.kinds:
                    i = next(i for i in (pool[::-1] if newest else pool) if cards[i].kind == k)
                    pool.remove(i)
                    ids.append(i)
            mark(ids, st.audience)
            for i in ids:
                at[st.src].remove(i)
                at[st.dst].append(i)
                cards[i].at = st.dst
                cards[i].moves.append(t)
                cards[i].seen_a |= st.dst in mine[a]
                cards[i].seen_b |= st.dst in mine[b]
        elif st.kind == "reveal":
            mark(list(at[st.src]), st.audience)
        elif st.kind == "show":
            pool = list(at[st.src])
            for k in st.kinds:  # any copy there may be the one shown: all of them count
                mark([i for i in pool if cards[i].kind == k], st.audience)
    return cards


def relabelled(h: CardHistory, swaps: list[tuple[int, int]], a: str, b: str) -> CardHistory | None:
    """``h`` with the physical cards of each pair ``(i, j)`` (numbered as
    :func:`follow_cards` numbers them) trading their kinds for the whole history:
    the deal and every event they are in (a show keeps its cards: it must still
    find them there).  ``None`` when an event no longer fits."""
    from games.epistemic.history import Move

    cards = follow_cards(h, a, b)
    kind = [c.kind for c in cards]
    for i, j in swaps:
        kind[i], kind[j] = kind[j], kind[i]
    initial: dict[str, list[str]] = {m: [] for m in h.locations}
    carried: dict[int, list[int]] = {}  # a move's step: the cards it took, in order
    n = 0
    for m, ks in h.initial.items():
        for _ in ks:
            initial[m].append(h.deck.name(kind[n]))
            for t in cards[n].moves:
                carried.setdefault(t, []).append(n)
            n += 1
    events = [
        replace(e, cards=tuple(h.deck.name(kind[i]) for i in sorted(carried[t])))
        if isinstance(e, Move)
        else e
        for t, e in enumerate(h.events)
    ]
    try:
        return CardHistory(h.deck, initial, h.owns, events)
    except GameError:
        return None


def _sees_kinds(st: Any, b: str) -> bool:
    """Whether seat ``b`` sees which cards step ``st`` moved or showed (its audience;
    cards that come into one of its locations unseen are not seen)."""
    return st.audience is None or b in st.audience


def _most_put_down(h: CardHistory, i: int, b: str, x: int) -> int:
    """At most how many copies of kind ``x`` the cards move ``i`` put down hold, for all
    seat ``b`` sees: the cards are followed while their place moves whole (a pile
    gathered, picked up) until ``b`` sees all of it (a reveal, a pickup it sees);
    then at most the copies seen there, else as many as the cards."""
    n = len(h.steps[i].kinds)
    where = h.steps[i].dst
    for st in h.steps[i + 1 :]:
        if st.kind == "move" and st.src == where:
            return n  # some of them may have left: not followed
        if st.kind == "all" and st.src == where:
            if _sees_kinds(st, b):
                return min(n, st.content.count(x))
            where = st.dst
        elif st.kind == "reveal" and st.src == where and _sees_kinds(st, b):
            return min(n, st.content.count(x))
    return n


def known_at_least(h: CardHistory, b: str, loc: str, x: int) -> int:
    """At least how many copies of kind ``x`` lie at ``loc`` in every world seat ``b``
    considers possible (``b`` knows ``has(loc, x#k)`` for every ``k`` up to it): a
    lower bound, from what ``b`` saw alone.

    The copies ``b`` saw are followed as a number per place: exactly at the events
    that show ``b`` which cards moved (its audience, public ones)
    and at reveals it sees; at a move it did not see, of ``n`` of a place's ``s``
    cards, at least the copies beyond ``s - n`` went and at least those beyond the
    most the cards put down can hold stayed (:func:`_most_put_down`: when ``b`` later
    saw all of the place they went to, at most the copies it saw there).  Counts,
    facts and shows to others are not read (the bound only gets lower).

    Examples
    --------
    x gives its two As to y face down; y puts one card down, unseen by x, that
    x sees again in the pile it picks up (a B):

    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move, MoveAll
    >>> h = CardHistory(Deck(["A", "B"], [2, 2]), {"x": "A A", "y": "B B", "pile": ""},
    ...                 ["x", "y"])
    >>> h = h.then(Move("A A", "x", "y", seen_by=["x", "y"]),
    ...            Move("B", "y", "pile", seen_by=["y"]))
    >>> known_at_least(h, "x", "y", 0)          # the card put down may be an A
    1
    >>> known_at_least(h.then(MoveAll("pile", "x", seen_by=["x"])), "x", "y", 0)
    2
    """
    mine = set(h.owns.get(b, ()))
    public = set(h.public_locations())
    size = {m: len(h.initial[m]) for m in h.locations}
    low = {m: h.initial[m].count(x) if m in mine or m in public else 0 for m in h.locations}
    for i, st in enumerate(h.steps):
        if st.kind in ("move", "all"):
            n = len(st.kinds) if st.kind == "move" else size[st.src]
            before = low[st.src]
            if _sees_kinds(st, b):
                went = (st.kinds if st.kind == "move" else st.content).count(x)
                low[st.src] = max(0, before - went)
                low[st.dst] += went
            else:
                stay = 0 if st.kind == "all" else _most_put_down(h, i, b, x)
                low[st.src] = max(0, before - stay) if st.kind == "move" else 0
                low[st.dst] += max(0, before - (size[st.src] - n))
            size[st.src] -= n
            size[st.dst] += n
        elif st.kind == "reveal" and _sees_kinds(st, b):
            low[st.src] = st.content.count(x)
        elif st.kind == "show" and _sees_kinds(st, b):
            low[st.src] = max(low[st.src], st.kinds.count(x))
    return low[loc]


def witness_tracked(h: CardHistory, a: str, b: str, atom: Any, *, tries: int = 3) -> bool:
    """Whether a world ``a`` considers possible was found where ``b`` knows
    ``has(L, C)`` because cards ``b`` saw go to ``L`` (its own plays, picked up there)
    were copies of ``C``: such cards and copies of ``C`` (``b`` saw none of them first, then
    its own), none ever seen by ``a``,
    trade kinds for the whole history (:func:`relabelled`), and ``b``'s exact counting
    in that history knows the atom.  ``True`` is a proof of ``M_a K_b has(L, C)``;
    ``False`` means none of the trades tried showed it (``tries`` single ones, then
    the latest two, three … such cards at once, ``2 * tries`` in all; then up to
    :data:`TRACKED_TRIES` further single trades).  ``b`` knows the atom in a traded
    history when :func:`known_at_least` follows a copy of ``C`` there (milliseconds;
    every trade tried), or when its exact counting knows it (the first ``2 * tries``:
    a counting that had to drop a constraint may not show it)."""
    cell = h.card_cell(atom)
    if a == b or cell is None or "#" in str(atom.args[1]):
        return False  # games.deal reads has(L, C), not "at least k copies" has(L, C#k)
    loc, x, _ = cell
    cards = follow_cards(h, a, b)
    tracked = [
        i for i, c in enumerate(cards) if c.at == loc and c.kind != x and c.seen_b and not c.seen_a
    ]
    spare = [i for i, c in enumerate(cards) if c.kind == x and not c.seen_a and not c.seen_b]
    spare += [i for i, c in enumerate(cards) if c.kind == x and not c.seen_a and c.seen_b]
    singles = [[(i, j)] for i in reversed(tracked) for j in spare]
    trials = singles[:tries]
    for k in range(2, min(len(tracked), len(spare)) + 1):  # several at once, latest first
        trials.append(list(zip(tracked[::-1][:k], spare[:k], strict=True)))
    trials = trials[: 2 * tries]
    trials += [t for t in singles[tries : tries + TRACKED_TRIES] if t not in trials]
    for n, swaps in enumerate(trials):
        world = relabelled(h, swaps, a, b)
        if world is None:
            continue
        if known_at_least(world, b, loc, x) >= 1:
            return True
        if n >= 2 * tries:
            continue  # the further trades: the lower bound alone
        try:
            if world.seat_counting(b).knows(atom):
                return True
        except (GameError, SizeLimitError):
            continue
    return False


def _copies_here(
    h: CardHistory, b: str, atom: Any
) -> tuple[tuple[str, int, int], list[_Card], list[int]] | None:
    """The card atom's cell ``(L, C, k)``, the physical cards of ``h`` followed for seat
    ``b`` (:func:`follow_cards`) and the numbers of the copies of ``C`` at ``L`` now;
    ``None`` for an atom that is not about ``h``'s cards."""
    cell = h.card_cell(atom)
    if cell is None:
        return None
    cards = follow_cards(h, b, b)
    return cell, cards, [i for i, c in enumerate(cards) if c.at == cell[0] and c.kind == cell[1]]


def _to_leave(
    h: CardHistory, b: str, atom: Any
) -> tuple[str, int, list[_Card], list[int], int] | None:
    """For a trade that makes the card atom false: its place ``L`` and kind ``C``, the
    cards followed for ``b``, the copies of ``C`` at ``L`` and how many of them must
    leave; ``None`` for an atom not about the cards or false already (the caller's to
    see)."""
    found = _copies_here(h, b, atom)
    if found is None:
        return None
    (loc, x, j), cards, here = found
    need = len(here) - j + 1
    return None if need <= 0 else (loc, x, cards, here, need)


def witness_absent(h: CardHistory, b: str, atom: Any) -> bool:
    """Whether a world ``b`` considers possible was found where the card atom ``atom``
    (``has(L, C#k)``) is false, so that ``b`` does not know it: every copy of ``C``
    at ``L`` beyond ``k - 1`` that ``b`` never saw trades kinds, for the whole
    history (:func:`relabelled`), with a card of another kind elsewhere that ``b``
    never saw either, and the traded history still fits every event.  ``True`` is
    a proof; ``False`` means the one trade tried did not show it."""
    found = _copies_here(h, b, atom)
    if found is None:
        return False
    (loc, x, j), cards, here = found
    if len(here) < j:
        return False  # false already at the true history: the caller's to see
    mine = [i for i in here if not cards[i].seen_b]
    others = [i for i, c in enumerate(cards) if c.at != loc and c.kind != x and not c.seen_b]
    need = len(here) - j + 1
    if len(mine) < need or len(others) < need:
        return False
    world = relabelled(h, list(zip(mine[:need], others[:need], strict=True)), b, b)
    return world is not None and not world._holds_now(atom)


def witness_rerouted(h: CardHistory, b: str, atom: Any) -> bool:
    """Whether a world seat ``b`` considers possible was found where the card atom
    ``atom`` (``has(L, C#k)``) is false, so that ``b`` does not know it, by cards that
    trade ways: a copy of ``C`` at ``L`` and a card of another kind that ``L`` put down
    after the copy came in, at a move ``b`` did not see; from that move on each goes
    the other's way (the copy is put down and goes wherever the card went, the card
    stays at ``L``), for as many copies as must leave.  The traded history is checked
    as any history is, and kept only when ``b`` observes exactly what it observes in
    ``h`` (the explicit model's observations, every event) and fewer than ``k``
    copies are left at ``L``: ``True`` is a proof, ``False`` means the trades tried
    (the latest moves first, then the earliest; then those of :func:`witness_kept`)
    did not show it.

    Unlike :func:`witness_absent` the copies may have been seen by ``b`` before the
    move: the cards put down may since have been picked up and played on, as long as
    ``b`` never sees them again.

    Examples
    --------
    x saw its A go to y; y put a card down face down, which z picked up:

    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move, MoveAll
    >>> from kripke.formulas import Atom
    >>> h = CardHistory(Deck(["A", "B", "C"], [2, 2, 2]),
    ...                 {"x": "A B", "y": "B C", "z": "A C", "pile": ""}, ["x", "y", "z"])
    >>> h = h.then(Move("A", "x", "y", seen_by=["x", "y"]),
    ...            Move("B", "y", "pile", seen_by=["y"]), MoveAll("pile", "z", seen_by=["z"]))
    >>> witness_rerouted(h, "x", Atom("has", ("y", "A")))     # y may have put the A down
    True
    >>> witness_rerouted(h, "y", Atom("has", ("y", "A")))     # y saw what it put down
    False
    """
    return _rerouted_later(h, b, atom) or witness_kept(h, b, atom)


def _rerouted_later(h: CardHistory, b: str, atom: Any) -> bool:
    """:func:`witness_rerouted`'s trades with a card ``L`` put down after the copy came in."""
    found = _to_leave(h, b, atom)
    if found is None:
        return False
    loc, x, cards, here, need = found
    carried: dict[int, list[int]] = {}
    for i, c in enumerate(cards):
        for t in c.moves:
            carried.setdefault(t, []).append(i)
    steps = h.steps
    options = []
    for i in here:
        came = cards[i].moves[-1] if cards[i].moves else -1
        options.append(
            [
                (t, p)
                for t in range(came + 1, len(steps))
                if steps[t].kind == "move" and steps[t].src == loc and not _sees_kinds(steps[t], b)
                for p in carried.get(t, [])
                if cards[p].kind != x
            ]
        )
    truth = _observed(h, b)
    for order in (reversed, list):
        used: set[int] = set()
        trades = []
        for i, opts in zip(here, options, strict=True):
            got = next(((t, p) for t, p in order(opts) if p not in used), None)
            if got is not None:
                used.add(got[1])
                trades.append((i, *got))
            if len(trades) == need:
                break
        if len(trades) < need:
            return False
        world = _ways_traded(h, cards, trades)
        if world is not None and not world._holds_now(atom) and _observed(world, b) == truth:
            return True
    return False


def _observed(h: CardHistory, b: str) -> tuple[Any, ...]:
    """Everything seat ``b`` observes in ``h``, as the explicit model reads it (its
    locations at the deal, then every event's token)."""
    from games.epistemic.explicit import _true_history

    return _true_history(h)[1][h.agents.index(b)]


def _ways_traded(
    h: CardHistory, cards: list[_Card], trades: list[tuple[int, int, int]]
) -> CardHistory | None:
    """``h`` where, for each ``(i, t, p)``, the physical cards ``i`` and ``p`` (numbered
    as :func:`follow_cards` numbers them) trade kinds on every move from step ``t`` on
    (``p`` was put down at ``t``, ``i`` stayed): the deal is the same.  ``None`` when
    an event no longer fits."""
    from games.epistemic.history import Move

    moved = [  # the kinds' names (an event may give its cards as one string)
        [h.deck.name(k) for k in st.kinds] if isinstance(e, Move) else None
        for e, st in zip(h.events, h.steps, strict=True)
    ]
    for i, t, p in trades:
        a, c = h.deck.name(cards[i].kind), h.deck.name(cards[p].kind)
        for u in cards[p].moves:  # a whole place moved (MoveAll) names no cards
            got = moved[u]
            if u >= t and u not in cards[i].moves and got is not None:
                got[got.index(c)] = a
        for u in cards[i].moves:
            got = moved[u]
            if u > t and u not in cards[p].moves and got is not None:
                got[got.index(a)] = c
    events = [
        replace(e, cards=tuple(m)) if m is not None and isinstance(e, Move) else e
        for e, m in zip(h.events, moved, strict=True)
    ]
    initial = {m: [h.deck.name(k) for k in ks] for m, ks in h.initial.items()}
    try:
        return CardHistory(h.deck, initial, h.owns, events)
    except GameError:
        return None


def witness_knowledge(h: CardHistory, a: str, b: str, atom: Any, *, knows: bool) -> bool:
    """Whether a world ``a`` considers possible was found where ``b`` knows the card
    atom ``atom`` (``knows=True``) or surely does not know it (``knows=False``, read
    from exact counting only): ``True`` is a proof, ``False`` means none was found.

    One history is tried (the true one is the caller's to ask): the copies of
    ``C`` that can be traded moved into ``b``'s locations (``knows=True``), or
    out of them to places other than ``L`` (``knows=False``), each for a
    static card there that the counts treat alike.
    """
    cell = h.card_cell(atom)
    if a == b or cell is None or "#" in str(atom.args[1]):
        return False  # games.deal reads has(L, C), not "at least k copies" has(L, C#k)
    loc, x, _ = cell
    static = static_cards(h, a)
    theirs = [m for m in h.owns.get(b, ()) if m in static]
    trades: list[tuple[str, int, str, int]] = []
    if knows:  # copies of C lying elsewhere go to b
        sources = [m for m in static if m != loc and m not in theirs]
        for m in sources:
            for _ in range(static[m][x]):
                got = _partner(h, static, m, x, theirs, avoid=x)
                if got is None:
                    break
                trades.append(got)
    else:  # b's copies of C go elsewhere
        for n in theirs:
            for _ in range(static[n][x]):
                others = [m for m in static if m not in theirs and m != loc]
                got = _partner(h, static, n, x, others, avoid=x)
                if got is None:
                    break
                trades.append(got)
    world = traded(h, trades) if trades else None
    if world is None:
        return False
    if knows and known_at_least(world, b, loc, x) >= 1:
        return True
    try:
        kn = world.seat_counting(b)
    except GameError:  # a fact: counting does not take the history
        return False
    try:
        got = kn.knows(atom)
    except SizeLimitError:  # too wide to count: no proof
        return False
    return bool(got) if knows else not got and kn.exact


def _partner(
    h: CardHistory,
    static: dict[str, Counter[int]],
    m: str,
    p: int,
    places: list[str],
    *,
    avoid: int,
) -> tuple[str, int, str, int] | None:
    """A trade of one static ``p`` at ``m`` for a static card of another kind at one of
    ``places`` that the counts treat alike; the static counts are used up."""
    for n in places:
        for q, c in sorted(static[n].items()):
            if c > 0 and q != avoid and _alike(h, m, n, p, q):
                static[m][p] -= 1
                static[n][q] -= 1
                return (m, p, n, q)
    return None


#: Most moves :func:`witness_followed` edits to carry one card on to seat ``b``'s sight.
FOLLOW_HOPS = 6


def witness_followed(h: CardHistory, a: str, b: str, atom: Any) -> bool:
    """Whether a world ``a`` considers possible was found where ``b`` knows the card atom
    ``atom`` (``has(L, C#k)``) because every card ``L`` put down unseen by both after the
    copies came in is one ``b`` knew lay at ``L`` and sees again later: ``True`` is a
    proof of ``M_a K_b has(L, C#k)``, ``False`` means the world tried did not show it.

    At each move out of ``L`` neither seat saw, the cards put down trade ways
    (:func:`_ways_traded`) with cards ``L`` held that ``b`` knew were there
    (:func:`known_at_least` of the history up to the move); each such card is then
    carried on, one later move out of its place that ``a`` did not see at a time, until
    ``b`` sees it (at most :data:`FOLLOW_HOPS` moves).  Had ``L`` put down a copy of ``C``
    there, ``b`` would miss a card it saw at ``L``.  The world is kept only when it fits
    every event, ``a`` observes in it exactly what it observes in ``h`` (the explicit
    model's observations) and ``b`` knows the atom there (:func:`known_at_least`, or
    ``b``'s counting, which knows only what holds in every world it keeps).

    Examples
    --------
    w takes the E y put down and the D everybody saw; w puts a card down (the A), x picks
    it up and puts its C down, y picks that up:

    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move, MoveAll, Reveal
    >>> from kripke.formulas import Atom
    >>> h = CardHistory(Deck(list("ABCDEFG")), {"w": "A B", "x": "C D", "y": "E F",
    ...                 "z": "G", "play": "", "pile": ""}, ["w", "x", "y", "z"])
    >>> h = h.then(Move("E", "y", "pile", seen_by=["y"]), MoveAll("pile", "w", seen_by=["w"]),
    ...            Move("D", "x", "play", seen_by=["x"]), Reveal("play"),
    ...            MoveAll("play", "w", seen_by=["w"]), Move("A", "w", "pile", seen_by=["w"]),
    ...            MoveAll("pile", "x", seen_by=["x"]), Move("C", "x", "pile", seen_by=["x"]),
    ...            MoveAll("pile", "y", seen_by=["y"]))
    >>> h.seat_counting("y").knows(Atom("has", ("w", "D")))    # w may have put the D down
    False
    >>> # had w put the E down and x passed it on, y would know: z cannot tell
    >>> witness_followed(h, "z", "y", Atom("has", ("w", "D")))
    True
    """
    cell = h.card_cell(atom)
    if a == b or cell is None or cell[0] in h.owns.get(b, ()) or "#" in str(atom.args[1]):
        return False
    loc, x, _ = cell
    truth = _observed(h, a)
    world = h
    came = max(
        (
            c.moves[-1] if c.moves else -1
            for c in follow_cards(h, a, b)
            if c.kind == x and c.at == loc
        ),
        default=-1,
    )
    for t in range(came + 1, len(h.steps)):
        st = world.steps[t]
        if st.kind != "move" or st.src != loc or _sees_kinds(st, a) or _sees_kinds(st, b):
            continue
        got = _shown_instead(world, a, b, t, x, truth)
        if got is None:
            return False
        world = got
    return _knows_there(world, a, b, atom, truth)


def _places(h: CardHistory, cards: list[_Card], t: int) -> list[str]:
    """Where each physical card of ``h`` (numbered as :func:`follow_cards` numbers them)
    lay before step ``t``."""
    out = [m for m, ks in h.initial.items() for _ in ks]
    for i, c in enumerate(cards):
        for u in c.moves:
            if u < t:
                out[i] = h.steps[u].dst
    return out


def _shown_instead(
    h: CardHistory, a: str, b: str, t: int, x: int, truth: tuple[Any, ...]
) -> CardHistory | None:
    """``h`` where each card move ``t`` put down that ``b`` did not know lay at its source
    trades ways with a card there that ``b`` knew of (not a copy of kind ``x``), which is
    then carried on until ``b`` sees it, ``a`` observing ``truth`` throughout (the first
    such card that fits is kept); ``None`` when no card fits one of them."""
    before = h.prefix(t)
    src = h.steps[t].src
    known = {
        q for q in range(len(h.deck.copies)) if q != x and known_at_least(before, b, src, q) >= 1
    }
    world: CardHistory | None = h
    while world is not None:
        cards = follow_cards(world, a, b)
        where = _places(world, cards, t)
        p = next(
            (
                p
                for p, c in enumerate(cards)
                if t in c.moves and c.kind not in known and not _seen_after(world, b, c, t)
            ),
            None,
        )
        if p is None:
            return world
        stayers = [
            r
            for r, c in enumerate(cards)
            if where[r] == src and t not in c.moves and c.kind in known and c.kind != cards[p].kind
        ]
        world = next(
            (w for r in stayers if (w := _carried(world, cards, a, b, r, t, p, truth)) is not None),
            None,
        )
    return None


def _carried(
    h: CardHistory, cards: list[_Card], a: str, b: str, r: int, t: int, p: int, truth: Any
) -> CardHistory | None:
    """``h`` where card ``r`` goes card ``p``'s way from move ``t`` on, carried on until
    ``b`` sees it, when ``a`` still observes ``truth``; else ``None``."""
    kind = cards[r].kind
    world = _ways_traded(h, cards, [(r, t, p)])
    start = t
    for _ in range(FOLLOW_HOPS):
        if world is None:
            return None
        got = _carried_on(world, a, b, kind, start)
        if got is True:
            return world if _observed(world, a) == truth else None
        if got is None:
            return None
        world, start = got
    return None


def _seen_after(h: CardHistory, b: str, card: _Card, t: int) -> bool:
    """Whether seat ``b`` sees ``card`` after step ``t`` (a move of it in ``b``'s audience or
    to a place of ``b``'s, a reveal of its place to ``b``)."""
    mine = set(h.owns.get(b, ()))
    place = h.steps[t].dst
    for u in range(t + 1, len(h.steps)):
        st = h.steps[u]
        if place in mine or st.kind == "reveal" and st.src == place and _sees_kinds(st, b):
            return True
        if u in card.moves:
            if _sees_kinds(st, b):
                return True
            place = st.dst
    return place in mine


def _carried_on(h: CardHistory, a: str, b: str, kind: int, t: int) -> Any:
    """The card of kind ``kind`` that move ``t`` put down (no copies), followed: ``True``
    when ``b`` sees it later (a move or reveal in its audience, a place of ``b``'s), else
    ``h`` with the next move out of its place that ``a`` did not see carrying it (it trades
    ways with a card put down there) and that move's step; ``None`` when there is none."""
    cards = follow_cards(h, a, b)
    mine = set(h.owns.get(b, ()))
    found = [i for i, c in enumerate(cards) if c.kind == kind and t in c.moves]
    if len(found) != 1:
        return None
    r = found[0]
    place = h.steps[t].dst
    for u in range(t + 1, len(h.steps)):
        st = h.steps[u]
        if place in mine:
            return True
        if st.kind == "reveal" and st.src == place and _sees_kinds(st, b):
            return True
        if st.kind not in ("move", "all") or st.src != place:
            continue
        if u in cards[r].moves:
            if _sees_kinds(st, b):
                return True
            place = st.dst
            continue
        if st.kind == "all" or _sees_kinds(st, a):
            continue
        p = next((p for p, c in enumerate(cards) if u in c.moves and c.kind != kind), None)
        if p is None:
            return None
        world = _ways_traded(h, cards, [(r, u, p)])
        return None if world is None else (world, u)
    return True if place in mine else None


#: Most candidate worlds :func:`witness_carried` checks in full (each replays the history
#: for ``a``'s observations and counts ``b``'s knowledge).
CARRIED_TRIES = 8


def witness_carried(h: CardHistory, a: str, b: str, atom: Any) -> bool:
    """Whether a world ``a`` considers possible was found where ``b`` knows the card atom
    ``atom`` (``has(L, C)``) because ``b`` itself carried the card to ``L``: ``True`` is a
    proof of ``M_a K_b has(L, C)``, ``False`` means none of the worlds tried showed it.

    A copy of ``C`` at ``L`` trades ways (:func:`_ways_traded`) with a card ``L`` put down
    after the copy came in, at a move ``a`` did not see, that later came into a place of
    ``b``'s; from there it trades ways again with a card ``b``'s place put down, unseen by
    ``a``, that lies at ``L`` now.  ``b`` saw the copy come in and go out to ``L``.  A world
    is kept only when it fits every event, ``a`` observes in it exactly what it observes
    in ``h`` (the explicit model's observations), the copy is at ``L`` and ``b`` knows it
    there (:func:`known_at_least`, or ``b``'s counting, which knows only what holds in
    every world it keeps); at most :data:`CARRIED_TRIES` worlds are checked.
    """
    cell = h.card_cell(atom)
    if a == b or cell is None or "#" in str(atom.args[1]):
        return False
    loc, x, _ = cell
    mine = set(h.owns.get(b, ()))
    if loc in mine:
        return False
    truth: tuple[Any, ...] | None = None
    cards = follow_cards(h, a, b)
    steps = h.steps
    tries = 0
    for ci in (i for i, c in enumerate(cards) if c.kind == x and c.at == loc):
        came = cards[ci].moves[-1] if cards[ci].moves else -1
        for t1 in range(came + 1, len(steps)):
            st = steps[t1]
            if st.kind != "move" or st.src != loc or _sees_kinds(st, a):
                continue
            for p in (p for p, c in enumerate(cards) if t1 in c.moves and c.kind != x):
                arrive = next((u for u in cards[p].moves if u > t1 and steps[u].dst in mine), None)
                if arrive is None:
                    continue
                first = _ways_traded(h, cards, [(ci, t1, p)])
                if first is None:
                    continue
                for world in _carried_back(first, a, b, ci, arrive, loc, x):
                    if tries >= CARRIED_TRIES:
                        return False
                    tries += 1
                    truth = truth or _observed(h, a)
                    if _knows_there(world, a, b, atom, truth):
                        return True
    return False


def _carried_back(h: CardHistory, a: str, b: str, ci: int, arrive: int, loc: str, x: int) -> Any:
    """The worlds where card ``ci``, at a place of ``b``'s after step ``arrive``, trades
    ways with a card put down from there unseen by ``a`` that lies at ``loc`` now."""
    cards = follow_cards(h, a, b)
    place = h.steps[arrive].dst
    here = _places(h, cards, arrive + 1)[ci]  # where the card lies, step by step
    later = iter(u for u in cards[ci].moves if u > arrive)
    nxt = next(later, None)
    for t2 in range(arrive + 1, len(h.steps)):
        st = h.steps[t2]
        while nxt is not None and nxt < t2:
            here = h.steps[nxt].dst
            nxt = next(later, None)
        if here != place:
            return
        if st.kind != "move" or st.src != place or _sees_kinds(st, a) or t2 in cards[ci].moves:
            continue
        for p in (p for p, c in enumerate(cards) if t2 in c.moves and c.at == loc and c.kind != x):
            world = _ways_traded(h, cards, [(ci, t2, p)])
            if world is not None:
                yield world


def _knows_there(world: CardHistory, a: str, b: str, atom: Any, truth: tuple[Any, ...]) -> bool:
    """Whether ``world`` is one of ``a``'s worlds (``a`` observes ``truth`` there) where ``b``
    knows the card atom ``atom`` (:func:`known_at_least`, or ``b``'s counting)."""
    if not world._holds_now(atom) or _observed(world, a) != truth:
        return False
    loc, x, j = world.atom_cell(atom)
    if known_at_least(world, b, loc, x) >= j:
        return True
    try:
        return bool(world.seat_counting(b).knows(atom))
    except (GameError, SizeLimitError):
        return False


#: Most worlds :func:`witness_kept` builds and checks for one atom (each a traded
#: history replayed and read for the seat's observations, a few milliseconds on a
#: 52-card game).
KEPT_TRIES = 16


def _places_before(h: CardHistory, cards: list[_Card]) -> list[dict[int, str]]:
    """By physical card (numbered as :func:`follow_cards` numbers them), where it lay
    just before every move of cards: ``{step: location}`` for each step ``t`` that is
    a move."""
    steps = h.steps
    start: list[str] = [m for m, ks in h.initial.items() for _ in ks]
    out: list[dict[int, str]] = []
    for n, c in enumerate(cards):
        at, moves, mine = start[n], iter(c.moves), {}
        nxt = next(moves, None)
        for t, st in enumerate(steps):
            if st.kind == "move":
                mine[t] = at
            if t == nxt:
                at = st.dst
                nxt = next(moves, None)
        out.append(mine)
    return out


def witness_kept(h: CardHistory, b: str, atom: Any) -> bool:
    """Whether a world seat ``b`` considers possible was found where the card atom
    ``atom`` (``has(L, C#k)``) is false, so that ``b`` does not know it, by a place that
    kept the copy: a copy of ``C`` now at ``L`` was put down, at a move ``b`` did not
    see the cards of, from a place that kept another card then; in the world that
    place put the other card down and kept the copy, each going the other's way from
    that move on (:func:`_ways_traded`), for as many copies as must leave ``L``.  The
    traded history is checked as any history is and kept only when ``b`` observes
    exactly what it observes in ``h`` (the explicit model's observations) and fewer
    than ``k`` copies are left at ``L``: ``True`` is a proof, ``False`` means the
    worlds tried (the copies' latest moves first, at most :data:`KEPT_TRIES`) did not
    show it.

    :func:`witness_rerouted` trades a copy with a card ``L`` put down after the copy
    came in; here the copy trades with a card left behind where it came from.

    Examples
    --------
    y put one of its two cards face down and a seat took the pile:

    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move, MoveAll
    >>> from kripke.formulas import Atom
    >>> h = CardHistory(Deck(["A", "B", "C"]), {"x": "C", "y": "A B", "pile": ""}, ["x", "y"])
    >>> h = h.then(Move("A", "y", "pile", seen_by=["y"]), MoveAll("pile", "x", seen_by=["x"]))
    >>> witness_kept(h, "x", Atom("has", ("x", "A")))   # x sees its hand: it knows
    False
    >>> h2 = CardHistory(Deck(["A", "B", "C"]), {"x": "C", "y": "A B", "z": "", "pile": ""},
    ...                  ["x", "y", "z"])
    >>> h2 = h2.then(Move("A", "y", "pile", seen_by=["y"]), MoveAll("pile", "z", seen_by=["z"]))
    >>> witness_kept(h2, "x", Atom("has", ("z", "A")))   # z took it, but y may have kept it
    True
    """
    found = _to_leave(h, b, atom)
    if found is None:
        return False
    loc, x, cards, here, need = found
    steps = h.steps
    places = _places_before(h, cards)
    options: list[list[tuple[int, int]]] = []
    for i in here:
        opts: list[tuple[int, int]] = []
        for t in reversed(cards[i].moves):
            st = steps[t]
            if st.kind != "move" or _sees_kinds(st, b):
                continue
            opts.extend(
                (t, p)
                for p, c in enumerate(cards)
                if c.kind != x and places[p].get(t) == st.src and t not in c.moves
            )
        options.append(opts)
    truth = _observed(h, b)
    tries = 0
    for first in range(max((len(o) for o in options), default=0)):
        used: set[int] = set()
        trades = []
        for i, opts in zip(here, options, strict=True):
            got = next(((t, p) for t, p in opts[first:] + opts[:first] if p not in used), None)
            if got is not None:
                used.add(got[1])
                trades.append((got[1], got[0], i))
            if len(trades) == need:
                break
        if len(trades) < need:
            return False
        tries += 1
        world = _ways_traded(h, cards, trades)
        if world is not None and not world._holds_now(atom) and _observed(world, b) == truth:
            return True
        if tries >= KEPT_TRIES:
            break
    return False
