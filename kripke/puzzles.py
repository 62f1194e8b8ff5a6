"""Classic epistemic puzzles, each built as a pointed model (or structure).

Every builder takes ``engine="explicit" | "symbolic"``; the symbolic builders
live in :mod:`kripke.symbolic.puzzles` and scale much further.

Examples
--------
>>> from kripke.puzzles import muddy_children, muddy_children_protocol
>>> [r.knowers for r in muddy_children_protocol(muddy_children(3, [1, 2]))]
[(), ('1', '2')]
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import combinations
from typing import Any

import numpy as np

from kripke.errors import EngineError, KripkeError, SizeLimitError
from kripke.formulas import (
    And,
    Announce,
    Atom,
    Formula,
    Iff,
    Not,
    atom,
    conj,
    disj,
)
from kripke.formulas import C as Ck
from kripke.formulas import K as Know
from kripke.formulas import Kw as KnowsWhether
from kripke.models import KripkeModel, Partition, PointedModel, check_explicit_size
from kripke.semantics import holds
from kripke.updates import announce

__all__ = [
    "xor",
    "announce_whether",
    "muddy_children",
    "at_least_one_muddy",
    "nobody_knows",
    "muddy_children_protocol",
    "MuddyRound",
    "three_wise_men",
    "cheryls_birthday",
    "cheryl_announcements",
    "CHERYL_DATES",
    "sum_and_product",
    "sum_and_product_announcements",
    "russian_cards",
    "russian_cards_hand_lists",
    "russian_cards_is_safe",
    "russian_cards_safe_announcements",
    "drinking_logicians",
    "drinking_logicians_formula",
    "dining_cryptographers",
    "dining_cryptographers_formula",
]


def _engine_dispatch(engine: str, name: str, *args: Any, **kwargs: Any) -> Any:
    if engine == "explicit":
        return None
    if engine != "symbolic":
        raise EngineError(f"unknown engine {engine!r}; choose 'explicit' or 'symbolic'")
    module = importlib.import_module("kripke.symbolic.puzzles")
    return getattr(module, name)(*args, **kwargs)


def xor(fs: Iterable[Formula]) -> Formula:
    """Exclusive or (odd parity) of formulas, written with ``~`` and ``<->``."""
    items = list(fs)
    if not items:
        raise KripkeError("xor of no formulas")
    out = items[0]
    for f in items[1:]:
        out = Not(Iff(out, f))
    return out


def announce_whether(f: Formula, g: Formula) -> Formula:
    """``[?f] g``: after announcing whether ``f`` (truthfully), ``g`` holds.

    Defined as ``[!f] g & [!~f] g``.
    """
    return And((Announce(f, g), Announce(Not(f), g)))


# ------------------------------------------------------------ muddy children
def _check_bits(n: int, what: str) -> None:
    """Refuse, before building, 2^n worlds that would not fit the explicit engine's memory."""
    if n > 62:
        raise SizeLimitError(
            f"{n} {what} make 2^{n} worlds: too many for the explicit engine (far beyond its "
            "memory limit); "
            "use engine='symbolic'"
        )
    check_explicit_size(1 << n, n, n, f"{n} {what}")


def _check_children(n: int, muddy: Iterable[int] | None, what: str = "children") -> list[int]:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise KripkeError(f"the number of {what} must be a positive integer, got {n!r}")
    _check_bits(n, what)
    kids = list(range(1, n + 1)) if muddy is None else list(muddy)
    for k in kids:
        if not isinstance(k, int) or not 1 <= k <= n:
            raise KripkeError(f"muddy child {k!r} is not a child number between 1 and {n}")
    return sorted(set(kids))


