"""Card-symmetry quotients: the explicit model of a card history, up to the cards a formula ignores.

A formula over the card atoms names a few cards.  Every other card that no
public event names (no face-up move, public reveal, public show, count or
fact mentions it) is *anonymous*: permuting anonymous cards maps the
history model to itself (the public history, every agent's observations,
every atom over the named cards).  The quotient by these permutations is a
bounded-morphism image of the history model, so it answers every formula
over the named cards exactly as the full model does.

A state of the quotient is

* for each named card its *type*: its current location and, for every
  agent, the bits that agent observed about it (dealt into one of its
  locations, moved at a hidden move it saw, present in a location revealed
  or moved-all to it, shown to it);
* for the anonymous cards, how many of them have each combination of
  observed bits (the multiset of their types; their locations are dropped
  at the end, no atom mentions them).

Agent *a* cannot tell two quotient states apart when every named card has
the same *a*-bits in both and the anonymous cards have the same multiset
of *a*-bits: then a permutation of the anonymous cards makes the two
representatives agree on everything *a* observed.  Distributed knowledge
of a group ``G`` needs one permutation for the whole group, so ``D_G`` is
evaluated on the relation of equal multisets of joint ``G``-bits (an extra
relation of the model, see :meth:`QuotientModel.holds`).

The states are built by one forward pass over the simplified events
(:func:`~games.epistemic.symbolic.simplify_steps`) with duplicates merged,
three further symmetries keeping the pass small (each exact):

* a card is anonymous until a public event first mentions it; then it
  takes the type of one anonymous card where the event puts it (its past
  was symmetric with theirs until then);
* once a card outside the query is named by no later public event and is
  surely at one location (in every state), swapping its future with that
  of another such card at the same location is an automorphism: its past
  bits stay with it, its future joins a *pool* counted like the anonymous
  cards (:attr:`QuotientModel.pools`);
* only the bits of the agents a formula mentions are kept (``agents=``).

Each named card is also kept inside the locations where it can be at that
time (reachable from the deal and able to meet its later public
constraints).  The quotient is small when the plays nobody saw are few or
involve few cards that were later revealed, whatever the size of the deck.
Measured (``benchmarks/epistemic_quotient.py``, 52-card classic BS, 4
seats, ``K_0 ~K_1 has(2, c)``): a few states and milliseconds after 5
plays, 20 to 150 states after 10, 100 to 60,000 states (0.04 s to 15 s)
after 20 plays, depending on how many revealed cards went through hands
that later played face down; after 30 plays most games need more than
:data:`MAX_STATES` states.  Decks with copies have their own quotient,
by card kinds (:mod:`games.epistemic.kinds`).

What grows is the pass, not the answer: states are told apart by where
the anonymous cards of each type lie, and every face-down play from a
hand holding cards of several types branches over how many of each were
played, even when no agent the formula mentions saw it.  Measured on a
classic BS game of the probabilistic bots (``benchmarks/whole_game_knowledge.py``,
seed 0, ``K_P0 ~K_P1 has(P2, 2C)`` after 48 plays: 32 simplified events,
11 of them hidden, 8 named cards): 1, 14, 171, 814 and 28,026 states
after the hidden plays and first namings that add states, folded to 1,264
by the final projection (which drops the anonymous locations), about 6 s;
eight plays later one more face-down play gives 119,694 states and the
next event did not finish within 4 minutes.

*Local* quotients keep only what a formula looks at.  The truth of
``K_a ~K_b has(c, X)`` at the true history depends on the histories ``a``
cannot tell from it and, for each of those, the histories ``b`` cannot tell
from that one: the words ``a`` and ``a b`` of steps
(:func:`formula_words`).  :func:`quotient_model` with ``words=`` makes one
forward pass per word; the pass of ``w + (x,)`` tracks only the bits of
``x`` and of the letters that follow, keeps a state only while ``x``'s view
so far is the view so far of a state the pass of ``w`` kept (a view so far
is determined by the final view, so no history the word reaches is lost),
and ends with the final views of the histories the word reaches (for the
last letter of a word, only that view and the query cards' locations).
:func:`local_holds` answers on these, common knowledge first through its
E-weakenings.  Measured on the state above (``K_P2 ~K_P3 has(P0, 10H)``
after 48 plays): the whole quotient 518,863 states in 240 s, the local one
0.46 s (P2's class: 24 states before the query card is named; P3's pass,
tracking P3's bits only, a few thousand).  What grows then is the pass of
the last letter when that seat saw little: 7,176 states after 52 plays of
the same game, 12 s.

Examples
--------
>>> from games.cards import Deck
>>> from games.epistemic.history import CardHistory, Move
>>> h = CardHistory(Deck(["A", "B", "C", "D"]), {"x": "A B", "y": "C", "z": "D", "pile": ""},
...                 ["x", "y", "z"])
>>> h = h.then(Move("A", "x", "pile", seen_by=["x"]))
>>> q = quotient_model(h, ["A"])
>>> q.named, len(q.states)
(('A',), 4)
>>> q.holds("K_x has(pile, A) & ~K_y has(pile, A) & K_y (has(pile, A) | has(x, A) | has(z, A))")
True
>>> quotient_holds(h, "K_z ~K_y has(pile, A)")
True
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.deal.formulas import connective_value, evaluate
from games.epistemic.history import CardHistory, _Step
from games.epistemic.reading import _map_children, read_formula, seat_agent
from games.errors import InvalidParameterError

__all__ = [
    "QuotientModel",
    "quotient_model",
    "quotient_holds",
    "local_holds",
    "reach_depth",
    "formula_words",
    "named_cards",
    "MAX_STATES",
]

#: How many E-weakenings of common knowledge :func:`local_holds` tries along
#: their words before it grows the steps until the histories close up.
WEAKENINGS = 2

#: Largest number of quotient states kept at any event (else SizeLimitError);
#: about 4 KB of memory a state for a 52-card game.
MAX_STATES = 250_000

Type = tuple[int, ...]
State = tuple[tuple[Type, ...], tuple[tuple[Type, int], ...]]


# ================================================================ names
def named_cards(h: CardHistory, cards: Iterable[str] = ()) -> tuple[str, ...]:
    """The cards of ``cards`` and every card a public event names, in deck order.

    Public events name: the cards of a face-up move, the content of a
    public reveal or of a pile moved in view of everybody, the cards of a
    public show, of a count and of the atoms of a fact, and the initial
    content of the locations every agent sees.

    Raises
    ------
    InvalidParameterError
        For a deck with copies, or a card not in the deck.

    Examples
    --------
    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move
    >>> h = CardHistory(Deck(["A", "B", "C"]), {"x": "A B", "y": "C", "pile": ""}, ["x", "y"])
    >>> named_cards(h.then(Move("B", "x", "pile")), ["C"])
    ('B', 'C')
    """
    d = h.deck
    _no_copies(h)
    ks: set[int] = set()
    for c in cards:
        ks.add(_card_index(h, c))
    for loc in h.public_locations():
        ks.update(h.initial[loc])
    for st in h.steps:
        ks.update(_public_kinds(h, st))
    return tuple(d.name(k) for k in sorted(ks))


def _no_copies(h: CardHistory) -> None:
    if any(c != 1 for c in h.deck.copies):
        many = next(h.deck.name(k) for k, c in enumerate(h.deck.copies) if c != 1)
        raise InvalidParameterError(
            f"card-symmetry quotients need a deck without copies; {many} has "
            f"{h.deck.copies[h.deck.index(many)]} copies (use GameKnowledge)"
        )


def _card_index(h: CardHistory, c: Any) -> int:
    name = str(c)
    if name not in h.deck.names:
        raise InvalidParameterError(
            f"unknown card {name!r}; the deck has {len(h.deck)} cards, e.g. "
            f"{', '.join(h.deck.names[:4])}"
        )
    return h.deck.index(name)


def _public_kinds(h: CardHistory, st: _Step) -> set[int]:
    if st.kind == "move" and st.audience is None:
        return set(st.kinds)
    if st.kind in ("all", "reveal") and st.audience is None:
        return set(st.content)
    if st.kind == "show" and st.audience is None:
        return set(st.kinds)
    if st.kind == "count":
        return set(st.kinds)
    if st.kind == "fact":
        return {h.atom_cell(a)[1] for a in st.formula.atoms()}
    return set()


# ================================================================ feasibility
def _succ(st: _Step, k: int, loc: int, li: dict[str, int]) -> tuple[int, ...]:
    """Where card ``k`` at location ``loc`` can be after step ``st`` (empty: impossible)."""
    kind = st.kind
    if kind == "move":
        src, dst = li[st.src], li[st.dst]
        if st.audience is None:
            if k in st.kinds:
                return (dst,) if loc == src else ()
            return (loc,)
        return (src, dst) if loc == src else (loc,)
    if kind == "all":
        src, dst = li[st.src], li[st.dst]
        if st.audience is None and (k in st.content) != (loc == src):
            return ()
        return (dst,) if loc == src else (loc,)
    if kind == "reveal":
        if st.audience is None and (k in st.content) != (loc == li[st.src]):
            return ()
        return (loc,)
    if kind == "show":
        if st.audience is None and k in st.kinds and loc != li[st.src]:
            return ()
        return (loc,)
    if kind == "count":
        if st.hi == 0 and k in st.kinds and any(li[x] == loc for x in st.locations):
            return ()
        return (loc,)
    return (loc,)


def _feasible(
    h: CardHistory, steps: Sequence[_Step], k: int, start: Sequence[int], li: dict[str, int]
) -> list[frozenset[int]]:
    """Per time ``0..len(steps)``: where card ``k`` can be (forward reachable and
    able to meet every later public constraint)."""
    fwd = [frozenset(start)]
    for st in steps:
        fwd.append(frozenset(x for loc in fwd[-1] for x in _succ(st, k, loc, li)))
    back = [fwd[-1]]
    for t in range(len(steps) - 1, -1, -1):
        nxt = back[-1]
        back.append(
            frozenset(loc for loc in fwd[t] if any(x in nxt for x in _succ(steps[t], k, loc, li)))
        )
    back.reverse()
    return back


# ================================================================ the pass
# A type is a flat tuple (pool, location, bits of agent 0, bits of agent 1, ...).
# Named cards carry pool 0; a released card keeps its past bits at location -1.
_GONE = -1
# A named card no public event has mentioned yet is still anonymous.
_LATER = -2


class _Pass:
    """The forward pass over the simplified events, merging equal quotient states."""

    def __init__(
        self,
        h: CardHistory,
        steps: list[_Step],
        named: list[int],
        query: set[int],
        limit: int,
        watch: set[str] | None = None,
        static: bool = False,
    ):
        self.h = h
        self.static = static
        self.steps = steps
        self.named = named
        self.limit = limit
        self.li = {loc: i for i, loc in enumerate(h.locations)}
        self.agents = list(h.agents)
        self.ai = {a: i for i, a in enumerate(self.agents)}
        self.watch = set(self.agents) if watch is None else set(watch)
        self.slots = [0] * len(self.agents)
        self.pos = {k: i for i, k in enumerate(named)}
        public = set(h.public_locations())
        self.free = [loc for loc in h.locations if loc not in public and h.initial[loc]]
        self.dealt_bits = {
            loc: self._slot(frozenset(a for a in self.agents if loc in h.owns[a]))
            for loc in self.free
        }
        self.step_bits: list[list[tuple[int, int]]] = []
        for st in steps:
            private = st.kind in ("move", "show", "all", "reveal") and st.audience is not None
            self.step_bits.append(self._slot(st.audience) if private else [])
        self.where0: dict[int, int] = {}
        for loc in public:
            for k in h.initial[loc]:
                self.where0[k] = self.li[loc]
        starts = [
            [self.where0[k]] if k in self.where0 else [self.li[loc] for loc in self.free]
            for k in named
        ]
        self.feas = [
            _feasible(h, steps, k, st0, self.li) for k, st0 in zip(named, starts, strict=True)
        ]
        # pooling: cards outside the query, named by no later public event and
        # surely at one location, have interchangeable futures; they join one
        # pool there (a card keeps its past bits, a pool its multiset).
        self.last = [0] * len(named)
        for t, st in enumerate(steps):
            for k in _public_kinds(h, st):
                if k in self.pos:
                    self.last[self.pos[k]] = t + 1
        self.query = {self.pos[k] for k in query}
        self.loose = [j for j in range(len(named)) if j not in self.query]
        self.dead: set[int] = set()
        # a card is named when a public event first mentions it: until then it
        # is one of the anonymous cards
        # (a card of the query no public event names is named after the last event)
        self.first = [-1 if k in self.where0 else len(steps) for k in named]
        for t in range(len(steps) - 1, -1, -1):
            for k in _public_kinds(h, steps[t]):
                j = self.pos[k]
                if k not in self.where0:
                    self.first[j] = t
        self.introduce: dict[int, list[int]] = {}
        for j, t in enumerate(self.first):
            if t >= 0:
                self.introduce.setdefault(t, []).append(j)
        self.tags = 0
        self.decisions: dict[int, list[tuple[list[int], list[int], int, int]]] = {}
        self.width = 2 + len(self.agents)
        if static:
            self._static_decisions()

    def _slot(self, audience: frozenset[str] | None) -> list[tuple[int, int]]:
        out = []
        for a in sorted(set(audience or ()) & self.watch, key=self.ai.__getitem__):
            i = self.ai[a]
            out.append((2 + i, 1 << self.slots[i]))
            self.slots[i] += 1
        return out

    @staticmethod
    def _mark(t: Type, bits: Sequence[tuple[int, int]], loc: int) -> Type:
        x = list(t)
        for i, b in bits:
            x[i] |= b
        x[1] = loc
        return tuple(x)

    def _ok(self, j: int, t: int, loc: int) -> bool:
        return loc < 0 or loc in self.feas[j][t]

    def _fresh(self, pool: int, loc: int) -> Type:
        return (pool, loc) + (0,) * (self.width - 2)

    def _too_many(self, n: int, what: str) -> None:
        from kripke.errors import SizeLimitError

        raise SizeLimitError(
            f"the card-symmetry quotient has more than {self.limit:,} states after {what} "
            f"({n:,} states); name fewer cards"
        )

    # -- the deal
    def deal(self) -> list[State]:
        h = self.h
        base = {
            self.li[loc]: self._mark(self._fresh(0, 0), self.dealt_bits[loc], self.li[loc])
            for loc in self.free
        }
        room = {self.li[loc]: len(h.initial[loc]) for loc in self.free}
        out: list[State] = []
        choice = [0] * len(self.named)

        def rec(j: int) -> None:
            if len(out) > self.limit:
                self._too_many(len(out), "the deal")
            if j == len(self.named):
                named = tuple(base.get(loc, self._fresh(0, loc)) for loc in choice)
                anon = tuple(sorted((base[loc], r) for loc, r in room.items() if r > 0))
                out.append((named, anon))
                return
            k = self.named[j]
            if self.first[j] >= 0:
                choice[j] = _LATER
                rec(j + 1)
                return
            if k in self.where0:
                choice[j] = self.where0[k]
                rec(j + 1)
                return
            for loc in sorted(self.feas[j][0]):
                if room.get(loc, 0) > 0:
                    room[loc] -= 1
                    choice[j] = loc
                    rec(j + 1)
                    room[loc] += 1

        rec(0)
        return self._pool(0, list(dict.fromkeys(out)))

    def _pool(self, t: int, states: list[State]) -> list[State]:
        """Pool the cards and pools surely at one location at time ``t``."""
        if not states:
            return states
        if self.static:
            todo = self.decisions.get(t)
            if not todo:
                return states
            return list(dict.fromkeys(self._apply_pool(todo, s) for s in states))
        first_named, first_anon = states[0]
        at: dict[int, tuple[list[int], list[int]]] = {}
        for j in self.loose:
            loc = first_named[j][1]
            if loc < 0 or self.last[j] > t:
                continue
            if all(s[0][j][1] == loc for s in states):
                at.setdefault(loc, ([], []))[0].append(j)
        # a pool only becomes mergeable with another when a card joins the pools
        # or a whole location moves (two pools meet)
        moved = t > 0 and self.steps[t - 1].kind == "all"
        tags = {ty[0] for ty, _ in first_anon if ty[0] > 0 and ty[0] not in self.dead}
        if not at and not moved:
            tags = set()
        for tag in sorted(tags):
            part = tuple(x for x in first_anon if x[0][0] == tag)
            if len(part) == 1 and all(
                tuple(x for x in s[1] if x[0][0] == tag) == part for s in states
            ):
                at.setdefault(part[0][0][1], ([], []))[1].append(tag)
            else:
                self.dead.add(tag)
        todo = []
        for loc, (js, old) in sorted(at.items()):
            if len(js) + len(old) >= 2 or js:
                self.tags += 1
                todo.append((js, old, loc, self.tags))
                self.dead.update(old)
        if not todo:
            return states
        self.decisions[t] = todo
        return list(dict.fromkeys(self._apply_pool(todo, s) for s in states))

    def _apply_pool(self, todo: list[tuple[list[int], list[int], int, int]], s: State) -> State:
        """The state ``s`` with the pools of ``todo`` formed."""
        named, anon = s
        nm = list(named)
        new = Counter(dict(anon))
        for js, old, loc, tag in todo:
            fresh = self._fresh(tag, loc)
            for j in js:
                nm[j] = (0, _GONE) + nm[j][2:]
                new[fresh] += 1
            for ty, c in anon:
                if ty[0] in old:
                    del new[ty]
                    new[fresh] += c
        return tuple(nm), tuple(sorted(new.items()))

    def _static_decisions(self) -> None:
        """Every pool decision from the events alone (no state needed), for passes
        that keep only some states: a card joins a pool when its feasible locations
        are one location, an older pool when no hidden move or show left its
        location since it formed (its cards then share one type in every history)."""
        intact: dict[int, int] = {}  # pool tag -> its location
        gone: set[int] = set()
        for t in range(len(self.steps) + 1):
            if t > 0:
                st = self.steps[t - 1]
                if st.kind in ("move", "show") and st.audience is not None:
                    src = self.li[st.src]
                    intact = {g: loc for g, loc in intact.items() if loc != src}
                elif st.kind == "all":
                    src, dst = self.li[st.src], self.li[st.dst]
                    intact = {g: (dst if loc == src else loc) for g, loc in intact.items()}
            at: dict[int, tuple[list[int], list[int]]] = {}
            for j in self.loose:
                if j in gone or self.last[j] > t or not (self.first[j] < t):
                    continue
                where = self.feas[j][t]
                if len(where) == 1:
                    at.setdefault(next(iter(where)), ([], []))[0].append(j)
            moved = t > 0 and self.steps[t - 1].kind == "all"
            if at or moved:
                for tag, loc in intact.items():
                    at.setdefault(loc, ([], []))[1].append(tag)
            todo = []
            for loc, (js, old) in sorted(at.items()):
                if len(js) + len(old) >= 2 or js:
                    self.tags += 1
                    todo.append((js, old, loc, self.tags))
                    gone.update(js)
                    for g in old:
                        del intact[g]
                    intact[self.tags] = loc
            if todo:
                self.decisions[t] = todo

    # -- one step
    def step(self, t: int, states: Iterable[State], keep: Any = None) -> list[State]:
        """The states after event ``t``; with ``keep(t + 1, state)`` (static pools
        only) those it accepts."""
        st = self.steps[t]
        out: dict[State, None] = {}
        new = self.introduce.get(t)
        if new:
            states = self._name(st, new, states)
        todo = self.decisions.get(t + 1) if self.static else None
        for s in states:
            for s2 in self._branch(st, t, s, self.step_bits[t]):
                if todo:
                    s2 = self._apply_pool(todo, s2)
                if keep is not None and not keep(t + 1, s2):
                    continue
                out[s2] = None
                if len(out) > self.limit:
                    self._too_many(len(out), f"event {st.index}")
        if self.static:
            return list(out)
        return self._pool(t + 1, list(out))

    def finish(self, states: list[State], keep: Any = None) -> list[State]:
        """Name the cards of the query no public event named (with ``keep(state)``:
        those states it accepts)."""
        js = self.introduce.get(len(self.steps))
        if not js:
            return states if keep is None else [s for s in states if keep(s)]
        out: dict[State, None] = {}
        for s in self._name(None, js, states):
            if keep is not None and not keep(s):
                continue
            out[s] = None
            if len(out) > self.limit:
                self._too_many(len(out), "the last event")
        return list(out)

    def _name(self, st: _Step | None, js: list[int], states: Iterable[State]) -> Iterator[State]:
        """Name the cards ``js`` a public event mentions first: each takes the type
        of an anonymous card (one where the event puts it)."""
        at = None
        if st is not None and st.kind in ("move", "all", "reveal", "show"):
            at = self.li[st.src]
        for named, anon in states:
            pool = Counter({ty: c for ty, c in anon if ty[0] == 0 and (at is None or ty[1] == at)})
            yield from _assign(js, named, anon, pool)

    def _branch(self, st: _Step, t: int, s: State, bits: list[tuple[int, int]]) -> Iterator[State]:
        li = self.li
        named, anon = s
        kind = st.kind
        if kind in ("move", "show") and st.audience is not None:
            src = li[st.src]
            dst = li[st.dst] if kind == "move" else src
            n = len(st.kinds)
            here = [j for j, ty in enumerate(named) if ty[1] == src]
            pool = [(ty, c) for ty, c in anon if ty[1] == src]
            rest = [(ty, c) for ty, c in anon if ty[1] != src]
            for r in range(min(n, len(here)) + 1):
                for chosen in itertools.combinations(here, r):
                    nm = list(named)
                    for j in chosen:
                        nm[j] = self._mark(nm[j], bits, dst)
                    if not all(self._ok(j, t + 1, nm[j][1]) for j in here):
                        continue
                    ntup = tuple(nm)
                    for take in _compositions(n - r, [c for _, c in pool]):
                        new = Counter(dict(rest))
                        for (ty, c), x in zip(pool, take, strict=True):
                            if x:
                                new[self._mark(ty, bits, dst)] += x
                            if c - x:
                                new[ty] += c - x
                        yield ntup, tuple(sorted(new.items()))
            return
        if kind == "move":  # face up: the named cards move
            src, dst = li[st.src], li[st.dst]
            moved = list(named)
            for k in st.kinds:
                j = self.pos[k]
                if moved[j][1] != src:
                    return
                moved[j] = self._mark(moved[j], (), dst)
            if all(self._ok(j, t + 1, moved[j][1]) for j in range(len(moved))):
                yield tuple(moved), anon
            return
        if kind in ("all", "reveal"):
            loc = li[st.src]
            dst = li[st.dst] if kind == "all" else loc
            if st.audience is None:
                content = set(st.content)
                if any((ty[1] == loc) != (self.named[j] in content) for j, ty in enumerate(named)):
                    return
                if any(ty[1] == loc for ty, _ in anon):
                    return
            nt = tuple(self._mark(ty, bits, dst) if ty[1] == loc else ty for ty in named)
            if not all(self._ok(j, t + 1, nt[j][1]) for j in range(len(nt))):
                return
            if any(ty[1] == loc for ty, _ in anon):
                seen: Counter[Type] = Counter()
                for ty, c in anon:
                    seen[self._mark(ty, bits, dst) if ty[1] == loc else ty] += c
                yield nt, tuple(sorted(seen.items()))
            else:
                yield nt, anon
            return
        if kind == "show":  # to everybody
            if all(named[self.pos[k]][1] == li[st.src] for k in st.kinds):
                yield s
            return
        if kind == "count":
            locs = {li[x] for x in st.locations}
            have = sum(1 for k in st.kinds if named[self.pos[k]][1] in locs)
            if st.lo <= have <= st.hi:
                yield s
            return
        if kind == "fact":

            def atom(a: Any) -> bool:
                loc, k, _ = self.h.atom_cell(a)
                return named[self.pos[k]][1] == li[loc]

            if evaluate(st.formula, atom):
                yield s
            return
        raise InvalidParameterError(f"unknown event kind {kind!r}")  # pragma: no cover

    # -- the true history
    def _true_run(self) -> Iterator[tuple[int, dict[int, Type], dict[int, Type]]]:
        """The types of every card along the true history: ``(t, types, frozen)``
        after the pools of time ``t`` (``0..len(steps)``; the dicts are updated in
        place, ``frozen`` holds the past types of the named cards pooled so far)."""
        h = self.h
        where = {k: self.li[loc] for loc, ks in h.initial.items() for k in ks}
        types: dict[int, Type] = {}
        for k, loc in where.items():
            name = h.locations[loc]
            types[k] = self._mark(self._fresh(0, loc), self.dealt_bits.get(name, ()), loc)
        frozen: dict[int, Type] = {}

        def pool(t: int) -> None:
            for js, old, loc, tag in self.decisions.get(t, ()):
                for j in js:
                    k = self.named[j]
                    frozen[k] = (0, _GONE) + types[k][2:]
                    types[k] = self._fresh(tag, loc)
                for k, ty in types.items():
                    if ty[0] in old:
                        types[k] = self._fresh(tag, loc)

        pool(0)
        yield 0, types, frozen
        for t, st in enumerate(self.steps):
            bits = self.step_bits[t]
            if st.kind == "move":
                dst = self.li[st.dst]
                for k in st.kinds:
                    types[k] = self._mark(types[k], bits, dst)
            elif st.kind in ("all", "reveal"):
                loc = self.li[st.src]
                dst = self.li[st.dst] if st.kind == "all" else loc
                for k, ty in types.items():
                    if ty[1] == loc:
                        types[k] = self._mark(ty, bits, dst)
            elif st.kind == "show":
                for k in st.kinds:
                    types[k] = self._mark(types[k], bits, types[k][1])
            pool(t + 1)
            yield t + 1, types, frozen

    def truth(self) -> State:
        """The quotient state of the true history."""
        *_, (_, types, frozen) = self._true_run()
        nset = set(self.named)
        named = tuple(frozen.get(k, types[k]) for k in self.named)
        pooled: Counter[Type] = Counter(
            ty for k, ty in types.items() if k not in nset or k in frozen
        )
        return named, tuple(sorted(pooled.items()))

    def truth_states(self) -> list[State]:
        """The quotient state of the true history at every time ``0..len(steps)``
        (static pools: the decisions are known before the pass)."""
        later = self._fresh(0, _LATER)

        def snap(t: int, types: dict[int, Type], frozen: dict[int, Type]) -> State:
            named = []
            tracked = set()
            for j, k in enumerate(self.named):
                if self.first[j] < t:
                    named.append(frozen.get(k, types[k]))
                    if k not in frozen:
                        tracked.add(k)
                else:
                    named.append(later)
            anon = Counter(ty for k, ty in types.items() if k not in tracked)
            return tuple(named), tuple(sorted(anon.items()))

        return [snap(t, types, frozen) for t, types, frozen in self._true_run()]


def _view(s: State, col: int) -> Any:
    """What the agent of column ``col`` observed in the state ``s`` so far (up to the
    card symmetries): its bits of every tracked card, the multiset of its bits of
    the others by pool."""
    named, anon = s
    cnt: Counter[tuple[int, int]] = Counter()
    for ty, n in anon:
        cnt[(ty[0], ty[col])] += n
    return tuple(ty[col] for ty in named), tuple(sorted(cnt.items()))


def _key(s: State, cols: tuple[int, ...]) -> Any:
    """The final view of the agents of columns ``cols`` (their relation's key in the
    quotient model): their bits of every tracked card, the multiset of their bits of
    the others by pool."""
    named, anon = s
    cnt: Counter[Any] = Counter()
    for ty, n in anon:
        cnt[(ty[0],) + tuple(ty[c] for c in cols)] += n
    return tuple(tuple(ty[c] for c in cols) for ty in named), tuple(sorted(cnt.items()))


def _assign(
    js: Sequence[int],
    named: tuple[Type, ...],
    anon: tuple[tuple[Type, int], ...],
    pool: Counter[Type],
) -> Iterator[State]:
    """Every way to give the named cards ``js`` distinct anonymous cards of ``pool``."""
    nm = list(named)

    def rec(i: int) -> Iterator[State]:
        if i == len(js):
            new = Counter(dict(anon))
            for j in js:
                new[nm[j]] -= 1
            yield tuple(nm), tuple(sorted((ty, c) for ty, c in new.items() if c))
            return
        for ty in list(pool):
            if pool[ty] <= 0:
                continue
            pool[ty] -= 1
            nm[js[i]] = ty
            yield from rec(i + 1)
            pool[ty] += 1

    return rec(0)


def _compositions(n: int, caps: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every ``(x_0, ...)`` with ``0 <= x_i <= caps[i]`` and ``sum == n``."""
    if not caps:
        if n == 0:
            yield ()
        return
    tail = sum(caps[1:])
    for x in range(max(0, n - tail), min(n, caps[0]) + 1):
        for rest in _compositions(n - x, caps[1:]):
            yield (x, *rest)


