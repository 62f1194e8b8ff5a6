"""The Shengji/ZPY rules layer against the rule texts and the reference engine's own examples.

Known answers come from the rule text shengji-bot.md (Appendix C tractors,
Appendix D throws, the level table of Appendix B) and zpy-reference.md (the
reference engine rbtying/shengji: trump order, readings, decomposition order,
throw checks, friends, level tables).
"""

from __future__ import annotations

import pytest

from games.errors import CardParseError, IllegalActionError, InvalidParameterError
from games.shengji import (
    FriendSlot,
    Trump,
    card,
    check_throw,
    compare,
    effective_suit,
    find_readings,
    follow_error,
    is_adjacent,
    is_legal_follow,
    is_tractor,
    kitty_multiplier,
    kitty_size,
    lead_format,
    legal_follows,
    level_change,
    level_table,
    parse_cards,
    resolve_friends,
    successors,
    trick_winner,
)
from games.shengji.rules.bidding import Bid, bid_trump, valid_bids
from games.shengji.rules.formats import (
    full_decomposition_ordering,
    subsequent_decomposition_ordering,
)
from games.shengji.rules.friends import allowed_friend_cards, friend_declaration_error
from games.shengji.rules.scoring import advance_rank, next_landlord
from games.shengji.rules.trump import NT

T9C = Trump("9", "C")  # the trump of shengji-bot.md's appendices
T4S = Trump("4", "S")  # the trump of the reference engine's tests


def cs(text):
    return parse_cards(text)


# ------------------------------------------------------------------ cards
def test_card_text_forms():
    assert [str(c) for c in cs("10C QS AD SJ BJ")] == ["10C", "QS", "AD", "SJ", "BJ"]
    assert cs("J- J+") == cs("SJ BJ")
    assert cs("10c,qs") == cs("10C QS")
    assert card("10H").points == 10 and card("5S").points == 5 and card("KD").points == 10
    assert (
        sum(c.points for c in cs(" ".join(f"{r}{s}" for r in "5 10 K".split() for s in "CDHS")))
        == 100
    )


@pytest.mark.parametrize("bad", ["1C", "10X", "JJ", "QSS", "J", ""])
def test_parse_cards_names_bad_token(bad):
    with pytest.raises(CardParseError, match=repr(bad) if bad else "is not a card"):
        parse_cards(f"QS {bad} AD") if bad else card(bad)


# ------------------------------------------------------------------ trump
def test_effective_suits_and_order():
    t = T9C
    assert effective_suit(card("9H"), t) == 4 and effective_suit(card("AC"), t) == 4
    assert effective_suit(card("AD"), t) == 1
    assert compare(card("BJ"), card("SJ"), t) == 1
    assert compare(card("SJ"), card("9C"), t) == 1
    assert compare(card("9C"), card("9D"), t) == 1
    assert compare(card("9D"), card("9H"), t) == 0  # off-suit rank cards are equal
    assert compare(card("9S"), card("AC"), t) == 1
    assert compare(card("2C"), card("AD"), t) == 1  # any trump beats a plain card


def test_adjacency_skips_the_rank():
    assert successors(card("8S"), T9C) == (card("10S"),)
    assert set(successors(card("AC"), T9C)) == set(cs("9D 9H 9S"))
    assert successors(card("9D"), T9C) == (card("9C"),)
    assert successors(card("9C"), T9C) == (card("SJ"),)
    assert successors(card("AD"), T9C) == ()  # no wrap-around
    assert not is_adjacent(card("9D"), card("9H"), T9C)
    ta = Trump("A", "H")  # at rank A the trump-suit K is followed by the off-suit aces
    assert set(successors(card("KH"), ta)) == set(cs("AC AD AS"))
    nt = Trump("5", None)
    assert successors(card("5D"), nt) == (card("SJ"),)
    assert effective_suit(card("AS"), Trump("NT", None)) == 3


