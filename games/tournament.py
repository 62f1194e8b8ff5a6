"""Seeded tournaments between bots of any registered game.

:func:`run_tournament` plays ``games`` games with the named bots, game ``i``
seeded from the tournament seed and ``i``, so every game can be replayed on
its own.  Seats are rotated (game ``i`` shifts the bot list by ``i``) or drawn
(a seeded random assignment per game; with more bots than seats, a random
subset plays).  With fewer bots than seats the list fills the table
cyclically: ``--bots a,b`` at a four-seat table plays ``a, b, a, b``
(rotated), and the summary names the second copies ``a#2`` and ``b#2``.  Bot names are opaque here: a
registered name or a bot of one's own (``path/to/bot.py:Class``,
``module:Class``, see :mod:`games.botspec`).

A seat *wins* a game when its return is the highest at the table and not
every seat has the same return (tied top seats, e.g. partners, all win);
games whose state defines ``winners()`` decide for themselves.

Faults
------
Games run in worker processes (``workers`` of them, one by default per
core; ``workers=1`` is one worker process beside this one), so nothing a bot
does ends the run:

* a bot that raises anything (``SystemExit`` and ``KeyboardInterrupt``
  included; workers ignore the terminal's Ctrl-C, which is the parent's),
  returns an illegal action, or kills its process, forfeits that game;
* every call of a bot (``restart``, ``inform``, ``step``) runs under the move
  time (``move_time``, 10 s by default).  The worker arms ``SIGALRM``
  (``signal.setitimer``, in its main thread) and raises
  :class:`MoveTimeLimit` inside the bot; a bot that swallows it, or hangs in
  C code, is killed by the parent once the move time plus a grace period
  (the move time again, at least one second) has passed, and a fresh worker
  takes its place (on platforms without ``SIGALRM`` only the kill applies).
  Either way the seat forfeits with the reason recorded;
* a forfeit gives that seat -1 and the others 0, and the tournament goes on.

A worker that calls no bot for :data:`STALL` seconds (60) while it has a game
(an engine stuck in a loop) stops the run with :class:`TournamentError`,
keeping the finished games.

Ctrl-C stops the run: the workers are stopped, the finished games stay in
the results file, and a rerun with the same ``--out`` plays only the missing
games.  Workers die with their parent (``PR_SET_PDEATHSIG`` on Linux, and a
watchdog thread everywhere), so killing the parent leaves no process behind.
Workers are forked (on platforms with ``fork``), so bots registered at run
time are known to them.  ``backend="ray"`` plays the games as Ray tasks,
each through the same kind of worker process (:mod:`games.ray_backend`).

Results file
------------
``out`` is a JSON-lines file, append-only.  Its first line is the header,
the tournament's identity: game, parameters, bots, seed, seat mode, number of
games, move time and their ``fingerprint`` (a hash).  Every following line
is one finished game, written whole by one ``write`` and flushed, carrying
the fingerprint (``fp``) and a checksum of its own content (``check``); the
file is ``fsync``-ed at least once a second and at the end.  Reading it back
(to resume) validates every line: a header of another tournament is refused
naming the fields that differ; a record that is not an object, lacks or has
extra fields, has a wrong type, a game index out of range, a table or seed
that is not the one of its index, another tournament's fingerprint, or a
checksum that does not match its content (a hand-edited record) is refused
with :class:`ResultsFileError` naming the line.  The checksum detects edits
and foreign lines; it is not a signature against a deliberate forger.  A last
line without its newline (a run killed mid-write) is dropped with a
:class:`TornRecordWarning` and that game is played again.  Missing folders
of ``out`` are created.

The summary gives, per bot, the games, wins, win rate with a 95% Wilson
interval, the mean return (the score) with a 95% normal interval, and
forfeits, computed from the records in game order, so it is the same
however the games were scheduled.  ``--json`` prints it as one object
``{"bots": {name: {"games", "wins", "win_rate", "mean_score", "ci95"}}}``
where ``ci95`` is the interval of the win rate.

Examples
--------
>>> from games.tournament import run_tournament
>>> summary = run_tournament("bs", ["truthful", "threshold", "liar", "random"],
...                          games=8, variant="koth", workers=1, progress=False)
>>> sorted(summary["bots"])
['liar', 'random', 'threshold', 'truthful']
>>> sum(b["games"] for b in summary["bots"].values())
32
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import multiprocessing as mp
import multiprocessing.connection as mpc
import os
import random
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from games.base import load_game, make_bot, play_game
from games.errors import GameError, InvalidParameterError

__all__ = [
    "run_tournament",
    "play_one",
    "summarize",
    "format_summary",
    "seat_labels",
    "read_results",
    "cli_main",
    "TournamentSpec",
    "MoveTimeLimit",
    "ResultsFileError",
    "TournamentError",
    "TornRecordWarning",
    "DEFAULT_MOVE_TIME",
    "BACKENDS",
]

#: Seconds a bot may spend in one call (``restart``, ``inform``, ``step``).
DEFAULT_MOVE_TIME = 10.0
#: Ways to run the games: local worker processes, or tasks on a Ray cluster.
BACKENDS = ("process", "ray")
#: Version of the results-file layout (in the header).
FORMAT = 2


class ResultsFileError(GameError, ValueError):
    """A results file that cannot be resumed: another tournament's, or a bad line (named)."""


