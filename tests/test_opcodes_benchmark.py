"""benchmarks/opcodes.py: bytecodes per decision are the same on every run, and its output says them."""
from __future__ import annotations

import pytest

from benchmarks import opcodes
from interpreter.lab import runner
from interpreter.runtime.pipeline import load_game
from interpreter.runtime.seeds import game_seed


def test_an_opcode_count_is_the_same_on_every_run():
    game = load_game("tests/specs/duel.yaml")

    def play(i):
        return runner.play(game, 2, game_seed(1, i)).decisions
    opcodes.count(play, 4)  # the first games also build what a game builds once (its start, caches)
    first, second = opcodes.count(play, 4), opcodes.count(play, 4)
    assert first[0] == second[0] > 0 and first[1] == 8  # every duel is two decisions
    assert any(name.startswith("FLOW_") for name in first[2])  # the generated flow is where turns run


def test_the_opcode_benchmark_prints_its_rows(capsys):
    assert opcodes.main(["tests/specs/duel.yaml:2", "--games", "2", "--no-baselines"]) == 0
    out = capsys.readouterr().out
    assert "duel.yaml -p 2" in out and "opcodes/decision" in out
    with pytest.raises(SystemExit, match="is not SPEC:PLAYERS"):
        opcodes.main(["tests/specs/duel.yaml"])
