"""BS-ZPY at the terminal: the narrated game (``kripke play bs-zpy``)."""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from typing import Any, TextIO

from games.base import CHANCE, TERMINAL, Bot, Observation, make_bot, sample_chance
from games.bs_zpy.knowledge import SeatKnowledge
from games.bs_zpy.state import BSZPYGame, BSZPYState
from games.errors import InvalidParameterError
from games.shengji.rules.cards import (
    card,
    format_cards,
)
from games.shengji.rules.friends import FriendSlot

__all__ = [
    "Narrator",
    "narrate",
]

# ================================================================ narration
#: Events the narrator tells (their public part).
_TOLD = frozenset(
    """bid redeal trump bury friends claim call nocall silent peanut_butter reveal penalty
    trick join round_end setup""".split()
)


def _say_cards(cards: Sequence[int]) -> str:
    return format_cards(cards) if cards else "nothing"


class Narrator:
    """Narrates a BS-ZPY game from the public events, with every seat's knowledge.

    After each claim it says, for every other seat, whether it knows the
    claim is false or how likely the claim can be true (exact, from that
    seat's deal knowledge); after the friend declaration and each join, who
    each seat thinks holds the friend card.
    """

    def __init__(
        self, game: BSZPYGame, out: TextIO, names: Sequence[str] = (), knowledge: bool = True
    ):
        self.game = game
        self.n = game.num_players()
        self.out = out
        self.names = list(names)
        self.show_knowledge = knowledge
        self.know = [SeatKnowledge(game.rules, s, deal=knowledge) for s in range(self.n)]
        self.seen = [0] * self.n

    def who(self, seat: int | None) -> str:
        if seat is None:
            return "the table"
        if self.names:
            return f"P{seat} ({self.names[seat]})"
        return f"P{seat}"

    def say(self, text: str) -> None:
        print(text, file=self.out)

    def feed(self, state: BSZPYState) -> None:
        """Pass new observations to every seat's knowledge; narrate the public ones once."""
        public: list[Observation] = []
        for s in range(self.n):
            obs = state.observations(s)
            while self.seen[s] < len(obs):
                o = obs[self.seen[s]]
                self.seen[s] += 1
                self.know[s].update(o)
                if s == 0 and o.kind in _TOLD:
                    public.append(o)
        for o in public:
            self.event(o)

    def event(self, o: Observation) -> None:
        k, a = o.kind, o.actor
        if k == "bid":
            self.say(f"{self.who(a)} bids {o['count']} x {o['card']}.")
        elif k == "redeal":
            self.say("Nobody bid: the cards are dealt again.")
        elif k == "trump":
            suit = o["suit"]
            self.say(
                f"{self.who(a)} is the dictator; trump: {o['rank']}"
                + (" (no trump suit)." if suit == "none" else f" of {suit}.")
            )
        elif k == "bury":
            self.say(f"{self.who(a)} buries {o.get('count', 0)} cards.")
        elif k == "setup":
            self.say(f"A hand-made position: {o['size']} cards each, {o['kitty']} in the kitty.")
        elif k == "friends":
            slots = ", ".join(str(FriendSlot(card(c), n)) for c, n in o["slots"])
            self.say(f"{self.who(a)} calls for friends: {slots}.")
            self._friend_knowledge()
        elif k == "claim":
            verb = "leads" if o["lead"] else "plays"
            self.say(
                f"{self.who(a)} {verb} {o['count']} card(s) face down, claiming {_say_cards(o['claim'])}."
            )
            self._claim_knowledge(a)
        elif k == "call":
            others = [c for c in o["callers"] if c != o["caller"]]
            also = (
                f" ({', '.join(self.who(c) for c in others)} wanted to call too)" if others else ""
            )
            self.say(f"  {self.who(o['caller'])} calls BS!{also}")
        elif k == "nocall":
            if not o["allowed"]:
                self.say("  Everyone before was caught lying: nobody may call.")
        elif k == "silent":
            self.say("  No call. The claim stands, and it was true.")
        elif k == "peanut_butter":
            self.say(
                f'  No call. {self.who(a)} says "peanut butter": the claim was false '
                "(everyone knows it now, but not what the cards are)."
            )
        elif k == "reveal":
            if o["truthful"]:
                self.say(f"  Revealed: {_say_cards(o['cards'])}. The claim was true.")
            else:
                why = "" if o["valid"] else f" (invalid: {o['violation']})"
                self.say(f"  Revealed: {_say_cards(o['cards'])}. Caught lying{why}.")
                if o["returned"]:
                    self.say(
                        f"  {self.who(a)} keeps {_say_cards(o['kept'])} and takes back "
                        f"{_say_cards(o['returned'])}."
                    )
        elif k == "penalty":
            if o["cards"]:
                self.say(
                    f"  {self.who(a)} gives {o['cards']} random card(s) of its winnings pile to "
                    f"{self.who(o['to'])}."
                )
            else:
                self.say(f"  {self.who(a)} has no winnings: it loses {o['points']} points.")
        elif k == "trick":
            self.say(f"  {self.who(a)} wins the trick ({o['cards']} cards to its winnings pile).")
        elif k == "join":
            extra = " (already on the team)" if o["already"] else ""
            self.say(f"  {self.who(a)} joins the dictator's team{extra}.")
            self._friend_knowledge()
        elif k == "round_end":
            team = ", ".join(self.who(s) for s in o["team"])
            self.say(
                f"Round over. Kitty {format_cards(o['kitty'])} gives {o['kitty_points']} points to "
                f"the last trick. Dictator's team ({team}): {o['dictator_score']}; attackers: "
                f"{o['attacking_score']}. δ = {o['delta']}: {o['result']}."
            )
            self.say("Ranks: " + ", ".join(f"{self.who(s)} {r}" for s, r in enumerate(o["ranks"])))

    def _claim_knowledge(self, claimer: int | None) -> None:
        if not self.show_knowledge:
            return
        chances, knowers = [], []
        for s in range(self.n):
            if s == claimer:
                continue
            odds = self.know[s].claim_odds()
            if odds.knows_false:
                knowers.append(self.who(s))
            else:
                chances.append(f"{self.who(s)} {odds.probability:.2f}")
        parts = []
        if chances:
            parts.append("chance the claim can be true: " + ", ".join(chances))
        if knowers:
            parts.append(
                ", ".join(knowers) + (" know" if len(knowers) > 1 else " knows") + " it is false"
            )
        self.say("  " + "; ".join(parts))

    def _friend_knowledge(self) -> None:
        if not self.show_knowledge:
            return
        for s in range(self.n):
            kn = self.know[s]
            for slot in kn.open_slots():
                try:
                    holder = kn.knows_holder(slot.card)
                    hands = {loc: p for loc, p in kn.holders(slot.card).items() if loc != "played"}
                except MemoryError:
                    self.say(f"  ({self.who(s)}: the deal engine ran out of memory on this query)")
                    continue
                if holder == f"P{s}":
                    self.say(f"  {self.who(s)} holds {slot.card} itself.")
                elif holder is not None:
                    self.say(f"  {self.who(s)} knows {holder} holds {slot.card}.")
                else:
                    where = ", ".join(f"{loc} {p:.2f}" for loc, p in hands.items())
                    self.say(f"  {self.who(s)} does not know who holds {slot.card} ({where}).")


