"""BoerenBridge: the full 15-round trick-guessing game and the `lamas` variant.

Rules (``shared/rules/boerenbridge.md`` with the project's clarifications):
four players, 32 cards (7 8 9 10 J Q K A in four suits), rounds of 2 3 4 5 6 7
8 8 8 7 6 5 4 3 2 cards.  After the deal a remaining card is turned face up
and its suit is trump; when no card remains a trump suit is drawn at random
and announced; round 8 has no trump.  The dealer moves one seat clockwise
every round.  Starting left of the dealer every player publicly guesses how
many tricks they will take; the dealer may not make the guesses add up to the
number of cards dealt.  The player left of the dealer leads the first trick,
the winner of a trick leads the next; follow suit when you can.  A correct
guess scores ``2 * tricks + 10`` (``+ 20`` instead of ``+ 10`` for a correct
0 in a round of 6 or more cards), a wrong guess ``-2 * |tricks - guess|``.

The variant ``lamas`` (how the Groningen course project played it) deals 5
rounds of 3 4 5 4 3 cards, each round from the top ``n`` ranks of every suit,
with a random trump suit and no zero bonus.  Round sizes, the number of
players (3 or 4) and the scoring are parameters of the one engine.

Actions are small ints: a card is ``suit * 8 + rank`` (0-31, suits ♣ ♦ ♥ ♠,
ranks 7 … A), a guess of ``g`` tricks is ``GUESS_BASE + g`` and a drawn
trump suit ``SUIT_BASE + suit``.  Chance deals one card at a time.

Knowledge: every seat's exact deal knowledge is a
:class:`games.deal.DealKnowledge` over the locations ``North`` … ``West``,
``undealt``, ``turned``, ``played`` and ``out``, built from the seat's
observations only (:class:`SeatView`, :func:`seat_knowledge`) or updated
event by event on the true deal (:func:`deal_state`).  Guesses are intentions,
not facts; :class:`GuessModel` reads them as evidence, apart from the exact
knowledge.  Notebook questions: :func:`knows` (with :func:`still_out`),
:func:`probability` and :func:`make_guess_probability`.

The package has one module per concern: :mod:`games.boerenbridge.rules`
(cards, tricks, parameters, scores), :mod:`games.boerenbridge.state` (the
engine), :mod:`games.boerenbridge.knowledge` (each seat's deal knowledge,
guesses as evidence, a round as an epistemic model),
:mod:`games.boerenbridge.bots`, :mod:`games.boerenbridge.double_dummy` and
:mod:`games.boerenbridge.table` (the human seat and the narrated game).

Examples
--------
>>> from games.base import load_game
>>> game = load_game("boerenbridge")
>>> game.params.rounds
(2, 3, 4, 5, 6, 7, 8, 8, 8, 7, 6, 5, 4, 3, 2)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 32)
>>> load_game("boerenbridge", variant="lamas").params.rounds
(3, 4, 5, 4, 3)
"""

from __future__ import annotations

from games.base import register_game
from games.boerenbridge.knowledge import (
    OUT,
    PLAYED,
    TURNED,
    UNDEALT,
    GuessModel,
    SeatView,
    boerenbridge_deck,
    deal_state,
    guess_weights,
    knows,
    make_guess_probability,
    probability,
    round_deck,
    seat_knowledge,
    still_out,
)
from games.boerenbridge.rules import (
    _VARIANTS,
    GUESS_BASE,
    LAMAS_ROUNDS,
    NUM_CARDS,
    RANKS,
    SEAT_NAMES,
    STANDARD_ROUNDS,
    SUIT_BASE,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    BoerenBridgeParams,
    card_pretty,
    card_rank,
    card_str,
    card_suit,
    cards_of,
    make_params,
    parse_card,
    parse_cards,
    parse_seat,
    round_score,
    seat_name,
    trick_winner,
)
from games.boerenbridge.state import (
    BoerenBridgeGame,
    BoerenBridgeState,
    RoundRecord,
    make_game,
    random_playout,
)
from games.boerenbridge.table import narrate

__all__ = [
    "SUITS",
    "SUIT_SYMBOLS",
    "SUIT_NAMES",
    "RANKS",
    "SEAT_NAMES",
    "NUM_CARDS",
    "GUESS_BASE",
    "SUIT_BASE",
    "STANDARD_ROUNDS",
    "LAMAS_ROUNDS",
    "card_suit",
    "card_rank",
    "card_str",
    "card_pretty",
    "parse_card",
    "parse_cards",
    "cards_of",
    "seat_name",
    "parse_seat",
    "trick_winner",
    "round_score",
    "BoerenBridgeParams",
    "BoerenBridgeGame",
    "BoerenBridgeState",
    "RoundRecord",
    "make_game",
    "make_params",
    "random_playout",
    "boerenbridge_deck",
    "round_deck",
    "SeatView",
    "UNDEALT",
    "TURNED",
    "PLAYED",
    "OUT",
    "seat_knowledge",
    "deal_state",
    "still_out",
    "knows",
    "probability",
    "make_guess_probability",
    "GuessModel",
    "guess_weights",
    "narrate",
    "ViewBot",
    "RandomBot",
    "GreedyBot",
    "KnowledgeBot",
    "SamplingBot",
    "BayesSamplingBot",
    "card_strength",
    "nearest_legal",
]

register_game(
    "boerenbridge",
    make_game,
    doc="BoerenBridge (Oh Hell with 32 cards): 15 rounds of guessing tricks; variant 'lamas'",
    narrate=narrate,
    variants=tuple(_VARIANTS),
)

from games.boerenbridge.bots import (  # noqa: E402  (registers the bots once the game is registered)
    BayesSamplingBot,
    GreedyBot,
    KnowledgeBot,
    RandomBot,
    SamplingBot,
    ViewBot,
    card_strength,
    nearest_legal,
)
from games.openspiel.registry import register_ismcts  # noqa: E402

register_ismcts("boerenbridge")  # OpenSpiel's IS-MCTS, where the optional extra is installed
