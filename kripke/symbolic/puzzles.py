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

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations
from typing import Any

from kripke.errors import KripkeError, SizeLimitError
from kripke.formulas import Atom, Formula, Not, conj, disj
from kripke.formulas import C as Ck
from kripke.formulas import K as Know
from kripke.formulas import Kw as KnowsWhether
from kripke.symbolic._bdd import _total_memory, get_limits, manager
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
    "muddy_children_protocol",
    "muddy_protocol_work",
]


def _check_number(n: object) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise KripkeError(f"the number of children must be a positive integer, got {n!r}")


def _children(n: int, chosen: Iterable[int] | None, what: str) -> list[int]:
    _check_number(n)
    kids = list(range(1, n + 1)) if chosen is None else list(chosen)
    for k in kids:
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= n:
            raise KripkeError(f"{what} child {k!r} is not a child number between 1 and {n}")
    return sorted(set(kids))


def muddy_children(n: int, muddy: Iterable[int] | None = None) -> PointedStructure:
    """Muddy children: atom ``mi`` (child *i* is muddy), child *i* observes every ``mj``, *j* ≠ *i*.

    Raises
    ------
    SizeLimitError
        When the children's observations (each child observes *n*-1 atoms)
        would take more memory than ``set_limits(max_memory=...)`` allows.
    """
    _check_number(n)
    limit = get_limits()["max_memory"] or _total_memory() // 2
    need = _OBS_BYTES * n * n
    if need > limit:
        raise SizeLimitError(
            f"muddy children with {n} children: their observations need an estimated "
            f"{need // 2**20} MiB, more than the limit of {limit // 2**20} MiB; "
            f"raise it with kripke.symbolic.set_limits(max_memory={need})"
        )
    kids = _children(n, muddy, "muddy")
    vocab = [f"m{i}" for i in range(1, n + 1)]
    mgr = manager()
    with mgr.guard("declaring the vocabulary"):
        mgr.declare(vocab)
        mgr.ensure_order(vocab)
    everyone = frozenset(vocab)
    obs = {str(i): everyone - {v} for i, v in enumerate(vocab, 1)}
    frame = _Frame(mgr, tuple(vocab), (), obs, {}, tuple(obs))
    return PointedStructure(frame.structure(mgr.true), {f"m{k}" for k in kids})


#: Bytes per observed atom of a child (a set entry), for the size estimate.
_OBS_BYTES = 48


def muddy_protocol_work(n: int, rounds: int) -> int:
    """An estimate of the BDD work of ``rounds`` rounds of the muddy children protocol.

    After round *r* the law says "at least *r*+1 children are muddy" (for
    every actual state), a BDD of about (*r*+1)(*n*-*r*+1) nodes; the sum of
    these sizes over the rounds measures the protocol's work (its time grows
    with it: about 10**8 takes a few seconds).

    Examples
    --------
    >>> muddy_protocol_work(3, 3)
    16
    >>> muddy_protocol_work(3000, 3000) > 4 * 10**9
    True
    """
    return sum((r + 1) * (n - r + 1) for r in range(rounds))


