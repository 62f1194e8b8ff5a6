"""The explicit Kripke model of a card history, by brute-force enumeration.

Worlds are the histories of the deal consistent with every public event:
an initial deal (how many copies of each card every location holds) and,
at every event an agent did not see in full, one of the possible hidden
choices (which cards were put face down, which were shown).  Agent *a*
cannot tell two histories apart when it observed the same things in both
(perfect recall); histories that agree on the current cards and on every
agent's observations are one world.  The atoms are the card atoms
``has(location, card)`` (``card#k``: at least ``k`` copies) of the current
deal.

This route shares nothing with the symbolic one
(:mod:`games.epistemic.symbolic`) but the history itself, so agreement of
the two on every formula is a test of both.  It is meant for small decks
(:data:`MAX_EXPLICIT_CARDS`).

Examples
--------
>>> from games.cards import Deck
>>> from games.epistemic.history import CardHistory, Move
>>> from kripke import holds
>>> h = CardHistory(Deck(["A", "B", "C"]), {"x": "A", "y": "B", "z": "C", "pile": ""},
...                 ["x", "y", "z"])
>>> h = h.then(Move("A", "x", "pile", seen_by=["x"]))
>>> pm = explicit_model(h)
>>> holds(pm, "K_x has(pile, A) & ~K_y has(pile, A) & K_y (has(pile, A) | has(pile, C))")
True
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from games.deal import evaluate
from games.epistemic.history import CardHistory, card_key
from games.errors import InvalidParameterError

__all__ = ["explicit_model", "histories", "MAX_EXPLICIT_CARDS", "MAX_HISTORIES"]

#: Largest deck (physical cards) the explicit route enumerates.
MAX_EXPLICIT_CARDS = 12
#: Largest number of histories the explicit route keeps.
MAX_HISTORIES = 400_000

Deal = tuple[tuple[int, ...], ...]  # per location (in history order): sorted kinds


def _submultisets(pool: Sequence[int], n: int) -> list[tuple[int, ...]]:
    return sorted(set(itertools.combinations(sorted(pool), n)))


def _minus(pool: Sequence[int], part: Sequence[int]) -> tuple[int, ...] | None:
    out = list(pool)
    for k in part:
        try:
            out.remove(k)
        except ValueError:
            return None
    return tuple(out)


def _initial_deals(h: CardHistory) -> Iterator[dict[str, tuple[int, ...]]]:
    public = set(h.public_locations())
    pool = [k for k in range(len(h.deck)) for _ in range(h.deck.copies[k])]
    for loc in public:
        left = _minus(pool, h.initial[loc])
        assert left is not None
        pool = list(left)
    free = [loc for loc in h.locations if loc not in public]
    sizes = [len(h.initial[loc]) for loc in free]

    def rec(i: int, rest: tuple[int, ...]) -> Iterator[dict[str, tuple[int, ...]]]:
        if i == len(free):
            if not rest:
                yield {}
            return
        for part in _submultisets(rest, sizes[i]):
            left = _minus(rest, part)
            assert left is not None
            for d in rec(i + 1, left):
                d[free[i]] = part
                yield d

    for d in rec(0, tuple(sorted(pool))):
        for loc in public:
            d[loc] = h.initial[loc]
        yield d


def histories(
    h: CardHistory,
) -> list[tuple[dict[str, tuple[int, ...]], tuple[tuple[Any, ...], ...]]]:
    """Every history consistent with the public events: ``(current deal, observations)``.

    ``observations[i]`` is the observation sequence of agent ``h.agents[i]``.

    Raises
    ------
    InvalidParameterError
        If the deck has more than :data:`MAX_EXPLICIT_CARDS` cards.
    kripke.errors.SizeLimitError
        If there are more than :data:`MAX_HISTORIES` histories.
    """
    from kripke.errors import SizeLimitError

    if h.deck.total > MAX_EXPLICIT_CARDS:
        raise InvalidParameterError(
            f"explicit models are enumerated for decks of at most {MAX_EXPLICIT_CARDS} cards, "
            f"this one has {h.deck.total}; use the knowledge structure"
        )
    agents = h.agents
    n = len(agents)
    steps = h.steps
    out: list[tuple[dict[str, tuple[int, ...]], tuple[tuple[Any, ...], ...]]] = []
    for start in _initial_deals(h):
        obs0 = tuple(tuple(("deal", loc, start[loc]) for loc in h.owns[a]) for a in agents)
        frontier: list[tuple[dict[str, tuple[int, ...]], tuple[tuple[Any, ...], ...]]] = [
            (start, obs0)
        ]
        for st in steps:
            nxt: list[tuple[dict[str, tuple[int, ...]], tuple[tuple[Any, ...], ...]]] = []
            for deal, obs in frontier:
                for deal2, tokens in _branch(h, st, deal):
                    obs2 = tuple(obs[i] + tokens[i] for i in range(n))
                    nxt.append((deal2, obs2))
            frontier = nxt
            if len(frontier) > MAX_HISTORIES:
                raise SizeLimitError(
                    f"more than {MAX_HISTORIES} histories; the explicit route is for small decks"
                )
        out.extend(frontier)
        if len(out) > MAX_HISTORIES:
            raise SizeLimitError(
                f"more than {MAX_HISTORIES} histories; the explicit route is for small decks"
            )
    return out


def _branch(
    h: CardHistory, st: Any, deal: dict[str, tuple[int, ...]], forced: bool = False
) -> Iterator[tuple[dict[str, tuple[int, ...]], tuple[tuple[Any, ...], ...]]]:
    """The continuations of one history through one event, with each agent's new tokens
    (``forced``: only the true choice)."""
    agents = h.agents

    def sees(a: str, aud: frozenset[str] | None) -> bool:
        return aud is None or a in aud

    if st.kind == "move":
        if st.audience is None or forced:  # everybody sees the true cards
            choices = [st.kinds]
        else:
            choices = _submultisets(deal[st.src], len(st.kinds))
        for ch in choices:
            rest = _minus(deal[st.src], ch)
            if rest is None:
                continue
            d = dict(deal)
            d[st.src] = rest
            d[st.dst] = tuple(sorted(deal[st.dst] + ch))
            tok: tuple[Any, ...] = tuple(
                (("move", st.src, st.dst, ch),)
                if sees(a, st.audience)
                else (("move", st.src, st.dst, len(ch)),)
                for a in agents
            )
            yield d, tok
    elif st.kind == "all":
        content = deal[st.src]
        if st.audience is None and content != st.content:
            return  # everybody saw the true content
        d = dict(deal)
        d[st.dst] = tuple(sorted(deal[st.dst] + content))
        d[st.src] = ()
        tok = tuple(
            (("all", st.src, st.dst, content),)
            if sees(a, st.audience)
            else (("all", st.src, st.dst),)
            for a in agents
        )
        yield d, tok
    elif st.kind == "reveal":
        content = deal[st.src]
        if st.audience is None and content != st.content:
            return
        tok = tuple((("reveal", st.src, content),) if sees(a, st.audience) else () for a in agents)
        yield deal, tok
    elif st.kind == "show":
        if st.audience is None or forced:
            choices = [st.kinds]
        else:
            choices = _submultisets(deal[st.src], len(st.kinds))
        for ch in choices:
            if _minus(deal[st.src], ch) is None:
                continue
            tok = tuple((("show", st.src, ch),) if sees(a, st.audience) else () for a in agents)
            yield deal, tok
    elif st.kind == "count":
        have = sum(1 for loc in st.locations for k in deal[loc] if k in st.kinds)
        if st.lo <= have <= st.hi:
            yield deal, tuple(() for _ in agents)
    elif st.kind == "fact":
        counts = {loc: Counter(ks) for loc, ks in deal.items()}
        if evaluate(st.formula, lambda a: _has(h, counts, a)):
            yield deal, tuple(() for _ in agents)
    else:  # pragma: no cover - the history checks the kinds
        raise InvalidParameterError(f"unknown event kind {st.kind!r}")


def _has(h: CardHistory, counts: dict[str, Counter[int]], a: Any) -> bool:
    loc, k, j = h.atom_cell(a)
    return counts[loc][k] >= j


def _true_history(h: CardHistory) -> tuple[dict[str, tuple[int, ...]], tuple[tuple[Any, ...], ...]]:
    """The actual history's current deal and observations (every choice the true one)."""
    agents = h.agents
    deal = dict(h.initial)
    obs = tuple(tuple(("deal", loc, deal[loc]) for loc in h.owns[a]) for a in agents)
    for st in h.steps:
        ((deal, tok),) = list(_branch(h, st, deal, forced=True))
        obs = tuple(obs[i] + tok[i] for i in range(len(agents)))
    return deal, obs


