"""Write the golden BS playthroughs: ``python tests/golden/bs_regenerate.py``.

Each file is a seeded game of the narrator's default bots (probabilistic,
knowledge, truthful, threshold), one line per step: the actor, the action,
and the observations of seat 0 that step produced (so the file also shows
what seat 0 may and may not see).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent.parent))

from games.base import CHANCE, TERMINAL, load_game, make_bot  # noqa: E402

BOTS = ("probabilistic", "knowledge", "truthful", "threshold")
CASES = {
    "bs_koth_seed7.txt": {"variant": "koth", "seed": 7},
    "bs_classic_seed1.txt": {"variant": "classic", "seed": 1},
}


def playthrough(variant: str, seed: int) -> str:
    """The transcript of one seeded game."""
    game = load_game("bs", variant=variant)
    n = game.num_players()
    bots = [make_bot("bs", BOTS[s % len(BOTS)], seed=seed * 31 + s) for s in range(n)]
    for s, b in enumerate(bots):
        b.restart(game, s)
    state = game.new_initial_state()
    rng = random.Random(seed)
    seen = [0] * n
    lines = [f"# bs variant={variant} seed={seed} bots={','.join(BOTS)}"]
    shown = 0
    while True:
        for s, b in enumerate(bots):
            obs = state.observations(s)
            while seen[s] < len(obs):
                b.inform(obs[seen[s]])
                seen[s] += 1
        cur = state.current_player()
        if cur == TERMINAL:
            break
        if cur == CHANCE:
            outcomes = state.chance_outcomes()
            r = rng.random()
            acc = 0.0
            action = outcomes[-1][0]
            for a, p in outcomes:
                acc += p
                if r < acc:
                    action = a
                    break
            who = "chance"
        else:
            action = bots[cur].step(state.legal_actions(cur))
            who = f"P{cur}"
        text = state.action_to_string(cur, action)
        state.apply_action(action)
        new = state.observations(0)[shown:]
        shown = len(state.observations(0))
        tail = "  | " + " ; ".join(str(o) for o in new) if new else ""
        lines.append(f"{who}: {text}{tail}")
    lines.append(f"returns {state.returns()}")
    return "\n".join(lines) + "\n"


def render(name: str) -> str:
    """The text of golden file ``name``."""
    return playthrough(**CASES[name])  # type: ignore[arg-type]


def main() -> None:
    for name in CASES:
        (ROOT / name).write_text(render(name), encoding="utf-8")
        print(f"wrote {name}")


if __name__ == "__main__":
    main()
