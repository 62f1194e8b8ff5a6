"""Bots for BS: random, truthful, liar, threshold, knowledge and probabilistic.

Every bot sees only its seat's observations (through
:class:`~games.bs.SeatKnowledge`) and the legal actions, so it plays inside
any controller that gives it its hand and the public events.  Following the
player API of the BS programming tournament, a bot answers two questions:

* :meth:`BSBot.choose` — which cards to play for the required rank
  (``requestCards``);
* :meth:`BSBot.call` — whether to call BS on another player's play (``bs``).

Names on the command line: ``random``, ``truthful``, ``liar``, ``threshold``,
``knowledge``, ``probabilistic``.

Examples
--------
>>> from games.base import load_game, make_bot, play_game
>>> game = load_game("bs", variant="koth")
>>> bots = [make_bot("bs", n, seed=1) for n in ("knowledge", "truthful", "threshold", "liar")]
>>> play_game(game, bots, seed=3).steps > 0
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from games.base import Bot, Game, register_bot
from games.bs import CALL, PASS, BSGame, SeatKnowledge

__all__ = [
    "BSBot",
    "RandomBot",
    "TruthfulBot",
    "LiarBot",
    "ThresholdBot",
    "KnowledgeBot",
    "ProbabilisticBot",
]


class BSBot(Bot):
    """Base class: follows the seat's observations and dispatches decisions.

    Subclasses implement :meth:`choose` and :meth:`call`; ``needs_knowledge``
    asks for exact deal knowledge (:class:`~games.deal.DealKnowledge`).
    """

    name: ClassVar[str] = "bs"
    needs_knowledge: ClassVar[bool] = False

    def restart(self, game: Game, seat: int) -> None:
        super().restart(game, seat)
        if not isinstance(game, BSGame):
            raise TypeError(f"{type(self).__name__} plays BS, not {game!r}")
        self.g: BSGame = game
        self.view = SeatKnowledge(game, seat, exact=self.needs_knowledge)

    def inform(self, observation) -> None:  # type: ignore[no-untyped-def]
        self.view.observe(observation)

    def step(self, legal_actions: Sequence[int]) -> int:
        v = self.view
        if len(legal_actions) == 2 and legal_actions[0] == PASS and legal_actions[1] == CALL:
            assert v.last is not None
            p, rank, count = v.last
            return CALL if self.call(p, rank, count) else PASS
        if not self.g.koth and v.plays == 0:
            return self.g.encode(self._one(self.first_card()))
        counts = self.choose(v.required)
        return self.g.encode(counts)

    # ----------------------------------------------------------- decisions
    def choose(self, rank: int) -> list[int]:
        """Count vector of the cards to play when ``rank`` is required."""
        return self.truthful_play(rank)

    def call(self, player: int, rank: int, count: int) -> bool:
        """Whether to call BS on ``player`` claiming ``count`` cards of ``rank``."""
        return False

    def first_card(self) -> int:
        """Kind of the face-up first card (classic): the one needed last."""
        return self.stuck_kinds()[0]

    # ------------------------------------------------------------- helpers
    def _one(self, kind: int) -> list[int]:
        out = [0] * self.g.num_kinds
        out[kind] = 1
        return out

    def holding(self, rank: int) -> list[int]:
        """Count vector of this seat's cards of ``rank``."""
        out = [0] * self.g.num_kinds
        for k in self.g.kinds_of_rank[rank]:
            out[k] = self.view.hand[k]
        return out

    def truthful_play(self, rank: int) -> list[int]:
        """All cards of ``rank``; if there are none, one card (the one needed last)."""
        own = self.holding(rank)
        if any(own):
            return own
        return self._one(self.stuck_kinds()[0])

    def turns_until(self, rank: int) -> int:
        """How many of this seat's own turns pass before it must claim ``rank``."""
        v = self.view
        n = v.n
        me = v.order.index(self.seat)
        t = v.plays
        for d in range(13 * n + 1):
            if v.order[(t + d) % n] == me or v.order[(t + d) % n] == self.seat:
                if (v.required + d) % 13 == rank:
                    return d // n
        return 13

    def stuck_kinds(self) -> list[int]:
        """Kinds in hand, the ones whose rank this seat must claim last first."""
        v = self.view
        kinds = [k for k, c in enumerate(v.hand) if c]
        kinds.sort(key=lambda k: (-self.turns_until(self.g.rank_of[k]), k))
        return kinds


class RandomBot(BSBot):
    """Uniformly random legal action at every decision (plays and calls)."""

    name = "random"

    def step(self, legal_actions: Sequence[int]) -> int:
        return legal_actions[self.rng.randrange(len(legal_actions))]


