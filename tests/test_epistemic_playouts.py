"""Random legal playouts of every game, a random depth-2 formula at a random depth.

For each full-size game a seeded random playout stops after a random number of
actions; ``state.knowledge()`` must answer a random formula of modal depth <= 2
over the cards (K, M, Kw, E, C, D, announcements) without a
:class:`~kripke.errors.SizeLimitError`, and agree with exact counting
(:mod:`games.deal`) wherever counting decides: every formula of depth 1 over the
cards, and the seats' probabilities of formulas about the cards.

Where today's routes stop (measured with these playouts):

* BS classic (52 cards, no copies): exact counting first, then the
  card-symmetry quotient (before the structure at every width).  Measured with
  ``random_formula`` (three depth-2 formulas a state, a 20-30 s budget a
  state): every formula answered at the deal and after 5, 10, 20, 30, 40, 60
  and 80 actions (5-10 seeds each, worst 0.5 s CPU); after 100 actions 2 of 10
  states ran out of the budget.  The default run goes to 60 actions, the slow
  run to 80.  (Before the quotient came first, 2 of 5 states at the deal and
  after 5 actions ran out of it on the structure: ``E`` or ``C`` over four
  seats, 10-60 s.)
* BS koth (copies): exact counting first (it reads "at least k copies" atoms
  from the copies' distribution and the cell bounds; where a seat's counting
  drops constraints, the integer program of its worlds decides depth-1
  knowledge, :mod:`games.epistemic.program`), then the structure, refused
  after about four face-down plays, then the kind quotient
  (:mod:`games.epistemic.kinds`).  Measured with ``random_formula`` (6 seeds,
  three formulas a state, 10 s a formula): every formula at the deal and after
  5 actions; 17 of 18 after 10, 20 and 40 actions and 15 of 18 after 80 before
  the program, 18 of 18 after 80 and after 160 with it (worst 0.4 s CPU).  At
  random depths from 0 to 160 (150 playouts, two formulas each, 60 s a state),
  19 states had a formula refused; with the formulas simplified first
  (:meth:`~games.epistemic.GameKnowledge._simpler`: announcements reduced away,
  S5 introspection, what a seat sees) and worlds drawn from the seats' integer
  programs as witnesses, 148 of the 150 answer (left: ``C_G Kw_c p`` with ``c``
  outside ``G``, and ``Kw_a M_b p``, which asks every world of ``a``), which is
  why koth stays out of the default run.  The first-order check costs at most
  2 s a state: a probability of a formula about the cards comes from the seat's
  exact counting (it took 10-220 s a state in the first 20 actions on the
  structure).  The slow run draws 0 to 160 actions; where a seat's counting
  dropped constraints, only its "knows" is compared.
* BoerenBridge (face-up play): every state of whole games, by counting or on
  the structure.
* Shengji / ZPY (two decks): the structure is refused from the deal (the kitty
  is exchanged face down, the hands are large); exact counting answers depth-1
  formulas at every depth (slow run), and ``K_a ~K_b has(c, X)`` by Hall's
  condition (:mod:`games.epistemic.hands`).  The same measurement: ZPY every
  formula at the deal and after 5 actions, 17 of 18 after 10 to 80; Shengji
  (tractor) 18 of 18 at every depth to 80, but at random depths up to 80 (40
  seeds, two formulas each, 30 s a formula) 66 of 80 (``D_G`` and ``C_G`` of
  formulas that are not one card atom, ``Kw`` over them).  The depth-2 test is
  ``xfail`` (slow run).
* BS-ZPY (two decks, claims announced true or false as facts, which counting
  takes as bounds and disjunctions of counts): every formula at the deal and
  after 5 to 40 actions, 16 of 18 after 80; at random depths up to 20 (40
  seeds) 78 of 80 (``Kw_b D_G`` and ``Kw_b C_G`` refused).  The depth-2 test is
  ``xfail`` (slow run).

The default run keeps BS classic and BoerenBridge (3 playouts each); the
koth, Shengji/ZPY and ``xfail`` playouts run with ``-m slow``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games.boerenbridge  # noqa: F401  (registers the game)
import games.bs  # noqa: F401
import games.bs_zpy  # noqa: F401
import games.shengji  # noqa: F401
from games.base import State, load_game, sample_chance
from games.bs import CALL, PASS
from games.epistemic import Fact
from games.errors import InvalidParameterError
from kripke.errors import SizeLimitError
from kripke.formulas import And, Atom, Not, Or
from tests.test_epistemic import random_formula


# ------------------------------------------------------------------ playouts
def _dealt(s: State) -> bool:
    try:
        s.card_history()
    except InvalidParameterError:
        return False
    return True


def playout(name: str, seed: int, actions: int, **params: Any) -> State:
    """A seeded random legal playout of a full-size game: ``actions`` actions, then on
    to the next state with dealt cards; when the game ends first, the same playout
    stopped one action earlier.  BS plays one or two random cards of the hand and
    calls a third of the time (its legal actions list every subset)."""
    game = load_game(name, **params)
    rng = random.Random(seed)
    s: Any = game.new_initial_state()
    done = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(sample_chance(s, rng))
            continue
        if done >= actions and _dealt(s):
            return s
        if name == "bs":
            if s.phase == "call":
                s.apply_action(CALL if rng.random() < 0.3 else PASS)
            else:
                p = s.current_player()
                hand = list(s.hands[p])
                k = 1 if s.phase == "first" else min(len(hand), rng.choice([1, 1, 2]))
                s.apply_play(p, rng.sample(hand, k))
        else:
            s.apply_action(rng.choice(list(s.legal_actions())))
        done += 1
    if _dealt(s):
        return s
    return playout(name, seed, min(actions, done) - 1, **params)


def check_state(s: State, rng: random.Random, formulas: int = 2) -> list[str]:
    """Random depth-2 formulas answered, and exact counting agreeing; the routes used."""
    h = s.card_history()
    gk = s.knowledge()
    countable = not any(isinstance(e, Fact) for e in h.events)
    routes = []
    for _ in range(formulas):
        f = random_formula(rng, h, 2)
        got = gk.holds(f)  # no SizeLimitError
        routes.append(gk.route)
        if countable:
            decided = gk._by_counting(gk.formula(f))
            assert decided is None or decided == got, str(f)
    if countable:
        check_first_order(s, rng)
    return routes


def check_first_order(s: State, rng: random.Random) -> None:
    """Depth-1 knowledge and probabilities of card formulas equal exact counting's."""
    h = s.card_history()
    gk = s.knowledge()
    ds = h.deal_state()
    plain = [a for a in h.atoms() if "#" not in a]
    for seat in h.agents:
        x, y = (Atom("has", tuple(rng.choice(plain)[4:-1].split(", "))) for _ in range(2))
        f = Or((x, Not(y))) if rng.random() < 0.5 else And((x, y))
        kn = ds.knowledge(seat)
        if kn.exact or kn.knows(f):  # else counting dropped a constraint: only "knows" is sure
            assert gk.knows(seat, f) == kn.knows(f), (seat, str(f))
        p = kn.probability_of(f, exact=True)
        if kn.exact:
            assert gk.probability(seat, f) == p, (seat, str(f))


