"""Limits (interpreter/limits.py and the limits each stage enforces): every one reported, never a crash or a hang.

Front end (each a positioned error from `check`): the file size, YAML
nesting, rule nesting, long numbers, cards in total, loops inside loops, and
rules that only become too deep once procedures are inlined. Run time (each
a game that ends as stalled or error, with its reason, quickly): endless
`while` loops (also inside a procedure that never pauses, and the generated
code ticks the budget in every while loop), huge `repeat` counts, nested
`for each` over long lists, recursion of procedures (pausing or not),
triggers that fire each other, runaway lists and numbers, decisions with too
many options.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from interpreter.lang import limits, syntax
from interpreter.spec import loader
from interpreter.api import check_spec, load_game
from interpreter.lang.builtins import MAX_LIST
from interpreter.cli.commands import cli
from interpreter.compile.compiler import Compiler
from interpreter.spec.diagnostics import Diagnostic, SourceCache, Span, SpecError, render
from interpreter.runtime.engine import MAX_CALL_DEPTH, MAX_OPTIONS, Game, Status

from helpers import caret_text, edit, minimal_text, show, where, write
from test_fuzz import time_guard

ROOT = os.getcwd()
NEVER_ENDS = ("  when: count(deck) == 0 or count([p in players where p.score >= option.target]) > 0\n",
              '  when: "false"\n')


def _indent(code: str, by: int) -> str:
    return "".join(" " * by + ln + "\n" for ln in code.strip("\n").split("\n"))


def spec_text(setup: str = "shuffle deck", procedures: str = "", edits=()) -> str:
    """The minimal spec with scratch globals `a` and `n`, `setup` as its setup block, more procedures."""
    t = minimal_text()
    t = edit(t, "    pot: {type: int, start: 0, min: 0}\n",
             "    pot: {type: int, start: 0, min: 0}\n    a: {type: int}\n    n: {type: int}\n")
    t = edit(t, "  do: shuffle deck\n", "  do: |\n" + _indent(setup, 4))
    if procedures:
        t = edit(t, "procedures:\n", "procedures:\n" + procedures)
    for old, new in edits:
        t = edit(t, old, new)
    return t


def check(tmp_path, text: str) -> tuple[int, str]:
    path = write(tmp_path, text)
    with time_guard(30, "check"):
        r = CliRunner().invoke(cli, ["check", path])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output and "internal error" not in r.output
    return r.exit_code, r.output


def errors(tmp_path, text: str) -> list[Diagnostic]:
    with time_guard(30, "check"):
        spec, diags = check_spec(write(tmp_path, text))
    assert spec is None, "expected errors"
    return [d for d in diags if d.severity == "error"]


def game(tmp_path, text: str, budget: int = 5_000) -> Game:
    spec, diags = check_spec(write(tmp_path, text))
    assert spec is not None, show(diags)
    return Game(spec, budget=budget)


def play(g: Game, players: int = 2):
    """A game played with the first option everywhere, under a time guard."""
    with time_guard(20, "a game"):
        st = g.new_game(players, 1)
        while st.status is Status.RUNNING:
            st.apply(0)
    return st


# ---- front end ---------------------------------------------------------------------------------------------
def test_a_spec_over_the_size_limit_is_refused_before_it_is_read(tmp_path):
    text = minimal_text() + "# " + "x" * loader.MAX_SPEC_BYTES + "\n"
    code, out = check(tmp_path, text)
    assert code == 1 and re.search(r"spec\.yaml:1:1: error\[E108\]: the spec is [\d,]+ bytes; the limit is 2,000,000",
                                   out)


def test_a_spec_just_under_the_size_limit_is_read(tmp_path):
    text = minimal_text()
    text += "#" * (loader.MAX_SPEC_BYTES - len(text.encode()) - 1) + "\n"
    assert check(tmp_path, text)[0] == 0


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_an_endless_file_is_refused_not_read():
    # a device is never read at all (spec/files.py: regular files only); see also tests/test_files.py
    with time_guard(20, "check /dev/zero"):
        r = CliRunner().invoke(cli, ["check", "/dev/zero"])
    assert r.exit_code == 1 and ("/dev/zero:1:1: error[E114]: the spec is a device, not a regular file: only regular "
                                 "files are read") in r.output


def test_aliases_that_expand_exponentially_are_refused(tmp_path):
    text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 12))
    (d,) = errors(tmp_path, text)
    assert d.code == "E109" and f"more than {loader.MAX_YAML_VALUES:,} values" in d.message


def test_a_few_aliases_are_fine(tmp_path):
    text = edit(minimal_text(), "      props: {points: 1, kind: coin}\n", "      props: &coin {points: 1, kind: coin}\n")
    assert check(tmp_path, text)[0] == 0


@pytest.mark.parametrize("text", [
    pytest.param("a:\n" + "".join("  " * (i + 1) + f"k{i}:\n" for i in range(60)), id="block"),
    pytest.param("a: " + "[" * 60 + "]" * 60 + "\n", id="flow_lists"),
    pytest.param("a: " + "{b: " * 60 + "1" + "}" * 60 + "\n", id="flow_mappings"),
])
def test_deep_yaml_nesting_is_an_error_at_the_first_level_too_deep(tmp_path, text):
    (d,) = errors(tmp_path, text)
    assert d.code == "E107" and f"more than {loader.MAX_YAML_DEPTH} levels" in d.message
    line = text.split("\n")[d.span.line - 1]
    assert line[d.span.col - 1] in "[{k" or line[d.span.col - 1:].startswith("b:")


def test_very_deep_yaml_does_not_crash_the_process(tmp_path):
    """libyaml's composer recurses in C: 100,000 nested lists were a segmentation fault."""
    path = write(tmp_path, "[" * 100_000 + "]" * 100_000 + "\n")
    p = subprocess.run([sys.executable, "-m", "interpreter.cli", "check", path], capture_output=True, text=True,
                       cwd=ROOT, timeout=60)
    assert p.returncode == 1, p.returncode
    assert "error[E107]" in p.stderr and "Traceback" not in p.stderr
    assert max(len(ln) for ln in p.stderr.splitlines()) < 250  # the source line is shown as a window