class TournamentError(GameError, RuntimeError):
    """A game failed outside any bot (an engine error) or a backend could not run games."""


class TornRecordWarning(UserWarning):
    """The results file ended in a partly written record, which is dropped (the game is replayed)."""


class MoveTimeLimit(BaseException):
    """Raised inside a bot call that ran past the move time.

    A ``BaseException``, so a bot's ``except Exception`` does not swallow it.
    """


@dataclass(frozen=True)
class TournamentSpec:
    """Everything that determines a tournament's games (and its results-file header)."""

    game: str
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    seats: str = "rotate"
    params: tuple[tuple[str, Any], ...] = ()
    move_time: float | None = DEFAULT_MOVE_TIME

    def identity(self) -> dict[str, Any]:
        """The fields the fingerprint covers, as plain JSON values."""
        body = {
            "tournament": self.game,
            "format": FORMAT,
            "params": dict(self.params),
            "bots": list(self.bots),
            "seed": self.seed,
            "seats": self.seats,
            "games": self.games,
            "move_time": self.move_time,
        }
        result: dict[str, Any] = json.loads(json.dumps(body))
        return result

    def fingerprint(self) -> str:
        """A hash of :meth:`identity` (16 hex digits)."""
        return _digest(self.identity())

    def header(self) -> dict[str, Any]:
        """The first line of the results file: the identity and its fingerprint."""
        return {**self.identity(), "fingerprint": self.fingerprint()}


def _canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def _digest(obj: Any, salt: str = "") -> str:
    return hashlib.sha256((salt + _canonical(obj)).encode("ascii")).hexdigest()[:16]


def seat_labels(names: Sequence[str]) -> list[str]:
    """Labels of bots at one table: a repeated name becomes ``name#2``, ``name#3``, …

    Examples
    --------
    >>> seat_labels(["knowledge", "truthful", "knowledge"])
    ['knowledge', 'truthful', 'knowledge#2']
    """
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else f"{n}#{seen[n]}")
    return out


def _table(spec: TournamentSpec, index: int, players: int) -> list[str]:
    """Bot names by seat for game ``index``."""
    bots = list(spec.bots)
    if spec.seats == "draw":
        rng = random.Random(f"{spec.seed}/{index}/seats")
        if len(bots) >= players:
            return rng.sample(bots, players)
        table = [bots[i % len(bots)] for i in range(players)]
        rng.shuffle(table)
        return table
    n = len(bots)
    return [bots[(index + s) % n] for s in range(players)]


def _game_seed(spec: TournamentSpec, index: int) -> int:
    return (spec.seed * 1_000_003 + index * 7919) % (2**31)


def _expected(spec: TournamentSpec, index: int, players: int) -> tuple[list[str], int]:
    """Seat labels and seed of game ``index``: what its record must say."""
    return seat_labels(_table(spec, index, players)), _game_seed(spec, index)


def _forfeit_record(
    spec: TournamentSpec, index: int, players: int, seat: int, steps: int, reason: str
) -> dict[str, Any]:
    labels, seed = _expected(spec, index, players)
    returns = [0.0] * players
    returns[seat] = -1.0
    return {
        "game": index,
        "seed": seed,
        "seats": labels,
        "returns": returns,
        "winners": [],
        "forfeit": labels[seat],
        "reason": reason,
        "steps": steps,
    }


