"""A seat's worlds as an integer program: exact first-order knowledge on long histories.

The copies of a kind cannot be told apart, so a world a seat considers possible is
fixed by numbers: how many copies of each kind every place the seat did not see
held at the deal, and how many each move it did not see carried.  Every
observation is a linear condition on those numbers:

* a place's cards at the deal add up to its size, and each kind's copies to the
  deck's;
* a move carries as many cards as it shows, and no more copies of a kind than
  its source holds;
* a move, reveal or pick-up the seat saw fixes what it saw, a card shown to it is
  there, a public count bounds a sum, a public fact is a formula over such counts.

Whether some world of the seat makes a propositional card formula true is then
whether an integer program is feasible (a formula's parts enter through 0/1
indicators, one per atom, *and* and *or*).  The seat *knows* ``f`` exactly when no
world of it makes ``~f`` true.  The program is solved by HiGHS
(:func:`scipy.optimize.milp`), or by CP-SAT (OR-Tools) where HiGHS's branch and bound
is slow (the covering's later rounds, :data:`games.epistemic.cover.HIGHS_ROUND`); where
the seat's counting knowledge (:class:`games.deal.DealKnowledge`) had to drop a
constraint too large to count, it
answers both ways at once: a world found is built again as a history, every event
checked, and kept only when the seat observes in it exactly what it observes in the
true history (so "does not know" comes with its proof); no world means the seat
knows.

Measured on 52-card koth (13 ranks of 4 copies), where the seats' counting of a long
history drops constraints: ``K_a has(c, X)`` asked at 30 late states of five games was
refused at 9 of them (no route decided within 5 s); the program decides all 30, each in
0.01-0.3 s of HiGHS.

Examples
--------
y put a card down unseen; x saw a copy of A go to the pile before:

>>> from games.cards import Deck
>>> from games.epistemic.history import CardHistory, Move
>>> h = CardHistory(Deck(["A", "B"], [2, 2]), {"x": "A B", "y": "A B", "pile": ""},
...                 ["x", "y"])
>>> h = h.then(Move("A", "x", "pile", seen_by=["x"]), Move("B", "y", "pile", seen_by=["y"]))
>>> p = SeatProgram(h, "x")
>>> p.knows(h.card_formula("has(pile, A)")), p.knows(h.card_formula("has(pile, B)"))
(True, False)
>>> p.knows(h.card_formula("has(y, A) | has(pile, A#2)"))   # y kept its A or put it down
True
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import replace
from typing import Any

from games.epistemic.history import CardHistory
from games.errors import GameError
from kripke.errors import SizeLimitError

__all__ = ["SeatProgram", "seat_knows", "witness_path_ruled_out"]

#: Most terms a count keeps written out before it becomes a variable of its own
#: (keeps the program's rows short as piles are picked up again and again).
_TERMS = 6

_Expr = tuple[dict[int, int], int]  # a count: coefficients of the variables, and a constant


def _plus(e: _Expr, f: _Expr) -> _Expr:
    """The sum of two counts (a count's coefficients are never changed in place, so the
    sum may share them with a term that has all of them)."""
    ec, fc = e[0], f[0]
    if not fc:
        return ec, e[1] + f[1]
    if not ec:
        return fc, e[1] + f[1]
    if len(fc) > len(ec):
        ec, fc = fc, ec
    coef = ec.copy()
    for v, c in fc.items():
        n = coef.get(v, 0) + c
        if n:
            coef[v] = n
        else:
            del coef[v]
    return coef, e[1] + f[1]


#: Bound written for a row's missing side in CP-SAT (which takes integers only).
_CP_BIG = 10**9


def _cp_sat() -> Any:
    """OR-Tools' CP-SAT module, or ``None`` where it is not installed."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:  # pragma: no cover - a core dependency; kept for partial installs
        return None
    return cp_model


