"""The command line and the project's promises (README quick start, CI)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from kripke.cli import main
from kripke.models import save_model
from kripke.puzzles import muddy_children

ROOT = Path(__file__).resolve().parent.parent


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def test_puzzle_muddy_narrates_rounds():
    code, text = run("puzzle", "muddy", "--children", "5")
    assert code == 0
    assert text.count("nobody steps forward") == 4
    assert "worlds left: 31" in text and "worlds left: 1" in text
    assert "children 1 2 3 4 5 now know they are muddy" in text


@pytest.mark.parametrize(
    "name, expected",
    [
        ("cheryl", "July 16"),
        ("sum-product", "(4, 13)"),
        ("russian-cards", "102 safe"),
        ("wise-men", "True"),
    ],
)
def test_other_puzzles(name, expected):
    code, text = run("puzzle", name)
    assert code == 0 and expected in text


def test_check_command(tmp_path):
    path = tmp_path / "m.json"
    save_model(muddy_children(2, [1]), path)
    assert run("check", str(path), "K_2 m1") == (0, "true\n")
    assert run("check", str(path), "K_1 m1") == (0, "false\n")


def test_check_command_bad_formula(tmp_path, capsys):
    path = tmp_path / "m.json"
    save_model(muddy_children(2, [1]), path)
    code, _ = run("check", str(path), "K_1 &")
    assert code == 2
    assert "expected a formula" in capsys.readouterr().err


def test_readme_quick_start_matches_ci():
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"## Quick start.*?```bash\n(.*?)```", readme, re.S)
    assert block, "README has a Quick start bash block"
    commands = [line for line in block.group(1).splitlines() if line.strip()]
    assert len(commands) == 2, "the quick start is exactly two commands"
    ci = (ROOT / ".ci" / "run").read_text()
    assert commands[1] in ci, "CI runs the README's test command verbatim"
    assert "venv" in ci
