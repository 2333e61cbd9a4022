"""Statistical tests of the ambiguity lab itself: three verdicts against a practical margin.

tests/specs/lab_proof.yaml has one ambiguity per case, each with an effect of a known size:
`deal` changes only the deal, `noop` changes nothing, `outside` moves player 1's win share
by about 8 points (the spec's margin is 5), `inside` by about 2 points.
The repeated-looks tests run synthetic paired differences through the same statistics
functions the lab uses (fast, and many repetitions).
"""
from __future__ import annotations

import json
import math
import random

import pytest
from click.testing import CliRunner

from interpreter.cli.commands import cli
from interpreter.lab import paired, verdicts as V
from interpreter.lab.ambiguities import ambiguity_lab
from interpreter.lab.settings import SettingsError, margins_for
from interpreter.api import load_spec

PROOF = "tests/specs/lab_proof.yaml"


def _verdict(rep, name):
    a = next(a for a in rep.ambiguities if a.name == name)
    return a.verdict, a


# ---- the four proofs on a real (tiny) game ---------------------------------------------------------------
def test_a_no_op_reading_is_immaterial_at_once():
    rep = ambiguity_lab(PROOF, 2, 10, seed=1, only=["noop"])
    verdict, a = _verdict(rep, "noop")
    assert verdict == "immaterial"
    r = a.readings[0]
    assert r.identical and r.reached == 10
    assert all(iv.mean == 0 and iv.lo == 0 and iv.hi == 0 for iv in r.intervals)


@pytest.mark.parametrize("seed", range(6))
def test_a_deal_only_reading_is_never_immaterial_with_few_games(seed):
    rep = ambiguity_lab(PROOF, 2, 20, seed=seed, only=["deal"])
    verdict, a = _verdict(rep, "deal")
    assert verdict == "undecided", verdict
    assert a.games_to_decide is None or a.games_to_decide > 20


def test_a_deal_only_reading_is_immaterial_with_enough_games():
    rep = ambiguity_lab(PROOF, 2, 6000, seed=2, only=["deal"])
    verdict, a = _verdict(rep, "deal")
    assert verdict == "immaterial"
    win = next(iv for iv in a.readings[0].intervals if iv.measure == "win P1")
    assert -0.05 <= win.lo and win.hi <= 0.05 and win.margin == pytest.approx(0.05)


def test_a_known_effect_just_outside_the_margin_is_material():
    rep = ambiguity_lab(PROOF, 2, 3000, seed=3, only=["outside"])
    verdict, a = _verdict(rep, "outside")
    assert verdict == "material"
    win = next(iv for iv in a.readings[0].intervals if iv.measure == "win P1")
    assert win.verdict == "material" and 0.05 < win.lo < 0.08 < win.hi  # the true effect is 7.98 points


def test_a_known_effect_inside_the_margin_is_immaterial_and_shows_it_moved():
    rep = ambiguity_lab(PROOF, 2, 3000, seed=3, only=["inside"])
    verdict, a = _verdict(rep, "inside")
    assert verdict == "immaterial"
    win = next(iv for iv in a.readings[0].intervals if iv.measure == "win P1")
    assert win.lo > 0  # a real difference (1.9 points), and one that does not matter
    assert win.hi < 0.05


def test_tightening_the_margin_makes_the_small_effect_material():
    rep = ambiguity_lab(PROOF, 2, 3000, seed=3, only=["inside"], margins={"wins": "0.5pt"})
    assert _verdict(rep, "inside")[0] == "material"


def test_play_until_decided_stops_when_every_reading_is_decided():
    rep = ambiguity_lab(PROOF, 2, 200, seed=4, until_decided=True, batch=400, max_games=20_000,
                        only=["noop", "outside", "inside"])
    assert rep.mode == "sequential" and rep.decided
    assert 200 < rep.games < 20_000
    assert {a.name: a.verdict for a in rep.ambiguities} == {"noop": "immaterial", "outside": "material",
                                                           "inside": "immaterial"}


def test_play_until_decided_stops_each_reading_once_it_is_decided():
    """A reading decided early stops there; the undecided one (and the default) go on to the cap, and the
    settled one is judged on the default's first games, the seeds it played."""
    rep = ambiguity_lab(PROOF, 2, 200, seed=4, until_decided=True, batch=200, max_games=2000,
                        only=["inside", "deal"])
    _, inside = _verdict(rep, "inside")
    _, deal = _verdict(rep, "deal")
    assert inside.verdict == "immaterial" and deal.verdict == "undecided"
    early, late = inside.readings[0], deal.readings[0]
    assert late.games == rep.games == 2000
    assert 200 <= early.games < 2000
    assert {iv.n for iv in early.intervals if iv.measure.startswith("win")} == {early.games}
    assert json.loads(json.dumps(rep.as_dict()))["ambiguities"][0]["interpretations"][0]["games"] in (early.games, late.games)


