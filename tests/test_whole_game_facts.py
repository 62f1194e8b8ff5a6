"""Public facts in exact counting: :meth:`CardHistory.fact_bounds`.

A fact (BS-ZPY's "the claim was true", "the play was valid") is read as
bounds on the copies of each card at each location, negations pushed inwards
and disjunctions simplified by the bounds; where no clause is left over,
counting takes the fact exactly.  Checked on random formulas against every
count of the cells they name, and on random histories with such facts against
the explicit model.
"""

from __future__ import annotations

import itertools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.deal import evaluate
from games.epistemic import CardHistory, Fact, GameKnowledge, Move, MoveAll, explicit_model
from kripke import holds
from kripke.formulas import TOP, And, Implies, Know, Not, Or
from tests.test_epistemic import card_atom, random_history
from tests.test_whole_game_groups import counting_agrees
from tests.test_whole_game_ignorance import all_atoms
from tests.test_whole_game_swaps import SEATS, dealt, shuffled


def random_fact(rng: random.Random, h: CardHistory, depth: int = 3):
    """A random propositional formula over ``h``'s card atoms (and, or, not, implies)."""
    if depth == 0 or rng.random() < 0.3:
        return TOP if rng.random() < 0.05 else card_atom(rng, h)
    r = rng.random()
    if r < 0.3:
        return Not(random_fact(rng, h, depth - 1))
    if r < 0.8:
        parts = tuple(random_fact(rng, h, depth - 1) for _ in range(rng.randint(2, 3)))
        return And(parts) if rng.random() < 0.5 else Or(parts)
    return Implies(random_fact(rng, h, depth - 1), random_fact(rng, h, depth - 1))


def true_fact(rng: random.Random, h: CardHistory):
    """A random fact true in ``h``: the conjunction of some true literals, a negated
    disjunction of false atoms and a random formula that happens to hold."""
    atoms = [card_atom(rng, h) for _ in range(6)]
    lits = [a if h._holds_now(a) else Not(a) for a in atoms[:3]]
    false = [a for a in atoms[3:] if not h._holds_now(a)]
    parts = [*lits]
    if len(false) >= 2:
        parts.append(Not(Or(tuple(false))))
    for _ in range(10):
        g = random_fact(rng, h, 2)
        if h._holds_now(g):
            parts.append(g)
            break
    return And(tuple(parts)) if len(parts) >= 2 else parts[0]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_fact_bounds_follow_from_the_fact_and_state_it_when_nothing_is_left(seed, copies):
    """On every count of the cells a random formula names: the formula implies its
    bounds, and where no clause is left over the bounds imply the formula."""
    rng = random.Random(seed)
    h = random_history(seed, copies=copies, events=0)
    f = random_fact(rng, h)
    bounds, rest = h.fact_bounds(f)
    cells = sorted({h.atom_cell(a)[:2] for a in f.atoms()})
    for values in itertools.product(*(range(h.deck.copies[k] + 1) for _, k in cells)):
        count = dict(zip(cells, values, strict=True))

        def value(a, count=count):
            loc, k, j = h.atom_cell(a)
            return count[loc, k] >= j

        truth = evaluate(f, value)
        within = all(lo <= count.get(c, lo) <= hi for c, (lo, hi) in bounds.items())
        assert set(bounds) <= set(cells)
        if truth:
            assert within, (str(f), count)
        elif rest == 0:
            assert not within, (str(f), count)


def test_fact_bounds_of_a_follow_rule():
    """BS-ZPY's follow rule after a pair was led: two cards put down, and the seat held
    no pair of the suit (so neither did it hold a pair of two of the suit's cards);
    the bounds state it exactly: no clause is left over."""
    h = random_history(3, copies=True, events=0)
    x, y = h.deck.names[:2]
    loc = h.locations[0]
    f = h.card_formula(
        f"has({loc}, {x}) & ~(has({loc}, {x}#2) & has({loc}, {y}#2) | has({loc}, {x}#2)"
        f" | has({loc}, {y}#2))"
    )
    bounds, rest = h.fact_bounds(f)
    kx, ky = h.deck.index(x), h.deck.index(y)
    assert rest == 0 and bounds == {(loc, kx): (1, 1), (loc, ky): (0, 1)}
    loose = h.card_formula(f"~(has({loc}, {x}) & has({loc}, {y}))")
    assert h.fact_bounds(loose) == ({}, 1)


def fact_history(seed: int, copies: bool) -> CardHistory:
    """A random history with up to three random true facts put between its events."""
    rng = random.Random(seed)
    h = random_history(seed, copies=copies, events=5)
    at = sorted(rng.randint(0, len(h.events)) for _ in range(rng.randint(1, 3)))
    out = h.prefix(0)
    for i, e in enumerate([*h.events, None]):
        while at and at[0] == i:
            at.pop(0)
            out = out.then(Fact(true_fact(rng, out)))
        if e is not None:
            out = out.then(e)
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_counting_with_stated_facts_agrees_with_the_explicit_model(seed, copies):
    """Histories with facts the bounds state: every seat's counting is exact and
    knows a card atom exactly when the explicit model says it does."""
    rng = random.Random(seed)
    h = fact_history(seed, copies)
    if all(h.fact_bounds(st.formula)[1] == 0 for st in h.steps if st.kind == "fact"):
        assert all(h.deal_state().knowledge(a).exact for a in h.agents)
    atoms = all_atoms(h)
    counting_agrees(h, rng.sample(atoms, min(12, len(atoms))))


