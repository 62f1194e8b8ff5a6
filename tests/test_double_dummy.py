"""The double-dummy solver against brute-force minimax, its own recursion, and known positions."""

from __future__ import annotations

import functools
import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.boerenbridge import parse_cards
from games.boerenbridge.double_dummy import (
    DoubleDummySolver,
    Position,
    can_force,
    mask_of,
    max_tricks,
    min_tricks,
    trick_counts,
)
from games.errors import InvalidParameterError


def hands_of(*texts: str) -> list[int]:
    return [mask_of(parse_cards(t)) for t in texts]


def load_benchmark() -> ModuleType:
    """``benchmarks/double_dummy.py`` as a module: its plain minimax and its ablations."""
    folder = Path(__file__).resolve().parent.parent / "benchmarks"
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))  # for the benchmarks' shared _common module
    spec = importlib.util.spec_from_file_location(
        "double_dummy_benchmark", folder / "double_dummy.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH = load_benchmark()


def random_position(
    rng: random.Random, n: int, players: int, trump: int | None | str = "random"
) -> Position:
    """A random deal of ``n`` cards each, a random leader and partial trick, and the
    trump suit ``trump`` (a random one, or no trump, by default)."""
    cards = list(range(32))
    rng.shuffle(cards)
    hands = [mask_of(cards[i * n : (i + 1) * n]) for i in range(players)]
    if trump == "random":
        trump = rng.choice([None, 0, 1, 2, 3])
    assert not isinstance(trump, str)
    pos = Position(hands, trump, rng.randrange(players))
    for _ in range(rng.randrange(players)):
        pos, _ = pos.play(rng.choice(pos.legal_cards()))
    return pos


def brute_force(pos: Position, side: int | frozenset[int], cooperative: bool = False) -> frozenset:
    """Plain minimax over every legal card (no equivalences, bounds or tables): the set of
    intervals ``(low, high)`` the side (a seat or a set of seats) can force its remaining
    tricks into, or with ``cooperative`` reach when every seat plays for it."""
    seats = frozenset([side]) if isinstance(side, int) else side
    rem = pos.remaining_tricks
    every = [(lo, hi) for lo in range(rem + 1) for hi in range(lo, rem + 1)]

    @functools.lru_cache(None)
    def rec(hands, leader, trick, won):
        p = Position(hands, pos.trump, leader, trick)
        if p.remaining_tricks == 0:
            return frozenset((lo, hi) for lo, hi in every if lo <= won <= hi)
        results = []
        for c in p.legal_cards():
            q, w = p.play(c)
            results.append(rec(q.hands, q.leader, q.trick, won + (w in seats)))
        if cooperative or p.to_play in seats:
            return frozenset().union(*results)
        return frozenset.intersection(*results)

    return rec(pos.hands, pos.leader, pos.trick, 0)


@pytest.mark.parametrize("n, players, seed", [(3, 4, 1), (4, 4, 2), (3, 3, 3), (4, 3, 4)])
def test_every_interval_agrees_with_brute_force(n, players, seed):
    rng = random.Random(seed)
    for _ in range(6):
        pos = random_position(rng, n, players)
        side = rng.randrange(players)
        solver = DoubleDummySolver(pos.trump, players, side)
        rem = pos.remaining_tricks
        forced = brute_force(pos, side)
        for lo in range(rem + 1):
            for hi in range(lo, rem + 1):
                assert solver.can_force(pos, lo, hi) == ((lo, hi) in forced), (lo, hi)
        best = max(t for t in range(rem + 1) if (t, rem) in forced)
        least = min(t for t in range(rem + 1) if (0, t) in forced)
        assert solver.max_tricks(pos) == best
        assert solver.min_tricks(pos) == least


@pytest.mark.parametrize("n, players, seed", [(3, 4, 5), (4, 3, 6)])
def test_cooperative_search_agrees_with_brute_force(n, players, seed):
    rng = random.Random(seed)
    for _ in range(5):
        pos = random_position(rng, n, players)
        side = rng.randrange(players)
        solver = DoubleDummySolver(pos.trump, players, side, cooperative=True)
        rem = pos.remaining_tricks
        reachable = brute_force(pos, side, cooperative=True)
        for lo in range(rem + 1):
            for hi in range(lo, rem + 1):
                assert solver.can_force(pos, lo, hi) == ((lo, hi) in reachable)


def test_one_solver_stays_exact_across_many_deals():
    """The transposition table keys on relevant ranks only, so it is shared by every deal
    with the same trump and side; answers must equal those of a fresh solver."""
    rng = random.Random(7)
    shared: dict[tuple[int | None, int], DoubleDummySolver] = {}
    for _ in range(120):
        pos = random_position(rng, 4, 4)
        side = rng.randrange(4)
        solver = shared.setdefault((pos.trump, side), DoubleDummySolver(pos.trump, 4, side))
        fresh = DoubleDummySolver(pos.trump, 4, side)
        rem = pos.remaining_tricks
        lo = rng.randint(0, rem)
        hi = rng.randint(lo, rem)
        assert solver.can_force(pos, lo, hi) == fresh.can_force(pos, lo, hi)
        assert solver.max_tricks(pos) == fresh.max_tricks(pos)
        assert solver.min_tricks(pos) == fresh.min_tricks(pos)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), n=st.integers(4, 6), players=st.integers(3, 4))