def play_one(
    spec: TournamentSpec,
    index: int,
    *,
    guard: Callable[[int, str, int], contextlib.AbstractContextManager[Any]] | None = None,
    bot_faults: tuple[type[BaseException], ...] = (Exception, SystemExit),
) -> dict[str, Any]:
    """Play game ``index`` of the tournament and return its record.

    ``guard`` and ``bot_faults`` go to :func:`games.base.play_game`; a bot
    that cannot even be built forfeits like one that faults in ``restart``.
    """
    game = load_game(spec.game, **dict(spec.params))
    players = game.num_players()
    names = _table(spec, index, players)
    labels, seed = _expected(spec, index, players)
    bots = []
    for s, n in enumerate(names):
        try:
            if guard is None:
                bots.append(make_bot(spec.game, n, seed=seed * 31 + s))
            else:
                with guard(s, "restart", 0):
                    bots.append(make_bot(spec.game, n, seed=seed * 31 + s))
        except bot_faults as exc:
            reason = f"P{s} ({n}) {type(exc).__name__} when built: {exc}"
            return _forfeit_record(spec, index, players, s, 0, reason)
    res = play_game(
        game,
        bots,
        seed=seed,
        forfeit_on_error=True,
        keep_state=True,
        guard=guard,
        bot_faults=bot_faults,
    )
    winners: list[int]
    state = res.state
    if res.forfeit is not None:
        winners = []
    elif state is not None and callable(getattr(state, "winners", None)):
        winners = list(getattr(state, "winners")())  # noqa: B009
    else:
        best = max(res.returns)
        winners = (
            [] if min(res.returns) == best else [s for s, r in enumerate(res.returns) if r == best]
        )
    return {
        "game": index,
        "seed": seed,
        "seats": labels,
        "returns": [float(r) for r in res.returns],
        "winners": [labels[s] for s in winners],
        "forfeit": labels[res.forfeit] if res.forfeit is not None else None,
        "reason": res.reason,
        "steps": res.steps,
    }


# ------------------------------------------------------------------ results
_RECORD_FIELDS = ("game", "seed", "seats", "returns", "winners", "forfeit", "reason", "steps")


def _seal(rec: Mapping[str, Any], fingerprint: str) -> dict[str, Any]:
    """The record as written: with the tournament's fingerprint and its own checksum."""
    body = {k: rec[k] for k in _RECORD_FIELDS}
    body["fp"] = fingerprint
    body["check"] = _digest(body, fingerprint)
    return body


def _is_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_record(rec: Any, spec: TournamentSpec, players: int, fingerprint: str) -> str | None:
    """What is wrong with a record line (``None`` if nothing)."""
    if not isinstance(rec, dict):
        return f"a record is a JSON object, got {_clip(rec)}"
    fields = set(_RECORD_FIELDS) | {"fp", "check"}
    missing = [k for k in (*_RECORD_FIELDS, "fp", "check") if k not in rec]
    if missing:
        return f"the record has no field {missing[0]!r}"
    extra = sorted(set(rec) - fields)
    if extra:
        return f"the record has an unknown field {extra[0]!r}"
    if rec["fp"] != fingerprint:
        return f"the record belongs to another tournament (fingerprint {_clip(rec['fp'])})"
    if not _is_int(rec["game"]) or not 0 <= rec["game"] < spec.games:
        return f"game {_clip(rec['game'])} is not a game index 0..{spec.games - 1}"
    for key, ok, what in (
        ("seed", _is_int, "an int"),
        ("steps", lambda v: _is_int(v) and v >= 0, "an int >= 0"),
        ("reason", lambda v: isinstance(v, str), "a string"),
        ("forfeit", lambda v: v is None or isinstance(v, str), "a seat label or null"),
        ("seats", lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v), "labels"),
        ("winners", lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v), "labels"),
        ("returns", lambda v: isinstance(v, list) and all(_is_number(x) for x in v), "numbers"),
    ):
        if not ok(rec[key]):
            return f"field {key!r} must be {what}, got {_clip(rec[key])}"
    if rec["check"] != _digest({k: v for k, v in rec.items() if k != "check"}, fingerprint):
        return f"the checksum of game {rec['game']} does not match its content (edited?)"
    labels, seed = _expected(spec, rec["game"], players)
    if rec["seats"] != labels or rec["seed"] != seed:
        return f"game {rec['game']} has seats {rec['seats']} and seed {rec['seed']}, not this tournament's"
    if len(rec["returns"]) != players:
        return f"game {rec['game']} has {len(rec['returns'])} returns for {players} seats"
    if not set(rec["winners"]) <= set(labels) or rec["forfeit"] not in (None, *labels):
        return f"game {rec['game']} names a winner or forfeit that is not at its table"
    return None


