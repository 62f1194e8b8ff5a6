"""Human seats at the game tables see exactly what their seat observes.

A scripted human (an input stream that answers from the human's own output)
plays full seeded games.  Every card list the table prints is rendered
through the table's ``cards_text``, which these tests wrap in markers, so
each printed list can be checked against the engine's own observations of
the human seat at that moment: a list may be printed only if it is the
seat's current hand or a list of cards the seat has observed (its deal,
its plays, revealed cards, a pile it took).  Bad answers at every prompt
get a message naming the token and leave the game unchanged.
"""

from __future__ import annotations

import io
import re
from argparse import Namespace
from collections.abc import Callable
from typing import Any

import pytest

from games.prompt import BadAnswerError, Command, InputClosedError, Prompt, parse_int

MARK = re.compile(r"«([^»]*)»")


def _marked(cards: Any) -> str:
    return "«" + " ".join(str(c) for c in cards) + "»"


def _lists_in(obs_seq: Any, names: set[str]) -> set[tuple[str, ...]]:
    """Every card list (sorted) and single card found in a seat's observations."""
    out: set[tuple[str, ...]] = {()}
    for o in obs_seq:
        for _, v in o.data:
            if isinstance(v, str) and v in names:
                out.add((v,))
            elif isinstance(v, tuple) and v and all(isinstance(x, str) for x in v):
                if all(x in names for x in v):
                    out.add(tuple(sorted(v)))
                    out.update((x,) for x in v)
    return out


class Recorder:
    """Wraps a state class: before each action, notes the output length and what
    each watched seat may have been shown so far (``allowed(state, seat)``)."""

    def __init__(
        self,
        out: io.StringIO,
        seats: tuple[int, ...],
        allowed: Callable[..., Any],
        names: Callable[[int], str] = lambda s: f"P{s}",
    ):
        self.out, self.seats, self.allowed = out, seats, allowed
        self.names = {names(s): s for s in seats}
        self.marks: list[tuple[int, dict[int, set[tuple[str, ...]]]]] = []
        self.final: Any = None

    def note(self, state: Any) -> None:
        self.marks.append(
            (len(self.out.getvalue()), {s: self.allowed(state, s) for s in self.seats})
        )
        self.final = state

    def check(self, text: str, end_marker: str) -> None:
        """Every marked list printed before ``end_marker`` was allowed when it was printed."""
        end = text.find(end_marker)
        assert end > 0, f"no final reveal ({end_marker!r}) in the output"
        checked = 0
        for m in MARK.finditer(text[:end]):
            pos = m.end()
            snap = next((a for at, a in self.marks if at >= pos), None)
            assert snap is not None
            cards = tuple(sorted(m.group(1).split()))
            seat = _seat_at(text, m.start(), self.seats, self.names)
            ok = snap[seat] if seat is not None else set.intersection(*snap.values())
            assert cards in ok or _within(cards, None, snap, seat), (
                f"P{seat} shown {cards} before the rules revealed them, at "
                f"...{text[max(0, m.start() - 300) : m.end()]!r}"
            )
            checked += 1
        assert checked > 10


def _within(cards: tuple[str, ...], hand: Any, snap: Any, seat: int | None) -> bool:
    """Some cards of the seat's own hand (a list of its legal cards, say)."""
    from collections import Counter

    if seat is None:
        return False
    hands = [x for x in snap[seat] if isinstance(x, tuple) and x[:1] == ("HAND",)]
    return any(not Counter(cards) - Counter(h[1:]) for h in hands)


def _seat_at(text: str, pos: int, seats: tuple[int, ...], names: dict[str, int]) -> int | None:
    """The human seat at the terminal at ``pos`` (hot-seat: the last hand-over line)."""
    if len(seats) == 1:
        return seats[0]
    hand = [m for m in re.finditer(r"--- (\S+) at the terminal", text[:pos])]
    return names[hand[-1].group(1)] if hand else None


