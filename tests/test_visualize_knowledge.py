"""Knowledge pictures from plain data: belief heatmaps, timelines, who-knows tables."""

from __future__ import annotations

from fractions import Fraction as F

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

from kripke import K, Not, announce, holds, muddy_children  # noqa: E402
from tests.strategies import formulas, pointed_models  # noqa: E402
from visualize import (  # noqa: E402
    KnowledgeTable,
    VisualizeError,
    agent_styles,
    draw_belief,
    draw_knowledge_timeline,
    draw_who_knows,
    format_probability,
    who_knows,
)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def by_gid(ax, gid):
    return [a for a in ax.get_children() if a.get_gid() == gid]


def texts(ax, gid):
    return [t.get_text() for t in by_gid(ax, gid)]


# ------------------------------------------------------------------ belief
def test_belief_heatmap_cells_and_known_marks():
    probs = [[1, 0, 0], [0, F(1, 3), F(2, 3)], [0, F(1, 2), F(1, 2)]]
    ax = draw_belief(probs, ["AS", "KH", "QD"], ["me", "P1", "P2"])
    assert texts(ax, "cell") == ["1", "1/3", "2/3", "1/2", "1/2"]
    assert len(by_gid(ax, "known")) == 1  # only the own card
    (mesh,) = by_gid(ax, "belief")
    assert np.allclose(mesh.get_array().reshape(3, 3), np.array(probs, dtype=float))
    assert [t.get_text() for t in ax.get_yticklabels()] == ["AS", "KH", "QD"]
    assert texts(ax, "location") == ["me", "P1", "P2"]


def test_belief_heatmap_with_an_explicit_known_mask_and_no_annotation():
    probs = np.full((4, 2), 0.5)
    known = np.zeros((4, 2), bool)
    known[0, 0] = known[1, 1] = True
    ax = draw_belief(probs, list("abcd"), ["x", "y"], known=known, annotate=False)
    assert texts(ax, "cell") == []
    assert len(by_gid(ax, "known")) == 2


def test_belief_heatmap_grouped_by_suit_puts_a_full_deck_in_four_blocks():
    cards = [r + s for s in "CDHS" for r in "23456789TJQKA"]
    rng = np.random.default_rng(3)
    probs = rng.dirichlet(np.ones(5), size=52)
    probs[:13] = [1, 0, 0, 0, 0]
    ax = draw_belief(probs, cards, ["me", "P1", "P2", "P3", "pile"], groups=[c[1] for c in cards])
    assert texts(ax, "group") == ["C", "D", "H", "S"]
    assert len(by_gid(ax, "belief")) == 4
    assert len(texts(ax, "card")) == 52
    assert len(by_gid(ax, "known")) == 13
    # 52 × 5 = 260 cells: annotated by default (at most 400)
    assert len(texts(ax, "cell")) == int((probs > 0).sum())


@pytest.mark.parametrize(
    ("probs", "message"),
    [
        ([[0.5, 0.5]], "shape"),
        ([[0.5, 0.5, 0.0], [1.5, 0, 0]], "probability of KH at me is 1.5"),
        ([[0.5, 0.5, 0.0], [float("nan"), 0, 0]], "probability of KH at me"),
        ([[0.5, 0.5, 0.0], ["x", 0, 0]], "not a number in"),
        (5, "matrix"),
    ],
)
def test_belief_heatmap_rejects_bad_matrices(probs, message):
    with pytest.raises(VisualizeError, match=message):
        draw_belief(probs, ["AS", "KH"], ["me", "P1", "P2"])


def test_format_probability():
    assert format_probability(F(1, 3)) == "1/3"
    assert format_probability(F(7, 1000)) == ".01"
    assert format_probability(F(999, 1000)) == ">.99"
    assert format_probability(0.5) == ".50"
    assert format_probability(np.float64(1.0)) == "1"


# ---------------------------------------------------------------- timeline
def test_timeline_lines_events_and_stars():
    counts = {"P0": [10**20, 10**12, 1, 1], "P1": [10**20, 10**20, 10**5, 3]}
    ax = draw_knowledge_timeline(counts, events=[(1, "P1 calls BS"), (2, "pile revealed")])
    assert ax.get_yscale() == "log"
    for seat in counts:
        (line,) = by_gid(ax, f"seat:{seat}")
        # the drawn step line carries every count (and repeats the last one step further)
        assert list(line.get_ydata()[:4]) == [float(c) for c in counts[seat]]
        assert to_hex(line.get_color()) == agent_styles(list(counts))[seat].color.lower()
    assert len(by_gid(ax, "event")) == 2
    assert texts(ax, "event-label") == ["P1 calls BS", "pile revealed"]
    (star,) = by_gid(ax, "knows:P0")  # P0 knows the deal from step 2
    assert star.get_xdata()[0] == 2
    assert not by_gid(ax, "knows:P1")


def test_timeline_accepts_a_list_and_steps():
    ax = draw_knowledge_timeline([[8, 4, 2], [8, 8, 1]], steps=[0, 5, 10])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["P0", "P1"]
    assert by_gid(ax, "knows:P1")[0].get_xdata()[0] == 10


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ({"P0": [4, 0]}, "P0 considers 0 deals possible at step 1"),
        ({"P0": [4, 2], "P1": [4]}, "P1 has 1 counts"),
        ({}, "no counts"),
    ],
)
def test_timeline_rejects_impossible_counts(counts, message):
    with pytest.raises(VisualizeError, match=message):
        draw_knowledge_timeline(counts)


