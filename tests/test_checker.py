"""interpreter/checker.py: names, types, arity, references, spec-level checks and warnings.

Specs are tests/bad_specs/_minimal.yaml plus one probe: a condition under
`invariants:`, a block under `procedures:` (with a `card` parameter), or a
function whose type is read back. Rule text is always written as a YAML
block, so the caret positions can be checked against the written file.
"""
from __future__ import annotations

import pytest

from interpreter.lang import checker, model
from interpreter.spec import loader
from interpreter.lang import nodes as N
from interpreter.lang.builtins import NAMESPACES
from interpreter.spec.diagnostics import Severity
from interpreter.lang.kinds import T

from helpers import MINIMAL, STUN, caret_text, diagnostics, edit, errors, minimal_text, show, warnings, where, write


def _indent(code: str, by: int) -> str:
    return "".join(" " * by + ln + "\n" for ln in code.strip("\n").split("\n"))


def condition_spec(tmp_path, expr: str) -> tuple[str, str]:
    text = minimal_text() + "\ninvariants:\n  probe:\n    check: |\n" + _indent(expr, 6)
    return write(tmp_path, text), text


def block_spec(tmp_path, code: str) -> tuple[str, str]:
    probe = "procedures:\n  probe:\n    params: {card: card}\n    do: |\n" + _indent(code, 6)
    text = edit(minimal_text(), "procedures:\n", probe)
    return write(tmp_path, text), text


def function_spec(tmp_path, expr: str) -> tuple[str, str]:
    probe = "functions:\n  probe:\n    params: {p: player, c: card}\n    value: |\n" + _indent(expr, 6)
    text = edit(minimal_text(), "functions:\n", probe)
    return write(tmp_path, text), text


def checked(path: str):
    spec = model.build(loader.load(path))
    c = checker.Checker(spec)
    return spec, c, c.run()


# ---- static types ---------------------------------------------------------------------
TYPES = [
    ("1 + 2", T.INT), ("-pot", T.INT), ("pot", T.INT), ("turn.draws", T.INT), ("option.target", T.INT),
    ("reading.bomb_rule", T.STR), ('"text"', T.STR), ("true", T.BOOL), ("not (1 > 2)", T.BOOL),
    ("count(deck)", T.INT), ("deck", T.ZONE), ("me.hand", T.ZONE), ("p.hand", T.ZONE), ("me", T.PLAYER),
    ("p", T.PLAYER), ("players", T.PLAYERS), ("others", T.PLAYERS), ("winners", T.PLAYERS),
    ("[q in players where q.score > 0]", T.PLAYERS), ("[x in me.hand where x.points > 0]", T.CARDS),
    ("top(deck)", T.CARD), ("bottom(deck)", T.CARD), ("c", T.CARD), ("me.hand[1]", T.CARD),
    ("c.kind", T.STR), ("c.points", T.INT), ("c.type", T.STR), ("p.seat", T.INT), ("p.score", T.INT),
    ("best(players, score)", T.PLAYERS), ("worst(deck, points)", T.CARDS), ("first(players)", T.PLAYER),
    ("first(deck)", T.CARD), ("range(1, 3)", T.INTS), ("[1, 2]", T.INTS), ('["a", "b"]', T.STRS),
    ("[me, p]", T.PLAYERS), ("sum(me.hand, points)", T.INT), ("sum(players, score)", T.INT),
    ("sum([1, 2])", T.INT), ("highest(players, score)", T.INT), ("lowest(deck, points)", T.INT),
    ("contains(others, me)", T.BOOL), ("empty(deck)", T.BOOL), ("next(p)", T.PLAYER), ("seat(1)", T.PLAYER),
    ("max(1, pot)", T.INT), ("abs(0 - 2)", T.INT), ("1 if pot > 0 else 2", T.INT),
    ("deck + discard", T.CARDS), ("others + [me]", T.PLAYERS), ("total_of(me)", T.INT),
]


