"""BS-ZPY: every rule of bs-zpy.md (with zpy-reference.md §9) from hand-made positions,
the knowledge of each seat against brute-force enumeration, property tests over random
games, the bots, the golden playthroughs and the narration."""

from __future__ import annotations

import importlib.util
import io
import itertools
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import CHANCE, TERMINAL, Bot, load_game, make_bot, play_game, registered_bots
from games.bs_zpy import (
    CALL,
    CLAIM_TRUE,
    COMMIT,
    PASS,
    Narrator,
    claim_action,
    level_delta,
    seat_knowledge,
    smallest_valid_subhand,
)
from games.errors import IllegalActionError, InvalidParameterError
from games.shengji.rules.cards import card, card_points, parse_cards
from games.shengji.rules.follow import FollowRules
from games.shengji.rules.formats import count_faces, lead_format
from games.shengji.rules.trump import Trump
from games.shengji.state import select_action

GOLDEN = Path(__file__).resolve().parent / "golden"

# Five seats, two decks, trump: rank 2 of diamonds; the friend card is the first AH.
FIVE = ["AS AS 3H", "KS 4H 5H", "QS 6H 7H", "JS 8H 9H", "10S 10H 9C"]


def position(hands=FIVE, trump="2D", landlord=0, friends=("AH",), kitty="", **params):
    game = load_game("bs-zpy", players=len(hands), **params)
    return game.position(list(hands), trump=trump, landlord=landlord, friends=list(friends),
                         kitty=kitty)  # fmt: skip


def obs_of(state, seat, kind):
    return [o for o in state.observations(seat) if o.kind == kind]


def _chance(state, rng):
    outs = state.chance_outcomes()
    x, acc = rng.random(), 0.0
    for a, p in outs:
        acc += p
        if x < acc:
            return a
    return outs[-1][0]


def truthful_trick(state, plays):
    """Each (seat, cards) puts down its cards truthfully; nobody calls."""
    for seat, cards in plays:
        state.play_claim(seat, cards)
        if state.phase == "call":
            state.decide_calls({})


# ---------------------------------------------------------------- the rules
def test_caught_liar_with_an_empty_pile_loses_five_points_and_cannot_win():
    s = position()
    s.play_claim(0, "3H", claim="AS")  # a lie: 3H put down as AS
    assert s.phase == "call" and s.current_player() == 1
    s.decide_calls({1: True})
    rev = obs_of(s, 3, "reveal")[-1]
    assert rev.actor == 0 and rev["cards"] == (card("3H"),) and not rev["truthful"]
    pen = obs_of(s, 3, "penalty")[-1]
    assert (pen.actor, pen["to"], pen["points"], pen["cards"]) == (0, 1, 5, 0)
    assert s.table.penalties == [5, 0, 0, 0, 0] and s.current_player() == 1
    # the trick format is now the revealed 3H; the caught leader cannot win
    truthful_trick(s, [(1, "4H"), (2, "6H"), (3, "8H"), (4, "10H")])
    trick = obs_of(s, 0, "trick")[-1]
    assert trick.actor == 4 and card_points(s.table.piles[4]) == 10
    assert sorted(s.table.piles[4]) == sorted(parse_cards("3H 4H 6H 8H 10H"))


def test_caught_liar_gives_two_random_winnings_cards_to_the_caller():
    s = position()
    truthful_trick(s, [(0, "AS"), (1, "KS"), (2, "QS"), (3, "JS"), (4, "10S")])
    assert len(s.table.piles[0]) == 5  # the pile holds every card won, not only points
    s.play_claim(0, "3H", claim="AH")
    s.decide_calls({2: True})
    assert s.phase == "steal" and s.is_chance_node()
    outs = dict(s.chance_outcomes())
    pile = Counter(s.table.piles[0])
    assert {a - 7000: p for a, p in outs.items()} == {f: k / 5 for f, k in pile.items()}
    rng = random.Random(1)
    s.apply_action(_chance(s, rng))
    s.apply_action(_chance(s, rng))
    assert s.phase == "play" and len(s.table.piles[0]) == 3 and len(s.table.piles[2]) == 2
    assert sorted(s.table.piles[0] + s.table.piles[2]) == sorted(parse_cards("AS KS QS JS 10S"))
    steals = obs_of(s, 4, "steal")
    assert len(steals) == 2 and all(o.get("card") is None for o in steals)  # piles stay face down


