"""interpreter/syntax.py: the rules language parses into AST nodes with positions.

Every statement and expression form of grammar/rules.lark appears in a table
below as source text beside its tree, written as an s-expression. Syntax
errors are parsed from inside real YAML files, so their carets are checked
in file coordinates. Hypothesis generates expressions that must parse to the
tree they were built from, and token soup that may only fail as SpecError.
"""
from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.lang import nodes as N
from interpreter.lang import syntax
from interpreter.lang.builtins import BUILTINS
from interpreter.spec.diagnostics import SpecError, Text
from interpreter.spec.loader import load_file

from helpers import TERMINAL_NAME, write


# ---- a readable form of the tree ---------------------------------------------
def sx(n) -> str:
    """The tree as an s-expression: `(+ 1 (* 2 3))`."""
    if isinstance(n, list):
        return " ".join(sx(x) for x in n)
    if isinstance(n, str):
        return repr(n)
    if n is None:
        return "_"
    t = type(n).__name__
    if isinstance(n, N.Int):
        return str(n.value)
    if isinstance(n, N.Str):
        return f'"{n.value}"'
    if isinstance(n, N.Bool):
        return "true" if n.value else "false"
    if isinstance(n, N.Name):
        return n.id
    if isinstance(n, N.Attr):
        return f"(. {sx(n.obj)} {n.name})"
    if isinstance(n, N.Index):
        return f"(index {sx(n.obj)} {sx(n.key)})"
    if isinstance(n, N.Call):
        return f"(call {n.func}{''.join(' ' + sx(a) for a in n.args)})"
    if isinstance(n, N.ListLit):
        return "[" + " ".join(sx(x) for x in n.items) + "]"
    if isinstance(n, N.Filter):
        return f"({'take-while' if n.stop else 'filter'} {n.var} {sx(n.coll)} {sx(n.cond)})"
    if isinstance(n, N.Quantifier):
        return f"({n.func} {n.var} {sx(n.coll)} {sx(n.cond)})"
    if isinstance(n, N.LetIn):
        return f"(let-in {n.name} {sx(n.value)} {sx(n.body)})"
    if isinstance(n, N.MapList):
        return f"(map {sx(n.value)} {n.var} {sx(n.coll)} {sx(n.cond)})"
    if isinstance(n, N.Aggregate):
        return f"({n.func}-of {sx(n.value)} {n.var} {sx(n.coll)} {sx(n.cond)})"
    if isinstance(n, N.Unary):
        return f"({n.op} {sx(n.operand)})"
    if isinstance(n, N.Binary):
        return f"({n.op} {sx(n.left)} {sx(n.right)})"
    if isinstance(n, N.Ternary):
        return f"(ifelse {sx(n.cond)} {sx(n.then)} {sx(n.orelse)})"
    if isinstance(n, N.Template):
        return "(text " + " ".join(sx(p) for p in n.parts) + ")"
    if isinstance(n, N.Move):
        return f"(move {sx(n.what)} {sx(n.dest)})"
    if isinstance(n, N.Shuffle):
        return f"(shuffle {sx(n.zone)})"
    if isinstance(n, N.Let):
        return f"(let {n.name} {sx(n.value)})"
    if isinstance(n, N.Assign):
        return f"({n.op} {sx(n.target)} {sx(n.value)})"
    if isinstance(n, N.Reveal):
        return f"(reveal {sx(n.target)})"
    if isinstance(n, N.CallStmt):
        return f"(do {sx(n.call)})"
    if isinstance(n, (N.EndTurn, N.EndGame, N.Pass)):
        return {"EndTurn": "(end-turn)", "EndGame": "(end-game)", "Pass": "(pass)"}[t]
    if isinstance(n, N.ChooseTogether):
        return f"(choose-together {n.name} {sx(n.source)} {n.var} {sx(n.players)} {sx(n.prompt)} {sx(n.body)})"
    if isinstance(n, N.TurnOrder):
        return f"(turn-order {n.what}{'' if n.who is None else ' ' + sx(n.who)})"
    if isinstance(n, N.Say):
        return f"(say {sx(n.text)})"
    if isinstance(n, N.ChooseValue):
        return f"(choose {n.name} {sx(n.source)} {sx(n.by)} {sx(n.prompt)})"
    if isinstance(n, N.ChooseSubset):
        return f"(choose-subset {n.name} {sx(n.source)} {sx(n.cond)} {sx(n.by)} {sx(n.prompt)})"
    if isinstance(n, N.If):
        parts = [f"({sx(c)} {sx(b)})" for c, b in n.branches]
        if n.orelse is not None:
            parts.append(f"(else {sx(n.orelse)})")
        return "(if " + " ".join(parts) + ")"
    if isinstance(n, N.ForEach):
        return f"(for {n.var} {sx(n.coll)} {sx(n.body)})"
    if isinstance(n, N.Repeat):
        return f"(repeat {sx(n.count)} {sx(n.body)})"
    if isinstance(n, N.While):
        return f"(while {sx(n.cond)} {sx(n.body)})"
    if isinstance(n, N.Option):
        head = f"option-for {n.var} {sx(n.coll)} " if n.var is not None else "option "
        return f"({head}{sx(n.label)} {sx(n.cond)} {sx(n.body)})"
    if isinstance(n, N.ChooseOption):
        return f"(choose-option {sx(n.by)} {sx(n.prompt)} {sx(n.options)})"
    raise AssertionError(f"no s-expression for {t}")


