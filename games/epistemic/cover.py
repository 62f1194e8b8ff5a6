"""``K_a ~K_b has(L, C)`` on long histories: covering seat ``a``'s worlds with changes seat
``b`` cannot see.

``K_a ~K_b p`` says that in every world ``x`` seat ``a`` considers possible where ``p``
holds, seat ``b`` considers some world without ``p`` possible: a question of the form
"for every ``x`` there is a ``z``", which one integer program does not ask.  It is asked
here as a loop of integer programs (counter-example guided, as in the solving of
two-level quantified problems):

1. find a world ``x`` of ``a`` where ``p`` holds and that no change found so far
   covers (:class:`~games.epistemic.program.SeatProgram` of ``a``, with the cuts below);
   none: ``K_a ~K_b p`` holds;
2. in ``x``, find the world ``z`` of ``b`` without ``p`` nearest to ``x`` (fewest
   copies placed otherwise, the program of ``b`` built on ``x``); none: ``b`` knows
   ``p`` in ``x``, and ``K_a ~K_b p`` fails (``x`` is checked as a world of ``a``);
3. the change ``d = z - x`` (copies of each kind at each place after each step, and
   carried by each move) leaves everything ``b`` observes as it is, since what ``b``
   observes is a sum of such counts.  So ``x' + d`` is a world ``b`` cannot tell from
   ``x'`` for *every* world ``x'`` of ``a`` where it is a world at all (no place ever
   holds fewer than no copies, no move carries fewer than none) and where ``p`` fails
   in it.  Those are linear conditions on ``x'``: the next worlds of step 1 must break
   one of them (a 0/1 choice per condition), and ``x`` breaks none.

Each change is widened before it is cut off.  A condition another implies (a place
that only gains copies, or only loses them, between two steps) is dropped.  And the
cards of another kind that the change moves along one path may be of any kind the
change leaves alone, since what a seat observes is counted kind by kind: one condition
left on them becomes a sum over those kinds, several a 0/1 choice per kind (for several
cards, of which count bounds each kind's share; on koth seed 0 play 84, ``K_P0 ~K_P1
has(P2, 1)``, true in 17 rounds, where with one card only 72 rounds in 78 s did not
end).  Measured on 52-card koth, seed 0, play 59 (82 events, ``K_P3 ~K_P0 has(P1, 12)``,
true): 11 rounds and 1.0 s, where the changes as found took 37 rounds and 10 s.  Two
widenings more: all groups of other kinds take any kind at once where they are taken
from different counts, and where the change takes its last copies off the atom's place
on one move, in place of cards of other kinds, that number follows the world (the place
holding ``E'`` copies where ``x`` holds ``E``, ``v + E' - E`` of them).  On koth seed 15
play 66 the rounds in 10 s see 32 different changes in 37 rounds, where before 15 in 56.
A unit is scaled past public observations that read no cell it passes through, and
groups taking cards from one count take any kinds at once where their cards came there
on different moves: on BS-ZPY seed 4 play 80 (``K_P1 ~K_P2 has(P3, 10S)``, true), 11
rounds and 2.3 s where 59 rounds and 11.4 s.

Public observations (shows, counts, facts: BS-ZPY's claims and voids) do not change the
counts but every world meets them, so ``x' + d`` must too: a show must still find its
cards, a count stay within its bounds, and a fact hold through the parts that hold in
``z`` (every part ``d`` touches under *and*, one part that holds under *or*), again
linear conditions on ``x'``.  A kind is given to a change's cards in place of another
only where no observation names either.  Measured on BS-ZPY seed 0 play 45 (``K_P4
~K_P0 has(P1, 2D)``, 75 events of which 22 public facts, true): 0.96 s, where the kind
quotient refused.

Exact wherever it answers: "holds" comes from the program of ``a`` showing no world
left, "fails" from a world of ``a`` checked event by event in which ``b``'s program
has no world without ``p``.  A show ``a`` did not see is not read (it shows cards of
``a``'s worlds that no count names), nor a fact with parts not about the cards.

Examples
--------
``y`` put one card down unseen; ``x`` holds an A, so ``x`` knows that ``y`` may still hold
the other A or may have put it down, and ``z`` cannot tell:

>>> from games.cards import Deck
>>> from games.epistemic.history import CardHistory, Move
>>> h = CardHistory(Deck(["A", "B", "C"], [2, 2, 2]),
...                 {"x": "A C", "y": "A B", "z": "B C", "pile": ""}, ["x", "y", "z"])
>>> h = h.then(Move("A", "y", "pile", seen_by=["y"]))
>>> covered_ignorance(h, "x", "z", h.card_formula("has(y, A)"))[0]
True
"""

from __future__ import annotations

import json
import os
import select
import signal
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from games.epistemic.history import CardHistory
from games.epistemic.program import SeatProgram, _Expr, _plus

__all__ = ["covered_ignorance"]

#: The kinds of step the covering reads: each changes or shows sums of counts only.
_LINEAR = frozenset({"move", "all", "reveal"})
#: Public observations a changed world must still meet: conditions on its counts.
_SEEN = frozenset({"show", "count", "fact"})

#: Most seconds HiGHS gets to find a world of ``a`` in a round of the covering; past
#: them the round, and every later one, goes to CP-SAT (OR-Tools).  The 0/1 choices of
#: the cuts make the program hard for branch and bound as they pile up: on 52-card koth
#: seed 6 play 50 (35 rounds) HiGHS took 2-4 s a round from the 29th on and 3.96 s to
#: show the last program has no world, CP-SAT 0.1-0.5 s and 0.14 s.  Early rounds stay
#: with HiGHS, which finds worlds that end the loop in fewer rounds where both are fast
#: (BS-ZPY seed 4 play 80: 25 rounds, against 28-42 with CP-SAT from the start).
HIGHS_ROUND = 0.3

#: Least seconds a covering must have for two processes to try both ways at once (where
#: the machine has two cores or more; :class:`_Peer`): seat ``b``'s nearest worlds, and
#: its worlds reached one copy at a time with every such trade cut off together with its
#: sums with those found before (:class:`_Trades`).  Which way ends first differs from
#: question to question: on late 52-card koth states (the covering alone) the trades took
#: 2.5 s where the nearest worlds took 6.2 s (seed 0 play 100), 0.5 s against 1.7 s (seed
#: 15 play 45), but 10.9 s against 1.6 s (seed 0 play 200); the race took 2.5, 0.6 and
#: 1.7 s.  Both ways are exact; the first answer is kept, and the nearest way's cuts where
#: neither ends.  Under a second the forks and the cuts sent back cost more than the race
#: gains (22 koth states at 2 s a state: one gained, one lost, with 0.3 s one lost more).
PEER_SECONDS = 1.0

