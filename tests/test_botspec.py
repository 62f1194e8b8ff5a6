"""Bots of one's own: from a file, a module and an entry point; the KotH adapter; bad specs."""

from __future__ import annotations

import multiprocessing
import textwrap
from pathlib import Path

import pytest

from games.base import (
    game_variants,
    load_game,
    make_bot,
    play_game,
    registered_bots,
    registered_games,
)
from games.botspec import ENTRY_POINT_GROUP, entry_point_bots
from games.bs.koth import KothPlayer
from games.cli import catalog
from games.errors import BotError, BotLoadError, UnknownGameError
from games.tournament import run_tournament
from kripke.cli import main as kripke_main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"

#: A bot of one's own: plays the first legal action, calls every other claim of 2 or more.
BOT_SOURCE = textwrap.dedent(
    """
    from games.base import Bot

    class Eager(Bot):
        games = ("bs",)

        def restart(self, game, seat):
            super().restart(game, seat)
            self.count = 0

        def inform(self, observation):
            if observation.kind == "play":
                self.count = observation["count"]

        def step(self, legal_actions):
            if legal_actions[0] == 0:  # pass or call
                return 1 if self.count >= 2 and self.rng.random() < 0.5 else 0
            return legal_actions[0]

    class Helper:
        pass
    """
)


def _tournament(bots: list[str], games: int = 8, **kw: object) -> dict:
    kw.setdefault("workers", 1)
    return run_tournament("bs", bots, games, variant="koth", progress=False, seed=5, **kw)


def _played(summary: dict, label: str, games: int) -> None:
    entry = summary["bots"][label]
    assert entry["games"] == games
    assert entry["forfeits"] == 0


@pytest.fixture
def bot_file(tmp_path: Path) -> Path:
    path = tmp_path / "eager_bot.py"
    path.write_text(BOT_SOURCE)
    return path


# ------------------------------------------------------------------ a file
def test_bot_from_a_file_plays_a_full_tournament_in_one_and_two_processes(bot_file, tmp_path):
    spec = f"{bot_file}:Eager"
    one = _tournament([spec, "truthful", "threshold", "liar"], workers=1)
    two = _tournament([spec, "truthful", "threshold", "liar"], workers=2, out=tmp_path / "r.jsonl")
    assert one == two
    _played(one, spec, 8)
    assert sum(b["wins"] for b in one["bots"].values()) == 8  # koth: one winner a game here


def test_bot_from_a_file_by_a_relative_path(bot_file, monkeypatch):
    monkeypatch.chdir(bot_file.parent)
    summary = _tournament(["eager_bot.py:Eager", "truthful", "liar", "random"])
    _played(summary, "eager_bot.py:Eager", 8)


def _play_spec_in_fresh_process(spec: str) -> list[float]:
    game = load_game("bs", variant="koth")
    bots = [make_bot("bs", spec, seed=1)] + [make_bot("bs", "truthful", seed=s) for s in (2, 3, 4)]
    return play_game(game, bots, seed=9).returns


def test_a_fresh_process_loads_the_bot_again_from_its_spec(bot_file):
    """A worker started by spawn (nothing inherited) needs only the spec string."""
    spec = f"{bot_file}:Eager"
    here = _play_spec_in_fresh_process(spec)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        there = pool.apply(_play_spec_in_fresh_process, (spec,))
    assert there == here and sum(here) == 1.0


def test_the_file_runs_once_per_process(bot_file):
    spec = f"{bot_file}:Eager"
    assert type(make_bot("bs", spec)) is type(make_bot("bs", spec, seed=3))


# ---------------------------------------------------------------- a module
def _package(root: Path, name: str = "tinybots") -> Path:
    pkg = root / name
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "bs.py").write_text(BOT_SOURCE)
    return pkg


def test_bot_from_a_module_plays_a_full_tournament(tmp_path, monkeypatch):
    _package(tmp_path, "tinybots_mod")
    monkeypatch.syspath_prepend(str(tmp_path))
    summary = _tournament(["tinybots_mod.bs:Eager", "truthful", "threshold", "liar"], workers=2)
    _played(summary, "tinybots_mod.bs:Eager", 8)


