"""BoerenBridge at the terminal: a human seat and the narrated game (``kripke play boerenbridge``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.base import CHANCE, sample_chance
from games.boerenbridge.knowledge import (
    PLAYED,
    GuessModel,
    SeatView,
    deal_state,
    guess_weights,
    make_guess_probability,
    round_deck,
)
from games.boerenbridge.rules import (
    GUESS_BASE,
    NUM_CARDS,
    SEAT_NAMES,
    SUIT_SYMBOLS,
    _suit_mask,
    card_pretty,
    card_str,
    cards_of,
    parse_card,
)
from games.boerenbridge.state import BoerenBridgeState, RoundRecord, make_game
from games.errors import CardParseError, IllegalActionError, InvalidParameterError

__all__ = [
    "narrate",
    "DEFAULT_BOTS",
]


DEFAULT_BOTS = ("sampling", "knowledge", "greedy", "random")


def _fmt_count(x: int) -> str:
    return f"{x:,}" if x < 10**7 else f"{x:.2e}"


class _Narrator:
    """Tells a game as it goes, with every seat's knowledge after each guess and card."""

    def __init__(self, state: BoerenBridgeState, out: Any, names: Sequence[str]):
        self.state = state
        self.out = out
        self.names = names
        self.ds: Any = None
        self.model = GuessModel()
        self.rng_seed = 0

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def hand_text(self, seat: int) -> str:
        return " ".join(card_pretty(c) for c in sorted(self.state.hand(seat), reverse=True))

    def round_start(self) -> None:
        st = self.state
        n = st.num_players()
        if st.trump is None:
            trump = "no trump"
        elif st.trump_card is not None:
            trump = f"trump {SUIT_SYMBOLS[st.trump]} (turned up {card_pretty(st.trump_card)})"
        else:
            trump = f"trump {SUIT_SYMBOLS[st.trump]} (drawn)"
        self.say()
        self.say(
            f"Round {st.round_index + 1}/{len(st.params.rounds)} · {st.cards_per_hand} cards · "
            f"dealer {SEAT_NAMES[st.dealer]} · {trump}"
        )
        for seat in range(n):
            self.say(f"  {SEAT_NAMES[seat]:5} ({self.names[seat]:9}) {self.hand_text(seat)}")
        self.ds = deal_state(st)
        counts = ", ".join(
            f"{SEAT_NAMES[s]} {_fmt_count(self.ds.knowledge(SEAT_NAMES[s]).count())}"
            for s in range(n)
        )
        self.say(f"  deals each seat considers possible: {counts}")

    def guessed(self, seat: int, guess: int) -> None:
        st = self.state
        made = [g for g in st.guesses if g is not None]
        self.say(
            f"{SEAT_NAMES[seat]} guesses {guess}  (guesses so far {sum(made)} of "
            f"{st.cards_per_hand} tricks)"
        )
        # a guess is an intention: the exact knowledge is unchanged; the guess model reads it
        parts = []
        for other in range(st.num_players()):
            if other == seat:
                continue
            exact, read = self._high_card_reading(other, seat)
            parts.append(f"{SEAT_NAMES[other]} {exact:.1f} → {read:.1f}")
        self.say(
            f"  no deal ruled out; expected high cards of {SEAT_NAMES[seat]}, exact → "
            f"reading the guess: " + ", ".join(parts)
        )

    def _high_card_reading(self, viewer: int, guesser: int) -> tuple[float, float]:
        import numpy as np

        view = SeatView.from_state(self.state, viewer)
        self.rng_seed += 1
        deals = view.sample_hands(200, np.random.default_rng(self.rng_seed))
        highs = [self.model.estimate(h[guesser], view.trump) for h in deals]
        w = guess_weights(view, deals, self.model)
        return sum(highs) / len(highs), sum(x * y for x, y in zip(w, highs, strict=True))

    def played(self, seat: int, card: int, led: int | None) -> None:
        st = self.state
        n = st.num_players()
        name = SEAT_NAMES[seat]
        note = ""
        self.ds.move(card_str(card), name, PLAYED)
        if led is not None and card >> 3 != led:
            self.ds.void(name, [card_str(x) for x in cards_of(_suit_mask(led))])
            note = f"  — shows out of {SUIT_SYMBOLS[led]}"
        self.say(f"{name} plays {card_pretty(card)}{note}")
        for s in range(n):
            k = self.ds.knowledge(SEAT_NAMES[s])
            m = k.marginals()
            hidden = [
                c
                for c in range(NUM_CARDS)
                if not (st.hand_mask(s) >> c) & 1
                and not any(c == x for _, x in st.plays)
                and c != st.trump_card
                and (round_deck(st.params, st.cards_per_hand) >> c) & 1
            ]
            sure = sum(1 for c in hidden if m[c].max() > 1 - 1e-9)
            voids = []
            for p in range(n):
                suits = "".join(
                    SUIT_SYMBOLS[x] for x in range(4) if p != s and _known_void(k, SEAT_NAMES[p], x)
                )
                if suits:
                    voids.append(f"{SEAT_NAMES[p]} {suits}")
            extra = f" · knows voids: {', '.join(voids)}" if voids else ""
            count = k.count()
            self.say(
                f"  {SEAT_NAMES[s]:5} {_fmt_count(count)} deal{'' if count == 1 else 's'} · "
                f"sure where {sure}/{len(hidden)} unseen cards are{extra}"
            )

    def trick_done(self) -> None:
        st = self.state
        n = st.num_players()
        w = st.leader
        status = ", ".join(f"{SEAT_NAMES[s]} {st.tricks_won[s]}/{st.guess_of(s)}" for s in range(n))
        self.say(f"  trick to {SEAT_NAMES[w]} · tricks/guesses: {status}")
        if st.phase == "play" and len(st.hand(0)) <= 4:
            probs = ", ".join(
                f"{SEAT_NAMES[s]} {make_guess_probability(st, s, samples=12, seed=s):.2f}"
                for s in range(n)
            )
            self.say(f"  P(can still force its guess), each in its own eyes: {probs}")

    def round_done(self, rec: RoundRecord) -> None:
        n = len(rec.points)
        self.say(
            "  round over · tricks/guesses: "
            + ", ".join(f"{SEAT_NAMES[s]} {rec.tricks[s]}/{rec.guesses[s]}" for s in range(n))
        )
        self.say(
            "  points: "
            + ", ".join(f"{SEAT_NAMES[s]} {rec.points[s]:+d}" for s in range(n))
            + " · scores: "
            + ", ".join(f"{SEAT_NAMES[s]} {self.state.scores[s]}" for s in range(n))
        )


