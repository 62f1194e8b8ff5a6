"""Pictures of Kripke models: what is drawn, not only that drawing runs.

Every figure is built with the Agg backend and inspected through the gids the
drawing functions give their artists (see :mod:`visualize.models`).

Regenerate the reference image with ``python tests/test_visualize_models.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402
from matplotlib.testing.compare import compare_images  # noqa: E402

from kripke import (  # noqa: E402
    KripkeModel,
    PointedModel,
    announce,
    holds,
    muddy_children,
    private_announcement,
    product_update,
    semi_private_announcement,
)
from kripke.errors import (  # noqa: E402
    KripkeError,
    PreconditionError,
    UnknownAgentError,
    UnknownWorldError,
)
from kripke.models import Partition  # noqa: E402
from tests.strategies import models, pointed_models  # noqa: E402
from visualize import (  # noqa: E402
    VisualizeError,
    agent_styles,
    deterministic_style,
    draw_action_model,
    draw_announcements,
    draw_model,
    draw_model_summary,
    draw_product_update,
    model_layout,
    model_png,
    world_labels,
)
from visualize.style import ACTUAL_COLOR, SHADE_COLOR  # noqa: E402

IMAGES = Path(__file__).parent / "images"
REFERENCE = IMAGES / "four_worlds.png"


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# ----------------------------------------------------------------- helpers
def by_gid(ax, gid):
    """Every artist of the axes (patches, collections, texts) with this gid."""
    return [a for a in ax.get_children() if a.get_gid() == gid]


def worlds_collection(ax):
    (c,) = by_gid(ax, "worlds")
    return c


def edge_count(ax, agent):
    return len(by_gid(ax, f"relation:{agent}"))


def label_texts(ax):
    return [t.get_text() for t in by_gid(ax, "label")]


def expected_s5_edges(model, agent):
    rel = model.relation(agent)
    return sum(len(c) * (len(c) - 1) // 2 for c in rel.classes())


def expected_relation_drawing(model, agent):
    """(unordered pairs of distinct worlds linked either way, worlds with a loop)."""
    src, dst = model.edges(agent)
    pairs = {frozenset((s, d)) for s, d in zip(src.tolist(), dst.tolist(), strict=True) if s != d}
    loops = {s for s, d in zip(src.tolist(), dst.tolist(), strict=True) if s == d}
    return len(pairs), len(loops)


def four_worlds() -> PointedModel:
    """Two agents, two atoms: a sees p, b sees q (van Ditmarsch et al., DEL, 2007, fig. 2.1 style)."""
    m = KripkeModel.from_observations(
        ["w1", "w2", "w3", "w4"],
        {"w1": ["p", "q"], "w2": ["p"], "w3": ["q"], "w4": []},
        {"a": ["p"], "b": ["q"]},
    )
    return PointedModel(m, "w1")


# --------------------------------------------------------- muddy children
def test_muddy_children_cube_content():
    """Three children: 8 worlds, 4 edges per child (the cube), labels the muddy children."""
    pm = muddy_children(3, [1, 2])
    ax = draw_model(pm)
    assert len(worlds_collection(ax).get_offsets()) == 8
    assert [edge_count(ax, a) for a in "123"] == [4, 4, 4]
    assert not by_gid(ax, "loop:1")  # S5 draws no reflexive loops
    assert sorted(label_texts(ax)) == sorted(
        ["∅", "m1", "m2", "m3", "m1,m2", "m1,m3", "m2,m3", "m1,m2,m3"]
    )
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["agent 1", "agent 2", "agent 3", "actual world"]


def test_each_agent_has_its_own_colour():
    pm = muddy_children(4, [1])
    ax = draw_model(pm)
    styles = agent_styles(list(pm.model.agents))
    colours = {}
    for a in pm.model.agents:
        edges = by_gid(ax, f"relation:{a}")
        assert edges
        cs = {to_hex(e.get_edgecolor()) for e in edges}
        assert cs == {styles[a].color.lower()}
        colours[a] = cs.pop()
    assert len(set(colours.values())) == 4
    handles = ax.get_legend().legend_handles
    assert [to_hex(h.get_color()) for h in handles[:4]] == [colours[a] for a in "1234"]


def test_every_muddy_edge_joins_worlds_differing_in_that_child():
    """Child i's edges join the worlds that differ exactly in m_i (the hypercube)."""
    pm = muddy_children(3)
    m = pm.model
    pos = model_layout(m)
    labels = list(pos)
    pts = np.array([pos[w] for w in labels])
    ax = draw_model(pm)
    for agent in m.agents:
        bit = 1 << (int(agent) - 1)
        for arrow in by_gid(ax, f"relation:{agent}"):
            verts = arrow.get_path().vertices
            a, b = (labels[int(np.argmin(((pts - v) ** 2).sum(1)))] for v in (verts[0], verts[-1]))
            assert a ^ b == bit


