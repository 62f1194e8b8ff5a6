"""What one seat knows during a round, built from its observations only.

:class:`SeatView` follows a seat's observation stream: its own hand, the trump
and landlord, the bids, the kitty (for the landlord), the friend cards, every
card played, the trick in progress, the points, and the facts the play
reveals: a seat that fails to follow is void in the led suit, a failed
throw's returned cards stay in the leader's hand, and the blocker holds cards
that beat the forced unit.

Exact deal knowledge (probabilities, sampling) is :class:`SeatDeal` below, on the
shared module :mod:`games.deal`.

A seat's exact deal knowledge in terms of the shared card-deal module :mod:`games.deal`.

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
from games.shengji.rules.cards import NUM_FACES, Card, card
from games.shengji.rules.formats import Format, count_faces, lead_format
from games.shengji.rules.friends import FriendSlot, FriendTracker
from games.shengji.rules.tricks import TrickState
from games.shengji.rules.trump import SUIT_LABELS, Trump, rank_index, table

__all__ = [
    "drop_one",
    "SeatView",
    "seat_view_rows",
    "SeatDeal",
    "shengji_deck",
    "seat_deal",
    "card_history",
    "round_observations",
]


def _trump_from(obs: Observation) -> Trump:
    suit = obs["suit"]
    s = None if suit == "none" else SUIT_LABELS.index(suit)
    return Trump(rank_index(obs["rank"]), s)


def drop_one(counts: dict[int, int], c: int) -> None:
    """Remove one copy of card face ``c`` from a face -> count table (absent faces stay absent)."""
    n = counts.get(c, 0) - 1
    if n > 0:
        counts[c] = n
    else:
        counts.pop(c, None)


class SeatView:
    """A seat's knowledge of the current round, updated one observation at a time."""

    def __init__(self, players: int, seat: int, decks: int, hand_size: int, fixed_teams: bool):
        self.n = players
        self.seat = seat
        self.decks = decks
        self.hand_size = hand_size
        self.fixed_teams = fixed_teams
        self.new_round()

    def new_round(self) -> None:
        """Forget everything about the last round."""
        self.hand: dict[int, int] = {}
        self.sizes = [0] * self.n
        self.trump: Trump | None = None
        self.landlord: int | None = None
        self.bids: list[tuple[int, Card, int]] = []
        self.kitty_seen: list[Card] = []
        self.buried: list[Card] = []
        self.slots: list[FriendSlot] = []
        self.friends: FriendTracker | None = None
        self.played = [0] * NUM_FACES
        self.known: list[dict[int, int]] = [{} for _ in range(self.n)]
        self.voids: list[set[int]] = [set() for _ in range(self.n)]
        self._fmt: Format | None = None
        self._trick: TrickState | None = None
        self.trick_seats: list[int] = []
        self.trick_plays: list[list[Card]] = []
        self.piles = [0] * self.n
        self.tricks_done = 0
        self.phase = "deal"

    # ------------------------------------------------------------- updates
    def update(self, obs: Observation) -> None:
        """Take in one observation of this seat."""
        k = obs.kind
        a = obs.actor
        if k == "draw":
            assert a is not None
            self.sizes[a] += 1
            c = obs.get("card")
            if c is not None:
                self.hand[c] = self.hand.get(c, 0) + 1
        elif k == "bid":
            assert a is not None
            self.bids.append((a, obs["card"], obs["count"]))
            kn = self.known[a]
            c = obs["card"]
            kn[c] = max(kn.get(c, 0), obs["count"])
        elif k == "redeal":
            self.new_round()
        elif k == "trump":
            self.trump = _trump_from(obs)
            self.landlord = a
            self.phase = "exchange"
        elif k == "kitty":
            assert a is not None
            cs = obs.get("cards")
            if cs is not None:
                self.kitty_seen = list(cs)
                for c in cs:
                    self.hand[c] = self.hand.get(c, 0) + 1
            self.sizes[a] += len(cs) if cs is not None else 0
        elif k == "bury":
            assert a is not None
            cs = obs.get("cards")
            if cs is not None:
                self.buried = list(cs)
                for c in cs:
                    drop_one(self.hand, c)
            if self.sizes[a] > self.hand_size:
                self.sizes[a] = self.hand_size
            if a != self.seat:
                self.sizes[a] = self.hand_size
            self.phase = "play"
        elif k == "friends":
            self.slots = [FriendSlot(card(c), o) for c, o in obs["slots"]]
            assert self.landlord is not None
            self.friends = FriendTracker(self.slots, self.landlord)
        elif k == "throw_failed":
            assert a is not None
            forced = count_faces(obs["forced"])
            back = count_faces(obs["attempted"])
            for f, n in forced.items():
                back[f] -= n
            kn = self.known[a]
            for f, n in back.items():
                if n:
                    kn[f] = kn.get(f, 0) + n
        elif k == "play":
            assert a is not None
            self._on_play(a, list(obs["cards"]), bool(obs["lead"]))
        elif k == "trick":
            assert a is not None
            self.piles[a] += obs["points"]
            if self.friends is not None:
                self.friends.resolve_trick(zip(self.trick_seats, self.trick_plays, strict=True))
            self._fmt = None
            self._trick = None
            self.trick_seats = []
            self.trick_plays = []
            self.tricks_done += 1
        elif k == "round_end":
            self.new_round()

    def _on_play(self, seat: int, cards: list[Card], lead: bool) -> None:
        assert self.trump is not None
        t = table(self.trump)
        for c in cards:
            self.played[c] += 1
            if seat == self.seat:
                drop_one(self.hand, c)
            else:
                kn = self.known[seat]
                if kn.get(c, 0):
                    drop_one(kn, c)
        self.sizes[seat] -= len(cards)
        if lead:
            self._fmt = lead_format(cards, self.trump)
        else:
            fmt = self._fmt
            assert fmt is not None
            if sum(1 for c in cards if t.esuit[c] == fmt.suit) < fmt.size:
                self.voids[seat].add(fmt.suit)
        self._trick = None
        self.trick_seats.append(seat)
        self.trick_plays.append(cards)

    # ------------------------------------------------------------- queries
    @property
    def fmt(self) -> Format | None:
        """The current trick's format, ``None`` before a lead."""
        return self._fmt

    @property
    def trick(self) -> TrickState | None:
        """The trick in progress (format, plays, current winner), ``None`` before a lead."""
        if self._fmt is None:
            return None
        if self._trick is None:
            ts = TrickState(self._fmt, self.trick_plays[0])
            for p in self.trick_plays[1:]:
                ts.add(p)
            self._trick = ts
        return self._trick

    def team(self) -> set[int]:
        """The landlord's team as far as this seat knows."""
        if self.landlord is None:
            return set()
        if self.fixed_teams:
            return {self.landlord, (self.landlord + 2) % self.n}
        if self.friends is not None:
            return set(self.friends.team)
        return {self.landlord}

    def partners(self) -> set[int]:
        """Seats known to be on this seat's side (itself included)."""
        team = self.team()
        if self.seat in team:
            return team
        if self.fixed_teams:
            return {s for s in range(self.n) if s not in team}
        return {self.seat}

    def unseen(self) -> list[int]:
        """Copies of each face not in this hand, not played, not buried by this seat."""
        out = [self.decks - self.played[f] - self.hand.get(f, 0) for f in range(NUM_FACES)]
        for c in self.buried:
            out[c] -= 1
        return out


