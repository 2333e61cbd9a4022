"""The language for the games people bring next (issue 29, second half): boards seen from a side
(`origin: bottom`, `forward:`), cells named as on the diagram, quantifiers that stop at the first
witness, lists taken while a condition holds, `[]` as an empty list, statements that begin with
`next(me)`, option values as ranges, names that hide a later builtin (W420), and old specs kept
passing (language versions, W421, `rulewright upgrade`).

The shipped games that use them (Breakthrough, Backgammon) have their examples in their specs and
their lockstep tests against OpenSpiel in test_openspiel_lockstep.py.
"""
from __future__ import annotations

import os
import shutil

import pytest
from click.testing import CliRunner

from interpreter import api
from interpreter.cli.commands import cli
from interpreter.lang.boards import Board
from interpreter.runtime.engine import Game, Status
from interpreter.runtime.scenarios import run_examples
from interpreter.runtime.upgrade import UpgradeError, upgrade, write as write_upgrade
from interpreter.spec.diagnostics import Severity
from helpers import compiled_forms
from spec_helpers import diagnostics, errors, failed_examples, write

LAST_MONTH = os.path.join("tests", "specs", "last_month.yaml")


# -- boards seen from a side ------------------------------------------------------------------------
def test_origin_bottom_numbers_rows_from_the_bottom_and_keeps_directions_as_drawn():
    b = Board("grid", "g", 8, 8, 0, origin="bottom", forward=("down", "up"))
    assert [c.name for c in b.cells[:2]] == ["a8", "b8"]  # reading order: the top row of the diagram first
    a1 = b.cell(1, 1)
    assert a1 is b.cells[56] and a1.row == 1
    assert b.steps["up"][a1.index] is b.cell(2, 1)  # up the board goes to higher rows
    assert b.steps["down"][a1.index] is None
    assert b.forward == ("down", "up")


BOARD = """
game: {name: Sides, players: {min: 2, max: 2}}
boards:
  grid: {rows: 4, columns: 3, origin: bottom, forward: [up, down]}
state:
  global:
    mark: {type: int, start: 0, cells: grid}
  player:
    n: {type: int, start: 0}
flow:
  first: seat(1)
  turn:
    actions: [go]
functions:
  f0:
    value: step(a1, forward(grid, me)) == a2
  f1:
    value: "[x in after(line(a1, forward(grid, me)), a1) while mark[x] == 0]"
  f2:
    value: any x in cells(grid) where mark[x] == 2
  f3:
    value: all x in [a1, b1, c1] where mark[x] == 1
  f4:
    value: count([x in cells(grid) where can_step(x, forward(grid, seat(2)) + " left")])
actions:
  go:
    choose:
      c: "[x in cells(grid) where mark[x] == 0]"
    do: |
      mark[c] = me.seat
      next(me).n += 1
      end turn
end:
  when: sum(players, n) >= 3
examples:
  a1_is_the_bottom_left_cell:
    given:
      vars: {"mark[a1]": 1, "mark[b1]": 1, "mark[c1]": 1, "mark[a3]": 2}
    expect:
      - f0()
      - f1() == [a2]
      - f2() and f3()
      - f4() == 6
      - cell(grid, 1, 1) == a1 and a4.row == 4
"""


def test_a_board_from_the_bottom_in_rules_and_in_generated_code(tmp_path):
    path = write(tmp_path, BOARD)
    assert errors(path) == []
    assert failed_examples(path) == {}
    spec, _ = api.load_spec(path)
    game = Game(spec)
    st = game.new_game(2, 1)
    for text, generated, general in compiled_forms(game, ["f0", "f1", "f2", "f3", "f4"]):
        assert generated(st, [None] * 4) == general(st, [None] * 4), text  # with and without shortcuts
    st.apply(0)  # seat 1 marks the first empty cell in reading order: a4 (the top row)
    assert st.gvars[spec.vars["global"]["mark[a4]"].index] == 1
    assert st.pvars[spec.vars["player"]["n"].index] == [0, 1]  # `next(me).n += 1` began a statement


@pytest.mark.parametrize("old, new, code", [
    ("origin: bottom, forward: [up, down]", "origin: bottom, forward: [up]", "E475"),
    ("origin: bottom, forward: [up, down]", "origin: bottom", "E475"),
    ("origin: bottom,", "origin: middle,", "E204"),
    ("      - cell(grid, 1, 1) == a1", "      - cell(grid, 1, 1) == a5", "E401"),  # off the board: not a cell name
])
def test_board_side_diagnostics(tmp_path, old, new, code):
    assert old in BOARD
    assert code in [c for c, _ in errors(write(tmp_path, BOARD.replace(old, new)))]


