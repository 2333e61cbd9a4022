"""The lean hand-written STUN (benchmarks/stun_lean.py) plays statistically the same games as the spec.

It has its own random streams, so games differ seed by seed; what must agree is the distribution: each
seat's win share, the mean number of turns and of decisions, under the default rules and under other
options and readings. Two-sample z-tests at |z| < 4 (fixed seeds: the test is deterministic; a real
rules difference, such as a wrong reading, moves these means by far more, see the last case).
"""
import math
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import stun_lean  # noqa: E402
from interpreter.lab.runner import GameSpec, summaries  # noqa: E402

CASES = [
    pytest.param(4, {}, {}, 1500, id="4p-defaults"),
    pytest.param(2, {"win_chips": 3, "advanced": True}, {"lost_chips": "to_victim", "win_timing": "end_of_turn"},
                 1500, id="2p-short-advanced-victim"),
    pytest.param(3, {}, {"stun_plus_eligibility": "strictly_behind", "stun_minus_target": "any_pile",
                         "first_flip": "optional"}, 1000, id="3p-other-readings"),
]


def _z(a: list[float], b: list[float]) -> float:
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    va = sum((x - ma) ** 2 for x in a) / (len(a) - 1)
    vb = sum((x - mb) ** 2 for x in b) / (len(b) - 1)
    return (ma - mb) / math.sqrt(va / len(a) + vb / len(b) or 1e-12)


def _interpreter(players, options, readings, games):
    rows, _ = summaries(GameSpec("games/stun.yaml", options, readings), players, 11, 0, games)
    return [(r[1][0] if r[1] else None, r[2], r[3]) for r in rows if r[0] == "finished"]


def _lean(players, options, readings, games):
    out = []
    for i in range(games):
        r = stun_lean.play(players, 5_000_000 + i, readings=readings, **options)
        if r["status"] == "finished":
            out.append((r["winner"], r["turns"], r["decisions"]))
    return out


@pytest.mark.parametrize("players, options, readings, games", CASES)
def test_same_outcome_statistics(players, options, readings, games):
    a, b = _interpreter(players, options, readings, games), _lean(players, options, readings, games)
    assert len(a) == len(b) == games  # every game finishes on both sides
    for k, what in ((1, "turns"), (2, "decisions")):
        z = _z([r[k] for r in a], [r[k] for r in b])
        assert abs(z) < 4, f"mean {what} differ: z = {z:.1f}"
    for seat in range(players):
        z = _z([r[0] == seat for r in a], [r[0] == seat for r in b])
        assert abs(z) < 4, f"P{seat + 1}'s win share differs: z = {z:.1f}"


def test_the_comparison_can_fail():
    """A different reading on one side only is caught (the test above is not blind)."""
    a = _interpreter(2, {}, {"first_flip": "optional"}, 800)
    b = _lean(2, {}, {}, 800)
    assert abs(_z([r[2] for r in a], [r[2] for r in b])) > 4