def seat_view_rows(state: Any, seat: int) -> list[tuple[str, str]]:
    """The table of a Shengji/ZPY state as ``seat`` sees it, as ``(what, value)`` rows.

    Built from ``seat``'s observations and the public match state only: who is
    to move, the levels, the trump and landlord, the friend cards and who has
    joined, the seat's own hand (sorted by trump order once the trump is
    known), every other seat's card count, the points each seat has won this
    round, the voids it has shown, the trick on the table and the result of
    the last round.

    Examples
    --------
    >>> import random
    >>> from games.base import load_game
    >>> state, rng = load_game("shengji", variant="tractor").new_initial_state(), random.Random(1)
    >>> while state.phase != "play" or len(state.hand(0)) > 20:
    ...     state.apply_action(rng.choice(state.legal_actions()))
    >>> rows = dict(seat_view_rows(state, 2))
    >>> rows["seat"], sorted(rows["hand"].split()) == sorted(str(c) for c in state.hand(2))
    ('South', True)
    >>> rows["North"]   # another seat: only what South can see
    '19 cards · void in hearts'

    """
    from games.base import CHANCE, TERMINAL
    from games.errors import InvalidParameterError
    from games.shengji.rules.cards import format_cards
    from games.shengji.rules.trump import rank_name, sort_cards

    n = state.n
    if not 0 <= seat < n:
        raise InvalidParameterError(f"seat {seat} does not exist; seats are 0..{n - 1}")
    r = state.rules
    name = state.seat_name
    v = SeatView(n, seat, r.decks, r.hand_size, r.fixed_teams)
    last_round = None
    for o in state.observations(seat):
        if o.kind == "round_end":
            last_round = o
        v.update(o)
    cur = state.current_player()
    if cur == TERMINAL:
        turn = "match over"
    elif cur == CHANCE:
        turn = "dealing" if v.phase == "deal" else "chance"
    else:
        turn = f"{name(cur)} to {'play' if v.phase == 'play' else 'bid, bury or name friends'}"
    rows = [("seat", name(seat)), ("to move", turn)]
    rows.append(("levels", " · ".join(f"{name(s)} {rank_name(state.ranks[s])}" for s in range(n))))
    if v.trump is not None:
        rows.append(("trump", str(v.trump)))
    if v.landlord is not None:
        rows.append(("landlord", name(v.landlord)))
    if v.slots:
        team = v.team()
        joined = ", ".join(name(s) for s in sorted(team - {v.landlord})) or "nobody yet"
        rows.append(("friends", f"{', '.join(str(s) for s in v.slots)} (joined: {joined})"))
    # the seat's own moves in progress (cards chosen one at a time) are its own knowledge
    chosen: list[Card] = []
    if state.phase == "bury" and state.round_landlord == seat:
        chosen = list(state.buried)
    elif state.phase == "play" and cur == seat:
        chosen = [card(f) for f in sorted(state.selection) for _ in range(state.selection[f])]
    left = dict(v.hand)
    for c in chosen:
        drop_one(left, c)
    hand = [card(f) for f in sorted(left) for _ in range(left[f])]
    if v.trump is not None:
        hand = sort_cards(hand, v.trump)
        chosen = sort_cards(chosen, v.trump)
    rows.append(("hand", format_cards(hand) or "—"))
    if chosen:
        rows.append(("burying" if state.phase == "bury" else "choosing", format_cards(chosen)))
    if v.kitty_seen:
        rows.append(("kitty taken up", format_cards(v.kitty_seen)))
    if v.buried:
        rows.append(("buried", format_cards(v.buried)))
    for s in range(n):
        if s == seat:
            continue
        if v.phase == "exchange" and s == v.landlord:
            parts = [f"took up the kitty, burying {r.kitty} cards"]
        else:
            parts = [f"{v.sizes[s]} card{'' if v.sizes[s] == 1 else 's'}"]
        if v.piles[s]:
            parts.append(f"{v.piles[s]} points won")
        if v.voids[s]:
            parts.append("void in " + ", ".join(SUIT_LABELS[x] for x in sorted(v.voids[s])))
        rows.append((name(s), " · ".join(parts)))
    if v.piles[seat]:
        rows.append(("points won", str(v.piles[seat])))
    if v.trick_plays:
        rows.append(
            (
                "trick",
                " · ".join(
                    f"{name(s)} {format_cards(p)}"
                    for s, p in zip(v.trick_seats, v.trick_plays, strict=True)
                ),
            )
        )
    if last_round is not None:
        rows.append(("last round", str(last_round["result"])))
    return rows


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
