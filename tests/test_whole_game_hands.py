"""Knowledge about a hand where every card is played face up: the rule
:func:`games.epistemic.hands.hand_unknown` (Hall's condition over groups of cards).

``hand_unknown(h, b, has(L, C), within=a, knowledge=...)`` claims ``K_a ~K_b has(L, C)``.
Every claim is checked against the explicit model on random trick-taking
histories (voids announced, a kitty buried by one seat, a card shown to all or to
one seat), and the rule makes claims the older rules do not.  At full size it
answers ZPY states the kind quotient refused and that no other rule settled.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.epistemic import CardHistory, GameKnowledge, Move, MoveAll, Show, explicit_model
from games.epistemic.hands import hand_known, hand_knows_probability, hand_unknown
from games.epistemic.knowledge import never_known, swap_unknown
from kripke import holds
from kripke.errors import SizeLimitError
from kripke.formulas import Atom, Know, Not
from tests.test_whole_game_dislodged import checked_claims
from tests.test_whole_game_swaps import kitty_history, suit_history


def rule(h: CardHistory, b: str, atom: Atom, a: str, counting) -> bool:
    return hand_unknown(h, b, atom, within=a, knowledge=counting(a))


def claims(h: CardHistory) -> tuple[int, int]:
    """Every claim checked in the explicit model; how many, and how many neither
    :func:`never_known` nor :func:`swap_unknown` makes."""
    made = checked_claims(h, rule)
    new = sum(
        not (
            never_known(h, b, atom, within=a) or swap_unknown(h, b, atom, within=a, knowledge=kn(a))
        )
        for a, b, atom, kn in made
    )
    return len(made), new


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_what_the_rule_claims_holds_with_a_kitty(seed):
    claims(kitty_history(seed, events=6))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_what_the_rule_claims_holds_with_voids(seed):
    claims(suit_history(seed, events=7))


def test_the_rule_claims_what_the_older_rules_do_not():
    made = new = 0
    for seed in range(30):
        n, m = claims(kitty_history(seed, events=6))
        made, new = made + n, new + m
    assert made > 100 and new > 10


def test_known_answer_the_last_two_unseen_cards():
    """z takes the kitty and buries an AS and a QH; six cards are played face up.  x is
    left with a KS, y with the AH.  z knows the kitty and every card played, so of the
    cards it has not seen two are left, one at x and one at y: the KS and the AH, either
    way round.  In every world of x, z holds no card and the two it cannot place are
    x's and y's: z cannot know that x holds a KS, and x knows it.  The older rules do
    not see it (z saw the other KS, played face up)."""
    deck = Deck(["AS", "KS", "QS", "AH", "KH", "QH"], [2, 2, 1, 1, 2, 2])
    h = CardHistory(
        deck,
        {"x": "AS KS KH", "y": "QS AH KH", "z": "KS QH", "kitty": "AS QH", "trick": ""},
        ["x", "y", "z"],
    )
    h = h.then(MoveAll("kitty", "z", seen_by=["z"]), Move("QH AS", "z", "kitty", seen_by=["z"]))
    for card, seat in zip(["KH", "KH", "QH", "AS", "QS", "KS"], "xyzxyz", strict=True):
        h = h.then(Move(card, seat, "trick"))
    has_x_ks = Atom("has", ("x", "KS"))
    kn = h.seat_counting("x")
    assert hand_unknown(h, "z", has_x_ks, within="x", knowledge=kn)
    assert not never_known(h, "z", has_x_ks, within="x")
    assert not swap_unknown(h, "z", has_x_ks, within="x", knowledge=kn)
    assert holds(explicit_model(h), "K_x ~K_z has(x, KS)")
    # y shows its AH to everybody: z then knows the KS is x's, and the rule does not claim
    shown = h.then(Show("y", "AH"))
    kn = shown.seat_counting("x")
    assert not hand_unknown(shown, "z", has_x_ks, within="x", knowledge=kn)
    assert holds(explicit_model(shown), "K_z has(x, KS)")


def test_full_size_zpy_states_only_this_rule_settles():
    """ZPY, 5 seats, seed 7 plays 32-41: the benchmark's ``K_a ~K_b has(c, X)``, which the
    kind quotient refused (too many states) and no older rule settled, is true by
    counting through this rule."""
    from benchmarks.whole_game_knowledge import pick_query, plays

    answered = 0
    for k, h in plays("zpy5", 7):
        if k > 41:
            break
        if k not in (32, 36, 41):
            continue
        q = pick_query(h, k)
        gk = GameKnowledge(h)
        f = q["formulas"][0]
        assert gk.holds(f) is True and gk.route == "counting", (k, f)
        answered += 1
    assert answered == 3


# ------------------------------------------------------------ probabilities
def probability_pairs(h: CardHistory):
    """``(a, b, atom, exact, structure)`` for every ``K_b has(L, C)`` whose probability for
    ``a`` :func:`hand_knows_probability` gives, beside the structure's."""
    gk = GameKnowledge(h)
    for a in h.agents:
        kn = h.seat_counting(a)
        for b in h.agents:
            for loc in h.locations:
                for card in h.deck.names:
                    atom = Atom("has", (loc, card))
                    p = hand_knows_probability(h, b, atom, within=a, knowledge=kn)
                    if p is not None:
                        yield a, b, atom, p, gk.probability(a, f"K_{b} {atom.key}")


