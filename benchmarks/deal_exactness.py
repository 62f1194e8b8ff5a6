"""How long every seat's exact deal knowledge stays exact through whole games.

For each game and seed the complete seeded game of
``benchmarks/whole_game_knowledge.py`` (same bots, same chance; any of its
games: BS, and ZPY and BS-ZPY with their public facts and counts) is
replayed event by event into one :class:`~games.deal.DealState` (what
``CardHistory.deal_state()`` builds, but incrementally).  After every *play*
(the indexing of :func:`whole_game_knowledge.plays`) every seat's
:attr:`DealKnowledge.exact` is read; with ``--query`` each seat's marginals
are computed there too (the counting a nested-knowledge question starts
from, which may drop a constraint past ``max_states``).

Reported per game: the (seat, play) pairs, the share exact, the first play
(and event) where each seed's knowledge stops being exact, the CPU time per
event update (median, mean, worst; all seats' updates of one event
together), and with ``--query`` the CPU time of the marginals.  ``--diagnose``
prints, at the first relaxation of each seed, the joint constraints the seat
held before the event: their forms and table shapes.

Every (game, seed) result is appended to ``--out`` (JSON lines) as it
finishes; results already there (same game, seed, options) are skipped, so an
interrupted run goes on where it stopped.  Times are CPU seconds of this
process (``time.process_time``).

Run::

    python benchmarks/deal_exactness.py [--games bs-classic bs-koth] [--seeds 0 1 2 3 4]
        [--query] [--diagnose] [--max-table N] [--out deal_exactness.jsonl]

Measured (seeds 0-4, the default command; 2-core machine shared with other
work; the library before compact tables, 256ebfd, from a ``git archive`` in
the same session, then at ec2d07c; CPU ms per event, all four seats):

==========  ===========  ==============  ==============  ============  ============
game        (seat,play)  exact before    exact after     update med    update worst
==========  ===========  ==============  ==============  ============  ============
bs-classic  2,404        49.8%           55.7%           0.66 -> 0.71  33 -> 24
bs-koth     4,132        16.5%           16.8%           0.83 -> 0.78  258 -> 30
==========  ===========  ==============  ==============  ============  ============

(mean per event: classic 1.16 -> 1.18 ms, koth 4.6 -> 2.5 ms: the merge's
search of the splits, which also serves the bots' knowledge.)  The bots' own
knowledge has compact tables off and plays the same actions at the same
speed (``python3 benchmarks/tournament_speed.py --games 20 --bots
probabilistic-exact,knowledge-exact --shapes koth4 --baseline DIR``, DIR
the 256ebfd archive: 1.33 -> 1.34 and 26.59 -> 26.37 games per CPU second,
actions the same).

With ``--query`` (every seat's marginals at every play, same session):
classic 42 -> 67 s of marginals in all (median 0.96 -> 0.93 ms, worst 9.4
-> 12.8 s, states over 1 s 6 -> 10): knowledge that stays exact keeps
joint constraints that were dropped before, and counting with them costs
more (seed 1, P2 at play 93: 13 s, exact, where the constraints had been
dropped since play 62); koth 59 -> 61 s (worst 0.9 -> 1.1 s).

First inexact play per seed (0-4), before -> after: classic 52/52/60/-/- ->
62/62/68/-/-, koth 29/23/21/-/27 unchanged (``-``: exact to the end; seeds
3 and 4 are short games).  ``--max-table 100000`` gives classic 58.7%
(seed 1 exact to play 88, seed 2 to the end) and koth 16.9% (a worst event
of 1.2 s, measured before compact tables stopped at the first dropped
constraint); ``--max-table 1000000`` without compact tables gives 51% on
classic with a worst event of 97 s: a larger budget does not carry the
knowledge through a game.

Why the tables grow (``--diagnose``): a seat that saw cards go into a pile
another seat picked up knows lower bounds of that seat's copies of those
kinds; when that seat plays face down, ``hand + play`` keeps each bound, and
when the play joins the pile the count of each such kind that went into the
pile is unknown but the counts add up to the number of cards played.  The
exact projection is a table over, for every such kind, its count in the hand
and in the pile: a product, 4-5 values per axis, past 20,000 at three to
four kinds (koth: from the first pickup followed by a play of the taker, play
21-29).  In classic the same happens over classes of cards (the cards of one
pickup) and several locations; forms that are combinations of other forms
(a class in a location and its complement) no longer take an axis, and a
form's range is bounded by the location's size too, which is what the
compact tables (``DealKnowledge.compact_tables``, on in
:class:`~games.deal.DealState`) change.  The product itself needs another
representation: per kind, the relation between its cells and its part of
each hidden play, and the sum of the parts checked by the counting's
dynamic programme (a set of reachable partial sums in its state) instead of
a joint table.

BS-ZPY and ZPY (``--games bs-zpy zpy5 --seeds 0 1 2 3``; 4e327fe, the
library before kinds enter a merge through their own bounds, from a ``git
archive`` with this script, then e24fc70, same session; CPU ms per event,
all five seats):

==========  ===========  ==============  ==============  ============  ============
game        (seat,play)  exact before    exact after     update med    update worst
==========  ===========  ==============  ==============  ============  ============
bs-zpy      3,450        58.3%           78.1%           1.38 -> 1.70  57 -> 395
zpy5        1,670        100%            100%            0.28 -> 0.28  1.4 -> 1.5
==========  ===========  ==============  ==============  ============  ============

First inexact play per seed (0-3), before -> after: bs-zpy -/69/42/65 ->
-/47/-/158.  What dropped the constraints (``--diagnose``, and the merges
of one event replayed): a card forfeited unseen from one won pile to
another (``a card of W0 goes to W1``) splits the pile into the pile and
the card, with a constraint per kind the card could be (``W0 + card <=
1``: it was no second copy), and the card joining the other pile saw
every one of them: the joint table had an axis per kind (2^18 and more).
Each of those constraints sees one kind's split only: per value of that
kind's cells the split is an interval with affine ends, so the kind
enters Hall's condition on the total as a linear form and needs no axis
(:meth:`DealKnowledge._local_kinds`); seeds 2 and 3 stay exact through the
forfeits, seed 1 through the first two (its seats P0, P1, P2 exact to
play 80, then the forfeits of plays 81-84 meet constraints of several
kinds).  Seed 1's P3 and P4 now drop one at play 47 (a merge whose kind is
substituted where the old way kept bounds as lines; the retry the old way
starts from other constraints), and a merge that must drop constraints
tries twice, so its worst event costs more (395 ms: 336 attempts over five
seats dropping one constraint each).

Bounds of several pieces (same command; 72a8af0 from a ``git archive``,
then 629e202, same session, machine loaded by other work; CPU ms per event,
all five seats):

==========  ===========  ==============  ==============  ============  ============
game        (seat,play)  exact before    exact after     update med    update worst
==========  ===========  ==============  ==============  ============  ============
bs-zpy      3,450        78.1%           80.6%           2.36 -> 2.71  552 -> 483
zpy5        1,670        100%            100%            0.50 -> 0.50  2.3 -> 2.5
==========  ===========  ==============  ==============  ============  ============

(mean per event 7.3 -> 8.1 ms.)  First inexact play per seed (0-3):
-/47/-/158 -> -/81/-/158.  Seed 1's P3 and P4 are exact to play 81 (the
merge of play 47 took three kinds with two or three lower and upper forms
each to the joint table: Hall's condition was counted as the product of
the choices, 324 > ``_LOCAL_PICKS``, where it is one constraint per choice
of lower forms plus one per choice of upper forms, 18 + 18); seed 3's P4
is exact to the end (the possible cell values of a kind lay on a line,
``W0 + W4 = 2``, where least squares gave fractional coefficients and the
end was taken for not affine).  An end may also be the largest (smallest)
of affine pieces of one constraint (``_pieces``, ``n - 1 + [s == 0]``);
no bs-zpy seat of these seeds stays exact longer for that alone.

What still drops constraints (``--diagnose``): seed 1, plays 81-84 (the
forfeits of W1's cards to W3, and the trick P2 wins): 15-20 kinds whose
split only their own constraints see, each with two lower and two upper
forms (the card was not a second copy of a kind W3 may hold once:
``max(0, W3 - 1)``; it came from W0 and W1, which held at most one of the
kind: ``min(W3, 1 - W0 - W1)``).  Hall's condition as linear constraints
needs 2^15 and more choices; exactly, it is a sum over the kinds of a
function of each kind's own cells, which linear forms cannot state.  Such
a sum as one constraint (a table per kind, one value in the counting's
state) was tried: it agreed with enumeration on 600 won-pile histories and
kept P0 and P2 exact through the first forfeit (P1 dropped 1 constraint
instead of 18), but (1) the next forfeit from the same pile sees the split
of the summed kinds again, and the existential over a split of a sum of
per-kind functions is no such sum (a least change over the kinds), so the
sum was dropped one event later and no seat stayed exact longer (80.6%,
the same first inexact plays); (2) counting makes one component of all its
kinds: P1's marginals after the first forfeit took 313 s (the other
seats' 9-23 s).  It was not kept.  Seed 3, play 158 (a
forfeit of W0's card to W4): a constraint of six kinds (a follow rule's
disjunction) sees the split; its joint table needs 60,840 values, past
``max_table`` (20,000).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _common import table  # noqa: E402

__all__ = ["main", "replay"]


def _history(game: str, seed: int) -> tuple[Any, list[int]]:
    """The final card history of a seeded game and the event count at every play."""
    import whole_game_knowledge as wgk

    marks: list[int] = []
    last: Any = None
    for _, h in wgk.plays(game, seed):
        marks.append(len(h.events))
        last = h
    return last, marks


def _constraints_text(kn: Any) -> list[str]:
    """The joint constraints of a knowledge object: table shape and forms, readable."""
    out = []
    for p in kn._preds:
        forms = []
        for f in p.forms:
            terms = " ".join(f"{c:+d}*{kn.deck.name(k)}@{kn._locs[ll]}" for k, ll, c in f.coef)
            forms.append(f"{terms} {f.offset:+d}")
        out.append(f"table {p.table.shape} ({p.table.size}): " + " | ".join(forms))
    return out


def _apply(ds: Any, h: Any, i: int) -> None:
    """Event ``i`` of the card history ``h`` on the deal state ``ds``, as
    :meth:`CardHistory.deal_state` applies it (a fact counting cannot state
    leaves every seat's knowledge a superset: not exact)."""
    from games.epistemic.history import Count, Move, MoveAll, Reveal, Show

    e = h.events[i]

    def aud(x: Any) -> Any:
        return None if x is None else sorted(x)

    if isinstance(e, Move):
        ds.move(e.cards, e.src, e.dst, seen_by=aud(e.seen_by))
    elif isinstance(e, MoveAll):
        ds.move_all(e.src, e.dst, seen_by=aud(e.seen_by))
    elif isinstance(e, Reveal):
        ds.reveal(e.location, to=aud(e.to))
    elif isinstance(e, Show):
        ds.show(e.location, e.cards, to=aud(e.to))
    elif isinstance(e, Count) and e.hi == 0 and len(h._steps[i].locations) == 1:
        ds.void(h._steps[i].locations[0], e.cards)
    elif isinstance(e, Count):
        ds.at_least(list(e.locations), e.cards, e.lo)
        ds.at_most(list(e.locations), e.cards, e.hi)
    elif not h._fact_counts(ds, h._steps[i].formula):
        for a in h.agents:
            ds.knowledge(a).relaxations += 1


def replay(
    game: str,
    seed: int,
    *,
    query: bool = False,
    diagnose: bool = False,
    max_table: int | None = None,
) -> dict[str, Any]:
    """Replay one seeded game's events; exactness at every play and update times."""
    from games.deal import DealState

    h, marks = _history(game, seed)
    deck = h.deck
    ds = DealState(
        deck,
        {loc: [deck.name(k) for k in ks] for loc, ks in h.initial.items()},
        agents={a: list(h.owns[a]) for a in h.agents},
    )

    if max_table is not None:
        for a in h.agents:
            ds.knowledge(a).max_table = max_table

    at_mark: dict[int, list[int]] = {}
    for play, n_ev in enumerate(marks):
        at_mark.setdefault(n_ev, []).append(play)
    update_s: list[float] = []
    query_s: list[float] = []
    exact_pairs = 0
    pairs = 0
    first: dict[str, tuple[int, int]] = {}
    relaxed = {a: 0 for a in h.agents}
    notes: list[str] = []
    play_of_event = 0
    for i, e in enumerate(h.events):
        before = {a: ds.knowledge(a).copy() for a in h.agents} if diagnose else {}
        t0 = time.process_time()
        _apply(ds, h, i)
        update_s.append(time.process_time() - t0)
        for play in at_mark.get(i + 1, []):
            play_of_event = play
            for a in h.agents:
                kn = ds.knowledge(a)
                if query:
                    t0 = time.process_time()
                    kn.marginals()
                    query_s.append(time.process_time() - t0)
                pairs += 1
                exact_pairs += kn.exact
                if not kn.exact and a not in first:
                    first[a] = (play, i + 1)
        for a in h.agents:
            kn = ds.knowledge(a)
            if diagnose and kn.relaxations > relaxed[a] and not relaxed[a]:
                notes.append(f"seed {seed} event {i} ({e.label}), {a} relaxes; before:")
                notes.extend("    " + t for t in _constraints_text(before[a]))
            relaxed[a] = kn.relaxations
    return {
        "game": game,
        "seed": seed,
        "query": query,
        "max_table": max_table,
        "plays": len(marks),
        "events": len(h.events),
        "pairs": pairs,
        "exact_pairs": exact_pairs,
        "first_inexact": {a: list(v) for a, v in sorted(first.items())},
        "last_play": play_of_event,
        "update_s": update_s,
        "query_s": query_s,
        "notes": notes,
    }


def _summary(rows: list[dict[str, Any]]) -> str:
    out = []
    for game in sorted({r["game"] for r in rows}):
        rs = [r for r in rows if r["game"] == game]
        ups = [t for r in rs for t in r["update_s"]]
        qs = [t for r in rs for t in r["query_s"]]
        pairs = sum(r["pairs"] for r in rs)
        ex = sum(r["exact_pairs"] for r in rs)
        firsts = []
        for r in rs:
            f = r["first_inexact"]
            firsts.append(f"{r['seed']}:{min(v[0] for v in f.values())}" if f else f"{r['seed']}:-")
        out.append(
            [
                game,
                len(rs),
                pairs,
                f"{100 * ex / max(pairs, 1):.1f}%",
                " ".join(firsts),
                statistics.median(ups) * 1e3 if ups else 0.0,
                statistics.fmean(ups) * 1e3 if ups else 0.0,
                max(ups) * 1e3 if ups else 0.0,
                f"{statistics.median(qs) * 1e3:.2f}/{max(qs) * 1e3:.1f}" if qs else "-",
            ]
        )
    head = [
        "game",
        "seeds",
        "(seat,play)",
        "exact",
        "first inexact play (seed:play)",
        "update med ms",
        "mean ms",
        "worst ms",
        "marginals med/worst ms",
    ]
    return table(head, out)


def main(argv: list[str] | None = None) -> None:
    from tqdm import tqdm

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", nargs="+", default=["bs-classic", "bs-koth"])
    ap.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    ap.add_argument("--query", action="store_true", help="compute marginals at every play")
    ap.add_argument("--diagnose", action="store_true", help="print constraints at first drops")
    ap.add_argument("--max-table", type=int, default=None, help="every seat's max_table")
    ap.add_argument("--out", default="deal_exactness.jsonl")
    args = ap.parse_args(argv)
    path = Path(args.out)
    rows: list[dict[str, Any]] = []
    if path.exists():
        rows = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    opts = (args.query, args.max_table)

    def key(r: dict[str, Any]) -> tuple[Any, ...]:
        return (r["game"], r["seed"], r["query"], r.get("max_table"))

    done = {key(r) for r in rows}
    todo = [
        (g, s) for g in args.games for s in args.seeds if (g, s, *opts) not in done or args.diagnose
    ]
    for g, s in tqdm(todo, unit="game"):
        r = replay(g, s, query=args.query, diagnose=args.diagnose, max_table=args.max_table)
        for line in r["notes"]:
            tqdm.write(line)
        if (g, s, *opts) not in done:
            rows.append(r)
            with path.open("a") as fh:
                fh.write(json.dumps(r) + "\n")
    wanted = [
        r
        for r in rows
        if r["game"] in args.games and r["seed"] in args.seeds and key(r)[2:] == opts
    ]
    print(_summary(wanted))


if __name__ == "__main__":
    main()