@pytest.mark.parametrize("expr, ty", TYPES, ids=[e for e, _ in TYPES])
def test_expression_type(tmp_path, expr, ty):
    path, _ = function_spec(tmp_path, expr)
    spec, c, diags = checked(path)
    assert [d for d in diags if d.severity is Severity.ERROR] == [], show(diags)
    assert c.func_types["probe"] is ty
    assert spec.functions["probe"].value.ast.ty is ty


# ---- errors in conditions ------------------------------------------------------------------
# (id, condition, code, text under the caret, message contains, hint contains or None for no hint)
CONDITION_ERRORS = [
    ("unknown_name", "count(dek) > 0", "E401", "dek", "unknown name 'dek'", "did you mean 'deck'?"),
    ("unknown_name_no_suggestion", "count(graveyard) > 0", "E401", "graveyard", "unknown name 'graveyard'", None),
    ("player_zone_needs_owner", "count(hand) > 0", "E401", "hand", "belongs to each player", "me.hand"),
    ("player_variable_needs_owner", "score > 0", "E401", "score", "belongs to each player", "me.score"),
    ("turn_variable_needs_turn", "draws > 0", "E401", "draws", "is a turn variable", "turn.draws"),
    ("namespace_alone", "option == 3", "E401", "option", "needs a field", None),
    ("function_not_called", "total_of > 0", "E401", "total_of", "is a function", "total_of(...)"),
    ("text_value_not_quoted", "top(deck).kind == bomb", "E401", "bomb", "unknown name 'bomb'", '"bomb"'),
    ("player_zone_bare_is_not_suggested", "count(hnd) > 0", "E401", "hnd", "unknown name 'hnd'", None),
    ("unknown_card_property", "top(deck).colour == 1", "E402", "colour", "unknown card property 'colour'",
     "known: points, kind, type"),
    ("unknown_player_variable", "me.scor > 0", "E402", "scor", "unknown player variable or zone 'scor'",
     "did you mean 'score'?"),
    ("unknown_option", "option.targt > 0", "E402", "targt", "unknown option 'targt'", "did you mean 'target'?"),
    ("unknown_ambiguity", 'reading.bomb == "all_cards"', "E402", "bomb", "unknown ambiguity 'bomb'",
     "did you mean 'bomb_rule'?"),
    ("unknown_turn_variable", "turn.drawz > 0", "E402", "drawz", "unknown turn variable 'drawz'",
     "did you mean 'draws'?"),
    ("unknown_interpretation", 'reading.bomb_rule == "all"', "E404", '"all"',
     "'all' is not an interpretation of ambiguity 'bomb_rule'", "one of: all_cards, last_card"),
    ("unknown_interpretation_left", '"last" == reading.bomb_rule', "E404", '"last"',
     "'last' is not an interpretation", "did you mean 'last_card'?"),
    ("unknown_card_property_value", 'top(deck).kind == "bombs"', "E404", '"bombs"',
     "'bombs' is not a value of card property 'kind'", "did you mean 'bomb'?"),
    ("unknown_card_type", 'top(deck).type == "coins"', "E404", '"coins"', "'coins' is not a card type",
     "did you mean 'coin'?"),
    ("unknown_function", "totl(me) > 0", "E403", "totl", "unknown function 'totl'", "did you mean 'total_of'?"),
    ("unknown_function_no_suggestion", "zorp(6) > 0", "E403", "zorp", "unknown function 'zorp'", None),
    ("misspelt_builtin", "cuont(deck) > 0", "E403", "cuont", "unknown function 'cuont'", "did you mean 'count'?"),
    ("procedure_as_value", "take(top(deck)) == 1", "E425", "take", "procedure 'take' gives no value", "statement"),
    ("builtin_too_many_args", "count(deck, 2) > 0", "E426", "count(deck, 2)", "'count' takes 1 argument(s), 2 given",
     "for example"),
    ("builtin_too_few_args", "max(1) > 0", "E426", "max(1)", "'max' takes 2 argument(s), 1 given", "for example"),
    ("optional_arg_builtin", "sum() > 0", "E426", "sum()", "'sum' takes 1 or 2 argument(s), 0 given", None),
    ("function_arity", "total_of() > 0", "E426", "total_of()", "'total_of' takes 1 argument(s), 0 given",
     "total_of(p)"),
    ("condition_is_a_number", "count(deck)", "E431", "count(deck)",
     "expected a condition (true/false), found a number", None),
    ("compare_card_with_number", "top(deck) == 1", "E431", "top(deck) == 1", "cannot compare a card with a number",
     None),
    ("and_of_number", "1 and true", "E431", "1", "expected a condition (true/false) for and, found a number", None),
    ("order_of_players", "me < 1", "E431", "me", "expected a number for <, found a player", None),
    ("arithmetic_on_condition", "true + 1 > 0", "E431", "true", "expected a number for +, found a condition", None),
    ("argument_type", "seat(me) == me", "E431", "me", "expected a number for argument of seat, found a player", None),
    ("card_where_number_expected", "max(top(deck), 1) > 0", "E431", "top(deck)",
     "expected a number for argument of max, found a card", None),
    ("function_argument_type", "total_of(1) > 0", "E431", "1",
     "expected a player for argument of total_of, found a number", None),
    ("ternary_sides_differ", "(1 if true else me) == 1", "E431", "1 if true else me", "must be the same kind", None),
    ("join_different_lists", "count(deck + players) > 0", "E431", "deck + players",
     "cannot join a zone and a list of players", None),
    ("field_of_a_number", "pot.x > 0", "E432", "x", "a number has no field 'x'", None),
    ("position_in_a_number", "pot[1] > 0", "E432", "pot", "cannot take a position in a number", None),
    ("position_is_not_a_number", "me.hand[me] == top(deck)", "E431", "me",
     "expected a number for a position, found a player", None),
    ("sum_without_property", "sum(deck) > 0", "E433", "sum(deck)", "needs a property to add up", "for example"),
    ("property_not_a_name", "sum(deck, 1) > 0", "E434", "1", "the second argument of sum is a property name", None),
    ("property_not_a_number", "sum(deck, kind) > 0", "E434", "kind", "'kind' is not a number property of cards",
     None),
    ("player_property_unknown", "sum(players, points) > 0", "E434", "points",
     "'points' is not a number variable of players", None),
    ("property_of_numbers", "highest([1, 2], points) > 0", "E434", "highest([1, 2], points)",
     "highest() with a property needs cards or players", None),
    ("mixed_list", "count([1, me]) > 0", "E435", "me", "a list holds one kind of element", None),
    ("list_of_conditions", "count([true, false]) > 0", "E435", "[true, false]", "cannot make a list of", None),
]