class ScriptedHuman:
    """Stdin for a human seat: answers from the human's own output.

    ``answer(text)`` gives the valid answer to the question the output ends
    with; on every ``bad_every``-th question the first reply is ``bad(text)``
    (a wrong answer), and the valid one follows when the question repeats.
    """

    def __init__(
        self,
        out: io.StringIO,
        answer: Callable[[str], str],
        bad: Callable[[str], str] | None = None,
        bad_every: int = 3,
    ):
        self.out, self.answer, self.bad, self.every = out, answer, bad, bad_every
        self.valid = 0
        self.was_bad = False
        self.bad_given: list[str] = []

    def readline(self) -> str:
        text = self.out.getvalue()
        self.reads = getattr(self, "reads", 0) + 1
        if self.reads > 3000:
            raise RuntimeError("the scripted human is stuck at: " + text[-600:])
        if self.bad is not None and not self.was_bad and self.valid % self.every == 0:
            self.was_bad = True
            reply = self.bad(text)
            self.bad_given.append(reply)
            return reply + "\n"
        self.was_bad = False
        self.valid += 1
        return self.answer(text) + "\n"


def _run(module: Any, monkeypatch: Any, args: dict[str, Any], stdin: Any) -> str:
    out = stdin.out
    monkeypatch.setattr(module, "cards_text", _marked)
    ns = Namespace(
        **{"variant": None, "seed": 0, "players": None, "bots": None, "quiet": False}
        | {"params": {}, "human": None, "humans": None, "stdin": stdin}
        | args
    )
    assert module.narrate(ns, out) == 0
    return out.getvalue()


# ====================================================================== prompt
def test_prompt_names_the_bad_token_and_repeats():
    out = io.StringIO()
    yes = Command("yes", "yes", "call", value=True, aliases=("y",))
    no = Command("no", "no", "pass", value=False)
    assert Prompt(io.StringIO("maybe\n\n$ y\n"), out).ask("Call?", [yes, no]) is True
    text = out.getvalue()
    assert "'maybe' is not an answer here; valid now: yes, no" in text
    assert "an empty answer; valid now: yes, no" in text
    assert text.count("Call? [yes/no]") == 3
    out = io.StringIO()
    with pytest.raises(InputClosedError):
        Prompt(io.StringIO("no thanks\n"), out).ask("Call?", [yes, no])
    assert "'no' takes nothing after it, got 'thanks'" in out.getvalue()


def test_prompt_help_lists_the_commands_valid_now_with_examples():
    out = io.StringIO()
    play = Command("play", "play 7H", "put cards down", parse=str.split)
    assert Prompt(io.StringIO("?\n$PLAY 7H 8H\n"), out).ask("Play:", [play]) == ["7H", "8H"]
    assert "play    put cards down  (e.g. 'play 7H')" in out.getvalue()
    with pytest.raises(BadAnswerError, match="'x' is not a guess: give a whole number from 0 to 4"):
        parse_int("x", 0, 4, what="a guess")


def test_prompt_hot_seat_announces_each_change_of_seat():
    out = io.StringIO()
    p = Prompt(io.StringIO("a\nb\nc\n"), out, hot_seat=True)
    word = Command("a", "a", "a", aliases=("b", "c"))
    for seat in (0, 0, 2):
        p.ask("?", [word], seat=seat)
    assert out.getvalue().count("at the terminal") == 2


# ========================================================================== BS
def _bs_allowed(state: Any, seat: int) -> set[tuple[str, ...]]:
    names = set(state.g.deck.names)
    out = _lists_in(state.observations(seat), names)
    out.add(tuple(sorted(state.hands[seat])))
    out.add(("HAND", *sorted(state.hands[seat])))
    return out


def _bs_answer(text: str) -> str:
    last = text.rsplit("\n", 1)[-1]
    if "Call BS?" in last:
        before = text.rsplit("Call BS?", 1)[0].rsplit("\n", 4)
        return "yes" if any("you know it is a lie" in x for x in before) else "no"
    hand = MARK.findall(text.rsplit("Your hand: ", 1)[1])[0].split()
    return f"$play {hand[0]}"


