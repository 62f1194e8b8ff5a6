"""Read formulas from text.

Grammar (loosest binding first)::

    formula  := iff
    iff      := imp ( ("<->" | "↔") imp )*          left-associative
    imp      := or ( ("->" | "→") imp )?            right-associative
    or       := and ( ("|" | "∨") and )*
    and      := unary ( ("&" | "∧") unary )*
    unary    := ("~" | "¬") unary
              | ("K_" | "M_" | "Kw_") agent unary
              | ("E_" | "C_" | "D_") group unary
              | "[!" formula "]" unary   |  "<!" formula ">" unary
              | "[" NAME "," events "]" unary | "<" NAME "," events ">" unary
              | "top" | "⊤" | "bot" | "⊥" | atom | "(" formula ")"
    agent    := NAME | NUMBER | "{" (NAME | NUMBER) "}"
    group    := "{" agent ("," agent)* "}" | agent
    atom     := NAME [ "(" arg ("," arg)* ")" ]
    events   := NAME | "{" NAME ("," NAME)* "}"

Unary operators bind tightest: ``K_a p & q`` is ``(K_a p) & q``.

Examples
--------
>>> from kripke.parser import parse
>>> f = parse("K_1 m1 | K_1 ~m1")
>>> f
Or((Know('1', Atom('m1')), Know('1', Not(Atom('m1')))))
>>> str(parse("[!p ∧ q] C_{a,b} has(p2, QS)"))
'[!p & q] C_{a,b} has(p2, QS)'
>>> parse("p &")
Traceback (most recent call last):
...
kripke.errors.ParseError: expected a formula but found end of input at position 3
  p &
     ^
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kripke.errors import ParseError
from kripke.formulas import (
    BOT,
    TOP,
    Action,
    ActionDiamond,
    And,
    Announce,
    AnnounceDiamond,
    Atom,
    Common,
    Distributed,
    Everybody,
    Formula,
    Iff,
    Implies,
    Know,
    KnowWhether,
    Not,
    Or,
    Possible,
)

__all__ = ["parse"]

_SUITS = "♠♥♦♣"


def parse(text: str, actions: Mapping[str, Any] | None = None) -> Formula:
    """Parse ``text`` into a :class:`~kripke.formulas.Formula`.

    Parameters
    ----------
    text : str
        Formula text (see the module docstring for the grammar).
    actions : mapping of str to action model, optional
        Action models that ``[A,e] f`` may name.

    Raises
    ------
    ParseError
        With the text, a caret under the position and what was expected.
    """
    if not isinstance(text, str):
        raise ParseError(repr(text), 0, "formula text (a str)")
    return _Parser(text, actions or {}).parse_all()


class _Parser:
    def __init__(self, text: str, actions: Mapping[str, Any]):
        self.s = text
        self.i = 0
        self.n = len(text)
        self.actions = actions

    # ------------------------------------------------------------ lexing
    def ws(self) -> None:
        while self.i < self.n and self.s[self.i].isspace():
            self.i += 1

    def peek(self, tok: str) -> bool:
        self.ws()
        return self.s.startswith(tok, self.i)

    def accept(self, *toks: str) -> str | None:
        self.ws()
        for t in toks:
            if self.s.startswith(t, self.i):
                self.i += len(t)
                return t
        return None

    def found(self) -> str | None:
        self.ws()
        if self.i >= self.n:
            return None
        j = self.i
        if self.s[j].isalnum() or self.s[j] == "_":
            while j < self.n and (self.s[j].isalnum() or self.s[j] == "_"):
                j += 1
            return self.s[self.i : j]
        for t in ("<->", "->", "[!", "<!"):
            if self.s.startswith(t, self.i):
                return t
        return self.s[self.i]

    def fail(self, expected: str, at: int | None = None) -> ParseError:
        if at is not None:
            self.i = at
        return ParseError(self.s, self.i if at is None else at, expected, self.found())

    def expect(self, tok: str, what: str | None = None) -> None:
        if self.accept(tok) is None:
            raise self.fail(what or repr(tok))

    def name(self, what: str) -> str:
        """An identifier or number (``\\w+``)."""
        self.ws()
        j = self.i
        while j < self.n and (self.s[j].isalnum() or self.s[j] == "_"):
            j += 1
        if j == self.i:
            raise self.fail(what)
        out = self.s[self.i : j]
        self.i = j
        return out

    # ----------------------------------------------------------- grammar
    def parse_all(self) -> Formula:
        f = self.formula()
        self.ws()
        if self.i < self.n:
            raise self.fail("an operator (&, |, ->, <->) or end of input")
        return f

    def formula(self) -> Formula:
        left = self.imp()
        while self.accept("<->", "↔"):
            left = Iff(left, self.imp())
        return left

    def imp(self) -> Formula:
        left = self.disj()
        if self.peek("<->"):
            return left
        if self.accept("->", "→"):
            return Implies(left, self.imp())
        return left

    def disj(self) -> Formula:
        items = [self.conj()]
        while self.accept("|", "∨"):
            items.append(self.conj())
        return items[0] if len(items) == 1 else Or(tuple(items))

    def conj(self) -> Formula:
        items = [self.unary()]
        while self.accept("&", "∧"):
            items.append(self.unary())
        return items[0] if len(items) == 1 else And(tuple(items))

    def unary(self) -> Formula:
        self.ws()
        start = self.i
        if self.i >= self.n:
            raise self.fail("a formula")
        if self.accept("~", "¬"):
            return Not(self.unary())
        if self.accept("⊤"):
            return TOP
        if self.accept("⊥"):
            return BOT
        if self.accept("("):
            f = self.formula()
            self.expect(")", f"')' to close the '(' at position {start}")
            return f
        if self.accept("[!"):
            ann = self.formula()
            self.expect("]", f"']' to close the announcement '[!' at position {start}")
            return Announce(ann, self.unary())
        if self.peek("<->"):
            raise self.fail("a formula")
        if self.accept("<!"):
            ann = self.formula()
            self.expect(">", f"'>' to close the announcement '<!' at position {start}")
            return AnnounceDiamond(ann, self.unary())
        if self.peek("[") or self.peek("<"):
            return self.action()
        c = self.s[self.i]
        if c.isdigit():
            raise self.fail("a formula (atom names start with a letter)")
        if not (c.isalpha() or c == "_"):
            raise self.fail("a formula")
        word_end = self.i
        while word_end < self.n and (self.s[word_end].isalnum() or self.s[word_end] == "_"):
            word_end += 1
        word = self.s[self.i : word_end]
        for prefix, kind in (
            ("Kw_", "Kw"),
            ("K_", "K"),
            ("M_", "M"),
            ("E_", "E"),
            ("C_", "C"),
            ("D_", "D"),
        ):
            if word.startswith(prefix):
                return self.modal(kind, len(prefix))
        if word in ("top", "bot"):
            self.i = word_end
            return TOP if word == "top" else BOT
        return self.atom()

    def modal(self, kind: str, prefix_len: int) -> Formula:
        self.i += prefix_len
        if kind in ("K", "M", "Kw"):
            if self.s.startswith("{", self.i):
                self.i += 1
                agent = self.name("an agent name (identifier or number)")
                self.expect("}", "'}' after the agent name")
            else:
                agent = self._agent_here()
            arg = self.unary()
            cls = {"K": Know, "M": Possible, "Kw": KnowWhether}[kind]
            return cls(agent, arg)
        if self.s.startswith("{", self.i):
            self.i += 1
            group = [self.name("an agent name (identifier or number)")]
            while self.accept(","):
                group.append(self.name("an agent name after ','"))
            self.expect("}", "',' or '}' in the group of agents")
        else:
            group = [self._agent_here()]
        arg = self.unary()
        gcls = {"E": Everybody, "C": Common, "D": Distributed}[kind]
        return gcls(tuple(group), arg)

    def _agent_here(self) -> str:
        # the agent name follows the underscore directly, without spaces
        j = self.i
        while j < self.n and (self.s[j].isalnum() or self.s[j] == "_"):
            j += 1
        if j == self.i:
            raise self.fail("an agent name (identifier, number or {group}) right after '_'")
        out = self.s[self.i : j]
        self.i = j
        return out

    def atom(self) -> Formula:
        start = self.i
        name = self.name("an atom name")
        if name[0].isdigit():
            raise self.fail("a formula (atom names start with a letter)", start)
        if self.s.startswith("(", self.i):
            self.i += 1
            args = [self.arg()]
            while self.accept(","):
                args.append(self.arg())
            self.expect(")", "',' or ')' in the argument list of " + name)
            return Atom(name, tuple(args))
        return Atom(name)

    def arg(self) -> str:
        self.ws()
        j = self.i
        while j < self.n and (self.s[j].isalnum() or self.s[j] in "_#" or self.s[j] in _SUITS):
            j += 1
        if j < self.n and j > self.i and self.s[j] in "+-" and not self.s.startswith("->", j):
            j += 1
        if j == self.i:
            raise self.fail("an atom argument (a name, number or card such as 10H)")
        out = self.s[self.i : j]
        self.i = j
        return out

    def action(self) -> Formula:
        start = self.i
        diamond = self.accept("[", "<") == "<"
        close = ">" if diamond else "]"
        name = self.name("an action model name or '!'")
        if name not in self.actions:
            known = ", ".join(sorted(self.actions)) or "none were given"
            raise self.fail(f"a known action model name (known: {known})", start + 1)
        model = self.actions[name]
        self.expect(",", "',' between the action model and its event")
        if self.accept("{"):
            events = [self.name("an event name")]
            while self.accept(","):
                events.append(self.name("an event name"))
            self.expect("}", "',' or '}' in the set of events")
        else:
            events = [self.name("an event name")]
        known_events = set(model.event_names())
        for e in events:
            if e not in known_events:
                raise self.fail(f"an event of {name} (one of {sorted(known_events)})", start)
        self.expect(close, f"'{close}' to close the action modality")
        arg = self.unary()
        cls = ActionDiamond if diamond else Action
        return cls(model, tuple(events), arg)