def test_trump_validation():
    with pytest.raises(InvalidParameterError):
        Trump("NT", "S")
    with pytest.raises(InvalidParameterError, match="not a rank"):
        Trump("1", "S")


# --------------------------------------------------- Appendix C: tractors
@pytest.mark.parametrize(
    "cards",
    [
        "5H 5H 4H 4H",
        "6D 6D 5D 5D 4D 4D 3D 3D",
        "8C 8C 7C 7C 6C 6C",
        "10S 10S 8S 8S",
        "9C 9C 9D 9D AC AC",
        "J+ J+ J- J- 9C 9C",
    ],
)
def test_appendix_c_tractors(cards):
    assert is_tractor(cards, T9C)


@pytest.mark.parametrize(
    "cards", ["5D 5D 4S 4S", "6D 6D 4D 4D", "9H 9H 8H 8H", "9H 9H 9D 9D", "9C 9C 8C 8C"]
)
def test_appendix_c_not_tractors(cards):
    assert not is_tractor(cards, T9C)


def test_wider_tractors_and_quadruples():
    assert is_tractor("3H 3H 3H 4H 4H 4H", T9C)
    assert lead_format("3H 3H 3H 3H", T9C).units[0].width == 4  # four of a kind is a 4-tuple
    assert not is_tractor("3H 3H 3H 3H", T9C)


# ------------------------------------------------ readings (reference tests)
def _readings(text, trump=T4S):
    return {tuple(sorted(str(u) for u in r)) for r in find_readings(text, trump)}


def test_readings_match_reference_engine():
    assert _readings("2H 3H 7H") == {("2H", "3H", "7H")}
    assert _readings("2H 2H 2H") == {("2H 2H 2H",)}
    assert _readings("2H 2H 3H 3H") == {("2H 2H 3H 3H",)}
    assert _readings("2H 2H 2H 3H 3H") == {("2H", "2H 2H 3H 3H"), ("2H 2H 2H", "3H 3H")}
    assert _readings("2H 2H 3H 3H 3H") == {("2H 2H 3H 3H", "3H"), ("2H 2H", "3H 3H 3H")}
    assert _readings("4H 4H 4S 4S") == {("4H 4H 4S 4S",)}
    assert _readings("4H 4H AS AS") == {("AS AS 4H 4H",)}
    assert _readings("QS QS KS KS AS") == {("AS", "QS QS KS KS")}
    assert _readings("3H 3H 3H 5H 5H 5H") == {("3H 3H 3H 5H 5H 5H",)}
    assert _readings("2H 2H 3H 3H 3H 5H 5H 5H") == {
        ("2H 2H 3H 3H", "3H", "5H 5H 5H"),
        ("2H 2H", "3H 3H 3H 5H 5H 5H"),
        ("2H 2H 3H 3H 5H 5H", "3H", "5H"),
    }


def test_lead_reading_largest_unit_first():
    f = lead_format("2S 2S 2S 3S 3S", Trump("5", "H"))
    assert sorted(str(u) for u in f.units) == ["2S", "2S 2S 3S 3S"]
    f = lead_format("KD QD QD 10D 10D", T9C)
    assert [str(u) for u in f.units] == ["KD", "10D 10D", "QD QD"] and f.is_throw
    with pytest.raises(IllegalActionError, match="one suit"):
        lead_format("KD KH", T9C)


