"""Every puzzle's answer from the literature, in both engines (the symbolic one
on both BDD backends), and the symbolic builders at sizes the explicit engine
cannot reach."""

from __future__ import annotations

import io

import pytest

from kripke import puzzles as P
from kripke.cli import main
from kripke.formulas import Atom, Know, Kw, Not, atom, conj, disj
from kripke.semantics import count, holds, is_valid
from kripke.symbolic import (
    KnowledgeStructure,
    PointedStructure,
    available_backends,
    to_explicit,
    use_backend,
)
from kripke.updates import announce, announce_all

ENGINES = ["explicit", *(f"symbolic-{b}" for b in available_backends())]


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest):
    name = request.param
    if name == "explicit":
        yield "explicit"
        return
    with use_backend(name.split("-")[1]):
        yield "symbolic"


@pytest.mark.parametrize("n, muddy", [(3, [1, 2, 3]), (4, [2]), (5, [1, 3, 5]), (7, [4, 7])])
def test_muddy_children(engine, n, muddy):
    """k muddy children: k-1 rounds of "nobody knows", then exactly the muddy
    children know (Fagin, Halpern, Moses & Vardi, *Reasoning about Knowledge*, 1995, §1.1)."""
    rounds = list(P.muddy_children_protocol(P.muddy_children(n, muddy, engine=engine)))
    assert len(rounds) == len(muddy)
    assert all(not r.knowers for r in rounds[:-1])
    assert rounds[-1].knowers == tuple(str(i) for i in muddy)
    # after the father, 2^n - 1 worlds; each silence removes the worlds with exactly r muddy
    assert rounds[0].worlds == 2**n - 1


def test_muddy_children_beyond_the_explicit_engine(backend):
    n, muddy = 30, [2, 9, 17, 30]
    rounds = list(P.muddy_children_protocol(P.muddy_children(n, muddy, engine="symbolic")))
    assert len(rounds) == 4 and rounds[-1].knowers == ("2", "9", "17", "30")
    assert rounds[1].worlds == 2**30 - 1 - 30  # the silence removes the 30 one-muddy worlds
    with pytest.raises(Exception, match="too many for the explicit engine"):
        P.muddy_children(30)


def test_muddy_children_on_the_command_line(backend):
    out = io.StringIO()
    assert main(["puzzle", "muddy", "--children", "6", "--engine", "symbolic"], out=out) == 0
    text = out.getvalue()
    assert text.count("nobody steps forward") == 5 and "worlds left: 1" in text


def test_three_wise_men(engine):
    """The third wise man knows his hat is red after the first two do not know (McCarthy 1978)."""
    pm = announce_all(
        P.three_wise_men("RRR", engine=engine), ["r1 | r2 | r3", "~Kw_1 r1", "~Kw_2 r2"]
    )
    assert holds(pm, "K_3 r3")
    no_king = announce_all(P.three_wise_men("RRR", engine=engine), ["~Kw_1 r1", "~Kw_2 r2"])
    assert not holds(no_king, "K_3 r3")


def test_cheryls_birthday(engine):
    """Singapore and Asian Schools Math Olympiad 2015: the birthday is July 16."""
    pm = announce_all(P.cheryls_birthday(engine=engine), P.cheryl_announcements())
    if engine == "explicit":
        assert pm.model.worlds == ["July 16"]
    else:
        assert list(pm.structure.states()) == [frozenset({"month(July)", "day(16)"})]


@pytest.mark.parametrize("engine", ["explicit", "symbolic"])
def test_sum_and_product(engine):
    """Freudenthal 1969: the unique pair is x = 4, y = 13.  (The symbolic engine
    runs on the fastest backend here; the pure-Python one is checked against the
    explicit engine on a smaller bound below.)"""
    m = announce_all(P.sum_and_product(engine=engine), P.sum_and_product_announcements())
    if engine == "explicit":
        assert m.worlds == [(4, 13)]
    else:
        assert list(m.states()) == [frozenset({"x(4)", "y(13)"})]