def test_layered_layout_rows_count_muddy_children():
    m = muddy_children(4).model
    pos = model_layout(m, "layered")
    for w, (_, y) in pos.items():
        assert y == pytest.approx(1.3 * bin(w).count("1"))
    assert len(set(pos.values())) == 16


def test_actual_world_is_ringed_and_shading_follows_the_truth_set():
    pm = announce(muddy_children(3, [1, 2]), "m1 | m2 | m3")
    ax = draw_model(pm, shade="K_1 m1 | K_2 m2")
    c = worlds_collection(ax)
    m = pm.model
    widths = c.get_linewidths()
    edges = [to_hex(x) for x in c.get_edgecolors()]
    actual = m.index(pm.actual)
    assert widths[actual] > 2 and edges[actual] == ACTUAL_COLOR.lower()
    assert all(widths[i] < 2 for i in range(m.num_worlds) if i != actual)
    faces = [to_hex(x) for x in c.get_facecolors()]
    for i in range(m.num_worlds):
        shaded = holds(pm.model, "K_1 m1 | K_2 m2", state=m.label(i))
        assert (faces[i] == SHADE_COLOR.lower()) == shaded
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[-1] == "K_1 m1 | K_2 m2 holds"


def test_shading_a_set_of_worlds_and_choosing_actual():
    m = four_worlds().model
    ax = draw_model(m, shade=["w2", "w3"], actual="w4")
    c = worlds_collection(ax)
    faces = [to_hex(x) for x in c.get_facecolors()]
    assert [f == SHADE_COLOR.lower() for f in faces] == [False, True, True, False]
    assert c.get_linewidths()[3] > 2


# --------------------------------------------------- random models (property)
@settings(max_examples=25, deadline=None)
@given(models())
def test_drawn_edges_match_the_relations(model):
    """S5: one undirected edge per indistinguishable pair; otherwise one arrow per
    linked pair and one loop per reflexive world."""
    ax = draw_model(model, s5="edges", legend=False)
    assert len(worlds_collection(ax).get_offsets()) == model.num_worlds
    for a in model.agents:
        if isinstance(model.relation(a), Partition):
            assert edge_count(ax, a) == expected_s5_edges(model, a)
            assert not by_gid(ax, f"loop:{a}")
        else:
            pairs, loops = expected_relation_drawing(model, a)
            assert edge_count(ax, a) == pairs
            drawn_loops = sum(len(c.get_offsets()) for c in by_gid(ax, f"loop:{a}"))
            assert drawn_loops == loops
    plt.close("all")


@settings(max_examples=15, deadline=None)
@given(models(s5=True))
def test_hulls_draw_one_region_per_class(model):
    ax = draw_model(model, s5="hulls", legend=False)
    for a in model.agents:
        big = [c for c in model.classes(a) if len(c) > 1]
        assert len(by_gid(ax, f"class:{a}")) == len(big)
        assert edge_count(ax, a) == 0
    plt.close("all")


@settings(max_examples=15, deadline=None)
@given(pointed_models())
def test_positions_are_distinct_in_every_layout(pm):
    for layout in ("auto", "layered", "classes", "grid", "circular", "spring"):
        pos = model_layout(pm.model, layout)
        assert set(pos) == set(pm.model.worlds)
        pts = np.array(list(pos.values()))
        d = np.sqrt(((pts[:, None] - pts[None]) ** 2).sum(-1)) + np.eye(len(pts)) * 9
        assert d.min() > 0.3, layout