def test_decomposition_order_matches_reference_engine():
    assert full_decomposition_ordering(3) == (((3,),), ((2,), (1,)), ((1,), (1,), (1,)))
    assert full_decomposition_ordering(4) == (
        ((4,),),
        ((3,), (1,)),
        ((2, 2),),
        ((2,), (2,)),
        ((2,), (1,), (1,)),
        ((1,),) * 4,
    )
    assert len(full_decomposition_ordering(6)) == 17
    assert subsequent_decomposition_ordering([(2,)]) == [((1,), (1,))]
    assert subsequent_decomposition_ordering([(4,)], False) == [
        ((3,), (1,)),
        ((2,), (2,)),
        ((2,), (1,), (1,)),
        ((1,),) * 4,
    ]
    assert subsequent_decomposition_ordering([(2,), (2,)]) == [((2,), (1,), (1,)), ((1,),) * 4]
    got = subsequent_decomposition_ordering([(2, 2), (3,), (2,)])
    assert got == [
        ((3,), (2,), (2,), (2,)),
        ((3,), (2,), (2,), (1,), (1,)),
        ((2,), (2,), (2,), (1,), (1,), (1,)),
        ((2,), (2,)) + ((1,),) * 5,
        ((2,),) + ((1,),) * 7,
        ((1,),) * 9,
    ]
    eight = subsequent_decomposition_ordering([(4, 4)])
    assert eight[:4] == [((4,), (4,)), ((4, 3), (1,)), ((4,), (3,), (1,)), ((4, 2, 2),)]
    assert len(eight) == 35


# ---------------------------------------------------------------- following
T2S = Trump("2", "S")


@pytest.mark.parametrize(
    "hand, lead, play, legal",
    [
        # suit first: enough hearts -> only hearts
        ("3H 5H 7H 3C", "KH", "3C", False),
        ("3H 5H 7H 3C", "KH", "5H", True),
        # short in suit: all hearts, then anything (trumping never compulsory)
        ("3H 3C 4C", "KH KH", "3H 4C", True),
        ("3H 3C 4C", "KH KH", "3C 4C", False),
        # pairs: a pair must be followed by a pair when held
        ("7H 7H 9H JH", "KH KH", "9H JH", False),
        ("7H 7H 9H JH", "KH KH", "7H 7H", True),
        ("7H 8H 9H JH", "KH KH", "9H JH", True),
        # a triple must be broken to supply a pair (no protections)
        ("7H 7H 7H 9H", "KH KH", "7H 9H", False),
        ("7H 7H 7H 9H", "KH KH", "7H 7H", True),
        # tractor led: a tractor is due when held ...
        ("3H 3H 4H 4H 8H 8H", "QH QH KH KH", "3H 3H 8H 8H", False),
        ("3H 3H 4H 4H 8H 8H", "QH QH KH KH", "3H 3H 4H 4H", True),
        # ... else two pairs, else a pair and two singles, else singles
        ("3H 3H 5H 5H 8H", "QH QH KH KH", "3H 3H 5H 8H", False),
        ("3H 3H 5H 5H 8H", "QH QH KH KH", "3H 3H 5H 5H", True),
        ("3H 3H 5H 7H 8H", "QH QH KH KH", "3H 5H 7H 8H", False),
        ("3H 3H 5H 7H 8H", "QH QH KH KH", "3H 3H 7H 8H", True),
        # four of a kind counts as two pairs when there is no tractor
        ("3H 3H 3H 3H 9H", "QH QH KH KH", "3H 3H 3H 3H", True),
        ("3H 3H 3H 3H 9H", "QH QH KH KH", "3H 3H 3H 9H", False),
        # triple led: triple, else a pair and a single
        ("3H 3H 5H 7H", "QH QH QH", "3H 5H 7H", False),
        ("3H 3H 5H 7H", "QH QH QH", "3H 3H 7H", True),
        # tractor of triples led: a tractor of pairs is due from the hand
        ("3H 3H 4H 4H 5H 7H 8H", "QH QH QH KH KH KH", "3H 3H 4H 4H 5H 8H", True),
        ("3H 3H 4H 4H 5H 7H 8H", "QH QH QH KH KH KH", "3H 3H 5H 7H 8H 4H", False),
        ("3H 3H 4H 4H 6H 6H 9H", "QH QH QH KH KH KH", "3H 3H 4H 4H 6H 6H", True),
        ("3H 3H 4H 4H 6H 6H 9H", "QH QH QH KH KH KH", "3H 3H 6H 6H 9H 4H", False),
        # a throw: pair plus single -> the pair is due
        ("5H 5H 7H 9H", "AH AH KH", "7H 9H 5H", False),
        ("5H 5H 7H 9H", "AH AH KH", "5H 5H 9H", True),
    ],
)
def test_following(hand, lead, play, legal):
    assert is_legal_follow(hand, lead, play, T2S) is legal
    assert (follow_error(hand, lead, play, T2S) is None) is legal


