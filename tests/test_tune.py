"""interpreter/lab/tune.py, targets.py and `rulewright tune`: the variant search against design targets.

The planted spec (tests/specs/tune_planted.yaml) is fair for exactly one value of its option (line=50) by
construction, and a second option changes nothing: the search must find both line=50 variants, report no
other as meeting the band, stop the far-off ones after their first batch, and give the same answer for the
same seed (exhaustively, with Optuna's seeded sampler, and over a process pool).
"""
from __future__ import annotations

import json
import math
import os

import pytest
from click.testing import CliRunner

from interpreter.api import check_spec, load_game, load_spec
from interpreter.cli.commands import cli
from interpreter.lab import targets as T
from interpreter.lab.tune import Candidate, Estimate, Search, parse_vary, pareto, sensitivity, tune
from interpreter.spec.diagnostics import SpecError

PLANTED = "tests/specs/tune_planted.yaml"
FAIR = {"line=50, table=green", "line=50, table=red"}


def rw(*args: str):
    r = CliRunner().invoke(cli, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output and "Traceback" not in r.stderr
    return r


def _planted(targets=("wins spread <= 10pt",), **kw):
    spec, _ = load_spec(PLANTED)
    return tune(PLANTED, 2, kw.pop("seed", 0), T.parse_targets(list(targets), list(spec.measures), 2),
                parse_vary(["line", "table"], spec), **kw)


def _answer(rep) -> list:
    """Everything a user reads but the timings."""
    d = rep.as_dict()
    for k in ("seconds", "cpu_seconds"):
        d.pop(k)
    return d["candidates"]


# ---- targets ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, measure, lo, hi, direction", [
    ("turns 60..90", "turns", 60, 90, None),
    ("wins spread <= 2pt", "wins spread", None, 0.02, None),
    ("win spread <= 0.02", "wins spread", None, 0.02, None),
    ("stalled <= 0.5pt", "stalled", None, 0.005, None),
    ("stalled < 0.5%", "stalled", None, 0.005, None),
    ("margin >= 3", "margin", 3, None, None),
    ("win P2 45%..55%", "win P2", 0.45, 0.55, None),
    ("wins p1 >= 0.4", "win P1", 0.4, None, None),
    ("minimise turns", "turns", None, None, "min"),
    ("Maximize margin", "margin", None, None, "max"),
    ("  decisions 10 .. 20.5 ", "decisions", 10, 20.5, None),
], ids=lambda x: str(x))
def test_targets_read(text, measure, lo, hi, direction):
    t = T.parse_targets([text], [], 3)[0]
    assert (t.measure, t.direction) == (measure, direction)
    assert (t.lo, t.hi) == tuple(None if x is None else pytest.approx(x) for x in (lo, hi))


@pytest.mark.parametrize("text, code, col, words", [
    ("turn 60..90", "E701", 1, "did you mean 'turns'"),
    ("win P4 <= 2pt", "E701", 5, "P1 to P3"),
    ("wins <= 2pt", "E701", 1, "wins spread"),
    ("turns 60..", "E700", 7, "LO..HI"),
    ("turns 60pt..90", "E702", 7, "not a share"),
    ("stalled <= 5", "E702", 12, "5pt is 0.05"),
    ("turns 90..60", "E703", 7, "smaller end first"),
    ("minimise", "E700", 1, "minimise turns"),
    ("minimise turns 5", "E700", 16, "own --target"),
    ("", "E700", 1, "e.g."),
    ("60..90", "E700", 1, "starts with a measure"),
], ids=lambda x: str(x))
def test_bad_targets_are_positioned(text, code, col, words):
    with pytest.raises(SpecError) as exc:
        T.parse_targets(["turns 1..2", text], [], 3)
    (d,) = exc.value.diagnostics
    assert (d.code, d.span.path, d.span.line, d.span.col) == (code, "--target", 2, col)
    assert words in d.message + " " + (d.hint or "")


def test_a_measure_has_one_band():
    with pytest.raises(SpecError) as exc:
        T.parse_targets(["turns 1..9", "turns <= 5"], [], 2)
    assert exc.value.diagnostics[0].code == "E703"
    assert len(T.parse_targets(["turns 1..9", "minimise turns"], [], 2)) == 2  # a band and a direction may share one


@pytest.mark.parametrize("lo, hi, verdict", [
    (62, 70, T.INSIDE), (60, 90, T.INSIDE), (40, 59.9, T.OUTSIDE), (91, 99, T.OUTSIDE),
    (55, 65, T.UNDECIDED), (50, 100, T.UNDECIDED)], ids=str)
