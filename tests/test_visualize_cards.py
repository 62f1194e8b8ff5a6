"""Deal models drawn and read: labels, seat rows, beliefs and counts from has(loc, card) atoms."""

from __future__ import annotations

from fractions import Fraction as F

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import games.cards as cards_mod  # noqa: E402
import games.deal as deal  # noqa: E402
from kripke import announce, muddy_children  # noqa: E402
from kripke.errors import UnknownAgentError  # noqa: E402
from tests.strategies import models  # noqa: E402
from visualize import VisualizeError, draw_model, model_layout, who_knows  # noqa: E402
from visualize.cards import (  # noqa: E402
    belief_from_model,
    belief_of,
    count_history,
    deal_model_example,
    deal_world_labels,
    draw_deal_model,
    replay_knowledge,
)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def by_gid(ax, gid):
    return [a for a in ax.get_children() if a.get_gid() == gid]


def drawn_pairs(ax, model, agent, pos):
    labels = list(pos)
    pts = np.array([pos[w] for w in labels])
    out = []
    for arrow in by_gid(ax, f"relation:{agent}"):
        v = arrow.get_path().vertices
        a, b = (labels[int(np.argmin(((pts - p) ** 2).sum(1)))] for p in (v[0], v[-1]))
        out.append((a, b))
    return out


def components(worlds, pairs):
    parent = {w: w for w in worlds}

    def find(w):
        while parent[w] != w:
            w = parent[w]
        return w

    for a, b in pairs:
        parent[find(a)] = find(b)
    groups = {}
    for w in worlds:
        groups.setdefault(find(w), set()).add(w)
    return sorted(sorted(map(str, g)) for g in groups.values())


def test_three_cards_three_seats():
    """One card each: six deals, and each seat cannot tell apart the two deals that
    agree on its card (van Ditmarsch, van der Hoek & Kooi, DEL, 2007, §2)."""
    pm = deal_model_example()
    assert len(pm.model) == 6
    for seat in "abc":
        assert sorted(len(c) for c in pm.model.classes(seat)) == [2, 2, 2]
    label = deal_world_labels(pm.model)
    assert sorted(label(w) for w in pm.model.worlds) == [
        "0|1|2",
        "0|2|1",
        "1|0|2",
        "1|2|0",
        "2|0|1",
        "2|1|0",
    ]


def test_draw_deal_model_rows_are_the_seats_classes():
    pm = deal_model_example()
    ax = draw_deal_model(pm, seat="a")
    texts = sorted(t.get_text() for t in by_gid(ax, "label"))
    assert texts == ["0|1|2", "0|2|1", "1|0|2", "1|2|0", "2|0|1", "2|1|0"]
    pos = model_layout(pm.model, "classes", by="a")
    for cls in pm.model.classes("a"):
        assert len({pos[w][1] for w in cls}) == 1
    assert ax.get_title() == "deals: cards of a | b | c"


def test_draw_deal_model_bad_input():
    with pytest.raises(UnknownAgentError, match="'d'"):
        draw_deal_model(deal_model_example(), seat="d")
    with pytest.raises(VisualizeError, match="not a card-deal model"):
        draw_deal_model(muddy_children(2))
    with pytest.raises(VisualizeError, match="location 'pile'"):
        deal_world_labels(deal_model_example().model, ["a", "pile"])


def test_belief_from_model_after_a_public_event():
    """c shows its card 2 to everyone: a (holding 0) now knows b holds 1."""
    pm = deal_model_example()
    before = belief_from_model(pm, "a")
    assert before.locations == ("a", "b", "c")
    assert before.probabilities[1] == (0, F(1, 2), F(1, 2))
    after = belief_from_model(announce(pm, "has(c, 2)"), "a")
    assert after.probabilities[1] == (0, 1, 0) and after.deals == 1
    ax = after.draw()
    assert len(by_gid(ax, "known")) == 3


@pytest.mark.parametrize("seat", ["N", "E", "S", "W"])
def test_belief_agrees_with_who_knows_and_sums_to_one(seat):
    pm = deal_model_example(("AS", "KH", "QD", "JC"), ("N", "E", "S", "W"))
    b = belief_from_model(pm, seat)
    for row in b.probabilities:
        assert sum(row) == 1  # every card is somewhere
    fs = [f"has({loc}, {c})" for c in b.cards for loc in b.locations]
    t = who_knows(pm, fs, agents=[seat])
    assert list(t.values[0]) == [p for row in b.probabilities for p in row]


def test_count_history_of_announcements():
    pm = deal_model_example()
    steps = [pm, announce(pm, "has(c, 2)")]
    assert count_history(steps) == {"a": [2, 1], "b": [2, 1], "c": [2, 2]}
    with pytest.raises(VisualizeError):
        count_history([])