def test_directed_relations_draw_arrows_both_ways_as_one_double_arrow():
    m = KripkeModel.from_relations(
        ["u", "v", "w"],
        {"u": ["p"], "v": [], "w": []},
        {"a": [("u", "v"), ("v", "u"), ("v", "w"), ("w", "w")]},
    )
    ax = draw_model(m, labels="worlds")
    styles = sorted(str(p.get_arrowstyle()).split(" ")[0] for p in by_gid(ax, "relation:a"))
    assert len(styles) == 2
    assert any("CurveFilledAB" in s for s in styles) and any("CurveFilledB" in s for s in styles)
    assert len(by_gid(ax, "loop:a")[0].get_offsets()) == 1


def test_agents_can_be_selected_and_edge_labels_written():
    pm = muddy_children(3)
    ax = draw_model(pm, agents=["2"], edge_labels=True)
    assert edge_count(ax, "1") == 0 and edge_count(ax, "2") == 4
    assert [t.get_text() for t in by_gid(ax, "edge-label")] == ["2"] * 4


# ------------------------------------------------------------------ labels
def test_world_labels_modes():
    m = four_worlds().model
    assert world_labels(m, "atoms")[0] == ["p,q", "p", "q", "∅"]
    assert world_labels(m, "bits") == (["11", "10", "01", "00"], "world labels: p q (1 = true)")
    assert world_labels(m, "worlds")[0] == ["w1", "w2", "w3", "w4"]
    assert world_labels(m, "both")[0][0] == "w1: p,q"
    assert world_labels(m, {"w1": "A", "w2": "B", "w3": "C", "w4": "D"})[0] == list("ABCD")
    assert world_labels(m, lambda w: w.upper())[0] == ["W1", "W2", "W3", "W4"]


def test_many_worlds_with_long_labels_use_bits_and_a_caption():
    ax = draw_model(muddy_children(5))
    assert len(worlds_collection(ax).get_offsets()) == 32
    assert all(len(t) == 5 and set(t) <= {"0", "1"} for t in label_texts(ax))
    assert by_gid(ax, "caption")[0].get_text() == "world labels: m1 m2 m3 m4 m5 (1 = true)"


# ----------------------------------------------------------------- summary
def test_large_models_get_a_summary_not_a_hairball():
    pm = announce(muddy_children(7, [1, 2]), "m1|m2|m3|m4|m5|m6|m7")
    ax = draw_model(pm)
    assert not by_gid(ax, "worlds")
    assert [t.get_text() for t in ax.get_yticklabels()] == [f"agent {i}" for i in range(1, 8)]
    # after the father: child i's class of the all-clean-but-i world is a singleton
    assert [t.get_text() for t in by_gid(ax, "segment")] == ["63 classes of 2"] * 7
    for i in range(1, 8):  # 126 worlds in classes of two, then the singleton
        assert [r.get_width() for r in by_gid(ax, f"class:{i}")] == [126, 1]
    assert len(by_gid(ax, "actual")) == 7


def test_summary_threshold_is_a_parameter():
    pm = muddy_children(4)
    assert by_gid(draw_model(pm, max_worlds=8), "worlds") == []
    assert len(worlds_collection(draw_model(pm, max_worlds=16)).get_offsets()) == 16


def test_summary_groups_non_s5_agents_by_what_they_consider_possible():
    m = KripkeModel.from_relations(
        ["u", "v", "w"],
        {"u": ["p"], "v": [], "w": []},
        {"a": [("u", "w"), ("v", "w"), ("w", "w")]},
    )
    ax = draw_model_summary(m)
    # u and v see {w}; w sees {w} too: one group of three worlds
    assert len(by_gid(ax, "class:a")) == 1
    assert by_gid(ax, "note")[0].get_text().startswith("1 groups")