def parse(src: str, kind: str):
    return syntax.parse(Text(src, "rule.txt"), kind)


@pytest.fixture(autouse=True, scope="module")
def _keep_generated_texts_out_of_the_parse_cache():
    """syntax.parse remembers every text it parses in an on-disk cache; the hundreds of generated and
    broken texts parsed here are forgotten again so a test run does not grow the user's cache."""
    cache = getattr(syntax, "_ast_cache", None)
    try:
        before, dirty = set(cache._load()), cache.dirty
    except Exception:  # no cache, or a different one: nothing to tidy
        cache = None
    yield
    if cache is not None:
        for key in set(cache._load()) - before:
            del cache.entries[key]
        cache.dirty = dirty


# ---- expressions --------------------------------------------------------------
EXPRESSIONS = [
    ("int", "42", "42"),
    ("string_double", '"stun"', '"stun"'),
    ("string_single", "'stun'", '"stun"'),
    ("true", "true", "true"),
    ("false", "false", "false"),
    ("name", "supply", "supply"),
    ("keyword_like_name", "turn.flips", "(. turn flips)"),
    ("attribute_chain", "seat(1).held", "(. (call seat 1) held)"),
    ("index", "me.hand[2]", "(index (. me hand) 2)"),
    ("index_of_list", "[1, 2][1]", "(index [1 2] 1)"),
    ("call_no_args", "f()", "(call f)"),
    ("call_one_arg", "count(draw)", "(call count draw)"),
    ("call_two_args", "sum(me.held, points)", "(call sum (. me held) points)"),
    ("call_nested", "max(abs(0 - 2), min(1, 3))", "(call max (call abs (- 0 2)) (call min 1 3))"),
    ("list_empty", "[]", "[]"),
    ("list", "[1, 2, 3]", "[1 2 3]"),
    ("filter", "[p in players where p.chips > 0]", "(filter p players (> (. p chips) 0))"),
    ("map", "[p.chips + 1 for p in players]", "(map (+ (. p chips) 1) p players _)"),
    ("take_while", "[c in line(x, \"up\") while mark[c] == 1]",
     "(take-while c (call line x \"up\") (== (index mark c) 1))"),
    ("quantifier any", "any p in players where p.chips > 0 and p != me",
     "(any p players (and (> (. p chips) 0) (!= p me)))"),
    ("quantifier all in a condition", "not (all c in me.hand where c.red) or x",
     "(or (not (all c (. me hand) (. c red))) x)"),
    ("aggregate best", "best p in players by score(p)", "(best-of (call score p) p players _)"),
    ("aggregate sum", "sum c in me.hand where c.red of c.v + 1", "(sum-of (+ (. c v) 1) c (. me hand) (. c red))"),
    ("aggregate in a list", "[worst p in players by p.chips]", "[(worst-of (. p chips) p players _)]"),
    ("let_in", "let n = count(draw) in n * n", "(let-in n (call count draw) (* n n))"),
    ("if_then_elif", "if a then 1 elif b then 2 else 3", "(ifelse a 1 (ifelse b 2 3))"),
    ("map_where", "[pits[k] for k in range(1, 6) where k > 2]",
     "(map (index pits k) k (call range 1 6) (> k 2))"),
    ("filter_nested", "[p in others where count([c in p.held where c.points > 1]) > 0]",
     "(filter p others (> (call count (filter c (. p held) (> (. c points) 1))) 0))"),
    ("negate", "-2", "(- 2)"),
    ("negate_twice", "- -x", "(- (- x))"),
    ("precedence_mul_over_add", "1 + 2 * 3", "(+ 1 (* 2 3))"),
    ("left_assoc_sub", "10 - 3 - 2", "(- (- 10 3) 2)"),
    ("floordiv_and_mod", "7 // 2 % 3", "(% (// 7 2) 3)"),
    ("parentheses", "(1 + 2) * 3", "(* (+ 1 2) 3)"),
    ("negate_binds_tighter", "-a * b", "(* (- a) b)"),
    ("compare_each_op", "a == b", "(== a b)"),
    ("compare_ne", "a != b", "(!= a b)"),
    ("compare_le", "a <= b", "(<= a b)"),
    ("compare_ge", "a >= b", "(>= a b)"),
    ("compare_lt", "a < b", "(< a b)"),
    ("compare_gt", "a > b", "(> a b)"),
    ("compare_over_arith", "a + 1 >= b * 2", "(>= (+ a 1) (* b 2))"),
    ("and_over_or", "a or b and c", "(or a (and b c))"),
    ("not_over_and", "not a and b", "(and (not a) b)"),
    ("not_compare", "not a == b", "(not (== a b))"),
    ("not_not", "not not a", "(not (not a))"),
    ("or_left_assoc", "a or b or c", "(or (or a b) c)"),
    ("ternary", "1 if a else 2", "(ifelse a 1 2)"),
    ("ternary_right_nested", "1 if a else 2 if b else 3", "(ifelse a 1 (ifelse b 2 3))"),
    ("ternary_of_or", "x or y if a or b else z", "(ifelse (or a b) (or x y) z)"),
    ("comment_ignored", "a > 1  # the rulebook says so", "(> a 1)"),
    ("reading_branch", 'reading.first_flip == "forced"', '(== (. reading first_flip) "forced")'),
    ("stun_end_condition", "count([p in players where p.chips >= option.win_chips]) > 0",
     "(> (call count (filter p players (>= (. p chips) (. option win_chips)))) 0)"),
]