def _bs_bad(text: str) -> str:
    return "maybe" if "Call BS?" in text.rsplit("\n", 1)[-1] else "play QQ"


def _bs_game(monkeypatch: Any, variant: str, seed: int, humans: tuple[int, ...], bad: bool):
    import games.bs.table as table
    from games.bs.state import BSState

    out = io.StringIO()
    rec = Recorder(out, humans, _bs_allowed)
    original = BSState.apply_action

    def apply(self: Any, action: int) -> None:
        rec.note(self)
        original(self, action)

    monkeypatch.setattr(BSState, "apply_action", apply)
    stdin = ScriptedHuman(out, _bs_answer, _bs_bad if bad else None)
    bots = "probabilistic,knowledge,liar,random"
    args = {"variant": variant, "seed": seed, "bots": bots, "human": humans[0]}
    text = _run(table, monkeypatch, args | {"humans": list(humans)}, stdin)
    rec.note(rec.final)
    monkeypatch.setattr(BSState, "apply_action", original)
    return text, rec, stdin


@pytest.mark.parametrize(("variant", "seed"), [("koth", 7), ("classic", 1)])
def test_bs_human_sees_only_its_seat(monkeypatch, variant, seed):
    text, rec, stdin = _bs_game(monkeypatch, variant, seed, (0,), bad=True)
    rec.check(text, "End of the game: every hand revealed.")
    state = rec.final
    tail = text.split("End of the game: every hand revealed.")[1]
    for s in range(4):
        assert _marked(state.hands[s]) in tail or not state.hands[s]
    # the truth of an unchecked claim of another seat is told only at the end
    head = text.split("End of the game")[0]
    assert not re.search(r"P[123] claims [^\n]*really", head)
    assert "Spectator view" not in text and "You play P0" in text
    # bad answers named the token and what is valid
    assert "'maybe' is not an answer here; valid now: yes, no" in text
    assert "'QQ' is not a card of this deck" in text
    assert "maybe" in stdin.bad_given and "play QQ" in stdin.bad_given


def test_bs_bad_answers_leave_the_game_unchanged(monkeypatch):
    bad_text, bad_rec, _ = _bs_game(monkeypatch, "classic", 3, (2,), bad=True)
    good_text, good_rec, _ = _bs_game(monkeypatch, "classic", 3, (2,), bad=False)
    a, b = bad_rec.final, good_rec.final
    assert a.history() == b.history() and a.returns() == b.returns()
    assert bad_text.count("valid now") > 0 and "valid now" not in good_text


def test_bs_hot_seat_shows_each_seat_its_cards_only_at_its_turn(monkeypatch):
    text, rec, _ = _bs_game(monkeypatch, "classic", 4, (0, 2), bad=False)
    assert "Hot-seat: P0, P2 share this terminal" in text
    assert "--- P0 at the terminal" in text and "--- P2 at the terminal" in text
    assert "your P(lie) = " in text  # each seat's own knowledge, at its own prompt
    rec.check(text, "End of the game: every hand revealed.")


def test_bs_classic_human_output_names_no_unseen_card(monkeypatch):
    """Without markers: every card token printed before the end was observed by the seat."""
    import games.bs.table as table
    from games.bs.state import BSState

    out = io.StringIO()
    seen: list[tuple[int, set[str]]] = []
    original = BSState.apply_action

    last: list[Any] = []

    def apply(self: Any, action: int) -> None:
        cards = {c for lst in _bs_allowed(self, 1) for c in lst}
        seen.append((len(out.getvalue()), cards))
        last[:] = [self]
        original(self, action)

    monkeypatch.setattr(BSState, "apply_action", apply)

    def answer(text: str) -> str:
        if "Call BS?" in text.rsplit("\n", 1)[-1]:
            return "no"
        return "play " + text.rsplit("Your hand: ", 1)[1].split()[0]

    stdin = ScriptedHuman(out, answer)
    ns = Namespace(
        variant="classic", seed=2, players=None, bots=None, quiet=False, params={},
        human=1, humans=[1], stdin=stdin,
    )  # fmt: skip
    table.narrate(ns, out)
    text = out.getvalue()
    end = text.index("End of the game")
    seen.append((end, {c for lst in _bs_allowed(last[0], 1) for c in lst}))
    deck = {f"{r}{s}" for r in "2 3 4 5 6 7 8 9 10 J Q K A".split() for s in "CDHS"}
    for m in re.finditer(r"\b(10|[2-9JQKA])[CDHS]\b", text[:end]):
        if m.group(0) not in deck:
            continue
        allowed = next(c for at, c in seen if at >= m.end())
        assert m.group(0) in allowed, text[max(0, m.start() - 200) : m.end()]


