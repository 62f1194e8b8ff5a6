"""The kind quotient: the explicit model of a card history over a deck with copies, up to symmetry.

Copies of a card cannot be told apart (every agent observes how many
copies of a card it sees, never which), and a card *kind* no public event
names (no face-up move, public reveal or show, count or fact mentions it,
it starts in no public location) and no formula mentions is *anonymous*:
permuting the anonymous kinds with the same number of copies maps the
history model to itself.  The quotient by these permutations answers every
formula over the named kinds exactly as the explicit model
(:func:`~games.epistemic.explicit.explicit_model`) does.

A state of the quotient holds, for each named kind, its *kind type*: how
many of its copies every location holds and, for every agent the formulas
mention, how many copies of it that agent saw at each event it observed
(its own locations at the deal, a hidden move, pile or show it saw); and,
for the anonymous kinds, how many have each kind type (a multiset).  Agent
*a* cannot tell two states apart when every named kind has the same
*a*-record in both and the multisets of ``(copies, a-record)`` of the
anonymous kinds are equal (a permutation of the anonymous kinds of equal
copies then makes the two representatives agree on everything *a* saw);
distributed knowledge of a group uses the joint records of its agents.
Counting how many copies an agent saw, not which ones, is exact because
the copies of a kind are interchangeable in every observation.

The states come from one forward pass over the simplified events
(:func:`~games.epistemic.symbolic.simplify_steps`) with equal states
merged; at the end the locations of the kinds no formula mentions are
dropped.  Copies of anonymous kinds that no tracked agent has seen yet are
*floating*: the pass keeps only how many each location holds and gives
them kinds when a tracked agent sees them (deferred decisions, see
:class:`_KindPass`), so the deal does not spread the anonymous kinds over
the hands nobody tracked sees.  A kind that only moves, reveals and shows
name (not the formula, a count, a fact or a public location at the start)
stays anonymous until the first public event that mentions it, as a card
does in the card-symmetry quotient: until then it is interchangeable with
every anonymous kind of its kind type, so it takes each distinct one in turn,
and its floating copies take locations among the floating cards then.  The
*local* kind quotient
(:func:`local_kind_holds`) keeps, as the local card-symmetry quotient does,
one pass per word of steps of the formula, each tracking only the agents of
its last letter and the letters after it and keeping only the histories
whose views so far the previous word met.

What grows is the pass of the tracked agents' own hands and plays: every
hand a tracked seat may hold (up to the symmetries) and every choice of
cards at its hidden plays.  Measured (``K_a ~K_b has(c, X)`` on 52-card
koth, 13 ranks of 4 copies): at the deal the local kind quotient answers
in 2-3 s; after 8 plays (6 hidden) its pass exceeds 100,000 states
(:class:`~kripke.errors.SizeLimitError` naming the count).  The states
are the views of the formula's seats: after a hidden play of the last seat
(``b`` in ``K_a ~K_b``) every choice of its cards is another view of ``b``
within ``a``'s class (koth seed 0 after 8 plays: 37,705 states, then
622,289 after ``b``'s face-down play of two cards).  Full Shengji decks (54
kinds of 2 copies) name most kinds through face-up plays; named only from
their first play on, ZPY (5 seats, seed 0, 8 plays) has 1,330 states at the
deal (before: refused, 11 named kinds spread over the hands in up to 3.5e14
ways), and 73,015 once the declarer (tracked) takes the kitty; the voids
(counts of a whole suit) still name their kinds at the deal.

Those kinds are spread only over the placements their later public events leave
(:func:`_viable`: a card played face up from a hand was there, a void holds none,
each kind alone, backwards from the end), a deal whose kinds cannot fill or would
overfill a location at one of a few later times is cut as it is dealt, a hidden
move keeps every named kind at a viable placement, and a kitty the declarer takes
unseen by the tracked seats is dealt as part of the declarer's hand
(:attr:`_KindPass.merged`).  ZPY seed 1 after 80 plays (54 named kinds, refused
at up to 2.5e71 ways): 54 states at the deal, 90 at the end, 1.5 s CPU for the query.  Where a
seat's own hand is far from known to the other the quotient stays large: BS-ZPY
seed 0 after 72 plays, 3,000 draws of P4's worlds show 3,000 different hands of
P0, every one another state of ``K_P4 ~K_P0``.

Examples
--------
>>> from games.cards import Deck
>>> from games.epistemic.history import CardHistory, Move
>>> h = CardHistory(Deck(["A", "B"], [2, 2]), {"x": "A B", "y": "A B", "pile": ""},
...                 ["x", "y"])
>>> h = h.then(Move("A", "x", "pile", seen_by=["x"]))
>>> q = kind_quotient(h, ["A"])
>>> q.holds("K_x has(pile, A) & ~K_y has(pile, A) & K_y has(y, A)")
True
>>> q.holds("K_y (has(pile, A) -> ~has(x, A#2))")
True
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from math import comb
from typing import Any

from games.deal.formulas import evaluate
from games.epistemic.history import CardHistory, _Step, card_key
from games.epistemic.quotient import (
    MAX_STATES,
    QuotientModel,
    _compositions,
    _group_name,
    _members,
    _next_letters,
    _partition_model,
    _public_kinds,
    _watched,
    _WordModel,
)
from games.epistemic.reading import read_formula
from games.errors import InvalidParameterError

__all__ = ["kind_quotient", "kind_holds", "local_kind_holds", "named_kinds"]

#: One agent's record of one kind: ``(event, copies seen)`` in time order
#: (the deal's events are ``-1 - location``).
Record = tuple[tuple[int, int], ...]
#: A kind type: tracked copies per location, one record per tracked agent, and
#: floating copies (not seen by a tracked agent yet, see :class:`_KindPass`).
KindType = tuple[tuple[int, ...], tuple[Record, ...], int]
#: The kind quotient refuses at once when its named kinds alone (each spread over
#: the hands, the hands' sizes ignored) exceed this many times its limit: a Shengji
#: deck after a few tricks names dozens of kinds.
SPREAD_FACTOR = 100

KState = tuple[tuple[KindType, ...], tuple[tuple[KindType, int], ...], tuple[int, ...]]
#: A kind's copies per location: :func:`_viable` gives up on a kind with more
#: placements than this (it is then never pruned).
MAX_PLACEMENTS = 20_000


def _sizes(
    h: CardHistory, steps: Sequence[_Step], start: Sequence[int] | None = None
) -> list[tuple[int, ...]]:
    """How many cards every location holds before each step and after the last (public:
    the same in every history), from ``start`` (default: the deal's sizes)."""
    cur = [len(h.initial[loc]) for loc in h.locations] if start is None else list(start)
    li = {loc: i for i, loc in enumerate(h.locations)}
    out = [tuple(cur)]
    for st in steps:
        if st.kind == "move":
            cur[li[st.src]] -= len(st.kinds)
            cur[li[st.dst]] += len(st.kinds)
        elif st.kind == "all" and st.src != st.dst:
            cur[li[st.dst]] += cur[li[st.src]]
            cur[li[st.src]] = 0
        out.append(tuple(cur))
    return out


def _viable(
    h: CardHistory,
    steps: Sequence[_Step],
    kinds: Iterable[int],
    start: Sequence[int] | None = None,
) -> dict[int, list[frozenset[tuple[int, ...]]]]:
    """For each of ``kinds``, by time ``t`` (``0..len(steps)``): the placements of its
    copies (copies per location, fitting every location's size) from which some run of
    its copies meets every later event, the other kinds ignored.

    A run meets an event when a face-up move, public show or public content has those
    copies where the event says, a count's upper bound holds for the kind alone, and a
    hidden move takes at most as many of them as cards it moves; facts and lower bounds
    are not read.  So every state of a history has its named kinds at viable
    placements: a pass may drop the others (they lead to no history), which is how the
    deal is spread only over the placements the later public events leave.  Kinds with
    more than :data:`MAX_PLACEMENTS` placements are left out.  ``start``: the sizes at
    the deal (default the history's; see :attr:`_KindPass.merged`)."""
    sizes = _sizes(h, steps, start)
    li = {loc: i for i, loc in enumerate(h.locations)}
    nloc = len(h.locations)
    out: dict[int, list[frozenset[tuple[int, ...]]]] = {}

    def fits(v: tuple[int, ...], t: int) -> bool:
        return all(x <= m for x, m in zip(v, sizes[t], strict=True))

    def moved(v: tuple[int, ...], a: int, b: int, r: int) -> tuple[int, ...]:
        w = list(v)
        w[a] -= r
        w[b] += r
        return tuple(w)

    done: dict[Any, list[frozenset[tuple[int, ...]]]] = {}
    for k in kinds:
        copies = h.deck.copies[k]
        if comb(copies + nloc - 1, nloc - 1) > MAX_PLACEMENTS:
            continue
        # two kinds of as many copies that the events name as often at the same times
        # have the same viable placements
        sig = (copies, tuple((t, n) for t, st in enumerate(steps) if (n := _named_by(st, k))))
        if sig in done:
            out[k] = done[sig]
            continue
        cur = frozenset(_compositions(copies, list(sizes[-1])))
        fs = [cur]
        for t in range(len(steps) - 1, -1, -1):
            st = steps[t]
            kind = st.kind
            prev: set[tuple[int, ...]] | frozenset[tuple[int, ...]]
            if kind in ("move", "all"):
                src, dst = li[st.src], li[st.dst]
                prev = set()
                for v in cur:
                    if kind == "all":  # every copy at src went to dst
                        if v[src] and src != dst:
                            continue
                        rs: Iterable[int] = range(v[dst] + 1) if src != dst else (0,)
                    elif st.audience is None:  # face up: exactly these copies
                        n = st.kinds.count(k)
                        rs = (n,) if v[dst] >= n else ()
                    else:
                        rs = range(min(v[dst], len(st.kinds)) + 1)
                    for r in rs:
                        u = moved(v, dst, src, r)
                        if kind == "all" and st.audience is None and u[src] != st.content.count(k):
                            continue
                        prev.add(u)
            elif kind == "reveal" and st.audience is None:
                src = li[st.src]
                prev = {v for v in cur if v[src] == st.content.count(k)}
            elif kind == "show" and st.audience is None and k in st.kinds:
                src = li[st.src]
                prev = {v for v in cur if v[src] >= st.kinds.count(k)}
            elif kind == "count" and k in st.kinds:
                locs = [li[x] for x in st.locations]
                m = st.kinds.count(k)
                prev = {v for v in cur if m * sum(v[x] for x in locs) <= st.hi}
            else:
                prev = cur
            if any(x != y for x, y in zip(sizes[t], sizes[t + 1], strict=True)) or prev is not cur:
                prev = frozenset(v for v in prev if fits(v, t))
            cur = prev  # type: ignore[assignment]
            fs.append(cur)
        fs.reverse()
        out[k] = done[sig] = fs
    return out


def _named_by(st: _Step, k: int) -> int:
    """How many copies of kind ``k`` step ``st`` names in a way :func:`_viable` reads
    (moved face up, shown or held publicly, counted); 0 for none."""
    if st.kind in ("all", "reveal") and st.audience is None:
        return st.content.count(k)
    if (st.kind in ("move", "show") and st.audience is None) or st.kind == "count":
        return st.kinds.count(k)
    return 0


def _runs(st: _Step, k: int, v: tuple[int, ...], li: dict[str, int]) -> Iterator[tuple[int, ...]]:
    """The placements of kind ``k``'s copies after step ``st`` from ``v`` (the other kinds
    ignored, as :func:`_viable` reads the events)."""
    kind = st.kind
    if kind == "move":
        src, dst = li[st.src], li[st.dst]
        if st.audience is None:
            n = st.kinds.count(k)
            rs: Iterable[int] = (n,) if v[src] >= n else ()
        else:
            rs = range(min(v[src], len(st.kinds)) + 1)
        for r in rs:
            w = list(v)
            w[src] -= r
            w[dst] += r
            yield tuple(w)
        return
    if kind in ("all", "reveal"):
        src = li[st.src]
        if st.audience is None and v[src] != st.content.count(k):
            return
        if kind == "all" and st.src != st.dst:
            w = list(v)
            w[li[st.dst]] += w[src]
            w[src] = 0
            yield tuple(w)
            return
    elif kind == "show" and st.audience is None:
        if v[li[st.src]] < st.kinds.count(k):
            return
    elif kind == "count" and k in st.kinds:
        if st.kinds.count(k) * sum(v[li[x]] for x in st.locations) > st.hi:
            return
    yield v


def _ranges(
    h: CardHistory,
    steps: Sequence[_Step],
    k: int,
    start: tuple[int, ...],
    viable: list[frozenset[tuple[int, ...]]],
    times: Sequence[int],
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The fewest and most copies of kind ``k`` each location can hold at each of
    ``times`` (sorted) when dealt as ``start`` (viable placements only)."""
    li = {loc: i for i, loc in enumerate(h.locations)}
    cur = {start}
    out = []
    t = 0
    for c in times:
        while t < c:
            cur = {w for v in cur for w in _runs(steps[t], k, v, li) if w in viable[t + 1]}
            t += 1
        out.append(
            (
                tuple(min(col) for col in zip(*cur, strict=True)),
                tuple(max(col) for col in zip(*cur, strict=True)),
            )
        )
    return out


def named_kinds(
    h: CardHistory, cards: Iterable[str] = (), steps: Iterable[_Step] = ()
) -> tuple[int, ...]:
    """The kinds of ``cards`` (``C`` or ``C#k``) and every kind a public event of ``h``
    (or of ``steps``) names or a public location holds at the start, sorted.

    Raises
    ------
    InvalidParameterError
        Naming a card that is not in the deck.

    Examples
    --------
    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Count
    >>> h = CardHistory(Deck(["A", "B", "C"], [2, 2, 1]), {"x": "A B C", "y": "A B"}, ["x", "y"])
    >>> [h.deck.name(k) for k in named_kinds(h.then(Count(["y"], "C", 0, 0)), ["A#2"])]
    ['A', 'C']
    """
    ks = set(_query_kinds(h, cards))
    for loc in h.public_locations():
        ks.update(h.initial[loc])
    for st in (*h.steps, *steps):
        ks.update(_public_kinds(h, st))
    return tuple(sorted(ks))


def _query_kinds(h: CardHistory, cards: Iterable[str]) -> tuple[int, ...]:
    """The kinds of ``cards`` (``C`` or ``C#k``), sorted, each once."""
    ks: set[int] = set()
    for c in cards:
        name = str(c).partition("#")[0]
        if name not in h.deck.names:
            raise InvalidParameterError(
                f"unknown card {str(c)!r}; the deck has {len(h.deck)} kinds, e.g. "
                f"{', '.join(h.deck.names[:4])}"
            )
        ks.add(h.deck.index(name))
    return tuple(sorted(ks))


def _splits(c: int, m: int, most: int) -> Iterator[tuple[int, ...]]:
    """Every ``(c_0, ..., c_m)`` with ``sum c_r == c`` and ``sum r * c_r <= most``:
    how many of ``c`` kinds give ``r`` of their ``m`` copies."""

    def rec(r: int, left: int, room: int) -> Iterator[tuple[int, ...]]:
        if r == 0:
            yield (left,)
            return
        for x in range(min(left, room // r) + 1):
            for rest in rec(r - 1, left - x, room - r * x):
                yield (*rest, x)

    return rec(m, c, most)


class _KindPass:
    """The forward pass of the kind quotient, merging equal states.

    A state is ``(named, anonymous, floating)``: the kind type of every named
    kind, the multiset of kind types of the anonymous kinds, and per location
    how many *floating* cards it holds: copies of anonymous kinds no tracked
    agent has seen yet.  A kind type is ``(tracked copies per location,
    records, floating copies)``; a floating copy gets a location only when a
    tracked agent sees it (then the pass branches over which anonymous kinds
    the seen cards are).  Floating cards can be permuted among themselves
    without changing anything a tracked agent saw, any public event or any
    formula over the named kinds, so every way of giving them kinds that
    fits the counts is a history (the principle of deferred decisions).

    ``named`` lists the kinds the states name in the order of their ``named``
    tuples: :attr:`eager` (the query's ``query``, the kinds of public
    locations at the start, those of counts and facts) from the deal on, the
    others from their first public event (:attr:`intro`, by step); with
    ``lazy=False`` every named kind is named at the deal.
    """

    def __init__(
        self,
        h: CardHistory,
        steps: list[_Step],
        named: Sequence[int],
        watch: Sequence[str],
        limit: int,
        query: Iterable[int] = (),
        *,
        lazy: bool = True,
        viable: dict[Any, dict[int, list[frozenset[tuple[int, ...]]]]] | None = None,
    ):
        self.h = h
        self.steps = steps
        self.limit = limit
        self.li = {loc: i for i, loc in enumerate(h.locations)}
        self.nloc = len(h.locations)
        self.watch = list(watch)
        self.cols = [
            [] if st.audience is None else [i for i, a in enumerate(self.watch) if a in st.audience]
            for st in steps
        ]
        #: locations dealt as one: ``x -> y`` when every card of ``x`` joins ``y`` unseen by
        #: the tracked agents before any event mentions either (a kitty a seat takes
        #: up): which of them held a card at the deal shows in no tracked record and
        #: no later state, so the pass deals ``x``'s cards to ``y`` and ``x`` holds none
        self.merged = self._merges(h, steps)
        self.size0 = [len(h.initial[loc]) for loc in h.locations]
        for x, y in self.merged.items():
            self.size0[y] += self.size0[x]
            self.size0[x] = 0
        #: by named kind, its viable placements by time (:func:`_viable`), from the
        #: deal's sizes with the merged locations (``viable`` is a cache by merges)
        cache: dict[Any, Any] = {} if viable is None else viable
        mkey = tuple(sorted(self.merged.items()))
        if mkey not in cache:
            cache[mkey] = _viable(h, steps, named, self.size0)
        self.viable = cache[mkey]
        # Kinds named at the deal: the query's, those of public locations at the start
        # and those a count or fact mentions; with ``lazy`` every other named kind stays
        # anonymous until the first public event that mentions it (see _introduce).
        eager = set(query) & set(named)
        for loc in h.public_locations():
            eager.update(h.initial[loc])
        first: dict[int, int] = {}
        for t, st in enumerate(steps):
            ks = _public_kinds(h, st)
            if st.kind in ("count", "fact"):
                eager.update(ks)
            for k in ks:
                first.setdefault(k, t)
        if not lazy:
            eager.update(named)
        eager &= set(named)
        late = sorted((first[k], k) for k in named if k not in eager)
        #: the named kinds in the order of the states' ``named`` tuples: those of the
        #: deal, then the others in the order public events first mention them
        self.named = sorted(eager) + [k for _, k in late]
        self.eager = sorted(eager)
        self.pos = {k: j for j, k in enumerate(self.named)}
        self.intro: dict[int, list[int]] = {}
        for t, k in late:
            self.intro.setdefault(t, []).append(k)
        public = set(h.public_locations())
        self.free = [self.li[loc] for loc in h.locations if loc not in public and h.initial[loc]]
        self.owned = [
            sorted(self.li[loc] for loc in h.owns[a] if self.li[loc] in self.free)
            for a in self.watch
        ]

    def _merges(self, h: CardHistory, steps: Sequence[_Step]) -> dict[int, int]:
        """The locations the pass deals as one (see :attr:`merged`).

        A public show from ``y`` before the join is allowed: some way of splitting the
        cards between ``x`` and ``y`` puts every card shown there in ``y`` exactly when
        ``x`` and ``y`` together hold each show (what the pass checks), as the cards
        shown fit in ``y`` (they were there)."""
        public = set(h.public_locations())
        mine = {loc for a in self.watch for loc in h.owns[a]}
        touched: set[str] = set()
        shown: set[str] = set()
        out: dict[int, int] = {}
        for t, st in enumerate(steps):
            if st.kind == "show" and st.audience is None:
                shown.add(st.src)
                continue
            if (
                st.kind == "all"
                and st.audience is not None
                and not self.cols[t]
                and st.src != st.dst
                and not ({st.src, st.dst} & (touched | public | mine))
                and st.src not in shown
                and h.initial[st.src]
                and h.initial[st.dst]
            ):
                out[self.li[st.src]] = self.li[st.dst]
            touched |= {st.src, st.dst, *st.locations} - {""}
            if st.kind == "fact":
                touched |= {h.atom_cell(a)[0] for a in st.formula.atoms()}
        return out

    def _too_many(self, n: int, what: str) -> None:
        from kripke.errors import SizeLimitError

        raise SizeLimitError(
            f"the kind quotient has more than {self.limit:,} states after {what} "
            f"({n:,} states); name fewer cards or use a shorter history"
        )

    @staticmethod
    def _rec(
        recs: tuple[Record, ...], cols: Sequence[int], slot: int, r: int
    ) -> tuple[Record, ...]:
        """``recs`` with ``r`` more copies seen at ``slot`` by the agents ``cols``."""
        if not r or not cols:
            return recs
        rl = list(recs)
        for i in cols:
            cur = rl[i]
            if cur and cur[-1][0] == slot:
                rl[i] = (*cur[:-1], (slot, cur[-1][1] + r))
            else:
                rl[i] = (*cur, (slot, r))
        return tuple(rl)

    def _shift(
        self, ty: KindType, rt: int, rf: int, src: int, dst: int, slot: int, cols: Sequence[int]
    ) -> KindType:
        """``rt`` tracked copies of ``src`` and ``rf`` floating ones go to ``dst`` (tracked
        from now on), seen at ``slot`` by the agents ``cols``."""
        locs, recs, fl = ty
        if (rt and src != dst) or rf:
            nl = list(locs)
            nl[src] -= rt
            nl[dst] += rt + rf
            locs = tuple(nl)
        return locs, self._rec(recs, cols, slot, rt + rf), fl - rf

    def _dealt(self, locs: tuple[int, ...]) -> KindType:
        recs = tuple(tuple((-1 - x, locs[x]) for x in own if locs[x]) for own in self.owned)
        return locs, recs, 0

    def _save(self, out: dict[KState, None], s: KState, what: str) -> None:
        out[s] = None
        if len(out) > self.limit:
            self._too_many(len(out), what)

    # -- the deal
    def deal(self, keep: Any = None, early: Any = None, known: Any = None) -> list[KState]:
        """The states after the deal; with ``keep(0, state)`` those it accepts, and with
        ``early = (agents, accept)`` only the states ``accept`` takes once those
        agents' own locations are dealt (they are dealt first).  ``known`` maps an
        agent to, by position in :attr:`eager`, the records of that kind it may have
        at the deal (a kind dealt otherwise is not spread: ``keep`` would refuse it)."""
        h = self.h
        nloc = self.nloc
        fixed = [0] * nloc
        base: dict[int, list[int]] = {}
        for loc in h.public_locations():
            for k in h.initial[loc]:
                base.setdefault(k, [0] * nloc)[self.li[loc]] += 1
        free = self.free
        nset = set(self.eager)
        empty: tuple[Record, ...] = tuple(() for _ in self.watch)
        anon0: Counter[KindType] = Counter(
            ((0,) * nloc, empty, h.deck.copies[k]) for k in range(len(h.deck)) if k not in nset
        )
        out: dict[KState, None] = {}
        named: list[KindType] = []

        # each named kind's ways over the free locations, at viable placements only:
        # (copies added per free location, copies per location)
        opts: list[list[tuple[tuple[int, ...], tuple[int, ...]]]] = []
        for k in self.eager:
            start = base.get(k, fixed)
            rest = h.deck.copies[k] - sum(start)
            ok = self.viable.get(k)
            rec_ok = [
                (self.owned[self.watch.index(a)], got[len(opts)])
                for a, got in (known or {}).items()
            ]
            ways = []
            for comp in _compositions(rest, [self.size0[x] for x in free]):
                locs = list(start)
                for i, x in enumerate(free):
                    locs[x] += comp[i]
                if (ok is None or tuple(locs) in ok[0]) and all(
                    tuple((-1 - x, locs[x]) for x in own if locs[x]) in got for own, got in rec_ok
                ):
                    ways.append((comp, tuple(locs)))
            opts.append(ways)
        rooms = [self.size0[x] for x in free]
        spread = 1
        for ways in opts:
            spread *= len(ways)
        if spread > SPREAD_FACTOR * self.limit:
            from kripke.errors import SizeLimitError

            raise SizeLimitError(
                f"the kind quotient would spread its {len(self.eager)} named kinds over the "
                f"hands in up to {spread:.2g} ways (each at the placements its later public "
                f"events leave, sizes ignored; more than {SPREAD_FACTOR:,} x {self.limit:,} "
                f"states); name fewer cards or use a shorter history"
            )
        # at a few times, the fewest and most copies each named kind (dealt each way)
        # can have in each location: a deal whose kinds cannot fill the locations
        # (the anonymous cards filling any gap) or overfill one then is cut early
        anon_cards = sum(n * ty[2] for ty, n in anon0.items())
        sizes = _sizes(h, self.steps, self.size0)
        times = sorted({0, len(self.steps), *(len(self.steps) * i // 8 for i in range(8))})
        ranges: list[list[Any]] = []
        for j, k in enumerate(self.eager):
            rs = []
            for _, placed in opts[j]:
                if k in self.viable:
                    rs.append(_ranges(h, self.steps, k, placed, self.viable[k], times))
                else:
                    rs.append(
                        [(placed, placed)]
                        + [((0,) * nloc, (h.deck.copies[k],) * nloc) for _ in times[1:]]
                    )
            ranges.append(rs)
        nt = len(times)
        # rest_lo / rest_hi[j][c][x]: the kinds from the j-th on, at least / at most
        rest_lo = [[[0] * nloc for _ in times] for _ in range(len(opts) + 1)]
        rest_hi = [[[anon_cards] * nloc for _ in times] for _ in range(len(opts) + 1)]
        for j in range(len(opts) - 1, -1, -1):
            for c in range(nt):
                for x in range(nloc):
                    rest_lo[j][c][x] = rest_lo[j + 1][c][x] + min(
                        (r[c][0][x] for r in ranges[j]), default=0
                    )
                    rest_hi[j][c][x] = rest_hi[j + 1][c][x] + max(
                        (r[c][1][x] for r in ranges[j]), default=0
                    )
        lo_acc = [[0] * nloc for _ in times]
        hi_acc = [[0] * nloc for _ in times]
        cap = [sizes[c] for c in times]

        def fits(j: int) -> bool:
            for c in range(nt):
                la, ha, rl, rh, m = lo_acc[c], hi_acc[c], rest_lo[j][c], rest_hi[j][c], cap[c]
                for x in range(nloc):
                    if la[x] + rl[x] > m[x] or ha[x] + rh[x] < m[x]:
                        return False
            return True

        def rec_named(j: int, left: list[int]) -> None:
            if not fits(j):
                return
            if j == len(self.eager):
                fl = [0] * nloc
                for i, x in enumerate(free):
                    fl[x] = left[i]
                s: KState = (tuple(named), tuple(sorted(anon0.items())), tuple(fl))
                if sum(fl) != anon_cards:
                    return
                for t in self._observe_deal(s, keep, early):
                    self._save(out, t, "the deal")
                return
            for (comp, placed), rng in zip(opts[j], ranges[j], strict=True):
                if any(c > x for c, x in zip(comp, left, strict=True)):
                    continue
                for i in range(len(free)):
                    left[i] -= comp[i]
                for c, (lo, hi) in enumerate(rng):
                    for x in range(nloc):
                        lo_acc[c][x] += lo[x]
                        hi_acc[c][x] += hi[x]
                named.append(self._dealt(placed))
                rec_named(j + 1, left)
                named.pop()
                for c, (lo, hi) in enumerate(rng):
                    for x in range(nloc):
                        lo_acc[c][x] -= lo[x]
                        hi_acc[c][x] -= hi[x]
                for i in range(len(free)):
                    left[i] += comp[i]

        rec_named(0, rooms)
        return list(out)

    def _observe_deal(self, s: KState, keep: Any = None, early: Any = None) -> Iterator[KState]:
        """The tracked agents see their own locations: the floating cards there take kinds
        (with ``keep`` and ``early``: only the states they accept, see :meth:`deal`)."""
        states = [s]
        todo = [x for x in self.free if any(x in own for own in self.owned)]
        cut = -1
        if early is not None:
            cols = [self.watch.index(a) for a in early[0]]
            first = sorted({x for i in cols for x in self.owned[i]})
            todo = first + [x for x in todo if x not in first]
            cut = len(first) - 1
        for n, x in enumerate(todo):
            cols = [i for i, own in enumerate(self.owned) if x in own]
            nxt: dict[KState, None] = {}
            for named, anon, fl in states:
                for new in self._draws(anon, fl[x], x, -1 - x, cols):
                    f2 = list(fl)
                    f2[x] = 0
                    s2 = (named, new, tuple(f2))
                    if s2 in nxt or (n == cut and not early[1](s2)):
                        continue
                    if keep is None or n < len(todo) - 1 or keep(0, s2):
                        self._save(nxt, s2, "the deal")
            states = list(nxt)
        if not todo:
            states = [t for t in states if (early is None or early[1](t))]
            if keep is not None:
                states = [t for t in states if keep(0, t)]
        return iter(states)

    def _draws(
        self,
        anon: tuple[tuple[KindType, int], ...],
        n: int,
        dst: int,
        slot: int,
        cols: Sequence[int],
    ) -> Iterator[tuple[tuple[KindType, int], ...]]:
        """Every way ``n`` floating cards are seen (by ``cols`` at ``slot``) and tracked
        at ``dst``: how many copies each anonymous kind gives."""
        items = list(anon)
        acc: Counter[KindType] = Counter()

        def rec(i: int, left: int) -> Iterator[tuple[tuple[KindType, int], ...]]:
            if i == len(items):
                if left == 0:
                    yield tuple(sorted(acc.items()))
                return
            ty, c = items[i]
            m = min(ty[2], left)
            for split in _splits(c, m, left):
                took = sum(r * x for r, x in enumerate(split))
                made = [
                    (self._shift(ty, 0, r, dst, dst, slot, cols), x)
                    for r, x in enumerate(split)
                    if x
                ]
                for t2, x in made:
                    acc[t2] += x
                yield from rec(i + 1, left - took)
                for t2, x in made:
                    acc[t2] -= x
                    if not acc[t2]:
                        del acc[t2]

        return rec(0, n)

    # -- naming a kind
    def _introduce(self, t: int, states: Iterable[KState]) -> Iterator[KState]:
        """The states with the kinds a public event first mentions at step ``t`` named.

        Until then such a kind was anonymous: interchangeable with every anonymous
        kind of as many copies and the same kind type, so it takes in turn each
        distinct kind type of the multiset.  Its floating copies (no tracked agent
        saw them) take locations among the floating cards, in every way the
        floating counts allow (deferred decisions, as at a hidden move seen by a
        tracked agent); named kinds have no floating copies."""
        copies = self.h.deck.copies
        for s in states:
            todo = [s]
            for k in self.intro[t]:
                nxt: dict[KState, None] = {}
                for named, anon, fl in todo:
                    for i, (ty, c) in enumerate(anon):
                        if sum(ty[0]) + ty[2] != copies[k]:
                            continue
                        rest = (
                            (*anon[:i], (ty, c - 1), *anon[i + 1 :])
                            if c > 1
                            else (
                                *anon[:i],
                                *anon[i + 1 :],
                            )
                        )
                        if not ty[2]:
                            nxt[((*named, ty), rest, fl)] = None
                            continue
                        spots = [x for x in range(self.nloc) if fl[x]]
                        for comp in _compositions(ty[2], [fl[x] for x in spots]):
                            locs, f2 = list(ty[0]), list(fl)
                            for x, r in zip(spots, comp, strict=True):
                                locs[x] += r
                                f2[x] -= r
                            nxt[((*named, (tuple(locs), ty[1], 0)), rest, tuple(f2))] = None
                todo = list(nxt)
            yield from todo

    # -- one event
    def step(self, t: int, states: Iterable[KState], keep: Any = None) -> list[KState]:
        """The states after event ``t``; with ``keep(t + 1, state)`` those it accepts."""
        out: dict[KState, None] = {}
        st = self.steps[t]
        if t in self.intro:
            states = self._introduce(t, states)
        # the named kinds whose placement event t can make unviable (a kind it leaves
        # where it was and does not mention stays viable): those it mentions or names,
        # and when it moves or reveals unseen cards, those with copies at either end
        v = self.viable
        some = [self.pos[k] for k in {*st.kinds, *self.intro.get(t, ())} if k in v]
        ends = (
            (self.li[st.src], self.li[st.dst] if st.dst else self.li[st.src])
            if st.kind in ("all", "reveal") or (st.kind == "move" and st.audience is not None)
            else None
        )
        for s in states:
            for s2 in self._branch(t, st, s):
                if self._alive(t + 1, s2, some, ends) and (keep is None or keep(t + 1, s2)):
                    self._save(out, s2, f"event {st.index}")
        return list(out)

    def _alive(self, t: int, s: KState, some: Sequence[int], ends: Any) -> bool:
        """Whether the named kinds at positions ``some`` of ``s`` (at time ``t``), and with
        ``ends = (x, y)`` every named kind with copies at ``x`` or ``y``, are at viable
        placements."""
        v, named, ks = self.viable, s[0], self.named
        if not all(named[j][0] in v[ks[j]][t] for j in some if j < len(named)):
            return False
        if ends is None:
            return True
        x, y = ends
        return all(
            ty[0] in v[k][t]
            for k, ty in zip(ks, named, strict=False)
            if (ty[0][x] or ty[0][y]) and k in v
        )

    def _branch(self, t: int, st: _Step, s: KState) -> Iterator[KState]:
        li = self.li
        named, anon, fl = s
        kind = st.kind
        cols = self.cols[t]
        if kind in ("move", "show") and st.audience is not None:
            src = li[st.src]
            dst = li[st.dst] if kind == "move" else src
            if kind == "show" and not cols:
                yield s  # shown to untracked agents only
                return
            yield from self._hidden(t, src, dst, len(st.kinds), s, cols)
            return
        if kind == "move":  # face up: every kind moved is named
            moved = list(named)
            src, dst = li[st.src], li[st.dst]
            for k, n in Counter(st.kinds).items():
                j = self.pos[k]
                if moved[j][0][src] < n:
                    return
                moved[j] = self._shift(moved[j], n, 0, src, dst, t, ())
            yield tuple(moved), anon, fl
            return
        if kind in ("all", "reveal"):
            src = li[st.src]
            dst = li[st.dst] if kind == "all" else src
            if st.audience is None:
                want = Counter(st.content)
                ks = self.named[: len(named)]
                if any(ty[0][src] != want[k] for k, ty in zip(ks, named, strict=True)):
                    return
                if fl[src] or any(ty[0][src] for ty, _ in anon):
                    return
            nt = tuple(self._shift(ty, ty[0][src], 0, src, dst, t, cols) for ty in named)
            na: Counter[KindType] = Counter()
            for ty, c in anon:
                na[self._shift(ty, ty[0][src], 0, src, dst, t, cols)] += c
            after = tuple(sorted(na.items()))
            f2 = list(fl)
            if cols and fl[src]:  # the floating cards there are seen: they take kinds
                f2[src] = 0
                for drawn in self._draws(after, fl[src], dst, t, cols):
                    yield nt, drawn, tuple(f2)
                return
            if src != dst:
                f2[dst] += f2[src]
                f2[src] = 0
            yield nt, after, tuple(f2)
            return
        if kind == "show":  # to everybody
            src = li[st.src]
            if all(named[self.pos[k]][0][src] >= n for k, n in Counter(st.kinds).items()):
                yield s
            return
        if kind == "count":
            locs = [li[x] for x in st.locations]
            have = sum(named[self.pos[k]][0][x] for k in st.kinds for x in locs)
            if st.lo <= have <= st.hi:
                yield s
            return
        if kind == "fact":

            def atom(a: Any) -> bool:
                loc, k, j = self.h.atom_cell(a)
                return named[self.pos[k]][0][li[loc]] >= j

            if evaluate(st.formula, atom):
                yield s
            return
        raise InvalidParameterError(f"unknown event kind {kind!r}")  # pragma: no cover

    def _hidden(
        self, t: int, src: int, dst: int, n: int, s: KState, cols: Sequence[int]
    ) -> Iterator[KState]:
        """Every way ``n`` cards of ``src`` go to ``dst`` (or are shown, ``dst == src``)
        seen by the tracked agents ``cols`` only: how many copies of each named kind,
        of each tracked anonymous kind type and, seen (``cols``) or not, of the
        floating cards there."""
        named, anon, fl = s
        here = [j for j, ty in enumerate(named) if ty[0][src]]
        items = [(ty, c) for ty, c in anon if ty[0][src] or (cols and ty[2])]
        rest = [(ty, c) for ty, c in anon if not (ty[0][src] or (cols and ty[2]))]
        nm = list(named)
        acc: Counter[KindType] = Counter(dict(rest))

        def finish(left: int, fleft: int) -> Iterator[KState]:
            f2 = list(fl)
            if cols:  # every floating card moved was seen and took a kind
                if left:
                    return
                f2[src] = fleft
            else:
                if left > fl[src]:
                    return
                f2[src] -= left
                f2[dst] += left
            yield tuple(nm), tuple(sorted((ty, c) for ty, c in acc.items() if c)), tuple(f2)

        def anon_part(i: int, left: int, fleft: int) -> Iterator[KState]:
            if i == len(items):
                yield from finish(left, fleft)
                return
            ty, c = items[i]
            opts = [
                (rt, rf)
                for rt in range(min(ty[0][src], left) + 1)
                for rf in range((min(ty[2], fleft, left - rt) if cols else 0) + 1)
            ]
            for counts in _multichoose(c, opts, left, fleft):
                made = []
                took = ftook = 0
                for (rt, rf), x in zip(opts, counts, strict=True):
                    if x:
                        made.append((self._shift(ty, rt, rf, src, dst, t, cols), x))
                        took += (rt + rf) * x
                        ftook += rf * x
                for t2, x in made:
                    acc[t2] += x
                yield from anon_part(i + 1, left - took, fleft - ftook)
                for t2, x in made:
                    acc[t2] -= x

        # each named kind's moves that leave it at a viable placement, and the most
        # cards the kinds from the i-th on (then the anonymous and floating ones) can give
        ways: list[list[tuple[int, KindType]]] = []
        for j in here:
            ty = named[j]
            ok = self.viable.get(self.named[j])
            ways.append(
                [
                    (r, t2)
                    for r in range(min(n, ty[0][src]) + 1)
                    for t2 in (self._shift(ty, r, 0, src, dst, t, cols),)
                    if ok is None or t2[0] in ok[t + 1]
                ]
            )
        most = [sum(ty[0][src] * c for ty, c in items) + fl[src]] * (len(here) + 1)
        for i in range(len(here) - 1, -1, -1):
            most[i] = most[i + 1] + max((r for r, _ in ways[i]), default=0)

        def named_part(i: int, left: int) -> Iterator[KState]:
            if left > most[i]:
                return
            if i == len(here):
                yield from anon_part(0, left, fl[src])
                return
            j = here[i]
            for r, t2 in ways[i]:
                if r > left:
                    break
                nm[j] = t2
                yield from named_part(i + 1, left - r)
            nm[j] = named[j]

        yield from named_part(0, n)

    # -- the true history
    def truth(self) -> KState:
        """The state of the true history (every card tracked, none floating)."""
        return self.truth_states()[-1]

    def truth_states(self) -> list[KState]:
        """The state of the true history at every time ``0..len(steps)``."""
        h = self.h
        cur: list[list[int]] = [[0] * self.nloc for _ in range(len(h.deck))]
        for loc, ks in h.initial.items():
            for k in ks:
                cur[k][self.li[loc]] += 1
        types = [self._dealt(tuple(c)) for c in cur]
        count = len(self.eager)

        def snap() -> KState:
            nset = set(self.named[:count])
            anon = Counter(ty for k, ty in enumerate(types) if k not in nset)
            return (
                tuple(types[k] for k in self.named[:count]),
                tuple(sorted(anon.items())),
                (0,) * self.nloc,
            )

        out = [snap()]
        for t, st in enumerate(self.steps):
            count += len(self.intro.get(t, ()))
            cols = self.cols[t]
            if st.kind in ("move", "show"):
                src = self.li[st.src]
                dst = self.li[st.dst] if st.kind == "move" else src
                for k, n in Counter(st.kinds).items():
                    types[k] = self._shift(types[k], n, 0, src, dst, t, cols)
            elif st.kind in ("all", "reveal"):
                src = self.li[st.src]
                dst = self.li[st.dst] if st.kind == "all" else src
                types = [self._shift(ty, ty[0][src], 0, src, dst, t, cols) for ty in types]
            out.append(snap())
        return out


def _kind_key(s: KState, cols: Sequence[int]) -> Any:
    """What the tracked agents of columns ``cols`` saw in ``s`` (jointly), up to the
    symmetries: their records of every named kind, the multiset of ``(copies,
    records)`` of the anonymous kinds."""
    named, anon, _ = s
    cnt: dict[Any, int] = {}
    if len(cols) == 1:
        (c,) = cols
        for ty, n in anon:
            one = (sum(ty[0]) + ty[2], ty[1][c])
            cnt[one] = cnt.get(one, 0) + n
        return tuple(ty[1][c] for ty in named), frozenset(cnt.items())
    for ty, n in anon:
        joint = (sum(ty[0]) + ty[2], tuple(ty[1][c] for c in cols))
        cnt[joint] = cnt.get(joint, 0) + n
    return tuple(tuple(ty[1][c] for c in cols) for ty in named), frozenset(cnt.items())


def _multichoose(
    c: int, opts: Sequence[tuple[int, int]], left: int, fleft: int
) -> Iterator[tuple[int, ...]]:
    """How many of ``c`` kinds take each option ``(rt, rf)``: every count vector with
    ``sum == c``, ``sum (rt + rf) * x <= left`` and ``sum rf * x <= fleft``."""

    def rec(i: int, rem: int, lt: int, lf: int) -> Iterator[tuple[int, ...]]:
        if i == len(opts) - 1:
            rt, rf = opts[i]
            if (rt + rf) * rem <= lt and rf * rem <= lf:
                yield (rem,)
            return
        rt, rf = opts[i]
        for x in range(rem + 1):
            if (rt + rf) * x > lt or rf * x > lf:
                break
            for tail in rec(i + 1, rem - x, lt - (rt + rf) * x, lf - rf * x):
                yield (x, *tail)

    return rec(0, c, left, fleft)


def kind_quotient(
    h: CardHistory,
    cards: Iterable[str],
    *,
    agents: Iterable[Any] | None = None,
    groups: Iterable[Iterable[Any]] = (),
    formulas: Iterable[Any] = (),
    limit: int = MAX_STATES,
    lazy: bool = True,
) -> QuotientModel:
    """The kind quotient of ``h`` (any deck, copies or not) for formulas about ``cards``.

    Parameters
    ----------
    h : CardHistory
    cards : iterable of str
        The cards the formulas will mention (``C`` or ``C#k``; all copies
        of a mentioned card are tracked).
    agents, groups, formulas, limit
        As for :func:`~games.epistemic.quotient.quotient_model`.

    Returns
    -------
    QuotientModel
        Its :meth:`~games.epistemic.quotient.QuotientModel.holds` answers any
        formula (any depth, common and distributed knowledge of the groups
        given, announcements) over the atoms ``has(L, C)`` / ``has(L, C#k)``
        of ``cards`` exactly as the explicit model of ``h``.

    Raises
    ------
    InvalidParameterError
        For an unknown card.
    kripke.errors.SizeLimitError
        When more than ``limit`` states are needed (the message gives the count).

    Examples
    --------
    Two copies of each card; y sees x's face-down play, z does not:

    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move
    >>> h = CardHistory(Deck(["A", "B", "C"], [2, 2, 2]),
    ...                 {"x": "A A", "y": "B C", "z": "B C", "pile": ""}, ["x", "y", "z"])
    >>> q = kind_quotient(h.then(Move("A", "x", "pile", seen_by=["x", "y"])), ["A"])
    >>> q.holds("K_y has(pile, A) & ~K_z has(pile, A) & ~has(pile, A#2)")
    True
    >>> q.holds("K_z (has(pile, A) -> K_y has(pile, A))")
    True
    """
    from games.epistemic.symbolic import simplify_steps

    t0 = time.perf_counter()
    query = _query_kinds(h, cards)
    qk = set(query)
    steps = simplify_steps(h)
    named = named_kinds(h, [h.deck.name(k) for k in query], steps)
    grp, watch = _watched(h, agents, groups, formulas)
    tracked = [a for a in h.agents if a in watch]
    p = _KindPass(h, steps, named, tracked, limit, query, lazy=lazy)
    named = tuple(p.named)
    states = p.deal()
    peak = len(states)
    for t in range(len(p.steps)):
        states = p.step(t, states)
        peak = max(peak, len(states))

    def project(s: KState) -> Any:
        nm, anon, _ = s
        kept = tuple((ty[0] if k in qk else (), ty[1]) for k, ty in zip(named, nm, strict=True))
        c: Counter[Any] = Counter()
        for ty, n in anon:
            c[(sum(ty[0]) + ty[2], ty[1])] += n
        return kept, tuple(sorted(c.items()))

    final: dict[Any, int] = {}
    for s in states:
        final.setdefault(project(s), len(final))
    actual = final.get(project(p.truth()))
    if actual is None:  # pragma: no cover - the true history is always a state
        raise InvalidParameterError("the true history is missing from the kind quotient")
    relations: dict[str, tuple[int, ...]] = {a: (i,) for i, a in enumerate(tracked)}
    group_names = {g: _group_name(list(h.agents), g) for g in sorted(grp)}
    for g, name in group_names.items():
        relations[name] = tuple(tracked.index(a) for a in g)

    def key(s: Any, cols: tuple[int, ...]) -> Any:
        nm, anon = s
        cnt: Counter[Any] = Counter()
        for (m, recs), n in anon:
            cnt[(m, tuple(recs[c] for c in cols))] += n
        return tuple(tuple(recs[c] for c in cols) for _, recs in nm), tuple(sorted(cnt.items()))

    order = list(final)
    qpos = [(j, k) for j, k in enumerate(named) if k in qk]
    names, copies = h.deck.names, h.deck.copies
    vals = [
        [
            f"has({h.locations[x]}, {card_key(names[k], c, copies[k])})"
            for j, k in qpos
            for x, n in enumerate(s[0][j][0])
            for c in range(1, n + 1)
        ]
        for s in order
    ]
    keys = [card_key(names[k], c, copies[k]) for k in query for c in range(1, copies[k] + 1)]
    pointed = _partition_model(
        "k",
        vals,
        {r: [key(s, cols) for s in order] for r, cols in relations.items()},
        [f"has({loc}, {c})" for loc in h.locations for c in keys],
        actual,
    )
    out = QuotientModel(
        h,
        tuple(keys),
        tuple(names[k] for k in named),
        order,
        pointed,
        peak=peak,
        groups=group_names,
        agents=tuple(tracked),
    )
    out.seconds = time.perf_counter() - t0
    return out


def _kind_words(
    h: CardHistory,
    steps: list[_Step],
    named: Sequence[int],
    query: Sequence[int],
    path: frozenset[tuple[Any, ...]],
    limit: int,
    lazy: bool = True,
) -> tuple[dict[tuple[Any, ...], list[tuple[Any, dict[Any, Any]]]], int]:
    """The histories the words of ``path`` reach from the true one, one pass a word (as
    :func:`~games.epistemic.quotient._word_quotient` for decks without copies).

    The pass of ``w + (x,)`` tracks only the agents of ``x`` and of the letters
    after it, and keeps a state while ``x``'s view so far is one the pass of
    ``w`` met at that time (a view so far is determined by the final view, so
    no history the word reaches is lost); at the end, the states whose final
    view of ``x`` is that of a history ``w`` reaches.  Returns by word the
    histories as ``(copies of the query kinds per location, {letter: final
    view})`` and the most states kept at any event.
    """
    after = _next_letters(path)
    members = _members
    viable: dict[Any, Any] = {}

    def make(letters: Iterable[Any]) -> _KindPass:
        watch = {a for x in letters for a in members(x)}
        tracked = [a for a in h.agents if a in watch]
        return _KindPass(h, steps, named, tracked, limit, query, lazy=lazy, viable=viable)

    def view(p: _KindPass, s: KState, agents: Sequence[str]) -> Any:
        return _kind_key(s, [p.watch.index(a) for a in agents])

    order = make(()).named
    qpos = [order.index(k) for k in query]

    def node(p: _KindPass, s: KState, letters: Iterable[Any]) -> tuple[Any, dict[Any, Any]]:
        return tuple(s[0][j][0] for j in qpos), {x: view(p, s, members(x)) for x in letters}

    root = make(after.get((), ()))
    truth = root.truth_states()
    first = {a for x in after.get((), ()) for a in members(x)}
    allowed = {(): [{a: {view(root, s, (a,))} for a in first} for s in truth]}
    end = truth[-1]
    final = {(): {x: {view(root, end, members(x))} for x in after.get((), ())}}
    nodes = {(): [node(root, end, after.get((), ()))]}
    peak = 1
    for w in sorted((w for w in path if w), key=len):
        x, prev = w[-1], w[:-1]
        nxt = after.get(w, set())
        p = make({x} | nxt)
        mine = members(x)
        record = sorted({a for y in nxt for a in members(y)})
        seen: list[dict[str, set[Any]]] = [{a: set() for a in record} for _ in truth]
        al = allowed[prev]

        def keep(
            t: int,
            s: KState,
            p: _KindPass = p,
            mine: tuple[str, ...] = mine,
            al: list[dict[str, set[Any]]] = al,
            record: list[str] = record,
            seen: list[dict[str, set[Any]]] = seen,
        ) -> bool:
            if not all(view(p, s, (a,)) in al[t][a] for a in mine):
                return False
            for a in record:
                seen[t][a].add(view(p, s, (a,)))
            return True

        known = {a: [{v[0][j] for v in al[0][a]} for j in range(len(p.eager))] for a in mine}
        states = p.deal(
            keep,
            (
                mine,
                lambda s, p=p, mine=mine, al=al: all(view(p, s, (a,)) in al[0][a] for a in mine),
            ),
            known,
        )
        peak = max(peak, len(states))
        for t in range(len(steps)):
            states = p.step(t, states, keep)
            peak = max(peak, len(states))
        letters = [x, *sorted(nxt - {x}, key=str)]
        reach = final[prev][x]
        made = {}
        for s in states:
            if view(p, s, mine) in reach:
                val, keys = node(p, s, letters)
                made[(val, tuple(keys.items()))] = (val, keys)
        nodes[w] = list(made.values())
        if nxt:
            allowed[w] = seen
            final[w] = {y: {keys[y] for _, keys in nodes[w]} for y in nxt}
    return nodes, peak


class _KindWordModel(_WordModel):
    """Truth along the words of :func:`_kind_words`; an atom ``has(L, C#k)`` reads the
    copies of ``C`` at ``L``."""

    def __init__(
        self,
        h: CardHistory,
        query: Sequence[int],
        nodes: dict[tuple[Any, ...], list[tuple[Any, dict[Any, Any]]]],
    ):
        super().__init__(h, tuple(h.deck.name(k) for k in query), nodes)
        self.kinds = list(query)
        self.li = {loc: i for i, loc in enumerate(h.locations)}

    def _atom(self, f: Any, w: tuple[Any, ...], i: int) -> bool:
        loc, k, j = self.h.atom_cell(f)
        if k not in self.kinds:
            raise InvalidParameterError(f"{f.key}: card {f.args[1]} is not among {self.query}")
        return self.nodes[w][i][0][self.kinds.index(k)][self.li[loc]] >= j


def local_kind_holds(h: CardHistory, f: Any, *, limit: int = MAX_STATES, lazy: bool = True) -> bool:
    """Whether ``f`` holds at the true history, on the local kind quotient: only the
    histories ``f``'s knowledge operators reach, one pass per word of steps
    (:func:`~games.epistemic.quotient.formula_words`); for common knowledge, the
    whole kind quotient (:func:`kind_holds`).

    Examples
    --------
    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move
    >>> h = CardHistory(Deck(["A", "B", "C"], [2, 2, 2]),
    ...                 {"x": "A A", "y": "B C", "z": "B C", "pile": ""}, ["x", "y", "z"])
    >>> h = h.then(Move("A", "x", "pile", seen_by=["x", "y"]))
    >>> local_kind_holds(h, "K_z (has(pile, A) -> K_y has(pile, A)) & ~K_z has(x, A)")
    True
    """
    from games.epistemic.quotient import _prefixes, formula_words
    from games.epistemic.symbolic import simplify_steps

    g = read_formula(h, f)
    words = formula_words(g)
    if words is None:
        return kind_holds(h, g, limit=limit, lazy=lazy)
    query = _query_kinds(h, [a.args[1] for a in g.atoms()])
    steps = simplify_steps(h)
    named = named_kinds(h, [h.deck.name(k) for k in query], steps)
    nodes, _ = _kind_words(h, steps, named, query, _prefixes(words), limit, lazy)
    return bool(_KindWordModel(h, query, nodes).holds(g))


def kind_holds(h: CardHistory, f: Any, *, limit: int = MAX_STATES, lazy: bool = True) -> bool:
    """Whether ``f`` holds at the true history, on the kind quotient for its cards,
    agents and groups (:func:`kind_quotient`).

    Examples
    --------
    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move
    >>> h = CardHistory(Deck(["A", "B"], [2, 2]), {"x": "A A", "y": "B B", "pile": ""}, ["x", "y"])
    >>> kind_holds(h.then(Move("A", "x", "pile", seen_by=["x"])), "K_y has(pile, A) & K_x has(x, A)")
    True
    """
    g = read_formula(h, f)
    cards = sorted({a.args[1] for a in g.atoms()})
    q = kind_quotient(h, cards, agents=g.agents(), formulas=[g], limit=limit, lazy=lazy)
    return q.holds(g)
