"""A sweep reads each game's summary from its final state, and seats its agents before the first decision:
both must give what the slower, older way gave (a Result per game; agents seated after new_game)."""
from __future__ import annotations

import pytest

from interpreter.lab import runner
from interpreter.lab.measures import measure
from interpreter.runtime.engine import Status
from interpreter.runtime.pipeline import load_game
from interpreter.runtime.seeds import game_seed

SPECS = [("games/stun.yaml", 4), ("games/stunt-academy.yaml", 3), ("games/no_thanks.yaml", 3),
         ("games/first-in-flight.yaml", 3),  # a spec with measures
         ("games/oh_hell.yaml", 3), ("tests/specs/duel.yaml", 2)]


@pytest.mark.parametrize("path,players", SPECS)
def test_a_sweep_summary_is_what_the_result_says(path, players):
    game = load_game(path)
    for i in range(15):
        st = runner.play(game, players, game_seed(3, i))
        r = st.result()
        m = measure(game, st) if st.status is Status.FINISHED else ()
        assert runner._summary(st, m) == (r.status, tuple(r.winners), r.turns, r.decisions,
                                          tuple(r.scores) if r.scores else None, r.reason, r.seed, m)


@pytest.mark.parametrize("path,players", SPECS)
def test_agents_seated_from_the_start_play_the_same_games(path, players):
    game = load_game(path)
    for i in range(15):
        seed = game_seed(5, i)
        st = runner.play(game, players, seed, {0: "greedy:4"})
        agents = runner.make_agents({0: "greedy:4"}, players, seed)
        old = game.new_game(players, seed)  # the first decision returns to the caller, then agents decide inside
        old.auto = agents
        while old.status is Status.RUNNING:
            old.apply(agents[old.pplayer].pick(old))
        assert st.choices == old.choices and st.result() == old.result()