def test_bs_spectator_view_is_labelled_and_reads_well():
    import games.bs.table as table

    out = io.StringIO()
    bots = "liar,random,liar,random"
    ns = Namespace(variant="koth", seed=7, players=None, bots=bots, quiet=False, params={})
    table.narrate(ns, out)
    text = out.getvalue()
    assert text.startswith("Spectator view: all hands shown")
    assert "0=2 1=3 2=4 3=5 4=6 5=7 6=8 7=9 8=10 9=A 10=J 11=Q 12=K." in text
    assert "P1 claims six 0s (2s), really 2 8 8 9 9 11: a lie" in text
    assert "P0 claims one 1 (a 3), really 6: a lie" in text
    assert not re.search(r"\b1 (cards|rounds|deals)", text)
    assert "(up)" in text and "a count goes up when" in text
    assert "everyone knows it is a lie: there are only 4 cards of rank" in text
    # a knowledge line is printed only when a count changed
    lines = [x for x in text.splitlines() if "deals each seat still considers" in x]
    assert len(lines) == len(set(lines))


# ================================================================ BoerenBridge
def _bb_allowed(state: Any, seat: int) -> set[tuple[str, ...]]:
    from games.boerenbridge.rules import card_str

    names = {card_str(c) for c in range(32)}
    out = _lists_in(state.observations(seat), names)
    out.add(tuple(sorted(card_str(c) for c in state.hand(seat))))
    out.add(("HAND", *sorted(card_str(c) for c in state.hand(seat))))
    return out


def _bb_marked(cards: Any) -> str:
    from games.boerenbridge.rules import card_str

    return _marked(card_str(c) for c in cards)


def _bb_answer(text: str) -> str:
    last_lines = text.rsplit("\n", 2)
    if "How many tricks?" in last_lines[-1]:
        return "1" if "'0' is not allowed" in last_lines[-2] else "0"
    head, tail = text.rsplit("your hand: ", 1)
    hand = MARK.findall(tail)[0].split()
    tried = tail.count("is not one of your legal cards")
    return f"play {hand[tried]}"


def _bb_bad(text: str) -> str:
    return "many" if "How many tricks?" in text.rsplit("\n", 1)[-1] else "ZZ"


def _bb_game(monkeypatch: Any, variant: str | None, humans: tuple[int, ...], bad: bool, seed=3):
    import games.boerenbridge.table as table
    from games.boerenbridge.rules import SEAT_NAMES
    from games.boerenbridge.state import BoerenBridgeState

    out = io.StringIO()
    rec = Recorder(out, humans, _bb_allowed, names=lambda s: SEAT_NAMES[s])
    original = BoerenBridgeState.apply_action

    def apply(self: Any, action: int) -> None:
        rec.note(self)
        original(self, action)

    monkeypatch.setattr(BoerenBridgeState, "apply_action", apply)
    stdin = ScriptedHuman(out, _bb_answer, _bb_bad if bad else None)
    params = {"rounds": "2,3"} if variant is None else {}
    args = {"variant": variant, "seed": seed, "bots": "greedy", "params": params}
    args |= {"human": humans[0], "humans": list(humans)}
    monkeypatch.setattr(table, "cards_text", _bb_marked)
    ns = Namespace(**{"players": None, "quiet": False, "stdin": stdin} | args)
    assert table.narrate(ns, out) == 0
    rec.note(rec.final)
    monkeypatch.setattr(BoerenBridgeState, "apply_action", original)
    return out.getvalue(), rec, stdin


