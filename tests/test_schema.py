"""interpreter/schema.py: structural errors, at the YAML position of the offending key or value.

Each row breaks tests/bad_specs/_minimal.yaml with one text replacement and
names the diagnostic it must give: its code, the text its caret starts on
(found in the edited file, so no line numbers are typed in), its message
and its help.
"""
from __future__ import annotations

import pytest

from interpreter.spec import schema
from interpreter.spec.loader import load

from helpers import MINIMAL, STUN, edit, minimal_text, show, where, write

# (id, old, new, code, (context, target): the caret starts on `target` inside `context`, message, hint)
CASES = [
    # unknown or misspelt fields: E201, did-you-mean among the keys allowed there
    ("misspelt_section", "state:\n", "statee:\n", "E201", ("statee:", "statee"),
     "unknown field 'statee' in the spec", "did you mean 'state'?"),
    ("misspelt_game_field", "  name: Minimal", "  nmae: Minimal", "E201", ("nmae:", "nmae"),
     "unknown field 'nmae' in game", "did you mean 'name'?"),
    ("misspelt_card_field", "      count: 7\n", "      cuont: 7\n", "E201", ("cuont", "cuont"),
     "unknown field 'cuont' in components.cards.coin", "did you mean 'count'?"),
    ("misspelt_in_flow_mapping", "discard: {owner: shared}", "discard: {ownr: shared, owner: shared}", "E201",
     ("ownr", "ownr"), "unknown field 'ownr' in zones.discard", "did you mean 'owner'?"),
    ("misspelt_action_field", "  draw:\n    when:", "  draw:\n    wen:", "E201", ("wen:", "wen"),
     "unknown field 'wen' in actions.draw", "did you mean 'when'?"),
    ("unknown_field_lists_allowed", "  name: Minimal\n", "  name: Minimal\n  colour: red\n", "E201",
     ("colour", "colour"), "unknown field 'colour' in game", "allowed here: name, note, players, rule, rulebook"),
    # missing fields: E202 at the key of the mapping that lacks them
    ("missing_game_name", "  name: Minimal\n", "", "E202", ("game:", "game"), "missing field 'name' in game",
     "add `name:`"),
    ("missing_zone_owner", "discard: {owner: shared}", "discard: {visibility: public}", "E202",
     ("discard: {vis", "discard"), "missing field 'owner' in zones.discard", "add `owner:`"),
    ("missing_action_do", "  stop:\n    when: turn.draws > 0\n    do: |", "  stop:\n    when: turn.draws > 0\n    x: |",
     "E202", ("  stop:", "stop"), "missing field 'do' in actions.stop", "add `do:`"),
    # wrong types: E203 at the value
    ("count_is_a_list", "count: 7", "count: [seven]", "E203", ("[seven]", "[seven]"),
     "components.cards.coin.count must be a whole number or a mapping or text, not a list", None),
    ("actions_not_a_list", "actions: [draw, stop]", "actions: draw", "E203", ("actions: draw", "draw"),
     "flow.turn.actions must be a list, not text", None),
    ("players_not_a_mapping", "players: {min: 2, max: 4}", "players: 4", "E203", ("players: 4", "4"),
     "game.players must be a mapping, not a whole number", None),
    ("prop_is_a_list", "kind: coin}", "kind: [coin]}", "E203", ("[coin]", "[coin]"),
     "components.cards.coin.props.kind must be a whole number or text or true or false, not a list", None),
    ("clamp_is_text", "score: {type: int, start: 0, min: 0}", "score: {type: int, start: 0, min: 0, clamp: maybe}",
     "E203", ("maybe", "maybe"), "state.player.score.clamp must be true or false, not text", None),
    ("rule_is_a_number", "  do: shuffle deck", "  do: shuffle deck\n  rule: 3", "E203", ("rule: 3", "3"),
     "setup.rule must be text, not a whole number", None),
    # values outside an enum: E204 at the value
    ("owner_not_allowed", "owner: player,", "owner: each,", "E204", ("owner: each", "each"),
     "'each' is not allowed for zones.hand.owner", "one of: shared, player"),
    ("visibility_not_allowed", "visibility: hidden", "visibility: secret", "E204", ("secret", "secret"),
     "'secret' is not allowed for zones.deck.visibility", "one of: hidden, public, owner"),
    ("variable_type_suggestion", "pot: {type: int", "pot: {type: integer", "E204", ("integer", "integer"),
     "'integer' is not allowed for state.global.pot.type", "did you mean 'int'?"),
    ("param_type_suggestion", "params: {card: card}", "params: {card: crad}", "E204", ("crad", "crad"),
     "'crad' is not allowed for procedures.take.params.card", "did you mean 'card'?"),
    ("end_check_suggestion", "  score: score\n", "  score: score\n  check: allways\n", "E204", ("allways", "allways"),
     "'allways' is not allowed for end.check", "did you mean 'always'?"),
    # invalid names: E205 at the key or value
    ("card_name_starts_with_digit", "    coin:\n", "    2coin:\n", "E205", ("2coin", "2coin"),
     "'2coin' is not a valid name", "letters, digits and '_'"),
    ("zone_name_with_dash", "  discard: {owner: shared}", "  dis-card: {owner: shared}", "E205",
     ("dis-card", "dis-card"), "'dis-card' is not a valid name", "letters, digits and '_'"),
    pytest.param("zone_reference_with_space", "      in: deck\n      props: {points: 0",
                 "      in: my deck\n      props: {points: 0", "E205", ("my deck", "my deck"),
                 "'my deck' is not a valid name", "letters, digits and '_'"),
    ("action_reference_with_space", "actions: [draw, stop]", "actions: [draw, stop it]", "E205",
     ("stop it", "stop it"), "'stop it' is not a valid name", None),
    pytest.param("ambiguity_default_with_dash", "default: all_cards", "default: all-cards", "E205",
                 ("all-cards", "all-cards"), "'all-cards' is not a valid name", None),
    # bounds: E206 at the value
    ("count_below_minimum", "count: 7", "count: -1", "E206", ("-1", "-1"),
     "components.cards.coin.count must be at least 0, not -1", None),
    ("players_above_maximum", "max: 4}", "max: 40}", "E206", ("40", "40"),
     "game.players.max must be at most 16, not 40", None),
    ("option_without_values", "values: [3, 5]", "values: []", "E206", ("[]", "[]"), "options.target.values", None),
    ("one_interpretation", '      last_card: "only the bomb itself is lost"\n', "", "E206",
     ("      all_cards", "all_cards"), "ambiguities.bomb_rule.interpretations", None),
]


