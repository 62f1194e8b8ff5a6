"""BS at the terminal: human seats and the narrated game (``kripke play bs``).

Without ``--human`` the bots play and a spectator sees everything: every
hand, what each claim really was, and every seat's knowledge after each
event.  With ``--human SEAT`` (several seats: hot-seat at one terminal) the
narration shows exactly what the human seat observes: its own hand, the
public events (claims, calls, revealed cards, who takes the pile) and the
cards the rules show it (the pile it takes, its own penalty card).  The
bots' hands and the truth of unchecked claims appear at the end of the game.
Every knowledge line then is the human seat's own: its probability that a
claim is a lie, the deals it still considers possible, and, after its own
claim, its chance that each other seat can prove the claim false.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from games.base import CHANCE, TERMINAL, Bot, Game, Observation, make_bot, sample_chance
from games.bs.knowledge import SeatKnowledge
from games.bs.rules import CALL, PASS
from games.bs.state import BSGame, BSState, _make_game
from games.errors import BotError, IllegalActionError, InvalidParameterError
from games.prompt import (
    Command,
    InputClosedError,
    Prompt,
    big_number,
    human_seats,
    plural,
)

__all__ = ["HumanBot", "narrate", "KOTH_CARD_NAMES", "claim_text", "cards_text"]

#: The narrator's table: the two knowledge-driven bots against a liar and a random player.
_DEFAULT_BOTS = ("probabilistic", "knowledge", "liar", "random")

#: The card of a normal deck behind each koth rank 0–12, in the tournament's own order
#: ("labeled 2 - 10, Ace, Jack, Queen, King … with a number from 0 - 12").
KOTH_CARD_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A", "J", "Q", "K")

_WORDS = "zero one two three four five six seven eight nine ten eleven twelve thirteen".split()

#: The data each event keeps from the seats outside its audience (hot-seat narration).
_HIDDEN = {"hand": "cards", "play": "cards", "call": "pile", "penalty": "card"}


def _has(obs: Observation, key: str) -> bool:
    return any(k == key for k, _ in obs.data)


def cards_text(cards: Sequence[str]) -> str:
    """Cards in their canonical text, space-separated (every card the table prints)."""
    return " ".join(cards)


def _rank_name(game: BSGame, rank: int, count: int) -> str:
    lab = game.rank_labels[rank]
    word = lab + ("s" if count != 1 else "")
    if game.koth:
        card = KOTH_CARD_NAMES[rank]
        article = "an" if card in ("8", "A") else "a"
        word += f" ({article} {card})" if count == 1 else f" ({card}s)"
    return word


def _only(game: BSGame, rank: int, copies: int) -> str:
    return f"there are only {copies} cards of rank {_rank_name(game, rank, 1)}"


def claim_text(game: BSGame, rank: int, count: int) -> str:
    """``"three 7s"``; koth ranks name the normal card too: ``"three 1s (3s)"``.

    Examples
    --------
    >>> from games.base import load_game
    >>> claim_text(load_game("bs", variant="koth"), 9, 1)
    'one 9 (an A)'
    >>> claim_text(load_game("bs"), 5, 13)
    'thirteen 7s'
    """
    num = _WORDS[count] if count < len(_WORDS) else str(count)
    return f"{num} {_rank_name(game, rank, count)}"


def _rules_reminder(game: BSGame) -> list[str]:
    if game.koth:
        ranks = " ".join(f"{r}={KOTH_CARD_NAMES[r]}" for r in range(13))
        return [
            "Rules: lose all your cards. Each turn the player puts cards face down and claims",
            "  they are all of the required rank (0, 1, …, 12, 0, …); the count is true, the",
            "  rank may be a lie. Anyone may call BS: a caught liar takes the pile and the",
            "  caller puts one random card of its own face down on the new pile; a wrong",
            "  caller takes the pile.",
            "  Ranks are numbered as in the tournament rules; the cards they stand for:",
            f"  {ranks}.",
        ]
    return [
        "Rules: lose all your cards. The first player lays one card face up; then each",
        "  player puts cards face down claiming the next rank (2 3 … 10 J Q K A 2 …); the",
        "  count is true, the rank may be a lie. Anyone may call BS: a caught liar takes",
        "  the pile, a wrong caller takes it.",
    ]


# ================================================================ the human seat
class HumanBot(Bot):
    """A seat played at the terminal: shows the hand and reads ``play 7H 7S``, ``yes`` or ``no``.

    It knows only its seat's observations (``inform``) and asks through a
    :class:`~games.prompt.Prompt` (``help`` lists the commands valid now).
    """

    name = "human"

    def __init__(
        self,
        seed: int | None = None,
        *,
        stdin: TextIO | None = None,
        out: TextIO | None = None,
        prompt: Prompt | None = None,
    ):
        super().__init__(seed)
        self.prompt = prompt or Prompt(stdin or sys.stdin, out or sys.stdout)

    def restart(self, game: Game, seat: int) -> None:
        super().restart(game, seat)
        if not isinstance(game, BSGame):
            raise InvalidParameterError(f"HumanBot plays BS, not {game!r}")
        self.g = game
        self.view = SeatKnowledge(game, seat)
        self.shown = ""
        #: hot-seat: the seat's exact knowledge, told at its own prompt
        self.knowing: SeatKnowledge | None = None

    def inform(self, observation: Observation) -> None:
        self.view.observe(observation)

    def hand_text(self) -> str:
        """The seat's hand, from its own observations."""
        v, g = self.view, self.g
        return cards_text([g.deck.name(k) for k, c in enumerate(v.hand) for _ in range(c)])

    def step(self, legal_actions: Sequence[int]) -> int:
        v, g, pr = self.view, self.g, self.prompt
        try:
            if len(legal_actions) == 2 and legal_actions[0] == PASS:
                assert v.last is not None
                p, rank, cnt = v.last
                if pr.handover(self.seat) or self.hand_text() != self.shown:
                    self.shown = self.hand_text()
                    pr.say(f"Your hand: {self.shown}")
                kv = self.knowing
                if kv is not None and kv.knowledge is not None and kv.last is not None:
                    odds = kv.lie_probability()
                    pr.say(
                        "you know it is a lie" if kv.knows_lie() else f"your P(lie) = {odds:.2f}"
                    )
                yes = Command("yes", "yes", "call BS", value=CALL, aliases=("y", "call", "bs"))
                no = Command("no", "no", "let the claim stand", value=PASS, aliases=("n", "pass"))
                return int(
                    pr.ask(
                        f"P{p} claims {claim_text(g, rank, cnt)}. Call BS?",
                        [yes, no],
                        seat=self.seat,
                    )
                )
            pr.handover(self.seat)
            hand = self.shown = self.hand_text()
            first = not g.koth and v.plays == 0
            if first:
                question = f"Your hand: {hand}\nLay one card face up:"
                example, what = f"play {hand.split()[0]}", "lay this card face up"
            else:
                need = _rank_name(g, v.required, 2)
                question = f"Your hand: {hand}\nYou must claim {need}. Play:"
                example, what = f"play {hand.split()[0]}", "put these cards face down"

            def parse(text: str) -> int:
                return self._play(text, first, legal_actions)

            play = Command("play", example, what, parse=parse)
            return int(pr.ask(question, [play], fallback=play, seat=self.seat))
        except InputClosedError as exc:
            raise BotError(f"P{self.seat}: {exc}") from None

    def _play(self, text: str, first: bool, legal_actions: Sequence[int]) -> int:
        g, v = self.g, self.view
        if not text.strip():
            raise IllegalActionError("name the cards to play, e.g. 'play 7H 7S'")
        kinds = g.deck.kinds(text)  # CardParseError names a bad card
        held = list(v.hand)
        for k in kinds:
            if held[k] == 0:
                mine = "none" if not v.hand[k] else f"only {v.hand[k]}"
                raise IllegalActionError(f"you hold {mine} of {g.deck.name(k)!r}")
            held[k] -= 1
        if first and len(kinds) != 1:
            raise IllegalActionError(f"lay exactly one card face up, not {len(kinds)}")
        action = g.play_action(text)
        if action not in legal_actions:
            raise IllegalActionError(f"{text.strip()!r} is not a legal play now")
        return action


