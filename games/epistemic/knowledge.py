"""Nested knowledge in one game state: the notebook API of the bridge.

:class:`GameKnowledge` holds a game state's :class:`CardHistory` and answers
formulas of the core language (any depth, common and distributed knowledge,
announcements) at the true state, on the knowledge structure of the history
(built on first use), with exact probabilities over the deals a seat
considers possible.

Seats can be named as the game names them (``"P1"``, ``"North"``) or by
their number (``1``, ``"1"``); inside formulas both work for agents and
for the location of ``has(…)``: ``K_1 K_2 has(3, QS)`` reads
``K_P1 K_P2 has(P3, QS)`` in BS.  ``has(L, C#1)`` is ``has(L, C)``.

Examples
--------
>>> from games.cards import Deck
>>> from games.epistemic.history import CardHistory, Move
>>> h = CardHistory(Deck(["A", "B", "C", "D"]), {"P0": "A B", "P1": "C", "P2": "D", "pile": ""},
...                 ["P0", "P1", "P2"])
>>> gk = GameKnowledge(h.then(Move("A", "P0", "pile", seen_by=["P0"])))
>>> gk.knows(0, "has(pile, A)"), gk.knows(1, "has(pile, A)")
(True, False)
>>> gk.probability(1, "has(pile, A)")           # A, B or D, for all P1 knows
Fraction(1, 3)
>>> gk.probability(2, "K_0 has(pile, A)")       # P0 saw it, P2 did not
Fraction(1, 3)
>>> gk.holds("K_1 (K_0 has(pile, A) | K_0 has(pile, B) | K_0 has(pile, D))")
True
>>> gk.who_knows("has(pile, A)")
('P0',)
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.epistemic.hands import (
    _fewest,
    hand_known,
    hand_knows_probability,
    hand_unknown,
    public_places,
)
from games.epistemic.history import CardHistory, Event
from games.epistemic.reading import read_formula, seat_agent, seat_aliases
from games.errors import GameError, InvalidParameterError
from kripke.errors import SizeLimitError

__all__ = [
    "GameKnowledge",
    "Step",
    "seat_aliases",
    "QUOTIENT_FIRST_WIDTH",
    "MANY_CARDS",
    "MANY_CARDS_WIDTH",
    "KIND_STATES",
    "PUBLIC",
    "RELAXED_COUNT_BYTES",
    "never_known",
    "swap_unknown",
    "dislodged",
    "rerouted",
    "outplayed",
]
# seat_aliases: re-exported from reading

#: Estimated law width (:func:`~games.epistemic.symbolic.law_width`) above which
#: truth queries on a deck without copies ask the card-symmetry quotient before
#: building the knowledge structure: 0, every state.  Measured on 52-card classic
#: BS, random formulas of modal depth 2 (``tests.test_epistemic.random_formula``)
#: at the first states of random playouts (the deal and 2, 4, 6 actions, 12
#: seeds, three formulas a state; 42 states, 126 formulas): with the quotient
#: first every formula was answered, each within 0.018 s CPU, the same answers;
#: with the structure first (width up to 6,000) 21 of the 42 states ran out of
#: a 40 s budget and the others took up to 1.8 s a formula (``E`` or ``C`` over
#: four seats at the deal: 10-60 s).  Formulas naming more than
#: :data:`MANY_CARDS` cards keep the structure first up to
#: :data:`MANY_CARDS_WIDTH`.
QUOTIENT_FIRST_WIDTH = 0

#: The width above which a formula naming more than :data:`MANY_CARDS` cards asks
#: the quotient before the structure (when exact counting does not decide it): the
#: quotient tracks every named card one by one.  The deal of 52-card classic BS is
#: 2,744 wide and builds in 1-2 s; after one face-down play of one card (5,488)
#: the structure takes 8-12 s, after two (16,464) more than 20 s.  The bound sits
#: just above one face-down play: there a claim's formula (48 cards) took the
#: local quotient minutes, the structure about 1 s.
MANY_CARDS_WIDTH = 6_000

#: Formulas naming more cards than this are first offered to exact counting (exact
#: wherever it decides, e.g. every ``K_a`` of a formula about the cards): a quotient
#: tracks every named card one by one.  Measured on the README's classic BS state
#: after one face-down play, ``K_a ~claim`` (48 cards named): the local quotient did
#: not answer within 2 minutes, counting answers each seat in milliseconds.
MANY_CARDS = 8

#: Most states the kind quotient of a deck with copies keeps at any event when
#: :class:`GameKnowledge` asks it (it refuses beyond, naming the count); about
#: 20 s of work on 52-card koth.
KIND_STATES = 50_000

#: Most memory (bytes) the counting tables of one query may take on a seat's counting
#: knowledge that had to drop a constraint (not exact: it can only show that the seat
#: knows, never that it does not), past which the query is refused and the rules
#: decide alone.  Measured on BS-ZPY (seed 1, play 80): such a query would have
#: needed 1.2-1.6 GiB of tables and 17 s of CPU, and then showed nothing.
RELAXED_COUNT_BYTES = 64 * 2**20

#: Most seconds the integer program of a seat's worlds
#: (:class:`~games.epistemic.program.SeatProgram`) may take for one question before it
#: leaves it undecided.  Measured on 52-card koth: 0.01-0.3 s at late states.
PROGRAM_SECONDS = 2.0

#: From how many steps on a seat's knowledge of a card formula asks the seat's integer
#: program before its counting (and counting only when the program leaves it open):
#: measured on 52-card koth, counting a seat's observations of a long history takes
#: 0.5-1.5 s and often has to drop constraints, the program 0.01-0.3 s.
PROGRAM_FIRST_STEPS = 120

#: From how many joint constraints in a seat's counting (not yet counted) its knowledge of
#: a card formula asks the integer program first: measured on BS-ZPY, whose claims are
#: joint constraints, a programme with 39-43 of them took 7-20 s (seeds 4, plays 26 and
#: 32), with 15-17 0.4-1.8 s, with 8 or fewer under 0.1 s; the program 0.02-0.05 s.
PROGRAM_FIRST_CONSTRAINTS = 12

#: How many worlds of a seat's integer program, drawn under random objectives, are
#: tried as witnesses that another seat does not know (or know whether) a formula
#: about the cards (:meth:`GameKnowledge._unknown_somewhere`).  Measured on 52-card koth
#: playouts: one of the first two draws was a witness in each case tried, 0.01-0.3 s a
#: draw.
SAMPLED_WORLDS = 4

#: Most seconds :meth:`GameKnowledge._covered` may take to decide ``K_a ~K_b has(L, C)``
#: by covering ``a``'s worlds (:func:`~games.epistemic.cover.covered_ignorance`): asked
#: once the structure is refused, before the quotients, which take 5-30 s to refuse such
#: a question late in 52-card koth.
COVER_SECONDS = 2.0

#: Of :data:`COVER_SECONDS`, the seconds a first try of the covering takes on a long
#: history, before the counting rules that replay it (which take up to 5 s to fail late
#: in 52-card koth); the rest is spent where the structure is refused, going on from the
#: first try's cuts.  Measured on 80 koth states (40 over the 2 s budget before): 8 of
#: those answered with 1 s or 2 s, 6 with 0.5 s, 3 without a first try; none of the
#: other 40 lost or slower.
COVER_FIRST = 1.0

#: Of :data:`COVER_SECONDS`, the seconds a first try of the covering takes on a history
#: shorter than :data:`PROGRAM_FIRST_STEPS`, before the counting rules that replay it for
#: the seats: on BS-ZPY seed 4 play 35 (57 events, ``K_P2 ~K_P3 has(P4, 10H)``, true) the
#: covering decides in 0.2 s where those rules took 7 s.  Only where ``b`` did not see
#: :data:`COVER_SHORT_UNSEEN` moves or more: in ZPY, where b misses only the kitty, the
#: counting rules decide in milliseconds and the try took 0.5 s more.
COVER_SHORT = 0.5
COVER_SHORT_UNSEEN = 8

#: Most ways of splitting a card's copies over the places a seat watches that
#: :meth:`GameKnowledge._held_between` writes out as one formula.
MAX_SPLITS = 4096

#: The onlooker of exact counting who sees only what every seat sees (its
#: knowledge holds in every world of the history).
PUBLIC = "__public__"


class GameKnowledge:
    """Every seat's knowledge in one game state, nested to any depth.

    Parameters
    ----------
    history : CardHistory
        The state's history (``state.card_history()``).
    simplify : bool
        Simplify the history before building (same answers, smaller BDDs).
    max_width : int, optional
        The widest law to build (default
        :data:`~games.epistemic.symbolic.MAX_WIDTH`, see
        :func:`~games.epistemic.symbolic.history_structure`).
    quotient_width : int, optional
        The estimated width above which truth queries try the card-symmetry
        quotient first (default :data:`QUOTIENT_FIRST_WIDTH`).
    counting_first : bool
        Offer every formula to exact counting before the structure and the
        quotients (default): a formula about the cards is read off the true
        deal, one of modal depth 1 from the seats' counting, deeper ones where
        a rule decides them (:meth:`_by_counting`), each in milliseconds where
        a structure can take seconds; ``False`` asks counting only after
        those are refused, to compare the routes.
    cover_seconds : float, optional
        Most seconds the covering of ``K_a ~K_b has(c, X)`` (and ``K_a M_b``) may
        spend on one question, late in long face-down games (default
        :data:`COVER_SECONDS`, 2 s); a larger budget answers more such questions
        late in long koth and BS-ZPY games, a question at a time.

    Notes
    -----
    The knowledge structure (:func:`~games.epistemic.symbolic.history_structure`)
    is built on first use and kept.  When it is refused as too wide (many
    face-down moves nobody else saw, :func:`~games.epistemic.symbolic.law_width`)
    and the deck has no copies, :meth:`holds` and the other truth queries
    answer on the card-symmetry quotient for the cards the formula names
    (:func:`~games.epistemic.quotient.quotient_model`, exact for those
    formulas); :attr:`route` says which answered.  On a deck without copies
    whose structure is not built yet and would be wider than
    ``quotient_width`` (by default any width; :data:`MANY_CARDS_WIDTH` for a
    formula naming more than :data:`MANY_CARDS` cards), truth queries that
    exact counting leaves undecided ask the quotient first and build the
    structure only when the quotient is refused as too large (both are
    exact: only the time differs).  When both are refused (or the deck has
    copies), exact counting (:meth:`CardHistory.deal_state`,
    :mod:`games.deal`, with an onlooker :data:`PUBLIC` who sees only what
    everybody sees) answers every formula of modal depth 1 over the cards
    and decides deeper ones where the public knowledge or a seat's ignorance
    settles them (a void shown to the table is common knowledge; where no card
    at ``L`` can ever have been seen by ``b`` and enough such cards lie
    elsewhere, ``~K_b has(L, C)`` holds in every world, :func:`never_known`,
    so ``K_a ~K_b has(L, C)`` holds; the same within ``a``'s worlds by trades
    every count allows, :func:`swap_unknown`, or by the cards ``L`` has put
    down unseen since, :func:`dislodged`, or a card put down beside it unseen by
    ``b`` and never seen by ``b`` again, :func:`rerouted`, or, with copies, as many
    cards put down unseen by ``b`` as the copies ``b`` may have seen there,
    :func:`outplayed`; one world of ``a`` where ``b`` knows, found by trading cards
    ``a`` never saw (:mod:`games.epistemic.witness`; ``b``'s counting there, or the
    copies ``b`` follows there, :func:`~games.epistemic.witness.known_at_least`),
    makes it false; a group's distributed knowledge of the cards is that of an
    onlooker seeing all its members see, exactly, and what an onlooker seeing
    only what all of them see knows is common knowledge; public facts enter
    counting as bounds and disjunctions of counts, :meth:`CardHistory.fact_bounds`,
    and the rules read the history with those facts written as counts,
    :attr:`counted`); on a deck
    with copies what counting leaves undecided goes to the kind quotient
    (:mod:`games.epistemic.kinds`, exact: route ``"local quotient"``, or
    ``"quotient"`` for common knowledge; small decks, short histories, the
    deal of 52-card koth); anything else raises the refusal
    (:class:`~kripke.errors.SizeLimitError`).
    :meth:`count` and the probabilities of formulas about the cards then
    come from exact counting too; probabilities of formulas about
    knowledge are 1 or 0 where counting shows them true or false in every
    world of the seat, ``K_b p`` is ``p`` where ``b`` always sees every place
    ``p`` is about, and where every card is played face up (Shengji, ZPY)
    ``K_b has(L, C)`` is exact from the hand ``b`` holds
    (:func:`~games.epistemic.hands.hand_knows_probability`); otherwise, like
    :attr:`pointed`, they need the structure.

    Copies, one convention on every route and in :mod:`games.deal`: a
    *deal* is the current content of every location with the copies of a
    card interchangeable; :meth:`count` counts distinct deals (with
    ``arrangements=True`` their physical arrangements, copies told apart);
    probabilities are shares of the physical arrangements, the chances of a
    fair shuffle (a deal where both copies of a card lie in one hand is one
    arrangement, split over two hands it is two).  For a deck without copies
    both are the plain count of deals.  A formula about knowledge may hold
    in some histories of a deal and not in others: :meth:`probability`
    shares each deal's weight equally among the seat's worlds with that
    deal, :meth:`probability_bounds` gives the shares of the deals where it
    holds in every / in some world.
    """

    def __init__(
        self,
        history: CardHistory,
        *,
        simplify: bool = True,
        max_width: int | None = None,
        quotient_width: int | None = None,
        counting_first: bool = True,
        cover_seconds: float | None = None,
    ):
        if not isinstance(history, CardHistory):
            raise InvalidParameterError(f"GameKnowledge needs a CardHistory, got {history!r}")
        if cover_seconds is not None and (
            isinstance(cover_seconds, bool)
            or not isinstance(cover_seconds, int | float)
            or not 0 < cover_seconds < float("inf")
        ):
            raise InvalidParameterError(
                f"cover_seconds must be a positive number of seconds, got {cover_seconds!r}"
            )
        from games.epistemic.symbolic import MAX_WIDTH

        self.history = history
        #: whether the deck has identical copies (the kind quotient, not the card one)
        self._copies = any(c > 1 for c in history.deck.copies)
        self.simplify = simplify
        self.max_width = MAX_WIDTH if max_width is None else max_width
        self.quotient_width = QUOTIENT_FIRST_WIDTH if quotient_width is None else quotient_width
        #: Whether every formula goes to exact counting first (:meth:`_by_counting`;
        #: ``False``: only after the structure and the quotients are refused, e.g. to
        #: compare those routes).
        self.counting_first = counting_first
        #: Most seconds the covering may spend on one question (:meth:`_covered`).
        self.cover_seconds = COVER_SECONDS if cover_seconds is None else float(cover_seconds)
        self._width: int | None = None
        self.aliases = seat_aliases(history.agents)
        self._hs: Any = None
        #: the structure's refusal (any deck), and the same for a deck without copies,
        #: where the card-symmetry quotient takes over
        self._refusal: Any = None
        self._wide: Any = None
        self._quotients: list[Any] = []
        self._kinds: list[Any] = []
        self._public: Any = None
        self._groups: dict[tuple[bool, frozenset[str]], Any] = {}
        self._witnesses: dict[tuple[tuple[str, str, str], bool], bool] = {}
        self._uncounted_witnesses: dict[tuple[tuple[str, str, str], bool, bool], bool] = {}
        self._unknowns: dict[tuple[tuple[str, str, str | None], bool], bool] = {}
        self._outplayed: dict[tuple[str, str, str], bool] = {}
        self._amongs: dict[tuple[str, str, tuple[str, ...]], bool] = {}
        self._joined: dict[tuple[str, ...], CardHistory | None] = {}
        self._pooled: dict[frozenset[str], CardHistory] = {}
        self._joined_counting: dict[tuple[str, ...], Any] = {}
        self._searches: dict[tuple[str, str, str], bool] = {}
        self._absents: dict[tuple[str, str], bool] = {}
        self._views: dict[str, set[str]] | None = None  # places each agent always sees
        self._seats: dict[str, Any] = {}
        self._programs: dict[Any, Any] = {}
        self._answers: dict[tuple[Any, Any], bool | None] = {}
        self._samples: dict[tuple[str, str, Any, str], bool] = {}
        self._covers: dict[tuple[str, str, str, bool], bool | None] = {}
        self._shares: dict[tuple[str, Any], Fraction | None] = {}
        self._cover_cuts: dict[tuple[str, str, str, bool], dict[str, Any]] = {}
        self._counted: CardHistory | None = None
        #: Which route answered the last formula: ``"structure"``, ``"local quotient"``,
        #: ``"counting"`` (exact counting, :meth:`_by_counting`) or ``"quotient"`` (the
        #: kind quotient of a deck with copies, :meth:`_by_kinds`); for :meth:`count`,
        #: :meth:`probability` and :meth:`probability_bounds`, ``"structure"`` (its worlds
        #: weighed) or ``"counting"`` (the seat's exact counting, its integer program for
        #: 1 and 0); ``None`` after a refusal.
        self.route: str | None = None
        #: Which route's refusal the last unanswered formula raised: ``"structure"`` or
        #: ``"quotient"`` (a card-symmetry or kind quotient, tried after the structure).
        self.refused_by: str | None = None

    # ------------------------------------------------------------ models
    @property
    def agents(self) -> tuple[str, ...]:
        return self.history.agents

    @property
    def counted(self) -> CardHistory:
        """The history exact counting and its rules read: :attr:`history` with the
        facts that are card counts written as counts
        (:meth:`CardHistory.facts_as_counts`; the same worlds), kept."""
        if self._counted is None:
            self._counted = self.history.facts_as_counts()
        return self._counted

    @property
    def built(self) -> Any:
        """The :class:`~games.epistemic.symbolic.HistoryStructure` (built on first use)."""
        if self._hs is None:
            from games.epistemic.symbolic import history_structure

            self._hs = history_structure(
                self.history, simplify=self.simplify, max_width=self.max_width
            )
        return self._hs

    @property
    def pointed(self) -> Any:
        """The pointed knowledge structure (:class:`kripke.symbolic.PointedStructure`)."""
        return self.built.pointed

    @property
    def structure(self) -> Any:
        """The knowledge structure (:class:`kripke.symbolic.KnowledgeStructure`)."""
        return self.built.structure

    def kripke_model(self) -> Any:
        """The explicit pointed Kripke model, by enumerating histories (small decks)."""
        from games.epistemic.explicit import explicit_model

        return explicit_model(self.history)

    # ------------------------------------------------------------ names
    def agent(self, seat: Any) -> str:
        """The agent name of a seat given by number, alias or name (:func:`seat_agent`).

        Raises
        ------
        InvalidParameterError
            Naming the seat and the agents.
        """
        return seat_agent(self.history, seat)

    def formula(self, f: Any) -> Any:
        """``f`` parsed, with seat numbers and ``P<n>`` renamed to the agents' names
        (:func:`~games.epistemic.reading.read_formula`).

        Raises
        ------
        kripke.errors.ParseError, kripke.errors.UnknownAtomError, kripke.errors.UnknownAgentError
            For text that does not parse, an atom that is not a card atom of
            this deal, or an unknown agent.
        """
        return read_formula(self.history, f)

    # ------------------------------------------------------------ truth
    def _answer(self, g: Any) -> bool:
        """Truth of the (renamed) formula ``g`` at the true state: by exact counting
        where it decides (:meth:`_by_counting`; first unless :attr:`counting_first`
        is off), else on the structure or, when the structure is refused as too
        wide, by covering a seat's worlds (:meth:`_by_cover`, ``K_a ~K_b`` of a card
        atom; with counting when :attr:`counting_first` is off; on a long history a first
        try of :data:`COVER_FIRST` seconds within counting), then on the
        card-symmetry quotient (first on the quotient when the structure would be
        wider than :attr:`quotient_width`; decks without copies), else on the kind
        quotient (decks with copies)."""

        from kripke.formulas import Announce, AnnounceDiamond

        g = self._settled(self._simpler(g))
        if isinstance(g, (Announce, AnnounceDiamond)):
            if not self._answer(g.announcement):
                # a false announcement cannot be made here: [!p] q holds at once, <!p> q
                # fails (on the structure the announcement of C over four seats of a
                # 52-card deal alone took minutes)
                return isinstance(g, Announce)
            if g.arg.is_propositional():
                # a true announcement leaves the true state's cards as they are: [!p] q
                # and <!p> q are q there (on the structure a 52-card koth state took 10 s)
                return self._answer(g.arg)
        refused: SizeLimitError | None = None
        many = len({a.args[1] for a in g.atoms()}) > MANY_CARDS
        copies = self._copies
        counted = many or self.counting_first
        if counted:
            decided = self._by_counting(g)
            if decided is not None:
                self.route = "counting"
                return decided
        if self._hs is None and self._refusal is None and self._quotient_first(many):
            decided = self._by_cover(g) if counted else None
            if decided is not None:  # before the quotient, which can take 30 s to refuse
                self.route = "counting"
                return decided
            try:
                return self._by_quotient(g)
            except SizeLimitError as exc:  # the structure may still answer
                refused = exc
        if self._refusal is None:
            try:
                out = bool(self.pointed.holds(g))
                self.route = "structure"
                return out
            except SizeLimitError as exc:
                self._refused(exc)
        if counted:
            decided = self._by_cover(g)
            if decided is not None:
                self.route = "counting"
                return decided
        if refused is None and not copies:
            try:
                return self._by_quotient(g)
            except SizeLimitError as exc:
                refused = exc
        if not counted:
            decided = self._by_counting(g)
            if decided is None:
                decided = self._by_cover(g)
            if decided is not None:
                self.route = "counting"
                return decided
        if refused is None and copies:
            try:
                return self._by_kinds(g)
            except SizeLimitError as exc:
                refused = exc
        self.refused_by = "structure" if refused is None else "quotient"
        raise refused if refused is not None else self._refusal

    def _simpler(self, g: Any) -> Any:
        """An equivalent formula the rules answer more often: announcements reduced away
        (:func:`~kripke.reduction.reduce_announcements`; kept over common knowledge, and
        where the reduced formula would be more than four times as large), what a seat
        knows of its own knowledge read off (:func:`~kripke.reduction.introspect`: the
        models are S5), and ``K_b p``, ``M_b p`` read as ``p`` and ``Kw_b p`` as true
        where ``b`` sees every place ``p`` is about (:meth:`_in_view`), ``D_G p`` as
        ``p`` where a member does, ``E_G p`` and ``C_G p`` where every member does."""
        from kripke.reduction import introspect, reduce_announcements

        if g.is_propositional():
            return g
        r = reduce_announcements(g)
        if r.size() > 4 * g.size():
            r = g
        return introspect(r, decided=self._in_view)

    def _settled(self, g: Any, seat: str | None = None) -> Any:
        """``g`` with ``Kw_b q`` (``q`` about the cards, outside any other modal operator)
        read as ``K_b q`` or ``K_b ~q`` where ``q``'s truth is settled: at the true state
        (``seat`` None) by the cards, and inside ``K_a`` or ``M_a`` where ``a`` knows
        whether ``q``, since ``q`` then has that truth in every world ``a`` considers
        (and ``K_b ~q`` fails where ``q`` holds).  Equivalent at the true state only
        (not in every world, as :meth:`_simpler`), so for truth queries: ``M_P3 Kw_P2
        has(P3, KC)``, P3 holding a KC, is ``M_P3 K_P2 has(P3, KC)``, which the rules for
        ``K_a ~K_b`` decide (zpy5 seed 0 play 40: refused by the kind quotient before).

        Examples
        --------
        >>> from games.cards import Deck
        >>> from games.epistemic.history import CardHistory
        >>> h = CardHistory(Deck(["A", "B", "C"]), {"x": "A", "y": "B", "z": "C"}, ["x", "y", "z"])
        >>> gk = GameKnowledge(h)
        >>> print(gk._settled(gk.formula("M_x Kw_y has(x, A) & Kw_z has(y, A)")))
        M_x K_y has(x, A) & K_z ~has(y, A)
        """
        from kripke.formulas import And, Iff, Implies, Know, KnowWhether, Not, Or, Possible

        if g.is_propositional():
            return g
        match g:
            case KnowWhether(b, q) if q.is_propositional():
                if seat is None:
                    truth: bool | None = bool(self.history._holds_now(q))
                elif self._knows(seat, q):
                    truth = True
                elif self._knows(seat, Not(q)):
                    truth = False
                else:
                    return g
                return Know(b, q if truth else Not(q))
            case Not(x):
                return Not(self._settled(x, seat))
            case And(xs):
                return And(tuple(self._settled(x, seat) for x in xs))
            case Or(xs):
                return Or(tuple(self._settled(x, seat) for x in xs))
            case Implies(x, y):
                return Implies(self._settled(x, seat), self._settled(y, seat))
            case Iff(x, y):
                return Iff(self._settled(x, seat), self._settled(y, seat))
            case Know(a, x) if seat is None:
                return Know(a, self._settled(x, a))
            case Possible(a, x) if seat is None:
                return Possible(a, self._settled(x, a))
        return g

    def _quotient_first(self, many: bool = False) -> bool:
        """Whether a truth query tries a quotient before building the structure: a
        structure wider than :attr:`quotient_width`, or than
        :data:`MANY_CARDS_WIDTH` for a formula naming more than :data:`MANY_CARDS`
        cards, on a deck without copies (with copies the structure comes first: the
        kind quotient of ``E`` or ``C`` over four seats at the deal of 52-card koth
        exceeds :data:`KIND_STATES`)."""
        if self._copies:
            return False
        if self._width is None:
            from games.epistemic.symbolic import law_width, simplify_steps

            h = self.history
            self._width = law_width(h, simplify_steps(h) if self.simplify else list(h.steps))
        return self._width > (
            max(self.quotient_width, MANY_CARDS_WIDTH) if many else self.quotient_width
        )

    def _refused(self, exc: Exception) -> None:
        """Remember that the structure is too wide: the quotient (decks without copies)
        and exact counting take over."""
        self._refusal = exc
        if not self._copies:
            self._wide = exc

    # ------------------------------------------------------------ counting
    def _public_state(self) -> Any:
        """The history's exact counting knowledge (:class:`games.deal.DealState`) of every
        seat and of :data:`PUBLIC`, an onlooker who sees only what everybody sees;
        ``None`` for a history counting does not take (a :class:`Fact`)."""
        if self._public is None:
            h = self.counted
            owns: dict[str, tuple[str, ...]] = {a: h.owns[a] for a in h.agents}
            owns[PUBLIC] = h.public_locations()
            initial = {loc: [h.deck.name(k) for k in ks] for loc, ks in h.initial.items()}
            try:
                self._public = CardHistory(h.deck, initial, owns, h.events).deal_state()
            except InvalidParameterError:
                self._public = False
        return self._public or None

    def _group_knows(self, group: Any, f: Any, *, union: bool) -> bool | None:
        """Whether the onlooker of ``group`` knows the propositional ``f``, by exact counting.

        ``union``: the onlooker sees everything some member sees (every member's
        locations, every event with a member in its audience); its knowledge is
        the group's distributed knowledge ``D_G f``, exactly.  Otherwise it sees
        only what every member sees (the public locations and the locations every
        member owns, the events whose audience holds the whole group): each
        member's possible worlds keep its view, so every world that chains of the
        members' possibilities reach does, and what it knows is common knowledge
        ``C_G f`` (a sufficient condition; sharper than the public's).  Where counting
        does not take the history or dropped a constraint and does not know ``f``, the
        onlooker's integer program decides (:meth:`_programmed`).  ``None``: not decided.
        """
        h = self.counted
        members = frozenset(group)
        if (
            not union
            and not any(st.audience is not None and members <= st.audience for st in h.steps)
            and not set.intersection(*(set(h.owns[a]) for a in members))
        ):
            return None  # the common onlooker is the public one (asked by the caller)
        key = (union, members)
        if key not in self._groups:
            try:
                self._groups[key] = h.onlooker_counting(*self._group_view(union, members))
            except InvalidParameterError:
                self._groups[key] = None
        kn = self._groups[key]
        if kn is not None and any("#" in a.args[1] for a in f.atoms()):
            known = _knows_copies(kn, f)
        elif kn is not None:
            try:
                known = True if kn.knows(f) else (False if kn.exact else None)
            except SizeLimitError:  # too wide to count: the group's integer program decides
                known = None
        else:
            known = None
        if known is None:
            known = self._programmed(key, f)
        return None if known is False and not union else known

    def _held_between(self, group: Any, a: Any) -> bool:
        """``C_{x,y} has(L, C#j)`` by the places the pair watch: it holds now, ``x``
        knows ``L``'s whole content in every world and ``y`` that of places ``M``
        (:func:`_watched`: its own place, or a kitty it buried, seen whole and every move
        that changed it since), and what the pair sees in common (:meth:`_group_knows`,
        or the public) shows that ``L`` and ``M`` hold as many copies of ``C`` between
        them as now.

        Then every world a chain of the pair's possibilities reaches has as many copies
        at ``L`` as now: a step of ``x`` keeps ``L`` as it is, a step of ``y`` keeps
        ``M``, so ``L``'s count too (the sum being common knowledge, it is the same in
        every such world).  ``M`` is tried as every place ``y`` watches at once (where
        the ways to split the copies over them are at most :data:`MAX_SPLITS`), then one
        by one.  A sufficient condition: BoerenBridge's ``C_{South,West} has(West,
        KS)`` after North and East showed out of spades, where neither the public nor
        the pair's shared view knows where the KS is (the local quotient took 2 s); in
        ZPY ``C_{P1,P2} has(kitty, 5S)`` where P2 buried a 5S, P4 played the other and
        the seats but P1 showed out of spades (the kind quotient refused)."""
        h = self.counted
        members = sorted(set(group))
        if len(members) != 2 or not h._holds_now(a):
            return False
        loc, k, _ = h.atom_cell(a)
        for x, y in (members, members[::-1]):
            if not _watched(h, x, loc):
                continue
            if _watched(h, y, loc):
                return True  # each step keeps L as it is
            places = [m for m in h.locations if m != loc and _watched(h, y, m)]
            tries = [[m] for m in places]  # all at once first, where the ways to split are few
            splits = (h.deck.copies[k] + 1) ** (len(places) + 1)  # what _copies_sum goes over
            if len(places) > 1 and splits <= MAX_SPLITS:
                tries.insert(0, places)
            for ms in tries:
                f = h.card_formula(_copies_sum(h, [loc, *ms], k))
                shared = self._group_knows(members, f, union=False)
                if shared is None:
                    shared = self._valid(f)
                if shared:
                    return True
        return False

    def _group_view(
        self, union: bool, members: frozenset[str]
    ) -> tuple[list[str], Callable[[frozenset[str]], bool]]:
        """The locations the onlooker of :meth:`_group_knows` owns and which audiences it
        is in."""
        h = self.counted
        if union:
            owns = {m for a in members for m in h.owns[a]}
        else:
            owns = set.intersection(*(set(h.owns[a]) for a in members))
            owns |= set(h.public_locations())

        def sees(aud: frozenset[str]) -> bool:
            return bool(aud & members) if union else members <= aud

        return sorted(owns), sees

    def _knows(self, agent: str, f: Any) -> bool | None:
        """Whether ``agent`` (or :data:`PUBLIC`) knows the propositional ``f``, by exact
        counting; ``None`` when counting does not answer exactly (it dropped a
        constraint too large to count, so that only "knows" is sure); an atom the
        agent never saw go where it is is not known either way (:func:`never_known`,
        :func:`outplayed`)."""
        from kripke.formulas import Atom

        if self._in_view(f, agent):
            return bool(self.history._holds_now(f))  # it sees those places: it knows them
        if isinstance(f, Atom) and (
            never_known(self.counted, agent, f, within=agent)
            or outplayed(self.counted, agent, f, within=agent)
        ):
            return False
        if self._program_first(agent):
            known = self._programmed(agent, f)  # a long history: counting it takes longer
            if known is not None:
                return known
        kn = self._seat_counting(agent)
        if kn is None:
            return self._programmed(agent, f)
        if _bounds_know(kn, f):
            return True
        if not kn.counted and kn.joint_constraints >= PROGRAM_FIRST_CONSTRAINTS:
            known = self._programmed(agent, f)  # before a programme that takes seconds
            if known is not None:
                return known
        if any("#" in a.args[1] for a in f.atoms()):
            known = _knows_copies(kn, f)
            return self._programmed(agent, f) if known is None else known
        try:
            if kn.knows(f):
                return True  # also when a constraint was relaxed: a superset of the deals
        except SizeLimitError:  # too wide to count: the seat's integer program decides
            return self._programmed(agent, f)
        if kn.exact:
            return False
        if agent != PUBLIC and isinstance(f, Atom):
            if dislodged(self.counted, agent, f, within=agent, knowledge=kn) or self._absent(
                agent, f
            ):
                return False  # not in any of its worlds / false in one of them
        return self._programmed(agent, f)

    def _programmed(self, who: Any, f: Any) -> bool | None:
        """Whether ``who`` knows the propositional ``f``, by the integer program of its
        worlds (:class:`~games.epistemic.program.SeatProgram`, kept): a seat, or
        :data:`PUBLIC`, or the onlooker ``(union, members)`` of :meth:`_group_knows`
        (distributed knowledge of the members, or what every member sees); exact where
        counting dropped a constraint.  ``None`` when the program does not decide within
        :data:`PROGRAM_SECONDS` (kept: :meth:`_knows` asks first and last on a long
        history, and a probability asks ``f`` and its negation)."""
        if (who, f) not in self._answers:
            try:
                self._answers[who, f] = self._program(who).knows(f)
            except (SizeLimitError, GameError):
                self._answers[who, f] = None
        return self._answers[who, f]

    def _unknown_somewhere(self, x: str, y: str, p: Any, *, whether: bool = False) -> bool:
        """Whether a world of seat ``x`` was found where seat ``y`` does not know the
        propositional ``p`` (``whether``: knows neither ``p`` nor ``~p``): then
        ``K_x K_y p`` (``K_x Kw_y p``) fails, and so does ``C_G`` of it for a group
        with ``x`` (and ``y``).  Up to :data:`SAMPLED_WORLDS` worlds of ``x``'s integer
        program, drawn under random objectives (seeded: the same each run), each
        built and checked; ``y``'s program on each decides ``y``'s knowledge there
        exactly (kept)."""
        return self._sampled(x, y, p, "unknown whether" if whether else "unknown")

    def _seen_all_somewhere(self, x: str, g: Any) -> bool:
        """Whether ``g`` is ``M_y has(c, X)`` (or ``~K_y ~has(c, X)``) for a card ``X``
        and a place ``c`` that ``y`` does not see, and seat ``x`` (or :data:`PUBLIC`)
        considers possible a world where every copy of ``X`` lies where ``y`` sees it
        (:meth:`_in_view`: its own hand, the public places): there ``y`` knows that
        ``c`` holds none, so ``K_x g`` fails.  One depth-1 question of ``x``'s counting
        (zpy5 seed 2 play 16: ``M_P4 K_P0 ~has(P3, 10S)``, where the rules after it ran
        past 30 s)."""
        from kripke.formulas import Atom, Know, Not, Possible, conj

        match g:
            case Possible(y, Atom() as p) | Not(Know(y, Not(Atom() as p))):
                pass
            case _:
                return False
        if y == x or "#" in p.args[1] or self._in_view(p, y):
            return False
        card = p.args[1]
        unseen = [
            Atom("has", (loc, card))
            for loc in self.counted.locations
            if not self._in_view(Atom("has", (loc, card)), y)
        ]
        if not unseen:
            return False
        return self._knows(x, Not(conj(Not(a) for a in unseen))) is False

    def _pooled_ignorant(self, x: str, g: Any) -> bool:
        """Whether ``g`` is ``~D_G has(L, C)`` and, in every world of seat ``x`` (or every
        world at all, for :data:`PUBLIC`), a seat that sees what the members of ``G`` see
        between them (:meth:`CardHistory.pooled`: its knowledge is ``D_G``) never knows
        the atom (:func:`never_known`, :func:`outplayed`): then ``K_x g`` holds (BS-ZPY
        seed 3 play 16: ``M_P0 D_{P3,P0} has(P4, 9D#2)``, the kind quotient's refusal)."""
        from games.epistemic.history import POOLED
        from kripke.formulas import Atom, Distributed, Not

        match g:
            case Not(Distributed(group, Atom() as p)):
                key = frozenset(group)
                if key not in self._pooled:
                    self._pooled[key] = self.counted.pooled(sorted(key), POOLED)
                h = self._pooled[key]
                try:
                    if x == PUBLIC:
                        return never_known(h, POOLED, p)
                    return never_known(h, POOLED, p, within=x) or outplayed(h, POOLED, p, within=x)
                except GameError:  # an atom the history does not take: counting's to say
                    return False
        return False

    def _known_somewhere(self, x: str, y: str, p: Any) -> bool:
        """Whether a world of seat ``x`` was found where seat ``y`` knows the propositional
        ``p`` (as :meth:`_unknown_somewhere`; ``y``'s program shows that no world of ``y``
        there makes ``p`` false): then ``K_x ~K_y p`` fails."""
        return self._sampled(x, y, p, "known")

    def _sampled(self, x: str, y: str, p: Any, test: str) -> bool:
        """:meth:`_unknown_somewhere` (``test`` ``"unknown"`` or ``"unknown whether"``) and
        :meth:`_known_somewhere` (``"known"``), kept."""
        from kripke.formulas import Not

        if PUBLIC in (x, y) or x == y:
            return False
        key = (x, y, p, test)
        if key not in self._samples:
            from games.epistemic.program import SeatProgram

            def found(theirs: Any) -> bool:
                if test == "known":
                    return theirs.knows(p) is True
                return theirs.knows(p) is False and (
                    test == "unknown" or theirs.knows(Not(p)) is False
                )

            self._samples[key] = False
            try:
                prog = self._program(x)
                for seed in range(SAMPLED_WORLDS):
                    w = prog.some_world(seed)
                    if w is not None and found(SeatProgram(w, y, time_limit=PROGRAM_SECONDS)):
                        self._samples[key] = True
                        break
            except (SizeLimitError, GameError):
                pass
        return self._samples[key]

    def _by_cover(self, g: Any) -> bool | None:
        """``g`` of the form ``K_a ~K_b atom`` or ``K_a M_b atom`` (or ``K_a M_b ~atom``,
        ``K_a ~K_b ~atom``; ``K_a ~K_y K_b atom`` true and ``M_a K_y K_b atom`` false where
        ``K_a ~K_b atom`` holds) decided by :meth:`_covered`, once the structure is refused
        or known to be too wide (asked before the quotients, which take 5-30 s to refuse
        such a question late in 52-card koth and classic BS); else ``None``."""
        from kripke.formulas import Atom, Know, Not, Possible

        width, most = self._width, self.max_width
        too_wide = width is not None and most is not None and width > most
        if self._refusal is None and not too_wide:
            return None
        match g:
            case Know(a, Not(Know(b, Atom() as p))) | Know(a, Possible(b, Not(Atom() as p))):
                return self._covered(a, b, p)
            case Know(a, Possible(b, Atom() as p)) | Know(a, Not(Know(b, Not(Atom() as p)))):
                return self._covered(a, b, p, negated=True)
            # one seat further in, by truth (K_y q implies q): where a's worlds are
            # covered, a knows ~K_y K_b atom and does not consider K_y K_b atom possible
            case Know(a, Not(Know(y, Know(b, Atom() as p)))) if y != a:
                return True if self._covered(a, b, p) else None
            case Possible(a, Know(y, Know(b, Atom() as p))) if y != a:
                return False if self._covered(a, b, p) else None
        return None

    def _covered(
        self,
        x: str,
        y: str,
        atom: Any,
        seconds: float | None = None,
        *,
        negated: bool = False,
    ) -> bool | None:
        """Whether ``K_x ~K_y atom`` (``negated``: ``K_x M_y atom``) holds, by covering the
        worlds of ``x``'s integer program with changes ``y`` cannot see
        (:func:`~games.epistemic.cover.covered_ignorance`; exact both ways), within
        ``seconds`` (default: all that is left) of the question's :attr:`cover_seconds`;
        ``None`` when not decided (kept once the whole budget is spent; a try before
        that keeps its cuts to go on from)."""
        from games.epistemic.cover import covered_ignorance

        if PUBLIC in (x, y) or x == y:
            return None
        key = (x, y, atom.key, negated)
        if key not in self._covers:
            cuts = self._cover_cuts.setdefault(key, {})
            spent = cuts.get("spent", 0.0)
            budget = self.cover_seconds
            limit = budget - spent if seconds is None else min(seconds, budget - spent)
            start = time.monotonic()
            try:
                got = covered_ignorance(
                    self.counted,
                    x,
                    y,
                    atom,
                    negated=negated,
                    time_limit=limit,
                    program=self._program(x),
                    cuts=cuts,
                )[0]
            except (SizeLimitError, GameError):
                got, spent = None, budget
            cuts["spent"] = spent + time.monotonic() - start
            if got is not None or cuts["spent"] >= budget - 0.05:
                self._covers[key] = got
                self._cover_cuts.pop(key, None)
            return got
        return self._covers[key]

    def _program(self, who: Any) -> Any:
        """The integer program of ``who``'s worlds (see :meth:`_programmed`), kept."""
        from games.epistemic.history import ONLOOKER
        from games.epistemic.program import SeatProgram

        if who not in self._programs:
            h = self.counted
            if who == PUBLIC:  # an onlooker who owns the public places and sees no more
                prog = SeatProgram(
                    h.onlooker(h.public_locations(), lambda aud: False),
                    ONLOOKER,
                    time_limit=PROGRAM_SECONDS,
                )
            elif isinstance(who, tuple):
                prog = SeatProgram(
                    h.onlooker(*self._group_view(*who)), ONLOOKER, time_limit=PROGRAM_SECONDS
                )
            else:
                prog = SeatProgram(h, who, time_limit=PROGRAM_SECONDS)
            self._programs[who] = prog
        return self._programs[who]

    def _valid(self, f: Any) -> bool | None:
        """``True`` when ``f`` surely holds in every world (every history consistent with
        the public events), else ``None`` (not decided)."""
        from kripke.formulas import And, Common, Distributed, Everybody, Know, KnowWhether, Not, Or

        if f.is_propositional():
            return True if self._knows(PUBLIC, f) else None
        if self._ignorant(f):
            return True
        match f:
            case KnowWhether(b, a) if a.is_propositional() and (
                self._in_view(a, PUBLIC) or self._in_view(a, b)
            ):
                return True  # b sees every place a is about, in every world
            case KnowWhether(_, a) if a.is_propositional() and (
                self._knows(PUBLIC, a) or self._knows(PUBLIC, Not(a))
            ):
                return True  # the public events settle a: every seat knows whether it
            case Know(_, a) | Everybody(_, a) | Common(_, a):
                return self._valid(a)
            case Not(Everybody(group, a) | Common(group, a)) if any(
                self._ignorant(Not(Know(b, a))) for b in group
            ):
                return True  # a member never knows a, in any world: nor does everybody
            case Not(Know(_, a) | Everybody(_, a) | Common(_, a) | Distributed(_, a)):
                # what is known is true: where ~a holds in every world, no one knows a
                return self._valid(Not(a))
            case And(args):
                return True if all(self._valid(a) for a in args) else None
            case Or(args):
                return True if any(self._valid(a) for a in args) else None
        return None

    def _in_view(self, f: Any, agent: str) -> bool:
        """Whether every atom of the propositional ``f`` is about a place ``agent`` (or
        :data:`PUBLIC`) knows the whole content of now, in every world: a place everybody
        sees (:func:`~games.epistemic.hands.public_places`: a table the cards reach face up),
        or one the agent has watched since it last saw all of it (:func:`_watched`: its own
        hand, a kitty it buried)."""
        if not f.is_propositional():
            return False
        if self._views is None:
            h = self.counted
            public = public_places(h)
            self._views = {PUBLIC: public}
            for a in h.agents:
                self._views[a] = public | {m for m in h.locations if _watched(h, a, m)}
        view = self._views.get(agent, self._views[PUBLIC])
        try:
            return all(self.counted.atom_cell(a)[0] in view for a in f.atoms())
        except GameError:
            return False

    def _ignorant(
        self, f: Any, within: str | None = None, *, quick: bool = False, counted: bool = True
    ) -> bool:
        """Whether ``f`` is ``~K_b has(L, C)`` (or ``M_b ~has(L, C)``, or ``~K_b`` of a
        conjunction with such an atom) and :func:`never_known` shows it in every
        world (``within`` given: every world seat ``within`` considers possible);
        ``quick``: only the rules that do not ask ``within``'s counting or program;
        ``counted`` false: not its counting (see :meth:`_unknown`)."""
        from kripke.formulas import And, Atom, Know, Not, Possible

        match f:
            case Not(Know(agent, And(args))):
                return any(
                    isinstance(a, Atom) and self._unknown(agent, a, within, quick, counted)
                    for a in args
                )
            case Not(Know(agent, Atom() as a)) | Possible(agent, Not(Atom() as a)):
                return self._unknown(agent, a, within, quick, counted)
        return False

    def _unknown(
        self,
        agent: str,
        atom: Any,
        within: str | None,
        quick: bool = False,
        counted: bool = True,
    ) -> bool:
        """:func:`never_known`, or within a seat's worlds :func:`rerouted`,
        :func:`outplayed`, then (unless ``quick``) :func:`outplayed_counted`,
        :func:`swap_unknown`, :func:`~games.epistemic.hands.hand_unknown` or
        :func:`dislodged` (kept: ``K_a ~K_b`` and ``C_{a,b}`` of one atom ask the same).
        ``counted`` false: not the rules that read ``within``'s counting, where its integer
        program comes first (:meth:`_program_first`; those rules are left for a later
        call, after cheaper witnesses of the other answer)."""
        key = (agent, atom.key, within)
        if (key, True) not in self._unknowns:
            self._unknowns[key, True] = self._unknown_now(agent, atom, within)
        if quick or self._unknowns[key, True]:
            return self._unknowns[key, True]
        if (key, False) in self._unknowns:
            return self._unknowns[key, False]
        if within is not None and self._program_first(within):
            if self._outplayed_programmed(agent, atom, within):
                self._unknowns[key, False] = True
                return True
            if not counted:
                return False
        self._unknowns[key, False] = self._unknown_counted(agent, atom, within)
        return self._unknowns[key, False]

    def _unknown_now(self, agent: str, atom: Any, within: str | None) -> bool:
        return _unknown_by_rules(self.counted, agent, atom, within)

    def _unknown_counted(self, agent: str, atom: Any, within: str | None) -> bool:
        """The rules of :meth:`_unknown` that read ``within``'s counting, with the one that
        asks its integer program before :func:`dislodged`, which counts whole
        distributions (52-card koth, 94 events: the program's rule holds in 0.3 s, where
        :func:`dislodged` took 10 s to fail)."""
        if within is None:
            return False
        return _unknown_by_counting(
            self.counted,
            agent,
            atom,
            within,
            self._seat_counting(within),
            lambda: self._outplayed_programmed(agent, atom, within),
        )

    def _outplayed_programmed(self, agent: str, atom: Any, within: str) -> bool:
        """:func:`outplayed_counted` on ``within``'s integer program (kept; on a long
        history 0.1-0.2 s, where replaying it for ``within``'s counting takes 0.5-1 s:
        52-card koth, 450 events)."""
        key = (agent, atom.key, within)
        if key not in self._outplayed:
            try:
                self._outplayed[key] = outplayed_counted(
                    self.counted, agent, atom, within=within, program=self._program(within)
                )
            except (SizeLimitError, GameError):
                self._outplayed[key] = False
        return self._outplayed[key]

    def _program_first(self, agent: str) -> bool:
        """Whether a question about ``agent``'s worlds asks its integer program before its
        counting: a history of :data:`PROGRAM_FIRST_STEPS` steps or more, whose counting
        for ``agent`` (a seat or :data:`PUBLIC`) is not kept yet (counting it takes longer
        than the program)."""
        counted = agent in self._seats or bool(self._public)
        return not counted and len(self.counted.steps) >= PROGRAM_FIRST_STEPS

    def _ignorant_among(self, agent: str | None, g: Any, *, kept_only: bool = False) -> bool:
        """Whether ``K_agent g`` (``agent`` ``None``: ``g``) holds because ``g`` is
        ``~K_b has(L, C)`` under ``K``, ``M``, ``E`` and ``C`` of seats ``G`` and ``b``
        does not know the atom in any world that agrees with the true one on what every
        seat of ``G`` (and ``agent``) saw (:meth:`_unknown_among`): every world those
        operators reach is such a world.  ``kept_only``: only readings decided before."""
        first = () if agent is None else (agent,)
        ways = [(b, a, (*first, *group)) for group, b, a in _peeled(g) if first or group]
        if any(self._unknown_among(b, a, group, kept_only=True) for b, a, group in ways):
            return True  # a reading decided before (the same ignorance, another formula)
        return not kept_only and any(self._unknown_among(b, a, group) for b, a, group in ways)

    def _unknown_among(
        self, agent: str, atom: Any, group: Sequence[str], *, kept_only: bool = False
    ) -> bool:
        """Whether seat ``agent`` does not know the card atom ``atom`` in any world that
        agrees with the true one on what every seat of ``group`` saw: the rules of
        :meth:`_unknown` within the worlds of the seat :meth:`CardHistory.joined` adds for
        the group, and the covering of that seat's worlds (:func:`_covered_true`; before
        the counting on a history of :data:`PROGRAM_FIRST_STEPS` steps or more, after it
        on a shorter one) (kept; ``kept_only``: only an answer kept from before, else
        ``False``).  Then ``~K_agent atom`` is common knowledge of the group."""
        from games.epistemic.history import COMMON
        from kripke.formulas import Not

        members = tuple(sorted(set(group)))
        if PUBLIC in members or agent == PUBLIC:
            return False
        if isinstance(atom, Not):
            return self._possible_among(agent, atom.arg, members, kept_only=kept_only)
        if len(members) == 1:
            if kept_only:
                key1 = (agent, atom.key, members[0])
                return any(self._unknowns.get((key1, full), False) for full in (True, False))
            return self._unknown(agent, atom, members[0])
        key = (agent, atom.key, members)
        if kept_only:
            return self._amongs.get(key, False)
        if key not in self._amongs:
            h = self._joined_view(members)
            if h is None:
                self._amongs[key] = False
                return False
            found = _unknown_by_rules(h, agent, atom, COMMON)
            # on a long history the covering before the counting that replays it
            late = len(h.steps) >= PROGRAM_FIRST_STEPS
            if not found and late:
                found = _covered_true(h, agent, atom)
            if not found:
                if members not in self._joined_counting:  # kept: other atoms, other seats
                    try:
                        self._joined_counting[members] = _capped(h.seat_counting(COMMON))
                    except InvalidParameterError:
                        self._joined_counting[members] = None
                kn = self._joined_counting[members]
                found = _unknown_by_counting(h, agent, atom, COMMON, kn)
            if not found and not late:
                found = _covered_true(h, agent, atom)
            self._amongs[key] = found
        return self._amongs[key]

    def _joined_view(self, members: tuple[str, ...]) -> CardHistory | None:
        """The history with a seat that sees what every seat of ``members`` saw
        (:meth:`CardHistory.joined`; kept), or ``None`` where it cannot be made."""
        if members not in self._joined:
            try:
                self._joined[members] = self.counted.joined(members)
            except (InvalidParameterError, GameError):
                self._joined[members] = None
        return self._joined[members]

    def _possible_among(
        self, agent: str, atom: Any, members: tuple[str, ...], *, kept_only: bool = False
    ) -> bool:
        """Whether seat ``agent`` considers the card atom ``atom`` possible in every world
        that agrees with the true one on what every seat of ``members`` saw: by covering
        the worlds of that seat (one member: its own worlds) with changes ``agent``
        cannot see that make ``atom`` hold (``negated``
        :func:`~games.epistemic.cover.covered_ignorance`; its "true" only; kept).  Then
        ``M_agent atom`` is common knowledge of the members."""
        key = (agent, f"~{atom.key}", members)
        if kept_only or key in self._amongs:
            return self._amongs.get(key, False)
        if len(members) == 1:
            found = self._covered(members[0], agent, atom, COVER_FIRST, negated=True) is True
        else:
            h = self._joined_view(members)
            found = h is not None and _covered_true(h, agent, atom, negated=True)
        self._amongs[key] = found
        return found

    def _seat_counting(self, agent: str) -> Any:
        """``agent``'s (or :data:`PUBLIC`'s) exact counting knowledge: from the kept
        :meth:`_public_state` when it is built, else replaying that agent's
        observations alone (:meth:`CardHistory.onlooker_counting`), kept; ``None``
        for a history counting does not take."""
        if self._public is not None:
            return _capped(self._public.knowledge(agent)) if self._public else None
        if agent not in self._seats:
            h = self.counted
            try:
                if agent == PUBLIC:
                    kn = h.onlooker_counting(h.public_locations(), lambda aud: False)
                else:
                    kn = h.seat_counting(agent)
            except InvalidParameterError:
                kn = None
            self._seats[agent] = _capped(kn)
        return self._seats[agent]

    def _by_counting(self, f: Any) -> bool | None:
        """Truth of ``f`` at the true state decided by exact counting alone, or ``None``.

        Exact wherever it decides: formulas about the cards are evaluated on the
        true deal, ``K_a g`` for ``g`` about the cards is seat ``a``'s counting
        knowledge; for knowledge about knowledge, ``K_a g``, ``E_G g`` and
        ``C_G g`` hold when ``g`` holds in every world (the public alone knows
        it) and fail when ``g`` is false or some seat does not know it (truth
        and positive introspection of S5 knowledge).  Anything else is left
        undecided.
        """
        from kripke.formulas import (
            BOT,
            TOP,
            And,
            Announce,
            AnnounceDiamond,
            Atom,
            Common,
            Distributed,
            Everybody,
            Iff,
            Implies,
            Know,
            KnowWhether,
            Not,
            Or,
            Possible,
        )

        if f.is_propositional():
            return bool(self.history._holds_now(f))
        if isinstance(f, (Announce, AnnounceDiamond)):
            # a false announcement cannot be made: [!p] q holds, <!p> q fails; a true one
            # leaves the true state's cards as they are, so a q about the cards is as now
            said = self._by_counting(f.announcement)
            if said is False:
                return isinstance(f, Announce)
            if said is True and f.arg.is_propositional():
                return self._by_counting(f.arg)

            # a true announcement keeps a submodel around the true state: what is
            # universal (knowledge of card formulas, and/or of such) and holds now still
            # holds after it, what is existential (possibility) and fails now still fails
            universal, existential = _preserved(f.arg)
            if said is not False and (universal or existential):
                now = self._by_counting(f.arg)
                if now is True and universal:
                    return True if isinstance(f, Announce) else said
                if now is False and existential:
                    if isinstance(f, AnnounceDiamond):
                        return False
                    return None if said is None else not said
            # the formulas about the cards around f (low -> f -> high in every model), or
            # around its argument when the announcement is true, at the true state, whose
            # cards no announcement changes (koth seed 1 play 16: <!Kw_P1 has(P2, 12#4)>
            # E_G has(pile, 1) with has(pile, 1) false, where the kind quotient took 18 s
            # to refuse; zpy5 seed 4 play 64: <!Kw_P3 p> C_G q with q false)
            low, high = _sandwich(f.arg if said is True else f)
            if low is TOP or low is not BOT and self.history._holds_now(low):
                return True
            if high is BOT or high is not TOP and not self.history._holds_now(high):
                return False
            return None

        def both(a: bool | None, b: bool | None) -> bool | None:
            if a is False or b is False:
                return False
            return None if a is None or b is None else True

        def either(a: bool | None, b: bool | None) -> bool | None:
            if a is True or b is True:
                return True
            return None if a is None or b is None else False

        def neg(a: bool | None) -> bool | None:
            return None if a is None else not a

        def know(agent: str, g: Any) -> bool | None:
            g = _plain(g)
            if isinstance(g, Not) and isinstance(g.arg, Possible):  # ~M_b p is K_b ~p
                g = Know(g.arg.agent, Not(g.arg.arg))
            match g:  # introspection (S5): what the agent knows of its own knowledge
                case Know(b, p) if b == agent:
                    return know(agent, p)
                case Not(Know(b, p)) if b == agent:
                    return neg(know(agent, p))
                case Possible(b, p) if b == agent:
                    return neg(know(agent, Not(p)))
                case KnowWhether(b, p) if b == agent:
                    return either(know(agent, p), know(agent, Not(p)))
                case Not(KnowWhether(b, p)) if b == agent:
                    return both(neg(know(agent, p)), neg(know(agent, Not(p))))
            match g:  # b knows p exactly when p holds, where b sees all p is about
                case Know(b, p) if self._in_view(p, b):
                    g = p
                case Not(Know(b, p)) if self._in_view(p, b):
                    g = Not(p)
            if g.is_propositional():
                return self._knows(agent, g)
            # the rules and the witnesses before the public's counting, which can take
            # far longer (52-card koth seed 0: play 113's rules 0.01 s against 50 s,
            # play 64's witness 0.5 s against 30 s CPU); each answer is exact
            if agent != PUBLIC and (
                self._ignorant(g, agent, quick=True)
                or self._ignorant_among(agent, g, kept_only=True)
            ):
                return True
            if self._searched(agent, g):  # milliseconds, where the seats' counting takes 0.5 s
                return False
            if self._seen_all_somewhere(agent, g):  # one count of the agent's worlds
                return False
            if self._pooled_ignorant(agent, g):  # the marks of the group's pooled view
                return True
            # a long history: the rules that ask the agent's integer program, then the
            # witnesses that do not read its counting and g at the true state, before
            # replaying the history for it (koth, 630 events: 0.3 s against 1.7 s where a
            # witness is found)
            early = agent != PUBLIC and self._program_first(agent)

            def covered(seconds: float | None = None, *, unseen: int = 0) -> bool | None:
                match g:  # ~K_b p: the covering of the agent's worlds (where b did not
                    # see at least ``unseen`` moves)
                    case Not(Know(b, Atom() as p)) | Possible(b, Not(Atom() as p)) if (
                        not unseen or _unseen_moves(self.counted, b) >= unseen
                    ):
                        return self._covered(agent, b, p, seconds)
                    case Possible(b, Atom() as p) | Not(Know(b, Not(Atom() as p))) if (
                        not unseen or _unseen_moves(self.counted, b) >= unseen
                    ):
                        return self._covered(agent, b, p, seconds, negated=True)
                return None

            if early and self._ignorant(g, agent, counted=False):
                return True
            if early and self._witnessed(agent, g, counted=False, walks=False):
                return False
            # a first try of the covering, before the rules that replay the history
            # (koth seed 0 play 105: 0.6 s, where they take 5 s)
            if early and (got := covered(COVER_FIRST)) is not None:
                return got
            if early and self._witnessed(agent, g, counted=False):
                return False  # the walks, after the covering's first try
            here = self._by_counting(g) if early else None  # asked once
            if here is False:
                return False
            # the rest of the covering's budget, before the counting rules (past the
            # first try they decided 2 of 42 koth questions in 4 s)
            if early and (got := covered()) is not None:
                return got
            # a shorter history with moves b did not see: a short first try of the covering
            # before the rules that replay it for the seats
            if not early and (got := covered(COVER_SHORT, unseen=COVER_SHORT_UNSEEN)) is not None:
                return got
            if agent != PUBLIC and self._ignorant(g, agent):
                return True
            if not early:
                here = self._by_counting(g)
            if here is False or self._witnessed(agent, g):
                return False
            if self._valid(g):
                return True
            if agent != PUBLIC and self._ignorant_among(agent, g):
                return True  # ~K_b p in every world the nested operators reach
            match g:  # a world of the agent where b does not know (whether) p, or knows
                case Know(b, p) | KnowWhether(b, p) if p.is_propositional() and (
                    self._unknown_somewhere(agent, b, p, whether=isinstance(g, KnowWhether))
                ):
                    return False
                case Not(Know(b, p)) if p.is_propositional() and self._known_somewhere(agent, b, p):
                    return False
                case Possible(b, p) if p.is_propositional() and self._known_somewhere(
                    agent, b, Not(p)
                ):
                    return False
            # truth one level in, after the rules above (koth seed 0 play 104: M_P3 K_P1
            # K_P2 has(P3, 10) false where K_P3 ~K_P2 has(P3, 10) holds)
            weaker = _weakened(agent, g)
            if weaker is not None and know(agent, weaker[0]) is weaker[1]:
                return weaker[1]
            # the formulas about the cards around g (low -> g -> high, valid): knowing
            # low, the agent knows g; not knowing high, it does not (an announcement
            # of a fact about the cards, or knowledge under a conjunction: on the random
            # short histories of the tests it decides 83 of 3600 formulas the rules
            # above leave open, each as the explicit model does)
            low, high = _sandwich(g)
            if low is TOP or low is not BOT and self._knows(agent, low) is True:
                return True
            if high is BOT or high is not TOP and self._knows(agent, high) is False:
                return False
            return None

        match f:
            case Not(a):
                return neg(self._by_counting(a))
            case And(args):
                out: bool | None = True
                for a in args:
                    out = both(out, self._by_counting(a))
                    if out is False:
                        return False
                return out
            case Or(args):
                out = False
                for a in args:
                    out = either(out, self._by_counting(a))
                    if out is True:
                        return True
                return out
            case Implies(a, b):
                return either(neg(self._by_counting(a)), self._by_counting(b))
            case Iff(a, b):
                x, y = self._by_counting(a), self._by_counting(b)
                return None if x is None or y is None else x == y
            case Know(agent, a):
                return know(agent, a)
            case Possible(agent, a):
                return neg(know(agent, Not(a)))
            case KnowWhether(agent, a):
                return either(know(agent, a), know(agent, Not(a)))
            case Everybody(group, a):
                out = True
                for agent in group:
                    out = both(out, know(agent, a))
                    if out is False:
                        return False
                return out
            case Common(group, a):
                # a member who does not know it in another's worlds (the rules, before
                # any member's counting), or a member who does not know: false
                pairs = [(x, y) for x in group for y in group if x != y]
                if self._ignorant_among(None, f):
                    return True  # ignorance in the group's common view: before the members,
                    # who each ask it in their own worlds (BS-ZPY, 104 plays: 0.2 s against 27 s)
                if isinstance(a, Atom):
                    if any(self._unknown(y, a, x, quick=True) for x, y in pairs):
                        return False
                    # each member's integer program, where it comes before counting (koth,
                    # 460 events: 0.2 s against 1.7 s for the members' counting); a member
                    # it shows to know the atom has no world without it to find
                    programmed: dict[str, bool | None] = {}
                    for agent in group:
                        programmed[agent] = (
                            self._programmed(agent, a) if self._program_first(agent) else None
                        )
                        if programmed[agent] is False:
                            return False
                    if any(self._absent(agent, a) for agent in group if programmed[agent] is None):
                        return False
                    if self._program_first(PUBLIC) and self._valid(a):
                        return True  # known to all from the public events: before the
                        # members' counting (koth, 460 events: 0.1 s against 1.8 s)
                    if any(self._unknown(y, a, x) for x, y in pairs):
                        return False
                    if self._held_between(group, a):
                        return True  # before the members' counting (BoerenBridge: 0.01 s,
                        # where the local quotient took 2 s)
                out = True
                for agent in group:
                    out = both(out, know(agent, a))
                    if out is False:
                        return False
                if self._valid(a):
                    return True
                if a.is_propositional() and self._group_knows(group, a, union=False):
                    return True
                if isinstance(a, Atom) and any(self._witnessed(x, Know(y, a)) for x, y in pairs):
                    return False  # a world of one member where another does not know it
                match a:  # ... found among the worlds of a member's integer program
                    case _ if a.is_propositional() and any(
                        self._unknown_somewhere(x, y, a) for x, y in pairs
                    ):
                        return False
                    case KnowWhether(c, p) if p.is_propositional() and any(
                        self._unknown_somewhere(x, c, p, whether=True) for x in group
                    ):
                        return False  # C_G Kw_c p needs K_x Kw_c p of every member x
                    case Possible(c, Atom() as p) | Not(Know(c, Not(Atom() as p))) if (
                        _path_ruled_out(self.counted, tuple(group), c, p)
                    ):
                        return False  # members' worlds leading to one where c knows ~p
                return None
            case Distributed(group, a):
                if a.is_propositional():
                    return self._group_knows(group, a, union=True)
                if self._valid(a) or any(know(agent, a) for agent in group):
                    return True
                return False if self._by_counting(a) is False else None
        return None

    def _absent(self, agent: str, atom: Any) -> bool:
        """Whether a world ``agent`` considers possible was found where the card atom
        ``atom`` is false (:func:`~games.epistemic.witness.witness_absent`,
        :func:`~games.epistemic.witness.witness_rerouted`; milliseconds, where the
        seat's counting of a long history takes a second): then ``agent`` does not
        know it (kept)."""
        if agent == PUBLIC:
            return False
        key = (agent, atom.key)
        if key not in self._absents:
            from games.epistemic.witness import witness_absent, witness_rerouted

            h = self.counted
            self._absents[key] = witness_absent(h, agent, atom) or witness_rerouted(h, agent, atom)
        return self._absents[key]

    def _searched(self, agent: str, g: Any) -> bool:
        """Whether :func:`~games.epistemic.paths.witness_searched` found a world ``agent``
        considers possible where ``g`` = ``~K_b has(L, C)`` is false (kept)."""
        from kripke.formulas import Atom, Know, Not

        match g:
            case Not(Know(b, Atom() as a)) if PUBLIC not in (agent, b):
                key = (agent, b, a.key)
            case _:
                return False
        if key not in self._searches:
            from games.epistemic.paths import witness_searched

            self._searches[key] = witness_searched(self.counted, agent, b, a)
        return self._searches[key]

    def _witnessed(self, agent: str, g: Any, *, counted: bool = True, walks: bool = True) -> bool:
        """Whether a world ``agent`` considers possible was found where ``g`` is false, for
        ``g`` = ``~K_b has(L, C)`` or ``K_b has(L, C)``
        (:func:`~games.epistemic.witness.witness_knowledge`, the other witnesses of
        :mod:`games.epistemic.witness`, and last the search over the copies' paths,
        :func:`~games.epistemic.paths.witness_searched`): then ``K_agent g`` fails.
        ``counted`` false: not :func:`~games.epistemic.hands.hand_known`, which reads
        ``agent``'s counting.  ``walks`` false: not the two witnesses that walk the
        copies' moves one world at a time (:func:`~games.epistemic.witness.witness_tracked`,
        :func:`~games.epistemic.witness.witness_followed`; on 52-card koth past 120
        events they took 0.26 s a question on average, up to 1.1 s, and found no world
        in 220 questions), left for a later call."""
        from kripke.formulas import Atom, Know, Not

        match g:
            case Not(Know(b, Atom() as a)):
                key, knows = (agent, b, a.key), True
            case Know(b, Atom() as a):
                key, knows = (agent, b, a.key), False
            case _:
                return False
        if agent == PUBLIC or b == PUBLIC:
            return False
        if (key, knows) in self._witnesses:
            return self._witnesses[key, knows]
        from games.epistemic.witness import (
            witness_carried,
            witness_followed,
            witness_knowledge,
            witness_tracked,
        )

        h = self.counted
        if (key, knows, False) not in self._uncounted_witnesses:
            self._uncounted_witnesses[key, knows, False] = witness_knowledge(
                h, agent, b, a, knows=knows
            ) or (
                knows
                and (
                    # before the walks (koth, 630 events: 0.2 s against 1 s for
                    # witness_followed)
                    self._traced(agent, b, a)
                    or witness_carried(h, agent, b, a)
                    or self._searched(agent, g)
                )
            )
        found = self._uncounted_witnesses[key, knows, False]
        if not walks and not found:
            return False
        if (key, knows, True) not in self._uncounted_witnesses:
            self._uncounted_witnesses[key, knows, True] = found or (
                knows and (witness_tracked(h, agent, b, a) or witness_followed(h, agent, b, a))
            )
        found = self._uncounted_witnesses[key, knows, True]
        if not counted and not found:
            return False
        if not found and knows:
            found = hand_known(
                self.counted, b, a, within=agent, knowledge=self._seat_counting(agent)
            )
        self._witnesses[key, knows] = found
        return found

    def _traced(self, agent: str, b: str, atom: Any) -> bool:
        """Whether ``agent``'s integer program has a world where ``b`` followed enough
        copies to the place of the card atom ``atom`` to know it
        (:meth:`~games.epistemic.program.SeatProgram.traced`; a world, checked, where
        ``K_b atom`` holds, so ``K_agent ~K_b atom`` fails)."""
        cell = self.counted.card_cell(atom)
        if cell is None or PUBLIC in (agent, b) or agent == b:
            return False
        try:
            return self._program(agent).traced(b, *cell) is not None
        except (SizeLimitError, GameError):
            return False

    def _by_quotient(self, g: Any) -> bool:
        """Truth of ``g`` on the local card-symmetry quotient (route ``"local quotient"``):
        only the histories ``g``'s knowledge operators reach from the true one
        (:func:`~games.epistemic.quotient.local_holds` for common knowledge)."""
        from games.epistemic.quotient import formula_words, local_holds

        if formula_words(g) is None:
            out = local_holds(self.history, g)
        else:
            out = bool(self._quotient(g).holds(g))
        self.route = "local quotient"
        return out

    def _by_kinds(self, g: Any) -> bool:
        """Truth of ``g`` on a deck with copies by the kind quotient
        (:mod:`games.epistemic.kinds`): the local one (route ``"local quotient"``,
        one pass per word of steps) unless ``g`` has common knowledge, else the
        whole one (route ``"quotient"``; a kept one when it covers ``g``'s cards,
        agents and groups); at most :data:`KIND_STATES` states."""
        from games.epistemic.kinds import kind_quotient, local_kind_holds
        from games.epistemic.quotient import _groups_of, formula_words

        if formula_words(g) is not None:
            out = local_kind_holds(self.history, g, limit=KIND_STATES)
            self.route = "local quotient"
            return out
        cards = {a.args[1].partition("#")[0] for a in g.atoms()}
        agents = set(g.agents())
        groups = _groups_of([g])
        for q in self._kinds:
            if cards <= set(q.cards) and agents <= set(q.agents) and groups <= set(q.groups):
                break
        else:
            q = kind_quotient(
                self.history, sorted(cards), agents=agents, formulas=[g], limit=KIND_STATES
            )
            self._kinds.append(q)
        out = bool(q.holds(g))
        self.route = "quotient"
        return out

    def _quotient(self, g: Any) -> Any:
        """A local card-symmetry quotient answering ``g`` (no common knowledge): a kept
        one that covers its cards, agents, groups and words of steps, else a new one
        (kept) for ``g``'s words and one step of each of its agents."""
        from games.epistemic.quotient import _groups_of, formula_words, quotient_model

        cards = {a.args[1] for a in g.atoms()}
        agents = set(g.agents())
        groups = _groups_of([g])
        words = formula_words(g) or frozenset()
        for q in self._quotients:
            if (
                cards <= set(q.cards)
                and agents <= set(q.agents)
                and groups <= set(q.groups)
                and (q.words is None or words <= q.words)
            ):
                return q
        words = words | {(a,) for a in agents}
        q = quotient_model(self.history, sorted(cards), agents=agents, formulas=[g], words=words)
        self._quotients.append(q)
        return q

    def holds(self, f: Any) -> bool:
        """Whether ``f`` is true in the actual state (the true history)."""
        return self._answer(self.formula(f))

    def knows(self, seat: Any, f: Any) -> bool:
        """Whether ``seat`` knows ``f``."""
        from kripke.formulas import Know

        return self._answer(Know(self.agent(seat), self.formula(f)))

    def possible(self, seat: Any, f: Any) -> bool:
        """Whether ``seat`` considers ``f`` possible."""
        from kripke.formulas import Possible

        return self._answer(Possible(self.agent(seat), self.formula(f)))

    def knows_whether(self, seat: Any, f: Any) -> bool:
        """Whether ``seat`` knows whether ``f``."""
        from kripke.formulas import KnowWhether

        return self._answer(KnowWhether(self.agent(seat), self.formula(f)))

    def who_knows(self, f: Any) -> tuple[str, ...]:
        """The seats that know ``f``."""
        g = self.formula(f)
        return tuple(a for a in self.agents if self.knows(a, g))

    # ------------------------------------------------------- probability
    def _class(self, seat: Any) -> Any:
        """The states ``seat`` cannot tell from the actual one (a BDD)."""
        hs = self.built
        a = self.agent(seat)
        mgr = hs.structure.manager
        seen = hs.structure.observes(a)
        cube = mgr.assignment_cube({v: hs.actual[v] for v in seen})
        return hs.structure.law & cube

    def _counting(self, seat: Any) -> Any:
        """``seat``'s exact counting knowledge (:meth:`_seat_counting`: its observations
        replayed alone, where the table's whole :meth:`_public_state` is not kept yet;
        52-card koth after 200 plays: 0.5 s against 16 s) when the structure is refused
        as too wide, else ``None``."""
        if self._refusal is None:
            try:
                _ = self.built
                return None
            except SizeLimitError as exc:
                self._refused(exc)
        kn = self._seat_counting(self.agent(seat))
        if kn is None:  # a history counting does not take
            raise self._refusal
        return kn

    def count(self, seat: Any, *, arrangements: bool = False) -> int:
        """How many deals ``seat`` considers possible: distinct deals (the copies of a
        card interchangeable, as :meth:`games.deal.DealKnowledge.count`), or with
        ``arrangements=True`` their physical arrangements (copies told apart: a
        deal counts ``prod_C copies(C)! / prod_L n(L, C)!`` times).  Both are the
        same for a deck without copies.

        Examples
        --------
        >>> from games.cards import Deck
        >>> from games.epistemic.history import CardHistory
        >>> h = CardHistory(Deck(["A", "C"], [1, 2]), {"x": "C", "y": "A C"}, ["x", "y"])
        >>> gk = GameKnowledge(h)
        >>> gk.count("x"), gk.count("x", arrangements=True)   # y: A C, as two copies
        (1, 2)
        >>> gk.probability("x", "has(y, A)")
        Fraction(1, 1)
        """
        self.route = None
        kn = self._exact_counting(seat)
        if kn is None:
            kn = self._counting(seat)
            if kn is None:
                n = self.built.count_deals(self._class(seat), arrangements=arrangements)
                self.route = "structure"
                return n
        # the programme weighs every deal by its arrangements unless asked for distinct ones
        self._exactly(kn, None, seat)
        n = kn._engine(exact=True).total() if arrangements else kn.count()
        self.route = "counting"
        return int(n)

    def _exact_counting(self, seat: Any) -> Any:
        """``seat``'s counting knowledge when it is exact, else ``None``: a question about
        the cards alone is then answered by counting before any structure is built
        (52-card koth after 4 to 24 actions: 0.01 s, where weighing the structure's
        worlds took 9-47 s)."""
        kn = self._seat_counting(self.agent(seat))
        return kn if kn is not None and kn.exact else None

    def _share_counted(self, seat: Any, g: Any, exact: bool) -> Any:
        """``seat``'s probability of the formula about the cards ``g`` by its exact
        counting (the share of its deals, weighed as :meth:`probability` weighs them), or
        ``None`` where that counting is not exact or the formula not about the cards."""
        if not g.is_propositional():
            return None
        kn = self._exact_counting(seat)
        if kn is None:
            return None
        if any("#" in a.args[1] for a in g.atoms()):
            p = _copies_probability(kn, g)  # "at least k copies": one such atom or its negation
            return None if p is None else p if exact else float(p)
        return kn.probability_of(g, exact=exact)

    def _exactly(self, kn: Any, value: Any, seat: Any = None) -> Any:
        """``value`` from counting knowledge ``kn``, or a refusal when ``kn`` had to drop a
        constraint (its answers would be a bound, not exact): :meth:`_refuse`."""
        if not kn.exact:
            who = "the table" if seat is None else self.agent(seat)
            raise self._refuse(
                f"the counting of {who}'s deals dropped {kn.relaxations} joint "
                f"constraint{'s' if kn.relaxations != 1 else ''} too large to keep "
                "(a superset of the deals: a bound, not an exact count)"
            )
        return value

    def _refuse(self, why: str) -> SizeLimitError:
        """A :class:`~kripke.errors.SizeLimitError` saying ``why`` exact counting does not
        answer, and the structure's refusal (the route before it)."""
        exc = SizeLimitError(f"{why}; and {self._refusal}")
        exc.__cause__ = self._refusal
        return exc

    def _counted_probability(self, kn: Any, seat: Any, g: Any, exact: bool) -> Any:
        """``seat``'s probability of ``g`` (read and :meth:`_simpler`) by its counting
        knowledge ``kn``."""
        if not g.is_propositional():
            agent = self.agent(seat)
            p = self._knowledge_counted(seat, g, exact, kn)
            if p is None:
                self._exactly(kn, None, seat)
                raise self._refuse(
                    f"{agent}'s probability of {g} is between 0 and 1 and counting "
                    "weighs a formula about knowledge only as K_b p where b sees every "
                    "place p names, or K_b of one card atom where every card is played "
                    "face up (probability_bounds gives exact bounds)"
                )
            return p
        if not kn.exact:  # a bound only: 1 or 0 where the seat's integer program knows
            from kripke.formulas import Not

            for f2, value in ((g, 1), (Not(g), 0)):
                if self._programmed(self.agent(seat), f2) is True:
                    return Fraction(value) if exact else float(value)
        if any("#" in a.args[1] for a in g.atoms()):
            self._exactly(kn, None, seat)
            p = _copies_probability(kn, g)  # "at least k copies": one such atom or its negation
            if p is None:
                raise self._refuse(
                    "counting weighs at-least-k-copies atoms one at a time (has(L, C#k) "
                    f"or its negation) and within its table budget: not {g}"
                )
            return p if exact else float(p)
        self._exactly(kn, None, seat)
        return kn.probability_of(g, exact=exact)

    def _knowledge_counted(self, seat: Any, g: Any, exact: bool, kn: Any = None) -> Any:
        """``seat``'s probability of ``g``, a formula about knowledge, by counting alone,
        or ``None``: 1 (0) where counting shows ``g`` true (false) in every world of the
        seat (:meth:`_by_counting`), else the shapes of :meth:`_knowledge_share` read from
        ``kn`` (default: the seat's counting, :meth:`_seat_counting`)."""
        from kripke.formulas import Know, Not

        agent = self.agent(seat)
        key = (agent, g)
        if key not in self._shares:  # kept: asked before the structure and after it
            p: Fraction | None = None
            for f2, value in ((g, 1), (Not(g), 0)):
                if p is None and self._by_counting(Know(agent, f2)) is True:
                    p = Fraction(value)
            if p is None:
                if kn is None:
                    kn = self._seat_counting(agent)
                p = None if kn is None else self._knowledge_share(kn, agent, g)
            self._shares[key] = p
        p = self._shares[key]
        return None if p is None else p if exact else float(p)

    def _knowledge_share(self, kn: Any, agent: str, g: Any) -> Fraction | None:
        """``agent``'s exact probability of ``g`` = ``K_b p`` (or its negation) by its
        counting ``kn``, or ``None``: where ``b`` always sees every place ``p`` is about,
        ``K_b p`` is ``p``; where every card is played face up, ``K_b has(L, C)`` is read
        from how many cards of some kinds ``b`` holds
        (:func:`~games.epistemic.hands.hand_knows_probability`).  In both, what ``b``
        knows is read from the deal, so every world with the same deal agrees."""
        from kripke.formulas import Atom, Know, Not

        negated = isinstance(g, Not)
        inner = g.arg if negated else g
        if not isinstance(inner, Know) or not inner.arg.is_propositional():
            return None
        if not kn.exact or any("#" in a.args[1] for a in inner.arg.atoms()):
            return None
        p: Fraction | None = None
        if self._in_view(inner.arg, inner.agent):
            p = Fraction(kn.probability_of(inner.arg, exact=True))
        elif isinstance(inner.arg, Atom):
            p = hand_knows_probability(
                self.counted, inner.agent, inner.arg, within=agent, knowledge=kn
            )
        if p is None:
            return None
        return 1 - p if negated else p

    def probability_bounds(
        self, seat: Any, f: Any, *, exact: bool = True
    ) -> tuple[Fraction | float, Fraction | float]:
        """The shares of ``seat``'s deals where ``f`` holds in every / in some
        consistent history.

        They are equal for a formula about the cards (and for any formula
        the deal decides); for a formula about other seats' knowledge, which
        depends on what they saw, they bound every probability one could
        give to the histories.

        Where the knowledge structure is refused and exact counting does not
        weigh ``f`` (a formula about knowledge that is true in some of the
        seat's worlds and false in others, in long face-down games), the
        bounds are wider but still exact: the shares of the seat's deals
        where a formula about the cards that implies ``f`` holds, and where
        one that ``f`` implies holds.  Each knowledge operator implies what
        it knows and what holds is possible, so ``P(K_b p)`` lies between 0
        and ``P(p)``, and ``P(~K_b p)`` between ``1 - P(p)`` and 1.

        Raises
        ------
        kripke.errors.SizeLimitError
            Where the seat's counting had to drop a constraint (its deals are
            a superset: no share of them bounds the seat's probability), as
            :meth:`probability` says.

        Examples
        --------
        x puts a spade face down, y picks the pile up (as in :meth:`probability`);
        without the structure (``max_width=1``) z's bounds come from counting:

        >>> from games.cards import Deck
        >>> from games.epistemic.history import CardHistory, Move, MoveAll
        >>> h = CardHistory(Deck(["AS", "KS", "QS", "JS", "AH", "KH"]),
        ...                 {"x": "AS KS", "y": "QS JS", "z": "AH KH", "pile": ""}, ["x", "y", "z"])
        >>> h = h.then(Move("AS", "x", "pile", seen_by=["x"]), MoveAll("pile", "y", seen_by=["y"]))
        >>> GameKnowledge(h, max_width=1).probability_bounds("z", "~K_x has(y, AS)")
        (Fraction(1, 4), Fraction(1, 1))
        >>> GameKnowledge(h).probability_bounds("z", "~K_x has(y, AS)")
        (Fraction(1, 4), Fraction(1, 1))
        """
        self.route = None
        g = self._simpler(self.formula(f))
        p = self._share_counted(seat, g, exact)
        if p is None and self.counting_first and not g.is_propositional():
            p = self._knowledge_counted(seat, g, exact)
        if p is not None:
            self.route = "counting"
            return p, p
        kn = self._counting(seat)
        if kn is not None:  # too wide for the structure: exact counting, first order only
            try:
                p = self._counted_probability(kn, seat, g, exact)
            except SizeLimitError:
                if g.is_propositional() or not kn.exact:
                    raise
                # about knowledge, the shares of every and some history unknown: the
                # wider bounds of formulas about the cards that imply g and that g implies
                bounds = self._sandwiched(kn, seat, g, exact)
                self.route = "counting"
                return bounds
            self.route = "counting"
            return p, p
        hs = self.built
        c = self._class(seat)
        t = hs.structure.truth(self.formula(f))
        yes = hs.deals(c & t)
        no = hs.deals(c & ~t)
        total = hs.weigh_deals(yes | no)
        every = hs.weigh_deals(yes & ~no)
        some = hs.weigh_deals(yes)
        self.route = "structure"
        if exact:
            return Fraction(every, total), Fraction(some, total)
        return every / total, some / total

    def _sandwiched(self, kn: Any, seat: Any, g: Any, exact: bool) -> tuple[Any, Any]:
        """Bounds on ``seat``'s probability of ``g``, a formula about knowledge, from its
        exact counting ``kn``: the shares of its deals where the formulas about the cards
        of :func:`_sandwich` hold (the one below implies ``g``, ``g`` implies the one
        above); 0 below or 1 above where counting does not weigh that formula (several
        at-least-k-copies atoms)."""
        from kripke.formulas import BOT, TOP

        out = []
        for side, x in enumerate(_sandwich(g)):
            p: Any = Fraction(side)  # no bound: 0 below, 1 above
            if x is TOP or x is BOT:
                p = Fraction(int(x is TOP))
            else:
                try:
                    p = self._counted_probability(kn, seat, x, True)
                except SizeLimitError:  # several at-least-k-copies atoms: no bound there
                    pass
            out.append(p if exact else float(p))
        return out[0], out[1]

    def probability(
        self, seat: Any, f: Any, *, exact: bool = True, max_mixed: int | None = None
    ) -> Fraction | float:
        """``seat``'s probability of ``f``, any formula (knowledge of other seats too).

        The measure: every deal the seat considers possible weighs its
        physical arrangements (:meth:`count`; for a deck without copies every
        deal weighs the same), and a deal's weight is shared equally among the
        worlds of the seat's class with that deal — the histories that differ
        in the deal or in what some seat observed.  For a formula about the
        cards this is the share of the deals (the probability of
        :mod:`games.deal`); a formula about knowledge gets, in each deal, the
        share of the ways the unseen past could have gone where it holds.  The
        value always lies within :meth:`probability_bounds`.

        Parameters
        ----------
        seat
            The seat, by number, alias or name.
        f : Formula or str
        exact : bool
            A :class:`~fractions.Fraction` (default) or a float.
        max_mixed : int, optional
            Most deals where ``f`` holds in some of the seat's worlds and not
            in others to weigh one by one (default
            :data:`~games.epistemic.symbolic.MAX_MIXED_DEALS`).

        Raises
        ------
        kripke.errors.SizeLimitError
            When the knowledge structure is refused and ``f`` is about
            knowledge (exact counting answers formulas about the cards, and
            about knowledge where it shows ``f`` true, or false, in every
            world of the seat: then 1 or 0; and ``K_b p`` or its negation
            where ``b`` always sees every place ``p`` is about, or where every
            card is played face up and ``p`` is one card atom,
            :func:`~games.epistemic.hands.hand_knows_probability`), or when
            the seat's counting had to drop a joint constraint too large to
            keep (long face-down histories of BS: its deals are then a
            superset, and only the probabilities 0 and 1 its integer program
            shows are sure), or more deals than ``max_mixed`` are mixed.  The
            message says which.

        Examples
        --------
        x puts a spade face down, y picks the pile up; z holds the hearts:

        >>> from games.cards import Deck
        >>> from games.epistemic.history import CardHistory, Move, MoveAll
        >>> h = CardHistory(Deck(["AS", "KS", "QS", "JS", "AH", "KH"]),
        ...                 {"x": "AS KS", "y": "QS JS", "z": "AH KH", "pile": ""}, ["x", "y", "z"])
        >>> gk = GameKnowledge(h.then(Move("AS", "x", "pile", seen_by=["x"]),
        ...                           MoveAll("pile", "y", seen_by=["y"])))
        >>> gk.probability("z", "has(y, AS)")
        Fraction(3, 4)
        >>> gk.probability("z", "K_x has(y, AS)")    # x knows it when x played the AS
        Fraction(1, 4)
        >>> gk.probability_bounds("z", "K_x has(y, AS)")
        (Fraction(0, 1), Fraction(3, 4))
        """
        self.route = None
        g = self._simpler(self.formula(f))
        p = self._share_counted(seat, g, exact)
        if p is None and self.counting_first and not g.is_propositional():
            p = self._knowledge_counted(seat, g, exact)  # before any structure is built
        if p is None:
            kn = self._counting(seat)
            if kn is None:
                hs = self.built
                p = hs.world_share(
                    self._class(seat), hs.structure.truth(self.formula(f)), max_mixed=max_mixed
                )
                self.route = "structure"
                return p if exact else float(p)
            # too wide for the structure: exact counting, first order only
            p = self._counted_probability(kn, seat, g, exact)
        self.route = "counting"  # the share of the seat's deals, or 1 or 0 it knows
        return p

    def probability_estimate(
        self,
        seat: Any,
        f: Any,
        *,
        samples: int = 1000,
        seed: int | None = None,
        confidence: float = 0.95,
        progress: bool = False,
    ) -> Any:
        """``seat``'s probability of ``f``, a formula about the cards, *estimated* from
        ``samples`` drawn deals: for the states where :meth:`probability` refuses
        because the seat's counting had to drop a constraint (long face-down histories
        of BS).  Deals are drawn exactly from the counting's superset and kept where
        the seat's integer program finds them possible, so the kept deals are draws
        from the seat's own distribution (:mod:`games.epistemic.estimate`).

        Returns
        -------
        games.epistemic.estimate.Estimate
            The share of kept deals where ``f`` holds, its Wilson interval at
            ``confidence``, and how many deals it rests on.  The same ``seed``
            gives the same estimate.

        Raises
        ------
        games.errors.InvalidParameterError
            When ``f`` is about knowledge, or the history is one counting does not
            take.

        Examples
        --------
        >>> from games.cards import Deck
        >>> from games.epistemic.history import CardHistory, Move
        >>> h = CardHistory(Deck(["A", "B", "C"], [1, 2, 2]),
        ...                 {"x": "A B", "y": "B C", "z": "C", "pile": ""}, ["x", "y", "z"])
        >>> gk = GameKnowledge(h.then(Move("C", "y", "pile", seen_by=["y"])))
        >>> gk.probability("x", "has(pile, B)")
        Fraction(1, 3)
        >>> e = gk.probability_estimate("x", "has(pile, B)", samples=400, seed=1)
        >>> e.low <= 1 / 3 <= e.high
        True
        """
        from games.epistemic.estimate import estimated_probability

        g = self._simpler(self.formula(f))
        if not g.is_propositional():
            raise InvalidParameterError(
                f"an estimate weighs formulas about the cards; {g} is about knowledge"
            )
        agent = self.agent(seat)
        kn = self._seat_counting(agent)
        if kn is None:
            raise InvalidParameterError("exact counting does not take this history")
        return estimated_probability(
            self.counted,
            agent,
            g,
            samples=samples,
            seed=seed,
            confidence=confidence,
            knowledge=kn,
            own=True,
            progress=progress,
        )

    # --------------------------------------------------------------- steps
    def steps(self, *, incremental: bool = False) -> Iterator[Step]:
        """The game event by event, with everybody's knowledge after each (see
        :func:`games.epistemic.game_updates`)."""
        return _steps(self.history, incremental=incremental)

    def __repr__(self) -> str:
        return f"GameKnowledge({self.history!r})"


@dataclass
class Step:
    """One event of a history and the knowledge after it.

    Attributes
    ----------
    index : int
        Events so far (0: the deal).
    event : Event or None
        The event (``None`` for the deal).
    knowledge : GameKnowledge
        Everybody's knowledge after the event.
    """

    index: int
    event: Event | None
    knowledge: GameKnowledge

    @property
    def label(self) -> str:
        """The event's label (its text in the game), or its kind."""
        if self.event is None:
            return "deal"
        return getattr(self.event, "label", "") or type(self.event).__name__

    def update(self) -> Any:
        """The event as a DEL update (:class:`~games.epistemic.updates.Update`):
        an announcement or an action model (small decks)."""
        from games.epistemic.updates import event_update

        if self.event is None:
            raise InvalidParameterError("the deal is the initial model, not an update")
        return event_update(self.knowledge.history, self.index - 1)

    @property
    def pointed(self) -> Any:
        return self.knowledge.pointed

    def __repr__(self) -> str:
        return f"Step({self.index}, {self.label!r})"


def _watched(h: CardHistory, agent: str, m: str) -> bool:
    """Whether ``agent`` knows the whole content of place ``m`` now, in every world: it saw
    all of it (its own place at the deal, a move of all of it, a reveal to it; a place
    empty at the deal or emptied by a move of all of it, which everybody knows to hold
    nothing) and every move into or out of it since, which cards (a kitty it took up and
    buried again, the cards it put down on an emptied table).

    Examples
    --------
    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move, MoveAll
    >>> h = CardHistory(Deck(["A", "B"], [2, 2]),
    ...                 {"x": "A B", "y": "A B", "play": "", "pile": ""}, ["x", "y"])
    >>> h = h.then(Move("A", "x", "play", seen_by=["x"]), MoveAll("play", "pile"),
    ...            Move("B", "y", "play", seen_by=["y"]))
    >>> _watched(h, "y", "play"), _watched(h, "x", "play")   # y's B alone lies there
    (True, False)
    """
    since = -1 if m in h.owns[agent] or not h.initial[m] else None
    for i, st in enumerate(h.steps):
        saw = st.audience is None or agent in st.audience
        if st.src == m and (st.kind == "all" or st.kind == "reveal" and saw):
            since = i  # emptied (nothing left there), or all of it shown to the agent
    if since is None:
        return False
    return all(
        st.audience is None or agent in st.audience
        for st in h.steps[since + 1 :]
        if st.kind in ("move", "all") and m in (st.src, st.dst)
    )


def _unseen_moves(h: CardHistory, b: str) -> int:
    """How many moves of ``h`` seat ``b`` did not see."""
    return sum(
        st.kind == "move" and st.audience is not None and b not in st.audience for st in h.steps
    )


def _copies_sum(h: CardHistory, places: list[str], k: int) -> str:
    """The formula (text) that ``places`` hold between them as many copies of kind ``k``
    as they hold now: one way of spreading that number over them, each place holding
    exactly its share."""
    from games.epistemic.history import card_key

    name, copies = h.deck.name(k), h.deck.copies[k]
    now = h.kinds_now()
    n = sum(now[m].count(k) for m in places)
    ways = []
    for split in itertools.product(range(copies + 1), repeat=len(places)):
        if sum(split) != n:
            continue
        parts = []
        for m, i in zip(places, split, strict=True):
            if i:
                parts.append(f"has({m}, {card_key(name, i, copies)})")
            if i < copies:
                parts.append(f"~has({m}, {card_key(name, i + 1, copies)})")
        ways.append("(" + " & ".join(parts) + ")")
    return " | ".join(ways)


def _unknown_by_rules(h: CardHistory, agent: str, atom: Any, within: str | None) -> bool:
    """The rules of ``~K_agent atom`` that need no counting: :func:`never_known` (in
    every world, or every world of seat ``within``), then within ``within``'s worlds
    :func:`rerouted` and :func:`outplayed`."""
    if never_known(h, agent, atom, within=within):
        return True
    if within is None:
        return False
    return rerouted(h, agent, atom, within=within) or outplayed(h, agent, atom, within=within)


def _path_ruled_out(h: CardHistory, group: tuple[str, ...], b: str, atom: Any) -> bool:
    """:func:`~games.epistemic.program.witness_path_ruled_out` within :data:`COVER_FIRST`
    seconds: members' worlds leading to one where ``b`` knows ``~atom``."""
    from games.epistemic.program import witness_path_ruled_out

    return witness_path_ruled_out(h, group, b, atom, time_limit=COVER_FIRST)


def _covered_true(h: CardHistory, agent: str, atom: Any, *, negated: bool = False) -> bool:
    """Whether the covering (:func:`~games.epistemic.cover.covered_ignorance`, within
    :data:`COVER_FIRST` seconds) shows that ``agent`` does not know ``atom`` in any world
    of the seat :data:`~games.epistemic.history.COMMON` of ``h``, a group's view made by
    :meth:`CardHistory.joined`; ``False`` also where it does not decide or finds a world
    where ``agent`` knows (one the group's operators need not reach).  ``negated``: that
    ``agent`` considers ``atom`` possible in every such world."""
    from games.epistemic.cover import covered_ignorance
    from games.epistemic.history import COMMON

    try:
        got = covered_ignorance(h, COMMON, agent, atom, negated=negated, time_limit=COVER_FIRST)
        return got[0] is True
    except (SizeLimitError, GameError):
        return False


def _unknown_by_counting(
    h: CardHistory,
    agent: str,
    atom: Any,
    within: str,
    kn: Any,
    before_dislodged: Callable[[], bool] | None = None,
) -> bool:
    """The rules of ``~K_agent atom`` in seat ``within``'s worlds that read its counting
    ``kn`` (``None`` where counting does not take the history):
    :func:`~games.epistemic.hands.hand_unknown` (histories played face up only, where it
    counts a few groups of kinds), :func:`swap_unknown`, then ``before_dislodged``
    (another rule, when given), then :func:`dislodged`, which counts whole
    distributions."""
    return bool(
        hand_unknown(h, agent, atom, within=within, knowledge=kn)
        or swap_unknown(h, agent, atom, within=within, knowledge=kn)
        or (before_dislodged is not None and before_dislodged())
        or (kn is not None and dislodged(h, agent, atom, within=within, knowledge=kn))
    )


def _preserved(f: Any) -> tuple[bool, bool]:
    """``(universal, existential)``: whether ``f``'s truth at a world is kept in every
    submodel around it (knowledge of card formulas, under ``&`` and ``|``: fewer worlds,
    no new doubt) and whether its falsity is (possibility, ignorance).  A true
    announcement leaves such a submodel, so ``[!p] f`` holds wherever a universal ``f``
    holds now, and an existential ``f`` false now is false after it.

    Examples
    --------
    >>> from kripke.parser import parse
    >>> _preserved(parse("K_x has(y, AS) | C_{x,y} ~has(z, KS)"))
    (True, False)
    >>> _preserved(parse("M_x K_y has(y, AS)"))
    (False, False)
    >>> _preserved(parse("~K_x has(y, AS) & M_y has(z, KS)"))
    (False, True)
    """
    from kripke.formulas import (
        And,
        Common,
        Distributed,
        Everybody,
        Implies,
        Know,
        KnowWhether,
        Not,
        Or,
        Possible,
    )

    if f.is_propositional():
        return True, True
    match f:
        case Not(a):
            u, e = _preserved(a)
            return e, u
        case And(parts) | Or(parts):
            pairs = [_preserved(x) for x in parts]
            return all(p[0] for p in pairs), all(p[1] for p in pairs)
        case Implies(a, b):  # ~a | b
            (ua, ea), (ub, eb) = _preserved(a), _preserved(b)
            return ea and ub, ua and eb
        case Know(_, a) | Everybody(_, a) | Common(_, a) | Distributed(_, a):
            return _preserved(a)[0], False
        case Possible(_, a):
            return False, _preserved(a)[1]
        case KnowWhether(_, a) if a.is_propositional():
            return True, False
    return False, False


def _weakened(agent: str, g: Any) -> tuple[Any, bool] | None:
    """Truth one level into ``g`` (``K_y q`` implies ``q``, ``q`` implies ``M_y q``), for
    another seat ``y`` and a ``q`` about knowledge: ``(h, v)`` where ``agent`` knowing
    ``h`` (``v`` true) or not (``v`` false) decides ``K_agent g`` the same way; else ``None``.

    Knowing ``~q`` the agent knows ``~K_y q``, knowing ``q`` it knows ``M_y q``, and not
    knowing ``q`` it does not know ``K_y q``.

    Examples
    --------
    >>> from kripke.parser import parse
    >>> [(str(h), v) for h, v in [_weakened("a", parse("~K_y K_b has(c, X)"))]]
    [('~K_b has(c, X)', True)]
    >>> [(str(h), v) for h, v in [_weakened("a", parse("K_y ~K_b has(c, X)"))]]
    [('~K_b has(c, X)', False)]
    >>> _weakened("a", parse("~K_y has(c, X)")) is None   # q about the cards: not here
    True
    """
    from kripke.formulas import Know, Not, Possible

    match g:
        case Not(Know(y, q)) if y != agent and not q.is_propositional():
            return Not(q), True
        case Possible(y, q) if y != agent and not q.is_propositional():
            return q, True
        case Know(y, q) if y != agent and not q.is_propositional():
            return q, False
    return None


def _sandwich(f: Any) -> tuple[Any, Any]:
    """Two formulas about the cards, ``(low, high)``, with ``low -> f`` and ``f -> high``
    valid in every model of S5 knowledge with announcements: each knowledge operator
    (``K``, ``E``, ``C``, ``D``) implies what it knows (truth), and what holds is
    possible (``M``); a ``Kw`` may be either.  :data:`~kripke.formulas.TOP` and
    :data:`~kripke.formulas.BOT` stand where nothing about the cards follows.  The
    shares of a seat's deals where ``low`` and ``high`` hold bound every probability of
    ``f`` from below and above.

    Examples
    --------
    >>> from kripke.parser import parse
    >>> [str(x) for x in _sandwich(parse("~K_x has(y, AS)"))]
    ['~has(y, AS)', 'top']
    >>> [str(x) for x in _sandwich(parse("K_x has(y, AS) | M_z has(y, KS)"))]
    ['has(y, KS)', 'top']
    >>> [str(x) for x in _sandwich(parse("K_x has(y, AS) & M_z has(y, KS)"))]
    ['bot', 'has(y, AS)']
    """
    from kripke.formulas import (
        BOT,
        TOP,
        And,
        Announce,
        AnnounceDiamond,
        Common,
        Distributed,
        Everybody,
        Iff,
        Implies,
        Know,
        KnowWhether,
        Not,
        Or,
        Possible,
        conj,
        disj,
    )

    def neg(x: Any) -> Any:
        return BOT if x is TOP else TOP if x is BOT else Not(x)

    def both(xs: list[Any]) -> Any:  # TOP and BOT folded away
        return BOT if any(x is BOT for x in xs) else conj(x for x in xs if x is not TOP)

    def either(xs: list[Any]) -> Any:
        return TOP if any(x is TOP for x in xs) else disj(x for x in xs if x is not BOT)

    def implies(a: Any, b: Any) -> tuple[Any, Any]:  # a -> b is ~a | b
        (la, ua), (lb, ub) = go(a), go(b)
        return either([neg(ua), lb]), either([neg(la), ub])

    def go(g: Any) -> tuple[Any, Any]:
        if g.is_propositional():
            return g, g
        match g:
            case Not(a):
                low, high = go(a)
                return neg(high), neg(low)
            case And(parts):
                pairs = [go(x) for x in parts]
                return both([x[0] for x in pairs]), both([x[1] for x in pairs])
            case Or(parts):
                pairs = [go(x) for x in parts]
                return either([x[0] for x in pairs]), either([x[1] for x in pairs])
            case Implies(a, b):
                return implies(a, b)
            case Iff(a, b):
                (l1, u1), (l2, u2) = implies(a, b), implies(b, a)
                return both([l1, l2]), both([u1, u2])
            case Know(_, a) | Everybody(_, a) | Common(_, a) | Distributed(_, a):
                return BOT, go(a)[1]
            case Possible(_, a):
                return go(a)[0], TOP
            case Announce(a, b):  # [!a] b is a -> b after a: the cards stay as they are
                return implies(a, b)
            case AnnounceDiamond(a, b):  # <!a> b is a & b after a
                (la, ua), (lb, ub) = go(a), go(b)
                return both([la, lb]), both([ua, ub])
            case KnowWhether():
                return BOT, TOP
        return BOT, TOP

    return go(f)


def _peeled(f: Any) -> list[tuple[tuple[str, ...], str, Any]]:
    """Ways to read ``f`` as ignorance of a card atom under ``K``, ``M``, ``E`` and ``C``:
    ``(agents, b, atom)``, each enough for ``f``, when ``~K_b atom`` holds in every world
    the operators of ``agents`` (outermost first) reach (``atom`` may be a negated atom:
    ``M_b`` of the atom); none when ``f`` is not of that shape.  An ``M_x`` may drop out,
    since ``M_x g`` holds wherever ``g`` does (S5), or stay as a ``K_x``; ``M_x ~K_y
    atom`` also holds wherever ``~K_x atom`` does (``K_x K_y atom`` implies ``K_x
    atom``).  The rules that decide each reading are not complete, so a smaller group is
    not always the one decided: each reading is tried."""
    from kripke.formulas import Atom, Common, Everybody, Know, Not, Possible

    ways: list[tuple[str, ...]] = [()]

    def then(*more: str, optional: bool = False) -> None:
        """Every way goes on with the agents ``more`` (``optional``: or without them)."""
        longer = [(*w, *more) for w in ways]
        ways[:] = list(dict.fromkeys([*ways, *longer] if optional else longer))[:4]

    while True:
        match f:
            case Not(Know(b, Atom() as a)) | Possible(b, Not(Atom() as a)):
                return [(w, b, a) for w in ways]
            case Possible(b, Atom() as a) | Not(Know(b, Not(Atom() as a))):
                return [(w, b, Not(a)) for w in ways]  # b does not know ~atom
            case Not(Know(x, Know(b, Atom() as a))) | Possible(x, Not(Know(b, Atom() as a))):
                return (
                    [(w, b, a) for w in ways]
                    + [(w, x, a) for w in ways]
                    + [((*w, x), b, a) for w in ways]
                )
            case Know(x, g):
                then(x)
                f = g
            case Possible(x, g):
                then(x, optional=True)
                f = g
            case Everybody(group, g) | Common(group, g):
                then(*group)
                f = g
            case _:
                return []


def _plain(f: Any) -> Any:
    """``f`` with an announcement of a formula about the cards, about the cards, read as
    what it says in every world: ``[!p] q`` is ``p -> q`` and ``<!p> q`` is ``p & q`` (the
    announcement removes the worlds where ``p`` fails and changes no card)."""
    from kripke.formulas import And, Announce, AnnounceDiamond, Implies

    if isinstance(f, (Announce, AnnounceDiamond)):
        p, q = f.announcement, f.arg
        if p.is_propositional() and q.is_propositional():
            return Implies(p, q) if isinstance(f, Announce) else And((p, q))
    return f


def _bounds_know(kn: Any, f: Any) -> bool:
    """Whether the cell bounds of ``kn`` (a seat's counting knowledge) alone show that it
    knows ``f``, a card atom ``has(L, C)`` or a disjunction of atoms of one card at
    several locations (at least one copy lies there in every deal within the bounds), or
    the negation of a card atom (fewer copies there in every such deal)
    (:meth:`~games.deal.DealKnowledge.count_range`; no counting).  ``False`` shows
    nothing."""
    from kripke.formulas import Atom, Not, Or

    if isinstance(f, Not) and isinstance(f.arg, Atom) and len(f.arg.args) == 2:
        loc, card = f.arg.args  # none there: no copy lies there in any deal within the bounds
        name, _, k = card.partition("#")
        try:
            return bool(kn.count_range([name], [loc])[1] < (int(k) if k else 1))
        except GameError:
            return False
    parts = f.args if isinstance(f, Or) else (f,)
    atoms = [a for a in parts if isinstance(a, Atom) and a.name == "has" and len(a.args) == 2]
    if len(atoms) != len(parts):
        return False
    cards = {a.args[1].partition("#")[0] for a in atoms}
    least = {int(a.args[1].partition("#")[2] or 1) for a in atoms}
    if len(cards) != 1 or len(least) != 1 or (len(atoms) > 1 and least != {1}):
        return False
    try:
        return bool(
            kn.count_range(list(cards), sorted({a.args[0] for a in atoms}))[0] >= min(least)
        )
    except GameError:  # not a card or location of the deal: counting's to say
        return False


def _copies_probability(kn: Any, f: Any) -> Fraction | None:
    """The probability of ``f`` under counting knowledge ``kn``, for ``f`` the atom
    ``has(L, C#k)`` (``L`` holds at least ``k`` copies of ``C``) or its negation, from the
    distribution of ``C``'s copies at ``L``; ``None`` for any other formula or a count
    too wide (:class:`~kripke.errors.SizeLimitError`).

    Only its values 0 and 1 are sure when ``kn`` dropped a constraint (a superset of
    the deals): the callers read the rest only from exact knowledge."""
    atom = _copies_atom(f)
    if atom is None:
        return None
    negated, loc, name, least = atom
    try:
        dist = kn.count_distribution([name], [loc], exact=True)
    except SizeLimitError:
        return None
    p = Fraction(sum(dist[least:]))
    return 1 - p if negated else p


def _copies_atom(f: Any) -> tuple[bool, str, str, int] | None:
    """``(negated, L, C, k)`` for ``f`` the atom ``has(L, C#k)`` (``k`` 1 for a plain
    ``has(L, C)``) or its negation; ``None`` for any other formula."""
    from kripke.formulas import Atom, Not

    negated = isinstance(f, Not)
    a = f.arg if negated else f
    if not isinstance(a, Atom) or a.name != "has" or len(a.args) != 2:
        return None
    loc, card = a.args
    name, _, k = card.partition("#")
    return negated, loc, name, int(k or 1)


def _knows_copies(kn: Any, f: Any) -> bool | None:
    """Whether counting knowledge ``kn`` knows ``f``, the atom ``has(L, C#k)`` (at least
    ``k`` copies of ``C`` at ``L``; :mod:`games.deal` reads plain ``has(L, C)``) or its
    negation, from whether a deal with the other count exists
    (:meth:`~games.deal.DealKnowledge.count_possible`: a deal drawn from the seat's kept
    programme, else one floating-point programme with the cell narrowed, not an exact
    programme of the whole distribution with the count as its query): ``False`` only
    when ``kn`` is exact, ``None`` for any other formula or a count too wide."""
    atom = _copies_atom(f)
    if atom is None:
        return None
    negated, loc, name, least = atom
    try:
        copies = kn.deck.copies[kn.deck.index(name)]
        other = (least, copies) if negated else (0, least - 1)
        known = not kn.count_possible(name, loc, *other)
    except SizeLimitError:
        return None
    if known:
        return True  # also when a constraint was relaxed: a superset of the deals
    return False if kn.exact else None


def _capped(kn: Any) -> Any:
    """``kn`` (a seat's counting knowledge, or ``None``), its table budget lowered to
    :data:`RELAXED_COUNT_BYTES` when it is not exact."""
    if kn is not None and not kn.exact:
        kn.max_bytes = min(kn.max_bytes, RELAXED_COUNT_BYTES)
    return kn


def _constrained(h: CardHistory, st: Any) -> tuple[set[int], set[str]]:
    """The kinds and locations a count or fact step is about."""
    if st.kind == "count":
        return set(st.kinds), set(st.locations)
    cells = [h.atom_cell(a) for a in st.formula.atoms()]
    return {c[1] for c in cells}, {c[0] for c in cells}


def _learned(h: CardHistory, within: str) -> set[int]:
    """The moves seat ``within`` did not see whose cards it saw afterwards: a move into an
    empty place whose next event there shows ``within`` all of that place (a reveal, or
    the whole place moved where it sees), with nothing moved in or out between (a
    called play in BS).  In every world of ``within`` such a move carried the kinds
    shown, as in the true one.

    Examples
    --------
    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move, MoveAll, Reveal
    >>> h = CardHistory(Deck(["A", "B"]), {"x": "A", "y": "B", "play": "", "pile": ""}, ["x", "y"])
    >>> h = h.then(Move("A", "x", "play", seen_by=["x"]), Reveal("play"), MoveAll("play", "pile"))
    >>> _learned(h, "y"), _learned(h.prefix(1), "y")
    ({0}, set())
    """
    size = {m: len(h.initial[m]) for m in h.locations}
    pending: dict[str, int] = {}  # place -> the unseen move that filled it
    out: set[int] = set()
    for i, st in enumerate(h.steps):
        saw = st.audience is None or within in st.audience
        if st.kind in ("move", "all"):
            if st.kind == "all" and saw and st.src in pending:
                out.add(pending[st.src])
            empty = size[st.dst] == 0
            pending.pop(st.src, None)
            pending.pop(st.dst, None)
            if st.kind == "move" and not saw and empty:
                pending[st.dst] = i
            n = len(st.kinds) if st.kind == "move" else size[st.src]
            size[st.src] -= n
            size[st.dst] += n
        elif st.kind == "reveal" and saw and st.src in pending:
            out.add(pending.pop(st.src))
    return out


def _shown_whole(h: CardHistory, agent: str) -> set[int]:
    """The moves ``agent`` did not see whose cards it saw afterwards among others: every
    card of the move lies, with whatever else, at a place shown to ``agent`` as a whole (a
    reveal, or the whole place moved where it sees) before any card left there unseen
    by it (followed through whole places moved unseen, such as a pile picked up)."""
    mine = set(h.owns.get(agent, ()))
    at: dict[str, set[int]] = {}  # place -> the moves whose cards all lie there
    out: set[int] = set()
    for i, st in enumerate(h.steps):
        sees = _sees(st, agent, mine)
        if st.kind == "move":
            at.pop(st.src, None)  # some of them may have left unseen, or been seen leaving
            if not sees:
                at.setdefault(st.dst, set()).add(i)
        elif st.kind == "all":
            moved = at.pop(st.src, set())
            if sees:
                out |= moved
            elif moved:
                at.setdefault(st.dst, set()).update(moved)
        elif st.kind == "reveal" and (st.audience is None or agent in st.audience):
            out |= at.pop(st.src, set())
    return out


def _copies_bounds(h: CardHistory, x: int, within: str) -> tuple[list[dict[str, int]], ...]:
    """At most and at least how many copies of kind ``x`` lie at every location after
    every number of steps (index ``t``: after ``t`` steps), in every world seat
    ``within`` considers possible: ``(most, least)``.

    ``most`` follows the copies forward as ``within`` saw them (exactly at its own
    places and at the events it saw; a move it did not see may take as many as the
    source may hold).  ``least`` comes backward from what ``within`` saw later: a
    copy it saw leave a place (or shown, or revealed there) lay there before, and
    the cards that arrived with a move it did not see came from that move's source
    (a copy at the destination beyond what it may have held before was among
    them).  Both also read the deck: the copies not at the other places are here.

    Examples
    --------
    x knows the deck's two A: one its own, one that z put down unseen and everybody
    saw revealed; before the move it lay at z:

    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move, Reveal
    >>> h = CardHistory(Deck(["A", "B"], [2, 2]), {"x": "A B", "y": "B", "z": "A", "pile": ""},
    ...                 ["x", "y", "z"])
    >>> h = h.then(Move("A", "z", "pile", seen_by=["z"]), Reveal("pile"))
    >>> most, least = _copies_bounds(h, 0, "x")
    >>> most[0]["y"], least[0]["z"], most[1]["z"], least[1]["pile"]
    (0, 1, 0, 1)
    """
    watch = set(h.owns.get(within, ())) | set(h.public_locations())
    total = h.deck.copies[x]
    known = sum(h.initial[m].count(x) for m in watch)
    size = {m: len(h.initial[m]) for m in h.locations}
    cap = {
        m: h.initial[m].count(x) if m in watch else min(size[m], total - known) for m in h.locations
    }
    low = {m: h.initial[m].count(x) if m in watch else 0 for m in h.locations}
    sizes, most, ahead = [dict(size)], [dict(cap)], [dict(low)]
    learned = _learned(h, within)
    for i, st in enumerate(h.steps):
        saw = st.audience is None or within in st.audience or i in learned
        if st.kind in ("move", "all"):
            src, dst = st.src, st.dst
            n = len(st.kinds) if st.kind == "move" else size[src]
            if saw:
                c = (st.kinds if st.kind == "move" else st.content).count(x)
                cap[src], low[src] = cap[src] - c, max(0, low[src] - c)
                cap[dst], low[dst] = cap[dst] + c, low[dst] + c
            else:
                cap[dst] += min(n, cap[src])
                low[dst] += low[src] if st.kind == "all" else max(0, low[src] - size[src] + n)
                low[src] = max(0, low[src] - n)
            if st.kind == "all":
                cap[src] = low[src] = 0
            size[src] -= n
            size[dst] += n
        elif st.kind in ("reveal", "show") and saw:
            shown = (st.content if st.kind == "reveal" else st.kinds).count(x)
            low[st.src] = max(low[st.src], shown)
            if st.kind == "reveal":
                cap[st.src] = shown
        elif st.kind == "count" and x in st.kinds:
            for m in st.locations:
                cap[m] = min(cap[m], st.hi)
        for m in h.locations:
            cap[m] = min(cap[m], size[m], total)
        sizes.append(dict(size))
        most.append(dict(cap))
        ahead.append(dict(low))
    least = [dict(ahead[-1])]
    for t in range(len(h.steps) - 1, -1, -1):
        st, after, before = h.steps[t], least[-1], dict(ahead[t])
        saw = st.audience is None or within in st.audience or t in learned
        for m in h.locations:
            before[m] = max(before[m], after[m])
        if st.kind in ("move", "all"):
            src, dst = st.src, st.dst
            if saw:
                c = (st.kinds if st.kind == "move" else st.content).count(x)
            else:  # the copies at dst beyond those it may have held came from src
                c = max(0, after[dst] - most[t][dst])
            n = c if saw else len(st.kinds) if st.kind == "move" else sizes[t][src]
            before[src] = max(ahead[t][src], c if st.kind == "all" else after[src] + c)
            before[dst] = max(ahead[t][dst], after[dst] - n)
        elif st.kind == "count" and set(st.kinds) == {x} and len(st.locations) == 1:
            m = st.locations[0]
            before[m] = after[m] = max(after[m], st.lo)
        spread = sum(most[t].values())
        for m in h.locations:  # the deck: copies not elsewhere are here
            before[m] = max(before[m], total - (spread - most[t][m]))
        least.append(before)
    least.reverse()
    for up, lo in zip(most, least, strict=True):  # the copies that must lie elsewhere
        floor = sum(lo.values())
        for m in h.locations:
            up[m] = min(up[m], total - floor + lo[m])
    return most, least


def _copies_marked(
    h: CardHistory,
    agent: str,
    x: int,
    within: str,
    loc: str,
    *,
    counts_mark: bool = True,
    upto: int | None = None,
    shed: bool = False,
    every: bool = False,
    arrivals: list[int] | None = None,
) -> tuple[int, int]:
    """At most how many copies of kind ``x`` at ``loc``, in a world seat ``within``
    considers possible, ``agent`` saw (or a public event showed, or, with
    ``counts_mark``, a count or fact about ``x`` covered), and at most how many
    copies lie there: :func:`never_known` for one kind, followed as ``within``
    saw it (exactly at the events it saw, as upper bounds elsewhere); after the
    first ``upto`` steps (default: all of them).

    With ``shed``, the copies that left a place ``H`` in a move ``agent`` did not see
    are counted less the partners they can trade ways with (:func:`_stayers`): cards
    lying at ``H`` then that stay there to the end unseen by ``agent``, none of them a
    copy it may have seen, each used once.  A copy whose way from that move to the
    end ``agent`` never sees trades with one: it stays at ``H``, the partner goes its
    way, and ``agent`` sees the same.  A copy seen again on its way is counted again
    there (a move, reveal or show ``agent`` sees marks what it shows whatever was
    counted before), so the count bounds, in every world, the copies seen that did
    not trade (:func:`outplayed`).  No trade before a count or fact (it may tell the
    kinds apart), nor at a move whose cards ``agent`` sees later among others
    (:func:`_shown_whole`: they are counted again there, and the partner is lost).  With
    ``every``, every copy counts as seen at the deal (the count bounds all the copies
    there, traded ones aside, and partners are of other kinds).  Given a list as
    ``arrivals``, every step that may bring a copy of ``x`` into ``loc`` in a world of
    ``within`` is appended to it.  A move ``within`` did not see but whose cards it saw
    later as a whole (:func:`_learned`) counts as seen."""
    mine = set(h.owns.get(agent, ()))
    watch = set(h.owns.get(within, ())) | set(h.public_locations())
    size = {m: len(h.initial[m]) for m in h.locations}
    known = sum(h.initial[m].count(x) for m in watch)
    cap = {
        m: h.initial[m].count(x) if m in watch else min(size[m], h.deck.copies[x] - known)
        for m in h.locations
    }
    public = set(h.public_locations())
    seen = {m: cap[m] if every or m in mine or m in public else 0 for m in h.locations}
    last_fact = max((i for i, st in enumerate(h.steps) if st.kind in ("count", "fact")), default=-1)
    used: Counter[str] = Counter()  # partners taken at each place
    bound, least = _copies_bounds(h, x, within)  # at most there; what must stay behind
    learned = _learned(h, within)
    shown_later = _shown_whole(h, agent) if shed else set()  # trading there is in vain
    for i, st in enumerate(h.steps[:upto]):
        saw = st.audience is None or within in st.audience or i in learned
        sees = st.audience is None or agent in st.audience
        if st.kind in ("move", "all"):
            src, dst = st.src, st.dst
            sees = sees or src in mine or dst in mine
            n = len(st.kinds) if st.kind == "move" else size[src]
            if saw:
                c = (st.kinds if st.kind == "move" else st.content).count(x)
                went, marked_went = c, c if sees else min(c, seen[src])
                cap[src] -= c
                if sees:  # copies are alike: those seen leaving may be the ones seen there
                    seen[src] -= min(c, seen[src])
            else:
                went = min(n, max(0, cap[src] - least[i + 1][src]))
                marked_went = went if sees else min(went, seen[src])
            if (
                shed
                and not sees
                and st.kind == "move"
                and marked_went
                and i > last_fact
                and i not in shown_later
            ):
                if src != loc and src not in public:
                    free = _stayers(h, agent, i) - used[src] - min(seen[src], cap[src])
                    traded = max(0, min(marked_went, free))
                    used[src] += traded
                    marked_went -= traded
            if st.kind == "all":
                cap[src] = 0
            if arrivals is not None and dst == loc and went:
                arrivals.append(i)
            cap[dst] += went
            seen[dst] += marked_went
            size[src] -= n
            size[dst] += n
        elif st.kind == "reveal":
            if saw:
                cap[st.src] = st.content.count(x)
            if sees:
                seen[st.src] = cap[st.src]
        elif st.kind == "show" and sees:
            more = st.kinds.count(x) if saw else len(st.kinds)
            seen[st.src] += more
        elif st.kind in ("count", "fact") and counts_mark:
            ks, locs = _constrained(h, st)
            if x in ks:
                for m in locs:
                    seen[m] = cap[m]
        for m in h.locations:
            cap[m] = min(cap[m], size[m], bound[i + 1][m])
            seen[m] = min(seen[m], cap[m])
    return seen[loc], cap[loc]


def _stayers(h: CardHistory, agent: str, i: int) -> int:
    """At least how many cards lie at the place step ``i`` (a move) took cards from, just
    after it, and stay there to the end unseen by ``agent``: every card taken from it
    later may be one of them, and a reveal ``agent`` sees (or a move of the whole
    place) leaves none."""
    src = h.steps[i].src
    n = h.sizes(i + 1)[src]
    for st in h.steps[i + 1 :]:
        if st.src != src or n <= 0:
            continue
        sees = st.audience is None or agent in st.audience
        if st.kind == "move":
            n -= len(st.kinds)
        elif st.kind == "all" or st.kind == "reveal" and sees:
            return 0
        elif st.kind == "show" and sees:
            n -= len(st.kinds)
    return max(0, n)


def never_known(h: CardHistory, agent: str, atom: Any, *, within: str | None = None) -> bool:
    """Whether ``agent`` surely does not know the card atom ``atom`` (``has(L, C#k)``)
    in any world of ``h``: ``True`` is exact, ``False`` means not shown.

    A card is *marked* once ``agent`` saw it (its locations at the deal, a move,
    reveal or show it saw, a move into one of its locations), and marked *as
    its kind* once a public event showed it.  Marks travel with the cards; at
    a move nobody marking saw, at most as many marked cards travel as the
    source held.  A count or fact about ``C`` marks every card at its
    locations then; one about other kinds only bars those kinds below, but a
    fact's conjunct ``has(M, D)`` shows a ``D`` at ``M`` instead, and one that only
    denies card atoms of places the copies at ``L`` cannot have been at then bars
    nothing.  When
    no copy of ``C`` at ``L`` can be marked and the unmarked cards elsewhere,
    less the copies of the barred kinds not shown publicly, can be as many as
    the copies of ``C`` not shown publicly (less ``k - 1``), then in every world the copies of ``C`` at ``L``
    can trade places, through the whole history, with unmarked cards of
    other kinds elsewhere: ``agent`` and every public event see the same,
    and fewer than ``k`` copies stay at ``L``.

    With ``within`` (a seat), the copies of ``C`` are also followed as that
    seat saw them, and the claim is about every world ``within`` considers
    possible: a copy ``within`` saw go from its own hand to ``L`` never
    passed ``agent``'s eyes, whatever other cards did.

    Examples
    --------
    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move, MoveAll
    >>> from kripke.formulas import Atom
    >>> h = CardHistory(Deck(["A", "B", "C"], [2, 2, 2]),
    ...                 {"x": "A B", "y": "A C", "z": "B C", "pile": ""}, ["x", "y", "z"])
    >>> h = h.then(Move("A", "y", "pile", seen_by=["y"]))
    >>> never_known(h, "x", Atom("has", ("z", "A"))), never_known(h, "y", Atom("has", ("pile", "A")))
    (True, False)
    >>> never_known(h.then(MoveAll("pile", "z")), "y", Atom("has", ("z", "A")))  # y's card went there
    False
    """
    cell = h.card_cell(atom)
    if cell is None:  # not a card atom of this history: not decided
        return False
    loc, x, j = cell
    mk = _marks(h, agent, x, loc)
    if (mk.marked[loc] or mk.shown[loc][x]) and (
        within is None or _copies_marked(h, agent, x, within, loc)[0]
    ):
        return False
    if _enough_unmarked(h, x, j, loc, mk):
        return True
    return within is not None and _own_partners(h, within, x, loc, mk) >= _wanted(h, x, j, mk)


def _wanted(h: CardHistory, x: int, j: int, mk: _Marks) -> int:
    """The partners :func:`never_known` wants: the copies of kind ``x`` no public event
    showed, less ``j - 1``."""
    public_copies = sum((mk.low[m] for m in h.locations), Counter())
    return h.deck.copies[x] - public_copies[x] - j + 1


def _own_partners(h: CardHistory, within: str, x: int, loc: str, mk: _Marks) -> int:
    """The partners for :func:`never_known` in ``within``'s own hand, the same in every
    world ``within`` considers possible (it saw every card come in and go out): its
    cards away from ``loc`` of kinds other than ``x`` that no count or fact bars, less
    those the agent may have seen or a public event showed there (``mk``); 0 when
    ``within`` may not know its hand (a move out of it that ``within`` did not see may
    have taken another card: then a barred kind may be what it holds)."""
    mine = h.owns.get(within, ())
    if any(
        st.kind in ("move", "all")
        and (st.dst in mine or st.src in mine)
        and not (st.audience is None or within in st.audience)
        for st in h.steps
    ):
        return 0
    content = h.content()
    n = 0
    for m in mine:
        if m != loc:
            good = sum(1 for c in content[m] if h.deck.index(c) not in mk.barred | {x})
            n += max(0, good - mk.either[m])
    return n


def _enough_unmarked(h: CardHistory, x: int, j: int, loc: str, mk: _Marks) -> bool:
    """:func:`never_known`'s count: whether the cards away from ``loc`` that the agent
    never saw and no public event showed (at least ``size - marked - pub`` at each
    place, ``mk``), less the copies of the barred kinds not shown publicly, are at
    least as many as the copies of kind ``x`` not shown publicly less ``j - 1``: then
    every unmarked copy at ``loc`` beyond ``j - 1`` has an unmarked partner of
    another kind elsewhere, in every world."""
    free = sum(max(0, mk.size[m] - mk.either[m]) for m in h.locations if m != loc)
    public_copies = sum((mk.low[m] for m in h.locations), Counter())
    free -= sum(max(0, h.deck.copies[k] - public_copies[k]) for k in mk.barred)
    return free >= _wanted(h, x, j, mk)


@dataclass
class _Marks:
    """:func:`never_known`'s reading of a history for one agent and one kind ``x``, at
    every location now: how many cards it may have seen (``marked``, upper bounds),
    how many a public event showed (``pub``; ``shown`` per kind, upper bounds; ``low``
    per kind, lower bounds), how many it may have seen or a public event may have
    shown (``either``: one upper bound for both, as a card can be both), and the kinds
    other counts and facts name (``barred``)."""

    size: dict[str, int]
    marked: dict[str, int]
    pub: dict[str, int]
    either: dict[str, int]
    shown: dict[str, Counter[int]]
    low: dict[str, Counter[int]]
    barred: set[int]


def _marks(h: CardHistory, agent: str, x: int, loc: str) -> _Marks:
    """The marks of :func:`never_known` for ``agent``, kind ``x`` and the copies at ``loc``
    now (see there).

    A fact's conjunct ``has(M, C#j)`` shows ``j`` copies at ``M`` as a show would.  A
    conjunct that only denies card atoms (``~has(M, C)``, ``~(p | q)``, ``~(p & q)``) of
    places ``M`` none of the cards at ``loc`` now can have been at then bars no kind:
    trading a copy at ``loc`` with a partner of such a kind takes no copy of it to
    ``M`` then, it may only take one away, and the conjunct stays true."""
    reach = _reaching(h, loc)
    mine = set(h.owns.get(agent, ()))
    public = set(h.public_locations())
    size = {m: len(h.initial[m]) for m in h.locations}
    # marks of unknown kind (the agent's sightings) and, per kind, public ones (upper bounds)
    marked = {m: size[m] if m in mine else 0 for m in h.locations}
    shown: dict[str, Counter[int]] = {
        m: Counter(h.initial[m]) if m in public else Counter() for m in h.locations
    }
    pub = {m: size[m] if m in public else 0 for m in h.locations}  # publicly shown, in all
    either = {m: max(marked[m], pub[m]) for m in h.locations}  # seen or shown
    # at least this many copies of a kind lie at a location, shown there publicly
    low: dict[str, Counter[int]] = {m: Counter(shown[m]) for m in h.locations}
    barred: set[int] = set()

    def go(src: str, dst: str, n: int, seen: bool, kinds: Counter[int] | None) -> None:
        if n == size[src]:  # everything goes: what was shown there is shown at dst
            low[dst].update(low[src])
            low[src] = Counter()
        elif kinds is not None:
            low[dst].update(kinds)
            low[src] = Counter({k: c - kinds[k] for k, c in low[src].items() if c > kinds[k]})
        else:  # any n cards: the shown ones may be among them
            low[src] = Counter({k: c - n for k, c in low[src].items() if c > n})
        marked[dst] += n if seen else min(n, marked[src])
        either[dst] += n if seen else min(n, either[src])
        if kinds is None:  # which cards moved is not public: any marked ones may have
            pub[dst] += min(n, pub[src])
            for k, c in list(shown[src].items()):
                shown[dst][k] += min(n, c)
        else:
            pub[dst] += n
            shown[dst].update(kinds)
            # the copies of a kind are alike: those that left may be taken to be the ones
            # shown at src first (in every world, whatever was shown there)
            for k, c in kinds.items():
                shown[src][k] -= min(c, shown[src][k])
        size[src] -= n
        size[dst] += n
        for m in (src, dst):
            marked[m] = min(marked[m], size[m])
            either[m] = min(either[m], size[m])
            pub[m] = min(pub[m], size[m])
            for k in shown[m]:
                shown[m][k] = min(shown[m][k], size[m])

    for i, st in enumerate(h.steps):
        sees = st.audience is None or agent in st.audience
        if st.kind in ("move", "all"):
            n = len(st.kinds) if st.kind == "move" else size[st.src]
            kinds = None
            if st.audience is None:
                kinds = Counter(st.kinds if st.kind == "move" else st.content)
            go(st.src, st.dst, n, sees or st.src in mine or st.dst in mine, kinds)
        elif st.kind in ("reveal", "show"):
            what = Counter(st.content if st.kind == "reveal" else st.kinds)
            if sees:
                either[st.src] = min(either[st.src] + sum(what.values()), size[st.src])
            if st.audience is None:
                if st.kind == "reveal":
                    low[st.src] = Counter(what)
                pub[st.src] = min(pub[st.src] + sum(what.values()), size[st.src])
                for k, c in what.items():
                    shown[st.src][k] = min(shown[st.src][k] + c, size[st.src])
            elif sees:
                marked[st.src] = min(marked[st.src] + sum(what.values()), size[st.src])
        elif st.kind in ("count", "fact"):
            ks, locs = _constrained(h, st)
            if x in ks:
                for m in locs:
                    marked[m] = either[m] = size[m]
                continue
            for m, k, j in _placed(h, st):  # public like a show: those copies lie at m
                if j > low[m][k]:
                    pub[m] = min(pub[m] + j - low[m][k], size[m])
                    either[m] = min(either[m] + j - low[m][k], size[m])
                    low[m][k] = j
            barred |= _constrained_rest(h, st, reach[i])
    return _Marks(size, marked, pub, either, shown, low, barred)


def _reaching(h: CardHistory, loc: str) -> list[set[str]]:
    """Per step of ``h``, the places whose cards then may lie at ``loc`` at the end (the
    same in every world: moves name their places publicly)."""
    now = {loc}
    out: list[set[str]] = []
    for st in reversed(h.steps):
        out.append(set(now))
        if st.kind == "all" and st.src != st.dst:
            now = (now - {st.src}) | ({st.src} if st.dst in now else set())
        elif st.kind == "move" and st.dst in now:
            now = now | {st.src}
    out.reverse()
    return out


def _denies(f: Any) -> bool:
    """Whether ``f`` is the negation of a formula built from card atoms with ``&`` and
    ``|`` alone: fewer cards anywhere keep it true."""
    from kripke.formulas import And, Atom, Not, Or

    def positive(g: Any) -> bool:
        if isinstance(g, Atom):
            return True
        return isinstance(g, (And, Or)) and all(positive(a) for a in g.args)

    return isinstance(f, Not) and positive(f.arg)


def _conjuncts(f: Any) -> list[Any]:
    """The conjuncts of ``f``, nested conjunctions flattened."""
    from kripke.formulas import And

    if isinstance(f, And):
        return [g for a in f.args for g in _conjuncts(a)]
    return [f]


def _placed(h: CardHistory, st: Any) -> list[tuple[str, int, int]]:
    """The card atoms ``has(L, C#j)`` among the conjuncts of a fact step (a count's
    lower bound on one card at one location), as ``(L, C, j)``: the step shows
    publicly that ``L`` holds at least ``j`` copies of ``C``, as a show of those copies
    would."""
    from kripke.formulas import Atom

    if st.kind == "count":
        if len(st.locations) == 1 and len(st.kinds) == 1 and st.lo > 0:
            return [(st.locations[0], st.kinds[0], st.lo)]
        return []
    return [h.atom_cell(g) for g in _conjuncts(st.formula) if isinstance(g, Atom)]


def _constrained_rest(h: CardHistory, st: Any, reach: set[str]) -> set[int]:
    """The kinds a count or fact step is about, less those only its placed atoms
    (:func:`_placed`) and its denials of places outside ``reach`` (:func:`_denies`; a
    count's upper bound) name."""
    from kripke.formulas import Atom

    if st.kind == "count":
        ks = set(st.kinds)
        lower = st.lo > 0 and not _placed(h, st)
        upper = st.hi < sum(h.deck.copies[k] for k in ks) and not reach.isdisjoint(st.locations)
        return ks if lower or upper else set()
    rest = [
        g
        for g in _conjuncts(st.formula)
        if not isinstance(g, Atom)
        and not (_denies(g) and all(h.atom_cell(a)[0] not in reach for a in g.atoms()))
    ]
    return {h.atom_cell(a)[1] for g in rest for a in g.atoms()}


def outplayed(h: CardHistory, agent: str, atom: Any, *, within: str) -> bool:
    """Whether ``agent`` surely does not know the card atom ``atom`` (``has(L, C#k)``, on a
    deck with copies or without) in any world seat ``within`` considers possible,
    because ``L`` has put down, unseen by ``agent``, at least as many cards as the
    copies of ``C`` there that ``agent`` may have seen: ``True`` is exact, ``False``
    means not shown.

    After a cut-off step (:func:`_cut_offs`: the last step that may have brought a copy
    of ``C`` into ``L`` in a world of ``within``, or showed ``agent`` the cards there,
    or was a count or fact, or any later step; the copies at ``L`` only leave from
    then on, whatever other cards come in), ``L`` held at most ``M`` copies of ``C``
    that ``agent`` may have seen, a public event showed or a count covered, in every
    world of ``within``
    (:func:`_copies_marked`, followed as ``within`` saw them, and no more than the
    copies left when those ``within`` was dealt and followed unseen by ``agent`` are
    taken away, :func:`_clean_copies`), less those that first trade ways, at a move
    of another hand ``agent`` did not see, with cards that hand keeps to the end
    unseen (``shed``: the copies ``agent`` saw go into a pile that hand picked up,
    and that may have stayed with it when it put cards down).  Since then ``L`` put down,
    in moves ``agent`` did not see, cards of which at least ``N`` were never seen by
    ``agent`` again nor came back to ``L`` (:func:`_put_down_hidden`).  When ``N >= M``,
    in every such world each marked copy still at ``L`` has a partner of its own among
    those ``N`` cards that is not itself a marked copy of ``C`` (the marked copies put
    down are among them, and with those that stayed they are at most ``M``): the two
    trade ways from that move on (the copy goes where the partner went, the partner
    stays at ``L``), and ``agent`` sees the same.  A partner that is an unmarked copy
    of ``C`` leaves an unmarked copy at ``L``.  Then no copy at ``L`` is marked and, as
    in :func:`never_known`, when the cards elsewhere that ``agent`` never saw are
    enough (:func:`_enough_unmarked`), every copy there beyond ``k - 1`` trades places,
    through the whole history, with one of them of another kind: fewer than ``k``
    copies stay at ``L`` in a world ``agent`` cannot tell apart.  Without that count:
    when ``N`` is at least all the copies ``L`` can hold after that step (at most the
    deck's, less those that trade ways at other hands; ``every``), less ``k - 1``,
    the partners of another kind among the ``N`` cards are enough for every copy
    beyond ``k - 1``, seen or not.

    Unlike :func:`dislodged` the cards put down may have been picked up and played
    on since (followed as a number), and the copies of ``C`` that ``agent`` never saw
    need no partner among them; unlike :func:`rerouted` the card may have copies.

    Examples
    --------
    y saw its A go into the pile z took; z then put a card down that y never sees:

    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move, MoveAll
    >>> from kripke.formulas import Atom
    >>> h = CardHistory(Deck(["A", "B", "C", "D"], [2, 2, 2, 2]),
    ...                 {"x": "B C", "y": "A D", "z": "B C D", "w": "A", "pile": ""},
    ...                 ["x", "y", "z"])
    >>> h = h.then(Move("A", "y", "pile", seen_by=["y"]), MoveAll("pile", "z", seen_by=["z"]),
    ...            Move("B", "z", "pile", seen_by=["z"]))
    >>> has_z_a = Atom("has", ("z", "A"))
    >>> never_known(h, "y", has_z_a, within="x")
    False
    >>> outplayed(h, "y", has_z_a, within="x")        # x knows y does not know it
    True
    """
    cell = h.card_cell(atom)
    if cell is None or cell[0] in h.owns.get(agent, ()):
        return False
    loc, x, j = cell
    t0 = _last_arrival(h, agent, loc, x, within)
    slots = _put_down_since(h, agent, loc, within, t0)
    for t in _cut_offs(h, t0, slots):
        hidden = sum(n for i, n in slots.items() if i > t)
        every = _copies_marked(h, agent, x, within, loc, upto=t + 1, shed=True, every=True)[0]
        if hidden >= min(every, h.deck.copies[x]) - j + 1:
            return True  # a partner of another kind for every copy there beyond k - 1
        most = _copies_marked(h, agent, x, within, loc, upto=t + 1, shed=True)[0]
        if hidden < most:  # the copies agent cannot have seen, of all of them, may bound it
            most = min(most, h.deck.copies[x] - _clean_copies(h, agent, x, within, upto=t + 1))
        if hidden >= most:
            mk = _marks(h, agent, x, loc)
            return not mk.low[loc][x] and _enough_unmarked(h, x, j, loc, mk)
    return False


def _cut_offs(h: CardHistory, t0: int, slots: dict[int, int]) -> list[int]:
    """The steps from which :func:`outplayed` counts a place's moves unseen by the inner
    seat (``slots``, from :func:`_put_down_since`): ``t0``, the last one that may bring a
    copy of the kind there in a world of the outer seat (:func:`_last_arrival`), and the
    step before each such move after it, and the last step.  From any of them on the
    copies there only leave; a later one leaves fewer copies that the inner seat may have
    seen there and fewer moves to trade at, so each is tried (the marks only fall between
    two of them)."""
    ends = {i - 1 for i, n in slots.items() if n} | {len(h.steps) - 1}
    return [t0] + sorted(t for t in ends if t > t0)


def _put_down_since(h: CardHistory, agent: str, loc: str, within: str, t0: int) -> dict[int, int]:
    """For each move ``loc`` made unseen by ``agent`` after step ``t0``
    (:func:`_last_arrival`), at least how many of its cards stay unseen by ``agent`` and
    away from ``loc`` to the end in every world of ``within`` (:func:`_put_down_hidden`)."""
    mine = set(h.owns.get(agent, ()))
    steps = h.steps
    return {
        i: max(0, _put_down_hidden(h, i, agent, loc, within))
        for i in range(t0 + 1, len(steps))
        if steps[i].kind == "move" and steps[i].src == loc and not _sees(steps[i], agent, mine)
    }


def _last_arrival(
    h: CardHistory, agent: str, loc: str, x: int | None = None, within: str | None = None
) -> int:
    """The last step that brought cards into ``loc``, showed ``agent`` its cards or was a
    count or fact (``-1``: none).  Given a kind ``x`` and a seat ``within``, a move into
    ``loc`` counts only where it may bring a copy of ``x`` in a world of ``within``
    (:func:`_copies_marked`): after that step the copies of ``x`` at ``loc`` only leave."""
    mine = set(h.owns.get(agent, ()))
    brought: list[int] = []
    if x is not None and within is not None:
        _copies_marked(h, agent, x, within, loc, arrivals=brought)
    return max(
        (
            i
            for i, st in enumerate(h.steps)
            if st.kind in ("count", "fact")
            or st.kind in ("move", "all")
            and st.dst == loc
            and (x is None or within is None or i in brought)
            or st.kind in ("reveal", "show")
            and st.src == loc
            and _sees(st, agent, mine)
        ),
        default=-1,
    )


def outplayed_counted(h: CardHistory, agent: str, atom: Any, *, within: str, program: Any) -> bool:
    """Whether ``agent`` surely does not know the card atom ``atom`` (``has(L, C#k)``) in
    any world seat ``within`` considers possible, because ``L`` has put down, unseen by
    ``agent``, more cards than the copies of ``C`` it can hold: ``True`` is exact,
    ``False`` means not shown.

    After the last step that brought cards into ``L`` (:func:`outplayed`'s), ``L`` put
    down in moves ``agent`` did not see ``N`` cards that stay unseen by ``agent`` and
    away from ``L`` to the end (:func:`_put_down_hidden`).  In a world of ``within``
    where ``L`` holds ``m`` copies at the end and ``s`` of those cards are copies, each
    of ``m - k + 1`` copies at ``L`` can trade ways with one of the ``N - s`` others
    from that move on (the copy goes where the other card went, the other card stays
    at ``L``): ``agent`` sees the same, and ``L`` keeps fewer than ``k``.  It holds in
    every world of ``within`` when the most ``m + s`` there, which ``within``'s integer
    program gives exactly (``program``, a
    :class:`~games.epistemic.program.SeatProgram`), is at most ``N + k - 1``: the bound
    :func:`outplayed` reads from the copies' paths without counting.

    Examples
    --------
    z took the pile with y's A and put down two cards y never sees; x knows z then held
    at most one A beside them:

    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move, MoveAll
    >>> from games.epistemic.program import SeatProgram
    >>> from kripke.formulas import Atom
    >>> h = CardHistory(Deck(["A", "B", "C"], [2, 2, 2]),
    ...                 {"x": "A C", "y": "A B", "z": "B C", "pile": ""}, ["x", "y", "z"])
    >>> h = h.then(Move("A", "y", "pile", seen_by=["y"]), MoveAll("pile", "z", seen_by=["z"]),
    ...            Move("A B", "z", "pile", seen_by=["z"]))
    >>> outplayed_counted(h, "y", Atom("has", ("z", "A")), within="x",
    ...                   program=SeatProgram(h, "x"))
    True
    """
    cell = h.card_cell(atom)
    if cell is None or cell[0] in h.owns.get(agent, ()):
        return False
    loc, x, j = cell
    t0 = _last_arrival(h, agent, loc, x, within)
    slots = _put_down_since(h, agent, loc, within, t0)
    here = h.kinds_now()[loc].count(x)
    for t in _cut_offs(h, t0, slots):
        hidden = sum(n for i, n in slots.items() if i > t)
        if not hidden:
            return False
        put = [i for i, n in slots.items() if n and i > t]
        if here + sum(h.steps[i].kinds.count(x) for i in put) > hidden + j - 1:
            continue  # the true world already has more: no program needed
        most = program.most([(loc, x)], [(i, x) for i in put])
        if most is not None and most <= hidden + j - 1:
            return True
    return False


def _clean_copies(h: CardHistory, agent: str, x: int, within: str, *, upto: int) -> int:
    """At least how many copies of kind ``x``, after the first ``upto`` steps, ``agent``
    never saw, no public event showed and no count or fact about ``x`` covered, in
    every world seat ``within`` considers possible: the copies ``within`` was dealt
    (when ``agent`` does not see its locations), followed as one group through every
    place they may have gone (a move ``within`` saw takes the copies it saw, one it
    did not see any of them), less the most that an event ``agent`` saw (or a public
    one, or such a count or fact) at one of those places may have shown."""
    mine = set(h.owns.get(agent, ()))
    theirs = set(h.owns.get(within, ()))
    public = set(h.public_locations())
    places = theirs - mine - public
    clean = sum(h.initial[m].count(x) for m in places)
    places = {m for m in places if x in h.initial[m]}
    size = {m: len(h.initial[m]) for m in h.locations}
    for st in h.steps[:upto]:
        if not clean:
            return 0
        saw = st.audience is None or within in st.audience
        if st.kind in ("move", "all"):
            n = len(st.kinds) if st.kind == "move" else size[st.src]
            if st.src in places:
                moved = (st.kinds if st.kind == "move" else st.content).count(x) if saw else n
                if moved and _sees(st, agent, mine):
                    clean -= min(clean, moved)
                elif moved:
                    places.add(st.dst)
                if st.kind == "all":
                    places.discard(st.src)
            size[st.src] -= n
            size[st.dst] += n
        elif st.kind in ("reveal", "show") and st.src in places and _sees(st, agent, mine):
            shown = st.content if st.kind == "reveal" else st.kinds
            clean -= min(clean, shown.count(x) if saw else len(shown))
        elif st.kind in ("count", "fact"):
            ks, locs = _constrained(h, st)
            if x in ks and locs & places:
                return 0
    return clean


def _swap_class(h: CardHistory, x: int) -> set[int]:
    """The kinds other than ``x`` that every count of ``h`` treats like ``x`` (a count's
    cards hold both or neither) and no fact names (empty when a fact names ``x``):
    trading a copy of ``x`` for a card of such a kind changes no count and no fact."""
    cls = set(range(len(h.deck.copies))) - {x}
    for st in h.steps:
        if st.kind == "fact":
            ks, _ = _constrained(h, st)
            if x in ks:
                return set()
            cls -= ks
        elif st.kind == "count":
            ks = set(st.kinds)
            cls = {k for k in cls if (k in ks) == (x in ks)}
    return cls


def _clean_cards(h: CardHistory, agent: str, within: str, kinds: set[int]) -> int:
    """How many cards of ``kinds`` lie at ``within``'s locations now that have been
    there since the deal and that ``agent`` never saw, nor any public event showed
    (the same in every world ``within`` considers possible: it saw its hand dealt
    and every move in or out); cards that came in later count as seen, and a
    location with a move ``within`` did not see counts none."""
    mine_a = set(h.owns.get(within, ()))
    mine_b = set(h.owns.get(agent, ()))
    public = set(h.public_locations())
    if mine_a & mine_b:
        return 0
    content = {m: Counter(h.initial[m]) for m in mine_a}
    clean = {m: Counter() if m in public else Counter(h.initial[m]) for m in mine_a}
    blind: Counter[str] = Counter()  # cards shown to agent there, which within did not see

    def expose(m: str, shown: Counter[int]) -> None:  # the seen copies: unclean ones first
        for k, c in shown.items():
            clean[m][k] -= max(0, c - (content[m][k] - clean[m][k]))

    for st in h.steps:
        if st.kind in ("move", "all"):
            moved = Counter(st.kinds if st.kind == "move" else st.content)
            if st.audience is not None and within not in st.audience:
                for m in {st.src, st.dst} & set(clean):  # unseen: nothing there is sure
                    del clean[m], content[m]
                continue
            if st.src in content:
                expose(st.src, moved)
                content[st.src] -= moved
            if st.dst in content:
                content[st.dst].update(moved)  # new arrivals stay unclean
        elif st.kind in ("reveal", "show") and st.src in content:
            if st.audience is None or agent in st.audience:
                what = Counter(st.content if st.kind == "reveal" else st.kinds)
                if st.audience is None or within in st.audience:
                    expose(st.src, what)
                else:  # within did not see which cards: any of them may have been
                    blind[st.src] += sum(what.values())
    return sum(max(0, sum(clean[m][k] for k in kinds) - blind[m]) for m in clean)


def _unclean_most(h: CardHistory, agent: str) -> dict[str, int]:
    """At most how many cards at each location ``agent`` saw or a public event showed
    (counts and facts mark nothing): :func:`never_known`'s marks without the counts."""
    mine = set(h.owns.get(agent, ()))
    public = set(h.public_locations())
    size = {m: len(h.initial[m]) for m in h.locations}
    most = {m: size[m] if m in mine or m in public else 0 for m in h.locations}
    for st in h.steps:
        sees = st.audience is None or agent in st.audience
        if st.kind in ("move", "all"):
            n = len(st.kinds) if st.kind == "move" else size[st.src]
            seen = sees or st.src in mine or st.dst in mine
            most[st.dst] += n if seen else min(n, most[st.src])
            size[st.src] -= n
            size[st.dst] += n
        elif st.kind in ("reveal", "show") and sees:
            most[st.src] += len(st.content) if st.kind == "reveal" else len(st.kinds)
        for m in (st.src, st.dst):
            if m:
                most[m] = min(most[m], size[m])
    return most


def swap_unknown(
    h: CardHistory, agent: str, atom: Any, *, within: str, knowledge: Any = None
) -> bool:
    """Whether ``agent`` surely does not know the card atom ``atom`` (``has(L, C#k)``) in
    any world seat ``within`` considers possible: ``True`` is exact, ``False``
    means not shown.

    The copies of ``C`` at ``L`` can trade places, through the whole history,
    with cards of ``within``'s own hand when ``agent`` never saw any of them,
    no public event showed them, and every count of the history treats their
    kinds alike (the same suit, where the counts are voids) and no fact names
    them: ``agent`` then sees the same, and fewer than ``k`` copies stay at
    ``L``.  Unlike :func:`never_known` this holds however many counts (voids)
    the history has, since the trade changes none of them; it needs enough
    such cards for every copy of ``C`` that ``L`` may hold in ``within``'s
    worlds: in ``within``'s hand, untouched since the deal, or, given
    ``within``'s exact counting :class:`~games.deal.DealKnowledge` as
    ``knowledge``, anywhere but at ``L`` and ``agent``'s locations, at least
    as many as the fewest such cards there in ``within``'s worlds less every
    card there ``agent`` may have seen (a superset of the worlds only lowers
    that fewest, so a relaxed knowledge object is sound here too).  Where nothing
    ever came into ``L``, the partners may also be cards lying since the deal at
    places nothing came into, or cards now at a place ``agent`` does not own that
    came there unseen by it (a buried kitty, :func:`_hidden_partners`); there the
    places of both cards are known at every count, and a count that has no lower
    (upper) bound lets a card of its kinds leave (come in) (:func:`_absorbs`).

    Examples
    --------
    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Count
    >>> from kripke.formulas import Atom
    >>> h = CardHistory(Deck(["AS", "KS", "AH", "KH"], [2, 2, 2, 2]),
    ...                 {"x": "AS KS", "y": "AS KH", "z": "KS AH AH KH"}, ["x", "y", "z"])
    >>> h = h.then(Count("z", "AS KS", 1, 1))   # z holds one spade
    >>> swap_unknown(h, "y", Atom("has", ("z", "KS")), within="x")   # x's AS could be it
    True
    >>> swap_unknown(h, "y", Atom("has", ("z", "AH")), within="x")   # x has no heart
    False
    """
    cell = h.card_cell(atom)
    if within == agent or cell is None:
        return False
    loc, x, j = cell
    if loc in h.owns.get(within, ()) or loc in h.owns.get(agent, ()):
        return False
    marked, most = _copies_marked(h, agent, x, within, loc, counts_mark=False)
    need = most - j + 1
    if need <= 0:
        return True
    cls = _swap_class(h, x)
    if cls and not marked:
        if _clean_cards(h, agent, within, cls) >= need:
            return True
        if knowledge is not None and _clean_elsewhere(h, agent, cls, loc, knowledge, need) >= need:
            return True
    return knowledge is not None and (
        _static_partners(h, agent, within, x, loc, knowledge, need)
        or _hidden_partners(h, agent, within, x, loc, knowledge, need, j)
    )


def _clean_elsewhere(
    h: CardHistory, agent: str, cls: set[int], loc: str, knowledge: Any, need: int
) -> int:
    """The fewest cards of ``cls`` away from ``loc`` and ``agent``'s locations in the worlds
    of ``knowledge`` (a seat's counting), less every card there ``agent`` may have seen
    (or at least ``need`` of them, where the cell bounds alone assure so many)."""
    others = set(h.owns.get(agent, ())) | {loc}
    unclean = _unclean_most(h, agent)
    size = h.sizes()
    spots = [m for m in h.locations if m not in others and unclean[m] < size[m]]
    if not spots:
        return 0
    seen = sum(unclean[m] for m in spots)
    return _fewest(h, knowledge, cls, spots, enough=need + seen) - seen


def _static_partners(
    h: CardHistory, agent: str, within: str, x: int, loc: str, knowledge: Any, need: int
) -> bool:
    """Whether at least ``need`` cards, in every world of ``knowledge`` (a seat's counting), a copy of ``x``
    at ``loc`` can trade places with for the whole history, unseen by ``agent``,
    when nothing ever came into ``loc`` (so its copies of ``x`` lay there since
    the deal): cards lying since the deal at a place ``M`` nothing came into,
    never revealed to ``agent`` or to everybody, of kinds that every count over
    just one of ``loc`` and ``M`` treats like ``x`` and that no fact names, less
    the cards shown there (their shows keep holding); ``0`` when a copy of ``x``
    at ``loc`` may have been seen or shown to ``agent`` (a show ``within`` did not see
    may have been of ``x``)."""
    mine = set(h.owns.get(agent, ()))
    arrived: set[str] = set()
    revealed: set[str] = set()
    shown: Counter[str] = Counter()
    named: set[int] = set()
    for st in h.steps:
        sees = st.audience is None or agent in st.audience
        if st.kind in ("move", "all"):
            arrived.add(st.dst)
        elif st.kind == "reveal" and sees:
            revealed.add(st.src)
        elif st.kind == "show":
            # at loc, a show the agent saw must not hold x in any world of within's
            saw = st.audience is None or within in st.audience
            if st.src == loc and sees and (x in st.kinds or not saw):
                return False
            shown[st.src] += len(st.kinds)
        elif st.kind == "fact":
            named |= _constrained(h, st)[0]
    if loc in arrived or loc in revealed or loc in mine or x in named:
        return False
    public = set(h.public_locations())
    spots: dict[str, set[int]] = {}
    for m in h.locations:
        if m == loc or m in mine or m in public or m in arrived or m in revealed:
            continue
        alike = set(range(len(h.deck.copies))) - named - {x}
        for st in h.steps:
            if st.kind == "count" and (loc in st.locations) != (m in st.locations):
                alike = {k for k in alike if _absorbs(h, st, x, k, loc in st.locations)}
        if alike:
            spots[m] = alike
    # the cell bounds first (no counting), the exact fewest only when they fall short
    names = {m: [h.deck.name(k) for k in sorted(ks)] for m, ks in spots.items()}
    quick = sum(max(0, knowledge.count_range(names[m], [m])[0] - shown[m]) for m in spots)
    if quick >= need:
        return True
    total = sum(max(0, _fewest(h, knowledge, ks, [m]) - shown[m]) for m, ks in spots.items())
    return total >= need


def _absorbs(h: CardHistory, st: Any, x: int, q: int, loc_in: bool) -> bool:
    """Whether the count ``st`` stays true when a card of kind ``x`` and one of kind ``q``
    trade places between its locations and elsewhere (``loc_in``: the ``x`` was inside
    and leaves, else it comes in): the two kinds count alike, or the count has no
    lower bound (``lo`` is 0) and one of its cards leaves (it was there: the count
    stays at least 0), or no upper bound (``hi`` is at least all copies of its cards)
    and one comes in (it was elsewhere: the count stays within the copies).
    Several such trades at once move the count the same way, each by a card that
    was there (or elsewhere) before."""
    xin, qin = x in st.kinds, q in st.kinds
    if xin == qin:
        return True
    enters = qin if loc_in else xin
    if enters:
        return bool(st.hi >= sum(h.deck.copies[k] for k in st.kinds))
    return bool(st.lo == 0)


def _hidden_partners(
    h: CardHistory,
    agent: str,
    within: str,
    x: int,
    loc: str,
    knowledge: Any,
    need: int,
    j: int | None = None,
) -> bool:
    """Whether, in every world of ``knowledge`` (a seat's counting), at least ``need``
    cards that ``agent`` never saw, now at places it does not own (a buried kitty),
    can trade kinds with the copies of ``x`` at ``loc`` for the whole
    history, when nothing ever came into ``loc``: the cards at such a place ``M``
    may have come there by moves ``agent`` did not see, so at each count the places
    a card now at ``M`` may have been then are followed back; a count that holds
    ``loc`` and not all of those places, or some of them and not ``loc``, must treat
    the two kinds alike, and no fact may name them.  The cards at ``M`` that ``agent``
    may have seen, and the cards shown at those places while one of them could have
    been there (their shows must hold), are not counted.
    ``agent`` sees the same history (the trade only changes which kinds moved where
    it did not look), with fewer copies of ``x`` at ``loc``.  Given ``j`` (the atom
    ``has(loc, x#j)``), when the fewest over all the worlds fall short, the partners
    are counted again in the worlds where ``loc`` holds each number ``m >= j`` of
    copies, against ``m - j + 1`` (:func:`_per_copies`)."""
    steps = h.steps
    mine = set(h.owns.get(agent, ()))
    named: set[int] = set()
    for st in steps:
        sees = st.audience is None or agent in st.audience
        if st.kind in ("move", "all") and st.dst == loc:
            return False  # a copy at loc may have come in: not followed
        if st.kind == "reveal" and st.src == loc and sees:
            return False
        if st.kind == "show" and st.src == loc and sees:
            saw = st.audience is None or within in st.audience
            if x in st.kinds or not saw:
                return False
        if st.kind == "fact":
            named |= _constrained(h, st)[0]
    if x in named or loc in mine:
        return False
    public = set(h.public_locations())
    unclean = _unclean_most(h, agent)
    size = h.sizes()
    spots: dict[str, tuple[set[int], int]] = {}
    for m in h.locations:
        if m == loc or m in mine or m in public or unclean[m] >= size[m]:
            continue
        alike = set(range(len(h.deck.copies))) - named - {x}
        places, shown = {m}, 0
        for st in reversed(steps):  # places holds where a card now at m may be after st
            if st.kind == "count":
                inside = set(st.locations)
                if (loc in inside and not places <= inside) or (
                    loc not in inside and places & inside
                ):
                    alike = {k for k in alike if _absorbs(h, st, x, k, loc in inside)}
            elif st.kind == "show" and st.src in places:
                shown += len(st.kinds)
            elif st.kind in ("move", "all") and st.dst in places:
                places = places | {st.src}
        if loc in places:
            continue  # a card at m may have lain at loc: not a partner of its own
        if alike:  # less the cards there agent may have seen, and those shown
            spots[m] = (alike, shown + unclean[m])
    if not spots:
        return False
    names = {m: [h.deck.name(k) for k in sorted(ks)] for m, (ks, _) in spots.items()}
    quick = sum(max(0, knowledge.count_range(names[m], [m])[0] - n) for m, (_, n) in spots.items())
    if quick >= need:
        return True
    total = sum(max(0, _fewest(h, knowledge, ks, [m]) - n) for m, (ks, n) in spots.items())
    if total >= need or j is None:
        return total >= need

    def enough(given: Any, wanted: int) -> bool:
        got = sum(max(0, _fewest(h, given, ks, [m]) - n) for m, (ks, n) in spots.items())
        return got >= wanted

    return _per_copies(h, knowledge, x, loc, j, enough)


def _per_copies(h: CardHistory, knowledge: Any, x: int, loc: str, j: int, enough: Any) -> bool:
    """Whether ``enough(given, m - j + 1)`` holds for every number ``m >= j`` of copies
    of ``x`` that ``loc`` holds in some world of ``knowledge`` (a seat's counting),
    ``given`` being ``knowledge`` restricted to the worlds where ``loc`` holds exactly
    ``m``: the partners a copy needs counted only where the atom ``has(loc, x#j)`` is
    true (a world with fewer partners may be one where ``loc`` holds fewer copies).
    ``False`` when a count is too wide (not shown)."""
    try:
        dist = knowledge.count_distribution([h.deck.name(x)], [loc], exact=True)
        for m in (v for v, p in enumerate(dist) if p > 0 and v >= j):
            given = knowledge.copy()
            given.exactly([loc], [h.deck.name(x)], m)
            if not enough(given, m - j + 1):
                return False
    except (GameError, SizeLimitError):  # no such world, or too wide to count
        return False
    return True


def dislodged(h: CardHistory, agent: str, atom: Any, *, within: str, knowledge: Any) -> bool:
    """Whether ``agent`` surely does not know the card atom ``atom`` (``has(L, C#k)``) in
    any world seat ``within`` considers possible, because ``L``'s owner has since put
    cards down that ``agent`` never saw: ``True`` is exact, ``False`` means not shown.

    After the last time cards came into ``L``, ``L`` put ``N`` cards face down in
    moves ``agent`` did not see, and those cards still lie where no event
    ``agent`` saw has shown them (a play gathered into the pile, or a pile another
    seat picked up and has not played from since).  A copy of ``C``
    at ``L`` could have been any of those cards that was not a ``C``: swapping
    the two from that move on changes nothing ``agent`` sees, whatever
    ``agent`` saw of them before (a card it played, picked up by ``L``).  When
    ``N`` is at least the most copies of ``C`` that ``L`` and those places can
    hold together in ``within``'s worlds (``knowledge``, that seat's counting;
    a superset of the worlds only raises the most), less ``k - 1``, every copy
    of ``C`` at ``L`` beyond ``k - 1`` has such a card to trade with, so
    ``agent`` considers fewer than ``k`` possible.  The swap changes the world only
    from that move on: a later count that holds one of ``L`` and the place the card
    put down lies then, and not the other, must treat the two kinds alike, so the
    partners are then the cards of such kinds at places holding only cards ``L`` put
    down (a buried kitty), the fewest in ``within``'s worlds against the most copies
    of ``C`` at ``L``, or, when that falls short, for each number ``m >= k`` of copies
    ``L`` may hold, the fewest in the worlds where it holds ``m`` against ``m - k + 1``
    (a world with fewer partners down may be one where ``L`` holds fewer copies, the
    atom false there); a move followed into a later fact is left alone.

    Examples
    --------
    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move, MoveAll
    >>> from kripke.formulas import Atom
    >>> h = CardHistory(Deck(["A", "B", "C", "D"]), {"x": "A B", "y": "C D", "pile": ""},
    ...                 ["x", "y"])
    >>> h = h.then(Move("A", "x", "pile", seen_by=["x"]), MoveAll("pile", "y", seen_by=["y"]))
    >>> has_y_a = Atom("has", ("y", "A"))
    >>> h.deal_state().knows("x", has_y_a)           # x saw its A go to y
    True
    >>> later = h.then(Move("C", "y", "pile", seen_by=["y"]))
    >>> later.deal_state().knows("x", has_y_a)        # y put a card down unseen
    False
    >>> dislodged(later, "x", has_y_a, within="x", knowledge=later.seat_counting("x"))
    True
    """
    cell = h.card_cell(atom)
    if cell is None:
        return False
    loc, x, j = cell
    mine = set(h.owns.get(agent, ()))
    steps = h.steps
    if loc in mine:
        return False

    def seen(st: Any) -> bool:
        return st.audience is None or agent in st.audience

    t0 = max(
        (
            i
            for i, st in enumerate(steps)
            if st.kind in ("move", "all")
            and st.dst == loc
            or st.kind in ("reveal", "show")
            and st.src == loc
            and seen(st)
        ),
        default=-1,
    )
    hidden, places = 0, Counter[str]()
    alike = set(range(len(h.deck.copies))) - {x}
    for i in range(t0 + 1, len(steps)):
        st = steps[i]
        if st.kind != "move" or st.src != loc or seen(st) or st.dst in mine:
            continue
        where, ok = st.dst, alike
        for later in steps[i + 1 :]:
            if later.kind in ("reveal", "show") and later.src == where and seen(later):
                break
            if later.kind == "move" and later.src == where:
                break  # some of them may have left: not followed
            if later.kind == "fact":
                break  # a fact may name the kinds traded: not followed
            if later.kind == "count" and (loc in later.locations) != (where in later.locations):
                # a count telling loc from where the card lies
                ok = {k for k in ok if _absorbs(h, later, x, k, loc in later.locations)}
            if later.kind == "all" and later.src == where:
                if seen(later) or later.dst in mine:
                    break
                where = later.dst  # the pile, or a hand agent does not see
        else:
            hidden += len(st.kinds)
            places[where] += len(st.kinds)
            alike = ok
    if not hidden:
        return False
    try:
        if len(alike) == len(h.deck.copies) - 1:  # no count told the two places apart
            spots = [loc, *sorted(places)]
            if hidden >= knowledge.count_range([h.deck.name(x)], spots)[1] - j + 1:
                return True  # the bounds' most, no counting, is already enough
            dist = knowledge.count_distribution([h.deck.name(x)], spots, exact=True)
            return hidden >= max(v for v, p in enumerate(dist) if p > 0) - j + 1
        size = h.sizes()
        if not alike or any(size[m] != n for m, n in places.items()):
            return False  # the partners must be of alike kinds: only where all were put down
        dist = knowledge.count_distribution([h.deck.name(x)], [loc], exact=True)
    except SizeLimitError:
        return False
    most = max(v for v, p in enumerate(dist) if p > 0)
    spots = sorted(places)
    if _fewest(h, knowledge, alike, spots, enough=most - j + 1) >= most - j + 1:
        return True
    return _per_copies(
        h, knowledge, x, loc, j, lambda given, n: _fewest(h, given, alike, spots, enough=n) >= n
    )


def _card_places(h: CardHistory, x: int, loc: str, within: str) -> list[set[str]] | None:
    """Where the one copy of kind ``x`` may lie at every moment (index ``t``: after ``t``
    steps) in the worlds seat ``within`` considers possible where it lies at ``loc`` now,
    from what ``within`` saw of it (its hands, moves and reveals it saw; a superset of the
    places); ``None`` when it lies at ``loc`` in none of them."""
    owns = set(h.owns.get(within, ()))
    public = set(h.public_locations())
    start = {m for m in owns | public if x in h.initial[m]} or {
        m for m in h.locations if m not in owns and m not in public and h.initial[m]
    }

    def after(st: Any, m: str) -> set[str]:  # where a copy at m may lie after st
        saw = st.audience is None or within in st.audience
        if st.kind in ("move", "all") and st.src == m:
            if not saw:
                return {st.dst} if st.kind == "all" else {m, st.dst}
            if x in (st.kinds if st.kind == "move" else st.content):
                return {st.dst}
            return set() if st.kind == "all" else {m}
        if st.kind == "reveal" and st.src == m and saw and x not in st.content:
            return set()
        return {m}

    ahead = [start]
    for st in h.steps:
        ahead.append({n for m in ahead[-1] for n in after(st, m)})
    if loc not in ahead[-1]:
        return None
    places = [set[str]() for _ in ahead]
    places[-1] = {loc}
    for t in range(len(h.steps) - 1, -1, -1):
        places[t] = {m for m in ahead[t] if after(h.steps[t], m) & places[t + 1]}
    return places


def _sees(st: Any, agent: str, mine: set[str]) -> bool:
    """Whether ``agent`` may have seen which cards step ``st`` moved or showed (its
    audience, or a move from or into one of its locations: counted as seen)."""
    return st.audience is None or agent in st.audience or st.src in mine or st.dst in mine


def rerouted(h: CardHistory, agent: str, atom: Any, *, within: str, together: bool = True) -> bool:
    """Whether ``agent`` surely does not know the card atom ``atom`` (``has(L, C)``, a card
    without copies) in any world seat ``within`` considers possible, because the card may
    have gone another way than a card put down beside it: ``True`` is exact, ``False``
    means not shown.

    In every world of ``within`` where ``C`` lies at ``L`` now, follow the card as
    ``within`` saw it (:func:`_card_places`, every place it may have been at every
    moment).  Suppose that from some moment on none of those places was ever seen by
    ``agent`` while the card could be there (no move of it, reveal or show ``agent``
    saw, no place of ``agent``'s; no count or fact), and that at a move ``agent`` did
    not see the card surely lay at the moving place ``H`` and stayed there.  A card
    ``P`` put down at that move that ``agent`` never sees afterwards, in any world of
    ``within``, and that never comes to ``L`` can trade ways with ``C`` from that move
    on: ``H`` put down ``C`` instead, ``C`` went wherever ``P`` went and ``P`` where ``C``
    went.  ``agent`` sees the same, and ``C`` is not at ``L``.  Where ``within`` saw the
    move, each card put down is followed by its kind (a move, reveal or show
    ``within`` saw without that kind left it alone); otherwise the cards put down are
    followed as a number (at most as many of them at each place as it could hold, every
    one that may have been seen lost), and one left over is enough; when no single
    such move leaves one, the cards put down at all of them are followed together (each
    is one ``C`` may have traded ways with; ``together=False``: not).

    Unlike :func:`dislodged`, the card may have come to ``L`` after the move (it went
    from ``H`` to ``L`` unseen by ``agent``), and the cards put down may have passed
    through other hands that played since.

    Examples
    --------
    Everybody sees y receive the A; y puts a card down unseen, z picks it up (seeing it)
    and puts a card down too:

    >>> from games.cards import Deck
    >>> from games.epistemic.history import CardHistory, Move, MoveAll
    >>> from kripke.formulas import Atom
    >>> h = CardHistory(Deck(["A", "B", "C", "D", "E"]), {"x": "A", "y": "B C", "z": "D E",
    ...                 "pile": ""}, ["x", "y", "z"])
    >>> h = h.then(Move("A", "x", "y"), Move("B", "y", "pile", seen_by=["y"]),
    ...            MoveAll("pile", "z", seen_by=["z"]), Move("D", "z", "pile", seen_by=["z"]))
    >>> has_y_a = Atom("has", ("y", "A"))
    >>> rerouted(h, "x", has_y_a, within="z")     # z knows y kept the A; x cannot
    True
    >>> dislodged(h, "x", has_y_a, within="z", knowledge=h.seat_counting("z"))
    False
    """
    cell = h.card_cell(atom)
    if cell is None or within == agent:
        return False
    loc, x, _ = cell
    mine = set(h.owns.get(agent, ()))
    if h.deck.copies[x] != 1 or loc in mine:
        return False
    places = _card_places(h, x, loc, within)
    if places is None:
        return True  # not at L in any world of within: nothing to know
    steps = h.steps
    first = len(steps)  # from this step on the card's places stay hidden from agent
    for t in range(len(steps) - 1, -1, -1):
        st = steps[t]
        if places[t + 1] & mine or st.kind in ("count", "fact"):
            break
        if _sees(st, agent, mine) and st.src in places[t]:
            saw = st.audience is None or within in st.audience
            if not (st.kind in ("move", "show") and saw and x not in st.kinds):
                break
        first = t
    unseen = []  # the moves within did not see either
    for i in range(first, len(steps)):
        st = steps[i]
        if st.kind != "move" or _sees(st, agent, mine):
            continue
        if places[i] != {st.src} or places[i + 1] != {st.src}:
            continue
        if st.audience is None or within in st.audience:
            if any(_kind_hidden(h, i, q, agent, within, loc) for q in set(st.kinds) - {x}):
                return True
        elif _put_down_hidden(h, i, agent, loc, within) >= 1:
            return True
        else:
            unseen.append(i)
    # every card put down at those moves is one the card may have traded ways with
    return together and len(unseen) > 1 and _put_down_hidden(h, unseen, agent, loc, within) >= 1


def _kind_hidden(h: CardHistory, i: int, q: int, agent: str, within: str, loc: str) -> bool:
    """Whether the copy of kind ``q`` that step ``i`` put down (``within`` saw it) stays
    unseen by ``agent`` and away from ``agent``'s places and from ``loc`` to the end, in
    every world of ``within`` (followed through the moves that may have taken it)."""
    return _hidden_from(h, i + 1, h.steps[i].dst, q, agent, within, loc)


def _hidden_from(
    h: CardHistory, start: int, place: str, q: int, agent: str, within: str, loc: str
) -> bool:
    """Whether a copy of kind ``q`` lying at ``place`` before step ``start`` stays unseen by
    ``agent`` and away from ``agent``'s places and from ``loc`` to the end, in every world of
    ``within`` (a move ``within`` did not see, or one that moved that kind, may have taken
    it; every place it may be at is followed)."""
    mine = set(h.owns.get(agent, ()))
    places = {place}
    for st in h.steps[start:]:
        if st.kind in ("count", "fact"):
            return False
        saw = st.audience is None or within in st.audience
        if st.kind in ("move", "all", "reveal", "show") and st.src in places:
            shown = st.content if st.kind in ("all", "reveal") else st.kinds
            involved = not saw or q in shown
            if involved and _sees(st, agent, mine):
                return False
            if st.kind in ("all", "reveal") and not involved or st.kind == "all":
                places.discard(st.src)
            if involved and st.kind in ("move", "all"):
                places.add(st.dst)
        if places & mine:
            return False
    return loc not in places


def _put_down_hidden(
    h: CardHistory, i: int | Sequence[int], agent: str, loc: str, within: str
) -> int:
    """At least how many of the cards step ``i`` put down (or the steps ``i``, all
    together) stay unseen by ``agent`` and away from ``loc`` to the end, in every world of
    ``within``: at most as many of them at each place as it could hold, and every one
    that may have been seen lost.  Those that may lie at a place whose whole content
    ``within`` sees (a pile it picks up, a reveal to it) are among the cards it saw
    there: from then on each is followed by its kind (:func:`_hidden_from`), every
    kind there that may be lost counts against them, and they are no longer followed
    as a number (the others still are)."""
    mine = set(h.owns.get(agent, ()))
    moves = sorted([i] if isinstance(i, int) else i)
    size = h.sizes(moves[0])
    most = {m: 0 for m in h.locations}
    n = lost = 0
    for u in range(moves[0], len(h.steps)):
        st = h.steps[u]
        if u in moves:  # the cards put down here join those followed
            k = len(st.kinds)
            n += k
            size[st.src] -= k
            size[st.dst] += k
            most[st.dst] = min(most[st.dst] + k, size[st.dst])
            continue
        if st.kind in ("count", "fact"):
            return 0
        whole = st.kind in ("all", "reveal") and (st.audience is None or within in st.audience)
        if whole and most[st.src]:
            # the cards followed there are among those within sees: each is followed by
            # its kind from here on, and no longer as a number
            if _sees(st, agent, mine) or st.kind == "all" and st.dst in mine:
                lost += most[st.src]
            else:
                place = st.dst if st.kind == "all" else st.src
                counts = Counter(st.content)
                gone = sum(
                    c
                    for q, c in counts.items()
                    if not _hidden_from(h, u + 1, place, q, agent, within, loc)
                )
                lost += min(most[st.src], gone)
            most[st.src] = 0
        if st.kind in ("move", "all"):
            k = len(st.kinds) if st.kind == "move" else size[st.src]
            went = min(k, most[st.src])
            if _sees(st, agent, mine):
                lost += went
            else:
                most[st.dst] += went
            if st.kind == "all":
                most[st.src] = 0
            size[st.src] -= k
            size[st.dst] += k
            most[st.src] = min(most[st.src], size[st.src])
            most[st.dst] = min(most[st.dst], size[st.dst])
        elif st.kind in ("reveal", "show") and _sees(st, agent, mine):
            lost += min(size[st.src] if st.kind == "reveal" else len(st.kinds), most[st.src])
            if st.kind == "reveal":
                most[st.src] = 0
    return n - lost - most[loc]


def _steps(h: CardHistory, *, incremental: bool) -> Iterator[Step]:
    if incremental:
        from games.epistemic.symbolic import history_steps

        for i, hs in history_steps(h):
            gk = GameKnowledge(hs.history, simplify=False)
            gk._hs = hs
            yield Step(i, h.events[i - 1] if i else None, gk)
        return
    for i in range(len(h.events) + 1):
        yield Step(i, h.events[i - 1] if i else None, GameKnowledge(h.prefix(i)))
