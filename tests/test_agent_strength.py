"""Greedy beats random where it used to lose (First in Flight) and where it always won (STUN): a fast test.

Small, fixed seeds, so the test is deterministic; it asserts that the 95% Wilson interval of greedy's win
share against random opponents lies wholly above a random seat's share (1 / players). The full figures,
with every spec and mcts, come from `python benchmarks/agents.py` (docs/guides/agents.md).
"""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.agents import wilson  # noqa: E402
from interpreter.lab.runner import play  # noqa: E402
from interpreter.runtime.pipeline import load_game  # noqa: E402
from interpreter.runtime.seeds import game_seed  # noqa: E402


def _share(spec: str, players: int, agent: str, games: int) -> tuple[float, float, float]:
    game = load_game(spec)
    wins = 0.0
    for i in range(games):
        seat = i % players
        st = play(game, players, game_seed(3, i), {seat: agent})
        if seat in st.winners:
            wins += 1 / len(st.winners)
    lo, hi = wilson(wins, games)
    return wins / games, lo, hi


@pytest.mark.parametrize("spec, players, games", [
    ("games/first-in-flight.yaml", 3, 36),
    ("games/first-in-flight-stunt-pack.yaml", 3, 36),
    ("games/stun.yaml", 2, 40),
    ("games/no_thanks.yaml", 3, 30),  # the lowest score wins: the default heuristic must know (it did not)
], ids=["first-in-flight", "stunt-pack", "stun", "no-thanks"])
def test_greedy_beats_random(spec, players, games):
    share, lo, hi = _share(spec, players, "greedy:2", games)
    assert lo > 1 / players, f"greedy won {share:.2f} [{lo:.2f}, {hi:.2f}] against random ({1 / players:.2f} expected)"


def test_one_decision_greedy_was_the_weak_one():
    """The old greedy (judge at the very next decision) is no better than random on First in Flight."""
    share, lo, hi = _share("games/first-in-flight.yaml", 3, "greedy:samples=2,turn=0", 36)
    assert lo < 1 / 3


def test_the_default_heuristic_reads_which_way_a_score_wins():
    """`end.score` counts against a player when the winners are the `worst` by their first key."""
    from interpreter.agents.heuristics import scoring_keys
    assert scoring_keys(load_game("games/no_thanks.yaml")) == [(0, -1.0)]  # worst p in players by score(p)
    assert scoring_keys(load_game("games/stun.yaml"))[0][1] == 1.0  # the most chips wins
