"""Known answers from the rules texts at late states of full-size seeded games.

Each game is played by seeded bots to a late state where the rules settle an
epistemic fact; ``state.knowledge()`` must answer it (and says which route did):

* BS (``rules/bs.md``): after a caught lie the play is shown to the table and
  the liar takes the pile, so the shown cards are common knowledge to be in the
  liar's hand; the liar saw every card it picked up.
* BoerenBridge (``rules/boerenbridge.md``): a seat that does not follow suit is
  void in it, for everybody, and everybody knows that everybody knows; the
  turned-up trump card is common knowledge.
* Shengji / ZPY: a seat that shows out of the trump suit is known void by all.
  Two decks (identical copies): the structure is refused, the card-symmetry
  quotient takes no copies, and exact counting answers (the void is public).
* BS-ZPY: a checked claim's cards are common knowledge.  Its histories carry
  the announced truth of claims (facts) on a two-deck structure that is
  refused; exact counting takes the facts' card atoms as counts (and the rest as
  a sound relaxation), and the public's knowledge answers.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import Any

import pytest

import games.boerenbridge  # noqa: F401  (registers the game and its bots)
import games.bs  # noqa: F401
import games.bs_zpy  # noqa: F401
import games.shengji  # noqa: F401
from games.base import Game, State, load_game, make_bot, play_game
from games.epistemic import Count
from games.errors import InvalidParameterError
from kripke import parse


def replay(game: Game, bot: str, seed: int, bot_game: str | None = None) -> Iterator[State]:
    """Every state of one seeded game of ``bot`` against itself, one per action (the
    same state object, played on: clone what you keep)."""
    n = game.num_players()
    bots = [make_bot(bot_game or game.name, bot, seed=seed * 10 + i) for i in range(n)]
    res = play_game(game, bots, seed=seed)
    s = game.new_initial_state()
    for a in res.history:
        s.apply_action(a)
        yield s


def everybody(state: State) -> str:
    return "{" + ",".join(f"P{i}" for i in range(state.num_players())) + "}"


# ---------------------------------------------------------------------------- BS
def caught_lies(states: Iterable[State], min_plays: int) -> Iterator[tuple[State, Any]]:
    """The states right after a call that caught a lie, after at least ``min_plays`` plays."""
    for s in states:
        obs = s.observations(0)
        if not obs or obs[-1].kind != "call" or not obs[-1]["lie"]:
            continue
        if sum(1 for o in obs if o.kind == "play") >= min_plays:
            yield s.clone(), obs[-1]


@pytest.mark.parametrize("seed", [0, 1])
def test_bs_a_caught_liars_shown_cards_are_common_knowledge(seed):
    game = load_game("bs", variant="classic")
    s, call = next(caught_lies(replay(game, "probabilistic", seed), min_plays=15))
    t = call["taker"]
    gk = s.knowledge()
    group = everybody(s)
    for c in call["cards"]:
        assert gk.holds(f"C_{group} has(P{t}, {c})"), c
    assert gk.route in ("structure", "local quotient", "counting")
    # the liar saw the whole pile it picked up: it knows where each of those cards is
    took = s.observations(t)[-1]["pile"]
    for c in took[:3]:
        assert gk.knows(t, f"has(P{t}, {c})"), c
    # a picked-up card nobody showed is not common knowledge where some seat is unsure
    ds = s.card_history().deal_state()
    hidden = [c for c in took if c not in call["cards"]]
    for c in hidden:
        unsure = [
            r for r in range(s.num_players()) if ds.probability(f"P{r}", f"has(P{t}, {c})") < 1
        ]
        if unsure:
            assert not gk.knows(unsure[0], f"has(P{t}, {c})")
            assert not gk.holds(f"C_{group} has(P{t}, {c})")
            break


def test_bs_koth_a_caught_liars_shown_cards_are_common_knowledge():
    """koth (identical copies): the structure is refused after a few face-down plays
    and the quotient takes no copies; exact counting answers, the shown cards being
    public."""
    game = load_game("bs", variant="koth")
    s, call = next(caught_lies(replay(game, "probabilistic", 0), min_plays=15))
    gk = s.knowledge()
    t = call["taker"]
    for c in set(call["cards"]):
        assert gk.holds(f"C_{everybody(s)} has(P{t}, {c})"), c
        assert gk.route == "counting"
    for c in set(s.observations(t)[-1]["pile"]):
        assert gk.knows(t, f"has(P{t}, {c})"), c


# ------------------------------------------------------------------ BoerenBridge
def show_outs(states: Iterable[State]) -> Iterator[tuple[State, Any]]:
    """The states right after a seat failed to follow suit (the void event)."""
    for s in states:
        if s.is_terminal() or not s.observations(0) or s.observations(0)[-1].kind != "play":
            continue
        try:
            h = s.card_history()
        except InvalidParameterError:  # between rounds: no dealt round
            continue
        if h.events and isinstance(h.events[-1], Count) and h.events[-1].hi == 0:
            yield s.clone(), h.events[-1]


def test_boerenbridge_a_show_out_is_common_knowledge_late_in_the_game():
    game = load_game("boerenbridge")
    outs = list(show_outs(replay(game, "greedy", 0)))
    assert len(outs) >= 3
    for s, ev in (outs[len(outs) // 2], outs[-1]):  # mid-game and the last show-out
        p = ev.locations[0]
        void = " & ".join(f"~has({p}, {c})" for c in ev.cards)
        gk = s.knowledge()
        group = "{" + ",".join(s.card_history().agents) + "}"
        assert gk.holds(f"C_{group} ({void})")
        assert gk.holds(f"E_{group} E_{group} ({void})")
        for a in s.card_history().agents:
            assert gk.knows(a, f"E_{group} ({void})"), a
        assert gk.route in ("structure", "counting")  # counting: the void is public
        # the turned-up trump card, if any, is common knowledge where it lies
        turned = s.card_history().content()["turned"]
        for c in turned:
            assert gk.holds(f"C_{group} has(turned, {c})")


# --------------------------------------------------------------- Shengji / ZPY
def trump_show_out(game: Game, seed: int) -> tuple[State, Any]:
    for s, ev in show_outs(replay(game, "random", seed, "shengji")):
        if "BJ" in ev.cards and ev.locations[0].startswith("P"):
            return s, ev
    raise AssertionError("no seat showed out of trumps")  # pragma: no cover


@pytest.mark.parametrize("variant", ["tractor", "zpy"])
def test_shengji_a_seat_void_in_trumps_is_known_void_by_all(variant):
    game = load_game("shengji", variant=variant)
    s, ev = trump_show_out(game, 0)
    p = ev.locations[0]
    gk = s.knowledge()
    void = " & ".join(f"~has({p}, {c})" for c in ev.cards)
    assert s.card_history()._holds_now(parse(void))
    group = everybody(s)
    assert gk.holds(f"C_{group} ({void})") and gk.route == "counting"
    assert gk.holds(f"E_{group} E_{group} ({void})")
    # a card in a hand that another seat is unsure of is not common knowledge
    h = s.card_history()
    ds = h.deal_state()
    r, q, c = next(
        (r, q, c)
        for q in h.agents
        for c in sorted(set(h.content()[q]))
        for r in h.agents
        if ds.probability(r, f"has({q}, {c})") < 1
    )
    assert not gk.knows(r, f"has({q}, {c})")
    assert not gk.holds(f"C_{group} has({q}, {c})") and gk.route == "counting"


# ---------------------------------------------------------------------- BS-ZPY
def test_bs_zpy_a_checked_claims_cards_are_common_knowledge():
    from games.bs_zpy.rules import CALL

    game = load_game("bs-zpy")
    rng = random.Random(0)
    s: Any = game.new_initial_state()
    claims, seen = 0, 0
    reveal = None
    while reveal is None and not s.is_terminal():  # random play; calls once ten claims were made
        legal = list(s.legal_actions())
        s.apply_action(CALL if CALL in legal and claims >= 10 else rng.choice(legal))
        new = s.observations(0)[seen:]
        seen += len(new)
        claims += sum(1 for o in new if o.kind == "claim")
        reveal = next((o for o in new if o.kind == "reveal"), None)
    assert reveal is not None, "no claim was checked"
    gk = s.knowledge()
    # the shown cards are public: on the trick, or (an invalid play) back with their player
    h = s.card_history()
    for c in {str(c) for c in reveal["cards"]}:
        where = f"has(trick, {c}) | has(P{reveal.actor}, {c})"
        assert h._holds_now(parse(where)), where  # true of the cards, before asking who knows
        assert gk.holds(f"C_{everybody(s)} ({where})")
