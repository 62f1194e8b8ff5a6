"""``kripke play <game>``: look up the game's registered narrator and run it."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from games.base import game_narrator
from games.errors import InvalidParameterError

__all__ = ["play", "parse_params"]


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


def play(args: argparse.Namespace, out: TextIO) -> int:
    """Run the narrator of ``args.game``."""
    narrate = game_narrator(args.game)
    args.params = parse_params(getattr(args, "param", []) or [])
    return int(narrate(args, out) or 0)
