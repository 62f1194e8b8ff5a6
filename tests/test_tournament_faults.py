"""Faults a tournament survives: bots that raise, exit, interrupt or loop; killed runs; bad files."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from games.base import Bot, load_game, make_bot, play_game, register_bot
from games.errors import BotError, InvalidParameterError
from games.tournament import (
    ResultsFileError,
    TornRecordWarning,
    TournamentError,
    TournamentSpec,
    read_results,
    run_tournament,
)
from kripke.cli import main as kripke_main


class _Exits(Bot):
    name = "exits"

    def step(self, legal_actions):
        raise SystemExit(3)


class _Interrupts(Bot):
    name = "interrupts"

    def inform(self, observation):
        if observation.kind == "hand":
            raise KeyboardInterrupt

    def step(self, legal_actions):
        return legal_actions[0]


class _BadRestart(Bot):
    name = "bad-restart"

    def restart(self, game, seat):
        raise ValueError("no table for me")

    def step(self, legal_actions):
        return legal_actions[0]


def _table(first: Bot) -> list[Bot]:
    return [first] + [make_bot("bs", "truthful", seed=s) for s in range(3)]


def test_play_game_turns_a_bots_system_exit_into_a_forfeit_or_a_bot_error():
    game = load_game("bs", variant="koth")
    res = play_game(game, _table(_Exits()), seed=2, forfeit_on_error=True)
    assert res.forfeit == 0 and res.returns == [-1.0, 0.0, 0.0, 0.0]
    assert res.reason == "P0 (exits) SystemExit: 3"
    with pytest.raises(BotError, match="SystemExit"):
        play_game(game, _table(_Exits()), seed=2)


def test_faults_in_restart_and_inform_forfeit_the_seat():
    game = load_game("bs", variant="koth")
    res = play_game(game, _table(_BadRestart()), seed=0, forfeit_on_error=True)
    assert res.forfeit == 0 and "in restart: no table for me" in res.reason
    res = play_game(
        game, _table(_Interrupts()), seed=0, forfeit_on_error=True, bot_faults=(BaseException,)
    )
    assert res.forfeit == 0 and "KeyboardInterrupt in inform" in res.reason
    # by default a KeyboardInterrupt is the user's: it passes through
    with pytest.raises(KeyboardInterrupt):
        play_game(game, _table(_Interrupts()), seed=0, forfeit_on_error=True)


def test_an_unknown_game_parameter_is_named_with_the_valid_ones(capsys):
    with pytest.raises(InvalidParameterError, match="bs has no parameter 'foo'; its parameters: "):
        load_game("bs", foo=1)
    code = kripke_main(["play", "bs", "--param", "foo=1", "--quiet"], out=io.StringIO())
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1 and "'foo'" in err[0] and "max_rounds" in err[0]


# ------------------------------------------------------------ in tournaments
class _Loops(Bot):
    name = "loops"

    def step(self, legal_actions):
        while True:
            pass


class _Stubborn(Bot):
    """Swallows the time limit and goes on looping: its process must be killed."""

    name = "stubborn"

    def step(self, legal_actions):
        while True:
            try:
                while True:
                    time.sleep(0.01)
            except BaseException:
                continue


class _Vanishes(Bot):
    name = "vanishes"

    def step(self, legal_actions):
        os._exit(7)


FAULTY = {
    "exits": _Exits,
    "interrupts": _Interrupts,
    "loops": _Loops,
    "stubborn": _Stubborn,
    "vanishes": _Vanishes,
}


@pytest.fixture
def faulty_bots():
    from games.base import _entry

    for name, cls in FAULTY.items():
        register_bot("bs", name, cls)
    yield
    for name in FAULTY:
        _entry("bs").bots.pop(name, None)


def _forfeits(out: Path) -> dict[str, str]:
    recs = [json.loads(x) for x in out.read_text().splitlines()[1:]]
    return {r["forfeit"]: r["reason"] for r in recs if r["forfeit"]}


@pytest.mark.parametrize(
    ("bot", "reason"),
    [
        ("exits", "SystemExit: 3"),
        ("interrupts", "KeyboardInterrupt in inform"),
        ("vanishes", "ended its process (exit code 7)"),
    ],
)
def test_bots_that_exit_interrupt_or_kill_their_process_forfeit(tmp_path, faulty_bots, bot, reason):
    out = tmp_path / "r.jsonl"
    bots = [bot, "truthful", "threshold", "liar"]
    s = run_tournament("bs", bots, 4, variant="koth", workers=2, progress=False, out=out)
    assert all(b["games"] == 4 for b in s["bots"].values())  # every game was recorded
    assert s["bots"][bot]["forfeits"] == 4
    assert sum(b["forfeits"] for b in s["bots"].values()) == 4
    assert reason in _forfeits(out)[bot]


def test_a_looping_bot_forfeits_at_the_move_time_and_the_run_goes_on(tmp_path, faulty_bots):
    out = tmp_path / "r.jsonl"
    bots = ["loops", "truthful", "threshold", "liar"]
    t0 = time.monotonic()
    s = run_tournament(
        "bs", bots, 2, variant="koth", workers=1, progress=False, out=out, move_time=0.2
    )
    assert time.monotonic() - t0 < 10
    assert s["bots"]["loops"]["forfeits"] == 2
    assert sum(b["games"] for b in s["bots"].values()) == 8
    assert "MoveTimeLimit: exceeded the move time of 0.2 s" in _forfeits(out)["loops"]


def test_a_bot_that_swallows_the_time_limit_is_killed(tmp_path, faulty_bots):
    out = tmp_path / "r.jsonl"
    bots = ["truthful", "stubborn", "threshold", "liar"]
    s = run_tournament(
        "bs", bots, 1, variant="koth", workers=1, progress=False, out=out, move_time=0.2
    )
    assert s["bots"]["stubborn"]["forfeits"] == 1
    assert "did not stop; its process was killed" in _forfeits(out)["stubborn"]


# ------------------------------------------------------------ killed runs
def _kripke(*args: str) -> list[str]:
    code = "import sys; from kripke.cli import main; sys.exit(main())"
    return [sys.executable, "-c", code, *args]


def _children(pid: int) -> set[int]:
    kids = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                kids.add(int(entry.name))
    return kids


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended


def _wait_for_lines(path: Path, n: int, proc: subprocess.Popen, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if path.exists() and path.read_bytes().count(b"\n") >= n:
            return
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        time.sleep(0.05)
    raise AssertionError(f"{path} did not reach {n} lines")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_a_sigkilled_run_leaves_no_workers_and_resumes_to_the_same_summary(tmp_path):
    args = ["tournament", "bs", "--variant", "koth", "--games", "120", "--workers", "2"]
    args += ["--bots", "truthful,threshold,liar,random", "--no-progress", "--seed", "5"]
    out = tmp_path / "killed.jsonl"
    proc = subprocess.Popen(
        _kripke(*args, "--out", str(out)), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        _wait_for_lines(out, 6, proc)
        workers = _children(proc.pid)
        assert len(workers) == 2
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    finally:
        proc.kill()
    end = time.monotonic() + 10
    while any(_alive(w) for w in workers) and time.monotonic() < end:
        time.sleep(0.05)
    assert not any(_alive(w) for w in workers), "worker processes outlived their parent"
    kept = out.read_bytes().count(b"\n")
    assert kept < 121
    resumed = subprocess.run(_kripke(*args, "--out", str(out)), capture_output=True, text=True)
    fresh = subprocess.run(
        _kripke(*args, "--out", str(tmp_path / "fresh.jsonl")), capture_output=True, text=True
    )
    assert resumed.returncode == 0 and fresh.returncode == 0, resumed.stderr + fresh.stderr
    assert resumed.stdout == fresh.stdout
    lines = out.read_text().splitlines()
    assert len(lines) == 121 and len({json.loads(x)["game"] for x in lines[1:]}) == 120


def test_ctrl_c_stops_a_huge_run_at_once_and_keeps_its_games(tmp_path):
    # a billion games start at once (the indices are generated as they are needed)
    out = tmp_path / "big.jsonl"
    args = ["tournament", "bs", "--variant", "koth", "--games", "1000000000", "--workers", "2"]
    args += ["--bots", "truthful,threshold,liar,random", "--out", str(out)]
    proc = subprocess.Popen(_kripke(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _wait_for_lines(out, 4, proc, timeout=30)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert "1000000000" in err.decode() or "game" in err.decode()  # the progress bar
    assert "interrupted; the finished games are in" in err.decode()
    spec = TournamentSpec(
        "bs",
        ("truthful", "threshold", "liar", "random"),
        10**9,
        params=(("variant", "koth"),),
    )
    assert len(read_results(out, spec)) >= 3


# ------------------------------------------------------------ results files
BOTS4 = ["truthful", "threshold", "liar", "random"]


@pytest.fixture(scope="module")
def good_file(tmp_path_factory):
    """A finished 4-game results file and one of another tournament (seed 1)."""
    folder = tmp_path_factory.mktemp("results")
    mine, other = folder / "mine.jsonl", folder / "other.jsonl"
    run_tournament("bs", BOTS4, 4, variant="koth", workers=1, progress=False, out=mine)
    run_tournament("bs", BOTS4, 4, variant="koth", workers=1, progress=False, out=other, seed=1)
    return mine.read_bytes().splitlines(keepends=True), other.read_bytes().splitlines(True)


def _edit(line: bytes, **changes) -> bytes:
    rec = json.loads(line)
    rec.update(changes)
    return json.dumps(rec).encode() + b"\n"


CORRUPTIONS = {
    "a number": (lambda m, o: m[:2] + [b"5\n"] + m[2:], "line 3: a record is a JSON object, got 5"),
    "null": (lambda m, o: m[:3] + [b"null\n"], "line 4: a record is a JSON object, got None"),
    "not JSON": (lambda m, o: m[:2] + [b'{"game": 1,\n'] + m[2:], "line 3 is not JSON"),
    "deep": (lambda m, o: m[:2] + [b"[" * 100_000 + b"]" * 100_000 + b"\n"], "line 3 is not JSON"),
    "not a number": (
        lambda m, o: m[:1] + [m[1].replace(b'"returns": [', b'"returns": [NaN, ')],
        "field 'returns' must be numbers",
    ),
    "not UTF-8": (lambda m, o: m[:1] + [b'{"game": "\xff\xfe"}\n'], "line 2 is not UTF-8"),
    "missing field": (
        lambda m, o: m[:1] + [_edit(m[1], steps=None).replace(b'"steps": null, ', b"")] + m[2:],
        "line 2: the record has no field 'steps'",
    ),
    "extra field": (lambda m, o: m[:2] + [_edit(m[2], note="x")], "unknown field 'note'"),
    "bad type": (
        lambda m, o: m[:1] + [_edit(m[1], returns="all mine")],
        "line 2: field 'returns' must be numbers, got 'all mine'",
    ),
    "index out of range": (
        lambda m, o: m[:1] + [_edit(m[1], game=4)],
        "line 2: game 4 is not a game index 0..3",
    ),
    "bool index": (lambda m, o: m[:1] + [_edit(m[1], game=True)], "game True is not a game index"),
    "forged": (
        lambda m, o: m[:1] + [_edit(m[1], returns=[1.0, 1.0, 1.0, 1.0])] + m[2:],
        "line 2: the checksum of game .* does not match its content",
    ),
    "foreign record": (
        lambda m, o: m[:2] + o[2:3],
        "line 3: the record belongs to another tournament",
    ),
    "twice": (lambda m, o: m + m[1:2], "line 6: game .* is recorded twice"),
    "no header": (lambda m, o: m[1:], "line 1 is not a tournament header"),
    "blank": (lambda m, o: [b"\n", b"  \n"], "has no tournament header"),
    "foreign header": (
        lambda m, o: o[:1] + m[1:],
        r"another tournament \(seed is 1 there, 0 here\)",
    ),
    "edited header": (
        lambda m, o: [_edit(m[0], fingerprint="0" * 16)] + m[1:],
        "the header's fingerprint '0000000000000000' does not match",
    ),
}


@pytest.mark.parametrize("kind", sorted(CORRUPTIONS))
def test_a_bad_results_file_is_refused_naming_the_line(tmp_path, good_file, kind):
    mine, other = good_file
    corrupt, message = CORRUPTIONS[kind]
    out = tmp_path / "r.jsonl"
    out.write_bytes(b"".join(corrupt(list(mine), list(other))))
    before = out.read_bytes()
    with pytest.raises(ResultsFileError, match=message):
        run_tournament("bs", BOTS4, 4, variant="koth", workers=1, progress=False, out=out)
    assert out.read_bytes() == before  # a refused file is left alone


def test_a_bad_results_file_is_one_line_at_the_cli(tmp_path, good_file, capsys):
    out = tmp_path / "r.jsonl"
    out.write_bytes(b"".join(good_file[0][:2]) + b"null\n")
    args = ["tournament", "bs", "--variant", "koth", "--games", "4", "--bots", ",".join(BOTS4)]
    code = kripke_main([*args, "--workers", "1", "--no-progress", "--out", str(out)], io.StringIO())
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "line 3" in err[0]


@pytest.mark.parametrize("workers", ["0", "-2"])
def test_workers_below_one_are_refused(workers, capsys):
    args = ["tournament", "bs", "--games", "1", "--bots", "random", "--workers", workers]
    assert kripke_main(args, io.StringIO()) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"workers must be an int >= 1, got {workers}" in err[0]


def test_a_torn_header_is_dropped_and_written_again(tmp_path, good_file):
    out = tmp_path / "r.jsonl"
    out.write_bytes(good_file[0][0][:20])
    with pytest.warns(TornRecordWarning, match="line 1 is a partly written record"):
        run_tournament("bs", BOTS4, 4, variant="koth", workers=1, progress=False, out=out)
    assert out.read_bytes().splitlines(True)[0] == good_file[0][0]
    assert len(read_results(out, _spec4())) == 4


def _spec4() -> TournamentSpec:
    return TournamentSpec("bs", tuple(BOTS4), 4, params=(("variant", "koth"),))


def test_out_into_a_missing_folder_creates_it(tmp_path):
    out = tmp_path / "a" / "b" / "r.jsonl"
    run_tournament("bs", BOTS4, 2, variant="koth", workers=1, progress=False, out=out)
    assert len(out.read_text().splitlines()) == 3
    with pytest.raises(ResultsFileError, match="is a folder"):
        run_tournament("bs", BOTS4, 2, variant="koth", workers=1, progress=False, out=tmp_path)


def test_a_worker_stuck_outside_any_bot_stops_the_run_keeping_finished_games(tmp_path, monkeypatch):
    import games.tournament as T

    real = T.play_one

    def stuck_at_game_1(spec, index, **kw):
        if index == 1:
            time.sleep(60)  # an engine that never returns (no bot is called)
        return real(spec, index, **kw)

    monkeypatch.setattr(T, "play_one", stuck_at_game_1)  # the forked worker inherits it
    monkeypatch.setattr(T, "STALL", 0.5)
    out = tmp_path / "r.jsonl"
    with pytest.raises(TournamentError, match="game 1: no bot was called for 0.5 s"):
        run_tournament("bs", BOTS4, 3, variant="koth", workers=1, progress=False, out=out)
    assert list(
        read_results(out, TournamentSpec("bs", tuple(BOTS4), 3, params=(("variant", "koth"),)))
    ) == [0]
