"""What BS seats know: exact deal knowledge per seat, and BS histories as epistemic models.

:class:`SeatKnowledge` turns one seat's observations into exact deal
knowledge (:mod:`games.deal`); :meth:`SeatKnowledge.lie_probability` is the
seat's exact probability that an open claim cannot be honest.

BS game states as card histories: claims are not facts, calls reveal.

:func:`bs_card_history` reads a BS state (:mod:`games.bs.state`, both variants)
from its seats' observation streams and describes its cards to
:mod:`games.epistemic`.  Locations: the hands ``P0`` …, the ``pile`` and the
open ``play`` (the cards put down and not yet settled).  Agents: the seats
``P0`` …, each seeing its own hand from the deal.

=========================  ============================================================
game event                 card event
=========================  ============================================================
first card (classic)       the card moves face up from the player to the pile
play                       the cards move face down to ``play``; only the player sees
                           them, the count is public.  The claimed rank is *not* a
                           fact: nothing is announced about the cards
no call                    ``play`` joins the pile face down
call                       ``play`` is revealed to everybody and joins the pile; the
                           taker picks the pile up (only the taker sees it)
penalty card (koth)        the caller puts one card face down on the pile (only the
                           caller sees which)
=========================  ============================================================

:func:`bs_claim` is the open claim as a formula about the card atoms, to
ask who knows it is false.

Examples
--------
>>> import random
>>> from games.base import load_game
>>> st = load_game("bs", variant="koth").new_initial_state()
>>> rng = random.Random(3)
>>> while st.is_chance_node():
...     st.apply_action(rng.choice(list(st.legal_actions())))
>>> p = st.current_player()
>>> st.apply_play(p, st.hands[p][-1])        # one card, claimed as a 0
>>> h = bs_card_history(st)
>>> h.locations[-2:], h.events[-1].label
(('pile', 'play'), 'P1 plays 1 card claiming 0')
>>> print(bs_claim(st).children()[0])       # the claim of a 0: no card of another rank
~has(play, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.base import Game, Observation
from games.bs.state import BSGame
from games.deal import DealKnowledge
from games.deal.cells import CellKnowledge
from games.errors import InvalidParameterError

__all__ = ["SeatKnowledge", "bs_card_history", "bs_claim", "PILE", "PLAY"]


class SeatKnowledge:
    """What one seat knows, built only from that seat's observations.

    Follows the observation stream (:meth:`observe`) and keeps the seat's own
    hand, the public counts and the last play.  With ``exact=True`` it also
    keeps a :class:`~games.deal.DealKnowledge` over the locations ``P0`` …,
    ``pile`` and ``play``, updated by every event with exactly the
    information the seat has: a claim is not a fact, the count is; a call
    reveals the cards; the taker sees the pile it takes; only the caller sees
    the penalty card.  With ``cells=True`` it keeps a
    :class:`~games.deal.cells.CellKnowledge` over the hands and the ``pile``:
    the bounds on every card's copies in every location without the joint
    constraints, a cheaper sound relaxation that :meth:`rank_lie_probability`,
    :meth:`rank_knows_lie` and :meth:`rank_expected` read.  Those bounds take a play when it is
    settled (no call: its cards join the pile unseen; a call: they join it
    seen), so while calls are open they describe the claimer's hand before
    the play.

    Examples
    --------
    >>> from games.base import load_game
    >>> g = load_game("bs", variant="koth")
    >>> st = g.new_initial_state()
    >>> seat = SeatKnowledge(g, 0, exact=True)
    >>> import random
    >>> rng = random.Random(1)
    >>> while st.is_chance_node():
    ...     st.apply_action(rng.choice(st.legal_actions()))
    >>> for o in st.observations(0):
    ...     seat.observe(o)
    >>> sum(seat.hand), seat.sizes
    (13, [13, 13, 13, 13])
    """

    def __init__(
        self,
        game: Game,
        seat: int,
        *,
        exact: bool = False,
        max_table: int | None = None,
        cells: bool = False,
    ):
        if not isinstance(game, BSGame):
            raise InvalidParameterError(f"SeatKnowledge needs a BS game, got {game!r}")
        self.game = game
        self.seat = seat
        self.exact = exact
        n = game.num_players()
        self.n = n
        self.order: tuple[int, ...] = tuple(range(n))
        self.hand = [0] * game.num_kinds
        self.sizes = [0] * n
        self.pile = 0
        self.required = 0
        self.plays = 0
        self.last: tuple[int, int, int] | None = None  # player, rank, count of the open play
        self.my_play: list[int] | None = None
        self.knowledge: DealKnowledge | None = None
        self.max_table = max_table
        self.history: list[Observation] = []
        self._deck = game.deck
        self._before: DealKnowledge | None = None
        self.want_cells = cells
        self.cells: CellKnowledge | None = None
        self._my_cards: Any = ()
        self._idx = {n: k for k, n in enumerate(game.deck.names)}

    def observe(self, obs: Observation) -> None:
        """Take one observation of this seat."""
        self.history.append(obs)
        kind = obs.kind
        g = self.game
        kn = self.knowledge
        cl = self.cells
        if kind == "play":
            p = obs.actor
            assert p is not None
            cnt = obs["count"]
            self.sizes[p] = obs["hand"]
            self.last = (p, self.required, cnt)
            if p == self.seat:
                counts = [0] * g.num_kinds
                idx = self._idx
                for name in obs["cards"]:
                    k = idx[name]
                    counts[k] += 1
                    self.hand[k] -= 1
                self.my_play = counts
                self._my_cards = obs["cards"]
                if kn is not None:
                    kn.move(obs["cards"], f"P{p}", "play")
            else:
                self.my_play = None
                if kn is not None:
                    # the claimer's hand before the play, for the call decision
                    self._before = kn.copy()
                    kn.move_hidden(f"P{p}", "play", cnt)
            # (the cell bounds take the play when it is settled: until then
            # they are the claimer's hand before it, which the call decision reads)
        elif kind == "nocall":
            self.pile += self.last[2] if self.last else 0
            if kn is not None:
                kn.move_all("play", "pile")
            if cl is not None and self.last is not None:
                p = self.last[0]
                if p == self.seat:
                    cl.move(self._my_cards, f"P{p}", "pile")
                else:
                    cl.move_hidden(f"P{p}", "pile", self.last[2])
            self._after_play()
        elif kind == "call":
            taker = obs["taker"]
            if kn is not None:
                kn.reveal("play", obs["cards"])
                kn.move_all("play", "pile")
                if taker == self.seat:
                    kn.reveal("pile", obs["pile"])
                kn.move_all("pile", f"P{taker}")
            if cl is not None and self.last is not None:
                cl.move(obs["cards"], f"P{self.last[0]}", "pile")
                if taker == self.seat:
                    cl.reveal("pile", obs["pile"])
                cl.move_all("pile", f"P{taker}")
            if taker == self.seat:
                idx = self._idx
                for name in obs["pile"]:
                    self.hand[idx[name]] += 1
            self.sizes[taker] += obs["taken"]
            self.pile = 0
            self._after_play()
        elif kind == "penalty":
            c = obs.actor
            assert c is not None
            self.sizes[c] = obs["hand"]
            self.pile += 1
            if c == self.seat:
                self.hand[self._idx[obs["card"]]] -= 1
                for t in (kn, cl):
                    if t is not None:
                        t.move(obs["card"], f"P{c}", "pile")
            else:
                for t in (kn, cl):
                    if t is not None:
                        t.move_hidden(f"P{c}", "pile", 1)
        elif kind == "first":
            p = obs.actor
            assert p is not None
            k = self._idx[obs["card"]]
            if p == self.seat:
                self.hand[k] -= 1
            self.sizes[p] = obs["hand"]
            self.pile += 1
            self.required = (g.rank_of[k] + 1) % 13
            self.plays += 1
            for t in (kn, cl):
                if t is not None:
                    t.move(obs["card"], f"P{p}", "pile")
        elif kind == "order":
            self.order = obs["order"]
        elif kind == "deal":
            self.sizes = list(obs["sizes"])
            if self.exact:
                locs = {f"P{s}": n for s, n in enumerate(self.sizes)}
                locs.update(pile=0, play=0)
                self.knowledge = DealKnowledge(self._deck, locs, name=f"P{self.seat}")
                if self.max_table is not None:
                    self.knowledge.max_table = self.max_table
            if self.want_cells:
                locs = {f"P{s}": n for s, n in enumerate(self.sizes)}
                locs.update(pile=0)
                self.cells = CellKnowledge(self._deck, locs, name=f"P{self.seat}")
        elif kind == "hand":
            if obs.actor == self.seat:
                for name in obs["cards"]:
                    self.hand[self._idx[name]] += 1
                for t in (self.knowledge, self.cells):
                    if t is not None:
                        t.reveal(f"P{self.seat}", obs["cards"])

    def _after_play(self) -> None:
        self.plays += 1
        self.required = (self.required + 1) % 13
        self.last = None

    # ---------------------------------------------------------------- queries
    def lie_probability(self) -> float:
        """Probability (for this seat) that the open claim cannot be honest.

        The claimer could have played ``count`` cards of the claimed rank only
        if its hand held that many before the play; the play and the rest of
        the claimer's hand together are that hand.  This is the exact
        probability, under the seat's deal knowledge, that they held fewer —
        that the claim is surely a lie.  (The face-down cards themselves are,
        for a seat that did not see them, any cards of the claimer's hand.)
        """
        if self.last is None:
            raise InvalidParameterError("there is no play waiting for calls")
        p, rank, cnt = self.last
        if p == self.seat:
            assert self.my_play is not None
            return float(
                any(c and self.game.rank_of[k] != rank for k, c in enumerate(self.my_play))
            )
        return max(0.0, 1.0 - self._could_be_honest())

    def rank_lie_probability(self) -> float:
        """:meth:`lie_probability` on the seat's cell bounds (``cells=True``).

        The probability that the claimer held fewer copies of the claimed
        rank than it claims, read on the cell bounds from just before the
        play under the group relaxation of
        :class:`~games.deal.cells.CellKnowledge` (the rank's own bounds
        kept, the other ranks' unknown cards free): no joint constraint, so
        it is not the exact posterior of :meth:`lie_probability`, but a
        claim the bounds alone refute has probability one.

        Raises
        ------
        InvalidParameterError
            Without an open play, or when the seat keeps no cell bounds.
        """
        if self.last is None:
            raise InvalidParameterError("there is no play waiting for calls")
        p, rank, cnt = self.last
        if p == self.seat:
            return self.lie_probability()
        cells = self.cells
        if cells is None:
            raise InvalidParameterError("this seat keeps no cell bounds (cells=False)")
        dist = cells.count_distribution(self.game.kinds_of_rank[rank], f"P{p}")
        return max(0.0, 1.0 - sum(dist[cnt:]))

    def rank_expected(self, rank: int) -> dict[str, float]:
        """Expected copies of ``rank`` in every location, on the seat's cell bounds.

        Under the group relaxation of :class:`~games.deal.cells.CellKnowledge`.

        Raises
        ------
        InvalidParameterError
            When the seat keeps no cell bounds (``cells=False``).
        """
        if self.cells is None:
            raise InvalidParameterError("this seat keeps no cell bounds (cells=False)")
        return self.cells.expected(self.game.kinds_of_rank[rank])

    def rank_knows_lie(self) -> bool:
        """Whether the seat's cell bounds prove the open claim false (``cells=True``).

        True when no placement the bounds allow (the claimer's hand from just
        before the play, under the group relaxation of
        :class:`~games.deal.cells.CellKnowledge`) gives the claimer as many
        copies of the claimed rank as it claims.  The bounds keep a superset
        of the deals :meth:`knows_lie` considers, so this is sound (a proven
        lie is a lie) but not complete: a lie that only a joint constraint
        proves is not seen.  The seat's own claim is read on its own play.

        Raises
        ------
        InvalidParameterError
            When the seat keeps no cell bounds (``cells=False``).
        """
        if self.last is None:
            return False
        p, rank, cnt = self.last
        if p == self.seat:
            return self.lie_probability() == 1.0
        cells = self.cells
        if cells is None:
            raise InvalidParameterError("this seat keeps no cell bounds (cells=False)")
        return cells.most(self.game.kinds_of_rank[rank], f"P{p}") < cnt

    def knows_lie(self) -> bool:
        """Whether this seat knows the open claim is false.

        It is known false exactly when no consistent deal gave the claimer
        enough cards of the rank: the probability :meth:`lie_probability`
        counts is then exactly one (the dynamic programme adds positive
        weights only).  Without joint constraints the question is a feasible
        flow and is answered without counting.
        """
        if self.last is None:
            return False
        if self.last[0] == self.seat:
            return self.lie_probability() == 1.0
        return not self._honest_possible()

    def _honest_possible(self) -> bool:
        """Whether :meth:`_could_be_honest` is positive, by the same route.

        When the knowledge from just before the play has no joint constraint,
        its consistent deals are those within the cell bounds and the sizes,
        so whether the claimer can have held ``count`` cards of the rank is a
        feasible flow, found without counting, when the count would drop no
        constraint (so the knowledge evolves as it would with the count).
        Otherwise this counts.
        """
        assert self.last is not None
        p, rank, cnt = self.last
        before = self._before
        last = self.history[-1]
        if before is None or before._preds or last.kind != "play" or last.actor != p:
            return self._could_be_honest() != 0.0
        kn = self._need()
        kinds = self.game.kinds_of_rank[rank]
        hand = f"P{p}"
        if (
            kn.relaxations != before.relaxations
            or not kn._query_fits(kinds, [hand, "play"])
            or not before._query_fits(kinds, hand)
        ):
            return self._could_be_honest() != 0.0
        # (a claim that is surely honest is counted on the current knowledge,
        # but that count drops no constraint (the query fits) and is positive,
        # as this flow is: the true deal is among the consistent ones)
        total = sum(self.game.deck.copies[k] for k in kinds)
        return before._count_possible(kinds, hand, cnt, total)

    def _could_be_honest(self) -> float:
        """Probability that the claimer held ``count`` cards of the claimed rank.

        The play and the rest of the claimer's hand are its hand before the
        play, so the count is read on the knowledge from just before the play
        (one location fewer to count over, the same exact distribution).  When
        that says the claim is surely honest, or when counting on the current
        knowledge would have to drop a joint constraint (which changes the
        knowledge), the count is made on the current knowledge instead, as
        :meth:`_could_be_honest_after` does, so that neither the result nor
        the knowledge depends on the route.
        """
        assert self.last is not None
        p, rank, cnt = self.last
        before = self._before
        kn = self._need()
        if before is None or self.history[-1].kind != "play" or self.history[-1].actor != p:
            return self._could_be_honest_after()
        kinds = self.game.kinds_of_rank[rank]
        r0 = before.relaxations
        if kn.relaxations != r0 or not kn._query_fits(kinds, [f"P{p}", "play"]):
            # counting on the current knowledge would drop a constraint: do it
            return self._could_be_honest_after()
        dist = before.count_distribution(kinds, f"P{p}")
        if before.relaxations != r0 or not any(dist[:cnt]):
            return self._could_be_honest_after()
        return float(sum(dist[cnt:]))

    def _could_be_honest_after(self) -> float:
        """:meth:`_could_be_honest` on the current knowledge (the play and the hand)."""
        assert self.last is not None
        p, rank, cnt = self.last
        dist = self._need().count_distribution(self.game.kinds_of_rank[rank], [f"P{p}", "play"])
        return float(sum(dist[cnt:]))

    def _need(self) -> DealKnowledge:
        if self.knowledge is None:
            raise InvalidParameterError("this seat follows only public counts (exact=False)")
        return self.knowledge


#: Table budget of the knowledge shown by :meth:`BSState.seat_view`.
_VIEW_TABLE = 300


def _last_claim(game: BSGame, obs: Sequence[Observation], seat: int, queue: Sequence[int]) -> str:
    """The latest play ``seat`` observed and what came of it, as text."""
    for i in range(len(obs) - 1, -1, -1):
        o = obs[i]
        if o.kind == "first":
            return f"P{o.actor} laid {o['card']} face up"
        if o.kind != "play":
            continue
        rank = game.rank_labels.index(o["rank"])
        text = f"P{o.actor} claimed {game.rank_text(rank, o['count'])}"
        if o.actor == seat:
            text += f" (really {' '.join(o['cards'])})"
        after = [x for x in obs[i + 1 :] if x.kind in ("call", "nocall", "penalty")]
        if not after:
            waiting = ", ".join(f"P{s}" for s in queue)
            return text + (f" ({waiting} still to decide whether to call)" if waiting else "")
        res = after[0]
        if res.kind == "nocall":
            return text + ": no call"
        verdict = "a lie" if res["lie"] else "honest"
        text += (
            f": BS called by P{res['caller']}, revealed {' '.join(res['cards'])} ({verdict}); "
            f"P{res['taker']} took {res['taken']} cards"
        )
        if len(after) > 1:
            pen = after[1]
            card = pen.get("card")
            text += f"; P{pen.actor} put a penalty card on the pile" + (
                f" ({card})" if card is not None else ""
            )
        return text
    return ""


def _big(n: int) -> str:
    """``1,234`` below a million, ``2.3e14`` above."""
    return f"{n:,}" if n < 10**6 else f"{n:.1e}".replace("e+", "e")


#: Location of the settled face-down pile.
PILE = "pile"
#: Location of the open play (cards put down, calls not settled).
PLAY = "play"


def _streams(state: Any) -> list[list[Any]]:
    n = state.num_players()
    streams = [list(state.observations(s)) for s in range(n)]
    if len({len(s) for s in streams}) != 1:
        raise InvalidParameterError(
            "the seats' observation streams are not aligned; every BS event reaches every seat"
        )
    return streams


def bs_card_history(state: Any) -> Any:
    """The cards of a BS state as a :class:`~games.epistemic.CardHistory`.

    Parameters
    ----------
    state : games.bs.BSState

    Raises
    ------
    games.errors.InvalidParameterError
        Before the deal is complete (no hands yet).
    """
    from games.epistemic.history import CardHistory, Move, MoveAll, Reveal

    g = state.game
    n = state.num_players()
    seats = [f"P{s}" for s in range(n)]
    streams = _streams(state)
    hands: list[list[str]] = [[] for _ in range(n)]
    dealt = False
    events: list[Any] = []
    for i, o in enumerate(streams[0]):
        k = o.kind
        if k == "hand":
            s = o.actor
            hands[s] = list(streams[s][i]["cards"])
            dealt = True
        elif k == "first":
            p = o.actor
            c = o["card"]
            events.append(Move([c], seats[p], PILE, label=f"{seats[p]} lays {c} face up"))
        elif k == "play":
            p = o.actor
            cards = list(streams[p][i]["cards"])
            events.append(
                Move(
                    cards,
                    seats[p],
                    PLAY,
                    seen_by=[seats[p]],
                    label=f"{seats[p]} plays {_n_cards(o['count'])} claiming {o['rank']}",
                )
            )
        elif k == "nocall":
            events.append(MoveAll(PLAY, PILE, seen_by=(), label="no call: the play joins the pile"))
        elif k == "call":
            c, t = o["caller"], o["taker"]
            shown = " ".join(o["cards"])
            events.append(Reveal(PLAY, label=f"P{c} calls BS: the play is {shown}"))
            events.append(MoveAll(PLAY, PILE, seen_by=None, label="the play joins the pile"))
            events.append(
                MoveAll(PILE, seats[t], seen_by=[seats[t]], label=f"{seats[t]} takes the pile")
            )
        elif k == "penalty":
            c = o.actor
            card = streams[c][i]["card"]
            events.append(
                Move([card], seats[c], PILE, seen_by=[seats[c]], label=f"{seats[c]} penalty card")
            )
    if not dealt:
        raise InvalidParameterError("the cards are not dealt yet: no epistemic model before")
    initial: dict[str, Any] = {seats[s]: hands[s] for s in range(n)}
    initial.update({PILE: [], PLAY: []})
    return CardHistory(g.deck, initial, seats, events)


def _n_cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def bs_claim(state: Any) -> Any:
    """The open claim of a BS state as a formula: every card in ``play`` has the claimed rank.

    Raises
    ------
    games.errors.InvalidParameterError
        When no play is waiting for calls.
    """
    from kripke.formulas import TOP, And, Atom, Not

    if state.phase not in ("call", "pick_caller"):
        raise InvalidParameterError(f"no open claim in the {state.phase} phase")
    g = state.game
    rank = state.required_rank
    others = [k for k in range(len(g.deck)) if g.rank_of[k] != rank]
    parts = [Not(Atom("has", (PLAY, g.deck.name(k)))) for k in others]
    if not parts:
        return TOP
    return parts[0] if len(parts) == 1 else And(tuple(parts))