# ================================================================ the model
@dataclass
class QuotientModel:
    """The card-symmetry quotient of a card history for formulas about some cards.

    Attributes
    ----------
    history : CardHistory
    cards : tuple of str
        The cards the formulas may mention (atoms ``has(L, C)`` for every
        location ``L``).
    named : tuple of str
        ``cards`` and every card a public event names (tracked one by one
        while public events still mention them).
    states : list
        The quotient states ``(named, counts)``: per named card its type
        (for a card of ``cards`` its pool 0, location index and observed
        bits per agent; for the others their observed bits), and how many
        anonymous or pooled cards have each ``(pool, observed bits)``.
    pointed : kripke.models.PointedModel
        The explicit model, pointed at the true history's state.  Besides
        the agents it has one relation ``D__<i>_<j>…`` per group of agent
        indices asked about by distributed knowledge (see :meth:`holds`).
    seconds : float
        Time taken to build.
    peak : int
        Most states kept after any event.
    agents : tuple of str
        The agents whose knowledge the model answers.
    pools : int
        How many pools of interchangeable futures the pass formed.
    depth : int or None
        ``None``: every history (or every one the agents can reach from the
        true one); else only those within ``depth`` steps of the agents'
        relations, which answer the formulas of modal depth up to ``depth``.
    layers : int
        Passes over the events the local quotient took (0 for the whole one).
    words : frozenset or None
        For a quotient kept to some words of steps (``words=`` of
        :func:`quotient_model`): those words, prefixes included.
    """

    history: CardHistory
    cards: tuple[str, ...]
    named: tuple[str, ...]
    states: list[Any]
    pointed: Any
    seconds: float = 0.0
    peak: int = 0
    groups: dict[tuple[str, ...], str] = field(default_factory=dict)
    agents: tuple[str, ...] = ()
    pools: int = 0
    depth: int | None = None
    layers: int = 0
    words: frozenset[tuple[Any, ...]] | None = None
    by_words: Any = None

    def formula(self, f: Any) -> Any:
        """``f`` parsed with the seat aliases of :class:`~games.epistemic.GameKnowledge`,
        distributed knowledge rewritten to the group relations.

        Raises
        ------
        InvalidParameterError
            If ``f`` mentions a card outside :attr:`cards`.
        """
        g = read_formula(self.history, f)
        keep = set(self.cards)
        for a in g.atoms():
            card = a.args[1]
            if card not in keep:
                raise InvalidParameterError(
                    f"{a.key}: card {card} is not among the cards of this quotient "
                    f"({', '.join(self.cards)}); build it with that card"
                )
        from kripke.errors import UnknownAgentError

        bad = sorted(set(g.agents()) - set(self.agents))
        if bad:
            raise UnknownAgentError(
                f"agent {bad[0]!r} is not among the agents of this quotient "
                f"({', '.join(self.agents)}); build it with that agent"
            )
        return _distributed(g, self.groups)

    def holds(self, f: Any) -> bool:
        """Whether ``f`` (about :attr:`cards` only) holds in the true state.

        ``D_G f`` is evaluated on the relation of equal joint observations
        of ``G`` up to the card symmetries (the group's relation of the
        model); the groups are those of the formulas given to
        :func:`quotient_model`, and a formula with a new group raises.
        """
        from kripke.semantics import holds

        g = self.formula(f)
        if self.words is not None:
            need = formula_words(read_formula(self.history, f))
            if need is None or not need <= self.words:
                raise InvalidParameterError(
                    f"{g} looks along steps this local quotient did not keep; build it "
                    f"with words=formula_words(...) of that formula"
                )
            return bool(self.by_words.holds(read_formula(self.history, f)))
        if self.depth is not None:
            d = reach_depth(g)
            if d is None or d > self.depth:
                raise InvalidParameterError(
                    f"{g} looks {'arbitrarily far' if d is None else f'{d} steps'} from the "
                    f"true history; this local quotient keeps {self.depth} (build it with "
                    f"depth={'None' if d is None else d})"
                )
        return bool(holds(self.pointed, g))

    def __len__(self) -> int:
        return len(self.states)

    def __repr__(self) -> str:
        return (
            f"QuotientModel({len(self.states):,} states, cards {list(self.cards)}, "
            f"{len(self.named)} named)"
        )


