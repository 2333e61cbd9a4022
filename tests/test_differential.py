"""The interpreter running games/stun.yaml against the hand-written STUN (benchmarks/stun_handwritten.py).

Both draw from the same random streams (the convention in the hand-written
module's docstring), so with the same seed and random agents every finished
game must agree on status, winner, turns, decisions and final chips, for
every option, every reading of every ambiguity and 2 to 6 players. The
hand-written game stops at MAX_TURNS turns and the interpreter at its step
budget; a game that reaches either limit counts as stalled, so those are
only compared for consistency.
"""
from __future__ import annotations

import functools
import itertools
import random

import pytest

from benchmarks.stun_handwritten import MAX_TURNS, READINGS, play
from interpreter.api import load_game, play_random
from interpreter.runtime.seeds import game_seed

from helpers import STUN

MASTER = 20240611
BUDGET = 60_000  # steps: well beyond MAX_TURNS turns, so a game the hand-written version finishes never stalls here
OPTIONS = [(5, False), (3, False), (5, True), (3, True)]
DEFAULTS = {name: values[0] for name, values in READINGS.items()}


@functools.lru_cache(maxsize=None)
def _game(win_chips: int, advanced: bool, readings: tuple):
    return load_game(STUN, {"win_chips": win_chips, "advanced": advanced}, dict(readings), budget=BUDGET)


def compare(players: int, seed: int, win_chips: int, advanced: bool, readings: dict) -> str:
    game = _game(win_chips, advanced, tuple(sorted(readings.items())))
    assert game.readings == {**DEFAULTS, **readings}
    r = play_random(game, players, seed)
    h = play(players, seed, win_chips=win_chips, advanced=advanced, readings=readings)
    where = f"players={players} seed={seed} win_chips={win_chips} advanced={advanced} readings={readings}"
    if h["status"] == "finished":
        got = (r.status, r.winners, r.turns, r.decisions, r.scores)
        want = ("finished", h["winners"], h["turns"], h["decisions"], h["chips"])
        assert got == want, f"{where}\n  interpreter: {got}\n  hand-written: {want}"
    else:
        assert h["turns"] == MAX_TURNS
        assert r.status == "stalled" or (r.status == "finished" and r.turns > MAX_TURNS), f"{where}: {r}"
    return h["status"]


@pytest.mark.parametrize("players", range(2, 7), ids=lambda n: f"{n}p")
def test_default_rules_over_many_seeds(players):
    statuses = [compare(players, game_seed(MASTER, i), 5, False, {}) for i in range(50)]
    assert statuses.count("finished") >= 45


NON_DEFAULT = [(name, value) for name, values in READINGS.items() for value in values[1:]]


@pytest.mark.parametrize("win_chips, advanced", OPTIONS, ids=[f"win{w}{'-advanced' if a else ''}" for w, a in OPTIONS])
@pytest.mark.parametrize("name, value", NON_DEFAULT, ids=[f"{n}={v}" for n, v in NON_DEFAULT])
def test_each_reading_with_each_option(name, value, win_chips, advanced):
    for players in range(2, 7):
        for i in range(3):
            compare(players, game_seed(MASTER + players, i), win_chips, advanced, {name: value})


ALL_COMBINATIONS = [dict(zip(READINGS, combo)) for combo in itertools.product(*READINGS.values())]
SOME_COMBINATIONS = random.Random(MASTER).sample(ALL_COMBINATIONS, 8) + [ALL_COMBINATIONS[-1]]


@pytest.mark.parametrize("readings", SOME_COMBINATIONS, ids=lambda r: ",".join(v for v in r.values()))
def test_readings_combined(readings):
    for players in range(2, 7):
        for i in range(2):
            win_chips, advanced = OPTIONS[(players + i) % len(OPTIONS)]
            compare(players, game_seed(MASTER * 3 + players, i), win_chips, advanced, readings)


def test_the_oracle_rejects_what_the_interpreter_rejects():
    from interpreter.runtime.engine import SetupError
    with pytest.raises(ValueError):
        play(7, 1)
    with pytest.raises(SetupError):
        load_game(STUN).new_game(7, 1)
    with pytest.raises(ValueError):
        play(3, 1, readings={"first_flip": "sometimes"})
    with pytest.raises(SetupError):
        load_game(STUN, readings={"first_flip": "sometimes"})
    assert set(READINGS) == set(load_game(STUN).readings)
    for name, values in READINGS.items():
        assert set(values) == set(load_game(STUN).spec.ambiguities[name].interpretations)
