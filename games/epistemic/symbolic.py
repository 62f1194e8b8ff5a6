"""The knowledge structure of a card history: history variables and defined card atoms.

A state of the structure is a whole history of the deal: where every card
started and, at every event some agent did not see in full, the hidden
choice.  The variables (history atoms; each name carries a short tag of the deck
and the planned variables, ``dealt_3f9a1c07(L, C)``, so that different
structures in one session never force each other's variables to reorder)
are

* ``dealt(L, C)``: location ``L`` was dealt card ``C`` (seen by ``L``'s owner);
* ``moved(t, C)``: event ``t`` moved card ``C`` (seen by the event's audience);
* ``seen(t, C)``: the location revealed at event ``t`` to part of the table
  held ``C`` (seen by that audience) — only where the revealed content is
  not already one variable;
* ``shown(t, C)``: event ``t`` showed ``C`` (seen by the audience).

For a card with copies the variable ``…(…, C#j)`` means "at least ``j``
copies" (a thermometer code).  The law is the public history: the initial
sizes, every move's count, every publicly seen card, every public fact.
The card atoms ``has(L, C)`` are *defined* atoms: the current location of a
card is a function of its own history variables.  Every agent observes the
variables of what it saw, so it remembers everything (perfect recall).

The variable order is card-major (all variables of one card together,
cards in deck order: by suit, then rank); the local constraints of a card
(it can only be moved from where it is) then stay inside its block, and the
law grows only with the counting constraints (initial sizes, how many cards
moved), which run across the cards.

Measured sizes (``benchmarks/epistemic_speed.py``, CUDD): the law of a
52-card deal into 4 hands of 13 has 263,003 nodes (208 variables); the hand
sizes make the width of the law the number of partial count vectors at a
cut.  Face-up moves, reveals to everybody and voids add no count (a full
32-card BoerenBridge round: 44,288 nodes at the first trick, 2,120 after
five).  Every hidden move adds one count to every cut and multiplies the law
by about ``n + 1`` for ``n`` cards moved: 1, 2, 3, 4 hidden moves of two
cards from the 52-card deal gave 0.97, 3.3, 10.7 and 33 million nodes.  A
knowledge structure of a full-size game is therefore cheap while few
face-down plays remain unrevealed, and exponential in their number.

Before building, the history is simplified without changing what anyone
knows (each step a bisimulation):

* a face-down move into an empty location whose content is later shown to
  everybody, untouched in between, is a face-up move;
* a move into an empty location followed by the move of that whole
  location elsewhere, nothing touching either in between, is one move;
* two face-down moves between the same locations seen by the same agents
  are one move when nothing in between touches the source, or the target
  other than by moving cards into it (a player's plays onto one pile);
* a face-down move seen exactly by the owners of its source, whose cards
  come back to the source when the target joins it (seen by the owners
  and nobody else), with nothing touching the source and only cards
  arriving at the target in between, is dropped: which cards went is a
  choice nobody else ever sees (a BS player's own uncalled plays in a pile
  it picks up).

Examples
--------
>>> from games.cards import Deck
>>> from games.epistemic.history import CardHistory, Move, MoveAll
>>> h = CardHistory(Deck(["A", "B", "C", "D"]), {"x": "A B", "y": "C", "z": "D", "pile": ""},
...                 ["x", "y", "z"])
>>> h = h.then(Move("A", "x", "pile", seen_by=["x"]), MoveAll("pile", "y", seen_by=["y"]))
>>> ps = history_structure(h).pointed
>>> ps.holds("K_x has(y, A) & K_y has(y, A) & ~K_z has(y, A) & K_z Kw_y has(y, A)")
True
"""

from __future__ import annotations

import bisect
import math
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from games.epistemic.history import CardHistory, _Step, card_key

__all__ = [
    "HistoryStructure",
    "history_structure",
    "history_steps",
    "simplify_steps",
    "law_width",
    "MAX_WIDTH",
    "MAX_MIXED_DEALS",
]


# ============================================================ thermometers
# A count 0..m is held as m BDDs: t[j-1] is "count >= j".
def _const(mgr: Any, v: int, m: int) -> list[Any]:
    return [mgr.true] * min(v, m) + [mgr.false] * max(0, m - v)


def _ge(mgr: Any, t: Sequence[Any], j: int) -> Any:
    if j <= 0:
        return mgr.true
    if j > len(t):
        return mgr.false
    return t[j - 1]


def _eq(mgr: Any, t: Sequence[Any], v: int) -> Any:
    return _ge(mgr, t, v) & ~_ge(mgr, t, v + 1)


def _add(mgr: Any, x: Sequence[Any], y: Sequence[Any], m: int) -> list[Any]:
    out = []
    for j in range(1, m + 1):
        r = mgr.false
        for i in range(j + 1):
            a = _ge(mgr, x, i)
            if a == mgr.false:
                break
            r = r | (a & _ge(mgr, y, j - i))
        out.append(r)
    return out


