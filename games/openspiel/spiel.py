"""Our games as OpenSpiel (``pyspiel``) Python games.

Each game of :mod:`games` is registered with OpenSpiel under ``kripke_<name>``
(``kripke_bs``, ``kripke_boerenbridge``, ``kripke_shengji``, ``kripke_bs_zpy``),
so ``pyspiel.load_game("kripke_bs", {"variant": "koth"})`` and every algorithm of
OpenSpiel that works on Python games (``evaluate_bots``, IS-MCTS, CFR on small
decks) play them.  A :class:`SpielState` wraps one of our engine states and
forwards the OpenSpiel API to it:

* game type: sequential, explicit stochastic chance, imperfect information,
  general-sum, terminal rewards (our returns);
* parameters: every field of the game's parameter object, by name.  Numbers,
  texts and booleans keep their type; lists are texts with ``/`` between the
  items (``rounds="3/4/5"``, ``"3/"`` for one round); a parameter whose
  default depends on the variant, or may be left open (``None``), is left to
  the variant by -1 (numbers and yes/no as 0/1) or the empty text, so every
  game string OpenSpiel writes reads back as the same game;
* chance outcomes, legal actions, ``action_to_string``, returns: the engine's;
* ``information_state_string(p)``: the engine's ``information_state_string(p)``,
  the seat's own observations one per line; ``observation_string(p)``: the
  seat's latest observation.  No tensors: IS-MCTS, ``evaluate_bots`` and
  tabular CFR key on strings only.

BS plays any number of cards at once, so its engine actions (a count vector
over card kinds in mixed radix: up to 5**13 for ``koth`` and 2**52 for
``classic``) do not fit OpenSpiel's action range.  Here a BS play is spelt out
card by card: ``PASS`` (0) and ``CALL`` (1) as in the engine, ``2 + k`` adds one
card of kind ``k`` to the play being built (kinds in ascending order, so every
play has one spelling) and ``2 + kinds`` commits it.  The cards selected so far
are seen by the player alone (a last line ``selected 7H 7S`` of its
information state).  Shengji and BS-ZPY already build plays card by card and
keep their engine actions; BoerenBridge's are cards and guesses.

Serialisation: :func:`serialize_state` writes the game (name and parameters
as JSON) and the action history as text and :func:`deserialize_state` replays the history through the engine,
checking every action.  OpenSpiel's own ``pyspiel.serialize_game_and_state``
also works on these games, but its ``deserialize_game_and_state`` unpickles the
Python half of the text; feed it only strings you made yourself.

The module imports without ``pyspiel``; using it then raises
:class:`OpenSpielMissingError` (install the extra: ``pip install
"kripke-games[openspiel]"``).

Examples
--------
>>> from games.openspiel.spiel import spiel_name, spiel_params
>>> spiel_name("bs-zpy"), spiel_params("boerenbridge", rounds=(3, 4), zero_bonus=None)
('kripke_bs_zpy', {'rounds': '3/4'})
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Mapping
from typing import Any

from games.base import CHANCE, TERMINAL, Game, State, load_game
from games.errors import GameError, IllegalActionError, InvalidParameterError, UnknownGameError

try:
    import pyspiel
except ImportError:  # the optional extra is not installed
    pyspiel = None

__all__ = [
    "GAMES",
    "OpenSpielMissingError",
    "SpielGame",
    "SpielState",
    "SpielObserver",
    "available",
    "deserialize_state",
    "game_from",
    "register_games",
    "serialize_state",
    "spiel_name",
    "spiel_params",
]

#: Our game name -> its variants (the first is the default).
GAMES: dict[str, tuple[str, ...]] = {
    "bs": ("classic", "koth"),
    "boerenbridge": ("standard", "lamas"),
    "shengji": ("tractor", "zpy"),
    "bs-zpy": ("zpy",),
}


class OpenSpielMissingError(GameError, ImportError):
    """OpenSpiel (the ``open-spiel`` package, module ``pyspiel``) is not installed."""


def available() -> bool:
    """Whether ``pyspiel`` can be imported."""
    return pyspiel is not None


def _require() -> Any:
    if pyspiel is None:
        raise OpenSpielMissingError(
            "OpenSpiel is not installed: pip install 'kripke-games[openspiel]' "
            "(the open-spiel package)"
        )
    return pyspiel


def spiel_name(game: str) -> str:
    """OpenSpiel's name of our game ``game`` (``bs`` -> ``kripke_bs``).

    Raises
    ------
    UnknownGameError
        For a game with no OpenSpiel counterpart, naming the known ones.
    """
    if game not in GAMES:
        raise UnknownGameError(f"no OpenSpiel game for {game!r}; games: {', '.join(sorted(GAMES))}")
    return "kripke_" + game.replace("-", "_")


# ------------------------------------------------------------------ parameters
#: OpenSpiel's value of a parameter left to the variant (by form: ints, texts).
UNSET_INT = -1
UNSET_TEXT = ""


def _base_type(annotation: str) -> tuple[str, bool]:
    """``("int", True)`` for ``"int | None"``: the scalar type and whether ``None`` is allowed."""
    parts = [p.strip() for p in annotation.split("|")]
    optional = "None" in parts
    rest = [p for p in parts if p != "None"]
    if len(rest) != 1:
        raise InvalidParameterError(f"parameter type {annotation!r} has no OpenSpiel form")
    return rest[0], optional


def _forms(game: str) -> dict[str, tuple[str, bool]]:
    """Each parameter's OpenSpiel form and whether it is left to the variant by default.

    Forms: ``int``, ``bool``, ``str`` (plain values), ``int?`` (an int, or
    -1 for the variant's default; booleans that may be unset are ``int?`` with
    0 and 1), ``str?`` (a text, or empty for the variant's default) and
    ``list`` (ints with ``/`` after each but the last, ``3/`` for one item,
    ``/`` for none; empty for the variant's default).
    """
    variants = GAMES[game]
    per_variant = [
        load_game(game, variant=v).params if game != "bs-zpy" else load_game(game).params
        for v in variants
    ]
    out: dict[str, tuple[str, bool]] = {}
    for f in dataclasses.fields(per_variant[0]):
        base, optional = _base_type(str(f.type))
        values = [getattr(p, f.name) for p in per_variant]
        varies = optional or any(v != values[0] for v in values)
        if base.startswith("tuple"):
            out[f.name] = ("list", True)
        elif base in ("int", "bool") and (varies or base == "bool" and optional):
            out[f.name] = ("int?", True)
        elif base == "str" and (varies or str(values[0]).isdigit()):
            # a digit-only text would come back from an OpenSpiel game string as an int
            out[f.name] = ("str?", True)
        elif base in ("int", "bool", "str", "float"):
            out[f.name] = (base, False)
        else:
            raise InvalidParameterError(f"{game} parameter {f.name}: type {f.type} has no form")
    return out


def _defaults(game: str) -> dict[str, Any]:
    """Every parameter of ``game`` with its OpenSpiel default value."""
    params = load_game(game).params
    out: dict[str, Any] = {}
    for name, (form, unset) in _forms(game).items():
        if name == "variant":
            out[name] = GAMES[game][0]
        elif form == "int?":
            out[name] = UNSET_INT
        elif unset:
            out[name] = UNSET_TEXT
        else:
            out[name] = getattr(params, name)
    return out


def spiel_params(game: str, **params: Any) -> dict[str, Any]:
    """Our keyword parameters as OpenSpiel parameters (see :func:`_forms`).

    Examples
    --------
    >>> spiel_params("bs", variant="koth", max_rounds=50)
    {'variant': 'koth', 'max_rounds': 50}
    >>> spiel_params("boerenbridge", rounds=(3,), no_trump_rounds=(), zero_bonus=15)
    {'rounds': '3/', 'no_trump_rounds': '/', 'zero_bonus': 15}
    """
    forms = _forms(game)
    out: dict[str, Any] = {}
    for key, value in params.items():
        if key not in forms:
            raise InvalidParameterError(
                f"unknown {game} parameter {key!r}; parameters: {', '.join(sorted(forms))}"
            )
        if value is None:
            continue
        form = forms[key][0]
        if form == "list":
            items = [str(int(x)) for x in value]
            out[key] = "/".join(items) + ("/" if len(items) < 2 else "")
        elif form == "int?":
            out[key] = int(value)
        elif form == "str?":
            out[key] = str(value)
        else:
            out[key] = value
    return out


def _from_spiel(game: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """OpenSpiel parameters back to our keywords; unset ones are left to the variant."""
    forms = _forms(game)
    types = {f.name: _base_type(str(f.type))[0] for f in dataclasses.fields(load_game(game).params)}
    out: dict[str, Any] = {}
    for key, value in params.items():
        if key not in forms:
            raise InvalidParameterError(
                f"unknown {spiel_name(game)} parameter {key!r}; "
                f"parameters: {', '.join(sorted(forms))}"
            )
        form = forms[key][0]
        if form == "list":
            text = str(value).strip()
            if not text:
                continue
            try:
                out[key] = tuple(int(x) for x in text.replace(",", "/").split("/") if x.strip())
            except ValueError:
                raise InvalidParameterError(
                    f"{spiel_name(game)} parameter {key}={value!r} is not a list of ints "
                    "(write 3/4/5, or 3/ for one item)"
                ) from None
        elif form == "int?":
            if value == UNSET_INT:
                continue
            out[key] = bool(value) if types[key] == "bool" else value
        elif form == "str?":
            if value == UNSET_TEXT:
                continue
            out[key] = value
        else:
            out[key] = value
    return out


# ------------------------------------------------------------- game geometry
@dataclasses.dataclass(frozen=True)
class _Shape:
    num_distinct_actions: int
    max_chance_outcomes: int
    max_game_length: int
    min_utility: float
    max_utility: float


def _shape(game: Game) -> _Shape:
    name = game.name
    n = game.num_players()
    if name == "bs":
        kinds = game.num_kinds  # type: ignore[attr-defined]
        total = game.deck.total  # type: ignore[attr-defined]
        cap = game.params.max_rounds * n
        chance = max(24 if game.koth else n, kinds, n)  # type: ignore[attr-defined]
        length = 1 + total + cap * (total + 1 + n + 2)
        return _Shape(kinds + 3, chance, length, 0.0, 1.0)
    if name == "boerenbridge":
        from games.boerenbridge.rules import GUESS_BASE, SUIT_BASE

        p = game.params
        hi = lo = 0.0
        length = 0
        for cards in p.rounds:
            bonus = max(p.hit_bonus, p.zero_bonus or 0)
            hi += p.trick_points * cards + bonus
            lo -= p.miss_penalty * cards
            length += 2 * cards * n + n + 1
        return _Shape(GUESS_BASE + 9, SUIT_BASE + 4, length, lo, hi)
    if name in ("shengji", "bs-zpy"):
        from games.shengji.rules.cards import NUM_FACES

        rules = game.rules  # type: ignore[attr-defined]
        cards = NUM_FACES * rules.decks
        rounds = game.params.rounds
        # a round: the draws and bids, the kitty, friends, and each card selected,
        # committed and (BS-ZPY) claimed and called; a first round without bids is
        # dealt again, so this is a practical bound (eight deals per round)
        per_round = 8 * cards * (n + 1) + 6 * cards + 4 * cards * n
        if name == "bs-zpy":
            return _Shape(6000 + NUM_FACES, 7000 + NUM_FACES, rounds * per_round, -196.0, 196.0)
        bound = 14.0 * 14.0 * rounds
        return _Shape(3000 + 10 * NUM_FACES, 5000 + NUM_FACES, rounds * per_round, -bound, bound)
    raise UnknownGameError(f"no OpenSpiel game for {name!r}")


# --------------------------------------------------------------- BS spelling
class _BSSpelling:
    """BS plays spelt card by card (see the module docstring)."""

    def __init__(self, game: Game):
        self.kinds: int = game.num_kinds  # type: ignore[attr-defined]
        self.commit = 2 + self.kinds
        self.game = game

    def legal(self, inner: State, selection: list[int]) -> list[int]:
        legal = inner.legal_actions()
        if inner.phase == "call":  # type: ignore[attr-defined]
            return list(legal)
        hand = inner._hands[inner.current_player()]  # type: ignore[attr-defined]
        first = inner.phase == "first"  # type: ignore[attr-defined]
        chosen = sum(selection)
        if first and chosen == 1:
            return [self.commit]
        last = max((k for k, c in enumerate(selection) if c), default=0)
        out = [2 + k for k in range(last, self.kinds) if hand[k] > selection[k]]
        if chosen and not first:
            out.append(self.commit)
        return out

    def text(self, action: int, selection: list[int]) -> str:
        if action in (0, 1):
            return self.game.action_text(action)  # type: ignore[attr-defined]
        if action == self.commit:
            return "play " + " ".join(self.names(selection))
        return f"select {self.game.deck.name(action - 2)}"  # type: ignore[attr-defined]

    def names(self, selection: list[int]) -> list[str]:
        d = self.game.deck  # type: ignore[attr-defined]
        return [d.name(k) for k, c in enumerate(selection) for _ in range(c)]


# ------------------------------------------------------------------ registry
_REGISTERED: set[str] = set()


def _game_type(game: str) -> Any:
    ps = _require()
    min_p, max_p = {"bs": (2, 52), "boerenbridge": (3, 4), "shengji": (4, 10), "bs-zpy": (4, 10)}[
        game
    ]
    return ps.GameType(
        short_name=spiel_name(game),
        long_name=f"kripke-games {game}",
        dynamics=ps.GameType.Dynamics.SEQUENTIAL,
        chance_mode=ps.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=ps.GameType.Information.IMPERFECT_INFORMATION,
        utility=ps.GameType.Utility.GENERAL_SUM,
        reward_model=ps.GameType.RewardModel.TERMINAL,
        max_num_players=max_p,
        min_num_players=min_p,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=_defaults(game),
    )


def register_games() -> list[str]:
    """Register every game of ours with OpenSpiel (idempotent); their OpenSpiel names.

    Raises
    ------
    OpenSpielMissingError
        Without ``pyspiel``.
    """
    ps = _require()
    names = []
    for game in GAMES:
        name = spiel_name(game)
        if name not in _REGISTERED and name not in ps.registered_names():
            ps.register_game(_game_type(game), _loader(game))
        _REGISTERED.add(name)
        names.append(name)
    return names


def game_from(game: Game) -> SpielGame:
    """The OpenSpiel game of one of our :class:`~games.base.Game` objects (same parameters)."""
    if game.name not in GAMES:
        raise UnknownGameError(f"no OpenSpiel game for {game.name!r}")
    register_games()
    fields = dataclasses.asdict(game.params)
    defaults = load_game(game.name, variant=fields["variant"]).params
    given = {
        k: v
        for k, v in fields.items()
        if k == "variant" or v != getattr(defaults, k) or k == "players"
    }
    if game.name == "bs-zpy":
        given.pop("variant", None)
    return SpielGame(game.name, spiel_params(game.name, **given), inner=game)


def _loader(game: str) -> type:
    """A subclass of :class:`SpielGame` that OpenSpiel builds from parameters alone."""

    def __init__(self: SpielGame, params: Any = None) -> None:
        SpielGame.__init__(self, game, dict(params or {}))

    return type(f"Spiel_{game.replace('-', '_')}", (SpielGame,), {"__init__": __init__})


_SpielGameBase: Any = pyspiel.Game if pyspiel is not None else object
_SpielStateBase: Any = pyspiel.State if pyspiel is not None else object


class SpielGame(_SpielGameBase):  # type: ignore[misc]
    """One of our games as an OpenSpiel Python game (see the module docstring).

    Parameters
    ----------
    game : str
        Our name (``"bs"``, ``"boerenbridge"``, ``"shengji"``, ``"bs-zpy"``).
    params : dict
        OpenSpiel parameters (see :func:`spiel_params`).
    """

    def __init__(self, game: str, params: Mapping[str, Any], inner: Game | None = None):
        ps = _require()
        if inner is None:
            inner = load_game(game, **_from_spiel(game, params))
        self.inner: Game = inner
        self.kripke_name = game
        shape = _shape(inner)
        info = ps.GameInfo(
            num_distinct_actions=shape.num_distinct_actions,
            max_chance_outcomes=shape.max_chance_outcomes,
            num_players=inner.num_players(),
            min_utility=shape.min_utility,
            max_utility=shape.max_utility,
            max_game_length=shape.max_game_length,
        )
        super().__init__(_game_type(game), info, dict(params))
        self.spelling = _BSSpelling(inner) if game == "bs" else None

    def new_initial_state(self) -> SpielState:
        """A fresh state (the first chance node of the game)."""
        return SpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SpielObserver:
        """The observer of OpenSpiel's information-state and observation strings."""
        return SpielObserver(iig_obs_type, params)


_BS_LISTS = ("_order", "_sizes", "_undealt", "_pile", "_play", "_queue", "_callers", "_history")


def _clone(st: State) -> State:
    """A fast independent copy of an engine state (the game object shared)."""
    if type(st).clone is not State.clone:
        return st.clone()
    if st.game.name == "bs":
        out = copy.copy(st)
        d = out.__dict__
        for key in _BS_LISTS:
            d[key] = list(d[key])
        d["_hands"] = [list(h) for h in d["_hands"]]
        d["_observations"] = [list(o) for o in d["_observations"]]
        return out
    return copy.deepcopy(st, {id(st.game): st.game})


class _Inner:
    """Holds an engine state; OpenSpiel's clone deep-copies it through :meth:`State.clone`."""

    __slots__ = ("state",)

    def __init__(self, state: State):
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Inner:
        return _Inner(_clone(self.state))

    def __getstate__(self) -> State:
        return self.state

    def __setstate__(self, state: State) -> None:
        self.state = state


class SpielState(_SpielStateBase):  # type: ignore[misc]
    """An OpenSpiel state wrapping one of our engine states (``self.inner``)."""

    def __init__(self, game: SpielGame, inner: State | None = None):
        super().__init__(game)
        self._holder = _Inner(inner if inner is not None else game.inner.new_initial_state())
        self._selection: list[int] = [0] * game.spelling.kinds if game.spelling else []
        self._spelling = game.spelling

    @property
    def inner(self) -> State:
        """The wrapped engine state (the true state: never show it to a bot)."""
        return self._holder.state

    def selection(self) -> list[int]:
        """BS: count vector of the cards selected so far for the play being built."""
        return list(self._selection)

    # ---------------------------------------------------------- OpenSpiel API
    def current_player(self) -> int:
        cur = self.inner.current_player()
        if cur == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if cur == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return cur

    def _legal_actions(self, player: int) -> list[int]:
        inner = self.inner
        if player != inner.current_player():
            return []
        if self._spelling is not None:
            return self._spelling.legal(inner, self._selection)
        return list(inner.legal_actions(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.inner.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        inner = self.inner
        sp = self._spelling
        if sp is None or inner.is_chance_node() or action in (0, 1):
            inner.apply_action(int(action))
            return
        if action == sp.commit:
            if not any(self._selection):
                raise IllegalActionError("commit with no card selected")
            play = self.inner.game.encode(self._selection)  # type: ignore[attr-defined]
            self._selection = [0] * sp.kinds
            inner.apply_action(play)
            return
        if action not in sp.legal(inner, self._selection):
            raise IllegalActionError(
                f"P{inner.current_player()} cannot select {action}: not a card it may add"
            )
        self._selection[action - 2] += 1

    def _action_to_string(self, player: int, action: int) -> str:
        sp = self._spelling
        if sp is not None and player >= 0:
            return sp.text(action, self._selection)
        return self.inner.action_to_string(player, action)

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        if not self.inner.is_terminal():
            return [0.0] * self.inner.num_players()
        return [float(r) for r in self.inner.returns()]

    def __str__(self) -> str:
        return str(self.inner)

    # ------------------------------------------------------------ observers
    def _selected_line(self, player: int) -> str:
        if self._spelling is None or not any(self._selection):
            return ""
        if player != self.inner.current_player():
            return ""
        return "selected " + " ".join(self._spelling.names(self._selection))

    def info_string(self, player: int) -> str:
        """``player``'s information state: its observations, then its own selection."""
        text = self._seat_text(player)
        sel = self._selected_line(player)
        return f"{text}\n{sel}" if sel and text else (sel or text)

    def _seat_text(self, player: int) -> str:
        """The engine's ``information_state_string(player)``, extended as observations arrive
        (a search asks for it at every node; the cache keeps that linear)."""
        inner = self.inner
        if type(inner).information_state_string is not State.information_state_string:
            return inner.information_state_string(player)
        obs = inner._observations[player]
        cache = self.__dict__.setdefault("_texts", {})
        n, text = cache.get(player, (0, ""))
        if n > len(obs):
            n, text = 0, ""
        if n < len(obs):
            new = "\n".join(str(o) for o in obs[n:])
            text = f"{text}\n{new}" if text else new
            cache[player] = (len(obs), text)
        return text

    def obs_string(self, player: int) -> str:
        """``player``'s latest observation, then its own selection."""
        text = self.inner.observation_string(player)
        sel = self._selected_line(player)
        return f"{text}\n{sel}" if sel and text else (sel or text)


class SpielObserver:
    """OpenSpiel observer: strings only (``tensor`` is ``None``).

    Perfect recall gives the information-state string, otherwise the
    observation string; both contain exactly what the seat observed.
    """

    def __init__(self, iig_obs_type: Any = None, params: Any = None):
        if params:
            raise InvalidParameterError(f"observer parameters are not supported: {params!r}")
        ps = _require()
        if iig_obs_type is not None and (
            iig_obs_type.private_info != ps.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise InvalidParameterError(
                "only the seat's own view is available (public and single-player private "
                f"information), not {iig_obs_type!r}"
            )
        self.perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type else False
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: SpielState, player: int) -> None:
        """No tensors: nothing to set."""

    def string_from(self, state: SpielState, player: int) -> str:
        """The information-state or observation string of ``player``."""
        if self.perfect_recall:
            return state.info_string(player)
        return state.obs_string(player)


# -------------------------------------------------------------- serialisation
def serialize_state(state: SpielState) -> str:
    """The game and the action history of ``state`` as two lines of text.

    The first line is the OpenSpiel name and the parameters as JSON, the
    second the actions (see :func:`deserialize_state`).
    """
    game = state.get_game()
    head = json.dumps({"game": game.get_type().short_name, "params": game.get_parameters()})
    return head + "\n" + " ".join(str(int(a)) for a in state.history())


def deserialize_state(text: str) -> SpielState:
    """Rebuild a state from :func:`serialize_state`'s text by replaying its actions.

    Raises
    ------
    InvalidParameterError
        Text that is not a game line followed by a line of integer actions.
    IllegalActionError
        An action that is not legal where it is replayed, naming it.
    """
    ps = _require()
    register_games()
    lines = text.split("\n")
    if len(lines) != 2:
        raise InvalidParameterError("a serialised state is a game line and an action line")
    try:
        head = json.loads(lines[0])
        name, params = head["game"], head["params"]
        if not isinstance(params, dict) or name not in {spiel_name(g) for g in GAMES}:
            raise ValueError(name)
    except (ValueError, KeyError, TypeError):
        raise InvalidParameterError(
            f"{lines[0][:80]!r} does not name a kripke-games game"
        ) from None
    try:
        game = ps.load_game(name, params)
    except ps.SpielError as exc:
        raise InvalidParameterError(f"cannot load {name} with {params}: {exc}") from None
    state = game.new_initial_state()
    for tok in lines[1].split():
        try:
            action = int(tok)
        except ValueError:
            raise InvalidParameterError(f"{tok!r} is not an action (an integer)") from None
        if state.is_terminal():
            raise IllegalActionError(f"action {action} after the end of the game")
        legal = state.chance_outcomes() if state.is_chance_node() else None
        if legal is not None and action not in dict(legal):
            raise IllegalActionError(f"{action} is not a chance outcome here")
        if legal is None and action not in state.legal_actions():
            raise IllegalActionError(
                f"P{state.current_player()} cannot play {action} here: not a legal action"
            )
        state.apply_action(action)
    return state