def test_follow_policies():
    # longer tuples protected: a triple need not supply a pair
    assert is_legal_follow("7H 7H 7H 9H", "KH KH", "7H 9H", T2S, "longer-tuples-protected")
    # only draw tractors on tractors: four of a kind need not become a tractor... and a
    # pair lead never demands a tractor; two pairs still demanded from a 4-tuple
    assert not is_legal_follow(
        "3H 3H 3H 3H 9H", "QH QH KH KH", "3H 3H 3H 9H", T2S, "only-draw-tractor-on-tractor"
    )
    # no format based draw: suit only
    assert is_legal_follow("7H 7H 9H JH", "KH KH", "9H JH", T2S, "no-format-based-draw")
    with pytest.raises(InvalidParameterError):
        is_legal_follow("7H", "KH", "7H", T2S, "nonsense")


def test_follow_error_messages():
    assert (
        follow_error("3H 5H 7H 3C", "KH", "3C", T2S)
        == "must follow hearts: you hold 3 hearts (3H 5H 7H)"
    )
    assert (
        follow_error("7H 7H 9H JH", "KH KH", "9H JH", T2S)
        == "must play a pair of hearts: you hold 7H 7H"
    )
    assert "tractor" in follow_error("3H 3H 4H 4H 8H 8H", "QH QH KH KH", "3H 3H 8H 8H", T2S)
    assert follow_error("3H", "KH", "4H", T2S) == "you do not hold 4H"
    assert follow_error("3H 4H", "KH", "3H 4H", T2S) == "must play 1 card, not 2"


def test_legal_follows_enumeration_agrees_with_checker():
    hand = "3H 3H 4H 4H 5H 8H 8H 9H 2C 7D"
    for lead in ("KH", "KH KH", "QH QH KH KH", "AH AH KH", "QH QH QH"):
        plays = legal_follows(hand, lead, T2S)
        assert plays and len(set(plays)) == len(plays)
        for p in plays:
            assert is_legal_follow(hand, lead, p, T2S)
        # brute force over every same-size sub-multiset of the hand
        from itertools import combinations

        cards = parse_cards(hand)
        n = lead_format(lead, T2S).size
        brute = {
            tuple(sorted(c)) for c in combinations(cards, n) if is_legal_follow(hand, lead, c, T2S)
        }
        assert brute == {tuple(sorted(p)) for p in plays}


# -------------------------------------------------- Appendix D: throws
def test_appendix_d_throw_kd_qd():
    r = check_throw("KD QD", ["KD 3S"], T9C)
    assert not r.valid and r.played == cs("QD") and r.blocker == 0
    r = check_throw("KD QD", ["AD 3S"], T9C)
    assert not r.valid and r.played == cs("QD")
    r = check_throw("KD QD", ["10C 3C"], T9C)
    assert r.valid
    assert trick_winner(["KD QD", "10C 3C"], T9C).winner == 1


def test_appendix_d_throw_with_pairs():
    lead = "KD QD QD 10D 10D"
    r = check_throw(lead, ["AD 3S 4S 5S 6S"], T9C)
    assert not r.valid and r.played == cs("KD")
    r = check_throw(lead, ["JD JD 3S 4S 5S"], T9C)
    assert not r.valid and sorted(r.played) == sorted(cs("10D 10D"))
    assert sorted(r.returned) == sorted(cs("KD QD QD"))
    r = check_throw(lead, ["8C 8C 5C 5C JC"], T9C)
    assert r.valid
    # the trumping hand takes the trick; higher trump pairs beat it; equal plays: first wins
    assert trick_winner([lead, "8C 8C 5C 5C JC"], T9C).winner == 1
    assert trick_winner([lead, "8C 8C 5C 5C JC", "QC QC 10C 10C AC"], T9C).winner == 2
    assert trick_winner([lead, "8C 8C 5C 5C JC", "8C 8C 5C 5C JC"], T9C).winner == 1