@settings(max_examples=20, deadline=None)
@given(models(s5=True))
def test_chains_connect_exactly_each_class(model):
    """Without transitive edges, each agent's drawn paths still join exactly its classes."""
    ax = draw_model(model, s5="chains", legend=False)
    pos = model_layout(model)
    for a in model.agents:
        pairs = drawn_pairs(ax, model, a, pos)
        assert len(pairs) == sum(len(c) - 1 for c in model.classes(a))
        assert components(model.worlds, pairs) == sorted(
            sorted(map(str, c)) for c in model.classes(a)
        )
    plt.close("all")


def test_auto_uses_chains_when_pairs_would_clutter():
    pm = deal_model_example(("AS", "KH", "QD", "JC"), ("N", "E", "S", "W"))
    ax = draw_deal_model(pm, seat="N")
    # 24 deals, each seat's classes hold 6: chains draw 5 edges per class, not 15
    assert [len(by_gid(ax, f"relation:{s}")) for s in "NESW"] == [20, 20, 20, 20]


# ------------------------------------------------- card-deal knowledge module


@st.composite
def small_deals(draw):
    """A true deal of 3..6 single cards among 2..3 seats and a pile, after a few
    public events and private reveals (no face-down moves: worlds are deals)."""
    names = ["A", "B", "C", "D", "E", "F"][: draw(st.integers(3, 6))]
    seats = ["x", "y", "z"][: draw(st.integers(2, 3))]
    where = {c: draw(st.sampled_from([*seats, "pile"])) for c in names}
    content = {loc: " ".join(c for c in names if where[c] == loc) for loc in [*seats, "pile"]}
    state = deal.DealState(cards_mod.Deck(names), content, agents=seats)
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["void", "at_least", "reveal", "move"]))
        loc = draw(st.sampled_from([*seats, "pile"]))
        held = [c for c in names if where[c] == loc]
        if kind == "void":
            absent = [c for c in names if where[c] != loc]
            if absent:
                state.void(loc, [draw(st.sampled_from(absent))])
        elif kind == "at_least" and held:
            state.at_least(loc, held, draw(st.integers(1, len(held))))
        elif kind == "reveal":
            state.reveal(loc, to=[draw(st.sampled_from(seats))])
        elif kind == "move" and held:
            c = draw(st.sampled_from(held))
            dst = draw(st.sampled_from([x for x in [*seats, "pile"] if x != loc]))
            state.move(c, loc, dst)
            where[c] = dst
    return state


def _as_dict(b):
    return {
        (c, loc): p
        for c, row in zip(b.cards, b.probabilities, strict=True)
        for loc, p in zip(b.locations, row, strict=True)
    }


@settings(max_examples=30, deadline=None)
@given(small_deals())
def test_deal_beliefs_agree_with_the_explicit_model(state):
    """The exact marginals of the deal module (dynamic programming) equal the
    fractions of accessible worlds in the deal's explicit Kripke model."""
    pm = state.kripke_model()
    for seat in state.agents:
        b = belief_of(state.knowledge(seat))
        assert b.deals == len(pm.model.accessible(seat, pm.actual))
        assert _as_dict(b) == _as_dict(belief_from_model(pm, seat))
    fs = [f"has({loc}, {c})" for c in ("A", "B") for loc in state.agents]
    fs.append(f"has({state.agents[0]}, A) | has(pile, B)")
    assert who_knows(state, fs) == who_knows(pm, fs)


def test_belief_of_a_full_deck_is_grouped_by_suit():
    d = cards_mod.Deck.standard()
    k = deal.DealKnowledge(d, {"me": 13, "p1": 13, "p2": 13, "p3": 13}, name="me")
    k.reveal("me", d.suit("S"))
    k.void("p1", d.suit("H"))
    b = belief_of(k)
    ax = b.draw()
    assert [t.get_text() for t in by_gid(ax, "group")] == ["C", "D", "H", "S"]
    assert len(by_gid(ax, "known")) == 13
    # p1 is void in hearts: each heart is p2's or p3's with probability 1/2
    i = b.cards.index("AH")
    assert b.probabilities[i] == (0, 0, F(1, 2), F(1, 2))
    assert ax.get_title().startswith("me's belief (")


def test_belief_of_a_deck_with_copies_shows_expected_copies():
    """BS king-of-the-hill deck: 4 copies of each rank.  Holding three 7s, the last
    one is with p1, p2 or p3 equally likely: 1/3 expected copy each."""
    d = cards_mod.Deck.ranks(13, copies=4)
    k = deal.DealKnowledge(d, {"me": 13, "p1": 13, "p2": 13, "p3": 13}, name="me")
    k.reveal("me", ["7"] * 3 + [str(r) for r in range(11) if r != 7])
    b = belief_of(k)
    i = b.cards.index("7")
    assert b.probabilities[i] == (3, F(1, 3), F(1, 3), F(1, 3))
    assert b.known[i] == (True, False, False, False)
    ax = b.draw()
    texts = [t.get_text() for t in by_gid(ax, "cell")]
    assert "3" in texts and "1/3" in texts and "4/3" in texts
    # me: one copy of each of 0..10 except 7 (known), three 7s (known)
    assert len(by_gid(ax, "known")) == 11


