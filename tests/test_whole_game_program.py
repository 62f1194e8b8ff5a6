"""A seat's worlds as an integer program (:mod:`games.epistemic.program`).

Agreement with the explicit model on random small histories (every event type,
copies or not) for every seat, every card atom, its negation and random
propositional formulas; agreement with exact counting where counting is exact;
known answers from the rules at full size, where the seats' counting of a long
koth history drops constraints and decides nothing either way.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.epistemic import CardHistory, GameKnowledge, Move, MoveAll, Reveal, explicit_model
from games.epistemic.history import ONLOOKER
from games.epistemic.knowledge import outplayed, outplayed_counted
from games.epistemic.program import SeatProgram, seat_knows
from games.errors import GameError
from kripke import holds
from kripke.errors import SizeLimitError
from kripke.formulas import And, Common, Distributed, Know, KnowWhether, Not, Or
from tests.test_epistemic import card_atom, random_history
from tests.test_whole_game_copies import koth_history
from tests.test_whole_game_dislodged import bs_history, checked_claims
from tests.test_whole_game_ignorance import all_atoms
from tests.test_whole_game_swaps import kitty_history


def agree(h: CardHistory, rng: random.Random, extra: int = 6) -> int:
    """Every seat's program against the explicit model on every card atom, its
    negation and ``extra`` random formulas; how many formulas the seats know."""
    pm = explicit_model(h)
    formulas = [f for a in all_atoms(h) for f in (a, Not(a))]
    for _ in range(extra):
        p, q, r = (card_atom(rng, h) for _ in range(3))
        formulas.append(rng.choice([Or((p, q)), And((p, Not(q))), Or((And((p, q)), Not(r)))]))
    known = 0
    for a in h.agents:
        prog = SeatProgram(h, a)
        for f in formulas:
            truth = holds(pm, Know(a, f))
            assert prog.knows(f) is truth, (a, str(f))
            if not truth:
                w = prog.world(Not(f))  # the world shown is one of a's: a cannot rule it out
                assert w is not None and not w._holds_now(f)
            known += truth
    return known


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_agrees_with_the_explicit_model_on_random_histories(seed, copies):
    agree(random_history(seed, copies=copies, events=8), random.Random(seed))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), plays=st.integers(3, 9))
def test_agrees_with_the_explicit_model_on_bs_histories(seed, plays):
    agree(bs_history(seed, plays=plays), random.Random(seed))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_a_pair_onlooker_is_distributed_knowledge(seed, copies):
    """The program of the onlooker who owns a pair's places and sees what either sees
    (:meth:`CardHistory.onlooker`) knows exactly what the pair knows distributedly."""
    h = random_history(seed, copies=copies, events=8)
    pm = explicit_model(h)
    for pair in (("x", "y"), ("y", "z")):
        one = h.onlooker(
            [m for a in pair for m in h.owns[a]], lambda aud, pair=pair: bool(aud & set(pair))
        )
        prog = SeatProgram(one, ONLOOKER)
        for atom in all_atoms(h):
            for f in (atom, Not(atom)):
                assert prog.knows(f) is holds(pm, Distributed(pair, f)), (pair, str(f))


def test_not_vacuous():
    """The seats know some formulas and not others on these histories."""
    known = sum(agree(random_history(s, events=8), random.Random(s), 0) for s in range(5))
    assert known > 20


@pytest.mark.parametrize("seed", range(6))
def test_agrees_with_exact_counting(seed):
    """Where a seat's counting (:class:`games.deal.DealKnowledge`) is exact, both
    routes give the same answer for every atom and its negation."""
    h = bs_history(seed, plays=9)
    for a in h.agents:
        kn = h.seat_counting(a)
        assert kn.exact
        prog = SeatProgram(h, a)
        for atom in all_atoms(h):
            if "#" in atom.args[1]:
                continue  # counting reads has(L, C) as at least one copy
            assert prog.knows(atom) == kn.knows(atom), (a, atom.key)


def test_known_answer_a_caught_lie():
    """BS: after a caught lie the cards shown go to the liar, and every seat knows the
    liar holds them until it puts cards down unseen (rules: the player who lied picks up
    the pile)."""
    h = CardHistory(
        Deck(["A", "B", "C", "D"], [2, 2, 2, 2]),
        {"x": "A B C", "y": "A D D", "z": "B C", "play": "", "pile": ""},
        ["x", "y", "z"],
    )
    h = h.then(Move("B", "z", "play", seen_by=["z"]), MoveAll("play", "pile"))
    h = h.then(Move("D", "y", "play", seen_by=["y"]), Reveal("play"))
    h = h.then(MoveAll("play", "pile"), MoveAll("pile", "y", seen_by=["y"]))
    d = h.card_formula("has(y, D)")
    for a in ("x", "z"):
        assert seat_knows(h, a, d) is True
    assert seat_knows(h, "x", h.card_formula("has(y, D#2)")) is False  # z may hold one
    h2 = h.then(Move("D", "y", "play", seen_by=["y"]))
    assert seat_knows(h2, "x", h2.card_formula("has(y, D)")) is False
    assert seat_knows(h2, "x", h2.card_formula("has(y, D) | has(play, D)")) is True


def test_bad_seat_is_named():
    h = bs_history(0, plays=3)
    with pytest.raises(GameError, match="nobody"):
        SeatProgram(h, "nobody")


@pytest.mark.parametrize(
    ("seed", "play", "seat", "formula", "truth"),
    [
        # P0 played three 8s unseen, P1 took the revealed 8 at event 68 and put down
        # two cards unseen since: P3 cannot tell whether one was the 8
        (0, 75, "P3", "has(P1, 8)", False),
        # P1's four 11s were shown when P2 called and went to P2 with the pile
        (0, 75, "P0", "has(P2, 11) | has(play, 11#4)", True),
    ],
)
def test_full_size_koth_where_counting_relaxes(seed, play, seat, formula, truth):
    from benchmarks.whole_game_knowledge import plays

    h = next(h for k, h in plays("bs-koth", seed) if k == play)
    hc = GameKnowledge(h).counted
    kn = hc.seat_counting(seat)
    assert not kn.exact  # counting dropped constraints: it does not decide "not known"
    assert SeatProgram(hc, seat).knows(hc.card_formula(formula)) is truth


def counted_claims(h: CardHistory) -> tuple[int, int]:
    """Every claim of :func:`~games.epistemic.knowledge.outplayed_counted` on ``h``
    checked in the explicit model; how many, and how many :func:`outplayed` does not
    make."""
    made = checked_claims(
        h,
        lambda h, b, atom, a, kn: outplayed_counted(
            h, b, atom, within=a, program=SeatProgram(h, a)
        ),
    )
    return len(made), sum(not outplayed(h, b, atom, within=a) for a, b, atom, _ in made)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), plays=st.integers(3, 7))
def test_what_outplayed_counted_claims_holds_on_koth_histories(seed, plays):
    counted_claims(koth_history(seed, plays))


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_what_outplayed_counted_claims_holds_on_bs_and_kitty_histories(seed):
    """Decks without copies too, and counts (voids after a buried kitty)."""
    counted_claims(bs_history(seed, plays=6))
    counted_claims(kitty_history(seed, events=6))


def test_outplayed_counted_claims_more_than_outplayed():
    """Not vacuous: on koth histories it makes claims, some that the bound of the copies'
    paths (:func:`outplayed`) does not."""
    made = new = 0
    for seed in range(40):
        n, m = counted_claims(koth_history(seed, 6))
        made, new = made + n, new + m
    assert made > 10 and new > 0


def traced_claims(h: CardHistory) -> tuple[int, int]:
    """Every world :meth:`SeatProgram.traced` gives on ``h`` checked in the explicit model:
    a world of the seat where the other seat knows the atom; how many it gave, and in how
    many cases such a world exists."""
    pm = explicit_model(h)
    found = exists = 0
    for a in h.agents:
        prog = SeatProgram(h, a)
        for b in h.agents:
            if b == a:
                continue
            for atom in all_atoms(h):
                w = prog.traced(b, *h.atom_cell(atom))
                exists += not holds(pm, Know(a, Not(Know(b, atom))))
                if w is not None:
                    found += 1
                    assert holds(explicit_model(w), Know(b, atom)), (a, b, atom.key)
    return found, exists


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_what_traced_gives_is_a_world_where_the_other_seat_knows(seed):
    """Random histories (every event type), BS, koth and kitty histories: the world is
    one of the seat's (built and checked) and ``K_b atom`` holds there, so
    ``K_a ~K_b atom`` fails."""
    traced_claims(random_history(seed, copies=seed % 2 == 0, events=8))
    traced_claims(bs_history(seed, plays=6))
    traced_claims(koth_history(seed, 6))
    traced_claims(kitty_history(seed, events=6))


def test_traced_finds_most_such_worlds_on_small_histories():
    """Not vacuous: of the cases where the seat cannot rule out that the other knows the
    atom, what was followed shows most (on 15 seeds of the four kinds of history, 1,639
    of 2,171 when written)."""
    found = exists = 0
    for seed in range(6):
        for h in (random_history(seed, events=8), koth_history(seed, 6)):
            n, m = traced_claims(h)
            found, exists = found + n, exists + m
    assert exists > 50 and found > exists // 2


def test_full_size_koth_where_the_other_seat_followed_the_copy():
    """52-card koth, seed 15 after 230 plays: in a world of P2, P3 followed a 0 to P0 (no
    rule of the copies' paths decided ``K_P2 ~K_P3 has(P0, 0)`` within 2 s); P3's own
    program confirms that it knows the atom in that world."""
    from benchmarks.whole_game_knowledge import plays

    h = next(h for k, h in plays("bs-koth", 15) if k == 230)
    gk = GameKnowledge(h)
    hc = gk.counted
    atom = hc.card_formula("has(P0, 0)")
    w = SeatProgram(hc, "P2").traced("P3", *hc.atom_cell(atom))
    assert w is not None
    assert SeatProgram(w, "P3").knows(atom) is True
    assert gk.holds("K_P2 ~K_P3 has(P0, 0)") is False


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_probabilities_of_card_formulas_by_counting_equal_the_structures(seed, copies):
    """:meth:`GameKnowledge.probability` of a formula about the cards comes from the seat's
    exact counting; the symbolic structure weighs its worlds the same way (an independent
    route: its worlds are the histories, each deal weighed by its arrangements)."""
    h = random_history(seed, copies=copies, events=6)
    gk = GameKnowledge(h)
    rng = random.Random(seed)
    hs = gk.built
    for a in h.agents:
        p, q = card_atom(rng, h), card_atom(rng, h)
        for f in (p, Or((p, Not(q))), And((p, q))):
            want = hs.world_share(gk._class(a), hs.structure.truth(f))
            assert gk.probability(a, f) == want, (a, str(f))
            assert gk.probability_bounds(a, f) == (want, want)


def sampled_claims(seed: int, copies: bool) -> int:
    """Every witness of the sampled worlds on a random history checked in the explicit
    model; how many."""
    h = random_history(seed, copies=copies, events=6)
    pm = explicit_model(h)
    gk = GameKnowledge(h)
    rng = random.Random(seed)
    claims = 0
    for x in h.agents:
        for y in h.agents:
            p = card_atom(rng, h)
            for f in (p, Or((p, Not(card_atom(rng, h))))):
                if gk._unknown_somewhere(x, y, f):
                    claims += 1
                    assert not holds(pm, Know(x, Know(y, f))), (x, y, str(f))
                if gk._unknown_somewhere(x, y, f, whether=True):
                    claims += 1
                    assert not holds(pm, Know(x, KnowWhether(y, f))), (x, y, str(f))
                if gk._known_somewhere(x, y, f):
                    claims += 1
                    assert not holds(pm, Know(x, Not(Know(y, f)))), (x, y, str(f))
    return claims


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_sampled_worlds_witness_only_what_the_explicit_model_shows(seed, copies):
    """A world of x drawn from x's integer program where y does not know p (does not
    know whether p, knows p) shows that ``K_x K_y p`` (``K_x Kw_y p``, ``K_x ~K_y p``)
    fails."""
    sampled_claims(seed, copies)


def test_sampled_worlds_witness_often():
    """Not vacuous."""
    assert sum(sampled_claims(seed, seed % 2 == 0) for seed in range(8)) > 20


def test_sampled_worlds_decide_common_knowledge_at_full_size():
    """52-card koth, a random playout of 47 actions: P3 and P0 each know that if P1 holds
    three 3s, the play holds three 1s, but it is not common knowledge between them (a
    world of one of them where the other does not know it, both programs checked); the
    formula was refused before the worlds were drawn."""
    from tests.test_epistemic_playouts import playout

    gk = playout("bs", 429497919, 47, variant="koth").knowledge()
    f = "C_{P3,P0} [!has(P1, 3#3)] has(play, 1#3)"
    p = gk.counted.card_formula("has(P1, 3#3) -> has(play, 1#3)")
    assert gk.knows("P3", p) and gk.knows("P0", p)
    assert gk.holds(f) is False
    assert gk._unknown_somewhere("P3", "P0", p) or gk._unknown_somewhere("P0", "P3", p)


def test_an_event_every_seat_sees_is_public_to_an_onlooker():
    """A move whose audience lists every seat is public: the onlooker who sees nothing
    private saw it (before, the onlooker's history took it as private, and the public's
    program did not know where the card went)."""
    h = CardHistory(Deck(["A", "B", "C"]), {"x": "A", "y": "B", "z": "C"}, ["x", "y", "z"])
    h = h.then(Move("A", "x", "y", seen_by=["x", "y", "z"]))
    public = SeatProgram(h.onlooker([], lambda aud: False), ONLOOKER)
    assert public.knows(h.card_formula("has(y, A)")) is True
    assert public.knows(h.card_formula("has(y, B)")) is False  # y's own card: B or C


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_what_the_public_knows_is_common_knowledge(seed, copies):
    """The program of the onlooker who sees only public events: whatever it knows is
    common knowledge among all seats in the explicit model."""
    h = random_history(seed, copies=copies, events=8)
    pm = explicit_model(h)
    public = SeatProgram(h.onlooker([], lambda aud: False), ONLOOKER)
    for atom in all_atoms(h):
        for f in (atom, Not(atom)):
            if public.knows(f):
                assert holds(pm, Common(h.agents, f)), str(f)


@given(st.integers(0, 10**6))
@settings(max_examples=30, deadline=None)
def test_the_kept_matrix_is_the_rows_written_out(seed):
    """The program's rows are written out once and kept (:meth:`SeatProgram._matrix`);
    after rows are added and taken off the end, in any order, what it gives is the rows
    written out anew, and HiGHS answers the same."""
    import numpy as np

    rng = random.Random(seed)
    h = random_history(seed)
    p = SeatProgram(h, h.agents[0])
    base = len(p._rows)
    for _ in range(8):
        if rng.random() < 0.5 and len(p._rows) > base:
            del p._rows[rng.randrange(base, len(p._rows)) :]
        if rng.random() < 0.7:
            for _ in range(rng.randrange(1, 4)):
                vs = rng.sample(range(len(p._lb)), min(len(p._lb), rng.randrange(1, 4)))
                p._row(
                    {v: rng.choice([-2, -1, 1, 3]) for v in vs}, -rng.randrange(3), rng.randrange(4)
                )
        data, cols, starts, lo, hi = p._matrix()
        dense = np.zeros((len(p._rows), len(p._lb)))
        for r in range(len(p._rows)):
            dense[r, cols[starts[r] : starts[r + 1]]] = data[starts[r] : starts[r + 1]]
        want = np.zeros_like(dense)
        for r, (coef, a, b) in enumerate(p._rows):
            for v, c in coef.items():
                want[r, v] = c
            assert (lo[r], hi[r]) == (a, b)
        assert (dense == want).all() and len(lo) == len(p._rows)
    fresh = SeatProgram(h, h.agents[0])
    fresh._rows, fresh._lb, fresh._ub, fresh._int = list(p._rows), p._lb, p._ub, p._int
    cost = {v: 1.0 for v in range(len(p._lb))}
    one, two = p._solve(cost), fresh._solve(cost)
    assert (one is None) == (two is None)
    if one is not None and one.status == 0:
        assert one.fun == pytest.approx(two.fun)


def test_probability_refused_where_counting_relaxes_says_so():
    """koth seed 0 play 75: P3's counting dropped a constraint and the structure is too
    wide, so no route weighs P3's deals exactly; the refusal names that, not only the
    structure's width.  Where counting is exact, a formula about knowledge that holds
    in some of the seat's worlds only is refused naming the shapes counting weighs."""
    from benchmarks.whole_game_knowledge import plays

    h = next(h for k, h in plays("bs-koth", 0) if k == 75)
    gk = GameKnowledge(h)
    with pytest.raises(SizeLimitError, match="P3's deals dropped [0-9]+ joint constraint") as e:
        gk.probability("P3", "has(P1, 8)")
    assert "partial counts wide" in str(e.value)  # and the structure's refusal
    with pytest.raises(SizeLimitError, match="P3's deals dropped"):
        gk.count("P3")
    # the same seat's certainties are still answered (by its integer program)
    assert gk.probability("P0", "has(P2, 11) | has(play, 11#4)") == 1

    # exact counting, the structure refused (max_width=1): z's probability that x
    # does not hold the AS, so that x thinks y may hold it
    small = CardHistory(
        Deck(["AS", "KS", "QS", "JS", "AH", "KH"]),
        {"x": "AS KS", "y": "QS JS", "z": "AH KH", "pile": ""},
        ["x", "y", "z"],
    ).then(Move("AS", "x", "pile", seen_by=["x"]), MoveAll("pile", "y", seen_by=["y"]))
    wide = GameKnowledge(small, max_width=1)
    assert wide.probability("z", "has(y, AS)") == Fraction(3, 4)
    with pytest.raises(SizeLimitError, match="z's probability of M_x has"):
        wide.probability("z", "M_x has(y, AS)")
    assert GameKnowledge(small).probability("z", "M_x has(y, AS)") == Fraction(3, 4)