@pytest.mark.parametrize("src, tree", [(s, t) for _, s, t in EXPRESSIONS], ids=[i for i, _, _ in EXPRESSIONS])
def test_expression_parses_to_tree(src, tree):
    assert sx(parse(src, "condition")) == tree


def test_condition_may_span_several_lines():
    # A condition folded over YAML lines is still one expression.
    assert sx(parse("count(draw) > 0\nand supply > 0\n", "condition")) == "(and (> (call count draw) 0) (> supply 0))"


# ---- statements ----------------------------------------------------------------
STATEMENTS = [
    ("move", "move top(draw) to me.pile", "(move (call top draw) (. me pile))"),
    ("move_zone", "move discard to draw", "(move discard draw)"),
    ("shuffle", "shuffle draw", "(shuffle draw)"),
    ("let", "let n = count(draw)", "(let n (call count draw))"),
    ("assign", "supply = 25", "(= supply 25)"),
    ("assign_add", "me.chips += 1", "(+= (. me chips) 1)"),
    ("assign_sub", "turn.won -= p.lent", "(-= (. turn won) (. p lent))"),
    ("assign_index", "x[1] = 2", "(= (index x 1) 2)"),
    ("procedure_call", "stun_minus(card)", "(do (call stun_minus card))"),
    ("procedure_call_no_args", "flip()", "(do (call flip))"),
    ("reveal", "reveal(me.dice)", "(reveal (. me dice))"),
    ("end_turn", "end turn", "(end-turn)"),
    ("end_game", "end game", "(end-game)"),
    ("next_turn", "next turn to seat(2)", "(turn-order to (call seat 2))"),
    ("skip_turn", "skip next player", "(turn-order skip)"),
    ("reverse_order", "reverse turn order", "(turn-order reverse)"),
    ("extra_turn", "extra turn", "(turn-order extra)"),
    ("choose_together", "choose together c from p.hand for each p in players:\n  pass",
     "(choose-together c (. p hand) p players _ (pass))"),
    ("pass", "pass", "(pass)"),
    ("say_plain", 'say "hello"', "(say (text 'hello'))"),
    ("say_holes", 'say "{me} has {me.chips} chips"', "(say (text me ' has ' (. me chips) ' chips'))"),
    ("say_single_quotes", "say 'ok {1 + 1}'", "(say (text 'ok ' (+ 1 1)))"),
    ("choose_value", "choose c from me.hand", "(choose c (. me hand) _ _)"),
    ("choose_value_by_as", 'choose p from others by me as "victim"', "(choose p others me (text 'victim'))"),
    ("choose_subset", "choose subset cs of me.hand where count(cs) == 2",
     "(choose-subset cs (. me hand) (== (call count cs) 2) _ _)"),
    ("choose_subset_by_as", 'choose subset cs of me.hand where true by next(me) as "discard"',
     "(choose-subset cs (. me hand) true (call next me) (text 'discard'))"),
    ("if", "if a:\n    pass\n", "(if (a (pass)))"),
    ("if_inline_suite", "if a: pass\n", "(if (a (pass)))"),
    ("if_elif_else", "if a:\n    x = 1\nelif b:\n    x = 2\nelif c:\n    x = 3\nelse:\n    x = 4\n",
     "(if (a (= x 1)) (b (= x 2)) (c (= x 3)) (else (= x 4)))"),
    ("nested_blocks", "if a:\n    if b:\n        pass\n    x = 1\ny = 2\n", "(if (a (if (b (pass))) (= x 1))) (= y 2)"),
    ("for_each", "for each p in players:\n    p.lent = 0\n", "(for p players (= (. p lent) 0))"),
    ("repeat", "repeat 2:\n    flip()\n", "(repeat 2 (do (call flip)))"),
    ("while", "while count(draw) > 0:\n    move top(draw) to discard\n",
     "(while (> (call count draw) 0) (move (call top draw) discard))"),
    ("choose_option", 'choose by me "take a chip from":\n    option "the centre" when supply > 0:\n'
                      '        supply -= 1\n    option "nowhere":\n        pass\n',
     "(choose-option me (text 'take a chip from') (option (text 'the centre') (> supply 0) (-= supply 1)) "
     "(option (text 'nowhere') _ (pass)))"),
    ("choose_option_bare", 'choose:\n    option "a": pass\n', "(choose-option _ _ (option (text 'a') _ (pass)))"),
    ("option_for", 'choose:\n    option for p in others "{p}" when p.chips > 0:\n        p.chips -= 1\n',
     "(choose-option _ _ (option-for p others (text p) (> (. p chips) 0) (-= (. p chips) 1)))"),
    ("blank_lines", "\n\nshuffle draw\n\n\nmove a to b\n", "(shuffle draw) (move a b)"),
    ("comment_first_and_at_line_end", "# setup\nshuffle draw  # face down\nmove a to b\n", "(shuffle draw) (move a b)"),
    ("no_final_newline", "shuffle draw", "(shuffle draw)"),
    ("tab_indent", "if a:\n\tpass\n", "(if (a (pass)))"),
]


