"""Bots for BS-ZPY: random, truthful, bluffer, knowledge and probabilistic.

Every bot sees only its seat's observations (a
:class:`~games.bs_zpy.knowledge.SeatKnowledge` built from them) and the legal actions.
Bidding, burying and naming friends are left to the ZPY heuristic bot of
:mod:`games.shengji.bots`, fed with the same observations; a play is planned
whole (cards and claim) at its first action and then fed one action at a
time.

``random``
    a uniformly random legal action (random cards, random claims, random calls).
``truthful``
    plays legally (the ZPY heuristic: safe units or low cards when leading,
    feeding a winning partner, winning cheaply) and claims the truth; never
    calls.
``bluffer``
    plays like ``truthful``, but when it cannot win a trick with points it
    puts down a legal low play and claims the cheapest winning cards it does
    not hold, if the risk is low: the chance (exact, from its deal knowledge)
    that some other seat holds enough copies to know the claim is false, at
    most ``max_risk``.  Never calls.
``knowledge``
    plays like ``truthful`` and calls BS exactly when it knows the claim is
    false (:meth:`~games.bs_zpy.knowledge.SeatKnowledge.knows_false`).
``probabilistic``
    calls when the expected gain beats the expected loss: with ``q`` the
    posterior probability that the claim is a lie (1 when it knows the claim
    is false; otherwise :meth:`ProbabilisticBot.lie_probability`, from the
    exact probability that the claimer held the claimed cards and the
    claimer's lying rate so far, counted separately for claims that take the
    lead of a trick), it calls when
    ``q * gain > (1 - q) * loss``.  The stakes: the gain is the two
    winnings-pile cards it would take (their expected points, or the
    5-point fine when the liar's pile is empty), plus the trick's claimed
    points when the claim is winning the trick, plus, when the claim would
    fill a friend slot and this seat is not on the dictator's team, the
    points of the claimer's winnings pile that would change sides (the
    friend card); the loss is the two cards (or 5 points) it would give.
    It bluffs like ``bluffer`` when the expected value (trick points won if
    nobody can refute, minus the penalty if someone can) is positive.

Bluffs never name an open friend card (a false friend claim would move the
bluffer to the dictator's team).

Examples
--------
>>> from games.base import load_game, play_game
>>> g = load_game("bs-zpy")
>>> bots = [TruthfulBot(seed=i) for i in range(5)]
>>> r = play_game(g, bots, seed=1)
>>> len(r.returns)
5
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from games.base import Bot, Game, Observation, register_bot
from games.bs_zpy.knowledge import SeatKnowledge, SeenPlay
from games.bs_zpy.rules import CALL, CLAIM_TRUE, claim_action, claim_winner, decode_bs_action
from games.bs_zpy.state import BSZPYGame
from games.errors import GameError
from games.shengji.bots import HeuristicBot, choose_lead
from games.shengji.rules.cards import NUM_FACES, Card, card, card_points
from games.shengji.rules.follow import FollowRules, greedy_follow
from games.shengji.rules.formats import Format, count_faces
from games.shengji.rules.trump import TRUMP_SUIT, table
from games.shengji.state import COMMIT, PASS, select_action

__all__ = [
    "RandomBot",
    "TruthfulBot",
    "BlufferBot",
    "KnowledgeBot",
    "ProbabilisticBot",
    "choose_follow",
    "bluff_claims",
    "refute_risk",
    "friend_join",
    "register",
]

_SETUP_KINDS = frozenset(
    {"first", "draw", "bid", "dealt", "redeal", "kitty_reveal", "trump", "kitty", "bury", "friends"}
)


class RandomBot(Bot):
    """A uniformly random legal action."""

    name = "random"

    def step(self, legal_actions: Sequence[int]) -> int:
        return self.rng.choice(list(legal_actions))


# ------------------------------------------------------------- play choices
def _keep_value(f: int, trump: Any) -> int:
    """How much a card is worth keeping (low: play it first)."""
    t = table(trump)
    v = t.strength[f] % 100
    if t.esuit[f] == TRUMP_SUIT:
        v += 60
    return v + 3 * card_points([f])


def choose_follow(
    hand: dict[int, int],
    fmt: Format,
    plays: Sequence[SeenPlay],
    partners: set[int],
    last: bool,
    draw_policy: str = "no-protections",
    limit: int = 120,
) -> list[Card]:
    """A legal follow by card sense, judged against the *claims* on the table.

    Feeds points to a partner whose claim is winning (when nobody can take it
    back), wins as cheaply as it can when the trick is worth it, and
    otherwise plays its lowest cards.
    """
    trump = fmt.trump
    rules = FollowRules(hand, fmt, draw_policy)
    cands = [list(p) for p in itertools.islice(rules.plays(), limit)]
    if not cands:
        cands = [greedy_follow(rules)]
    base = [(p.eligible, list(p.shown)) for p in plays]
    cur = claim_winner(fmt, base) if any(ok for ok, _ in base) else None
    idx = len(base)

    def cost(p: Sequence[int]) -> int:
        return sum(_keep_value(f, trump) for f in p)

    def pts(p: Sequence[int]) -> int:
        return card_points(p)

    stake = sum(card_points(p.shown) for p in plays)
    if cur is not None and plays[cur].seat in partners:
        if last:
            return max(cands, key=lambda p: (pts(p), -cost(p)))
        return min(cands, key=cost)
    winners = [c for c in cands if claim_winner(fmt, [*base, (True, c)]) == idx]
    if winners and (stake > 0 or last or fmt.size > 1):
        if last:
            return max(winners, key=lambda p: (pts(p), -cost(p)))
        return min(winners, key=cost)
    return min(cands, key=lambda p: (pts(p), cost(p)))


def bluff_claims(
    know: SeatKnowledge, fmt: Format, plays: Sequence[SeenPlay], limit: int = 6
) -> list[list[Card]]:
    """Claims that would win the trick now and that this seat does not hold, cheapest first.

    Only single-face claims (a single, a pair, …) of the led suit or of trump
    are considered, for formats of one such unit, and never a card of an
    open friend slot.
    """
    if len(fmt.units) != 1 or fmt.units[0].is_tractor:
        return []
    width = fmt.units[0].width
    t = table(fmt.trump)
    base = [(p.eligible, list(p.shown)) for p in plays]
    idx = len(base)
    friend_faces = {int(slot.card) for slot in know.open_slots()}
    out: list[tuple[int, list[Card]]] = []
    for f in range(NUM_FACES):
        if t.esuit[f] not in (fmt.suit, TRUMP_SUIT) or know.mine.get(f, 0):
            continue
        if f in friend_faces:
            continue
        if width > know.rules.decks:
            continue
        claim = [card(f)] * width
        if claim_winner(fmt, [*base, (True, claim)]) == idx:
            out.append((t.order[f], claim))
    out.sort(key=lambda x: x[0])
    return [c for _, c in out[:limit]]


def friend_join(know: SeatKnowledge, play: SeenPlay) -> bool:
    """Whether ``play``'s claim fills a friend slot if it stands (claims before it standing too).

    Walks the trick's standing claims in play order with a copy of the
    seat's friend tracker, as the engine does when the trick ends.
    """
    if know.tracker is None:
        return False
    tracker = know.tracker.copy()
    plays = [(p.seat, p.claim) for p in know.plays if p.eligible and p is not play]
    tracker.resolve_trick(plays)
    joins = tracker.resolve_trick([(play.seat, play.claim)])
    return any(j.seat == play.seat and not j.already_on_team for j in joins)


def refute_risk(know: SeatKnowledge, claimer: int, claim: Sequence[int]) -> float:
    """An upper bound on the chance that some other seat knows ``claim`` is false.

    A seat can refute a claim of ``k`` copies of a face when it sees more than
    ``decks - k`` copies outside the claimer's hand: in its own hand, among
    the cards every seat has seen, or (the dictator) in the kitty.  The bound
    adds each seat's exact probability (from ``know``'s deal knowledge), so it
    is a union bound.
    """
    if know.knowledge is None:
        return 1.0
    try:
        return _refute_risk(know, claimer, claim)
    except MemoryError:
        return 1.0


def _refute_risk(know: SeatKnowledge, claimer: int, claim: Sequence[int]) -> float:
    kn = know.knowledge
    d = know.rules.decks
    risk = 0.0
    for f, k in count_faces(claim).items():
        need = d - k + 1 - know.public_out[f]
        if need <= 0:
            return 1.0
        for s in range(know.n):
            if s in (claimer, know.seat):
                continue
            locs = [f"P{s}"] + (["kitty"] if s == know.landlord else [])
            risk += float(kn.probability_at_least([str(card(f))], locs, need))
    return min(1.0, risk)


# ------------------------------------------------------------------- bots
class _PlanBot(Bot):
    """Keeps a :class:`SeatKnowledge`, delegates the deal phase, plans whole plays."""

    deal = False

    def restart(self, game: Game, seat: int) -> None:
        super().restart(game, seat)
        if not isinstance(game, BSZPYGame):
            raise GameError(f"{type(self).__name__} plays bs-zpy, not {game!r}")
        self.rules = game.rules
        self.know = SeatKnowledge(game.rules, seat, deal=self.deal)
        self.setup = HeuristicBot(seed=self.rng.randrange(2**32))
        self.setup.restart(game, seat)
        self.plan: list[int] = []

    def inform(self, observation: Observation) -> None:
        self.know.update(observation)
        if observation.kind in _SETUP_KINDS:
            self.setup.inform(observation)
        elif observation.kind == "round_end":
            self.setup.view.new_round()

    def step(self, legal_actions: Sequence[int]) -> int:
        legal = list(legal_actions)
        kind = decode_bs_action(legal[-1])[0]
        if kind == "call":
            return CALL if self.call() else PASS
        if kind in ("bid", "pass", "bury", "friend"):
            return self.setup.step(legal)
        if self.plan:
            a = self.plan.pop(0)
            if a in legal:
                return a
            self.plan = []
        if kind in ("claim", "claim_true"):
            return CLAIM_TRUE if CLAIM_TRUE in legal else self.rng.choice(legal)
        cards, claim = self.choose_play()
        plan = [select_action(c) for c in cards] + [COMMIT]
        plan += [CLAIM_TRUE] if sorted(claim) == sorted(cards) else [claim_action(c) for c in claim]
        self.plan = plan
        a = self.plan.pop(0)
        return a if a in legal else self.rng.choice(legal)

    # -- decisions
    def call(self) -> bool:
        """Whether to call BS on the open claim."""
        return False

    def partners(self) -> set[int]:
        team = self.know.team()
        return team if self.seat in team else {self.seat}

    def truthful_play(self) -> list[Card]:
        k = self.know
        assert k.trump is not None
        if k.trick_fmt is None:
            return choose_lead(k.mine, k.trump, k.unseen(), self.rng)
        last = len(k.plays) == self.rules.players - 1
        return choose_follow(
            k.mine, k.trick_fmt, k.plays, self.partners(), last, self.rules.draw_policy
        )

    def choose_play(self) -> tuple[list[Card], list[Card]]:
        cards = self.truthful_play()
        return cards, cards

    def _bluff_spot(self) -> tuple[list[Card], Format | None, int]:
        """The truthful play, and — when it follows a lead and cannot win the trick —
        the trick format and the points at stake (else ``None`` for the format)."""
        cards = self.truthful_play()
        k = self.know
        fmt = k.trick_fmt
        if fmt is None or k.knowledge is None:
            return cards, None, 0
        base = [(p.eligible, list(p.shown)) for p in k.plays]
        if claim_winner(fmt, [*base, (True, cards)]) == len(base):
            return cards, None, 0
        return cards, fmt, sum(card_points(p.shown) for p in k.plays) + card_points(cards)


class TruthfulBot(_PlanBot):
    """Plays legally and claims the truth; never calls."""

    name = "truthful"


class BlufferBot(_PlanBot):
    """Claims winning cards it does not hold when the risk is low; never calls."""

    name = "bluffer"
    deal = True

    def __init__(self, seed: int | None = None, max_risk: float = 0.3, min_stake: int = 10):
        super().__init__(seed)
        self.max_risk = max_risk
        self.min_stake = min_stake

    def choose_play(self) -> tuple[list[Card], list[Card]]:
        cards, fmt, stake = self._bluff_spot()
        if fmt is None or stake < self.min_stake:
            return cards, cards
        k = self.know
        low = _lowest_legal(k, fmt, self.rules.draw_policy)
        for claim in bluff_claims(k, fmt, k.plays):
            if refute_risk(k, self.seat, claim) <= self.max_risk:
                return low, claim
        return cards, cards


class KnowledgeBot(_PlanBot):
    """Plays like ``truthful``; calls BS exactly when it knows the claim is false."""

    name = "knowledge"
    deal = True

    def call(self) -> bool:
        return self.know.knows_false()


class ProbabilisticBot(_PlanBot):
    """Calls and bluffs by exact probabilities and the stakes (see the module docstring)."""

    name = "probabilistic"
    deal = True
    #: Beta prior (lies, truths) on a player's lying rate.
    prior = (1.0, 9.0)

    def restart(self, game: Game, seat: int) -> None:
        super().restart(game, seat)
        n = self.rules.players
        #: Per seat: settled follows whose claim took the lead of the trick, and the lies
        #: among them (a bluff is such a claim, so its rate is read from them alone).
        self.bold = [0] * n
        self.bold_lies = [0] * n
        self._open: tuple[int, bool] | None = None

    def inform(self, observation: Observation) -> None:
        super().inform(observation)
        kind, seat = observation.kind, observation.actor
        if kind == "claim" and seat is not None and seat != self.seat:
            sp = self.know.open_play()
            self._open = (seat, sp is not None and self.takes_lead(sp))
        elif kind in ("silent", "peanut_butter", "reveal") and self._open is not None:
            who, bold = self._open
            self._open = None
            if bold and who == seat:
                self.bold[who] += 1
                caught = kind == "reveal" and not observation["truthful"]
                self.bold_lies[who] += int(kind == "peanut_butter" or caught)

    def takes_lead(self, sp: SeenPlay) -> bool:
        """Whether ``sp`` is a follow whose claim takes the lead of the trick."""
        k = self.know
        fmt = k.trick_fmt
        if sp.lead or fmt is None:
            return False
        base = [(q.eligible, list(q.shown)) for q in k.plays]
        return claim_winner(fmt, base) == len(base) - 1

    def _card_value(self, seat: int) -> float:
        """Expected value of what a lost call costs ``seat``: two pile cards, or the fine."""
        k = self.know
        params = self.game.params if self.game is not None else None
        n_cards = getattr(params, "penalty_cards", 2)
        fine = getattr(params, "penalty_points", 5)
        size = k.pile_sizes[seat]
        if size == 0 or n_cards == 0:
            return float(fine)
        return min(n_cards, size) * self._points_per_card()

    def _points_per_card(self) -> float:
        """Mean points of a card of the decks (100 points in 54 cards per deck)."""
        return 100 / 54

    def stakes(self, sp: SeenPlay) -> tuple[float, float]:
        """``(gain, loss)`` of calling BS on ``sp``: what a caught lie pays, what a wrong call costs."""
        k = self.know
        gain = self._card_value(sp.seat)
        fmt = k.trick_fmt
        if fmt is not None:
            base = [(q.eligible, list(q.shown)) for q in k.plays]
            if claim_winner(fmt, base) == len(base) - 1:
                gain += sum(card_points(q.shown) for q in k.plays)
        if self.seat not in k.team() and friend_join(k, sp):
            gain += k.pile_sizes[sp.seat] * self._points_per_card()
        return gain, self._card_value(self.seat)

    def call(self) -> bool:
        k = self.know
        sp = k.open_play()
        if sp is None or (sp.seat in self.partners() and self.seat in k.team()):
            return False
        gain, loss = self.stakes(sp)
        if k.counting_refutes(sp.claim):
            return True
        rate = self.lie_rate(sp.seat, self.takes_lead(sp))
        if rate * gain > (1 - rate) * loss:
            # The posterior lie probability is at least the lying rate: the
            # exact query cannot change the decision.
            return True
        if k.knows_false(sp):
            return True
        held = k.holding_odds(sp)
        lie = self.lie_probability(
            sp.seat, held, k.counting_chance(sp.seat, sp.claim), self.takes_lead(sp)
        )
        return lie * gain > (1 - lie) * loss

    def lie_rate(self, seat: int, bold: bool = False) -> float:
        """``seat``'s lying rate under the Beta :attr:`prior`.

        ``bold``: the rate among its follows whose claims took the lead
        (:attr:`bold`, :attr:`bold_lies`); otherwise among all its settled plays.
        """
        if bold:
            return (self.bold_lies[seat] + self.prior[0]) / (self.bold[seat] + sum(self.prior))
        k = self.know
        return (k.lies_by[seat] + self.prior[0]) / (k.settled_by[seat] + sum(self.prior))

    def lie_probability(self, seat: int, held: float, base: float, bold: bool = False) -> float:
        """Posterior probability that ``seat``'s claim is a lie.

        ``held`` is the exact probability that the claimer held the claimed
        cards (:meth:`~games.bs_zpy.knowledge.SeatKnowledge.holding_odds`) and ``base``
        the chance that a hand of the claimer's size, dealt from the unseen
        cards, would hold them: their ratio is the likelihood ratio of truth
        against a lie (a liar's claim does not depend on its hand).  Validity
        is left out of both: a follow claimed off suit is rare, but a
        truthful claimer makes it exactly when it is void.  With ``seat``'s lying rate ``r``
        (:meth:`lie_rate`; ``bold`` for a claim that takes the lead) the
        posterior is ``r / (r + (1 - r) * min(1, held / base))``.
        """
        r = self.lie_rate(seat, bold)
        ratio = min(1.0, held / base) if base > 0 else 0.0
        denom = r + (1 - r) * ratio
        return 1.0 if denom <= 0 else r / denom

    def choose_play(self) -> tuple[list[Card], list[Card]]:
        cards, fmt, stake = self._bluff_spot()
        if fmt is None or stake <= 0:
            return cards, cards
        k = self.know
        low = _lowest_legal(k, fmt, self.rules.draw_policy)
        cost = self._card_value(self.seat)
        for claim in bluff_claims(k, fmt, k.plays, limit=3):
            r = refute_risk(k, self.seat, claim)
            if (1 - r) * stake - r * cost > 0:
                return low, claim
        return cards, cards


def _lowest_legal(k: SeatKnowledge, fmt: Format, draw_policy: str) -> list[Card]:
    rules = FollowRules(k.mine, fmt, draw_policy)
    cands = [list(p) for p in itertools.islice(rules.plays(), 120)] or [greedy_follow(rules)]
    assert k.trump is not None
    return min(cands, key=lambda p: (card_points(p), sum(_keep_value(f, k.trump) for f in p)))


def register() -> None:
    """Register the bots of ``bs-zpy``."""
    register_bot("bs-zpy", "random", lambda seed=None: RandomBot(seed=seed))
    register_bot("bs-zpy", "truthful", lambda seed=None: TruthfulBot(seed=seed))
    register_bot("bs-zpy", "bluffer", lambda seed=None: BlufferBot(seed=seed))
    register_bot("bs-zpy", "knowledge", lambda seed=None: KnowledgeBot(seed=seed))
    register_bot("bs-zpy", "probabilistic", lambda seed=None: ProbabilisticBot(seed=seed))


register()