# ------------------------------------------------------------ who knows what
def test_who_knows_muddy_children_after_the_father():
    """Two of three children muddy, after "at least one is muddy": each muddy child
    sees one muddy forehead and cannot know its own state; the clean child sees two
    (Fagin et al., Reasoning about Knowledge, 1995, §1.1)."""
    pm = announce(muddy_children(3, [1, 2]), "m1 | m2 | m3")
    t = who_knows(pm, ["m1", "m2", "m3", "K_1 m1"])
    assert t.agents == ("1", "2", "3")
    assert t.truth == (True, True, False, False)
    assert t.values[0] == (F(1, 2), 1, 0, 0)
    assert t.values[2] == (1, 1, F(1, 2), 0)
    html = t._repr_html_()
    assert html.count("<tr>") == 5 and "knows it&#x27;s false" in html


@settings(max_examples=40, deadline=None)
@given(pointed_models(), st.lists(formulas(max_leaves=5), min_size=1, max_size=3))
def test_who_knows_agrees_with_the_model_checker(pm, fs):
    """Probability 1 exactly when K_a f holds, 0 exactly when K_a ~f holds (and the
    agent considers some world possible)."""
    t = who_knows(pm, fs)
    for i, a in enumerate(t.agents):
        serial = bool(pm.model.accessible(a, pm.actual))
        for j, f in enumerate(fs):
            v = t.values[i][j]
            if not serial:
                assert v is None
                continue
            assert (v == 1) == holds(pm, K(a, f))
            assert (v == 0) == holds(pm, K(a, Not(f)))
            assert t.truth[j] == holds(pm, f)


def test_draw_who_knows_cells_in_row_order_with_colours():
    pm = muddy_children(2, [1])
    ax = draw_who_knows(who_knows(pm, ["m1", "K_2 m1"]), title="who knows")
    assert texts(ax, "cell") == ["P = 1/2", "P = 1/2", "knows", "knows"]
    assert texts(ax, "truth") == ["true", "true"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["actual world", "agent 1", "agent 2"]
    boxes = [to_hex(b.get_facecolor()) for b in by_gid(ax, "cell-box")]
    assert boxes[2] == boxes[3] == "#009e73"
    assert boxes[0] != boxes[2]


def test_knowledge_table_from_plain_values():
    t = KnowledgeTable(("P0", "P1"), ("has(P1, QS)",), ((F(1, 4),), (None,)))
    ax = draw_who_knows(t)
    assert texts(ax, "cell") == ["P = 1/4", "—"]
    assert [x.get_text() for x in ax.get_yticklabels()] == ["P0", "P1"]


def test_who_knows_needs_a_pointed_model():
    with pytest.raises(VisualizeError, match="PointedModel"):
        who_knows(muddy_children(2).model, ["m1"])


def test_who_knows_column_labels():
    pm = muddy_children(2, [1])
    t = who_knows(pm, ["m1", "m2"], labels=["1 is muddy", "2 is muddy"])
    assert t.formulas == ("1 is muddy", "2 is muddy")
    assert t.values == who_knows(pm, ["m1", "m2"]).values
    with pytest.raises(VisualizeError, match="1 labels for 2 formulas"):
        who_knows(pm, ["m1", "m2"], labels=["x"])


def test_who_knows_on_symbolic_structures_matches_the_explicit_model():
    from kripke import announce, muddy_children

    pm = announce(muddy_children(3, [1, 2]), "m1 | m2 | m3")
    ps = announce(muddy_children(3, [1, 2], engine="symbolic"), "m1 | m2 | m3")
    formulas = ["m1", "m3", "K_2 m1", "~Kw_1 m1"]
    explicit, symbolic = who_knows(pm, formulas), who_knows(ps, formulas)
    assert symbolic.values == explicit.values
    assert symbolic.truth == explicit.truth


def test_who_knows_on_a_game_state_gives_each_seats_exact_probability():
    import random

    from games.base import load_game
    from games.bs import bs_claim

    state = load_game("bs", variant="classic").new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(rng.choice(list(state.legal_actions())))
    p = state.current_player()
    state.apply_play(p, state.hands[p][0])
    q = state.current_player()
    state.apply_play(q, state.hands[q][0])
    gk = state.knowledge()
    claim = bs_claim(state)
    table = who_knows(gk, [claim, f"has(P{q}, AS)"], labels=["claim", "AS"])
    assert table.formulas == ("claim", "AS")
    for i, seat in enumerate(table.agents):
        assert table.values[i][0] == gk.probability(seat, claim)
        assert table.values[i][1] == gk.probability(seat, f"has(P{q}, AS)")
    row = table.agents.index(f"P{q}")
    assert table.values[row][0] in (0, 1)  # the player knows whether it lied
    assert table.truth[0] == gk.holds(claim)


def test_interval_cells_read_as_bounds_and_never_as_knowledge():
    from fractions import Fraction

    from visualize.knowledge import KnowledgeTable

    t = KnowledgeTable(("a",), ("f",), (((Fraction(0), Fraction(1, 2)),),))
    assert t.cell_text(0, 0) == "P in [0, 1/2]"
    assert "<td" in t._repr_html_()
