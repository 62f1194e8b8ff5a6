"""A seat's exact deal knowledge in terms of the shared card-deal module :mod:`games.deal`.

:class:`SeatDeal` turns one seat's observation stream into updates of a
:class:`games.deal.DealKnowledge` over the locations ``deck`` (cards not yet
drawn), ``P0`` … (the hands), ``kitty`` and ``played``:

* when the deal is complete the seat knows its own hand (locations: the
  hands, ``kitty`` and ``played``); the cards shown in other players' bids
  are in their hands;
* the landlord sees the kitty it takes and the cards it buries; for the others
  the landlord's hand and the kitty remain an unknown split of the same cards;
* every played card moves visibly to ``played``;
* failing to follow shows a void in the led suit;
* a failed throw shows the whole attempted throw in the leader's hand; the
  players before the blocker hold nothing that beats any unit of it; the
  blocker holds nothing that beats the units before the forced one, and at
  least as many cards stronger than the forced unit as it is wide (exact for a
  single, a sound weakening for wider units); a throw that stands shows that
  nobody else can beat any unit.  Tractor units constrain nothing (sound).

The sampling bot draws its determinizations with :meth:`SeatDeal.sample_hands`
from the exact sampler of :mod:`games.deal`.

Examples
--------
>>> from games.base import load_game
>>> g = load_game("shengji", variant="tractor")
>>> sd = SeatDeal(g.rules, seat=0)
>>> for c in range(25):
...     sd.update(Observation.make("draw", 0, card=card(c)))
>>> sd.hand[:3], sd.knowledge is None   # the knowledge starts when the deal is complete
([2C, 3C, 4C], True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from games.base import Observation
from games.shengji.cards import NUM_FACES, Card, card
from games.shengji.formats import Format, lead_format
from games.shengji.trump import SUIT_LABELS, Trump, rank_index, table

__all__ = ["SeatDeal", "shengji_deck", "seat_deal", "card_history", "round_observations"]


def shengji_deck(decks: int) -> Any:
    """The :class:`games.cards.Deck` of ``decks`` Shengji decks (faces in face order)."""
    from games.cards import Deck

    return Deck(
        [str(card(f)) for f in range(NUM_FACES)], copies=decks, aliases={"J-": "SJ", "J+": "BJ"}
    )


class SeatDeal:
    """One seat's :class:`games.deal.DealKnowledge`, fed with that seat's observations."""

    def __init__(self, rules: Any, seat: int):
        self.rules = rules
        self.seat = seat
        self.n = rules.players
        self.knowledge: Any = None
        self.hand: list[Card] = []
        self.bids: list[tuple[int, Card, int]] = []
        self.trump: Trump | None = None
        self.landlord: int | None = None
        self.fmt: Format | None = None
        self.leader: int | None = None

    def _start(self) -> None:
        from games.deal import DealKnowledge

        r = self.rules
        sizes = {**{f"P{s}": r.hand_size for s in range(self.n)}, "kitty": r.kitty, "played": 0}
        self.knowledge = DealKnowledge(shengji_deck(r.decks), sizes, name=f"P{self.seat}")
        self.knowledge.reveal(f"P{self.seat}", self._names(self.hand))

    def _names(self, cards: Any) -> list[str]:
        return [str(card(c)) for c in cards]

    def update(self, obs: Observation) -> None:
        """Take in one observation of this seat."""
        k, a, kn = obs.kind, obs.actor, self.knowledge
        if k == "draw":
            c = obs.get("card")
            if c is not None:
                self.hand.append(c)
        elif k == "bid":
            self.bids.append((a, obs["card"], obs["count"]))  # type: ignore[arg-type]
        elif k == "dealt":
            self._start()
        elif k in ("redeal", "round_end"):
            self.__init__(self.rules, self.seat)  # type: ignore[misc]
        elif k == "trump":
            suit = obs["suit"]
            self.trump = Trump(
                rank_index(obs["rank"]), None if suit == "none" else SUIT_LABELS.index(suit)
            )
            self.landlord = a
        elif k == "kitty_reveal":
            kn.show("kitty", self._names([obs["card"]]))
        elif k == "kitty":
            # the landlord sees the kitty; for the others the landlord's hand and the kitty
            # stay an unknown split of the same cards, so nothing changes for them
            cs = obs.get("cards")
            if cs is not None:
                kn.move(self._names(cs), "kitty", f"P{a}")
        elif k == "bury":
            cs = obs.get("cards")
            if cs is not None:
                kn.move(self._names(cs), f"P{a}", "kitty")
            shown: dict[int, dict[Card, int]] = {}
            for seat, c, n in self.bids:
                if seat != a and seat != self.seat:
                    d = shown.setdefault(seat, {})
                    d[c] = max(d.get(c, 0), n)
            for seat, d in shown.items():
                kn.show(f"P{seat}", self._names([c for c, n in d.items() for _ in range(n)]))
        elif k == "throw_failed":
            self._throw(a, list(obs["attempted"]), obs["blocker"], list(obs["forced"]))
        elif k == "play":
            cs = list(obs["cards"])
            assert self.trump is not None and a is not None
            if obs["lead"]:
                if self.leader != a or self.fmt is None:
                    lead = lead_format(cs, self.trump)
                    if lead.is_throw:
                        self._throw_stood(a, lead)
                self.fmt = lead_format(cs, self.trump)
                self.leader = a
                kn.move(self._names(cs), f"P{a}", "played")
            else:
                fmt = self.fmt
                assert fmt is not None
                t = table(self.trump)
                kn.move(self._names(cs), f"P{a}", "played")
                if sum(1 for c in cs if t.esuit[c] == fmt.suit) < fmt.size:
                    kn.void(f"P{a}", self._names(t.by_suit[fmt.suit]))
        elif k == "trick":
            self.fmt = None
            self.leader = None

    # ---------------------------------------------------------------- throws
    def _cannot_beat(self, seat: int, unit: Any) -> None:
        assert self.trump is not None
        t = table(self.trump)
        if unit.is_tractor:
            return
        s0 = t.strength[unit.first]
        stronger = [f for f in t.by_suit[t.esuit[unit.first]] if t.strength[f] > s0]
        if not stronger:
            return
        if unit.width == 1:
            self.knowledge.void(f"P{seat}", self._names(stronger))
        else:
            for f in stronger:
                self.knowledge.at_most(f"P{seat}", self._names([f]), unit.width - 1)

    def _throw(
        self, leader: int | None, attempted: list[Card], blocker: int | None, forced: list[Card]
    ) -> None:
        assert self.trump is not None and leader is not None
        kn = self.knowledge
        kn.show(f"P{leader}", self._names(attempted))
        fmt = lead_format(attempted, self.trump)
        forced_fmt = lead_format(forced, self.trump)
        self.fmt = forced_fmt
        self.leader = leader
        if blocker is None:
            return
        seat = (leader + 1) % self.n
        while seat != blocker:
            for u in fmt.units:
                self._cannot_beat(seat, u)
            seat = (seat + 1) % self.n
        t = table(self.trump)
        for u in fmt.units:
            if u == forced_fmt.units[0]:
                if not u.is_tractor:
                    s0 = t.strength[u.first]
                    stronger = [f for f in t.by_suit[t.esuit[u.first]] if t.strength[f] > s0]
                    kn.at_least(f"P{blocker}", self._names(stronger), u.width)
                break
            self._cannot_beat(blocker, u)

    def _throw_stood(self, leader: int, fmt: Format) -> None:
        for k in range(1, self.n):
            seat = (leader + k) % self.n
            for u in fmt.units:
                self._cannot_beat(seat, u)

    # --------------------------------------------------------------- queries
    def sample_hands(
        self, n: int = 1, seed: np.random.Generator | int | None = None
    ) -> list[list[dict[int, int]]]:
        """``n`` consistent deals from the exact sampler: each a list of every seat's hand."""
        arr = self.knowledge.sample(n, seed=seed)
        locs = list(self.knowledge.locations)
        cols = [locs.index(f"P{s}") for s in range(self.n)]
        out = []
        for d in arr:
            out.append([{f: int(d[f, j]) for f in range(NUM_FACES) if d[f, j]} for j in cols])
        return out


