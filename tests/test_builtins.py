"""The builtin table (interpreter/builtins.py): every example parses and checks,
and the list builtins behave as documented, run inside a tiny game."""
import pytest

from interpreter import api, syntax
from interpreter.builtins import BUILTINS
from interpreter.diagnostics import Text
from interpreter.scenarios import run_examples


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_every_builtin_has_a_doc_and_an_example_that_parses(name):
    b = BUILTINS[name]
    assert b.doc and b.example
    syntax.parse(Text(b.example, "<example>", [(1, 1)]), "condition")
    assert f"{name}(" in b.example


# Each expression must hold in the tiny game of tests/variants/base.yaml right after setup.
CASES = [
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
    spec, diags = api.check_spec(_spec_with_examples(tmp_path, CASES))
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
