"""The kind quotient (decks with copies) answers like the explicit history model.

Random small decks with copies (:func:`tests.test_epistemic.random_history`:
hidden and public moves, private and public reveals and shows, pickups,
counts and facts), short koth-like BS games (3 ranks of 3 copies, 4 seats)
and a Shengji-like deck (2 copies of each card, a kitty buried unseen), with
random formulas over the atoms ``has(L, C)`` and ``has(L, C#k)`` of one or
two cards: :func:`games.epistemic.kinds.kind_quotient` ==
:func:`games.epistemic.explicit_model`.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.epistemic import CardHistory, Count, GameKnowledge, Move, MoveAll, explicit_model
from games.epistemic.history import card_key
from games.epistemic.kinds import kind_holds, kind_quotient, local_kind_holds, named_kinds
from games.epistemic.reading import read_formula
from games.errors import InvalidParameterError
from kripke import holds
from kripke.errors import SizeLimitError
from kripke.formulas import Atom
from tests.test_epistemic import random_formula, random_history
from tests.test_epistemic_games import SHORT_GAMES, random_point


def random_atoms(rng: random.Random, h: CardHistory) -> tuple[list[str], list[Atom], list[str]]:
    """One or two random cards, every atom ``has(L, C#k)`` of theirs, random agents."""
    d = h.deck
    cards = rng.sample(list(d.names), rng.randint(1, min(2, len(d.names))))
    keys = [
        card_key(c, j, d.copies[d.index(c)])
        for c in cards
        for j in range(1, d.copies[d.index(c)] + 1)
    ]
    atoms = [Atom("has", (loc, c)) for loc in h.locations for c in keys]
    return cards, atoms, rng.sample(list(h.agents), rng.randint(1, len(h.agents)))


def check_kinds(h: CardHistory, seed: int, rounds: int = 3, formulas: int = 12, depth: int = 2):
    """Random card subsets, agent subsets and formulas: kind quotient == explicit."""
    rng = random.Random(seed)
    pm = explicit_model(h)
    out = []
    for _ in range(rounds):
        cards, atoms, agents = random_atoms(rng, h)
        fs = [random_formula(rng, h, depth, agents=agents, atoms=atoms) for _ in range(formulas)]
        q = kind_quotient(h, cards, agents=agents if rng.random() < 0.5 else None, formulas=fs)
        for f in fs:
            assert q.holds(f) == holds(pm, f), (seed, cards, str(f))
        out.append(q)
    return out


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_random_histories_with_copies_answer_alike(seed):
    """Random histories on decks with copies (every event kind), depth <= 2."""
    h = random_history(seed, copies=True, events=8)
    check_kinds(h, seed)


def test_random_histories_depth_three():
    """The same at modal depth 3 on a few seeded histories."""
    for seed in range(12):
        check_kinds(random_history(seed, copies=True, events=6), seed, rounds=1, depth=3)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_short_koth_games_answer_alike(seed):
    """Random points of a koth game on 3 ranks of 3 copies, 4 seats: hidden plays,
    calls, pickups; all copies of a rank identical."""
    h = random_point(SHORT_GAMES["koth"](), seed, max_plays=6).card_history()
    check_kinds(h, seed, rounds=2, formulas=8)


def shengji_like(seed: int) -> CardHistory:
    """Two copies of four cards dealt to three seats and a kitty; the declarer x takes
    the kitty and buries two cards unseen, then face-up plays and a void."""
    rng = random.Random(seed)
    d = Deck(["A", "B", "C", "D"], [2, 2, 2, 2])
    cards = list(d.all_cards())
    rng.shuffle(cards)
    h = CardHistory(
        d,
        {"x": cards[:2], "y": cards[2:4], "z": cards[4:6], "kitty": cards[6:], "trick": []},
        ["x", "y", "z"],
    )
    h = h.then(MoveAll("kitty", "x", seen_by=["x"]))
    bury = rng.sample(list(h.content()["x"]), 2)
    h = h.then(Move(bury, "x", "kitty", seen_by=["x"]))
    for seat in ("x", "y"):
        card = rng.choice(list(h.content()[seat]))
        h = h.then(Move([card], seat, "trick"))
    z = h.content()["z"]
    missing = [c for c in d.names if c not in z]
    if missing:
        h = h.then(Count(["z"], [missing[0]], 0, 0))
    return h


def test_shengji_like_deck_answers_alike():
    """A buried kitty, face-up plays and a void on a deck of pairs."""
    for seed in range(10):
        check_kinds(shengji_like(seed), seed, rounds=2, formulas=10)


def test_game_knowledge_route_on_copies(monkeypatch):
    """GameKnowledge answers a deck with copies on the kind quotient when the structure
    is refused and counting does not decide (route ``"quotient"`` or ``"local quotient"``),
    exactly like the explicit model; with counting left out, on the kind quotients alone."""
    routes: dict[bool, list[str]] = {True: [], False: []}
    for counted in (True, False):
        if not counted:
            monkeypatch.setattr(GameKnowledge, "_by_counting", lambda self, g: None)
        for seed in range(8):
            h = random_point(SHORT_GAMES["koth"](), seed, max_plays=6).card_history()
            gk = GameKnowledge(h, max_width=1)  # the structure is refused at once
            pm = explicit_model(h)
            rng = random.Random(seed)
            for _ in range(6):
                f = random_formula(rng, h, 2)
                assert gk.holds(f) == holds(pm, f), (seed, str(f))
                routes[counted].append(gk.route)
    # with the formulas simplified first (announcements reduced, introspection) counting
    # decides all 48 of these; left out, the kind quotients answer them alike
    assert "counting" in routes[True]
    assert set(routes[False]) == {"quotient", "local quotient"}


def test_named_kinds_and_errors():
    """Named kinds: the query, public events and public locations; an unknown card
    is a typed error naming it; a tight limit a SizeLimitError naming the count."""
    d = Deck(["A", "B", "C"], [2, 2, 1])
    h = CardHistory(d, {"x": "A B C", "y": "A B", "pile": ""}, ["x", "y"])
    h2 = h.then(Move("B", "x", "pile"))
    assert [d.name(k) for k in named_kinds(h2, ["C"])] == ["B", "C"]
    with pytest.raises(InvalidParameterError, match="'Q'"):
        kind_quotient(h, ["Q"])
    with pytest.raises(SizeLimitError, match="states"):
        kind_quotient(h.then(Move(["A", "B"], "x", "pile", seen_by=["x"])), ["A"], limit=1)
    assert kind_holds(h2, "K_y has(pile, B) & ~K_y has(x, C#1) | K_y has(x, C)")


def test_a_full_koth_deck_is_refused_cleanly_naming_the_count(monkeypatch):
    """52-card koth (13 ranks of 4 copies) after 8 plays: the structure is too wide,
    counting decides ``K_a ~K_b has(pile, X)`` (false: a witness world), so does the
    covering of P1's worlds with counting silenced, and with both silenced the kind
    quotient refuses beyond its limit with a typed error naming the count."""
    import games.epistemic.knowledge as knowledge
    from benchmarks.whole_game_knowledge import plays

    monkeypatch.setattr(knowledge, "KIND_STATES", 2_000)
    h = next(h for k, h in plays("bs-koth", 0) if k == 8)
    assert GameKnowledge(h).holds("K_P1 ~K_P2 has(pile, 1)") is False  # counting: a witness
    monkeypatch.setattr(GameKnowledge, "_by_counting", lambda self, g: None)
    assert GameKnowledge(h).holds("K_P1 ~K_P2 has(pile, 1)") is False  # the cover
    monkeypatch.setattr(GameKnowledge, "_by_cover", lambda self, g: None)
    gk = GameKnowledge(h)
    with pytest.raises(SizeLimitError, match=r"more than 2,000 states"):
        gk.holds("K_P1 ~K_P2 has(pile, 1)")
    assert gk.refused_by == "quotient"


def check_local(h: CardHistory, seed: int, formulas: int = 10, depth: int = 2) -> None:
    """Random formulas over one or two cards: local kind quotient == explicit."""
    rng = random.Random(seed)
    pm = explicit_model(h)
    cards, atoms, agents = random_atoms(rng, h)
    for _ in range(formulas):
        f = random_formula(rng, h, depth, agents=agents, atoms=atoms)
        assert local_kind_holds(h, f) == holds(pm, f), (seed, cards, str(f))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_local_kind_quotient_answers_alike(seed):
    """The local kind quotient (one pass per word of steps) on random histories with
    copies, depth <= 2 (common knowledge through the whole kind quotient)."""
    check_local(random_history(seed, copies=True, events=8), seed)


def test_local_kind_quotient_on_koth_and_pairs():
    """The local kind quotient on short koth games and the Shengji-like deck, depth 3."""
    for seed in range(6):
        check_local(
            random_point(SHORT_GAMES["koth"](), seed, max_plays=6).card_history(), seed, 6, 3
        )
        check_local(shengji_like(seed), seed, 6, 3)


def test_kinds_first_named_by_a_later_public_event_are_named_then():
    """A kind first named by a public reveal stays anonymous (floating where no tracked
    seat saw it) until the reveal: the deal keeps fewer states than naming it at the
    deal, and both answer like the explicit model."""
    from games.epistemic import Reveal
    from games.epistemic.kinds import _KindPass, _query_kinds
    from games.epistemic.symbolic import simplify_steps

    d = Deck(["A", "B", "C", "D"], [2, 2, 2, 1])
    h = CardHistory(d, {"x": "A A B D", "y": "B C", "z": "C", "pile": ""}, ["x", "y", "z"])
    h = h.then(Move("A", "x", "pile", seen_by=["x"]))
    h = h.then(Move("C", "y", "pile", seen_by=["y"]))
    h = h.then(Reveal("pile"))
    steps = simplify_steps(h)
    query = _query_kinds(h, ["B"])
    named = named_kinds(h, ["B"], steps)
    lazy = _KindPass(h, steps, named, ["y", "z"], 10**6, query)
    eager = _KindPass(h, steps, named, ["y", "z"], 10**6, query, lazy=False)
    assert [d.name(k) for k in lazy.eager] == ["B"]
    assert sorted(d.name(k) for ks in lazy.intro.values() for k in ks) == ["A", "C"]
    assert len(lazy.deal()) < len(eager.deal())
    pm = explicit_model(h)
    rng = random.Random(7)
    atoms = [Atom("has", (loc, c)) for loc in h.locations for c in ("B", "B#2")]
    fs = [random_formula(rng, h, 2, atoms=atoms) for _ in range(25)]
    fs.append(read_formula(h, "K_z ~K_y has(x, B#2) | K_y has(y, B)"))
    for late in (True, False):
        q = kind_quotient(h, ["B"], formulas=fs, lazy=late)
        for f in fs:
            assert q.holds(f) == holds(pm, f), (late, str(f))
            if f.modal_depth() <= 2 and late:
                assert local_kind_holds(h, f) == holds(pm, f), str(f)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_naming_kinds_late_or_at_the_deal_answers_alike(seed):
    """Random histories with copies: the kind quotient naming kinds at their first public
    event and the one naming every named kind at the deal agree with each other and
    with the explicit model."""
    h = random_history(seed, copies=True, events=8)
    rng = random.Random(seed)
    pm = explicit_model(h)
    cards, atoms, agents = random_atoms(rng, h)
    fs = [random_formula(rng, h, 2, agents=agents, atoms=atoms) for _ in range(10)]
    late = kind_quotient(h, cards, agents=agents, formulas=fs)
    early = kind_quotient(h, cards, agents=agents, formulas=fs, lazy=False)
    for f in fs:
        assert late.holds(f) == early.holds(f) == holds(pm, f), (seed, cards, str(f))
