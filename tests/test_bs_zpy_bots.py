"""BS-ZPY bots from hand-made positions: each bot's policy (bluffs when the risk is low,
calls exactly on known lies, calls by probability and stakes) and that bots decide from
their seat's observations only."""

from __future__ import annotations

import pytest

from games.base import load_game, make_bot
from games.bs_zpy import CALL, PASS, seat_knowledge
from games.bs_zpy.bots import (
    BlufferBot,
    KnowledgeBot,
    ProbabilisticBot,
    TruthfulBot,
    bluff_claims,
    friend_join,
    refute_risk,
)
from games.shengji.rules.cards import card, parse_cards

# Four seats, two decks, trump: rank 2 of diamonds (no trump in any hand).  P0 leads KH,
# P1 follows 5H; P2 holds only 3H in hearts and cannot win the 15-point trick.  The two
# AH lie in P0's and P3's hands, so no single seat can know a claim of one AH is false.
BLUFF = ["KH AH 4S", "5H 6S 7S", "3H 8S 9S", "AH 10S JS"]


def position(hands, friends=("AC",), landlord=0, players=None):
    game = load_game("bs-zpy", players=players or len(hands))
    return game.position(list(hands), trump="2D", landlord=landlord, friends=list(friends))


def informed(bot, state, seat):
    """``bot`` restarted at ``seat`` and told every observation of that seat (nothing else)."""
    bot.restart(state.game, seat)
    for o in state.observations(seat):
        bot.inform(o)
    return bot


def bot_play(bot, state, seat):
    """Let ``bot`` build its whole play (cards, commit, claim) from its observations."""
    informed(bot, state, seat)
    seen = len(state.observations(seat))
    while state.current_player() == seat and state.phase == "play":
        state.apply_action(bot.step(state.legal_actions(seat)))
        obs = state.observations(seat)
        for o in obs[seen:]:
            bot.inform(o)
        seen = len(obs)


def first_two(state):
    state.play_claim(0, "KH")
    state.decide_calls({})
    state.play_claim(1, "5H")
    state.decide_calls({})


def test_bluffer_claims_a_winning_card_it_does_not_hold_when_the_risk_is_low():
    s = position(BLUFF)
    first_two(s)
    know = seat_knowledge(s, 2)
    # From P2's view the two AH lie among the 7 unseen cards of P0 (2), P1 (2) and P3 (3);
    # a seat refutes "AH" only when it holds both: 1/21 + 1/21 + 5/35 = 5/21.
    assert refute_risk(know, 2, parse_cards("AH")) == pytest.approx(5 / 21)
    claims = bluff_claims(know, know.trick_fmt, know.plays)
    assert claims[0] == parse_cards("AH")  # the cheapest winning claim first, then trumps
    assert all(refute_risk(know, 2, c) == 1.0 for c in claims[1:])  # every trump is out
    bot_play(BlufferBot(seed=1), s, 2)
    rec = s.waiting_claim()
    assert rec.seat == 2 and rec.cards == parse_cards("3H") and rec.claim == parse_cards("AH")


def test_bluffer_tells_the_truth_when_the_risk_is_too_high():
    s = position(BLUFF)
    first_two(s)
    bot_play(BlufferBot(seed=1, max_risk=0.2), s, 2)  # 5/21 > 0.2
    rec = s.waiting_claim()
    assert rec.cards == rec.claim == parse_cards("3H")


def test_bluffer_does_not_bluff_when_one_copy_is_out_and_never_names_a_friend_card():
    # One AH is out of play (publicly seen): whoever holds the other knows "AH" is false.
    hands = ["KH 4S 5S", "5H 6S 7S", "3H 8S 9S", "AH 10S JS"]
    s = position(hands)
    first_two(s)
    assert refute_risk(seat_knowledge(s, 2), 2, parse_cards("AH")) == 1.0
    bot_play(BlufferBot(seed=1), s, 2)
    assert s.waiting_claim().claim == parse_cards("3H")
    s = position(BLUFF, friends=("AH",))
    first_two(s)
    know = seat_knowledge(s, 2)
    assert parse_cards("AH") not in bluff_claims(know, know.trick_fmt, know.plays)
    bot_play(BlufferBot(seed=1), s, 2)
    assert s.waiting_claim().claim == parse_cards("3H")


