"""The Shengji/ZPY engine: variants ``tractor`` and ``zpy`` of one OpenSpiel-style state.

A match is one or more rounds.  Each round runs the phases

1. **deal** — chance draws the cards one at a time (starting from the landlord,
   or from a random seat in the first round).  A call (bid) may be made at any
   time during the deal: after every card drawn into a hand, every seat that
   can legally call or overcall now is offered the chance (``pass`` or a bid),
   the drawer first and then in drawing order; after a bid the other seats are
   offered an overcall in turn; after the last card (the kitty set aside) every
   seat with a bid left gets a last chance, until nobody bids;
2. **trump** — the winning bid sets the trump (a joker bid: no trump); in the
   first round it also makes the landlord (``winning-bid``, or ``first-bid`` as
   in shengji-bot.md); without bids the first round is dealt again, a later one
   takes the suit of the first kitty card;
3. **exchange** — the landlord takes the kitty and buries as many cards, one
   action per card;
4. **friends** (``zpy``) — the landlord names the friend cards, one per action;
5. **tricks** — a play is built card by card (``select`` actions, only cards
   that can still complete a legal play) and then ``play``-committed; a lead is
   checked as a throw against the hidden hands;
6. **score** — the kitty goes to the last trick's winner, the level table and
   the advancement rules move the ranks, and the next landlord is chosen.

Variant ``tractor`` (shengji-bot.md): 4 players (North, West, South, East; N/S
against W/E), 2 decks, 8-card kitty doubled, weak/strong calls, the first
declarer deals, the level table stopping at +3.  Variant ``zpy``
(zpy-reference.md): 4–10 players, ⌊players/2⌋ decks, a landlord and
⌊players/2⌋−1 friends, bids of any length with joker no-trump, the reference
level table with its bonus level.  Every option switch is a parameter.

Examples
--------
>>> from games.base import load_game
>>> g = load_game("shengji", variant="tractor")
>>> s = g.new_initial_state()
>>> s.is_chance_node(), g.num_players(), g.rules.hand_size, g.rules.kitty
(True, 4, 25, 8)

The trick-playing phase of a round (:class:`PlayPhase`) is a plain object other engines
can compose.  :class:`PlayPhase` holds the hands, the trump, the teams (fixed, or a friend
tracker), the trick in progress and the point piles, and applies whole plays:
a lead (checked as a throw against the hidden hands), then follows (checked
by :class:`~games.shengji.rules.follow.FollowRules`), then the trick's winner,
points and friend joins.  The game state of :mod:`games.shengji.state` wraps
it; the sampling bot builds one from a sampled deal and plays it out.

Examples
--------
>>> from games.shengji.rules.cards import parse_cards
>>> hands = [parse_cards(h) for h in ("AH KH", "3H 4H", "5H 6H", "7H 8H")]
>>> p = PlayPhase(Trump("2", "S"), hands, leader=0, landlord_team={0, 2})
>>> p.play(0, parse_cards("AH KH")).valid
True
>>> for seat in (1, 2, 3):
...     _ = p.play(seat, next(p.follow_rules(seat).plays()))
>>> p.tricks[-1].winner, p.piles
(0, [15, 0, 0, 0])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from games.base import CHANCE, TERMINAL, Game, State
from games.errors import IllegalActionError, InvalidParameterError
from games.shengji.rules.bidding import (
    BID_POLICIES,
    JOKER_BID_POLICIES,
    REINFORCEMENT_POLICIES,
    Bid,
    bid_trump,
    valid_bids,
)
from games.shengji.rules.cards import (
    NUM_FACES,
    SMALL_JOKER,
    Card,
    card,
    card_points,
    format_cards,
    parse_cards,
)
from games.shengji.rules.follow import DRAW_POLICIES, FollowRules
from games.shengji.rules.formats import Format, count_faces, lead_format
from games.shengji.rules.friends import (
    DOUBLE_JOIN_POLICIES,
    FRIEND_POLICIES,
    FriendJoin,
    FriendSlot,
    FriendTracker,
    allowed_friend_cards,
)
from games.shengji.rules.scoring import (
    ADVANCEMENT_POLICIES,
    KITTY_POLICIES,
    LevelChange,
    advance_rank,
    kitty_multiplier,
    kitty_size,
    level_change,
    next_landlord,
)
from games.shengji.rules.tricks import (
    THROW_EVALUATION_POLICIES,
    ThrowCheck,
    TrickState,
    check_throw,
)
from games.shengji.rules.trump import NT, SUIT_LABELS, Trump, rank_index, rank_name, table

__all__ = [
    "PlayPhase",
    "PlayRecord",
    "TrickRecord",
    "VARIANTS",
    "ShengjiParams",
    "Rules",
    "ShengjiGame",
    "ShengjiState",
    "PASS",
    "COMMIT",
    "bid_action",
    "select_action",
    "bury_action",
    "friend_action",
    "decode_action",
    "seat_name",
]


@dataclass
class PlayRecord:
    """One play: the seat, the cards played, and for a failed throw what was tried."""

    seat: int
    cards: list[Card]
    attempted: list[Card] | None = None
    blocker: int | None = None


@dataclass
class TrickRecord:
    """A finished trick."""

    leader: int
    fmt: Format
    plays: list[PlayRecord]
    winner: int
    points: int
    joins: list[FriendJoin] = field(default_factory=list)


class PlayPhase:
    """Trick play of one round.

    Parameters
    ----------
    trump : Trump
    hands : sequence of card lists, one per seat
    leader : int
        Who leads the first trick (the landlord).
    landlord_team : set of int, optional
        Fixed teams: the landlord's side.  Omit it and give ``friends`` instead.
    friends : FriendTracker, optional
        Finding-friends teams (the landlord's team grows as friends join).
    kitty : list of Card
        The buried cards (their points go to the last trick's winner).
    draw_policy, throw_policy, kitty_policy, throw_penalty : str
        Rule switches (see :mod:`games.shengji.rules.follow`, :mod:`games.shengji.rules.tricks`,
        :mod:`games.shengji.rules.scoring`); ``throw_penalty`` is ``none`` or
        ``ten-points``.
    """

    def __init__(
        self,
        trump: Trump,
        hands: Sequence[Iterable[int]],
        leader: int,
        landlord_team: set[int] | None = None,
        friends: FriendTracker | None = None,
        kitty: Sequence[int] = (),
        draw_policy: str = "no-protections",
        throw_policy: str = "all",
        kitty_policy: str = "times",
        throw_penalty: str = "none",
    ):
        self.trump = trump
        self.n = len(hands)
        self.hands: list[dict[int, int]] = [count_faces(h) for h in hands]
        self.sizes = [sum(h.values()) for h in self.hands]
        self.left = sum(self.sizes)
        self.leader = leader
        self.fixed_team = set(landlord_team) if landlord_team is not None else None
        self.friends = friends
        if self.fixed_team is None and friends is None:
            raise IllegalActionError("a play phase needs a landlord team or a friend tracker")
        self.kitty = list(kitty)
        self.draw_policy = draw_policy
        self.throw_policy = throw_policy
        self.kitty_policy = kitty_policy
        self.throw_penalty = throw_penalty
        self.piles = [0] * self.n
        self.penalties = [0] * self.n
        self.tricks: list[TrickRecord] = []
        self.trick: TrickState | None = None
        self.current: list[PlayRecord] = []
        self.kitty_points_awarded = 0
        self._rules: tuple[int, int, FollowRules] | None = None

    # ----------------------------------------------------------------- state
    @property
    def team(self) -> set[int]:
        """The landlord's team as it stands now."""
        if self.fixed_team is not None:
            return self.fixed_team
        assert self.friends is not None
        return self.friends.team

    def to_play(self) -> int | None:
        """The seat to play next, ``None`` when the round is over."""
        if self.is_over():
            return None
        return (self.leader + len(self.current)) % self.n

    def is_over(self) -> bool:
        """Whether every card has been played."""
        return not self.current and self.left == 0

    def is_leading(self) -> bool:
        """Whether the next play leads a trick."""
        return not self.current

    @property
    def fmt(self) -> Format | None:
        """The current trick's format (``None`` before the lead)."""
        return self.trick.fmt if self.trick is not None and self.current else None

    def follow_rules(self, seat: int) -> FollowRules:
        """The follow rules of ``seat`` for the current trick (cached)."""
        if self.trick is None or not self.current:
            raise IllegalActionError("nobody has led yet")
        key = (len(self.tricks), seat)
        if self._rules is None or self._rules[:2] != key:
            self._rules = (*key, FollowRules(self.hands[seat], self.trick.fmt, self.draw_policy))
        return self._rules[2]

    def lead_error(self, seat: int, cards: Sequence[int]) -> str | None:
        """Why ``seat`` cannot lead ``cards``, or ``None``."""
        if not cards:
            return "play at least one card"
        need = count_faces(cards)
        for f, k in need.items():
            if self.hands[seat].get(f, 0) < k:
                return f"you do not hold {k} × {card_text(f)}"
        t = table(self.trump)
        if len({t.esuit[c] for c in cards}) > 1:
            return f"a lead must lie in one suit: {format_cards(cards)} mixes suits"
        return None

    def play_error(self, seat: int, cards: Sequence[int]) -> str | None:
        """Why ``seat`` cannot play ``cards`` now, or ``None`` when it can."""
        if self.to_play() != seat:
            return "it is not your turn"
        if self.is_leading():
            return self.lead_error(seat, cards)
        return self.follow_rules(seat).error(count_faces(cards))

    # ---------------------------------------------------------------- moves
    def play(self, seat: int, cards: Sequence[int]) -> ThrowCheck | None:
        """Apply a whole play by ``seat``; a lead returns its throw check.

        Raises
        ------
        IllegalActionError
            If the play is illegal (the phase is unchanged).
        """
        err = self.play_error(seat, cards)
        if err is not None:
            raise IllegalActionError(f"P{seat} cannot play {format_cards(cards)}: {err}")
        if self.is_leading():
            return self._lead(seat, list(map(card, cards)))
        self._follow(seat, list(map(card, cards)))
        return None

    def replay(self, seat: int, cards: Sequence[int], fmt: Format | None = None) -> None:
        """Apply a play that is known to have happened, without checking it.

        A lead takes ``fmt`` as the trick format (default: its own reading).
        Used to rebuild a position from a sampled deal, where the facts of the
        table are fixed even if the sampled hands would not force them.
        """
        if self.is_leading():
            self._remove(seat, cards)
            self.trick = TrickState(
                fmt or lead_format(cards, self.trump), list(cards), self.throw_policy
            )
            self.current = [PlayRecord(seat, list(map(card, cards)))]
        else:
            self._follow(seat, list(map(card, cards)))

    def _remove(self, seat: int, cards: Iterable[int]) -> None:
        h = self.hands[seat]
        for c in cards:
            k = h[c] - 1
            if k:
                h[c] = k
            else:
                del h[c]
            self.sizes[seat] -= 1
            self.left -= 1

    def _lead(self, seat: int, cards: list[Card]) -> ThrowCheck:
        fmt = lead_format(cards, self.trump)
        others = [self.hands[(seat + k) % self.n] for k in range(1, self.n)]
        chk = check_throw(fmt, others, self.trump)
        played = chk.played
        rec = PlayRecord(seat, list(played))
        if not chk.valid:
            rec.attempted = list(cards)
            rec.blocker = (seat + 1 + (chk.blocker or 0)) % self.n
        self._remove(seat, played)
        self.trick = TrickState(chk.format, played, self.throw_policy)
        self.current = [rec]
        return chk

    def _follow(self, seat: int, cards: list[Card]) -> None:
        assert self.trick is not None
        self._remove(seat, cards)
        self.trick.add(cards)
        self.current.append(PlayRecord(seat, cards))
        if len(self.current) == self.n:
            self._finish_trick()

    def _finish_trick(self) -> None:
        assert self.trick is not None
        trick = self.trick
        winner = self.current[trick.winner].seat
        points = trick.points
        joins: list[FriendJoin] = []
        if self.friends is not None:
            joins = self.friends.resolve_trick((p.seat, p.cards) for p in self.current)
        first = self.current[0]
        if first.attempted is not None and self.throw_penalty == "ten-points":
            self.penalties[first.seat] += 10
        if self.left == 0 and self.kitty:
            mult = kitty_multiplier(trick.fmt.largest_unit, self.kitty_policy)
            self.kitty_points_awarded = card_points(self.kitty) * mult
            points += self.kitty_points_awarded
        self.piles[winner] += points
        self.tricks.append(TrickRecord(self.leader, trick.fmt, self.current, winner, points, joins))
        self.current = []
        self.trick = None
        self.leader = winner

    # ---------------------------------------------------------------- score
    def attacking_points(self) -> int:
        """Points in the piles of the seats not on the landlord's team, with throw penalties."""
        team = self.team
        pts = sum(p for s, p in enumerate(self.piles) if s not in team)
        for s, pen in enumerate(self.penalties):
            if pen:
                pts += pen if s in team else -pen
        return pts


def card_text(face: int) -> str:
    return format_cards([face])


VARIANTS = ("tractor", "zpy")

#: Action: do not bid now.
PASS = 0
#: Action: play the selected cards.
COMMIT = 1
_BID, _SELECT, _BURY, _FRIEND, _FIRST, _DRAW = 100, 1000, 2000, 3000, 4000, 5000
_WINDS = ("North", "West", "South", "East")


def bid_action(c: int, count: int) -> int:
    """Action: show ``count`` copies of card ``c`` as a bid."""
    return _BID + 10 * int(c) + count


def select_action(c: int) -> int:
    """Action: add one copy of ``c`` to the play being built."""
    return _SELECT + int(c)


def bury_action(c: int) -> int:
    """Action: bury one copy of ``c`` in the kitty."""
    return _BURY + int(c)


def friend_action(c: int, ordinal: int) -> int:
    """Action: name "the ``ordinal``-th ``c`` played" as a friend card."""
    return _FRIEND + 10 * int(c) + ordinal


def decode_action(a: int) -> tuple[str, Any]:
    """``(kind, payload)`` of an action: pass, commit, bid, select, bury, friend, first, draw."""
    if a == PASS:
        return "pass", None
    if a == COMMIT:
        return "commit", None
    if _BID <= a < _SELECT:
        f, k = divmod(a - _BID, 10)
        return "bid", (card(f), k)
    if _SELECT <= a < _SELECT + NUM_FACES:
        return "select", card(a - _SELECT)
    if _BURY <= a < _BURY + NUM_FACES:
        return "bury", card(a - _BURY)
    if _FRIEND <= a < _FIRST:
        f, k = divmod(a - _FRIEND, 10)
        return "friend", FriendSlot(card(f), k)
    if _FIRST <= a < _DRAW:
        return "first", a - _FIRST
    if _DRAW <= a < _DRAW + NUM_FACES:
        return "draw", card(a - _DRAW)
    raise IllegalActionError(f"{a} is not a shengji action")


def seat_name(seat: int, players: int) -> str:
    """``North``/``West``/``South``/``East`` at a 4-seat table, else ``P0``, ``P1``, …"""
    return _WINDS[seat] if players == 4 else f"P{seat}"


@dataclass(frozen=True)
class ShengjiParams:
    """Every parameter of the engine; ``None`` takes the variant's default.

    Rule switches (reference names in brackets): ``bid_policy`` [BidPolicy],
    ``joker_bid_policy`` [JokerBidPolicy], ``reinforcement``
    [BidReinforcementPolicy], ``first_landlord`` [FirstLandlordSelectionPolicy:
    ``winning-bid``/``first-bid``], ``draw_policy`` [TrickDrawPolicy],
    ``throw_policy`` [ThrowEvaluationPolicy], ``throw_penalty`` [ThrowPenalty:
    ``none``/``ten-points``], ``kitty_policy`` [KittyPenalty: ``times``/``power``,
    or ``double``], ``friend_policy`` [FriendSelectionPolicy], ``double_join``
    [MultipleJoinPolicy], ``advancement`` [AdvancementPolicy], ``max_rank``,
    ``bonus_level`` [BonusLevelPolicy], the level-table steps
    [GameScoringParameters], ``max_delta`` (cap on level changes) and
    ``hide_blocker`` [hide_throw_halting_player].
    """

    variant: str = "tractor"
    players: int | None = None
    decks: int | None = None
    kitty: int | None = None
    friends: int | None = None
    rounds: int = 1
    start_rank: str = "2"
    bid_policy: str | None = None
    joker_bid_policy: str = "both-two-or-more"
    reinforcement: str = "reinforce-while-winning"
    first_landlord: str | None = None
    draw_policy: str = "no-protections"
    throw_policy: str = "all"
    throw_penalty: str = "none"
    kitty_policy: str | None = None
    friend_policy: str = "unrestricted"
    double_join: str = "unrestricted"
    advancement: str = "unrestricted"
    max_rank: str | None = None
    bonus_level: bool | None = None
    step_per_deck: int = 20
    turnover_steps: int = 2
    deadzone_steps: int = 1
    truncate_zero: bool = True
    max_delta: int | None = None
    hide_blocker: bool = False


@dataclass(frozen=True)
class Rules:
    """The resolved rules of a game (every default filled in)."""

    variant: str
    players: int
    decks: int
    kitty: int
    hand_size: int
    friends: int
    fixed_teams: bool
    rounds: int
    start_rank: int
    bid_policy: str
    joker_bid_policy: str
    reinforcement: str
    first_landlord: str
    draw_policy: str
    throw_policy: str
    throw_penalty: str
    kitty_policy: str
    friend_policy: str
    double_join: str
    advancement: str
    max_rank: int
    bonus_level: bool
    step_per_deck: int
    turnover_steps: int
    deadzone_steps: int
    truncate_zero: bool
    max_delta: int | None
    hide_blocker: bool


def _choice(name: str, value: str, known: Sequence[str]) -> str:
    if value not in known:
        raise InvalidParameterError(f"unknown {name} {value!r}; known: {', '.join(known)}")
    return value


def resolve_rules(p: ShengjiParams) -> Rules:
    """Fill in the variant defaults and validate every parameter."""
    _choice("variant", p.variant, VARIANTS)
    tractor = p.variant == "tractor"
    players = p.players if p.players is not None else (4 if tractor else 6)
    if tractor and players != 4:
        raise InvalidParameterError("variant tractor is played by exactly 4 players")
    if not 4 <= players <= 10:
        raise InvalidParameterError(f"zpy needs 4 to 10 players, got {players}")
    decks = p.decks if p.decks is not None else (2 if tractor else players // 2)
    if decks < 1 or decks > 9:
        raise InvalidParameterError(f"decks must be 1..9, got {decks}")
    kitty = p.kitty if p.kitty is not None else kitty_size(players, decks)
    if kitty < 0 or (54 * decks - kitty) % players or 54 * decks - kitty < players:
        raise InvalidParameterError(
            f"a kitty of {kitty} leaves {54 * decks - kitty} cards, not a multiple of {players} players"
        )
    friends = 0 if tractor else (p.friends if p.friends is not None else players // 2 - 1)
    if friends < 0 or friends >= players:
        raise InvalidParameterError(f"friends must be 0..{players - 1}, got {friends}")
    if p.rounds < 1:
        raise InvalidParameterError(f"rounds must be at least 1, got {p.rounds}")
    max_rank = rank_index(p.max_rank if p.max_rank is not None else ("A" if tractor else "NT"))
    start = rank_index(p.start_rank)
    if start > max_rank:
        raise InvalidParameterError("start_rank is above max_rank")
    return Rules(
        variant=p.variant,
        players=players,
        decks=decks,
        kitty=kitty,
        hand_size=(54 * decks - kitty) // players,
        friends=friends,
        fixed_teams=tractor,
        rounds=p.rounds,
        start_rank=start,
        bid_policy=_choice(
            "bid policy",
            p.bid_policy or ("weak-strong" if tractor else "joker-or-greater-length"),
            BID_POLICIES,
        ),
        joker_bid_policy=_choice("joker bid policy", p.joker_bid_policy, JOKER_BID_POLICIES),
        reinforcement=_choice("reinforcement policy", p.reinforcement, REINFORCEMENT_POLICIES),
        first_landlord=_choice(
            "first landlord policy",
            p.first_landlord or ("first-bid" if tractor else "winning-bid"),
            ("winning-bid", "first-bid"),
        ),
        draw_policy=_choice("draw policy", p.draw_policy, DRAW_POLICIES),
        throw_policy=_choice("throw policy", p.throw_policy, THROW_EVALUATION_POLICIES),
        throw_penalty=_choice("throw penalty", p.throw_penalty, ("none", "ten-points")),
        kitty_policy=_choice(
            "kitty policy", p.kitty_policy or ("double" if tractor else "times"), KITTY_POLICIES
        ),
        friend_policy=_choice("friend policy", p.friend_policy, FRIEND_POLICIES),
        double_join=_choice("double-join policy", p.double_join, DOUBLE_JOIN_POLICIES),
        advancement=_choice("advancement policy", p.advancement, ADVANCEMENT_POLICIES),
        max_rank=max_rank,
        bonus_level=(not tractor) if p.bonus_level is None else bool(p.bonus_level),
        step_per_deck=p.step_per_deck,
        turnover_steps=p.turnover_steps,
        deadzone_steps=p.deadzone_steps,
        truncate_zero=p.truncate_zero,
        max_delta=p.max_delta if p.max_delta is not None else (3 if tractor else None),
        hide_blocker=p.hide_blocker,
    )


class ShengjiGame(Game):
    """A Shengji (``tractor``) or ZPY (``zpy``) match with fixed parameters."""

    name = "shengji"
    #: The parameter class (a variant built on this engine extends it).
    params_type: type[ShengjiParams] = ShengjiParams

    def __init__(self, params: ShengjiParams | None = None, **kwargs: Any):
        params = self._with(params, kwargs)
        super().__init__(params)
        self.rules = resolve_rules(params)

    @classmethod
    def _with(cls, params: ShengjiParams | None, kwargs: dict[str, Any]) -> Any:
        """``params`` (default: the parameter class's defaults) with ``kwargs`` applied.

        Raises
        ------
        InvalidParameterError
            For a keyword that is not a parameter (naming it and the known ones).
        """
        params = params or cls.params_type()
        if kwargs:
            known = {f.name for f in fields(cls.params_type)}
            bad = sorted(set(kwargs) - known)
            if bad:
                raise InvalidParameterError(
                    f"unknown {cls.name} parameter {bad[0]!r}; known: {', '.join(sorted(known))}"
                )
            params = replace(params, **kwargs)
        return params

    def num_players(self) -> int:
        return self.rules.players

    def new_initial_state(self) -> ShengjiState:
        return ShengjiState(self)

    def seat_name(self, seat: int) -> str:
        """Readable name of a seat."""
        return seat_name(seat, self.rules.players)


class ShengjiState(State):
    """A state of a Shengji/ZPY match (see the module docstring for the phases)."""

    game: ShengjiGame

    def __init__(self, game: ShengjiGame):
        super().__init__(game)
        r = game.rules
        self.rules = r
        self.n = r.players
        self.ranks = [r.start_rank] * self.n
        self.metalevels = [0] * self.n
        self.round_no = 0
        self.landlord: int | None = None
        self.results: list[dict[str, Any]] = []
        self.phase = "start"
        self._start_round()

    # ------------------------------------------------------------ round setup
    def _start_round(self) -> None:
        r = self.rules
        self.deck = [r.decks] * NUM_FACES
        self.deck_left = r.decks * NUM_FACES
        self._outcomes: list[tuple[int, float]] | None = None
        self.drawn = 0
        self.hands: list[dict[int, int]] = [{} for _ in range(self.n)]
        self.kitty_cards: list[Card] = []
        self.bids: list[Bid] = []
        self.bidder: int | None = None
        self.bid_queue: list[int] = []
        self._can_bid: dict[int, bool] = {}
        self.drawn_by = [0] * self.n
        self.trump: Trump | None = None
        self.buried: list[Card] = []
        self.slots: list[FriendSlot] = []
        self.play: PlayPhase | None = None
        self.selection: dict[int, int] = {}
        self.round_landlord: int | None = self.landlord
        if self.landlord is None:
            self.phase = "start"
            self.first_drawer = 0
        else:
            self.first_drawer = self.landlord
            self.phase = "deal"

    # --------------------------------------------------------------- helpers
    def seat_name(self, seat: int) -> str:
        """Readable name of a seat."""
        return seat_name(seat, self.n)

    def _card_history(self) -> Any:
        """This round for :mod:`games.epistemic` (see
        :func:`games.shengji.knowledge.card_history`)."""
        from games.shengji.knowledge import card_history

        return card_history(self)

    def seat_view(self, seat: int) -> list[tuple[str, str]]:
        """The table as ``seat`` sees it (see :func:`games.shengji.knowledge.seat_view_rows`)."""
        from games.shengji.knowledge import seat_view_rows

        return seat_view_rows(self, seat)

    def bid_rank(self, seat: int) -> int:
        """The rank whose cards ``seat`` may show now."""
        who = self.round_landlord if self.round_landlord is not None else seat
        return self.ranks[who]

    def call_news(self, seat: int) -> tuple[int, int, bool]:
        """What a call offer to ``seat`` depends on: its cards drawn, the bids made, and
        whether the deal is complete.

        The engine offers a call after every draw; a table can ask a human again only
        when this changes (nothing else the seat observes bears on its call).

        Examples
        --------
        >>> from games.base import load_game
        >>> s = load_game("shengji").new_initial_state()
        >>> s.call_news(0)
        (0, 0, False)
        """
        return (self.drawn_by[seat], len(self.bids), self.deck_left == 0)

    def valid_bids(self, seat: int) -> list[Bid]:
        """The bids ``seat`` may make now."""
        if self.round_landlord is not None and self.ranks[self.round_landlord] == NT:
            return []
        r = self.rules
        return valid_bids(
            seat,
            self.hands[seat],
            self.bids,
            self.bid_rank(seat),
            r.decks,
            r.bid_policy,
            r.joker_bid_policy,
            r.reinforcement,
        )

    def hand(self, seat: int) -> list[Card]:
        """``seat``'s current cards (cards selected for a play in progress included;
        cards already buried excluded)."""
        h = self.play.hands[seat] if self.play is not None else self.hands[seat]
        return [card(f) for f in sorted(h) for _ in range(h[f])]

    def landlord_team(self) -> set[int]:
        """The landlord's side as it stands now (empty before a landlord exists)."""
        if self.play is not None:
            return set(self.play.team)
        if self.round_landlord is None:
            return set()
        if self.rules.fixed_teams:
            return {self.round_landlord, (self.round_landlord + 2) % self.n}
        return {self.round_landlord}

    # -------------------------------------------------------------- OpenSpiel
    def _current_player(self) -> int:
        ph = self.phase
        if ph in ("start", "deal"):
            return CHANCE
        if ph == "bid":
            assert self.bidder is not None
            return self.bidder
        if ph in ("bury", "friend"):
            assert self.round_landlord is not None
            return self.round_landlord
        if ph == "play":
            assert self.play is not None
            seat = self.play.to_play()
            assert seat is not None
            return seat
        return TERMINAL

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == "start":
            return [(_FIRST + s, 1.0 / self.n) for s in range(self.n)]
        if self.phase == "deal":
            if self._outcomes is None:
                left = self.deck_left
                self._outcomes = [(_DRAW + f, k / left) for f, k in enumerate(self.deck) if k]
            return self._outcomes
        raise IllegalActionError("not a chance node")

    def _legal_actions(self, player: int) -> list[int]:
        ph = self.phase
        if ph == "bid":
            return [PASS] + [bid_action(b.card, b.count) for b in self.valid_bids(player)]
        if ph == "bury":
            return [_BURY + f for f in self.hands[player]]
        if ph == "friend":
            return self._friend_actions()
        if ph == "play":
            return self._play_actions(player)
        return []

    def _friend_actions(self) -> list[int]:
        assert self.trump is not None
        taken = {(s.card, s.ordinal) for s in self.slots}
        return [
            friend_action(c, k)
            for c in allowed_friend_cards(self.trump, self.rules.friend_policy)
            for k in range(1, self.rules.decks + 1)
            if (c, k) not in taken
        ]

    def _play_actions(self, seat: int) -> list[int]:
        play = self.play
        assert play is not None and self.trump is not None
        hand = play.hands[seat]
        sel = self.selection
        out = []
        if play.is_leading():
            esuit = table_esuit(self.trump)
            suit = next((esuit[f] for f in sel), None)
            for f, k in hand.items():
                if k > sel.get(f, 0) and (suit is None or esuit[f] == suit):
                    out.append(_SELECT + f)
            if sel:
                out.append(COMMIT)
            return out
        rules = play.follow_rules(seat)
        if sum(sel.values()) == rules.n:
            return [COMMIT]
        return [_SELECT + f for f in rules.next_faces(sel)]

    def _is_legal(self, player: int, action: int) -> bool:
        ph = self.phase
        if ph == "play":
            play = self.play
            assert play is not None and self.trump is not None
            if action == COMMIT:
                if not self.selection:
                    return False
                if play.is_leading():
                    return True
                return play.follow_rules(player).is_legal(self.selection)
            f = action - _SELECT
            if not 0 <= f < NUM_FACES or play.hands[player].get(f, 0) <= self.selection.get(f, 0):
                return False
            sel = dict(self.selection)
            sel[f] = sel.get(f, 0) + 1
            if play.is_leading():
                esuit = table_esuit(self.trump)
                return len({esuit[x] for x in sel}) == 1
            return play.follow_rules(player).can_extend(sel)
        if ph == "bury":
            f = action - _BURY
            return 0 <= f < NUM_FACES and self.hands[player].get(f, 0) > 0
        return action in self._legal_actions(player)

    def _illegal_reason(self, player: int, action: int) -> str:
        try:
            kind, payload = decode_action(action)
        except IllegalActionError as exc:
            return str(exc)
        ph = self.phase
        if ph == "bid":
            if kind != "bid":
                return "during the deal you may only bid or pass"
            return "that bid is not available (you must hold the cards and beat the current bid)"
        if ph == "bury":
            return (
                f"you must bury cards from your hand; you hold no {payload}"
                if kind == "bury"
                else "bury a card"
            )
        if ph == "friend":
            return "name an allowed friend card (no trumps) with an ordinal 1..decks"
        if ph == "play":
            play = self.play
            assert play is not None
            if kind == "commit":
                if not self.selection:
                    return "select at least one card first"
                err = play.play_error(player, _expand(self.selection))
                return err or "the play is incomplete"
            if kind != "select":
                return "select cards to play, then commit"
            sel = dict(self.selection)
            sel[payload] = sel.get(payload, 0) + 1
            err = (
                play.play_error(player, _expand(sel))
                if not play.is_leading()
                else play.lead_error(player, _expand(sel))
            )
            if err:
                return err
            return "those cards cannot complete a legal play"
        return "it is not one of the legal actions"

    def _action_to_string(self, player: int, action: int) -> str:
        kind, payload = decode_action(action)
        if kind == "bid":
            c, k = payload
            return f"bid {k}x{c}"
        if kind == "friend":
            return f"friend {payload}"
        if kind == "first":
            return f"first {self.seat_name(payload)}"
        if kind in ("select", "bury", "draw"):
            return f"{kind} {payload}"
        return "pass" if kind == "pass" else "play"

    def _returns(self) -> list[float]:
        r0 = self.rules.start_rank
        return [float(14 * m + r - r0) for m, r in zip(self.metalevels, self.ranks, strict=True)]

    # ---------------------------------------------------------------- moves
    def _apply_action(self, action: int) -> None:
        ph = self.phase
        if ph == "start":
            self.first_drawer = action - _FIRST
            self._observe("first", None, start=self.first_drawer)
            self.phase = "deal"
        elif ph == "deal":
            self._deal_card(action - _DRAW)
        elif ph == "bid":
            self._bid(self.bidder, action)  # type: ignore[arg-type]
        elif ph == "bury":
            self._bury(action - _BURY)
        elif ph == "friend":
            _, slot = decode_action(action)
            self._declare_friend(slot)
        elif ph == "play":
            if action == COMMIT:
                self._commit_play(self._current_player())
            else:
                f = action - _SELECT
                self.selection[f] = self.selection.get(f, 0) + 1
                seat = self._current_player()
                self._observe("select", seat, audience=(seat,), card=card(f))
        else:
            raise IllegalActionError("the game is over")

    # deal and bidding -------------------------------------------------
    def _deal_card(self, f: int) -> None:
        r = self.rules
        self.deck[f] -= 1
        self.deck_left -= 1
        self._outcomes = None
        i = self.drawn
        self.drawn += 1
        c = card(f)
        if i < r.hand_size * self.n:
            seat = (self.first_drawer + i) % self.n
            h = self.hands[seat]
            h[f] = h.get(f, 0) + 1
            self.drawn_by[seat] += 1
            self._can_bid.pop(seat, None)
            self._observe("draw", seat, audience=(seat,), hidden={"card": c})
            if i + 1 < r.hand_size * self.n:
                # a call may be made at any time: every seat is offered one after this draw
                # (the last hand card is followed by the last chance after the whole deal)
                self.bid_queue = [(seat + k) % self.n for k in range(self.n)]
                self._next_bidder()
                return
        else:
            self.kitty_cards.append(c)
        if self.deck_left == 0:
            self._observe("dealt", None, kitty=len(self.kitty_cards))
            self.bid_queue = [(self.first_drawer + k) % self.n for k in range(self.n)]
            self._next_bidder()

    def _may_bid(self, seat: int) -> bool:
        """Whether ``seat`` can make any bid now (remembered until its hand or the bids change)."""
        got = self._can_bid.get(seat)
        if got is None:
            got = self._can_bid[seat] = self._test_bids(seat)
        return got

    def _test_bids(self, seat: int) -> bool:
        h = self.hands[seat]
        rank = self.bid_rank(seat)
        most = max(h.get(SMALL_JOKER, 0), h.get(SMALL_JOKER + 1, 0))
        if rank != NT:
            most = max(most, *(h.get(13 * s + rank, 0) for s in range(4)))
        if not most:
            return False
        if self.bids:
            # no policy lets fewer cards overcall (or reinforce); nothing follows a strong call
            if most < self.bids[-1].count:
                return False
            if self.rules.bid_policy == "weak-strong" and any(b.count >= 2 for b in self.bids):
                return False
        return bool(self.valid_bids(seat))

    def _bid(self, seat: int, action: int) -> None:
        if action != PASS:
            c, k = decode_action(action)[1]
            self.bids.append(Bid(seat, c, k))
            self._can_bid.clear()
            self._observe("bid", seat, card=c, count=k)
            # the others may overcall at once, in turn after the bidder
            self.bid_queue = [(seat + k) % self.n for k in range(1, self.n)]
        self.bidder = None
        self._next_bidder()

    def _next_bidder(self) -> None:
        """Offer a call to the next seat of the queue that can make one; when none is
        left, go on dealing (or, after the deal, settle the trump)."""
        while self.bid_queue:
            seat = self.bid_queue.pop(0)
            if self._may_bid(seat):
                self.bidder = seat
                self.phase = "bid"
                return
        if self.deck_left > 0:
            self.phase = "deal"
            return
        self._resolve_trump()

    def _resolve_trump(self) -> None:
        r = self.rules
        if self.bids:
            win = self.bids[-1]
            if self.round_landlord is None:
                first = self.bids[0]
                self.round_landlord = win.seat if r.first_landlord == "winning-bid" else first.seat
                self.landlord = self.round_landlord
            rank = self.ranks[self.round_landlord]
            self.trump = bid_trump(win, rank) if rank != NT else Trump(NT, None)
        elif self.round_landlord is None:
            self._observe("redeal", None)
            self._start_round()
            self.phase = "deal"
            return
        else:
            rank = self.ranks[self.round_landlord]
            if rank == NT:
                self.trump = Trump(NT, None)
            else:
                top = self.kitty_cards[0]
                self._observe("kitty_reveal", None, card=top)
                self.trump = Trump(rank, None if top >= SMALL_JOKER else top // 13)
        ll = self.round_landlord
        assert ll is not None
        self._observe("trump", ll, rank=rank_name(self.trump.rank), suit=_suit_text(self.trump))
        h = self.hands[ll]
        for c in self.kitty_cards:
            h[c] = h.get(c, 0) + 1
        self._observe("kitty", ll, audience=(ll,), hidden={"cards": tuple(self.kitty_cards)})
        self.phase = "bury"

    # exchange and friends --------------------------------------------
    def _bury(self, f: int) -> None:
        ll = self.round_landlord
        assert ll is not None
        h = self.hands[ll]
        h[f] -= 1
        if not h[f]:
            del h[f]
        self.buried.append(card(f))
        if len(self.buried) == self.rules.kitty:
            self._observe(
                "bury",
                ll,
                audience=(ll,),
                hidden={"cards": tuple(sorted(self.buried))},
                count=len(self.buried),
            )
            if self.rules.friends:
                self.phase = "friend"
            else:
                self._start_play()

    def _declare_friend(self, slot: FriendSlot) -> None:
        self.slots.append(slot)
        if len(self.slots) == self.rules.friends:
            self._observe(
                "friends",
                self.round_landlord,
                slots=tuple((s.card, s.ordinal) for s in self.slots),
            )
            self._start_play()

    def _start_play(self) -> None:
        r = self.rules
        ll = self.round_landlord
        assert ll is not None and self.trump is not None
        hands = [_expand(h) for h in self.hands]
        if r.fixed_teams:
            team: set[int] | None = {ll, (ll + 2) % self.n}
            tracker = None
        else:
            team = None
            tracker = FriendTracker(self.slots, ll, r.double_join)
        self.play = PlayPhase(
            self.trump,
            hands,
            leader=ll,
            landlord_team=team,
            friends=tracker,
            kitty=self.buried,
            draw_policy=r.draw_policy,
            throw_policy=r.throw_policy,
            kitty_policy=r.kitty_policy,
            throw_penalty=r.throw_penalty,
        )
        self.phase = "play"

    # tricks ------------------------------------------------------------
    def _commit_play(self, seat: int) -> None:
        play = self.play
        assert play is not None
        cards = _expand(self.selection)
        self.selection = {}
        leading = play.is_leading()
        n_tricks = len(play.tricks)
        chk = play.play(seat, cards)
        if leading and chk is not None and not chk.valid:
            rec = play.current[0] if play.current else play.tricks[-1].plays[0]
            blocker = rec.blocker
            self._observe(
                "throw_failed",
                seat,
                attempted=tuple(sorted(cards)),
                blocker=None if self.rules.hide_blocker else blocker,
                forced=tuple(chk.played),
                unit=chk.forced.describe() if chk.forced else "",
            )
            cards = list(chk.played)
        self._observe("play", seat, cards=tuple(sorted(cards)), lead=leading)
        if len(play.tricks) > n_tricks:
            t = play.tricks[-1]
            self._observe("trick", t.winner, points=t.points)
            for j in t.joins:
                self._observe("join", j.seat, slot=j.slot, already=j.already_on_team)
            if play.is_over():
                self._end_round()

    def _end_round(self) -> None:
        r = self.rules
        play = self.play
        ll = self.round_landlord
        assert play is not None and ll is not None and self.trump is not None
        team = set(play.team)
        pts = play.attacking_points()
        smaller = (not r.fixed_teams) and len(team) < 1 + r.friends
        res: LevelChange = level_change(
            pts,
            r.decks,
            step_per_deck=r.step_per_deck,
            turnover_steps=r.turnover_steps,
            deadzone_steps=r.deadzone_steps,
            truncate_zero=r.truncate_zero,
            smaller_team=smaller,
            bonus_level=r.bonus_level,
            max_delta=r.max_delta,
        )
        before = self._advance_ranks(ll, team, res.landlord_delta, res.attacker_delta)
        nxt = next_landlord(ll, team, res.landlord_won, self.n)
        self._observe(
            "round_end",
            None,
            kitty=tuple(sorted(self.buried)),
            kitty_points=play.kitty_points_awarded,
            attacking_points=pts,
            team=tuple(sorted(team)),
            landlord_won=res.landlord_won,
            result=res.describe(),
            ranks=tuple(rank_name(x) for x in self.ranks),
            next_landlord=nxt,
        )
        self._close_round(ll, team, before, nxt, attacking_points=pts, result=res)

    def _advance_ranks(
        self, landlord: int, team: set[int], landlord_steps: int, attacker_steps: int
    ) -> list[int]:
        """Move every seat's rank after a round (the landlord's team by
        ``landlord_steps``, the others by ``attacker_steps``); the ranks before."""
        r = self.rules
        ll_rank = self.ranks[landlord]
        before = list(self.ranks)
        for s in range(self.n):
            defending = s in team
            steps = landlord_steps if defending else attacker_steps
            new, wraps, _blocked = advance_rank(
                self.ranks[s], steps, defending, ll_rank, r.advancement, r.max_rank
            )
            self.ranks[s] = new
            self.metalevels[s] += wraps
        return before

    def _close_round(
        self, landlord: int, team: set[int], before: list[int], nxt: int, **scores: Any
    ) -> None:
        """Record the round's result (``scores`` as the game reports them) and start the next."""
        self.results.append(
            {
                "round": self.round_no,
                "landlord": landlord,
                "trump": str(self.trump),
                "team": sorted(team),
                **scores,
                "ranks_before": [rank_name(x) for x in before],
                "ranks_after": [rank_name(x) for x in self.ranks],
                "next_landlord": nxt,
            }
        )
        self.landlord = nxt
        self.round_no += 1
        if self.round_no >= self.rules.rounds:
            self.phase = "over"
        else:
            self._start_round()

    # ------------------------------------------------------ whole-move helpers
    def play_error(self, seat: int, cards: Sequence[int] | str) -> str | None:
        """Why ``seat`` cannot play ``cards`` now (a whole play), or ``None``."""
        if self.phase != "play" or self.play is None:
            return "no trick is being played now"
        cs = parse_cards(cards) if isinstance(cards, str) else [card(c) for c in cards]
        if self.selection:
            return "a play is already being built"
        return self.play.play_error(seat, cs)

    def play_cards(self, seat: int, cards: Sequence[int] | str) -> None:
        """Play a whole set of cards (select each, then commit); nothing changes if illegal.

        Raises
        ------
        IllegalActionError
            Naming the reason, e.g. ``must follow hearts: you hold 3 hearts``.
        """
        cs = parse_cards(cards) if isinstance(cards, str) else [card(c) for c in cards]
        err = self.play_error(seat, cs)
        if err is not None:
            raise IllegalActionError(
                f"{self.seat_name(seat)} cannot play {format_cards(cs)}: {err}"
            )
        for c in cs:
            self.apply_action(select_action(c))
        self.apply_action(COMMIT)

    def bury_cards(self, seat: int, cards: Sequence[int] | str) -> None:
        """Bury exactly the kitty's number of cards at once; nothing changes if illegal."""
        cs = parse_cards(cards) if isinstance(cards, str) else [card(c) for c in cards]
        if self.phase != "bury" or seat != self.round_landlord:
            raise IllegalActionError(f"{self.seat_name(seat)} cannot bury now")
        if len(cs) != self.rules.kitty - len(self.buried):
            raise IllegalActionError(
                f"bury exactly {self.rules.kitty - len(self.buried)} cards, not {len(cs)}"
            )
        need = count_faces(cs)
        for f, k in need.items():
            if self.hands[seat].get(f, 0) < k:
                raise IllegalActionError(f"you do not hold {k} × {card(f)}")
        for c in cs:
            self.apply_action(bury_action(c))

    def points_so_far(self) -> int:
        """Attacking points won so far this round (0 before the tricks)."""
        return self.play.attacking_points() if self.play is not None else 0


def _expand(counts: dict[int, int]) -> list[Card]:
    return [card(f) for f in sorted(counts) for _ in range(counts[f])]


def _suit_text(trump: Trump) -> str:
    return "none" if trump.suit is None else SUIT_LABELS[trump.suit]


def table_esuit(trump: Trump) -> list[int]:
    """Effective suit of every face under ``trump``."""
    return table(trump).esuit
