"""Action parameters (`choose:`) whose collection is a filter: each chosen value lands in its own slot."""
from interpreter import api
from interpreter.runtime.engine import Status

from spec_helpers import errors, failed_examples, write

SPEC = """
game: {name: P, players: {min: 2, max: 2}}
components:
  cards:
    low: {count: 3, in: draw, props: {v: 1}}
    high: {count: 3, in: draw, props: {v: 2}}
zones:
  draw: {owner: shared}
  hand: {owner: player}
state:
  player:
    score: {type: int}
flow:
  first: seat(1)
  turn:
    actions: [take_pair, stop]
actions:
  take_pair:
    label: take
    when: count(draw) > 1
    choose:
      first_card: "[c in draw where c.v == 2]"
      second_card: "[c in draw where c.v == 1 and position(draw, c) < position(draw, first_card)]"
    do: |
      move first_card to me.hand
      move second_card to me.hand
      me.score += first_card.v * 10 + second_card.v
      end turn
  stop:
    do: end turn
end:
  when: count(draw) < 2
  score: score
examples:
  filtered_parameters:
    players: 2
    given: {clear: {draw: hand@2}, zones: {draw: [high, low]}}
    do: ["take: high, low"]
    expect: ["seat(1).score == 21", "count(seat(1).hand) == 2"]
"""


def test_filtered_action_parameters(tmp_path):
    path = write(tmp_path, SPEC)
    assert errors(path) == []
    assert failed_examples(path) == {}


def test_filtered_parameters_play_out(tmp_path):
    game = api.load_game(write(tmp_path, SPEC))
    for seed in range(20):
        r = api.play_random(game, 2, seed, check=True)
        assert r.status == Status.FINISHED, r.reason
