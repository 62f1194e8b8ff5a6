"""Card deals as Kripke models: labels, pictures and belief data from a deal model.

A deal model has one atom ``has(loc, card)`` per location and card (the
library's card atoms); a world is a deal.  These helpers read those atoms, so
they work on any such model — one built by hand with
:meth:`~kripke.models.KripkeModel.from_observations` or the explicit model
of a small deal from the card-deal knowledge module.

Examples
--------
>>> from visualize.cards import belief_from_model, deal_model_example, deal_world_labels
>>> pm = deal_model_example()
>>> labels = deal_world_labels(pm.model)
>>> labels(pm.actual)
'0|1|2'
>>> belief_from_model(pm, "b").probabilities[0]      # b holds card 1: card 0 is a's or c's
(Fraction(1, 2), Fraction(0, 1), Fraction(1, 2))
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations
from typing import Any

import numpy as np
from matplotlib.axes import Axes

from kripke.errors import UnknownAgentError
from kripke.formulas import Atom
from kripke.models import KripkeModel, PointedModel
from kripke.parser import parse
from visualize.errors import VisualizeError

__all__ = [
    "card_atoms",
    "deal_world_labels",
    "draw_deal_model",
    "Belief",
    "belief_of",
    "belief_from_model",
    "count_history",
    "deal_model_example",
    "Timeline",
    "replay_knowledge",
]


def card_atoms(model: KripkeModel) -> dict[str, tuple[str, str]]:
    """The model's ``has(loc, card)`` atoms as ``{atom key: (loc, card)}``.

    Raises
    ------
    VisualizeError
        If the model has no card atoms.
    """
    out: dict[str, tuple[str, str]] = {}
    for key in model.atoms:
        f = parse(key)
        if isinstance(f, Atom) and f.name == "has" and len(f.args) == 2:
            out[key] = (f.args[0], f.args[1])
    if not out:
        raise VisualizeError(
            "the model has no has(location, card) atoms; it is not a card-deal model"
        )
    return out


def _locations_and_cards(
    model: KripkeModel, locations: Sequence[str] | None = None
) -> tuple[list[str], list[str], dict[str, tuple[str, str]]]:
    atoms = card_atoms(model)
    locs: list[str] = []
    cards: list[str] = []
    for loc, c in atoms.values():
        if loc not in locs:
            locs.append(loc)
        if c not in cards:
            cards.append(c)
    # seats in the model's agent order first, then the other locations
    locs = [a for a in model.agents if a in locs] + [loc for loc in locs if loc not in model.agents]
    if locations is not None:
        for loc in locations:
            if str(loc) not in locs:
                raise VisualizeError(
                    f"no card atoms for location {loc!r}; the model's locations are {locs}"
                )
        locs = [str(loc) for loc in locations]
    return locs, cards, atoms


def deal_world_labels(
    model: KripkeModel, locations: Sequence[str] | None = None, sep: str = "|"
) -> Callable[[Hashable], str]:
    """A label function for :func:`~visualize.models.draw_model`: each world's cards
    location by location (``"AS KH|QD|-"``; ``-`` for an empty location)."""
    locs, _, atoms = _locations_and_cards(model, locations)
    by_loc: dict[str, list[int]] = {loc: [] for loc in locs}
    cards_of_row: list[str] = []
    for row, key in enumerate(model.atoms):
        cards_of_row.append(atoms[key][1] if key in atoms else "")
        if key in atoms and atoms[key][0] in by_loc:
            by_loc[atoms[key][0]].append(row)
    val = model.valuation_matrix

    def label(world: Hashable) -> str:
        i = model.index(world)
        parts = []
        for loc in locs:
            held = [cards_of_row[r] for r in by_loc[loc] if val[r, i]]
            parts.append(" ".join(held) or "-")
        return sep.join(parts)

    return label


def draw_deal_model(
    target: KripkeModel | PointedModel,
    ax: Axes | None = None,
    *,
    seat: str | None = None,
    locations: Sequence[str] | None = None,
    **kwargs: Any,
) -> Axes:
    """Draw a small deal model: worlds labelled by the cards at each location.

    Parameters
    ----------
    target : KripkeModel or PointedModel
        A model with ``has(loc, card)`` atoms.
    seat : str, optional
        Lay the worlds out in rows of this agent's classes: the deals it
        cannot tell apart side by side.
    locations : sequence of str, optional
        The locations in the labels, in order (default: the seats in the
        model's agent order, then the other locations).
    **kwargs
        Passed to :func:`~visualize.models.draw_model` (``shade``,
        ``agents``, ``title``, ``max_worlds``, ...).

    Returns
    -------
    matplotlib.axes.Axes
    """
    from visualize.models import draw_model

    model = target.model if isinstance(target, PointedModel) else target
    labels = deal_world_labels(model, locations)
    locs, _, _ = _locations_and_cards(model, locations)
    if seat is not None and str(seat) not in model.agents:
        raise UnknownAgentError(
            f"unknown agent {seat!r}; the model's agents are {', '.join(model.agents)}"
        )
    kwargs.setdefault("layout", "classes" if seat is not None else "auto")
    title = kwargs.pop("title", None)
    caption_title = f"deals: cards of {' | '.join(locs)}"
    ax = draw_model(
        target,
        ax,
        labels=labels,
        by=str(seat) if seat is not None else None,
        title=title or caption_title,
        **kwargs,
    )
    return ax


@dataclass(frozen=True)
class Belief:
    """One seat's exact belief about where the cards are.

    ``probabilities[i][j]`` is the probability that ``cards[i]`` lies at
    ``locations[j]``; for a deck with copies, the expected number of copies
    there (between 0 and ``copies[i]``).  ``deals`` is the number of deals
    the seat considers possible.
    """

    seat: str
    cards: tuple[str, ...]
    locations: tuple[str, ...]
    probabilities: tuple[tuple[Fraction, ...], ...]
    deals: int
    copies: tuple[int, ...] = ()
    groups: tuple[str, ...] | None = None
    known: tuple[tuple[bool, ...], ...] | None = None

    def draw(self, ax: Axes | None = None, *, hide_empty: bool = True, **kwargs: Any) -> Axes:
        """:func:`~visualize.knowledge.draw_belief` of this belief (cards grouped by suit
        for decks of more than 16 cards; locations that surely hold none of the
        cards left out unless ``hide_empty`` is false)."""
        from visualize.knowledge import draw_belief

        cols = [
            j
            for j in range(len(self.locations))
            if not hide_empty or any(row[j] for row in self.probabilities)
        ]
        kwargs.setdefault("title", f"{self.seat}'s belief ({self.deals:,} deals possible)")
        if self.groups is not None and len(self.cards) > 16:
            kwargs.setdefault("groups", self.groups)
        if self.copies and max(self.copies) > 1:
            kwargs.setdefault("copies", self.copies)
        if self.known is not None:
            kwargs.setdefault("known", [[row[j] for j in cols] for row in self.known])
        return draw_belief(
            [[row[j] for j in cols] for row in self.probabilities],
            self.cards,
            [self.locations[j] for j in cols],
            ax,
            **kwargs,
        )


def belief_of(knowledge: Any, seat: str | None = None) -> Belief:
    """The belief held in a :class:`games.deal.DealKnowledge`: exact marginals
    over the deck's cards and the knowledge's locations.

    A cell is *known* when the seat is certain how many copies of the card
    the location holds, and that number is not zero (with one copy per card:
    the seat knows the card is there).

    Parameters
    ----------
    knowledge : games.deal.DealKnowledge
    seat : str, optional
        Name shown in titles (default: the knowledge's agent name).
    """
    deck = knowledge.deck
    marg = knowledge.marginals(exact=True)
    cards = tuple(deck.name(k) for k in range(len(deck)))
    suits = tuple(deck.suit_of(k) or "" for k in range(len(deck)))
    known = None
    if max(deck.copies) > 1:
        known = tuple(
            tuple(
                bool(
                    marg[k][j] > 0
                    and Fraction(marg[k][j]).denominator == 1
                    and _certain(knowledge, k, loc)
                )
                for j, loc in enumerate(knowledge.locations)
            )
            for k in range(len(deck))
        )
    return Belief(
        str(seat if seat is not None else knowledge.name or "agent"),
        cards,
        tuple(knowledge.locations),
        tuple(tuple(Fraction(x) for x in row) for row in marg),
        int(knowledge.count()),
        tuple(int(c) for c in deck.copies),
        suits if any(suits) else None,
        known,
    )


def _certain(knowledge: Any, kind: int, location: str) -> bool:
    """Whether the number of copies of a card at a location is the same in every deal."""
    dist = knowledge.count_distribution([kind], location)
    return max(dist) > 1 - 1e-12


def belief_from_model(
    target: PointedModel, seat: str, locations: Sequence[str] | None = None
) -> Belief:
    """Belief of ``seat`` at the actual deal of a deal model, every deal it
    considers possible equally likely.

    An independent route to the exact marginals of the card-deal module:
    the probability that card *c* is at location *l* is the fraction of the
    seat's accessible worlds where ``has(l, c)`` holds.
    """
    if not isinstance(target, PointedModel):
        raise VisualizeError("belief_from_model needs a PointedModel (the actual deal)")
    model = target.model
    locs, cards, atoms = _locations_and_cards(model, locations)
    idx = np.array([model.index(w) for w in model.accessible(str(seat), target.actual)])
    val = model.valuation_matrix
    where = {v: k for k, v in atoms.items()}
    probs = []
    for c in cards:
        row = []
        for loc in locs:
            key = where.get((loc, c))
            hits = int(val[model.atoms.index(key), idx].sum()) if key is not None else 0
            row.append(Fraction(hits, len(idx)))
        probs.append(tuple(row))
    return Belief(str(seat), tuple(cards), tuple(locs), tuple(probs), len(idx), (1,) * len(cards))


def count_history(
    steps: Sequence[PointedModel], agents: Sequence[str] | None = None
) -> dict[str, list[int]]:
    """For a sequence of pointed models (a game's successive deal models), how
    many worlds each agent considers possible at each step: the data of
    :func:`~visualize.knowledge.draw_knowledge_timeline`."""
    if not steps:
        raise VisualizeError("no models to count")
    names = list(steps[0].model.agents) if agents is None else [str(a) for a in agents]
    return {a: [len(pm.model.accessible(a, pm.actual)) for pm in steps] for a in names}


def deal_model_example(
    cards: Sequence[str] = ("0", "1", "2"), seats: Sequence[str] = ("a", "b", "c")
) -> PointedModel:
    """Every deal of one card per seat, each seat seeing its own card; the actual
    deal gives ``cards[i]`` to ``seats[i]``.

    With three cards and three seats this is the six-world model of van
    Ditmarsch, van der Hoek & Kooi, *Dynamic Epistemic Logic* (2007), §2.
    """
    if len(cards) != len(seats):
        raise VisualizeError(f"{len(cards)} cards for {len(seats)} seats: deal one card each")
    worlds = list(permutations(cards))
    valuation = {w: [f"has({s}, {c})" for s, c in zip(seats, w, strict=True)] for w in worlds}
    observes = {s: [f"has({s}, {c})" for c in cards] for s in seats}
    model = KripkeModel.from_observations(worlds, valuation, observes)
    return PointedModel(model, tuple(cards))


# ------------------------------------------------------------- game replays
@dataclass(frozen=True)
class Timeline:
    """Deals each seat considers possible after each step of a game.

    ``counts[seat][t]`` is the count after the ``t``-th recorded step, which
    is step ``steps[t]`` of the game's history (0: before the first recorded
    action); ``events`` are ``(t, text)`` marks.
    """

    counts: dict[str, list[int]]
    steps: list[int]
    events: list[tuple[int, str]]

    def draw(self, ax: Axes | None = None, **kwargs: Any) -> Axes:
        """:func:`~visualize.knowledge.draw_knowledge_timeline` of this timeline."""
        from visualize.knowledge import draw_knowledge_timeline

        kwargs.setdefault("xlabel", "action")
        return draw_knowledge_timeline(self.counts, ax, events=self.events, **kwargs)


def replay_knowledge(
    state: Any,
    follower: Callable[[int], Any],
    *,
    seats: Sequence[int] | None = None,
    names: Sequence[str] | None = None,
    start: int = 0,
    stop: int | None = None,
    mark: Callable[[Any, int, int], str | None] | None = None,
    decisions_only: bool = True,
) -> Timeline:
    """Replay a game's history and count, after each step, the deals every seat
    considers possible.

    Parameters
    ----------
    state : games.base.State
        A state whose :meth:`~games.base.State.history` is replayed from
        ``state.game.new_initial_state()``.
    follower : callable ``seat -> follower``
        Makes the object that follows one seat's observations: it has
        ``observe(observation)`` and a ``knowledge`` attribute or method
        giving the seat's :class:`~games.deal.DealKnowledge` — e.g.
        ``lambda seat: SeatKnowledge(game, seat, exact=True)`` for BS or
        ``lambda seat: SeatView(game.params, seat)`` for BoerenBridge.  It
        receives that seat's observations and nothing else.
    seats : sequence of int, optional
        The seats to follow (default: all).
    names : sequence of str, optional
        Their names in the picture (default ``P0``, ``P1``, …).
    start, stop : int
        The slice of the history to record: counts start after action
        ``start`` (with ``decisions_only``, after the chance actions that
        follow it, such as the deal) and stop after action ``stop``.
    mark : callable ``(state, player, action) -> str or None``, optional
        Called before each recorded action; a text marks the step (a call,
        a trick won).
    decisions_only : bool
        Record only after the players' actions, not after chance.

    Returns
    -------
    Timeline
    """
    history = state.history()
    stop = len(history) if stop is None else stop
    if not 0 <= start <= stop <= len(history):
        raise VisualizeError(
            f"cannot replay actions {start}..{stop} of a history of {len(history)} actions"
        )
    replay = state.game.new_initial_state()
    n = replay.num_players()
    follow = list(range(n)) if seats is None else [int(s) for s in seats]
    labels = [f"P{s}" for s in follow] if names is None else [str(x) for x in names]
    if len(labels) != len(follow):
        raise VisualizeError(f"{len(labels)} names for {len(follow)} seats")
    followers = {s: follower(s) for s in follow}
    seen = dict.fromkeys(follow, 0)

    def catch_up() -> None:
        for s in follow:
            obs = replay.observations(s)
            for o in obs[seen[s] :]:
                followers[s].observe(o)
            seen[s] = len(obs)

    def record(into: dict[str, list[int]]) -> None:
        catch_up()
        for s, label in zip(follow, labels, strict=True):
            k = followers[s].knowledge
            k = k() if callable(k) else k
            if k is None:
                raise VisualizeError(f"the follower of seat {s} keeps no deal knowledge")
            into[label].append(int(k.count()))

    first = start
    for a in history[:start]:
        replay.apply_action(a)
    while decisions_only and first < stop and replay.current_player() < 0:
        replay.apply_action(history[first])  # the deal: counts start once it is done
        first += 1
    counts: dict[str, list[int]] = {label: [] for label in labels}
    steps = [first]
    events: list[tuple[int, str]] = []
    record(counts)
    for t in range(first, stop):
        player = replay.current_player()
        action = history[t]
        text = mark(replay, player, action) if mark is not None else None
        replay.apply_action(action)
        if decisions_only and player < 0:
            continue
        record(counts)
        steps.append(t + 1)
        if text:
            events.append((len(steps) - 1, text))
    return Timeline(counts, steps, events)