def test_probabilities_of_knowledge_agree_with_the_structure():
    """On small face-up histories every probability the rule gives is the structure's
    (the measure of :meth:`GameKnowledge.probability`), many strictly between 0 and 1."""
    mixed = 0
    for seed in range(25):
        for h in (suit_history(seed, events=2), kitty_history(seed, events=3)):
            for a, b, atom, p, want in probability_pairs(h):
                assert p == want, (seed, a, b, atom.key)
                mixed += 0 < p < 1
    assert mixed > 25


def test_game_knowledge_gives_them_when_the_structure_is_refused():
    """x and y each play a KH face up: for x, y knows that z holds a KS unless y holds
    the other KS (2/3); with the structure refused the same probability comes by counting."""
    deck = Deck(["AS", "KS", "AH", "KH"], [1, 2, 1, 2])
    h = CardHistory(deck, {"x": "KS KH", "y": "KS KH", "z": "AS AH", "trick": ""}, ["x", "y", "z"])
    h = h.then(Move("KH", "x", "trick"), Move("KH", "y", "trick"))
    want = GameKnowledge(h).probability("x", "K_y has(z, KS)")
    refused = GameKnowledge(h, max_width=1)
    assert want == refused.probability("x", "K_y has(z, KS)") == Fraction(2, 3)
    assert refused.probability("x", "~K_y has(z, KS)") == Fraction(1, 3)
    assert refused.probability("z", "K_y has(y, KS)") == refused.probability("z", "has(y, KS)")


def test_full_size_zpy_probability_agrees_with_sampled_deals():
    """ZPY, 5 seats, seed 3 play 50: P0's probability that P1 (who buried the kitty) knows
    P2 holds a 10S is exact, strictly between 0 and 1; deals drawn from P0's counting,
    each read by P1's own exact counting (the public's, with P1's hand and the kitty
    revealed), agree with it within four standard deviations."""
    import numpy as np

    from benchmarks.whole_game_knowledge import plays
    from games.epistemic.knowledge import PUBLIC

    h = next(h for k, h in plays("zpy5", 3) if k == 50)
    gk = GameKnowledge(h)
    p = gk.probability("P0", "K_P1 has(P2, 10S)")
    assert isinstance(p, Fraction) and 0.25 < p < 0.35
    atom = Atom("has", ("P2", "10S"))
    mine, public = gk._seat_counting("P0"), gk._seat_counting(PUBLIC)
    rng = np.random.default_rng(7)
    n, hits = 300, 0
    for _ in range(n):
        deal = mine.sample_deal(rng)
        theirs = public.copy()
        theirs.reveal("P1", deal["P1"])
        theirs.reveal("kitty", deal["kitty"])
        hits += theirs.knows(atom)
    assert abs(hits / n - float(p)) < 4 * (float(p) * (1 - float(p)) / n) ** 0.5


# ------------------------------------------------------------ the other way
def known_claims(h: CardHistory) -> int:
    """Every world :func:`hand_known` finds checked in the explicit model (``M_a K_b``
    holds); how many."""
    try:
        pm = explicit_model(h)
    except SizeLimitError:
        return 0
    n = 0
    for a in h.agents:
        kn = h.seat_counting(a)
        for b in h.agents:
            for atom in (Atom("has", (m, c)) for m in h.locations for c in h.deck.names):
                if hand_known(h, b, atom, within=a, knowledge=kn):
                    assert holds(pm, Not(Know(a, Not(Know(b, atom))))), (a, b, atom.key)
                    n += 1
    return n


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_a_world_where_b_knows_is_one_of_a(seed):
    known_claims(kitty_history(seed, events=4))


