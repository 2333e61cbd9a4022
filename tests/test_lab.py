"""The ambiguity lab's statistics must be right: verdicts, intervals, false-material rate."""
import json
import math

import pytest
from click.testing import CliRunner

from interpreter.lab import paired
from interpreter.cli.commands import cli
from interpreter.lab.ambiguities import ambiguity_lab

RACE = "tests/specs/race.yaml"


def _finished(turns, winners, scores=(3, 1)):
    return ("finished", tuple(winners), turns, 0, scores, None, 0)


def test_paired_interval_known_numbers():
    base = [_finished(10, [0]), _finished(10, [1]), _finished(10, [0]), _finished(10, [1])] * 3
    other = [_finished(12, [0]), _finished(14, [1]), _finished(12, [0]), _finished(14, [1])] * 3
    by = {i.measure: i for i in paired.compare(base, other, 2)}
    assert by["turns"].mean == pytest.approx(3.0)
    assert by["turns"].n == 12
    assert by["turns"].excludes_zero
    # Win shares never differ here, but 12 games cannot show a share is unchanged to the point: a rate gets
    # a pseudo-game each way in its spread.
    assert by["win P1"].mean == 0 and 0 < by["win P1"].half < 1
    assert not by["stalled"].excludes_zero


def test_ties_split_the_win_share():
    base = [_finished(5, [0, 1])]
    other = [_finished(5, [0])]
    by = {i.measure: i for i in paired.compare(base, other, 2)}
    assert by["win P1"].mean == pytest.approx(0.5)
    assert by["win P2"].mean == pytest.approx(-0.5)


def test_bonferroni_widens_with_more_measures():
    d = [_finished(10 + (i % 3), [i % 2]) for i in range(50)]
    e = [_finished(11 + (i % 5), [(i + 1) % 2]) for i in range(50)]
    two = {i.measure: i for i in paired.compare(d, e, 2)}["turns"]
    six = {i.measure: i for i in paired.compare(d, e, 6)}["turns"]
    assert six.half > two.half  # more measures, stricter level per measure


def test_lab_verdicts_material_undecided_unreachable():
    rep = ambiguity_lab(RACE, 2, 300, seed=3)
    verdicts = {a.name: a.verdict for a in rep.ambiguities}
    # 300 games cannot show that re-dealing moves a win share by less than 2 points: undecided, not immaterial.
    assert verdicts == {"first_bonus": "material", "shuffle_twice": "undecided", "never_read": "unreachable"}
    assert next(a for a in rep.ambiguities if a.name == "shuffle_twice").games_to_decide > 300
    assert rep.ambiguities[0].name == "first_bonus"  # sorted by impact: the material one first
    assert rep.games == 300


def test_false_material_rate_of_a_no_op_within_the_level():
    """Re-dealing the deck changes every game but not the odds: over repeated seeds the lab
    must call it material no more often than its 5% level allows."""
    trials, material = 40, 0
    for seed in range(trials):
        rep = ambiguity_lab(RACE, 2, 150, seed=1000 + seed, only=["shuffle_twice"])
        material += rep.ambiguities[0].verdict == "material"
    assert material / trials <= 0.075, f"{material} of {trials} no-op comparisons called material"


def test_precision_mode_stops_when_intervals_are_narrow():
    rep = ambiguity_lab(RACE, 2, 100, seed=7, precision=0.2, max_games=5000, only=["shuffle_twice"])
    assert 100 <= rep.games < 5000
    for iv in rep.ambiguities[0].readings[0].intervals:
        limit = 0.2 if iv.rate else 0.2 * rep.baseline["turns_mean"]
        assert iv.half <= limit or math.isclose(iv.half, limit)


def test_cli_ambiguities_json_and_report(tmp_path):
    runner = CliRunner()
    res = runner.invoke(cli, ["ambiguities", RACE, "-p", "2", "-g", "100", "--json",
                              "--report", str(tmp_path / "rep")])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["games"] == 100
    assert {a["ambiguity"] for a in data["ambiguities"]} == {"first_bonus", "shuffle_twice", "never_read"}
    assert (tmp_path / "rep" / "index.html").read_text().count("<img") == 3
    assert (tmp_path / "rep" / "first_bonus.png").stat().st_size > 1000


def test_cli_lint_reports_a_branch_that_never_runs():
    res = CliRunner().invoke(cli, ["lint", RACE, "-p", "2", "-g", "50"])
    assert res.exit_code == 0
    # A race to 5 never empties the 12-card deck, and a deck never holds 100 cards: both are findings,
    # dead ones (W502): no other reading, option value or player count reaches them either.
    assert "race.yaml:55:10: warning[W502]" in res.stderr
    assert "race.yaml:61:10: warning[W502]" in res.stderr
    # The branch inside depends on a reading (it runs under another interpretation): not a finding.
    assert ":62:" not in res.stderr
    res = CliRunner().invoke(cli, ["lint", "games/stun.yaml", "-p", "3", "-g", "100"])
    assert "games/stun.yaml:" in res.stderr and "W501" in res.stderr