# ================================================================ narration
def narrate(args: Any, out: TextIO) -> int:
    """``kripke play bs``: a narrated game, watched or played.

    Without ``--human``, a spectator view: every hand and claim, each other
    seat's view of the claim (``knows it is a lie`` or its exact probability
    that the claim cannot be honest), calls, revealed cards, who takes the
    pile and how many deals each seat still considers possible.  With
    ``--human SEAT`` the narration shows only that seat's observations and
    knowledge (several seats: hot-seat, public events only, each seat's
    private cards at its own prompt).
    """
    params: dict[str, Any] = dict(getattr(args, "params", {}) or {})
    game = _make_game(getattr(args, "variant", None), getattr(args, "players", None), **params)
    n = game.num_players()
    names = (
        [b.strip() for b in args.bots.split(",") if b.strip()]
        if getattr(args, "bots", None)
        else [_DEFAULT_BOTS[i % len(_DEFAULT_BOTS)] for i in range(n)]
    )
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise InvalidParameterError(f"--bots names {len(names)} bots for {n} seats")
    seed = int(getattr(args, "seed", 0) or 0)
    humans = human_seats(args, n)
    quiet = bool(getattr(args, "quiet", False))
    stdin = getattr(args, "stdin", None) or sys.stdin
    prompt = Prompt(stdin, out, hot_seat=len(humans) > 1)
    bots: list[Bot] = []
    for s, name in enumerate(names):
        if s in humans:
            bots.append(HumanBot(seed, prompt=prompt))
            names[s] = "you" if len(humans) == 1 else "human"
        else:
            bots.append(make_bot("bs", name, seed=seed * 31 + s))
    narrator = _Narrator(game, names, out, quiet, humans=humans)
    rng = random.Random(seed)
    state = game.new_initial_state()
    for s, b in enumerate(bots):
        b.restart(game, s)
    for s in humans if len(humans) > 1 else ():
        human = bots[s]
        assert isinstance(human, HumanBot)
        human.knowing = narrator.views[s]
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
    """Writes the game as it happens: a spectator's view, or the human seats' view.

    ``humans`` empty: the spectator sees everything (every seat's knowledge).
    One human seat: its own observation stream is told, with its knowledge.
    Several: the public part of the events is told; each seat's private
    cards appear at its own prompt (:class:`HumanBot`).
    """

    def __init__(
        self,
        game: BSGame,
        names: Sequence[str],
        out: TextIO,
        quiet: bool,
        humans: Sequence[int] = (),
    ):
        self.g = game
        self.names = list(names)
        self.out = out
        self.quiet = quiet
        self.humans = tuple(humans)
        n = game.num_players()
        #: the seat whose observation stream is told
        self.teller = self.humans[0] if self.humans else 0
        #: the seats whose knowledge is shown (every seat for a spectator)
        self.knowers = tuple(range(n)) if not self.humans else self.humans
        exact = not quiet
        self.views = [SeatKnowledge(game, s, exact=exact and s in self.knowers) for s in range(n)]
        self.pending: list[Observation] = []
        self.callers: list[int] = []
        self.round = -1
        self.counts: dict[int, int] = {}
        self.told_rise = False
        self.unchecked: dict[int, list[tuple[int, int, int]]] = {}  # seat -> claims
        self.plays_seen = [0] * n
        self.started = False

    @property
    def spectator(self) -> bool:
        return not self.humans

    @property
    def private(self) -> bool:
        """Whether the teller's private details may be told inline (one human or a spectator)."""
        return len(self.humans) <= 1

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, file=self.out)

    def who(self, s: int | None) -> str:
        if s is None:
            return "nobody"
        if len(self.humans) == 1 and s == self.humans[0]:
            return f"P{s} (you)"
        return f"P{s}"

    def only(self, s: int) -> str:
        return "you" if len(self.humans) == 1 and s == self.humans[0] else f"P{s}"

    def seat_observes(self, seat: int, obs: Observation) -> None:
        self.views[seat].observe(obs)
        if seat == self.teller:
            if not self.private and not obs.public and obs.kind in _HIDDEN:
                obs = Observation(
                    obs.kind,
                    obs.actor,
                    tuple(kv for kv in obs.data if kv[0] != _HIDDEN[obs.kind]),
                    obs.public,
                )
            self.pending.append(obs)

    def decision(self, state: BSState, seat: int, action: int) -> None:
        if state.phase == "call" and action == CALL:
            self.callers.append(seat)

    def flush(self, state: BSState) -> None:
        """Narrate the events the teller has observed since the last call."""
        if self.quiet:
            self.pending = []
            return
        for obs in self.pending:
            self._event(obs)
        self.pending = []

    # ------------------------------------------------------------- events
    def _header(self) -> None:
        g = self.g
        if self.spectator:
            self.say("Spectator view: all hands shown, and what every claim really is.")
        elif len(self.humans) == 1:
            self.say(
                f"You play P{self.humans[0]}: you see your hand, the public events and the "
                "cards the rules show you; the others' cards appear when a call reveals them, "
                "and all of them at the end."
            )
        else:
            seats = ", ".join(f"P{s}" for s in self.humans)
            self.say(
                f"Hot-seat: {seats} share this terminal. The table shows the public events; "
                "each seat's own cards appear at its prompt (the others look away)."
            )
        seats = ", ".join(f"P{s} ({self.names[s]})" for s in range(len(self.names)))
        self.say(f"BS, variant {g.params.variant}: {seats}")
        for line in _rules_reminder(g):
            self.say(line)

    def _event(self, obs: Observation) -> None:
        g = self.g
        kind = obs.kind
        if not self.started:
            self.started = True
            self._header()
        if kind == "order":
            self.say("Turn order (chance): " + " ".join(f"P{s}" for s in obs["order"]))
        elif kind == "deal":
            self.say(f"Dealt {plural(obs['sizes'][0], 'card')} each.")
        elif kind == "hand":
            if self.spectator:
                self.say(f"  {self.who(obs.actor)}: {cards_text(self._hand_of(obs.actor))}")
            elif obs.actor == self.teller and self.private and _has(obs, "cards"):
                self.say(f"  Your hand: {cards_text(obs['cards'])}")
        elif kind == "first":
            assert obs.actor is not None
            nxt = (g.rank_labels.index(obs["rank"]) + 1) % 13
            self.say(
                f"{self.who(obs.actor)} lays {cards_text([obs['card']])} face up; "
                f"the next claim is {_rank_name(g, nxt, 2)}."
            )
        elif kind == "play":
            self._play(obs)
        elif kind == "nocall":
            self.say(f"    no call; the pile has {plural(obs['pile'], 'card')}")
            self._knowledge_line()
        elif kind == "call":
            self._call(obs)
        elif kind == "penalty":
            self._penalty(obs)
        elif kind == "end":
            if obs.actor is None:
                self.say(f"No winner after {plural(obs['rounds'], 'round')}.")

    def _hand_of(self, seat: int | None) -> list[str]:
        """A spectator reads each seat's dealt hand from that seat's own observation."""
        assert seat is not None
        for o in self.views[seat].history:
            if o.kind == "hand" and o.actor == seat:
                return list(o["cards"])
        return []

    def _play(self, obs: Observation) -> None:
        g = self.g
        p = obs.actor
        assert p is not None
        self.plays_seen[p] += 1
        rnd = self.views[self.teller].plays // len(self.names) + 1
        if rnd != self.round:
            self.round = rnd
            self.say(f"Round {rnd}")
        cnt = obs["count"]
        rank = g.rank_labels.index(obs["rank"])
        truth: tuple[str, ...] | None = None
        if self.spectator:
            truth = tuple(self.views[p].history[-1].get("cards") or ())
        elif self.private and p == self.teller:
            truth = tuple(obs.get("cards") or ())
        line = f"  {self.who(p)} claims {claim_text(g, rank, cnt)}"
        if truth is not None:
            honest = all(g.rank_of[g.deck.index(c)] == rank for c in truth)
            line += f", really {cards_text(truth)}: {'honest' if honest else 'a lie'}"
        else:
            self.unchecked.setdefault(p, []).append((self.plays_seen[p], rank, cnt))
        self.say(f"{line}; {plural(obs['hand'], 'card')} left")
        self.callers = []
        if self.spectator:
            self._spectator_claim_knowledge(p, rank, cnt)
        elif self.private:
            self._seat_claim_knowledge(p, rank, cnt)

    def _spectator_claim_knowledge(self, p: int, rank: int, cnt: int) -> None:
        copies = sum(self.g.deck.copies[k] for k in self.g.kinds_of_rank[rank])
        if cnt > copies:
            self.say(f"    everyone knows it is a lie: {_only(self.g, rank, copies)}")
            return
        knowers, parts = [], []
        for s, view in enumerate(self.views):
            if s == p:
                continue
            if view.knows_lie():
                knowers.append(f"P{s}")
            else:
                parts.append(f"P{s}: P(lie) = {view.lie_probability():.2f}")
        if knowers:
            verb = "knows" if len(knowers) == 1 else "know"
            parts.append(f"{', '.join(knowers)} {verb} P{p}'s claim is a lie")
        self.say("    " + "; ".join(parts))

    def _seat_claim_knowledge(self, p: int, rank: int, cnt: int) -> None:
        me = self.teller
        view = self.views[me]
        g = self.g
        copies = sum(g.deck.copies[k] for k in g.kinds_of_rank[rank])
        if p != me:
            if cnt > copies:
                self.say(f"    you know it is a lie: {_only(g, rank, copies)}")
            elif view.knows_lie():
                self.say("    you know it is a lie")
            else:
                self.say(f"    your P(lie) = {view.lie_probability():.2f}")
            return
        if view.lie_probability() == 0.0:
            self.say("    honest: nobody can prove it false")
            return
        if cnt > copies:
            self.say(f"    a lie everyone can see: {_only(g, rank, copies)}")
            return
        kn = view.knowledge
        if kn is None:
            return
        need = copies - cnt + 1
        parts = []
        for s in range(len(self.names)):
            if s == me:
                continue
            dist = kn.count_distribution(g.kinds_of_rank[rank], f"P{s}")
            parts.append(f"P{s} {sum(dist[need:]):.2f}")
        self.say(
            f"    a lie; your chance that each seat holds enough "
            f"{_rank_name(g, rank, 2)} to know it: " + ", ".join(parts)
        )

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
        verdict = f"{self.who(p)} lied" if obs["lie"] else f"{self.who(p)} told the truth"
        self.say(
            f"    revealed {cards_text(obs['cards'])}: {verdict}; "
            f"{self.who(taker)} takes the pile ({plural(obs['taken'], 'card')})"
        )
        if p in self.unchecked and self.unchecked[p]:
            self.unchecked[p].pop()
        if _has(obs, "pile") and not self.spectator and taker == self.teller:
            self.say(f"    you pick up {cards_text(obs['pile'])}")
        if not (obs["lie"] and self.g.koth):
            self._knowledge_line()

    def _penalty(self, obs: Observation) -> None:
        c = obs.actor
        assert c is not None
        if self.spectator:
            mine = [o for o in self.views[c].history if o.kind == "penalty"]
            card: str | None = mine[-1]["card"] if mine else None
        else:
            card = obs.get("card")
        if card is not None:
            article = "an" if card[:1] in ("8", "A") or card == "11" else "a"
            seen = f" ({article} {cards_text([card])}, seen only by {self.only(c)})"
        else:
            seen = f" (seen only by {self.only(c)})"
        self.say(f"    {self.who(c)} puts one random card face down on the new pile{seen}")
        self._knowledge_line()

    def _knowledge_line(self) -> None:
        counts = {}
        for s in self.knowers if self.private else ():
            kn = self.views[s].knowledge
            if kn is not None:
                counts[s] = kn.count()
        if not counts or counts == self.counts:
            return
        rose = [s for s, c in counts.items() if c > self.counts.get(s, c)]
        parts = []
        for s, c in counts.items():
            mark = " (up)" if s in rose else ""
            parts.append((f"P{s} " if self.spectator else "") + big_number(c) + mark)
        self.counts = counts
        head = (
            "deals each seat still considers possible"
            if self.spectator
            else ("deals you still consider possible")
        )
        self.say(f"    {head}: " + ", ".join(parts))
        if rose and not self.told_rise:
            self.told_rise = True
            self.say(
                "    (a count goes up when face-down cards a seat did not see enter the pile:\n"
                "     every way to split the unseen cards between the hands and the pile is\n"
                "     one more possible deal)"
            )

    def finish(self, state: BSState) -> None:
        w = state.winner
        if not self.quiet and not self.spectator:
            self.say("End of the game: every hand revealed.")
            for s, hand in enumerate(state.hands):
                self.say(f"  {self.who(s)}: {cards_text(hand) or '(no cards)'}")
            self._reveal_claims(state)
        if w is None:
            print(f"Result: no winner ({plural(state.rounds, 'round')})", file=self.out)
        else:
            print(
                f"Result: P{w} ({self.names[w]}) wins after {plural(state.rounds + 1, 'round')}",
                file=self.out,
            )

    def _reveal_claims(self, state: BSState) -> None:
        """What each claim nobody checked really was (from each claimer's own record)."""
        g = self.g
        lines = []
        for p, claims in sorted(self.unchecked.items()):
            mine = [o for o in state.observations(p) if o.kind == "play" and o.actor == p]
            for idx, rank, cnt in claims:
                cards = tuple(mine[idx - 1]["cards"]) if idx - 1 < len(mine) else ()
                honest = all(g.rank_of[g.deck.index(c)] == rank for c in cards)
                lines.append(
                    f"  P{p}, claim {idx}: {claim_text(g, rank, cnt)}; really "
                    f"{cards_text(cards)}: {'honest' if honest else 'a lie'}"
                )
        if lines:
            self.say("Claims nobody checked, as they really were:")
            for line in lines:
                self.say(line)