def muddy_children(n: int, muddy: Iterable[int] | None = None, engine: str = "explicit") -> Any:
    """The muddy children puzzle before the father speaks.

    ``n`` children ``1..n`` (agents ``"1"..."n"``), atom ``mi`` true when child
    *i* is muddy; each child sees every forehead but its own.  World ``w`` is
    the bitmask with bit ``i-1`` set when child *i* is muddy.

    Parameters
    ----------
    n : int
    muddy : iterable of int, optional
        The muddy children of the actual world (all of them by default).
    engine : {"explicit", "symbolic"}

    Returns
    -------
    PointedModel (or a pointed knowledge structure with ``engine="symbolic"``)

    Notes
    -----
    With *k* muddy children, after the father's "at least one of you is
    muddy" there are *k*-1 rounds in which nobody knows, then the muddy
    children know (Fagin, Halpern, Moses & Vardi, *Reasoning about Knowledge*,
    1995, §1.1).
    """
    sym = _engine_dispatch(engine, "muddy_children", n, muddy)
    if sym is not None:
        return sym
    kids = _check_children(n, muddy)
    worlds = np.arange(1 << n, dtype=np.int64)
    val = _bit_matrix(worlds, n)
    # child i's class: the world with its own bit cleared (ids below 2^n, no compaction needed)
    rels = {str(i + 1): Partition(worlds & ~(1 << i), 1 << n) for i in range(n)}
    model = KripkeModel(worlds, [f"m{i + 1}" for i in range(n)], val, rels, validate=False)
    actual = sum(1 << (k - 1) for k in kids)
    return PointedModel(model, actual)


def _bit_matrix(worlds: np.ndarray, n: int) -> np.ndarray:
    """``(n, len(worlds))`` booleans: row i is bit i of each world number."""
    as_bytes = worlds.astype("<u4").view(np.uint8).reshape(-1, 4)
    return np.unpackbits(as_bytes, axis=1, bitorder="little")[:, :n].T.astype(bool)


def at_least_one_muddy(n: int) -> Formula:
    """The father's announcement ``m1 | ... | mn``."""
    return disj(Atom(f"m{i}") for i in range(1, n + 1))


def nobody_knows(n: int) -> Formula:
    """``~Kw_1 m1 & ... & ~Kw_n mn``: no child knows whether it is muddy."""
    return conj(Not(KnowsWhether(str(i), Atom(f"m{i}"))) for i in range(1, n + 1))


class MuddyRound:
    """One step of the muddy children protocol.

    Attributes ``round`` (0 for the father's announcement), ``announcement``
    (its text), ``knowers`` (the children who know whether they are muddy) and
    ``worlds`` (how many worlds are left).  On the symbolic engine the number
    of worlds is counted the first time it is read, so a caller who only
    wants the knowers never pays for counting.

    Examples
    --------
    >>> MuddyRound(1, "nobody knows", 4, ("1", "2"))
    MuddyRound(round=1, announcement='nobody knows', worlds=4, knowers=('1', '2'))
    """

    __slots__ = ("round", "announcement", "knowers", "_worlds")

    round: int
    announcement: str
    knowers: tuple[str, ...]
    _worlds: int | Callable[[], int]

    def __init__(
        self,
        round: int,
        announcement: str,
        worlds: int | Callable[[], int],
        knowers: tuple[str, ...],
    ):
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "announcement", announcement)
        object.__setattr__(self, "knowers", tuple(knowers))
        object.__setattr__(self, "_worlds", worlds)

    @property
    def worlds(self) -> int:
        """The number of worlds left after this round's announcement."""
        w = self._worlds
        if callable(w):
            w = int(w())
            object.__setattr__(self, "_worlds", w)
        return w

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"MuddyRound is immutable; cannot set {name!r}")

    def _key(self) -> tuple[int, str, int, tuple[str, ...]]:
        return (self.round, self.announcement, self.worlds, self.knowers)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MuddyRound):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"MuddyRound(round={self.round}, announcement={self.announcement!r}, "
            f"worlds={self.worlds}, knowers={self.knowers!r})"
        )


def _children_of(pm: Any) -> list[str]:
    return sorted(pm.model.agents if isinstance(pm, PointedModel) else pm.agents, key=int)


def muddy_children_protocol(pm: Any, max_rounds: int | None = None) -> Iterator[MuddyRound]:
    """Run the protocol: the father speaks, then "nobody knows" until somebody knows.

    Yields a :class:`MuddyRound` after the father's announcement (round 0)
    and after each round of "nobody knows"; the last yielded round is the
    first in which some child knows whether it is muddy.  Works on explicit
    and symbolic pointed models alike; on a symbolic one the rounds are run by
    :func:`kripke.symbolic.puzzles.muddy_children_protocol` (the same rounds,
    with each child's knowledge computed once per round and the worlds
    counted only when read).
    """
    if not isinstance(pm, PointedModel):
        sym = importlib.import_module("kripke.symbolic.puzzles")
        yield from sym.muddy_children_protocol(pm, max_rounds)
        return
    children = _children_of(pm)
    n = len(children)
    father = at_least_one_muddy(n)
    pm = announce(pm, father)
    kw = [KnowsWhether(c, Atom(f"m{c}")) for c in children]

    def knowers(p: Any) -> tuple[str, ...]:
        return tuple(c for c, f in zip(children, kw, strict=True) if holds(p, f))

    who = knowers(pm)
    yield MuddyRound(0, str(father), _size(pm), who)
    silence = nobody_knows(n)
    r = 0
    while not who:
        r += 1
        if max_rounds is not None and r > max_rounds:
            return
        pm = announce(pm, silence)
        who = knowers(pm)
        yield MuddyRound(r, "nobody knows", _size(pm), who)


