"""Fuzzing the kripke package's boundaries: only typed errors ever escape.

Four targets, each a plain function that raises only on a real fault, so
``benchmarks/fuzz_kripke.py`` runs the same targets for as many inputs as
wanted and counts what escapes:

* ``parse_target``: any text parses (and ``parse(str(f)) == f``) or raises
  :class:`~kripke.errors.ParseError`.
* ``model_value_target`` / ``model_bytes_target``: any JSON value or byte
  string handed to :func:`~kripke.models.load_model` loads (and saves back
  to an equal model) or raises a :class:`~kripke.errors.KripkeError`.
* ``deep_target``: formulas thousands of operators deep parse, print, hash,
  compare and evaluate on the explicit engine.

The command line is tested for exit status 2 with one line on stderr.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tempfile
from contextlib import redirect_stderr
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kripke.cli import main
from kripke.errors import KripkeError, ParseError
from kripke.models import KripkeModel, PointedModel, load_model, save_model
from kripke.parser import parse
from kripke.puzzles import dining_cryptographers, muddy_children
from kripke.semantics import holds
from kripke.updates import ActionModel, announce, product_update, public_announcement
from tests.strategies import formulas

# ------------------------------------------------------------------ targets
_TMP = Path(tempfile.mkdtemp(prefix="kripke-fuzz-"))


def parse_target(text: str) -> None:
    """Text parses and round-trips, or raises ParseError with a position inside it."""
    try:
        f = parse(text)
    except ParseError as err:
        assert 0 <= err.position <= len(text), (text, err.position)
        return
    assert parse(str(f)) == f, text


def model_bytes_target(raw: bytes) -> None:
    """A model file's bytes load (and survive a save/load round trip) or raise a KripkeError."""
    path = _TMP / "fuzz.json"
    path.write_bytes(raw)
    try:
        model = load_model(path)
    except KripkeError:
        return
    again = _TMP / "again.json"
    save_model(model, again)
    assert load_model(again) == model
    base = model.model if isinstance(model, PointedModel) else model
    assert isinstance(base, KripkeModel)


def model_value_target(value: Any) -> None:
    """A JSON value written as a model file loads or raises a KripkeError."""
    model_bytes_target(json.dumps(value).encode())


_DEEP_MODEL = muddy_children(2, [1])


def deep_target(text: str) -> None:
    """A deep formula text: parse, print, hash, compare and evaluate without RecursionError."""
    f = parse(text)
    g = parse(str(f))
    assert f == g and hash(f) == hash(g)
    assert isinstance(repr(f), str) and isinstance(f.to_latex(), str)
    assert f.size() >= f.depth() >= 1
    assert holds(_DEEP_MODEL, f) in (True, False)


# --------------------------------------------------------------- strategies
_TOKENS = [
    "p", "q", "m1", "m2", "~", "¬", "&", "∧", "|", "∨", "->", "→", "<->", "↔", "(", ")",
    "[!", "]", "<!", ">", "[", "<", ",", "{", "}", "K_", "M_", "Kw_", "E_", "C_", "D_",
    "K_1 ", "C_{1,2} ", "a", "1", "_", " ", "top", "⊥", "has(p2, QS)", "f(", "10H", "²",
    "#", "+", "-", "½", "ⅰ", "\x00", "\n",
]  # fmt: skip

#: texts of the formula language, broken and whole
formula_texts = st.one_of(
    st.lists(st.sampled_from(_TOKENS), max_size=30).map("".join),
    st.text(max_size=30),
    formulas(atoms=("p", "q"), agents=("1", "2"), max_leaves=8).map(str),
)

_json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.sampled_from(["p", "m1", "²", "0", "1", "a", "partition", "edges"]),
)
#: any JSON value
json_values = st.recursive(
    _json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=6) | st.sampled_from(["0", "1", "a"]), inner, max_size=4)
    ),
    max_leaves=12,
)


def _base_files() -> list[dict[str, Any]]:
    out = []
    for model in (
        muddy_children(2, [1]),
        dining_cryptographers(2, 1),
        KripkeModel.from_relations(["u", "v"], {"u": ["p"]}, {"a": [("u", "v"), ("v", "v")]}),
    ):
        path = _TMP / "base.json"
        save_model(model, path)
        out.append(json.loads(path.read_text()))
    return out


BASE_FILES = _base_files()


@st.composite
def mutated_model_values(draw: st.DrawFn) -> Any:
    """A valid model file's JSON with one field (at any depth) replaced by any JSON value."""
    data = json.loads(json.dumps(draw(st.sampled_from(BASE_FILES))))
    node = data
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            return data
        key = draw(st.sampled_from(keys))
        child = node[key]
        if isinstance(child, dict | list) and child and draw(st.booleans()):
            node = child
            continue
        if draw(st.integers(0, 4)) == 0 and isinstance(node, dict):
            del node[key]  # a missing field
        else:
            node[key] = draw(json_values)
        return data