def test_sum_and_product_engines_agree(backend):
    bound = 40
    explicit = P.sum_and_product(bound)
    symbolic = P.sum_and_product(bound, engine="symbolic")
    assert symbolic.num_states() == explicit.num_worlds
    for f in ("x(3)", "K_P x(3)", "K_S ~K_P (x(2) | y(5))", "y(10) & M_S x(7)"):
        assert count(symbolic, f) == count(explicit, f), f
    for f in P.sum_and_product_announcements(bound):
        explicit = announce(explicit, f)
        symbolic = announce(symbolic, f)
        assert {frozenset({f"x({x})", f"y({y})"}) for x, y in explicit.worlds} == set(
            symbolic.states()
        )


def test_russian_cards_safe_announcements(backend):
    """van Ditmarsch, *Studia Logica* 75 (2003): 102 of the 1290 hand lists are safe."""
    safe = P.russian_cards_safe_announcements(engine="symbolic")
    assert len(safe) == 102
    assert ((0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (2, 4, 6)) in safe
    assert all((0, 1, 2) in hands for hands in safe)


def test_russian_cards_hand_lists_match():
    from kripke.symbolic.puzzles import _hand_lists

    assert _hand_lists() == P.russian_cards_hand_lists()


def test_russian_cards_checks_agree(engine):
    pm = P.russian_cards(engine=engine)
    assert P.russian_cards_is_safe(pm, [(0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (2, 4, 6)])
    assert not P.russian_cards_is_safe(pm, [(0, 1, 2), (3, 4, 5)])
    assert holds(pm, "K_alice has(alice, 0) & ~K_cath has(alice, 0)")


@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_drinking_logicians(engine, n):
    """Only the last logician can answer "yes" after n-1 "I don't know"s."""
    assert holds(P.drinking_logicians(n, engine=engine), P.drinking_logicians_formula(n))
    not_first = P.drinking_logicians(n, range(2, n + 1), engine=engine)
    assert not holds(not_first, P.drinking_logicians_formula(n))


def test_drinking_logicians_many(backend):
    n = 60
    assert holds(P.drinking_logicians(n, engine="symbolic"), P.drinking_logicians_formula(n))


@pytest.mark.parametrize("payer", [0, 1, 3])
def test_dining_cryptographers(engine, payer):
    """Chaum, *J. Cryptology* 1 (1988): everyone learns whether the NSA paid; a
    paying diner stays anonymous."""
    pm = P.dining_cryptographers(3, payer, [True, False, True], engine=engine)
    model = pm.model if engine == "explicit" else pm.structure
    assert is_valid(model, P.dining_cryptographers_formula(3))
    assert holds(pm, P.dining_cryptographers_formula(3))


def test_dining_cryptographers_five_diners(backend):
    pm = P.dining_cryptographers(5, 2, engine="symbolic")
    assert is_valid(pm.structure, P.dining_cryptographers_formula(5))


def test_dining_cryptographers_many_diners(backend):
    """SMCDEL's benchmark check: after the parity of all announcements, diner 1
    (who did not pay) knows nobody paid or knows some other diner paid but not which."""
    n = 12
    pm = P.dining_cryptographers(n, 5, engine="symbolic")
    paid = [atom("paid", i) for i in range(n + 1)]
    mine: dict[int, list] = {i: [paid[i]] for i in range(1, n + 1)}
    for k in range(1, n + 1):
        for m in range(k + 1, n + 1):
            c = atom("coin", k, m)
            mine[k].append(c)
            mine[m].append(c)
    said = P.xor([P.xor(mine[i]) for i in range(1, n + 1)])
    body = Not(paid[1]) >> disj(
        [
            Know("1", conj(Not(paid[k]) for k in range(1, n + 1))),
            Know("1", disj(paid[k] for k in range(2, n + 1)))
            & conj(Not(Know("1", paid[k])) for k in range(2, n + 1)),
        ]
    )
    assert is_valid(pm.structure, P.announce_whether(said, body))
    # the sum of all announcements is the parity of the payers: it reveals whether the NSA paid
    assert is_valid(
        pm.structure, P.announce_whether(said, conj(Kw(str(i), paid[0]) for i in (1, 2)))
    )


def test_symbolic_builders_reject_bad_input(backend):
    from kripke.errors import KripkeError, UnknownWorldError

    with pytest.raises(KripkeError, match="child 9"):
        P.muddy_children(3, [9], engine="symbolic")
    with pytest.raises(KripkeError, match="positive integer"):
        P.drinking_logicians(0, engine="symbolic")
    with pytest.raises(KripkeError, match="payer"):
        P.dining_cryptographers(3, 7, engine="symbolic")
    with pytest.raises(KripkeError, match="three letters"):
        P.three_wise_men("RRX", engine="symbolic")
    with pytest.raises(UnknownWorldError):
        P.cheryls_birthday(("July", 15), engine="symbolic")


def test_small_symbolic_puzzles_translate_to_their_explicit_models(backend):
    for sym, exp in [
        (P.muddy_children(4, [1, 3], engine="symbolic"), P.muddy_children(4, [1, 3])),
        (P.three_wise_men("RWR", engine="symbolic"), P.three_wise_men("RWR")),
        (P.cheryls_birthday(engine="symbolic"), P.cheryls_birthday()),
    ]:
        back = to_explicit(sym)
        assert back.model.num_worlds == exp.model.num_worlds
        from kripke.updates import is_bisimilar

        assert is_bisimilar(back, exp)


def test_card_deal_structure(backend):
    """A structure built from a vocabulary of card atoms, a law and per-seat observations."""
    from kripke.symbolic import exactly

    seats, cards = ("p1", "p2", "p3"), ("AS", "KS", "QS", "JS", "10S", "9S")
    has = {(s, c): f"has({s}, {c})" for s in seats for c in cards}
    vocab = [has[s, c] for c in cards for s in seats]  # card-major order
    law = exactly(2, [has["p1", c] for c in cards])
    for s in seats[1:]:
        law = law & exactly(2, [has[s, c] for c in cards])
    for c in cards:
        law = law & exactly(1, [has[s, c] for s in seats])
    ks = KnowledgeStructure(vocab, law, {s: [has[s, c] for c in cards] for s in seats})
    assert ks.num_states() == 90  # 6! / (2! 2! 2!)
    deal = {
        has["p1", "AS"],
        has["p1", "KS"],
        has["p2", "QS"],
        has["p2", "JS"],
        has["p3", "10S"],
        has["p3", "9S"],
    }
    pm = PointedStructure(ks, deal)
    assert holds(pm, "K_p1 ~has(p2, AS) & ~Kw_p1 has(p2, QS)")
    assert ks.probability("has(p2, QS)", given="has(p1, AS) & has(p1, KS)") == 0.5
    after = announce(pm, "~has(p3, QS)")
    assert holds(after, "K_p1 has(p2, QS) & ~K_p1 has(p2, JS)")
    assert holds(after, "K_p3 (has(p1, QS) | K_p1 has(p2, QS))")
    assert not holds(after, "K_p3 K_p1 has(p2, QS)")
    assert Atom("has", ("p1", "AS")).key in ks.vocabulary


@pytest.mark.parametrize(
    "argv, expected",
    [
        (["wise-men"], "Man 3 knows his hat is red: True"),
        (["cheryl"], "day(16)"),
        (["sum-product"], "x(4)"),
        (["russian-cards"], "102 safe announcements among 1290"),
        (["drinking", "--children", "30"], "logician 30 knows: True"),
        (["dining", "--children", "5"], "stays anonymous: True"),
    ],
)
def test_puzzles_on_the_command_line(argv, expected):
    out = io.StringIO()
    assert main(["puzzle", *argv, "--engine", "symbolic"], out=out) == 0
    assert expected in out.getvalue()
