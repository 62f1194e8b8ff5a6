"""Double-dummy solving of trick-taking positions with all hands open.

A position is every hand as a 32-bit card mask (bit ``suit * 8 + rank``, ranks
7 … A as 0 … 7, the card ids of :mod:`games.boerenbridge`), the trump suit
(or ``None``), the seat that leads the current trick and the cards already
played to it.  Seats are split in two: the *side* (one seat, or any set of
seats) and everybody else, who play against it.  Two questions are answered
exactly:

* how many of the remaining tricks the side can force (:func:`max_tricks`),
  and how few (:func:`min_tricks`) when it tries to lose them;
* whether the side can force its number of tricks into an interval
  ``[low, high]`` whatever the others do (:meth:`DoubleDummySolver.can_force`)
  -- ``low == high`` is "the side can make its guess exactly".

A *cooperative* solver (``DoubleDummySolver(..., cooperative=True)``) lets
every seat play for the goal: it answers whether some legal play of the
remaining cards gives the side a number of tricks in the interval.

The search is a boolean AND-OR search (as in bridge double-dummy solvers):
the side's cards are OR nodes, the others' AND nodes.  It uses

* suit bitmasks, with cards that are adjacent once the played cards are
  removed treated as one move (rank equivalence);
* a transposition table at trick boundaries keyed on *relevant ranks*: a
  result depends on the suit lengths of each hand and on who holds the cards
  at or above the lowest card whose rank decided a trick (partition search);
  lower cards are interchangeable, so positions differing in them share an
  entry -- and entries stay valid across different deals, which Monte Carlo
  sampling exploits;
* before the relevant-rank table, a table of the exact positions met (the
  hands, the leader and the goal): a position reached again by another order
  of tricks costs one lookup;
* a second table of the same kind for the answer after each lead, keyed also
  on the lead's suit (and on its rank where that rank is relevant): the
  answer after one lead often depends on fewer cards than the whole
  position's, so a lead is answered where the position has no entry;
* per entry, bounds on the largest lower bound and the smallest upper bound
  the side can force, and the intervals proved or refuted (a forced interval
  forces every wider one, a refuted one every narrower one);
* sure tricks as bounds: trump tricks both ways (each trump wins its trick
  unless a higher trump of the other team falls on it, and each of those falls
  on one trick only), and the tricks the side can cash from the top when it
  leads (the same count for the others' leads cut too rarely to pay);
* the side's guarded suits against the others' leads: when the side needs
  tricks and nobody else holds a trump, a suit where the side wins the
  ``j``-th lead by playing its highest card each time (a master is ``j = 1``,
  K-Q against the ace ``j = 2``) can be led at most ``j - 1`` times by the
  others, any other suit at most as often as the longest holding of it among
  them; keeping those ``j`` cards, the side's trick is sure when its other cards
  cover the leads of the other suits -- and once it has won it, the side is on
  lead with the masters it kept and cashes them, so it is sure of as many tricks
  as it kept masters; a suit that one of the others alone holds is never led when
  that seat is not on lead and its other cards lie in suits whose master the side
  keeps (it has no way to win a trick, no entry);
* the trump game: when the side (one seat) needs tricks and both teams hold
  trumps, a game that keeps only the trumps (the others take every trick without
  one, the side never ruffs while it holds another card) is searched on its own,
  keyed on the trumps' order and owners; tricks the side is sure of there are
  sure in the real game, and the answer depends only on the owners of the trumps
  at or above the lowest one that outranked another trump in a trick (this bound
  and the guarded suits are consulted where the tables have no answer, so that a
  table entry with fewer relevant cards answers first);
* the side's trumps and masters: when nobody else holds a trump and the side (one
  seat) holds one or is on lead, it loses a trick only by playing a card that is
  neither a trump nor a master, so it is sure of as many tricks as it holds of
  those;
* the suit game: when the side (one seat, not on lead) needs one or two tricks,
  holds at least as many masters and neither bound settles it (with fewer masters
  it proves nothing without a trump, and with trumps the searches cost more than
  they saved: the benchmark's means 4-5% lower), a game that keeps every seat's
  suit lengths and how many top cards of each plain suit the side holds (its
  masters), but no other rank, is searched on its own: a master wins unless one of
  the others ruffs it, any other trick goes to whichever of the others (or, where the side
  followed suit or ruffed, the side) the real game might give it to.  Tricks the
  side is sure of there are sure in the real game, whatever the ranks of its
  other cards, so the answer depends only on the suit lengths and the owners of
  the side's masters.  It proves the side's one trick from aces in side suits
  while the others hold trumps (a trick no other bound found: seed 7 position 20
  of the benchmark, 57 -> 6 ms).  Each question may search at most
  ``_SUIT_GAME_BUDGET`` positions of the suit game (no answer beyond), and it is
  asked only with at most ``_SUIT_GAME_TRICKS`` (5) tricks left: with more, its
  searches cost more than the search calls they saved (on ten of the benchmark's
  slowest positions, where it played 9,000-37,000 suit-game cards a position, 10%
  of the machine instructions, 3,756 -> 3,367 million; seed 7 position 20 takes
  5,065 search calls instead of 858 then, still far from the slowest);
* the answers of the bounds that read only the suit lengths and the side's cards
  (the side's trumps and masters, the guarded suits, the suit game) kept in a
  table of their own, keyed on every hand's suit lengths, the leader, the goal and
  the side's hand compressed to the cards left: a position that shares those with
  one met before (the others' cards dealt otherwise within their suits) costs one
  lookup instead of the bounds again (seed 5 position 314 of the benchmark asks
  the guarded suits 1,250 times for 410 different answers);
* once a card has been searched without a cut, a later card of the same seat
  and suit is skipped when both lie below every relevant rank of that suit in
  the answer: the two positions differ only in cards the answer does not
  depend on;
* a trick whose best card nobody still to play can beat settles at once a
  goal that only needs to know who wins it;
* move ordering: a card no opponent after can beat, then the cheapest winning
  card, then low losers -- low first when a later seat of the other team holds only
  cards above every card of the seat's in the suit (it overtakes whatever is
  played); low cards first when the seat's team takes the trick whatever it plays
  (a partner wins it and no opponent after can beat that card, or only partners
  play after and one of them can), else a partner's winning card is overtaken as an
  opponent's would be; the highest losing card when losing is the aim; the side
  cashes top cards first and discards from its longest suit first (seed 5 position
  314 of the benchmark, 85 -> 65 ms), the others lead first what the side cannot
  win: a plain suit where it holds no card above the lead, or where a seat playing
  after it holds a card above its best or can ruff, then such trump leads (seed 5
  position 326, the lead of a ten through the side's singleton queen to the king and
  ace behind it, 12,193 -> 2,894 search calls; seed 1 position 327, a plain lead
  before the others' trumps, 10,174 -> 4,119; seed 2 position 487, the jack of trumps
  second hand after the side's lead rather than the ace that nobody after could beat,
  since only partners play after, 10,859 -> 3,330);
* the last trick evaluated directly, and the last seat of a trick played by a
  function of its own (no decided-trick test);
* for the most tricks, null-window tests from a guess (the side's top cards
  less one, kept within the trump bounds) upwards or downwards, so a good
  guess costs one proof and one refutation;
* the cyclic garbage collector paused during a solve (the search makes no
  reference cycles), and the tables emptied when the solver is deleted;
* a deep search started from a frame that makes the interpreter begin a fresh
  chunk of its frame stack, so that the recursion never crosses the end of a
  chunk (each crossing allocated and released a chunk: 10-30% of a solve,
  depending on how deep the caller's stack happened to be).

Speed (``python benchmarks/double_dummy.py --target --positions 500 --seed S
--baseline 256ebfd``, seeds 1-8, on a machine shared with other work, load 5-9 on 2
cores): one seat's most tricks in a full 8-card, 4-hand position (32 cards) take
4.0-5.0 ms of CPU on average (256ebfd in the same runs: 5.2-7.1 ms), within the goal of
a mean of at most 10 ms.  The hardest of the 500 positions (the least CPU time of 4
runs) takes 41.0, 30.8, 39.5, 42.6, 69.0, 31.4, 41.9 and 50.1 ms on seeds 1-8 (256ebfd:
79.1, 57.0, 57.8, 105.3, 123.0, 169.9, 115.2 and 54.7 ms); so loaded a machine inflates
both, and the figures that do not depend on the load are in the benchmark's notes
(search calls over the 4,000 positions 6% fewer than before the lead and follow orders
above, the machine instructions of ten of the slowest positions 23% fewer).  Seed 5
position 314 is the hardest left (47-48 ms on a quiet machine): no trump, the side's one
trick from its clubs, which the others cannot stop only because they lack the entries to
lead the suits the side is void in; no bound here counts entries, and the search proves
it trick by trick in 14,472 search calls.

Examples
--------
>>> from games.boerenbridge import parse_cards
>>> from games.boerenbridge.double_dummy import Position, max_tricks, min_tricks, mask_of
>>> hands = [mask_of(parse_cards(h)) for h in ("AS 7S", "KS 8H", "QH 9H", "JH 10H")]
>>> pos = Position(hands, trump=None, leader=0)  # North leads, no trump
>>> max_tricks(pos, 0), min_tricks(pos, 0)  # AS drops the KS, or 7S ducks under it
(2, 0)
>>> max_tricks(pos, 2)  # South's hearts win only if North lets them
0
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.boerenbridge.rules import trick_winner
from games.errors import InvalidParameterError

__all__ = [
    "Position",
    "DoubleDummySolver",
    "mask_of",
    "max_tricks",
    "min_tricks",
    "can_force",
    "trick_counts",
]


def mask_of(cards: Iterable[int]) -> int:
    """The 32-bit mask of card ids."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# --------------------------------------------------------------- tables
def _build_tables() -> tuple[list[int], list[tuple[int, ...]], list[tuple[int, ...]]]:
    """``PEXT[R << 8 | h]`` compresses ``h`` to the rank order of ``R``;
    ``LOW[R << 8 | h]`` / ``HIGH[...]`` list the lowest / highest rank of each
    run of ``h`` that is adjacent within ``R`` (one move per equivalence class),
    ascending."""
    pext = [0] * 65536
    low: list[tuple[int, ...]] = [()] * 65536
    high: list[tuple[int, ...]] = [()] * 65536
    for r in range(256):
        bits = [b for b in range(8) if r >> b & 1]
        sub = r
        while True:
            h = sub
            comp = 0
            lows: list[int] = []
            highs: list[int] = []
            prev_in = False
            for i, b in enumerate(bits):
                inside = bool(h >> b & 1)
                if inside:
                    comp |= 1 << i
                    if prev_in:
                        highs[-1] = b
                    else:
                        lows.append(b)
                        highs.append(b)
                prev_in = inside
            idx = r << 8 | h
            pext[idx] = comp
            low[idx] = tuple(lows)
            high[idx] = tuple(highs)
            if sub == 0:
                break
            sub = (sub - 1) & r
    return pext, low, high


