"""The one prompt convention of every game table (``kripke play GAME --human SEAT``).

A table asks a question with :meth:`Prompt.ask`, passing the commands that
are valid *now*.  The convention, the same in every game:

- ``help`` (or ``?``) lists the commands valid now, each with an example;
- a leading ``$`` is accepted on every command (``$play 7H``, as the
  shengji bot takes them);
- a bad answer gets one line naming the bad token and what would be valid,
  and the question is asked again; the game state is never touched by a
  bad answer (the table applies only what :meth:`Prompt.ask` returns);
- several human seats share one terminal (hot-seat): when the seat that is
  asked changes, a hand-over line asks the others to look away;
- the answers come from a given input stream, so tests script standard input.

Examples
--------
>>> import io
>>> yes = Command("yes", "yes", "call BS", value=True, aliases=("y", "call"))
>>> no = Command("no", "no", "let the claim stand", value=False, aliases=("n", "pass"))
>>> out = io.StringIO()
>>> p = Prompt(io.StringIO("maybe\\n$YES\\n"), out)
>>> p.ask("Call BS?", [yes, no])
True
>>> print(out.getvalue().strip())
Call BS? [yes/no] 'maybe' is not an answer here; valid now: yes, no (type 'help' for examples)
Call BS? [yes/no]

A command with an argument parses it, and a parser error names the token:

>>> def guess(text: str) -> int:
...     return parse_int(text, 0, 3, what="a guess")
>>> g = Command("guess", "guess 2", "how many tricks you will take", parse=guess)
>>> out = io.StringIO()
>>> Prompt(io.StringIO("guess two\\nhelp\\n2\\n"), out).ask("Your guess:", [g], fallback=g)
2
>>> print(out.getvalue().strip())
Your guess: [guess] 'two' is not a guess: give a whole number from 0 to 3
Your guess: [guess] commands valid now:
  guess    how many tricks you will take  (e.g. 'guess 2')
  help     this list
Your guess: [guess]
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from games.errors import GameError, InvalidParameterError

__all__ = [
    "BadAnswerError",
    "InputClosedError",
    "Command",
    "Prompt",
    "parse_int",
    "human_seats",
    "plural",
    "big_number",
    "HELP_WORDS",
]

#: Words that list the commands valid now.
HELP_WORDS = ("help", "?")


class BadAnswerError(GameError, ValueError):
    """An answer at a prompt cannot be used; the message names the bad token and what is valid."""


class InputClosedError(GameError, EOFError):
    """The input stream ended while a human seat was asked a question."""


@dataclass(frozen=True)
class Command:
    """One command valid at a prompt.

    Parameters
    ----------
    name : str
        The word that starts the command (matched case-insensitively, ``$`` optional).
    example : str
        A complete example answer, shown by ``help``.
    describe : str
        What the command does, in a few words.
    parse : callable, optional
        ``parse(argument_text) -> value`` for a command with an argument; it
        raises a :class:`~games.errors.GameError` naming the bad token.
        Without it the command takes no argument and answers ``value``.
    value : object, optional
        The answer of a command without argument (default: its name).
    aliases : tuple of str
        Other words for the same command (``y`` for ``yes``).
    """

    name: str
    example: str
    describe: str
    parse: Callable[[str], Any] | None = None
    value: Any = None
    aliases: tuple[str, ...] = ()

    def words(self) -> tuple[str, ...]:
        """The lower-case words that select this command."""
        return (self.name.lower(), *(a.lower() for a in self.aliases))

    def answer(self, argument: str) -> Any:
        """The value of this command given the text after its word.

        Raises
        ------
        BadAnswerError
            The command takes no argument but got one (naming it).
        GameError
            Whatever the parser raises (naming the bad token).
        """
        if self.parse is not None:
            return self.parse(argument)
        if argument:
            raise BadAnswerError(
                f"{self.name!r} takes nothing after it, got {argument.split()[0]!r}"
            )
        return self.name if self.value is None else self.value


def parse_int(text: str, low: int, high: int, *, what: str = "a number") -> int:
    """A whole number from ``low`` to ``high`` read from ``text``.

    Raises
    ------
    BadAnswerError
        Naming the token and the valid range.

    Examples
    --------
    >>> parse_int(" 3 ", 0, 5)
    3
    >>> parse_int("7", 0, 5, what="a guess")
    Traceback (most recent call last):
    ...
    games.prompt.BadAnswerError: '7' is not a guess: give a whole number from 0 to 5
    """
    token = text.strip()
    hint = f"give a whole number from {low} to {high}"
    if not token:
        raise BadAnswerError(f"{what} is missing: {hint}")
    if len(token.split()) > 1:
        raise BadAnswerError(f"{token.split()[1]!r} is one word too many: {hint}")
    try:
        value = int(token)
    except ValueError:
        raise BadAnswerError(f"{token!r} is not {what}: {hint}") from None
    if not low <= value <= high:
        raise BadAnswerError(f"{token!r} is not {what}: {hint}")
    return value


def plural(count: int, word: str, many: str | None = None) -> str:
    """``"1 card"``, ``"3 cards"``: a count with its noun in the right number.

    Examples
    --------
    >>> plural(1, "card"), plural(0, "card"), plural(2, "deal"), plural(2, "copy", "copies")
    ('1 card', '0 cards', '2 deals', '2 copies')
    """
    return f"{count} {word if count == 1 else (many or word + 's')}"


def big_number(n: int | float) -> str:
    """One format for counts in every table: ``174,272`` below a million, ``7.0e11`` above.

    Examples
    --------
    >>> big_number(174272), big_number(7.04e11), big_number(1_000_000)
    ('174,272', '7.0e11', '1.0e6')
    """
    if n < 10**6:
        return f"{int(n):,}"
    mantissa, _, exponent = f"{n:.1e}".partition("e")
    return f"{mantissa}e{int(exponent)}"


def human_seats(args: Any, players: int) -> tuple[int, ...]:
    """The human seats of ``kripke play`` arguments, checked against ``players`` seats.

    Reads ``args.humans`` (every ``--human`` seat, as the command line
    sets it) or else ``args.human`` (one seat, or ``None``).

    Raises
    ------
    InvalidParameterError
        Naming the seat that is not a seat of this game.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> human_seats(SimpleNamespace(human=0, humans=[0, 2]), 4)
    (0, 2)
    >>> human_seats(SimpleNamespace(human=None), 4)
    ()
    >>> human_seats(SimpleNamespace(human=5), 4)
    Traceback (most recent call last):
    ...
    games.errors.InvalidParameterError: --human 5 is not a seat of this game (0..3)
    """
    seats = getattr(args, "humans", None)
    if seats is None:
        one = getattr(args, "human", None)
        seats = [] if one is None else [one]
    out: list[int] = []
    for seat in seats:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise InvalidParameterError(
                f"--human {seat} is not a seat of this game (0..{players - 1})"
            )
        if seat not in out:
            out.append(seat)
    return tuple(out)


class Prompt:
    """Asks human seats questions on a text stream, with the house convention.

    Parameters
    ----------
    stdin, out : text streams, optional
        Where answers come from and where questions go (default: the terminal).
    hot_seat : bool
        Several human seats share this terminal: announce each change of seat.
    names : callable, optional
        ``names(seat) -> str`` for the hand-over line (default ``P<seat>``).
    """

    def __init__(
        self,
        stdin: TextIO | None = None,
        out: TextIO | None = None,
        *,
        hot_seat: bool = False,
        names: Callable[[int], str] | None = None,
    ):
        self.stdin = stdin if stdin is not None else sys.stdin
        self.out = out if out is not None else sys.stdout
        self.hot_seat = hot_seat
        self.names = names or (lambda seat: f"P{seat}")
        self.seat: int | None = None

    def say(self, text: str) -> None:
        """Write one line to the output stream."""
        print(text, file=self.out, flush=True)

    def handover(self, seat: int) -> bool:
        """Announce that ``seat`` takes the terminal (hot-seat only); True when announced.

        A table calls it before showing a seat's private information (its
        hand), so a hot-seat partner can look away first.
        """
        if self.hot_seat and seat != self.seat:
            self.seat = seat
            self.say(f"--- {self.names(seat)} at the terminal; the other players look away ---")
            return True
        self.seat = seat
        return False

    def read(self) -> str:
        """One line of input, without its line end.

        Raises
        ------
        InputClosedError
            The stream is at its end.
        """
        line = self.stdin.readline()
        if not line:
            raise InputClosedError("no more input at the terminal (the input stream ended)")
        return line.rstrip("\r\n")

    def ask(
        self,
        question: str,
        commands: Sequence[Command],
        *,
        fallback: Command | None = None,
        seat: int | None = None,
        check: Callable[[Any], None] | None = None,
    ) -> Any:
        """Ask until a valid answer comes; return the chosen command's value.

        Parameters
        ----------
        question : str
            The question; ``[cmd/cmd]`` listing the valid command words is added.
        commands : sequence of Command
            The commands valid now (``help`` is always added).
        fallback : Command, optional
            Parses an answer that starts with no command word (``7H 7S`` for
            ``play 7H 7S``).  Its errors are shown like any other.
        seat : int, optional
            The seat asked (for the hot-seat hand-over line).
        check : callable, optional
            ``check(value)`` raises a :class:`~games.errors.GameError` when the
            parsed value is not acceptable now (an illegal play); the message
            is shown and the question repeats.

        Raises
        ------
        InputClosedError
            The input ended before a valid answer.
        """
        if seat is not None:
            self.handover(seat)
        by_word: dict[str, Command] = {}
        for cmd in commands:
            for w in cmd.words():
                by_word.setdefault(w, cmd)
        shown = "/".join(c.name for c in commands)
        while True:
            print(f"{question} [{shown}] ", end="", file=self.out, flush=True)
            line = self.read().strip()
            if line.startswith("$"):
                line = line[1:].lstrip()
            word, _, rest = line.partition(" ")
            word = word.lower()
            rest = rest.strip()
            try:
                if not word:
                    raise BadAnswerError(f"an empty answer; valid now: {self.valid(commands)}")
                if word in HELP_WORDS and not rest:
                    self.say(self.help(commands))
                    continue
                if word in by_word:
                    value = by_word[word].answer(rest)
                elif fallback is not None:
                    try:
                        value = fallback.answer(line)
                    except GameError as exc:
                        raise BadAnswerError(
                            f"{exc} (valid now: {self.valid(commands)}; type 'help' for examples)"
                        ) from None
                else:
                    raise BadAnswerError(
                        f"{word!r} is not an answer here; valid now: {self.valid(commands)}"
                        " (type 'help' for examples)"
                    )
                if check is not None:
                    check(value)
                return value
            except GameError as exc:
                self.say(str(exc))

    @staticmethod
    def valid(commands: Sequence[Command]) -> str:
        """The command words valid now, comma-separated."""
        return ", ".join(c.name for c in commands)

    @staticmethod
    def help(commands: Sequence[Command]) -> str:
        """The ``help`` text: every command valid now with what it does and an example."""
        width = max([len(c.name) for c in commands] + [4]) + 2
        rows = ["commands valid now:"]
        for c in commands:
            rows.append(f"  {c.name:<{width}}  {c.describe}  (e.g. {c.example!r})")
        rows.append(f"  {'help':<{width}}  this list")
        return "\n".join(rows)