def _sub(mgr: Any, x: Sequence[Any], y: Sequence[Any], m: int) -> list[Any]:
    """``x - y`` (where ``y <= x``)."""
    out = []
    for j in range(1, m + 1):
        r = mgr.false
        for i in range(len(y) + 1):
            r = r | (_eq(mgr, y, i) & _ge(mgr, x, i + j))
        out.append(r)
    return out


def _le(mgr: Any, y: Sequence[Any], x: Sequence[Any]) -> Any:
    r = mgr.true
    for j in range(1, len(y) + 1):
        r = r & (~_ge(mgr, y, j) | _ge(mgr, x, j))
    return r


def _is_const(mgr: Any, t: Sequence[Any]) -> bool:
    return all(u == mgr.true or u == mgr.false for u in t)


def _literal(mgr: Any, u: Any) -> str | None:
    """The variable of a literal BDD (``x`` or ``~x``), else ``None``."""
    if u == mgr.true or u == mgr.false:
        return None
    supp = mgr.support(u)
    if len(supp) != 1:
        return None
    (v,) = supp
    return v


def _sum_between(mgr: Any, values: Sequence[tuple[int, Sequence[Any]]], lo: int, hi: int) -> Any:
    """The BDD of ``lo <= sum(values) <= hi``; each value is ``(level, thermometer)``.

    Dynamic programming from the bottom of the variable order up:
    ``row[s]`` is "the values below add up to ``s``" (``row[cap]``: at least
    ``cap``).
    """
    lo = max(lo, 0)
    if lo > hi:
        return mgr.false
    cap = hi + 1
    row = [mgr.true] + [mgr.false] * cap
    for _, t in sorted(values, key=lambda x: -x[0]):
        m = len(t)
        eqs = [_eq(mgr, t, i) for i in range(m + 1)]
        new = []
        for s in range(cap + 1):
            r = mgr.false
            for i in range(min(m, s) + 1):
                if s == cap:
                    below = mgr.false
                    for s2 in range(cap - i, cap + 1):
                        below = below | row[s2]
                else:
                    below = row[s - i]
                r = r | (eqs[i] & below)
            new.append(r)
        row = new
    out = mgr.false
    for s in range(lo, min(hi, cap - 1) + 1):
        out = out | row[s]
    return out


# ========================================================== simplification
def _touches(st: _Step, loc: str) -> bool:
    if st.kind in ("move", "all"):
        return loc in (st.src, st.dst)
    if st.kind in ("reveal", "show"):
        return st.src == loc
    if st.kind == "count":
        return loc in st.locations
    if st.kind == "fact":
        return any(a.args and a.args[0] == loc for a in st.formula.atoms())
    return False


def _sizes_before(h: CardHistory, steps: Sequence[_Step]) -> list[dict[str, int]]:
    size = {loc: len(ks) for loc, ks in h.initial.items()}
    out = []
    for st in steps:
        out.append(dict(size))
        if st.kind == "move":
            size[st.src] -= len(st.kinds)
            size[st.dst] += len(st.kinds)
        elif st.kind == "all":
            size[st.dst] += size[st.src]
            size[st.src] = 0
    return out


def simplify_steps(h: CardHistory, steps: Sequence[_Step] | None = None) -> list[_Step]:
    """The history's events, simplified without changing anyone's knowledge.

    See the module docstring for the four rules.  Merged and composed
    moves keep the index of their first event.
    """
    out = list(h.steps if steps is None else steps)
    changed = True
    while changed:
        changed = False
        sizes = _sizes_before(h, out)
        for i, st in enumerate(out):
            if st.kind != "move" or sizes[i][st.dst] != 0:
                continue
            x = st.dst
            j = next((j for j in range(i + 1, len(out)) if _touches(out[j], x)), None)
            if j is None:
                continue
            nxt = out[j]
            public_later = nxt.audience is None and (
                nxt.kind == "reveal" or (nxt.kind == "all" and nxt.src == x)
            )
            if st.audience is not None and public_later:
                out[i] = replace(st, audience=None)
                changed = True
                break
            if nxt.kind == "all" and nxt.src == x and nxt.dst != st.src:
                y = nxt.dst
                if any(_touches(out[k], y) for k in range(i + 1, j)):
                    continue
                if st.audience is None or nxt.audience is None:
                    aud = None
                else:
                    aud = st.audience | nxt.audience
                out[i] = replace(st, dst=y, audience=aud)
                del out[j]
                changed = True
                break
        if changed:
            continue
        for i, st in enumerate(out):
            if st.kind != "move" or st.audience is None:
                continue
            for j in range(i + 1, len(out)):
                o = out[j]
                if (
                    o.kind == "move"
                    and o.src == st.src
                    and o.dst == st.dst
                    and o.audience == st.audience
                ):
                    kinds = tuple(sorted(st.kinds + o.kinds))
                    out[i] = replace(st, kinds=kinds)
                    del out[j]
                    changed = True
                    break
                if _touches(o, st.src):
                    break
                if _touches(o, st.dst) and not (
                    o.kind in ("move", "all") and o.dst == st.dst and o.src != st.src
                ):
                    break
            if changed:
                break
        if changed:
            continue
        for i, st in enumerate(out):
            j = _returns_home(h, out, i)
            if j is not None:
                back = out[j]
                rest = list(back.content)
                for k in st.kinds:
                    rest.remove(k)
                out[j] = replace(back, content=tuple(rest))
                del out[i]
                changed = True
                break
    return out


