"""BS-ZPY: ZPY (finding friends) played face down, with claims, BS calls and peanut butter.

Rules: ``bs-zpy.md`` on top of normal ZPY (``zpy-reference.md``), with the
notes of zpy-reference §9 and the decisions below.  Bidding, the kitty
exchange and the friend declaration are those of the ZPY engine
(:class:`games.shengji.state.ShengjiState`, variant ``zpy``); the tricks are
played by :class:`ClaimPhase`, which applies the ZPY rules layer
(:mod:`games.shengji.rules.formats`, :mod:`~games.shengji.rules.follow`,
:mod:`~games.shengji.rules.tricks`, :mod:`~games.shengji.rules.friends`) to *claims*.

**A play.**  The player puts cards face down (``select`` … then ``COMMIT``)
and claims what they are (``claim`` … card by card, or ``CLAIM_TRUE`` for
"exactly what I put down").  The number of cards is visible and cannot be a
lie: a follow has as many cards as the trick's format, a claim as many as
the cards put down.  A lead claim lies in one effective suit (a throw may be
claimed); a follow claim is any cards.  No copy count above the number of
decks can be claimed.

**Lying.**  A play is a lie when the cards are not the claimed cards or the
play is invalid: a lead in several suits, a throw that another player's hand
can beat (the ZPY throw check, zpy-reference §5.3, against the true hands),
or a follow that breaks the suit or format rule (§5.2) for the true hand.

**Calls.**  Before the next play every other player decides, without seeing
the others' decisions, whether to call BS; several callers: the first in
turn order after the player calls.  Everyone learns who wanted to call.  A
call reveals the cards.  A caught liar forfeits ``penalty_cards`` (2) random
cards of their winnings pile to the caller (all of them if fewer; if the
pile is empty they lose ``penalty_points`` (5) points) and can no longer win
the trick.  A wrong caller pays the accused the same way.  If every player
before the last was caught lying, nobody may call on the last.

**Caught invalid lead.**  The leader keeps the *smallest-valued valid
sub-hand* of the cards and takes the rest back.  Sub-hands are ordered by
(number of cards, points, plain before trump, strength within the suit, suit
clubs < diamonds < hearts < spades), smallest first; every single card is a
valid lead, so the kept sub-hand is the lowest-valued card
(:func:`smallest_valid_subhand`).  The trick format becomes that card; a
caught leader whose lead was valid leaves the revealed cards as the format.

**Peanut butter.**  With no call the cards count as claimed and are never
shown; a liar then says "peanut butter": the fact of the lie becomes public
(a public announcement of "the claim was false"), not its content.  Silence
after no call therefore announces that the claim was true.

**Winning.**  A play that is not caught competes with its claim (a called
truthful play's claim is its cards).  The lead's claim sets the format; a
later claim takes the trick when it beats the current best as in ZPY §5.4.
If the leader was caught, the first follower whose claim matches the format
is the first to beat; if no eligible claim matches, the first eligible play
wins.  The winner takes every card of the trick (the true cards) into a
face-down winnings pile, which holds every card won.  Winnings piles stay
face down: nobody looks at them during the round, so stolen cards are
unseen.

**Friends.**  The k-th *successful* claim of a friend card (a claim that was
not caught) fills the slot, walking each finished trick in play order as in
ZPY §4; a caught liar's cards never count.

**Score.**  Each side's score is the points of the cards in its members'
winnings piles (final teams), plus the kitty's points times the ZPY
multiplier for the side that wins the last trick, minus its penalties.  The
level change is δ = ⌊(attacking − dictator) / (20 n)⌋ + 1 with n decks
(``step_per_deck`` = 20): δ > 0, the attackers go up δ levels; δ < 0, the
dictator's team goes up |δ|; δ = 0, the attackers win without going up (the
rule text leaves δ = 0 undefined; this is the project's reading).  The
rule text's example (attacking 105, dictator 195, 3 decks) writes −80 for
105 − 195 = −90; both give δ = −1.  The ZPY bonus level does not apply.  The
next dictator is the next seat after the dictator on the winning side.

**Knowledge.**  :class:`SeatKnowledge` turns one seat's observations into
exact deal knowledge (:mod:`games.deal`): claims are not facts; calls,
reveals, silence (the claim was true) and peanut butter (it was false) are
public announcements.  It answers whether the seat knows a claim is false,
the probability that a claim can be true, and who may hold a friend card.
:class:`Narrator` tells a game with that knowledge after each event
(``kripke play bs-zpy --seed 5``).

The default table is 5 players with 2 decks (an 8-card kitty, 20 cards
each, one friend), the ZPY setting of zpy-reference §1; 4 to 10 players
work, but exact deal knowledge for three or more decks is slow.

The package has one module per concern: :mod:`games.bs_zpy.rules` (actions,
the validity of a play, the winner of a trick of claims, level changes),
:mod:`games.bs_zpy.state` (the engine, on top of the ZPY engine),
:mod:`games.bs_zpy.knowledge` (each seat's exact claim odds, and the game as
an epistemic model), :mod:`games.bs_zpy.bots` and :mod:`games.bs_zpy.table`
(the narrated game).

Examples
--------
>>> from games.base import load_game
>>> g = load_game("bs-zpy")
>>> g.num_players(), g.rules.decks, g.rules.hand_size, g.rules.friends
(5, 2, 20, 1)
>>> st = g.position(["AS AS 3H", "KS 4H 5H", "QS 6H 7H", "JS 8H 9H", "10S 10H 2C"],
...                 trump="2D", landlord=0, friends=["AH"])
>>> st.play_claim(0, "3H", claim="AS")       # a lie: 3H put down as AS
>>> st.decide_calls({1: True})               # P1 calls BS
>>> for o in st.observations(2)[-3:]:
...     print(o)
call caller=1 callers=[1]
P0 reveal cards=[3H] kept=[] returned=[] truthful=False valid=True violation=
P0 penalty cards=0 points=5 to=1
"""