def test_throw_checked_in_turn_order_first_blocker_decides():
    # player 0 can beat only the pair, player 1 the single: player 0 decides
    r = check_throw("KD QD QD 10D 10D", ["JD JD", "AD"], T9C)
    assert r.blocker == 0 and str(r.forced) == "10D 10D"
    # a tractor is beaten by a longer-or-equal wider tractor starting above its bottom
    r = check_throw("3H 3H 4H 4H AH", ["5H 5H 6H 6H"], T2S)
    assert not r.valid and str(r.forced) == "3H 3H 4H 4H"
    assert check_throw("3H 3H 4H 4H AH", ["5H 5H 7H 7H"], T2S).valid
    # a single unit is never a throw
    assert check_throw("3H 3H", ["AH AH"], T2S).valid


# ------------------------------------------------------------- winners
def test_trick_winner_rules():
    assert trick_winner(["5S", "9H", "9D", "3S"], T9C).winner == 1  # equal rank cards: first wins
    assert trick_winner(["5S", "9H", "9C", "3S"], T9C).winner == 2
    assert trick_winner(["KH KH", "AH 3H", "2C 2C"], T9C).winner == 2
    assert trick_winner(["KH KH", "2C 3C"], T9C).winner == 0  # non-matching trumps never win
    assert trick_winner(["KH KH", "2C 3C", "AH AH"], T9C).winner == 2
    assert trick_winner(["KH KH", "AH 2C"], T9C).winner == 0  # mixed plays never win
    r = trick_winner(["5H", "10H", "KH", "AH"], T9C)
    assert (r.winner, r.points) == (3, 25)


# -------------------------------------------------------------- friends
def test_friend_resolution_within_one_trick():
    slots = [FriendSlot(card("AS"), 2)]
    team, joins = resolve_friends(slots, 0, [[(1, "AS"), (2, "AS"), (3, "3S"), (0, "4S")]])
    assert team == {0, 2} and joins[0].seat == 2


def test_self_friend_and_double_join_use_up_slot():
    slots = [FriendSlot(card("AS"), 1)]
    team, joins = resolve_friends(slots, 0, [[(0, "AS"), (1, "AS")]])
    assert team == {0} and joins[0].already_on_team
    team, _ = resolve_friends(slots, 0, [[(0, "AS"), (1, "AS")]], policy="no-double-join")
    assert team == {0, 1}


def test_friend_card_policies():
    t = T2S
    assert card("AH") in allowed_friend_cards(t) and card("3S") not in allowed_friend_cards(t)
    assert card("2H") not in allowed_friend_cards(t) and card("BJ") not in allowed_friend_cards(t)
    assert card("KH") not in allowed_friend_cards(t, "point-card-not-allowed")
    assert card("KH") in allowed_friend_cards(Trump("A", "S"), "point-card-not-allowed")
    assert card("KH") not in allowed_friend_cards(Trump("A", "S"), "highest-card-not-allowed")
    assert friend_declaration_error([FriendSlot(card("AH"), 3)], t, 2, 1) is not None
    assert friend_declaration_error([FriendSlot(card("AH"), 2)], t, 2, 1) is None


# -------------------------------------------------------------- scoring
def test_level_table_two_decks_matches_shengji_bot():
    # shengji-bot.md Appendix B: 0 +3, 5-35 +2, 40-75 +1, 80-115 0, 120-155 +1, 160-195 +2, >=200 +3
    expected = {0: (True, 3), 35: (True, 2), 40: (True, 1), 75: (True, 1), 80: (False, 0),
                115: (False, 0), 120: (False, 1), 155: (False, 1), 160: (False, 2),
                195: (False, 2), 200: (False, 3)}  # fmt: skip
    for p, (won, d) in expected.items():
        r = level_change(p, 2)
        assert r.landlord_won is won
        assert (r.landlord_delta if won else r.attacker_delta) == d
    assert level_change(240, 2).attacker_delta == 4  # the reference engine goes on
    assert level_change(240, 2, max_delta=3).attacker_delta == 3  # the bot's table stops at +3


