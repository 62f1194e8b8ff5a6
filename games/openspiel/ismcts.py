"""OpenSpiel's IS-MCTS at our tables, and our bots at OpenSpiel's.

* :func:`determinize` builds, from one seat's observations only, a whole
  engine state that this seat cannot tell from the true one: the hidden cards
  are one draw of the exact uniform sampler of :mod:`games.deal` over the
  deals consistent with what the seat saw (BS: :class:`~games.bs.SeatKnowledge`
  with exact knowledge; BoerenBridge: :class:`~games.boerenbridge.SeatView`).
  BoerenBridge worlds replay the whole match with the sampled deal of the
  current round (every other card of the match was played face up), so every
  seat's stream is that of a real game.  BS worlds are set up at the present:
  the hands, the pile and the open play from the sample, the undecided calls
  of seats before this one (hidden from it) drawn uniformly, the seat's own
  stream kept and every other seat's stream starting from its sampled hand.
* :func:`resampler` is that, as the resampler of OpenSpiel's
  ``ISMCTSBot.set_resampler``; :class:`RolloutEvaluator` evaluates leaves by
  random playouts of the engine (a BS play is one engine action there).
* :class:`ISMCTSBot` is a bot of ours (registered as ``ismcts`` for BS and
  BoerenBridge when OpenSpiel is installed): at its turn it determinizes its
  seat's view and runs OpenSpiel's IS-MCTS on the OpenSpiel game of
  :mod:`games.openspiel.spiel`.
* :class:`SpielBot` seats a bot of ours in OpenSpiel's ``evaluate_bots``: it
  passes its seat's observations on and spells a BS play card by card.

Shengji and BS-ZPY have no determinizer yet, so ``ismcts`` does not play them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from games.base import CHANCE, TERMINAL, Bot, Game, Observation, State, sample_chance
from games.errors import BotError, InconsistentKnowledgeError, InvalidParameterError
from games.openspiel.spiel import SpielGame, SpielState, _clone, _require, game_from

__all__ = [
    "DETERMINIZED_GAMES",
    "determinize",
    "resampler",
    "RolloutEvaluator",
    "ISMCTSBot",
    "SpielBot",
    "spiel_ismcts",
]

#: Games :func:`determinize` (and so the ``ismcts`` bot) handles.
DETERMINIZED_GAMES = ("bs", "boerenbridge")


# ---------------------------------------------------------------- BS worlds
class _BSView:
    """A BS seat's exact knowledge, built once per decision and sampled many times."""

    def __init__(self, game: Game, seat: int):
        from games.bs.knowledge import SeatKnowledge

        self.view = SeatKnowledge(game, seat, exact=True, max_table=300)
        self._batch: list[Any] = []

    def extend(self, observations: Sequence[Observation]) -> None:
        """Take the seat's next observations."""
        for o in observations:
            self.view.observe(o)
        self._batch = []

    def world(self, game: Any, seat: int, obs: Sequence[Observation], rng: Any) -> State:
        from games.bs.state import BSState

        v = self.view
        kn = v.knowledge
        if kn is None:
            raise InvalidParameterError("BS: nothing to determinize before the deal")
        locations = kn.locations
        if not self._batch:
            self._batch = list(kn.sample(32, seed=rng))
        draw = self._batch.pop()
        col = {loc: [int(x) for x in draw[:, j]] for j, loc in enumerate(locations)}
        n = game.num_players()
        st = BSState(game)
        st._order = list(v.order)
        st._hands = [col[f"P{q}"] for q in range(n)]
        if st._hands[seat] != list(v.hand):
            raise InconsistentKnowledgeError(f"BS: P{seat}'s sampled hand is not its own")
        st._sizes = list(v.sizes)
        st._undealt = [0] * game.num_kinds
        st._dealt = game.deck.total
        st._pile = col["pile"]
        st._pile_n = v.pile
        st._required = v.required
        st._plays = v.plays
        last = v.last
        if last is not None and last[0] != seat:  # this seat decides whether to call
            player, _, count = last
            st._phase = "call"
            st._player = player
            st._pos = st._order.index(player)
            st._play = col["play"]
            st._play_n = count
            st._play_names = st._names(st._play)
            full = [st._order[(st._pos + j) % n] for j in range(1, n)]
            before = full[: full.index(seat)]
            rnd = random.Random(int(rng.integers(1 << 62)))
            st._callers = [q for q in before if rnd.random() < 0.5]
            st._queue = full[full.index(seat) :]
        else:
            st._phase = "first" if (not game.koth and v.plays == 0) else "play"
            st._pos = st._order.index(seat)
        names = game.deck.names
        for q in range(n):
            if q == seat:
                st._observations[q] = list(obs)
            else:
                cards = tuple(names[k] for k, c in enumerate(st._hands[q]) for _ in range(c))
                st._observations[q] = [Observation.make("hand", q, False, cards=cards)]
        return st


