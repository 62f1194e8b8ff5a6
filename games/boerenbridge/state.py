"""The BoerenBridge engine: rounds of dealing, a turned-up trump, guesses and tricks."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any

from games.base import CHANCE, TERMINAL, Game, Observation, State
from games.boerenbridge.rules import (
    _CARD_TEXT,
    _PHASE_DEAL,
    _PHASE_GUESS,
    _PHASE_OVER,
    _PHASE_PLAY,
    _PHASE_TRUMP,
    GUESS_BASE,
    NUM_CARDS,
    SEAT_NAMES,
    SUIT_BASE,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    BoerenBridgeParams,
    card_pretty,
    card_str,
    cards_of,
    make_params,
    round_score,
    trick_winner,
)
from games.errors import IllegalActionError, InvalidParameterError

__all__ = [
    "BoerenBridgeGame",
    "BoerenBridgeState",
    "RoundRecord",
    "make_game",
    "random_playout",
]


class BoerenBridgeGame(Game):
    """BoerenBridge with fixed parameters; see :class:`BoerenBridgeParams`."""

    name = "boerenbridge"

    def __init__(self, params: BoerenBridgeParams):
        super().__init__(params)
        self.round_decks = tuple(self._round_deck(n) for n in params.rounds)

    def _round_deck(self, n: int) -> int:
        if self.params.deck == "full":
            return (1 << NUM_CARDS) - 1
        mask = 0
        for s in range(4):
            for r in range(8 - n, 8):
                mask |= 1 << (s * 8 + r)
        return mask

    def num_players(self) -> int:
        return self.params.players

    def num_rounds(self) -> int:
        """Rounds in a game."""
        return len(self.params.rounds)

    def dealer(self, round_index: int) -> int:
        """Dealer of the 0-based round ``round_index``."""
        return (self.params.first_dealer + round_index) % self.params.players

    def new_initial_state(self) -> BoerenBridgeState:
        return BoerenBridgeState(self)

    def __repr__(self) -> str:
        return f"BoerenBridgeGame({self.params!r})"


def make_game(variant: str | None = None, **params: Any) -> BoerenBridgeGame:
    """Build the game; ``load_game("boerenbridge", variant="lamas", players=3)`` calls this.

    Examples
    --------
    >>> make_game("lamas", players=3).params.players
    3
    >>> make_game(players=5)
    Traceback (most recent call last):
    ...
    games.errors.InvalidParameterError: players=5: BoerenBridge takes 3 or 4 players
    """
    params.pop("seed", None)
    return BoerenBridgeGame(make_params(variant, **params))


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """A finished round: who dealt, trump, every seat's guess, tricks and points."""

    round: int
    cards: int
    dealer: int
    trump: int | None
    trump_card: int | None
    guesses: tuple[int, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]