@pytest.mark.parametrize("src, tree", [(s, t) for _, s, t in STATEMENTS], ids=[i for i, _, _ in STATEMENTS])
def test_statement_parses_to_tree(src, tree):
    assert sx(parse(src, "block")) == tree


def test_every_node_class_is_covered_by_the_tables():
    seen = set()
    for _, src, _ in EXPRESSIONS:
        seen.update(type(n).__name__ for n in N.walk(parse(src, "condition")))
    for _, src, _ in STATEMENTS:
        seen.update(type(n).__name__ for n in N.walk(parse(src, "block")))
    classes = {c.__name__ for c in vars(N).values()
               if isinstance(c, type) and issubclass(c, N.Node) and c not in (N.Node, N.Expr, N.Stmt)}
    assert classes - seen == set()


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_every_builtin_example_parses(name):
    b = BUILTINS[name]
    assert b.doc and b.example
    tree = parse(b.example, "condition")
    assert any(isinstance(n, N.Call) and n.func == name for n in N.walk(tree))


# ---- positions: a node's span is its text in the YAML file -----------------------------
POSITION_CASES = [
    ("plain", "v: count([p in players where p.chips >= 5]) > 0 and not me.ok\n", "condition"),
    ("single_quoted", "v: 'me.kind == \"stun\" or f(1, 2)'\n", "condition"),
    ("double_quoted", "v: \"[p in players where p.chips >= option.win_chips]\"\n", "condition"),
    ("list_item", "v:\n  - seat(1).chips == 2\n", "condition"),
    ("flow_mapping", "v: {w: count(draw) + 1 > x}\n", "condition"),
    ("literal_block", "v: |\n  let n = count(draw)\n  if n > 0:\n    say \"{me} has {n + 1}\"\n"
                      "    move top(draw) to me.pile\n  else:\n    end turn\n", "block"),
    ("literal_block_nested", "a:\n  b:\n    v: |\n      for each p in others:\n        p.lent = 0\n"
                             "      choose by me \"x\":\n        option for q in others \"{q}\" when q.a > 1:\n"
                             "          pass\n", "block"),
    ("literal_block_strip", "v: |-\n  shuffle draw\n  flip()\n", "block"),
    ("literal_block_condition", "v: |\n  count(draw) > 0\n  and supply >= 1\n", "condition"),
    ("literal_block_leading_blank", "v: |\n\n  shuffle draw\n\n  move a to b\n", "block"),
]
POSITION_KNOWN_BAD = [
    pytest.param("plain_folded", "v: count(draw) > 0\n  and supply >= me.chips\n", "condition"),
    pytest.param("folded_block", "v: >\n  count(draw) > 0\n  and supply >= me.chips\n", "condition"),
    pytest.param("double_quoted_escape", "v: \"me.kind == \\\"stun\\\" and supply > 0\"\n", "condition"),
    pytest.param("single_quoted_escape", "v: 'me.kind == ''stun'' and supply > 0'\n", "condition"),
]