def test_wrong_caller_pays_the_accused():
    s = position()
    s.play_claim(0, "AS")  # the truth
    s.decide_calls({3: True})
    assert obs_of(s, 0, "reveal")[-1]["truthful"]
    pen = obs_of(s, 0, "penalty")[-1]
    assert (pen.actor, pen["to"], pen["points"]) == (3, 0, 5) and s.table.penalties[3] == 5
    # with a winnings pile, the wrong caller gives two of its cards to the accused
    s = position()
    truthful_trick(s, [(0, "AS"), (1, "KS"), (2, "QS"), (3, "JS"), (4, "10S")])
    s.play_claim(0, "AS")
    s.decide_calls({1: True})  # P1 has no pile: 5 points
    assert s.table.penalties[1] == 5
    s.table.piles[1] = parse_cards("5C 7D 9D")  # hand-made pile
    s.play_claim(1, "4H")
    s.decide_calls({3: True})  # P3 (empty pile) pays P1 5 points
    s.play_claim(2, "6H")
    s.decide_calls({1: True})  # P1 (3 cards) pays the truthful P2 two cards
    rng = random.Random(0)
    while s.is_chance_node():
        s.apply_action(_chance(s, rng))
    assert len(s.table.piles[1]) == 1 and len(s.table.piles[2]) == 2


def test_a_pile_of_one_card_is_all_that_is_forfeited():
    s = position()
    s.table.piles[0] = [card("KD")]
    s.play_claim(0, "3H", claim="AH")
    s.decide_calls({4: True})
    pen = obs_of(s, 1, "penalty")[-1]
    assert pen["cards"] == 1 and pen["points"] == 0
    assert dict(s.chance_outcomes()) == {7000 + card("KD"): 1.0}
    s.apply_action(7000 + card("KD"))
    assert s.table.piles[0] == [] and s.table.piles[4] == [card("KD")]
    assert s.table.penalties == [0] * 5  # penalties never create cards nor points


def test_an_invalid_play_is_a_lie_even_when_the_cards_are_as_claimed():
    s = position()
    truthful_trick(s, [(0, "3H")])
    s.play_claim(1, "KS")  # P1 holds 4H 5H: trumping/discarding is not allowed
    rec = s.waiting_claim()
    assert rec.cards == rec.claim and not rec.valid and rec.lie
    assert rec.violation.startswith("must follow hearts")
    s.decide_calls({})
    assert obs_of(s, 2, "peanut_butter")[-1].actor == 1  # unchallenged liar says it
    s2 = position()
    truthful_trick(s2, [(0, "3H")])
    s2.play_claim(1, "KS")
    s2.decide_calls({2: True})
    rev = obs_of(s2, 4, "reveal")[-1]
    assert not rev["truthful"] and not rev["valid"] and "must follow" in rev["violation"]


def test_caught_leader_with_an_invalid_lead_keeps_the_smallest_valued_card():
    hands = ["AS KS 3H 5C", "QS 4H 5H 6C", "JS 6H 7H 7C", "10S 8H 9H 8C", "9S 10H 2C 9C"]
    s = position(hands)
    s.play_claim(0, "AS 3H 5C", claim="AS AS KS")  # mixed suits: an invalid lead
    assert not s.waiting_claim().valid
    s.decide_calls({1: True})
    rev = obs_of(s, 2, "reveal")[-1]
    assert rev["kept"] == (card("3H"),) and rev["returned"] == tuple(parse_cards("5C AS"))
    assert sorted(s.hand(0)) == sorted(parse_cards("AS KS 5C"))
    assert s.table.fmt.size == 1  # the kept card is the trick's format: followers play one card
    truthful_trick(s, [(1, "4H"), (2, "6H"), (3, "8H"), (4, "10H")])
    assert {len(s.hand(p)) for p in range(5)} == {3}
    # the ordering: fewer points first, then plain before trump, then rank, then suit
    t = Trump("2", "D")
    assert smallest_valid_subhand("AH 5C 3D 4C", t) == [card("4C")]  # 3D is trump here
    assert smallest_valid_subhand("10H KS 5C", t) == [card("5C")]
    assert smallest_valid_subhand("4S 4C 4H", t) == [card("4C")]


def test_a_throw_that_can_be_beaten_is_invalid():
    hands = ["KS QS QS 3C", "AS 4H 5H 6C", "JS 6H 7H 7C", "10S 8H 9H 8C", "9S 10H 2C 9C"]
    s = position(hands)
    s.play_claim(0, "KS QS QS")  # a throw: P1's AS beats the single KS
    rec = s.waiting_claim()
    assert rec.cards == rec.claim and not rec.valid and rec.violation == "the throw can be beaten"
    s.decide_calls({})
    assert obs_of(s, 1, "peanut_butter")  # the claim stands, as a lie
    assert s.table.fmt.size == 3
    s = position(hands)
    s.play_claim(0, "KS QS QS")
    s.decide_calls({3: True})
    rev = obs_of(s, 0, "reveal")[-1]
    assert rev["kept"] == (card("QS"),) and sorted(rev["returned"]) == sorted(parse_cards("KS QS"))