def test_stated_facts_are_found():
    """The random facts of the tests above are often stated whole, and counting then
    stays exact."""
    stated = exact = 0
    for seed in range(40):
        h = fact_history(seed, seed % 2 == 0)
        facts = [st for st in h.steps if st.kind == "fact"]
        if facts and all(h.fact_bounds(st.formula)[1] == 0 for st in facts):
            stated += 1
            exact += all(h.deal_state().knowledge(a).exact for a in h.agents)
    assert stated >= 10 and exact == stated


def claim_history(seed: int, events: int = 5) -> CardHistory:
    """BS-ZPY in small: three hands in two or three suits; a seat puts a card face down
    and claims it (the claim's truth is announced: ``has(down, X)``, or when it lied,
    ``~has(down, X) | <it still holds the led suit>``), the card joins the trick face
    down; a seat that does not follow the led suit announces its void as a fact."""
    rng = random.Random(seed)
    suits = "SH" if rng.random() < 0.5 else "SHD"
    names = [r + s for s in suits for r in "AK"]
    deck, cards = shuffled(rng, names, [rng.choice([1, 2]) for _ in names], 9)
    h = CardHistory(deck, {**dealt(cards), "down": "", "trick": ""}, SEATS)
    led = None
    for i in range(events):
        seat = SEATS[i % 3]
        hand = h.content()[seat]
        if not hand:
            break
        if i % 3 == 0:
            led = None
        follow = [c for c in hand if led and c[-1] == led]
        card = rng.choice(follow or list(hand))
        led = led or card[-1]
        h = h.then(Move([card], seat, "down", seen_by=[seat]))
        suit = " | ".join(f"has({seat}, {n})" for n in names if n[-1] == led)
        if rng.random() < 0.7:
            h = h.then(Fact(f"has(down, {card})"))
        else:  # a false claim of another card of the suit
            other = rng.choice([n for n in names if n != card])
            h = h.then(Fact(f"~has(down, {other}) | {suit}"))
        h = h.then(MoveAll("down", "trick", seen_by=()))
        if card[-1] != led:
            h = h.then(Fact(f"~({suit})"))
    return h


def fact_claims(h: CardHistory) -> int:
    """Every ``K_a ~K_b has(L, C)`` and ``C_{a,b} has(L, C)`` counting decides on ``h``,
    checked against the explicit model; how many it decided."""
    pm = explicit_model(h)
    gk = GameKnowledge(h, max_width=1, quotient_width=2**62)
    n = 0
    for a in h.agents:
        for b in h.agents:
            if a == b:
                continue
            for atom in all_atoms(h):
                for f in (f"K_{a} ~K_{b} {atom.key}", f"C_{{{a},{b}}} {atom.key}"):
                    got = gk._by_counting(gk.formula(f))
                    if got is not None:
                        assert got == holds(pm, f), (f, [str(e) for e in h.events])
                        n += 1
    return n


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_counting_on_claim_histories_agrees_with_the_explicit_model(seed):
    fact_claims(claim_history(seed))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_counting_on_histories_with_facts_agrees_with_the_explicit_model(seed, copies):
    fact_claims(fact_history(seed, copies))


def test_facts_as_counts_keep_the_worlds():
    """The history with its facts written as counts has the same explicit model: every
    seat knows the same card atoms and ``K_a ~K_b`` formulas."""
    for seed in range(12):
        h = claim_history(seed)
        counted = h.facts_as_counts()
        facts = [st.formula for st in h.steps if st.kind == "fact"]
        stated = sum(h.fact_bounds(f)[1] == 0 for f in facts)
        left = sum(isinstance(e, Fact) for e in counted.events)
        assert left == len(facts) - stated and (counted is h) == (stated == 0)
        pm, pc = explicit_model(h), explicit_model(counted)
        for atom in all_atoms(h)[::3]:
            for f in (f"K_x {atom.key}", f"K_y ~K_z {atom.key}"):
                assert holds(pm, f) == holds(pc, f), (seed, f)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), copies=st.booleans())
def test_what_the_cell_bounds_know_is_known(seed, copies):
    """:func:`~games.epistemic.knowledge._bounds_know`: a card at one of two locations,
    shown by a seat's cell bounds alone, is known to that seat in the explicit model."""
    from games.epistemic.knowledge import _bounds_know
    from kripke.formulas import Atom

    h = fact_history(seed, copies)
    pm = explicit_model(h)
    for a in h.agents:
        kn = h.seat_counting(a)
        for card in h.deck.names:
            for i, l1 in enumerate(h.locations):
                for l2 in h.locations[i:]:
                    parts = (Atom("has", (l1, card)), Atom("has", (l2, card)))
                    f = parts[0] if l1 == l2 else Or(parts)
                    if _bounds_know(kn, f):
                        assert holds(pm, Know(a, f)), (a, str(f))
