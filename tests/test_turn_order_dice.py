"""Who plays next (`next turn to`, `skip next player`, `reverse turn order`, `extra turn`) and chance
without cards (`roll`, `dice`, `random`, scripted with `given: rolls:`)."""
from __future__ import annotations

from interpreter import api
from interpreter.runtime.engine import Game, Status

from spec_helpers import errors, failed_examples, write

ORDER = """
game:
  name: Order test
  players: {min: 2, max: 5}
state:
  global:
    log: {type: int, start: 0}
    total: {type: int, start: 0}
  player:
    score: {type: int, start: 0}
flow:
  first: seat(1)
  turn:
    actions: [play]
actions:
  play:
    label: roll
    do: |
      let r = roll(1, 6)
      me.score += r
      total += 1
      log = log * 10 + me.seat
      if r == 1:
        skip next player
      elif r == 2:
        reverse turn order
      elif r == 6:
        extra turn
      elif r == 3:
        next turn to seat(1)
      end turn
end:
  when: total >= 6
  score: score
examples:
  order:
    players: 4
    given:
      rolls: [1, 2, 6, 4, 3, 5]
    do: [roll, roll, roll, roll, roll, roll]
    expect:
      - log == 132211
      - seat(1).score == 1 + 3 + 5
      - seat(2).score == 6 + 4
      - seat(3).score == 2
  next_follows_the_direction:
    players: 4
    given:
      rolls: [2]
    do: [roll]
    expect:
      - me == seat(4)
      - next(me) == seat(3)
  too_many_rolls:
    players: 2
    given:
      rolls: [4, 4, 4]
    do: [roll]
    expect:
      - true
  impossible_roll:
    players: 2
    given:
      rolls: [7]
    do: [roll]
    expect:
      - true
  offered:
    players: 2
    offered: [roll]
    not_offered: [pass]
    expect:
      - true
  wrongly_offered:
    players: 2
    not_offered: [ro]
    expect:
      - true
"""


def test_turn_order_statements_follow_the_scripted_rolls(tmp_path):
    path = write(tmp_path, ORDER)
    assert errors(path) == []
    failed = failed_examples(path)
    assert set(failed) == {"too_many_rolls", "impossible_roll", "wrongly_offered"}, failed
    assert "2 scripted roll(s) were never rolled (4, 4)" in failed["too_many_rolls"]
    assert "the example's next roll is 7, but this roll gives 1 to 6" in failed["impossible_roll"]
    assert "not_offered: 'ro' is offered" in failed["wrongly_offered"]


def test_dice_come_from_the_seed_and_clones_keep_the_turn_order(tmp_path):
    spec, _ = api.load_spec(write(tmp_path, ORDER))
    game = Game(spec)
    a = game.new_game(4, 7, log=True)
    b = game.new_game(4, 7, log=True)
    while a.status is Status.RUNNING:
        c = a.clone()
        a.apply(0)
        c.apply(0)
        assert c.fingerprint() == a.fingerprint()
        b.apply(0)
    assert a.log == b.log
    rolls = [e["dice"] for e in a.log if e["e"] == "roll"]
    assert len(rolls) == 6 and all(len(r) == 1 and 1 <= r[0] <= 6 for r in rolls)
    # Over many seeds, every face comes up, and turns really change hands in both directions.
    faces, seats = set(), set()
    for seed in range(40):
        st = game.new_game(3, seed, log=True)
        while st.status is Status.RUNNING:
            st.apply(0)
        faces |= {e["dice"][0] for e in st.log if e["e"] == "roll"}
        seats |= {tuple(e["player"] for e in st.log if e["e"] == "turn")[:3]}
    assert faces == set(range(1, 7))
    assert len(seats) > 3


def test_dice_are_refused_where_the_engine_may_evaluate_an_expression_again(tmp_path):
    bad = ORDER.replace("  play:\n    label: roll\n", "  play:\n    label: roll\n    when: roll(1, 6) > 1\n")
    errs = errors(write(tmp_path, bad))
    assert [c for c, _ in errs] == ["E445"], errs
    bad = ORDER.replace("      end turn\n", "      say \"{roll(1, 6)}\"\n      end turn\n")
    assert [c for c, _ in errors(write(tmp_path, bad, "b.yaml"))] == ["E445"]


def test_next_turn_needs_a_player(tmp_path):
    bad = ORDER.replace("next turn to seat(1)", "next turn to 1")
    errs = errors(write(tmp_path, bad))
    assert [c for c, _ in errs] == ["E431"], errs
    assert "next turn to" in errs[0][1]


def test_statement_words_cannot_name_a_variable(tmp_path):
    bad = ORDER.replace("    total: {type: int, start: 0}\n", "    total: {type: int, start: 0}\n    skip: {type: int, start: 0}\n")
    assert "E416" in [c for c, _ in errors(write(tmp_path, bad))]


def test_end_game_in_a_rule_is_an_end_and_flow_turn_may_be_left_out(tmp_path):
    spec = ORDER.replace("end:\n  when: total >= 6\n  score: score\n", "end:\n  score: score\n").replace(
        "      end turn\n", "      if total >= 6:\n        end game\n      end turn\n")
    path = write(tmp_path, spec)
    assert errors(path) == []
    assert failed_examples(path).keys() == {"too_many_rolls", "impossible_roll", "wrongly_offered"}
    # Phases that all define their turns need no flow.turn; a phase without one does.
    phased = spec.replace("flow:\n  first: seat(1)\n  turn:\n    actions: [play]\n",
                          "flow:\n  first: seat(1)\n  phases:\n    - name: main\n      until: total >= 6\n"
                          "      turn:\n        actions: [play]\n")
    assert errors(write(tmp_path, phased, "p.yaml")) == []
    missing = phased.replace("      turn:\n        actions: [play]\n", "")
    assert [c for c, _ in errors(write(tmp_path, missing, "m.yaml"))] == ["E446"]


def test_players_out_of_the_round_are_passed_over(tmp_path):
    spec = ORDER.replace("  player:\n    score: {type: int, start: 0}\n",
                         "  player:\n    score: {type: int, start: 0}\n    out: {type: bool, start: false}\n").replace(
        "flow:\n  first: seat(1)\n", "flow:\n  first: seat(1)\n  skip_if: me.out\n").replace(
        "examples:\n", """examples:
  out_players_lose_their_turns:
    players: 4
    given:
      vars: {out@2: true, out@3: true}
      rolls: [4, 4, 2, 4]
    do: [roll, roll, roll, roll]
    expect:
      - log == 1414
""", 1)
    path = write(tmp_path, spec)
    assert errors(path) == []
    assert "out_players_lose_their_turns" not in failed_examples(path)