def test_draw_deal_model_of_a_deal_state():
    state = deal.DealState(cards_mod.Deck(["A", "B", "C"]), {"x": "A", "y": "B", "z": "C"})
    pm = state.kripke_model()
    ax = draw_deal_model(pm, seat="x")
    texts = sorted(t.get_text() for t in by_gid(ax, "label"))
    assert texts == ["A|B|C", "A|C|B", "B|A|C", "B|C|A", "C|A|B", "C|B|A"]


# ------------------------------------------------------------- game replays
def test_replay_knowledge_over_a_boerenbridge_round():
    """Within a round every seat's count of possible deals only shrinks, and once
    every card of the round is played the deal is known (the unseen cards can
    only be the undealt ones)."""
    bb = pytest.importorskip("games.boerenbridge")
    from games.base import load_game

    game = load_game("boerenbridge", variant="lamas")
    state = bb.random_playout(game, seed=4)
    replay = game.new_initial_state()
    starts = []
    for t, a in enumerate(state.history()):
        if replay.current_player() < 0 and (not starts or replay.round_index != starts[-1][0]):
            starts.append((replay.round_index, t))
        replay.apply_action(a)
    (_, begin), (_, end) = starts[0], starts[1]

    def mark(s, player, action):
        return f"P{player} guesses" if player >= 0 and s.phase == "guess" else None

    tl = replay_knowledge(
        state,
        lambda seat: bb.SeatView(game.params, seat),
        start=begin,
        stop=end,
        mark=mark,
    )
    for seat, counts in tl.counts.items():
        assert all(a >= b for a, b in zip(counts, counts[1:], strict=False)), seat
        assert counts[0] > 1 and counts[-1] == 1
        assert len(counts) == len(tl.steps)
    assert [text for _, text in tl.events] == [f"P{(1 + i) % 4} guesses" for i in range(4)]
    ax = tl.draw()
    assert len([c for c in ax.get_children() if c.get_gid() == "event"]) == 4


def test_replay_knowledge_rejects_a_bad_slice():
    bb = pytest.importorskip("games.boerenbridge")
    from games.base import load_game

    state = bb.random_playout(load_game("boerenbridge"), seed=1, stop_after=30)
    with pytest.raises(VisualizeError, match="cannot replay actions 10..99"):
        replay_knowledge(state, lambda seat: None, start=10, stop=99)


def test_replay_knowledge_of_bs_follows_each_seat_from_its_observations():
    """BS koth: the counts of the incremental replay equal those of seat knowledge
    rebuilt from scratch at the same step, and every call is marked."""
    bs = pytest.importorskip("games.bs")
    from games.base import load_game, make_bot, play_game

    game = load_game("bs", variant="koth")
    bots = [make_bot("bs", name, seed=i) for i, name in enumerate(["truthful", "liar"] * 2)]
    state = play_game(game, bots, seed=2, max_steps=75, keep_state=True).state

    def mark(s, player, action):
        return f"P{player} calls" if s.phase == "call" and action == bs.CALL else None

    tl = replay_knowledge(state, lambda seat: bs.SeatKnowledge(game, seat, exact=True), mark=mark)
    replay = game.new_initial_state()
    for a in state.history()[: tl.steps[-1]]:
        replay.apply_action(a)
    for seat in range(4):
        fresh = bs.SeatKnowledge(game, seat, exact=True)
        for o in replay.observations(seat):
            fresh.observe(o)
        assert tl.counts[f"P{seat}"][-1] == fresh.knowledge.count()
    assert all(c[0] > 10**9 for c in tl.counts.values())
    calls = [
        t
        for t, a in enumerate(state.history())
        if a == bs.CALL and _phase_at(game, state, t) == "call"
    ]
    assert len(tl.events) == len(calls)


def _phase_at(game, state, t):
    replay = game.new_initial_state()
    for a in state.history()[:t]:
        replay.apply_action(a)
    return replay.phase


def test_belief_draw_hides_locations_that_hold_none_of_the_cards():
    k = deal.DealKnowledge(cards_mod.Deck(["A", "B", "C"]), {"me": 1, "you": 2, "pile": 0})
    k.reveal("me", "A")
    b = belief_of(k, seat="me")
    assert b.locations == ("me", "you", "pile")
    shown = [t.get_text() for t in by_gid(b.draw(), "location")]
    assert shown == ["me", "you"]
    everything = [t.get_text() for t in by_gid(b.draw(hide_empty=False), "location")]
    assert everything == ["me", "you", "pile"]
