"""Formulas: construction, rendering, parsing round trip, parse errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kripke.errors import KripkeError, ParseError
from kripke.formulas import (
    BOT,
    TOP,
    And,
    Announce,
    AnnounceDiamond,
    Atom,
    C,
    D,
    E,
    Iff,
    Implies,
    K,
    Know,
    Kw,
    M,
    Not,
    Or,
    atom,
    conj,
    disj,
)
from kripke.parser import parse
from tests.strategies import formulas

p, q, r = Atom("p"), Atom("q"), Atom("r")


def test_operators_build_formulas():
    assert p & q == And((p, q))
    assert p & q & r == And((p, q, r)) == parse("p & q & r")
    assert p | q | r == parse("p | q | r")
    assert ~p == Not(p)
    assert p >> q == Implies(p, q)
    assert (p & q).__and__(3) is NotImplemented
    with pytest.raises(TypeError):
        p & 3  # noqa: B018


def test_constructors_do_not_simplify():
    f = And((p, TOP))
    assert f.args == (p, TOP)
    assert str(Not(Not(p))) == "~~p"


def test_formulas_are_hashable_values():
    d = {K("a", p): 1}
    assert d[parse("K_a p")] == 1
    assert K(1, "m1") == parse("K_1 m1")


@pytest.mark.parametrize(
    "text, expected",
    [
        ("top", TOP),
        ("⊥", BOT),
        ("~p", Not(p)),
        ("¬p ∧ q", And((Not(p), q))),
        ("p -> q -> r", Implies(p, Implies(q, r))),
        ("p → q", Implies(p, q)),
        ("p <-> q <-> r", Iff(Iff(p, q), r)),
        ("p ↔ q", Iff(p, q)),
        ("K_a p & q", And((Know("a", p), q))),
        ("K_1 m1", K("1", Atom("m1"))),
        ("K_alice has(p2, QS)", K("alice", atom("has", "p2", "QS"))),
        ("M_b p", M("b", p)),
        ("Kw_a p", Kw("a", p)),
        ("E_{a,b} p", E(["a", "b"], p)),
        ("C_{1,3} ~has(2, 7H)", C(["1", "3"], Not(atom("has", 2, "7H")))),
        ("D_{a,b} p", D(["a", "b"], p)),
        ("[!p] q", Announce(p, q)),
        ("<!p & q> r", AnnounceDiamond(And((p, q)), r)),
        ("[!p] K_a q | r", Or((Announce(p, Know("a", q)), r))),
        ("has(p1, J+) | has(p1, QS#2)", Or((atom("has", "p1", "J+"), atom("has", "p1", "QS#2")))),
        ("has(p2,QS)", atom("has", "p2", "QS")),
    ],
)
def test_parse_examples(text, expected):
    assert parse(text) == expected


@given(formulas())
@settings(max_examples=300)
def test_parse_str_round_trip(f):
    assert parse(str(f)) == f


@given(formulas())
@settings(max_examples=100)
def test_repr_pastes_back(f):
    from kripke import formulas as F

    namespace = {name: getattr(F, name) for name in F.__all__}
    assert eval(repr(f), namespace) == f  # test-only: repr is code by design


def test_latex():
    assert K("a", p & ~q)._repr_latex_() == r"$K_{a} (p \land \neg q)$"
    assert "C_{" in C(["a", "b"], p).to_latex()
    assert r"\langle" in AnnounceDiamond(p, q).to_latex()


@pytest.mark.parametrize(
    "text, position, expected",
    [
        ("p &", 3, "a formula"),
        ("(p & q", 6, "')'"),
        ("K_ p", 2, "an agent name"),
        ("p q", 2, "an operator"),
        ("[!p q", 4, "']'"),
        ("E_{a, } p", 6, "an agent name"),
        ("has(p2, ) ", 8, "an atom argument"),
        ("p & & q", 4, "a formula"),
        ("1p", 0, "atom names start with a letter"),
        ("[A,e] p", 1, "a known action model"),
        ("", 0, "a formula"),
    ],
)
def test_parse_errors_show_position(text, position, expected):
    with pytest.raises(ParseError) as info:
        parse(text)
    err = info.value
    assert err.position == position
    assert expected in str(err)
    lines = str(err).splitlines()
    assert lines[1].strip() == text.strip()
    assert lines[2].index("^") - 2 == position


def test_parse_error_is_a_value_error():
    with pytest.raises(ValueError):
        parse("p ->")


def test_bad_names_are_rejected():
    with pytest.raises(KripkeError):
        K("bad agent", p)
    with pytest.raises(KripkeError):
        Atom("K_a")
    with pytest.raises(KripkeError):
        E([], p)
    with pytest.raises(KripkeError):
        And((p,))


def test_helpers():
    assert conj([]) == TOP and disj([]) == BOT
    assert conj([p]) == p
    assert K("a", K("b", p)).modal_depth() == 2
    assert (K("a", p) & q).agents() == {"a"}
    assert (K("a", p) & q).atoms() == {p, q}
    assert not K("a", p).is_propositional() and (p & ~q).is_propositional()


def test_simplify_is_equivalent_and_smaller():
    f = parse("(p & q) | (p & ~q) | K_a (r | r)")
    g = f.simplify()
    assert g.size() <= f.size()
    assert "K_a r" in str(g)


_ALPHABET = "pqK_M_Kw_E_C_D_{a,b}()[]<>!~&|->↔¬∧∨→⊤⊥ 1top bot has(p2, QS)"


@given(st.text(alphabet=_ALPHABET, max_size=30))
@settings(max_examples=500)
def test_parser_never_crashes(text):
    """Any text either parses or raises ParseError: never another exception."""
    try:
        f = parse(text)
    except ParseError as err:
        assert 0 <= err.position <= len(text)
    else:
        assert parse(str(f)) == f


DEEP_TEXTS = [
    "(" * 300 + "p" + ")" * 300,
    "~" * 2000 + "p",
    "K_a " * 1000 + "p",
    " -> ".join(["p"] * 1500),
    "[!p] " * 700 + "q",
    "<!p> " * 500 + "q",
    "[!" * 400 + "p" + "] q" * 400,
    "C_{a,b} ~" * 600 + "p",
]


@pytest.mark.parametrize("text", DEEP_TEXTS, ids=lambda t: t[:6])
def test_deep_formulas_parse_print_hash_and_compare(text):
    f = parse(text)
    g = parse(text)
    assert f == g and f is not g and hash(f) == hash(g)
    assert parse(str(f)) == f
    assert "Atom('p')" in repr(f)
    assert f.to_latex().count("p") >= 1
    assert f.size() >= f.depth()
    assert f != Not(f) and Not(f) != f


def test_deep_formulas_differ_at_the_bottom():
    f = parse("~" * 3000 + "p")
    g = parse("~" * 3000 + "q")
    assert f != g
    assert {f: 1, g: 2}[parse("~" * 3000 + "q")] == 2


def test_unbalanced_deep_parentheses_name_the_position():
    with pytest.raises(ParseError) as err:
        parse("(" * 500 + "p" + ")" * 499)
    assert err.value.position == 1000
    assert "to close the '(' at position 0" in str(err.value)


def test_constructors_refuse_non_formulas():
    for make in (lambda: Not("p"), lambda: Implies(p, 3), lambda: Know("a", None)):
        with pytest.raises(KripkeError):
            make()
    with pytest.raises(KripkeError, match="tuple of formulas"):
        And(p)


def test_copied_and_unpickled_formulas_hash_compare_and_combine():
    import copy
    import pickle

    f = parse("K_a (p & ~q) -> [!r] C_{a,b} has(p2, QS)")
    deep = parse("~" * 1500 + "p")
    for g in (pickle.loads(pickle.dumps(f)), copy.deepcopy(f), copy.copy(f)):
        assert g == f and f == g and hash(g) == hash(f)
        assert Not(g) == Not(f) and (g & p) == (f & p)
        assert g.depth() == f.depth()
    g = copy.copy(deep)
    assert g == deep and hash(g) == hash(deep) and Not(g).depth() == 1502
