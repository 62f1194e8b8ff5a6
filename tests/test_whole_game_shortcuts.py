"""Formulas exact counting settles without the structure: an announcement of a formula
about the cards inside knowledge (``K_a [!p] q`` is ``K_a (p -> q)``), knowing whether
about places a seat always sees (a table the cards reach face up, its own hand), and a
card atom's negation from the cell bounds.

Each is checked against the explicit model on random histories and on formulas built
to hit them; at full size they settle random formulas of the playout test that ran out
of time or were refused on the kind quotient.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.epistemic import CardHistory, GameKnowledge, Move, MoveAll, explicit_model
from games.epistemic.hands import public_places
from kripke import holds
from kripke.errors import SizeLimitError
from kripke.formulas import (
    And,
    Announce,
    AnnounceDiamond,
    Atom,
    Distributed,
    Everybody,
    Know,
    KnowWhether,
    Not,
    Or,
    Possible,
)
from tests.test_epistemic import random_history
from tests.test_whole_game_swaps import kitty_history


def shaped(rng: random.Random, h: CardHistory):
    """A formula of one of the shapes: ``K_a [!p] q``, ``K_a <!p> q``, ``E_G Kw_b p``,
    ``Kw_b ~has(L, C)``, ``M_a E_G has(L, C)`` or ``~E_G has(L, C)``, with ``p``, ``q`` card
    atoms or their negations."""
    agents = list(h.agents)
    atoms = [Atom("has", (m, c)) for m in h.locations for c in h.deck.names]

    def lit():
        a = rng.choice(atoms)
        return Not(a) if rng.random() < 0.5 else a

    kind = rng.randrange(5)
    if kind == 4:  # everybody of a group, or nobody of it, may know a card atom
        group = frozenset(rng.sample(agents, rng.randint(2, len(agents))))
        inner = Everybody(group, rng.choice(atoms))
        return Possible(rng.choice(agents), inner) if rng.random() < 0.5 else Not(inner)
    if kind == 0:
        return Know(rng.choice(agents), Announce(lit(), Or((lit(), lit()))))
    if kind == 1:
        return Know(rng.choice(agents), AnnounceDiamond(lit(), lit()))
    if kind == 2:
        group = frozenset(rng.sample(agents, rng.randint(1, len(agents))))
        return Everybody(group, KnowWhether(rng.choice(agents), And((lit(), lit()))))
    return KnowWhether(rng.choice(agents), Not(rng.choice(atoms)))


def decided_agree(h: CardHistory, rng: random.Random, n: int = 30) -> int:
    """Counting's answers to ``n`` shaped formulas equal the explicit model's; how many
    it decided."""
    try:
        pm = explicit_model(h)
    except SizeLimitError:
        return 0
    gk = GameKnowledge(h, max_width=1)
    decided = 0
    for _ in range(n):
        f = shaped(rng, h)
        got = gk._by_counting(gk.formula(f))
        if got is not None:
            assert got == holds(pm, f), str(f)
            decided += 1
    return decided


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_counting_on_these_shapes_agrees_with_the_explicit_model(seed, copies):
    decided_agree(random_history(seed, copies=copies), random.Random(seed))


def test_counting_decides_these_shapes_on_face_up_play():
    decided = sum(decided_agree(kitty_history(seed), random.Random(seed)) for seed in range(15))
    assert decided > 150


def test_known_answer_the_table_and_the_own_hand():
    """Cards go to the table face up: everybody knows whether it holds the A, and x
    knows whether x holds the B; y does not know whether z holds the C (x's hidden
    card may be it)."""
    deck = Deck(["A", "B", "C", "D"])
    h = CardHistory(
        deck, {"x": "A B", "y": "D", "z": "C", "table": "", "pile": ""}, ["x", "y", "z"]
    )
    h = h.then(Move("A", "x", "table"), Move("B", "x", "pile", seen_by=["x"]))
    assert public_places(h) == {"table"}
    gk = GameKnowledge(h, max_width=1)
    pm = explicit_model(h)
    for f in ("E_{x,y,z} Kw_y has(table, A)", "Kw_x has(x, B)", "~Kw_y has(z, C)"):
        assert gk._by_counting(gk.formula(f)) is True and holds(pm, f), f
    # the pile is not the table: nobody but x saw what went there
    assert "pile" not in public_places(h.then(MoveAll("pile", "y")))


def test_full_size_playout_formulas_that_ran_out_of_time():
    """Random playout formulas (koth, ZPY, BS-ZPY at the deal) that the kind quotient
    could not answer in 10 s, or refused, are settled by counting at once."""
    from tests.test_epistemic_playouts import playout

    cases = [
        (
            ("bs", {"variant": "koth"}),
            2,
            "[!has(P3, 11#2)] has(play, 0) | C_{P2,P0,P3,P1} has(pile, 7#3)",
        ),
        (("bs-zpy", {}), 1, "E_{P3,P4,P0,P2} Kw_P3 has(W3, 4H)"),
        (("shengji", {"variant": "zpy"}), 1, "E_{P3,P5,P1,P0} Kw_P3 has(played, QH#3)"),
    ]
    for (name, params), seed, f in cases:
        gk = playout(name, seed, 0, **params).knowledge()
        assert gk._by_counting(gk.formula(f)) is not None, f
        gk.holds(f)
        assert gk.route == "counting", f


def test_the_seat_that_buried_the_kitty_knows_it():
    """Whoever took the kitty up and buried cards again knows its whole content in every
    world (``_watched``): ``K_a K_b p`` is ``K_a p`` and ``K_a ~K_b p`` is ``K_a ~p`` for ``p``
    about the kitty.  Every such answer counting gives on kitty histories is the explicit
    model's, and it answers more of them than before (the rules alone)."""
    from games.epistemic.knowledge import _watched

    checked = 0
    for seed in range(15):
        h = kitty_history(seed)
        pm = explicit_model(h)
        gk = GameKnowledge(h, max_width=1)
        taker = next(st.dst for st in h.steps if st.kind == "all" and st.src == "kitty")
        assert _watched(h, taker, "kitty")
        assert not any(_watched(h, a, "kitty") for a in h.agents if a != taker)
        for a in h.agents:
            for c in h.deck.names:
                p = Atom("has", ("kitty", c))
                for f in (Know(a, Not(Know(taker, p))), Know(a, Know(taker, p))):
                    got = gk._by_counting(f)
                    assert got is not None and got == holds(pm, f), (seed, str(f))
                    checked += 1
    assert checked > 100