def muddy_children_protocol(pm: PointedStructure, max_rounds: int | None = None) -> Iterator[Any]:
    """The muddy children protocol on a pointed knowledge structure.

    The same rounds as :func:`kripke.puzzles.muddy_children_protocol` (which
    calls this for symbolic models), computed so that the knower checks and
    the counting do not dominate:

    - "nobody knows" is computed once per round, for all children in one
      pass over the law's new nodes (:func:`_flip_conj`) where a child
      observes every variable but its own ``mc``, else from the formula
      ``~Kw_c mc``;
    - the knowers are looked for only when "nobody knows" is false at a
      designated state (the last round);
    - the worlds of a round are counted (exactly, by CUDD) only when the
      caller reads :attr:`~kripke.puzzles.MuddyRound.worlds`.

    Raises
    ------
    SizeLimitError
        When :func:`muddy_protocol_work` estimates more BDD work than
        ``set_limits(max_work=...)`` allows (by default about a minute),
        before anything is computed.

    Examples
    --------
    >>> rounds = list(muddy_children_protocol(muddy_children(5, [2, 4])))
    >>> [(r.round, r.knowers, r.worlds) for r in rounds]
    [(0, (), 31), (1, ('2', '4'), 26)]
    """
    from kripke.puzzles import MuddyRound, at_least_one_muddy, nobody_knows

    if not isinstance(pm, PointedStructure):
        raise KripkeError(
            f"the muddy children protocol needs a pointed model or structure, got {type(pm).__name__}"
        )
    children = sorted(pm.agents, key=int)
    n = len(children)
    mgr = pm.structure.manager
    fr = pm.structure._frame
    limit = get_limits()["max_work"]
    if limit is not None:
        # the children muddy in some designated state bound the number of rounds
        d = pm.designated
        muddy = sum(
            1 for c in children if f"m{c}" in fr.vocab_set and d & fr.atom(f"m{c}") != mgr.false
        )
        rounds = max(muddy, 1) if max_rounds is None else min(max(muddy, 1), max_rounds + 1)
        work = muddy_protocol_work(n, rounds)
        if work > limit:
            raise SizeLimitError(
                f"the muddy children protocol with {n} children, {muddy} muddy, needs an "
                f"estimated BDD work of {work:.2e} (the sum of its laws' sizes), more than "
                f"the limit of {limit:.2e}; "
                f"raise it with kripke.symbolic.set_limits(max_work={work})"
            )
    father = at_least_one_muddy(n)
    pm = pm.announce(father)
    kw = [KnowsWhether(c, Atom(f"m{c}")) for c in children]
    # the children for whom ~Kw_c mc is the universal quantification over mc
    quantify: dict[str, str] = {}
    nvars = len(fr.allvars)
    for c in children:
        seen = fr.obs.get(c)
        own = f"m{c}"
        if seen is not None and own in fr.varatoms and len(seen) == nvars - 1 and own not in seen:
            quantify[c] = own
    quantified = frozenset(quantify.values())
    # by node: (node, its "nobody knows" part), of this round and the one before
    memo: list[dict[int, tuple[Any, Any]]] = [{}, {}]

    def count(law: Any) -> Any:
        return lambda: mgr.count(law, fr.allvars)

    def step(p: PointedStructure, r: int) -> tuple[Any, tuple[str, ...]]:
        """ "Nobody knows" on ``p``'s structure, and the children who know at ``p``."""
        ks = p.structure
        with mgr.guard(lambda: f"round {r} of the muddy children protocol"):
            nobody = _flip_conj(mgr, ks.law, quantified, memo)
            for c, f in zip(children, kw, strict=True):
                if c not in quantify:
                    nobody = nobody & ~ks.truth(f)
            mgr.check()
        if p.designated & ~nobody == mgr.false:
            return nobody, ()  # nobody knows at any designated state
        return nobody, tuple(c for c, f in zip(children, kw, strict=True) if p.holds(f))

    nobody, who = step(pm, 0)
    yield MuddyRound(0, str(father), count(pm.structure.law), who)
    r = 0
    while not who:
        r += 1
        if max_rounds is not None and r > max_rounds:
            return
        keep = pm.designated & nobody
        if keep != pm.designated:
            # somebody knows at some designated state: the announcement's own
            # precondition check names it
            pm.announce(nobody_knows(n))
        pm = PointedStructure._from_bdd(pm.structure._restrict(nobody), keep)
        nobody, who = step(pm, r)
        yield MuddyRound(r, "nobody knows", count(pm.structure.law), who)


def _flip_conj(
    mgr: Any, law: Any, flip: frozenset[str], memo: list[dict[int, tuple[Any, Any]]]
) -> Any:
    """``law ∧ ⋀_{v ∈ flip} ∀v law``: the states that stay in the law when any
    one variable of ``flip`` is flipped, by one pass over the law's nodes.

    For a node on variable *v* with children *lo*, *hi* the result *G* is
    ``ite(v, G(hi) ∧ lo, G(lo) ∧ hi)`` if *v* is in ``flip`` (flipping *v*
    moves a state to the other child), else ``ite(v, G(hi), G(lo))``; a
    flipped variable that a node skips leaves its value unchanged.  ``memo``
    (by node) is kept over the rounds of a protocol: a new law shares most of
    its nodes with the previous one, so each round visits only the new nodes
    and their children.  Entries not used for a whole round are dropped
    (``memo`` holds this call's entries and the previous call's).

    With a child observing all variables but its own ``mc``, ``∀mc law`` is
    "child c does not know whether it is muddy", so this is "nobody knows"
    in one pass instead of one quantification per child.
    """
    if mgr.backend != "cudd" or not flip:
        out = law
        for v in sorted(flip):
            out = out & mgr.forall(mgr.cube([v]), law)
        return out
    true, false = mgr.true, mgr.false
    older = memo[0]
    memo[1], memo[0] = older, {}
    new = memo[0]

    def get(k: int) -> tuple[Any, Any] | None:
        hit = new.get(k)
        if hit is None:
            hit = older.pop(k, None)
            if hit is not None:
                new[k] = hit
        return hit

    stack = [law]
    while stack:
        g = stack[-1]
        k = int(g)
        if get(k) is not None:
            stack.pop()
            continue
        if g == true or g == false:
            new[k] = (g, g)
            stack.pop()
            continue
        lo, hi = g.low, g.high
        if g.negated:
            lo, hi = ~lo, ~hi
        hit_lo, hit_hi = get(int(lo)), get(int(hi))
        if hit_lo is None or hit_hi is None:
            if hit_lo is None:
                stack.append(lo)
            if hit_hi is None:
                stack.append(hi)
            continue
        stack.pop()
        glo, ghi = hit_lo[1], hit_hi[1]
        v = g.var
        if v in flip:
            glo = glo & hi
            ghi = ghi & lo
        new[k] = (g, mgr.ite(mgr.var(v), ghi, glo))
    return new[int(law)][1]


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