def test_the_witness_and_the_rule_never_both_claim_and_find_worlds():
    """Where the rule claims no world of ``a`` lets ``b`` know, no such world is found, and
    on these histories every such world the explicit model has is found by one of the two
    deciding at all (together they decide every face-up ``K_a ~K_b has(c, X)`` read here)."""
    found = 0
    for seed in range(20):
        h = suit_history(seed, events=3)
        pm = explicit_model(h)
        for a in h.agents:
            kn = h.seat_counting(a)
            for b in h.agents:
                for atom in (Atom("has", (m, c)) for m in h.agents for c in h.deck.names):
                    if m_in(h, atom, b) or a == b:
                        continue
                    known = hand_known(h, b, atom, within=a, knowledge=kn)
                    unknown = hand_unknown(h, b, atom, within=a, knowledge=kn)
                    assert not (known and unknown)
                    assert known or unknown, (seed, a, b, atom.key)
                    assert holds(pm, Know(a, Not(Know(b, atom)))) == unknown
                    found += known
    assert found > 20


def m_in(h: CardHistory, atom: Atom, b: str) -> bool:
    """Whether the atom is about ``b``'s own place (it always knows those)."""
    return atom.args[0] in h.owns[b]


def test_full_size_zpy_states_false_by_a_world_found():
    """ZPY, 5 seats, seed 0 play 50: ``K_P0 ~K_P1 has(P2, 10C)`` is false, by a world of P0
    where P1 holds a single card of the group that decides it (the kind quotient refused
    the state)."""
    from benchmarks.whole_game_knowledge import pick_query, plays

    h = next(h for k, h in plays("zpy5", 0) if k == 50)
    gk = GameKnowledge(h)
    q = pick_query(h, 50)
    assert q["formulas"][0] == "K_P0 ~K_P1 has(P2, 10C)"
    assert gk.holds(q["formulas"][0]) is False and gk.route == "counting"


def test_face_up_histories_ask_this_rule_before_the_swaps(monkeypatch):
    """ZPY, 5 seats, seed 11 play 34: the benchmark's ``K_P4 ~K_P0 has(P1, 10C)`` is true by
    this rule, which counts a few groups of kinds (milliseconds); the swaps of
    :func:`swap_unknown` count the fewest copies of some 40 kinds at each place a partner
    may lie and do not settle it (over a second).  The rule is asked first, so the swaps
    are not asked at all."""
    import games.epistemic.knowledge as knowledge
    from benchmarks.whole_game_knowledge import pick_query, plays

    h = next(h for k, h in plays("zpy5", 11) if k == 34)
    q = pick_query(h, 34)
    f = q["formulas"][0]
    assert f == "K_P4 ~K_P0 has(P1, 10C)"
    asked = []
    swaps = knowledge.swap_unknown
    monkeypatch.setattr(
        knowledge, "swap_unknown", lambda *a, **k: asked.append(a) or swaps(*a, **k)
    )
    gk = GameKnowledge(h)
    assert gk.holds(f) is True and gk.route == "counting"
    assert asked == []
    assert hand_unknown(
        h, "P0", Atom("has", ("P1", "10C")), within="P4", knowledge=h.seat_counting("P4")
    )


def test_several_groups_deciding_knowledge_are_weighed_jointly():
    """Where more than one group of kinds decides whether b knows (Hall's condition
    failing for several sets of places), the probability is read from their joint
    count: on small face-up histories it is the structure's, and such cases occur."""
    from games.epistemic.hands import _hall_events

    several = 0
    for seed in range(40):
        for h in (suit_history(seed, events=2), kitty_history(seed, events=3)):
            for a, b, atom, p, want in probability_pairs(h):
                assert p == want, (seed, a, b, atom.key)
                read = _hall_events(h, b, atom, within=a)
                several += read is not None and len({k for k, _ in read[1]}) > 1 and 0 < p < 1
    assert several >= 3


def test_zpy_late_probability_of_knowledge_by_several_groups():
    """ZPY seed 1 play 75 (the kitty buried by P2): P0's probability that P1 knows P2
    holds a 2D is decided by three nested groups of kinds; it was refused before."""
    from benchmarks.whole_game_knowledge import plays

    h = next(h for k, h in plays("zpy5", 1) if k == 75)
    gk = GameKnowledge(h, max_width=1)  # the structure refused: counting alone
    p = gk.probability("P0", "K_P1 has(P2, 2D)")
    assert 0 < p < gk.probability("P0", "has(P2, 2D)")
    assert gk.probability("P0", "~K_P1 has(P2, 2D)") == 1 - p