@pytest.mark.parametrize("variant", [None, "lamas"])
def test_boerenbridge_human_sees_only_its_seat(monkeypatch, variant):
    from games.boerenbridge.rules import card_str

    text, rec, stdin = _bb_game(monkeypatch, variant, (1,), bad=True)
    rec.check(text, "End of the game")
    assert "You play East" in text and "Spectator view" not in text
    assert "deals each seat considers" not in text and "  North 4" not in text
    undealt = _marked(card_str(c) for c in sorted(rec.final.undealt(), reverse=True))
    assert undealt in text.split("End of the game")[1] or not rec.final.undealt()
    assert "'many' is not a guess: give a whole number from 0 to" in text
    assert "'ZZ' is not a BoerenBridge card" in text


def test_boerenbridge_bad_answers_leave_the_game_unchanged(monkeypatch):
    _, bad, _ = _bb_game(monkeypatch, None, (0,), bad=True, seed=5)
    _, good, _ = _bb_game(monkeypatch, None, (0,), bad=False, seed=5)
    assert bad.final.history() == good.final.history()
    assert bad.final.returns() == good.final.returns()


def test_boerenbridge_hot_seat(monkeypatch):
    text, rec, _ = _bb_game(monkeypatch, None, (0, 2), bad=False)
    assert "--- North at the terminal" in text and "--- South at the terminal" in text
    rec.check(text, "End of the game")


def test_boerenbridge_dealer_may_not_make_the_guesses_fit():
    import random

    from games.base import sample_chance
    from games.boerenbridge.state import make_game
    from games.boerenbridge.table import HumanBot

    game = make_game(None, rounds="2")
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    while state.current_player() != state.dealer:
        state.apply_action(state.legal_actions()[0])
    dealer = state.current_player()
    out = io.StringIO()
    before = state.information_state_string(dealer)
    forbidden = 2 - sum(g for g in state.guesses if g is not None)
    ok = next(g for g in range(3) if g != forbidden)
    bot = HumanBot(Prompt(io.StringIO(f"{forbidden}\nguess {ok}\n"), out))
    bot.restart(game, dealer)
    for o in state.observations(dealer):
        bot.inform(o)
    action = bot.step(state.legal_actions())
    assert f"'{forbidden}' is not allowed: as the dealer" in out.getvalue()
    assert state.action_to_string(dealer, action) == f"guess {ok}"
    assert state.information_state_string(dealer) == before


# ====================================================================== BS-ZPY
def _z_allowed(state: Any, seat: int) -> set[tuple[str, ...]]:
    from games.shengji.rules.cards import Card

    out: set[tuple[str, ...]] = {()}
    for o in state.observations(seat):
        for _, v in o.data:
            if isinstance(v, Card):
                out.add((str(v),))
            elif isinstance(v, tuple) and v and all(isinstance(x, Card) for x in v):
                out.add(tuple(sorted(str(x) for x in v)))
                out.update((str(x),) for x in v)
    out.add(("HAND", *sorted(str(c) for c in state.hand(seat))))
    return out


def _z_marked(cards: Any) -> str:
    return _marked(str(c) for c in cards)


_EXAMPLE = re.compile(r"\(e\.g\. '((?:bid|friend) [^']*)'\)")


def _z_answer(text: str) -> str:
    lines = text.split("\n")
    last = lines[-1]
    hand = re.findall(r"[Yy]our hand: «([^»]*)»", text)[-1].split()
    if "Call trump?" in last or "Name a friend card:" in last:
        recent = "\n".join(lines[-8:])
        return _EXAMPLE.findall(recent)[-1] if "commands valid now" in recent else "help"
    if "Bury" in last:
        k = int(re.search(r"Bury (\d+)", last).group(1))
        return "kitty " + " ".join(hand[:k])
    if "Call BS?" in last:
        return "no"
    assert "Your play:" in last, last
    trick = re.split(r"wins the trick|is the landlord", text)[-1]
    lead = re.findall(r"leads (\d+) cards? face down", trick)
    k = int(lead[0]) if lead else 1
    since = text.rsplit("our hand: ", 1)[1]
    j = since.count("cannot be played now")
    return "play " + " ".join(hand[j : j + k])