def reach_depth(f: Any) -> int | None:
    """How many steps of the agents' relations from a history the truth of ``f``
    there depends on (``None``: any number, for common knowledge).

    Every knowledge operator adds a step; an announcement ``[a] g`` needs
    ``g``'s steps and then ``a``'s at each history reached.

    Examples
    --------
    >>> from kripke.parser import parse
    >>> reach_depth(parse("K_a ~K_b p & q")), reach_depth(parse("[!K_a p] M_b q"))
    (2, 2)
    >>> reach_depth(parse("C_{a,b} p")) is None
    True
    """
    words = formula_words(f)
    return None if words is None else max(len(w) for w in words)


def _group_name(agents: Sequence[str], group: Sequence[str]) -> str:
    idx = sorted(agents.index(a) for a in set(group))
    name = "D__" + "_".join(str(i) for i in idx)
    while name in agents:
        name += "_"
    return name


def _distributed(f: Any, groups: dict[tuple[str, ...], str]) -> Any:
    from kripke.formulas import Distributed, Know

    def go(g: Any) -> Any:
        if isinstance(g, Distributed):
            key = tuple(sorted(set(g.group)))
            if len(key) == 1:
                return Know(key[0], go(g.arg))
            if key not in groups:
                raise InvalidParameterError(
                    f"distributed knowledge of {', '.join(key)} was not prepared; pass "
                    f"the formula (or groups=) to quotient_model"
                )
            return Know(groups[key], go(g.arg))
        return _map_children(g, go)

    return go(f)