@st.composite
def corrupted_model_bytes(draw: st.DrawFn) -> bytes:
    """A valid model file's bytes with bytes flipped, cut, inserted or repeated."""
    raw = bytearray(json.dumps(draw(st.sampled_from(BASE_FILES))).encode())
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["flip", "cut", "insert", "nest"]))
        pos = draw(st.integers(0, len(raw)))
        if op == "flip" and raw:
            raw[min(pos, len(raw) - 1)] = draw(st.integers(0, 255))
        elif op == "cut":
            del raw[pos:]
        elif op == "insert":
            raw[pos:pos] = draw(st.binary(min_size=1, max_size=6))
        else:
            depth = draw(st.integers(1, 3000))
            raw[pos:pos] = b"[" * depth + b"0" + b"]" * depth
    return bytes(raw)


_DEEP_OPS = ["~", "¬", "K_1 ", "M_2 ", "Kw_1 ", "C_{1,2} ", "D_{1,2} ", "[!m1] ", "<!m1 | m2> ",
             "m1 -> ", "m2 & ", "(", "[!"]  # fmt: skip


@st.composite
def deep_texts(draw: st.DrawFn) -> str:
    """A formula text whose operators nest ``depth`` deep (up to 3000)."""
    depth = draw(st.one_of(st.sampled_from([500, 1000, 2000, 3000]), st.integers(200, 3000)))
    ops = draw(st.lists(st.sampled_from(_DEEP_OPS), min_size=3, max_size=3))
    head: list[str] = []
    tail: list[str] = []
    for i in range(depth):
        op = ops[i % 3]
        if op == "(":
            head.append("(")
            tail.append(")")
        elif op == "[!":
            head.append("[!")
            tail.append("] m2")
        else:
            head.append(op)
    return "".join(head) + "m1" + "".join(reversed(tail))


#: each fuzz target with the strategy that feeds it
TARGETS: dict[str, tuple[Any, st.SearchStrategy[Any]]] = {
    "parser": (parse_target, formula_texts),
    "model-json": (model_value_target, mutated_model_values() | json_values),
    "model-bytes": (model_bytes_target, corrupted_model_bytes()),
    "deep-formulas": (deep_target, deep_texts()),
}

_FUZZ = settings(
    max_examples=300, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)


@_FUZZ
@given(formula_texts)
def test_parser_raises_only_parse_errors(text):
    parse_target(text)


@_FUZZ
@given(mutated_model_values() | json_values)
def test_model_values_load_or_raise_a_typed_error(value):
    model_value_target(value)


@_FUZZ
@given(corrupted_model_bytes())
def test_corrupted_model_files_load_or_raise_a_typed_error(raw):
    model_bytes_target(raw)


@settings(max_examples=12, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(deep_texts())
def test_deep_formulas_work_everywhere(text):
    deep_target(text)


def test_base_files_load():
    for data in BASE_FILES:
        model_value_target(data)


@pytest.mark.parametrize(
    "text",
    [
        "(" * 3000 + "m1" + ")" * 3000,
        "~" * 5000 + "m1",
        "K_1 " * 2000 + "m1",
        " -> ".join(["m1"] * 2000),
        "[!m1 | m2] " * 1000 + "m1",
        "[!" * 500 + "m1" + "] m2" * 500,
    ],
    ids=["parens", "not", "know", "implies", "announce", "announcement-inside"],
)
def test_very_deep_formulas(text):
    deep_target(text)


def test_deep_formula_depth_and_evaluation_agree_with_a_shallow_one():
    # ~~f is f: 2000 negations of K_1 m1 evaluate like K_1 m1 itself
    f = parse("~" * 2000 + "K_1 m1")
    assert f.depth() == 2002
    assert holds(_DEEP_MODEL, f) == holds(_DEEP_MODEL, "K_1 m1")


# -------------------------------------------------------------- command line
def _run(*argv: str) -> tuple[int, str]:
    err = io.StringIO()
    with redirect_stderr(err):
        code = main(list(argv), out=io.StringIO())
    return code, err.getvalue()


@pytest.fixture(scope="module")
def muddy_file(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("cli") / "muddy.json"
    save_model(muddy_children(3, [1, 2]), path)
    return str(path)


@pytest.mark.parametrize(
    "argv, message",
    [
        (("check", "{model}", "K_1 (m1 &"), "expected a formula but found end of input"),
        (("check", "{model}", "~" * 3000 + "m1 &"), "expected a formula"),
        (("check", "{model}", "K_1 m9"), "no atom 'm9'"),
        (("check", "{model}", "K_9 m1"), "unknown agent '9'"),
        (("check", "{model}", "K_1 m1", "--world", "9"), "its worlds are 0, 1, 2"),
        (("check", "{model}", "K_1 m1", "--world", "#8"), "indices #0..#7"),
        (("check", "{bad}", "K_1 m1"), "version"),
        (("check", "{missing}", "K_1 m1"), "cannot read model file"),
        (("puzzle", "muddy", "--children", "1000000000"), "too many for the explicit engine"),
        (("puzzle", "muddy", "--children", "23"), "above its limit of 4.0 GiB"),
        (("puzzle", "drinking", "--children", "1000000000"), "too many for the explicit engine"),
        (("puzzle", "dining", "--children", "1000000000"), "too many for the explicit engine"),
        (("puzzle", "muddy", "--children", "0"), "positive integer"),
        (("puzzle", "muddy", "--children", "3", "--muddy", "1,x"), "--muddy takes child numbers"),
        (("puzzle", "muddy", "--children", "3", "--muddy", "7"), "muddy child 7"),
    ],
)
def test_cli_errors_are_one_line_with_status_2(muddy_file, tmp_path, argv, message):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**BASE_FILES[0], "version": 1.0}))
    names = {"model": muddy_file, "bad": str(bad), "missing": str(tmp_path / "none.json")}
    code, err = _run(*(a.format(**names) if a.startswith("{") else a for a in argv))
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("kripke: error: ")
    assert message in err