def test_a_band_judges_an_interval_three_ways(lo, hi, verdict):
    assert T.Target("turns 60..90", "turns", 60, 90).judge(lo, hi) == verdict


def test_one_sided_bands_and_badness():
    t = T.Target("wins spread <= 2pt", "wins spread", None, 0.02)
    assert t.judge(0.0, 0.019) == T.INSIDE and t.judge(0.021, 0.3) == T.OUTSIDE and t.judge(0.01, 0.03) == T.UNDECIDED
    assert t.shortfall(0.05) == pytest.approx(3.0)  # three points over
    assert t.badness(0.0, 0.01) == (0.0, 0.0)
    assert t.badness(0.03, 0.05) == (pytest.approx(1.0), pytest.approx(3.0))
    assert T.Target("minimise turns", "turns", direction="min").badness(5, 7) == (5, 7)
    assert T.Target("maximise margin", "margin", direction="max").badness(5, 7) == (-7, -5)


# ---- vary -------------------------------------------------------------------------------------------------
def test_vary_reads_names_values_and_ranges():
    spec, _ = load_spec(PLANTED)
    axes = parse_vary(["line=50, 20", "table", "line2=1"][:2], spec)
    assert [(a.name, a.kind, a.values) for a in axes] == [("line", "option", [50, 20]),
                                                          ("table", "option", ["green", "red"])]
    assert parse_vary(["line=30..65"], spec)[0].values == [35, 50, 65]
    stun, _ = load_spec("games/stun.yaml")
    (a,) = parse_vary(["advanced=TRUE"], stun)
    assert a.values == [True]
    (r,) = parse_vary(["first_flip"], stun)
    assert (r.kind, r.values) == ("reading", ["forced", "optional"])


@pytest.mark.parametrize("text, col, words", [
    ("lines", 1, "did you mean 'line'"),
    ("line=50,51", 9, "widen them in a variant"),
    ("line=90..99", 6, "no value of line"),
    ("table=blue", 7, "green, red"),
], ids=str)
def test_bad_vary_is_positioned(text, col, words):
    spec, _ = load_spec(PLANTED)
    with pytest.raises(SpecError) as exc:
        parse_vary([text], spec)
    (d,) = exc.value.diagnostics
    assert (d.code, d.span.path, d.span.line, d.span.col) == ("E704", "--vary", 1, col)
    assert words in d.message + " " + (d.hint or "")


def test_a_name_is_varied_once():
    spec, _ = load_spec(PLANTED)
    with pytest.raises(SpecError) as exc:
        parse_vary(["table", "line", "table=red"], spec)
    (d,) = exc.value.diagnostics
    assert (d.span.line, d.message) == (3, "'table' is varied twice")


# ---- the search -------------------------------------------------------------------------------------------
def test_planted_fair_value_is_found_and_no_other_meets():
    rep = _planted()
    s = rep.first
    assert s.mode == "exhaustive" and len(s.candidates) == 10
    meeting = {c.label for c in s.candidates if c.meets == "true"}
    assert meeting == FAIR
    assert all(c.meets == "false" for c in s.candidates if c.label not in FAIR)
    assert {c.label for c in s.ranked[:2]} == FAIR and {c.label for c in s.candidates if c.pareto} == FAIR
    for c in s.candidates:  # intervals reported with the winners: the true spread lies inside
        (e,) = c.estimates
        true_spread = 0.0 if c.options["line"] == 50 else None
        if true_spread is not None:
            assert e.lo <= true_spread <= e.hi and e.verdict == T.INSIDE


def test_a_candidate_surely_outside_stops_early():
    rep = _planted(games=100, max_games=6400)
    by = {c.label: c for c in rep.first.candidates}
    for far in ("line=20, table=green", "line=80, table=red"):  # 80% against 20%: one batch shows it
        assert by[far].games == 100 and by[far].stopped.startswith("outside")
    assert all(by[f].games > 100 and by[f].stopped == "decided" for f in FAIR)
    assert rep.first.games == sum(c.games for c in rep.first.candidates) < 10 * 6400


def test_the_same_seed_gives_the_same_answer():
    a, b = _planted(seed=7), _planted(seed=7)
    assert _answer(a) == _answer(b)
    c = _planted(seed=8)
    assert [x["games"] for x in _answer(c)] != [x["games"] for x in _answer(a)] or \
        [x["targets"] for x in _answer(c)] != [x["targets"] for x in _answer(a)]


def test_optuna_is_seeded_and_prunes():
    pytest.importorskip("optuna")
    a = _planted(search="optuna", trials=6, seed=3)
    b = _planted(search="optuna", trials=6, seed=3)
    assert a.first.mode == "optuna" and len(a.first.candidates) == 6
    assert _answer(a) == _answer(b)
    assert all(c.label in FAIR for c in a.first.candidates if c.meets == "true")


