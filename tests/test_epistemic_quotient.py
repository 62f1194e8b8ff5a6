"""Card-symmetry quotients answer like the full history model.

Routes compared on every formula over the quotient's cards: the quotient
(:func:`games.epistemic.quotient.quotient_model`), the knowledge structure
of the history (:class:`games.epistemic.GameKnowledge`, per-card BDDs) and
the explicit enumeration of histories (:func:`games.epistemic.explicit_model`).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.epistemic import (
    CardHistory,
    Count,
    Fact,
    GameKnowledge,
    Move,
    MoveAll,
    Reveal,
    Show,
    explicit_model,
)
from games.epistemic.quotient import named_cards, quotient_holds, quotient_model
from games.errors import InvalidParameterError
from kripke import holds
from kripke.errors import SizeLimitError, UnknownAgentError
from kripke.formulas import (
    Atom,
)
from tests.test_epistemic import random_formula, random_history
from tests.test_epistemic_games import SHORT_GAMES, random_point


def check_routes(h: CardHistory, seed: int, rounds: int = 3, formulas: int = 12) -> list:
    """Random card subsets, agent subsets and formulas: quotient == structure == explicit."""
    rng = random.Random(seed)
    gk = GameKnowledge(h)
    pm = explicit_model(h)
    out = []
    for _ in range(rounds):
        cards = rng.sample(list(h.deck.names), rng.randint(1, 2))
        atoms = [Atom("has", (loc, c)) for loc in h.locations for c in cards]
        agents = rng.sample(list(h.agents), rng.randint(1, len(h.agents)))
        fs = [random_formula(rng, h, 3, agents=agents, atoms=atoms) for _ in range(formulas)]
        q = quotient_model(h, cards, agents=agents if rng.random() < 0.5 else None, formulas=fs)
        for f in fs:
            assert q.holds(f) == gk.holds(f) == holds(pm, f), (seed, cards, str(f))
        out.append(q)
    return out


# ------------------------------------------------------------------ agreement
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_short_bs_games_answer_alike(seed):
    """Random points of a classic BS game on 8 cards, 3 seats: hidden plays, calls,
    pickups."""
    h = random_point(SHORT_GAMES["classic"](), seed, max_plays=8).card_history()
    check_routes(h, seed)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_random_histories_answer_alike(seed):
    """Random histories without copies: hidden and public moves, private and public
    reveals and shows, pickups, counts and facts."""
    h = random_history(seed, copies=False, events=8)
    check_routes(h, seed)


def test_pools_form_and_agree():
    """BS plays that are called, taken and played again: the revealed cards join
    pools of interchangeable futures, and the answers still agree."""
    pooled = 0
    for seed in range(40):
        h = random_point(SHORT_GAMES["classic"](), seed, max_plays=8).card_history()
        for q in check_routes(h, seed, rounds=1, formulas=6):
            pooled += q.pools > 0
    assert pooled >= 5


HAND = Deck(["A", "B", "C", "D", "E", "F"])


def hand_made() -> CardHistory:
    h = CardHistory(
        HAND,
        {"x": "A B", "y": "C D", "z": "E F", "pile": ""},
        ["x", "y", "z"],
    )
    return h.then(
        Move(["A"], "x", "pile", seen_by=["x"]),  # x plays A face down
        Move(["C"], "y", "pile", seen_by=["y"]),  # y plays C face down
        MoveAll("pile", "z", seen_by=["z"]),  # z picks up the pile, sees it
        Show("z", ["C"], to=["x"]),  # z shows C to x
        Reveal("x", to=["y"]),  # x shows y its hand
        Move(["E"], "z", "pile"),  # E face up
        Count(["z"], ["A", "B"], 1, 1),
        Fact("~has(y, A)"),
    )


def test_hand_made_history_answers_alike():
    """Hidden moves, a pickup, a private show, a private reveal, a face-up move, a
    count and a fact: every card subset of one or two cards."""
    h = hand_made()
    for seed in range(6):
        check_routes(h, seed, rounds=2, formulas=15)


def test_public_location_answers_alike():
    """A table every seat sees from the start: its cards are named from the deal;
    face-up and shared plays, a pickup, a private show and a count."""
    h = CardHistory(
        Deck(list("ABCDEFG")),
        {"x": "A B", "y": "C D", "z": "E", "table": "F G", "pile": ""},
        {"x": ["x", "table"], "y": ["y", "table"], "z": ["z", "table"]},
    ).then(
        Move(["F"], "table", "x", seen_by=None),
        Move(["A", "F"], "x", "pile", seen_by=["x"]),
        MoveAll("pile", "y", seen_by=["y"]),
        Show("y", ["A"], to=["z"]),
        Move(["G"], "table", "pile"),
        Move(["D"], "y", "pile", seen_by=["y", "z"]),
        Count(["pile"], ["G"], 1, 1),
    )
    assert named_cards(h) == ("F", "G")
    pooled = 0
    for seed in range(4):
        pooled += sum(q.pools > 0 for q in check_routes(h, seed, rounds=2, formulas=10))
    assert pooled > 0


def test_hand_made_known_answers():
    """Answers read off the table: z saw A and C in the pile it took (not who
    played which), x was shown C, y was shown x's hand (B) in view of all."""
    h = hand_made()
    q = quotient_model(h, ["A", "B", "C"])
    assert q.holds("K_z has(z, A) & K_z has(z, C)")
    assert q.holds("K_x has(z, A) & K_x has(z, C)")  # its own play, and the show
    assert q.holds("K_y has(z, C) & K_y has(z, A)")  # its play; x kept B, so x played A
    assert q.holds("K_x K_y has(z, A)")  # x knows y saw its hand
    assert not q.holds("K_z has(x, B)")  # x or y holds B, z cannot tell
    assert q.holds("K_z (has(x, B) | has(y, B))")
    assert quotient_holds(h, "K_2 has(2, A)")  # seat numbers as in GameKnowledge


