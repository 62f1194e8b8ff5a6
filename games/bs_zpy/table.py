"""BS-ZPY at the terminal: human seats and the narrated game (``kripke play bs-zpy``).

Without ``--human`` the bots play and a spectator sees every seat's
knowledge after each event.  With ``--human SEAT`` (several: hot-seat) the
narration shows what that seat observes: its hand, the kitty if it is the
landlord (bs-zpy.md's "dictator": this library says landlord in every game), its own face-down cards, the public events (claims, calls,
revealed cards, peanut butter) and its own knowledge.  What the others held
and what their unchecked claims really were is shown at the end.

The commands at a human seat (``help`` lists those valid now, ``$`` is
optional): ``bid CARD [CARD]`` / ``pass`` while the cards are dealt,
``kitty CARDS`` to bury as the landlord, ``friend CARD`` (``friend 2:AS``),
``play CARDS [claim CARDS]`` (the claim defaults to the truth) and
``yes`` / ``no`` when asked whether to call BS.
"""

from __future__ import annotations

import io
import random
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any, TextIO

from games.base import CHANCE, TERMINAL, Bot, Observation, make_bot, sample_chance
from games.bs_zpy.knowledge import SeatKnowledge
from games.bs_zpy.rules import CALL, CLAIM_TRUE, claim_action
from games.bs_zpy.state import BSZPYGame, BSZPYState
from games.errors import BotError, IllegalActionError, InvalidParameterError
from games.prompt import Command, InputClosedError, Prompt, human_seats, plural
from games.shengji.rules.cards import card, format_cards, parse_cards
from games.shengji.rules.friends import FriendSlot, parse_friend
from games.shengji.rules.trump import sort_cards
from games.shengji.state import (
    COMMIT,
    PASS,
    bury_action,
    decode_action,
    friend_action,
    select_action,
)

__all__ = ["Narrator", "narrate", "HumanSeat", "cards_text"]

# ================================================================ narration
#: Events the narrator tells (their public part).
_TOLD = frozenset(
    """bid redeal trump bury friends claim call nocall silent peanut_butter reveal penalty
    trick join round_end setup""".split()
)


def cards_text(cards: Sequence[int]) -> str:
    """Cards in their canonical text (every card list the table prints)."""
    return format_cards(cards)


def _say_cards(cards: Sequence[int]) -> str:
    return cards_text(cards) if cards else "nothing"


