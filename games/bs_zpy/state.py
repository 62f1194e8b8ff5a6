"""The BS-ZPY engine: ZPY played face down, with claims, BS calls and peanut butter."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.base import CHANCE
from games.bs_zpy.rules import (
    _CLAIM,
    _STEAL,
    CALL,
    CLAIM_TRUE,
    claim_action,
    claim_winner,
    decode_bs_action,
    level_delta,
    play_validity,
    smallest_valid_subhand,
)
from games.errors import IllegalActionError, InvalidParameterError
from games.shengji.rules.cards import (
    NUM_FACES,
    Card,
    card,
    card_points,
    format_cards,
    parse_cards,
)
from games.shengji.rules.formats import (
    Format,
    count_faces,
    lead_format,
)
from games.shengji.rules.friends import FriendSlot, FriendTracker, parse_friend
from games.shengji.rules.scoring import kitty_multiplier, next_landlord
from games.shengji.rules.trump import SUIT_LABELS, Trump, rank_name, table
from games.shengji.state import (
    _SELECT,
    COMMIT,
    PASS,
    Rules,
    ShengjiGame,
    ShengjiParams,
    ShengjiState,
    resolve_rules,
    select_action,
)

__all__ = [
    "BSZPYParams",
    "BSZPYGame",
    "BSZPYState",
    "ClaimPhase",
    "ClaimRecord",
    "ClaimTrick",
    "Settlement",
]


@dataclass
class ClaimRecord:
    """One face-down play: its true cards, its claim and how it was settled.

    ``status`` is ``open`` (waiting for calls), ``unchallenged`` (no call),
    ``upheld`` (called, truthful) or ``caught`` (called, a lie).
    """

    seat: int
    cards: list[Card]
    claim: list[Card]
    lead: bool
    valid: bool
    violation: str
    status: str = "open"
    caller: int | None = None
    returned: list[Card] = field(default_factory=list)

    @property
    def lie(self) -> bool:
        """Whether the play is a lie (cards not as claimed, or invalid)."""
        return not self.valid or sorted(self.cards) != sorted(self.claim)

    @property
    def eligible(self) -> bool:
        """Whether the play may win the trick and fill friend slots."""
        return self.status in ("unchallenged", "upheld")


@dataclass
class ClaimTrick:
    """A finished trick of claims."""

    leader: int
    fmt: Format
    plays: list[ClaimRecord]
    winner: int
    points: int
    joins: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class Settlement:
    """How the calls on one play were settled.

    ``loser`` pays ``gainer`` (cards from the winnings pile or points) after
    a call; ``peanut_butter`` is set for an unchallenged lie.
    """

    caller: int | None
    caught: bool
    peanut_butter: bool
    loser: int | None = None
    gainer: int | None = None
    kept: tuple[Card, ...] = ()
    returned: tuple[Card, ...] = ()


class ClaimPhase:
    """The trick phase of BS-ZPY: face-down plays, claims, calls and winnings piles.

    Parameters
    ----------
    trump : Trump
    hands : sequence of card lists, one per seat
    leader : int
        Who leads the first trick (the dictator).
    friends : FriendTracker
        The friend slots (the dictator's team grows as claims fill them).
    kitty : list of Card
        The buried cards.
    decks : int
        Copies of each card (claims may not exceed it).
    draw_policy, throw_policy, kitty_policy : str
        ZPY rule switches (see :mod:`games.shengji.rules.follow`,
        :mod:`games.shengji.rules.tricks`, :mod:`games.shengji.rules.scoring`).

    Examples
    --------
    >>> t = Trump("2", "S")
    >>> hands = [parse_cards(h) for h in ("AH 3C", "KH 4C", "QH 5C", "JH 6C")]
    >>> p = ClaimPhase(t, hands, 0, FriendTracker([FriendSlot(card("KH"), 1)], 0), decks=1)
    >>> _ = p.put(0, parse_cards("3C"), parse_cards("AH"))     # a lie
    >>> p.settle(None).peanut_butter                          # nobody calls
    True
    >>> for s, c in ((1, "KH"), (2, "QH"), (3, "JH")):
    ...     _ = p.put(s, parse_cards(c), parse_cards(c))
    ...     _ = p.settle(None)
    >>> tr = p.finish_trick()             # the claimed AH wins; KH fills the friend slot
    >>> tr.winner, [len(x) for x in p.piles], sorted(p.team), tr.points
    (0, [4, 0, 0, 0], [0, 1], 10)
    """

    def __init__(
        self,
        trump: Trump,
        hands: Sequence[Iterable[int]],
        leader: int,
        friends: FriendTracker,
        kitty: Sequence[int] = (),
        decks: int = 2,
        draw_policy: str = "no-protections",
        throw_policy: str = "all",
        kitty_policy: str = "times",
    ):
        self.trump = trump
        self.n = len(hands)
        self.hands: list[dict[int, int]] = [count_faces(h) for h in hands]
        self.leader = leader
        self.friends = friends
        self.kitty = [card(c) for c in kitty]
        self.decks = decks
        self.draw_policy = draw_policy
        self.throw_policy = throw_policy
        self.kitty_policy = kitty_policy
        self.piles: list[list[Card]] = [[] for _ in range(self.n)]
        self.penalties = [0] * self.n
        self.tricks: list[ClaimTrick] = []
        self.current: list[ClaimRecord] = []
        self.fmt: Format | None = None
        self.kitty_points_awarded = 0
        self.kitty_winner: int | None = None

    # ----------------------------------------------------------------- state
    @property
    def team(self) -> set[int]:
        """The dictator's team as it stands now."""
        return self.friends.team

    def hand(self, seat: int) -> list[Card]:
        """``seat``'s cards, face by face."""
        h = self.hands[seat]
        return [card(f) for f in sorted(h) for _ in range(h[f])]

    def is_over(self) -> bool:
        """Whether every card has been played."""
        return not self.current and all(not h for h in self.hands)

    def is_leading(self) -> bool:
        """Whether the next play leads a trick."""
        return not self.current

    def waiting(self) -> ClaimRecord | None:
        """The play waiting for calls, if any."""
        if self.current and self.current[-1].status == "open":
            return self.current[-1]
        return None

    def to_play(self) -> int | None:
        """The seat to put cards down next (``None`` while calls are open or when over)."""
        if self.is_over() or self.waiting() is not None or len(self.current) == self.n:
            return None
        return (self.leader + len(self.current)) % self.n

    def may_call(self) -> bool:
        """Whether the waiting play may be called (not when everyone before the last was caught)."""
        rec = self.waiting()
        if rec is None:
            return False
        if len(self.current) == self.n and self.n > 1:
            return not all(p.status == "caught" for p in self.current[:-1])
        return True

    # ---------------------------------------------------------------- checks
    def max_lead(self) -> int:
        """The most cards a lead can claim (the copies of the largest effective suit)."""
        t = table(self.trump)
        return max(len(faces) for faces in t.by_suit) * self.decks

    def claim_error(self, seat: int, n_cards: int, claim: Sequence[int]) -> str | None:
        """Why ``claim`` is not a well-formed claim for ``n_cards`` face-down cards, or ``None``."""
        if len(claim) != n_cards:
            return f"a claim names as many cards as were put down ({n_cards}), not {len(claim)}"
        for f, k in count_faces(claim).items():
            if k > self.decks:
                return f"there are only {self.decks} copies of {card(f)}"
        if self.is_leading():
            t = table(self.trump)
            if len({t.esuit[c] for c in claim}) > 1:
                return f"a lead claim must lie in one suit: {format_cards(claim)} mixes suits"
        return None

    def put_error(self, seat: int, cards: Sequence[int], claim: Sequence[int]) -> str | None:
        """Why ``seat`` cannot put ``cards`` down claiming ``claim``, or ``None``."""
        if self.to_play() != seat:
            return "it is not your turn"
        if not cards:
            return "put down at least one card"
        if self.is_leading() and len(cards) > self.max_lead():
            return f"a lead claim lies in one suit: at most {self.max_lead()} cards"
        for f, k in count_faces(cards).items():
            if self.hands[seat].get(f, 0) < k:
                return f"you do not hold {k} × {card(f)}"
        if not self.is_leading():
            assert self.fmt is not None
            if len(cards) != self.fmt.size:
                return f"put down exactly {self.fmt.size} card(s), as many as the lead"
        return self.claim_error(seat, len(cards), claim)

    def validity(self, seat: int, cards: Sequence[int]) -> tuple[bool, str]:
        """Whether ``seat`` putting down ``cards`` now would be a valid ZPY play."""
        hand = self.hands[seat]
        if self.is_leading():
            others = [self.hands[(seat + k) % self.n] for k in range(1, self.n)]
            return play_validity(cards, hand, None, self.trump, others, self.draw_policy)
        return play_validity(cards, hand, self.fmt, self.trump, (), self.draw_policy)

    # ---------------------------------------------------------------- moves
    def put(self, seat: int, cards: Sequence[int], claim: Sequence[int]) -> ClaimRecord:
        """``seat`` puts ``cards`` face down and claims ``claim``; the play waits for calls.

        Raises
        ------
        IllegalActionError
            If it is not ``seat``'s turn, the cards are not held, the count is
            wrong or the claim is ill-formed (nothing changes).
        """
        cs = [card(c) for c in cards]
        cl = sorted(card(c) for c in claim)
        err = self.put_error(seat, cs, cl)
        if err is not None:
            raise IllegalActionError(
                f"P{seat} cannot put down {format_cards(cs)} claiming {format_cards(cl)}: {err}"
            )
        valid, why = self.validity(seat, cs)
        lead = self.is_leading()
        h = self.hands[seat]
        for c in cs:
            h[c] -= 1
            if not h[c]:
                del h[c]
        rec = ClaimRecord(seat, sorted(cs), cl, lead, valid, why)
        if lead:
            self.fmt = lead_format(cl, self.trump)
        self.current.append(rec)
        return rec

    def settle(self, caller: int | None) -> Settlement:
        """Settle the waiting play: no call (``None``) or a call by ``caller``.

        A caught leader with an invalid lead keeps :func:`smallest_valid_subhand`
        and takes the rest back; the trick format becomes the revealed (kept)
        cards whenever the leader is caught.
        """
        rec = self.waiting()
        if rec is None:
            raise IllegalActionError("no play is waiting for calls")
        if caller is None:
            rec.status = "unchallenged"
            return Settlement(None, False, rec.lie)
        if caller == rec.seat or not 0 <= caller < self.n:
            raise IllegalActionError(f"P{caller} cannot call BS on P{rec.seat}'s own play")
        if not self.may_call():
            raise IllegalActionError(
                "every player before the last was caught lying: nobody may call on the last"
            )
        rec.caller = caller
        if not rec.lie:
            rec.status = "upheld"
            return Settlement(caller, False, False, caller, rec.seat)
        rec.status = "caught"
        kept: tuple[Card, ...] = ()
        back: tuple[Card, ...] = ()
        if rec.lead:
            if not rec.valid:
                keep = smallest_valid_subhand(rec.cards, self.trump)
                rest = list(rec.cards)
                for c in keep:
                    rest.remove(c)
                h = self.hands[rec.seat]
                for c in rest:
                    h[c] = h.get(c, 0) + 1
                rec.returned = sorted(rest)
                rec.cards = sorted(keep)
                kept, back = tuple(rec.cards), tuple(rec.returned)
            self.fmt = lead_format(rec.cards, self.trump)
        return Settlement(caller, True, False, rec.seat, caller, kept, back)

    def transfer(self, loser: int, gainer: int, c: int) -> None:
        """Move one card ``c`` from ``loser``'s winnings pile to ``gainer``'s."""
        pile = self.piles[loser]
        if c not in pile:
            raise IllegalActionError(f"P{loser}'s winnings pile holds no {card(c)}")
        pile.remove(c)  # type: ignore[arg-type]
        self.piles[gainer].append(card(c))

    def fine(self, loser: int, points: int) -> None:
        """``loser`` loses ``points`` points (a penalty with an empty winnings pile)."""
        self.penalties[loser] += points

    def trick_complete(self) -> bool:
        """Whether every seat has played to the trick and every call is settled."""
        return len(self.current) == self.n and self.waiting() is None

    def finish_trick(self) -> ClaimTrick:
        """Award the finished trick: winner by claims, every true card to its pile, friends."""
        if not self.trick_complete():
            raise IllegalActionError("the trick is not complete")
        fmt = self.fmt
        assert fmt is not None
        plays = [(p.eligible, p.claim) for p in self.current]
        w = self.current[claim_winner(fmt, plays, self.throw_policy)].seat
        cards = [c for p in self.current for c in p.cards]
        points = card_points(cards)
        self.piles[w].extend(cards)
        joins = self.friends.resolve_trick((p.seat, p.claim) for p in self.current if p.eligible)
        if self.is_over_after_trick() and self.kitty:
            mult = kitty_multiplier(fmt.largest_unit, self.kitty_policy)
            self.kitty_points_awarded = card_points(self.kitty) * mult
            self.kitty_winner = w
        tr = ClaimTrick(self.leader, fmt, self.current, w, points, joins)
        self.tricks.append(tr)
        self.current = []
        self.fmt = None
        self.leader = w
        return tr

    def is_over_after_trick(self) -> bool:
        """Whether the hands are empty (the trick in hand is the last)."""
        return all(not h for h in self.hands)

    # ---------------------------------------------------------------- score
    def seat_scores(self) -> list[int]:
        """Each seat's tally: pile points, the kitty for the last trick's winner, minus penalties."""
        out = [card_points(p) - pen for p, pen in zip(self.piles, self.penalties, strict=True)]
        if self.kitty_winner is not None:
            out[self.kitty_winner] += self.kitty_points_awarded
        return out

    def side_scores(self) -> tuple[int, int]:
        """``(dictator side, attacking side)`` scores by the current teams."""
        sc = self.seat_scores()
        team = self.team
        d = sum(v for s, v in enumerate(sc) if s in team)
        return d, sum(sc) - d

    def all_cards(self) -> list[Card]:
        """Every card of the round: hands, the trick, the winnings piles and the kitty."""
        out = [c for s in range(self.n) for c in self.hand(s)]
        out += [c for p in self.current for c in p.cards]
        out += [c for p in self.piles for c in p]
        return out + list(self.kitty)


# ===================================================================== engine
@dataclass(frozen=True)
class BSZPYParams(ShengjiParams):
    """Parameters of BS-ZPY: the ZPY parameters (variant ``zpy``) plus the penalties.

    ``penalty_cards`` random cards leave a winnings pile after a lost call
    (default 2); ``penalty_points`` are lost instead when the pile is empty
    (default 5).  ``players`` defaults to 5 (2 decks).
    """

    variant: str = "zpy"
    players: int | None = 5
    penalty_cards: int = 2
    penalty_points: int = 5


class BSZPYGame(ShengjiGame):
    """BS-ZPY with fixed parameters (see the module docstring)."""

    name = "bs-zpy"
    params_type = BSZPYParams

    def __init__(self, params: BSZPYParams | None = None, **kwargs: Any):
        if kwargs.get("variant") is None:
            kwargs.pop("variant", None)
        params = self._with(params, kwargs)
        if params.variant != "zpy":
            raise InvalidParameterError(
                f"bs-zpy is played as ZPY with friends; variant {params.variant!r} is not available"
            )
        if params.penalty_cards < 0 or params.penalty_points < 0:
            raise InvalidParameterError("penalty_cards and penalty_points must be >= 0")
        ShengjiGame.__init__(self, params)
        self.rules: Rules = resolve_rules(params)

    def new_initial_state(self) -> BSZPYState:
        return BSZPYState(self)

    def position(
        self,
        hands: Sequence[str | Iterable[int]],
        trump: str | Trump,
        landlord: int,
        friends: Sequence[str | FriendSlot] = (),
        kitty: str | Iterable[int] = (),
        leader: int | None = None,
    ) -> BSZPYState:
        """A state at the start of the tricks from a hand-made position.

        Parameters
        ----------
        hands : one card list (or text) per seat, all of the same size
        trump : ``"2S"`` (rank then suit letter), ``"2NT"``, or a :class:`Trump`
        landlord : the dictator
        friends : friend slots (``"AH"``, ``"2:AH"``)
        kitty : the buried cards (seen by the dictator only)
        leader : who leads first (default: the dictator)

        Every seat observes its own hand, the trump, the dictator and the
        friend slots; the dictator also sees the kitty.  The position need not
        use every card of the decks (hand-made endgames).

        Raises
        ------
        InvalidParameterError
            If the seats, hands, friends or copies do not fit the game.
        """
        return BSZPYState(self, _position=(hands, trump, landlord, friends, kitty, leader))


def _parse_trump(trump: str | Trump) -> Trump:
    if isinstance(trump, Trump):
        return trump
    if not isinstance(trump, str) or not trump.strip():
        raise InvalidParameterError(f"trump must be text such as '2D' or '2NT', got {trump!r}")
    text = trump.strip().upper()
    if text.endswith("NT"):
        return Trump(text[:-2] or "NT", None)
    return Trump(text[:-1], text[-1])


class BSZPYState(ShengjiState):
    """A state of a BS-ZPY match (see the module docstring for the rules)."""

    game: BSZPYGame

    def __init__(self, game: BSZPYGame, _position: tuple[Any, ...] | None = None):
        super().__init__(game)
        if _position is not None:
            self._setup_position(*_position)

    # ------------------------------------------------------------ round setup
    def _start_round(self) -> None:
        super()._start_round()
        self.table: ClaimPhase | None = None
        self.down: dict[int, int] = {}
        self.sealed = False
        self.claiming: dict[int, int] = {}
        self.to_decide: list[int] = []
        self.votes: dict[int, bool] = {}
        self.steal: tuple[int, int, int] | None = None  # loser, gainer, cards left to move

    def _setup_position(
        self,
        hands: Sequence[str | Iterable[int]],
        trump: str | Trump,
        landlord: int,
        friends: Sequence[str | FriendSlot],
        kitty: str | Iterable[int],
        leader: int | None,
    ) -> None:
        r = self.rules
        if not isinstance(hands, Sequence) or isinstance(hands, str):
            raise InvalidParameterError(f"hands must be one card list per seat, got {hands!r}")
        if len(hands) != self.n:
            raise InvalidParameterError(f"give one hand per seat ({self.n}), not {len(hands)}")
        cs = [parse_cards(h) for h in hands]
        if len({len(h) for h in cs}) != 1 or not cs[0]:
            raise InvalidParameterError("every hand must hold the same number (>= 1) of cards")
        if (
            not isinstance(landlord, int)
            or isinstance(landlord, bool)
            or not 0 <= landlord < self.n
        ):
            raise InvalidParameterError(
                f"the dictator must be a seat 0..{self.n - 1}, got {landlord!r}"
            )
        if leader is not None and (
            not isinstance(leader, int) or isinstance(leader, bool) or not 0 <= leader < self.n
        ):
            raise InvalidParameterError(
                f"the leader must be a seat 0..{self.n - 1}, got {leader!r}"
            )
        kit = parse_cards(kitty)
        every = count_faces([c for h in cs for c in h] + kit)
        for f, k in every.items():
            if k > r.decks:
                raise InvalidParameterError(
                    f"{card(f)} appears {k} times but there are only {r.decks} decks"
                )
        if not isinstance(friends, Iterable) or isinstance(friends, str):
            raise InvalidParameterError(f"friends must be a list of friend cards, got {friends!r}")
        slots = [s if isinstance(s, FriendSlot) else parse_friend(s) for s in friends]
        tr = _parse_trump(trump)
        self.trump = tr
        self.landlord = self.round_landlord = landlord
        self.hands = [count_faces(h) for h in cs]
        self.buried = list(kit)
        self.slots = slots
        self.deck = [0] * NUM_FACES
        self.deck_left = 0
        every_card = [c for f in range(NUM_FACES) for c in [card(f)] * r.decks]
        for c in [c for h in cs for c in h] + kit:
            every_card.remove(c)
        for s in range(self.n):
            self._observe("hand", s, audience=(s,), cards=tuple(sorted(cs[s])))
        self._observe("setup", None, size=len(cs[0]), kitty=len(kit), out=tuple(every_card))
        self._observe(
            "trump", landlord, rank=rank_name(tr.rank), suit=_suit_word(tr), size=len(cs[0])
        )
        if kit:
            self._observe("kitty_known", landlord, audience=(landlord,), cards=tuple(sorted(kit)))
        self._observe("friends", landlord, slots=tuple((s.card, s.ordinal) for s in slots))
        self._start_play(leader if leader is not None else landlord)

    def _start_play(self, leader: int | None = None) -> None:  # type: ignore[override]
        r = self.rules
        ll = self.round_landlord
        assert ll is not None and self.trump is not None
        self.table = ClaimPhase(
            self.trump,
            [[card(f) for f in sorted(h) for _ in range(h[f])] for h in self.hands],
            leader=ll if leader is None else leader,
            friends=FriendTracker(self.slots, ll, r.double_join),
            kitty=self.buried,
            decks=r.decks,
            draw_policy=r.draw_policy,
            throw_policy=r.throw_policy,
            kitty_policy=r.kitty_policy,
        )
        self.phase = "play"

    def _card_history(self) -> Any:
        """This round for :mod:`games.epistemic` (see
        :func:`games.bs_zpy.knowledge.bs_zpy_card_history`)."""
        from games.bs_zpy.knowledge import bs_zpy_card_history

        return bs_zpy_card_history(self)

    # --------------------------------------------------------------- helpers
    def hand(self, seat: int) -> list[Card]:
        """``seat``'s current cards (cards being put down are still counted)."""
        if self.table is not None:
            return self.table.hand(seat)
        return super().hand(seat)

    def landlord_team(self) -> set[int]:
        """The dictator's team as it stands now (by successful claims)."""
        if self.table is not None:
            return set(self.table.team)
        return super().landlord_team()

    def winners(self) -> list[int]:
        """Seats on the winning side of the last finished round (empty before any)."""
        if not self.results:
            return []
        res = self.results[-1]
        team = set(res["team"])
        if res["delta"] < 0:
            return sorted(team)
        return [s for s in range(self.n) if s not in team]

    @property
    def penalty_cards(self) -> int:
        return self.game.params.penalty_cards

    @property
    def penalty_points(self) -> int:
        return self.game.params.penalty_points

    # -------------------------------------------------------------- OpenSpiel
    def _current_player(self) -> int:
        ph = self.phase
        if ph == "steal":
            return CHANCE
        if ph == "call":
            return self.to_decide[0]
        if ph == "play":
            assert self.table is not None
            seat = self.table.to_play()
            assert seat is not None
            return seat
        return super()._current_player()

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == "steal":
            assert self.table is not None and self.steal is not None
            pile = self.table.piles[self.steal[0]]
            counts = count_faces(pile)
            return [(_STEAL + f, k / len(pile)) for f, k in sorted(counts.items())]
        return super()._chance_outcomes()

    def _legal_actions(self, player: int) -> list[int]:
        ph = self.phase
        if ph == "call":
            return [PASS, CALL]
        if ph == "play":
            return self._play_actions(player)
        return super()._legal_actions(player)

    def _play_actions(self, seat: int) -> list[int]:
        t = self.table
        assert t is not None
        if not self.sealed:
            hand = t.hands[seat]
            n_down = sum(self.down.values())
            if t.is_leading():
                out = []
                if n_down < t.max_lead():
                    out = [_SELECT + f for f, k in hand.items() if k > self.down.get(f, 0)]
                return out + ([COMMIT] if n_down else [])
            assert t.fmt is not None
            if n_down == t.fmt.size:
                return [COMMIT]
            return [_SELECT + f for f, k in hand.items() if k > self.down.get(f, 0)]
        out = []
        if (
            not self.claiming
            and t.claim_error(seat, sum(self.down.values()), _expand(self.down)) is None
        ):
            out.append(CLAIM_TRUE)
        for f in range(NUM_FACES):
            if self._claim_ok(f):
                out.append(_CLAIM + f)
        return out

    def _claim_ok(self, f: int) -> bool:
        t = self.table
        assert t is not None and self.trump is not None
        d = self.rules.decks
        if self.claiming.get(f, 0) >= d:
            return False
        left = sum(self.down.values()) - sum(self.claiming.values())
        if left <= 0:
            return False
        if t.is_leading():
            tt = table(self.trump)
            if self.claiming and tt.esuit[next(iter(self.claiming))] != tt.esuit[f]:
                return False
            room = sum(d - self.claiming.get(g, 0) for g in tt.by_suit[tt.esuit[f]])
            if room < left:
                return False
        return True

    def _is_legal(self, player: int, action: int) -> bool:
        ph = self.phase
        if ph == "call":
            return action in (PASS, CALL)
        if ph == "play":
            t = self.table
            assert t is not None
            if not self.sealed:
                if action == COMMIT:
                    n_down = sum(self.down.values())
                    if t.is_leading():
                        return n_down > 0
                    assert t.fmt is not None
                    return n_down == t.fmt.size
                f = action - _SELECT
                if not 0 <= f < NUM_FACES or t.hands[player].get(f, 0) <= self.down.get(f, 0):
                    return False
                if not t.is_leading():
                    assert t.fmt is not None
                    return sum(self.down.values()) < t.fmt.size
                return sum(self.down.values()) < t.max_lead()
            if action == CLAIM_TRUE:
                return not self.claiming and (
                    t.claim_error(player, sum(self.down.values()), _expand(self.down)) is None
                )
            f = action - _CLAIM
            return 0 <= f < NUM_FACES and self._claim_ok(f)
        return super()._is_legal(player, action)

    def _illegal_reason(self, player: int, action: int) -> str:
        ph = self.phase
        if ph == "call":
            return "decide whether to call BS: pass or call"
        if ph != "play":
            return super()._illegal_reason(player, action)
        t = self.table
        assert t is not None
        try:
            kind, payload = decode_bs_action(action)
        except IllegalActionError as exc:
            return str(exc)
        if not self.sealed:
            if kind == "commit":
                return "put down the right number of cards first"
            if kind != "select":
                return "first put cards face down (select, then commit), then claim"
            held = t.hands[player].get(payload, 0)
            if held <= self.down.get(payload, 0):
                return (
                    f"you hold {held} × {payload}, all already put down"
                    if held
                    else (f"you do not hold {payload}")
                )
            if t.is_leading():
                return f"a lead claim lies in one suit: at most {t.max_lead()} cards"
            return "you have put down as many cards as the lead"
        if kind == "claim_true":
            return "a lead claim must lie in one suit (your cards mix suits)"
        if kind != "claim":
            return "claim what your face-down cards are (claim cards, or claim_true)"
        if self.claiming.get(payload, 0) >= self.rules.decks:
            return f"there are only {self.rules.decks} copies of {payload}"
        if sum(self.claiming.values()) >= sum(self.down.values()):
            return "the claim already names every card put down"
        return "a lead claim must lie in one suit"

    def _action_to_string(self, player: int, action: int) -> str:
        kind, payload = decode_bs_action(action)
        if kind == "call":
            return "call BS"
        if kind == "claim_true":
            return "claim the truth"
        if kind == "claim":
            return f"claim {payload}"
        if kind == "steal":
            return f"steal {payload}"
        if self.phase == "call" and kind == "pass":
            return "no call"
        if self.phase == "play" and kind == "commit":
            return "put down"
        if kind == "select" and self.phase == "play":
            return f"down {payload}"
        return super()._action_to_string(player, action)

    # ---------------------------------------------------------------- moves
    def _apply_action(self, action: int) -> None:
        ph = self.phase
        if ph == "play":
            self._play_step(self._current_player(), action)
        elif ph == "call":
            seat = self.to_decide.pop(0)
            self.votes[seat] = action == CALL
            self._observe("decide", seat, audience=(seat,), call=action == CALL)
            if not self.to_decide:
                self._resolve_calls()
        elif ph == "steal":
            self._steal_card(action - _STEAL)
        else:
            super()._apply_action(action)

    def _play_step(self, seat: int, action: int) -> None:
        if not self.sealed:
            if action == COMMIT:
                self.sealed = True
                self._observe("down", seat, audience=(seat,), cards=tuple(_expand(self.down)))
                return
            f = action - _SELECT
            self.down[f] = self.down.get(f, 0) + 1
            self._observe("select", seat, audience=(seat,), card=card(f))
            return
        if action == CLAIM_TRUE:
            self.claiming = dict(self.down)
        else:
            f = action - _CLAIM
            self.claiming[f] = self.claiming.get(f, 0) + 1
            self._observe("claiming", seat, audience=(seat,), card=card(f))
            if sum(self.claiming.values()) < sum(self.down.values()):
                return
        self._submit(seat)

    def _submit(self, seat: int) -> None:
        t = self.table
        assert t is not None
        cards, claim = _expand(self.down), _expand(self.claiming)
        lead = t.is_leading()
        t.put(seat, cards, claim)
        self.down, self.claiming, self.sealed = {}, {}, False
        self._observe(
            "claim",
            seat,
            audience=(seat,),
            hidden={"cards": tuple(cards)},
            claim=tuple(claim),
            count=len(cards),
            lead=lead,
        )
        if t.may_call():
            self.to_decide = [(seat + k) % self.n for k in range(1, self.n)]
            self.votes = {}
            self.phase = "call"
        else:
            self._observe("nocall", None, allowed=False)
            self._settle(None)

    def _resolve_calls(self) -> None:
        t = self.table
        assert t is not None
        rec = t.waiting()
        assert rec is not None
        order = [(rec.seat + k) % self.n for k in range(1, self.n)]
        callers = tuple(s for s in order if self.votes.get(s))
        self.votes = {}
        if callers:
            self._observe("call", None, callers=callers, caller=callers[0])
            self._settle(callers[0])
        else:
            self._observe("nocall", None, allowed=True)
            self._settle(None)

    def _settle(self, caller: int | None) -> None:
        t = self.table
        assert t is not None
        rec = t.waiting()
        assert rec is not None
        seat, shown = rec.seat, tuple(rec.cards)
        st = t.settle(caller)
        if caller is None:
            self._observe("peanut_butter" if st.peanut_butter else "silent", seat)
            self._after_settle()
            return
        self._observe(
            "reveal",
            seat,
            cards=shown,
            truthful=not st.caught,
            valid=rec.valid,
            violation=rec.violation,
            kept=st.kept,
            returned=st.returned,
        )
        assert st.loser is not None and st.gainer is not None
        self._penalise(st.loser, st.gainer)

    def _penalise(self, loser: int, gainer: int) -> None:
        t = self.table
        assert t is not None
        pile = t.piles[loser]
        if not pile or self.penalty_cards == 0:
            t.fine(loser, self.penalty_points)
            self._observe("penalty", loser, to=gainer, points=self.penalty_points, cards=0)
            self._after_settle()
            return
        k = min(self.penalty_cards, len(pile))
        self._observe("penalty", loser, to=gainer, points=0, cards=k)
        self.steal = (loser, gainer, k)
        self.phase = "steal"

    def _steal_card(self, f: int) -> None:
        t = self.table
        assert t is not None and self.steal is not None
        loser, gainer, k = self.steal
        t.transfer(loser, gainer, f)
        self._observe("steal", loser, to=gainer)
        if k > 1:
            self.steal = (loser, gainer, k - 1)
            return
        self.steal = None
        self._after_settle()

    def _after_settle(self) -> None:
        t = self.table
        assert t is not None
        self.phase = "play"
        if not t.trick_complete():
            return
        tr = t.finish_trick()
        self._observe("trick", tr.winner, cards=sum(len(p.cards) for p in tr.plays))
        for j in tr.joins:
            self._observe("join", j.seat, slot=j.slot, already=j.already_on_team)
        if t.is_over():
            self._end_round()

    def _end_round(self) -> None:
        r = self.rules
        t = self.table
        ll = self.round_landlord
        assert t is not None and ll is not None and self.trump is not None
        team = set(t.team)
        dictator, attacking = t.side_scores()
        delta = level_delta(attacking, dictator, r.decks, r.step_per_deck)
        before = self._advance_ranks(ll, team, max(-delta, 0), max(delta, 0))
        landlord_won = delta < 0
        nxt = next_landlord(ll, team, landlord_won, self.n)
        if delta > 0:
            result = f"attackers +{delta}"
        elif delta < 0:
            result = f"dictator's team +{-delta}"
        else:
            result = "attackers win, +0"
        self._observe(
            "round_end",
            None,
            kitty=tuple(sorted(t.kitty)),
            kitty_points=t.kitty_points_awarded,
            piles=tuple(card_points(p) for p in t.piles),
            penalties=tuple(t.penalties),
            team=tuple(sorted(team)),
            dictator_score=dictator,
            attacking_score=attacking,
            delta=delta,
            result=result,
            ranks=tuple(rank_name(x) for x in self.ranks),
            next_landlord=nxt,
        )
        self._close_round(
            ll,
            team,
            before,
            nxt,
            dictator_score=dictator,
            attacking_score=attacking,
            delta=delta,
            result=result,
        )

    # ------------------------------------------------------ whole-move helpers
    def play_claim(
        self, seat: int, cards: Sequence[int] | str, claim: Sequence[int] | str | None = None
    ) -> None:
        """Put ``cards`` down and claim ``claim`` (default: the truth); nothing changes if illegal.

        Raises
        ------
        IllegalActionError
            Naming the reason, e.g. ``you do not hold 1 × AS``.
        """
        cs = parse_cards(cards) if isinstance(cards, str) else [card(c) for c in cards]
        if claim is None:
            cl = list(cs)
        else:
            cl = parse_cards(claim) if isinstance(claim, str) else [card(c) for c in claim]
        if self.phase != "play" or self.table is None:
            raise IllegalActionError(f"P{seat} cannot play now: no trick is being played")
        if self.down or self.sealed:
            raise IllegalActionError(f"P{seat} cannot play now: a play is already being built")
        err = self.table.put_error(seat, cs, sorted(cl))
        if err is not None:
            raise IllegalActionError(
                f"P{seat} cannot put down {format_cards(cs)} claiming {format_cards(cl)}: {err}"
            )
        for c in cs:
            self.apply_action(select_action(c))
        self.apply_action(COMMIT)
        if claim is None or sorted(cl) == sorted(cs):
            self.apply_action(CLAIM_TRUE)
        else:
            for c in cl:
                self.apply_action(claim_action(c))

    def decide_calls(self, calls: Mapping[int, bool] | Iterable[int]) -> None:
        """Apply every open call decision: seats in ``calls`` (or mapped to True) call BS."""
        want = _callers(calls, self.n)
        if self.phase != "call":
            raise IllegalActionError("no play is waiting for calls")
        bad = want - set(self.to_decide)
        if bad:
            raise IllegalActionError(
                f"P{min(bad)} cannot call BS now (deciding: {', '.join(f'P{s}' for s in self.to_decide)})"
            )
        while self.phase == "call":
            self.apply_action(CALL if self.to_decide[0] in want else PASS)

    def waiting_claim(self) -> ClaimRecord | None:
        """The play waiting for calls (the true cards: for the engine and tests, not for bots)."""
        return self.table.waiting() if self.table is not None else None


def _callers(calls: Any, n: int) -> set[int]:
    """The seats that call, from ``{seat: bool}`` or an iterable of seats; a typed error
    naming the first entry that is not a seat number (or, in a mapping, not a bool)."""
    if isinstance(calls, Mapping):
        items = list(calls.items())
    elif isinstance(calls, Iterable) and not isinstance(calls, str | bytes):
        items = [(s, True) for s in calls]
    else:
        raise IllegalActionError(
            f"calls must be a mapping {{seat: True/False}} or a list of seats, got {calls!r}"
        )
    want = set()
    for seat, call in items:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise IllegalActionError(f"{seat!r} is not a seat (0..{n - 1})")
        if not isinstance(call, bool):
            raise IllegalActionError(f"seat {seat}: a call decision is True or False, got {call!r}")
        if call:
            want.add(seat)
    return want


def _expand(counts: Mapping[int, int]) -> list[Card]:
    return [card(f) for f in sorted(counts) for _ in range(counts[f])]


def _suit_word(trump: Trump) -> str:
    return "none" if trump.suit is None else SUIT_LABELS[trump.suit]
