"""A card history as a sequence of dynamic-epistemic updates.

Every event of a :class:`~games.epistemic.history.CardHistory` is one
update of the model of the deal:

* a public fact (:class:`~games.epistemic.history.Count`,
  :class:`~games.epistemic.history.Fact`, a location revealed or cards shown
  to everybody) is a public announcement;
* every other event is an action model (:class:`kripke.updates.ActionModel`)
  with one event per possible hidden content — which cards were put face
  down, what a location held — whose preconditions say the cards were
  there and whose postconditions move them (factual change of the card
  atoms).  The audience tells the events apart; everybody else cannot.

Applied one after the other to the model of the initial deal (each agent
sees its own hand) with :func:`kripke.updates.announce` and
:func:`kripke.updates.product_update`, these updates give a model that
answers every formula as the enumeration of histories
(:mod:`games.epistemic.explicit`) and the knowledge structure
(:mod:`games.epistemic.symbolic`) do: the product update is exactly
synchronous perfect recall.  Action models list their events, so this
route is for small decks; :func:`games.epistemic.game_updates` steps
through a full-size game with the knowledge structures instead.

Examples
--------
>>> from games.cards import Deck
>>> from games.epistemic.history import CardHistory, Move
>>> from kripke import holds
>>> h = CardHistory(Deck(["A", "B", "C"]), {"x": "A B", "y": "C", "pile": ""}, ["x", "y"])
>>> h = h.then(Move("A", "x", "pile", seen_by=["x"]))
>>> u = event_update(h, 0)
>>> u.kind, len(u.action.events)
('action', 3)
>>> pm = apply_updates(h)
>>> holds(pm, "K_x has(pile, A) & ~K_y has(pile, A) & K_y ~has(pile, C)")
True
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from games.epistemic.history import CardHistory, _Step, card_key
from games.errors import InvalidParameterError

__all__ = [
    "Update",
    "event_update",
    "initial_model",
    "apply_update",
    "apply_updates",
    "explicit_steps",
    "MAX_EVENTS",
]

#: Largest number of events an action model of this module lists.
MAX_EVENTS = 5000


@dataclass(frozen=True)
class Update:
    """One event of a history as an update of the model.

    Attributes
    ----------
    kind : {"announce", "action"}
    formula : Formula or None
        The announced formula (``kind == "announce"``).
    action : ActionModel or None
        The action model (``kind == "action"``).
    actual : str or None
        The event of the action model that happened.
    """

    kind: str
    formula: Any = None
    action: Any = None
    actual: str | None = None

    def __str__(self) -> str:
        if self.kind == "announce":
            return f"[!{self.formula}]"
        return f"[{self.action.name},{self.actual}] ({len(self.action.events)} events)"


# ----------------------------------------------------------------- atoms
def _ge(h: CardHistory, loc: str, k: int, j: int) -> Any:
    from kripke.formulas import BOT, TOP, Atom

    m = h.deck.copies[k]
    if j <= 0:
        return TOP
    if j > m:
        return BOT
    return Atom("has", (loc, card_key(h.deck.name(k), j, m)))


def _conj(fs: Sequence[Any]) -> Any:
    from kripke.formulas import TOP, And

    fs = [f for f in fs if f is not TOP]
    if not fs:
        return TOP
    return fs[0] if len(fs) == 1 else And(tuple(fs))


def _disj(fs: Sequence[Any]) -> Any:
    from kripke.formulas import BOT, Or

    fs = [f for f in fs if f is not BOT]
    if not fs:
        return BOT
    return fs[0] if len(fs) == 1 else Or(tuple(fs))


def _eq(h: CardHistory, loc: str, k: int, c: int) -> Any:
    from kripke.formulas import BOT, Not

    hi = _ge(h, loc, k, c + 1)
    return _conj([_ge(h, loc, k, c), Not(hi) if hi is not BOT else _ge(h, loc, k, 0)])


def _holds(h: CardHistory, loc: str, cards: Sequence[int], exact: bool) -> Any:
    """``loc`` holds ``cards`` (at least, or exactly)."""
    c = Counter(cards)
    kinds = range(len(h.deck)) if exact else sorted(c)
    if exact:
        return _conj([_eq(h, loc, k, c[k]) for k in kinds])
    return _conj([_ge(h, loc, k, c[k]) for k in kinds])


def _at_least(atoms: Sequence[Any], t: int) -> Any:
    """At least ``t`` of ``atoms`` are true (a formula with shared parts)."""
    from kripke.formulas import BOT, TOP

    memo: dict[tuple[int, int], Any] = {}

    def go(i: int, need: int) -> Any:
        if need <= 0:
            return TOP
        if len(atoms) - i < need:
            return BOT
        key = (i, need)
        if key not in memo:
            memo[key] = _disj([_conj([atoms[i], go(i + 1, need - 1)]), go(i + 1, need)])
        return memo[key]

    return go(0, t)


def _submultisets(h: CardHistory, pool: Sequence[int], n: int) -> list[tuple[int, ...]]:
    return sorted(set(itertools.combinations(sorted(pool), n)))


def _all_cards(h: CardHistory) -> list[int]:
    return [k for k in range(len(h.deck)) for _ in range(h.deck.copies[k])]


# ---------------------------------------------------------------- updates
def event_update(h: CardHistory, i: int) -> Update:
    """The update of event ``i`` of the history (0-based).

    Raises
    ------
    kripke.errors.SizeLimitError
        If the action model would list more than :data:`MAX_EVENTS` events.
    """
    from kripke.errors import SizeLimitError
    from kripke.formulas import BOT, TOP, Not
    from kripke.updates import ActionModel

    if not 0 <= i < len(h.steps):
        raise InvalidParameterError(f"the history has events 0..{len(h.steps) - 1}, not {i}")
    st: _Step = h.steps[i]
    sizes = h.sizes(i)
    name = f"E{i}"

    def model(events: list[tuple[tuple[int, ...], Any, dict[str, Any]]], actual: int) -> Update:
        if len(events) > MAX_EVENTS:
            raise SizeLimitError(
                f"event {i} has {len(events)} possible hidden contents, more than "
                f"{MAX_EVENTS}; step through large games with the knowledge structures"
            )
        names = [f"e{j}" for j in range(len(events))]
        pre = {names[j]: events[j][1] for j in range(len(events))}
        post = {names[j]: events[j][2] for j in range(len(events)) if events[j][2]}
        rel: dict[str, Any] = {}
        for a in h.agents:
            if st.audience is None or a in st.audience:
                rel[a] = [[e] for e in names]
            else:
                rel[a] = [names]
        A = ActionModel(name, pre, rel, (post or None))  # type: ignore[arg-type]
        return Update("action", action=A, actual=names[actual])

    def shift(src: str, dst: str | None, cards: Sequence[int]) -> dict[str, Any]:
        post: dict[str, Any] = {}
        for k, a in Counter(cards).items():
            m = h.deck.copies[k]
            for j in range(1, m + 1):
                post[_ge(h, src, k, j).key] = _ge(h, src, k, j + a)
                if dst is not None:
                    post[_ge(h, dst, k, j).key] = _ge(h, dst, k, j - a)
        return post

    if st.kind == "move":
        n = len(st.kinds)
        choices = [st.kinds] if st.audience is None else _submultisets(h, _all_cards(h), n)
        events = [(c, _holds(h, st.src, c, exact=False), shift(st.src, st.dst, c)) for c in choices]
        return model(events, choices.index(st.kinds))
    if st.kind in ("all", "reveal"):
        loc = st.src
        if st.audience is None:
            formula = _holds(h, loc, st.content, exact=True)
            if st.kind == "reveal":
                return Update("announce", formula=formula)
            return model([(st.content, formula, shift(loc, st.dst, st.content))], 0)
        contents = _submultisets(h, _all_cards(h), sizes[loc])
        events = []
        for c in contents:
            post = shift(loc, st.dst, c) if st.kind == "all" else {}
            events.append((c, _holds(h, loc, c, exact=True), post))
        return model(events, contents.index(tuple(sorted(st.content))))
    if st.kind == "show":
        if st.audience is None:
            return Update("announce", formula=_holds(h, st.src, st.kinds, exact=False))
        choices = _submultisets(h, _all_cards(h), len(st.kinds))
        events = [(c, _holds(h, st.src, c, exact=False), {}) for c in choices]
        return model(events, choices.index(st.kinds))
    if st.kind == "count":
        atoms = [
            _ge(h, loc, k, j)
            for loc in st.locations
            for k in st.kinds
            for j in range(1, h.deck.copies[k] + 1)
        ]
        upper = _at_least(atoms, st.hi + 1)
        return Update(
            "announce",
            formula=_conj([_at_least(atoms, st.lo), TOP if upper is BOT else Not(upper)]),
        )
    if st.kind == "fact":
        return Update("announce", formula=st.formula)
    raise InvalidParameterError(f"unknown event kind {st.kind!r}")  # pragma: no cover


def initial_model(h: CardHistory) -> Any:
    """The pointed explicit model of the initial deal: worlds are deals, each agent
    sees its own locations."""
    from games.epistemic.explicit import _initial_deals, _valuation
    from kripke.models import KripkeModel, PointedModel

    labels: list[str] = []
    val: dict[str, list[str]] = {}
    classes: dict[str, dict[Any, list[str]]] = {a: {} for a in h.agents}
    actual = None
    for d in _initial_deals(h):
        lab = f"d{len(labels)}"
        labels.append(lab)
        val[lab] = _valuation(h, d)
        for a in h.agents:
            classes[a].setdefault(tuple(d[loc] for loc in h.owns[a]), []).append(lab)
        if all(d[loc] == h.initial[loc] for loc in h.locations):
            actual = lab
    model = KripkeModel.from_partitions(
        labels, val, {a: list(c.values()) for a, c in classes.items()}, atoms=h.atoms()
    )
    return PointedModel(model, actual)


def apply_update(target: Any, update: Update) -> Any:
    """Apply one update to a pointed model or pointed structure."""
    from kripke.updates import announce, product_update

    if update.kind == "announce":
        return announce(target, update.formula)
    if update.actual is None:
        raise InvalidParameterError("an action update names the event that happened")
    return product_update(target, update.action, [update.actual])


def explicit_steps(h: CardHistory) -> Iterator[tuple[int, Update | None, Any]]:
    """The explicit pointed model after every event, by DEL updates.

    Yields ``(i, update, model)``: ``i = 0`` is the initial deal (no
    update), then one step per event.
    """
    from kripke.updates import minimize

    pm = initial_model(h)
    yield 0, None, pm
    for i in range(len(h.steps)):
        u = event_update(h, i)
        pm = apply_update(pm, u)
        pm = minimize(pm)
        yield i + 1, u, pm


def apply_updates(h: CardHistory) -> Any:
    """The explicit pointed model after the whole history, by DEL updates."""
    *_, (_, _, last) = explicit_steps(h)
    return last
