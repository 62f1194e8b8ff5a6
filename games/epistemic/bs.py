"""BS game states as card histories: claims are not facts, calls reveal.

:func:`bs_card_history` reads a BS state (:mod:`games.bs`, both variants)
from its seats' observation streams and describes its cards to
:mod:`games.epistemic`.  Locations: the hands ``P0`` …, the ``pile`` and the
open ``play`` (the cards put down and not yet settled).  Agents: the seats
``P0`` …, each seeing its own hand from the deal.

=========================  ============================================================
game event                 card event
=========================  ============================================================
first card (classic)       the card moves face up from the player to the pile
play                       the cards move face down to ``play``; only the player sees
                           them, the count is public.  The claimed rank is *not* a
                           fact: nothing is announced about the cards
no call                    ``play`` joins the pile face down
call                       ``play`` is revealed to everybody and joins the pile; the
                           taker picks the pile up (only the taker sees it)
penalty card (koth)        the caller puts one card face down on the pile (only the
                           caller sees which)
=========================  ============================================================

:func:`bs_claim` is the open claim as a formula about the card atoms, to
ask who knows it is false.

Examples
--------
>>> import random
>>> from games.base import load_game
>>> st = load_game("bs", variant="koth").new_initial_state()
>>> rng = random.Random(3)
>>> while st.is_chance_node():
...     st.apply_action(rng.choice(list(st.legal_actions())))
>>> p = st.current_player()
>>> st.apply_play(p, st.hands[p][-1])        # one card, claimed as a 0
>>> h = bs_card_history(st)
>>> h.locations[-2:], h.events[-1].label
(('pile', 'play'), 'P1 plays 1 card claiming 0')
>>> print(bs_claim(st).children()[0])       # the claim of a 0: no card of another rank
~has(play, 1)
"""

from __future__ import annotations

from typing import Any

from games.errors import InvalidParameterError

__all__ = ["bs_card_history", "bs_claim", "PILE", "PLAY"]

#: Location of the settled face-down pile.
PILE = "pile"
#: Location of the open play (cards put down, calls not settled).
PLAY = "play"


def _streams(state: Any) -> list[list[Any]]:
    n = state.num_players()
    streams = [list(state.observations(s)) for s in range(n)]
    if len({len(s) for s in streams}) != 1:
        raise InvalidParameterError(
            "the seats' observation streams are not aligned; every BS event reaches every seat"
        )
    return streams


def bs_card_history(state: Any) -> Any:
    """The cards of a BS state as a :class:`~games.epistemic.CardHistory`.

    Parameters
    ----------
    state : games.bs.BSState

    Raises
    ------
    games.errors.InvalidParameterError
        Before the deal is complete (no hands yet).
    """
    from games.epistemic.history import CardHistory, Move, MoveAll, Reveal

    g = state.game
    n = state.num_players()
    seats = [f"P{s}" for s in range(n)]
    streams = _streams(state)
    hands: list[list[str]] = [[] for _ in range(n)]
    dealt = False
    events: list[Any] = []
    for i, o in enumerate(streams[0]):
        k = o.kind
        if k == "hand":
            s = o.actor
            hands[s] = list(streams[s][i]["cards"])
            dealt = True
        elif k == "first":
            p = o.actor
            c = o["card"]
            events.append(Move([c], seats[p], PILE, label=f"{seats[p]} lays {c} face up"))
        elif k == "play":
            p = o.actor
            cards = list(streams[p][i]["cards"])
            events.append(
                Move(
                    cards,
                    seats[p],
                    PLAY,
                    seen_by=[seats[p]],
                    label=f"{seats[p]} plays {_n_cards(o['count'])} claiming {o['rank']}",
                )
            )
        elif k == "nocall":
            events.append(MoveAll(PLAY, PILE, seen_by=(), label="no call: the play joins the pile"))
        elif k == "call":
            c, t = o["caller"], o["taker"]
            shown = " ".join(o["cards"])
            events.append(Reveal(PLAY, label=f"P{c} calls BS: the play is {shown}"))
            events.append(MoveAll(PLAY, PILE, seen_by=None, label="the play joins the pile"))
            events.append(
                MoveAll(PILE, seats[t], seen_by=[seats[t]], label=f"{seats[t]} takes the pile")
            )
        elif k == "penalty":
            c = o.actor
            card = streams[c][i]["card"]
            events.append(
                Move([card], seats[c], PILE, seen_by=[seats[c]], label=f"{seats[c]} penalty card")
            )
    if not dealt:
        raise InvalidParameterError("the cards are not dealt yet: no epistemic model before")
    initial: dict[str, Any] = {seats[s]: hands[s] for s in range(n)}
    initial.update({PILE: [], PLAY: []})
    return CardHistory(g.deck, initial, seats, events)


def _n_cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def bs_claim(state: Any) -> Any:
    """The open claim of a BS state as a formula: every card in ``play`` has the claimed rank.

    Raises
    ------
    games.errors.InvalidParameterError
        When no play is waiting for calls.
    """
    from kripke.formulas import TOP, And, Atom, Not

    if state.phase not in ("call", "pick_caller"):
        raise InvalidParameterError(f"no open claim in the {state.phase} phase")
    g = state.game
    rank = state.required_rank
    others = [k for k in range(len(g.deck)) if g.rank_of[k] != rank]
    parts = [Not(Atom("has", (PLAY, g.deck.name(k)))) for k in others]
    if not parts:
        return TOP
    return parts[0] if len(parts) == 1 else And(tuple(parts))
