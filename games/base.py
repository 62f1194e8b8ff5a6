"""The game ``State`` API shared by every game, bots, and the game registry.

The method names follow OpenSpiel's Python API verbatim (``legal_actions``,
``apply_action``, ``is_chance_node``, ``chance_outcomes``, ``is_terminal``,
``returns``, ``information_state_string``, ``observation_string``, ``clone``).
Game authors subclass :class:`State` and implement the underscored hooks; the
base class validates actions, keeps the history and hands every seat its own
stream of :class:`Observation` objects.

Observations are the bridge between games and epistemic logic: a seat's
information state *is* the sequence of observations it received, so two game
states look the same to seat ``i`` exactly when ``information_state_string(i)``
is equal.  Bots receive these observations and nothing else.
"""

from __future__ import annotations

import copy
import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.errors import (
    BotError,
    GameError,
    IllegalActionError,
    InvalidParameterError,
    UnknownGameError,
)

__all__ = [
    "CHANCE",
    "TERMINAL",
    "ALL",
    "Observation",
    "LazyActions",
    "Game",
    "State",
    "Bot",
    "GameResult",
    "register_game",
    "register_bot",
    "load_game",
    "game_parameters",
    "make_bot",
    "registered_games",
    "registered_bots",
    "game_variants",
    "game_doc",
    "game_narrator",
    "play_game",
    "sample_chance",
]

#: ``current_player()`` of a chance node.
CHANCE = -1
#: ``current_player()`` of a terminal state.
TERMINAL = -4
#: Audience marker: every seat observes the event.
ALL: frozenset[int] = frozenset({-99})


@dataclass(frozen=True, slots=True)
class Observation:
    """One event as one seat observed it.

    Parameters
    ----------
    kind : str
        Event kind, e.g. ``"deal"``, ``"play"``, ``"call"``, ``"reveal"``.
    actor : int or None
        The seat that acted, or ``None`` for chance and the table.
    data : tuple of (str, object) pairs
        What this seat saw, as sorted key/value pairs of plain immutable values
        (ints, strings, tuples).  Hidden content is simply absent.
    public : bool
        Whether every seat received the same observation.
    """

    kind: str
    actor: int | None
    data: tuple[tuple[str, Any], ...] = ()
    public: bool = True

    @classmethod
    def make(
        cls, kind: str, actor: int | None = None, public: bool = True, **data: Any
    ) -> Observation:
        """Build an observation from keyword data (sorted for a canonical form)."""
        return cls(kind, actor, tuple(sorted(data.items())), public)

    def __getitem__(self, key: str) -> Any:
        for k, v in self.data:
            if k == key:
                return v
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        for k, v in self.data:
            if k == key:
                return v
        return default

    def __str__(self) -> str:
        who = "" if self.actor is None else f"P{self.actor} "
        body = " ".join(f"{k}={_show(v)}" for k, v in self.data)
        return f"{who}{self.kind}" + (f" {body}" if body else "")


def _show(v: Any) -> str:
    if isinstance(v, tuple | list):
        return "[" + ",".join(_show(x) for x in v) + "]"
    return str(v)


class LazyActions(Sequence[int]):
    """A sorted, duplicate-free sequence of legal actions computed on demand.

    Games whose legal actions are too many to list every turn (every subset
    of a hand) return one from ``_legal_actions``; :meth:`State.legal_actions`
    passes it on unchanged.  Subclasses implement ``__len__``,
    ``__getitem__`` (the i-th smallest action) and ``__contains__``.
    """

    __slots__ = ()


class Game(ABC):
    """A game with fixed parameters; a factory of initial states.

    Subclasses set ``name`` and implement :meth:`num_players` and
    :meth:`new_initial_state`.  ``params`` is a frozen dataclass holding every
    parameter with its default.
    """

    name: ClassVar[str] = ""

    def __init__(self, params: Any):
        self.params = params

    @abstractmethod
    def num_players(self) -> int:
        """The number of seats."""

    @abstractmethod
    def new_initial_state(self) -> State:
        """A fresh state at the start of the game (usually a chance node)."""

    def __repr__(self) -> str:
        return f"load_game({self.name!r}, {self.params!r})"