@pytest.mark.parametrize("cond", [
    pytest.param("count(deck) " + "+ 1 " * 3000 + "> 0", id="long_sum"),
    pytest.param("not " * 3000 + "true", id="nots"),
    pytest.param("(" * 300 + "-" * 300 + "1" + ")" * 300 + " > 0", id="negations_in_parentheses"),
    pytest.param("count(" + "[" * 200 + "1" + "]" * 200 + ") > 0", id="lists"),
    pytest.param("1 if true else " * 500 + "2 > 0", id="ternaries"),
])
def test_deep_expressions_are_an_error_not_a_recursion_error(tmp_path, cond):
    text = edit(minimal_text(), "    when: count(deck) > 0\n", f"    when: {cond}\n")
    (d,) = errors(tmp_path, text)
    assert d.code == "E304" and f"more than {syntax.MAX_NESTING} levels" in d.message
    assert d.hint and "split it" in d.hint


def test_deep_expression_in_a_narration_hole(tmp_path):
    text = edit(minimal_text(), "    do: |\n      take(top(deck))\n",
                '    do: |\n      say "{' + "1 + " * 500 + '1}"\n      take(top(deck))\n')
    (d,) = errors(tmp_path, text)
    assert d.code == "E302" and f"nests more than {syntax.MAX_NESTING} levels deep" in d.message


def test_deep_statement_blocks_are_an_error(tmp_path):
    block = "".join("  " * i + "if true:\n" for i in range(120)) + "  " * 120 + "pass\n"
    (d,) = errors(tmp_path, spec_text(block))
    assert d.code == "E304"