class SeatProgram:
    """The worlds seat ``agent`` of history ``h`` considers possible, as the integer
    points of a polytope (see the module's text).

    Parameters
    ----------
    h : CardHistory
    agent : str
        A seat of ``h``.
    time_limit : float
        Most seconds HiGHS may take for one question; past it the question is
        undecided (``None``).

    Attributes
    ----------
    exact : bool
        False when a public fact has a part that is not about the cards: the program
        then keeps a superset of the worlds, and "knows" alone is sure.
    """

    def __init__(self, h: CardHistory, agent: str, *, time_limit: float = 5.0):
        import numpy as np

        if agent not in h.agents:
            raise GameError(f"unknown seat {agent!r}; seats: {', '.join(h.agents)}")
        self.h, self.agent, self.time_limit = h, agent, time_limit
        self.exact = True
        self._lb: list[float] = []
        self._ub: list[float] = []
        self._int: list[int] = []
        self._rows: list[tuple[dict[int, int], float, float]] = []
        self._deal: dict[str, dict[int, int]] = {}
        self._moved: dict[int, dict[int, int]] = {}
        self._before: dict[int, list[_Expr]] = {}  # a pick-up's or reveal's place before it
        # every place's counts after each step that changed them (the deal: step -1)
        self._trail: dict[str, list[tuple[int, list[_Expr]]]] = {}
        self._counts = self._replay()
        empty = np.zeros(0)
        self._arrays: tuple[Any, ...] = (
            [],
            empty,
            empty.astype(np.int32),
            np.zeros(1, np.int64),
            empty,
            empty,
        )
        self._truth: tuple[Any, ...] | None = None
        self._cp: tuple[Any, ...] | None = None  # CP-SAT's model of the rows, kept

    # ------------------------------------------------------------ building
    def _var(self, lo: int, hi: int, integer: bool = True) -> int:
        self._lb.append(lo)
        self._ub.append(hi)
        self._int.append(1 if integer else 0)
        return len(self._lb) - 1

    def _row(self, coef: dict[int, int], lo: float, hi: float) -> None:
        if coef:
            self._rows.append((coef, lo, hi))
        elif not lo <= 0 <= hi:  # a constant condition that fails: no world at all
            self._rows.append(({self._var(0, 0): 1}, 1, 1))

    def _bound(self, e: _Expr, lo: float, hi: float) -> None:
        """``lo <= e <= hi``."""
        coef, c = e
        self._row(dict(coef), lo - c, hi - c)

    def _short(self, e: _Expr, most: int) -> _Expr:
        """``e``, or a new variable equal to it when it has many terms."""
        coef, c = e
        if len(coef) <= _TERMS:
            return e
        v = self._var(0, most, integer=False)  # integral: it equals a sum of integers
        row = dict(coef)
        row[v] = -1
        self._row(row, -c, -c)
        return {v: 1}, 0

    def _replay(self) -> dict[str, list[_Expr]]:
        h, agent = self.h, self.agent
        deck = h.deck
        K = len(deck)
        cp = list(deck.copies)
        mine = set(h.owns[agent])
        counts: dict[str, list[_Expr]] = {}
        left = list(cp)
        for loc, ks in h.initial.items():
            if loc in mine:
                have = Counter(ks)
                counts[loc] = [({}, have[k]) for k in range(K)]
                for k, n in have.items():
                    left[k] -= n
        hidden = [loc for loc in h.locations if loc not in mine]
        column: list[dict[int, int]] = [{} for _ in range(K)]
        for loc in hidden:
            n = len(h.initial[loc])
            counts[loc] = [({}, 0) for _ in range(K)]
            if n == 0:
                continue
            row: dict[int, int] = {}
            for k in range(K):
                if left[k]:
                    v = self._var(0, min(left[k], n))
                    self._deal.setdefault(loc, {})[k] = v
                    counts[loc][k] = ({v: 1}, 0)
                    row[v] = 1
                    column[k][v] = 1
            self._row(row, n, n)
        for k in range(K):
            self._row(column[k], left[k], left[k])

        def add(e: _Expr, f: _Expr, k: int) -> _Expr:
            return self._short(_plus(e, f), cp[k])

        def note(i: int, st: Any) -> None:
            for loc in {st.src, st.dst} - {""}:
                self._trail[loc].append((i, list(counts[loc])))

        for loc in h.locations:
            self._trail[loc] = [(-1, list(counts[loc]))]
        for i, st in enumerate(h.steps):
            sees = st.audience is None or agent in st.audience
            if st.kind in ("all", "reveal"):
                self._before[i] = list(counts[st.src])
            if st.kind == "move":
                src, dst = counts[st.src], counts[st.dst]
                if sees:
                    for k, n in Counter(st.kinds).items():
                        self._bound(src[k], n, cp[k])
                        src[k] = (src[k][0], src[k][1] - n)
                        dst[k] = (dst[k][0], dst[k][1] + n)
                else:
                    n = len(st.kinds)
                    row = {}
                    for k in range(K):
                        if not src[k][0] and src[k][1] == 0:
                            continue  # none there in any world
                        v = self._var(0, min(n, cp[k]))
                        self._moved.setdefault(i, {})[k] = v
                        row[v] = 1
                        src[k] = add(src[k], ({v: -1}, 0), k)
                        self._bound(src[k], 0, cp[k])
                        dst[k] = add(dst[k], ({v: 1}, 0), k)
                    self._row(row, n, n)
                note(i, st)
            elif st.kind == "all":
                src, dst = counts[st.src], counts[st.dst]
                if sees:
                    have = Counter(st.content)
                    for k in range(K):
                        self._bound(src[k], have[k], have[k])
                        src[k] = ({}, have[k])
                for k in range(K):
                    dst[k] = add(dst[k], src[k], k)
                    src[k] = ({}, 0)
                note(i, st)
            elif st.kind == "reveal" and sees:
                have = Counter(st.content)
                for k in range(K):
                    self._bound(counts[st.src][k], have[k], have[k])
                    counts[st.src][k] = ({}, have[k])
                note(i, st)
            elif st.kind == "show" and sees:
                for k, n in Counter(st.kinds).items():
                    self._bound(counts[st.src][k], n, cp[k])
            elif st.kind == "count":
                total: _Expr = ({}, 0)
                for loc in st.locations:
                    for k in st.kinds:
                        total = _plus(total, counts[loc][k])
                self._bound(total, st.lo, st.hi)
            elif st.kind == "fact":
                z = self._indicator(h.card_nnf(st.formula), counts)
                if z is None:
                    self.exact = False  # a part not about the cards: left out
                elif z is False:
                    self._row({}, 1, 1)
                elif z is not True:
                    self._lb[z] = 1
        return counts

    def _indicator(self, node: Any, counts: dict[str, list[_Expr]]) -> Any:
        """A 0/1 variable that can be 1 only where ``node`` (a :meth:`CardHistory.card_nnf`
        node) holds of ``counts``; ``True``/``False`` when it holds or fails whatever the
        variables; ``None`` for a part that is not about the cards."""
        cp = self.h.deck.copies
        match node:
            case ("lit", loc, k, j, pos):
                coef, c = counts[loc][k]
                if not coef:
                    return (c >= j) == pos
                z = self._var(0, 1)
                row = dict(coef)
                if pos:  # z = 1 -> count >= j
                    row[z] = -j
                    self._row(row, -c, cp[k])
                else:  # z = 1 -> count <= j - 1
                    row[z] = cp[k]
                    self._row(row, -cp[k], j - 1 + cp[k] - c)
                return z
            case ("and" | "or" as op, parts):
                subs = [self._indicator(p, counts) for p in parts]
                if any(x is None for x in subs):
                    return None
                decisive = op == "or"  # a part of this value decides the node
                if any(x is decisive for x in subs):
                    return decisive
                subs = [x for x in subs if not isinstance(x, bool)]
                if not subs:
                    return not decisive
                z = self._var(0, 1)
                if op == "and":  # z = 1 -> every part
                    for x in subs:
                        self._row({z: 1, x: -1}, -1, 0)
                else:  # z = 1 -> some part
                    self._row({z: 1, **{x: -1 for x in subs}}, -len(subs), 0)
                return z
        return None

    # ------------------------------------------------------------ questions
    def world(self, f: Any) -> CardHistory | None:
        """A world seat ``agent`` considers possible where the propositional card formula
        ``f`` holds now, built as a history (every event checked, the seat's
        observations compared with the true ones); ``None`` when there is none.

        Raises
        ------
        SizeLimitError
            When HiGHS neither finds a world nor shows there is none within
            :attr:`time_limit`, or when a world it finds does not check out.
        """
        import numpy as np

        from kripke.errors import SizeLimitError

        n_before, rows_before = len(self._lb), len(self._rows)
        try:
            z = self._indicator(self.h.card_nnf(f), self._counts)
            if z is None:
                raise GameError(f"{f} is not a formula about the cards")
            if z is False:
                return None
            if z is not True:
                self._lb[z] = 1
            # any world will do, but a push towards fewer copies on the move finds one
            # far sooner than no objective (52-card koth: 0.16 s against 1.6 s), and
            # the first one found is taken
            res = self._solve(dict(enumerate(self._int)), first=True)
        finally:  # the question's indicators go: the program stays the seat's
            del self._lb[n_before:], self._ub[n_before:], self._int[n_before:]
            del self._rows[rows_before:]
        if res is None:
            return None  # infeasible: no such world
        if res.x is None:
            raise SizeLimitError(
                f"the integer program of {self.agent}'s worlds was not solved within "
                f"{self.time_limit} s"
            )
        w = self._built(np.rint(res.x).astype(int))
        if w is None or not w._holds_now(f):
            raise SizeLimitError(
                f"the integer program of {self.agent}'s worlds gave a world that does not "
                "check out; not decided"
            )
        return w

    def _solve(self, cost: dict[int, float], *, first: bool = False, cp_sat: bool = False) -> Any:
        """HiGHS on the program with ``cost`` (variable -> coefficient) to minimise: its
        result, or ``None`` when no world exists; ``first``: the first world found.
        ``cp_sat``: CP-SAT solves it instead, where OR-Tools is installed
        (:meth:`_solve_cp`)."""
        if cp_sat and (cp_model := _cp_sat()) is not None:
            return self._solve_cp(cp_model, cost, first=first)
        import numpy as np
        from scipy.optimize import Bounds, LinearConstraint, milp
        from scipy.sparse import csr_matrix

        if not self._lb:
            self._var(0, 0)  # HiGHS needs a variable: the seat sees every card
        n = len(self._lb)
        data, cols, starts, lo, hi = self._matrix()
        A = csr_matrix((data, cols, starts), shape=(len(self._rows), n))
        A.sort_indices()
        objective = np.zeros(n)
        for v, x in cost.items():
            objective[v] += x
        options: dict[str, Any] = {"time_limit": self.time_limit}
        if first:
            options["mip_rel_gap"] = 1e9
        res = milp(
            objective,
            constraints=[LinearConstraint(A, lo, hi)] if self._rows else [],
            integrality=np.asarray(self._int),
            bounds=Bounds(self._lb, self._ub),
            options=options,
        )
        return None if res.status == 2 else res

    def _solve_cp(self, cp_model: Any, cost: dict[int, float], *, first: bool = False) -> Any:
        """CP-SAT (OR-Tools' ``cp_model``) on the program with ``cost`` to minimise (integral
        coefficients; ``first``: the first world found): a result with ``x`` (the values
        of the variables; ``None`` past :attr:`time_limit`), or ``None`` when no world
        exists.  A row with a coefficient that is not an integer goes to HiGHS.

        Every variable is integral in every solution (a count's variable equals a sum of
        integers), so CP-SAT solves the same program exactly, in integers.  The programs
        the covering grows (:func:`~games.epistemic.cover.covered_ignorance`: a 0/1 choice
        per escape of every change found) are where it counts: on 52-card koth seed 6
        play 50 the last of 35 such programs (1,416 variables, 1,843 rows) is shown to
        have no world in 0.14 s, where HiGHS took 3.96 s; the model is kept and only
        the rows added since the last call are written in."""
        import math
        from types import SimpleNamespace

        import numpy as np

        kept = self._cp
        m = 0
        if kept is not None:
            for a, b in zip(kept[0], self._rows, strict=False):
                if a is not b:
                    break
                m += 1
        if kept is None or m < len(kept[0]) or len(kept[2]) > len(self._lb):
            model, xs, m = cp_model.CpModel(), [], 0
        else:
            model, xs = kept[1], kept[2]
            n = len(xs)  # bounds may have changed (an indicator set to 1): start anew
            if list(zip(self._lb[:n], self._ub[:n], strict=True)) != kept[3][:n]:
                model, xs, m = cp_model.CpModel(), [], 0
        for lo, hi in zip(self._lb[len(xs) :], self._ub[len(xs) :], strict=True):
            xs.append(model.new_int_var(math.floor(lo), math.ceil(hi), ""))
        for coef, lo, hi in self._rows[m:]:
            if any(n != int(n) for n in coef.values()):  # CP-SAT takes integers only
                self._cp = None
                return self._solve(cost, first=first)
            expr = sum(int(n) * xs[v] for v, n in coef.items())
            model.add_linear_constraint(
                expr,
                -_CP_BIG if lo < -_CP_BIG else math.ceil(lo - 1e-9),
                _CP_BIG if hi > _CP_BIG else math.floor(hi + 1e-9),
            )
        self._cp = (list(self._rows), model, xs, list(zip(self._lb, self._ub, strict=True)))
        model.clear_objective()
        if any(cost.values()):
            model.minimize(sum(round(c) * xs[v] for v, c in cost.items() if c))
        solver = cp_model.CpSolver()
        solver.parameters.stop_after_first_solution = first
        solver.parameters.num_workers = 1  # one worker: the same world every run
        solver.parameters.linearization_level = 2  # on the koth programs: 0.14 s, not 0.59 s
        solver.parameters.max_time_in_seconds = max(0.01, float(self.time_limit))
        status = solver.solve(model)
        if status == cp_model.INFEASIBLE:
            return None
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return SimpleNamespace(x=None, status=1)
        return SimpleNamespace(x=np.asarray([solver.value(x) for x in xs], dtype=float), status=0)

    def _matrix(self) -> tuple[Any, ...]:
        """The rows as compressed sparse rows: ``(data, columns, starts, lo, hi)``.  The
        arrays of the last call are kept and reused up to the first row that is no longer
        the same (rows are only added at the end and taken off the end), so a program
        asked again and again with a few rows more or less is not written out anew."""
        import numpy as np

        rows = self._rows
        kept, data, cols, starts, lo, hi = self._arrays
        m = 0
        for a, b in zip(kept, rows, strict=False):
            if a is not b:
                break
            m += 1
        d2: list[int] = []
        c2: list[int] = []
        s2: list[int] = []
        end = int(starts[m])
        for coef, _, _ in rows[m:]:
            d2.extend(coef.values())
            c2.extend(coef)
            end += len(coef)
            s2.append(end)
        new = rows[m:]
        data = np.concatenate([data[: starts[m]], np.asarray(d2, dtype=float)])
        cols = np.concatenate([cols[: starts[m]], np.asarray(c2, dtype=np.int32)])
        starts = np.concatenate([starts[: m + 1], np.asarray(s2, dtype=np.int64)])
        lo = np.concatenate([lo[:m], np.asarray([r[1] for r in new], dtype=float)])
        hi = np.concatenate([hi[:m], np.asarray([r[2] for r in new], dtype=float)])
        self._arrays = (list(rows), data, cols, starts, lo, hi)
        return data, cols, starts, lo, hi

    def after(self, loc: str, step: int) -> list[_Expr]:
        """The counts of every kind at ``loc`` after step ``step`` (``-1``: the deal), in
        the program's numbers."""
        from bisect import bisect_right

        trail = self._trail[loc]
        return trail[bisect_right(trail, step, key=lambda t: t[0]) - 1][1]

    def most(self, cells: Any = (), moves: Any = ()) -> int | None:
        """The most copies that the places ``cells`` (pairs ``(location, kind)``) hold
        now, together with the copies the steps ``moves`` (pairs ``(step, kind)``, each a
        move) carried, in any world of the seat; ``None`` when HiGHS does not settle it
        within :attr:`time_limit`.

        Examples
        --------
        >>> from games.cards import Deck
        >>> from games.epistemic.history import CardHistory, Move
        >>> h = CardHistory(Deck(["A", "B"], [2, 2]), {"x": "A B", "y": "A B", "pile": ""},
        ...                 ["x", "y"])
        >>> h = h.then(Move("A B", "y", "pile", seen_by=["y"]))
        >>> p = SeatProgram(h, "x")
        >>> p.most([("pile", 0)]), p.most([("y", 0)], [(0, 0)])   # y's A: kept or put down
        (1, 1)
        """
        cost: dict[int, float] = {}
        const = 0
        for loc, k in cells:
            coef, c = self._counts[loc][k]
            const += c
            for v, x in coef.items():
                cost[v] = cost.get(v, 0) - x
        for i, k in moves:
            if i in self._moved:
                v = self._moved[i].get(k)
                if v is not None:
                    cost[v] = cost.get(v, 0) - 1
            else:
                const += list(self.h.steps[i].kinds).count(k)
        if not cost:
            return const
        res = self._solve(cost)
        if res is None or res.status != 0:
            return None
        return const + round(-res.fun)

    def some_world(self, seed: int = 0) -> CardHistory | None:
        """A world of the seat drawn by HiGHS under a random objective (weights from
        ``seed``; other seeds give other worlds), built and checked as in :meth:`world`;
        ``None`` when HiGHS takes longer than :attr:`time_limit` or the world does not
        check out.

        Examples
        --------
        >>> from games.cards import Deck
        >>> from games.epistemic.history import CardHistory
        >>> h = CardHistory(Deck(["A", "B", "C", "D"]), {"x": "A", "y": "B C D"}, ["x", "y"])
        >>> SeatProgram(h, "x").some_world(3).content()["y"]
        ('B', 'C', 'D')
        """
        import random

        import numpy as np

        rng = random.Random(seed)
        res = self._solve({v: rng.random() for v in range(len(self._lb))}, first=True)
        if res is None or res.x is None:
            return None
        return self._built(np.rint(res.x).astype(int))

    def traced(self, other: str, loc: str, kind: int, copies: int = 1) -> CardHistory | None:
        """A world of the seat where seat ``other`` followed at least ``copies`` copies of
        ``kind`` to ``loc`` (built as a history and checked as in :meth:`world`): there
        ``other`` knows ``has(loc, kind#copies)``, so the seat does not know that
        ``other`` does not.  ``None`` when HiGHS finds no such world within
        :attr:`time_limit`; that proves nothing, since ``other`` can know more than it
        followed (by elimination).

        What ``other`` followed is a lower bound on the copies at each place in every
        world ``other`` considers possible, replayed over ``other``'s observations in the
        seat's world: the copies of its own hand at the deal; a move it saw adds its
        copies where they went and takes them off where they left; a move it did not
        see takes as many as it carried off their place (they may all have been
        copies); a pick-up adds the copies it saw picked up, or what it had followed to
        the place picked up; a reveal or show it saw sets or raises the place's bound.
        Each "at least none" is a 0/1 choice of the program, every step linear in the
        seat's numbers.

        Examples
        --------
        y saw x pick up the A that y put in the pile; z did not see what y put there:

        >>> from games.cards import Deck
        >>> from games.epistemic.history import CardHistory, Move, MoveAll
        >>> h = CardHistory(Deck(["A", "B"], [2, 2]), {"x": "B", "y": "A A", "z": "B",
        ...                 "pile": ""}, ["x", "y", "z"])
        >>> h = h.then(Move("A", "y", "pile", seen_by=["y"]), MoveAll("pile", "x", seen_by=["x"]))
        >>> p = SeatProgram(h, "z")
        >>> w = p.traced("y", "x", h.deck.index("A"))
        >>> w.content()["x"]
        ('A', 'B')
        >>> p.traced("y", "x", h.deck.index("A"), 2) is None   # y put down one card
        True
        """
        h, k = self.h, kind
        cp = h.deck.copies
        inf = float("inf")
        big = 2 * sum(cp) + 1
        n_before, rows_before = len(self._lb), len(self._rows)
        theirs = set(h.owns.get(other, ()))
        mine = set(h.owns.get(self.agent, ()))

        def dealt(place: str) -> _Expr:
            if place in mine:
                return {}, list(h.initial[place]).count(k)
            v = self._deal.get(place, {}).get(k)
            return ({v: 1}, 0) if v is not None else ({}, 0)

        def at_least_none(e: _Expr) -> _Expr:  # max(0, e), or a value below it
            coef, c = e
            if all(x > 0 for x in coef.values()) and c >= 0:
                return e
            if not coef:
                return {}, max(0, c)
            return higher(e, ({}, 0))

        def higher(e: _Expr, f: _Expr) -> _Expr:  # a t <= max(e, f), f a constant
            t, z = self._var(0, cp[k], integer=False), self._var(0, 1)
            row = {v: -x for v, x in e[0].items()}
            row[t], row[z] = 1, big
            self._row(row, -inf, e[1] + big)  # z = 1: t <= e
            self._row({t: 1, z: -big}, -inf, f[1])  # z = 0: t <= f
            return {t: 1}, 0

        def carried(i: int, st: Any) -> _Expr:
            if st.audience is None or self.agent in st.audience:
                return {}, list(st.kinds).count(k)
            v = self._moved.get(i, {}).get(k)
            return ({v: 1}, 0) if v is not None else ({}, 0)

        bound: dict[str, _Expr] = {
            place: dealt(place) if place in theirs else ({}, 0) for place in h.locations
        }
        try:
            for i, st in enumerate(h.steps):
                seen = st.audience is None or other in st.audience
                if st.kind == "move":
                    if seen:
                        x = carried(i, st)
                        less = {v: -c for v, c in x[0].items()}, -x[1]
                        bound[st.src] = at_least_none(_plus(bound[st.src], less))
                        bound[st.dst] = self._short(_plus(bound[st.dst], x), big)
                    else:
                        gone: _Expr = {}, -len(st.kinds)
                        bound[st.src] = at_least_none(_plus(bound[st.src], gone))
                elif st.kind == "all":
                    got = self._before[i][k] if seen else bound[st.src]
                    bound[st.dst] = self._short(_plus(bound[st.dst], got), big)
                    bound[st.src] = {}, 0
                elif st.kind == "reveal" and seen:
                    bound[st.src] = self._before[i][k]
                elif (
                    st.kind == "show"
                    and seen
                    and (st.audience is None or self.agent in st.audience)
                ):
                    shown = list(st.kinds).count(k)
                    if shown:
                        bound[st.src] = higher(bound[st.src], ({}, shown))
            self._bound(bound[loc], copies, big)
            res = self._solve(dict(enumerate(self._int[:n_before])), first=True)
        finally:
            del self._lb[n_before:], self._ub[n_before:], self._int[n_before:]
            del self._rows[rows_before:]
        if res is None or res.x is None:
            return None
        import numpy as np

        return self._built(np.rint(res.x[:n_before]).astype(int))

    def _built(self, x: Any) -> CardHistory | None:
        """The history the solution ``x`` describes, or ``None`` when an event does not fit
        or the seat would observe something else."""
        from games.epistemic.witness import _observed

        h = self.h
        deck = h.deck
        initial: dict[str, list[str]] = {}
        for loc, dealt in h.initial.items():
            if loc in self._deal:
                initial[loc] = [
                    deck.name(k) for k, v in self._deal[loc].items() for _ in range(x[v])
                ]
            else:
                initial[loc] = [deck.name(k) for k in dealt]
        try:
            w = CardHistory(deck, initial, h.owns)
            batch: list[Any] = []
            e: Any
            for i, e in enumerate(h.events):
                st = h.steps[i]
                if i in self._moved:
                    ks = self._moved[i]
                    e = replace(
                        e, cards=tuple(deck.name(k) for k, v in ks.items() for _ in range(x[v]))
                    )
                elif st.kind == "fact":
                    e = replace(e, formula=st.formula)  # parsed once, in h
                elif st.kind == "show" and not (st.audience is None or self.agent in st.audience):
                    # the seat saw only that some cards there were shown: any of them
                    w, batch = w.then(*batch), []
                    e = replace(e, cards=w.content()[st.src][: len(st.kinds)])
                batch.append(e)
            w = w.then(*batch)
        except GameError:
            return None
        if self._truth is None:
            self._truth = _observed(h, self.agent)
        return w if _observed(w, self.agent) == self._truth else None

    def knows(self, f: Any) -> bool | None:
        """Whether the seat knows the propositional card formula ``f``: no world of it
        makes ``~f`` true.  ``False`` comes with a world checked against the seat's
        observations; where the program keeps a superset of the worlds (:attr:`exact`
        is False), finding none proves nothing and the answer is ``None``."""
        from kripke.formulas import Not

        if self.world(Not(f)) is not None:
            return False
        return True if self.exact else None


