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
