"""`rulewright play`: a person at one seat, driven through stdin."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from helpers import STUN
from interpreter.cli.commands import cli

HANDS = "tests/specs/hands.yaml"


def run(args: list[str], lines: list[str]):
    return CliRunner().invoke(cli, ["play", *args], input="".join(f"{x}\n" for x in lines))


def test_person_sees_own_view_and_numbered_options():
    r = run([HANDS, "--seat", "1", "-p", "2", "--seed", "3"], ["quit"])
    assert r.exit_code == 0, r.output
    assert "-- your view (P1) --" in r.output
    assert "P2's hand: 2 cards, face down" in r.output
    assert "deck: 9 cards, face down" in r.output
    own = next(line for line in r.output.splitlines() if line.strip().startswith("your hand:"))
    assert own.count("card") == 2  # the person's own two cards, by name
    assert "1. play" in r.output and "draw a card" not in r.output.split("P1, your action:")[1]
    assert "you left the game" in r.output


def test_why_names_the_failed_condition_and_the_rule():
    r = run([HANDS, "--seat", "1", "-p", "2"], ["why", "why 1", "why draw", "why nothing", "quit"])
    assert r.exit_code == 0, r.output
    assert "1. draw a card (draw) is not allowed: `count(me.hand) < 2` is false" in r.output
    assert "now: count(me.hand) = 2" in r.output
    assert 'rule: "Draw a card if your hand holds fewer than two cards."' in r.output
    assert "spec: tests/specs/hands.yaml:" in r.output
    assert "'nothing' is not an action that is refused now" in r.output


def test_bad_numbers_and_commands_are_explained():
    r = run([HANDS, "--seat", "1", "-p", "2"], ["7", "dance", "help", "", "quit"])
    assert r.exit_code == 0, r.output
    assert "there is no option 7: choose 1-1; `why` tells what is not allowed and why" in r.output
    assert "'dance' is not a command" in r.output
    assert "save FILE" in r.output


def test_a_whole_game_to_its_end():
    r = run([HANDS, "--seat", "2", "-p", "2", "--seed", "1", "--agent", "1=greedy:2"], ["1"] * 60)
    assert r.exit_code == 0, r.output
    assert "wins after" in r.output or "win after" in r.output


def test_end_of_input_leaves_the_game():
    r = run([STUN, "--seat", "1", "-p", "2"], [])
    assert r.exit_code == 0
    assert "input ended" in r.output


def test_save_and_resume_is_exact(tmp_path):
    """Saving, resuming and going on gives the same game as never stopping (bots included)."""
    a, b, c = (str(tmp_path / f"{x}.json") for x in "abc")
    first, second = ["1", "1", "2"], ["1", "2", "1", "1"]
    bots = ["--agent", "2=mcts:4", "--agent", "3=greedy:2"]
    whole = run([STUN, "--seat", "1", "-p", "3", "--seed", "5", *bots], first + second + [f"save {c}", "quit"])
    assert whole.exit_code == 0, whole.output
    part = run([STUN, "--seat", "1", "-p", "3", "--seed", "5", *bots], first + [f"save {a}", "quit"])
    assert f"saved to {a}" in part.output
    rest = CliRunner().invoke(cli, ["play", "--resume", a], input="".join(f"{x}\n" for x in second + [f"save {b}", "quit"]))
    assert rest.exit_code == 0, rest.output
    assert "resumed after" in rest.output
    saved_a, saved_b, saved_c = (json.load(open(p)) for p in (a, b, c))
    assert len(saved_a["choices"]) < len(saved_b["choices"])
    assert saved_b["choices"] == saved_c["choices"]
    assert saved_b["agents"] == {"2": "mcts:4", "3": "greedy:2"} and saved_b["seat"] == 1


@pytest.mark.parametrize("args, code, message", [
    ([STUN], 2, "give SPEC and --seat K"),
    ([STUN, "--seat", "3", "-p", "2"], 2, "--seat must be 1..2"),
    ([STUN, "--seat", "1", "-p", "2", "--agent", "1=random"], 2, "seat 1 is yours"),
    ([STUN, "--seat", "1", "-p", "2", "--agent", "2=mcts:x"], 2, "must be a int"),
    (["--resume", "README.md"], 1, "not a Rulewright save"),
    (["--resume", "nowhere.json"], 1, "nowhere.json"),
], ids=["no-seat", "seat-too-big", "own-seat-bot", "bad-agent", "not-a-save", "no-file"])
def test_usage_errors(args, code, message):
    r = CliRunner().invoke(cli, ["play", *args], input="quit\n")
    assert r.exit_code == code, r.output
    assert message in r.output
    assert "Traceback" not in r.output


def test_view_is_compact_and_view_all_shows_every_counter():
    r = run(["games/stunt-academy.yaml", "--seat", "1", "--seed", "2"], ["view all", "quit"])
    assert r.exit_code == 0, r.output
    first, rest = r.output.split("P1, your action:", 1)
    assert "more counters at the start value: `view all`" in first
    assert "victory points" in first  # the score is always shown
    assert "checks on the Scoring Chart (fight)" not in first
    assert "checks on the Scoring Chart (fight)" in rest
    assert "empty: " in first