#: Fewest steps a history must have for the race of :data:`PEER_SECONDS`: on shorter ones
#: a covering ends in a few rounds, and forking costs more than it saves (the test suite's
#: small histories took 60% longer with a race on every covering).
PEER_STEPS = 40

#: Seconds past a covering's time limit its processes may take to send an answer (a
#: round's integer program stops at the limit, and its answer is then on its way).
PEER_GRACE = 0.05


def covered_ignorance(
    h: CardHistory,
    a: str,
    b: str,
    atom: Any,
    *,
    negated: bool = False,
    time_limit: float = 1.0,
    rounds: int = 60,
    program: SeatProgram | None = None,
    cuts: dict[str, Any] | None = None,
    trades: bool | None = None,
) -> tuple[bool | None, CardHistory | None]:
    """Whether ``K_a ~K_b atom`` holds at the end of ``h`` (``atom`` a card atom
    ``has(L, C)``, see the module's text): ``(True, None)``, ``(False, x)`` with ``x`` a
    world of ``a`` where ``b`` knows ``atom``, or ``(None, None)`` when the loop does not
    end within ``time_limit`` seconds or ``rounds`` rounds, or the history has events
    it does not read.  ``negated``: the same of ``K_a ~K_b ~atom`` (``K_a M_b atom``:
    ``a``'s worlds without ``atom`` are covered by changes to worlds of ``b`` with it,
    and ``(False, x)`` is a world of ``a`` where ``b`` knows ``~atom``; the changes are
    not scaled to the world there).  ``program``: ``a``'s :class:`SeatProgram` of ``h``,
    when kept (it is left as it was).  ``cuts``: a dict the loop keeps its cuts in when
    it does not end, and goes on from when given them again (same ``h``, ``a``, ``b``
    and ``atom``); it also keeps whether the loop went over to CP-SAT
    (:data:`HIGHS_ROUND`).

    Seat ``b``'s worlds are found two ways (:data:`PEER_SECONDS`): the one nearest to
    ``a``'s world, and one copy at a time, each trade cut off with its sums with those
    found before (:class:`_Trades`; not for ``negated``, nor for a history with facts).
    With ``time_limit`` at least :data:`PEER_SECONDS`, :data:`PEER_STEPS` steps or more and
    two cores, both run at once in processes of their own and the first to decide answers;
    ``trades``: ``True`` or ``False`` runs that way alone, in this process."""
    if a == b or any(not _read(st, a) for st in h.steps):
        return None, None
    import numpy as np

    from kripke.formulas import Not

    loc, k, j = h.atom_cell(atom)
    target = Not(atom) if negated else atom  # what the world of b found must not make hold
    cp = h.deck.copies
    pa = program if program is not None else SeatProgram(h, a, time_limit=time_limit)
    if not pa.exact:
        return None, None
    n0, r0 = len(pa._lb), len(pa._rows)
    kept_limit = pa.time_limit
    cost: dict[int, float] = {v: float(c) for v, c in enumerate(pa._int[:n0])}
    flow = _Flow(h)
    stop = time.monotonic() + time_limit
    # HiGHS did not answer a round within HIGHS_ROUND (here or in the last try)
    hard = HIGHS_ROUND <= 0 or bool(cuts and cuts.get("hard"))
    n1 = r1 = -1
    try:
        if negated:  # the atom fails: the change must make it hold
            pa._bound(pa._counts[loc][k], 0, j - 1)
        else:  # the atom holds: the change must make it fail
            pa._bound(pa._counts[loc][k], j, cp[k])
        n1, r1 = len(pa._lb), len(pa._rows)
        if cuts:  # the cuts of the last try
            _add_cuts(pa, cuts, n1)
        lib = _Trades.of(h) if not negated else None

        def loop(trading: bool) -> tuple[bool | None, Any]:
            """The rounds: ``(answer, the numbers of a's world where b knows the atom)``;
            ``trading``: seat ``b``'s worlds reached by one-copy trades, their sums cut
            off too (:class:`_Trades`)."""
            nonlocal hard
            last: Any = None
            for _ in range(rounds):
                left = stop - time.monotonic()
                if left <= 0:
                    return None, None
                pa.time_limit = left if hard else min(left, HIGHS_ROUND)
                res = pa._solve(cost, first=True, cp_sat=hard)
                if res is not None and res.x is None and not hard:
                    hard = True  # from here on CP-SAT (see HIGHS_ROUND)
                    pa.time_limit = stop - time.monotonic()
                    if pa.time_limit <= 0:
                        return None, None
                    res = pa._solve(cost, first=True, cp_sat=True)
                if res is None:
                    return True, None  # every world of a where the atom holds is covered
                if res.x is None:
                    return None, None
                x = np.rint(res.x[:n0]).astype(int)
                if last is not None and np.array_equal(x, last):
                    return None, None  # the cut did not hold (rounding): undecided
                last = x
                w = pa._built(x)
                if w is None:
                    return None, None
                end = pa._counts[loc][k]
                ends = end[1] + sum(n * int(x[v]) for v, n in end[0].items())
                if trading and lib is not None:
                    found, z = lib.traded(pa, w, b, loc, k, j, flow, stop)
                else:
                    found, z = _nearest(w, b, target, max(0.01, stop - time.monotonic()))
                if found is None:
                    return None, None
                if z is None:
                    return False, x  # b knows the atom in w
                diff, now, seen = _changes(w, z)
                if seen is None:
                    return None, None  # z fails an observation: not a world (not expected)
                _cut(pa, diff, now, seen, loc, k, j, flow, ends, negated=negated)
            return None, None

        def plain() -> tuple[bool | None, Any, Any]:
            got, x = loop(False)  # undecided: its cuts, for the next try (see ``cuts``)
            return got, x, _kept_cuts(pa, n1, r1, hard) if got is None else None

        race = None
        if (
            trades is None
            and lib is not None
            and time_limit >= PEER_SECONDS
            and len(h.steps) >= PEER_STEPS
            and _cores() >= 2
        ):
            race = _Peer.race([plain, lambda: (*loop(True), None)])
        if race is None:
            got, x = loop(bool(trades) and lib is not None)
        else:
            got, x, kept = _Peer.first(race, stop)
            if kept:  # the plain way's cuts, as if found here
                _add_cuts(pa, kept, n1)
                hard = kept["hard"]
        if got is False:
            w = pa._built(np.asarray(x, dtype=int))
            return (False, w) if w is not None else (None, None)
        return got, None
    finally:
        pa.time_limit = kept_limit
        if cuts is not None and r1 >= 0:
            cuts.update(_kept_cuts(pa, n1, r1, hard))
        del pa._lb[n0:], pa._ub[n0:], pa._int[n0:]
        del pa._rows[r0:]