def test_several_callers_first_in_turn_order_calls_and_decisions_are_private():
    s = position()
    truthful_trick(s, [(0, "3H"), (1, "4H")])
    s.play_claim(2, "6H", claim="AH")
    before = {p: s.information_state_string(p) for p in range(5)}
    order = []
    while s.phase == "call":
        seat = s.current_player()
        order.append(seat)
        s.apply_action(CALL if seat in (4, 0, 3) else PASS)
        if s.phase == "call":  # nobody sees another seat's decision
            for p in range(5):
                if p != seat:
                    assert (
                        s.information_state_string(p) == before[p]
                        or s.observations(p)[-1].kind == "decide"
                    )
    assert order == [3, 4, 0, 1]
    call = obs_of(s, 1, "call")[-1]
    assert call["callers"] == (3, 4, 0) and call["caller"] == 3
    for p in range(5):
        decides = obs_of(s, p, "decide")
        assert all(o.actor == p and not o.public for o in decides)


def test_nobody_may_call_on_the_last_player_when_everyone_before_was_caught():
    s = position()
    for seat, down, claim, caller in (
        (0, "3H", "AH", 1), (1, "4H", "AH", 2), (2, "6H", "AH", 3), (3, "8H", "AH", 4)
    ):  # fmt: skip
        s.play_claim(seat, down, claim=claim)
        s.decide_calls({caller: True})
    s.play_claim(4, "9C", claim="2C")  # a lie, but nobody may call
    assert s.phase != "call"
    assert obs_of(s, 0, "nocall")[-1]["allowed"] is False
    assert obs_of(s, 0, "peanut_butter")[-1].actor == 4
    assert obs_of(s, 0, "trick")[-1].actor == 4  # the only eligible play wins
    with pytest.raises(IllegalActionError, match="no play is waiting"):
        s.decide_calls({1: True})


def test_unchallenged_lie_wins_by_its_claim_and_says_peanut_butter_without_showing_cards():
    s = position()
    truthful_trick(s, [(0, "3H")])
    s.play_claim(1, "4H", claim="AH")
    s.decide_calls({})
    truthful_trick(s, [(2, "6H"), (3, "8H"), (4, "10H")])
    assert obs_of(s, 0, "trick")[-1].actor == 1  # the claimed AH is the highest claim
    assert sorted(s.table.piles[1]) == sorted(parse_cards("3H 4H 6H 8H 10H"))  # true cards
    assert s.landlord_team() == {0, 1}  # and P1 claimed the friend card
    for p in (0, 2, 3, 4):
        for o in s.observations(p):
            if o.actor == 1 and o.kind != "reveal":
                assert o.get("cards") is None or o.kind == "trick"
    kinds = [o.kind for o in s.observations(3) if o.actor == 1]
    assert kinds == ["claim", "peanut_butter", "trick", "join"]


def test_caught_players_cannot_win_and_the_first_matching_follower_leads_the_contest():
    s = position()
    truthful_trick(s, [(0, "3H")])
    s.play_claim(1, "4H", claim="AH")
    s.decide_calls({2: True})  # caught: cannot win
    s.play_claim(2, "6H")
    s.decide_calls({})
    s.play_claim(3, "JS", claim="8H")  # an unchallenged lie that counts as 8H
    s.decide_calls({})
    s.play_claim(4, "9C")  # a discard
    s.decide_calls({})
    assert obs_of(s, 0, "trick")[-1].actor == 3
    # the leader caught: the first follower whose claim matches the format starts
    s = position()
    s.play_claim(0, "3H", claim="AH")
    s.decide_calls({4: True})
    truthful_trick(s, [(1, "KS"), (2, "6H"), (3, "8H"), (4, "9C")])  # P1 lies by discarding
    assert obs_of(s, 0, "trick")[-1].actor == 3