def _check(*argv: str) -> str:
    out = io.StringIO()
    assert main(["check", *argv], out=out) == 0
    return out.getvalue()


def test_check_world_by_saved_label_or_index(muddy_file, tmp_path):
    # the case: world 3 of muddy_children(3, [1, 2]) is the bitmask 0b011
    assert _check(muddy_file, "K_1 m1", "--world", "3") == "false\n"
    assert _check(muddy_file, "m1 & m2 & ~m3 & K_3 (m1 & m2)", "--world", "3") == "true\n"
    # after the father speaks world 0 is gone: label 3 sits at index 2, index 3 holds label 4
    path = tmp_path / "after.json"
    save_model(announce(muddy_children(3, [1, 2]), "m1 | m2 | m3"), path)
    assert _check(str(path), "m1 & m2 & ~m3", "--world", "3") == "true\n"
    assert _check(str(path), "m1 & m2 & ~m3", "--world", "#2") == "true\n"
    assert _check(str(path), "m3 & ~m1 & ~m2", "--world", "#3") == "true\n"
    code, err = _run("check", str(path), "m1", "--world", "0")
    assert code == 2 and "its worlds are 1, 2, 3, 4, 5, 6, 7" in err


def test_check_world_labels_that_are_tuples(tmp_path):
    path = tmp_path / "dining.json"
    save_model(dining_cryptographers(3, 1), path)
    out = io.StringIO()
    assert main(["check", str(path), "paid(1)", "--world", "[1, 0]"], out=out) == 0
    assert out.getvalue() == "true\n"
    code, err = _run("check", str(path), "paid(1)", "--world", "[9, 9]")
    assert code == 2 and "[0, 0], [0, 1]" in err


def test_cli_process_prints_no_traceback(muddy_file):
    for argv in (
        ["check", muddy_file, "(" * 400 + "K_1 m1" + ")" * 399],
        ["puzzle", "dining", "--children", "1000000000"],
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "kripke.cli", *argv],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 2, proc.stderr
        assert "Traceback" not in proc.stderr
        assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("kripke: error: ")


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda pm, A: product_update(pm, A, 5), "has no event 5"),
        (lambda pm, A: product_update(pm, 5, "e"), "needs an ActionModel"),
        (lambda pm, A: product_update(pm.model, None), "needs an ActionModel"),
        (lambda pm, A: ActionModel("A", 5, {}), "preconditions must be a mapping"),
        (lambda pm, A: ActionModel("A", {"e": "p"}, {"a": 5}), "relation of agent 'a'"),
        (lambda pm, A: ActionModel("A", {"e": "p"}, {"a": [5]}), "a class of agent 'a'"),
        (lambda pm, A: ActionModel("A", {"e": "p"}, {"a": [["e"]]}, {"e": 5}), "postconditions"),
        (lambda pm, A: announce(pm, 5), "expected a Formula or formula text"),
        (lambda pm, A: holds(pm, "m1", state={}), "no world {}"),
    ],
)
def test_update_api_names_a_wrong_type(call, message):
    pm = muddy_children(2, [1])
    with pytest.raises(KripkeError, match=message):
        call(pm, public_announcement("m1", ["1", "2"]))
