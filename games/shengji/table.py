"""The terminal table: ``kripke play shengji [--variant tractor|zpy] [--human SEAT]``.

Without ``--human`` the bots play and the spectator sees the **omniscient view**:
every hand after the deal, the kitty the landlord takes up and the cards it
buries, every play, and each seat's knowledge as it changes (the voids a seat
shows, who knows where the trump honours are, who knows who a friend is).

With ``--human SEAT`` you play that seat and see exactly what it observes:
your own hand, the public events, the kitty when you are the landlord who
takes it up, a friend's identity when the friend card is played, and your
own knowledge.  Everything else is shown only when the round is over (the
hands as dealt).  Several ``--human`` seats share the terminal (hot-seat).

The commands are those of the shengji-bot table (shared/rules/shengji-bot.md),
one per line on standard input, with or without the ``$`` prefix; ``help``
lists the commands valid now with an example:

``intro``            what the game is and where its rules are (any time)
``join`` / ``leave`` take or give up your seat (before the match starts)
``list``             the players, their seats and ranks (any time)
``start``            start the match (once every human seat has joined)
``deal``             deal the next round
``call SUIT [strong]``  call trump with a level card of SUIT while the cards
                     are dealt (``strong``: a pair; ``call joker`` is no trump
                     in ``zpy``); ``pass`` lets the chance go by
``kitty CARDS``      bury the kitty (the landlord, after the deal)
``friend CARD ...``  name the friend cards (``zpy``; ``2:AS`` is the second AS)
``play CARDS``       play cards
``hand``             your hand
``know``             what your seat knows: the voids shown, the trump honours it can
                     place, and for each honour out of sight the expected copies in
                     every other hand and the kitty (exact, from its observations only)
``score``            the scoreboard (any time)
``surrender``        give up the match
``reset``            vote to start the match over: three players must approve
                     (a bot approves unless its rank is above the proposer's)

During the deal a call can be made at any time: the engine offers every seat
that can call after every card drawn, and the table asks you whenever your
options are new to you (you drew a card, somebody called, or the deal is
complete); a question you have already answered with ``pass`` is not repeated.
A command that does not fit the moment says why and what is valid now.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any, TextIO, cast

from games.base import CHANCE, TERMINAL, Bot, Observation, make_bot, sample_chance
from games.errors import GameError, IllegalActionError, InvalidParameterError
from games.prompt import BadAnswerError, Command, InputClosedError, Prompt, human_seats
from games.shengji.knowledge import SeatDeal, SeatView
from games.shengji.rules.cards import SMALL_JOKER, Card, card, format_cards, parse_cards
from games.shengji.rules.formats import Format, lead_format
from games.shengji.rules.friends import parse_friend
from games.shengji.rules.trump import NT, SUIT_LABELS, rank_name, sort_cards, suit_index, table
from games.shengji.state import PASS, ShengjiGame, ShengjiState, decode_action, friend_action

__all__ = ["narrate", "Table", "RESET_VOTES"]

#: Votes needed to reset the match (shengji-bot.md: "the approval of three people").
RESET_VOTES = 3

_ORDINALS = ("first", "second", "third", "fourth", "fifth")
_TABLE_WORDS = (
    "join",
    "leave",
    "list",
    "start",
    "deal",
    "call",
    "bid",
    "pass",
    "kitty",
    "friend",
    "play",
    "hand",
    "know",
    "score",
    "surrender",
    "reset",
    "intro",
)


class _Echo:
    """A line stream that writes every line it reads to ``out`` (scripted input stays legible)."""

    def __init__(self, stream: Any, out: TextIO):
        self.stream = stream
        self.out = out

    def readline(self) -> str:
        line: str = self.stream.readline()
        if line:
            print(line.rstrip("\r\n"), file=self.out)
        return line


class _Reader:
    """A line stream over a ``read()`` callable (``None`` ends the input)."""

    def __init__(self, read: Callable[[], str | None]):
        self.read = read

    def readline(self) -> str:
        line = self.read()
        if line is None:
            return ""
        return line if line.endswith("\n") else line + "\n"


class _Knowledge:
    """Live knowledge of some seats, each from its own observations only.

    Per tracked seat a :class:`SeatView` (hand, voids, friends) and a
    :class:`SeatDeal` (exact deal knowledge: which cards each location surely
    holds).  The narrator prints what changed: where the seat knows trump
    honours to be, and which friend it knows.
    """

    def __init__(self, game: ShengjiGame, seats: Sequence[int]):
        r = game.rules
        self.rules = r
        self.seats = list(seats)
        self.views = {s: SeatView(r.players, s, r.decks, r.hand_size, r.fixed_teams) for s in seats}
        self.deals: dict[int, SeatDeal | None] = {s: SeatDeal(r, s) for s in seats}
        self.honours: dict[int, tuple[Any, ...]] = {}
        self.friends: dict[int, tuple[Any, ...]] = {}
        self.shown: dict[int, tuple[Any, ...]] = {}

    def update(self, seat: int, o: Observation) -> None:
        if seat not in self.views:
            return
        self.views[seat].update(o)
        sd = self.deals[seat]
        if sd is not None:
            try:
                sd.update(o)
            except GameError:
                self.deals[seat] = None
        if o.kind in ("round_end", "redeal"):
            self.deals[seat] = SeatDeal(self.rules, seat)
            self.honours.pop(seat, None)
            self.friends.pop(seat, None)
            self.shown.pop(seat, None)

    # ------------------------------------------------------------ queries
    def _sure(self, seat: int) -> dict[str, Counter[int]] | None:
        """Cards each other location surely holds, as ``seat`` knows it."""
        sd = self.deals[seat]
        if sd is None or sd.knowledge is None:
            return None
        kn = sd.knowledge
        out: dict[str, Counter[int]] = {}
        for loc in kn.locations:
            if loc in ("played", "deck", f"P{seat}"):
                continue
            got = kn.known_cards(loc)
            if got:
                out[loc] = Counter(int(c) for c in parse_cards(" ".join(got)))
        return out

    def honour_facts(self, seat: int) -> tuple[int, list[tuple[int, str, int]]] | None:
        """``(copies out of sight, [(face, location, copies), ...])`` of the trump honours."""
        v = self.views[seat]
        t = v.trump
        if t is None:
            return None
        faces = [SMALL_JOKER, SMALL_JOKER + 1]
        if t.rank != NT:
            faces += (
                [13 * t.suit + t.rank]
                if t.suit is not None
                else [13 * s + t.rank for s in range(4)]
            )
        sure = self._sure(seat)
        if sure is None:
            return None
        decks = self.rules.decks
        out_of_sight = sum(
            decks - v.played[f] - v.hand.get(f, 0) - sum(1 for c in v.buried if c == f)
            for f in faces
        )
        facts = [(f, loc, cs[f]) for loc, cs in sorted(sure.items()) for f in faces if cs.get(f)]
        return out_of_sight, facts

    def friend_facts(self, seat: int) -> list[tuple[int, int]]:
        """``[(slot index, seat sure to fill it), ...]`` as ``seat`` knows it."""
        v = self.views[seat]
        tr = v.friends
        if tr is None:
            return []
        sure = self._sure(seat) or {}
        out = []
        for i in tr.open_slots:
            c = int(tr.slots[i].card)
            remaining = self.rules.decks - v.played[c]
            if remaining <= tr.skip[i]:
                continue
            if v.hand.get(c, 0) == remaining:
                out.append((i, seat))
                continue
            for loc, cs in sure.items():
                if loc.startswith("P") and cs.get(c, 0) == remaining:
                    out.append((i, int(loc[1:])))
        return out


class Table:
    """One match at the terminal: bots at every seat but the human ones, narrated to ``out``.

    Parameters
    ----------
    game : ShengjiGame
    bots : list of Bot or None
        One per seat; ``None`` marks a human seat (unless ``human`` says otherwise).
    seed : int
        Seeds chance (the deal).
    out : text stream
    human : int or sequence of int, optional
        The human seat(s); default: the seats whose bot is ``None``.
    read : callable, optional
        ``read() -> str | None``: the human's lines (``None`` ends the input);
        an alternative to ``stdin``.
    quiet : bool
        Print only the answers to the humans and the result.
    stdin : text stream, optional
        Where the human's lines come from (default: standard input).
    """

    def __init__(
        self,
        game: ShengjiGame,
        bots: list[Bot | None],
        seed: int,
        out: TextIO,
        human: int | Sequence[int] | None = None,
        read: Callable[[], str | None] | None = None,
        quiet: bool = False,
        stdin: Any = None,
    ):
        self.game = game
        self.n = game.num_players()
        if human is None:
            humans = [s for s, b in enumerate(bots) if b is None]
        elif isinstance(human, int):
            humans = [human]
        else:
            humans = sorted(set(human))
        for s in humans:
            if not 0 <= s < self.n:
                raise InvalidParameterError(
                    f"human seat {s} does not exist; seats are 0..{self.n - 1}"
                )
        for s, b in enumerate(bots):
            if b is None and s not in humans:
                raise InvalidParameterError(f"seat {s} has neither a bot nor a human")
        self.humans = humans
        self.bots = bots
        self.rng = random.Random(seed)
        self.out = out
        self.quiet = quiet
        stream = stdin if stdin is not None else (_Reader(read) if read is not None else sys.stdin)
        self.prompt = Prompt(cast(TextIO, stream), out, hot_seat=len(humans) > 1, names=self.name)
        self.seated: list[int] = [] if humans else list(range(self.n))
        self.started = not humans
        self.surrendered: int | None = None
        self.stopped = False
        self._new_match()

    # ------------------------------------------------------------- helpers
    def _new_match(self) -> None:
        self.state: ShengjiState = self.game.new_initial_state()
        self.seen = [0] * self.n
        for seat, b in enumerate(self.bots):
            if b is not None:
                b.restart(self.game, seat)
        self.votes: list[int] = []
        self.dealt_round: int | None = None if self.humans else 0
        self.asked: dict[int, tuple[int, int, bool]] = {}
        tracked = self.humans if self.humans else list(range(self.n))
        self.know = _Knowledge(self.game, tracked)
        self.lead_fmt: Format | None = None

    @property
    def viewer(self) -> int:
        """The seat whose observations are narrated (the first human, else North/P0)."""
        return self.humans[0] if self.humans else 0

    @property
    def spectator(self) -> bool:
        """Whether the narration is the omniscient view (no human seat)."""
        return not self.humans

    def name(self, seat: int | None) -> str:
        if seat is None:
            return "the table"
        return self.state.seat_name(seat) + (
            " (you)" if seat in self.humans and len(self.humans) == 1 else ""
        )

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, file=self.out)

    def tell(self, text: str) -> None:
        """An answer to a human: printed even when quiet."""
        print(text, file=self.out)

    def _hand(self, seat: int) -> str:
        st = self.state
        cards = st.hand(seat)
        if st.trump is not None:
            cards = sort_cards(cards, st.trump)
        return format_cards(cards) or "no cards"

    # -------------------------------------------------------------- events
    def _flush(self) -> None:
        st = self.state
        new: list[Observation] = []
        for seat, b in enumerate(self.bots):
            obs = st.observations(seat)
            start = self.seen[seat]
            for o in obs[start:]:
                if b is not None:
                    b.inform(o)
                self.know.update(seat, o)
            if seat == self.viewer:
                new = list(obs[start:])
            self.seen[seat] = len(obs)
        for o in new:
            self._narrate(o)

    def _narrate(self, o: Observation) -> None:
        k, a = o.kind, o.actor
        st = self.state
        single = len(self.humans) == 1
        if k == "first":
            self.say(f"The deal starts with {self.name(o['start'])}.")
        elif k == "dealt":
            if self.spectator:
                self.say("The deal is complete. The hands (omniscient view):")
                hands, _ = self._dealt()
                for s in range(self.n):
                    self.say(f"  {self.name(s):6} {format_cards(sorted(hands[s]))}")
                self.say(f"  kitty  {format_cards(st.kitty_cards)}")
            elif single:
                mine = self._dealt()[0][self.viewer]
                self.say(
                    f"The deal is complete ({o['kitty']} cards set aside). "
                    f"Your hand: {format_cards(sorted(mine))}"
                )
            else:
                self.say(f"The deal is complete ({o['kitty']} cards set aside).")
        elif k == "bid":
            what = "no trump" if o["card"] >= SMALL_JOKER else SUIT_LABELS[o["card"] // 13]
            strength = (
                {1: "", 2: " (strong)"}.get(o["count"], "")
                if st.rules.bid_policy == "weak-strong"
                else ""
            )
            self.say(f"{self.name(a)} calls {what}{strength}, showing {o['count']} x {o['card']}.")
        elif k == "redeal":
            self.say("Nobody called: the cards are dealt again.")
        elif k == "kitty_reveal":
            self.say(f"Nobody called: the first kitty card is {o['card']}.")
        elif k == "trump":
            suit = o["suit"]
            t = "no trump" if suit == "none" else suit
            self.say(f"{self.name(a)} is the landlord; trump: {o['rank']} of {t}.")
        elif k == "kitty":
            cs = o.get("cards")
            if self.spectator:
                self.say(f"{self.name(a)} takes up the kitty: {format_cards(st.kitty_cards)}.")
            elif cs is not None and a in self.humans and single:
                self.say(f"You take up the kitty: {format_cards(cs)}.")
            else:
                self.say(f"{self.name(a)} takes up the kitty ({st.rules.kitty} cards).")
        elif k == "bury":
            cs = o.get("cards")
            if self.spectator:
                self.say(f"{self.name(a)} buries {format_cards(sorted(st.buried))}.")
            elif cs is not None and a in self.humans and single:
                self.say(f"You bury {format_cards(cs)}.")
            else:
                self.say(f"{self.name(a)} buries {o['count']} cards.")
            if not st.rules.friends:
                self._knowledge_lines()
        elif k == "friends":
            slots = ", ".join(f"the {_ordinal(o_)} {c}" for c, o_ in o["slots"])
            self.say(f"{self.name(a)} calls for friends: {slots}.")
            self._knowledge_lines()
        elif k == "throw_failed":
            blocker = o["blocker"]
            who = self.name(blocker) if blocker is not None else "someone"
            self.say(
                f"{self.name(a)} throws {format_cards(o['attempted'])} but {who} holds a higher "
                f"{o['unit']}: only {format_cards(o['forced'])} is played."
            )
        elif k == "play":
            verb = "leads" if o["lead"] else "plays"
            cards = list(o["cards"])
            note = ""
            if st.trump is not None:
                if o["lead"]:
                    self.lead_fmt = lead_format(cards, st.trump)
                elif self.lead_fmt is not None:
                    t = table(st.trump)
                    fmt = self.lead_fmt
                    if sum(1 for c in cards if t.esuit[c] == fmt.suit) < fmt.size:
                        note = f" — shows out of {SUIT_LABELS[fmt.suit]}"
            self.say(f"{self.name(a)} {verb} {format_cards(cards)}{note}.")
        elif k == "trick":
            self.say(f"  {self.name(a)} wins the trick ({o['points']} points).")
            self.lead_fmt = None
        elif k == "join":
            extra = " (already on the team)" if o["already"] else ""
            self.say(f"  {self.name(a)} joins the landlord's team{extra}: everybody knows it now.")
        elif k == "round_end":
            team = ", ".join(self.name(s) for s in o["team"])
            self.say(
                f"Round over. Kitty {format_cards(o['kitty'])} ({o['kitty_points']} points to the last trick). "
                f"Attackers scored {o['attacking_points']}; landlord side ({team}): "
                f"{'wins' if o['landlord_won'] else 'loses'}, {o['result']}."
            )
            self.say("Ranks: " + ", ".join(f"{self.name(s)} {r}" for s, r in enumerate(o["ranks"])))
            self._reveal_round()
        if k == "trick":
            self._knowledge_lines()

    def _dealt(self) -> tuple[list[list[Card]], list[Card]]:
        """Every seat's cards as drawn this round, and the kitty as taken up (from the
        seats' own observations; the table shows them only when the rules allow)."""
        st = self.state
        hands: list[list[Card]] = [[] for _ in range(self.n)]
        kitty: list[Card] = []
        for s in range(self.n):
            obs = st.observations(s)
            start = max(
                (
                    i + 1
                    for i, o in enumerate(obs)
                    if o.kind in ("round_end", "redeal") and i < len(obs) - 1
                ),
                default=0,
            )
            for o in obs[start:]:
                if o.kind == "draw" and o.actor == s and o.get("card") is not None:
                    hands[s].append(o["card"])
                if o.kind == "kitty" and o.actor == s and o.get("cards") is not None:
                    kitty = list(o["cards"])
        return hands, kitty

    def _reveal_round(self) -> None:
        """The round's cards in full, once it is over: the hands as dealt and the kitty taken up."""
        hands, kitty = self._dealt()
        self.say("The cards of the round, now that it is over:")
        for s in range(self.n):
            self.say(f"  {self.name(s):6} dealt {format_cards(sorted(hands[s]))}")
        if kitty:
            self.say(f"  kitty as taken up: {format_cards(sorted(kitty))}")

    def _knowledge_lines(self) -> None:
        """Print the narrated seats' knowledge where it changed: every seat for the
        spectator, the human's own for one human seat; at a hot-seat table each human
        sees its own at its turn (after the hand-over)."""
        if self.spectator:
            for s in self.know.seats:
                self._seat_knowledge(s, self.state.seat_name(s), "knows", "itself")
        elif len(self.humans) == 1:
            self._seat_knowledge(self.humans[0], "You", "know", "you")

    def _seat_knowledge(self, s: int, who: str, verb: str, self_word: str) -> None:
        kn = self.know
        facts = kn.honour_facts(s)
        if facts is not None:
            unseen, located = facts
            key = tuple(located)
            if kn.honours.get(s) != key:
                kn.honours[s] = key
                n_loc = sum(c for _, _, c in located)
                where = ", ".join(
                    f"{card(f)}{'' if c == 1 else f' x{c}'} with {_loc_name(loc, self.state)}"
                    for f, loc, c in located
                )
                self.say(
                    f"  {who} {verb} where {n_loc or 'none'} of the {unseen} trump honours "
                    f"out of sight {'is' if n_loc == 1 else 'are'}"
                    + (f": {where}." if where else ".")
                )
        fr = tuple(kn.friend_facts(s))
        if fr and kn.friends.get(s) != fr:
            kn.friends[s] = fr
            view = kn.views[s]
            assert view.friends is not None
            for i, t in fr:
                slot = view.friends.slots[i]
                whom = self_word if t == s else self.state.seat_name(t)
                self.say(
                    f"  {who} {verb} the {_ordinal(slot.ordinal)} {slot.card} will make {whom} "
                    "a friend (every copy still out is there)."
                )
        if who == "You":
            v = kn.views[s]
            # cards the seat showed (a call, a failed throw) and has not played are known to
            # all, unless it is the landlord, who may have buried them
            shown = tuple(sorted((f, c) for f, c in v.known[s].items() if c))
            if shown and v.landlord != s and kn.shown.get(s) != shown:
                kn.shown[s] = shown
                cards = format_cards([f for f, c in shown for _ in range(c)])
                self.say(f"  Everybody knows you still hold {cards} (shown by you).")

    # ----------------------------------------------------------------- run
    def run(self) -> int:
        """Play the match; 0 when it ends (or the input ends)."""
        st0 = self.game.rules
        if self.spectator:
            self.say(
                f"Shengji, variant {st0.variant}, {self.n} players — the spectator's omniscient view: "
                "every hand is shown, and each seat's knowledge as it changes."
            )
        else:
            self.say(self._intro())
            if not self._lobby():
                self.tell("\n(end of input: the table stops)")
                return 0
        while not self.stopped:
            self._flush()
            st = self.state
            cur = st.current_player()
            if cur == TERMINAL:
                break
            if cur == CHANCE:
                if self.stage(self.viewer) == "ready":
                    if not self._between_deals():
                        break
                    continue
                st.apply_action(sample_chance(st, self.rng))
                continue
            if cur in self.humans:
                if not self._human_turn(cur):
                    break
                continue
            bot = self.bots[cur]
            assert bot is not None
            st.apply_action(bot.step(st.legal_actions(cur)))
        if self.stopped and self.surrendered is None:
            self.tell("\n(end of input: the table stops)")
            return 0
        self._flush()
        if self.surrendered is not None:
            self.tell(f"{self.state.seat_name(self.surrendered)} surrendered: the match is over.")
            return 0
        rets = self.state.returns()
        self.tell(
            "Match over. Levels gained: "
            + ", ".join(f"{self.name(s)} {int(r):+d}" for s, r in enumerate(rets))
        )
        return 0

    # ---------------------------------------------------------- the humans
    def stage(self, seat: int) -> str:
        """Where the match stands for ``seat``: lobby, ready, call, bury, friend, play, wait."""
        if not self.started:
            return "lobby"
        st = self.state
        fresh = st.phase in ("start", "deal") and st.drawn == 0
        if self.humans and fresh and self.dealt_round != st.round_no:
            return "ready"
        if st.current_player() == seat and st.phase in ("bid", "bury", "friend", "play"):
            return "call" if st.phase == "bid" else st.phase
        return "wait"

    def _ask(self, seat: int | None, question: str) -> Any:
        """Ask until an answer that moves the game; info commands are answered on the way.

        Returns the answer, or ``None`` when the input ended or the match was reset or given up.
        """
        while True:
            ref = seat if seat is not None else (self.humans[0] if self.humans else 0)
            cmds = self._commands(ref)
            fallback = Command("?", "", "", parse=self._refuser(ref))
            try:
                value = self.prompt.ask(question, cmds, fallback=fallback, seat=seat)
            except InputClosedError:
                self.stopped = True
                return None
            kind = value[0]
            if kind == "list":
                self._list()
            elif kind == "score":
                self._score()
            elif kind == "intro":
                self.tell(self._intro())
            elif kind == "hand":
                self.tell(f"Your hand: {self._hand(ref)}")
            elif kind == "know":
                self.tell(self._know(ref))
            elif kind == "join":
                s = next(x for x in self.humans if x not in self.seated)
                self.seated.append(s)
                self.tell(
                    f"{self.state.seat_name(s)} takes its seat ({len(self.seated)} of {len(self.humans)} human seats)."
                )
            elif kind == "leave":
                s = self.seated.pop()
                self.tell(f"{self.state.seat_name(s)} leaves its seat; 'join' takes it again.")
            elif kind == "surrender":
                self.surrendered = ref
                return None
            elif kind == "reset":
                if self._vote_reset(ref):
                    return None
            else:
                return value

    def _lobby(self) -> bool:
        """Before the match: join, leave, list, start.  False when the input ended."""
        while not self.started:
            value = self._ask(None, "Table (not started)>")
            if value is None:
                return False
            if value[0] == "start":
                self.started = True
                self.say("The match starts.")
        return True

    def _between_deals(self) -> bool:
        """Wait for ``deal`` before a round is dealt.  False when the table stops."""
        st = self.state
        self.say(f"Round {st.round_no + 1}: type 'deal' to deal the cards.")
        value = self._ask(self.humans[0], f"Round {st.round_no + 1}>")
        if value is None:
            return self.surrendered is None and not self.stopped
        self.dealt_round = st.round_no
        return True

    def _human_turn(self, seat: int) -> bool:
        st = self.state
        ph = st.phase
        if ph == "bid":
            key = st.call_news(seat)
            if self.asked.get(seat) == key:
                st.apply_action(PASS)  # nothing new for this seat since it let the call go by
                return True
            self.asked[seat] = key
            self.prompt.handover(seat)
            self.tell(self._call_context(seat))
        elif ph == "bury":
            self.prompt.handover(seat)
            kitty = next(
                (
                    o["cards"]
                    for o in reversed(st.observations(seat))
                    if o.kind == "kitty" and o.get("cards") is not None
                ),
                (),
            )
            self.tell(
                f"{self.state.seat_name(seat)}: you took up the kitty {format_cards(kitty)}; "
                f"bury {st.rules.kitty} cards (kitty CARDS). Hand: {self._hand(seat)}"
            )
        elif ph == "friend":
            self.prompt.handover(seat)
            self.tell(
                f"{self.state.seat_name(seat)}: name {st.rules.friends - len(st.slots)} friend card(s) "
                f"(friend CARD ...; no trumps). Hand: {self._hand(seat)}"
            )
        elif ph == "play":
            self.prompt.handover(seat)
            if len(self.humans) > 1:
                self._seat_knowledge(seat, "You", "know", "you")
            p = st.play
            assert p is not None
            trick = " · ".join(f"{st.seat_name(r.seat)} {format_cards(r.cards)}" for r in p.current)
            what = f"the trick so far: {trick}" if trick else "you lead"
            self.tell(f"{self.state.seat_name(seat)}: {what}. Hand: {self._hand(seat)}")
        value = self._ask(seat, f"{self.state.seat_name(seat)}>")
        if value is None:
            return self.surrendered is None and not self.stopped
        kind, payload = value
        if kind == "pass":
            st.apply_action(PASS)
        elif kind == "call":
            st.apply_action(payload)
        elif kind == "kitty":
            st.bury_cards(seat, payload)
        elif kind == "friend":
            for a in payload:
                st.apply_action(a)
        elif kind == "play":
            leading = st.play is not None and st.play.is_leading()
            st.play_cards(seat, payload)
            if leading:
                self._explain_throw(seat)
        return True

    def _call_context(self, seat: int) -> str:
        st = self.state
        name = st.seat_name(seat)
        obs = st.observations(seat)
        last = obs[-1] if obs else None
        if st.deck_left == 0:
            lead = "the deal is complete: a last chance to call"
        elif last is not None and last.kind == "draw" and last.actor == seat:
            lead = f"you drew {last['card']}"
        else:
            lead = "a call was made: you may overcall"
        opts = ", ".join(self._call_text(a) for a in st.legal_actions(seat) if a != PASS)
        current = f"; the call to beat: {st.bids[-1].count} x {st.bids[-1].card}" if st.bids else ""
        return f"{name}: {lead}{current}. Calls open to you: {opts}. Hand: {self._hand(seat)}"

    def _call_text(self, a: int) -> str:
        c, k = decode_action(a)[1]
        if c >= SMALL_JOKER:
            return f"call {'bj' if c > SMALL_JOKER else 'sj'}" + (f" {k}" if k > 1 else "")
        suit = SUIT_LABELS[c // 13]
        if self.state.rules.bid_policy == "weak-strong":
            return f"call {suit}" + (" strong" if k > 1 else "")
        return f"call {suit}" + (f" {k}" if k > 1 else "")

    # -------------------------------------------------------------- commands
    def _commands(self, seat: int) -> list[Command]:
        stage = self.stage(seat)
        st = self.state
        cmds: list[Command] = []

        def add(
            name: str, example: str, describe: str, parse: Callable[[str], Any] | None = None
        ) -> None:
            cmds.append(Command(name, example, describe, parse=parse, value=(name, None)))

        if stage == "lobby":
            if len(self.seated) < len(self.humans):
                nxt = next(x for x in self.humans if x not in self.seated)
                add("join", "join", f"take your seat ({st.seat_name(nxt)})")
            if self.seated:
                add("leave", "leave", f"give up your seat ({st.seat_name(self.seated[-1])})")
            if len(self.seated) == len(self.humans):
                cmds.append(Command("start", "start", "start the match", value=("start", None)))
        elif stage == "ready":
            add("deal", "deal", f"deal round {st.round_no + 1}")
        elif stage == "call":
            opts = [a for a in st.legal_actions(seat) if a != PASS]
            add(
                "call",
                self._call_text(opts[0]) if opts else "call hearts",
                "call trump (strong: a pair)",
                parse=lambda text: ("call", self._call_action(seat, text)),
            )
            add("pass", "pass", "let this chance to call go by")
        elif stage == "bury":
            h = sort_cards(st.hand(seat), st.trump) if st.trump is not None else st.hand(seat)
            ex = "kitty " + format_cards(h[: st.rules.kitty - len(st.buried)])
            add(
                "kitty",
                ex,
                f"bury {st.rules.kitty} cards",
                parse=lambda text: ("kitty", self._bury_cards(seat, text)),
            )
        elif stage == "friend":
            legal = st.legal_actions(seat)
            ex = "friend " + str(decode_action(legal[0])[1].card) if legal else "friend AS"
            add(
                "friend",
                ex,
                "name friend cards (2:AS is the second AS played)",
                parse=lambda text: ("friend", self._friend_actions(seat, text)),
            )
        elif stage == "play":
            add(
                "play",
                "play " + format_cards(self._example_play(seat)),
                "play these cards",
                parse=lambda text: ("play", self._play_cards(seat, text)),
            )
        if stage in ("call", "bury", "friend", "play"):
            add("hand", "hand", "show your hand")
            add(
                "know",
                "know",
                "what you know: voids, where the trump honours may be (expected copies)",
            )
        add("list", "list", "the players, seats and ranks")
        add("score", "score", "the scoreboard")
        add("intro", "intro", "what this game is and where its rules are")
        if stage != "lobby":
            add("reset", "reset", f"vote to start the match over ({RESET_VOTES} votes needed)")
            add("surrender", "surrender", "give up the match")
        return cmds

    def _refuser(self, seat: int) -> Callable[[str], Any]:
        def refuse(line: str) -> Any:
            return self._not_now(seat, line)

        return refuse

    def _not_now(self, seat: int, line: str) -> Any:
        """The precise answer to a table command that does not fit the moment (always raises)."""
        word = line.split()[0].lower() if line.split() else ""
        stage = self.stage(seat)
        valid = ", ".join(c.name for c in self._commands(seat))
        raise BadAnswerError(f"{word!r}: {self._why_not(word, seat, stage)}; valid now: {valid}")

    def _why_not(self, word: str, seat: int, stage: str) -> str:
        st = self.state
        you = st.seat_name(seat)
        rnd = st.round_no + 1
        now = {
            "lobby": "the match has not started",
            "ready": f"round {rnd} is about to be dealt",
            "call": "the cards are being dealt",
            "bury": "the landlord is burying the kitty",
            "friend": "the landlord is naming friends",
            "play": f"tricks are being played (round {rnd})",
            "wait": "the match is under way",
        }[stage]
        if word not in _TABLE_WORDS:
            return "not a command of this table (type 'help')"
        if word == "join":
            if stage == "lobby":
                return "every human seat has joined; 'start' starts the match"
            return f"you are seated as {you}; {now}"
        if word == "leave":
            if stage == "lobby":
                return "nobody is seated yet; 'join' takes your seat"
            return f"{now}: a seat cannot be left mid-match ('surrender' gives it up, 'reset' votes to start over)"
        if word == "start":
            if stage == "lobby":
                return "take your seat first ('join')"
            return f"the match has already started; {now}"
        if word == "deal":
            if stage == "lobby":
                return "the match has not started: 'start' it first"
            if stage == "call":
                return "the cards are being dealt already"
            return f"{now}; the next deal comes after the round's last trick"
        if word in ("call", "bid", "pass"):
            if stage == "lobby":
                return "the match has not started: calls are made while the cards are dealt"
            if stage == "ready":
                return "the cards are not dealt yet: 'deal' first"
            if st.trump is not None:
                return f"the deal is over: trump is {st.trump}"
            return "no call is open to you now"
        if word == "kitty":
            if stage in ("lobby", "ready", "call"):
                return "the landlord buries the kitty after the deal"
            if stage == "bury":
                return "only the landlord buries the kitty"
            return "the kitty is already buried"
        if word == "friend":
            if not st.rules.friends:
                return "this variant has fixed partners: no friend cards"
            if st.slots and len(st.slots) == st.rules.friends:
                return f"the friend cards are named: {', '.join(str(s) for s in st.slots)}"
            return "the landlord names the friend cards after burying the kitty"
        if word == "play":
            if stage in ("lobby", "ready"):
                return "no cards are dealt yet"
            if stage == "call":
                return "the cards are still being dealt; tricks start after the kitty is buried"
            if stage == "bury":
                return (
                    "bury the kitty first: 'kitty' with "
                    + str(st.rules.kitty - len(st.buried))
                    + " cards"
                )
            if stage == "friend":
                return "name your friend cards first ('friend')"
            return "it is not your turn"
        if word == "know":
            return "nothing is known before the deal" if stage in ("lobby", "ready") else now
        if word == "hand":
            return (
                "no cards are dealt yet"
                if stage in ("lobby", "ready")
                else "your hand is shown at your turn"
            )
        if word in ("surrender", "reset"):
            return f"there is no match to {'give up' if word == 'surrender' else 'reset'} yet"
        return now

    def _list(self) -> None:
        st = self.state
        for s in range(self.n):
            if s in self.humans:
                who = "human" + (
                    " (seated)" if s in self.seated or self.started else " (not seated)"
                )
            else:
                b = self.bots[s]
                who = f"bot {b.name if b is not None else '?'}"
            team = ""
            if st.rules.fixed_teams:
                team = " · team " + ("North/South" if s % 2 == 0 else "West/East")
            self.tell(f"  {st.seat_name(s):6} {who}, rank {rank_name(st.ranks[s])}{team}")

    def _score(self) -> None:
        st = self.state
        ranks = ", ".join(f"{st.seat_name(s)} {rank_name(st.ranks[s])}" for s in range(self.n))
        line = f"Round {st.round_no + 1} of {st.rules.rounds}. Ranks: {ranks}"
        if st.round_landlord is not None and st.play is not None:
            line += f"; landlord {st.seat_name(st.round_landlord)}; attacking points so far: {st.points_so_far()}"
        for r in st.results:
            line += f"\n  round {r['round'] + 1}: landlord {st.seat_name(r['landlord'])}, attackers {r['attacking_points']}"
        self.tell(line)

    def _intro(self) -> str:
        r = self.game.rules
        if r.fixed_teams:
            game = (
                "Shengji (tractor): 4 players, North/South against West/East, 2 decks, an "
                "8-card kitty; call trump with a level card while the cards are dealt."
            )
        else:
            game = (
                f"ZPY (finding friends): {r.players} players, {r.decks} decks, a {r.kitty}-card kitty; "
                f"the landlord names {r.friends} friend card(s) and whoever plays one joins the landlord."
            )
        seats = ", ".join(self.state.seat_name(s) for s in self.humans)
        return (
            f"{game} The rules: shengji-bot's README (shared/rules/shengji-bot.md) and "
            f"zpy-reference.md. You play {seats}. Type 'help' for the commands valid now."
        )

    def _know(self, seat: int) -> str:
        """``seat``'s knowledge, from its observations only (the ``know`` command)."""
        st = self.state
        view = self.know.views.get(seat)
        sd = self.know.deals.get(seat)
        if view is None or sd is None or sd.knowledge is None:
            return "Your knowledge of the deal starts when the last card is drawn."
        rows = ["What you know:"]
        voids = [
            f"{st.seat_name(s)}: {', '.join(SUIT_LABELS[x] for x in sorted(view.voids[s]))}"
            for s in range(self.n)
            if view.voids[s] and s != seat
        ]
        rows.append("  voids shown: " + ("; ".join(voids) if voids else "none yet"))
        facts = self.know.honour_facts(seat)
        if facts is None or view.trump is None:
            rows.append("  the trump is not settled yet")
            return "\n".join(rows)
        unseen, located = facts
        rows.append(f"  trump honours out of your sight: {unseen}")
        kn = sd.knowledge
        marg = kn.marginals()
        locs = list(kn.locations)
        faces = sorted({f for f in range(SMALL_JOKER, SMALL_JOKER + 2)} | self._honour_faces(seat))
        for f in faces:
            parts = [
                f"{_loc_name(loc, st)} {marg[f, i]:.2f}"
                for i, loc in enumerate(locs)
                if loc not in (f"P{seat}", "played") and marg[f, i] > 0.005
            ]
            if parts:
                rows.append(f"  {card(f)}: expected copies — " + ", ".join(parts))
        return "\n".join(rows)

    def _honour_faces(self, seat: int) -> set[int]:
        t = self.know.views[seat].trump
        if t is None or t.rank == NT:
            return set()
        return {13 * t.suit + t.rank} if t.suit is not None else {13 * s + t.rank for s in range(4)}

    def _vote_reset(self, seat: int) -> bool:
        """``seat`` votes to reset; the bots say yes or no in turn.  True when the match restarts."""
        st = self.state
        if seat in self.votes:
            self.tell(
                f"{st.seat_name(seat)} has already voted to reset ({len(self.votes)} of {RESET_VOTES} votes)."
            )
            return False
        self.votes.append(seat)
        self.tell(
            f"{st.seat_name(seat)} votes to reset the match ({len(self.votes)} of {RESET_VOTES} votes)."
        )
        for k in range(1, self.n):
            if len(self.votes) >= RESET_VOTES:
                break
            s = (seat + k) % self.n
            if s in self.humans or s in self.votes:
                continue
            if st.ranks[s] > st.ranks[seat] or st.metalevels[s] > st.metalevels[seat]:
                self.tell(f"{st.seat_name(s)} (bot) is ahead and does not approve.")
                continue
            self.votes.append(s)
            self.tell(
                f"{st.seat_name(s)} (bot) approves ({len(self.votes)} of {RESET_VOTES} votes)."
            )
        if len(self.votes) < RESET_VOTES:
            self.tell(f"Not reset: {len(self.votes)} of {RESET_VOTES} votes; the match goes on.")
            return False
        self.tell("Reset: the match starts over from round 1 (every rank back to the start).")
        self._new_match()
        return True

    # ----------------------------------------------------- argument parsers
    def _call_action(self, seat: int, rest: str) -> int:
        st = self.state
        toks = rest.lower().split()
        if not toks:
            raise BadAnswerError("'call' needs a suit: call hearts [strong], or call joker")
        legal = [a for a in st.legal_actions(seat) if a != PASS]
        want: int | None = None
        strong = False
        if len(toks) > 2:
            raise BadAnswerError(f"{toks[2]!r} is one word too many: call SUIT [strong]")
        if len(toks) > 1:
            t = toks[1]
            if t.isdigit():
                want = int(t) if int(t) > 0 else 1
            elif t in ("weak",):
                want = 1
            elif t in ("strong", "s", "pair"):
                strong = True
            else:
                raise BadAnswerError(
                    f"{t!r} is not 'strong' or a number of cards: call SUIT [strong]"
                )
        if toks[0] in ("joker", "jokers", "nt", "j", "sj", "bj", "j-", "j+"):
            options = [a for a in legal if decode_action(a)[1][0] >= SMALL_JOKER]
            if toks[0] in ("bj", "j+"):
                options = [a for a in options if decode_action(a)[1][0] == SMALL_JOKER + 1]
            if toks[0] in ("sj", "j-"):
                options = [a for a in options if decode_action(a)[1][0] == SMALL_JOKER]
        else:
            try:
                s = suit_index(toks[0])
            except InvalidParameterError:
                raise BadAnswerError(
                    f"{toks[0]!r} is not a suit: clubs, diamonds, hearts, spades (C D H S) or joker"
                ) from None
            if s is None:
                raise BadAnswerError(f"{toks[0]!r}: name a suit, or 'joker' for no trump")
            options = [
                a
                for a in legal
                if decode_action(a)[1][0] < SMALL_JOKER and decode_action(a)[1][0] // 13 == s
            ]
        if want is not None:
            options = [a for a in options if decode_action(a)[1][1] == want]
        elif strong:
            options = [a for a in options if decode_action(a)[1][1] >= 2]
        if not options:
            held = st.hand(seat)
            rank = st.bid_rank(seat)
            level = [c for c in held if c < SMALL_JOKER and c % 13 == rank]
            open_ = ", ".join(self._call_text(a) for a in legal) or "none"
            raise BadAnswerError(
                f"{rest.strip()!r} is not a call open to you: you hold "
                f"{format_cards(level) or 'no level cards'}"
                + (
                    f", the call to beat is {st.bids[-1].count} x {st.bids[-1].card}"
                    if st.bids
                    else ""
                )
                + f"; open to you: {open_}"
            )

        def key(a: int) -> int:
            return int(decode_action(a)[1][1])

        return max(options, key=key) if strong else min(options, key=key)

    def _bury_cards(self, seat: int, text: str) -> list[Card]:
        st = self.state
        cs = parse_cards(text)
        need = st.rules.kitty - len(st.buried)
        if len(cs) != need:
            raise BadAnswerError(
                f"'kitty' takes exactly {need} cards, got {len(cs)}: {format_cards(cs) or 'none'}"
            )
        have = Counter(st.hand(seat))
        for c, k in Counter(cs).items():
            if have[c] < k:
                held = "not in your hand" if not have[c] else f"in your hand only {have[c]} time(s)"
                raise BadAnswerError(f"'{c}' is {held}")
        return cs

    def _friend_actions(self, seat: int, text: str) -> list[int]:
        st = self.state
        toks = text.split()
        left = st.rules.friends - len(st.slots)
        if len(toks) != left:
            raise BadAnswerError(f"name exactly {left} friend card(s), got {len(toks)}")
        legal = set(st.legal_actions(seat))
        acts = []
        for tok in toks:
            sl = parse_friend(tok)
            a = friend_action(sl.card, sl.ordinal) if 1 <= sl.ordinal <= st.rules.decks else -1
            if a not in legal or a in acts:
                raise BadAnswerError(
                    f"{tok!r} cannot be a friend card (no trumps, ordinal 1..{st.rules.decks}, no repeats)"
                )
            acts.append(a)
        return acts

    def _play_cards(self, seat: int, text: str) -> list[Card]:
        st = self.state
        cs = parse_cards(text)
        if not cs:
            raise BadAnswerError(
                "'play' needs cards, e.g. " + "play " + format_cards(self._example_play(seat))
            )
        err = st.play_error(seat, cs)
        if err is not None:
            raise IllegalActionError(f"{format_cards(cs)}: {err}")
        return cs

    def _example_play(self, seat: int) -> list[Card]:
        st = self.state
        p = st.play
        if p is None:
            return []
        if p.is_leading():
            h = st.hand(seat)
            return [sort_cards(h, st.trump)[0]] if st.trump is not None and h else h[:1]
        return [card(c) for c in next(iter(p.follow_rules(seat).plays()), ())]

    def _explain_throw(self, seat: int) -> None:
        st = self.state
        for o in reversed(st.observations(seat)):
            if o.kind == "throw_failed" and o.actor == seat:
                blocker = o["blocker"]
                who = st.seat_name(blocker) if blocker is not None else "another player"
                self.tell(
                    f"throw blocked: {who} holds a higher {o['unit']}; you play {format_cards(o['forced'])}"
                )
                return
            if o.kind == "play" and o.actor == seat:
                continue
            break


def _ordinal(k: int) -> str:
    return _ORDINALS[k - 1] if 1 <= k <= len(_ORDINALS) else f"{k}th"


def _loc_name(loc: str, state: ShengjiState) -> str:
    if loc.startswith("P") and loc[1:].isdigit():
        return state.seat_name(int(loc[1:]))
    return "the kitty" if loc == "kitty" else loc


def narrate(args: Any, out: TextIO) -> int:
    """``kripke play shengji``: a narrated bot match, or humans at the seats ``--human``."""
    params = dict(getattr(args, "params", {}) or {})
    variant = getattr(args, "variant", None) or params.pop("variant", "tractor")
    players = getattr(args, "players", None)
    if players is not None:
        params["players"] = players
    game = ShengjiGame(variant=variant, **params)
    n = game.num_players()
    names = (getattr(args, "bots", None) or "").split(",") if getattr(args, "bots", None) else []
    if names and len(names) not in (1, n):
        raise InvalidParameterError(f"--bots needs 1 or {n} names, got {len(names)}")
    seed = int(getattr(args, "seed", 0) or 0)
    raw = getattr(args, "human", None)
    if getattr(args, "humans", None) is None and raw is not None and not isinstance(raw, int):
        humans = list(human_seats(SimpleNamespace(humans=list(raw)), n))  # a list as ``human``
    else:
        humans = list(human_seats(args, n))
    bots: list[Bot | None] = []
    for s in range(n):
        if s in humans:
            bots.append(None)
            continue
        name = names[s if len(names) == n else 0] if names else "heuristic"
        bots.append(make_bot("shengji", name.strip(), seed=seed * 100 + s))
    stdin = getattr(args, "stdin", None) or sys.stdin
    if humans and not (hasattr(stdin, "isatty") and stdin.isatty()):
        stdin = _Echo(stdin, out)
    table_ = Table(
        game,
        bots,
        seed,
        out,
        humans or None,
        quiet=bool(getattr(args, "quiet", False)),
        stdin=stdin,
    )
    return table_.run()