def _clip(x: Any, n: int = 60) -> str:
    text = repr(x)
    return text if len(text) <= n else text[: n - 3] + "..."


def _check_header(head: Any, spec: TournamentSpec, where: str) -> None:
    if not isinstance(head, dict) or "tournament" not in head:
        raise ResultsFileError(
            f"{where}: line 1 is not a tournament header ({_clip(head)}); "
            "the file was not written by kripke tournament; choose another --out file"
        )
    ours = spec.header()
    differ = [k for k in ours if k != "fingerprint" and head.get(k) != ours[k]]
    differ += sorted(k for k in head if k not in ours)
    if differ:
        parts = [f"{k} is {_clip(head.get(k))} there, {_clip(ours.get(k))} here" for k in differ]
        raise ResultsFileError(
            f"{where} holds another tournament ({'; '.join(parts)}); "
            "choose another --out file or the same settings"
        )
    if head.get("fingerprint") != ours["fingerprint"]:
        raise ResultsFileError(
            f"{where}: the header's fingerprint {_clip(head.get('fingerprint'))} does not match "
            "its content (edited?); choose another --out file"
        )


def read_results(
    path: str | Path, spec: TournamentSpec, *, repair: bool = False
) -> dict[int, dict[str, Any]]:
    """The finished games of ``spec`` in the results file ``path``, by game index.

    Every line is validated (see the module notes).  A last line without its
    newline is torn: it is dropped with a :class:`TornRecordWarning` (and with
    ``repair`` cut off the file, so appending starts on a fresh line).

    Raises
    ------
    ResultsFileError
        A header of another tournament (naming the fields that differ) or a
        bad line (naming the line number and what is wrong).
    """
    path = Path(path)
    done: dict[int, dict[str, Any]] = {}
    if not path.exists() or path.stat().st_size == 0:
        return done
    players = load_game(spec.game, **dict(spec.params)).num_players()
    fingerprint = spec.fingerprint()
    offset = 0
    torn_at: int | None = None
    header_seen = False
    try:
        fh = path.open("rb")
    except OSError as exc:
        raise ResultsFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    with fh:
        for lineno, raw in enumerate(fh, 1):
            start, offset = offset, offset + len(raw)
            if not raw.endswith(b"\n"):
                torn_at = start
                warnings.warn(
                    f"{path}: line {lineno} is a partly written record ({_clip(raw)}); "
                    "it is dropped and its game played again",
                    TornRecordWarning,
                    stacklevel=2,
                )
                break
            where = f"{path}, line {lineno}"
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ResultsFileError(
                    f"{where} is not UTF-8 text (byte {exc.start + 1})"
                ) from None
            if not text.strip():
                continue
            try:
                rec = json.loads(text)
            except (json.JSONDecodeError, RecursionError) as exc:
                msg = getattr(exc, "msg", "too deeply nested")
                raise ResultsFileError(f"{where} is not JSON ({msg}): {_clip(text)}") from None
            if not header_seen:
                _check_header(rec, spec, str(path))
                header_seen = True
                continue
            problem = _check_record(rec, spec, players, fingerprint)
            if problem is not None:
                raise ResultsFileError(f"{where}: {problem}")
            if rec["game"] in done:
                raise ResultsFileError(f"{where}: game {rec['game']} is recorded twice")
            done[rec["game"]] = {k: rec[k] for k in _RECORD_FIELDS}
    if not header_seen and torn_at is None:
        raise ResultsFileError(f"{path} has no tournament header (only blank lines)")
    if torn_at is not None and repair:
        try:
            os.truncate(path, torn_at)
        except OSError as exc:
            raise ResultsFileError(f"cannot repair {path}: {exc.strerror or exc}") from None
    return done


class _ResultsWriter:
    """Appends records to the results file, one ``write`` per line, ``fsync`` at least every second."""

    SYNC_SECONDS = 1.0

    def __init__(self, path: Path, spec: TournamentSpec, fresh: bool):
        self.fingerprint = spec.fingerprint()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            raise ResultsFileError(f"cannot write {path}: {exc.strerror or exc}") from None
        self.path = path
        self.synced = time.monotonic()
        if fresh:
            self._write(spec.header())
            self.sync()

    def _write(self, obj: Mapping[str, Any]) -> None:
        data = (json.dumps(obj, ensure_ascii=True) + "\n").encode("ascii")
        while data:
            data = data[os.write(self.fd, data) :]

    def append(self, rec: Mapping[str, Any]) -> None:
        self._write(_seal(rec, self.fingerprint))
        if time.monotonic() - self.synced >= self.SYNC_SECONDS:
            self.sync()

    def sync(self) -> None:
        os.fsync(self.fd)
        self.synced = time.monotonic()

    def close(self) -> None:
        try:
            self.sync()
        finally:
            os.close(self.fd)


