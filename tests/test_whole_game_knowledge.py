"""The whole-game knowledge benchmark's pieces, on small histories and a short run.

``benchmarks/whole_game_knowledge.py`` measures nested knowledge at every
play of complete games; here its query choice, its per-state answer (checked
against the explicit model), its budget and its resumable output are checked
on inputs small enough for the test suite.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import whole_game_knowledge as wgk
from games.cards import Deck
from games.epistemic.explicit import explicit_model
from games.epistemic.history import CardHistory, Move, MoveAll
from games.epistemic.reading import read_formula
from games.errors import InvalidParameterError
from kripke.semantics import holds


def _history() -> CardHistory:
    h = CardHistory(
        Deck(["A", "B", "C", "D", "E", "F"]),
        {"P0": "A B", "P1": "C D", "P2": "E F", "pile": ""},
        ["P0", "P1", "P2"],
    )
    return h.then(Move("C", "P1", "pile", seen_by=["P1"])).then(
        Move("A", "P0", "pile", seen_by=["P0"])
    )


def test_pick_query_takes_a_card_the_first_seat_is_uncertain_about() -> None:
    h = _history()
    for index in range(6):
        q = wgk.pick_query(h, index)
        assert q["a"] == h.agents[index % 3] and q["b"] == h.agents[(index + 1) % 3]
        assert q["c"] not in (q["a"], q["b"]) and q["uncertain"] is True
        assert q["card"] in h.content()[q["c"]]
        p = h.deal_state().probability(q["a"], f"has({q['c']}, {q['card']})", exact=True)
        assert 0 < p < 1


def test_pick_query_falls_back_to_another_location() -> None:
    h = CardHistory(Deck(["A", "B"]), {"P0": "A", "P1": "B", "pile": ""}, ["P0", "P1"])
    h = h.then(Move("B", "P1", "pile", seen_by=["P1"]))
    q = wgk.pick_query(h, 0)
    assert (q["c"], q["card"]) == ("pile", "B")
    assert q["formulas"][0] == "K_P0 ~K_P1 has(pile, B)"
    with pytest.raises(InvalidParameterError, match="P1's locations"):
        wgk.pick_query(h.then(Move("A", "P0", "pile")).then(MoveAll("pile", "P1")), 1)


def test_run_state_agrees_with_the_explicit_model() -> None:
    h = _history()
    model = explicit_model(h)
    for index in range(3):
        q = wgk.pick_query(h, index)
        r = wgk.run_state(h, q["formulas"])
        assert r["status"] == "ok" and set(r["routes"]) <= {"structure", "counting"}
        expected = [holds(model, read_formula(h, f)) for f in q["formulas"]]
        assert r["answers"] == expected
        assert len(r["query_s"]) == 2 and r["state_s"] >= max(r["query_s"])
        assert 0 < r["state_cpu_s"]  # the state's own CPU seconds, robust to a loaded machine
        old = wgk.run_state(h, q["formulas"], "structure-first")
        assert old["answers"] == expected and set(old["routes"]) <= {"structure", "counting"}


def test_measure_answers_in_a_child_and_the_quotient_takes_over() -> None:
    h = _history()
    q = wgk.pick_query(h, 0)
    r = wgk._measure(h, q["formulas"], 60.0)
    assert r["status"] == "ok" and r["maxrss_mib"] > 0
    assert r["peers_maxrss_mib"] >= 0  # the covering's forked peers, where it raced
    from games.epistemic import GameKnowledge

    gk = GameKnowledge(h, max_width=1, counting_first=False)
    assert gk.holds(q["formulas"][0]) == r["answers"][0]  # the quotient takes over
    assert gk.route == "local quotient"


def test_a_refused_state_is_recorded_with_the_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    import games.epistemic.knowledge as knowledge
    import games.epistemic.symbolic as symbolic

    monkeypatch.setattr(symbolic, "MAX_WIDTH", 1)
    h = CardHistory(
        Deck(["A", "B"], copies=2), {"P0": "A B", "P1": "A B", "pile": ""}, ["P0", "P1"]
    )
    h = h.then(Move("A", "P0", "pile", seen_by=["P0"]))
    f = "C_{P0,P1} ~has(P1, A#2)"
    r = wgk.run_state(h, [f])  # exact counting leaves it undecided
    assert r["status"] == "ok" and r["routes"] == ["quotient"]  # the kind quotient answers
    assert r["answers"] == [True]
    monkeypatch.setattr(knowledge, "KIND_STATES", 0)  # ... unless it refuses too
    r = wgk.run_state(h, [f])
    assert r["status"] == "size-limit" and r["refused_by"] == "quotient"
    assert r["answers"] == [] and "kind quotient" in r["error"]


def test_over_budget_is_a_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    def slow(*args: object) -> dict[str, object]:
        time.sleep(30)
        return {}

    monkeypatch.setattr(wgk, "run_state", slow)
    t0 = time.perf_counter()
    r = wgk._measure(_history(), ["has(P0, A)"], 0.5)
    assert r["status"] == "timeout" and time.perf_counter() - t0 < 10


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie waiting to be reaped does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_over_budget_kills_the_processes_the_state_forked(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import os
    import time

    where = tmp_path / "pid"

    def forks(*args: object) -> dict[str, object]:  # as the covering's race forks its peers
        pid = os.fork()
        if pid == 0:
            time.sleep(30)
            os._exit(0)
        where.write_text(str(pid))
        time.sleep(30)
        return {}

    monkeypatch.setattr(wgk, "run_state", forks)
    r = wgk._measure(_history(), ["has(P0, A)"], 1.0)
    assert r["status"] == "timeout"
    peer = int(where.read_text())
    deadline = time.monotonic() + 5
    while _running(peer) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(peer)  # it would run on into the next state's time


def test_a_short_run_appends_states_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    argv = ["--games", "boerenbridge", "--seeds", "3", "--every", "2", "--max-plays", "5"]
    argv += ["--budget", "60", "--out", str(out)]
    assert wgk.main(argv) == 0
    lines = out.read_text().splitlines()
    recs = [json.loads(x) for x in lines]
    assert [r["play"] for r in recs] == [0, 2, 4]
    assert all(r["status"] == "ok" and len(r["answers"]) == 2 for r in recs)
    assert wgk.main(argv) == 0  # finished states are not measured again
    assert out.read_text().splitlines() == lines
    assert "boerenbridge" in wgk.summarize(recs, 60.0)
    assert "median CPU s" in wgk.summarize(recs, 60.0)


def test_warm_up_imports_the_engines_before_the_states_fork() -> None:
    import sys

    wgk.warm_up()
    assert {"dd", "kripke.symbolic", "games.epistemic.kinds"} <= set(sys.modules)


def test_bad_options_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        wgk.main(["--every", "0", "--out", str(tmp_path / "x")])
    with pytest.raises(SystemExit):
        wgk.main(["--games", "chess", "--out", str(tmp_path / "x")])
    with pytest.raises(SystemExit):
        wgk.main(["--cover-seconds", "0", "--out", str(tmp_path / "x")])


def test_a_covering_budget_is_passed_on_and_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--cover-seconds`` reaches every state's GameKnowledge and is kept in its record;
    a run with another budget measures the states again."""
    out = tmp_path / "r.jsonl"
    argv = ["--games", "boerenbridge", "--seeds", "3", "--every", "2", "--max-plays", "3"]
    argv += ["--budget", "60", "--out", str(out)]
    assert wgk.main(argv) == 0
    assert wgk.main([*argv, "--cover-seconds", "7"]) == 0
    recs = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r.get("cover_seconds") for r in recs] == [None, None, 7.0, 7.0]
    seen: list[float | None] = []
    real = wgk.run_state

    def spy(h, formulas, route="default", cover_seconds=None):
        seen.append(cover_seconds)
        return real(h, formulas, route, cover_seconds)

    import queue

    q: queue.Queue = queue.Queue()
    monkeypatch.setattr(wgk, "run_state", spy)
    wgk._child(_history(), ["has(P0, A)"], "default", q, 7.0)
    assert seen == [7.0] and q.get_nowait()["status"] == "ok"


