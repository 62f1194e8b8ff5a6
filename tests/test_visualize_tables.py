"""Notebook display of game states: a seat's view, built from its observations only."""

from __future__ import annotations

import pytest

from games.base import Game, State
from games.errors import InvalidParameterError
from visualize import VisualizeError, seat_view_html, show_seat
from visualize.tables import rows_html


class _HiddenCardGame(Game):
    """Two seats each get one secret card, then take turns showing a card to everyone."""

    name = "hidden-card"

    def num_players(self) -> int:
        return 2

    def new_initial_state(self) -> State:
        return _HiddenCardState(self)


class _HiddenCardState(State):
    CARDS = ("AS", "KH", "QD", "JC")

    def __init__(self, game: Game):
        super().__init__(game)
        self.hands: list[str] = []
        self.shown = 0

    def _current_player(self) -> int:
        if len(self.hands) < 2:
            return -1
        return -4 if self.shown == 2 else self.shown

    def _chance_outcomes(self):
        left = [i for i, c in enumerate(self.CARDS) if c not in self.hands]
        return [(i, 1 / len(left)) for i in left]

    def _legal_actions(self, player):
        return [0]

    def _apply_action(self, action):
        if len(self.hands) < 2:
            seat = len(self.hands)
            card = self.CARDS[action]
            self.hands.append(card)
            self._observe("deal", None, audience=(seat,), hidden={"card": card}, seat=seat)
            return
        self._observe("show", self.shown, card=self.hands[self.shown])
        self.shown += 1

    def _action_to_string(self, player, action):
        return "show" if player >= 0 else self.CARDS[action]

    def _returns(self):
        return [0.0, 0.0]


def _dealt(first: int, second: int) -> _HiddenCardState:
    s = _HiddenCardGame(None).new_initial_state()
    s.apply_action(first)
    s.apply_action(second)
    return s


def test_default_seat_view_shows_the_latest_event_of_each_kind():
    s = _dealt(0, 1)
    assert s.seat_view(0) == [("seat", "P0"), ("to move", "P0"), ("deal", "deal card=AS seat=0")]
    # seat 1 never observed seat 0's card
    assert s.seat_view(1) == [("seat", "P1"), ("to move", "P0"), ("deal", "deal card=KH seat=1")]
    s.apply_action(0)
    assert s.seat_view(1)[-1] == ("show P0", "P0 show card=AS")
    s.apply_action(0)
    assert s.seat_view(0)[-2:] == [("show P0", "P0 show card=AS"), ("show P1", "P1 show card=KH")]


def test_hidden_cards_never_reach_another_seats_view():
    for a in range(4):
        for b in range(4):
            if a == b:
                continue
            s = _dealt(a, b)
            mine, theirs = s.CARDS[a], s.CARDS[b]
            assert mine in seat_view_html(s, 0) and theirs not in seat_view_html(s, 0)
            assert theirs in seat_view_html(s, 1) and mine not in seat_view_html(s, 1)


def test_state_displays_the_seat_to_move():
    s = _dealt(2, 3)
    s.apply_action(0)  # P0 shows QD; P1 to move
    html = s._repr_html_()
    assert "as P1 sees it" in html and "JC" in html
    s.apply_action(0)
    assert "as P0 sees it" in s._repr_html_() and "game over" in s._repr_html_()


def test_show_seat_renders_text_and_html():
    s = _dealt(0, 1)
    view = show_seat(s, 1)
    assert repr(view).splitlines()[0] == "seat     P1"
    assert view._repr_html_().startswith('<table class="kripke-seat-view"><caption>hidden-card')


def test_rows_are_escaped_and_checked():
    assert "&lt;b&gt;" in rows_html([("<b>", "x")])
    with pytest.raises(VisualizeError, match="pair"):
        rows_html([("only one",)])
    with pytest.raises(InvalidParameterError, match="seat 5"):
        _dealt(0, 1).seat_view(5)


def test_other_seats_private_events_seen_only_as_happening_are_left_out():
    s = _dealt(0, 1)
    s._observe("peek", 1, audience=(1,), hidden={"secret": "QD"})
    assert ("peek P1", "P1 peek secret=QD") in s.seat_view(1)
    assert not [row for row in s.seat_view(0) if row[0].startswith("peek")]
