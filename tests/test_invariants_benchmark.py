"""benchmarks/invariants.py: a smoke test that it plays, audits and flags (the 10,000-game run is not a unit test)."""
from __future__ import annotations

from benchmarks import invariants

from helpers import edit, minimal_text, write


def test_shipped_spec_plays_clean(capsys):
    assert invariants.main(["--games", "5", "--spec", "games/stun.yaml"]) == 0
    out = capsys.readouterr().out
    assert "games/stun.yaml" in out and "bad cards" in out


def test_a_broken_invariant_is_flagged_with_a_seed_to_reproduce(tmp_path, capsys):
    text = edit(minimal_text(), "  score: score\n", "  score: score\ninvariants:\n  no_points:\n"
                                                      "    check: sum(players, score) == 0\n")
    path = write(tmp_path, text)
    assert invariants.main(["--games", "5", "--spec", path]) == 1
    out = capsys.readouterr().out
    assert "first invariants violation: seed " in out and "invariant no_points broken" in out
