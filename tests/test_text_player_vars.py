"""Text (enumeration) and player-valued variables."""
from __future__ import annotations

import pytest

from interpreter import api
from interpreter.runtime.engine import Game, SetupError, Status

from spec_helpers import errors, failed_examples, write

VARS = """
game: {name: Vars, players: {min: 2, max: 3}}
state:
  global:
    colour: {type: text, values: [red, yellow, green, blue], start: red}
    leader: {type: player, start: 2}
    n: {type: int, start: 0}
  player:
    mood: {type: text, start: calm}
flow:
  first: leader
  turn:
    actions: [paint]
actions:
  paint:
    label: paint
    choose:
      c: '["red", "green", "blue", "pink"]'
    do: |
      colour = c
      leader = me
      me.mood = "busy"
      n += 1
      say "{me} paints it {colour}; {leader} leads"
      end turn
end:
  when: n >= 3
  winners: "[leader]"
examples:
  leader_starts:
    do: ["paint: green"]
    expect:
      - colour == "green" and leader == seat(2) and me == seat(1)
      - seat(2).mood == "busy" and seat(1).mood == "calm"
  pink_is_not_a_colour:
    do: ["paint: pink"]
    expect:
      - "true"
"""


def test_text_and_player_variables(tmp_path):
    path = write(tmp_path, VARS)
    assert errors(path) == []
    failed = failed_examples(path)
    assert list(failed) == ["pink_is_not_a_colour"]
    assert "'colour' cannot be 'pink' (its values: red, yellow, green, blue)" in failed["pink_is_not_a_colour"]
    spec, _ = api.load_spec(path)
    st = Game(spec).new_game(2, 1, log=True)
    assert st.cur == 1  # `first: leader`, seat 2
    st.apply(1)
    assert "P2 paints it green; P2 leads" in [e.get("text") for e in st.log]
    late, _ = api.load_spec(write(tmp_path, VARS.replace("start: 2}", "start: 3}"), "late.yaml"))
    with pytest.raises(SetupError, match="'leader' starts at seat 3, but there are 2 players"):
        Game(late).new_game(2, 1)


def test_misuse_is_positioned(tmp_path):
    bad = VARS.replace("start: red}", "start: purple}")
    assert [c for c, _ in errors(write(tmp_path, bad))] == ["E415"]
    bad = VARS.replace('      colour = c\n', '      colour = "purple"\n')
    errs = errors(write(tmp_path, bad, "b.yaml"))
    assert [c for c, _ in errs] == ["E404"] and "'purple' is not a value of 'colour'" in errs[0][1]
    bad = VARS.replace("leader: {type: player, start: 2}", "leader: {type: player, start: 7}")
    assert [c for c, _ in errors(write(tmp_path, bad, "c.yaml"))] == ["E415"]
    bad = VARS.replace("      leader = me\n", "      leader = 3\n")
    assert [c for c, _ in errors(write(tmp_path, bad, "d.yaml"))] == ["E431"]


def test_the_rl_observation_encodes_them_as_numbers(tmp_path):
    from interpreter.pettingzoo_env import env
    e = env(write(tmp_path, VARS), 3)
    e.reset(seed=3)
    names = e.describe() if hasattr(e, "describe") else e.unwrapped.describe()
    obs = e.observe(e.agent_selection)["observation"]
    at = {n: i for i, n in enumerate(names)}
    assert obs[at["global.colour"]] == 1  # red, the first value
    assert obs[at["global.leader"]] == 0  # seat 2 leads, and is the observer (seats count from the observer)
    assert obs[at["seat+0.mood"]] == 0  # a text variable without values
    assert e.observation_space(e.agent_selection)["observation"].contains(obs)
