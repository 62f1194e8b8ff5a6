"""A true deal and every agent's knowledge of it, updated event by event: :class:`DealState`."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from games.cards import CardsLike, Deck
from games.deal.formulas import _as_prop, _eval_prop
from games.deal.knowledge import MAX_MODEL_CARDS, DealKnowledge
from games.errors import (
    CardParseError,
    IllegalActionError,
    InconsistentKnowledgeError,
    InvalidParameterError,
)

__all__ = ["DealState"]


_ALL = None


class DealState:
    """A true deal, every agent's knowledge of it, and the events that change both.

    Parameters
    ----------
    deck : Deck
    deal : mapping from location name to cards
        The true content of every location (empty locations may be listed
        with ``()`` or added later with :meth:`add_location`).
    agents : mapping from agent to the locations it sees, or list of names, optional
        By default every location whose name is not ``pile``, ``kitty``,
        ``undealt``, ``table`` or ``discard`` is an agent's hand, seen by the
        agent of the same name.

    Raises
    ------
    InvalidParameterError
        If the deal does not use every card exactly once.

    Examples
    --------
    >>> from games.cards import Deck
    >>> deck = Deck(["A", "B", "C", "D"])
    >>> st = DealState(deck, {"x": "A B", "y": "C", "pile": "D"}, agents=["x", "y"])
    >>> st.move("A", "x", "pile", seen_by=["x"])   # x plays A face down
    >>> st.knowledge("y").possible("has(pile, B)")
    True
    >>> st.knowledge("y").count()
    3
    """

    _PUBLIC_NAMES = ("pile", "kitty", "undealt", "table", "discard", "play", "trick")

    def __init__(
        self,
        deck: Deck,
        deal: Mapping[str, CardsLike],
        agents: Mapping[str, str | Iterable[str]] | Iterable[str] | None = None,
    ):
        self.deck = deck
        self._deal: dict[str, list[int]] = {}
        seen = [0] * len(deck)
        for loc, cards in deal.items():
            ks = list(deck.kinds(cards)) if cards else []
            for k in ks:
                seen[k] += 1
            self._deal[loc] = ks
        for k, c in enumerate(seen):
            if c != deck.copies[k]:
                raise InvalidParameterError(
                    f"the deal holds {c} copies of {deck.name(k)} but the deck has {deck.copies[k]}"
                )
        if agents is None:
            agents = [n for n in self._deal if n not in self._PUBLIC_NAMES]
        if isinstance(agents, Mapping):
            owns = {str(a): ([v] if isinstance(v, str) else list(v)) for a, v in agents.items()}
        else:
            owns = {str(a): [str(a)] for a in agents}
        for a, ls in owns.items():
            for ll in ls:
                if ll not in self._deal:
                    raise InvalidParameterError(f"agent {a!r} sees unknown location {ll!r}")
        self.agents: tuple[str, ...] = tuple(owns)
        self._owns = owns
        sizes = {loc: len(ks) for loc, ks in self._deal.items()}
        self._know = {a: DealKnowledge(deck, sizes, name=a) for a in owns}
        for kn in self._know.values():
            kn.compact_tables = True
        self._log: list[tuple[Any, ...]] = [("deal", dict(sizes))]
        self._initial = {loc: list(ks) for loc, ks in self._deal.items()}
        for a, ls in owns.items():
            for ll in ls:
                self._know[a].reveal(ll, self._deal[ll])

    def copy(self) -> DealState:
        """An independent copy: events applied to one leave the other as it was.

        Examples
        --------
        >>> from games.cards import Deck
        >>> st = DealState(Deck(["A", "B", "C"]), {"x": "A B", "y": "C", "pile": ""}, ["x", "y"])
        >>> later = st.copy()
        >>> later.move("A", "x", "pile", seen_by=["x"])
        >>> later.knowledge("y").count(), st.knowledge("y").count()
        (2, 1)
        """
        new = DealState.__new__(DealState)
        new.deck = self.deck
        new._deal = {loc: list(ks) for loc, ks in self._deal.items()}
        new.agents = self.agents
        new._owns = {a: list(ls) for a, ls in self._owns.items()}
        new._know = {a: kn.copy() for a, kn in self._know.items()}
        new._log = list(self._log)
        new._initial = {loc: list(ks) for loc, ks in self._initial.items()}
        return new

    # ------------------------------------------------------------- accessors
    def knowledge(self, agent: str) -> DealKnowledge:
        """The knowledge object of ``agent`` (kept up to date by the events)."""
        try:
            return self._know[str(agent)]
        except KeyError:
            raise InvalidParameterError(
                f"unknown agent {agent!r}; agents: {', '.join(self.agents)}"
            ) from None

    @property
    def deal(self) -> dict[str, tuple[str, ...]]:
        """The true content of every location."""
        return {
            loc: tuple(sorted((self.deck.name(k) for k in ks), key=self.deck.index))
            for loc, ks in self._deal.items()
        }

    @property
    def exact(self) -> bool:
        """Whether every agent's knowledge is exact (see :attr:`DealKnowledge.exact`)."""
        return all(k.exact for k in self._know.values())

    @property
    def locations(self) -> tuple[str, ...]:
        return tuple(self._deal)

    def holds(self, formula: Any) -> bool:
        """Truth of a propositional card formula in the true deal."""
        f = _as_prop(formula)
        return _eval_prop(f, lambda loc, card: self._has(loc, card))

    def _has(self, loc: str, card: str) -> bool:
        from kripke.errors import UnknownAtomError

        if loc not in self._deal:
            raise UnknownAtomError(f"has({loc}, {card}): unknown location {loc!r}")
        try:
            k = self.deck.index(card)
        except CardParseError as exc:
            raise UnknownAtomError(f"has({loc}, {card}): {exc}") from None
        return k in self._deal[loc]

    def knows(self, agent: str, formula: Any) -> bool:
        """Whether ``agent`` knows the propositional card formula."""
        return self.knowledge(agent).knows(formula)

    def probability(self, agent: str, formula: Any, *, exact: bool = False) -> float | Fraction:
        """``agent``'s probability of a propositional card formula."""
        return self.knowledge(agent).probability_of(formula, exact=exact)

    # ---------------------------------------------------------------- events
    def _audience(self, who: Iterable[str] | None) -> set[str]:
        if who is None:
            return set(self.agents)
        out = set()
        for a in [who] if isinstance(who, str) else who:
            if str(a) not in self._know:
                raise InvalidParameterError(
                    f"unknown agent {a!r}; agents: {', '.join(self.agents)}"
                )
            out.add(str(a))
        return out

    def _check_loc(self, loc: str) -> None:
        if loc not in self._deal:
            raise InvalidParameterError(
                f"unknown location {loc!r}; locations: {', '.join(self._deal)}"
            )

    def add_location(self, name: str) -> None:
        """Add an empty location for everyone."""
        if name in self._deal:
            raise InvalidParameterError(f"location {name!r} exists")
        for k in self._know.values():
            k.add_location(name)
        self._deal[name] = []
        self._log.append(("add", name))

    def move(
        self, cards: CardsLike, src: str, dst: str, *, seen_by: Iterable[str] | str | None = _ALL
    ) -> None:
        """Cards go from ``src`` to ``dst``; agents in ``seen_by`` (default: all) see which.

        Raises
        ------
        IllegalActionError
            If ``src`` does not hold the cards (nothing changes).
        """
        self._check_loc(src)
        self._check_loc(dst)
        ks = list(self.deck.kinds(cards))
        pool = list(self._deal[src])
        for k in ks:
            if k not in pool:
                raise IllegalActionError(f"{src} does not hold {self.deck.name(k)}")
            pool.remove(k)
        aud = self._audience(seen_by)
        for a, kn in self._know.items():
            if a in aud:
                kn.move(ks, src, dst)
            else:
                kn.move_hidden(src, dst, len(ks))
        self._deal[src] = pool
        self._deal[dst] = self._deal[dst] + ks
        self._log.append(("move", tuple(sorted(ks)), src, dst, frozenset(aud)))

    def move_all(self, src: str, dst: str, *, seen_by: Iterable[str] | str | None = ()) -> None:
        """All cards of ``src`` join ``dst``; agents in ``seen_by`` see them (default: nobody)."""
        self._check_loc(src)
        self._check_loc(dst)
        aud = self._audience(seen_by) if seen_by is not None else set(self.agents)
        for a, kn in self._know.items():
            if a in aud:
                kn.reveal(src, self._deal[src])
            kn.move_all(src, dst)
        self._deal[dst] = self._deal[dst] + self._deal[src]
        self._deal[src] = []
        self._log.append(("move_all", src, dst, frozenset(aud)))

    def reveal(self, location: str, *, to: Iterable[str] | str | None = _ALL) -> None:
        """Agents in ``to`` (default: all) see the whole content of ``location``."""
        self._check_loc(location)
        aud = self._audience(to)
        for a in aud:
            self._know[a].reveal(location, self._deal[location])
        self._log.append(("reveal", location, frozenset(aud)))

    def show(
        self, location: str, cards: CardsLike, *, to: Iterable[str] | str | None = _ALL
    ) -> None:
        """Agents in ``to`` see that ``location`` holds ``cards``.

        Raises
        ------
        IllegalActionError
            If it does not.
        """
        self._check_loc(location)
        ks = list(self.deck.kinds(cards))
        pool = list(self._deal[location])
        for k in ks:
            if k not in pool:
                raise IllegalActionError(f"{location} does not hold {self.deck.name(k)}")
            pool.remove(k)
        aud = self._audience(to)
        for a in aud:
            self._know[a].show(location, ks)
        self._log.append(("show", tuple(sorted(ks)), location, frozenset(aud)))

    def _public(
        self, kind: str, locations: str | Iterable[str], cards: CardsLike, k: int | None
    ) -> None:
        ls = [locations] if isinstance(locations, str) else list(locations)
        for ll in ls:
            self._check_loc(ll)
        ks = sorted(set(self.deck.kinds(cards)))
        have = sum(1 for ll in ls for x in self._deal[ll] if x in ks)
        ok = {
            "void": have == 0,
            "at_least": k is not None and have >= k,
            "at_most": k is not None and have <= k,
            "exactly": have == k,
        }[kind]
        if not ok:
            raise IllegalActionError(
                f"{kind.replace('_', ' ')} {'' if k is None else k} of "
                f"{' '.join(self.deck.name(x) for x in ks)} in {', '.join(ls)} is false "
                f"(they hold {have})"
            )
        for kn in self._know.values():
            if kind == "void":
                for ll in ls:
                    kn.void(ll, ks)
            else:
                getattr(kn, kind)(ls, ks, k)
        self._log.append((kind, tuple(ls), tuple(ks), k))

    def void(self, location: str, cards: CardsLike) -> None:
        """Public fact: ``location`` holds none of ``cards``."""
        self._public("void", location, cards, None)

    def at_least(self, locations: str | Iterable[str], cards: CardsLike, k: int) -> None:
        """Public fact: the locations hold at least ``k`` copies of ``cards``."""
        self._public("at_least", locations, cards, k)

    def at_most(self, locations: str | Iterable[str], cards: CardsLike, k: int) -> None:
        """Public fact: the locations hold at most ``k`` copies of ``cards``."""
        self._public("at_most", locations, cards, k)

    def exactly(self, locations: str | Iterable[str], cards: CardsLike, k: int) -> None:
        """Public fact: the locations hold exactly ``k`` copies of ``cards``."""
        self._public("exactly", locations, cards, k)

    def any_of(self, conditions: Sequence[tuple[str | Iterable[str], CardsLike, int, int]]) -> None:
        """Public fact: at least one condition ``(locations, cards, lo, hi)`` holds, each
        "the locations together hold between ``lo`` and ``hi`` copies of ``cards``"
        (:meth:`DealKnowledge.any_of`).

        Raises
        ------
        IllegalActionError
            If no condition holds in the true deal.
        """
        conds = []
        for locations, cards, lo, hi in conditions:
            ls = [locations] if isinstance(locations, str) else list(locations)
            for ll in ls:
                self._check_loc(ll)
            conds.append((tuple(ls), tuple(sorted(set(self.deck.kinds(cards)))), lo, hi))
        if not _any_holds(self._deal, conds):
            raise IllegalActionError(f"none of the counts {conds} holds in the deal")
        for kn in self._know.values():
            kn.any_of(conds)
        self._log.append(("any_of", tuple(conds)))

    # ------------------------------------------------------------ Kripke model
    def worlds(self) -> list[tuple[dict[str, tuple[int, ...]], tuple[Any, ...], int]]:
        """Every history of the deal consistent with the public events, by brute force.

        Returns a list of ``(deal, observations, multiplicity)``: the current
        content of every location (sorted kind indices), each agent's
        observation sequence, and how many histories led there.  Meant for
        small decks (see :data:`MAX_MODEL_CARDS`).
        """
        if self.deck.total > MAX_MODEL_CARDS:
            raise InvalidParameterError(
                f"explicit models are built for decks of at most {MAX_MODEL_CARDS} cards, "
                f"this one has {self.deck.total}"
            )
        return _enumerate_histories(self.deck, self._log, self.agents, self._owns)

    def kripke_model(self) -> Any:
        """The whole situation as an explicit pointed Kripke model.

        Worlds are the histories of the deal consistent with the public events
        (identified when they agree on the current deal and on every agent's
        observations); agent *a* cannot tell apart worlds where it observed
        the same things; the atoms ``has(location, card)`` describe the
        current deal.  The actual world is the true history.

        Examples
        --------
        >>> from games.cards import Deck
        >>> from kripke import holds
        >>> st = DealState(Deck(["A", "B", "C"]), {"x": "A", "y": "B", "z": "C"})
        >>> pm = st.kripke_model()
        >>> len(pm.model.worlds), holds(pm, "K_x (has(y, B) | has(z, B))")
        (6, True)
        >>> holds(pm, "K_x (K_y has(y, B) | K_z has(z, B))")
        True
        """
        from kripke.models import KripkeModel, PointedModel

        ws = self.worlds()
        start = {loc: list(ks) for loc, ks in self._initial.items()}
        ((true_deal, true_obs),) = _replay(
            self.deck, self._log, self.agents, self._owns, start, True
        )
        truth = _freeze(true_deal)
        labels = []
        val: dict[Any, list[str]] = {}
        classes: dict[str, dict[Any, list[Any]]] = {a: {} for a in self.agents}
        actual = None
        for i, (deal, obs, _) in enumerate(ws):
            lab = f"w{i}"
            labels.append(lab)
            val[lab] = [
                f"has({loc}, {self.deck.name(k)})" for loc, ks in deal.items() for k in set(ks)
            ]
            for j, a in enumerate(self.agents):
                classes[a].setdefault(obs[j], []).append(lab)
            if _freeze(deal) == truth and obs == true_obs:
                actual = lab
        if actual is None:
            raise InconsistentKnowledgeError("the true history is missing from the model")
        atoms = [
            f"has({loc}, {self.deck.name(k)})" for loc in self._deal for k in range(len(self.deck))
        ]
        model = KripkeModel.from_partitions(
            labels, val, {a: list(c.values()) for a, c in classes.items()}, atoms=atoms
        )
        return PointedModel(model, actual)