class Narrator:
    """Narrates a BS-ZPY game: a spectator's view, or what the human seats observe.

    Spectator (no ``humans``): the public events, and after each claim, for
    every other seat, whether it knows the claim is false or how likely the
    claim can be true (exact, from that seat's deal knowledge); after the
    friend declaration and each join, who each seat thinks holds the friend
    card.  One human seat: its own observation stream (its hand, the kitty
    it picks up, its face-down cards) and its knowledge only.  Several
    (hot-seat): the public events only; each seat's cards at its prompt.
    """

    def __init__(
        self,
        game: BSZPYGame,
        out: TextIO,
        names: Sequence[str] = (),
        knowledge: bool = True,
        humans: Sequence[int] = (),
    ):
        self.game = game
        self.n = game.num_players()
        self.out = out
        self.names = list(names)
        self.show_knowledge = knowledge
        self.humans = tuple(humans)
        self.teller = self.humans[0] if self.humans else 0
        self.single = len(self.humans) == 1
        self.knowers = tuple(range(self.n)) if not self.humans else self.humans
        self.know = [
            SeatKnowledge(game.rules, s, deal=knowledge and s in self.knowers)
            for s in range(self.n)
        ]
        self.seen = [0] * self.n
        self.hand_pending = False
        #: per seat, the plays whose cards were not shown (their index among that seat's claims)
        self.unshown: list[tuple[int, int, tuple[int, ...]]] = []
        self.claims_by = [0] * self.n
        self.pending_claim: tuple[int, int, tuple[int, ...]] | None = None
        self.hands = {s: HandTracker(s) for s in self.humans}

    def who(self, seat: int | None) -> str:
        if seat is None:
            return "the table"
        if self.single and seat == self.teller:
            return f"P{seat} (you)"
        if self.names:
            return f"P{seat} ({self.names[seat]})"
        return f"P{seat}"

    def say(self, text: str) -> None:
        print(text, file=self.out)

    def header(self) -> None:
        """The first lines: whose view this is."""
        if not self.humans:
            self.say("Spectator view: every seat's knowledge is shown; the cards stay face down.")
        elif self.single:
            self.say(
                f"You play P{self.teller}: you see your hand, the public events and the cards "
                "the rules show you; the others' cards appear when a call reveals them, and "
                "their unchecked claims at the end."
            )
        else:
            seats = ", ".join(f"P{s}" for s in self.humans)
            self.say(
                f"Hot-seat: {seats} share this terminal; each seat's cards appear at its "
                "prompt (the others look away)."
            )

    def feed(self, state: BSZPYState) -> None:
        """Pass new observations to the seats' knowledge; narrate the teller's once."""
        told: list[Observation] = []
        for s in range(self.n):
            obs = state.observations(s)
            while self.seen[s] < len(obs):
                o = obs[self.seen[s]]
                self.seen[s] += 1
                if s in self.knowers:
                    self.know[s].update(o)
                if s in self.hands:
                    self.hands[s].update(o)
                if s == self.teller:
                    told.append(o)
        for o in told:
            if o.kind in _TOLD or (self.single and o.kind in _PRIVATE):
                self.event(o)

    def event(self, o: Observation) -> None:
        k, a = o.kind, o.actor
        mine = self.single and a == self.teller
        if k in ("dealt", "hand"):
            if self.single and (k == "dealt" or a == self.teller):
                self.say(f"Your hand: {cards_text(self._hand())}")
        elif k == "kitty":
            if mine and o.get("cards") is not None:
                self.say(f"You pick up the kitty: {cards_text(o['cards'])}")
        elif k == "bid":
            self.say(f"{self.who(a)} bids {o['count']} x {o['card']}.")
        elif k == "redeal":
            self.say("Nobody bid: the cards are dealt again.")
        elif k == "trump":
            suit = o["suit"]
            self.say(
                f"{self.who(a)} is the landlord (the rules text's dictator); trump: {o['rank']}"
                + (" (no trump suit)." if suit == "none" else f" of {suit}.")
            )
        elif k == "bury":
            if mine and o.get("cards") is not None:
                self.say(f"You bury {cards_text(o['cards'])}.")
            else:
                self.say(f"{self.who(a)} buries {plural(o.get('count', 0), 'card')}.")
        elif k == "setup":
            self.say(f"A hand-made position: {o['size']} cards each, {o['kitty']} in the kitty.")
        elif k == "friends":
            slots = ", ".join(str(FriendSlot(card(c), n)) for c, n in o["slots"])
            self.say(f"{self.who(a)} calls for friends: {slots}.")
            self._friend_knowledge()
        elif k == "claim":
            assert a is not None
            self.claims_by[a] += 1
            verb = "leads" if o["lead"] else "plays"
            real = ""
            if mine and o.get("cards") is not None:
                real = f" (really {cards_text(o['cards'])})"
            self.say(
                f"{self.who(a)} {verb} {plural(o['count'], 'card')} face down, claiming "
                f"{_say_cards(o['claim'])}{real}."
            )
            self.pending_claim = (a, self.claims_by[a], tuple(o["claim"]))
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
            claim = self.pending_claim
            if claim is not None and claim[0] != self.teller and self.humans:
                self.unshown.append(claim)
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
                    f"  {self.who(a)} gives {plural(o['cards'], 'random card')} of its winnings "
                    f"pile to {self.who(o['to'])}."
                )
            else:
                self.say(f"  {self.who(a)} has no winnings: it loses {o['points']} points.")
        elif k == "trick":
            self.say(
                f"  {self.who(a)} wins the trick ({plural(o['cards'], 'card')} to its winnings pile)."
            )
        elif k == "join":
            extra = " (already on the team)" if o["already"] else ""
            self.say(f"  {self.who(a)} joins the landlord's team{extra}.")
            self._friend_knowledge()
        elif k == "round_end":
            team = ", ".join(self.who(s) for s in o["team"])
            self.say(
                f"Round over. Kitty {_say_cards(o['kitty'])} gives {o['kitty_points']} points to "
                f"the last trick. Landlord's team ({team}): {o['dictator_score']}; attackers: "
                f"{o['attacking_score']}. δ = {o['delta']}: {o['result']}."
            )
            self.say("Ranks: " + ", ".join(f"{self.who(s)} {r}" for s, r in enumerate(o["ranks"])))

    def _hand(self) -> list[int]:
        kn = self.know[self.teller]
        hand = list(kn.hand)
        return list(sort_cards(hand, kn.trump)) if kn.trump is not None else sorted(hand)

    def _claim_knowledge(self, claimer: int | None) -> None:
        if not self.show_knowledge or (self.humans and not self.single):
            return
        if self.know[self.knowers[0]].open_play() is None:
            return  # settled at once (nobody may call): no odds to tell
        if self.single:
            kn = self.know[self.teller]
            if claimer == self.teller:
                self._own_claim_line(kn)
                return
            odds = kn.claim_odds()
            if odds.knows_false:
                self.say("  you know it is false")
            else:
                self.say(f"  your chance the claim can be true: {odds.probability:.2f}")
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

    def _own_claim_line(self, kn: SeatKnowledge) -> None:
        """After the human's own claim: could another seat see it is false from its hand?"""
        sp = kn.open_play()
        if sp is None or kn.knowledge is None or sp.cards is None:
            return
        if sorted(sp.cards) == sorted(sp.claim):
            self.say(
                "  your cards are as claimed (a play that breaks the follow rules is still a lie)"
            )
            return
        d = self.game.rules.decks
        parts = []
        for s in range(self.n):
            if s == self.teller:
                continue
            best = 0.0
            for f, k in sorted(Counter(sp.claim).items()):
                dist = kn.knowledge.count_distribution(str(card(f)), f"P{s}")
                best = max(best, float(sum(dist[d - k + 1 :])))
            parts.append(f"P{s} {best:.2f}")
        self.say(
            "  a lie; your chance that each seat holds enough claimed cards to know it: "
            + ", ".join(parts)
        )

    def _friend_knowledge(self) -> None:
        if not self.show_knowledge or (self.humans and not self.single):
            return
        for s in self.knowers:
            kn = self.know[s]
            me = self.single
            for slot in kn.open_slots():
                try:
                    holder = kn.knows_holder(slot.card)
                    hands = {loc: p for loc, p in kn.holders(slot.card).items() if loc != "played"}
                except MemoryError:
                    self.say(f"  ({self.who(s)}: the deal engine ran out of memory on this query)")
                    continue
                where = ", ".join(f"{loc} {p:.2f}" for loc, p in hands.items())
                if holder == f"P{s}":
                    self.say(
                        f"  {'you hold' if me else f'{self.who(s)} holds'} {slot.card} itself."
                    )
                elif holder is not None:
                    self.say(
                        f"  {'you know' if me else f'{self.who(s)} knows'} {holder} holds {slot.card}."
                    )
                else:
                    self.say(
                        f"  {'you do' if me else f'{self.who(s)} does'} not know who holds "
                        f"{slot.card} ({where})."
                    )

    def finish(self, state: BSZPYState) -> None:
        """The end of the game for human seats: every claim's truth that was never shown."""
        if not self.humans:
            return
        self.say("End of the game: the cards that were never shown.")
        if not self.unshown:
            self.say("  (every claim was either called or true)")
        for seat, idx, claim in self.unshown:
            mine = [o for o in state.observations(seat) if o.kind == "claim" and o.actor == seat]
            real = tuple(mine[idx - 1]["cards"]) if idx - 1 < len(mine) else ()
            note = " (as claimed, but not a valid play)" if sorted(real) == sorted(claim) else ""
            self.say(
                f"  P{seat}'s claim {idx}, {_say_cards(claim)}: really {_say_cards(real)}{note}"
            )
        for s in range(self.n):
            left = state.hand(s)
            if left:
                self.say(f"  P{s} still holds {cards_text(left)}")


