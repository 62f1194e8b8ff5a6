"""Write the golden BoerenBridge playthroughs: ``python tests/golden/boerenbridge_regenerate.py``.

Each file is a seeded game with greedy bots, one line per step: the actor,
the action, and every public observation that step produced.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent.parent))

from games.base import CHANCE, TERMINAL, load_game, make_bot  # noqa: E402
from games.boerenbridge import SEAT_NAMES  # noqa: E402

CASES = {
    "boerenbridge_standard_seed3.txt": {"variant": "standard", "seed": 3},
    "boerenbridge_lamas_seed3.txt": {"variant": "lamas", "seed": 3},
    "boerenbridge_3players_seed5.txt": {"variant": "standard", "seed": 5, "players": 3},
}


def playthrough(variant: str, seed: int, players: int | None = None) -> str:
    """The transcript of one seeded game of greedy bots."""
    params: dict[str, object] = {"variant": variant}
    if players is not None:
        params["players"] = players
    game = load_game("boerenbridge", **params)
    n = game.num_players()
    bots = [make_bot("boerenbridge", "greedy", seed=seed * 100 + s) for s in range(n)]
    for s, b in enumerate(bots):
        b.restart(game, s)
    state = game.new_initial_state()
    rng = random.Random(seed)
    seen = [0] * n
    lines = [f"# boerenbridge {params} seed={seed}"]
    while True:
        for s, b in enumerate(bots):
            obs = state.observations(s)
            while seen[s] < len(obs):
                b.inform(obs[seen[s]])
                seen[s] += 1
        cur = state.current_player()
        if cur == TERMINAL:
            break
        before = len(state.observations(0))
        if cur == CHANCE:
            outs = state.chance_outcomes()
            x, acc, action = rng.random(), 0.0, outs[-1][0]
            for a, p in outs:
                acc += p
                if x < acc:
                    action = a
                    break
            who = "chance"
        else:
            action = bots[cur].step(state.legal_actions(cur))
            who = SEAT_NAMES[cur]
        text = state.action_to_string(cur, action)
        state.apply_action(action)
        public = [str(o) for o in state.observations(0)[before:] if o.public]
        lines.append(f"{who}: {text}" + (f"  | {' | '.join(public)}" if public else ""))
    lines.append(f"returns {state.returns()}")
    return "\n".join(lines) + "\n"


def main() -> None:
    for name, case in CASES.items():
        (ROOT / name).write_text(playthrough(**case))  # type: ignore[arg-type]
        print("wrote", ROOT / name)


if __name__ == "__main__":
    main()