def _groups_of(fs: Iterable[Any]) -> set[tuple[str, ...]]:
    from kripke.formulas import Distributed

    out: set[tuple[str, ...]] = set()

    def go(g: Any) -> None:
        if isinstance(g, Distributed) and len(set(g.group)) > 1:
            out.add(tuple(sorted(set(g.group))))
        for c in g.children():
            go(c)

    for f in fs:
        go(f)
    return out


def _layers(p: _Pass, depth: int) -> tuple[list[State], int, int, bool]:
    """The pass kept to the histories within ``depth`` steps of the true one.

    Pass ``i`` keeps a state when some agent's view of it so far equals its
    view so far of a state kept by pass ``i - 1`` (pass 0: the true history);
    a view so far is determined by the final view, so every history within
    ``i`` steps survives pass ``i``.  Returns the states after the last pass,
    the most states kept at any event, the passes made and whether the views
    closed up (a pass kept no new view: every history the agents can reach).
    """
    cols = [2 + p.ai[a] for a in p.agents if a in p.watch]
    truth = p.truth_states()
    states: list[State] = []
    if not cols:  # no agent: the true history alone
        states = [s for s in p.deal() if s == truth[0]]
        for t in range(len(p.steps)):
            states = p.step(t, states, lambda t, s: s == truth[t])
        return states, 1, 1, True
    allowed = [{c: {_view(s, c)} for c in cols} for s in truth]
    peak = 0
    for layer in range(1, max(depth, 1) + 1):
        seen: list[dict[int, set[Any]]] = [{c: set() for c in cols} for _ in truth]

        def keep(
            t: int,
            s: State,
            allowed: list[dict[int, set[Any]]] = allowed,
            seen: list[dict[int, set[Any]]] = seen,
        ) -> bool:
            views = {c: _view(s, c) for c in cols}
            if not any(views[c] in allowed[t][c] for c in cols):
                return False
            for c, v in views.items():
                seen[t][c].add(v)
            return True

        states = [s for s in p.deal() if keep(0, s)]
        peak = max(peak, len(states))
        for t in range(len(p.steps)):
            states = p.step(t, states, keep)
            peak = max(peak, len(states))
        if seen == allowed:
            return states, peak, layer, True
        allowed = seen
    return states, peak, max(depth, 1), False