def _size(pm: Any) -> int:
    if isinstance(pm, PointedModel):
        return pm.model.num_worlds
    return int(pm.num_states())


# ------------------------------------------------------------ three wise men
def three_wise_men(hats: str = "RRR", engine: str = "explicit") -> Any:
    """Three wise men, each sees the others' hats; atom ``ri`` means man *i*'s hat is red.

    ``hats`` gives the actual colours (``R``/``W``) of men 1, 2, 3.  The king's
    "at least one hat is red" is not yet announced.

    Notes
    -----
    With all hats red, after "at least one is red" and the first two men
    saying in turn that they do not know their colour, the third knows his
    hat is red (McCarthy 1978; Fagin et al. 1995, ex. 1.3).
    """
    sym = _engine_dispatch(engine, "three_wise_men", hats)
    if sym is not None:
        return sym
    if len(hats) != 3 or set(hats) - {"R", "W"}:
        raise KripkeError(f"hats must be three letters R or W, got {hats!r}")
    worlds = ["".join(t) for t in _product_str("RW", 3)]
    val = {w: [f"r{i + 1}" for i in range(3) if w[i] == "R"] for w in worlds}
    observes = {str(i): [f"r{j}" for j in (1, 2, 3) if j != i] for i in (1, 2, 3)}
    return PointedModel(
        KripkeModel.from_observations(worlds, val, observes, atoms=["r1", "r2", "r3"]), hats
    )


def _product_str(alphabet: str, k: int) -> Iterator[tuple[str, ...]]:
    if k == 0:
        yield ()
        return
    for head in alphabet:
        for rest in _product_str(alphabet, k - 1):
            yield (head, *rest)


# ----------------------------------------------------------- Cheryl's birthday
#: The ten dates Cheryl gives Albert and Bernard.
CHERYL_DATES: tuple[tuple[str, int], ...] = (
    ("May", 15), ("May", 16), ("May", 19),
    ("June", 17), ("June", 18),
    ("July", 14), ("July", 16),
    ("August", 14), ("August", 15), ("August", 17),
)  # fmt: skip


def cheryls_birthday(actual: tuple[str, int] = ("July", 16), engine: str = "explicit") -> Any:
    """Cheryl's birthday: Albert is told the month, Bernard the day.

    Worlds are the dates ``"July 16"``; atoms ``month(July)`` and ``day(16)``;
    agents ``albert`` and ``bernard``.  See :func:`cheryl_announcements`.

    Notes
    -----
    The unique date left after the three statements is July 16 (Singapore
    and Asian Schools Math Olympiad 2015, problem 24).
    """
    sym = _engine_dispatch(engine, "cheryls_birthday", actual)
    if sym is not None:
        return sym
    worlds = [f"{m} {d}" for m, d in CHERYL_DATES]
    val = {f"{m} {d}": [f"month({m})", f"day({d})"] for m, d in CHERYL_DATES}
    months = sorted({f"month({m})" for m, _ in CHERYL_DATES})
    days = sorted({f"day({d})" for _, d in CHERYL_DATES})
    model = KripkeModel.from_observations(worlds, val, {"albert": months, "bernard": days})
    key = f"{actual[0]} {actual[1]}"
    return PointedModel(model, key)


def _knows_date(agent: str) -> Formula:
    months = sorted({m for m, _ in CHERYL_DATES})
    days = sorted({d for _, d in CHERYL_DATES})
    parts = [KnowsWhether(agent, atom("month", m)) for m in months]
    parts += [KnowsWhether(agent, atom("day", d)) for d in days]
    return conj(parts)