def test_rules_just_within_the_nesting_limit_check_and_run(tmp_path):
    g = game(tmp_path, spec_text("a = 0" + " + 1" * 45, edits=[NEVER_ENDS]))
    st = g.new_game(2, 1)
    assert st.status is Status.RUNNING and st.gvars[g.spec.vars["global"]["a"].index] == 45


def test_a_number_with_too_many_digits(tmp_path):
    text = spec_text("a = " + "9" * 5000)
    (d,) = errors(tmp_path, text)
    assert d.code == "E302" and f"more than {syntax.MAX_DIGITS} digits" in d.message
    assert caret_text(text, d).startswith("9999")


def test_card_count_over_the_schema_maximum(tmp_path):
    text = edit(minimal_text(), "      count: 7\n", "      count: 10000000\n")
    (d,) = errors(tmp_path, text)
    assert d.code == "E206" and "at most 10000" in d.message


def test_cards_in_total_over_the_limit(tmp_path):
    text = edit(minimal_text(), "  total: 10\n", "")
    text = edit(text, "      count: 7\n", "      count: 9000\n")
    text = edit(text, "      count: 3\n", "      count: 9000\n")
    (d,) = errors(tmp_path, text)
    assert d.code == "E441" and "the game has 18,000 cards; the limit is 10,000" in d.message
    assert (d.span.line, d.span.col) == (where(text, "  cards:")[0], 3)


def test_cards_in_total_at_the_limit_check(tmp_path):
    text = edit(minimal_text(), "  total: 10\n", "")
    text = edit(text, "      count: 7\n", f"      count: {limits.MAX_CARDS - 3}\n")
    assert check(tmp_path, text)[0] == 0


def _loops(n: int, inner: str = "a += 1") -> str:
    return "".join("  " * i + "repeat 1:\n" for i in range(n)) + "  " * n + inner + "\n"


def test_loops_nested_too_deep_in_one_rule(tmp_path):
    text = spec_text(_loops(limits.MAX_LOOP_NESTING + 1))
    (d,) = errors(tmp_path, text)
    assert d.code == "E442" and d.hint == "move the inner loops into a procedure"
    assert caret_text(text, d).startswith("repeat 1:")
    assert d.span.col - 5 == 2 * limits.MAX_LOOP_NESTING  # the first loop past the limit


def test_loops_nested_to_the_limit_run(tmp_path):
    g = game(tmp_path, spec_text(_loops(limits.MAX_LOOP_NESTING), edits=[NEVER_ENDS]))
    assert g.new_game(2, 1).gvars[g.spec.vars["global"]["a"].index] == 1


def test_loops_that_nest_too_deep_only_once_procedures_are_inlined(tmp_path):
    """Each rule is within the limit; inlined, Python would refuse the code: a spec error, not a crash."""
    proc = "  inner:\n    do: |\n" + _indent(_loops(12), 6)
    text = spec_text(_loops(12, "inner()"), proc)
    code, out = check(tmp_path, text)
    assert code == 1 and "error[E443]" in out and "too deeply" in out
    assert re.search(r"spec\.yaml:\d+:\d+: error\[E443\]", out)


def test_diagnostics_show_a_window_of_a_long_line():
    long = "x" * 5000
    d = Diagnostic("E999", "test", Span("long.yaml", 1, 4001, 1, 4004))
    cache = SourceCache()
    cache.add("long.yaml", long[:4000] + "abc" + long)
    text = render(d, cache)
    line, carets = text.splitlines()[2], text.splitlines()[3]
    assert len(line) < 200 and line.count("...") == 2
    assert line[carets.index("^"):][:3] == "abc" and carets.strip(" |") == "^^^"


# ---- run time: every runaway ends as a reported stall or error -------------------------------------------------
def test_while_true_in_a_procedure_that_never_pauses_hits_the_budget(tmp_path):
    proc = "  spin:\n    do: |\n      while true:\n        a += 1\n"
    st = play(game(tmp_path, spec_text("spin()", proc), budget=500))
    assert st.status is Status.STALLED and "500 steps" in st.reason