def test_value_is_the_minimax_of_its_children(seed, n, players):
    """Bellman consistency on bigger positions: the side's best is the best of its cards, the
    others' is the worst for the side, and winning the trick counts one."""
    rng = random.Random(seed)
    pos = random_position(rng, n, players)
    side = rng.randrange(players)
    solver = DoubleDummySolver(pos.trump, players, side)
    children = []
    for c in pos.legal_cards():
        q, w = pos.play(c)
        children.append(solver.max_tricks(q) + (w == side))
    pick = max if pos.to_play == side else min
    assert solver.max_tricks(pos) == pick(children)


def test_known_positions():
    # North leads the A♠ and the K♠ must fall under it, then the 7♠ is good;
    # or North leads the 7♠ under the K♠ and discards the A♠ on a heart.
    pos = Position(hands_of("AS 7S", "KS 8H", "QH 9H", "JH 10H"), None, 0)
    assert (max_tricks(pos, 0), min_tricks(pos, 0)) == (2, 0)
    assert can_force(pos, 0, 1, 1) is False  # once the K♠ is gone the 7♠ must win
    # the top trumps win whoever leads
    pos = Position(hands_of("AS KS", "AH KH", "QH JH", "10H 9H"), 3, 1)
    assert max_tricks(pos, 0) == min_tricks(pos, 0) == 2
    # a void with a trump ruffs the ace
    pos = Position(hands_of("AH 7C", "KH 8C", "7S QH", "JH 9C"), 3, 1)
    assert max_tricks(pos, 2) == 1


def test_positions_with_a_trick_in_progress():
    pos = Position(hands_of("AS 7S", "KS 8H", "QH 9H", "JH 10H"), None, 0)
    after, winner = pos.play(parse_cards("7S")[0])
    assert winner is None and after.to_play == 1 and after.remaining_tricks == 2
    # East must now play the K♠ over the 7♠ and lead a heart: the A♠ falls on it
    assert max_tricks(after, 0) == 0
    assert trick_counts(pos, parse_cards("AS KS QH JH 7S 8H 9H 10H")) == [2, 0, 0, 0]


def test_bad_positions_are_named():
    with pytest.raises(InvalidParameterError, match="shares cards"):
        Position(hands_of("AS", "AS", "KH", "QH"), None, 0)
    with pytest.raises(InvalidParameterError, match="hand sizes"):
        Position(hands_of("AS KS", "QS", "KH", "QH"), None, 0)
    with pytest.raises(InvalidParameterError, match="trump"):
        Position(hands_of("AS", "KS", "KH", "QH"), 5, 0)
    pos = Position(hands_of("AS", "KS", "KH", "QH"), None, 0)
    with pytest.raises(InvalidParameterError, match="not a legal card"):
        pos.play(parse_cards("KS")[0])
    with pytest.raises(InvalidParameterError, match="does not match"):
        DoubleDummySolver(3, 4, 0).max_tricks(pos)
    with pytest.raises(InvalidParameterError, match="side seat 7"):
        DoubleDummySolver(None, 4, 7)


@pytest.mark.parametrize("trump", [None, 0, 1, 2, 3])
def test_every_trump_setting_agrees_with_brute_force(trump):
    """Each trump suit and no trump, three and four seats, sides of one and two seats,
    tricks in progress: every interval, the most and the fewest tricks."""
    rng = random.Random(100 + (trump if trump is not None else 4))
    for i in range(8):
        players = 4 if i % 2 else 3
        pos = random_position(rng, 3 + i % 2, players, trump)
        side = frozenset(rng.sample(range(players), 1 + (i % 4 == 3)))
        solver = DoubleDummySolver(trump, players, side)
        forced = brute_force(pos, side)
        rem = pos.remaining_tricks
        for lo in range(rem + 1):
            for hi in range(lo, rem + 1):
                assert solver.can_force(pos, lo, hi) == ((lo, hi) in forced), (i, lo, hi)
        assert solver.max_tricks(pos) == max(t for t in range(rem + 1) if (t, rem) in forced)
        assert solver.min_tricks(pos) == min(t for t in range(rem + 1) if (0, t) in forced)