# ------------------------------------------------------------------ size
def test_quotient_is_smaller_than_the_explicit_model():
    """Only the asked card and the publicly named ones are tracked one by one."""
    h = CardHistory(
        Deck(["A", "B", "C", "D", "E", "F", "G", "H"]),
        {"x": "A B C", "y": "D E F", "z": "G H", "pile": ""},
        ["x", "y", "z"],
    ).then(Move(["A", "B"], "x", "pile", seen_by=["x"]), Move(["D"], "y", "pile", seen_by=["y"]))
    pm = explicit_model(h)
    q = quotient_model(h, ["A"])
    assert named_cards(h, ["A"]) == ("A",)
    assert len(q.states) * 10 < pm.model.num_worlds
    assert q.holds("K_x has(pile, A)") == holds(pm, "K_x has(pile, A)") is True


def test_fewer_agents_fewer_states():
    """States that differ only in what unasked agents saw merge."""
    h = random_point(SHORT_GAMES["classic"](), 11, max_plays=8).card_history()
    c = h.deck.names[0]
    every = quotient_model(h, [c])
    two = quotient_model(h, [c], agents=[0, 1])
    assert len(two.states) <= len(every.states)
    f = f"K_0 ~K_1 has(2, {c}) | K_1 K_0 has(pile, {c})"
    assert two.holds(f) == every.holds(f) == GameKnowledge(h).holds(f)
    with pytest.raises(UnknownAgentError, match="P2"):
        two.holds(f"K_2 has(2, {c})")


# ------------------------------------------------------------------ errors
def test_errors():
    h = hand_made()
    with pytest.raises(InvalidParameterError, match="unknown card 'Z'"):
        quotient_model(h, ["Z"])
    q = quotient_model(h, ["A"])
    with pytest.raises(InvalidParameterError, match="card B is not among"):
        q.holds("K_x has(x, B)")
    with pytest.raises(InvalidParameterError, match="distributed knowledge of x, y"):
        q.holds("D_{x,y} has(z, A)")
    assert quotient_model(h, ["A"], groups=[["x", "y"]]).holds("D_{x,y} has(z, A)")
    copies = CardHistory(Deck(["A", "B"], [2, 1]), {"x": "A A", "y": "B"}, ["x", "y"])
    with pytest.raises(InvalidParameterError, match="A has 2 copies"):
        quotient_model(copies, ["B"])
    with pytest.raises(InvalidParameterError, match="copies"):
        quotient_holds(copies, "K_x has(x, A)")
    with pytest.raises(SizeLimitError, match="more than 2 states"):
        quotient_model(h, ["A", "B"], limit=2)


# ------------------------------------------------------------------ route choice
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_quotient_first_answers_like_the_structure_and_the_model(seed):
    """With ``quotient_width=0`` every truth query asks the quotient first; the answers
    are the structure's and the explicit model's."""
    rng = random.Random(seed)
    h = random_point(SHORT_GAMES["classic"](), seed, max_plays=8).card_history()
    first = GameKnowledge(h, quotient_width=0, counting_first=False)
    built = GameKnowledge(h, quotient_width=10**9, counting_first=False)
    pm = explicit_model(h)
    for _ in range(6):
        cards = rng.sample(list(h.deck.names), rng.randint(1, 2))
        atoms = [Atom("has", (loc, c)) for loc in h.locations for c in cards]
        f = random_formula(rng, h, 3, atoms=atoms)
        assert first.holds(f) == built.holds(f) == holds(pm, f), (seed, str(f))
        assert first.route == "local quotient" and built.route == "structure"
    assert first._hs is None  # the structure was never built


def test_quotient_first_falls_back_to_the_structure(monkeypatch):
    """A quotient refused as too large leaves the answer to the structure; a deck with
    copies never asks the quotient; a structure already built answers at once."""
    import games.epistemic.quotient as quotient

    h = hand_made()
    f = "K_x ~K_y has(pile, A)"
    expected = holds(explicit_model(h), GameKnowledge(h).formula(f))
    gk = GameKnowledge(h, quotient_width=0, counting_first=False)
    assert gk.holds(f) == expected and gk.route == "local quotient"

    def refuse(*args, **kwargs):
        raise SizeLimitError("the card-symmetry quotient has more than 0 states")

    monkeypatch.setattr(quotient, "quotient_model", refuse)
    gk = GameKnowledge(h, quotient_width=0, counting_first=False)
    assert gk.holds(f) == expected and gk.route == "structure"
    assert gk.holds(f) == expected and gk.route == "structure"  # built: no second try
    narrow = GameKnowledge(h, quotient_width=0, max_width=1, counting_first=False)
    assert narrow.holds(f) == expected and narrow.route == "counting"  # counting decides it
    monkeypatch.setattr(GameKnowledge, "_by_counting", lambda self, g: None)
    monkeypatch.setattr(GameKnowledge, "_by_cover", lambda self, g: None)
    narrow = GameKnowledge(h, quotient_width=0, max_width=1, counting_first=False)
    with pytest.raises(SizeLimitError, match="quotient has more than 0 states"):
        narrow.holds(f)  # structure, quotient and counting all silent: the quotient's error
    copies = CardHistory(Deck(["A", "B"], [2, 1]), {"x": "A A", "y": "B", "pile": ""}, ["x", "y"])
    copies = copies.then(Move("A", "x", "pile", seen_by=["x"]))
    gk = GameKnowledge(copies, quotient_width=0)
    assert gk.holds("K_x has(pile, A)") and gk.route == "structure"