def _known_void(k: Any, location: str, suit: int) -> bool:
    m = k.marginals()
    col = k.locations.index(location)
    return k.size(location) > 0 and all(m[c, col] == 0 for c in range(8 * suit, 8 * suit + 8))


def _human_bot(read: Any, out: Any) -> Any:
    from games.boerenbridge.bots import ViewBot

    class HumanBot(ViewBot):
        name = "human"

        def step(self, legal_actions: Sequence[int]) -> int:
            v = self.view
            assert v is not None
            hand = " ".join(card_pretty(c) for c in cards_of(v.hand))
            if legal_actions[0] >= GUESS_BASE:
                options = " ".join(str(a - GUESS_BASE) for a in legal_actions)
                prompt = f"your hand {hand} · guess how many tricks ({options}): "
            else:
                options = " ".join(card_pretty(a) for a in legal_actions)
                prompt = f"your hand {hand} · play one of {options}: "
            while True:
                print(prompt, file=out)
                line = read()
                if line is None:
                    raise IllegalActionError("input ended before the game did")
                text = line.strip()
                try:
                    if legal_actions[0] >= GUESS_BASE:
                        a = GUESS_BASE + int(text)
                    else:
                        a = parse_card(text)
                except (ValueError, CardParseError) as exc:
                    print(f"  {exc}", file=out)
                    continue
                if a in legal_actions:
                    return a
                print(f"  {text} is not one of: {options}", file=out)

    return HumanBot()


