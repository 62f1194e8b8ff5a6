"""Model construction, validation, JSON, networkx."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings

from kripke.errors import InvalidModelError, ModelFileError, UnknownWorldError
from kripke.models import KripkeModel, PointedModel, load_model, save_model
from kripke.semantics import truth_set
from tests.strategies import formulas, models, pointed_models


def test_from_observations_builds_card_deal():
    deals = ["AB", "BA"]  # alice holds the first card, bob the second
    val = {"AB": ["has(alice, A)", "has(bob, B)"], "BA": ["has(alice, B)", "has(bob, A)"]}
    m = KripkeModel.from_observations(
        deals,
        val,
        {"alice": ["has(alice, A)", "has(alice, B)"], "bob": ["has(bob, A)", "has(bob, B)"]},
    )
    assert m.classes("alice") == [["AB"], ["BA"]]
    assert truth_set(m, "K_alice has(bob, B)") == {"AB"}


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"partitions": {"a": [["w1"]]}}, "does not cover world 'w2'"),
        ({"partitions": {"a": [["w1", "w2"], ["w2"]]}}, "two classes"),
        ({"partitions": {"a": [["w1", "w9"]]}}, "unknown world 'w9'"),
        ({"partitions": {"bad agent": [["w1", "w2"]]}}, "agent name"),
    ],
)
def test_partition_validation_names_the_problem(kwargs, message):
    with pytest.raises((InvalidModelError, UnknownWorldError, Exception), match=message):
        KripkeModel.from_partitions(["w1", "w2"], {}, **kwargs)


def test_relation_and_valuation_validation():
    with pytest.raises(UnknownWorldError, match="'x'"):
        KripkeModel.from_relations(["w"], {}, {"a": [("w", "x")]})
    with pytest.raises(UnknownWorldError, match="'v'"):
        KripkeModel.from_partitions(["w"], {"v": ["p"]}, {"a": [["w"]]})
    with pytest.raises(InvalidModelError, match="twice"):
        KripkeModel.from_partitions(["w", "w"], {}, {"a": [["w"]]})
    with pytest.raises(InvalidModelError, match="collection of atoms"):
        KripkeModel.from_partitions(["w"], {"w": "p"}, {"a": [["w"]]})
    with pytest.raises(InvalidModelError, match="not an atom"):
        KripkeModel.from_partitions(["w"], {"w": ["p & q"]}, {"a": [["w"]]})


def test_pointed_model_validation():
    m = KripkeModel.from_partitions(["w"], {}, {"a": [["w"]]})
    with pytest.raises(UnknownWorldError, match="'z'"):
        PointedModel(m, "z")
    with pytest.raises(InvalidModelError):
        PointedModel(m, set())


@given(pm=pointed_models())
@settings(max_examples=60, deadline=None)
def test_json_round_trip(pm, tmp_path_factory):
    path = tmp_path_factory.mktemp("m") / "model.json"
    save_model(pm, path)
    back = load_model(path)
    assert back == pm


@given(models(), formulas(max_leaves=6))
@settings(max_examples=60, deadline=None)
def test_json_round_trip_preserves_truth(m, f):
    assert truth_set(KripkeModel.from_dict(json.loads(json.dumps(m.to_dict()))), f) == truth_set(
        m, f
    )


@pytest.mark.parametrize(
    "content, message",
    [
        ("not json", "not valid JSON"),
        ("[]", "JSON object"),
        ('{"format": "other"}', "not a model file"),
        (
            '{"format": "kripke-games/model", "version": 1, "worlds": [0], "atoms": ["p"], "valuation": {"3": ["p"]},'
            ' "agents": ["a"], "relations": {"a": {"partition": [[0]]}}}',
            "valuation key '3'",
        ),
        (
            '{"format": "kripke-games/model", "version": 1, "worlds": [0], "atoms": ["p"], "valuation": {"0": ["q"]},'
            ' "agents": ["a"], "relations": {"a": {"partition": [[0]]}}}',
            "undeclared atom 'q'",
        ),
        (
            '{"format": "kripke-games/model", "version": 1, "worlds": [0, 1], "atoms": [], "valuation": {},'
            ' "agents": ["a"], "relations": {"a": {"partition": [[0]]}}}',
            "misses world 1",
        ),
        (
            '{"format": "kripke-games/model", "version": 1, "worlds": [0], "atoms": [], "valuation": {},'
            ' "agents": ["a"], "relations": {"a": {"edges": [[0, 5]]}}}',
            "outside",
        ),
        (
            '{"format": "kripke-games/model", "version": 1, "worlds": [0], "atoms": [], "valuation": {},'
            ' "agents": ["a"], "relations": {}}',
            "needs a 'partition' or 'edges'",
        ),
    ],
)
def test_bad_model_files_name_the_problem(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ModelFileError, match=message):
        load_model(path)


def test_missing_model_file():
    with pytest.raises(ModelFileError, match="cannot read"):
        load_model("/nonexistent/model.json")


def test_to_networkx():
    m = KripkeModel.from_relations(
        ["u", "v"], {"u": ["p"]}, {"a": [("u", "v")], "b": [("u", "u"), ("v", "v")]}
    )
    g = m.to_networkx()
    assert set(g.nodes) == {"u", "v"}
    assert g.nodes["u"]["atoms"] == {"p"}
    assert sorted((s, t, k) for s, t, k in g.edges(keys=True)) == [
        ("u", "u", "b"),
        ("u", "v", "a"),
        ("v", "v", "b"),
    ]


def test_restrict_and_relabel():
    m = KripkeModel.from_partitions([1, 2, 3], {1: ["p"]}, {"a": [[1, 2, 3]]})
    sub = m.restrict([1, 3])
    assert sub.worlds == [1, 3]
    assert sub.accessible("a", 1) == [1, 3]
    assert m.relabel(["x", "y", "z"]).worlds == ["x", "y", "z"]


def _model_text(**changes):
    data = {
        "format": "kripke-games/model",
        "version": 1,
        "worlds": [0, 1],
        "atoms": ["p"],
        "valuation": {"0": ["p"]},
        "agents": ["a"],
        "relations": {"a": {"partition": [[0, 1]]}},
    }
    data.update(changes)
    return json.dumps(data)


def _replace(old, new):
    return _model_text().replace(old, new)


@pytest.mark.parametrize(
    "content, message",
    [
        (_model_text(worlds=[{"x": 1}, 1]), r"worlds\[0\]: a world label is .* got an object"),
        (_model_text(worlds=[0.5, 1]), r"worlds\[0\]: .* got the number 0.5"),
        (_model_text(worlds=[True, 1]), r"worlds\[0\]: .* got the boolean true"),
        (_model_text(worlds=[None, 1]), r"worlds\[0\]: .* got null"),
        (_model_text(worlds=[0, 0]), r"worlds\[1\]: world 0 is listed twice"),
        (_replace('"worlds": [0, 1]', '"worlds": [NaN, 1]'), "NaN is not a valid value"),
        (_replace('"worlds": [0, 1]', '"worlds": [Infinity, 1]'), "Infinity is not a valid"),
        (_replace('"worlds": [0, 1]', '"worlds": [' + "7" * 5000 + ", 1]"), "5000-digit number"),
        (_model_text(relations={"a": {"partition": 5}}), r"partition: expected a list of classes"),
        (_model_text(relations={"a": {"partition": None}}), r"partition: .* got null"),
        (_model_text(relations={"a": {"partition": [0, 1]}}), r"partition\[0\]: expected a list"),
        (_model_text(relations={"a": {"partition": [[False, True]]}}), "got the boolean false"),
        (_model_text(relations={"a": {"partition": [[0], []]}}), r"partition\[1\]: .* empty"),
        (_model_text(relations={"a": {"partition": [[0, 1], [1]]}}), "already in class 0"),
        (_model_text(relations={"a": {"edges": [[0, 10**30]]}}), r"edges\[0\]\[1\]: .*31-digit"),
        (_model_text(relations={"a": {"edges": [[0, 0.7]]}}), r"edges\[0\]\[1\]: .*number 0.7"),
        (_model_text(relations={"a": {"edges": [[0, True]]}}), "got the boolean true"),
        (_model_text(relations={"a": {"edges": [[[0, 1]]]}}), r"edges\[0\]: expected a pair"),
        (_model_text(relations={"a": {"edges": [[0, 1], [0, 1]]}}), r"edges\[1\]: .*twice"),
        (_model_text(relations={"a": {"edges": [[0, -1]]}}), "outside 0..1"),
        (
            _model_text(relations={"a": {"partition": [[0, 1]], "edges": [[0, 1]]}}),
            "both 'partition' and 'edges'",
        ),
        (_model_text(relations={"a": {"partition": [[0, 1]], "kind": 1}}), "unknown entry 'kind'"),
        (_model_text(relations={"a": {"partition": [[0, 1]]}, "b": {}}), "not listed in 'agents'"),
        (_model_text(valuation={"²": ["p"]}), "valuation key '²'"),
        (_model_text(valuation={"01": ["p"]}), "valuation key '01'"),
        (_model_text(valuation={"0": ["p", "p"]}), "listed twice"),
        (_model_text(valuation={"0": "p"}), r"valuation\['0'\]: expected a list"),
        (_model_text(atoms=["²"]), r"atoms\[0\]: '²' is not an atom"),
        (_model_text(atoms=["p", "p"]), r"atoms\[1\]: atom 'p' is listed twice"),
        (_model_text(atoms=[3]), r"atoms\[0\]: .* got the number 3"),
        (_model_text(agents=["a", "a"]), r"agents\[1\]: agent 'a' is listed twice"),
        (_model_text(agents=[1]), r"agents\[0\]: .* got the number 1"),
        (_model_text(agents=["a b"]), "not an agent name"),
        (_model_text(designated=[0, 0]), r"designated\[1\]: world index 0 is listed twice"),
        (_model_text(designated=[]), "at least one designated world"),
        (_model_text(designated=[True]), "got the boolean true"),
        (_model_text(designated=[2]), "outside 0..1"),
        (_model_text(version=1.0), "version: .* the number 1.0"),
        (_model_text(version=True), "version: .* the boolean true"),
        (_model_text(version=2), "version: .* the number 2"),
        (_model_text(extra=1), "unknown field 'extra'"),
        (_model_text()[:-1] + ', "version": 1}', "the key 'version' appears twice"),
        (_model_text().replace(', "atoms": ["p"]', ""), "the field 'atoms' is missing"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ("5", "holds a JSON object, got the number 5"),
    ],
)
def test_model_file_fields_are_validated_one_by_one(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ModelFileError, match=message):
        load_model(path)


def test_model_file_must_be_utf8(tmp_path):
    path = tmp_path / "bad.json"
    path.write_bytes(b'{"format": "\xff"}')
    with pytest.raises(ModelFileError, match="not UTF-8 text: byte 0xff at offset 12"):
        load_model(path)


def test_valid_model_file_loads(tmp_path):
    path = tmp_path / "ok.json"
    path.write_text(_model_text(designated=[1], worlds=["x", [1, "y"]]))
    pm = load_model(path)
    assert pm.model.worlds == ["x", (1, "y")]
    assert pm.designated == [(1, "y")]


def test_save_model_refuses_labels_a_file_cannot_hold(tmp_path):
    m = KripkeModel.from_partitions([0.5, 1], {}, {"a": [[0.5, 1]]})
    with pytest.raises(ModelFileError, match="world label 0.5 cannot be written"):
        save_model(m, tmp_path / "m.json")


def test_explicit_memory_limit_is_configurable(monkeypatch):
    from kripke.errors import KripkeError, SizeLimitError
    from kripke.models import (
        DEFAULT_MEMORY_LIMIT,
        check_explicit_size,
        explicit_memory_limit,
        set_explicit_memory_limit,
    )

    assert explicit_memory_limit() == DEFAULT_MEMORY_LIMIT == 4 * 2**30
    monkeypatch.setenv("KRIPKE_EXPLICIT_MEMORY_LIMIT", "1.5GiB")
    assert explicit_memory_limit() == 3 * 2**29
    monkeypatch.setenv("KRIPKE_EXPLICIT_MEMORY_LIMIT", "lots")
    with pytest.raises(KripkeError, match="not a size"):
        explicit_memory_limit()
    monkeypatch.setenv("KRIPKE_EXPLICIT_MEMORY_LIMIT", "0")
    with pytest.raises(KripkeError, match="must be positive"):
        explicit_memory_limit()
    monkeypatch.delenv("KRIPKE_EXPLICIT_MEMORY_LIMIT")
    old = set_explicit_memory_limit(1000)
    try:
        check_explicit_size(10, 1, 1, "ten worlds")
        with pytest.raises(SizeLimitError, match="100 worlds are too many .* engine='symbolic'"):
            check_explicit_size(100, 1, 1, "a hundred worlds")
    finally:
        set_explicit_memory_limit(old)
    with pytest.raises(KripkeError):
        set_explicit_memory_limit(0)


def test_size_guards_refuse_before_building():
    import numpy as np

    from kripke.errors import SizeLimitError
    from kripke.models import Partition, set_explicit_memory_limit
    from kripke.puzzles import muddy_children
    from kripke.updates import ActionModel, product_update

    pm = muddy_children(4, [1])
    action = ActionModel("A", {"e": "top", "f": "top"}, {a: [["e", "f"]] for a in pm.model.agents})
    old = set_explicit_memory_limit(20_000)
    try:
        with pytest.raises(SizeLimitError, match="1,000,000 ordered pairs needs about 30.5 MiB"):
            Partition(np.zeros(1000, np.int64), 1).edges()
        with pytest.raises(SizeLimitError, match="product update with 'A': 32 worlds"):
            set_explicit_memory_limit(32 * 4 * (8 + 4 + 32) - 1)
            product_update(pm, action, "e")
        with pytest.raises(SizeLimitError, match="6 children: 64 worlds .* engine='symbolic'"):
            muddy_children(6)
    finally:
        set_explicit_memory_limit(old)
    assert product_update(pm, action, "e").model.num_worlds == 32


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: KripkeModel.from_partitions(["w"], {}, {"a": 5}), "partition of agent 'a'"),
        (lambda: KripkeModel.from_partitions(["w"], {}, {"a": [5]}), "a class of agent 'a'"),
        (lambda: KripkeModel.from_partitions(["wx"], {}, {"a": ["wx"]}), "got 'wx'"),
        (
            lambda: KripkeModel.from_partitions(["w"], {"w": 5}, {"a": [["w"]]}),
            "valuation of world",
        ),
        (lambda: KripkeModel.from_partitions(5, {}, {}), "the worlds must be a collection"),
        (lambda: KripkeModel.from_partitions(["w"], {}, 5), "partitions must be a mapping"),
        (lambda: KripkeModel.from_relations(["w"], {}, {"a": 5}), "relation of agent 'a'"),
        (lambda: KripkeModel.from_relations(["w"], {}, {"a": [({}, "w")]}), "unknown world {}"),
        (lambda: KripkeModel.from_observations(["w"], {}, {"a": 5}), "agent 'a' observes"),
    ],
)
def test_constructors_name_a_wrong_type(build, message):
    with pytest.raises((InvalidModelError, UnknownWorldError), match=message):
        build()