def _owners(h: CardHistory, loc: str) -> frozenset[str]:
    return frozenset(a for a in h.agents if loc in h.owns[a])


def _returns_home(h: CardHistory, steps: Sequence[_Step], i: int) -> int | None:
    """The index of the pick-up that brings a face-down move back, if the move can go.

    Step ``i`` moves cards face down from ``X`` into ``L``, seen exactly by
    the owners of ``X``, who have seen every change of ``X`` so far; nothing
    touches ``X`` until ``L`` joins ``X`` seen exactly by the owners (anybody
    else looking would see which cards come back), and ``L`` only receives
    cards meanwhile.  Which cards went is then a choice the
    owners saw and nobody else will ever see (a BS player's own uncalled
    plays in a pile it picks up): histories that differ only in it are
    bisimilar, and dropping the move keeps every answer.
    """
    st = steps[i]
    if st.kind != "move" or st.audience is None:
        return None
    x, pile = st.src, st.dst
    owners = _owners(h, x)
    if not owners or st.audience != owners:
        return None
    for o in steps[:i]:
        if o.kind in ("move", "all") and x in (o.src, o.dst):
            if o.audience is not None and not owners <= o.audience:
                return None
    for j in range(i + 1, len(steps)):
        o = steps[j]
        if o.kind == "all" and o.src == pile and o.dst == x:
            # the owners look, and nobody else: another onlooker sees the cards come back
            return j if o.audience == owners else None
        if _touches(o, x):
            return None
        if _touches(o, pile) and not (o.kind in ("move", "all") and o.dst == pile):
            return None
    return None


# ================================================================ planning
@dataclass
class _Plan:
    """Which history variables exist, decided before any BDD is built."""

    names: dict[int, list[str]] = field(default_factory=dict)  # kind -> names in order
    dealt: dict[int, dict[str, list[str]]] = field(default_factory=dict)
    step_vars: list[dict[int, list[str]]] = field(default_factory=list)
    implicit: str | None = None
    now: dict[int, dict[str, list[str]]] = field(default_factory=dict)


def _tag(h: CardHistory, plan: _Plan) -> str:
    """A short tag of the deck, the locations and the planned variables, part of every
    history variable's name.

    Two structures share variables only when they plan the very same ones
    (a structure rebuilt, or the snapshots of :func:`history_steps`); any
    other structure gets fresh variables at the bottom of the shared
    manager's order, so building it never reorders the BDDs of another.
    """
    import hashlib

    names = [n for k in sorted(plan.names) for n in plan.names[k]]
    key = repr((h.deck.names, h.deck.copies, h.locations, names)).encode()
    return "_" + hashlib.sha1(key).hexdigest()[:8]


def _plan(h: CardHistory, steps: Sequence[_Step], tag: str | None = None) -> _Plan:
    """The variables of the structure; names carry :func:`_tag` (computed from an
    untagged plan when ``tag`` is not given)."""
    if tag is None:
        return _plan(h, steps, _tag(h, _plan(h, steps, "")))
    d = h.deck
    K = len(d)
    public = set(h.public_locations())
    owned = {loc for a in h.agents for loc in h.owns[a]}
    plan = _Plan(names={k: [] for k in range(K)}, dealt={k: {} for k in range(K)})
    free = [loc for loc in h.locations if loc not in public and h.initial[loc]]
    unowned = [loc for loc in free if loc not in owned]
    if unowned:
        plan.implicit = max(unowned, key=lambda loc: len(h.initial[loc]))
    maybe: list[set[str]] = []
    for k in range(K):
        m = d.copies[k]
        pub = sum(1 for loc in public for x in h.initial[loc] if x == k)
        rest = m - pub
        here = {loc for loc in public if k in h.initial[loc]}
        if rest > 0:
            here |= set(free)
            for loc in free:
                if loc == plan.implicit:
                    continue
                top = min(rest, len(h.initial[loc]))
                ns = [f"dealt{tag}({loc}, {card_key(d.name(k), j, m)})" for j in range(1, top + 1)]
                plan.dealt[k][loc] = ns
                plan.names[k].extend(ns)
        maybe.append(here)
    for st in steps:
        vs: dict[int, list[str]] = {}
        t = st.index
        if st.kind == "move":
            if st.audience is None:
                for k in set(st.kinds):
                    if st.kinds.count(k) == d.copies[k]:
                        maybe[k] = {st.dst}
                    else:
                        maybe[k].add(st.dst)
            else:
                n = len(st.kinds)
                for k in range(K):
                    if st.src in maybe[k]:
                        m = d.copies[k]
                        vs[k] = [
                            f"moved{tag}({t}, {card_key(d.name(k), j, m)})"
                            for j in range(1, min(m, n) + 1)
                        ]
                        maybe[k].add(st.dst)
        elif st.kind in ("all", "reveal"):
            loc = st.src
            if st.audience is not None:
                for k in range(K):
                    if loc in maybe[k]:
                        m = d.copies[k]
                        vs[k] = [
                            f"seen{tag}({t}, {card_key(d.name(k), j, m)})" for j in range(1, m + 1)
                        ]
            else:
                for k in range(K):
                    c = st.content.count(k)
                    if c == 0:
                        maybe[k].discard(loc)
                    elif c == d.copies[k]:
                        maybe[k] = {loc}
            if st.kind == "all":
                for k in range(K):
                    if loc in maybe[k]:
                        maybe[k].discard(loc)
                        maybe[k].add(st.dst)
        elif st.kind == "show":
            if st.audience is not None:
                n = len(st.kinds)
                for k in range(K):
                    if st.src in maybe[k]:
                        m = d.copies[k]
                        vs[k] = [
                            f"shown{tag}({t}, {card_key(d.name(k), j, m)})"
                            for j in range(1, min(m, n) + 1)
                        ]
            else:
                for k in set(st.kinds):
                    if st.kinds.count(k) == d.copies[k]:
                        maybe[k] = {st.src}
        elif st.kind == "count" and st.hi == 0:
            for k in st.kinds:
                for loc in st.locations:
                    maybe[k].discard(loc)
        for k, ns in vs.items():
            plan.names[k].extend(ns)
        plan.step_vars.append(vs)
    for k in range(K):
        m = d.copies[k]
        plan.now[k] = {
            loc: [f"now{tag}({loc}, {card_key(d.name(k), j, m)})" for j in range(1, m + 1)]
            for loc in h.locations
        }
    return plan