def _value_path(data) -> tuple:
    path: tuple = ()
    while isinstance(data, (dict, list)):
        k = next(iter(data)) if isinstance(data, dict) else 0
        path += (k,)
        data = data[k]
    return path


@pytest.mark.parametrize("name, yaml_text, kind",
                         [(n, y, k) for n, y, k in POSITION_CASES] + POSITION_KNOWN_BAD,
                         ids=[c[0] for c in POSITION_CASES] + [p.values[0] for p in POSITION_KNOWN_BAD])
def test_node_spans_map_to_the_file(tmp_path, name, yaml_text, kind):
    path = write(tmp_path, yaml_text, "pos.yaml")
    doc = load_file(path)
    text = doc.text(_value_path(doc.data))
    ast = syntax.parse(text, kind)
    file_lines = yaml_text.splitlines()
    checked = 0
    for node in N.walk(ast):
        src = text.value[node.pos[0]:node.pos[1]]
        if "\n" in src.rstrip("\n") or not src.strip():
            continue  # multi-line statements are checked through their parts
        src = src.rstrip("\n")
        span = text.locate(node.pos[0], node.pos[0] + len(src))
        assert span.path == path
        if span.line == span.end_line and "\\" not in yaml_text and "''" not in yaml_text:
            got = file_lines[span.line - 1][span.col - 1:span.end_col - 1]
            assert got == src, f"{type(node).__name__} at {span.line}:{span.col} shows {got!r}, not {src!r}"
        else:
            # Folded or escaped: the node's first and last characters stand where the span says.
            first = file_lines[span.line - 1][span.col - 1]
            last = file_lines[span.end_line - 1][span.end_col - 2]
            assert (first, last) == (src[0], src[-1]), f"{type(node).__name__}: {first!r}..{last!r} for {src!r}"
        checked += 1
    assert checked >= 4