def test_play_until_decided_stops_at_the_cap_and_says_undecided():
    rep = ambiguity_lab(PROOF, 2, 20, seed=5, until_decided=True, batch=20, max_games=60, only=["deal"])
    assert rep.games == 60 and not rep.decided
    assert _verdict(rep, "deal")[0] == "undecided"


# ---- repeated looks do not inflate the false 'material' rate ----------------------------------------------
def _noop_differences(rng: random.Random, n: int) -> list[int]:
    """Paired win-share differences of a reading that re-deals: +1/-1 in half the games, 0 otherwise."""
    return [rng.choice((-1, 0, 0, 1)) for _ in range(n)]


def _false_material_rate(sequential: bool, margin: float, reps: int = 300, batch: int = 50, looks: int = 30,
                         alpha: float = 0.05) -> float:
    rng = random.Random(20261201)
    material = 0
    for _ in range(reps):
        d = _noop_differences(rng, batch * looks)
        total = squares = 0
        for k in range(looks):
            for x in d[k * batch:(k + 1) * batch]:
                total += x
                squares += x * x
            n = (k + 1) * batch
            mean = total / n
            sd = math.sqrt(max(0.0, (squares - total * total / n) / (n - 1)))
            half = V.sequence_half(sd, n, alpha, batch) if sequential else V.fixed_half(sd, n, alpha)
            verdict = V.judge(mean - half, mean + half, margin)
            if verdict == V.MATERIAL:
                material += 1
                break
            if verdict == V.IMMATERIAL:  # decided: the loop stops looking
                break
    return material / reps


def test_repeated_looks_keep_the_false_material_rate_at_most_nominal():
    # The hardest case: margin 0, so "material" only needs the interval to leave zero; 30 looks each.
    rate = _false_material_rate(sequential=True, margin=0.0)
    assert rate <= 0.05, rate
    assert _false_material_rate(sequential=True, margin=0.02) <= 0.05


def test_naive_repeated_looks_would_inflate_it():
    """The check above can fail: fixed-sample intervals looked at 30 times call a no-op material far too often."""
    assert _false_material_rate(sequential=False, margin=0.0) > 0.10


def test_sequential_lab_end_to_end_false_material_rate():
    """The same through paired.compare on synthetic game summaries (every measure, Bonferroni and all)."""
    rng = random.Random(7)
    trials, material = 60, 0
    for _ in range(trials):
        base, other = [], []
        for k in range(10):  # 10 looks of 40 games
            for _g in range(40):
                w = rng.randrange(2)
                base.append(("finished", (w,), 10 + rng.randrange(3), 0, (1, 0), None, 0))
                w2 = rng.randrange(2)
                other.append(("finished", (w2,), 10 + rng.randrange(3), 0, (1, 0), None, 0))
            ivs = paired.compare(base, other, 2, 0.95, t_star=40)
            for iv in ivs:
                iv.judge(0.0)
            v, _ = paired.verdict(ivs, True)
            if v == V.MATERIAL:
                material += 1
                break
    assert material / trials <= 0.05


# ---- the statistics functions themselves ------------------------------------------------------------------
def test_t_value_matches_tables():
    assert V.t_value(0.05, 10) == pytest.approx(2.228, abs=0.01)
    assert V.t_value(0.05, 30) == pytest.approx(2.042, abs=0.005)
    assert V.t_value(0.01, 5) == pytest.approx(4.032, abs=0.002)
    assert V.t_value(0.01, 3) == pytest.approx(5.841, abs=0.002)  # few games: the exact quantile, not a series
    assert V.t_value(0.05, 60) == pytest.approx(2.000, abs=0.002)
    assert V.t_value(0.05, 120) == pytest.approx(1.980, abs=0.002)
    assert V.t_value(0.05, 2) == math.inf


def test_confidence_sequence_is_wider_than_a_fixed_interval_but_shrinks():
    fixed = V.fixed_half(1.0, 1000, 0.05)
    seq = V.sequence_half(1.0, 1000, 0.05, 1000)
    assert fixed < seq < 2 * fixed
    assert V.sequence_half(1.0, 4000, 0.05, 1000) < seq