# ================================================================ building
@dataclass
class HistoryStructure:
    """The knowledge structure of a card history, pointed at the true history.

    Attributes
    ----------
    history : CardHistory
    pointed : kripke.symbolic.PointedStructure
        The structure and its actual state (the true history).
    structure : kripke.symbolic.KnowledgeStructure
    variables : tuple of str
        The history atoms, in variable order.
    actual : dict
        The true value of every history atom.
    location : dict
        ``(location, kind) -> thermometer`` of the current count (BDDs).
    steps : list
        The (simplified) events the structure was built from.
    seconds : float
        Time taken to build.
    """

    history: CardHistory
    pointed: Any
    variables: tuple[str, ...]
    actual: dict[str, bool]
    location: dict[tuple[str, int], list[Any]]
    steps: list[_Step]
    now: dict[tuple[str, int], list[str]] = field(default_factory=dict)
    seconds: float = 0.0
    _relation: Any = None

    @property
    def structure(self) -> Any:
        return self.pointed.structure

    def _deal_relation(self) -> tuple[Any, list[str]]:
        """``(R, names)``: R ties the deal variables ``now(L, C)`` to the current
        counts (only where the count is not constant), names lists them."""
        if self._relation is None:
            mgr = self.structure.manager
            rel = mgr.true
            names: list[str] = []
            for (loc, k), t in sorted(
                self.location.items(), key=lambda x: -mgr.level(self.now[x[0]][0])
            ):
                if _is_const(mgr, t):
                    continue
                ns = self.now[(loc, k)]
                for j, n in enumerate(ns):
                    rel = rel & mgr.var(n).equiv(t[j])
                names.extend(ns)
            self._relation = (rel, names)
        return self._relation

    def deals(self, states: Any) -> Any:
        """The current deals of a set of states (a BDD over the deal variables)."""
        mgr = self.structure.manager
        rel, _ = self._deal_relation()
        cube = mgr.cube(self.variables)
        return mgr.and_exists(states, rel, cube, len(self.variables))

    def count_deals(self, states: Any, *, arrangements: bool = False) -> int:
        """How many distinct current deals a set of states (a BDD) has.

        With ``arrangements=True``: how many physical arrangements of the
        cards they are, every deal counted ``prod_C copies(C)! / prod_L
        n(L, C)!`` times (the ways to place the copies of every card as the
        deal says, copies told apart); the same number for a deck without
        copies.
        """
        return self.weigh_deals(self.deals(states), arrangements=arrangements)

    def weigh_deals(self, deals: Any, *, arrangements: bool = True) -> int:
        """The number of deals of a BDD over the deal variables (:meth:`deals`), or
        with ``arrangements=True`` of their physical arrangements (see
        :meth:`count_deals`)."""
        mgr = self.structure.manager
        _, names = self._deal_relation()
        d = self.history.deck
        if not arrangements or all(m == 1 for m in d.copies):
            return int(mgr.count(deals, names))
        # prod_C m_C! / prod_L n(L, C)!: the constant counts give a constant factor, every
        # variable now(L, C#j) that is true gives 1/j
        const = Fraction(1)
        for m in d.copies:
            const *= math.factorial(m)
        ge = self.pointed.structure.manager
        for t in self.location.values():
            if _is_const(ge, t):
                const /= math.factorial(sum(1 for u in t if u == ge.true))
        weight = {}
        for ns in self.now.values():
            for j, n in enumerate(ns, start=1):
                weight[n] = (Fraction(1), Fraction(1, j))
        out = const * _weighted_count(mgr, deals, names, weight)
        if out.denominator != 1:  # pragma: no cover - a count of arrangements is whole
            raise AssertionError(f"a non-integral number of arrangements: {out}")
        return int(out)

    def world_share(
        self,
        states: Any,
        truth: Any,
        *,
        arrangements: bool = True,
        max_mixed: int | None = None,
    ) -> Fraction:
        """The share of ``states`` where ``truth`` holds, deal first.

        Every current deal of ``states`` weighs its number of physical
        arrangements (:meth:`count_deals`, or 1 each with
        ``arrangements=False``), shared equally among the *worlds* of
        ``states`` with that deal: the histories told apart by the deal or by
        what some agent observed (histories that differ only in choices
        nobody saw are one world, as in the explicit model).  For a
        ``truth`` the deal decides this is the share of the deals.

        Deals where ``truth`` holds in some worlds and not in others are
        enumerated, at most ``max_mixed`` of them (default
        :data:`MAX_MIXED_DEALS`).

        Raises
        ------
        kripke.errors.SizeLimitError
            If more deals than ``max_mixed`` are mixed.
        """
        from kripke.errors import SizeLimitError

        mgr = self.structure.manager
        yes = self.deals(states & truth)
        no = self.deals(states & ~truth)
        total = self.weigh_deals(yes | no, arrangements=arrangements)
        if total == 0:
            raise ValueError("no states to share")
        every = self.weigh_deals(yes & ~no, arrangements=arrangements)
        mixed = yes & no
        if mixed == mgr.false:
            return Fraction(every, total)
        limit = MAX_MIXED_DEALS if max_mixed is None else max_mixed
        rel, names = self._deal_relation()
        n_mixed = int(mgr.count(mixed, names))
        if n_mixed > limit:
            raise SizeLimitError(
                f"the probability weighs each of the {n_mixed:,} deals where the formula holds "
                f"in some worlds and not in others, over max_mixed={limit:,}"
            )
        seen = set().union(*(self.structure.observes(a) for a in self.history.agents))
        observed = [v for v in self.variables if v in seen]
        hidden = [v for v in self.variables if v not in seen]
        hide = mgr.cube(hidden)
        worlds = mgr.exists(hide, states & rel & mixed)
        good = mgr.exists(hide, states & truth & rel & mixed)
        acc = Fraction(0)
        for deal in mgr.assignments(mixed, names):
            n_all = mgr.count(mgr.assign(worlds, deal), observed)
            n_yes = mgr.count(mgr.assign(good, deal), observed)
            cube = mgr.assignment_cube(deal)
            acc += Fraction(self.weigh_deals(cube, arrangements=arrangements) * n_yes, n_all)
        return (every + acc) / total

    def law_nodes(self) -> int:
        """Nodes of the law's BDD."""
        return int(self.structure.law.dag_size)

    def __repr__(self) -> str:
        return (
            f"HistoryStructure({len(self.variables)} history variables, "
            f"law of {self.law_nodes()} nodes, agents {list(self.history.agents)})"
        )