def test_attribute_and_call_name_positions():
    text = Text("me.chips + count(draw)", "f.yaml", [(7, 11)])
    tree = syntax.parse(text, "condition")
    attr = tree.left
    call = tree.right
    assert text.locate(*attr.name_pos) == text.locate(3, 8)
    assert (text.locate(*attr.name_pos).line, text.locate(*attr.name_pos).col) == (7, 14)
    assert text.value[call.func_pos[0]:call.func_pos[1]] == "count"
    assert text.locate(*call.func_pos).col == 11 + len("me.chips + ")


def test_template_hole_positions_point_into_the_string():
    text = Text('say "a {me.chips} b {count(draw)}"', "f.yaml", [(3, 9)])
    (say,) = syntax.parse(text, "block")
    holes = [p for p in say.text.parts if not isinstance(p, str)]
    assert [text.value[h.pos[0]:h.pos[1]] for h in holes] == ["me.chips", "count(draw)"]
    assert text.locate(*holes[0].pos).col == 9 + text.value.index("me.chips")


# ---- syntax errors, located in the YAML file ---------------------------------------------
# (id, YAML value of `v:` (text after "v: "), kind, code, text under the caret, words the hint contains)
ERRORS = [
    ("unclosed_paren", "(1 + 2", "condition", "E300", "2", "')'"),
    ("assign_in_condition", "a = 1", "condition", "E300", "=", "'=='"),
    ("c_style_and", "a && b", "condition", "E301", "&", "and"),
    ("c_style_or", "a || b", "condition", "E301", "|", "or"),
    ("attribute_not_a_name", "x.1", "condition", "E300", "1", "a name"),
    ("ternary_without_else", "a == 1 if b", "condition", "E300", "b", "'else'"),
    ("unclosed_call", "count(draw", "condition", "E300", "w", "')'"),
    ("empty_condition", '""', "condition", "E300", None, None),
    ("bad_filter", '"[p in players where ]"', "condition", "E300", "]", None),
    ("trailing_comma", "f(1,)", "condition", "E300", ")", None),
    ("two_values", "1 2", "condition", "E300", "2", None),
    ("dangling_operator", "count(draw) +", "condition", "E300", "+", None),
    ("stray_character", "a @ b", "condition", "E301", "@", None),
    ("brace_outside_text", "a {b}", "condition", "E301", "{", None),
    ("expression_statement", "|\n  shuffle draw\n  1 + 2\n", "block", "E302", "1 + 2", "statement"),
    ("assign_to_literal", "|\n  3 = 4\n", "block", "E302", "3", "assign"),
    ("assign_to_call", "|\n  top(draw) = 4\n", "block", "E302", "top(draw)", "assign"),
    ("missing_colon", "|\n  for each p in players\n    x = 1\n", "block", "E300", None, "':'"),
    ("missing_indent", "|\n  if x:\n  move a to b\n", "block", "E300", "move", None),
    ("option_expected", "|\n  choose:\n    foo\n", "block", "E300", "foo", "'option'"),
    ("move_without_dest", "|\n  move x to\n", "block", "E300", None, None),
    ("unclosed_hole", "|\n  say \"n = {count(draw)\"\n", "block", "E302", "{", "{expression}"),
    ("bad_hole", "|\n  say \"n = {1 +}\"\n", "block", "E302", "{1 +}", None),
    ("unclosed_string", "|\n  say \"hello\n", "block", "E301", '"', None),
    ("inconsistent_dedent", "|\n  if a:\n      x = 1\n    y = 2\n", "block", "E303", None, "indent"),
]
ERROR_IDS = [e[0] for e in ERRORS]


def _yaml_error(tmp_path, value: str, kind: str):
    yaml_text = f"# a rule\nv: {value}\n" if not value.startswith("|") else f"# a rule\nv: {value}"
    path = write(tmp_path, yaml_text, "rule.yaml")
    doc = load_file(path)
    with pytest.raises(SpecError) as info:
        syntax.parse(doc.text(("v",)), kind)
    (d,) = info.value.diagnostics
    return d, yaml_text, doc.where[("v",)].value