def test_a_cell_name_off_the_board_says_which_cells_there_are(tmp_path):
    path = write(tmp_path, BOARD.replace("      - cell(grid, 1, 1) == a1", "      - cell(grid, 1, 1) == a5"))
    (d,) = [d for d in diagnostics(path) if d.code == "E401"]
    assert d.hint == "not a cell of the board: its cells are a1 to c4"


# -- expressions that stop early, and lists ---------------------------------------------------------
STOPS = """
game: {name: Stops, players: {min: 2, max: 2}}
state:
  global:
    n: {type: int, start: 0}
flow:
  first: seat(1)
  turn:
    actions: [go]
functions:
  f0:
    value: any x in [2, 1] where 10 // (x - 1) > 0
  f1:
    value: all x in [2, 1] where 10 // (x - 1) > 100
  f2:
    value: "[x in [3, 2, 0, 5] while x > 0]"
  f3:
    value: "[]"
actions:
  go:
    do: |
      let seen = []
      for each k in range(1, 4):
        seen = seen + [k * 2]
      let more = [] + seen
      if any x in seen where x == 4:
        n = sum(more)
      end turn
end:
  when: n > 0
examples:
  they_stop_at_the_first_witness:
    do: [go]
    expect:
      - f0() and not f1()
      - f2() == [3, 2]
      - count(f3()) == 0
      - n == 20
      - any p in players where p == seat(2)
"""


def test_quantifiers_stop_early_and_empty_lists_join(tmp_path):
    path = write(tmp_path, STOPS)
    assert errors(path) == []
    assert failed_examples(path) == {}
    game = Game(api.load_spec(path)[0])
    st = game.new_game(2, 0)
    for (text, generated, general), want in zip(compiled_forms(game, ["f0", "f1", "f2"]), [True, False, [3, 2]]):
        assert generated(st, [None] * 4) == want, text  # no division by zero: they stop at x = 2
        assert general(st, [None] * 4) == want, text


@pytest.mark.parametrize("expr, code, hint", [
    ("any(players)", "E403", "any x in list where condition"),
    ("some p in players where p == me", "E460", "`any x in list where condition`"),
    ("any p in players where p == me of 1", "E460", "no `by` or `of`"),
    ("any p in players where p.seat", "E431", None),
])
def test_quantifier_diagnostics(tmp_path, expr, code, hint):
    path = write(tmp_path, STOPS.replace("10 // (x - 1) > 0", expr, 1).replace("any x in [2, 1] where ", ""))
    found = [d for d in diagnostics(path) if d.code == code]
    assert found, [(d.code, d.message) for d in diagnostics(path)]
    if hint:
        assert hint in (found[0].hint or "") + found[0].message


# -- small traps --------------------------------------------------------------------------------------
def test_option_values_as_a_range(tmp_path):
    text = STOPS.replace("state:", "options:\n  goal: {values: {from: 2, to: 10, step: 4}, default: 6}\nstate:")
    spec, _ = api.load_spec(write(tmp_path, text))
    assert spec.options["goal"].values == [2, 6, 10]
    bad = STOPS.replace("state:", "options:\n  goal: {values: {from: 5, to: 1}, default: 5}\nstate:")
    assert [c for c, _ in errors(write(tmp_path, bad, "b.yaml"))] == ["E413"]


def test_an_unquoted_word_in_a_list_gets_the_yaml_hint(tmp_path):
    path = write(tmp_path, STOPS.replace("    n: {type: int, start: 0}", "    n: {type: int, start: 0}\n"
                                         "    lamp: {type: bool, keys: [on, off]}"))
    (d,) = [d for d in diagnostics(path) if d.severity is Severity.ERROR]
    assert d.code == "E203" and "put the text in quotes" in d.hint and (d.span.line, d.span.col) == (5, 31)


ROUNDS = """
game: {name: Rounds, players: {min: 2, max: 4}}
state:
  global:
    turns: {type: int, start: 0}
  player:
    bids: {type: int, start: 0}
flow:
  first: seat(1)
  phases:
    - name: bidding
      repeat: 2
      turn:
        actions: [bid]
    - name: scoring
      until: turns >= 100
      turn:
        actions: [bid]
actions:
  bid:
    do: |
      me.bids += 1
      turns += 1
      if turns >= 7:
        end game
      end turn
end:
  score: bids
"""


def test_a_phase_without_until_is_one_round_of_turns(tmp_path):
    path = write(tmp_path, ROUNDS)
    assert errors(path) == []
    spec, _ = api.load_spec(path)
    st = Game(spec).new_game(3, 0, log=True)
    phases = []
    while st.status is Status.RUNNING:
        phases.append(st.phase)
        st.apply(0)
    assert phases == ["bidding"] * 6 + ["scoring"]  # two rounds of three turns, then the next phase
    assert st.pvars[spec.vars["player"]["bids"].index] == [3, 2, 2]


