"""The local card-symmetry quotient answers like the explicit history model.

:func:`games.epistemic.quotient.local_holds` keeps only the histories the
formula's knowledge operators reach from the true one; random short BS games
and random histories, random formulas of modal depth up to 3 (common
knowledge included), against :func:`games.epistemic.explicit_model`.
"""

from __future__ import annotations

import random

import pytest

from games.cards import Deck
from games.epistemic import CardHistory, Move, MoveAll, explicit_model
from games.epistemic.quotient import local_holds, quotient_model, reach_depth
from games.errors import InvalidParameterError
from kripke import holds
from kripke.formulas import Atom
from kripke.parser import parse
from tests.test_epistemic import random_formula, random_history
from tests.test_epistemic_games import SHORT_GAMES, random_point


def _history(seed: int) -> CardHistory:
    if seed % 2:
        return random_history(seed, copies=False, events=8)
    return random_point(SHORT_GAMES["classic"](), seed, max_plays=8).card_history()


@pytest.mark.parametrize("seed", range(12))
def test_local_answers_like_the_explicit_model(seed):
    h = _history(seed)
    rng = random.Random(seed)
    pm = explicit_model(h)
    cards = rng.sample(list(h.deck.names), rng.randint(1, 2))
    atoms = [Atom("has", (loc, c)) for loc in h.locations for c in cards]
    agents = rng.sample(list(h.agents), rng.randint(1, len(h.agents)))
    for _ in range(8):
        f = random_formula(rng, h, 3, agents=agents, atoms=atoms)
        assert local_holds(h, f) == holds(pm, f), (seed, str(f))


@pytest.mark.parametrize("seed", range(12, 18))
def test_local_model_of_a_depth_answers_like_the_explicit_model(seed):
    """quotient_model(depth=d) keeps fewer histories and answers every formula of
    modal depth up to d as the explicit model."""
    h = _history(seed)
    rng = random.Random(seed)
    pm = explicit_model(h)
    cards = rng.sample(list(h.deck.names), 1)
    atoms = [Atom("has", (loc, c)) for loc in h.locations for c in cards]
    fs = [random_formula(rng, h, 2, agents=list(h.agents), atoms=atoms) for _ in range(10)]
    fs = [f for f in fs if reach_depth(f) is not None]
    full = quotient_model(h, cards, formulas=fs)
    for d in (1, 2):
        q = quotient_model(h, cards, formulas=fs, depth=d)
        assert len(q.states) <= len(full.states)
        for f in fs:
            if reach_depth(f) <= d or q.depth is None:
                assert q.holds(f) == holds(pm, f), (seed, d, str(f))


def _pile_history() -> CardHistory:
    h = CardHistory(
        Deck(["A", "B", "C", "D", "E"]),
        {"x": "A B", "y": "C D", "z": "E", "pile": ""},
        ["x", "y", "z"],
    )
    return h.then(Move("A", "x", "pile", seen_by=["x"]), MoveAll("pile", "y", seen_by=["y"]))


def test_known_answers():
    h = _pile_history()
    assert local_holds(h, "K_x K_y has(y, A)")
    assert not local_holds(h, "K_z has(y, A)")
    assert local_holds(h, "K_z (has(y, A) | has(y, B) | has(x, A))")
    # x saw its card go and y saw it arrive; z saw neither
    assert not local_holds(h, "C_{x,y,z} has(y, A)")
    assert local_holds(h, "K_x K_y has(y, A) & ~K_z has(y, A)")


def test_a_local_model_refuses_deeper_formulas():
    h = _pile_history()
    q = quotient_model(h, ["A"], depth=1)
    assert q.holds("K_x has(y, A)")
    if q.depth is not None:
        with pytest.raises(InvalidParameterError, match="steps"):
            q.holds("K_z K_y has(y, A)")
        with pytest.raises(InvalidParameterError, match="arbitrarily far"):
            q.holds("C_{x,y} has(y, A)")


def test_reach_depth():
    assert reach_depth(parse("has(x, A)")) == 0
    assert reach_depth(parse("K_a M_b p | K_c p")) == 2
    assert reach_depth(parse("[!K_a p] K_b K_c q")) == 3
    assert reach_depth(parse("K_a C_{a,b} p")) is None


@pytest.mark.parametrize("seed", range(18, 24))
def test_a_model_kept_to_words_answers_its_formulas(seed):
    """quotient_model(words=formula_words(f)) keeps only what f looks at, and answers f
    as the explicit model; a formula looking elsewhere is refused."""
    from games.epistemic.quotient import formula_words

    h = _history(seed)
    rng = random.Random(seed)
    pm = explicit_model(h)
    cards = rng.sample(list(h.deck.names), 1)
    atoms = [Atom("has", (loc, c)) for loc in h.locations for c in cards]
    for _ in range(6):
        f = random_formula(rng, h, 3, agents=list(h.agents), atoms=atoms)
        words = formula_words(f)
        if words is None:
            continue
        q = quotient_model(h, cards, formulas=[f], words=words)
        assert q.holds(f) == holds(pm, f), (seed, str(f))
    a, b = h.agents[:2]
    q = quotient_model(h, cards, words=[(a, b)])
    with pytest.raises(InvalidParameterError, match="did not keep"):
        q.holds(f"K_{b} K_{a} has({h.locations[0]}, {cards[0]})")


def test_formula_words():
    from games.epistemic.quotient import formula_words

    assert formula_words(parse("p")) == {()}
    assert formula_words(parse("K_a p & M_b K_c q")) == {(), ("a",), ("b",), ("b", "c")}
    assert formula_words(parse("[!K_a p] K_b q")) == {(), ("b",), ("a",), ("b", "a")}
    assert formula_words(parse("K_a C_{a,b} p")) is None


def test_cards_in_any_order():
    """The query's cards in another order than the deck's answer alike."""
    h = _pile_history().then(Move("C", "y", "pile", seen_by=["y"]))
    pm = explicit_model(h)
    for f in ["K_x (has(y, A) & ~has(y, C))", "M_z (has(pile, C) & has(y, A))"]:
        for cards in (["A", "C"], ["C", "A"]):
            q = quotient_model(h, cards, formulas=[f], words=[("x",), ("z",)])
            assert q.holds(f) == holds(pm, parse(f)), (f, cards)
