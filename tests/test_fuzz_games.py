"""Fuzz every game's ``apply_action`` with arbitrary ints and objects.

At random points of seeded random playouts (chance, decision and terminal
nodes of every game and variant) an arbitrary value is offered to
``apply_action``.  Either it is one of the legal actions and is applied, or
the engine refuses it with :class:`IllegalActionError` and the state is
unchanged: the history, every seat's observations and information-state
string, the player to move and the legal actions.  Any other exception is an
escape.  ``benchmarks/fuzz_games.py`` runs the same check on many more inputs.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import TERMINAL, State, load_game, sample_chance
from games.errors import IllegalActionError

#: Every game and variant the fuzz visits, as ``load_game`` keyword arguments.
CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "bs-classic": ("bs", {"variant": "classic"}),
    "bs-koth": ("bs", {"variant": "koth"}),
    "boerenbridge-standard": ("boerenbridge", {"variant": "standard"}),
    "boerenbridge-lamas": ("boerenbridge", {"variant": "lamas"}),
    "shengji-tractor": ("shengji", {"variant": "tractor"}),
    "shengji-zpy": ("shengji", {"variant": "zpy"}),
    "bs-zpy": ("bs-zpy", {}),
}

_STATES: dict[tuple[str, int], list[State]] = {}


def playout_points(config: str, seed: int, points: int = 12) -> list[State]:
    """``points`` states of one seeded random playout (the last one terminal or deep)."""
    key = (config, seed)
    if key not in _STATES:
        name, params = CONFIGS[config]
        game = load_game(name, **params)
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal() and len(state.history()) < 3000:
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        actions = state.history()
        cuts = sorted(rng.sample(range(len(actions)), min(points - 1, len(actions))))
        found = []
        for cut in cuts:
            point = game.new_initial_state()
            for a in actions[:cut]:
                point.apply_action(a)
            found.append(point)
        _STATES[key] = found + [state]
    return _STATES[key]


def snapshot(state: State) -> tuple[Any, ...]:
    """Everything a refused action must leave unchanged."""
    n = state.num_players()
    cur = state.current_player()
    legal = (
        list(state.legal_actions()) if cur != TERMINAL and len(state.legal_actions()) < 5000 else []
    )
    return (
        state.history(),
        [state.observations(s) for s in range(n)],
        [state.information_state_string(s) for s in range(n)],
        cur,
        legal,
        str(state),
    )


class Escape(Exception):
    """An input the engine did not refuse with a typed error, or a refusal that changed the state."""


def offer(state: State, action: Any) -> str:
    """Offer ``action`` to a clone of ``state``: ``"applied"``, ``"refused"``, or raise :class:`Escape`."""
    s = state.clone()
    before = snapshot(s)
    legal = s.legal_actions()
    try:
        s.apply_action(action)
    except IllegalActionError:
        after = snapshot(s)
        if after != before:
            raise Escape(f"{action!r} was refused but changed the state") from None
        return "refused"
    except Exception as exc:
        raise Escape(f"{action!r} raised {type(exc).__name__}: {exc}") from exc
    ok = (
        isinstance(action, int)
        and not isinstance(action, bool)
        and before[3] != TERMINAL
        and action in legal
    )
    if not ok:
        raise Escape(f"{action!r} is not a legal action but was applied")
    return "applied"


def _near_legal(state: State) -> st.SearchStrategy[int]:
    legal = state.legal_actions()
    if not legal:
        return st.integers(-3, 3)
    base = [legal[0], legal[len(legal) - 1], legal[len(legal) // 2]]
    return st.builds(lambda b, d: b + d, st.sampled_from(base), st.integers(-3, 3))


ARBITRARY: st.SearchStrategy[Any] = st.one_of(
    st.integers(),
    st.integers(-(2**70), 2**70),
    st.sampled_from([-1, 0, 1, 2**31, 2**31 - 1, 2**63, 2**63 - 1, -(2**63), 2**64, 10**30]),
    st.booleans(),
    st.floats(allow_nan=True),
    st.text(max_size=8),
    st.binary(max_size=4),
    st.none(),
    st.lists(st.integers(0, 60), max_size=4),
    st.tuples(st.integers(0, 60), st.integers(0, 60)),
    st.dictionaries(st.integers(0, 5), st.integers(0, 5), max_size=2),
    st.sampled_from([object(), 1.0, 3.0 + 0j, frozenset({1}), b"7H", "7H", "pass", "call"]),
)


def action_strategy(state: State) -> st.SearchStrategy[Any]:
    """Arbitrary values, with ints near the legal actions mixed in."""
    return st.one_of(ARBITRARY, _near_legal(state))


@pytest.mark.parametrize("config", sorted(CONFIGS))
@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_apply_action_refuses_with_a_typed_error_and_changes_nothing(config, data):
    seed = data.draw(st.integers(0, 2), label="playout seed")
    states = playout_points(config, seed)
    state = data.draw(st.sampled_from(states), label="point")
    action = data.draw(action_strategy(state), label="action")
    offer(state, action)


def test_a_refused_action_leaves_a_deep_state_alone():
    # a state deep in a BS game: refusing -1, a huge int and a non-int keeps its observations
    state = playout_points("bs-classic", 0)[-2]
    for action in (-1, 10**30, 2**63, "7H", None, 1.5, True):
        assert offer(state, action) == "refused"
