"""BS-ZPY states as card histories: silence and peanut butter announce a claim's truth.

:func:`bs_zpy_card_history` reads the current round of a BS-ZPY state
(:mod:`games.bs_zpy`) from its seats' observation streams.  Locations: the
hands ``P0`` …, the ``kitty``, ``down`` (the cards of the play being
settled), ``trick`` (the settled plays of the trick in hand) and the
winnings piles ``W0`` ….  Agents: the seats, each seeing its own hand.

=========================  ============================================================
game event                 card event
=========================  ============================================================
claim                      the cards move face down to ``down``; only the player sees
                           them.  The claim itself is not a fact
call                       ``down`` is revealed to everybody; the play's validity
                           (the reveal says whether it was valid) is a public fact;
                           a caught leader's returned cards go back face up
no call, silence           public fact: the claim was true — ``down`` holds the
                           claimed cards *and* they were a valid play
no call, peanut butter     public fact: the claim was false — the negation of the above
trick ends                 ``trick`` joins the winner's pile face down
penalty card               a card of the loser's pile moves to the gainer's, unseen
=========================  ============================================================

A play's *validity* (:func:`follow_validity`, :func:`lead_validity`) is a
propositional formula over the card atoms of the current hands: a follow
obeys the suit and format rules for the hand it was played from (the hand
now plus the cards played), a throw stands against every other hand.  Each
agrees with the game's own check (:func:`games.bs_zpy.play_validity`) on
every hand, which the tests verify hand by hand.

A position (:meth:`games.bs_zpy.BSZPYGame.position`) uses only the cards it
deals: the deck of its history holds those cards, so a small position has
a small explicit model too.

Examples
--------
>>> from games.base import load_game
>>> g = load_game("bs-zpy", players=4)
>>> st = g.position(["AS AS 3H", "KS 4H 5H", "QS 6H 7H", "JS 8H 9H"], trump="2D",
...                 landlord=0, friends=["AH"])
>>> st.play_claim(0, "3H")
>>> st.decide_calls({})                   # silence: the claim was true
>>> st.play_claim(1, "KS", claim="5H")    # a lie nobody may see
>>> gk = st.knowledge()
>>> gk.knows(1, "has(down, KS)"), gk.knows(2, "has(down, KS)")
(True, False)
>>> gk.holds("K_2 ~has(0, 3H)")           # everybody knows P0 led its 3H
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.errors import InvalidParameterError

__all__ = [
    "bs_zpy_card_history",
    "follow_validity",
    "lead_validity",
    "claim_truth",
    "DOWN",
    "TRICK",
]

#: Location of the face-down play being settled.
DOWN = "down"
#: Location of the settled plays of the trick in hand.
TRICK = "trick"

#: Most terms a validity formula may have before the history refuses it.
MAX_TERMS = 20000


# ============================================================ card atoms
def _at_least(deck: Any, loc: str, face: int, k: int) -> Any:
    """The formula "``loc`` holds at least ``k`` copies of ``face``" (constants at the edges)."""
    from games.epistemic.history import card_key
    from games.shengji.rules.cards import card
    from kripke.formulas import BOT, TOP, Atom

    if k <= 0:
        return TOP
    name = str(card(face))
    try:
        i = deck.index(name)
    except Exception:
        return BOT  # the deck has no such card
    m = deck.copies[i]
    if k > m:
        return BOT
    return Atom("has", (loc, card_key(name, k, m)))


def _junction(parts: Sequence[Any], conj: bool) -> Any:
    """``And``/``Or`` of ``parts`` with the constants folded."""
    from kripke.formulas import BOT, TOP, And, Or

    unit, zero = (TOP, BOT) if conj else (BOT, TOP)
    ps = [p for p in parts if p != unit]
    if any(p == zero for p in ps):
        return zero
    if not ps:
        return unit
    return ps[0] if len(ps) == 1 else (And if conj else Or)(tuple(ps))


def _and(parts: Sequence[Any]) -> Any:
    return _junction(parts, True)


def _or(parts: Sequence[Any]) -> Any:
    return _junction(parts, False)


def _not(f: Any) -> Any:
    from kripke.formulas import BOT, TOP, Not

    if f == TOP:
        return BOT
    if f == BOT:
        return TOP
    return Not(f)


def _face_copies(deck: Any, faces: Sequence[int]) -> dict[int, int]:
    """Copies of each face in the deck (0 for faces it lacks)."""
    from games.shengji.rules.cards import card

    out = {}
    for f in faces:
        name = str(card(f))
        out[f] = deck.copies[deck.index(name)] if name in deck.names else 0
    return out


# ============================================================ validity
def _requirements(
    groups: Sequence[tuple[int, ...]], pool: Mapping[int, int], trump: Any
) -> list[dict[int, int]]:
    """The minimal face counts that hold disjoint ``groups`` (each a list of tuple sizes)."""
    from games.shengji.rules.formats import group_placements

    found: set[tuple[tuple[int, int], ...]] = set()

    def rec(i: int, left: dict[int, int], need: dict[int, int]) -> None:
        if len(found) > MAX_TERMS:
            raise InvalidParameterError(
                f"the validity of this play has more than {MAX_TERMS} cases; "
                "the card history cannot state it"
            )
        if i == len(groups):
            found.add(tuple(sorted(need.items())))
            return
        for pl in group_placements({f: k for f, k in left.items() if k}, groups[i], trump):
            left2, need2 = dict(left), dict(need)
            for f, k in pl:
                left2[f] -= k
                need2[f] = need2.get(f, 0) + k
            rec(i + 1, left2, need2)

    rec(0, dict(pool), {})
    reqs = [dict(r) for r in sorted(found)]
    # keep the minimal ones: a requirement another one's counts lie below is redundant
    reqs.sort(key=lambda r: sum(r.values()))
    out: list[dict[int, int]] = []
    for r in reqs:
        if not any(all(r.get(f, 0) >= k for f, k in o.items()) for o in out):
            out.append(r)
    return out


def follow_validity(
    deck: Any,
    loc: str,
    cards: Sequence[int],
    fmt: Any,
    draw_policy: str = "no-protections",
) -> Any:
    """The formula "``cards``, played by ``loc`` to ``fmt``, were a legal follow".

    The atoms are ``loc``'s hand *after* the play; the hand before is that
    plus ``cards``.  Suit rule: with fewer led-suit cards than the format,
    the hand held no other led-suit card.  Format rule (ZPY §5.2): the play
    fits the ``i``-th shape of the format's decomposition order, so the hand
    could fit none of the shapes before it.

    Raises
    ------
    InvalidParameterError
        For a draw policy that protects longer tuples (not monotone in the
        hand; not stated as a formula), or a format with too many cases.

    Examples
    --------
    >>> from games.cards import Deck
    >>> from games.shengji.rules.cards import parse_cards
    >>> from games.shengji.rules.formats import lead_format
    >>> from games.shengji.rules.trump import Trump
    >>> t = Trump("2", "S")
    >>> deck = Deck(["9H", "JH", "QH", "3C"], copies=2)
    >>> print(follow_validity(deck, "P1", parse_cards("9H JH"), lead_format("KH KH", t)))
    ~(has(P1, 9H) | has(P1, JH) | has(P1, QH#2))
    >>> print(follow_validity(deck, "P1", parse_cards("9H 3C"), lead_format("KH KH", t)))
    ~has(P1, 9H) & ~has(P1, JH) & ~has(P1, QH)
    """
    from games.shengji.rules.formats import count_faces, decomposition_order, fits_shape
    from games.shengji.rules.trump import table

    if draw_policy in ("longer-tuples-protected", "protected-tractor-on-tractor"):
        raise InvalidParameterError(
            f"the draw policy {draw_policy!r} protects longer tuples; its follow rule is not "
            "stated as a card formula (use no-protections or only-draw-tractor-on-tractor)"
        )
    t = table(fmt.trump)
    suit_faces = list(t.by_suit[fmt.suit])
    played = count_faces(list(cards))
    inside = {f: k for f, k in played.items() if t.esuit[f] == fmt.suit}
    s = sum(inside.values())
    if sum(played.values()) != fmt.size:
        from kripke.formulas import BOT

        return BOT
    if s < fmt.size:
        return _and([_not(_at_least(deck, loc, f, 1)) for f in suit_faces])
    if draw_policy == "no-format-based-draw":
        from kripke.formulas import TOP

        return TOP
    new_adj = draw_policy != "only-draw-tractor-on-tractor"
    pool = {f: c for f, c in _face_copies(deck, suit_faces).items() if c}
    for f, k in inside.items():
        pool[f] = max(pool.get(f, 0), k)
    parts = []
    for shape in decomposition_order(fmt, new_adj):
        if fits_shape(inside, shape, fmt.trump):
            break
        groups = [g for g in shape if g != (1,)]
        fit = _or(
            [
                _and([_at_least(deck, loc, f, k - inside.get(f, 0)) for f, k in sorted(r.items())])
                for r in _requirements(groups, pool, fmt.trump)
            ]
        )
        parts.append(_not(fit))
    return _and(parts)


def lead_validity(deck: Any, cards: Sequence[int], trump: Any, others: Sequence[str]) -> Any:
    """The formula "``cards`` were a valid lead": one suit, and a throw no other hand beats.

    ``others`` are the locations of the other hands; a throw stands when none
    of them holds, in the suit, a stronger tuple of the width of one of its
    units (or a stronger tractor at least as long as a tractor unit).

    Examples
    --------
    >>> from games.shengji.rules.cards import parse_cards
    >>> from games.shengji.rules.trump import Trump
    >>> from games.shengji.knowledge import shengji_deck
    >>> f = lead_validity(shengji_deck(2), parse_cards("AH KH"), Trump("2", "S"), ["P1"])
    >>> print(f)                          # only an ace of hearts beats the king
    ~has(P1, AH)
    """
    from games.shengji.rules.formats import group_placements, lead_format
    from games.shengji.rules.trump import table
    from kripke.formulas import BOT, TOP

    t = table(trump)
    if len({t.esuit[c] for c in cards}) != 1:
        return BOT
    lf = lead_format(list(cards), trump)
    if not lf.is_throw:
        return TOP
    beaten = []
    for u in lf.units:
        suit_faces = list(t.by_suit[t.esuit[u.first]])
        s0 = t.strength[u.first]
        pool = {f: c for f, c in _face_copies(deck, suit_faces).items() if c}
        for loc in others:
            if not u.is_tractor:
                beaten += [
                    _at_least(deck, loc, f, u.width) for f in suit_faces if t.strength[f] > s0
                ]
                continue
            group = (u.width,) * len(u.faces)
            for pl in group_placements(pool, group, trump):
                if t.strength[pl[0][0]] > s0:
                    beaten.append(_and([_at_least(deck, loc, f, k) for f, k in pl]))
    return _not(_or(beaten))


def claim_truth(
    deck: Any,
    seat_loc: str,
    claim: Sequence[int],
    validity: Any,
) -> Any:
    """The formula "the claim was true": ``down`` holds the claimed cards and ``validity``."""
    from games.shengji.rules.formats import count_faces

    held = [_at_least(deck, DOWN, f, k) for f, k in sorted(count_faces(list(claim)).items())]
    return _and([*held, validity])


# ============================================================ the history
def bs_zpy_card_history(state: Any) -> Any:
    """The current round of a BS-ZPY state as a :class:`~games.epistemic.CardHistory`.

    Raises
    ------
    games.errors.InvalidParameterError
        Before the cards are dealt, or with a draw policy whose follow rule
        is not stated as a formula.
    """
    from games.epistemic.history import CardHistory, Fact, Move, MoveAll, Reveal, Show
    from games.shengji.rules.cards import card
    from games.shengji.knowledge import round_observations, shengji_deck
    from games.shengji.rules.formats import count_faces, lead_format

    n = state.n
    seats = [f"P{s}" for s in range(n)]
    own = round_observations(state)
    public = [o for o in own[0] if o.public or o.kind in ("kitty", "bury", "claim")]
    claims = [[o for o in own[s] if o.kind == "claim" and o.actor == s] for s in range(n)]
    policy = state.rules.draw_policy
    hands: list[list[str]] = [[] for _ in range(n)]
    kitty: list[str] = []
    position = False
    for s in range(n):
        for o in own[s]:
            if o.kind == "hand" and o.actor == s:
                hands[s] = [str(c) for c in o["cards"]]
                position = True
            elif o.kind == "draw" and o.actor == s:
                hands[s].append(str(o["card"]))
            elif o.kind == "kitty_known" and o.actor == s:
                kitty = [str(c) for c in o["cards"]]
    if not any(o.kind in ("dealt", "setup") for o in public):
        raise InvalidParameterError("the cards are not all drawn yet: no epistemic model before")
    if not position:
        kitty = [str(c) for c in state.kitty_cards]
    if position:
        from games.cards import Deck

        every = count_faces([card(c) for h in hands for c in h] + [card(c) for c in kitty])
        faces = sorted(every)
        deck = Deck([str(card(f)) for f in faces], copies=[every[f] for f in faces])
    else:
        deck = shengji_deck(state.rules.decks)
    trump = state.trump
    steals = _stolen_cards(state, sum(1 for o in public if o.kind == "steal"))
    events: list[Any] = []
    ll = state.round_landlord
    fmt: Any = None
    pending: dict[str, Any] = {}
    for o in public:
        k = o.kind
        if k == "bid":
            cs = [str(o["card"])] * o["count"]
            events.append(Show(seats[o.actor], cs, label=f"{seats[o.actor]} bids {' '.join(cs)}"))
        elif k == "kitty" and not position:
            events.append(MoveAll("kitty", seats[ll], seen_by=[seats[ll]], label="kitty taken"))
        elif k == "bury" and not position:
            cs = [str(c) for c in state.buried]
            events.append(Move(cs, seats[ll], "kitty", seen_by=[seats[ll]], label="buried"))
        elif k == "claim":
            a = o.actor
            cards = [int(card(c)) for c in claims[a].pop(0)["cards"]]
            claim = [int(card(c)) for c in o["claim"]]
            lead = bool(o["lead"])
            if lead:
                fmt = None
            names = [str(card(c)) for c in cards]
            events.append(
                Move(names, seats[a], DOWN, seen_by=[seats[a]], label=_claim_label(a, claim))
            )
            pending = {"seat": a, "claim": claim, "lead": lead}
        elif k in ("silent", "peanut_butter"):
            a, claim, lead = pending["seat"], pending["claim"], pending["lead"]
            v = _validity(deck, seats, a, claim, lead, fmt, trump, policy)
            truth = claim_truth(deck, seats[a], claim, v)
            if k == "silent":
                events.append(Fact(truth, label=f"{seats[a]} is silent: the claim was true"))
            else:
                events.append(
                    Fact(_not(truth), label=f"{seats[a]} says peanut butter: the claim was false")
                )
            events.append(MoveAll(DOWN, TRICK, seen_by=(), label="the play joins the trick"))
            if lead:
                fmt = lead_format(claim, trump)
        elif k == "reveal":
            a = o.actor
            shown = [int(card(c)) for c in o["cards"]]
            lead = pending["lead"]
            shown_names = " ".join(str(card(c)) for c in shown)
            events.append(Reveal(DOWN, label=f"the call reveals {shown_names}"))
            v = _validity(deck, seats, a, shown, lead, fmt, trump, policy)
            if o["valid"]:
                events.append(Fact(v, label=f"{seats[a]}'s play was valid"))
            else:
                events.append(Fact(_not(v), label=f"{seats[a]}'s play was invalid"))
            back = [str(card(c)) for c in o["returned"]]
            if back:
                events.append(
                    Move(back, DOWN, seats[a], label=f"{seats[a]} takes back {' '.join(back)}")
                )
            events.append(MoveAll(DOWN, TRICK, seen_by=None, label="the play joins the trick"))
            if lead:
                kept = [int(card(c)) for c in o["kept"]] or shown
                fmt = lead_format(kept, trump)
        elif k == "steal":
            c = steals.pop(0)
            events.append(
                Move(
                    [c],
                    f"W{o.actor}",
                    f"W{o['to']}",
                    seen_by=(),
                    label=f"a card of W{o.actor} goes to W{o['to']}",
                )
            )
        elif k == "trick":
            events.append(
                MoveAll(TRICK, f"W{o.actor}", seen_by=(), label=f"{seats[o.actor]} wins the trick")
            )
    initial: dict[str, Any] = {seats[s]: hands[s] for s in range(n)}
    initial.update({"kitty": kitty, DOWN: [], TRICK: []})
    initial.update({f"W{s}": [] for s in range(n)})
    owns: dict[str, Any] = {seats[s]: seats[s] for s in range(n)}
    if position and kitty and ll is not None:
        owns[seats[ll]] = [seats[ll], "kitty"]
    return CardHistory(deck, initial, owns, events)


def _claim_label(seat: int, claim: Sequence[int]) -> str:
    from games.shengji.rules.cards import format_cards

    return f"P{seat} claims {format_cards(list(claim))}"


def _validity(
    deck: Any,
    seats: Sequence[str],
    seat: int,
    cards: Sequence[int],
    lead: bool,
    fmt: Any,
    trump: Any,
    policy: str,
) -> Any:
    if lead:
        n = len(seats)
        others = [seats[(seat + k) % n] for k in range(1, n)]
        return lead_validity(deck, cards, trump, others)
    return follow_validity(deck, seats[seat], cards, fmt, policy)


def _stolen_cards(state: Any, k: int) -> list[str]:
    """The true cards of the last ``k`` penalty steals (chance actions of the state)."""
    from games.bs_zpy import _STEAL
    from games.shengji.rules.cards import NUM_FACES, card

    if k == 0:
        return []
    out = [str(card(a - _STEAL)) for a in state.history() if _STEAL <= a < _STEAL + NUM_FACES]
    return out[len(out) - k :]
