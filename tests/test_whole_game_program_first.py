"""On a long history :class:`GameKnowledge` asks a seat's integer program before replaying
the history for the seat's counting (:data:`~games.epistemic.knowledge.PROGRAM_FIRST_STEPS`):
for ``K_a ~K_b atom``, ``C_{a,b} atom`` and ``K_a K_b atom`` the program's rules and the
witnesses that do not read counting come first, the counting rules last.

The order changes only the time: with the program first at every length (the threshold
set to 0) every answer agrees with the explicit model and with the order of short
histories; where a member's program decides ``C``, no seat's counting is built.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.epistemic import CardHistory, GameKnowledge, Move, MoveAll, explicit_model, knowledge
from kripke import holds
from kripke.formulas import Common, Know, Not
from tests.test_epistemic import card_atom, random_history
from tests.test_whole_game_copies import koth_history
from tests.test_whole_game_dislodged import bs_history
from tests.test_whole_game_ignorance import all_atoms


def answers(h: CardHistory, rng: random.Random, n: int = 10) -> dict[str, bool | None]:
    """Counting's answer (``None``: not decided) to ``n`` random formulas of the three
    shapes over the seats and card atoms of ``h``."""
    atoms = all_atoms(h)
    out: dict[str, bool | None] = {}
    for _ in range(n):
        a, b = rng.sample(list(h.agents), 2)
        atom = rng.choice(atoms)
        f = rng.choice([Know(a, Not(Know(b, atom))), Common((a, b), atom), Know(a, Know(b, atom))])
        out[str(f)] = GameKnowledge(h)._by_counting(f)
    return out


def agree(h: CardHistory, seed: int, monkeypatch) -> int:
    """Answers with the program first everywhere, checked against the explicit model and
    against the usual order; how many were decided."""
    with monkeypatch.context() as m:
        m.setattr(knowledge, "PROGRAM_FIRST_STEPS", 0)
        first = answers(h, random.Random(seed))
    usual = answers(h, random.Random(seed))
    assert first.keys() == usual.keys()
    pm = explicit_model(h)
    for f, got in first.items():
        if got is not None:
            assert got is holds(pm, f), f
        if got is not None and usual[f] is not None:
            assert got is usual[f], f
    return sum(v is not None for v in first.values())


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**31), plays=st.integers(3, 7))
def test_program_first_agrees_on_koth_and_bs_histories(seed, plays, monkeypatch):
    agree(koth_history(seed, plays), seed, monkeypatch)
    agree(bs_history(seed, plays=plays), seed, monkeypatch)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_program_first_agrees_on_random_histories(seed, copies, monkeypatch):
    agree(random_history(seed, copies=copies, events=7), seed, monkeypatch)


def test_program_first_decides_most(monkeypatch):
    """Not vacuous: most formulas are decided with the program first."""
    decided = sum(agree(koth_history(s, 6), s, monkeypatch) for s in range(8))
    assert decided >= 50, decided


def test_a_members_program_decides_common_knowledge_without_counting(monkeypatch):
    """y put an A down unseen and z took the pile, seeing it: x cannot tell whether z
    holds an A (y may have put down its B), so ``C_{x,z} has(z, A)`` fails.  With the
    rules that need no counting and the witnesses of a world without the A left out (each
    may only say "not shown"), the usual order replays the history for the members'
    counting; with the program first, x's program shows it and no counting is built."""
    monkeypatch.setattr(GameKnowledge, "_absent", lambda self, agent, atom: False)
    monkeypatch.setattr(GameKnowledge, "_unknown_now", lambda self, agent, atom, within: False)
    h = CardHistory(
        Deck(["A", "B", "C"]), {"x": "C", "y": "A B", "z": "", "pile": ""}, ["x", "y", "z"]
    )
    h = h.then(Move("A", "y", "pile", seen_by=["y"]), MoveAll("pile", "z", seen_by=["z"]))
    assert holds(explicit_model(h), "~C_{x,z} has(z, A) & K_z has(z, A)")
    usual = GameKnowledge(h)
    assert usual.holds("C_{x,z} has(z, A)") is False
    assert usual._seats  # the members' counting
    monkeypatch.setattr(knowledge, "PROGRAM_FIRST_STEPS", 0)
    first = GameKnowledge(h)
    assert first.holds("C_{x,z} has(z, A)") is False
    assert first.route == "counting"
    assert not first._seats and "x" in first._programs


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**31), plays=st.integers(3, 9))
def test_many_joint_constraints_ask_the_program_first(seed, plays, monkeypatch):
    """Where a seat's counting keeps at least ``PROGRAM_FIRST_CONSTRAINTS`` joint
    constraints and is not counted yet, ``K_a p`` of a card formula comes from the seat's
    integer program (BS-ZPY: 0.02-0.05 s where the programme took 7-20 s); with the
    threshold at 0 every such answer is the explicit model's, and the program, not the
    programme, gave it."""
    monkeypatch.setattr(knowledge, "PROGRAM_FIRST_CONSTRAINTS", 0)
    h = bs_history(seed, plays=plays)
    pm = explicit_model(h)
    rng = random.Random(seed)
    for a in h.agents:
        gk = GameKnowledge(h, max_width=1)
        for f in (card_atom(rng, h), Not(card_atom(rng, h))):
            assert gk._knows(a, f) is holds(pm, Know(a, f)), (seed, a, str(f))
        kn = gk._seats.get(a)
        assert kn is None or not kn.counted  # the seat's programme was not built
