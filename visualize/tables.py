"""HTML tables for notebooks: a game state as one seat sees it.

A :class:`games.base.State` displays itself in a notebook through
:func:`seat_view_html`, which renders the rows of ``state.seat_view(seat)``:
a game's own compact table (its hand, the other hands as counts, ...), or the
base class's default built from the seat's observations.

Examples
--------
>>> from visualize.tables import rows_html
>>> print(rows_html([("hand", "AS KH"), ("P1", "5 cards")], title="P0 <sees>"))
<table class="kripke-seat-view"><caption>P0 &lt;sees&gt;</caption><tr><th style="text-align:left">hand</th><td style="text-align:left">AS KH</td></tr><tr><th style="text-align:left">P1</th><td style="text-align:left">5 cards</td></tr></table>
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Any

from visualize.errors import VisualizeError

__all__ = ["rows_html", "seat_view_html", "SeatView", "show_seat"]


def rows_html(rows: Iterable[tuple[Any, Any]], *, title: str = "") -> str:
    """A two-column HTML table of ``(what, value)`` rows (text is escaped)."""
    cells = []
    for row in rows:
        try:
            what, value = row
        except (TypeError, ValueError):
            raise VisualizeError(f"a table row is a (what, value) pair, got {row!r}") from None
        cells.append(
            f'<tr><th style="text-align:left">{html.escape(str(what))}</th>'
            f'<td style="text-align:left">{html.escape(str(value))}</td></tr>'
        )
    caption = f"<caption>{html.escape(title)}</caption>" if title else ""
    return f'<table class="kripke-seat-view">{caption}{"".join(cells)}</table>'


def _display_seat(state: Any) -> int:
    cur = state.current_player()
    return cur if cur >= 0 else 0


def seat_view_html(state: Any, seat: int | None = None) -> str:
    """The HTML table of ``state.seat_view(seat)``; by default the seat to move
    (seat 0 at chance and terminal nodes)."""
    seat = _display_seat(state) if seat is None else seat
    name = getattr(getattr(state, "game", None), "name", "") or type(state).__name__
    return rows_html(state.seat_view(seat), title=f"{name}: as P{seat} sees it")


class SeatView:
    """A state as one seat sees it, displayed as an HTML table in a notebook."""

    def __init__(self, state: Any, seat: int):
        self.state = state
        self.seat = seat

    def rows(self) -> list[tuple[str, str]]:
        return list(self.state.seat_view(self.seat))

    def _repr_html_(self) -> str:
        return seat_view_html(self.state, self.seat)

    def __repr__(self) -> str:
        width = max((len(str(w)) for w, _ in self.rows()), default=0)
        return "\n".join(f"{str(w):<{width}}  {v}" for w, v in self.rows())


def show_seat(state: Any, seat: int) -> SeatView:
    """``state`` as ``seat`` sees it: displays as a table in a notebook, as text elsewhere."""
    return SeatView(state, seat)
