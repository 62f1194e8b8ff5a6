"""The ``kripke play`` and ``kripke tournament`` subcommands.

They join the ``kripke`` command line through the entry-point group
``kripke.commands`` (:func:`kripke_commands`), so :mod:`kripke` never
imports this package.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from games.base import game_narrator, load_game
from games.errors import GameError, InvalidParameterError

__all__ = ["play", "parse_params", "kripke_commands"]


def parse_params(pairs: list[str]) -> dict[str, Any]:
    """``["decks=3", "name=x"]`` -> ``{"decks": 3, "name": "x"}`` (ints, floats, booleans, text)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.isidentifier():
            raise InvalidParameterError(f"--param takes KEY=VALUE, got {pair!r}")
        out[key] = _value(value)
    return out


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


class _SeatsAction(argparse.Action):
    """``--human 0 --human 2`` or ``--human 0,2``: ``args.humans`` holds every seat
    in order, ``args.human`` the first (tables read both through
    :func:`games.prompt.human_seats`)."""

    def __call__(self, parser: Any, namespace: Any, values: Any, option: Any = None) -> None:
        seats = list(getattr(namespace, "humans", None) or [])
        for token in str(values).split(","):
            token = token.strip()
            try:
                seat = int(token)
            except ValueError:
                parser.error(f"--human takes seat numbers, got {token!r}")
            if seat not in seats:
                seats.append(seat)
        namespace.humans = seats
        namespace.human = seats[0]


def play(args: argparse.Namespace, out: TextIO) -> int:
    """Run the narrator of ``args.game``."""
    narrate = game_narrator(args.game)
    args.params = parse_params(getattr(args, "param", []) or [])
    given = {k: getattr(args, k, None) for k in ("variant", "players")}
    load_game(args.game, **{k: v for k, v in given.items() if v is not None}, **args.params)
    return int(narrate(args, out) or 0)


def kripke_commands(sub: Any) -> dict[str, Any]:
    """Add ``play`` and ``tournament`` to the ``kripke`` subparsers (entry point)."""
    from kripke.cli import Command

    pl = sub.add_parser("play", help="play and narrate a game with live knowledge")
    pl.add_argument("game")
    pl.add_argument("--variant", default=None)
    pl.add_argument("--seed", type=int, default=0)
    pl.add_argument("--players", type=int, default=None)
    pl.add_argument("--bots", default=None, help="comma-separated bot names, one per seat")
    pl.add_argument(
        "--human",
        action=_SeatsAction,
        default=None,
        metavar="SEAT",
        help="seat played by you at the terminal; repeat it or give SEAT,SEAT for hot-seat play",
    )
    pl.add_argument("--quiet", action="store_true", help="print only the result")
    pl.add_argument(
        "--param", action="append", default=[], metavar="KEY=VALUE", help="extra game parameter"
    )

    tr = sub.add_parser("tournament", help="play many seeded games between bots")
    tr.add_argument("game")
    tr.add_argument("--variant", default=None)
    tr.add_argument("--games", type=int, default=100)
    tr.add_argument("--bots", required=True, help="comma-separated bot names")
    tr.add_argument("--players", type=int, default=None)
    tr.add_argument("--seed", type=int, default=0)
    tr.add_argument("--seats", choices=("rotate", "draw"), default="rotate")
    tr.add_argument("--out", default=None, help="JSONL results file (resumes if it exists)")
    tr.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    tr.add_argument(
        "--move-time",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="time limit of one bot call; a bot over it forfeits the game (0: no limit)",
    )
    tr.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    tr.add_argument("--no-progress", action="store_true")
    tr.add_argument(
        "--param", action="append", default=[], metavar="KEY=VALUE", help="extra game parameter"
    )

    def tournament(args: argparse.Namespace, out: TextIO) -> int:
        from games.tournament import cli_main

        return cli_main(args, out)

    return {"play": Command(play, (GameError,)), "tournament": Command(tournament, (GameError,))}