def _asked(h, index: int, ask: str, op: str):
    """The benchmark's two questions ``op_a has(c, X)`` and ``op_a K_b has(c, X)`` at play
    ``index`` of ``h``, run: ``[(seat, formula, answer text)]``, and the structure's
    knowledge (``counting_first=False``: the structure's weights)."""
    from games.epistemic import GameKnowledge

    q = wgk.pick_query(h, index, ask=ask)
    a, b = q["a"], q["b"]
    assert q["formulas"][0].startswith(f"{op}_{a} has(")
    assert q["formulas"][1].startswith(f"{op}_{a} K_{b} has(")
    r = wgk.run_state(h, q["formulas"])
    assert r["status"] == "ok"
    asked = []
    for f, got in zip(q["formulas"], r["answers"], strict=True):
        seat, g = f[len(op) + 1 :].split(" ", 1)
        asked.append((seat, g, got))
    return asked, GameKnowledge(h, counting_first=False)


def test_probability_queries_agree_with_the_explicit_model() -> None:
    """``ask="probability"``: a's probabilities of has(c, X) and K_b has(c, X), as
    fractions in text, equal to the explicit model's share of a's worlds (a deck
    without copies: every deal weighs the same, shared among its histories)."""
    from fractions import Fraction

    h = _history()
    for index in range(3):
        asked, wide = _asked(h, index, "probability", "Pr")
        for seat, g, got in asked:
            assert Fraction(got) == wide.probability(seat, g)


