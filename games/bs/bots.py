"""Bots for BS: random, truthful, liar, threshold, knowledge and probabilistic.

Every bot sees only its seat's observations (through
:class:`~games.bs.knowledge.SeatKnowledge`) and the legal actions, so it plays inside
any controller that gives it its hand and the public events.  Following the
player API of the BS programming tournament, a bot answers two questions:

* :meth:`BSBot.choose` — which cards to play for the required rank
  (``requestCards``);
* :meth:`BSBot.call` — whether to call BS on another player's play (``bs``).

Names on the command line: ``random``, ``truthful``, ``liar``, ``threshold``,
``knowledge``, ``knowledge-exact``, ``probabilistic``, ``probabilistic-exact``.

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
from games.bs.knowledge import SeatKnowledge
from games.bs.rules import CALL, PASS
from games.bs.state import BSGame

__all__ = [
    "BSBot",
    "RandomBot",
    "TruthfulBot",
    "LiarBot",
    "ThresholdBot",
    "KnowledgeBot",
    "ExactKnowledgeBot",
    "ProbabilisticBot",
    "ExactProbabilisticBot",
]


class BSBot(Bot):
    """Base class: follows the seat's observations and dispatches decisions.

    Subclasses implement :meth:`choose` and :meth:`call`; ``needs_knowledge``
    asks for exact deal knowledge (:class:`~games.deal.DealKnowledge`).
    """

    name: ClassVar[str] = "bs"
    needs_knowledge: ClassVar[bool] = False
    #: Asks for the cheaper cell bounds (:class:`~games.deal.cells.CellKnowledge`).
    needs_cells: ClassVar[bool] = False
    #: Table budget of the bot's deal knowledge (see ``DealKnowledge.max_table``).
    max_table: ClassVar[int] = 300

    def restart(self, game: Game, seat: int) -> None:
        super().restart(game, seat)
        if not isinstance(game, BSGame):
            raise TypeError(f"{type(self).__name__} plays BS, not {game!r}")
        self.g: BSGame = game
        self.view = SeatKnowledge(
            game,
            seat,
            exact=self.needs_knowledge,
            max_table=self.max_table,
            cells=self.needs_cells,
        )
        self._dist_key: tuple[int, int] | None = None
        self._dist: list[int] = []

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
        return self._distances()[rank]

    def _distances(self) -> list[int]:
        """For every rank, this seat's own turns until it must claim it."""
        v = self.view
        key = (v.plays, v.required)
        if self._dist_key == key:
            return self._dist
        n = v.n
        order = v.order
        t = v.plays
        first = 0
        while order[(t + first) % n] != self.seat:
            first += 1
        dist = [13] * 13
        for j in range(13):
            r = (v.required + first + j * n) % 13
            if dist[r] == 13:
                dist[r] = j
        self._dist, self._dist_key = dist, key
        return dist

    def stuck_kinds(self) -> list[int]:
        """Kinds in hand, the ones whose rank this seat must claim last first."""
        dist = self._distances()
        rank_of = self.g.rank_of
        kinds = [k for k, c in enumerate(self.view.hand) if c]
        kinds.sort(key=lambda k: (-dist[rank_of[k]], k))
        return kinds


class RandomBot(BSBot):
    """Uniformly random legal action at every decision (plays and calls)."""

    name = "random"

    def inform(self, observation) -> None:  # type: ignore[no-untyped-def]
        """A random player needs nothing but the legal actions."""

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
    """Calls when its cell bounds prove the claim false; lies with the cards it needs last.

    Knowledge: the seat's cell bounds (:class:`~games.deal.cells.CellKnowledge`:
    for every card, the copies each location surely holds and can hold, no
    joint constraints).  The claim is proven false when the bounds leave the
    claimer, before its play, fewer copies of the claimed rank than it
    claims (:meth:`~games.bs.knowledge.SeatKnowledge.rank_knows_lie`): its
    own copies plus the copies it saw go to the pile and into other hands
    leave too few.  The bounds allow a superset of the deals the
    observations allow, so the model is sound but not complete: a call is
    never wrong, but a lie that only a joint constraint proves ("the pile
    and P2 together hold a 7") goes uncalled.  ``knowledge-exact``
    (:class:`ExactKnowledgeBot`) calls on the exact deal knowledge instead.

    It plays all its cards of the required rank; with none it lies with one
    card, the one whose rank it must claim furthest in the future.
    """

    name = "knowledge"
    needs_cells = True

    def call(self, player: int, rank: int, count: int) -> bool:
        return self.view.rank_knows_lie()


