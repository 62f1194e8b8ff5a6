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
dropped.  The pass branches over how many copies of each kind type a hidden
move took, so it stays small while few kinds are anonymous and few cards
were moved unseen: it is meant for short histories and small decks with
copies (a Shengji deck of a few ranks, a few plays of BS koth).  At the deal
of a full deck the anonymous kinds alone spread over the hands in more ways
than :data:`~games.epistemic.quotient.MAX_STATES` (52-card koth, 13 kinds
of 4 copies, one named: the deal exceeds it), which raises
:class:`~kripke.errors.SizeLimitError` naming the count.

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
from typing import Any

from games.deal.formulas import evaluate
from games.epistemic.history import CardHistory, _Step, card_key
from games.epistemic.quotient import (
    MAX_STATES,
    QuotientModel,
    _compositions,
    _group_name,
    _partition_model,
    _public_kinds,
    _watched,
)
from games.epistemic.reading import read_formula
from games.errors import InvalidParameterError

__all__ = ["kind_quotient", "kind_holds", "named_kinds"]

#: One agent's record of one kind: ``(event, copies seen)`` in time order
#: (the deal's events are ``-1 - location``).
Record = tuple[tuple[int, int], ...]
#: A kind type: copies per location, and one record per tracked agent.
KindType = tuple[tuple[int, ...], tuple[Record, ...]]
#: The kind quotient refuses at once a deal whose estimated states (hands' sizes
#: ignored, :meth:`_KindPass._estimate`) exceed this many times its limit.
ESTIMATE_FACTOR = 1_000

