"""The terminal table: ``kripke play shengji [--variant tractor|zpy] [--human SEAT]``.

Without ``--human`` the bots play and every event is narrated.  With
``--human SEAT`` you play that seat by typing the shengji-bot commands (one
per line on standard input):

``join``            take your seat (the table starts when you join)
``list``            the players and their seats
``deal``            draw the cards (bids are offered as the cards arrive)
``call SUIT [strong]``  bid with a level card of SUIT (``strong``: a pair); ``call joker`` bids no trump
``pass``            make no bid now
``kitty CARDS``     bury these cards (as landlord)
``friend CARD ...`` name friend cards (``AS`` or ``2:AS`` for the second AS)
``play CARDS``      play these cards
``hand``            show your hand
``score``           the scoreboard
``surrender``       give up the match
``help``            this list

Every rejected command says why, e.g. ``must follow hearts: you hold 3
hearts (...)`` or ``throw blocked: East holds a higher pair; you play 10D 10D``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from games.base import CHANCE, TERMINAL, Bot, Observation, make_bot, sample_chance
from games.errors import CardParseError, IllegalActionError, InvalidParameterError
from games.shengji.rules.cards import SMALL_JOKER, format_cards, parse_cards
from games.shengji.rules.friends import parse_friend
from games.shengji.rules.trump import SUIT_LABELS, sort_cards, suit_index
from games.shengji.state import PASS, ShengjiGame, decode_action, friend_action

__all__ = ["narrate", "Table", "HELP"]

HELP = (
    ("``join``" + __doc__.split("``join``", 1)[1].split("Every rejected", 1)[0])
    .replace("``", "")
    .strip()
)


class Table:
    """Runs one match: bots at every seat but the human one, narrating to ``out``."""

    def __init__(
        self,
        game: ShengjiGame,
        bots: list[Bot | None],
        seed: int,
        out: TextIO,
        human: int | None = None,
        read: Callable[[], str | None] | None = None,
        quiet: bool = False,
    ):
        import random

        self.game = game
        self.state = game.new_initial_state()
        self.bots = bots
        self.rng = random.Random(seed)
        self.out = out
        self.human = human
        self.read = read
        self.quiet = quiet
        self.seen = [0] * game.num_players()
        for seat, b in enumerate(bots):
            if b is not None:
                b.restart(game, seat)
        self.joined = human is None
        self.surrendered = False

    def name(self, seat: int | None) -> str:
        if seat is None:
            return "the table"
        return self.state.seat_name(seat) + (" (you)" if seat == self.human else "")

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, file=self.out)

    # --------------------------------------------------------------- events
    def _flush(self) -> None:
        st = self.state
        for seat, b in enumerate(self.bots):
            obs = st.observations(seat)
            while self.seen[seat] < len(obs):
                o = obs[self.seen[seat]]
                self.seen[seat] += 1
                if b is not None:
                    b.inform(o)
                if seat == self._narrator_seat():
                    self._narrate(o)

    def _narrator_seat(self) -> int:
        return self.human if self.human is not None else 0

    def _narrate(self, o: Observation) -> None:
        k, a = o.kind, o.actor
        st = self.state
        if k == "draw":
            if a == self.human and o.get("card") is not None and self.human is not None:
                return
            return
        if k == "first":
            self.say(f"The deal starts with {self.name(o['start'])}.")
        elif k == "bid":
            what = "no trump" if o["card"] >= SMALL_JOKER else SUIT_LABELS[o["card"] // 13]
            self.say(f"{self.name(a)} calls {what}, showing {o['count']} x {o['card']}.")
        elif k == "redeal":
            self.say("Nobody called: the cards are dealt again.")
        elif k == "kitty_reveal":
            self.say(f"Nobody called: the first kitty card is {o['card']}.")
        elif k == "trump":
            suit = o["suit"]
            t = "no trump" if suit == "none" else suit
            self.say(f"{self.name(a)} is the landlord; trump: {o['rank']} of {t}.")
        elif k == "kitty" and o.get("cards") is not None:
            self.say(f"You pick up the kitty: {format_cards(o['cards'])}.")
        elif k == "bury":
            self.say(f"{self.name(a)} buries {o['count']} cards.")
        elif k == "friends":
            slots = ", ".join(
                f"the {['first', 'second', 'third', 'fourth', 'fifth'][o_ - 1] if o_ <= 5 else str(o_) + 'th'} {c}"
                for c, o_ in o["slots"]
            )
            self.say(f"{self.name(a)} calls for friends: {slots}.")
        elif k == "throw_failed":
            blocker = o["blocker"]
            who = self.name(blocker) if blocker is not None else "someone"
            self.say(
                f"{self.name(a)} throws {format_cards(o['attempted'])} but {who} holds a higher "
                f"{o['unit']}: only {format_cards(o['forced'])} is played."
            )
        elif k == "play":
            verb = "leads" if o["lead"] else "plays"
            self.say(f"{self.name(a)} {verb} {format_cards(o['cards'])}.")
        elif k == "trick":
            self.say(f"  {self.name(a)} wins the trick ({o['points']} points).")
        elif k == "join":
            extra = " (already on the team)" if o["already"] else ""
            self.say(f"  {self.name(a)} joins the landlord's team{extra}.")
        elif k == "round_end":
            team = ", ".join(self.name(s) for s in o["team"])
            self.say(
                f"Round over. Kitty {format_cards(o['kitty'])} ({o['kitty_points']} points to the last trick). "
                f"Attackers scored {o['attacking_points']}; landlord side ({team}): "
                f"{'wins' if o['landlord_won'] else 'loses'}, {o['result']}."
            )
            self.say("Ranks: " + ", ".join(f"{self.name(s)} {r}" for s, r in enumerate(o["ranks"])))
        del st

    # ----------------------------------------------------------------- run
    def run(self) -> int:
        st = self.state
        while True:
            self._flush()
            cur = st.current_player()
            if cur == TERMINAL or self.surrendered:
                break
            if cur == CHANCE:
                st.apply_action(sample_chance(st, self.rng))
                continue
            if cur == self.human:
                if not self._human_turn():
                    break
                continue
            bot = self.bots[cur]
            assert bot is not None
            st.apply_action(bot.step(st.legal_actions(cur)))
        self._flush()
        if self.surrendered:
            print("You surrendered.", file=self.out)
            return 0
        rets = st.returns()
        print(
            "Match over. Levels gained: "
            + ", ".join(f"{self.name(s)} {int(r):+d}" for s, r in enumerate(rets)),
            file=self.out,
        )
        return 0

    # --------------------------------------------------------------- human
    def _human_turn(self) -> bool:
        seat = self.human
        assert seat is not None and self.read is not None
        self._prompt()
        while True:
            line = self.read()
            if line is None:
                print("(end of input)", file=self.out)
                return False
            line = line.strip()
            if not line:
                continue
            try:
                done = self._command(seat, line)
            except (IllegalActionError, CardParseError, InvalidParameterError) as exc:
                print(f"rejected: {exc}", file=self.out)
                continue
            if self.surrendered:
                return True
            if done:
                return True

    def _prompt(self) -> None:
        st = self.state
        seat = self.human
        assert seat is not None
        ph = st.phase
        if ph == "bid":
            opts = ", ".join(
                st.action_to_string(seat, a) for a in st.legal_actions(seat) if a != PASS
            )
            print(
                f"[{self.name(seat)}] you may call ({opts}) or pass.  Hand: {self._hand()}",
                file=self.out,
            )
        elif ph == "bury":
            print(
                f"[{self.name(seat)}] bury {st.rules.kitty} cards with: kitty CARDS.  Hand: {self._hand()}",
                file=self.out,
            )
        elif ph == "friend":
            print(
                f"[{self.name(seat)}] name {st.rules.friends} friend card(s) with: friend CARD ...",
                file=self.out,
            )
        elif ph == "play":
            print(
                f"[{self.name(seat)}] your turn: play CARDS.  Hand: {self._hand()}", file=self.out
            )

    def _hand(self) -> str:
        st = self.state
        seat = self.human
        assert seat is not None
        cards = st.hand(seat)
        if st.trump is not None:
            cards = sort_cards(cards, st.trump)
        return format_cards(cards)

    def _command(self, seat: int, line: str) -> bool:
        st = self.state
        word, _, rest = line.partition(" ")
        word = word.lower().lstrip("$")
        if word == "help":
            print(HELP, file=self.out)
            return False
        if word == "hand":
            print(self._hand(), file=self.out)
            return False
        if word == "list":
            for s in range(st.n):
                who = "you" if s == self.human else type(self.bots[s]).__name__
                print(f"{st.seat_name(s)}: {who}, rank {_rank(st.ranks[s])}", file=self.out)
            return False
        if word == "score":
            print(
                "Ranks: "
                + ", ".join(f"{self.name(s)} {_rank(st.ranks[s])}" for s in range(st.n))
                + f"; attacking points this round: {st.points_so_far()}",
                file=self.out,
            )
            return False
        if word == "surrender":
            self.surrendered = True
            return True
        if word in ("join", "deal", "start"):
            print("You are seated; the cards are being dealt.", file=self.out)
            return False
        ph = st.phase
        if word in ("call", "bid"):
            if ph != "bid":
                raise IllegalActionError(
                    "you can call only while the cards are dealt, when a call is open to you"
                )
            st.apply_action(self._call_action(seat, rest))
            return True
        if word == "pass":
            if ph != "bid":
                raise IllegalActionError("there is nothing to pass now")
            st.apply_action(PASS)
            return True
        if word == "kitty":
            if ph != "bury":
                raise IllegalActionError("only the landlord buries the kitty, after the deal")
            st.bury_cards(seat, rest)
            return True
        if word == "friend":
            if ph != "friend":
                raise IllegalActionError(
                    "friends are named by the landlord after burying the kitty"
                )
            slots = [parse_friend(tok) for tok in rest.split()]
            acts = [friend_action(sl.card, sl.ordinal) for sl in slots]
            legal = set(st.legal_actions(seat))
            for a, sl in zip(acts, slots, strict=True):
                if a not in legal:
                    raise IllegalActionError(
                        f"{sl} cannot be a friend card (no trumps, ordinal 1..{st.rules.decks}, no repeats)"
                    )
            if len(slots) > st.rules.friends - len(st.slots):
                raise IllegalActionError(f"name {st.rules.friends - len(st.slots)} friend card(s)")
            for a in acts:
                st.apply_action(a)
            return True
        if word == "play":
            if ph != "play":
                raise IllegalActionError("no trick is being played now")
            cards = parse_cards(rest)
            leading = st.play is not None and st.play.is_leading()
            st.play_cards(seat, cards)
            if leading:
                self._explain_throw(seat)
            return True
        raise IllegalActionError(f"unknown command {word!r}; type help")

    def _explain_throw(self, seat: int) -> None:
        st = self.state
        for o in reversed(st.observations(seat)):
            if o.kind == "throw_failed" and o.actor == seat:
                blocker = o["blocker"]
                who = self.name(blocker) if blocker is not None else "another player"
                print(
                    f"throw blocked: {who} holds a higher {o['unit']}; you play {format_cards(o['forced'])}",
                    file=self.out,
                )
                return
            if o.kind == "play" and o.actor == seat:
                continue
            break

    def _call_action(self, seat: int, rest: str) -> int:
        st = self.state
        toks = rest.lower().split()
        if not toks:
            raise IllegalActionError("call needs a suit: call hearts [strong], or call joker")
        legal = [a for a in st.legal_actions(seat) if a != PASS]
        strong = len(toks) > 1 and toks[1] not in ("0", "weak")
        if toks[0] in ("joker", "jokers", "nt", "j", "sj", "bj", "j-", "j+"):
            options = [a for a in legal if decode_action(a)[1][0] >= SMALL_JOKER]
            if toks[0] in ("bj", "j+"):
                options = [a for a in options if decode_action(a)[1][0] == 53]
            if toks[0] in ("sj", "j-"):
                options = [a for a in options if decode_action(a)[1][0] == 52]
        else:
            s = suit_index(toks[0])
            options = [
                a
                for a in legal
                if decode_action(a)[1][0] < SMALL_JOKER and decode_action(a)[1][0] // 13 == s
            ]
        if strong:
            options = [a for a in options if decode_action(a)[1][1] >= 2]
        if not options:
            held = st.hand(seat)
            rank = st.bid_rank(seat)
            level = [c for c in held if c < SMALL_JOKER and c % 13 == rank]
            raise IllegalActionError(
                f"no such call is open to you: you hold {format_cards(level) or 'no level cards'}"
                + (f" and the current bid is {st.bids[-1]}" if st.bids else "")
            )
        return (
            min(options, key=lambda a: decode_action(a)[1][1])
            if not strong
            else max(options, key=lambda a: decode_action(a)[1][1])
        )


def _rank(r: int) -> str:
    from games.shengji.rules.trump import rank_name

    return rank_name(r)


def _lines(stream: TextIO) -> Iterator[str]:
    yield from stream


def narrate(args: Any, out: TextIO) -> int:
    """``kripke play shengji``: a narrated bot match, or a human at seat ``--human``."""
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
    human = getattr(args, "human", None)
    if human is not None and not 0 <= human < n:
        raise InvalidParameterError(f"--human must be a seat 0..{n - 1}, got {human}")
    bots: list[Bot | None] = []
    for s in range(n):
        if s == human:
            bots.append(None)
            continue
        name = names[s if len(names) == n else 0] if names else "heuristic"
        bots.append(make_bot("shengji", name, seed=seed * 100 + s))
    stdin = sys.stdin
    lines = _lines(stdin)

    def read() -> str | None:
        try:
            line = next(lines)
        except StopIteration:
            return None
        print(f"> {line.rstrip()}", file=out)
        return line

    table = Table(
        game,
        bots,
        seed,
        out,
        human,
        read if human is not None else None,
        bool(getattr(args, "quiet", False)),
    )
    return table.run()