_PEXT, _LOW, _HIGH = _build_tables()
#: ``_TOPJ[R << 4 | j]``: the top ``j`` bits of the 8-bit mask ``R``.
_TOPJ = [0] * (256 << 4)
for _r in range(256):
    for _j in range(9):
        _m = 0
        _x = _r
        for _ in range(_j):
            if not _x:
                break
            _t = 1 << (_x.bit_length() - 1)
            _m |= _t
            _x ^= _t
        _TOPJ[_r << 4 | _j] = _m


#: ``_LONG_RUNS[R << 8 | h]``: the (lowest, highest) ranks of the runs of ``h``
#: adjacent within ``R`` that hold more than one card.
_LONG_RUNS: list[tuple[tuple[int, int], ...]] = [()] * 65536
#: ``_LOW_CARDS[s][R << 8 | h]``: the card ids of suit ``s`` of ``_LOW[R << 8 | h]``.
_LOW_CARDS: list[list[tuple[int, ...]]] = [[()] * 65536 for _ in range(4)]
for _i, _lows in enumerate(_LOW):
    if _lows:
        _LONG_RUNS[_i] = tuple((a, b) for a, b in zip(_lows, _HIGH[_i], strict=True) if b > a)
        for _s in range(4):
            _LOW_CARDS[_s][_i] = tuple(8 * _s + x for x in _lows)


#: ``_RUN_LOW[R << 8 | h]``, 4 bits for each rank ``t``: the lowest rank of the run of
#: ``h`` (adjacent within ``R``, more than one card) that holds ``t`` above its
#: lowest card, or 15.
_RUN_LOW = [0] * 65536
for _i, _runs in enumerate(_LONG_RUNS):
    if not _runs:
        _RUN_LOW[_i] = 0xFFFFFFFF
        continue
    _v = 0
    for _t in range(8):
        _x = 15
        for _a, _b in _runs:
            if _a < _t <= _b:
                _x = _a
        _v |= _x << (4 * _t)
    _RUN_LOW[_i] = _v
#: ``_REL_TOP[R << 8 | rb]`` for relevant cards ``rb`` of a suit whose cards left are
#: ``R``: how many cards of ``R`` lie at or above the lowest of ``rb``, and those top
#: bits of the suit compressed to the rank order of ``R`` (see ``_PEXT``).
_REL_TOP = [(0, 0)] * 65536
for _r in range(256):
    _ln = _r.bit_count()
    _sub = _r
    while _sub:
        _j = (_r >> ((_sub & -_sub).bit_length() - 1)).bit_count()
        _REL_TOP[_r << 8 | _sub] = (_j, ((1 << _ln) - 1) ^ ((1 << (_ln - _j)) - 1))
        _sub = (_sub - 1) & _r
#: ``_SKIP_BELOW[rb << 3 | r]``: the ranks below the lowest rank of ``rb`` (all eight
#: when ``rb`` is empty) if rank ``r`` lies below it too, else 0.
_SKIP_BELOW = [0] * 2048
for _rb in range(256):
    _t = (_rb & -_rb).bit_length() - 1 if _rb else 8
    for _r in range(8):
        _SKIP_BELOW[_rb << 3 | _r] = (1 << _t) - 1 if _r < _t else 0


def _build_trump_bound() -> list[tuple[int, int]]:
    """``_TRUMP_BOUND[A << 8 | B]`` for disjoint 8-bit trump masks: the tricks
    the trumps ``A`` of one hand take whatever happens when the trumps ``B`` are
    the others' that can beat them -- ``max_j (j - |B above A's j-th highest|)``
    -- and the bit of the lowest trump of ``A`` that the count looks at (0 when
    it is 0)."""
    table = [(0, 0)] * 65536
    for a in range(256):
        rest = 0xFF ^ a
        b = rest
        while True:
            best, bit = 0, 0
            j = 0
            for rank in range(7, -1, -1):
                if a >> rank & 1:
                    j += 1
                    v = j - (b >> (rank + 1)).bit_count()
                    if v > best:
                        best, bit = v, 1 << rank
            table[a << 8 | b] = (best, bit)
            if b == 0:
                break
            b = (b - 1) & rest
    return table


_TRUMP_BOUND = _build_trump_bound()
#: ``_NTH_BIT[u << 8 | 1 << k]``: the ``k``-th lowest bit of the 8-bit mask ``u`` (0 if
#: it has no such bit): a bit of a mask compressed to the order of ``u`` (see ``_PEXT``)
#: back in ``u``.
_NTH_BIT = [0] * 65536
for _u in range(256):
    _x = _u
    for _k in range(8):
        _NTH_BIT[_u << 8 | 1 << _k] = _x & -_x
        _x &= _x - 1
#: ``_LENS[x]``: the number of bits in each byte of the 16-bit ``x``, 4 bits each.
_LENS = [(x & 0xFF).bit_count() | (x >> 8).bit_count() << 4 for x in range(65536)]


def _build_guards() -> list[tuple[int, int]]:
    """``_GUARDS[A << 8 | B]`` for disjoint 8-bit masks of one suit, the side's ``A`` and
    the others' ``B`` (nobody ruffing): ``(j, bit)`` for the first ``j`` such that
    fewer than ``j`` cards of ``B`` lie above the ``j``-th highest card of ``A``, and
    that card's bit -- led ``j`` times, the suit gives the side a trick if it plays
    its highest card each time -- or ``(0, 0)`` when there is no such ``j``."""
    table = [(0, 0)] * 65536
    for a in range(1, 256):
        rest = 0xFF ^ a
        b = rest
        while True:
            j = 0
            for rank in range(7, -1, -1):
                if a >> rank & 1:
                    j += 1
                    if (b >> (rank + 1)).bit_count() < j:
                        table[a << 8 | b] = (j, 1 << rank)
                        break
            if b == 0:
                break
            b = (b - 1) & rest
    return table


_GUARDS = _build_guards()
#: ``_TOP_RUN[R << 8 | h]`` for ``h`` within the 8-bit mask ``R``: how many of the
#: highest cards of ``R`` lie in ``h`` one after another from the top, and the bit of
#: the lowest of them (0 when there is none).
_TOP_RUN = [(0, 0)] * 65536
for _r in range(256):
    _sub = _r
    while True:
        _k = _b = 0
        _x = _r
        while _x:
            _t = 1 << (_x.bit_length() - 1)
            if not _sub & _t:
                break
            _k += 1
            _b = _t
            _x ^= _t
        _TOP_RUN[_r << 8 | _sub] = (_k, _b)
        if not _sub:
            break
        _sub = (_sub - 1) & _r


@dataclass(frozen=True, slots=True)
class Position:
    """A trick-taking position with every hand open.

    Parameters
    ----------
    hands : sequence of int
        Each seat's remaining cards as a 32-bit mask (bit = card id).
    trump : int or None
        Trump suit (0 ♣, 1 ♦, 2 ♥, 3 ♠) or ``None``.
    leader : int
        Seat that leads (led) the current trick.
    trick : tuple of int
        Cards already played to the current trick, the lead first (they are
        no longer in the hands).
    """

    hands: tuple[int, ...]
    trump: int | None
    leader: int
    trick: tuple[int, ...] = ()

    def __init__(
        self,
        hands: Sequence[int],
        trump: int | None,
        leader: int,
        trick: Sequence[int] = (),
    ) -> None:
        object.__setattr__(self, "hands", tuple(int(h) for h in hands))
        object.__setattr__(self, "trump", trump)
        object.__setattr__(self, "leader", leader)
        object.__setattr__(self, "trick", tuple(trick))
        self._validate()

    def _validate(self) -> None:
        n = len(self.hands)
        if not 2 <= n <= 8:
            raise InvalidParameterError(f"a position has 2..8 hands, got {n}")
        if self.trump is not None and self.trump not in (0, 1, 2, 3):
            raise InvalidParameterError(f"trump {self.trump!r} is not a suit 0..3 or None")
        if not 0 <= self.leader < n:
            raise InvalidParameterError(f"leader {self.leader} is not a seat 0..{n - 1}")
        if len(self.trick) >= n:
            raise InvalidParameterError(f"a trick in progress has at most {n - 1} cards")
        seen = 0
        for seat, h in enumerate(self.hands):
            if h < 0 or h >> 32:
                raise InvalidParameterError(f"hand {seat} is not a 32-bit card mask")
            if h & seen:
                raise InvalidParameterError(f"hand {seat} shares cards with an earlier hand")
            seen |= h
        for c in self.trick:
            if not 0 <= c < 32 or seen >> c & 1:
                raise InvalidParameterError(f"trick card {c} is out of range or still in a hand")
            seen |= 1 << c
        sizes = [self.hands[(self.leader + i) % n].bit_count() for i in range(n)]
        k = len(self.trick)
        expect = [sizes[k] - (1 if i < k else 0) for i in range(n)]
        if sizes != expect:
            raise InvalidParameterError(
                f"hand sizes {[h.bit_count() for h in self.hands]} do not fit a trick "
                f"of {k} card(s) led by seat {self.leader}"
            )

    @property
    def remaining_tricks(self) -> int:
        """Tricks still to be completed, the one in progress included."""
        return self.hands[(self.leader + len(self.trick)) % len(self.hands)].bit_count()

    @property
    def to_play(self) -> int:
        """Seat whose card is next."""
        return (self.leader + len(self.trick)) % len(self.hands)

    def legal_cards(self) -> list[int]:
        """Cards the seat to play may play (following suit)."""
        h = self.hands[self.to_play]
        if self.trick:
            s = self.trick[0] >> 3
            f = h & (0xFF << (8 * s))
            if f:
                h = f
        out = []
        while h:
            low = h & -h
            out.append(low.bit_length() - 1)
            h ^= low
        return out

    def play(self, card: int) -> tuple[Position, int | None]:
        """The position after the seat to play plays ``card``, and the trick winner
        if the card completes a trick (``None`` otherwise)."""
        if card not in self.legal_cards():
            raise InvalidParameterError(f"card {card} is not a legal card for seat {self.to_play}")
        n = len(self.hands)
        p = self.to_play
        hands = list(self.hands)
        hands[p] &= ~(1 << card)
        trick = self.trick + (card,)
        if len(trick) < n:
            return Position(hands, self.trump, self.leader, trick), None
        w = (self.leader + trick_winner(trick, self.trump)) % n
        return Position(hands, self.trump, w, ()), w


