"""Bots for BoerenBridge: random, greedy, knowledge, sampling and the selfish bots.

Every bot sees only its seat's observations (kept in a
:class:`~games.boerenbridge.SeatView`) and the legal actions.

==================  ===========================================================================
name                policy
==================  ===========================================================================
``random``          a uniformly random legal guess and card
``greedy``          guesses its aces and high trumps; plays its strongest card while it still
                    wants tricks, its weakest once it has enough
``knowledge``       guesses the expected number of tricks computed from its exact card
                    marginals; plays to hit its guess exactly, winning with cards it *knows*
                    win and ducking with cards it *knows* lose (:class:`KnowledgeBot`)
``sampling``        determinized Monte Carlo: draws deals consistent with what it knows from the
                    exact sampler, solves each exactly with the double-dummy search and picks the
                    guess and card with the best expected round score (:class:`SamplingBot`)
``selfish``         guesses by playing sampled deals out with every seat pursuing its own
                    (public or estimated) guess, not as a coalition against the bot -- the
                    guess with the best mean round score; plays as ``sampling``
                    (:class:`SelfishBot`)
``selfish-play``    ``selfish`` whose cards are also chosen by such playouts
                    (:class:`SelfishPlayBot`)
``selfish-noisy``   ``selfish-play`` whose playouts let the other seats play a random card
                    now and then (:class:`NoisySelfishBot`)
``selfish-small``   ``selfish-noisy`` that, in rounds of few cards, plays out more deals
                    and compares its options on the same random draws
                    (:class:`SmallHandSelfishBot`)
``selfish-search``  ``selfish`` whose cards are chosen by an information-set tree search
                    over exact-sampler deals, every seat maximising its own score, leaves
                    played out by such playouts (:class:`SelfishSearchBot`)
==================  ===========================================================================

Examples
--------
>>> from games.base import load_game, make_bot, play_game
>>> game = load_game("boerenbridge", variant="lamas")
>>> bots = [make_bot("boerenbridge", name, seed=i) for i, name in
...         enumerate(["greedy", "random", "greedy", "random"])]
>>> result = play_game(game, bots, seed=1)
>>> len(result.returns)
4
"""

from __future__ import annotations

import functools
import random
from abc import abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from games.base import Bot, Game, Observation, register_bot
from games.boerenbridge.knowledge import GuessModel, SeatView, guess_weights
from games.boerenbridge.rules import GUESS_BASE, cards_of
from games.errors import InconsistentKnowledgeError

__all__ = [
    "ViewBot",
    "RandomBot",
    "GreedyBot",
    "KnowledgeBot",
    "SamplingBot",
    "BayesSamplingBot",
    "SelfishBot",
    "SelfishPlayBot",
    "NoisySelfishBot",
    "SmallHandSelfishBot",
    "SelfishSearchBot",
    "selfish_playout",
    "estimated_guesses",
    "card_strength",
    "nearest_legal",
]


def card_strength(card: int, trump: int | None) -> int:
    """Strength of a card for play heuristics: trumps above all others, then by rank."""
    return (card & 7) + (8 if trump is not None and card >> 3 == trump else 0)


class ViewBot(Bot):
    """A bot that keeps a :class:`~games.boerenbridge.SeatView` of its seat."""

    name = "view"

    def __init__(self, seed: int | None = None):
        super().__init__(seed)
        self.view: SeatView | None = None

    def restart(self, game: Game, seat: int) -> None:
        super().restart(game, seat)
        self.view = SeatView(game.params, seat)

    def inform(self, observation: Observation) -> None:
        assert self.view is not None
        self.view.observe(observation)

    def step(self, legal_actions: Sequence[int]) -> int:
        if legal_actions[0] >= GUESS_BASE:
            return GUESS_BASE + self.guess([a - GUESS_BASE for a in legal_actions])
        return self.play(list(legal_actions))

    def guess(self, legal: list[int]) -> int:
        """Choose a guess among ``legal`` (numbers of tricks)."""
        return legal[self.rng.randrange(len(legal))]

    def play(self, legal: list[int]) -> int:
        """Choose a card among ``legal`` (card ids)."""
        return legal[self.rng.randrange(len(legal))]


class RandomBot(ViewBot):
    """Uniformly random legal guesses and cards."""

    name = "random"


def nearest_legal(target: int, legal: Sequence[int]) -> int:
    """The legal guess nearest to ``target`` (the higher one on a tie)."""
    return min(legal, key=lambda g: (abs(g - target), -g))


class GreedyBot(ViewBot):
    """High cards to win, low cards to lose.

    Guess: the number of aces and trumps of queen or higher in hand (the
    nearest legal number if the dealer may not say it).  Play: while it has
    fewer tricks than it guessed, its strongest legal card (trumps first,
    then rank); afterwards its weakest.
    """

    name = "greedy"

    def guess(self, legal: list[int]) -> int:
        v = self.view
        assert v is not None
        high = 0
        for c in range(32):
            if v.hand >> c & 1:
                r = c & 7
                if r == 7 or (v.trump is not None and c >> 3 == v.trump and r >= 5):
                    high += 1
        return nearest_legal(high, legal)

    def play(self, legal: list[int]) -> int:
        v = self.view
        assert v is not None
        t = v.trump
        if v.need > 0:
            return max(legal, key=lambda c: (card_strength(c, t), c))
        return min(legal, key=lambda c: (card_strength(c, t), c))


