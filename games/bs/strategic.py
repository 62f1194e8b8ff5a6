"""A fast strategic BS bot: it reads the table, lies where no one will call, and races out.

:class:`StrategicBot` (``strategic``) decides from its seat's observations
only, with bookkeeping that costs microseconds per event instead of a deal
count:

* **What it can account for.**  Per rank, the copies in its hand, the copies
  it knows are in the pile (its own plays and penalty cards) and, per other
  seat, a lower bound of the copies that seat surely holds (cards seen going
  into that hand: revealed plays, the seat's own known pile; lowered by every
  card the seat puts down since).  A claim of more copies than the rest can
  hold is a *proven* lie.  The unknown copies are spread uniformly over the
  unknown cards (hypergeometric), which gives the chance that a claimer
  could not have held what it claims.
* **The other seats' habits.**  Every call decision of every other seat is
  public (the callers are announced, a play nobody calls was passed by all),
  so the bot counts, per seat and per claimed count (1, 2, 3, 4 or more, and
  "the claimer went out"), how often it called, and apart from that how
  often it called this bot's own lies (which measures the proofs the other
  seats can make).  Every revealed play, and every lie it can prove in a
  pile it picks up, updates the seat's rate of lying when it could have told
  the truth.  All start from priors and move with the evidence of this game
  only.
* **Playing.**  All cards of the required rank, padded with lies (the cards
  it must claim furthest in the future) up to the claim that minimises the
  expected number of its own turns until it is out: a lie called costs the
  pile, an uncalled one sheds cards, and a claim is called with the chance
  the habits give for that count plus the chance that a seat holds enough of
  the rank to prove it false.  On a small pile a call costs little, so it
  tries large claims there, and learns who calls them.  Truthful claims of 3
  or more are welcome (a caller picks up the pile).
* **The endgame.**  The plan values a hand by the turns a greedy finish
  needs, whose last play must be truthful; going out on a lie is weighed
  against the seats that call a player going out.  With its whole hand of
  the required rank it plays it (a truthful last play wins even when
  called).
* **Calling.**  A proven lie is always called (the liar takes the pile, the
  bot sheds a card), and so is a player going out (if the claim is true the
  player wins anyway, so the call costs nothing).  With its own last card it
  calls when ``p * win_value * (1 - q) > (1 - p) * pile``: ``p`` the lie
  probability (the chance the claimer could not have been honest, plus its
  lying rate times the rest), ``q`` the chance of going out at its next turn
  anyway.  Otherwise it would call when ``p * gain > call_margin * (1 - p) *
  pile`` (the gain: the penalty card shed and part of the pile going to an
  opponent); the default margin keeps it from such calls, because they lost
  more piles than they won: in 200-game runs at the tables truthful,
  threshold, liar and sample, first-card, threshold, a margin of 1.5 won 30%
  and 27% of the games, no such calls 86% and 96%.

It plays both variants (the first face-up card of ``classic`` is the card it
needs last); its parameters are tuned for ``koth``.  In ``classic`` too it
leads: ``kripke tournament bs --variant classic --bots
strategic,probabilistic,knowledge,truthful,threshold,liar --games 1000 --seats
draw --seed 18`` gives it 0.658 [0.621, 0.693] of its games, probabilistic
0.513 [0.475, 0.551], knowledge 0.204 (those two then on the exact deal
knowledge, now ``probabilistic-exact`` and ``knowledge-exact``).

Examples
--------
>>> from games.base import load_game, make_bot, play_game
>>> game = load_game("bs", variant="koth")
>>> bots = [make_bot("bs", n, seed=1) for n in ("strategic", "truthful", "threshold", "liar")]
>>> play_game(game, bots, seed=3).steps > 0
True
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import ClassVar

from games.base import Game, Observation, register_bot
from games.bs.bots import BSBot

__all__ = ["StrategicBot", "hyper_at_least"]

_BUCKETS = 5  # claimed count 1, 2, 3, 4+, and "the claimer went out"
_OUT = 4


def hyper_at_least(total: int, good: int, drawn: int, k: int) -> float:
    """P(at least ``k`` good) drawing ``drawn`` of ``total`` cards of which ``good`` are good.

    Parameters
    ----------
    total, good, drawn : int
        The hypergeometric parameters (clipped into range).
    k : int
        The threshold.

    Returns
    -------
    float

    Examples
    --------
    >>> hyper_at_least(4, 1, 2, 1)
    0.5
    >>> hyper_at_least(10, 3, 5, 0), hyper_at_least(10, 3, 5, 4)
    (1.0, 0.0)
    """
    if k <= 0:
        return 1.0
    good = max(0, min(good, total))
    drawn = max(0, min(drawn, total))
    if k > min(good, drawn):
        return 0.0
    den = comb(total, drawn)
    num = 0
    for j in range(k, min(good, drawn) + 1):
        num += comb(good, j) * comb(total - good, drawn - j)
    return num / den


class StrategicBot(BSBot):
    """Models the other seats' calling and lying, lies where it pays, calls by exact counting.

    See :mod:`games.bs.strategic` for the strategy.  Class attributes are its
    parameters.

    Examples
    --------
    A proven lie is called: the bot holds three 5s, so a claim of two 5s
    cannot be true.

    >>> from games.base import load_game, Observation
    >>> g = load_game("bs", variant="koth")
    >>> bot = StrategicBot(seed=0)
    >>> bot.restart(g, 0)
    >>> hand = tuple("0 1 2 3 4 5 5 5 6 7 8 9 10".split())
    >>> for o in [Observation.make("order", order=(0, 1, 2, 3)),
    ...           Observation.make("deal", sizes=(13, 13, 13, 13)),
    ...           Observation.make("hand", 0, public=False, cards=hand)]:
    ...     bot.inform(o)
    >>> bot.lie_probability(1, 5, 2), bot.lie_probability(1, 5, 1) < 1.0
    (1.0, True)
    """

    name = "strategic"

    #: Prior calls per opportunity (pseudo-counts over ``prior_weight`` decisions), per bucket.
    call_prior: ClassVar[tuple[float, ...]] = (0.02, 0.04, 0.4, 0.5, 0.5)
    prior_weight: ClassVar[float] = 2.0
    #: Chance that a seat able to prove a claim false calls it.
    prove_call: ClassVar[float] = 0.7
    #: Prior lying rate when a claim could be honest, and its weight.
    lie_prior: ClassVar[float] = 0.25
    lie_weight: ClassVar[float] = 3.0
    #: How much an opponent's pickup is worth to this bot, per card.
    opponent_weight: ClassVar[float] = 0.15
    #: Largest claim the bot considers.
    max_claim: ClassVar[int] = 4
    #: A wrong call must be this much less likely than its gain says before the bot calls
    #: (other than proven lies, players going out and its last card; see the module).
    call_margin: ClassVar[float] = 1e9
    #: A claimer with at most this many cards left is close to going out.
    close: ClassVar[int] = 3
    #: Worth of winning, in cards, when a right call sheds this seat's last card.
    win_value: ClassVar[float] = 8.0
    #: Cards shed per turn assumed after picking up a pile (turn estimate).
    shed_rate: ClassVar[float] = 1.8

    def restart(self, game: Game, seat: int) -> None:
        super().restart(game, seat)
        g = self.g
        n = g.num_players()
        self.n = n
        self.copies = [
            sum(g.deck.copies[k] for k in g.kinds_of_rank[r]) for r in range(len(g.kinds_of_rank))
        ]
        self.nranks = len(self.copies)
        self._kinds_are_ranks = tuple(g.rank_of) == tuple(range(self.nranks))
        self.kind_index = {name: k for k, name in enumerate(g.deck.names)}
        self.pile_known = [0] * self.nranks  # copies this seat knows are in the pile
        self.pile_plays: list[tuple[int, int, int]] = []  # (seat, rank, count); rank -1: penalty
        self.lb = [[0] * self.nranks for _ in range(n)]  # copies each seat surely holds
        self.calls = [[0.0] * _BUCKETS for _ in range(n)]
        self.chances = [[0.0] * _BUCKETS for _ in range(n)]
        self.lie_calls = [[0.0] * _BUCKETS for _ in range(n)]  # calls on this seat's own lies
        self.lie_seen = [[0.0] * _BUCKETS for _ in range(n)]
        self.lies = [0.0] * n
        self.lie_chances = [0.0] * n
        self._open: tuple[int, int, int, int] | None = None  # player, rank, count, size before

    # ---------------------------------------------------------- bookkeeping
    def rank_hand(self) -> list[int]:
        """This seat's cards per rank."""
        hand = self.view.hand
        if self._kinds_are_ranks:
            return list(hand)
        return [sum(hand[k] for k in kinds) for kinds in self.g.kinds_of_rank]

    def _ranks_of(self, names: Sequence[str]) -> list[int]:
        out = [0] * self.nranks
        rank_of = self.g.rank_of
        for name in names:
            out[rank_of[self.kind_index[name]]] += 1
        return out

    def inform(self, observation: Observation) -> None:
        kind = observation.kind
        me = self.seat
        if kind == "play":
            p = observation.actor
            assert p is not None
            count = observation["count"]
            rank = self.view.required
            self._open = (p, rank, count, observation["hand"] + count)
            self.view.observe(observation)
            return
        if kind == "nocall":
            self._settle_decisions(())
            if self._open is not None:
                p, rank, count, _ = self._open
                if p == me and self.view.my_play is not None:
                    self._add_known(self.view.my_play)
                else:
                    self._drop(p, count)
                self.pile_plays.append((p, rank, count))
            self.view.observe(observation)
            return
        if kind == "call":
            self._settle_decisions(observation["callers"])
            taker = observation["taker"]
            revealed = self._ranks_of(observation["cards"])
            if self._open is not None:
                p, rank, count, before = self._open
                if p != me:
                    # a revealed play tells whether the claimer lied when it could have been
                    # honest (weighed by that chance, on the counts from before the reveal)
                    w = self._could_be_honest(p, rank, count, before)
                    lb = self.lb[p]
                    for r, c in enumerate(revealed):
                        if c:
                            lb[r] = max(0, lb[r] - c)
                    self.lie_chances[p] += w
                    if observation["lie"]:
                        self.lies[p] += w
                self.pile_plays.append((p, rank, count))
            if taker == me:
                self._learn_from_pile(self._ranks_of(observation["pile"]))
            else:
                known = self.lb[taker]
                for r in range(self.nranks):
                    known[r] += revealed[r] + self.pile_known[r]
            self.pile_known = [0] * self.nranks
            self.pile_plays = []
            self.view.observe(observation)
            self._open = None
            return
        if kind == "penalty":
            caller = observation.actor
            assert caller is not None
            if caller == me:
                r = self.g.rank_of[self.kind_index[observation["card"]]]
                self.pile_known[r] += 1
            else:
                self._drop(caller, 1)
            self.pile_plays.append((caller, -1, 1))
            self.view.observe(observation)
            return
        if kind == "first":
            p = observation.actor
            self.view.observe(observation)
            r = self.g.rank_of[self.kind_index[observation["card"]]]
            self.pile_known[r] += 1  # face up: everybody knows it
            if p is not None and p != me:
                self.lb[p][r] = max(0, self.lb[p][r] - 1)
            return
        self.view.observe(observation)

    def _add_known(self, counts: Sequence[int]) -> None:
        rank_of = self.g.rank_of
        for k, c in enumerate(counts):
            if c:
                self.pile_known[rank_of[k]] += c

    def _drop(self, seat: int, count: int) -> None:
        """``seat`` put down ``count`` unseen cards: each sure copy may be among them."""
        lb = self.lb[seat]
        for r in range(self.nranks):
            if lb[r]:
                lb[r] = max(0, lb[r] - count)

    def _bucket(self, count: int, went_out: bool) -> int:
        if went_out:
            return _OUT
        return min(count, 4) - 1

    def _settle_decisions(self, callers: Sequence[int]) -> None:
        """Every seat but the claimer decided on the open play; count who called.

        Calls on this seat's own lies are counted apart: they measure what a
        lie of this seat risks, proofs the other seats can make included.
        """
        if self._open is None:
            return
        p, rank, count, before = self._open
        b = self._bucket(count, count == before)
        me = self.seat
        mine = self.view.my_play if p == me else None
        own_lie = mine is not None and any(
            c and self.g.rank_of[k] != rank for k, c in enumerate(mine)
        )
        for s in range(self.n):
            if s == p or s == me:
                continue
            self.chances[s][b] += 1.0
            if s in callers:
                self.calls[s][b] += 1.0
            if own_lie:
                self.lie_seen[s][b] += 1.0
                if s in callers:
                    self.lie_calls[s][b] += 1.0

    def _learn_from_pile(self, pile: list[int]) -> None:
        """In a pile this seat picks up, a claim of more copies than the pile holds was a lie."""
        me = self.seat
        mine = self.pile_known
        claimed = [0] * self.nranks
        for s, r, c in self.pile_plays:
            if r >= 0 and s != me:
                claimed[r] += c
        for s, r, c in self.pile_plays:
            if r < 0 or s == me:
                continue
            others = pile[r] - mine[r]
            if claimed[r] == c:  # the only claim of this rank in the pile
                self.lie_chances[s] += 0.5
                if others < c:
                    self.lies[s] += 0.5

    # -------------------------------------------------------------- models
    def call_rate(self, seat: int, count: int, went_out: bool = False, lie: bool = False) -> float:
        """Estimated chance that ``seat`` calls a claim of ``count`` cards (prior + this game).

        With ``lie``, of a lie of this seat: the seat's calls on this seat's
        own lies so far, weighed against its calls on every claim.
        """
        b = self._bucket(count, went_out)
        w = self.prior_weight
        rate = (self.calls[seat][b] + w * self.call_prior[b]) / (self.chances[seat][b] + w)
        if not lie:
            return rate
        return (self.lie_calls[seat][b] + w * rate) / (self.lie_seen[seat][b] + w)

    def lie_rate(self, seat: int) -> float:
        """Estimated chance that ``seat`` lies although it could tell the truth."""
        w = self.lie_weight
        return (self.lies[seat] + w * self.lie_prior) / (self.lie_chances[seat] + w)

    def _unknown(self, claimer: int | None = None, before: int = 0) -> tuple[list[int], int]:
        """Unknown cards per seat (``claimer`` with ``before`` cards) and in the pile."""
        v = self.view
        unk = [0] * self.n
        for s in range(self.n):
            if s == self.seat:
                continue
            size = before if s == claimer else v.sizes[s]
            unk[s] = max(0, size - sum(self.lb[s]))
        pile_unknown = max(0, v.pile - sum(self.pile_known))
        return unk, pile_unknown

    def _free(self, rank: int, hand_rank: int) -> int:
        """Copies of ``rank`` this seat cannot place (not in its hand, pile or sure holdings)."""
        known = hand_rank + self.pile_known[rank] + sum(self.lb[s][rank] for s in range(self.n))
        return max(0, self.copies[rank] - known)

    def _could_be_honest(self, player: int, rank: int, count: int, before: int) -> float:
        """Chance (uniform over the unknown cards) that ``player`` held ``count`` of ``rank``."""
        hr = self.rank_hand()[rank]
        lbp = self.lb[player][rank]
        free = self._free(rank, hr)
        if lbp + free < count:
            return 0.0
        unk, pile_unknown = self._unknown(player, before)
        total = sum(unk) + pile_unknown
        return hyper_at_least(total, free, unk[player], count - lbp)

    def lie_probability(self, player: int, rank: int, count: int) -> float:
        """This seat's estimate that ``player``'s open claim of ``count`` ``rank`` s is a lie.

        1.0 for a proven lie (the claimer cannot hold that many).
        """
        before = self.view.sizes[player] + count
        if self._open is not None and self._open[0] == player:
            before = self._open[3]
        can = self._could_be_honest(player, rank, count, before)
        if can <= 0.0:
            return 1.0
        return (1.0 - can) + can * self.lie_rate(player)

    def call_probability(self, rank: int, count: int, truthful: int, went_out: bool) -> float:
        """Chance that some other seat calls this seat's claim of ``count`` ``rank`` s.

        Each seat calls by its habit for that count, or because it holds
        enough copies to prove the claim false (``truthful`` of the claimed
        cards are real, so the proof needs more than ``copies - count``).
        """
        hr = self.rank_hand()[rank]
        free = self._free(rank, hr)
        unk, pile_unknown = self._unknown()
        total = sum(unk) + pile_unknown
        lie = count > truthful
        need = self.copies[rank] - count + 1  # copies a seat must see to prove the claim false
        miss = 1.0
        for s in range(self.n):
            if s == self.seat:
                continue
            q = self.call_rate(s, count, went_out, lie)
            if lie:
                prove = hyper_at_least(total, free, unk[s], need - self.lb[s][rank])
                q = 1.0 - (1.0 - q) * (1.0 - self.prove_call * prove)
            miss *= 1.0 - q
        return 1.0 - miss

    # ---------------------------------------------------------- decisions
    def turns_to_finish(self, hand: Sequence[int], cap: int, rank: int) -> int:
        """Own turns after this one that a greedy finish of ``hand`` needs, the last play truthful.

        ``rank`` is the rank this seat claims now.  Each later turn plays the
        required rank's cards and up to ``cap`` cards in all, the extra cards
        those needed furthest away, keeping at least one card; a hand whose
        cards are all of the required rank goes out.
        """
        h = list(hand)
        total = sum(h)
        if total == 0:
            return 0
        dist = self._distances()
        order = sorted(range(self.nranks), key=lambda r: -dist[r])
        step = self.n
        for j in range(1, 27):
            r = (rank + j * step) % self.nranks
            t = h[r]
            if t == total:
                return j
            h[r] = 0
            total -= t
            room = cap - t
            for x in order:
                if room <= 0 or total <= 1:
                    break
                while h[x] and room > 0 and total > 1 and x != r:
                    h[x] -= 1
                    total -= 1
                    room -= 1
        return 26 + total

    def choose(self, rank: int) -> list[int]:
        v = self.view
        own = self.holding(rank)
        hr = self.rank_hand()
        t = hr[rank]
        size = sum(hr)
        if t == size:  # the whole hand is the required rank: a truthful way out
            return own
        stuck = [k for k in self.stuck_kinds() if self.g.rank_of[k] != rank]
        others = [v.sizes[s] for s in range(self.n) if s != self.seat]
        danger = min(others) if others else 13
        cap = self._safe_claim()
        best: tuple[float, int] = (float("inf"), 0)
        pile = v.pile
        max_lies = min(size - t, self.max_claim - t) if t < self.max_claim else 0
        for lies in range(0 if t else 1, max(max_lies, 0 if t else 1) + 1):
            count = t + lies
            rest = list(hr)
            rest[rank] = 0
            removed = 0
            for k in stuck:
                if removed == lies:
                    break
                take = min(v.hand[k], lies - removed)
                rest[self.g.rank_of[k]] -= take
                removed += take
            out = count == size
            later = (
                self.turns_to_finish(rest, cap, rank) + 0.15 * (size - count) if not out else 0.0
            )
            if lies == 0:
                cost = later
            else:
                pc = self.call_probability(rank, count, t, out)
                caught = (size + pile) / self.shed_rate + 1.0
                cost = (1.0 - pc) * later + pc * caught
                if out and danger <= 2:
                    cost -= 0.5 * (1.0 - pc)  # the race is close: a way out now is worth more
            if cost < best[0] - 1e-9:
                best = (cost, lies)
        lies = best[1]
        out_counts = list(own)
        removed = 0
        for k in stuck:
            if removed == lies:
                break
            take = min(v.hand[k], lies - removed)
            out_counts[k] += take
            removed += take
        return out_counts

    def _safe_claim(self) -> int:
        """The largest claim the other seats have (so far) rarely called: 2, or 3 or 4."""
        for c in (4, 3):
            worst = max(
                (self.call_rate(s, c) for s in range(self.n) if s != self.seat), default=0.0
            )
            if worst < 0.15:
                return c
        return 2

    def _next_turn_out(self) -> float:
        """Chance that this seat, with one card left, goes out at its next turn."""
        hr = self.rank_hand()
        last = next(r for r, c in enumerate(hr) if c)
        dist = self._distances()
        nxt = next(r for r in range(self.nranks) if dist[r] == 0) if 0 in dist else -1
        if last == nxt:
            return 1.0
        if nxt < 0:
            return 0.0
        return 1.0 - self.call_probability(nxt, 1, 0, True)

    def call(self, player: int, rank: int, count: int) -> bool:
        v = self.view
        if v.sizes[player] == 0:
            return True  # going out: an honest claimer wins anyway, a liar is caught
        p = self.lie_probability(player, rank, count)
        if p >= 1.0:
            return True
        pile = v.pile + count
        if sum(v.hand) == 1:  # the penalty card is the last card: a right call wins
            return p * self.win_value * (1.0 - self._next_turn_out()) > (1.0 - p) * pile
        gain = 1.0 + self.opponent_weight * pile
        if v.sizes[player] <= self.close:
            gain += self.opponent_weight * pile  # the claimer is close to going out
        return p * gain > self.call_margin * (1.0 - p) * pile


register_bot("bs", StrategicBot.name, StrategicBot)
