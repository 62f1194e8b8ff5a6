"""The ``kripke`` command line.

Subcommands::

    kripke puzzle muddy --children 5          # narrated puzzles
    kripke check MODEL.json "K_a p" [--world w | --world #i] [--engine symbolic]
    kripke play bs --variant koth --seed 7    # a narrated game with live knowledge
    kripke tournament bs --games 1000 --bots probabilistic,knowledge,truthful,threshold

Errors in user input print one clear line and exit with status 2 (never a
traceback: a parse error shows the text around its position).

``puzzle`` and ``check`` are this package's own.  Other installed packages
add subcommands through the entry-point group ``kripke.commands`` (this
distribution's :mod:`games` adds ``play`` and ``tournament``): an entry
point names a function ``setup(subparsers)`` that adds its subparsers and
returns ``{name: Command(run, errors)}``; ``run(args, out)`` returns the
exit status and ``errors`` are the exception types reported as one line.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import Any, TextIO

from kripke.errors import KripkeError

__all__ = ["main", "build_parser", "resolve_world", "Command", "ENTRY_POINT_GROUP"]

#: Entry-point group of subcommands contributed by other packages.
ENTRY_POINT_GROUP = "kripke.commands"


@dataclass(frozen=True)
class Command:
    """A subcommand contributed through :data:`ENTRY_POINT_GROUP`.

    ``run(args, out)`` returns the exit status; exceptions of the types in
    ``errors`` are user errors, printed as one line with exit status 2.
    ``overview()``, if given, returns text shown at the end of ``kripke
    --help`` (e.g. the games and bots a command knows); it is called only
    when the help is shown, and the same text from several commands is shown
    once.
    """

    run: Callable[[argparse.Namespace, TextIO], int]
    errors: tuple[type[BaseException], ...] = ()
    overview: Callable[[], str] | None = None


_COMMANDS: dict[str, Command] = {}


def _command_setups() -> list[Callable[[Any], Mapping[str, Command]]]:
    setups = []
    for ep in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        try:
            setups.append(ep.load())
        except ImportError:  # an uninstalled or broken plugin leaves the other commands working
            continue
    return setups


class _MainParser(argparse.ArgumentParser):
    """The ``kripke`` parser: its help ends with the commands' overviews (computed on demand)."""

    def format_help(self) -> str:
        if getattr(self, "with_overviews", False):
            texts: list[str] = []
            for command in _COMMANDS.values():
                text = command.overview() if command.overview is not None else ""
                if text and text not in texts:
                    texts.append(text)
            self.epilog = "\n\n".join(texts) or None
        return super().format_help()


PUZZLES = ("muddy", "wise-men", "cheryl", "sum-product", "russian-cards", "drinking", "dining")