def _register(name: str, factory: Any) -> None:
    register_bot("boerenbridge", name, factory)


_register("random", RandomBot)
_register("greedy", GreedyBot)


class _Odds:
    """Exact facts a seat knows about the other hands, from its deal knowledge.

    ``hold[c][p]`` is the exact probability that seat ``p`` holds card ``c``;
    :meth:`void` the exact probability that ``p`` holds no card of a suit
    (computed when first asked).
    """

    def __init__(self, view: SeatView):
        self.view = view
        self.k = view.knowledge()
        m = self.k.marginals()
        self.players = view.players
        self.hold = [[float(m[c, p]) for p in range(view.players)] for c in range(32)]
        self._void: dict[tuple[int, int], float] = {}
        self._total: int | None = None

    def void(self, p: int, s: int) -> float:
        """Exact probability that seat ``p`` holds no card of suit ``s``."""
        key = (p, s)
        got = self._void.get(key)
        if got is None:
            v = self.view
            if p == v.seat:
                got = 0.0 if (v.hand >> (8 * s)) & 0xFF else 1.0
            elif v.hand_size(p) == 0 or v.voids[p] >> s & 1:
                got = 1.0
            elif not any(self.hold[c][p] > 0 for c in range(8 * s, 8 * s + 8)):
                got = 1.0
            else:
                # exact: the share of consistent deals in which p holds none of the suit
                if self._total is None:
                    self._total = self.k.count()
                probe = self.k.copy()
                try:
                    probe.void(_seat(p), list(range(8 * s, 8 * s + 8)))
                    got = probe.count() / self._total
                except InconsistentKnowledgeError:  # p is known to hold the suit
                    got = 0.0
            self._void[key] = got
        return got

    def can_hold(self, p: int, cards: int) -> bool:
        """Whether ``p`` may hold any card of the mask ``cards``."""
        while cards:
            low = cards & -cards
            if self.hold[low.bit_length() - 1][p] > 0:
                return True
            cards ^= low
        return False

    def none_of(self, p: int, cards: int) -> float:
        """Probability (treating cards as independent) that ``p`` holds none of ``cards``."""
        prob = 1.0
        while cards:
            low = cards & -cards
            prob *= 1.0 - self.hold[low.bit_length() - 1][p]
            cards ^= low
        return prob


def _seat(p: int) -> str:
    from games.boerenbridge.rules import SEAT_NAMES

    return SEAT_NAMES[p]


def _above(card: int) -> int:
    """Mask of the cards of ``card``'s suit that outrank it."""
    return (0xFF << (card & 24)) & ~((2 << card) - 1) & 0xFFFFFFFF