@pytest.mark.parametrize("trump", [0, 1, 2, 3])
def test_trump_tricks_bound_the_answer_both_ways(trump):
    """The trump count the search cuts with, checked against brute force on its own: a
    trump takes its trick unless a higher trump of the other team falls on it, so a hand
    whose j-th highest trump has fewer than j higher trumps against it takes tricks even
    when it tries to lose them, and an opponent's such trumps cap the side's tricks."""
    from games.boerenbridge.double_dummy import _TRUMP_BOUND

    rng = random.Random(200 + trump)
    sh = 8 * trump
    checked = 0
    for _ in range(80):
        pos = random_position(rng, 3, 4, trump)
        if pos.trick:
            continue
        side = rng.randrange(4)
        trumps = [(h >> sh) & 0xFF for h in pos.hands]
        others = 0
        for q in range(4):
            if q != side:
                others |= trumps[q]
        sure = _TRUMP_BOUND[trumps[side] << 8 | others][0]
        lost = max(_TRUMP_BOUND[trumps[q] << 8 | trumps[side]][0] for q in range(4) if q != side)
        most, fewest = BENCH.plain_tricks(pos, side), BENCH.plain_tricks(pos, side, most=False)
        assert sure <= fewest and most <= pos.remaining_tricks - lost
        checked += sure > 0 or lost > 0
    assert checked >= 10  # the bounds were not all zero


def test_most_tricks_from_a_guess_equal_a_scan_on_bigger_positions():
    """Six cards a hand: the guessed start of :meth:`max_tricks` gives the same answer
    as testing every target from the top, and a solver shared by all deals agrees."""
    rng = random.Random(11)
    shared: dict[int | None, DoubleDummySolver] = {}
    for i in range(10):
        trump = (None, 0, 1, 2, 3)[i % 5]
        pos = random_position(rng, 6, 4, trump)
        side = rng.randrange(4)
        fresh = DoubleDummySolver(trump, 4, side)
        rem = pos.remaining_tricks
        scan = next(t for t in range(rem, -1, -1) if fresh.can_force(pos, t, rem))
        assert DoubleDummySolver(trump, 4, side).max_tricks(pos) == scan
        solver = shared.setdefault(trump, DoubleDummySolver(trump, 4, side))
        if solver.side == frozenset([side]):
            assert solver.max_tricks(pos) == scan


#: An 8-card position (trump clubs, North leads) where East makes 5 tricks: the
#: solver once answered 4 with its move ordering switched off, when an entry of the
#: table of leads matched a lead of a rank the entry had not seen.
LEAD_TABLE_CASE = Position((537145104, 1074331877, 2228260866, 455229448), 0, 0)


@pytest.mark.parametrize(
    "name", [name for name, _ in BENCH.ABLATIONS if name != "no transposition table"]
)
def test_every_technique_switched_off_leaves_the_answers_exact(name, tmp_path):
    """The benchmark's ablations (the solver's source with one technique switched off)
    answer like plain minimax: no technique's soundness may rest on another one, such as
    the order in which moves are tried; and the ablation texts still match the source."""
    edits = dict(BENCH.ABLATIONS)[name]
    mod = BENCH.load_variant(name, edits, tmp_path)
    rng = random.Random(41)
    for _ in range(5):
        pos = random_position(rng, 4, 4)
        side = rng.randrange(4)
        copy = mod.Position(pos.hands, pos.trump, pos.leader, pos.trick)
        assert mod.DoubleDummySolver(pos.trump, 4, side).max_tricks(copy) == BENCH.plain_tricks(
            pos, side
        )
    case = mod.Position(LEAD_TABLE_CASE.hands, 0, 0)
    assert mod.DoubleDummySolver(0, 4, 1).max_tricks(case) == 5


def test_lead_table_case_is_the_minimax_of_its_children():
    """The 5 tricks of the position above agree with fresh solves after each lead: North
    (an opponent of East) leads the card that leaves East the fewest."""
    children = []
    for c in LEAD_TABLE_CASE.legal_cards():
        after, _ = LEAD_TABLE_CASE.play(c)
        children.append(max_tricks(after, 1))
    assert max_tricks(LEAD_TABLE_CASE, 1) == min(children) == 5