KState = tuple[tuple[KindType, ...], tuple[tuple[KindType, int], ...]]


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
    """The forward pass of the kind quotient, merging equal states."""

    def __init__(
        self,
        h: CardHistory,
        steps: list[_Step],
        named: Sequence[int],
        watch: Sequence[str],
        limit: int,
    ):
        self.h = h
        self.steps = steps
        self.named = list(named)
        self.limit = limit
        self.li = {loc: i for i, loc in enumerate(h.locations)}
        self.watch = list(watch)
        public = set(h.public_locations())
        self.free = [self.li[loc] for loc in h.locations if loc not in public and h.initial[loc]]
        self.owned = [
            [self.li[loc] for loc in h.owns[a] if self.li[loc] in self.free] for a in self.watch
        ]
        self.cols = [
            [] if st.audience is None else [i for i, a in enumerate(self.watch) if a in st.audience]
            for st in steps
        ]

    def _too_many(self, n: int, what: str) -> None:
        from kripke.errors import SizeLimitError

        raise SizeLimitError(
            f"the kind quotient has more than {self.limit:,} states after {what} "
            f"({n:,} states); name fewer cards or use a shorter history"
        )

    def _dealt(self, locs: tuple[int, ...]) -> KindType:
        recs = tuple(tuple((-1 - x, locs[x]) for x in own if locs[x]) for own in self.owned)
        return locs, recs

    # -- the deal
    def deal(self) -> list[KState]:
        h = self.h
        nloc = len(h.locations)
        fixed = [0] * nloc
        base: dict[int, list[int]] = {}
        for loc in h.public_locations():
            for k in h.initial[loc]:
                base.setdefault(k, [0] * nloc)[self.li[loc]] += 1
        room = {x: len(h.initial[h.locations[x]]) for x in self.free}
        nset = set(self.named)
        groups = Counter(h.deck.copies[k] for k in range(len(h.deck)) if k not in nset)
        anon_groups = sorted(groups.items())
        out: dict[KState, None] = {}
        named: list[KindType] = []
        free = self.free

        def place(k: int, left: list[int]) -> Iterator[tuple[int, ...]]:
            start = base.get(k, fixed)
            rest = h.deck.copies[k] - sum(start)
            for comp in _compositions(rest, [left[i] for i in range(len(free))]):
                locs = list(start)
                for i, x in enumerate(free):
                    locs[x] += comp[i]
                    left[i] -= comp[i]
                yield tuple(locs)
                for i in range(len(free)):
                    left[i] += comp[i]

        def anon(g: int, left: list[int], acc: list[KindType]) -> None:
            if g == len(anon_groups):
                if any(left):
                    return
                out[(tuple(named), tuple(sorted(Counter(acc).items())))] = None
                if len(out) > self.limit:
                    self._too_many(len(out), "the deal")
                return
            m, c = anon_groups[g]
            opts = [comp for comp in _compositions(m, [m] * len(free))]

            def rec(i: int, lo: int) -> None:
                if i == c:
                    anon(g + 1, left, acc)
                    return
                for j in range(lo, len(opts)):
                    comp = opts[j]
                    if any(comp[x] > left[x] for x in range(len(free))):
                        continue
                    locs = [0] * nloc
                    for x in range(len(free)):
                        locs[free[x]] = comp[x]
                        left[x] -= comp[x]
                    acc.append(self._dealt(tuple(locs)))
                    rec(i + 1, j)
                    acc.pop()
                    for x in range(len(free)):
                        left[x] += comp[x]

            rec(0, 0)

        def rec_named(j: int, left: list[int]) -> None:
            if j == len(self.named):
                anon(0, left, [])
                return
            for locs in place(self.named[j], left):
                named.append(self._dealt(locs))
                rec_named(j + 1, left)
                named.pop()

        guess = self._estimate(anon_groups, base)
        if guess > ESTIMATE_FACTOR * self.limit:
            from kripke.errors import SizeLimitError

            raise SizeLimitError(
                f"the kind quotient's deal spreads the kinds over the hands in about "
                f"{guess:.2g} ways (more than {ESTIMATE_FACTOR:,} x {self.limit:,}); name "
                f"fewer cards or use a smaller deck"
            )
        rec_named(0, [room[x] for x in free])
        return list(out)

    def _estimate(
        self, anon_groups: Sequence[tuple[int, int]], base: dict[int, list[int]]
    ) -> float:
        """How many deal states there are at most, ignoring the hands' sizes: every
        named kind's spread times the multisets of spreads of the anonymous kinds."""
        from math import comb

        f = len(self.free)
        out = 1.0
        for k in self.named:
            rest = self.h.deck.copies[k] - sum(base.get(k, ()))
            out *= comb(rest + f - 1, f - 1) if f else 1
        for m, c in anon_groups:
            types = comb(m + f - 1, f - 1) if f else 1
            out *= comb(types + c - 1, c)
        return out

    # -- one event
    def step(self, t: int, states: Iterable[KState]) -> list[KState]:
        out: dict[KState, None] = {}
        st = self.steps[t]
        for s in states:
            for s2 in self._branch(t, st, s):
                out[s2] = None
                if len(out) > self.limit:
                    self._too_many(len(out), f"event {st.index}")
        return list(out)

    @staticmethod
    def _moved(ty: KindType, r: int, src: int, dst: int, t: int, cols: Sequence[int]) -> KindType:
        locs, recs = ty
        if r and src != dst:
            nl = list(locs)
            nl[src] -= r
            nl[dst] += r
            locs = tuple(nl)
        if r and cols:
            rl = list(recs)
            for i in cols:
                rl[i] = (*rl[i], (t, r))
            recs = tuple(rl)
        return locs, recs

    def _branch(self, t: int, st: _Step, s: KState) -> Iterator[KState]:
        li = self.li
        named, anon = s
        kind = st.kind
        cols = self.cols[t]
        if kind in ("move", "show") and st.audience is not None:
            src = li[st.src]
            dst = li[st.dst] if kind == "move" else src
            yield from self._hidden(t, src, dst, len(st.kinds), named, anon, cols)
            return
        if kind == "move":  # face up: every kind moved is named
            moved = list(named)
            for k, n in Counter(st.kinds).items():
                j = self.named.index(k)
                if moved[j][0][li[st.src]] < n:
                    return
                moved[j] = self._moved(moved[j], n, li[st.src], li[st.dst], t, ())
            yield tuple(moved), anon
            return
        if kind in ("all", "reveal"):
            src = li[st.src]
            dst = li[st.dst] if kind == "all" else src
            if st.audience is None:
                want = Counter(st.content)
                if any(ty[0][src] != want[k] for k, ty in zip(self.named, named, strict=True)):
                    return
                if any(ty[0][src] for ty, _ in anon):
                    return
            nt = tuple(self._moved(ty, ty[0][src], src, dst, t, cols) for ty in named)
            na: Counter[KindType] = Counter()
            for ty, c in anon:
                na[self._moved(ty, ty[0][src], src, dst, t, cols)] += c
            yield nt, tuple(sorted(na.items()))
            return
        if kind == "show":  # to everybody
            src = li[st.src]
            if all(named[self.named.index(k)][0][src] >= n for k, n in Counter(st.kinds).items()):
                yield s
            return
        if kind == "count":
            locs = [li[x] for x in st.locations]
            have = sum(named[self.named.index(k)][0][x] for k in st.kinds for x in locs)
            if st.lo <= have <= st.hi:
                yield s
            return
        if kind == "fact":

            def atom(a: Any) -> bool:
                loc, k, j = self.h.atom_cell(a)
                return named[self.named.index(k)][0][li[loc]] >= j

            if evaluate(st.formula, atom):
                yield s
            return
        raise InvalidParameterError(f"unknown event kind {kind!r}")  # pragma: no cover

    def _hidden(
        self,
        t: int,
        src: int,
        dst: int,
        n: int,
        named: tuple[KindType, ...],
        anon: tuple[tuple[KindType, int], ...],
        cols: Sequence[int],
    ) -> Iterator[KState]:
        """Every way ``n`` cards of ``src`` go to ``dst`` (or are shown, ``dst == src``)
        unseen by all but ``cols``: how many copies of each named kind and of each
        anonymous kind type."""
        here = [j for j, ty in enumerate(named) if ty[0][src]]
        pool = [(ty, c) for ty, c in anon if ty[0][src]]
        rest = [(ty, c) for ty, c in anon if not ty[0][src]]
        nm = list(named)

        def anon_part(i: int, left: int, acc: Counter[KindType]) -> Iterator[KState]:
            if i == len(pool):
                if left == 0:
                    yield tuple(nm), tuple(sorted(acc.items()))
                return
            ty, c = pool[i]
            m = ty[0][src]
            for split in _splits(c, m, left):
                took = sum(r * x for r, x in enumerate(split))
                for r, x in enumerate(split):
                    if x:
                        acc[self._moved(ty, r, src, dst, t, cols)] += x
                yield from anon_part(i + 1, left - took, acc)
                for r, x in enumerate(split):
                    if x:
                        key = self._moved(ty, r, src, dst, t, cols)
                        acc[key] -= x
                        if not acc[key]:
                            del acc[key]

        def named_part(i: int, left: int) -> Iterator[KState]:
            if i == len(here):
                yield from anon_part(0, left, Counter(dict(rest)))
                return
            j = here[i]
            ty = named[j]
            for r in range(min(left, ty[0][src]) + 1):
                nm[j] = self._moved(ty, r, src, dst, t, cols)
                yield from named_part(i + 1, left - r)
            nm[j] = ty

        yield from named_part(0, n)

    # -- the true history
    def truth(self) -> KState:
        """The state of the true history."""
        h = self.h
        nloc = len(h.locations)
        cur: list[list[int]] = [[0] * nloc for _ in range(len(h.deck))]
        for loc, ks in h.initial.items():
            for k in ks:
                cur[k][self.li[loc]] += 1
        types = [self._dealt(tuple(c)) for c in cur]
        for t, st in enumerate(self.steps):
            cols = self.cols[t]
            if st.kind in ("move", "show"):
                src = self.li[st.src]
                dst = self.li[st.dst] if st.kind == "move" else src
                for k, n in Counter(st.kinds).items():
                    types[k] = self._moved(types[k], n, src, dst, t, cols)
            elif st.kind in ("all", "reveal"):
                src = self.li[st.src]
                dst = self.li[st.dst] if st.kind == "all" else src
                types = [self._moved(ty, ty[0][src], src, dst, t, cols) for ty in types]
        nset = set(self.named)
        anon = Counter(ty for k, ty in enumerate(types) if k not in nset)
        return tuple(types[k] for k in self.named), tuple(sorted(anon.items()))


def kind_quotient(
    h: CardHistory,
    cards: Iterable[str],
    *,
    agents: Iterable[Any] | None = None,
    groups: Iterable[Iterable[Any]] = (),
    formulas: Iterable[Any] = (),
    limit: int = MAX_STATES,
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
    p = _KindPass(h, steps, named, tracked, limit)
    states = p.deal()
    peak = len(states)
    for t in range(len(p.steps)):
        states = p.step(t, states)
        peak = max(peak, len(states))

    def project(s: KState) -> Any:
        nm, anon = s
        kept = tuple((ty[0] if k in qk else (), ty[1]) for k, ty in zip(named, nm, strict=True))
        c: Counter[Any] = Counter()
        for ty, n in anon:
            c[(sum(ty[0]), ty[1])] += n
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


def kind_holds(h: CardHistory, f: Any, *, limit: int = MAX_STATES) -> bool:
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
    return kind_quotient(h, cards, agents=g.agents(), formulas=[g], limit=limit).holds(g)