@pytest.mark.parametrize("value, kind, code, caret, hint", [e[1:] for e in ERRORS], ids=ERROR_IDS)
def test_syntax_error_is_located_inside_the_rule(tmp_path, value, kind, code, caret, hint):
    d, yaml_text, vspan = _yaml_error(tmp_path, value, kind)
    assert d.code == code
    s = d.span
    assert s.path.endswith("rule.yaml")
    # inside the value: never on the key, never after the rule's last line
    assert (vspan.line, vspan.col) <= (s.line, s.col) < (vspan.end_line, vspan.end_col)
    line_text = yaml_text.splitlines()[s.line - 1]
    assert s.col <= len(line_text), f"caret past the end of {line_text!r}"
    if caret is not None:
        assert line_text[s.col - 1:s.end_col - 1] == caret
    if hint is not None:
        assert d.hint and hint in d.hint
    for words in (d.message, d.hint or ""):
        assert not TERMINAL_NAME.search(words), words


HINT_MISSING = {
    "empty_condition", "bad_filter", "trailing_comma", "two_values", "dangling_operator", "stray_character",
    "brace_outside_text", "move_without_dest", "bad_hole",
}


@pytest.mark.parametrize("value, kind", [
    pytest.param(*e[1:3], id=e[0])
    for e in ERRORS])
def test_syntax_error_has_a_hint(tmp_path, value, kind):
    d, _, _ = _yaml_error(tmp_path, value, kind)
    assert d.hint


@pytest.mark.parametrize("value, kind", [
    pytest.param("x.y to", "block", id="expected_assign_ops"),
    pytest.param("me.chips where 1", "block", id="expected_assign_ops_2"),
    pytest.param("a ? b", "condition", id="question_mark"),
    pytest.param("f(a b)", "condition", id="missing_comma"),
    pytest.param("[1, 2", "condition", id="unclosed_list"),
    pytest.param("if a\n    pass\n", "block", id="if_without_colon"),
    pytest.param("let = 3", "block", id="let_without_name"),
])
def test_no_lark_terminal_names_reach_the_user(value, kind):
    with pytest.raises(SpecError) as info:
        parse(value, kind)
    for d in info.value.diagnostics:
        assert not TERMINAL_NAME.search(d.message), d.message
        assert not TERMINAL_NAME.search(d.hint or ""), d.hint


@pytest.mark.parametrize("value, kind", [
    pytest.param("move x to\n", "block", id="end_of_line"),
    pytest.param("for each p in players\n    pass\n", "block", id="end_of_line_before_block"),
    pytest.param("x\n    y = 1\n", "block", id="indented_block"),
])
def test_syntax_error_message_reads_naturally(value, kind):
    with pytest.raises(SpecError) as info:
        parse(value, kind)
    assert not re.search(r"unexpected (the|an) ", info.value.diagnostics[0].message)


def test_inconsistent_indentation_points_at_the_bad_line():
    text = Text("if a:\n      x = 1\n    y = 2\n", "f.yaml", [(10, 5), (11, 5), (12, 5)])
    with pytest.raises(SpecError) as info:
        syntax.parse(text, "block")
    assert info.value.diagnostics[0].span.line == 12


def test_unclosed_string_says_so():
    with pytest.raises(SpecError) as info:
        parse('say "hello\n', "block")
    d = info.value.diagnostics[0]
    assert "never closed" in d.message + (d.hint or "") or "closing" in d.message + (d.hint or "")


@pytest.mark.parametrize("src", [
    pytest.param("shuffle draw\n# then deal\nmove a to b\n", id="between_statements"),
    pytest.param("shuffle draw\n    # indented further\nmove a to b\n", id="indented"),
    pytest.param("if a:\n    pass\n    # end of the block\nx = 1\n", id="end_of_block"),
])
def test_comment_lines_inside_a_block(src):
    assert len(parse(src, "block")) == 2


def test_parser_is_built_once():
    assert syntax.parser() is syntax.parser()