def _at(text: str, context: str, target: str) -> tuple[int, int]:
    line, col = where(text, context)
    return line, col + context.index(target)


def _row(c):
    if hasattr(c, "values"):
        return pytest.param(*c.values[1:], id=c.values[0], marks=c.marks)
    return pytest.param(*c[1:], id=c[0])


@pytest.mark.parametrize("old, new, code, at, message, hint", [_row(c) for c in CASES])
def test_schema_error(tmp_path, old, new, code, at, message, hint):
    text = edit(minimal_text(), old, new)
    doc = load(write(tmp_path, text))
    diags = list(schema.check(doc))
    found = [d for d in diags if d.code == code]
    assert len(found) == 1, show(diags)
    d = found[0]
    assert d.span is not None and d.span.path == doc.path
    assert (d.span.line, d.span.col) == _at(text, *at), show(diags)
    assert message in d.message
    if hint is None:
        assert d.hint is None or "did you mean" not in d.hint
    else:
        assert d.hint and hint in d.hint


@pytest.mark.parametrize("path", [MINIMAL, STUN])
def test_shipped_and_minimal_specs_are_schema_clean(path):
    assert list(schema.check(load(path))) == []


def test_all_errors_are_collected_not_just_the_first(tmp_path):
    text = edit(edit(edit(minimal_text(), "count: 7", "count: [seven]"), "state:\n", "statee:\n"),
                "owner: player,", "owner: each,")
    diags = list(schema.check(load(write(tmp_path, text))))
    assert sorted(d.code for d in diags) == ["E201", "E203", "E204"]


def test_misspelt_required_field_gives_unknown_and_missing(tmp_path):
    text = edit(minimal_text(), "      count: 7\n", "      cuont: 7\n")
    diags = list(schema.check(load(write(tmp_path, text))))
    assert sorted(d.code for d in diags) == ["E201", "E202"]


def test_the_spec_must_be_a_mapping(tmp_path):
    (d,) = schema.check(load(write(tmp_path, "- game\n- zones\n")))
    assert (d.code, d.span.line, d.span.col) == ("E203", 1, 1)
    assert d.message == "the spec must be a mapping, not a list"


def test_missing_sections_are_reported_at_the_top(tmp_path):
    diags = list(schema.check(load(write(tmp_path, "# only a game\ngame:\n  name: x\n  players: {min: 1, max: 2}\n"))))
    assert sorted(d.message for d in diags) == [f"missing field '{k}' in the spec"
                                                for k in ("end", "flow")]  # components and zones are optional (a dice game has no cards)
    assert {(d.span.line, d.span.col) for d in diags} == {(2, 1)}


def test_schema_is_valid_json_schema():
    v = schema.validator()
    type(v).check_schema(v.schema)  # raises SchemaError if the shipped schema is not a valid JSON Schema
    assert schema.validator() is v


def test_too_few_interpretations_is_said_in_words(tmp_path):
    text = edit(minimal_text(), '      last_card: "only the bomb itself is lost"\n', "")
    (d,) = schema.check(load(write(tmp_path, text)))
    assert "{'" not in d.message and "does not have enough properties" not in d.message