def test_the_friend_is_the_first_successful_claim_of_the_friend_card():
    # a caught claim never counts; an unchallenged false claim does
    s = position()
    truthful_trick(s, [(0, "3H")])
    s.play_claim(1, "4H", claim="AH")
    s.decide_calls({3: True})
    s.play_claim(2, "6H", claim="AH")
    s.decide_calls({})  # P2 never held an AH, and joins
    truthful_trick(s, [(3, "8H"), (4, "10H")])
    joins = obs_of(s, 0, "join")
    assert [o.actor for o in joins] == [2] and s.landlord_team() == {0, 2}
    # the second AH: the first successful claim is skipped
    s = position(friends=("2:AH",))
    truthful_trick(s, [(0, "3H")])
    for seat, down in ((1, "4H"), (2, "6H"), (3, "8H")):
        s.play_claim(seat, down, claim="AH")
        s.decide_calls({})
    truthful_trick(s, [(4, "10H")])
    assert s.landlord_team() == {0, 2}


def test_level_change_delta_and_the_rule_texts_example():
    # bs-zpy.md: attacking 105, dictator 195, 3 decks: (105 - 195) / 60 = -1.5 (the text
    # writes -80 / 60; both floor to -2), so delta = -1 and the dictator's team goes up
    assert level_delta(105, 195, 3) == -1
    assert (105 - 195) // 60 == -2 and -80 // 60 == -2
    assert [level_delta(a, 100, 2) for a in (0, 59, 60, 99, 100, 139, 140)] == [
        -2, -1, 0, 0, 1, 1, 2,
    ]  # fmt: skip


def one_card_round(hands, claims=None, kitty="5C 10C", landlord=0):
    s = position(hands, kitty=kitty, landlord=landlord)
    for seat in range(5):
        seat = (landlord + seat) % 5
        s.play_claim(seat, hands[seat], claim=(claims or {}).get(seat))
        if s.phase == "call":
            s.decide_calls({})
    assert s.is_terminal()
    return s, obs_of(s, 0, "round_end")[-1]


def test_round_end_scores_kitty_and_level_changes():
    # P0 wins the last trick with AS: the kitty's 15 points count twice (a single)
    s, end = one_card_round(["AS", "KS", "5S", "10S", "3S"])
    assert end["piles"] == (25, 0, 0, 0, 0) and end["kitty_points"] == 30
    assert (end["dictator_score"], end["attacking_score"], end["delta"]) == (55, 0, -1)
    assert end["ranks"] == ("3", "2", "2", "2", "2") and s.winners() == [0]
    assert s.returns() == [1.0, 0.0, 0.0, 0.0, 0.0]
    # delta = 0: the attackers win without going up; the next dictator is an attacker
    s, end = one_card_round(["AS", "KS", "3S", "4S", "6S"], kitty="")
    assert (end["dictator_score"], end["attacking_score"], end["delta"]) == (10, 0, 0)
    assert end["ranks"] == ("2",) * 5 and s.winners() == [1, 2, 3, 4]
    assert end["next_landlord"] == 1 and end["result"] == "attackers win, +0"
    # attackers score: an unchallenged false claim of BS wins the kitty for P3
    s, end = one_card_round(["3S", "KS", "4S", "10S", "6S"], claims={3: "AS"})
    assert end["piles"][3] == 20 and end["attacking_score"] == 50 and end["delta"] == 2
    assert end["ranks"] == ("2", "4", "4", "4", "4")


def test_penalties_count_against_the_side():
    s = position(["AS", "KS", "5S", "10S", "3S"], kitty="")
    s.play_claim(0, "AS")
    s.decide_calls({1: True})  # wrong: P1 loses 5
    for seat in (1, 2, 3, 4):
        s.play_claim(seat, s.hand(seat))
        if s.phase == "call":
            s.decide_calls({})
    end = obs_of(s, 0, "round_end")[-1]
    assert end["penalties"] == (0, 5, 0, 0, 0)
    assert end["attacking_score"] == -5 and end["dictator_score"] == 25


def test_illegal_actions_change_nothing_and_say_why():
    s = position()
    before = (s.history(), s.information_state_string(0), s.hand(0))
    with pytest.raises(IllegalActionError, match="do not hold"):
        s.play_claim(0, "KH")
    with pytest.raises(IllegalActionError, match="mixes suits"):
        s.play_claim(0, "AS 3H", claim="AS 3H")
    with pytest.raises(IllegalActionError, match="only 2 copies"):
        s.play_claim(0, "AS AS 3H", claim="KS KS KS")
    with pytest.raises(IllegalActionError, match="as many cards"):
        s.play_claim(0, "AS", claim="KS QS")
    with pytest.raises(IllegalActionError, match="not your turn"):
        s.play_claim(1, "KS")
    with pytest.raises(IllegalActionError, match="do not hold"):
        s.apply_action(select_action(card("KH")))
    with pytest.raises(IllegalActionError):
        s.apply_action(COMMIT)  # nothing put down yet
    with pytest.raises(IllegalActionError, match="no play is waiting"):
        s.decide_calls({1: True})
    assert (s.history(), s.information_state_string(0), s.hand(0)) == before
    s.play_claim(0, "3H")
    with pytest.raises(IllegalActionError, match="P0 cannot call"):
        s.decide_calls({0: True})
    s.decide_calls({})
    with pytest.raises(IllegalActionError, match="exactly 1"):
        s.play_claim(1, "4H 5H")
    s.apply_action(select_action(card("4H")))
    s.apply_action(COMMIT)
    with pytest.raises(IllegalActionError, match="claim"):
        s.apply_action(select_action(card("5H")))
    s.apply_action(claim_action(card("BJ")))  # a follow may claim anything
    assert s.phase == "call"


