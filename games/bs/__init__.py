"""BS (Cheat, "I doubt it"): one engine, variants ``classic`` and ``koth``.

Rules: ``bs-classic.txt`` (variant ``classic``) and the programming-tournament
text ``bs-koth.txt`` (variant ``koth``), with the decisions of
``CLARIFICATIONS.md``:

* ``classic`` — 2 or more players, one 52-card deck dealt round the table from
  seat 0 (the first seats get the extra cards).  Chance spins the bottle for
  the first player, who lays one card of any rank face up; from then on each
  play claims the rank after the previous one (2 3 … 10 J Q K A 2 …).  A play
  is one or more cards face down; the count is public and cannot be a lie,
  the ranks can.  The other players then decide, without seeing each other's
  decision, whether to call BS; the first caller in turn order after the
  player is the caller.  A call reveals the play: a liar takes the whole
  pile, otherwise the caller does.  A player with no cards once the calls on
  their play are settled wins.
* ``koth`` — exactly 4 players, ranks 0–12 with four identical cards each, 13
  cards per hand, a random seat order per game, required ranks 0, 1, …, 12,
  0, … from the first play.  Several callers: chance picks one uniformly.  A
  caught liar takes the pile, then the caller puts one random card of their
  own hand face down on the new pile (only the caller sees which).  Whoever
  has no cards after a play and its call is settled wins, the caller who
  gave away their last card included.  After ``max_rounds`` rounds (a round
  is every player playing once) the game ends with no winner.

Both variants share the round cap (``max_rounds``, default 1000); the
classic text has none, so there it only guards against endless games.

Actions are small ints: ``PASS`` (0) and ``CALL`` (1) at a call decision, and
``play_action(cards)`` for a play, the cards encoded in mixed radix.  Chance
nodes choose the seat order, each dealt card, the caller among several
(koth) and the caller's penalty card (koth).

Every event is an :class:`~games.base.Observation` with its exact audience:
the order, the hand sizes and each seat's own hand, each play's player,
required rank and count (the cards only to the player), who called and who
was chosen, the revealed cards, who took the pile (the cards only to the
taker), the penalty card (only to the caller) and the end.
:class:`SeatKnowledge` turns one seat's observations into exact deal
knowledge (:mod:`games.deal`).

The package has one module per concern: :mod:`games.bs.rules` (variants,
parameters), :mod:`games.bs.state` (the engine), :mod:`games.bs.knowledge`
(each seat's deal knowledge and the game as an epistemic model),
:mod:`games.bs.bots` and :mod:`games.bs.table` (the human seat and the
narrated game).

Examples
--------
>>> from games.base import load_game, make_bot, play_game
>>> game = load_game("bs", variant="koth")
>>> bots = [make_bot("bs", name, seed=i) for i, name in
...         enumerate(["truthful", "liar", "threshold", "random"])]
>>> result = play_game(game, bots, seed=7)
>>> sorted(result.returns)
[0.0, 0.0, 0.0, 1.0]
"""

from __future__ import annotations

from games.base import register_game
from games.bs.knowledge import PILE, PLAY, SeatKnowledge, bs_card_history, bs_claim
from games.bs.rules import CALL, PASS, VARIANTS, BSParams
from games.bs.state import BSGame, BSState, make_game
from games.bs.table import HumanBot, narrate

__all__ = [
    "BSParams",
    "BSGame",
    "BSState",
    "SeatKnowledge",
    "PASS",
    "CALL",
    "VARIANTS",
    "HumanBot",
    "narrate",
    "make_game",
    "bs_card_history",
    "bs_claim",
    "PILE",
    "PLAY",
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

register_game("bs", make_game, doc=__doc__ or "", narrate=narrate, variants=VARIANTS)

from games.bs import examples, published, strategic  # noqa: E402, F401  (register their bots)
from games.bs.bots import (  # noqa: E402  (registers the bots once the game is registered)
    BSBot,
    ExactKnowledgeBot,
    ExactProbabilisticBot,
    KnowledgeBot,
    LiarBot,
    ProbabilisticBot,
    RandomBot,
    ThresholdBot,
    TruthfulBot,
)
from games.openspiel.registry import register_ismcts  # noqa: E402

register_ismcts("bs")  # OpenSpiel's IS-MCTS, where the optional extra is installed
