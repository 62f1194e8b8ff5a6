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

The parser reads without recursion, so nesting depth (parentheses, ``~``,
``K_a``, ``->``, ``[!``) is bounded by memory only; printing, hashing,
comparing and evaluating formulas on the explicit engine are iterative too.

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

from kripke.errors import KripkeError, ParseError
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
    # The grammar is read without recursion, so nesting depth is limited by
    # memory only: a stack of open contexts (the whole text, '(' … ')',
    # '[!' … ']', '<!' … '>'), each holding the operands of its pending
    # binary operators and the unary operators waiting for their argument.
    def parse_all(self) -> Formula:
        ctxs = [_Context("text", 0)]
        while True:
            value = self.unary(ctxs)
            if value is None:  # a '(', '[!' or '<!' opened a new context
                continue
            while True:
                ctx = ctxs[-1]
                while ctx.prefixes:  # the innermost operator applies first
                    value = ctx.prefixes.pop().apply(value, self)
                if not self.binary(ctx, value):
                    break  # an operator was read: its right operand comes next
                # the context ends here: close it
                f = ctx.result()
                ctxs.pop()
                if ctx.kind == "text":
                    self.ws()
                    if self.i < self.n:
                        raise self.fail("an operator (&, |, ->, <->) or end of input")
                    return f
                if ctx.kind == "(":
                    self.expect(")", f"')' to close the '(' at position {ctx.start}")
                    value = f  # a parenthesised formula is a complete operand
                    continue
                if ctx.kind == "[!":
                    self.expect("]", f"']' to close the announcement '[!' at position {ctx.start}")
                    ctxs[-1].prefixes.append(_Prefix(Announce, f, ctx.start))
                else:
                    self.expect(">", f"'>' to close the announcement '<!' at position {ctx.start}")
                    ctxs[-1].prefixes.append(_Prefix(AnnounceDiamond, f, ctx.start))
                break  # the announcement's argument comes next

    def binary(self, ctx: _Context, value: Formula) -> bool:
        """Add a complete operand to ``ctx``; read the operator after it.

        Returns ``True`` when no operator follows (the context is complete).
        Operators bind ``&`` tighter than ``|``, then ``->`` (to the right),
        then ``<->`` (to the left).
        """
        ctx.ands.append(value)
        if self.accept("&", "∧"):
            return False
        ctx.ors.append(ctx.ands[0] if len(ctx.ands) == 1 else self.build(And, tuple(ctx.ands)))
        ctx.ands = []
        if self.accept("|", "∨"):
            return False
        disj = ctx.ors[0] if len(ctx.ors) == 1 else self.build(Or, tuple(ctx.ors))
        ctx.ors = []
        if self.accept("->", "→"):
            ctx.imps.append(disj)
            return False
        for left in reversed(ctx.imps):
            disj = Implies(left, disj)
        ctx.imps = []
        ctx.iff = disj if ctx.iff is None else Iff(ctx.iff, disj)
        return not self.accept("<->", "↔")

    def build(self, cls: Any, *args: Any) -> Formula:
        """A formula node; a constructor's refusal becomes a ``ParseError`` here."""
        try:
            return cls(*args)  # type: ignore[no-any-return]
        except KripkeError as exc:
            raise self.fail(f"a valid formula ({exc})") from None

    def unary(self, ctxs: list[_Context]) -> Formula | None:
        """Read unary operators, then an atom or constant (returned) or an opening bracket.

        An opening ``(``, ``[!`` or ``<!`` pushes a new context and returns ``None``.
        """
        ctx = ctxs[-1]
        while True:
            self.ws()
            start = self.i
            if self.i >= self.n:
                raise self.fail("a formula")
            if self.accept("~", "¬"):
                ctx.prefixes.append(_Prefix(Not, None, start))
                continue
            if self.accept("⊤"):
                return TOP
            if self.accept("⊥"):
                return BOT
            if self.accept("("):
                ctxs.append(_Context("(", start))
                return None
            if self.accept("[!"):
                ctxs.append(_Context("[!", start))
                return None
            if self.peek("<->"):
                raise self.fail("a formula")
            if self.accept("<!"):
                ctxs.append(_Context("<!", start))
                return None
            if self.peek("[") or self.peek("<"):
                ctx.prefixes.append(self.action())
                continue
            c = self.s[self.i]
            if c.isdigit():
                raise self.fail("a formula (atom names start with a letter)")
            if not (c.isalpha() or c == "_"):
                raise self.fail("a formula")
            word_end = self.i
            while word_end < self.n and (self.s[word_end].isalnum() or self.s[word_end] == "_"):
                word_end += 1
            word = self.s[self.i : word_end]
            modal = next((p for p in _MODAL_PREFIXES if word.startswith(p)), None)
            if modal is not None:
                ctx.prefixes.append(self.modal(modal, start))
                continue
            if word in ("top", "bot"):
                self.i = word_end
                return TOP if word == "top" else BOT
            return self.atom()

    def modal(self, prefix: str, start: int) -> _Prefix:
        self.i += len(prefix)
        kind = prefix[:-1]
        if kind in ("K", "M", "Kw"):
            if self.s.startswith("{", self.i):
                self.i += 1
                agent = self.name("an agent name (identifier or number)")
                self.expect("}", "'}' after the agent name")
            else:
                agent = self._agent_here()
            cls = {"K": Know, "M": Possible, "Kw": KnowWhether}[kind]
            return _Prefix(cls, agent, start)
        if self.s.startswith("{", self.i):
            self.i += 1
            group = [self.name("an agent name (identifier or number)")]
            while self.accept(","):
                group.append(self.name("an agent name after ','"))
            self.expect("}", "',' or '}' in the group of agents")
        else:
            group = [self._agent_here()]
        gcls = {"E": Everybody, "C": Common, "D": Distributed}[kind]
        return _Prefix(gcls, tuple(group), start)

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
            return self._atom(name, tuple(args), start)
        return self._atom(name, (), start)

    def _atom(self, name: str, args: tuple[str, ...], start: int) -> Atom:
        try:
            return Atom(name, args)
        except KripkeError as exc:
            raise self.fail(f"an atom ({exc})", start) from None

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

    def action(self) -> _Prefix:
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
        cls = ActionDiamond if diamond else Action
        return _Prefix(cls, (model, tuple(events)), start)


_MODAL_PREFIXES = ("Kw_", "K_", "M_", "E_", "C_", "D_")


class _Prefix:
    """A unary operator waiting for its argument: ``cls(*head, arg)``."""

    __slots__ = ("cls", "head", "start")

    def __init__(self, cls: Any, head: Any, start: int):
        self.cls = cls
        self.head = head
        self.start = start

    def apply(self, arg: Formula, parser: _Parser) -> Formula:
        if self.head is None:
            args: tuple[Any, ...] = (arg,)
        elif isinstance(self.head, tuple) and self.cls in (Action, ActionDiamond):
            args = (*self.head, arg)
        else:
            args = (self.head, arg)
        try:
            return self.cls(*args)  # type: ignore[no-any-return]
        except KripkeError as exc:
            raise parser.fail(f"a valid operator ({exc})", self.start) from None


class _Context:
    """An open context of the parser: the whole text or a bracketed formula."""

    __slots__ = ("kind", "start", "iff", "imps", "ors", "ands", "prefixes")

    def __init__(self, kind: str, start: int):
        self.kind = kind  # "text", "(", "[!" or "<!"
        self.start = start
        self.iff: Formula | None = None
        self.imps: list[Formula] = []
        self.ors: list[Formula] = []
        self.ands: list[Formula] = []
        self.prefixes: list[_Prefix] = []

    def result(self) -> Formula:
        if self.iff is None:  # pragma: no cover - set by the operand that completed it
            raise KripkeError("internal parser error: a context closed without a formula")
        return self.iff
