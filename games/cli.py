"""The ``kripke play`` and ``kripke tournament`` subcommands.

They join the ``kripke`` command line through the entry-point group
``kripke.commands`` (:func:`kripke_commands`), so :mod:`kripke` never
imports this package.
"""

from __future__ import annotations

import argparse
import re
import textwrap
from typing import Any, TextIO

from games.base import (
    game_doc,
    game_narrator,
    game_variants,
    load_game,
    registered_bots,
    registered_games,
)
from games.errors import GameError, InvalidParameterError

__all__ = ["play", "parse_params", "kripke_commands", "catalog"]


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


def _summary(text: str | None, width: int = 84) -> str:
    """The first sentence of a docstring, without reST markup, at most ``width`` characters."""
    para = " ".join((text or "").strip().split("\n\n")[0].split())
    para = re.sub(r":\w+:`~?(?:[\w.]*\.)?(\w+)`", r"\1", para)
    para = re.sub(r"\*+(\w[^*]*)\*+", r"\1", para).replace("``", "")
    match = re.match(r"(.+?\.)(\s|$)", para)
    line = (match.group(1) if match else para).rstrip(".")
    return line if len(line) <= width else line[: width - 3].rsplit(" ", 1)[0] + "..."


def _bot_summary(game: str, name: str) -> str:
    from games.base import _entry
    from games.botspec import entry_point_bots

    factory = _entry(game).bots.get(name)
    if factory is None:
        return f"from {entry_point_bots(game).get(name, '?')} (an installed package)"
    doc = factory.__doc__ if isinstance(factory, type) else None
    if doc is None:
        try:
            doc = type(factory(seed=0)).__doc__
        except Exception:  # a bot that cannot be built here still has its name listed
            doc = None
    return _summary(doc) or "-"


def catalog() -> str:
    """The games, their variants, default players and bots, one line each (``--help``).

    Examples
    --------
    >>> lines = catalog().splitlines()
    >>> for line in lines[lines.index("  bs") :][:4]:
    ...     print(line)
      bs
        BS (Cheat, "I doubt it"): one engine, variants classic and koth
        variants: classic (default), koth; players: 4 (default)
        bots:
    >>> [line for line in lines if line.startswith("      threshold")]
    ['      threshold       Plays like the truthful bot; calls BS whenever 3 or more cards are claimed']
    """
    lines = ["games (GAME), their variants (--variant), seats (--players) and bots (--bots):", ""]
    for name in registered_games():
        lines += [f"  {name}", f"    {_summary(game_doc(name))}"]
        facts = []
        variants = game_variants(name)
        if variants:
            facts.append("variants: " + ", ".join([f"{variants[0]} (default)", *variants[1:]]))
        try:
            facts.append(f"players: {load_game(name).num_players()} (default)")
        except GameError:
            pass
        if facts:
            lines.append("    " + "; ".join(facts))
        lines.append("    bots:")
        for bot in registered_bots(name):
            lines.append(f"      {bot:<15} {_bot_summary(name, bot)}")
        lines.append("")
    lines.append(
        "your own bot: --bots path/to/my_bot.py:MyBot or package.module:MyBot (a subclass of\n"
        "games.base.Bot), or the name an installed package registers (entry-point group\n"
        "kripke_games.bots); see 'Write your own bot' in the README"
    )
    return "\n".join(lines)


#: Epilog placeholder: the formatter puts the catalog there when the help is shown.
_CATALOG = "\x00games-catalog"


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the catalog's lines; adds ``(default: ...)`` where a default is worth saying."""

    def add_text(self, text: str | None) -> None:
        super().add_text(catalog() if text == _CATALOG else text)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        unsaid = (
            default is None or default is False or default == [] or default == argparse.SUPPRESS
        )
        if action.option_strings and "default" not in text and not unsaid:
            text += " (default: %(default)s)"
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

    pl = sub.add_parser(
        "play",
        help="play and narrate a game with live knowledge",
        description=textwrap.fill(
            "Play one game and narrate it: every event, and after it what each seat knows "
            "(from its own observations only).  Bots play the seats; --human seats are yours.",
            78,
        ),
        epilog=_CATALOG,
        formatter_class=_HelpFormatter,
    )
    pl.add_argument("game", help="the game (listed below)")
    pl.add_argument("--variant", default=None, help="rule variant (default: the game's first)")
    pl.add_argument("--seed", type=int, default=0, help="seed of the deal and of every bot")
    pl.add_argument("--players", type=int, default=None, help="seats (default: the game's)")
    pl.add_argument(
        "--bots",
        default=None,
        help="comma-separated bots, one per seat: names listed below or your own "
        "(path/to/my_bot.py:MyBot, package.module:MyBot); default: the game's narrated table",
    )
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

    tr = sub.add_parser(
        "tournament",
        help="play many seeded games between bots",
        description=textwrap.fill(
            "Play seeded games between bots and print each bot's games, wins, win rate and "
            "mean score with 95% intervals.  Game i is seeded from --seed and i, so any game "
            "replays on its own; --out streams results and resumes an interrupted tournament.",
            78,
        ),
        epilog=_CATALOG,
        formatter_class=_HelpFormatter,
    )
    tr.add_argument("game", help="the game (listed below)")
    tr.add_argument("--variant", default=None, help="rule variant (default: the game's first)")
    tr.add_argument("--games", type=int, default=100, help="number of games")
    tr.add_argument(
        "--bots",
        required=True,
        help="comma-separated bots (a name may repeat): names listed below or your own "
        "(path/to/my_bot.py:MyBot, package.module:MyBot)",
    )
    tr.add_argument("--players", type=int, default=None, help="seats (default: the game's)")
    tr.add_argument("--seed", type=int, default=0, help="tournament seed")
    tr.add_argument(
        "--seats",
        choices=("rotate", "draw"),
        default="rotate",
        help="rotate: game i shifts the bot list by i; draw: a seeded random table each game",
    )
    tr.add_argument("--out", default=None, help="JSONL results file (resumes if it exists)")
    tr.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    tr.add_argument(
        "--move-time",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="time limit of one bot call; a bot over it forfeits the game (0: no limit)",
    )
    tr.add_argument(
        "--backend",
        choices=("process", "ray"),
        default="process",
        help="run the games in local worker processes or as tasks on a Ray cluster",
    )
    tr.add_argument("--address", default=None, metavar="HOST:PORT", help="the Ray cluster to join")
    tr.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    tr.add_argument("--no-progress", action="store_true", help="no progress bar")
    tr.add_argument(
        "--param", action="append", default=[], metavar="KEY=VALUE", help="extra game parameter"
    )

    def tournament(args: argparse.Namespace, out: TextIO) -> int:
        from games.tournament import cli_main

        return cli_main(args, out)

    return {
        "play": Command(play, (GameError,), overview=catalog),
        "tournament": Command(tournament, (GameError,), overview=catalog),
    }