# ----------------------------------------------------------- an entry point
def _installed(root: Path, entry_points: str, name: str = "tinybots") -> None:
    """A tiny installed distribution: the package and its .dist-info with entry points."""
    _package(root, name)
    info = root / f"{name}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{entry_points}\n")


def test_bot_from_an_entry_point_plays_a_full_tournament(tmp_path, monkeypatch):
    _installed(tmp_path, "bs.eager = tinybots.bs:Eager\nboerenbridge.eager = tinybots.bs:Eager")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert entry_point_bots("bs") == {"eager": "tinybots.bs:Eager"}
    assert "eager" in registered_bots("bs") and "probabilistic" in registered_bots("bs")
    summary = _tournament(["eager", "truthful", "threshold", "liar"], workers=2)
    _played(summary, "eager", 8)
    # the class says it plays BS only: registering it for another game is refused
    with pytest.raises(BotLoadError, match="plays bs only .* not boerenbridge"):
        make_bot("boerenbridge", "eager")


def test_an_entry_point_whose_package_is_gone_names_it(tmp_path, monkeypatch):
    _installed(tmp_path, "bs.ghost = tinybots_gone.bots:Ghost", name="ghostdist")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "ghost" in registered_bots("bs")
    with pytest.raises(BotLoadError) as err:
        make_bot("bs", "ghost")
    text = str(err.value)
    assert "module tinybots_gone.bots not found" in text
    with pytest.raises(BotLoadError, match="entry point bs.ghost"):
        run_tournament("bs", ["ghost", "truthful"], 2, variant="koth", progress=False)


def test_an_entry_point_naming_a_missing_class_lists_the_classes(tmp_path, monkeypatch):
    _installed(tmp_path, "bs.typo = tinybots_typo.bs:Eagre", name="tinybots_typo")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(BotLoadError) as err:
        make_bot("bs", "typo")
    text = str(err.value)
    assert "entry point bs.typo = tinybots_typo.bs:Eagre of tinybots_typo 0.1" in text
    assert "has no class 'Eagre'; classes defined there: Eager (a Bot), Helper" in text


def test_an_unknown_bot_name_lists_the_bots_and_the_spec_forms():
    with pytest.raises(UnknownGameError) as err:
        make_bot("bs", "nosuchbot")
    text = str(err.value)
    assert "unknown bot 'nosuchbot' for bs" in text
    assert "probabilistic" in text and "path/to/my_bot.py:MyBot" in text


