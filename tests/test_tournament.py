"""The tournament harness: seeding, seats, JSONL streaming and resume, summaries, forfeits."""

from __future__ import annotations

import io
import json
from types import SimpleNamespace

import pytest

from games.base import Bot, register_bot
from games.errors import InvalidParameterError, UnknownGameError
from games.tournament import (
    ResultsFileError,
    TornRecordWarning,
    TournamentSpec,
    cli_main,
    format_summary,
    play_one,
    run_tournament,
    seat_labels,
    summarize,
)
from kripke.cli import main as kripke_main

SIMPLE = ["truthful", "threshold", "liar", "random"]


def test_same_seed_same_results_in_one_and_two_processes(tmp_path):
    a = run_tournament("bs", SIMPLE, 12, variant="koth", workers=1, progress=False, seed=3)
    b = run_tournament(
        "bs",
        SIMPLE,
        12,
        variant="koth",
        workers=2,
        progress=False,
        seed=3,
        out=tmp_path / "r.jsonl",
    )
    assert a == b
    lines = (tmp_path / "r.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["tournament"] == "bs"
    recs = [json.loads(x) for x in lines[1:]]
    assert sorted(r["game"] for r in recs) == list(range(12))


def test_interrupted_tournament_resumes_without_replaying(tmp_path):
    out = tmp_path / "t.jsonl"
    full = run_tournament("bs", SIMPLE, 10, variant="koth", workers=1, progress=False, out=out)
    lines = out.read_text().splitlines()
    # keep the header and four games, and a torn last line (as after a crash)
    out.write_text("\n".join(lines[:5]) + '\n{"game": 7, "se')
    with pytest.warns(TornRecordWarning, match="line 6 is a partly written record"):
        again = run_tournament("bs", SIMPLE, 10, variant="koth", workers=1, progress=False, out=out)
    assert again == full
    after = out.read_text().splitlines()
    assert after[:5] == lines[:5]  # the finished games were kept, the torn line cut off
    games = [json.loads(x)["game"] for x in after[1:]]
    assert len(after) == 11 and sorted(games) == list(range(10))  # only the missing ones played


def test_out_file_of_another_tournament_is_refused(tmp_path):
    out = tmp_path / "t.jsonl"
    run_tournament("bs", SIMPLE, 2, variant="koth", workers=1, progress=False, out=out)
    with pytest.raises(ResultsFileError, match="another tournament .seed is 0 there, 9 here"):
        run_tournament("bs", SIMPLE, 2, variant="koth", workers=1, progress=False, out=out, seed=9)


def test_seat_rotation_and_draw():
    spec = TournamentSpec("bs", tuple(SIMPLE), 8, seed=1, params=(("variant", "koth"),))
    rec = [play_one(spec, i) for i in range(4)]
    assert rec[1]["seats"] == SIMPLE[1:] + SIMPLE[:1]
    draw = TournamentSpec(
        "bs", tuple(SIMPLE + ["liar"]), 8, seed=1, seats="draw", params=(("variant", "koth"),)
    )
    tables = [play_one(draw, i)["seats"] for i in range(6)]
    assert all(len(t) == 4 and len(set(t)) == 4 for t in tables)
    assert len({tuple(t) for t in tables}) > 1
    assert [play_one(draw, i)["seats"] for i in range(6)] == tables


def test_repeated_names_get_numbered_labels():
    assert seat_labels(["a", "b", "a", "a"]) == ["a", "b", "a#2", "a#3"]
    s = run_tournament(
        "bs", ["knowledge", "truthful"], 4, variant="koth", workers=1, progress=False
    )
    assert set(s["bots"]) == {"knowledge", "knowledge#2", "truthful", "truthful#2"}


def test_summary_win_rates_and_intervals():
    recs = [
        {"seats": ["a", "b"], "returns": [1.0, 0.0], "winners": ["a"]},
        {"seats": ["b", "a"], "returns": [0.0, 1.0], "winners": ["a"]},
        {"seats": ["a", "b"], "returns": [0.0, 0.0], "winners": []},
    ]
    s = summarize(recs)
    assert s["bots"]["a"]["wins"] == 2 and s["bots"]["b"]["wins"] == 0
    assert s["bots"]["a"]["win_rate"] == pytest.approx(2 / 3)
    lo, hi = s["bots"]["a"]["ci95"]
    # Wilson interval for 2/3 at 95%: [0.208, 0.939]
    assert lo == pytest.approx(0.2077, abs=1e-3) and hi == pytest.approx(0.9385, abs=1e-3)


def test_table_prints_no_negative_zero():
    # one win in 3000 games: the normal interval of the mean score dips just below 0
    recs = [
        {"seats": ["a", "b"], "returns": [float(i == 0), 0.0], "winners": []} for i in range(3000)
    ]
    s = summarize(recs)
    assert s["bots"]["a"]["score_ci95"][0] < 0
    text = format_summary(s)
    assert "-0.000" not in text and "[0.000, 0.001]" in text


class _Crasher(Bot):
    name = "crasher"

    def step(self, legal_actions):
        raise RuntimeError("I give up")


@pytest.fixture
def crasher():
    from games.base import _entry

    register_bot("bs", "crasher", _Crasher)
    yield
    _entry("bs").bots.pop("crasher", None)


def test_forfeits_are_recorded_and_the_tournament_goes_on(crasher):
    s = run_tournament(
        "bs",
        ["crasher", "truthful", "threshold", "liar"],
        4,
        variant="koth",
        workers=1,
        progress=False,
    )
    assert s["bots"]["crasher"]["forfeits"] == 4
    assert all(b["games"] == 4 for b in s["bots"].values())
    rec = play_one(
        TournamentSpec(
            "bs", ("crasher", "truthful", "threshold", "liar"), 1, params=(("variant", "koth"),)
        ),
        0,
    )
    assert rec["forfeit"] == "crasher" and "I give up" in rec["reason"]


def test_generic_over_other_games():
    s = run_tournament(
        "boerenbridge", ["greedy", "random"], 2, variant="lamas", workers=1, progress=False
    )
    assert sum(b["games"] for b in s["bots"].values()) == 8
    assert any(b["mean_score"] != 0 for b in s["bots"].values())


def test_bad_input_is_named():
    with pytest.raises(UnknownGameError, match="'nobot'"):
        run_tournament("bs", ["nobot"], 1, progress=False)
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        run_tournament("chess", ["x"], 1, progress=False)
    with pytest.raises(InvalidParameterError, match="seats"):
        run_tournament("bs", SIMPLE, 1, seats="shuffle", progress=False)


def test_cli_json_has_exactly_the_promised_fields():
    out = io.StringIO()
    code = kripke_main(
        [
            "tournament",
            "bs",
            "--variant",
            "koth",
            "--games",
            "6",
            "--bots",
            ",".join(SIMPLE),
            "--workers",
            "1",
            "--no-progress",
            "--json",
        ],
        out=out,
    )
    assert code == 0
    data = json.loads(out.getvalue())
    assert set(data) == {"bots"}
    for b in data["bots"].values():
        assert set(b) == {"games", "wins", "win_rate", "mean_score", "ci95"}
        assert len(b["ci95"]) == 2


def test_cli_table():
    args = SimpleNamespace(
        game="bs",
        variant="koth",
        games=4,
        bots="truthful,threshold,liar,random",
        players=None,
        seed=0,
        seats="rotate",
        out=None,
        workers=1,
        json=False,
        no_progress=True,
        param=[],
    )
    out = io.StringIO()
    assert cli_main(args, out) == 0
    text = out.getvalue()
    assert "win rate" in text and "95% CI" in text and "truthful" in text