def test_while_true_in_a_procedure_that_may_pause_hits_the_budget(tmp_path):
    proc = ("  spin:\n    do: |\n      while true:\n        a += 1\n        if a < 0:\n"
            "          choose p from players\n")
    st = play(game(tmp_path, spec_text("spin()", proc), budget=500))
    assert st.status is Status.STALLED and "500 steps" in st.reason


def test_generated_code_ticks_the_budget_in_every_while_loop(tmp_path):
    procs = ("  plain:\n    do: |\n      while a < 10:\n        a += 1\n"
             "  pausing:\n    do: |\n      while a < 20:\n        a += 1\n        if a < 0:\n"
             "          choose p from players\n")
    spec, diags = check_spec(write(tmp_path, spec_text("plain()\npausing()", procs)))
    assert spec is not None, show(diags)
    c = Compiler(spec, {"target": 3}, {"bomb_rule": "all_cards"})
    c.compile_all()
    src = c.gen.source().split("\n")
    loops = [k for k, ln in enumerate(src) if re.match(r"\s*while (?!True:)", ln)]
    assert loops, "no generated while loop"
    for k in loops:  # a Python while loop: its body starts with a tick (inline: a test that calls it to raise)
        assert "st.tick()" in "\n".join(src[k + 1:k + 3]), "\n".join(src[k:k + 4])
    tests = [k for k, ln in enumerate(src) if re.match(r"\s*if not \(?(?:st\.gvars|G_)\[\d+\] < 20", ln)]
    assert tests, "no resumable while loop"  # a resumable while loop ticks before it jumps back to its test
    for k in tests:
        body = src[k:k + 40]
        assert any("st.tick()" in ln for ln in body)


def test_a_huge_repeat_count_is_charged_at_once(tmp_path):
    st = play(game(tmp_path, spec_text("repeat 1000000000:\n  a += 1"), budget=5_000))
    assert st.status is Status.STALLED and "5000 steps" in st.reason


def test_nested_for_each_over_long_lists_is_charged(tmp_path):
    setup = "for each x in range(1, 50000):\n  for each y in range(1, 50000):\n    a += 1"
    st = play(game(tmp_path, spec_text(setup), budget=100_000))
    assert st.status is Status.STALLED and "100000 steps" in st.reason


# Work inside one expression (issue 23): a filter inside a filter over large ranges once ran for ever.
NESTED = "count([x in range(1, 90000) where count([y in range(1, 90000) where y == x]) > 0])"


@pytest.mark.parametrize("where", [
    pytest.param(lambda e: ("setup", f"a = {e}", []), id="in_an_effect"),
    pytest.param(lambda e: ("condition", "shuffle deck", [("    when: count(deck) > 0\n",
                                                           f"    when: count(deck) > 0 and {e} > 0\n")]),
                 id="in_a_condition"),
    pytest.param(lambda e: ("aggregate", "a = sum x in range(1, 90000) of (sum y in range(1, 90000) of y)", []),
                 id="sum_of"),
    pytest.param(lambda e: ("mapped", "a = count([count([y for y in range(1, 90000) where y == x]) for x in "
                            "range(1, 90000)])", []), id="mapped_list"),
])
def test_one_expression_that_never_ends_stalls_at_the_budget(tmp_path, where):
    _, setup, edits = where(NESTED)
    g = game(tmp_path, spec_text(setup, edits=edits), budget=5_000)
    with time_guard(30, "a nested filter"):
        st = play(g)
    assert st.status is Status.STALLED and st.reason == "no end within the step budget (5000 steps)"
    assert st.steps == 5_001


