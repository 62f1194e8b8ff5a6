"""Whole-game knowledge on decks with copies (koth-like BS): the rule
:func:`games.epistemic.knowledge.outplayed`, the lower bound
:func:`games.epistemic.witness.known_at_least` and the witnesses it finds.

``outplayed(h, b, has(L, C), within=a)`` claims ``K_a ~K_b has(L, C)``: the copies of
``C`` at ``L`` that ``b`` may have seen are no more than the cards ``L`` has put down
unseen by ``b`` since the last cards came in, and the others can trade places with
cards ``b`` never saw.  ``known_at_least(h, b, L, C)`` claims ``K_b has(L, C#k)`` for
every ``k`` up to the bound; :func:`~games.epistemic.witness.witness_tracked` reads it
in a traded history to show ``M_a K_b has(L, C)``.  Every claim is checked against the
explicit model on random koth-like histories (two to four copies of each kind, plays of
one or two cards face down, calls, piles picked up), BS-like histories and random
histories of every event kind; at full size, koth states the rules left open.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.epistemic import CardHistory, GameKnowledge, Move, MoveAll, explicit_model
from games.epistemic.knowledge import dislodged, never_known, outplayed
from games.epistemic.witness import (
    known_at_least,
    witness_absent,
    witness_rerouted,
    witness_tracked,
)
from kripke import holds
from kripke.formulas import Atom, Know, Not
from tests.test_epistemic import random_history
from tests.test_whole_game_dislodged import bs_history, bs_plays, checked_claims
from tests.test_whole_game_swaps import SEATS, dealt, kitty_history, shuffled
from tests.test_whole_game_witness import tracked_claims


def koth_history(seed: int, plays: int = 6) -> CardHistory:
    """Three seats and a small deck of two to four kinds with two to four copies each
    (at most 8 cards); each turn a seat puts one or two cards face down on ``play``,
    which is either called (shown to everybody and taken, seen, by a seat) or gathered
    into ``pile``, which a seat often picks up (seeing it)."""
    rng = random.Random(seed)
    names = [chr(ord("A") + i) for i in range(rng.randint(2, 4))]
    deck, cards = shuffled(rng, names, [rng.choice([2, 3, 4]) for _ in names], 8)
    h = CardHistory(deck, {**dealt(cards), "play": "", "pile": ""}, SEATS)
    return bs_plays(h, rng, plays, pickup=0.6)


def outplayed_claims(h: CardHistory) -> tuple[int, int]:
    """Every claim of :func:`outplayed` on ``h`` checked in the explicit model (with
    ``a == b`` the claim is ``~K_b``); how many, and how many neither
    :func:`never_known` nor :func:`dislodged` makes."""
    made = checked_claims(h, lambda h, b, atom, a, kn: outplayed(h, b, atom, within=a))
    new = sum(
        not (never_known(h, b, atom, within=a) or dislodged(h, b, atom, within=a, knowledge=kn(a)))
        for a, b, atom, kn in made
    )
    return len(made), new


def lower_bounds(h: CardHistory) -> int:
    """Every positive :func:`known_at_least` on ``h`` checked in the explicit model (the
    seat knows that many copies lie there) and against the true content; how many."""
    pm = None
    n = 0
    now = h.kinds_now()
    for b in h.agents:
        for loc in h.locations:
            for x, name in enumerate(h.deck.names):
                k = known_at_least(h, b, loc, x)
                assert k <= now[loc].count(x), (b, loc, name)
                if k:
                    pm = pm or explicit_model(h)
                    atom = Atom("has", (loc, name if k == 1 else f"{name}#{k}"))
                    assert holds(pm, Know(b, atom)), (b, atom.key)
                    n += 1
    return n


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), plays=st.integers(3, 7))
def test_what_outplayed_claims_holds_on_koth_histories(seed, plays):
    outplayed_claims(koth_history(seed, plays))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_what_outplayed_claims_holds_on_bs_and_kitty_histories(seed):
    """Decks without copies too, and counts (voids after a buried kitty)."""
    outplayed_claims(bs_history(seed, plays=6))
    outplayed_claims(kitty_history(seed, events=6))


def test_outplayed_claims_what_the_others_do_not():
    """Histories (of 300 seeds, 6 plays) where it does: every claim holds."""
    made = new = 0
    for seed in (0, 59, 112, 182, 297):
        n, m = outplayed_claims(koth_history(seed, 6))
        made, new = made + n, new + m
    assert made > 60 and new >= 15


def test_outplayed_reads_the_copies_the_outer_seat_knows_were_never_seen(monkeypatch):
    """Histories (of 1,500 seeds, 8 plays) where the rule's claims need the copies ``a``
    was dealt and followed unseen by ``b`` (:func:`knowledge._clean_copies`): every claim
    holds, and without that bound one is not made (seed 35; the bounds on the copies at
    every moment, :func:`knowledge._copies_bounds`, now make the others on their own)."""
    from games.epistemic import knowledge

    seeds = (25, 35, 93, 317, 783, 1138, 1387)
    with_clean = sum(outplayed_claims(koth_history(seed, 8))[0] for seed in seeds)
    monkeypatch.setattr(knowledge, "_clean_copies", lambda *args, **kwargs: 0)
    without = sum(outplayed_claims(koth_history(seed, 8))[0] for seed in seeds)
    assert with_clean >= without + 1


def test_known_answer_a_copy_seen_going_in_then_a_card_put_down():
    """y plays its A into the pile z takes, and z puts one card down that y never sees:
    y no longer knows that z holds an A, and x, who cannot tell which card y played,
    knows that y does not know (never_known does not show it: y may have seen an A
    go to z)."""
    h = CardHistory(
        Deck(["A", "B", "C", "D"], [2, 2, 2, 2]),
        {"x": "B C", "y": "A D", "z": "B C D", "w": "A", "pile": ""},
        SEATS,
    )
    h = h.then(Move("A", "y", "pile", seen_by=["y"]), MoveAll("pile", "z", seen_by=["z"]))
    has_z_a = Atom("has", ("z", "A"))
    assert holds(explicit_model(h), "K_y has(z, A)")
    later = h.then(Move("B", "z", "pile", seen_by=["z"]))
    pm = explicit_model(later)
    assert holds(pm, "~K_y has(z, A) & K_x ~K_y has(z, A) & ~K_x has(z, A)")
    assert not never_known(later, "y", has_z_a, within="x")
    assert outplayed(later, "y", has_z_a, within="x")
    assert not outplayed(h, "y", has_z_a, within="x")  # nothing put down yet
    gk = GameKnowledge(later, max_width=1)
    assert gk.holds("K_x ~K_y has(z, A)") is True and gk.route == "counting"


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), plays=st.integers(3, 7))
def test_known_at_least_is_known_on_koth_and_bs_histories(seed, plays):
    lower_bounds(koth_history(seed, plays))
    lower_bounds(bs_history(seed, plays=plays))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_known_at_least_is_known_on_random_histories(seed, copies):
    """Every event kind (reveals and shows to some seats, counts, moves into a seat's
    hand it does not see)."""
    lower_bounds(random_history(seed, copies=copies, events=6))


def test_known_at_least_reads_a_pile_seen_later():
    """x passes its two As to y; y puts a card down unseen by x: x knows one A is left
    at y.  Once x picks the pile up and sees no A in it, x knows both are."""
    h = CardHistory(Deck(["A", "B"], [2, 2]), {"x": "A A", "y": "B B", "pile": ""}, ["x", "y"])
    h = h.then(Move("A A", "x", "y", seen_by=["x", "y"]), Move("B", "y", "pile", seen_by=["y"]))
    assert known_at_least(h, "x", "y", 0) == 1
    seen = h.then(MoveAll("pile", "x", seen_by=["x"]))
    assert known_at_least(seen, "x", "y", 0) == 2
    assert holds(explicit_model(seen), "K_x has(y, A#2)")
    assert not holds(explicit_model(h), "K_x has(y, A#2)")


def test_known_at_least_finds_positive_bounds():
    assert sum(lower_bounds(koth_history(seed, 6)) for seed in (0, 1, 2, 3, 4, 5, 7)) > 40


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), plays=st.integers(3, 7))
def test_tracked_witnesses_on_koth_histories(seed, plays):
    tracked_claims(koth_history(seed, plays))


def test_full_size_koth_states_the_rules_left_open():
    """52-card koth, seed 0: at play 34 ``K_P2 ~K_P3 has(P0, 0)`` is false (a world of
    P2 where P3 played a second 0 into the pile P0 took, which P0 cannot all have put
    down since), decided by counting where the kind quotient ran out of time."""
    from benchmarks.whole_game_knowledge import plays

    h = next(h for k, h in plays("bs-koth", 0) if k == 34)
    gk = GameKnowledge(h)
    assert gk.holds("K_P2 ~K_P3 has(P0, 0)") is False and gk.route == "counting"
    assert gk.holds("C_{P2,P3} has(P0, 0)") is False and gk.route == "counting"
    assert witness_tracked(h, "P2", "P3", Atom("has", ("P0", "0")))


def found_witnesses(h: CardHistory, witness: Any) -> tuple[int, int]:
    """Every world ``witness(h, b, atom)`` finds on ``h`` (atoms ``has(L, C#k)`` for
    every ``k``), checked in the explicit model: the seat then does not know the atom;
    how many, and how many :func:`witness_absent` does not find."""
    pm = None
    n = beyond = 0
    for b in h.agents:
        for loc in h.locations:
            for x, name in enumerate(h.deck.names):
                for k in range(1, h.deck.copies[x] + 1):
                    atom = Atom("has", (loc, name if k == 1 else f"{name}#{k}"))
                    if witness(h, b, atom):
                        pm = pm or explicit_model(h)
                        assert holds(pm, Not(Know(b, atom))), (b, atom.key)
                        n += 1
                        beyond += not witness_absent(h, b, atom)
    return n, beyond


def rerouted_witnesses(h: CardHistory) -> tuple[int, int]:
    """:func:`found_witnesses` of :func:`witness_rerouted`."""
    return found_witnesses(h, witness_rerouted)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), plays=st.integers(3, 7))
def test_rerouted_witnesses_on_koth_and_bs_histories(seed, plays):
    rerouted_witnesses(koth_history(seed, plays))
    rerouted_witnesses(bs_history(seed, plays=plays))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_rerouted_witnesses_on_random_histories(seed, copies):
    rerouted_witnesses(random_history(seed, copies=copies, events=6))


def test_rerouted_witnesses_find_what_the_untouched_trades_do_not():
    found = beyond = 0
    for seed in (0, 1, 2, 3, 4, 5, 8, 9, 10, 11):
        n, m = rerouted_witnesses(koth_history(seed, 6))
        found, beyond = found + n, beyond + m
    assert found >= 15 and beyond >= 5


def test_known_answer_a_copy_seen_going_in_may_have_gone_down():
    """x saw its A go to y; y put a card face down, which z took: x does not know y
    still holds an A (its A may be the card z took), y does."""
    h = CardHistory(
        Deck(["A", "B", "C"], [2, 2, 2]),
        {"x": "A B", "y": "B C", "z": "A C", "pile": ""},
        SEATS,
    )
    h = h.then(
        Move("A", "x", "y", seen_by=["x", "y"]),
        Move("B", "y", "pile", seen_by=["y"]),
        MoveAll("pile", "z", seen_by=["z"]),
    )
    pm = explicit_model(h)
    assert holds(pm, "~K_x has(y, A) & K_y has(y, A)")
    atom = Atom("has", ("y", "A"))
    assert witness_rerouted(h, "x", atom) and not witness_rerouted(h, "y", atom)
    assert not witness_absent(h, "x", atom)


def test_outplayed_counts_from_the_last_move_that_may_bring_a_copy(monkeypatch):
    """Histories (of 300 seeds, 6 plays) where cards came into ``L`` after the last copy
    of ``C`` could: ``L``'s moves unseen by ``b`` since that copy count, and so does every
    later cut-off (fewer marks, fewer moves).  Every claim holds, and with the cut-off at
    the last card of any kind, as before, fewer are made."""
    from games.epistemic import knowledge

    seeds = (5, 23, 29, 30, 58, 70)
    now = sum(outplayed_claims(koth_history(seed, 6))[0] for seed in seeds)
    last = knowledge._last_arrival
    monkeypatch.setattr(
        knowledge, "_last_arrival", lambda h, agent, loc, x, within: last(h, agent, loc)
    )
    monkeypatch.setattr(knowledge, "_cut_offs", lambda h, t0, slots: [t0])
    before = sum(outplayed_claims(koth_history(seed, 6))[0] for seed in seeds)
    assert now >= before + 100


def test_outplayed_reads_a_called_play_as_seen_by_every_seat(monkeypatch):
    """A play put down unseen and then revealed whole (a call) carried, in every world of
    a seat that saw the reveal, the cards shown (:func:`knowledge._learned`): the copies
    left behind are bounded the tighter.  Histories (of 300 seeds, 6 plays) where that
    makes claims: every claim holds, and without it fewer are made."""
    from games.epistemic import knowledge

    seeds = (23, 30, 75, 172, 226, 252)
    now = sum(outplayed_claims(koth_history(seed, 6))[0] for seed in seeds)
    monkeypatch.setattr(knowledge, "_learned", lambda h, within: set())
    before = sum(outplayed_claims(koth_history(seed, 6))[0] for seed in seeds)
    assert now >= before + 6