class ExactKnowledgeBot(KnowledgeBot):
    """:class:`KnowledgeBot` on the exact deal knowledge (``knowledge-exact``).

    The claim is known false when no deal consistent with the bot's
    observations (:class:`~games.deal.DealKnowledge`) puts ``count`` cards of
    the claimed rank in the play.  The deal knowledge keeps joint
    constraints of up to :attr:`max_table` value combinations; past that it
    drops one and keeps a sound superset of the possible deals
    (``DealKnowledge.exact`` turns False): a call is still never wrong, but
    a lie only the dropped constraint proved goes uncalled.  Plays as
    ``knowledge``; slower.
    """

    name = "knowledge-exact"
    needs_knowledge = True
    needs_cells = False

    def call(self, player: int, rank: int, count: int) -> bool:
        return self.view.knows_lie()


class ProbabilisticBot(BSBot):
    """Calls by the probability of a lie, weighed by the pile; pads honest plays.

    Calling: ``p`` is the probability, under the bot's knowledge, that the
    claimer held fewer cards of the claimed rank than it claims (the claim
    cannot be honest).  With ``P`` the cards a wrong call would pick up, the
    bot calls when ``p * gain > caution * (1 - p) * P``, where a right call
    sheds the penalty card (koth, worth ``shed_value``) and makes an opponent
    pick up the pile (worth ``opponent_weight`` per card).  The model treats
    claimed cards as unknown, so its lie probabilities run high against
    honest players; ``caution`` (20) keeps the bot to calls it is nearly
    sure of.  A known lie (``p = 1``) is always called.  End-game: a claimer
    who has just played its last card wins unless called, so the bot always
    calls then (an honest claimer wins anyway).

    Playing: all its cards of the required rank, padded with one extra card
    — the one it must claim furthest in the future, so it is not stuck with
    it — when the claim stays at most two (the sample player calls three)
    and the estimated chance that an opponent holds enough of the rank to
    know the claim is false stays below ``extra_risk``.  With no card of the
    rank it lies with one card, the one it needs last.

    Knowledge: the seat's cell bounds (:class:`~games.deal.cells.CellKnowledge`:
    for every card, the copies each location surely holds and can hold, no
    joint constraints), and ``p`` and the expected copies of a rank are
    exact under the group relaxation (the rank's own bounds kept, the other
    ranks' unknown cards free).  That is a superset of the deals the exact
    deal knowledge allows, so a known lie of the bounds is a lie, but a lie
    only a joint constraint proves is not seen; ``probabilistic-exact``
    (:class:`ExactProbabilisticBot`) is the same bot on the exact (budgeted)
    deal knowledge, many times slower.
    """

    name = "probabilistic"
    needs_cells = True

    #: How much an opponent's pickup is worth to this bot, per card.
    opponent_weight: ClassVar[float] = 0.1
    #: Value of the penalty card a right caller sheds (koth).
    shed_value: ClassVar[float] = 1.0
    #: Weight of a wrong call's cost: the deal model treats claimed cards as
    #: unknown, so its lie probabilities run high; the bot calls only when sure.
    caution: ClassVar[float] = 20.0
    #: Call harder against a claimer about to go out.
    endgame: ClassVar[bool] = True
    #: Add one lie card to a truthful play when it is unlikely to be exposed.
    extra_lies: ClassVar[bool] = True
    #: Largest claim the bot pads with an extra card (threshold callers call 3).
    max_claim: ClassVar[int] = 2
    #: Largest pile (after the play) it risks padding.
    extra_pile: ClassVar[int] = 1000
    #: Largest estimated chance that an opponent can refute the padded claim.
    extra_risk: ClassVar[float] = 0.8

    def lie_probability(self) -> float:
        """Probability that the open claim cannot be honest (cell bounds, group relaxation)."""
        return self.view.rank_lie_probability()

    def expected_copies(self, rank: int) -> list[float]:
        """Expected copies of ``rank`` in every seat's hand (cell bounds, group relaxation)."""
        got = self.view.rank_expected(rank)
        return [got[f"P{s}"] for s in range(self.view.n)]

    def call(self, player: int, rank: int, count: int) -> bool:
        v = self.view
        p = self.lie_probability()
        if p <= 0.0:
            return False
        if p >= 1.0:
            return True
        left = v.sizes[player]
        if left == 0 and self.endgame:
            return True
        pile = v.pile + count
        gain = self.opponent_weight * pile + (self.shed_value if self.g.koth else 0.0)
        return p * gain > self.caution * (1.0 - p) * pile

    def choose(self, rank: int) -> list[int]:
        v = self.view
        own = self.holding(rank)
        n_own = sum(own)
        stuck = self.stuck_kinds()
        if not n_own:
            return self._one(stuck[0])
        extra = [k for k in stuck if self.g.rank_of[k] != rank]
        if (
            self.extra_lies
            and extra
            and n_own + 1 <= self.max_claim
            and v.pile + n_own + 1 <= self.extra_pile
            and self._exposure(rank, n_own + 1) < self.extra_risk
        ):
            out = list(own)
            out[extra[0]] += 1
            return out
        return own

    def _exposure(self, rank: int, count: int) -> float:
        """Estimated chance that an opponent can refute a claim of ``count`` cards of ``rank``.

        From the expected copies of ``rank`` each opponent holds
        (:meth:`expected_copies`), compared with how many would make the
        claim impossible for them.
        """
        v = self.view
        kinds = self.g.kinds_of_rank[rank]
        total = sum(self.g.deck.copies[k] for k in kinds)
        mine = sum(v.hand[k] for k in kinds)
        need = total - count + 1 - mine
        if need <= 0:
            return 1.0
        expected = self.expected_copies(rank)
        worst = 0.0
        for s in range(v.n):
            if s == self.seat:
                continue
            worst = max(worst, min(1.0, expected[s] / need) ** need)
        return worst