def _group_key(h: CardHistory, group: Iterable[Any]) -> Any:
    """A letter for the group ``group``: an agent alone, else the sorted agents."""
    key = tuple(sorted({seat_agent(h, a) for a in group}))
    return key[0] if len(key) == 1 else key


def _prefixes(words: Iterable[tuple[Any, ...]]) -> frozenset[tuple[Any, ...]]:
    out: set[tuple[Any, ...]] = {()}
    for w in words:
        for i in range(1, len(w) + 1):
            out.add(tuple(w[:i]))
    return frozenset(out)


def formula_words(f: Any) -> frozenset[tuple[Any, ...]] | None:
    """The words of steps along which the truth of ``f`` at a history looks
    (prefixes included; ``None`` with common knowledge, which looks along all).

    A letter is an agent (``K``, ``M``, ``Kw``, one per agent of ``E``) or a
    sorted group of agents (``D``); an announcement ``[a] g`` looks along
    ``g``'s words and then ``a``'s.

    Examples
    --------
    >>> from kripke.parser import parse
    >>> sorted(formula_words(parse("K_a ~K_b p | M_c p")))
    [(), ('a',), ('a', 'b'), ('c',)]
    >>> sorted(formula_words(parse("E_{a,b} D_{b,c} p")), key=lambda w: (len(w), str(w)))
    [(), ('a',), ('b',), ('a', ('b', 'c')), ('b', ('b', 'c'))]
    """
    from kripke.formulas import (
        Announce,
        AnnounceDiamond,
        Common,
        Distributed,
        Everybody,
        Know,
        KnowWhether,
        Possible,
    )

    def go(g: Any) -> frozenset[tuple[Any, ...]] | None:
        match g:
            case Common():
                return None
            case Know(agent, arg) | Possible(agent, arg) | KnowWhether(agent, arg):
                inner = go(arg)
                if inner is None:
                    return None
                return frozenset({()} | {(agent, *w) for w in inner})
            case Everybody(group, arg):
                inner = go(arg)
                if inner is None:
                    return None
                return frozenset({()} | {(a, *w) for a in set(group) for w in inner})
            case Distributed(group, arg):
                inner = go(arg)
                if inner is None:
                    return None
                key = tuple(sorted(set(group)))
                x: Any = key[0] if len(key) == 1 else key
                return frozenset({()} | {(x, *w) for w in inner})
            case Announce(ann, arg) | AnnounceDiamond(ann, arg):
                a, b = go(ann), go(arg)
                if a is None or b is None:
                    return None
                return frozenset(b | {(*u, *v) for u in b for v in a})
        out: set[tuple[Any, ...]] = {()}
        for c in g.children():
            inner = go(c)
            if inner is None:
                return None
            out |= inner
        return frozenset(out)

    return go(f)


def _next_letters(path: Iterable[tuple[Any, ...]]) -> dict[tuple[Any, ...], set[Any]]:
    """For every word of ``path`` that another extends, the letters that follow it."""
    after: dict[tuple[Any, ...], set[Any]] = {}
    for w in path:
        if w:
            after.setdefault(w[:-1], set()).add(w[-1])
    return after