def test_truthful_bot_claims_its_cards():
    s = position(BLUFF)
    first_two(s)
    bot_play(TruthfulBot(seed=1), s, 2)
    rec = s.waiting_claim()
    assert rec.claim == rec.cards and not rec.lie


# Five seats: P0 holds both AS.
FIVE = ["AS AS 3H", "KS 4H 5H", "QS 6H 7H", "JS 8H 9H", "10S 10H 9C"]


def test_knowledge_bot_calls_exactly_when_it_knows_the_claim_is_false():
    s = position(FIVE)
    s.play_claim(0, "3H")
    s.decide_calls({})
    s.play_claim(1, "KS", claim="AS")  # P0 holds both AS: it knows this is false
    decisions = {}
    for seat in s.to_decide:
        bot = informed(KnowledgeBot(seed=seat), s, seat)
        decisions[seat] = bot.step([PASS, CALL])
        assert (decisions[seat] == CALL) == seat_knowledge(s, seat).knows_false()
    assert decisions == {2: PASS, 3: PASS, 4: PASS, 0: CALL}


def test_knowledge_bot_does_not_call_a_lie_it_cannot_refute():
    s = position(FIVE)
    s.play_claim(0, "3H")
    s.decide_calls({})
    s.play_claim(1, "KS", claim="4H")  # a lie, but P1 may hold the one 4H in play
    assert s.waiting_claim().lie
    assert informed(KnowledgeBot(), s, 2).step([PASS, CALL]) == PASS


def test_probabilistic_bot_calls_a_refuted_claim_and_weighs_stakes():
    s = position(FIVE)
    s.play_claim(0, "3H")
    s.decide_calls({})
    s.play_claim(1, "KS", claim="AS")
    bot = informed(ProbabilisticBot(seed=0), s, 0)
    assert bot.step([PASS, CALL]) == CALL  # counting refutes it
    bot = informed(ProbabilisticBot(seed=0), s, 2)
    sp = bot.know.open_play()
    gain, loss = bot.stakes(sp)
    # Both piles are empty: the 5-point fine each way; the AS claim wins the 3H lead, so the
    # trick's claimed points (none) are at stake too.
    assert (gain, loss) == (5.0, 5.0)
    rate = bot.lie_rate(1)
    assert rate == pytest.approx(1 / 10)  # the Beta(1, 9) prior: P1 settled nothing yet
    held = bot.know.holding_odds(sp)
    assert 0 < held < 1 and not bot.know.knows_false(sp)
    lie = bot.lie_probability(1, held, bot.know.counting_chance(1, sp.claim))
    assert rate <= lie <= 1
    assert (bot.step([PASS, CALL]) == CALL) == (lie * gain > (1 - lie) * loss)


def test_holding_odds_is_the_claim_probability_without_validity():
    s = position(FIVE)
    s.play_claim(0, "3H", claim="4H")  # a lead of one card is always valid
    k2 = seat_knowledge(s, 2)
    assert k2.holding_odds() == pytest.approx(k2.claim_odds().probability)
    assert seat_knowledge(s, 1).holding_odds() == pytest.approx(
        seat_knowledge(s, 1).claim_odds().probability
    )
    s.decide_calls({})
    s.play_claim(1, "4H", claim="KS")  # off suit: true only if P1 had no heart left
    k2 = seat_knowledge(s, 2)
    assert k2.holding_odds() > k2.claim_odds().probability


def test_lie_probability_is_bayes_with_the_lying_rate():
    bot = ProbabilisticBot()
    bot.restart(load_game("bs-zpy"), 0)
    r = bot.lie_rate(1)
    assert bot.lie_probability(1, 0.0, 0.3) == 1.0  # the claim cannot be true
    assert bot.lie_probability(1, 0.3, 0.3) == pytest.approx(r)  # no evidence either way
    assert bot.lie_probability(1, 0.15, 0.3) == pytest.approx(r / (r + (1 - r) * 0.5))