class ExactProbabilisticBot(ProbabilisticBot):
    """:class:`ProbabilisticBot` on the exact deal knowledge (``probabilistic-exact``).

    ``p`` is the exact probability of a lie under the bot's
    :class:`~games.deal.DealKnowledge` (joint constraints kept within the
    table budget :attr:`max_table`; past it the knowledge drops one and
    stays a sound superset), the expected copies are its exact marginals.
    The same decisions otherwise; many times slower than ``probabilistic``.
    """

    name = "probabilistic-exact"
    needs_knowledge = True
    needs_cells = False

    def lie_probability(self) -> float:
        """Exact probability that the open claim cannot be honest (deal knowledge)."""
        return self.view.lie_probability()

    def expected_copies(self, rank: int) -> list[float]:
        """Expected copies of ``rank`` in every seat's hand: the exact marginals."""
        kn = self.view.knowledge
        if kn is None:
            return [0.0] * self.view.n
        m = kn.marginals()
        cols = kn.locations
        kinds = self.g.kinds_of_rank[rank]
        return [float(sum(m[k, cols.index(f"P{s}")] for k in kinds)) for s in range(self.view.n)]


for _cls in (
    RandomBot,
    TruthfulBot,
    LiarBot,
    ThresholdBot,
    KnowledgeBot,
    ExactKnowledgeBot,
    ProbabilisticBot,
    ExactProbabilisticBot,
):
    register_bot("bs", _cls.name, _cls)