def _members(x: Any) -> tuple[str, ...]:
    """The agents of a letter: an agent, or a group (distributed knowledge)."""
    return (x,) if isinstance(x, str) else tuple(x)


def _word_quotient(
    h: CardHistory,
    steps: list[_Step],
    named: list[int],
    qk: set[int],
    path: frozenset[tuple[Any, ...]],
    limit: int,
) -> tuple[dict[tuple[Any, ...], list[tuple[Any, dict[Any, Any]]]], int, int]:
    """The histories the words of ``path`` reach from the true one, word by word.

    Each word ``w + (x,)`` has a pass of its own that tracks only what ``x``
    and the letters after it observe: it keeps a state whose views so far of
    ``x`` are views so far of a state kept for ``w`` (a view so far is
    determined by the final view, so every history the word reaches
    survives), and at the end the states whose final view of ``x`` is that of
    a history ``w`` reaches.  Returns the histories as ``(locations of the
    query cards, {letter: final view})`` with the views of the letters the
    word's pass tracked, by word (the empty word: the true history), the
    most states kept at any event and the passes made.
    """
    after = _next_letters(path)
    members = _members

    def make(letters: Iterable[Any]) -> _Pass:
        watch = {a for x in letters for a in members(x)}
        return _Pass(h, steps, named, qk, limit, watch, static=True)

    root = make(after.get((), ()))

    def cols(x: Any) -> tuple[int, ...]:
        return tuple(2 + root.ai[a] for a in members(x))

    qpos = [named.index(k) for k in sorted(qk)]  # in deck order, as the query

    def node(s: State, letters: Iterable[Any]) -> tuple[Any, dict[Any, Any]]:
        return tuple(s[0][j][1] for j in qpos), {x: _key(s, cols(x)) for x in letters}

    end = root.truth()
    nodes = {(): [node(end, after.get((), ()))]}
    allowed: dict[tuple[Any, ...], list[dict[int, set[Any]]]] = {
        (): [
            {c: {_view(s, c)} for x in after.get((), ()) for c in cols(x)}
            for s in root.truth_states()
        ]
    }
    final: dict[tuple[Any, ...], dict[tuple[int, ...], set[Any]]] = {
        (): {cols(x): {_key(end, cols(x))} for x in after.get((), ())}
    }
    peak = 1
    passes = 0
    for w in sorted((w for w in path if w), key=len):
        x, prev = w[-1], w[:-1]
        nxt = after.get(w, set())
        p = make({x} | nxt)
        passes += 1
        cx = cols(x)
        record = sorted({c for y in nxt for c in cols(y)})
        seen: list[dict[int, set[Any]]] = [
            {c: set() for c in record} for _ in range(len(steps) + 1)
        ]
        al = allowed[prev]

        def keep(
            t: int,
            s: State,
            cx: tuple[int, ...] = cx,
            al: list[dict[int, set[Any]]] = al,
            record: list[int] = record,
            seen: list[dict[int, set[Any]]] = seen,
        ) -> bool:
            views = {c: _view(s, c) for c in cx}
            if not all(views[c] in al[t][c] for c in cx):
                return False
            for c in record:
                seen[t][c].add(views[c] if c in views else _view(s, c))
            return True

        states = [s for s in p.deal() if keep(0, s)]
        peak = max(peak, len(states))
        for t in range(len(steps)):
            states = p.step(t, states, keep)
            peak = max(peak, len(states))
        letters = sorted(nxt - {x}, key=str)
        got = _finish_reaching(p, states, cx, final[prev][cx], qpos, [cols(y) for y in letters])
        peak = max(peak, len(got))
        made = [(val, dict(zip([x, *letters], views, strict=True))) for val, views in got]
        if nxt:
            allowed[w] = seen
            final[w] = {cols(y): {keys[y] for _, keys in made} for y in nxt}
        nodes[w] = made
    return nodes, peak, passes


class _WordModel:
    """Truth along the words of :func:`_word_quotient`: ``K_y g`` at a history reached
    by the word ``w`` is ``g`` at every history of the pass of ``w + (y,)`` with the
    same final view of ``y``; announcements restrict those histories."""

    def __init__(
        self,
        h: CardHistory,
        query: tuple[str, ...],
        nodes: dict[tuple[Any, ...], list[tuple[Any, dict[Any, Any]]]],
    ):
        self.h = h
        self.query = query
        self.nodes = nodes
        self.by_key: dict[tuple[Any, ...], dict[Any, list[int]]] = {}
        for w, ns in nodes.items():
            if w:
                cl: dict[Any, list[int]] = {}
                for i, (_, keys) in enumerate(ns):
                    cl.setdefault(keys[w[-1]], []).append(i)
                self.by_key[w] = cl
        self.memo: dict[Any, bool] = {}

    def __len__(self) -> int:
        return sum(len(ns) for ns in self.nodes.values())

    def holds(self, f: Any) -> bool:
        return self.val(f, (), 0, ())

    def _class(
        self, x: Any, w: tuple[Any, ...], i: int, ann: tuple[Any, ...]
    ) -> list[tuple[Any, ...]]:
        v = (*w, x)
        members = self.by_key[v].get(self.nodes[w][i][1][x], [])
        return [(v, j) for j in members if self._alive(v, j, ann)]

    def _alive(self, w: tuple[Any, ...], i: int, ann: tuple[Any, ...]) -> bool:
        return all(self.val(a, w, i, ann[:k]) for k, a in enumerate(ann))

    def val(self, f: Any, w: tuple[Any, ...], i: int, ann: tuple[Any, ...]) -> bool:
        key = (f, w, i, ann)
        out = self.memo.get(key)
        if out is None:
            out = self._val(f, w, i, ann)
            self.memo[key] = out
        return out

    def _atom(self, f: Any, w: tuple[Any, ...], i: int) -> bool:
        loc, card = f.args
        if card not in self.query:
            raise InvalidParameterError(f"{f.key}: card {card} is not among {self.query}")
        return self.h.locations[self.nodes[w][i][0][self.query.index(card)]] == loc

    def _val(self, f: Any, w: tuple[Any, ...], i: int, ann: tuple[Any, ...]) -> bool:
        from kripke.formulas import (
            Announce,
            AnnounceDiamond,
            Distributed,
            Everybody,
            Know,
            KnowWhether,
            Possible,
        )

        out = connective_value(f, lambda a: self._atom(a, w, i), lambda g: self.val(g, w, i, ann))
        if out is not None:
            return out
        match f:
            case Know(agent, arg):
                return all(self.val(arg, m[0], m[1], ann) for m in self._class(agent, w, i, ann))
            case Possible(agent, arg):
                return any(self.val(arg, m[0], m[1], ann) for m in self._class(agent, w, i, ann))
            case KnowWhether(agent, arg):
                vals = {self.val(arg, m[0], m[1], ann) for m in self._class(agent, w, i, ann)}
                return len(vals) <= 1
            case Everybody(group, arg):
                return all(
                    self.val(arg, m[0], m[1], ann)
                    for a in set(group)
                    for m in self._class(a, w, i, ann)
                )
            case Distributed(group, arg):
                g = tuple(sorted(set(group)))
                x: Any = g[0] if len(g) == 1 else g
                return all(self.val(arg, m[0], m[1], ann) for m in self._class(x, w, i, ann))
            case Announce(a, arg):
                return not self.val(a, w, i, ann) or self.val(arg, w, i, (*ann, a))
            case AnnounceDiamond(a, arg):
                return self.val(a, w, i, ann) and self.val(arg, w, i, (*ann, a))
        raise InvalidParameterError(f"the local quotient does not evaluate {f}")  # pragma: no cover