class KnowledgeBot(ViewBot):
    """Guesses from exact marginals and plays to hit its guess exactly.

    Guess: the expected number of tricks, each card counted with the chance
    that no other hand holds a card that outranks it and (off trump) that no
    hand can ruff it -- chances read from the seat's exact deal knowledge
    (marginals of every card and the exact probability of every void) -- said
    as the nearest legal whole number.

    Play: a card *surely wins* the trick when the seat knows that no player
    still to play can hold a card that beats it (voids included); it *surely
    loses* when it is already beaten on the table or a later player is known
    to hold the led suit only above it.  While it needs tricks it plays its
    cheapest sure winner, else (leading) its most likely winner, else a low
    card; once it has enough it plays its highest sure loser, else its least
    likely winner.
    """

    name = "knowledge"

    def guess(self, legal: list[int]) -> int:
        v = self.view
        assert v is not None
        odds = _Odds(v)
        expected = 0.0
        for c in range(32):
            if v.hand >> c & 1:
                expected += self._win_chance(v, odds, c, ())
        return nearest_legal(int(expected + 0.5), legal)

    def _win_chance(self, v: SeatView, odds: _Odds, c: int, later: Sequence[int] | tuple) -> float:
        """Chance that ``c`` (led, or played to the current trick) takes the trick."""
        others = list(later) if later else [p for p in range(v.players) if p != v.seat]
        t = v.trump
        led = v.trick[0] >> 3 if v.trick else c >> 3
        if v.trick:
            w = v.trick[_winner_index(v.trick, t)]
            if not _beats(c, w, t):
                return 0.0
        prob = 1.0
        for p in others:
            if c >> 3 == led:
                prob *= odds.none_of(p, _above(c) & ~v.hand)
                if t is not None and led != t:
                    trumps = (0xFF << (8 * t)) & ~v.hand
                    prob *= 1.0 - odds.void(p, led) * (1.0 - odds.none_of(p, trumps))
            else:  # a ruff: only higher trumps of a hand void in the led suit beat it
                prob *= 1.0 - odds.void(p, led) * (1.0 - odds.none_of(p, _above(c) & ~v.hand))
        return prob

    def _later(self, v: SeatView) -> list[int]:
        return [(v.seat + i) % v.players for i in range(1, v.players - len(v.trick))]

    def _sure_winner(self, v: SeatView, odds: _Odds, c: int) -> bool:
        t = v.trump
        if v.trick:
            w = v.trick[_winner_index(v.trick, t)]
            if not _beats(c, w, t):
                return False
        led = v.trick[0] >> 3 if v.trick else c >> 3
        if c >> 3 != led and c >> 3 != t:
            return False
        for p in self._later(v):
            if c >> 3 == led:
                if odds.can_hold(p, _above(c) & ~v.hand):
                    return False
                if t is not None and led != t and odds.void(p, led) > 0:
                    if odds.can_hold(p, (0xFF << (8 * t)) & ~v.hand):
                        return False
            elif odds.void(p, led) > 0 and odds.can_hold(p, _above(c) & ~v.hand):
                return False
        return True

    def _sure_loser(self, v: SeatView, odds: _Odds, c: int) -> bool:
        t = v.trump
        if v.trick:
            w = v.trick[_winner_index(v.trick, t)]
            if not _beats(c, w, t):
                return True
        led = v.trick[0] >> 3 if v.trick else c >> 3
        if c >> 3 != led:
            return False
        below = (0xFF << (8 * led)) & ~_above(c) & ~(1 << c)
        for p in self._later(v):
            # p must follow and every card of the suit it may hold is higher
            if odds.void(p, led) == 0 and not odds.can_hold(p, below & ~v.hand):
                return True
        return False

    def play(self, legal: list[int]) -> int:
        v = self.view
        assert v is not None
        if len(legal) == 1:
            return legal[0]
        odds = _Odds(v)
        t = v.trump
        later = self._later(v)
        if v.need > 0:
            sure = [c for c in legal if self._sure_winner(v, odds, c)]
            if sure:
                return min(sure, key=lambda c: (card_strength(c, t), c))
            chance = {c: self._win_chance(v, odds, c, later) for c in legal}
            best = max(legal, key=lambda c: (chance[c], -card_strength(c, t)))
            if not v.trick or chance[best] >= 0.5 or v.need >= v.remaining_tricks:
                return best
            return min(legal, key=lambda c: (card_strength(c, t), c))
        safe = [c for c in legal if self._sure_loser(v, odds, c)]
        if safe:
            return max(safe, key=lambda c: (card_strength(c, t), c))
        chance = {c: self._win_chance(v, odds, c, later) for c in legal}
        return min(legal, key=lambda c: (chance[c], card_strength(c, t)))


def _beats(c: int, w: int, trump: int | None) -> bool:
    """Whether ``c`` played after ``w`` (the card winning so far) takes the lead."""
    if c >> 3 == w >> 3:
        return c > w
    return trump is not None and c >> 3 == trump


def _winner_index(cards: Sequence[int], trump: int | None) -> int:
    from games.boerenbridge.rules import trick_winner

    return trick_winner(cards, trump)


