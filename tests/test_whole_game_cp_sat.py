"""CP-SAT (OR-Tools) as the solver of a seat's integer program
(:meth:`games.epistemic.program.SeatProgram._solve_cp`) and of the covering's later rounds
(:data:`games.epistemic.cover.HIGHS_ROUND`).

Checked two ways: CP-SAT and HiGHS agree on whether a world exists, on random small BS,
koth and random histories (hypothesis), and every world CP-SAT finds builds again into a
history the seat cannot tell from the true one; and the covering with CP-SAT from its
first round agrees with the explicit model.  The model CP-SAT keeps between calls is
checked against a fresh one as rows come and go.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games.epistemic.cover as cover
import games.epistemic.program as program
from games.epistemic import CardHistory, GameKnowledge
from games.epistemic.program import SeatProgram
from tests.test_epistemic import random_history
from tests.test_whole_game_copies import koth_history
from tests.test_whole_game_cover import checked
from tests.test_whole_game_dislodged import bs_history
from tests.test_whole_game_ignorance import all_atoms

pytest.importorskip("ortools")


def solved_both_ways(h: CardHistory, seed: int, n: int = 6) -> int:
    """``n`` random card atoms and their negations asked of a random seat's program by
    HiGHS and by CP-SAT: the same "a world exists" every time, and every world CP-SAT
    gives is one of the seat's where the formula holds.  How many had a world."""
    rng = random.Random(seed)
    atoms = all_atoms(h)
    found = 0
    for _ in range(n):
        seat = rng.choice(list(h.agents))
        f = rng.choice(atoms)
        if rng.random() < 0.5:
            f = ~f
        p = SeatProgram(h, seat)
        n0, r0 = len(p._lb), len(p._rows)
        z = p._indicator(h.card_nnf(f), p._counts)
        if isinstance(z, bool):
            continue
        p._lb[z] = 1
        cost = dict(enumerate(p._int))
        by_highs = p._solve(cost, first=True)
        by_cp = p._solve(cost, first=True, cp_sat=True)
        assert (by_highs is None) == (by_cp is None), (seat, f)
        if by_cp is not None:
            found += 1
            w = p._built(np.rint(by_cp.x[:n0]).astype(int))
            assert w is not None and w._holds_now(f), (seat, f)
        del p._lb[n0:], p._ub[n0:], p._int[n0:]
        del p._rows[r0:]
    return found


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), plays=st.integers(2, 7), koth=st.booleans())
def test_cp_sat_and_highs_agree_on_bs_and_koth(seed, plays, koth):
    h = koth_history(seed, plays) if koth else bs_history(seed, plays)
    solved_both_ways(h, seed)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_cp_sat_and_highs_agree_on_random_histories(seed, copies):
    h = random_history(seed, copies=copies)
    solved_both_ways(h, seed)


def test_some_worlds_are_found_and_some_ruled_out():
    """The agreement above is not vacuous: over a few koth histories both answers occur."""
    found = asked = 0
    for seed in range(6):
        h = koth_history(seed, 6)
        found += solved_both_ways(h, seed, n=8)
        asked += 8
    assert 0 < found < asked


def test_the_kept_model_follows_rows_added_and_taken_off():
    """CP-SAT keeps its model and writes in only the rows added since the last call;
    rows taken off (a question's indicator, a cut) and bounds changed in place start it
    anew.  Each answer is the one a fresh program gives."""
    h = koth_history(3, 7)
    p = SeatProgram(h, h.agents[0])
    assert p._solve({}, first=True, cp_sat=True) is not None  # the true world is one
    n0, r0 = len(p._lb), len(p._rows)
    loc, k, _ = h.atom_cell(all_atoms(h)[0])
    coef, c = p._counts[loc][k]
    answers = []
    for most in (None, -1, None):  # no bound, an impossible one, none again
        if most is not None:
            p._row(dict(coef), -float("inf"), most - c)
        got = p._solve({}, first=True, cp_sat=True)
        fresh = SeatProgram(h, h.agents[0])
        if most is not None:
            fresh._row(dict(coef), -float("inf"), most - c)
        assert (got is None) == (fresh._solve({}, first=True) is None)
        answers.append(got is None)
        del p._lb[n0:], p._ub[n0:], p._int[n0:]
        del p._rows[r0:]
    assert answers == [False, True, False]
    z = p._indicator(h.card_nnf(~all_atoms(h)[0]), p._counts)
    if not isinstance(z, bool):  # a bound changed in place, no row added after it
        p._lb[z] = 1
        fresh = SeatProgram(h, h.agents[0])
        fz = fresh._indicator(h.card_nnf(~all_atoms(h)[0]), fresh._counts)
        fresh._lb[fz] = 1
        assert (p._solve({}, first=True, cp_sat=True) is None) == (
            fresh._solve({}, first=True) is None
        )


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), plays=st.integers(2, 7), koth=st.booleans())
def test_covering_by_cp_sat_from_the_first_round_agrees_with_the_explicit_model(seed, plays, koth):
    """Every round of the covering solved by CP-SAT (its worlds differ from HiGHS's, so
    the changes found and the cuts differ too): the answers still agree with the
    explicit model, and its worlds still check out (:func:`checked`)."""
    saved = cover.HIGHS_ROUND
    cover.HIGHS_ROUND = 0.0
    try:
        h = koth_history(seed, plays) if koth else bs_history(seed, plays)
        checked(h, seed, n=5)
        checked(h, seed + 1, n=3, negated=True)
    finally:
        cover.HIGHS_ROUND = saved