class _Builder:
    def __init__(self, h: CardHistory, steps: Sequence[_Step], mgr: Any):
        self.h = h
        self.steps = list(steps)
        self.mgr = mgr
        self.plan = _plan(h, self.steps)
        d = h.deck
        order = [
            n
            for k in range(len(d))
            for n in self.plan.names[k] + [x for ns in self.plan.now[k].values() for x in ns]
        ]
        mgr.declare(order)
        mgr.ensure_order(order)
        self.level = {k: (mgr.level(ns[0]) if ns else -1) for k, ns in self.plan.names.items()}
        self.used: set[str] = set()
        self.actual: dict[str, bool] = {}
        self.obs: dict[str, set[str]] = {a: set() for a in h.agents}
        self.local: dict[int, Any] = {k: mgr.true for k in range(len(d))}
        self.cross: list[Any] = []
        self.ge: dict[tuple[str, int], list[Any]] = {}
        self.true: dict[str, list[int]] = {loc: list(ks) for loc, ks in h.initial.items()}

    # -- helpers
    def _var(self, name: str, value: bool) -> Any:
        self.used.add(name)
        self.actual[name] = value
        return self.mgr.var(name)

    def _therm_vars(self, k: int, names: Sequence[str], value: int) -> list[Any]:
        t = [self._var(n, value >= j + 1) for j, n in enumerate(names)]
        for a, b in zip(t, t[1:], strict=False):
            self.local[k] = self.local[k] & (~b | a)
        return t

    def _cnt(self, loc: str, k: int) -> list[Any]:
        return self.ge[(loc, k)]

    def _level(self, k: int) -> int:
        return self.level[k]

    # -- the initial deal
    def deal(self) -> None:
        h, mgr, d = self.h, self.mgr, self.h.deck
        public = set(h.public_locations())
        sizes: dict[str, list[tuple[int, list[Any]]]] = {}
        for k in range(len(d)):
            m = d.copies[k]
            pub = 0
            for loc in h.locations:
                if loc in public:
                    c = h.initial[loc].count(k)
                    pub += c
                    self.ge[(loc, k)] = _const(mgr, c, m)
                else:
                    self.ge[(loc, k)] = _const(mgr, 0, m)
            rest = m - pub
            if rest == 0:
                continue
            total = _const(mgr, 0, m + 1)  # one more than m: an excess shows
            for loc, names in self.plan.dealt[k].items():
                true = h.initial[loc].count(k)
                t = self._therm_vars(k, names, true) + [mgr.false] * (m - len(names))
                self.ge[(loc, k)] = t
                total = _add(mgr, total, t, m + 1)
                sizes.setdefault(loc, []).append((self._level(k), t))
                for a in h.agents:
                    if loc in h.owns[a]:
                        self.obs[a].update(names)
            imp = self.plan.implicit
            if imp is not None:
                self.local[k] = self.local[k] & ~_ge(mgr, total, rest + 1)
                self.ge[(imp, k)] = _sub(mgr, _const(mgr, rest, m), total[:m], m)
            else:
                self.local[k] = self.local[k] & _eq(mgr, total, rest)
        counted = [loc for loc in h.locations if loc in sizes]
        if self.plan.implicit is None and counted:
            counted = counted[:-1]  # the last size follows from the others
        for loc in counted:
            n = len(h.initial[loc])
            self.cross.append(_sum_between(mgr, sizes[loc], n, n))

    # -- the events
    def step(self, i: int) -> None:
        st = self.steps[i]
        mgr, h, d = self.mgr, self.h, self.h.deck
        vs = self.plan.step_vars[i]
        K = len(d)
        if st.kind == "move":
            if st.audience is None:
                for k in set(st.kinds):
                    a = st.kinds.count(k)
                    m = d.copies[k]
                    src = self._cnt(st.src, k)
                    self.local[k] = self.local[k] & _ge(mgr, src, a)
                    self.ge[(st.src, k)] = _sub(mgr, src, _const(mgr, a, m), m)
                    self.ge[(st.dst, k)] = _add(mgr, self._cnt(st.dst, k), _const(mgr, a, m), m)
            else:
                values = []
                for k, names in vs.items():
                    m = d.copies[k]
                    t = self._therm_vars(k, names, st.kinds.count(k)) + [mgr.false] * (
                        m - len(names)
                    )
                    src = self._cnt(st.src, k)
                    self.local[k] = self.local[k] & _le(mgr, t, src)
                    self.ge[(st.src, k)] = _sub(mgr, src, t, m)
                    self.ge[(st.dst, k)] = _add(mgr, self._cnt(st.dst, k), t, m)
                    values.append((self._level(k), t))
                    for ag in h.agents:
                        if ag in st.audience:
                            self.obs[ag].update(names)
                n = len(st.kinds)
                self.cross.append(_sum_between(mgr, values, n, n))
        elif st.kind in ("all", "reveal"):
            loc = st.src
            if st.audience is None:
                for k in range(K):
                    c = st.content.count(k)
                    self.local[k] = self.local[k] & _eq(mgr, self._cnt(loc, k), c)
                    if st.kind == "all":
                        self.ge[(loc, k)] = _const(mgr, c, d.copies[k])
            else:
                for k in range(K):
                    t = self._cnt(loc, k)
                    if k not in vs or _is_const(mgr, t):
                        continue  # publicly known: nothing to see
                    lits = [_literal(mgr, u) for u in t if not (u == mgr.true or u == mgr.false)]
                    if all(v is not None for v in lits):
                        for ag in h.agents:
                            if ag in st.audience:
                                self.obs[ag].update(v for v in lits if v is not None)
                        continue
                    names = vs[k]
                    c = st.content.count(k)
                    s = self._therm_vars(k, names, c)
                    same = mgr.true
                    for j in range(len(names)):
                        same = same & s[j].equiv(_ge(mgr, t, j + 1))
                    self.local[k] = self.local[k] & same
                    for ag in h.agents:
                        if ag in st.audience:
                            self.obs[ag].update(names)
            if st.kind == "all":
                for k in range(K):
                    m = d.copies[k]
                    self.ge[(st.dst, k)] = _add(mgr, self._cnt(st.dst, k), self._cnt(loc, k), m)
                    self.ge[(loc, k)] = _const(mgr, 0, m)
        elif st.kind == "show":
            if st.audience is None:
                for k in set(st.kinds):
                    self.local[k] = self.local[k] & _ge(
                        mgr, self._cnt(st.src, k), st.kinds.count(k)
                    )
            else:
                values = []
                for k, names in vs.items():
                    m = d.copies[k]
                    t = self._therm_vars(k, names, st.kinds.count(k))
                    self.local[k] = self.local[k] & _le(mgr, t, self._cnt(st.src, k))
                    values.append((self._level(k), t))
                    for ag in h.agents:
                        if ag in st.audience:
                            self.obs[ag].update(names)
                n = len(st.kinds)
                self.cross.append(_sum_between(mgr, values, n, n))
        elif st.kind == "count":
            values = []
            for k in st.kinds:
                m = d.copies[k]
                tot = _const(mgr, 0, m)
                for loc in st.locations:
                    tot = _add(mgr, tot, self._cnt(loc, k), m)
                if st.hi == 0:
                    self.local[k] = self.local[k] & ~_ge(mgr, tot, 1)
                elif not _is_const(mgr, tot):
                    values.append((self._level(k), tot))
                else:
                    values.append((self._level(k), tot))
            if st.hi > 0:
                self.cross.append(_sum_between(mgr, values, st.lo, st.hi))
        elif st.kind == "fact":
            self.cross.append(self._formula(st.formula))

    def _formula(self, f: Any) -> Any:
        from kripke.symbolic.boolean import bool_bdd

        defs = {}
        for a in f.atoms():
            loc, k, j = self.h.atom_cell(a)
            defs[a.key] = _ge(self.mgr, self._cnt(loc, k), j)
        return bool_bdd(self.mgr, f, frozenset(), what="fact", defs=defs)

    # -- results
    def law(self) -> Any:
        mgr = self.mgr
        law = mgr.true
        for k in sorted(self.local, key=lambda k: -self.level[k]):
            law = self.local[k] & law
        for c in self.cross:
            law = law & c
            mgr.check()
        return law

    def definitions(self) -> dict[Any, Any]:
        d = self.h.deck
        out: dict[Any, Any] = {}
        for loc in self.h.locations:
            for k in range(len(d)):
                m = d.copies[k]
                t = self._cnt(loc, k)
                for j in range(1, m + 1):
                    out[f"has({loc}, {card_key(d.name(k), j, m)})"] = t[j - 1]
        return out

    def structure(self, law: Any) -> HistoryStructure:
        from kripke.symbolic import KnowledgeStructure, PointedStructure

        order = [n for k in range(len(self.h.deck)) for n in self.plan.names[k] if n in self.used]
        ks = KnowledgeStructure(
            order,
            law,
            {a: sorted(o) for a, o in self.obs.items()},
            definitions=self.definitions(),
            order=order,
        )
        ps = PointedStructure(ks, {n: self.actual[n] for n in order})
        return HistoryStructure(
            self.h, ps, tuple(order), dict(self.actual), dict(self.ge), self.steps, self._now()
        )

    def _now(self) -> dict[tuple[str, int], list[str]]:
        return {(loc, k): ns for k, d in self.plan.now.items() for loc, ns in d.items()}