#: game -> (load_game name, parameters, most actions after the deal in the default run)
ANSWERED = {
    "bs-classic": ("bs", {"variant": "classic"}, 60),
    "bs-koth": ("bs", {"variant": "koth"}, 160),
    "boerenbridge": ("boerenbridge", {}, 700),
}

#: game -> fewest actions in the playouts (none left: the first-order check of koth's
#: early states took 10-220 s while probabilities were weighed on the structure)
FEWEST: dict[str, int] = {}


@pytest.mark.parametrize("game", ["bs-classic", "boerenbridge"])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), depth=st.floats(0, 1))
def test_random_playouts_answer_depth_2_formulas(game, seed, depth):
    name, params, most = ANSWERED[game]
    least = FEWEST.get(game, 0)
    s = playout(name, seed, least + int(depth * (most - least)), **params)
    check_state(s, random.Random(seed))


@pytest.mark.slow
@pytest.mark.parametrize("game,most", [("bs-classic", 80), ("bs-koth", 160), ("boerenbridge", 700)])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), depth=st.floats(0, 1))
def test_random_playouts_answer_depth_2_formulas_long(game, most, seed, depth):
    name, params, _ = ANSWERED[game]
    least = FEWEST.get(game, 0)
    s = playout(name, seed, least + int(depth * (most - least)), **params)
    check_state(s, random.Random(seed), formulas=4)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["tractor", "zpy"])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), depth=st.integers(0, 150))
def test_shengji_playouts_agree_with_counting_at_depth_1(variant, seed, depth):
    """Two decks: depth-1 knowledge and probabilities at every depth, by exact counting."""
    s = playout("shengji", seed, depth, variant=variant)
    check_first_order(s, random.Random(seed))


# ------------------------------------------------------- where the routes stop
REFUSED = (
    "today's routes refuse it: the structure is too wide, the kind quotient exceeds its "
    "limit, and exact counting decides only some depth-2 formulas (issue 15, "
    "representation half)"
)


@pytest.mark.slow
@pytest.mark.xfail(raises=SizeLimitError, strict=False, reason=REFUSED)
@pytest.mark.parametrize(
    "name,params,actions",
    [
        ("bs", {"variant": "koth"}, 20),
        ("shengji", {"variant": "tractor"}, 40),
        ("shengji", {"variant": "zpy"}, 40),
        ("bs-zpy", {}, 40),
    ],
    ids=["bs-koth-20", "shengji-40", "zpy-40", "bs-zpy-40"],
)
def test_depth_2_formulas_beyond_todays_routes(name, params, actions):
    """A C formula over a card some seat is unsure of, with two nested knowledge
    operators: what the representation half of issue 15 is to answer."""
    s = playout(name, 1, actions, **params)
    h = s.card_history()
    a, b = h.agents[0], h.agents[1]
    loc = next(x for x in h.agents[2:] if h.content()[x])
    card = h.content()[loc][0]
    group = "{" + ",".join(h.agents) + "}"
    gk = s.knowledge()
    gk.holds(f"K_{a} ~K_{b} has({loc}, {card}) | C_{group} has({loc}, {card})")


def test_a_false_announcement_is_settled_before_the_structure():
    """``[!p] q`` holds and ``<!p> q`` fails wherever ``p`` is false, whatever ``q``: at
    the deal of a 52-card BS game (seed 3539, found by the playout test above), the
    announcement of common knowledge among all four seats is false by counting, and the
    structure, which took minutes for it, is not asked."""
    name, params, _ = ANSWERED["bs-classic"]
    gk = playout(name, 3539, 0, **params).knowledge()
    announced = "C_{P0,P2,P3,P1} has(P0, KH)"
    assert gk.holds(announced) is False
    assert gk.holds(f"[!{announced}] <!has(P1, AS)> has(pile, QC)") is True
    assert gk.holds(f"<!{announced}> has(pile, QC)") is False
    assert gk.route == "counting"
