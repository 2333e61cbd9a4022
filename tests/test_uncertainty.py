"""Every number `simulate` and `compare` print carries its uncertainty (interpreter/lab/estimates.py, runner.Stats)."""
from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from interpreter.cli.commands import cli
from interpreter.lab.estimates import mean_estimate, share_estimate
from interpreter.lab.runner import Stats

RACE = "tests/specs/race.yaml"


def _sim(*args: str) -> dict:
    res = CliRunner().invoke(cli, ["simulate", *args, "--json"])
    assert res.exit_code == 0, res.output
    assert "Infinity" not in res.stdout and "NaN" not in res.stdout
    return json.loads(res.stdout)


def test_simulate_json_gives_intervals_for_every_mean():
    d = _sim(RACE, "-p", "2", "-g", "200", "--seed", "3")
    for key in ("games", "finished", "stalled", "errors", "turns", "wins", "seconds", "games_per_second"):
        assert key in d  # the documented keys stay
    t = d["turns"]
    assert t["ci95"][0] < t["mean"] < t["ci95"][1] and t["se"] > 0
    assert t["se"] == pytest.approx(t["sd"] / math.sqrt(200))
    assert d["decisions"]["ci95"][0] < d["decisions"]["mean"] < d["decisions"]["ci95"][1]
    assert len(d["wins_ci95"]) == len(d["wins_se"]) == 2
    for w, (lo, hi) in zip(d["wins"], d["wins_ci95"]):
        assert 0 <= lo < w < hi <= 1
    assert d["stalled_rate"]["mean"] == 0 and d["stalled_rate"]["ci95"][1] > 0  # 0 of 200 is not surely 0
    assert d["draws"] == 0 and d["no_winner"] == 0
    assert d["margin"]["ci95"] is not None


def test_shared_wins_are_draws_credited_one_over_k():
    s = Stats(3)
    s.add(("finished", (0, 1), 10, 5, None, None, 1))  # a shared win
    s.add(("finished", (2,), 12, 6, None, None, 2))
    s.add(("finished", (), 14, 7, None, None, 3))  # nobody won
    d = s.as_dict()
    assert d["draws"] == 1 and d["no_winner"] == 1
    assert d["wins"] == pytest.approx([0.5 / 3, 0.5 / 3, 1 / 3])
    assert sum(d["wins"]) == pytest.approx(2 / 3)  # the share of finished games somebody won
    assert d["wins"][2] == 1 / 3 and d["turns"]["mean"] == 12.0  # full precision, not rounded
    assert d["decisions"]["mean"] == 6.0 and d["turns"]["ci95"] is None  # three games: no honest interval yet


def test_estimates_match_known_numbers():
    e = mean_estimate(total=sum(range(1, 11)), squares=sum(x * x for x in range(1, 11)), n=10)
    assert e["mean"] == 5.5 and e["sd"] == pytest.approx(3.02765, abs=1e-4)
    assert e["ci95"][1] - e["mean"] == pytest.approx(2.262 * 3.02765 / math.sqrt(10), rel=0.01)
    w = share_estimate(0, 20)
    assert w["ci95"][0] == 0 and w["ci95"][1] == pytest.approx(0.161, abs=0.002)  # Wilson, 0 of 20
    w = share_estimate(10, 20)
    assert w["ci95"] == pytest.approx([0.299, 0.701], abs=0.002)
    assert mean_estimate(3, 9, 1)["ci95"] is None


def test_simulate_table_shows_intervals():
    res = CliRunner().invoke(cli, ["simulate", RACE, "-p", "2", "-g", "50"])
    assert res.exit_code == 0
    assert "95% intervals" in res.stdout and "wins P1" in res.stdout and "[" in res.stdout


def test_compare_json_judges_against_margins_with_agents_for_all_seats():
    res = CliRunner().invoke(cli, ["compare", RACE, f"{RACE}::target=8", "-p", "2", "-g", "150", "--json",
                                   "--agent", "all=first", "--margin", "turns=50%"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["policy"] == "first" and d["margins"]["turns"]["set"] == "50%"
    col = d["specs"][1]
    assert col["verdict"] in ("material", "immaterial", "undecided")
    turns = next(x for x in col["differences"] if x["measure"] == "turns")
    assert turns["margin"] == pytest.approx(0.5 * d["specs"][0]["turns"]["mean"])
    assert d["rows"][3]["ci95"][0] is not None  # turns (mean) with its interval per column
    res = CliRunner().invoke(cli, ["compare", RACE, RACE, "-p", "2", "-g", "10", "--margin", "zzz=1"])
    assert res.exit_code == 2 and "no measure 'zzz'" in res.output


def test_ambiguities_json_has_no_infinity_with_very_few_games():
    res = CliRunner().invoke(cli, ["ambiguities", RACE, "-p", "2", "-g", "10", "--json"])
    assert res.exit_code == 0
    assert "Infinity" not in res.stdout
    d = json.loads(res.stdout)
    assert {a["verdict"] for a in d["ambiguities"]} <= {"material", "undecided", "unreachable"}