class DoubleDummySolver:
    """Exact searches for one trump suit, number of seats and side.

    Keep one solver to answer many positions with the same trump and side:
    its transposition table is keyed on compressed positions, so it stays
    valid across positions and across different deals.

    Parameters
    ----------
    trump : int or None
        Trump suit or ``None``.
    players : int
        Number of seats.
    side : int or iterable of int
        The seat (or seats) whose tricks are counted; the others oppose it.
    max_entries : int
        The transposition table is cleared when it holds more buckets than this,
        and the table of exact positions met (with their goals) when it holds more
        positions than this.
    cooperative : bool
        Every seat plays for the goal: :meth:`can_force` then answers whether
        *some* legal play of the remaining cards gives the side a number of
        tricks in the interval.

    Examples
    --------
    >>> from games.boerenbridge import parse_cards
    >>> hands = [mask_of(parse_cards(h)) for h in ("AS 7H", "KS 8H", "QS 9H", "JS 10H")]
    >>> solver = DoubleDummySolver(trump=3, players=4, side=0)
    >>> pos = Position(hands, 3, leader=0)
    >>> solver.max_tricks(pos), solver.min_tricks(pos)
    (1, 1)
    >>> solver.can_force(pos, 1, 1)
    True
    """

    def __init__(
        self,
        trump: int | None,
        players: int,
        side: int | Iterable[int],
        max_entries: int = 2_000_000,
        cooperative: bool = False,
    ) -> None:
        if trump is not None and trump not in (0, 1, 2, 3):
            raise InvalidParameterError(f"trump {trump!r} is not a suit 0..3 or None")
        if not 2 <= players <= 8:
            raise InvalidParameterError(f"players={players} is not 2..8")
        seats = (side,) if isinstance(side, int) else tuple(side)
        for s in seats:
            if not 0 <= s < players:
                raise InvalidParameterError(f"side seat {s} is not a seat 0..{players - 1}")
        self.trump = trump
        self.players = players
        self.side = frozenset(seats)
        self._side_bits = sum(1 << s for s in self.side)
        self.cooperative = cooperative
        or_bits = (1 << players) - 1 if cooperative else self._side_bits
        self.max_entries = max_entries
        self._tt: dict[int, list[Any]] = {}
        self._seen: dict[tuple[int, ...], tuple[bool, int]] = {}
        self._lead_tt: dict[int, list[Any]] = {}
        self._trump_games: dict[int, int] = {}
        self._suit_games: dict[int, bool] = {}
        self._bounds: dict[tuple[int, int, int], tuple[int, ...] | None] = {}
        self._search = _make_search(
            trump,
            players,
            self._side_bits,
            or_bits,
            self._tt,
            self._seen,
            self._lead_tt,
            self._trump_games,
            self._suit_games,
            self._bounds,
        )

    # ------------------------------------------------------------ queries
    def _check(self, pos: Position) -> None:
        if pos.trump != self.trump or len(pos.hands) != self.players:
            raise InvalidParameterError(
                f"position (trump {pos.trump}, {len(pos.hands)} seats) does not match the "
                f"solver (trump {self.trump}, {self.players} seats)"
            )

    def can_force(self, pos: Position, low: int, high: int) -> bool:
        """Whether the side can make its number of the remaining tricks lie in
        ``[low, high]`` whatever the others play."""
        self._check(pos)
        return self._guarded(pos, self._solve, pos, low, high)

    def _guarded(self, pos: Position, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)``, the searches of the position ``pos``, with the cyclic
        collector paused and, for a deep search, above a frame that gives it a fresh
        chunk of the interpreter's frame stack (see :func:`_in_room`)."""
        deep = pos.remaining_tricks * self.players >= _ROOM_MIN_CARDS
        if not gc.isenabled():
            return _in_room(fn, *args) if deep else fn(*args)
        # the search allocates many small objects and makes no reference cycles:
        # the cyclic collector is paused meanwhile, so that its passes over the
        # whole heap do not land in the middle of a search
        gc.disable()
        try:
            return _in_room(fn, *args) if deep else fn(*args)
        finally:
            gc.enable()

    def _solve(self, pos: Position, low: int, high: int) -> bool:
        """:meth:`can_force` once the position is checked, the tables emptied when
        they hold too much."""
        if len(self._tt) > self.max_entries or len(self._lead_tt) > self.max_entries:
            self.clear()
        else:
            if len(self._seen) > self.max_entries:
                self._seen.clear()
            if len(self._trump_games) > self.max_entries:
                self._trump_games.clear()
            if len(self._suit_games) > self.max_entries:
                self._suit_games.clear()
            if len(self._bounds) > self.max_entries:
                self._bounds.clear()
        return self._root(pos, low, high)

    def max_tricks(self, pos: Position) -> int:
        """The most remaining tricks the side can force against the others.

        Null-window tests from a guess: the side's cards that no other card of
        their suit outranks, less one.  If the side can force one more than the
        guess the tests go up, else down; a guess one too low costs no extra
        test, and the answer takes one proof and one refutation.
        """
        self._check(pos)
        if pos.remaining_tricks == 0:
            return 0
        return int(self._guarded(pos, self._most, pos))

    def _most(self, pos: Position) -> int:
        """:meth:`max_tricks` once the position is checked."""
        rem = pos.remaining_tricks
        sure, most = self._trump_bounds(pos)
        g = max(sure, min(most, rem - 1, self._top_cards(pos) - 1))
        if self._solve(pos, g + 1, rem):
            t = g + 1
            while t < rem and self._solve(pos, t + 1, rem):
                t += 1
            return t
        t = g
        while t > 0 and not self._solve(pos, t, rem):
            t -= 1
        return t

    def _trump_bounds(self, pos: Position) -> tuple[int, int]:
        """The tricks the side's trumps take whatever happens, and the remaining
        tricks less those the others' trumps take (0 and all without trumps)."""
        rem = pos.remaining_tricks
        if self.trump is None or pos.trick:
            return 0, rem
        sh = 8 * self.trump
        mine = [(h >> sh) & 0xFF for q, h in enumerate(pos.hands) if q in self.side]
        theirs = [(h >> sh) & 0xFF for q, h in enumerate(pos.hands) if q not in self.side]
        side_all = sum(mine)  # disjoint masks
        others_all = sum(theirs)
        sure = max(_TRUMP_BOUND[t << 8 | others_all][0] for t in mine)
        lost = max(_TRUMP_BOUND[t << 8 | side_all][0] for t in theirs)
        return sure, rem - lost

    def _top_cards(self, pos: Position) -> int:
        """The side's cards that no other seat's card of the same suit outranks."""
        mine = others = 0
        for q, hq in enumerate(pos.hands):
            if q in self.side:
                mine |= hq
            else:
                others |= hq
        count = 0
        for sh in (0, 8, 16, 24):
            ms = (mine >> sh) & 0xFF
            above = (others >> sh) & 0xFF
            while ms:
                top = ms.bit_length() - 1
                if above >> top:
                    break
                count += 1
                ms ^= 1 << top
        return count

    def min_tricks(self, pos: Position) -> int:
        """The fewest remaining tricks the side can hold itself to against the others."""
        self._check(pos)
        return int(self._guarded(pos, self._fewest, pos))

    def _fewest(self, pos: Position) -> int:
        """:meth:`min_tricks` once the position is checked."""
        rem = pos.remaining_tricks
        t = 0
        while t < rem and not self._solve(pos, 0, t):
            t += 1
        return t

    def clear(self) -> None:
        """Empty the transposition table."""
        self._tt.clear()
        self._seen.clear()
        self._lead_tt.clear()
        self._trump_games.clear()
        self._suit_games.clear()
        self._bounds.clear()

    def __del__(self) -> None:
        # the search functions refer to each other, so they (and the tables they
        # hold) are freed only by the cyclic collector: empty the tables now
        if hasattr(self, "_lead_tt"):  # not a solver whose parameters were refused
            self.clear()

    # ------------------------------------------------------------- search
    def _root(self, pos: Position, low: int, high: int) -> bool:
        hands = list(pos.hands)
        n = self.players
        rem = pos.remaining_tricks
        force, middle, last = self._search[:3]
        table = mask_of(pos.trick)
        allc = table
        for h in hands:
            allc |= h
        if not pos.trick:
            return force(hands, pos.leader, low, high, rem, allc)[0]
        led = pos.trick[0] >> 3
        wi = trick_winner(pos.trick, self.trump)
        w, ws = pos.trick[wi], (pos.leader + wi) % n
        if len(pos.trick) == n - 1:
            return last(hands, pos.leader, led, w, ws, table, allc, low, high, rem)[0]
        k = len(pos.trick)
        return middle(hands, pos.leader, k, led, w, ws, table, allc, low, high, rem)[0]


