"""BS at the terminal: a human seat and the narrated game (``kripke play bs``)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, TextIO

from games.base import CHANCE, TERMINAL, Bot, Game, Observation, sample_chance
from games.bs.knowledge import SeatKnowledge, _big
from games.bs.rules import CALL, PASS
from games.bs.state import BSGame, BSState, _make_game
from games.errors import BotError, CardParseError, IllegalActionError, InvalidParameterError

__all__ = ["HumanBot", "narrate"]

# ================================================================ narration
#: The narrator's table: the two knowledge-driven bots against a liar and a random player.
_DEFAULT_BOTS = ("probabilistic", "knowledge", "liar", "random")


class HumanBot(Bot):
    """A seat played at the terminal: shows the hand and reads ``play 7H 7S``, ``pass`` or ``call``."""

    name = "human"

    def __init__(
        self, seed: int | None = None, *, stdin: TextIO | None = None, out: TextIO | None = None
    ):
        super().__init__(seed)
        self._in = stdin or sys.stdin
        self._out = out or sys.stdout

    def restart(self, game: Game, seat: int) -> None:
        super().restart(game, seat)
        assert isinstance(game, BSGame)
        self.g = game
        self.view = SeatKnowledge(game, seat)

    def inform(self, observation: Observation) -> None:
        self.view.observe(observation)

    def step(self, legal_actions: Sequence[int]) -> int:
        v, g = self.view, self.g
        hand = " ".join(g.deck.name(k) for k, c in enumerate(v.hand) for _ in range(c))
        while True:
            if len(legal_actions) == 2 and legal_actions[0] == PASS:
                assert v.last is not None
                p, rank, cnt = v.last
                prompt = f"P{p} claims {g.rank_text(rank, cnt)}. Call BS? [call/pass] "
            elif not g.koth and v.plays == 0:
                prompt = (
                    f"Your hand: {hand}\nLay one card face up (e.g. 'play {hand.split()[0]}'): "
                )
            else:
                prompt = f"Your hand: {hand}\nYou must claim {g.rank_labels[v.required]}s. Play: "
            print(prompt, end="", file=self._out, flush=True)
            line = self._in.readline()
            if not line:
                raise BotError(f"P{self.seat}: no more input at the terminal")
            try:
                raw = line.strip()
                text = raw.lower()
                if text in ("pass", "no", "n"):
                    action = PASS
                elif text in ("call", "bs", "yes", "y", "call bs"):
                    action = CALL
                else:
                    action = g.play_action(raw[4:] if text.startswith("play") else raw)
                if action in legal_actions:
                    return action
                print("  that is not legal here", file=self._out)
            except (CardParseError, IllegalActionError) as exc:
                print(f"  {exc}", file=self._out)


def narrate(args: Any, out: TextIO) -> int:
    """``kripke play bs``: a narrated game with every seat's knowledge after each event.

    Each play is shown with its true cards; after it, every other seat's
    view of the claim (``knows it is a lie`` or its exact probability that
    the claim cannot be honest); then the calls, the revealed cards, who
    takes the pile, and how many cards each seat now knows the place of.
    Every seat's knowledge comes from that seat's observations only.
    """
    import random as _random

    from games.base import make_bot

    params: dict[str, Any] = dict(getattr(args, "params", {}) or {})
    game = _make_game(getattr(args, "variant", None), getattr(args, "players", None), **params)
    n = game.num_players()
    names = (
        [b.strip() for b in args.bots.split(",") if b.strip()]
        if getattr(args, "bots", None)
        else [_DEFAULT_BOTS[i % len(_DEFAULT_BOTS)] for i in range(n)]
    )
    if len(names) != n:
        raise InvalidParameterError(f"--bots names {len(names)} bots for {n} seats")
    seed = int(getattr(args, "seed", 0) or 0)
    human = getattr(args, "human", None)
    quiet = bool(getattr(args, "quiet", False))
    bots: list[Bot] = []
    for s, name in enumerate(names):
        if human is not None and s == human:
            bots.append(HumanBot(seed, out=out))
            names[s] = "you"
        else:
            bots.append(make_bot("bs", name, seed=seed * 31 + s))
    if human is not None and not 0 <= human < n:
        raise InvalidParameterError(f"--human {human} is not a seat (0..{n - 1})")
    narrator = _Narrator(game, names, out, quiet)
    rng = _random.Random(seed)
    state = game.new_initial_state()
    for s, b in enumerate(bots):
        b.restart(game, s)
    seen = [0] * n
    while True:
        for s, b in enumerate(bots):
            obs = state.observations(s)
            while seen[s] < len(obs):
                b.inform(obs[seen[s]])
                narrator.seat_observes(s, obs[seen[s]])
                seen[s] += 1
        narrator.flush(state)
        cur = state.current_player()
        if cur == TERMINAL:
            break
        if cur == CHANCE:
            action = sample_chance(state, rng)
        else:
            action = bots[cur].step(state.legal_actions(cur))
            narrator.decision(state, cur, action)
        state.apply_action(action)
    narrator.finish(state)
    return 0


class _Narrator:
    """Writes the game as it happens, with every seat's knowledge."""

    def __init__(self, game: BSGame, names: Sequence[str], out: TextIO, quiet: bool):
        self.g = game
        self.names = list(names)
        self.out = out
        self.quiet = quiet
        n = game.num_players()
        self.views = [SeatKnowledge(game, s, exact=not quiet) for s in range(n)]
        self.pending: list[Observation] = []
        self.callers: list[int] = []
        self.round = -1

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, file=self.out)

    def who(self, s: int) -> str:
        return f"P{s}"

    def seat_observes(self, seat: int, obs: Observation) -> None:
        self.views[seat].observe(obs)
        if seat == 0 or (obs.public and seat != 0):
            if seat == 0:
                self.pending.append(obs)

    def decision(self, state: BSState, seat: int, action: int) -> None:
        if state.phase == "call" and action == CALL:
            self.callers.append(seat)

    def flush(self, state: BSState) -> None:
        """Narrate the events seat 0 has observed since the last call (public or its own)."""
        if self.quiet:
            self.pending = []
            return
        for obs in self.pending:
            self._event(state, obs)
        self.pending = []

    def _event(self, state: BSState, obs: Observation) -> None:
        g = self.g
        kind = obs.kind
        if kind == "order":
            seats = ", ".join(f"{self.who(s)} ({self.names[s]})" for s in range(len(self.names)))
            self.say(f"BS, variant {g.params.variant}: {seats}")
            self.say("Turn order (chance): " + " ".join(self.who(s) for s in obs["order"]))
        elif kind == "deal":
            self.say(f"Dealt {obs['sizes'][0]} cards each:")
            for s, h in enumerate(state.hands if state.phase != "deal" else []):
                self.say(f"  {self.who(s)}: {' '.join(h)}")
        elif kind == "first":
            assert obs.actor is not None
            nxt = g.rank_labels[(g.rank_labels.index(obs["rank"]) + 1) % 13]
            self.say(f"{self.who(obs.actor)} lays {obs['card']} face up; the next claim is {nxt}s.")
        elif kind == "play":
            self._play(state, obs)
        elif kind == "nocall":
            n = obs["pile"]
            self.say(f"    no call; the pile has {n} card{'s' if n != 1 else ''}")
            self._knowledge_line()
        elif kind == "call":
            self._call(obs)
        elif kind == "penalty":
            c = obs.actor
            # the caller's own copy of this event (later events may follow it)
            mine = (
                [o for o in self.views[c].history if o.kind == "penalty"] if c is not None else []
            )
            card = mine[-1]["card"] if mine else "?"
            article = "an" if str(card)[:1] in ("8", "A") or str(card) in ("11",) else "a"
            self.say(
                f"    {self.who(c)} puts one random card face down on the new pile "  # type: ignore[arg-type]
                f"({article} {card}, seen only by {self.who(c)})"  # type: ignore[arg-type]
            )
            self._knowledge_line()
        elif kind == "end":
            w = obs.actor
            if w is None:
                self.say(f"No winner after {obs['rounds']} rounds.")

    def _play(self, state: BSState, obs: Observation) -> None:
        g = self.g
        p = obs.actor
        assert p is not None
        v = self.views[p]
        rnd = v.plays // len(self.names) + 1
        if rnd != self.round:
            self.round = rnd
            self.say(f"Round {rnd}")
        cnt = obs["count"]
        rank = g.rank_labels.index(obs["rank"])
        truth = self.views[p].history[-1].get("cards") or ()
        honest = all(g.rank_of[g.deck.index(c)] == rank for c in truth)
        tag = "honest" if honest else "a lie"
        self.say(
            f"  {self.who(p)} claims {g.rank_text(rank, cnt)} "
            f"(really {' '.join(truth)}: {tag}); {obs['hand']} cards left"
        )
        parts = []
        for s, view in enumerate(self.views):
            if s == p:
                continue
            if view.knows_lie():
                parts.append(f"{self.who(s)} knows {self.who(p)}'s claim is a lie")
            else:
                parts.append(f"{self.who(s)}: P(lie) = {view.lie_probability():.2f}")
        self.say("    " + "; ".join(parts))
        self.callers = []

    def _call(self, obs: Observation) -> None:
        p = obs.actor
        callers = list(obs["callers"])
        caller = obs["caller"]
        if len(callers) > 1:
            which = "chance picks" if self.g.koth else "first in turn order:"
            self.say(
                "    BS! called by "
                + ", ".join(self.who(c) for c in callers)
                + f"; {which} {self.who(caller)}"
            )
        else:
            self.say(f"    BS! {self.who(caller)} calls")
        taker = obs["taker"]
        verdict = f"{self.who(p)} lied" if obs["lie"] else f"{self.who(p)} told the truth"  # type: ignore[arg-type]
        self.say(
            f"    revealed {' '.join(obs['cards'])}: {verdict}; "
            f"{self.who(taker)} takes the pile ({obs['taken']} cards)"
        )
        if not (obs["lie"] and self.g.koth):
            self._knowledge_line()

    def _knowledge_line(self) -> None:
        parts = []
        for s, view in enumerate(self.views):
            kn = view.knowledge
            if kn is None:
                continue
            parts.append(f"{self.who(s)} {_big(kn.count())}")
        if parts:
            self.say("    deals each seat still considers possible: " + ", ".join(parts))

    def finish(self, state: BSState) -> None:
        w = state.winner
        if w is None:
            print(f"Result: no winner ({state.rounds} rounds)", file=self.out)
        else:
            print(
                f"Result: {self.who(w)} ({self.names[w]}) wins after {state.rounds + 1} rounds",
                file=self.out,
            )