def _z_bad(text: str) -> str:
    last = text.rsplit("\n", 1)[-1]
    if "Bury" in last:
        return "kitty 3C"
    if "Name a friend card:" in last:
        return "friend ZZ"
    if "Your play:" in last:
        return "play ZZ"
    return "maybe"


def _z_game(
    monkeypatch: Any,
    seed: int,
    humans: tuple[int, ...],
    bad: bool,
    bots: str = "bluffer,truthful,knowledge,bluffer",
):
    import games.bs_zpy.table as table
    from games.bs_zpy.state import BSZPYState

    out = io.StringIO()
    rec = Recorder(out, humans, _z_allowed)
    original = BSZPYState.apply_action

    def apply(self: Any, action: int) -> None:
        rec.note(self)
        original(self, action)

    monkeypatch.setattr(BSZPYState, "apply_action", apply)
    monkeypatch.setattr(table, "cards_text", _z_marked)
    stdin = ScriptedHuman(out, _z_answer, _z_bad if bad else None, bad_every=1)
    ns = Namespace(
        variant=None, seed=seed, players=None, bots=bots,
        quiet=False, params={"players": 4, "decks": 1}, human=humans[0], humans=list(humans),
        stdin=stdin,
    )  # fmt: skip
    assert table.narrate(ns, out) == 0
    rec.note(rec.final)
    monkeypatch.setattr(BSZPYState, "apply_action", original)
    return out.getvalue(), rec


def test_bs_zpy_human_sees_only_its_seat(monkeypatch):
    for seed in (4, *range(12)):  # seed 4: the human seat becomes the landlord
        text, rec = _z_game(monkeypatch, seed, (0,), bad=True)
        if "P0 (you) is the landlord" in text:
            break
    assert "P0 (you) is the landlord" in text, "no seed made the human the landlord"
    rec.check(text, "End of the game")
    assert "You play P0" in text and "Spectator view" not in text
    assert "You pick up the kitty: «" in text and "You bury «" in text
    # bad answers at every prompt type: named, and the question repeated
    assert "'maybe' is not an answer here; valid now: bid, pass" in text
    assert "bury exactly 6 cards, not 1" in text
    assert "'ZZ' is not a" in text and "'maybe' is not an answer here; valid now: yes, no" in text
    assert "'ZZ' cannot be played now" in text or "'ZZ' is not a card" in text


def test_bs_zpy_final_reveal_tells_every_unchecked_lie(monkeypatch):
    text, rec = _z_game(monkeypatch, 1, (2,), bad=False, bots="random")
    rec.check(text, "End of the game")
    state = rec.final
    head, tail = text.split("End of the game")
    liars = re.findall(r'P([013]) \(random\) says "peanut butter"', head)
    assert len(liars) >= 3
    told = re.findall(r"P(\d)'s claim (\d+), «([^»]*)»: really «([^»]*)»", tail)
    assert sorted(s for s, *_ in told) == sorted(liars)
    for seat, idx, _claim, real in told:
        obs = state.observations(int(seat))
        mine = [o for o in obs if o.kind == "claim" and o.actor == int(seat)]
        assert " ".join(map(str, mine[int(idx) - 1]["cards"])) == real


def test_bs_zpy_bad_answers_leave_the_game_unchanged(monkeypatch):
    for seed in (4, *range(12)):  # a seed where the human seat becomes the landlord
        plain, good = _z_game(monkeypatch, seed, (0,), bad=False)
        if "P0 (you) is the landlord" in plain:
            break
    text, bad = _z_game(monkeypatch, seed, (0,), bad=True)
    assert "You bury «" in text and "bury exactly 6 cards, not 1" in text
    assert bad.final.history() == good.final.history()