# ---- hypothesis -------------------------------------------------------------------------
NAMES = st.sampled_from(["a", "me", "draw", "x1", "_p", "chips", "players", "supply"])
INTS = st.integers(0, 10**6)
OPS = st.sampled_from(["+", "-", "*", "//", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or"])
LEAVES = st.one_of(
    NAMES.map(lambda n: (n, n)),
    INTS.map(lambda i: (str(i), str(i))),
    st.sampled_from(["stun", "a b", ""]).map(lambda s: (f'"{s}"', f'"{s}"')),
    st.booleans().map(lambda b: ("true", "true") if b else ("false", "false")),
)


def _compound(children):
    binary = st.tuples(children, OPS, children).map(lambda t: (f"({t[0][0]} {t[1]} {t[2][0]})",
                                                              f"({t[1]} {t[0][1]} {t[2][1]})"))
    unary = st.tuples(st.sampled_from(["not", "-"]), children).map(
        lambda t: (f"({t[0]} {t[1][0]})" if t[0] == "not" else f"(-{t[1][0]})", f"({t[0]} {t[1][1]})"))
    call = st.tuples(st.sampled_from(["count", "sum", "f", "max"]), st.lists(children, max_size=3)).map(
        lambda t: (f"{t[0]}({', '.join(c[0] for c in t[1])})",
                   f"(call {t[0]}{''.join(' ' + c[1] for c in t[1])})"))
    attr = st.tuples(children, NAMES).map(lambda t: (f"({t[0][0]}).{t[1]}", f"(. {t[0][1]} {t[1]})"))
    index = st.tuples(children, children).map(lambda t: (f"({t[0][0]})[{t[1][0]}]",
                                                         f"(index {t[0][1]} {t[1][1]})"))
    lst = st.lists(children, max_size=3).map(lambda cs: ("[" + ", ".join(c[0] for c in cs) + "]",
                                                         "[" + " ".join(c[1] for c in cs) + "]"))
    filt = st.tuples(NAMES, children, children).map(
        lambda t: (f"[{t[0]} in {t[1][0]} where {t[2][0]}]", f"(filter {t[0]} {t[1][1]} {t[2][1]})"))
    tern = st.tuples(children, children, children).map(
        lambda t: (f"({t[0][0]} if {t[1][0]} else {t[2][0]})", f"(ifelse {t[1][1]} {t[0][1]} {t[2][1]})"))
    return st.one_of(binary, unary, call, attr, index, lst, filt, tern)


EXPRS = st.recursive(LEAVES, _compound, max_leaves=12)

PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(EXPRS)
def test_generated_expressions_round_trip(pair):
    src, tree = pair
    assert sx(parse(src, "condition")) == tree


@PROPERTY
@given(EXPRS, st.sampled_from(["count(draw) > 0 and ", "", "not "]))
def test_generated_expressions_parse_inside_statements(pair, prefix):
    src, tree = pair
    block = f"if {prefix}{src}:\n    let v = {src}\nx = {src}\n"
    stmts = parse(block, "block")
    assert sx(stmts[1].value) == tree
    assert sx(stmts[0].branches[0][1][0].value) == tree


SOUP = st.lists(st.sampled_from([
    "a", "me", "1", "+", "-", "*", "//", "==", "<", "(", ")", "[", "]", ",", ".", ":", "=", "+=", "and", "or",
    "not", "if", "else", "in", "where", "for", "each", "move", "to", "let", "say", '"t{a}"', '"{"', "'x", "choose",
    "option", "end", "turn", "pass", "repeat", "while", "subset", "of", "by", "as", "\n", "\n    ", "\n  ", "#c",
    "@", "{", "}", "!", "&", "\t",
]), max_size=14).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(SOUP, st.sampled_from(["block", "condition"]))
def test_any_text_parses_or_fails_with_a_located_diagnostic(src, kind):
    lines = src.split("\n")
    text = Text(src, "soup.yaml", [(100 + i, 5) for i in range(len(lines))])
    try:
        syntax.parse(text, kind)
    except SpecError as exc:
        assert exc.diagnostics
        for d in exc.diagnostics:
            assert re.fullmatch(r"E30[0-3]", d.code), d
            assert d.message
            assert 100 <= d.span.line < 100 + len(lines) + 1
            assert d.span.col >= 5
