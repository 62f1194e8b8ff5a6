"""Exception hierarchy of the :mod:`kripke` package.

Every error the package raises on bad input derives from :class:`KripkeError`
and, where one fits, from the matching builtin, so ``except ValueError`` and
``except KripkeError`` both work.
"""

from __future__ import annotations

__all__ = [
    "KripkeError",
    "ParseError",
    "InvalidModelError",
    "UnknownAgentError",
    "UnknownWorldError",
    "UnknownAtomError",
    "PreconditionError",
    "ModelFileError",
    "EngineError",
    "SizeLimitError",
]


class KripkeError(Exception):
    """Base class of every error raised by :mod:`kripke`."""


class ParseError(KripkeError, ValueError):
    """A formula text could not be parsed.

    The message shows the text, a caret under the offending position and what
    the parser expected there.

    Attributes
    ----------
    text : str
        The whole input.
    position : int
        Index into ``text`` where parsing failed.
    expected : str
        What the parser expected at ``position``.
    """

    def __init__(self, text: str, position: int, expected: str, found: str | None = None):
        self.text = text
        self.position = position
        self.expected = expected
        self.found = found
        got = "end of input" if found is None else repr(found)
        caret = " " * position + "^"
        super().__init__(
            f"expected {expected} but found {got} at position {position}\n  {text}\n  {caret}"
        )


class InvalidModelError(KripkeError, ValueError):
    """A Kripke model, action model or knowledge structure is malformed."""


class UnknownAgentError(KripkeError, KeyError):
    """A formula or update names an agent the model does not have."""

    def __str__(self) -> str:  # KeyError quotes its argument; keep the message readable
        return str(self.args[0]) if self.args else ""


class UnknownWorldError(KripkeError, KeyError):
    """A world (or event) is named that the model does not have."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class UnknownAtomError(KripkeError, KeyError):
    """A formula names an atom the model or structure does not have."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class PreconditionError(KripkeError, ValueError):
    """An announcement or event is not executable at the actual world."""


class ModelFileError(InvalidModelError):
    """A saved model file is not valid JSON of the expected schema."""


class EngineError(KripkeError, ValueError):
    """An unknown engine was requested, or an engine cannot evaluate a formula."""


class SizeLimitError(KripkeError, MemoryError):
    """A model or BDD would exceed a configured size limit."""