# ---------------------------------------------------------------- bad specs
BAD_FILES = {
    "syntax.py": "from games.base import Bot\n\nclass Broken(Bot)\n    pass\n",
    "raises.py": "from games.base import Bot\nx = 1\nraise RuntimeError('no network here')\n",
    "nostep.py": "from games.base import Bot\nclass Lazy(Bot):\n    pass\n",
    "ctor.py": (
        "from games.base import Bot\nclass Picky(Bot):\n"
        "    def __init__(self, depth):\n        super().__init__(None)\n"
        "    def step(self, legal_actions):\n        return legal_actions[0]\n"
    ),
    "boom.py": (
        "from games.base import Bot\nclass Boom(Bot):\n"
        "    def __init__(self, seed=None):\n        raise ValueError('no config file')\n"
        "    def step(self, legal_actions):\n        return legal_actions[0]\n"
    ),
    "func.py": "def Play(legal_actions):\n    return legal_actions[0]\n",
}


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("missing.py:MyBot", ["bot file", "missing.py not found", "working directory"]),
        ("syntax.py:Broken", ["syntax error in bot file", "syntax.py, line 3"]),
        ("raises.py:X", ["raises.py raised RuntimeError when loaded, line 3", "no network"]),
        ("eager_bot.py:Eagre", ["has no class 'Eagre'", "Eager (a Bot), Helper"]),
        ("eager_bot.py:Helper", ["Helper in eager_bot.py is not a subclass of games.base.Bot"]),
        ("eager_bot.py", ["names a file but no class", "eager_bot.py:ClassName", "Eager (a Bot)"]),
        ("eager_bot.py:", ["'' after ':' is not a class name"]),
        ("nostep.py:Lazy", ["Lazy in nostep.py does not implement step"]),
        ("ctor.py:Picky", ["cannot be built as Picky(seed=...)", "Picky(depth)", "seed=None"]),
        ("boom.py:Boom", ["Boom(seed=0) raised ValueError: no config file"]),
        ("func.py:Play", ["Play in func.py is a function, not a class"]),
        ("no_such_pkg_x.bots:MyBot", ["module no_such_pkg_x.bots not found", "PYTHONPATH"]),
        (
            "games.bs.bots:Nope",
            ["module games.bs.bots has no class 'Nope'", "KnowledgeBot (a Bot)"],
        ),
        ("games.cards:Deck", ["Deck in module games.cards is not a subclass of games.base.Bot"]),
    ],
)
def test_bad_bot_specs_name_the_file_the_class_and_what_is_missing(
    spec, expected, bot_file, monkeypatch
):
    folder = bot_file.parent
    for name, text in BAD_FILES.items():
        (folder / name).write_text(text)
    monkeypatch.chdir(folder)
    with pytest.raises(BotLoadError) as err:
        run_tournament("bs", [spec, "truthful"], 2, variant="koth", progress=False)
    for fragment in expected:
        assert fragment in str(err.value)
    assert err.value.spec == spec


def test_a_bot_for_another_game_is_refused(bot_file):
    with pytest.raises(BotLoadError, match=r"Eager \(.*eager_bot.py\) plays bs only"):
        make_bot("boerenbridge", f"{bot_file}:Eager")