# ----------------------------------------------------------- announcements
def test_announcement_panels_show_removed_worlds():
    """Muddy children, two muddy: the father removes one world, "nobody knows" three
    (Fagin et al., Reasoning about Knowledge, 1995, §1.1)."""
    axes = draw_announcements(
        muddy_children(3, [1, 2]), ["m1 | m2 | m3", "~Kw_1 m1 & ~Kw_2 m2 & ~Kw_3 m3"]
    )
    assert len(axes) == 3
    assert [len(worlds_collection(ax).get_offsets()) for ax in axes] == [8, 7, 4]
    assert [len(by_gid(ax, "removed")) for ax in axes] == [0, 1, 3]
    assert [sum(len(c.get_offsets()) for c in by_gid(ax, "ghosts")) for ax in axes] == [0, 0, 1]
    # the world removed first is the all-clean world, drawn where it stood
    pos0 = model_layout(muddy_children(3).model)[0]
    assert tuple(by_gid(axes[1], "removed")[0].get_offsets()[0]) == pytest.approx(pos0)
    assert axes[2].get_legend() is not None and axes[0].get_legend() is None
    assert axes[1].get_title().startswith("after !m1 | m2 | m3")


def test_announcements_keep_each_world_in_place():
    pm = muddy_children(3, [1, 2])
    axes = draw_announcements(pm, ["m1 | m2 | m3"])
    before = {tuple(p) for p in worlds_collection(axes[0]).get_offsets()}
    after = {tuple(p) for p in worlds_collection(axes[1]).get_offsets()}
    assert after < before


def test_a_false_announcement_is_refused():
    with pytest.raises(PreconditionError):
        draw_announcements(muddy_children(3, [1, 2]), ["m3"])


def test_announcements_on_too_large_a_model_raise():
    with pytest.raises(VisualizeError, match="max_worlds"):
        draw_announcements(muddy_children(7), ["m1"])


# ----------------------------------------------------- action models, product
def test_private_announcement_action_model():
    """Outsiders believe nothing happened: b's arrow e -> skip and a loop at skip;
    the insider a tells the events apart (Baltag, Moss & Solecki 1998)."""
    A = private_announcement("p", ["a"], ["a", "b"])
    ax = draw_action_model(A, designated="e")
    assert sorted(label_texts(ax)) == ["e: p", "skip: top"]
    assert edge_count(ax, "a") == 0 and edge_count(ax, "b") == 1
    assert len(by_gid(ax, "loop:b")[0].get_offsets()) == 1
    assert [t.get_text() for t in ax.get_legend().get_texts()][-1] == "designated event"


def test_draw_model_of_an_action_model_draws_the_action_model():
    A = semi_private_announcement("p", ["a"], ["a", "b"])
    ax = draw_model(A)
    assert sorted(label_texts(ax)) == ["no: ~p", "yes: p"]
    assert edge_count(ax, "b") == 1 and edge_count(ax, "a") == 0


def test_product_update_panels():
    pm = four_worlds()
    A = private_announcement("p", ["a"], ["a", "b"])
    axes = draw_product_update(pm, A, "e")
    product = product_update(pm, A, "e")
    assert len(axes) == 3
    assert len(worlds_collection(axes[0]).get_offsets()) == 4
    assert len(worlds_collection(axes[2]).get_offsets()) == product.model.num_worlds == 6
    for a in ("a", "b"):
        pairs, loops = (
            (expected_s5_edges(product.model, a), 0)
            if product.model.is_s5(a)
            else expected_relation_drawing(product.model, a)
        )
        assert edge_count(axes[2], a) == pairs
    assert sorted(t.get_text() for t in by_gid(axes[2], "band")) == ["event e", "event skip"]
    # each copy keeps the model's shape: (w, e) sits where w sat, shifted along x
    offs = worlds_collection(axes[2]).get_offsets()
    pos = model_layout(pm.model)
    for i in range(product.model.num_worlds):
        w, _ = product.model.label(i)
        assert offs[i][1] == pytest.approx(pos[w][1])


# -------------------------------------------------------------- notebooks
def test_png_display_hooks_leave_no_open_figure():
    before = plt.get_fignums()
    for obj in (
        muddy_children(3),
        muddy_children(3).model,
        muddy_children(8),
        private_announcement("p", ["a"], ["a", "b"]),
    ):
        png = obj._repr_png_()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 2000
    assert plt.get_fignums() == before


def test_model_png_matches_draw_model_size_choice():
    small = model_png(four_worlds())
    large = model_png(muddy_children(5))
    assert len(large) > len(small)


