"""Save and resume round-trip exactly at every decision, for every shipped spec (hypothesis).

A save is the seed and the choices (`State.save()`); `Game.resume(players,
seed, choices)` must rebuild the very position: the same `fingerprint()`,
the same pending decision, and the same locals of every paused program (the
fingerprint leaves those out). Spec, players, seed, options, readings and
every choice are drawn, so a failure shrinks to a short game.

- `test_resume_at_every_decision`: the first decisions of a game, each one
  resumed from scratch (quadratic, so the game is cut after up to 60).
- `test_whole_game_replays_in_lockstep`: a whole game beside a second game
  fed the same choices, compared at every decision (resume is exactly that),
  then resumed from its save at the end.
"""
from __future__ import annotations

import functools
import glob
import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.api import load_game, load_spec
from interpreter.runtime.engine import Status

SPECS = sorted(glob.glob(os.path.join("games", "*.yaml")))
BUDGET = 50_000
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))


@functools.lru_cache(maxsize=None)
def _game(path: str, options: tuple, readings: tuple):
    return load_game(path, dict(options), dict(readings), budget=BUDGET)


@st.composite
def games(draw):
    path = draw(st.sampled_from(SPECS))
    spec = load_spec(path)[0]
    options = tuple((n, draw(st.sampled_from(o.values))) for n, o in sorted(spec.options.items()))
    readings = tuple((n, draw(st.sampled_from(sorted(a.interpretations)))) for n, a in sorted(spec.ambiguities.items()))
    players = draw(st.integers(spec.min_players, spec.max_players))
    return _game(path, options, readings), players, draw(st.integers(0, 2 ** 32))


def snapshot(s) -> tuple:
    """The fingerprint, the pending decision, and what it leaves out: locals and flow counters."""
    return (s.fingerprint(), s.decision(), [(f[0].name, f[1], list(f[2])) for f in s.stack], s.phase, s.quiet,
            s.idle, s.turn_over, s.in_turn, s.steps, s.decisions, s.choices, s.reason)


def pick(data, n: int) -> int:
    return data.draw(st.integers(0, n - 1), label="choice") if n > 1 else 0


@SETTINGS
@given(games(), st.data(), st.integers(0, 60))
def test_resume_at_every_decision(g, data, cut):
    game, players, seed = g
    s = game.new_game(players, seed)
    while True:
        save = s.save()
        resumed = game.resume(save["players"], save["seed"], save["choices"])
        assert snapshot(resumed) == snapshot(s), f"resume differs after {len(s.choices)} choices"
        if s.status is not Status.RUNNING or len(s.choices) >= cut:
            break
        s.apply(pick(data, len(s.decision().labels)))


@SETTINGS
@given(games(), st.data())
def test_whole_game_replays_in_lockstep(g, data):
    game, players, seed = g
    s = game.new_game(players, seed)
    twin = game.new_game(players, seed)
    later = random.Random(seed)  # after the first drawn choices (a game can be long)
    while s.status is Status.RUNNING:
        assert snapshot(twin) == snapshot(s), f"replay differs after {len(s.choices)} choices"
        n = len(s.decision().labels)
        i = pick(data, n) if len(s.choices) < 40 else later.randrange(n)
        s.apply(i)
        twin.apply(i)
    assert snapshot(twin) == snapshot(s)
    assert snapshot(game.resume(players, seed, s.save()["choices"])) == snapshot(s)
    assert s.status in (Status.FINISHED, Status.STALLED), s.reason