#: Largest estimated law width (:func:`law_width`) built without being asked.
MAX_WIDTH = 100_000

#: Most deals :meth:`HistoryStructure.world_share` enumerates one by one (the deals
#: where a formula about knowledge holds in some worlds and not in others).
MAX_MIXED_DEALS = 20_000


def _weighted_count(
    mgr: Any, u: Any, names: Sequence[str], weight: Mapping[str, tuple[Fraction, Fraction]]
) -> Fraction:
    """The weighted number of assignments to ``names`` satisfying ``u``: every
    assignment weighs the product of ``weight[v][value]`` (1 for a name not in
    ``weight``).  ``u`` must not depend on other variables."""
    one = (Fraction(1), Fraction(1))
    levels = sorted((mgr.level(n), n) for n in names)
    lv = [x for x, _ in levels]
    # suffix[i]: total weight of every assignment of the names from the i-th level on
    suffix = [Fraction(1)] * (len(levels) + 1)
    for i in range(len(levels) - 1, -1, -1):
        w0, w1 = weight.get(levels[i][1], one)
        suffix[i] = suffix[i + 1] * (w0 + w1)

    def free(a: int, b: int) -> Fraction:
        """Total weight of the names with levels in ``[a, b)``."""
        return suffix[bisect.bisect_left(lv, a)] / suffix[bisect.bisect_left(lv, b)]

    true, false = mgr.true, mgr.false
    top = (lv[-1] + 1) if lv else 0

    def level(f: Any) -> int:
        return top if f == true or f == false else int(f.level)

    memo: dict[int, Fraction] = {}

    def val(f: Any) -> Fraction:
        """Weight of ``f`` over the names at its level and below."""
        if f == true:
            return Fraction(1)
        if f == false:
            return Fraction(0)
        neg = bool(f.negated)
        r = ~f if neg else f
        key = int(r)
        got = memo.get(key)
        if got is None:
            here = int(r.level)
            w0, w1 = weight.get(str(r.var), one)
            got = Fraction(0)
            for w, c in ((w0, r.low), (w1, r.high)):
                got += w * free(here + 1, level(c)) * val(c)
            memo[key] = got
        return free(level(f), top) - got if neg else got

    import sys

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 10 * len(levels) + 1000))
    try:
        return free(0, level(u)) * val(u)
    finally:
        sys.setrecursionlimit(old)