def test_level_table_three_decks():
    assert level_table(3) == [
        (0, "landlord +3"), (5, "landlord +2"), (60, "landlord +1"), (120, "attackers +0"),
        (180, "attackers +1"), (240, "attackers +2"), (300, "attackers +3"),
    ]  # fmt: skip
    assert level_change(-55, 3).landlord_delta == 3 and level_change(-60, 3).landlord_delta == 4


def test_bonus_level_kitty_and_sizes():
    assert level_change(40, 2, smaller_team=True).landlord_delta == 2
    assert level_change(80, 2, smaller_team=True).attacker_delta == 0
    assert not level_change(40, 2, smaller_team=True, bonus_level=False).bonus
    assert [kitty_multiplier(n) for n in (1, 2, 3, 4)] == [2, 4, 6, 8]
    assert [kitty_size(p, p // 2) for p in (4, 5, 6, 7, 8)] == [8, 8, 6, 8, 8]


def test_advancement_defends_a_and_nt():
    assert advance_rank(0, 3, True, 0) == (3, 0, False)
    assert advance_rank(12, 1, False, 5) == (12, 0, True)  # attackers stop at A
    assert advance_rank(11, 3, True, 11) == (12, 0, True)  # passing A only on the first step
    assert advance_rank(12, 1, True, 12) == (NT, 0, False)
    assert advance_rank(NT, 1, True, NT) == (0, 1, False)  # past NT: wrap to 2
    assert advance_rank(NT, 1, True, 12) == (NT, 0, True)  # NT needs the landlord at NT
    assert advance_rank(10, 3, False, 0, "fully-unrestricted") == (NT, 0, False)
    assert advance_rank(2, 2, True, 2, "defend-points") == (3, 0, True)


def test_next_landlord():
    assert next_landlord(0, {0, 2}, True, 4) == 2
    assert next_landlord(0, {0, 2}, False, 4) == 1
    assert next_landlord(3, {3}, True, 5) == 3  # a lone winning landlord stays


# -------------------------------------------------------------- bidding
def test_bidding_rules():
    hand = {card("2C"): 3, card("2S"): 2, 52: 2, 53: 2}
    first = {str(b) for b in valid_bids(0, hand, [], 0, 2)}
    assert first == {"P0 1x2C", "P0 2x2C", "P0 3x2C", "P0 1x2S", "P0 2x2S", "P0 2xSJ", "P0 2xBJ"}
    mine = [Bid(0, card("2C"), 1)]
    assert {str(b) for b in valid_bids(0, hand, mine, 0, 2)} == {"P0 2x2C", "P0 3x2C"}
    over = [Bid(0, card("2C"), 1), Bid(1, card("2S"), 2)]
    assert {str(b) for b in valid_bids(0, hand, over, 0, 2)} == {"P0 3x2C", "P0 2xSJ", "P0 2xBJ"}
    assert bid_trump(Bid(0, card("BJ"), 2), 5) == Trump("7", None)


def test_weak_strong_calls():
    hand = {card("2H"): 2, card("2D"): 1}
    first = {str(b) for b in valid_bids(1, hand, [], 0, 2, "weak-strong")}
    assert first == {"P1 1x2H", "P1 2x2H", "P1 1x2D"}
    after_weak = {str(b) for b in valid_bids(1, hand, [Bid(0, card("2S"), 1)], 0, 2, "weak-strong")}
    assert after_weak == {"P1 2x2H"}
    assert valid_bids(1, hand, [Bid(0, card("2S"), 2)], 0, 2, "weak-strong") == []