def _kept_cuts(pa: SeatProgram, n1: int, r1: int, hard: bool) -> dict[str, Any]:
    """The cuts added to ``pa`` past its first ``n1`` variables and ``r1`` rows, to go on
    from (:func:`_add_cuts`; plain numbers, lists and dicts, so that they also cross a
    pipe as JSON), and whether the loop went over to CP-SAT."""
    return {
        "base": n1,
        "vars": list(zip(pa._lb[n1:], pa._ub[n1:], map(bool, pa._int[n1:]), strict=True)),
        "rows": pa._rows[r1:],
        "hard": hard,
    }


def _add_cuts(pa: SeatProgram, kept: dict[str, Any], n1: int) -> None:
    """Add the cuts of :func:`_kept_cuts` to ``pa`` (``n1`` variables before them), their
    own variables renumbered (the keys of a row read as numbers: JSON makes them text)."""
    base = kept["base"]
    shift = n1 - base
    for lo, hi, integer in kept["vars"]:
        pa._var(lo, hi, integer=integer)
    for coef, lo, hi in kept["rows"]:
        pa._row({int(v) + shift if int(v) >= base else int(v): n for v, n in coef.items()}, lo, hi)


def _cores() -> int:
    """How many cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class _Peer:
    """A forked process running one way of the covering: its answer comes back through a
    pipe as JSON text (the answer, the numbers of ``a``'s world where ``b`` knows the atom,
    and the cuts of a way that did not end), so nothing but numbers crosses."""

    def __init__(self, pid: int, fd: int):
        self.pid, self.fd = pid, fd
        self.done = False

    @classmethod
    def race(cls, ways: list[Callable[[], tuple[Any, Any, Any]]]) -> list[_Peer] | None:
        """A process for each of ``ways``; ``None`` (and none left running) where one cannot
        be forked."""
        peers: list[_Peer] = []
        for work in ways:
            peer = cls.start(work)
            if peer is None:
                for p in peers:
                    p.stop()
                return None
            peers.append(peer)
        return peers

    @classmethod
    def start(cls, work: Callable[[], tuple[Any, Any, Any]]) -> _Peer | None:
        """Fork a process that runs ``work`` and writes its answer; ``None`` where the
        process cannot be forked."""
        try:
            r, w = os.pipe()
        except OSError:
            return None
        try:
            pid = os.fork()
        except (OSError, AttributeError):  # AttributeError: no fork here (Windows)
            os.close(r)
            os.close(w)
            return None
        if pid == 0:  # the peer: answer, and leave without running anything of the parent's
            code = 0
            try:
                os.close(r)
                got, x, kept = work()
                xs = None if x is None else [int(v) for v in x]
                data = json.dumps({"got": got, "x": xs, "kept": kept}, default=_number).encode()
                while data:
                    data = data[os.write(w, data) :]
            except BaseException:  # noqa: BLE001 - the parent reads no answer
                code = 1
            finally:
                os._exit(code)
        os.close(w)
        return cls(pid, r)

    @staticmethod
    def first(peers: list[_Peer], stop: float) -> tuple[bool | None, Any, Any]:
        """The first answer of ``peers`` that decides, waiting up to ``stop`` (a
        :func:`time.monotonic` time) and a moment more for a way that ends on time:
        ``(answer, x, kept)`` with ``kept`` the cuts of a way that did not end (where it
        sent them); every peer is stopped."""
        kept = None
        try:
            left = list(peers)
            while left:
                wait = max(0.0, stop - time.monotonic()) + PEER_GRACE
                ready, _, _ = select.select([p.fd for p in left], [], [], wait)
                if not ready:
                    break
                for p in [p for p in left if p.fd in ready]:
                    left.remove(p)
                    got, x, more = p.read()
                    if got is not None:
                        return got, x, None
                    kept = kept or more
            return None, None, kept
        finally:
            for p in peers:
                p.stop()

    def read(self) -> tuple[bool | None, Any, Any]:
        """The peer's answer, read to its end: ``(answer, x, kept)``; ``(None, None,
        None)`` where it sent none."""
        chunks = []
        while chunk := os.read(self.fd, 1 << 16):
            chunks.append(chunk)
        try:
            got = json.loads(b"".join(chunks).decode())
        except ValueError:
            return None, None, None
        return got["got"], got["x"], got["kept"]

    def stop(self) -> None:
        """End the peer (where it still runs) and free its pipe."""
        if self.done:
            return
        self.done = True
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)
        os.close(self.fd)


def _number(v: Any) -> Any:
    """A NumPy number as a Python one, for JSON."""
    if hasattr(v, "item"):
        return v.item()
    raise TypeError(f"not a number: {v!r}")


class _Trades:
    """One-copy trades found so far: changes ``b`` cannot see, each taking one copy of
    the atom's card off its place."""

    def __init__(self) -> None:
        self.trades: list[tuple[dict[Any, int], dict[str, list[int]]]] = []
        self.keys: set[frozenset[Any]] = set()

    @classmethod
    def of(cls, h: CardHistory) -> _Trades | None:
        """A library for ``h``; ``None`` where ``h`` has a fact (what a fact asks of a
        changed world is read from that world, which a sum of trades does not have)."""
        return None if any(st.kind == "fact" for st in h.steps) else cls()

    def traded(
        self,
        pa: SeatProgram,
        w: CardHistory,
        b: str,
        loc: str,
        k: int,
        j: int,
        flow: _Flow,
        stop: float,
    ) -> tuple[bool | None, CardHistory | None]:
        """Seat ``b``'s world without ``has(loc, k#j)`` reached from ``w`` one copy at a
        time (``b``'s nearest world with one copy fewer there, then one fewer from that
        one, each a world ``b`` cannot tell from ``w``), as :func:`_nearest` answers.
        Every new trade is cut off from ``pa`` alone and summed with each trade found
        before: each leaves what ``b`` observes as it is (a sum of counts), so their sum
        does too, and the cut's conditions are read from the sum."""
        from kripke.formulas import Atom

        name = w.deck.name(k)
        base = w
        while True:
            have = base.kinds_now()[loc].count(k)
            if have < j:
                return True, base
            if time.monotonic() >= stop:
                return None, None
            fewer = Atom("has", (loc, f"{name}#{have}" if have > 1 else name))
            found, z = _nearest(base, b, fewer, max(0.01, stop - time.monotonic()))
            if found is None or z is None:
                return found, None  # b knows base, so w, holds that many copies there
            diff, now, seen = _changes(base, z)
            if seen is None:
                return None, None  # z fails an observation: not a world (not expected)
            base = z
            key = frozenset(diff.items())
            if not diff or key in self.keys:
                continue
            self.keys.add(key)
            for others in [(), *((t,) for t in self.trades)]:
                d2, n2 = _summed([(diff, now), *others])
                if d2:
                    _cut(pa, d2, n2, _seen_of(pa.h, d2), loc, k, j, flow, scale=False)
            self.trades.append((diff, now))


