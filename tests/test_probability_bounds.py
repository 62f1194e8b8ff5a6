"""Bounds on a seat's probability of a formula about knowledge where the knowledge
structure is refused and exact counting cannot weigh the formula
(:meth:`GameKnowledge.probability_bounds`, :func:`games.epistemic.knowledge._sandwich`).

Checked against the structure on small histories (an independent route: its bounds are
the shares of deals where the formula holds in every and in some history, which the
counting's bounds must hold), and at full size on classic BS, where
:meth:`GameKnowledge.probability` refuses."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from games.epistemic import GameKnowledge
from games.epistemic.knowledge import _sandwich
from kripke.errors import SizeLimitError
from kripke.formulas import BOT, TOP, Iff
from kripke.parser import parse
from tests.test_epistemic import card_atom, random_formula, random_history
from tests.test_whole_game_dislodged import bs_history


def checked(h, rng, formulas: int = 2) -> tuple[int, int]:
    """For random depth-2 formulas at every seat of ``h``: the counting's bounds (the
    structure refused, ``max_width=1``) hold the structure's bounds and its exact
    probability.  Returns (formulas checked, of which the counting's bounds were
    wider than a point)."""
    full = GameKnowledge(h)
    wide = GameKnowledge(h, max_width=1)
    n = wider = 0
    for a in h.agents:
        for _ in range(formulas):
            f = random_formula(rng, h, 2)
            if rng.random() < 0.2:
                f = Iff(f, card_atom(rng, h))
            try:
                low, high = wide.probability_bounds(a, f)
            except SizeLimitError as e:  # a formula about the cards with several
                # at-least-k-copies atoms: counted one at a time, refused as by probability
                assert "copies atoms" in str(e), str(e)
                continue
            every, some = full.probability_bounds(a, f)
            p = full.probability(a, f)
            assert 0 <= low <= every <= p <= some <= high <= 1, (a, str(f))
            n += 1
            wider += low < high
    return n, wider


@pytest.mark.parametrize("seed", range(16))
def test_counting_bounds_hold_the_structures_on_random_histories(seed):
    n, _ = checked(random_history(seed, copies=seed % 2 == 0, events=6), random.Random(seed))
    assert n >= 1


@pytest.mark.parametrize("seed", range(10))
def test_counting_bounds_hold_the_structures_on_bs_histories(seed):
    n, _ = checked(bs_history(seed, plays=4), random.Random(100 + seed))
    assert n >= 1


def test_not_vacuous():
    """Some of the checked bounds are intervals, not points (formulas counting cannot
    weigh exactly)."""
    total = wider = 0
    for seed in range(10):
        n, w = checked(bs_history(seed, plays=4), random.Random(100 + seed))
        total += n
        wider += w
    assert wider >= 3 and total >= 20


def test_sandwich_of_each_operator():
    """Each knowledge operator implies what it knows (its argument above it, nothing below);
    what holds is possible (its argument below, nothing above); negation swaps."""
    cases = {
        "K_x has(y, A)": ("bot", "has(y, A)"),
        "E_{x,y} has(y, A)": ("bot", "has(y, A)"),
        "C_{x,y} has(y, A)": ("bot", "has(y, A)"),
        "D_{x,y} has(y, A)": ("bot", "has(y, A)"),
        "M_x has(y, A)": ("has(y, A)", "top"),
        "~M_x has(y, A)": ("bot", "~has(y, A)"),
        "Kw_x has(y, A)": ("bot", "top"),
        "K_x has(y, A) -> has(z, B)": ("~has(y, A) | has(z, B)", "top"),
        "[!has(z, B)] K_x has(y, A)": ("~has(z, B)", "~has(z, B) | has(y, A)"),
        "has(z, B) & M_x K_y has(y, A)": ("bot", "has(z, B)"),
    }
    for text, want in cases.items():
        got = tuple(str(x) for x in _sandwich(parse(text)))
        assert got == want, (text, got)
    assert _sandwich(parse("K_x has(y, A) | M_x has(y, A)")) == (
        _sandwich(parse("has(y, A)"))[0],
        TOP,
    )
    assert _sandwich(parse("K_x K_y has(y, A)"))[0] is BOT


def test_full_size_classic_bs_where_probability_refuses():
    """Classic BS seed 0 play 60: P0's counting is exact, and P0 cannot tell whether P1
    saw the 2C go to P2 (``K_P1 has(P2, 2C)`` holds in some of P0's worlds only), so
    ``probability`` refuses; the bounds are 0 and P0's probability that P2 holds the 2C,
    and for the negation one minus that and 1."""
    from benchmarks.whole_game_knowledge import plays

    h = next(h for k, h in plays("bs-classic", 0) if k == 60)
    gk = GameKnowledge(h)
    with pytest.raises(SizeLimitError, match="probability_bounds gives exact bounds"):
        gk.probability("P0", "K_P1 has(P2, 2C)")
    p = gk.probability("P0", "has(P2, 2C)")
    assert 0 < p < 1
    assert gk.probability_bounds("P0", "K_P1 has(P2, 2C)") == (0, p)
    assert gk.probability_bounds("P0", "~K_P1 has(P2, 2C)") == (1 - p, 1)
    low, high = gk.probability_bounds("P0", "K_P1 has(P2, 2C)", exact=False)
    assert low == 0.0 and high == pytest.approx(float(p))
    assert isinstance(gk.probability_bounds("P0", "~K_P1 has(P2, 2C)")[0], Fraction)


def test_a_side_counting_does_not_weigh_is_no_bound():
    """Where the formula about the cards above (or below) has several at-least-k-copies
    atoms, which counting weighs one at a time, that side is no bound (1 above, 0
    below); the other side still is."""
    from games.cards import Deck
    from games.epistemic.history import CardHistory, Move

    h = CardHistory(
        Deck(["A", "B", "C"], [2, 2, 1]),
        {"x": "A B", "y": "A B", "z": "C", "pile": ""},
        ["x", "y", "z"],
    ).then(Move("A", "y", "pile", seen_by=["y"]))
    gk = GameKnowledge(h, max_width=1)
    two = "has(x, A#2) | has(y, B#2)"
    with pytest.raises(SizeLimitError, match="copies atoms"):
        gk.probability_bounds("z", two)
    assert gk.probability_bounds("z", f"K_y ({two})") == (0, 1)
    low, high = gk.probability_bounds("z", f"M_y ({two}) & has(pile, A)")
    assert (low, high) == (0, gk.probability("z", "has(pile, A)")) and 0 < high < 1
    full = GameKnowledge(h)
    for f in (f"K_y ({two})", f"M_y ({two}) & has(pile, A)"):
        assert 0 <= full.probability("z", f) <= 1


def test_route_says_which_route_weighed_a_probability():
    """``route`` after ``count``, ``probability`` and ``probability_bounds``: the structure
    where it is built and weighs the worlds, counting where the seat's counting answers
    (the structure refused, or a formula about the cards asked first), ``None`` after a
    refusal."""
    from games.cards import Deck
    from games.epistemic.history import CardHistory, Move, MoveAll

    h = CardHistory(
        Deck(["AS", "KS", "QS", "JS", "AH", "KH"]),
        {"x": "AS KS", "y": "QS JS", "z": "AH KH", "pile": ""},
        ["x", "y", "z"],
    ).then(Move("AS", "x", "pile", seen_by=["x"]), MoveAll("pile", "y", seen_by=["y"]))
    gk = GameKnowledge(h)
    assert gk.probability("z", "has(y, AS)") == Fraction(3, 4) and gk.route == "counting"
    assert gk.probability("z", "K_x has(y, AS)") == Fraction(1, 4)
    assert gk.route == "structure"
    assert gk.probability_bounds("z", "K_x has(y, AS)") == (0, Fraction(3, 4))
    assert gk.route == "structure"
    assert gk.count("z") == 4 and gk.route == "counting"
    wide = GameKnowledge(h, max_width=1)
    assert wide.probability_bounds("z", "K_x has(y, AS)") == (0, Fraction(3, 4))
    assert wide.route == "counting"
    with pytest.raises(SizeLimitError):
        wide.probability("z", "K_x has(y, AS)")
    assert wide.route is None
    assert wide.probability("x", "K_x has(y, AS)") == 1 and wide.route == "counting"


@pytest.mark.parametrize("seed", range(12))
def test_introspection_by_counting_agrees_with_the_structure(seed):
    """A seat's knowledge of its own knowledge (S5: ``K_a K_a p`` is ``K_a p``, ``K_a ~K_a
    p`` is ``~K_a p``, ``K_a M_a p`` is ``M_a p``) is decided by its counting, with the
    structure refused; the answers and the seat's probabilities (1 or 0) are the
    structure's."""
    h = random_history(seed, copies=seed % 2 == 0, events=6)
    rng = random.Random(seed)
    full = GameKnowledge(h, counting_first=False)
    wide = GameKnowledge(h, max_width=1)
    for a in h.agents:
        p = card_atom(rng, h)
        for f in (
            f"K_{a} K_{a} {p}",
            f"K_{a} ~K_{a} {p}",
            f"K_{a} M_{a} {p}",
            f"K_{a} Kw_{a} {p}",
            f"K_{a} ~Kw_{a} {p}",
            f"~K_{a} K_{a} ~{p}",
        ):
            assert wide.holds(f) == full.holds(f), (a, f)
            assert wide.route == "counting", (a, f, wide.route)
        for f in (f"K_{a} {p}", f"M_{a} {p}", f"Kw_{a} {p}"):
            assert wide.probability(a, f) == full.probability(a, f) in (0, 1), (a, f)
            assert wide.route == "counting"