from __future__ import annotations

from games.base import register_game
from games.bs_zpy.knowledge import (
    DOWN,
    TRICK,
    ClaimOdds,
    SeatKnowledge,
    SeenPlay,
    bs_zpy_card_history,
    claim_truth,
    follow_validity,
    lead_validity,
    seat_knowledge,
)
from games.bs_zpy.rules import (
    CALL,
    CLAIM_TRUE,
    claim_action,
    claim_winner,
    decode_bs_action,
    level_delta,
    play_validity,
    smallest_valid_subhand,
)
from games.bs_zpy.state import (
    BSZPYGame,
    BSZPYParams,
    BSZPYState,
    ClaimPhase,
    ClaimRecord,
    ClaimTrick,
    Settlement,
)
from games.bs_zpy.table import (
    Narrator,
    narrate,
)
from games.shengji.state import COMMIT, PASS

__all__ = [
    "BSZPYParams",
    "BSZPYGame",
    "BSZPYState",
    "ClaimPhase",
    "ClaimRecord",
    "ClaimTrick",
    "Settlement",
    "SeatKnowledge",
    "ClaimOdds",
    "PASS",
    "COMMIT",
    "CALL",
    "CLAIM_TRUE",
    "claim_action",
    "decode_bs_action",
    "smallest_valid_subhand",
    "play_validity",
    "claim_winner",
    "level_delta",
    "seat_knowledge",
    "SeenPlay",
    "Narrator",
    "narrate",
    "bs_zpy_card_history",
    "follow_validity",
    "lead_validity",
    "claim_truth",
    "DOWN",
    "TRICK",
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

register_game(
    "bs-zpy",
    lambda **kw: BSZPYGame(**kw),
    doc="BS-ZPY: ZPY played face down with claims, BS calls and peanut butter",
    narrate=narrate,
    variants=("zpy",),
)

from games.bs_zpy.bots import (  # noqa: E402  (registers the bots once the game is registered)
    BlufferBot,
    KnowledgeBot,
    ProbabilisticBot,
    RandomBot,
    TruthfulBot,
    bluff_claims,
    choose_follow,
    friend_join,
    refute_risk,
    register,
)