def _finish_reaching(
    p: _Pass,
    states: list[State],
    cs: tuple[int, ...],
    keys: set[Any],
    qpos: list[int],
    more: Sequence[tuple[int, ...]] = (),
) -> set[tuple[Any, tuple[Any, ...]]]:
    """The histories of ``p.finish(states)`` whose final view of the columns ``cs`` is
    in ``keys``, as ``(locations of the query cards, (view of cs, views of
    more...))``.

    When one card is left to name, the views are computed once per kind of
    anonymous card it may be (its pool and bits), without building the states.
    """
    js = p.introduce.get(len(p.steps))
    allcs = [cs, *more]
    out: set[tuple[Any, tuple[Any, ...]]] = set()
    if not (js and len(js) == 1):
        for s in p.finish(states, lambda s: _key(s, cs) in keys):
            out.add((tuple(s[0][jj][1] for jj in qpos), tuple(_key(s, c) for c in allcs)))
        return out
    j = js[0]
    for named, anon in states:
        bases = []
        for c in allcs:
            cnt: Counter[Any] = Counter()
            for ty, n in anon:
                cnt[(ty[0],) + tuple(ty[i] for i in c)] += n
            bases.append((c, cnt, [tuple(ty[i] for i in c) for ty in named]))
        seen: dict[Any, Any] = {}
        for ty, _n in anon:
            if ty[0] != 0:
                continue
            sig = tuple(ty[i] for c in allcs for i in c)
            if sig not in seen:
                views = []
                for c, cnt, nm in bases:
                    proj = (0,) + tuple(ty[i] for i in c)
                    cnt[proj] -= 1
                    nm[j] = proj[1:]
                    views.append((tuple(nm), tuple(sorted((k, v) for k, v in cnt.items() if v))))
                    cnt[proj] += 1
                    if len(views) == 1 and views[0] not in keys:
                        break
                seen[sig] = tuple(views) if views[0] in keys else None
            got = seen[sig]
            if got is not None:
                out.add((tuple(ty[1] if jj == j else named[jj][1] for jj in qpos), got))
        if len(out) > p.limit:
            p._too_many(len(out), "the last event")
    return out


def _near(start: int, keys: Sequence[Sequence[Any]], depth: int | None) -> list[int]:
    """The states at most ``depth`` steps (``None``: any number) from ``start``,
    a step joining two states with the same key in one of ``keys``, in order."""
    classes = []
    for ks in keys:
        cl: dict[Any, list[int]] = {}
        for i, k in enumerate(ks):
            cl.setdefault(k, []).append(i)
        classes.append(cl)
    dist = {start: 0}
    frontier = [start]
    d = 0
    while frontier and (depth is None or d < depth):
        d += 1
        nxt = []
        for i in frontier:
            for ks, cl in zip(keys, classes, strict=True):
                for j in cl.pop(ks[i], ()):
                    if j not in dist:
                        dist[j] = d
                        nxt.append(j)
        frontier = nxt
    return sorted(dist)


def quotient_model(
    h: CardHistory,
    cards: Iterable[str],
    *,
    agents: Iterable[Any] | None = None,
    groups: Iterable[Iterable[Any]] = (),
    formulas: Iterable[Any] = (),
    limit: int = MAX_STATES,
    depth: int | None = None,
    words: Iterable[Sequence[Any]] | None = None,
) -> QuotientModel:
    """The card-symmetry quotient of ``h`` for formulas about ``cards``.

    Parameters
    ----------
    h : CardHistory
        A history over a deck without copies.
    cards : iterable of str
        The cards the formulas will mention.
    agents : iterable of seats, optional
        The agents the formulas will mention (default: every agent).  What
        the others observed is not tracked, which merges states.
    groups : iterable of agent groups, optional
        Groups whose distributed knowledge will be asked (``D_G``).
    formulas : iterable of formulas, optional
        Formulas to be asked: their groups are added to ``groups``.
    limit : int
        Most states kept after any event.
    depth : int, optional
        Keep only the histories at most ``depth`` steps of the agents'
        relations away from the true one (the *local* quotient): it answers
        exactly every formula of modal depth at most ``depth`` (and, when
        the histories it reaches close up before ``depth``, every formula;
        then :attr:`QuotientModel.depth` is ``None``).  Default: every
        history.
    words : iterable of sequences, optional
        Keep only the histories reached from the true one along these words
        (and their prefixes): a letter is an agent (a step of its relation)
        or a group of agents (a step of their distributed knowledge).
        :func:`formula_words` gives a formula's words; the model answers
        exactly the formulas whose words are among them.

    Raises
    ------
    InvalidParameterError
        For a deck with copies or an unknown card.
    kripke.errors.SizeLimitError
        When more than ``limit`` states are needed (the message gives the count).

    Examples
    --------
    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move, MoveAll
    >>> h = CardHistory(Deck(["A", "B", "C", "D", "E"]),
    ...                 {"x": "A B", "y": "C D", "z": "E", "pile": ""}, ["x", "y", "z"])
    >>> h = h.then(Move("A", "x", "pile", seen_by=["x"]), MoveAll("pile", "y", seen_by=["y"]))
    >>> q = quotient_model(h, ["A"])
    >>> q.holds("K_x K_y has(y, A)"), q.holds("K_z has(y, A)")
    (True, False)
    """
    from games.epistemic.symbolic import simplify_steps

    t0 = time.perf_counter()
    _no_copies(h)
    query = tuple(dict.fromkeys(h.deck.name(_card_index(h, c)) for c in cards))
    names = named_cards(h, query)
    grp, watch = _watched(h, agents, groups, formulas)
    steps = simplify_steps(h)
    qk = {h.deck.index(c) for c in query}
    path: frozenset[tuple[Any, ...]] | None = None
    if words is not None:
        path = _prefixes(
            tuple(seat_agent(h, x) if isinstance(x, str) else _group_key(h, x) for x in w)
            for w in words
        )
        grp |= {x for w in path for x in w if isinstance(x, tuple)}
        watch.update(a for w in path for x in w for a in ((x,) if isinstance(x, str) else x))
    closed = depth is None and path is None
    if path is not None:
        nodes, peak, passes = _word_quotient(
            h, steps, [h.deck.index(c) for c in names], qk, path, limit
        )
        wm = _WordModel(h, tuple(sorted(query, key=h.deck.index)), nodes)
        out = QuotientModel(
            h,
            query,
            names,
            [v for ns in nodes.values() for v, _ in ns],
            None,
            peak=peak,
            groups={g: _group_name(list(h.agents), g) for g in sorted(grp)},
            agents=tuple(a for a in h.agents if a in watch),
            layers=passes,
            words=path,
            by_words=wm,
        )
        out.seconds = time.perf_counter() - t0
        return out
    p = _Pass(
        h, steps, [h.deck.index(c) for c in names], qk, limit, watch, static=depth is not None
    )
    if depth is None:
        states = p.deal()
        peak = len(states)
        for t in range(len(steps)):
            states = p.step(t, states)
            peak = max(peak, len(states))
        layers = 0
    else:
        states, peak, layers, closed = _layers(p, depth)
    states = p.finish(states)
    peak = max(peak, len(states))
    keep = [j for j, k in enumerate(p.named) if k in qk]
    final: dict[Any, int] = {}

    def project(s: State) -> Any:
        named, anon = s
        nm = tuple(ty if p.named[j] in qk else ty[2:] for j, ty in enumerate(named))
        c: Counter[Type] = Counter()
        for ty, n in anon:
            c[(ty[0],) + ty[2:]] += n
        return nm, tuple(sorted(c.items()))

    for s in states:
        final.setdefault(project(s), len(final))
    actual = final.get(project(p.truth()))
    if actual is None:  # pragma: no cover - the true history is always a state
        raise InvalidParameterError("the true history is missing from the quotient")
    agents = list(h.agents)
    relations: dict[str, tuple[int, ...]] = {
        a: (2 + i,) for i, a in enumerate(agents) if a in watch
    }
    singles = list(relations)
    group_names = {g: _group_name(agents, g) for g in sorted(grp)}
    for g, name in group_names.items():
        relations[name] = tuple(2 + agents.index(a) for a in g)
    qpos = {j: h.deck.name(p.named[j]) for j in keep}
    order = list(final)

    def key(nm: Any, anon: Any, cols: tuple[int, ...]) -> Any:
        view = tuple(
            tuple(ty[c] for c in cols) if j in qpos else tuple(ty[c - 2] for c in cols)
            for j, ty in enumerate(nm)
        )
        cnt: Counter[Any] = Counter()
        for ty, n in anon:
            cnt[(ty[0],) + tuple(ty[c - 1] for c in cols)] += n
        return view, tuple(sorted(cnt.items()))

    keys = {r: [key(nm, anon, cols) for nm, anon in order] for r, cols in relations.items()}
    if depth is not None:  # the histories within ``depth`` steps of the true one
        near = _near(actual, [keys[r] for r in singles], None if closed else depth)
        order = [order[i] for i in near]
        keys = {r: [ks[i] for i in near] for r, ks in keys.items()}
        actual = near.index(actual)
    pointed = _partition_model(
        "q",
        [[f"has({h.locations[nm[j][1]]}, {c})" for j, c in qpos.items()] for nm, _ in order],
        keys,
        [f"has({loc}, {c})" for loc in h.locations for c in query],
        actual,
    )
    out = QuotientModel(
        h,
        query,
        names,
        order,
        pointed,
        peak=peak,
        groups=group_names,
        agents=tuple(a for a in h.agents if a in watch),
        pools=p.tags,
        depth=None if closed else depth,
        layers=layers,
    )
    out.seconds = time.perf_counter() - t0
    return out


