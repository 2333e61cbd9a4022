"""Keyed variables (`keys:` in `state`): one value per key, read and assigned with `x[key]`."""
import pytest

from interpreter import api
from interpreter.runtime.engine import Status

from spec_helpers import errors, failed_examples, write

BASE = """
game: {name: K, players: {min: 2, max: 3}}
components:
  cards:
    a: {count: 2, in: draw, props: {suit: red}}
    b: {count: 2, in: draw, props: {suit: blue}}
zones:
  draw: {owner: shared}
  hand: {owner: player}
state:
  global:
    seen: {type: int, keys: [1, 2, 3], max: 5, clamp: true}
  player:
    count: {type: int, keys: [red, blue], min: 0}
    done: {type: bool, keys: [red, blue]}
    score: {type: int}
  turn:
    took: {type: bool, keys: [red, blue]}
flow:
  first: seat(1)
  turn:
    actions: [take, stop]
actions:
  take:
    when: count(draw) > 0
    choose:
      card: "[c in draw where not me.done[c.suit] and not turn.took[c.suit]]"
    do: |
      move card to me.hand
      me.count[card.suit] += 1
      turn.took[card.suit] = true
      seen[1 + count(me.hand) - 1] += 4
      if me.count[card.suit] == 2:
        me.done[card.suit] = true
  stop:
    do: end turn
end:
  when: count(draw) == 0
  score: score
examples:
%s
"""

OK = """
  take_counts_per_key:
    players: 2
    given: {zones: {draw: [a, b]}}
    do: ["take: a"]
    expect:
      - me.count["red"] == 1
      - me.count["blue"] == 0
      - turn.took["red"] and not turn.took["blue"]
      - seen[1] == 4
  dynamic_key_and_done_flag:
    players: 2
    given: {zones: {draw: [a]}, vars: {"count[red]@1": 1}}
    do: ["take: a"]
    expect:
      - seat(1).done["red"]
      - seat(2).count["red"] == 0
  clamped_at_max:
    players: 2
    given: {zones: {draw: [a]}, vars: {"seen[1]": 3}}
    do: ["take: a"]
    expect: ["seen[1] == 5", "seen[2] == 0"]
  per_turn_values_reset:
    players: 2
    given: {zones: {draw: [a, b]}}
    do: ["take: a", "stop"]
    expect: ["not turn.took[\\"red\\"]", "seat(1).count[\\"red\\"] == 1"]
"""


def test_keyed_variables_run(tmp_path):
    path = write(tmp_path, BASE % OK)
    assert errors(path) == []
    assert failed_examples(path) == {}


def test_keyed_values_are_plain_slots_at_run_time(tmp_path):
    path = write(tmp_path, BASE % OK)
    game = api.load_game(path)
    st = game.new_game(2, 1)
    view = st.view(0)
    assert view["players"][0]["count[red]"] == 0 and view["global"]["seen[3]"] == 0


@pytest.mark.parametrize("expect, code", [
    ('me.count == 1', "E436"),
    ('seen == 1', "E436"),
    ('turn.took', "E436"),
    ('me.count["green"] == 1', "E405"),
    ('me.count[1] == 1', "E431"),
    ('seen["x"] == 1', "E431"),
    ('me.done["red"] == 1', "E431"),
], ids=["player_without_key", "global_without_key", "turn_without_key", "unknown_key", "number_for_text_key",
        "text_for_number_key", "bool_value"])
def test_keyed_misuse(tmp_path, expect, code):
    path = write(tmp_path, BASE % f"  bad:\n    expect: ['{expect}']")
    found = errors(path)
    assert code in [c for c, _ in found], found


def test_unknown_key_at_run_time_is_a_rule_error(tmp_path):
    text = (BASE % "  x:\n    expect: [\"true\"]").replace(
        "    b: {count: 2, in: draw, props: {suit: blue}}",
        "    b: {count: 2, in: draw, props: {suit: blue}}\n    c: {count: 1, in: draw, props: {suit: green}}")
    game = api.load_game(write(tmp_path, text))
    st = game.new_game(2, 3)
    assert st.status == Status.ERROR
    assert "'green' is not a key of 'done' (keys: red, blue)" in st.reason


def test_mixed_key_types_rejected(tmp_path):
    text = (BASE % "  x:\n    expect: [\"true\"]").replace("keys: [1, 2, 3]", "keys: [1, two, 3]")
    path = write(tmp_path, text)
    assert ("E415", "variable 'seen': keys are all texts or all numbers") in errors(path)


def test_assigning_a_whole_keyed_variable_is_rejected(tmp_path):
    text = (BASE % "  x:\n    expect: [\"true\"]").replace("turn.took[card.suit] = true", "turn.took = true")
    path = write(tmp_path, text)
    assert "E436" in [c for c, _ in errors(path)]
