"""The smaller language defects of issue 14: string escapes and their error, `{...}` in an action
label, `run` showing single-option decisions."""
from __future__ import annotations

from click.testing import CliRunner

from interpreter import api
from interpreter.cli.commands import cli
from interpreter.runtime.engine import Game

from spec_helpers import diagnostics, errors, write

SPEC = r"""
game: {name: Escapes, players: {min: 2, max: 2}}
state:
  global:
    n: {type: int, start: 0}
flow:
  first: seat(1)
  turn:
    actions: [go]
actions:
  go:
    label: go
    do: |
      n += 1
      say "{me} says \"go\" \{not a hole\} {n}"
      say 'it\'s a\\b'
      end turn
end:
  when: n >= 2
"""


def test_escapes_in_texts(tmp_path):
    spec, _ = api.load_spec(write(tmp_path, SPEC))
    st = Game(spec).new_game(2, 1, log=True)
    st.apply(0)
    says = [e["text"] for e in st.log if e["e"] == "say"]
    assert says == ['P1 says "go" {not a hole} 1', "it's a\\b"]


def test_a_quote_inside_a_text_says_how_to_write_it(tmp_path):
    bad = SPEC.replace(r'say "{me} says \"go\" \{not a hole\} {n}"', 'say "{me} says "go" now"')
    diags = diagnostics(write(tmp_path, bad))
    assert [d.code for d in diags] == ["E300"]
    assert 'written \\"' in diags[0].hint


def test_holes_in_an_action_label_are_warned_about(tmp_path):
    spec = SPEC.replace("    label: go\n", "    label: \"go {n}\"\n")
    diags = diagnostics(write(tmp_path, spec))
    assert [d.code for d in diags] == ["W404"] and diags[0].span.line > 1
    assert errors(write(tmp_path, spec, "b.yaml")) == []


def test_run_shows_decisions_with_one_option(tmp_path):
    out = CliRunner().invoke(cli, ["run", write(tmp_path, SPEC), "-p", "2", "--seed", "1"]).output
    assert "P1 chooses: go (the only option)" in out


def test_named_constants(tmp_path):
    spec = SPEC.replace("state:\n", "constants:\n  steps: [3, 1, 2]\n  goal: 2\n  word: go\nstate:\n").replace(
        "      n += 1\n", "      n += first(steps) - 2\n      let copy = steps + [goal]\n").replace(
        "  when: n >= 2\n", "  when: n >= goal and count(steps) == 3 and word == \"go\"\n")
    path = write(tmp_path, spec)
    assert errors(path) == []
    spec_, _ = api.load_spec(path)
    st = Game(spec_).new_game(2, 1)
    st.apply(0)
    st.apply(0)
    assert str(st.status) == "finished"
    clash = spec.replace("  goal: 2\n", "  goal: 2\n  n: 5\n")
    assert "E416" in [c for c, _ in errors(write(tmp_path, clash, "c.yaml"))]
