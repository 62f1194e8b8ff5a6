"""Puzzles with their answers from the literature."""

from __future__ import annotations

import pytest

from kripke.errors import KripkeError
from kripke.formulas import Atom
from kripke.puzzles import (
    cheryl_announcements,
    cheryls_birthday,
    dining_cryptographers,
    dining_cryptographers_formula,
    drinking_logicians,
    drinking_logicians_formula,
    muddy_children,
    muddy_children_protocol,
    russian_cards,
    russian_cards_hand_lists,
    russian_cards_is_safe,
    russian_cards_safe_announcements,
    sum_and_product,
    sum_and_product_announcements,
    three_wise_men,
)
from kripke.semantics import holds, is_valid
from kripke.updates import announce, announce_all


@pytest.mark.parametrize(
    "n, muddy", [(3, [1, 2, 3]), (4, [2]), (5, [1, 3, 5]), (6, [1, 2, 3, 4, 5, 6]), (7, [4, 7])]
)
def test_muddy_children_k_minus_one_rounds(n, muddy):
    """With k muddy children, k-1 rounds of "nobody knows", then exactly the
    muddy children know (Fagin, Halpern, Moses & Vardi 1995, §1.1)."""
    rounds = list(muddy_children_protocol(muddy_children(n, muddy)))
    k = len(muddy)
    assert len(rounds) == k  # round 0 (father) plus k-1 silences
    assert all(not r.knowers for r in rounds[:-1])
    assert rounds[-1].knowers == tuple(str(i) for i in muddy)


def test_muddy_children_model_shape():
    pm = muddy_children(4, [1, 3])
    assert pm.model.num_worlds == 16 and pm.actual == 0b0101
    assert holds(pm, "K_2 (m1 & m3) & ~Kw_1 m1")
    assert holds(pm, "~C_{1,2,3,4} (m1 | m2 | m3 | m4)")
    after = announce(pm, "m1 | m2 | m3 | m4")
    assert holds(after, "C_{1,2,3,4} (m1 | m2 | m3 | m4)")


def test_muddy_children_bad_input():
    with pytest.raises(KripkeError, match="child 9"):
        muddy_children(3, [9])
    with pytest.raises(KripkeError, match="positive integer"):
        muddy_children(0)


def test_three_wise_men():
    """The third wise man knows his hat is red after the first two do not know (McCarthy 1978)."""
    pm = three_wise_men("RRR")
    pm = announce_all(pm, ["r1 | r2 | r3", "~Kw_1 r1", "~Kw_2 r2"])
    assert holds(pm, "K_3 r3")
    # without the king's announcement the third does not know
    assert not holds(announce_all(three_wise_men("RRR"), ["~Kw_1 r1", "~Kw_2 r2"]), "K_3 r3")


def test_cheryls_birthday_is_july_16():
    """SASMO 2015: the only date left is July 16."""
    pm = cheryls_birthday()
    pm = announce_all(pm, cheryl_announcements())
    assert pm.model.worlds == ["July 16"]


def test_sum_and_product_unique_pair():
    """Freudenthal 1969: the unique solution is (4, 13)."""
    m = sum_and_product()
    m = announce_all(m, sum_and_product_announcements())
    assert m.worlds == [(4, 13)]


def test_russian_cards_safe_announcements():
    """van Ditmarsch 2003: 102 safe announcements among the 1290 candidate lists."""
    lists = russian_cards_hand_lists()
    assert len(lists) == 1290
    safe = russian_cards_safe_announcements()
    assert len(safe) == 102
    pm = russian_cards()
    assert russian_cards_is_safe(pm, [(0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (2, 4, 6)])
    assert not russian_cards_is_safe(pm, [(0, 1, 2), (3, 4, 5)])


@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_drinking_logicians(n):
    """Only the last logician can answer "yes" after n-1 "I don't know"s."""
    assert holds(drinking_logicians(n), drinking_logicians_formula(n))
    # if the first logician is not thirsty she answers "no" at once: the formula fails
    assert not holds(drinking_logicians(n, range(2, n + 1)), drinking_logicians_formula(n))


@pytest.mark.parametrize("payer", [0, 1, 2, 3])
def test_dining_cryptographers(payer):
    """Chaum 1988: everyone learns whether the NSA paid; a paying diner stays anonymous."""
    pm = dining_cryptographers(3, payer, [True, False, True])
    assert is_valid(pm.model, dining_cryptographers_formula(3))
    assert holds(pm, dining_cryptographers_formula(3))


def test_unknown_engine():
    from kripke.errors import EngineError

    with pytest.raises(EngineError, match="unknown engine 'quantum'"):
        muddy_children(3, engine="quantum")


def test_atoms_named_readably():
    assert Atom("m1") in set().union(*[{Atom(a)} for a in muddy_children(2).model.atoms])