def test_deep_searches_run_above_a_fresh_frame_chunk(monkeypatch):
    """Positions of at least ``_ROOM_MIN_CARDS`` cards are searched through ``_in_room``
    (whose frame makes the interpreter start a fresh chunk of its frame stack) and
    answer like plain minimax; smaller ones are searched directly."""
    import games.boerenbridge.double_dummy as dd

    assert dd._in_room.__code__.co_stacksize == dd._ROOM_SLOTS
    deep_calls = []
    original = dd._in_room

    def spy(fn, *args):
        deep_calls.append(args[0].remaining_tricks)
        return original(fn, *args)

    monkeypatch.setattr(dd, "_in_room", spy)
    rng = random.Random(17)
    for _ in range(3):
        pos = random_position(rng, 3, 8)  # 3 tricks x 8 seats = 24 cards
        side = rng.randrange(8)
        assert DoubleDummySolver(pos.trump, 8, side).max_tricks(pos) == BENCH.plain_tricks(
            pos, side
        )
    assert len(deep_calls) == 3 and all(r * 8 >= dd._ROOM_MIN_CARDS for r in deep_calls)
    deep_calls.clear()
    small = random_position(rng, 3, 4)
    DoubleDummySolver(small.trump, 4, 0).max_tricks(small)
    assert deep_calls == []


def guarded_bound(pos: Position, side: int) -> int:
    """The guarded-suits bound written out plainly: when no other seat holds a trump,
    the side guards a suit if, for some ``j`` up to its length, the others hold fewer
    than ``j`` cards above its ``j``-th highest card; keeping those ``j`` cards of the
    guarded suits it counts (at least one), the side is sure of a trick against the
    others' leads when the others' longest holdings of the other suits add up to at
    most its remaining cards.  The most cards kept of one suit when the bound holds
    (2 or more: a guarded suit without a master), else 0."""
    suits = guarded_suits(pos, side)
    if suits is None:
        return 0
    for counted in guarded_sets(suits, pos.remaining_tricks):
        return max(suits[i][0] or 0 for i in counted)
    return 0


def guarded_suits(pos: Position, side: int) -> list[tuple[int | None, int]] | None:
    """For each suit left, the side's cards to keep to guard it (the ``j`` of the
    guarded-suits bound, or None) and the others' longest holding of it; None when
    another seat holds a trump."""
    others = 0
    for q, h in enumerate(pos.hands):
        if q != side:
            others |= h
    if pos.trump is not None and (others >> (8 * pos.trump)) & 0xFF:
        return None
    suits = []  # (the cards to keep or None, the others' longest holding)
    for s in range(4):
        mine = [r for r in range(8) if pos.hands[side] >> (8 * s + r) & 1]
        theirs = [r for r in range(8) if others >> (8 * s + r) & 1]
        if not mine and not theirs:
            continue
        longest = max(
            sum(pos.hands[q] >> (8 * s + r) & 1 for r in range(8))
            for q in range(len(pos.hands))
            if q != side
        )
        keep = None
        for j, rank in enumerate(sorted(mine, reverse=True), start=1):
            if sum(t > rank for t in theirs) < j:
                keep = j
                break
        suits.append((keep, longest))
    return suits


def guarded_sets(suits: list[tuple[int | None, int]], rem: int) -> list[set[int]]:
    """Every non-empty set of the guarded suits (``suits``: the cards to keep or None,
    the others' longest holding) whose kept cards and the others' longest holdings of
    the other suits fit in the ``rem`` remaining tricks."""
    guarded = [i for i, (keep, _) in enumerate(suits) if keep is not None]
    out = []
    for chosen in range(1, 2 ** len(guarded)):
        counted = {guarded[b] for b in range(len(guarded)) if chosen >> b & 1}
        kept = sum(suits[i][0] or 0 for i in counted)
        room = sum(ln for i, (_, ln) in enumerate(suits) if i not in counted)
        if room <= rem - kept:
            out.append(counted)
    return out


