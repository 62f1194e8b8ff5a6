"""A card that may since have gone face down: the rule
:func:`games.epistemic.knowledge.dislodged` and the formulas it decides.

``dislodged(h, b, has(L, C#k), within=a, ...)`` claims ``K_a ~K_b has(L, C#k)``
(with ``within=b``: ``~K_b has(L, C#k)``): after the last cards came into ``L``,
``L`` put down enough cards ``b`` never saw.  Checked against the explicit model
on random BS-like histories (face-down plays, calls that show a play, piles
picked up), and at full size, where classic BS and koth states the counting
knowledge holds only as a relaxation are decided.
"""

from __future__ import annotations

import functools
import random
from typing import Any

from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from games.cards import Deck
from games.epistemic import CardHistory, GameKnowledge, Move, MoveAll, Reveal, explicit_model
from games.epistemic.knowledge import dislodged, never_known
from kripke import holds
from kripke.errors import SizeLimitError
from kripke.formulas import Atom, Know, Not
from tests.test_whole_game_facts import claim_history
from tests.test_whole_game_swaps import SEATS, dealt, kitty_history, shuffled


def bs_history(seed: int, plays: int = 5) -> CardHistory:
    """Three seats and a small deck (copies or not); each turn a seat puts one or two
    cards face down on ``play``; the play is either called (shown to everybody and
    taken, seen, by the caller or the player) or gathered into ``pile``, which a
    seat sometimes picks up."""
    rng = random.Random(seed)
    n = rng.randint(3, 5)
    names = [chr(ord("A") + i) for i in range(n)]
    copies = [rng.choice([1, 2]) if seed % 2 else 1 for _ in names]
    deck, cards = shuffled(rng, names, copies, 9)
    h = CardHistory(deck, {**dealt(cards), "play": "", "pile": ""}, SEATS)
    return bs_plays(h, rng, plays)


def bs_plays(
    h: CardHistory,
    rng: random.Random,
    plays: int,
    pickup: float = 0.8,
    *,
    called: float = 0.3,
    note: Any = None,
) -> CardHistory:
    """``h`` (the seats' hands, an empty ``play`` and ``pile``) after ``plays`` turns: a
    seat puts one or two cards face down on ``play``, which is called (``called`` of the
    turns: shown to everybody and taken, seen, by a seat) or gathered into ``pile``,
    which a seat then picks up (seeing it) when the turn's draw is above ``pickup``.
    ``note(h, rng)``: the history after the pile is gathered, with public notes added."""
    for t in range(plays):
        seat = SEATS[t % 3]
        cur = h.content()[seat]
        if not cur:
            continue
        k = rng.randint(1, min(2, len(cur)))
        h = h.then(Move(rng.sample(list(cur), k), seat, "play", seen_by=[seat]))
        r = rng.random()
        if r < called:
            taker = rng.choice(SEATS)
            h = h.then(Reveal("play"), MoveAll("play", taker, seen_by=[taker]))
        else:
            h = h.then(MoveAll("play", "pile"))
            if note is not None:
                h = note(h, rng)
            if r > pickup and h.content()["pile"]:
                taker = rng.choice(SEATS)
                h = h.then(MoveAll("pile", taker, seen_by=[taker]))
    return h


def checked_claims(h: CardHistory, rule: Any) -> list[tuple[str, str, Any, Any]]:
    """Every ``(a, b, atom, counting)`` where ``rule(h, b, atom, a, counting)`` claims
    ``K_a ~K_b atom``, each checked in the explicit model (``counting(seat)``: that
    seat's counting knowledge, kept).  A history too large for the explicit model (a
    random one, now and then) is not a test case: rejected."""
    try:
        pm = explicit_model(h)
    except SizeLimitError:
        reject()
    counting = functools.cache(h.seat_counting)  # each seat's, counted when first asked
    out = []
    for b in h.agents:
        for atom in (Atom("has", (loc, c)) for loc in h.locations for c in h.deck.names):
            for a in h.agents:
                if rule(h, b, atom, a, counting):
                    assert holds(pm, Know(a, Not(Know(b, atom)))), (a, b, atom.key)
                    out.append((a, b, atom, counting))
    return out