@pytest.mark.parametrize("expr, code, caret, message, hint", [c[1:] for c in CONDITION_ERRORS],
                         ids=[c[0] for c in CONDITION_ERRORS])
def test_condition_error(tmp_path, expr, code, caret, message, hint):
    path, text = condition_spec(tmp_path, expr)
    errs = errors(path)
    assert [d.code for d in errs] == [code], show(errs)
    d = errs[0]
    assert caret_text(text, d) == caret
    assert d.span.line > where(text, "probe:")[0]
    assert message in d.message
    if hint is None:
        assert d.hint is None or "did you mean" not in d.hint, d.hint
    else:
        assert d.hint and hint in d.hint


# ---- errors in effects -----------------------------------------------------------------------------
BLOCK_ERRORS = [
    ("local_suggested", "move crad to discard", "E401", "crad", "unknown name 'crad'", "did you mean 'card'?"),
    ("let_shadows_zone", "let deck = 1", "E422", "let deck = 1", "'deck' is already the name", "another name"),
    ("let_shadows_me", "let me = 1", "E422", "let me = 1", "'me' is already the name", None),
    ("let_changes_type", "let x = 1\nlet x = true", "E423", "true", "'x' was a number, cannot become a condition",
     None),
    ("assign_to_zone", "deck = 1", "E424", "deck", "only variables can be assigned", "assign"),
    ("assign_to_option", "option.target = 5", "E424", "option.target", "only variables can be assigned", None),
    ("assign_to_position", "let xs = [1, 2]\nxs[1] = 3", "E424", "xs[1]", "only variables can be assigned", None),
    ("assign_wrong_type", "pot = true", "E431", "true", "expected a number for =, found a condition", None),
    ("add_to_condition", "turn.draws += true", "E431", "true", "expected a number for +=, found a condition", None),
    ("value_as_statement", "count(deck)", "E425", "count(deck)", "'count' gives a value", "let x"),
    ("function_as_statement", "total_of(me)", "E425", "total_of(me)", "'total_of' gives a value", None),
    ("unknown_procedure", "tkae(card)", "E403", "tkae", "unknown procedure 'tkae'", "did you mean 'take'?"),
    ("procedure_arity", "take()", "E426", "take()", "'take' takes 1 argument(s), 0 given", "take(card)"),
    ("procedure_argument_type", "take(1)", "E431", "1", "expected a card for argument of take, found a number", None),
    ("move_a_number", "move 1 to discard", "E431", "1", "for move, found a number", None),
    ("move_to_a_player", "move card to me", "E431", "me", "expected a zone for move ... to, found a player", None),
    ("shuffle_a_player", "shuffle me", "E431", "me", "expected a zone for shuffle, found a player", None),
    ("if_on_a_number", "if pot:\n  pass", "E431", "pot", "for if, found a number", None),
    ("for_each_over_a_number", "for each x in 3:\n  pass", "E431", "3", "for for each, found a number", None),
    ("repeat_a_zone", "repeat deck:\n  pass", "E431", "deck", "expected a number for repeat, found a zone", None),
    ("while_on_a_zone", "while deck:\n  pass", "E431", "deck", "for while, found a zone", None),
    ("choose_from_a_number", "choose x from 3", "E431", "3", "for choose ... from, found a number", None),
    ("choose_by_a_number", "choose x from players by 1", "E431", "1", "expected a player for choose ... by", None),
    ("subset_of_players", "choose subset xs of players where true", "E431", "players",
     "for choose subset ... of, found a list of players", None),
    ("option_for_a_number", 'choose:\n  option for x in 3 "{x}":\n    pass', "E431", "3", "for option for", None),
    ("option_when_a_number", 'choose:\n  option "a" when 1:\n    pass', "E431", "1", "for when", None),
    ("bad_name_in_text", 'say "{dek} cards"', "E401", "dek", "unknown name 'dek'", "did you mean 'deck'?"),
    ("loop_variable_out_of_scope", "for each x in players:\n  pass\nx.score = 1", "E401", "x", "unknown name 'x'",
     None),
]


