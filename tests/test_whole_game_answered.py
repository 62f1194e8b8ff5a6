"""Random depth-2 formulas at random points of real games are answered, and the
counting routes agree with the knowledge structure.

Random legal playouts (seeded by hypothesis) to a random depth; at that state a
random formula of modal depth at most 2 over named cards of the current deal
(K, M, Kw, E, C, D, announcements) is asked.  In BoerenBridge every such
formula must be answered (no :class:`~kripke.errors.SizeLimitError`), and the
answer of the default routes (exact counting first, with its rules and witness
worlds) must equal the answer of the knowledge structure alone.  The other
games are measured by ``benchmarks/whole_game_knowledge.py``: their late
states are not all answered yet.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games.boerenbridge  # noqa: F401  (registers the game)
from games.base import load_game
from games.epistemic import GameKnowledge
from games.errors import GameError
from tests.test_epistemic import random_formula


def playout(seed: int, depth: int):
    """A BoerenBridge state after ``depth`` random legal actions (chance by the seed)."""
    rng = random.Random(seed)
    s = load_game("boerenbridge", rounds=[5]).new_initial_state()
    for _ in range(depth):
        if s.is_terminal():
            break
        if s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes(), strict=True)
            s.apply_action(rng.choices(outcomes, probs)[0])
        else:
            s.apply_action(rng.choice(list(s.legal_actions())))
    return s


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), depth=st.integers(22, 44))
def test_boerenbridge_depth_two_formulas_are_answered_and_agree(seed, depth):
    s = playout(seed, depth)
    try:
        h = s.card_history()
    except GameError:  # between rounds: no cards dealt
        return
    rng = random.Random(seed)
    for _ in range(3):
        f = random_formula(rng, h, 2)
        fast = GameKnowledge(h)
        got = fast.holds(f)  # must not raise SizeLimitError
        slow = GameKnowledge(h, counting_first=False, quotient_width=2**62)
        assert got == slow.holds(f), (seed, depth, str(f), fast.route, slow.route)


def test_boerenbridge_fixed_playouts_in_the_card_play():
    """The same check at fixed seeds, in the card play of the round (the hypothesis
    examples above may stop before the cards are dealt): every formula answered."""
    asked = counted = 0
    for seed in range(8):
        s = playout(seed, 30 + seed)
        h = s.card_history()
        rng = random.Random(seed)
        for _ in range(3):
            f = random_formula(rng, h, 2)
            fast = GameKnowledge(h)
            got = fast.holds(f)
            slow = GameKnowledge(h, counting_first=False, quotient_width=2**62)
            assert got == slow.holds(f), (seed, str(f), fast.route, slow.route)
            asked += 1
            counted += fast.route == "counting"
    assert asked == 24 and counted > 0


def test_the_benchmarks_depth_three_queries_agree_with_the_structure():
    """``benchmarks/whole_game_knowledge.py --depth 3`` asks formulas of modal depth 3;
    at the first plays of a 52-card classic BS game the default routes answer them as
    the routes without counting (quotient, structure) do."""
    from benchmarks.whole_game_knowledge import pick_query, plays

    answered = 0
    for k, h in plays("bs-classic", 3):
        if k > 3:
            break
        q = pick_query(h, k, depth=3)
        fast = GameKnowledge(h)
        slow = GameKnowledge(h, counting_first=False)
        for text in q["formulas"]:
            f = fast.formula(text)
            assert f.modal_depth() == 3, text
            got = fast.holds(f)
            assert got == slow.holds(f), (k, text, fast.route, slow.route)
            answered += 1
    assert answered == 8
