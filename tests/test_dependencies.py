"""The layout's dependency rules, read from the source (every import, also inside functions).

* :mod:`kripke` imports neither :mod:`games` nor :mod:`visualize` (pictures and
  the game subcommands reach it through entry points);
* :mod:`games.epistemic` imports no game package;
* a game's engine (``state``) and rules never import its bots or its table;
* every game package has the same rooms;
* :mod:`games.epistemic` and :mod:`games.deal` have no import cycles.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("bs", "boerenbridge", "shengji", "bs_zpy")
ROOMS = ("state", "knowledge", "bots", "table")


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at any depth of the code, absolute names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = _module_name(path).split(".") if path.is_relative_to(ROOT) else [path.stem]
    if path.name != "__init__.py":
        here = here[:-1]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(here[: len(here) - node.level + 1] + ([base] if base else []))
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            out.add(node.args[0].value)
    return out


def _modules(package: str) -> list[Path]:
    return sorted((ROOT / package.replace(".", "/")).rglob("*.py"))


def _under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


@pytest.mark.parametrize("path", _modules("kripke"), ids=lambda p: _module_name(p))
def test_kripke_imports_neither_games_nor_visualize(path: Path) -> None:
    bad = sorted(n for n in _imports(path) if _under(n, "games") or _under(n, "visualize"))
    assert not bad, f"{_module_name(path)} imports {bad}"


@pytest.mark.parametrize("path", _modules("games.epistemic"), ids=lambda p: _module_name(p))
def test_epistemic_imports_no_game(path: Path) -> None:
    bad = sorted(n for n in _imports(path) for g in GAMES if _under(n, f"games.{g}"))
    assert not bad, f"{_module_name(path)} imports {bad}"


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_the_same_rooms(game: str) -> None:
    pkg = ROOT / "games" / game
    assert (pkg / "__init__.py").is_file()
    missing = [r for r in ROOMS if not (pkg / f"{r}.py").is_file()]
    assert not missing, f"games/{game} lacks {missing}"
    assert (pkg / "rules.py").is_file() or (pkg / "rules" / "__init__.py").is_file()


@pytest.mark.parametrize("game", GAMES)
def test_engines_and_rules_never_import_bots_or_tables(game: str) -> None:
    pkg = ROOT / "games" / game
    engine = [pkg / "state.py", *sorted(pkg.glob("rules*.py")), *sorted(pkg.glob("rules/*.py"))]
    for path in engine:
        bad = sorted(
            n
            for n in _imports(path)
            if _under(n, f"games.{game}.bots") or _under(n, f"games.{game}.table")
        )
        assert not bad, f"{_module_name(path)} imports {bad}"
        # nor any other game's bots or tables
        other = sorted(
            n for n in _imports(path) for g in GAMES if n in (f"games.{g}.bots", f"games.{g}.table")
        )
        assert not other, f"{_module_name(path)} imports {other}"


def _cycle(package: str) -> list[str] | None:
    names = {_module_name(p): p for p in _modules(package)}
    graph = {
        m: {n for n in _imports(p) if n in names and n != m and n != package}
        for m, p in names.items()
    }
    # a package __init__ re-exports its modules; cycles through it are not layering faults
    graph.pop(package, None)
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return stack[stack.index(n) :] + [n]
            if n not in state:
                found = visit(n)
                if found:
                    return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


@pytest.mark.parametrize("package", ["games.epistemic", "games.deal"])
def test_no_import_cycles(package: str) -> None:
    assert _cycle(package) is None, f"import cycle: {' -> '.join(_cycle(package) or [])}"


def test_the_checker_sees_imports_inside_functions(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text("def f():\n    from games.bs import bots\n    import visualize.models\n")
    assert {"games.bs", "games.bs.bots", "visualize.models"} <= _imports(src)