def seat_deal(state: Any, seat: int) -> SeatDeal:
    """The deal knowledge of ``seat`` in a game state, rebuilt from its observations.

    Covers the current round (earlier rounds are forgotten at each round's end).
    """
    sd = SeatDeal(state.rules, seat)
    for o in state.observations(seat):
        sd.update(o)
    return sd


class _Facts:
    """Stands in for a seat's deal knowledge and records the public card facts
    :class:`SeatDeal` derives (voids, failed and standing throws) as events."""

    def __init__(self, decks: int) -> None:
        self.events: list[Any] = []
        self.decks = decks

    def show(self, loc: str, cards: list[str]) -> None:
        from games.epistemic import Show

        self.events.append(Show(loc, cards, label=f"{loc} shows {' '.join(cards)}"))

    def move(self, cards: list[str], src: str, dst: str) -> None:
        from games.epistemic import Move

        self.events.append(Move(cards, src, dst, label=f"{src} plays {' '.join(cards)}"))

    def void(self, loc: str, cards: list[str]) -> None:
        from games.epistemic import Count

        self.events.append(Count(loc, cards, 0, 0, label=f"{loc} holds none of them"))

    def at_most(self, loc: str, cards: list[str], k: int) -> None:
        from games.epistemic import Count

        self.events.append(Count(loc, cards, 0, k, label=f"{loc} holds at most {k}"))

    def at_least(self, loc: str, cards: list[str], k: int) -> None:
        from games.epistemic import Count

        top = self.decks * len(set(cards))
        self.events.append(Count(loc, cards, k, top, label=f"{loc} holds at least {k}"))