@pytest.mark.parametrize("code_text, code, caret, message, hint", [c[1:] for c in BLOCK_ERRORS],
                         ids=[c[0] for c in BLOCK_ERRORS])
def test_block_error(tmp_path, code_text, code, caret, message, hint):
    path, text = block_spec(tmp_path, code_text)
    errs = errors(path)
    assert [d.code for d in errs] == [code], show(errs)
    d = errs[0]
    assert caret_text(text, d) == caret
    assert message in d.message
    if hint is None:
        assert d.hint is None or "did you mean" not in d.hint, d.hint
    else:
        assert d.hint and hint in d.hint


VALID_BLOCKS = [
    ("locals_and_loops", "let n = 0\nfor each p in players:\n  n += p.score\nrepeat 2:\n  n -= 1\npot = max(n, 0)"),
    ("nested_loops_reuse_names", "for each p in players:\n  pass\nfor each p in others:\n  p.score += 1"),
    ("choose_option_for", 'choose by me "give to":\n  option "nobody":\n    pass\n'
                          '  option for q in others "{q}" when q.score > 0:\n    q.score -= 1'),
    ("choose_value_and_subset", "choose c2 from me.hand\nmove c2 to discard\n"
                                "choose subset cs of me.hand where count(cs) <= 2\nmove cs to discard"),
    ("while_and_if", "while count(deck) > 0 and pot < 3:\n  if top(deck).kind == \"coin\":\n    pot += 1\n"
                     "  move top(deck) to discard"),
    ("say_with_holes", 'say "{me} has {me.score} ({card}, {count(me.hand)} cards)"'),
    ("end_turn_in_procedure", "end turn"),
    ("end_game_anywhere", "end game"),
]


