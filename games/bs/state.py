"""The BS engine: one game, variants ``classic`` and ``koth`` (rules: :mod:`games.bs`).

Actions are small ints: ``PASS`` (0) and ``CALL`` (1) at a call decision, and
``play_action(cards)`` for a play, the cards encoded in mixed radix.  Chance
nodes choose the seat order, each dealt card, the caller among several
(koth) and the caller's penalty card (koth).

Every event is an :class:`~games.base.Observation` with its exact audience:
the order, the hand sizes and each seat's own hand, each play's player,
required rank and count (the cards only to the player), who called and who
was chosen, the revealed cards, who took the pile (the cards only to the
taker), the penalty card (only to the caller) and the end.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from games.base import (
    CHANCE,
    TERMINAL,
    Game,
    LazyActions,
    State,
)
from games.bs.rules import _KOTH_ORDERS, _PLAY0, CALL, PASS, VARIANTS, BSParams
from games.cards import STANDARD_RANKS, CardsLike, Deck
from games.errors import CardParseError, IllegalActionError, InvalidParameterError

__all__ = ["BSGame", "BSState", "make_game"]


def _make_game(
    variant: str | None = None, players: int | None = None, max_rounds: int = 1000
) -> BSGame:
    variant = variant or "classic"
    if variant not in VARIANTS:
        raise InvalidParameterError(
            f"unknown BS variant {variant!r}; variants: {', '.join(VARIANTS)}"
        )
    if players is None:
        players = 4
    if not isinstance(players, int) or isinstance(players, bool):
        raise InvalidParameterError(f"players must be an int, got {players!r}")
    if variant == "koth" and players != 4:
        raise InvalidParameterError(
            f"the koth variant is played by exactly 4 players, not {players}"
        )
    if not 2 <= players <= 52:
        raise InvalidParameterError(f"classic BS needs 2 to 52 players, not {players}")
    if not isinstance(max_rounds, int) or isinstance(max_rounds, bool) or max_rounds < 1:
        raise InvalidParameterError(f"max_rounds must be a positive int, got {max_rounds!r}")
    return BSGame(BSParams(variant, players, max_rounds))


class BSGame(Game):
    """BS with fixed parameters; also encodes and decodes plays.

    Examples
    --------
    >>> g = BSGame(BSParams("classic"))
    >>> a = g.play_action("7H 7S")
    >>> g.cards_of(a)
    ('7H', '7S')
    >>> g.action_text(a), g.action_text(PASS), g.action_text(CALL)
    ('play 7H 7S', 'pass', 'call BS')
    """

    name = "bs"

    def __init__(self, params: BSParams):
        super().__init__(params)
        self.params: BSParams = params
        if params.variant == "koth":
            self.deck = Deck.ranks(13, copies=4)
            self.rank_labels: tuple[str, ...] = tuple(str(i) for i in range(13))
            self.rank_of = tuple(range(13))
        else:
            self.deck = Deck.standard()
            self.rank_labels = STANDARD_RANKS
            self.rank_of = tuple(k % 13 for k in range(52))
        self.koth = params.variant == "koth"
        self.num_kinds = len(self.deck)
        self.radix = max(self.deck.copies) + 1
        self.powers = tuple(self.radix**k for k in range(self.num_kinds))
        #: ``name_runs[k][c]``: kind ``k``'s name repeated ``c`` times.
        self.name_runs = tuple(tuple((n,) * c for c in range(self.radix)) for n in self.deck.names)
        self.kinds_of_rank = tuple(
            tuple(k for k in range(self.num_kinds) if self.rank_of[k] == r) for r in range(13)
        )

    def num_players(self) -> int:
        return self.params.players

    def new_initial_state(self) -> BSState:
        return BSState(self)

    # ------------------------------------------------------------ encoding
    def encode(self, counts: Sequence[int]) -> int:
        """The play action of a count vector over card kinds."""
        code = 0
        for k, c in enumerate(counts):
            if c:
                code += c * self.powers[k]
        return code + _PLAY0

    def decode(self, action: int) -> list[int]:
        """Count vector over card kinds of a play action."""
        code = action - _PLAY0
        r = self.radix
        if not 0 < code < r**self.num_kinds:
            raise IllegalActionError(f"action {action} is not a play of this deck")
        out = [0] * self.num_kinds
        k = 0
        while code:
            code, out[k] = divmod(code, r)
            k += 1
        return out

    def play_action(self, cards: CardsLike) -> int:
        """The action that plays ``cards`` (text such as ``"7H 7S"`` or a list).

        Raises
        ------
        CardParseError
            Naming the bad card.
        """
        counts = [0] * self.num_kinds
        for k in self.deck.kinds(cards):
            counts[k] += 1
        if not any(counts):
            raise IllegalActionError("a play needs at least one card")
        for k, c in enumerate(counts):
            if c >= self.radix:
                raise CardParseError(
                    f"{self.deck.name(k)} appears {c} times; the deck has {self.radix - 1}"
                )
        return self.encode(counts)

    def cards_of(self, action: int) -> tuple[str, ...]:
        """Card texts of a play action."""
        counts = self.decode(action)
        return tuple(self.deck.name(k) for k, c in enumerate(counts) for _ in range(c))

    def action_text(self, action: int) -> str:
        """Readable form of a decision action (not a chance outcome)."""
        if action == PASS:
            return "pass"
        if action == CALL:
            return "call BS"
        return "play " + " ".join(self.cards_of(action))

    def rank_text(self, rank: int, count: int = 1) -> str:
        """``"two 7s"``-style claim text."""
        words = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight")
        lab = self.rank_labels[rank]
        num = words[count] if count < len(words) else str(count)
        plural = lab + ("s" if count != 1 else "")
        return f"{num} {plural}"


class _PlayActions(LazyActions):
    """Every non-empty sub-multiset of a hand, as sorted play actions."""

    __slots__ = ("_game", "_kinds", "_bases", "_len")

    def __init__(self, game: BSGame, hand: Sequence[int]):
        self._game = game
        self._kinds = [k for k, c in enumerate(hand) if c]
        self._bases = [hand[k] + 1 for k in self._kinds]
        n = 1
        for b in self._bases:
            n *= b
        self._len = n - 1

    def __len__(self) -> int:
        return self._len

    def _code(self, j: int) -> int:
        code = 0
        pw = self._game.powers
        for k, b in zip(self._kinds, self._bases, strict=True):
            j, d = divmod(j, b)
            if d:
                code += d * pw[k]
        return code + _PLAY0

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self._code(j + 1) for j in range(*i.indices(self._len))]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError(i)
        return self._code(i + 1)

    def __iter__(self) -> Iterator[int]:
        for j in range(1, self._len + 1):
            yield self._code(j)

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, int) or action < _PLAY0:
            return False
        try:
            counts = self._game.decode(action)
        except IllegalActionError:
            return False
        hand = dict(zip(self._kinds, (b - 1 for b in self._bases), strict=True))
        return all(c <= hand.get(k, 0) for k, c in enumerate(counts) if c)

    def __repr__(self) -> str:
        return f"<{self._len} plays>"


class _CallActions(LazyActions):
    """The two actions of a call decision: ``PASS`` and ``CALL``."""

    __slots__ = ()

    def __len__(self) -> int:
        return 2

    def __getitem__(self, i: Any) -> Any:
        return (PASS, CALL)[i]

    def __contains__(self, action: object) -> bool:
        return action in (PASS, CALL)

    def __iter__(self) -> Iterator[int]:
        return iter((PASS, CALL))

    def __repr__(self) -> str:
        return "[0, 1]"


_CALL_ACTIONS = _CallActions()


class BSState(State):
    """A BS game in progress (OpenSpiel-style API; see :class:`games.base.State`)."""

    def __init__(self, game: BSGame):
        super().__init__(game)
        self.g = game
        n = game.num_players()
        K = game.num_kinds
        self._n = n
        self._phase = "order"
        self._order: list[int] = list(range(n))
        self._pos = 0
        self._hands = [[0] * K for _ in range(n)]
        self._sizes = [0] * n
        self._undealt = list(game.deck.copies)
        self._dealt = 0
        self._pile = [0] * K
        self._pile_n = 0
        self._play: list[int] = [0] * K
        self._play_n = 0
        self._player = -1
        self._required = 0
        self._plays = 0
        self._queue: list[int] = []
        self._callers: list[int] = []
        self._caller = -1
        self._winner = -1
        self._cap = game.params.max_rounds * n
        self._decoded: tuple[int, list[int]] | None = None
        self._play_names: tuple[str, ...] = ()

    # ------------------------------------------------------------ accessors
    @property
    def hands(self) -> list[tuple[str, ...]]:
        """Every seat's cards (the true state; bots never see this)."""
        d = self.g.deck
        return [tuple(d.name(k) for k, c in enumerate(h) for _ in range(c)) for h in self._hands]

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(self._sizes)

    @property
    def pile_size(self) -> int:
        """Cards in the pile, the play waiting for calls included."""
        return self._pile_n + self._play_n

    @property
    def required_rank(self) -> int:
        """Index of the rank the next (or current) play must claim."""
        return self._required

    @property
    def order(self) -> tuple[int, ...]:
        return tuple(self._order)

    @property
    def winner(self) -> int | None:
        return self._winner if self._winner >= 0 else None

    @property
    def phase(self) -> str:
        """``order``, ``deal``, ``first``, ``play``, ``call``, ``pick_caller``, ``penalty`` or ``over``."""
        return self._phase

    @property
    def rounds(self) -> int:
        """Completed rounds (every player playing once)."""
        return self._plays // self._n

    # ---------------------------------------------------------------- hooks
    def _current_player(self) -> int:
        ph = self._phase
        if ph in ("play", "first"):
            return self._order[self._pos]
        if ph == "call":
            return self._queue[0]
        if ph == "over":
            return TERMINAL
        return CHANCE

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        ph = self._phase
        if ph == "order":
            if self.g.koth:
                p = 1.0 / len(_KOTH_ORDERS)
                return [(i, p) for i in range(len(_KOTH_ORDERS))]
            return [(s, 1.0 / self._n) for s in range(self._n)]
        if ph == "deal":
            inv = 1.0 / (self.g.deck.total - self._dealt)
            return [(k, c * inv) for k, c in enumerate(self._undealt) if c]
        if ph == "pick_caller":
            p = 1.0 / len(self._callers)
            return [(s, p) for s in self._callers]
        if ph == "penalty":
            h = self._hands[self._caller]
            tot = self._sizes[self._caller]
            return [(k, c / tot) for k, c in enumerate(h) if c]
        raise IllegalActionError("not a chance node")

    def _legal_actions(self, player: int) -> Any:
        if self._phase == "call":
            return _CALL_ACTIONS
        hand = self._hands[player]
        if self._phase == "first":
            return sorted(
                self.g.encode([1 if j == k else 0 for j in range(self.g.num_kinds)])
                for k, c in enumerate(hand)
                if c
            )
        return _PlayActions(self.g, hand)

    def _is_legal(self, player: int, action: int) -> bool:
        if self._phase == "call":
            return action in (PASS, CALL)
        if action < _PLAY0:
            return False
        try:
            counts = self.g.decode(action)
        except IllegalActionError:
            return False
        hand = self._hands[player]
        for k, c in enumerate(counts):
            if c > hand[k]:
                return False
        self._decoded = (action, counts)
        if self._phase == "first":
            return sum(counts) == 1
        return True

    def _illegal_reason(self, player: int, action: int) -> str:
        if self._phase == "call":
            return f"P{player} must decide whether to call BS (pass or call)"
        if action in (PASS, CALL):
            return f"it is P{player}'s turn to play cards"
        try:
            counts = self.g.decode(action)
        except IllegalActionError:
            return f"{action} is not a play of this deck"
        hand = self._hands[player]
        missing = [self.g.deck.name(k) for k, c in enumerate(counts) if c > hand[k]]
        if missing:
            return f"P{player} does not hold {' '.join(missing)}"
        if self._phase == "first":
            return "the first play is exactly one card, face up"
        return "it is not one of the legal actions"

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            ph = self._phase
            if ph == "order":
                if self.g.koth:
                    return "order " + " ".join(f"P{s}" for s in _KOTH_ORDERS[action])
                return f"first P{action}"
            if ph in ("deal", "penalty"):
                return f"{ph} {self.g.deck.name(action)}"
            if ph == "pick_caller":
                return f"caller P{action}"
            return str(action)
        return self.g.action_text(action)

    def string_to_action(self, player: int, text: str) -> int:
        """Read ``pass``, ``call`` / ``bs`` or ``play 7H 7S`` (the word ``play`` optional)."""
        t = text.strip().lower()
        if t in ("pass", "no", "n"):
            return PASS
        if t in ("call", "call bs", "bs", "yes", "y"):
            return CALL
        if t.startswith("play"):
            t = t[4:]
        return self.g.play_action(t)

    def _returns(self) -> list[float]:
        return [1.0 if s == self._winner else 0.0 for s in range(self._n)]

    # ---------------------------------------------------------------- moves
    def apply_play(self, seat: int, cards: CardsLike, claim: int | None = None) -> None:
        """Play ``cards`` for ``seat``, checking the turn and the claimed count.

        Raises
        ------
        IllegalActionError
            Out of turn, a claimed count that differs from the number of
            cards, zero cards, or cards the seat does not hold (the state is
            unchanged).
        """
        cur = self._current_player()
        names = " ".join(self.g.deck.parse(cards)) if cards else ""
        if self._phase not in ("play", "first") or seat != cur:
            doing = {
                "order": "the seat order is being drawn",
                "deal": "the cards are being dealt",
                "call": f"P{cur} must first decide whether to call BS",
                "pick_caller": "chance is picking the caller",
                "penalty": "the caller's penalty card is being drawn",
                "over": "the game is over",
            }.get(self._phase)
            if doing is None:
                raise IllegalActionError(
                    f"P{seat} cannot play {names or 'cards'} out of turn: it is P{cur}'s turn"
                )
            raise IllegalActionError(f"P{seat} cannot play {names or 'cards'} now: {doing}")
        n = len(self.g.deck.kinds(cards))
        if n == 0:
            raise IllegalActionError(f"P{seat} must play at least one card")
        if claim is not None and claim != n:
            raise IllegalActionError(
                f"P{seat} claims {claim} cards but plays {n} ({names}); the count cannot be a lie"
            )
        self.apply_action(self.g.play_action(cards))

    def _apply_action(self, action: int) -> None:
        ph = self._phase
        if ph == "order":
            if self.g.koth:
                self._order = list(_KOTH_ORDERS[action])
            else:
                self._order = [(action + i) % self._n for i in range(self._n)]
            self._observe("order", None, order=tuple(self._order))
            self._phase = "deal"
        elif ph == "deal":
            seat = self._dealt % self._n
            self._hands[seat][action] += 1
            self._sizes[seat] += 1
            self._undealt[action] -= 1
            self._dealt += 1
            if self._dealt == self.g.deck.total:
                self._observe("deal", None, sizes=tuple(self._sizes))
                for s in range(self._n):
                    self._observe(
                        "hand", s, audience=(s,), hidden={"cards": self._names(self._hands[s])}
                    )
                self._phase = "first" if not self.g.koth else "play"
        elif ph == "first":
            self._first(action)
        elif ph == "play":
            self._start_play(action)
        elif ph == "call":
            s = self._queue.pop(0)
            if action == CALL:
                self._callers.append(s)
            if not self._queue:
                self._resolve()
        elif ph == "pick_caller":
            self._settle(action)
        elif ph == "penalty":
            c = self._caller
            self._hands[c][action] -= 1
            self._sizes[c] -= 1
            self._pile[action] += 1
            self._pile_n += 1
            self._observe(
                "penalty",
                c,
                audience=(c,),
                hidden={"card": self.g.deck.name(action)},
                hand=self._sizes[c],
            )
            if self._sizes[c] == 0:
                self._end(c)
            else:
                self._next_turn()

    def _names(self, counts: Sequence[int]) -> tuple[str, ...]:
        runs = self.g.name_runs
        out: tuple[str, ...] = ()
        for k, c in enumerate(counts):
            if c:
                out += runs[k][c]
        return out

    def _first(self, action: int) -> None:
        p = self._order[self._pos]
        counts = self.g.decode(action)
        k = counts.index(1)
        self._hands[p][k] -= 1
        self._sizes[p] -= 1
        self._pile[k] += 1
        self._pile_n += 1
        rank = self.g.rank_of[k]
        self._observe(
            "first", p, card=self.g.deck.name(k), rank=self.g.rank_labels[rank], hand=self._sizes[p]
        )
        self._required = rank
        self._player = p
        if self._sizes[p] == 0:
            self._end(p)
        else:
            self._next_turn()

    def _start_play(self, action: int) -> None:
        p = self._order[self._pos]
        dec = self._decoded
        counts = dec[1] if dec is not None and dec[0] == action else self.g.decode(action)
        self._decoded = None
        hand = self._hands[p]
        n = 0
        for k, c in enumerate(counts):
            if c:
                hand[k] -= c
                n += c
        self._sizes[p] -= n
        self._play = counts
        self._play_n = n
        self._player = p
        self._play_names = self._names(counts)
        self._observe(
            "play",
            p,
            audience=(p,),
            hidden={"cards": self._play_names},
            rank=self.g.rank_labels[self._required],
            count=n,
            hand=self._sizes[p],
        )
        self._queue = [self._order[(self._pos + j) % self._n] for j in range(1, self._n)]
        self._callers = []
        self._phase = "call"

    def _resolve(self) -> None:
        if not self._callers:
            for k, c in enumerate(self._play):
                if c:
                    self._pile[k] += c
            self._pile_n += self._play_n
            self._play_n = 0
            self._observe("nocall", self._player, pile=self._pile_n)
            if self._sizes[self._player] == 0:
                self._end(self._player)
            else:
                self._next_turn()
            return
        if len(self._callers) == 1 or not self.g.koth:
            self._settle(self._callers[0])
        else:
            self._phase = "pick_caller"

    def _settle(self, caller: int) -> None:
        p = self._player
        req = self._required
        rank_of = self.g.rank_of
        lie = any(c and rank_of[k] != req for k, c in enumerate(self._play))
        cards = self._play_names
        taker = p if lie else caller
        for k, c in enumerate(self._play):
            if c:
                self._pile[k] += c
        self._pile_n += self._play_n
        self._play_n = 0
        pile_cards = self._names(self._pile)
        hand = self._hands[taker]
        for k, c in enumerate(self._pile):
            if c:
                hand[k] += c
        self._sizes[taker] += self._pile_n
        taken = self._pile_n
        self._pile = [0] * self.g.num_kinds
        self._pile_n = 0
        self._caller = caller
        self._observe(
            "call",
            p,
            audience=(taker,),
            hidden={"pile": pile_cards},
            callers=tuple(self._callers),
            caller=caller,
            cards=cards,
            lie=lie,
            taker=taker,
            taken=taken,
        )
        if lie and self.g.koth:
            self._phase = "penalty"
            return
        if self._sizes[p] == 0:
            self._end(p)
        else:
            self._next_turn()

    def _next_turn(self) -> None:
        self._plays += 1
        if self._plays >= self._cap:
            self._end(-1)
            return
        self._pos = (self._pos + 1) % self._n
        self._required = (self._required + 1) % 13
        self._phase = "play"

    def _end(self, winner: int) -> None:
        self._winner = winner
        self._phase = "over"
        self._observe("end", winner if winner >= 0 else None, rounds=self._plays // self._n)

    def seat_view(self, seat: int) -> list[tuple[str, str]]:
        """The table as ``seat`` sees it, built from that seat's observations only.

        Rows: the seat, who is to move, the variant with the round, turn order
        and the rank to claim next, the seat's hand, one row per other seat
        (cards left and the cards the seat knows are there: ones it saw go
        into that hand and that cannot have left), the pile, the last claim
        and what came of it, the seat's probability that an open claim cannot
        be honest (or that it knows the claim is a lie), and how many deals
        the seat still considers possible.  The knowledge is rebuilt from the
        observations with the bots' table budget (a fraction of a second at
        the end of a long game; "relaxed" marks a count over a sound superset
        of the possible deals, see :attr:`games.deal.DealKnowledge.exact`).

        Examples
        --------
        >>> from games.base import load_game, make_bot, play_game
        >>> game = load_game("bs", variant="koth")
        >>> bots = [make_bot("bs", n, seed=1) for n in ("truthful", "liar", "threshold", "random")]
        >>> state = play_game(game, bots, seed=7, max_steps=90, keep_state=True).state
        >>> rows = dict(state.seat_view(0))
        >>> rows["to move"], rows["hand"], rows["P3"]
        ('P0 to call BS or pass', '2 3 4 6 7 8 9 11 12', '13 cards · surely holds 7 7')
        >>> rows["last claim"], rows["P(lie)"]
        ('P1 claimed one 8 (P0, P3, P2 still to decide whether to call)', '0.16')
        """
        if not 0 <= seat < self._n:
            raise InvalidParameterError(f"seat {seat} does not exist; seats are 0..{self._n - 1}")
        from games.bs.knowledge import _VIEW_TABLE, SeatKnowledge, _big, _last_claim

        g = self.g
        obs = self._observations[seat]
        view = SeatKnowledge(g, seat, exact=True, max_table=_VIEW_TABLE)
        for o in obs:
            view.observe(o)
        rows = [("seat", f"P{seat}"), ("to move", self._to_move())]
        if self._phase in ("order", "deal"):
            return rows
        order = " ".join(f"P{s}" for s in view.order)
        game_row = f"{g.params.variant} · round {view.plays // self._n + 1} · order {order}"
        if self._phase == "play":
            game_row += f" · next claim {g.rank_labels[view.required]}s"
        rows.append(("game", game_row))
        names = g.name_runs
        hand = [n for k, c in enumerate(view.hand) for n in names[k][c]]
        rows.append(("hand", " ".join(hand) or "-"))
        kn = view.knowledge
        for s in range(self._n):
            if s == seat:
                continue
            text = f"{view.sizes[s]} card{'s' if view.sizes[s] != 1 else ''}"
            known = kn.known_cards(f"P{s}") if kn is not None else ()
            if known:
                text += " · surely holds " + " ".join(known)
            rows.append((f"P{s}", text))
        pile = self.pile_size
        rows.append(("pile", f"{pile} card{'s' if pile != 1 else ''}"))
        claim = _last_claim(g, obs, seat, self._queue if self._phase == "call" else [])
        if claim:
            rows.append(("last claim", claim))
        if view.last is not None and view.last[0] != seat and kn is not None:
            if view.knows_lie():
                rows.append(("P(lie)", f"P{seat} knows the claim is a lie"))
            else:
                rows.append(("P(lie)", f"{view.lie_probability():.2f}"))
        if kn is not None:
            rows.append(("possible deals", _big(kn.count()) + ("" if kn.exact else " (relaxed)")))
        return rows

    def _to_move(self) -> str:
        ph = self._phase
        g = self.g
        if ph == "order":
            return "chance (turn order)"
        if ph == "deal":
            return "chance (dealing)"
        if ph == "first":
            return f"P{self._order[self._pos]} to lay one card face up"
        if ph == "play":
            return f"P{self._order[self._pos]} to claim {g.rank_labels[self._required]}s"
        if ph == "call":
            return f"P{self._queue[0]} to call BS or pass"
        if ph == "pick_caller":
            return "chance (which caller)"
        if ph == "penalty":
            return f"chance (P{self._caller}'s penalty card)"
        return "game over: " + (f"P{self._winner} wins" if self._winner >= 0 else "no winner")

    def _card_history(self) -> Any:
        """This game's cards for :mod:`games.epistemic` (:func:`games.bs.knowledge.bs_card_history`)."""
        from games.bs.knowledge import bs_card_history

        return bs_card_history(self)

    def __str__(self) -> str:
        sizes = " ".join(f"P{s}:{n}" for s, n in enumerate(self._sizes))
        return f"BS({self.g.params.variant}, {self._phase}, hands {sizes}, pile {self.pile_size})"


# ====================================================================== seats


make_game = _make_game