@pytest.mark.parametrize("lo,hi,margin,want", [
    (0.03, 0.06, 0.02, "material"), (-0.06, -0.03, 0.02, "material"),
    (-0.01, 0.015, 0.02, "immaterial"), (0.0, 0.0, 0.0, "immaterial"),
    (0.01, 0.03, 0.02, "undecided"), (-0.05, 0.05, 0.02, "undecided"),
], ids=["above", "below", "inside", "zero-zero", "straddles-edge", "wide"])
def test_judge(lo, hi, margin, want):
    assert V.judge(lo, hi, margin) == want


def test_games_to_decide_is_a_fair_estimate():
    need = V.games_to_decide(0.0, 0.7, 100, 0.05, 0.05 / 6)
    # at that many games the interval of a zero mean fits inside the margin, and not much before
    assert V.fixed_half(0.7, need, 0.05 / 6) < 0.05 <= V.fixed_half(0.7, int(need * 0.95), 0.05 / 6)
    assert V.games_to_decide(0.05, 0.7, 100, 0.05, 0.01) is None  # exactly on the margin: cannot tell


def test_combine_readings():
    assert V.combine(["immaterial", "material"], [None, None], [False, True]) == ("material", None)
    assert V.combine(["immaterial", "immaterial"], [None, None], [False, False]) == ("immaterial", None)
    assert V.combine(["undecided", "undecided"], [500, 900], [True, False]) == ("undecided", 500)
    assert V.combine(["undecided", "undecided"], [500, 900], [False, False]) == ("undecided", 900)


# ---- margins: spec, command line, diagnostics --------------------------------------------------------------
def test_margins_from_spec_and_command_line():
    spec = load_spec(PROOF)[0]
    m = margins_for(spec)
    assert m["wins"].amount == pytest.approx(0.05) and not m["wins"].relative  # the spec's lab.margins
    assert m["turns"].relative and m["turns"].amount == pytest.approx(0.05)  # the default
    m = margins_for(spec, {"wins": "0.01", "turns": "10%"})
    assert m["wins"].amount == pytest.approx(0.01) and m["turns"].amount == pytest.approx(0.10)
    with pytest.raises(SettingsError, match="no measure 'wins_p1'"):
        margins_for(spec, {"wins_p1": "1"})
    with pytest.raises(SettingsError, match="not a margin"):
        margins_for(spec, {"wins": "lots"})