def test_workers_do_not_change_the_answer():
    assert _answer(_planted(targets=("win P1 40%..60%",), workers=2)) == _answer(_planted(targets=("win P1 40%..60%",)))


def test_objectives_need_precision_and_rank():
    rep = _planted(targets=("wins spread <= 10pt", "maximise margin"))
    c = rep.first.ranked[0]
    assert c.label in FAIR and [e.target.objective for e in c.estimates] == [False, True]
    assert c.estimates[1].mean == pytest.approx(1.0)  # scores are 1 and 0: the margin is always 1


def _cand(label: str, badness: list[tuple[float, float]]) -> Candidate:
    c = Candidate({}, {}, label)
    for k, (lo, hi) in enumerate(badness):
        c.estimates.append(Estimate(T.Target(f"t{k}", "turns", direction="min"), (lo + hi) / 2, lo, hi, 10, T.INSIDE))
    return c


def test_pareto_is_the_set_no_other_beats():
    a = _cand("a", [(1, 2), (5, 6)])
    b = _cand("b", [(5, 6), (1, 2)])  # a trade-off with a: each surely better on one target
    c = _cand("c", [(3, 4), (7, 8)])  # a is surely better on both
    d = _cand("d", [(1.5, 2.5), (6.5, 9)])  # a is surely better on the second, and not surely worse on the first
    e = _cand("e", [(1.5, 2.5), (5.5, 6.5)])  # overlaps a on both: nobody is surely better
    pareto([a, b, c, d, e])
    assert [x.label for x in (a, b, c, d, e) if x.pareto] == ["a", "b", "e"]


def test_policy_sensitivity_flags_a_best_that_depends_on_who_plays():
    x, y = Candidate({"o": 1}, {}, "o=1"), Candidate({"o": 2}, {}, "o=2")
    x.meets, y.meets = "true", "false"
    x2, y2 = Candidate({"o": 1}, {}, "o=1"), Candidate({"o": 2}, {}, "o=2")
    x2.meets, y2.meets = "false", "true"
    for k, c in enumerate((x, y)):
        c.rank = k + 1
    for k, c in enumerate((y2, x2)):
        c.rank = k + 1
    notes = sensitivity([Search("random", {}, candidates=[x, y]), Search("greedy", {}, candidates=[x2, y2])])
    assert notes[0] == "the best variant depends on who plays: random players: o=1; greedy players: o=2"
    assert "o=1 meets the targets under random players but fails them under greedy players" in notes
    same = sensitivity([Search("random", {}, candidates=[x, y]), Search("first", {}, candidates=[x, y])])
    assert same == []


# ---- the command ------------------------------------------------------------------------------------------
def test_cli_json_and_out_variant_checks_clean(tmp_path, monkeypatch):
    # the variant is written in another folder than the spec it extends: allow that one (spec/files.py)
    monkeypatch.setenv("RULEWRIGHT_ALLOW", os.path.abspath(os.path.dirname(PLANTED)))
    out = tmp_path / "best.yaml"
    r = rw("tune", PLANTED, "-p", "2", "--vary", "line", "--vary", "table", "--target", "wins spread <= 10pt",
           "--target", "minimise turns", "--json", "--out", out)
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["best"] in FAIR and set(d["meeting"]) == FAIR and d["mode"] == "exhaustive" and d["out"] == str(out)
    assert len(d["candidates"]) == 10
    for c in d["candidates"]:
        assert set(c) >= {"options", "readings", "meets", "targets"} and c["meets"] in (True, False, "undecided")
        assert c["meets"] is (c["label"] in FAIR)
        band = c["targets"][0]
        assert band["verdict"] in ("inside", "outside", "undecided") and band["lo"] <= band["mean"] <= band["hi"]
    text = out.read_text()
    assert "extends: " in text and "options.line.default: 50" in text
    spec, diags = check_spec(str(out))
    assert spec is not None and not [x for x in diags if x.severity == "error"]
    g = load_game(str(out))
    assert g.options["line"] == 50 and spec.name == "Tune planted (tuned)"


def test_cli_table(tmp_path):
    r = rw("tune", PLANTED, "-p", "2", "--vary", "line", "--target", "win P1 40%..60%", "--show", "3")
    assert r.exit_code == 0, r.output
    assert "best: line=50 (meets: true)" in r.stdout and "and 2 more" in r.stdout and "inside" in r.stdout