class State(ABC):
    """A game state; the only mutable object of the library.

    Implement ``_current_player``, ``_legal_actions``, ``_apply_action``,
    ``_action_to_string`` and ``_returns``; chance nodes also implement
    ``_chance_outcomes``.  Use :meth:`_observe` to send events to seats.
    """

    def __init__(self, game: Game):
        self.game = game
        self._history: list[int] = []
        self._observations: list[list[Observation]] = [[] for _ in range(game.num_players())]

    # ------------------------------------------------------------------ hooks
    @abstractmethod
    def _current_player(self) -> int:
        """Seat to act, :data:`CHANCE` or :data:`TERMINAL`."""

    @abstractmethod
    def _legal_actions(self, player: int) -> list[int]:
        """Legal actions of ``player`` (a decision node), in any order."""

    @abstractmethod
    def _apply_action(self, action: int) -> None:
        """Apply a legal action; the base class has already checked legality."""

    @abstractmethod
    def _action_to_string(self, player: int, action: int) -> str:
        """Readable form of an action."""

    @abstractmethod
    def _returns(self) -> list[float]:
        """Per-seat returns (final scores at a terminal state)."""

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        raise IllegalActionError("not a chance node")

    def _is_legal(self, player: int, action: int) -> bool:
        """Fast legality test; override when ``_legal_actions`` is expensive."""
        return action in self._legal_actions(player)

    def _illegal_reason(self, player: int, action: int) -> str:
        """Why ``action`` is illegal for ``player``; games override with specifics."""
        return "it is not one of the legal actions"

    # ------------------------------------------------------------ public API
    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` (-1) or :data:`TERMINAL` (-4)."""
        return self._current_player()

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        """Whether chance acts next."""
        return self._current_player() == CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Sorted, duplicate-free legal actions (empty at a terminal state)."""
        cur = self._current_player()
        if cur == TERMINAL:
            return []
        if cur == CHANCE:
            return sorted(a for a, _ in self._chance_outcomes())
        if player is not None and player != cur:
            return []
        acts = self._legal_actions(cur)
        if isinstance(acts, LazyActions):
            return acts  # type: ignore[return-value]
        return sorted(set(acts))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(action, probability)`` pairs at a chance node."""
        if self._current_player() != CHANCE:
            raise IllegalActionError("chance_outcomes() called at a node that is not a chance node")
        return sorted(self._chance_outcomes())

    def apply_action(self, action: int) -> None:
        """Apply ``action``; raise :class:`IllegalActionError` and change nothing if illegal."""
        cur = self._current_player()
        if cur == TERMINAL:
            raise IllegalActionError(f"the game is over; action {action} cannot be applied")
        if not isinstance(action, int) or isinstance(action, bool):
            raise IllegalActionError(f"an action is an int, got {action!r}")
        if cur == CHANCE:
            if action not in dict(self._chance_outcomes()):
                raise IllegalActionError(f"{action} is not a chance outcome here")
        elif not self._checked_legal(cur, action):
            raise IllegalActionError(
                f"P{cur} cannot play {self._safe_action_string(cur, action)}: "
                f"{self._safe_illegal_reason(cur, action)}"
            )
        self._apply_action(action)
        self._history.append(action)

    def _checked_legal(self, player: int, action: int) -> bool:
        """``_is_legal``, with an action a game cannot even decode counted as illegal."""
        try:
            return bool(self._is_legal(player, action))
        except (GameError, IndexError, ValueError, OverflowError, KeyError, TypeError):
            return False

    def _safe_illegal_reason(self, player: int, action: int) -> str:
        try:
            return self._illegal_reason(player, action)
        except (GameError, IndexError, ValueError, OverflowError, KeyError, TypeError):
            return f"{action} is not an action of this game"

    def _safe_action_string(self, player: int, action: int) -> str:
        try:
            return self._action_to_string(player, action)
        except Exception:
            return f"action {action}"

    def returns(self) -> list[float]:
        """Per-seat returns; zeros before the end unless the game scores as it goes."""
        return self._returns()

    def history(self) -> list[int]:
        """Every action applied so far, chance outcomes included."""
        return list(self._history)

    def action_to_string(self, player: int, action: int) -> str:
        """Readable form of ``action`` taken by ``player``."""
        return self._action_to_string(player, action)

    def string_to_action(self, player: int, text: str) -> int:
        """The legal action whose string is ``text``."""
        for a in self.legal_actions(player if player >= 0 else None):
            if self._action_to_string(player, a) == text:
                return a
        raise IllegalActionError(f"P{player}: no legal action reads {text!r}")

    def observations(self, player: int) -> tuple[Observation, ...]:
        """Everything ``player`` has observed so far, in order."""
        return tuple(self._observations[player])

    def information_state_string(self, player: int) -> str:
        """``player``'s whole information: its observation sequence, one per line."""
        return "\n".join(str(o) for o in self._observations[player])

    def observation_string(self, player: int) -> str:
        """``player``'s latest observation (empty before the first)."""
        obs = self._observations[player]
        return str(obs[-1]) if obs else ""

    def clone(self) -> State:
        """An independent copy; changing one never changes the other."""
        return copy.deepcopy(self)

    def num_players(self) -> int:
        return self.game.num_players()

    # ------------------------------------------------------- epistemic models
    def _card_history(self) -> Any:
        """Hook: this state's cards as a :class:`games.epistemic.CardHistory`.

        Games with cards override it: the deal, then every card event with
        its exact audience (what was put face down and who saw it, what was
        shown, the public facts).  :mod:`games.epistemic` does the rest.
        """
        raise InvalidParameterError(
            f"{type(self).__name__} does not describe its cards to games.epistemic"
        )

    def card_history(self) -> Any:
        """The state's history of the cards (a :class:`games.epistemic.CardHistory`)."""
        return self._card_history()

    def knowledge(self) -> Any:
        """Every seat's knowledge, nested to any depth (a :class:`games.epistemic.GameKnowledge`).

        ``state.knowledge().knows(1, "K_2 has(3, QS)")``,
        ``.probability(1, "has(2, 7H)")``, ``.holds("C_{1,3} ~has(2, 7H)")``.
        """
        from games.epistemic import GameKnowledge

        return GameKnowledge(self._card_history())

    def knowledge_structure(self) -> Any:
        """The state as a pointed knowledge structure (:class:`kripke.symbolic.PointedStructure`):
        card atoms ``has(location, card)``, the public history as law, each seat
        observing what it saw; pointed at the true history."""
        return self.knowledge().pointed

    def kripke_model(self) -> Any:
        """The state as an explicit pointed Kripke model (decks of at most 12 cards),
        enumerated independently of :meth:`knowledge_structure`."""
        return self.knowledge().kripke_model()

    # ---------------------------------------------------------------- helpers
    def _observe(
        self,
        kind: str,
        actor: int | None = None,
        audience: Iterable[int] | frozenset[int] = ALL,
        hidden: Mapping[str, Any] | None = None,
        **data: Any,
    ) -> None:
        """Send an event to seats.

        Seats in ``audience`` see ``data`` plus ``hidden``; the others see
        ``data`` only.  With the default audience every seat sees everything.
        """
        public_obs = Observation.make(kind, actor, hidden is None or audience is ALL, **data)
        if audience is ALL:
            full = Observation.make(kind, actor, True, **data, **(hidden or {}))
            for seat_obs in self._observations:
                seat_obs.append(full)
            return
        aud = set(audience)
        full = Observation.make(kind, actor, False, **data, **(hidden or {}))
        for seat, seat_obs in enumerate(self._observations):
            if seat in aud:
                seat_obs.append(full)
            elif hidden is not None:
                seat_obs.append(public_obs)

    def __str__(self) -> str:
        return f"{type(self).__name__}(history={self._history})"

    # ---------------------------------------------------------------- display
    def seat_view(self, seat: int) -> list[tuple[str, str]]:
        """The table as ``seat`` sees it, as ``(what, value)`` rows for display.

        Games override this with their own compact table (the seat's hand,
        the other hands as card counts, the pile, the scores); an override
        shows only what ``seat`` has observed.  The default lists, for each
        kind of event and actor, the latest one ``seat`` observed (preferring
        the fuller version when ``seat`` saw both a private event and others'
        redacted ones, e.g. its own deal, and leaving out other seats' private
        events of which ``seat`` saw nothing but that they happened).
        """
        if not 0 <= seat < self.num_players():
            raise InvalidParameterError(
                f"seat {seat} does not exist; seats are 0..{self.num_players() - 1}"
            )
        cur = self._current_player()
        turn = {CHANCE: "chance", TERMINAL: "game over"}.get(cur, f"P{cur}")
        rows = [("seat", f"P{seat}"), ("to move", turn)]
        latest: dict[tuple[str, int | None, frozenset[str]], Observation] = {}
        for obs in self._observations[seat]:
            key = (obs.kind, obs.actor, frozenset(k for k, _ in obs.data))
            latest.pop(key, None)
            latest[key] = obs
        for (kind, actor, keys), obs in latest.items():
            fuller = any(k2 == kind and a2 == actor and keys < ks2 for k2, a2, ks2 in latest)
            unseen = not obs.public and not obs.data  # another seat's private event
            if not fuller and not unseen:
                rows.append((kind if actor is None else f"{kind} P{actor}", str(obs)))
        return rows

    def _repr_html_(self) -> str | None:
        """Notebook display: the acting seat's view (seat 0 at chance and terminal nodes)."""
        try:
            from visualize.tables import seat_view_html
        except ImportError:
            return None
        return seat_view_html(self)


class Bot(ABC):
    """A player that sees only what its seat observes; subclass it to write a bot.

    The controller (:func:`play_game`, a tournament, a table) calls

    1. :meth:`restart` ``(game, seat)`` once per game: the game's parameters
       (``game.params``, ``game.num_players()``) and the bot's seat number;
    2. :meth:`inform` ``(observation)`` with every :class:`Observation` of the
       bot's seat, in order, before each decision: the events of the game as
       this seat saw them.  Another seat's hidden cards are simply absent:
       the seat's own deal shows its cards, another seat's deal only that it
       happened; a face-down play shows the player its cards and everybody
       else the count;
    3. :meth:`step` ``(legal_actions)`` when the seat must act: the sorted
       legal action ints; return one of them (``game`` decodes them, e.g.
       ``game.cards_of(action)`` in BS).

    Nothing else reaches a bot: not the state, not other seats' cards, not
    the other bots.  A bot that raises or returns an illegal action forfeits
    its tournament game.  The constructor takes ``seed`` (``self.rng`` is a
    ``random.Random(seed)``: draw every random choice from it, so a seed
    replays a game); a subclass with its own ``__init__`` accepts ``seed``
    and calls ``super().__init__(seed)``.  ``games`` names the games the bot
    plays (empty: any).  A subclass in a file of one's own plays in a
    tournament as ``--bots path/to/my_bot.py:MyBot`` (:mod:`games.botspec`).

    Examples
    --------
    A bot that plays the smallest legal action and keeps what it saw:

    >>> class Smallest(Bot):
    ...     games = ("bs",)
    ...     def restart(self, game, seat):
    ...         super().restart(game, seat)
    ...         self.seen = []
    ...     def inform(self, observation):
    ...         self.seen.append(observation)
    ...     def step(self, legal_actions):
    ...         return legal_actions[0]
    >>> bots = [Smallest(seed=s) for s in range(4)]
    >>> _ = play_game(load_game("bs", variant="koth"), bots, seed=2, max_steps=54)
    >>> for observation in bots[0].seen:  # seat 0: its own cards, the others' counts
    ...     print(observation)
    order order=[3,2,0,1]
    deal sizes=[13,13,13,13]
    P0 hand cards=[0,0,1,4,4,6,7,9,9,10,11,12,12]
    P1 hand
    P2 hand
    P3 hand
    P3 play count=1 hand=12 rank=0
    >>> print(bots[3].seen[-1])  # the player itself sees the card it put down
    P3 play cards=[0] count=1 hand=12 rank=0
    """

    name: ClassVar[str] = "bot"
    #: The games this bot plays (names as in :func:`load_game`); empty: any game.
    games: ClassVar[tuple[str, ...]] = ()

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.rng = random.Random(seed)
        self.seat = -1
        self.game: Game | None = None

    def restart(self, game: Game, seat: int) -> None:
        """Start a new game at ``seat``."""
        self.game = game
        self.seat = seat

    def inform(self, observation: Observation) -> None:  # noqa: B027 (optional hook)
        """Receive one observation of this bot's seat (default: ignore)."""

    @abstractmethod
    def step(self, legal_actions: Sequence[int]) -> int:
        """Choose one of ``legal_actions``."""


# ------------------------------------------------------------------ registry
@dataclass
class _GameEntry:
    factory: Callable[..., Game]
    bots: dict[str, Callable[..., Bot]] = field(default_factory=dict)
    doc: str = ""
    narrate: Callable[..., int] | None = None
    variants: tuple[str, ...] = ()


_GAMES: dict[str, _GameEntry] = {}

#: Game name -> module that registers it (imported on first use).
_GAME_MODULES: dict[str, str] = {
    "bs": "games.bs",
    "boerenbridge": "games.boerenbridge",
    "shengji": "games.shengji",
    "bs-zpy": "games.bs_zpy",
}


def register_game(
    name: str,
    factory: Callable[..., Game],
    doc: str = "",
    narrate: Callable[..., int] | None = None,
    variants: Sequence[str] = (),
) -> None:
    """Register a game factory under ``name`` (called by each game module).

    ``narrate(args, out) -> int`` runs ``kripke play <name>``: ``args`` is the
    parsed command line (``variant``, ``seed``, ``players``, ``bots``,
    ``human``, ``quiet``, ``params`` as a dict) and ``out`` a text stream.
    ``variants`` names the rule variants (``load_game(name, variant=...)``),
    the default first.
    """
    entry = _GAMES.get(name)
    if entry is None:
        _GAMES[name] = _GameEntry(factory, doc=doc, narrate=narrate, variants=tuple(variants))
    else:
        entry.factory = factory
        entry.doc = doc
        entry.narrate = narrate
        entry.variants = tuple(variants)


def register_bot(game: str, name: str, factory: Callable[..., Bot]) -> None:
    """Register a bot factory ``factory(seed=...)`` for ``game`` under ``name``."""
    _entry(game).bots[name] = factory


def _entry(name: str) -> _GameEntry:
    if name not in _GAMES and name in _GAME_MODULES:
        try:
            importlib.import_module(_GAME_MODULES[name])
        except ModuleNotFoundError as exc:
            if exc.name != _GAME_MODULES[name]:
                raise
    if name not in _GAMES:
        known = ", ".join(sorted(set(_GAMES) | set(_GAME_MODULES)))
        raise UnknownGameError(f"unknown game {name!r}; known games: {known}")
    return _GAMES[name]


def registered_games() -> list[str]:
    """Names of every game that can be loaded."""
    for name in _GAME_MODULES:
        try:
            _entry(name)
        except (UnknownGameError, ImportError):
            continue
    return sorted(_GAMES)


def load_game(name: str, **params: Any) -> Game:
    """Build a registered game with parameters, e.g. ``load_game("bs", variant="koth")``.

    Raises
    ------
    InvalidParameterError
        A parameter the game does not have (the message lists the valid
        ones) or a bad value.

    Examples
    --------
    >>> load_game("bs", foo=1)
    Traceback (most recent call last):
    ...
    games.errors.InvalidParameterError: bs has no parameter 'foo'; its parameters: variant, players, max_rounds
    """
    factory = _entry(name).factory
    try:
        return factory(**params)
    except TypeError as exc:
        valid = game_parameters(name)
        unknown = [k for k in params if valid and k not in valid]
        if unknown:
            raise InvalidParameterError(
                f"{name} has no parameter {unknown[0]!r}; its parameters: {', '.join(valid)}"
            ) from None
        raise InvalidParameterError(f"{name}: {exc}") from None


def game_parameters(name: str) -> list[str]:
    """The parameter names of the game ``name`` (its default parameter object's fields).

    Examples
    --------
    >>> game_parameters("bs")
    ['variant', 'players', 'max_rounds']
    """
    import dataclasses

    try:
        params = _entry(name).factory().params
    except Exception:  # a game that cannot be built with defaults lists nothing
        return []
    if dataclasses.is_dataclass(params):
        return [f.name for f in dataclasses.fields(params)]
    return []


def game_narrator(name: str) -> Callable[..., int]:
    """The narration function registered for ``name`` (``kripke play``)."""
    entry = _entry(name)
    if entry.narrate is None:
        raise UnknownGameError(f"{name} has no narrated play")
    return entry.narrate


def game_variants(name: str) -> tuple[str, ...]:
    """The rule variants of the game ``name``, the default first.

    Examples
    --------
    >>> game_variants("bs")
    ('classic', 'koth')
    """
    return _entry(name).variants


def game_doc(name: str) -> str:
    """The description the game ``name`` registered (its first line is a summary)."""
    return _entry(name).doc


def registered_bots(game: str) -> list[str]:
    """Names of the bots of ``game``: this package's and installed packages' (entry points).

    Installed packages register bots under the entry-point group
    ``kripke_games.bots`` (see :mod:`games.botspec`).
    """
    from games.botspec import entry_point_bots

    return sorted(set(_entry(game).bots) | set(entry_point_bots(game)))


def make_bot(game: str, name: str, seed: int | None = None) -> Bot:
    """Instantiate the bot ``name`` of ``game`` with a seed.

    ``name`` is a registered bot, an installed package's bot (entry point),
    or a bot of one's own: ``path/to/my_bot.py:MyBot`` or
    ``package.module:MyBot`` (:mod:`games.botspec`).

    Raises
    ------
    UnknownGameError
        An unknown game, or a name that is no bot of the game and no spec.
    BotLoadError
        A spec or entry point that cannot be loaded (names what is missing).
    """
    bots = _entry(game).bots
    if name in bots:
        return bots[name](seed=seed)
    from games import botspec

    if botspec.is_bot_spec(name) or botspec.has_entry_point_bot(game, name):
        bot: Bot = botspec.make_bot_from_spec(game, name, seed)
        return bot
    raise UnknownGameError(
        f"unknown bot {name!r} for {game}; known bots: {', '.join(registered_bots(game))}; "
        "or a bot of your own: path/to/my_bot.py:MyBot or package.module:MyBot"
    )


# -------------------------------------------------------------------- runner
@dataclass
class GameResult:
    """Outcome of one game played by :func:`play_game`."""

    returns: list[float]
    history: list[int]
    steps: int
    forfeit: int | None = None
    reason: str = ""
    state: State | None = None


def sample_chance(state: State, rng: random.Random) -> int:
    """One chance outcome of ``state`` drawn with ``rng`` (one ``rng.random()`` call).

    Every runner of this package draws chance this way, so a seed gives the
    same game whichever runner plays it.

    Examples
    --------
    >>> import random
    >>> state = load_game("bs", variant="classic").new_initial_state()
    >>> sample_chance(state, random.Random(3)) in dict(state.chance_outcomes())
    True
    """
    outcomes = state._chance_outcomes()
    r = rng.random()
    acc = 0.0
    for a, p in outcomes:
        acc += p
        if r < acc:
            return a
    return outcomes[-1][0]


def play_game(
    game: Game,
    bots: Sequence[Bot],
    seed: int | None = None,
    *,
    max_steps: int | None = None,
    on_step: Callable[[State, int, int], None] | None = None,
    forfeit_on_error: bool = False,
    keep_state: bool = False,
    start: State | None = None,
    guard: Callable[[int, str, int], AbstractContextManager[Any]] | None = None,
    bot_faults: tuple[type[BaseException], ...] = (Exception, SystemExit),
) -> GameResult:
    """Play one game with ``bots`` (one per seat), chance drawn from ``seed``.

    Each bot receives exactly its seat's observations (``inform``) and the
    legal actions when it must act (``step``).  ``on_step(state, player,
    action)`` is called before each action is applied (narration).  The game
    starts from ``start`` (a state of ``game``, e.g. a hand-made position; it
    is played on, not copied) instead of a new initial state.

    A bot *faults* when its ``restart``, ``inform`` or ``step`` raises one of
    ``bot_faults`` (by default any ``Exception`` and ``SystemExit``: a bot
    cannot end the program; ``KeyboardInterrupt`` is the user's and passes)
    or when ``step`` returns an illegal action.  With ``forfeit_on_error`` a
    faulting bot forfeits: the game stops, that seat's return is -1 and the
    others' 0, and the reason is recorded; otherwise a :class:`BotError` is
    raised.

    ``guard(seat, what, steps)``, if given, is a context manager entered
    around every call of a bot (``what`` is ``"restart"``, ``"inform"`` or
    ``"step"``; ``steps`` the actions applied so far); an exception it raises
    (a time limit, say) is that bot's fault like one the bot raised.

    Examples
    --------
    >>> class Quitter(Bot):
    ...     def step(self, legal_actions):
    ...         raise SystemExit("bye")
    >>> import games.bs
    >>> game = load_game("bs", variant="koth")
    >>> bots = [Quitter()] + [make_bot("bs", "truthful", seed=s) for s in range(3)]
    >>> res = play_game(game, bots, seed=1, forfeit_on_error=True)
    >>> res.forfeit, res.reason
    (0, 'P0 (bot) SystemExit: bye')
    """
    if len(bots) != game.num_players():
        raise InvalidParameterError(f"{game.name} needs {game.num_players()} bots, got {len(bots)}")
    rng = random.Random(seed)
    state = game.new_initial_state() if start is None else start
    steps = 0

    def call(seat: int, what: str, fn: Callable[..., Any], *args: Any) -> Any:
        if guard is None:
            return fn(*args)
        with guard(seat, what, steps):
            return fn(*args)

    def fault(seat: int, what: str, exc: BaseException) -> GameResult:
        where = "" if what == "step" else f" in {what}"
        reason = f"P{seat} ({bots[seat].name}) {type(exc).__name__}{where}: {exc}"
        if not forfeit_on_error:
            raise BotError(reason) from exc
        rets = [0.0] * len(bots)
        rets[seat] = -1.0
        return GameResult(rets, state.history(), steps, seat, reason, state if keep_state else None)

    for seat, bot in enumerate(bots):
        try:
            call(seat, "restart", bot.restart, game, seat)
        except bot_faults as exc:
            return fault(seat, "restart", exc)
    seen = [0] * len(bots)
    while True:
        for seat, bot in enumerate(bots):
            obs = state._observations[seat]
            try:
                while seen[seat] < len(obs):
                    call(seat, "inform", bot.inform, obs[seen[seat]])
                    seen[seat] += 1
            except bot_faults as exc:
                return fault(seat, "inform", exc)
        cur = state.current_player()
        if cur == TERMINAL:
            break
        if max_steps is not None and steps >= max_steps:
            break
        if cur == CHANCE:
            action = sample_chance(state, rng)
        else:
            legal = state.legal_actions(cur)
            try:
                action = call(cur, "step", bots[cur].step, legal)
                if on_step is not None:
                    on_step(state, cur, action)
                state.apply_action(action)
            except bot_faults as exc:  # a misbehaving bot forfeits
                return fault(cur, "step", exc)
            steps += 1
            continue
        if on_step is not None:
            on_step(state, cur, action)
        state.apply_action(action)
        steps += 1
    return GameResult(
        state.returns(), state.history(), steps, None, "", state if keep_state else None
    )