def _summed(
    changes: list[tuple[dict[Any, int], dict[str, list[int]]]],
) -> tuple[dict[Any, int], dict[str, list[int]]]:
    """The sum of changes ``(diff, now)`` (:func:`_changes`): the cells they record are
    the same for every change of one history, so the sum adds them cell by cell."""
    diff: dict[Any, int] = {}
    now: dict[str, list[int]] = {}
    for d, n in changes:
        for key, v in d.items():
            diff[key] = diff.get(key, 0) + v
        for place, vs in n.items():
            now[place] = [x + y for x, y in zip(now.get(place, [0] * len(vs)), vs, strict=True)]
    return {key: v for key, v in diff.items() if v}, now


def _seen_of(h: CardHistory, diff: dict[Any, int]) -> _Seen:
    """What the public observations of ``h`` (shows and counts: ``h`` has no fact, see
    :meth:`_Trades.of`) ask of a world the change ``diff`` is added to, read from the
    change alone."""
    K = len(h.deck)
    cur: dict[tuple[str, int], int] = {}
    for (where, i, kind), d in diff.items():
        if i == -1 and where is not None:
            cur[where, kind] = d
    seen = _Seen()
    for i, st in enumerate(h.steps):
        if st.kind in _SEEN:
            seen.add(h, i, st, None, cur)
        elif st.kind in ("move", "all"):
            for place in (st.src, st.dst):
                for kind in range(K):
                    d = diff.get((place, i, kind), 0)
                    if d:
                        cur[place, kind] = d
                    else:
                        cur.pop((place, kind), None)
    return seen


def _read(st: Any, a: str) -> bool:
    """Whether the covering reads step ``st`` for seat ``a``: a move, pick-up or reveal,
    a public count or fact, or a show ``a`` saw (one it did not see shows cards of
    ``a``'s worlds that no count names)."""
    if st.kind == "show":
        return st.audience is None or a in st.audience
    return st.kind in _LINEAR or st.kind in _SEEN


def _nearest(
    w: CardHistory, b: str, atom: Any, time_limit: float
) -> tuple[bool | None, CardHistory | None]:
    """``(True, z)``: ``z`` a world of ``b`` in ``w`` where ``atom`` (a card atom or its
    negation) fails, with the fewest copies dealt or moved otherwise than in ``w``;
    ``(True, None)``: there is none (``b`` knows ``atom`` in ``w``); ``(None, None)``: not
    decided."""
    import numpy as np

    from kripke.formulas import Not

    pb = SeatProgram(w, b, time_limit=time_limit)
    if not pb.exact:
        return None, None
    n0 = len(pb._lb)
    z = pb._indicator(w.card_nnf(Not(atom)), pb._counts)
    if z is None:
        return None, None
    if z is False:
        return True, None
    if z is not True:
        pb._lb[z] = 1
    cost: dict[int, float] = {}
    here: list[tuple[int, int]] = []  # (variable, its value in w)
    for place, vs in pb._deal.items():
        have = Counter(w.initial[place])
        here += [(v, have[kind]) for kind, v in vs.items()]
    for i, vs in pb._moved.items():
        have = Counter(w.steps[i].kinds)
        here += [(v, have[kind]) for kind, v in vs.items()]
    for v, value in here:  # t >= |v - value|
        t = pb._var(0, max(value, int(pb._ub[v]) - value), integer=False)
        pb._row({t: 1, v: -1}, -value, float("inf"))
        pb._row({t: 1, v: 1}, value, float("inf"))
        cost[t] = 1
    res = pb._solve(cost)
    if res is None:
        return True, None
    if res.x is None:
        return None, None
    world = pb._built(np.rint(res.x[:n0]).astype(int))
    if world is None or world._holds_now(atom):
        return None, None
    return True, world


def _changes(
    w: CardHistory, z: CardHistory
) -> tuple[dict[Any, int], dict[str, list[int]], _Seen | None]:
    """How ``z`` differs from ``w``: ``(where, step, kind) -> d`` for every place after a
    step (``-1``: the deal) holding ``d != 0`` copies more in ``z`` (``where`` the place),
    or a move carrying more (``where`` ``None``); the difference of every place now; and
    what the public observations ask of a world the change is added to (:class:`_Seen`;
    ``None`` when one of them fails in ``z``)."""
    K = len(w.deck)
    cw = {loc: _counted(ks, K) for loc, ks in w.initial.items()}
    cz = {loc: _counted(ks, K) for loc, ks in z.initial.items()}
    diff: dict[Any, int] = {}
    cur: dict[tuple[str, int], int] = {}  # (place, kind) -> d != 0 after the step so far

    def compare(i: int, places: Any) -> None:
        for loc in places:
            for kind in range(K):
                d = cz[loc][kind] - cw[loc][kind]
                if d:
                    diff[loc, i, kind] = cur[loc, kind] = d
                else:
                    cur.pop((loc, kind), None)

    compare(-1, w.locations)
    seen = _Seen()
    for i, (sw, sz) in enumerate(zip(w.steps, z.steps, strict=True)):
        if sw.kind in _SEEN:
            if not seen.add(w, i, sw, cz, cur):
                return diff, {}, None
        elif sw.kind == "move":
            for c, st in ((cw, sw), (cz, sz)):
                for kind in st.kinds:
                    c[st.src][kind] -= 1
                    c[st.dst][kind] += 1
            moved = Counter(sz.kinds)
            moved.subtract(Counter(sw.kinds))
            for kind, d in moved.items():
                if d:
                    diff[None, i, kind] = d
            compare(i, (sw.src, sw.dst))
        elif sw.kind == "all":
            for c in (cw, cz):
                c[sw.dst] = [x + y for x, y in zip(c[sw.dst], c[sw.src], strict=True)]
                c[sw.src] = [0] * K
            compare(i, (sw.src, sw.dst))
    now = {loc: [y - x for x, y in zip(cw[loc], cz[loc], strict=True)] for loc in cw}
    return diff, now, seen