def narrate(args: Any, out: Any) -> int:
    """``kripke play boerenbridge``: a narrated game with every seat's knowledge.

    ``--bots`` names one bot per seat (default ``sampling,knowledge,greedy,random``),
    ``--human k`` lets you play seat ``k`` at the terminal, ``--quiet`` prints the
    result only; ``--variant lamas``, ``--players 3`` and ``--param KEY=VALUE``
    choose the game.
    """
    import sys

    from games.base import make_bot

    params = dict(getattr(args, "params", {}) or {})
    variant = getattr(args, "variant", None) or params.pop("variant", None)
    players = getattr(args, "players", None)
    if players is not None:
        params["players"] = players
    game = make_game(variant, **params)
    n = game.num_players()
    bots_arg = getattr(args, "bots", None)
    names = [x.strip() for x in bots_arg.split(",")] if bots_arg else list(DEFAULT_BOTS[:n])
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise InvalidParameterError(f"--bots needs 1 or {n} names, got {len(names)}")
    seed = int(getattr(args, "seed", 0) or 0)
    human = getattr(args, "human", None)
    if human is not None and not 0 <= human < n:
        raise InvalidParameterError(f"--human must be a seat 0..{n - 1}, got {human}")
    stdin_lines = iter(sys.stdin)

    def read() -> str | None:
        return next(stdin_lines, None)

    bots = []
    for s in range(n):
        if s == human:
            bots.append(_human_bot(read, out))
            names[s] = "you"
        else:
            bots.append(make_bot("boerenbridge", names[s], seed=seed * 100 + s))
    quiet = bool(getattr(args, "quiet", False))
    state = game.new_initial_state()
    for s, b in enumerate(bots):
        b.restart(game, s)
    rng = random.Random(seed)
    sink = out if not quiet else _Null()
    nar = _Narrator(state, sink, names)
    p = game.params
    nar.say(
        f"BoerenBridge ({p.variant}, {n} players, rounds {' '.join(map(str, p.rounds))}), "
        f"seed {seed} · " + ", ".join(f"{SEAT_NAMES[s]} {names[s]}" for s in range(n))
    )
    seen = [0] * n
    rounds_done = 0
    while not state.is_terminal():
        for s, b in enumerate(bots):
            obs = state.observations(s)
            while seen[s] < len(obs):
                b.inform(obs[seen[s]])
                seen[s] += 1
        cur = state.current_player()
        if cur == CHANCE:
            state.apply_action(sample_chance(state, rng))
            if state.phase == "guess" and all(g is None for g in state.guesses):
                nar.round_start()
            continue
        action = bots[cur].step(state.legal_actions(cur))
        led = state.current_trick[0] >> 3 if state.current_trick else None
        state.apply_action(action)
        if action >= GUESS_BASE:
            nar.guessed(cur, action - GUESS_BASE)
            continue
        if len(state.records) > rounds_done:  # the last card of the round
            rounds_done = len(state.records)
            nar.say(f"{SEAT_NAMES[cur]} plays {card_pretty(action)}")
            nar.round_done(state.records[-1])
            continue
        nar.played(cur, action, led)
        if not state.current_trick:
            nar.trick_done()
    scores = state.scores
    best = max(scores)
    winners = [SEAT_NAMES[s] for s in range(n) if scores[s] == best]
    print(
        "final scores: "
        + ", ".join(f"{SEAT_NAMES[s]} ({names[s]}) {scores[s]}" for s in range(n))
        + f" · winner: {' and '.join(winners)}",
        file=out,
    )
    return 0


class _Null:
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        return None