def test_who_knows_shows_the_bounds_late_in_a_game():
    """``visualize.who_knows`` on a game's knowledge reads ``probability_bounds``: late in
    classic BS (seed 0 play 60), where the structure is refused, P0's cell for ``K_P1
    has(P2, 2C)`` is the interval from 0 to P0's probability of the card (it raised
    ``SizeLimitError`` before the bounds by counting)."""
    from benchmarks.whole_game_knowledge import plays
    from visualize import who_knows

    h = next(h for k, h in plays("bs-classic", 0) if k == 60)
    gk = GameKnowledge(h)
    table = who_knows(gk, ["has(P2, 2C)", "K_P1 has(P2, 2C)"], agents=["P0"])
    p = table.values[0][0]
    assert 0 < p < 1
    assert table.values[0][1] == (0, p)
    assert table.cell_text(0, 1).startswith("P in [0, ")
    assert table.truth[0] is True  # P2 holds the 2C at this state


def test_who_knows_refuses_one_cell_and_answers_the_rest():
    """Classic BS seed 0 play 80: P0's and P3's counting dropped a joint constraint, so
    their probabilities of ``has(P1, AS)`` are refused (a superset of their deals gives
    no exact share and no bound); ``who_knows`` marks just those cells refused, with the
    reason, and gives P1's and P2's probabilities, which equal ``probability``'s (the
    whole table raised ``SizeLimitError`` before)."""
    import matplotlib

    matplotlib.use("Agg")
    from benchmarks.whole_game_knowledge import plays
    from visualize import Refused, draw_who_knows, who_knows

    h = next(h for k, h in plays("bs-classic", 0) if k == 80)
    gk = GameKnowledge(h)
    with pytest.raises(SizeLimitError, match="dropped 1 joint constraint"):
        gk.probability("P0", "has(P1, AS)")
    table = who_knows(gk, ["has(P1, AS)"])
    assert table.agents == ("P0", "P1", "P2", "P3")
    cells = [row[0] for row in table.values]
    for i in (0, 3):
        assert isinstance(cells[i], Refused) and "dropped" in cells[i].why
        assert table.cell_text(i, 0) == "refused"
    assert cells[1] == gk.probability("P1", "has(P1, AS)") == 1
    assert cells[2] == gk.probability("P2", "has(P1, AS)")
    assert 0 < cells[2] < 1
    assert table.truth == (True,)
    assert 'title="the counting of P0' in table._repr_html_()
    ax = draw_who_knows(table)
    texts = [t.get_text() for t in ax.texts if t.get_gid() == "cell"]
    assert texts.count("refused") == 2 and "knows" in texts