def test_covering_switches_to_cp_sat_when_highs_runs_out(monkeypatch):
    """A round HiGHS does not answer within HIGHS_ROUND goes to CP-SAT, and so does every
    later round; the answer is the one HiGHS alone gives."""
    monkeypatch.setattr(cover, "PEER_SECONDS", float("inf"))  # the spy sees this process
    h = koth_history(5, 7)
    atoms = all_atoms(h)
    a, b = h.agents[0], h.agents[1]
    alone = [cover.covered_ignorance(h, a, b, x, time_limit=20)[0] for x in atoms[:6]]
    calls: list[bool] = []
    real = SeatProgram._solve

    def slow_highs(self, cost, *, first=False, cp_sat=False):
        calls.append(cp_sat)
        if not cp_sat and self.agent == a and first:  # as if HiGHS ran out of time
            from types import SimpleNamespace

            return SimpleNamespace(x=None, status=1)
        return real(self, cost, first=first, cp_sat=cp_sat)

    monkeypatch.setattr(SeatProgram, "_solve", slow_highs)
    both = [cover.covered_ignorance(h, a, b, x, time_limit=20)[0] for x in atoms[:6]]
    assert both == alone
    assert True in calls and None not in both


def test_without_ortools_highs_solves_it(monkeypatch):
    """Where OR-Tools is not installed, ``cp_sat=True`` falls back to HiGHS."""
    h = bs_history(2, 5)
    p = SeatProgram(h, h.agents[1])
    monkeypatch.setattr(program, "_cp_sat", lambda: None)
    res = p._solve({}, first=True, cp_sat=True)
    assert res is not None and p._cp is None


def test_game_knowledge_answers_the_same_with_cp_sat_from_the_start(monkeypatch):
    """``K_a ~K_b has(c, X)`` through the covering on a koth history, with every round by
    CP-SAT and with HiGHS alone: the same answers."""
    h = koth_history(11, 7)
    atoms = all_atoms(h)[:4]
    a, b = h.agents[2], h.agents[0]
    texts = [f"K_{a} ~K_{b} {x}" for x in atoms]
    monkeypatch.setattr(cover, "HIGHS_ROUND", float("inf"))
    highs = [GameKnowledge(h, max_width=1).holds(t) for t in texts]
    monkeypatch.setattr(cover, "HIGHS_ROUND", 0.0)
    cp = [GameKnowledge(h, max_width=1).holds(t) for t in texts]
    assert cp == highs


def test_a_try_that_went_over_to_cp_sat_goes_on_with_it(monkeypatch):
    """The cuts a try keeps say whether it went over to CP-SAT, and the next try, going
    on from them, starts with CP-SAT (no HiGHS round spent again)."""
    monkeypatch.setattr(cover, "PEER_SECONDS", float("inf"))  # the spy sees this process
    h = koth_history(17, 7)
    a, b = h.agents[0], h.agents[1]
    real = SeatProgram._solve
    highs_rounds: list[int] = []

    def timed_out_highs(self, cost, *, first=False, cp_sat=False):
        if not cp_sat and self.agent == a and first:
            highs_rounds.append(1)
            from types import SimpleNamespace

            return SimpleNamespace(x=None, status=1)
        return real(self, cost, first=first, cp_sat=cp_sat)

    monkeypatch.setattr(SeatProgram, "_solve", timed_out_highs)
    tried = 0
    for atom in all_atoms(h):
        cuts: dict = {}
        highs_rounds.clear()
        got, _ = cover.covered_ignorance(h, a, b, atom, time_limit=20, rounds=1, cuts=cuts)
        if got is not None:
            continue
        tried += 1
        assert cuts["hard"] is True and len(highs_rounds) == 1
        cover.covered_ignorance(h, a, b, atom, time_limit=20, rounds=1, cuts=cuts)
        assert len(highs_rounds) == 1  # the second try asked CP-SAT only
    assert tried


def test_a_larger_covering_budget_answers_late_in_koth():
    """52-card koth, the benchmark's game of seed 6 after 50 plays (79 events):
    ``K_P2 ~K_P3 has(P0, 0)`` needs 33 rounds of the covering, 4 s with CP-SAT in its
    hard rounds (27 s with HiGHS alone, ``benchmarks/cover_solvers.py``), past the default
    2 s; with ``cover_seconds=60`` it is answered, true, and by truth (``K_a q`` implies
    ``q``) P3 does not know it in the true world, which P3's own program confirms."""
    from benchmarks.whole_game_knowledge import plays

    h = next(h for k, h in plays("bs-koth", 6) if k == 50)
    gk = GameKnowledge(h, cover_seconds=60)
    assert gk.cover_seconds == 60.0
    assert gk.holds("K_P2 ~K_P3 has(P0, 0)") is True and gk.route == "counting"
    assert SeatProgram(gk.counted, "P3").knows(gk.counted.card_formula("has(P0, 0)")) is False


@pytest.mark.parametrize("bad", [0, -1.5, float("inf"), float("nan"), "2", True])
def test_a_bad_covering_budget_is_refused(bad):
    from games.errors import InvalidParameterError

    h = koth_history(1, 3)
    with pytest.raises(InvalidParameterError, match="cover_seconds"):
        GameKnowledge(h, cover_seconds=bad)


def test_a_row_with_a_fraction_goes_to_highs():
    """CP-SAT takes integer coefficients only: a row with another one is solved by HiGHS,
    with the answer HiGHS gives, and no half-written model is kept."""
    h = bs_history(4, 5)
    p = SeatProgram(h, h.agents[0])
    assert p._solve({}, first=True, cp_sat=True) is not None and p._cp is not None
    p._row({0: 0.5}, 1, 1)  # half of the first variable is 1: it is 2
    got = p._solve({}, first=True, cp_sat=True)
    assert p._cp is None
    assert (got is None) == (p._solve({}, first=True) is None)
    if got is not None:
        assert round(got.x[0]) == 2