# -- old specs keep passing -------------------------------------------------------------------------------
def test_last_months_spec_checks_with_warnings_and_its_example_passes():
    diags = diagnostics(LAST_MONTH)
    assert [d.code for d in diags] == ["W420", "W420", "W420"]  # `cell`, `roll`, `line` hide the builtins
    spec, _ = api.load_spec(LAST_MONTH)
    (o,) = run_examples(spec)
    assert o.ok, o.message
    (x,) = o.legacy
    assert x.fixed == "gem from box" and x.diagnostic(spec).code == "W421"
    st = Game(spec).new_game(2, 0)
    while st.status is Status.RUNNING:
        st.apply(0)
    assert st.status is Status.FINISHED


def test_declared_versions_keep_or_drop_the_old_meaning(tmp_path):
    with open(LAST_MONTH, encoding="utf-8") as fh:
        text = fh.read()
    new = write(tmp_path, "language: 2\n" + text, "new.yaml")
    assert "which 'gem'?" in failed_examples(new)["a_gem_on_top"]
    old = write(tmp_path, "language: 1\n" + text, "old.yaml")
    assert "W421" in [d.code for d in diagnostics(old)] and failed_examples(old) == {}


def test_upgrade_rewrites_the_spec_and_proves_it_with_its_examples(tmp_path):
    path = str(tmp_path / "last_month.yaml")
    shutil.copy(LAST_MONTH, path)
    up = upgrade(path)
    assert up.changed and up.examples == 1
    write_upgrade(up)
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    assert "zones: {bag: [gem from box]}" in text and "\nlanguage: 2\ngame:" in text
    assert failed_examples(path) == {} and "W421" not in [d.code for d in diagnostics(path)]
    assert not upgrade(path).changed  # a second upgrade has nothing to do
    result = CliRunner().invoke(cli, ["upgrade", path])
    assert result.exit_code == 0 and "nothing to change" in result.output


def test_upgrade_refuses_a_spec_with_errors_and_writes_nothing(tmp_path):
    with open(LAST_MONTH, encoding="utf-8") as fh:
        bad = fh.read().replace("cell += 1", "cel += 1")
    path = write(tmp_path, bad)
    with pytest.raises(UpgradeError, match="error"):
        upgrade(path)
    result = CliRunner().invoke(cli, ["upgrade", path])
    assert result.exit_code == 1 and "Traceback" not in result.output
    with open(path, encoding="utf-8") as fh:
        assert fh.read() == bad.lstrip()


# -- cells as values: `type: cell` variables ------------------------------------------------------------
WALKER = os.path.join("tests", "specs", "walker.yaml")


def test_a_cell_variable_starts_on_its_cell_and_is_set_by_name_in_examples():
    assert errors(WALKER) == []
    assert failed_examples(WALKER) == {}
    spec, _ = api.load_spec(WALKER)
    st = Game(spec).new_game(2, 3)
    at = spec.vars["global"]["at"].index
    assert st.gvars[at].name == "b2" and st.labels() == ["walk to: b1", "walk to: a2", "walk to: c2", "walk to: b3"]
    view = st.view(0)
    import json
    assert json.loads(json.dumps(view))["global"]["at"] == "b2"  # a cell is its name to every face
    clone = st.clone()
    clone.apply(0)
    assert clone.gvars[at].name == "b1" and st.gvars[at].name == "b2"


def test_a_cell_variable_in_the_learning_observation():
    pytest.importorskip("pettingzoo")
    from interpreter.pettingzoo_env import env as make_env
    e = make_env(WALKER, players=2)
    e.reset(seed=1)
    obs = e.observe(e.agents[0])
    vector = obs["observation"] if isinstance(obs, dict) else obs
    assert 4.0 in list(vector)  # b2 is the fifth cell in reading order (index 4)


@pytest.mark.parametrize("old, new, code", [
    ("at: {type: cell, start: b2}", "at: {type: cell, start: d9}", "E415"),
    ("at: {type: cell, start: b2}", "at: {type: cell, start: b2, board: gird}", "E470"),
    ("  grid: {rows: 3, columns: 3}", "  grid: {rows: 3, columns: 3}\n  other: {rows: 2, columns: 2}", "E470"),
    ("      at = to", "      at = 3", "E431"),
])
def test_cell_variable_diagnostics(tmp_path, old, new, code):
    with open(WALKER, encoding="utf-8") as fh:
        text = fh.read()
    assert old in text
    assert code in [c for c, _ in errors(write(tmp_path, text.replace(old, new)))]