def round_observations(state: Any) -> list[list[Any]]:
    """Every seat's observations of the current round (since the last deal or redeal)."""
    out = []
    for s in range(state.n):
        obs = state.observations(s)
        start = max(
            (i + 1 for i, o in enumerate(obs) if o.kind in ("round_end", "redeal")), default=0
        )
        out.append(list(obs[start:]))
    return out


def card_history(state: Any) -> Any:
    """The current round of a Shengji state as a :class:`games.epistemic.CardHistory`.

    The hands as drawn (each seen by its seat) and the kitty; the cards of every
    bid shown to all; the landlord taking up the kitty and burying cards (seen
    by the landlord); every card played face up, and the public facts the play
    shows, exactly as :class:`SeatDeal` reads them (voids, failed throws, throws
    that stand).

    Raises
    ------
    games.errors.InvalidParameterError
        Before the deal is complete, or for a game whose play is not face up.
    """
    from games.epistemic import CardHistory, MoveAll, Show
    from games.epistemic import Move as CardMove
    from games.errors import InvalidParameterError

    if state.game.name != "shengji":
        raise InvalidParameterError(
            f"this history reads face-up Shengji play; {state.game.name} states describe their "
            "own cards (state.card_history())"
        )
    n = state.n
    seats = [f"P{s}" for s in range(n)]
    own = round_observations(state)
    hands: list[list[str]] = [
        [str(o["card"]) for o in own[s] if o.kind == "draw" and o.actor == s] for s in range(n)
    ]
    public = [o for o in own[0] if o.public or o.kind in ("kitty", "bury")]
    if not any(o.kind == "dealt" for o in public):
        raise InvalidParameterError("the cards are not all drawn yet: no epistemic model before")
    kitty = [str(c) for c in state.kitty_cards]
    initial: dict[str, Any] = {seats[s]: hands[s] for s in range(n)}
    initial.update(kitty=kitty, played=[])
    facts = _Facts(state.rules.decks)
    sd = SeatDeal(state.rules, 0)
    sd.knowledge = facts
    events = facts.events
    ll = state.round_landlord
    for o in public:
        k = o.kind
        if k == "bid":
            cs = [str(o["card"])] * o["count"]
            events.append(Show(seats[o.actor], cs, label=f"{seats[o.actor]} bids {' '.join(cs)}"))
        elif k == "kitty":
            events.append(MoveAll("kitty", seats[ll], seen_by=[seats[ll]], label="kitty taken"))
        elif k == "bury":
            cs = [str(c) for c in state.buried]
            events.append(CardMove(cs, seats[ll], "kitty", seen_by=[seats[ll]], label="buried"))
        elif k in ("trump", "kitty_reveal", "throw_failed", "play", "trick"):
            sd.update(o)
    return CardHistory(shengji_deck(state.rules.decks), initial, seats, events)