# ------------------------------------------------------------------ summary
def summarize(records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Per-bot games, wins, win rate, mean return, 95% intervals and forfeits."""
    stats: dict[str, dict[str, Any]] = {}
    for rec in records:
        for s, label in enumerate(rec["seats"]):
            st = stats.setdefault(
                label, {"games": 0, "wins": 0, "sum": 0.0, "sq": 0.0, "forfeits": 0}
            )
            st["games"] += 1
            r = float(rec["returns"][s])
            st["sum"] += r
            st["sq"] += r * r
            if label in rec["winners"]:
                st["wins"] += 1
            if rec.get("forfeit") == label:
                st["forfeits"] += 1
    bots: dict[str, Any] = {}
    for label in sorted(stats):
        st = stats[label]
        n = st["games"]
        mean = st["sum"] / n
        var = max(0.0, st["sq"] / n - mean * mean) * n / max(1, n - 1)
        half = 1.96 * math.sqrt(var / n) if n > 1 else 0.0
        bots[label] = {
            "games": n,
            "wins": st["wins"],
            "win_rate": st["wins"] / n,
            "mean_score": mean,
            "ci95": list(_wilson(st["wins"], n)),
            "score_ci95": [mean - half, mean + half],
            "forfeits": st["forfeits"],
        }
    return {"bots": bots}


def _wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def _num(x: float) -> str:
    """Three decimals, without a negative zero (``-0.000``) for tiny negative values."""
    text = f"{x:.3f}"
    return "0.000" if text == "-0.000" else text


def format_summary(summary: Mapping[str, Any], title: str = "") -> str:
    """The summary as a plain-text table (win rate and mean return with 95% intervals)."""
    rows = []
    for label, b in sorted(summary["bots"].items(), key=lambda kv: -kv[1]["win_rate"]):
        lo, hi = b["ci95"]
        slo, shi = b["score_ci95"]
        rows.append(
            [
                label,
                str(b["games"]),
                str(b["wins"]),
                f"{b['win_rate']:.3f}",
                f"[{lo:.3f}, {hi:.3f}]",
                f"{b['mean_score']:.3f}",
                f"[{_num(slo)}, {_num(shi)}]",
                str(b["forfeits"]),
            ]
        )
    head = ["bot", "games", "wins", "win rate", "95% CI", "mean score", "95% CI", "forfeits"]
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(head)
    ]
    lines = [title] if title else []
    lines.append(
        "  ".join(
            h.ljust(w) if i == 0 else h.rjust(w)
            for i, (h, w) in enumerate(zip(head, widths, strict=True))
        )
    )
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        lines.append(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(r, widths, strict=True))
            )
        )
    return "\n".join(lines)


# ---------------------------------------------------------- worker processes
_WHAT = ("restart", "inform", "step")
#: Seconds without any bot call after which a worker (with a move time) counts as stuck.
STALL = 60.0
#: Whether bots can be interrupted in their process (``SIGALRM``); elsewhere only the parent's kill.
_SOFT_LIMIT = hasattr(signal, "setitimer") and hasattr(signal, "SIGALRM")


class _MoveClock:
    """The move time inside a worker: ``SIGALRM`` raises :class:`MoveTimeLimit` in the bot.

    The shared ``slot`` tells the parent which seat is in which call and its
    hard deadline (``[seat, deadline, what, steps, last call]``, deadline 0
    outside bot calls), so the parent can stop a bot that swallows the
    exception, and notice a worker that calls no bot at all.
    """

    def __init__(self, limit: float | None, slot: Any):
        self.limit = limit
        self.slot = slot
        self.deadline = 0.0
        self.active = False

    def __call__(self, seat: int, what: str, steps: int) -> _MoveClock:
        self.slot[0] = seat
        self.slot[2] = _WHAT.index(what)
        self.slot[3] = steps
        return self

    def __enter__(self) -> _MoveClock:
        now = time.monotonic()
        self.slot[4] = now
        if self.limit is None:
            self.slot[1] = -1.0  # in a bot call, without a limit
            return self
        self.deadline = now + self.limit
        self.slot[1] = self.deadline
        self.active = True
        if _SOFT_LIMIT:
            signal.setitimer(signal.ITIMER_REAL, self.limit, 0.05)
        return self

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        if self.limit is not None:
            if _SOFT_LIMIT:
                signal.setitimer(signal.ITIMER_REAL, 0)
            self.active = False
        self.slot[1] = 0.0
        self.slot[4] = now = time.monotonic()
        if kind is None and self.limit is not None and now > self.deadline:
            raise MoveTimeLimit(f"exceeded the move time of {self.limit:g} s")

    def alarm(self, signum: int, frame: Any) -> None:
        if self.active:
            raise MoveTimeLimit(f"exceeded the move time of {self.limit:g} s")


def _follow_parent(parent: int) -> None:
    """End this worker when its parent process ends."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    forked = os.getppid() == parent  # else started by a fork server: watch the pid itself

    def gone() -> bool:
        if forked:
            return os.getppid() != parent
        try:
            os.kill(parent, 0)
        except ProcessLookupError:
            return True
        except OSError:
            return False
        return False

    if gone():
        os._exit(1)

    def watch() -> None:
        with contextlib.suppress(Exception):
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGINT})
        while True:
            time.sleep(0.5)
            if gone():
                os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _worker_main(spec: TournamentSpec, conn: Any, slot: Any, parent: int) -> None:
    """A worker process: play the game indices received on ``conn`` and send their records."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _follow_parent(parent)
    clock = _MoveClock(spec.move_time, slot)
    if spec.move_time is not None:
        if _SOFT_LIMIT:
            signal.signal(signal.SIGALRM, clock.alarm)
    while True:
        try:
            index = conn.recv()
        except (EOFError, OSError):
            return
        if index is None:
            return
        try:
            rec = play_one(spec, index, guard=clock, bot_faults=(BaseException,))
        except BaseException as exc:  # an engine error: the parent stops the run
            conn.send(("error", index, f"{type(exc).__name__}: {exc}"))
            return
        conn.send(("done", index, rec))


class _Worker:
    """One worker process, its pipe and its shared slot."""

    def __init__(self, ctx: Any, spec: TournamentSpec):
        self.slot = ctx.RawArray("d", 5)
        here, there = ctx.Pipe()
        self.proc = ctx.Process(
            target=_worker_main, args=(spec, there, self.slot, os.getpid()), daemon=True
        )
        self.proc.start()
        there.close()
        self.conn = here
        self.index: int | None = None

    def give(self, index: int) -> None:
        """Send the worker game ``index``."""
        self.slot[1] = 0.0
        self.slot[4] = time.monotonic()
        self.conn.send(index)
        self.index = index

    def stop(self, kill: bool = False) -> None:
        if not kill and self.proc.is_alive():
            with contextlib.suppress(OSError, ValueError):
                self.conn.send(None)
            self.proc.join(2.0)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(2.0)
        self.conn.close()


def _context() -> Any:
    if "fork" in mp.get_all_start_methods():
        return mp.get_context("fork")
    return mp.get_context()  # pragma: no cover - platforms without fork


def _process_records(
    spec: TournamentSpec, todo: Iterator[int], workers: int, ctx: Any = None
) -> Iterator[dict[str, Any]]:
    """Play the games of ``todo`` in ``workers`` processes; yield records as they finish.

    ``ctx`` is the multiprocessing context (default: fork where there is one).
    """
    ctx = ctx or _context()
    players = load_game(spec.game, **dict(spec.params)).num_players()
    limit = spec.move_time
    grace = None if limit is None else max(1.0, limit)  # past the deadline, before a kill
    pool: list[_Worker] = []
    exhausted = False
    try:
        while True:
            for w in pool:  # hand out work
                if w.index is None and not exhausted:
                    nxt = next(todo, None)
                    if nxt is None:
                        exhausted = True
                    else:
                        w.give(nxt)
            while not exhausted and len(pool) < workers:
                nxt = next(todo, None)
                if nxt is None:
                    exhausted = True
                    break
                w = _Worker(ctx, spec)
                pool.append(w)
                w.give(nxt)
            busy = [w for w in pool if w.index is not None]
            if not busy:
                return
            waitables = [w.conn for w in busy] + [w.proc.sentinel for w in busy]
            ready = set(mpc.wait(waitables, timeout=None if grace is None else 0.1))
            for w in busy:
                rec: dict[str, Any] | None = None
                if w.conn in ready:
                    try:
                        kind, index, payload = w.conn.recv()
                    except (EOFError, OSError):
                        kind = "died"
                    if kind == "done":
                        rec = payload
                    elif kind == "error":
                        raise TournamentError(f"game {index} failed outside any bot: {payload}")
                elif w.proc.sentinel in ready:
                    kind = "died"
                elif grace is not None and 0 < w.slot[1] < time.monotonic() - grace:
                    kind = "hung"
                elif grace is not None and w.slot[1] == 0 < w.slot[4] < time.monotonic() - STALL:
                    kind = "stalled"
                else:
                    continue
                if rec is None:
                    rec = _lost_game(spec, w, players, kind, limit)
                    pool.remove(w)
                    w.stop(kill=True)
                    if not exhausted:
                        pool.append(_Worker(ctx, spec))  # replaces the stopped one
                else:
                    w.index = None
                yield rec
    finally:
        for w in pool:
            w.stop(kill=True)


def _lost_game(
    spec: TournamentSpec, w: _Worker, players: int, kind: str, limit: float | None
) -> dict[str, Any]:
    """The record of a game whose worker was stopped (a hung bot) or died (a bot killed it)."""
    index = w.index
    assert index is not None
    seat, deadline, what, steps = int(w.slot[0]), w.slot[1], _WHAT[int(w.slot[2])], int(w.slot[3])
    if deadline == 0:  # not inside a bot call: the engine or the worker itself failed
        if kind == "stalled":
            raise TournamentError(
                f"game {index}: no bot was called for {STALL:g} s; the game engine or its "
                "worker process is stuck (the finished games are kept)"
            )
        w.proc.join(1.0)
        raise TournamentError(
            f"game {index}: the worker process died outside any bot (exit code {w.proc.exitcode})"
        )
    label = _expected(spec, index, players)[0][seat]
    where = "" if what == "step" else f" in {what}"
    if kind == "hung":
        reason = (
            f"P{seat} ({label}) MoveTimeLimit{where}: exceeded the move time of {limit:g} s "
            "and did not stop; its process was killed"
        )
    else:
        w.proc.join(1.0)
        reason = f"P{seat} ({label}) ended its process{where} (exit code {w.proc.exitcode})"
    return _forfeit_record(spec, index, players, seat, steps, reason)


# ---------------------------------------------------------------- running
def _records(
    spec: TournamentSpec,
    todo: Iterator[int],
    workers: int | None,
    backend: str,
    address: str | None,
    remaining: int | None = None,
) -> Iterator[dict[str, Any]]:
    if backend == "ray":
        from games.ray_backend import ray_records

        return ray_records(spec, todo, workers, address, remaining)
    return _process_records(spec, todo, workers or os.cpu_count() or 1)


def run_tournament(
    game: str,
    bots: Sequence[str],
    games: int = 100,
    *,
    seed: int = 0,
    seats: str = "rotate",
    out: str | Path | None = None,
    workers: int | None = None,
    progress: bool = True,
    move_time: float | None = DEFAULT_MOVE_TIME,
    backend: str = "process",
    address: str | None = None,
    **params: Any,
) -> dict[str, Any]:
    """Play a tournament and return its summary (see :func:`summarize`).

    Parameters
    ----------
    game : str
        A registered game name.
    bots : sequence of str
        Bot names or specs (see :func:`games.base.make_bot`); repeated names
        play as separate entrants; fewer bots than seats fill the table
        cyclically.
    games : int
        Number of games (any size: the indices are generated as needed).
    seed : int
        Tournament seed; game ``i`` gets its own seed from it.
    seats : {"rotate", "draw"}
    out : path, optional
        JSON-lines results file (created with its folders).  If it exists and
        holds this tournament's games, only the missing games are played.
    workers : int, optional
        Worker processes (default: every core), or Ray tasks in flight.
    progress : bool
        Show a tqdm progress bar.
    move_time : float or None
        Seconds a bot may spend in one call; ``None`` for no limit.
    backend : {"process", "ray"}
        Local worker processes, or tasks on a Ray cluster (``pip install
        'kripke-games[ray]'``; see :mod:`games.ray_backend`).
    address : str, optional
        The Ray cluster to join (``HOST:PORT``); default: a local one.
    **params
        Game parameters, e.g. ``variant="koth"``.

    Raises
    ------
    InvalidParameterError
        Bad counts, an unknown seat mode or backend, a bad move time.
    ResultsFileError
        An ``out`` file of another tournament, or with a bad line.
    UnknownGameError
        An unknown game or bot.
    TournamentError
        A game that failed outside any bot.
    KeyboardInterrupt
        Ctrl-C: the finished games are in ``out``.
    """
    if not _is_int(games) or games < 0:
        raise InvalidParameterError(f"the number of games must be an int >= 0, got {games!r}")
    if seats not in ("rotate", "draw"):
        raise InvalidParameterError(f"seats must be 'rotate' or 'draw', got {seats!r}")
    if workers is not None and (not _is_int(workers) or workers < 1):
        raise InvalidParameterError(f"workers must be an int >= 1, got {workers!r}")
    if move_time is not None and (not _is_number(move_time) or move_time <= 0):
        raise InvalidParameterError(f"move_time must be seconds > 0 or None, got {move_time!r}")
    if backend not in BACKENDS:
        raise InvalidParameterError(
            f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}"
        )
    if not bots:
        raise InvalidParameterError("name at least one bot")
    params = {k: v for k, v in params.items() if v is not None}
    load_game(game, **params)  # validates the game and its parameters
    for b in dict.fromkeys(bots):  # an unknown bot, or one of one's own that cannot load,
        make_bot(game, b, seed=0)  # fails here with its name (games.botspec)
    spec = TournamentSpec(
        game,
        tuple(bots),
        games,
        seed,
        seats,
        tuple(sorted(params.items())),
        None if move_time is None else float(move_time),
    )
    path = Path(out) if out is not None else None
    writer: _ResultsWriter | None = None
    done: dict[int, dict[str, Any]] = {}
    if path is not None:
        if path.is_dir():
            raise ResultsFileError(f"{path} is a folder; --out names a file")
        done = read_results(path, spec, repair=True)
        fresh = not path.exists() or path.stat().st_size == 0
        writer = _ResultsWriter(path, spec, fresh)
    results = dict(done)
    todo = (i for i in range(games) if i not in done)
    bar = _progress(games, len(done), progress)
    stream = _records(spec, todo, workers, backend, address, games - len(done))
    try:
        for rec in stream:
            results[rec["game"]] = rec
            if writer is not None:
                writer.append(rec)
            if bar is not None:
                bar.update(1)
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()
        if bar is not None:
            bar.close()
        if writer is not None:
            writer.close()
    return summarize(results[i] for i in sorted(results))


def _progress(total: int, initial: int, enabled: bool) -> Any:
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return None
    return tqdm(total=total, initial=initial, unit="game", file=sys.stderr, dynamic_ncols=True)


# ----------------------------------------------------------------------- CLI
def cli_main(args: Any, out: TextIO) -> int:
    """``kripke tournament <game> ...``: play, stream to ``--out``, print the table."""
    from games.cli import parse_params

    params = parse_params(getattr(args, "param", []) or [])
    if getattr(args, "variant", None) is not None:
        params["variant"] = args.variant
    if getattr(args, "players", None) is not None:
        params["players"] = args.players
    bots = [b.strip() for b in str(args.bots).split(",") if b.strip()]
    move_time = getattr(args, "move_time", DEFAULT_MOVE_TIME)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always", TornRecordWarning)
            warnings.showwarning = _show_warning
            summary = run_tournament(
                args.game,
                bots,
                args.games,
                seed=args.seed,
                seats=args.seats,
                out=args.out,
                workers=args.workers,
                progress=not getattr(args, "no_progress", False),
                move_time=None if move_time == 0 else move_time,
                backend=getattr(args, "backend", "process") or "process",
                address=getattr(args, "address", None),
                **params,
            )
    except KeyboardInterrupt:
        where = f"; the finished games are in {args.out}, rerun to resume" if args.out else ""
        print(f"tournament interrupted{where}", file=sys.stderr)
        return 130
    if getattr(args, "json", False):
        slim = {
            "bots": {
                k: {f: v[f] for f in ("games", "wins", "win_rate", "mean_score", "ci95")}
                for k, v in summary["bots"].items()
            }
        }
        print(json.dumps(slim), file=out)
    else:
        title = f"{args.game}" + (f" ({params['variant']})" if "variant" in params else "")
        title += f": {args.games} games, seats {args.seats}, seed {args.seed}"
        print(format_summary(summary, title), file=out)
    return 0


def _show_warning(message: Any, category: Any, *args: Any, **kwargs: Any) -> None:
    print(f"kripke: warning: {message}", file=sys.stderr)
