"""Golden game logs: every shipped game has one, and replaying it regenerates it exactly.

Regenerate after an intended rules change with
`rulewright run games/<game>.yaml -p N --seed S --log tests/golden/<game>.jsonl`
(the header in each golden file says which N and S), then review the diff.
"""
import glob
import json
import os

import pytest

from interpreter.runtime.gamelog import replay

GOLDEN = sorted(glob.glob("tests/golden/*.jsonl"))
SHIPPED = sorted(p for p in glob.glob("games/*.yaml"))


@pytest.mark.parametrize("path", GOLDEN, ids=[os.path.basename(p) for p in GOLDEN])
def test_golden_log_replays_exactly(path):
    rep = replay(path)
    assert rep.ok, f"{path}:{rep.first_difference}: first difference\n  golden: {rep.expected}\n  now:    {rep.got}"
    assert rep.events > 10


@pytest.mark.parametrize("spec", SHIPPED, ids=[os.path.basename(p) for p in SHIPPED])
def test_every_shipped_game_has_a_golden_log(spec):
    covered = set()
    for path in GOLDEN:
        with open(path, encoding="utf-8") as fh:
            covered.add(os.path.normpath(json.loads(fh.readline())["spec"]))
    assert os.path.normpath(spec) in covered, f"{spec} has no golden log in tests/golden/"
