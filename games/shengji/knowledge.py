"""What one seat knows during a round, built from its observations only.

:class:`SeatView` follows a seat's observation stream: its own hand, the trump
and landlord, the bids, the kitty (for the landlord), the friend cards, every
card played, the trick in progress, the points, and the facts the play
reveals: a seat that fails to follow is void in the led suit, a failed
throw's returned cards stay in the leader's hand, and the blocker holds cards
that beat the forced unit.

Exact deal knowledge (probabilities, sampling) lives in
:mod:`games.shengji.deal_knowledge`, on the shared module :mod:`games.deal`.
"""

from __future__ import annotations

from typing import Any

from games.base import Observation
from games.shengji.cards import NUM_FACES, Card, card
from games.shengji.formats import Format, count_faces, lead_format
from games.shengji.friends import FriendSlot, FriendTracker
from games.shengji.tricks import TrickState
from games.shengji.trump import SUIT_LABELS, Trump, rank_index, table

__all__ = ["SeatView", "seat_view_rows"]


def _trump_from(obs: Observation) -> Trump:
    suit = obs["suit"]
    s = None if suit == "none" else SUIT_LABELS.index(suit)
    return Trump(rank_index(obs["rank"]), s)


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
                    self._drop(self.hand, c)
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

    @staticmethod
    def _drop(d: dict[int, int], c: int) -> None:
        n = d.get(c, 0) - 1
        if n > 0:
            d[c] = n
        else:
            d.pop(c, None)

    def _on_play(self, seat: int, cards: list[Card], lead: bool) -> None:
        assert self.trump is not None
        t = table(self.trump)
        for c in cards:
            self.played[c] += 1
            if seat == self.seat:
                self._drop(self.hand, c)
            else:
                kn = self.known[seat]
                if kn.get(c, 0):
                    self._drop(kn, c)
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
    '20 cards · 5 points won'

    """
    from games.base import CHANCE, TERMINAL
    from games.errors import InvalidParameterError
    from games.shengji.cards import format_cards
    from games.shengji.trump import rank_name, sort_cards

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
        SeatView._drop(left, c)
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