def test_guarded_suits_bound_gives_the_side_a_trick():
    """The guarded-suits bound the search cuts with (the side's masters, and holdings
    such as K-Q against the ace), checked against plain minimax on its own: random
    deals of two to four suits, and deals of one full suit and a few cards of another
    where the side holds the K-Q of the full suit (a trump suit nobody holds, or no
    trump); a bound that fires must be right."""
    rng = random.Random(23)
    checked = deeper = 0
    for i in range(200):
        n = 3 + i % 3 // 2
        if i % 2:
            suits = rng.sample(range(4), 2 + i % 3)
            cards = rng.sample([8 * s + r for s in suits for r in range(8)], 4 * n)
            side = rng.randrange(4)
        else:
            suits = rng.sample(range(4), 2)
            a, b = suits
            others = [8 * a + r for r in range(8) if r < 5 or r == 7]
            others += rng.sample([8 * b + r for r in range(8)], 4 * n - 8)
            rng.shuffle(others)
            side = rng.randrange(4)
            cards = others[: side * n] + [8 * a + 6, 8 * a + 5] + others[side * n :]
        hands = [mask_of(cards[j * n : (j + 1) * n]) for j in range(4)]
        trump = rng.choice([None, *(s for s in range(4) if s not in suits)])
        pos = Position(hands, trump, (side + 1 + rng.randrange(3)) % 4)
        kept = guarded_bound(pos, side)
        if kept:
            assert BENCH.plain_tricks(pos, side) >= 1
            assert DoubleDummySolver(trump, 4, side).can_force(pos, 1, pos.remaining_tricks)
            checked += 1
            deeper += kept >= 2
    assert checked >= 40 and deeper >= 10  # the bound applied often enough to be tested


def test_trump_game_tricks_are_sure():
    """The trump game the search cuts with (only the trumps count, the others take
    every trick without a trump and the side never ruffs while it holds another
    card), checked against plain minimax on its own: tricks the side is sure of
    there, it can force in the real game -- one trick or more, the side or one of the
    others on lead."""
    rng = random.Random(29)
    fired: dict[tuple[bool, bool], int] = {}
    n = 3
    for i in range(300):
        suits = rng.sample(range(4), 2 + i % 3)
        cards = rng.sample([8 * s + r for s in suits for r in range(8)], 4 * n)
        hands = [mask_of(cards[j * n : (j + 1) * n]) for j in range(4)]
        trump = rng.choice(suits)
        side = rng.randrange(4)
        pos = Position(hands, trump, rng.randrange(4))
        game = DoubleDummySolver(trump, 4, side)._search[3]
        trumps = [(h >> (8 * trump)) & 0xFF for h in hands]
        most = None
        for need in range(1, trumps[side].bit_count() + 1):
            if game(list(trumps), n, pos.leader, need) & 256:
                if most is None:
                    most = BENCH.plain_tricks(pos, side)
                assert most >= need, (hands, trump, side, pos.leader, need)
                kind = (need > 1, pos.leader == side)
                fired[kind] = fired.get(kind, 0) + 1
    # the game proved one trick and more, with the side and the others on lead
    assert min(fired.get(k, 0) for k in [(False, False), (True, False), (False, True)]) >= 5
    assert fired.get((True, True), 0) >= 2


def test_trump_game_answer_holds_below_its_relevant_trump():
    """The trump game's answer holds for every deal of the trumps that gives each seat
    as many trumps and the same owners of the trumps at or above the lowest relevant
    one it names (partition search): the trumps below it are dealt again at random
    among their holders."""
    rng = random.Random(31)
    checked = narrowed = 0
    for _ in range(400):
        side = rng.randrange(4)
        cards = rng.sample(range(8), rng.randrange(3, 9))
        trumps = [0, 0, 0, 0]
        for c in cards:
            trumps[rng.randrange(4)] |= 1 << c
        rem = max(t.bit_count() for t in trumps) + rng.randrange(2)
        leader = rng.randrange(4)
        for need in range(1, trumps[side].bit_count() + 1):
            game = DoubleDummySolver(0, 4, side)._search[3]
            v = game(list(trumps), rem, leader, need)
            rel = v & 0xFF
            # the trumps below the lowest relevant one (every trump when no rank counts)
            cut = (rel & -rel).bit_length() - 1 if rel else 8
            low = [b for b in range(cut) if any(t >> b & 1 for t in trumps)]
            owners = [q for b in low for q in range(4) if trumps[q] >> b & 1]
            for _deal in range(3):
                rng.shuffle(owners)
                other = [t & ~sum(1 << b for b in low) for t in trumps]
                for b, q in zip(low, owners, strict=True):
                    other[q] |= 1 << b
                fresh = DoubleDummySolver(0, 4, side)._search[3]
                got = fresh(list(other), rem, leader, need)
                assert got & 256 == v & 256, (trumps, other, rem, leader, need, side)
                checked += 1
            if v & 256 and low and rel:
                narrowed += 1
    assert checked > 500 and narrowed >= 10, (checked, narrowed)