class HandTracker:
    """One seat's hand, followed from that seat's own observations only.

    Cards come in by the deal (``draw``), the kitty and a position's
    ``hand``; they leave by the burial and by the seat's own face-down
    plays; a caught leader takes back the ``returned`` cards.
    """

    def __init__(self, seat: int):
        self.seat = seat
        self.cards: list[int] = []

    def update(self, o: Observation) -> None:
        k, mine = o.kind, o.actor == self.seat
        if k == "draw" and mine and o.get("card") is not None:
            self.cards.append(o["card"])
        elif k in ("kitty", "hand") and mine and o.get("cards") is not None:
            self.cards += list(o["cards"])
        elif k in ("bury", "claim") and mine and o.get("cards") is not None:
            for c in o["cards"]:
                self.cards.remove(c)
        elif k == "reveal" and mine:
            self.cards += list(o["returned"])
        elif k == "redeal":
            self.cards = []


#: The private events a human seat is told (its own copy carries the cards).
_PRIVATE = frozenset({"dealt", "kitty", "hand"})


def _sorted(cards: Sequence[int], kn: SeatKnowledge) -> list[int]:
    if kn.trump is not None:
        return list(sort_cards(list(cards), kn.trump))
    return sorted(cards)


class HumanSeat:
    """A BS-ZPY seat played at the terminal, through a :class:`~games.prompt.Prompt`.

    It shows the seat's hand from that seat's own knowledge and asks for one
    whole decision (a bid, the whole kitty, a friend card, a play with its
    claim, a call).  Each answer is tried on a copy of the game first, so an
    illegal one is refused with the engine's reason and nothing changes.
    """

    def __init__(self, seat: int, prompt: Prompt, know: SeatKnowledge, hand: HandTracker):
        self.seat = seat
        self.prompt = prompt
        self.know = know
        self.tracker = hand
        self.shown = ""

    def hand(self) -> list[int]:
        return _sorted(self.tracker.cards, self.know)

    def _show_hand(self, force: bool = False) -> None:
        text = _say_cards(self.hand())
        if force or text != self.shown:
            self.shown = text
            self.prompt.say(f"P{self.seat}, your hand: {text}")

    def decide(self, state: BSZPYState) -> list[int]:
        """The actions of this seat's next decision (asked at the terminal)."""
        legal = list(state.legal_actions(self.seat))
        ph = state.phase
        if ph == "bid" and legal == [PASS]:
            return [PASS]  # no call is possible: nothing to ask
        handed = self.prompt.handover(self.seat)
        self._show_hand(force=handed)
        try:
            if ph == "bid":
                return self._bid(state, legal)
            if ph == "bury":
                return self._bury(state)
            if ph == "friend":
                return self._friend(state, legal)
            if ph == "call":
                return self._call(state)
            if ph == "play":
                return self._play(state)
        except InputClosedError as exc:
            raise BotError(f"P{self.seat}: {exc}") from None
        raise IllegalActionError(f"P{self.seat} has no decision in phase {ph!r}")

    def _try(self, state: BSZPYState, actions: list[int]) -> list[int]:
        trial = state.clone()
        for a in actions:
            trial.apply_action(a)  # IllegalActionError names the reason
        return actions

    def _bid(self, state: BSZPYState, legal: list[int]) -> list[int]:
        bids = {}
        for a in legal:
            kind, payload = decode_action(a)
            if kind == "bid":
                c, k = payload
                bids[(int(c), k)] = a
        valid = ", ".join(f"bid {' '.join([str(card(c))] * k)}" for c, k in sorted(bids))

        def parse(text: str) -> list[int]:
            cs = parse_cards(text)
            if not cs or len(set(cs)) != 1:
                raise IllegalActionError(
                    f"{text.strip()!r} is not a bid: show copies of one card; valid now: {valid}"
                )
            key = (int(cs[0]), len(cs))
            if key not in bids:
                raise IllegalActionError(
                    f"{text.strip()!r} is not a bid you can make; valid now: {valid}"
                )
            return [bids[key]]

        c0, k0 = sorted(bids)[0]
        example = "bid " + " ".join([str(card(c0))] * k0)
        bid = Command("bid", example, f"call trump ({valid})", parse, aliases=("call",))
        no = Command("pass", "pass", "make no call now", value=[PASS])
        return list(self.prompt.ask("Call trump?", [bid, no], seat=self.seat))

    def _bury(self, state: BSZPYState) -> list[int]:
        need = state.rules.kitty

        def parse(text: str) -> list[int]:
            cs = parse_cards(text)
            if len(cs) != need:
                raise IllegalActionError(f"bury exactly {plural(need, 'card')}, not {len(cs)}")
            return self._try(state, [bury_action(c) for c in cs])

        hand = self.hand()
        kitty = Command(
            "kitty", f"kitty {cards_text(hand[:need])}", f"bury {plural(need, 'card')}", parse
        )
        return list(self.prompt.ask(f"Bury {plural(need, 'card')}:", [kitty], seat=self.seat))

    def _friend(self, state: BSZPYState, legal: list[int]) -> list[int]:
        def parse(text: str) -> list[int]:
            slot = parse_friend(text)
            a = friend_action(slot.card, slot.ordinal)
            if a not in legal:
                raise IllegalActionError(f"{text.strip()!r} cannot be a friend card now")
            return [a]

        ex = decode_action(legal[0])[1]
        friend = Command(
            "friend", f"friend {ex}", "name a friend card (2:AS = the second AS)", parse
        )
        return list(self.prompt.ask("Name a friend card:", [friend], seat=self.seat))

    def _call(self, state: BSZPYState) -> list[int]:
        yes = Command("yes", "yes", "call BS", value=[CALL], aliases=("y", "call", "bs"))
        no = Command("no", "no", "let the claim stand", value=[PASS], aliases=("n", "pass"))
        rec = self.know.open_play()
        what = ""
        if rec is not None:
            what = f"P{rec.seat} claims {_say_cards(rec.claim)}. "
            if self.prompt.hot_seat and self.know.use_deal:
                odds = self.know.claim_odds()
                self.prompt.say(
                    "you know it is false"
                    if odds.knows_false
                    else f"your chance the claim can be true: {odds.probability:.2f}"
                )
        return list(self.prompt.ask(f"{what}Call BS?", [yes, no], seat=self.seat))

    def _play(self, state: BSZPYState) -> list[int]:
        def parse(text: str) -> list[int]:
            low = text.lower()
            down_text, sep, claim_text = low.partition(" claim ")
            if low.startswith("claim "):
                raise IllegalActionError("name the cards to put down first: play CARDS claim CARDS")
            cs = parse_cards(down_text)
            if not cs:
                raise IllegalActionError("name the cards to put down, e.g. 'play 7H'")
            actions = [select_action(c) for c in cs] + [COMMIT]
            if sep:
                cl = parse_cards(claim_text)
                if sorted(cl) == sorted(cs):
                    actions.append(CLAIM_TRUE)
                else:
                    actions += [claim_action(c) for c in cl]
            else:
                actions.append(CLAIM_TRUE)
            try:
                return self._try(state, actions)
            except IllegalActionError as exc:
                raise IllegalActionError(f"{text.strip()!r} cannot be played now: {exc}") from None

        ex = cards_text(self.hand()[:1])
        play = Command(
            "play",
            f"play {ex} claim {ex}",
            "put cards face down and claim what they are (the claim defaults to the truth)",
            parse,
        )
        return list(self.prompt.ask("Your play:", [play], fallback=play, seat=self.seat))