def _in_room(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)``, called from a frame that leaves a deep search room above it.

    CPython keeps the frames of Python calls on a stack that grows in chunks (16 KiB
    at first) and gives a chunk back as soon as the first frame in it returns.  A
    search whose recursion reaches across the end of a chunk at one of its busy
    depths allocates and releases a chunk at every crossing: on 8-card positions
    that cost 10-30% of a solve, depending only on how deep the caller's own stack
    happened to be.  This function's frame is larger than a chunk (its code is given
    a large stack size that it never uses), so calling it starts a fresh chunk of
    128 KiB whose second half holds the search's frames: the search crosses no chunk
    boundary, whatever the caller.
    """
    return fn(*args)


#: Stack slots (8 bytes each) of :func:`_in_room`'s frame: more than 64 KiB, so
#: that the interpreter gives it a chunk of 128 KiB.
_ROOM_SLOTS = 8200
_in_room.__code__ = _in_room.__code__.replace(co_stacksize=_ROOM_SLOTS)
#: Positions of at least this many cards (remaining tricks times seats) are searched
#: through :func:`_in_room` (once for each question: every test of :meth:`max_tricks`
#: runs above the same frame); smaller ones have shallow searches of well under a
#: millisecond, to which a fresh chunk (about 30 us) would add more than it saves.
_ROOM_MIN_CARDS = 24


class _Spent(Exception):
    """The suit game searched more positions than its budget (no answer)."""


#: Most new positions one question to the suit game may search before it gives up
#: (no answer): a question it cannot settle costs at most this much.
_SUIT_GAME_BUDGET = 1000
#: The suit game is asked for at most this many tricks: for more it rarely settles
#: what the search does not, and its failures cost more than it saves.
_SUIT_GAME_MOST = 2
#: The suit game is asked only with at most this many tricks left: with more, its
#: searches (a few thousand positions of the suit game for a hard 8-card position)
#: cost more than the search calls they save.
_SUIT_GAME_TRICKS = 5


def _make_search(
    trump: int | None,
    n: int,
    side_bits: int,
    or_bits: int,
    tt: dict[int, list[Any]],
    seen: dict[tuple[int, ...], tuple[bool, int]],
    lead_tt: dict[int, list[Any]],
    trump_games: dict[int, int],
    suit_games: dict[int, bool],
    bounds: dict[tuple[int, int, int], tuple[int, ...] | None],
) -> Any:
    """The mutually recursive search functions as closures (fast local lookups).

    ``force(hands, leader, lo, hi, rem, allc)`` answers at a trick boundary
    whether the side can force its tricks among the ``rem`` left into
    ``[lo, hi]`` (``allc`` is every card left); ``lead`` plays the first card
    of a trick, ``middle(hands, leader, pos, ...)`` a later card but the last
    and ``last(...)`` the last card, which scores the trick and goes on at the
    next boundary.  All return ``(answer, rel)``:
    ``rel`` is a card mask of the cards whose rank decided the answer (cards
    that won a trick by outranking a card of their suit, and cards of
    equivalence runs that stand for each other).  The answer holds for every
    position with the same leader, the same number of cards of each suit in
    each hand, and the same owners of the cards at or above the lowest
    relevant card of each suit (the cards already played to the trick counting
    as their players') -- the transposition tables are keyed that way.
    Seats in ``or_bits`` choose their cards to reach the goal (the side, or
    everybody in a cooperative search); the others choose against it.
    ``hands`` is mutated and restored.
    """
    pext = _PEXT
    run_low = _RUN_LOW
    rel_top = _REL_TOP
    skip_below = _SKIP_BELOW
    topj = _TOPJ
    seat_lens = _LENS
    low_cards = _LOW_CARDS
    trump_bound = _TRUMP_BOUND
    guards = _GUARDS
    nth_bit = _NTH_BIT
    side_seats = tuple(q for q in range(n) if side_bits >> q & 1)
    opp_seats = tuple(q for q in range(n) if not side_bits >> q & 1)
    single = len(side_seats) == 1
    side_seat = side_seats[0] if side_seats else -1
    has_trump = trump is not None
    tsuit = trump if trump is not None else -1
    tmask = (0xFF << (8 * trump)) if trump is not None else 0
    tshift = 8 * trump if trump is not None else -1
    seats = tuple(range(n))
    width = 8 * n
    spread = sum(1 << (8 * i) for i in range(n))  # an 8-bit field once for each seat
    seat_at = tuple(tuple((lead + i) % n for i in range(n)) for lead in range(n))
    # the seats after the ``pos``-th card of a trick led by ``lead`` of the other team
    # than ``mine`` and of its own, at ``(lead * n + pos) << 1 | mine``
    opponents_after = tuple(
        tuple(q for q in seat_at[lead][pos + 1 :] if (side_bits >> q & 1) != mine)
        for lead in range(n)
        for pos in range(n)
        for mine in (0, 1)
    )
    partners_after = tuple(
        tuple(q for q in seat_at[lead][pos + 1 :] if (side_bits >> q & 1) == mine)
        for lead in range(n)
        for pos in range(n)
        for mine in (0, 1)
    )
    others_of = tuple(tuple(q for q in range(n) if q != p) for p in range(n))
    suit_shifts = (0, 8, 16, 24)
    SURE = 256  # the trump game's answer bit, above its eight trump bits
    plain_suits = tuple(s for s in range(4) if s != tsuit)
    plain_shifts = tuple(8 * s for s in plain_suits)
    ruff_first = ((tsuit,) if has_trump else ()) + plain_suits  # a void seat's suits
    top_run = _TOP_RUN
    budget = [0]
    # the side's bytes of a description (see describe): its hand compressed, suit by suit
    side_field = 0
    if single:
        for s in range(4):
            side_field |= 0xFF << (width * (3 - s) + 8 * (n - 1 - side_seat))

    def longest(hands: list[int], among: tuple[int, ...], sh: int) -> int:
        """The longest holding among the seats ``among`` of the suit at bit ``sh``."""
        most = 0
        for q in among:
            ln = ((hands[q] >> sh) & 0xFF).bit_count()
            if ln > most:
                most = ln
        return most

    def quick(hands: list[int], leader: int, allc: int) -> tuple[int, int]:
        """Tricks ``leader`` can cash from the top keeping the lead, whatever the
        others do, and the cards that count doing it."""
        h = hands[leader]
        others_trump = False
        if has_trump:
            for p in seats:
                if p != leader and hands[p] & tmask:
                    others_trump = True
                    break
        q = 0
        rel = 0
        for sh in suit_shifts:
            ls = (h >> sh) & 0xFF
            if not ls:
                continue
            rs = (allc >> sh) & 0xFF
            k = 0
            x = rs
            while x:
                t = 1 << (x.bit_length() - 1)
                if not ls & t:
                    break
                k += 1
                x ^= t
            if not k:
                continue
            rel |= topj[rs << 4 | k] << sh
            if sh == tshift:
                q += k
                continue
            if not others_trump:
                q += ls.bit_count() if longest(hands, others_of[leader], sh) <= k else k
            else:
                lim = k
                for p in seats:
                    if p != leader and hands[p] & tmask:
                        ln = ((hands[p] >> sh) & 0xFF).bit_count()
                        if ln < lim:
                            lim = ln
                q += lim
        return q, rel

    def describe_any(hands: list[int], allc: int, leader: int) -> tuple[int, int]:
        """The compressed suits (8 bits a hand and suit, suit by suit) and the
        bucket key: the leader and every hand's suit lengths."""
        full = 0
        lens = leader
        for sh in suit_shifts:
            r = ((allc >> sh) & 0xFF) << 8
            for h in hands:
                c = pext[r | ((h >> sh) & 0xFF)]
                full = (full << 8) | c
                lens = (lens << 4) | c.bit_count()
        return full, lens

    def describe_4(hands: list[int], allc: int, leader: int) -> tuple[int, int]:
        """:func:`describe_any` written out for four hands (the common case), each suit's
        32 bits and each pair of seats' lengths put together before the long shifts."""
        h0, h1, h2, h3 = hands
        r = (allc & 0xFF) << 8
        w0 = (
            pext[r | (h0 & 0xFF)] << 24
            | pext[r | (h1 & 0xFF)] << 16
            | pext[r | (h2 & 0xFF)] << 8
            | pext[r | (h3 & 0xFF)]
        )
        r = allc & 0xFF00
        w1 = (
            pext[r | (h0 >> 8 & 0xFF)] << 24
            | pext[r | (h1 >> 8 & 0xFF)] << 16
            | pext[r | (h2 >> 8 & 0xFF)] << 8
            | pext[r | (h3 >> 8 & 0xFF)]
        )
        r = allc >> 8 & 0xFF00
        w2 = (
            pext[r | (h0 >> 16 & 0xFF)] << 24
            | pext[r | (h1 >> 16 & 0xFF)] << 16
            | pext[r | (h2 >> 16 & 0xFF)] << 8
            | pext[r | (h3 >> 16 & 0xFF)]
        )
        r = allc >> 16 & 0xFF00
        w3 = (
            pext[r | (h0 >> 24)] << 24
            | pext[r | (h1 >> 24)] << 16
            | pext[r | (h2 >> 24)] << 8
            | pext[r | (h3 >> 24)]
        )
        a = (seat_lens[h0 & 0xFFFF] | seat_lens[h0 >> 16] << 8) << 16
        a |= seat_lens[h1 & 0xFFFF] | seat_lens[h1 >> 16] << 8
        b = (seat_lens[h2 & 0xFFFF] | seat_lens[h2 >> 16] << 8) << 16
        b |= seat_lens[h3 & 0xFFFF] | seat_lens[h3 >> 16] << 8
        return (w0 << 32 | w1) << 64 | (w2 << 32 | w3), (a << 32 | b) << 3 | leader

    describe = describe_4 if n == 4 else describe_any

    def masters(hands: list[int], allc: int, rem: int, lo: int, leader: int) -> tuple[int, int]:
        """The tricks the side (one seat) is sure of against the others' leads, with
        the relevant cards, or ``(0, 0)``: no other seat holds a trump, and the others
        cannot lead every trick in suits where the side does not win a trick.

        Say the side *guards* a suit when, playing its highest card of the suit each
        time the suit is led, it wins the ``j``-th lead for some ``j`` up to its
        length: the others hold fewer than ``j`` cards above its ``j``-th highest
        card (``_GUARDS``; a master is ``j == 1``).  While the side takes no trick the
        others lead every trick and win each lead of a guarded suit with a card of it
        above the side's (nobody can ruff): such a card is spent each time, so they
        lead the suit at most ``j - 1`` times.  A suit not counted as guarded can be
        led at most as often as the longest holding of it among the others (each lead
        takes a card of it from every other seat that holds it).  The side keeps the
        ``j`` highest cards of each counted guarded suit for its leads and plays its
        other ``spare`` cards on the other suits' leads (following suit or
        discarding); the others then win at most ``room + sum(j - 1)`` tricks, where
        ``room`` adds up the longest holdings of the suits not counted.  If
        ``room <= spare``, that is fewer than ``rem`` tricks: the side's trick is
        sure.  Each guarded suit is counted when that lowers ``room + sum(j)`` (when
        ``j`` is below the longest holding); at least one must be.  The answer depends
        on the suit lengths (the table's keys) and on the owners of the cards at or
        above the ``j``-th card of each counted suit: those cards are the relevant
        ones.

        Then the side wins a trick, and holds the masters it kept for the counted
        suits with ``j == 1`` but perhaps the one that won it: on lead, it cashes them
        (nobody can beat or ruff them).  So it is sure of as many tricks as it kept
        masters, and of one at least.  For a goal of ``lo`` tricks, suits with a
        master that the rule above leaves out are counted too, the cheapest first
        (each adds ``1 - longest`` to ``room + sum(j)``), while the side keeps fewer
        than ``lo`` masters and the sum stays within ``rem``.

        Entries: a suit not counted that one of the others alone holds is led only
        from that seat.  When all its other cards lie in counted suits with
        ``j == 1`` it never wins a trick while the side takes none (on a lead of
        those suits the side plays the master), so, if it is not on lead now, the
        suit is never led and adds nothing to ``room`` (nor is it counted as a
        master afterwards).  This depends only on the suit lengths and the counted
        masters, which are relevant already.
        """
        hs = hands[side_seat]
        others = allc ^ hs
        if has_trump and others & tmask:
            return 0, 0
        if lo > 1:
            # more than one trick needs as many masters
            tops = 0
            for sh in suit_shifts:
                if ((hs >> sh) & 0xFF).bit_length() == ((allc >> sh) & 0xFF).bit_length() > 0:
                    tops += 1
            if tops < lo:
                return 0, 0
        total = 0  # room + the kept cards, the guarded suits counted as chosen
        rel = 0
        kept = 0  # the masters kept (counted suits with j == 1)
        spare_d = 8
        spare_bit = spare_j = spare_sh = 0
        extra_masters = []  # (cost, bit) of the masters not counted yet
        held1 = 0  # every card of the counted suits with j == 1
        loose = []  # (shift, longest) of the suits not counted
        for sh in suit_shifts:
            rs = (allc >> sh) & 0xFF
            if not rs:
                continue
            ln = longest(hands, opp_seats, sh)
            total += ln
            j, bit = guards[((hs >> sh) & 0xFF) << 8 | ((others >> sh) & 0xFF)]
            if j and j < ln:
                total += j - ln
                rel |= bit << sh
                if j == 1:
                    kept += 1
                    held1 |= 0xFF << sh
                continue
            if j:
                if j - ln < spare_d:
                    spare_d, spare_bit, spare_j, spare_sh = j - ln, bit << sh, j, sh
                if j == 1:
                    extra_masters.append((1 - ln, bit << sh))
            if ln:
                loose.append((sh, ln))
        if not rel:
            if not spare_bit:
                return 0, 0
            total += spare_d
            rel = spare_bit
            kept = 1 if spare_j == 1 else 0
            if kept:
                held1 = 0xFF << spare_sh
        dropped = 0  # the suits left out so (never counted as masters after)
        if total > rem and held1:
            # entries: a suit not counted that one other seat alone holds is led only
            # by that seat; if all its other cards lie in counted suits with j == 1
            # it never wins a trick (the side plays those suits' masters), so, not
            # on lead now, it never leads that suit
            for sh, ln in loose:
                if rel >> sh & 0xFF:
                    continue  # the suit counted as the spare one
                holder = -1
                for q in opp_seats:
                    if (hands[q] >> sh) & 0xFF:
                        if holder >= 0:
                            break
                        holder = q
                else:
                    if holder != leader and not hands[holder] & ~(held1 | 0xFF << sh):
                        total -= ln
                        dropped |= 0xFF << sh
        if total > rem:
            return 0, 0
        if kept < lo and extra_masters:
            extra_masters.sort()
            for d, b in extra_masters:
                if kept >= lo or total + d > rem:
                    break
                if not (rel | dropped) & b:
                    total += d
                    rel |= b
                    kept += 1
        return (kept if kept > 1 else 1), rel

    def trump_game(tr: list[int], rem: int, leader: int, need: int) -> int:
        """Whether the side (one seat) is sure of ``need`` tricks in the *trump game* of
        the trump masks ``tr`` (one a seat), ``rem`` cards a hand and ``leader`` on
        lead: ``SURE`` (256) if it is, or-ed with the bit of the lowest trump whose rank
        counts in the answer (none when no rank does).

        The trump game keeps the trumps and counts every other card as a plain card:
        a trick without a trump goes to the others, and any seat may lead the next one
        (any of the others when one trick is all the side needs); on a plain lead the
        side plays a plain card while it holds one, and the others play a trump or a
        plain card as they like; a trump lead is followed with a trump by every seat
        that holds one.  The others' play in the real game is legal there, and so is
        the side's when it never ruffs while it holds a plain card (discarding one
        instead); the same trumps win the same tricks, and a trick without a trump
        that the side wins in the real game only adds to its count (when the side
        needs one trick, that trick is all it needs).  So tricks the side is sure of
        in the trump game are sure in the real game.

        The answer depends on the number of trumps and cards of each hand, the leader
        and the owners of the trumps at or above the lowest trump that outranked
        another trump in a trick on the way (partition search, as in the real game:
        lower trumps only ever ruff or follow, whoever holds which).  It is kept in
        ``trump_games``, the trumps compressed to their order.
        """
        u = 0
        for t in tr:
            u |= t
        key = (need << 5 | rem) << 3 | leader
        for t in tr:
            key = key << 8 | pext[u << 8 | t]
        got = trump_games.get(key)
        if got is None:
            got = trump_games[key] = trump_trick(
                [pext[u << 8 | t] for t in tr], rem, leader, need, 0, False, 0, -1, 0
            )
        if not got & 0xFF:
            return got
        # the lowest relevant trump, from its place in the order back to its own bit
        return (got & SURE) | nth_bit[u << 8 | (got & -got)]

    def trump_trick(
        tr: list[int],
        rem: int,
        leader: int,
        need: int,
        i: int,
        led: bool,
        best: int,
        bseat: int,
        cnt: int,
    ) -> int:
        """The trump game from the ``i``-th card of a trick (``led``: a trump was led;
        ``best`` the highest trump played to it, by ``bseat``, or 0; ``cnt`` the trumps
        played to it): ``SURE`` (256) if the side is sure of its tricks, or-ed with the
        trumps whose rank counts in the answer (a mask whose lowest bit is the lowest
        such trump)."""
        if i == n:
            # the winner outranked another trump of the trick: its rank counts
            wrel = best if cnt > 1 else 0
            if best:
                if bseat == side_seat:
                    if need == 1:
                        return SURE | wrel
                    return trump_game(tr, rem - 1, bseat, need - 1) | wrel
                if rem <= need:
                    return wrel
                return trump_game(tr, rem - 1, bseat, need) | wrel
            if rem <= need:
                return 0
            acc = SURE
            for q in opp_seats if need == 1 else seats:
                v = trump_game(tr, rem - 1, q, need)
                if v < SURE:
                    return v
                acc |= v
            return acc
        p = seat_at[leader][i]
        t = tr[p]
        plain = rem > t.bit_count()
        if p == side_seat:
            # a trump that beats the trick so far first, the lowest such, then low trumps
            if i and (plain if not led else not t):
                return trump_trick(tr, rem, leader, need, i + 1, led, best, bseat, cnt)
            acc = 0
            x = t
            low = []
            while x:
                b = x & -x
                x ^= b
                if b > best:
                    tr[p] = t ^ b
                    v = trump_trick(tr, rem, leader, need, i + 1, led or not i, b, p, cnt + 1)
                    tr[p] = t
                    if v >= SURE:
                        return v
                    acc |= v
                else:
                    low.append(b)
            for b in low:
                tr[p] = t ^ b
                v = trump_trick(tr, rem, leader, need, i + 1, led, best, bseat, cnt + 1)
                tr[p] = t
                if v >= SURE:
                    return v
                acc |= v
            if i == 0 and plain:
                return trump_trick(tr, rem, leader, need, 1, False, 0, -1, 0) | acc
            return acc
        # the others: a plain card first (unless a trump must follow a trump lead),
        # then their trumps from the lowest
        acc = SURE
        if not t or (plain and not led):
            v = trump_trick(tr, rem, leader, need, i + 1, led, best, bseat, cnt)
            if v < SURE or not t:
                return v
            acc = v
        x = t
        while x:
            b = x & -x
            x ^= b
            tr[p] = t ^ b
            if b > best:
                v = trump_trick(tr, rem, leader, need, i + 1, led or not i, b, p, cnt + 1)
            else:
                v = trump_trick(tr, rem, leader, need, i + 1, led, best, bseat, cnt + 1)
            tr[p] = t
            if v < SURE:
                return v
            acc |= v
        return acc

    def trumps_and_masters(hands: list[int], allc: int, leader: int) -> tuple[int, int]:
        """The tricks the side (one seat) is sure of when nobody else holds a trump, and
        the relevant cards: its trumps and its masters (the top cards of each plain suit
        that it holds one after another), when it holds a trump or is on lead, else 0.

        Nobody can ruff, so a master the side plays wins, and so does a trump.  The
        side plays a master whenever the led suit is one of them, ruffs whenever it
        cannot follow (with a trump left), and on lead cashes its masters and trumps:
        it loses a trick only by playing one of its other cards, so it wins at least
        as many tricks as it holds trumps and masters.  Without a trump, not on lead,
        the others may make it discard masters (the guarded suits are the bound
        then).  The answer depends on the suit lengths and the owners of the masters.
        """
        hs = hands[side_seat]
        t = ((hs >> tshift) & 0xFF).bit_count()
        if (not t and leader != side_seat) or (allc ^ hs) & tmask:
            return 0, 0
        tops, rel = side_masters(hs, allc)
        return t + (tops & 15) + (tops >> 4 & 15) + (tops >> 8 & 15) + (tops >> 12), rel

    def side_masters(hs: int, allc: int) -> tuple[int, int]:
        """The side's masters (its hand ``hs``): how many top cards of each plain suit it
        holds one after another, 4 bits a suit, and the lowest of them in each suit."""
        tops = rel = 0
        for sh in plain_shifts:
            k, bit = top_run[((allc >> sh) & 0xFF) << 8 | ((hs >> sh) & 0xFF)]
            tops |= k << (sh >> 1)
            rel |= bit << sh
        return tops, rel

    def suit_game(
        hands: list[int], allc: int, rem: int, leader: int, need: int
    ) -> tuple[bool, int]:
        """Whether the side (one seat) is sure of ``need`` tricks in the *suit game* of
        the position, and the relevant cards of the answer (the side's masters).

        The suit game keeps every seat's suit lengths and, for each plain suit, how
        many of its top cards the side holds (its masters there); the other cards are
        told apart only by suit.  The side plays its highest card of a suit (a master)
        or its lowest.  A master wins its trick unless one of the others ruffs it, and
        a master led or followed that nobody ruffs wins; a trick with a ruff of the
        others, or where the side played no master, goes to one of the others that
        ruffed (else that followed suit), any of them, and may also go to the side when
        it followed suit or ruffed (its low cards and trumps are not ranked), unless
        nobody else could win it.  Every outcome of a trick in the real game is one of
        these, so a strategy that gives the side ``need`` tricks whatever the others do
        and whichever outcome comes there gives it as many in the real game.

        The answer depends on the suit lengths (the tables' keys) and on the owners of
        the side's masters: positions that share those give the side at least as many
        masters, each playable as a low card.  It is kept in ``suit_games``.
        """
        state = 0
        for q in seats:
            h = hands[q]
            state |= (seat_lens[h & 0xFFFF] | seat_lens[h >> 16] << 8) << (16 * q)
        tops, rel = side_masters(hands[side_seat], allc)
        if (tops & 15) + (tops >> 4 & 15) + (tops >> 8 & 15) + (tops >> 12) < need:
            # fewer masters than tricks: without a trump the suit game gives the side
            # a sure trick only with a master (a low card wins only where nobody else
            # holds the suit, and then it is a master); with trumps its ruffs may add
            # some, but searching for them cost more than they saved
            return False, 0
        budget[0] = _SUIT_GAME_BUDGET
        try:
            return sg_boundary(state, tops, leader, rem, need), rel
        except _Spent:
            return False, 0

    def sg_boundary(state: int, tops: int, leader: int, rem: int, need: int) -> bool:
        """The suit game at a trick boundary: ``state`` holds the suit lengths, 4 bits
        for each suit of each seat (16 bits a seat), ``tops`` the side's masters, 4 bits
        a suit, and the side needs ``need`` more tricks."""
        if need > rem:
            return False
        key = ((state << 16 | tops) << 4 | need) << 3 | leader
        got = suit_games.get(key)
        if got is None:
            budget[0] -= 1
            if budget[0] < 0:
                raise _Spent
            got = suit_games[key] = sg_trick(state, tops, leader, rem, need, 0, 0, 0, 0, 0)
        return got

    def sg_won(state: int, tops: int, rem: int, need: int) -> bool:
        """The side has won the trick just played."""
        return need == 1 or sg_boundary(state, tops, side_seat, rem - 1, need - 1)

    def sg_trick(
        state: int,
        tops: int,
        leader: int,
        rem: int,
        need: int,
        i: int,
        led: int,
        how: int,
        followers: int,
        ruffers: int,
    ) -> bool:
        """The suit game from the ``i``-th card of a trick: ``led`` is the led suit,
        ``how`` what the side played (0 not yet or a discard, 1 a master of the led
        suit, 2 a low card of it, 3 a trump on a plain lead), ``followers`` the others
        that played the led suit and ``ruffers`` those that ruffed."""
        if i == n:
            if ruffers:
                if how == 3 and not sg_won(state, tops, rem, need):
                    return False  # the side's trump may be the highest
                followers = ruffers
            elif how == 1 or how == 3 or (how == 2 and not followers):
                return sg_won(state, tops, rem, need)
            elif how == 2 and not sg_won(state, tops, rem, need):
                return False  # the side's low card may be the highest
            for q in opp_seats:
                if followers >> q & 1 and not sg_boundary(state, tops, q, rem - 1, need):
                    return False
            return True
        p = seat_at[leader][i]
        base = 16 * p
        nxt = i + 1
        if p == side_seat:
            if i == 0:
                # on lead: a master first, else the lowest card of a suit
                for k in (1, 0):
                    for s in (0, 1, 2, 3):
                        ln = (state >> (base + 4 * s)) & 15
                        if not ln:
                            continue
                        m = (tops >> (4 * s)) & 15
                        if k and m:
                            if sg_trick(
                                state - (1 << (base + 4 * s)),
                                tops - (1 << (4 * s)),
                                leader,
                                rem,
                                need,
                                1,
                                s,
                                1,
                                0,
                                0,
                            ):
                                return True
                        elif not k and ln > m:
                            if sg_trick(
                                state - (1 << (base + 4 * s)),
                                tops,
                                leader,
                                rem,
                                need,
                                1,
                                s,
                                2,
                                0,
                                0,
                            ):
                                return True
                return False
            one = 1 << (base + 4 * led)
            ln = (state >> (base + 4 * led)) & 15
            if ln:
                # follow with a master (the highest card) or with the lowest card
                k = (tops >> (4 * led)) & 15
                if k and sg_trick(
                    state - one,
                    tops - (1 << (4 * led)),
                    leader,
                    rem,
                    need,
                    nxt,
                    led,
                    1,
                    followers,
                    ruffers,
                ):
                    return True
                if ln > k:
                    return sg_trick(
                        state - one, tops, leader, rem, need, nxt, led, 2, followers, ruffers
                    )
                return False
            # void in the led suit: the lowest card of a suit (a master if it has no
            # other), a trump being a ruff
            for s in (0, 1, 2, 3):
                ln = (state >> (base + 4 * s)) & 15
                if ln:
                    t2 = tops - (1 << (4 * s)) if ln == (tops >> (4 * s)) & 15 else tops
                    if sg_trick(
                        state - (1 << (base + 4 * s)),
                        t2,
                        leader,
                        rem,
                        need,
                        nxt,
                        led,
                        3 if s == tsuit else 0,
                        followers,
                        ruffers,
                    ):
                        return True
            return False
        # one of the others: every card it may play must leave the side its tricks
        # (what most likely takes the trick from the side first)
        bit = 1 << p
        if i == 0:
            # suits where the side holds no master first
            for k in (0, 1):
                for s in (0, 1, 2, 3):
                    if (state >> (base + 4 * s)) & 15 and (((tops >> (4 * s)) & 15) > 0) == k:
                        if not sg_trick(
                            state - (1 << (base + 4 * s)), tops, leader, rem, need, 1, s, 0, bit, 0
                        ):
                            return False
            return True
        if (state >> (base + 4 * led)) & 15:
            return sg_trick(
                state - (1 << (base + 4 * led)),
                tops,
                leader,
                rem,
                need,
                nxt,
                led,
                how,
                followers | bit,
                ruffers,
            )
        # void: a ruff first, then the other suits
        for s in ruff_first:
            if (state >> (base + 4 * s)) & 15 and not sg_trick(
                state - (1 << (base + 4 * s)),
                tops,
                leader,
                rem,
                need,
                nxt,
                led,
                how,
                followers,
                ruffers | bit if s == tsuit else ruffers,
            ):
                return False
        return True

    def side_bounds(hands: list[int], allc: int, rem: int, leader: int, lo: int) -> int:
        """The relevant cards of a proof that the side (one seat) is sure of ``lo``
        tricks by the bounds that read only the suit lengths and the side's cards (the
        trumps and masters, the guarded suits, the suit game), or -1 if none proves it."""
        if not (has_trump and (allc ^ hands[side_seat]) & tmask):
            if has_trump:
                # nobody else holds a trump: with a trump (or on lead) the side loses a
                # trick only by playing a card that is neither a trump nor a master
                sure, mrel = trumps_and_masters(hands, allc, leader)
                if lo <= sure:
                    return mrel
            if not side_bits >> leader & 1:
                sure, mrel = masters(hands, allc, rem, lo, leader)
                if lo <= sure:
                    return mrel
        if lo <= _SUIT_GAME_MOST and rem <= _SUIT_GAME_TRICKS and not side_bits >> leader & 1:
            # the suit game, where the bounds above did not settle it
            ok, srel = suit_game(hands, allc, rem, leader, lo)
            if ok:
                return srel
        return -1

    def force(
        hands: list[int], leader: int, lo: int, hi: int, rem: int, allc: int
    ) -> tuple[bool, int]:
        if lo < 0:
            lo = 0
        if hi > rem:
            hi = rem
        if lo > hi:
            return False, 0
        if lo == 0 and hi == rem:
            return True, 0
        if rem == 1:
            row = seat_at[leader]
            bc = hands[leader].bit_length() - 1
            best = leader
            same = 0
            for i in range(1, n):
                p = row[i]
                c = hands[p].bit_length() - 1
                if (c >> 3) == (bc >> 3):
                    same = 1
                    if c > bc:
                        best, bc = p, c
                elif (c >> 3) == tsuit:
                    best, bc = p, c
                    same = 0
            if same:
                # did the winner outrank a card of its own suit?
                same = 0
                for p in seats:
                    if p != best and (hands[p].bit_length() - 1) >> 3 == bc >> 3:
                        same = 1
                        break
            x = side_bits >> best & 1
            return lo <= x <= hi, (1 << bc) if same else 0
        # a position met before with the same goal: its answer and relevant cards
        key = (*hands, leader << 8 | lo << 4 | hi)
        known = seen.get(key)
        if known is not None:
            return known
        extra = 0
        if has_trump and (allc >> tshift) & 0xFF:
            # trump tricks both ways: each trump wins its trick unless a higher
            # trump of the other team falls on it, and each such trump does so once
            if single:
                st = (hands[side_seat] >> tshift) & 0xFF
                sure, b = trump_bound[st << 8 | ((allc >> tshift) & 0xFF ^ st)]
            else:
                st = 0
                for q in side_seats:
                    st |= hands[q]
                st = (st >> tshift) & 0xFF
                sure = b = 0
                ot = (allc >> tshift) & 0xFF ^ st
                for q in side_seats:
                    v, bq = trump_bound[((hands[q] >> tshift) & 0xFF) << 8 | ot]
                    if v > sure:
                        sure, b = v, bq
            if sure > hi:
                return False, b << tshift
            if lo and sure >= lo:
                if hi == rem:
                    return True, b << tshift
                lo = 0
                extra = b << tshift
            # the others' count matters only if it can reach the goal's bounds
            if hi < rem or lo > rem - ((allc >> tshift) & 0xFF ^ st).bit_count():
                lost = lb = 0
                for q in opp_seats:
                    v, bq = trump_bound[((hands[q] >> tshift) & 0xFF) << 8 | st]
                    if v > lost:
                        lost, lb = v, bq
                if rem - lost < lo:
                    return False, lb << tshift
                if hi < rem and rem - lost <= hi:
                    hi = rem
                    extra |= lb << tshift
                if extra and lo == 0 and hi == rem:
                    return True, extra
        # the position's description: compressed suits and suit lengths
        full, lens = describe(hands, allc, leader)
        kind = 0 if hi == rem else (1 if lo == 0 else 2)
        bucket = tt.get(lens)
        if bucket is None:
            bucket = []
            tt[lens] = bucket
        else:
            for e in bucket:
                if full & e[0] == e[1]:
                    dec = -1
                    if kind == 0:
                        if e[2] >= lo:
                            dec = 1
                        elif e[3] < lo:
                            dec = 0
                    elif kind == 1:
                        if e[5] <= hi:
                            dec = 1
                        elif e[4] > hi:
                            dec = 0
                    elif e[3] < lo or e[4] > hi:
                        dec = 0
                    elif e[6] is not None:
                        # forcing an interval forces every wider one; failing, every narrower
                        for a, b, ok in e[6]:
                            if ok:
                                if lo <= a and b <= hi:
                                    dec = 1
                                    break
                            elif a <= lo and hi <= b:
                                dec = 0
                                break
                    if dec >= 0:
                        seen[key] = known = (dec == 1, extra | top_rel(allc, e[7]))
                        return known
        if lo and hi == rem and single:
            if has_trump and (allc ^ hands[side_seat]) & tmask:
                # the others hold trumps: the trump game, if the side holds enough
                if lo <= ((hands[side_seat] >> tshift) & 0xFF).bit_count():
                    v = trump_game([(h >> tshift) & 0xFF for h in hands], rem, leader, lo)
                    if v >= SURE:
                        seen[key] = known = (True, (v & 0xFF) << tshift | extra)
                        return known
            if not side_bits >> leader & 1 or (has_trump and not (allc ^ hands[side_seat]) & tmask):
                # the bounds below depend only on the suit lengths and the side's cards
                # among the cards left: their answer is kept under those
                bkey = (lens, full & side_field, lo)
                if bkey in bounds:
                    jt = bounds[bkey]
                else:
                    brel = side_bounds(hands, allc, rem, leader, lo)
                    jt = bounds[bkey] = None if brel < 0 else relevance(allc, brel)[1]
                if jt is not None:
                    seen[key] = known = (True, top_rel(allc, jt) | extra)
                    return known
        if lo > 0 and kind == 0 and side_bits >> leader & 1:
            q, qrel = quick(hands, leader, allc)
            if q >= lo:
                seen[key] = known = (True, qrel | extra)
                return known
        result, rel = lead(hands, leader, allc, lo, hi, rem, full, lens)
        # store under the relevant part of the position
        relm, jt = relevance(allc, rel)
        pattern = full & relm
        for e in bucket:
            if e[0] == relm and e[1] == pattern:
                break
        else:
            e = [relm, pattern, 0, rem, 0, rem, None, jt]
            bucket.append(e)
        if result:
            if lo > e[2]:
                e[2] = lo
            if hi < e[5]:
                e[5] = hi
        elif kind == 0:
            if lo - 1 < e[3]:
                e[3] = lo - 1
        elif kind == 1:
            if hi + 1 > e[4]:
                e[4] = hi + 1
        if kind == 2:
            if e[6] is None:
                e[6] = []
            e[6].append((lo, hi, result))
        seen[key] = known = (result, rel | extra)
        return known

    def relevance(allc: int, rel: int) -> tuple[int, tuple[int, ...]]:
        """The mask of the relevant part of a description (the cards at or above
        the lowest relevant card of each suit, for every seat) and the number of
        those cards in each suit."""
        rs = allc & 0xFF
        j0, m0 = rel_top[rs << 8 | (rel & rs)]
        rs = (allc >> 8) & 0xFF
        j1, m1 = rel_top[rs << 8 | ((rel >> 8) & rs)]
        rs = (allc >> 16) & 0xFF
        j2, m2 = rel_top[rs << 8 | ((rel >> 16) & rs)]
        rs = allc >> 24
        j3, m3 = rel_top[rs << 8 | ((rel >> 24) & rs)]
        # each suit's field first, then the long shifts (fewer operations on long ints)
        high = (m0 * spread) << width | m1 * spread
        low = (m2 * spread) << width | m3 * spread
        return high << (2 * width) | low, (j0, j1, j2, j3)

    def top_rel(allc: int, jt: tuple[int, ...]) -> int:
        """The relevant cards of a table entry: the top ``jt[i]`` cards of suit ``i``."""
        j0, j1, j2, j3 = jt
        return (
            topj[(allc & 0xFF) << 4 | j0]
            | topj[((allc >> 8) & 0xFF) << 4 | j1] << 8
            | topj[((allc >> 16) & 0xFF) << 4 | j2] << 16
            | topj[(allc >> 24) << 4 | j3] << 24
        )

    def run_rel(acc: int, h: int, allc: int, suits: tuple[int, ...]) -> int:
        """The relevant cards ``acc`` of a node where every move was needed, with
        the runs of equivalent cards that one card stood for (in ``suits``, the
        suits where a run holds more than one card) relevant down to their lowest
        card when the lowest relevant card of the suit lies inside them."""
        if not acc:
            return 0
        extra = acc
        for sh in suits:
            rb = (acc >> sh) & 0xFF
            if rb:
                idx = (((allc >> sh) & 0xFF) << 8) | ((h >> sh) & 0xFF)
                x = run_low[idx] >> (4 * ((rb & -rb).bit_length() - 1)) & 15
                if x < 8:
                    extra |= 1 << (sh + x)
        return extra

    def lead(
        hands: list[int],
        leader: int,
        allc: int,
        lo: int,
        hi: int,
        rem: int,
        full: int,
        lens: int,
    ) -> tuple[bool, int]:
        """The first card of a trick (``full`` and ``lens`` describe the position as
        in :func:`force`).  The answer after each lead is kept in a table of its
        own, keyed like the trick boundaries' and on the lead's suit (and on its
        rank among the cards left when that rank is relevant): a lead is answered
        from there even where the whole position has no entry."""
        p = leader
        h = hands[p]
        chooser = or_bits >> p & 1
        cards: list[int] = []
        for i in (0, 1, 2, 3):
            hs = (h >> (8 * i)) & 0xFF
            if hs:
                cards.extend(low_cards[i][(((allc >> (8 * i)) & 0xFF) << 8) | hs])
        if len(cards) > 1:
            if lo > 0 and not chooser:
                # an opponent leads first what the side cannot win, the
                # top card of a suit first, then high to low
                sideh = 0
                for q in side_seats:
                    sideh |= hands[q]
                side_trumps = sideh & tmask
                after = 0  # the others' cards played after the side's in this trick
                ruffs = 0  # the plain suits one of them can ruff, a byte of 0xFF each
                if single:
                    row = seat_at[leader]
                    for i in range((side_seat - leader) % n + 1, n):
                        hq = hands[row[i]]
                        after |= hq
                        if hq & tmask:
                            for sh in plain_shifts:
                                if not (hq >> sh) & 0xFF:
                                    ruffs |= 0xFF << sh
                keyed = []
                for c in cards:
                    s8 = c & 24
                    ss = (sideh >> s8) & 0xFF
                    deny = not (ss >> (c & 7)) and (ss or s8 == tshift or not side_trumps)
                    if not deny and ss and (((after >> s8) & 0xFF) > ss or ruffs >> s8 & 1):
                        deny = True  # a card after the side's beats its best
                    top = not ((allc >> s8) & 0xFF) >> ((c & 7) + 1)
                    keyed.append(((256 if deny else 0) | (0 if s8 == tshift else 128) | (64 if top else 0) | (c & 7)) << 5 | c)
                keyed.sort(reverse=True)
            elif lo > 0:
                # cash the top card of each suit first, then high to low
                keyed = [
                    ((0 if ((allc >> (c & 24)) & 0xFF) >> ((c & 7) + 1) else 64) | (c & 7)) << 5 | c
                    for c in cards
                ]
                keyed.sort(reverse=True)
            else:
                keyed = [((c & 7) | (8 if (c >> 3) == tsuit else 0)) << 5 | c for c in cards]
                keyed.sort()
            cards = [k & 31 for k in keyed]
        acc = 0
        skip = 0
        for c in cards:
            if skip >> c & 1:
                continue
            s8 = c & 24
            above = (((allc >> s8) & 0xFF) >> ((c & 7) + 1)).bit_count()
            bkey = lens << 2 | c >> 3
            bucket = lead_tt.get(bkey)
            r = None
            if bucket is None:
                bucket = lead_tt[bkey] = []
            else:
                for e in bucket:
                    # the same lead: the same rank where it counts, else a card below
                    # every relevant card of its suit as the one stored
                    if full & e[0] == e[1] and (
                        e[2] == above if e[2] >= 0 else above >= e[6][c >> 3]
                    ):
                        if e[5]:
                            if lo <= e[3] and e[4] <= hi:
                                r, crel = True, top_rel(allc, e[6])
                                break
                        elif e[3] <= lo and hi <= e[4]:
                            r, crel = False, top_rel(allc, e[6])
                            break
            if r is None:
                hands[p] = h ^ (1 << c)
                if n == 2:
                    r, crel = last(hands, leader, c >> 3, c, p, 1 << c, allc, lo, hi, rem)
                else:
                    r, crel = middle(hands, leader, 1, c >> 3, c, p, 1 << c, allc, lo, hi, rem)
                hands[p] = h
                relm, jt = relevance(allc, crel)
                # the lead's rank counts when it lies at or above the suit's lowest relevant card
                cut = skip_below[((crel >> s8) & 0xFF) << 3 | (c & 7)]
                bucket.append((relm, full & relm, -1 if cut else above, lo, hi, r, jt))
            if r == chooser:
                return r, crel
            acc |= crel
            skip |= skip_below[((crel >> s8) & 0xFF) << 3 | (c & 7)] << s8
        return not chooser, run_rel(acc, h, allc, suit_shifts if len(cards) < h.bit_count() else ())

    def middle(
        hands: list[int],
        leader: int,
        pos: int,
        led: int,
        wcard: int,
        wseat: int,
        table: int,
        allc: int,
        lo: int,
        hi: int,
        rem: int,
    ) -> tuple[bool, int]:
        """A card of a trick in progress that is neither its first nor its last."""
        # the trick is decided when nobody still to play can beat its best
        # card: a goal that only needs to know its winner is settled at once
        if side_bits >> wseat & 1:
            settled = (lo <= 1 and hi >= rem) or hi <= 0
        else:
            settled = lo >= rem or (lo <= 0 and hi >= rem - 1)
        if settled:
            wsuit = wcard >> 3
            above = 0xFF ^ ((2 << (wcard & 7)) - 1)  # ranks over the winner's
            lsh = 8 * led
            for i in range(pos, n):
                hq = hands[seat_at[leader][i]]
                if wsuit == led:
                    if (hq >> lsh) & above:
                        break
                    if not (hq >> lsh) & 0xFF and hq & tmask:
                        break
                elif not (hq >> lsh) & 0xFF and (hq >> tshift) & above:
                    break
            else:
                if side_bits >> wseat & 1:
                    return hi > 0, 1 << wcard
                return lo < rem, 1 << wcard
        p = seat_at[leader][pos]
        h = hands[p]
        mine = side_bits >> p & 1
        chooser = or_bits >> p & 1
        sh = 8 * led
        if (h >> sh) & 0xFF:
            # following suit: the runs' lowest cards, ascending
            reps = low_cards[led][(((allc >> sh) & 0xFF) << 8) | ((h >> sh) & 0xFF)]
            cards: Sequence[int] = reps
            # the suits with a run of more than one card that one card stands for
            suits: tuple[int, ...] = (sh,) if len(reps) < ((h >> sh) & 0xFF).bit_count() else ()
            # low first when the side plays for tricks and the trick is the seat's
            # team's whatever it plays
            if len(reps) > 1 and not (lo > 0 and takes(hands, leader, pos, led, wcard, wseat, mine)):
                k = beaten(reps, led, wcard)
                if lo > 0 and k < len(reps):
                    # a card nobody still to play can beat first (the lowest such),
                    # then the cheapest winner, then low losers
                    later = 0
                    ruff = False
                    forced = False  # a later seat of the other team holds only higher cards
                    for i in range(pos + 1, n):
                        q = seat_at[leader][i]
                        if (side_bits >> q & 1) == mine:
                            continue  # a partner's card takes nothing from the team
                        hq = hands[q]
                        later |= hq
                        hs = (hq >> sh) & 0xFF
                        if not hs:
                            if hq & tmask:
                                ruff = True
                        elif (hs & -hs) << sh > 1 << reps[-1]:
                            forced = True
                    cards = reps[k:] + reps[:k]
                    if forced:
                        cards = reps  # it overtakes whatever is played: low first
                    elif not ruff:
                        top_later = ((later >> sh) & 0xFF).bit_length() - 1 + sh
                        for i in range(k, len(reps)):
                            if reps[i] > top_later:
                                cards = (reps[i],) + reps[k:i] + reps[i + 1 :] + reps[:k]
                                break
                else:
                    cards = follow_order(reps, k, lo)
        else:
            held = lo > 0 and h & (h - 1) > 0 and takes(hands, leader, pos, led, wcard, wseat, mine)
            cards = discards(hands, leader, pos, led, wcard, wseat, h, allc, lo, mine, held)
            suits = suit_shifts if len(cards) < h.bit_count() else ()
        nxt = pos + 1
        acc = 0
        skip = 0
        for c in cards:
            if skip >> c & 1:
                continue
            hands[p] = h ^ (1 << c)
            cs = c >> 3
            if (cs == (wcard >> 3) and c > wcard) or (cs == tsuit and (wcard >> 3) != tsuit):
                nw, ns = c, p
            else:
                nw, ns = wcard, wseat
            if nxt == n - 1:
                r, crel = last(hands, leader, led, nw, ns, table | (1 << c), allc, lo, hi, rem)
            else:
                r, crel = middle(
                    hands, leader, nxt, led, nw, ns, table | (1 << c), allc, lo, hi, rem
                )
            hands[p] = h
            if r == chooser:
                return r, crel
            acc |= crel
            skip |= skip_below[((crel >> (c & 24)) & 0xFF) << 3 | (c & 7)] << (c & 24)
        return not chooser, run_rel(acc, h, allc, suits)

    def takes(
        hands: list[int], leader: int, pos: int, led: int, wcard: int, wseat: int, mine: int
    ) -> bool:
        """Whether the team ``mine`` takes the trick whatever the ``pos``-th card is: it
        wins so far and no opponent still to play can beat the winning card ``wcard``, or
        only partners play after and one of them can."""
        lsh = 8 * led
        # ranks over the winner's, in the led suit or (a ruff) in trumps
        above = 0xFF ^ ((2 << (wcard & 7)) - 1)
        follow = wcard >> 3 == led
        k = (leader * n + pos) << 1 | mine
        if (side_bits >> wseat & 1) == mine:
            for q in opponents_after[k]:
                hq = hands[q]
                if follow:
                    if (hq >> lsh) & above or (not (hq >> lsh) & 0xFF and hq & tmask):
                        return False
                elif not (hq >> lsh) & 0xFF and (hq >> tshift) & above:
                    return False
            return True
        if opponents_after[k]:
            return False
        for q in partners_after[k]:
            hq = hands[q]
            if follow:
                if (hq >> lsh) & above or (not (hq >> lsh) & 0xFF and hq & tmask):
                    return True
            elif not (hq >> lsh) & 0xFF and (hq >> tshift) & above:
                return True
        return False

    def beaten(reps: Sequence[int], led: int, wcard: int) -> int:
        """How many of the cards ``reps`` of the led suit (ascending) lose to the
        card winning so far."""
        if wcard >> 3 != led:
            return len(reps)
        k = 0
        for c in reps:
            if c > wcard:
                break
            k += 1
        return k

    def follow_order(reps: tuple[int, ...], k: int, lo: int) -> tuple[int, ...]:
        """Cards of the led suit, the first ``k`` losing: the cheapest winner first,
        then low losers, when the goal is tricks; else the highest loser first."""
        if lo > 0:
            return reps[k:] + reps[:k]
        return reps[:k][::-1] + reps[k:][::-1]

    def discards(
        hands: list[int],
        leader: int,
        pos: int,
        led: int,
        wcard: int,
        wseat: int,
        h: int,
        allc: int,
        lo: int,
        mine: int,
        held: bool,
    ) -> list[int]:
        """The cards of a seat that cannot follow suit, one per run, ordered (``held``:
        the trick is the seat's team's, whatever the opponents still to play do).

        Each card is keyed ``rank key << 5 | card`` suit by suit.  The seat holds no
        card of the led suit, so only a trump can beat the winning card (one of the
        led suit, or a lower trump)."""
        wsuit = wcard >> 3
        win_mode = lo > 0
        good_now = held if win_mode else (side_bits >> wseat & 1) != mine
        keyed: list[int] = []
        if win_mode and not good_now:
            # cheapest winner first, then low losers; the side's losing cards from its
            # longest suit first, low to high
            for i in (0, 1, 2, 3):
                hs = (h >> (8 * i)) & 0xFF
                if hs:
                    reps = low_cards[i][(((allc >> (8 * i)) & 0xFF) << 8) | hs]
                    base = 32 + ((8 - hs.bit_count()) << 3) if mine else 32 | (16 if i == tsuit else 0)
                    if i == tsuit:
                        for c in reps:
                            if wsuit != tsuit or c > wcard:  # a ruff that beats the winner
                                keyed.append((16 | (c & 7)) << 5 | c)
                            else:
                                keyed.append((base + (c & 7)) << 5 | c)
                    else:
                        for c in reps:
                            keyed.append((base + (c & 7)) << 5 | c)
            if len(keyed) < 2:
                return [k & 31 for k in keyed]
            keyed.sort()
            if keyed[0] < 32 << 5 and pos < n - 1:
                # a trump nobody still to play can overruff first
                over = 0
                for i in range(pos + 1, n):
                    hq = hands[seat_at[leader][i]]
                    if not (hq >> (8 * led)) & 0xFF:
                        over |= hq
                top_over = ((over >> tshift) & 0xFF).bit_length() - 1 + tshift
                for i, kk in enumerate(keyed):
                    if kk >= 32 << 5:
                        break
                    if (kk & 31) > top_over:
                        if i:
                            keyed.insert(0, keyed.pop(i))
                        break
        elif win_mode:
            # low cards first, trumps last
            for i in (0, 1, 2, 3):
                hs = (h >> (8 * i)) & 0xFF
                if hs:
                    base = 8 if i == tsuit else 0
                    for c in low_cards[i][(((allc >> (8 * i)) & 0xFF) << 8) | hs]:
                        keyed.append((base | (c & 7)) << 5 | c)
            keyed.sort()
        else:
            # get rid of the highest card that loses, then the rest
            for i in (0, 1, 2, 3):
                hs = (h >> (8 * i)) & 0xFF
                if hs:
                    reps = low_cards[i][(((allc >> (8 * i)) & 0xFF) << 8) | hs]
                    if i == tsuit:
                        for c in reps:
                            beats = wsuit != tsuit or c > wcard
                            keyed.append(((0 if beats else 32) | (c & 7)) << 5 | c)
                    else:
                        for c in reps:
                            keyed.append((48 | (c & 7)) << 5 | c)
            keyed.sort(reverse=True)
        return [k & 31 for k in keyed]

    def last(
        hands: list[int],
        leader: int,
        led: int,
        wcard: int,
        wseat: int,
        table: int,
        allc: int,
        lo: int,
        hi: int,
        rem: int,
    ) -> tuple[bool, int]:
        """The last card of a trick: the trick is scored and the search goes on at
        the next trick boundary."""
        p = seat_at[leader][n - 1]
        h = hands[p]
        sh = 8 * led
        mine = side_bits >> p & 1
        chooser = or_bits >> p & 1
        if (h >> sh) & 0xFF:
            reps = low_cards[led][(((allc >> sh) & 0xFF) << 8) | ((h >> sh) & 0xFF)]
            cards: Sequence[int] = reps
            # the suits with a run of more than one card that one card stands for
            suits: tuple[int, ...] = (sh,) if len(reps) < ((h >> sh) & 0xFF).bit_count() else ()
            if len(reps) > 1 and not (lo > 0 and (side_bits >> wseat & 1) == mine):
                cards = follow_order(reps, beaten(reps, led, wcard), lo)
        else:
            held = lo > 0 and (side_bits >> wseat & 1) == mine
            cards = discards(hands, leader, n - 1, led, wcard, wseat, h, allc, lo, mine, held)
            suits = suit_shifts if len(cards) < h.bit_count() else ()
        acc = 0
        skip = 0
        for c in cards:
            if skip >> c & 1:
                continue
            hands[p] = h ^ (1 << c)
            cs = c >> 3
            if (cs == (wcard >> 3) and c > wcard) or (cs == tsuit and (wcard >> 3) != tsuit):
                nw, ns = c, p
            else:
                nw, ns = wcard, wseat
            d = side_bits >> ns & 1  # the side's trick
            if lo - d <= 0 and hi - d >= rem - 1:
                r, crel = True, 0
            else:
                r, crel = force(hands, ns, lo - d, hi - d, rem - 1, allc ^ table ^ (1 << c))
            # the winner outranked a card of its suit: its rank counts
            if (((table | (1 << c)) >> (nw & 24)) & 0xFF).bit_count() > 1:
                crel |= 1 << nw
            hands[p] = h
            if r == chooser:
                return r, crel
            acc |= crel
            skip |= skip_below[((crel >> (c & 24)) & 0xFF) << 3 | (c & 7)] << (c & 24)
        return not chooser, run_rel(acc, h, allc, suits)

    return force, middle, last, trump_game, suit_game, trumps_and_masters, side_bounds


def _side_solver(pos: Position, side: int | Iterable[int]) -> DoubleDummySolver:
    return DoubleDummySolver(pos.trump, len(pos.hands), side)


def max_tricks(pos: Position, side: int | Iterable[int]) -> int:
    """The most remaining tricks ``side`` can force (a fresh solver).

    Examples
    --------
    >>> from games.boerenbridge import parse_cards
    >>> hands = [mask_of(parse_cards(h)) for h in ("AH 7C", "KH 8C", "7S QH", "JH 9C")]
    >>> max_tricks(Position(hands, trump=3, leader=1), 2)   # the 7♠ ruffs
    1
    """
    return _side_solver(pos, side).max_tricks(pos)


def min_tricks(pos: Position, side: int | Iterable[int]) -> int:
    """The fewest remaining tricks ``side`` can hold itself to (a fresh solver)."""
    return _side_solver(pos, side).min_tricks(pos)


def can_force(pos: Position, side: int | Iterable[int], low: int, high: int) -> bool:
    """Whether ``side`` can force its remaining tricks into ``[low, high]``."""
    return _side_solver(pos, side).can_force(pos, low, high)


def trick_counts(pos: Position, plays: Sequence[int]) -> list[int]:
    """Tricks each seat takes when the cards ``plays`` are played in order from ``pos``
    (a reference for tests; every card must be legal)."""
    won = [0] * len(pos.hands)
    for c in plays:
        pos, w = pos.play(c)
        if w is not None:
            won[w] += 1
    return won