JUMPS = """
game: {name: Jumps, players: {min: 2, max: 2}}
boards:
  grid: {rows: 1, columns: 4}
state:
  global:
    piece: {type: int, start: 0, cells: grid}
    n: {type: int, start: 0}
setup:
  do: |
    piece[a1] = 1
    piece[c1] = 1
flow:
  first: seat(1)
  turn:
    actions: [jump, wait]
actions:
  jump:
    label: "{src}-{dst}"
    choose:
      src: "[c in cells(grid) where piece[c] == 1]"
      dst: "[x in after(line(src, 'right'), src) where piece[x] == 0 and count(line(src, 'right')) > 4]"
    do: |
      piece[dst] = 1
      end turn
  wait:
    do: |
      n += 1
      end turn
end:
  when: n >= 2
"""


def test_why_a_move_with_two_ends_is_not_offered(tmp_path):
    from interpreter.lab.whynot import unavailable
    spec, _ = api.load_spec(write(tmp_path, JUMPS))
    st = Game(spec).new_game(2, 0)
    assert st.labels() == ["wait"]
    (why,) = unavailable(st)
    assert why.action == "jump" and why.label == "<src>-<dst>"
    (reason,) = why.reasons
    assert reason.startswith("every `src` (a1, c1) leaves no `dst` (`[x in after(") and "empty for each" in reason


# -- lists of lists: combinations, and a pair as one option ------------------------------------------------
FIFTEENS = os.path.join("tests", "specs", "fifteens.yaml")


def test_combinations_count_fifteens_and_a_pair_is_one_option():
    assert errors(FIFTEENS) == []
    assert failed_examples(FIFTEENS) == {}
    spec, _ = api.load_spec(FIFTEENS)
    st = Game(spec).new_game(2, 1)
    for _ in range(4):
        st.apply(0)  # each draws two cards
    assert st.labels()[1:] == ["pick: ten, ten"]  # the hand's only pair, shown as one option
    st.apply(1)
    assert st.status is Status.RUNNING


def test_combinations_are_bounded(tmp_path):
    from interpreter.lang.builtins import RuleError, combinations_of
    assert combinations_of([1, 2, 3]) == [[1], [2], [3], [1, 2], [1, 3], [2, 3], [1, 2, 3]]
    with pytest.raises(RuleError, match="the limit is"):
        combinations_of(range(40), 20)


def test_an_aggregate_without_its_value_says_so(tmp_path):
    path = write(tmp_path, STOPS.replace("any x in [2, 1] where 10 // (x - 1) > 0", "sum x in [2, 1] where x > 1 == 2"))
    (d,) = [d for d in diagnostics(path) if d.code == "E460"]
    assert "needs a value to add up" in d.message and "of x.points" in d.hint


def test_explain_shows_a_move_with_two_ends_and_the_sides_of_the_board():
    from interpreter.lab.explain import explain
    spec, _ = api.load_spec("games/checkers.yaml")
    text = explain(spec)
    assert "### Action: move" in text and "Shown as `{src}{dst}`." in text
    assert "Chooses `src` from `[c in cells(grid) where piece[c] == me.seat" in text
    assert "then `dst` from `targets(src, me)`." in text
    assert "`a1` the bottom left cell; forward is up for seat 1, down for seat 2" in text


PROPS = """
game: {name: Props, players: {min: 2, max: 2}}
flow:
  first: seat(1)
  turn:
    actions: [go]
functions:
  f0:
    params: {xs: ints, k: int}
    value: any x in xs where x > k
  f1:
    params: {xs: ints, k: int}
    value: all x in xs where x > k
  f2:
    params: {xs: ints, k: int}
    value: "[x in xs while x > k]"
  f3:
    params: {xs: ints, k: int}
    value: "count(combinations(xs, 2)) + count([s in combinations(xs) where sum(s) == k])"
actions:
  go:
    do: |
      end game
end:
  when: true
"""


def test_quantifiers_while_lists_and_combinations_match_python(tmp_path):
    from hypothesis import given, settings, strategies as hs
    import itertools
    import math
    spec, _ = api.load_spec(write(tmp_path, PROPS))
    game = Game(spec)
    st = game.new_game(2, 0)
    forms = compiled_forms(game, ["f0", "f1", "f2", "f3"])

    @settings(max_examples=150, deadline=None)
    @given(hs.lists(hs.integers(-5, 5), max_size=8), hs.integers(-6, 6))
    def check(xs, k):
        want = [any(x > k for x in xs), all(x > k for x in xs), list(itertools.takewhile(lambda x: x > k, xs)),
                math.comb(len(xs), 2) + sum(1 for n in range(1, len(xs) + 1)
                                            for c in itertools.combinations(xs, n) if sum(c) == k)]
        for (text, generated, general), expected in zip(forms, want):
            assert generated(st, [xs, k] + [None] * 6) == expected, text
            assert general(st, [xs, k] + [None] * 6) == expected, text
    check()
