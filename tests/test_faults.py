"""Run-time errors point at the rule text that raised them (interpreter/runtime/faults.py).

tests/specs/runtime_error.yaml fails in a different way for each value of its
`fault` option; each must be reported at file:line:col of the failing rule
text, with the seed and choices that reproduce it, and `rulewright run --seed`
must play the same failure again.
"""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from interpreter.api import load_game
from interpreter.cli.commands import cli
from interpreter.runtime.engine import Status
from interpreter.runtime.faults import locate, narrow
from interpreter.spec.diagnostics import render

SPEC = "tests/specs/runtime_error.yaml"


def _failed(fault: str, budget: int = 200_000):
    game = load_game(SPEC, options={"fault": fault}, budget=budget)
    st = game.new_game(2, 5)
    while st.status is Status.RUNNING:
        st.apply(0)
    return game, st


@pytest.mark.parametrize("fault, status, line, col, caret, words", [
    ("top", "error", 46, 18, "top(deck)", "top of deck: the zone is empty"),
    ("key", "error", 48, 9, "me.tally[card.suit]", "'joker' is not a key of 'tally'"),
    ("loop", "stalled", 45, 11, "me.drawn += 1", "no end within the step budget"),
], ids=["empty-zone", "missing-key", "budget"])
def test_fault_is_positioned(fault, status, line, col, caret, words):
    game, st = _failed(fault, budget=1000)
    assert str(st.status) == status
    f = locate(game, st)
    assert f is not None and f.span is not None
    assert (f.span.path, f.span.line, f.span.col) == (SPEC, line, col)
    text = render(f.diagnostic())
    assert text.startswith(f"{SPEC}:{line}:{col}: ")
    assert words in text
    src = open(SPEC, encoding="utf-8").read().splitlines()[line - 1]
    assert src[col - 1:col - 1 + len(caret)] == caret
    assert "^" * len(caret) in text  # the caret spans the failing expression
    assert f"--seed {st.seed}" in text and (fault == "top" or f"--option fault={fault}" in text)
    assert f.choices == st.choices


def test_a_finished_game_has_no_fault():
    from interpreter.lab.runner import play
    game = load_game("games/stun.yaml")
    st = play(game, 3, 1)
    assert st.status is Status.FINISHED and locate(game, st) is None


def test_run_reports_the_rule_and_reproduces_it():
    r1 = CliRunner().invoke(cli, ["run", SPEC, "-p", "2", "--seed", "9"])
    r2 = CliRunner().invoke(cli, ["run", SPEC, "-p", "2", "--seed", "9"])
    assert r1.exit_code == 1 and r1.exception is None or isinstance(r1.exception, SystemExit)
    assert f"{SPEC}:46:18: error[E600]: top of deck: the zone is empty" in r1.stderr
    assert "reproduce with: rulewright run tests/specs/runtime_error.yaml -p 2 --seed 9" in r1.stderr
    assert "Traceback" not in r1.output + r1.stderr
    assert r1.stdout == r2.stdout and r1.stderr == r2.stderr  # the same seed plays the same failure


def test_simulate_positions_the_first_error():
    r = CliRunner().invoke(cli, ["simulate", SPEC, "-p", "2", "--games", "5", "-o", "fault=key"])
    assert r.exit_code == 0, r.output
    assert f"{SPEC}:48:9: error[E600]: 'joker' is not a key of 'tally'" in r.stderr


def test_normal_play_is_compiled_without_marks():
    """Locate mode is off in normal play: no rule text is recorded (the hot path is unchanged)."""
    game = load_game(SPEC)
    assert game.marks == [] and game.at == [None]


def test_narrow_keeps_the_statement_when_ambiguous():
    from interpreter.lang import nodes as N
    a, b = N.Call((0, 3), func="top", func_pos=(0, 3), args=[]), N.Call((5, 8), func="top", func_pos=(5, 8), args=[])
    stmt = N.Move((0, 8), what=a, dest=b)
    assert narrow(stmt, "top of deck: the zone is empty") is stmt
    assert narrow(N.Move((0, 8), what=a, dest=N.Name((5, 8), id="z")), "top of deck: the zone is empty") is a