def test_expression_work_costs_a_step_per_hundred_elements(tmp_path):
    from interpreter.lang.limits import WORK_PER_STEP
    lists = "a = count([x in range(1, 1000) where x > 0])\nn = count([x in range(1, 1050) where x > 0])"
    with_lists, without = (game(tmp_path, spec_text(setup)).new_game(2, 1) for setup in (lists, "a = 1"))
    assert WORK_PER_STEP == 100 and with_lists.work - without.work == (1000 + 1050) % 100
    assert with_lists.steps - without.steps == (1000 + 1050) // 100


def test_generated_code_charges_work_with_and_without_its_shortcuts(tmp_path):
    from helpers import compiled_forms
    text = "count([x in range(1, 950) where x > 0]) + (sum x in range(1, 250) of x)"
    g = game(tmp_path, spec_text(edits=[("functions:\n", f"functions:\n  f0:\n    value: {text}\n")]))
    ((_, generated, general),) = compiled_forms(g, [text])
    one, two, start = g.new_game(2, 1), g.new_game(2, 1), g.new_game(2, 1)
    assert generated(one, [None] * 8) == general(two, [None] * 8) == 950 + 250 * 251 // 2  # range() holds both ends
    assert (one.steps, one.work) == (two.steps, two.work)
    assert one.steps - start.steps == (start.work + 950 + 250) // 100
    assert one.work == (start.work + 950 + 250) % 100


def test_narration_and_labels_are_not_charged(tmp_path):
    """A logged game and an unlogged one take the same steps, however much their narration computes."""
    say = 'say "{count([x in range(1, 5000) where x > 0])} numbers"'
    g = game(tmp_path, spec_text(edits=[("      take(top(deck))\n", f"      take(top(deck))\n      {say}\n")]))
    logged, quiet = g.new_game(2, 3, log=True), g.new_game(2, 3)
    while logged.status is Status.RUNNING:
        logged.labels()
        logged.apply(0)
        quiet.apply(0)
    assert any("5000 numbers" in e.get("text", "") for e in logged.log)
    assert (logged.steps, logged.work) == (quiet.steps, quiet.work)


@pytest.mark.parametrize("setup, edits", [
    pytest.param("while true:\n  a += 1", [], id="while"),
    pytest.param("repeat 1000000:\n  a += 1", [], id="repeat"),
    pytest.param("for each x in range(1, 90000):\n  a += 1", [], id="for_each"),
    pytest.param("shuffle deck", [NEVER_ENDS, ("      move me.hand to discard\n      end turn", "      move me.hand to deck\n      end turn")],
                 id="decisions"),
])
def test_the_budget_is_never_overspent(tmp_path, setup, edits):
    """However the budget runs out, a stalled game has spent exactly one step more than it."""
    st = play(game(tmp_path, spec_text(setup, edits=edits), budget=1_000))
    assert st.status is Status.STALLED and "1000 steps" in st.reason
    assert st.steps == 1_001


def test_endless_recursion_that_never_pauses_is_an_error(tmp_path):
    proc = "  again:\n    do: |\n      a += 1\n      again()\n"
    st = play(game(tmp_path, spec_text("again()", proc)))
    assert st.status is Status.ERROR and "too deeply" in st.reason


def test_endless_recursion_through_pausing_procedures_is_bounded(tmp_path):
    procs = ("  ping:\n    do: |\n      a += 1\n      if a < 0:\n        choose p from players\n      pong()\n"
             "      a += 1\n"
             "  pong:\n    do: |\n      ping()\n      a += 1\n")
    st = play(game(tmp_path, spec_text("ping()", procs), budget=200_000))
    assert st.status is Status.ERROR and f"more than {MAX_CALL_DEPTH:,} deep" in st.reason
    assert len(st.stack) <= MAX_CALL_DEPTH + 2


def test_tail_recursion_is_a_loop_and_hits_the_budget(tmp_path):
    proc = "  again:\n    do: |\n      a += 1\n      if a < 0:\n        choose p from players\n      again()\n"
    st = play(game(tmp_path, spec_text("again()", proc), budget=3_000))
    assert st.status is Status.STALLED and "3000 steps" in st.reason