def test_parameters_are_validated():
    with pytest.raises(InvalidParameterError, match="variant 'tractor'"):
        load_game("bs-zpy", variant="tractor")
    with pytest.raises(InvalidParameterError, match="unknown bs-zpy parameter"):
        load_game("bs-zpy", colour="red")
    with pytest.raises(InvalidParameterError, match=">= 0"):
        load_game("bs-zpy", penalty_cards=-1)
    g = load_game("bs-zpy", players=6)
    assert (g.rules.decks, g.rules.kitty, g.rules.friends) == (3, 6, 2)
    with pytest.raises(InvalidParameterError, match="only 2 decks"):
        g5 = load_game("bs-zpy")
        g5.position(["AS AS AS", "KS KS KS", "QS QS QS", "JS JS JS", "9S 9S 9S"], "2D", 0)
    with pytest.raises(InvalidParameterError, match="same number"):
        load_game("bs-zpy").position(["AS", "KS", "QS", "JS", "9S 8S"], "2D", 0)


# ---------------------------------------------------------------- knowledge
def test_a_seat_holding_both_copies_knows_a_claimed_pair_is_false():
    """P3 knows P1's claim of the pair of A♠ is false because P3 holds both A♠."""
    hands = ["3H 4C 5D", "KS QS 6H", "JS 6C 7H", "AS AS 8C", "10S 9C 9D"]
    s = position(hands, landlord=1, friends=("AH",))
    s.play_claim(1, "KS QS", claim="AS AS")
    k3, k2 = seat_knowledge(s, 3), seat_knowledge(s, 2)
    assert k3.knows_false() and k3.claim_odds().knows_false
    assert not k2.knows_false() and k2.claim_odds().probability > 0
    assert k3.knowledge.knows("has(P3, AS)")
    assert not k2.knowledge.knows("~has(P1, AS)")
    assert make_bot("bs-zpy", "knowledge").name == "knowledge"


def _brute(unknown, sizes, pred):
    """Probability of ``pred(deal)`` over every way to deal the distinct unknown cards."""
    idx = list(range(len(unknown)))
    hit = total = 0

    def rec(rest, k, deal):
        nonlocal hit, total
        if k == len(sizes):
            total += 1
            hit += bool(pred(deal))
            return
        for part in itertools.combinations(rest, sizes[k][1]):
            left = [i for i in rest if i not in part]
            rec(left, k + 1, {**deal, sizes[k][0]: [unknown[i] for i in part]})

    rec(idx, 0, {})
    return Fraction(hit, total)


FOUR = ["AS AS 3H 4H", "KS KS QS 5H", "JS 10S 6H 7H", "9S 8S 8H 9H"]


@pytest.mark.parametrize(
    "lead, claim",
    [
        ("3H", "5H"),  # in suit
        ("3H", "KS"),  # off suit: the claimer must have had no heart
        ("AS AS", "QS 9S"),  # two singles on a pair: the claimer had no spade pair
        ("AS AS", "KS KS"),
        ("AS AS", "QS 5H"),  # short of spades
    ],
)
def test_claim_probability_agrees_with_brute_force_enumeration(lead, claim):
    s = position(FOUR, landlord=0, friends=("AH",))
    s.play_claim(0, lead)
    s.decide_calls({})
    lead_cards = parse_cards(lead)
    claimed = parse_cards(claim)
    fmt = lead_format(lead_cards, s.trump)
    unknown = parse_cards(" ".join(FOUR[0:2] + FOUR[3:]))
    for c in lead_cards:
        unknown.remove(c)
    sizes = [("P0", 4 - len(lead_cards)), ("P1", 4), ("P3", 4)]

    def can_be_true(deal):
        hand = count_faces(deal["P1"])
        if any(hand.get(f, 0) < k for f, k in count_faces(claimed).items()):
            return False
        return FollowRules(hand, fmt).is_legal(claimed)

    want = _brute(unknown, sizes, can_be_true)
    s.apply_action(select_action(s.hand(1)[0]))  # P1 puts down some cards and claims
    for c in s.hand(1)[1 : len(lead_cards)]:
        s.apply_action(select_action(c))
    s.apply_action(COMMIT)
    for c in claimed:
        s.apply_action(claim_action(c))
    odds = seat_knowledge(s, 2).claim_odds()
    assert odds.exact and odds.probability == pytest.approx(float(want), abs=1e-9)
    assert odds.knows_false == (want == 0)