class SamplingBot(ViewBot):
    """Determinized Monte Carlo on exact knowledge and exact double-dummy solutions.

    To guess, the bot draws ``samples`` deals consistent with everything its
    seat has seen (the exact uniform sampler of :mod:`games.deal`), solves each
    with every hand open and estimates the chance of each outcome; it says
    the guess with the best expected round score.  To play, it draws deals
    again and, for every card it may play, asks the double-dummy search how
    close to its guess it can force its tricks whatever the others do (a hit
    scores ``2 * guess + 10``, a miss by ``d`` scores ``-2 * d``); it plays the
    card with the best average.

    The search is *paranoid*: the other three seats are taken to play
    together against the bot's goal, so "can force" is a guarantee.  Big
    positions are costly to solve exactly, so they get fewer deals and only
    the hit is asked for (a miss counts one trick); with six cards or fewer
    the bot also asks whether it can stay within one trick.

    Parameters
    ----------
    seed : int, optional
        Seeds the sampler; the same seed and observations give the same play.
    samples : int
        Deals drawn per decision in small positions; big positions (many
        cards left) use fewer so a whole game stays within a few seconds.
    guess_model : GuessModel, optional
        Read the other seats' guesses as evidence (a Bayesian reading, apart
        from the exact knowledge): ``oversample`` times more deals are drawn
        and resampled in proportion to how likely the guesses made so far are
        under the model.  ``None`` (default): guesses are ignored.
    oversample : int
        See ``guess_model``.
    """

    name = "sampling"

    def __init__(
        self,
        seed: int | None = None,
        samples: int = 24,
        guess_model: GuessModel | None = None,
        oversample: int = 6,
    ):
        super().__init__(seed)
        self.samples = samples
        self.guess_model = guess_model
        self.oversample = oversample
        self._solvers: dict[tuple[int, int | None], Any] = {}
        self._np_rng: Any = None

    def restart(self, game: Game, seat: int) -> None:
        super().restart(game, seat)
        import numpy as np

        self._np_rng = np.random.default_rng(self.rng.getrandbits(63))
        self._solvers = {}

    def _solver(self, trump: int | None) -> Any:
        """One solver (and transposition table) per round: its entries hold across deals."""
        from games.boerenbridge.double_dummy import DoubleDummySolver

        assert self.view is not None
        key = (self.view.round_index, trump)
        s = self._solvers.get(key)
        if s is None:
            self._solvers = {}
            s = DoubleDummySolver(trump, self.view.players, self.seat, max_entries=100_000)
            self._solvers[key] = s
        return s

    def _deals(self, n: int) -> list[tuple[int, ...]]:
        """``n`` deals from the exact sampler, resampled by the guess model if there is one."""
        v = self.view
        assert v is not None
        if self.guess_model is None or all(
            g is None for p, g in enumerate(v.guesses) if p != v.seat
        ):
            return v.sample_hands(n, self._np_rng)
        pool = v.sample_hands(n * self.oversample, self._np_rng)
        w = guess_weights(v, pool, self.guess_model)
        picks = self._np_rng.choice(len(pool), size=n, p=w)
        return [pool[int(i)] for i in picks]

    def _budget(self, cards_left: int, guessing: bool = False) -> int:
        """Deals to draw when the seat holds ``cards_left`` cards (exact searches grow
        steeply with the number of cards, so big positions get fewer deals)."""
        if guessing:
            if cards_left >= 8:
                return max(6, self.samples // 3)
            return max(8, self.samples // 2) if cards_left == 7 else self.samples
        if cards_left >= 8:
            return max(3, self.samples // 8)
        if cards_left == 7:
            return max(4, self.samples // 5)
        if cards_left == 6:
            return max(8, self.samples // 3)
        return self.samples

    def guess(self, legal: list[int]) -> int:
        from games.boerenbridge.double_dummy import Position

        v = self.view
        assert v is not None
        n = v.cards
        deals = self._deals(self._budget(n, guessing=True))
        solver = self._solver(v.trump)
        leader = (v.dealer + 1) % v.players
        counts = [0] * (n + 1)
        for hands in deals:
            pos = Position(hands, v.trump, leader)
            counts[solver.max_tricks(pos)] += 1
        total = len(deals)

        def expected(g: int) -> float:
            return sum(counts[t] * round_score_of(v, g, t) for t in range(n + 1)) / total

        return max(legal, key=lambda g: (expected(g), -g))

    def play(self, legal: list[int]) -> int:
        from games.boerenbridge.double_dummy import Position

        v = self.view
        assert v is not None
        if len(legal) == 1:
            return legal[0]
        reps = _representatives(legal, v)
        deals = self._deals(self._budget(v.hand_size(v.seat)))
        if len(reps) == 1:  # every legal card is equivalent
            return reps[0]
        solver = self._solver(v.trump)
        guess = v.guesses[v.seat] or 0
        r = v.need
        totals = dict.fromkeys(reps, 0.0)
        levels = 1 if v.hand_size(v.seat) >= 7 else 2
        # per deal a card scores between the worst miss and the best hit
        m0 = v.remaining_tricks
        if r < 0:
            hi_val = -2.0 * -r
        elif r > m0:
            hi_val = -2.0 * (r - m0)
        else:
            hi_val = round_score_of(v, guess, guess)
        lo_val = -2.0 * (abs(r) + 3)
        live = list(reps)
        for k, hands in enumerate(deals):
            pos = Position(hands, v.trump, v.leader, tuple(v.trick))
            for c in live:
                after, w = pos.play(c)
                need = r - (1 if w == v.seat else 0)
                totals[c] += _score_after(solver, after, need, guess, v, levels)
            # drop cards that can no longer reach the best card's worst case
            left = len(deals) - k - 1
            floor = max(totals[c] for c in live) + left * lo_val
            live = [c for c in live if totals[c] + left * hi_val >= floor]
        return max(live, key=lambda c: (totals[c], -card_strength(c, v.trump)))


def round_score_of(view: SeatView, guess: int, tricks: int) -> int:
    """The round score of ``guess`` against ``tricks`` in the view's round."""
    from games.boerenbridge.rules import round_score

    return round_score(view.params, view.cards, guess, tricks)


def _representatives(legal: list[int], view: SeatView) -> list[int]:
    """One card per run of legal cards adjacent among the cards still in play."""
    live = view.unseen() | view.hand | sum(1 << c for c in view.trick)
    out = []
    prev = -2
    for c in sorted(legal):
        # adjacent: same suit and no live card of another hand strictly between
        if prev >= 0 and c >> 3 == prev >> 3:
            between = live & ((1 << c) - 1) & ~((2 << prev) - 1)
            if not between:
                prev = c
                continue
        out.append(c)
        prev = c
    return out


def _score_after(
    solver: Any, pos: Any, need: int, guess: int, view: SeatView, levels: int = 2
) -> float:
    """The round score the seat can force from ``pos`` (its card just played).

    ``need`` is how many of the remaining tricks it still wants.  The search
    asks whether the seat can force the number of tricks nearest its guess,
    then (with ``levels=2``) whether it can force it within one trick; a
    position that cannot counts as a miss by one trick more than it asked
    (deeper misses are rare and expensive to prove in big positions).
    """
    m = pos.remaining_tricks
    won = guess - need  # tricks already won, the trick in progress included if it is ours
    lo = min(max(need, 0), m)  # the reachable number of further tricks nearest the guess
    base = abs(need - lo)  # tricks missed whatever happens
    if solver.can_force(pos, lo, lo):
        return round_score_of(view, guess, won + lo)
    if levels < 2:
        return -2.0 * (base + 1)
    if solver.can_force(pos, lo - 1, lo + 1):
        return -2.0 * (base + 1)
    return -2.0 * (base + 2)


_register("knowledge", KnowledgeBot)
_register("sampling", SamplingBot)


class BayesSamplingBot(SamplingBot):
    """:class:`SamplingBot` that also reads the guesses with the default
    :class:`~games.boerenbridge.GuessModel` (registered as ``sampling-bayes``)."""

    name = "sampling-bayes"

    def __init__(self, seed: int | None = None, samples: int = 24):
        super().__init__(seed, samples, guess_model=GuessModel())


_register("sampling-bayes", BayesSamplingBot)


# ------------------------------------------------------------------ selfish
_SUIT = [0xFF << (8 * s) for s in range(4)]


def _can_beat(hand: int, led: int, win: int, trump: int | None) -> bool:
    """Whether a seat holding ``hand`` has a legal card that beats ``win`` in a trick
    led in suit ``led`` (it must follow suit when it can)."""
    follow = hand & _SUIT[led]
    if follow:
        if win >> 3 == led:
            return bool(follow & _above(win))
        return False  # the trick is ruffed and the seat must follow the led suit
    if trump is None:
        return False
    trumps = hand & _SUIT[trump]
    if not trumps:
        return False
    if win >> 3 == trump:
        return bool(trumps & _above(win))
    return True


def _selfish_card(
    hands: list[int],
    p: int,
    trick: list[int],
    leader: int,
    want: int,
    trump: int | None,
    players: int,
) -> int:
    """The card seat ``p`` plays in a simulated open-hand play where it pursues its
    own guess: ``want`` is the number of tricks it still wants.

    Wanting tricks, it plays its cheapest card that wins the trick whatever the
    seats after it hold, else its strongest card that wins for now, else its
    weakest card; wanting none, it plays its strongest card that loses to the
    card on the table, else its weakest card.
    """
    h = hands[p]
    if trick:
        led = trick[0] >> 3
        f = h & _SUIT[led]
        if f:
            h = f
        win = trick[_winner_index(trick, trump)]
    else:
        led = -1
        win = -1
    later = [(leader + i) % players for i in range(len(trick) + 1, players)]
    best_sure = -1
    best_now = -1
    best_lose = -1
    weakest = -1
    m = h
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        st = card_strength(c, trump)
        if weakest < 0 or st < card_strength(weakest, trump):
            weakest = c
        if win < 0 or _beats(c, win, trump):
            lead_suit = c >> 3 if led < 0 else led
            if want > 0 and not any(_can_beat(hands[q], lead_suit, c, trump) for q in later):
                if best_sure < 0 or st < card_strength(best_sure, trump):
                    best_sure = c
            if best_now < 0 or st > card_strength(best_now, trump):
                best_now = c
        elif best_lose < 0 or st > card_strength(best_lose, trump):
            best_lose = c
    if want > 0:
        if best_sure >= 0:
            return best_sure
        return best_now if best_now >= 0 else weakest
    return best_lose if best_lose >= 0 else weakest


def selfish_playout(
    hands: Sequence[int],
    trump: int | None,
    leader: int,
    trick: Sequence[int],
    tricks: Sequence[int],
    targets: Sequence[int],
    noise: float = 0.0,
    rng: random.Random | None = None,
    keep: int = -1,
) -> list[int]:
    """Tricks each seat ends with when every seat plays the open hands ``hands``
    to the end pursuing its own target (``targets[p]`` tricks in the round;
    ``tricks[p]`` already won), each with the simple rule of :func:`_selfish_card`.

    With ``noise``, every seat but ``keep`` plays a uniformly random legal card
    instead of the rule's with that probability (drawn from ``rng``): a model of
    opponents that do not always play as the rule says.

    Examples
    --------
    >>> from games.boerenbridge import parse_cards
    >>> from games.boerenbridge.double_dummy import mask_of
    >>> hands = [mask_of(parse_cards(h)) for h in ("AS 7H", "KS 8H", "QS 9H", "JS 10H")]
    >>> selfish_playout(hands, None, 0, (), [0, 0, 0, 0], [1, 0, 0, 1])
    [1, 0, 0, 1]
    >>> selfish_playout(hands, None, 0, (), [0, 0, 0, 0], [0, 0, 0, 1])  # the A♠ cannot duck
    [1, 0, 0, 1]
    """
    hs = list(hands)
    players = len(hs)
    won = list(tricks)
    cur = list(trick)
    lead = leader
    while True:
        p = (lead + len(cur)) % players
        if not hs[p]:
            return won
        if noise and p != keep and rng is not None and rng.random() < noise:
            options = cards_of(_follow(hs[p], cur))
            c = options[rng.randrange(len(options))]
        else:
            c = _selfish_card(hs, p, cur, lead, targets[p] - won[p], trump, players)
        hs[p] &= ~(1 << c)
        cur.append(c)
        if len(cur) == players:
            lead = (lead + _winner_index(cur, trump)) % players
            won[lead] += 1
            cur = []


def estimated_guesses(view: SeatView, hands: Sequence[int], model: GuessModel) -> list[int]:
    """Every seat's guess: the public ones, and for the seats still to guess an
    estimate from their hand in the deal ``hands`` (``model``), the dealer's kept
    off the total its restriction forbids."""
    out = []
    n = view.cards
    for p in range(view.players):
        g = view.guesses[p]
        out.append(model.estimate(hands[p], view.trump) if g is None else g)
    d = view.dealer
    if view.guesses[d] is None and sum(out) == n:
        out[d] += 1 if out[d] == 0 else -1
    return out


class SelfishBot(SamplingBot):
    """Guesses by simulating a play in which every seat pursues its own guess.

    To guess, the bot draws deals from the exact sampler of what its seat
    knows; in each deal it gives the seats that have guessed their public
    guess and the seats still to guess an estimate from their hand (the
    dealer's restriction applied), and for every legal guess of its own it
    plays the deal out with open hands, every seat -- itself included --
    playing for its own guess with a simple rule (:func:`selfish_playout`).
    It says the guess with the best mean round score over the deals.

    The others are not a coalition against it: a seat that has what it
    guessed throws its low cards, a seat that wants tricks takes them.  The
    paranoid double-dummy guess of :class:`SamplingBot` counts only the tricks
    the bot can force against all three, and so guesses too low.

    The cards are played as :class:`SamplingBot` plays them.

    Parameters
    ----------
    seed : int, optional
        Seeds the sampler; the same seed and observations give the same play.
    samples : int
        Deals drawn per card decision (see :class:`SamplingBot`).
    guess_samples : int
        Deals drawn for the guess.
    noise : float
        In the playouts every other seat plays a random legal card instead of
        the rule's with this probability (see :func:`selfish_playout`): real
        opponents stray from the rule, which spreads the tricks the bot takes.
    """

    name = "selfish"

    def __init__(
        self,
        seed: int | None = None,
        samples: int = 24,
        guess_samples: int = 48,
        noise: float = 0.0,
        common_noise: bool = False,
        guess_model: GuessModel | None = None,
        oversample: int = 6,
        guess_noise: float | None = None,
    ):
        super().__init__(seed, samples, guess_model=guess_model, oversample=oversample)
        self.guess_samples = guess_samples
        self.noise = noise
        self.guess_noise = noise if guess_noise is None else guess_noise
        self.common_noise = common_noise
        self._noise_rng = random.Random(seed)
        self._model = GuessModel()

    def restart(self, game: Game, seat: int) -> None:
        super().restart(game, seat)
        # its own stream, so the noise leaves the sampler's draws as they were
        self._noise_rng = random.Random(None if self.seed is None else f"{self.seed}/{seat}")

    def _noisy(self) -> tuple[float, Any, int]:
        """The playouts' noise, its generator and the seat it spares (this one)."""
        return self.noise, self._noise_rng, self.seat

    def _option_noise(self, deals: int) -> list[Callable[[], random.Random]]:
        """For each deal, what gives the generator of each option's playout: with
        ``common_noise`` a fresh generator with the deal's seed, so each option of a
        deal replays the same random draws (common random numbers: the options differ
        by what they do, not by their luck); otherwise the bot's one stream, drawn on
        from option to option."""
        if not self.common_noise:
            stream = self._noise_rng
            return [lambda: stream] * deals
        seeds = [
            random.Random(self._noise_rng.getrandbits(64)).getrandbits(64) for _ in range(deals)
        ]
        return [functools.partial(random.Random, s) for s in seeds]

    def guess(self, legal: list[int]) -> int:
        v = self.view
        assert v is not None
        deals = self._deals(self.guess_samples)
        leader = (v.dealer + 1) % v.players
        zero = [0] * v.players
        totals = dict.fromkeys(legal, 0.0)
        for hands, noise in zip(deals, self._option_noise(len(deals)), strict=True):
            targets = estimated_guesses(v, hands, self._model)
            for g in legal:
                targets[v.seat] = g
                won = selfish_playout(
                    hands, v.trump, leader, (), zero, targets, self.guess_noise, noise(), v.seat
                )
                totals[g] += round_score_of(v, g, won[v.seat])
        return max(legal, key=lambda g: (totals[g], -g))


_register("selfish", SelfishBot)


class _SelfishCardsBot(SelfishBot):
    """A :class:`SelfishBot` that picks its card among the distinct legal cards
    (one per run of equivalent cards) with :meth:`_choose_card`."""

    def play(self, legal: list[int]) -> int:
        v = self.view
        assert v is not None
        reps = _representatives(legal, v)
        if len(reps) == 1:  # one card, or every legal card is equivalent
            return reps[0]
        return self._choose_card(v, reps)

    @abstractmethod
    def _choose_card(self, v: SeatView, reps: list[int]) -> int:
        """One of ``reps`` (two or more distinct legal cards) for the seat's view ``v``."""


class SelfishPlayBot(_SelfishCardsBot):
    """:class:`SelfishBot` that also plays its cards by selfish playouts (registered
    as ``selfish-play``).

    For every card it may play (one per run of equivalent cards), in each of
    ``play_samples`` deals drawn from the exact sampler, it plays the card and
    plays the deal out with every seat pursuing its public guess
    (:func:`selfish_playout`); it plays the card with the best mean round score.
    """

    name = "selfish-play"

    def __init__(
        self,
        seed: int | None = None,
        samples: int = 24,
        guess_samples: int = 48,
        play_samples: int = 48,
        noise: float = 0.0,
        **options: Any,
    ):
        super().__init__(seed, samples, guess_samples, noise, **options)
        self.play_samples = play_samples

    def _choose_card(self, v: SeatView, reps: list[int]) -> int:
        deals = self._deals(self.play_samples)
        targets = [g or 0 for g in v.guesses]
        guess = targets[v.seat]
        totals = dict.fromkeys(reps, 0.0)
        for hands, noise in zip(deals, self._option_noise(len(deals)), strict=True):
            for c in reps:
                hs = list(hands)
                hs[v.seat] &= ~(1 << c)
                trick = v.trick + [c]
                won = list(v.tricks)
                leader = v.leader
                if len(trick) == v.players:
                    leader = (leader + _winner_index(trick, v.trump)) % v.players
                    won[leader] += 1
                    trick = []
                won = selfish_playout(
                    hs, v.trump, leader, trick, won, targets, self.noise, noise(), v.seat
                )
                totals[c] += round_score_of(v, guess, won[v.seat])
        return max(reps, key=lambda c: (totals[c], -card_strength(c, v.trump)))


_register("selfish-play", SelfishPlayBot)


class NoisySelfishBot(SelfishPlayBot):
    """:class:`SelfishPlayBot` whose playouts let the other seats stray from the
    rule: each of their cards is a random legal card with probability ``noise``
    (registered as ``selfish-noisy``).

    The rule's opponents win and duck exactly as planned, so a bot that trusts it
    expects to lose the tricks it wants to lose; opponents that stray spread its
    tricks, and the guesses and cards that stay good under that spread score
    better against real opponents (``benchmarks/boerenbridge_bidding.py``).
    """

    name = "selfish-noisy"

    def __init__(self, seed: int | None = None, noise: float = 0.6, **options: Any):
        super().__init__(seed, noise=noise, **options)


_register("selfish-noisy", NoisySelfishBot)


class SmallHandSelfishBot(NoisySelfishBot):
    """:class:`NoisySelfishBot` that looks harder at rounds of few cards (registered
    as ``selfish-small``).

    In rounds of at most ``up_to`` cards each of its guesses plays out
    ``small_guess_samples`` deals and each of its cards ``small_play_samples``, the
    options of one deal replaying the same random draws of the other seats
    (``common_noise``: the options are compared on the same luck).  Small rounds
    leave the time for it: a decision there costs a fraction of one in a big
    round.  In rounds of more cards it decides exactly as ``selfish-noisy`` with
    the same seed.

    Parameters
    ----------
    seed : int, optional
        Seeds the sampler and the noise; the same seed and observations give the
        same play.
    up_to : int
        The largest round (cards dealt to each seat) that gets the closer look.
    small_guess_samples, small_play_samples : int
        Deals per guess and per card in those rounds.
    read_guesses : bool
        Also weigh the deals by how well they fit the guesses said so far in those
        rounds (the Bayesian reading of :class:`SamplingBot`'s ``guess_model``,
        with the default :class:`~games.boerenbridge.GuessModel`); off by default,
        as it scored lower against IS-MCTS on the training deals
        (``benchmarks/boerenbridge_bidding.py``).
    """

    name = "selfish-small"

    def __init__(
        self,
        seed: int | None = None,
        up_to: int = 5,
        small_guess_samples: int = 150,
        small_play_samples: int = 100,
        read_guesses: bool = False,
        **options: Any,
    ):
        super().__init__(seed, **options)
        self.up_to = up_to
        self._big = (self.guess_samples, self.play_samples, False, None)
        model = GuessModel() if read_guesses else None
        self._small = (small_guess_samples, small_play_samples, True, model)

    def _configure(self) -> None:
        """The settings of the round in the seat's view: a small round or not."""
        assert self.view is not None
        small = self.view.cards <= self.up_to
        g, p, common, model = self._small if small else self._big
        self.guess_samples, self.play_samples = g, p
        self.common_noise, self.guess_model = common, model

    def guess(self, legal: list[int]) -> int:
        self._configure()
        return super().guess(legal)

    def play(self, legal: list[int]) -> int:
        self._configure()
        return super().play(legal)


_register("selfish-small", SmallHandSelfishBot)


def _follow(hand: int, trick: Sequence[int]) -> int:
    """The cards of ``hand`` that may be played to ``trick`` (the led suit if held)."""
    if trick:
        f = hand & _SUIT[trick[0] >> 3]
        if f:
            return f
    return hand


class SelfishSearchBot(_SelfishCardsBot):
    """:class:`SelfishBot` whose cards are chosen by an information-set tree search
    (registered as ``selfish-search``).

    At its turn to play the bot draws ``deals`` deals from the exact sampler of
    what its seat knows and runs ``simulations`` simulations of single-observer
    information-set Monte Carlo tree search over them: each simulation takes the
    next deal, walks down a tree of the cards played from now on (the same
    sequence of cards is the same node whatever the deal; a card counts as
    available at a node only in the deals where it is legal), choosing the card
    with the best upper confidence bound *for the seat to move* (every seat
    maximises its own round score for its public guess), adds one node and plays
    the deal out with :func:`selfish_playout`.  It plays the root card visited
    most often.  Guesses are :class:`SelfishBot`'s.

    Parameters
    ----------
    seed : int, optional
        Seeds the sampler and the search; the same seed and observations give the
        same play.
    simulations : int
        Simulations per card decision.
    deals : int
        Deals drawn per card decision (the simulations cycle through them).
    exploration : float
        The bound's exploration constant, on scores divided by the best hit score
        of the round.
    guess_samples : int
        Deals drawn for the guess (see :class:`SelfishBot`).
    noise : float
        The other seats' random plays in the playouts (see :class:`SelfishBot`).
    """

    name = "selfish-search"

    def __init__(
        self,
        seed: int | None = None,
        simulations: int = 200,
        deals: int = 50,
        exploration: float = 0.7,
        guess_samples: int = 48,
        noise: float = 0.0,
    ):
        super().__init__(seed, guess_samples=guess_samples, noise=noise)
        self.simulations = simulations
        self.deals = deals
        self.exploration = exploration

    def _choose_card(self, v: SeatView, reps: list[int]) -> int:
        import math

        deals = v.sample_hands(self.deals, self._np_rng)
        players, trump, n = v.players, v.trump, v.cards
        targets = [g or 0 for g in v.guesses]
        scores = [[round_score_of(v, targets[q], t) for t in range(n + 1)] for q in range(players)]
        scale = float(max(max(abs(x) for x in row) for row in scores)) or 1.0
        c_explore = self.exploration
        rng = self.rng
        # node (the cards played since the root) -> card -> [visits, total value, available]
        tree: dict[tuple[int, ...], dict[int, list[float]]] = {}
        root_cards = set(reps)
        for it in range(self.simulations):
            hands = list(deals[it % len(deals)])
            trick = list(v.trick)
            leader = v.leader
            won = list(v.tricks)
            key: tuple[int, ...] = ()
            path: list[tuple[list[float], int]] = []
            while True:
                p = (leader + len(trick)) % players
                if not hands[p]:
                    break
                cards = cards_of(_follow(hands[p], trick))
                if not key:
                    cards = [c for c in cards if c in root_cards]
                stats = tree.setdefault(key, {})
                fresh = []
                for c in cards:
                    s = stats.get(c)
                    if s is None:
                        s = stats[c] = [0, 0.0, 0]
                    s[2] += 1
                    if s[0] == 0:
                        fresh.append(c)
                if fresh:
                    card = fresh[rng.randrange(len(fresh))]
                else:
                    card = max(
                        cards,
                        key=lambda c: (
                            stats[c][1] / stats[c][0]
                            + c_explore * math.sqrt(math.log(stats[c][2]) / stats[c][0])
                        ),
                    )
                path.append((stats[card], p))
                hands[p] &= ~(1 << card)
                trick.append(card)
                if len(trick) == players:
                    leader = (leader + _winner_index(trick, trump)) % players
                    won[leader] += 1
                    trick = []
                key = (*key, card)
                if fresh:
                    break
            if hands[(leader + len(trick)) % players]:
                won = selfish_playout(hands, trump, leader, trick, won, targets, *self._noisy())
            for s, p in path:
                s[0] += 1
                s[1] += scores[p][won[p]] / scale
        root = tree[()]
        return max(reps, key=lambda c: (root[c][0], root[c][1], -card_strength(c, trump)))


_register("selfish-search", SelfishSearchBot)