def test_triggers_that_fire_each_other_end(tmp_path):
    triggers = ("triggers:\n  back:\n    enter: discard\n    do: move card to deck\n"
                "  forth:\n    enter: deck\n    do: move card to discard\nfunctions:\n")
    st = play(game(tmp_path, spec_text("move top(deck) to discard", edits=[("functions:\n", triggers)]),
                   budget=200_000))
    assert st.status is Status.ERROR and "call each other more than" in st.reason


@pytest.mark.parametrize("setup, message", [
    pytest.param("let x = [1]\nwhile true:\n  x = x + x", f"the limit is {MAX_LIST:,}", id="list_doubling"),
    pytest.param("a = 2\nwhile true:\n  a = a * a", "too large", id="number_squaring"),
    pytest.param("for each x in range(1, 1000000000000):\n  a += 1", "would hold", id="huge_range"),
])
def test_runaway_values_are_an_error_not_a_full_memory(tmp_path, setup, message):
    st = play(game(tmp_path, spec_text(setup), budget=200_000))
    assert st.status is Status.ERROR and message in st.reason


def test_an_action_with_too_many_parameter_choices(tmp_path):
    text = spec_text(edits=[("  draw:\n    when: count(deck) > 0\n",
                             "  draw:\n    when: count(deck) > 0\n    choose:\n      i: range(1, 5000)\n"
                             "      j: range(1, 5000)\n")])
    st = play(game(tmp_path, text))
    assert st.status is Status.ERROR and f"more than {MAX_OPTIONS:,}" in st.reason


def test_simulate_reports_runaway_games_as_errors_and_stalls(tmp_path):
    proc = "  spin:\n    do: |\n      while true:\n        a += 1\n"
    path = write(tmp_path, spec_text("spin()", proc))
    with time_guard(60, "simulate"):
        r = CliRunner().invoke(cli, ["simulate", path, "-p", "2", "--games", "5", "--budget", "1000", "--json"])
    assert r.exit_code == 0 and '"stalled": 5' in r.output


def test_load_game_of_a_spec_too_deep_to_compile_is_a_spec_error(tmp_path):
    proc = "  inner:\n    do: |\n" + _indent(_loops(12), 6)
    path = write(tmp_path, spec_text(_loops(12, "inner()"), proc))
    with pytest.raises(SpecError) as exc:
        load_game(path)
    assert exc.value.diagnostics[0].code == "E443"


def test_a_recursion_error_in_any_check_stage_is_reported_not_raised(tmp_path, monkeypatch):
    """The net under the nesting limits: whatever stage recurses too deeply, `check` still answers."""
    from interpreter.lang import checker

    def too_deep(spec):
        raise RecursionError("maximum recursion depth exceeded")
    monkeypatch.setattr(checker, "check", too_deep)
    code, out = check(tmp_path, minimal_text())
    assert code == 1 and re.search(r"spec\.yaml:1:1: error\[E444\]: the spec nests too deeply to check", out)


def test_the_parsed_rule_cache_survives_damage_and_stays_bounded(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    cache = syntax._AstCache()
    cache._load()  # finds its file under XDG_CACHE_HOME
    with open(cache.path, "wb") as fh:
        fh.write(b"\x80\x05garbage that is not a pickle")
    cache.entries = None
    assert cache.get(("condition", "1\n")) is None  # a damaged file is an empty cache
    cache.entries[("condition", "2\n")] = b"not a pickle either"
    assert cache.get(("condition", "2\n")) is None  # a damaged entry is parsed again
    monkeypatch.setattr(syntax._AstCache, "MAX_ENTRIES", 3)
    for i in range(10):
        cache.put(("condition", f"{i}\n"), i)
    cache.used = {("condition", "7\n")}
    cache.save()
    assert set(cache.entries) == {("condition", "7\n")}
    folder = os.path.dirname(cache.path)
    assert not [f for f in os.listdir(folder) if f.startswith(".asts-")]  # no temporary file left