def build_parser() -> argparse.ArgumentParser:
    p = _MainParser(
        prog="kripke",
        description="Epistemic logic on card games.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.with_overviews = True  # type: ignore[attr-defined]
    sub = p.add_subparsers(dest="command", required=True)

    pz = sub.add_parser("puzzle", help="narrate a classic epistemic puzzle")
    pz.add_argument("name", choices=PUZZLES)
    pz.add_argument(
        "--children", "-n", type=int, default=5, help="children / logicians / diners (default 5)"
    )
    pz.add_argument("--muddy", default=None, help="comma-separated muddy children (default: all)")
    pz.add_argument("--engine", default="explicit", choices=("explicit", "symbolic"))

    ck = sub.add_parser("check", help="model-check a formula on a JSON model file")
    ck.add_argument("model", help="model file written by kripke.models.save_model")
    ck.add_argument("formula")
    ck.add_argument(
        "--world",
        default=None,
        help="evaluate at this world: its label as saved (3, w1, '[1, 2]') or #i for the world "
        "with index i (default: the designated worlds)",
    )
    ck.add_argument("--engine", default=None, choices=("explicit", "symbolic"))

    for setup in _command_setups():
        _COMMANDS.update(setup(sub))
    return p


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    args = build_parser().parse_args(argv)
    command = _COMMANDS.get(args.command)
    errors: tuple[type[BaseException], ...] = (KripkeError,) + (command.errors if command else ())
    try:
        if args.command == "puzzle":
            return _puzzle(args, out)
        if args.command == "check":
            return _check(args, out)
        if command is not None:
            return int(command.run(args, out) or 0)
    except errors as exc:
        print(f"kripke: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except MemoryError:  # a last resort: sizes are guarded before building (SizeLimitError)
        print(
            "kripke: error: out of memory; try a smaller size or the other engine", file=sys.stderr
        )
        return 2
    except RecursionError:  # a last resort: formulas are read and evaluated without recursion
        print("kripke: error: input nested too deeply for this operation", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("kripke: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (``kripke play ... | head``)
        sys.stderr.close()
        return 0
    return 1


def _one_line(exc: BaseException, width: int = 300) -> str:
    """The error message on one line: a parse error shows the text around its position."""
    from kripke.errors import ParseError

    if isinstance(exc, ParseError):
        head = str(exc).splitlines()[0]
        lo = max(0, exc.position - 30)
        excerpt = exc.text[lo : exc.position + 30]
        if lo:
            excerpt = "..." + excerpt
        if exc.position + 30 < len(exc.text):
            excerpt += "..."
        return f"{head} in {excerpt!r}"
    text = " ".join(str(exc).split())
    return text if len(text) <= width else text[: width - 3] + "..."


def _check(args: argparse.Namespace, out: TextIO) -> int:
    from kripke.models import load_model
    from kripke.parser import parse
    from kripke.semantics import check

    model = load_model(args.model)
    f = parse(args.formula)
    world = None if args.world is None else resolve_world(model, args.world)
    result = check(model, f, engine=args.engine, state=world)
    print("true" if result else "false", file=out)
    return 0


def resolve_world(model: Any, text: str) -> Any:
    """The label of the world that ``--world text`` names.

    ``#i`` is the world with index *i* (the order of the file's ``worlds``).
    Otherwise ``text`` is a label: read as JSON first (``3`` is the integer
    label 3, ``"3"`` the string, ``[1, 2]`` the tuple ``(1, 2)``), then as a
    plain string (``w1``).

    Raises
    ------
    kripke.errors.UnknownWorldError
        Listing the model's worlds.

    Examples
    --------
    >>> from kripke.puzzles import muddy_children
    >>> pm = muddy_children(3, [1, 2])
    >>> resolve_world(pm, "3"), resolve_world(pm, "#5")
    (3, 5)
    """
    import json

    from kripke.errors import UnknownWorldError
    from kripke.models import KripkeModel, PointedModel

    m = model.model if isinstance(model, PointedModel) else model
    if not isinstance(m, KripkeModel):
        return text
    labels = m.worlds
    if text.startswith("#") and text[1:].isdecimal() and text[1:].isascii():
        i = int(text[1:])
        if i < len(labels):
            return m.label(i)
        raise UnknownWorldError(
            f"--world {text}: the model has {len(labels)} worlds, indices #0..#{len(labels) - 1}"
        )
    candidates: list[Any] = []
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        value = None
    if isinstance(value, list):
        from kripke.models import _canon_label

        candidates.append(_canon_label(value))
    elif isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        candidates.append(value)
    candidates.append(text)
    for c in candidates:
        try:
            return m.label(m.index(c))
        except (KripkeError, TypeError):
            continue
    shown = ", ".join(json.dumps(_plain(w)) for w in labels[:20])
    more = f", ... ({len(labels)} worlds)" if len(labels) > 20 else ""
    raise UnknownWorldError(
        f"--world {text}: the model has no such world; its worlds are {shown}{more} "
        "(or #i for the world with index i)"
    )


def _plain(w: Any) -> Any:
    return [_plain(x) for x in w] if isinstance(w, tuple) else w


def _puzzle(args: argparse.Namespace, out: TextIO) -> int:
    from kripke import puzzles

    if args.name == "muddy":
        return _muddy(args, out)
    pm = None
    if args.name == "wise-men":
        from kripke.semantics import holds
        from kripke.updates import announce

        pm = puzzles.three_wise_men(engine=args.engine)
        steps = [("King: at least one hat is red", "r1 | r2 | r3"), ("Man 1: I don't know", "~Kw_1 r1"),
                 ("Man 2: I don't know", "~Kw_2 r2")]  # fmt: skip
        for text, ftext in steps:
            pm = announce(pm, ftext)
            print(f"{text:38s} [!{ftext}]  worlds left: {_count(pm)}", file=out)
        print(f"Man 3 knows his hat is red: {holds(pm, 'K_3 r3')}", file=out)
        return 0
    if args.name == "cheryl":
        from kripke.updates import announce

        pm = puzzles.cheryls_birthday(engine=args.engine)
        names = [
            "Albert: I don't know, and I know Bernard doesn't",
            "Bernard: now I know",
            "Albert: now I know too",
        ]
        for text, f in zip(names, puzzles.cheryl_announcements(), strict=True):
            pm = announce(pm, f)
            print(f"{text:50s} worlds left: {_count(pm)}", file=out)
        print(f"Cheryl's birthday: {_worlds(pm)}", file=out)
        return 0
    if args.name == "sum-product":
        from kripke.updates import announce

        m = puzzles.sum_and_product(engine=args.engine)
        names = ["P: I don't know; S: I knew you didn't", "P: now I know", "S: now I know too"]
        for text, f in zip(names, puzzles.sum_and_product_announcements(), strict=True):
            m = announce(m, f)
            print(f"{text:40s} pairs left: {_count(m)}", file=out)
        print(f"The pair: {_worlds(m)}", file=out)
        return 0
    if args.name == "russian-cards":
        safe = puzzles.russian_cards_safe_announcements(engine=args.engine)
        print(
            f"{len(safe)} safe announcements among {len(puzzles.russian_cards_hand_lists())} hand lists",
            file=out,
        )
        for hs in safe[:5]:
            print("  " + " ".join("".join(map(str, h)) for h in hs), file=out)
        return 0
    if args.name == "drinking":
        from kripke.semantics import holds

        n = args.children
        pm = puzzles.drinking_logicians(n, engine=args.engine)
        ok = holds(pm, puzzles.drinking_logicians_formula(n))
        print(
            f"{n} logicians: the first {n - 1} say 'I don't know', then logician {n} knows: {ok}",
            file=out,
        )
        return 0
    if args.name == "dining":
        from kripke.semantics import is_valid

        n = args.children
        pm = puzzles.dining_cryptographers(n, engine=args.engine)
        model = pm.model if hasattr(pm, "model") else pm
        ok = is_valid(model, puzzles.dining_cryptographers_formula(n))
        print(
            f"{n} diners: everyone learns whether the NSA paid, the payer stays anonymous: {ok}",
            file=out,
        )
        return 0
    return 1


def _count(pm: object) -> int:
    from kripke.models import KripkeModel, PointedModel

    if isinstance(pm, PointedModel):
        return pm.model.num_worlds
    if isinstance(pm, KripkeModel):
        return pm.num_worlds
    return int(pm.num_states())  # type: ignore[attr-defined]


def _worlds(pm: object) -> list[object]:
    from kripke.models import KripkeModel, PointedModel

    if isinstance(pm, PointedModel):
        return pm.model.worlds
    if isinstance(pm, KripkeModel):
        return pm.worlds
    # a symbolic state is the set of its true atoms: print it as "x(4), y(13)"
    return [", ".join(sorted(s)) for s in pm.states()]  # type: ignore[attr-defined]


def _muddy(args: argparse.Namespace, out: TextIO) -> int:
    from kripke.puzzles import muddy_children, muddy_children_protocol

    n = args.children
    muddy = None
    if args.muddy:
        try:
            muddy = [int(x) for x in args.muddy.split(",") if x.strip()]
        except ValueError:
            raise KripkeError(
                f"--muddy takes child numbers separated by commas, got {args.muddy!r}"
            ) from None
    pm = muddy_children(n, muddy, engine=args.engine)
    dirty = muddy if muddy is not None else list(range(1, n + 1))
    print(f"Muddy children: {n} children, muddy: {' '.join(map(str, sorted(set(dirty))))} "
          f"({args.engine} engine, {_count(pm)} worlds)", file=out)  # fmt: skip
    last = None
    for r in muddy_children_protocol(pm):
        if r.round == 0:
            print(f'Father: "At least one of you is muddy."  [!{r.announcement}]', file=out)
        else:
            print(f"Round {r.round}: nobody steps forward, and everyone hears it: "
                  f"[!~Kw_1 m1 & ... & ~Kw_{n} m{n}]", file=out)  # fmt: skip
        print(f"  worlds left: {r.worlds}", file=out)
        if r.knowers:
            muddy_knowers = [c for c in r.knowers if int(c) in set(dirty)]
            clean = [c for c in r.knowers if int(c) not in set(dirty)]
            if muddy_knowers:
                print(
                    f"  children {' '.join(muddy_knowers)} now know they are muddy (K_i mi)",
                    file=out,
                )
            if clean:
                print(f"  children {' '.join(clean)} now know they are clean (K_i ~mi)", file=out)
        else:
            print("  nobody knows whether they are muddy (~Kw_i mi for every i)", file=out)
        last = r
    if last is not None and last.knowers:
        print(f"Round {last.round + 1}: children {' '.join(last.knowers)} step forward.", file=out)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