def law_width(h: CardHistory, steps: Sequence[_Step] | None = None) -> int:
    """An estimate of the widest level of the law's BDD: the number of partial counts.

    Card-major, the law must remember at every level how many cards so far
    each hidden location was dealt and each unseen move or show took: the
    product of ``size + 1`` over the dealt locations but one, times
    ``n + 1`` for every move or show of ``n`` cards some agent did not see.
    Measured laws are a few times smaller at their widest level (the 52-card
    BS deal: estimate 2,744, 263,003 nodes over 208 variables).

    Examples
    --------
    >>> from games.cards import Deck
    >>> h = CardHistory(Deck([str(i) for i in range(12)]),
    ...                 {"x": "0 1 2 3", "y": "4 5 6 7", "z": "8 9 10 11"}, ["x", "y", "z"])
    >>> law_width(h)                    # two free hand sizes of 4
    25
    """
    public = set(h.public_locations())
    sizes = [len(h.initial[loc]) for loc in h.locations if loc not in public and h.initial[loc]]
    width = 1
    for n in sorted(sizes)[:-1]:
        width *= n + 1
    for st in simplify_steps(h) if steps is None else steps:
        if st.kind in ("move", "show") and st.audience is not None:
            width *= len(st.kinds) + 1
    return width


def history_structure(
    h: CardHistory, *, simplify: bool = True, max_width: int | None = MAX_WIDTH
) -> HistoryStructure:
    """The knowledge structure of a card history, pointed at the true history.

    Parameters
    ----------
    h : CardHistory
    simplify : bool
        Simplify the events first (see the module docstring); the answers
        are the same either way.
    max_width : int or None
        Refuse histories whose estimated law width (:func:`law_width`) is
        larger, at once, instead of building for minutes (``None``: build
        anyway).  The default admits laws of up to some ten million nodes.

    Raises
    ------
    kripke.errors.SizeLimitError
        If the estimated width is over ``max_width``, or the BDDs outgrow the
        memory limit (see :func:`kripke.symbolic.set_limits`).
    """
    from kripke.errors import SizeLimitError
    from kripke.symbolic import manager

    t0 = time.perf_counter()
    steps = simplify_steps(h) if simplify else list(h.steps)
    if max_width is not None:
        width = law_width(h, steps)
        if width > max_width:
            hidden = sum(
                1 for st in steps if st.kind in ("move", "show") and st.audience is not None
            )
            raise SizeLimitError(
                f"the knowledge structure of this history would be about {width:,} partial "
                f"counts wide (the dealt hand sizes and {hidden} moves or shows some seats did "
                f"not see), over max_width={max_width:,}: building it would take far too long. "
                "First-order questions are answered exactly by each game's seat knowledge "
                "(games.deal); pass max_width=None to build anyway"
            )
    mgr = manager()
    with mgr.guard("building the knowledge structure of a card history"):
        b = _Builder(h, steps, mgr)
        b.deal()
        for i in range(len(steps)):
            b.step(i)
        out = b.structure(b.law())
    out.seconds = time.perf_counter() - t0
    return out