@pytest.mark.parametrize("code_text", [c for _, c in VALID_BLOCKS], ids=[i for i, _ in VALID_BLOCKS])
def test_valid_block_checks_clean(tmp_path, code_text):
    path, _ = block_spec(tmp_path, code_text)
    assert errors(path) == [], show(errors(path))


# ---- spec-level checks ----------------------------------------------------------------------------
# (id, old, new, code, (context, target) where the caret starts, message contains)
SPEC_ERRORS = [
    ("unknown_action_in_turn", "actions: [draw, stop]", "actions: [draw, stpo]", "E409", ("stpo", "stpo"),
     "unknown action 'stpo'"),
    ("min_players_above_max", "players: {min: 2, max: 4}", "players: {min: 5, max: 4}", "E410",
     ("{min: 5", "{"), "min (5) is more than max (4)"),
    ("card_total", "  total: 10", "  total: 12", "E411", ("total: 12", "12"),
     "the card counts add up to 10, but the rulebook's total is 12"),
    ("card_missing_property", "props: {points: 0, kind: bomb}", "props: {points: 0}", "E412",
     ("props: {points: 0}", "props"), "card 'bomb' has no value for kind"),
    ("property_mixes_kinds", "props: {points: 0, kind: bomb}", "props: {points: 0, kind: 3}", "E412",
     ("    coin:", "coin"), "card property 'kind' mixes numbers and texts"),
    ("option_default", "    default: 3", "    default: 4", "E413", ("default: 4", "4"),
     "option 'target': default 4 is not one of its values"),
    ("ambiguity_default", "default: all_cards", "default: every_card", "E414", ("every_card", "every_card"),
     "default 'every_card' is not one of its interpretations"),
    ("variable_start_type", "pot: {type: int, start: 0, min: 0}", "pot: {type: bool, start: 0}", "E415",
     ("start: 0}", "0"), "variable 'pot' is bool but starts at 0"),
    ("variable_start_out_of_bounds", "pot: {type: int, start: 0, min: 0}", "pot: {type: int, start: -1, min: 0}",
     "E415", ("-1", "-1"), "variable 'pot' starts outside its bounds"),
    ("variable_min_above_max", "pot: {type: int, start: 0, min: 0}", "pot: {type: int, start: 0, min: 5, max: 1}",
     "E415", ("    pot:", "pot"), "variable 'pot': min is more than max"),
    ("zone_named_like_builtin", "  discard: {owner: shared}", "  discard: {owner: shared}\n  others: {owner: shared}",
     "E416", ("  others:", "others"), "'others' is a built-in name and cannot name a zone"),
    ("procedure_and_function", "functions:\n", "functions:\n  take:\n    value: 1\n", "E416",
     ("  take:\n    value", "take"), "'take' is both a procedure and a function"),
    ("score_not_a_player_variable", "  score: score\n", "  score: pot\n", "E417", ("score: pot", "pot"),
     "end.score must be a player variable, 'pot' is not"),
    ("trigger_on_unknown_zone", "functions:\n", "triggers:\n  boom:\n    enter: discrad\n    do: pass\nfunctions:\n",
     "E418", ("discrad", "discrad"), "trigger 'boom' watches unknown zone 'discrad'"),
    ("game_never_ends", "  when: count(deck) == 0", "  check: always\n  rule: count(deck) == 0", "E419",
     ("end:", "end"), "the game never ends"),
    ("cards_start_in_unknown_zone", "      in: deck\n      props: {points: 0", "      in: hnd\n      props: {points: 0",
     "E420", ("in: hnd", "hnd"), "cards start in 'hnd', which is not a zone"),
    ("recursive_function", "value: sum(p.hand, points)", "value: sum(p.hand, points) + total_of(p)", "E421",
     ("  total_of:", "total_of"), "function 'total_of' calls itself"),
    ("end_turn_in_turn_end", "    actions: [draw, stop]\n", "    actions: [draw, stop]\n    end: end turn\n", "E427",
     ("end: end turn", "end turn"), "`end turn` can only be used during a turn"),
]