def test_guarded_suits_bound_counts_the_masters_kept():
    """After its first trick the side is on lead with the masters it kept for the
    counted suits (but perhaps the one that won): it is sure of as many tricks as it
    kept masters, and of one at least -- checked against plain minimax for every set
    of guarded suits the bound may count, on random deals and deals where the side
    holds two or three aces."""
    rng = random.Random(37)
    checked = two = 0
    for i in range(120):
        n = 3 + (i % 4 == 0)
        suits = rng.sample(range(4), 2 + i % 3)
        deck = [8 * s + r for s in suits for r in range(8)]
        side = rng.randrange(4)
        if i % 3:
            aces = [8 * s + 7 for s in suits[: 2 + i % 2]]
            rest = rng.sample([c for c in deck if c not in aces], 4 * n - len(aces))
            mine = aces + rest[: n - len(aces)]
            others = rest[n - len(aces) :]
            cards = others[: side * n] + mine + others[side * n :]
        else:
            cards = rng.sample(deck, 4 * n)
        hands = [mask_of(cards[j * n : (j + 1) * n]) for j in range(4)]
        trump = rng.choice([None, *(s for s in range(4) if s not in suits)])
        pos = Position(hands, trump, (side + 1 + rng.randrange(3)) % 4)
        info = guarded_suits(pos, side)
        sets = guarded_sets(info, n) if info is not None else []
        if not sets:
            continue
        most = BENCH.plain_tricks(pos, side)
        for counted in sets:
            sure = max(1, sum(info[k][0] == 1 for k in counted))
            assert most >= sure, (hands, trump, side, pos.leader, counted)
            checked += 1
            two += sure >= 2
        assert DoubleDummySolver(trump, 4, side).max_tricks(pos) == most
    assert checked >= 60 and two >= 20, (checked, two)


def entry_sets(pos: Position, side: int, any_leader: bool = False) -> list[int]:
    """The guarded-suits bound with its entries rule written out plainly: for every
    non-empty set of guarded suits the side may count (no other seat holds a trump),
    a suit not counted that one other seat alone holds, not on lead (any seat with
    ``any_leader``), and whose other cards all lie in counted suits with ``j == 1``,
    adds nothing to the room (that seat never wins a trick, so the suit is never
    led).  The masters kept (one at least) for each set that fits only so."""
    info = guarded_suits(pos, side)
    if info is None:
        return []
    present = [s for s in range(4) if any(h >> (8 * s) & 0xFF for h in pos.hands)]
    rem = pos.remaining_tricks
    out = []
    for counted in guarded_sets(info, 99):
        kept = sum(info[i][0] or 0 for i in counted)
        ones = 0
        for i in counted:
            if info[i][0] == 1:
                ones |= 0xFF << (8 * present[i])
        room = plain_room = 0
        for i, (_, ln) in enumerate(info):
            if i in counted:
                continue
            plain_room += ln
            sh = 8 * present[i]
            holders = [q for q in range(4) if q != side and pos.hands[q] >> sh & 0xFF]
            free = (
                len(holders) == 1
                and (any_leader or holders[0] != pos.leader)
                and not pos.hands[holders[0]] & ~(ones | 0xFF << sh)
            )
            room += 0 if free else ln
        if room <= rem - kept < plain_room:
            out.append(max(1, sum(info[i][0] == 1 for i in counted)))
    return out