# ------------------------------------------------------------------ errors
def test_bad_input_raises_named_errors():
    pm = four_worlds()
    with pytest.raises(VisualizeError, match="unknown layout 'hexagonal'"):
        draw_model(pm, layout="hexagonal")
    with pytest.raises(VisualizeError, match="no position for world 'w4'"):
        draw_model(pm, layout={"w1": (0, 0), "w2": (1, 0), "w3": (2, 0)})
    with pytest.raises(VisualizeError, match="no text for world"):
        draw_model(pm, labels={"w1": "x"})
    with pytest.raises(VisualizeError, match="unknown labels"):
        draw_model(pm, labels="colours")
    with pytest.raises(VisualizeError, match="s5 style"):
        draw_model(pm, s5="blobs")
    with pytest.raises(UnknownAgentError, match="'c'"):
        draw_model(pm, agents=["c"])
    with pytest.raises(UnknownWorldError, match="w9"):
        draw_model(pm, actual="w9")
    with pytest.raises(VisualizeError, match="cannot draw a str"):
        draw_model("w1")
    assert issubclass(VisualizeError, KripkeError) and issubclass(VisualizeError, ValueError)


def test_explicit_positions_and_an_empty_model():
    pm = four_worlds()
    pos = {"w1": (0, 1), "w2": (1, 1), "w3": (0, 0), "w4": (1, 0)}
    ax = draw_model(pm, layout=pos)
    assert sorted(map(tuple, worlds_collection(ax).get_offsets())) == sorted(pos.values())
    empty = KripkeModel.from_partitions([], {}, {"a": []})
    ax = draw_model(empty)
    assert [t.get_text() for t in ax.texts] == ["no worlds"]


# ------------------------------------------------------- reference picture
def render_reference(path: Path, shade: str = "K_a p") -> None:
    """The 4-world picture stored in tests/images, drawn in the deterministic style."""
    with deterministic_style():
        ax = draw_model(four_worlds(), shade=shade, title="a sees p, b sees q")
        ax.figure.savefig(path, dpi=100, bbox_inches="tight")
        plt.close(ax.figure)


def test_four_world_picture_matches_the_reference(tmp_path):
    out = tmp_path / "four_worlds.png"
    render_reference(out)
    result = compare_images(str(REFERENCE), str(out), tol=3)
    assert result is None, result


def test_the_reference_comparison_notices_a_different_picture(tmp_path):
    out = tmp_path / "four_worlds.png"
    render_reference(out, shade="K_b q")  # shades w1 and w3 instead of w1 and w2
    assert compare_images(str(REFERENCE), str(out), tol=3) is not None


def test_a_symbolic_structure_is_drawn_through_its_explicit_model():
    sym = muddy_children(3, [1, 2], engine="symbolic")
    ax = draw_model(sym)
    c = worlds_collection(ax)
    assert len(c.get_offsets()) == 8
    assert [edge_count(ax, a) for a in "123"] == [4, 4, 4]
    assert sum(w > 2 for w in c.get_linewidths()) == 1  # the actual world


def test_product_updates_are_laid_out_in_one_band_per_event():
    pm = four_worlds()
    product = product_update(pm, private_announcement("p", ["a"], ["a", "b"]), "e")
    from visualize.layout import choose_layout

    assert choose_layout(product.model) == "events"
    pos = model_layout(product.model)
    origin = model_layout(pm.model)
    bands = {}
    for (w, e), (x, y) in pos.items():
        assert y == pytest.approx(origin[w][1])  # each copy keeps the model's rows
        bands.setdefault(e, []).append(x)
    (lo_e, hi_e), (lo_s, hi_s) = (
        (min(bands["e"]), max(bands["e"])),
        (
            min(bands["skip"]),
            max(bands["skip"]),
        ),
    )
    assert hi_e < lo_s or hi_s < lo_e  # the bands do not overlap
    with pytest.raises(VisualizeError, match="'events' layout is for product updates"):
        model_layout(pm.model, "events")


if __name__ == "__main__":
    IMAGES.mkdir(exist_ok=True)
    render_reference(REFERENCE)
    print(f"wrote {REFERENCE}", file=sys.stderr)
