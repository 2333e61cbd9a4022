"""The builtin table: every example checks, and the placement/sum/position builtins compute the right values."""
import pytest

from interpreter import api
from interpreter.builtins import BUILTINS
from interpreter.checker import Checker, _Scope
from interpreter.diagnostics import Text
from interpreter.model import Code
from interpreter import syntax

from spec_helpers import errors, failed_examples, write


@pytest.mark.parametrize("name", sorted(BUILTINS), ids=sorted(BUILTINS))
def test_every_builtin_example_parses_and_checks(name):
    # The examples use STUN's names (draw, held, points, chips), the reference spec.
    spec, _ = api.load_spec("games/stun.yaml")
    b = BUILTINS[name]
    text = Text(b.example, "<example>")
    ast = syntax.parse(text, "condition")
    code = Code(text, "condition", ast, (), None)
    checker = Checker(spec)
    checker.expr(ast, code, _Scope(code, False, False))
    assert checker.diags == [], [d.message for d in checker.diags]
    assert name in b.example and b.doc


SPEC = """
game: {name: B, players: {min: 2, max: 5}}
components:
  cards:
    one: {count: 3, in: draw, props: {v: 1}}
    two: {count: 2, in: draw, props: {v: 2}}
    three: {count: 1, in: draw, props: {v: 3}}
zones:
  draw: {owner: shared}
  hand: {owner: player}
state:
  player:
    score: {type: int}
flow:
  first: seat(1)
  turn:
    actions: [stop]
actions:
  stop: {do: end turn}
end:
  when: "true"
  score: score
examples:
%s
"""

CASES = {
    # place_points: rank by score, tied places summed and split
    "alone_first": ({"score@1": 9, "score@2": 5, "score@3": 1}, "place_points(players, score, [5, 3, 1], seat(1)) == 5"),
    "alone_last": ({"score@1": 9, "score@2": 5, "score@3": 1}, "place_points(players, score, [5, 3, 1], seat(3)) == 1"),
    "tie_for_first": ({"score@1": 7, "score@2": 7, "score@3": 1},
                      "place_points(players, score, [5, 3, 1], seat(1)) == 4 and place_points(players, score, [5, 3, 1], seat(2)) == 4"),
    "tie_for_second": ({"score@1": 9, "score@2": 2, "score@3": 2}, "place_points(players, score, [5, 3, 1], seat(3)) == 2"),
    "three_way_tie": ({}, "place_points(players, score, [5, 3, 1], seat(2)) == 3"),
    "rounded_down": ({"score@1": 4, "score@2": 4}, "place_points(players, score, [5, 2, 1], seat(1)) == 3"),
    "beyond_the_table": ({"score@1": 9, "score@2": 5}, "place_points(players, score, [5, 3], seat(3)) == 0"),
    "not_in_list": ({}, "place_points(others, score, [5, 3], seat(1)) == 0"),
    "cards_by_property": ({}, "place_points(draw, v, [10, 5], top(draw)) >= 0"),
    # top_sum: the k best values together
    "top_sum_two": ({}, "top_sum(draw, v, 2) == 5"),
    "top_sum_all": ({}, "top_sum(draw, v, 99) == 10"),
    "top_sum_none": ({}, "top_sum(draw, v, 0) == 0 and top_sum(draw, v, 0 - 1) == 0"),
    "top_sum_players": ({"score@1": 4, "score@2": 6, "score@3": 1}, "top_sum(players, score, 2) == 10"),
    # position: counted from the bottom card of a zone, 1-based; 0 when absent
    "position_bottom": ({}, "position(draw, first(draw)) == 1"),
    "position_top": ({}, "position(draw, top(draw)) == 6"),
    "position_absent": ({}, "position(seat(1).hand, top(draw)) == 0"),
    "position_in_list": ({}, "position(players, seat(2)) == 2"),
}


def test_builtins_compute(tmp_path):
    lines = []
    for name, (vars_, expect) in CASES.items():
        lines.append(f"  {name}:\n    players: 3\n    given: {{vars: {vars_!r}}}\n    expect: [\"{expect}\"]")
    path = write(tmp_path, SPEC % "\n".join(lines).replace("'", '"'))
    assert errors(path) == []
    assert failed_examples(path) == {}


@pytest.mark.parametrize("expr, code", [
    ("place_points(players, score, 3, me) == 1", "E431"),
    ("place_points(players, nope, [1], me) == 1", "E434"),
    ("top_sum(draw, v) == 1", "E426"),
    ("position(3, me) == 1", "E431"),
], ids=["table_not_a_list", "unknown_property", "missing_k", "not_a_collection"])
def test_builtin_misuse_is_reported(tmp_path, expr, code):
    path = write(tmp_path, SPEC % f"  bad:\n    expect: [\"{expr}\"]")
    assert code in [c for c, _ in errors(path)]