def claims(h: CardHistory) -> tuple[int, int]:
    """Every claim of the rule on ``h`` checked in the explicit model; how many, and how
    many :func:`never_known` does not make."""
    made = checked_claims(
        h, lambda h, b, atom, a, kn: dislodged(h, b, atom, within=a, knowledge=kn(a))
    )
    return len(made), sum(not never_known(h, b, atom, within=a) for a, b, atom, _ in made)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_what_the_rule_claims_holds_on_bs_histories(seed):
    claims(bs_history(seed))


def test_the_rule_claims_where_the_seat_saw_the_card_go():
    made = new = 0
    for seed in range(40):
        n, m = claims(bs_history(seed))
        made, new = made + n, new + m
    assert made > 30 and new > 10


def test_known_answer_a_card_picked_up_then_a_card_put_down():
    """x plays its A face down and y picks the pile up: x knows y holds the A.  Once y
    has put a card face down that x did not see, x no longer knows (the A may be
    the card y put down), and z, who saw none of it, knows that x does not know."""
    h = CardHistory(
        Deck(["A", "B", "C", "D", "E"]), {"x": "A B", "y": "C D", "z": "E", "pile": ""}, SEATS
    )
    h = h.then(Move("A", "x", "pile", seen_by=["x"]), MoveAll("pile", "y", seen_by=["y"]))
    pm = explicit_model(h)
    assert holds(pm, "K_x has(y, A)")
    later = h.then(Move("C", "y", "pile", seen_by=["y"]))
    pm = explicit_model(later)
    assert holds(pm, "~K_x has(y, A) & K_z ~K_x has(y, A)")
    atom = Atom("has", ("y", "A"))
    assert not never_known(later, "x", atom, within="z")
    assert dislodged(later, "x", atom, within="z", knowledge=later.seat_counting("z"))
    gk = GameKnowledge(later, max_width=1, quotient_width=2**62)
    assert gk.holds("K_z ~K_x has(y, A)") is True and gk.route == "counting"


def test_full_size_bs_states_the_relaxed_counting_left_open():
    """Classic BS (seed 0), play 56 on: the benchmark's ``K_a ~K_b has(c, X)`` is answered
    by counting at several states where the quotient ran out of time."""
    from benchmarks.whole_game_knowledge import pick_query, plays

    answered = 0
    for k, h in plays("bs-classic", 0):
        if k > 96:
            break
        if k < 56 or k % 8:
            continue
        q = pick_query(h, k // 8)
        gk = GameKnowledge(h)
        f = gk.formula(q["formulas"][0])
        if gk._by_counting(f) is not None:
            answered += 1
    assert answered >= 2


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_what_the_rule_claims_holds_with_counts_after_the_cards_went_down(seed):
    """Counts after the cards went down (voids of the trick-taking play after a buried
    kitty; BS-ZPY-like claims and voids, read as counts) restrict the trade to kinds
    they treat alike; every claim holds in the explicit model."""
    claims(kitty_history(seed, events=6))
    claims(claim_history(seed).facts_as_counts())


def test_the_rule_claims_with_counts():
    made = 0
    for seed in range(20):
        made += claims(kitty_history(seed, events=6))[0]
        made += claims(claim_history(seed).facts_as_counts())[0]
    assert made > 10


class _NoCounting:
    """A seat's counting knowledge whose bounds answer and whose counting may not run."""

    def __init__(self, kn: Any) -> None:
        self.kn = kn

    def count_range(self, cards: Any, locations: Any) -> tuple[int, int]:
        return self.kn.count_range(cards, locations)

    def count_distribution(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("counted although the bounds were enough")


def test_the_rule_reads_the_bounds_before_counting():
    """Where the most copies the cell bounds allow at ``L`` and the places the cards went
    are already no more than the cards put down, no counting is asked (on full-size koth
    a seat's counting with many joint constraints took 2.8 s for that distribution)."""
    h = CardHistory(
        Deck(["A", "B", "C", "D", "E"]), {"x": "A B", "y": "C D", "z": "E", "pile": ""}, SEATS
    )
    h = h.then(
        Move("A", "x", "pile", seen_by=["x"]),
        MoveAll("pile", "y", seen_by=["y"]),
        Move("C", "y", "pile", seen_by=["y"]),
    )
    atom = Atom("has", ("y", "A"))
    assert dislodged(h, "x", atom, within="z", knowledge=_NoCounting(h.seat_counting("z")))