def seat_knows(h: CardHistory, agent: str, f: Any, *, time_limit: float = 5.0) -> bool | None:
    """Whether seat ``agent`` of ``h`` knows the propositional card formula ``f``
    (:class:`SeatProgram`); ``None`` when that is not decided.

    Examples
    --------
    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move
    >>> h = CardHistory(Deck(["A", "B", "C"]), {"x": "A", "y": "B C", "pile": ""}, ["x", "y"])
    >>> h = h.then(Move("B", "y", "pile", seen_by=["y"]))
    >>> seat_knows(h, "x", h.card_formula("has(pile, B) | has(pile, C)"))
    True
    >>> seat_knows(h, "x", h.card_formula("has(pile, B)"))
    False
    """
    from kripke.errors import SizeLimitError

    try:
        return SeatProgram(h, agent, time_limit=time_limit).knows(f)
    except SizeLimitError:
        return None


def witness_path_ruled_out(
    h: CardHistory, group: tuple[str, ...], b: str, atom: Any, *, time_limit: float = 1.0
) -> bool:
    """Whether a path of at most two steps of the seats ``group`` leads from the true
    history to a world where seat ``b`` holds so many copies of the atom's card that it
    knows ``~atom`` (``has(L, C#k)`` with ``L`` not ``b``'s: the copies ``b`` holds leave
    fewer than ``k`` for ``L``); then ``M_b atom`` is not common knowledge of ``group``
    (nor ``E_G E_G M_b atom`` for a path of two).  ``True`` is a proof: each world is a
    :class:`~games.epistemic.program.SeatProgram` world checked event by event, the
    second built on the first, and ``b``'s own program knows ``~atom`` in the last;
    ``False`` proves nothing.

    The first step goes to a world of ``x`` where the next seat ``y`` holds no copy of
    the card (so that ``y`` cannot rule out that ``b`` holds them), the second to a world
    of ``y`` there where ``b`` holds the copies; or one step of ``x`` to such a world.

    Examples
    --------
    x and y each hold an A, z a B and a C.  x cannot tell where the other A is, so it
    considers ``has(y, A)`` possible; but z cannot tell whether x holds both, and in such
    a world of z x knows ``~has(y, A)``: ``M_x has(y, A)`` is not common knowledge of x
    and z:

    >>> from games.cards import Deck
    >>> from kripke.formulas import Atom
    >>> h = CardHistory(Deck(["A", "B", "C"], [2, 2, 2]),
    ...                 {"x": "A B", "y": "A C", "z": "B C"}, ["x", "y", "z"])
    >>> witness_path_ruled_out(h, ("x", "z"), "x", Atom("has", ("y", "A")))
    True
    """
    from kripke.formulas import Atom, Not

    cell = h.card_cell(atom)
    mine = h.owns.get(b, ())
    if cell is None or len(mine) != 1 or cell[0] in mine:
        return False
    _, x, j = cell
    need = h.deck.copies[x] - j + 1  # copies b holds: L holds fewer than j
    name = h.deck.names[x]
    holds_them = Atom("has", (mine[0], name if need == 1 else f"{name}#{need}"))
    stop = time.monotonic() + time_limit

    def world_of(w: CardHistory, seat: str, f: Any) -> CardHistory | None:
        left = stop - time.monotonic()
        if left <= 0:
            return None
        try:
            prog = SeatProgram(w, seat, time_limit=left)
            return prog.world(f) if prog.exact else None
        except (SizeLimitError, GameError):
            return None

    def ruled_out(w: CardHistory | None) -> bool:
        if w is None:
            return False
        try:
            prog = SeatProgram(w, b, time_limit=max(0.05, stop - time.monotonic()))
            return prog.exact and prog.knows(Not(atom)) is True
        except (SizeLimitError, GameError):
            return False

    for s in group:
        if ruled_out(world_of(h, s, holds_them)):
            return True
    for s in group:
        for y in group:
            theirs = h.owns.get(y, ())
            if y == s or y == b or len(theirs) != 1:
                continue
            first = world_of(h, s, Not(Atom("has", (theirs[0], name))))
            if first is not None and ruled_out(world_of(first, y, holds_them)):
                return True
            if time.monotonic() >= stop:
                return False
    return False