class TruthfulBot(BSBot):
    """Plays every card of the required rank when it has one, else one card; never calls."""

    name = "truthful"


class LiarBot(BSBot):
    """Always lies when it can: plays one card of another rank (random); never calls.

    With only cards of the required rank left it plays them (there is no lie
    to tell).
    """

    name = "liar"

    def choose(self, rank: int) -> list[int]:
        wrong = [k for k, c in enumerate(self.view.hand) if c and self.g.rank_of[k] != rank]
        if not wrong:
            return self.holding(rank)
        return self._one(wrong[self.rng.randrange(len(wrong))])


class ThresholdBot(BSBot):
    """Plays like the truthful bot; calls BS whenever 3 or more cards are claimed.

    This is the sample player of the BS programming tournament.
    """

    name = "threshold"

    def call(self, player: int, rank: int, count: int) -> bool:
        return count >= 3


class KnowledgeBot(BSBot):
    """Calls exactly when it *knows* the claim is false; lies with the cards it needs last.

    Knowledge is exact: the claim is known false when no deal consistent with
    the bot's observations puts ``count`` cards of the claimed rank in the
    play — its own copies plus the copies it saw go to the pile and into
    other hands leave too few for the claimer.  It plays all its cards of the
    required rank; with none it lies with one card, the one whose rank it
    must claim furthest in the future.
    """

    name = "knowledge"
    needs_knowledge = True

    def call(self, player: int, rank: int, count: int) -> bool:
        return self.view.knows_lie()


class ProbabilisticBot(BSBot):
    """Calls when the exact probability of a lie makes calling worth the pile.

    Calling policy: with ``p`` the exact probability (from the bot's deal
    knowledge) that the open play is not all of the claimed rank and ``P``
    the cards a wrong call would pick up, it calls when ``p * gain > (1 - p)
    * P``, where a right call hurts an opponent by the pile (weighted 1/2)
    and, in koth, sheds one card.  End-game: a claimer about to go out wins
    unless called, so any chance of a lie is worth a call; a claimer with
    one or two cards left lowers the bar.

    Playing policy: with cards of the required rank it plays them all; with
    the pile small and the claim safe it may add one extra card (the one it
    needs last) as a lie.  With none it lies with the single card that is
    least likely to be exposed — a rank whose copies it cannot see being
    piled elsewhere — among the cards it needs last.
    """

    name = "probabilistic"
    needs_knowledge = True

    def call(self, player: int, rank: int, count: int) -> bool:
        v = self.view
        p = v.lie_probability()
        if p <= 0.0:
            return False
        if p >= 1.0:
            return True
        left = v.sizes[player]
        if left == 0:
            return True
        pile = v.pile + count
        gain = 0.5 * pile + (1.0 if self.g.koth else 0.0)
        if left <= 2:
            gain += 2.0 * (3 - left)
        return p * gain > (1.0 - p) * pile

    def choose(self, rank: int) -> list[int]:
        v = self.view
        own = self.holding(rank)
        n_own = sum(own)
        stuck = self.stuck_kinds()
        hand_n = sum(v.hand)
        if n_own:
            if n_own == hand_n:
                return own
            extra = [k for k in stuck if self.g.rank_of[k] != rank]
            if extra and v.pile <= 2 and n_own == 1 and self._exposure(rank, n_own + 1) < 0.15:
                out = list(own)
                out[extra[0]] += 1
                return out
            return own
        best = min(
            stuck[: max(1, len(stuck))],
            key=lambda k: (self._exposure(rank, 1), -self.turns_until(self.g.rank_of[k])),
        )
        return self._one(best)

    def _exposure(self, rank: int, count: int) -> float:
        """Chance that an opponent holds enough of ``rank`` to know a claim of ``count`` is false."""
        v = self.view
        kn = v.knowledge
        if kn is None:
            return 0.0
        kinds = self.g.kinds_of_rank[rank]
        total = sum(self.g.deck.copies[k] for k in kinds)
        mine = sum(v.hand[k] for k in kinds)
        worst = 0.0
        for s in range(v.n):
            if s == self.seat:
                continue
            need = total - count + 1 - mine
            if need <= 0:
                return 1.0
            dist = kn.count_distribution(kinds, f"P{s}")
            worst = max(worst, sum(dist[need:]))
        return worst


for _cls in (RandomBot, TruthfulBot, LiarBot, ThresholdBot, KnowledgeBot, ProbabilisticBot):
    register_bot("bs", _cls.name, _cls)