def test_friend_join_and_the_friend_card_stake():
    s = position(FIVE, friends=("KS",))
    s.play_claim(0, "3H")
    s.decide_calls({})
    s.play_claim(1, "KS")  # the first KS claim fills the slot if it stands
    k2 = seat_knowledge(s, 2)
    assert friend_join(k2, k2.open_play())
    s = position(FIVE, friends=("2:KS",))  # the second KS: this claim only skips
    s.play_claim(0, "3H")
    s.decide_calls({})
    s.play_claim(1, "KS")
    k2 = seat_knowledge(s, 2)
    assert not friend_join(k2, k2.open_play())


def test_friend_stake_adds_the_claimers_pile():
    # Trick 1: P1 wins with a truthful AH (5 cards to its pile); trick 2: P1 leads its KS,
    # the friend card.  For an attacker the pile's expected points change sides.
    hands = ["3H 4C", "AH KS", "4H 5C", "5H 6C", "6H 7C"]
    s = position(hands, friends=("KS",))
    for seat, c in ((0, "3H"), (1, "AH"), (2, "4H"), (3, "5H"), (4, "6H")):
        s.play_claim(seat, c)
        if s.phase == "call":
            s.decide_calls({})
    s.play_claim(1, "KS")
    bot = informed(ProbabilisticBot(), s, 2)
    sp = bot.know.open_play()
    assert bot.know.pile_sizes[1] == 5 and friend_join(bot.know, sp)
    gain, loss = bot.stakes(sp)
    per_card = 100 / 54
    assert gain == pytest.approx(2 * per_card + 10 + 5 * per_card)  # 2 cards, KS's 10, pile
    assert loss == 5.0


@pytest.mark.parametrize("name", ["truthful", "bluffer", "knowledge", "probabilistic"])
def test_a_bot_decides_the_same_whatever_the_hidden_cards(name):
    """Two deals that look the same to P2 (P1 and P3 swapped hidden cards) get the same move."""
    a = ["KH AH 4S", "5H 6S 7S", "3H 8S 9S", "AH 10S JS"]
    b = ["KH AH 4S", "5H 10S JS", "3H 8S 9S", "AH 6S 7S"]
    moves = []
    for hands in (a, b):
        s = position(hands)
        first_two(s)
        bot = make_bot("bs-zpy", name, seed=7)
        bot_play(bot, s, 2)
        rec = s.waiting_claim()
        moves.append((rec.cards, rec.claim))
    assert moves[0] == moves[1]


def test_observations_differ_only_in_what_the_seat_sees():
    a = position(["KH AH 4S", "5H 6S 7S", "3H 8S 9S", "AH 10S JS"])
    b = position(["KH AH 4S", "5H 10S JS", "3H 8S 9S", "AH 6S 7S"])
    for s in (a, b):
        first_two(s)
    assert a.observations(2) == b.observations(2)
    assert a.observations(1) != b.observations(1)
    assert card("10S") in b.hand(1)


def test_probabilistic_bot_counts_lies_among_claims_that_take_the_lead():
    s = position(BLUFF)
    first_two(s)
    bot_play(BlufferBot(seed=1), s, 2)  # 3H put down as the winning AH
    s.decide_calls({})  # nobody calls: "peanut butter"
    watcher = informed(ProbabilisticBot(), s, 0)
    assert (watcher.bold[2], watcher.bold_lies[2]) == (1, 1)
    assert (watcher.bold[1], watcher.bold_lies[1]) == (0, 0)  # 5H did not take the lead
    assert watcher.lie_rate(2, bold=True) == pytest.approx(2 / 11)  # Beta(1, 9) prior
    assert watcher.lie_rate(1, bold=True) == pytest.approx(1 / 10)
