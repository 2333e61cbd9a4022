"""MCTS keys its tree by option label; `agents.keys.option_labels` reads them from a memo.

The memo must give exactly `State.labels()` (so the tree neither merges two options whose labels
differ nor splits one whose labels agree) at every position: checked on random positions of every
spec in games/ and tests/specs/, with the memo warm from earlier positions and games.
"""
import glob
import random

import pytest

from interpreter.agents.keys import option_labels
from interpreter.runtime.engine import Status
from interpreter.runtime.pipeline import load_game

SPECS = sorted(glob.glob("games/*.yaml")) + sorted(glob.glob("tests/specs/*.yaml"))


def _players(game):
    spec = game.spec
    return [n for n in sorted({spec.min_players, min(spec.min_players + 1, spec.max_players), spec.max_players})]


@pytest.mark.parametrize("path", SPECS)
def test_memo_labels_are_the_labels(path):
    try:
        game = load_game(path)
    except Exception:  # noqa: BLE001 (a spec in tests/specs that is not a complete game)
        pytest.skip("not a playable spec")
    checked = 0
    for players in _players(game):
        for seed in range(4):
            st = game.new_game(players, seed)
            rng = random.Random(seed)
            steps = 0
            while st.status is Status.RUNNING and steps < 400:
                assert option_labels(st) == st.labels(), (path, players, seed, steps)
                twin = st.clone()  # a copy re-labels from the memo
                assert option_labels(twin) == st.labels()
                st.apply(rng.randrange(len(st.popts)))
                steps += 1
                checked += 1
    assert checked > 0