def narrate(args: Any, out: TextIO) -> int:
    """``kripke play bs-zpy``: a narrated bot game with every seat's knowledge after each event."""
    params = dict(getattr(args, "params", {}) or {})
    variant = getattr(args, "variant", None)
    if variant is not None:
        params["variant"] = variant
    players = getattr(args, "players", None)
    if players is not None:
        params["players"] = players
    if getattr(args, "human", None) is not None:
        raise InvalidParameterError(
            "kripke play bs-zpy narrates a game between bots; --human is not available"
        )
    game = BSZPYGame(**params)
    n = game.num_players()
    default = ["probabilistic", "bluffer", "knowledge", "truthful", "bluffer"]
    text = getattr(args, "bots", None)
    names = text.split(",") if text else [default[s % len(default)] for s in range(n)]
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise InvalidParameterError(f"--bots needs 1 or {n} names, got {len(names)}")
    seed = int(getattr(args, "seed", 0) or 0)
    bots: list[Bot] = [
        make_bot("bs-zpy", name, seed=seed * 100 + s) for s, name in enumerate(names)
    ]
    quiet = bool(getattr(args, "quiet", False))
    sink: TextIO = out if not quiet else io.StringIO()
    narrator = Narrator(game, sink, names, knowledge=not quiet)
    state = game.new_initial_state()
    for s, b in enumerate(bots):
        b.restart(game, s)
    rng = random.Random(seed)
    seen = [0] * n
    while True:
        narrator.feed(state)
        for s, b in enumerate(bots):
            obs = state.observations(s)
            while seen[s] < len(obs):
                b.inform(obs[seen[s]])
                seen[s] += 1
        cur = state.current_player()
        if cur == TERMINAL:
            break
        if cur == CHANCE:
            action = sample_chance(state, rng)
        else:
            action = bots[cur].step(state.legal_actions(cur))
        state.apply_action(action)
    rets = state.returns()
    print(
        "Match over. Levels gained: "
        + ", ".join(f"{narrator.who(s)} {int(r):+d}" for s, r in enumerate(rets)),
        file=out,
    )
    return 0