def test_bs_zpy_hot_seat(monkeypatch):
    text, rec = _z_game(monkeypatch, 2, (1, 3), bad=False)
    assert "Hot-seat: P1, P3 share this terminal" in text
    assert "--- P1 at the terminal" in text and "--- P3 at the terminal" in text
    assert "your chance the claim can be true" in text
    rec.check(text, "End of the game")


def test_bs_zpy_spectator_view_is_labelled():
    import games.bs_zpy.table as table

    out = io.StringIO()
    ns = Namespace(variant=None, seed=4, players=None, bots="truthful", quiet=False,
                   params={"players": 4, "decks": 1})  # fmt: skip
    table.narrate(ns, out)
    text = out.getvalue()
    assert text.startswith("Spectator view: every seat's knowledge is shown")
    assert "chance the claim can be true" in text and "card(s)" not in text


def test_bs_zpy_human_reads_its_own_claim_as_the_others_may():
    from games.base import load_game
    from games.bs_zpy.table import Narrator

    hands = ["AS AS 3H", "KS 4H 5H", "QS 6H 7H", "JS 8H 9H", "10S 10H 9C"]
    game = load_game("bs-zpy", players=5)
    state = game.position(hands, trump="2D", landlord=0, friends=["AH"])
    out = io.StringIO()
    nar = Narrator(game, out, humans=(0,))
    nar.feed(state)
    state.play_claim(0, "3H", claim="KS")
    nar.feed(state)
    text = out.getvalue()
    assert "Your hand: 3H AS AS" in text
    assert "P0 (you) leads 1 card face down, claiming KS (really 3H)." in text
    line = re.search(r"a lie; your chance that each seat holds enough claimed cards to know "
                     r"it: P1 ([\d.]+), P2 ([\d.]+), P3 ([\d.]+), P4 ([\d.]+)", text)  # fmt: skip
    assert line is not None and all(0.0 <= float(x) <= 1.0 for x in line.groups())
    for other in ("4H", "5H", "6H", "7H", "8H", "9H", "10H", "9C", "QS", "JS", "10S"):
        assert other not in text  # no card of another seat
    state.decide_calls({})
    nar.feed(state)
    state.play_claim(1, "KS", claim="KS")
    nar.feed(state)
    assert "your chance the claim can be true" in out.getvalue()


def test_bs_first_card_prompt_names_a_bad_lay():
    import random

    from games.base import load_game, sample_chance
    from games.bs.table import HumanBot

    game = load_game("bs", variant="classic")
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    seat = state.current_player()
    two = " ".join(state.hands[seat][:2])
    out = io.StringIO()
    bot = HumanBot(stdin=io.StringIO(f"play {two}\nmaybe\n$play {two.split()[0]}\n"), out=out)
    bot.restart(game, seat)
    for o in state.observations(seat):
        bot.inform(o)
    before = state.information_state_string(seat)
    action = bot.step(state.legal_actions())
    assert "lay exactly one card face up, not 2" in out.getvalue()
    assert "'maybe' is not a card of this deck" in out.getvalue()
    assert "(valid now: play; type 'help' for examples)" in out.getvalue()
    assert game.cards_of(action) == (two.split()[0],)
    assert state.information_state_string(seat) == before


def test_play_command_takes_several_human_seats(capsys, monkeypatch):
    from kripke.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    out = io.StringIO()
    assert main(["play", "bs", "--human", "0", "--human", "9"], out=out) == 2
    assert "--human 9 is not a seat of this game (0..3)" in capsys.readouterr().err
    code = main(["play", "bs", "--human", "0,2", "--seed", "3"], out=out)
    assert code != 0 and "no more input" in capsys.readouterr().err
    assert "Hot-seat: P0, P2 share this terminal" in out.getvalue()
    with pytest.raises(SystemExit):
        main(["play", "bs", "--human", "x"], out=out)
    assert "--human takes seat numbers, got 'x'" in capsys.readouterr().err