def test_peanut_butter_is_announced_exactly_for_a_one_card_claim():
    # one card each: P2 sees KS, 5H and JS unknown, one in each of P1, P3 and P4
    hands = ["3H", "KS", "QS", "5H", "JS"]
    s = position(hands)
    s.play_claim(0, "3H")
    s.decide_calls({})
    s.play_claim(1, "KS", claim="5H")  # a lie nobody calls
    s.decide_calls({})
    assert obs_of(s, 2, "peanut_butter")[-1].actor == 1
    k2 = seat_knowledge(s, 2)
    assert k2.relaxations == 0 and k2.exact  # "false" here is exactly "not a 5H"
    kn = k2.knowledge
    assert kn.count_distribution(["5H"], "played")[2] == 0  # P1's card was not the 5H
    assert kn.probability("5H", "P3") == pytest.approx(0.5)  # 1/3 before the announcement
    assert not kn.knows("has(P3, 5H)") and kn.knows("has(P3, 5H) | has(P4, 5H)")
    # without the announcement (a call) P2 would have learnt the card itself
    s2 = position(hands)
    s2.play_claim(0, "3H")
    s2.decide_calls({})
    s2.play_claim(1, "KS", claim="5H")
    assert seat_knowledge(s2, 2).claim_odds().probability == pytest.approx(1 / 3)


def test_peanut_butter_that_is_a_disjunction_is_left_out_soundly():
    s = position(FOUR, landlord=0)
    s.play_claim(0, "3H")
    s.decide_calls({})
    s.play_claim(1, "5H", claim="QS")  # "false": not a QS, or P1 still has hearts
    s.decide_calls({})
    k2 = seat_knowledge(s, 2)
    assert k2.relaxations == 1 and not k2.exact
    kn = k2.knowledge.copy()
    for q in range(4):
        kn.reveal(f"P{q}", [str(c) for c in s.hand(q)])  # the true deal stays possible
    assert kn.count() > 0


def test_silence_announces_the_claim_was_true():
    s = position(FOUR, landlord=0)
    s.play_claim(0, "3H")
    s.decide_calls({})
    assert obs_of(s, 3, "silent")[-1].actor == 0
    k2 = seat_knowledge(s, 2)
    assert k2.knowledge.knows("has(played, 3H)")  # the claimed card went out face up
    # both 3H are now accounted for (one was never in play): a claim of 3H is known false
    s.play_claim(1, "5H", claim="3H")
    assert seat_knowledge(s, 2).knows_false() and seat_knowledge(s, 3).knows_false()


def test_nobody_else_knows_who_the_friend_really_is():
    hands = ["AS AS 3H", "KS 4H AH", "QS 6H 7H", "JS 8H 9H", "10S 10H 9C"]
    s = position(hands)
    k2 = seat_knowledge(s, 2)
    assert k2.knows_holder("AH") is None
    assert sum(1 for loc in k2.holders("AH") if loc.startswith("P")) >= 2
    assert seat_knowledge(s, 1).knows_holder("AH") == "P1"
    # P3 claims the AH falsely and joins: the team is common knowledge, the card is not
    truthful_trick(s, [(0, "3H"), (1, "4H"), (2, "6H")])
    s.play_claim(3, "8H", claim="AH")
    s.decide_calls({})
    truthful_trick(s, [(4, "10H")])
    assert s.landlord_team() == {0, 3}
    assert all(seat_knowledge(s, p).team() == {0, 3} for p in range(5))
    k2 = seat_knowledge(s, 2)
    assert k2.knows_holder("AH") is None and k2.holders("AH").get("P1", 0) > 0


