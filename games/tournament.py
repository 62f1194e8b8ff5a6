"""Seeded tournaments between bots of any registered game.

:func:`run_tournament` plays ``games`` games with the named bots, game ``i``
seeded from the tournament seed and ``i``, so every game can be replayed on
its own.  Seats are rotated (game ``i`` shifts the bot list by ``i``) or drawn
(a seeded random assignment per game; with more bots than seats, a random
subset plays).  Results stream to a JSONL file, one line per finished game,
so an interrupted tournament resumes where it stopped; games run in a pool of
processes over the machine's cores, with a progress bar.

A bot named twice at a table is reported as ``name``, ``name#2``, … .  A seat
*wins* a game when its return is the highest at the table and not every seat
has the same return (tied top seats, e.g. partners, all win); games whose
state defines ``winners()`` decide for themselves.  A bot that raises or
returns an illegal action forfeits that game (the tournament goes on, and
the reason is recorded).

The summary gives, per bot, the games, wins, win rate with a 95% Wilson
interval, the mean return (the score) with a 95% normal interval, and
forfeits.  ``--json`` prints it as one object
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

import json
import math
import os
import random
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from games.base import load_game, make_bot, play_game
from games.errors import InvalidParameterError

__all__ = [
    "run_tournament",
    "play_one",
    "summarize",
    "format_summary",
    "seat_labels",
    "cli_main",
    "TournamentSpec",
]


@dataclass(frozen=True)
class TournamentSpec:
    """Everything that determines a tournament's games (and its JSONL header)."""

    game: str
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    seats: str = "rotate"
    params: tuple[tuple[str, Any], ...] = ()

    def header(self) -> dict[str, Any]:
        return {
            "tournament": self.game,
            "bots": list(self.bots),
            "seed": self.seed,
            "seats": self.seats,
            "params": dict(self.params),
        }


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


def play_one(spec: TournamentSpec, index: int) -> dict[str, Any]:
    """Play game ``index`` of the tournament and return its JSON record."""
    game = load_game(spec.game, **dict(spec.params))
    players = game.num_players()
    names = _table(spec, index, players)
    labels = seat_labels(names)
    seed = _game_seed(spec, index)
    bots = [make_bot(spec.game, n, seed=seed * 31 + s) for s, n in enumerate(names)]
    res = play_game(game, bots, seed=seed, forfeit_on_error=True, keep_state=True)
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


def _play_chunk(spec: TournamentSpec, indices: Sequence[int]) -> list[dict[str, Any]]:
    return [play_one(spec, i) for i in indices]


# ------------------------------------------------------------------ results
def _read_results(path: Path, spec: TournamentSpec) -> dict[int, dict[str, Any]]:
    """Finished games already in ``path`` (a torn last line is ignored)."""
    done: dict[int, dict[str, Any]] = {}
    if not path.exists():
        return done
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            line = line.strip()
            if not line:
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue
            if "tournament" in rec:
                if rec != spec.header():
                    raise InvalidParameterError(
                        f"{path} holds another tournament (line {lineno}: {line[:80]}); "
                        "choose another --out file"
                    )
                continue
            if isinstance(rec, dict) and isinstance(rec.get("game"), int):
                done[rec["game"]] = rec
    return done


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


# ---------------------------------------------------------------- running
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
    chunk: int | None = None,
    **params: Any,
) -> dict[str, Any]:
    """Play a tournament and return its summary (see :func:`summarize`).

    Parameters
    ----------
    game : str
        A registered game name.
    bots : sequence of str
        Bot names (see :func:`games.base.registered_bots`); repeated names play
        as separate entrants.
    games : int
        Number of games.
    seed : int
        Tournament seed; game ``i`` gets its own seed from it.
    seats : {"rotate", "draw"}
    out : path, optional
        JSONL results file.  If it exists and holds this tournament's games,
        only the missing games are played.
    workers : int, optional
        Processes (default: every core; 1 plays in this process).
    progress : bool
        Show a tqdm progress bar.
    **params
        Game parameters, e.g. ``variant="koth"``.

    Raises
    ------
    InvalidParameterError
        Bad counts, an unknown seat mode, or an ``out`` file of another tournament.
    UnknownGameError
        An unknown game or bot.
    """
    if not isinstance(games, int) or isinstance(games, bool) or games < 0:
        raise InvalidParameterError(f"the number of games must be an int >= 0, got {games!r}")
    if seats not in ("rotate", "draw"):
        raise InvalidParameterError(f"seats must be 'rotate' or 'draw', got {seats!r}")
    if not bots:
        raise InvalidParameterError("name at least one bot")
    params = {k: v for k, v in params.items() if v is not None}
    load_game(game, **params)  # validates the game and its parameters
    for b in dict.fromkeys(bots):  # an unknown bot, or one of one's own that cannot load,
        make_bot(game, b, seed=0)  # fails here with its name (games.botspec)
    spec = TournamentSpec(game, tuple(bots), games, seed, seats, tuple(sorted(params.items())))
    path = Path(out) if out is not None else None
    done = _read_results(path, spec) if path is not None else {}
    todo = [i for i in range(games) if i not in done]
    results = dict(done)
    fh: TextIO | None = None
    if path is not None:
        fresh = not path.exists() or path.stat().st_size == 0
        fh = path.open("a", encoding="utf-8")
        if fresh:
            fh.write(json.dumps(spec.header()) + "\n")
            fh.flush()
    bar = _progress(games, len(done), progress)
    try:
        for rec in _execute(spec, todo, workers, chunk):
            results[rec["game"]] = rec
            if fh is not None:
                fh.write(json.dumps(rec) + "\n")
                fh.flush()
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
        if fh is not None:
            fh.close()
    return summarize(results[i] for i in range(games) if i in results)


def _progress(total: int, initial: int, enabled: bool) -> Any:
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return None
    return tqdm(total=total, initial=initial, unit="game", file=sys.stderr, dynamic_ncols=True)


def _execute(
    spec: TournamentSpec, todo: Sequence[int], workers: int | None, chunk: int | None
) -> Iterator[dict[str, Any]]:
    """Play the games in ``todo`` and yield their records as they finish."""
    if not todo:
        return
    workers = workers or os.cpu_count() or 1
    if workers <= 1 or len(todo) == 1:
        for i in todo:
            yield play_one(spec, i)
        return
    size = chunk or max(1, min(50, len(todo) // (workers * 8) or 1))
    chunks = [todo[i : i + size] for i in range(0, len(todo), size)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: set[Future[list[dict[str, Any]]]] = set()
        it = iter(chunks)
        try:
            for c in it:
                pending.add(pool.submit(_play_chunk, spec, c))
                if len(pending) >= workers * 2:
                    break
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in finished:
                    yield from fut.result()
                    nxt = next(it, None)
                    if nxt is not None:
                        pending.add(pool.submit(_play_chunk, spec, nxt))
        except BaseException:
            for fut in pending:
                fut.cancel()
            pool.shutdown(wait=False, cancel_futures=True)
            raise


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
    try:
        summary = run_tournament(
            args.game,
            bots,
            args.games,
            seed=args.seed,
            seats=args.seats,
            out=args.out,
            workers=args.workers,
            progress=not getattr(args, "no_progress", False),
            **params,
        )
    except KeyboardInterrupt:
        where = f"; rerun with --out {args.out} to resume" if args.out else ""
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