def _any_holds(deal: Mapping[str, Sequence[int]], conds: Sequence[Any]) -> bool:
    """Whether some ``(locations, kinds, lo, hi)`` of ``conds`` holds in ``deal``."""
    return any(
        lo <= sum(1 for ll in ls for x in deal[ll] if x in ks) <= hi for ls, ks, lo, hi in conds
    )


def _freeze(deal: Mapping[str, Sequence[int]]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    return tuple((loc, tuple(sorted(deal[loc]))) for loc in sorted(deal))


def _submultisets(pool: Sequence[int], n: int) -> list[tuple[int, ...]]:
    return sorted(set(itertools.combinations(sorted(pool), n)))


def _remove(pool: Sequence[int], part: Sequence[int]) -> list[int]:
    out = list(pool)
    for k in part:
        out.remove(k)
    return out


def _replay(
    deck: Deck,
    log: Sequence[tuple[Any, ...]],
    agents: Sequence[str],
    owns: Mapping[str, Sequence[str]],
    start: dict[str, list[int]],
    true_mode: bool,
) -> list[tuple[dict[str, list[int]], tuple[Any, ...]]]:
    """All continuations of an initial deal through the event log (branching on hidden choices)."""
    n = len(agents)
    obs0 = tuple(tuple(("deal", ll, tuple(sorted(start[ll]))) for ll in owns[a]) for a in agents)
    states: list[tuple[dict[str, list[int]], tuple[Any, ...]]] = [(start, obs0)]
    for ev in log[1:]:
        nxt: list[tuple[dict[str, list[int]], tuple[Any, ...]]] = []
        for deal, obs in states:
            kind = ev[0]
            if kind == "add":
                d = dict(deal)
                d[ev[1]] = []
                nxt.append((d, obs))
            elif kind == "move":
                _, ks, src, dst, aud = ev
                choices = (
                    [ks]
                    if (true_mode or set(aud) == set(agents))
                    else _submultisets(deal[src], len(ks))
                )
                for ch in choices:
                    pool = list(deal[src])
                    try:
                        pool = _remove(pool, ch)
                    except ValueError:
                        continue
                    d = dict(deal)
                    d[src] = pool
                    d[dst] = list(deal[dst]) + list(ch)
                    o = tuple(
                        obs[i]
                        + (
                            (("move", src, dst, tuple(sorted(ch))),)
                            if agents[i] in aud
                            else (("move", src, dst, len(ch)),)
                        )
                        for i in range(n)
                    )
                    nxt.append((d, o))
            elif kind == "move_all":
                _, src, dst, aud = ev
                d = dict(deal)
                d[dst] = list(deal[dst]) + list(deal[src])
                d[src] = []
                o = tuple(
                    obs[i]
                    + (
                        (("all", src, dst, tuple(sorted(deal[src]))),)
                        if agents[i] in aud
                        else (("all", src, dst),)
                    )
                    for i in range(n)
                )
                nxt.append((d, o))
            elif kind == "reveal":
                _, loc, aud = ev
                o = tuple(
                    obs[i]
                    + ((("reveal", loc, tuple(sorted(deal[loc]))),) if agents[i] in aud else ())
                    for i in range(n)
                )
                nxt.append((deal, o))
            elif kind == "show":
                _, ks, loc, aud = ev
                choices = (
                    [ks]
                    if (true_mode or set(aud) == set(agents))
                    else _submultisets(deal[loc], len(ks))
                )
                for ch in choices:
                    try:
                        _remove(deal[loc], ch)
                    except ValueError:
                        continue
                    o = tuple(
                        obs[i] + ((("show", loc, tuple(sorted(ch))),) if agents[i] in aud else ())
                        for i in range(n)
                    )
                    nxt.append((deal, o))
            elif kind == "any_of":
                if _any_holds(deal, ev[1]):
                    nxt.append((deal, obs))
            else:
                _, ls, ks, k = ev
                have = sum(1 for ll in ls for x in deal[ll] if x in ks)
                ok = {
                    "void": have == 0,
                    "at_least": k is not None and have >= k,
                    "at_most": k is not None and have <= k,
                    "exactly": have == k,
                }[kind]
                if ok:
                    nxt.append((deal, obs))
        states = nxt
    return states


def _enumerate_histories(
    deck: Deck,
    log: Sequence[tuple[Any, ...]],
    agents: Sequence[str],
    owns: Mapping[str, Sequence[str]],
) -> list[tuple[dict[str, tuple[int, ...]], tuple[Any, ...], int]]:
    sizes: dict[str, int] = log[0][1]
    cards = [k for k in range(len(deck)) for _ in range(deck.copies[k])]
    locs = list(sizes)
    out: dict[Any, list[Any]] = {}
    for start in _all_deals(cards, locs, [sizes[ll] for ll in locs]):
        for deal, obs in _replay(deck, log, agents, owns, start, False):
            key = (_freeze(deal), obs)
            if key in out:
                out[key][2] += 1
            else:
                out[key] = [{ll: tuple(sorted(v)) for ll, v in deal.items()}, obs, 1]
    return [(d, o, m) for d, o, m in out.values()]


def _all_deals(
    cards: Sequence[int], locs: Sequence[str], sizes: Sequence[int]
) -> Iterable[dict[str, list[int]]]:
    def rec(i: int, pool: list[int]) -> Iterable[dict[str, list[int]]]:
        if i == len(locs) - 1:
            yield {locs[i]: list(pool)}
            return
        for part in _submultisets(pool, sizes[i]):
            rest = _remove(pool, part)
            for d in rec(i + 1, rest):
                d[locs[i]] = list(part)
                yield d

    if not locs:
        return []
    return rec(0, sorted(cards))