def history_steps(h: CardHistory) -> Iterator[tuple[int, HistoryStructure]]:
    """The structure after every event, built event by event (no simplification).

    Yields ``(i, structure)`` for ``i = 0`` (the deal) to ``len(h)``; each
    step conjoins the event's constraints to the law of the previous one,
    as a knowledge transformer with the event's variables would.
    """
    from kripke.symbolic import manager

    mgr = manager()
    with mgr.guard("building the knowledge structures of a card history"):
        b = _Builder(h, list(h.steps), mgr)
        b.deal()
        t0 = time.perf_counter()
        law = b.law()
        done_cross = len(b.cross)
        yield 0, _snapshot(b, law, 0, t0)
        for i in range(len(b.steps)):
            t0 = time.perf_counter()
            before = dict(b.local)
            b.step(i)
            for k, u in b.local.items():
                if u is not before[k]:
                    law = law & u
            for c in b.cross[done_cross:]:
                law = law & c
            done_cross = len(b.cross)
            yield i + 1, _snapshot(b, law, i + 1, t0)


def _snapshot(b: _Builder, law: Any, n: int, t0: float) -> HistoryStructure:
    from kripke.symbolic import KnowledgeStructure, PointedStructure

    h = b.h.prefix(n)
    order = [x for k in range(len(h.deck)) for x in b.plan.names[k] if x in b.used]
    ks = KnowledgeStructure(
        order,
        law,
        {a: sorted(o) for a, o in b.obs.items()},
        definitions=b.definitions(),
        order=order,
    )
    ps = PointedStructure(ks, {x: b.actual[x] for x in order})
    out = HistoryStructure(h, ps, tuple(order), dict(b.actual), dict(b.ge), b.steps[:n], b._now())
    out.seconds = time.perf_counter() - t0
    return out