def test_the_seat_that_played_on_an_emptied_table_knows_the_play():
    """A move of all of a place's cards leaves it empty in every world, so the seat that
    then put cards there face down knows the whole play (``_watched``): ``M_a D_G p`` about
    the play of a member is ``M_a p`` (koth seed 9 play 24, ``M_P3 D_{P3,P1,P2} has(play,
    10#2)`` after P1 played, refused by the kind quotient before).  On small BS and koth
    histories every answer counting gives about the last play is the explicit model's,
    and the seat that made it is the one that watched it."""
    from games.epistemic.knowledge import _watched
    from tests.test_whole_game_copies import koth_history
    from tests.test_whole_game_dislodged import bs_history

    checked = 0
    for seed in range(12):
        for h in (koth_history(seed, 3), bs_history(seed, plays=3)):
            player = h.agents[seed % len(h.agents)]
            held = h.kinds_now()[player]
            if not held or h.kinds_now()["play"]:
                continue
            h = h.then(Move(h.deck.names[held[0]], player, "play", seen_by=[player]))
            assert _watched(h, player, "play")
            assert not any(_watched(h, a, "play") for a in h.agents if a != player)
            pm = explicit_model(h)
            gk = GameKnowledge(h, max_width=1)
            others = [a for a in h.agents if a != player]
            for c in h.deck.names:
                p = Atom("has", ("play", c))
                for f in (
                    Know(others[0], Not(Know(player, p))),
                    Know(others[0], Know(player, p)),
                    Possible(others[1], Distributed((player, others[0]), p)),
                ):
                    got = gk._by_counting(gk._simpler(f))
                    assert got is not None and got == holds(pm, f), (seed, str(f))
                    checked += 1
    assert checked >= 30, checked