# ----------------------------------------------------------- random games
def _check_conserved(state):
    r = state.rules
    every = sorted(c for c in range(54) for _ in range(r.decks))
    t = state.table
    if t is not None and state.phase in ("play", "call", "steal"):
        assert sorted(t.all_cards()) == every
        assert all(p % state.penalty_points == 0 for p in t.penalties)
    elif state.phase in ("bid", "deal", "start"):
        total = sum(sum(h.values()) for h in state.hands) + state.deck_left
        assert total + len(state.kitty_cards) == 54 * r.decks


def run_random(game, seed, check=None):
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = 0
    piles = None
    while not state.is_terminal():
        if check is not None:
            check(state)
        if state.is_chance_node():
            if state.phase == "steal":
                piles = (sum(len(p) for p in state.table.piles), len(state.table.tricks))
            state.apply_action(_chance(state, rng))
            if piles is not None and state.table is not None:
                if len(state.table.tricks) == piles[1]:  # steals move cards, never make them
                    assert sum(len(p) for p in state.table.piles) == piles[0]
                piles = None
        else:
            legal = state.legal_actions()
            assert legal and legal == sorted(set(legal))
            state.apply_action(rng.choice(legal))
        steps += 1
        assert steps < 20000
    assert state.legal_actions() == [] and state.current_player() == TERMINAL
    return state


def _never_shown(state):
    """No seat ever observes another seat's face-down cards unless a call revealed them."""
    for seat in range(state.num_players()):
        for o in state.observations(seat):
            if o.actor == seat:
                continue
            assert o.kind not in ("select", "down", "claiming", "decide", "hand"), o
            if o.kind == "draw":
                assert o.get("card") is None
            if o.kind == "claim":
                assert o.get("cards") is None and len(o["claim"]) == o["count"]
            if o.kind in ("peanut_butter", "silent", "steal", "penalty", "nocall", "call"):
                assert o.get("cards") in (None, 0, 1, 2), o


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.sampled_from([4, 5, 6]))
def test_random_games_conserve_cards_and_never_show_hidden_cards(seed, players):
    game = load_game("bs-zpy", players=players)
    state = run_random(game, seed, _check_conserved)
    _never_shown(state)
    res = state.results[-1]
    t = state.table
    assert (res["dictator_score"], res["attacking_score"]) == t.side_scores()
    assert res["dictator_score"] + res["attacking_score"] == (
        100 * game.rules.decks - card_points(t.kitty) + t.kitty_points_awarded - sum(t.penalties)
    )
    assert sum(len(p) for p in t.piles) + len(t.kitty) == 54 * game.rules.decks


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_knowledge_stays_true_and_knowing_false_means_a_lie(seed):
    """In random play from a small position, the true deal stays possible for every seat."""
    rng = random.Random(seed)
    deck = [c for c in parse_cards(" ".join(FIVE))]
    rng.shuffle(deck)
    hands = [deck[3 * i : 3 * i + 3] for i in range(5)]
    s = load_game("bs-zpy").position(hands, trump="2D", landlord=seed % 5, friends=["AH"])
    while not s.is_terminal():
        if s.phase == "call" and s.to_decide[0] == (s.waiting_claim().seat + 1) % 5:
            rec = s.waiting_claim()
            for p in range(5):
                if p != rec.seat and seat_knowledge(s, p).knows_false():
                    assert rec.lie
        if s.phase == "play" and not s.down and not s.sealed and s.table.is_leading():
            for p in range(5):
                kn = seat_knowledge(s, p).knowledge.copy()
                for q in range(5):
                    kn.reveal(f"P{q}", [str(c) for c in s.hand(q)])
                assert kn.count() > 0
        if s.is_chance_node():
            s.apply_action(_chance(s, rng))
        else:
            s.apply_action(rng.choice(s.legal_actions()))


class SpyBot(Bot):
    name = "spy"

    def __init__(self, seed=None):
        super().__init__(seed)
        self.seen = []

    def inform(self, observation):
        self.seen.append(observation)

    def step(self, legal_actions):
        return self.rng.choice(list(legal_actions))


def test_bots_receive_exactly_their_observations():
    game = load_game("bs-zpy")
    bots = [SpyBot(seed=i) for i in range(5)]
    res = play_game(game, bots, seed=2, keep_state=True)
    for seat, b in enumerate(bots):
        assert tuple(b.seen) == res.state.observations(seat)
        others = [o for o in b.seen if o.kind == "claim" and o.actor != seat]
        assert others and all(o.get("cards") is None for o in others)