def test_cli_margins_agents_and_json():
    res = CliRunner().invoke(cli, ["ambiguities", PROOF, "-p", "2", "-g", "200", "--json", "--margin", "wins=0.5pt",
                                   "--agent", "all=first", "--only", "outside"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["margins"]["wins"]["value"] == pytest.approx(0.005)
    assert d["policy"] == "first" and d["agents"] == {"1": "first", "2": "first"}
    r = d["ambiguities"][0]["interpretations"][0]
    assert r["verdict"] in ("material", "immaterial", "undecided")
    assert {"margin", "verdict", "games_to_decide", "sd"} <= set(r["differences"][0])


@pytest.mark.parametrize("args,message", [
    (["--margin", "wins=lots"], "not a margin"),
    (["--margin", "nope=1"], "no measure 'nope'"),
    (["--agent", "all=alphazero"], "unknown agent 'alphazero'"),
    (["--agent", "3=greedy"], "seat must be 1..2 or all"),
    (["--agents", "random,zzz"], "unknown agent 'zzz'"),
    (["--agents", "random", "--agent", "1=greedy"], "give one"),
    (["--until-decided", "--precision", "0.1"], "give one"),
], ids=["bad-margin", "unknown-measure", "unknown-agent", "bad-seat", "bad-policy", "agents-and-agent",
        "two-stopping-rules"])
def test_cli_usage_errors(args, message):
    res = CliRunner().invoke(cli, ["ambiguities", PROOF, "-p", "2", "-g", "10", *args])
    assert res.exit_code == 2, res.output
    assert message in res.output and "Traceback" not in res.output


def test_a_bad_agent_in_the_lab_section_is_a_positioned_error(tmp_path):
    text = open(PROOF, encoding="utf-8").read().replace("lab:\n  margins:\n    wins: 5pt\n",
                                                         "lab:\n  agents: alphazero\n  margins:\n    wins: 5pt\n")
    spec = tmp_path / "bad_agent.yaml"
    spec.write_text(text, encoding="utf-8")
    res = CliRunner().invoke(cli, ["ambiguities", str(spec), "-p", "2", "-g", "10"])
    assert res.exit_code == 1
    line = text.splitlines().index("  agents: alphazero") + 1
    assert f"bad_agent.yaml:{line}:11: error[E483]: lab.agents: unknown agent 'alphazero'" in res.stderr


def test_lab_agents_in_the_spec_are_the_default_players(tmp_path):
    text = open(PROOF, encoding="utf-8").read().replace("lab:\n", "lab:\n  agents: first\n")
    spec = tmp_path / "first.yaml"
    spec.write_text(text, encoding="utf-8")
    rep = ambiguity_lab(str(spec), 2, 20, seed=1, only=["noop"])
    assert rep.agents == {0: "first", 1: "first"} and rep.policy == "first"
    assert ambiguity_lab(str(spec), 2, 20, seed=1, only=["noop"], agents={}).policy == "random"


# ---- who plays: policy sensitivity -------------------------------------------------------------------------
@pytest.mark.parametrize("verdicts,artefact,dependent", [
    ({"random": "material", "greedy": "immaterial", "mcts:20": "unreachable"}, True, True),
    ({"random": "material", "greedy": "material"}, False, False),
    ({"random": "immaterial", "greedy": "material"}, False, True),
    ({"random": "material", "greedy": "undecided"}, False, False),
    ({"random": "undecided", "greedy": "immaterial"}, False, False),
], ids=["artefact", "robust", "only-strategic", "not-yet-known", "undecided-random"])
def test_policy_flags(verdicts, artefact, dependent):
    from interpreter.lab.policies import assess
    s = assess("x", verdicts, {})
    assert (s.random_artefact, s.policy_dependent) == (artefact, dependent)
    assert s.note


def test_agents_run_the_lab_per_policy_and_report_it(tmp_path):
    res = CliRunner().invoke(cli, ["ambiguities", PROOF, "-p", "2", "-g", "40", "--agents", "random,first", "--json",
                                   "--only", "noop", "--only", "outside", "--report", str(tmp_path / "rep")])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["policies"] == ["random", "first"] and len(d["reports"]) == 2
    assert [r["policy"] for r in d["reports"]] == ["random", "first"]
    assert {s["ambiguity"] for s in d["sensitivity"]} == {"noop", "outside"}
    noop = next(s for s in d["sensitivity"] if s["ambiguity"] == "noop")
    assert noop["verdicts"] == {"random": "immaterial", "first": "immaterial"} and not noop["policy_dependent"]
    page = (tmp_path / "rep" / "index.html").read_text(encoding="utf-8")
    assert "policy sensitivity" in page and "Margins" in page and "&plusmn;5 points" in page
    assert (tmp_path / "rep" / "first-outside.png").exists() and (tmp_path / "rep" / "random-noop.png").exists()
    table = CliRunner().invoke(cli, ["ambiguities", PROOF, "-p", "2", "-g", "40", "--agents", "random,first",
                                     "--only", "noop"])
    assert "verdicts by who plays" in table.stdout and "depends on the players?" in table.stdout


def test_a_saved_report_reads_back_the_same():
    from interpreter.lab.ambiguities import LabReport
    rep = ambiguity_lab(PROOF, 2, 30, seed=2)
    d = json.loads(json.dumps(rep.as_dict()))
    assert LabReport.from_dict(d).as_dict() == d


def test_an_effect_random_players_see_and_others_do_not_is_flagged_before_verdicts_are_decided():
    from interpreter.lab.policies import assess
    big = paired.Interval("turns", 107.0, 100.0, 114.0, 1000, False, 50.0, margin=5.0, verdict="material")
    small = paired.Interval("turns", 8.9, -12.1, 30.0, 20, False, 40.0, margin=5.0, verdict="undecided")
    s = assess("first_flip", {"random": "material", "mcts:20": "undecided"}, {},
               {"random": {"optional": [big]}, "mcts:20": {"optional": [small]}})
    assert s.random_artefact and s.policy_dependent
    assert s.differs == ["optional turns: random +107 [+100, +114], mcts:20 +8.9 [-12.1, +30]"]
    overlapping = paired.Interval("turns", 95.0, 60.0, 130.0, 20, False, 40.0, margin=5.0, verdict="undecided")
    s = assess("first_flip", {"random": "material", "mcts:20": "undecided"}, {},
               {"random": {"optional": [big]}, "mcts:20": {"optional": [overlapping]}})
    assert not s.random_artefact and not s.policy_dependent