def cheryl_announcements() -> list[Formula]:
    """The three statements, as formulas to announce in order.

    1. Albert: "I don't know when it is, but I know Bernard doesn't know either."
    2. Bernard: "At first I didn't know, but now I know."
    3. Albert: "Then I also know."
    """
    a, b = _knows_date("albert"), _knows_date("bernard")
    return [And((Not(a), Know("albert", Not(b)))), b, a]


# ------------------------------------------------------------ sum and product
def sum_and_product(bound: int = 100, engine: str = "explicit") -> Any:
    """Freudenthal's Sum and Product: 2 ≤ x < y, x + y ≤ ``bound``.

    S knows the sum, P the product.  Atoms ``x(i)`` and ``y(j)``; worlds are
    labelled ``(x, y)``; agents ``S`` and ``P``.  Returns the model (it is not
    pointed: the puzzle asks which world survives).

    Notes
    -----
    After "P: I don't know. S: I knew you didn't. P: now I know. S: now I know
    too", the unique pair left is (4, 13) (Freudenthal 1969; van Ditmarsch,
    Ruan & Verbrugge 2008).
    """
    sym = _engine_dispatch(engine, "sum_and_product", bound)
    if sym is not None:
        return sym
    if isinstance(bound, bool) or not isinstance(bound, int) or bound < 5:
        raise KripkeError(
            f"the bound of Sum and Product is an integer of at least 5, got {bound!r}"
        )
    check_explicit_size(bound * bound // 4, 2 * bound, 2, f"Sum and Product up to {bound}")
    pairs = [(x, y) for x in range(2, bound) for y in range(x + 1, bound) if x + y <= bound]
    xs = sorted({x for x, _ in pairs})
    ys = sorted({y for _, y in pairs})
    atoms = [f"x({i})" for i in xs] + [f"y({j})" for j in ys]
    aidx = {a: k for k, a in enumerate(atoms)}
    val = np.zeros((len(atoms), len(pairs)), dtype=bool)
    for w, (x, y) in enumerate(pairs):
        val[aidx[f"x({x})"], w] = True
        val[aidx[f"y({y})"], w] = True
    arr = np.array(pairs, dtype=np.int64)
    rels = {
        "S": Partition.from_labels(arr[:, 0] + arr[:, 1]),
        "P": Partition.from_labels(arr[:, 0] * arr[:, 1]),
    }
    return KripkeModel(pairs, atoms, val, rels)


def _knows_pair(agent: str, bound: int) -> Formula:
    pairs = [(x, y) for x in range(2, bound) for y in range(x + 1, bound) if x + y <= bound]
    xs = sorted({x for x, _ in pairs})
    ys = sorted({y for _, y in pairs})
    return conj(
        [KnowsWhether(agent, atom("x", i)) for i in xs]
        + [KnowsWhether(agent, atom("y", j)) for j in ys]
    )


def sum_and_product_announcements(bound: int = 100) -> list[Formula]:
    """The statements of Sum and Product, as three announcements in order.

    1. P: "I don't know the numbers" and S: "I knew you didn't" — one
       announcement, because S speaks of what held before P spoke.
    2. P: "Now I know them."  3. S: "Now I know them too."
    """
    p, s = _knows_pair("P", bound), _knows_pair("S", bound)
    return [And((Not(p), Know("S", Not(p)))), p, s]


# -------------------------------------------------------------- Russian cards
RUSSIAN_AGENTS = ("alice", "bob", "cath")


def _has(agent: str, card: int) -> Atom:
    return atom("has", agent, card)


def russian_cards(engine: str = "explicit") -> Any:
    """Russian cards: seven cards 0..6, Alice and Bob three each, Cath one.

    Atoms ``has(alice, 0)`` …; each agent observes the atoms of its own
    hand.  The actual deal is 012 | 345 | 6.

    Notes
    -----
    van Ditmarsch, "The Russian cards problem", *Studia Logica* 75 (2003).
    """
    sym = _engine_dispatch(engine, "russian_cards")
    if sym is not None:
        return sym
    deals = []
    for a in combinations(range(7), 3):
        rest = [c for c in range(7) if c not in a]
        for b in combinations(rest, 3):
            c = next(x for x in rest if x not in b)
            deals.append((a, b, c))
    label = {
        d: "".join(map(str, d[0])) + "|" + "".join(map(str, d[1])) + "|" + str(d[2]) for d in deals
    }
    val = {
        label[d]: [_has("alice", x) for x in d[0]]
        + [_has("bob", x) for x in d[1]]
        + [_has("cath", d[2])]
        for d in deals
    }
    observes = {ag: [_has(ag, c) for c in range(7)] for ag in RUSSIAN_AGENTS}
    all_atoms = [_has(ag, c) for ag in RUSSIAN_AGENTS for c in range(7)]
    model = KripkeModel.from_observations([label[d] for d in deals], val, observes, atoms=all_atoms)
    return PointedModel(model, "012|345|6")


def russian_cards_hand_lists() -> list[tuple[tuple[int, ...], ...]]:
    """Every list of five, six or seven hands of three cards, in increasing
    order, any two of which share at most one card (1290 lists)."""
    hands: list[tuple[int, ...]] = list(combinations(range(7), 3))
    out: list[tuple[tuple[int, ...], ...]] = []

    def extend(prefix: list[tuple[int, ...]], candidates: list[tuple[int, ...]], k: int) -> None:
        if len(prefix) == k:
            out.append(tuple(prefix))
            return
        for i, h in enumerate(candidates):
            rest = [g for g in candidates[i + 1 :] if len(set(g) & set(h)) < 2]
            extend([*prefix, h], rest, k)

    for k in (5, 6, 7):
        extend([], hands, k)
    return out


def _rc_forms(
    hands: Sequence[Sequence[int]],
) -> tuple[Formula, Formula, list[tuple[Formula, Formula]]]:
    alice_says: Formula = Know("alice", disj(conj(_has("alice", c) for c in h) for h in hands))
    bob_says: Formula = Know("bob", _has("cath", 6))
    a_knows_bs = conj(KnowsWhether("alice", _has("bob", k)) for k in range(7))
    b_knows_as = conj(KnowsWhether("bob", _has("alice", k)) for k in range(7))
    c_ignorant = conj(
        f
        for i in range(7)
        for f in (Not(Know("cath", _has("alice", i))), Not(Know("cath", _has("bob", i))))
    )
    ab, abc = ("alice", "bob"), RUSSIAN_AGENTS
    checks: list[tuple[Formula, Formula]] = [
        (alice_says, b_knows_as),
        (alice_says, Ck(ab, b_knows_as)),
        (alice_says, Ck(abc, c_ignorant)),
    ]
    after_both = [And((a_knows_bs, b_knows_as))]
    checks2: list[tuple[Formula, Formula]] = [
        (bob_says, Ck(ab, after_both[0])),
        (bob_says, Ck(abc, c_ignorant)),
    ]
    return alice_says, bob_says, checks + checks2


def russian_cards_is_safe(pm: Any, hands: Sequence[Sequence[int]]) -> bool:
    """Whether Alice can safely announce "my hand is one of ``hands``" (then Bob "Cath has 6").

    Safe: the announcement is true; afterwards Bob knows Alice's hand, and
    this is common knowledge of Alice and Bob; Cath learns no card of Alice's
    or Bob's, commonly known to all three; after Bob's answer Alice and Bob
    commonly know each other's hands and Cath still knows no card.
    """
    alice_says, bob_says, checks = _rc_forms(hands)
    if not holds(pm, alice_says):
        return False
    formulas = [Announce(alice_says, g) for first, g in checks[:3]]
    formulas += [Announce(alice_says, Announce(bob_says, g)) for _, g in checks[3:]]
    return all(holds(pm, f) for f in formulas)


def russian_cards_safe_announcements(engine: str = "explicit") -> list[tuple[tuple[int, ...], ...]]:
    """Search the 1290 hand lists for the safe ones (102 of them, van Ditmarsch 2003)."""
    sym = _engine_dispatch(engine, "russian_cards_safe_announcements")
    if sym is not None:
        return sym
    pm = russian_cards()
    return [hs for hs in russian_cards_hand_lists() if russian_cards_is_safe(pm, hs)]


# --------------------------------------------------------- drinking logicians
def drinking_logicians(
    n: int = 3, thirsty: Iterable[int] | None = None, engine: str = "explicit"
) -> Any:
    """Three (or *n*) logicians walk into a bar; "does everyone want beer?".

    Atom ``bi``: logician *i* wants beer, which only *i* observes.  By
    default everyone does.  See :func:`drinking_logicians_formula`.
    """
    sym = _engine_dispatch(engine, "drinking_logicians", n, thirsty)
    if sym is not None:
        return sym
    kids = _check_children(n, thirsty, "logicians")
    worlds = np.arange(1 << n, dtype=np.int64)
    val = _bit_matrix(worlds, n)
    rels = {str(i + 1): Partition(val[i].astype(np.intp), 2) for i in range(n)}
    model = KripkeModel(worlds, [f"b{i + 1}" for i in range(n)], val, rels, validate=False)
    return PointedModel(model, sum(1 << (k - 1) for k in kids))


def drinking_logicians_formula(n: int) -> Formula:
    """Nobody knows at first; after logicians 1..n-1 each say "I don't know",
    logician *n* knows everyone wants beer (true when all do)."""
    everyone = conj(Atom(f"b{i}") for i in range(1, n + 1))
    dont = [Not(KnowsWhether(str(i), everyone)) for i in range(1, n + 1)]
    inner: Formula = Know(str(n), everyone)
    for f in reversed(dont[:-1]):
        inner = Announce(f, inner)
    return And((conj(dont), inner))


# ------------------------------------------------------ dining cryptographers
def _dc_bits(n: int) -> list[tuple[int, int]]:
    return [(k, m) for k in range(1, n + 1) for m in range(k + 1, n + 1)]


def dining_cryptographers(
    n: int = 3, payer: int = 1, coins: Iterable[bool] | None = None, engine: str = "explicit"
) -> Any:
    """Chaum's dining cryptographers: *n* diners, one of them or the NSA paid.

    Atoms ``paid(0)`` (the NSA) … ``paid(n)``, and ``coin(k, m)`` shared by
    diners *k* < *m* (every pair, as in SMCDEL's general version); diner *i*
    observes whether it paid and its coins.  ``payer`` 0 is the NSA.

    Notes
    -----
    After every diner announces the parity of its coins (flipped if it paid),
    everyone knows whether the NSA paid and nobody else learns which diner
    paid (Chaum, *J. Cryptology* 1, 1988).
    """
    sym = _engine_dispatch(engine, "dining_cryptographers", n, payer, coins)
    if sym is not None:
        return sym
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise KripkeError(f"the number of diners must be a positive integer, got {n!r}")
    if not 0 <= payer <= n:
        raise KripkeError(f"payer must be 0 (the NSA) or a diner 1..{n}, got {payer}")
    num_coins = n * (n - 1) // 2  # counted before the coins are listed: n may be huge
    if num_coins > 16:
        raise SizeLimitError(
            f"{n} diners share {num_coins} coins: too many for the explicit engine; use engine='symbolic'"
        )
    bits = _dc_bits(n)
    coin_vals = [False] * len(bits) if coins is None else list(coins)
    if len(coin_vals) != len(bits):
        raise KripkeError(f"{n} diners share {len(bits)} coins, got {len(coin_vals)} coin values")
    worlds = []
    val: dict[Any, list[str]] = {}
    for p in range(n + 1):
        for mask in range(1 << len(bits)):
            w = (p, mask)
            worlds.append(w)
            val[w] = [f"paid({p})"] + [
                f"coin({k}, {m})" for j, (k, m) in enumerate(bits) if mask >> j & 1
            ]
    observes = {
        str(i): [f"paid({i})"] + [f"coin({k}, {m})" for (k, m) in bits if i in (k, m)]
        for i in range(1, n + 1)
    }
    all_atoms = [f"paid({p})" for p in range(n + 1)] + [f"coin({k}, {m})" for k, m in bits]
    model = KripkeModel.from_observations(worlds, val, observes, atoms=all_atoms)
    actual = (payer, sum(1 << j for j, c in enumerate(coin_vals) if c))
    return PointedModel(model, actual)


def dining_cryptographers_formula(n: int = 3) -> Formula:
    """Valid on the model: after each diner announces whether its parity is odd,
    everyone knows whether the NSA paid, and a paying diner stays anonymous."""
    bits = _dc_bits(n)

    def reveal(i: int) -> Formula:
        return xor([atom("paid", i)] + [atom("coin", k, m) for (k, m) in bits if i in (k, m)])

    everyone_kw = conj(KnowsWhether(str(i), atom("paid", 0)) for i in range(1, n + 1))
    anonymous = conj(
        atom("paid", i)
        >> conj(Not(Know(str(k), atom("paid", i))) for k in range(1, n + 1) if k != i)
        for i in range(1, n + 1)
    )
    inner: Formula = And((everyone_kw, anonymous))
    for i in range(n, 0, -1):
        inner = announce_whether(reveal(i), inner)
    return inner
