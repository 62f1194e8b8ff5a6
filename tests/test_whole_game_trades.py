"""The covering's second way (:func:`games.epistemic.cover.covered_ignorance`): seat ``b``'s
worlds reached one copy at a time, each such trade cut off with its sums with the trades
found before, and both ways at once in processes of their own, the first to decide
answering.

Checked against the explicit model on random small koth and BS histories (the trades
way alone, in this process, where the sums are seen to be cut), for agreement of the race
with the nearest way alone, for the cuts a race that does not end hands back, and for
the processes themselves: a way that fails or does not end in time gives no answer and
leaves no process behind.
"""

from __future__ import annotations

import os
import time

import pytest

from games.epistemic import cover
from games.epistemic.cover import _Peer, covered_ignorance
from games.epistemic.program import SeatProgram
from games.epistemic.witness import _observed
from tests.test_epistemic import random_history
from tests.test_whole_game_copies import koth_history
from tests.test_whole_game_cover import checked
from tests.test_whole_game_dislodged import bs_history
from tests.test_whole_game_ignorance import all_atoms

two_cores = pytest.mark.skipif(cover._cores() < 2, reason="the race needs two cores")


@pytest.fixture
def racing(monkeypatch):
    """The race on the small histories of these tests (:data:`cover.PEER_STEPS`)."""
    monkeypatch.setattr(cover, "PEER_STEPS", 0)


def lengths_of_arguments(monkeypatch, owner, name: str) -> list[int]:
    """Spy on ``owner.name`` (one list argument): the lengths of its arguments, call by call."""
    seen: list[int] = []
    real = getattr(owner, name)

    def spy(arg):
        seen.append(len(arg))
        return real(arg)

    monkeypatch.setattr(owner, name, spy)
    return seen


def test_the_trades_way_agrees_with_the_explicit_model(monkeypatch):
    """Every answer of the trades way alone agrees with the explicit model (and every
    world it gives is checked), and sums of two trades were cut off on the way."""
    sums = lengths_of_arguments(monkeypatch, cover, "_summed")
    decided = 0
    for seed in range(6):
        for h in (koth_history(seed, 7), bs_history(seed, plays=7)):
            held, failed = checked(h, seed, trades=True)
            decided += held + failed
    # histories where coverings find two trades or more (most small ones need one)
    for seed in (9, 17, 20, 25, 39):
        held, failed = checked(koth_history(seed, 8), seed, trades=True)
        decided += held + failed
    for seed in (1, 9, 13, 23, 25):
        held, failed = checked(random_history(seed, copies=True), seed, trades=True)
        decided += held + failed
    assert decided >= 150
    assert sums.count(2) >= 10, sums.count(2)


@two_cores
def test_the_race_answers_as_the_nearest_way_alone(monkeypatch, racing):
    """Both ways at once give the nearest way's answers; where it fails, the world it
    gives is one a cannot tell from the true one, where b knows the atom."""
    races = lengths_of_arguments(monkeypatch, _Peer, "race")
    compared = 0
    for seed in (1, 4, 9):
        h = koth_history(seed, 7)
        a, b = h.agents[0], h.agents[2]
        for atom in all_atoms(h)[:6]:
            alone = covered_ignorance(h, a, b, atom, time_limit=20, trades=False)[0]
            got, world = covered_ignorance(h, a, b, atom, time_limit=20)
            assert got is alone, (seed, atom)
            compared += got is not None
            if got is False:
                assert _observed(world, a) == _observed(h, a)
                assert SeatProgram(world, b).knows(atom) is True
    assert compared >= 10 and races and set(races) == {2}


@two_cores
def test_a_race_that_does_not_end_hands_back_the_nearest_ways_cuts(racing):
    """One round a call: the race keeps the nearest way's cuts, and calls going on from
    them reach the answer of the whole loop."""
    for seed in range(20):
        h = koth_history(seed, 7)
        a, b = h.agents[1], h.agents[0]
        for atom in all_atoms(h):
            whole = covered_ignorance(h, a, b, atom, time_limit=20, trades=False)[0]
            cuts: dict = {}
            got, _ = covered_ignorance(h, a, b, atom, time_limit=20, rounds=1, cuts=cuts)
            if got is not None:
                continue
            assert cuts["rows"], "the cuts of the nearest way came back"
            for _ in range(200):
                got, _ = covered_ignorance(h, a, b, atom, time_limit=20, rounds=1, cuts=cuts)
                if got is not None:
                    break
            assert got is whole
            return
    pytest.fail("no covering took more than one round")


def test_a_way_that_fails_gives_no_answer_and_the_other_answers():
    def broken():
        raise RuntimeError("a way that fails")

    peers = _Peer.race([broken, lambda: (True, None, None)])
    assert peers is not None
    assert _Peer.first(peers, time.monotonic() + 10) == (True, None, None)
    peers = _Peer.race([broken, broken])
    assert _Peer.first(peers, time.monotonic() + 10) == (None, None, None)


def test_a_way_past_the_time_limit_is_stopped():
    """A way that does not end in time gives no answer within about the limit, and its
    process is gone; another way's cuts that came back are kept."""
    kept = {"rows": [[{"0": 1}, 0, 1]], "vars": [], "hard": False}
    peers = _Peer.race([lambda: (time.sleep(30), None, None), lambda: (None, None, kept)])
    t = time.monotonic()
    got = _Peer.first(peers, t + 0.3)
    assert time.monotonic() - t < 5
    assert got == (None, None, kept)
    for p in peers:
        with pytest.raises(ChildProcessError):
            os.waitpid(p.pid, os.WNOHANG)
