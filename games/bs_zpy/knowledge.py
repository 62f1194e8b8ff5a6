"""What BS-ZPY seats know: exact claim odds per seat, and a BS-ZPY history as an epistemic model.

BS-ZPY states as card histories: silence and peanut butter announce a claim's truth.

:func:`bs_zpy_card_history` reads the current round of a BS-ZPY state
(:mod:`games.bs_zpy`) from its seats' observation streams.  Locations: the
hands ``P0`` …, the ``kitty``, ``down`` (the cards of the play being
settled), ``trick`` (the settled plays of the trick in hand) and the
winnings piles ``W0`` ….  Agents: the seats, each seeing its own hand.

=========================  ============================================================
game event                 card event
=========================  ============================================================
claim                      the cards move face down to ``down``; only the player sees
                           them.  The claim itself is not a fact
call                       ``down`` is revealed to everybody; the play's validity
                           (the reveal says whether it was valid) is a public fact;
                           a caught leader's returned cards go back face up
no call, silence           public fact: the claim was true — ``down`` holds the
                           claimed cards *and* they were a valid play
no call, peanut butter     public fact: the claim was false — the negation of the above
trick ends                 ``trick`` joins the winner's pile face down
penalty card               a card of the loser's pile moves to the gainer's, unseen
=========================  ============================================================

A play's *validity* (:func:`follow_validity`, :func:`lead_validity`) is a
propositional formula over the card atoms of the current hands: a follow
obeys the suit and format rules for the hand it was played from (the hand
now plus the cards played), a throw stands against every other hand.  Each
agrees with the game's own check (:func:`games.bs_zpy.play_validity`) on
every hand, which the tests verify hand by hand.

A position (:meth:`games.bs_zpy.BSZPYGame.position`) uses only the cards it
deals: the deck of its history holds those cards, so a small position has
a small explicit model too.

Examples
--------
>>> from games.base import load_game
>>> g = load_game("bs-zpy", players=4)
>>> st = g.position(["AS AS 3H", "KS 4H 5H", "QS 6H 7H", "JS 8H 9H"], trump="2D",
...                 landlord=0, friends=["AH"])
>>> st.play_claim(0, "3H")
>>> st.decide_calls({})                   # silence: the claim was true
>>> st.play_claim(1, "KS", claim="5H")    # a lie nobody may see
>>> gk = st.knowledge()
>>> gk.knows(1, "has(down, KS)"), gk.knows(2, "has(down, KS)")
(True, False)
>>> gk.holds("K_2 ~has(0, 3H)")           # everybody knows P0 led its 3H
True
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from games.base import Observation
from games.bs_zpy.state import BSZPYState
from games.deal import DealKnowledge
from games.errors import InvalidParameterError
from games.shengji.knowledge import SeatDeal, drop_one
from games.shengji.rules.cards import (
    NUM_FACES,
    Card,
    card,
    format_cards,
    parse_cards,
)
from games.shengji.rules.formats import (
    Format,
    count_faces,
    decomposition_order,
    fits_shape,
    lead_format,
)
from games.shengji.rules.friends import FriendSlot, FriendTracker
from games.shengji.rules.trump import table

__all__ = [
    "SeatKnowledge",
    "ClaimOdds",
    "seat_knowledge",
    "follow_claims",
    "SeenPlay",
    "bs_zpy_card_history",
    "follow_validity",
    "lead_validity",
    "claim_truth",
    "DOWN",
    "TRICK",
]


# ================================================================== knowledge
class Constraint(NamedTuple):
    """A bound on the copies of ``faces`` in ``loc``: ``at_least`` / ``at_most`` ``k`` in total.

    ``caps`` (optional) are per-face upper bounds equivalent to the total
    bound given the lower bounds already in force; the constraint is then
    applied as cell bounds (no joint constraint for the deal engine).
    """

    op: str
    loc: str
    faces: tuple[int, ...]
    k: int
    caps: tuple[int, ...] | None = None


@dataclass
class SeenPlay:
    """One play of the current trick as one seat saw it.

    ``cards`` are the true cards when the seat knows them (its own play, a
    revealed play, or a claim that turned out true); ``lie`` is known once
    the play is settled.
    """

    seat: int
    claim: tuple[Card, ...]
    lead: bool
    cards: tuple[Card, ...] | None = None
    status: str = "open"
    lie: bool | None = None
    callers: tuple[int, ...] = ()

    @property
    def eligible(self) -> bool:
        """Whether the play may still win the trick (not caught lying)."""
        return self.status != "caught"

    @property
    def shown(self) -> tuple[Card, ...]:
        """What the play counts as for winning: the claim, or the revealed cards."""
        return self.claim if self.status != "caught" or self.cards is None else self.cards


@dataclass(frozen=True)
class ClaimOdds:
    """What one seat knows about one claim being true.

    ``probability`` is the probability (for the observing seat, over the deals
    it considers possible) that the claimer held the claimed cards and that
    they make a valid play, i.e. that the claim *can* be true; for a claimer
    who tells the truth whenever it can this is the probability that the
    claim is true.  Which cards went face down is the claimer's choice, so
    no seat but the claimer ever knows that a face-down claim *is* true.
    ``knows_false``: the claim is false in every deal the seat considers
    possible.  ``exact`` is False when a part of the validity rule (tractor
    shapes) was left out, which only widens the possible deals.
    """

    claimer: int
    claim: tuple[Card, ...]
    probability: float
    knows_false: bool
    exact: bool


class SeatKnowledge(SeatDeal):
    """What one BS-ZPY seat knows, built only from that seat's observations.

    The deal knowledge is a :class:`games.deal.DealKnowledge` over the
    locations ``P0`` … (the hands), ``kitty``, ``played`` (every card that left
    the hands: the tricks and the winnings piles) and ``down`` (a face-down
    play being settled).  Events update it with the right audience:

    * a claim is *not* a fact: nothing changes until the play is settled;
    * a call reveals the cards (``show`` then ``move`` to ``played``), with the
      validity facts of the revealed play (see below); a caught leader's
      returned cards stay in its hand, and everyone has seen them;
    * no call and silence: the claim was true, so the claimed cards move face
      up to ``played`` and the validity facts of the claimed play hold;
    * peanut butter: the claim was false.  The cards go down unseen
      (``move_hidden``); when "false" is a single-cell fact (a claim of one
      card face that makes a valid play whenever the cards are as claimed) it
      is announced exactly (fewer copies of that face), otherwise it is left
      out, which only widens the possible deals (:attr:`relaxations`).

    Validity facts: a follow with fewer led-suit cards than the format shows a
    void in the led suit; a follow that fits only a later shape of the format's
    decomposition shows that the hand could not fit the earlier tuple shapes
    (at most w−1 copies of each led-suit face); a throw that stands shows that
    nobody can beat its tuple units.  Tractor shapes are left out (sound).

    Parameters
    ----------
    rules : Rules
        The game's resolved rules (``game.rules``).
    seat : int
    deal : bool
        Keep the exact deal knowledge (default); without it only the seat's
        hand, the trick, the teams and the public counts are followed.

    Examples
    --------
    >>> from games.base import load_game
    >>> g = load_game("bs-zpy", players=4)
    >>> st = g.position(["AS AS 3H", "KS 4H 5H", "QS 6H 7H", "JS 8H 9H"], trump="2D",
    ...                 landlord=0, friends=["AH"])
    >>> st.play_claim(0, "3H")                   # P0 leads 3H, truthfully
    >>> st.decide_calls({})                      # no call, and no peanut butter
    >>> st.play_claim(1, "KS", claim="AS")       # P1 claims an AS; P0 holds both
    >>> seat_knowledge(st, 0).knows_false()
    True
    >>> round(seat_knowledge(st, 2).claim_odds().probability, 4)   # 4 of C(8, 3) hands
    0.0714
    """

    def __init__(self, rules: Any, seat: int, *, deal: bool = True):
        super().__init__(rules, seat)
        self.use_deal = deal
        self._reset_round()

    def _reset_round(self) -> None:
        n = self.n
        self.mine: dict[int, int] = {}
        self.sizes = [0] * n
        self.plays: list[SeenPlay] = []
        self.trick_fmt: Format | None = None
        self.slots: list[FriendSlot] = []
        self.tracker: FriendTracker | None = None
        self.pile_sizes = [0] * n
        self.penalties = [0] * n
        self.lies: list[tuple[int, tuple[Card, ...]]] = []
        self.known_out = [0] * NUM_FACES
        self.public_out = [0] * NUM_FACES
        self.lies_by = [0] * n
        self.settled_by = [0] * n
        self.relaxations = 0
        self.fallbacks = 0
        self.tricks_done = 0
        self.last_winner: int | None = None

    def _start(self) -> None:
        if not self.use_deal:
            return
        super()._start()
        self.knowledge.add_location("down")

    # ---------------------------------------------------------------- updates
    def update(self, obs: Observation) -> None:
        """Take in one observation of this seat."""
        k, a = obs.kind, obs.actor
        if k in ("redeal", "round_end"):
            keep = self.use_deal
            SeatDeal.__init__(self, self.rules, self.seat)
            self.use_deal = keep
            self._reset_round()
            return
        handler = getattr(self, f"_on_{k}", None)
        if handler is not None:
            handler(obs, a)
        elif k in ("bid", "trump", "kitty_reveal", "dealt"):
            if k != "kitty_reveal" or self.use_deal:
                super().update(obs)
            if k == "dealt":
                self.sizes = [self.rules.hand_size] * self.n
            elif k == "trump" and obs.get("size") is not None:
                self.sizes = [obs["size"]] * self.n

    def _names(self, cards: Any) -> list[str]:
        return [str(card(c)) for c in cards]

    def _on_draw(self, obs: Observation, a: int | None) -> None:
        c = obs.get("card")
        if c is not None:
            self.mine[c] = self.mine.get(c, 0) + 1
        super().update(obs)

    def _on_kitty(self, obs: Observation, a: int | None) -> None:
        cs = obs.get("cards")
        if cs is not None:
            for c in cs:
                self.mine[c] = self.mine.get(c, 0) + 1
        if self.use_deal:
            super().update(obs)

    def _on_bury(self, obs: Observation, a: int | None) -> None:
        cs = obs.get("cards")
        if cs is not None:
            for c in cs:
                drop_one(self.mine, c)
                self.known_out[c] += 1
        if self.use_deal:
            super().update(obs)

    def _on_hand(self, obs: Observation, a: int | None) -> None:
        self.hand = list(obs["cards"])
        self.mine = count_faces(obs["cards"])

    def _on_setup(self, obs: Observation, a: int | None) -> None:
        size, kit, out = obs["size"], obs["kitty"], list(obs["out"])
        self.sizes = [size] * self.n
        for c in out:
            self.known_out[c] += 1
            self.public_out[c] += 1
        if not self.use_deal:
            return
        from games.deal import DealKnowledge
        from games.shengji.knowledge import shengji_deck

        sizes = {**{f"P{s}": size for s in range(self.n)}, "kitty": kit, "played": len(out)}
        sizes["down"] = 0
        kn = DealKnowledge(shengji_deck(self.rules.decks), sizes, name=f"P{self.seat}")
        kn.reveal(f"P{self.seat}", self._names(self.hand))
        kn.reveal("played", self._names(out))
        self.knowledge = kn

    def _on_kitty_known(self, obs: Observation, a: int | None) -> None:
        for c in obs["cards"]:
            self.known_out[c] += 1
        if self.use_deal:
            self.knowledge.reveal("kitty", self._names(obs["cards"]))

    def _on_friends(self, obs: Observation, a: int | None) -> None:
        self.slots = [FriendSlot(card(c), o) for c, o in obs["slots"]]
        self.landlord = a
        assert a is not None
        self.tracker = FriendTracker(self.slots, a, self.rules.double_join)

    def _on_claim(self, obs: Observation, a: int | None) -> None:
        assert a is not None and self.trump is not None
        sp = SeenPlay(a, tuple(obs["claim"]), bool(obs["lead"]))
        self.sizes[a] -= obs["count"]
        if a == self.seat:
            sp.cards = tuple(obs["cards"])
            for c in sp.cards:
                drop_one(self.mine, c)
        if sp.lead:
            self.plays = [sp]
            self.trick_fmt = lead_format(sp.claim, self.trump)
        else:
            self.plays.append(sp)

    def _on_call(self, obs: Observation, a: int | None) -> None:
        if self.plays:
            self.plays[-1].callers = tuple(obs["callers"])

    def _on_silent(self, obs: Observation, a: int | None) -> None:
        sp = self.plays[-1]
        sp.status, sp.lie = "unchallenged", False
        self.settled_by[sp.seat] += 1
        sp.cards = sp.claim
        self._moved(sp, sp.claim)
        if a != self.seat:
            self._facts(sp.seat, sp.claim, sp.lead, True)

    def _on_peanut_butter(self, obs: Observation, a: int | None) -> None:
        sp = self.plays[-1]
        sp.status, sp.lie = "unchallenged", True
        assert a is not None
        self.lies.append((a, sp.claim))
        self.lies_by[a] += 1
        self.settled_by[a] += 1
        if a == self.seat:
            assert sp.cards is not None
            self._moved(sp, sp.cards, public=False)
            return
        if not self.use_deal:
            return
        kn = self.knowledge
        kn.move_hidden(f"P{a}", "down", len(sp.claim))
        cons, exact = self._truth(sp.seat, sp.claim, sp.lead, pre=False)
        faces = {f for c in cons if c.loc == "down" for f in c.faces}
        single = exact and len(faces) == 1 and all(c.loc == "down" for c in cons)
        if single:
            kn.at_most("down", self._names(cons[0].faces), cons[0].k - 1)
        else:
            self.relaxations += 1
        kn.move_all("down", "played")

    def _on_reveal(self, obs: Observation, a: int | None) -> None:
        assert a is not None and self.trump is not None
        sp = self.plays[-1]
        shown = tuple(obs["cards"])
        kept = tuple(obs["kept"]) or shown
        returned = tuple(obs["returned"])
        truthful = bool(obs["truthful"])
        sp.status = "upheld" if truthful else "caught"
        sp.lie = not truthful
        self.settled_by[a] += 1
        self.lies_by[a] += int(not truthful)
        sp.cards = kept
        self.sizes[a] += len(returned)
        if a == self.seat:
            for c in returned:
                self.mine[c] = self.mine.get(c, 0) + 1
        elif self.use_deal:
            self.knowledge.show(f"P{a}", self._names(shown))
        self._moved(sp, kept)
        if sp.lead and not truthful:
            self.trick_fmt = lead_format(kept, self.trump)
        if a == self.seat:
            return
        if obs["valid"]:
            self._facts(a, shown, sp.lead, True)
        elif not sp.lead and str(obs["violation"]).startswith("must follow"):
            assert self.trick_fmt is not None
            t = table(self.trump)
            if self.use_deal:
                self.knowledge.at_least(f"P{a}", self._names(t.by_suit[self.trick_fmt.suit]), 1)
        elif self.use_deal:
            self.relaxations += 1

    def _on_penalty(self, obs: Observation, a: int | None) -> None:
        assert a is not None
        self.penalties[a] += obs["points"]

    def _on_steal(self, obs: Observation, a: int | None) -> None:
        assert a is not None
        self.pile_sizes[a] -= 1
        self.pile_sizes[obs["to"]] += 1

    def _on_trick(self, obs: Observation, a: int | None) -> None:
        assert a is not None
        self.pile_sizes[a] += obs["cards"]
        if self.tracker is not None:
            self.tracker.resolve_trick((p.seat, p.claim) for p in self.plays if p.eligible)
        self.last_winner = a
        self.plays = []
        self.trick_fmt = None
        self.tricks_done += 1

    def _moved(self, sp: SeenPlay, cards: Sequence[int], public: bool = True) -> None:
        for c in cards:
            self.known_out[c] += 1
            if public:
                self.public_out[c] += 1
        if self.use_deal:
            self.knowledge.move(self._names(cards), f"P{sp.seat}", "played")

    def _facts(self, seat: int, cards: Sequence[int], lead: bool, post: bool) -> None:
        """Add the validity facts of a valid play of ``cards`` by ``seat`` (after the move)."""
        if not self.use_deal:
            return
        cons, exact = self._validity(seat, cards, lead, pre=not post)
        if not exact:
            self.relaxations += 1
        for c in cons:
            self._apply(self.knowledge, c)

    # ------------------------------------------------------------ constraints
    def _validity(
        self, seat: int, cards: Sequence[int], lead: bool, pre: bool
    ) -> tuple[list[Constraint], bool]:
        """Cell constraints of "``cards`` by ``seat`` are a valid play" and whether they are exact.

        ``pre``: on the hand before the cards left it (else after).
        """
        assert self.trump is not None
        t = table(self.trump)
        counts = count_faces(cards)
        out: list[Constraint] = []
        exact = True
        if lead:
            lf = lead_format(cards, self.trump)
            if not lf.is_throw:
                return out, True
            for k in range(1, self.n):
                j = f"P{(seat + k) % self.n}"
                for u in lf.units:
                    if u.is_tractor:
                        exact = False
                        continue
                    s0 = t.strength[u.first]
                    stronger = tuple(f for f in t.by_suit[t.esuit[u.first]] if t.strength[f] > s0)
                    if not stronger:
                        continue
                    if u.width == 1:
                        out.append(Constraint("at_most", j, stronger, 0))
                    else:
                        out.extend(Constraint("at_most", j, (f,), u.width - 1) for f in stronger)
            return out, exact
        fmt = self.trick_fmt
        assert fmt is not None
        loc = f"P{seat}"
        suit_faces = t.by_suit[fmt.suit]
        m = sum(counts.get(f, 0) for f in suit_faces)
        if m < fmt.size:
            faces = tuple(suit_faces)
            if pre:  # with the claimed cards held, "m led-suit cards" is "exactly those"
                caps = tuple(counts.get(f, 0) for f in faces)
                out.append(Constraint("at_most", loc, faces, m, caps))
            else:
                out.append(Constraint("at_most", loc, faces, 0))
            return out, True
        if self.rules.draw_policy != "no-protections":
            return out, False
        in_suit = {f: c for f, c in counts.items() if t.esuit[f] == fmt.suit}
        for shape in decomposition_order(fmt, True):
            if fits_shape(in_suit, shape, self.trump):
                break
            groups = [g for g in shape if g != (1,)]
            if len(groups) == 1 and len(groups[0]) == 1:
                w = groups[0][0]
                for f in suit_faces:
                    cap = w - 1 if pre else w - 1 - counts.get(f, 0)
                    out.append(Constraint("at_most", loc, (f,), cap))
            else:
                exact = False
        return out, exact

    def _truth(
        self, seat: int, claim: Sequence[int], lead: bool, pre: bool = True
    ) -> tuple[list[Constraint], bool]:
        """Constraints of "the claim is true" (the cards are as claimed and valid)."""
        where = f"P{seat}" if pre else "down"
        cons: list[Constraint] = [
            Constraint("at_least", where, (f,), k) for f, k in sorted(count_faces(claim).items())
        ]
        v, exact = self._validity(seat, claim, lead, pre=pre)
        if pre:  # drop upper bounds that counting already guarantees (no engine run for them)
            unseen = self.unseen()
            v = [
                c
                for c in v
                if not (c[0] == "at_most" and sum(unseen[f] for f in c[2]) <= c[3])
                or c[1] == f"P{self.seat}"
            ]
        return cons + v, exact

    def _apply(self, kn: Any, c: Constraint) -> None:
        names = self._names(c.faces)
        if c.op == "at_least":
            kn.at_least(c.loc, names, c.k)
            return
        if c.k < 0:
            from games.errors import InconsistentKnowledgeError

            raise InconsistentKnowledgeError(f"{c.loc} would need fewer than 0 cards")
        if c.caps is not None:
            zero = [n for n, cap in zip(names, c.caps, strict=True) if cap == 0]
            if zero:
                kn.void(c.loc, zero)
            for n, cap in zip(names, c.caps, strict=True):
                if cap > 0:
                    kn.at_most(c.loc, [n], cap)
        elif c.k == 0:
            kn.void(c.loc, names)  # cell bounds, not a joint constraint
        else:
            kn.at_most(c.loc, names, c.k)

    def _steps(self, cons: Sequence[Constraint]) -> list[Constraint]:
        """The constraints as chain-rule steps: cell bounds face by face, guaranteed ones dropped.

        A void or a capped bound is a conjunction of one bound per face; asking
        for each face alone (conditioned on the faces before) gives the same
        product as asking for the whole suit at once, with far smaller
        queries for the deal engine.
        """
        unseen = self.unseen()
        out: list[Constraint] = []
        for c in cons:
            if c.op != "at_most" or (c.caps is None and c.k != 0):
                out.append(c)
                continue
            caps = c.caps if c.caps is not None else (0,) * len(c.faces)
            for f, cap in zip(c.faces, caps, strict=True):
                if c.loc != f"P{self.seat}" and unseen[f] <= cap:
                    continue
                out.append(Constraint("at_most", c.loc, (f,), cap))
        return out

    def _chain(self, cons: Sequence[Constraint], *, exact: bool = False) -> Any:
        """Probability of a conjunction of constraints, factor by factor (chain rule).

        One conditional count per step, each on the knowledge with the steps
        before it applied: the route :meth:`_joint` replaced, kept as the
        reference of the tests and of ``benchmarks/bs_zpy_speed.py``.
        ``exact``: a :class:`~fractions.Fraction` from exact counts (every
        factor below 1 applied).
        """
        from fractions import Fraction

        from games.errors import InconsistentKnowledgeError

        zero = Fraction(0) if exact else 0.0
        one = Fraction(1) if exact else 1.0
        kn = self.knowledge.copy()
        p = one
        for c in self._steps(cons):
            if c.k < 0:
                return zero
            d = kn.count_distribution(self._names(c.faces), c.loc, exact=exact)
            q = sum(d[c.k :], zero) if c.op == "at_least" else sum(d[: c.k + 1], zero)
            if not exact:
                q = float(q)
            if q <= 0:
                return zero
            p *= min(q, one)
            if (q < one) if exact else (q < 1.0 - 1e-12):
                try:
                    self._apply(kn, c)
                except InconsistentKnowledgeError:
                    return zero
        return p

    def _joint(self, cons: Sequence[Constraint], *, exact: bool = False) -> Any:
        """Probability of a conjunction of constraints in one count.

        The weight of the deals that meet every constraint (every step of
        :meth:`_steps` applied to a copy of the knowledge, then one count)
        over the weight of every deal this seat considers possible (the
        knowledge's own count, cached until its next observation): the
        product of the chain rule's conditional factors (:meth:`_chain`)
        with one count instead of one per factor.  A single step is one
        count distribution, as in the chain.  ``exact``: a
        :class:`~fractions.Fraction` from exact integer counts.

        Raises
        ------
        InconsistentKnowledgeError
            If no deal is consistent with the seat's observations.
        """
        from fractions import Fraction

        from games.errors import InconsistentKnowledgeError

        steps = self._steps(cons)
        if len(steps) <= 1 or any(c.k < 0 for c in steps):
            return self._chain(cons, exact=exact)
        kn = self._applied(steps)
        if kn is None:
            return Fraction(0) if exact else 0.0
        base = self.knowledge._engine(exact=exact)
        if base.total() == 0:
            raise InconsistentKnowledgeError(
                f"P{self.seat}: no deal is consistent with the observations"
            )
        hit = kn._engine(exact=exact)
        if exact:
            return Fraction(hit.total(), base.total())
        if hit.log_total() == -math.inf:
            return 0.0
        return min(1.0, math.exp(hit.log_total() - base.log_total()))

    def _applied(self, cons: Sequence[Constraint]) -> DealKnowledge | None:
        """A copy of the knowledge with every constraint applied; None if they contradict it."""
        from games.errors import InconsistentKnowledgeError

        kn = self.knowledge.copy()
        try:
            for c in cons:
                self._apply(kn, c)
        except InconsistentKnowledgeError:
            return None
        return kn

    def _possible(self, cons: Sequence[Constraint]) -> bool:
        """Exactly whether some deal this seat considers possible satisfies every constraint.

        A positive weight from the floating-point engine settles it; a zero is
        confirmed by the exact count.
        """
        from games.errors import InconsistentKnowledgeError

        kn = self._applied(cons)
        if kn is None:
            return False
        if cons:
            try:
                d = kn.count_distribution(self._names(cons[0].faces), cons[0].loc)
                if any(x > 0 for x in d):
                    return True
            except (InconsistentKnowledgeError, ZeroDivisionError, FloatingPointError):
                return False
        return kn.count() > 0

    # --------------------------------------------------------------- queries
    def open_play(self) -> SeenPlay | None:
        """The play waiting for calls (or the last play, before it is settled)."""
        if self.plays and self.plays[-1].status == "open":
            return self.plays[-1]
        return None

    def unseen(self) -> list[int]:
        """Copies of each face not in this hand and not known to be out of the other hands."""
        d = self.rules.decks
        return [max(0, d - self.mine.get(f, 0) - self.known_out[f]) for f in range(NUM_FACES)]

    def claim_cap(self, f: int) -> int:
        """Most copies of ``f`` another player can hold, by counting what this seat has seen."""
        return self.unseen()[f]

    def counting_refutes(self, claim: Sequence[int]) -> bool:
        """Whether counting alone shows the claim impossible (this seat holds or has seen too many)."""
        cap = self.unseen()
        return any(k > cap[f] for f, k in count_faces(claim).items())

    def claim_odds(self, play: SeenPlay | None = None) -> ClaimOdds:
        """What this seat knows about the open claim (or ``play``) being true.

        Raises
        ------
        InvalidParameterError
            If no claim is open or the seat follows no deal knowledge.
        """
        sp = play or self.open_play()
        if sp is None:
            raise InvalidParameterError("no claim is waiting for calls")
        if sp.lie is not None or sp.seat == self.seat:
            truth = sp.lie is False or (
                sp.lie is None and sp.cards is not None and sorted(sp.cards) == sorted(sp.claim)
            )
            return ClaimOdds(sp.seat, sp.claim, float(truth), not truth, True)
        if not self.use_deal or self.knowledge is None:
            raise InvalidParameterError("this seat follows no deal knowledge (deal=False)")
        cons, exact = self._truth(sp.seat, sp.claim, sp.lead, pre=True)
        if self.counting_refutes(sp.claim):
            return ClaimOdds(sp.seat, sp.claim, 0.0, True, exact)
        try:
            p = self._joint(cons)
            knows_false = p == 0.0 and not self._possible(cons)
        except MemoryError:
            self.fallbacks += 1
            chance = self.counting_chance(sp.seat, sp.claim)
            return ClaimOdds(sp.seat, sp.claim, chance, False, False)
        if p == 0.0 and not knows_false:
            p = 5e-324
        return ClaimOdds(sp.seat, sp.claim, p, knows_false, exact)

    def holding_odds(self, play: SeenPlay | None = None) -> float:
        """Exact probability that the claimer held the claimed cards (validity left out).

        The probability, over the deals this seat considers possible, that
        the claimer's hand before the play held every claimed card; whether
        the claimed cards would make a valid play is not part of it (see
        :meth:`claim_odds` for both).  Counting unseen cards answers when the
        deal engine runs out of memory (:attr:`fallbacks`).

        Raises
        ------
        InvalidParameterError
            If no claim is open or the seat follows no deal knowledge.
        """
        sp = play or self.open_play()
        if sp is None:
            raise InvalidParameterError("no claim is waiting for calls")
        if not self.use_deal or self.knowledge is None:
            raise InvalidParameterError("this seat follows no deal knowledge (deal=False)")
        if self.counting_refutes(sp.claim):
            return 0.0
        cons = [
            Constraint("at_least", f"P{sp.seat}", (f,), k)
            for f, k in sorted(count_faces(sp.claim).items())
        ]
        try:
            return float(self._joint(cons))
        except MemoryError:
            self.fallbacks += 1
            return self.counting_chance(sp.seat, sp.claim)

    def counting_chance(self, seat: int, claim: Sequence[int]) -> float:
        """Chance that a hand of ``seat``'s size dealt from the unseen cards holds ``claim``.

        Hypergeometric per claimed face (faces treated as independent): what
        the claim's probability would be if this seat knew nothing but which
        cards it has not seen.  ``seat``'s size is taken before the claimed
        cards went down.
        """
        unseen = self.unseen()
        total = sum(unseen)
        h = min(total, self.sizes[seat] + len(claim))
        if total <= 0 or h <= 0:
            return 0.0
        p = 1.0
        for f, k in count_faces(claim).items():
            u = unseen[f]
            below = sum(math.comb(u, j) * math.comb(total - u, h - j) for j in range(k))
            p *= 1.0 - below / math.comb(total, h)
        return p

    def knows_false(self, play: SeenPlay | None = None) -> bool:
        """Whether this seat knows the open claim is false (cards not as claimed, or invalid).

        Exact: no deal consistent with the seat's observations makes the claim
        true.  With an inexact validity rule (tractor shapes) it is sound.
        """
        sp = play or self.open_play()
        if sp is None:
            raise InvalidParameterError("no claim is waiting for calls")
        if sp.lie is not None or sp.seat == self.seat:
            return self.claim_odds(sp).knows_false
        if self.counting_refutes(sp.claim):
            return True
        if not self.use_deal or self.knowledge is None:
            return False
        cons, _ = self._truth(sp.seat, sp.claim, sp.lead, pre=True)
        try:
            return not self._possible(cons)
        except MemoryError:
            self.fallbacks += 1
            return False

    def team(self) -> set[int]:
        """The dictator's team as everyone knows it (by successful claims so far)."""
        if self.tracker is not None:
            return set(self.tracker.team)
        return {self.landlord} if self.landlord is not None else set()

    def open_slots(self) -> list[FriendSlot]:
        """Friend slots nobody has filled yet."""
        if self.tracker is None:
            return []
        return [self.tracker.slots[i] for i in self.tracker.open_slots]

    def holders(self, c: int | str) -> dict[str, float]:
        """Probability that each location holds at least one copy of ``c`` (this seat's view)."""
        if not self.use_deal or self.knowledge is None:
            raise InvalidParameterError("this seat follows no deal knowledge (deal=False)")
        name = str(card(c) if isinstance(c, int) else parse_cards(c)[0])
        out: dict[str, float] = {}
        for loc in self.knowledge.locations:
            if loc == "down" or self.knowledge.size(loc) == 0:
                continue
            p = float(self.knowledge.probability(name, loc))
            if p > 0:
                out[loc] = p
        return out

    def knows_holder(self, c: int | str) -> str | None:
        """The one hand (``"P3"``) this seat knows holds ``c``, if it knows one; else ``None``."""
        hs = self.holders(c)
        sure = [loc for loc, p in hs.items() if loc.startswith("P") and p >= 1.0 - 1e-12]
        return sure[0] if sure else None

    @property
    def exact(self) -> bool:
        """Whether every public announcement was absorbed exactly and every query answered exactly.

        False after a relaxation (:attr:`relaxations`: an announcement the deal
        knowledge cannot express, left out soundly), a relaxation inside
        :mod:`games.deal`, or a query the deal engine could not answer within
        memory (:attr:`fallbacks`: answered by counting unseen cards).
        """
        deal_exact = self.knowledge is None or bool(getattr(self.knowledge, "exact", True))
        return self.relaxations == 0 and self.fallbacks == 0 and deal_exact


def seat_knowledge(state: BSZPYState, seat: int, *, deal: bool = True) -> SeatKnowledge:
    """The knowledge of ``seat`` in a BS-ZPY state, rebuilt from its observations (this round)."""
    sk = SeatKnowledge(state.rules, seat, deal=deal)
    for o in state.observations(seat):
        sk.update(o)
    return sk


def follow_claims(
    state: BSZPYState,
    bots: Sequence[Any],
    knowledge: Sequence[SeatKnowledge],
    chance: Callable[[BSZPYState], int],
) -> Iterator[Any]:
    """Play ``state`` to its end; yield the waiting claim whenever calls are open.

    Every seat's observations go, in order, to its bot (``inform``) and to
    its :class:`SeatKnowledge` (``update``), so at each yield ``knowledge[s]``
    is what seat ``s`` knows.  A claim is yielded once, when the seat after
    the claimer is to act on it; ``chance(state)`` picks the action at chance
    nodes (e.g. :func:`games.base.sample_chance`), the bots pick the others.

    Examples
    --------
    >>> import random
    >>> from games.base import load_game, make_bot, sample_chance
    >>> game = load_game("bs-zpy", players=4)
    >>> hands = ["3H 4H 5H", "3S 4S 5S", "6H 7H 8H", "6S 7S 8S"]
    >>> st = game.position(hands, trump="2D", landlord=0, friends=["AH"])
    >>> bots = [make_bot("bs-zpy", "truthful", seed=s) for s in range(4)]
    >>> for s, b in enumerate(bots):
    ...     b.restart(game, s)
    >>> know = [SeatKnowledge(game.rules, s) for s in range(4)]
    >>> rng = random.Random(0)
    >>> claims = list(follow_claims(st, bots, know, lambda s: sample_chance(s, rng)))
    >>> len(claims) > 0, st.is_terminal()
    (True, True)
    """
    from games.base import CHANCE, TERMINAL

    n = state.num_players()
    seen = [0] * n
    while True:
        for s in range(n):
            obs = state.observations(s)
            while seen[s] < len(obs):
                bots[s].inform(obs[seen[s]])
                knowledge[s].update(obs[seen[s]])
                seen[s] += 1
        cur = state.current_player()
        if cur == TERMINAL:
            return
        rec = state.waiting_claim()
        if rec is not None and state.phase == "call" and cur == (rec.seat + 1) % n:
            yield rec
        if cur == CHANCE:
            action = chance(state)
        else:
            action = bots[cur].step(state.legal_actions(cur))
        state.apply_action(action)


#: Location of the face-down play being settled.
DOWN = "down"
#: Location of the settled plays of the trick in hand.
TRICK = "trick"

#: Most terms a validity formula may have before the history refuses it.
MAX_TERMS = 20000


# ============================================================ card atoms
def _at_least(deck: Any, loc: str, face: int, k: int) -> Any:
    """The formula "``loc`` holds at least ``k`` copies of ``face``" (constants at the edges)."""
    from games.epistemic.history import card_key
    from games.shengji.rules.cards import card
    from kripke.formulas import BOT, TOP, Atom

    if k <= 0:
        return TOP
    name = str(card(face))
    try:
        i = deck.index(name)
    except Exception:
        return BOT  # the deck has no such card
    m = deck.copies[i]
    if k > m:
        return BOT
    return Atom("has", (loc, card_key(name, k, m)))


def _junction(parts: Sequence[Any], conj: bool) -> Any:
    """``And``/``Or`` of ``parts`` with the constants folded."""
    from kripke.formulas import BOT, TOP, And, Or

    unit, zero = (TOP, BOT) if conj else (BOT, TOP)
    ps = [p for p in parts if p != unit]
    if any(p == zero for p in ps):
        return zero
    if not ps:
        return unit
    return ps[0] if len(ps) == 1 else (And if conj else Or)(tuple(ps))


def _and(parts: Sequence[Any]) -> Any:
    return _junction(parts, True)


def _or(parts: Sequence[Any]) -> Any:
    return _junction(parts, False)


def _not(f: Any) -> Any:
    from kripke.formulas import BOT, TOP, Not

    if f == TOP:
        return BOT
    if f == BOT:
        return TOP
    return Not(f)


def _face_copies(deck: Any, faces: Sequence[int]) -> dict[int, int]:
    """Copies of each face in the deck (0 for faces it lacks)."""
    from games.shengji.rules.cards import card

    out = {}
    for f in faces:
        name = str(card(f))
        out[f] = deck.copies[deck.index(name)] if name in deck.names else 0
    return out


# ============================================================ validity
def _requirements(
    groups: Sequence[tuple[int, ...]], pool: Mapping[int, int], trump: Any
) -> list[dict[int, int]]:
    """The minimal face counts that hold disjoint ``groups`` (each a list of tuple sizes),
    the fewest cards first."""
    import numpy as np

    from games.shengji.rules.formats import group_placements

    found: set[tuple[tuple[int, int], ...]] = set()

    def rec(i: int, left: dict[int, int], need: dict[int, int]) -> None:
        if len(found) > MAX_TERMS:
            raise InvalidParameterError(
                f"the validity of this play has more than {MAX_TERMS} cases; "
                "the card history cannot state it"
            )
        if i == len(groups):
            found.add(tuple(sorted(need.items())))
            return
        for pl in group_placements({f: k for f, k in left.items() if k}, groups[i], trump):
            left2, need2 = dict(left), dict(need)
            for f, k in pl:
                left2[f] -= k
                need2[f] = need2.get(f, 0) + k
            rec(i + 1, left2, need2)

    rec(0, dict(pool), {})
    reqs = sorted(found)
    reqs.sort(key=lambda r: sum(k for _, k in r))
    # keep the minimal ones: a requirement another one's counts lie below is redundant
    faces = sorted({f for r in reqs for f, _ in r})
    col = {f: i for i, f in enumerate(faces)}
    rows = np.zeros((len(reqs), len(faces)), dtype=np.int16)
    for i, r in enumerate(reqs):
        for f, k in r:
            rows[i, col[f]] = k
    kept = np.zeros_like(rows)
    out: list[dict[int, int]] = []
    for r, row in zip(reqs, rows, strict=True):
        if not (row >= kept[: len(out)]).all(axis=1).any():
            kept[len(out)] = row
            out.append(dict(r))
    return out


def follow_validity(
    deck: Any,
    loc: str,
    cards: Sequence[int],
    fmt: Any,
    draw_policy: str = "no-protections",
) -> Any:
    """The formula "``cards``, played by ``loc`` to ``fmt``, were a legal follow".

    The atoms are ``loc``'s hand *after* the play; the hand before is that
    plus ``cards``.  Suit rule: with fewer led-suit cards than the format,
    the hand held no other led-suit card.  Format rule (ZPY §5.2): the play
    fits the ``i``-th shape of the format's decomposition order, so the hand
    could fit none of the shapes before it.

    Raises
    ------
    InvalidParameterError
        For a draw policy that protects longer tuples (not monotone in the
        hand; not stated as a formula), or a format with too many cases.

    Examples
    --------
    >>> from games.cards import Deck
    >>> from games.shengji.rules.cards import parse_cards
    >>> from games.shengji.rules.formats import lead_format
    >>> from games.shengji.rules.trump import Trump
    >>> t = Trump("2", "S")
    >>> deck = Deck(["9H", "JH", "QH", "3C"], copies=2)
    >>> print(follow_validity(deck, "P1", parse_cards("9H JH"), lead_format("KH KH", t)))
    ~(has(P1, 9H) | has(P1, JH) | has(P1, QH#2))
    >>> print(follow_validity(deck, "P1", parse_cards("9H 3C"), lead_format("KH KH", t)))
    ~has(P1, 9H) & ~has(P1, JH) & ~has(P1, QH)
    """
    from games.shengji.rules.formats import count_faces, decomposition_order, fits_shape
    from games.shengji.rules.trump import table

    if draw_policy in ("longer-tuples-protected", "protected-tractor-on-tractor"):
        raise InvalidParameterError(
            f"the draw policy {draw_policy!r} protects longer tuples; its follow rule is not "
            "stated as a card formula (use no-protections or only-draw-tractor-on-tractor)"
        )
    t = table(fmt.trump)
    suit_faces = list(t.by_suit[fmt.suit])
    played = count_faces(list(cards))
    inside = {f: k for f, k in played.items() if t.esuit[f] == fmt.suit}
    s = sum(inside.values())
    if sum(played.values()) != fmt.size:
        from kripke.formulas import BOT

        return BOT
    if s < fmt.size:
        return _and([_not(_at_least(deck, loc, f, 1)) for f in suit_faces])
    if draw_policy == "no-format-based-draw":
        from kripke.formulas import TOP

        return TOP
    new_adj = draw_policy != "only-draw-tractor-on-tractor"
    pool = {f: c for f, c in _face_copies(deck, suit_faces).items() if c}
    for f, k in inside.items():
        pool[f] = max(pool.get(f, 0), k)
    parts = []
    for shape in decomposition_order(fmt, new_adj):
        if fits_shape(inside, shape, fmt.trump):
            break
        groups = [g for g in shape if g != (1,)]
        fit = _or(
            [
                _and([_at_least(deck, loc, f, k - inside.get(f, 0)) for f, k in sorted(r.items())])
                for r in _requirements(groups, pool, fmt.trump)
            ]
        )
        parts.append(_not(fit))
    return _and(parts)


def lead_validity(deck: Any, cards: Sequence[int], trump: Any, others: Sequence[str]) -> Any:
    """The formula "``cards`` were a valid lead": one suit, and a throw no other hand beats.

    ``others`` are the locations of the other hands; a throw stands when none
    of them holds, in the suit, a stronger tuple of the width of one of its
    units (or a stronger tractor at least as long as a tractor unit).

    Examples
    --------
    >>> from games.shengji.rules.cards import parse_cards
    >>> from games.shengji.rules.trump import Trump
    >>> from games.shengji.knowledge import shengji_deck
    >>> f = lead_validity(shengji_deck(2), parse_cards("AH KH"), Trump("2", "S"), ["P1"])
    >>> print(f)                          # only an ace of hearts beats the king
    ~has(P1, AH)
    """
    from games.shengji.rules.formats import group_placements, lead_format
    from games.shengji.rules.trump import table
    from kripke.formulas import BOT, TOP

    t = table(trump)
    if len({t.esuit[c] for c in cards}) != 1:
        return BOT
    lf = lead_format(list(cards), trump)
    if not lf.is_throw:
        return TOP
    beaten = []
    for u in lf.units:
        suit_faces = list(t.by_suit[t.esuit[u.first]])
        s0 = t.strength[u.first]
        pool = {f: c for f, c in _face_copies(deck, suit_faces).items() if c}
        for loc in others:
            if not u.is_tractor:
                beaten += [
                    _at_least(deck, loc, f, u.width) for f in suit_faces if t.strength[f] > s0
                ]
                continue
            group = (u.width,) * len(u.faces)
            for pl in group_placements(pool, group, trump):
                if t.strength[pl[0][0]] > s0:
                    beaten.append(_and([_at_least(deck, loc, f, k) for f, k in pl]))
    return _not(_or(beaten))


def claim_truth(
    deck: Any,
    seat_loc: str,
    claim: Sequence[int],
    validity: Any,
) -> Any:
    """The formula "the claim was true": ``down`` holds the claimed cards and ``validity``."""
    from games.shengji.rules.formats import count_faces

    held = [_at_least(deck, DOWN, f, k) for f, k in sorted(count_faces(list(claim)).items())]
    return _and([*held, validity])


# ============================================================ the history
def bs_zpy_card_history(state: Any) -> Any:
    """The current round of a BS-ZPY state as a :class:`~games.epistemic.CardHistory`.

    Raises
    ------
    games.errors.InvalidParameterError
        Before the cards are dealt, or with a draw policy whose follow rule
        is not stated as a formula.
    """
    from games.epistemic.history import CardHistory, Fact, Move, MoveAll, Reveal, Show
    from games.shengji.knowledge import round_observations, shengji_deck
    from games.shengji.rules.cards import card
    from games.shengji.rules.formats import count_faces, lead_format

    n = state.n
    seats = [f"P{s}" for s in range(n)]
    own = round_observations(state)
    public = [o for o in own[0] if o.public or o.kind in ("kitty", "bury", "claim")]
    claims = [[o for o in own[s] if o.kind == "claim" and o.actor == s] for s in range(n)]
    policy = state.rules.draw_policy
    hands: list[list[str]] = [[] for _ in range(n)]
    kitty: list[str] = []
    position = False
    for s in range(n):
        for o in own[s]:
            if o.kind == "hand" and o.actor == s:
                hands[s] = [str(c) for c in o["cards"]]
                position = True
            elif o.kind == "draw" and o.actor == s:
                hands[s].append(str(o["card"]))
            elif o.kind == "kitty_known" and o.actor == s:
                kitty = [str(c) for c in o["cards"]]
    if not any(o.kind in ("dealt", "setup") for o in public):
        raise InvalidParameterError("the cards are not all drawn yet: no epistemic model before")
    if not position:
        kitty = [str(c) for c in state.kitty_cards]
    if position:
        from games.cards import Deck

        every = count_faces([card(c) for h in hands for c in h] + [card(c) for c in kitty])
        faces = sorted(every)
        deck = Deck([str(card(f)) for f in faces], copies=[every[f] for f in faces])
    else:
        deck = shengji_deck(state.rules.decks)
    trump = state.trump
    steals = _stolen_cards(state, sum(1 for o in public if o.kind == "steal"))
    events: list[Any] = []
    ll = state.round_landlord
    fmt: Any = None
    pending: dict[str, Any] = {}
    for o in public:
        k = o.kind
        if k == "bid":
            cs = [str(o["card"])] * o["count"]
            events.append(Show(seats[o.actor], cs, label=f"{seats[o.actor]} bids {' '.join(cs)}"))
        elif k == "kitty" and not position:
            events.append(MoveAll("kitty", seats[ll], seen_by=[seats[ll]], label="kitty taken"))
        elif k == "bury" and not position:
            cs = [str(c) for c in state.buried]
            events.append(Move(cs, seats[ll], "kitty", seen_by=[seats[ll]], label="buried"))
        elif k == "claim":
            a = o.actor
            cards = [int(card(c)) for c in claims[a].pop(0)["cards"]]
            claim = [int(card(c)) for c in o["claim"]]
            lead = bool(o["lead"])
            if lead:
                fmt = None
            names = [str(card(c)) for c in cards]
            events.append(
                Move(names, seats[a], DOWN, seen_by=[seats[a]], label=_claim_label(a, claim))
            )
            pending = {"seat": a, "claim": claim, "lead": lead}
        elif k in ("silent", "peanut_butter"):
            a, claim, lead = pending["seat"], pending["claim"], pending["lead"]
            v = _validity(deck, seats, a, claim, lead, fmt, trump, policy)
            truth = claim_truth(deck, seats[a], claim, v)
            if k == "silent":
                events.append(Fact(truth, label=f"{seats[a]} is silent: the claim was true"))
            else:
                events.append(
                    Fact(_not(truth), label=f"{seats[a]} says peanut butter: the claim was false")
                )
            events.append(MoveAll(DOWN, TRICK, seen_by=(), label="the play joins the trick"))
            if lead:
                fmt = lead_format(claim, trump)
        elif k == "reveal":
            a = o.actor
            shown = [int(card(c)) for c in o["cards"]]
            lead = pending["lead"]
            shown_names = " ".join(str(card(c)) for c in shown)
            events.append(Reveal(DOWN, label=f"the call reveals {shown_names}"))
            v = _validity(deck, seats, a, shown, lead, fmt, trump, policy)
            if o["valid"]:
                events.append(Fact(v, label=f"{seats[a]}'s play was valid"))
            else:
                events.append(Fact(_not(v), label=f"{seats[a]}'s play was invalid"))
            back = [str(card(c)) for c in o["returned"]]
            if back:
                events.append(
                    Move(back, DOWN, seats[a], label=f"{seats[a]} takes back {' '.join(back)}")
                )
            events.append(MoveAll(DOWN, TRICK, seen_by=None, label="the play joins the trick"))
            if lead:
                kept = [int(card(c)) for c in o["kept"]] or shown
                fmt = lead_format(kept, trump)
        elif k == "steal":
            c = steals.pop(0)
            events.append(
                Move(
                    [c],
                    f"W{o.actor}",
                    f"W{o['to']}",
                    seen_by=(),
                    label=f"a card of W{o.actor} goes to W{o['to']}",
                )
            )
        elif k == "trick":
            events.append(
                MoveAll(TRICK, f"W{o.actor}", seen_by=(), label=f"{seats[o.actor]} wins the trick")
            )
    initial: dict[str, Any] = {seats[s]: hands[s] for s in range(n)}
    initial.update({"kitty": kitty, DOWN: [], TRICK: []})
    initial.update({f"W{s}": [] for s in range(n)})
    owns: dict[str, Any] = {seats[s]: seats[s] for s in range(n)}
    if position and kitty and ll is not None:
        owns[seats[ll]] = [seats[ll], "kitty"]
    return CardHistory(deck, initial, owns, events)


def _claim_label(seat: int, claim: Sequence[int]) -> str:

    return f"P{seat} claims {format_cards(list(claim))}"


def _validity(
    deck: Any,
    seats: Sequence[str],
    seat: int,
    cards: Sequence[int],
    lead: bool,
    fmt: Any,
    trump: Any,
    policy: str,
) -> Any:
    """The validity formula of a play (:func:`lead_validity` or :func:`follow_validity`),
    cached: every state's card history states the validity of each earlier play of the
    round again (formulas are immutable, so one copy serves them all)."""
    return _validity_cached(
        _DeckKey(deck), tuple(seats), seat, tuple(cards), lead, fmt, trump, policy
    )


class _DeckKey:
    """A deck as a cache key: equal when the names and copies are."""

    __slots__ = ("deck", "key")

    def __init__(self, deck: Any) -> None:
        self.deck = deck
        self.key = (tuple(deck.names), tuple(deck.copies))

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _DeckKey) and other.key == self.key


@functools.lru_cache(maxsize=8192)
def _validity_cached(
    dk: _DeckKey,
    seats: tuple[str, ...],
    seat: int,
    cards: tuple[int, ...],
    lead: bool,
    fmt: Any,
    trump: Any,
    policy: str,
) -> Any:
    deck = dk.deck
    if lead:
        n = len(seats)
        others = [seats[(seat + k) % n] for k in range(1, n)]
        return lead_validity(deck, cards, trump, others)
    return follow_validity(deck, seats[seat], cards, fmt, policy)


def _stolen_cards(state: Any, k: int) -> list[str]:
    """The true cards of the last ``k`` penalty steals (chance actions of the state)."""
    from games.bs_zpy.rules import _STEAL
    from games.shengji.rules.cards import NUM_FACES, card

    if k == 0:
        return []
    out = [str(card(a - _STEAL)) for a in state.history() if _STEAL <= a < _STEAL + NUM_FACES]
    return out[len(out) - k :]