class _Seen:
    """What the public observations (shows, counts, facts) ask of a world ``x'`` of seat
    ``a`` for ``x'`` plus a change to be a world at all:

    * ``conds``: ``(cells, step, least, most)``, the copies of ``cells`` (pairs
      ``(place, kind)``) after ``step`` in ``x'`` are at least ``least`` / at most
      ``most`` (``None``: no bound).  A show still finds its cards, a count its bounds, and
      a fact holds through the parts that hold after the change in the world it was found
      in: every part the change touches under *and*, one part that holds under *or* (all
      of it: ``x'`` need not meet that part itself);
    * ``moved``: for each observation, the cells the change touches then (``d != 0``);
    * ``watched``: for each observation, the cells its truth after the change was read
      from: every cell a show or count names; of a fact, the cells of the parts that hold
      after the change and the parts left unread (met by ``x'`` and not touched), not
      those of the other parts of an *or*.

    A change whose cards of another kind are given yet another kind (:func:`_cut`) must
    leave what each observation names as it was: see :meth:`free`."""

    def __init__(self) -> None:
        self.conds: list[tuple[list[tuple[str, int]], int, int | None, int | None]] = []
        self.moved: dict[int, dict[tuple[str, int], int]] = {}
        self.watched: dict[int, set[tuple[str, int]]] = {}

    def add(self, h: CardHistory, i: int, st: Any, cz: Any, moved: dict[Any, int]) -> bool:
        """Note observation ``st`` (step ``i``) in the changed world's counts ``cz``,
        ``moved`` the cells ``(place, kind)`` where they differ from the world's
        (``d != 0``); ``False`` when it fails in the changed one."""

        def d(loc: str, k: int) -> int:
            return int(moved.get((loc, k), 0))

        self.moved[i] = dict(moved)
        if st.kind == "show":
            shown = Counter(st.kinds)
            self.watched[i] = {(st.src, k) for k in shown}
            for k, n in shown.items():
                if d(st.src, k) < 0:
                    self.conds.append(([(st.src, k)], i, n - d(st.src, k), None))
            return cz is None or all(cz[st.src][k] >= n for k, n in shown.items())
        if st.kind == "count":
            cells = [(loc, k) for loc in st.locations for k in st.kinds]
            self.watched[i] = set(cells)
            s = sum(d(*c) for c in cells)
            if s > 0:
                self.conds.append((cells, i, None, st.hi - s))
            elif s < 0:
                self.conds.append((cells, i, st.lo - s, None))
            return cz is None or st.lo <= sum(cz[loc][k] for loc, k in cells) <= st.hi
        node = h.card_nnf(st.formula)
        named = _cells(node)
        if named is None:
            return False  # a part not about the cards
        read = self.watched[i] = set()
        touched = {c for c in named if d(*c)}

        def holds(n: Any) -> bool:  # in the changed world
            if n[0] == "lit":
                _, loc, k, j, pos = n
                return (cz[loc][k] >= j) == pos
            return (all if n[0] == "and" else any)(holds(p) for p in n[1])

        def need(n: Any, sure: bool) -> bool:  # sure: x' meets n
            if sure:
                cells = _cells(n) or set()
                if not cells & touched:
                    read.update(cells)
                    return True
            if n[0] == "lit":
                _, loc, k, j, pos = n
                read.add((loc, k))
                if pos:
                    self.conds.append(([(loc, k)], i, j - d(loc, k), None))
                else:
                    self.conds.append(([(loc, k)], i, None, j - 1 - d(loc, k)))
                return True
            if n[0] == "and":
                return all(need(p, sure) for p in n[1])
            ways = [p for p in n[1] if holds(p)]
            if not ways:
                return False
            return need(min(ways, key=_size), False)

        return need(node, True)

    def free(self, kinds: set[int], to: int) -> bool:
        """Whether the cards of ``kinds`` the change moves may be of kind ``to``
        instead, as far as the observations go: no observation's truth was read from a
        cell of ``kinds`` the change touches, nor from a cell of ``to`` where it touches
        ``kinds``."""
        for i, moved in self.moved.items():
            seen = self.watched.get(i, set())
            for loc, kind in moved:
                if kind in kinds and ((loc, kind) in seen or (loc, to) in seen):
                    return False
        return True


def _cells(node: Any) -> set[tuple[str, int]] | None:
    """The cells ``(place, kind)`` that ``node`` names; ``None`` for a part that is not
    about the cards."""
    if node[0] == "lit":
        return {(node[1], node[2])}
    if node[0] not in ("and", "or"):
        return None
    out: set[tuple[str, int]] = set()
    for p in node[1]:
        cells = _cells(p)
        if cells is None:
            return None
        out |= cells
    return out


def _size(node: Any) -> int:
    """How many literals ``node`` has."""
    return 1 if node[0] == "lit" else sum(_size(p) for p in node[1])


def _counted(kinds: Any, K: int) -> list[int]:
    c = [0] * K
    for kind in kinds:
        c[kind] += 1
    return c


class _Flow:
    """Which steps take cards from each place and which bring cards to it (prefix counts):
    where a place only gains copies between two steps, its count at the later one is at
    least its count at the earlier; where it only loses them, at most."""

    def __init__(self, h: CardHistory):
        n = len(h.steps)
        self.steps = h.steps
        self.out = {loc: [0] * (n + 1) for loc in h.locations}
        self.into = {loc: [0] * (n + 1) for loc in h.locations}
        for i, st in enumerate(h.steps):
            moving = st.kind in ("move", "all")
            for loc in h.locations:
                self.out[loc][i + 1] = self.out[loc][i] + (moving and st.src == loc)
                self.into[loc][i + 1] = self.into[loc][i] + (moving and st.dst == loc)

    def gains_only(self, loc: str, t1: int, t2: int) -> bool:
        """No step after ``t1`` up to ``t2`` takes a card from ``loc``."""
        return self.out[loc][t2 + 1] == self.out[loc][t1 + 1]

    def loses_only(self, loc: str, t1: int, t2: int) -> bool:
        """No step after ``t1`` up to ``t2`` brings a card to ``loc``."""
        return self.into[loc][t2 + 1] == self.into[loc][t1 + 1]

    def follow(self, s: int, t: int) -> str | None:
        """Where the cards move ``s`` carried are after step ``t`` (``t >= s``): they go
        where a pick-up takes their place; ``None`` when a move takes cards from their
        place first (some of them may have gone)."""
        at = self.steps[s].dst
        for i in range(s + 1, t + 1):
            st = self.steps[i]
            if st.kind in ("move", "all") and st.src == at:
                if st.kind == "move":
                    return None
                at = st.dst
        return at

    def at_most(self, a: Any, b: Any) -> bool:
        """Whether in every world the count ``a`` (``(place, step)`` after that step, or
        ``(None, step)`` the copies that move carried) is at most the count ``b``, of the
        same kind."""
        (pa, ta), (pb, tb) = a, b
        if pb is None:
            return False
        if pa is None:  # what a move carried: still at its place, or not yet gone from it
            st = self.steps[ta]
            if st.dst == pb and tb >= ta and self.gains_only(pb, ta, tb):
                return True
            return st.src == pb and tb < ta and self.loses_only(pb, tb, ta - 1)
        if pa == pb:
            if ta < tb:
                return self.gains_only(pb, ta, tb)
            return self.loses_only(pb, tb, ta)
        # a place emptied whole into another: the first step after ta that takes from pa
        for s in range(ta + 1, min(tb, len(self.steps) - 1) + 1):
            st = self.steps[s]
            if st.kind in ("move", "all") and st.src == pa:
                return st.kind == "all" and st.dst == pb and self.gains_only(pb, s, tb)
        return False