def test_guarded_suits_bound_leaves_out_suits_nobody_can_lead():
    """The entries rule of the guarded-suits bound, checked against plain minimax: a
    suit that one of the others alone holds is never led when that seat is not on
    lead and holds otherwise only suits where the side plays a master.  Deals where
    one seat holds such a suit; the rule with the leader allowed to be that seat (one
    trick too generous) is refuted on some of them."""
    rng = random.Random(41)
    checked = refuted = 0
    for i in range(150):
        n = 3 + (i % 30 == 0)
        a, s, b = rng.sample(range(4), 3)
        side, holder = rng.sample(range(4), 2)
        k = 1 + rng.randrange(n - 1)
        lows = rng.sample([8 * a + r for r in range(7)], n - k)
        long = rng.sample([8 * s + r for r in range(8)], k)
        hands = [0] * 4
        hands[holder] = mask_of(lows + long)
        rest = [c for c in range(32) if c >> 3 in (a, s, b) and c != 8 * a + 7]
        rest = [c for c in rest if c not in lows and c not in long]
        rng.shuffle(rest)
        mine = [8 * a + 7] + rest[: n - 1]
        hands[side] = mask_of(mine)
        rest = [c for c in rest[n - 1 :] if c >> 3 != s]
        for q in range(4):
            if q not in (side, holder):
                hands[q] = mask_of(rest[:n])
                rest = rest[n:]
        leader = rng.choice([q for q in range(4) if q != side])
        pos = Position(hands, rng.choice([None, 6 - a - s - b]), leader)
        sure = entry_sets(pos, side)
        loose = entry_sets(pos, side, any_leader=True)
        if not sure and not loose:
            continue
        most = BENCH.plain_tricks(pos, side)
        for t in sure:
            assert most >= t, (hands, pos.trump, side, leader)
            checked += 1
        refuted += any(most < t for t in loose)
        assert DoubleDummySolver(pos.trump, 4, side).max_tricks(pos) == most
    assert checked >= 30 and refuted >= 3, (checked, refuted)


def redeal_below_masters(
    rng: random.Random, hands: list[int], side: int, trump: int | None
) -> list[int]:
    """The hands with every card but the side's masters (the top cards of a plain suit
    that the side holds one after another) dealt again at random within its suit among
    the seats that held such cards: every seat keeps its suit lengths."""
    allc = 0
    for h in hands:
        allc |= h
    out = list(hands)
    for s in range(4):
        suit = [8 * s + r for r in range(8) if allc >> (8 * s + r) & 1]
        masters = set()
        if s != trump:
            for c in reversed(suit):
                if not hands[side] >> c & 1:
                    break
                masters.add(c)
        loose = [c for c in suit if c not in masters]
        owners = [q for c in loose for q in range(len(hands)) if hands[q] >> c & 1]
        rng.shuffle(owners)
        for c in loose:
            for q in range(len(hands)):
                out[q] &= ~(1 << c)
        for c, q in zip(loose, owners, strict=True):
            out[q] |= 1 << c
    return out


def test_suit_game_tricks_are_sure_whatever_the_ranks_below_the_masters():
    """The suit game the search cuts with (suit lengths and the side's masters, no other
    rank) checked against plain minimax on its own: when it says the side is sure of one
    or two tricks, the side can force them in the real game -- and in every deal that
    keeps the suit lengths and the owners of the side's masters (the cards below them
    dealt again at random), which is how its answer enters the tables."""
    rng = random.Random(43)
    fired: dict[tuple[int, bool], int] = {}
    n = 3
    for i in range(1500):
        trump = (None, 0, 1, 2, 3)[i % 5]
        cards = rng.sample(range(32), 4 * n)
        hands = [mask_of(cards[j * n : (j + 1) * n]) for j in range(4)]
        side = rng.randrange(4)
        leader = rng.choice([q for q in range(4) if q != side])
        game = DoubleDummySolver(trump, 4, side)._search[4]
        allc = mask_of(cards)
        for need in (1, 2):
            sure, rel = game(list(hands), allc, n, leader, need)
            if not sure:
                continue
            for deal in (hands, redeal_below_masters(rng, hands, side, trump)):
                pos = Position(deal, trump, leader)
                assert BENCH.plain_tricks(pos, side) >= need, (deal, trump, side, leader, need)
            # the relevant cards are the side's masters
            assert rel and rel & hands[side] == rel
            kind = (need, trump is None)
            fired[kind] = fired.get(kind, 0) + 1
    assert min(fired.get((need, nt), 0) for need in (1, 2) for nt in (False, True)) >= 5, fired


def test_bounds_that_widen_the_goal_stay_relevant():
    """A five-seat position (trump diamonds) where the others' trumps bound the side's
    tricks from above, so that a goal ``[1, 2]`` deep in the search becomes "at least
    one": the answer of the bound that then proves it must carry the others' trumps
    as relevant cards, or a table entry answers a deal where they lie elsewhere (the
    suit game once made the solver answer True here)."""
    pos = Position([89, 67379712, 9442304, 3254781952, 147586], 1, 3)
    truth = brute_force(pos, 2)
    for lo, hi in [(1, 2), (1, 1), (0, 1), (1, 4)]:
        assert can_force(pos, 2, lo, hi) == ((lo, hi) in truth), (lo, hi)