def test_cli_bad_targets_and_vary_are_diagnostics():
    r = rw("tune", PLANTED, "-p", "2", "--vary", "lin", "--target", "turns 60..", "--target", "wins spread <= 10")
    assert r.exit_code == 2
    assert "--target:1:7: error[E700]" in r.stderr and "--target:2:16: error[E702]" in r.stderr
    assert "--vary:1:1: error[E704]: no option or ambiguity 'lin'" in r.stderr and "did you mean 'line'" in r.stderr
    assert "3 bad argument(s)" in r.stderr and r.stdout == ""
    r = rw("tune", PLANTED, "-p", "2", "--target", "turns 1..2")
    assert r.exit_code == 2 and "--vary" in r.output
    r = rw("tune", PLANTED, "-p", "2", "--vary", "line", "--target", "turns 1..2", "--option", "line=50")
    assert r.exit_code == 2 and "both varied and fixed" in r.output


def test_cli_out_where_the_variant_may_not_extend_the_spec_is_refused_before_the_search(tmp_path, monkeypatch):
    monkeypatch.delenv("RULEWRIGHT_ALLOW", raising=False)
    out = tmp_path / "best.yaml"
    r = rw("tune", PLANTED, "-p", "2", "--vary", "line", "--target", "turns 1..2", "--out", out)
    assert r.exit_code == 2 and not out.exists()
    assert f"--out: a variant in {tmp_path} may not extend {PLANTED}: it is outside " in r.output


def test_cli_out_is_not_written_when_nothing_meets(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEWRIGHT_ALLOW", os.path.abspath(os.path.dirname(PLANTED)))
    out = tmp_path / "best.yaml"
    r = rw("tune", PLANTED, "-p", "2", "--vary", "line=20,80", "--target", "win P1 45%..55%", "--out", out)
    assert r.exit_code == 1 and not out.exists() and "nothing was written" in r.stderr


def test_a_variant_that_changes_nothing_is_shown_as_the_same_games():
    rep = _planted()
    by = {c.label: c for c in rep.first.candidates}
    for line in (20, 35, 50, 65, 80):  # the table's colour changes nothing: the same games, seed by seed
        green, red = by[f"line={line}, table=green"], by[f"line={line}, table=red"]
        assert green.same_as is None and red.same_as == green.label and red.games == green.games
    assert by["line=35, table=green"].digest.digest() != by["line=50, table=green"].digest.digest()


def test_cli_several_policies_and_report(tmp_path):
    pytest.importorskip("matplotlib")
    r = rw("tune", PLANTED, "-p", "2", "--vary", "line", "--target", "win P1 40%..60%", "--agents", "random,first",
           "--json", "--report", tmp_path / "rep")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert [p["policy"] for p in d["policies"]] == ["random", "first"] and d["sensitivity"] == []
    assert all(p["best"] == "line=50" for p in d["policies"])
    names = sorted(os.listdir(tmp_path / "rep"))
    assert names == ["first-target-1-win_P1.png", "index.html", "random-target-1-win_P1.png"]
    page = (tmp_path / "rep" / "index.html").read_text()
    assert "win P1 40%..60%" in page and "line=50" in page and "inside" in page


@pytest.mark.parametrize("path", ["docs/examples/stun-tunable.yaml", "docs/examples/no-thanks-tunable.yaml"])
def test_the_cookbook_variants_check(path):
    spec, diags = check_spec(path)
    assert spec is not None and not diags


def test_a_spec_measure_is_a_target_and_the_seeds_are_paired():
    rep = _planted(targets=("win P1 40%..60%", "number 40..60"), max_games=800)
    s = rep.first
    assert {c.label for c in s.candidates if c.meets == "true"} == FAIR
    by_games: dict[int, set] = {}
    for c in s.candidates:  # the same seeds turn up the same numbers, whatever the line
        by_games.setdefault(c.games, set()).add((c.estimates[1].mean, c.estimates[1].lo))
    assert all(len(v) == 1 for v in by_games.values())
    ((mean, lo),) = by_games[max(by_games)]
    assert 45 < mean < 54 and lo < 49.5


def test_confirm_plays_the_winners_again_on_other_seeds():
    rep = _planted(confirm=3)
    ranked = rep.first.ranked
    confirmed = [c for c in ranked if c.confirmed is not None]
    assert {c.label for c in confirmed} == FAIR  # only those that meet or may meet: the others fail
    for c in confirmed:
        f = c.confirmed
        assert f.meets == "true" and f.games > 0 and f.estimates[0].mean != c.estimates[0].mean  # other games
    d = rep.as_dict()
    assert d["confirm_seed"] == 1_000_003 and d["candidates"][0]["confirmed"]["meets"] is True
    assert _planted(confirm=3).as_dict()["candidates"] == d["candidates"]
