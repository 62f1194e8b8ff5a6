"""BoerenBridge at the terminal: a human seat and the narrated game (``kripke play boerenbridge``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.base import CHANCE, Bot, Game, Observation, sample_chance
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
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    _suit_mask,
    card_pretty,
    card_str,
    cards_of,
    parse_card,
)
from games.boerenbridge.state import BoerenBridgeState, RoundRecord, make_game
from games.errors import BotError, IllegalActionError, InvalidParameterError
from games.prompt import (
    Command,
    InputClosedError,
    Prompt,
    big_number,
    human_seats,
    parse_int,
    plural,
)

__all__ = ["narrate", "DEFAULT_BOTS", "HumanBot", "cards_text"]


DEFAULT_BOTS = ("sampling", "knowledge", "greedy", "random")


def _fmt_count(x: int) -> str:
    return big_number(x)


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
        return cards_text(sorted(self.state.hand(seat), reverse=True))

    def round_start(self) -> None:
        st = self.state
        n = st.num_players()
        if st.trump is None:
            trump = "no trump"
        elif st.trump_card is not None:
            trump = f"trump {SUIT_SYMBOLS[st.trump]} (turned up {cards_text([st.trump_card])})"
        else:
            trump = f"trump {SUIT_SYMBOLS[st.trump]} (drawn)"
        self.say()
        self.say(
            f"Round {st.round_index + 1}/{len(st.params.rounds)} · "
            f"{plural(st.cards_per_hand, 'card')} · "
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
            f"{plural(st.cards_per_hand, 'trick')})"
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
        self.say(f"{name} plays {cards_text([card])}{note}")
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


def cards_text(cards: Sequence[int]) -> str:
    """Cards with their suit symbols (``A♥ 10♠``): every card list the table prints."""
    return " ".join(card_pretty(c) for c in cards)


def _suit_cards(suit: int) -> str:
    return f"{SUIT_SYMBOLS[suit]} ({SUIT_NAMES[suit]})"


class HumanBot(Bot):
    """A seat played at the terminal, knowing only its own observations.

    Asks through a :class:`~games.prompt.Prompt`: ``guess N`` (or just ``N``)
    and ``play CARD`` (or just the card, ``AH`` or ``A♥``); ``help`` lists
    them with examples; a bad answer is named and the question repeats.
    """

    name = "human"

    def __init__(self, prompt: Prompt, label: str = ""):
        super().__init__(None)
        self.prompt = prompt
        self.label = label
        self.view: SeatView | None = None

    def restart(self, game: Game, seat: int) -> None:
        super().restart(game, seat)
        self.view = SeatView(game.params, seat)
        self.label = self.label or SEAT_NAMES[seat]

    def inform(self, observation: Observation) -> None:
        assert self.view is not None
        self.view.observe(observation)

    def hand_line(self) -> str:
        v = self.view
        assert v is not None
        hand = cards_text(sorted(cards_of(v.hand), reverse=True))
        return f"{self.label}, your hand: {hand}"

    def step(self, legal_actions: Sequence[int]) -> int:
        v, pr = self.view, self.prompt
        assert v is not None
        pr.handover(self.seat)
        try:
            if legal_actions[0] >= GUESS_BASE:
                return self._ask_guess([a - GUESS_BASE for a in legal_actions])
            return self._ask_card(list(legal_actions))
        except InputClosedError as exc:
            raise BotError(f"{SEAT_NAMES[self.seat]}: {exc}") from None

    def _ask_guess(self, legal: list[int]) -> int:
        v = self.view
        assert v is not None
        top = v.cards
        valid = ", ".join(map(str, legal))

        def parse(text: str) -> int:
            g = parse_int(text, 0, top, what="a guess")
            if g not in legal:
                made = sum(x for x in v.guesses if x is not None)
                raise IllegalActionError(
                    f"'{g}' is not allowed: as the dealer you may not make the guesses add up "
                    f"to the {top} tricks ({made} guessed so far); valid now: {valid}"
                )
            return g

        guess = Command("guess", f"guess {legal[0]}", f"the tricks you will take ({valid})", parse)
        self.prompt.say(self.hand_line())
        return GUESS_BASE + int(self.prompt.ask("How many tricks?", [guess], fallback=guess))

    def _ask_card(self, legal: list[int]) -> int:
        v = self.view
        assert v is not None
        options = cards_text(legal)

        def parse(text: str) -> int:
            c = parse_card(text)  # CardParseError names the token
            if c in legal:
                return c
            if not (v.hand >> c) & 1:
                raise IllegalActionError(
                    f"you do not hold {card_pretty(c)}; {text.strip()!r} is not one of "
                    f"your legal cards now: {options}"
                )
            led = v.trick[0] >> 3
            raise IllegalActionError(
                f"you must follow {_suit_cards(led)}; {text.strip()!r} is not one of your "
                f"legal cards now: {options}"
            )

        play = Command("play", f"play {card_str(legal[0])}", f"play a card ({options})", parse)
        self.prompt.say(self.hand_line())
        return int(self.prompt.ask("Your card?", [play], fallback=play))


class _SeatNarrator:
    """Tells the game as the human seats observe it (their observation stream only).

    One human seat: its own stream, its hand and its knowledge.  Several
    (hot-seat): the public events; each seat's hand appears at its prompt.
    """

    def __init__(self, params: Any, humans: Sequence[int], out: Any, names: Sequence[str]):
        self.params = params
        self.humans = tuple(humans)
        self.seat = self.humans[0]
        self.single = len(self.humans) == 1
        self.out = out
        self.names = list(names)
        self.view = SeatView(params, self.seat)
        self.model = GuessModel()
        self.rng_seed = 0
        self.shown_voids: set[tuple[int, int]] = set()

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def who(self, seat: int) -> str:
        return (
            f"{SEAT_NAMES[seat]} (you)" if self.single and seat == self.seat else SEAT_NAMES[seat]
        )

    def observe(self, obs: Observation, state: BoerenBridgeState) -> None:
        v = self.view
        led = v.trick[0] >> 3 if obs.kind == "play" and v.trick else None
        v.observe(obs)
        kind = obs.kind
        if kind == "round":
            self.say()
            self.say(
                f"Round {obs['round']}/{len(self.params.rounds)} · "
                f"{plural(obs['cards'], 'card')} · dealer {SEAT_NAMES[obs['dealer']]}"
            )
        elif kind == "hand":
            if self.single and obs["seat"] == self.seat and obs.get("cards") is not None:
                hand = sorted((parse_card(t) for t in obs["cards"]), reverse=True)
                self.say(f"  Your hand: {cards_text(hand)}")
        elif kind == "trump":
            card = obs.get("card")
            if obs["suit"] == "none":
                self.say("  no trump this round")
            elif card is not None:
                c = parse_card(card)
                self.say(f"  trump {SUIT_SYMBOLS[c >> 3]} (turned up {cards_text([c])})")
            else:
                self.say(f"  trump {SUIT_SYMBOLS[SUITS.index(obs['suit'])]} (drawn)")
            if self.single:
                self._count_line("deals you consider possible")
        elif kind == "guess":
            seat = obs.actor
            assert seat is not None
            made = [g for g in v.guesses if g is not None]
            self.say(
                f"{self.who(seat)} guesses {obs['guess']}  (guesses so far {sum(made)} of "
                f"{plural(v.cards, 'trick')})"
            )
            if self.single and seat != self.seat:
                exact, read = self._reading(seat)
                self.say(
                    f"  no deal ruled out; your reading of {SEAT_NAMES[seat]}'s high cards, "
                    f"exact → with the guess: {exact:.1f} → {read:.1f}"
                )
        elif kind == "play":
            seat = obs.actor
            assert seat is not None
            c = parse_card(obs["card"])
            note = ""
            if led is not None and c >> 3 != led:
                note = f"  — shows out of {SUIT_SYMBOLS[led]}"
                if self.single and seat == self.seat:
                    note += f" (now everyone knows you hold no {SUIT_NAMES[led]})"
            self.say(f"{self.who(seat)} plays {cards_text([c])}{note}")
            if self.single:
                self._play_knowledge()
        elif kind == "trick":
            w = obs["winner"]
            status = ", ".join(
                f"{SEAT_NAMES[s]} {v.tricks[s]}/{v.guesses[s]}" for s in range(v.players)
            )
            self.say(f"  trick to {self.who(w)} · tricks/guesses: {status}")
            rest = v.hand_size(self.seat)
            if self.single and 0 < rest <= 4 and state.phase == "play":
                p = make_guess_probability(state, self.seat, samples=12, seed=self.seat)
                self.say(f"  your chance to still force your guess: {p:.2f}")
        elif kind == "score":
            n = v.players
            self.say(
                "  round over · points: "
                + ", ".join(f"{SEAT_NAMES[s]} {obs['points'][s]:+d}" for s in range(n))
                + " · scores: "
                + ", ".join(f"{SEAT_NAMES[s]} {obs['scores'][s]}" for s in range(n))
            )

    def _reading(self, guesser: int) -> tuple[float, float]:
        import numpy as np

        v = self.view
        self.rng_seed += 1
        deals = v.sample_hands(200, np.random.default_rng(self.rng_seed))
        highs = [self.model.estimate(h[guesser], v.trump) for h in deals]
        w = guess_weights(v, deals, self.model)
        return sum(highs) / len(highs), sum(x * y for x, y in zip(w, highs, strict=True))

    def _count_line(self, head: str) -> None:
        k = self.view.knowledge()
        self.say(f"  {head}: {big_number(k.count())}")

    def _play_knowledge(self) -> None:
        v = self.view
        k = v.knowledge()
        m = k.marginals()
        hidden = cards_of(v.unseen())
        sure = sum(1 for c in hidden if m[c].max() > 1 - 1e-9)
        voids = []
        for p in range(v.players):
            suits = "".join(
                SUIT_SYMBOLS[x] for x in range(4) if p != self.seat and v.voids[p] >> x & 1
            )
            if suits:
                voids.append(f"{SEAT_NAMES[p]} {suits}")
        extra = f" · you know voids: {', '.join(voids)}" if voids else ""
        count = k.count()
        self.say(
            f"  you: {big_number(count)} deal{'' if count == 1 else 's'} possible · sure where "
            f"{sure}/{len(hidden)} unseen cards are{extra}"
        )

    def finish(self, state: BoerenBridgeState) -> None:
        self.say()
        self.say("End of the game: every card the others held was played face up;")
        undealt = sorted(state.undealt(), reverse=True)
        self.say(
            "  the cards nobody held in the last round were: "
            + (cards_text(undealt) if undealt else "(none)")
        )


def narrate(args: Any, out: Any) -> int:
    """``kripke play boerenbridge``: a narrated game, watched or played.

    ``--bots`` names one bot per seat (default ``sampling,knowledge,greedy,random``),
    ``--human k`` lets you play seat ``k`` at the terminal (seen from that
    seat only: your hand, the public events, your knowledge; several
    ``--human`` seats share the terminal), ``--quiet`` prints the result only;
    ``--variant lamas``, ``--players 3`` and ``--param KEY=VALUE`` choose the
    game.  Without a human seat the spectator sees every hand.
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
    humans = human_seats(args, n)
    stdin = getattr(args, "stdin", None) or sys.stdin
    prompt = Prompt(stdin, out, hot_seat=len(humans) > 1, names=lambda s: SEAT_NAMES[s])
    bots: list[Any] = []
    for s in range(n):
        if s in humans:
            label = f"{SEAT_NAMES[s]} (you)" if len(humans) == 1 else SEAT_NAMES[s]
            bots.append(HumanBot(prompt, label))
            names[s] = "you" if len(humans) == 1 else "human"
        else:
            bots.append(make_bot("boerenbridge", names[s], seed=seed * 100 + s))
    quiet = bool(getattr(args, "quiet", False))
    state = game.new_initial_state()
    for s, b in enumerate(bots):
        b.restart(game, s)
    rng = random.Random(seed)
    sink = out if not quiet else _Null()
    nar = _Narrator(state, sink, names)
    seat_nar = _SeatNarrator(game.params, humans, sink, names) if humans else None
    p = game.params
    if seat_nar is None:
        nar.say("Spectator view: all hands shown, with every seat's knowledge.")
    elif len(humans) == 1:
        nar.say(
            f"You play {SEAT_NAMES[humans[0]]}: you see your hand, the public events and your "
            "own knowledge; the others' cards appear as they are played."
        )
    else:
        nar.say(
            "Hot-seat: " + ", ".join(SEAT_NAMES[s] for s in humans) + " share this terminal; "
            "each seat's hand appears at its prompt (the others look away)."
        )
    nar.say(
        f"BoerenBridge ({p.variant}, {n} players, rounds {' '.join(map(str, p.rounds))}), "
        f"seed {seed} · " + ", ".join(f"{SEAT_NAMES[s]} {names[s]}" for s in range(n))
    )
    nar.say(
        "Rules: guess how many tricks you will take; follow suit when you can; trump beats "
        "the other suits; the dealer may not make the guesses add up to the cards dealt. A "
        "right guess scores 10 + 2 per trick, a wrong one -2 per trick off."
    )
    seen = [0] * n
    rounds_done = 0
    while not state.is_terminal():
        for s, b in enumerate(bots):
            obs = state.observations(s)
            while seen[s] < len(obs):
                b.inform(obs[seen[s]])
                if seat_nar is not None and s == seat_nar.seat and not quiet:
                    seat_nar.observe(obs[seen[s]], state)
                seen[s] += 1
        cur = state.current_player()
        if cur == CHANCE:
            state.apply_action(sample_chance(state, rng))
            if (
                seat_nar is None
                and state.phase == "guess"
                and all(g is None for g in state.guesses)
            ):
                nar.round_start()
            continue
        action = bots[cur].step(state.legal_actions(cur))
        led = state.current_trick[0] >> 3 if state.current_trick else None
        state.apply_action(action)
        if seat_nar is not None:
            continue
        if action >= GUESS_BASE:
            nar.guessed(cur, action - GUESS_BASE)
            continue
        if len(state.records) > rounds_done:  # the last card of the round
            rounds_done = len(state.records)
            nar.say(f"{SEAT_NAMES[cur]} plays {cards_text([action])}")
            nar.round_done(state.records[-1])
            continue
        nar.played(cur, action, led)
        if not state.current_trick:
            nar.trick_done()
    if seat_nar is not None and not quiet:
        for s in range(n):
            obs = state.observations(s)
            while seen[s] < len(obs):
                if s == seat_nar.seat:
                    seat_nar.observe(obs[seen[s]], state)
                seen[s] += 1
        seat_nar.finish(state)
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