# ------------------------------------------------------- BoerenBridge worlds
#: Worlds drawn from the exact sampler at once (the knowledge is the same until the
#: seat's next observation, and one call for many draws is much cheaper than many).
_BATCH = 32


class _BBView:
    """A BoerenBridge seat's view: the match's public events and its exact deal knowledge."""

    def __init__(self, game: Game, seat: int):
        from games.boerenbridge.knowledge import SeatView

        self.view = SeatView(game.params, seat)
        self.seat = seat
        self.players = game.num_players()
        self.seen: list[Observation] = []
        self._batch: list[tuple[int, ...]] = []

    def extend(self, observations: Sequence[Observation]) -> None:
        """Take the seat's next observations."""
        for o in observations:
            self.view.observe(o)
        self.seen.extend(observations)
        self.rounds = _bb_rounds(self.seen, self.seat, self.players)
        self._batch = []

    def world(self, game: Any, seat: int, obs: Sequence[Observation], rng: Any) -> State:
        from games.boerenbridge.rules import GUESS_BASE, parse_card

        if not self.rounds:
            raise InvalidParameterError("BoerenBridge: nothing to determinize before the deal")
        if not self._batch:  # independent exact draws, taken one per world
            self._batch = self.view.sample_hands(_BATCH, rng)[::-1]
        hands = self._batch.pop()
        n = game.num_players()
        st = game.new_initial_state()
        for i, rd in enumerate(self.rounds):
            dealt = list(rd["played"])
            if i == len(self.rounds) - 1 and not rd["done"]:
                for q in range(n):
                    dealt[q] |= hands[q]
            dealt[seat] = rd["hand"]
            cards = [sorted(c for c in range(32) if dealt[q] >> c & 1) for q in range(n)]
            actions = [cards[(rd["dealer"] + 1 + k) % n][k // n] for k in range(rd["cards"] * n)]
            for kind, value in rd["events"]:
                if kind == "trump":
                    actions.append(value)
                elif kind == "guess":
                    actions.append(GUESS_BASE + value)
                else:
                    actions.append(parse_card(value))
            # every action happened at the table (the sampled hands hold the cards the
            # seats played and respect their voids), so the replay skips re-checking each
            for a in actions:
                st._apply_action(a)
                st._history.append(a)
        if st._observations[seat] != list(obs):
            raise InconsistentKnowledgeError(
                f"BoerenBridge: a replayed world does not match P{seat}'s observations"
            )
        return st


def _bb_rounds(
    observations: Sequence[Observation], seat: int, players: int
) -> list[dict[str, Any]]:
    """The seat's view of the match, round by round: dealer, size, own hand, public events."""
    from games.boerenbridge.rules import SUIT_BASE, SUITS, parse_card

    rounds: list[dict[str, Any]] = []
    for o in observations:
        k = o.kind
        if k == "round":
            rounds.append(
                {
                    "cards": o["cards"],
                    "dealer": o["dealer"],
                    "hand": 0,
                    "events": [],
                    "played": [0] * players,
                    "done": False,
                }
            )
        elif not rounds:
            continue
        rd = rounds[-1]
        if k == "hand" and o.get("seat") == seat:
            for c in o["cards"]:
                rd["hand"] |= 1 << parse_card(c)
        elif k == "trump":
            card = o.get("card")
            if card is not None:
                rd["events"].append(("trump", parse_card(card)))
            elif o["suit"] != "none":
                rd["events"].append(("trump", SUIT_BASE + SUITS.index(o["suit"])))
        elif k == "guess":
            rd["events"].append(("guess", o["guess"]))
        elif k == "play":
            rd["events"].append(("play", o["card"]))
            rd["played"][o.actor] |= 1 << parse_card(o["card"])
        elif k == "score":
            rd["done"] = True
    return rounds


_VIEWS: dict[str, Any] = {"bs": _BSView, "boerenbridge": _BBView}


class _Determinizer:
    """Worlds for one seat; its knowledge follows the observations incrementally."""

    def __init__(self) -> None:
        self._key: tuple[int, int] | None = None
        self._view: Any = None
        self._seen: list[Observation] = []

    def world(self, game: Game, seat: int, observations: Sequence[Observation], rng: Any) -> State:
        if game.name not in _VIEWS:
            raise InvalidParameterError(
                f"no determinizer for {game.name}; games: {', '.join(DETERMINIZED_GAMES)}"
            )
        n = len(self._seen)
        same = (
            self._key == (id(game), seat)
            and n <= len(observations)
            and (n == 0 or observations[n - 1] == self._seen[-1])
        )
        if not same:
            self._view = _VIEWS[game.name](game, seat)
            self._key = (id(game), seat)
            self._seen = []
            n = 0
        if n < len(observations):
            new = list(observations[n:])
            self._view.extend(new)
            self._seen.extend(new)
        return self._view.world(game, seat, observations, rng)


def determinize(
    game: Game, seat: int, observations: Sequence[Observation], seed: Any = None
) -> State:
    """An engine state of ``game`` that ``seat``, having observed ``observations``, cannot
    tell from the true one; the hidden cards drawn exactly from the seat's knowledge.

    Raises
    ------
    InvalidParameterError
        For a game without a determinizer (Shengji, BS-ZPY), or before the deal.

    Examples
    --------
    >>> from games.base import load_game
    >>> import random
    >>> game = load_game("bs", variant="koth")
    >>> st = game.new_initial_state()
    >>> rng = random.Random(0)
    >>> while st.is_chance_node():
    ...     st.apply_action(rng.choice(st.legal_actions()))
    >>> world = determinize(game, 1, st.observations(1), seed=4)
    >>> world.information_state_string(1) == st.information_state_string(1)
    True
    >>> world.hands[1] == st.hands[1]
    True
    """
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    return _Determinizer().world(game, seat, observations, rng)


def resampler(
    seed: int | None = None, _det: _Determinizer | None = None
) -> Callable[[Any, int], Any]:
    """A resampler for OpenSpiel's ``ISMCTSBot.set_resampler``.

    It is called with a state of a :class:`~games.openspiel.spiel.SpielGame`
    and the seat to move, and returns a determinized state of that seat
    (same information state, the play being selected kept), built only from
    the seat's observations.
    """
    rng = np.random.default_rng(seed)
    det = _det if _det is not None else _Determinizer()

    def resample(state: Any, player: int) -> Any:
        inner = state.inner
        world = det.world(inner.game, player, inner.observations(player), rng)
        out = SpielState(state.get_game(), world)
        if state.current_player() == player:
            out._selection = state.selection()
        # the world's stream for ``player`` is the state's: so is its text, if known
        known = state.__dict__.get("_texts", {}).get(player)
        if known is not None and known[0] == len(world._observations[player]):
            out.__dict__["_texts"] = {player: known}
        return out

    return resample


def _cutoff_value(st: State) -> list[float]:
    """Value of an unfinished playout: BS shares the win in inverse proportion to the
    cards in hand; other games take their returns so far (scores of finished rounds)."""
    if st.game.name == "bs" and not st.is_terminal():
        inv = [1.0 / max(n, 1) for n in st.hand_sizes]  # type: ignore[attr-defined]
        tot = sum(inv)
        return [x / tot for x in inv]
    return [float(r) for r in st.returns()]


class RolloutEvaluator:
    """IS-MCTS leaf values by random playouts of the engine; uniform priors.

    A playout draws chance as the engine does and plays uniformly random
    engine actions (a whole BS play is one action), ``rollouts`` times; the
    value is the mean of the returns.  A playout still running after
    ``max_steps`` actions is valued by :func:`_cutoff_value` (BS: inverse hand
    sizes).
    """

    def __init__(self, rollouts: int = 1, seed: int | None = None, max_steps: int = 100_000):
        self.rollouts = rollouts
        self.rng = random.Random(seed)
        self.max_steps = max_steps

    def evaluate(self, state: Any) -> np.ndarray:
        total = np.zeros(state.num_players())
        for _ in range(self.rollouts):
            st = _clone(state.inner)
            steps = 0
            while True:
                cur = st.current_player()
                if cur == TERMINAL or steps >= self.max_steps:
                    break
                if cur == CHANCE:
                    action = sample_chance(st, self.rng)
                else:
                    legal = st.legal_actions(cur)
                    action = legal[self.rng.randrange(len(legal))]
                # drawn from the engine's own outcomes and legal actions: no re-check
                st._apply_action(action)
                st._history.append(action)
                steps += 1
            total += np.asarray(_cutoff_value(st), dtype=float)
        return total / self.rollouts

    def prior(self, state: Any) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class ISMCTSBot(Bot):
    """OpenSpiel's IS-MCTS with worlds drawn exactly from the seat's observations (BS, BoerenBridge).

    At each decision the bot sets up a determinized world from its seat's
    observations (:func:`determinize`), and OpenSpiel's ``ISMCTSBot`` searches
    from it, drawing a fresh world for every simulation from the same exact
    sampler.  A BS play is chosen card by card, one search per card.

    Parameters
    ----------
    seed : int, optional
        Seeds the worlds, the playouts and the search.
    simulations : int
        Simulations per search.
    uct_c : float, optional
        Exploration constant; default 2 for BS (returns 0 or 1) and 20 for
        BoerenBridge (round scores).
    rollouts : int
        Random playouts per leaf.
    max_steps : int, optional
        Engine actions per playout before it is valued as it stands; default
        40 for BS (random BS games run long), unlimited otherwise.
    """

    name = "ismcts"
    games = DETERMINIZED_GAMES

    def __init__(
        self,
        seed: int | None = None,
        simulations: int = 100,
        uct_c: float | None = None,
        rollouts: int = 1,
        max_steps: int | None = None,
    ):
        super().__init__(seed)
        self.max_steps = max_steps
        _require()
        self.simulations = simulations
        self.uct_c = uct_c
        self.rollouts = rollouts
        self._obs: list[Observation] = []
        self._spiel: SpielGame | None = None

    def restart(self, game: Game, seat: int) -> None:
        if game.name not in DETERMINIZED_GAMES:
            raise InvalidParameterError(
                f"ismcts plays {', '.join(DETERMINIZED_GAMES)}, not {game.name}"
            )
        super().restart(game, seat)
        self._obs = []
        self._spiel = game_from(game)
        seed = self.rng.getrandbits(62)
        self._det = _Determinizer()
        self._resample = resampler(seed, self._det)
        self._np_rng = np.random.default_rng(seed + 1)
        steps = self.max_steps or (40 if game.name == "bs" else 100_000)
        self._evaluator = RolloutEvaluator(self.rollouts, seed + 2, steps)

    def inform(self, observation: Observation) -> None:
        self._obs.append(observation)

    def _search(self) -> Any:
        from open_spiel.python.algorithms import ismcts

        assert self.game is not None
        c = self.uct_c if self.uct_c is not None else (2.0 if self.game.name == "bs" else 20.0)
        bot = ismcts.ISMCTSBot(
            self._spiel,
            self._evaluator,
            c,
            self.simulations,
            random_state=np.random.RandomState(self.rng.getrandbits(31)),
        )
        bot.set_resampler(self._resample)
        return bot

    def step(self, legal_actions: Sequence[int]) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        assert self.game is not None and self._spiel is not None
        world = self._det.world(self.game, self.seat, self._obs, self._np_rng)
        root = SpielState(self._spiel, world)
        search = self._search()
        sp = self._spiel.spelling
        while True:
            action = int(search.step(root))
            if sp is None or action in (0, 1):
                break
            if action == sp.commit:
                action = self.game.encode(root.selection())  # type: ignore[attr-defined]
                break
            root.apply_action(action)
        if action not in legal_actions:
            raise BotError(f"ismcts chose {action}, which is not legal here")
        return action


def spiel_ismcts(
    game: Any,
    simulations: int = 100,
    uct_c: float = 2.0,
    seed: int | None = None,
    max_steps: int = 100_000,
    rollouts: int = 1,
) -> Any:
    """OpenSpiel's ``ISMCTSBot`` for a :class:`~games.openspiel.spiel.SpielGame`, ready for
    ``evaluate_bots``: worlds from :func:`resampler`, leaves by :class:`RolloutEvaluator`.

    OpenSpiel's Python IS-MCTS searches afresh at every step and implements
    neither ``restart_at`` nor ``inform_action``, which ``evaluate_bots`` calls;
    here both do nothing.
    """
    _require()
    from open_spiel.python.algorithms import ismcts

    class _Search(ismcts.ISMCTSBot):  # type: ignore[misc, name-defined]
        def restart_at(self, state: Any) -> None:
            self.reset()

        def inform_action(self, state: Any, player: int, action: int) -> None:
            pass

    rs = np.random.RandomState(None if seed is None else seed % (1 << 31))
    bot = _Search(
        game,
        RolloutEvaluator(rollouts, None if seed is None else seed + 1, max_steps),
        uct_c,
        simulations,
        random_state=rs,
    )
    bot.set_resampler(resampler(None if seed is None else seed + 2))
    return bot


class SpielBot:
    """A bot of ours as an OpenSpiel bot (for ``evaluate_bots``), seated at ``seat``.

    It hands its bot exactly the seat's observations (read from the wrapped
    engine state's stream of that seat) and translates the bot's engine action;
    a BS play is given card by card, then committed.
    """

    def __new__(cls, bot: Bot, seat: int) -> Any:
        ps = _require()

        class _Adapter(ps.Bot):  # type: ignore[misc, name-defined]
            def __init__(self) -> None:
                ps.Bot.__init__(self)
                self.bot = bot
                self.seat = seat
                self._seen = 0
                self._plan: list[int] = []

            def restart_at(self, state: Any) -> None:
                self.bot.restart(state.inner.game, self.seat)
                self._seen = 0
                self._plan = []

            def inform_action(self, state: Any, player: int, action: int) -> None:
                pass

            def step(self, state: Any) -> int:
                inner = state.inner
                obs = inner.observations(self.seat)
                for o in obs[self._seen :]:
                    self.bot.inform(o)
                self._seen = len(obs)
                if self._plan:
                    return self._plan.pop(0)
                action = int(self.bot.step(inner.legal_actions(self.seat)))
                sp = state.get_game().spelling
                if sp is None or action in (0, 1):
                    return action
                counts = inner.game.decode(action)
                self._plan = [2 + k for k, c in enumerate(counts) for _ in range(c)]
                self._plan.append(sp.commit)
                return self._plan.pop(0)

        return _Adapter()
