"""A card that may have gone another way: the rule
:func:`games.epistemic.knowledge.rerouted` and the formulas it decides.

``rerouted(h, b, has(L, C), within=a)`` claims ``K_a ~K_b has(L, C)``: in every world
of ``a`` where ``C`` lies at ``L``, the card lay at some place when that place put
cards down unseen by ``b``, and one of those cards was never seen by ``b`` again (it
may have passed through other hands since), so the two may have traded ways.
Checked against the explicit model on random BS-like histories (face-down plays,
calls, piles picked up and played from), and at full size on classic BS.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.epistemic import CardHistory, GameKnowledge, Move, MoveAll, explicit_model
from games.epistemic.knowledge import dislodged, never_known, rerouted, swap_unknown
from kripke import holds
from kripke.formulas import Atom, Know, Not
from tests.test_whole_game_dislodged import bs_history, checked_claims
from tests.test_whole_game_swaps import kitty_history


def claims(h: CardHistory) -> tuple[int, int]:
    """Every claim of the rule on ``h`` checked in the explicit model; how many, and how
    many none of :func:`never_known`, :func:`swap_unknown` and :func:`dislodged` makes."""
    made = checked_claims(h, rule)
    new = 0
    for a, b, atom, kn in made:
        new += not (
            never_known(h, b, atom, within=a)
            or swap_unknown(h, b, atom, within=a, knowledge=kn(a))
            or dislodged(h, b, atom, within=a, knowledge=kn(a))
        )
    return len(made), new


def rule(h: CardHistory, b: str, atom: Atom, a: str, counting: object) -> bool:
    return rerouted(h, b, atom, within=a)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), plays=st.integers(4, 9))
def test_what_the_rule_claims_holds_on_bs_histories(seed, plays):
    checked_claims(bs_history(seed, plays=plays), rule)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_what_the_rule_claims_holds_with_counts(seed):
    """Voids after a buried kitty: the rule stops at a count, and what it claims holds."""
    checked_claims(kitty_history(seed, events=6), rule)


def test_the_rule_claims_what_the_others_do_not():
    made = new = 0
    for seed in range(12):
        n, m = claims(bs_history(seed, plays=8))
        made, new = made + n, new + m
    assert made > 300 and new > 30


def test_known_answer_a_card_passed_on_through_another_hand():
    """Everybody sees y receive the A; y puts a card down (z sees it when it picks the
    pile up) and z puts one down too.  z knows y kept the A, x does not know it (the A
    may be the card z put down), and z knows that x does not know, although x saw
    nothing come into y since."""
    h = CardHistory(
        Deck(["A", "B", "C", "D", "E"]),
        {"x": "A", "y": "B C", "z": "D E", "pile": ""},
        ["x", "y", "z"],
    )
    h = h.then(
        Move("A", "x", "y"),
        Move("B", "y", "pile", seen_by=["y"]),
        MoveAll("pile", "z", seen_by=["z"]),
        Move("D", "z", "pile", seen_by=["z"]),
    )
    pm = explicit_model(h)
    assert holds(pm, "K_z has(y, A) & ~K_x has(y, A) & K_z ~K_x has(y, A)")
    atom = Atom("has", ("y", "A"))
    assert not dislodged(h, "x", atom, within="z", knowledge=h.seat_counting("z"))
    assert rerouted(h, "x", atom, within="z")
    gk = GameKnowledge(h, max_width=1, quotient_width=2**62)
    assert gk.holds("K_z ~K_x has(y, A)") is True and gk.route == "counting"
    # x picks up the pile z put its D on: z saw y's card in the pile it picked up and
    # kept it, so the rule follows that card by its kind and still claims
    seen = h.then(MoveAll("pile", "x", seen_by=["x"]))
    assert holds(explicit_model(seen), "K_z ~K_x has(y, A)")
    assert rerouted(seen, "x", atom, within="z")
    # had z played y's card on, x would have seen it: nothing left to trade with the A
    played_on = h.prefix(3).then(
        Move("B", "z", "pile", seen_by=["z"]), MoveAll("pile", "x", seen_by=["x"])
    )
    assert not rerouted(played_on, "x", atom, within="z")


def test_full_size_classic_bs_state_the_rules_left_open():
    """Classic BS, seed 0, play 88: ``K_P3 ~K_P0 has(P1, 5C)``, where the seats' counting
    is a relaxation and the quotient runs out of time, is decided by counting."""
    from benchmarks.whole_game_knowledge import plays

    h = next(h for k, h in plays("bs-classic", 0) if k == 88)
    gk = GameKnowledge(h)
    assert gk.holds("K_P3 ~K_P0 has(P1, 5C)") is True and gk.route == "counting"


def test_cards_put_down_at_several_moves_followed_together():
    """Where no single move leaves a card ``b`` never sees again, the cards of all the
    moves followed together may: the rule then claims more, and each claim holds in the
    explicit model (``checked_claims``)."""
    made = together = 0
    for seed in range(12):
        for plays in (8, 10):
            h = bs_history(seed, plays=plays)
            claims = checked_claims(h, rule)
            made += len(claims)
            together += sum(
                not rerouted(h, b, atom, within=a, together=False) for a, b, atom, _ in claims
            )
    assert made > 1000 and together >= 3, (made, together)


def test_full_size_classic_bs_the_moves_together():
    """52-card classic BS, seed 6, play 52: the 2D, shown and taken back by P2 at event
    16, stayed with P2, who put down 1, 2, 3 and 3 cards unseen at events 23-51.  P1 saw
    the last three in the pile it took; the others went into piles P0 and P3 took, and
    those hands put down 2 + 2 and 3 cards P1 then saw.  No single move leaves a card P1
    surely never saw, the four together do (9 cards, at most 8 seen), so P0 knows P1
    does not know P2 holds the 2D.  The local card quotient gives the same answer in
    about 70 s."""
    from benchmarks.whole_game_knowledge import plays

    h = next(h for k, h in plays("bs-classic", 6) if k == 52)
    atom = Atom("has", ("P2", "2D"))
    assert rerouted(h, "P1", atom, within="P0")
    assert not rerouted(h, "P1", atom, within="P0", together=False)
    gk = GameKnowledge(h)
    assert gk.holds("K_P0 ~K_P1 has(P2, 2D)") is True and gk.route == "counting"


def test_cards_put_down_split_and_some_seen_whole_by_the_outer_seat():
    """y (publicly given the A) puts two cards down unseen; w picks them up and passes
    one on face down to a pile z picks up (seeing the B); then w and z each play a card
    face up.  z knows the B stays in its hand: of the two cards y put down only w's
    face-up card may have been seen by x, so one is left to have traded ways with the
    A.  Followed only as a number, z's face-up card could have been that B as well."""
    deck = Deck(["A", "B", "C", "D", "E", "F"])
    h = CardHistory(
        deck,
        {"x": "A E", "y": "B C", "z": "D", "w": "F", "pile": "", "pile2": "", "up": ""},
        ["x", "y", "z", "w"],
    )
    h = h.then(
        Move("A", "x", "y"),
        Move("B C", "y", "pile", seen_by=["y"]),
        MoveAll("pile", "w", seen_by=["w"]),
        Move("B", "w", "pile2", seen_by=["w"]),
        MoveAll("pile2", "z", seen_by=["z"]),
        Move("C", "w", "up"),
        Move("D", "z", "up"),
    )
    has_y_a = Atom("has", ("y", "A"))
    assert rerouted(h, "x", has_y_a, within="z")
    assert not never_known(h, "x", has_y_a, within="z")  # x saw the A go to y
    pm = explicit_model(h)
    assert holds(pm, Know("z", Not(Know("x", has_y_a))))
    assert GameKnowledge(h).holds("K_z ~K_x has(y, A)")
