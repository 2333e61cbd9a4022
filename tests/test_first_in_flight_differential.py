"""The interpreter running First in Flight and its Stunt Pack against the hand-written version
(benchmarks/first_in_flight_handwritten.py).

Both draw from the same random streams (the convention in the hand-written
module's docstring), so with the same seed and random agents every game must
agree on status, winners, turns, decisions, every global variable (flights,
crashes, Stunts won, penalties ...) and each seat's record, coins and Final
Flight, for every option, every reading of every ambiguity, 3 and 4 players.
"""
from __future__ import annotations

import functools
import itertools
import random

import pytest

from benchmarks import first_in_flight_handwritten as hand
from interpreter.api import load_game
from interpreter.runtime.engine import SetupError
from interpreter.lab.runner import play as play_interpreted
from interpreter.runtime.seeds import game_seed

BASE = "games/first-in-flight.yaml"
PACK = "games/first-in-flight-stunt-pack.yaml"
MASTER = 20250611
OPTION_SETS = [dict(zip(hand.OPTIONS, values)) for values in itertools.product(*hand.OPTIONS.values())]
# each option's other value alone, then all of them (loading a game per set is what costs)
SOME_OPTION_SETS = [{name: values[1]} for name, values in hand.OPTIONS.items()] + [OPTION_SETS[-1]]


@functools.lru_cache(maxsize=None)
def _game(expansion: bool, options: tuple, readings: tuple):
    return load_game(PACK if expansion else BASE, dict(options), dict(readings))


def compare(expansion: bool, players: int, seed: int, options: dict | None = None,
            readings: dict | None = None) -> dict:
    options, readings = options or {}, readings or {}
    game = _game(expansion, tuple(sorted(options.items())), tuple(sorted(readings.items())))
    st = play_interpreted(game, players, seed)
    h = hand.play(players, seed, expansion=expansion, readings=readings, **options)
    pvars = dict(zip(game.spec.vars["player"], st.pvars))
    got = (str(st.status), st.winners, st.turn, st.decisions, dict(zip(game.spec.vars["global"], st.gvars)),
           pvars["record"], pvars["coins"], pvars["final_distance"])
    want = (h["status"], h["winners"], h["turns"], h["decisions"], h["counters"],
            h["records"], h["coins"], h["final_distances"])
    where = f"expansion={expansion} players={players} seed={seed} options={options} readings={readings}"
    assert got == want, f"{where}\n  interpreter: {got}\n  hand-written: {want}"
    return h


@pytest.mark.parametrize("players", [3, 4], ids=lambda n: f"{n}p")
@pytest.mark.parametrize("expansion", [False, True], ids=["base", "stunt_pack"])
def test_default_rules_over_many_seeds(expansion, players):
    results = [compare(expansion, players, game_seed(MASTER, i)) for i in range(100)]
    assert all(r["status"] == "finished" for r in results)
    if expansion:  # the random games do reach the Stunts, won and lost
        assert sum(r["counters"]["stunts_won"] for r in results) > 0
        assert sum(r["counters"]["penalty_problems"] for r in results) > 0


@pytest.mark.parametrize("options", SOME_OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_options(options):
    for expansion, players in itertools.product([False, True], [3, 4]):
        for i in range(3):
            compare(expansion, players, game_seed(MASTER + 1, i), options)


NON_DEFAULT = [(name, value) for name, values in hand.PACK_READINGS.items() for value in values[1:]]


@pytest.mark.parametrize("name, value", NON_DEFAULT, ids=[f"{n}={v}" for n, v in NON_DEFAULT])
def test_each_reading(name, value):
    games = [False, True] if name in hand.BASE_READINGS else [True]
    for expansion, players in itertools.product(games, [3, 4]):
        for i in range(5):
            compare(expansion, players, game_seed(MASTER + 2, i), {}, {name: value})


ALL_COMBINATIONS = [dict(zip(hand.PACK_READINGS, c)) for c in itertools.product(*hand.PACK_READINGS.values())]
SOME_COMBINATIONS = random.Random(MASTER).sample(ALL_COMBINATIONS, 4) + [ALL_COMBINATIONS[-1]]


def _changed(readings: dict) -> str:
    return ",".join(v for n, v in readings.items() if v != hand.PACK_READINGS[n][0]) or "defaults"


@pytest.mark.parametrize("readings", SOME_COMBINATIONS, ids=_changed)
def test_readings_combined(readings):
    options = OPTION_SETS[SOME_COMBINATIONS.index(readings) % len(OPTION_SETS)]
    for players in (3, 4):
        for i in range(3):
            compare(True, players, game_seed(MASTER + 3, i), options, readings)


# Seeds of game_seed(MASTER, i) (default rules) in which a Motorcycle Race is won with revealed
# Upgrades, so the reward's choice among them is played: about 1 game in 100 with random agents.
MOTORCYCLE_WINS = {3: [139, 332, 741], 4: [199, 248, 255]}


def test_a_won_motorcycle_race_offers_the_same_upgrades(monkeypatch):
    won = []
    win_stunt = hand._Game.win_stunt

    def counting(self, p, s):
        if s == hand.MOTORCYCLE_RACE and self.revealed:
            won.append(s)
        return win_stunt(self, p, s)
    monkeypatch.setattr(hand._Game, "win_stunt", counting)
    for players, indexes in MOTORCYCLE_WINS.items():
        for i in indexes:
            compare(True, players, game_seed(MASTER, i))
    assert len(won) >= 6


def test_the_oracle_rejects_what_the_interpreter_rejects():
    for expansion, path in ((False, BASE), (True, PACK)):
        with pytest.raises(ValueError):
            hand.play(2, 1, expansion=expansion)
        with pytest.raises(SetupError):
            load_game(path).new_game(2, 1)
        with pytest.raises(ValueError):
            hand.play(3, 1, expansion=expansion, years=5)
        with pytest.raises(SetupError):
            load_game(path, options={"years": 5})
        with pytest.raises(ValueError):
            hand.play(3, 1, expansion=expansion, readings={"winner": "loudest"})
        readings = hand.PACK_READINGS if expansion else hand.BASE_READINGS
        game = load_game(path)
        assert set(readings) == set(game.readings)
        for name, values in readings.items():
            assert values[0] == game.readings[name]  # the defaults come first
            assert set(values) == set(game.spec.ambiguities[name].interpretations)
        assert {name: values[0] for name, values in hand.OPTIONS.items()} == game.options
        for name, values in hand.OPTIONS.items():
            assert set(values) == set(game.spec.options[name].values)
    with pytest.raises(ValueError):  # a Stunt Pack reading without the Stunt Pack
        hand.play(3, 1, readings={"stunt_window": "after_first_card"})
    with pytest.raises(SetupError):
        load_game(BASE, readings={"stunt_window": "after_first_card"})