def _watched(
    h: CardHistory,
    agents: Iterable[Any] | None,
    groups: Iterable[Iterable[Any]],
    formulas: Iterable[Any],
) -> tuple[set[tuple[str, ...]], set[str]]:
    """The groups of two or more agents whose distributed knowledge is asked (given and
    in ``formulas``) and the agents whose observations a quotient tracks (``agents``,
    default every agent, and the groups' members)."""
    grp = {tuple(sorted({seat_agent(h, a) for a in g})) for g in groups}
    grp |= _groups_of(read_formula(h, f) for f in formulas)
    grp = {g for g in grp if len(g) > 1}
    watch = set(h.agents) if agents is None else {seat_agent(h, a) for a in agents}
    for g in grp:
        watch.update(g)
    return grp, watch


def _partition_model(
    prefix: str,
    vals: Sequence[list[str]],
    keys: dict[str, list[Any]],
    atoms: list[str],
    actual: int,
) -> Any:
    """The pointed Kripke model of states ``0..len(vals)-1`` (labelled ``prefix<i>``)
    with the true atoms ``vals[i]``, one relation per ``keys`` entry (states with
    equal keys are indistinguishable), pointed at state ``actual``."""
    from kripke.models import KripkeModel, PointedModel

    labels = [f"{prefix}{i}" for i in range(len(vals))]
    parts: dict[str, dict[Any, list[str]]] = {r: {} for r in keys}
    for r, ks in keys.items():
        for lab, k in zip(labels, ks, strict=True):
            parts[r].setdefault(k, []).append(lab)
    model = KripkeModel.from_partitions(
        labels,
        dict(zip(labels, vals, strict=True)),
        {r: list(cl.values()) for r, cl in parts.items()},
        atoms=atoms,
    )
    return PointedModel(model, labels[actual])


def quotient_holds(h: CardHistory, f: Any, *, limit: int = MAX_STATES) -> bool:
    """Whether ``f`` holds in the true state, on the quotient for the cards ``f`` mentions.

    Seats may be named as in :class:`~games.epistemic.GameKnowledge`
    (``K_1 has(2, QS)``).

    Raises
    ------
    InvalidParameterError, kripke.errors.KripkeError
        For a deck with copies, a formula that does not parse or names an
        unknown card, seat or location, or a quotient over ``limit`` states.

    Examples
    --------
    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move
    >>> h = CardHistory(Deck(["A", "B", "C"]), {"x": "A B", "y": "C", "pile": ""}, ["x", "y"])
    >>> quotient_holds(h.then(Move("A", "x", "pile", seen_by=["x"])), "K_1 ~K_1 has(pile, A)")
    True
    """
    g = read_formula(h, f)
    _no_copies(h)
    cards = sorted({a.args[1] for a in g.atoms()})
    q = quotient_model(h, cards, agents=g.agents(), formulas=[g], limit=limit)
    return q.holds(g)


def local_holds(h: CardHistory, f: Any, *, limit: int = MAX_STATES) -> bool:
    """Whether ``f`` holds in the true state, on the local quotient: only the
    histories the formula's knowledge operators can reach from the true one.

    A formula of modal depth ``d`` is answered on the histories within ``d``
    steps of the agents' relations (:func:`quotient_model` with
    ``depth=d``), exactly.  Common knowledge ``C_G g`` looks arbitrarily
    far: the steps grow one at a time until the histories reached close up
    (then every formula is exact), or, while every ``C`` of ``f`` stands
    under no negation (or every one under one), until ``f`` with each
    ``C_G g`` weakened to ``E_G g & E_G E_G g & ...`` (as many as the steps
    allow) already decides it.

    Raises
    ------
    InvalidParameterError, kripke.errors.KripkeError
        As :func:`quotient_holds`.

    Examples
    --------
    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move
    >>> h = CardHistory(Deck(["A", "B", "C", "D"]), {"x": "A B", "y": "C", "z": "D", "pile": ""},
    ...                 ["x", "y", "z"])
    >>> h = h.then(Move("A", "x", "pile", seen_by=["x"]))
    >>> local_holds(h, "K_z ~K_y has(pile, A)"), local_holds(h, "K_x ~K_y has(pile, A)")
    (True, True)
    >>> local_holds(h, "C_{x,y} has(pile, A)")
    False
    """
    g = read_formula(h, f)
    _no_copies(h)
    cards = sorted({a.args[1] for a in g.atoms()})

    def build(**how: Any) -> QuotientModel:
        return quotient_model(h, cards, agents=g.agents(), formulas=[g], limit=limit, **how)

    words = formula_words(g)
    if words is not None:
        return build(words=words).holds(g)
    sign = _common_sign(g)
    if sign is not None:  # E-weakenings along their words first
        for k in range(1, WEAKENINGS + 1):
            weak_f = _weaken(g, k)
            weak = build(words=formula_words(weak_f)).holds(weak_f)
            if weak == (sign < 0):
                return weak
    base = reach_depth(_weaken(g, 1)) or 1
    k = 1
    while True:
        q = build(depth=base + k - 1)
        if q.depth is None:
            return q.holds(g)
        if sign is not None:
            weak = q.holds(_weaken(g, k))
            if weak == (sign < 0):
                return weak
        k += 1


def _weaken(f: Any, k: int) -> Any:
    """``f`` with every ``C_G g`` replaced by ``E_G g & E_G E_G g & ...`` (``k`` terms)."""
    from kripke.formulas import And, Common, Everybody

    def go(g: Any) -> Any:
        if isinstance(g, Common):
            cur = go(g.arg)
            terms = []
            for _ in range(k):
                cur = Everybody(g.group, cur)
                terms.append(cur)
            return terms[0] if k == 1 else And(tuple(terms))
        return _map_children(g, go)

    return go(f)


def _common_sign(f: Any) -> int | None:
    """``1`` when every ``C`` of ``f`` stands under an even number of negations,
    ``-1`` when under an odd number, ``None`` when mixed or under ``Kw``, ``<->``
    or an announcement (both signs)."""
    from kripke.formulas import (
        Announce,
        AnnounceDiamond,
        Common,
        Iff,
        Implies,
        KnowWhether,
        Not,
    )

    signs: set[int] = set()

    def go(g: Any, sign: int, both: bool) -> None:
        if isinstance(g, Common):
            signs.update((1, -1) if both else (sign,))
            go(g.arg, sign, both)
            return
        if isinstance(g, Not):
            go(g.arg, -sign, both)
            return
        if isinstance(g, Implies):
            go(g.children()[0], -sign, both)
            go(g.children()[1], sign, both)
            return
        both2 = both or isinstance(g, Iff | KnowWhether | Announce | AnnounceDiamond)
        for c in g.children():
            go(c, sign, both2)

    go(f, 1, False)
    if len(signs) == 1:
        return signs.pop()
    return None
