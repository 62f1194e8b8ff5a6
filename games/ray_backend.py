"""Tournament games as tasks on a Ray cluster (``kripke tournament ... --backend ray``).

Install with ``pip install 'kripke-games[ray]'`` on the machine that runs
the tournament and on every node of the cluster (the nodes import
:mod:`games` and load the bots by name or spec, so a bot of one's own
given as ``path/to/bot.py:Class`` must exist at that path on every node).

Each task plays a chunk of consecutive game indices through the same kind
of worker process as the process backend (forked from the node's Ray
worker), so the move time, the forfeits of bots that raise, exit, hang or
kill their process, and every record are exactly those of ``--backend process``: the same seeds give the same results
file lines and a byte-identical summary, and a results file written by one
backend resumes with the other.  Only records of finished chunks reach the
results file; Ctrl-C cancels the tasks in flight (their games are played
again on resume).

Without ``address`` the tournament joins the cluster Ray finds on its own
(``RAY_ADDRESS``, or the latest ``ray start`` on this machine) or starts a
local one for the run; with ``address`` (``HOST:PORT`` of a head node) it
joins that cluster.  A cluster on two machines::

    # on the head node
    ray start --head --port=6379
    # on every other node
    ray start --address=HEAD_IP:6379
    # anywhere on the cluster
    kripke tournament bs --variant koth --games 100000 \\
        --bots probabilistic,knowledge,truthful,liar --out bs.jsonl \\
        --backend ray --address HEAD_IP:6379
    # at the end, on every node
    ray stop
"""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing as mp
import os
from collections.abc import Iterator
from itertools import islice
from typing import Any

from games.errors import InvalidParameterError

__all__ = ["ray_records", "play_chunk", "CHUNK"]

#: The most games per Ray task (fewer when there are few games per task in flight).
CHUNK = 64


def _context() -> Any:
    """How a Ray worker starts a game worker process: fork, which takes milliseconds."""
    if "fork" in mp.get_all_start_methods():
        return mp.get_context("fork")
    return mp.get_context()  # pragma: no cover - platforms without fork


def play_chunk(spec: Any, indices: list[int], cwd: str | None = None) -> list[dict[str, Any]]:
    """Play the games ``indices`` of ``spec`` in one worker process; their records in order.

    This runs inside a Ray task (it is the task's body), but works anywhere.
    ``cwd`` is the driver's working directory: where it exists on the node, the
    task works there, so a bot given by a relative file path
    (``bots/my_bot.py:MyBot``) loads as it does in the process backend.
    """
    from games.tournament import _process_records

    if cwd is not None and os.path.isdir(cwd):
        os.chdir(cwd)

    return list(_process_records(spec, iter(indices), 1, _context()))


def _import_ray() -> Any:
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise InvalidParameterError(
            "--backend ray needs Ray: pip install 'kripke-games[ray]' (or 'ray>=2.9')"
        ) from None


def ray_records(
    spec: Any,
    todo: Iterator[int],
    workers: int | None,
    address: str | None,
    remaining: int | None = None,
) -> Iterator[dict[str, Any]]:
    """Play the games of ``todo`` as Ray tasks; yield their records as chunks finish.

    ``workers`` is the number of tasks in flight (default: the cluster's CPUs).
    A task plays at most :data:`CHUNK` games, and about a quarter of a
    task's share of the ``remaining`` games when they are few, so every CPU
    gets work.

    Raises
    ------
    InvalidParameterError
        Ray is not installed.
    TournamentError
        The cluster cannot be reached, or a task failed.
    """
    from games.tournament import TournamentError

    ray = _import_ray()
    own = not ray.is_initialized()
    if own:
        try:
            ray.init(
                address=address,
                include_dashboard=False,
                log_to_driver=False,
                logging_level="ERROR",
            )
        except Exception as exc:  # Ray raises ConnectionError, ValueError, RuntimeError …
            where = f"at {address}" if address else "on this machine"
            raise TournamentError(f"cannot start or reach a Ray cluster {where}: {exc}") from None
    task = ray.remote(num_cpus=1, max_retries=0)(play_chunk)
    in_flight = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
    size = CHUNK if remaining is None else max(1, min(CHUNK, remaining // (4 * in_flight)))
    pending: dict[Any, list[int]] = {}
    exhausted = False
    try:
        while True:
            while not exhausted and len(pending) < in_flight:
                chunk = list(islice(todo, size))
                if not chunk:
                    exhausted = True
                    break
                pending[task.remote(spec, chunk, os.getcwd())] = chunk
                if len(chunk) < size:
                    exhausted = True
            if not pending:
                return
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                chunk = pending.pop(ref)
                try:
                    records = ray.get(ref)
                except Exception as exc:
                    cause = getattr(exc, "cause", None) or exc
                    raise TournamentError(
                        f"games {chunk[0]}..{chunk[-1]} failed on the Ray cluster: "
                        f"{type(cause).__name__}: {cause}"
                    ) from None
                yield from records
    finally:
        for ref in pending:
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)
        if own:
            with contextlib.suppress(Exception):
                ray.shutdown()