@pytest.mark.parametrize(
    "spec, fragment",
    [("nofile.py:Bot", "bot file nofile.py not found"), ("eager_bot.py:Nope", "no class 'Nope'")],
)
def test_bad_specs_are_one_line_and_exit_2_at_the_command_line(
    spec, fragment, bot_file, monkeypatch, capsys
):
    monkeypatch.chdir(bot_file.parent)
    code = kripke_main(
        ["tournament", "bs", "--variant", "koth", "--games", "2", "--bots", f"{spec},truthful"]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("kripke: error: ") and fragment in err
    assert err.count("\n") == 1 and "Traceback" not in err


# ------------------------------------------------------------ KotH adapter
class Recorder(KothPlayer):
    """The sample player of the tournament text, recording the adapter's calls."""

    def initialize(self, controller):
        self.calls = [("initialize", self.hand_size(), controller.get_discard_pile_size())]

    def request_cards(self, required_rank, controller):
        hand = self.get_hand()
        self.calls.append(("request", required_rank, sorted(hand)))
        return [c for c in hand if c == required_rank] or [hand[0]]

    def call_bs(self, player, rank, count, controller):
        sizes = {str(p): p.hand_size() for p in controller.get_players()}
        self.calls.append(("bs", str(player), rank, count, sizes[str(player)]))
        return count >= 3

    def update(self, controller):
        self.calls.append(("update",))


def test_koth_adapter_plays_a_full_game_with_the_tournament_api():
    game = load_game("bs", variant="koth")
    bots = [Recorder(seed=0)] + [make_bot("bs", n, seed=1) for n in ("liar", "truthful", "random")]
    result = play_game(game, bots, seed=11, keep_state=True)
    state = result.state
    assert result.forfeit is None and state is not None and state.is_terminal()
    calls = bots[0].calls
    assert calls[0] == ("initialize", 13, 0)
    requests = [c for c in calls if c[0] == "request"]
    plays = [o for o in state.observations(0) if o.kind == "play"]
    own = [o for o in plays if o.actor == 0]
    assert [c[1] for c in requests] == [int(o["rank"]) for o in own]
    for call, obs in zip(requests, own, strict=True):  # the hand shown is the seat's true hand
        played = list(obs["cards"])
        assert all(int(c) in call[2] for c in played)
    bs_calls = [c for c in calls if c[0] == "bs"]
    others = [o for o in plays if o.actor != 0]
    assert [(c[1], c[2], c[3], c[4]) for c in bs_calls] == [
        (f"P{o.actor}", int(o["rank"]), o["count"], o["hand"]) for o in others
    ]
    # one update per round (every player playing once), the last unfinished round included
    assert sum(c == ("update",) for c in calls) == -(-len(plays) // 4)


def test_koth_adapter_refuses_cards_it_does_not_hold_and_the_classic_variant():
    class Cheat(Recorder):
        def request_cards(self, required_rank, controller):
            missing = next(n for n in range(13) if n not in self.get_hand())
            return [missing]

    game = load_game("bs", variant="koth")
    bots = [Cheat(seed=0)] + [make_bot("bs", "truthful", seed=s) for s in (1, 2, 3)]
    result = play_game(game, bots, seed=2, forfeit_on_error=True)
    assert result.forfeit == 0 and "but the hand holds 0" in result.reason
    with pytest.raises(BotError, match="plays BS variant koth"):
        play_game(load_game("bs", variant="classic"), [Recorder(seed=0)] * 4, seed=1)


def test_koth_bot_from_its_file_plays_a_full_koth_tournament():
    spec = f"{EXAMPLES / 'koth_bot.py'}:Player1"
    summary = _tournament([spec, "truthful", "threshold", "liar"], games=8, workers=2)
    _played(summary, spec, 8)


# --------------------------------------------------------------- examples
@pytest.mark.parametrize("variant", ["koth", "classic"])
def test_example_bot_plays_both_variants(variant):
    spec = f"{EXAMPLES / 'my_bot.py'}:MyBot"
    summary = run_tournament(
        "bs", [spec, "truthful", "threshold", "liar"], 8, variant=variant, progress=False
    )
    _played(summary, spec, 8)


def test_the_two_examples_are_the_same_player():
    """examples/my_bot.py (on observations) and examples/koth_bot.py (on the adapter) agree."""
    table = ["threshold", "liar", "truthful"]
    mine = _tournament([f"{EXAMPLES / 'my_bot.py'}:MyBot", *table], games=12)
    koth = _tournament([f"{EXAMPLES / 'koth_bot.py'}:Player1", *table], games=12)
    assert list(mine["bots"].values()) == list(koth["bots"].values())


# -------------------------------------------------------------------- help
@pytest.mark.parametrize("argv", [["--help"], ["play", "--help"], ["tournament", "--help"]])
def test_help_lists_games_variants_bots_and_defaults(argv, capsys):
    with pytest.raises(SystemExit) as done:
        kripke_main(argv)
    assert done.value.code == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    for game in registered_games():
        start = lines.index(f"  {game}")
        assert lines[start + 1].strip()  # the game's one-line description
        variants = game_variants(game)
        assert lines[start + 2].startswith(f"    variants: {variants[0]} (default)")
        assert all(v in lines[start + 2] for v in variants) and "players: " in lines[start + 2]
        for bot in registered_bots(game):
            line = next(x for x in lines[start:] if x.startswith(f"      {bot} "))
            assert len(line.split(None, 1)[1]) > 10  # one line saying what the bot does
    assert "classic (default), koth" in text
    assert "path/to/my_bot.py:MyBot" in text and "kripke_games.bots" in text
    flat = " ".join(text.split())  # argparse wraps the option help
    if argv[0] == "play":
        assert "seed of the deal and of every bot (default: 0)" in flat
        assert "rule variant (default: the game's first)" in flat
    if argv[0] == "tournament":
        assert "number of games (default: 100)" in flat
        assert "each game (default: rotate)" in flat


def test_help_lists_an_installed_packages_bot(tmp_path, monkeypatch):
    _installed(tmp_path, "bs.eager = tinybots.bs:Eager")
    monkeypatch.syspath_prepend(str(tmp_path))
    lines = catalog().splitlines()
    assert "      eager           from tinybots.bs:Eager (an installed package)" in lines