def _pruned(flow: _Flow, conds: list[tuple[Any, int, int, int]]) -> list[tuple[Any, int, int, int]]:
    """The conditions ``(where, step, kind, need)`` ("at least ``need``") that no other
    implies (:meth:`_Flow.at_most`); the same set of worlds meets them all."""
    parent: dict[int, int] = {}

    def root(x: int) -> int:
        while x in parent:
            x = parent[x]
        return x

    for bi, (wb, tb, kb, nb) in enumerate(conds):
        for ai, (wa, ta, ka, na) in enumerate(conds):
            if (
                ai != bi
                and ka == kb
                and na >= nb
                and root(ai) != bi
                and flow.at_most((wa, ta), (wb, tb))
            ):
                parent[bi] = ai
                break
    return [c for i, c in enumerate(conds) if i not in parent]


def _one_path(diff: dict[Any, int], kinds: set[int]) -> int | None:
    """How many cards the change moves along one path, when the change of each kind of
    ``kinds`` is a multiple of one and the same flow (the same places and moves, in
    proportion); else ``None``."""
    from math import gcd

    if not kinds:
        return None
    flows: dict[int, dict[Any, int]] = {y: {} for y in kinds}
    for (where, i, kind), d in diff.items():
        if kind in kinds:
            flows[kind][where, i] = d
    unit = None
    total = 0
    for f in flows.values():
        g = 0
        for d in f.values():
            g = gcd(g, abs(d))
        u = {key: d // g for key, d in f.items()}
        if unit is None:
            unit = u
        elif u != unit:
            return None
        total += g
    return total


def _count(pa: SeatProgram, where: Any, i: int, kind: int) -> _Expr:
    """A count of the condition ``(where, i, kind)`` in ``pa``'s numbers."""
    if where is not None:
        return pa.after(where, i)[kind]
    v = pa._moved.get(i, {}).get(kind)
    if v is not None:
        return {v: 1}, 0
    # seen by a, or never there: the same in every world of a
    return {}, (pa.h.steps[i].kinds.count(kind) if i not in pa._moved else 0)


def _cut(
    pa: SeatProgram,
    diff: dict[Any, int],
    now: dict[str, list[int]],
    seen: _Seen,
    loc: str,
    k: int,
    j: int,
    flow: _Flow,
    ends: int = 0,
    *,
    negated: bool = False,
    scale: bool = True,
) -> bool:
    """Add to ``pa`` that its next world is not one the change (``diff``, ``now``: see
    :func:`_changes`) carries to a world without ``has(loc, k#j)`` (``negated``: with it);
    ``False`` (nothing added) when no world of ``pa`` meets the change's needs.

    The conditions implied by others (``flow``) are left out, and for each other
    kind whose copies the change moves along one path, the same change with those cards
    of *any* kind but the atom's and the other kinds the change moves is excluded too
    (one exclusion for each such group of kinds; one exclusion for all of them where
    they are taken from different counts, so that two may take the same kind).  Where
    the change's last unit is taken off the atom's place by one move, the exclusion
    scales that unit to the world (:func:`_scaled`).  What a seat observes is counted kind by kind, so
    giving the cards of a change it cannot see another kind, one the change leaves
    alone, gives another change it cannot see; "some kind meets the path" is a sum over
    the kinds where the path asks for one count, else a 0/1 choice per kind and count.
    A kind is given another only where no public observation names either then
    (:meth:`_Seen.free`); what the observations ask (``seen``) is added to every
    exclusion."""
    conds = _pruned(flow, [(where, i, kind, -d) for (where, i, kind), d in diff.items() if d < 0])
    others = {kind for _, _, kind, _ in conds} - {k}
    if not others:
        return _excluded(pa, conds, now, seen, loc, k, j, [], negated=negated)
    at: dict[int, list[Any]] = {y: [] for y in others}  # each kind's counts left
    for where, i, kind, _ in conds:
        if kind in others:
            at[kind].append((where, i))
    groups: dict[tuple[Any, ...], set[int]] = {}  # kinds with the same counts left
    for y in sorted(others):
        groups.setdefault(tuple(at[y]), set()).add(y)
    ways: dict[frozenset[int], int] = {}  # the groups that can take other kinds
    for ys in groups.values():
        many = _one_path(diff, ys)
        theirs = [c for c in conds if c[2] in ys]
        one_count = len({c[:2] for c in theirs}) == 1 and sum(c[3] for c in theirs) == many
        if many is not None and (one_count or _along(theirs, many)):
            ways[frozenset(ys)] = many
    fixed = others - {y for ys in ways for y in ys}

    def allowed(ys: frozenset[int], taken: set[int]) -> list[int]:
        return [
            x
            for x in range(len(pa.h.deck))
            if x != k and (x in ys or x not in taken) and seen.free(set(ys), x)
        ]

    scaled = (
        None
        if negated or not scale
        else _scaled(pa, diff, seen, loc, k, ends, flow, conds, ways, fixed)
    )
    apart = _apart(flow, diff, conds, ways)
    if scaled is not None and apart:
        # the last unit taken off the atom's place in any number, the other groups
        # of any kind
        unit, kept, extra = scaled
        general = [(set(g), many, allowed(g, fixed)) for g, many in ways.items() if g != unit]
        if all(g[2] for g in general) and _excluded(pa, kept, now, seen, loc, k, j, general, extra):
            return True
    if len(ways) > 1 and apart:
        # the groups' cards are taken from different counts: each group may take any
        # kind, the same as another's too
        general = [(set(g), many, allowed(g, fixed)) for g, many in ways.items()]
        if all(g[2] for g in general):
            return _excluded(pa, conds, now, seen, loc, k, j, general, negated=negated)
    added = False
    for group, many in ways.items():
        kinds = allowed(group, others)
        if kinds:
            added = (
                _excluded(
                    pa, conds, now, seen, loc, k, j, [(set(group), many, kinds)], negated=negated
                )
                or added
            )
    if not added:
        return _excluded(pa, conds, now, seen, loc, k, j, [], negated=negated)
    return added


def _along(theirs: list[tuple[Any, int, int, int]], many: int) -> bool:
    """Whether the conditions ``theirs`` of a group of kinds moved along one path ask each
    kind for its share of the ``many`` cards at every count of the path (the same number
    at each), so that any mix of kinds giving each count its cards meets them."""
    share: dict[int, int] = {}
    for _, _, kind, need in theirs:
        if share.setdefault(kind, need) != need:
            return False
    return sum(share.values()) == many


def _apart(
    flow: _Flow, diff: dict[Any, int], conds: list[tuple[Any, int, int, int]], ways: Any
) -> bool:
    """Whether the groups of ``ways`` may take any kinds at once, the same kind too: no
    two take cards from one count, or where they do, each group's cards are those of one
    move (its conditions left, ``conds``, are on that move alone), the two moves carry
    different cards, and both moves' cards are at that place then, so the count holds
    both groups' copies of any kind."""
    lows = {g: {(w, i) for (w, i, y), d in diff.items() if d < 0 and y in g} for g in ways}
    moves = {g: {c[:2] for c in conds if c[2] in g} for g in ways}
    groups = list(ways)
    for n, a in enumerate(groups):
        for b in groups[n + 1 :]:
            shared = lows[a] & lows[b]
            if not shared:
                continue
            if len(moves[a]) != 1 or len(moves[b]) != 1:
                return False
            ((wa, sa),), ((wb, sb),) = moves[a], moves[b]
            if wa is not None or wb is not None or sa == sb:
                return False
            first, second = min(sa, sb), max(sa, sb)
            there = flow.follow(first, second - 1)
            if there is None or there == flow.steps[second].src:
                return False  # the later move may carry cards of the earlier one
            for where, i in shared:
                if where is None or flow.follow(sa, i) != where or flow.follow(sb, i) != where:
                    return False
    return True


def _scaled(
    pa: SeatProgram,
    diff: dict[Any, int],
    seen: _Seen,
    loc: str,
    k: int,
    ends: int,
    flow: _Flow,
    conds: list[tuple[Any, int, int, int]],
    ways: dict[frozenset[int], int],
    taken: set[int],
) -> tuple[frozenset[int], list[tuple[Any, int, int, int]], list[tuple[_Expr, int, int]]] | None:
    """The change with its last unit scaled to the world: where the change puts ``v``
    more copies of the atom's kind on the last move from the atom's place that it
    changes, in place of ``v`` cards of a group of other kinds taken from that move alone
    (one of ``ways``), the same change taking ``v + E' - E`` copies there takes the
    atom's place down as far in a world whose place holds ``E'`` copies where this one
    (``ends``) holds ``E``.  Its conditions: the atom's place holds ``need + E' - E`` from
    that move on, the move carries ``v + E' - E`` cards of other kinds (a sum over them,
    but for the kinds ``taken`` by groups that keep theirs) and ``E' >= E - v``; the
    other conditions (``conds``: those left after pruning) as they were.  ``(group, conditions left,
    scaled conditions)``; ``None`` where the change has no such unit, or an observation
    after the move read its truth from a cell the unit passes through (the atom's place
    or the place the unit's cards are at then, of the atom's kind or the unit's): the
    scaled change could meet it otherwise.  Kinds the unit's cards may take instead are
    left out in the same way."""
    steps = pa.h.steps
    m, v = -1, 0
    for (where, i, kind), d in diff.items():
        if where is None and kind == k and d > 0 and steps[i].src == loc and i > m:
            m, v = i, d
    if m < 0:
        return None
    unit = next(
        (
            g
            for g, many in ways.items()
            if many == v and all(w is None and i == m for w, i, y, _ in conds if y in g)
        ),
        None,
    )
    if unit is None:
        return None
    # the cells the unit passes through at each observation after the move, kind aside
    places: dict[int, tuple[str, str]] = {}
    at = steps[m].dst
    for i in range(m + 1, len(steps)):
        st = steps[i]
        if st.kind == "all" and st.src == at:
            at = st.dst
        if i in seen.moved:
            places[i] = (loc, at)

    def unread(kinds: set[int]) -> bool:
        return not any(
            (p, y) in seen.watched.get(i, ()) for i, ps in places.items() for p in ps for y in kinds
        )

    if not unread({k} | set(unit)):
        return None
    later = [
        i
        for i in range(m, len(steps))
        if steps[i].kind in ("move", "all") and loc in (steps[i].src, steps[i].dst)
    ]
    if any(-diff.get((loc, i, k), 0) < v for i in later):
        return None  # the atom's place gets copies back after the move: not one unit
    raw = [
        (where, i, kind, -d)
        for (where, i, kind), d in diff.items()
        if d < 0 and kind not in unit and not (kind == k and where == loc and i >= m)
    ]
    kept = _pruned(flow, raw)
    cp = pa.h.deck.copies
    end = pa._counts[loc][k]
    extra: list[tuple[_Expr, int, int]] = [(end, ends - v, cp[k])]  # E' >= E - v
    for i in later:
        e = _minus(pa.after(loc, i)[k], end)
        extra.append((e, -diff[loc, i, k] - ends, cp[k]))
    kinds = [
        x
        for x in range(len(pa.h.deck))
        if x != k
        and (x in unit or x not in taken)
        and seen.free(set(unit), x)
        and (x in unit or unread({x}))
    ]
    carried = _sum(_count(pa, None, m, x) for x in kinds)
    extra.append((_minus(carried, end), v - ends, sum(cp[x] for x in kinds)))
    return unit, kept, extra


def _minus(e: _Expr, f: _Expr) -> _Expr:
    """The count ``e - f``."""
    coef = dict(e[0])
    for v, n in f[0].items():
        coef[v] = coef.get(v, 0) - n
    return {v: n for v, n in coef.items() if n}, e[1] - f[1]


def _excluded(
    pa: SeatProgram,
    conds: list[tuple[Any, int, int, int]],
    now: dict[str, list[int]],
    seen: _Seen,
    loc: str,
    k: int,
    j: int,
    general: list[tuple[set[int], int, list[int]]],
    extra: list[tuple[_Expr, int, int]] | None = None,
    *,
    negated: bool = False,
) -> bool:
    """Add the exclusion of :func:`_cut`: ``conds`` (``(where, step, kind, need)``), the
    conditions of the kinds ``ys`` of each ``(ys, many, allowed)`` of ``general`` met by
    any kinds of ``allowed`` instead (their ``many`` copies along one path: a sum over
    the kinds where it is one count, else a 0/1 choice per kind).  ``extra``: further
    conditions ``(count, need, most it can be)``, given in place of the atom's failing
    after the change (a change scaled to the world, see :func:`_scaled`).  ``negated``:
    the change makes the atom hold, not fail."""
    cp = pa.h.deck.copies
    terms: list[tuple[_Expr, int, int]] = list(extra or [])  # (count, need, most it can be)
    paths: list[tuple[list[tuple[Any, int]], list[int], int]] = []  # cards of kinds along
    for ys, many, kinds in general:
        theirs = [c for c in conds if c[2] in ys]
        conds = [c for c in conds if c[2] not in ys]
        if len({c[:2] for c in theirs}) == 1 and sum(c[3] for c in theirs) == many:
            # one count: the sum over the kinds
            where, i = theirs[0][:2]
            e = _sum(_count(pa, where, i, x) for x in kinds)
            terms.append((e, many, sum(cp[x] for x in kinds)))
        else:  # cards along several counts, each kind's share at each (checked by _cut)
            paths.append((list(dict.fromkeys(c[:2] for c in theirs)), kinds, many))
    for where, i, kind, need in conds:
        terms.append((_count(pa, where, i, kind), need, cp[kind]))
    caps: list[tuple[_Expr, int]] = []  # (count, most it may be)
    for cells, i, least, most_seen in seen.conds:
        e = _sum(pa.after(where, i)[kind] for where, kind in cells)
        if least is not None and least > 0:
            top = sum(cp[kind] for _, kind in cells)
            if least > top:
                return False  # more than there are
            terms.append((e, least, top))
        if most_seen is not None:
            if most_seen < 0:
                return False  # no count is below none
            caps.append((e, most_seen))
    needs: dict[Any, tuple[_Expr, int, int]] = {}  # each count: the least the change needs
    for e, need, most_there in terms:
        if not e[0]:
            if e[1] < need:
                return False  # a count the same in every world of a falls short
            continue
        key = (frozenset(e[0].items()), e[1])
        if key not in needs or needs[key][1] < need:
            needs[key] = (e, need, most_there)
    end = pa._counts[loc][k]
    most = j - 1 - now[loc][k]  # the atom fails after the change: at most this many now
    least = j - now[loc][k]  # negated: it holds after the change: at least this many now
    if not end[0] and extra is None and (end[1] < least if negated else end[1] > most):
        return False
    flags: dict[int, int] = {}
    for (coef, c), need, most_there in needs.values():  # flag = 1: fewer than it needs
        f = pa._var(0, 1)
        big = most_there - need + 1  # the count is at most most_there
        row = dict(coef)
        row[f] = big
        pa._row(row, -float("inf"), need - 1 - c + big)
        flags[f] = 1
    for (coef, c), most_seen in caps:  # flag = 1: more than it may be
        if not coef:
            if c > most_seen:
                return False
            continue
        f = pa._var(0, 1)
        row = dict(coef)
        row[f] = -(most_seen + 1)
        pa._row(row, -c, float("inf"))
        flags[f] = 1
    coef, c = end
    if coef and negated and least > 0:  # flag = 1: fewer than that
        f = pa._var(0, 1)
        big = cp[k] - least + 1  # the count is at most every copy
        row = dict(coef)
        row[f] = big
        pa._row(row, -float("inf"), least - 1 - c + big)
        flags[f] = 1
    elif coef and not negated and extra is None:  # flag = 1: more than that
        f = pa._var(0, 1)
        big = max(1, most + 1)  # the count is at least none
        row = dict(coef)
        row[f] = -big
        pa._row(row, most + 1 - c - big, float("inf"))
        flags[f] = 1
    for path, kinds, many in paths:
        if many == 1:
            _no_kind_along(pa, path, kinds, flags)
        else:
            _too_few_along(pa, path, kinds, many, flags)
    pa._row(flags, 1, float("inf"))
    return True


def _sum(counts: Any) -> _Expr:
    """The sum of the counts ``counts``."""
    total: _Expr = {}, 0
    for e in counts:
        total = _plus(total, e)
    return total


def _no_kind_along(
    pa: SeatProgram, path: list[tuple[Any, int]], kinds: list[int], flags: dict[int, int]
) -> None:
    """Add a flag to ``flags`` that is 1 only where no kind of ``kinds`` has a copy at
    every count of ``path`` (for each kind, 0/1 choices of a count it has none at); none
    when some kind has a copy there in every world of ``pa`` (the flag could never be 1)."""
    cp = pa.h.deck.copies
    g = pa._var(0, 1)
    rows: list[tuple[dict[int, int], float, float]] = []
    for y in kinds:
        counts = [_count(pa, where, i, y) for where, i in path]
        if any(not e[0] and e[1] < 1 for e in counts):
            continue  # never there: this kind cannot meet the path
        choices = {}
        for coef, c in counts:
            if not coef:
                continue  # always there
            t = pa._var(0, 1)
            row = dict(coef)
            row[t] = cp[y]  # t = 1: none there
            rows.append((row, -float("inf"), cp[y] - c))
            choices[t] = 1
        if not choices:
            pa._ub[g] = 0  # this kind is at every count in every world
            return
        choices[g] = -1
        rows.append((choices, 0, float("inf")))  # g = 1: some count without it
    for row, lo, hi in rows:
        pa._row(row, lo, hi)
    flags[g] = 1


def _too_few_along(
    pa: SeatProgram, path: list[tuple[Any, int]], kinds: list[int], many: int, flags: dict[int, int]
) -> None:
    """Add a flag to ``flags`` that is 1 only where ``many`` cards of the kinds ``kinds``
    cannot go along every count of ``path``: where the copies each kind has at every count
    (at most ``many``) add up to fewer than ``many``.  Each kind's share ``u`` is at least
    one of its counts along the path, or ``many`` (a 0/1 choice of which), so that the sum
    of the shares can be below ``many`` only where it is so for the least counts; none
    when the kinds there in every world of ``pa`` are enough (the flag could never be
    1)."""
    cp = pa.h.deck.copies
    fixed = 0  # the shares of kinds at every count in the same number in every world
    rows: list[tuple[dict[int, int], float, float]] = []
    shares: dict[int, int] = {}
    for y in kinds:
        counts = [_count(pa, where, i, y) for where, i in path]
        top = min([many] + [e[1] for e in counts if not e[0]])
        if top <= 0:
            continue  # never there at some count: this kind adds nothing
        varying = [e for e in counts if e[0]]
        if not varying:
            fixed += top
            continue
        u = pa._var(0, top, integer=False)
        picks = [pa._var(0, 1) for _ in varying]
        capped = pa._var(0, 1)
        for t, (coef, c) in zip(picks, varying, strict=True):
            row = {v: -n for v, n in coef.items()}  # t = 1: u >= the count
            row[u] = 1
            row[t] = -cp[y]
            rows.append((row, c - cp[y], float("inf")))
        rows.append(({u: 1, capped: -top}, 0, float("inf")))  # capped = 1: u >= top
        rows.append(({t: 1 for t in [*picks, capped]}, 1, float("inf")))
        shares[u] = 1
    if fixed >= many:
        return  # enough copies at every count in every world
    g = pa._var(0, 1)
    big = sum(int(pa._ub[u]) for u in shares) + fixed + 1
    row = dict(shares)
    row[g] = big  # g = 1: the shares add up to fewer than many
    rows.append((row, -float("inf"), many - 1 - fixed + big))
    for r, lo, hi in rows:
        pa._row(r, lo, hi)
    flags[g] = 1