# ------------------------------------------------------------------ state
class BoerenBridgeState(State):
    """A BoerenBridge game in progress (see the module docstring for the rules).

    Public attributes are read-only views for narration and tests; bots never
    see the state, only their seat's observations.
    """

    def __init__(self, game: BoerenBridgeGame):
        super().__init__(game)
        self._params: BoerenBridgeParams = game.params
        self._np = game.params.players
        self._scores = [0] * self._np
        self._records: list[RoundRecord] = []
        self._round = 0
        self._outcomes: tuple[int, list[tuple[int, float]]] | None = None
        self._start_round()

    # ------------------------------------------------------------ rounds
    def _start_round(self) -> None:
        g: BoerenBridgeGame = self.game  # type: ignore[assignment]
        self._n = self._params.rounds[self._round]
        self._dealer = g.dealer(self._round)
        self._undealt = cards_of(g.round_decks[self._round])
        self._dealt = 0
        self._hands = [0] * self._np
        self._dealt_hands = [0] * self._np
        self._trump: int | None = None
        self._trump_card: int | None = None
        self._guesses: list[int] = []
        self._tricks = [0] * self._np
        self._leader = (self._dealer + 1) % self._np
        self._trick: list[int] = []
        self._plays: list[tuple[int, int]] = []
        self._played = 0
        self._phase = _PHASE_DEAL

    def _after_deal(self) -> None:
        n = self._np
        self._observe("round", None, round=self._round + 1, cards=self._n, dealer=self._dealer)
        for seat in range(n):
            self._observe(
                "hand",
                None,
                audience=(seat,),
                hidden={"cards": tuple(card_str(c) for c in cards_of(self._hands[seat]))},
                seat=seat,
            )
        if (self._round + 1) in self._params.no_trump_rounds:
            self._observe("trump", None, suit="none")
            self._phase = _PHASE_GUESS
        else:
            self._phase = _PHASE_TRUMP

    def _finish_round(self) -> None:
        p = self._params
        by_seat = [self.guess_of(s) or 0 for s in range(self._np)]
        points = tuple(
            round_score(p, self._n, by_seat[s], self._tricks[s]) for s in range(self._np)
        )
        for s in range(self._np):
            self._scores[s] += points[s]
        self._records.append(
            RoundRecord(
                self._round + 1,
                self._n,
                self._dealer,
                self._trump,
                self._trump_card,
                tuple(by_seat),
                tuple(self._tricks),
                points,
            )
        )
        self._observe(
            "score",
            None,
            round=self._round + 1,
            tricks=tuple(self._tricks),
            points=points,
            scores=tuple(self._scores),
        )
        self._round += 1
        if self._round == len(p.rounds):
            self._phase = _PHASE_OVER
        else:
            self._start_round()

    # ------------------------------------------------------------- hooks
    def _current_player(self) -> int:
        ph = self._phase
        if ph == _PHASE_PLAY:
            return (self._leader + len(self._trick)) % self._np
        if ph == _PHASE_GUESS:
            return (self._dealer + 1 + len(self._guesses)) % self._np
        if ph == _PHASE_OVER:
            return TERMINAL
        return CHANCE

    def _public(self, kind: str, actor: int | None, data: tuple[tuple[str, Any], ...]) -> None:
        """Send one event to every seat (``data`` already sorted by key)."""
        obs = Observation(kind, actor, data, True)
        for seat_obs in self._observations:
            seat_obs.append(obs)

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        cached = self._outcomes
        if cached is not None and cached[0] == len(self._history):
            return cached[1]
        out = self._compute_outcomes()
        self._outcomes = (len(self._history), out)
        return out

    def _compute_outcomes(self) -> list[tuple[int, float]]:
        if self._phase == _PHASE_DEAL:
            u = self._undealt
            pr = 1.0 / len(u)
            return [(c, pr) for c in u]
        if self._phase == _PHASE_TRUMP:
            if self._params.trump == "turn-up" and self._undealt:
                pr = 1.0 / len(self._undealt)
                return [(c, pr) for c in self._undealt]
            return [(SUIT_BASE + s, 0.25) for s in range(4)]
        raise IllegalActionError("not a chance node")

    def _legal_actions(self, player: int) -> list[int]:
        if self._phase == _PHASE_GUESS:
            return [GUESS_BASE + g for g in range(self._n + 1) if g != self._forbidden_guess()]
        hand = self._hands[player]
        if self._trick:
            suit_cards = hand & (0xFF << ((self._trick[0] >> 3) * 8))
            if suit_cards:
                hand = suit_cards
        return cards_of(hand)

    def _forbidden_guess(self) -> int:
        """The guess the dealer may not make, or -1 (not the dealer's turn)."""
        if len(self._guesses) == self._np - 1:
            return self._n - sum(self._guesses)
        return -1

    def _is_legal(self, player: int, action: int) -> bool:
        ph = self._phase
        if ph == _PHASE_PLAY:
            if not 0 <= action < NUM_CARDS or not (self._hands[player] >> action) & 1:
                return False
            if self._trick:
                led = self._trick[0] >> 3
                if (action >> 3) != led and self._hands[player] & (0xFF << (led * 8)):
                    return False
            return True
        if ph == _PHASE_GUESS:
            g = action - GUESS_BASE
            return 0 <= g <= self._n and g != self._forbidden_guess()
        return False

    def _illegal_reason(self, player: int, action: int) -> str:
        ph = self._phase
        name = SEAT_NAMES[player]
        if ph == _PHASE_GUESS:
            if not GUESS_BASE <= action < GUESS_BASE + 9:
                return f"it is {name}'s turn to guess 0..{self._n} tricks, not to play a card"
            g = action - GUESS_BASE
            if g > self._n:
                return f"a guess lies between 0 and {self._n} in a {self._n}-card round"
            others = sum(self._guesses)
            return (
                f"the dealer may not make the guesses add up to the {self._n} cards dealt "
                f"(the others guessed {others} in total)"
            )
        if not 0 <= action < NUM_CARDS:
            return f"it is {name}'s turn to play a card; the guessing is over"
        if not (self._hands[player] >> action) & 1:
            return f"{card_str(action)} is not in {name}'s hand"
        led = self._trick[0] >> 3
        held = cards_of(self._hands[player] & (0xFF << (led * 8)))
        return (
            f"revoke: {name} must follow {SUIT_NAMES[led]} and holds "
            f"{', '.join(card_str(c) for c in held)}"
        )

    def _apply_action(self, action: int) -> None:
        ph = self._phase
        if ph == _PHASE_PLAY:
            self._play(action)
        elif ph == _PHASE_GUESS:
            seat = (self._dealer + 1 + len(self._guesses)) % self._np
            self._guesses.append(action - GUESS_BASE)
            self._public("guess", seat, (("guess", action - GUESS_BASE),))
            if len(self._guesses) == self._np:
                self._phase = _PHASE_PLAY
        elif ph == _PHASE_DEAL:
            self._undealt.remove(action)
            seat = (self._dealer + 1 + self._dealt) % self._np
            self._hands[seat] |= 1 << action
            self._dealt += 1
            if self._dealt == self._n * self._np:
                self._dealt_hands = list(self._hands)
                self._after_deal()
        elif ph == _PHASE_TRUMP:
            if action >= SUIT_BASE:
                self._trump = action - SUIT_BASE
                self._observe("trump", None, suit=SUITS[self._trump])
            else:
                self._undealt.remove(action)
                self._trump_card = action
                self._trump = action >> 3
                self._observe("trump", None, suit=SUITS[self._trump], card=card_str(action))
            self._phase = _PHASE_GUESS

    def _play(self, card: int) -> None:
        seat = (self._leader + len(self._trick)) % self._np
        self._hands[seat] &= ~(1 << card)
        self._trick.append(card)
        self._plays.append((seat, card))
        self._public("play", seat, (("card", _CARD_TEXT[card]),))
        if len(self._trick) == self._np:
            w = (self._leader + trick_winner(self._trick, self._trump)) % self._np
            self._tricks[w] += 1
            self._played += 1
            self._public("trick", None, (("number", self._played), ("winner", w)))
            self._leader = w
            self._trick = []
            if self._played == self._n:
                self._finish_round()

    def _action_to_string(self, player: int, action: int) -> str:
        if 0 <= action < NUM_CARDS:
            return card_str(action)
        if GUESS_BASE <= action < GUESS_BASE + 9:
            return f"guess {action - GUESS_BASE}"
        if SUIT_BASE <= action < SUIT_BASE + 4:
            return f"trump {SUITS[action - SUIT_BASE]}"
        return f"action {action}"

    def _returns(self) -> list[float]:
        return [float(s) for s in self._scores]

    def clone(self) -> BoerenBridgeState:
        """An independent copy (faster than a deep copy)."""
        other = copy.copy(self)
        other._history = list(self._history)
        other._observations = [list(o) for o in self._observations]
        other._scores = list(self._scores)
        other._records = list(self._records)
        other._undealt = list(self._undealt)
        other._hands = list(self._hands)
        other._dealt_hands = list(self._dealt_hands)
        other._guesses = list(self._guesses)
        other._tricks = list(self._tricks)
        other._trick = list(self._trick)
        other._plays = list(self._plays)
        return other

    # ------------------------------------------------------ read-only views
    @property
    def params(self) -> BoerenBridgeParams:
        """The game's parameters."""
        return self._params

    @property
    def round_index(self) -> int:
        """0-based index of the current round (``num_rounds`` once over)."""
        return self._round

    @property
    def cards_per_hand(self) -> int:
        """Cards dealt to each player this round."""
        return self._n

    @property
    def dealer(self) -> int:
        """This round's dealer."""
        return self._dealer

    @property
    def trump(self) -> int | None:
        """Trump suit index, ``None`` without trump (or before it is known)."""
        return self._trump

    @property
    def trump_card(self) -> int | None:
        """The turned-up card, if any."""
        return self._trump_card

    @property
    def guesses(self) -> tuple[int | None, ...]:
        """Each seat's guess this round (``None`` before it guessed)."""
        return tuple(self.guess_of(s) for s in range(self._np))

    def guess_of(self, seat: int) -> int | None:
        """``seat``'s guess this round, or ``None`` before it guessed."""
        i = (seat - self._dealer - 1) % self._np
        return self._guesses[i] if i < len(self._guesses) else None

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks won this round per seat."""
        return tuple(self._tricks)

    @property
    def leader(self) -> int:
        """Seat that leads (led) the current trick."""
        return self._leader

    @property
    def current_trick(self) -> tuple[int, ...]:
        """Cards of the trick in progress, the lead first."""
        return tuple(self._trick)

    @property
    def scores(self) -> tuple[int, ...]:
        """Cumulative scores."""
        return tuple(self._scores)

    @property
    def records(self) -> tuple[RoundRecord, ...]:
        """Finished rounds."""
        return tuple(self._records)

    @property
    def phase(self) -> str:
        """``"deal"``, ``"trump"``, ``"guess"``, ``"play"`` or ``"over"``."""
        return ("deal", "trump", "guess", "play", "over")[self._phase]

    def hand(self, seat: int) -> list[int]:
        """Card ids in ``seat``'s hand now."""
        return cards_of(self._hands[seat])

    def hand_mask(self, seat: int) -> int:
        """``seat``'s hand as a 32-bit card mask."""
        return self._hands[seat]

    def dealt_hand(self, seat: int) -> list[int]:
        """Cards ``seat`` was dealt this round."""
        return cards_of(self._dealt_hands[seat])

    @property
    def plays(self) -> tuple[tuple[int, int], ...]:
        """``(seat, card)`` of every card played this round, in order."""
        return tuple(self._plays)

    def undealt(self) -> list[int]:
        """Cards of this round's deck in no hand and not turned up (or not yet dealt)."""
        return list(self._undealt)

    def seat_view(self, seat: int) -> list[tuple[str, str]]:
        """The table as ``seat`` sees it now (built from its observations only).

        Rows: the seat, who is to move (or that cards are being dealt, the
        trump turned up, the game over), the round, the seat's hand, the
        trump, one row per seat (its guess, tricks, cards left, score and
        shown voids; once a round is scored, the round's result), the last
        completed trick with its winner and the trick on the table.

        Examples
        --------
        >>> from games.base import load_game
        >>> state = random_playout(load_game("boerenbridge"), seed=4, stop_after=78)
        >>> rows = dict(state.seat_view(0))
        >>> rows["round"], rows["to move"]
        ('3 of 15 · 4 cards · dealer South', 'North to play')
        """
        if not 0 <= seat < self._np:
            raise InvalidParameterError(f"seat {seat} does not exist; seats are 0..{self._np - 1}")
        from games.boerenbridge.knowledge import SeatView

        v = SeatView.from_state(self, seat)
        ph = self._phase
        if ph == _PHASE_OVER:
            turn = "game over"
        elif ph == _PHASE_DEAL:
            turn = f"dealing round {self._round + 1} ({self._n} cards each)"
        elif ph == _PHASE_TRUMP:
            turn = "turning up the trump"
        else:
            verb = "guess" if ph == _PHASE_GUESS else "play"
            turn = f"{SEAT_NAMES[self._current_player()]} to {verb}"
        rows = [("seat", SEAT_NAMES[seat]), ("to move", turn)]
        if v.round_index < 0:
            return rows
        rows.append(
            (
                "round",
                f"{v.round_index + 1} of {len(self._params.rounds)} · {v.cards} cards · "
                f"dealer {SEAT_NAMES[v.dealer]}" + (" · scored" if v.round_over else ""),
            )
        )
        rows.append(("hand", " ".join(card_pretty(c) for c in cards_of(v.hand)) or "-"))
        if v.trump_known:
            t = "none" if v.trump is None else SUIT_SYMBOLS[v.trump]
            if v.trump_card is not None:
                t += f" (turned up {card_pretty(v.trump_card)})"
            rows.append(("trump", t))
        for p in range(self._np):
            g = v.guesses[p]
            if v.round_over:
                rows.append(
                    (
                        SEAT_NAMES[p],
                        f"guessed {g} · took {v.tricks[p]} · {v.last_points[p]:+d} points · "
                        f"score {v.scores[p]}",
                    )
                )
                continue
            voids = "".join(SUIT_SYMBOLS[x] for x in range(4) if v.voids[p] >> x & 1)
            rows.append(
                (
                    SEAT_NAMES[p],
                    f"guess {'-' if g is None else g} · tricks {v.tricks[p]} · "
                    f"{v.hand_size(p)} card{'' if v.hand_size(p) == 1 else 's'} · "
                    f"score {v.scores[p]}" + (f" · void {voids}" if voids else ""),
                )
            )
        if v.last_trick and v.last_winner is not None:
            played = " ".join(f"{SEAT_NAMES[s][0]}:{card_pretty(c)}" for s, c in v.last_trick)
            rows.append(("last trick", f"{played} · won by {SEAT_NAMES[v.last_winner]}"))
        if v.trick:
            played = " ".join(
                f"{SEAT_NAMES[s][0]}:{card_pretty(c)}" for s, c in v.plays[-len(v.trick) :]
            )
            rows.append(("trick", played))
        return rows

    def _card_history(self) -> Any:
        """This round for :mod:`games.epistemic` (:func:`games.boerenbridge.knowledge.round_card_history`)."""
        from games.boerenbridge.knowledge import round_card_history

        return round_card_history(self)

    def __str__(self) -> str:
        lines = [
            f"round {self._round + 1}/{len(self._params.rounds)} ({self._n} cards), "
            f"dealer {SEAT_NAMES[self._dealer]}, phase {self.phase}"
        ]
        if self._trump is not None:
            t = SUIT_SYMBOLS[self._trump]
            lines.append(
                f"trump {t}"
                + (f" (turned up {card_pretty(self._trump_card)})" if self._trump_card else "")
            )
        for s in range(self._np):
            g = self.guess_of(s)
            lines.append(
                f"{SEAT_NAMES[s]:5}: {' '.join(card_pretty(c) for c in self.hand(s)):30} "
                f"guess {'-' if g is None else g} tricks {self._tricks[s]} score {self._scores[s]}"
            )
        if self._trick:
            lines.append("trick: " + " ".join(card_pretty(c) for c in self._trick))
        return "\n".join(lines)


def random_playout(
    game: BoerenBridgeGame, seed: int, stop_after: int | None = None
) -> BoerenBridgeState:
    """Play uniformly random legal actions (chance included) from the start.

    Stops at the end of the game or after ``stop_after`` actions.
    """
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal() and (stop_after is None or steps < stop_after):
        steps += 1
        if state.is_chance_node():
            outcomes = state._chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state._legal_actions(state.current_player())
            state.apply_action(legal[rng.randrange(len(legal))])
    return state