def test_same_seed_same_transcript_and_clone_is_independent():
    game = load_game("bs-zpy")
    a = play_game(game, [make_bot("bs-zpy", "truthful", seed=i) for i in range(5)], seed=9)
    b = play_game(game, [make_bot("bs-zpy", "truthful", seed=i) for i in range(5)], seed=9)
    assert a.history == b.history and a.returns == b.returns
    s = position()
    c = s.clone()
    s.play_claim(0, "3H")
    assert c.history() != s.history() and len(c.hand(0)) == 3 and c.phase == "play"
    assert s.action_to_string(1, CALL) == "call BS" and s.action_to_string(0, CLAIM_TRUE)


# ------------------------------------------------------------------- bots
def play_out(state, bots, seed=0):
    game = state.game
    for seat, b in enumerate(bots):
        b.restart(game, seat)
    seen = [0] * len(bots)
    rng = random.Random(seed)
    while True:
        for seat, b in enumerate(bots):
            obs = state.observations(seat)
            while seen[seat] < len(obs):
                b.inform(obs[seen[seat]])
                seen[seat] += 1
        cur = state.current_player()
        if cur == TERMINAL:
            return state
        if cur == CHANCE:
            state.apply_action(_chance(state, rng))
        else:
            state.apply_action(bots[cur].step(state.legal_actions(cur)))


def test_bots_registered_and_play_legally_from_a_position():
    names = ["probabilistic", "bluffer", "knowledge", "truthful", "random"]
    assert set(names) <= set(registered_bots("bs-zpy"))
    rng = random.Random(3)
    deck = [card(f) for f in range(54) for _ in range(2)]
    rng.shuffle(deck)
    hands = [deck[6 * i : 6 * i + 6] for i in range(5)]
    s = load_game("bs-zpy").position(hands, trump="2S", landlord=2, friends=["AH"],
                                     kitty=deck[30:38])  # fmt: skip
    bots = [make_bot("bs-zpy", n, seed=i) for i, n in enumerate(names)]
    play_out(s, bots, seed=3)
    assert s.is_terminal() and len(s.results) == 1


def test_truthful_bots_never_lie_and_knowledge_bots_call_only_lies():
    rng = random.Random(4)
    deck = [card(f) for f in range(54) for _ in range(2)]
    rng.shuffle(deck)
    hands = [deck[10 * i : 10 * i + 10] for i in range(5)]
    s = load_game("bs-zpy").position(hands, trump="5H", landlord=1, friends=["AS"],
                                     kitty=deck[50:58])  # fmt: skip
    names = ["knowledge", "bluffer", "truthful", "random", "knowledge"]
    play_out(s, [make_bot("bs-zpy", n, seed=i) for i, n in enumerate(names)], seed=4)
    obs = s.observations(0)
    callers = [o["caller"] for o in obs if o.kind == "call"]
    reveals = [o for o in obs if o.kind == "reveal"]
    knowing = [rev for c, rev in zip(callers, reveals, strict=True) if names[c] == "knowledge"]
    assert knowing and not any(rev["truthful"] for rev in knowing)  # they call only lies
    lies = [o.actor for o in obs if o.kind == "peanut_butter"] + [
        r.actor for r in reveals if not r["truthful"]
    ]
    assert lies and {names[p] for p in lies} <= {"bluffer", "random"}


# --------------------------------------------------------- golden, narration
@pytest.mark.parametrize("name", ["bs_zpy_seed5.txt", "bs_zpy_position_seed3.txt"])
def test_golden_playthroughs(name):
    spec = importlib.util.spec_from_file_location(
        "bs_zpy_regenerate", GOLDEN / "bs_zpy_regenerate.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.playthrough(**mod.CASES[name]) == (GOLDEN / name).read_text()


def test_narrator_tells_knowledge_after_each_event():
    s = position()
    out = io.StringIO()
    n = Narrator(s.game, out)
    n.feed(s)
    s.play_claim(0, "3H", claim="AS")
    n.feed(s)
    s.decide_calls({})
    n.feed(s)
    s.play_claim(1, "KS", claim="AS")
    n.feed(s)
    text = out.getvalue()
    assert "does not know who holds AH" in text
    assert "P0 leads 1 card face down, claiming AS." in text
    assert "peanut butter" in text
    assert "P0 knows it is false" in text  # P0 holds both AS
    assert "chance the claim can be true" in text


def test_kripke_play_bs_zpy_runs(capsys):
    from kripke.cli import main

    out = io.StringIO()
    assert main(["play", "bs-zpy", "--seed", "5", "--quiet", "--bots", "truthful"], out=out) == 0
    assert "Match over" in out.getvalue()
    assert main(["play", "bs-zpy", "--bots", "truthful,random"], out=io.StringIO()) == 2
    assert "--bots needs 1 or 5 names" in capsys.readouterr().err
