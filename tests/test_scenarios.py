"""Spec examples (interpreter/scenarios.py): stacked shuffles and failures that explain themselves."""
import os

import pytest

from interpreter import api
from interpreter.runtime.scenarios import run_examples
from helpers import tiny_variant


@pytest.fixture(autouse=True)
def _games_allowed(monkeypatch):
    """The variants below live in a temporary folder and extend a shipped spec: allow games/ (spec/files.py)."""
    monkeypatch.setenv("RULEWRIGHT_ALLOW", os.path.abspath("games"))


def _fif_variant(tmp_path, examples: str) -> str:
    """First in Flight's base with only the given examples."""
    p = tmp_path / "v.yaml"
    p.write_text(f"extends: {os.path.abspath('games/first-in-flight.yaml')}\nremove: [examples]\nexamples:\n{examples}",
                 encoding="utf-8")
    return str(p)


def _outcomes(path):
    spec, diags = api.check_spec(path)
    assert spec is not None, diags
    return {o.name: o for o in run_examples(spec)}


def test_after_shuffle_stacks_the_top_of_a_zone(tmp_path):
    out = _outcomes(_fif_variant(tmp_path, """
  stacked:
    players: 3
    given:
      first: 1
      after_shuffle: {deck@1: [basic_problem, basic_flight, basic_problem]}
    do: [fly, flip the next card, flip the next card, flip the next card]
    expect:
      - problems_in(me) == 2
      - flight_distance(me) == 4
      - count(me.deck) == 6
"""))
    assert out["stacked"].ok, out["stacked"].message


def test_after_shuffle_applies_once():
    from interpreter.runtime.engine import Game
    from interpreter.runtime.scenarios import _rig
    spec, _ = api.load_spec("games/first-in-flight.yaml")
    game = Game(spec)
    st = game.new_game(3, 1)
    deck = game.S  # P1's deck is P1's first zone
    stacks = {deck: ("deck@1", ["basic_problem", "basic_problem"])}
    st.rig = _rig(spec, stacks)
    st.shuffle(deck)
    assert [game.card_type[c] for c in st.zones[deck][-2:]] == ["basic_problem", "basic_problem"]
    assert stacks == {}
    st.shuffle(deck)  # a second shuffle is left alone (and does not fail)


@pytest.mark.parametrize("stack, message", [
    ("[basic_flight, basic_flight, basic_flight, basic_flight, basic_flight, basic_flight]",
     "no more 'basic_flight' in the zone"),
    ("[no_such_card]", "unknown card type 'no_such_card'"),
], ids=["too_many", "unknown_type"])
def test_a_stack_that_cannot_be_made_fails_the_example(tmp_path, stack, message):
    out = _outcomes(_fif_variant(tmp_path, f"""
  bad:
    players: 3
    given:
      first: 1
      after_shuffle: {{deck@1: {stack}}}
    do: [fly]
    expect:
      - 'true'
"""))
    assert not out["bad"].ok
    assert message in out["bad"].message


def test_an_expectation_that_cannot_be_evaluated_fails_with_a_reason(tmp_path):
    path = tiny_variant(tmp_path, "extends: base.yaml\nexamples:\n  e:\n    players: 2\n    expect:\n"
                                  "      - top(seat(1).pile) == top(draw)\n")
    (o,) = _outcomes(path).values()
    assert not o.ok and "cannot be evaluated" in o.message and "empty" in o.message