def narrate(args: Any, out: TextIO) -> int:
    """``kripke play bs-zpy``: a narrated game, watched or played (``--human SEAT``)."""
    params = dict(getattr(args, "params", {}) or {})
    variant = getattr(args, "variant", None)
    if variant is not None:
        params["variant"] = variant
    players = getattr(args, "players", None)
    if players is not None:
        params["players"] = players
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
    humans = human_seats(args, n)
    quiet = bool(getattr(args, "quiet", False))
    sink: TextIO = out if not quiet else io.StringIO()
    for s in humans:
        names[s] = "you" if len(humans) == 1 else "human"
    bots: list[Bot | None] = [
        None if s in humans else make_bot("bs-zpy", name, seed=seed * 100 + s)
        for s, name in enumerate(names)
    ]
    narrator = Narrator(game, sink, names, knowledge=not quiet or bool(humans), humans=humans)
    stdin = getattr(args, "stdin", None) or sys.stdin
    prompt = Prompt(stdin, out, hot_seat=len(humans) > 1)
    seats = {s: HumanSeat(s, prompt, narrator.know[s], narrator.hands[s]) for s in humans}
    state = game.new_initial_state()
    for s, b in enumerate(bots):
        if b is not None:
            b.restart(game, s)
    rng = random.Random(seed)
    seen = [0] * n
    narrator.header()
    while True:
        narrator.feed(state)
        for s, b in enumerate(bots):
            obs = state.observations(s)
            while seen[s] < len(obs):
                if b is not None:
                    b.inform(obs[seen[s]])
                seen[s] += 1
        cur = state.current_player()
        if cur == TERMINAL:
            break
        if cur == CHANCE:
            state.apply_action(sample_chance(state, rng))
        elif cur in seats:
            for a in seats[cur].decide(state):
                state.apply_action(a)
        else:
            bot = bots[cur]
            assert bot is not None
            state.apply_action(bot.step(state.legal_actions(cur)))
    narrator.finish(state)
    rets = state.returns()
    print(
        "Match over. Levels gained: "
        + ", ".join(f"{narrator.who(s)} {int(r):+d}" for s, r in enumerate(rets)),
        file=out,
    )
    return 0
