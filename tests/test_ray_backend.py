"""The Ray backend: the same records, summary and resume as the process backend.

The cluster test starts a two-node Ray cluster on loopback (a head and a
second node), about a minute, and needs Ray (``pip install 'kripke-games[ray]'``); without
Ray it skips. CI installs Ray, so the default test command runs it.

Every command that talks to the cluster runs as ``python -m kripke.cli`` in a
child process: a Ray driver installs its own fatal-signal handlers and keeps
native threads after ``ray.shutdown()``, neither of which belongs in the test
process (a crash there would end the whole test run without a trace).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time

import pytest

from games.errors import InvalidParameterError
from games.ray_backend import play_chunk
from games.tournament import TournamentSpec, play_one, read_results, run_tournament

BOTS = ["truthful", "threshold", "liar", "random"]
SPEC = TournamentSpec("bs", tuple(BOTS), 48, seed=7, params=(("variant", "koth"),))


def test_a_chunk_gives_the_records_of_the_process_backend():
    # a Ray task's body, run here: the games in a worker process, records as play_one's
    assert play_chunk(SPEC, [3, 4, 5]) == [play_one(SPEC, i) for i in (3, 4, 5)]


def test_without_ray_the_backend_names_the_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    with pytest.raises(
        InvalidParameterError, match=r"needs Ray: pip install 'kripke-games\[ray\]'"
    ):
        run_tournament("bs", BOTS, 2, variant="koth", backend="ray", progress=False)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def cluster():
    """A head and a second node on 127.0.0.1; ``ray stop --force`` at the end."""
    pytest.importorskip("ray")
    ray_cli = shutil.which("ray")
    if ray_cli is None:
        pytest.skip("the ray command is not installed")
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    saved = os.environ.get("RAY_AUTH_MODE")
    os.environ["RAY_AUTH_MODE"] = "disabled"
    common = ["--node-ip-address=127.0.0.1", "--num-cpus=1", "--disable-usage-stats"]

    def start_cluster(port: int) -> subprocess.CompletedProcess[str]:
        for args in (
            ["--head", f"--port={port}", "--include-dashboard=false"],
            [f"--address=127.0.0.1:{port}"],
        ):
            done = subprocess.run(
                [ray_cli, "start", *args, *common], capture_output=True, text=True, env=env
            )
            if done.returncode != 0:
                return done
        return done

    try:
        for _attempt in range(3):  # a node's agents may time out on a busy machine
            port = _free_port()
            done = start_cluster(port)
            if done.returncode == 0:
                break
            subprocess.run([ray_cli, "stop", "--force"], capture_output=True, env=env)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        for _ in range(60):  # the second node shows in the status within seconds
            status = subprocess.run(
                [ray_cli, "status", f"--address=127.0.0.1:{port}"],
                capture_output=True,
                text=True,
                env=env,
            ).stdout
            active = status.split("Active:")[-1].split("Pending:")[0]
            if active.count("node_") == 2:
                break
            time.sleep(1)
        assert active.count("node_") == 2, status
        yield f"127.0.0.1:{port}"
    finally:
        subprocess.run([ray_cli, "stop", "--force"], capture_output=True, env=env)
        if saved is None:
            os.environ.pop("RAY_AUTH_MODE", None)
        else:
            os.environ["RAY_AUTH_MODE"] = saved


def _kripke(*args: str, cwd: os.PathLike[str] | str | None = None) -> tuple[int, str, str]:
    """``kripke ARGS`` in a child process: its exit code, standard output and error."""
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    done = subprocess.run(
        [sys.executable, "-m", "kripke.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=600,
    )
    return done.returncode, done.stdout, done.stderr


def _cli(*extra: str) -> tuple[int, str, str]:
    args = ["tournament", "bs", "--variant", "koth", "--games", "48", "--seed", "7"]
    args += ["--bots", ",".join(BOTS), "--workers", "2", "--no-progress", *extra]
    return _kripke(*args)


def test_ray_and_process_backends_agree_and_resume_each_other(cluster, tmp_path):
    by_process, by_ray = tmp_path / "process.jsonl", tmp_path / "ray.jsonl"
    ray_args = ("--backend", "ray", "--address", cluster)
    code_p, text_p, _ = _cli("--out", str(by_process))
    code_r, text_r, err = _cli("--out", str(by_ray), *ray_args)
    assert code_p == 0 and code_r == 0, err
    assert text_r == text_p  # byte-identical summary
    assert read_results(by_ray, SPEC) == read_results(by_process, SPEC)
    assert by_ray.read_bytes().splitlines()[0] == by_process.read_bytes().splitlines()[0]
    # a process run killed after 10 games (its last line torn) is finished on the cluster
    lines = by_process.read_bytes().splitlines(keepends=True)
    by_process.write_bytes(b"".join(lines[:11]) + lines[11][:15])
    code, resumed, err = _cli("--out", str(by_process), *ray_args)
    assert code == 0 and "partly written record" in err
    assert resumed == text_p
    after = by_process.read_text().splitlines()
    assert len(after) == 49 and sorted(json.loads(x)["game"] for x in after[1:]) == list(range(48))


LOOPER = """
from games.base import Bot


class Loops(Bot):
    def step(self, legal_actions):
        while True:
            pass
"""


def test_a_looping_bot_forfeits_on_the_cluster_as_in_processes(cluster, tmp_path):
    # the bot file is named relative to the working directory, which Ray's workers do not share
    (tmp_path / "looper.py").write_text(LOOPER)
    args = ["tournament", "bs", "--variant", "koth", "--games", "4", "--move-time", "0.3"]
    args += ["--bots", "looper.py:Loops,truthful,threshold,liar", "--no-progress", "--workers", "2"]
    texts = []
    for extra in ([], ["--backend", "ray", "--address", cluster]):
        code, text, err = _kripke(*args, *extra, cwd=tmp_path)
        assert code == 0, err
        texts.append(text)
    assert texts[0] == texts[1]
    row = next(line for line in texts[0].splitlines() if "looper.py:Loops" in line)
    assert row.split()[1] == "4" and row.split()[-1] == "4"  # 4 games, 4 forfeits


FIRST = """
from games.base import Bot


class First(Bot):
    def step(self, legal_actions):
        return legal_actions[0]
"""


def test_a_bot_file_named_by_a_relative_path_loads_on_the_cluster(cluster, tmp_path):
    (tmp_path / "first.py").write_text(FIRST)
    args = ["tournament", "bs", "--variant", "koth", "--games", "4", "--no-progress"]
    args += ["--bots", "first.py:First,truthful,threshold,liar", "--backend", "ray"]
    code, text, err = _kripke(*args, "--address", cluster, cwd=tmp_path)
    assert code == 0, err
    row = next(line for line in text.splitlines() if "first.py:First" in line)
    assert row.split()[1] == "4" and row.split()[-1] == "0"  # 4 games, no forfeit
