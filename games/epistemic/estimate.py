"""A seat's probability of a formula about the cards, estimated by drawing deals, where
exact counting has to drop a constraint.

On long face-down histories (52-card BS after about 100 steps) a seat's counting
knowledge (:class:`games.deal.DealKnowledge`) keeps a *superset* of the deals the seat
considers possible: a joint constraint grew past its table budget and was dropped.  Its
counts, and so its probabilities, are then bounds of nothing in particular, and
:meth:`~games.epistemic.knowledge.GameKnowledge.probability` refuses them.  Its draws
are still exact draws from the superset, each deal weighed as the seat weighs it (by its
physical arrangements).  The seat's integer program
(:class:`~games.epistemic.program.SeatProgram`) tells exactly whether one drawn deal is
one the seat considers possible: a deal is possible when some course of the unseen moves
leads to it.  Drawing from the superset and keeping the possible deals (rejection
sampling) draws exactly from the seat's own distribution, so the share of kept deals
where the formula holds is an unbiased estimate of the seat's probability, and its
Wilson score interval a confidence interval for it.

It is an *estimate*: :class:`Estimate` says how many deals it rests on and the
interval, never a probability passed off as exact.  Where the counting is exact, the
draws are the seat's own and none is checked.

Examples
--------
``y`` put one card down unseen; ``x`` holds the A and a B, and its exact probability
that the card was the other B is 1/3.  Drawn from ``x``'s own counting, and from an
onlooker's who saw no hand, kept where ``x``'s program finds the deal possible:

>>> from games.cards import Deck
>>> from games.epistemic.history import CardHistory, Move
>>> h = CardHistory(Deck(["A", "B", "C"], [1, 2, 2]),
...                 {"x": "A B", "y": "B C", "z": "C", "pile": ""}, ["x", "y", "z"])
>>> h = h.then(Move("C", "y", "pile", seen_by=["y"]))
>>> e = estimated_probability(h, "x", "has(pile, B)", samples=400, seed=1)
>>> e.kept, e.exact_draws, e.low <= 1 / 3 <= e.high
(400, True, True)
>>> blind = h.onlooker_counting(h.public_locations(), lambda audience: False)
>>> e = estimated_probability(h, "x", "has(pile, B)", samples=400, seed=1, knowledge=blind)
>>> e.kept < 400, e.exact_draws, e.low <= 1 / 3 <= e.high
(True, False, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from games.epistemic.history import CardHistory
from games.errors import InvalidParameterError
from kripke.errors import SizeLimitError

__all__ = ["Estimate", "estimated_probability"]


@dataclass(frozen=True)
class Estimate:
    """A probability estimated from drawn deals.

    Attributes
    ----------
    value : float
        The share of the kept deals where the formula holds.
    low, high : float
        The Wilson score interval of ``value`` at :attr:`confidence`.
    confidence : float
    kept : int
        Deals drawn that the seat considers possible (the estimate's sample).
    drawn : int
        Deals drawn from the counting's superset; ``drawn - kept - undecided`` were
        not possible for the seat and were left out.
    undecided : int
        Deals the seat's integer program did not decide within its time limit, left
        out (the estimate is of the decided ones).
    exact_draws : bool
        True where the seat's counting was exact: every draw is the seat's own.
    interrupted : bool
        True where the drawing was interrupted: the estimate rests on the deals
        finished before.
    """

    value: float
    low: float
    high: float
    confidence: float
    kept: int
    drawn: int
    undecided: int = 0
    exact_draws: bool = False
    interrupted: bool = False

    def __str__(self) -> str:
        return (
            f"{self.value:.4f} ({100 * self.confidence:g}% interval {self.low:.4f}-"
            f"{self.high:.4f}, {self.kept} deals of {self.drawn} drawn)"
        )


def wilson(hits: int, n: int, confidence: float) -> tuple[float, float]:
    """The Wilson score interval of ``hits`` in ``n`` at ``confidence``."""
    if n == 0:
        return 0.0, 1.0
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low = 0.0 if hits == 0 else max(0.0, centre - half)
    high = 1.0 if hits == n else min(1.0, centre + half)
    return low, high


def estimated_probability(
    h: CardHistory,
    agent: str,
    f: Any,
    *,
    samples: int = 1000,
    seed: int | None = None,
    confidence: float = 0.95,
    knowledge: Any = None,
    own: bool = False,
    time_limit: float = 5.0,
    progress: bool = False,
) -> Estimate:
    """Seat ``agent``'s probability of ``f`` (a formula about the cards, parsed by
    :meth:`CardHistory.card_formula` or given as a formula), estimated from ``samples``
    deals drawn from ``knowledge`` (default: the seat's counting,
    :meth:`CardHistory.seat_counting`; any counting knowledge whose deals include the
    seat's, such as a less informed onlooker's; ``own``: it is the seat's own) and kept
    where the seat's integer program finds them possible (see the module's text); the
    seat's own exact counting draws the seat's deals, and none is checked.

    The same ``seed`` gives the same estimate.  ``progress`` shows a progress bar;
    an interrupt (Ctrl-C) ends the drawing and the estimate rests on the deals
    finished (:attr:`Estimate.interrupted`).

    Raises
    ------
    InvalidParameterError
        When ``f`` is not about the cards, ``samples`` is below 1 or ``confidence``
        not between 0 and 1.
    SizeLimitError
        When the seat's integer program keeps a superset of its worlds (a public fact
        with a part not about the cards): it cannot tell which draws to keep.
    """
    from games.epistemic.program import SeatProgram

    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise InvalidParameterError(f"samples must be an int >= 1, got {samples!r}")
    if not 0 < confidence < 1:
        raise InvalidParameterError(f"confidence must lie between 0 and 1, got {confidence!r}")
    if isinstance(f, str):
        f = h.card_formula(f)
    if not f.is_propositional():
        raise InvalidParameterError(
            f"an estimate weighs formulas about the cards; {f} is about knowledge"
        )
    node = h.card_nnf(f)
    kn = h.seat_counting(agent) if knowledge is None else knowledge
    exact = (knowledge is None or own) and kn.exact
    locs = {loc: j for j, loc in enumerate(kn.locations)}
    missing = [loc for loc in h.locations if loc not in locs]
    if missing:
        raise InvalidParameterError(f"the counting knowledge has no location {missing[0]!r}")
    program = None
    if not exact:
        program = SeatProgram(h, agent, time_limit=time_limit)
        if not program.exact:
            raise SizeLimitError(
                f"{agent}'s integer program keeps a superset of its worlds (a public fact "
                "not about the cards): it cannot tell which drawn deals to keep"
            )
    draws = kn.sample(samples, seed=seed)
    kept = hits = undecided = done = 0
    seen: dict[bytes, bool | None] = {}
    try:
        for arr in _shown(draws, progress, agent):
            key = arr.tobytes()
            if program is None:
                ok: bool | None = True
            elif key in seen:
                ok = seen[key]
            else:
                ok = seen[key] = _possible(program, arr, locs)
            done += 1
            if ok is None:
                undecided += 1
            elif ok:
                kept += 1
                hits += _holds(node, arr, locs)
    except KeyboardInterrupt:
        interrupted = True
    else:
        interrupted = False
    low, high = wilson(hits, kept, confidence)
    return Estimate(
        value=hits / kept if kept else math.nan,
        low=low,
        high=high,
        confidence=confidence,
        kept=kept,
        drawn=done,
        undecided=undecided,
        exact_draws=exact,
        interrupted=interrupted,
    )


def _shown(draws: Any, progress: bool, agent: str) -> Iterator[Any]:
    """The draws one by one, under a progress bar when asked."""
    if not progress:
        yield from draws
        return
    from tqdm import tqdm

    yield from tqdm(draws, desc=f"{agent}'s deals drawn", unit="deal")


def _possible(program: Any, arr: Any, locs: dict[str, int]) -> bool | None:
    """Whether the seat of ``program`` considers the deal ``arr`` (copies of each kind at
    each location, columns ``locs``) possible: some world of its program ends there;
    ``None`` when HiGHS does not decide within the program's time limit.  The program
    is left as it was."""
    n0, r0 = len(program._lb), len(program._rows)
    try:
        for loc, counts in program._counts.items():
            j = locs[loc]
            for k, (coef, c) in enumerate(counts):
                d = int(arr[k, j])
                if not coef:
                    if c != d:
                        return False
                else:
                    program._row(dict(coef), d - c, d - c)
        res = program._solve({}, first=True)
    finally:
        del program._lb[n0:], program._ub[n0:], program._int[n0:]
        del program._rows[r0:]
    if res is None:
        return False
    return None if res.x is None else True


def _holds(node: Any, arr: Any, locs: dict[str, int]) -> bool:
    """Whether the :meth:`CardHistory.card_nnf` node ``node`` holds of the deal ``arr``."""
    if node[0] == "lit":
        _, loc, k, j, pos = node
        return (int(arr[k, locs[loc]]) >= j) == pos
    if node[0] == "and":
        return all(_holds(p, arr, locs) for p in node[1])
    if node[0] == "or":
        return any(_holds(p, arr, locs) for p in node[1])
    raise InvalidParameterError(f"not a formula about the cards: {node!r}")
