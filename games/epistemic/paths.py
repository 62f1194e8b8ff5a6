"""Witness worlds found by searching over the paths of one kind's copies.

``K_a ~K_b has(L, C)`` fails as soon as one world ``a`` considers possible has
``b`` knowing that ``L`` holds a copy of ``C``.  In a game of face-down plays such a
world often differs from the true one in several places at once: ``b`` must have
put copies of ``C`` on their way to ``L``, ``L`` must have kept them, and the places
``L``'s cards went to that ``b`` later saw must hold no copy that could be one of
them.  :func:`witness_searched` looks for it by steps, each one a change ``a`` cannot
see:

* two cards ``a`` never saw trade kinds for the whole history (one of them a copy of
  ``C``), or
* from a move ``a`` did not see on, a copy of ``C`` and another card at the same
  place go each other's way (one was put down there, the other stayed), when ``a``
  sees neither of them from that move on.

Each step is scored by what ``b`` can follow of the copies alone (the bound of
:func:`~games.epistemic.witness.known_at_least`, read from the copies' paths, with
the deficit at ``L`` kept as a tie-break), and the best step is taken while the
score grows.  When ``b`` can follow a copy to ``L`` there, the world reached is built as
a history (every event checked again) and kept only when ``a`` observes in it exactly
what it observes in the true history and ``b`` knows the atom there.  Copies of one
kind are told apart by a convention (a move takes the copies that came first); a
copy ``a`` saw under one may be one it never saw under the other (it takes the
newest), so with copies both are searched.  A world found is a
proof of ``M_a K_b has(L, C)``; none found proves nothing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from games.epistemic.history import CardHistory, Move
from games.epistemic.symbolic import _sizes_before
from games.errors import GameError

__all__ = ["witness_searched", "SEARCH_STEPS"]

#: Most steps :func:`witness_searched` takes from the true history (each step scores
#: every change of one copy's path, a few hundred at most on a 52-card game).
SEARCH_STEPS = 4


class _Paths:
    """The physical cards of a history (numbered as
    :func:`~games.epistemic.witness.follow_cards` numbers them) with their kinds, the
    places they start at, and the steps that move them; what ``a`` sees of each, and
    the kind-free shape of the history that :func:`_score` reads."""

    def __init__(self, h: CardHistory, a: str, b: str, x: int, newest: bool = False):
        from games.epistemic.witness import follow_cards

        self.h, self.a, self.b, self.x = h, a, b, x
        self.loc = ""
        cards = follow_cards(h, a, b, newest=newest)
        self.kind = [c.kind for c in cards]
        self.start = [m for m, ks in h.initial.items() for _ in ks]
        self.moves = [list(c.moves) for c in cards]
        steps = h.steps
        self.n = len(steps)
        self.pos = [self._positions(i) for i in range(len(cards))]
        mine_a = set(h.owns.get(a, ()))
        # the last step at which a saw each card (-1: never; n: it lies at a's place now)
        self.seen_a = [-1] * len(cards)
        for i in range(len(cards)):
            last = -1
            for t in range(self.n):
                st = steps[t]
                if (
                    self.pos[i][t] in mine_a
                    or t in self.moves[i]
                    and (st.audience is None or a in st.audience)
                ):
                    last = t
                elif st.kind in ("reveal", "show") and self.pos[i][t] == st.src:
                    if st.audience is None or a in st.audience:
                        last = t
            here = self.moves[i] and steps[self.moves[i][-1]].dst or self.start[i]
            self.seen_a[i] = self.n if here in mine_a else last
        self.sent: list[tuple[int, int, int]] | None = None
        self.sizes = _sizes_before(h, steps)
        self.ends = [self._end(t) for t in range(self.n)]
        from games.epistemic.witness import _sees_kinds

        self.watched = set(h.owns.get(b, ())) | set(h.public_locations())
        #: the steps _score reads: (step, 0 move / 1 whole place / 2 reveal b sees, source,
        #: destination, whether b sees the kinds, cards moved, where b sees them again)
        self.plan: list[tuple[int, int, str, str, bool, int, Any]] = []
        for t, st in enumerate(steps):
            seen = _sees_kinds(st, b)
            if st.kind == "move":
                self.plan.append((t, 0, st.src, st.dst, seen, len(st.kinds), self.ends[t]))
            elif st.kind == "all":
                self.plan.append((t, 1, st.src, st.dst, seen, self.sizes[t][st.src], None))
            elif st.kind == "reveal" and seen:
                self.plan.append((t, 2, st.src, "", True, 0, None))
        self.reads = sorted(
            {t for t, code, *_ in self.plan if code == 2}
            | {e[0] for e in self.ends if e is not None}
        )

    def _positions(self, i: int) -> list[str]:
        """Where card ``i`` lies just before every step."""
        out, place, k = [], self.start[i], 0
        ms = self.moves[i]
        for t in range(self.n):
            while k < len(ms) and ms[k] < t:
                place = self.h.steps[ms[k]].dst
                k += 1
            out.append(place)
        return out

    def _end(self, t: int) -> tuple[int, str] | None:
        """For a move at step ``t``: the later step where ``b`` sees the whole place its
        cards went to (a pickup or reveal it sees) while they still lie there, with that
        place; ``None`` when some cards may have left first (as
        :func:`~games.epistemic.witness._most_put_down` follows them)."""
        from games.epistemic.witness import _sees_kinds

        steps = self.h.steps
        if steps[t].kind != "move":
            return None
        where = steps[t].dst
        for u in range(t + 1, self.n):
            st = steps[u]
            if st.kind == "move" and st.src == where:
                return None
            if st.kind == "all" and st.src == where:
                if _sees_kinds(st, self.b):
                    return u, where
                where = st.dst
            elif st.kind == "reveal" and st.src == where and _sees_kinds(st, self.b):
                return u, where
        return None


def _copies(
    p: _Paths, paths: dict[int, list[int]]
) -> tuple[dict[int, int], dict[int, Counter[str]]]:
    """For the copies of ``x`` moving along ``paths`` (card: its moves): how many each
    step moves, and where they lie just before each step that reads a place whole."""
    moved: dict[int, int] = {}
    for ms in paths.values():
        for t in ms:
            moved[t] = moved.get(t, 0) + 1
    at: dict[int, Counter[str]] = {t: Counter() for t in p.reads}
    steps = p.h.steps
    for i, ms in paths.items():
        place, k = p.start[i], 0
        for t in p.reads:
            while k < len(ms) and ms[k] < t:
                place = steps[ms[k]].dst
                k += 1
            at[t][place] += 1
    return moved, at


def _score(p: _Paths, paths: dict[int, list[int]], b: str, loc: str) -> tuple[int, int, int]:
    """The bound :func:`~games.epistemic.witness.known_at_least` gives for the copies
    of ``x`` at ``loc``, read from their paths alone; the same bound had the places
    ``b`` saw again held no copy (the copies ``b`` sent there, which a later step may
    keep apart from other copies); and the first with no floor at ``loc``."""
    moved, at = _copies(p, paths)
    low = dict.fromkeys(p.h.locations, 0)
    for i in paths:
        if p.start[i] in p.watched:
            low[p.start[i]] += 1
    clear = dict(low)
    signed = low[loc]
    for t, code, src, dst, seen, n, end in p.plan:
        before, was = low[src], clear[src]
        if code == 2:  # a reveal b sees
            low[src] = at[t][src]
            if src == loc:
                signed = low[src]
            continue
        went = moved.get(t, 0)
        if not before and not was and not went and src != loc and dst != loc:
            continue  # no copy b follows is here, none moves
        if seen:
            low[src], clear[src] = max(0, before - went), max(0, was - went)
            low[dst] += went
            clear[dst] += went
            gone = came = went
        elif code == 1:  # a whole place moved unseen
            low[src] = clear[src] = 0
            came = before
            low[dst] += came
            clear[dst] += was
            gone = max(signed, 0)
        else:
            stay = n if end is None else min(n, at[end[0]][end[1]])
            low[src] = max(0, before - stay)
            clear[src] = max(0, was - (n if end is None else 0))
            room = p.sizes[t][src] - n
            came = max(0, before - room)
            low[dst] += came
            clear[dst] += max(0, was - room)
            gone = stay
        if src == loc:
            signed -= gone
        if dst == loc:
            signed += came
    return low[loc], clear[loc], signed


def _changes(p: _Paths, paths: dict[int, list[int]]) -> list[tuple[dict[int, list[int]], Any]]:
    """Every change of one step: the copies' paths after it, and what it does (a tuple
    of trades for :func:`_apply`).  A card ``b`` carried towards ``L`` that takes a copy's
    kind may also, in the same step, stay at ``L`` where it was put down."""
    out: list[tuple[dict[int, list[int]], Any]] = []
    others = [j for j in range(len(p.kind)) if j not in paths]
    mine_b = set(p.h.owns.get(p.b, ()))
    for i in paths:
        if p.seen_a[i] < 0:  # trade kinds with a card a never saw
            for j in others:
                if p.seen_a[j] >= 0:
                    continue
                new = {k: v for k, v in paths.items() if k != i}
                new[j] = p.moves[j]
                out.append((new, (("kinds", i, j),)))
                if not any(p.pos[j][t] in mine_b for t in range(p.n)):
                    continue
                for k, t in _stayers(p, j, paths):  # ... and stay where b sent it
                    kept = dict(new)
                    kept[j] = [u for u in p.moves[j] if u < t] + [u for u in p.moves[k] if u >= t]
                    out.append((kept, (("kinds", i, j), ("ways", j, k, t))))
            for j, k, t in _sent(p, paths):  # b sent a card to L: a never-seen one instead
                new = {m: v for m, v in paths.items() if m != i}
                new[k] = [u for u in p.moves[k] if u < t] + [u for u in p.moves[j] if u >= t]
                out.append((new, (("ways", j, k, t), ("kinds", i, k))))
        for k, t in _stayers(p, i, paths) + _leavers(p, i, paths):  # go another's way
            new = dict(paths)
            new[i] = [u for u in paths[i] if u < t] + [u for u in p.moves[k] if u >= t]
            out.append((new, (("ways", i, k, t),)))
    return out


def _sent(p: _Paths, paths: dict[int, list[int]]) -> list[tuple[int, int, int]]:
    """``(j, k, t)``: at move ``t`` (``a`` did not see it) ``b`` put down ``j``, which went on
    to ``L`` later, while ``k``, which ``a`` never saw, stayed (neither is a copy).  Had
    ``b`` put ``k`` down instead and kept ``j``, ``a`` could not tell."""
    if p.sent is None:
        mine_b = set(p.h.owns.get(p.b, ()))
        p.sent = []
        for t, st in enumerate(p.h.steps):
            if not _unseen_move(p, t) or st.src not in mine_b:
                continue
            here = [k for k in range(len(p.kind)) if p.pos[k][t] == st.src]
            for j in here:
                if t not in p.moves[j] or j in paths or p.seen_a[j] >= t:
                    continue
                if not any(p.h.steps[u].dst == p.loc for u in p.moves[j] if u >= t):
                    continue
                p.sent += [
                    (j, k, t)
                    for k in here
                    if t not in p.moves[k] and p.seen_a[k] < 0 and k not in paths
                ]
    return p.sent


def _unseen_move(p: _Paths, t: int) -> bool:
    st = p.h.steps[t]
    return st.kind == "move" and st.audience is not None and p.a not in st.audience


def _stayers(p: _Paths, i: int, paths: dict[int, list[int]]) -> list[tuple[int, int]]:
    """``(k, t)``: card ``i`` was put down at move ``t``, which ``a`` did not see, and ``k``
    (not a copy) lay at the same place and stayed; ``a`` sees neither from ``t`` on."""
    out = []
    for t in p.moves[i]:
        if t <= p.seen_a[i] or not _unseen_move(p, t):
            continue
        here = p.pos[i][t]
        out += [
            (k, t)
            for k in range(len(p.kind))
            if k not in paths
            and k != i
            and p.pos[k][t] == here
            and p.seen_a[k] < t
            and t not in p.moves[k]
        ]
    return out


def _leavers(p: _Paths, i: int, paths: dict[int, list[int]]) -> list[tuple[int, int]]:
    """``(k, t)``: card ``i`` stayed at the place move ``t`` (unseen by ``a``) took ``k``
    (not a copy) from; ``a`` sees neither from ``t`` on."""
    out = []
    for t in range(p.seen_a[i] + 1, p.n):
        if not _unseen_move(p, t) or p.pos[i][t] != p.h.steps[t].src or t in p.moves[i]:
            continue
        out += [
            (k, t)
            for k in range(len(p.kind))
            if k not in paths and t in p.moves[k] and p.seen_a[k] < t
        ]
    return out


def witness_searched(
    h: CardHistory, a: str, b: str, atom: Any, *, steps: int = SEARCH_STEPS
) -> bool:
    """Whether a world ``a`` considers possible was found where ``b`` knows ``has(L, C)``,
    by at most ``steps`` changes of the paths of ``C``'s copies that ``a`` cannot see
    (see the module's text).  ``True`` is a proof of ``M_a K_b has(L, C)``; ``False``
    means the search found none.

    Examples
    --------
    y puts an A and a B face down into the pile z picks up; x puts its A on the new
    pile and z one card (unseen by x), and y picks that pile up:

    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move, MoveAll
    >>> from kripke.formulas import Atom
    >>> h = CardHistory(Deck(["A", "B", "C"], [3, 3, 3]),
    ...                 {"x": "A C C", "y": "A B B", "z": "A B C", "pile": ""},
    ...                 ["x", "y", "z"])
    >>> h = h.then(Move("A B", "y", "pile", seen_by=["y"]), MoveAll("pile", "z", seen_by=["z"]),
    ...            Move("A", "x", "pile", seen_by=["x"]), Move("C", "z", "pile", seen_by=["z"]),
    ...            MoveAll("pile", "y", seen_by=["y"]))
    >>> at = Atom("has", ("z", "A"))
    >>> h.seat_counting("y").knows(at)       # the A y sees may be the one it gave z
    False
    >>> # had y put down two As, y would know z kept one: x cannot tell
    >>> witness_searched(h, "x", "y", at)
    True
    """
    from games.epistemic.witness import _knows_there, _observed

    cell = h.card_cell(atom)
    if a == b or cell is None or "#" in str(atom.args[1]) or cell[0] in h.owns.get(b, ()):
        return False
    loc, x, _ = cell
    truth = _observed(h, a)
    for newest in (False, True) if h.deck.copies[x] > 1 else (False,):
        p = _Paths(h, a, b, x, newest)
        p.loc = loc
        if _searched(p, b, loc, steps):
            world = _built(p)
            if world is not None and _knows_there(world, a, b, atom, truth):
                return True
    return False


def _searched(p: _Paths, b: str, loc: str, steps: int) -> bool:
    """Take at most ``steps`` best steps on ``p`` (carried out on it) while the score
    grows; whether ``b`` can follow a copy to ``loc`` at the end."""
    paths = {i: list(p.moves[i]) for i, k in enumerate(p.kind) if k == p.x}
    best = _score(p, paths, b, loc)
    for _ in range(steps):
        if best[0] >= 1:
            break
        top = None
        for new, how in _changes(p, paths):
            s = _score(p, new, b, loc)
            if s > best and (top is None or s > top[0]):
                top = (s, new, how)
        if top is None:
            break
        best, paths, how = top
        _apply(p, how)
    return best[0] >= 1


def _apply(p: _Paths, how: Any) -> None:
    """Carry out one step (its trades in order) on the cards' kinds and paths."""
    for change in how:
        if change[0] == "kinds":
            _, i, j = change
            p.kind[i], p.kind[j] = p.kind[j], p.kind[i]
            p.sent = None
            continue
        _, i, j, t = change
        head_i = [u for u in p.moves[i] if u < t]
        head_j = [u for u in p.moves[j] if u < t]
        tail_i = [u for u in p.moves[i] if u >= t]
        tail_j = [u for u in p.moves[j] if u >= t]
        p.moves[i], p.moves[j] = head_i + tail_j, head_j + tail_i
        p.pos[i], p.pos[j] = p._positions(i), p._positions(j)
        p.sent = None


def _built(p: _Paths) -> CardHistory | None:
    """The history the cards' kinds and paths describe (the same deal places and
    events, each move carrying the kinds of the cards that now take it), or ``None``
    when an event no longer fits."""
    h = p.h
    deck = h.deck
    initial: dict[str, list[str]] = {m: [] for m in h.locations}
    for i, m in enumerate(p.start):
        initial[m].append(deck.name(p.kind[i]))
    carried: dict[int, list[str]] = {}
    for i, ms in enumerate(p.moves):
        for t in ms:
            if h.steps[t].kind == "move":
                carried.setdefault(t, []).append(deck.name(p.kind[i]))
    events = [
        replace(e, cards=tuple(carried.get(t, ()))) if isinstance(e, Move) else e
        for t, e in enumerate(h.events)
    ]
    try:
        return CardHistory(deck, initial, h.owns, events)
    except GameError:
        return None