def test_trumps_and_masters_are_sure_when_nobody_else_holds_a_trump():
    """When nobody else holds a trump, the side (holding a trump, or on lead) is sure of
    as many tricks as it holds trumps and masters -- checked against plain minimax on
    deals where the others hold no trump, with the side on lead and not."""
    rng = random.Random(47)
    fired = {True: 0, False: 0}
    n = 3
    for _ in range(400):
        trump = rng.randrange(4)
        side = rng.randrange(4)
        # the trumps all go to the side, some of them
        trumps = rng.sample([8 * trump + r for r in range(8)], rng.randrange(0, 3))
        rest = rng.sample([c for c in range(32) if c >> 3 != trump], 4 * n - len(trumps))
        cards = [*trumps, *rest]
        hands = [0] * 4
        hands[side] = mask_of(cards[:n])
        others = cards[n:]
        for j, q in enumerate(q for q in range(4) if q != side):
            hands[q] = mask_of(others[j * n : (j + 1) * n])
        leader = rng.randrange(4)
        bound = DoubleDummySolver(trump, 4, side)._search[5]
        sure, rel = bound(list(hands), mask_of(cards), leader)
        if sure:
            pos = Position(hands, trump, leader)
            assert BENCH.plain_tricks(pos, side) >= sure, (hands, trump, side, leader, sure)
            assert rel & hands[side] == rel
            fired[leader == side] += 1
    assert min(fired.values()) >= 20, fired


def redeal_among_others(rng: random.Random, hands: list[int], side: int) -> list[int]:
    """The hands with the others' cards of each suit dealt again at random among the
    others, every seat keeping its suit lengths, and the cards left of each suit moved to
    other ranks in the same order: the side's cards keep their places among the cards
    left."""
    out = [0] * len(hands)
    for s in range(4):
        suit = 0xFF << (8 * s)
        left = [c for c in range(8 * s, 8 * s + 8) if any(h >> c & 1 for h in hands)]
        moved = dict(zip(left, sorted(rng.sample(range(8 * s, 8 * s + 8), len(left))), strict=True))
        theirs = [c for q, h in enumerate(hands) if q != side for c in left if h >> c & 1]
        seats = [q for q, h in enumerate(hands) if q != side for _ in range((h & suit).bit_count())]
        rng.shuffle(theirs)
        for c in left:
            if hands[side] >> c & 1:
                out[side] |= 1 << moved[c]
        for c, q in zip(theirs, seats, strict=True):
            out[q] |= 1 << moved[c]
    return out


def relevant_counts(allc: int, rel: int) -> list[int]:
    """How many of the cards left ``allc`` of each suit lie at or above the lowest
    relevant card (of ``rel``) of that suit."""
    out = []
    for s in range(4):
        rs = (rel >> (8 * s)) & 0xFF
        low = (rs & -rs).bit_length() - 1 if rs else 8
        out.append(((allc >> (8 * s)) & 0xFF) >> low if rs else 0)
    return [x.bit_count() for x in out]


def test_bounds_kept_by_suit_lengths_and_the_side_cards_are_sure_and_shared():
    """The answers of the bounds the search keeps under the suit lengths and the side's
    cards (trumps and masters, guarded suits, suit game) are sure against plain minimax,
    and the same -- the same number of relevant cards in each suit -- in every deal that
    keeps each seat's suit lengths and the places of the side's cards among the cards
    left, which is how the table of their answers is shared."""
    rng = random.Random(53)
    fired = {True: 0, False: 0}
    n = 3
    for i in range(800):
        trump = (None, None, 0, 1, 2, 3)[i % 6]
        cards = rng.sample(range(32), 4 * n)
        hands = [mask_of(cards[j * n : (j + 1) * n]) for j in range(4)]
        side = rng.randrange(4)
        leader = rng.randrange(4)
        bounds = DoubleDummySolver(trump, 4, side)._search[6]
        other = redeal_among_others(rng, hands, side)
        for need in (1, 2, 3):
            got = []
            for deal in (hands, other):
                allc = mask_of(c for c in range(32) if any(h >> c & 1 for h in deal))
                rel = bounds(list(deal), allc, n, leader, need)
                assert rel < 0 or rel & deal[side] == rel
                got.append(None if rel < 0 else relevant_counts(allc, rel))
                if rel >= 0:
                    pos = Position(deal, trump, leader)
                    assert BENCH.plain_tricks(pos, side) >= need, (deal, trump, side, leader, need)
            assert got[0] == got[1], (hands, other, trump, side, leader, need)
            fired[trump is None] += got[0] is not None
    assert min(fired.values()) >= 20, fired
