"""The builtin table: every example checks, and the placement/sum/position builtins compute the right values."""
import pytest

from interpreter import api
from interpreter.lang.boards import BOARD_BUILTINS
from interpreter.lang.builtins import BUILTINS
from interpreter.lang.teams import TEAM_BUILTINS
from interpreter.lang.checker import Checker, _Scope
from interpreter.spec.diagnostics import Text
from interpreter.lang.model import Code
from interpreter.lang import syntax

from spec_helpers import errors, failed_examples, write


@pytest.mark.parametrize("name", sorted(BUILTINS), ids=sorted(BUILTINS))
def test_every_builtin_example_parses_and_checks(name):
    # The examples use STUN's names (draw, held, points, chips), the reference spec; a board builtin's
    # use Tic-tac-toe's board `grid` (`forward`'s, Breakthrough's: a board with a forward direction), a side
    # builtin's Euchre's sides.
    board_spec = "games/breakthrough.yaml" if name == "forward" else "games/tic_tac_toe.yaml"
    spec, _ = api.load_spec(board_spec if name in BOARD_BUILTINS else
                            "games/euchre.yaml" if name in TEAM_BUILTINS else "games/stun.yaml")
    b = BUILTINS[name]
    text = Text(b.example, "<example>")
    ast = syntax.parse(text, "condition")
    code = Code(text, "condition", ast, (), None)
    checker = Checker(spec)
    checker.expr(ast, code, _Scope(code, False, b.chance))  # dice only in effects
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


# ---- list builtins added with First in Flight: first/last with a count, after ------------------------
from interpreter.runtime.scenarios import run_examples  # noqa: E402


# Each expression must hold in the tiny game of tests/variants/base.yaml right after setup.
LIST_CASES = [
    ("first_n", "first([1, 2, 3], 2) == [1, 2]"),
    ("first_n_more_than_there_are", "first([1, 2, 3], 5) == [1, 2, 3]"),
    ("first_none", "count(first([1, 2], 0)) == 0"),
    ("first_negative_is_none", "count(first([1, 2], 0 - 1)) == 0"),
    ("first_n_of_a_zone_is_from_the_bottom", "first(draw, 1) == [bottom(draw)]"),
    ("first_one", "first([4, 5]) == 4"),
    ("last_n", "last([1, 2, 3], 2) == [2, 3]"),
    ("last_n_more_than_there_are", "last([1, 2, 3], 7) == [1, 2, 3]"),
    ("last_none", "count(last([1, 2], 0)) == 0"),
    ("last_n_of_a_zone_is_from_the_top", "last(draw, 1) == [top(draw)]"),
    ("after_an_element", "after([1, 2, 3], 2) == [3]"),
    ("after_the_last_is_nothing", "count(after([1, 2, 3], 3)) == 0"),
    ("after_a_missing_element_is_nothing", "count(after([1, 2, 3], 9)) == 0"),
    ("after_a_card_in_a_zone", "count(after(draw, bottom(draw))) == count(draw) - 1"),
    ("after_the_top_card", "count(after(draw, top(draw))) == 0"),
    ("last_of_a_list", "last([1, 2, 3]) == 3"),
    ("last_of_a_zone_is_its_top", "last(draw) == top(draw)"),
    ("last_of_a_filter", "last([c in draw where c.points == 2]).points == 2"),
    ("composed", "first(after([5, 6, 7, 8, 9], 5), 3) == [6, 7, 8]"),
]


def _spec_with_examples(tmp_path, exprs):
    base = open("tests/variants/base.yaml", encoding="utf-8").read()
    (tmp_path / "base.yaml").write_text(base, encoding="utf-8")
    lines = ["extends: base.yaml", "examples:"]
    for name, expr in exprs:
        lines += [f"  {name}:", "    players: 2", "    expect:", f"      - '{expr}'"]
    p = tmp_path / "v.yaml"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(p)


def test_list_builtins(tmp_path):
    spec, diags = api.check_spec(_spec_with_examples(tmp_path, LIST_CASES))
    assert spec is not None, diags
    failed = [(o.name, o.message) for o in run_examples(spec) if not o.ok]
    assert failed == []


@pytest.mark.parametrize("expr, code", [
    ("first(draw, true) == []", "E431"),
    ("last(3) == 3", "E431"),
    ("after(draw) == []", "E426"),
    ("first(draw, 2) == top(draw)", "E431"),
], ids=["n_is_a_number", "last_needs_a_list", "after_needs_two", "first_n_is_a_list"])
def test_list_builtins_are_type_checked(tmp_path, expr, code):
    spec, diags = api.check_spec(_spec_with_examples(tmp_path, [("bad", expr)]))
    assert spec is None
    assert code in [d.code for d in diags]
    assert all(d.span.path.endswith("v.yaml") for d in diags)


def test_last_of_nothing_is_a_rule_error(tmp_path):
    spec, _ = api.check_spec(_spec_with_examples(tmp_path, [("empty", "last(first([1], 0)) == 1")]))
    (o,) = run_examples(spec)
    assert not o.ok and "last of an empty list" in o.message