def test_bounds_queries_hold_the_explicit_models_probability() -> None:
    """``ask="bounds"``: a's probability_bounds of the same two formulas, ``low..high``;
    where the structure is refused (``max_width=1``, counting) the bounds hold the
    structure's probability, and the card atom's are a point."""
    from fractions import Fraction

    from games.epistemic import GameKnowledge

    h = _history()
    for index in range(3):
        asked, wide = _asked(h, index, "bounds", "Bounds")
        for seat, g, got in asked:
            low, high = (Fraction(x) for x in got.split(".."))
            assert low <= wide.probability(seat, g) <= high
        low, high = asked[0][2].split("..")
        assert low == high
        seat, g, _ = asked[1]
        low, high = GameKnowledge(h, max_width=1).probability_bounds(seat, g)
        assert low <= wide.probability(seat, g) <= high


def test_a_short_probability_run_records_what_it_asked(tmp_path: Path) -> None:
    from fractions import Fraction

    out = tmp_path / "p.jsonl"
    argv = ["--games", "boerenbridge", "--seeds", "3", "--every", "2", "--max-plays", "3"]
    argv += ["--budget", "60", "--ask", "probability", "--out", str(out)]
    assert wgk.main(argv) == 0
    recs = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["play"] for r in recs] == [0, 2] and {r["ask"] for r in recs} == {"probability"}
    assert all(r["status"] == "ok" and 0 <= Fraction(r["answers"][0]) <= 1 for r in recs)
    holds_argv = [x if x != "probability" else "holds" for x in argv]
    assert wgk.main(holds_argv) == 0  # another question: measured, not taken from the file
    assert len(out.read_text().splitlines()) == 4


def test_estimate_benchmark_runs_where_counting_relaxes(tmp_path: Path) -> None:
    from benchmarks import probability_estimate as pe

    out = tmp_path / "e.jsonl"
    argv = ["--games", "bs-classic", "--seeds", "0", "--every", "80", "--samples", "6"]
    argv += ["--out", str(out)]
    assert pe.main(argv) == 0
    recs = [json.loads(x) for x in out.read_text().splitlines()]
    assert recs and all(r["drawn"] == 6 and r["kept"] <= 6 for r in recs)
    assert "kept share" in pe.summarize(recs)
