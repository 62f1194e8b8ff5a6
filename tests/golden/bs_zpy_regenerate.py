"""Write the golden BS-ZPY playthroughs: ``python tests/golden/bs_zpy_regenerate.py``.

Each file is a seeded game, one line per step: the actor, the action, and what another
seat observed in that step (the public part of every event).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent.parent))

from games.base import CHANCE, TERMINAL, load_game, make_bot  # noqa: E402

#: A five-seat hand-made position (6 cards each, an 8-card kitty).
POSITION = {
    "hands": [
        "AS AS KS 10H 5H 3C",
        "QS JS 9H 9H 4C 5D",
        "10S 8S AH KH 7C 7D",
        "5S 5S QH 2H 9C 3D",
        "4S 3S JH 8H KC KD",
    ],
    "trump": "2S",
    "landlord": 0,
    "friends": ["AH"],
    "kitty": "6C 8C 10C JC 4D 6D 8D 9D",
}

CASES = {
    "bs_zpy_seed5.txt": {
        "seed": 5,
        "bots": ["truthful", "random", "truthful", "random", "truthful"],
    },
    "bs_zpy_position_seed3.txt": {
        "seed": 3,
        "bots": ["knowledge", "bluffer", "truthful", "knowledge", "random"],
        "position": True,
    },
}


def playthrough(seed: int, bots: list[str], position: bool = False) -> str:
    """The transcript of one seeded game."""
    game = load_game("bs-zpy")
    n = game.num_players()
    players = [make_bot("bs-zpy", name, seed=seed * 100 + s) for s, name in enumerate(bots)]
    state = game.position(**POSITION) if position else game.new_initial_state()
    for s, b in enumerate(players):
        b.restart(game, s)
    rng = random.Random(seed)
    seen = [0] * n
    lines = [f"# bs-zpy seed={seed} bots={','.join(bots)}" + (" position" if position else "")]
    while True:
        for s, b in enumerate(players):
            obs = state.observations(s)
            while seen[s] < len(obs):
                b.inform(obs[seen[s]])
                seen[s] += 1
        cur = state.current_player()
        if cur == TERMINAL:
            break
        viewer = 0 if cur == CHANCE else (cur + 1) % n
        before = len(state.observations(viewer))
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
            action = players[cur].step(state.legal_actions(cur))
            who = f"P{cur}"
        text = state.action_to_string(cur, action)
        state.apply_action(action)
        seen_now = [str(o) for o in state.observations(viewer)[before:] if o.kind != "draw"]
        lines.append(f"{who}: {text}" + (f"  | {' | '.join(seen_now)}" if seen_now else ""))
    lines.append(f"returns {state.returns()}")
    return "\n".join(lines) + "\n"


def main() -> None:
    for name, case in CASES.items():
        (ROOT / name).write_text(playthrough(**case))
        print("wrote", ROOT / name)


if __name__ == "__main__":
    main()