def explicit_model(h: CardHistory) -> Any:
    """The pointed explicit Kripke model of a card history.

    Returns
    -------
    kripke.models.PointedModel
        Worlds labelled ``w0``, ``w1``, …; the actual world is the true
        history.

    Raises
    ------
    InvalidParameterError, kripke.errors.SizeLimitError
        For decks or histories too large to enumerate.
    """
    from kripke.models import KripkeModel, PointedModel

    hs = histories(h)
    true_deal, true_obs = _true_history(h)
    index: dict[Any, int] = {}
    labels: list[str] = []
    val: dict[str, list[str]] = {}
    classes: list[dict[Any, list[str]]] = [{} for _ in h.agents]
    for deal, obs in hs:
        key = (tuple(deal[loc] for loc in h.locations), obs)
        if key in index:
            continue
        index[key] = len(labels)
        lab = f"w{len(labels)}"
        labels.append(lab)
        val[lab] = _valuation(h, deal)
        for i in range(len(h.agents)):
            classes[i].setdefault(obs[i], []).append(lab)
    actual = index.get((tuple(true_deal[loc] for loc in h.locations), true_obs))
    if actual is None:  # pragma: no cover - the true history is always enumerated
        raise InvalidParameterError("the true history is missing from the enumeration")
    model = KripkeModel.from_partitions(
        labels,
        val,
        {a: list(classes[i].values()) for i, a in enumerate(h.agents)},
        atoms=h.atoms(),
    )
    return PointedModel(model, labels[actual])


def _valuation(h: CardHistory, deal: dict[str, tuple[int, ...]]) -> list[str]:
    out = []
    names = h.deck.names
    copies = h.deck.copies
    for loc in h.locations:
        for k, c in Counter(deal[loc]).items():
            for j in range(1, c + 1):
                out.append(f"has({loc}, {card_key(names[k], j, copies[k])})")
    return out
