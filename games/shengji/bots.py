"""Bots for Shengji/ZPY: random legal, heuristic, and determinized Monte Carlo sampling.

Every bot sees only its seat's observations (through
:class:`~games.shengji.knowledge.SeatView`) and the legal actions.  Plays are
built card by card, so the heuristic and sampling bots plan a whole play at
the first ``select`` of a turn and then feed its cards one action at a time.

``random``
    a uniformly random legal action.
``heuristic``
    bids on its longest suit, buries low side cards, names an ace it lacks as
    a friend, leads safe winners (units nothing unseen can beat) and otherwise
    low side cards, feeds points to a winning partner, wins cheaply when it
    can, and keeps its trumps.
``sampling``
    for each candidate play, samples deals of the hidden cards consistent with
    what it has seen (the exact sampler of :mod:`games.deal` through
    :class:`~games.shengji.knowledge.SeatDeal`), plays the round out with
    heuristic play on each, and picks the candidate with the best average
    result for its side.

Examples
--------
>>> from games.base import load_game, play_game
>>> g = load_game("shengji", variant="tractor")
>>> bots = [HeuristicBot(seed=i) for i in range(4)]
>>> r = play_game(g, bots, seed=1)
>>> len(r.returns)
4
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from typing import Any

from games.base import Bot, Game, Observation, register_bot
from games.errors import GameError
from games.shengji.knowledge import SeatDeal, SeatView
from games.shengji.rules.cards import NUM_FACES, SMALL_JOKER, Card, card
from games.shengji.rules.follow import FollowRules, greedy_follow
from games.shengji.rules.formats import Unit, find_readings
from games.shengji.rules.friends import allowed_friend_cards
from games.shengji.rules.tricks import TrickState, beats, can_beat_unit, format_readings
from games.shengji.rules.trump import TRUMP_SUIT, Trump, table
from games.shengji.state import (
    COMMIT,
    PASS,
    PlayPhase,
    ShengjiGame,
    bury_action,
    decode_action,
    select_action,
)

__all__ = ["RandomBot", "HeuristicBot", "SamplingBot", "register", "choose_lead", "choose_follow"]


class RandomBot(Bot):
    """A uniformly random legal action."""

    name = "random"

    def step(self, legal_actions: Sequence[int]) -> int:
        return self.rng.choice(list(legal_actions))


# ------------------------------------------------------------ play choices
def _value(f: int, t_strength: list[int], esuit: list[int], points: int) -> int:
    """How much a card is worth keeping (low: play or bury it first)."""
    v = t_strength[f] % 100
    if esuit[f] == TRUMP_SUIT:
        v += 60
    return v + 3 * points


_PTS = [0] * NUM_FACES
for _f in range(52):
    _PTS[_f] = 5 if _f % 13 == 3 else 10 if _f % 13 in (8, 11) else 0


def _units_of(hand: dict[int, int], trump: Trump, suit: int) -> list[Unit]:
    """Units (tuples and tractors) one might lead from ``hand`` in ``suit``."""
    t = table(trump)
    in_suit = {f: n for f, n in hand.items() if t.esuit[f] == suit}
    if not in_suit:
        return []
    out = []
    for reading in find_readings([f for f in in_suit for _ in range(in_suit[f])], trump)[:4]:
        out.extend(reading)
    return list(dict.fromkeys(out))


def _safe(unit: Unit, unseen: dict[int, int], trump: Trump) -> bool:
    """Whether no combination of unseen cards could beat ``unit`` in its suit."""
    return not can_beat_unit(unseen, unit, trump)


def choose_lead(
    hand: dict[int, int], trump: Trump, unseen: list[int], rng: random.Random
) -> list[Card]:
    """A heuristic lead: the biggest safe winner, else a low side card of the longest side suit."""
    t = table(trump)
    suits = sorted({t.esuit[f] for f in hand})
    best: tuple[int, int, Unit] | None = None
    for s in suits:
        hidden = {f: n for f, n in enumerate(unseen) if n > 0 and t.esuit[f] == s}
        for u in _units_of(hand, trump, s):
            if _safe(u, hidden, trump):
                key = (u.size, 0 if s == TRUMP_SUIT else 1)
                if best is None or key > best[:2]:
                    best = (*key, u)
    if best is not None and (best[2].size > 1 or t.esuit[best[2].first] != TRUMP_SUIT):
        return best[2].cards()
    side = [s for s in suits if s != TRUMP_SUIT]
    if side:
        length = {s: sum(n for f, n in hand.items() if t.esuit[f] == s) for s in side}
        s = max(side, key=lambda x: (length[x], -x))
        pairs = [u for u in _units_of(hand, trump, s) if u.size > 1]
        if pairs:
            low = min(pairs, key=lambda u: (t.strength[u.first], -u.size))
            if _PTS[low.first] == 0:
                return low.cards()
        f = min((f for f in hand if t.esuit[f] == s), key=lambda f: (_PTS[f] > 0, t.strength[f]))
        return [card(f)]
    if best is not None:
        return best[2].cards()
    f = min(hand, key=lambda f: t.strength[f])
    return [card(f)]


def _would_win(trick: TrickState, cards: Sequence[int]) -> bool:
    for r in format_readings(trick.fmt, cards):
        if beats(r, trick.winning, trick.fmt.trump, trick.policy):
            return True
    return False


def choose_follow(
    hand: dict[int, int],
    trick: TrickState,
    trick_seats: Sequence[int],
    partners: set[int],
    last_to_play: bool,
    draw_policy: str = "no-protections",
    limit: int = 120,
) -> list[Card]:
    """A heuristic follow: feed points to a winning partner, win cheaply, else play low."""
    fmt = trick.fmt
    trump = fmt.trump
    t = table(trump)
    rules = FollowRules(hand, fmt, draw_policy)
    cands = list(itertools.islice(rules.plays(), limit))
    if not cands:
        cands = [tuple(greedy_follow(rules))]
    partner_winning = trick_seats[trick.winner] in partners

    def cost(p: Iterable[int]) -> int:
        return sum(_value(f, t.strength, t.esuit, _PTS[f]) for f in p)

    def pts(p: Iterable[int]) -> int:
        return sum(_PTS[f] for f in p)

    if partner_winning:
        safe_to_feed = last_to_play or _partner_unbeatable(trick)
        if safe_to_feed:
            return list(max(cands, key=lambda p: (pts(p), -cost(p))))
        return list(min(cands, key=lambda p: (cost(p) - 2 * pts(p) * 0, cost(p))))
    stake = trick.points
    if fmt.size == 1:
        top = trick.winning[0].first
        s = t.strength
        top_s = s[top]
        winners = [p for p in cands if s[p[0]] > top_s and t.esuit[p[0]] in (fmt.suit, TRUMP_SUIT)]
    else:
        winners = [p for p in cands if _would_win(trick, p)]
    if winners and (
        stake > 0 or last_to_play or fmt.size > 1 or any(_PTS[f] for p in winners[:1] for f in p)
    ):
        if last_to_play:
            return list(max(winners, key=lambda p: (pts(p), -cost(p))))
        return list(min(winners, key=cost))
    return list(min(cands, key=lambda p: (pts(p), cost(p))))


def _partner_unbeatable(trick: TrickState) -> bool:
    s = table(trick.fmt.trump).strength
    return all(s[u.first] >= 120 for u in trick.winning)


# ------------------------------------------------------------------- bots
class _ViewBot(Bot):
    """A bot that keeps a :class:`SeatView` of its observations and plans whole plays."""

    def restart(self, game: Game, seat: int) -> None:
        super().restart(game, seat)
        assert isinstance(game, ShengjiGame)
        r = game.rules
        self.rules = r
        self.view = SeatView(r.players, seat, r.decks, r.hand_size, r.fixed_teams)
        self.plan: list[int] = []
        self.pending_bury: list[int] = []

    def inform(self, observation: Observation) -> None:
        self.view.update(observation)

    def step(self, legal_actions: Sequence[int]) -> int:
        legal = list(legal_actions)
        kind = decode_action(legal[-1])[0]
        if PASS in legal and kind in ("bid", "pass"):
            return self.choose_bid(legal)
        if kind == "bury":
            return self.choose_bury(legal)
        if kind == "friend":
            return self.choose_friend(legal)
        if self.plan:
            a = self.plan.pop(0)
            if a in legal:
                return a
            self.plan = []
        if legal == [COMMIT]:
            return COMMIT
        cards = self.choose_play()
        self.plan = [select_action(c) for c in cards] + [COMMIT]
        a = self.plan.pop(0)
        return a if a in legal else self.rng.choice(legal)

    # -- decisions
    def choose_bid(self, legal: list[int]) -> int:
        v = self.view
        best, best_len = PASS, -1
        drawn = sum(v.hand.values())
        for a in legal:
            if a == PASS:
                continue
            c, k = decode_action(a)[1]
            if c >= SMALL_JOKER:
                length = sum(n for f, n in v.hand.items() if f >= SMALL_JOKER or f % 13 == c % 13)
            else:
                length = sum(
                    n
                    for f, n in v.hand.items()
                    if f < SMALL_JOKER and (f // 13 == c // 13 or f % 13 == c % 13)
                )
                length += v.hand.get(52, 0) + v.hand.get(53, 0)
            if length > best_len or (length == best_len and k > 1):
                best, best_len = a, length
        if best == PASS:
            return PASS
        if best_len * 4 >= drawn or drawn >= self.rules.hand_size - 2:
            return best
        return PASS

    def choose_bury(self, legal: list[int]) -> int:
        v = self.view
        trump = v.trump
        assert trump is not None
        t = table(trump)
        hand = v.hand
        length = {s: sum(n for f, n in hand.items() if t.esuit[f] == s) for s in range(5)}

        def keep(a: int) -> tuple[int, int, int]:
            f = a - bury_action(0)
            if t.esuit[f] == TRUMP_SUIT:
                return (3, 0, t.strength[f])
            high = t.strength[f] % 16 >= 11 or hand.get(f, 0) > 1
            return (1 if high or _PTS[f] else 0, length[t.esuit[f]], t.strength[f])

        a = min(legal, key=keep)
        return a

    def choose_friend(self, legal: list[int]) -> int:
        v = self.view
        assert v.trump is not None
        best = None
        for a in legal:
            slot = decode_action(a)[1]
            f = int(slot.card)
            if f % 13 != 12 and v.trump.rank != 12:
                continue
            held = v.hand.get(f, 0)
            if slot.ordinal == held + 1:
                key = (held, -f)
                if best is None or key < best[0]:
                    best = (key, a)
        if best is not None:
            return best[1]
        allowed = set(allowed_friend_cards(v.trump, self.rules.friend_policy))
        for a in legal:
            slot = decode_action(a)[1]
            if slot.card in allowed and v.hand.get(int(slot.card), 0) < slot.ordinal:
                return a
        return legal[0]

    def choose_play(self) -> list[Card]:
        v = self.view
        assert v.trump is not None
        if v.trick is None:
            return choose_lead(v.hand, v.trump, v.unseen(), self.rng)
        last = len(v.trick_seats) == self.rules.players - 1
        return choose_follow(
            v.hand, v.trick, v.trick_seats, v.partners(), last, self.rules.draw_policy
        )


class HeuristicBot(_ViewBot):
    """Plays by simple card-sense rules (see the module docstring)."""

    name = "heuristic"


class SamplingBot(_ViewBot):
    """Determinized Monte Carlo over deals consistent with its observations.

    Parameters
    ----------
    seed : int, optional
    samples : int
        Deals sampled per decision.
    candidates : int
        Candidate plays compared per decision (the heuristic's pick among them).
    """

    name = "sampling"

    def __init__(self, seed: int | None = None, samples: int = 12, candidates: int = 6):
        super().__init__(seed)
        self.samples = samples
        self.candidates = candidates
        self.deal: Any = None

    def restart(self, game: Game, seat: int) -> None:
        super().restart(game, seat)
        self.deal = SeatDeal(self.rules, seat)

    def inform(self, observation: Observation) -> None:
        super().inform(observation)
        if self.deal is not None:
            try:
                self.deal.update(observation)
            except GameError:
                self.deal = None  # out of step with the table: play heuristically from here

    def _deals(self) -> list[list[dict[int, int]]]:
        if self.deal is None or self.deal.knowledge is None:
            return []
        return self.deal.sample_hands(self.samples, seed=self.rng.randrange(2**32))

    def choose_play(self) -> list[Card]:
        v = self.view
        trump = v.trump
        assert trump is not None
        heuristic = super().choose_play()
        if v.trick is None:
            cands = self._lead_candidates(heuristic)
        else:
            fr = FollowRules(v.hand, v.trick.fmt, self.rules.draw_policy)
            cands = [list(p) for p in itertools.islice(fr.plays(), 60)]
            if len(cands) > self.candidates:
                self.rng.shuffle(cands)
                cands = cands[: self.candidates - 1]
                if heuristic not in cands:
                    cands.append(heuristic)
        if len(cands) <= 1:
            return heuristic
        deals = self._deals()
        if not deals:
            return heuristic
        scores = []
        for c in cands:
            total = 0.0
            for d in deals:
                total += self._rollout(d, c)
            scores.append(total / len(deals) + (0.01 if c == heuristic else 0.0))
        return cands[max(range(len(cands)), key=scores.__getitem__)]

    def _lead_candidates(self, heuristic: list[Card]) -> list[list[Card]]:
        v = self.view
        assert v.trump is not None
        t = table(v.trump)
        out = [heuristic]
        for s in sorted({t.esuit[f] for f in v.hand}):
            units = _units_of(v.hand, v.trump, s)
            if units:
                lo = min(units, key=lambda u: (t.strength[u.first], -u.size))
                hi = max(units, key=lambda u: (u.size, t.strength[u.first]))
                for u in (lo, hi):
                    if u.cards() not in out:
                        out.append(u.cards())
        return out[: self.candidates]

    def _rollout(self, hands: list[dict[int, int]], first: list[Card]) -> float:
        """Play the round out on one sampled deal; the result for this bot's side."""
        v = self.view
        trump = v.trump
        assert trump is not None and v.landlord is not None
        team = v.team()
        seats = list(v.trick_seats)
        leader = seats[0] if seats else self.seat
        start_hands = []
        for s in range(self.rules.players):
            h = dict(hands[s])
            if s in seats:
                for c in v.trick_plays[seats.index(s)]:
                    h[c] = h.get(c, 0) + 1
            start_hands.append([f for f in h for _ in range(h[f])])
        friends = v.friends.copy() if v.friends is not None else None
        phase = PlayPhase(
            trump,
            start_hands,
            leader,
            landlord_team=set(team) if friends is None else None,
            friends=friends,
            draw_policy=self.rules.draw_policy,
            throw_policy=self.rules.throw_policy,
        )
        phase.piles = list(v.piles)
        for s, cards in zip(seats, v.trick_plays, strict=True):
            phase.replay(s, cards, v.fmt)
        phase.play(self.seat, first)
        rng = self.rng
        while not phase.is_over():
            who = phase.to_play()
            assert who is not None
            s = who
            h = phase.hands[s]
            if phase.is_leading():
                unseen = [self.rules.decks - h.get(f, 0) for f in range(NUM_FACES)]
                cards = choose_lead(h, trump, unseen, rng)
            else:
                assert phase.trick is not None
                mine = (
                    phase.team if s in phase.team else set(range(self.rules.players)) - phase.team
                )
                seats_now = [p.seat for p in phase.current]
                cards = choose_follow(
                    h,
                    phase.trick,
                    seats_now,
                    set(mine),
                    len(seats_now) == self.rules.players - 1,
                    self.rules.draw_policy,
                    limit=40,
                )
            phase.play(s, cards)
        attack = phase.attacking_points()
        on_team = self.seat in phase.team
        return -attack if on_team else attack


def register() -> None:
    """Register the bots of ``shengji``."""
    register_bot("shengji", "random", lambda seed=None: RandomBot(seed=seed))
    register_bot("shengji", "heuristic", lambda seed=None: HeuristicBot(seed=seed))
    register_bot("shengji", "sampling", lambda seed=None: SamplingBot(seed=seed))