@pytest.mark.parametrize("old, new, code, at, message", [c[1:] for c in SPEC_ERRORS], ids=[c[0] for c in SPEC_ERRORS])
def test_spec_level_error(tmp_path, old, new, code, at, message):
    path, text = _edited(tmp_path, old, new)
    found = [d for d in errors(path) if d.code == code and message in d.message]
    assert len(found) == 1, show(diagnostics(path))
    d = found[0]
    line, col = where(text, at[0])
    assert (d.span.line, d.span.col) == (line, col + at[0].index(at[1])), show([d])
    assert message in d.message


def _edited(tmp_path, old, new):
    text = edit(minimal_text(), old, new)
    return write(tmp_path, text), text


# ---- warnings ---------------------------------------------------------------------------------------
WARNINGS = [
    ("ambiguity_never_read", 'if reading.bomb_rule == "all_cards":', "if card.points == 0:", "W401",
     ("  bomb_rule:", "bomb_rule"), "ambiguity 'bomb_rule' is never read", 'reading.bomb_rule == "all_cards"'),
    ("action_never_offered", "actions: [draw, stop]", "actions: [draw]", "W402", ("  stop:\n    when", "stop"),
     "action 'stop' is never offered", None),
    ("procedure_never_called", "procedures:\n", "procedures:\n  unused:\n    do: pass\n", "W403",
     ("  unused:", "unused"), "procedure 'unused' is never called", None),
    ("function_never_used", "me.score += total_of(me)", "me.score += 1", "W403", ("  total_of:", "total_of"),
     "function 'total_of' is never used", None),
]


@pytest.mark.parametrize("old, new, code, at, message, hint", [w[1:] for w in WARNINGS], ids=[w[0] for w in WARNINGS])
def test_warning(tmp_path, old, new, code, at, message, hint):
    path, text = _edited(tmp_path, old, new)
    assert errors(path) == []
    (d,) = warnings(path)
    assert d.code == code and d.severity is Severity.WARNING
    line, col = where(text, at[0])
    assert (d.span.line, d.span.col) == (line, col + at[0].index(at[1]))
    assert message in d.message
    if hint:
        assert hint in d.hint


def test_a_warning_alone_does_not_stop_the_spec(tmp_path):
    from interpreter.api import check_spec
    path, _ = _edited(tmp_path, "procedures:\n", "procedures:\n  unused:\n    do: pass\n")
    spec, diags = check_spec(path)
    assert spec is not None and [d.code for d in diags] == ["W403"]


@pytest.mark.parametrize("path", [MINIMAL, STUN])
def test_shipped_and_minimal_specs_have_no_diagnostics(path):
    assert diagnostics(path) == []


def test_checker_annotates_the_tree_for_the_compiler():
    spec, _, diags = checked(STUN)
    assert diags == []
    assert spec.end_when.ast.ty is T.BOOL
    assert spec.winners.ast.ty is T.PLAYERS
    flip = spec.procedures["flip"]
    assert flip.do.n_locals >= 1
    for code in [flip.do, spec.end_when, spec.winners, spec.procedures["stun_plus"].do]:
        for n in N.walk(code.ast):
            is_statement = isinstance(n, N.Call) and n.ref and n.ref[0] == "proc"
            if isinstance(n, N.Expr) and not isinstance(n, N.Template) and not is_statement:
                assert n.ty is not None, f"{type(n).__name__} at {n.pos} has no type"
            if isinstance(n, N.Name) and n.id not in NAMESPACES:
                assert n.ref is not None, n.id


