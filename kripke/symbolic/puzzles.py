"""The classic puzzles as knowledge structures: same atoms, agents and meaning
as the explicit builders of :mod:`kripke.puzzles`, but they scale.

:func:`kripke.puzzles.muddy_children` and the other builders call these with
``engine="symbolic"``.

Examples
--------
>>> from kripke.puzzles import muddy_children, muddy_children_protocol
>>> pm = muddy_children(40, engine="symbolic")
>>> rounds = list(muddy_children_protocol(pm))
>>> len(rounds), len(rounds[-1].knowers)
(40, 40)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from kripke.errors import KripkeError
from kripke.formulas import C as Ck
from kripke.formulas import Formula, Not, conj, disj
from kripke.formulas import K as Know
from kripke.formulas import Kw as KnowsWhether
from kripke.symbolic._bdd import manager
from kripke.symbolic.boolean import count_between
from kripke.symbolic.structures import KnowledgeStructure, PointedStructure, _Frame

__all__ = [
    "muddy_children",
    "three_wise_men",
    "cheryls_birthday",
    "sum_and_product",
    "russian_cards",
    "russian_cards_safe_announcements",
    "drinking_logicians",
    "dining_cryptographers",
]


def _children(n: int, chosen: Iterable[int] | None, what: str) -> list[int]:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise KripkeError(f"the number of children must be a positive integer, got {n!r}")
    kids = list(range(1, n + 1)) if chosen is None else list(chosen)
    for k in kids:
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= n:
            raise KripkeError(f"{what} child {k!r} is not a child number between 1 and {n}")
    return sorted(set(kids))


def muddy_children(n: int, muddy: Iterable[int] | None = None) -> PointedStructure:
    """Muddy children: atom ``mi`` (child *i* is muddy), child *i* observes every ``mj``, *j* ≠ *i*."""
    kids = _children(n, muddy, "muddy")
    vocab = [f"m{i}" for i in range(1, n + 1)]
    obs = {str(i): vocab[: i - 1] + vocab[i:] for i in range(1, n + 1)}
    ks = KnowledgeStructure(vocab, observes=obs)
    return PointedStructure(ks, {f"m{k}" for k in kids})


def three_wise_men(hats: str = "RRR") -> PointedStructure:
    """Three wise men: atom ``ri`` (man *i*'s hat is red); each sees the other hats."""
    if not isinstance(hats, str) or len(hats) != 3 or set(hats) - {"R", "W"}:
        raise KripkeError(f"hats must be three letters R or W, got {hats!r}")
    vocab = ["r1", "r2", "r3"]
    obs = {str(i): [f"r{j}" for j in (1, 2, 3) if j != i] for i in (1, 2, 3)}
    ks = KnowledgeStructure(vocab, observes=obs)
    return PointedStructure(ks, {f"r{i + 1}" for i in range(3) if hats[i] == "R"})


def cheryls_birthday(actual: tuple[str, int] = ("July", 16)) -> PointedStructure:
    """Cheryl's birthday: atoms ``month(M)`` and ``day(D)``; Albert observes the
    month atoms, Bernard the day atoms; the law allows the ten dates."""
    from kripke.puzzles import CHERYL_DATES

    months = sorted({f"month({m})" for m, _ in CHERYL_DATES})
    days = sorted({f"day({d})" for _, d in CHERYL_DATES}, key=lambda s: int(s[4:-1]))
    mgr = manager()
    mgr.declare(months + days)
    law = mgr.false
    for m, d in CHERYL_DATES:
        law = law | (mgr.var(f"month({m})") & mgr.var(f"day({d})"))
    law = law & count_between(mgr, months, 1, 1) & count_between(mgr, days, 1, 1)
    ks = KnowledgeStructure(months + days, law, {"albert": months, "bernard": days})
    m, d = actual
    return PointedStructure(ks, {f"month({m})", f"day({d})"})


def sum_and_product(bound: int = 100) -> KnowledgeStructure:
    """Sum and Product: atoms ``x(i)``, ``y(j)``; agents ``S`` and ``P``.

    The numbers are held in binary by auxiliary variables, and ``x(i)``,
    ``y(j)`` are atoms defined from them; S observes variables holding the
    sum in binary, P the product (cf. van Ditmarsch, Ruan & Verbrugge 2008;
    the binary encoding follows SMCDEL).  The law has a few thousand nodes
    where one variable per atom would need tens of thousands.
    """
    if isinstance(bound, bool) or not isinstance(bound, int) or bound < 5:
        raise KripkeError(f"the bound must be an integer of at least 5, got {bound!r}")
    mgr = manager()
    cached = mgr.builds.get(("sum_and_product", bound))
    if cached is not None:
        return cached
    pairs = [(x, y) for x in range(2, bound) for y in range(x + 1, bound) if x + y <= bound]
    xs = sorted({x for x, _ in pairs})
    ys = sorted({y for _, y in pairs})
    sums = sorted({x + y for x, y in pairs})
    prods = sorted({x * y for x, y in pairs})
    # P's observations on top of the order, then the numbers, then S's
    pbits = [mgr.fresh("p") for _ in range((len(prods) - 1).bit_length())]
    xbits = [mgr.fresh("x") for _ in range(max(xs).bit_length())]
    ybits = [mgr.fresh("y") for _ in range(max(ys).bit_length())]
    sbits = [mgr.fresh("s") for _ in range((len(sums) - 1).bit_length())]
    xcube = {x: mgr.assignment_cube(_binary(xbits, x)) for x in xs}
    ycube = {y: mgr.assignment_cube(_binary(ybits, y)) for y in ys}
    scube = {v: mgr.assignment_cube(_binary(sbits, i)) for i, v in enumerate(sums)}
    pcube = {v: mgr.assignment_cube(_binary(pbits, i)) for i, v in enumerate(prods)}
    law = mgr.false
    for x in reversed(xs):
        inner = mgr.false
        for y in reversed(ys):
            if x < y and x + y <= bound:
                inner = inner | (ycube[y] & scube[x + y] & pcube[x * y])
        law = law | (xcube[x] & inner)
    defs = {f"x({x})": xcube[x] for x in xs}
    defs.update({f"y({y})": ycube[y] for y in ys})
    frame = _Frame(
        mgr,
        tuple(defs),
        tuple(pbits + xbits + ybits + sbits),
        {"S": frozenset(sbits), "P": frozenset(pbits)},
        {},
        ("S", "P"),
        defs=defs,
    )
    out = frame.structure(law)
    mgr.builds[("sum_and_product", bound)] = out
    return out


def _binary(names: Sequence[str], i: int) -> dict[str, bool]:
    return {n: bool(i >> b & 1) for b, n in enumerate(names)}


RUSSIAN_AGENTS = ("alice", "bob", "cath")


def russian_cards() -> PointedStructure:
    """Russian cards: atoms ``has(agent, card)`` for cards 0..6 (card-major
    order), each agent observes its own; the actual deal is 012 | 345 | 6."""
    vocab = [f"has({a}, {c})" for c in range(7) for a in RUSSIAN_AGENTS]
    mgr = manager()
    mgr.declare(vocab)
    law = mgr.true
    for c in range(7):
        law = law & count_between(mgr, [f"has({a}, {c})" for a in RUSSIAN_AGENTS], 1, 1)
    for a, k in zip(RUSSIAN_AGENTS, (3, 3, 1), strict=True):
        law = law & count_between(mgr, [f"has({a}, {c})" for c in range(7)], k, k)
    obs = {a: [f"has({a}, {c})" for c in range(7)] for a in RUSSIAN_AGENTS}
    ks = KnowledgeStructure(vocab, law, obs)
    deal = [("alice", c) for c in (0, 1, 2)] + [("bob", c) for c in (3, 4, 5)] + [("cath", 6)]
    return PointedStructure(ks, {f"has({a}, {c})" for a, c in deal})


def russian_cards_safe_announcements() -> list[tuple[tuple[int, ...], ...]]:
    """The hand lists Alice can safely announce (102 of the 1290; van Ditmarsch 2003).

    The same conditions as :func:`kripke.puzzles.russian_cards_is_safe`,
    checked by announcing on the pointed structure: each list's
    announcement is evaluated once and its structure reused for every
    condition.
    """
    from kripke.puzzles import _has

    pm = russian_cards()
    bob_says = Know("bob", _has("cath", 6))
    a_knows_bs = conj(KnowsWhether("alice", _has("bob", k)) for k in range(7))
    b_knows_as = conj(KnowsWhether("bob", _has("alice", k)) for k in range(7))
    c_ignorant = conj(
        f
        for i in range(7)
        for f in (Not(Know("cath", _has("alice", i))), Not(Know("cath", _has("bob", i))))
    )
    ab = ("alice", "bob")
    first: list[Formula] = [b_knows_as, Ck(ab, b_knows_as), Ck(RUSSIAN_AGENTS, c_ignorant)]
    second: list[Formula] = [
        Ck(ab, a_knows_bs & b_knows_as),
        Ck(RUSSIAN_AGENTS, c_ignorant),
    ]
    alice = [_has("alice", c) for c in range(7)]
    hand_formula: dict[tuple[int, ...], Formula] = {}
    safe = []
    for hands in _hand_lists():
        parts = []
        for h in hands:
            g = hand_formula.get(h)
            if g is None:
                g = hand_formula[h] = conj(alice[c] for c in h)
            parts.append(g)
        alice_says = Know("alice", disj(parts))
        if not pm.holds(alice_says):
            continue
        after = pm.announce(alice_says)
        if not all(after.holds(g) for g in first):
            continue
        if after.holds(bob_says):
            after2 = after.announce(bob_says)
            if not all(after2.holds(g) for g in second):
                continue
        safe.append(hands)
    return safe


def _hand_lists() -> list[tuple[tuple[int, ...], ...]]:
    """:func:`kripke.puzzles.russian_cards_hand_lists` (same lists, same order),
    enumerated with bit masks."""
    hands = list(combinations(range(7), 3))
    compatible = [0] * len(hands)  # later hands sharing at most one card
    for i, h in enumerate(hands):
        for j in range(i + 1, len(hands)):
            if len(set(h) & set(hands[j])) < 2:
                compatible[i] |= 1 << j
    out: list[tuple[tuple[int, ...], ...]] = []

    def extend(prefix: list[int], candidates: int, k: int) -> None:
        if len(prefix) == k:
            out.append(tuple(hands[i] for i in prefix))
            return
        while candidates:
            low = candidates & -candidates
            i = low.bit_length() - 1
            candidates ^= low
            prefix.append(i)
            extend(prefix, candidates & compatible[i], k)
            prefix.pop()

    for k in (5, 6, 7):
        extend([], (1 << len(hands)) - 1, k)
    return out


def drinking_logicians(n: int = 3, thirsty: Iterable[int] | None = None) -> PointedStructure:
    """Drinking logicians: atom ``bi`` (logician *i* wants beer), observed by *i* only."""
    kids = _children(n, thirsty, "thirsty")
    vocab = [f"b{i}" for i in range(1, n + 1)]
    ks = KnowledgeStructure(vocab, observes={str(i): [f"b{i}"] for i in range(1, n + 1)})
    return PointedStructure(ks, {f"b{k}" for k in kids})


def dining_cryptographers(
    n: int = 3, payer: int = 1, coins: Iterable[bool] | None = None
) -> PointedStructure:
    """Dining cryptographers: atoms ``paid(0)`` (the NSA) … ``paid(n)`` and a
    shared ``coin(k, m)`` for every pair of diners; diner *i* observes
    ``paid(i)`` and its coins; the law says exactly one paid."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise KripkeError(f"the number of diners must be a positive integer, got {n!r}")
    if isinstance(payer, bool) or not isinstance(payer, int) or not 0 <= payer <= n:
        raise KripkeError(f"payer must be 0 (the NSA) or a diner 1..{n}, got {payer!r}")
    bits = [(k, m) for k in range(1, n + 1) for m in range(k + 1, n + 1)]
    coin_vals = [False] * len(bits) if coins is None else [bool(c) for c in coins]
    if len(coin_vals) != len(bits):
        raise KripkeError(f"{n} diners share {len(bits)} coins, got {len(coin_vals)} coin values")
    paid = [f"paid({p})" for p in range(n + 1)]
    coin = [f"coin({k}, {m})" for k, m in bits]
    mgr = manager()
    mgr.declare(paid + coin)
    law = count_between(mgr, paid, 1, 1)
    mine: dict[int, list[str]] = {i: [f"paid({i})"] for i in range(1, n + 1)}
    for (k, m), name in zip(bits, coin, strict=True):
        mine[k].append(name)
        mine[m].append(name)
    ks = KnowledgeStructure(paid + coin, law, {str(i): mine[i] for i in range(1, n + 1)})
    actual = {f"paid({payer})"} | {c for c, v in zip(coin, coin_vals, strict=True) if v}
    return PointedStructure(ks, actual)