def test_diagnostics_are_sorted_by_position(tmp_path):
    text = edit(edit(minimal_text(), "option.target", "option.goal"), "take(top(deck))", "take(top(dek))")
    path = write(tmp_path, text)
    diags = diagnostics(path)
    assert [d.code for d in diags] == ["E401", "E402"]
    assert [d.span.line for d in diags] == sorted(d.span.line for d in diags)


# ---- known bugs -------------------------------------------------------------------------------------
def test_int_variable_cannot_start_at_true(tmp_path):
    path, _ = _edited(tmp_path, "pot: {type: int, start: 0, min: 0}", "pot: {type: int, start: true, min: 0}")
    assert [d.code for d in errors(path)] == ["E415"]


def test_value_of_a_bad_assignment_is_still_checked(tmp_path):
    path, _ = _edited(tmp_path, "me.score += total_of(me)", "me.scor += total_of(me, 2)")
    assert sorted(d.code for d in diagnostics(path)) == ["E402", "E426"]


def test_local_bound_in_one_branch_only_is_an_error(tmp_path):
    path, _ = block_spec(tmp_path, "if card.points > 0:\n  let bonus = 1\npot += bonus")
    assert errors(path)


# ---- added with First in Flight ----------------------------------------------------------------------
from interpreter import api
from interpreter.lab.runner import play
from helpers import tiny_variant


def test_action_parameter_from_a_filter_gets_the_chosen_value(tmp_path):
    # The filter's own variable used to take slot 0, where the engine passes the choice.
    path = tiny_variant(tmp_path, """extends: base.yaml
state:
  player:
    got: {type: int}
actions:
  pick:
    label: pick
    choose:
      c: "[x in draw where x.points > 0]"
    do: |
      move c to me.pile
      me.got += c.points
      end turn
set:
  flow.turn.actions: [take, pick]
""")
    game = api.load_game(path)
    for seed in range(20):
        st = play(game, 2, seed)
        assert st.status == "finished", st.reason


def test_two_parameters_the_second_from_the_first(tmp_path):
    path = tiny_variant(tmp_path, """extends: base.yaml
actions:
  pair:
    label: pair
    choose:
      a: "[x in draw where x.points == 1]"
      b: "[y in draw where y != a and y.points == a.points]"
    do: |
      move a to me.pile
      move b to me.pile
      me.score += a.points + b.points
      end turn
set:
  flow.turn.actions: [take, pair]
""")
    game = api.load_game(path)
    for seed in range(10):
        st = play(game, 2, seed)
        assert st.status == "finished", st.reason


def test_card_property_defaults(tmp_path):
    path = tiny_variant(tmp_path, """extends: base.yaml
components:
  defaults: {bonus: 0}
  cards:
    star: {count: 1, in: draw, props: {points: 3, bonus: 2}}
""")
    spec, diags = api.check_spec(path)
    assert spec is not None, diags
    assert spec.cards["one"].props == {"bonus": 0, "points": 1}
    assert spec.cards["star"].props == {"bonus": 2, "points": 3}


def test_a_property_without_a_value_or_default_is_an_error(tmp_path):
    path = tiny_variant(tmp_path, """extends: base.yaml
components:
  cards:
    star: {count: 1, in: draw, props: {points: 3, bonus: 2}}
""")
    spec, diags = api.check_spec(path)
    assert spec is None
    (d, *_) = [d for d in diags if d.code == "E412"]
    assert d.span.path.endswith("base.yaml")  # the card type that lacks it is the base's
    assert "components.defaults" in d.hint
